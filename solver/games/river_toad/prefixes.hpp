// The optimal outcome of every roll prefix: for k = 1..N, can the first k turns be survived,
// the best HP after k turns, and the exact number of plans of k actions that survive them.
//
// Best HP: the forward max-HP pass of dp (algorithms.hpp), kept going to the end: O(N).
// Counts: the number of surviving plans per (column, HP) state, turn by turn, in arbitrary
// precision. That needs every HP, not only the best, so it costs O(N x states x digits):
// fine for thousands of rolls, not for a million (then ask for no counts).
#pragma once

#include <vector>

#include "solver/core/bigcount.hpp"
#include "solver/games/river_toad/river_toad.hpp"

namespace toadbase::river_toad {

struct Prefixes {
  std::vector<int> best_hp;         // [k-1]: best HP after k turns, -1 = cannot survive k turns
  bool counted = false;
  std::vector<BigCount> surviving;  // [k-1]: plans of k actions alive after turn k
};

Prefixes prefix_outcomes(const std::vector<uint8_t>& rolls, const Rules& rules, bool with_counts);

}  // namespace toadbase::river_toad
