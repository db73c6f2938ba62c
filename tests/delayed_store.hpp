// A store that sleeps after each commit, so a solve can be killed part way: the kill-and-resume
// tests' helper programs (slow_solve.cpp, mpi_fault_solve.cpp) solve through it. Not a test.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <span>
#include <thread>

#include "pass_reads.hpp"
#include "solver/core/store.hpp"

namespace tbtest {

class DelayedStore : public PassReads<toadbase::TierStore> {
 public:
  /// `report`: a line is written there after each commit (the kill tests count them).
  DelayedStore(toadbase::TierStore& inner, int ms, std::FILE* report = nullptr)
      : PassReads(inner), ms_(ms), report_(report) {}
  void commit_tier(TierId t, const void* r, uint64_t count, uint64_t keep) override {
    inner_.commit_tier(t, r, count, keep);
    if (report_) std::fputs("committed\n", report_), std::fflush(report_);
    std::this_thread::sleep_for(std::chrono::milliseconds(ms_));
  }
  void commit_packed(TierId t, std::span<const uint8_t> packed, uint64_t count, uint64_t keep) override {
    inner_.commit_packed(t, packed, count, keep);
    std::this_thread::sleep_for(std::chrono::milliseconds(ms_));
  }

 private:
  int ms_;
  std::FILE* report_;
};

}  // namespace tbtest
