// Where solved tiers go and where they are read back: the engine's two views of storage.
// The engine knows no storage; the database (db/) implements both views, and the tests an
// in-memory one.
//
// A tier is an array of records of one fixed width (the game's record type says how many
// bytes: one for Toads and Frogs and the puzzle, eight for River Toad, seventeen for the
// forest policy). Records cross this interface record by record, each record's bytes
// together ("record-major"):
//
//     tier of 3 records, 2 bytes each:   r0b0 r0b1 | r1b0 r1b1 | r2b0 r2b1
//
// How the store lays them out inside (byte planes, blocks, compression) is its own affair.
//
// A tier may keep only its first `kept` records: all of them, none (a derived tier, which
// the game recomputes one ply from its children) or a prefix (the rest is a tail the game
// copies from another tier). Reads address the kept records only.
//
// A tier's size is usually known before the solve (the game counts its positions). A tier
// declared with kSizedBySolve instead learns its size when it is committed: a table of the
// distinct values a solve meets, say (the combinatorial game values of Toads and Frogs: how
// many new forms a class of boards brings is known only once it is solved). Such a tier
// keeps all its records; tier_positions() gives the size it was committed with.
#pragma once

#include <concepts>
#include <cstdint>
#include <cstring>
#include <functional>
#include <nlohmann/json.hpp>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "solver/core/packed.hpp"

namespace toadbase {

using TierId = uint32_t;

/// What identifies a solved instance: the game, its parameters and its record type (the
/// record's name and width in bytes).
struct Identity {
  std::string game;
  nlohmann::json parameters;
  std::string record;
  uint32_t record_bytes = 1;
  /// How the store should cut a new database's records into compressed blocks, in bytes (a
  /// power of two, 4 KiB to 1 MiB); 0 for the store's default (64 KiB). A game whose query
  /// reads many scattered records (a CGT board's form, options, text and every child's) asks
  /// for smaller blocks: each read decompresses less. Not part of what identifies the
  /// instance: a database keeps the block size it was created with.
  uint32_t block_bytes = 0;
};

/// TierInfo::positions of a tier whose size the solve learns (see the top of this file).
inline constexpr uint64_t kSizedBySolve = UINT64_MAX;

/// One tier as the game names and sizes it.
struct TierInfo {
  std::string name;
  uint64_t positions;  // records, or kSizedBySolve
  bool sized_by_solve() const { return positions == kSizedBySolve; }
};

/// commit_tier's `keep` for "every record".
inline constexpr uint64_t kAllRecords = UINT64_MAX;

/// Kept records [first, first + count) of one tier.
struct RecordRun {
  TierId tier = 0;
  uint64_t first = 0, count = 0;
};

/// The read side: the tiers an earlier solve committed. Thread-safe: many readers at once.
class TierSource {
 public:
  virtual ~TierSource() = default;
  /// Bytes per record (the same for every tier).
  virtual unsigned record_bytes() const = 0;
  /// True when the tier was committed.
  virtual bool has_tier(TierId tier) const = 0;
  /// How many records a committed tier had (kept or not).
  virtual uint64_t tier_positions(TierId tier) const = 0;
  /// How many leading records a committed tier keeps.
  virtual uint64_t tier_kept(TierId tier) const = 0;
  /// True when `count` records (record-major) are those the tier's digest was made of: how
  /// a tier's records that are not kept (a tail, a derived tier) are checked.
  virtual bool matches_digest(TierId tier, const void* records, uint64_t count) const = 0;
  /// The kept records of a committed tier into `out` (tier_kept x record_bytes bytes,
  /// record-major). Checks what the store can check (digests), throws on damage.
  virtual void load_tier(TierId tier, void* out) const = 0;
  /// One kept record (index below tier_kept) into `out` (record_bytes bytes).
  virtual void read_record(TierId tier, uint64_t index, void* out) const = 0;
  /// Kept records [first, first + count) into `out` (record-major): a run read at once (a
  /// value's text, a form's options). This default reads them one by one; a store may read
  /// each of its blocks once.
  virtual void read_records(TierId tier, uint64_t first, uint64_t count, void* out) const {
    auto* bytes = static_cast<uint8_t*>(out);
    for (uint64_t i = 0; i < count; ++i) read_record(tier, first + i, bytes + i * record_bytes());
  }
  /// A hint: these runs will be read next (a query that knows the scattered records it needs
  /// before it reads them, such as a board's children). A store that caches may fetch their
  /// blocks now (the database: a few on the calling thread, many on every core at once),
  /// so that the reads after it find them held; it reads no more than a few hundred blocks
  /// for a hint, and leaves a run it cannot read (out of range, damaged) to the read that
  /// follows, which says what is wrong. Returns when the fetching is done. This default does
  /// nothing.
  virtual void prefetch(std::span<const RecordRun> runs) const { (void)runs; }

  /// The kept records of a tier as an array of R (sizeof(R) == record_bytes()).
  template <class R>
  std::vector<R> load(TierId tier) const {
    check_width<R>();
    std::vector<R> out(tier_kept(tier));
    if (!out.empty()) load_tier(tier, out.data());
    return out;
  }
  /// One kept record as an R.
  template <class R>
  R record(TierId tier, uint64_t index) const {
    check_width<R>();
    R r;
    read_record(tier, index, &r);
    return r;
  }

 private:
  template <class R>
  void check_width() const {
    static_assert(std::is_trivially_copyable_v<R>);
    if (sizeof(R) != record_bytes())
      throw std::logic_error("records of " + std::to_string(sizeof(R)) + " bytes read from a store of " +
                             std::to_string(record_bytes()) + "-byte records");
  }
};

/// The write side: a solve commits each tier once it is solved.
class TierStore : public TierSource {
 public:
  /// Commits a freshly solved tier (atomically: all of it or none of it) from `count`
  /// records at `records` (record-major), keeping its first `keep` records (kAllRecords for
  /// all; the digest covers all `count`). Called from several threads at once (the tiers of
  /// one level), so it must be thread-safe. A resumed solve may commit a tier again.
  virtual void commit_tier(TierId tier, const void* records, uint64_t count, uint64_t keep) = 0;
  /// Commits a tier packed by this kind of store's TierPacker (below): a tier a rank that
  /// holds no store solved, of `count` records keeping `keep` (the plan's, as commit_tier's;
  /// a packed tier of another size is refused). Atomic and thread-safe as commit_tier.
  virtual void commit_packed(TierId tier, std::span<const uint8_t> packed, uint64_t count, uint64_t keep) {
    (void)packed, (void)count, (void)keep;
    throw std::logic_error("this store cannot commit tier " + std::to_string(tier) + " packed elsewhere");
  }

  /// Writes records [first, first + count) of a tier, record-major, at `out`.
  using RecordSource = std::function<void(uint64_t first, uint64_t count, void* out)>;
  /// Commits a tier of `count` records, keeping them all, that the store asks `source` for a
  /// run at a time as it packs them: a tier too large to hold record-major (a CGT chunk's
  /// text, a character a 4-byte record, is kept compressed until it is committed).
  /// Atomic and thread-safe as commit_tier; `source` may be called from several threads at
  /// once and for a run more than once. This default makes the whole tier and commits it.
  virtual void commit_tier_from(TierId tier, uint64_t count, const RecordSource& source) {
    std::vector<uint8_t> records(count * record_bytes());
    if (count) source(0, count, records.data());
    commit_tier(tier, records.data(), count, kAllRecords);
  }

  /// How this kind of store compresses records, for a solve that holds its finished tiers
  /// packed under a memory budget (packed.hpp); none (this default): such a solve is refused.
  virtual const RecordCodec* record_codec() const { return nullptr; }
  /// commit_tier() of a tier the solve then holds packed: also its leading records as
  /// record_codec() unpacks them, whole blocks of PackedTier::kBlock bytes from the tier's
  /// first, where the store compressed the same blocks to commit them (so they are not
  /// compressed twice); the solve packs the rest (all of it: this default, and a store whose
  /// blocks are another layout).
  virtual std::vector<std::vector<uint8_t>> commit_tier_held(TierId tier, const void* records, uint64_t count,
                                                             uint64_t keep) {
    commit_tier(tier, records, count, keep);
    return {};
  }

  template <class R>
  void commit(TierId tier, std::span<const R> records, uint64_t keep = kAllRecords) {
    static_assert(std::is_trivially_copyable_v<R>);
    if (sizeof(R) != record_bytes())
      throw std::logic_error("records of " + std::to_string(sizeof(R)) + " bytes committed to a store of " +
                             std::to_string(record_bytes()) + "-byte records");
    commit_tier(tier, records.data(), records.size(), keep);
  }
  template <class R>
  void commit(TierId tier, const std::vector<R>& records, uint64_t keep = kAllRecords) {
    commit(tier, std::span<const R>(records), keep);
  }
  template <class R, class B>
    requires std::same_as<B, bool>
  void commit(TierId, const std::vector<R>&, B) = delete;  // keep counts records
};

/// Packs a solved tier into the bytes its store commits it from (its kept records compressed
/// as the store keeps them, its digest), on any rank: in a distributed solve the ranks that
/// hold no store pack the tiers they report, and rank 0 commits the bytes as they come
/// (TierStore::commit_packed), so a tier is compressed once, where it was solved.
class TierPacker {
 public:
  virtual ~TierPacker() = default;
  /// `count` records (record-major) of which the store keeps the first `keep`.
  virtual std::vector<uint8_t> pack(const void* records, uint64_t count, uint64_t keep) const = 0;
};

}  // namespace toadbase
