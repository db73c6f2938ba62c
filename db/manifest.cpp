#include "db/manifest.hpp"

#include <tbb/parallel_for.h>

#include "db/bytes.hpp"
#include "db/errors.hpp"
#include "db/layout.hpp"
#include "solver/core/hash.hpp"

namespace toadbase::db {

namespace {

constexpr const char* kFormatName = "toadbase";

}  // namespace

std::string hex64(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string tiers_digest(const std::vector<TierInfo>& tiers, unsigned width) {
  std::string all;
  for (const auto& t : tiers) {
    all += t.name;
    all.push_back('\0');
    put_le64(all, t.sized_by_solve() ? kSizedBySolve : t.positions * width);
  }
  return hex64(xxh64(all.data(), all.size()));
}

nlohmann::json new_manifest(const Identity& id, const std::vector<TierInfo>& tiers, int zstd_level) {
  uint64_t positions = 0;
  nlohmann::json runs = nlohmann::json::array();  // [from, to) runs of tiers sized by the solve
  for (TierId t = 0; t < tiers.size(); ++t) {
    if (!tiers[t].sized_by_solve()) {
      positions += tiers[t].positions;
    } else if (!runs.empty() && runs.back()[1] == t) {
      runs.back()[1] = t + 1;
    } else {
      runs.push_back({t, t + 1});
    }
  }
  const uint64_t block = id.block_bytes ? id.block_bytes : kDefaultBlockBytes;
  if (!valid_block_bytes(block))
    throw std::invalid_argument("blocks of " + std::to_string(block) + " bytes: not a power of two from " +
                                std::to_string(kMinBlockBytes) + " to " + std::to_string(kMaxBlockBytes));
  nlohmann::json m = {{"format", kFormatName},
                      {"format_version", planes_per_block(kFormatVersion, id.record_bytes) ? kFormatVersion
                                         : block == kDefaultBlockBytes                    ? 2u
                                                                                          : 3u},
                      {"game", id.game},
                      {"parameters", id.parameters},
                      {"record", id.record},
                      {"block_records", block},
                      {"compression", "zstd"},
                      {"zstd_level", zstd_level},
                      {"tier_count", tiers.size()},
                      {"tiers_digest", tiers_digest(tiers, id.record_bytes)},
                      {"positions", positions},
                      {"complete", false}};
  if (id.record_bytes != 1) m["record_bytes"] = id.record_bytes;
  if (!runs.empty()) m["sized_by_solve"] = runs;
  return m;
}

std::vector<bool> sized_by_solve(const nlohmann::json& m, const std::string& path) {
  const uint64_t n = m.at("tier_count").get<uint64_t>();
  std::vector<bool> out(n, false);
  if (!m.contains("sized_by_solve")) return out;
  const nlohmann::json& runs = m["sized_by_solve"];
  bool ok = runs.is_array();
  for (size_t i = 0; ok && i < runs.size(); ++i) {
    const nlohmann::json& r = runs[i];
    ok = r.is_array() && r.size() == 2 && r[0].is_number_unsigned() && r[1].is_number_unsigned() &&
         r[0].get<uint64_t>() < r[1].get<uint64_t>() && r[1].get<uint64_t>() <= n;
    if (ok)
      for (uint64_t t = r[0].get<uint64_t>(); t < r[1].get<uint64_t>(); ++t) out[t] = true;
  }
  if (!ok) throw DbError(path + ": the manifest is damaged (its list of tiers sized by the solve)");
  return out;
}

nlohmann::json parse_manifest(const std::string& text, const std::string& path) {
  nlohmann::json m;
  try {
    m = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw DbError(path + ": the manifest is damaged (not JSON past byte " + std::to_string(e.byte) + ")");
  }
  if (!m.is_object() || !m.contains("format") || m["format"] != kFormatName)
    throw DbError(path + " is not a toadbase database");
  const auto& v = m.contains("format_version") ? m["format_version"] : nlohmann::json();
  if (!v.is_number_unsigned() || v.get<uint64_t>() < kOldestReadableVersion || v.get<uint64_t>() > kFormatVersion)
    throw DbError(path + " has format version " + v.dump() + "; this toadbase reads versions " +
                  std::to_string(kOldestReadableVersion) + " to " + std::to_string(kFormatVersion));
  const bool typed = m.contains("game") && m["game"].is_string() && m.contains("parameters") &&
                     m["parameters"].is_object() && m.contains("record") && m["record"].is_string() &&
                     m.contains("tier_count") && m["tier_count"].is_number_unsigned() &&
                     (!m.contains("record_bytes") || (m["record_bytes"].is_number_unsigned() &&
                                                      m["record_bytes"].get<uint64_t>() >= 1 &&
                                                      m["record_bytes"].get<uint64_t>() <= 64)) &&
                     (!m.contains("complete") || m["complete"].is_boolean()) &&
                     (!m.contains("zstd_level") || m["zstd_level"].is_number_integer()) &&
                     (!m.contains("positions") || m["positions"].is_number_unsigned()) &&
                     (!m.contains("digest") || m["digest"].is_string()) &&
                     (!m.contains("tiers_digest") || m["tiers_digest"].is_string()) &&
                     (!m.contains("stored_bytes") || m["stored_bytes"].is_number_unsigned()) &&
                     (!m.contains("table_records") || m["table_records"].is_number_unsigned()) &&
                     (!m.contains("block_records") || (m["block_records"].is_number_unsigned() &&
                                                       valid_block_bytes(m["block_records"].get<uint64_t>())));
  if (!typed) throw DbError(path + ": the manifest is damaged (a field is missing or mistyped)");
  // format 2 and older always cut blocks of 64 KiB
  if (v.get<uint64_t>() < 3 && block_bytes_of(m) != kDefaultBlockBytes)
    throw DbError(path + ": the manifest is damaged (blocks of " + m["block_records"].dump() + " bytes in format " +
                  v.dump() + ")");
  return m;
}

uint64_t block_bytes_of(const nlohmann::json& m) { return m.value("block_records", kDefaultBlockBytes); }

Identity identity_of(const nlohmann::json& m) {
  return {m.at("game").get<std::string>(), m.at("parameters"), m.at("record").get<std::string>(),
          m.value("record_bytes", 1u), static_cast<uint32_t>(block_bytes_of(m))};
}

std::string tier_key(TierId t) {
  std::string k = "T";
  put_be32(k, t);
  return k;
}

std::string block_key(TierId t, uint64_t b) {
  std::string k = "B";
  put_be32(k, t);
  put_be32(k, static_cast<uint32_t>(b));
  return k;
}

bool parse_tier_key(std::string_view key, TierId* t) {
  if (key.size() != 5 || key[0] != 'T') return false;
  uint32_t v = 0;
  for (int i = 1; i <= 4; ++i) v = (v << 8) | static_cast<uint8_t>(key[i]);
  *t = v;
  return true;
}

std::string encode_commit(const TierMeta& m, unsigned width) {
  std::string v;
  put_le64(v, m.positions * width);
  put_le64(v, m.blocks);
  put_le64(v, m.stored_bytes);
  put_le64(v, m.digest);
  put_le64(v, m.kept * width);
  return v;
}

TierMeta decode_commit(std::string_view v, unsigned width, uint32_t format_version, uint64_t block_bytes,
                       const std::string& where) {
  const size_t want = format_version >= 2 ? 40 : 32;
  if (v.size() != want) throw DbError(where + " is damaged (its commit record has " + std::to_string(v.size()) + " bytes)");
  const uint64_t bytes = get_le64(v.data()), blocks = get_le64(v.data() + 8);
  const uint64_t kept_bytes = want == 40 ? get_le64(v.data() + 32) : (blocks ? bytes : 0);
  if (bytes % width || kept_bytes % width || kept_bytes > bytes ||
      PlaneLayout{width, kept_bytes / width, block_bytes, planes_per_block(format_version, width)}.blocks() != blocks)
    throw DbError(where + " is damaged (its commit record does not add up)");
  TierMeta m;
  m.positions = bytes / width;
  m.kept = kept_bytes / width;
  m.blocks = blocks;
  m.stored_bytes = get_le64(v.data() + 16);
  m.digest = get_le64(v.data() + 24);
  return m;
}

std::string tier_list_text(const std::vector<TierInfo>& tiers, const std::vector<TierMeta>& meta) {
  std::vector<std::string> entries(meta.size());
  tbb::parallel_for(size_t{0}, meta.size(), [&](size_t t) {
    const TierMeta& m = meta[t];
    std::string& e = entries[t];
    e.reserve(160);
    e += "{\"name\":";
    e += nlohmann::json(tiers[t].name).dump();
    e += ",\"positions\":" + std::to_string(m.positions);
    e += ",\"stored_bytes\":" + std::to_string(m.stored_bytes);
    e += m.kept == 0 && m.positions > 0 ? ",\"stored\":false" : ",\"stored\":true";
    e += ",\"kept\":" + std::to_string(m.kept);
    e += ",\"digest\":\"" + hex64(m.digest) + "\"}";
  });
  size_t bytes = 2;
  for (const auto& e : entries) bytes += e.size() + 1;
  std::string list = "[";
  list.reserve(bytes);
  for (size_t t = 0; t < entries.size(); ++t) {
    if (t) list.push_back(',');
    list += entries[t];
  }
  list += "]";
  return list;
}

}  // namespace toadbase::db
