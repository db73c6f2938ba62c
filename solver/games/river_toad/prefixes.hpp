// The optimal outcome of every roll prefix: for k = 1..N, can the first k turns be survived,
// the best HP after k turns, and the exact number of plans of k actions that survive them.
//
// Best HP: the forward max-HP pass of dp (algorithms.hpp), kept going to the end: O(N).
// Counts: the number of surviving plans per (column, HP) state, turn by turn, in arbitrary
// precision. That needs every HP, not only the best, so it costs O(N x states x digits): on a
// file he does not survive for long the counts soon fall to 0 and cost nothing, on one he
// survives for a million turns they grow to ~2.3 bits a turn and cannot be had in a second
// (the digits alone run to the hundreds of thousands). So counting works to a budget of limb
// additions and stops, saying where, when the budget runs out.
#pragma once

#include <vector>

#include "solver/core/bigcount.hpp"
#include "solver/games/river_toad/river_toad.hpp"

namespace toadbase::river_toad {

struct Prefixes {
  std::vector<int> best_hp;         // [k-1]: best HP after k turns, -1 = cannot survive k turns
  size_t counted = 0;               // counts are known for k = 1..counted
  std::vector<BigCount> surviving;  // [k-1]: plans of k actions alive after turn k (k <= counted)
};

inline constexpr uint64_t kNoCounts = 0, kAllCounts = ~uint64_t{0};
/// About a second of counting on this project's machines (limb additions).
inline constexpr uint64_t kDefaultCountBudget = uint64_t{1} << 26;

/// `count_budget`: limb additions the counts may take (kNoCounts, kAllCounts, or a budget).
Prefixes prefix_outcomes(const std::vector<uint8_t>& rolls, const Rules& rules, uint64_t count_budget);

}  // namespace toadbase::river_toad
