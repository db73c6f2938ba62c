// The command line's edges, through the real binary (issue 28, round two): the numeric
// options' messages name the range in words (exit 2, the option named, never CLI11's text; the
// sweep of every option is test_cli_hardening_slow.cpp); a directory on standard input is said, for
// every command that reads `-`; a NUL or a huge line in a roll file, a puzzle solution, a
// River Toad plan or a validate claim is shown escaped and cut short, never cut at the NUL
// (the command and the /api/river-toad/solve route alike); analyze --per-tier on a CGT
// database, with the same figures in analyze --json, against boards enumerated here.
#include <sys/wait.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cerrno>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "serve_support.hpp"
#include "support.hpp"

using namespace tbtest;
using Catch::Matchers::Contains;
using json = nlohmann::json;

namespace {

/// Runs toadbase with standard input read from `stdin_path` (a file or a directory).
RunResult run_with_stdin(const std::vector<std::string>& args, const std::string& stdin_path) {
  TempDir io("hardening-io");
  const pid_t pid = spawn_toadbase(args, stdin_path, io / "out", io / "err");
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("waitpid failed");
  }
  RunResult r;
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = read_file(io / "out");
  r.err = read_file(io / "err");
  return r;
}

/// The databases and files the cases below use, made once.
struct HardeningFixture {
  TempDir dir{"cli-hardening"};
  std::string tf, cgt, rolls, plan;
  HardeningFixture() {
    tf = dir / "tf4";
    ok({"solve", "toads-frogs", "--length", "4", "--db", tf, "--quiet"});
    cgt = dir / "cgt6";
    ok({"solve", "toads-frogs-cgt", "--length", "6", "--db", cgt, "--quiet"});
    rolls = dir / "rolls.txt";
    write_file(rolls, "5\n21\n21\n10\n14\n27\n");
    plan = dir / "plan.txt";
    write_file(plan, "GAGAF\n7\n#SS SS#\n# SSS #\n# S S #\n#S S S#\n#   T #\n");
  }
};

HardeningFixture& hardening_fixture() {
  static HardeningFixture f;
  return f;
}

/// The reduced boards of 1..n cells with no more toads than frogs (cell 0 holds no frog, the
/// last cell no toad), by class name "m<cells>_t<toads>f<frogs>": what a CGT database stores.
std::map<std::string, std::vector<std::string>> stored_boards(int n) {
  std::map<std::string, std::vector<std::string>> out;
  for (int m = 1; m <= n; ++m)
    for (const std::string& b : all_boards(m)) {
      if (b.front() == 'F' || b.back() == 'T') continue;
      const auto [t, f] = piece_counts(b);
      if (t > f) continue;
      out["m" + std::to_string(m) + "_t" + std::to_string(t) + "f" + std::to_string(f)].push_back(
          b);
    }
  return out;
}

}  // namespace

TEST_CASE("cli hardening: the numeric options' messages name the range in words",
          "[cli][hardening]") {
  HardeningFixture& f = hardening_fixture();
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  const std::vector<Case> cases = {
      {{"query", "--db", f.tf, "--seed", "-1"}, "--seed: must be 0 or more, not -1"},
      {{"query", "--db", f.tf, "--seed", "x"}, "--seed: 'x' is not a whole number"},
      {{"query", "--db", f.tf, "--random", "10000001"},
       "--random: 10000001 is out of range (0..10000000)"},
      {{"frog-puzzle", "solve", "LLL_RRR", "--max-positions", "-1"},
       "--max-positions: must be 0 or more, not -1"},
      {{"frog-puzzle", "solve", "LLL_RRR", "--all", "--limit", "-1"},
       "--limit: must be 0 or more, not -1"},
      {{"river-toad", "solve", f.rolls, "--max-nodes", "-1"},
       "--max-nodes: must be 0 or more, not -1"},
      {{"river-toad", "solve", f.rolls, "--column", "6"}, "--column: 6 is out of range (1..5)"},
      {{"river-toad", "solve", f.rolls, "--hp", "4294967302"},
       "--hp: 4294967302 is out of range (1..1000000)"},
      {{"validate", "--db", f.tf, "-", "--show", "-1"}, "--show: must be 0 or more, not -1"},
      {{"solve", "toads-frogs", "--length", "4294967302", "--db", f.dir / "x"},
       "--length: 4294967302 is out of range (1..26)"},
      {{"solve", "toads-frogs-cgt", "--length", "23", "--db", f.dir / "x"},
       "--length: 23 is out of range (1..22)"},
      {{"solve", "toads-frogs", "--plan", "4", "--plan-rate", "0", "--db", f.dir / "x"},
       "--plan-rate: must be more than 0, not 0"},
      {{"solve", "toads-frogs", "--plan-rate", "1e999", "--db", f.dir / "x"},
       "--plan-rate: '1e999' is not a number"},
      {{"analyze", "--db", f.tf, "--threads", "100000"},
       "--threads: 100000 is out of range (0..1024)"},
      {{"serve", "--db", f.tf, "--port", "70000"}, "--port: 70000 is out of range (0..65535)"},
      {{"forest", "play", "--seed", "-1"}, "--seed: must be 0 or more, not -1"},
      {{"forest", "eval", "--side", "4294967302"}, "--side: 4294967302 is out of range"},
  };
  for (const Case& c : cases) {
    const RunResult r = run_toadbase(c.args);
    INFO(describe(c.args, r));
    CHECK(r.rc == 2);
    CHECK_THAT(r.err, Contains(c.says));
    check_no_library_text(r.err);
    // --json: the same message as a JSON object
    std::vector<std::string> with_json = c.args;
    with_json.push_back("--json");
    const RunResult j = run_toadbase(with_json);
    INFO(describe(with_json, j));
    CHECK(j.rc == 2);
    REQUIRE_NOTHROW(json::parse(j.out));
    CHECK_THAT(json::parse(j.out).at("error").get<std::string>(), Contains(c.says));
  }
  // a very long value is quoted cut short
  const RunResult lots =
      run_expecting({"query", "--db", f.tf, "--seed", std::string(5000, '9')}, 2);
  CHECK(lots.err.size() < 300);
  CHECK_THAT(lots.err, Contains("(5000 bytes)"));
}

TEST_CASE("cli hardening: a directory on standard input is said, for every command that reads -",
          "[cli][hardening]") {
  HardeningFixture& f = hardening_fixture();
  const std::string folder = f.dir / "a-folder";
  std::filesystem::create_directories(folder);
  struct Case {
    std::vector<std::string> args;
    bool takes_json;  // the command takes --json: the error is then a JSON object
  };
  const std::vector<Case> cases = {
      {{"query", "--db", f.tf, "-"}, true},
      {{"query", "--db", f.tf, "--text", "-"}, false},
      {{"validate", "--db", f.tf, "-"}, true},
      {{"river-toad", "solve", "-"}, true},
      {{"river-toad", "check", "-", f.plan}, true},
      {{"river-toad", "check", f.rolls, "-"}, true},
      {{"river-toad", "prefixes", "-"}, true},
      {{"river-toad", "play", "-"}, true},
      {{"river-toad", "play", f.rolls, "--plan-file", "-"}, true},
      {{"frog-puzzle", "check", "LL_RR", "-"}, true},
      {{"forest", "posterior", "-"}, true},
  };
  for (const Case& c : cases) {
    const RunResult r = run_with_stdin(c.args, folder);
    INFO(describe(c.args, r));
    CHECK(r.rc == 1);
    CHECK_THAT(r.err, Contains("cannot read standard input: it is a directory"));
    CHECK(r.out.empty());
    if (!c.takes_json) continue;
    std::vector<std::string> with_json = c.args;
    with_json.push_back("--json");
    const RunResult j = run_with_stdin(with_json, folder);
    INFO(describe(with_json, j));
    CHECK(j.rc == 1);
    REQUIRE_NOTHROW(json::parse(j.out));
    CHECK_THAT(json::parse(j.out).at("error").get<std::string>(),
               Contains("cannot read standard input: it is a directory"));
  }
  // a file given by name that is a directory was already refused by name; still is
  CHECK_THAT(run_expecting({"river-toad", "solve", folder}, 1).err, Contains("it is a directory"));
}

TEST_CASE(
    "cli hardening: a NUL or a huge line in a roll file, a solution, a plan or a claim is shown "
    "escaped and cut short",
    "[cli][hardening]") {
  HardeningFixture& f = hardening_fixture();
  using namespace std::string_literals;
  // River Toad roll files: by name and on standard input
  const std::string nul_rolls = "3\n5\n1\0 after the NUL\n7\n"s;
  write_file(f.dir / "nul-rolls.txt", nul_rolls);
  for (const bool file : {true, false}) {
    const std::vector<std::string> args = {"river-toad", "solve",
                                           file ? f.dir / "nul-rolls.txt" : "-"};
    const RunResult r = run_toadbase(args, file ? "" : nul_rolls);
    INFO(describe(args, r));
    CHECK(r.rc == 1);
    CHECK_THAT(r.err, Contains(std::string(file ? "nul-rolls.txt" : "standard input") +
                               ":3: '1\\x00 after the NUL' is not an integer"));
    CHECK(r.err.find('\0') == std::string::npos);
  }
  // a line of 600 KB: its first 80 bytes and its size
  const std::string huge = "2\n" + std::string(600000, 'x') + "\n4\n";
  const RunResult big = run_expecting({"river-toad", "solve", "-"}, 1, huge);
  CHECK(big.err.size() < 300);
  CHECK_THAT(big.err, Contains("standard input:2: '" + std::string(80, 'x') +
                               "... (600000 bytes)' is not an integer"));
  // a River Toad output file: its HP line and its plan
  const RunResult hp = run_expecting({"river-toad", "check", f.rolls, "-"}, 1, "GAGAF\n7\0 HP\n"s);
  CHECK_THAT(hp.err, Contains("standard input:2: '7\\x00 HP' is not an HP"));
  const RunResult plan = run_expecting({"river-toad", "check", f.rolls, "-"}, 1, "GA\0GAF\n7\n"s);
  CHECK_THAT(plan.out, Contains("'\\x00' is not an action"));
  CHECK(plan.out.find('\0') == std::string::npos);
  const RunResult played =
      run_expecting({"river-toad", "play", f.rolls, "--plan-file", "-"}, 1, "GA\0GAF\n"s);
  CHECK_THAT(played.err, Contains("turn 3: '\\x00' is illegal"));
  // frog-puzzle solutions: the moves format and the blog's lists
  const RunResult moves =
      run_expecting({"frog-puzzle", "check", "LL_RR", "-"}, 1, "L from 1 to 2\0 after\n"s);
  CHECK_THAT(moves.err, Contains("line 1: 'L from 1 to 2\\x00 after' is not a move"));
  const RunResult long_move =
      run_expecting({"frog-puzzle", "check", "LL_RR", "-"}, 1, std::string(5000, 'L') + "\n");
  CHECK(long_move.err.size() < 300);
  CHECK_THAT(long_move.err, Contains("... (5000 bytes)"));
  const RunResult blog =
      run_expecting({"frog-puzzle", "check", "LL_RR", "-"}, 1, "[1, 1, 0, -1, -1]\n\0[1]"s);
  CHECK_THAT(blog.err, Contains("line 2: unexpected '\\x00'"));
  write_file(f.dir / "nul-solution.txt", "R from 3 to 2\nL\0 from 1 to 3\n"s);
  const RunResult by_name =
      run_expecting({"frog-puzzle", "check", "LL_RR", f.dir / "nul-solution.txt"}, 1);
  CHECK_THAT(by_name.err, Contains("line 2: 'L\\x00 from 1 to 3' is not a move"));
  // validate's claims: the value column
  const RunResult claim = run_expecting({"validate", "--db", f.tf, "-"}, 1, "1_T--F\twi\0n\n"s);
  CHECK_THAT(claim.out, Contains("value 'wi\\x00n' is neither win nor lose"));
  CHECK(claim.out.find('\0') == std::string::npos);
}

TEST_CASE(
    "cli hardening: /api/river-toad/solve shows a NUL in its body escaped and a huge line cut "
    "short",
    "[cli][hardening][serve]") {
  HardeningFixture& f = hardening_fixture();
  using namespace std::string_literals;
  TestServer s({f.tf});
  auto c = s.client();
  auto nul = c.Post("/api/river-toad/solve", "3\n5\n1\0 after the NUL\n7\n"s, "text/plain");
  REQUIRE(nul);
  CHECK(nul->status == 400);
  const std::string said = json::parse(nul->body).at("error").get<std::string>();
  CHECK_THAT(said, Contains("the roll file:3: '1\\x00 after the NUL' is not an integer"));
  auto big =
      c.Post("/api/river-toad/solve", "2\n" + std::string(600000, 'x') + "\n4\n", "text/plain");
  REQUIRE(big);
  CHECK(big->status == 400);
  CHECK(big->body.size() < 300);
  CHECK_THAT(json::parse(big->body).at("error").get<std::string>(),
             Contains("the roll file:2: '" + std::string(80, 'x') +
                      "... (600000 bytes)' is not an integer"));
}

TEST_CASE("cli hardening: analyze --per-tier on a CGT database, and its tiers in analyze --json",
          "[cli][hardening][cgt]") {
  HardeningFixture& f = hardening_fixture();
  const json a = json::parse(ok({"analyze", "--db", f.cgt, "--json"}).out);
  REQUIRE(a.contains("tiers"));
  // the oracle: every stored board of 1..6 cells enumerated here, each queried
  const auto classes = stored_boards(6);
  std::string batch;
  for (const auto& [name, boards] : classes)
    for (const auto& b : boards) batch += b + "\n";
  const std::vector<std::string> answers = lines_of(ok({"query", "--db", f.cgt, "-"}, batch).out);
  std::map<std::string, std::pair<std::string, std::string>>
      value_of;  // board -> value, outcome class
  for (const auto& line : answers) {
    const json q = json::parse(line);
    value_of[q.at("board").get<std::string>()] = {q.at("value").get<std::string>(),
                                                  q.at("outcomeClass").get<std::string>()};
  }
  REQUIRE(a["tiers"].size() == classes.size());
  uint64_t boards = 0, forms = 0;
  for (const json& t : a["tiers"]) {
    const std::string name = t.at("tier").get<std::string>();
    INFO(name);
    REQUIRE(classes.count(name) == 1);
    const auto& mine = classes.at(name);
    CHECK(t.at("boards").get<uint64_t>() == mine.size());
    std::set<std::string> values;
    std::map<std::string, uint64_t> outcomes = {{"L", 0}, {"R", 0}, {"N", 0}, {"P", 0}};
    for (const auto& b : mine) {
      values.insert(value_of.at(b).first);
      ++outcomes[value_of.at(b).second];
    }
    CHECK(t.at("distinctValues").get<uint64_t>() == values.size());
    for (const auto& [o, n] : outcomes) CHECK(t.at("outcomeClasses").at(o).get<uint64_t>() == n);
    const auto [toads, frogs] = piece_counts(mine.front());
    CHECK(t.at("cells").get<int>() == static_cast<int>(mine.front().size()));
    CHECK(t.at("toads").get<int>() == toads);
    CHECK(t.at("frogs").get<int>() == frogs);
    boards += t.at("boards").get<uint64_t>();
    forms += t.at("forms").get<uint64_t>();
  }
  CHECK(boards == a.at("positions").get<uint64_t>());
  CHECK(forms == a.at("forms").get<uint64_t>());  // the chunks make up the table
  // the table for people: a heading, then one line a tier with the same figures
  const RunResult r = ok({"analyze", "--db", f.cgt, "--per-tier"});
  check_no_library_text(r.err + r.out);
  const size_t at = r.out.find("\nper tier:");
  REQUIRE(at != std::string::npos);
  const std::vector<std::string> rows = lines_of(r.out.substr(at + 1));
  REQUIRE(rows.size() == a["tiers"].size() + 1);
  const std::vector<std::string> heads = words_of(rows[0]);
  for (const char* h :
       {"boards", "cells", "distinctValues", "forms", "frogs", "toads", "L", "R", "N", "P"})
    CHECK(std::count(heads.begin(), heads.end(), h) == 1);
  for (size_t i = 0; i < a["tiers"].size(); ++i) {
    const json& t = a["tiers"][i];
    const std::vector<std::string> w = words_of(rows[i + 1]);
    CHECK(rows[i + 1].rfind("  ", 0) == 0);
    REQUIRE(w.size() == heads.size() - 1);  // "per tier:" is two words over the names' column
    CHECK(w[0] == t["tier"].get<std::string>());
    auto column = [&](const std::string& h) {
      return w[static_cast<size_t>(std::find(heads.begin(), heads.end(), h) - heads.begin()) - 1];
    };
    CHECK(column("boards") == t["boards"].dump());
    CHECK(column("distinctValues") == t["distinctValues"].dump());
    CHECK(column("forms") == t["forms"].dump());
    CHECK(column("P") == t["outcomeClasses"]["P"].dump());
  }
}

TEST_CASE("solve --hold-compressed: the finished tiers held compressed give the same database and a budget only they keep",
          "[cli][solve][memory]") {
  TempDir dir("cli-held");
  const json natural =
      json::parse(ok({"solve", "toads-frogs", "--length", "14", "--db", dir / "natural", "--quiet", "--json"}).out);
  CHECK_FALSE(natural.contains("heldPacked"));
  // the plan says so, and its smallest budget is the compressed one's
  const json plan = json::parse(ok({"solve", "toads-frogs", "--length", "14", "--db", dir / "x", "--plan", "1",
                                    "--hold-compressed", "--threads", "2", "--json"})
                                    .out);
  CHECK(plan.at("tiersHeldCompressed") == true);
  CHECK(plan.at("smallestBudgetHoldsCompressed") == true);
  const uint64_t least = plan.at("smallestBudget").get<uint64_t>();
  const json held = json::parse(ok({"solve", "toads-frogs", "--length", "14", "--db", dir / "held", "--quiet",
                                    "--hold-compressed", "--threads", "2", "--json"})
                                    .out);
  CHECK(held.at("digest") == natural.at("digest"));
  const json& h = held.at("heldPacked");
  CHECK(h.at("rawBytes").get<uint64_t>() > 0);
  CHECK(h.at("packedBytes").get<uint64_t>() < h.at("rawBytes").get<uint64_t>());
  CHECK(h.at("plannedPermille").get<uint64_t>() > 0);
  CHECK(held.at("peakTierBytesInFlight").get<uint64_t>() <= plan.at("peakBytesPerRank").get<uint64_t>());
  CHECK_THAT(ok({"solve", "toads-frogs", "--length", "14", "--db", dir / "held2", "--hold-compressed", "--threads", "2"}).out,
             Contains("finished tiers held compressed: "));
  // under its smallest budget: kept, components moved, the same database; one byte less: refused, nothing written
  const json kept = json::parse(ok({"solve", "toads-frogs", "--length", "14", "--db", dir / "kept", "--quiet",
                                    "--hold-compressed", "--threads", "2", "--memory", std::to_string(least), "--json"})
                                    .out);
  CHECK(kept.at("digest") == natural.at("digest"));
  CHECK(kept.at("peakTierBytesInFlight").get<uint64_t>() <= least);
  const RunResult below = run_expecting({"solve", "toads-frogs", "--length", "14", "--db", dir / "below",
                                         "--hold-compressed", "--threads", "2", "--memory", std::to_string(least - 1)},
                                        2);
  CHECK_THAT(below.err, Contains("one after another and its finished tiers held compressed), more than --memory"));
  CHECK_FALSE(std::filesystem::exists(dir / "below"));
  // the check before the solve reckons the threads the solve runs (one here: less to hold)
  const uint64_t least1 = json::parse(ok({"solve", "toads-frogs", "--length", "14", "--db", dir / "x", "--plan", "1",
                                          "--hold-compressed", "--threads", "1", "--json"})
                                          .out)
                              .at("smallestBudget")
                              .get<uint64_t>();
  CHECK(least1 < least);
  const json one = json::parse(ok({"solve", "toads-frogs", "--length", "14", "--db", dir / "one", "--quiet",
                                   "--hold-compressed", "--threads", "1", "--memory", std::to_string(least1), "--json"})
                                   .out);
  CHECK(one.at("digest") == natural.at("digest"));
  // every board of 16 cells (tiers of two blocks) holding its tiers compressed: the digest of results/
  const json sixteen = json::parse(ok({"solve", "toads-frogs", "--length", "16", "--db", dir / "s16", "--quiet",
                                       "--hold-compressed", "--json"})
                                       .out);
  CHECK(sixteen.at("digest") == "dde0126d7b3dd828");
  CHECK(sixteen.contains("heldPacked"));
  CHECK(sixteen.at("heldPacked").at("span") == 1);  // every tier a later level reads
  CHECK(h.at("blocksFromCommits").get<uint64_t>() == 0);  // 14 cells: no tier keeps a block's worth
  // tiers whose kept records fill a block (4 toads and 5 frogs on 16 cells): held as their
  // commit compressed them, not compressed twice, and the same database
  const std::vector<std::string> one_count = {"solve", "toads-frogs", "--length", "16", "--toads", "4", "--frogs", "5",
                                              "--quiet", "--json"};
  auto with = [&](std::vector<std::string> args, std::vector<std::string> more) {
    args.insert(args.end(), more.begin(), more.end());
    return json::parse(ok(args).out);
  };
  const json natural45 = with(one_count, {"--db", dir / "n45"});
  const json held45 = with(one_count, {"--db", dir / "h45", "--hold-compressed"});
  CHECK(held45.at("digest") == natural45.at("digest"));
  CHECK(held45.at("heldPacked").at("blocksFromCommits").get<uint64_t>() > 0);
  // the fewest tiers compressed (plans of 22 cells, two threads): 320 MiB is kept with the frogs'
  // tiers alone compressed (last read three levels on), 300 MiB needs every finished tier
  // compressed, 382 MiB none
  const auto plan22 = [&](const std::string& memory) {
    return json::parse(ok({"solve", "toads-frogs", "--length", "22", "--db", dir / "p22", "--plan", "1", "--threads",
                           "2", "--memory", memory, "--json"})
                           .out);
  };
  const json p320 = plan22("320M"), p300 = plan22("300M"), p382 = plan22("382M");
  CHECK((p320.at("fitsBudget") == true && p320.at("tiersHeldCompressed") == true));
  CHECK(p320.at("tiersHeldCompressedSpan") == 3);
  CHECK((p300.at("fitsBudget") == true && p300.at("tiersHeldCompressedSpan") == 1));
  CHECK((p382.at("fitsBudget") == true && p382.at("tiersHeldCompressed") == false &&
         p382.at("tiersHeldCompressedSpan").is_null()));
  CHECK_THAT(ok({"solve", "toads-frogs", "--length", "22", "--db", dir / "p22", "--plan", "1", "--threads", "2",
                 "--memory", "320M"})
                 .out,
             Contains("(finished tiers last read 3 or more levels on held compressed to keep the budget)"));
  CHECK_FALSE(std::filesystem::exists(dir / "p22"));
}

TEST_CASE("solve --memory: a solve keeps any budget from its largest component's peak up, and a smaller one is refused "
          "before the database is written, naming the smallest that works",
          "[cli][solve][memory]") {
  TempDir dir("cli-memory");
  const std::string db = dir / "tf12";
  // the plan's figure is the solve's own peak of records in flight
  const json plan = json::parse(ok({"solve", "toads-frogs", "--length", "12", "--db", db, "--plan", "1", "--json"}).out);
  const uint64_t need = plan.at("peakBytesPerRank").get<uint64_t>();
  const uint64_t least = plan.at("smallestBudget").get<uint64_t>();
  REQUIRE(need > 2048);
  REQUIRE(least * 2 < need);  // twelve piece counts side by side, against the largest alone
  CHECK(plan.at("levelsMovedToFit") == false);
  CHECK(plan.at("expectedPeakRssPerRank").get<uint64_t>() == need + (uint64_t{3} << 29));  // 1.5 GiB beside
  const json natural = json::parse(ok({"solve", "toads-frogs", "--length", "12", "--db", dir / "natural", "--quiet",
                                       "--json"})
                                       .out);
  CHECK(natural.at("peakTierBytesInFlight").get<uint64_t>() == need);
  // one byte less than the largest component holds: refused, nothing written
  const RunResult small =
      run_expecting({"solve", "toads-frogs", "--length", "12", "--db", db, "--memory", std::to_string(least - 1)}, 2);
  CHECK_THAT(small.err, Contains("records at once ("));
  CHECK_THAT(small.err, Contains("one after another), more than --memory " + std::to_string(least - 1)));
  CHECK_FALSE(std::filesystem::exists(db));
  // the smallest budget it names is taken back, and the solve ends as the natural one did
  const std::string marker = "the smallest budget that works is --memory ";
  const size_t at = small.err.find(marker);
  REQUIRE(at != std::string::npos);
  std::string named = small.err.substr(at + marker.size());
  named = named.substr(0, named.find_first_of(",\n"));
  INFO("named " << named);
  CHECK(named.find_first_not_of("0123456789.KMGT") == std::string::npos);
  const json solved = json::parse(
      ok({"solve", "toads-frogs", "--length", "12", "--db", db, "--memory", named, "--quiet", "--json"}).out);
  CHECK(solved.at("digest") == natural.at("digest"));
  CHECK(named.back() == 'K');  // under a MiB: in KiB, rounded up
  CHECK(solved.at("peakTierBytesInFlight").get<uint64_t>() < need);
  CHECK(solved.at("peakTierBytesInFlight").get<uint64_t>() <= least + 1023);
  // budgets from the smallest to one byte under the natural peak: kept, the same records
  for (uint64_t budget : {least, (least + need) / 2, need - 1}) {
    INFO("budget " << budget);
    const json p = json::parse(ok({"solve", "toads-frogs", "--length", "12", "--db", dir / "other", "--plan", "1",
                                   "--memory", std::to_string(budget), "--json"})
                                   .out);
    CHECK(p.at("fitsBudget") == true);
    CHECK(p.at("levelsMovedToFit") == true);
    CHECK(p.at("peakBytesPerRank").get<uint64_t>() <= budget);
    CHECK(p.at("levels").get<uint64_t>() > plan.at("levels").get<uint64_t>());
    const std::string kept = dir / ("kept" + std::to_string(budget));
    const json k = json::parse(ok({"solve", "toads-frogs", "--length", "12", "--db", kept, "--memory",
                                   std::to_string(budget), "--quiet", "--json"})
                                   .out);
    CHECK(k.at("peakTierBytesInFlight").get<uint64_t>() <= budget);
    CHECK(k.at("digest") == natural.at("digest"));
  }
  // a budget of exactly the natural need keeps the natural levels; --plan says whether one fits
  const json exact = json::parse(ok({"solve", "toads-frogs", "--length", "12", "--db", dir / "other", "--plan", "1",
                                     "--memory", std::to_string(need), "--json"})
                                     .out);
  CHECK(exact.at("fitsBudget") == true);
  CHECK(exact.at("levelsMovedToFit") == false);
  CHECK(json::parse(ok({"solve", "toads-frogs", "--length", "12", "--db", dir / "other", "--plan", "1", "--memory",
                        std::to_string(least - 1), "--json"})
                        .out)
            .at("fitsBudget") == false);
  CHECK_FALSE(std::filesystem::exists(dir / "other"));
  // a complete database is only reported, whatever the budget
  CHECK_THAT(ok({"solve", "toads-frogs", "--length", "12", "--db", db, "--memory", "1"}).out,
             Contains("already complete"));
  // a wider record given by hand: twice the bytes, refused, and no other record offered
  const RunResult wide = run_expecting(
      {"solve", "toads-frogs", "--length", "12", "--db", dir / "wide", "--record", "remoteness-u16-parity", "--memory",
       std::to_string(2 * least - 1)},
      2);
  const json wide_plan = json::parse(ok({"solve", "toads-frogs", "--length", "12", "--db", dir / "wide", "--plan", "1",
                                         "--record", "remoteness-u16-parity", "--json"})
                                         .out);
  CHECK(wide_plan.at("peakBytesPerRank").get<uint64_t>() == 2 * need);
  CHECK(wide_plan.at("smallestBudget").get<uint64_t>() == 2 * least);
  CHECK_THAT(wide.err, Contains("more than --memory " + std::to_string(2 * least - 1)));
  CHECK(wide.err.find("--record") == std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir / "wide"));
  // 23 and 24 cells: the plan the game picks is the one-byte record's (the plan alone is made;
  // one budget given to both, as the default is a share of the free memory at that moment,
  // which another process changes between the two)
  for (const char* length : {"23", "24"}) {
    const json picked = json::parse(
        ok({"solve", "toads-frogs", "--length", length, "--db", dir / "x", "--plan", "1", "--memory", "20G", "--json"})
            .out);
    const json narrow = json::parse(ok({"solve", "toads-frogs", "--length", length, "--db", dir / "x", "--plan", "1",
                                        "--memory", "20G", "--record", "remoteness-u8-parity", "--json"})
                                        .out);
    CHECK(picked.at("record") == "remoteness-u8-parity");
    CHECK(picked.at("peakBytesPerRank") == narrow.at("peakBytesPerRank"));
  }
  CHECK_FALSE(std::filesystem::exists(dir / "x"));
  // sizes: units, a share of the free memory; garbage is refused by name
  for (const std::string good : {"64M", "64MiB", "0.5G", "1T", "90%"})
    CHECK(run_toadbase({"solve", "toads-frogs", "--length", "6", "--db", dir / ("g" + good), "--memory", good, "--quiet"}).rc == 0);
  for (const std::string bad : {"", "x", "-1G", "12Q", "0", "0%", "101%", "1e999", " 5G", "5G ", "0x10G", "1e3M", "1..5G",
                                 ".5G", "5000000T"}) {
    const RunResult r = run_toadbase({"solve", "toads-frogs", "--length", "6", "--db", dir / "bad", "--memory", bad});
    INFO("--memory '" << bad << "': " << r.err);
    CHECK(r.rc == 2);
    CHECK_THAT(r.err, Contains("--memory"));
    CHECK_FALSE(std::filesystem::exists(dir / "bad"));
  }
}

TEST_CASE("solve --json: cpuSeconds splits the solve's CPU between its threads, the group writer and RocksDB's",
          "[cli][solve]") {
  TempDir dir("cli-cpu");
  const json s = json::parse(ok({"solve", "toads-frogs", "--length", "16", "--db", dir / "db", "--quiet", "--json"}).out);
  const json& cpu = s.at("cpuSeconds");
  const double total = cpu.at("total").get<double>(), solving = cpu.at("solveThreads").get<double>(),
               writer = cpu.at("groupWriter").get<double>(), rocks = cpu.at("rocksdbThreads").get<double>();
  INFO(cpu.dump());
  CHECK(solving > 0.1);  // 86 million positions: a solve of 16 cells takes 0.4 s or more of one core
  CHECK(writer >= 0);
  CHECK(rocks >= 0);
  CHECK(solving + writer + rocks == Approx(total));
  // no more than every core for the whole solve (the process's time before it, its tables, is not counted)
  CHECK(total <= s.at("seconds").get<double>() * std::max(1u, std::thread::hardware_concurrency()) + 0.05);
  // a database complete already: nothing solved, next to no CPU
  const json again = json::parse(ok({"solve", "toads-frogs", "--length", "16", "--db", dir / "db", "--quiet", "--json"}).out);
  CHECK(again.at("cpuSeconds").at("total").get<double>() < solving);
}
