#include "tools/progress_report.hpp"

#include <cstdio>
#include <iomanip>
#include <sstream>

namespace toadbase::tools {

namespace {
std::string human_count(double v) {
  char buf[32];
  if (v >= 1e9) {
    std::snprintf(buf, sizeof buf, "%.2fG", v / 1e9);
  } else if (v >= 1e6) {
    std::snprintf(buf, sizeof buf, "%.2fM", v / 1e6);
  } else if (v >= 1e3) {
    std::snprintf(buf, sizeof buf, "%.1fk", v / 1e3);
  } else {
    std::snprintf(buf, sizeof buf, "%.0f", v);
  }
  return buf;
}
}  // namespace

ProgressReport::ProgressReport(std::ostream* out, bool bar, std::string task, uint64_t total_positions,
                               uint64_t total_tiers, double interval_s, bool timed)
    : Progress(std::move(task), total_positions, total_tiers),
      out_(out),
      bar_(bar),
      interval_s_(interval_s),
      timed_(timed),
      last_draw_(std::chrono::steady_clock::now()) {}

void ProgressReport::tier_counted(const std::string& tier_name) {
  if (!out_) return;
  auto now = std::chrono::steady_clock::now();
  double since = std::chrono::duration<double>(now - last_draw_).count();
  if (since < (bar_ ? 0.1 : interval_s_)) return;
  last_draw_ = now;
  const double secs = elapsed_seconds();
  const uint64_t done = positions_done(), total = total_positions();
  const double rate = secs > 0 ? static_cast<double>(done - positions_skipped()) / secs : 0;
  const double frac = total ? static_cast<double>(done) / static_cast<double>(total) : 1.0;
  std::ostringstream line;
  if (bar_) {
    const int width = 30;
    int filled = static_cast<int>(frac * width);
    line << '\r' << task() << " [" << std::string(filled, '#') << std::string(width - filled, '.')
         << "] " << std::fixed << std::setprecision(1) << frac * 100 << "% tier " << tiers_done()
         << "/" << total_tiers() << " " << tier_name << " " << human_count(rate) << " pos/s\x1b[K";
  } else {
    line << task() << ": tier " << tiers_done() << "/" << total_tiers() << " " << tier_name << ", "
         << human_count(static_cast<double>(done)) << "/" << human_count(static_cast<double>(total))
         << " positions (" << std::fixed << std::setprecision(1) << frac * 100 << "%), "
         << human_count(rate) << " pos/s, " << std::setprecision(2) << secs << " s\n";
  }
  (*out_) << line.str() << std::flush;
}

void ProgressReport::finish() {
  if (!out_) return;
  const double secs = elapsed_seconds();
  const double computed = static_cast<double>(positions_done() - positions_skipped());
  if (bar_) (*out_) << "\r\x1b[K";
  (*out_) << task() << ": done, " << tiers_done() << " tiers, " << positions_done() << " positions";
  if (positions_skipped()) (*out_) << " (" << positions_skipped() << " already committed)";
  if (timed_) {
    (*out_) << " in " << std::fixed << std::setprecision(3) << secs << " s";
    if (secs > 0) (*out_) << ", " << human_count(computed / secs) << " pos/s";
  }
  (*out_) << "\n" << std::flush;
}

void ProgressReport::interrupted() {
  if (out_ && bar_) (*out_) << "\n" << std::flush;
}

}  // namespace toadbase::tools
