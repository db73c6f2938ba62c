// The walker of the tier DAG that solve and verify share (engine.hpp draws the whole):
//
//   level(t) = 0 for a tier that reads no tier, else 1 + the highest level of the tiers it
//              reads (its child tiers, and the source of its tail when it has one); under a
//              memory budget whole components of the DAG start later (schedule.hpp)
//   for each level, lowest first:
//       pass over the tiers the caller skips (a resumed solve: committed by an earlier run)
//       make sure every tier the level's tiers read is in memory (recovered if need be, or
//       in a distributed solve received from the rank that solved it)
//       run this rank's pieces of the level's tiers side by side, each parallel inside
//       (TBB); keep a tier while a later level here reads it, send it to the ranks that do
//       free every tier no later level reads
//
// Under a budget that raw tiers do not keep (schedule.hpp), the tiers the plan packs (those
// whose last reader is the plan's span of levels or more after their own; span 1: every tier
// a later level reads) are packed once they are whole (packed.hpp), and the scans read them a
// block at a time through each thread's cache; a resumed solve packs such committed tiers it
// recovers for a level before the level runs (rebuilding one from packed ones unpacks those
// whole for the moment, as it holds them raw for the moment without a budget).
//
// What crosses between ranks is the Exchange's business (exchange.hpp): the walk is the
// level schedule alone, the same in one process and on every rank.
#pragma once

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "solver/core/distribute.hpp"
#include "solver/core/exchange.hpp"
#include "solver/core/game.hpp"
#include "solver/core/packed.hpp"
#include "solver/core/transport.hpp"

namespace toadbase {

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

// ---- the plan --------------------------------------------------------------------------

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
  p.last_level = last_levels(p.reads, p.level);
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

// ---- the walk --------------------------------------------------------------------------

/// Walks the tier DAG level by level, lowest first, holding in memory the tiers a later
/// level reads. In a distributed solve every rank walks the same levels and does its own
/// pieces of them (distribute.hpp): the pieces it needs from other ranks arrive through the
/// exchange before it uses them, and its own go to the ranks that read them as soon as they
/// are done.
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
    /// The tiers fetch(t) reads (held first, so that its records are made, and counted,
    /// only once they are here); none given: fetch asks for them itself.
    std::function<std::vector<TierId>(TierId)> recovery_reads;
    /// Records [lo, hi) of tier t into out[lo, hi) (`out` spans the whole tier). Runs for the
    /// pieces of a level side by side, so it must be thread-safe.
    std::function<void(TierId, uint64_t lo, uint64_t hi, R* out)> work;
    /// Rank 0: tier t is whole here (committing it). Thread-safe.
    std::function<void(TierId, const R* whole)> report;
    /// Rank 0: report() of a tier the walk then holds packed, returning its leading blocks
    /// packed as the walk's codec unpacks them where committing it made them (TierStore::
    /// commit_tier_held; the walk packs the rest). Not given: report(). Thread-safe.
    std::function<std::vector<std::vector<uint8_t>>(TierId, const R* whole)> report_held;
    /// Another rank: tier t, whole here, packed for rank 0 (TierPacker). Thread-safe.
    std::function<std::vector<uint8_t>(TierId, const R* whole)> pack;
    /// Rank 0: tier t as the rank that reported it packed it.
    std::function<void(TierId, std::span<const uint8_t> packed)> report_packed;
  };

  explicit TierWalk(TierPlan plan)
      : plan_(std::move(plan)), held_(plan_.reads.size()), locks_(new std::mutex[plan_.reads.size()]) {}

  /// The codec a walk along a plan that holds finished tiers packed (Distribution::packed)
  /// packs them with: given exactly when the plan packs (a run checks).
  void pack_with(const RecordCodec* codec) { codec_ = codec; }

  const TierPlan& plan() const { return plan_; }
  /// The records of a tier held in memory (a tier the current level reads); null for one
  /// held packed (packing()).
  const R* held(TierId t) const { return held_[t].data(); }
  /// True when finished tiers are held packed: read them with held_records().
  bool packing() const { return codec_ != nullptr; }
  /// A tier held, raw or packed (its cache left for the reader to set).
  HeldRecords<R> held_records(TierId t) const {
    const Held& h = held_[t];
    return {h.data(), h.packed.empty() ? nullptr : &h.packed, nullptr};
  }
  /// The threads' caches of unpacked blocks that read held_records.
  tbb::enumerable_thread_specific<UnpackedBlocks>& caches() const { return caches_; }
  /// The most record bytes in memory at once.
  uint64_t peak_bytes() const { return peak_; }
  /// Positions and pieces this rank solved.
  uint64_t positions_computed() const { return positions_; }
  uint64_t pieces_computed() const { return pieces_; }
  /// Task time (summed over threads) spent computing pieces and reporting tiers.
  double seconds_solving() const { return static_cast<double>(solving_ns_.load()) * 1e-9; }
  double seconds_reporting() const { return static_cast<double>(reporting_ns_.load()) * 1e-9; }
  /// Tiers packed: their raw bytes, and what they held packed.
  uint64_t packed_raw_bytes() const { return packed_raw_; }
  uint64_t packed_bytes() const { return packed_; }
  /// Blocks of tiers packed that their commit packed (Steps::report_held), not packed again.
  uint64_t packed_blocks_given() const { return packed_given_; }

  /// Walks on one process: `dist` has one rank.
  void run(const Steps& steps, const Distribution& dist) {
    LocalExchange<R> local;
    Run(*this, steps, dist, local).levels();
  }
  /// Walks as rank transport.rank() of a distributed solve along `dist` (the same on every
  /// rank).
  void run(const Steps& steps, const Distribution& dist, Transport& transport) {
    RankedExchange<R> ranked(transport, plan_, dist);
    Run(*this, steps, dist, ranked).levels();
  }

 private:
  class Run;

  /// A tier's records in memory: an array made here, not initialised (its pieces, its tail or
  /// the records another rank sends write every record before any is read; zeroing it cost
  /// a memset of every tier; on huge pages, huge_pages.hpp, a 22-cell solve took 1.04x the
  /// time and 0.4 GiB more at its peak), or the records a fetch recovered, kept as they
  /// came; or packed, and unpacked while pieces that read it run (`users`).
  struct Held {
    std::unique_ptr<R[]> made;
    std::vector<R> fetched;
    PackedTier packed;
    std::unique_ptr<R[]> unpacked;
    uint32_t users = 0;
    uint64_t size = 0;
    uint64_t counted = 0;  // bytes of it in the walk's count
    R* data() { return made ? made.get() : !fetched.empty() ? fetched.data() : unpacked.get(); }
    const R* data() const { return made ? made.get() : !fetched.empty() ? fetched.data() : unpacked.get(); }
    bool empty() const { return size == 0; }
    bool raw() const { return made || !fetched.empty(); }
  };

  void allocate(TierId t) {
    if (held_[t].empty() && plan_.size[t] > 0) {
      held_[t].made.reset(new R[plan_.size[t]]);
      held_[t].size = plan_.size[t];
      count(held_[t], static_cast<int64_t>(held_[t].size * sizeof(R)));
    }
  }
  void adopt(TierId t, std::vector<R>&& whole) {  // counted by the caller as it was made
    held_[t] = Held{};
    held_[t].size = whole.size();
    held_[t].counted = whole.size() * sizeof(R);
    held_[t].fetched = std::move(whole);
  }
  void release(TierId t) {
    if (!held_[t].empty()) {
      add_bytes(-static_cast<int64_t>(held_[t].counted));
      held_[t] = Held{};
    }
  }
  // a whole tier's records packed (its leading blocks as the store packed them to commit
  // the tier: `blocks`), the raw array let go
  void pack(TierId t, std::vector<std::vector<uint8_t>> blocks = {}) {
    Held& h = held_[t];
    if (!h.raw() || !codec_) return;
    const uint64_t raw = h.size * sizeof(R);
    const uint64_t given = blocks.size();
    h.packed = PackedTier(*codec_, reinterpret_cast<const uint8_t*>(h.data()), raw, std::move(blocks));
    packed_given_ += given;
    count(h, static_cast<int64_t>(h.packed.packed_bytes()));
    h.made.reset();
    h.fetched = std::vector<R>();
    count(h, -static_cast<int64_t>(raw));
    packed_raw_ += raw;
    packed_ += h.packed.packed_bytes();
  }
  // a piece is about to read tier t (unpacked for it when packed) / has read it
  void acquire(TierId t) {
    std::lock_guard lock(locks_[t]);
    Held& h = held_[t];
    if (h.users++ == 0 && !h.raw() && !h.packed.empty()) {
      h.unpacked.reset(new R[h.size]);
      count(h, static_cast<int64_t>(h.size * sizeof(R)));
      h.packed.unpack(reinterpret_cast<uint8_t*>(h.unpacked.get()));
    }
  }
  void let_go(TierId t) {
    std::lock_guard lock(locks_[t]);
    Held& h = held_[t];
    if (--h.users == 0 && h.unpacked) {
      h.unpacked.reset();
      count(h, -static_cast<int64_t>(h.size * sizeof(R)));
    }
  }
  void count(Held& h, int64_t delta) {
    h.counted += static_cast<uint64_t>(delta);
    add_bytes(delta);
  }
  void add_bytes(int64_t delta) {
    const uint64_t now = bytes_ += static_cast<uint64_t>(delta);
    uint64_t peak = peak_.load();
    while (delta > 0 && now > peak && !peak_.compare_exchange_weak(peak, now)) {}
  }
  static uint64_t ns_since(std::chrono::steady_clock::time_point start) {
    return static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
  }

  TierPlan plan_;
  std::vector<Held> held_;
  std::unique_ptr<std::mutex[]> locks_;  // [t]: its users and unpacked array
  const RecordCodec* codec_ = nullptr;
  mutable tbb::enumerable_thread_specific<UnpackedBlocks> caches_;  // made as threads read
  std::atomic<uint64_t> bytes_{0}, peak_{0}, positions_{0}, pieces_{0}, solving_ns_{0}, reporting_ns_{0};
  std::atomic<uint64_t> packed_raw_{0}, packed_{0}, packed_given_{0};
};

/// One walk: this rank's share of the plan, and what is in memory, level by level.
template <class R>
class TierWalk<R>::Run final : public WalkInbox<R> {
 public:
  Run(TierWalk& walk, const Steps& steps, const Distribution& dist, Exchange<R>& ex)
      : w_(walk), plan_(walk.plan_), steps_(steps), dist_(dist), ex_(ex), me_(ex.rank()), packing_(walk.packing()) {
    if (dist.first_piece.size() != plan_.reads.size() + size_t{1}) throw std::logic_error("the plan is of another space");
    if (dist.packed != packing_)
      throw std::logic_error(dist.packed ? "the plan holds tiers packed and the walk has no codec"
                                         : "the walk has a codec and the plan holds no tier packed");
    share();
    hold_ = [this](TierId c) { return hold(c); };
  }

  /// The level schedule.
  void levels() {
    for (level_ = 0; level_ < plan_.by_level.size(); ++level_) {
      mark_skipped();
      loaded_.clear();
      send_recovered();
      gather_reads();
      solve_pieces();
      free_unread();
      ex_.end_level(*this);
    }
    ex_.finish(*this, [this] { return reports_due_ > 0; });
  }

 private:
  // this rank's pieces by level, the last level that reads each tier here, what to free
  // after each level, and which tiers are assembled here and from how many pieces
  void share() {
    const TierId n = static_cast<TierId>(plan_.reads.size());
    const size_t levels = plan_.by_level.size();
    mine_.resize(levels);
    last_use_.assign(n, -1);
    for (uint32_t i = 0; i < dist_.pieces.size(); ++i) {
      const Piece& p = dist_.pieces[i];
      if (p.rank != me_) continue;
      const uint32_t L = plan_.level[p.tier];
      mine_[L].push_back(i);
      for (TierId c : dist_.reads_of(plan_, p)) last_use_[c] = std::max<int64_t>(last_use_[c], L);
    }
    free_after_.resize(levels);
    recovered_at_.resize(levels);
    for (TierId t = 0; t < n; ++t) {
      if (last_use_[t] >= 0) free_after_[static_cast<size_t>(last_use_[t])].push_back(t);
      if (me_ == 0 && !dist_.recovered[t].empty()) recovered_at_[dist_.recovered_level[t]].push_back(t);
    }
    assemble_.assign(n, 0);
    ready_.assign(n, 0);
    skipped_.assign(n, 0);
    missing_.assign(n, 0);
    for (TierId t = 0; t < n; ++t) {
      if (dist_.pieces_of(t) == 0) continue;
      assemble_[t] = last_use_[t] >= 0 || dist_.reporter[t] == me_;
      missing_[t] = static_cast<uint32_t>(dist_.pieces_of(t));
      if (me_ == 0) ++reports_due_;
    }
  }

  void mark_skipped() {
    for (TierId t : plan_.by_level[level_]) {
      skipped_[t] = steps_.skip(t);
      if (!skipped_[t] && dist_.pieces_of(t) == 0)
        throw std::logic_error("tier " + std::to_string(t) + ": the plan is out of step");
    }
  }

  // rank 0: committed tiers other ranks read from this level on
  void send_recovered() {
    for (TierId c : recovered_at_[level_]) {
      hold(c);
      ex_.send(dist_.recovered[c], WireHeader::kRecovered, c, 0, plan_.size[c], w_.held_[c].data());
    }
  }

  // every tier this rank's pieces read: here, fetched, or waited for
  void gather_reads() {
    todo_.clear();
    for (uint32_t i : mine_[level_])
      if (!skipped_[dist_.pieces[i].tier]) todo_.push_back(i);
    for (uint32_t i : todo_)
      for (TierId c : dist_.reads_of(plan_, dist_.pieces[i])) {
        if (ready_[c]) continue;
        if (skipped_[c] && me_ == 0) {
          hold(c);
        } else {
          while (!ready_[c]) ex_.receive_one(*this, c);
        }
      }
    if (packing_)  // tiers recovered for this level: packed before it runs, as the plan reckons them
      for (TierId c : loaded_)
        if (ready_[c] && packs(c, plan_.level[c])) w_.pack(c);
  }

  // a tier in several pieces is allocated before they run; a tier in one, by its task (the
  // arrays are not initialised: their pages are first touched by the pieces that write them)
  void solve_pieces() {
    for (uint32_t i : todo_)
      if (assemble_[dist_.pieces[i].tier] && dist_.split(dist_.pieces[i].tier)) w_.allocate(dist_.pieces[i].tier);
    tbb::parallel_for(size_t{0}, todo_.size(), [&](size_t k) { solve_piece(dist_.pieces[todo_[k]]); });
  }

  void solve_piece(const Piece& p) {
    const TierId t = p.tier;
    if (assemble_[t] && !dist_.split(t)) w_.allocate(t);
    std::unique_ptr<R[]> own;  // a piece of a tier no one here reads: its own array
    R* out = w_.held_[t].data();
    if (!assemble_[t]) {
      own.reset(new R[plan_.size[t]]);  // not initialised: only the piece's pages are touched
      out = own.get();
      w_.add_bytes(static_cast<int64_t>((p.hi - p.lo) * sizeof(R)));
    }
    const auto start = std::chrono::steady_clock::now();
    steps_.work(t, p.lo, p.hi, out);
    w_.solving_ns_ += ns_since(start);
    w_.positions_ += p.hi - p.lo;
    ++w_.pieces_;
    std::vector<int> to;
    for (int s : dist_.sinks[t])
      if (s != me_) to.push_back(s);
    ex_.send(to, WireHeader::kPiece, t, p.lo, p.hi, out);
    if (own) w_.add_bytes(-static_cast<int64_t>((p.hi - p.lo) * sizeof(R)));
    if (assemble_[t]) piece_in(t);
  }

  // free every tier no later level reads here (also sources recovered only to rebuild a
  // tail, or only to send)
  void free_unread() {
    const int64_t L = level_;
    for (TierId c : free_after_[level_]) forget(c);
    for (TierId c : loaded_)
      if (last_use_[c] <= L) forget(c);
    for (TierId c : recovered_at_[level_])
      if (last_use_[c] <= L) forget(c);
  }

  void forget(TierId t) {
    w_.release(t);
    ready_[t] = 0;
  }

  // a committed tier fetched (recovered from the store) on rank 0: what it reads held first
  // (so its own records are made only then), and the tiers its recovery loaded that no
  // piece here reads from this level on let go as soon as it is whole (a derived tier's
  // tail comes from a derived tier, whose tail may too: held to the level's end, or made
  // before their sources, a resume kept such a chain of tiers at once)
  const R* hold(TierId c) {
    if (!ready_[c]) {
      if (!steps_.fetch) throw std::logic_error("tier " + std::to_string(c) + " must come from rank 0");
      const size_t mark = loaded_.size();
      std::vector<TierId> reads;
      if (steps_.recovery_reads) reads = steps_.recovery_reads(c);
      for (TierId d : reads) hold(d);
      if (packing_)  // what it reads, raw while it is made
        for (TierId d : reads) w_.acquire(d);
      const int64_t bytes = static_cast<int64_t>(plan_.size[c] * sizeof(R));
      w_.add_bytes(bytes);  // counted as it is made, beside what it reads
      std::vector<R> whole = steps_.fetch(c, hold_);
      if (packing_)
        for (TierId d : reads) w_.let_go(d);
      if (whole.size() != plan_.size[c]) throw std::logic_error("tier " + std::to_string(c) + " recovered at the wrong size");
      for (size_t k = mark; k < loaded_.size(); ++k)
        if (last_use_[loaded_[k]] < static_cast<int64_t>(level_)) forget(loaded_[k]);
      w_.adopt(c, std::move(whole));
      ready_[c] = 1;
      loaded_.push_back(c);
    }
    return w_.held_[c].data();
  }

  void piece_in(TierId t) {
    bool done = false;
    {
      std::lock_guard lock(mu_);
      if (missing_[t] == 0) throw std::logic_error("tier " + std::to_string(t) + ": a piece too many");
      done = --missing_[t] == 0;
    }
    if (done) whole(t);
  }

  // tier t is whole here: report it if this rank is its reporter, free it if nothing here
  // reads it, pack it if a later level reads it and the plan packs it
  void whole(TierId t) {
    {
      std::lock_guard lock(mu_);
      ready_[t] = 1;
    }
    const bool unread = last_use_[t] < static_cast<int64_t>(level_);  // a later need fetches it again
    const bool held_packed = !unread && packing_ && packs(t, level_);
    std::vector<std::vector<uint8_t>> blocks;  // as committing it packed it
    if (dist_.reporter[t] == me_) blocks = report(t, held_packed);
    if (unread) {
      w_.release(t);
      std::lock_guard lock(mu_);
      ready_[t] = 0;
    } else if (held_packed) {
      w_.pack(t, std::move(blocks));
    }
  }

  // whether tier t, finished at `level` and read by a later level here, is held packed: its
  // last reader in the plan is the plan's span of levels on or more (schedule.hpp; span 1:
  // any later level). The plan's, not this run's: a resumed solve skips committed readers,
  // and the plan reckoned the tier packed by all of them.
  bool packs(TierId t, uint32_t level) const {
    return last_use_[t] > static_cast<int64_t>(level) &&
           plan_.last_level[t] >= static_cast<uint64_t>(level) + std::max<uint32_t>(dist_.packed_span, 1);
  }

  // held_packed: the walk holds t packed next (its blocks, when committing it made them)
  std::vector<std::vector<uint8_t>> report(TierId t, bool held_packed) {
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::vector<uint8_t>> blocks;
    if (me_ == 0) {
      if (held_packed && steps_.report_held) {
        blocks = steps_.report_held(t, w_.held_[t].data());
      } else {
        steps_.report(t, w_.held_[t].data());
      }
      std::lock_guard lock(mu_);
      --reports_due_;
    } else {
      ex_.report(t, steps_.pack(t, w_.held_[t].data()));
    }
    w_.reporting_ns_ += ns_since(start);
    return blocks;
  }

  // ---- what other ranks send (WalkInbox) ----

  R* place(TierId t, uint64_t lo, uint64_t hi, bool recovered, const std::string& what) override {
    if (recovered ? (lo != 0 || hi != plan_.size[t] || ready_[t]) : !assemble_[t])
      throw std::runtime_error(what + ": records this rank does not expect");
    w_.allocate(t);
    return w_.held_[t].data() + lo;
  }

  void arrived(TierId t, bool recovered) override {
    if (recovered) {
      ready_[t] = 1;
    } else {
      piece_in(t);
    }
  }

  void packed(TierId t, std::span<const uint8_t> bytes) override {
    const auto start = std::chrono::steady_clock::now();
    steps_.report_packed(t, bytes);
    --reports_due_;
    w_.reporting_ns_ += ns_since(start);
  }

  TierWalk& w_;
  const TierPlan& plan_;
  const Steps& steps_;
  const Distribution& dist_;
  Exchange<R>& ex_;
  const int me_;
  const bool packing_;  // finished tiers held packed: the walk's packing(), which the plan's must be
  Hold hold_;
  uint32_t level_ = 0;
  std::vector<std::vector<uint32_t>> mine_;  // [L]: this rank's pieces
  std::vector<int64_t> last_use_;            // [t]: the last level that reads it here (-1: none)
  std::vector<std::vector<TierId>> free_after_, recovered_at_;
  // tiers assembled whole here (read here, or reported from here) and the pieces still missing
  std::vector<char> assemble_, ready_, skipped_;
  std::vector<uint32_t> missing_;
  uint64_t reports_due_ = 0;  // rank 0: tiers not yet committed
  std::mutex mu_;             // missing_, ready_, reports_due_: from the level's tasks
  std::vector<TierId> loaded_;  // tiers fetched this level (recovered from the store)
  std::vector<uint32_t> todo_;  // this level's pieces to solve here
};

}  // namespace toadbase
