// toadbase verify --db DIR: every record recomputed from its children, every digest checked,
// and a sample of every tier looked up as query does.
#include <algorithm>
#include <iostream>

#include "solver/core/threads.hpp"
#include "tools/cli.hpp"
#include "tools/open.hpp"

namespace toadbase::tools {

namespace {

struct VerifyOptions {
  Common c;
  uint64_t sample = 0;  // 0: the whole database
  uint64_t seed = 1;
};

int run_verify(const VerifyOptions& o) {
  const Common& c = o.c;
  // verify loads every tier once and looks up 64 positions of each, a lookup decoding the
  // block that holds its record (a 16 MiB cache decoded blocks again and again: at 18 cells
  // it made the whole verify about a third longer); a sample reads scattered blocks again and again
  const Opened d = open_database(c.db, true, size_t{256} << 20);
  uint64_t positions = d.db->summary().value("positions", uint64_t{0});
  if (o.sample) {
    positions = 0;
    for (const TierInfo& t : d.instance->tiers()) positions += std::min(t.positions, o.sample);
  }
  auto progress = make_progress("verify", positions, d.db->tier_count(), c.quiet);
  VerifyReport rep = with_threads(c.threads, [&] {
    return o.sample ? d.instance->verify_sample(*d.db, o.sample, o.seed, progress.get())
                    : d.instance->verify(*d.db, progress.get());
  });
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
                                             {"digest", digest},
                                             {"sample", o.sample ? nlohmann::ordered_json(o.sample)
                                                                 : nlohmann::ordered_json(nullptr)}})
              << "\n";
  } else if (rep.ok && o.sample) {
    std::cout << "verify " << c.db << ": OK, a sample of " << rep.positions_checked << " positions (" << o.sample
              << " a tier, seed " << o.seed
              << ") recomputed from their children's stored values and looked up as query does, digest " << digest
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
  auto o = std::make_shared<VerifyOptions>();
  auto* verify = root.add_subcommand("verify", "recompute every record from its children and check every digest");
  add_db_option(verify, o->c);
  add_json_flag(verify, o->c);
  add_threads_option(verify, o->c);
  add_quiet_flag(verify, o->c);
  verify->add_option("--sample", o->sample,
                     "recompute N random positions of every tier (all of a smaller one) from their children's "
                     "stored values and look each up as query does, instead of the whole database: for a database "
                     "too large to verify whole (tier games)")
      ->check(whole_number_in(uint64_t{1}, uint64_t{1} << 40))
      ->default_str("none: every position");
  verify->add_option("--seed", o->seed, "the seed of --sample (the same seed draws the same positions)")
      ->check(whole_number_in<uint64_t>())
      ->default_str("1");
  examples(verify, {"toadbase verify --db data/tf10", "toadbase verify --db data/tf10 --threads 2 --quiet --json",
                    "toadbase verify --db data/tf22 --sample 1000"});
  return {verify, [o] { return run_verify(*o); }};
}

}  // namespace toadbase::tools
