// End to end through the real toadbase binary, in temp directories under the build tree:
// solve, query (JSON fields, values against the oracle, move order, deltaRemoteness), info,
// analyze, validate, verify on good and corrupted databases, and bad inputs.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>

#include "solver/core/hash.hpp"
#include "support.hpp"

using namespace tbtest;
using Catch::Matchers::Contains;
using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

namespace {

namespace fs = std::filesystem;


/// Solves every board of `length` cells into `db`; returns the digest solve reports.
std::string solve(const std::string& db, int length, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"solve", "toads-frogs", "--length", std::to_string(length),
                                   "--db", db, "--quiet", "--json"};
  args.insert(args.end(), extra.begin(), extra.end());
  const json j = json::parse(ok(args).out);
  return j.at("digest").get<std::string>();
}

std::vector<std::string> keys(const ojson& j) {
  std::vector<std::string> out;
  for (auto it = j.begin(); it != j.end(); ++it) out.push_back(it.key());
  return out;
}

/// The board after moving the piece on `from` to `to` (the other player to move).
std::string after_move(const std::string& pos, int from, int to) {
  std::string s = pos;
  s[0] = pos[0] == '1' ? '2' : '1';
  std::swap(s[2 + from], s[2 + to]);
  return s;
}

/// Checks one line of `query` output against the oracle; returns the problems found.
std::string check_query_line(const std::string& pos, const std::string& line) {
  std::string problems;
  auto bad = [&](const std::string& what) { problems += pos + ": " + what + "\n"; };
  const ojson j = ojson::parse(line);
  if (keys(j) != std::vector<std::string>{"position", "autoguiPosition", "positionValue", "remoteness", "moves"})
    bad("keys " + j.dump());
  if (j.at("autoguiPosition") != j.at("position")) bad("autoguiPosition " + j.dump());
  const Truth t = oracle(pos);
  if (j.at("position") != pos) bad("position " + j.at("position").dump());
  if (j.at("positionValue") != (t.win ? "win" : "lose")) bad("positionValue");
  if (j.at("remoteness") != t.remoteness) bad("remoteness " + j.at("remoteness").dump());
  std::multiset<std::string> got_children;
  const auto want_children = oracle_children(pos);
  int min_losing_child = -1, max_winning_child = -1;
  for (const auto& m : j.at("moves")) {
    const Truth c = oracle(m.at("position").get<std::string>());
    const int r = static_cast<int>(c.remoteness);
    if (!c.win && (min_losing_child < 0 || r < min_losing_child)) min_losing_child = r;
    if (c.win && r > max_winning_child) max_winning_child = r;
  }
  bool seen_losing_move = false;
  int previous = -1;
  for (const auto& m : j.at("moves")) {
    if (keys(m) != std::vector<std::string>{"move", "autoguiMove", "position", "autoguiPosition", "moveValue",
                                            "positionValue", "remoteness", "deltaRemoteness"})
      bad("move keys " + m.dump());
    const std::string child = m.at("position");
    if (m.at("autoguiPosition") != child) bad("move autoguiPosition " + m.dump());
    got_children.insert(child);
    const Truth c = oracle(child);
    const bool winning = !c.win;  // a move to a losing position wins
    if (m.at("moveValue") != (winning ? "win" : "lose")) bad("moveValue " + m.dump());
    if (m.at("positionValue") != (c.win ? "win" : "lose")) bad("child positionValue " + m.dump());
    if (m.at("remoteness") != c.remoteness) bad("child remoteness " + m.dump());
    // "from-to" names the move; autogui says M_from_to_x
    int from = -1, to = -1;
    if (std::sscanf(m.at("move").get<std::string>().c_str(), "%d-%d", &from, &to) != 2 ||
        from < 0 || to < 0 || from >= static_cast<int>(pos.size()) - 2 ||
        to >= static_cast<int>(pos.size()) - 2) {
      bad("move name " + m.dump());
      continue;
    }
    if (after_move(pos, from, to) != child) bad("move " + m.dump() + " does not lead there");
    if (m.at("autoguiMove") != "M_" + std::to_string(from) + "_" + std::to_string(to) + "_x")
      bad("autoguiMove " + m.dump());
    // deltaRemoteness: winning moves against the quickest win, losing moves against the
    // longest loss
    const int r = static_cast<int>(c.remoteness);
    const int delta = winning ? r - min_losing_child : max_winning_child - r;
    if (m.at("deltaRemoteness") != delta) bad("deltaRemoteness " + m.dump() + " want " + std::to_string(delta));
    // best first: winning moves by shortest remoteness, then losing moves by longest
    if (winning && seen_losing_move) bad("a winning move after a losing one");
    if (!winning && !seen_losing_move) {
      seen_losing_move = true;
      previous = -1;
    }
    if (previous >= 0 && (winning ? r < previous : r > previous)) bad("moves out of order");
    previous = r;
  }
  if (got_children != std::multiset<std::string>(want_children.begin(), want_children.end()))
    bad("children differ from the oracle's");
  // the first move is the best one: it realises the position's remoteness
  if (!j.at("moves").empty() && j.at("moves")[0].at("remoteness") != t.remoteness - 1)
    bad("the first move is not the best");
  return problems;
}

/// The outcome class counts (L, R, N, P) of every board of n cells by piece counts
/// (toads, frogs), by the oracle; (-1, -1) holds the totals.
std::map<std::pair<int, int>, std::map<char, uint64_t>> oracle_classes(int n) {
  std::map<std::pair<int, int>, std::map<char, uint64_t>> out;
  for (const auto& b : all_boards(n)) {
    const bool l = oracle("1_" + b).win, r = oracle("2_" + b).win;
    const char c = l && !r ? 'L' : !l && r ? 'R' : l ? 'N' : 'P';
    ++out[piece_counts(b)][c];
    ++out[{-1, -1}][c];
  }
  return out;
}

/// Queries every board, both players to move, as one stdin batch and checks each line
/// against the oracle (reporting the first few problems).
void query_all_through_stdin(const std::string& db, const std::vector<std::string>& boards) {
  std::string input;
  std::vector<std::string> positions;
  for (const auto& b : boards)
    for (const char* turn : {"1_", "2_"}) {
      positions.push_back(turn + b);
      input += turn + b + "\n";
    }
  const RunResult r = ok({"query", "--db", db, "-"}, input);
  const auto lines = lines_of(r.out);
  REQUIRE(lines.size() == positions.size());
  uint64_t failures = 0;
  for (size_t k = 0; k < lines.size(); ++k) {
    const std::string problems = check_query_line(positions[k], lines[k]);
    if (!problems.empty() && ++failures <= 5) FAIL_CHECK(problems << "  line: " << lines[k]);
  }
  CHECK(failures == 0);
}

}  // namespace

TEST_CASE("cli: query prints UWAPI-shaped JSON that agrees with the oracle", "[cli]") {
  TempDir dir("cli-query");
  const std::string db = dir / "db";
  solve(db, 8);

  SECTION("one position") {
    const RunResult r = ok({"query", "--db", db, "1_TTT--FFF"});
    const auto lines = lines_of(r.out);
    REQUIRE(lines.size() == 1);
    const ojson j = ojson::parse(lines[0]);
    CHECK(j.at("position") == "1_TTT--FFF");
    CHECK(j.at("positionValue") == "win");
    CHECK(j.at("remoteness") == 15);
    CHECK(check_query_line("1_TTT--FFF", lines[0]).empty());
  }
  SECTION("every position of the database through standard input") {
    query_all_through_stdin(db, all_boards(8));
  }
  SECTION("shorter boards: the same game, answered through padding with frozen pieces") {
    std::vector<std::string> boards;
    for (int n = 1; n <= 7; ++n)
      for (const auto& b : all_boards(n)) boards.push_back(b);
    query_all_through_stdin(db, boards);
  }
  SECTION("lenient input: lower case, _ and . cells, bare boards with --turn, blank lines") {
    const RunResult r = ok({"query", "--db", db, "--turn", "2", "-"},
                           "tt-..fff\n\n2_TTT_.FFF\r\n  \n");
    const auto lines = lines_of(r.out);
    REQUIRE(lines.size() == 2);
    CHECK(ojson::parse(lines[0]).at("position") == "2_TT---FFF");
    CHECK(ojson::parse(lines[1]).at("position") == "2_TTT--FFF");
  }
  SECTION("positions as arguments, in order; --text") {
    const RunResult r = ok({"query", "--db", db, "2_TTT--FFF", "1_TTT--FFF"});
    const auto lines = lines_of(r.out);
    REQUIRE(lines.size() == 2);
    CHECK(check_query_line("2_TTT--FFF", lines[0]).empty());
    CHECK(check_query_line("1_TTT--FFF", lines[1]).empty());
    const RunResult t = ok({"query", "--db", db, "--text", "1_TTT--FFF"});
    CHECK_THAT(t.out, Contains("1_TTT--FFF: win in 15"));
  }
  SECTION("a bad position gives an error line and exit 1; the good lines are still printed") {
    const std::vector<std::string> input = {"1_TTT--FFF", "3_TTT--FFF", "1_TTT---FFF",
                                            "1_TTTX-FFF", "TTT--FFF", "2_TTT--FFF"};
    std::string text;
    for (const auto& p : input) text += p + "\n";
    const std::vector<std::string> args = {"query", "--db", db, "-"};
    const RunResult r = run_toadbase(args, text);
    INFO(describe(args, r));
    CHECK(r.rc == 1);
    const auto lines = lines_of(r.out);
    REQUIRE(lines.size() == input.size());
    CHECK(check_query_line("1_TTT--FFF", lines[0]).empty());
    CHECK(check_query_line("2_TTT--FFF", lines[5]).empty());
    const std::vector<std::string> why = {"", "'3'", "9 cells", "'X'", "no player to move", ""};
    for (size_t k = 1; k <= 4; ++k) {
      const ojson e = ojson::parse(lines[k]);
      CHECK(keys(e) == std::vector<std::string>{"position", "error"});
      CHECK(e.at("position") == input[k]);
      CHECK_THAT(e.at("error").get<std::string>(), Contains(why[k]));
    }
  }
}

TEST_CASE("cli: a bare board that starts with an empty cell is not mistaken for an option",
          "[cli]") {
  // `-TTT-FFF` is a board (its first cell is empty); STYLE.md names this trap. The README
  // says such a board goes after `--`; without it the command must either answer or say
  // what went wrong with that argument, never report the positions as missing.
  TempDir dir("cli-dash");
  const std::string db = dir / "db";
  solve(db, 8);
  const RunResult quoted = ok({"query", "--db", db, "--turn", "1", "--", "-TTT-FFF"});
  CHECK(check_query_line("1_-TTT-FFF", lines_of(quoted.out).at(0)).empty());
  const RunResult piped = ok({"query", "--db", db, "--turn", "1", "-"}, "-TTT-FFF\n");
  CHECK(check_query_line("1_-TTT-FFF", lines_of(piped.out).at(0)).empty());
  const std::vector<std::string> args = {"query", "--db", db, "--turn", "1", "-TTT-FFF"};
  const RunResult r = run_toadbase(args);
  INFO(describe(args, r));
  if (r.rc == 0) {
    CHECK(check_query_line("1_-TTT-FFF", lines_of(r.out).at(0)).empty());
  } else {
    CHECK_THAT(r.err, Contains("-TTT-FFF"));
    CHECK_THAT(r.err, !Contains("positions is required"));
  }
}

TEST_CASE("cli: a solve reports one time, end to end, in its summary, and the progress gives counts", "[cli]") {
  TempDir dir("cli-one-time");
  const std::string db = dir / "tf6";
  const RunResult r = ok({"solve", "toads-frogs", "--length", "6", "--db", db});
  // the progress's last line (standard error): the totals, no time and no rate
  const auto err = lines_of(r.err);
  REQUIRE(!err.empty());
  CHECK_THAT(err.back(), Contains("done, ") && Contains(" positions"));
  CHECK_THAT(err.back(), !Contains(" s") && !Contains("pos/s"));
  // the summary: one time and its rate, the JSON's seconds
  const auto out = lines_of(r.out);
  REQUIRE(out.size() >= 2);
  CHECK_THAT(out[1], Contains("solved 1458 positions in ") && Contains(" M positions/s)"));
  const std::string all = r.out + r.err;
  size_t times = 0;
  for (size_t at = all.find(" s"); at != std::string::npos; at = all.find(" s", at + 1))
    if (at > 0 && std::isdigit(static_cast<unsigned char>(all[at - 1]))) ++times;
  CHECK(times == 1);
}

TEST_CASE("cli: info, analyze and solving again", "[cli]") {
  TempDir dir("cli-info");
  const std::string db = dir / "db";
  const std::string digest = solve(db, 8);

  const json info = json::parse(ok({"info", "--db", db, "--json"}).out);
  for (const char* k : {"game", "parameters", "positions", "digest", "complete"})
    CHECK(info.contains(k));
  CHECK(info.at("game") == "toads-frogs");
  CHECK(info.at("parameters") == json{{"length", 8}});
  CHECK(info.at("positions") == 13122);
  CHECK(info.at("complete") == true);
  CHECK(info.at("digest") == digest);
  CHECK(info.at("committedTiers") == info.at("tierCount"));
  CHECK(digest.size() == 16);
  CHECK(digest.find_first_not_of("0123456789abcdef") == std::string::npos);
  CHECK_THAT(ok({"info", "--db", db}).out, Contains(digest));

  const json a = json::parse(ok({"analyze", "--db", db, "--json"}).out);
  const uint64_t positions = a.at("positions");
  CHECK(positions == 13122);
  CHECK(a.at("wins").get<uint64_t>() + a.at("losses").get<uint64_t>() == positions);
  uint64_t by_r = 0, by_tier = 0, wins = 0, longest_win = 0, longest_loss = 0;
  for (const auto& row : a.at("byRemoteness")) {
    const uint64_t w = row.at("win"), l = row.at("lose"), r = row.at("remoteness");
    by_r += w + l;
    wins += w;
    if (w) longest_win = r;
    if (l) longest_loss = r;
    CHECK((w == 0 || r % 2 == 1));  // wins have odd remoteness, losses even
    CHECK((l == 0 || r % 2 == 0));
  }
  for (const auto& t : a.at("tiers")) by_tier += t.at("positions").get<uint64_t>();
  CHECK(by_r == positions);
  CHECK(by_tier == positions);
  CHECK(wins == a.at("wins"));
  // against the oracle
  uint64_t oracle_wins = 0;
  unsigned oracle_longest_win = 0, oracle_longest_loss = 0;
  for (const auto& b : all_boards(8))
    for (const char* turn : {"1_", "2_"}) {
      const Truth t = oracle(turn + b);
      oracle_wins += t.win;
      (t.win ? oracle_longest_win : oracle_longest_loss) =
          std::max(t.win ? oracle_longest_win : oracle_longest_loss, t.remoteness);
    }
  CHECK(wins == oracle_wins);
  CHECK(longest_win == oracle_longest_win);
  CHECK(longest_loss == oracle_longest_loss);
  CHECK(a.at("longestWin").at("remoteness") == oracle_longest_win);
  CHECK(oracle(a.at("longestWin").at("position").get<std::string>()).remoteness == oracle_longest_win);
  CHECK(a.at("longestLoss").at("remoteness") == oracle_longest_loss);
  CHECK(oracle(a.at("longestLoss").at("position").get<std::string>()).remoteness == oracle_longest_loss);
  // outcome classes: every board once
  const json& totals = a.at("outcomeClassTotals");
  auto want = oracle_classes(8);
  uint64_t boards = 0;
  for (const char* c : {"L", "R", "N", "P"}) {
    INFO("class " << c);
    boards += totals.at(c).get<uint64_t>();
    CHECK(totals.at(c) == want[{-1, -1}][c[0]]);
  }
  CHECK(boards == positions / 2);
  uint64_t rows = 0;
  CHECK(a.at("outcomeClasses").size() == want.size() - 1);  // every (toads, frogs) once
  for (const auto& row : a.at("outcomeClasses")) {
    const std::pair<int, int> counts{row.at("toads"), row.at("frogs")};
    for (const char* c : {"L", "R", "N", "P"}) {
      INFO(counts.first << " toads, " << counts.second << " frogs, class " << c);
      rows += row.at(c).get<uint64_t>();
      CHECK(row.at(c) == want[counts][c[0]]);
    }
  }
  CHECK(rows == positions / 2);

  // solving a complete database again does nothing and keeps the digest
  const json again = json::parse(ok({"solve", "toads-frogs", "--length", "8", "--db", db, "--quiet", "--json"}).out);
  CHECK(again.at("tiersSolved") == 0);
  CHECK(again.at("digest") == digest);
}

TEST_CASE("cli: the digest is the XXH64 of the engine's tier digests, for any thread count",
          "[cli][digest]") {
  TempDir dir("cli-threads");
  const std::string one = solve(dir / "one", 12, {"--threads", "1"});
  const std::string two = solve(dir / "two", 12, {"--threads", "2"});
  CHECK(one == two);
  // the same digest from an in-memory solve
  const SolvedSpace s(tf::SpaceParams{12, std::nullopt, std::nullopt});
  std::string all;
  for (const auto& recs : s.store.records) {
    const uint64_t h = toadbase::xxh64(recs.data(), recs.size());
    for (int i = 0; i < 8; ++i) all.push_back(static_cast<char>((h >> (8 * i)) & 0xff));
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx",
                static_cast<unsigned long long>(toadbase::xxh64(all.data(), all.size())));
  CHECK(one == hex);
}

TEST_CASE("cli: piece-count spaces through --toads/--frogs and --start", "[cli]") {
  TempDir dir("cli-start");
  const RunResult r = ok({"solve", "toads-frogs", "--start", "TTT---FFF", "--db", dir / "a", "--quiet"});
  const json info = json::parse(ok({"info", "--db", dir / "a", "--json"}).out);
  CHECK(info.at("parameters") == json{{"length", 9}, {"toads", 3}, {"frogs", 3}});
  CHECK(info.at("positions") == 2 * 84 * 20);
  const ojson q = ojson::parse(ok({"query", "--db", dir / "a", "1_TTT---FFF"}).out);
  CHECK(q.at("positionValue") == "lose");
  CHECK(q.at("remoteness") == 24);
  ok({"solve", "toads-frogs", "--length", "9", "--toads", "3", "--frogs", "3", "--db", dir / "b", "--quiet"});
  CHECK(json::parse(ok({"info", "--db", dir / "b", "--json"}).out).at("digest") == info.at("digest"));
  // a position outside the piece counts is an error line naming them
  const std::vector<std::string> args = {"query", "--db", dir / "a", "1_TT----FFF"};
  const RunResult bad = run_toadbase(args);
  INFO(describe(args, bad));
  CHECK(bad.rc == 1);
  CHECK_THAT(bad.out, Contains("2 toads and 3 frogs"));
  // a shorter board is answered when frozen pieces fill it up to 3 toads and 3 frogs
  const RunResult shorter = ok({"query", "--db", dir / "a", "1_TT---FF", "2_T---F"});
  const auto lines = lines_of(shorter.out);
  REQUIRE(lines.size() == 2);
  CHECK(check_query_line("1_TT---FF", lines[0]).empty());
  CHECK(check_query_line("2_T---F", lines[1]).empty());
  // ... and refused when they do not fit (here: one empty cell too few)
  const RunResult nofit = run_toadbase({"query", "--db", dir / "a", "1_TT--FF"});
  CHECK(nofit.rc == 1);
  CHECK_THAT(nofit.out, Contains("\"error\"") && Contains("6 cells"));
}

TEST_CASE("cli: validate compares a TSV of claimed values", "[cli]") {
  TempDir dir("cli-validate");
  const std::string db = dir / "db";
  solve(db, 8);
  std::mt19937_64 rng(8);
  const auto boards = all_boards(8);
  std::string good = "# position\tvalue\tremoteness\n\n";
  std::vector<std::string> picked;
  for (int k = 0; k < 60; ++k) {
    const std::string pos = (k % 2 ? "1_" : "2_") + boards[rng() % boards.size()];
    const Truth t = oracle(pos);
    picked.push_back(pos);
    std::string value = t.win ? "win" : "lose";
    if (k % 7 == 0) value = t.win ? "WIN" : "Lose";
    good += pos + "\t" + value + (k % 3 ? "\t" + std::to_string(t.remoteness) : "") + "\n";
  }
  write_file(dir / "good.tsv", good);
  const RunResult r = ok({"validate", "--db", db, dir / "good.tsv"});
  CHECK_THAT(r.out, Contains("60 rows, 60 agreeing, 0 disagreeing, 0 unparseable"));
  const json jr = json::parse(ok({"validate", "--db", db, dir / "good.tsv", "--json"}).out);
  CHECK(jr.at("rows") == 60);
  CHECK(jr.at("agreeing") == 60);

  SECTION("one wrong row") {
    // line 3 (after the comment and the blank line) claims the opposite value
    const Truth t = oracle(picked[0]);
    std::string text = good;
    const size_t at = text.find(picked[0] + "\t");
    REQUIRE(at != std::string::npos);
    text.replace(at, text.find('\n', at) - at, picked[0] + "\t" + (t.win ? "lose" : "win"));
    write_file(dir / "wrong.tsv", text);
    const std::vector<std::string> args = {"validate", "--db", db, dir / "wrong.tsv"};
    const RunResult w = run_toadbase(args);
    INFO(describe(args, w));
    CHECK(w.rc == 1);
    CHECK_THAT(w.out, Contains("59 agreeing, 1 disagreeing"));
    CHECK_THAT(w.out, Contains("line 3") && Contains(picked[0]));
    // a wrong remoteness alone is a disagreement too
    write_file(dir / "rem.tsv", picked[1] + "\t" + (oracle(picked[1]).win ? "win" : "lose") + "\t" +
                                    std::to_string(oracle(picked[1]).remoteness + 2) + "\n");
    const RunResult w2 = run_toadbase({"validate", "--db", db, dir / "rem.tsv", "--json"});
    CHECK(w2.rc == 1);
    CHECK(json::parse(w2.out).at("disagreeing") == 1);
  }
  SECTION("unparseable rows are reported") {
    write_file(dir / "junk.tsv", good + "1_TTT--FFF\tmaybe\n" + "1_TTTX-FFF\twin\n" +
                                     "just-one-column\n" + "1_TTT--FFF\twin\tabc\n");
    const std::vector<std::string> args = {"validate", "--db", db, dir / "junk.tsv"};
    const RunResult u = run_toadbase(args);
    INFO(describe(args, u));
    CHECK(u.rc == 1);
    CHECK_THAT(u.out, Contains("60 agreeing, 0 disagreeing, 4 unparseable"));
    CHECK_THAT(u.out, Contains("line 63") && Contains("maybe"));
    CHECK_THAT(u.out, Contains("line 64") && Contains("'X'"));
    CHECK_THAT(u.out, Contains("line 65") && Contains("columns"));
    CHECK_THAT(u.out, Contains("line 66") && Contains("abc"));
  }
  SECTION("a missing file") {
    const RunResult m = run_toadbase({"validate", "--db", db, dir / "nope.tsv"});
    CHECK(m.rc != 0);
    CHECK_THAT(m.err, Contains("nope.tsv"));
  }
}

TEST_CASE("cli: verify passes a good database and names the damage in a corrupted one",
          "[cli][verify]") {
  TempDir dir("cli-verify");
  const std::string db = dir / "db";
  const std::string digest = solve(db, 10);
  const RunResult good = ok({"verify", "--db", db, "--quiet"});
  CHECK_THAT(good.out, Contains("OK") && Contains(digest));
  const json gj = json::parse(ok({"verify", "--db", db, "--quiet", "--json"}).out);
  CHECK(gj.at("ok") == true);
  CHECK(gj.at("positionsChecked") == 2 * 59049);

  auto flip = [](const std::string& file, uintmax_t at, size_t bytes) {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    std::string buf(bytes, '\0');
    f.seekg(static_cast<std::streamoff>(at));
    f.read(buf.data(), static_cast<std::streamsize>(bytes));
    for (char& c : buf) c = static_cast<char>(~c);
    f.seekp(static_cast<std::streamoff>(at));
    f.write(buf.data(), static_cast<std::streamsize>(bytes));
    REQUIRE(f.good());
  };
  const std::vector<std::string> args = {"verify", "--db", db, "--quiet"};
  SECTION("the middle of the largest table file") {
    std::string largest;
    uintmax_t size = 0;
    for (const auto& e : fs::directory_iterator(db))
      if (e.path().extension() == ".sst" && e.file_size() > size)
        size = e.file_size(), largest = e.path();
    REQUIRE(!largest.empty());
    flip(largest, size / 2, 16);
    const RunResult bad = run_toadbase(args);
    INFO(describe(args, bad));
    CHECK(bad.rc == 1);
    const std::string said = bad.out + bad.err;
    CHECK_THAT(said, Contains("FAILED") || Contains("error"));
    CHECK_THAT(said, Contains("orruption") || Contains("damaged") || Contains("checksum"));
  }
  SECTION("a block of tier records (a zstd frame inside a table file)") {
    // length 12: enough stored records that a table block holds zstd frames and no commit
    // records (those are read on opening, so damage there stops every command, verify too)
    const std::string db12 = dir / "db12";
    solve(db12, 12);
    const std::vector<std::string> args12 = {"verify", "--db", db12, "--quiet"};
    const std::string zstd_magic = "\x28\xb5\x2f\xfd";
    std::string file;
    size_t at = std::string::npos;
    for (const auto& e : fs::directory_iterator(db12)) {
      if (e.path().extension() != ".sst") continue;
      at = read_file(e.path()).find(zstd_magic);
      if (at != std::string::npos) {
        file = e.path();
        break;
      }
    }
    REQUIRE(!file.empty());
    flip(file, at + 8, 4);
    const RunResult bad = run_toadbase(args12);
    INFO(describe(args12, bad));
    CHECK(bad.rc == 1);
    CHECK_THAT(bad.out, Contains("FAILED"));
    CHECK_THAT(bad.out, Contains("orruption") || Contains("damaged") || Contains("checksum"));
    CHECK_THAT(bad.out, Contains("(tier t"));  // names the tier
  }
}

TEST_CASE("cli: bad input exits non-zero with a message naming the problem", "[cli]") {
  TempDir dir("cli-bad");
  struct Case {
    std::vector<std::string> args;
    int rc;  // 1: a missing or foreign database; 2: a command-line mistake
    std::vector<std::string> says;
  };
  const std::string fresh = dir / "fresh";
  fs::create_directories(dir / "vacant");
  const std::vector<Case> cases = {
      {{"query", "--db", dir / "absent", "1_T-F"}, 1, {"absent", "missing"}},
      {{"query", "--db", dir / "vacant", "1_T-F"}, 1, {"vacant", "not a database"}},
      {{"info", "--db", dir / "absent"}, 1, {"absent", "missing"}},
      {{"verify", "--db", dir / "vacant"}, 1, {"vacant", "not a database"}},
      {{"solve", "toads-frogs", "--length", "8", "--toads", "3", "--db", fresh}, 2, {"--frogs"}},
      {{"solve", "toads-frogs", "--length", "0", "--db", fresh}, 2, {"--length: 0 is out of range (1..26)"}},
      {{"solve", "toads-frogs", "--length", "30", "--db", fresh}, 2, {"--length: 30 is out of range (1..26)"}},
      {{"solve", "toads-frogs", "--start", "TX-F", "--db", fresh}, 2, {"'X'"}},
      {{"solve", "toads-frogs", "--length", "8", "--toads", "5", "--frogs", "4", "--db", fresh}, 2,
       {"do not fit"}},
  };
  for (const Case& c : cases) {
    const RunResult r = run_toadbase(c.args);
    INFO(describe(c.args, r));
    CHECK(r.rc == c.rc);
    for (const auto& s : c.says) CHECK_THAT(r.err, Contains(s));
    CHECK(r.out.empty());
  }
  CHECK_FALSE(fs::exists(fresh));  // a refused solve leaves nothing behind
  CHECK_FALSE(fs::exists(dir / "absent"));
}

TEST_CASE("cli: solving into a database of other parameters is refused and harms nothing",
          "[cli]") {
  TempDir dir("cli-clash");
  const std::string db = dir / "db";
  const std::string digest = solve(db, 8);
  for (std::vector<std::string> other :
       {std::vector<std::string>{"--length", "9"},
        std::vector<std::string>{"--length", "8", "--toads", "2", "--frogs", "2"}}) {
    std::vector<std::string> args = {"solve", "toads-frogs", "--db", db, "--quiet"};
    args.insert(args.end(), other.begin(), other.end());
    const RunResult r = run_toadbase(args);
    INFO(describe(args, r));
    CHECK(r.rc != 0);
    CHECK_THAT(r.err, Contains(db) && Contains("\"length\":8"));
  }
  const RunResult q = ok({"query", "--db", db, "1_TTT--FFF"});
  CHECK(check_query_line("1_TTT--FFF", lines_of(q.out).at(0)).empty());
  const json info = json::parse(ok({"info", "--db", db, "--json"}).out);
  CHECK(info.at("complete") == true);
  CHECK(info.at("digest") == digest);
  ok({"verify", "--db", db, "--quiet"});

  // a directory holding other files is not written into
  fs::create_directories(dir / "own");
  write_file(dir / "own/notes.txt", "mine");
  const std::vector<std::string> args = {"solve", "toads-frogs", "--length", "5", "--db", dir / "own", "--quiet"};
  const RunResult r = run_toadbase(args);
  INFO(describe(args, r));
  CHECK(r.rc != 0);
  CHECK_THAT(r.err, Contains("not a database"));
  CHECK_FALSE(fs::exists(dir / "own/CURRENT"));
}

TEST_CASE("cli: a line that is not UTF-8 is one error line, the others are still answered",
          "[cli]") {
  TempDir dir("cli-utf8");
  const std::string db = dir / "db";
  solve(db, 8);
  const std::vector<std::string> args = {"query", "--db", db, "-"};
  const RunResult r = run_toadbase(args, "1_TTT--FFF\n1_TT\xff-FFF\n2_TTT--FFF\n");
  INFO(describe(args, r));
  CHECK(r.rc == 1);
  const auto lines = lines_of(r.out);
  REQUIRE(lines.size() == 3);
  CHECK(check_query_line("1_TTT--FFF", lines[0]).empty());
  CHECK(keys(ojson::parse(lines[1])) == std::vector<std::string>{"position", "error"});
  CHECK(check_query_line("2_TTT--FFF", lines[2]).empty());
}

TEST_CASE("cli: validate --json reports a row that is not UTF-8 as unparseable", "[cli]") {
  TempDir dir("cli-utf8-validate");
  const std::string db = dir / "db";
  solve(db, 8);
  write_file(dir / "latin1.tsv", "1_TTT--FFF\twin\t15\n1_TT\xe9-FFF\twin\n");
  const std::vector<std::string> args = {"validate", "--db", db, dir / "latin1.tsv", "--json"};
  const RunResult r = run_toadbase(args);
  INFO(describe(args, r));
  CHECK(r.rc == 1);
  REQUIRE_NOTHROW(json::parse(r.out));
  const json j = json::parse(r.out);
  CHECK(j.at("agreeing") == 1);
  CHECK(j.at("unparseable") == 1);
}

TEST_CASE("cli: export writes the records in tier order, xxh64 of each tier gives its digest",
          "[cli][export]") {
  TempDir dir("cli-export");
  const std::string db = dir / "db";
  const std::string digest = solve(db, 9);
  ok({"export", "--db", db, dir / "raw.bin"});
  ok({"export", "--db", db, "--format", "gamescrafters16", dir / "gc.bin"});
  const std::string raw = read_file(dir / "raw.bin"), wide = read_file(dir / "gc.bin");
  REQUIRE(raw.size() == 2 * 19683);
  REQUIRE(wide.size() == 2 * raw.size());
  CHECK_FALSE(fs::exists(dir / "raw.bin.partial"));
  // anyone can recompute the digests from the exported records
  const json info = json::parse(ok({"info", "--db", db, "--json", "--tiers"}).out);
  REQUIRE(info.at("tiers").size() == info.at("tierCount"));
  size_t offset = 0;
  std::string all;
  uint64_t bad = 0;
  for (const auto& t : info.at("tiers")) {
    const size_t n = t.at("positions");
    const uint64_t h = toadbase::xxh64(raw.data() + offset, n);
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
    bad += t.at("digest") != hex;
    for (int i = 0; i < 8; ++i) all.push_back(static_cast<char>((h >> (8 * i)) & 0xff));
    offset += n;
  }
  CHECK(bad == 0);
  CHECK(offset == raw.size());
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx",
                static_cast<unsigned long long>(toadbase::xxh64(all.data(), all.size())));
  CHECK(digest == hex);
  // GamesmanOne's 16-bit records: value in the top 4 bits (lose 1, win 4), remoteness below
  bad = 0;
  for (size_t i = 0; i < raw.size(); ++i) {
    const unsigned r = static_cast<uint8_t>(raw[i]);
    const unsigned w = static_cast<uint8_t>(wide[2 * i]) | static_cast<uint8_t>(wide[2 * i + 1]) << 8;
    bad += w != (((r & 1) ? 4u : 1u) << 12 | r);
  }
  CHECK(bad == 0);
  const RunResult r = run_toadbase({"export", "--db", db, "--format", "csv", dir / "x.csv"});
  CHECK(r.rc != 0);
  CHECK(r.rc == 2);
  CHECK_THAT(r.err, Contains("raw, gamescrafters16 or tsv") && Contains("'csv'"));
}

TEST_CASE("cli: relative database paths work from the working directory", "[cli]") {
  TempDir dir("cli-relative");
  fs::create_directories(dir / "sub");
  const std::vector<std::string> solve_args = {"solve", "toads-frogs", "--length", "5",
                                               "--db", "sub/db", "--quiet"};
  const RunResult s = run_toadbase(solve_args, "", {}, dir.path());
  INFO(describe(solve_args, s));
  REQUIRE(s.rc == 0);
  CHECK(fs::exists(dir / "sub/db/CURRENT"));
  const RunResult q = run_toadbase({"query", "--db", "./sub/db", "1_TT-FF"}, "", {}, dir.path());
  CHECK(q.rc == 0);
  CHECK(check_query_line("1_TT-FF", lines_of(q.out).at(0)).empty());
  const RunResult v = run_toadbase({"verify", "--db", "sub/../sub/db", "--quiet"}, "", {}, dir.path());
  CHECK(v.rc == 0);
}

TEST_CASE("cli: bench lookup runs small and reports its table as JSON", "[cli][bench]") {
  TempDir dir("cli-bench");
  const std::string db = dir / "db";
  solve(db, 9);
  const json j = json::parse(ok({"bench", "lookup", "--db", db, "--count", "2000", "--singles",
                                 "20", "--seed", "3", "--json"})
                                 .out);
  CHECK(j.at("batchLookups") == 2000);
  CHECK(j.at("singleLookups") == 20);
  CHECK(j.at("winsSeen").get<uint64_t>() <= 2000);
  CHECK(j.at("winsSeen").get<uint64_t>() > 0);
  CHECK(j.at("singleP50Us").get<double>() <= j.at("singleMaxUs").get<double>());
  // the same seed picks the same positions
  const json again = json::parse(ok({"bench", "lookup", "--db", db, "--count", "2000", "--singles",
                                     "20", "--seed", "3", "--json"})
                                     .out);
  CHECK(again.at("winsSeen") == j.at("winsSeen"));
}
