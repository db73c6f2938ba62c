// Hostile input and partial failure through the real binary, for every game: unprintable
// bytes in a position are shown escaped (a NUL does not cut the message), per-tier analysis
// of every kind of database, no library text in user-facing errors, a query batch on a
// damaged database answers what it can, many readers during verify.
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

/// One small database of each game, made once.
struct Games {
  TempDir dir{"reliability"};
  std::map<std::string, std::string> db;
  Games() {
    db["toads-frogs"] = dir / "tf";
    ok({"solve", "toads-frogs", "--length", "8", "--db", db["toads-frogs"], "--quiet"});
    db["frog-puzzle"] = dir / "fp";
    ok({"solve", "frog-puzzle", "--left", "3", "--db", db["frog-puzzle"], "--quiet"});
    db["river-toad"] = dir / "rt";
    ok({"solve", "river-toad", "--turns", "1", "--db", db["river-toad"], "--quiet"});
    db["forest"] = dir / "forest";
    ok({"solve", "forest", "--side", "3", "--db", db["forest"], "--quiet"});
  }
};

Games& games() {
  static Games g;
  return g;
}

}  // namespace

TEST_CASE("reliability: unprintable bytes in a position are shown escaped, whole, for every game", "[cli][faults]") {
  Games& g = games();
  const std::string nul("1_T\0X-F", 7);
  for (const auto& [game, db] : g.db) {
    for (const std::string& text : {nul, std::string("1_T\x01\x7f\xff-F"), std::string("1_T\tX\x1b[31m")}) {
      INFO(game);
      const RunResult plain = run_toadbase({"query", "--db", db, "-"}, text + "\n");
      INFO(describe({"query", "--db", db, "-"}, plain));
      CHECK(plain.rc == 1);
      // the message goes on past the unprintable byte to its reason
      const std::string said = plain.out + plain.err;
      CHECK_THAT(said, Contains("': "));
      CHECK(said.find('\0') == std::string::npos);
      CHECK(said.find('\x1b') == std::string::npos);
      const RunResult js = run_toadbase({"query", "--db", db, "--json", "-"}, text + "\n");
      INFO(js.out);
      std::istringstream lines(js.out);
      std::string line;
      REQUIRE(std::getline(lines, line));
      const json j = json::parse(line);  // well-formed JSON: no raw bytes that are not UTF-8
      REQUIRE(j.contains("error"));
      const std::string e = j["error"].get<std::string>();
      CHECK_THAT(e, Contains("': "));
      if (text == nul) {
        CHECK_THAT(e, Contains("1_T\\x00X-F"));
      } else if (text[3] == '\x01') {
        CHECK_THAT(e, Contains("1_T\\x01\\x7f\\xff-F"));
      } else {
        CHECK_THAT(e, Contains("1_T\\tX\\x1b[31m"));
      }
    }
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
