// River Toad's position database (label `slow`: it solves 334 million positions) against a
// brute-force expectimax written here from the spec: for t <= 5 turns left, the exact
// survival count of sampled positions and of each of their moves, through `query`.
// With t <= 4 turns left every roll that matters is already on the board (a roll takes four
// turns to reach the bottom), so those values are 0 or certain; t = 5 mixes over the next roll.
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>

#include "solver/games/river_toad/survival.hpp"
#include "support.hpp"

using namespace tbtest;
using json = nlohmann::json;

namespace {

// the oracle's own rules: River c holds a snake iff bit (5 - c) of a roll 1..31
bool o_snake(int roll, int c) { return roll >= 1 && roll <= 31 && ((roll >> (5 - c)) & 1); }

/// Surviving lines x 34^t, by recursion over the next rolls (no sharing, no caps).
uint64_t o_count(int t, int r1, int r2, int r3, int r4, int col, int hp);

uint64_t o_action(int t, int r1, int r2, int r3, int r4, int col, int hp, int shift, int cost) {
  const int to = col + shift;
  if (to < 1 || to > 5) return 0;
  int h = std::max(hp - cost, 0);
  if (o_snake(r4, to)) return 0;
  if ((r4 == 32 && to == 1) || (r4 == 33 && to == 5)) h += 5;
  if (h == 0) return 0;
  if (t == 1) return 34;
  // with t - 1 <= 3 turns left the next roll r0 cannot reach the bottom in time
  if (t - 1 <= 3) return 34 * o_count(t - 1, 0, r1, r2, r3, to, h);
  uint64_t sum = 0;
  for (int r0 = 0; r0 < 34; ++r0) sum += o_count(t - 1, r0, r1, r2, r3, to, h);
  return sum;
}

uint64_t o_count(int t, int r1, int r2, int r3, int r4, int col, int hp) {
  static const int shifts[5] = {-2, -1, 0, 1, 2}, costs[5] = {3, 1, 0, 1, 3};
  uint64_t best = 0;
  for (int a = 0; a < 5; ++a) best = std::max(best, o_action(t, r1, r2, r3, r4, col, hp, shifts[a], costs[a]));
  return best;
}

}  // namespace

TEST_CASE("river toad database: exact counts equal a brute-force expectimax for t <= 5", "[river-toad][db]") {
  TempDir dir("rt-db");
  const std::string db = dir / "rt5";
  json s = json::parse(ok({"solve", "river-toad", "--turns", "5", "--db", db, "--quiet", "--json"}).out);
  REQUIRE(s["positions"] == 334084000);
  std::mt19937 rng(17);
  std::vector<std::string> positions;
  std::vector<std::array<int, 7>> raw;
  for (int i = 0; i < 60; ++i) {
    // rolls biased towards crowded rivers and flies, so deaths and fly rescues both happen
    auto roll = [&] { return rng() % 3 == 0 ? static_cast<int>(32 + rng() % 2) : static_cast<int>(rng() % 34); };
    std::array<int, 7> p = {i < 30 ? 5 : 1 + static_cast<int>(rng() % 4), roll(), roll(), roll(), roll(),
                            1 + static_cast<int>(rng() % 5), 0};
    p[6] = 1 + static_cast<int>(rng() % (3 * p[0] + 1));
    if (i % 4 == 0) p[6] = 1 + static_cast<int>(rng() % 3);  // low HP: starving and fly rescues
    raw.push_back(p);
    positions.push_back(std::to_string(p[0]) + "_" + std::to_string(p[6]) + "_" + std::to_string(p[5]) + "_" +
                        std::to_string(p[1]) + "." + std::to_string(p[2]) + "." + std::to_string(p[3]) + "." +
                        std::to_string(p[4]));
  }
  std::vector<std::string> args = {"query", "--db", db};
  args.insert(args.end(), positions.begin(), positions.end());
  std::istringstream lines(ok(args).out);
  std::string line;
  int seen = 0, lost = 0, certain = 0;
  static const char* letters = "ASDFG";
  static const int shifts[5] = {-2, -1, 0, 1, 2}, costs[5] = {3, 1, 0, 1, 3};
  while (std::getline(lines, line)) {
    const auto& p = raw.at(seen);
    const json j = json::parse(line);
    INFO(positions[seen]);
    const uint64_t want = o_count(p[0], p[1], p[2], p[3], p[4], p[5], p[6]);
    uint64_t den = 1;
    for (int t = 0; t < p[0]; ++t) den *= 34;
    REQUIRE(j["count"] == std::to_string(want));
    REQUIRE(j["denominator"] == std::to_string(den));
    lost += want == 0;
    certain += want == den;
    for (const auto& m : j["moves"]) {
      const int a = static_cast<int>(std::string(letters).find(m["move"].get<std::string>()));
      REQUIRE(m["count"] == std::to_string(o_action(p[0], p[1], p[2], p[3], p[4], p[5], p[6], shifts[a], costs[a])));
    }
    REQUIRE(j["moves"][0]["count"] == j["count"]);
    ++seen;
  }
  REQUIRE(seen == 60);
  REQUIRE(lost > 0);
  REQUIRE(certain > 0);
  REQUIRE(seen - lost - certain > 0);  // t = 5: some positions are genuinely uncertain
  REQUIRE_THAT(ok({"verify", "--db", db, "--quiet"}).out, Catch::Matchers::Contains("OK, 334084000"));
  // a board picture is the same position as its rolls
  const json a = json::parse(ok({"query", "--db", db, "2_5_#SS SS#/# SSS #/# S S #/#S S S#/#   T #"}).out);
  REQUIRE(a["position"] == "2_5_4_27.14.10.21");
  REQUIRE(a["count"] == std::to_string(o_count(2, 27, 14, 10, 21, 4, 5)));
  // a roll prefix and the plan so far: the sample after GAGAF, and the start
  const json pre = json::parse(ok({"query", "--db", db, "3_r21,21,10,14,27_pGAGAF"}).out);
  REQUIRE(pre["position"] == "3_7_4_27.14.10.21");
  REQUIRE(pre["count"] == std::to_string(o_count(3, 27, 14, 10, 21, 4, 7)));
  REQUIRE(json::parse(ok({"query", "--db", db, "5_r_p"}).out)["position"] == "5_16_3_0.0.0.0");
  run_expecting({"query", "--db", db, "3_r21,21_pGGG", "3_r21,21,10,14,31_pDDDDD"}, 1);
  // play --advise: the database's action every turn, followed when no plan is given
  write_file(dir / "sample.txt", "5\n21\n21\n10\n14\n27\n");
  const RunResult adv = ok({"river-toad", "play", dir / "sample.txt", "--advise", db});
  REQUIRE_THAT(adv.out, Catch::Matchers::Contains("turn 1: advice D (survives the next 5 turns"));
  REQUIRE_THAT(adv.out, Catch::Matchers::Contains("survived all 5 turns"));
  run_expecting({"query", "--db", db, "6_20_3_0.0.0.0", "3_20_6_0.0.0.0", "3_0_3_0.0.0.0", "3_20_3_0.0.40.0",
                 "2_5_#SS SS#/# SSS #/# S S #/#S S S#/#  X  #"}, 1);
  // query --text: River Toad's odds as text, the board a row a line
  const std::string text = ok({"query", "--db", db, "--text", "5_16_3_0.0.0.0"}).out;
  REQUIRE_THAT(text, Catch::Matchers::Contains("5_16_3_0.0.0.0\n") && Catch::Matchers::Contains("  survival: ") &&
                         Catch::Matchers::Contains("\n    #  T  #\n") && Catch::Matchers::Contains("bestAction: "));
  REQUIRE(text.find('{') == std::string::npos);
  // export: raw records of 8 bytes each, as the help says, 2.5 GiB here: refused without
  // --force, saying how much, and nothing written; tsv is for win/lose games
  const json info = json::parse(ok({"info", "--db", db, "--json"}).out);
  REQUIRE(info["recordBytes"] == 8);
  REQUIRE_THAT(run_expecting({"export", "--db", db, dir / "rt.bin"}, 2).err,
               Catch::Matchers::Contains("2.49 GiB (334084000 records of 8 bytes)") &&
                   Catch::Matchers::Contains("--force"));
  REQUIRE_FALSE(std::filesystem::exists(dir / "rt.bin"));
  REQUIRE_FALSE(std::filesystem::exists(dir / "rt.bin.partial"));
  // to "-" the message names standard output (it once said standard input)
  REQUIRE_THAT(run_expecting({"export", "--db", db, "-"}, 2).err,
               Catch::Matchers::Contains("to standard output; give --force"));
  REQUIRE_THAT(run_expecting({"export", "--db", db, "--format", "tsv", dir / "rt.tsv"}, 1).err,
               Catch::Matchers::Contains("not win/lose") && Catch::Matchers::Contains("no tsv"));
}

TEST_CASE("river toad database: --weights changes the future rolls' odds", "[river-toad][db]") {
  TempDir dir("rt-weights");
  // every future roll is 31 (snakes in all five rivers): whoever must see one arrive dies
  std::string w;
  for (int r = 0; r < 34; ++r) w += std::string(r ? "," : "") + (r == 31 ? "1" : "0");
  ok({"solve", "river-toad", "--turns", "5", "--weights", w, "--db", dir / "w", "--quiet"});
  std::istringstream lines(ok({"query", "--db", dir / "w", "5_16_3_0.0.0.0", "4_13_3_0.0.0.0"}).out);
  std::string a, b;
  std::getline(lines, a);
  std::getline(lines, b);
  REQUIRE(json::parse(a)["survival"] == 0.0);       // the first future roll arrives on turn 5
  REQUIRE(json::parse(a)["denominator"] == "1");
  REQUIRE(json::parse(b)["survival"] == 1.0);       // four turns: no future roll arrives
  run_expecting({"solve", "river-toad", "--turns", "5", "--weights", "1,2,3", "--db", dir / "bad", "--quiet"}, 2);
  run_expecting({"solve", "river-toad", "--turns", "12", "--db", dir / "big", "--quiet"}, 2);  // 34^12 > 2^61
}

TEST_CASE("river toad database: export writes every record raw (8 bytes, count and action), no GamesCrafters form",
          "[river-toad][db][export]") {
  TempDir dir("rt-export");
  const std::string db = dir / "rt1";
  ok({"solve", "river-toad", "--turns", "1", "--db", db, "--quiet"});
  ok({"export", "--db", db, dir / "raw.bin"});
  const std::string raw = read_file(dir / "raw.bin");
  const uint64_t n = uint64_t{34} * 34 * 34 * 34 * 5 * 4;  // rolls, column, HP 1..4
  REQUIRE(raw.size() == 8 * n);
  // records in index order: a sample of them against query
  std::mt19937_64 rng(3);
  for (int k = 0; k < 40; ++k) {
    const uint64_t i = rng() % n;
    uint64_t v = 0;
    for (int b = 0; b < 8; ++b) v |= uint64_t{static_cast<uint8_t>(raw[8 * i + b])} << (8 * b);
    uint64_t x = i;
    const int hp = static_cast<int>(x % 4) + 1;
    x /= 4;
    const int column = static_cast<int>(x % 5) + 1;
    x /= 5;
    int r[4];
    for (int j = 3; j >= 0; --j) r[j] = static_cast<int>(x % 34), x /= 34;
    const std::string pos = "1_" + std::to_string(hp) + "_" + std::to_string(column) + "_" + std::to_string(r[0]) + "." +
                            std::to_string(r[1]) + "." + std::to_string(r[2]) + "." + std::to_string(r[3]);
    const json q = json::parse(ok({"query", "--db", db, pos}).out);
    INFO(pos);
    REQUIRE(q["count"] == std::to_string(v & ((uint64_t{1} << 61) - 1)));
    REQUIRE(q["bestAction"] == std::string(1, "ASDFG"[v >> 61]));
  }
  REQUIRE_THAT(run_expecting({"export", "--db", db, "--format", "gamescrafters16", dir / "gc.bin"}, 1).err,
               Catch::Matchers::Contains("no GamesCrafters"));
}
