// Ctrl-C and resume through the real binary (label `slow`): a solve stopped by SIGINT keeps
// the tiers it committed, and the same command run again finishes it with the digest of a
// solve that was never interrupted.
#include <signal.h>
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <nlohmann/json.hpp>
#include <regex>
#include <thread>

#include "support.hpp"

using namespace tbtest;
using Catch::Matchers::Contains;
using json = nlohmann::json;

TEST_CASE("cli: a solve stopped by Ctrl-C resumes to the digest of an uninterrupted one", "[cli][interrupt][slow]") {
  TempDir dir("cli-resume");
  const json reference =
      json::parse(ok({"solve", "toads-frogs", "--length", "17", "--db", dir / "ref", "--quiet", "--json"}).out);
  // one thread: the same digest, and time enough to be interrupted part way (258 million
  // positions: seconds even on a fast machine, and the progress line comes after one)
  const std::string db = dir / "db", err = dir / "err";
  const pid_t pid = spawn_toadbase({"solve", "toads-frogs", "--length", "17", "--db", db, "--threads", "1"}, "",
                                   dir / "out", err);
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (read_file(err).find("solve toads-frogs: tier") == std::string::npos && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  REQUIRE(::kill(pid, SIGINT) == 0);
  int st = 0;
  waitpid(pid, &st, 0);
  INFO(read_file(err));
  REQUIRE(WIFEXITED(st));
  REQUIRE(WEXITSTATUS(st) == 130);
  std::smatch m;
  const std::string text = read_file(err);
  REQUIRE(std::regex_search(text, m, std::regex("interrupted: ([0-9]+) of ([0-9]+) tiers committed")));
  const uint64_t kept = std::stoull(m[1]);
  // the same command again: resumes after the kept tiers, ends with the reference digest
  const json done = json::parse(ok({"solve", "toads-frogs", "--length", "17", "--db", db, "--quiet", "--json"}).out);
  // every committed tier is passed over but a derived one over a derived child, solved again
  CHECK(done.at("tiersSkipped").get<uint64_t>() <= kept);
  CHECK(done.at("tiersSkipped").get<uint64_t>() > 0);
  CHECK(done.at("tiersSolved").get<uint64_t>() + done.at("tiersSkipped").get<uint64_t>() ==
        reference.at("tiers").get<uint64_t>());
  CHECK(done.at("digest") == reference.at("digest"));
  // a resume holds no more tiers than a solve from scratch (it once rebuilt whole chains of
  // derived tiers at once: ten times the memory, and a 23-cell resume ran out of it)
  INFO("peak tier bytes: resumed " << done.at("peakTierBytesInFlight") << ", fresh "
                                   << reference.at("peakTierBytesInFlight"));
  CHECK(done.at("peakTierBytesInFlight").get<double>() <=
        1.5 * reference.at("peakTierBytesInFlight").get<double>());
  CHECK_THAT(ok({"verify", "--db", db, "--quiet"}).out, Contains("OK"));
}
