// The tier engine: solve, verify and probe a loop-free game whose space is a DAG of tiers
// (solver/core/game.hpp). One walker of the tier DAG serves solve and verify:
//
//   level(t) = 0 for a tier that reads no tier, else 1 + the highest level of the tiers it
//              reads (its child tiers, and the source of its tail when it has one)
//   for each level, lowest first:
//       pass over the tiers the caller skips (a resumed solve: committed by an earlier run)
//       make sure every tier the level's tiers read is in memory (recovered if need be, or
//       in a distributed solve received from the rank that solved it)
//       run this rank's pieces of the level's tiers side by side, each parallel inside
//       (TBB); keep a tier while a later level here reads it, send it to the ranks that do
//       free every tier no later level reads
//
//   one process    every tier is one piece on rank 0, nothing is sent: the solve as it
//                  always was
//   distributed    the plan (distribute.hpp) says which rank solves which tier, or which
//                  piece of a large one; a finished piece goes to the ranks that read it
//                  (Transport), a finished tier to rank 0, which alone writes the store
//                  (packed where it was solved: TierPacker)
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
// thread count, the number of ranks or the order in which tiers finish.
//
// Records: a tier is an array of the record type's Storage (one byte for ParityRecord and
// PuzzleRecord, two for WideParityRecord): every function here takes the record type Rec and
// works on its Storage.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "solver/core/distribute.hpp"
#include "solver/core/game.hpp"
#include "solver/core/hash.hpp"
#include "solver/core/progress.hpp"
#include "solver/core/record.hpp"
#include "solver/core/results.hpp"
#include "solver/core/store.hpp"
#include "solver/core/threads.hpp"
#include "solver/core/transport.hpp"

namespace toadbase {

/// Positions handed to one task of the parallel loop: big enough to amortise the task,
/// small enough to balance two cores on small tiers.
inline constexpr uint64_t kScanGrain = 8192;

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
template <TierGame G, class R>
void fill_tail(const G& game, TierId t, const R* source, R* out) {
  if constexpr (requires { game.fill_tail(t, source, out); }) {
    game.fill_tail(t, source, out);
  } else {
    throw std::logic_error("tier " + game.tier_name(t) + " has a tail but the game cannot fill it");
  }
}

// ---- the walker ------------------------------------------------------------------------

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
  p.tail.resize(n);
  p.size.resize(n);
  p.prefix.resize(n);
  p.kept.resize(n);
  for (TierId t = 0; t < n; ++t) {
    p.tail[t] = has_tail(game, t);
    p.size[t] = game.tier_size(t);
    p.prefix[t] = tier_prefix(game, t);
    p.kept[t] = records_kept(game, t);
  }
  return p;
}

/// The messages of a distributed walk (the header of every Transport message).
struct WireHeader {
  // kReports: the tiers a rank finished for rank 0 in one level, packed (TierPacker), one
  // message: tier 0, lo = hi = 0, `count` tiers, the payload u64 tier, u64 bytes, the packed
  // bytes, for each. (3, a message a tier, kept the sender waiting on rank 0's reads.)
  enum Kind : uint32_t { kPiece = 1, kRecovered = 2, kReports = 4 };
  uint32_t kind = 0;
  TierId tier = 0;
  uint64_t lo = 0, hi = 0;  // records [lo, hi) of the tier
  uint64_t count = 0;       // kReports: the tiers in it
};

/// A batch of reports goes to rank 0 at the end of a level, or sooner once it holds this
/// many bytes.
inline constexpr uint64_t kReportBatchBytes = uint64_t{16} << 20;

/// Walks the tier DAG level by level, lowest first, holding in memory the tiers a later
/// level reads (see the top of this file). In a distributed solve every rank walks the same
/// levels and does its own pieces of them (distribute.hpp): the pieces it needs from other
/// ranks arrive through the Transport before it uses them, and its own go to the ranks that
/// read them as soon as they are done.
template <class R>
class TierWalk {
 public:
  using Hold = std::function<const R*(TierId)>;
  /// A committed tier's whole records, recovered (from the store, or rebuilt from tiers it
  /// reads, which `hold` gives).
  using Fetch = std::function<std::vector<R>(TierId, const Hold& hold)>;

  /// What the walk does with each tier.
  struct Steps {
    /// True to pass a tier over (asked once a tier, level by level; the same answer on every
    /// rank).
    std::function<bool(TierId)> skip;
    /// A tier the walk did not compute (rank 0: it has the store).
    Fetch fetch;
    /// Records [lo, hi) of tier t into out[lo, hi) (`out` spans the whole tier). Runs for the
    /// pieces of a level side by side, so it must be thread-safe.
    std::function<void(TierId, uint64_t lo, uint64_t hi, R* out)> work;
    /// Rank 0: tier t is whole here (committing it). Thread-safe.
    std::function<void(TierId, const R* whole)> report;
    /// Another rank: tier t, whole here, packed for rank 0 (TierPacker). Thread-safe.
    std::function<std::vector<uint8_t>(TierId, const R* whole)> pack;
    /// Rank 0: tier t as the rank that reported it packed it.
    std::function<void(TierId, std::span<const uint8_t> packed)> report_packed;
  };

  explicit TierWalk(TierPlan plan) : plan_(std::move(plan)), held_(plan_.reads.size()) {}

  const TierPlan& plan() const { return plan_; }
  /// The records of a tier held in memory (a tier the current level reads).
  const R* held(TierId t) const { return held_[t].data(); }
  /// The most record bytes in memory at once.
  uint64_t peak_bytes() const { return peak_; }
  /// Positions and pieces this rank solved.
  uint64_t positions_computed() const { return positions_; }
  uint64_t pieces_computed() const { return pieces_; }
  /// Task time (summed over threads) spent computing pieces and reporting tiers.
  double seconds_solving() const { return static_cast<double>(solving_ns_.load()) * 1e-9; }
  double seconds_reporting() const { return static_cast<double>(reporting_ns_.load()) * 1e-9; }

  /// Walks on one process: `dist` has one rank.
  void run(const Steps& steps, const Distribution& dist) { walk(steps, dist, nullptr); }
  /// Walks as rank transport.rank() of a distributed solve along `dist` (the same on every
  /// rank).
  void run(const Steps& steps, const Distribution& dist, Transport& transport) { walk(steps, dist, &transport); }

 private:
  void walk(const Steps& steps, const Distribution& dist, Transport* tr);
  void allocate(TierId t) {
    if (held_[t].empty() && plan_.size[t] > 0) {
      held_[t].resize(plan_.size[t]);
      add_bytes(held_[t].size() * sizeof(R));
    }
  }
  void release(TierId t) {
    if (!held_[t].empty()) {
      add_bytes(-static_cast<int64_t>(held_[t].size() * sizeof(R)));
      std::vector<R>().swap(held_[t]);
    }
  }
  void add_bytes(int64_t delta) {
    const uint64_t now = bytes_ += static_cast<uint64_t>(delta);
    uint64_t peak = peak_.load();
    while (delta > 0 && now > peak && !peak_.compare_exchange_weak(peak, now)) {}
  }

  TierPlan plan_;
  std::vector<std::vector<R>> held_;
  std::atomic<uint64_t> bytes_{0}, peak_{0}, positions_{0}, pieces_{0}, solving_ns_{0}, reporting_ns_{0};
  static uint64_t ns_since(std::chrono::steady_clock::time_point start) {
    return static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
  }
};

template <class R>
void TierWalk<R>::walk(const Steps& steps, const Distribution& dist, Transport* tr) {
  const int me = tr ? tr->rank() : 0;
  const TierId n = static_cast<TierId>(plan_.reads.size());
  const uint32_t levels = static_cast<uint32_t>(plan_.by_level.size());
  if (dist.first_piece.size() != n + size_t{1}) throw std::logic_error("the plan is of another space");
  // this rank's pieces by level, and the last level that reads each tier here
  std::vector<std::vector<uint32_t>> mine(levels);
  std::vector<int64_t> last_use(n, -1);
  for (uint32_t i = 0; i < dist.pieces.size(); ++i) {
    const Piece& p = dist.pieces[i];
    if (p.rank != me) continue;
    const uint32_t L = plan_.level[p.tier];
    mine[L].push_back(i);
    for (TierId c : dist.reads_of(plan_, p)) last_use[c] = std::max<int64_t>(last_use[c], L);
  }
  std::vector<std::vector<TierId>> free_after(levels), recovered_at(levels);
  for (TierId t = 0; t < n; ++t) {
    if (last_use[t] >= 0) free_after[static_cast<size_t>(last_use[t])].push_back(t);
    if (me == 0 && !dist.recovered[t].empty()) recovered_at[dist.recovered_level[t]].push_back(t);
  }
  // tiers assembled whole here (read here, or reported from here) and the pieces still missing
  std::vector<char> assemble(n, 0), ready(n, 0), skipped(n, 0);
  std::vector<uint32_t> missing(n, 0);
  uint64_t reports_due = 0;  // rank 0: tiers not yet committed
  for (TierId t = 0; t < n; ++t) {
    if (dist.pieces_of(t) == 0) continue;
    assemble[t] = last_use[t] >= 0 || dist.reporter[t] == me;
    missing[t] = static_cast<uint32_t>(dist.pieces_of(t));
    if (me == 0) ++reports_due;
  }
  std::mutex mu;  // missing, ready, reports_due: from the level's tasks
  uint32_t level = 0;

  auto send = [&](const std::vector<int>& to, const WireHeader& h, const void* payload, uint64_t bytes, bool compress) {
    if (to.empty()) return;
    tr->send(std::span<const int>(to), std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(&h), sizeof h),
             std::span<const uint8_t>(static_cast<const uint8_t*>(payload), bytes), compress);
  };
  // reports to rank 0 from another rank: batched, a message a level (or kReportBatchBytes)
  std::mutex batch_mu;
  std::vector<uint8_t> batch;
  uint64_t batch_tiers = 0;
  auto put_u64 = [](std::vector<uint8_t>& b, uint64_t v) {
    const size_t at = b.size();
    b.resize(at + 8);
    std::memcpy(b.data() + at, &v, 8);
  };
  auto send_batch = [&](bool only_if_full) {
    std::vector<uint8_t> out;
    uint64_t count = 0;
    {
      std::lock_guard lock(batch_mu);
      if (batch_tiers == 0 || (only_if_full && batch.size() < kReportBatchBytes)) return;
      out.swap(batch);
      std::swap(count, batch_tiers);
    }
    send({0}, WireHeader{WireHeader::kReports, 0, 0, 0, count}, out.data(), out.size(), false);
  };
  // tier t is whole here: report it if this rank is its reporter, free it if nothing here reads it
  auto whole = [&](TierId t) {
    {
      std::lock_guard lock(mu);
      ready[t] = 1;
    }
    if (dist.reporter[t] == me) {
      const auto start = std::chrono::steady_clock::now();
      struct Timed {
        std::atomic<uint64_t>& into;
        std::chrono::steady_clock::time_point start;
        ~Timed() { into += ns_since(start); }
      } timed{reporting_ns_, start};
      if (me == 0) {
        steps.report(t, held_[t].data());
        std::lock_guard lock(mu);
        --reports_due;
      } else {
        const std::vector<uint8_t> packed = steps.pack(t, held_[t].data());
        {
          std::lock_guard lock(batch_mu);
          put_u64(batch, t);
          put_u64(batch, packed.size());
          batch.insert(batch.end(), packed.begin(), packed.end());
          ++batch_tiers;
        }
        send_batch(true);
      }
    }
    if (last_use[t] < static_cast<int64_t>(level)) {  // nothing here reads it: a later need fetches it again
      release(t);
      std::lock_guard lock(mu);
      ready[t] = 0;
    }
  };
  auto piece_in = [&](TierId t) {
    bool done = false;
    {
      std::lock_guard lock(mu);
      if (missing[t] == 0) throw std::logic_error("tier " + std::to_string(t) + ": a piece too many");
      done = --missing[t] == 0;
    }
    if (done) whole(t);
  };

  struct Inbox : Transport::Inbox {
    std::function<uint8_t*(int, const WireHeader&, uint64_t)> on_place;
    std::function<void(int, const WireHeader&)> on_arrived;
    static WireHeader read(std::span<const uint8_t> header) {
      WireHeader h;
      if (header.size() != sizeof h) throw std::runtime_error("a message from another rank is damaged (its header)");
      std::memcpy(&h, header.data(), sizeof h);
      return h;
    }
    uint8_t* place(int from, std::span<const uint8_t> header, uint64_t bytes) override {
      return on_place(from, read(header), bytes);
    }
    void arrived(int from, std::span<const uint8_t> header) override { on_arrived(from, read(header)); }
  } inbox;
  std::vector<uint8_t> reports;          // rank 0: a batch of reports on its way in
  std::vector<char> reported(me == 0 ? n : 0, 0);  // rank 0: tiers another rank reported
  inbox.on_place = [&](int from, const WireHeader& h, uint64_t bytes) -> uint8_t* {
    const std::string what = "a message from rank " + std::to_string(from) + " about tier " + std::to_string(h.tier);
    if (h.tier >= n || h.lo > h.hi || h.hi > plan_.size[h.tier])
      throw std::runtime_error(what + " does not fit the plan (a rank of another space or build?)");
    if (h.kind == WireHeader::kReports) {
      if (me != 0 || h.tier != 0 || h.lo != 0 || h.hi != 0 || h.count == 0 || h.count > bytes / 16)
        throw std::runtime_error("a message from rank " + std::to_string(from) + ": reports this rank does not expect");
      reports.resize(bytes);
      return reports.data();
    }
    if (bytes != (h.hi - h.lo) * sizeof(R)) throw std::runtime_error(what + " does not fit the plan (another record width?)");
    if (h.kind == WireHeader::kRecovered ? (h.lo != 0 || h.hi != plan_.size[h.tier] || ready[h.tier])
                                         : (h.kind != WireHeader::kPiece || !assemble[h.tier]))
      throw std::runtime_error(what + ": records this rank does not expect");
    allocate(h.tier);
    return reinterpret_cast<uint8_t*>(held_[h.tier].data() + h.lo);
  };
  inbox.on_arrived = [&](int from, const WireHeader& h) {
    if (h.kind == WireHeader::kReports) {
      const auto start = std::chrono::steady_clock::now();
      const std::string what = "reports from rank " + std::to_string(from);
      size_t at = 0;
      for (uint64_t k = 0; k < h.count; ++k) {
        uint64_t t = 0, bytes = 0;
        if (reports.size() - at < 16) throw std::runtime_error(what + " are damaged (cut short)");
        std::memcpy(&t, reports.data() + at, 8);
        std::memcpy(&bytes, reports.data() + at + 8, 8);
        at += 16;
        if (t >= n || dist.reporter[t] != from || bytes > reports.size() - at)
          throw std::runtime_error(what + " do not fit the plan (tier " + std::to_string(t) + ")");
        if (reported[t]) throw std::runtime_error(what + " name tier " + std::to_string(t) + " a second time");
        reported[t] = 1;
        steps.report_packed(static_cast<TierId>(t), std::span<const uint8_t>(reports.data() + at, bytes));
        at += bytes;
        --reports_due;
      }
      if (at != reports.size()) throw std::runtime_error(what + " are damaged (bytes left over)");
      reporting_ns_ += ns_since(start);
    } else if (h.kind == WireHeader::kRecovered) {
      ready[h.tier] = 1;
    } else {
      piece_in(h.tier);
    }
  };
  auto wait_for = [&](TierId c) {
    while (!ready[c]) {
      if (!tr) throw std::logic_error("tier " + std::to_string(c) + " is read before it was solved");
      tr->receive(true, inbox);
    }
  };

  std::vector<TierId> loaded;  // tiers fetched this level (recovered from the store)
  Hold hold = [&](TierId c) -> const R* {
    if (!ready[c]) {
      if (!steps.fetch) throw std::logic_error("tier " + std::to_string(c) + " must come from rank 0");
      held_[c] = steps.fetch(c, hold);
      add_bytes(static_cast<int64_t>(held_[c].size() * sizeof(R)));
      ready[c] = 1;
      loaded.push_back(c);
    }
    return held_[c].data();
  };
  std::vector<uint32_t> todo;
  for (level = 0; level < levels; ++level) {
    const uint32_t L = level;
    for (TierId t : plan_.by_level[L]) {
      skipped[t] = steps.skip(t);
      if (!skipped[t] && dist.pieces_of(t) == 0) throw std::logic_error("tier " + std::to_string(t) + ": the plan is out of step");
    }
    loaded.clear();
    // rank 0: committed tiers other ranks read from this level on
    for (TierId c : recovered_at[L]) {
      hold(c);
      send(dist.recovered[c], WireHeader{WireHeader::kRecovered, c, 0, plan_.size[c]}, held_[c].data(),
           plan_.size[c] * sizeof(R), true);
    }
    // every tier this rank's pieces read: here, fetched, or waited for
    todo.clear();
    for (uint32_t i : mine[L])
      if (!skipped[dist.pieces[i].tier]) todo.push_back(i);
    for (uint32_t i : todo)
      for (TierId c : dist.reads_of(plan_, dist.pieces[i])) {
        if (ready[c]) continue;
        if (skipped[c] && me == 0) {
          hold(c);
        } else {
          wait_for(c);
        }
      }
    // a tier in several pieces is allocated before they run; a tier in one, by its task (the
    // zeroing and first touch of a level's records on every core, not on this thread alone)
    for (uint32_t i : todo)
      if (assemble[dist.pieces[i].tier] && dist.split(dist.pieces[i].tier)) allocate(dist.pieces[i].tier);
    tbb::parallel_for(size_t{0}, todo.size(), [&](size_t k) {
      const Piece& p = dist.pieces[todo[k]];
      const TierId t = p.tier;
      if (assemble[t] && !dist.split(t)) allocate(t);
      std::unique_ptr<R[]> own;  // a piece of a tier no one here reads: its own array
      R* out = held_[t].data();
      if (!assemble[t]) {
        own.reset(new R[plan_.size[t]]);  // not initialised: only the piece's pages are touched
        out = own.get();
        add_bytes(static_cast<int64_t>((p.hi - p.lo) * sizeof(R)));
      }
      const auto start = std::chrono::steady_clock::now();
      steps.work(t, p.lo, p.hi, out);
      solving_ns_ += ns_since(start);
      positions_ += p.hi - p.lo;
      ++pieces_;
      if (tr) {
        std::vector<int> to;
        for (int s : dist.sinks[t])
          if (s != me) to.push_back(s);
        send(to, WireHeader{WireHeader::kPiece, t, p.lo, p.hi}, out + p.lo, (p.hi - p.lo) * sizeof(R), true);
      }
      if (own) add_bytes(-static_cast<int64_t>((p.hi - p.lo) * sizeof(R)));
      if (assemble[t]) piece_in(t);
    });
    // free every tier no later level reads here (also sources recovered only to rebuild a
    // tail, or only to send)
    for (TierId c : free_after[L]) release(c), ready[c] = 0;
    for (TierId c : loaded)
      if (last_use[c] <= static_cast<int64_t>(L)) release(c), ready[c] = 0;
    for (TierId c : recovered_at[L])
      if (last_use[c] <= static_cast<int64_t>(L)) release(c), ready[c] = 0;
    if (tr) {
      send_batch(false);
      // take what has arrived: rank 0 commits reports; the others take pieces early, so
      // that no sender waits on a full channel
      while (tr->receive(false, inbox)) {
      }
    }
  }
  if (me == 0 && tr)
    while (reports_due > 0) tr->receive(true, inbox);
  if (tr) tr->flush();
}

// ---- solve -----------------------------------------------------------------------------

/// Records [lo, hi) of a tier into out[lo, hi) (`out` spans the whole tier) from its child
/// tiers' records (and, when the range takes the tail, hi == size, its tail source's).
template <TierGame G, class Rec = ParityRecord>
void solve_range(const G& game, TierId tier, uint64_t lo, uint64_t hi,
                 const std::vector<const typename Rec::Storage*>& child_records, typename Rec::Storage* out,
                 const typename Rec::Storage* tail_records = nullptr) {
  const uint64_t size = game.tier_size(tier), prefix = tier_prefix(game, tier);
  const uint64_t scan_hi = std::min(hi, prefix);
  std::atomic<bool> overflow{false};
  if (lo < scan_hi)
    tbb::parallel_for(tbb::blocked_range<uint64_t>(lo, scan_hi, kScanGrain), [&](const tbb::blocked_range<uint64_t>& r) {
      typename Rec::Accumulator acc{child_records.data(), out};
      game.scan(tier, r.begin(), r.end(), acc);
      if (acc.overflow) overflow.store(true, std::memory_order_relaxed);
    });
  if (overflow.load())
    throw std::overflow_error("remoteness above " + std::to_string(kMaxStored<Rec>) + " in tier " + game.tier_name(tier));
  if (hi == size && prefix < size) {
    if (!tail_records) throw std::logic_error("tier " + game.tier_name(tier) + ": its tail's source is not in memory");
    fill_tail(game, tier, tail_records, out);
  }
}

/// Solve one tier into `out` given its child tiers' records (and, for a tier with a tail,
/// its tail source's records).
template <TierGame G, class Rec = ParityRecord>
void solve_tier(const G& game, TierId tier, const std::vector<const typename Rec::Storage*>& child_records,
                std::vector<typename Rec::Storage>& out, const typename Rec::Storage* tail_records = nullptr) {
  out.assign(game.tier_size(tier), 0);
  solve_range<G, Rec>(game, tier, 0, out.size(), child_records, out.data(), tail_records);
}

/// The whole records of a tier an earlier run committed: loaded, or for a derived tier
/// recomputed from its children; a tail is copied from its source. `fetch(id)` gives the
/// whole records of another committed tier (a child of a derived tier, a tail's source);
/// without it they are recovered the same way, each once.
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
  const uint64_t size = game.tier_size(t), prefix = tier_prefix(game, t);
  std::vector<R> out;
  if (tier_stored(game, t)) {
    if (prefix > 0) out = source.load<R>(t);  // else all of it is tail: nothing kept
    if (out.size() == size) return out;      // kept whole (an older database): no tail to fill
    if (out.size() != prefix) throw std::runtime_error("stored tier " + game.tier_name(t) + " has the wrong size");
    out.resize(size);
    fill_tail(game, t, fetch(tail_source(game, t)), out.data());
  } else {
    std::vector<const R*> kids;
    for (TierId c : game.child_tiers(t)) kids.push_back(fetch(c));
    solve_tier<G, Rec>(game, t, kids, out, prefix < size ? fetch(tail_source(game, t)) : nullptr);
  }
  return out;
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
  TierWalk<R> walk(plan_tiers(game));
  const TierPlan& plan = walk.plan();
  const TierId n = static_cast<TierId>(plan.reads.size());
  const int me = transport ? transport->rank() : 0, ranks = transport ? transport->ranks() : 1;
  if (me == 0 && !store) throw std::logic_error("rank 0 of a solve needs the store");
  if (me != 0 && !packer) throw std::logic_error("rank " + std::to_string(me) + " of a solve needs a packer");
  if (store && store->record_bytes() != sizeof(R))
    throw std::logic_error("records of " + std::to_string(sizeof(R)) + " bytes solved into a store of " +
                           std::to_string(store->record_bytes()) + "-byte records");
  // a tier counts as done when the store holds it and every tier its recovery reads is done:
  // the source of its tail, and for a derived tier its children (a crash may keep a tier's
  // group and lose theirs): levels put them first. So recovering a done tier reads the store
  // only, never a tier another rank is solving. Rank 0 tells every rank.
  std::vector<char> done(n, 0);
  if (me == 0)
    for (const auto& tiers : plan.by_level)
      for (TierId t : tiers) {
        done[t] = store->has_tier(t);
        if (tier_stored(game, t)) {
          if (has_tail(game, t)) done[t] = done[t] && done[tail_source(game, t)];
        } else {
          for (TierId c : plan.reads[t]) done[t] = done[t] && done[c];
        }
      }
  model.record_bytes = sizeof(R);
  const uint64_t threads = static_cast<uint64_t>(tbb::this_task_arena::max_concurrency());
  model.threads.assign(static_cast<size_t>(ranks), static_cast<int>(threads));
  if (transport && ranks > 1) {
    std::vector<uint8_t> bytes(done.begin(), done.end());
    transport->broadcast(bytes);
    if (bytes.size() != n) throw std::runtime_error("rank 0 solves a space of " + std::to_string(bytes.size()) + " tiers, this rank one of " + std::to_string(n));
    done.assign(bytes.begin(), bytes.end());
    const std::vector<uint64_t> all = transport->all_gather(std::span<const uint64_t>(&threads, 1));
    for (size_t r = 0; r < all.size(); ++r) model.threads[r] = static_cast<int>(all[r]);
  }
  const Distribution dist = distribute(plan, done, ranks, model);
  if (transport && ranks > 1) {
    const uint64_t mine = dist.hash();
    for (uint64_t h : transport->all_gather(std::span<const uint64_t>(&mine, 1)))
      if (h != mine)
        throw std::runtime_error("the ranks made different plans of the solve (not the same toadbase on every rank?)");
  }
  SolveStats stats;
  std::mutex report_mu;  // progress and stats, from the level's tasks
  auto committed = [&](TierId t) {
    std::lock_guard lock(report_mu);
    stats.positions_solved += plan.size[t];
    ++stats.tiers_solved;
    if (progress) progress->tier_done(game.tier_name(t), plan.size[t], false);
  };
  typename TierWalk<R>::Steps steps;
  std::atomic<bool> stopped{false};
  steps.skip = [&](TierId t) {
    // a stop between levels in one process (the ranks of a distributed solve must stay in step)
    if (!transport && (stopped || stop_requested())) {  // pass every remaining tier over
      stopped = true;
      return true;
    }
    if (!done[t]) return false;
    ++stats.tiers_skipped;
    if (progress) progress->tier_done(game.tier_name(t), game.tier_size(t), true);
    return true;
  };
  if (store)
    steps.fetch = [&](TierId c, const typename TierWalk<R>::Hold& hold) { return recover_tier<G, Rec>(game, *store, c, hold); };
  steps.work = [&](TierId t, uint64_t lo, uint64_t hi, R* out) {
    std::vector<const R*> kids;
    for (TierId c : game.child_tiers(t)) kids.push_back(walk.held(c));
    const R* tail = hi == plan.size[t] && plan.tail[t] ? walk.held(tail_source(game, t)) : nullptr;
    solve_range<G, Rec>(game, t, lo, hi, kids, out, tail);
  };
  steps.report = [&](TierId t, const R* whole) {
    store->commit(t, std::span<const R>(whole, plan.size[t]), plan.kept[t]);
    committed(t);
  };
  steps.pack = [&](TierId t, const R* whole) { return packer->pack(whole, plan.size[t], plan.kept[t]); };
  steps.report_packed = [&](TierId t, std::span<const uint8_t> packed) {
    store->commit_packed(t, packed);
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
  if (transport) stats.seconds_waiting = transport->counters().seconds_waiting;
  if (stopped) throw Interrupted("the solve was asked to stop");
  return stats;
}

/// Solve every tier the store does not hold yet, in this process. Call inside with_threads().
template <TierGame G, class Rec = ParityRecord>
SolveStats solve_tiers(const G& game, TierStore& store, Progress* progress) {
  return solve_tiers<G, Rec>(game, &store, nullptr, progress, nullptr);
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
  using R = typename Rec::Storage;
  if (tier_stored(game, ti.tier)) return source.record<R>(ti.tier, ti.index);
  const auto kids = game.children(p);
  unsigned few[kMaxChildren];  // no allocation for the usual number of children
  std::vector<unsigned> many(kids.size() > kMaxChildren ? kids.size() : 0);
  unsigned* recs = many.empty() ? few : many.data();
  for (size_t k = 0; k < kids.size(); ++k) {
    const TierIndex ci = game.rank(canonical(game, kids[k]));
    recs[k] = source.record<R>(ci.tier, ci.index);
  }
  return record_from_children<Rec>(game, p, static_cast<unsigned>(kids.size()), [&](unsigned k) { return recs[k]; });
}

/// The value of any position the space holds or embeds; std::invalid_argument otherwise.
template <TierGame G, class Rec = ParityRecord>
Outcome probe(const G& game, const TierSource& source, const typename G::Position& given) {
  const auto inside = embedded(game, given);
  if (!inside) throw std::invalid_argument("the position lies outside the space");
  return Rec::decode(static_cast<typename Rec::Storage>(probe_record<G, Rec>(game, source, *inside)));
}

// ---- whole tiers for a pass over the database -------------------------------------------

/// Every tier's whole records (derived tiers and tails rebuilt), for analyze and export:
/// a memo of recent tiers (a tail's source, a derived tier's children are read again by
/// the tiers after them). Thread-safe.
template <TierGame G, class Rec = ParityRecord>
class TierReader {
 public:
  using R = typename Rec::Storage;

  TierReader(const G& game, const TierSource& source, uint64_t memo_bytes = uint64_t{256} << 20)
      : game_(game), source_(source), memo_cap_(memo_bytes) {}

  std::vector<R> records(TierId t) const {
    // this tier and those it reads go through the memo, pinned for this call
    std::vector<std::shared_ptr<const std::vector<R>>> pinned;
    std::function<const R*(TierId)> fetch = [&](TierId c) -> const R* {
      std::shared_ptr<const std::vector<R>> recs;
      {
        std::lock_guard lock(mu_);
        for (const auto& [id, r] : memo_)
          if (id == c) recs = r;
      }
      if (!recs) {
        recs = std::make_shared<const std::vector<R>>(recover_tier<G, Rec>(game_, source_, c, fetch));
        std::lock_guard lock(mu_);
        memo_.push_back({c, recs});
        memo_bytes_ += recs->size() * sizeof(R);
        while (memo_bytes_ > memo_cap_ && memo_.size() > 1) {
          memo_bytes_ -= memo_.front().second->size() * sizeof(R);
          memo_.pop_front();
        }
      }
      pinned.push_back(recs);
      return recs->data();
    };
    const R* r = fetch(t);
    return std::vector<R>(r, r + game_.tier_size(t));
  }

 private:
  const G& game_;
  const TierSource& source_;
  uint64_t memo_cap_;
  mutable std::mutex mu_;
  mutable std::deque<std::pair<TierId, std::shared_ptr<const std::vector<R>>>> memo_;
  mutable uint64_t memo_bytes_ = 0;
};

// ---- verify ----------------------------------------------------------------------------

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
  using R = typename Rec::Storage;
  TierWalk<R> walk(plan_tiers(game));
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
  auto work = [&](TierId t, uint64_t, uint64_t, R* mine) {
    const bool is_stored = tier_stored(game, t);
    const uint64_t size = game.tier_size(t);
    std::vector<R> stored;
    try {
      if (!source.has_tier(t)) throw std::runtime_error("is not committed");
      if (source.tier_positions(t) != size)
        throw std::runtime_error("holds " + std::to_string(source.tier_positions(t)) + " records, the space has " +
                                 std::to_string(size));
      if (is_stored) stored = source.load<R>(t);  // checks block digests
      if (is_stored && stored.size() < records_kept(game, t))
        throw std::runtime_error("keeps " + std::to_string(stored.size()) + " records, lookups need " +
                                 std::to_string(records_kept(game, t)));
    } catch (const std::exception& e) {
      fail(t, 0, std::string(e.what()) + " (tier " + game.tier_name(t) + ")");
      return;
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
        if (want > kMaxStored<Rec>) {
          fail(t, i, at(t, i, p) + ": remoteness overflows the record");
          bad = true;
          return;
        }
        mine[i] = static_cast<R>(want);
        if (i < stored.size() && mine[i] != stored[i]) {
          fail(t, i, at(t, i, p) + ": stored " + outcome_text(Rec::decode(stored[i])) + ", recomputed " +
                         outcome_text(Rec::decode(mine[i])));
          bad = true;
          return;
        }
      }
    });
    if (bad) return;
    if (!source.matches_digest(t, mine, size)) {
      fail(t, 0, "tier " + game.tier_name(t) +
                     (is_stored ? std::string(" (its tail, copied from another tier)") : std::string(" (derived, not stored)")) +
                     ": its recomputed records do not match the digest the solve recorded");
      return;
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
        return;
      }
    }
    std::lock_guard lock(mu);
    rep.positions_checked += size;
    rep.positions_probed += probes;
    if (progress) progress->tier_done(game.tier_name(t), size, false);
    return;
  };
  typename TierWalk<R>::Steps steps;
  steps.skip = [&](TierId) { return !rep.ok; };  // after a failure the remaining levels are passed over
  steps.fetch = [&](TierId t, const typename TierWalk<R>::Hold&) -> std::vector<R> {
    throw std::logic_error("verify: tier " + game.tier_name(t) + " was not recomputed before its readers");
  };
  steps.work = work;
  steps.report = [](TierId, const R*) {};
  walk.run(steps, distribute(walk.plan(), std::vector<char>(walk.plan().size.size(), 0), 1, CostModel{}));
  return rep;
}

}  // namespace toadbase
