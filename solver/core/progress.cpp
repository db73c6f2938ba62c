#include "solver/core/progress.hpp"

#include <atomic>

namespace toadbase {

namespace {
std::atomic<bool> g_stop{false};
static_assert(std::atomic<bool>::is_always_lock_free, "request_stop() runs in a signal handler");
}  // namespace

void request_stop() noexcept { g_stop.store(true, std::memory_order_relaxed); }
bool stop_requested() noexcept { return g_stop.load(std::memory_order_relaxed); }
void clear_stop() noexcept { g_stop.store(false, std::memory_order_relaxed); }

Progress::Progress(std::string task, uint64_t total_positions, uint64_t total_tiers)
    : task_(std::move(task)),
      total_positions_(total_positions),
      total_tiers_(total_tiers),
      start_(std::chrono::steady_clock::now()) {}

double Progress::elapsed_seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void Progress::tier_done(const std::string& tier_name, uint64_t positions, bool skipped) {
  done_positions_ += positions;
  if (skipped) skipped_positions_ += positions, ++skipped_tiers_;
  ++done_tiers_;
  tier_counted(tier_name);
}

}  // namespace toadbase
