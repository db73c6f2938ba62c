// The tier solver: retrograde analysis of a loop-free game, level by level, children first.
//
//   level(t) = 0 for a tier without child tiers, else 1 + the highest level of its children
//              (and of its tail's source tier, when the game copies a tail: see game.hpp)
//   for each level, lowest first:
//       skip the tiers the store already holds (a resumed solve)
//       make sure every child tier of the level's tiers is in memory (loaded if need be)
//       parallel over the level's tiers, and inside each tier over index ranges (TBB):
//           game.scan(t, lo, hi, visit)            over the tier's prefix
//               visit(index, children, n):  records[index] = combine(child records)
//           game.fill_tail(t, source, records)     the tail, copied from its source tier
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
#include <functional>
#include <map>
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
  /// The records a committed tier keeps: its first `keep` records (see commit_tier).
  virtual std::vector<Record> load_tier(TierId tier) = 0;
  /// Commit a freshly solved tier (atomically: all of it or none of it), keeping its first
  /// `keep` records: all of them (kAllRecords), the prefix the game scans (the rest is a
  /// tail the game copies from another tier), or none (a derived tier: its size and digest
  /// only). Called from several threads at once (the tiers of one level), so it must be
  /// thread-safe. A resumed solve may commit a tier again (its tail's source was lost).
  virtual void commit_tier(TierId tier, const std::vector<Record>& records, uint64_t keep) = 0;
  template <class B>
    requires std::same_as<B, bool>
  void commit_tier(TierId, const std::vector<Record>&, B) = delete;  // keep counts records
};

/// commit_tier's `keep` for "every record".
inline constexpr uint64_t kAllRecords = UINT64_MAX;

/// How many leading records of tier t the store keeps.
template <TierGame G>
uint64_t records_kept(const G& game, TierId t) {
  return tier_stored(game, t) ? tier_prefix(game, t) : 0;
}

/// The tier a tail is copied from.
template <TierGame G>
TierId tail_source(const G& game, TierId t) {
  if constexpr (requires { game.tail_source(t); }) {
    return game.tail_source(t);
  } else {
    throw std::logic_error("tier " + game.tier_name(t) + " has a tail but the game names no source");
  }
}

/// Fills the tail of `out` (a whole tier, prefix solved) from its source tier's records.
template <TierGame G>
void fill_tail(const G& game, TierId t, const Record* source, Record* out) {
  if constexpr (requires { game.fill_tail(t, source, out); }) {
    game.fill_tail(t, source, out);
  } else {
    throw std::logic_error("tier " + game.tier_name(t) + " has a tail but the game cannot fill it");
  }
}

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

/// What each tier reads: its child tiers, then the source of its tail (if it has one).
template <TierGame G>
std::vector<std::vector<TierId>> tier_reads(const G& game) {
  const TierId n = game.tier_count();
  std::vector<std::vector<TierId>> reads(n);
  for (TierId t = 0; t < n; ++t) {
    reads[t] = game.child_tiers(t);
    for (TierId c : reads[t])
      if (c >= t) throw std::logic_error("tier order: a child tier is not solved before its parent");
    if (has_tail(game, t)) reads[t].push_back(tail_source(game, t));
    for (TierId d : reads[t])
      if (d >= n) throw std::logic_error("tier " + game.tier_name(t) + " names a tier beyond the space");
  }
  return reads;
}

/// Each tier's level: 0 when it reads no tier, else 1 + the highest level of the tiers it
/// reads (`reads` from tier_reads; a tail's source may come later in id order, so levels
/// are found by a depth-first walk).
template <TierGame G>
std::vector<uint32_t> tier_levels(const G& game, const std::vector<std::vector<TierId>>& reads) {
  const TierId n = game.tier_count();
  constexpr uint32_t kUnknown = UINT32_MAX, kOpen = UINT32_MAX - 1;
  std::vector<uint32_t> level(n, kUnknown);
  std::vector<std::pair<TierId, bool>> stack;  // (tier, the tiers it reads pushed)
  for (TierId root = 0; root < n; ++root) {
    if (level[root] != kUnknown) continue;
    stack.push_back({root, false});
    while (!stack.empty()) {
      auto [t, expanded] = stack.back();
      stack.pop_back();
      if (!expanded) {
        if (level[t] != kUnknown) continue;
        level[t] = kOpen;
        stack.push_back({t, true});
        for (TierId d : reads[t]) {
          if (level[d] == kOpen) throw std::logic_error("tier order: tier " + game.tier_name(t) + " depends on itself");
          if (level[d] == kUnknown) stack.push_back({d, false});
        }
      } else {
        uint32_t l = 0;
        for (TierId d : reads[t]) l = std::max(l, level[d] + 1);
        level[t] = l;
      }
    }
  }
  return level;
}

template <TierGame G>
std::vector<uint32_t> tier_levels(const G& game) {
  return tier_levels(game, tier_reads(game));
}

/// Solve one tier into `out` given its child tiers' records (and, for a tier with a tail,
/// its tail source's records).
template <TierGame G, class Rec = ParityRecord>
void solve_tier(const G& game, TierId tier, const std::vector<const Record*>& child_records,
                std::vector<Record>& out, const Record* tail_records = nullptr) {
  const uint64_t size = game.tier_size(tier), prefix = tier_prefix(game, tier);
  out.assign(size, 0);
  std::atomic<bool> overflow{false};
  tbb::parallel_for(tbb::blocked_range<uint64_t>(0, prefix, kScanGrain),
                    [&](const tbb::blocked_range<uint64_t>& r) {
                      typename Rec::Accumulator acc{child_records.data(), out.data()};
                      game.scan(tier, r.begin(), r.end(), acc);
                      if (acc.overflow) overflow.store(true, std::memory_order_relaxed);
                    });
  if (overflow.load()) {
    throw std::overflow_error("remoteness above " + std::to_string(kMaxRemoteness) +
                              " in tier " + game.tier_name(tier));
  }
  if (prefix < size) {
    if (!tail_records) throw std::logic_error("tier " + game.tier_name(tier) + ": its tail's source is not in memory");
    fill_tail(game, tier, tail_records, out.data());
  }
}

/// The records of a tier an earlier run committed: loaded, or for a derived tier recomputed
/// from its children; a tail is copied from its source. `fetch(id)` gives the whole records
/// of another committed tier (a child of a derived tier, a tail's source); without it they
/// are recovered the same way, each once.
template <TierGame G, class Rec = ParityRecord>
std::vector<Record> recover_tier(const G& game, TierStore& store, TierId t,
                                 const std::function<const Record*(TierId)>& fetch = {}) {
  if (!fetch) {
    std::map<TierId, std::vector<Record>> memo;  // a derived tier's chain reads tiers twice
    std::function<const Record*(TierId)> own = [&](TierId c) -> const Record* {
      auto it = memo.find(c);
      if (it == memo.end()) it = memo.emplace(c, recover_tier<G, Rec>(game, store, c, own)).first;
      return it->second.data();
    };
    return recover_tier<G, Rec>(game, store, t, own);
  }
  const uint64_t size = game.tier_size(t), prefix = tier_prefix(game, t);
  std::vector<Record> out;
  if (tier_stored(game, t)) {
    if (prefix > 0) out = store.load_tier(t);  // else all of it is tail: nothing kept
    if (out.size() == size) return out;  // kept whole (an older database): no tail to fill
    if (out.size() != prefix)
      throw std::runtime_error("stored tier " + game.tier_name(t) + " has the wrong size");
    out.resize(size);
    fill_tail(game, t, fetch(tail_source(game, t)), out.data());
  } else {
    std::vector<const Record*> kids;
    for (TierId c : game.child_tiers(t)) kids.push_back(fetch(c));
    solve_tier<G, Rec>(game, t, kids, out, prefix < size ? fetch(tail_source(game, t)) : nullptr);
  }
  return out;
}

/// Solve every tier the store does not hold yet. Call inside with_threads().
template <TierGame G, class Rec = ParityRecord>
SolveStats solve_tiers(const G& game, TierStore& store, Progress* progress) {
  const TierId n = game.tier_count();
  const std::vector<std::vector<TierId>> reads = tier_reads(game);
  const std::vector<uint32_t> level = tier_levels(game, reads);
  const uint32_t levels = n ? *std::max_element(level.begin(), level.end()) + 1 : 0;
  std::vector<std::vector<TierId>> by_level(levels);
  for (TierId t = 0; t < n; ++t) by_level[level[t]].push_back(t);
  std::vector<uint32_t> last_level(n, 0);  // the last level that reads tier t (0: none)
  for (TierId t = 0; t < n; ++t)
    for (TierId c : reads[t]) last_level[c] = std::max(last_level[c], level[t]);
  std::vector<std::vector<TierId>> free_after(levels);  // [L]: tiers no level after L reads
  for (TierId t = 0; t < n; ++t)
    if (last_level[t] > 0) free_after[last_level[t]].push_back(t);
  // a tier counts as done when the store holds it and, for a tail, its source is done (a
  // crash may keep a tier's group and lose its source's): levels put sources first
  std::vector<char> done(n, 0);
  for (uint32_t L = 0; L < levels; ++L)
    for (TierId t : by_level[L])
      done[t] = store.has_tier(t) && (!has_tail(game, t) || done[tail_source(game, t)]);

  std::vector<std::vector<Record>> held(n);  // index t written only by the task solving t
  uint64_t bytes_held = 0;
  SolveStats stats;
  std::mutex report_mu;  // progress and stats, from the level's tasks
  std::vector<TierId> todo, loaded;
  // a tier an earlier run committed, into held[] (with the source of its tail, first)
  std::function<const Record*(TierId)> hold = [&](TierId c) -> const Record* {
    if (held[c].size() != game.tier_size(c)) {
      held[c] = recover_tier<G, Rec>(game, store, c, hold);
      bytes_held += held[c].size();
      loaded.push_back(c);
    }
    return held[c].data();
  };
  for (uint32_t L = 0; L < levels; ++L) {
    todo.clear();
    for (TierId t : by_level[L]) {
      if (done[t]) {
        ++stats.tiers_skipped;
        if (progress) progress->tier_done(game.tier_name(t), game.tier_size(t), true);
      } else {
        todo.push_back(t);
      }
    }
    // tiers committed by an earlier run, before the parallel part (which only reads them)
    loaded.clear();
    for (TierId t : todo)
      for (TierId c : reads[t]) hold(c);
    uint64_t level_bytes = 0;
    tbb::parallel_for(size_t{0}, todo.size(), [&](size_t k) {
      const TierId t = todo[k];
      std::vector<const Record*> kids;
      for (TierId c : game.child_tiers(t)) kids.push_back(held[c].data());
      const Record* tail = has_tail(game, t) ? held[tail_source(game, t)].data() : nullptr;
      std::vector<Record> records;
      solve_tier<G, Rec>(game, t, kids, records, tail);
      store.commit_tier(t, records, records_kept(game, t));
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
    // free every tier no later level reads (also those whose readers an earlier run
    // committed, and sources loaded only to rebuild a tail)
    auto release = [&](TierId c) {
      if (!held[c].empty()) {
        bytes_held -= held[c].size();
        std::vector<Record>().swap(held[c]);
      }
    };
    for (TierId c : free_after[L]) release(c);
    for (TierId c : loaded)
      if (last_level[c] <= L) release(c);
  }
  return stats;
}

}  // namespace toadbase
