// toadbase bench lookup --db DIR: batch lookup rate and cold single-lookup latency.
#include <algorithm>
#include <optional>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <random>

#include "tools/cli.hpp"
#include "tools/open.hpp"

namespace toadbase::tools {

namespace {

using Clock = std::chrono::steady_clock;

struct BenchOptions {
  Common c;
  uint64_t count = 1000000, singles = 2000, seed = 1;
};

int run_bench_lookup(const BenchOptions& o) {
  // batch: `count` random positions through the database opened once, with its block cache
  const Opened d = open_database(o.c.db);
  std::mt19937_64 rng(o.seed);
  std::vector<uint64_t> cum(d.db->tier_count() + 1, 0);
  // positions only (a table the solve sized, such as the CGT forms, holds none)
  for (TierId t = 0; t < d.db->tier_count(); ++t)
    cum[t + 1] = cum[t] + (d.db->tier_sized_by_solve(t) ? 0 : d.db->tier_meta(t).positions);
  // a game without win/lose values is looked up as its query does
  auto lookup = [](const Opened& x, const std::string& s) {
    if (const WinLoseValues* v = x.instance->win_lose_values()) return v->value(*x.db, s, "").second.value == Value::Win;
    return !x.instance->query(*x.db, s, "").empty();
  };
  auto pick = [&] {
    const uint64_t g = rng() % cum.back();
    const TierId t = static_cast<TierId>(std::upper_bound(cum.begin(), cum.end(), g) - cum.begin() - 1);
    return std::pair<TierId, uint64_t>{t, g - cum[t]};
  };
  std::vector<std::string> strings;
  for (uint64_t i = 0; i < o.count; ++i) {
    auto [t, ix] = pick();
    strings.push_back(d.instance->position_at(t, ix));
  }
  const auto t0 = Clock::now();
  uint64_t wins = 0;
  for (const auto& s : strings) wins += lookup(d, s);
  const double batch_s = std::chrono::duration<double>(Clock::now() - t0).count();
  // singles: a fresh reader with an empty cache for each lookup's block (cold block). A
  // query that reads many records (a CGT board: its form's columns, options, text and every
  // child's) gets a reader of its own with an empty cache instead, opened before the clock
  // starts: what a query costs in a process that has read nothing yet (but has run the
  // batch: the threads on which such a query fetches its blocks together are started)
  const bool one_record = d.instance->win_lose_values() != nullptr;
  std::optional<Opened> cold;
  if (one_record) cold = open_database(o.c.db, true, 0);
  std::vector<double> lat;
  for (uint64_t i = 0; i < o.singles; ++i) {
    auto [t, ix] = pick();
    const std::string s = d.instance->position_at(t, ix);
    if (!one_record) {
      cold.reset();  // the reader before it let go first: a process that has read nothing holds none
      cold = open_database(o.c.db, true, size_t{64} << 20);
    }
    const auto a = Clock::now();
    (void)lookup(*cold, s);
    lat.push_back(std::chrono::duration<double, std::micro>(Clock::now() - a).count());
  }
  std::sort(lat.begin(), lat.end());
  auto pct = [&](double q) {
    return lat.empty() ? 0.0 : lat[static_cast<size_t>(q * static_cast<double>(lat.size() - 1))];
  };
  const nlohmann::ordered_json out = {
      {"db", o.c.db},
      {"batchLookups", o.count},
      {"batchSeconds", batch_s},
      {"batchLookupsPerSecond", batch_s > 0 ? static_cast<double>(o.count) / batch_s : 0},
      {"singleLookups", o.singles},
      {"singleP50Us", pct(0.5)},
      {"singleP99Us", pct(0.99)},
      {"singleMaxUs", lat.empty() ? 0.0 : lat.back()},
      {"winsSeen", wins}};
  if (o.c.json_out) {
    std::cout << dump(out) << "\n";
  } else {
    std::printf("batch:  %llu lookups in %.3f s = %.0f lookups/s\n", static_cast<unsigned long long>(o.count), batch_s,
                out["batchLookupsPerSecond"].get<double>());
    std::printf("single (cold block): p50 %.1f us, p99 %.1f us, max %.1f us over %llu\n", pct(0.5), pct(0.99),
                out["singleMaxUs"].get<double>(), static_cast<unsigned long long>(o.singles));
  }
  return 0;
}

}  // namespace

Command add_bench(CLI::App& root) {
  auto o = std::make_shared<BenchOptions>();
  auto* bench = root.add_subcommand("bench", "benchmarks that print a table");
  bench->require_subcommand(1);
  auto* lookup = bench->add_subcommand("lookup", "batch lookup rate and single cold lookup latency");
  add_db_option(lookup, o->c);
  add_json_flag(lookup, o->c);
  lookup->add_option("--count", o->count, "positions in the batch")->check(whole_number_in(uint64_t{0}, uint64_t{1000000000}));
  lookup->add_option("--singles", o->singles, "single cold lookups timed")->check(whole_number_in(uint64_t{0}, uint64_t{10000000}));
  lookup->add_option("--seed", o->seed, "random seed")->check(whole_number_in<uint64_t>());
  examples(bench, {"toadbase bench lookup --db data/tf16"});
  examples(lookup, {"toadbase bench lookup --db data/tf16", "toadbase bench lookup --db data/tf16 --count 100000 --json"});
  return {lookup, [o] { return run_bench_lookup(*o); }};
}

}  // namespace toadbase::tools
