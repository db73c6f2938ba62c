// The frog puzzle end to end through the real binary: solve into a database, query (the
// one-player UWAPI shape), analyze, verify, validate; `frog-puzzle solve` in every format and
// `frog-puzzle check` on the sources' own solutions and on altered ones.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "support.hpp"

using namespace tbtest;
using Catch::Matchers::Contains;
using json = nlohmann::json;

namespace {


RunResult fails(const std::vector<std::string>& args, int rc, const std::string& input = "") {
  return run_expecting(args, rc, input);
}

// What the blog prints for solve([1, 1, 1, 0, -1, -1, -1]) (frog-swap-bfs-blog.txt).
const char* kBlogSolution =
    "[[1, 1, 1, 0, -1, -1, -1], [1, 1, 0, 1, -1, -1, -1], [1, 1, -1, 1, 0, -1, -1], "
    "[1, 1, -1, 1, -1, 0, -1], [1, 1, -1, 0, -1, 1, -1], [1, 0, -1, 1, -1, 1, -1], "
    "[0, 1, -1, 1, -1, 1, -1], [-1, 1, 0, 1, -1, 1, -1], [-1, 1, -1, 1, 0, 1, -1], "
    "[-1, 1, -1, 1, -1, 1, 0], [-1, 1, -1, 1, -1, 0, 1], [-1, 1, -1, 0, -1, 1, 1], "
    "[-1, 0, -1, 1, -1, 1, 1], [-1, -1, 0, 1, -1, 1, 1], [-1, -1, -1, 1, 0, 1, 1], "
    "[-1, -1, -1, 0, 1, 1, 1]]";

}  // namespace

TEST_CASE("cli frog-puzzle: solve prints the blog's solution, the article's moves, counts and JSON",
          "[cli][frog-puzzle]") {
  REQUIRE(ok({"frog-puzzle", "solve", "LLL_RRR", "--format", "blog"}).out == std::string(kBlogSolution) + "\n");
  const std::string moves = ok({"frog-puzzle", "solve", "LLL_RRR", "--format", "moves"}).out;
  REQUIRE(moves.rfind("L from 2 to 3\nR from 4 to 2\nR from 5 to 4\n", 0) == 0);
  const std::string text = ok({"frog-puzzle", "solve", "LLL_RRR"}).out;
  REQUIRE_THAT(text, Contains("15 moves (fewest), 2 optimal solutions"));
  json j = json::parse(ok({"frog-puzzle", "solve", "1_xxxx-o", "--json"}).out);
  REQUIRE(j["moves"] == 4 * 1 + 4 + 1);
  REQUIRE(j["solutions"] == "8");  // Fibonacci(4 + 2)
  REQUIRE(j["solution"].size() == 9);
  REQUIRE(j["solution"].back()["position"] == "R_LLLL");
  j = json::parse(ok({"frog-puzzle", "solve", "LLL_R", "--all", "--json"}).out);
  REQUIRE(j["allSolutions"].size() == 5);
  // the blog's challenge
  j = json::parse(ok({"frog-puzzle", "solve", "[1, 1, 1, 1, 1, 1, 1, 1, 0, -1, -1, -1, -1, -1, -1, -1, -1]", "--json"}).out);
  REQUIRE(j["moves"] == 80);
  REQUIRE(j["solutions"] == "2");
  // counts past 64 bits are exact
  j = json::parse(ok({"frog-puzzle", "solve", "LLLLL_____RRRRR", "--json"}).out);
  REQUIRE(j["solutions"].get<std::string>().size() > 20);
  REQUIRE(j["moves"] == 5 * 10 + 25);
  // a Python tuple is a list too
  j = json::parse(ok({"frog-puzzle", "solve", "(1, 1, 0, -1, -1)", "--json"}).out);
  REQUIRE(j["position"] == "LL_RR");
  REQUIRE(j["moves"] == 8);
  // --all refuses politely past its limit; a dead end exits 3 (unsolvable); bad input exits 1;
  // a command-line mistake exits 2
  RunResult r = fails({"frog-puzzle", "solve", "LLLL___RRRR", "--all", "--limit", "10"}, 1);
  REQUIRE_THAT(r.err, Contains("--limit"));
  r = fails({"frog-puzzle", "solve", "_LLLRRR"}, 3);
  REQUIRE_THAT(r.out, Contains("cannot be reached"));
  j = json::parse(fails({"frog-puzzle", "solve", "_LLRR", "--json"}, 3).out);
  REQUIRE(j["solvable"] == false);
  REQUIRE(j["reachablePositions"].get<int>() > 0);
  r = fails({"frog-puzzle", "solve", "LLXRR"}, 1);
  REQUIRE_THAT(r.err, Contains("LLXRR"));
  REQUIRE_THAT(fails({"frog-puzzle", "solve", "LLL_RRR", "--format", "poem"}, 2).err, Contains("'poem'"));
}

TEST_CASE("cli frog-puzzle: check accepts the sources' solutions and names the first bad step",
          "[cli][frog-puzzle]") {
  TempDir dir("fp-check");
  write_file(dir / "blog.txt", kBlogSolution);
  json j = json::parse(ok({"frog-puzzle", "check", "LLL_RRR", dir / "blog.txt", "--json"}).out);
  REQUIRE(j["legal"] == true);
  REQUIRE(j["reachesGoal"] == true);
  REQUIRE(j["optimal"] == true);
  REQUIRE(j["format"] == "blog");
  // one board per line, without the start
  std::string lines;
  {
    std::string s = kBlogSolution;
    size_t pos = s.find("], [");
    s = s.substr(pos + 3, s.size() - pos - 4);  // drop the start and the outer brackets
    for (size_t i; (i = s.find("], [")) != std::string::npos;) s.replace(i, 4, "]\n[");
    lines = s + "\n";
  }
  REQUIRE(ok({"frog-puzzle", "check", "LLL_RRR", "-"}, lines).out.rfind("legal: 15 moves", 0) == 0);
  // altered: the fourth board's frogs swapped -> the first illegal step, with its line
  std::string bad = lines;
  const std::string fourth = "[1, 1, -1, 0, -1, 1, -1]";
  bad.replace(bad.find(fourth), fourth.size(), "[1, 1, -1, 0, 1, -1, -1]");
  RunResult r = fails({"frog-puzzle", "check", "LLL_RRR", "-", "--json"}, 1, bad);
  j = json::parse(r.out);
  REQUIRE(j["legal"] == false);
  REQUIRE(j["firstIllegal"]["step"] == 4);
  REQUIRE(j["firstIllegal"]["line"] == 4);
  // the same boards as Python tuples
  std::string tuples = lines;
  for (char& c : tuples) c = c == '[' ? '(' : c == ']' ? ')' : c;
  REQUIRE(ok({"frog-puzzle", "check", "LLL_RRR", "-"}, tuples).out.rfind("legal: 15 moves", 0) == 0);
  // the article's moves
  const std::string moves = ok({"frog-puzzle", "solve", "LLL_RRR", "--format", "moves"}).out;
  REQUIRE_THAT(ok({"frog-puzzle", "check", "LLL_RRR", "-"}, moves).out, Contains("optimal"));
  r = fails({"frog-puzzle", "check", "LLL_RRR", "-"}, 1, "L from 2 to 3\nL from 1 to 2\nL from 0 to 1\n");
  REQUIRE_THAT(r.out, Contains("not a solution"));
  REQUIRE_THAT(r.out, Contains("dead end"));
  r = fails({"frog-puzzle", "check", "LLL_RRR", "-"}, 1, "L from 2 to 3\n\nR from 4 to 3\n");
  REQUIRE_THAT(r.out, Contains("line 3"));
  REQUIRE_THAT(r.out, Contains("not empty"));
  r = fails({"frog-puzzle", "check", "LLL_RRR", "-"}, 1, "R from 2 to 3\n");
  REQUIRE_THAT(r.out, Contains("holds an L"));
  r = fails({"frog-puzzle", "check", "LLL_RRR", "-"}, 1, "L goes from 2 to 3\n");
  REQUIRE_THAT(r.err, Contains("line 1"));
  r = fails({"frog-puzzle", "check", "LLL_RRR", "-"}, 1, "[1, 1, 0, 1, -1, -1, -1]\n[1, 1, 0, 1, -1, -1]\n");
  REQUIRE_THAT(r.out, Contains("cells"));
  fails({"frog-puzzle", "check", "LLL_RRR", dir / "missing.txt"}, 1);
  fails({"frog-puzzle", "check", "LLL_RRR", "-"}, 1, "");
}

TEST_CASE("cli frog-puzzle: a database answers queries in the one-player shape, analyze, verify",
          "[cli][frog-puzzle]") {
  TempDir dir("fp-db");
  const std::string db = dir / "f44";
  json s = json::parse(ok({"solve", "frog-puzzle", "--left", "4", "--right", "4", "--db", db, "--quiet", "--json"}).out);
  REQUIRE(s["positions"] == 630);
  json q = json::parse(ok({"query", "--db", db, "LLLL_RRRR"}).out);
  REQUIRE(q["autoguiPosition"] == "1_LLLL-RRRR");  // as GamesmanUni's board reads it
  REQUIRE(q["moves"][0]["autoguiPosition"].get<std::string>().rfind("1_", 0) == 0);
  REQUIRE(q["positionValue"] == "win");
  REQUIRE(q["remoteness"] == 24);
  REQUIRE(q["moves"].size() == 2);
  for (const auto& m : q["moves"]) {
    REQUIRE(m["moveValue"] == "win");
    REQUIRE(m["remoteness"] == 23);
    REQUIRE(m["deltaRemoteness"] == 1);
  }
  // every position the answer prints is read back as the same position
  for (const json& m : q["moves"])
    REQUIRE(json::parse(ok({"query", "--db", db, m["autoguiPosition"].get<std::string>()}).out)["position"] ==
            m["position"]);
  REQUIRE(json::parse(ok({"query", "--db", db, q["autoguiPosition"].get<std::string>()}).out) == q);
  q = json::parse(ok({"query", "--db", db, "LLL_LRRRR"}).out);  // one win, one dead end
  REQUIRE(q["moves"][0]["moveValue"] == "win");
  REQUIRE(q["moves"].back()["moveValue"] == "lose");
  REQUIRE(q["moves"].back()["positionValue"] == "lose");
  // a dead end says plainly that the goal cannot be reached; a move into it changes no count
  // of moves (0, as the UWAPI route says), where remoteness minus 0 read as a gain
  REQUIRE(q["goalReachable"] == true);
  REQUIRE(q["moves"][0]["goalReachable"] == true);
  REQUIRE(q["moves"].back()["goalReachable"] == false);
  REQUIRE(q["moves"].back()["deltaRemoteness"] == 0);
  REQUIRE(q["moves"][0]["deltaRemoteness"] == 1);
  const std::string dead = q["moves"].back()["position"];
  const json d = json::parse(ok({"query", "--db", db, dead}).out);
  REQUIRE(d["goalReachable"] == false);
  REQUIRE(d["positionValue"] == "lose");
  const std::string text = ok({"query", "--db", db, "--text", "LLL_LRRRR", dead}).out;
  REQUIRE_THAT(text, Contains("LLL_LRRRR: win in "));
  REQUIRE_THAT(text, Contains(dead + ": dead end, the goal cannot be reached"));
  REQUIRE_THAT(text, !Contains("lose in 0"));
  // smaller boards with one empty cell, GamesCrafters strings; the goal is a win in 0
  q = json::parse(ok({"query", "--db", db, "1_xx-oo"}).out);
  REQUIRE(q["position"] == "LL_RR");
  REQUIRE(q["remoteness"] == 8);
  q = json::parse(ok({"query", "--db", db, "RRRR_LLLL"}).out);
  REQUIRE(q["positionValue"] == "win");
  REQUIRE(q["remoteness"] == 0);
  REQUIRE(q["moves"].empty());
  RunResult r = fails({"query", "--db", db, "LL__RR", "LLLL_RRRR", "--turn", "2"}, 2);
  REQUIRE_THAT(r.err, Contains("--turn: the frog puzzle has one player: the player to move can only be 1, not '2'"));
  json a = json::parse(ok({"analyze", "--db", db, "--json"}).out);
  REQUIRE(a["fromStart"]["reachable"] == 195);
  REQUIRE(a["fromStart"]["canReachGoal"].get<uint64_t>() + a["fromStart"]["deadEnds"].get<uint64_t>() == 195);
  REQUIRE(a["fromStart"]["startRemoteness"] == 24);
  uint64_t by_r = 0;
  for (const auto& row : a["fromStart"]["reachableByRemoteness"]) by_r += row["positions"].get<uint64_t>();
  REQUIRE(by_r == a["fromStart"]["canReachGoal"]);
  // a list position on the command line is one position, not five
  q = json::parse(ok({"query", "--db", db, "[1, 1, 0, -1, -1]"}).out);
  REQUIRE(q["position"] == "LL_RR");
  REQUIRE_THAT(ok({"analyze", "--db", db}).out, Contains("195 positions reachable"));
  REQUIRE_THAT(ok({"verify", "--db", db, "--quiet"}).out, Contains("OK, 630 positions"));
  write_file(dir / "claims.tsv", "LLLL_RRRR\twin\t24\n_LLLLRRRR\tlose\nLLLL_RRRR\twin\t23\n");
  r = fails({"validate", "--db", db, dir / "claims.tsv", "--json"}, 1);
  json v = json::parse(r.out);
  REQUIRE(v["agreeing"] == 2);
  REQUIRE(v["disagreeing"] == 1);
  // several empty cells and --start
  s = json::parse(ok({"solve", "frog-puzzle", "--start", "LL__RRR", "--db", dir / "s", "--quiet", "--json"}).out);
  REQUIRE(s["parameters"] == json{{"left", 2}, {"right", 3}, {"empty", 2}});
  fails({"solve", "frog-puzzle", "--left", "15", "--right", "15", "--db", dir / "big", "--quiet"}, 2);
  fails({"solve", "frog-puzzle", "--left", "3", "--empty", "0", "--db", dir / "none", "--quiet"}, 2);
}
