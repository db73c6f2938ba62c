// Progress of a long pass over tiers, as the engines report it: counts and the time, one tier
// at a time. How it is shown (a bar on a terminal, plain lines) is the caller's: tools/
// derives from it (tools/progress_report.hpp); the core writes nothing.
// Thread-compatible: the solver reports under a lock, one tier at a time.
#pragma once

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace toadbase {

/// Asks every long pass of this process (a solve) to stop at its next tier boundary: what
/// is committed stays, the tier in progress is dropped. Async-signal-safe (a lock-free
/// atomic store), so a SIGINT handler may call it.
void request_stop() noexcept;
/// True once request_stop() was called (and until clear_stop()).
bool stop_requested() noexcept;
void clear_stop() noexcept;

/// Thrown by a pass that stopped because request_stop() was called.
struct Interrupted : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Progress {
 public:
  /// `task` names the pass ("solve", "verify").
  Progress(std::string task, uint64_t total_positions, uint64_t total_tiers);
  virtual ~Progress() = default;

  /// A tier has been done (or skipped because an earlier run committed it).
  void tier_done(const std::string& tier_name, uint64_t positions, bool skipped);
  /// The pass ended: a report may print its totals.
  virtual void finish() {}
  /// The pass stopped early.
  virtual void interrupted() {}

  const std::string& task() const { return task_; }
  double elapsed_seconds() const;
  uint64_t positions_done() const { return done_positions_; }
  /// Of positions_done(), those an earlier run had committed.
  uint64_t positions_skipped() const { return skipped_positions_; }
  uint64_t tiers_done() const { return done_tiers_; }
  /// Of tiers_done(), those an earlier run had committed.
  uint64_t tiers_skipped() const { return skipped_tiers_; }
  uint64_t total_positions() const { return total_positions_; }
  uint64_t total_tiers() const { return total_tiers_; }

 protected:
  /// Called after each tier_done(), with the counts already updated.
  virtual void tier_counted(const std::string& tier_name) { (void)tier_name; }

 private:
  std::string task_;
  uint64_t total_positions_, total_tiers_;
  uint64_t done_positions_ = 0, done_tiers_ = 0, skipped_positions_ = 0, skipped_tiers_ = 0;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace toadbase
