// A store that sleeps after each commit, so a solve can be killed part way: the kill-and-resume
// tests' helper programs (slow_solve.cpp, mpi_fault_solve.cpp) solve through it. Not a test.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <span>
#include <thread>

#include "solver/core/store.hpp"

namespace tbtest {

class DelayedStore : public toadbase::TierStore {
 public:
  using TierId = toadbase::TierId;
  /// `report`: a line is written there after each commit (the kill tests count them).
  DelayedStore(toadbase::TierStore& inner, int ms, std::FILE* report = nullptr) : inner_(inner), ms_(ms), report_(report) {}
  unsigned record_bytes() const override { return inner_.record_bytes(); }
  bool has_tier(TierId t) const override { return inner_.has_tier(t); }
  uint64_t tier_positions(TierId t) const override { return inner_.tier_positions(t); }
  uint64_t tier_kept(TierId t) const override { return inner_.tier_kept(t); }
  bool matches_digest(TierId t, const void* r, uint64_t n) const override { return inner_.matches_digest(t, r, n); }
  void load_tier(TierId t, void* out) const override { inner_.load_tier(t, out); }
  void read_record(TierId t, uint64_t i, void* out) const override { inner_.read_record(t, i, out); }
  void commit_tier(TierId t, const void* r, uint64_t count, uint64_t keep) override {
    inner_.commit_tier(t, r, count, keep);
    if (report_) std::fputs("committed\n", report_), std::fflush(report_);
    std::this_thread::sleep_for(std::chrono::milliseconds(ms_));
  }
  void commit_packed(TierId t, std::span<const uint8_t> packed) override {
    inner_.commit_packed(t, packed);
    std::this_thread::sleep_for(std::chrono::milliseconds(ms_));
  }

 private:
  toadbase::TierStore& inner_;
  int ms_;
  std::FILE* report_;
};

}  // namespace tbtest
