// The bookkeeping every engine's solve shares (the tier engine, River Toad's, the forest's,
// the CGT table's): a unit of work (a tier, or a class of tiers) that an earlier run
// committed is passed over and reported as skipped; a stop asked for (request_stop) ends the
// solve at the next unit boundary, what is committed staying; each unit solved is counted and
// reported. How progress is shown is the caller's (progress.hpp).
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "solver/core/progress.hpp"
#include "solver/core/results.hpp"

namespace toadbase {

class SolveLedger {
 public:
  SolveLedger(SolveStats& stats, Progress* progress) : stats_(stats), progress_(progress) {}

  /// A unit an earlier run committed: its tiers (name, positions) counted and reported.
  void skipped(const std::vector<std::pair<std::string, uint64_t>>& tiers) {
    std::lock_guard lock(mu_);
    for (const auto& [name, positions] : tiers) {
      ++stats_.tiers_skipped;
      if (progress_) progress_->tier_done(name, positions, true);
    }
  }
  void skipped(const std::string& tier, uint64_t positions) { skipped({{tier, positions}}); }

  /// A unit solved and committed: its tiers counted and reported.
  void solved(const std::vector<std::pair<std::string, uint64_t>>& tiers) {
    std::lock_guard lock(mu_);
    for (const auto& [name, positions] : tiers) {
      ++stats_.tiers_solved;
      stats_.positions_solved += positions;
      if (progress_) progress_->tier_done(name, positions, false);
    }
  }
  void solved(const std::string& tier, uint64_t positions) { solved({{tier, positions}}); }

  /// True once a stop was asked for (and from then on): start no further unit.
  bool stopping() {
    if (!stopped_.load(std::memory_order_relaxed) && stop_requested()) stopped_.store(true);
    return stopped_.load(std::memory_order_relaxed);
  }
  /// After the units: Interrupted when the solve stopped early.
  void finish() const {
    if (stopped_.load()) throw Interrupted("the solve was asked to stop");
  }

  /// The loop of an engine that solves its units in order. For unit i: when `committed(i)`,
  /// `resume(i)` reads back what later units need and reports it skipped; otherwise, unless a
  /// stop was asked for, `solve(i)` solves, commits and reports it. Throws Interrupted when it
  /// stopped.
  template <class Committed, class Resume, class Solve>
  void in_order(uint64_t units, Committed&& committed, Resume&& resume, Solve&& solve) {
    for (uint64_t i = 0; i < units; ++i) {
      if (committed(i)) {
        resume(i);
        continue;
      }
      if (stopping()) break;
      solve(i);
    }
    finish();
  }

 private:
  SolveStats& stats_;
  Progress* progress_;
  std::mutex mu_;
  std::atomic<bool> stopped_{false};
};

}  // namespace toadbase
