// The distributed solve under mpirun (label `mpi`): the same `toadbase solve` on 1, 2 and 3
// ranks gives the digest of one process; a killed rank, an aborted rank, a cancelled job are
// resumed by running the command again, on any number of ranks; launches that cannot work are
// refused. Skipped, saying so, where mpirun is absent.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <thread>

#include "support.hpp"

using namespace tbtest;
using Catch::Matchers::Contains;
using json = nlohmann::json;

namespace {

/// mpirun from the build's MPI, else from PATH; empty when absent.
std::string mpirun() {
  const std::string built = TOADBASE_MPIEXEC;
  if (!built.empty() && ::access(built.c_str(), X_OK) == 0) return built;
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "";
  for (size_t at = 0; at <= dirs.size();) {
    const size_t end = std::min(dirs.find(':', at), dirs.size());
    const std::string candidate = dirs.substr(at, end - at) + "/mpirun";
    if (end > at && ::access(candidate.c_str(), X_OK) == 0) return candidate;
    at = end + 1;
  }
  return "";
}

/// True (and says so) when the MPI tests cannot run here.
bool skip_without_mpi() {
  if (!TOADBASE_HAVE_MPI) {
    std::cout << "SKIPPED: this toadbase was built without MPI (install libopenmpi-dev and build "
                 "again)\n";
    return true;
  }
  if (mpirun().empty()) {
    std::cout << "SKIPPED: mpirun is absent (install openmpi-bin and libopenmpi-dev to run the MPI "
                 "tests)\n";
    return true;
  }
  return false;
}

/// What mpirun needs here: run as root (CI runs as root), the fast point-to-point layer,
/// no leak checks of MPI's own allocations under AddressSanitizer.
const std::vector<std::string> kMpiEnv = {"OMPI_ALLOW_RUN_AS_ROOT=1",
                                          "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1",
                                          "OMPI_MCA_pml=ob1",
                                          "OMPI_MCA_btl=self,vader",
                                          "OMPI_MCA_rmaps_base_oversubscribe=1",
                                          "ASAN_OPTIONS=detect_leaks=0"};

std::vector<std::string> mpi_args(int ranks, const std::string& program,
                                  const std::vector<std::string>& args) {
  std::vector<std::string> a = {
      "-np", std::to_string(ranks), "--oversubscribe", "--bind-to", "none", program};
  a.insert(a.end(), args.begin(), args.end());
  return a;
}

/// `toadbase ARGS` on `ranks` ranks, to completion.
RunResult on_ranks(int ranks, const std::vector<std::string>& args) {
  return run_program(mpirun(), mpi_args(ranks, toadbase_bin(), args), kMpiEnv);
}

json solved(int ranks, const std::vector<std::string>& args) {
  const RunResult r = on_ranks(ranks, args);
  INFO("mpirun -np " << ranks << ": exit " << r.rc << "\nstdout: " << r.out
                     << "\nstderr: " << r.err);
  REQUIRE(r.rc == 0);
  return json::parse(r.out);
}

json info_of(const std::string& db) {
  return json::parse(ok({"info", "--db", db, "--json"}).out);
}

uint64_t committed(const std::string& db) {
  const RunResult r = run_toadbase({"info", "--db", db, "--json"});
  if (r.rc != 0) return 0;
  try {
    return json::parse(r.out).at("committedTiers");
  } catch (const std::exception&) {
    return 0;
  }
}

pid_t read_pid(const std::string& path) {
  const std::string text = read_file(path);
  return text.empty() ? 0 : static_cast<pid_t>(std::atol(text.c_str()));
}

/// Starts the slowed-down distributed solve (mpi_fault_solve.cpp) on `ranks` ranks.
pid_t start_slow(const TempDir& dir, const std::string& db, int ranks,
                 const std::vector<std::string>& more = {}) {
  std::vector<std::string> args = {"toads-frogs", R"({"length": 12})", db, "2", dir.path()};
  args.insert(args.end(), more.begin(), more.end());
  return spawn_program(mpirun(), mpi_args(ranks, test_path("mpi_fault_solve"), args), "", dir / "job.out",
                       dir / "job.err", kMpiEnv);
}

/// Waits until the job has committed some tiers (and every rank wrote its pid).
void wait_for_progress(const TempDir& dir, pid_t job, const std::string& db, int ranks) {
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    int status = 0;
    if (waitpid(job, &status, WNOHANG) == job)
      FAIL("the slowed-down job ended by itself: status " << status << "\n"
                                                          << read_file(dir / "job.err"));
    bool pids = true;
    for (int r = 0; r < ranks; ++r)
      pids = pids && read_pid(dir / ("rank-" + std::to_string(r) + ".pid")) > 0;
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if ((pids && committed(db) > 200) || secs > 60) break;
  }
}

/// Waits for the job to end; returns its exit status.
int wait_job(pid_t job) {
  int status = 0;
  REQUIRE(waitpid(job, &status, 0) == job);
  return status;
}

}  // namespace

TEST_CASE("mpi: 1, 2 and 3 ranks give the digest of one process, and the database verifies",
          "[mpi]") {
  if (skip_without_mpi()) return;
  TempDir dir("mpi-same");
  for (const std::vector<std::string>& space :
       {std::vector<std::string>{"--length", "11"},
        std::vector<std::string>{"--length", "12", "--toads", "4", "--frogs", "5"}}) {
    std::vector<std::string> args = {"solve", "toads-frogs"};
    args.insert(args.end(), space.begin(), space.end());
    auto with = [&](const std::string& db, std::vector<std::string> extra) {
      std::vector<std::string> a = args;
      a.insert(a.end(), {"--db", db, "--quiet", "--json"});
      a.insert(a.end(), extra.begin(), extra.end());
      return a;
    };
    const json one = json::parse(ok(with(dir / "one", {})).out);
    for (int ranks : {1, 2, 3})
      for (const char* threads : {"1", "2"}) {
        INFO(ranks << " ranks of " << threads << " threads");
        const std::string db = dir / ("r" + std::to_string(ranks) + "t" + threads);
        const json j = solved(ranks, with(db, {"--threads", threads}));
        CHECK(j.at("digest") == one.at("digest"));
        CHECK(j.at("ranks") == ranks);
        CHECK(j.at("positionsSolved") == one.at("positions"));
        uint64_t computed = 0;
        for (const auto& r : j.at("perRank")) computed += r.at("positionsComputed").get<uint64_t>();
        CHECK(computed == one.at("positions").get<uint64_t>());
        // every piece count of the board is a component of its own: each rank gets some and
        // reports them to rank 0 (one piece count is one chain of tiers: it stays on one rank)
        if (space.size() == 2)
          for (int r = 1; r < ranks; ++r) {
            CHECK(j.at("perRank").at(r).at("positionsComputed").get<uint64_t>() > 0);
            CHECK(j.at("perRank").at(r).at("bytesSent").get<uint64_t>() > 0);
          }
        const json v = json::parse(ok({"verify", "--db", db, "--quiet", "--json"}).out);
        CHECK(v.at("ok") == true);
        CHECK(v.at("digest") == one.at("digest"));
        std::filesystem::remove_all(db);
      }
    std::filesystem::remove_all(dir / "one");
  }
}

TEST_CASE(
    "mpi: tiers cut in pieces across 2 and 3 ranks (--piece-positions): records cross, one digest",
    "[mpi]") {
  if (skip_without_mpi()) return;
  TempDir dir("mpi-pieces");
  // one piece count: one chain of tiers, which the plan's rule keeps on one rank
  const std::vector<std::string> args = {"solve",   "toads-frogs", "--length", "12",
                                         "--toads", "4",           "--frogs",  "5",
                                         "--quiet", "--json",      "--db"};
  auto a = args;
  a.push_back(dir / "one");
  const json one = json::parse(ok(a).out);
  for (int ranks : {2, 3}) {
    INFO(ranks << " ranks");
    a = args;
    a.push_back(dir / ("r" + std::to_string(ranks)));
    a.insert(a.end(), {"--piece-positions", "200", "--threads", "1"});
    const json j = solved(ranks, a);
    CHECK(j.at("digest") == one.at("digest"));
    uint64_t computed = 0, between = 0;
    for (const auto& r : j.at("perRank")) {
      computed += r.at("positionsComputed").get<uint64_t>();
      CHECK(r.at("positionsComputed").get<uint64_t>() > 0);  // every rank solved pieces
      CHECK(r.at("pieces").get<uint64_t>() > 0);
      if (r.at("rank") != 0) between += r.at("rawBytesReceived").get<uint64_t>();
    }
    CHECK(computed == one.at("positions").get<uint64_t>());
    CHECK(between > 0);  // records went from rank to rank, not only reports to rank 0
    const json v = json::parse(
        ok({"verify", "--db", dir / ("r" + std::to_string(ranks)), "--quiet", "--json"}).out);
    CHECK(v.at("ok") == true);
  }
}

TEST_CASE("mpi: wide records across ranks", "[mpi][wide]") {
  if (skip_without_mpi()) return;
  TempDir dir("mpi-wide");
  const std::vector<std::string> args = {"solve",   "toads-frogs", "--length",
                                         "9",       "--record",    "remoteness-u16-parity",
                                         "--quiet", "--json",      "--db"};
  auto a = args;
  a.push_back(dir / "one");
  const json one = json::parse(ok(a).out);
  a.back() = dir / "three";
  const json three = solved(3, a);
  CHECK(three.at("digest") == one.at("digest"));
  CHECK(three.at("record") == "remoteness-u16-parity");
  CHECK(ok({"query", "--db", dir / "three", "1_TTT---FFF"}).out ==
        ok({"query", "--db", dir / "one", "1_TTT---FFF"}).out);
}

TEST_CASE("mpi: a launch that cannot work is refused, never two writers on one database", "[mpi]") {
  if (skip_without_mpi()) return;
  TempDir dir("mpi-refused");
  SECTION("srun without MPI support: several one-rank solves") {
    const RunResult r = run_toadbase({"solve", "toads-frogs", "--length", "6", "--db", dir / "db"},
                                     "", {"SLURM_PROCID=1", "SLURM_STEP_NUM_TASKS=4"});
    CHECK(r.rc == 1);
    CHECK_THAT(r.err,
               Contains("srun started 4 tasks without MPI support") && Contains("--mpi=pmix"));
    CHECK_FALSE(std::filesystem::exists(dir / "db"));
  }
  SECTION("another MPI library's launcher: processes MPI does not join") {
    // MPICH's mpiexec (or srun --mpi=pmi2) declares 2 processes in PMI_SIZE; this Open MPI
    // build starts each as a job of one rank
    std::vector<std::string> env = kMpiEnv;
    env.insert(env.end(), {"PMI_RANK=1", "PMI_SIZE=2"});
    const RunResult r =
        run_toadbase({"solve", "toads-frogs", "--length", "6", "--db", dir / "db"}, "", env);
    INFO(r.err);
    CHECK(r.rc == 1);
    CHECK_THAT(r.err, Contains("mpiexec started 2 processes but MPI joined them into 1 rank"));
    CHECK_FALSE(std::filesystem::exists(dir / "db"));
  }
  SECTION("a second solve on a database another is writing") {
    const std::string db = dir / "db";
    const pid_t job = start_slow(dir, db, 1);
    wait_for_progress(dir, job, db, 1);
    for (int ranks : {0, 2}) {
      const std::vector<std::string> args = {"solve", "toads-frogs", "--length", "12", "--db",
                                             db,      "--quiet"};
      const RunResult r = ranks ? on_ranks(ranks, args) : run_toadbase(args);
      INFO(r.err);
      CHECK(r.rc != 0);
      CHECK_THAT(r.err, Contains("is being solved by another process"));
    }
    kill(job, SIGTERM);
    wait_job(job);
  }
  SECTION("ranks started with different spaces") {
    // one MPI job of two programs (mpirun's ':'), each rank another length
    const std::vector<std::string> program = {"-np", "1", "--oversubscribe", toadbase_bin(), "solve", "toads-frogs"};
    std::vector<std::string> args = program;
    args.insert(args.end(), {"--length", "6", "--db", dir / "db", ":"});
    args.insert(args.end(), program.begin(), program.end());
    args.insert(args.end(), {"--length", "7", "--db", dir / "db"});
    const RunResult r = run_program(mpirun(), args, kMpiEnv);
    CHECK(r.rc != 0);
    CHECK_THAT(r.err, Contains("rank 1 was started with another space"));
    CHECK_FALSE(std::filesystem::exists(dir / "db/CURRENT"));
  }
  SECTION("a memory budget no schedule keeps: every rank refuses, nothing written; one under the natural peak is kept") {
    const json plan = json::parse(ok({"solve", "toads-frogs", "--length", "12", "--db", dir / "db", "--plan", "2",
                                      "--json"})
                                      .out);
    const uint64_t need = plan.at("peakBytesPerRank").get<uint64_t>();
    const uint64_t least = plan.at("smallestBudget").get<uint64_t>();
    REQUIRE(least < need);
    const RunResult r = on_ranks(2, {"solve", "toads-frogs", "--length", "12", "--db", dir / "db", "--memory",
                                     std::to_string(least - 1)});
    INFO(r.err);
    CHECK(r.rc == 2);
    CHECK_THAT(r.err, Contains("more than --memory " + std::to_string(least - 1)));
    CHECK_THAT(r.err, Contains("the smallest budget that works is --memory"));
    CHECK_FALSE(std::filesystem::exists(dir / "db"));
    // the same job under the natural peak: components move later, every rank within it
    const std::string one = json::parse(ok({"solve", "toads-frogs", "--length", "12", "--db", dir / "one", "--quiet",
                                            "--json"})
                                            .out)
                                .at("digest");
    for (uint64_t budget : {least, need - 1}) {
      std::filesystem::remove_all(dir / "db");
      const json done = solved(2, {"solve", "toads-frogs", "--length", "12", "--db", dir / "db", "--memory",
                                   std::to_string(budget), "--quiet", "--json"});
      CHECK(done.at("digest") == one);
      for (const json& rank : done.at("perRank")) CHECK(rank.at("peakTierBytesInFlight").get<uint64_t>() <= budget);
    }
  }
}

TEST_CASE(
    "mpi: a killed rank, an aborted rank, a cancelled job: the same command resumes to the same "
    "digest",
    "[mpi][slow]") {
  if (skip_without_mpi()) return;
  TempDir dir("mpi-faults");
  const json reference = json::parse(
      ok({"solve", "toads-frogs", "--length", "12", "--db", dir / "ref", "--quiet", "--json"}).out);
  const std::vector<std::string> again = {"solve",   "toads-frogs", "--length", "12",
                                          "--quiet", "--json",      "--db"};
  int round = 0;
  // (how the job ends, ranks of the broken job, ranks of the rerun; 0: no mpirun)
  for (const auto& [how, ranks, rerun] :
       std::vector<std::tuple<std::string, int, int>>{{"kill -9 rank 1", 2, 3},
                                                      {"kill -9 rank 0", 3, 0},
                                                      {"rank 1 aborts", 2, 2},
                                                      {"job cancelled", 3, 1}}) {
    DYNAMIC_SECTION(how << " of " << ranks << " ranks, rerun on " << rerun) {
      const std::string db = dir / ("db" + std::to_string(round++));
      std::filesystem::remove(dir / "rank-0.pid"), std::filesystem::remove(dir / "rank-1.pid");
      std::filesystem::remove(dir / "rank-2.pid");
      const pid_t job = how == "rank 1 aborts" ? start_slow(dir, db, ranks, {"1", "400"})
                                               : start_slow(dir, db, ranks);
      int status = 0;
      if (how == "rank 1 aborts") {
        status = wait_job(job);
      } else {
        wait_for_progress(dir, job, db, ranks);
        if (how == "job cancelled") {
          REQUIRE(kill(job, SIGTERM) == 0);
        } else {
          const pid_t victim =
              read_pid(dir / (how == "kill -9 rank 1" ? "rank-1.pid" : "rank-0.pid"));
          REQUIRE(victim > 0);
          REQUIRE(kill(victim, SIGKILL) == 0);
        }
        status = wait_job(job);
      }
      INFO(read_file(dir / "job.err"));
      CHECK(!(WIFEXITED(status) && WEXITSTATUS(status) == 0));  // the job did not finish
      const json info = info_of(db);
      CHECK(info.at("complete") == false);
      // the same command, on another number of ranks
      auto args = again;
      args.push_back(db);
      const json done = rerun ? solved(rerun, args) : json::parse(ok(args).out);
      CHECK(done.at("digest") == reference.at("digest"));
      CHECK(done.at("tiersSkipped").get<uint64_t>() + done.at("tiersSolved").get<uint64_t>() ==
            reference.at("tiers").get<uint64_t>());
      CHECK(done.at("tiersSkipped").get<uint64_t>() > 0);
      CHECK_THAT(ok({"verify", "--db", db, "--quiet"}).out, Contains("OK"));
    }
  }
}
