// toadbase verify --db DIR: every record recomputed from its children, every digest checked,
// and a sample of every tier looked up as query does.
#include <iostream>

#include "solver/core/threads.hpp"
#include "tools/cli.hpp"
#include "tools/open.hpp"

namespace toadbase::tools {

namespace {

int run_verify(const Common& c) {
  // verify reads every tier once; its lookups need only a small block cache
  const Opened d = open_database(c.db, true, size_t{16} << 20);
  const uint64_t positions = d.db->summary().value("positions", uint64_t{0});
  auto progress = make_progress("verify", positions, d.db->tier_count(), c.quiet);
  VerifyReport rep = with_threads(c.threads, [&] { return d.instance->verify(*d.db, progress.get()); });
  const std::string digest = db::hex64(d.db->digest());
  if (rep.ok && digest != d.db->summary().value("digest", "")) {
    rep.ok = false;
    rep.problem = "the database digest " + digest + " differs from the manifest's " + d.db->summary().value("digest", "");
  }
  if (rep.ok) progress->finish();
  if (c.json_out) {
    std::cout << dump(nlohmann::ordered_json{{"db", c.db},
                                             {"ok", rep.ok},
                                             {"positionsChecked", rep.positions_checked},
                                             {"positionsProbed", rep.positions_probed},
                                             {"problem", rep.ok ? nlohmann::ordered_json(nullptr)
                                                                : nlohmann::ordered_json(rep.problem)},
                                             {"digest", digest}})
              << "\n";
  } else if (rep.ok) {
    std::cout << "verify " << c.db << ": OK, " << rep.positions_checked
              << " positions recomputed from their children, " << rep.positions_probed
              << " looked up as query does, digest " << digest << "\n";
  } else {
    std::cout << "verify " << c.db << ": FAILED: " << rep.problem << "\n";
  }
  return rep.ok ? kExitOk : kExitNo;
}

}  // namespace

Command add_verify(CLI::App& root) {
  auto c = std::make_shared<Common>();
  auto* verify = root.add_subcommand("verify", "recompute every record from its children and check every digest");
  add_db_option(verify, *c);
  add_json_flag(verify, *c);
  add_threads_option(verify, *c);
  add_quiet_flag(verify, *c);
  examples(verify, {"toadbase verify --db data/tf10", "toadbase verify --db data/tf10 --threads 2 --quiet --json"});
  return {verify, [c] { return run_verify(*c); }};
}

}  // namespace toadbase::tools
