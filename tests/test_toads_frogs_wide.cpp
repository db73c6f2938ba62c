// Wide records: a space whose games can outlast 255 moves is solved with the two-byte parity
// record (Toads and Frogs never needs it up to its longest strip, so it is given by hand).
// Forced on small spaces, it must give the values of the one-byte record through the engine
// and every command.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "solver/core/engine.hpp"
#include "solver/module/tier_module.hpp"
#include "solver/games/toads_frogs/module.hpp"
#include "support.hpp"
#include "tools/registry.hpp"

using namespace tbtest;
using Catch::Matchers::Contains;
using json = nlohmann::json;
using toadbase::Outcome;
using toadbase::ParityRecord;
using toadbase::WideParityRecord;

TEST_CASE("wide record: decodes and combines as the one-byte record, and goes on to 65535", "[wide][record]") {
  for (unsigned r = 0; r < 256; ++r) CHECK(WideParityRecord::decode(static_cast<uint16_t>(r)) == ParityRecord::decode(static_cast<uint8_t>(r)));
  // the hot loop's accumulator against combine(), on random children, both records
  std::mt19937 rng(7);
  uint64_t bad = 0;
  for (int round = 0; round < 20000; ++round) {
    const unsigned count = static_cast<unsigned>(rng() % 5);
    std::vector<uint16_t> wide(count);
    std::vector<uint8_t> narrow(count);
    const bool small = round % 2;
    for (unsigned k = 0; k < count; ++k) {
      wide[k] = static_cast<uint16_t>(small ? rng() % 200 : rng() % 65535);
      narrow[k] = static_cast<uint8_t>(wide[k] % 200);
    }
    // child k at index 0 of its own slot
    std::vector<const uint16_t*> wide_slots;
    std::vector<const uint8_t*> narrow_slots;
    for (unsigned k = 0; k < count; ++k) wide_slots.push_back(&wide[k]), narrow_slots.push_back(&narrow[k]);
    uint16_t wide_out = 0;
    uint8_t narrow_out = 0;
    WideParityRecord::Accumulator wa{wide_slots, &wide_out};
    ParityRecord::Accumulator na{narrow_slots, &narrow_out};
    for (unsigned k = 0; k < count; ++k) wa.child(k, 0, true), na.child(k, 0, true);
    if (count > 0) wa.child(0, 0, false);  // not a move (a slot that exists): changes nothing
    wa.position(0);
    na.position(0);
    const unsigned want = WideParityRecord::combine(count, [&](unsigned k) { return wide[k]; });
    bad += want <= 65535 ? (wa.overflowed() || wide_out != want) : !wa.overflowed();
    bad += narrow_out != ParityRecord::combine(count, [&](unsigned k) { return narrow[k]; });
    if (small) bad += wide_out != narrow_out;
  }
  CHECK(bad == 0);
  auto combine = [](std::vector<unsigned> kids) {
    return WideParityRecord::combine(static_cast<unsigned>(kids.size()), [&](unsigned k) { return kids[k]; });
  };
  CHECK(combine({300}) == 301);            // a losing child: a win
  CHECK(combine({301, 4001}) == 4002);     // every child wins: the longest loss
  CHECK(combine({65535}) == 65536);        // past the record: the caller reports the overflow
  CHECK(WideParityRecord::decode(4001) == Outcome{toadbase::Value::Win, 4001});
  CHECK(WideParityRecord::gamescrafters16_fits(4095));
  CHECK_FALSE(WideParityRecord::gamescrafters16_fits(4096));
}

TEST_CASE("the one-byte record's hot-loop accumulator: combine's value, and an overflow only at 256",
          "[wide][record]") {
  // every one- and two-child set of records, and none: the accumulator writes combine()'s
  // value, and says it overflowed exactly when combine() passes 255 (every child a win of 255)
  auto run = [](std::vector<uint8_t> kids) {
    std::vector<const uint8_t*> slots;
    for (const uint8_t& k : kids) slots.push_back(&k);
    uint8_t out = 0;
    ParityRecord::Accumulator acc{slots, &out};
    for (uint32_t k = 0; k < kids.size(); ++k) acc.child(k, 0, true);
    if (!kids.empty()) acc.child(0, 0, false);  // not a move (a slot that exists): changes nothing
    acc.position(0);
    const unsigned want = ParityRecord::combine(static_cast<unsigned>(kids.size()), [&](unsigned k) { return kids[k]; });
    return (acc.overflowed() != (want > 255)) || (want <= 255 && out != want);
  };
  uint64_t bad = run({});
  for (unsigned a = 0; a < 256; ++a) {
    bad += run({static_cast<uint8_t>(a)});
    for (unsigned b = 0; b < 256; ++b) bad += run({static_cast<uint8_t>(a), static_cast<uint8_t>(b)});
  }
  CHECK(bad == 0);
  // an overflow is remembered across the positions that follow it
  std::vector<uint8_t> records = {255, 3, 4};
  std::vector<const uint8_t*> slots = {records.data()};
  std::vector<uint8_t> out(3);
  ParityRecord::Accumulator acc{slots, out.data()};
  acc.child(0, 0, true);
  acc.position(0);  // every child a win of 255: a loss of 256
  CHECK(acc.overflowed());
  acc.child(0, 1, true);
  acc.position(1);
  acc.child(0, 2, true);
  acc.position(2);
  CHECK(acc.overflowed());
  CHECK(out[1] == 4);
  CHECK(out[2] == 5);
  ParityRecord::Accumulator fine{slots, out.data()};
  fine.child(0, 1, true);
  fine.child(0, 2, true);
  fine.position(0);  // a losing child of 4: a win of 5
  CHECK(!fine.overflowed());
  CHECK(out[0] == 5);
}

TEST_CASE("wide record forced: the values of the narrow one through solve, verify and probe", "[wide]") {
  const tf::Space space(tf::SpaceParams{9, std::nullopt, std::nullopt});
  MemStore narrow(space.tier_count());
  toadbase::solve_tiers(space, narrow, nullptr);
  BasicMemStore<uint16_t> wide(space.tier_count());
  toadbase::with_threads(2, [&] { return toadbase::solve_tiers<tf::Space, WideParityRecord>(space, wide, nullptr); });
  uint64_t bad = 0;
  for (TierId t = 0; t < space.tier_count(); ++t) {
    REQUIRE(wide.records[t].size() == narrow.records[t].size());
    for (size_t i = 0; i < wide.records[t].size(); ++i) bad += wide.records[t][i] != narrow.records[t][i];
    bad += wide.kept[t] != narrow.kept[t];
  }
  CHECK(bad == 0);
  for (const std::string& board : all_boards(9))
    for (const char* turn : {"1_", "2_"}) {
      const tf::Position p = to_position(turn + board);
      bad += !(toadbase::probe<tf::Space, WideParityRecord>(space, wide, p) == toadbase::probe(space, narrow, p));
    }
  CHECK(bad == 0);
  const auto rep = toadbase::verify_tiers<tf::Space, WideParityRecord>(
      space, wide, nullptr, [&](const tf::Position& p) { return toadbase::probe<tf::Space, WideParityRecord>(space, wide, p); },
      [](const tf::Position& p) { return tf::format(p); });
  CHECK(rep.ok);
  CHECK(rep.positions_checked == space.total_positions());
  // a damaged high byte is caught by verify
  BasicMemStore<uint16_t> damaged = wide;
  TierId stored = 0;
  while (!(space.tier_stored(stored) && space.tier_prefix(stored) > 3)) ++stored;
  damaged.records[stored][2] = static_cast<uint16_t>(damaged.records[stored][2] + 256);
  const auto bad_rep = toadbase::verify_tiers<tf::Space, WideParityRecord>(
      space, damaged, nullptr, [&](const tf::Position& p) { return toadbase::probe<tf::Space, WideParityRecord>(space, damaged, p); },
      [](const tf::Position& p) { return tf::format(p); });
  CHECK_FALSE(bad_rep.ok);
  CHECK_THAT(bad_rep.problem, Contains(space.tier_name(stored) + " index 2"));
}

namespace {

// The longest game (any sequence of moves, either player's) from a board, by playing every
// game out: the rules written again from the spec, on strings.
int longest_game(const std::string& board, std::map<std::string, int>& memo) {
  if (const auto it = memo.find(board); it != memo.end()) return it->second;
  const int n = static_cast<int>(board.size());
  int best = 0;
  for (int i = 0; i < n; ++i) {
    std::string next = board;
    if (board[i] == 'T') {
      const int to = i + 1 < n && board[i + 1] == '-' ? i + 1 : i + 2 < n && board[i + 1] == 'F' && board[i + 2] == '-' ? i + 2 : -1;
      if (to < 0) continue;
      next[i] = '-', next[to] = 'T';
    } else if (board[i] == 'F') {
      const int to = i >= 1 && board[i - 1] == '-' ? i - 1 : i >= 2 && board[i - 1] == 'T' && board[i - 2] == '-' ? i - 2 : -1;
      if (to < 0) continue;
      next[i] = '-', next[to] = 'F';
    } else {
      continue;
    }
    best = std::max(best, 1 + longest_game(next, memo));
  }
  return memo[board] = best;
}

}  // namespace

TEST_CASE("the remoteness bound e(t+f) + tf is the longest game of every space with an empty cell",
          "[wide]") {
  using M = toadbase::toads_frogs::Module;
  for (int n = 1; n <= 10; ++n) {
    std::map<std::pair<int, int>, int> longest;  // (toads, frogs) -> the longest game of the space
    std::map<std::string, int> memo;
    for (const std::string& board : all_boards(n)) {
      const int t = static_cast<int>(std::count(board.begin(), board.end(), 'T'));
      const int f = static_cast<int>(std::count(board.begin(), board.end(), 'F'));
      int& worst = longest[{t, f}];
      worst = std::max(worst, longest_game(board, memo));
    }
    int whole = 0;
    for (const auto& [tf, worst] : longest) {
      const auto [t, f] = tf;
      const uint64_t bound = M::remoteness_bound({{"length", n}, {"toads", t}, {"frogs", f}});
      INFO(n << " cells, " << t << " toads, " << f << " frogs: longest game " << worst);
      CHECK(static_cast<uint64_t>(worst) <= bound);
      if (t + f < n) CHECK(static_cast<uint64_t>(worst) == bound);  // tight
      whole = std::max(whole, worst);
    }
    CHECK(M::remoteness_bound({{"length", n}}) == static_cast<uint64_t>(whole));
  }
}

TEST_CASE("the game picks its record from the space's remoteness bound", "[wide]") {
  using M = toadbase::toads_frogs::Module;
  CHECK(M::remoteness_bound({{"length", 22}}) == 161);  // 7 toads, 8 frogs, 7 empty cells
  CHECK(M::remoteness_bound({{"length", 24}}) == 192);
  CHECK(M::remoteness_bound({{"length", 23}, {"toads", 11}, {"frogs", 12}}) == 11 * 12);
  CHECK(M::remoteness_bound({{"length", 23}, {"toads", 3}, {"frogs", 3}}) == 17 * 6 + 9);
  // every length the game takes keeps one-byte records; the first that would not is 28
  for (int n = 1; n <= toadbase::toads_frogs::kMaxLength; ++n)
    CHECK(M::remoteness_bound({{"length", n}}) <= 255);
  CHECK(M::remoteness_bound({{"length", 27}}) == 243);
  CHECK(M::remoteness_bound({{"length", 28}}) == 261);
  CHECK(M::remoteness_bound({{"length", 28}, {"toads", 5}, {"frogs", 5}}) == 18 * 10 + 25);
  const auto* g = toadbase::tools::find_game("toads-frogs");
  REQUIRE(g != nullptr);
  auto record_of = [&](const json& given, const std::string& record = "") {
    const toadbase::Identity id = g->instance(g->normalize(given), record)->identity();
    return id.record + "/" + std::to_string(id.record_bytes);
  };
  CHECK(record_of({{"length", 12}}) == "remoteness-u8-parity/1");
  CHECK(record_of({{"length", 23}, {"toads", 11}, {"frogs", 12}}) == "remoteness-u8-parity/1");  // was two bytes
  CHECK(record_of({{"length", 8}}, "remoteness-u16-parity") == "remoteness-u16-parity/2");
  CHECK_THROWS_WITH(record_of({{"length", 8}}, "remoteness-u32"),
                    Contains("no record 'remoteness-u32'") && Contains("remoteness-u8-parity or remoteness-u16-parity"));
  CHECK(g->records() == std::vector<std::string>{"remoteness-u8-parity", "remoteness-u16-parity"});
  const auto* puzzle = toadbase::tools::find_game("frog-puzzle");
  REQUIRE(puzzle != nullptr);
  CHECK(puzzle->records() == std::vector<std::string>{"puzzle-remoteness-u8"});
}

TEST_CASE("cli: a database of wide records answers every command as the narrow one does", "[wide][cli]") {
  TempDir dir("wide-cli");
  const std::string narrow = dir / "narrow", wide = dir / "wide";
  const json n = json::parse(ok({"solve", "toads-frogs", "--length", "8", "--db", narrow, "--quiet", "--json"}).out);
  const json w = json::parse(ok({"solve", "toads-frogs", "--length", "8", "--record", "remoteness-u16-parity", "--db",
                                 wide, "--quiet", "--json"})
                                 .out);
  CHECK(n.at("record") == "remoteness-u8-parity");
  CHECK(w.at("record") == "remoteness-u16-parity");
  CHECK(w.at("digest") != n.at("digest"));  // the digest is over the byte planes
  const json info = json::parse(ok({"info", "--db", wide, "--json"}).out);
  CHECK(info.at("record") == "remoteness-u16-parity");
  CHECK(info.at("recordBytes") == 2);
  // every position, both players to move, through query
  std::string positions;
  for (const std::string& board : all_boards(8)) positions += "1_" + board + "\n2_" + board + "\n";
  CHECK(ok({"query", "--db", wide, "-"}, positions).out == ok({"query", "--db", narrow, "-"}, positions).out);
  CHECK(ok({"analyze", "--db", wide, "--json"}).out == ok({"analyze", "--db", narrow, "--json"}).out);
  CHECK_THAT(ok({"verify", "--db", wide, "--quiet"}).out, Contains("OK"));
  // validate: claims from the oracle
  std::string tsv;
  for (const std::string& board : all_boards(8)) {
    const Truth t = oracle("1_" + board);
    tsv += "1_" + board + "\t" + (t.win ? "win" : "lose") + "\t" + std::to_string(t.remoteness) + "\n";
  }
  write_file(dir / "claims.tsv", tsv);
  CHECK_THAT(ok({"validate", "--db", wide, dir / "claims.tsv"}).out, Contains("6561 agreeing, 0 disagreeing"));
  // export: two bytes a record (little-endian) with the same values; the same 16-bit records
  ok({"export", "--db", narrow, dir / "n.raw"});
  ok({"export", "--db", wide, dir / "w.raw"});
  const std::string nr = read_file(dir / "n.raw"), wr = read_file(dir / "w.raw");
  REQUIRE(wr.size() == 2 * nr.size());
  uint64_t bad = 0;
  for (size_t i = 0; i < nr.size(); ++i) bad += wr[2 * i] != nr[i] || wr[2 * i + 1] != 0;
  CHECK(bad == 0);
  ok({"export", "--db", narrow, "--format", "gamescrafters16", dir / "n.gc"});
  ok({"export", "--db", wide, "--format", "gamescrafters16", dir / "w.gc"});
  CHECK(read_file(dir / "n.gc") == read_file(dir / "w.gc"));
  // without --record a solve takes the record of the database it resumes or reports; another
  // record given is refused by name
  CHECK_THAT(ok({"solve", "toads-frogs", "--length", "8", "--db", wide}).out, Contains("already complete"));
  const RunResult r =
      run_toadbase({"solve", "toads-frogs", "--length", "8", "--db", wide, "--record", "remoteness-u8-parity"});
  CHECK(r.rc == 1);
  CHECK_THAT(r.err, Contains("remoteness-u16-parity"));

  const RunResult bogus = run_toadbase({"solve", "toads-frogs", "--length", "8", "--record", "u32", "--db", dir / "x"});
  CHECK(bogus.rc == 2);
  CHECK_THAT(bogus.err, Contains("no record 'u32'"));
}

namespace {
/// The tier of the most positions (the first of them).
TierId largest_tier(const tf::Space& space) {
  TierId big = 0;
  for (TierId t = 0; t < space.tier_count(); ++t)
    if (space.tier_size(t) > space.tier_size(big)) big = t;
  return big;
}

/// Toads and Frogs whose step to the next index goes wrong once: in tier `bad` at index
/// `at`, it skips a position.
struct MisSteppingSpace : tf::Space {
  MisSteppingSpace(tf::SpaceParams params, TierId bad_tier, uint64_t bad_index)
      : tf::Space(params), bad(bad_tier), at(bad_index) {}
  void next_in_tier(TierId t, tf::Position& p) const {
    const bool skip = t == bad && rank(p).index == at;
    tf::Space::next_in_tier(t, p);
    if (skip) tf::Space::next_in_tier(t, p);
  }
  TierId bad;
  uint64_t at;
};
}  // namespace

TEST_CASE("verify walks each tier with the game's step and catches a step that goes astray", "[verify]") {
  const tf::SpaceParams params{9, std::nullopt, std::nullopt};
  const SolvedSpace solved(params);
  const tf::Space& space = solved.space;
  const TierId big = largest_tier(space);
  REQUIRE(space.tier_size(big) > 10);
  const auto lookup = [&](const tf::Position& p) { return toadbase::probe(space, solved.store, p); };
  const auto name = [](const tf::Position& p) { return tf::format(p); };
  // the step at index 5 lands on index 7: the position taken for index 6 ranks elsewhere
  const MisSteppingSpace astray(params, big, 5);
  const auto rep = toadbase::with_threads(1, [&] {
    return toadbase::verify_tiers<MisSteppingSpace, toadbase::ParityRecord>(astray, solved.store, nullptr, lookup, name);
  });
  CHECK_FALSE(rep.ok);
  CHECK_THAT(rep.problem, Contains("tier " + space.tier_name(big) + " index 6: the position stepped to from index 5 ranks elsewhere"));
  // stepping right, the same verify passes
  const MisSteppingSpace right(params, big, UINT64_MAX);
  const auto good = toadbase::with_threads(1, [&] {
    return toadbase::verify_tiers<MisSteppingSpace, toadbase::ParityRecord>(right, solved.store, nullptr, lookup, name);
  });
  CHECK(good.ok);
  CHECK(good.positions_checked == space.total_positions());
}

namespace {
/// Toads and Frogs that leaves one of a tier's child tiers out of child_tiers.
struct NarrowSpace : tf::Space {
  NarrowSpace(tf::SpaceParams params, TierId tier, TierId left_out) : tf::Space(params), t(tier), out(left_out) {}
  std::vector<TierId> child_tiers(TierId u) const {
    std::vector<TierId> kids = tf::Space::child_tiers(u);
    if (u == t) kids.erase(std::remove(kids.begin(), kids.end(), out), kids.end());
    return kids;
  }
  TierId t, out;
};
}  // namespace

TEST_CASE("verify names the first child that lies outside the tiers its game says", "[verify]") {
  const tf::SpaceParams params{9, std::nullopt, std::nullopt};
  const SolvedSpace solved(params);
  const tf::Space& space = solved.space;
  const TierId big = largest_tier(space);
  const std::vector<TierId> kids = space.child_tiers(big);
  REQUIRE(kids.size() > 1);
  const TierId left_out = kids.back();
  // the first position of the tier with a child there, and that child (in move order)
  std::string want;
  for (uint64_t i = 0; i < space.tier_size(big) && want.empty(); ++i)
    for (const tf::Position& c : space.children(space.unrank(big, i)))
      if (want.empty() && space.rank(c).tier == left_out)
        want = "tier " + space.tier_name(big) + " index " + std::to_string(i) + " (" + tf::format(space.unrank(big, i)) +
               "): child " + tf::format(c) + " lies outside the child tiers";
  REQUIRE(!want.empty());
  const auto lookup = [&](const tf::Position& p) { return toadbase::probe(space, solved.store, p); };
  const auto name = [](const tf::Position& p) { return tf::format(p); };
  const NarrowSpace narrow(params, big, left_out);
  for (int threads : {1, 2}) {
    const auto rep = toadbase::with_threads(threads, [&] {
      return toadbase::verify_tiers<NarrowSpace, toadbase::ParityRecord>(narrow, solved.store, nullptr, lookup, name);
    });
    CHECK_FALSE(rep.ok);
    CHECK(rep.problem == want);
  }
}

TEST_CASE("verify looks up positions of a tier's tail, however short the tail", "[verify]") {
  // more than kProbeAllBelow positions: verify looks up a sample of each tier, not every one
  const tf::SpaceParams params{13, std::nullopt, std::nullopt};
  const SolvedSpace solved(params);
  const tf::Space& space = solved.space;
  REQUIRE(space.total_positions() > toadbase::kProbeAllBelow);
  // stored tiers whose tail (boards with a toad on the last cell, looked up through
  // canonical()) is under a quarter of them, the smallest part of their tier first (lookups
  // in runs of consecutive positions missed some), and the shortest tail, of fewer positions
  // than a section's lookups
  std::vector<std::pair<double, TierId>> short_tails;  // (the tail's part of the tier, tier)
  uint64_t shortest = UINT64_MAX;
  for (TierId t = 0; t < space.tier_count(); ++t) {
    const uint64_t size = space.tier_size(t), tail = size - space.tier_prefix(t);
    if (space.tier_stored(t) && size >= toadbase::kProbesPerTier && tail >= 1 && tail * 4 < size) {
      short_tails.push_back({static_cast<double>(tail) / static_cast<double>(size), t});
      shortest = std::min(shortest, tail);
    }
  }
  std::sort(short_tails.begin(), short_tails.end());
  REQUIRE(short_tails.size() >= 12);
  INFO(short_tails.size() << " tiers with a short tail, the smallest part " << short_tails.front().first
                          << ", the shortest " << shortest);
  REQUIRE(shortest < toadbase::kProbesPerTier / toadbase::kProbeSections);
  std::vector<TierId> tried;  // the 8 smallest parts, and 8 more spread over the others
  for (size_t k = 0; k < short_tails.size(); k += k < 8 ? 1 : std::max<size_t>(1, short_tails.size() / 8))
    tried.push_back(short_tails[k].second);
  // and the shortest tail
  tried.push_back(std::min_element(short_tails.begin(), short_tails.end(), [&](const auto& a, const auto& b) {
                    return space.tier_size(a.second) - space.tier_prefix(a.second) <
                           space.tier_size(b.second) - space.tier_prefix(b.second);
                  })->second);
  const auto name = [](const tf::Position& p) { return tf::format(p); };
  for (const TierId bad : tried) {
    const uint64_t prefix = space.tier_prefix(bad);
    // a lookup that answers wrongly for that tail alone
    const auto lookup = [&](const tf::Position& p) {
      Outcome o = toadbase::probe(space, solved.store, p);
      const toadbase::TierIndex at = space.rank(p);
      if (at.tier == bad && at.index >= prefix) o.remoteness += 2;
      return o;
    };
    const auto rep = toadbase::with_threads(2, [&] {
      return toadbase::verify_tiers<tf::Space, toadbase::ParityRecord>(space, solved.store, nullptr, lookup, name);
    });
    INFO("tier " << space.tier_name(bad) << " (" << space.tier_size(bad) << " positions, tail from " << prefix
                 << "): " << rep.problem);
    CHECK_FALSE(rep.ok);
    CHECK_THAT(rep.problem, Contains("tier " + space.tier_name(bad) + " index ") && Contains("looked up as"));
    const size_t at = rep.problem.find(" index ");
    REQUIRE(at != std::string::npos);
    const uint64_t index = std::stoull(rep.problem.substr(at + 7));
    CHECK(index >= prefix);
    CHECK(index < space.tier_size(bad));
  }
}
