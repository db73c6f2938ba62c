#include "solver/core/progress.hpp"

#include <atomic>
#include <cstdio>
#include <iomanip>
#include <sstream>

namespace toadbase {

namespace {
std::atomic<bool> g_stop{false};
static_assert(std::atomic<bool>::is_always_lock_free, "request_stop() runs in a signal handler");
}  // namespace

void request_stop() noexcept { g_stop.store(true, std::memory_order_relaxed); }
bool stop_requested() noexcept { return g_stop.load(std::memory_order_relaxed); }
void clear_stop() noexcept { g_stop.store(false, std::memory_order_relaxed); }

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

Progress::Progress(std::ostream* out, bool bar, std::string task, uint64_t total_positions,
                   uint64_t total_tiers, double interval_s)
    : out_(out),
      bar_(bar),
      task_(std::move(task)),
      total_positions_(total_positions),
      total_tiers_(total_tiers),
      interval_s_(interval_s),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

double Progress::elapsed_seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void Progress::tier_done(const std::string& tier_name, uint64_t positions, bool skipped) {
  done_positions_ += positions;
  if (skipped) skipped_positions_ += positions;
  ++done_tiers_;
  draw(tier_name, false);
}

void Progress::draw(const std::string& tier_name, bool force) {
  if (!out_) return;
  auto now = std::chrono::steady_clock::now();
  double since = std::chrono::duration<double>(now - last_draw_).count();
  if (!force && since < (bar_ ? 0.1 : interval_s_)) return;
  last_draw_ = now;
  double secs = elapsed_seconds();
  double rate = secs > 0 ? static_cast<double>(done_positions_ - skipped_positions_) / secs : 0;
  double frac = total_positions_ ? static_cast<double>(done_positions_) /
                                       static_cast<double>(total_positions_)
                                 : 1.0;
  std::ostringstream line;
  if (bar_) {
    const int width = 30;
    int filled = static_cast<int>(frac * width);
    line << '\r' << task_ << " [" << std::string(filled, '#') << std::string(width - filled, '.')
         << "] " << std::fixed << std::setprecision(1) << frac * 100 << "% tier " << done_tiers_
         << "/" << total_tiers_ << " " << tier_name << " " << human_count(rate) << " pos/s\x1b[K";
  } else {
    line << task_ << ": tier " << done_tiers_ << "/" << total_tiers_ << " " << tier_name << ", "
         << human_count(static_cast<double>(done_positions_)) << "/"
         << human_count(static_cast<double>(total_positions_)) << " positions (" << std::fixed
         << std::setprecision(1) << frac * 100 << "%), " << human_count(rate) << " pos/s, "
         << std::setprecision(2) << secs << " s\n";
  }
  (*out_) << line.str() << std::flush;
}

void Progress::finish() {
  if (!out_) return;
  double secs = elapsed_seconds();
  double computed = static_cast<double>(done_positions_ - skipped_positions_);
  if (bar_) (*out_) << "\r\x1b[K";
  (*out_) << task_ << ": done, " << done_tiers_ << " tiers, " << done_positions_
          << " positions";
  if (skipped_positions_) (*out_) << " (" << skipped_positions_ << " already committed)";
  (*out_) << " in " << std::fixed << std::setprecision(3) << secs << " s";
  if (secs > 0) (*out_) << ", " << human_count(computed / secs) << " pos/s";
  (*out_) << "\n" << std::flush;
}

void Progress::interrupted() {
  if (out_ && bar_) (*out_) << "\n" << std::flush;
}

}  // namespace toadbase
