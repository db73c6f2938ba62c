// The tier engine: solve, verify and probe a loop-free game whose space is a DAG of tiers
// (solver/core/game.hpp). One walker of the tier DAG serves solve and verify:
//
//   level(t) = 0 for a tier that reads no tier, else 1 + the highest level of the tiers it
//              reads (its child tiers, and the source of its tail when it has one)
//   for each level, lowest first:
//       pass over the tiers the caller skips (a resumed solve: committed by an earlier run)
//       make sure every tier the level's tiers read is in memory (recovered if need be)
//       run the level's tiers side by side, each parallel inside (TBB), each giving its
//       whole records; keep them while a later level reads them
//       free every tier no later level reads
//
//   solve    a tier = game.scan over its prefix (the hot loop: records combined from the
//            children's records), its tail copied from its source; committed to the store
//   verify   a tier = every position recomputed through the generic path (unrank, children,
//            rank), compared with the stored records and the tier's digest; then a sample of
//            its positions probed as a lookup does
//   probe    one position: canonical(p), then its stored record, or one ply from stored
//            children for a derived tier (a shorter board is embedded first)
//
// The tiers of one level never read each other, so they run side by side: many small tiers
// keep both cores busy where one of them alone would not fill a task. Memory is the tiers
// in flight (the current level and the levels it reads), not the space. The hot loop reads
// finished tiers only: no counters, atomics or locks, and the result does not depend on the
// thread count or the order in which a level's tiers finish.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "solver/core/game.hpp"
#include "solver/core/progress.hpp"
#include "solver/core/record.hpp"
#include "solver/core/store.hpp"

namespace toadbase {

struct SolveStats {
  uint64_t positions_solved = 0;
  uint64_t tiers_solved = 0;
  uint64_t tiers_skipped = 0;
  uint64_t peak_bytes_in_flight = 0;
};

/// What verify found: ok, or the first problem (naming the tier, index and position).
struct VerifyReport {
  bool ok = true;
  uint64_t positions_checked = 0;
  uint64_t positions_probed = 0;  // of those, probed again as a lookup does
  std::string problem;
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

// ---- a tier's parts --------------------------------------------------------------------

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

// ---- the walker ------------------------------------------------------------------------

/// Which tiers read which, and in which order the walk takes them.
struct TierPlan {
  std::vector<std::vector<TierId>> reads;     // [t]: its child tiers, then its tail's source
  std::vector<uint32_t> level;                // [t]
  std::vector<std::vector<TierId>> by_level;  // [L]: the tiers of level L, in id order
  std::vector<uint32_t> last_level;           // [t]: the last level that reads t (0: none)
};

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

/// Each tier's level (a tail's source may come later in id order, so levels are found by a
/// depth-first walk).
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

template <TierGame G>
TierPlan plan_tiers(const G& game) {
  TierPlan p;
  const TierId n = game.tier_count();
  p.reads = tier_reads(game);
  p.level = tier_levels(game, p.reads);
  const uint32_t levels = n ? *std::max_element(p.level.begin(), p.level.end()) + 1 : 0;
  p.by_level.resize(levels);
  for (TierId t = 0; t < n; ++t) p.by_level[p.level[t]].push_back(t);
  p.last_level.assign(n, 0);
  for (TierId t = 0; t < n; ++t)
    for (TierId c : p.reads[t]) p.last_level[c] = std::max(p.last_level[c], p.level[t]);
  return p;
}

/// Walks the tier DAG level by level, lowest first, holding in memory the tiers a later
/// level reads (see the top of this file).
class TierWalk {
 public:
  /// A committed tier's whole records, recovered (from the store, or rebuilt from tiers it
  /// reads, which `hold` gives).
  using Fetch = std::function<std::vector<Record>(TierId, const std::function<const Record*(TierId)>& hold)>;

  explicit TierWalk(TierPlan plan) : plan_(std::move(plan)), held_(plan_.reads.size()) {}

  const TierPlan& plan() const { return plan_; }
  /// The records of a tier held in memory (a tier the current level reads).
  const Record* held(TierId t) const { return held_[t].data(); }
  /// The most record bytes in memory at once.
  uint64_t peak_bytes() const { return peak_; }

  /// `skip(t)`: true to pass the tier over. `fetch`: a tier the level reads that the walk
  /// did not compute. `work(t) -> std::vector<Record>`: the tier's whole records (called
  /// for a level's tiers side by side, so it must be thread-safe).
  template <class Skip, class Work>
  void run(Skip&& skip, const Fetch& fetch, Work&& work) {
    const uint32_t levels = static_cast<uint32_t>(plan_.by_level.size());
    std::vector<std::vector<TierId>> free_after(levels);  // [L]: tiers no level after L reads
    for (TierId t = 0; t < plan_.reads.size(); ++t)
      if (plan_.last_level[t] > 0) free_after[plan_.last_level[t]].push_back(t);
    std::vector<TierId> todo, loaded;
    std::function<const Record*(TierId)> hold = [&](TierId c) -> const Record* {
      if (held_[c].empty()) {
        held_[c] = fetch(c, hold);
        bytes_ += held_[c].size();
        loaded.push_back(c);
      }
      return held_[c].data();
    };
    for (uint32_t L = 0; L < levels; ++L) {
      todo.clear();
      for (TierId t : plan_.by_level[L])
        if (!skip(t)) todo.push_back(t);
      // tiers computed before this run, before the parallel part (which only reads them)
      loaded.clear();
      for (TierId t : todo)
        for (TierId c : plan_.reads[t]) hold(c);
      std::atomic<uint64_t> level_bytes{0};
      tbb::parallel_for(size_t{0}, todo.size(), [&](size_t k) {
        const TierId t = todo[k];
        std::vector<Record> records = work(t);
        level_bytes += records.size();  // in flight at the level's peak, kept or not
        if (plan_.last_level[t] > L) held_[t] = std::move(records);  // index t: this task alone
      });
      peak_ = std::max(peak_, bytes_ + level_bytes.load());
      for (TierId t : todo) bytes_ += held_[t].size();
      // free every tier no later level reads (also those whose readers were skipped, and
      // sources recovered only to rebuild a tail)
      auto release = [&](TierId c) {
        if (!held_[c].empty()) {
          bytes_ -= held_[c].size();
          std::vector<Record>().swap(held_[c]);
        }
      };
      for (TierId c : free_after[L]) release(c);
      for (TierId c : loaded)
        if (plan_.last_level[c] <= L) release(c);
    }
  }

 private:
  TierPlan plan_;
  std::vector<std::vector<Record>> held_;
  uint64_t bytes_ = 0, peak_ = 0;
};

// ---- solve -----------------------------------------------------------------------------

/// Solve one tier into `out` given its child tiers' records (and, for a tier with a tail,
/// its tail source's records).
template <TierGame G, class Rec = ParityRecord>
void solve_tier(const G& game, TierId tier, const std::vector<const Record*>& child_records,
                std::vector<Record>& out, const Record* tail_records = nullptr) {
  const uint64_t size = game.tier_size(tier), prefix = tier_prefix(game, tier);
  out.assign(size, 0);
  std::atomic<bool> overflow{false};
  tbb::parallel_for(tbb::blocked_range<uint64_t>(0, prefix, kScanGrain), [&](const tbb::blocked_range<uint64_t>& r) {
    typename Rec::Accumulator acc{child_records.data(), out.data()};
    game.scan(tier, r.begin(), r.end(), acc);
    if (acc.overflow) overflow.store(true, std::memory_order_relaxed);
  });
  if (overflow.load())
    throw std::overflow_error("remoteness above " + std::to_string(kMaxRemoteness) + " in tier " + game.tier_name(tier));
  if (prefix < size) {
    if (!tail_records) throw std::logic_error("tier " + game.tier_name(tier) + ": its tail's source is not in memory");
    fill_tail(game, tier, tail_records, out.data());
  }
}

/// The whole records of a tier an earlier run committed: loaded, or for a derived tier
/// recomputed from its children; a tail is copied from its source. `fetch(id)` gives the
/// whole records of another committed tier (a child of a derived tier, a tail's source);
/// without it they are recovered the same way, each once.
template <TierGame G, class Rec = ParityRecord>
std::vector<Record> recover_tier(const G& game, const TierSource& source, TierId t,
                                 const std::function<const Record*(TierId)>& fetch = {}) {
  if (!fetch) {
    std::map<TierId, std::vector<Record>> memo;  // a derived tier's chain reads tiers twice
    std::function<const Record*(TierId)> own = [&](TierId c) -> const Record* {
      auto it = memo.find(c);
      if (it == memo.end()) it = memo.emplace(c, recover_tier<G, Rec>(game, source, c, own)).first;
      return it->second.data();
    };
    return recover_tier<G, Rec>(game, source, t, own);
  }
  const uint64_t size = game.tier_size(t), prefix = tier_prefix(game, t);
  std::vector<Record> out;
  if (tier_stored(game, t)) {
    if (prefix > 0) out = source.load<Record>(t);  // else all of it is tail: nothing kept
    if (out.size() == size) return out;           // kept whole (an older database): no tail to fill
    if (out.size() != prefix) throw std::runtime_error("stored tier " + game.tier_name(t) + " has the wrong size");
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
  TierWalk walk(plan_tiers(game));
  const TierPlan& plan = walk.plan();
  // a tier counts as done when the store holds it and, for a tail, its source is done (a
  // crash may keep a tier's group and lose its source's): levels put sources first
  std::vector<char> done(plan.reads.size(), 0);
  for (const auto& tiers : plan.by_level)
    for (TierId t : tiers) done[t] = store.has_tier(t) && (!has_tail(game, t) || done[tail_source(game, t)]);
  SolveStats stats;
  std::mutex report_mu;  // progress and stats, from the level's tasks
  walk.run(
      [&](TierId t) {
        if (!done[t]) return false;
        ++stats.tiers_skipped;
        if (progress) progress->tier_done(game.tier_name(t), game.tier_size(t), true);
        return true;
      },
      [&](TierId c, const std::function<const Record*(TierId)>& hold) { return recover_tier<G, Rec>(game, store, c, hold); },
      [&](TierId t) {
        std::vector<const Record*> kids;
        for (TierId c : game.child_tiers(t)) kids.push_back(walk.held(c));
        const Record* tail = has_tail(game, t) ? walk.held(tail_source(game, t)) : nullptr;
        std::vector<Record> records;
        solve_tier<G, Rec>(game, t, kids, records, tail);
        store.commit(t, records, records_kept(game, t));
        std::lock_guard lock(report_mu);
        stats.positions_solved += records.size();
        ++stats.tiers_solved;
        if (progress) progress->tier_done(game.tier_name(t), records.size(), false);
        return records;
      });
  stats.peak_bytes_in_flight = walk.peak_bytes();
  return stats;
}

// ---- probe -----------------------------------------------------------------------------

/// The position itself, or the game's equivalent of it inside the space (a shorter board
/// padded with pieces that never move); nothing when the space holds no equivalent.
template <TierGame G>
std::optional<typename G::Position> embedded(const G& game, const typename G::Position& p) {
  if constexpr (requires { game.embed(p); }) {
    return game.embed(p);
  } else if constexpr (requires { game.contains(p); }) {
    if (game.contains(p)) return p;
    return std::nullopt;
  } else {
    return p;
  }
}

/// The record of a position of the space, read through the source as every lookup does:
/// canonical(p) (a tail position: its stored equivalent; a mirror), then its stored record,
/// or for a derived tier the combination of its children's stored records (one ply).
template <TierGame G, class Rec = ParityRecord>
unsigned probe_record(const G& game, const TierSource& source, const typename G::Position& given) {
  const typename G::Position p = canonical(game, given);
  const TierIndex ti = game.rank(p);
  if (tier_stored(game, ti.tier)) return source.record<Record>(ti.tier, ti.index);
  std::vector<unsigned> recs;
  for (const auto& c : game.children(p)) {
    const TierIndex ci = game.rank(canonical(game, c));
    recs.push_back(source.record<Record>(ci.tier, ci.index));
  }
  return record_from_children<Rec>(game, p, static_cast<unsigned>(recs.size()), [&](unsigned k) { return recs[k]; });
}

/// The value of any position the space holds or embeds; std::invalid_argument otherwise.
template <TierGame G, class Rec = ParityRecord>
Outcome probe(const G& game, const TierSource& source, const typename G::Position& given) {
  const auto inside = embedded(game, given);
  if (!inside) throw std::invalid_argument("the position lies outside the space");
  return Rec::decode(static_cast<Record>(probe_record<G, Rec>(game, source, *inside)));
}

// ---- whole tiers for a pass over the database -------------------------------------------

/// Every tier's whole records (derived tiers and tails rebuilt), for analyze and export:
/// a memo of recent tiers (a tail's source, a derived tier's children are read again by
/// the tiers after them). Thread-safe.
template <TierGame G, class Rec = ParityRecord>
class TierReader {
 public:
  TierReader(const G& game, const TierSource& source, uint64_t memo_bytes = uint64_t{256} << 20)
      : game_(game), source_(source), memo_cap_(memo_bytes) {}

  std::vector<Record> records(TierId t) const {
    // this tier and those it reads go through the memo, pinned for this call
    std::vector<std::shared_ptr<const std::vector<Record>>> pinned;
    std::function<const Record*(TierId)> fetch = [&](TierId c) -> const Record* {
      std::shared_ptr<const std::vector<Record>> recs;
      {
        std::lock_guard lock(mu_);
        for (const auto& [id, r] : memo_)
          if (id == c) recs = r;
      }
      if (!recs) {
        recs = std::make_shared<const std::vector<Record>>(recover_tier<G, Rec>(game_, source_, c, fetch));
        std::lock_guard lock(mu_);
        memo_.push_back({c, recs});
        memo_bytes_ += recs->size();
        while (memo_bytes_ > memo_cap_ && memo_.size() > 1) {
          memo_bytes_ -= memo_.front().second->size();
          memo_.pop_front();
        }
      }
      pinned.push_back(recs);
      return recs->data();
    };
    const Record* r = fetch(t);
    return std::vector<Record>(r, r + game_.tier_size(t));
  }

 private:
  const G& game_;
  const TierSource& source_;
  uint64_t memo_cap_;
  mutable std::mutex mu_;
  mutable std::deque<std::pair<TierId, std::shared_ptr<const std::vector<Record>>>> memo_;
  mutable uint64_t memo_bytes_ = 0;
};

// ---- verify ----------------------------------------------------------------------------

/// How many positions of each tier verify probes again as a lookup does (every position of
/// a space of at most kProbeAllBelow positions).
inline constexpr uint64_t kProbesPerTier = 64;
inline constexpr uint64_t kProbeAllBelow = uint64_t{1} << 20;

/// Recomputes every record of the space from its children through the generic path
/// (unrank, children, rank: not the hot loop), compares it with the source's stored
/// records and every tier's digest, then probes a sample of each tier's positions through
/// `lookup(position) -> Outcome` (the path a query takes: the position's string parsed
/// back, then probe()) and compares with the recomputed record. `name(position)` writes
/// positions in reports. Call inside with_threads().
template <TierGame G, class Rec, class Lookup, class Name>
VerifyReport verify_tiers(const G& game, const TierSource& source, Progress* progress, Lookup&& lookup, Name&& name) {
  using Position = typename G::Position;
  VerifyReport rep;
  TierWalk walk(plan_tiers(game));
  const bool probe_all = [&] {
    uint64_t total = 0;
    for (TierId t = 0; t < game.tier_count(); ++t) total += game.tier_size(t);
    return total <= kProbeAllBelow;
  }();
  std::mutex mu;
  TierId bad_tier = UINT32_MAX;  // the first problem: lowest tier, then lowest index
  uint64_t bad_index = 0;
  auto fail = [&](TierId t, uint64_t i, std::string what) {
    std::lock_guard lock(mu);
    if (t < bad_tier || (t == bad_tier && i < bad_index)) {
      bad_tier = t;
      bad_index = i;
      rep.ok = false;
      rep.problem = std::move(what);
    }
  };
  auto at = [&](TierId t, uint64_t i, const Position& p) {
    return "tier " + game.tier_name(t) + " index " + std::to_string(i) + " (" + name(p) + ")";
  };
  auto outcome_text = [](Outcome o) { return std::string(value_name(o.value)) + " in " + std::to_string(o.remoteness); };
  // a failed level ends the walk: the levels above read its records
  auto work = [&](TierId t) -> std::vector<Record> {
    const bool is_stored = tier_stored(game, t);
    const uint64_t size = game.tier_size(t);
    std::vector<Record> mine(size), stored;
    try {
      if (!source.has_tier(t)) throw std::runtime_error("is not committed");
      if (source.tier_positions(t) != size)
        throw std::runtime_error("holds " + std::to_string(source.tier_positions(t)) + " records, the space has " +
                                 std::to_string(size));
      if (is_stored) stored = source.load<Record>(t);  // checks block digests
      if (is_stored && stored.size() < records_kept(game, t))
        throw std::runtime_error("keeps " + std::to_string(stored.size()) + " records, lookups need " +
                                 std::to_string(records_kept(game, t)));
    } catch (const std::exception& e) {
      fail(t, 0, std::string(e.what()) + " (tier " + game.tier_name(t) + ")");
      return mine;
    }
    const std::vector<TierId> kids = game.child_tiers(t);
    std::atomic<bool> bad{false};
    tbb::parallel_for(tbb::blocked_range<uint64_t>(0, size, 4096), [&](const tbb::blocked_range<uint64_t>& r) {
      std::vector<unsigned> recs;
      for (uint64_t i = r.begin(); i != r.end(); ++i) {
        const Position p = game.unrank(t, i);
        if (!(game.rank(p) == TierIndex{t, i})) {
          fail(t, i, "tier " + game.tier_name(t) + " index " + std::to_string(i) + ": rank(unrank) does not come back (" +
                         name(p) + ")");
          bad = true;
          return;
        }
        recs.clear();
        for (const auto& c : game.children(p)) {
          const TierIndex ci = game.rank(c);
          if (std::find(kids.begin(), kids.end(), ci.tier) == kids.end()) {
            fail(t, i, at(t, i, p) + ": child " + name(c) + " lies outside the child tiers");
            bad = true;
            return;
          }
          recs.push_back(walk.held(ci.tier)[ci.index]);
        }
        const unsigned want =
            record_from_children<Rec>(game, p, static_cast<unsigned>(recs.size()), [&](unsigned k) { return recs[k]; });
        if (want > kMaxRemoteness) {
          fail(t, i, at(t, i, p) + ": remoteness overflows the record");
          bad = true;
          return;
        }
        mine[i] = static_cast<Record>(want);
        if (i < stored.size() && mine[i] != stored[i]) {
          fail(t, i, at(t, i, p) + ": stored " + outcome_text(Rec::decode(stored[i])) + ", recomputed " +
                         outcome_text(Rec::decode(mine[i])));
          bad = true;
          return;
        }
      }
    });
    if (bad) return mine;
    if (!source.matches_digest(t, mine.data(), mine.size())) {
      fail(t, 0, "tier " + game.tier_name(t) +
                     (is_stored ? std::string(" (its tail, copied from another tier)") : std::string(" (derived, not stored)")) +
                     ": its recomputed records do not match the digest the solve recorded");
      return mine;
    }
    // the path users take: a sample of the tier's positions looked up as query does
    const uint64_t probes = probe_all ? size : std::min(size, kProbesPerTier);
    for (uint64_t k = 0; k < probes; ++k) {
      const uint64_t i = probe_all ? k : (size * k) / probes + (k * 7919) % std::max<uint64_t>(1, size / probes);
      const Position p = game.unrank(t, i);
      std::string problem;
      try {
        const Outcome got = lookup(p), want = Rec::decode(mine[i]);
        if (!(got == want)) problem = "looked up as " + outcome_text(got) + ", recomputed " + outcome_text(want);
      } catch (const std::exception& e) {
        problem = std::string("the lookup fails: ") + e.what();
      }
      if (!problem.empty()) {
        fail(t, i, at(t, i, p) + ": " + problem);
        return mine;
      }
    }
    std::lock_guard lock(mu);
    rep.positions_checked += size;
    rep.positions_probed += probes;
    if (progress) progress->tier_done(game.tier_name(t), size, false);
    return mine;
  };
  walk.run([&](TierId) { return !rep.ok; },  // after a failure the remaining levels are passed over
           [&](TierId t, const std::function<const Record*(TierId)>&) -> std::vector<Record> {
             throw std::logic_error("verify: tier " + game.tier_name(t) + " was not recomputed before its readers");
           },
           work);
  return rep;
}

}  // namespace toadbase
