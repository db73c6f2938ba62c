// Hostile input and partial failure through the real binary, for every game: unprintable
// bytes in a position are shown escaped (a NUL does not cut the message), per-tier analysis
// of every kind of database, no library text in user-facing errors, a query batch on a
// damaged database answers what it can, many readers during verify.
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support.hpp"

using namespace tbtest;
using Catch::Matchers::Contains;
using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

/// One small database of each game, read only: solved once for the test processes of these
/// cases (the forest's takes half a minute under the sanitizers).
struct Games {
  std::map<std::string, std::string> db;
  Games() {
    db["toads-frogs"] = tbtest::shared_database("reliability-tf8", {"toads-frogs", "--length", "8"});
    db["frog-puzzle"] = tbtest::shared_database("reliability-fp3", {"frog-puzzle", "--left", "3"});
    db["river-toad"] = tbtest::shared_database("reliability-rt1", {"river-toad", "--turns", "1"});
    db["forest"] = tbtest::shared_database("reliability-forest3", {"forest", "--side", "3"});
  }
};

Games& games() {
  static Games g;
  return g;
}

}  // namespace

TEST_CASE("reliability: unprintable bytes in a position are shown escaped, whole, for every game", "[cli][faults]") {
  Games& g = games();
  // three positions a line each, in one batch a game (each command opens its database once)
  const std::vector<std::string> texts{std::string("1_T\0X-F", 7), "1_T\x01\x7f\xff-F", "1_T\tX\x1b[31m"};
  const std::vector<std::string> escaped{"1_T\\x00X-F", "1_T\\x01\\x7f\\xff-F", "1_T\\tX\\x1b[31m"};
  std::string input;
  for (const std::string& t : texts) input += t + "\n";
  for (const auto& [game, db] : g.db) {
    INFO(game);
    const RunResult plain = run_toadbase({"query", "--db", db, "-"}, input);
    INFO(describe({"query", "--db", db, "-"}, plain));
    CHECK(plain.rc == 1);
    // each message goes on past the unprintable byte to its reason
    const std::string said = plain.out + plain.err;
    size_t reasons = 0;
    for (size_t at = said.find("': "); at != std::string::npos; at = said.find("': ", at + 1)) ++reasons;
    CHECK(reasons == texts.size());
    CHECK(said.find('\0') == std::string::npos);
    CHECK(said.find('\x1b') == std::string::npos);
    const RunResult js = run_toadbase({"query", "--db", db, "--json", "-"}, input);
    INFO(js.out);
    CHECK(js.rc == 1);
    std::istringstream lines(js.out);
    std::string line;
    for (const std::string& e : escaped) {
      REQUIRE(std::getline(lines, line));
      const json j = json::parse(line);  // well-formed JSON: no raw bytes that are not UTF-8
      REQUIRE(j.contains("error"));
      CHECK_THAT(j["error"].get<std::string>(), Contains(e + "': "));
    }
    CHECK_FALSE(std::getline(lines, line));
  }
}

TEST_CASE("reliability: analyze --per-tier gives one line per tier for every game", "[cli][faults]") {
  Games& g = games();
  for (const auto& [game, db] : g.db) {
    INFO(game);
    const json a = json::parse(ok({"analyze", "--db", db, "--json"}).out);
    const RunResult r = ok({"analyze", "--db", db, "--per-tier"});
    const size_t at = r.out.find("\nper tier");
    REQUIRE(at != std::string::npos);
    std::istringstream rows(r.out.substr(at + 1));
    std::string line;
    std::getline(rows, line);  // the heading
    size_t n = 0;
    for (; std::getline(rows, line); ++n) CHECK(line.rfind("  ", 0) == 0);
    CHECK(n == a["tiers"].size());
  }
}

TEST_CASE("reliability: no library text in user-facing errors, and a directory is not a file to read or write",
          "[cli][faults]") {
  Games& g = games();
  TempDir dir("reliability-text");
  // a plan that is not UTF-8: check --json still writes JSON, the bytes replaced
  write_file(dir / "rolls.txt", "5\n21\n21\n10\n14\n27\n");
  write_file(dir / "plan.txt", "GAG\xff\xfe\n7\n#SS SS#\n# SSS #\n# S S #\n#S S S#\n#   T #\n");
  const RunResult check = run_toadbase({"river-toad", "check", dir / "rolls.txt", dir / "plan.txt", "--json"});
  INFO(describe({"river-toad", "check", "--json"}, check));
  CHECK(check.rc == 1);
  const json j = json::parse(check.out);
  CHECK(j.at("legal") == false);
  CHECK(j.at("valid") == false);
  CHECK(check.err.find("json.exception") == std::string::npos);
  // a directory where a file is read
  fs::create_directories(dir / "a-directory");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"validate", "--db", g.db["toads-frogs"], dir / "a-directory"},
        std::vector<std::string>{"river-toad", "check", dir / "a-directory", dir / "plan.txt"},
        std::vector<std::string>{"river-toad", "solve", dir / "a-directory"},
        // and where a file is written (it said "filesystem error: cannot rename: Is a directory")
        std::vector<std::string>{"export", "--db", g.db["toads-frogs"], dir / "a-directory"},
        std::vector<std::string>{"river-toad", "solve", dir / "rolls.txt", dir / "a-directory"}}) {
    const RunResult r = run_toadbase(args);
    INFO(describe(args, r));
    CHECK(r.rc == 1);
    CHECK_THAT(r.err, Contains("a-directory") && Contains("directory"));
  }
}

TEST_CASE("reliability: many readers answer rightly while verify reads the same database", "[cli][faults]") {
  TempDir dir("reliability-readers");
  const std::string db = dir / "tf14";  // verify takes long enough to read beside it
  ok({"solve", "toads-frogs", "--length", "14", "--db", db, "--quiet"});
  const std::vector<std::string> batch = {"query", "--db", db, "--random", "300", "--seed", "3"};
  const std::string answers = ok(batch).out;
  const pid_t verify = spawn_toadbase({"verify", "--db", db}, "", dir / "verify.out", dir / "verify.err");
  int status = 0, during = 0;
  bool ended = false;
  while (!ended) {
    // whether the verify still runs as the readers start (asked after them, a verify that
    // ended while they ran made them not count: at 13 cells a verify under load could end
    // within the first pair, and the check below failed with nothing wrong)
    ended = waitpid(verify, &status, WNOHANG) == verify;
    // readers in two processes at once beside the verify
    const RunResult a = run_toadbase(batch), b = run_toadbase(batch);
    CHECK(a.rc == 0);
    CHECK(b.rc == 0);
    CHECK(a.out == answers);
    CHECK(b.out == answers);
    during += ended ? 0 : 2;
  }
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK_THAT(read_file(dir / "verify.out"), Contains("OK"));
  CHECK(during > 0);  // readers started while verify ran
}
