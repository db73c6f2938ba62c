// Solve: every tier the store does not hold yet, level by level along the walk (walk.hpp),
// each tier a pass of the game's scan over its prefix (the hot loop: records combined from
// its children's records) and its tail copied from its source; committed to the store.
// A resumed solve passes committed tiers over and recovers those a later tier reads.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "solver/core/distribute.hpp"
#include "solver/core/game.hpp"
#include "solver/core/ledger.hpp"
#include "solver/core/packed.hpp"
#include "solver/core/progress.hpp"
#include "solver/core/record.hpp"
#include "solver/core/results.hpp"
#include "solver/core/schedule.hpp"
#include "solver/core/store.hpp"
#include "solver/core/threads.hpp"
#include "solver/core/transport.hpp"
#include "solver/core/walk.hpp"

namespace toadbase {

/// Positions handed to one task of the parallel loop: big enough to amortise the task,
/// small enough to balance two cores on small tiers.
inline constexpr uint64_t kScanGrain = 8192;

/// Records [lo, hi) of a tier: the scanned prefix's part, each task's range by the game's scan
/// into the accumulator `make()` gives it, then the tail (`fill()`) when the range takes it
/// (`has_source`: its source is here).
template <TierGame G, class Rec, class Make, class Fill>
void solve_parts(const G& game, TierId tier, uint64_t lo, uint64_t hi, Make&& make, bool has_source, Fill&& fill) {
  const uint64_t size = game.tier_size(tier), prefix = tier_prefix(game, tier);
  const uint64_t scan_hi = std::min(hi, prefix);
  std::atomic<bool> overflow{false};
  if (lo < scan_hi)
    tbb::parallel_for(tbb::blocked_range<uint64_t>(lo, scan_hi, kScanGrain), [&](const tbb::blocked_range<uint64_t>& r) {
      auto acc = make();
      game.scan(tier, r.begin(), r.end(), acc);
      if (acc.overflowed()) overflow.store(true, std::memory_order_relaxed);
    });
  if (overflow.load())
    throw std::overflow_error("remoteness above " + std::to_string(kMaxStored<Rec>) + " in tier " + game.tier_name(tier));
  if (hi == size && prefix < size) {
    if (!has_source) throw std::logic_error("tier " + game.tier_name(tier) + ": its tail's source is not in memory");
    fill();
  }
}

/// Records [lo, hi) of a tier into out[lo, hi) (`out` spans the whole tier) from its child
/// tiers' records (and, when the range takes the tail, hi == size, its tail source's).
template <TierGame G, class Rec = ParityRecord>
void solve_range(const G& game, TierId tier, uint64_t lo, uint64_t hi,
                 const std::vector<const typename Rec::Storage*>& child_records, typename Rec::Storage* out,
                 const typename Rec::Storage* tail_records = nullptr) {
  solve_parts<G, Rec>(
      game, tier, lo, hi, [&] { return typename Rec::Accumulator{child_records, out}; }, tail_records != nullptr,
      [&] { fill_tail(game, tier, tail_records, out); });
}

/// A record whose accumulator reads children held packed (packed.hpp's HeldChildren).
template <class Rec>
concept PackableRecord = requires { typename Rec::template AccumulatorOf<HeldChildren<typename Rec::Storage>>; };

/// Whether a solve of game G in records Rec may hold its finished tiers packed: the record
/// reads packed children, and a game with tails copies them from a packed source a row at a
/// time (fill_tail_rows). Otherwise its tiers are held raw whatever the budget (a budget only
/// packing keeps is refused, naming the smallest raw tiers keep).
template <class G, class Rec>
constexpr bool holds_packed() {
  if constexpr (!PackableRecord<Rec>) {
    return false;
  } else {
    using S = typename Rec::Storage;
    constexpr bool tails = requires(const G& g, TierId t) { g.tier_prefix(t); };
    constexpr bool rows = requires(const G& g, TierId t, const RecordRows<S>& r, S* o) { g.fill_tail_rows(t, r, o); };
    return !tails || rows;
  }
}

/// The tail of tier t from its source held raw or packed (a packed source read a row at a
/// time through each thread's cache: the game's fill_tail_rows; a game without it never
/// holds its tiers packed: holds_packed).
template <TierGame G, class S>
void fill_tail_held(const G& game, TierId t, const HeldRecords<S>& source,
                    tbb::enumerable_thread_specific<UnpackedBlocks>& caches, S* out) {
  if (source.raw) return fill_tail(game, t, source.raw, out);
  if constexpr (requires(const RecordRows<S>& rows) { game.fill_tail_rows(t, rows, out); }) {
    const RecordRows<S> rows = [&](uint64_t first, uint64_t count, std::vector<S>& scratch) {
      HeldRecords<S> mine = source;
      mine.cache = &caches.local();
      return mine.run(first, count, scratch);
    };
    game.fill_tail_rows(t, rows, out);
  } else {
    throw std::logic_error("tier " + game.tier_name(t) + ": its tail's source is held packed (holds_packed is false)");
  }
}

/// solve_range's twin for a walk that holds finished tiers packed: the children and the
/// tail's source, each raw or packed, read through each thread's cache of unpacked blocks.
/// Never inlined: a game may compile it in a unit of its own (an explicit instantiation), so
/// that its scan does not change how the compiler builds the natural one beside it (Toads and
/// Frogs: in one unit with it, the natural scan took 32.2 instructions a position, not 31.9).
template <TierGame G, PackableRecord Rec, class S = typename Rec::Storage>
[[gnu::noinline]] void solve_range_held(const G& game, TierId tier, uint64_t lo, uint64_t hi, const std::vector<HeldRecords<S>>& kids,
                      S* out, const HeldRecords<S>* tail, tbb::enumerable_thread_specific<UnpackedBlocks>& caches) {
  constexpr size_t kSlots = 8;
  if (kids.size() > kSlots) throw std::logic_error("tier " + game.tier_name(tier) + " reads more child tiers than a packed scan holds");
  // each task's readers, the thread's cache set: its own (they remember where they found blocks)
  using Mine = std::array<HeldRecords<S>, kSlots>;
  tbb::enumerable_thread_specific<Mine> readers;
  solve_parts<G, Rec>(
      game, tier, lo, hi,
      [&] {
        Mine& mine = readers.local();
        UnpackedBlocks* cache = &caches.local();
        for (size_t k = 0; k < kids.size(); ++k) mine[k] = {kids[k].raw, kids[k].packed, cache};
        return typename Rec::template AccumulatorOf<HeldChildren<S>>{HeldChildren<S>{mine.data()}, out};
      },
      tail != nullptr, [&] { fill_tail_held(game, tier, *tail, caches, out); });
}

/// Solve one tier into `out` given its child tiers' records (and, for a tier with a tail,
/// its tail source's records).
template <TierGame G, class Rec = ParityRecord>
void solve_tier(const G& game, TierId tier, const std::vector<const typename Rec::Storage*>& child_records,
                std::vector<typename Rec::Storage>& out, const typename Rec::Storage* tail_records = nullptr) {
  out.assign(game.tier_size(tier), 0);
  solve_range<G, Rec>(game, tier, 0, out.size(), child_records, out.data(), tail_records);
}

/// What recovering a committed tier t reads: the source of its tail (unless the store kept
/// the tier whole), and for a derived tier its children. Throws when the store keeps a stored
/// tier neither whole nor up to its tail.
struct RecoveryReads {
  std::optional<TierId> tail;    // the tail's source
  std::vector<TierId> children;  // a derived tier's (solved again from them)
  bool load = false;             // a stored tier with records in the store
};

template <TierGame G>
RecoveryReads recovery_of(const G& game, const TierSource& source, TierId t) {
  const uint64_t size = game.tier_size(t), prefix = tier_prefix(game, t);
  RecoveryReads r;
  if (tier_stored(game, t)) {
    const uint64_t kept = prefix > 0 ? source.tier_kept(t) : 0;  // all of it tail: nothing kept
    if (kept != size && kept != prefix)  // kept whole: an older database, no tail to fill
      throw std::runtime_error("stored tier " + game.tier_name(t) + " has the wrong size");
    if (kept < size) r.tail = tail_source(game, t);
    r.load = kept > 0;
  } else {
    if (prefix < size) r.tail = tail_source(game, t);
    r.children = game.child_tiers(t);
  }
  return r;
}

/// The same as a list, in the order recover_into fetches them (the tail's source first: a
/// chain of derived tails is then rebuilt from its far end, each link whole before the next
/// needs it).
template <TierGame G>
std::vector<TierId> recovery_reads(const G& game, const TierSource& source, TierId t) {
  const RecoveryReads r = recovery_of(game, source, t);
  std::vector<TierId> reads;
  if (r.tail) reads.push_back(*r.tail);
  reads.insert(reads.end(), r.children.begin(), r.children.end());
  return reads;
}

/// The whole records of a tier an earlier run committed into `out` (the tier's size):
/// loaded, or for a derived tier recomputed from its children; a tail is copied from its
/// source. `fetch(id)` gives the whole records of another committed tier: those
/// recovery_reads names, in its order.
template <TierGame G, class Rec = ParityRecord>
void recover_into(const G& game, const TierSource& source, TierId t,
                  const std::function<const typename Rec::Storage*(TierId)>& fetch, typename Rec::Storage* out) {
  using R = typename Rec::Storage;
  const RecoveryReads r = recovery_of(game, source, t);
  const R* tail = r.tail ? fetch(*r.tail) : nullptr;
  if (tier_stored(game, t)) {
    if (r.load) {
      if (source.record_bytes() != sizeof(R))
        throw std::logic_error("records of " + std::to_string(sizeof(R)) + " bytes read from a store of " +
                               std::to_string(source.record_bytes()) + "-byte records");
      source.load_tier(t, out);
    }
    if (tail) fill_tail(game, t, tail, out);
  } else {
    std::vector<const R*> kids;
    for (TierId c : r.children) kids.push_back(fetch(c));
    solve_range<G, Rec>(game, t, 0, game.tier_size(t), kids, out, tail);
  }
}

/// The same into a new array, made once what it reads is there (so a chain of tails is
/// never a chain of arrays waiting for their sources); without `fetch` the tiers it reads
/// are recovered the same way, each once.
template <TierGame G, class Rec = ParityRecord>
std::vector<typename Rec::Storage> recover_tier(const G& game, const TierSource& source, TierId t,
                                                const std::function<const typename Rec::Storage*(TierId)>& fetch = {}) {
  using R = typename Rec::Storage;
  if (!fetch) {
    std::map<TierId, std::vector<R>> memo;  // a derived tier's chain reads tiers twice
    std::function<const R*(TierId)> own = [&](TierId c) -> const R* {
      auto it = memo.find(c);
      if (it == memo.end()) it = memo.emplace(c, recover_tier<G, Rec>(game, source, c, own)).first;
      return it->second.data();
    };
    return recover_tier<G, Rec>(game, source, t, own);
  }
  for (TierId d : recovery_reads(game, source, t)) fetch(d);
  std::vector<R> out(game.tier_size(t));
  recover_into<G, Rec>(game, source, t, fetch, out.data());
  return out;
}

/// Records [lo, hi) of tier t into out (the whole tier) from the tiers the walk holds: its
/// children, and its tail's source when the range takes the tail. A solve's step, and a
/// read's for a derived tier.
template <TierGame G, class Rec, class R = typename Rec::Storage>
void solve_from_held(const G& game, const TierWalk<R>& walk, TierId t, uint64_t lo, uint64_t hi, R* out) {
  const TierPlan& plan = walk.plan();
  if (walk.packing()) {  // some of what it reads may be packed
    if constexpr (PackableRecord<Rec>) {
      std::vector<HeldRecords<R>> kids;
      for (TierId c : game.child_tiers(t)) kids.push_back(walk.held_records(c));
      std::optional<HeldRecords<R>> tail;
      if (hi == plan.size[t] && plan.tail[t]) tail = walk.held_records(tail_source(game, t));
      return solve_range_held<G, Rec>(game, t, lo, hi, kids, out, tail ? &*tail : nullptr, walk.caches());
    } else {
      throw std::logic_error("records of " + std::string(Rec::kName) + " are not read packed");
    }
  }
  std::vector<const R*> kids;
  for (TierId c : game.child_tiers(t)) kids.push_back(walk.held(c));
  const R* tail = hi == plan.size[t] && plan.tail[t] ? walk.held(tail_source(game, t)) : nullptr;
  solve_range<G, Rec>(game, t, lo, hi, kids, out, tail);
}

/// The tiers an earlier run committed, as far as a resumed solve may pass them over: the
/// store holds the tier and every tier its recovery reads is done too (the source of its
/// tail, and for a derived tier its children: a crash may keep a tier's group and lose
/// theirs; levels put them first). So recovering a done tier reads the store only, never a
/// tier another rank is solving.
template <TierGame G>
std::vector<char> committed_tiers(const G& game, const TierPlan& plan, const TierStore& store) {
  std::vector<char> done(plan.reads.size(), 0);
  for (const auto& tiers : plan.by_level)
    for (TierId t : tiers) {
      done[t] = store.has_tier(t);
      if (tier_stored(game, t)) {
        if (has_tail(game, t)) done[t] = done[t] && done[tail_source(game, t)];
      } else {
        // a derived tier over a derived child is solved again, not recovered: recovering it
        // would rebuild the whole chain below it at once (a resume held ten times a fresh
        // solve's tiers in flight); solved in its level, its children are already held. Its
        // tail's source may be derived, and that one's too (Toads and Frogs: a chain as long
        // as the toads); the walk rebuilds such a chain from its far end and lets each link
        // go once the next is whole (TierWalk's hold).
        for (TierId c : game.child_tiers(t)) done[t] = done[t] && done[c] && tier_stored(game, c);
        if (has_tail(game, t)) done[t] = done[t] && done[tail_source(game, t)];
      }
    }
  return done;
}

/// The plan of this solve, the same on every rank: rank 0 tells every rank which tiers are
/// done (`done`, filled in on the others), the ranks share their thread counts and memory
/// budgets, the levels move to keep the smallest budget when they must (schedule.hpp:
/// `plan` changes then), and each checks that all made the same plan.
inline Distribution agree_on_plan(TierPlan& plan, std::vector<char>& done, Transport* transport,
                                  CostModel model, uint64_t record_bytes) {
  const TierId n = static_cast<TierId>(plan.reads.size());
  const int ranks = transport ? transport->ranks() : 1;
  model.record_bytes = static_cast<decltype(model.record_bytes)>(record_bytes);
  const uint64_t threads = static_cast<uint64_t>(tbb::this_task_arena::max_concurrency());
  model.threads.assign(static_cast<size_t>(ranks), static_cast<int>(threads));
  if (transport && ranks > 1) {
    std::vector<uint8_t> bytes(done.begin(), done.end());
    transport->broadcast(bytes);
    if (bytes.size() != n) throw std::runtime_error("rank 0 solves a space of " + std::to_string(bytes.size()) + " tiers, this rank one of " + std::to_string(n));
    done.assign(bytes.begin(), bytes.end());
    const std::vector<uint64_t> all = transport->all_gather(std::span<const uint64_t>(&threads, 1));
    for (size_t r = 0; r < all.size(); ++r) model.threads[r] = static_cast<int>(all[r]);
    // one schedule on every rank: the smallest budget any rank was given (0: none)
    uint64_t least = 0;
    for (uint64_t b : transport->all_gather(std::span<const uint64_t>(&model.memory_budget, 1)))
      if (b && (!least || b < least)) least = b;
    model.memory_budget = least;
  }
  Distribution dist = distribute_within_budget(plan, done, ranks, model);
  if (transport && ranks > 1) {
    const uint64_t mine = dist.hash();
    for (uint64_t h : transport->all_gather(std::span<const uint64_t>(&mine, 1)))
      if (h != mine)
        throw std::runtime_error("the ranks made different plans of the solve (not the same toadbase on every rank?)");
  }
  // the command refuses a budget no schedule keeps before it opens the database; this plan
  // may differ from the one it checked (the ranks' real thread counts, the tiers done), and
  // every rank sees the same figure here
  if (model.memory_budget && dist.busiest_peak() > model.memory_budget)
    throw std::runtime_error("the plan holds " + std::to_string(dist.busiest_peak()) +
                             " bytes of records at once on its busiest rank, more than the memory budget of " +
                             std::to_string(model.memory_budget) + " (and no schedule of whole components keeps it)");
  return dist;
}

/// Solve every tier the store does not hold yet. Call inside with_threads(). With a
/// transport, as one rank of a distributed solve: rank 0 holds the store (the other ranks
/// pass none) and commits every tier; every rank returns its own share in the stats.
/// In one process, after request_stop() no further level starts; the tiers in progress are
/// committed, then it throws Interrupted.
template <TierGame G, class Rec = ParityRecord>
SolveStats solve_tiers(const G& game, TierStore* store, const TierPacker* packer, Progress* progress,
                       Transport* transport, CostModel model = {}) {
  using R = typename Rec::Storage;
  const int me = transport ? transport->rank() : 0;
  if (me == 0 && !store) throw std::logic_error("rank 0 of a solve needs the store");
  if (me != 0 && !packer) throw std::logic_error("rank " + std::to_string(me) + " of a solve needs a packer");
  if (store && store->record_bytes() != sizeof(R))
    throw std::logic_error("records of " + std::to_string(sizeof(R)) + " bytes solved into a store of " +
                           std::to_string(store->record_bytes()) + "-byte records");
  if constexpr (!holds_packed<G, Rec>()) model.packed_permille = 0;  // its tiers are held raw
  TierPlan levels = plan_tiers(game);
  std::vector<char> done = me == 0 ? committed_tiers(game, levels, *store) : std::vector<char>(levels.reads.size(), 0);
  const Distribution dist = agree_on_plan(levels, done, transport, model, sizeof(R));
  TierWalk<R> walk(std::move(levels));
  const TierPlan& plan = walk.plan();
  if (dist.packed) {
    if (!store || !store->record_codec()) throw std::logic_error("the plan holds tiers packed and the store has no codec");
    walk.pack_with(store->record_codec());
  }
  SolveStats stats;
  SolveLedger ledger(stats, progress);  // progress and stats, from the level's tasks
  auto committed = [&](TierId t) { ledger.solved(game.tier_name(t), plan.size[t]); };
  typename TierWalk<R>::Steps steps;
  steps.skip = [&](TierId t) {
    // a stop between levels in one process (the ranks of a distributed solve must stay in step)
    if (!transport && ledger.stopping()) return true;  // pass every remaining tier over
    if (!done[t]) return false;
    ledger.skipped(game.tier_name(t), game.tier_size(t));
    return true;
  };
  if (store) {
    steps.recovery_reads = [&](TierId c) { return recovery_reads(game, *store, c); };
    steps.fetch = [&](TierId c, const typename TierWalk<R>::Hold& hold) { return recover_tier<G, Rec>(game, *store, c, hold); };
  }
  steps.work = [&](TierId t, uint64_t lo, uint64_t hi, R* out) { solve_from_held<G, Rec>(game, walk, t, lo, hi, out); };
  steps.report = [&](TierId t, const R* whole) {
    store->commit(t, std::span<const R>(whole, plan.size[t]), plan.kept[t]);
    committed(t);
  };
  steps.report_held = [&](TierId t, const R* whole) {
    auto blocks = store->commit_tier_held(t, whole, plan.size[t], plan.kept[t]);
    committed(t);
    return blocks;
  };
  steps.pack = [&](TierId t, const R* whole) { return packer->pack(whole, plan.size[t], plan.kept[t]); };
  steps.report_packed = [&](TierId t, std::span<const uint8_t> packed) {
    store->commit_packed(t, packed, plan.size[t], plan.kept[t]);
    committed(t);
  };
  if (transport) {
    walk.run(steps, dist, *transport);
  } else {
    walk.run(steps, dist);
  }
  stats.peak_bytes_in_flight = walk.peak_bytes();
  stats.positions_computed = walk.positions_computed();
  stats.pieces_computed = walk.pieces_computed();
  stats.seconds_solving = walk.seconds_solving();
  stats.seconds_reporting = walk.seconds_reporting();
  stats.packed = dist.packed;
  stats.packed_permille = dist.packed ? model.packed_permille : 0;
  stats.packed_span = dist.packed ? dist.packed_span : 0;
  stats.bytes_packed_raw = walk.packed_raw_bytes();
  stats.bytes_packed = walk.packed_bytes();
  for (const UnpackedBlocks& c : walk.caches()) stats.blocks_unpacked += c.misses();
  stats.blocks_from_commits = walk.packed_blocks_given();
  if (transport) stats.seconds_waiting = transport->counters().seconds_waiting;
  ledger.finish();
  return stats;
}

/// Solve every tier the store does not hold yet, in this process (within model.memory_budget
/// when it is set). Call inside with_threads().
template <TierGame G, class Rec = ParityRecord>
SolveStats solve_tiers(const G& game, TierStore& store, Progress* progress, const CostModel& model = {}) {
  return solve_tiers<G, Rec>(game, &store, nullptr, progress, nullptr, model);
}

/// The plan of a pass over a solved store: a solve's levels, but a stored tier reads only
/// its tail's source (it is loaded), a derived one its children too (it is solved again).
template <TierGame G>
TierPlan plan_reading(const G& game) {
  TierPlan p = plan_tiers(game);
  for (TierId t = 0; t < game.tier_count(); ++t)
    if (tier_stored(game, t)) {
      if (p.tail[t]) {
        p.reads[t] = {tail_source(game, t)};
      } else {
        p.reads[t].clear();
      }
    }
  p.last_level = last_levels(p.reads, p.level);
  return p;
}

/// Every tier of a solved store, each whole once, level by level as a solve makes them
/// (plan_reading): a stored tier loaded (its tail copied from its source, held), a derived
/// one solved again from its children (held); the read's plan holds nothing else of theirs.
/// (A tier read only to make another is let go once no later level reads it.) `each(t, whole, held)` runs for the tiers of a level side by side, so it
/// must be thread-safe; `whole` (std::span of the tier's records) lives for the call, and
/// `held(c)` gives the records of a tier read to make t (a derived tier's children, a
/// tail's source). In memory at once: a tier and what makes it for each thread, and the
/// tiers a later level reads; never a chain of derived tiers. Returns the most record bytes
/// held.
template <TierGame G, class Rec, class Each>
uint64_t read_tiers(const G& game, const TierSource& source, Each&& each) {
  using R = typename Rec::Storage;
  TierWalk<R> walk(plan_reading(game));
  const TierPlan& plan = walk.plan();
  const auto held = [&walk, &game](TierId c) {
    const R* r = walk.held(c);
    if (!r && game.tier_size(c) > 0) throw std::logic_error("read: tier " + game.tier_name(c) + " is not held");
    return r;
  };
  const std::function<const R*(TierId)> fetch = held;
  typename TierWalk<R>::Steps steps;
  steps.skip = [](TierId) { return false; };
  steps.fetch = [&](TierId t, const typename TierWalk<R>::Hold&) -> std::vector<R> {
    throw std::logic_error("read: tier " + game.tier_name(t) + " was not read before its readers");
  };
  // each tier's own work isolated: a thread waiting inside it takes no other tier (and its
  // records) up meanwhile
  steps.work = [&](TierId t, uint64_t lo, uint64_t hi, R* out) {
    if (lo != 0 || hi != plan.size[t]) throw std::logic_error("read: tier " + game.tier_name(t) + " cut in pieces");
    tbb::this_task_arena::isolate([&] {
      if (tier_stored(game, t)) {
        recover_into<G, Rec>(game, source, t, fetch, out);
      } else {
        solve_from_held<G, Rec>(game, walk, t, lo, hi, out);
      }
    });
  };
  steps.report = [&](TierId t, const R* whole) {
    tbb::this_task_arena::isolate([&] { each(t, std::span<const R>(whole, plan.size[t]), held); });
  };
  walk.run(steps, distribute(plan, std::vector<char>(plan.size.size(), 0), 1, CostModel{}));
  return walk.peak_bytes();
}
}  // namespace toadbase
