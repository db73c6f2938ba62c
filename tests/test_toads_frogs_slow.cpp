// Slow end-to-end tests (label `slow`; the sanitizer run skips them): a solve killed with
// SIGKILL and resumed, a larger space solved with different thread counts and verified, and
// the padding identity between two whole lengths.
#include <signal.h>
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>
#include <unordered_map>

#include "support.hpp"

using namespace tbtest;
using Catch::Matchers::Contains;
using json = nlohmann::json;

namespace {


json info_of(const std::string& db) { return json::parse(ok({"info", "--db", db, "--json"}).out); }

/// Starts a slowed-down solve (each commit sleeps 2 ms: slow_solve.cpp), lets it commit some
/// tiers beyond `at_least`, and kills it with SIGKILL. Returns the tiers committed at the kill.
uint64_t solve_and_kill(const TempDir& dir, const std::string& db, uint64_t at_least) {
  const std::vector<std::string> args = {"toads-frogs", R"({"length": 12})", db, "2"};
  const pid_t pid = spawn_program(test_path("slow_solve"), args, "", dir / "solve.out", dir / "solve.err");
  const auto start = std::chrono::steady_clock::now();
  int status = 0;
  for (;;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
    if (waitpid(pid, &status, WNOHANG) == pid) {
      FAIL("the slowed-down solve ended before it was killed: exit "
           << status << "\n" << read_file(dir / "solve.err"));
    }
    // a read-only look while the solve runs (it may fail while files change: then wait)
    const RunResult r = run_toadbase({"info", "--db", db, "--json"});
    uint64_t seen = 0;
    if (r.rc == 0) {
      try {
        seen = json::parse(r.out).at("committedTiers");
      } catch (const std::exception&) {
      }
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if ((seen > at_least + 100 && secs > 0.5) || secs > 5) break;
  }
  REQUIRE(kill(pid, SIGKILL) == 0);
  REQUIRE(waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFSIGNALED(status));
  REQUIRE(WTERMSIG(status) == SIGKILL);
  const json info = info_of(db);
  INFO(info.dump());
  CHECK(info.at("complete") == false);
  const uint64_t committed = info.at("committedTiers");
  CHECK(committed > at_least);
  CHECK(committed < info.at("tierCount").get<uint64_t>());
  return committed;
}

}  // namespace

TEST_CASE("cli: a solve killed with SIGKILL resumes to the digest of an uninterrupted one",
          "[cli][slow]") {
  TempDir dir("slow-kill");
  const json reference = json::parse(
      ok({"solve", "toads-frogs", "--length", "12", "--db", dir / "ref", "--quiet", "--json"}).out);
  const std::string db = dir / "db";

  const uint64_t first = solve_and_kill(dir, db, 0);
  // an incomplete database answers no queries, and says why
  for (std::vector<std::string> args : {std::vector<std::string>{"query", "--db", db, "1_TTTT----FFFF"},
                                        std::vector<std::string>{"analyze", "--db", db},
                                        std::vector<std::string>{"verify", "--db", db}}) {
    const RunResult r = run_toadbase(args);
    INFO(describe(args, r));
    CHECK(r.rc != 0);
    CHECK_THAT(r.err, Contains("incomplete"));
  }
  // resumed and killed again
  const uint64_t second = solve_and_kill(dir, db, first);
  CHECK(second > first);

  // resumed to the end
  const json done = json::parse(
      ok({"solve", "toads-frogs", "--length", "12", "--db", db, "--quiet", "--json"}).out);
  // every committed tier is passed over but a derived one over a derived child, solved again
  CHECK(done.at("tiersSkipped").get<uint64_t>() <= second);
  CHECK(done.at("tiersSkipped").get<uint64_t>() > 0);
  CHECK(done.at("tiersSolved").get<uint64_t>() + done.at("tiersSkipped").get<uint64_t>() ==
        reference.at("tiers").get<uint64_t>());
  CHECK(done.at("digest") == reference.at("digest"));
  const json info = info_of(db);
  CHECK(info.at("complete") == true);
  CHECK(info.at("digest") == reference.at("digest"));
  CHECK_THAT(ok({"verify", "--db", db, "--quiet"}).out, Contains("OK"));
  const RunResult q = ok({"query", "--db", db, "1_TTTT----FFFF"});
  CHECK_THAT(q.out, Contains("\"positionValue\":\"lose\",\"remoteness\":42"));
}

TEST_CASE("cli: a larger piece-count space solves the same on 1 and 2 threads and verifies",
          "[cli][slow]") {
  TempDir dir("slow-large");
  std::string digests[2];
  for (int threads : {1, 2}) {
    const std::string db = dir / ("t" + std::to_string(threads));
    const json j = json::parse(ok({"solve", "toads-frogs", "--length", "16", "--toads", "6",
                                   "--frogs", "6", "--threads", std::to_string(threads), "--db", db,
                                   "--quiet", "--json"})
                                   .out);
    CHECK(j.at("positions") == 2ull * 8008 * 210);
    digests[threads - 1] = j.at("digest");
  }
  CHECK(digests[0] == digests[1]);
  const json v = json::parse(ok({"verify", "--db", dir / "t2", "--quiet", "--json"}).out);
  CHECK(v.at("ok") == true);
  CHECK(v.at("positionsChecked") == 2ull * 8008 * 210);
  CHECK(v.at("digest") == digests[1]);

  // the spec's length-14 start through the command line
  ok({"solve", "toads-frogs", "--start", "TTTTT----FFFFF", "--db", dir / "s14", "--quiet"});
  const json q = json::parse(ok({"query", "--db", dir / "s14", "1_TTTTT----FFFFF"}).out);
  CHECK(q.at("positionValue") == "win");
  CHECK(q.at("remoteness") == 35);
}

namespace {
/// position -> "value remoteness" from an export in tsv (every position of the database).
std::unordered_map<std::string, std::string> exported(const TempDir& dir, const std::string& db) {
  const std::string file = dir / "export.tsv";
  ok({"export", "--db", db, "--format", "tsv", file});
  std::unordered_map<std::string, std::string> out;
  std::istringstream in(read_file(file));
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto tab = line.find('\t');
    REQUIRE(tab != std::string::npos);
    out.emplace(line.substr(0, tab), line.substr(tab + 1));
  }
  return out;
}
}  // namespace

TEST_CASE("cli: a frog on the first cell or a toad on the last pads a board without changing it",
          "[cli][slow]") {
  // A frog on cell 0 can never move (frogs move left) nor be jumped (a toad would land off the
  // strip); a toad on the last cell likewise. So every board X of n - 1 cells has the value and
  // remoteness of F+X and of X+T on n cells, either player to move: checked for every board of
  // 10 cells against two whole-length databases, read back through export only. X against
  // F+X compares two separate solves; X+T lies in a tier's tail, which the solve copies from
  // F+X's records (the same identity, used as a shortcut), so that half checks the copy.
  TempDir dir("slow-pad");
  ok({"solve", "toads-frogs", "--length", "10", "--db", dir / "a", "--quiet"});
  ok({"solve", "toads-frogs", "--length", "11", "--db", dir / "b", "--quiet"});
  const auto a = exported(dir, dir / "a");
  const auto b = exported(dir, dir / "b");
  REQUIRE(a.size() == 2 * 59049u);
  REQUIRE(b.size() == 2 * 177147u);
  uint64_t checked = 0, padded_wins = 0;
  for (const auto& [position, value] : a) {
    const std::string turn = position.substr(0, 2), board = position.substr(2);
    const auto left = b.find(turn + "F" + board), right = b.find(turn + board + "T");
    REQUIRE(left != b.end());
    REQUIRE(right != b.end());
    INFO(position);
    CHECK(left->second == value);
    CHECK(right->second == value);
    ++checked;
    padded_wins += value.starts_with("win");
  }
  CHECK(checked == 2 * 59049u);
  // not a vacuous check: the boards hold wins and losses with remoteness above 0
  CHECK(padded_wins > 10000);
  CHECK(a.at("1_TTT----FFF") == b.at("1_FTTT----FFF"));
}
