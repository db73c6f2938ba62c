// Committed tiers on their way to disk: a group of tiers' blocks and commit records is
// written into one SST file and ingested at once (atomic: the whole group or nothing), so a
// crash loses at most the groups in progress, never part of a tier.
//
// A group is written once it holds kGroupBytes or is kGroupSeconds old (or on flush). The
// group leaves the lock before it is written, so the level's other tiers go on committing
// meanwhile; a group that cannot be written goes back to the pending one (its tiers stay
// readable, a later flush writes them).
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace rocksdb {
class DB;
class Status;
}  // namespace rocksdb

namespace toadbase::db {

inline constexpr uint64_t kGroupBytes = 4 << 20;
inline constexpr double kGroupSeconds = 1.0;

class GroupWriter {
 public:
  using KeyValues = std::vector<std::pair<std::string, std::string>>;
  /// Writes to `db` (in directory `dir`) SST files cut as rocks_options(block_bytes) says.
  GroupWriter(rocksdb::DB& db, std::string dir, uint64_t block_bytes)
      : db_(db), dir_(std::move(dir)), block_bytes_(block_bytes) {}

  /// Adds a tier's keys and values; writes the group when it is due. Thread-safe.
  void add(KeyValues kvs);
  /// Writes the pending group now.
  void flush();
  /// The value of a key still waiting in the pending group (the latest added wins).
  bool pending(const std::string& key, std::string* value) const;

 private:
  std::pair<KeyValues, uint64_t> take();  // under mu_
  void ingest(KeyValues& group, uint64_t number);
  void write(KeyValues& group, uint64_t number);

  rocksdb::DB& db_;
  std::string dir_;
  uint64_t block_bytes_;
  mutable std::mutex mu_;
  KeyValues pending_;
  uint64_t pending_bytes_ = 0, written_ = 0;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

}  // namespace toadbase::db
