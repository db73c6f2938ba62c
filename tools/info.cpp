// toadbase info --db DIR: the manifest (game, parameters, counts, sizes, digest).
#include "tools/info.hpp"

#include <cstdio>
#include <iostream>

#include "db/manifest.hpp"
#include "tools/cli.hpp"
#include "tools/open.hpp"

namespace toadbase::tools {

nlohmann::json info_json(const db::Database& d, bool with_tiers, const std::vector<TierInfo>* names) {
  // the per-tier list only when asked for (a damaged list leaves the rest readable)
  nlohmann::json m = with_tiers ? d.manifest() : d.summary();
  if (with_tiers && !d.complete() && names && names->size() == d.tier_count()) {
    // no list is written until the solve finishes: the commit records of the tiers so far,
    // each entry as the finished manifest writes it
    std::vector<TierInfo> done;
    std::vector<db::TierMeta> meta;
    for (TierId t = 0; t < d.tier_count(); ++t)
      if (d.has_tier(t)) done.push_back((*names)[t]), meta.push_back(d.tier_meta(t));
    m["tiers"] = nlohmann::json::parse(db::tier_list_text(done, meta));
  }
  m["committed_tiers"] = d.committed_tiers();
  m["disk_bytes"] = d.disk_bytes();
  if (!d.complete()) {
    uint64_t stored = 0, done = 0;
    for (TierId t = 0; t < d.tier_count(); ++t)
      if (d.has_tier(t)) stored += d.tier_meta(t).stored_bytes, done += d.tier_meta(t).positions;
    m["stored_bytes"] = stored;
    m["committed_positions"] = done;
    m["being_solved_by"] = d.writer_pid() ? nlohmann::json(*d.writer_pid()) : nlohmann::json(nullptr);
  }
  const uint64_t positions = m.value("positions", uint64_t{0});
  const uint64_t stored = m.value("stored_bytes", uint64_t{0});
  m["bits_per_position"] = positions ? 8.0 * static_cast<double>(stored) / static_cast<double>(positions) : 0.0;
  return camel_keys(m);
}

namespace {

struct InfoOptions {
  Common c;
  bool with_tiers = false;
};

int run_info(const InfoOptions& o) {
  const Common& c = o.c;
  auto d = db::Database::open_read_only(c.db);
  // an incomplete database's tiers are named by its game's (when this toadbase knows it)
  std::vector<TierInfo> names;
  if (o.with_tiers && !d->complete()) {
    try {
      names = instance_of(*d, c.db)->tiers();
    } catch (const std::exception&) {
      // a game (or parameters) this toadbase does not know: no names, no list
    }
  }
  const nlohmann::json m = info_json(*d, o.with_tiers, names.empty() ? nullptr : &names);
  if (c.json_out) {
    std::cout << dump(m) << "\n";
    return 0;
  }
  std::string status = "complete";
  if (!d->complete())
    status = d->writer_pid() ? "incomplete: being solved by another process (pid " +
                                   std::to_string(*d->writer_pid()) + ") now"
                             : "incomplete (run the same solve command again to resume)";
  std::cout << "database   " << c.db << "\n"
            << "game       " << m["game"].get<std::string>() << " " << dump(camel_keys(d->summary()["parameters"])) << "\n"
            << "format     toadbase v" << m["formatVersion"] << ", records " << m["record"].get<std::string>()
            << ", zstd level " << m["zstdLevel"] << ", blocks of " << m["blockRecords"] << " bytes"
            << (d->planes_per_block() ? " (" + std::to_string(m["blockRecords"].get<uint64_t>() / d->record_bytes()) +
                                            " records, their planes in the block)"
                                      : std::string())
            << "\n"
            << "status     " << status << ", " << d->committed_tiers() << "/" << d->tier_count() << " tiers\n"
            << "positions  " << m.value("positions", uint64_t{0}) << "\n";
  std::printf("stored     %s (%.3f bits/position), %s on disk\n",
              human_bytes(static_cast<double>(m.value("storedBytes", uint64_t{0}))).c_str(),
              m["bitsPerPosition"].get<double>(), human_bytes(static_cast<double>(d->disk_bytes())).c_str());
  if (d->complete()) std::cout << "digest     " << m["digest"].get<std::string>() << "\n";
  if (o.with_tiers && m.contains("tiers"))
    for (const auto& t : m["tiers"])
      std::cout << "  " << t["name"].get<std::string>() << " " << t["positions"] << " positions " << t["storedBytes"]
                << " bytes " << t["digest"].get<std::string>() << "\n";
  return 0;
}

}  // namespace

Command add_info(CLI::App& root) {
  auto o = std::make_shared<InfoOptions>();
  auto* info = root.add_subcommand("info", "the manifest: game, parameters, counts, sizes, digest");
  add_db_option(info, o->c);
  add_json_flag(info, o->c);
  info->add_flag("--tiers", o->with_tiers, "also every tier's counts, size and digest (of an incomplete database: the tiers committed so far)");
  examples(info, {"toadbase info --db data/tf10", "toadbase info --db data/tf10 --json --tiers"});
  return {info, [o] { return run_info(*o); }};
}

}  // namespace toadbase::tools
