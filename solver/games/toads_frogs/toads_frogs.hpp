// Toads and Frogs (Richard Guy): the rules, position strings, and the tiered space.
//
// THE BOARD. A strip of n cells, cell 0 on the left. Toads (T, Left, player 1) move right,
// Frogs (F, Right, player 2) move left: slide one cell into an empty cell, or jump over
// exactly one adjacent opposing piece into the empty cell beyond. No move: you lose.
//
//     "1_TT-F-F"      cell:  0 1 2 3 4 5      toads  = 0b000011   (bit i = toad on cell i)
//                            T T - F - F      frogs  = 0b101000
//                                             turn   = 1 (Toads to move)
//
// TIERS. Pieces are never captured, so the piece counts (t toads, f frogs) never change.
// Let SA = the sum of the toads' cells. A toad move raises SA by 1 (slide) or 2 (jump); a
// frog move leaves SA alone but hands the turn back to the Toads. So a tier is
//
//     (t, f, SA, turn)       children of (t,f,SA,toads) lie in (t,f,SA+1,frogs), (t,f,SA+2,frogs)
//                            children of (t,f,SA,frogs) lie in (t,f,SA,toads)
//
// and the solve order, per (t, f), is SA from high to low, the toads' tier before the frogs'.
// Every move leaves its tier. Tier names read "t3f3_s12_toads".
//
// WHAT IS STORED. A frogs' tier is derived: one ply from the toads' tier of the same SA.
// Mirroring (reverse the strip, swap toads with frogs and the player to move) keeps the
// value, so in a space of every piece count a toads' tier with more toads than frogs is
// derived too: its board b is, mirrored, a Frogs-to-move board with t' = f < f' = t, one ply
// from stored boards. The database stores the toads' tiers with t <= f, up to their tails
// (below), and canonical() takes any position to a stored one or to one a ply from them:
//
//     1_TTT-F-   t = 3 > f = 1   mirror ->  2_-T-FFF   t = 1 <= 3: a frogs' tier, one ply
//     2_TTT-F-                   mirror ->  1_-T-FFF   stored
//
// FROZEN ENDS (every piece count in the space). A toad on the last cell never moves and
// enables no move; neither does a frog on cell 0. So a board X + "T" plays exactly as
// "F" + X, with the same player to move:
//
//     X + T   = T - F - T     tier (t, f, SA)                   toads on 0 and 4 (the last)
//     F + X   = F T - F -     tier (t-1, f+1, SA - (n-1) + (t-1))
//
// A tier's toad sets that hold the last cell rank last (colex: largest cell first), so they
// are the tier's *tail*: the solver copies it from that one source tier instead of scanning
// it, the database keeps only the prefix (a third of the boards), and a lookup first turns
// X + T into F + X (canonical()). One piece-count space has no source tier: no tail.
//
// RANK INSIDE A TIER. index = rankA * C(n - t, f) + rankB, where
//   rankA = the rank of the toad set A among the t-subsets of {0..n-1} with sum SA
//           (colex order: largest cell first; counted with a table of subset sums), and
//   rankB = the colex rank of the frogs among the n - t cells that hold no toad, numbered
//           by their ordinal among those cells ("frog ordinals").
//
//     board T F - T - F (n = 6):  A = {0, 3}, SA = 3; non-toad cells 1 2 4 5 have ordinals
//     0 1 2 3; frogs on cells 1 and 5 -> B = {0, 3} -> rankB = C(0,1) + C(3,2) = 3.
//
// Why this layout: a toad slide leaves every frog ordinal as it was (rankB unchanged) and a
// toad jump moves one frog ordinal o up to o + 1; a frog move changes B alone (o -> o - 1).
// So scanning a tier in index order reads its child tiers almost sequentially, and the
// child indices come from a few additions: the solver's hot loop needs no full rank.
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
#include "solver/core/huge_pages.hpp"
#include "solver/core/packed.hpp"
#include "solver/core/record.hpp"

namespace toadbase::toads_frogs {

/// The longest strip accepted. The hot loop's tables grow as 2^n (set_key_ and sets_, four
/// bytes an entry, 512 MiB at 26, 2 GiB at 28, in every process that opens the space), and
/// 26 cells already hold 5 * 10^12 positions. Up to 27 cells the bound e(t + f) + tf on the
/// number of moves (225 at 26, 243 at 27, 261 at 28) fits the one-byte record (module.hpp:
/// remoteness_bound).
inline constexpr int kMaxLength = 26;

enum class Player : uint8_t { Toads = 1, Frogs = 2 };

/// A board and the player to move.
struct Position {
  uint32_t toads = 0;  // bit i set: a toad on cell i
  uint32_t frogs = 0;  // bit i set: a frog on cell i
  uint8_t length = 0;  // cells on the strip
  Player turn = Player::Toads;
  friend bool operator==(const Position&, const Position&) = default;
};

/// A move: the piece on cell `from` goes to cell `to`.
struct Move {
  int from, to;
};

/// Thrown by parse() with a message naming what is wrong.
struct PositionError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// ---- rules ---------------------------------------------------------------------------

/// Every legal move of the player to move, toads left to right, frogs right to left.
std::vector<Move> legal_moves(const Position& p);
/// The position after a legal move (the other player to move).
Position apply(const Position& p, Move m);
/// Reverse the strip and swap toads with frogs and the player to move.
Position mirror(const Position& p);

// ---- position strings ----------------------------------------------------------------

/// Canonical `<turn>_<board>`, e.g. "1_TT--FF".
std::string format(const Position& p);
/// Reads `1_TT--FF`; also `_`/`.` for empty cells, lower case `t`/`f`, and a bare board when
/// `default_turn` is given. Throws PositionError saying what is wrong.
Position parse(std::string_view text, std::optional<Player> default_turn = std::nullopt);
/// "1-2": from cell 1 to cell 2 (cells counted from 0, as GamesCrafters' autogui does).
std::string move_name(Move m);
/// GamesCrafters autogui move string, e.g. "M_1_2_x".
std::string autogui_move(Move m);

// ---- the space -----------------------------------------------------------------------

/// Which boards a space holds: all of one length, with the given piece counts.
struct SpaceParams {
  int length = 10;
  std::optional<int> toads, frogs;  // both set: one piece-count space; unset: every count
};

/// The tiered space of a set of piece counts on a strip of `length` cells.
class Space {
 public:
  using Position = toads_frogs::Position;
  /// The default frog_table_limit: 64 Ki sets a table (256 KiB, and as much in each of the
  /// tables beside it: three with every piece count, two in a space of one): every tier of up
  /// to 18 free cells, and of more the fewest and the most frogs.
  static constexpr uint64_t kFrogTable = uint64_t{1} << 16;

  /// `frog_table_limit`: the largest C(n - t, f) whose frog sets the hot loop reads from a
  /// table (frog_sets_); tiers past it step through them (a test sets 0 for every tier).
  explicit Space(SpaceParams params, uint64_t frog_table_limit = kFrogTable);
  /// Throws std::invalid_argument, saying why, for parameters no space has (what the
  /// constructor checks first, without making the tables).
  static void check(const SpaceParams& params);

  const SpaceParams& params() const { return params_; }
  int length() const { return n_; }

  TierId tier_count() const { return static_cast<TierId>(tiers_.size()); }
  uint64_t tier_size(TierId t) const { return tiers_[t].size; }
  std::string tier_name(TierId t) const;
  std::vector<TierId> child_tiers(TierId t) const;

  Position unrank(TierId t, uint64_t index) const;
  /// The tier and index of a position the space holds (contains(p): its length and piece
  /// counts). Undefined for any other position (a longer board reads past the tables):
  /// check contains(p) first.
  TierIndex rank(const Position& p) const;
  /// p (of tier t, not its last index) becomes the position of the next index: the frogs'
  /// next subset of the free cells in colex order, or the next toad set with the first one.
  void next_in_tier(TierId t, Position& p) const;
  /// True when the space holds this position (its length and piece counts).
  bool contains(const Position& p) const;
  /// Why the space does not hold `p` (empty when it does).
  std::string why_not_contained(const Position& p) const;
  /// A shorter board as a board of this space with the same game tree: k frogs packed at
  /// the left end and j toads packed at the right end can never move and enable no move,
  ///     1_TT--FF  on 10 cells with every count:  1_TT--FFTTTT   (k = 0, j = 4)
  /// Empty when no such padding fits the space's piece counts (or `p` is longer).
  std::optional<Position> embed(const Position& p) const;
  std::vector<Position> children(const Position& p) const;
  /// The same into `out` (cleared first): no allocation once `out` has grown.
  void children(const Position& p, std::vector<Position>& out) const;
  /// Calls f(child) for each child in legal_moves' order until f returns false; false when
  /// it did (verify's loop: a child ranked as it is made, no vector). Verify prefers it to
  /// children(): a space derived from this one that changes the children changes both.
  template <class F>
  bool each_child(const Position& p, F&& f) const;
  uint64_t total_positions() const { return total_; }

  /// Only Toads-to-move tiers are stored: a Frogs-to-move position's children all lie in
  /// the Toads' tier of the same sum, so its value is one ply away; with every piece count,
  /// only those with no more toads than frogs (the others are mirrors of Frogs-to-move
  /// positions).
  bool tier_stored(TierId t) const {
    return tiers_[t].toads_turn && (params_.toads || tiers_[t].t <= tiers_[t].f);
  }

  /// Positions [0, prefix) of a tier: the boards without a toad on the last cell.
  uint64_t tier_prefix(TierId t) const { return tiers_[t].prefix; }
  /// The tier of the boards "F" + X that the tail's boards X + "T" play as.
  TierId tail_source(TierId t) const;
  /// out[prefix .. size) of tier t from the source tier's records (one-byte records, or the
  /// two-byte records of spaces whose games can outlast 255 moves).
  void fill_tail(TierId t, const uint8_t* source, uint8_t* out) const;
  void fill_tail(TierId t, const uint16_t* source, uint16_t* out) const;
  /// The same from a source read a row at a time (a tier held packed under a memory budget:
  /// solver/core/packed.hpp); the rows come in rising order.
  void fill_tail_rows(TierId t, const RecordRows<uint8_t>& source, uint8_t* out) const;
  void fill_tail_rows(TierId t, const RecordRows<uint16_t>& source, uint16_t* out) const;
  /// A position with the same value that is stored or one ply from stored ones: mirrored
  /// when it has more toads than frogs (every piece count), then with every toad frozen at
  /// the right end turned into a frog frozen at the left end (a board of a tier's prefix).
  Position canonical(const Position& p) const;

  /// The tier of the same board with the other player to move (same layout, same index).
  TierId other_turn_tier(TierId t) const { return tiers_[t].toads_turn ? t + 1 : t - 1; }
  bool toads_to_move(TierId t) const { return tiers_[t].toads_turn; }
  int tier_toads(TierId t) const { return tiers_[t].t; }
  int tier_frogs(TierId t) const { return tiers_[t].f; }

  /// The hot loop: positions lo..hi-1 of tier t, with their children, in index order.
  template <class Visit>
  void scan(TierId t, uint64_t lo, uint64_t hi, Visit&& visit) const;

 private:
  struct Tier {
    uint8_t t, f;
    uint16_t sum;     // SA: the sum of the toads' cells
    bool toads_turn;  // Toads to move
    uint64_t size;
    uint64_t frog_sets;  // C(n - t, f)
    uint64_t prefix;     // positions without a toad on the last cell (or size: no tail)
    int64_t frog_table;  // where frog_sets_ lists the f-subsets of the n - t free cells, or -1
  };

  /// rankA and its inverse: toad sets of t toads ranked among those of their sum
  /// (solver/core/fixed_sum_sets.hpp; mask order is colex order)
  uint64_t rank_toads(uint32_t toads, int t, int sum) const { return toad_sets_[t].rank(toads, sum); }
  uint32_t unrank_toads(uint64_t r, int t, int sum) const {
    return static_cast<uint32_t>(toad_sets_[t].unrank(sum, r));
  }
  TierId tier_of(int t, int f, int sum, bool toads_turn) const;
  // The hot loop's tables (the generic path computes the same by arithmetic):
  uint32_t toads_at(int t, int sum, uint64_t r) const {  // unrank_toads by lookup
    return sets_[set_start_[t * (max_sum_ + 1) + sum] + r];
  }
  uint64_t toads_rank(uint32_t toads) const { return set_key_[toads] >> kSumBits; }  // rank_toads by lookup

  /// The rank of frog set B's board X in its tail source F + X (the frogs' rank there).
  uint32_t tail_rank(uint64_t B) const;
  // rows(first, count, scratch): the source's records [first, first + count)
  template <class R, class Rows>
  void fill_tail_of(TierId t, const Rows& rows, R* out) const;
  template <class Block, class Each>
  void walk(const Tier& tier, uint64_t lo, uint64_t hi, Block&& block, Each&& each) const;
  // inlined into scan(), so that its local copy of the visitor keeps its scalars in registers
  template <class Visit>
  void scan_toads(const Tier& tier, uint64_t lo, uint64_t hi, Visit& visit) const;
  template <class Visit>
  void scan_frogs(const Tier& tier, uint64_t lo, uint64_t hi, Visit& visit) const;

  SpaceParams params_;
  int n_;
  uint32_t full_;  // the n cells' bits
  ColexByteRank frog_rank_;  // rank(): the frogs' colex rank among the free cells
  int max_sum_;
  std::vector<FixedSumSets> toad_sets_;  // [t]: the t-subsets of the n cells, by sum
  // rows of 32: a power of two keeps the hot loop's index arithmetic one shift
  static constexpr int kTable = 32;
  static_assert(kMaxLength + 2 <= kTable);
  uint32_t choose_[kTable][kTable];        // C(o, j) for the hot loop
  struct Counts {
    int64_t base = 0;   // the tier of sum s is this - 2s (+ 1: Frogs to move)
    uint64_t rows = 0;  // C(n - t, f): the frog sets of one toad set
  };
  Counts counts_[kTable][kTable] = {};  // [t][f]
  uint64_t minus_choose_below_[kTable][kTable];  // -C(o - 1, j) modulo 2^64 (0 for o = 0): added
  // [toad mask] -> its rank among sets of its size and sum, above kSumBits bits of the sum (rank()
  // reads both with one load; at 26 cells the largest rank, 208,959, needs 18 bits)
  static constexpr int kSumBits = 9;
  static_assert(kMaxLength * (kMaxLength - 1) / 2 < (1 << kSumBits));
  HugeVector<uint32_t> set_key_;
  HugeVector<uint32_t> sets_;         // toad masks grouped by (size, sum), in rank order
  std::vector<uint64_t> set_start_;   // [t][sum] -> first entry of the group in sets_
  std::vector<Tier> tiers_;
  // The hot loop's frog sets: for each piece count (t, f) of the space with C(n - t, f) <= the
  // limit (kFrogTable), the f-subsets of its n - t free cells in colex order, one after
  // another (a load where the colex successor took a dozen instructions): 4.8 MiB at 24 cells,
  // and as much again in each of the tables beside it (three with every piece count, two in a
  // space of one: no tail ranks)
  HugeVector<uint32_t> frog_sets_;
  // beside it, each set's frogs with no frog on the next ordinal above (B & ~(B >> 1): a toad
  // below can jump them) and below (B & ~(B << 1): they can move down): a scan loads the
  // one it reads, where it made it with three instructions a position
  HugeVector<uint32_t> frog_tops_, frog_bottoms_;
  HugeVector<uint32_t> tail_ranks_;  // beside frog_sets_ (every count): B's 2B + 1, ranked
  uint64_t total_ = 0;
};

// ---- the hot loop ----------------------------------------------------------------------

// a (t, f) space's tiers run from the highest sum down, Toads to move then Frogs for each
inline TierId Space::tier_of(int t, int f, int sum, bool toads_turn) const {
  return static_cast<TierId>(counts_[t][f].base - 2 * sum + (toads_turn ? 0 : 1));
}

// inline: verify ranks every position and each of its children (a call cost a fifth of it)
[[gnu::always_inline]] inline TierIndex Space::rank(const Position& p) const {
  const int t = std::popcount(p.toads), f = std::popcount(p.frogs);
  // the toad set's sum and rank by one lookup in the table unrank_toads is checked against
  // (verify checks rank(unrank)); the tier and C(n - t, f) from one small table, not the
  // tier's record: verify ranks every child
  const uint32_t key = set_key_[p.toads];
  const TierId id = tier_of(t, f, static_cast<int>(key & ((1u << kSumBits) - 1)), p.turn == Player::Toads);
  // the frogs' rank among the free cells without a loop (a table of n bits)
  const uint64_t rb = frog_rank_(static_cast<uint32_t>(extract_bits(p.frogs, ~p.toads & full_)));
  return {id, (key >> kSumBits) * counts_[t][f].rows + rb};
}

// inline, as rank() is: verify steps to every position
[[gnu::always_inline]] inline void Space::next_in_tier(TierId id, Position& p) const {
  const Tier& x = tiers_[id];
  const uint32_t free = ~p.toads & full_;
  if (x.f > 0) {
    const uint64_t fb = extract_bits(p.frogs, free), next = next_subset(fb);
    if (next < (uint64_t{1} << (n_ - x.t))) {
      p.frogs = static_cast<uint32_t>(deposit_bits(next, free));
      return;
    }
  }
  p.toads = unrank_toads(rank_toads(p.toads, x.t, x.sum) + 1, x.t, x.sum);
  p.frogs = static_cast<uint32_t>(deposit_bits((uint64_t{1} << x.f) - 1, ~p.toads & full_));
}

template <class F>
[[gnu::always_inline]] inline bool Space::each_child(const Position& p, F&& f) const {
  // for_each_move's moves in its order, each made by one exclusive or: a slide flips the
  // piece's cell and the next (3 << i), a jump its cell and the one past the next (5 << i)
  const int n = p.length;
  const uint32_t cells = n >= 32 ? ~0u : (1u << n) - 1;
  const uint32_t toads = p.toads & cells, frogs = p.frogs & cells, empty = ~(toads | frogs) & cells;
  Position q = p;
  if (p.turn == Player::Toads) {
    q.turn = Player::Frogs;
    const uint32_t jump = toads & (frogs >> 1) & (empty >> 2);
    for (uint32_t m = (toads & (empty >> 1)) | jump; m; m &= m - 1) {  // left to right
      const int i = std::countr_zero(m);
      q.toads = p.toads ^ ((3u + 2 * (jump >> i & 1)) << i);
      if (!f(static_cast<const Position&>(q))) return false;
    }
  } else {
    q.turn = Player::Toads;
    const uint32_t jump = frogs & (toads << 1) & (empty << 2);
    for (uint32_t m = (frogs & (empty << 1)) | jump; m;) {  // right to left
      const int i = 31 - std::countl_zero(m);
      m &= ~(1u << i);
      q.frogs = p.frogs ^ ((3u + 2 * (jump >> i & 1)) << (i - 1 - (jump >> i & 1)));
      if (!f(static_cast<const Position&>(q))) return false;
    }
  }
  return true;
}

template <class Visit>
void Space::scan(TierId t, uint64_t lo, uint64_t hi, Visit&& visit) const {
  if (lo >= hi) return;
  if constexpr (kIsChildLambda<Visit>) {
    CollectChildren<std::remove_reference_t<Visit>> collect{visit, {}, 0};
    scan(t, lo, hi, collect);
  } else {
    const Tier& tier = tiers_[t];
    with_local_visitor(
        visit, [&](auto& v) __attribute__((always_inline)) {
          if (tier.toads_turn) {
            scan_toads(tier, lo, hi, v);
          } else {
            scan_frogs(tier, lo, hi, v);
          }
        });
  }
}

// Walks positions lo..hi-1 of a tier in index order: `block(A, row)` when a new toad set A
// begins (a block of nb indices from `row`), then `each(index, B, tops, bottoms)` for every
// position, B being the frog-ordinal set (index = row + rankB), tops = B & ~(B >> 1) and
// bottoms = B & ~(B << 1): read from the space's tables of the tier's frog sets in colex
// order (frog_sets_ and the two beside it), or for a tier whose nb passes the tables' limit
// stepped to its colex successor (the masks made from it). A scan reads one of the masks;
// the other's load or making is dropped with it.
template <class Block, class Each>
[[gnu::always_inline]] inline void Space::walk(const Tier& tier, uint64_t lo, uint64_t hi, Block&& block,
                                               Each&& each) const {
  const int t = tier.t, f = tier.f, sum = tier.sum;
  const uint64_t nb = tier.frog_sets;
  uint64_t ia = lo / nb, rb = lo % nb;
  if (tier.frog_table >= 0) {
    const uint32_t* sets = frog_sets_.data() + tier.frog_table;
    const uint32_t* tops = frog_tops_.data() + tier.frog_table;
    const uint32_t* bottoms = frog_bottoms_.data() + tier.frog_table;
    for (uint64_t row = lo - rb; row < hi; row += nb, rb = 0) {
      block(toads_at(t, sum, ia++), row);
      const uint64_t end = row + std::min(nb, hi - row);
      for (uint64_t index = row + rb; index < end; ++index) {
        const uint64_t k = index - row;
        each(index, uint64_t{sets[k]}, uint64_t{tops[k]}, uint64_t{bottoms[k]});
      }
    }
    return;
  }
  uint64_t B = f ? colex_unrank(rb, f, n_ - t) : 0;
  block(toads_at(t, sum, ia), lo - rb);
  for (uint64_t index = lo; index < hi; ++index) {
    each(index, B, B & ~(B >> 1), B & ~(B << 1));
    if (++rb == nb) {
      rb = 0;
      if (index + 1 < hi) block(toads_at(t, sum, ++ia), index + 1);
      B = f ? (uint64_t{1} << f) - 1 : 0;
    } else {
      B = next_subset(B);
    }
  }
}

// Toads to move. Per toad set A (one block of nb indices) precompute, as bitmasks over frog
// ordinals: `cand` = ordinals of the non-toad cells just right of a toad (the toad can slide
// there when no frog sits on it), `jump` = those whose next ordinal is the cell two to the
// right (the toad can jump the frog when that cell is free). Per frog set B the moves are
//     slides = cand & ~B          jumps = jump & B & ~(B >> 1)  (from walk: a table's, or made)
// and the child indices are the precomputed toad-set ranks plus rankB (a jump moves one frog
// from ordinal o to o + 1, adding C(o, j) to rankB, j = the frogs below it). The bases are
// kept less the block's first index (modulo 2^64), so that base + index is the child's.
template <class Visit>
[[gnu::always_inline]] inline void Space::scan_toads(const Tier& tier, uint64_t lo, uint64_t hi, Visit& visit) const {
  const int n = n_;
  const uint64_t nb = tier.frog_sets;
  const uint32_t full = (1u << n) - 1;
  // each ordinal's row of binomials, read from the stack: a child's C(o, j) is then two loads,
  // where the row's offset from o took a shift and an add beside its load
  const uint32_t* choose_row[kTable];
  for (int o = 0; o < kTable; ++o) choose_row[o] = choose_[o];
  uint64_t cand = 0, jump = 0;  // jump: the candidates whose toad can jump (a subset of cand)
  // read only for the ordinals cand and jump hold, each written by block() with its bit
  uint64_t slide_base[kMaxLength + 1], jump_base[kMaxLength + 1];
  auto block = [&](uint32_t toads, uint64_t row) {
    cand = jump = 0;
    const uint32_t non_toad = ~toads & full;
    for (uint32_t m = toads; m; m &= m - 1) {
      const int i = std::countr_zero(m);
      if (i + 1 >= n || (toads >> (i + 1) & 1)) continue;
      const int o = std::popcount(non_toad & ((1u << (i + 1)) - 1));
      cand |= uint64_t{1} << o;
      slide_base[o] = toads_rank(toads ^ (1u << i) ^ (1u << (i + 1))) * nb - row;
      if (i + 2 < n && !(toads >> (i + 2) & 1)) {
        jump |= uint64_t{1} << o;
        jump_base[o] = toads_rank(toads ^ (1u << i) ^ (1u << (i + 2))) * nb - row;
      }
    }
  };
  walk(tier, lo, hi, block, [&](uint64_t index, uint64_t B, uint64_t tops, uint64_t) {
    // the jumps first: their mask (a load) is then not kept across the slides' loop
    for (uint64_t m = jump & tops; m; m &= m - 1) {  // jumps: a frog ahead, none past it
      const int o = std::countr_zero(m);
      const int j = std::popcount(B & ((uint64_t{1} << o) - 1));  // frogs below ordinal o
      visit.child(1, jump_base[o] + index + choose_row[o][j], true);
    }
    for (uint64_t m = cand & ~B; m; m &= m - 1) {  // slides: no frog on the cell ahead
      const int o = std::countr_zero(m);
      visit.child(0, slide_base[o] + index, true);
    }
    visit.position(index);
  });
}

// Frogs to move: A is fixed, so the children lie in the toads' tier of the same SA, in the
// same block of nb indices. A frog at ordinal o (cell c) can move iff ordinal o - 1 is free
// and its cell is c - 1 (slide) or c - 2 with a toad on c - 1 (jump): `ok` holds, per A,
// the ordinals whose cell sits that close to the previous ordinal's cell. Either way the frog
// becomes ordinal o - 1 and rankB drops by C(o - 1, j) (j = frogs below ordinal o).
template <class Visit>
[[gnu::always_inline]] inline void Space::scan_frogs(const Tier& tier, uint64_t lo, uint64_t hi, Visit& visit) const {
  const uint32_t full = (1u << n_) - 1;
  const uint64_t* below_row[kTable];  // as scan_toads' choose_row
  for (int o = 0; o < kTable; ++o) below_row[o] = minus_choose_below_[o];
  uint64_t ok = 0;
  auto block = [&](uint32_t toads, uint64_t) {
    ok = 0;
    int o = 0, prev = -10;
    for (uint32_t m = ~toads & full; m; m &= m - 1, ++o) {
      const int c = std::countr_zero(m);
      if (o > 0 && prev >= c - 2) ok |= uint64_t{1} << o;
      prev = c;
    }
  };
  walk(tier, lo, hi, block, [&](uint64_t index, uint64_t B, uint64_t, uint64_t bottoms) {
    for (uint64_t m = bottoms & ok; m; m &= m - 1) {  // no frog on the ordinal below
      const int o = std::countr_zero(m);
      const int j = std::popcount(B & ((uint64_t{1} << o) - 1));  // frogs below ordinal o
      visit.child(0, index + below_row[o][j], true);
    }
    visit.position(index);
  });
}

}  // namespace toadbase::toads_frogs
