// Magic Forest Wanderer: the forest, its generator, and the wanderer's world (simulator).
//
// THE FOREST. A square grid of side s, n = s * s tiles, index = row * s + column, row 0 on
// top. Each tile independently holds a monster (1/20), a trap (1/20) or nothing; then one
// portal goes on a uniform tile (replacing what was there); then bones go on the 4-neighbours
// of each monster and leaves on those of each trap. The start tile is uniform among tiles
// with no hazard, no clue and no portal. FIX (the original loops forever): when no tile is
// eligible the whole forest is drawn again (0.889 % of 3x3 forests).
//
//     side 3:   . M .      M monster, T trap, P portal       bones:  B . B      start: a tile
//               . . P      clues on the neighbours                   . B .      with no hazard,
//               T . .                                        leaves: L . .      clue or portal
//
// THE WANDERER sees, for each tile he has stood on, its clues and whether it is the portal.
// Moving to a neighbour costs 1; a stone thrown at a neighbour costs 10 and kills a monster
// there (no feedback); entering a live monster or a trap costs 10n, teaches him which it was
// and sends him back to the start (map kept; killed monsters stay dead); entering the portal
// gains 10n and ends the forest. FIX (the original crashes): when known traps cut every way
// to the portal the forest ends "stuck". A forest also ends stuck after 100 n actions.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace toadbase::forest {

inline constexpr int kMaxSide = 12;
enum Content : uint8_t { kEmpty = 0, kMonster = 1, kTrap = 2 };

struct Forest {
  int side = 3;
  std::vector<uint8_t> content;  // per tile: kEmpty, kMonster, kTrap
  int portal = 0;
  std::vector<uint8_t> bones, leaves;  // per tile: clue present
  int start = 0;
  int tiles() const { return side * side; }
  std::vector<int> neighbours(int t) const;
  /// The tiles eligible as the start (no hazard, no clue, not the portal).
  std::vector<int> eligible_starts() const;
  /// Rows of characters for people: M T P S (start), . empty; clues in brackets on request.
  std::vector<std::string> picture() const;
};

/// Neighbours of tile t on a side-s grid, in the order up, left, right, down.
std::vector<int> neighbours(int side, int t);

/// Sets the clues from the contents and the portal.
void place_clues(Forest& f);

/// Forest number `index` of a seeded run: its own generator, so forests are independent and
/// an evaluation is the same whatever the thread count.
Forest generate(int side, uint64_t seed, uint64_t index);
/// One draw with a given engine (redrawing while no start tile exists).
Forest generate(int side, std::mt19937_64& rng);

/// What the wanderer may do.
struct Action {
  enum Kind : uint8_t { Move, Shoot, GiveUp } kind;
  int tile;  // an in-bounds neighbour of the wanderer's tile (GiveUp: ignored; the forest ends stuck)
};

/// What the wanderer knows (kept across deaths).
struct Knowledge {
  int side = 3;
  int start = 0;
  std::vector<uint8_t> visited, bones, leaves;     // clues are known on visited tiles
  std::vector<uint8_t> known_trap, known_monster;  // learnt by dying there
  std::vector<uint8_t> stoned;                     // tiles he threw a stone at
  int tiles() const { return side * side; }
};

/// The interface every agent implements.
class Agent {
 public:
  virtual ~Agent() = default;
  virtual std::string name() const = 0;
  /// A new forest begins; `truth` is given to agents that are allowed it (the oracle).
  virtual void begin(const Knowledge& k, const Forest* truth) = 0;
  /// The next action from tile `at`.
  virtual Action next(const Knowledge& k, int at) = 0;
  /// He died on `tile` (and is back on the start tile).
  virtual void died(const Knowledge& k, int tile) { (void)k, (void)tile; }
};

/// One action of a logged play and what came of it.
struct Step {
  Action action;
  std::string text;  // "move to [0, 1] (bones)", "stone at [1, 1]", "move to [2, 0]: killed by a trap, ..."
  int at = 0;        // where he stands after it (the start after a death)
  long score = 0;    // the score so far
  Knowledge knows;   // what he knows after it
};

struct Episode {
  bool portal = false, stuck = false;
  int deaths = 0, moves = 0, stones = 0;
  long score = 0;
  std::vector<Step> steps;  // one per action when asked
};

/// "[r, c]": a tile as every command names it (row, column, from 0; row 0 on top).
std::string tile_name(int side, int t);

/// Plays one forest with an agent (`log`: keep every step, with what he knows after it).
Episode play(const Forest& f, Agent& agent, bool log = false);

/// True when a way from the start to the portal avoids the known traps.
bool portal_reachable(const Forest& f, const std::vector<uint8_t>& known_trap);

}  // namespace toadbase::forest
