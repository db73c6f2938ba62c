#include "solver/games/toads_frogs/toads_frogs.hpp"

#include "solver/core/printable.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cctype>

namespace toadbase::toads_frogs {

namespace {
bool bit(uint32_t m, int i) { return (m >> i) & 1u; }
}  // namespace

// ---- rules ---------------------------------------------------------------------------

namespace {
/// Calls f(Move) for every legal move of the player to move, toads left to right, frogs
/// right to left (legal_moves and Space::children share it).
template <class F>
void for_each_move(const Position& p, F&& f) {
  // the pieces that slide (the next cell ahead empty) and those that jump (a piece of the
  // other side ahead, the cell past it empty), found for every piece at once
  const int n = p.length;
  const uint32_t cells = n >= 32 ? ~0u : (1u << n) - 1;
  const uint32_t toads = p.toads & cells, frogs = p.frogs & cells, empty = ~(toads | frogs) & cells;
  if (p.turn == Player::Toads) {
    const uint32_t slide = toads & (empty >> 1), jump = toads & (frogs >> 1) & (empty >> 2);
    for (uint32_t m = slide | jump; m; m &= m - 1) {  // left to right
      const int i = std::countr_zero(m);
      f(Move{i, slide >> i & 1 ? i + 1 : i + 2});
    }
  } else {
    const uint32_t slide = frogs & (empty << 1), jump = frogs & (toads << 1) & (empty << 2);
    for (uint32_t m = slide | jump; m;) {  // right to left
      const int i = 31 - std::countl_zero(m);
      f(Move{i, slide >> i & 1 ? i - 1 : i - 2});
      m &= ~(1u << i);
    }
  }
}
}  // namespace

std::vector<Move> legal_moves(const Position& p) {
  std::vector<Move> out;
  for_each_move(p, [&](Move m) { out.push_back(m); });
  return out;
}

Position apply(const Position& p, Move m) {
  Position q = p;
  uint32_t& mine = (p.turn == Player::Toads) ? q.toads : q.frogs;
  mine = (mine & ~(1u << m.from)) | (1u << m.to);
  q.turn = (p.turn == Player::Toads) ? Player::Frogs : Player::Toads;
  return q;
}

Position mirror(const Position& p) {
  Position q = p;
  q.toads = q.frogs = 0;
  for (int i = 0; i < p.length; ++i) {
    int j = p.length - 1 - i;
    if (bit(p.toads, i)) q.frogs |= 1u << j;
    if (bit(p.frogs, i)) q.toads |= 1u << j;
  }
  q.turn = (p.turn == Player::Toads) ? Player::Frogs : Player::Toads;
  return q;
}

// ---- position strings ----------------------------------------------------------------

std::string format(const Position& p) {
  std::string s = (p.turn == Player::Toads) ? "1_" : "2_";
  for (int i = 0; i < p.length; ++i) s += bit(p.toads, i) ? 'T' : bit(p.frogs, i) ? 'F' : '-';
  return s;
}

Position parse(std::string_view text, std::optional<Player> default_turn) {
  // built only for an error: a lookup of a good position allocates nothing here
  // (a long one cut short with its size: a line of a megabyte is not echoed whole)
  const auto quoted = [&] { return "position '" + printable_excerpt(text) + "': "; };
  std::string_view s = text;
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  Position p;
  if (s.size() >= 2 && std::isdigit(static_cast<unsigned char>(s[0])) && s[1] == '_') {
    if (s[0] == '1') {
      p.turn = Player::Toads;
    } else if (s[0] == '2') {
      p.turn = Player::Frogs;
    } else {
      throw PositionError(printable(quoted() + "the player to move is '" + std::string(1, s[0]) +
                          "', expected 1 (Toads) or 2 (Frogs)"));
    }
    s.remove_prefix(2);
  } else if (default_turn) {
    p.turn = *default_turn;
  } else {
    throw PositionError(printable(quoted() +
                        "no player to move: write 1_<board> (Toads to move) or 2_<board> (Frogs)"));
  }
  if (s.empty()) throw PositionError(printable(quoted() + "the board is empty"));
  if (s.size() > static_cast<size_t>(kMaxLength))
    throw PositionError(printable(quoted() + "the board has " + std::to_string(s.size()) +
                        " cells, more than the " + std::to_string(kMaxLength) + " supported"));
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    switch (c) {
      case 'T':
      case 't': p.toads |= 1u << i; break;
      case 'F':
      case 'f': p.frogs |= 1u << i; break;
      case '-':
      case '_':
      case '.': break;
      default:
        throw PositionError(printable(quoted() + "cell " + std::to_string(i) + " (from 0) is '" +
                            std::string(1, c) + "', expected T, F or - (also t, f, _ or .)"));
    }
  }
  p.length = static_cast<uint8_t>(s.size());
  return p;
}

std::string move_name(Move m) { return std::to_string(m.from) + "-" + std::to_string(m.to); }

std::string autogui_move(Move m) {
  return "M_" + std::to_string(m.from) + "_" + std::to_string(m.to) + "_x";
}

// ---- the space -----------------------------------------------------------------------

namespace {

/// fn(B) for the first `count` f-subsets B of the free cells, in colex order (their rank).
template <class Fn>
void each_frog_set(int f, uint64_t count, Fn&& fn) {
  uint64_t B = f ? (uint64_t{1} << f) - 1 : 0;
  for (uint64_t rb = 0; rb < count; ++rb, B = f ? next_subset(B) : 0) fn(B);
}

}  // namespace

void Space::check(const SpaceParams& params) {
  const int n = params.length;
  if (n < 1 || n > kMaxLength)
    throw std::invalid_argument("board length " + std::to_string(n) + " is outside 1.." + std::to_string(kMaxLength));
  if (params.toads.has_value() != params.frogs.has_value())
    throw std::invalid_argument("give both the number of toads and of frogs, or neither");
  if (params.toads) {
    if (*params.toads < 0 || *params.frogs < 0 || *params.toads + *params.frogs > n)
      throw std::invalid_argument(std::to_string(*params.toads) + " toads and " + std::to_string(*params.frogs) +
                                  " frogs do not fit on " + std::to_string(n) + " cells");
  }
}

Space::Space(SpaceParams params, uint64_t frog_table_limit)
    : params_(params), n_(params.length), frog_rank_(std::clamp(params.length, 1, kMaxLength)) {
  check(params_);
  max_sum_ = n_ * (n_ - 1) / 2;
  for (int a = 0; a < kTable; ++a)
    for (int b = 0; b < kTable; ++b) {
      choose_[a][b] = static_cast<uint32_t>(binomial(a, b));
      minus_choose_below_[a][b] = uint64_t{0} - binomial(a - 1, b);
    }
  const size_t S = static_cast<size_t>(max_sum_) + 1, M = static_cast<size_t>(n_) + 1;
  for (int t = 0; t <= n_; ++t) toad_sets_.emplace_back(n_, t);
  // Tables for the hot loop: every toad set of a size the space uses, grouped by (size, sum).
  std::vector<bool> used_size(M, params_.toads.has_value() ? false : true);
  if (params_.toads) used_size[*params_.toads] = true;
  full_ = static_cast<uint32_t>((uint64_t{1} << n_) - 1);
  // every mask's key is written below when every size is used; a space of one count leaves
  // the other sizes' keys 0
  if (params_.toads) {
    set_key_.assign(size_t{1} << n_, 0);
  } else {
    set_key_.resize(size_t{1} << n_);
  }
  set_start_.assign(M * S + 1, 0);
  for (int t = 0; t <= n_; ++t)
    for (int s = 0; s <= max_sum_; ++s)
      set_start_[t * S + s + 1] = set_start_[t * S + s] + (used_size[t] ? toad_sets_[t].count(s) : 0);
  sets_.resize(set_start_[M * S]);  // every entry written below (the counts are checked)
  // Masks in increasing order are toad sets in colex order, the order of their ranks among the
  // sets of one size and sum (fixed_sum_sets.hpp): a set's rank is how many of its size and
  // sum came before it, counted here (where rank_toads cost most of the space's making: its
  // sum bit by bit, then the rank). A mask's sum from its two halves' sums, a table each.
  const int half = n_ / 2;
  std::vector<uint16_t> low_sum(size_t{1} << half), high_sum(size_t{1} << (n_ - half));
  for (uint32_t m = 1; m < low_sum.size(); ++m) low_sum[m] = static_cast<uint16_t>(low_sum[m & (m - 1)] + std::countr_zero(m));
  for (uint32_t m = 1; m < high_sum.size(); ++m)
    high_sum[m] = static_cast<uint16_t>(high_sum[m & (m - 1)] + std::countr_zero(m) + half);
  std::vector<uint32_t> seen(M * S, 0);  // [t][sum]: the sets counted so far
  const uint32_t low_mask = (uint32_t{1} << half) - 1;
  for (uint32_t mask = 0; mask < (uint32_t{1} << n_); ++mask) {
    const int t = std::popcount(mask);
    if (!used_size[t]) continue;
    const int sum = low_sum[mask & low_mask] + high_sum[mask >> half];
    const size_t g = static_cast<size_t>(t) * S + static_cast<size_t>(sum);
    const uint32_t r = seen[g]++;
    if (r >= set_start_[g + 1] - set_start_[g])  // before a write past its group
      throw std::logic_error("toads and frogs: more toad sets of a size and sum than counted");
    if (r >> (32 - kSumBits)) throw std::logic_error("toads and frogs: a toad set's rank outgrows its table");
    set_key_[mask] = r << kSumBits | static_cast<uint32_t>(sum);
    sets_[set_start_[g] + r] = mask;
  }
  for (size_t g = 0; g < seen.size(); ++g)
    if (seen[g] != set_start_[g + 1] - set_start_[g])
      throw std::logic_error("toads and frogs: fewer toad sets of a size and sum than counted");
  // the counts of toads and frogs the space holds: every one, or the one it is given
  const auto in_space = [this](int t, int f) { return !params_.toads || (t == *params_.toads && f == *params_.frogs); };
  // the tables' sizes first: each made once at its size (grown a set at a time they were
  // copied as they grew, and their pages touched twice: most of the space's making, which a
  // query pays too)
  uint64_t frog_entries = 0, tier_count = 0;
  for (int t = 0; t <= n_; ++t)
    for (int f = 0; t + f <= n_; ++f)
      if (in_space(t, f)) {
        tier_count += 2 * static_cast<uint64_t>(t * (n_ - t) + 1);  // sums t(t-1)/2 .. t(2n-t-1)/2, two turns
        if (const uint64_t nb = binomial(n_ - t, f); nb <= frog_table_limit) frog_entries += nb;
      }
  tiers_.reserve(tier_count);
  frog_sets_.resize(frog_entries);  // these four: every entry written below (the count is checked)
  frog_tops_.resize(frog_entries);
  frog_bottoms_.resize(frog_entries);
  if (!params_.toads) tail_ranks_.resize(frog_entries);
  uint64_t next_table = 0;
  for (int t = 0; t <= n_; ++t)
    for (int f = 0; t + f <= n_; ++f) {
      if (!in_space(t, f)) continue;
      const int lo = t * (t - 1) / 2, hi = t * (2 * n_ - t - 1) / 2;
      const uint64_t nb = binomial(n_ - t, f);
      counts_[t][f] = {static_cast<int64_t>(tiers_.size()) + 2 * hi, nb};
      // each (t, f) once: its own tables of frog sets (their masks, tail ranks), or none
      int64_t table = -1;
      if (nb <= frog_table_limit) {
        table = static_cast<int64_t>(next_table);
        uint64_t i = next_table;
        each_frog_set(f, nb, [&](uint64_t B) {
          frog_sets_[i] = static_cast<uint32_t>(B);
          frog_tops_[i] = static_cast<uint32_t>(B & ~(B >> 1));
          frog_bottoms_[i] = static_cast<uint32_t>(B & ~(B << 1));
          if (!params_.toads) tail_ranks_[i] = tail_rank(B);
          ++i;
        });
        next_table = i;
      }
      for (int sum = hi; sum >= lo; --sum) {
        const uint64_t size = toad_sets_[t].count(sum) * nb;
        // the tail (a toad on the last cell) needs its source, (t-1, f+1): every count
        const uint64_t prefix = params_.toads || t == 0 ? size : toad_sets_[t].count_without_top(sum) * nb;
        for (bool toads_turn : {true, false}) {
          tiers_.push_back(Tier{static_cast<uint8_t>(t), static_cast<uint8_t>(f),
                                static_cast<uint16_t>(sum), toads_turn, size, nb, prefix, table});
          total_ += size;
        }
      }
    }
  if (tiers_.size() != tier_count || next_table != frog_entries)
    throw std::logic_error("toads and frogs: the space's tables came out at another size than counted");
}

// a frog on cell 0 becomes frog ordinal 0 and every other moves up by one: B -> 2B + 1, ranked
// by the frogs' table where it fits the n bits (t > 0: every tier with a tail), else bit by bit
uint32_t Space::tail_rank(uint64_t B) const {
  const uint64_t tail = B << 1 | 1;
  return static_cast<uint32_t>(tail >> n_ ? colex_rank(tail) : frog_rank_(static_cast<uint32_t>(tail)));
}

std::string Space::tier_name(TierId t) const {
  const Tier& x = tiers_[t];
  return "t" + std::to_string(x.t) + "f" + std::to_string(x.f) + "_s" + std::to_string(x.sum) +
         (x.toads_turn ? "_toads" : "_frogs");
}

std::vector<TierId> Space::child_tiers(TierId id) const {
  const Tier& x = tiers_[id];
  std::vector<TierId> out;
  if (!x.toads_turn) {
    out.push_back(id - 1);  // the toads' tier of the same sum
    return out;
  }
  const int hi = x.t * (2 * n_ - x.t - 1) / 2;
  for (int d = 1; d <= 2; ++d)
    if (x.sum + d <= hi) out.push_back(tier_of(x.t, x.f, x.sum + d, false));
  return out;
}

TierId Space::tail_source(TierId id) const {
  const Tier& x = tiers_[id];
  if (x.prefix == x.size) throw std::logic_error("tier " + tier_name(id) + " has no tail");
  return tier_of(x.t - 1, x.f + 1, x.sum - (n_ - 1) + (x.t - 1), x.toads_turn);
}

template <class R, class Rows>
void Space::fill_tail_of(TierId id, const Rows& rows, R* out) const {
  const Tier& x = tiers_[id];
  if (x.prefix == x.size) return;
  const Tier& src = tiers_[tail_source(id)];
  const uint32_t last = 1u << (n_ - 1);
  const uint64_t nb = x.frog_sets;
  // X + T -> F + X: the toads move one cell right without the last one; a frog takes cell
  // 0, which becomes frog ordinal 0, and every other ordinal moves up by one: B -> 2B + 1.
  // rankB of 2B + 1 in the source, for every rankB of the tier (the same for every row):
  // the space's table, or made here for a tier whose nb is past the table's limit
  std::vector<uint32_t> made;
  const uint32_t* rank_in_source = x.frog_table >= 0 ? tail_ranks_.data() + x.frog_table : nullptr;
  if (!rank_in_source) {
    made.reserve(nb);
    each_frog_set(x.f, nb, [&](uint64_t B) { made.push_back(tail_rank(B)); });
    rank_in_source = made.data();
  }
  tbb::parallel_for(tbb::blocked_range<uint64_t>(x.prefix / nb, x.size / nb, std::max<uint64_t>(1, 65536 / nb)),
                    [&](const tbb::blocked_range<uint64_t>& range) {
    // locals: a store through a byte pointer may alias anything the lambda refers to
    const uint32_t* const ranks = rank_in_source;
    const uint64_t count = nb, from_rows = src.frog_sets;
    std::vector<R> scratch;  // a packed source's row
    for (uint64_t ia = range.begin(); ia != range.end(); ++ia) {
      const uint32_t toads = toads_at(x.t, x.sum, ia);
      const R* from = rows(toads_rank((toads & ~last) << 1) * from_rows, from_rows, scratch);
      R* row = out + ia * count;
      uint64_t rb = 0;
      for (; rb + 4 <= count; rb += 4) {  // four a step: a third of the loop's instructions go
        row[rb] = from[ranks[rb]];
        row[rb + 1] = from[ranks[rb + 1]];
        row[rb + 2] = from[ranks[rb + 2]];
        row[rb + 3] = from[ranks[rb + 3]];
      }
      for (; rb < count; ++rb) row[rb] = from[ranks[rb]];
    }
  });
}

namespace {
// a raw source's rows: where they lie
template <class R>
struct RawRows {
  const R* source;
  const R* operator()(uint64_t first, uint64_t, std::vector<R>&) const { return source + first; }
};
}  // namespace

void Space::fill_tail(TierId t, const uint8_t* source, uint8_t* out) const { fill_tail_of(t, RawRows<uint8_t>{source}, out); }
void Space::fill_tail(TierId t, const uint16_t* source, uint16_t* out) const {
  fill_tail_of(t, RawRows<uint16_t>{source}, out);
}
void Space::fill_tail_rows(TierId t, const RecordRows<uint8_t>& source, uint8_t* out) const {
  fill_tail_of(t, source, out);
}
void Space::fill_tail_rows(TierId t, const RecordRows<uint16_t>& source, uint16_t* out) const {
  fill_tail_of(t, source, out);
}

Position Space::canonical(const Position& p) const {
  if (params_.toads) return p;
  Position q = std::popcount(p.toads) > std::popcount(p.frogs) ? mirror(p) : p;
  const uint32_t last = 1u << (n_ - 1);
  while (q.toads & last) {
    q.toads = (q.toads & ~last) << 1;
    q.frogs = (q.frogs << 1) | 1;
  }
  return q;
}

std::string Space::why_not_contained(const Position& p) const {
  if (p.length != n_)
    return "the board has " + std::to_string(p.length) + " cells, the database holds boards of " +
           std::to_string(n_) + (p.length < n_ ? " (and no padding with frozen pieces fits)" : "");
  if (params_.toads) {
    int t = std::popcount(p.toads), f = std::popcount(p.frogs);
    if (t != *params_.toads || f != *params_.frogs)
      return "the board has " + std::to_string(t) + " toads and " + std::to_string(f) +
             " frogs, the database holds " + std::to_string(*params_.toads) + " toads and " +
             std::to_string(*params_.frogs) + " frogs";
  }
  return {};
}

bool Space::contains(const Position& p) const { return why_not_contained(p).empty(); }

std::optional<Position> Space::embed(const Position& p) const {
  if (contains(p)) return p;
  const int m = p.length, pad = n_ - m;
  if (pad <= 0) return std::nullopt;
  int k = 0, j = pad;  // frogs in front, toads behind
  if (params_.toads) {
    j = *params_.toads - std::popcount(p.toads);
    k = *params_.frogs - std::popcount(p.frogs);
    if (j < 0 || k < 0 || j + k != pad) return std::nullopt;
  }
  Position q = p;
  q.length = static_cast<uint8_t>(n_);
  q.frogs = (p.frogs << k) | ((1u << k) - 1);
  q.toads = (p.toads << k) | (((1u << j) - 1) << (k + m));
  return q;
}

Position Space::unrank(TierId id, uint64_t index) const {
  const Tier& x = tiers_[id];
  Position p;
  p.length = static_cast<uint8_t>(n_);
  p.turn = x.toads_turn ? Player::Toads : Player::Frogs;
  p.toads = unrank_toads(index / x.frog_sets, x.t, x.sum);
  const uint32_t full = (1u << n_) - 1;
  p.frogs = static_cast<uint32_t>(
      deposit_bits(colex_unrank(index % x.frog_sets, x.f, n_ - x.t), ~p.toads & full));
  return p;
}

std::vector<Position> Space::children(const Position& p) const {
  std::vector<Position> out;
  children(p, out);
  return out;
}

void Space::children(const Position& p, std::vector<Position>& out) const {
  out.clear();
  each_child(p, [&](const Position& c) {
    out.push_back(c);
    return true;
  });
}

}  // namespace toadbase::toads_frogs
