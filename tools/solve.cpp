// toadbase solve GAME --param ... --db DIR: every position of a game's space into a database.
//
// Started by an MPI launcher (mpirun, srun --mpi=pmix) the same command solves across the
// job's ranks (tools/mpi.hpp, the engine's distribute.hpp): rank 0 opens and writes the
// database and prints, every rank solves its share. `--plan K` prints the plan for K ranks
// and solves nothing.
#include "tools/solve.hpp"

#include <sys/resource.h>
#include <tbb/task_arena.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <optional>
#include <sstream>

#include "db/database.hpp"
#include "db/errors.hpp"
#include "db/group_writer.hpp"
#include "solver/core/hash.hpp"
#include "solver/core/printable.hpp"
#include "solver/core/threads.hpp"
#include "tools/cli.hpp"
#include "tools/mpi.hpp"
#include "tools/registry.hpp"

namespace toadbase::tools {

namespace {

using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

/// Exit code of a solve stopped by Ctrl-C (128 + SIGINT, as shells report it).
constexpr int kExitInterrupted = 130;

struct SolveOptions {
  Common c;
  int zstd_level = 3;
  bool repair = false;
  std::string record;
  int plan = 0;             // --plan K
  double plan_rate = 60e6;  // --plan-rate: positions a second one thread solves
  uint64_t piece_positions =
      0;  // --piece-positions N: spread every tier over the ranks (0: the plan's rule)
  std::string memory;       // --memory SIZE or N%
  bool memory_given = false;  // --memory was given (not given: the default share of the free memory)
  bool hold_compressed = false;  // --hold-compressed
  std::map<std::string, std::string> strings;
  std::map<std::string, int> ints;
};

/// `--repair`: tiers whose blocks no longer read back whole are dropped, to be solved again;
/// damaged commit records and a damaged manifest were dropped or rebuilt by the open.
void repair(db::Database& d, const std::vector<TierInfo>& tiers, bool quiet) {
  std::vector<std::string> lines;
  for (const auto& [t, why] : d.repaired_tiers()) lines.push_back("tier " + tiers[t].name + ": " + why);
  for (const auto& [t, why] : d.damaged_tiers()) {
    d.forget_tier(t);
    lines.push_back("tier " + tiers[t].name + ": " + why);
  }
  if (d.complete()) {
    try {
      (void)d.manifest();
    } catch (const db::DbError& e) {
      lines.push_back(std::string(e.what()) + ": written again");
      d.finish(tiers);
    }
  }
  if (quiet) return;
  if (lines.empty()) std::cerr << "repair: nothing damaged in " << d.path() << "\n";
  for (const auto& l : lines)
    std::cerr << "repair: " << l << (l.ends_with("again") ? "" : " (solved again)") << "\n";
}

/// The positions of a space: its tiers' records, but a table of values the solve meets (a
/// tier sized by the solve) holds none.
uint64_t positions_of(const std::vector<TierInfo>& tiers) {
  uint64_t n = 0;
  for (const auto& t : tiers)
    if (!t.sized_by_solve()) n += t.positions;
  return n;
}

/// The CPU time of this process and of each of its threads, now: two of them tell where a
/// solve's CPU went (cpu_report). Linux's /proc/self/task; without it, no threads.
struct CpuSnapshot {
  struct Thread {
    std::string name;
    std::string started;  // clock ticks after boot: a thread id used again is another thread
    double seconds = 0;
  };
  double process = 0;  // user + system of every thread, ended ones too (getrusage)
  std::map<long, Thread> threads;  // by thread id

  static CpuSnapshot take() {
    CpuSnapshot s;
    rusage u{};
    if (::getrusage(RUSAGE_SELF, &u) == 0)
      s.process = static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
                  static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
    const long ticks = ::sysconf(_SC_CLK_TCK);
    if (ticks <= 0) return s;  // no unit for the threads' times: none read
    std::error_code ec;
    for (std::filesystem::directory_iterator it("/proc/self/task", ec), end; !ec && it != end; it.increment(ec)) {
      // "tid (name) state ..." (the name may hold spaces and parentheses: up to the last ')');
      // utime, stime and the start time the 12th, 13th and 20th fields after it, in clock ticks
      std::ifstream in(it->path() / "stat");
      const std::string line((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      const size_t open = line.find('('), close = line.rfind(')');
      if (open == std::string::npos || close == std::string::npos || close < open) continue;
      std::istringstream rest(line.substr(close + 1));
      std::string field, started;
      double utime = -1, stime = -1;
      for (int k = 1; k <= 20 && rest >> field; ++k) {
        if (k == 12) utime = std::strtod(field.c_str(), nullptr);
        if (k == 13) stime = std::strtod(field.c_str(), nullptr);
        if (k == 20) started = field;
      }
      if (utime < 0 || stime < 0 || started.empty()) continue;
      s.threads[std::atol(line.c_str())] = {line.substr(open + 1, close - open - 1), started,
                                            (utime + stime) / static_cast<double>(ticks)};
    }
    return s;
  }
};

/// `cpuSeconds` of a solve's report: this process's CPU from `before` to `after` (rank 0's in
/// a distributed solve), and how it splits: the database's group writer (the thread
/// db/group_writer.hpp names; the last group, which the solve's own thread writes as it
/// finishes, is not its), RocksDB's own threads (its flushes and compactions: it names them
/// rocksdb:...), and the rest, the solve's threads (the command's, TBB's workers, and any that
/// ended). Null where the threads cannot be read.
json cpu_report(const CpuSnapshot& before, const CpuSnapshot& after) {
  if (after.threads.empty()) return json();
  double writer = 0, rocks = 0;
  for (const auto& [tid, now] : after.threads) {
    const auto was = before.threads.find(tid);
    const bool same = was != before.threads.end() && was->second.name == now.name && was->second.started == now.started;
    const double used = std::max(0.0, now.seconds - (same ? was->second.seconds : 0));
    if (now.name == db::kWriterThreadName) writer += used;
    if (now.name.starts_with("rocksdb:")) rocks += used;
  }
  const double total = std::max(0.0, after.process - before.process);
  return {{"total", total},
          {"solveThreads", std::max(0.0, total - writer - rocks)},
          {"groupWriter", writer},
          {"rocksdbThreads", rocks}};
}

/// What `solve --json` prints (rank 0 of a distributed one adds `ranks` and `perRank`).
nlohmann::ordered_json solve_report(const Game& game, const json& params,
                                    const std::string& db_path, db::Database& d,
                                    const std::vector<TierInfo>& tiers, bool was_complete,
                                    const SolveStats& stats, double secs, const json& per_rank,
                                    const json& cpu) {
  const uint64_t positions = positions_of(tiers);
  const json& m = d.summary();
  const uint64_t stored = m.value("stored_bytes", uint64_t{0});
  nlohmann::ordered_json out = {
      {"db", db_path},
      {"game", game.name()},
      {"parameters", camel_keys(params)},
      {"record", m.value("record", "")},
      {"positions", positions},
      {"tiers", tiers.size()},
      {"tiersSolved", stats.tiers_solved},
      {"tiersSkipped", was_complete ? tiers.size() : stats.tiers_skipped},
      {"positionsSolved", stats.positions_solved},
      {"seconds", secs},
      {"positionsPerSecond", secs > 0 ? static_cast<double>(stats.positions_solved) / secs : 0},
      {"storedBytes", stored},
      {"bitsPerPosition",
       positions ? 8.0 * static_cast<double>(stored) / static_cast<double>(positions) : 0},
      {"diskBytes", d.disk_bytes()},
      {"peakTierBytesInFlight", stats.peak_bytes_in_flight},
      {"digest", m.value("digest", "")}};
  if (!cpu.is_null()) out["cpuSeconds"] = cpu;
  if (stats.packed)  // only when the budget made the solve hold its finished tiers packed
    out["heldPacked"] = {{"rawBytes", stats.bytes_packed_raw},
                         {"packedBytes", stats.bytes_packed},
                         {"plannedPermille", stats.packed_permille},
                         {"span", stats.packed_span},
                         {"blocksUnpacked", stats.blocks_unpacked},
                         {"blocksFromCommits", stats.blocks_from_commits}};
  if (!per_rank.is_null()) {
    out["ranks"] = per_rank.size();
    out["perRank"] = camel_keys(per_rank);
  }
  return out;
}

/// Prints a finished solve's report: as it is under --json, else in words.
void print_report(const nlohmann::ordered_json& out, const Common& c, bool was_complete) {
  if (c.json_out) {
    std::cout << dump(out) << "\n";
    return;
  }
  if (was_complete) std::cout << c.db << " is already complete; nothing to do\n";
  std::cout << out["game"].get<std::string>() << " " << dump(out["parameters"]) << ": "
            << out["positions"] << " positions in " << out["tiers"] << " tiers -> " << c.db << "\n";
  const double secs = out["seconds"].get<double>();
  const uint64_t solved = out["positionsSolved"].get<uint64_t>();
  if (!was_complete) {
    std::cout << "solved " << solved << " positions";
    if (out["tiersSkipped"].get<uint64_t>())
      std::cout << " (resumed after " << out["tiersSkipped"] << " committed tiers)";
    if (out.contains("ranks")) std::cout << " on " << out["ranks"] << " ranks";
    std::printf(" in %.3f s (%.1f M positions/s)\n", secs,
                secs > 0 ? static_cast<double>(solved) / secs / 1e6 : 0.0);
  }
  if (out.contains("heldPacked")) {
    const auto& h = out["heldPacked"];
    const double raw = h["rawBytes"].get<double>(), packed = h["packedBytes"].get<double>();
    const unsigned span = h["span"].get<unsigned>();
    std::printf("finished tiers held compressed%s: %s in %s (%.0f %%; the plan assumed %u %%)\n",
                span > 1 ? (" (those last read " + std::to_string(span) + " or more levels on)").c_str() : "",
                human_bytes(raw).c_str(), human_bytes(packed).c_str(), raw > 0 ? 100 * packed / raw : 0.0,
                h["plannedPermille"].get<unsigned>() / 10);
  }
  std::printf("stored %s (%.3f bits/position), digest %s\n",
              human_bytes(static_cast<double>(out["storedBytes"].get<uint64_t>())).c_str(),
              out["bitsPerPosition"].get<double>(), out["digest"].get<std::string>().c_str());
  if (out.contains("perRank") && !was_complete)
    for (const auto& r : out["perRank"])
      std::printf("  rank %d: %.3f G positions, sent %s, received %s, waited %.2f s\n",
                  r["rank"].get<int>(), r["positionsComputed"].get<double>() / 1e9,
                  human_bytes(r["bytesSent"].get<double>()).c_str(),
                  human_bytes(r["bytesReceived"].get<double>()).c_str(),
                  r["secondsWaiting"].get<double>());
}

/// The share of its bytes a finished tier held compressed takes, as the plan reckons it when
/// only holding tiers compressed keeps the budget (solver/core/schedule.hpp; one process):
/// 45 %, where the database's codec (zstd level 1, blocks of 64 KiB) held Toads and Frogs'
/// finished tiers in 38 % of their bytes at 16, 18 and 22 cells (the blocks taken from a
/// tier's commit, at the database's level, 3 unless chosen, take less). The solve reports the
/// share it met (`heldPacked`).
constexpr uint32_t kPackedPermille = 450;

/// One process: the solve `toadbase solve` and Python's solve() run.
Solved solve_here(const Game& game, const Instance& inst, const json& params,
                  const SolveRequest& request) {
  // the solve's one time figure: end to end, from opening the database to its last write
  const auto t0 = Clock::now();
  const CpuSnapshot cpu0 = CpuSnapshot::take();
  const auto tiers = inst.tiers();
  auto d = db::Database::open_for_solve(request.db, inst.identity(), tiers, request.zstd_level,
                                        request.repair);
  if (request.repair) repair(*d, tiers, request.quiet);
  const uint64_t positions = positions_of(tiers);
  auto progress = make_progress("solve " + game.name(), positions, tiers.size(), request.quiet, false);
  const bool was_complete = d->complete();
  SolveStats stats;
  if (!was_complete) {
    try {
      CostModel model;
      model.memory_budget = request.memory_budget;
      model.packed_permille = kPackedPermille;
      model.always_pack = request.hold_compressed;
      stats = with_threads(request.threads, [&] { return inst.solve(*d, progress.get(), model); });
    } catch (const Interrupted&) {
      progress->interrupted();
      d->flush();
      throw SolveInterrupted(d->committed_tiers(), tiers.size());
    }
    progress->finish();
    d->finish(tiers);
  }
  const double secs = std::chrono::duration<double>(Clock::now() - t0).count();
  return {solve_report(game, params, request.db, *d, tiers, was_complete, stats, secs, json(),
                       cpu_report(cpu0, CpuSnapshot::take())),
          was_complete};
}

/// The plan's model of the work: the project's costs, and with --piece-positions every
/// component of the tier DAG spread over all ranks, its tiers cut in pieces of that size.
/// The threads a solve in one process runs (`--threads`, else every core): a packed solve's
/// overhead is reckoned for them before they start.
int solve_threads(const SolveOptions& o) {
  return o.c.threads > 0 ? o.c.threads : tbb::this_task_arena::max_concurrency();
}

CostModel cost_model(const SolveOptions& o) {
  CostModel model;
  model.packed_permille = kPackedPermille;
  model.always_pack = o.hold_compressed;
  if (o.piece_positions) {
    model.piece_positions = o.piece_positions;
    model.whole_components = false;
  }
  return model;
}

// ---- the memory budget (--memory) --------------------------------------------------------
//
// A solve holds the records of the tiers later levels read, level by level; the plan
// (distribute.hpp) reckons that peak before anything is solved (it is the figure a solve in
// one process reports as peakTierBytesInFlight). --memory bounds it: when the natural
// levels pass the budget, whole components of the tier DAG move to later levels so fewer
// run side by side (solver/core/schedule.hpp); a budget below both the natural peak and the
// largest component's is refused before the database is written, naming the smaller. The rest of the process
// (the database's write buffers and caches, the threads, the allocator's slack) takes a
// fixed share beside it: peak RSS less the records in flight was 0.6 GiB at 22 cells, 1.0
// GiB at 23 and 1.4 GiB at 24 on the natural levels, 0.4 and 0.8 GiB under the smallest
// budgets of 22 and 24 (results/FRONTIER.md), so peak RSS stays within the budget plus
// kFixedOverhead.

/// What a solve holds besides its records.
constexpr uint64_t kFixedOverhead = uint64_t{3} << 29;  // 1.5 GiB
/// The default budget: this share of the memory free now, less kFixedOverhead.
constexpr double kDefaultShare = 0.85;

/// MemAvailable of /proc/meminfo (what a new process may take without swapping), 0 if unknown.
uint64_t memory_available() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  uint64_t kb = 0;
  std::string unit;
  while (in >> key >> kb >> unit)
    if (key == "MemAvailable:") return kb * 1024;
  return 0;
}

struct Budget {
  uint64_t bytes = 0;  // 0: none (no figure of the free memory)
  std::string said;    // how it was given, for messages
};

/// A size as --memory takes it back, rounded up: "33G" style with two decimals.
std::string size_arg(uint64_t bytes) {
  const double gib = static_cast<double>(bytes) / (1 << 30), mib = static_cast<double>(bytes) / (1 << 20);
  char buf[32];
  if (gib >= 1) {
    std::snprintf(buf, sizeof buf, "%.2fG", std::ceil(gib * 100) / 100);
  } else if (mib >= 1) {
    std::snprintf(buf, sizeof buf, "%.0fM", std::ceil(mib));
  } else {
    std::snprintf(buf, sizeof buf, "%.0fK", std::ceil(static_cast<double>(bytes) / 1024));
  }
  return buf;
}

/// --memory's text: bytes with an optional K, M, G or T (powers of 1024; "GB", "GiB" too),
/// or N% of the memory free now; not given: the default. Throws UsageError.
Budget memory_budget(const std::string& text, bool given) {
  const auto share_of_free = [](double share, const std::string& how) {
    const uint64_t free = memory_available();
    if (!free) return Budget{0, how + " (the free memory is not known here: no budget)"};
    const double b = share * static_cast<double>(free) - static_cast<double>(kFixedOverhead);
    // so little free that the share is gone: no budget rather than one that refuses all
    if (b < 1) return Budget{0, how + " (no budget: " + human_bytes(static_cast<double>(free)) + " free)"};
    return Budget{static_cast<uint64_t>(b),
                  how + " of the " + human_bytes(static_cast<double>(free)) + " free, less " +
                      human_bytes(static_cast<double>(kFixedOverhead)) + " for the rest of the process: " +
                      human_bytes(b)};
  };
  if (!given) return share_of_free(kDefaultShare, "the default budget, 85 %");
  if (text.empty()) throw UsageError("--memory: is empty (give a size such as 20G or 80%, or leave --memory out)");
  const auto bad = [&] {
    return UsageError("--memory: '" + printable(text) +
                      "' is not a size (give bytes with K, M, G or T, e.g. 20G, or a share of the free memory, e.g. 80%)");
  };
  // a plain decimal number (no sign, exponent or hex), then the unit
  size_t used = 0, dots = 0;
  while (used < text.size() && (std::isdigit(static_cast<unsigned char>(text[used])) || text[used] == '.'))
    dots += text[used++] == '.';
  if (used == 0 || dots > 1 || !std::isdigit(static_cast<unsigned char>(text[0]))) throw bad();
  double x = 0;
  try {
    x = std::stod(text.substr(0, used));
  } catch (const std::exception&) {
    throw bad();
  }
  if (!(x > 0) || !std::isfinite(x)) throw bad();
  std::string unit = text.substr(used);
  for (char& ch : unit) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  if (unit == "%") {
    if (x > 100) throw UsageError("--memory: " + printable(text) + " is more than all the free memory");
    return share_of_free(x / 100, "--memory " + text);
  }
  static const std::map<std::string, double> kUnits = {
      {"", 1},        {"B", 1},           {"K", 0x1p10},  {"KB", 0x1p10},  {"KIB", 0x1p10},
      {"M", 0x1p20},  {"MB", 0x1p20},     {"MIB", 0x1p20}, {"G", 0x1p30},  {"GB", 0x1p30},
      {"GIB", 0x1p30}, {"T", 0x1p40},     {"TB", 0x1p40}, {"TIB", 0x1p40}};
  const auto u = kUnits.find(unit);
  if (u == kUnits.end()) throw bad();
  const double b = x * u->second;
  if (b < 1) throw bad();
  if (b > 0x1p62) throw UsageError("--memory: " + printable(text) + " is more memory than any machine has");
  return {static_cast<uint64_t>(b), "--memory " + text + " (" + human_bytes(b) + ")"};
}

/// The records a solve of `inst` on `ranks` ranks holds at once on its busiest rank, within
/// the model's budget when a schedule keeps it, and the smallest budget that works; all 0
/// for a game that solves with its own engine (no plan).
BudgetFit planned_peak(const Instance& inst, int ranks, const CostModel& model) {
  try {
    return inst.budget_fit(ranks, model);
  } catch (const std::invalid_argument&) {
    return {};
  }
}

/// The refusal of a solve whose records at once pass the budget, or "" when it fits.
std::string over_budget(const Game& game, const Instance& inst, const SolveOptions& o, const Budget& budget,
                        int ranks) {
  if (!budget.bytes) return "";
  CostModel model = cost_model(o);
  model.memory_budget = budget.bytes;
  model.packing_threads = solve_threads(o);
  const BudgetFit need = planned_peak(inst, ranks, model);
  if (need.peak <= budget.bytes) return "";
  const uint64_t least = need.least();
  return "solve " + game.name() + ": the solve holds " + human_bytes(static_cast<double>(need.peak)) +
         " of records at once" + (ranks > 1 ? " on its busiest rank" : "") +
         (least < need.peak ? " (" + human_bytes(static_cast<double>(least)) +
                                  " with the components of its tiers solved one after another" +
                                  (need.smallest_packed ? " and its finished tiers held compressed)" : ")")
                            : "") +
         ", more than " + budget.said + "; the smallest budget that works is --memory " + size_arg(least);
}

/// One rank of a distributed solve (every rank runs this).
int solve_on_ranks(const Game& game, const Instance& inst, const json& params,
                   const SolveOptions& o, const Launch& launch) {
  const Common& c = o.c;
  std::unique_ptr<Transport> tr = start_mpi();
  const int me = tr->rank(), ranks = tr->ranks();
  // every process refuses before any opens the database: none would know of the others
  if (launch.declared && launch.declared != ranks)
    throw UserError(
        "solve: " + launch.launcher + " started " + std::to_string(launch.declared) +
        " processes but MPI joined them into " + std::to_string(ranks) +
        (ranks == 1 ? " rank" : " ranks") +
        ", so each would solve alone into the same database: the launcher is not of the MPI "
        "library "
        "this toadbase was built with (run the mpirun of Open MPI, or srun --mpi=pmix)");
  const auto t0 = Clock::now();
  const CpuSnapshot cpu0 = CpuSnapshot::take();
  // every rank must run the same command: the same space and record
  const Identity id = inst.identity();
  const std::string space = id.game + " " + id.parameters.dump() + " " + id.record;
  const uint64_t mine = xxh64(space.data(), space.size());
  // a refusal every rank knows of: rank 0 says why, and no rank leaves before it has (a rank
  // that ended first with exit 1 had the launcher kill rank 0 before it printed)
  auto refuse = [&](const std::string& message, int code = kExitNo) {
    if (me == 0) report_error(message, code, c.json_out);
    std::cout << std::flush;
    std::cerr << std::flush;
    std::vector<uint8_t> said(1, 1);
    tr->broadcast(said);
    return code;
  };
  const std::vector<uint64_t> all = tr->all_gather(std::span<const uint64_t>(&mine, 1));
  for (int r = 1; r < ranks; ++r)
    if (all[static_cast<size_t>(r)] != all[0]) {
      return refuse("solve: rank " + std::to_string(r) + " was started with another space or record than rank 0 (" +
                    space + "): every rank must run the same command");
    }
  // the budget, each rank against its own memory (a share of the free memory differs from
  // machine to machine): if one rank's is too small, every rank refuses
  uint64_t budget_bytes = 0;
  {
    std::string over;
    try {
      const Budget budget = memory_budget(o.memory, o.memory_given);
      budget_bytes = budget.bytes;
      over = over_budget(game, inst, o, budget, ranks);
    } catch (const std::exception& e) {  // whatever one rank meets, every rank hears of
      over = std::string("solve: ") + e.what();
    }
    const uint64_t flag = over.empty() ? 0 : 1;
    const std::vector<uint64_t> flags = tr->all_gather(std::span<const uint64_t>(&flag, 1));
    for (int r = 0; r < ranks; ++r)
      if (flags[static_cast<size_t>(r)])
        return refuse(me == 0 && !over.empty()
                          ? over
                          : "solve: rank " + std::to_string(r) + "'s memory budget (--memory, or its share of its own free memory) is smaller than any schedule of the solve keeps on its busiest rank",
                      kExitUsage);
  }
  // rank 0 opens the database (it alone writes it) and tells the others whether to go on
  const auto tiers = inst.tiers();
  std::unique_ptr<db::Database> d;
  std::string error;
  // status[0]: 0 stop, 1 solve, 2 already complete; status[1]: the database's zstd level;
  // status[2]: log2 of its block bytes; status[3]: 1 when its blocks hold their records'
  // planes each (format 4)
  std::vector<uint8_t> status(4, 0);
  if (me == 0) {
    try {
      d = db::Database::open_for_solve(c.db, id, tiers, o.zstd_level, o.repair);
      if (o.repair) repair(*d, tiers, c.quiet);
      status[0] = d->complete() ? 2 : 1;
      status[1] = static_cast<uint8_t>(d->zstd_level());
      status[2] = static_cast<uint8_t>(std::countr_zero(d->block_bytes()));
      status[3] = d->planes_per_block();
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  tr->broadcast(status);
  if (status[0] == 0) return refuse(error);
  const bool was_complete = status[0] == 2;
  SolveStats stats;
  std::unique_ptr<Progress> progress;
  if (me == 0) {
    const uint64_t positions = positions_of(tiers);
    progress = make_progress("solve " + game.name() + " on " + std::to_string(ranks) + " ranks",
                             positions, tiers.size(), c.quiet, false);
  }
  if (!was_complete) {
    try {
      // the tiers this rank reports go to rank 0 compressed as the database keeps them
      const auto packer = db::Database::packer(id.record_bytes, status[1], uint64_t{1} << status[2], status[3] != 0);
      stats = with_threads(c.threads, [&] {
        CostModel model = cost_model(o);
        model.memory_budget = budget_bytes;  // every rank's, the smallest kept (agree_on_plan)
        return inst.solve(d.get(), *packer, progress.get(), *tr, model);
      });
    } catch (const std::exception& e) {
      // the other ranks may wait on this one: end them all (a rerun resumes)
      std::cerr << "toadbase: error on rank " << me << " of " << ranks << ": " << e.what() << "\n"
                << std::flush;
      abort_job(1);
    }
  }
  const Transport::Counters k = tr->counters();
  const uint64_t share[] = {
      stats.positions_computed,
      stats.pieces_computed,
      k.bytes_sent,
      k.bytes_received,
      k.raw_sent,
      k.raw_received,
      k.messages_sent,
      k.messages_received,
      stats.peak_bytes_in_flight,
      static_cast<uint64_t>(k.seconds_waiting * 1e6),
      static_cast<uint64_t>(stats.seconds_solving * 1e6),
      static_cast<uint64_t>(stats.seconds_reporting * 1e6),
      static_cast<uint64_t>(std::chrono::duration<double>(Clock::now() - t0).count() * 1e6)};
  constexpr size_t kShare = std::size(share);
  const std::vector<uint64_t> shares = tr->all_gather(std::span<const uint64_t>(share, kShare));
  if (me != 0) return 0;
  if (!was_complete) {
    progress->finish();
    d->finish(tiers);
  }
  json per_rank = json::array();
  for (int r = 0; r < ranks; ++r) {
    const uint64_t* s = &shares[static_cast<size_t>(r) * kShare];
    per_rank.push_back({{"rank", r},
                        {"positions_computed", s[0]},
                        {"pieces", s[1]},
                        {"bytes_sent", s[2]},
                        {"bytes_received", s[3]},
                        {"raw_bytes_sent", s[4]},
                        {"raw_bytes_received", s[5]},
                        {"messages_sent", s[6]},
                        {"messages_received", s[7]},
                        {"peak_tier_bytes_in_flight", s[8]},
                        {"seconds_waiting", static_cast<double>(s[9]) / 1e6},
                        {"seconds_solving", static_cast<double>(s[10]) / 1e6},
                        {"seconds_reporting", static_cast<double>(s[11]) / 1e6},
                        {"seconds_done", static_cast<double>(s[12]) / 1e6}});
  }
  const double secs = std::chrono::duration<double>(Clock::now() - t0).count();
  print_report(solve_report(game, params, c.db, *d, tiers, was_complete, stats, secs, per_rank,
                            cpu_report(cpu0, CpuSnapshot::take())),
               c, was_complete);
  return 0;
}

/// --plan K: the distributed plan for K ranks, nothing solved.
int print_plan(const Game& game, const Instance& inst, const json& params, const SolveOptions& o) {
  const int ranks = o.plan;
  const int threads = o.c.threads > 0 ? o.c.threads : 1;
  CostModel model = cost_model(o);
  model.threads.assign(static_cast<size_t>(ranks), threads);
  model.packing_threads = solve_threads(o);  // the estimate's threads aside: those a solve runs
  const Budget budget = memory_budget(o.memory, o.memory_given);
  model.memory_budget = budget.bytes;
  // the model's costs scale with the rate given (the defaults are for 60 M positions/s)
  const double scale = 60e6 / o.plan_rate;
  model.scan_ps = static_cast<uint64_t>(static_cast<double>(model.scan_ps) * scale);
  model.tail_ps = static_cast<uint64_t>(static_cast<double>(model.tail_ps) * scale);
  model.wire_ps_per_byte =
      static_cast<uint64_t>(static_cast<double>(model.wire_ps_per_byte) * scale);
  model.commit_ps_per_byte =
      static_cast<uint64_t>(static_cast<double>(model.commit_ps_per_byte) * scale);
  model.write_ps_per_byte =
      static_cast<uint64_t>(static_cast<double>(model.write_ps_per_byte) * scale);
  const Distribution d = inst.plan(ranks, model);
  const auto tiers = inst.tiers();
  const unsigned width = inst.identity().record_bytes;
  uint64_t positions = 0, largest = 0, moved = 0, peak = 0, most = 0, split = 0;
  TierId big = 0;
  for (TierId t = 0; t < tiers.size(); ++t) {
    positions += tiers[t].positions;
    if (tiers[t].positions > largest) largest = tiers[t].positions, big = t;
    split += d.split(t);
  }
  json per_rank = json::array();
  for (int r = 0; r < ranks; ++r) {
    const RankLoad& l = d.load[static_cast<size_t>(r)];
    moved += l.bytes_sent;
    peak = std::max(peak, l.peak_bytes);
    most = std::max(most, l.positions);
    per_rank.push_back({{"rank", r},
                        {"positions", l.positions},
                        {"pieces", l.pieces},
                        {"bytes_sent", l.bytes_sent},
                        {"bytes_received", l.bytes_received},
                        {"peak_bytes", l.peak_bytes},
                        {"busy_seconds", static_cast<double>(l.busy_ps) / 1e12}});
  }
  const double secs = static_cast<double>(d.makespan_ps) / 1e12;
  const uint64_t least = budget_fit_of(d).least();
  json out = {{"game", game.name()},
              {"parameters", params},
              {"record", inst.identity().record},
              {"record_bytes", width},
              {"ranks", ranks},
              {"threads_per_rank", threads},
              {"rate_per_thread", o.plan_rate},
              {"positions", positions},
              {"tiers", tiers.size()},
              {"levels", d.levels},
              {"pieces", d.pieces.size()},
              {"split_tiers", split},
              {"piece_positions", d.piece_positions == UINT64_MAX ? 0 : d.piece_positions},
              {"largest_tier",
               {{"name", tiers.empty() ? "" : tiers[big].name},
                {"positions", largest},
                {"bytes", largest * width}}},
              {"most_positions_on_a_rank", most},
              {"mean_positions_per_rank", static_cast<double>(positions) / ranks},
              {"bytes_moved", moved},
              {"peak_bytes_per_rank", peak},
              {"expected_peak_rss_per_rank", peak + kFixedOverhead},
              {"memory_budget", budget.bytes ? json(budget.bytes) : json(nullptr)},
              {"fits_budget", budget.bytes ? json(peak <= budget.bytes) : json(nullptr)},
              {"levels_moved_to_fit", d.fitted},
              {"tiers_held_compressed", d.packed},
              {"tiers_held_compressed_span", d.packed ? json(d.packed_span) : json(nullptr)},
              {"smallest_budget_holds_compressed", d.smallest_packed},
              {"smallest_budget", least},
              {"estimated_seconds", secs},
              {"per_rank", per_rank}};
  if (o.c.json_out) {
    std::cout << dump(camel_keys(out)) << "\n";
    return 0;
  }
  std::cout << "plan of " << game.name() << " " << dump(params) << " (" << inst.identity().record
            << ") on " << ranks << " ranks of " << threads << " thread" << (threads == 1 ? "" : "s")
            << "\n"
            << "  " << positions << " positions in " << tiers.size() << " tiers, " << d.levels
            << " levels" << (d.fitted ? " (components of the tiers moved later to keep the budget)" : "")
            << (!d.packed             ? ""
                : d.packed_span > 1 ? " (finished tiers last read " + std::to_string(d.packed_span) +
                                          " or more levels on held compressed to keep the budget)"
                                    : std::string(" (finished tiers held compressed to keep the budget)"))
            << "; "
            << d.pieces.size() << " pieces (" << split << " tiers split)\n";
  std::printf("  largest tier %s: %llu positions (%s)\n",
              out["largest_tier"]["name"].get<std::string>().c_str(),
              static_cast<unsigned long long>(largest),
              human_bytes(static_cast<double>(largest * width)).c_str());
  std::printf("  positions per rank: %.3g on average, %.3g at most\n",
              static_cast<double>(positions) / ranks, static_cast<double>(most));
  std::printf("  records moved between ranks: %s (before compression)\n",
              human_bytes(static_cast<double>(moved)).c_str());
  std::printf("  records in memory per rank: %s at most; peak RSS about %s (the rest of the process: %s)\n",
              human_bytes(static_cast<double>(peak)).c_str(), human_bytes(static_cast<double>(peak + kFixedOverhead)).c_str(),
              human_bytes(static_cast<double>(kFixedOverhead)).c_str());
  if (budget.bytes)
    std::printf("  memory budget: %s: %s\n", budget.said.c_str(),
                peak <= budget.bytes ? "fits" : ("does not fit (the smallest that works: --memory " + size_arg(least) + ")").c_str());
  std::printf("  estimated time: %.0f s at %.0f M positions/s a thread\n", secs, o.plan_rate / 1e6);
  return 0;
}

/// What the directory a solve writes to holds already, read once before the solve opens it.
struct Existing {
  std::optional<db::Identity> identity;  // none: no database, or one that does not open
  bool complete = false;
  /// Its record when it holds this game and these parameters ("" otherwise: the solve then
  /// says what it holds): without --record, a solve resumes, or reports, a database in the
  /// record it was written with.
  std::string record_for(const Game& game, const json& params) const {
    return identity && identity->game == game.name() && identity->parameters == params ? identity->record : "";
  }
};

Existing existing_database(const std::string& db) {
  Existing e;
  std::error_code ec;
  if (!std::filesystem::is_directory(db, ec)) return e;
  try {
    const auto d = db::Database::open_read_only(db, 0);
    e.identity = d->identity();
    e.complete = d->complete();
  } catch (const std::exception&) {  // not a database, damaged, foreign: the solve says which
  }
  return e;
}

int run_solve(const Game& game, const json& given, const SolveOptions& o) {
  json params;
  std::unique_ptr<Instance> inst;
  const Existing existing = o.plan == 0 ? existing_database(o.c.db) : Existing{};
  try {
    params = game.normalize(given);
    inst = game.instance(params, o.record.empty() ? existing.record_for(game, params) : o.record);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("solve ") + game.name() + ": " + e.what());
  }
  if (o.plan > 0) {
    try {
      return print_plan(game, *inst, params, o);
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("solve ") + game.name() + ": " + e.what());
    }
  }
  const Launch launch = detect_launch();
  if (!launch.problem.empty()) throw UserError("solve: " + launch.problem);
  if (launch.mpi) return solve_on_ranks(game, *inst, params, o, launch);
  const Common& c = o.c;
  // the budget, before the database is written (a complete database is only reported)
  const Budget budget = memory_budget(o.memory, o.memory_given);
  if (!existing.complete)
    if (const std::string over = over_budget(game, *inst, o, budget, 1); !over.empty()) throw UsageError(over);
  const StopOnInterrupt ctrl_c;  // Ctrl-C: stop at the next level of tiers, keep what is committed
  try {
    const Solved solved = solve_here(game, *inst, params,
                                     {c.db, c.threads, o.zstd_level, c.quiet, o.repair, o.record, budget.bytes,
                                      o.hold_compressed});
    print_report(solved.report, c, solved.was_complete);
  } catch (const SolveInterrupted& e) {
    const std::string kept =
        std::to_string(e.committed) + " of " + std::to_string(e.tiers) + " tiers committed";
    if (c.json_out) {
      std::cout << dump(nlohmann::ordered_json{{"error", "interrupted: " + kept},
                                               {"db", c.db},
                                               {"committedTiers", e.committed},
                                               {"tiers", e.tiers}})
                << "\n";
    } else {
      std::cerr << "toadbase: interrupted: " << kept << " to " << c.db
                << "; run the same command again to resume\n";
    }
    return kExitInterrupted;
  }
  return 0;
}

}  // namespace

Solved solve_database(const Game& game, const json& given, const SolveRequest& request) {
  json params;
  std::unique_ptr<Instance> inst;
  try {
    params = game.normalize(given);
    inst = game.instance(params,
                         request.record.empty() ? existing_database(request.db).record_for(game, params) : request.record);
  } catch (const std::invalid_argument& e) {
    throw BadParameters(e.what());
  } catch (const json::exception& e) {  // an option of the wrong type (from a script)
    throw BadParameters(e.what());
  }
  return solve_here(game, *inst, params, request);
}

namespace {
/// A parameter's bound as the int its option is stored in.
int as_int(long long x) {
  return static_cast<int>(std::clamp<long long>(x, std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
}
}  // namespace

std::vector<Command> add_solve(CLI::App& root) {
  auto* solve =
      root.add_subcommand("solve", "solve every position of a game's space into a database");
  solve->require_subcommand(1);
  std::vector<Command> out;
  std::vector<std::string> lines;
  for (const auto& g : games()) {
    if (!g->has_database()) continue;
    auto o = std::make_shared<SolveOptions>();
    auto* s = solve->add_subcommand(g->name(), g->title());
    add_db_option(s, o->c);
    add_threads_option(s, o->c);
    add_json_flag(s, o->c);
    add_quiet_flag(s, o->c);
    s->add_option("--zstd-level", o->zstd_level, "zstd level of the stored blocks (1..19)")
        ->check(whole_number_in(1, 19));
    s->add_flag(
        "--repair", o->repair,
        "solve again the tiers of this database that no longer read back whole (damaged blocks or "
        "commit records, a damaged manifest); ends with the original digest");
    if (g->records().size() > 1) {
      std::string names;
      for (const auto& r : g->records()) names += (names.empty() ? "" : ", ") + r;
      s->add_option("--record", o->record, "the record type (" + names + ")")
          ->default_str("the database's own when it exists, else the narrowest that holds every remoteness of the space");
    }
    s->add_option("--plan", o->plan,
                  "print the plan of a distributed solve on this many ranks (work, traffic and "
                  "memory per rank, "
                  "estimated time; --threads per rank) and solve nothing")
        ->check(whole_number_in(1, 1 << 20))
        ->default_str("none: solve");
    s->add_option("--memory", o->memory,
                  "the most memory the solve's records may take at once: bytes with K, M, G or T "
                  "(20G), or a share of the free memory (80%); under it the solve runs fewer "
                  "components of its tiers side by side, below the largest component's peak its finished tiers are "
                  "held compressed (a slower solve; one process), and below what that keeps it is "
                  "refused before the database is written, naming the smallest budget that works. Peak "
                  "RSS stays within it plus 1.5 GiB for the rest of the process (with MPI: on each rank)")
        ->default_str("85% of the free memory, less 1.5 GiB");
    s->add_flag("--hold-compressed", o->hold_compressed,
                "hold the finished tiers that later tiers read compressed whatever the budget (in one "
                "process: what --memory does below the largest component's peak), to measure what it costs; "
                "the database and its digest are the same");
    s->add_option("--plan-rate", o->plan_rate,
                  "positions a second one thread solves, for --plan's estimate")
        ->check(real_number_above(0, false))
        ->default_str("60e6");
    s->add_option(
         "--piece-positions", o->piece_positions,
         "a distributed solve (and --plan): spread every part of the space over all ranks, cutting "
         "tiers larger than this many positions into pieces solved on several ranks (their records "
         "cross between the ranks); the database and its digest are the same")
        ->check(whole_number_in(uint64_t{1}, uint64_t{1} << 40))
        ->default_str(
            "the plan's rule: a part of the space whole on one rank when it fits one rank's share, "
            "pieces of at least 1,048,576 positions");
    const std::vector<ParamSpec> params = g->parameters();
    std::string example = "toadbase solve " + g->name();
    for (const auto& p : params) {
      CLI::Option* opt = p.kind == ParamSpec::Kind::Int
                             ? s->add_option("--" + p.name, o->ints[p.name], p.help)
                                   ->check(whole_number_in(as_int(p.min), as_int(p.max)))
                             : s->add_option("--" + p.name, o->strings[p.name], p.help);
      opt->default_str(p.default_value.empty() ? "none" : p.default_value);
      // the first parameter with a number for its default makes the example
      if (example.find(" --") == std::string::npos && !p.default_value.empty() &&
          p.default_value.find_first_not_of("0123456789") == std::string::npos)
        example += " --" + p.name + " " + p.default_value;
    }
    const std::string db = "data/" + g->name();
    examples(s, {example + " --db " + db, example + " --db " + db + " --threads 2 --quiet --json"});
    lines.push_back(example + " --db " + db);
    const Game* game = g.get();
    out.push_back({s, [s, o, game, params] {
                     o->memory_given = s->count("--memory") > 0;
                     json given = json::object();
                     for (const auto& p : params) {
                       if (s->count("--" + p.name) == 0) continue;
                       if (p.kind == ParamSpec::Kind::Int) {
                         given[p.name] = o->ints[p.name];
                       } else {
                         given[p.name] = o->strings[p.name];
                       }
                     }
                     return run_solve(*game, given, *o);
                   }});
  }
  if (lines.size() > 3) lines.resize(3);
  examples(solve, lines);
  return out;
}

}  // namespace toadbase::tools
