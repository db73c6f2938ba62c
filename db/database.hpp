// The position database: one embedded RocksDB per solved instance (game + parameters).
//
// It stores typed arrays of records per tier and knows nothing of rules.
//
//   key                               value
//   "manifest"                        JSON: format, game, parameters, record type, tier
//                                     count, positions, complete flag, digest; on a complete
//                                     database also every tier's name, count, size, digest
//   'T' u32be(tier)                   the tier's commit record: positions, blocks, stored
//                                     bytes, XXH64 digest of the tier, records kept (40
//                                     bytes; format 1 had 32, keeping all or none)
//   'B' u32be(tier) u32be(block)      a block of up to kBlockRecords consecutive records:
//                                     u64le XXH64 of the raw records, then a zstd frame
//
// A tier keeps all its records, none (a derived tier: the game recomputes it one ply from
// its children), or a prefix (the rest is a tail the game copies from another tier); the
// digest always covers the whole tier.
//
// A tier's blocks and its commit record go into the same ingested SST file (a group of
// tiers: SstFileWriter, then IngestExternalFile, which is atomic), so a tier is committed
// whole or not at all; `solve` resumes with the tiers not yet committed. The manifest is written
// when the database is created and rewritten last, when every tier is in.
//
// Digests: a tier's digest is the XXH64 of its raw records; the database digest is the
// XXH64 of the tier digests (u64le, in tier order). Neither depends on the thread count or
// the block size.
#pragma once

#include <rocksdb/db.h>

#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "solver/core/record.hpp"
#include "solver/core/tier_solver.hpp"

namespace toadbase::db {

inline constexpr uint32_t kFormatVersion = 2;
/// The oldest format this toadbase reads (format 1: a tier kept all its records or none).
inline constexpr uint32_t kOldestReadableVersion = 1;
inline constexpr uint64_t kBlockRecords = 1 << 16;
inline constexpr uint64_t kGroupBytes = 4 << 20;
inline constexpr double kGroupSeconds = 1.0;

/// A database that is missing, foreign, damaged, or does not fit the request.
struct DbError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// What the game tells the database about one tier.
struct TierInfo {
  std::string name;
  uint64_t positions;
};

/// A committed tier.
struct TierMeta {
  uint64_t positions = 0, blocks = 0, stored_bytes = 0, digest = 0;
  uint64_t kept = 0;  // records kept: the first `kept` of the tier
};

/// What identifies a solved instance: the game, its parameters and its record type.
/// A record of `record_bytes` > 1 bytes is stored as that many one-byte records (the game
/// lays them out, e.g. as byte planes); TierInfo and TierMeta count bytes, the manifest's
/// "positions" counts positions.
struct Identity {
  std::string game;
  nlohmann::json parameters;
  std::string record;
  uint32_t record_bytes = 1;
};

class Database {
 public:
  /// Opens the database at `path` for solving, creating it when missing. An existing
  /// database must hold the same identity and tiers, else DbError.
  static std::unique_ptr<Database> open_for_solve(const std::string& path, const Identity& id,
                                                  const std::vector<TierInfo>& tiers,
                                                  int zstd_level);
  /// Opens an existing database read-only. `cache_bytes` bounds the decompressed-block cache.
  static std::unique_ptr<Database> open_read_only(const std::string& path,
                                                  size_t cache_bytes = size_t{256} << 20);
  ~Database();

  const std::string& path() const { return path_; }
  /// The manifest (after finish(), the per-tier list is read back from its text on first
  /// use: not thread-safe then).
  const nlohmann::json& manifest() const;
  Identity identity() const;
  bool complete() const { return manifest_.value("complete", false); }
  uint32_t tier_count() const { return static_cast<uint32_t>(tier_meta_.size()); }
  bool tier_committed(TierId t) const { return tier_meta_.at(t).has_value(); }
  const TierMeta& tier_meta(TierId t) const;
  uint32_t committed_tiers() const;

  /// Compresses and commits one tier atomically, keeping its first `keep` records (all by
  /// default; 0 for a derived tier: its size and digest only). Tiers are grouped: the
  /// group's SST file is ingested once it holds kGroupBytes or is kGroupSeconds old (or at
  /// flush()/finish()), so a crash loses at most the tiers of the groups in progress (one a
  /// committing thread), never part of a tier. Thread-safe against other commit_tier()
  /// calls; the reading calls (read_tier, read_record, ...) and flush() must not run while a
  /// commit does (the solver reads between levels). Committing a tier again replaces it.
  void commit_tier(TierId t, std::span<const Record> records, uint64_t keep = kAllRecords);
  template <class B>
    requires std::same_as<B, bool>
  void commit_tier(TierId, std::span<const Record>, B) = delete;  // keep counts records
  /// True for a committed tier that keeps no records (the game derives it, or all of it is
  /// a tail the game copies from another tier).
  bool tier_derived(TierId t) const { return tier_meta(t).kept == 0 && tier_meta(t).positions > 0; }
  /// Writes the pending group of tiers.
  void flush();
  /// The records a committed tier keeps (all of it, or its prefix); checks every block's
  /// digest, and the tier's when it keeps every record.
  std::vector<Record> read_tier(TierId t) const;
  /// One kept record (index below tier_meta(t).kept), through the decompressed-block cache.
  /// Thread-safe.
  Record read_record(TierId t, uint64_t index) const;
  /// Writes the final manifest once every tier is committed.
  void finish(const std::vector<TierInfo>& tiers);
  /// XXH64 over the tier digests (every tier must be committed).
  uint64_t digest() const;
  /// Bytes the database occupies on disk (its directory).
  uint64_t disk_bytes() const;

 private:
  Database() = default;
  void load_tier_meta();
  void parse_manifest(const std::string& value);  // checks format, version and fields
  /// The pending group and its file number, leaving pending_ empty (under commit_mu_).
  std::pair<std::vector<std::pair<std::string, std::string>>, uint64_t> take_group();
  /// Writes a group into one SST file and ingests it (atomically); on failure the group goes
  /// back to pending_ and the error is rethrown. Called without commit_mu_ held.
  void ingest_group(std::vector<std::pair<std::string, std::string>>& group, uint64_t number);
  void write_group(std::vector<std::pair<std::string, std::string>>& group, uint64_t number);
  std::vector<Record> decode_block(TierId t, uint64_t b, const std::string& value) const;
  rocksdb::Status get(const std::string& key, std::string* value) const;

  std::string path_;
  std::unique_ptr<rocksdb::DB> db_;
  bool read_only_ = true;
  int zstd_level_ = 3;
  mutable nlohmann::json manifest_;
  mutable std::string tiers_text_;  // finish()'s per-tier list, until manifest() parses it
  std::vector<std::optional<TierMeta>> tier_meta_;
  std::mutex commit_mu_;  // commit_tier: the group and the tier records
  std::vector<std::pair<std::string, std::string>> pending_;  // the group: keys, values
  uint64_t pending_bytes_ = 0;
  uint64_t ingested_ = 0;
  std::chrono::steady_clock::time_point last_flush_ = std::chrono::steady_clock::now();

  // decompressed-block cache: a slot per block of the database (direct-mapped), evicted in
  // the order blocks were loaded once the cache holds more than cache_cap_ bytes
  mutable std::mutex cache_mu_;
  std::vector<uint64_t> first_block_;                            // [tier] -> first global block
  mutable std::vector<std::unique_ptr<std::vector<Record>>> slot_;  // [global block]
  mutable std::deque<uint64_t> loaded_;                          // global blocks, oldest first
  mutable size_t cache_used_ = 0;
  size_t cache_cap_ = 0;
};

/// The solver's view of a database.
class DatabaseStore : public TierStore {
 public:
  explicit DatabaseStore(Database& db) : db_(db) {}
  bool has_tier(TierId t) const override { return db_.tier_committed(t); }
  std::vector<Record> load_tier(TierId t) override { return db_.read_tier(t); }
  void commit_tier(TierId t, const std::vector<Record>& r, uint64_t keep) override {
    db_.commit_tier(t, r, keep);
  }

 private:
  Database& db_;
};

std::string hex64(uint64_t v);

}  // namespace toadbase::db
