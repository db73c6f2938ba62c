// Interruptions and locks, through the real binary: while a solve runs, `info`, `query` and a
// second `solve` name the database as being solved by another process, with its pid, and no
// RocksDB text; Ctrl-C (SIGINT) stops the solve at a tier boundary with exit 130 and says how
// many tiers it kept, which is what the database then holds. The progress bar's line ends.
#include <signal.h>
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "solver/core/progress.hpp"
#include "support.hpp"
#include "tools/progress_report.hpp"

using namespace tbtest;
using Catch::Matchers::Contains;
using json = nlohmann::json;

namespace {

/// A solve started in the background; interrupted (or killed) by the test.
struct Background {
  pid_t pid = -1;
  std::string out, err;
  ~Background() {
    if (pid > 0) {
      ::kill(pid, SIGKILL);
      int st = 0;
      waitpid(pid, &st, 0);
    }
  }
  /// Waits until the solve has printed a progress line (it is solving, the lock is held).
  bool wait_for_progress(const std::string& what, double seconds) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < until) {
      if (read_file(err).find(what) != std::string::npos) return true;
      int st = 0;
      if (waitpid(pid, &st, WNOHANG) == pid) {
        pid = -1;
        return false;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
  }
  int wait() {
    int st = 0;
    waitpid(pid, &st, 0);
    pid = -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  }
};

/// No RocksDB wording in what a person reads.
void no_rocksdb_text(const std::string& s) {
  CHECK_THAT(s, !Contains("While lock file") && !Contains("Resource temporarily unavailable") &&
                    !Contains("IO error") && !Contains("lock hold"));
}

}  // namespace

TEST_CASE("cli interrupt: a database being solved is named as such, and Ctrl-C keeps the committed tiers",
          "[cli][interrupt]") {
  TempDir dir("cli-interrupt");
  const std::string db = dir / "tf18";
  Background solve;
  solve.out = dir / "solve.out";
  solve.err = dir / "solve.err";
  // length 18 on one thread: 775 million positions, tens of seconds of work on any machine
  // (it is stopped after about a second)
  solve.pid = spawn_toadbase({"solve", "toads-frogs", "--length", "18", "--threads", "1", "--db", db}, "", solve.out,
                             solve.err);
  REQUIRE(solve.wait_for_progress("solve toads-frogs: tier", 120));
  const std::string pid = std::to_string(solve.pid);
  const std::string named = "being solved by another process (pid " + pid + ")";

  const RunResult info = ok({"info", "--db", db});
  CHECK_THAT(info.out, Contains(named));
  const json ij = json::parse(ok({"info", "--db", db, "--json"}).out);
  CHECK(ij.at("complete") == false);
  CHECK(ij.at("beingSolvedBy") == solve.pid);

  const RunResult q = run_toadbase({"query", "--db", db, "1_TT--FF"});
  CHECK(q.rc == 1);
  CHECK_THAT(q.err, Contains(named));
  CHECK_THAT(q.err, !Contains("run the same solve"));
  no_rocksdb_text(q.err);

  const RunResult again = run_toadbase({"solve", "toads-frogs", "--length", "18", "--db", db, "--quiet"});
  CHECK(again.rc == 1);
  CHECK_THAT(again.err, Contains(named));
  no_rocksdb_text(again.err);

  // Ctrl-C: the solve stops at the next tier boundary and says what it kept
  REQUIRE(::kill(solve.pid, SIGINT) == 0);
  const int rc = solve.wait();
  const std::string err = read_file(solve.err);
  INFO(err);
  CHECK(rc == 130);
  std::smatch m;
  const std::regex kept("interrupted: ([0-9]+) of ([0-9]+) tiers committed to .*; run the same command again to resume");
  REQUIRE(std::regex_search(err, m, kept));
  const uint64_t committed = std::stoull(m[1]), tiers = std::stoull(m[2]);
  CHECK(committed > 0);
  CHECK(committed < tiers);
  // the database holds exactly what the message said, and nobody is solving it now
  const json after = json::parse(ok({"info", "--db", db, "--json"}).out);
  CHECK(after.at("committedTiers") == committed);
  CHECK(after.at("tierCount") == tiers);
  CHECK(after.at("beingSolvedBy").is_null());
  // --tiers lists the tiers committed so far, named, as a complete database's list
  const json listed = json::parse(ok({"info", "--db", db, "--json", "--tiers"}).out);
  REQUIRE(listed.at("tiers").size() == committed);
  std::set<std::string> names;
  for (const auto& t : listed.at("tiers")) {
    names.insert(t.at("name").get<std::string>());
    CHECK(t.at("positions").get<uint64_t>() > 0);
    CHECK(t.at("digest").get<std::string>().size() == 16);
    CHECK(t.at("stored").is_boolean());
  }
  CHECK(names.size() == committed);
  CHECK_THAT(ok({"info", "--db", db, "--tiers"}).out, Contains("  " + *names.begin() + " "));
  const RunResult q2 = run_toadbase({"query", "--db", db, "1_TT--FF"});
  CHECK(q2.rc == 1);
  CHECK_THAT(q2.err, Contains("incomplete") && Contains("run the same solve command again to resume"));
}

TEST_CASE("progress: an interrupted pass ends the bar's line", "[cli][interrupt]") {
  std::ostringstream out;
  toadbase::tools::ProgressReport bar(&out, true, "solve", 100, 4);
  std::this_thread::sleep_for(std::chrono::milliseconds(150));  // the bar redraws at most every 0.1 s
  bar.tier_done("t0", 25, false);
  bar.interrupted();
  const std::string s = out.str();
  REQUIRE(!s.empty());
  CHECK(s.back() == '\n');
  CHECK(s.find('\r') != std::string::npos);  // it was a bar
  std::ostringstream plain;
  toadbase::tools::ProgressReport lines(&plain, false, "solve", 100, 4);
  lines.interrupted();
  CHECK(plain.str().empty());  // plain lines end themselves
}

TEST_CASE("cli interrupt: SIGTERM or Ctrl-C during an export leaves no partial file", "[cli][interrupt]") {
  TempDir dir("interrupt-export");
  const std::string db = dir / "tf14";
  ok({"solve", "toads-frogs", "--length", "14", "--db", db, "--quiet"});
  for (const int sig : {SIGTERM, SIGINT}) {
    INFO("signal " << sig);
    const std::string out = dir / "out.tsv", partial = out + ".partial";
    // every position as text: hundreds of megabytes, seconds of writing
    Background b;
    b.out = dir / "export.out", b.err = dir / "export.err";
    b.pid = spawn_toadbase({"export", "--db", db, "--format", "tsv", out}, "", b.out, b.err);
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    std::error_code ec;
    while (std::chrono::steady_clock::now() < until && std::filesystem::file_size(partial, ec) < (1u << 20))
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    REQUIRE(std::filesystem::file_size(partial, ec) >= (1u << 20));  // caught while it writes
    ::kill(b.pid, sig);
    CHECK(b.wait() == 128 + sig);  // ended by the signal, as the shell reports it
    CHECK_FALSE(std::filesystem::exists(partial));
    CHECK_FALSE(std::filesystem::exists(out));
  }
}
