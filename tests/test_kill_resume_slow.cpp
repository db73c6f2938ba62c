// Every game's solve killed with SIGKILL at random points (before its first commit, between
// tiers, in the final manifest write), then resumed: the same digest as an uninterrupted
// solve, and verify passes. The solves run through tests/slow_solve.cpp, slowed down from the
// test side so the kills land everywhere.
#include <signal.h>
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <algorithm>
#include <chrono>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>

#include "support.hpp"

using namespace tbtest;
using json = nlohmann::json;
using Catch::Matchers::Contains;

namespace {

struct KillCase {
  std::vector<std::string> solve;  // the command's game and parameters
  std::string game, params;        // the same for slow_solve
  int delay_ms;                    // each commit's sleep in the slowed-down solve
  int rounds;                      // kills before the last, uninterrupted run
};

/// Lines of the slowed-down solve's standard output: one a commit.
size_t commits_seen(const std::string& path) {
  const std::string text = read_file(path);
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

/// Starts the slowed-down solve and kills it once it has committed `commits` tiers (or lets
/// it finish first; never for a negative count). Returns true when the kill landed before the
/// solve ended, and the tiers it saw committed.
std::pair<bool, size_t> solve_and_kill_after(const TempDir& dir, const KillCase& c, const std::string& db, long commits) {
  const std::string out = dir / "slow.out";
  const pid_t pid = spawn_program(test_path("slow_solve"), {c.game, c.params, db, std::to_string(c.delay_ms)}, "", out,
                                  dir / "slow.err");
  int status = 0;
  bool killed = false, reaped = false;
  if (commits >= 0) {
    // wait for the count, however loaded the machine is, then kill at once
    while (!(reaped = waitpid(pid, &status, WNOHANG) == pid)) {
      if (commits_seen(out) >= static_cast<size_t>(commits)) {
        killed = kill(pid, SIGKILL) == 0;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  if (!reaped) REQUIRE(waitpid(pid, &status, 0) == pid);
  const size_t seen = commits_seen(out);
  if (WIFEXITED(status)) {
    INFO(read_file(dir / "slow.err"));
    REQUIRE(WEXITSTATUS(status) == 0);  // it finished before the kill: fine, but say so
    return {false, seen};
  }
  return {killed && WIFSIGNALED(status), seen};
}

}  // namespace

TEST_CASE("faults: every game's solve killed with SIGKILL at random points resumes to the same digest",
          "[faults][kill][slow]") {
  const std::vector<KillCase> cases = {
      {{"toads-frogs", "--length", "11"}, "toads-frogs", R"({"length": 11})", 1, 6},
      {{"frog-puzzle", "--left", "5", "--right", "5", "--empty", "2"}, "frog-puzzle",
       R"({"left": 5, "right": 5, "empty": 2})", 1, 6},
      {{"river-toad", "--turns", "2"}, "river-toad", R"({"turns": 2})", 200, 3},
      {{"forest", "--side", "3"}, "forest", R"({"side": 3})", 300, 2},
      {{"toads-frogs-cgt", "--length", "11"}, "toads-frogs-cgt", R"({"length": 11})", 1, 6},
  };
  std::mt19937 rng(11);
  for (const KillCase& c : cases) {
    DYNAMIC_SECTION(c.game) {
      TempDir dir("kill-" + c.game);
      std::vector<std::string> ref_args = {"solve"};
      ref_args.insert(ref_args.end(), c.solve.begin(), c.solve.end());
      for (const char* a : {"--quiet", "--json", "--db"}) ref_args.push_back(a);
      ref_args.push_back(dir / "ref");
      const json ref = json::parse(ok(ref_args).out);
      // how many commits a whole slowed-down solve makes; each round kills after a random
      // number of the commits still to come (what is committed is not solved again)
      const size_t total = solve_and_kill_after(dir, c, dir / "timed", -1).second;
      REQUIRE(total > 0);
      const std::string db = dir / "db";
      int landed = 0;
      size_t committed = 0;
      for (int round = 0; round < c.rounds; ++round) {
        const size_t left = total > committed ? total - committed : 1;
        const auto [hit, seen] = solve_and_kill_after(dir, c, db, static_cast<long>(rng() % std::max<size_t>(1, left / 2)));
        landed += hit;
        committed += seen;
      }
      // the last kill waits for every tier still to come: it lands after the last commit, before
      // the final manifest write (one atomic RocksDB write: a kill inside it leaves the database
      // as before it or as after it), so the resume has only that write left to do
      const size_t left = total > committed ? total - committed : 0;
      const bool before_finish = solve_and_kill_after(dir, c, db, static_cast<long>(left)).first;
      CHECK(landed >= (c.rounds + 1) / 2);
      auto args = ref_args;
      args.back() = db;
      const json done = json::parse(ok(args).out);
      CHECK(done.at("digest") == ref.at("digest"));
      CHECK_THAT(ok({"verify", "--db", db, "--quiet"}).out, Contains("OK"));
      CHECK(json::parse(ok({"info", "--db", db, "--json"}).out).at("complete") == true);
      std::cout << "figure kill game=" << c.game << " kills=" << c.rounds + 1 << " landed=" << landed + before_finish
                << " beforeFinalWrite=" << before_finish << " sameDigest=" << (done.at("digest") == ref.at("digest"))
                << "\n";
    }
  }
}
