// Every game's solve killed with SIGKILL at random points (before its first commit, between
// tiers, in the final manifest write), then resumed: the same digest as an uninterrupted
// solve, and verify passes. The solves run through tests/slow_solve.cpp, slowed down from the
// test side so the kills land everywhere.
#include <signal.h>
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>

#include "support.hpp"

using namespace tbtest;
using json = nlohmann::json;
using Catch::Matchers::Contains;

namespace {

struct Case {
  std::vector<std::string> solve;  // the command's game and parameters
  std::string game, params;        // the same for slow_solve
  int delay_ms;                    // each commit's sleep in the slowed-down solve
  int rounds;                      // kills before the last, uninterrupted run
};

/// Starts the slowed-down solve and kills it after `ms` (or lets it finish first; never for a
/// negative `ms`). Returns true when the kill landed before the solve ended.
bool solve_and_kill_after(const TempDir& dir, const Case& c, const std::string& db, int ms) {
  const pid_t pid = spawn_program(TOADBASE_SLOW_SOLVE_BIN, {c.game, c.params, db, std::to_string(c.delay_ms)}, "",
                                  dir / "slow.out", dir / "slow.err");
  if (ms >= 0) std::this_thread::sleep_for(std::chrono::milliseconds(ms));
  const bool killed = ms >= 0 && kill(pid, SIGKILL) == 0;
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  if (WIFEXITED(status)) {
    INFO(read_file(dir / "slow.err"));
    REQUIRE(WEXITSTATUS(status) == 0);  // it finished before the kill: fine, but say so
    return false;
  }
  return killed && WIFSIGNALED(status);
}

}  // namespace

TEST_CASE("faults: every game's solve killed with SIGKILL at random points resumes to the same digest",
          "[faults][kill][slow]") {
  const std::vector<Case> cases = {
      {{"toads-frogs", "--length", "11"}, "toads-frogs", R"({"length": 11})", 1, 6},
      {{"frog-puzzle", "--left", "5", "--right", "5", "--empty", "2"}, "frog-puzzle",
       R"({"left": 5, "right": 5, "empty": 2})", 1, 6},
      {{"river-toad", "--turns", "2"}, "river-toad", R"({"turns": 2})", 200, 3},
      {{"forest", "--side", "3"}, "forest", R"({"side": 3})", 300, 2},
      {{"toads-frogs-cgt", "--length", "11"}, "toads-frogs-cgt", R"({"length": 11})", 1, 6},
  };
  std::mt19937 rng(11);
  for (const Case& c : cases) {
    DYNAMIC_SECTION(c.game) {
      TempDir dir("kill-" + c.game);
      std::vector<std::string> ref_args = {"solve"};
      ref_args.insert(ref_args.end(), c.solve.begin(), c.solve.end());
      for (const char* a : {"--quiet", "--json", "--db"}) ref_args.push_back(a);
      ref_args.push_back(dir / "ref");
      const json ref = json::parse(ok(ref_args).out);
      // how long the slowed-down solve takes here and now, measured: kills spread over it,
      // and over less each round (what is committed is not solved again)
      const auto t1 = std::chrono::steady_clock::now();
      REQUIRE_FALSE(solve_and_kill_after(dir, c, dir / "timed", -1));
      const int span = std::max(20, static_cast<int>(0.9 * std::chrono::duration<double, std::milli>(
                                                                std::chrono::steady_clock::now() - t1).count()));
      const std::string db = dir / "db";
      int landed = 0;
      for (int round = 0; round < c.rounds; ++round)
        landed += solve_and_kill_after(dir, c, db, 5 + static_cast<int>(rng() % static_cast<unsigned>(span * (c.rounds - round) / c.rounds)));
      CHECK(landed >= (c.rounds + 1) / 2);
      auto args = ref_args;
      args.back() = db;
      const json done = json::parse(ok(args).out);
      CHECK(done.at("digest") == ref.at("digest"));
      CHECK_THAT(ok({"verify", "--db", db, "--quiet"}).out, Contains("OK"));
      CHECK(json::parse(ok({"info", "--db", db, "--json"}).out).at("complete") == true);
    }
  }
}
