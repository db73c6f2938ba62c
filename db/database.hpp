// The position database: one embedded RocksDB per solved instance (game + parameters).
//
// It stores typed arrays of records per tier and knows nothing of rules: it is the engine's
// TierStore (solver/core/store.hpp). Its parts:
//
//   manifest.hpp      the manifest and the tiers' commit records (what a database says)
//   layout.hpp        records as byte planes in blocks of 64 KiB (or the game's size);
//                     from format 4 a block holds its own records' planes
//   codec.hpp         a block as stored: XXH64 of its bytes, then a zstd frame
//   group_writer.hpp  committed tiers grouped into one ingested SST file (atomic)
//   block_cache.hpp   decompressed blocks kept for lookups
//
//   key                               value
//   "manifest"                        the manifest (JSON), small: what identifies the database
//   "tiers"                           once complete: every tier's name, counts, size, digest
//                                     (JSON text; older databases kept it in the manifest)
//   'T' u32be(tier)                   the tier's commit record
//   'B' u32be(tier) u32be(block)      a block of the tier's byte planes (layout.hpp)
//
// A tier keeps all its records, none (a derived tier: the game recomputes it one ply from its
// children), or a prefix (the rest is a tail the game copies from another tier); the digest
// always covers the whole tier. A tier's blocks and its commit record go into the same
// ingested SST file, so a tier is committed whole or not at all; `solve` resumes with the
// tiers not yet committed. The manifest is written when the database is created and
// rewritten last, when every tier is in.
//
// Digests: a tier's digest is the XXH64 of its byte planes one after the other (for one-byte
// records, of the records themselves), in every format; the database digest is the XXH64 of
// the tier digests (u64le, in tier order). Neither depends on the thread count or the block
// size.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "db/errors.hpp"
#include "db/layout.hpp"
#include "db/manifest.hpp"
#include "solver/core/store.hpp"

namespace rocksdb {
class DB;
struct ReadOptions;
class WriteBatch;
}  // namespace rocksdb

namespace toadbase::db {

class BlockCache;
class GroupWriter;
struct PackedTier;

class Database : public TierStore {
 public:
  /// Opens the database at `path` for solving, creating it when missing. An existing
  /// database must hold the same identity and tiers, else DbError; it is looked at read-only
  /// first, so a refused solve writes nothing, and a complete one comes back read-only (there
  /// is nothing to write). `repair`: a damaged manifest is written anew from `id` and `tiers`
  /// when the tiers' commit records fit them (see damaged_tiers() for the rest).
  static std::unique_ptr<Database> open_for_solve(const std::string& path, const Identity& id,
                                                  const std::vector<TierInfo>& tiers, int zstd_level,
                                                  bool repair = false);
  /// Opens an existing database read-only. `cache_bytes` bounds the decompressed-block cache.
  static std::unique_ptr<Database> open_read_only(const std::string& path, size_t cache_bytes = size_t{256} << 20);
  ~Database() override;

  const std::string& path() const { return path_; }
  /// The manifest with its per-tier list once complete (read and parsed on first use: not
  /// thread-safe then; DbError when the list is damaged).
  const nlohmann::json& manifest() const;
  /// The manifest without the per-tier list.
  const nlohmann::json& summary() const { return manifest_; }
  Identity identity() const { return identity_of(manifest_); }
  bool complete() const { return manifest_.value("complete", false); }
  uint32_t tier_count() const { return static_cast<uint32_t>(tier_meta_.size()); }
  const TierMeta& tier_meta(TierId t) const;
  uint32_t committed_tiers() const;
  /// True for a committed tier that keeps no records (derived, or all of it a tail).
  bool tier_derived(TierId t) const { return tier_meta(t).kept == 0 && tier_meta(t).positions > 0; }
  /// True for a tier whose size the solve learned (store.hpp's kSizedBySolve).
  bool tier_sized_by_solve(TierId t) const { return t < sized_by_solve_.size() && sized_by_solve_[t]; }

  // the engine's view (TierSource, TierStore)
  unsigned record_bytes() const override { return width_; }
  bool has_tier(TierId t) const override { return t < tier_meta_.size() && tier_meta_[t].has_value(); }
  uint64_t tier_positions(TierId t) const override { return tier_meta(t).positions; }
  bool matches_digest(TierId t, const void* records, uint64_t count) const override;
  uint64_t tier_kept(TierId t) const override { return tier_meta(t).kept; }
  /// Checks every block's digest, and the tier's when it keeps every record.
  void load_tier(TierId t, void* out) const override;
  /// Through the decompressed-block cache. Thread-safe.
  void read_record(TierId t, uint64_t index, void* out) const override;
  /// Each block of the run read once, through the cache. Thread-safe.
  void read_records(TierId t, uint64_t first, uint64_t count, void* out) const override;
  /// Opened read-only: the runs' blocks not held yet (at most kPrefetchBlocks of them, and
  /// what half the cache holds) decoded into the cache: when fewer than kParallelPrefetch,
  /// asked of RocksDB together (one MultiGet) and decoded on this thread, else on the cores
  /// at once, a block to a task (one block alone is left to the read, as fast); a block that
  /// cannot be read is left to the read that follows. Opened for solving (no cache): nothing.
  void prefetch(std::span<const RecordRun> runs) const override;
  static constexpr size_t kPrefetchBlocks = 256, kParallelPrefetch = 16;
  /// RocksDB's cache of stored blocks in an open read-only (block_reads()).
  static constexpr size_t kStoredCacheBytes = size_t{64} << 20;
  /// The bytes RocksDB's cache of stored blocks holds now (tests, diagnostics).
  uint64_t stored_cache_bytes() const;
  /// Compresses and commits one tier atomically (see group_writer.hpp). Thread-safe against
  /// other commits; reads and flush() must not run while a commit does (the solver reads
  /// between levels). Committing a tier again replaces it.
  void commit_tier(TierId t, const void* records, uint64_t count, uint64_t keep) override;
  /// As commit_tier, returning the whole blocks it wrote where record_codec() unpacks them
  /// as the leading blocks of a tier held packed (one-byte records in blocks of
  /// PackedTier::kBlock bytes; the kept records' last block, when shorter, is not given).
  std::vector<std::vector<uint8_t>> commit_tier_held(TierId t, const void* records, uint64_t count,
                                                     uint64_t keep) override;
  /// Blocks as the database keeps them, packed at zstd level 1 (codec.hpp: ZstdRecordCodec;
  /// it unpacks the blocks commit_tier_held gives too), for a solve that holds tiers packed.
  const RecordCodec* record_codec() const override;
  /// As commit_tier, from the bytes packer() made of a tier on another rank.
  void commit_packed(TierId t, std::span<const uint8_t> packed, uint64_t count, uint64_t keep) override;
  /// As commit_tier, its records asked for a block's run at a time: no more than a few
  /// blocks' records (per thread) are made at once.
  void commit_tier_from(TierId t, uint64_t count, const RecordSource& source) override;
  /// Packs tiers into what commit_packed takes, on a rank that holds no database: the blocks
  /// compressed as a database with these records, zstd level, block bytes and layout
  /// (planes_per_block()) stores them.
  static std::unique_ptr<TierPacker> packer(unsigned record_bytes, int zstd_level, uint64_t block_bytes,
                                            bool per_block);
  /// Bytes a block holds at most (layout.hpp).
  uint64_t block_bytes() const { return block_bytes_; }
  /// Whether its blocks hold their records' planes each (format 4, layout.hpp).
  bool planes_per_block() const { return per_block_; }
  /// The zstd level of the stored blocks.
  int zstd_level() const { return zstd_level_; }

  /// A reader of this database for one thread: reads through a table of its own of the
  /// last blocks it used (`slots` of them, a block each, direct-mapped), so threads reading at
  /// once take no lock on a block they hold. Not thread-safe itself; outlived by the database.
  std::unique_ptr<TierSource> reader(size_t slots = 256) const;

  /// Writes the pending group of tiers.
  void flush();
  /// The committed tiers whose blocks no longer read back whole (damaged, missing, digests
  /// that differ), each with what is wrong.
  std::vector<std::pair<TierId, std::string>> damaged_tiers() const;
  /// Drops a tier's commit record and blocks (atomically), so that a solve commits it again.
  void forget_tier(TierId t);
  /// The tiers open_for_solve(repair) dropped, to be solved again, each with why: a damaged
  /// commit record, one of another size, or (a manifest written anew) a tier kept in part in
  /// a layout no tier tells.
  const std::vector<std::pair<TierId, std::string>>& repaired_tiers() const { return repaired_; }
  /// Writes the final manifest once every tier is committed.
  void finish(const std::vector<TierInfo>& tiers);
  /// XXH64 over the tier digests (every tier must be committed).
  uint64_t digest() const;
  /// Bytes the database occupies on disk (its directory).
  uint64_t disk_bytes() const;
  /// Opened read-only while incomplete: the process solving it now, if one is (its pid).
  std::optional<long> writer_pid() const { return writer_pid_; }

 private:
  class Reader;
  Database();
  void write_tier(TierId t, PackedTier tier);
  /// Reads the commit records; damaged ones throw, or with `damaged` are listed there.
  void load_tier_meta(std::vector<TierId>* damaged = nullptr);
  /// A manifest written anew (repair) over commit records of records wider than a byte:
  /// their layout (format 4, or 3 and older) taken from the first tier of several blocks,
  /// kept whole, that matches its digest in one layout and not the other, the manifest's
  /// format set to say so and the commit records read again into `damaged`; with none,
  /// format 4, and the tiers of several blocks that keep a prefix (which no digest checks)
  /// added to `damaged`, to be solved again (their reason in `why`).
  void settle_layout(std::vector<TierId>& damaged, std::map<TierId, std::string>& why);
  void check_sized_by_solve(TierId t, const TierMeta& m, uint64_t table_total, const std::string& where) const;
  /// Writes `batch` synced to the log; a failure marks the database failed (write_failed_)
  /// and throws DbError naming `what`.
  void write(rocksdb::WriteBatch& batch, const std::string& what);
  void drop_tier_keys(TierId t);  // a tier's blocks and commit record, deleted (synced)
  std::string block(TierId t, uint64_t b) const;  // a stored block's value, checked present
  std::vector<uint8_t> decoded(TierId t, uint64_t b) const;
  /// "<path>: tier t block b", as errors name a block.
  std::string block_name(TierId t, uint64_t b) const;
  /// Block b of tier t decoded from its stored `value`; throws DbError naming it when damaged.
  std::vector<uint8_t> decoded(TierId t, uint64_t b, std::string_view value) const;
  /// What a read asks RocksDB: an open with a cache of decoded blocks as large as RocksDB's
  /// of stored ones (kStoredCacheBytes) or larger keeps none of the stored ones besides
  /// (each is decoded once into its own); a smaller one (export's, a single lookup's, a
  /// server's --cache below it) keeps them there as before.
  rocksdb::ReadOptions block_reads() const;
  /// A block decoded, through the cache when the database has one (opened read-only).
  std::shared_ptr<const std::vector<uint8_t>> held(TierId t, uint64_t b) const;
  PlaneLayout layout(const TierMeta& m) const { return {width_, m.kept, block_bytes_, per_block_}; }
  /// Record `index`'s bytes from `blk`, tier t's block b that holds every plane of it
  /// (layout.per_block); throws DbError when the block is not the size the tier says.
  void record_from_block(TierId t, const PlaneLayout& layout, uint64_t b, const std::vector<uint8_t>& blk,
                         uint64_t index, uint8_t* bytes) const;
  /// The errors for a block that is not the size its tier says it is, or shorter.
  DbError misfit_block(TierId t, uint64_t b) const;
  DbError short_block(TierId t) const;

  std::string path_;
  std::unique_ptr<rocksdb::DB> db_;
  bool read_only_ = true;
  int zstd_level_ = 3;
  unsigned width_ = 1;
  uint64_t block_bytes_ = kDefaultBlockBytes;  // a block holds at most (the manifest's)
  bool per_block_ = false;                     // planes per block (format 4 with records wider than a byte)
  nlohmann::json manifest_;               // without the per-tier list
  mutable std::optional<nlohmann::json> full_;  // with it, once asked for
  std::atomic<bool> write_failed_{false};  // a write failed: closing writes nothing more
  std::vector<std::pair<TierId, std::string>> repaired_;
  std::vector<std::optional<TierMeta>> tier_meta_;
  std::vector<bool> sized_by_solve_;  // [t]: the tier's size is the one it was committed with
  std::unique_ptr<GroupWriter> writer_;  // opened for solving
  std::vector<uint64_t> first_block_;    // [tier] -> its first global block (the cache's slots)
  std::unique_ptr<BlockCache> cache_;    // opened read-only
  std::optional<long> writer_pid_;       // opened read-only: a solve holding the lock
};

/// The process holding the lock of the database at `path` (a solve writing it), when one
/// does and the system says which (Linux's /proc/locks).
std::optional<long> lock_holder(const std::string& path);
/// "PATH is being solved by another process (pid N); ..."
std::string being_solved(const std::string& path, std::optional<long> pid);

}  // namespace toadbase::db
