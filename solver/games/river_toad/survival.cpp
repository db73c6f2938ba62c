#include "solver/games/river_toad/survival.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <stdexcept>

#include "solver/core/ledger.hpp"

namespace toadbase::river_toad {

namespace {
// ties between actions: the cheapest first
constexpr std::array<int, kActions> kTieOrder = {2, 1, 3, 0, 4};  // D S F A G
}  // namespace

SurvivalSpace::SurvivalSpace(int turns, std::vector<uint64_t> weights, const Rules& rules)
    : turns_(turns), w_(std::move(weights)), rules_(rules) {
  if (w_.empty()) w_.assign(kRolls, 1);
  if (w_.size() != kRolls) throw std::invalid_argument("roll weights: give 34 of them, one per roll 0..33");
  if (turns_ < 1) throw std::invalid_argument("--turns must be at least 1");
  wsum_ = 0;
  for (uint64_t x : w_) {
    if (x > (uint64_t{1} << 20)) throw std::invalid_argument("roll weights: at most 1048576 each");
    wsum_ += x;
  }
  if (wsum_ == 0) throw std::invalid_argument("roll weights: at least one must be positive");
  pow_.assign(1, 1);
  for (int t = 1; t <= turns_; ++t) {
    if (pow_.back() > kCountMask / wsum_)
      throw std::invalid_argument("--turns " + std::to_string(turns_) + ": the exact counts (W^t, W = " +
                                  std::to_string(wsum_) + ") would not fit 61 bits past t = " + std::to_string(t - 1));
    pow_.push_back(pow_.back() * wsum_);
  }
}

uint64_t SurvivalSpace::total_positions() const {
  uint64_t n = 0;
  for (int t = 1; t <= turns_; ++t) n += tier_positions(t);
  return n;
}

std::vector<uint64_t> SurvivalSpace::first_expectation() const {
  // count(0) = 1 for any alive state; E(1) = W for every (r1 r2 r3, c, h <= cap(0) = 1)
  return std::vector<uint64_t>(size_t{kRolls} * kRolls * kRolls * 5 * hp_cap(0), wsum_);
}

uint64_t SurvivalSpace::action_count(int t, const std::vector<uint64_t>& e, int r1, int r2, int r3, int r4,
                                     int column, int hp, int action) const {
  const auto to = after_action(t, r4, column, hp, action);
  if (!to) return 0;
  return e[((((size_t(r1) * kRolls + r2) * kRolls + r3) * 5) + (to->column - 1)) * hp_cap(t - 1) + (to->hp - 1)];
}

void SurvivalSpace::solve_tier(int t, const std::vector<uint64_t>& e, std::vector<SurvivalRecord>& records) const {
  std::vector<SurvivalRecord>().swap(records);  // free the previous tier first
  records.assign(tier_positions(t), 0);
  const int cap = hp_cap(t);
  tbb::parallel_for(tbb::blocked_range<int>(0, kRolls * kRolls * kRolls), [&](const tbb::blocked_range<int>& range) {
    for (int q = range.begin(); q != range.end(); ++q) {
      const int r1 = q / (kRolls * kRolls), r2 = q / kRolls % kRolls, r3 = q % kRolls;
      for (int r4 = 0; r4 < kRolls; ++r4)
        for (int c = kFirstRiver; c <= kLastRiver; ++c)
          for (int hp = 1; hp <= cap; ++hp) {
            uint64_t best = 0;
            int best_a = kTieOrder[0];
            for (int a : kTieOrder) {
              const uint64_t v = action_count(t, e, r1, r2, r3, r4, c, hp, a);
              if (v > best) best = v, best_a = a;
            }
            records[index(t, r1, r2, r3, r4, c, hp)] = best | (uint64_t(best_a) << 61);
          }
    }
  });
}

std::vector<uint64_t> SurvivalSpace::expectation(int t, const std::vector<SurvivalRecord>& records) const {
  const int cap = hp_cap(t);
  std::vector<uint64_t> e(size_t{kRolls} * kRolls * kRolls * 5 * cap, 0);
  tbb::parallel_for(tbb::blocked_range<int>(0, kRolls * kRolls * kRolls), [&](const tbb::blocked_range<int>& range) {
    for (int q = range.begin(); q != range.end(); ++q) {
      const int a = q / (kRolls * kRolls), b = q / kRolls % kRolls, c3 = q % kRolls;
      uint64_t* dst = &e[size_t(q) * 5 * cap];
      for (int r0 = 0; r0 < kRolls; ++r0) {
        const uint64_t w = w_[r0];
        if (!w) continue;
        const size_t src = index(t, r0, a, b, c3, kFirstRiver, 1);
        for (int i = 0; i < 5 * cap; ++i) dst[i] += w * (records[src + i] & kCountMask);
      }
    }
  });
  return e;
}

SolveStats SurvivalSpace::solve(TierStore& store, Progress* progress) const {
  SolveStats stats;
  SolveLedger ledger(stats, progress);
  std::vector<uint64_t> e = first_expectation();
  std::vector<SurvivalRecord> records;
  auto turn = [](uint64_t i) { return static_cast<int>(i) + 1; };  // tier i holds turn i + 1
  auto name = [&](uint64_t i) { return "t" + std::to_string(turn(i)); };
  // what the next turn reads: the expectation over this one's records
  auto next = [&](int t) {
    if (t < turns_) e = expectation(t, records);
    stats.peak_bytes_in_flight =
        std::max<uint64_t>(stats.peak_bytes_in_flight, records.size() * sizeof(SurvivalRecord) + e.size() * 8);
  };
  ledger.in_order(
      static_cast<uint64_t>(turns_), [&](uint64_t i) { return store.has_tier(static_cast<TierId>(i)); },
      [&](uint64_t i) {
        const int t = turn(i);
        std::vector<SurvivalRecord>().swap(records);
        records = store.load<SurvivalRecord>(static_cast<TierId>(i));
        if (records.size() != tier_positions(t))
          throw std::runtime_error("stored tier t" + std::to_string(t) + " has the wrong size");
        ledger.skipped(name(i), tier_positions(t));
        next(t);
      },
      [&](uint64_t i) {
        const int t = turn(i);
        solve_tier(t, e, records);
        store.commit(static_cast<TierId>(i), records);
        ledger.solved(name(i), tier_positions(t));
        next(t);
      });
  return stats;
}

}  // namespace toadbase::river_toad
