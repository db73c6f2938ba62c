// The optimal 3x3 wanderer (label `slow`: it searches 1.8 million belief states): its value
// equals what the agent scores, exactly, over every 3x3 forest, and lies between the
// original's and the oracle's; the bayes agent's exact expectation lies within 1 point of it.
// The database of the optimal policy: solve, play from it, query, analyze, verify.
#include <catch2/catch.hpp>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "solver/games/forest/agents.hpp"
#include "solver/games/forest/optimal.hpp"
#include "solver/games/forest/policy_table.hpp"
#include "solver/games/forest/posterior.hpp"
#include "support.hpp"

using namespace toadbase::forest;

TEST_CASE("forest optimal agent: its expectimax value is what it scores, between original and oracle",
          "[forest][slow]") {
  const double value = optimal_expected_score();
  double optimal = 0, original = 0, oracle = 0, mass = 0;
  each_forest(3, [&](const Forest& f, double p) {
    mass += p;
    for (auto [name, sum] : {std::pair<const char*, double*>{"optimal", &optimal}, {"original", &original}, {"oracle", &oracle}}) {
      auto a = make_agent(name);
      *sum += p * static_cast<double>(play(f, *a).score);
    }
  });
  INFO("value " << value << ", optimal " << optimal << ", original " << original << ", oracle " << oracle);
  REQUIRE(mass == Approx(1.0).epsilon(1e-12));
  REQUIRE(optimal == Approx(value).epsilon(1e-9));
  REQUIRE(optimal > original + 1);  // strictly better than the original rule
  REQUIRE(optimal < oracle);        // and below the perfect-information bound
  // the bayes agent: within 1 point of the optimum (the issue's target), above the original
  double bayes = 0;
  each_forest(3, [&](const Forest& f, double p) {
    auto a = make_agent("bayes");
    bayes += p * static_cast<double>(play(f, *a).score);
  });
  INFO("bayes " << bayes);
  REQUIRE(bayes <= optimal + 1e-9);
  REQUIRE(bayes > optimal - 1);
  REQUIRE(bayes > original + 1);
  REQUIRE_THROWS_AS(make_agent("optimal")->begin(Knowledge{4, 0, {}, {}, {}, {}, {}, {}}, nullptr), std::invalid_argument);
}

TEST_CASE("forest database: solve stores every belief, play --db follows it move for move, query, verify",
          "[forest][slow][db]") {
  using tbtest::ok;
  using tbtest::run_expecting;
  using Catch::Matchers::Contains;
  tbtest::TempDir dir("forest-db");
  const std::string db = dir / "f3";
  const auto solved = nlohmann::json::parse(ok({"solve", "forest", "--side", "3", "--db", db, "--quiet", "--json"}).out);
  // the same database on every machine and build: the digest of a build for the baseline
  // instruction set (it was another where -march=native fused multiply-adds)
  CHECK(solved["digest"] == "4d17a3e1667908a5");
  uint64_t beliefs = 0;
  for (int s = 0; s < 9; ++s) {
    // the size each tier declares without a search is the search's
    const uint64_t met = optimal_policy(s).size();
    INFO("start tile " << s);
    REQUIRE(met == policy_tier_beliefs(s));
    beliefs += met;
  }
  REQUIRE(solved["positions"].get<uint64_t>() == beliefs);
  REQUIRE(beliefs > 1000000);
  // the stored policy plays exactly as the search on many forests
  for (int seed = 1; seed <= 8; ++seed) {
    const std::string s = std::to_string(seed);
    REQUIRE(ok({"forest", "play", "--agent", "optimal", "--seed", s, "--db", db}).out ==
            ok({"forest", "play", "--agent", "optimal", "--seed", s}).out);
  }
  // the start beliefs' values average to the exact maximum expected score
  const auto a = nlohmann::json::parse(ok({"analyze", "--db", db, "--json"}).out);
  REQUIRE(a["expectedScore"].get<double>() == Approx(optimal_expected_score()).epsilon(1e-12));
  // a query: the spec's example belief; the decision is a frontier tile
  const auto q = nlohmann::json::parse(
      ok({"query", "--db", db, R"({"side":3,"start":[0,0],"at":[0,1],"visited":[{"tile":[0,1],"bones":true}]})"}).out);
  REQUIRE(q["value"].get<double>() < 90);
  const auto target = q["decision"]["target"];
  REQUIRE((target == nlohmann::json::array({0, 2}) || target == nlohmann::json::array({1, 1}) ||
           target == nlohmann::json::array({1, 0})));
  REQUIRE_THAT(run_expecting({"query", "--db", db, R"({"side":3,"start":[0,0],"at":[2,2]})"}, 1).out,
               Contains("not"));
  REQUIRE_THAT(ok({"verify", "--db", db, "--quiet"}).out, Contains("OK"));
  // export: the raw records (17 bytes each, record-major), every belief in key order; no
  // GamesCrafters form for expected scores
  ok({"export", "--db", db, dir / "raw.bin"});
  const std::string raw = tbtest::read_file(dir / "raw.bin");
  REQUIRE(raw.size() == 17 * beliefs);
  uint64_t previous = 0, unsorted = 0;
  for (size_t k = 0; k < beliefs; ++k) {
    uint64_t key = 0;
    for (int b = 0; b < 8; ++b) key |= uint64_t{static_cast<uint8_t>(raw[17 * k + b])} << (8 * b);
    unsorted += k > 0 && (key >> 54) == (previous >> 54) && key <= previous;
    previous = key;
  }
  REQUIRE(unsorted == 0);
  REQUIRE_THAT(run_expecting({"export", "--db", db, "--format", "gamescrafters16", dir / "gc.bin"}, 1).err,
               Contains("no GamesCrafters"));
  REQUIRE_FALSE(std::filesystem::exists(dir / "gc.bin.partial"));
  // bad requests
  REQUIRE_THAT(run_expecting({"solve", "forest", "--side", "4", "--db", dir / "f4", "--quiet"}, 2).err, Contains("3x3"));
  REQUIRE_THAT(run_expecting({"forest", "play", "--agent", "bayes", "--db", db}, 2).err, Contains("--agent optimal"));
  // analyze's text names the count, not "null positions"
  REQUIRE_THAT(ok({"analyze", "--db", db}).out, Contains("1832221 positions") && !Contains("null"));
  // query --text: the forest's decision as text
  const std::string text =
      ok({"query", "--db", db, "--text", R"({"side":3,"start":[0,0],"at":[0,1],"visited":[{"tile":[0,1],"bones":true}]})"}).out;
  REQUIRE_THAT(text, Contains("value: ") && Contains("decision: target [") && !Contains("{\"value\""));
  REQUIRE_THAT(run_expecting({"forest", "play", "--agent", "optimal", "--db", dir / "missing"}, 1).err, Contains("missing"));
}
