// Exact inference: the probability that each tile holds a monster, a trap or the portal given
// what the wanderer has seen, summed over every hidden forest under the generator:
//
//     P(forest | seen) ~ prod over tiles of P(content) x 1/n (portal) x 1/|E(forest)| x [consistent]
//
// where 1/|E| is the chance the start tile he stands on was drawn (E: the eligible tiles); it
// couples all tiles. Consistent: every visited tile is hazard-free (or held a monster he
// stoned first), not the portal, and shows exactly the clues he saw; a death tile holds that
// hazard. `infer` (inference.cpp) sums by a transfer-matrix pass over the tiles, exactly, on
// any side; the enumeration below (3x3: 177,147 drawings) serves the 3x3 expectimax and the
// generator facts (the no-start, redraw, probability).
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

struct InferenceOptions {
  /// -1: exact, every tile in the pass. r >= 1: tiles more than r steps from every observed
  /// tile only enter through 1/|E|, as independent factors (an approximation, for agents).
  int window = -1;
  /// Quadrature points for the 1/|E| integral; 0: enough to integrate it exactly.
  int points = 0;
};

/// The posterior per tile. Throws std::invalid_argument on observations no forest explains
/// (or that contradict each other), and when the pass would need over 2^20 states per tile
/// or 8 GiB.
Posterior infer(const Observations& o, const InferenceOptions& options);
/// The exact posterior (infer with the default options).
Posterior posterior(const Observations& o);

/// What a wanderer's knowledge says, as observations.
Observations observations(const Knowledge& k);

/// Reads the JSON form: {"side": 3, "start": [r, c], "visited": [{"tile": [r, c], "bones": true,
/// "leaves": false}, ...], "deaths": [{"tile": [r, c], "hazard": "monster"}], "stones": [[r, c]]}
/// ("at" is allowed and not read). Throws std::invalid_argument ("observations: ...") naming
/// what is wrong: where the text stops being JSON, the field of the wrong kind, the tile outside
/// the forest, a field it does not know.
Observations read_observations(const std::string& json_text);
/// A belief: the same with "at": [r, c], where he stands (required; into *at as a tile).
/// Throws std::invalid_argument naming what is wrong, as read_observations.
Observations read_belief(const std::string& json_text, int* at);

/// P(no tile is eligible as the start) for a side, by exact enumeration (side <= 3).
double no_start_probability(int side);

/// Calls f(forest, probability) for every forest of side 3 (start included), probabilities
/// summing to 1 (the redraw fix: forests without a start are left out and the rest renormalised).
template <class F>
void each_forest(int side, F&& f);

}  // namespace toadbase::forest

#include "solver/games/forest/posterior_impl.hpp"
