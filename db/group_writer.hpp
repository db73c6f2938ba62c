// Committed tiers on their way to disk: a group of tiers' blocks and commit records is
// written into one SST file and ingested at once (atomic: the whole group or nothing), so a
// crash loses at most the groups in progress, never part of a tier.
//
// A group is due once it holds kGroupBytes or is kGroupSeconds old. A due group is written
// on the writer's own thread while the solve's threads go on (a group written by the thread
// that committed its last tier kept that thread from the level for the SST file, its fsync
// and the ingest, and at a level's end the other threads waited for it: 0.1-0.3 core
// seconds of a 2.2 s solve of 18 cells on two cores). One group is written at a time: a
// group due while the one before is still being written waits for it (the committing thread
// with it), so no more than two groups are held. flush() writes the pending group on the
// calling thread once the writer is idle.
//
// A group that cannot be written is kept aside (its tiers stay readable; the next group
// written, a flush's, starts with it) and its error is kept: every later add() throws it
// (DbError, with the first failure's message; the tier it adds is pending all the same), so
// the solve stops at its next commit, and the database's finish() refuses. flush() writes
// everything kept again, and clears the error when that is written. A flush writes in the
// writer's place (one group is written at a time, and pending() finds it meanwhile).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace rocksdb {
class DB;
class Status;
}  // namespace rocksdb

namespace toadbase::db {

inline constexpr uint64_t kGroupBytes = 4 << 20;
/// The writer's thread's name (what `top -H` shows; a solve's report counts its CPU by it).
inline constexpr char kWriterThreadName[] = "toadbase-writer";
inline constexpr double kGroupSeconds = 1.0;

class GroupWriter {
 public:
  using KeyValues = std::vector<std::pair<std::string, std::string>>;
  /// Writes to `db` (in directory `dir`) SST files cut as rocks_options(block_bytes) says.
  GroupWriter(rocksdb::DB& db, std::string dir, uint64_t block_bytes)
      : db_(db), dir_(std::move(dir)), block_bytes_(block_bytes) {}
  /// Waits for the group being written (it is ingested or fails whole) and stops the writer;
  /// the pending group is not written (flush() first to keep it).
  ~GroupWriter();
  GroupWriter(const GroupWriter&) = delete;
  GroupWriter& operator=(const GroupWriter&) = delete;

  /// Adds a tier's keys and values; hands the group to the writer's thread when it is due.
  /// Thread-safe. Throws the error of a write that failed since the last flush().
  void add(KeyValues kvs);
  /// Waits for the writer, then writes the pending group now (with a group the writer
  /// failed to write), on this thread. Throws when that fails.
  void flush();
  /// The value of a key still waiting in the pending group (the latest added wins), in the
  /// group being written, or in one that failed.
  bool pending(const std::string& key, std::string* value) const;
  /// True when a write failed since the last flush() that wrote everything; a group being
  /// written is waited for first (ingested, or failed).
  bool failed() const;
  /// Throws the error of a write that failed since the last flush() that wrote everything.
  void throw_failure() const;

 private:
  // under mu_:
  bool due() const;
  void start_writing();  // the pending group (after one that failed) becomes the one written
  void done_writing(std::exception_ptr error) noexcept;  // a failed group is kept aside
  // the group start_writing() made, written with mu_ let go meanwhile (`lock` holds it);
  // its outcome recorded (done_writing) and returned
  std::exception_ptr write_started(std::unique_lock<std::mutex>& lock);
  void failed_here() const;                              // throws a kept failure
  void run();  // the writer's thread
  void write(const KeyValues& group, uint64_t number) const;

  rocksdb::DB& db_;
  std::string dir_;
  uint64_t block_bytes_;
  mutable std::mutex mu_;
  std::condition_variable wake_;  // the writer: a group to write, or stop
  mutable std::condition_variable idle_;  // adders, flush and failed(): the writer is done with its group
  KeyValues pending_;
  KeyValues writing_;  // the group being written: read only, by the writer and pending()
  KeyValues failed_;   // a group that failed, written again before the pending one
  uint64_t writing_number_ = 0;
  bool busy_ = false;    // a group is being written (by the writer's thread or a flush)
  bool handed_ = false;  // the writer's thread has a group to write
  bool stop_ = false;
  std::string failure_;  // the first failed write's message (empty: none)
  uint64_t pending_bytes_ = 0, written_ = 0;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
  std::thread thread_;  // started with the first due group
};

}  // namespace toadbase::db
