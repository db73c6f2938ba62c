// How a pass's progress is shown to a person: a one-line bar redrawn in place on a terminal,
// plain lines at most every `interval_s` seconds otherwise, and the totals at the end.
#pragma once

#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>

#include "solver/core/progress.hpp"

namespace toadbase::tools {

class ProgressReport : public Progress {
 public:
  /// `out` nullptr: nothing is shown. `bar`: the terminal's bar, else plain lines. `timed`
  /// false: the last line gives the totals alone, for a task whose own summary says how long
  /// it took (a solve: one figure, end to end).
  ProgressReport(std::ostream* out, bool bar, std::string task, uint64_t total_positions,
                 uint64_t total_tiers, double interval_s = 1.0, bool timed = true);

  /// The last line: totals, and the overall rate when timed.
  void finish() override;
  /// Ends the bar's line (a terminal) so what follows starts clean.
  void interrupted() override;

 protected:
  void tier_counted(const std::string& tier_name) override;

 private:
  std::ostream* out_;
  bool bar_;
  double interval_s_;
  bool timed_;
  std::chrono::steady_clock::time_point last_draw_;
};

}  // namespace toadbase::tools
