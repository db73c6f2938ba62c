// Every position reachable from one start, with its value, in memory: what
// `frog-puzzle solve` and `frog-puzzle check` need (no database).
//
// Every move raises the potential by exactly 1 (frog_puzzle.hpp), so the positions d moves
// from the start form layer d and no position lies in two layers. Layers are sorted vectors
// of keys (L mask | R mask << 32): layer d + 1 = the children of layer d. Values go
// backward: a position is a win when it is the goal or has a winning child; its remoteness
// is then D - d (D: the goal's layer), and its number of solutions is the sum of its
// winning children's.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "solver/core/bigcount.hpp"
#include "solver/games/frog_puzzle/frog_puzzle.hpp"

namespace toadbase::frog_puzzle {

/// The default limit on positions held in memory (about 9 bytes each).
inline constexpr uint64_t kDefaultExploreLimit = uint64_t{1} << 26;

class Explorer {
 public:
  /// Explores from `start`; throws std::length_error past `limit` positions.
  /// `with_values` false: the reachable set only.
  explicit Explorer(const Position& start, uint64_t limit = kDefaultExploreLimit,
                    bool with_values = true);

  const Position& start() const { return start_; }
  const Position& goal() const { return goal_; }
  bool solvable() const { return goal_layer_ >= 0; }
  /// Fewest moves from the start to the goal (the start must be solvable).
  int moves() const { return goal_layer_; }
  /// How many ways from the start to the goal (all of them are shortest).
  const BigCount& solutions() const { return solutions_; }

  uint64_t reachable() const { return reachable_; }
  uint64_t reachable_wins() const { return wins_; }
  /// Reachable positions with no legal move that are not the goal.
  uint64_t stuck() const { return stuck_; }
  size_t layers() const { return layers_.size(); }
  const std::vector<uint64_t>& layer(size_t d) const { return layers_[d]; }

  /// The value of a reachable position: -1 not reachable from the start, 0 lose, 1 win.
  int value(const Position& p) const;
  /// Remoteness of a reachable win (fewest moves to the goal).
  int remoteness(const Position& p) const;

  /// One shortest solution: at every step the move of the leftmost frog that keeps the goal
  /// reachable (the first solution the blog's breadth-first search prints).
  std::vector<Move> first_solution() const;
  /// Every solution in the same order (the first one first); `each` returns false to stop.
  void each_solution(const std::function<bool(const std::vector<Move>&)>& each) const;

  static uint64_t key(const Position& p) { return uint64_t{p.left} | (uint64_t{p.right} << 32); }
  Position position(uint64_t key) const {
    return {static_cast<uint32_t>(key), static_cast<uint32_t>(key >> 32), start_.length};
  }

 private:
  // layer and index of a key, or -1
  int64_t find(size_t d, uint64_t k) const;
  bool win_at(const Position& p, size_t d) const;

  Position start_, goal_;
  int goal_layer_ = -1;
  std::vector<std::vector<uint64_t>> layers_;
  std::vector<std::vector<uint8_t>> win_;  // [layer][index]
  BigCount solutions_;
  uint64_t reachable_ = 0, wins_ = 0, stuck_ = 0;
};

}  // namespace toadbase::frog_puzzle
