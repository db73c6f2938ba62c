// The command line as scripts use it, through the real binary: exit codes (the README's
// table) for every command; every usage mistake exits 2 and names itself, as a JSON object
// under --json; `--` ends the options; `-` is standard input or output; `#` lines are skipped;
// every --json speaks camelCase; export --format tsv is what validate reads back, against the
// oracle; a database written before these changes still opens and answers.
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "solver/core/hash.hpp"
#include "support.hpp"

using namespace tbtest;
using Catch::Matchers::Contains;
using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

/// The databases and files the cases below use, made once.
struct Fixture {
  TempDir dir{"cli-args"};
  std::string tf, fp, rolls, dead, sample_out, claims, bad_claims, obs;
  Fixture() {
    tf = dir / "tf8";
    fp = dir / "fp3";
    ok({"solve", "toads-frogs", "--length", "8", "--db", tf, "--quiet"});
    ok({"solve", "frog-puzzle", "--left", "3", "--db", fp, "--quiet"});
    rolls = dir / "rolls.txt";
    write_file(rolls, "5\n21\n21\n10\n14\n27\n");
    dead = dir / "dead.txt";
    write_file(dead, "6\n31\n31\n31\n31\n31\n0\n");
    sample_out = dir / "out.txt";
    write_file(sample_out, "GAGAF\n7\n#SS SS#\n# SSS #\n# S S #\n#S S S#\n#   T #\n");
    claims = dir / "claims.tsv";
    write_file(claims, "1_TT--FF\twin\t11\n");
    bad_claims = dir / "bad.tsv";
    write_file(bad_claims, "1_TT--FF\tlose\t11\n");
    obs = dir / "obs.json";
    write_file(obs, R"({"side": 3, "start": [0, 0], "visited": [{"tile": [0, 1], "bones": true}]})");
  }
};

Fixture& fixture() {
  static Fixture f;
  return f;
}

/// Every key of a JSON value, at any depth.
void each_key(const json& j, std::vector<std::string>& out) {
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) {
      out.push_back(k);
      each_key(v, out);
    }
  } else if (j.is_array()) {
    for (const auto& v : j) each_key(v, out);
  }
}

}  // namespace

TEST_CASE("cli args: every command keeps the README's exit codes (0, 1, 2, 3)", "[cli][args]") {
  Fixture& f = fixture();
  const std::string missing = f.dir / "no-such-db";
  const std::string solution = ok({"frog-puzzle", "solve", "LL_RR", "--format", "moves"}).out;
  struct Case {
    std::vector<std::string> args;
    int rc;
    std::string input = "";
  };
  const std::vector<Case> cases = {
      {{"solve", "toads-frogs", "--length", "8", "--db", f.tf, "--quiet"}, 0},
      {{"solve", "toads-frogs", "--length", "9", "--db", f.tf, "--quiet"}, 1},  // the database holds length 8
      {{"solve", "toads-frogs", "--length", "27", "--db", f.dir / "x", "--quiet"}, 2},
      {{"query", "--db", f.tf, "1_TT--FF"}, 0},
      {{"query", "--db", f.tf, "1_TTXX"}, 1},
      {{"query", "--db", missing, "1_TT--FF"}, 1},
      {{"query", "--db", f.tf, "--trun", "1", "TT--FF"}, 2},
      {{"info", "--db", f.tf}, 0},
      {{"info", "--db", missing}, 1},
      {{"info", "--db", f.tf, "extra"}, 2},
      {{"analyze", "--db", f.tf}, 0},
      {{"analyze", "--db", missing}, 1},
      {{"analyze", "--db", f.tf, "--threads", "-1"}, 2},
      {{"verify", "--db", f.tf, "--quiet"}, 0},
      {{"verify", "--db", missing}, 1},
      {{"verify"}, 2},
      {{"verify", "--db", f.tf, "--sample", "10", "--quiet"}, 0},
      {{"verify", "--db", f.tf, "--sample", "0"}, 2},
      {{"validate", "--db", f.tf, f.claims}, 0},
      {{"validate", "--db", f.tf, f.bad_claims}, 1},
      {{"validate", "--db", f.tf}, 2},
      {{"export", "--db", f.tf, f.dir / "tf8.bin"}, 0},
      {{"export", "--db", missing, f.dir / "x.bin"}, 1},
      {{"export", "--db", f.tf, "--format", "csv", f.dir / "x.csv"}, 2},
      {{"bench", "lookup", "--db", f.tf, "--count", "100", "--singles", "5"}, 0},
      {{"bench", "lookup", "--db", missing}, 1},
      {{"bench", "lookup", "--db", f.tf, "--count", "many"}, 2},
      {{"play", "--db", f.tf, "1_TT--FF", "--watch"}, 0},
      {{"play", "--db", f.tf, "1_TTXX", "--watch"}, 1},
      {{"play", "--db", f.tf, "--as", "3"}, 2},
      {{"frog-puzzle", "solve", "LLL_RRR"}, 0},
      {{"frog-puzzle", "solve", "LLX_RRR"}, 1},
      {{"frog-puzzle", "solve", "LLL_RRR", "--format", "poem"}, 2},
      {{"frog-puzzle", "solve", "_LLLRRR"}, 3},  // the goal cannot be reached
      {{"frog-puzzle", "check", "LL_RR", "-"}, 0, solution},
      {{"frog-puzzle", "check", "LL_RR", "-"}, 1, "L from 1 to 2\n"},
      {{"frog-puzzle", "check", "LL_RR"}, 2},
      {{"river-toad", "solve", f.rolls}, 0},
      {{"river-toad", "solve", f.dir / "no-rolls.txt"}, 1},
      {{"river-toad", "solve", f.rolls, "--hp", "0"}, 2},
      {{"river-toad", "solve", f.dead}, 3},  // nobody survives
      {{"river-toad", "check", f.rolls, f.sample_out}, 0},
      {{"river-toad", "check", f.dead, f.sample_out}, 1},
      {{"river-toad", "check", f.rolls}, 2},
      {{"river-toad", "prefixes", f.rolls}, 0},
      {{"river-toad", "prefixes", f.dir / "no-rolls.txt"}, 1},
      {{"river-toad", "prefixes", f.rolls, "--counts", "--no-counts"}, 2},
      {{"river-toad", "play", f.rolls}, 0},
      {{"river-toad", "play", f.rolls, "--plan", "DDDDD"}, 1},  // a given plan that dies
      {{"river-toad", "play", f.rolls, "--plan", "GAGAF", "--plan-file", f.sample_out}, 2},
      {{"river-toad", "play", f.dead}, 3},
      {{"forest", "play", "--seed", "3"}, 0},
      {{"forest", "play", "--agent", "optimal", "--db", missing}, 1},
      {{"forest", "play", "--side", "1"}, 2},
      {{"forest", "eval", "--forests", "50"}, 0},
      {{"forest", "eval", "--sides", "5-3"}, 2},
      {{"forest", "posterior", f.obs}, 0},
      {{"forest", "posterior", f.dir / "no-obs.json"}, 1},
      {{"forest", "posterior"}, 2},
      {{"--version"}, 0},
      {{"help", "query"}, 0},
      {{"help", "quer"}, 2},
  };
  for (const Case& c : cases) {
    const RunResult r = run_toadbase(c.args, c.input);
    INFO(describe(c.args, r));
    CHECK(r.rc == c.rc);
    // an error says something (on stderr), a negative answer says why (on stdout)
    if (c.rc == 2) CHECK_FALSE(r.err.empty());
    if (c.rc == 1 || c.rc == 3) CHECK_FALSE((r.out + r.err).empty());
  }
}

TEST_CASE("cli args: every usage mistake exits 2 naming it, and under --json as a JSON object", "[cli][args]") {
  Fixture& f = fixture();
  struct Case {
    std::vector<std::string> args;
    std::string names;  // what the message must name
  };
  const std::vector<Case> cases = {
      {{"solve", "toads-frogs", "--length", "27", "--db", f.dir / "x"}, "--length: 27 is out of range (1..26)"},
      {{"solve", "toads-frogs", "--toads", "2", "--db", f.dir / "x"}, "--frogs"},
      {{"solve", "toads-frogs", "--zstd-level", "30", "--db", f.dir / "x"}, "--zstd-level"},
      {{"solve", "toads-frogs", "--length", "8"}, "--db"},
      {{"solve", "toads-frogs", "--db", f.dir / "x", "--lenght", "8"}, "--lenght"},
      {{"solve", "frog-puzzle", "--left", "3", "--empty", "0", "--db", f.dir / "x"}, "empty"},
      {{"solve", "river-toad", "--weights", "1,2,x", "--db", f.dir / "x"}, "'x'"},
      {{"solve", "forest", "--side", "4", "--db", f.dir / "x"}, "3x3"},
      {{"query", "1_TT--FF"}, "--db"},
      {{"query", "--db", f.tf, "--jsn", "1_TT--FF"}, "--jsn"},
      {{"query", "--db", f.tf}, "give positions"},
      {{"query", "--db", f.tf, "--random", "-1"}, "--random"},
      {{"query", "--db", f.tf, "--random", "1000000000000"}, "--random"},
      {{"query", "--db", f.tf, "--random", "2", "--seed", "x"}, "--seed"},
      {{"query", "--db", f.tf, "-", "-"}, "standard input"},
      {{"info", "--db", f.tf, "--tier"}, "--tier"},
      {{"analyze", "--db", f.tf, "--threads", "-2"}, "--threads"},
      {{"analyze", "--db", f.tf, "--threads", "100000"}, "--threads"},
      {{"verify", "--db", f.tf, "--threads", "65537"}, "--threads"},
      {{"solve", "toads-frogs", "--length", "8", "--db", f.tf, "--threads", "100000"}, "--threads"},
      {{"serve", "--db", f.tf, "--threads", "100000"}, "--threads"},
      {{"verify", "--db", f.tf, "--quick"}, "--quick"},
      {{"verify", "--db", f.tf, "--sample", "-1"}, "--sample"},
      {{"verify", "--db", f.tf, "--sample", "5", "--seed", "x"}, "--seed"},
      {{"validate", "--db", f.tf, f.claims, "--show", "-1"}, "--show"},
      {{"bench", "lookup", "--db", f.tf, "--count", "x"}, "--count"},
      {{"bench", "lookup", "--db", f.tf, "--count", "-1"}, "--count"},
      {{"bench", "lookup", "--db", f.tf, "--singles", "99999999999"}, "--singles"},
      {{"frog-puzzle", "solve", "LLL_RRR", "--format", "poem"}, "'poem'"},
      {{"frog-puzzle", "solve", "LLL_RRR", "--limit", "-3"}, "--limit"},
      {{"frog-puzzle", "check", "LLL_RRR", "-", "--max-positions", "lots"}, "--max-positions"},
      {{"river-toad", "solve", f.rolls, "--algorithm", "magic"}, "'magic'"},
      {{"river-toad", "solve", f.rolls, "--column", "6"}, "--column"},
      {{"river-toad", "check", "-", "-"}, "both"},
      {{"river-toad", "prefixes", f.rolls, "--counts", "--no-counts"}, "--no-counts"},
      {{"river-toad", "play", f.rolls, "--plan", "GAGAF", "--plan-file", f.sample_out}, "--plan-file"},
      {{"forest", "play", "--agent", "all"}, "one agent"},
      {{"forest", "play", "--side", "13"}, "--side"},
      {{"forest", "eval", "--agent", "nobody"}, "'nobody'"},
      {{"forest", "eval", "--forests", "-1"}, "--forests"},
      {{"forest", "eval", "--forests", "18446744073709551615"}, "--forests"},
      {{"forest", "eval", "--threads", "65537"}, "--threads"},
      {{"forest", "eval", "--sides", "5-3"}, "5-3"},
      {{"forest", "eval", "--side", "4", "--exact"}, "--exact"},
      {{"forest", "posterior"}, "observations"},
  };
  for (const Case& c : cases) {
    const RunResult r = run_toadbase(c.args);
    INFO(describe(c.args, r));
    CHECK(r.rc == 2);
    CHECK_THAT(r.err, Contains(c.names));
    CHECK(r.out.empty());
    // --json: the same message as a JSON object on standard output, nothing on standard error
    std::vector<std::string> with_json = c.args;
    with_json.push_back("--json");
    const RunResult j = run_toadbase(with_json);
    INFO(describe(with_json, j));
    CHECK(j.rc == 2);
    CHECK(j.err.empty());
    REQUIRE_NOTHROW(json::parse(j.out));
    CHECK_THAT(json::parse(j.out).at("error").get<std::string>(), Contains(c.names));
  }
  const RunResult text_json = run_expecting({"query", "--db", f.tf, "--text", "--json", "1_TT--FF"}, 2);
  CHECK_THAT(json::parse(text_json.out).at("error").get<std::string>(), Contains("--text excludes --json"));
  const RunResult both = run_expecting({"river-toad", "solve", f.rolls, "-", "--json"}, 2);
  CHECK_THAT(json::parse(both.out).at("error").get<std::string>(), Contains("standard output"));
  // errors in the data under --json too, with their own exit code
  const RunResult missing = run_toadbase({"info", "--db", f.dir / "no-such-db", "--json"});
  CHECK(missing.rc == 1);
  CHECK(missing.err.empty());
  CHECK_THAT(json::parse(missing.out).at("error").get<std::string>(), Contains("no-such-db"));
}

TEST_CASE("cli args: -- ends the options, an unknown option is never a position", "[cli][args]") {
  Fixture& f = fixture();
  // the README's own form for a board that starts with '-': exactly one answer, no phantom "1_--"
  const RunResult dashed = ok({"query", "--db", f.tf, "--turn", "1", "--", "--TF"});
  REQUIRE(lines_of(dashed.out).size() == 1);
  CHECK(json::parse(dashed.out).at("position") == "1_--TF");
  CHECK(json::parse(dashed.out).at("remoteness") == oracle("1_--TF").remoteness);
  // --json is an option (the default output), not a position
  const RunResult j = ok({"query", "--db", f.tf, "--json", "1_TT--FF"});
  REQUIRE(lines_of(j.out).size() == 1);
  CHECK(json::parse(j.out).at("position") == "1_TT--FF");
  // options after positions still count; after -- they are positions
  CHECK(lines_of(ok({"query", "--db", f.tf, "1_TT--FF", "--turn", "1", "TT--FF"}).out).size() == 2);
  const RunResult after = run_toadbase({"query", "--db", f.tf, "--", "--turn"});
  CHECK(after.rc == 1);
  CHECK(json::parse(after.out).at("position") == "--turn");
  // a bare board with a leading '-' outside --: named as an unknown option, with the way out
  const RunResult bad = run_expecting({"query", "--db", f.tf, "--turn", "1", "-TT-FF"}, 2);
  CHECK_THAT(bad.err, Contains("unknown option -TT-FF") && Contains("after --"));
}

TEST_CASE("cli args: --turn the game does not take is a command-line mistake, and one a position contradicts is "
          "that position's error",
          "[cli][args]") {
  Fixture& f = fixture();
  struct TurnCase {
    std::vector<std::string> args;
    std::string input = "";
  };
  const std::vector<TurnCase> refused = {
      {{"query", "--db", f.tf, "--turn", "3", "TT--FF"}},
      {{"query", "--db", f.tf, "--turn", "toads", "TT--FF"}},
      {{"query", "--db", f.tf, "--turn", "toads", "--start"}},
      {{"query", "--db", f.tf, "--turn", "0", "-"}, "TT--FF\n"},
      {{"validate", "--db", f.tf, "--turn", "3", "-"}, "TT--FF\twin\n"},
      {{"play", "--db", f.tf, "--turn", "3", "TT--FF", "--watch"}},
  };
  for (const TurnCase& c : refused) {
    INFO(c.args[0] << " " << c.args[4]);
    const RunResult r = run_expecting(c.args, 2, c.input);
    CHECK_THAT(r.err, Contains("--turn: the player to move is 1 (Toads) or 2 (Frogs), not '" + c.args[4] + "'"));
    CHECK(r.out.empty());
  }
  // an empty --turn is refused, not read as no turn at all
  const std::vector<TurnCase> empty = {
      {{"query", "--db", f.tf, "--turn", "", "1_TT--FF"}},
      {{"validate", "--db", f.tf, "--turn", "", "-"}, "1_TT--FF\twin\n"},
      {{"play", "--db", f.tf, "--turn", "", "1_TT--FF", "--watch"}},
  };
  for (const TurnCase& c : empty) {
    INFO(c.args[0]);
    const RunResult r = run_expecting(c.args, 2, c.input);
    CHECK_THAT(r.err, Contains("--turn: is empty"));
    CHECK(r.out.empty());
  }
  // a huge --turn is quoted in part, with its size (as every error quotes what a user gave)
  const RunResult huge = run_expecting({"query", "--db", f.tf, "--turn", std::string(5000, '9'), "TT--FF"}, 2);
  CHECK_THAT(huge.err, Contains("--turn: the player to move is 1 (Toads) or 2 (Frogs), not '" + std::string(80, '9') +
                                "... (5000 bytes)'"));
  CHECK(huge.err.size() < 400);
  // a position that names its player keeps it, and --turn must agree: 1_ with --turn 2 is that
  // line's error (exit 1), the bare board beside it is answered with --turn
  const RunResult mixed = run_expecting({"query", "--db", f.tf, "--turn", "2", "1_TT--FF", "TT--FF", "2_TT--FF"}, 1);
  const auto lines = lines_of(mixed.out);
  REQUIRE(lines.size() == 3);
  CHECK_THAT(json::parse(lines[0]).at("error").get<std::string>(),
             Contains("position '1_TT--FF': 1 (Toads) to move, and the turn given is 2"));
  CHECK(json::parse(lines[1]).at("position") == "2_TT--FF");
  CHECK(json::parse(lines[2]).at("position") == "2_TT--FF");
}

TEST_CASE("cli args: a misspelt option is named with the closest option of its command", "[cli][args]") {
  Fixture& f = fixture();
  struct Misspelt {
    std::vector<std::string> args;
    std::string said;
  };
  const std::vector<Misspelt> cases = {
      {{"solve", "toads-frogs", "--lenght", "4", "--db", f.dir / "typo"},
       "unknown option --lenght for toadbase solve toads-frogs; did you mean '--length'?"},
      {{"solve", "toads-frogs", "--lenght=4", "--db", f.dir / "typo"}, "did you mean '--length'?"},
      {{"query", "--db", f.tf, "--txet", "1_TT--FF"}, "unknown option --txet for toadbase query; did you mean '--text'?"},
      {{"info", "--dbb", f.tf}, "did you mean '--db'?"},
      {{"river-toad", "solve", "--algoritm", "dp", "-"}, "did you mean '--algorithm'?"},
  };
  for (const Misspelt& c : cases) {
    INFO(c.args[0] << " " << c.args[1] << " " << c.args[2]);
    const RunResult r = run_expecting(c.args, 2);
    CHECK_THAT(r.err, Contains(c.said));
  }
  CHECK(!fs::exists(f.dir / "typo"));
  // nothing near: CLI11's words, and a board that looks like an option is still told to go after --
  CHECK_THAT(run_expecting({"query", "--db", f.tf, "--TF"}, 2).err, Contains("after --") && !Contains("did you mean"));
  CHECK_THAT(run_expecting({"query", "--db", f.tf, "--zzzzzzzz"}, 2).err, !Contains("did you mean"));
}

TEST_CASE("cli args: - reads standard input and writes standard output, and # lines are skipped",
          "[cli][args]") {
  Fixture& f = fixture();
  // query -: comments and blank lines are not positions
  const RunResult q = ok({"query", "--db", f.tf, "-"}, "# a comment\n\n  # indented\n1_TT--FF\n");
  REQUIRE(lines_of(q.out).size() == 1);
  CHECK(json::parse(q.out).at("position") == "1_TT--FF");
  // validate --db D -
  const RunResult v = ok({"validate", "--db", f.tf, "-", "--json"}, "# claims\n1_TT--FF\twin\t11\n2_TFT-F\twin\t3\n");
  CHECK(json::parse(v.out).at("agreeing") == 2);
  CHECK(json::parse(v.out).at("file") == "-");
  // export --db D -: standard output, the same bytes as the file
  ok({"export", "--db", f.tf, f.dir / "file.bin"});
  const RunResult e = ok({"export", "--db", f.tf, "-"});
  CHECK(e.out == read_file(f.dir / "file.bin"));
  CHECK_FALSE(fs::exists("-"));
  CHECK_FALSE(fs::exists(f.dir / "-"));
  // a game's commands: the roll file from standard input, the output file to standard output
  const RunResult rt = ok({"river-toad", "solve", "-", "-"}, read_file(f.rolls));
  CHECK(lines_of(rt.out).at(0) == "DDDDS");
  CHECK(json::parse(ok({"river-toad", "check", f.rolls, "-", "--json"}, rt.out).out).at("valid") == true);
  // the puzzle's check file, as a Python tuple on standard input
  CHECK_THAT(ok({"frog-puzzle", "check", "L_R", "-"}, "(0, 1, -1)\n(-1, 1, 0)\n(-1, 0, 1)\n").out,
             Contains("legal: 3 moves"));
}

TEST_CASE("cli args: export --format tsv is position, value, remoteness in tier order, and validate reads it back",
          "[cli][args][export]") {
  Fixture& f = fixture();
  const std::string tsv = ok({"export", "--db", f.tf, "--format", "tsv", "-"}).out;
  const auto lines = lines_of(tsv);
  REQUIRE(lines.size() == 1 + 2 * 6561);  // the comment line, then every position of length 8
  CHECK(lines[0].rfind("# toads-frogs", 0) == 0);
  // every line against the oracle, and every position exactly once
  std::set<std::string> seen;
  uint64_t wrong = 0;
  for (size_t i = 1; i < lines.size(); ++i) {
    std::istringstream row(lines[i]);
    std::string pos, value, rem;
    std::getline(row, pos, '\t');
    std::getline(row, value, '\t');
    std::getline(row, rem, '\t');
    const Truth t = oracle(pos);
    wrong += value != (t.win ? "win" : "lose") || rem != std::to_string(t.remoteness);
    seen.insert(pos);
  }
  CHECK(wrong == 0);
  CHECK(seen.size() == 2 * 6561);
  // the same order as raw: the i-th line is the i-th raw record (remoteness; odd is a win)
  const std::string raw = ok({"export", "--db", f.tf, "-"}).out;
  REQUIRE(raw.size() == lines.size() - 1);
  uint64_t off = 0;
  for (size_t i = 1; i < lines.size(); ++i)
    off += lines[i].substr(lines[i].rfind('\t') + 1) != std::to_string(static_cast<uint8_t>(raw[i - 1]));
  CHECK(off == 0);
  // validate reads it back, all agreeing
  const json v = json::parse(ok({"validate", "--db", f.tf, "-", "--json"}, tsv).out);
  CHECK(v.at("rows") == 2 * 6561);
  CHECK(v.at("agreeing") == 2 * 6561);
  // the puzzle: dead ends are lose 0
  const json pv = json::parse(ok({"validate", "--db", f.fp, "-", "--json"},
                                 ok({"export", "--db", f.fp, "--format", "tsv", "-"}).out)
                                  .out);
  CHECK(pv.at("disagreeing") == 0);
  CHECK(pv.at("unparseable") == 0);
  CHECK(pv.at("rows").get<uint64_t>() > 100);
  // a disagreement names the claim and the truth as separate fields
  const json d = json::parse(run_expecting({"validate", "--db", f.tf, f.bad_claims, "--json"}, 1).out);
  const json& first = d.at("firstDisagreements").at(0);
  CHECK(first.at("claimedValue") == "lose");
  CHECK(first.at("claimedRemoteness") == 11);
  CHECK(first.at("value") == "win");
  CHECK(first.at("remoteness") == 11);
  // a claim file with no claim (empty, or comments only: an export that wrote nothing) checks
  // nothing, and says so with exit 1, as text and as JSON
  for (const std::string empty : {"", "# toads-frogs {\"length\":8}\n\n"}) {
    CHECK_THAT(run_expecting({"validate", "--db", f.tf, "-"}, 1, empty).err,
               Catch::Matchers::Contains("no claim in standard input") &&
                   Catch::Matchers::Contains("nothing was checked"));
    CHECK_THAT(json::parse(run_expecting({"validate", "--db", f.tf, "-", "--json"}, 1, empty).out).at("error").get<std::string>(),
               Catch::Matchers::Contains("nothing was checked"));
  }
}

TEST_CASE("cli args: every --json speaks camelCase", "[cli][args][json]") {
  Fixture& f = fixture();
  const std::string tf2 = f.dir / "tf6";
  std::vector<std::string> outputs = {
      ok({"solve", "toads-frogs", "--length", "6", "--db", tf2, "--quiet", "--json"}).out,
      ok({"info", "--db", f.tf, "--json", "--tiers"}).out,
      ok({"analyze", "--db", f.tf, "--json"}).out,
      ok({"analyze", "--db", f.fp, "--json"}).out,
      ok({"verify", "--db", f.tf, "--json", "--quiet"}).out,
      ok({"verify", "--db", f.tf, "--json", "--quiet", "--sample", "5"}).out,
      ok({"validate", "--db", f.tf, f.claims, "--json"}).out,
      run_expecting({"validate", "--db", f.tf, "-", "--json"}, 1, "1_TT--FF\tlose\nx\n").out,
      ok({"bench", "lookup", "--db", f.tf, "--count", "100", "--singles", "5", "--json"}).out,
      ok({"query", "--db", f.tf, "1_TT--FF", "--random", "3"}).out,
      ok({"query", "--db", f.fp, "LLL_RRR"}).out,
      ok({"frog-puzzle", "solve", "LL_RR", "--all", "--json"}).out,
      run_expecting({"frog-puzzle", "solve", "_LLRR", "--json"}, 3).out,
      run_expecting({"frog-puzzle", "check", "LL_RR", "-", "--json"}, 1, "L from 1 to 2\n").out,
      ok({"river-toad", "solve", f.rolls, "--algorithm", "all", "--json"}).out,
      run_expecting({"river-toad", "solve", f.dead, "--json"}, 3).out,
      ok({"river-toad", "check", f.rolls, f.sample_out, "--json"}).out,
      ok({"river-toad", "prefixes", f.rolls, "--json"}).out,
      ok({"forest", "play", "--seed", "2", "--json"}).out,
      ok({"forest", "eval", "--forests", "50", "--json"}).out,
      ok({"forest", "posterior", f.obs, "--json"}).out,
      ok({"--version", "--json"}).out,
      run_expecting({"info", "--db", f.dir / "nothing", "--json"}, 1).out,
  };
  for (const auto& out : outputs)
    for (const auto& line : lines_of(out)) {
      INFO(line.substr(0, 300));
      json j;
      REQUIRE_NOTHROW(j = json::parse(line));
      std::vector<std::string> keys;
      each_key(j, keys);
      for (const auto& k : keys) {
        INFO("key " << k);
        CHECK(k.find('_') == std::string::npos);
        CHECK(k.find('-') == std::string::npos);
      }
    }
}

TEST_CASE("cli args: a database written before the camelCase output still opens and answers", "[cli][args][db]") {
  // tests/data/tf5-format2: `toadbase solve toads-frogs --length 5` by the toadbase of just
  // before this change (format 2; its manifest keeps its snake_case keys on disk)
  TempDir dir("cli-old-db");
  fs::copy(source_dir() + "/tests/data/tf5-format2", dir / "tf5");
  const json info = json::parse(ok({"info", "--db", dir / "tf5", "--json"}).out);
  CHECK(info.at("game") == "toads-frogs");
  CHECK(info.at("parameters") == json{{"length", 5}});
  CHECK(info.at("formatVersion") == 2);
  CHECK(info.at("tierCount") == 182);
  CHECK(info.at("committedTiers") == 182);
  CHECK(info.at("digest") == "2b4d459ab90d926d");
  CHECK_THAT(ok({"verify", "--db", dir / "tf5", "--quiet"}).out, Contains("OK") && Contains("2b4d459ab90d926d"));
  std::string input;
  std::vector<std::string> positions;
  for (const auto& b : all_boards(5))
    for (const char* turn : {"1_", "2_"}) positions.push_back(turn + b), input += positions.back() + "\n";
  const auto lines = lines_of(ok({"query", "--db", dir / "tf5", "-"}, input).out);
  REQUIRE(lines.size() == positions.size());
  uint64_t wrong = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    const json j = json::parse(lines[i]);
    const Truth t = oracle(positions[i]);
    wrong += j.at("positionValue") != (t.win ? "win" : "lose") || j.at("remoteness") != t.remoteness;
  }
  CHECK(wrong == 0);
}

TEST_CASE("cli args: analyze says what its census counts and what L, R, N and P mean", "[cli][args]") {
  const std::string text = ok({"analyze", "--db", fixture().tf}).out;
  CHECK_THAT(text, Contains("each board counted once") && Contains("L: Left (Toads) wins whoever starts") &&
                       Contains("R: Right (Frogs) wins whoever starts") && Contains("N: the player to move wins") &&
                       Contains("P: the player to move loses"));
  CHECK_THAT(text, Contains("13122 positions"));
}

TEST_CASE("cli args: query --random draws positions of the database, the same for the same seed", "[cli][args]") {
  Fixture& f = fixture();
  const std::vector<std::string> a = lines_of(ok({"query", "--db", f.tf, "--random", "300", "--seed", "5"}).out);
  REQUIRE(a.size() == 300);
  CHECK(lines_of(ok({"query", "--db", f.tf, "--random", "300", "--seed", "5"}).out) == a);
  CHECK(lines_of(ok({"query", "--db", f.tf, "--random", "300", "--seed", "6"}).out) != a);
  std::set<std::string> seen;
  std::set<std::pair<int, int>> counts;
  for (const std::string& line : a) {
    const json j = json::parse(line);
    REQUIRE_FALSE(j.contains("error"));
    const std::string p = j.at("position");
    REQUIRE(p.size() == 2 + 8);  // a board of the database's length, with its player
    const Truth t = oracle(p);
    CHECK(j.at("positionValue") == (t.win ? "win" : "lose"));
    CHECK(j.at("remoteness") == t.remoteness);
    seen.insert(p);
    counts.insert(piece_counts(p.substr(2)));
  }
  // drawn over the whole space: both players, many piece counts, few repeats
  CHECK(std::count_if(seen.begin(), seen.end(), [](const std::string& p) { return p[0] == '1'; }) > 50);
  CHECK(std::count_if(seen.begin(), seen.end(), [](const std::string& p) { return p[0] == '2'; }) > 50);
  CHECK(counts.size() > 15);
  CHECK(seen.size() > 250);
  // --start answers the space's start first
  const std::vector<std::string> s = lines_of(ok({"query", "--db", f.tf, "--start", "--random", "2"}).out);
  REQUIRE(s.size() == 3);
  CHECK(json::parse(s[0]).at("position") == "1_TTT--FFF");
}
