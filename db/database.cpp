#include "db/database.hpp"

#include <rocksdb/options.h>
#include <rocksdb/table.h>
#include <rocksdb/sst_file_writer.h>
#include <tbb/parallel_for.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>

#include "solver/core/hash.hpp"

namespace toadbase::db {

namespace fs = std::filesystem;

namespace {

constexpr const char* kManifestKey = "manifest";
constexpr const char* kFormatName = "toadbase";

void put_be32(std::string& s, uint32_t v) {
  for (int i = 3; i >= 0; --i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
void put_le64(std::string& s, uint64_t v) {
  for (int i = 0; i < 8; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
uint64_t get_le64(const char* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
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
uint64_t blocks_of(uint64_t positions) { return (positions + kBlockRecords - 1) / kBlockRecords; }

uint64_t tiers_digest(const std::vector<TierInfo>& tiers) {
  std::string all;
  for (const auto& t : tiers) {
    all += t.name;
    all.push_back('\0');
    put_le64(all, t.positions);
  }
  return xxh64(all.data(), all.size());
}

rocksdb::Options base_options() {
  rocksdb::Options o;
  o.compression = rocksdb::kNoCompression;  // values are zstd frames already
  o.paranoid_checks = true;
  o.write_buffer_size = 64 << 20;
  o.max_write_buffer_number = 4;
  o.info_log_level = rocksdb::InfoLogLevel::WARN_LEVEL;
  o.keep_log_file_num = 2;
  rocksdb::BlockBasedTableOptions table;
  table.block_size = 32 << 10;
  o.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  return o;
}

void check(const rocksdb::Status& s, const std::string& what) {
  if (!s.ok()) throw DbError(what + ": " + s.ToString());
}

}  // namespace

std::string hex64(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

Database::~Database() {
  if (db_ && !read_only_) {
    try {
      flush();
    } catch (...) {
      // the group is lost as after a crash; the next solve resumes before it
    }
    db_->FlushWAL(true);
  }
}

void Database::parse_manifest(const std::string& value) {
  try {
    manifest_ = nlohmann::json::parse(value);
  } catch (const std::exception& e) {
    throw DbError(path_ + ": the manifest is damaged (" + e.what() + ")");
  }
  if (!manifest_.is_object() || manifest_.value("format", "") != kFormatName)
    throw DbError(path_ + " is not a toadbase database");
  const unsigned version = manifest_.value("format_version", 0u);
  if (version < kOldestReadableVersion || version > kFormatVersion)
    throw DbError(path_ + " has format version " + manifest_["format_version"].dump() +
                  "; this toadbase reads versions " + std::to_string(kOldestReadableVersion) +
                  " to " + std::to_string(kFormatVersion));
  const bool typed = manifest_.contains("game") && manifest_["game"].is_string() &&
                     manifest_.contains("parameters") && manifest_["parameters"].is_object() &&
                     manifest_.contains("record") && manifest_["record"].is_string() &&
                     manifest_.contains("tier_count") && manifest_["tier_count"].is_number_unsigned();
  if (!typed) throw DbError(path_ + ": the manifest is damaged (a field is missing or mistyped)");
}

Identity Database::identity() const {
  return {manifest_.at("game").get<std::string>(), manifest_.at("parameters"),
          manifest_.at("record").get<std::string>(), manifest_.value("record_bytes", 1u)};
}

const nlohmann::json& Database::manifest() const {
  if (!tiers_text_.empty()) {
    manifest_["tiers"] = nlohmann::json::parse(tiers_text_);
    tiers_text_.clear();
  }
  return manifest_;
}

const TierMeta& Database::tier_meta(TierId t) const {
  const auto& m = tier_meta_.at(t);
  if (!m) throw DbError("tier " + std::to_string(t) + " is not committed");
  return *m;
}

uint32_t Database::committed_tiers() const {
  uint32_t n = 0;
  for (const auto& m : tier_meta_) n += m.has_value();
  return n;
}

void Database::load_tier_meta() {
  tier_meta_.assign(manifest_.at("tier_count").get<uint32_t>(), std::nullopt);
  // format 1 had 32-byte commit records, without the count of records kept
  const size_t want = manifest_.value("format_version", 0u) >= 2 ? 40 : 32;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions()));
  for (it->Seek("T"); it->Valid() && it->key().starts_with("T"); it->Next()) {
    auto k = it->key();
    auto v = it->value();
    if (k.size() != 5 || v.size() != want) throw DbError(path_ + ": damaged tier record");
    uint32_t t = 0;
    for (int i = 1; i <= 4; ++i) t = (t << 8) | static_cast<uint8_t>(k[i]);
    if (t >= tier_meta_.size()) throw DbError(path_ + ": tier record beyond the tier count");
    TierMeta m{get_le64(v.data()), get_le64(v.data() + 8), get_le64(v.data() + 16),
               get_le64(v.data() + 24)};
    m.kept = want == 40 ? get_le64(v.data() + 32) : (m.blocks ? m.positions : 0);
    if (m.kept > m.positions || blocks_of(m.kept) != m.blocks)
      throw DbError(path_ + ": damaged tier record (tier " + std::to_string(t) + ")");
    tier_meta_[t] = m;
  }
  check(it->status(), path_ + ": reading tier records");
}

std::unique_ptr<Database> Database::open_for_solve(const std::string& path, const Identity& id,
                                                   const std::vector<TierInfo>& tiers,
                                                   int zstd_level) {
  std::unique_ptr<Database> d(new Database());
  d->path_ = path;
  d->read_only_ = false;
  std::error_code ec;
  const bool exists = fs::exists(fs::path(path) / "CURRENT", ec);
  if (!exists && fs::exists(path, ec) && !fs::is_empty(path, ec))
    throw DbError(path + " exists and is not a database (no CURRENT file); refusing to write there");
  if (!exists) {
    fs::create_directories(path, ec);
    if (ec) throw DbError("cannot create the database directory " + path + ": " + ec.message());
  }
  rocksdb::Options o = base_options();
  o.create_if_missing = true;
  o.IncreaseParallelism(2);
  rocksdb::DB* raw = nullptr;
  check(rocksdb::DB::Open(o, path, &raw), "cannot open database " + path);
  d->db_.reset(raw);
  uint64_t positions = 0;
  for (const auto& t : tiers) positions += t.positions;
  std::string value;
  auto s = d->db_->Get(rocksdb::ReadOptions(), kManifestKey, &value);
  if (s.IsNotFound()) {
    if (exists) throw DbError(path + " is a RocksDB database but not a toadbase one (no manifest)");
    d->manifest_ = {{"format", kFormatName},
                    {"format_version", kFormatVersion},
                    {"game", id.game},
                    {"parameters", id.parameters},
                    {"record", id.record},
                    {"block_records", kBlockRecords},
                    {"compression", "zstd"},
                    {"zstd_level", zstd_level},
                    {"tier_count", tiers.size()},
                    {"tiers_digest", hex64(tiers_digest(tiers))},
                    {"positions", positions / id.record_bytes},
                    {"complete", false}};
    if (id.record_bytes != 1) d->manifest_["record_bytes"] = id.record_bytes;
    rocksdb::WriteOptions w;
    w.sync = true;
    check(d->db_->Put(w, kManifestKey, d->manifest_.dump()), "writing the manifest of " + path);
  } else {
    check(s, "reading the manifest of " + path);
    d->parse_manifest(value);
    Identity have = d->identity();
    if (have.game != id.game || have.parameters != id.parameters || have.record != id.record ||
        have.record_bytes != id.record_bytes)
      throw DbError(path + " holds " + have.game + " " + have.parameters.dump() +
                    ", not " + id.game + " " + id.parameters.dump() +
                    ": give another --db or remove it");
    if (d->manifest_.value("format_version", 0u) != kFormatVersion)
      throw DbError(path + " was written in format version " +
                    d->manifest_["format_version"].dump() + " (an older toadbase); it can be read " +
                    "but not resumed: remove it and solve again");
    if (d->manifest_.value("tiers_digest", "") != hex64(tiers_digest(tiers)))
      throw DbError(path + " was made with another tier layout of " + id.game +
                    " (an older toadbase?); remove it and solve again");
  }
  // SST files of a group that a crash interrupted before ingestion
  for (const auto& e : fs::directory_iterator(path, ec))
    if (e.path().extension() == ".tmp") fs::remove(e.path(), ec);
  d->zstd_level_ = d->manifest_.value("zstd_level", zstd_level);
  d->load_tier_meta();
  return d;
}

std::unique_ptr<Database> Database::open_read_only(const std::string& path, size_t cache_bytes) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw DbError("no database at " + path + " (the directory is missing)");
  if (!fs::is_directory(path, ec)) throw DbError(path + " is not a database directory");
  if (!fs::exists(fs::path(path) / "CURRENT", ec))
    throw DbError(path + " is not a database (no CURRENT file): missing or damaged");
  std::unique_ptr<Database> d(new Database());
  d->path_ = path;
  d->cache_cap_ = cache_bytes;
  rocksdb::Options o = base_options();
  rocksdb::BlockBasedTableOptions table;
  table.block_size = 32 << 10;
  table.block_cache = rocksdb::NewLRUCache(64 << 20);
  o.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  rocksdb::DB* raw = nullptr;
  check(rocksdb::DB::OpenForReadOnly(o, path, &raw), "cannot open database " + path);
  d->db_.reset(raw);
  std::string value;
  auto s = d->db_->Get(rocksdb::ReadOptions(), kManifestKey, &value);
  if (s.IsNotFound()) throw DbError(path + " is a RocksDB database but not a toadbase one (no manifest)");
  check(s, "reading the manifest of " + path);
  d->parse_manifest(value);
  d->load_tier_meta();
  d->first_block_.assign(d->tier_meta_.size() + 1, 0);
  for (size_t t = 0; t < d->tier_meta_.size(); ++t)
    d->first_block_[t + 1] = d->first_block_[t] + (d->tier_meta_[t] ? d->tier_meta_[t]->blocks : 0);
  d->slot_.resize(d->first_block_.back());
  return d;
}

void Database::commit_tier(TierId t, std::span<const Record> records, uint64_t keep) {
  if (read_only_) throw DbError("database opened read-only");
  if (t >= tier_meta_.size())
    throw DbError(path_ + ": tier " + std::to_string(t) + " is beyond the " +
                  std::to_string(tier_meta_.size()) + " tiers of this database");
  const uint64_t n = records.size(), kept = std::min(keep, n), nblocks = blocks_of(kept);
  std::vector<std::string> values(nblocks);
  const int level = zstd_level_;
  tbb::parallel_for(uint64_t{0}, nblocks, [&](uint64_t b) {
    const uint64_t lo = b * kBlockRecords, len = std::min(kBlockRecords, kept - lo);
    const Record* src = records.data() + lo;
    std::string& v = values[b];
    const size_t bound = ZSTD_compressBound(len);
    v.resize(8 + bound);
    const uint64_t h = xxh64(src, len);
    for (int i = 0; i < 8; ++i) v[i] = static_cast<char>((h >> (8 * i)) & 0xff);
    thread_local std::unique_ptr<ZSTD_CCtx, size_t (*)(ZSTD_CCtx*)> cctx(ZSTD_createCCtx(),
                                                                        ZSTD_freeCCtx);
    size_t z = ZSTD_compressCCtx(cctx.get(), v.data() + 8, bound, src, len, level);
    if (ZSTD_isError(z)) throw DbError(std::string("zstd: ") + ZSTD_getErrorName(z));
    v.resize(8 + z);
  });
  TierMeta m;
  m.positions = n;
  m.blocks = nblocks;
  m.digest = xxh64(records.data(), n);
  m.kept = kept;
  std::unique_lock lock(commit_mu_);  // the tiers of one level commit from several threads
  for (uint64_t b = 0; b < nblocks; ++b) {
    m.stored_bytes += values[b].size();
    pending_.emplace_back(block_key(t, b), std::move(values[b]));
  }
  std::string meta;
  put_le64(meta, m.positions);
  put_le64(meta, m.blocks);
  put_le64(meta, m.stored_bytes);
  put_le64(meta, m.digest);
  put_le64(meta, m.kept);
  pending_.emplace_back(tier_key(t), std::move(meta));
  tier_meta_.at(t) = m;
  pending_bytes_ += m.stored_bytes + 64;
  if (pending_bytes_ >= kGroupBytes ||
      std::chrono::duration<double>(std::chrono::steady_clock::now() - last_flush_).count() >= kGroupSeconds) {
    // the group leaves the lock and is written outside it: the other tiers of the level go on
    // committing meanwhile (nobody reads committed tiers while a level is being solved)
    auto [group, number] = take_group();
    lock.unlock();
    ingest_group(group, number);
  }
}

void Database::ingest_group(std::vector<std::pair<std::string, std::string>>& group, uint64_t number) {
  try {
    write_group(group, number);
  } catch (...) {
    // not written: the group goes back, so that its tiers (committed for this process) stay
    // readable and a later flush() writes them again
    std::lock_guard lock(commit_mu_);
    for (auto& kv : group) {
      pending_bytes_ += kv.second.size() + 64;
      pending_.push_back(std::move(kv));
    }
    throw;
  }
}

std::pair<std::vector<std::pair<std::string, std::string>>, uint64_t> Database::take_group() {
  last_flush_ = std::chrono::steady_clock::now();
  std::vector<std::pair<std::string, std::string>> group;
  group.swap(pending_);
  pending_bytes_ = 0;
  return {std::move(group), ingested_++};
}

void Database::write_group(std::vector<std::pair<std::string, std::string>>& group, uint64_t number) {
  if (group.empty()) return;
  std::stable_sort(group.begin(), group.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  // a tier committed again in the same group: its later records win
  std::vector<std::pair<std::string, std::string>> unique;
  unique.reserve(group.size());
  for (auto& kv : group) {
    if (!unique.empty() && unique.back().first == kv.first) unique.back() = std::move(kv);
    else unique.push_back(std::move(kv));
  }
  group.swap(unique);
  const std::string file = (fs::path(path_) / ("ingest-" + std::to_string(number) + ".sst.tmp")).string();
  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), base_options());
  check(writer.Open(file), "creating " + file);
  for (const auto& [k, v] : group) check(writer.Put(k, v), "writing " + file);
  check(writer.Finish(), "finishing " + file);
  rocksdb::IngestExternalFileOptions ingest;
  ingest.move_files = true;
  check(db_->IngestExternalFile({file}, ingest), "committing tiers to " + path_);
}

void Database::flush() {
  std::unique_lock lock(commit_mu_);
  auto [group, number] = take_group();
  lock.unlock();
  ingest_group(group, number);
}

std::vector<Record> Database::decode_block(TierId t, uint64_t b, const std::string& value) const {
  const std::string where = path_ + ": tier " + std::to_string(t) + " block " + std::to_string(b);
  if (value.size() < 8) throw DbError(where + " is damaged (too short)");
  unsigned long long size = ZSTD_getFrameContentSize(value.data() + 8, value.size() - 8);
  if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN || size > kBlockRecords)
    throw DbError(where + " is damaged (not a zstd frame)");
  std::vector<Record> out(size);
  size_t z = ZSTD_decompress(out.data(), size, value.data() + 8, value.size() - 8);
  if (ZSTD_isError(z) || z != size)
    throw DbError(where + " is damaged (zstd: " + ZSTD_getErrorName(z) + ")");
  if (xxh64(out.data(), out.size()) != get_le64(value.data()))
    throw DbError(where + " is damaged (digest mismatch)");
  return out;
}

std::vector<Record> Database::read_tier(TierId t) const {
  const TierMeta& m = tier_meta(t);
  std::vector<Record> out;
  out.reserve(m.kept);
  std::string value;
  for (uint64_t b = 0; b < m.blocks; ++b) {
    auto s = get(block_key(t, b), &value);
    if (s.IsNotFound())
      throw DbError(path_ + ": tier " + std::to_string(t) + " block " + std::to_string(b) +
                    " is missing");
    check(s, path_ + ": reading tier " + std::to_string(t) + " block " + std::to_string(b));
    auto recs = decode_block(t, b, value);
    out.insert(out.end(), recs.begin(), recs.end());
  }
  if (out.size() != m.kept)
    throw DbError(path_ + ": tier " + std::to_string(t) + " holds " + std::to_string(out.size()) +
                  " records, its commit record says " + std::to_string(m.kept));
  if (m.kept == m.positions && xxh64(out.data(), out.size()) != m.digest)
    throw DbError(path_ + ": tier " + std::to_string(t) + " does not match its digest");
  return out;
}

Record Database::read_record(TierId t, uint64_t index) const {
  const TierMeta& m = tier_meta(t);
  if (tier_derived(t))
    throw DbError(path_ + ": tier " + std::to_string(t) + " keeps no records (derived, or all of "
                  "it a tail copied from another tier)");
  if (index >= m.kept)
    throw DbError("index " + std::to_string(index) + " is beyond the records tier " +
                  std::to_string(t) + " keeps");
  const uint64_t b = index / kBlockRecords;
  const bool cached = !first_block_.empty();  // a database opened for solving has no cache
  const uint64_t g = cached ? first_block_[t] + b : 0;
  if (cached) {
    std::lock_guard<std::mutex> lock(cache_mu_);
    if (slot_[g]) return (*slot_[g])[index % kBlockRecords];
  }
  std::string value;
  auto s = get(block_key(t, b), &value);
  if (s.IsNotFound())
    throw DbError(path_ + ": tier " + std::to_string(t) + " block " + std::to_string(b) +
                  " is missing");
  check(s, path_ + ": reading tier " + std::to_string(t) + " block " + std::to_string(b));
  auto blk = std::make_unique<std::vector<Record>>(decode_block(t, b, value));
  if (index % kBlockRecords >= blk->size())
    throw DbError(path_ + ": tier " + std::to_string(t) + " block " + std::to_string(b) + " is short");
  const Record r = (*blk)[index % kBlockRecords];
  if (!cached) return r;
  std::lock_guard<std::mutex> lock(cache_mu_);
  if (slot_[g]) return r;
  cache_used_ += blk->size();
  slot_[g] = std::move(blk);
  loaded_.push_back(g);
  while (cache_used_ > cache_cap_ && loaded_.size() > 1) {
    cache_used_ -= slot_[loaded_.front()]->size();
    slot_[loaded_.front()].reset();
    loaded_.pop_front();
  }
  return r;
}

rocksdb::Status Database::get(const std::string& key, std::string* value) const {
  // a tier of the group not yet ingested is committed for this process: read it from the group
  for (auto it = pending_.rbegin(); it != pending_.rend(); ++it) {  // the latest commit wins
    if (it->first == key) {
      *value = it->second;
      return rocksdb::Status::OK();
    }
  }
  return db_->Get(rocksdb::ReadOptions(), key, value);
}

uint64_t Database::digest() const {
  std::string all;
  for (TierId t = 0; t < tier_count(); ++t) put_le64(all, tier_meta(t).digest);
  return xxh64(all.data(), all.size());
}

void Database::finish(const std::vector<TierInfo>& tiers) {
  if (tiers.size() != tier_meta_.size()) throw DbError("finish: tier count mismatch");
  flush();
  uint64_t stored = 0, positions = 0;
  const uint32_t width = manifest_.value("record_bytes", 1u);
  for (TierId t = 0; t < tier_count(); ++t) {
    stored += tier_meta(t).stored_bytes;
    positions += tier_meta(t).positions / width;
  }
  manifest_["complete"] = true;
  manifest_["positions"] = positions;
  manifest_["stored_bytes"] = stored;
  manifest_["digest"] = hex64(digest());
  // the per-tier list (Toads and Frogs of length 16: 12,546 tiers) is written straight as
  // JSON text, on every core, and spliced in as the last member: building it as JSON values
  // took a fortieth of a length-16 solve. manifest() parses it back if it is asked for.
  std::vector<std::string> entries(tier_count());
  tbb::parallel_for(TierId{0}, tier_count(), [&](TierId t) {
    const TierMeta& m = tier_meta(t);
    std::string& e = entries[t];
    e.reserve(160);
    e += "{\"name\":";
    e += nlohmann::json(tiers[t].name).dump();
    e += ",\"positions\":" + std::to_string(m.positions / width);
    e += ",\"stored_bytes\":" + std::to_string(m.stored_bytes);
    e += tier_derived(t) ? ",\"stored\":false" : ",\"stored\":true";
    e += ",\"kept\":" + std::to_string(m.kept / width);
    e += ",\"digest\":\"" + hex64(m.digest) + "\"}";
  });
  std::string list = "[";
  size_t bytes = 2;
  for (const auto& e : entries) bytes += e.size() + 1;
  list.reserve(bytes);
  for (TierId t = 0; t < tier_count(); ++t) {
    if (t) list.push_back(',');
    list += entries[t];
  }
  list += "]";
  manifest_.erase("tiers");
  std::string text = manifest_.dump();  // an object: ends in '}'
  text.pop_back();
  text += ",\"tiers\":";
  text += list;
  text += "}";
  tiers_text_ = std::move(list);
  // the manifest last, synced; then flushed into a table, so that a read-only open need not
  // replay the log for it
  rocksdb::WriteOptions w;
  w.sync = true;
  check(db_->Put(w, kManifestKey, text), "writing the manifest of " + path_);
  check(db_->Flush(rocksdb::FlushOptions()), "flushing " + path_);
}

uint64_t Database::disk_bytes() const {
  uint64_t total = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(path_, ec))
    if (e.is_regular_file(ec)) total += e.file_size(ec);
  return total;
}

}  // namespace toadbase::db
