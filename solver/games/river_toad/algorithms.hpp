// River Toad plans by five algorithms over the same rules (the closed form, river_toad.hpp).
// A search state is (turns played, column, HP); a goal is any state after all N turns.
// "Optimal" = survives all turns with the highest final HP.
//
// dp      forward dynamic programme over (turn, column, HP). More HP never hurts (the same
//         actions from more HP leave at least as much HP and die no sooner), so per (turn,
//         column) only the highest HP needs keeping: N x 5 states, exact. Ties: at each turn,
//         of the moves into a column that give the highest HP, the first in the order
//         A S D F G; at the end, the column with the highest HP, the lowest column on ties.
//         With no surviving plan it returns the plan that survives longest (then with the
//         highest HP at that turn), ending with the move that kills the toad.
// bfs     breadth-first, turn by turn: every state of a layer is expanded, and the next layer
//         keeps per column the first state with the most HP (the others are dominated);
//         returns the best HP among the states after turn N (so it is optimal too).
// dfs     depth-first backtracking in the order A S D F G, as the seeds' article searches;
//         remembers, per (turn, column), the highest HP known to fail (less HP fails too).
//         Returns the first surviving plan it meets: not necessarily optimal.
// greedy  best-first on the heuristic alone (below), deeper and then richer states first;
//         returns the first goal it pops: not necessarily optimal.
//         greedy and astar close (turn, column) at the most HP popped: a later state there
//         with no more HP is dominated and skipped (this keeps A* optimal: the dominating
//         state reaches every goal the other does, with at least as much HP).
// astar   A* on the HP given up: g = start HP + 5 x (flies that reached the bottom so far)
//         - HP, so final HP = start HP + 5 x (all flies) - g, and every step costs
//         5 x (a fly arrived but was not eaten) + min(move cost, HP before the move) >= 0.
//         Heuristic h(turn, column): the cheapest way to the end in a relaxed game that
//         ignores HP (no starving), pricing a move min(cost, 1) (an alive toad has HP >= 1,
//         so a move costs at least that) and a missed fly 5. It is the exact cost of a
//         relaxation, so admissible and consistent: the first goal popped is optimal.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "solver/games/river_toad/river_toad.hpp"

namespace toadbase::river_toad {

struct PlanResult {
  std::string algorithm;
  bool survived = false;
  bool gave_up = false;       // the node budget ran out
  std::vector<int> actions;   // the plan (with no survivor: dp's longest, ending in death)
  int final_hp = 0;
  uint64_t nodes_expanded = 0;
};

/// The node budget of the searches (dp needs none).
inline constexpr uint64_t kDefaultNodeBudget = 20000000;

PlanResult solve_dp(const std::vector<uint8_t>& rolls, const Rules& rules);
PlanResult solve_bfs(const std::vector<uint8_t>& rolls, const Rules& rules, uint64_t budget = kDefaultNodeBudget);
PlanResult solve_dfs(const std::vector<uint8_t>& rolls, const Rules& rules, uint64_t budget = kDefaultNodeBudget);
PlanResult solve_greedy(const std::vector<uint8_t>& rolls, const Rules& rules, uint64_t budget = kDefaultNodeBudget);
PlanResult solve_astar(const std::vector<uint8_t>& rolls, const Rules& rules, uint64_t budget = kDefaultNodeBudget);

/// The algorithm names in table order, and one by name (throws std::invalid_argument).
const std::vector<std::string>& algorithm_names();
PlanResult solve_with(const std::string& algorithm, const std::vector<uint8_t>& rolls, const Rules& rules,
                      uint64_t budget = kDefaultNodeBudget);

/// The admissible heuristic of greedy and astar: h[turn * 7 + column], -1 = no safe way on.
std::vector<int64_t> relaxed_cost_to_go(const std::vector<uint8_t>& rolls, const Rules& rules);

}  // namespace toadbase::river_toad
