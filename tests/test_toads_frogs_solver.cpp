// The engine: solve_tiers through an in-memory store against the brute-force oracle, the
// spec's reference values, mirror symmetry, resuming, thread independence, the remoteness
// bound and the one-byte record's overflow.
#include <algorithm>
#include <catch2/catch.hpp>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <tuple>
#include <type_traits>

#include "solver/core/combinatorics.hpp"
#include "solver/core/progress.hpp"
#include "support.hpp"
#include "tools/progress_report.hpp"

using namespace tbtest;
using toadbase::Outcome;
using toadbase::ParityRecord;
using toadbase::Value;

namespace {

/// The piece-count space that holds a board, solved once per test program.
const SolvedSpace& space_of(const std::string& board) {
  static std::map<std::tuple<int, int, int>, std::unique_ptr<SolvedSpace>> cache;
  const auto [t, f] = piece_counts(board);
  const int n = static_cast<int>(board.size());
  auto& slot = cache[{n, t, f}];
  if (!slot) slot = std::make_unique<SolvedSpace>(tf::SpaceParams{n, t, f});
  return *slot;
}

Truth engine(const std::string& pos) {
  return space_of(pos.substr(2)).truth(pos);
}

std::string show(Truth t) {
  return std::string(t.win ? "win" : "lose") + " in " + std::to_string(t.remoteness);
}

/// L: Toads win whoever starts; R: Frogs do; N: the player to move wins; P: the player to move
/// loses.
char outcome_class(const std::string& board) {
  const bool toads_first_win = engine("1_" + board).win, frogs_first_win = engine("2_" + board).win;
  if (toads_first_win && !frogs_first_win) return 'L';
  if (!toads_first_win && frogs_first_win) return 'R';
  return toads_first_win ? 'N' : 'P';
}

}  // namespace

TEST_CASE("the engine agrees with the oracle on every board of 1..9 cells, both players",
          "[solver][oracle]") {
  uint64_t checked = 0, mismatches = 0;
  for (int n = 1; n <= 9; ++n) {
    const SolvedSpace s(tf::SpaceParams{n, std::nullopt, std::nullopt});
    CHECK(s.stats.positions_solved == s.space.total_positions());
    CHECK(s.stats.tiers_solved == s.space.tier_count());
    CHECK(s.stats.tiers_skipped == 0);
    for (const std::string& board : all_boards(n)) {
      for (const char* turn : {"1_", "2_"}) {
        const std::string pos = turn + board;
        const Truth want = oracle(pos), got = s.truth(pos);
        ++checked;
        if (!(got == want) && ++mismatches <= 10)
          FAIL_CHECK(pos << ": engine " << show(got) << ", oracle " << show(want));
      }
    }
  }
  CHECK(checked == 59046);  // 2 * (3 + 9 + ... + 3^9)
  CHECK(mismatches == 0);
}

TEST_CASE("piece-count spaces give the same values as the all-counts space", "[solver]") {
  for (int n : {6, 9}) {
    const SolvedSpace all(tf::SpaceParams{n, std::nullopt, std::nullopt});
    for (int t = 0; t <= n; ++t) {
      for (int f = 0; t + f <= n; ++f) {
        const SolvedSpace one(tf::SpaceParams{n, t, f});
        uint64_t bad = 0;
        for (TierId id = 0; id < one.space.tier_count(); ++id)
          for (uint64_t i = 0; i < one.space.tier_size(id); ++i) {
            const tf::Position p = one.space.unrank(id, i);
            if (!(one.outcome(p) == all.outcome(p)) && ++bad <= 5)
              FAIL_CHECK(to_string(p) << " differs between the spaces");
          }
        CHECK(bad == 0);
      }
    }
  }
}

TEST_CASE("the spec's reference values", "[solver][spec]") {
  struct Case {
    const char* pos;
    bool win;
    unsigned remoteness;
  };
  for (Case c :
       {Case{"1_TT-FF", true, 5}, Case{"1_TTT--FFF", true, 15}, Case{"1_TTT---FFF", false, 24},
        Case{"1_TTTT----FFFF", false, 42}, Case{"1_TTTTT----FFFFF", true, 35},
        Case{"1_T--F", false, 4}, Case{"1_T---F", true, 7}}) {
    INFO(c.pos);
    CHECK(show(engine(c.pos)) == show(Truth{c.win, c.remoteness}));
    // the oracle reproduces the literature too (it would be no oracle otherwise)
    if (std::string(c.pos).size() <= 2 + 12)
      CHECK(show(oracle(c.pos)) == show(Truth{c.win, c.remoteness}));
  }
}

TEST_CASE("the spec's outcome classes", "[solver][spec]") {
  for (const char* b : {"TFTF-", "TFF-T", "TF-TF", "F-TTF", "-TTFF", "TTFF"}) {
    INFO(b << " has value 0");
    CHECK(outcome_class(b) == 'P');
  }
  for (const char* b : {"T-F", "TFT-F"}) {
    INFO(b << " has value *");
    CHECK(outcome_class(b) == 'N');
  }
  for (const char* b : {"T-TF", "T-TFF"}) {
    INFO(b << " is positive (1/2, up)");
    CHECK(outcome_class(b) == 'L');
  }
  // their mirrors are the negatives: R
  CHECK(outcome_class(oracle_mirror_board("T-TF")) == 'R');
  CHECK(outcome_class(oracle_mirror_board("T-TFF")) == 'R');
  // values named in the spec's later goal, as far as win/lose sees them
  CHECK(outcome_class("T--FF") == 'R');  // -1
  CHECK(outcome_class("T---F") == 'N');  // *
}

TEST_CASE("mirror symmetry: Toads to move on b equals Frogs to move on mirror(b), up to 9 cells",
          "[solver][spec]") {
  uint64_t bad = 0;
  for (int n = 1; n <= 9; ++n) {
    const SolvedSpace s(tf::SpaceParams{n, std::nullopt, std::nullopt});
    for (const std::string& board : all_boards(n)) {
      const Outcome toads_first = s.outcome("1_" + board);
      const Outcome by_own_mirror = s.outcome("2_" + oracle_mirror_board(board));
      const Outcome by_project_mirror = s.outcome(tf::mirror(to_position("1_" + board)));
      if ((!(toads_first == by_own_mirror) || !(toads_first == by_project_mirror)) && ++bad <= 5)
        FAIL_CHECK(board << ": Toads first " << toads_first.remoteness
                         << ", mirror with Frogs first " << by_own_mirror.remoteness << " / "
                         << by_project_mirror.remoteness);
    }
  }
  CHECK(bad == 0);
}

TEST_CASE(
    "stored: Toads-to-move tiers with no more toads than frogs, and canonical() reaches them or a "
    "position a ply from them",
    "[solver][derived]") {
  const SolvedSpace s(tf::SpaceParams{9, std::nullopt, std::nullopt});
  const tf::Space& space = s.space;
  uint64_t bad = 0;
  for (TierId t = 0; t < space.tier_count(); ++t) {
    const bool stored = toadbase::tier_stored(space, t);
    if (stored != (space.toads_to_move(t) && space.tier_toads(t) <= space.tier_frogs(t))) ++bad;
    // the solver told the store what to keep: nothing, or the tier up to its tail
    if (s.store.kept[t] != (stored ? space.tier_prefix(t) : 0)) ++bad;
  }
  CHECK(bad == 0);
  CHECK(s.store.loads == 0);  // a fresh solve reads nothing back
  // what a lookup does: canonical(p) is a stored record, or one ply from stored records, and
  // either way gives p's value
  auto stored_record = [&](const tf::Position& p) -> int {
    const auto ti = space.rank(p);
    if (!toadbase::tier_stored(space, ti.tier) || ti.index >= space.tier_prefix(ti.tier)) return -1;
    return s.store.records[ti.tier][ti.index];
  };
  uint64_t checked = 0;
  for (const std::string& board : all_boards(9)) {
    for (const char* turn : {"1_", "2_"}) {
      const tf::Position p = to_position(turn + board), q = space.canonical(p);
      int r = stored_record(q);
      if (r < 0) {
        std::vector<unsigned> kids;
        for (const auto& c : space.children(q)) {
          const int k = stored_record(space.canonical(c));
          if (k < 0) ++bad;
          kids.push_back(static_cast<unsigned>(std::max(k, 0)));
        }
        r = static_cast<int>(ParityRecord::combine(static_cast<unsigned>(kids.size()),
                                                   [&](unsigned k) { return kids[k]; }));
      }
      const Outcome o = ParityRecord::decode(static_cast<Record>(r));
      const Truth want = oracle(turn + board);
      if ((o.value == Value::Win) != want.win || o.remoteness != want.remoteness) ++bad;
      ++checked;
    }
  }
  CHECK(checked == 2 * 19683);
  CHECK(bad == 0);
  // one piece-count space stores its Toads' tiers whatever the counts (no mirror inside it)
  const tf::Space one(tf::SpaceParams{9, 4, 2});
  for (TierId t = 0; t < one.tier_count(); ++t)
    CHECK(toadbase::tier_stored(one, t) == one.toads_to_move(t));
}

TEST_CASE(
    "frozen ends: a tier's tail is its boards with a toad on the last cell, copied from F + X",
    "[solver][tail]") {
  for (int n = 1; n <= 12; ++n) {
    INFO("length " << n);
    const SolvedSpace s(tf::SpaceParams{n, std::nullopt, std::nullopt});
    const tf::Space& space = s.space;
    const std::vector<uint32_t> level = toadbase::tier_levels(space);
    const uint32_t last = 1u << (n - 1);
    uint64_t tail_positions = 0, bad = 0;
    for (TierId t = 0; t < space.tier_count(); ++t) {
      const uint64_t prefix = space.tier_prefix(t), size = space.tier_size(t);
      // the tail is exactly the boards with a toad on the last cell
      for (uint64_t i = 0; i < size; ++i) {
        const tf::Position p = space.unrank(t, i);
        if (((p.toads & last) != 0) != (i >= prefix)) ++bad;
        // canonical(): a board of some prefix that plays the same (the oracle says so too)
        const tf::Position q = space.canonical(p);
        const auto qi = space.rank(q);
        if (qi.index >= space.tier_prefix(qi.tier) || q.toads & last) ++bad;
        if (n <= 8 && !(oracle(to_string(p)) == oracle(to_string(q)))) ++bad;
      }
      if (prefix == size) continue;
      tail_positions += size - prefix;
      const TierId src = space.tail_source(t);
      if (level[src] >= level[t]) ++bad;  // the source is solved first
      // the copied tail equals a scan of the tail with the tier's own children
      std::vector<const Record*> kids;
      for (TierId c : space.child_tiers(t)) kids.push_back(s.store.records[c].data());
      std::vector<Record> scanned(size, 0);
      ParityRecord::Accumulator acc{kids, scanned.data()};
      space.scan(t, prefix, size, acc);
      std::vector<Record> copied(size, 0);
      space.fill_tail(t, s.store.records[src].data(), copied.data());
      if (!std::equal(scanned.begin() + static_cast<ptrdiff_t>(prefix), scanned.end(),
                      copied.begin() + static_cast<ptrdiff_t>(prefix)))
        ++bad;
      if (!std::equal(copied.begin() + static_cast<ptrdiff_t>(prefix), copied.end(),
                      s.store.records[t].begin() + static_cast<ptrdiff_t>(prefix)))
        ++bad;
    }
    CHECK(bad == 0);
    // a third of the boards (3^(n-1) of 3^n) end in a toad: for both players to move
    uint64_t boards_ending_in_toad = 1;
    for (int k = 1; k < n; ++k) boards_ending_in_toad *= 3;
    CHECK(tail_positions == 2 * boards_ending_in_toad);
  }
  // one piece-count space: the source (t - 1, f + 1) lies outside it, so no tails
  const tf::Space one(tf::SpaceParams{10, 3, 3});
  for (TierId t = 0; t < one.tier_count(); ++t) CHECK(one.tier_prefix(t) == one.tier_size(t));
  CHECK(to_string(one.canonical(to_position("1_TT-F-F-F-T"))) == "1_TT-F-F-F-T");
}

TEST_CASE("a shorter board embeds in a space as the same game, padded with frozen pieces",
          "[solver][embed]") {
  struct Case {
    int n;
    std::optional<int> t, f;
  };
  for (Case c : {Case{8, std::nullopt, std::nullopt}, Case{9, 3, 3}, Case{8, 2, 4}}) {
    INFO("space of length " << c.n
                            << (c.t ? " with " + std::to_string(*c.t) + " toads and " +
                                          std::to_string(*c.f) + " frogs"
                                    : std::string(" with every count")));
    const SolvedSpace s(tf::SpaceParams{c.n, c.t, c.f});
    uint64_t embedded = 0, bad = 0;
    for (int m = 1; m <= c.n; ++m) {
      for (const std::string& board : all_boards(m)) {
        const auto [t, f] = piece_counts(board);
        // k frogs in front, j toads behind: every count pads with toads; a piece-count
        // space needs exactly its counts
        const int k = c.t ? *c.f - f : 0, j = c.t ? *c.t - t : c.n - m;
        const bool fits = j >= 0 && k >= 0 && j + k == c.n - m;
        for (const char* turn : {"1_", "2_"}) {
          const std::string pos = turn + board;
          const auto e = s.space.embed(to_position(pos));
          if (e.has_value() != fits) {
            if (++bad <= 5) FAIL_CHECK(pos << ": embed " << (e ? "fits" : "does not fit"));
            continue;
          }
          if (!e) continue;
          ++embedded;
          const std::string want = turn + std::string(k, 'F') + board + std::string(j, 'T');
          if (to_string(*e) != want && ++bad <= 5)
            FAIL_CHECK(pos << ": embeds as " << to_string(*e) << ", want " << want);
          // the same game tree: the children of the padded board are the padded children
          std::vector<std::string> padded_kids, kids_of_padded;
          for (const auto& k2 : oracle_children(pos))
            padded_kids.push_back(std::string(1, k2[0]) + "_" + std::string(k, 'F') + k2.substr(2) +
                                  std::string(j, 'T'));
          for (const auto& k2 : s.space.children(*e)) kids_of_padded.push_back(to_string(k2));
          std::sort(padded_kids.begin(), padded_kids.end());
          std::sort(kids_of_padded.begin(), kids_of_padded.end());
          if (padded_kids != kids_of_padded && ++bad <= 5) FAIL_CHECK(pos << ": another game tree");
          // and the same value
          if (!(s.truth(to_string(*e)) == oracle(pos)) && ++bad <= 5)
            FAIL_CHECK(pos << ": padded " << show(s.truth(to_string(*e))) << ", oracle "
                           << show(oracle(pos)));
        }
      }
    }
    CHECK(embedded > 0);
    CHECK(bad == 0);
  }
  // a longer board never embeds
  const tf::Space s8(tf::SpaceParams{8, std::nullopt, std::nullopt});
  CHECK_FALSE(s8.embed(to_position("1_TT-----FF")).has_value());
  CHECK(to_string(*s8.embed(to_position("1_TT-FF"))) == "1_TT-FFTTT");
}

TEST_CASE("the result does not depend on the thread count", "[solver]") {
  const SolvedSpace one(tf::SpaceParams{11, std::nullopt, std::nullopt}, 1);
  const SolvedSpace two(tf::SpaceParams{11, std::nullopt, std::nullopt}, 2);
  CHECK(one.store.records == two.store.records);
}

TEST_CASE("a resumed solve skips committed tiers and finishes the same", "[solver]") {
  const tf::SpaceParams params{10, std::nullopt, std::nullopt};
  const SolvedSpace full(params);
  const tf::Space& space = full.space;
  std::mt19937_64 rng(42);
  uint64_t resolved_kept = 0;  // committed tiers solved again: their tail's source was lost
  for (int round = 0; round < 3; ++round) {
    MemStore partial(space.tier_count());
    partial.allow_recommit = true;
    std::vector<char> kept(space.tier_count(), 0);
    // round 0: a prefix (an interrupted run), cut where the next tier reads committed tiers;
    // later rounds: arbitrary subsets
    TierId cut = space.tier_count() / 3;
    while (space.child_tiers(cut).empty()) ++cut;
    for (TierId t = 0; t < space.tier_count(); ++t) {
      kept[t] = round == 0 ? t < cut : rng() % 3 == 0;
      // a derived tier's records are not in the store: the solver must recompute them
      if (kept[t]) partial.preload(t, full.store.records[t], toadbase::records_kept(space, t));
    }
    // a committed tier counts as done when the tiers its recovery reads are done too: the
    // source of its tail, and a derived tier's children, which must be stored ones: a
    // derived tier over a derived child is solved again
    std::vector<int> memo(space.tier_count(), -1);
    std::function<bool(TierId)> done = [&](TierId t) -> bool {
      if (memo[t] >= 0) return memo[t];
      bool d = kept[t] && (!toadbase::has_tail(space, t) || done(space.tail_source(t)));
      if (!space.tier_stored(t))
        for (TierId c : space.child_tiers(t)) d = d && done(c) && space.tier_stored(c);
      memo[t] = d;
      return d;
    };
    uint64_t done_tiers = 0, rest_positions = 0;
    for (TierId t = 0; t < space.tier_count(); ++t) {
      if (done(t))
        ++done_tiers;
      else
        rest_positions += space.tier_size(t);
      if (kept[t] && !done(t)) ++resolved_kept;
    }
    const auto stats = toadbase::solve_tiers(space, partial, nullptr);
    INFO("round " << round);
    CHECK(stats.tiers_skipped == done_tiers);
    CHECK(stats.tiers_solved == space.tier_count() - done_tiers);
    CHECK(stats.positions_solved == rest_positions);
    CHECK(partial.commits == space.tier_count() - done_tiers);
    CHECK(partial.loads > 0);
    CHECK(partial.records == full.store.records);
  }
  CHECK(resolved_kept > 0);  // the case above happened
}

TEST_CASE("the longest games stay within the bound e(t+f) + tf", "[solver][remoteness]") {
  // the bound of module.hpp's remoteness_bound: up to the longest strip (26 cells) it fits
  // the one-byte record
  unsigned worst_bound = 0;
  for (int n = 1; n <= tf::kMaxLength; ++n)
    for (int t = 0; t <= n; ++t)
      for (int f = 0; t + f <= n; ++f)
        worst_bound = std::max(worst_bound, static_cast<unsigned>((n - t - f) * (t + f) + t * f));
  CHECK(worst_bound == 225);
  CHECK(worst_bound <= toadbase::kMaxStored<ParityRecord>);

  for (int n : {12, 13}) {
    INFO("length " << n);
    const SolvedSpace s(tf::SpaceParams{n, std::nullopt, std::nullopt});
    std::map<std::pair<int, int>, std::pair<unsigned, tf::Position>> longest;
    for (TierId id = 0; id < s.space.tier_count(); ++id) {
      auto& best = longest[{s.space.tier_toads(id), s.space.tier_frogs(id)}];
      const auto& recs = s.store.records[id];
      REQUIRE(recs.size() == s.space.tier_size(id));
      for (uint64_t i = 0; i < recs.size(); ++i)
        if (recs[i] > best.first || (i == 0 && best.first == 0))
          best = {recs[i], s.space.unrank(id, i)};
    }
    unsigned overall = 0;
    std::pair<int, int> overall_counts;
    for (const auto& [counts, best] : longest) {
      const auto [t, f] = counts;
      const unsigned bound = static_cast<unsigned>((n - t - f) * (t + f) + t * f);
      INFO(t << " toads, " << f << " frogs: longest " << to_string(best.second) << " in "
             << best.first << ", bound " << bound);
      CHECK(best.first <= bound);
      if (best.first > overall) overall = best.first, overall_counts = counts;
    }
    // the longest game played out: the winner hurries, the loser stalls, and every step
    // lowers the remoteness by one until a primitive loss
    tf::Position p = longest[overall_counts].second;
    unsigned moves = 0;
    for (;;) {
      const Outcome o = s.outcome(p);
      const auto kids = s.space.children(p);
      if (kids.empty()) {
        CHECK(o.remoteness == 0);
        break;
      }
      const tf::Position* next = nullptr;
      for (const auto& k : kids) {
        const Outcome c = s.outcome(k);
        if (c.remoteness + 1 == o.remoteness && (c.value == Value::Lose) == (o.value == Value::Win))
          next = &k;
      }
      REQUIRE(next != nullptr);
      p = *next;
      ++moves;
    }
    CHECK(moves == overall);
    // the same longest game in its own piece-count space
    const SolvedSpace alone(tf::SpaceParams{n, overall_counts.first, overall_counts.second});
    unsigned alone_max = 0;
    for (const auto& recs : alone.store.records)
      for (Record r : recs) alone_max = std::max<unsigned>(alone_max, r);
    CHECK(alone_max == overall);
  }
}

// ---- the record --------------------------------------------------------------------------

TEST_CASE("the parity record: odd is a win, even a loss, combine follows GamesCrafters",
          "[solver][record]") {
  CHECK(ParityRecord::decode(0) == Outcome{Value::Lose, 0});
  CHECK(ParityRecord::decode(7) == Outcome{Value::Win, 7});
  CHECK(ParityRecord::decode(255) == Outcome{Value::Win, 255});
  CHECK(ParityRecord::decode(254) == Outcome{Value::Lose, 254});
  auto combine = [](std::vector<unsigned> kids) {
    return ParityRecord::combine(static_cast<unsigned>(kids.size()),
                                 [&](unsigned k) { return kids[k]; });
  };
  CHECK(combine({}) == 0);            // primitive loss
  CHECK(combine({0}) == 1);           // win by moving to a primitive loss
  CHECK(combine({1, 3, 5}) == 6);     // every child wins: lose, stalling
  CHECK(combine({5, 4, 2, 9}) == 3);  // win, hurrying to the shortest loss
  CHECK(combine({255}) == 256);       // too big for a byte: the caller must notice
  CHECK(combine({254, 255}) == 255);
}

namespace {

/// A fake game: a chain of `links` positions, one per tier; position k moves to k - 1, so its
/// remoteness is k.
struct ChainGame {
  using Position = uint32_t;
  TierId links;
  bool bad_order = false;          // a tier that names itself as its child
  std::vector<bool> derived = {};  // tiers the game does not store
  bool tier_stored(TierId t) const { return t >= derived.size() || !derived[t]; }
  TierId tier_count() const { return links; }
  uint64_t tier_size(TierId) const { return 1; }
  std::string tier_name(TierId t) const { return "link" + std::to_string(t); }
  std::vector<TierId> child_tiers(TierId t) const {
    if (bad_order && t == 3) return {3};
    return t ? std::vector<TierId>{t - 1} : std::vector<TierId>{};
  }
  Position unrank(TierId t, uint64_t) const { return t; }
  toadbase::TierIndex rank(const Position& p) const { return {p, 0}; }
  std::vector<Position> children(const Position& p) const {
    return p ? std::vector<Position>{p - 1} : std::vector<Position>{};
  }
  // either scan protocol: a lambda (index, children, count), or a visitor with
  // child(slot, index, real) and position(index)
  template <class Visit>
  void scan(TierId t, uint64_t lo, uint64_t hi, Visit&& visit) const {
    for (uint64_t i = lo; i < hi; ++i) {
      if constexpr (std::is_invocable_v<Visit&, uint64_t, const toadbase::Child*, unsigned>) {
        const toadbase::Child c{0, 0};
        visit(i, &c, t ? 1u : 0u);
      } else {
        if (t) visit.child(0, 0, true);
        visit.position(i);
      }
    }
  }
};
static_assert(toadbase::TierGame<ChainGame>);

/// A fake game of stored tiers s_i = 2i and derived ones d_i = 2i + 1 (i < pairs), four
/// scanned positions each, position j moving to position j of its one child tier:
///   s_0 none, d_i s_i, s_i (i > 0) d_{i-1}.
/// d_i (i > 0) ends in a tail of four positions copied from d_{i-1}'s first four, so the
/// derived tiers' tails chain down to d_0.
struct TailChainGame {
  using Position = std::pair<TierId, uint64_t>;
  TierId pairs;
  static constexpr uint64_t kScanned = 4;
  bool tier_stored(TierId t) const { return t % 2 == 0; }
  TierId tier_count() const { return 2 * pairs; }
  uint64_t tier_size(TierId t) const { return t >= 3 && t % 2 ? 2 * kScanned : kScanned; }
  uint64_t tier_prefix(TierId) const { return kScanned; }
  TierId tail_source(TierId t) const { return t - 2; }
  template <class R>
  void fill_tail(TierId, const R* source, R* out) const {
    std::copy_n(source, kScanned, out + kScanned);
  }
  std::string tier_name(TierId t) const { return (t % 2 ? "d" : "s") + std::to_string(t / 2); }
  std::vector<TierId> child_tiers(TierId t) const {
    return t ? std::vector<TierId>{t - 1} : std::vector<TierId>{};
  }
  Position unrank(TierId t, uint64_t i) const { return {t, i}; }
  toadbase::TierIndex rank(const Position& p) const { return {p.first, p.second}; }
  std::vector<Position> children(const Position& p) const {
    if (p.first == 0) return {};
    return {{p.first - 1, p.second % kScanned}};
  }
  template <class Visit>
  void scan(TierId t, uint64_t lo, uint64_t hi, Visit&& visit) const {
    for (uint64_t i = lo; i < hi; ++i) {
      if (t) visit.child(0, i, true);
      visit.position(i);
    }
  }
};
static_assert(toadbase::TierGame<TailChainGame>);

/// A fake game whose tier k reads every tier below it (one position each, moving to each
/// of them): a solve holds every tier to the last level; a pass loading them holds none.
struct FanGame {
  using Position = TierId;
  TierId tiers;
  TierId tier_count() const { return tiers; }
  uint64_t tier_size(TierId) const { return 1; }
  std::string tier_name(TierId t) const { return "fan" + std::to_string(t); }
  std::vector<TierId> child_tiers(TierId t) const {
    std::vector<TierId> below(t);
    for (TierId c = 0; c < t; ++c) below[c] = c;
    return below;
  }
  Position unrank(TierId t, uint64_t) const { return t; }
  toadbase::TierIndex rank(const Position& p) const { return {p, 0}; }
  std::vector<Position> children(const Position& p) const { return child_tiers(p); }
  template <class Visit>
  void scan(TierId t, uint64_t lo, uint64_t hi, Visit&& visit) const {
    for (uint64_t i = lo; i < hi; ++i) {
      for (uint32_t c = 0; c < t; ++c) visit.child(c, 0, true);
      visit.position(i);
    }
  }
};
static_assert(toadbase::TierGame<FanGame>);

}  // namespace

TEST_CASE("a remoteness above 255 throws overflow_error instead of wrapping",
          "[solver][remoteness]") {
  SECTION("255 fits") {
    const ChainGame g{256};
    MemStore store(g.links);
    toadbase::solve_tiers(g, store, nullptr);
    for (TierId t = 0; t < g.links; ++t)
      REQUIRE(store.records[t] == std::vector<Record>{static_cast<Record>(t)});
  }
  for (TierId links : {257u, 300u}) {
    DYNAMIC_SECTION(links << " links overflow at link 256") {
      const ChainGame g{links};
      MemStore store(g.links);
      try {
        toadbase::solve_tiers(g, store, nullptr);
        FAIL("no overflow_error");
      } catch (const std::overflow_error& e) {
        CHECK_THAT(std::string(e.what()), Catch::Matchers::Contains("link256"));
      }
      CHECK(store.committed[255]);
      CHECK_FALSE(store.committed[256]);  // the overflowing tier is never committed
    }
  }
}

TEST_CASE("the wide record holds what overflows the one-byte one", "[solver][remoteness][wide]") {
  const ChainGame g{300};
  tbtest::BasicMemStore<uint16_t> store(g.links);
  toadbase::solve_tiers<ChainGame, toadbase::WideParityRecord>(g, store, nullptr);
  for (TierId t = 0; t < g.links; ++t) {
    INFO("link " << t);
    REQUIRE(store.records[t] == std::vector<uint16_t>{static_cast<uint16_t>(t)});
    CHECK(toadbase::WideParityRecord::decode(store.records[t][0]) ==
          Outcome{t % 2 ? Value::Win : Value::Lose, static_cast<unsigned>(t)});
  }
}

TEST_CASE("a game whose tier order is wrong is refused", "[solver]") {
  const ChainGame g{10, true};
  MemStore store(g.links);
  CHECK_THROWS_AS(toadbase::solve_tiers(g, store, nullptr), std::logic_error);
  CHECK(store.commits == 0);
}

TEST_CASE("progress lines name every tier, and the last line the totals", "[solver][progress]") {
  const tf::Space s(tf::SpaceParams{4, std::nullopt, std::nullopt});
  std::ostringstream out;
  {
    MemStore store(s.tier_count());
    toadbase::tools::ProgressReport progress(&out, false, "solve test", s.total_positions(), s.tier_count(),
                                0.0);
    toadbase::solve_tiers(s, store, &progress);
    progress.finish();
    CHECK(progress.positions_done() == s.total_positions());
  }
  std::vector<std::string> lines;
  std::istringstream in(out.str());
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  REQUIRE(lines.size() == s.tier_count() + 1);
  // the tiers of one level run side by side, so the lines count up but name the tiers in
  // the order they finished: every tier exactly once
  std::multiset<std::string> named, want;
  for (TierId t = 0; t < s.tier_count(); ++t) {
    INFO(lines[t]);
    const std::string head =
        "tier " + std::to_string(t + 1) + "/" + std::to_string(s.tier_count()) + " ";
    REQUIRE_THAT(lines[t], Catch::Matchers::Contains(head));
    const size_t at = lines[t].find(head) + head.size();
    named.insert(lines[t].substr(at, lines[t].find(',', at) - at));
    want.insert(s.tier_name(t));
  }
  CHECK(named == want);
  CHECK_THAT(lines.back(),
             Catch::Matchers::Contains("done, " + std::to_string(s.tier_count()) + " tiers, " +
                                       std::to_string(s.total_positions()) + " positions"));
  // a resumed solve counts what an earlier run committed
  const SolvedSpace full(tf::SpaceParams{4, std::nullopt, std::nullopt});
  MemStore half(s.tier_count());
  half.allow_recommit = true;  // a derived tier over a derived one is solved again
  for (TierId t = 0; t < s.tier_count() / 2; ++t)
    half.preload(t, full.store.records[t], toadbase::records_kept(s, t));
  std::ostringstream out2;
  toadbase::tools::ProgressReport progress(&out2, false, "solve test", s.total_positions(), s.tier_count(), 0.0);
  const auto stats = toadbase::solve_tiers(s, half, &progress);
  progress.finish();
  const uint64_t skipped = s.total_positions() - stats.positions_solved;
  CHECK(skipped > 0);
  CHECK_THAT(out2.str(),
             Catch::Matchers::Contains("(" + std::to_string(skipped) + " already committed)"));
}

TEST_CASE("a resumed solve frees a tier whose readers an earlier run committed",
          "[solver][resume]") {
  // groups of tiers may reach the disk out of order (one a committing thread), so a resumed
  // solve can find a parent committed and its child not: the child is solved again, and no
  // later level reads it, so it must not stay in memory to the end
  const ChainGame g{8};
  MemStore full(g.links);
  const auto whole = toadbase::solve_tiers(g, full, nullptr);
  MemStore partial(g.links);
  partial.preload(1, full.records[1],
                  toadbase::kAllRecords);  // link 1 on disk, link 0 (its child) not
  const auto stats = toadbase::solve_tiers(g, partial, nullptr);
  CHECK(stats.tiers_skipped == 1);
  CHECK(partial.records == full.records);
  CHECK(stats.peak_bytes_in_flight == whole.peak_bytes_in_flight);
}

TEST_CASE("derived tiers: recomputed on resume from stored children, never loaded",
          "[solver][derived]") {
  ChainGame g{40};
  g.derived.assign(40, false);
  for (TierId t = 1; t < 40; t += 2) g.derived[t] = true;  // every odd link
  MemStore full(g.links);
  toadbase::solve_tiers(g, full, nullptr);
  for (TierId t = 0; t < g.links; ++t) {
    INFO("link " << t);
    CHECK(full.records[t] == std::vector<Record>{static_cast<Record>(t)});
    CHECK(full.kept[t] == (g.derived[t] ? 0u : 1u));
  }
  for (TierId cut : {8u, 9u, 21u}) {
    INFO("resumed after link " << cut - 1);
    MemStore partial(g.links);
    for (TierId t = 0; t < cut; ++t)
      partial.preload(t, full.records[t], g.derived[t] ? 0 : toadbase::kAllRecords);
    const auto stats = toadbase::solve_tiers(g, partial, nullptr);
    CHECK(stats.tiers_skipped == cut);
    CHECK(partial.records == full.records);
  }
  // a derived tier whose child is derived too is solved again in its level, not recovered
  // through the chain: recovering link 7 would rebuild 6, 5 and load 4, all held at once
  ChainGame deep{12};
  deep.derived = {false, false, false, false, false, true, true, true};
  MemStore all(deep.links);
  const auto fresh = toadbase::solve_tiers(deep, all, nullptr);
  MemStore partial(deep.links);
  partial.allow_recommit = true;  // links 6 and 7, committed again
  for (TierId t = 0; t < 8; ++t)
    partial.preload(t, all.records[t], deep.derived[t] ? 0 : toadbase::kAllRecords);
  const auto stats = toadbase::solve_tiers(deep, partial, nullptr);
  CHECK(stats.tiers_skipped == 6);  // links 0-5: 5 is derived over the stored 4
  CHECK(stats.tiers_solved == 6);   // 6 and 7 again, then 8-11
  CHECK(partial.records == all.records);
  CHECK(partial.loads == 1);  // link 4, under link 5, the one a solved link 6 reads
  // link 4 held under 5 while 6 is solved: one more than a fresh solve, not the chain
  CHECK(stats.peak_bytes_in_flight <= fresh.peak_bytes_in_flight + 1);
}

TEST_CASE("a resume rebuilds a chain of derived tails one link at a time", "[solver][derived][resume]") {
  // every tier up to d_9 committed, s_10 not: s_10 reads d_9, whose tail comes from d_8,
  // whose tail from d_7 ... down to d_0. Recovered and held to the level's end, the whole
  // chain (ten derived tiers and the stored tier under each) was in memory at once.
  const TailChainGame g{14};
  MemStore all(g.tier_count());
  const auto fresh = toadbase::solve_tiers(g, all, nullptr);
  for (TierId t = 0; t < g.tier_count(); ++t) {
    INFO(g.tier_name(t));
    REQUIRE(all.records[t].size() == g.tier_size(t));
    CHECK(all.kept[t] == (g.tier_stored(t) ? TailChainGame::kScanned : 0u));
    CHECK(all.records[t][0] == static_cast<Record>(t));  // position 0 of tier t: t plies to the end
  }
  MemStore partial(g.tier_count());
  for (TierId t = 0; t < 20; ++t) partial.preload(t, all.records[t], g.tier_stored(t) ? toadbase::kAllRecords : 0);
  const auto stats = toadbase::solve_tiers(g, partial, nullptr);
  CHECK(stats.tiers_skipped == 20);
  CHECK(partial.records == all.records);
  // d_9 rebuilt, with what makes it (d_8, s_9), beside s_10: within one link of a fresh solve
  INFO("fresh " << fresh.peak_bytes_in_flight << ", resumed " << stats.peak_bytes_in_flight);
  CHECK(stats.peak_bytes_in_flight <= fresh.peak_bytes_in_flight + 2 * TailChainGame::kScanned);
}

TEST_CASE("recovery_reads names what recovering a tier fetches, in order, and a store of the wrong size is refused",
          "[solver][derived][resume]") {
  // the walk holds recovery_reads(t) before it recovers t, then lets them go: a fetch it did
  // not name would be recovered again, uncounted
  const SolvedSpace s(tf::SpaceParams{7, std::nullopt, std::nullopt});
  for (TierId t = 0; t < s.space.tier_count(); ++t) {
    INFO(s.space.tier_name(t));
    std::vector<TierId> fetched;
    std::map<TierId, std::vector<Record>> whole;
    std::function<const Record*(TierId)> fetch = [&](TierId c) -> const Record* {
      fetched.push_back(c);
      if (!whole.count(c)) whole[c] = toadbase::recover_tier<tf::Space, toadbase::ParityRecord>(s.space, s.store, c);
      return whole[c].data();
    };
    std::vector<Record> out(s.space.tier_size(t));
    toadbase::recover_into<tf::Space, toadbase::ParityRecord>(s.space, s.store, t, fetch, out.data());
    CHECK(fetched == toadbase::recovery_reads(s.space, s.store, t));
    // what the space says a recovery needs: the tail's source first (unless kept whole), then
    // a derived tier's children
    std::vector<TierId> want;
    const bool tail = s.space.tier_prefix(t) < s.space.tier_size(t);
    if (tail && !(s.space.tier_stored(t) && s.store.tier_kept(t) == s.space.tier_size(t)))
      want.push_back(s.space.tail_source(t));
    if (!s.space.tier_stored(t))
      for (TierId c : s.space.child_tiers(t)) want.push_back(c);
    CHECK(fetched == want);
    CHECK(toadbase::tier_digest(out.data(), out.size(), 1) == s.store.digest_of(t));
  }
  // a stored tier with a tail whose store keeps neither its prefix nor the whole of it
  TierId tailed = s.space.tier_count();
  for (TierId t = 0; t < s.space.tier_count() && tailed == s.space.tier_count(); ++t)
    if (s.space.tier_stored(t) && s.space.tier_prefix(t) > 1 && s.space.tier_prefix(t) < s.space.tier_size(t)) tailed = t;
  REQUIRE(tailed < s.space.tier_count());
  MemStore bad = s.store;
  bad.kept[tailed] = s.space.tier_prefix(tailed) - 1;
  CHECK_THROWS_WITH(toadbase::recovery_reads(s.space, bad, tailed), Contains("has the wrong size"));
  CHECK_THROWS_WITH((toadbase::recover_tier<tf::Space, toadbase::ParityRecord>(s.space, bad, tailed)),
                    Contains("has the wrong size"));
}

TEST_CASE("read_tiers loads a stored tier without holding its children", "[solver][analyze]") {
  // a solve holds every tier of FanGame to the last level; a pass that loads them needs none
  const FanGame g{24};
  MemStore store(g.tiers);
  const auto solved = toadbase::solve_tiers(g, store, nullptr);
  CHECK(solved.peak_bytes_in_flight >= g.tiers - 1);
  std::vector<int> seen(g.tiers, 0);
  std::mutex mu;
  bool same = true;
  const uint64_t peak = toadbase::with_threads(2, [&] {
    return toadbase::read_tiers<FanGame, toadbase::ParityRecord>(
        g, store, [&](TierId t, std::span<const uint8_t> whole, const auto&) {
          std::lock_guard lock(mu);
          ++seen[t];
          same = same && std::equal(whole.begin(), whole.end(), store.records[t].begin(), store.records[t].end());
        });
  });
  CHECK(same);
  CHECK(std::all_of(seen.begin(), seen.end(), [](int k) { return k == 1; }));
  CHECK(peak <= 2);  // a tier a thread
}

namespace {
/// A fake game whose top tier's positions have more children than kMaxChildren, the
/// decisive one among the last:
///   tier 0 no move (a loss), tiers 1 .. w-2 move to tier 0 (wins in 1), tier w-1 to
///   tier 1 (a loss in 2), tier w to tier w-1 (a win in 3), one position each; the top,
///   tier w + 1, has three positions, position j moving j + 1 times over to each of tiers
///   1 .. w in order (w, 2w and 3w children): each a win in 3, through tier w-1.
struct WideGame {
  using Position = std::pair<TierId, uint64_t>;
  TierId w;
  TierId tier_count() const { return w + 2; }
  uint64_t tier_size(TierId t) const { return t == w + 1 ? 3 : 1; }
  std::string tier_name(TierId t) const { return "wide" + std::to_string(t); }
  std::vector<TierId> child_tiers(TierId t) const {
    if (t == 0) return {};
    if (t == w + 1) {
      std::vector<TierId> all(w);
      for (TierId c = 0; c < w; ++c) all[c] = c + 1;
      return all;
    }
    return {t == w - 1 ? 1 : t == w ? w - 1 : 0};
  }
  Position unrank(TierId t, uint64_t i) const { return {t, i}; }
  toadbase::TierIndex rank(const Position& p) const { return {p.first, p.second}; }
  std::vector<Position> children(const Position& p) const {
    std::vector<Position> out;
    for (uint64_t again = 0; again <= (p.first == w + 1 ? p.second : 0); ++again)
      for (TierId c : child_tiers(p.first)) out.push_back({c, 0});
    return out;
  }
  template <class Visit>
  void scan(TierId t, uint64_t lo, uint64_t hi, Visit&& visit) const {
    for (uint64_t i = lo; i < hi; ++i) {
      for (const Position& c : children({t, i})) visit.child(c.first == 0 ? 0 : (t == w + 1 ? c.first - 1 : 0), 0, true);
      visit.position(i);
    }
  }
};
static_assert(toadbase::TierGame<WideGame>);
}  // namespace

TEST_CASE("verify reads every child of positions with more than kMaxChildren of them", "[solver][verify]") {
  const WideGame g{toadbase::kMaxChildren + 16};
  const TierId top = g.w + 1;
  MemStore store(g.tier_count());
  toadbase::solve_tiers(g, store, nullptr);
  REQUIRE(store.records[top] == std::vector<Record>{3, 3, 3});  // wins in 3
  const auto verify = [&](const MemStore& s) {
    return toadbase::verify_tiers<WideGame, ParityRecord>(
        g, s, nullptr, [&](const WideGame::Position& p) { return toadbase::probe(g, s, p); },
        [](const WideGame::Position& p) { return "wide" + std::to_string(p.first) + "." + std::to_string(p.second); });
  };
  const auto good = toadbase::with_threads(1, [&] { return verify(store); });
  CHECK(good.ok);
  CHECK(good.problem.empty());
  CHECK(good.positions_checked == g.tier_count() + 2);
  // the last position stored as a win in 5: recomputed from all its 3w children, after two
  // positions with w and 2w in the same run, a win in 3
  MemStore bad = store;
  bad.records[top][2] = 5;
  const auto rep = toadbase::with_threads(1, [&] { return verify(bad); });
  CHECK_FALSE(rep.ok);
  CHECK_THAT(rep.problem, Catch::Matchers::Contains("tier wide" + std::to_string(top) + " index 2 (wide" +
                                                    std::to_string(top) + ".2): stored win in 5, recomputed win in 3"));
}

TEST_CASE("read_tiers gives every tier once, with the solve's records, holding no more than the solve",
          "[solver][derived][analyze]") {
  // analyze reads a solved store this way: derived tiers (Frogs to move, and every tier with
  // more toads than frogs) are solved again from their children in level order; read one
  // at a time through their chains instead, a length-22 analyze ran out of 24 GiB
  for (int n : {9, 12}) {
    INFO("length " << n);
    // solved with the threads it is read with: the tiers in flight depend on them
    const SolvedSpace full(tf::SpaceParams{n, std::nullopt, std::nullopt}, 2);
    std::vector<int> seen(full.space.tier_count(), 0);
    std::mutex mu;
    uint64_t bad = 0, derived = 0;
    const uint64_t peak = toadbase::with_threads(2, [&] {
      return toadbase::read_tiers<tf::Space, toadbase::ParityRecord>(
          full.space, full.store, [&](TierId t, std::span<const uint8_t> whole, const auto& held) {
            const std::vector<uint8_t>& want = full.store.records[t];
            const bool same = std::equal(whole.begin(), whole.end(), want.begin(), want.end());
            // every tier read to make t is held while t is given: a derived tier's children,
            // a tail's source
            bool reads_held = true;
            if (!full.space.tier_stored(t))
              for (TierId c : full.space.child_tiers(t)) reads_held = reads_held && held(c) != nullptr;
            if (toadbase::has_tail(full.space, t))
              reads_held = reads_held && held(full.space.tail_source(t)) != nullptr;
            std::lock_guard lock(mu);
            ++seen[t];
            if (!same || !reads_held) ++bad;
            if (!full.space.tier_stored(t)) ++derived;
          });
    });
    CHECK(bad == 0);
    CHECK(derived > 0);
    CHECK(std::all_of(seen.begin(), seen.end(), [](int k) { return k == 1; }));
    CHECK(peak <= full.stats.peak_bytes_in_flight);
  }
}
