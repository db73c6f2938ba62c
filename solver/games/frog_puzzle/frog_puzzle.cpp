#include "solver/games/frog_puzzle/frog_puzzle.hpp"

#include "solver/core/printable.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <tuple>

namespace toadbase::frog_puzzle {

namespace {

bool at(uint32_t mask, int i) { return i >= 0 && i < 32 && ((mask >> i) & 1); }

}  // namespace

// ---- rules ---------------------------------------------------------------------------

Counts counts(const Position& p) {
  const int n = std::popcount(p.left), m = std::popcount(p.right);
  return {n, m, p.length - n - m};
}

std::vector<Move> legal_moves(const Position& p) {
  std::vector<Move> out;
  const int N = p.length;
  auto empty = [&](int i) { return i >= 0 && i < N && !at(p.left, i) && !at(p.right, i); };
  for (int i = 0; i < N; ++i) {
    if (at(p.left, i)) {
      if (empty(i + 1)) out.push_back({i, i + 1});
      else if (at(p.right, i + 1) && empty(i + 2)) out.push_back({i, i + 2});
    } else if (at(p.right, i)) {
      if (empty(i - 1)) out.push_back({i, i - 1});
      else if (at(p.left, i - 1) && empty(i - 2)) out.push_back({i, i - 2});
    }
  }
  return out;
}

std::string why_illegal(const Position& p, Move mv) {
  const int N = p.length;
  auto cell = [&](int i) { return "cell " + std::to_string(i); };
  if (mv.from < 0 || mv.from >= N) return cell(mv.from) + " is off the board (cells 0.." + std::to_string(N - 1) + ")";
  if (mv.to < 0 || mv.to >= N) return cell(mv.to) + " is off the board (cells 0.." + std::to_string(N - 1) + ")";
  const bool l = at(p.left, mv.from), r = at(p.right, mv.from);
  if (!l && !r) return "no frog on " + cell(mv.from);
  const int dir = l ? 1 : -1, d = (mv.to - mv.from) * dir;
  if (d <= 0) return std::string("an ") + (l ? "L frog only moves right" : "R frog only moves left");
  if (d > 2) return "a frog moves one cell, or jumps over exactly one frog";
  if (at(p.left, mv.to) || at(p.right, mv.to)) return cell(mv.to) + " is not empty";
  if (d == 2) {
    const int mid = mv.from + dir;
    const uint32_t other = l ? p.right : p.left;
    if (!at(other, mid))
      return std::string("a jump goes over exactly one frog of the other kind, and ") + cell(mid) +
             (at(l ? p.left : p.right, mid) ? " holds a frog of the same kind" : " is empty");
  }
  return "";
}

Position apply(const Position& p, Move mv) {
  Position q = p;
  const uint32_t from = 1u << mv.from, to = 1u << mv.to;
  if (p.left & from) q.left ^= from | to;
  else q.right ^= from | to;
  return q;
}

Position start_of(Counts c) {
  Position p;
  p.length = static_cast<uint8_t>(c.n + c.m + c.k);
  p.left = (1u << c.n) - 1;
  p.right = ((1u << c.m) - 1) << (c.n + c.k);
  return p;
}

Position goal_of(Counts c) {
  Position p;
  p.length = static_cast<uint8_t>(c.n + c.m + c.k);
  p.right = (1u << c.m) - 1;
  p.left = ((1u << c.n) - 1) << (c.m + c.k);
  return p;
}

bool is_goal(const Position& p) { return p == goal_of(counts(p)); }

int longest_solution(Counts c) { return c.n * (c.m + c.k) + c.m * c.k; }

int potential(const Position& p) {
  const uint32_t full = p.length >= 32 ? ~0u : (1u << p.length) - 1;
  const uint64_t B = extract_bits(p.right, ~p.left & full);
  return FixedSumSets::bit_sum(p.left) - FixedSumSets::bit_sum(B);
}

uint64_t reach_bound(const Position& p) {
  // the cells that can ever be empty, over-approximated: the empty ones, and (to a fixed
  // point) those of a frog with such a cell one or two ahead of it. A frog's first move needs
  // the cell it lands on empty at that time, so a frog on a cell left out never moves.
  const int n_cells = p.length;
  std::vector<char> may_empty(static_cast<size_t>(n_cells), 0);
  for (int i = 0; i < n_cells; ++i) may_empty[i] = !at(p.left, i) && !at(p.right, i);
  for (bool grew = true; grew;) {
    grew = false;
    for (int i = 0; i < n_cells; ++i) {
      if (may_empty[i]) continue;
      const int dir = at(p.left, i) ? 1 : -1;
      for (int step = 1; step <= 2; ++step) {
        const int to = i + dir * step;
        if (to >= 0 && to < n_cells && may_empty[to]) {
          may_empty[i] = 1;
          grew = true;
          break;
        }
      }
    }
  }
  std::vector<int> l, r;  // the cells of the L frogs and of the R frogs, from the left
  for (int i = 0; i < p.length; ++i) {
    if (at(p.left, i)) l.push_back(i);
    if (at(p.right, i)) r.push_back(i);
  }
  const size_t n = l.size(), m = r.size();
  const int empty = p.length - static_cast<int>(n + m);
  // ways[a][b]: arrangements of the cells so far holding the first a L frogs and the first b
  // R frogs, each within its bound; the rest of the cells so far are empty
  std::vector<uint64_t> ways((n + 1) * (m + 1), 0), next(ways.size());
  ways[0] = 1;
  for (int cell = 0; cell < p.length; ++cell) {
    std::fill(next.begin(), next.end(), 0);
    // a frog that never moves keeps its cell: the cell holds it, and no other frog
    const bool frozen = !may_empty[cell];
    for (size_t a = 0; a <= n; ++a)
      for (size_t b = 0; b <= m; ++b) {
        const uint64_t w = ways[a * (m + 1) + b];
        if (w == 0) continue;
        if (frozen) {
          if (a < n && l[a] == cell) next[(a + 1) * (m + 1) + b] += w;
          if (b < m && r[b] == cell) next[a * (m + 1) + b + 1] += w;
          continue;
        }
        if (cell - static_cast<int>(a + b) < empty) next[a * (m + 1) + b] += w;  // empty
        // the next L or R, unless it is a frog that never moves (its own cell holds it)
        if (a < n && cell >= l[a] && may_empty[l[a]]) next[(a + 1) * (m + 1) + b] += w;
        if (b < m && cell <= r[b] && may_empty[r[b]]) next[a * (m + 1) + b + 1] += w;
      }
    ways.swap(next);
  }
  return ways.back();  // at most 30! / (10! 10! 10!), about 5.6e12: no overflow
}

// ---- position strings ----------------------------------------------------------------

std::string format(const Position& p) {
  std::string s(p.length, '_');
  for (int i = 0; i < p.length; ++i) {
    if (at(p.left, i)) s[i] = 'L';
    if (at(p.right, i)) s[i] = 'R';
  }
  return s;
}

std::string format_blog(const Position& p) {
  std::string s = "[";
  for (int i = 0; i < p.length; ++i) {
    if (i) s += ", ";
    s += at(p.left, i) ? "1" : at(p.right, i) ? "-1" : "0";
  }
  return s + "]";
}

Position parse(std::string_view text) {
  auto fail = [&](const std::string& why) -> Position {
    throw PositionError(printable("position '" + std::string(text) + "': " + why));
  };
  std::string_view t = text;
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.front()))) t.remove_prefix(1);
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.remove_suffix(1);
  if (t.empty()) return fail("empty");
  std::vector<int> cells;  // 1 = L, -1 = R, 0 = empty
  if (t.front() == '[' || t.front() == '(') {  // the blog's list, or a Python tuple
    const char close = t.front() == '[' ? ']' : ')';
    if (t.back() != close) return fail(std::string("a list must end with '") + close + "'");
    std::string_view body = t.substr(1, t.size() - 2);
    size_t i = 0;
    while (i < body.size()) {
      while (i < body.size() && std::isspace(static_cast<unsigned char>(body[i]))) ++i;
      if (i >= body.size()) break;
      size_t j = i;
      if (body[j] == '-' || body[j] == '+') ++j;
      while (j < body.size() && std::isdigit(static_cast<unsigned char>(body[j]))) ++j;
      const std::string num(body.substr(i, j - i));
      if (num != "1" && num != "0" && num != "-1" && num != "+1")
        return fail("list entries are 1 (facing right), 0 (empty) or -1 (facing left), not '" +
                    std::string(body.substr(i, std::max<size_t>(j - i, 1))) + "'");
      cells.push_back(num == "-1" ? -1 : num == "0" ? 0 : 1);
      i = j;
      while (i < body.size() && std::isspace(static_cast<unsigned char>(body[i]))) ++i;
      if (i < body.size()) {
        if (body[i] != ',') return fail("list entries are separated by commas");
        ++i;
        if (body.find_first_not_of(" \t", i) == std::string_view::npos) return fail("a comma ends the list");
      }
    }
  } else {
    std::string_view b = t;
    bool gc = false;
    // "1_": GamesCrafters' AutoGUI prefix (player 1 to move), before their x/o letters or
    // before L/R letters (the autoguiPosition this project prints, "1_LL-LRRR")
    if (b.size() >= 2 && b[0] == '1' && b[1] == '_') b.remove_prefix(2);
    if (b.find_first_of("xXoO") != std::string_view::npos) gc = true;
    for (char ch : b) {
      const char u = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
      if (gc) {
        if (u == 'X') cells.push_back(1);
        else if (u == 'O') cells.push_back(-1);
        else if (u == '-' || u == '_' || u == '.') cells.push_back(0);
        else if (u == 'L' || u == 'R')
          return fail("mixes GamesCrafters letters (x, o) with L/R");
        else
          return fail(std::string("unexpected character '") + ch +
                      "' (GamesCrafters boards use x, o and - for empty)");
      } else {
        if (u == 'L') cells.push_back(1);
        else if (u == 'R') cells.push_back(-1);
        else if (u == '_' || u == '-' || u == '.') cells.push_back(0);
        else
          return fail(std::string("unexpected character '") + ch +
                      "' (boards use L for frogs facing right, R for frogs facing left, _ for empty)");
      }
    }
  }
  if (cells.empty()) return fail("no cells");
  if (static_cast<int>(cells.size()) > kMaxCells)
    return fail(std::to_string(cells.size()) + " cells; at most " + std::to_string(kMaxCells));
  Position p;
  p.length = static_cast<uint8_t>(cells.size());
  for (size_t i = 0; i < cells.size(); ++i) {
    if (cells[i] == 1) p.left |= 1u << i;
    if (cells[i] == -1) p.right |= 1u << i;
  }
  if (counts(p).k == 0) return fail("no empty cell: no frog can ever move");
  return p;
}

std::string move_text(const Position& before, Move m) {
  return std::string(at(before.left, m.from) ? "L" : "R") + " from " + std::to_string(m.from) +
         " to " + std::to_string(m.to);
}

std::string autogui_move(Move m) {
  return "M_" + std::to_string(m.from) + "_" + std::to_string(m.to) + "_x";
}

// ---- the space -----------------------------------------------------------------------

Counts Space::validated(Counts c) {
  if (c.n < 0 || c.m < 0) throw std::invalid_argument("frog counts cannot be negative");
  if (c.k < 1) throw std::invalid_argument("the board needs at least one empty cell");
  if (c.n + c.m + c.k > kMaxCells)
    throw std::invalid_argument(std::to_string(c.n + c.m + c.k) + " cells; at most " +
                                std::to_string(kMaxCells));
  if (longest_solution(c) > kMaxRemoteness)
    throw std::invalid_argument("the longest solution, " + std::to_string(longest_solution(c)) +
                                " moves, does not fit the one-byte record (at most " +
                                std::to_string(kMaxRemoteness) + ")");
  return c;
}

Space::Space(Counts c)
    : c_(validated(c)),
      N_(c.n + c.m + c.k),
      full_(N_ >= 32 ? ~0u : (1u << N_) - 1),
      A_(N_, c.n),
      B_(c.m + c.k, c.m) {
  goal_ = goal_of(c);
  const int na = A_.max_sum() - A_.min_sum() + 1, nbs = B_.max_sum() - B_.min_sum() + 1;
  std::vector<std::tuple<int, int, int>> order;  // (-phi, -sa, sb)
  for (int sa = A_.min_sum(); sa <= A_.max_sum(); ++sa)
    for (int sb = B_.min_sum(); sb <= B_.max_sum(); ++sb) order.emplace_back(-(sa - sb), -sa, sb);
  std::sort(order.begin(), order.end());
  tier_of_.assign(static_cast<size_t>(na) * nbs, -1);
  for (auto [nphi, nsa, sb] : order) {
    const int sa = -nsa;
    Tier t{};
    t.sa = sa;
    t.sb = sb;
    t.nb = B_.count(sb);
    t.size = A_.count(sa) * t.nb;
    tier_of_[(sa - A_.min_sum()) * nbs + (sb - B_.min_sum())] = static_cast<int>(tiers_.size());
    tiers_.push_back(t);
    total_ += t.size;
  }
  for (Tier& t : tiers_) {
    const int kids[3] = {tier_id(t.sa + 1, t.sb), tier_id(t.sa + 2, t.sb + 1), tier_id(t.sa, t.sb - 1)};
    int next = 0;
    for (int s = 0; s < 3; ++s) {
      t.slot[s] = kids[s] >= 0 ? next : -1;
      if (kids[s] >= 0) t.child[next++] = static_cast<TierId>(kids[s]);
    }
    for (int s = next; s < 3; ++s) t.child[s] = 0;
  }
}

std::string Space::tier_name(TierId t) const {
  return "sl" + std::to_string(tiers_[t].sa) + "_sr" + std::to_string(tiers_[t].sb);
}

std::vector<TierId> Space::child_tiers(TierId t) const {
  std::vector<TierId> out;
  for (int s = 0; s < 3; ++s)
    if (tiers_[t].slot[s] >= 0) out.push_back(tiers_[t].child[tiers_[t].slot[s]]);
  return out;
}

Position Space::unrank(TierId t, uint64_t index) const {
  const Tier& tier = tiers_[t];
  const uint32_t A = static_cast<uint32_t>(A_.unrank(tier.sa, index / tier.nb));
  const uint64_t B = B_.unrank(tier.sb, index % tier.nb);
  Position p;
  p.length = static_cast<uint8_t>(N_);
  p.left = A;
  p.right = static_cast<uint32_t>(deposit_bits(B, ~A & full_));
  return p;
}

TierIndex Space::rank(const Position& p) const {
  const int sa = FixedSumSets::bit_sum(p.left);
  const uint64_t B = extract_bits(p.right, ~p.left & full_);
  const int sb = FixedSumSets::bit_sum(B);
  const int id = tier_id(sa, sb);
  if (id < 0) throw std::logic_error("rank: position outside the space");
  const Tier& tier = tiers_[id];
  return {static_cast<TierId>(id), A_.rank(p.left, sa) * tier.nb + B_.rank(B, sb)};
}

bool Space::contains(const Position& p) const { return why_not_contained(p).empty(); }

std::string Space::why_not_contained(const Position& p) const {
  const Counts c = frog_puzzle::counts(p);
  if (c == c_) return "";
  auto str = [](Counts x) {
    return std::to_string(x.n) + " L, " + std::to_string(x.m) + " R, " + std::to_string(x.k) + " empty";
  };
  return "has " + str(c) + "; this database holds boards of " + str(c_) +
         " (or fewer frogs with the same empty cells)";
}

std::optional<Position> Space::embed(const Position& p) const {
  const Counts c = frog_puzzle::counts(p);
  if (c == c_) return p;
  if (c.k != c_.k || c.n > c_.n || c.m > c_.m) return std::nullopt;
  const int pad_r = c_.m - c.m, pad_l = c_.n - c.n;
  Position q;
  q.length = static_cast<uint8_t>(N_);
  q.right = ((1u << pad_r) - 1) | (p.right << pad_r);
  q.left = (p.left << pad_r) | (((1u << pad_l) - 1) << (pad_r + p.length));
  return q;
}

std::vector<Position> Space::children(const Position& p) const {
  std::vector<Position> out;
  if (p == goal_) return out;
  for (Move m : legal_moves(p)) out.push_back(apply(p, m));
  return out;
}

}  // namespace toadbase::frog_puzzle
