// The tier solver: retrograde analysis of a loop-free game, tier after tier, children first.
//
//   for each tier t in solve order:
//       skip it if the store already holds it (a resumed solve)
//       make sure every child tier of t is in memory (computed just before, or loaded)
//       parallel over index ranges of t (TBB):  game.scan(t, lo, hi, visit)
//           visit(index, children, n):  records[index] = combine(child records)
//       hand the records to the store (it commits the tier atomically)
//       free every tier no later tier reads
//
// Memory is the tiers in flight, not the space. The pass reads finished tiers only, so it
// needs no counters, atomics or locks, and its result does not depend on the thread count.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <atomic>
#include <cstdint>
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
  /// tier (`keep_records` false) only its size and digest are kept.
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

/// For each tier, the last tier (in solve order) that reads it as a child.
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
  const std::vector<TierId> last = last_readers(game);
  std::vector<std::vector<Record>> held(n);
  uint64_t bytes_held = 0;
  SolveStats stats;
  std::vector<const Record*> kids;
  for (TierId t = 0; t < n; ++t) {
    const uint64_t size = game.tier_size(t);
    if (store.has_tier(t)) {
      ++stats.tiers_skipped;
      if (progress) progress->tier_done(game.tier_name(t), size, true);
      continue;
    }
    const std::vector<TierId> child_tiers = game.child_tiers(t);
    kids.clear();
    for (TierId c : child_tiers) {
      if (held[c].size() != game.tier_size(c)) {
        held[c] = recover_tier<G, Rec>(game, store, c);  // committed by an earlier run
        bytes_held += held[c].size();
      }
      kids.push_back(held[c].data());
    }
    std::vector<Record> records;
    solve_tier<G, Rec>(game, t, kids, records);
    store.commit_tier(t, records, tier_stored(game, t));
    stats.positions_solved += size;
    ++stats.tiers_solved;
    if (last[t] > t) {
      bytes_held += records.size();
      held[t] = std::move(records);
    }
    if (bytes_held > stats.peak_bytes_in_flight) stats.peak_bytes_in_flight = bytes_held;
    for (TierId c : child_tiers) {
      if (last[c] <= t && !held[c].empty()) {
        bytes_held -= held[c].size();
        std::vector<Record>().swap(held[c]);
      }
    }
    if (progress) progress->tier_done(game.tier_name(t), size, false);
  }
  return stats;
}

}  // namespace toadbase
