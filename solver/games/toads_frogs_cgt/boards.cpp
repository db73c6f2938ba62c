#include "solver/games/toads_frogs_cgt/boards.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "solver/core/combinatorics.hpp"
#include "solver/games/toads_frogs/toads_frogs.hpp"

namespace toadbase::toads_frogs_cgt {

std::string board_string(const Board& b) {
  std::string s(static_cast<size_t>(b.length), '-');
  for (int i = 0; i < b.length; ++i) s[i] = (b.toads >> i & 1) ? 'T' : (b.frogs >> i & 1) ? 'F' : '-';
  return s;
}

Board parse_board(std::string_view text) {
  // Toads and Frogs' own parser: a bare board, or one after a player to move
  const toads_frogs::Position p = toads_frogs::parse(text, toads_frogs::Player::Toads);
  return Board{p.toads, p.frogs, p.length};
}

Board mirror(const Board& b) {
  toads_frogs::Position p;
  p.toads = b.toads;
  p.frogs = b.frogs;
  p.length = static_cast<uint8_t>(b.length);
  const toads_frogs::Position q = toads_frogs::mirror(p);
  return Board{q.toads, q.frogs, b.length};
}

Board strip(const Board& b) {
  Board s = b;
  while (s.length > 0 && (s.frogs & 1)) {  // a frog on cell 0
    s.frogs >>= 1;
    s.toads >>= 1;
    --s.length;
  }
  while (s.length > 0 && (s.toads >> (s.length - 1) & 1)) {  // a toad on the last cell
    s.toads &= ~(1u << (s.length - 1));
    --s.length;
  }
  if (s.length == 0) s = Board{0, 0, 1};  // F..FT..T plays as the empty strip: 0, as "-"
  return s;
}

std::string BoardClass::name() const {
  return "m" + std::to_string(m) + "_t" + std::to_string(t) + "f" + std::to_string(f);
}

Boards::Boards(int n) : n_(n), colex_(std::clamp(n - 1, 1, 32)) {
  if (n < 1 || n > kMaxLength)
    throw std::invalid_argument("board length " + std::to_string(n) + " is outside 1.." + std::to_string(kMaxLength));
  inner_.resize(static_cast<size_t>(n) + 1);
  for (int m = 2; m <= n; ++m)
    for (int k = 0; k <= m - 2; ++k) inner_[m].push_back(std::make_unique<FixedSumSets>(m - 2, k));
  const size_t M = static_cast<size_t>(n) + 1;
  class_index_.assign(M * M * M, -1);
  by_length_.assign(M + 1, 0);
  for (int m = 1; m <= n; ++m) {
    by_length_[m] = static_cast<uint32_t>(classes_.size());
    std::vector<BoardClass> these;
    if (m == 1) {
      BoardClass c;
      c.m = 1;
      c.size = 1;
      c.b0 = 0;
      c.b1 = 1;
      c.cnt0 = {0};
      c.cnt1 = {1};
      c.level_start = {0, 1};
      these.push_back(c);
    } else {
      for (int t = 0; t <= m - 1; ++t)
        for (int f = t; t + f <= m && f <= m - 1; ++f) {
          BoardClass c;
          c.m = m;
          c.t = t;
          c.f = f;
          c.b0 = binomial(m - t, f);
          c.b1 = binomial(m - 1 - t, f);
          const int max_sa = (m - 2) * (m - 1) / 2;
          c.cnt0.assign(static_cast<size_t>(max_sa) + 1, 0);
          c.cnt1.assign(static_cast<size_t>(max_sa) + 1, 0);
          c.level_start.assign(static_cast<size_t>(max_sa) + 2, 0);
          for (int sa = 0; sa <= max_sa; ++sa) {
            // toads on cell 0 and t - 1 inner cells (each inner cell i + 1 counts i + 1)
            if (t >= 1) c.cnt0[sa] = inner_[m][t - 1]->count(sa - (t - 1));
            if (t <= m - 2) c.cnt1[sa] = inner_[m][t]->count(sa - t);
            c.level_start[sa + 1] = c.level_start[sa] + c.cnt0[sa] * c.b0 + c.cnt1[sa] * c.b1;
          }
          c.size = c.level_start.back();
          if (c.size > UINT32_MAX)
            throw std::invalid_argument("class " + c.name() + " has more than 2^32 boards");
          if (c.size) these.push_back(std::move(c));
        }
      // largest first, so that the classes of a length finish together
      std::stable_sort(these.begin(), these.end(),
                       [](const BoardClass& a, const BoardClass& b) { return a.size > b.size; });
    }
    for (auto& c : these) {
      class_index_[(static_cast<size_t>(c.m) * M + c.t) * M + c.f] = static_cast<int32_t>(classes_.size());
      total_ += c.size;
      classes_.push_back(std::move(c));
    }
  }
  by_length_[M] = static_cast<uint32_t>(classes_.size());
}

std::optional<uint32_t> Boards::class_of(int m, int t, int f) const {
  const size_t M = static_cast<size_t>(n_) + 1;
  if (m < 1 || m > n_ || t < 0 || f < 0 || t > n_ || f > n_) return std::nullopt;
  const int32_t c = class_index_[(static_cast<size_t>(m) * M + t) * M + f];
  if (c < 0) return std::nullopt;
  return static_cast<uint32_t>(c);
}

Located Boards::locate_reduced(const Board& b) const {
  if (b.length < 1 || b.length > n_)
    throw std::invalid_argument("a board of " + std::to_string(b.length) + " cells; the database holds 1.." +
                                std::to_string(n_));
  const int t = toads_of(b), f = frogs_of(b);
  Located out;
  Board s = b;
  if (t > f) {
    s = mirror(b);
    out.mirrored = true;
  }
  const auto c = class_of(s.length, std::min(t, f), std::max(t, f));
  if (!c) throw std::logic_error("board " + board_string(b) + " is not reduced");
  out.cls = *c;
  out.index = index_in(classes_[*c], s.toads, s.frogs);
  return out;
}

Board Boards::unrank(uint32_t id, uint64_t index) const {
  const BoardClass& c = classes_.at(id);
  if (index >= c.size) throw std::out_of_range("board index beyond its class");
  Board b;
  b.length = c.m;
  if (c.m == 1) return b;
  const int sa = static_cast<int>(std::upper_bound(c.level_start.begin(), c.level_start.end(), index) -
                                  c.level_start.begin()) - 1;
  uint64_t r = index - c.level_start[sa];
  uint64_t rb;
  if (r < c.cnt0[sa] * c.b0) {
    b.toads = static_cast<uint32_t>(inner(c.m, c.t - 1).unrank(sa - (c.t - 1), r / c.b0) << 1) | 1u;
    rb = r % c.b0;
  } else {
    r -= c.cnt0[sa] * c.b0;
    b.toads = static_cast<uint32_t>(inner(c.m, c.t).unrank(sa - c.t, r / c.b1) << 1);
    rb = r % c.b1;
  }
  const uint32_t free_cells = ((1u << c.m) - 2) & ~b.toads;
  b.frogs = static_cast<uint32_t>(deposit_bits(colex_unrank(rb, c.f, std::popcount(free_cells)), free_cells));
  return b;
}

}  // namespace toadbase::toads_frogs_cgt
