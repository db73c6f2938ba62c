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

#include <memory>

#include "solver/games/forest/forest.hpp"

namespace toadbase::forest {

/// The optimal agent for side 3 (throws std::invalid_argument on other sides).
std::unique_ptr<Agent> make_optimal_agent();
/// The exact maximum expected score of a 3x3 forest (all forests, stuck ones included).
double optimal_expected_score();

}  // namespace toadbase::forest
