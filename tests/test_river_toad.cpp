// River Toad: the spec's examples, the closed form and the board against the five phases run
// literally (an oracle written here), every
// algorithm against the enumeration of all plans (N <= 7), prefix counts against the same
// enumeration, roll-file errors, and `river-toad check` through the real binary.
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "solver/games/river_toad/algorithms.hpp"
#include "solver/games/river_toad/prefixes.hpp"
#include "solver/games/river_toad/river_toad.hpp"
#include "serve_support.hpp"
#include "support.hpp"

using namespace toadbase::river_toad;
using Catch::Matchers::Contains;
using json = nlohmann::json;

namespace {

const std::vector<uint8_t> kSample = {21, 21, 10, 14, 27};

/// The oracle of the turn: the five phases of the spec run literally on a 5 x 7 grid, written
/// here from the rules and not from the code under test (which decides a turn in closed form).
struct LiteralBoard {
  Rules rules;
  std::array<std::array<char, kColumns>, kRows> cell{};
  int column, hp;
  bool ate = false;
  Death death = Death::None;

  explicit LiteralBoard(const Rules& r) : rules(r), column(r.start_column), hp(r.start_hp) {
    for (auto& row : cell) row.fill(' ');
  }
  void turn(int action, int roll) {
    ate = false;
    // 1. the toad moves, paying its cost (HP never below 0)
    column += kShift[action];
    hp = std::max(0, hp - kCost[action]);
    // 2. snakes move down, the lowest first; one entering the toad's cell catches him
    bool caught = false;
    for (int r = kRows - 2; r >= 0; --r)
      for (int c = kFirstRiver; c <= kLastRiver; ++c)
        if (cell[r][c] == 'S') {
          cell[r][c] = ' ';
          if (r + 1 < kRows - 1)
            cell[r + 1][c] = 'S';
          else if (c == column)
            caught = true;
        }
    // 3. flies move down; one entering the bottom row beside the toad is eaten
    for (int r = kRows - 2; r >= 0; --r)
      for (int c : {0, kColumns - 1})
        if (cell[r][c] == 'F') {
          cell[r][c] = ' ';
          if (r + 1 < kRows - 1)
            cell[r + 1][c] = 'F';
          else if ((c == 0 && column == kFirstRiver) ||
                   (c == kColumns - 1 && column == kLastRiver)) {
            hp += rules.fly_hp;
            ate = true;
          }
        }
    // 4. the roll spawns in the top row: bit (5 - c) of it a snake in river column c, 32 and
    // 33 a fly on the left and the right bank
    if (roll == 32)
      cell[0][0] = 'F';
    else if (roll == 33)
      cell[0][kColumns - 1] = 'F';
    else
      for (int c = kFirstRiver; c <= kLastRiver; ++c)
        if ((roll >> (5 - c)) & 1) cell[0][c] = 'S';
    // 5. caught, or no HP left: dead
    if (caught)
      death = Death::Caught;
    else if (hp == 0)
      death = Death::Starved;
  }
  std::vector<std::string> render() const {
    std::vector<std::string> out;
    for (int r = 0; r < kRows; ++r) {
      std::string line(cell[r].begin(), cell[r].end());
      line[0] = line[0] == 'F' ? 'F' : '#';
      line[kColumns - 1] = line[kColumns - 1] == 'F' ? 'F' : '#';
      if (r == kRows - 1) line[column] = death == Death::None ? 'T' : 'X';
      out.push_back(line);
    }
    return out;
  }
};

std::vector<uint8_t> parse(const std::string& text) {
  std::istringstream in(text);
  return read_rolls(in, "rolls");
}

std::string all_plans_letter(uint64_t code, int n) {
  std::string s;
  for (int i = 0; i < n; ++i, code /= 5) s += kLetters[code % 5];
  return s;
}

/// The oracle: every plan of every length up to N played by the board.
struct Enumerated {
  int best_hp = -1;                  // over plans surviving all N turns
  std::vector<uint64_t> surviving;   // [k-1]: plans of k actions alive after turn k
  int longest = 0, longest_hp = -1;  // most turns survived, then the best HP then
};

Enumerated enumerate(const std::vector<uint8_t>& rolls, const Rules& rules) {
  const int N = static_cast<int>(rolls.size());
  Enumerated e;
  e.surviving.assign(N, 0);
  for (int k = 1; k <= N; ++k) {
    uint64_t total = 1;
    for (int i = 0; i < k; ++i) total *= 5;
    for (uint64_t code = 0; code < total; ++code) {
      const std::string plan = all_plans_letter(code, k);
      const Playout p = play(rolls, plan, rules);
      if (p.illegal_turn || p.death != Death::None) continue;
      ++e.surviving[k - 1];
      if (k > e.longest || (k == e.longest && p.final_hp > e.longest_hp))
        e.longest = k, e.longest_hp = p.final_hp;
      if (k == N) e.best_hp = std::max(e.best_hp, p.final_hp);
    }
  }
  return e;
}

std::vector<uint8_t> random_rolls(std::mt19937& rng, int n, int style) {
  std::vector<uint8_t> r(n);
  for (auto& x : r) {
    // style 0: uniform; 1: many flies; 2: crowded rivers
    const int u = static_cast<int>(rng() % 34);
    x = static_cast<uint8_t>(style == 1 && rng() % 3 == 0 ? 32 + rng() % 2
                             : style == 2                 ? 16 + rng() % 16
                                                          : u);
  }
  return r;
}

}  // namespace

TEST_CASE("river toad: the spec's examples", "[river-toad]") {
  Rules rules;
  Playout p = play(kSample, "GAGAF", rules);
  REQUIRE(p.survived(5));
  REQUIRE(p.final_hp == 7);
  REQUIRE(p.board ==
          std::vector<std::string>{"#SS SS#", "# SSS #", "# S S #", "#S S S#", "#   T #"});
  REQUIRE(solve_dp(kSample, rules).final_hp == 19);
  p = play({32, 0, 33, 0, 0, 0, 0}, "DDDSSGG", rules);
  REQUIRE(p.survived(7));
  REQUIRE(p.final_hp == 22);
  REQUIRE(p.board ==
          std::vector<std::string>{"#     #", "#     #", "#     #", "#     #", "#    T#"});
  p = play({4, 0, 0, 0, 0}, "DDDDD", rules);
  REQUIRE(p.death == Death::Caught);
  REQUIRE(p.turns_played == 5);
  REQUIRE(p.board.back() == "#  X  #");
  // the roll table
  REQUIRE(snake_columns(16) == 1u << 1);
  REQUIRE(snake_columns(1) == 1u << 5);
  REQUIRE(snake_columns(21) == ((1u << 1) | (1u << 3) | (1u << 5)));
  REQUIRE(snake_columns(0) == 0);
  REQUIRE(snake_columns(32) == 0);
  REQUIRE(fly_column(32) == 0);
  REQUIRE(fly_column(33) == 6);
  // HP clamps at 0 and a fly eaten on that turn saves the toad: 2 HP, A into column 1 as a fly
  // lands
  Rules low;
  low.start_hp = 2;
  p = play({32, 0, 0, 0, 0}, "DDDDA", low);
  REQUIRE(p.death == Death::None);
  REQUIRE(p.final_hp == 5);
  p = play({0, 0, 0, 0, 0}, "DDDDA", low);
  REQUIRE(p.death == Death::Starved);
  REQUIRE(p.final_hp == 0);
}

TEST_CASE("river toad: the closed form and the board agree with the five phases on random files",
          "[river-toad]") {
  std::mt19937 rng(11);
  Rules rules;
  int deaths = 0, meals = 0;
  for (int t = 0; t < 300; ++t) {
    rules.start_hp = 1 + static_cast<int>(rng() % 12);
    rules.start_column = 1 + static_cast<int>(rng() % 5);
    const auto rolls = random_rolls(rng, 1 + static_cast<int>(rng() % 30), t % 3);
    LiteralBoard literal(rules);
    Board b(rules);
    State s{0, rules.start_column, rules.start_hp};
    for (size_t k = 0; k < rolls.size(); ++k) {
      std::vector<int> ok;
      for (int a = 0; a < kActions; ++a)
        if (legal(s.column, a)) ok.push_back(a);
      int a = ok[rng() % ok.size()];
      // half the time, the move beside a fly that lands this turn (the roll of 4 turns ago)
      const int landing = k >= 4 ? rolls[k - 4] : -1;
      for (int x : ok)
        if (((landing == 32 && s.column + kShift[x] == kFirstRiver) ||
             (landing == 33 && s.column + kShift[x] == kLastRiver)) &&
            rng() % 2)
          a = x;
      const toadbase::river_toad::Step st = step(rolls, s, a, rules);
      literal.turn(a, rolls[k]);
      b.turn(a, rolls[k]);
      INFO("case " << t << " turn " << k + 1);
      REQUIRE(literal.column == st.next.column);
      REQUIRE(literal.hp == st.next.hp);
      REQUIRE(literal.death == st.death);
      REQUIRE(literal.ate == st.ate);
      REQUIRE(b.column() == literal.column);
      REQUIRE(b.hp() == literal.hp);
      REQUIRE(b.death() == literal.death);
      REQUIRE(b.ate_last_turn() == literal.ate);
      REQUIRE(b.render() == literal.render());
      meals += st.ate;
      if (st.death != Death::None) {
        ++deaths;
        break;
      }
      s = st.next;
    }
  }
  // the files exercised every way a turn ends
  CHECK(deaths > 50);
  CHECK(meals > 10);
}

TEST_CASE("river toad: every algorithm against the enumeration of all plans",
          "[river-toad][algorithms]") {
  std::mt19937 rng(5);
  int no_survivor = 0;
  for (int t = 0; t < 60; ++t) {
    Rules rules;
    rules.start_hp = 1 + static_cast<int>(rng() % 8);
    rules.start_column = 1 + static_cast<int>(rng() % 5);
    const int n = 1 + static_cast<int>(rng() % 7);
    const auto rolls = random_rolls(rng, n, t % 3);
    const Enumerated e = enumerate(rolls, rules);
    const bool any = e.best_hp >= 0;
    no_survivor += !any;
    INFO("case " << t << " n " << n << " hp " << rules.start_hp);
    for (const auto& name : algorithm_names()) {
      const PlanResult r = solve_with(name, rolls, rules);
      INFO(name);
      REQUIRE(r.survived == any);
      REQUIRE_FALSE(r.gave_up);
      if (!any) continue;
      const Playout p = play(rolls, plan_string(r.actions), rules);
      REQUIRE(p.survived(rolls.size()));
      REQUIRE(p.final_hp == r.final_hp);
      if (name == "dp" || name == "astar" || name == "bfs") REQUIRE(r.final_hp == e.best_hp);
    }
    // dp with no survivor: the longest plan, then the most HP, then the fatal move
    const PlanResult dp = solve_dp(rolls, rules);
    if (!any) {
      const Playout p = play(rolls, plan_string(dp.actions), rules);
      REQUIRE(p.death != Death::None);
      REQUIRE(p.turns_played == e.longest + 1);
      const Playout before = play(rolls, plan_string(dp.actions).substr(0, e.longest), rules);
      REQUIRE(before.final_hp ==
              std::max(e.longest_hp, e.longest == 0 ? rules.start_hp : e.longest_hp));
    }
    // prefixes: best HP and exact counts
    const Prefixes px = prefix_outcomes(rolls, rules, kAllCounts);
    for (int k = 1; k <= n; ++k) {
      REQUIRE(px.surviving[k - 1] == toadbase::BigCount(e.surviving[k - 1]));
      REQUIRE((px.best_hp[k - 1] >= 0) == (e.surviving[k - 1] > 0));
    }
    REQUIRE(px.best_hp[n - 1] == e.best_hp);
    REQUIRE(px.counted == static_cast<size_t>(n));
    // a budget of one limb addition: the first turn's count, whole, and no more (when
    // anything survives it: adding nothing costs nothing)
    const Prefixes part = prefix_outcomes(rolls, rules, 1);
    REQUIRE(part.counted >= 1);
    if (e.surviving[0] > 0) REQUIRE(part.counted == 1);
    for (size_t k = 0; k < part.counted; ++k) REQUIRE(part.surviving[k] == px.surviving[k]);
    REQUIRE(part.best_hp == px.best_hp);
    REQUIRE(prefix_outcomes(rolls, rules, kNoCounts).counted == 0);
  }
  REQUIRE(no_survivor > 0);  // the cases include files nobody survives
}

TEST_CASE("river toad: the A* heuristic never overestimates", "[river-toad][algorithms]") {
  std::mt19937 rng(3);
  for (int t = 0; t < 40; ++t) {
    Rules rules;
    const auto rolls = random_rolls(rng, 6, t % 3);
    const auto h = relaxed_cost_to_go(rolls, rules);
    // from the start: h <= the HP given up by the best plan = start + 5 x flies - best HP
    const PlanResult dp = solve_dp(rolls, rules);
    if (!dp.survived) continue;
    int flies = 0;
    for (size_t k = 0; k + kDelay < rolls.size(); ++k) flies += fly_column(rolls[k]) >= 0;
    REQUIRE(h[rules.start_column] >= 0);
    REQUIRE(h[rules.start_column] <= rules.start_hp + rules.fly_hp * flies - dp.final_hp);
  }
}

TEST_CASE("river toad: roll files, and their defects named by line", "[river-toad]") {
  REQUIRE(parse("5 # number of rolls following this line\n21\n21\n10\n14\n27\n") == kSample);
  REQUIRE(parse("\n2\n\n 0 # nothing\n33\n\n") == std::vector<uint8_t>{0, 33});
  REQUIRE(parse("0\n").empty());
  auto err = [](const std::string& text) {
    try {
      parse(text);
    } catch (const RollError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  REQUIRE_THAT(err("3\n1\n2\n"), Contains("says 3 rolls, the file has 2"));
  REQUIRE_THAT(err("1\n1\n2\n"), Contains("rolls:3: more rolls than the count"));
  REQUIRE_THAT(err("2\n1\nx\n"), Contains("rolls:3: 'x' is not an integer"));
  REQUIRE_THAT(err("2\n1\n34\n"), Contains("rolls:3: roll 34 is outside 0..33"));
  REQUIRE_THAT(err("2\n-1\n3\n"), Contains("rolls:2: roll -1"));
  REQUIRE_THAT(err("2.5\n"), Contains("rolls:1"));
  REQUIRE_THAT(err(""), Contains("no count"));
  REQUIRE_THAT(err("2\n1 2\n"), Contains("rolls:2"));
}

TEST_CASE("cli river-toad: the parameters are camelCase wherever JSON shows them (flyHp)",
          "[cli][river-toad]") {
  using namespace tbtest;
  TempDir dir("rt-names");
  const std::string db = dir / "rt1";
  ok({"solve", "river-toad", "--turns", "1", "--db", db, "--quiet"});
  const std::string info = ok({"info", "--db", db}).out;
  CHECK_THAT(info, Contains("\"flyHp\":5") && !Contains("fly_hp"));
  CHECK(json::parse(ok({"info", "--db", db, "--json"}).out).at("parameters").contains("flyHp"));
  TestServer s({db});
  for (const char* path : {"/databases", "/api/"}) {
    const auto r = s.get(path);
    INFO(path);
    CHECK(r.status == 200);
    CHECK_THAT(r.body, Contains("flyHp") && !Contains("fly_hp"));
  }
}

TEST_CASE("cli river-toad: solve, check on good, illegal, dying and misprinted files",
          "[cli][river-toad]") {
  using namespace tbtest;
  TempDir dir("rt");
  write_file(dir / "sample.txt", "5 # number of rolls following this line\n21\n21\n10\n14\n27\n");
  RunResult r = ok({"river-toad", "solve", dir / "sample.txt", dir / "plan.txt"});
  REQUIRE(read_file(dir / "plan.txt") ==
          "DDDDS\n19\n#SS SS#\n# SSS #\n# S S #\n#S S S#\n# T   #\n");
  json j = json::parse(
      ok({"river-toad", "solve", dir / "sample.txt", "--algorithm", "all", "--json"}).out);
  REQUIRE(j["optimalHp"] == 19);
  REQUIRE(j["algorithms"].size() == 5);
  for (const auto& a : j["algorithms"]) REQUIRE(a["survived"] == true);
  // the sample's own output file is valid (7, 12 below the optimum)
  write_file(dir / "gagaf.txt", "GAGAF\n7\n#SS SS#\n# SSS #\n# S S #\n#S S S#\n#   T #\n");
  j = json::parse(ok({"river-toad", "check", dir / "sample.txt", dir / "gagaf.txt", "--json"}).out);
  REQUIRE(j["valid"] == true);
  REQUIRE(j["hpBelowOptimum"] == 12);
  // misprinted HP, misprinted board
  write_file(dir / "hp.txt", "GAGAF\n8\n#SS SS#\n# SSS #\n# S S #\n#S S S#\n#   T #\n");
  j = json::parse(
      run_expecting({"river-toad", "check", dir / "sample.txt", dir / "hp.txt", "--json"}, 1).out);
  REQUIRE(j["hpMatches"] == false);
  write_file(dir / "board.txt", "GAGAF\n7\n#SS SS#\n# SSS #\n# S S #\n#S S S#\n#  T  #\n");
  j = json::parse(
      run_expecting({"river-toad", "check", dir / "sample.txt", dir / "board.txt", "--json"}, 1)
          .out);
  REQUIRE(j["boardMatches"] == false);
  REQUIRE(j["firstWrongBoardLine"] == 7);
  // illegal: G from column 5
  write_file(dir / "illegal.txt", "GGAAF\n7\n");
  r = run_expecting({"river-toad", "check", dir / "sample.txt", dir / "illegal.txt"}, 1);
  REQUIRE_THAT(r.out, Contains("line 1, turn 2"));
  // an illegal plan has no final HP to compare: never "hpMatches": false for two equal HPs
  write_file(dir / "illegal20.txt", "XDDDD\n20\n");
  j = json::parse(
      run_expecting({"river-toad", "check", dir / "sample.txt", dir / "illegal20.txt", "--json"}, 1)
          .out);
  REQUIRE(j["legal"] == false);
  REQUIRE(j["printedHp"] == 20);
  REQUIRE(j["hpMatches"].is_null());
  REQUIRE(j["boardMatches"].is_null());
  // dying: stays in column 3, where roll 1 (21) lands on turn 5
  write_file(dir / "dies.txt", "DDDDD\n20\n#SS SS#\n# SSS #\n# S S #\n#S S S#\n#  X  #\n");
  r = run_expecting({"river-toad", "check", dir / "sample.txt", dir / "dies.txt"}, 1);
  REQUIRE_THAT(r.out, Contains("dies: on turn 5"));
  REQUIRE_THAT(r.out, Contains("caught"));
  // no survivor: exit 3, the output file still written, with X
  write_file(dir / "dead.txt", "6\n31\n31\n31\n31\n31\n0\n");
  r = run_expecting({"river-toad", "solve", dir / "dead.txt", dir / "dead-out.txt"}, 3);
  REQUIRE_THAT(r.out, Contains("no surviving plan"));
  REQUIRE_THAT(read_file(dir / "dead-out.txt"), Contains("#  X  #"));
  // bad roll files name their line and leave no output file
  write_file(dir / "bad.txt", "2\n1\n40\n");
  r = run_expecting({"river-toad", "solve", dir / "bad.txt", dir / "never.txt"}, 1);
  REQUIRE_THAT(r.err, Contains("bad.txt:3"));
  REQUIRE_FALSE(std::filesystem::exists(dir / "never.txt"));
  REQUIRE_THAT(
      run_expecting({"river-toad", "solve", dir / "sample.txt", "--algorithm", "magic"}, 2).err,
      Contains("'magic'"));
  // - is standard input for the roll file, standard output for the output file
  r = ok({"river-toad", "solve", "-", "-"}, "5\n21\n21\n10\n14\n27\n");
  REQUIRE(r.out == "DDDDS\n19\n#SS SS#\n# SSS #\n# S S #\n#S S S#\n# T   #\n");
  REQUIRE(json::parse(
              ok({"river-toad", "check", dir / "sample.txt", "-", "--json"}, r.out).out)["valid"] ==
          true);
  REQUIRE_THAT(run_expecting({"river-toad", "check", "-", "-"}, 2).err, Contains("both"));
  // the optimal replay of a file nobody survives: exit 3; a given plan that dies: exit 1
  REQUIRE_THAT(run_expecting({"river-toad", "play", dir / "dead.txt"}, 3).out,
               Contains("nobody survives"));
  run_expecting({"river-toad", "play", dir / "sample.txt", "--plan", "DDDDD"}, 1);
  // prefixes
  r = ok({"river-toad", "prefixes", dir / "sample.txt", "--json"});
  std::istringstream lines(r.out);
  std::string line, last;
  int count = 0;
  while (std::getline(lines, line)) last = line, ++count;
  REQUIRE(count == 5);
  REQUIRE(json::parse(last)["bestHp"] == 19);
}

TEST_CASE("cli river-toad: strict HP lines, extra board rows, bounded options (review findings)",
          "[cli][river-toad]") {
  using namespace tbtest;
  TempDir dir("rt-review");
  write_file(dir / "sample.txt", "5\n21\n21\n10\n14\n27\n");
  const std::string board = "#SS SS#\n# SSS #\n# S S #\n#S S S#\n#   T #\n";
  for (const char* hp : {"1-2", "7-", "--5", "-"}) {
    write_file(dir / "hp.txt", std::string("GAGAF\n") + hp + "\n" + board);
    RunResult r = run_expecting({"river-toad", "check", dir / "sample.txt", dir / "hp.txt"}, 1);
    INFO(hp);
    REQUIRE_THAT(r.err, Contains("hp.txt:2"));
  }
  write_file(dir / "extra.txt", "GAGAF\n7\n" + board + "#     #\n");
  json j = json::parse(
      run_expecting({"river-toad", "check", dir / "sample.txt", dir / "extra.txt", "--json"}, 1)
          .out);
  REQUIRE(j["boardMatches"] == false);
  REQUIRE(j["firstWrongBoardLine"] == 8);
  run_expecting({"river-toad", "solve", dir / "sample.txt", "--fly-hp", "1001"}, 2);
  run_expecting({"river-toad", "solve", dir / "sample.txt", "--hp", "0"}, 2);
  run_expecting({"river-toad", "solve", dir / "sample.txt", "--column", "6"}, 2);
  // large but allowed values: every algorithm still finds the survivors
  write_file(dir / "flies.txt", "12\n32\n33\n32\n33\n32\n33\n32\n33\n32\n33\n32\n33\n");
  j = json::parse(ok({"river-toad", "solve", dir / "flies.txt", "--algorithm", "all", "--fly-hp",
                      "1000", "--hp", "1000000", "--json"})
                      .out);
  for (const auto& a : j["algorithms"]) REQUIRE(a["survived"] == true);
}
