// The tier solver: retrograde analysis of a loop-free game, level by level, children first.
//
//   level(t) = 0 for a tier without child tiers, else 1 + the highest level of its children
//   for each level, lowest first:
//       skip the tiers the store already holds (a resumed solve)
//       make sure every child tier of the level's tiers is in memory (loaded if need be)
//       parallel over the level's tiers, and inside each tier over index ranges (TBB):
//           game.scan(t, lo, hi, visit)
//               visit(index, children, n):  records[index] = combine(child records)
//           hand the records to the store (it compresses and commits the tier atomically)
//       free every tier no later level reads
//
// The tiers of one level never read each other, so they run side by side: many small
// tiers keep both cores busy where one of them alone would not fill a task, and the
// store's compression runs beside the next tier's scan. Memory is the tiers in flight
// (the current level and the levels it reads), not the space. The pass reads finished
// tiers only, so it needs no counters, atomics or locks in the hot loop, and its result
// does not depend on the thread count or the order in which a level's tiers finish.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "solver/core/game.hpp"
#include "solver/core/progress.hpp"
#include "solver/core/record.hpp"

namespace toadbase {

/// Where solved tiers go. The solver knows no storage: the database implements this.
class TierStore {
 public:
  virtual ~TierStore() = default;
  /// True when an earlier run committed this tier.
  virtual bool has_tier(TierId tier) const = 0;
  /// The records of a committed tier.
  virtual std::vector<Record> load_tier(TierId tier) = 0;
  /// Commit a freshly solved tier (atomically: all of it or none of it). For a derived
  /// tier (`keep_records` false) only its size and digest are kept. Called from several
  /// threads at once (the tiers of one level), so it must be thread-safe.
  virtual void commit_tier(TierId tier, const std::vector<Record>& records, bool keep_records) = 0;
};

struct SolveStats {
  uint64_t positions_solved = 0;
  uint64_t tiers_solved = 0;
  uint64_t tiers_skipped = 0;
  uint64_t peak_bytes_in_flight = 0;
};

/// Positions handed to one task of the parallel loop: big enough to amortise the task,
/// small enough to balance two cores on small tiers.
inline constexpr uint64_t kScanGrain = 8192;

/// Run `f` with at most `threads` worker threads (0 = all cores).
template <class F>
auto with_threads(int threads, F&& f) {
  tbb::task_arena arena(threads > 0 ? threads : tbb::task_arena::automatic);
  return arena.execute(std::forward<F>(f));
}

/// For each tier, the last tier (in id order) that reads it as a child.
template <TierGame G>
std::vector<TierId> last_readers(const G& game) {
  TierId n = game.tier_count();
  std::vector<TierId> last(n);
  for (TierId t = 0; t < n; ++t) last[t] = t;
  for (TierId t = 0; t < n; ++t) {
    for (TierId c : game.child_tiers(t)) {
      if (c >= t) throw std::logic_error("tier order: a child tier is not solved before its parent");
      if (last[c] < t) last[c] = t;
    }
  }
  return last;
}

/// Each tier's level: 0 without child tiers, else 1 + the highest level of its children.
template <TierGame G>
std::vector<uint32_t> tier_levels(const G& game) {
  const TierId n = game.tier_count();
  std::vector<uint32_t> level(n, 0);
  for (TierId t = 0; t < n; ++t) {
    for (TierId c : game.child_tiers(t)) {
      if (c >= t) throw std::logic_error("tier order: a child tier is not solved before its parent");
      level[t] = std::max(level[t], level[c] + 1);
    }
  }
  return level;
}

/// Solve one tier into `out` given its child tiers' records.
template <TierGame G, class Rec = ParityRecord>
void solve_tier(const G& game, TierId tier, const std::vector<const Record*>& child_records,
                std::vector<Record>& out) {
  uint64_t size = game.tier_size(tier);
  out.assign(size, 0);
  std::atomic<bool> overflow{false};
  tbb::parallel_for(tbb::blocked_range<uint64_t>(0, size, kScanGrain),
                    [&](const tbb::blocked_range<uint64_t>& r) {
                      typename Rec::Accumulator acc{child_records.data(), out.data()};
                      game.scan(tier, r.begin(), r.end(), acc);
                      if (acc.overflow) overflow.store(true, std::memory_order_relaxed);
                    });
  if (overflow.load()) {
    throw std::overflow_error("remoteness above " + std::to_string(kMaxRemoteness) +
                              " in tier " + game.tier_name(tier));
  }
}

/// The records of a tier an earlier run committed: loaded, or for a derived tier recomputed
/// from its (stored) children.
template <TierGame G, class Rec = ParityRecord>
std::vector<Record> recover_tier(const G& game, TierStore& store, TierId t) {
  std::vector<Record> out;
  if (tier_stored(game, t)) {
    out = store.load_tier(t);
  } else {
    std::vector<std::vector<Record>> kids_data;
    std::vector<const Record*> kids;
    for (TierId c : game.child_tiers(t)) {
      if (!tier_stored(game, c))
        throw std::logic_error("derived tier " + game.tier_name(t) + " has a derived child tier");
      kids_data.push_back(store.load_tier(c));
    }
    for (const auto& k : kids_data) kids.push_back(k.data());
    solve_tier<G, Rec>(game, t, kids, out);
  }
  if (out.size() != game.tier_size(t))
    throw std::runtime_error("stored tier " + game.tier_name(t) + " has the wrong size");
  return out;
}

/// Solve every tier the store does not hold yet. Call inside with_threads().
template <TierGame G, class Rec = ParityRecord>
SolveStats solve_tiers(const G& game, TierStore& store, Progress* progress) {
  const TierId n = game.tier_count();
  const std::vector<uint32_t> level = tier_levels(game);
  const uint32_t levels = n ? *std::max_element(level.begin(), level.end()) + 1 : 0;
  std::vector<std::vector<TierId>> by_level(levels);
  for (TierId t = 0; t < n; ++t) by_level[level[t]].push_back(t);
  std::vector<uint32_t> last_level(n, 0);  // the last level that reads tier t (0: none)
  for (TierId t = 0; t < n; ++t)
    for (TierId c : game.child_tiers(t)) last_level[c] = std::max(last_level[c], level[t]);
  std::vector<std::vector<TierId>> free_after(levels);  // [L]: tiers no level after L reads
  for (TierId t = 0; t < n; ++t)
    if (last_level[t] > 0) free_after[last_level[t]].push_back(t);

  std::vector<std::vector<Record>> held(n);  // index t written only by the task solving t
  uint64_t bytes_held = 0;
  SolveStats stats;
  std::mutex report_mu;  // progress and stats, from the level's tasks
  std::vector<TierId> todo;
  for (uint32_t L = 0; L < levels; ++L) {
    todo.clear();
    for (TierId t : by_level[L]) {
      if (store.has_tier(t)) {
        ++stats.tiers_skipped;
        if (progress) progress->tier_done(game.tier_name(t), game.tier_size(t), true);
      } else {
        todo.push_back(t);
      }
    }
    // children committed by an earlier run, before the parallel part (which only reads them)
    for (TierId t : todo) {
      for (TierId c : game.child_tiers(t)) {
        if (held[c].size() != game.tier_size(c)) {
          held[c] = recover_tier<G, Rec>(game, store, c);
          bytes_held += held[c].size();
        }
      }
    }
    uint64_t level_bytes = 0;
    tbb::parallel_for(size_t{0}, todo.size(), [&](size_t k) {
      const TierId t = todo[k];
      std::vector<const Record*> kids;
      for (TierId c : game.child_tiers(t)) kids.push_back(held[c].data());
      std::vector<Record> records;
      solve_tier<G, Rec>(game, t, kids, records);
      store.commit_tier(t, records, tier_stored(game, t));
      const uint64_t size = records.size();
      if (last_level[t] > L) held[t] = std::move(records);
      std::lock_guard lock(report_mu);
      stats.positions_solved += size;
      ++stats.tiers_solved;
      level_bytes += size;  // in flight at the level's peak, kept or not
      if (progress) progress->tier_done(game.tier_name(t), size, false);
    });
    stats.peak_bytes_in_flight = std::max(stats.peak_bytes_in_flight, bytes_held + level_bytes);
    for (TierId t : todo) bytes_held += held[t].size();
    // free every tier no later level reads (also those whose readers an earlier run committed)
    for (TierId c : free_after[L])
      if (!held[c].empty()) {
        bytes_held -= held[c].size();
        std::vector<Record>().swap(held[c]);
      }
  }
  return stats;
}

}  // namespace toadbase
