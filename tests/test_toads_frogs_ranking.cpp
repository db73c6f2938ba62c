// The tiered space: rank / unrank are inverse, tier sizes add up, children lie in the child
// tiers, and the solver's fast path scan() reports exactly what the generic path gives.
#include <catch2/catch.hpp>
#include <map>
#include <random>
#include <set>

#include "solver/core/combinatorics.hpp"
#include "support.hpp"

using namespace tbtest;
using toadbase::binomial;
using toadbase::TierIndex;

namespace {

using Addr = std::pair<TierId, uint64_t>;

uint64_t pow3(int n) {
  uint64_t r = 1;
  for (int i = 0; i < n; ++i) r *= 3;
  return r;
}

/// Failures are counted and the first few reported, so exhaustive loops stay fast.
struct Failures {
  uint64_t count = 0;
  template <class F>
  void add(F&& describe) {
    if (++count <= 8) FAIL_CHECK(describe());
  }
};

std::string expected_tier_name(const tf::Position& p) {
  int sum = 0;
  for (int i = 0; i < p.length; ++i)
    if ((p.toads >> i) & 1) sum += i;
  return "t" + std::to_string(std::popcount(p.toads)) + "f" + std::to_string(std::popcount(p.frogs)) +
         "_s" + std::to_string(sum) + (p.turn == tf::Player::Toads ? "_toads" : "_frogs");
}

/// rank(unrank(t, i)) == (t, i), the position fits its tier, and every child lies in one of
/// the tier's child tiers.
void check_index(const tf::Space& s, TierId t, uint64_t i, const std::vector<TierId>& kid_tiers,
                 Failures& fail) {
  const tf::Position p = s.unrank(t, i);
  const std::string where = s.tier_name(t) + " index " + std::to_string(i);
  const uint32_t cells = (1u << s.length()) - 1;
  if (p.length != s.length() || (p.toads & p.frogs) || ((p.toads | p.frogs) & ~cells)) {
    fail.add([&] { return where + ": unrank gives a malformed board " + to_string(p); });
    return;
  }
  if (!s.contains(p)) fail.add([&] { return where + ": unrank leaves the space: " + to_string(p); });
  if (expected_tier_name(p) != s.tier_name(t))
    fail.add([&] { return where + ": " + to_string(p) + " belongs to tier " + expected_tier_name(p); });
  if (std::popcount(p.toads) != s.tier_toads(t) || std::popcount(p.frogs) != s.tier_frogs(t) ||
      (p.turn == tf::Player::Toads) != s.toads_to_move(t))
    fail.add([&] { return where + ": tier_toads/tier_frogs/toads_to_move disagree with " + to_string(p); });
  const TierIndex back = s.rank(p);
  if (!(back == TierIndex{t, i}))
    fail.add([&] {
      return where + ": rank(" + to_string(p) + ") = (" + std::to_string(back.tier) + ", " +
             std::to_string(back.index) + ")";
    });
  for (const tf::Position& c : s.children(p)) {
    const TierIndex ci = s.rank(c);
    if (std::find(kid_tiers.begin(), kid_tiers.end(), ci.tier) == kid_tiers.end() ||
        ci.index >= s.tier_size(ci.tier))
      fail.add([&] { return where + ": child " + to_string(c) + " is outside the child tiers"; });
  }
}

/// Every tier: every index when the tier holds at most `cap` positions, else `cap` random ones
/// plus both ends. Also the tier sizes must add up to `total`.
void check_space(const tf::Space& s, uint64_t total, uint64_t cap, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Failures fail;
  uint64_t sum = 0;
  for (TierId t = 0; t < s.tier_count(); ++t) {
    const uint64_t size = s.tier_size(t);
    sum += size;
    if (size == 0) fail.add([&] { return s.tier_name(t) + " is empty"; });
    const std::vector<TierId> kids = s.child_tiers(t);
    for (TierId c : kids)
      if (c >= t) fail.add([&] { return s.tier_name(t) + ": a child tier is not solved before it"; });
    if (s.other_turn_tier(t) >= s.tier_count() || s.tier_size(s.other_turn_tier(t)) != size ||
        s.toads_to_move(s.other_turn_tier(t)) == s.toads_to_move(t))
      fail.add([&] { return s.tier_name(t) + ": other_turn_tier is not its twin"; });
    if (size <= cap) {
      for (uint64_t i = 0; i < size; ++i) check_index(s, t, i, kids, fail);
    } else {
      check_index(s, t, 0, kids, fail);
      check_index(s, t, size - 1, kids, fail);
      for (uint64_t k = 0; k < cap; ++k) check_index(s, t, rng() % size, kids, fail);
    }
  }
  CHECK(sum == total);
  CHECK(s.total_positions() == total);
  CHECK(fail.count == 0);
}

/// scan(t, lo, hi) visits lo..hi-1 in order, each with exactly the children that the
/// generic path (unrank, children, rank) gives.
void check_scan(const tf::Space& s, TierId t, uint64_t lo, uint64_t hi, Failures& fail) {
  const std::vector<TierId> kids = s.child_tiers(t);
  uint64_t next = lo;
  s.scan(t, lo, hi, [&](uint64_t index, const toadbase::Child* c, unsigned n) {
    const std::string where = s.tier_name(t) + " index " + std::to_string(index) + " (scan " +
                              std::to_string(lo) + ".." + std::to_string(hi) + ")";
    if (index != next) fail.add([&] { return where + ": visited out of order, expected " + std::to_string(next); });
    next = index + 1;
    std::multiset<Addr> got;
    for (unsigned k = 0; k < n; ++k) {
      if (c[k].slot >= kids.size()) {
        fail.add([&] { return where + ": slot " + std::to_string(c[k].slot) + " out of range"; });
        return;
      }
      got.insert({kids[c[k].slot], c[k].index});
    }
    std::multiset<Addr> want;
    const tf::Position p = s.unrank(t, index);
    for (const tf::Position& child : s.children(p)) {
      const TierIndex ci = s.rank(child);
      want.insert({ci.tier, ci.index});
    }
    if (got != want) {
      fail.add([&] {
        std::string g, w;
        for (auto [ct, ci] : got) g += to_string(s.unrank(ct, ci)) + " ";
        for (auto [ct, ci] : want) w += to_string(s.unrank(ct, ci)) + " ";
        return where + " " + to_string(p) + ": scan gives { " + g + "}, children gives { " + w + "}";
      });
    }
  });
  if (lo < hi && next != hi)
    fail.add([&] { return s.tier_name(t) + ": scan " + std::to_string(lo) + ".." + std::to_string(hi) + " stopped at " + std::to_string(next); });
}

/// A scan visitor of the (index, child(slot, index, real)..., position(index)) protocol, when
/// the engine has it: every candidate, real or not, must address an existing record (the
/// solver reads it), and the real ones must be exactly the children.
template <class Probe>
constexpr bool kVisitorScan = requires(Probe p) {
  p.child(uint32_t{0}, uint64_t{0}, true);
  p.position(uint64_t{0});
};

template <class S>
void check_scan_candidates(const S& s, TierId t, uint64_t lo, uint64_t hi, Failures& fail) {
  if constexpr (kVisitorScan<toadbase::ScanProbe>) {
    struct Probe {
      const S& s;
      TierId t;
      std::vector<TierId> kids;
      Failures& fail;
      std::multiset<Addr> real;
      void child(uint32_t slot, uint64_t index, bool is_real) {
        if (slot >= kids.size() || index >= s.tier_size(kids[slot])) {
          fail.add([&] { return s.tier_name(t) + ": a candidate child addresses no record"; });
          return;
        }
        if (is_real) real.insert({kids[slot], index});
      }
      void position(uint64_t index) {
        std::multiset<Addr> want;
        for (const tf::Position& c : s.children(s.unrank(t, index))) {
          const TierIndex ci = s.rank(c);
          want.insert({ci.tier, ci.index});
        }
        if (real != want)
          fail.add([&] { return s.tier_name(t) + " index " + std::to_string(index) + ": visitor children differ"; });
        real.clear();
      }
    } probe{s, t, s.child_tiers(t), fail, {}};
    s.scan(t, lo, hi, probe);
  }
}

/// Whole tiers, short windows from every start (small tiers) or random starts, windows that
/// cross a change of toad set (multiples of C(n - t, f)) and the solver's chunk boundaries.
void check_scans(const tf::Space& s, uint64_t every_start_cap, int random_windows, uint64_t window,
                 uint64_t seed, bool whole_tiers) {
  std::mt19937_64 rng(seed);
  Failures fail;
  for (TierId t = 0; t < s.tier_count(); ++t) {
    const uint64_t size = s.tier_size(t);
    if (whole_tiers) {
      check_scan(s, t, 0, size, fail);
      check_scan_candidates(s, t, 0, size, fail);
    }
    if (size <= every_start_cap) {
      for (uint64_t lo = 0; lo < size; ++lo) check_scan(s, t, lo, std::min(size, lo + 3), fail);
    } else {
      for (int k = 0; k < random_windows; ++k) {
        const uint64_t lo = rng() % size, hi = std::min(size, lo + 1 + rng() % window);
        check_scan(s, t, lo, hi, fail);
        check_scan_candidates(s, t, lo, hi, fail);
      }
      const uint64_t nb = binomial(s.length() - s.tier_toads(t), s.tier_frogs(t));
      for (uint64_t b : {nb, 2 * nb, size / nb / 2 * nb, toadbase::kScanGrain, 2 * toadbase::kScanGrain}) {
        if (b < 2 || b >= size) continue;
        check_scan(s, t, b - 2, std::min(size, b + 2), fail);
        check_scan(s, t, b, std::min(size, b + 1), fail);
      }
    }
    check_scan(s, t, size / 2, size / 2, fail);  // an empty range visits nothing
  }
  CHECK(fail.count == 0);
}

}  // namespace

TEST_CASE("every board of 1..10 cells: rank and unrank are inverse, 2 * 3^n positions",
          "[ranking]") {
  for (int n = 1; n <= 10; ++n) {
    INFO("length " << n);
    const tf::Space s(tf::SpaceParams{n, std::nullopt, std::nullopt});
    check_space(s, 2 * pow3(n), UINT64_MAX, static_cast<uint64_t>(n));
  }
}

TEST_CASE("rank of the header's example board", "[ranking]") {
  // T F - T - F: toads {0, 3} (SA 3); non-toad cells 1 2 4 5 have ordinals 0 1 2 3; frogs on
  // ordinals 0 and 3, rankB = C(0,1) + C(3,2) = 3; index = rankA * C(4, 2) + 3.
  const tf::Space s(tf::SpaceParams{6, 2, 2});
  const TierIndex ti = s.rank(to_position("1_TF-T-F"));
  CHECK(s.tier_name(ti.tier) == "t2f2_s3_toads");
  CHECK(ti.index % 6 == 3);
  CHECK(to_string(s.unrank(ti.tier, ti.index)) == "1_TF-T-F");
  // Frogs to move: the twin tier, same index
  const TierIndex tj = s.rank(to_position("2_TF-T-F"));
  CHECK(tj.tier == s.other_turn_tier(ti.tier));
  CHECK(tj.index == ti.index);
  CHECK(s.tier_name(tj.tier) == "t2f2_s3_frogs");
}

TEST_CASE("piece-count spaces: C(n,t) * C(n-t,f) * 2 positions, rank and unrank inverse",
          "[ranking]") {
  struct Case {
    int n, t, f;
  };
  for (Case c : {Case{12, 3, 4}, Case{12, 6, 6}, Case{9, 0, 4}, Case{9, 5, 0}, Case{7, 0, 0},
                 Case{11, 1, 1}, Case{13, 4, 5}}) {
    INFO("length " << c.n << ", " << c.t << " toads, " << c.f << " frogs");
    const tf::Space s(tf::SpaceParams{c.n, c.t, c.f});
    check_space(s, 2 * binomial(c.n, c.t) * binomial(c.n - c.t, c.f), 20000, 7);
  }
}

TEST_CASE("large spaces, sampled: length 20 with 6 + 6, length 22 all counts", "[ranking]") {
  {
    const tf::Space s(tf::SpaceParams{20, 6, 6});
    check_space(s, 2 * binomial(20, 6) * binomial(14, 6), 200, 20);
  }
  {
    const tf::Space s(tf::SpaceParams{22, std::nullopt, std::nullopt});
    check_space(s, 2 * pow3(22), 4, 22);
  }
}

TEST_CASE("scan equals the generic path on every tier of 1..8 cells, from every start",
          "[ranking][scan]") {
  for (int n = 1; n <= 8; ++n) {
    INFO("length " << n);
    const tf::Space s(tf::SpaceParams{n, std::nullopt, std::nullopt});
    check_scans(s, UINT64_MAX, 0, 0, static_cast<uint64_t>(n), true);
  }
}

TEST_CASE("scan equals the generic path: lengths 9..12 and piece-count spaces", "[ranking][scan]") {
  for (int n : {9, 10, 11, 12}) {
    INFO("length " << n);
    const tf::Space s(tf::SpaceParams{n, std::nullopt, std::nullopt});
    check_scans(s, 200, 20, 40, static_cast<uint64_t>(n), n <= 10);
  }
  for (auto [n, t, f] : {std::tuple{12, 3, 4}, std::tuple{13, 5, 5}, std::tuple{14, 2, 9}}) {
    INFO("length " << n << ", " << t << " toads, " << f << " frogs");
    const tf::Space s(tf::SpaceParams{n, t, f});
    check_scans(s, 200, 30, 100, static_cast<uint64_t>(n * 100 + t), true);
  }
}

TEST_CASE("scan and tails without the frog-set tables: the same as with them and as the generic path",
          "[ranking][scan]") {
  // frog_table_limit 0: every tier steps through its frog sets (as tiers of more than 18 free
  // cells do), and fill_tail ranks its source's sets itself
  for (int n = 1; n <= 9; ++n) {
    INFO("length " << n);
    const tf::SpaceParams params{n, std::nullopt, std::nullopt};
    const tf::Space stepped(params, 0), tabled(params);
    check_scans(stepped, n <= 7 ? UINT64_MAX : 300, 20, 40, static_cast<uint64_t>(n) + 100, true);
    std::mt19937_64 rng(static_cast<uint64_t>(n));
    uint64_t tails = 0, differ = 0;
    for (TierId t = 0; t < tabled.tier_count(); ++t) {
      if (tabled.tier_prefix(t) == tabled.tier_size(t)) continue;
      std::vector<uint8_t> source(tabled.tier_size(tabled.tail_source(t)));
      for (auto& r : source) r = static_cast<uint8_t>(rng());
      std::vector<uint8_t> a(tabled.tier_size(t), 0), b(a.size(), 0);
      tabled.fill_tail(t, source.data(), a.data());
      stepped.fill_tail(t, source.data(), b.data());
      differ += a != b;
      tails += a.size() - tabled.tier_prefix(t);
    }
    CHECK(differ == 0);
    if (n > 1) CHECK(tails > 0);
  }
  const tf::Space stepped(tf::SpaceParams{13, 5, 5}, 0);
  check_scans(stepped, 200, 30, 100, 1355, true);
}

TEST_CASE("scan equals the generic path on large spaces, sampled windows", "[ranking][scan]") {
  {
    const tf::Space s(tf::SpaceParams{20, 6, 6});
    check_scans(s, 0, 4, 300, 2066, false);
  }
  {
    const tf::Space s(tf::SpaceParams{22, std::nullopt, std::nullopt});
    check_scans(s, 0, 1, 50, 22, false);
  }
}

TEST_CASE("next_in_tier steps to unrank(i + 1) through every tier: verify's walk", "[ranking][verify]") {
  // every tier of 1..9 cells whole, and piece-count spaces (no frogs, no toads, full boards)
  std::vector<tf::SpaceParams> spaces;
  for (int n = 1; n <= 9; ++n) spaces.push_back({n, std::nullopt, std::nullopt});
  for (auto [n, t, f] : {std::array<int, 3>{12, 3, 4}, {9, 0, 4}, {9, 5, 0}, {7, 0, 0}, {8, 4, 4}, {13, 1, 11}})
    spaces.push_back({n, t, f});
  uint64_t steps = 0, bad = 0;
  for (const auto& params : spaces) {
    const tf::Space s(params);
    for (TierId t = 0; t < s.tier_count(); ++t) {
      if (s.tier_size(t) == 0) continue;
      tf::Position p = s.unrank(t, 0);
      for (uint64_t i = 0; i + 1 < s.tier_size(t); ++i) {
        toadbase::next_in_tier(s, t, i, p);
        ++steps;
        if (!(p == s.unrank(t, i + 1))) {
          if (++bad < 5) FAIL_CHECK("length " << params.length << " tier " << s.tier_name(t) << " index " << i + 1);
        }
      }
    }
  }
  CHECK(bad == 0);
  CHECK(steps > 100000);
  // sampled on 22 cells: runs of 300 steps from random starts in every 50th tier
  const tf::Space big(tf::SpaceParams{22, std::nullopt, std::nullopt});
  std::mt19937_64 rng(7);
  for (TierId t = 0; t < big.tier_count(); t += 50) {
    const uint64_t size = big.tier_size(t);
    if (size < 2) continue;
    uint64_t i = rng() % (size - 1);
    tf::Position p = big.unrank(t, i);
    for (int k = 0; k < 300 && i + 1 < size; ++k, ++i) {
      toadbase::next_in_tier(big, t, i, p);
      REQUIRE(p == big.unrank(t, i + 1));
    }
  }
}

TEST_CASE("colex rank by byte tables and the sum of bit indices equal their loops", "[ranking]") {
  const toadbase::ColexByteRank by_bytes;
  std::mt19937 rng(11);
  const auto loop_sum = [](uint32_t x) {
    int s = 0;
    for (int i = 0; i < 32; ++i) s += (x >> i & 1) ? i : 0;
    return s;
  };
  for (uint32_t x = 0; x < (1u << 16); ++x) {  // every subset of 16, then random ones of 32
    REQUIRE(by_bytes(x) == toadbase::colex_rank(x));
    REQUIRE(toadbase::bit_index_sum(x) == loop_sum(x));
  }
  for (int k = 0; k < 200000; ++k) {
    const uint32_t x = static_cast<uint32_t>(rng()) >> (rng() % 8);
    REQUIRE(by_bytes(x) == toadbase::colex_rank(x));
    REQUIRE(toadbase::bit_index_sum(x) == loop_sum(x));
  }
  CHECK(toadbase::bit_index_sum(0xFFFFFFFFu) == 31 * 32 / 2);
  // tables of fewer bits (a space's free cells: fewer bytes looked up), every width of a board
  for (int bits = 1; bits <= 26; ++bits) {
    const toadbase::ColexByteRank narrow(bits);
    const uint32_t below = (1u << bits) - 1;
    for (int k = 0; k < 20000; ++k) {
      const uint32_t x = static_cast<uint32_t>(rng()) & below;
      REQUIRE(narrow(x) == toadbase::colex_rank(x));
    }
    REQUIRE(narrow(below) == toadbase::colex_rank(below));
  }
}
