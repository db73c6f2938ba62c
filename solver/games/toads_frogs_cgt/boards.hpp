// The boards of the CGT database: every Toads and Frogs board of 1..n cells, each value
// stored once. The rules are Toads and Frogs' own (solver/games/toads_frogs/toads_frogs.hpp);
// this file decides which boards are stored and where.
//
// DEAD PIECES. A frog on cell 0 never moves (it moves left) and no toad ever jumps it (a
// toad jumps rightwards into the cell beyond); a toad on the last cell likewise. So such a
// piece can be cut off with its cell, and the board is the same game:
//
//     F F - T F - T T        cells 0,1 (frogs) and 6,7 (toads) are dead
//         - T F -            the same game, 4 cells
//
// A board is *reduced* when cell 0 holds no frog and the last cell no toad. Every board is
// F^k X T^j for exactly one reduced X (or F^k T^j, which is 0 like "-"), so the reduced boards
// of lengths 1..n carry every value of every board of 1..n cells, each once: the boards of
// length m < n cost nothing more, and a query of a board of any length up to n is answered.
//
// MIRROR. Reversing a board and swapping toads with frogs swaps the players: the value is
// negated. Only boards with no more toads than frogs (t <= f) are stored; a board with t > f
// is looked up mirrored and its value negated. (With t = f both orientations are stored, but
// the solve makes only one of each pair and negates it for the other.)
//
// CLASSES. A move keeps the length and the piece counts, unless a piece becomes dead (a toad
// reaching the last cell, a frog cell 0): then the child, stripped, is a reduced board of a
// shorter class. So class (m, t, f) reads only itself and classes of fewer cells, and the
// classes of one length are independent of each other.
//
// RANK INSIDE A CLASS (m >= 2 cells, t toads, f frogs). A = the toad set (within cells
// 0..m-2), B = the frog set (within cells 1..m-1, no toad), SA = the sum of the toads' cells.
//
//     index = level_start[SA]                      boards with a smaller SA first
//           + (0 in A ? r0 * b0                     toads on cell 0 first, ...
//                     : cnt0[SA] * b0 + r1 * b1)   ... then those without
//           + colex rank of B's ordinals among the cells 1..m-1 that hold no toad
//
//   r0, r1: the rank of A's inner cells 1..m-2 among the sets of their size and sum
//           (FixedSumSets, the ranking Toads and Frogs uses for its toad sets);
//   b0 = C(m - t, f), b1 = C(m - 1 - t, f): frog sets per toad set (cell 0 is a toad: one
//   more free cell), cnt0[SA] = toad sets of sum SA that hold cell 0.
//
//     board T F - T - F (m = 6): A = {0, 3}, SA = 3, 0 in A; inner cells {3} -> inner set
//     {2} (cells counted from 1), sum 2; free cells 1 2 4 5 -> frogs on ordinals {0, 3}.
//
// Why this layout: every toad move raises SA (by 1 or 2) and every frog move keeps A and
// moves one frog ordinal down (a lower colex rank). So solving SA from high to low, and each
// toad set's block of frog sets in rank order, meets every child before its parent; the toad
// sets of one SA are independent, so they run side by side.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "solver/core/combinatorics.hpp"
#include "solver/core/fixed_sum_sets.hpp"
#include "solver/core/store.hpp"

namespace toadbase::toads_frogs_cgt {

/// The longest strip a CGT database may hold (Toads and Frogs' own limit).
inline constexpr int kMaxLength = 22;

/// A board: bit i of `toads` / `frogs` set for a toad / frog on cell i (cell 0 on the left).
struct Board {
  uint32_t toads = 0, frogs = 0;
  int length = 0;
  friend bool operator==(const Board&, const Board&) = default;
};

/// "T-TFF".
std::string board_string(const Board& b);
/// A board string: T, F and - (also t, f, _ and .), optionally after a player to move
/// ("1_T-TFF": the value does not depend on who moves). Throws std::invalid_argument naming
/// what is wrong.
Board parse_board(std::string_view text);
/// Reversed, toads and frogs swapped: the negative.
Board mirror(const Board& b);
/// Dead pieces cut off (see the top of this file); the empty board becomes "-" (both are 0).
Board strip(const Board& b);
/// A board with t toads and f frogs, for which of the tables below.
inline int toads_of(const Board& b) { return __builtin_popcount(b.toads); }
inline int frogs_of(const Board& b) { return __builtin_popcount(b.frogs); }

/// One class of stored boards: the reduced boards of m cells with t toads and f frogs, t <= f.
struct BoardClass {
  int m = 0, t = 0, f = 0;
  uint64_t size = 0;
  uint64_t b0 = 0, b1 = 0;              // frog sets per toad set with / without cell 0
  std::vector<uint64_t> level_start;    // [SA], one past the last SA: size
  std::vector<uint64_t> cnt0, cnt1;     // [SA]: toad sets with / without cell 0
  std::string name() const;             // "m12_t3f4"
};

/// Where a board's value is stored: its class and index, and whether the stored board is
/// its mirror (then its value is the stored value's negative).
struct Located {
  uint32_t cls = 0;
  uint64_t index = 0;
  bool mirrored = false;
};

/// Every stored board of 1..n cells. Tables are built once; every const member is safe to
/// call from several threads.
class Boards {
 public:
  explicit Boards(int n);

  int max_length() const { return n_; }
  /// Classes in solve order: by length, then largest first (then t, f), the order ids are
  /// numbered in.
  uint32_t class_count() const { return static_cast<uint32_t>(classes_.size()); }
  const BoardClass& cls(uint32_t c) const { return classes_[c]; }
  /// The class of (m, t, f), t <= f; nullopt when it holds no board.
  std::optional<uint32_t> class_of(int m, int t, int f) const;
  /// The classes of m cells: [first, last).
  std::pair<uint32_t, uint32_t> classes_of_length(int m) const { return {by_length_[m], by_length_[m + 1]}; }
  /// Boards stored, all classes.
  uint64_t total() const { return total_; }

  /// A reduced board's place (after mirroring when t > f). The board must be reduced and of
  /// 1..n cells.
  Located locate_reduced(const Board& b) const;
  /// Any board of 1..n cells: stripped, then located.
  Located locate(const Board& b) const { return locate_reduced(strip(b)); }
  /// The index of a reduced board in its own class (no mirroring).
  uint64_t index_in(const BoardClass& c, uint32_t toads, uint32_t frogs) const {
    if (c.m == 1) return 0;
    const int sa = bit_index_sum(toads);
    const uint64_t in = toads >> 1;  // the inner cells 1..m-2, counted from 0
    const uint64_t pos = toads & 1 ? inner(c.m, c.t - 1).rank(in, sa - (c.t - 1)) * c.b0
                                   : c.cnt0[sa] * c.b0 + inner(c.m, c.t).rank(in, sa - c.t) * c.b1;
    const uint32_t free_cells = ((1u << c.m) - 2) & ~toads;  // cells 1..m-1 without a toad
    return c.level_start[sa] + pos + colex_(static_cast<uint32_t>(extract_bits(frogs, free_cells)));
  }
  /// The board at an index of a class.
  Board unrank(uint32_t c, uint64_t index) const;

  /// The toad sets of one SA of a class, in rank order: those with cell 0 (cnt0 of them),
  /// then those without. Calls each(slot, toads, first index of its block, frog sets in it)
  /// for slots lo..hi-1.
  template <class Each>
  void toad_sets(const BoardClass& c, int sa, uint64_t lo, uint64_t hi, Each&& each) const;

 private:
  const FixedSumSets& inner(int m, int k) const { return *inner_[m][k]; }

  int n_;
  std::vector<BoardClass> classes_;
  std::vector<uint32_t> by_length_;          // [m]: first class of m cells (m = 1..n+1)
  std::vector<int32_t> class_index_;         // [m][t][f] -> class id, -1 for none
  // [m][k]: k-subsets of the m - 2 inner cells 1..m-2, by sum (m >= 2)
  std::vector<std::vector<std::unique_ptr<FixedSumSets>>> inner_;
  // the frog set's rank among the free cells (at most n - 1 of them), by table
  ColexByteRank colex_;
  uint64_t total_ = 0;
};

// ---- the toad sets of a level -----------------------------------------------------------

template <class Each>
void Boards::toad_sets(const BoardClass& c, int sa, uint64_t lo, uint64_t hi, Each&& each) const {
  const uint64_t c0 = c.cnt0[sa];
  if (c.m == 1) {  // the board "-"
    if (lo < hi) each(uint64_t{0}, uint32_t{0}, uint64_t{0}, uint64_t{1});
    return;
  }
  auto emit = [&](uint64_t slot, uint32_t toads) {
    const uint64_t start = c.level_start[sa] + (slot < c0 ? slot * c.b0 : c0 * c.b0 + (slot - c0) * c.b1);
    each(slot, toads, start, slot < c0 ? c.b0 : c.b1);
  };
  if (lo < c0) {
    const uint64_t end = std::min(hi, c0);
    uint64_t slot = lo;
    inner(c.m, c.t - 1).walk(sa - (c.t - 1), lo, end - lo, [&](uint64_t in) {
      emit(slot++, static_cast<uint32_t>(in << 1) | 1u);
    });
  }
  if (hi > c0) {
    const uint64_t from = std::max(lo, c0);
    uint64_t slot = from;
    inner(c.m, c.t).walk(sa - c.t, from - c0, hi - from, [&](uint64_t in) {
      emit(slot++, static_cast<uint32_t>(in << 1));
    });
  }
}

}  // namespace toadbase::toads_frogs_cgt
