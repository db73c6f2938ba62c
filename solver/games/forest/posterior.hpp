// Exact inference: the probability that each tile holds a monster, a trap or the portal given
// what the wanderer has seen, by enumerating every hidden forest under the generator:
//
//     P(forest | seen) ~ prod over tiles of P(content) x 1/n (portal) x 1/|E(forest)| x [consistent]
//
// where 1/|E| is the chance the start tile he stands on was drawn (E: the eligible tiles); it
// couples all tiles. Consistent: every visited tile is hazard-free (or held a monster he
// stoned first), not the portal, and shows exactly the clues he saw; a death tile holds that
// hazard. Enumeration: 3^(n-1) contents x n portals: 3x3 only for now (177,147 forests).
// Also the exact generator facts: the no-start (redraw) probability.
#pragma once

#include <string>
#include <vector>

#include "solver/games/forest/forest.hpp"

namespace toadbase::forest {

struct Observations {
  int side = 3;
  int start = 0;
  struct Visit {
    int tile;
    bool bones, leaves;
  };
  std::vector<Visit> visited;               // the start included or not: it is added
  std::vector<std::pair<int, int>> deaths;  // (tile, kMonster or kTrap)
  std::vector<int> stones;                  // tiles stoned
};

struct Posterior {
  std::vector<double> monster, trap, portal;  // per tile
  double evidence = 0;                         // P(seen), for tests
};

/// Throws std::invalid_argument for sides above 3 or inconsistent observations.
Posterior posterior(const Observations& o);

/// Reads the JSON form: {"side": 3, "start": [r, c], "visited": [{"tile": [r, c], "bones": true,
/// "leaves": false}, ...], "deaths": [{"tile": [r, c], "hazard": "monster"}], "stones": [[r, c]]}.
Observations read_observations(const std::string& json_text);

/// P(no tile is eligible as the start) for a side, by exact enumeration (side <= 3).
double no_start_probability(int side);

/// Calls f(forest, probability) for every forest of side 3 (start included), probabilities
/// summing to 1 (the redraw fix: forests without a start are left out and the rest renormalised).
template <class F>
void each_forest(int side, F&& f);

}  // namespace toadbase::forest

#include "solver/games/forest/posterior_impl.hpp"
