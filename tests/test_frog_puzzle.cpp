// The frog swap puzzle: ranking, rules, the engine's values and the in-memory explorer,
// each against a brute force written here from the spec (frog-puzzle.md), not from the code:
// boards are strings over 'L', 'R', '_'; moves, distances and solution counts come from
// plain breadth-first search and path counting over those strings.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <deque>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "solver/core/bigcount.hpp"
#include "solver/core/fixed_sum_sets.hpp"
#include "solver/core/engine.hpp"
#include "solver/games/frog_puzzle/explorer.hpp"
#include "solver/games/frog_puzzle/frog_puzzle.hpp"
#include "support.hpp"

using namespace toadbase;
namespace fp = toadbase::frog_puzzle;

namespace {

// ---- the oracle: strings and breadth-first search -------------------------------------

std::vector<std::string> o_children(const std::string& b) {
  std::vector<std::string> out;
  const int n = static_cast<int>(b.size());
  for (int i = 0; i < n; ++i) {
    const int dir = b[i] == 'L' ? 1 : b[i] == 'R' ? -1 : 0;
    if (!dir) continue;
    const int one = i + dir, two = i + 2 * dir;
    const char other = b[i] == 'L' ? 'R' : 'L';
    int to = -1;
    if (one >= 0 && one < n && b[one] == '_') to = one;
    else if (two >= 0 && two < n && b[one] == other && b[two] == '_') to = two;
    if (to < 0) continue;
    std::string c = b;
    c[to] = b[i];
    c[i] = '_';
    out.push_back(c);
  }
  return out;
}

std::string o_goal(int n, int m, int k) { return std::string(m, 'R') + std::string(k, '_') + std::string(n, 'L'); }
std::string o_start(int n, int m, int k) { return std::string(n, 'L') + std::string(k, '_') + std::string(m, 'R'); }

/// Every board of n L, m R, k empty.
std::vector<std::string> o_boards(int n, int m, int k) {
  std::vector<std::string> out;
  std::string b = std::string(k, '_') + std::string(n, 'L') + std::string(m, 'R');
  std::sort(b.begin(), b.end());
  do out.push_back(b);
  while (std::next_permutation(b.begin(), b.end()));
  return out;
}

/// Distance to the goal of every board that can reach it (reverse BFS from the goal).
std::map<std::string, int> o_distances(int n, int m, int k) {
  std::map<std::string, std::vector<std::string>> parents;
  for (const auto& b : o_boards(n, m, k))
    for (const auto& c : o_children(b)) parents[c].push_back(b);
  std::map<std::string, int> dist;
  std::deque<std::string> q{o_goal(n, m, k)};
  dist[q.front()] = 0;
  while (!q.empty()) {
    std::string b = q.front();
    q.pop_front();
    for (const auto& p : parents[b])
      if (!dist.count(p)) {
        dist[p] = dist[b] + 1;
        q.push_back(p);
      }
  }
  return dist;
}

/// Number of move sequences from b to the goal (plain recursion, memoized).
uint64_t o_paths(const std::string& b, const std::string& goal, std::map<std::string, uint64_t>& memo) {
  if (b == goal) return 1;
  if (auto it = memo.find(b); it != memo.end()) return it->second;
  uint64_t s = 0;
  for (const auto& c : o_children(b)) s += o_paths(c, goal, memo);
  return memo[b] = s;
}

std::set<std::string> o_reachable(const std::string& start) {
  std::set<std::string> seen{start};
  std::deque<std::string> q{start};
  while (!q.empty()) {
    auto b = q.front();
    q.pop_front();
    for (const auto& c : o_children(b))
      if (seen.insert(c).second) q.push_back(c);
  }
  return seen;
}

fp::Position to_pos(const std::string& b) {
  fp::Position p;
  p.length = static_cast<uint8_t>(b.size());
  for (size_t i = 0; i < b.size(); ++i) {
    if (b[i] == 'L') p.left |= 1u << i;
    if (b[i] == 'R') p.right |= 1u << i;
  }
  return p;
}

std::string to_str(const fp::Position& p) {
  std::string s(p.length, '_');
  for (int i = 0; i < p.length; ++i) {
    if (p.left >> i & 1) s[i] = 'L';
    if (p.right >> i & 1) s[i] = 'R';
  }
  return s;
}

uint64_t fib(int i) {
  uint64_t a = 0, b = 1;
  while (i--) {
    uint64_t c = a + b;
    a = b;
    b = c;
  }
  return a;
}

/// The space solved in memory through the engine.
struct Solved {
  explicit Solved(fp::Counts c, int threads = 0) : space(c), store(space.tier_count()) {
    with_threads(threads, [&] { solve_tiers<fp::Space, PuzzleRecord>(space, store, nullptr); });
  }
  Outcome outcome(const std::string& b) const {
    TierIndex ti = space.rank(to_pos(b));
    return PuzzleRecord::decode(store.records.at(ti.tier).at(ti.index));
  }
  fp::Space space;
  tbtest::MemStore store;
};

const std::vector<fp::Counts> kSmallSpaces = {
    {1, 1, 1}, {2, 2, 1}, {3, 3, 1}, {3, 2, 1}, {1, 4, 1}, {4, 1, 2}, {2, 2, 2}, {3, 2, 3},
    {0, 3, 1}, {2, 0, 2}, {0, 0, 3}, {4, 4, 1}, {3, 3, 2}, {2, 3, 4}, {1, 1, 5}};

/// The hot loop over positions lo..hi-1 of tier t visits each position once, in order, with
/// the children the rules give (the generic path: unrank, children, rank).
void check_scan(const fp::Space& space, TierId t, uint64_t lo, uint64_t hi) {
  const auto kids = space.child_tiers(t);
  uint64_t expect = lo;
  space.scan(t, lo, hi, [&](uint64_t index, const Child* ch, unsigned n) {
    REQUIRE(index == expect++);
    const fp::Position p = space.unrank(t, index);
    std::multiset<std::pair<TierId, uint64_t>> got, want;
    for (unsigned j = 0; j < n; ++j) got.insert({kids.at(ch[j].slot), ch[j].index});
    for (const auto& q : space.children(p)) {
      TierIndex ti = space.rank(q);
      want.insert({ti.tier, ti.index});
    }
    INFO(to_str(p));
    REQUIRE(got == want);
  });
  REQUIRE(expect == hi);
}

}  // namespace

TEST_CASE("fixed-sum sets: counts, mask order, rank/unrank and walk", "[frog-puzzle][ranking]") {
  for (int m = 0; m <= 13; ++m)
    for (int k = 0; k <= m; ++k) {
      FixedSumSets f(m, k);
      std::map<int, std::vector<uint64_t>> by_sum;  // brute force, masks ascending
      for (uint64_t mask = 0; mask < (uint64_t{1} << m); ++mask)
        if (std::popcount(mask) == k) by_sum[FixedSumSets::bit_sum(mask)].push_back(mask);
      uint64_t seen = 0;
      for (int s = f.min_sum() - 1; s <= f.max_sum() + 1; ++s) {
        const auto& want = by_sum[s];
        INFO("m=" << m << " k=" << k << " s=" << s);
        REQUIRE(f.count(s) == want.size());
        for (uint64_t r = 0; r < want.size(); ++r) {
          REQUIRE(f.unrank(s, r) == want[r]);
          REQUIRE(f.rank(want[r], s) == r);
          REQUIRE(f.rank(want[r]) == r);
        }
        // walks from every start of a few lengths
        for (uint64_t r0 = 0; r0 < want.size(); r0 += 1 + want.size() / 7) {
          std::vector<uint64_t> got;
          const uint64_t n = std::min<uint64_t>(want.size() - r0, 5 + r0 % 11);
          f.walk(s, r0, n, [&](uint64_t mask) { got.push_back(mask); });
          REQUIRE(got == std::vector<uint64_t>(want.begin() + r0, want.begin() + r0 + n));
        }
        seen += want.size();
      }
      REQUIRE(seen == binomial(m, k));
    }
}

TEST_CASE("fixed-sum sets: the largest counts (m = 32) fit the 32-bit prefix table", "[frog-puzzle][ranking]") {
  // k-subsets of {0..31} by size and sum, counted by a DP over the elements (no table)
  constexpr int m = 32, k = 16, max_sum = m * (m - 1) / 2;
  std::vector<std::vector<uint64_t>> ways(k + 1, std::vector<uint64_t>(max_sum + 1, 0));
  ways[0][0] = 1;
  for (int e = 0; e < m; ++e)
    for (int j = std::min(e + 1, k); j >= 1; --j)
      for (int s = max_sum; s >= e; --s) ways[j][s] += ways[j - 1][s - e];
  const FixedSumSets f(m, k);
  uint64_t total = 0, largest = 0;
  for (int s = f.min_sum(); s <= f.max_sum(); ++s) {
    INFO("s=" << s);
    REQUIRE(f.count(s) == ways[k][s]);
    total += f.count(s);
    largest = std::max(largest, f.count(s));
  }
  REQUIRE(total == binomial(m, k));
  REQUIRE(largest > (uint64_t{1} << 20));  // the table's entries are far past 16 bits
  // the last set of the largest sum ranks at its count less one, and unranks back
  const int mid = (f.min_sum() + f.max_sum()) / 2;
  const uint64_t last = f.unrank(mid, f.count(mid) - 1);
  REQUIRE(std::popcount(last) == k);
  REQUIRE(FixedSumSets::bit_sum(last) == mid);
  REQUIRE(f.rank(last, mid) == f.count(mid) - 1);
}

TEST_CASE("big counts add and print like exact integers", "[frog-puzzle]") {
  BigCount a(1), b(1);
  for (int i = 0; i < 98; ++i) {  // Fibonacci numbers past 2^64
    BigCount c = a;
    c += b;
    a = b;
    b = c;
  }
  REQUIRE(b.str() == "354224848179261915075");  // F(100)
  REQUIRE(BigCount(uint64_t{18446744073709551615u}).str() == "18446744073709551615");
  BigCount x(uint64_t{18446744073709551615u});
  x += BigCount(1);
  REQUIRE(x.str() == "18446744073709551616");
  REQUIRE(BigCount(5) < x);
  REQUIRE(BigCount().str() == "0");
  REQUIRE(BigCount(1000000000).str() == "1000000000");
}

TEST_CASE("frog puzzle rules match the oracle on every board, and every move raises the potential by 1",
          "[frog-puzzle][rules]") {
  for (auto c : kSmallSpaces) {
    for (const auto& b : o_boards(c.n, c.m, c.k)) {
      const fp::Position p = to_pos(b);
      std::set<std::string> want, got;
      for (const auto& x : o_children(b)) want.insert(x);
      for (fp::Move m : fp::legal_moves(p)) {
        REQUIRE(fp::why_illegal(p, m).empty());
        const fp::Position q = fp::apply(p, m);
        got.insert(to_str(q));
        REQUIRE(fp::potential(q) == fp::potential(p) + 1);
      }
      INFO(b);
      REQUIRE(got == want);
      REQUIRE(fp::format(p) == b);
      REQUIRE(fp::parse(b) == p);
    }
  }
}

TEST_CASE("frog puzzle position strings: canonical, GamesCrafters, the blog's lists, and errors",
          "[frog-puzzle][positions]") {
  const fp::Position p = to_pos("LL_RR");
  REQUIRE(fp::parse("1_xx-oo") == p);
  REQUIRE(fp::parse("1_LL-RR") == p);  // the autoguiPosition the command and the routes print
  REQUIRE(fp::parse("1_ll-rr") == p);
  REQUIRE(fp::parse("1_LL_RR") == p);
  REQUIRE(fp::parse("xx-oo") == p);
  REQUIRE(fp::parse("[1, 1, 0, -1, -1]") == p);
  REQUIRE(fp::parse("ll-rr") == p);
  REQUIRE(fp::parse(" LL.RR ") == p);
  REQUIRE(fp::format_blog(p) == "[1, 1, 0, -1, -1]");
  REQUIRE(fp::move_text(p, {1, 2}) == "L from 1 to 2");
  REQUIRE(fp::move_text(to_pos("LLRL_RR"), {5, 4}) == "R from 5 to 4");
  for (const char* bad : {"", "LLRR", "LL_XR", "[1, 2, 0]", "[1, 1, 0", "[1, 0, -1,]", "1_xx-oR", "[1 1 0]",
                          "LLLLLLLLLLLLLLLL_RRRRRRRRRRRRRRRR"}) {
    INFO(bad);
    REQUIRE_THROWS_AS(fp::parse(bad), fp::PositionError);
  }
  // why_illegal names the problem
  const fp::Position q = to_pos("LL_LRRR");
  REQUIRE_THAT(fp::why_illegal(q, {0, 2}), Catch::Matchers::Contains("same kind"));
  REQUIRE_THAT(fp::why_illegal(q, {2, 3}), Catch::Matchers::Contains("no frog"));
  REQUIRE_THAT(fp::why_illegal(q, {3, 2}), Catch::Matchers::Contains("only moves right"));
  REQUIRE_THAT(fp::why_illegal(q, {4, 3}), Catch::Matchers::Contains("not empty"));
  REQUIRE_THAT(fp::why_illegal(q, {6, 3}), Catch::Matchers::Contains("one cell"));
  REQUIRE_THAT(fp::why_illegal(q, {6, 9}), Catch::Matchers::Contains("off the board"));
}

TEST_CASE("frog puzzle space: rank and unrank are inverse, scan's children are the rules' children",
          "[frog-puzzle][ranking]") {
  for (auto c : kSmallSpaces) {
    fp::Space space(c);
    uint64_t total = 0;
    std::set<std::pair<TierId, uint64_t>> seen;
    for (TierId t = 0; t < space.tier_count(); ++t) {
      for (TierId k : space.child_tiers(t)) REQUIRE(k < t);  // children first
      for (uint64_t i = 0; i < space.tier_size(t); ++i) {
        const fp::Position p = space.unrank(t, i);
        REQUIRE(space.rank(p) == TierIndex{t, i});
        REQUIRE(fp::counts(p) == c);
        seen.insert({t, i});
      }
      total += space.tier_size(t);
      // the hot loop, at every start index, against the generic children
      for (uint64_t lo = 0; lo < space.tier_size(t); lo += 1 + lo % 3) {
        const uint64_t hi = std::min<uint64_t>(space.tier_size(t), lo + 4);
        check_scan(space, t, lo, hi);
      }
    }
    REQUIRE(total == o_boards(c.n, c.m, c.k).size());
    REQUIRE(seen.size() == total);
  }
}

TEST_CASE("frog puzzle space: the hot loop's block paths (one R set, a few, more than it caches)",
          "[frog-puzzle][ranking]") {
  // 2 + 9 frogs and 9 empty cells: tiers of one R ordinal set, of a cached few, and of more
  // than the 512 the hot loop caches (then it walks them); windows at seeded random starts,
  // crossing block ends, against the generic children
  fp::Space space(fp::Counts{2, 9, 9});
  std::mt19937_64 rng(7);
  uint64_t checked = 0;
  for (TierId t = 0; t < space.tier_count(); ++t) {
    const uint64_t size = space.tier_size(t);
    for (int w = 0; w < 3; ++w) {
      const uint64_t lo = rng() % size, hi = std::min<uint64_t>(size, lo + 1 + rng() % 40);
      check_scan(space, t, lo, hi);
      checked += hi - lo;
    }
  }
  CHECK(checked > 2000);
}

TEST_CASE("frog puzzle values from the engine equal breadth-first search distances", "[frog-puzzle][solver]") {
  for (auto c : kSmallSpaces) {
    for (int threads : {1, 2}) {
      Solved s(c, threads);
      const auto dist = o_distances(c.n, c.m, c.k);
      for (const auto& b : o_boards(c.n, c.m, c.k)) {
        const Outcome o = s.outcome(b);
        INFO(b << " threads " << threads);
        if (auto it = dist.find(b); it != dist.end()) {
          REQUIRE(o == Outcome{Value::Win, static_cast<unsigned>(it->second)});
        } else {
          REQUIRE(o.value == Value::Lose);
        }
      }
    }
  }
}

TEST_CASE("frog puzzle: the longest games fit the record, past it the space is refused",
          "[frog-puzzle][solver]") {
  // the bound n(m + k) + mk: 254 is accepted (a 105.9-billion-position space), 255 refused
  REQUIRE(fp::longest_solution({4, 11, 14}) == 254);
  fp::Space big({4, 11, 14});
  REQUIRE(big.total_positions() == 105867707400u);
  std::mt19937_64 rng(7);
  for (int i = 0; i < 2000; ++i) {
    const TierId t = static_cast<TierId>(rng() % big.tier_count());
    const uint64_t idx = rng() % big.tier_size(t);
    REQUIRE(big.rank(big.unrank(t, idx)) == TierIndex{t, idx});
  }
  REQUIRE(fp::longest_solution({5, 9, 15}) == 255);
  REQUIRE_THROWS_AS(fp::Space({5, 9, 15}), std::invalid_argument);
  REQUIRE_THROWS_AS(fp::Space({3, 3, 0}), std::invalid_argument);
  REQUIRE_THROWS_AS(fp::Space({10, 10, 11}), std::invalid_argument);  // 31 cells
  // the longest game of a space the test can afford: 161 moves, solved by the engine
  const fp::Counts c{0, 7, 23};
  Solved s(c);
  REQUIRE(s.outcome(to_str(fp::start_of(c))) == Outcome{Value::Win, 161});
  REQUIRE(fp::Explorer(fp::start_of(c)).moves() == 161);
}

TEST_CASE("frog puzzle facts of the spec: fewest moves, solution counts, reachable counts",
          "[frog-puzzle][spec]") {
  for (int n = 0; n <= 6; ++n)
    for (int m = 0; m <= 6; ++m) {
      fp::Explorer ex(fp::start_of({n, m, 1}));
      INFO(n << " + " << m);
      REQUIRE(ex.solvable());
      REQUIRE(ex.moves() == n * m + n + m);
      uint64_t want;
      if (n == 0 || m == 0) want = 1;
      else if (n == 1 && m == 1) want = 2;
      else if (n == 1 || m == 1) want = fib(std::max(n, m) + 2);
      else want = 2;
      REQUIRE(ex.solutions() == BigCount(want));
      if (n + m <= 9) {  // the oracle's count of every path
        std::map<std::string, uint64_t> memo;
        REQUIRE(o_paths(o_start(n, m, 1), o_goal(n, m, 1), memo) == want);
      }
    }
  REQUIRE(fib(4) == 3);  // Fibonacci(k + 2) for k = 2..6: 3, 5, 8, 13, 21
  REQUIRE(fib(8) == 21);
  const uint64_t reachable[] = {6, 23, 72, 195, 476, 1089, 2388};
  for (int n = 1; n <= 7; ++n) {
    fp::Explorer ex(fp::start_of({n, n, 1}));
    REQUIRE(ex.reachable() == reachable[n - 1]);
    if (n <= 5) REQUIRE(o_reachable(o_start(n, n, 1)).size() == reachable[n - 1]);
  }
  fp::Explorer eight(fp::start_of({8, 8, 1}));
  REQUIRE(eight.moves() == 80);
  REQUIRE(eight.solutions() == BigCount(2));
}

TEST_CASE("frog puzzle explorer: counts, values and solutions agree with the oracle with more empty cells",
          "[frog-puzzle][solver]") {
  for (auto c : kSmallSpaces) {
    const auto dist = o_distances(c.n, c.m, c.k);
    size_t seen = 0;
    for (const auto& b : o_boards(c.n, c.m, c.k)) {
      // every board up to 7 cells; on longer ones the start and every 13th board
      if (b.size() > 7 && b != o_start(c.n, c.m, c.k) && seen++ % 13 != 0) continue;
      fp::Explorer ex(to_pos(b));
      const auto reach = o_reachable(b);
      INFO(b);
      REQUIRE(ex.reachable() == reach.size());
      const bool solvable = dist.count(b) > 0;
      REQUIRE(ex.solvable() == solvable);
      if (!solvable) continue;
      REQUIRE(ex.moves() == dist.at(b));
      std::map<std::string, uint64_t> memo;
      const uint64_t paths = o_paths(b, o_goal(c.n, c.m, c.k), memo);
      REQUIRE(ex.solutions() == BigCount(paths));
      uint64_t listed = 0;
      std::set<std::vector<std::pair<int, int>>> distinct;
      ex.each_solution([&](const std::vector<fp::Move>& path) {
        std::string cur = b;
        std::vector<std::pair<int, int>> key;
        for (fp::Move m : path) {
          const auto kids = o_children(cur);
          std::string next = cur;
          std::swap(next[m.from], next[m.to]);
          REQUIRE(std::find(kids.begin(), kids.end(), next) != kids.end());
          cur = next;
          key.push_back({m.from, m.to});
        }
        REQUIRE(cur == o_goal(c.n, c.m, c.k));
        REQUIRE(static_cast<int>(path.size()) == dist.at(b));
        distinct.insert(key);
        ++listed;
        return listed < 5000;
      });
      REQUIRE(listed == std::min<uint64_t>(paths, 5000));
      REQUIRE(distinct.size() == listed);
      // the first solution: at each step, of the moves that keep the goal reachable, the one
      // whose frog stands leftmost
      const auto first = ex.first_solution();
      std::string cur = b;
      for (fp::Move m : first) {
        int leftmost = 1000;
        for (const auto& kid : o_children(cur)) {
          if (!dist.count(kid)) continue;
          for (int i = 0; i < static_cast<int>(cur.size()); ++i)
            if (cur[i] != '_' && kid[i] == '_') leftmost = std::min(leftmost, i);
        }
        REQUIRE(m.from == leftmost);
        std::swap(cur[m.from], cur[m.to]);
      }
      REQUIRE(cur == o_goal(c.n, c.m, c.k));
    }
  }
}

TEST_CASE("frog puzzle reach bound: the arrangements it counts hold every reachable board, on every board",
          "[frog-puzzle]") {
  // the oracle's count: every board of the same pieces whose i-th L is on or right of the
  // i-th L's cell, and whose j-th R is on or left of the j-th R's cell
  const auto cells_of = [](const std::string& b, char c) {
    std::vector<size_t> out;
    for (size_t i = 0; i < b.size(); ++i)
      if (b[i] == c) out.push_back(i);
    return out;
  };
  const auto within = [&](const std::string& from, const std::string& to) {
    const auto l0 = cells_of(from, 'L'), l1 = cells_of(to, 'L'), r0 = cells_of(from, 'R'), r1 = cells_of(to, 'R');
    for (size_t i = 0; i < l0.size(); ++i)
      if (l1[i] < l0[i]) return false;
    for (size_t j = 0; j < r0.size(); ++j)
      if (r1[j] > r0[j]) return false;
    return true;
  };
  size_t boards = 0, loose = 0, frozen = 0;
  for (int n = 0; n <= 4; ++n)
    for (int m = 0; m <= 4; ++m)
      for (int k = 1; k <= 3; ++k) {
        if (n + m + k > 8) continue;
        const auto all = o_boards(n, m, k);
        for (const auto& b : all) {
          INFO(b);
          uint64_t counted = 0;
          for (const auto& other : all) counted += within(b, other);
          const uint64_t bound = fp::reach_bound(to_pos(b));
          REQUIRE(bound <= counted);  // frogs that never move keep their cells: fewer
          frozen += bound < counted;
          const auto reach = o_reachable(b);
          bool all_within = true;  // the bound's claim about the rules
          for (const auto& r : reach) all_within = all_within && within(b, r);
          REQUIRE(all_within);
          REQUIRE(reach.size() <= bound);
          loose += reach.size() < bound;
          ++boards;
        }
      }
  CHECK(boards > 2000);
  CHECK(loose > 0);   // a bound, not the count
  CHECK(frozen > 0);  // boards with frogs that never move
  CHECK(fp::reach_bound(to_pos("LLL_RRR")) == 140);
  // stuck frogs: one reachable position, and the bound says so
  CHECK(fp::Explorer(to_pos("LLLLLLLLRRRRRRRR________")).reachable() == 1);
  CHECK(fp::reach_bound(to_pos("LLLLLLLLRRRRRRRR________")) == 1);
  // a block that never moves beside one that does adds nothing (it was 29,123,766,000)
  CHECK(fp::reach_bound(to_pos("LLLLLL___RRRRRRLLLLLLLLRRRRRRR")) == fp::reach_bound(to_pos("LLLLLL___RRRRRR")));
  CHECK(fp::Explorer(to_pos("LLLLLL___RRRRRRLLLLLLLLRRRRRRR")).reachable() == 180328);
}
