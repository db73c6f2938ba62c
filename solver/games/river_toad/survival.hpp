// Every River Toad position's survival odds: the exhaustive part.
//
// A POSITION is what the toad sees at the start of a turn plus the turns left t:
//     rows 0..3 of the board = the last four rolls r1 (row 0, newest) .. r4 (row 3, arriving
//     at the bottom next turn), each 0..33; his column 1..5; his HP 1..3t+1.
// HP above 3t + 1 behaves like 3t + 1 (t turns cost at most 3t), so HP is capped there.
// Future rolls are independent, each roll r with weight w[r] (default: 1 each, uniform).
//
// VALUE: the probability of surviving all t turns under optimal play, kept exact as a count:
//     count(t) = sum over the next t rolls of w-products of surviving lines
//              = probability x W^t      (W = the sum of the weights, 34 when uniform)
//     count(0) = 1 (alive);  count(t, r1 r2 r3 r4, c, h) = max over legal actions a of
//         0                                   when roll r4 catches him or starves him, else
//         E(t, r1 r2 r3, c', h')  = sum over r0 of w[r0] x count(t-1, r0 r1 r2 r3, c', h')
// E depends on the action only through (c', h'): it is computed once per tier and shared by
// the five actions (and by the 34 values of r4). The best action: the highest count, ties in
// the order D S F A G (cheapest first).
//
// TIER t (t = 1..T, tier id t-1), index = ((((r1 * 34 + r2) * 34 + r3) * 34 + r4) * 5 + c - 1)
// * (3t + 1) + h - 1. RECORD: a u64, count in the low 61 bits, best action in the top 3
// (action index in A S D F G order); the database lays them out as 8 byte planes (in each
// block its positions' byte 0, then byte 1, ...: the high planes are nearly all zero and
// compress to little; db/layout.hpp).
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "solver/core/engine.hpp"
#include "solver/core/progress.hpp"
#include "solver/core/store.hpp"
#include "solver/games/river_toad/river_toad.hpp"

namespace toadbase::river_toad {

inline constexpr int kRolls = kMaxRoll + 1;  // 34
inline constexpr uint64_t kCountMask = (uint64_t{1} << 61) - 1;
/// A record's bytes as the store keeps them: the u64's bytes, least significant first.
static_assert(std::endian::native == std::endian::little, "records are stored little-endian");
using SurvivalRecord = uint64_t;

class SurvivalSpace {
 public:
  /// T turns at most; weights of the 34 rolls (empty = uniform). Throws std::invalid_argument
  /// when a count could overflow 61 bits.
  SurvivalSpace(int turns, std::vector<uint64_t> weights, const Rules& rules);

  int turns() const { return turns_; }
  const Rules& rules() const { return rules_; }
  const std::vector<uint64_t>& weights() const { return w_; }
  uint64_t weight_sum() const { return wsum_; }
  /// W^t, the denominator of tier t's counts.
  uint64_t denominator(int t) const { return pow_[t]; }
  static int hp_cap(int t) { return 3 * t + 1; }
  uint64_t tier_positions(int t) const { return uint64_t{kRolls} * kRolls * kRolls * kRolls * 5 * hp_cap(t); }
  uint64_t total_positions() const;
  static uint64_t index(int t, int r1, int r2, int r3, int r4, int column, int hp) {
    return ((((uint64_t(r1) * kRolls + r2) * kRolls + r3) * kRolls + r4) * 5 + (column - 1)) * hp_cap(t) + (hp - 1);
  }

  /// Where one action leaves the toad with t turns left and roll r4 arriving: his column
  /// and HP (capped for the t - 1 turns after), or nothing when he dies. By the one turn
  /// function (river_toad.hpp).
  struct After {
    int column, hp;
  };
  std::optional<After> after_action(int t, int r4, int column, int hp, int action) const {
    if (!legal(column, action)) return std::nullopt;
    const TurnResult r = turn(column, hp, action, r4, rules_);
    if (r.death != Death::None) return std::nullopt;
    return After{r.column, std::min(r.hp, hp_cap(t - 1))};
  }

  /// The count and best action of every position of tier t, from E of tier t (below)
  /// (written in place: one copy of the tier in memory).
  void solve_tier(int t, const std::vector<uint64_t>& e, std::vector<SurvivalRecord>& records) const;
  /// E(t+1) from tier t's records: e[((r1 * 34 + r2) * 34 + r3) * 5 + c - 1) * cap(t) + h - 1].
  std::vector<uint64_t> expectation(int t, const std::vector<SurvivalRecord>& records) const;
  /// E(1): every state alive after the last turn counts 1 per roll weight.
  std::vector<uint64_t> first_expectation() const;
  /// The outcome of one action from a position, given E of its tier: count (0 = death).
  uint64_t action_count(int t, const std::vector<uint64_t>& e, int r1, int r2, int r3, int r4, int column,
                        int hp, int action) const;

  /// Solves tiers 1..T into the store, skipping the committed ones.
  SolveStats solve(TierStore& store, Progress* progress) const;

 private:
  int turns_;
  std::vector<uint64_t> w_;
  uint64_t wsum_;
  std::vector<uint64_t> pow_;
  Rules rules_;
};

}  // namespace toadbase::river_toad
