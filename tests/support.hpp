// Shared helpers of the test suite: the brute-force oracle, an in-memory tier store, temp
// directories, and running the toadbase binary.
//
// THE ORACLE. Written from the rules of the spec (toads-and-frogs.md), not from
// the code under test: a position is a string "<turn>_<board>", turn '1' (Toads to move) or
// '2' (Frogs to move), board cells 'T', 'F', '-'. Moves, values and remoteness come from plain
// recursion over these strings, memoized.
//
//     "1_TT-FF"   Toads to move: the toad on cell 1 slides to cell 2 -> "2_T-TFF"
#pragma once

#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <map>
#include <span>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "solver/core/record.hpp"
#include "solver/core/engine.hpp"
#include "solver/core/hash.hpp"
#include "solver/games/toads_frogs/toads_frogs.hpp"

namespace tbtest {

namespace tf = toadbase::toads_frogs;
using toadbase::Record;
using toadbase::TierId;

// ---- the oracle ------------------------------------------------------------------------

/// Value of a position for the player to move, with its remoteness.
struct Truth {
  bool win = false;
  unsigned remoteness = 0;
  friend bool operator==(const Truth&, const Truth&) = default;
};

/// Every position one move away, as "<turn>_<board>" strings (order unspecified).
std::vector<std::string> oracle_children(const std::string& pos);
/// Value and remoteness by plain recursion (memoized).
Truth oracle(const std::string& pos);
/// Every board of n cells over T F -, 3^n of them.
std::vector<std::string> all_boards(int n);
/// The board reversed with T and F swapped.
std::string oracle_mirror_board(const std::string& board);
/// (toads, frogs) on a board.
std::pair<int, int> piece_counts(const std::string& board);

// ---- text and keys --------------------------------------------------------------------------

/// The lines of a text, without their line ends.
std::vector<std::string> lines_of(const std::string& text);
/// The words of a text (split at white space).
std::vector<std::string> words_of(const std::string& text);
/// Checks (CHECK) that a message shows none of the libraries' own texts: CLI11's and the JSON
/// library's, DBL_MAX in full.
void check_no_library_text(const std::string& text);
/// The database's keys, written here from the README's layout (not the project's code): a
/// tier's manifest "T" + tier (big-endian 32 bits), a block "B" + tier + block.
std::string tier_key(uint32_t tier);
std::string block_key(uint32_t tier, uint32_t block);

// ---- conversions written here (not the project's parse / format) ------------------------

tf::Position to_position(const std::string& pos);
std::string to_string(const tf::Position& p);

// ---- an in-memory tier store --------------------------------------------------------------

/// Keeps every committed tier's records whole (also of derived tiers, for the tests'
/// lookups), but loads only what the solver asked it to keep: nothing of a derived tier
/// (`keep` 0: the solver must recompute it from its children), the prefix of a tier with a
/// tail (the solver must copy the tail from its source). A tier committed from another rank
/// (commit_digested) has only its kept records and its digest. Records of type R (one byte:
/// MemStore).
template <class R>
class BasicMemStore : public toadbase::TierStore {
 public:
  explicit BasicMemStore(size_t tiers) : records(tiers), committed(tiers, false), kept(tiers, 0), digests(tiers, 0) {}
  BasicMemStore(const BasicMemStore& o)
      : records(o.records), committed(o.committed), kept(o.kept), digests(o.digests), counts(o.counts),
        allow_recommit(o.allow_recommit) {}
  unsigned record_bytes() const override { return sizeof(R); }
  bool has_tier(TierId t) const override { return t < committed.size() && committed[t]; }
  uint64_t tier_positions(TierId t) const override { return counts.count(t) ? counts.at(t) : records.at(t).size(); }
  uint64_t tier_kept(TierId t) const override { return std::min<uint64_t>(kept.at(t), records.at(t).size()); }
  bool matches_digest(TierId t, const void* r, uint64_t count) const override {
    return count == tier_positions(t) && toadbase::tier_digest(r, count, sizeof(R)) == digest_of(t);
  }
  void load_tier(TierId t, void* out) const override {
    ++loads;
    if (!committed.at(t)) throw std::logic_error("load of uncommitted tier " + std::to_string(t));
    if (!kept.at(t)) throw std::logic_error("load of derived tier " + std::to_string(t));
    std::copy_n(records.at(t).begin(), tier_kept(t), static_cast<R*>(out));
  }
  void read_record(TierId t, uint64_t index, void* out) const override {
    if (!committed.at(t) || index >= tier_kept(t))
      throw std::logic_error("read of a record tier " + std::to_string(t) + " does not keep");
    *static_cast<R*>(out) = records[t][index];
  }
  void commit_tier(TierId t, const void* r, uint64_t count, uint64_t keep) override {
    std::lock_guard lock(mu_);  // the solver commits a level's tiers from several threads
    ++commits;
    if (committed.at(t) && !allow_recommit)
      throw std::logic_error("tier " + std::to_string(t) + " committed twice");
    const auto* first = static_cast<const R*>(r);
    records.at(t).assign(first, first + count);
    committed.at(t) = true;
    kept.at(t) = keep;
    digests.at(t) = 0;
    counts.erase(t);
  }
  /// A tier packed by MemPacker (below) on another rank: its kept records and its digest.
  void commit_packed(TierId t, std::span<const uint8_t> packed, uint64_t plan_count, uint64_t plan_keep) override {
    uint64_t head[3];
    if (packed.size() < sizeof head) throw std::logic_error("a packed tier too short");
    std::memcpy(head, packed.data(), sizeof head);
    const uint64_t count = head[0], keep = head[1];
    if (count != plan_count || keep != std::min(plan_keep, plan_count))
      throw std::logic_error("a packed tier of another size than the plan's");
    if (packed.size() != sizeof head + keep * sizeof(R)) throw std::logic_error("a packed tier of the wrong size");
    std::lock_guard lock(mu_);
    ++commits;
    ++packed_commits;
    if (committed.at(t) && !allow_recommit)
      throw std::logic_error("tier " + std::to_string(t) + " committed twice");
    records.at(t).resize(keep);
    if (keep) std::memcpy(records.at(t).data(), packed.data() + sizeof head, keep * sizeof(R));
    committed.at(t) = true;
    kept.at(t) = keep;
    digests.at(t) = head[2];
    counts[t] = count;
  }
  /// The tier's digest (tier_digest of all its records).
  uint64_t digest_of(TierId t) const {
    if (counts.count(t)) return digests.at(t);
    return toadbase::tier_digest(records.at(t).data(), records.at(t).size(), sizeof(R));
  }
  /// A tier an earlier run committed.
  template <class B>
    requires std::same_as<B, bool>
  void preload(TierId, std::vector<R>, B) = delete;  // keep counts records
  void preload(TierId t, std::vector<R> r, uint64_t keep) {
    records.at(t) = std::move(r);
    committed.at(t) = true;
    kept.at(t) = keep;
  }

  std::vector<std::vector<R>> records;  // whole, or the kept records of a tier committed from its digest
  std::vector<bool> committed;
  std::vector<uint64_t> kept;
  std::vector<uint64_t> digests;
  std::map<TierId, uint64_t> counts;  // tiers committed from their digest: their record count
  mutable uint64_t loads = 0;
  uint64_t commits = 0, packed_commits = 0;
  bool allow_recommit = false;  // a resumed solve may commit a tier again (its tail's source was lost)
  /// What record_codec() offers a solve that holds its finished tiers packed (none: refused).
  const toadbase::RecordCodec* codec = nullptr;
  const toadbase::RecordCodec* record_codec() const override { return codec; }

 private:
  std::mutex mu_;
};
using MemStore = BasicMemStore<Record>;

/// A codec of the tests' own (not the database's zstd): runs of one byte as (byte, run
/// length - 1) pairs, runs of up to 256. It counts what it packs and unpacks, and refuses
/// bytes that do not unpack to exactly the size asked.
class RunCodec : public toadbase::RecordCodec {
 public:
  std::vector<uint8_t> pack(const uint8_t* raw, uint64_t bytes) const override {
    std::vector<uint8_t> out;
    for (uint64_t i = 0; i < bytes;) {
      uint64_t n = 1;
      while (i + n < bytes && n < 256 && raw[i + n] == raw[i]) ++n;
      out.push_back(raw[i]);
      out.push_back(static_cast<uint8_t>(n - 1));
      i += n;
    }
    packs += 1;
    packed_bytes += bytes;
    return out;
  }
  void unpack(std::span<const uint8_t> packed, uint8_t* raw, uint64_t bytes) const override {
    uint64_t at = 0;
    if (packed.size() % 2) throw std::runtime_error("RunCodec: an odd packed size");
    for (size_t i = 0; i < packed.size(); i += 2) {
      const uint64_t n = packed[i + 1] + uint64_t{1};
      if (at + n > bytes) throw std::runtime_error("RunCodec: more bytes than asked");
      std::memset(raw + at, packed[i], n);
      at += n;
    }
    if (at != bytes) throw std::runtime_error("RunCodec: fewer bytes than asked");
    unpacks += 1;
    unpacked_bytes += bytes;
  }
  mutable std::atomic<uint64_t> packs{0}, unpacks{0}, packed_bytes{0}, unpacked_bytes{0};
};

/// What BasicMemStore::commit_packed takes: u64 count, keep, digest, then the kept records.
template <class R>
class MemPacker : public toadbase::TierPacker {
 public:
  std::vector<uint8_t> pack(const void* records, uint64_t count, uint64_t keep) const override {
    keep = std::min(keep, count);
    const uint64_t head[3] = {count, keep, toadbase::tier_digest(records, count, sizeof(R))};
    std::vector<uint8_t> out(sizeof head + keep * sizeof(R));
    std::memcpy(out.data(), head, sizeof head);
    if (keep) std::memcpy(out.data() + sizeof head, records, keep * sizeof(R));
    return out;
  }
};

/// A space solved in memory through the engine.
struct SolvedSpace {
  explicit SolvedSpace(tf::SpaceParams params, int threads = 0);
  toadbase::Outcome outcome(const tf::Position& p) const;
  /// Outcome of a "<turn>_<board>" string.
  toadbase::Outcome outcome(const std::string& pos) const;
  Truth truth(const std::string& pos) const;

  tf::Space space;
  MemStore store;
  toadbase::SolveStats stats;
};

// ---- files and processes ------------------------------------------------------------------

/// A path the build gives the test programs, read at run time from test-paths.txt beside the
/// running program (tests/CMakeLists.txt writes it): "toadbase" (the command), "scratch" (the
/// tests' scratch folder), "source" (the checkout), "slow_solve", "mpi_fault_solve" (helper
/// programs; "" where not built). Throws std::runtime_error when the file or the key is missing.
const std::string& test_path(const std::string& key);
inline const std::string& toadbase_bin() { return test_path("toadbase"); }
inline const std::string& source_dir() { return test_path("source"); }

/// A fresh directory under the build tree's test scratch area, removed on destruction.
class TempDir {
 public:
  explicit TempDir(const std::string& tag);
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

std::string read_file(const std::string& path);
void write_file(const std::string& path, const std::string& text);
/// The threads of process `pid` now (the "Threads:" line of /proc/<pid>/status); -1 when
/// the process or the line is not there.
int thread_count(pid_t pid);

struct RunResult {
  int rc = -1;
  std::string out, err;
};

/// Starts `binary` with `args`; as spawn_toadbase.
pid_t spawn_program(const std::string& binary, const std::vector<std::string>& args, const std::string& stdin_path,
                    const std::string& stdout_path, const std::string& stderr_path,
                    const std::vector<std::string>& env = {});
/// Runs `binary` with `args` (and `env` added) to completion.
RunResult run_program(const std::string& binary, const std::vector<std::string>& args,
                      const std::vector<std::string>& env = {});
/// Starts the toadbase binary with `args`; stdin/stdout/stderr from/to the given files
/// ("" = /dev/null). `env` entries ("NAME=value") are added to the environment.
/// `cwd` ("" = this process's) is the working directory of the child.
pid_t spawn_toadbase(const std::vector<std::string>& args, const std::string& stdin_path,
                     const std::string& stdout_path, const std::string& stderr_path,
                     const std::vector<std::string>& env = {}, const std::string& cwd = "");
/// Runs the toadbase binary to completion, feeding `input` on stdin.
RunResult run_toadbase(const std::vector<std::string>& args, const std::string& input = "",
                       const std::vector<std::string>& env = {}, const std::string& cwd = "");
/// The command line, for failure messages.
std::string describe(const std::vector<std::string>& args, const RunResult& r);

/// Runs toadbase and requires it to exit with `rc`.
RunResult run_expecting(const std::vector<std::string>& args, int rc, const std::string& input = "");
/// Runs toadbase and requires success.
inline RunResult ok(const std::vector<std::string>& args, const std::string& input = "") {
  return run_expecting(args, 0, input);
}

/// A database solved once for every test process that asks for it by `name` (`solve_args`:
/// what follows `toadbase solve`, without --db), for tests that only read it. One process
/// solves it (into a folder of its own, renamed into place when whole) while the others that
/// ask wait on a lock. Kept in the scratch area under a name that changes with the toadbase
/// binary, so a rebuilt command never reads an older one's database.
std::string shared_database(const std::string& name, const std::vector<std::string>& solve_args);

}  // namespace tbtest
