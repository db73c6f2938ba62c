// The frog swap puzzle (one player): the rules, position strings, and the tiered space.
//
// THE BOARD. A strip of N = n + m + k cells, cell 0 on the left: n frogs facing right (L),
// m frogs facing left (R), k empty cells (_). A frog moves only the way it faces: into the
// adjacent empty cell (slide), or over exactly one adjacent frog of the other kind into the
// empty cell beyond (jump). Start L^n _^k R^m, goal R^m _^k L^n (the mirror image).
//
//     "LL_LR_R"     cell:  0 1 2 3 4 5 6      L = 0b0001011   (bit i = an L on cell i)
//                          L L _ L R _ R      R = 0b1010000
//
// VALUES. A win in r = the goal is r moves away (fewest); a lose = the goal cannot be
// reached (a dead end). The goal is a win in 0. Record: PuzzleRecord (solver/core/record.hpp).
//
// TIERS. Let SA = the sum of the L cells, and number the cells that hold no L 0, 1, 2, ...
// from the left ("ordinals"); let B = the set of the R frogs' ordinals and SB its sum.
//
//     L L _ L R _ R :  A = {0,1,3}, SA = 4;  non-L cells 2 4 5 6 -> ordinals 0 1 2 3;
//                      R on cells 4 and 6 -> B = {1, 3}, SB = 4.
//
//     L slides one cell:          SA + 1, B unchanged          -> tier (SA+1, SB)
//     L jumps an R:               SA + 2, that R's ordinal + 1 -> tier (SA+2, SB+1)
//     R slides, or jumps an L:    A unchanged, its ordinal - 1 -> tier (SA, SB-1)
//
// So every move raises the potential SA - SB by exactly 1: the game has no cycles, every
// move leaves its tier, and every path from a position to the goal has the same length
// (Phi(goal) - Phi(position)): all solutions are optimal. A tier is (SA, SB), named
// "sl<SA>_sr<SB>", solved in decreasing SA - SB (children first), then decreasing SA.
//
// RANK INSIDE A TIER. index = rankA * countB(SB) + rankB, where rankA is the rank of A
// among the n-subsets of {0..N-1} with sum SA, and rankB the rank of B among the m-subsets
// of {0..m+k-1} with sum SB (both in mask order: solver/core/fixed_sum_sets.hpp).
// Tier sizes: countA(SA) * countB(SB); the space: C(N, n) * C(m + k, m) positions.
//
// LIMITS. N <= 30 cells; the longest solution n(m+k) + mk must fit the record (<= 254).
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "solver/core/combinatorics.hpp"
#include "solver/core/fixed_sum_sets.hpp"
#include "solver/core/game.hpp"

namespace toadbase::frog_puzzle {

inline constexpr int kMaxCells = 30;
inline constexpr int kMaxRemoteness = 254;

struct Position {
  uint32_t left = 0;   // bit i set: an L (facing right) on cell i
  uint32_t right = 0;  // bit i set: an R (facing left) on cell i
  uint8_t length = 0;
  friend bool operator==(const Position&, const Position&) = default;
};

/// A move: the frog on cell `from` goes to cell `to` (jump when they are two apart).
struct Move {
  int from, to;
  friend bool operator==(const Move&, const Move&) = default;
};

struct PositionError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

/// Piece counts of a position: n L, m R, k empty.
struct Counts {
  int n = 0, m = 0, k = 0;
  friend bool operator==(const Counts&, const Counts&) = default;
};

// ---- rules ---------------------------------------------------------------------------

Counts counts(const Position& p);
/// Every legal move, by source cell from the left (the order the sources enumerate them).
std::vector<Move> legal_moves(const Position& p);
/// Why a move is illegal (empty when legal).
std::string why_illegal(const Position& p, Move m);
Position apply(const Position& p, Move m);
/// L^n _^k R^m and R^m _^k L^n.
Position start_of(Counts c);
Position goal_of(Counts c);
bool is_goal(const Position& p);
/// The longest solution of a space, n(m + k) + mk: Phi(goal) - Phi(start).
int longest_solution(Counts c);
/// The potential SA - SB; every move raises it by 1.
int potential(const Position& p);
/// An upper bound on how many positions are reachable from `p` (itself included), in
/// N * n * m steps: an L never moves left nor passes another L, an R never moves right nor
/// passes another R, so every reachable position keeps the L frogs in order, each on or
/// right of its cell in `p`, and the R frogs in order, each on or left of its cell; a frog
/// that can never move (no cell one or two ahead of it can ever be empty) stays on its cell.
/// The bound counts those arrangements. Measured: 1.7 to 5 times the reachable count on
/// arrangements of 15 to 20 cells.
uint64_t reach_bound(const Position& p);

// ---- position strings ----------------------------------------------------------------

/// Canonical "LLL_RRR".
std::string format(const Position& p);
/// Reads "LLL_RRR" (also '-' or '.' for empty cells, lower case), the autoguiPosition
/// "1_LLL-RRR" this project prints, GamesCrafters' "1_xx-oo" or "xx-oo" (x = L, o = R,
/// - = empty), or the blog's list "[1, 1, 0, -1, -1]" (also as a Python tuple,
/// "(1, 1, 0, -1, -1)").
Position parse(std::string_view text);
/// The blog's list form "[1, 1, 0, -1, -1]".
std::string format_blog(const Position& p);
/// "L from 2 to 3" (0-based cells, as the backtracking article writes them).
std::string move_text(const Position& before, Move m);
/// GamesCrafters autogui move "M_2_3_x".
std::string autogui_move(Move m);

// ---- the space -----------------------------------------------------------------------

class Space {
 public:
  using Position = frog_puzzle::Position;

  explicit Space(Counts c);

  Counts counts() const { return c_; }
  int length() const { return N_; }
  TierId tier_count() const { return static_cast<TierId>(tiers_.size()); }
  uint64_t tier_size(TierId t) const { return tiers_[t].size; }
  std::string tier_name(TierId t) const;
  std::vector<TierId> child_tiers(TierId t) const;
  uint64_t total_positions() const { return total_; }

  Position unrank(TierId t, uint64_t index) const;
  TierIndex rank(const Position& p) const;
  bool contains(const Position& p) const;
  std::string why_not_contained(const Position& p) const;
  /// A smaller board of the same number of empty cells as a board of this space: R frogs
  /// packed at the left end and L frogs packed at the right end never move and block
  /// nothing, and the goal maps to the goal.  LLL_RRR in 8 + 8: RRRRRLLL_RRRLLLLL.
  std::optional<Position> embed(const Position& p) const;
  std::vector<Position> children(const Position& p) const;
  bool is_goal(const Position& p) const { return p == goal_; }

  template <class Visit>
  void scan(TierId t, uint64_t lo, uint64_t hi, Visit&& visit) const;

 private:
  template <class Visit>
  void scan_tier(TierId t, uint64_t lo, uint64_t hi, Visit& visit) const;  // scan's body
  struct Tier {
    int sa, sb;
    uint64_t size, nb;     // nb = countB(sb): positions per L set
    int slot[3];           // child tier slot of: L slide, L jump, R move (-1: none)
    TierId child[3];
  };
  static Counts validated(Counts c);
  int tier_id(int sa, int sb) const {
    if (sa < A_.min_sum() || sa > A_.max_sum() || sb < B_.min_sum() || sb > B_.max_sum()) return -1;
    return tier_of_[(sa - A_.min_sum()) * (B_.max_sum() - B_.min_sum() + 1) + (sb - B_.min_sum())];
  }

  Counts c_;
  int N_;
  uint32_t full_;
  FixedSumSets A_, B_;
  std::vector<Tier> tiers_;
  std::vector<int> tier_of_;
  Position goal_;
  uint64_t total_ = 0;
};

// ---- the hot loop ----------------------------------------------------------------------

// Walks the L sets A of the tier in rank order (a block of nb indices each) and, per A, the
// R ordinal sets B; the moves come from masks, the child indices from two table lookups.
template <class Visit>
void Space::scan(TierId t, uint64_t lo, uint64_t hi, Visit&& visit) const {
  if (lo >= hi) return;
  if constexpr (kIsChildLambda<Visit>) {
    CollectChildren<std::remove_reference_t<Visit>> collect{visit, {}, 0};
    scan(t, lo, hi, collect);
  } else {
    with_local_visitor(
        visit, [&](auto& v) __attribute__((always_inline)) { scan_tier(t, lo, hi, v); });
  }
}

template <class Visit>
[[gnu::always_inline]] inline void Space::scan_tier(TierId t, uint64_t lo, uint64_t hi,
                                                    Visit& visit) const {
  const Tier& tier = tiers_[t];
  const uint64_t nb = tier.nb;
  const uint64_t nb_jump = B_.count(tier.sb + 1), nb_r = B_.count(tier.sb - 1);
  uint64_t ia = lo / nb, index = lo;
  const uint64_t first_b = lo % nb;
  const uint32_t full = full_;
  const int sa = tier.sa, sb = tier.sb;
  const FixedSumSets::Ranker rank_slide = A_.ranker(sa + 1), rank_jump = A_.ranker(sa + 2),
                             rank_b_up = B_.ranker(sb + 1), rank_b_down = B_.ranker(sb - 1);
  // the tier's R ordinal sets, once, when they are few (one empty cell: a single one)
  constexpr uint64_t kCached = 512;
  uint64_t bsets[kCached];
  if (nb <= kCached) {
    uint64_t* out = bsets;
    B_.walk(sb, 0, nb, [&](uint64_t b) { *out++ = b; });
  }
  // one position: L set A (non-L cells nonL), R ordinal set b of rank rb in its block
  auto each = [&](uint32_t A, uint32_t nonL, uint64_t b, uint64_t rb) {
    const uint32_t R = static_cast<uint32_t>(deposit_bits(b, nonL));
    const uint32_t E = nonL & ~R;
    if (A == goal_.left && R == goal_.right) {
      visit.goal(index);
      ++index;
      return;
    }
    // L slides: an L with an empty cell right of it
    for (uint32_t m = A & (E >> 1); m; m &= m - 1) {
      const uint32_t i = std::countr_zero(m);
      const uint32_t A2 = A ^ (3u << i);
      visit.child(static_cast<uint32_t>(tier.slot[0]), rank_slide(A2) * nb + rb, true);
    }
    // L jumps: L, R, empty
    for (uint32_t m = A & (R >> 1) & (E >> 2); m; m &= m - 1) {
      const uint32_t i = std::countr_zero(m);
      const uint32_t A2 = A ^ (5u << i);
      const uint64_t B2 = extract_bits(R, ~A2 & full);
      visit.child(static_cast<uint32_t>(tier.slot[1]),
                  rank_jump(A2) * nb_jump + rank_b_up(B2), true);
    }
    // R slides (empty left of it) and jumps (L then empty left of it)
    for (uint32_t m = R & ((E << 1) | ((A << 1) & (E << 2))); m; m &= m - 1) {
      const uint32_t c = std::countr_zero(m);
      const uint32_t to = (E >> (c - 1) & 1) ? c - 1 : c - 2;
      const uint32_t R2 = R ^ (1u << c) ^ (1u << to);
      const uint64_t B2 = extract_bits(R2, nonL);
      visit.child(static_cast<uint32_t>(tier.slot[2]), ia * nb_r + rank_b_down(B2), true);
    }
    visit.position(index);
    ++index;
  };
  if (c_.k == 1) {
    // One empty cell: every tier holds one R ordinal set per L set (the missing ordinal is
    // fixed by the sum), so a position's index is its L set's rank, and so is a child's:
    // an R move keeps A (index ia in its tier), an L move lands on A2's rank.
    const uint64_t b = bsets[0];
    const uint32_t slide_slot = static_cast<uint32_t>(tier.slot[0]),
                   jump_slot = static_cast<uint32_t>(tier.slot[1]),
                   r_slot = static_cast<uint32_t>(tier.slot[2]);
    A_.walk(sa, ia, hi - lo, [&](uint64_t a64) {
      const uint32_t A = static_cast<uint32_t>(a64);
      const uint32_t nonL = ~A & full;
      const uint32_t R = static_cast<uint32_t>(deposit_bits(b, nonL));
      const uint32_t E = nonL & ~R;
      if (A == goal_.left && R == goal_.right) {
        visit.goal(index++);
        ++ia;
        return;
      }
      if (const uint32_t m = A & (E >> 1))
        visit.child(slide_slot, rank_slide(A ^ (3u << std::countr_zero(m))), true);
      if (const uint32_t m = A & (R >> 1) & (E >> 2))
        visit.child(jump_slot, rank_jump(A ^ (5u << std::countr_zero(m))), true);
      for (uint32_t m = R & ((E << 1) | ((A << 1) & (E << 2))); m; m &= m - 1)
        visit.child(r_slot, ia, true);
      visit.position(index++);
      ++ia;
    });
    return;
  }
  A_.walk(sa, ia, (hi - 1) / nb - ia + 1, [&](uint64_t a64) {
    const uint32_t A = static_cast<uint32_t>(a64);
    const uint32_t nonL = ~A & full;
    const uint64_t rb0 = index == lo ? first_b : 0;
    const uint64_t count = std::min<uint64_t>(nb - rb0, hi - index);
    if (nb <= kCached) {
      for (uint64_t r = rb0; r < rb0 + count; ++r) each(A, nonL, bsets[r], r);
    } else {
      uint64_t r = rb0;
      B_.walk(sb, rb0, count, [&](uint64_t b) { each(A, nonL, b, r++); });
    }
    ++ia;
  });
}

}  // namespace toadbase::frog_puzzle
