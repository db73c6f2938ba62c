// The engine alone, on a toy tier game written here in a few dozen lines: solve, resume,
// verify, probe, derived tiers and tails, against a brute-force oracle of the same rules
// written separately. Nothing outside this file knows the toy: adding it needed no change to
// solver/core, db/ or tools/.
//
// THE TOY. A row of s counters with a marker after the first a of them (0 <= a <= s), and a
// token z (0 or 1) that never moves. A move removes the counter just left of the marker, the
// one just right of it, or both at once:
//
//     (s, a, z) -> (s-1, a-1, z)   a >= 1        (s, a, z) -> (s-1, a, z)   a <= s-1
//     (s, a, z) -> (s-2, a-1, z)   1 <= a <= s-1
//
// No move: the player to move loses. Tier (s, z) holds a = 0..s (index a), id 2s + z.
// Derived: the tiers with s % 3 == 1 (their children s-1, s-2 are stored). Tails: the token
// changes nothing, so in a tier with z = 1 the positions a >= 2 are a tail copied from tier
// (s, 0); canonical() sends them there.
#include <catch2/catch.hpp>
#include <cstdio>
#include <map>
#include <random>

#include "solver/core/engine.hpp"
#include "solver/module/tier_module.hpp"
#include "support.hpp"

using namespace tbtest;
using toadbase::Outcome;
using toadbase::ParityRecord;
using toadbase::TierIndex;

namespace {

struct Toy {
  int s = 0, a = 0, z = 0;
  friend bool operator==(const Toy&, const Toy&) = default;
};

class ToySpace {
 public:
  using Position = Toy;
  explicit ToySpace(int rows) : rows_(rows) {}
  TierId tier_count() const { return static_cast<TierId>(2 * rows_); }
  uint64_t tier_size(TierId t) const { return t / 2 + 1; }
  std::string tier_name(TierId t) const {
    return "s" + std::to_string(t / 2) + "z" + std::to_string(t % 2);
  }
  std::vector<TierId> child_tiers(TierId t) const {
    std::vector<TierId> out;
    for (TierId d : {2u, 4u})
      if (t >= d) out.push_back(t - d);
    return out;
  }
  Toy unrank(TierId t, uint64_t i) const {
    return {static_cast<int>(t / 2), static_cast<int>(i), static_cast<int>(t % 2)};
  }
  TierIndex rank(const Toy& p) const {
    return {static_cast<TierId>(2 * p.s + p.z), static_cast<uint64_t>(p.a)};
  }
  bool contains(const Toy& p) const {
    return p.s >= 0 && p.s < rows_ && p.a >= 0 && p.a <= p.s && (p.z == 0 || p.z == 1);
  }
  std::vector<Toy> children(const Toy& p) const {
    std::vector<Toy> out;
    if (p.a >= 1) out.push_back({p.s - 1, p.a - 1, p.z});
    if (p.a <= p.s - 1) out.push_back({p.s - 1, p.a, p.z});
    if (p.a >= 1 && p.a <= p.s - 1) out.push_back({p.s - 2, p.a - 1, p.z});
    return out;
  }
  template <class Visit>
  void scan(TierId t, uint64_t lo, uint64_t hi, Visit&& visit) const {
    if constexpr (toadbase::kIsChildLambda<Visit>) {
      toadbase::CollectChildren<std::remove_reference_t<Visit>> collect{visit, {}, 0};
      scan(t, lo, hi, collect);
    } else {
      const uint64_t s = t / 2;
      for (uint64_t a = lo; a < hi; ++a) {
        if (a >= 1) visit.child(0, a - 1, true);
        if (a + 1 <= s) visit.child(0, a, true);
        if (a >= 1 && a + 1 <= s) visit.child(1, a - 1, true);
        visit.position(a);
      }
    }
  }
  bool tier_stored(TierId t) const { return (t / 2) % 3 != 1; }
  uint64_t tier_prefix(TierId t) const {
    return t % 2 ? std::min<uint64_t>(2, tier_size(t)) : tier_size(t);
  }
  TierId tail_source(TierId t) const { return t - 1; }
  template <class R>
  void fill_tail(TierId t, const R* source, R* out) const {
    for (uint64_t a = tier_prefix(t); a < tier_size(t); ++a) out[a] = source[a];
  }
  Toy canonical(const Toy& p) const { return p.z == 1 && p.a >= 2 ? Toy{p.s, p.a, 0} : p; }

 private:
  int rows_;
};
static_assert(toadbase::TierGame<ToySpace>);

/// The oracle: plain recursion over the rules above, memoised.
Truth toy_oracle(int s, int a) {
  static std::map<std::pair<int, int>, Truth> memo;
  if (auto it = memo.find({s, a}); it != memo.end()) return it->second;
  std::vector<Truth> kids;
  if (a >= 1) kids.push_back(toy_oracle(s - 1, a - 1));
  if (a <= s - 1) kids.push_back(toy_oracle(s - 1, a));
  if (a >= 1 && a <= s - 1) kids.push_back(toy_oracle(s - 2, a - 1));
  Truth t;  // no move: a loss in 0
  unsigned best_win = 1000, longest = 0;
  for (const Truth& k : kids) {
    if (!k.win) best_win = std::min(best_win, k.remoteness + 1);
    longest = std::max(longest, k.remoteness + 1);
  }
  if (best_win < 1000)
    t = {true, best_win};
  else if (!kids.empty())
    t = {false, longest};
  return memo[{s, a}] = t;
}

Truth truth(Outcome o) {
  return {o.value == toadbase::Value::Win, o.remoteness};
}

constexpr int kRows = 40;

}  // namespace

TEST_CASE("toy game: the engine solves it, every position equal to the oracle", "[engine][toy]") {
  const ToySpace g(kRows);
  MemStore store(g.tier_count());
  const auto stats = toadbase::solve_tiers(g, store, nullptr);
  CHECK(stats.tiers_solved == g.tier_count());
  uint64_t bad = 0, positions = 0;
  for (TierId t = 0; t < g.tier_count(); ++t)
    for (uint64_t i = 0; i < g.tier_size(t); ++i, ++positions) {
      const Toy p = g.unrank(t, i);
      bad += !(truth(ParityRecord::decode(store.records[t][i])) == toy_oracle(p.s, p.a));
    }
  CHECK(bad == 0);
  CHECK(positions == stats.positions_solved);
  // what the store keeps: nothing of a derived tier, the prefix of a tier with a tail
  for (TierId t = 0; t < g.tier_count(); ++t) {
    INFO(g.tier_name(t));
    CHECK(store.kept[t] == toadbase::records_kept(g, t));
  }
  CHECK(store.loads == 0);
}

TEST_CASE("toy game: probe answers every position through canonical(), tails and derived tiers",
          "[engine][toy]") {
  const ToySpace g(kRows);
  MemStore store(g.tier_count());
  toadbase::solve_tiers(g, store, nullptr);
  uint64_t bad = 0;
  for (int s = 0; s < kRows; ++s)
    for (int a = 0; a <= s; ++a)
      for (int z : {0, 1})
        bad += !(truth(toadbase::probe(g, store, Toy{s, a, z})) == toy_oracle(s, a));
  CHECK(bad == 0);
  CHECK_THROWS_AS(toadbase::probe(g, store, Toy{kRows, 0, 0}), std::invalid_argument);
  CHECK_THROWS_AS(toadbase::probe(g, store, Toy{3, 4, 0}), std::invalid_argument);
}

TEST_CASE("toy game: a resumed solve from any committed subset ends the same",
          "[engine][toy][resume]") {
  const ToySpace g(kRows);
  MemStore full(g.tier_count());
  toadbase::solve_tiers(g, full, nullptr);
  std::mt19937 rng(5);
  for (int round = 0; round < 20; ++round) {
    MemStore partial(g.tier_count());
    partial.allow_recommit = true;
    uint64_t preloaded = 0;
    for (TierId t = 0; t < g.tier_count(); ++t)
      if (rng() % 2) partial.preload(t, full.records[t], toadbase::records_kept(g, t)), ++preloaded;
    const auto stats = toadbase::solve_tiers(g, partial, nullptr);
    INFO("round " << round);
    CHECK(stats.tiers_skipped + stats.tiers_solved == g.tier_count());
    CHECK(stats.tiers_skipped <= preloaded);
    CHECK(partial.records == full.records);
  }
}

TEST_CASE("toy game: tails but no fill_tail_rows: its tiers are held raw whatever the budget",
          "[engine][toy][packed]") {
  // a tail's source held packed could only be unpacked whole for it, bytes the plan does not
  // count: such a game never holds its tiers packed (holds_packed; its plan reckons them raw)
  static_assert(!toadbase::holds_packed<ToySpace, ParityRecord>());
  const ToySpace g(kRows);
  MemStore natural(g.tier_count());
  toadbase::solve_tiers(g, natural, nullptr);
  RunCodec codec;
  toadbase::CostModel model;
  model.packed_permille = 600;
  model.always_pack = true;
  MemStore store(g.tier_count());
  store.codec = &codec;
  const toadbase::SolveStats s = toadbase::solve_tiers(g, store, nullptr, model);
  CHECK_FALSE(s.packed);
  CHECK(codec.packs == 0);
  CHECK(store.records == natural.records);
}

TEST_CASE("toy game: verify passes, and names the first wrong record, tail or derived digest",
          "[engine][toy][verify]") {
  const ToySpace g(kRows);
  MemStore store(g.tier_count());
  toadbase::solve_tiers(g, store, nullptr);
  auto name = [](const Toy& p) {
    return std::to_string(p.s) + "/" + std::to_string(p.a) + "/" + std::to_string(p.z);
  };
  auto verify = [&](const MemStore& src) {
    return toadbase::verify_tiers<ToySpace, ParityRecord>(
        g, src, nullptr, [&](const Toy& p) { return toadbase::probe(g, src, p); }, name);
  };
  const auto ok = verify(store);
  CHECK(ok.ok);
  CHECK(ok.positions_checked == (uint64_t{kRows} * (kRows + 1)));
  CHECK(ok.positions_probed == ok.positions_checked);  // a small space: every position looked up
  SECTION("a wrong stored record") {
    MemStore bad = store;
    bad.records[2 * 9][4] ^= 2;  // s = 9, a stored tier: win/lose kept, remoteness off by two
    const auto rep = verify(bad);
    CHECK_FALSE(rep.ok);
    CHECK_THAT(rep.problem,
               Catch::Matchers::Contains("s9z0 index 4") && Catch::Matchers::Contains("9/4/0"));
  }
  SECTION("a tail whose digest was of other records") {
    MemStore bad = store;
    bad.records[2 * 9 + 1][6] ^= 2;  // beyond the prefix: only the digest covers it
    const auto rep = verify(bad);
    CHECK_FALSE(rep.ok);
    CHECK_THAT(rep.problem,
               Catch::Matchers::Contains("s9z1") && Catch::Matchers::Contains("digest"));
  }
  SECTION("a derived tier whose digest was of other records") {
    MemStore bad = store;
    bad.records[2 * 10][3] ^= 2;  // s = 10 is derived: nothing kept but its digest
    const auto rep = verify(bad);
    CHECK_FALSE(rep.ok);
    CHECK_THAT(rep.problem,
               Catch::Matchers::Contains("s10z0") && Catch::Matchers::Contains("derived"));
  }
}

// ---- the toy as a module: the contract of solver/module/module.hpp, nothing else --------------

namespace {

struct ToyModule {
  using Space = ToySpace;
  using Position = Toy;
  using RecordType = ParityRecord;
  static constexpr const char* kName = "toy";
  static constexpr const char* kTitle = "a toy tier game";
  static std::vector<toadbase::ParamSpec> parameters() {
    return {{"rows", toadbase::ParamSpec::Kind::Int, "rows"}};
  }
  static nlohmann::json normalize(const nlohmann::json& j) {
    return {{"rows", j.value("rows", 10)}};
  }
  static Space make_space(const nlohmann::json& j) { return Space(j.at("rows").get<int>()); }
  static Toy parse(const std::string& text, const std::string&) {
    Toy p;
    if (std::sscanf(text.c_str(), "%d/%d/%d", &p.s, &p.a, &p.z) != 3)
      throw std::invalid_argument("not s/a/z: " + text);
    return p;
  }
  static std::string format(const Toy& p) {
    return std::to_string(p.s) + "/" + std::to_string(p.a) + "/" + std::to_string(p.z);
  }
  static std::vector<toadbase::NamedMove<Toy>> moves(const Toy& p) {
    std::vector<toadbase::NamedMove<Toy>> out;
    for (const Toy& c : Space(p.s + 1).children(p)) out.push_back({format(c), "M_" + format(c), c});
    return out;
  }
};
static_assert(toadbase::Module<ToyModule>);

// A module with `solve` parameters whose tier requirements are off (format takes the wrong
// type) is no module, even with subcommands of its own: it would register with no database.
struct BrokenToyModule : ToyModule {
  static std::string format(int) { return ""; }
  static std::vector<toadbase::GameCommand> add_commands(CLI::App&, const toadbase::Host&) {
    return {};
  }
};
static_assert(toadbase::WithCommands<BrokenToyModule> && !toadbase::TierGameRules<BrokenToyModule>);
static_assert(!toadbase::Module<BrokenToyModule>);

// A module with a wider record, picked when its bound on the moves of a game passes 255
// (here 247 + rows: 255 at 8 rows, 256 at 9).
struct WideToyModule : ToyModule {
  using WideRecordType = toadbase::WideParityRecord;
  static uint64_t remoteness_bound(const nlohmann::json& j) { return 247 + j.at("rows").get<uint64_t>(); }
};
static_assert(toadbase::WithWideRecord<WideToyModule>);

}  // namespace

TEST_CASE("toy game: a module picks its wide record where its bound passes the narrow one's",
          "[engine][toy][wide]") {
  auto record_of = [](int rows, const std::string& record = "") {
    return toadbase::make_tier_instance<WideToyModule>(WideToyModule::normalize({{"rows", rows}}), record)
        ->identity()
        .record;
  };
  CHECK(record_of(8) == "remoteness-u8-parity");    // 255: a byte holds it
  CHECK(record_of(9) == "remoteness-u16-parity");   // 256
  CHECK(record_of(9, "remoteness-u8-parity") == "remoteness-u8-parity");
  CHECK(record_of(8, "remoteness-u16-parity") == "remoteness-u16-parity");
  CHECK_THROWS_AS(record_of(8, "remoteness-u32"), std::invalid_argument);
  CHECK(toadbase::tier_records<ToyModule>() == std::vector<std::string>{"remoteness-u8-parity"});
  CHECK_THROWS_AS(toadbase::make_tier_instance<ToyModule>(ToyModule::normalize({{"rows", 8}}), "remoteness-u16-parity"),
                  std::invalid_argument);
}

TEST_CASE("toy game: a module of its rules is solved, verified and probed through the Instance",
          "[engine][toy]") {
  const toadbase::TierInstance<ToyModule> inst(ToyModule::normalize({{"rows", 12}}));
  MemStore store(inst.tiers().size());
  inst.solve(store, nullptr);
  CHECK(inst.verify(store, nullptr).ok);
  const auto probe = inst.probe(store, "7/3/1", "");
  CHECK(truth(probe.outcome) == toy_oracle(7, 3));
  REQUIRE(probe.moves.size() == 3);
  for (const auto& m : probe.moves) {
    const Toy c = ToyModule::parse(m.position, "");
    CHECK(truth(m.outcome) == toy_oracle(c.s, c.a));
  }
  CHECK_THROWS_AS(inst.probe(store, "12/0/0", ""), toadbase::BadPosition);  // beyond the rows
  CHECK_THROWS_AS(inst.probe(store, "nonsense", ""), toadbase::BadPosition);
}
