// The optimal wanderer on 3x3 forests: expectimax over belief states.
//
// A belief state is what the wanderer knows: the start tile, the tiles visited with their
// clues, the hazards learnt by dying, the tiles stoned, and where he stands. Its belief is
// the set of forests (of all 3x3 forests, each with its probability under the generator)
// that agree with it. A decision is a macro-action: walk the shortest way over visited tiles
// next to a frontier tile t (not visited, not a known trap), optionally throw a stone at t,
// and step in. Every decision teaches something (a new tile, or a hazard by dying), so the
// recursion ends:
//
//     V(b) = max over (t, stone) of  -(steps) - 10 stone + sum over outcomes o of P(o | b) x
//              ( +10n                           the portal: the forest ends
//              | -10n + V(b + hazard at t)       a trap or a live monster: back to the start
//                                                (ends "stuck" when known traps cut the portal)
//              | V(b + t visited with its clues) )
//     V(b) = 0 when no frontier tile is left.
//
// V of the start beliefs, weighted by the start's probability, is the exact maximum expected
// score of a 3x3 forest. Ties between decisions: the first frontier tile in row-major order,
// no stone before a stone.
#pragma once

#include <functional>
#include <memory>
#include <optional>

#include "solver/games/forest/forest.hpp"
#include "solver/games/forest/posterior.hpp"

namespace toadbase::forest {

/// One belief state and the expectimax's decision there. The belief key packs masks over the
/// 9 tiles: visited (bits 0-8), bones (9-17), leaves (18-26), known traps (27-35), known
/// monsters (36-44), stoned (45-53), then the start tile (54-57) and where he stands (58-61).
struct PolicyEntry {
  uint64_t belief = 0;
  int target = -1;  // the frontier tile he goes for; -1: nothing left to try
  bool stone = false;
  double value = 0;  // the maximum expected score from here
};

/// Every belief state the expectimax meets from the start tile `start` (0..8), sorted by key.
/// Solves first when needed (all nine starts at once: the slow part of a forest database).
std::vector<PolicyEntry> optimal_policy(int start);
/// How many times optimal_policy() was called in this process: each call copies and sorts a
/// start tile's beliefs out of the search (and searches first, the first time), which
/// reading a stored policy never needs.
uint64_t optimal_policy_calls();
/// The key of a belief given as observations (side 3) and where he stands; throws
/// std::invalid_argument when they are not a belief the wanderer can hold.
uint64_t belief_key(const Observations& o, int at);
/// The observations and the wanderer's tile of a belief key.
Observations belief_observations(uint64_t key, int* at);

/// Where the optimal agent takes its decisions from: the search itself (empty), or a stored
/// policy (nullopt: no such belief stored, which the agent reports as an error).
using PolicyLookup = std::function<std::optional<PolicyEntry>(uint64_t)>;

/// The optimal agent for side 3 (throws std::invalid_argument on other sides).
std::unique_ptr<Agent> make_optimal_agent(PolicyLookup lookup = {});
/// The exact maximum expected score of a 3x3 forest (all forests, stuck ones included).
double optimal_expected_score();

}  // namespace toadbase::forest
