// Progress of a long pass over tiers: a bar on a terminal, plain lines otherwise.
// Thread-compatible: the solver reports under a lock, one tier at a time.
#pragma once

#include <chrono>
#include <cstdint>
#include <ostream>
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
  /// `task` names the pass ("solve", "verify"); `bar` draws a one-line bar (a terminal),
  /// otherwise a plain line is printed at most every `interval_s` seconds and at the end.
  Progress(std::ostream* out, bool bar, std::string task, uint64_t total_positions,
           uint64_t total_tiers, double interval_s = 1.0);

  /// A tier has been done (or skipped because an earlier run committed it).
  void tier_done(const std::string& tier_name, uint64_t positions, bool skipped);
  /// The last line: totals and the overall rate.
  void finish();
  /// The pass stopped early: ends the bar's line (a terminal) so what follows starts clean.
  void interrupted();

  double elapsed_seconds() const;
  uint64_t positions_done() const { return done_positions_; }

 private:
  void draw(const std::string& tier_name, bool force);

  std::ostream* out_;
  bool bar_;
  std::string task_;
  uint64_t total_positions_, total_tiers_;
  uint64_t done_positions_ = 0, done_tiers_ = 0, skipped_positions_ = 0;
  double interval_s_;
  std::chrono::steady_clock::time_point start_, last_draw_;
};

}  // namespace toadbase
