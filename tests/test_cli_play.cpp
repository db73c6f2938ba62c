// Watching and playing in the terminal, through the real binary: `toadbase play` against the
// oracle (perfect play realises the start's remoteness and the right player wins; a person's
// moves by name, number or position; bad lines, q and the end of input), the puzzle played
// alone; `forest play` drawing the board after every step with [r, c] tiles, and its --json.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "support.hpp"

using namespace tbtest;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using json = nlohmann::json;

namespace {

/// A Toads and Frogs player as the terminal names it, as the page does: "Toads (player 1)".
std::string side(char player) {
  return std::string(player == '1' ? "Toads" : "Frogs") + " (player " + player + ")";
}

/// The positions a play shows, in order (the lines "<position>  [<side> (player N) to move: ]value in r").
std::vector<std::string> shown_positions(const std::string& out) {
  std::vector<std::string> v;
  const std::regex row("^([12]_[TF-]+|[LR_]+)  .*(win|lose) in [0-9]+$");
  for (const auto& line : lines_of(out)) {
    std::smatch m;
    if (std::regex_match(line, m, row)) v.push_back(m[1]);
  }
  return v;
}

}  // namespace

TEST_CASE("cli play: perfect play on both sides realises the oracle's value and remoteness", "[cli][play]") {
  TempDir dir("play");
  const std::string db = dir / "tf8";
  ok({"solve", "toads-frogs", "--length", "8", "--db", db, "--quiet"});
  for (const std::string start : {"1_TT--FF", "2_TT--FF", "1_TTT--FFF", "2_T-F", "1_T--F"}) {
    INFO(start);
    const RunResult r = ok({"play", "--db", db, start, "--watch"});
    const auto shown = shown_positions(r.out);
    REQUIRE(!shown.empty());
    CHECK(shown.front() == start);
    // every position shown with the oracle's value, every step a move of the rules
    for (size_t i = 0; i < shown.size(); ++i) {
      const Truth t = oracle(shown[i]);
      CHECK_THAT(r.out, Contains(shown[i] + "  " + side(shown[i][0]) + " to move: " +
                                 (t.win ? "win" : "lose") + " in " + std::to_string(t.remoteness)));
      if (i + 1 < shown.size()) {
        const auto kids = oracle_children(shown[i]);
        CHECK(std::find(kids.begin(), kids.end(), shown[i + 1]) != kids.end());
      }
    }
    // winners hurry, losers stall: the game lasts exactly the start's remoteness
    const Truth t = oracle(start);
    CHECK(shown.size() == t.remoteness + 1);
    const char mover = start[0];
    const char winner = t.win ? mover : (mover == '1' ? '2' : '1');
    CHECK_THAT(r.out, Contains(side(winner) + " wins after " + std::to_string(t.remoteness) + " moves"));
  }
  // the start position of the database when none is given
  CHECK(shown_positions(ok({"play", "--db", db, "--watch"}).out).front() == "1_TTT--FFF");
}

TEST_CASE("cli play: a person's moves by name, number or position, bad lines, q and the end of input",
          "[cli][play]") {
  TempDir dir("play-person");
  const std::string db = dir / "tf6";
  ok({"solve", "toads-frogs", "--length", "6", "--db", db, "--quiet"});
  // you are player 1 at 1_TT--FF (a win in 11): always the first move listed (the best)
  std::string input = "zz\n# a comment\n\n";
  for (int i = 0; i < 6; ++i) input += "1\n";
  const RunResult r = ok({"play", "--db", db, "1_TT--FF", "--as", "1"}, input);
  CHECK_THAT(r.out, Contains("'zz' is not a move here"));
  CHECK_THAT(r.out, Contains("Toads (player 1) wins after 11 moves"));
  CHECK_THAT(r.out, Contains("  1. 1-2 -> 2_T-T-FF  win in 11"));  // the moves listed with their values
  // by name and by the position it leads to, then q
  const RunResult named = ok({"play", "--db", db, "1_TT--FF"}, "1-2\nq\n");
  CHECK_THAT(named.out, Contains("you play 1-2 (win in 11)"));
  CHECK_THAT(named.out, Contains("Frogs (player 2) plays"));
  CHECK_THAT(named.out, Contains("stopped at"));
  const RunResult by_position = ok({"play", "--db", db, "1_TT--FF"}, "2_T-T-FF\n");
  CHECK_THAT(by_position.out, Contains("you play 1-2") && Contains("no more input: stopped at"));
  // as player 2 the machine moves first
  const RunResult second = ok({"play", "--db", db, "1_TT--FF", "--as", "2"}, "");
  CHECK_THAT(second.out, Contains("Toads (player 1) plays 1-2 (win in 11)"));
  CHECK_THAT(second.out, StartsWith("you are Frogs (player 2);"));
  // a puzzle database plays alone: perfect play reaches the goal in the remoteness
  const std::string fp = dir / "fp";
  ok({"solve", "frog-puzzle", "--left", "2", "--db", fp, "--quiet"});
  const RunResult puzzle = ok({"play", "--db", fp, "--watch"});
  CHECK(shown_positions(puzzle.out).front() == "LL_RR");
  CHECK(shown_positions(puzzle.out).back() == "RR_LL");
  CHECK_THAT(puzzle.out, Contains("the goal, after 8 moves"));
  // one player: no "both sides" to speak of
  CHECK_THAT(puzzle.out, StartsWith("perfect play;"));
}

TEST_CASE("cli forest play: the board after every step, [r, c] tiles, and one JSON object a step",
          "[cli][forest][play]") {
  for (const char* seed : {"1", "7", "12"}) {
    for (const char* side : {"3", "4"}) {
      INFO("seed " << seed << ", side " << side);
      const int s = std::stoi(side);
      const std::string text = ok({"forest", "play", "--side", side, "--seed", seed, "--agent", "original"}).out;
      const auto lines = lines_of(text);
      // no flat tile numbers: every tile is [r, c]
      CHECK_FALSE(std::regex_search(text, std::regex("(move to|stone at) [0-9]")));
      // each step line is followed by the two boards, side rows
      const std::regex step("^  ([0-9]+)\\. (move to|stone at) \\[([0-9]+), ([0-9]+)\\].*; score (-?[0-9]+)$");
      const std::regex board_row("^       [.MTPS]( [.MTPS])* +[W.blBxo?S]( [W.blBxo?S])*$");
      int steps = 0;
      for (size_t i = 0; i < lines.size(); ++i) {
        std::smatch m;
        if (!std::regex_match(lines[i], m, step)) continue;
        ++steps;
        CHECK(std::stoi(m[1]) == steps);
        CHECK(std::stoi(m[3]) < s);
        CHECK(std::stoi(m[4]) < s);
        REQUIRE(i + s < lines.size());
        int wanderer = 0;
        for (int r = 1; r <= s; ++r) {
          INFO(lines[i + r]);
          CHECK(std::regex_match(lines[i + r], board_row));
          wanderer += static_cast<int>(std::count(lines[i + r].begin(), lines[i + r].end(), 'W'));
        }
        CHECK(wanderer == 1);  // he is somewhere, once
      }
      CHECK(steps > 0);
      // the JSON form: the forest, the same steps, the result
      const auto js = lines_of(ok({"forest", "play", "--side", side, "--seed", seed, "--agent", "original", "--json"}).out);
      REQUIRE(js.size() == static_cast<size_t>(steps) + 2);
      const json first = json::parse(js.front()), last = json::parse(js.back());
      CHECK(first.at("forest").size() == static_cast<size_t>(s));
      CHECK(first.at("side") == s);
      int moves = 0, stones = 0;
      long score = 0;
      for (size_t k = 1; k + 1 < js.size(); ++k) {
        const json st = json::parse(js[k]);
        CHECK(st.at("step") == k);
        (st.at("action") == "move" ? moves : stones) += 1;
        score = st.at("score");
        const auto knows = st.at("knows");
        REQUIRE(knows.size() == static_cast<size_t>(s));
        const int r = st.at("at")[0], c = st.at("at")[1];
        CHECK(knows[r].get<std::string>()[c] == 'W');  // where he stands
      }
      CHECK(last.at("result").at("moves") == moves);
      CHECK(last.at("result").at("stones") == stones);
      CHECK(last.at("result").at("score") == score);
      CHECK_THAT(text, Contains("score " + std::to_string(score)));
    }
  }
}
