// Solving a game's space into a database: what `toadbase solve` and Python's
// toadbase.solve() share (the registry, the parameters, the instance, the database, the
// manifest written last).
#pragma once

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "solver/core/progress.hpp"
#include "tools/registry.hpp"

namespace toadbase::tools {

/// Parameters the game refuses (the message names the option).
struct BadParameters : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

struct SolveRequest {
  std::string db;       // the database directory (created, or resumed when it exists)
  int threads = 0;      // worker threads; 0: all cores
  int zstd_level = 3;   // of the stored blocks
  bool quiet = false;   // no progress on standard error
  bool repair = false;  // solve again the tiers that no longer read back whole (`--repair`)
  std::string record;   // the record type (`--record`); empty: the narrowest that holds the space
  uint64_t memory_budget = 0;  // record bytes held at once at most (`--memory`); 0: none
  bool hold_compressed = false;  // finished tiers held compressed whatever the budget (`--hold-compressed`)
};

/// A solve stopped by request_stop() (Ctrl-C in the command): what it committed is kept,
/// and the same solve resumes from it.
struct SolveInterrupted : Interrupted {
  SolveInterrupted(uint64_t committed_tiers, uint64_t tier_count)
      : Interrupted("interrupted: " + std::to_string(committed_tiers) + " of " + std::to_string(tier_count) +
                    " tiers committed"),
        committed(committed_tiers),
        tiers(tier_count) {}
  uint64_t committed, tiers;
};

struct Solved {
  nlohmann::json report;      // what `solve --json` prints
  bool was_complete = false;  // the database was complete before: nothing was solved
};

/// Solves every tier of `game` with the options `given` (a JSON object, option names
/// without dashes) that `request.db` does not hold yet (after repairing it, when asked),
/// with progress on standard error, then writes the manifest. Throws BadParameters for options the
/// game refuses and db::DbError for a database of another game or parameters, or one that cannot be
/// written.
Solved solve_database(const Game& game, const nlohmann::json& given, const SolveRequest& request);

}  // namespace toadbase::tools
