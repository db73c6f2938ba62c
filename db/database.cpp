#include "db/database.hpp"

#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/table.h>
#include <rocksdb/write_batch.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <new>
#include <stdexcept>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "db/block_cache.hpp"
#include "db/codec.hpp"
#include "db/group_writer.hpp"
#include "db/layout.hpp"
#include "db/rocks.hpp"

namespace toadbase::db {

namespace fs = std::filesystem;

namespace {
constexpr const char* kManifestKey = "manifest";
constexpr const char* kTiersKey = "tiers";

/// Whether every key of `db` is one a toadbase database writes: its manifest, its per-tier
/// list, commit records ("T" + 4 bytes) and blocks ("B" + 8 bytes).
bool only_toadbase_keys(rocksdb::DB& db) {
  std::unique_ptr<rocksdb::Iterator> it(db.NewIterator(rocksdb::ReadOptions()));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    const rocksdb::Slice k = it->key();
    const bool ours = k == kManifestKey || k == kTiersKey || (k.size() == 5 && k[0] == 'T') || (k.size() == 9 && k[0] == 'B');
    if (!ours) return false;
  }
  return it->status().ok();
}
}  // namespace

rocksdb::Options rocks_options(uint64_t block_bytes) {
  rocksdb::Options o;
  o.compression = rocksdb::kNoCompression;  // values are zstd frames already
  o.paranoid_checks = true;
  o.write_buffer_size = 64 << 20;
  o.max_write_buffer_number = 4;
  o.info_log_level = rocksdb::InfoLogLevel::WARN_LEVEL;
  o.keep_log_file_num = 2;
  // A solve ingests its groups of tiers (group_writer.hpp) in the order they are solved, not
  // in key order, so every group's file spans most of the keys and lands in L0, and each
  // compaction out of L0 rewrites most of L1 with it: with RocksDB's trigger of 4 files, 22
  // cells wrote 55 GB for a database of 5 GB, RocksDB's threads took 56 s of CPU. Compacting
  // 32 files at once: 26 GB, 30 s, and the solve 0.89x the wall (results/FRONTIER.md, *A
  // change against the binary before it*). The up to 31 files a finished database keeps in L0
  // (read-only opens never compact) cost lookups little, a Bloom filter each: 20,000 random
  // positions of 22 cells from one query, 23 files in L0 against 6, took 5.4-6.1 s against
  // 6.8-7.2 s from a warm page cache and a median 10.6 s against 9.9 s from a cold one (4
  // alternated runs). The write stalls move with the trigger.
  o.level0_file_num_compaction_trigger = 32;
  o.level0_slowdown_writes_trigger = 64;
  o.level0_stop_writes_trigger = 96;
  o.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table_options(block_bytes)));
  return o;
}

rocksdb::BlockBasedTableOptions table_options(uint64_t block_bytes) {
  rocksdb::BlockBasedTableOptions table;
  table.block_size = data_block_bytes(block_bytes);
  // a Bloom filter a file: a lookup reads the data block of the one file that holds its key,
  // not one in every level whose key range spans it (without filters a fresh reader read up
  // to one 32 KiB block a level for each key)
  table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  return table;
}

namespace {

/// The words of a failed RocksDB status for people: the kind of failure and the file it
/// names, not RocksDB's own message (offsets, internal codes).
std::string explain(const rocksdb::Status& s) {
  const std::string state = s.getState() ? s.getState() : "";
  std::string file;  // the database file named, without its directory
  for (const char* ext : {".sst", ".log", "MANIFEST-", "CURRENT", "OPTIONS-"}) {
    const size_t at = state.find(ext);
    if (at == std::string::npos) continue;
    size_t from = state.find_last_of("/ ", at);
    from = from == std::string::npos ? 0 : from + 1;
    size_t to = state.find_first_of(": ,", at);
    file = state.substr(from, (to == std::string::npos ? state.size() : to) - from);
    break;
  }
  const std::string in = file.empty() ? "" : " in " + file;
  if (s.IsCorruption()) {
    std::string what = state.substr(0, state.find(':'));
    if (what.empty() || what.find('/') != std::string::npos) what = "its data does not match its checksums";
    return "the database is damaged (" + what + in + ")";
  }
  if (s.IsIOError()) {
    const size_t colon = state.rfind(": ");
    const std::string why = colon == std::string::npos ? state : state.substr(colon + 2);
    return "cannot read or write its files" + in + (why.empty() ? "" : " (" + why + ")");
  }
  if (s.IsNotFound()) return "a file is missing" + in;
  if (s.IsNotSupported()) return "uses a feature this build of RocksDB lacks" + in;
  if (s.IsInvalidArgument()) return "cannot be opened with these settings" + in;
  return "a storage error" + in;
}

/// "1.5 MiB", "640 KiB"
std::string size_text(uint64_t bytes) {
  char out[32];
  if (bytes >= (uint64_t{1} << 20)) std::snprintf(out, sizeof out, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  else std::snprintf(out, sizeof out, "%llu KiB", static_cast<unsigned long long>((bytes + 1023) / 1024));
  return out;
}

}  // namespace

std::optional<uint64_t> free_bytes(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::absolute(path, ec);
  if (ec) return std::nullopt;
  while (!fs::exists(p, ec) && p.has_parent_path() && p.parent_path() != p) p = p.parent_path();
  struct statvfs st {};
  if (::statvfs(p.c_str(), &st) != 0 || st.f_blocks == 0) return std::nullopt;  // 0: a size it does not keep
  return static_cast<uint64_t>(st.f_bavail) * st.f_frsize;
}

void ensure_space(const std::string& path, uint64_t bytes, const std::string& what) {
  const std::optional<uint64_t> free = free_bytes(path);
  if (!free || *free >= bytes + kSpaceMargin) return;
  throw DbError(what + ": no space left on the device (" + size_text(*free) + " free, this write needs " +
                size_text(bytes + kSpaceMargin) + " with room for RocksDB's own files)");
}

void check(const rocksdb::Status& s, const std::string& what) {
  if (s.ok()) return;
  const std::string text = s.ToString();
  if (s.IsNoSpace() || text.find("No space left") != std::string::npos)
    throw DbError(what + ": no space left on the device");
  if (text.find("Read-only file system") != std::string::npos || text.find("Permission denied") != std::string::npos)
    throw DbError(what + ": the database cannot be written here (" +
                  (text.find("Permission denied") != std::string::npos ? "permission denied" : "a read-only file system") +
                  ")");
  throw DbError(what + ": " + explain(s));
}

std::optional<long> lock_holder(const std::string& path) {
  struct stat st {};
  if (::stat((fs::path(path) / "LOCK").c_str(), &st) != 0) return std::nullopt;
  // /proc/locks: "1: POSIX  ADVISORY  WRITE 2991 fe:00:10953667 0 EOF" (device in hex)
  std::ifstream in("/proc/locks");
  char want[64];
  std::snprintf(want, sizeof want, "%02x:%02x:%llu", major(st.st_dev), minor(st.st_dev),
                static_cast<unsigned long long>(st.st_ino));
  for (std::string line; std::getline(in, line);) {
    std::istringstream f(line);
    std::string id, kind, mode, access, pid, dev;
    f >> id >> kind;
    if (kind == "->") f >> kind;  // a waiter, listed under the lock it waits for
    f >> mode >> access >> pid >> dev;
    if (dev == want && access == "WRITE" && !pid.empty() && pid.find_first_not_of("0123456789") == std::string::npos)
      return std::stol(pid);
  }
  return std::nullopt;
}

std::string being_solved(const std::string& path, std::optional<long> pid) {
  return path + " is being solved by another process" +
         (pid ? " (pid " + std::to_string(*pid) + ")" : std::string()) +
         "; wait for it to finish, or stop it (Ctrl-C keeps the tiers it committed), then solve again to resume "
         "(several at once: a launcher that started one-rank solves of it, srun without --mpi=pmix?)";
}

Database::Database() = default;

Database::~Database() {
  if (db_ && !read_only_) {
    // after a failed write (a full disk; here, or on the group writer's thread) the pending
    // group is lost as after a crash: the next solve resumes from what was ingested
    if (!write_failed_ && !(writer_ && writer_->failed())) {  // failed(): once a group in flight has its outcome
      try {
        flush();
      } catch (...) {
      }
    }
    // the writer's thread stopped first: a group it is writing is ingested (or fails) whole
    // while the database is still open
    writer_.reset();
    // no FlushWAL(true) here: every write to the log was synced when it was made (write()),
    // and after one failed RocksDB 7.8 asserts in its sync of the log it failed on
    // (WritableFileWriter's sync_without_flush_called_) instead of returning the error
    db_->Close().PermitUncheckedError();
  }
}

void Database::write(rocksdb::WriteBatch& batch, const std::string& what) {
  // the log's record, then the table a flush makes of it
  ensure_space(path_, 2 * uint64_t{batch.GetDataSize()}, what);
  rocksdb::WriteOptions w;
  w.sync = true;
  const rocksdb::Status s = db_->Write(w, &batch);
  if (!s.ok()) write_failed_ = true;
  check(s, what);
}

const nlohmann::json& Database::manifest() const {
  if (full_) return *full_;
  nlohmann::json m = manifest_;
  if (complete() && !m.contains("tiers")) {
    std::string text;
    const auto s = db_->Get(rocksdb::ReadOptions(), kTiersKey, &text);
    if (s.IsNotFound()) throw DbError(path_ + ": the manifest's per-tier list is missing");
    check(s, path_ + ": reading the manifest's per-tier list");
    try {
      m["tiers"] = nlohmann::json::parse(text);
    } catch (const std::exception&) {
      throw DbError(path_ + ": the manifest's per-tier list is damaged (solve --repair writes it again)");
    }
  }
  full_ = std::move(m);
  return *full_;
}

const TierMeta& Database::tier_meta(TierId t) const {
  if (t >= tier_meta_.size())
    throw DbError(path_ + ": tier " + std::to_string(t) + " is beyond the " + std::to_string(tier_meta_.size()) +
                  " tiers of this database");
  const auto& m = tier_meta_[t];
  if (!m) throw DbError(path_ + ": tier " + std::to_string(t) + " is not committed");
  return *m;
}

uint32_t Database::committed_tiers() const {
  uint32_t n = 0;
  for (const auto& m : tier_meta_) n += m.has_value();
  return n;
}

void Database::load_tier_meta(std::vector<TierId>* damaged) {
  width_ = manifest_.value("record_bytes", 1u);
  block_bytes_ = block_bytes_of(manifest_);
  tier_meta_.assign(manifest_.at("tier_count").get<uint32_t>(), std::nullopt);
  sized_by_solve_ = sized_by_solve(manifest_, path_);
  const uint32_t version = manifest_.at("format_version").get<uint32_t>();
  per_block_ = db::planes_per_block(version, width_);
  const uint64_t total = manifest_.value("positions", uint64_t{0});
  const uint64_t table_total = manifest_.value("table_records", uint64_t{0});
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions()));
  for (it->Seek("T"); it->Valid() && it->key().starts_with("T"); it->Next()) {
    TierId t = 0;
    if (!parse_tier_key(std::string_view(it->key().data(), it->key().size()), &t))
      throw DbError(path_ + ": a tier's commit record is damaged (its key)");
    if (t >= tier_meta_.size())
      throw DbError(path_ + ": a commit record names tier " + std::to_string(t) + ", beyond the " +
                    std::to_string(tier_meta_.size()) + " tiers of " + manifest_.value("game", "?") + " " +
                    manifest_.value("parameters", nlohmann::json::object()).dump() +
                    ": not this database's tier (are the parameters the ones it was solved with?)");
    try {
      const std::string where = path_ + ": tier " + std::to_string(t);
      const TierMeta m = decode_commit(std::string_view(it->value().data(), it->value().size()), width_, version, block_bytes_, where);
      // a damaged commit record must not claim more records than the whole database holds
      // (reading it would allocate them)
      if (!sized_by_solve_[t] && m.positions > total)
        throw DbError(where + " is damaged (its commit record claims " + std::to_string(m.positions) +
                      " records, the database holds " + std::to_string(total) + ")");
      if (sized_by_solve_[t]) check_sized_by_solve(t, m, table_total, where);
      tier_meta_[t] = m;
    } catch (const DbError&) {
      if (!damaged) throw;
      damaged->push_back(t);
    }
  }
  check(it->status(), path_ + ": reading tier records");
}

// A tier sized by the solve keeps all its records, and no total in an incomplete manifest
// bounds it: its last block must be there instead (a claim of 2^40 records names blocks
// that are not).
void Database::check_sized_by_solve(TierId t, const TierMeta& m, uint64_t table_total, const std::string& where) const {
  if (m.kept != m.positions)
    throw DbError(where + " is damaged (a tier sized by the solve keeps all its records, its commit record says " +
                  std::to_string(m.kept) + " of " + std::to_string(m.positions) + ")");
  if (complete()) {
    if (m.positions > table_total)
      throw DbError(where + " is damaged (its commit record claims " + std::to_string(m.positions) +
                    " records, the database's tables hold " + std::to_string(table_total) + ")");
    return;
  }
  if (m.blocks == 0) return;
  std::string value;
  const auto s = m.blocks > UINT32_MAX ? rocksdb::Status::NotFound()
                                       : db_->Get(rocksdb::ReadOptions(), block_key(t, m.blocks - 1), &value);
  if (s.IsNotFound())
    throw DbError(where + " is damaged (its commit record claims " + std::to_string(m.positions) + " records in " +
                  std::to_string(m.blocks) + " blocks, and its last block is missing)");
  check(s, where + ": reading its last block");
}

namespace {

/// Refuses a database that holds something else than `id` with these tiers.
void check_fits(const nlohmann::json& m, const std::string& path, const Identity& id, const std::vector<TierInfo>& tiers) {
  const Identity have = identity_of(m);
  if (have.game != id.game || have.parameters != id.parameters)
    throw DbError(path + " holds " + have.game + " " + have.parameters.dump() + ", not " + id.game + " " +
                  id.parameters.dump() + ": give another --db or remove it");
  if (have.record != id.record || have.record_bytes != id.record_bytes)
    throw DbError(path + " stores records " + have.record + ", this solve writes " + id.record + ": give --record " +
                  have.record + " to resume it, or another --db");
  if (m.value("format_version", 0u) < kOldestResumableVersion)
    throw DbError(path + " was written in format version " + m["format_version"].dump() +
                  " (an older toadbase); it can be read but not resumed: remove it and solve again");
  if (m.value("tiers_digest", "") != tiers_digest(tiers, id.record_bytes))
    throw DbError(path + " was made with another tier layout of " + id.game +
                  " (an older toadbase?); remove it and solve again");
}

/// True when `dir` holds only what RocksDB writes while it creates a database, before
/// CURRENT: a solve killed that early (the directory is RocksDB's, and holds no data).
bool only_creation_files(const std::string& dir) {
  std::error_code ec;
  bool any = false;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string n = e.path().filename().string();
    auto starts = [&](const char* p) { return n.rfind(p, 0) == 0; };
    auto ends = [&](const char* p) { return n.size() >= std::strlen(p) && n.compare(n.size() - std::strlen(p), std::string::npos, p) == 0; };
    const bool rocks = n == "LOCK" || n == "LOG" || n == "IDENTITY" || starts("LOG.old.") || starts("MANIFEST-") ||
                       starts("OPTIONS-") || ends(".dbtmp") || ends(".log");
    if (!rocks || !e.is_regular_file(ec)) return false;
    any = true;
  }
  return any && !ec;
}

/// RocksDB's info log (the LOG file) of a database opened for solving, its lines appended with
/// write(2) and a line that cannot be written dropped. RocksDB's own logger aborts on the line
/// after one it could not write (7.8's WritableFileWriter asserts sync_without_flush_called_),
/// which a nearly full disk makes happen inside DB::Open. Cut back to nothing past 1 MiB.
class InfoLog : public rocksdb::Logger {
 public:
  explicit InfoLog(const std::string& file) : rocksdb::Logger(rocksdb::InfoLogLevel::WARN_LEVEL) {
    fd_ = ::open(file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    struct stat st {};
    if (fd_ >= 0 && ::fstat(fd_, &st) == 0 && st.st_size > (1 << 20) && ::ftruncate(fd_, 0) != 0) {
      // kept whole
    }
  }
  ~InfoLog() override {
    if (fd_ >= 0) ::close(fd_);
  }
  using rocksdb::Logger::Logv;
  void Logv(const char* format, va_list ap) override {
    if (fd_ < 0) return;
    char line[1024];
    const std::time_t now = std::time(nullptr);
    std::tm local{};
    size_t n = localtime_r(&now, &local) ? std::strftime(line, sizeof line, "%Y/%m/%d-%H:%M:%S ", &local) : 0;
    const int text = std::vsnprintf(line + n, sizeof line - n, format, ap);
    if (text < 0) return;
    n = std::min(sizeof line - 1, n + static_cast<size_t>(text));
    line[n++] = '\n';
    if (::write(fd_, line, n) < 0) {
      // a full disk: the line is lost, the log stays usable
    }
  }

 private:
  int fd_ = -1;
};

/// Bytes of the MANIFEST and log files in `dir`: what opening it may write again (a new
/// MANIFEST repeats the current one, the logs are replayed into a table).
uint64_t reopen_bytes(const std::string& dir) {
  uint64_t total = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string n = e.path().filename().string();
    if (n.rfind("MANIFEST-", 0) == 0 || e.path().extension() == ".log") total += e.file_size(ec);
  }
  return total;
}

/// A database creation that fails before its manifest is in (a full disk) leaves nothing
/// behind, so that the same command starts it again: the directory held nothing before (or
/// only a cut-short creation's files, cleared), and what is in it now is this creation's,
/// unless another process holds its lock. Undone when destroyed unless kept.
class CreationUndo {
 public:
  CreationUndo(std::string dir, bool made_dir) : dir_(std::move(dir)), made_dir_(made_dir) {}
  CreationUndo(const CreationUndo&) = delete;
  CreationUndo& operator=(const CreationUndo&) = delete;
  ~CreationUndo() {
    if (dir_.empty()) return;
    try {
      if (lock_holder(dir_)) return;
      std::error_code ec;
      std::vector<fs::path> files;
      for (const auto& e : fs::directory_iterator(dir_, ec)) files.push_back(e.path());
      for (const fs::path& f : files) fs::remove(f, ec);
      if (made_dir_) fs::remove(dir_, ec);
    } catch (...) {
      // left as a killed creation leaves it
    }
  }
  void keep() { dir_.clear(); }

 private:
  std::string dir_;
  bool made_dir_;
};

}  // namespace

std::unique_ptr<Database> Database::open_for_solve(const std::string& path, const Identity& id,
                                                   const std::vector<TierInfo>& tiers, int zstd_level, bool repair) {
  std::error_code ec;
  const bool exists = fs::exists(fs::path(path) / "CURRENT", ec);
  if (!exists && fs::exists(path, ec) && !fs::is_empty(path, ec)) {
    if (!only_creation_files(path))
      throw DbError(path + " exists and is not a database (no CURRENT file); refusing to write there");
    // a creation cut short (killed before CURRENT): unless it is going on now, start it again
    const std::optional<long> holder = lock_holder(path);
    if (holder && *holder != ::getpid()) throw DbError(being_solved(path, holder));
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(path, ec)) files.push_back(e.path());
    for (const fs::path& f : files)
      if (!ec) fs::remove(f, ec);
    if (ec) throw DbError("cannot clear the cut-short database " + path + ": " + ec.message());
  }
  // the blocks the records are cut into: the game's, or a database's own when it has them
  // (one cut in other blocks is resumed in its own)
  uint64_t block_bytes = id.block_bytes ? id.block_bytes : kDefaultBlockBytes;
  if (exists && !repair) {
    // look first, read-only: a refused solve, or one with nothing left to do, writes nothing
    auto look = open_read_only(path, 0);
    check_fits(look->manifest_, path, id, tiers);
    if (look->complete()) return look;
    block_bytes = look->block_bytes();
  }
  ensure_space(path, exists ? reopen_bytes(path) : 0, "cannot open database " + path);
  const bool made_dir = !fs::exists(path, ec);
  if (!exists) {
    fs::create_directories(path, ec);
    if (ec) throw DbError("cannot create the database directory " + path + ": " + ec.message());
  }
  CreationUndo undo(exists ? std::string() : path, made_dir);  // destroyed after d (closed first)
  std::unique_ptr<Database> d(new Database());
  d->path_ = path;
  d->read_only_ = false;
  // the files this open writes (compactions) cut as the group writer's: by those blocks
  rocksdb::Options o = rocks_options(block_bytes);
  o.create_if_missing = true;
  o.IncreaseParallelism(2);
  o.info_log = std::make_shared<InfoLog>((fs::path(path) / "LOG").string());
  rocksdb::DB* raw = nullptr;
  if (exists) {
    const std::optional<long> holder = lock_holder(path);
    if (holder && *holder != ::getpid()) throw DbError(being_solved(path, holder));
  }
  const rocksdb::Status opened = rocksdb::DB::Open(o, path, &raw);
  if (opened.IsIOError() && std::string(opened.getState() ? opened.getState() : "").find("lock") != std::string::npos) {
    const std::optional<long> holder = lock_holder(path);
    if (holder && *holder == ::getpid()) throw DbError(path + " is open for solving in this process already");
    throw DbError(being_solved(path, holder));
  }
  check(opened, "cannot open database " + path);
  d->db_.reset(raw);
  std::string value;
  auto s = d->db_->Get(rocksdb::ReadOptions(), kManifestKey, &value);
  bool fresh = false;  // the manifest written from the command (new, or the old one damaged)
  if (s.IsNotFound()) {
    // lost (a damaged write-ahead log from a killed solve drops the manifest's first write):
    // written anew by a repair when every key is one a toadbase database holds
    if (exists && (!repair || !only_toadbase_keys(*d->db_)))
      throw DbError(path + " is a RocksDB database but not a toadbase one (no manifest)");
    d->manifest_ = new_manifest(id, tiers, zstd_level);  // the commit records are checked below
    fresh = true;
  } else {
    check(s, "reading the manifest of " + path);
    try {
      d->manifest_ = parse_manifest(value, path);
    } catch (const DbError&) {
      if (!repair) throw;
      d->manifest_ = new_manifest(id, tiers, zstd_level);  // the commit records are checked below
      fresh = true;
    }
    check_fits(d->manifest_, path, id, tiers);
  }
  // SST files of a group that a crash interrupted before ingestion
  for (const auto& e : fs::directory_iterator(path, ec))
    if (e.path().extension() == ".tmp") fs::remove(e.path(), ec);
  d->zstd_level_ = d->manifest_.value("zstd_level", zstd_level);
  std::vector<TierId> damaged;
  std::map<TierId, std::string> why;  // a dropped tier's reason when not a damaged commit record
  d->load_tier_meta(repair ? &damaged : nullptr);
  if (fresh && d->width_ > 1) d->settle_layout(damaged, why);
  for (TierId t = 0; t < d->tier_count(); ++t) {
    if (!d->tier_meta_[t] || tiers[t].sized_by_solve() || d->tier_meta_[t]->positions == tiers[t].positions) continue;
    // with its own manifest (the tier layout checked), a tier of another size is damage; with
    // a manifest written anew from the command, it says the parameters are not the database's
    if (!repair || fresh)
      throw DbError(path + ": tier " + std::to_string(t) + " holds " + std::to_string(d->tier_meta_[t]->positions) +
                    " records, " + id.game + " " + id.parameters.dump() + " has " + std::to_string(tiers[t].positions) +
                    " there: " + (fresh ? "not this database's tier (are the parameters the ones it was solved with?)"
                                          : "damaged (solve --repair solves it again)"));
    why[t] = "its commit record says " + std::to_string(d->tier_meta_[t]->positions) + " records, the tier has " +
             std::to_string(tiers[t].positions);
    damaged.push_back(t);
    d->tier_meta_[t].reset();
  }
  for (TierId t : damaged) d->drop_tier_keys(t);  // solved again
  bool write_manifest = fresh;
  if (!damaged.empty() && d->complete()) {
    d->manifest_["complete"] = false;
    d->manifest_.erase("digest");
    write_manifest = true;
  }
  for (TierId t : damaged) d->repaired_.emplace_back(t, why.count(t) ? why[t] : "its commit record was damaged");
  if (write_manifest) {
    rocksdb::WriteBatch batch;
    check(batch.Put(kManifestKey, d->manifest_.dump()), "writing the manifest of " + path);
    d->write(batch, "writing the manifest of " + path);
  }
  d->writer_ = std::make_unique<GroupWriter>(*d->db_, path, block_bytes);
  undo.keep();
  return d;
}

void Database::settle_layout(std::vector<TierId>& damaged, std::map<TierId, std::string>& why) {
  auto read_as = [&](bool per_block, std::vector<TierId>& dmg) {
    manifest_["format_version"] =
        per_block ? kFormatVersion : block_bytes_of(manifest_) == kDefaultBlockBytes ? 2u : 3u;
    dmg.clear();
    load_tier_meta(&dmg);  // per_block_ from the format
    return tier_meta_;
  };
  std::vector<TierId> damaged_as3, damaged_as4;
  const auto as3 = read_as(false, damaged_as3);
  const auto as4 = read_as(true, damaged_as4);  // format 4 stays unless a tier says otherwise
  std::vector<uint8_t> buf;
  auto loads = [&](TierId t) {  // with the tier's digest
    try {
      buf.resize(tier_meta_[t]->kept * width_);
      load_tier(t, buf.data());
      return true;
    } catch (const DbError&) {
      return false;
    } catch (const std::bad_alloc&) {  // a damaged count
      return false;
    } catch (const std::length_error&) {
      return false;
    }
  };
  // a tier of one block lies the same in both layouts; one kept in part has no digest to
  // say; the smallest first (a tier read in the wrong layout is read whole)
  std::vector<TierId> candidates;
  for (TierId t = 0; t < as4.size(); ++t)
    if (as3[t] && as4[t] && as4[t]->kept == as4[t]->positions && as4[t]->blocks >= 2) candidates.push_back(t);
  std::stable_sort(candidates.begin(), candidates.end(), [&](TierId a, TierId b) { return as4[a]->kept < as4[b]->kept; });
  for (const TierId t : candidates) {
    const bool fits4 = loads(t);
    per_block_ = false;
    tier_meta_[t] = as3[t];
    const bool fits3 = loads(t);
    per_block_ = true;
    tier_meta_[t] = as4[t];
    if (fits3 == fits4) continue;  // damaged, or its records read the same both ways
    if (fits3) read_as(false, damaged);
    else damaged = damaged_as4;
    return;
  }
  // no tier says: format 4, and a tier of several blocks that keeps a prefix (which no
  // digest checks) solved again
  damaged = damaged_as4;
  for (TierId t = 0; t < tier_meta_.size(); ++t)
    if (tier_meta_[t] && tier_meta_[t]->kept < tier_meta_[t]->positions && tier_meta_[t]->blocks > 1) {
      why[t] = "kept in part, in a layout that no tier of its database tells, its manifest written anew";
      damaged.push_back(t);
      tier_meta_[t].reset();
    }
}

namespace {

/// A database's files are regular files: a FIFO, a socket or a device among them (itself or
/// behind a link) would hold the open forever or feed it without end (a link to /dev/zero).
void refuse_special_files(const std::string& path) {
  std::error_code ec;
  for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::file_status st = fs::status(it->path(), ec);
    if (ec) {
      ec.clear();
      continue;  // a dangling link: RocksDB says what is missing
    }
    const fs::file_type type = st.type();
    if (type == fs::file_type::fifo || type == fs::file_type::socket || type == fs::file_type::character ||
        type == fs::file_type::block)
      throw DbError(path + " is not a database: its file " + it->path().filename().string() +
                    " is a " + (type == fs::file_type::fifo ? "FIFO" : type == fs::file_type::socket ? "socket" : "device") +
                    ", not a regular file (damaged or tampered with)");
  }
}

}  // namespace

std::unique_ptr<Database> Database::open_read_only(const std::string& path, size_t cache_bytes) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw DbError("no database at " + path + " (the directory is missing)");
  if (!fs::is_directory(path, ec)) throw DbError(path + " is not a database directory");
  if (!fs::exists(fs::path(path) / "CURRENT", ec))
    throw DbError(path + " is not a database (no CURRENT file): missing or damaged");
  refuse_special_files(path);
  std::unique_ptr<Database> d(new Database());
  d->path_ = path;
  // writes no file: the data blocks' size is the files' own
  rocksdb::Options o = rocks_options(kDefaultBlockBytes);
  rocksdb::BlockBasedTableOptions table = table_options(kDefaultBlockBytes);
  table.block_cache = rocksdb::NewLRUCache(kStoredCacheBytes);
  o.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  rocksdb::DB* raw = nullptr;
  check(rocksdb::DB::OpenForReadOnly(o, path, &raw), "cannot open database " + path);
  d->db_.reset(raw);
  std::string value;
  auto s = d->db_->Get(rocksdb::ReadOptions(), kManifestKey, &value);
  if (s.IsNotFound())
    throw DbError(path + " is a RocksDB database but not a toadbase one (no manifest" +
                  (only_toadbase_keys(*d->db_)
                       ? std::string("; it holds only a toadbase database's keys: a solve killed with its log damaged? "
                                     "solve --repair with the parameters it was solved with writes the manifest again)")
                       : std::string(")")));
  check(s, "reading the manifest of " + path);
  d->manifest_ = parse_manifest(value, path);
  if (!d->complete()) d->writer_pid_ = lock_holder(path);
  d->load_tier_meta();
  d->first_block_.assign(d->tier_meta_.size() + 1, 0);
  for (size_t t = 0; t < d->tier_meta_.size(); ++t)
    d->first_block_[t + 1] = d->first_block_[t] + (d->tier_meta_[t] ? d->tier_meta_[t]->blocks : 0);
  d->cache_ = std::make_unique<BlockCache>(d->first_block_.back(), cache_bytes);
  return d;
}

/// A tier as the database commits it: its commit record and its blocks.
struct PackedTier {
  TierMeta meta;
  std::vector<std::string> blocks;
};

namespace {

/// A tier of `count` records keeping `layout.kept`, its blocks still to pack.
PackedTier empty_tier(const PlaneLayout& layout, uint64_t count) {
  PackedTier p;
  p.meta.positions = count;
  p.meta.kept = layout.kept;
  p.meta.blocks = layout.blocks();
  p.blocks.resize(p.meta.blocks);
  return p;
}

PackedTier pack_tier(unsigned width, int level, uint64_t block_bytes, bool per_block, const uint8_t* rm, uint64_t count,
                     uint64_t kept) {
  if (kept > count) throw DbError("a tier keeps more records than it has");
  const PlaneLayout layout{width, kept, block_bytes, per_block};
  PackedTier p = empty_tier(layout, count);
  tbb::parallel_for(uint64_t{0}, p.meta.blocks, [&](uint64_t b) {
    const uint64_t len = layout.block_size(b);
    if (width == 1) {
      p.blocks[b] = encode_block(rm + b * block_bytes, len, level);
    } else {
      std::vector<uint8_t> raw(len);
      layout.gather(rm, b, raw.data());
      p.blocks[b] = encode_block(raw.data(), len, level);
    }
  });
  for (const auto& v : p.blocks) p.meta.stored_bytes += v.size();
  p.meta.digest = plane_digest(rm, count, width);
  return p;
}

/// As pack_tier, keeping every record, which `source` makes a block's run at a time: the
/// blocks are made a batch at a time in parallel. The digest (the XXH64 of the planes, one
/// after the other) follows the blocks batch by batch when they hold the planes in that
/// order (one plane stream for the tier); with planes per block it is made after them, a
/// plane at a time, asking `source` for the records again a run at a time.
PackedTier pack_tier_from(unsigned width, int level, uint64_t block_bytes, bool per_block, uint64_t count,
                          const TierStore::RecordSource& source) {
  const PlaneLayout layout{width, count, block_bytes, per_block};
  PackedTier p = empty_tier(layout, count);
  constexpr uint64_t kBatch = 32;
  std::vector<std::vector<uint8_t>> raw(kBatch);
  Xxh64Stream digest;
  const bool stream_order = !per_block || width == 1;
  for (uint64_t first = 0; first < p.meta.blocks; first += kBatch) {
    const uint64_t n = std::min(kBatch, p.meta.blocks - first);
    tbb::parallel_for(uint64_t{0}, n, [&](uint64_t j) {
      const uint64_t b = first + j, len = layout.block_size(b);
      std::vector<uint8_t>& out = raw[j];
      out.resize(len);
      if (width == 1) {
        source(b * block_bytes, len, out.data());
      } else if (per_block) {
        // the block's records, then their planes
        const uint64_t from = b * layout.block_records(), records = len / width;
        std::vector<uint8_t> rm(len);
        source(from, records, rm.data());
        const PlaneLayout one{width, records, len, true};
        one.gather(rm.data(), 0, out.data());
      } else {
        const uint64_t from = b * block_bytes;
        std::vector<uint8_t> records;
        uint64_t plane = from / count, i = from % count;
        for (uint64_t s = 0; s < len;) {
          const uint64_t run = std::min(len - s, count - i);
          records.resize(run * width);
          source(i, run, records.data());
          for (uint64_t r = 0; r < run; ++r) out[s + r] = records[r * width + plane];
          s += run;
          i = 0;
          ++plane;
        }
      }
      p.blocks[b] = encode_block(out.data(), len, level);
    });
    if (stream_order)
      for (uint64_t j = 0; j < n; ++j) digest.update(raw[j].data(), raw[j].size());
  }
  if (!stream_order) {
    constexpr uint64_t kRun = uint64_t{1} << 16;
    std::vector<uint8_t> records(kRun * width), plane_bytes(kRun);
    for (unsigned plane = 0; plane < width; ++plane)
      for (uint64_t i = 0; i < count; i += kRun) {
        const uint64_t run = std::min(kRun, count - i);
        source(i, run, records.data());
        for (uint64_t r = 0; r < run; ++r) plane_bytes[r] = records[r * width + plane];
        digest.update(plane_bytes.data(), run);
      }
  }
  for (const auto& v : p.blocks) p.meta.stored_bytes += v.size();
  p.meta.digest = digest.digest();
  return p;
}

void put64(std::vector<uint8_t>& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
uint64_t get64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

constexpr uint64_t kPackedHeader = 64;  // a packed tier's fixed fields (BlockPacker::pack)
// its first eight bytes: "tbpack" and the layout's version (1: the fields below)
constexpr uint64_t kPackedMagic = 0x0001'6b6361'706274ULL;

std::string layout_name(uint64_t width, uint64_t block_bytes, uint64_t per_block) {
  return "records of " + std::to_string(width) + " bytes in blocks of " + std::to_string(block_bytes) +
         " bytes, planes per " + (per_block ? "block" : "tier");
}

class BlockPacker : public toadbase::TierPacker {
 public:
  BlockPacker(unsigned width, int level, uint64_t block_bytes, bool per_block)
      : width_(width), level_(level), block_bytes_(block_bytes), per_block_(per_block) {}
  // u64 kPackedMagic; u64 positions, kept, blocks, digest; the layout: u64 record bytes, block
  // bytes, planes per block (1) or per tier (0); u64 size of each block; the blocks
  std::vector<uint8_t> pack(const void* records, uint64_t count, uint64_t keep) const override {
    const PackedTier p =
        pack_tier(width_, level_, block_bytes_, per_block_, static_cast<const uint8_t*>(records), count, std::min(keep, count));
    std::vector<uint8_t> out;
    out.reserve(kPackedHeader + 8 * p.blocks.size() + p.meta.stored_bytes);
    put64(out, kPackedMagic);
    put64(out, p.meta.positions);
    put64(out, p.meta.kept);
    put64(out, p.meta.blocks);
    put64(out, p.meta.digest);
    put64(out, width_);
    put64(out, block_bytes_);
    put64(out, per_block_ ? 1 : 0);
    for (const auto& b : p.blocks) put64(out, b.size());
    for (const auto& b : p.blocks) out.insert(out.end(), b.begin(), b.end());
    return out;
  }

 private:
  unsigned width_;
  int level_;
  uint64_t block_bytes_;
  bool per_block_;
};

}  // namespace

const RecordCodec* Database::record_codec() const {
  static const ZstdRecordCodec codec;
  return &codec;
}

std::unique_ptr<TierPacker> Database::packer(unsigned record_bytes, int zstd_level, uint64_t block_bytes,
                                             bool per_block) {
  if (!valid_block_bytes(block_bytes)) throw std::invalid_argument("blocks of " + std::to_string(block_bytes) + " bytes");
  return std::make_unique<BlockPacker>(record_bytes, zstd_level, block_bytes, per_block);
}

void Database::commit_tier(TierId t, const void* records, uint64_t count, uint64_t keep) {
  if (read_only_) throw DbError(path_ + " is opened read-only");
  write_tier(t, pack_tier(width_, zstd_level_, block_bytes_, per_block_, static_cast<const uint8_t*>(records), count,
                          std::min(keep, count)));
}

std::vector<std::vector<uint8_t>> Database::commit_tier_held(TierId t, const void* records, uint64_t count, uint64_t keep) {
  if (read_only_) throw DbError(path_ + " is opened read-only");
  PackedTier p = pack_tier(width_, zstd_level_, block_bytes_, per_block_, static_cast<const uint8_t*>(records), count,
                           std::min(keep, count));
  std::vector<std::vector<uint8_t>> held;  // one-byte records: the blocks are the tier's bytes as they lie
  if (width_ == 1 && block_bytes_ == toadbase::PackedTier::kBlock) {
    const uint64_t whole = p.meta.kept / block_bytes_;
    held.reserve(whole);
    for (uint64_t b = 0; b < whole; ++b) held.emplace_back(p.blocks[b].begin(), p.blocks[b].end());
  }
  write_tier(t, std::move(p));
  return held;
}

void Database::commit_tier_from(TierId t, uint64_t count, const RecordSource& source) {
  if (read_only_) throw DbError(path_ + " is opened read-only");
  write_tier(t, pack_tier_from(width_, zstd_level_, block_bytes_, per_block_, count, source));
}

void Database::commit_packed(TierId t, std::span<const uint8_t> packed, uint64_t count, uint64_t keep) {
  const std::string where = path_ + ": tier " + std::to_string(t) + " as another rank packed it";
  const uint8_t* p = packed.data();
  if (packed.size() < kPackedHeader) throw DbError(where + " is damaged (" + std::to_string(packed.size()) + " bytes)");
  if (get64(p) != kPackedMagic)
    throw DbError(where + " is not a packed tier of this toadbase (its first bytes: " + hex64(get64(p)) + ")");
  PackedTier tier;
  tier.meta.positions = get64(p + 8);
  tier.meta.kept = get64(p + 16);
  tier.meta.blocks = get64(p + 24);
  tier.meta.digest = get64(p + 32);
  const uint64_t width = get64(p + 40), block_bytes = get64(p + 48), per_block = get64(p + 56);
  if (width != width_ || block_bytes != block_bytes_ || per_block != (per_block_ ? 1 : 0))
    throw DbError(where + " holds " + layout_name(width, block_bytes, per_block) + "; this database holds " +
                  layout_name(width_, block_bytes_, per_block_));
  if (tier.meta.positions != count || tier.meta.kept != std::min(keep, count))
    throw DbError(where + " holds " + std::to_string(tier.meta.positions) + " records keeping " +
                  std::to_string(tier.meta.kept) + "; the solve's plan has " + std::to_string(count) + " keeping " +
                  std::to_string(std::min(keep, count)));
  const uint64_t nblocks = tier.meta.blocks;
  if (tier.meta.positions > UINT64_MAX / width_ / 2 || tier.meta.kept > tier.meta.positions ||
      nblocks != layout(tier.meta).blocks() ||
      (packed.size() - kPackedHeader) / 8 < nblocks)
    throw DbError(where + " does not add up (damaged)");
  uint64_t at = kPackedHeader + 8 * nblocks;
  tier.blocks.resize(nblocks);
  for (uint64_t b = 0; b < nblocks; ++b) {
    const uint64_t len = get64(p + kPackedHeader + 8 * b);
    if (len > packed.size() - at) throw DbError(where + " is damaged");
    tier.blocks[b].assign(reinterpret_cast<const char*>(p + at), len);
    tier.meta.stored_bytes += len;
    at += len;
  }
  if (at != packed.size()) throw DbError(where + " is damaged");
  write_tier(t, std::move(tier));
}

void Database::write_tier(TierId t, PackedTier tier) {
  if (read_only_) throw DbError(path_ + " is opened read-only");
  if (t >= tier_meta_.size())
    throw DbError(path_ + ": tier " + std::to_string(t) + " is beyond the " + std::to_string(tier_meta_.size()) +
                  " tiers of this database");
  if (sized_by_solve_[t] && tier.meta.kept != tier.meta.positions)
    throw std::logic_error(path_ + ": tier " + std::to_string(t) + " is sized by the solve and keeps all its records");
  GroupWriter::KeyValues kvs;
  kvs.reserve(tier.blocks.size() + 1);
  for (uint64_t b = 0; b < tier.blocks.size(); ++b) kvs.emplace_back(block_key(t, b), std::move(tier.blocks[b]));
  kvs.emplace_back(tier_key(t), encode_commit(tier.meta, width_));
  tier_meta_[t] = tier.meta;  // each tier is committed by one thread at a time
  try {
    writer_->add(std::move(kvs));
  } catch (...) {
    write_failed_ = true;
    throw;
  }
}

void Database::flush() {
  if (!writer_) return;
  try {
    writer_->flush();
  } catch (...) {
    write_failed_ = true;
    throw;
  }
}

std::string Database::block(TierId t, uint64_t b) const {
  const std::string key = block_key(t, b);
  std::string value;
  // a tier of the group not yet ingested is committed for this process: read it from there
  if (writer_ && writer_->pending(key, &value)) return value;
  auto s = db_->Get(block_reads(), key, &value);
  if (s.IsNotFound())
    throw DbError(block_name(t, b) + " is missing");
  check(s, path_ + ": reading tier " + std::to_string(t) + " block " + std::to_string(b));
  return value;
}

std::shared_ptr<const std::vector<uint8_t>> Database::held(TierId t, uint64_t b) const {
  return cache_ ? cache_->block(first_block_[t] + b, [&] { return decoded(t, b); })
                : std::make_shared<const std::vector<uint8_t>>(decoded(t, b));
}

std::vector<uint8_t> Database::decoded(TierId t, uint64_t b) const { return decoded(t, b, block(t, b)); }

std::vector<uint8_t> Database::decoded(TierId t, uint64_t b, std::string_view value) const {
  std::vector<uint8_t> out;
  const std::string wrong = try_decode_block(value, block_bytes_, out);
  if (!wrong.empty()) throw DbError(block_name(t, b) + " is damaged (" + wrong + ")");
  return out;
}

std::string Database::block_name(TierId t, uint64_t b) const {
  return path_ + ": tier " + std::to_string(t) + " block " + std::to_string(b);
}

rocksdb::ReadOptions Database::block_reads() const {
  rocksdb::ReadOptions o;
  // RocksDB's own block cache would hold each stored block again beside the decoded one
  // (a fresh reader's query paid for putting every block in it: results/cgt-cold.md); a
  // reader whose own cache is smaller still has RocksDB's keep them
  o.fill_cache = !cache_ || cache_->capacity() < kStoredCacheBytes;
  return o;
}

uint64_t Database::stored_cache_bytes() const {
  uint64_t bytes = 0;
  return db_->GetIntProperty(rocksdb::DB::Properties::kBlockCacheUsage, &bytes) ? bytes : 0;
}

void Database::prefetch(std::span<const RecordRun> runs) const {
  if (!cache_) return;
  // no more than half the cache holds: blocks fetched must not push out each other, or what
  // the caller read just before
  const uint64_t limit = std::min<uint64_t>(kPrefetchBlocks, cache_->capacity() / block_bytes_ / 2);
  std::vector<std::pair<TierId, uint64_t>> want;  // (tier, block) not held, each once
  auto add = [&](TierId t, uint64_t first_block, uint64_t last_block) {
    for (uint64_t b = first_block; b <= last_block && want.size() < limit; ++b)
      if (std::find(want.begin(), want.end(), std::pair{t, b}) == want.end() && !cache_->holds(first_block_[t] + b))
        want.emplace_back(t, b);
  };
  for (const RecordRun& r : runs) {
    if (want.size() >= limit) break;
    // what a read would refuse is left to it
    if (r.tier >= tier_meta_.size() || !tier_meta_[r.tier]) continue;
    const TierMeta& m = *tier_meta_[r.tier];
    if (r.count == 0 || r.first >= m.kept || r.count > m.kept - r.first) continue;
    // the blocks of the run's first and last records, plane by plane (per block: every
    // plane of a record in one block)
    const PlaneLayout layout = this->layout(m);
    for (unsigned p = 0; p < (layout.per_block ? 1 : width_); ++p)
      add(r.tier, layout.at(r.first, p).block, layout.at(r.first + r.count - 1, p).block);
  }
  if (want.size() < 2) return;  // one block: the read that follows fetches it as fast
  const auto fetch = [&](size_t i) {
    try {
      (void)held(want[i].first, want[i].second);
    } catch (const std::exception&) {
      // damaged or missing: the read that follows says so
    }
  };
  // a few blocks on this thread: waking another costs more than it saves (a block from the
  // page cache is a RocksDB read and a decompression, about 10 us; a CGT query's steps ask
  // for 2 to 9 blocks each; handed to the other cores, a fresh reader's whole query at 20
  // cells took 2.3 times as long at the median and 5 times at p99 on a virtual machine of
  // 2 cores: results/cgt-cold.md). Asked of RocksDB in one MultiGet (it finds the files and
  // their index entries for the keys together): with the reads no longer filling RocksDB's
  // cache (block_reads), a fresh reader's query at 20 cells took 0.70x at the median and
  // 0.60x at p99 against a Get a block (results/cgt-cold.md).
  if (want.size() < kParallelPrefetch) {
    std::vector<std::string> keys;
    for (const auto& [t, b] : want) keys.push_back(block_key(t, b));
    std::vector<rocksdb::Slice> slices(keys.begin(), keys.end());
    std::vector<rocksdb::PinnableSlice> values(keys.size());
    std::vector<rocksdb::Status> got(keys.size());
    db_->MultiGet(block_reads(), db_->DefaultColumnFamily(), keys.size(), slices.data(), values.data(), got.data());
    for (size_t i = 0; i < want.size(); ++i) {
      if (!got[i].ok()) continue;  // missing or unreadable: the read that follows says so
      const TierId t = want[i].first;  // named, not bound: clang captures no structured binding
      const uint64_t b = want[i].second;
      try {
        (void)cache_->block(first_block_[t] + b, [&] { return decoded(t, b, values[i].ToStringView()); });
      } catch (const std::exception&) {
        // damaged: the read that follows says so
      }
    }
    return;
  }
  // many: a task a block (a block not in the page cache costs a disk read); isolated, so
  // that a caller inside a parallel loop of its own waits for these blocks only, not for
  // its loop's other tasks
  tbb::this_task_arena::isolate([&] {
    tbb::parallel_for(tbb::blocked_range<size_t>(0, want.size(), 1), [&](const tbb::blocked_range<size_t>& r) {
      for (size_t i = r.begin(); i != r.end(); ++i) fetch(i);
    }, tbb::simple_partitioner());
  });
}

void Database::load_tier(TierId t, void* out) const {
  const TierMeta& m = tier_meta(t);
  const PlaneLayout layout = this->layout(m);
  auto* rm = static_cast<uint8_t*>(out);
  uint64_t filled = 0;
  for (uint64_t b = 0; b < m.blocks; ++b) {
    const std::vector<uint8_t> raw = decoded(t, b);
    if (b >= layout.blocks() || raw.size() != layout.block_size(b)) throw misfit_block(t, b);
    layout.scatter(raw.data(), b, rm);
    filled += raw.size();
  }
  if (filled != layout.stream_bytes())
    throw DbError(path_ + ": tier " + std::to_string(t) + " holds " + std::to_string(filled / width_) +
                  " records, its commit record says " + std::to_string(m.kept));
  if (m.kept == m.positions && plane_digest(rm, m.kept, width_) != m.digest)
    throw DbError(path_ + ": tier " + std::to_string(t) + " does not match its digest");
}

void Database::read_record(TierId t, uint64_t index, void* out) const {
  const TierMeta& m = tier_meta(t);
  if (index >= m.kept) {
    if (m.kept == 0)
      throw DbError(path_ + ": tier " + std::to_string(t) +
                    " keeps no records (derived, or all of it a tail copied from another tier)");
    throw DbError("index " + std::to_string(index) + " is beyond the records tier " + std::to_string(t) + " keeps");
  }
  const PlaneLayout layout = this->layout(m);
  auto* bytes = static_cast<uint8_t*>(out);
  if (layout.per_block) {
    const uint64_t b = layout.at(index, 0).block;
    return record_from_block(t, layout, b, *held(t, b), index, bytes);
  }
  uint64_t global[64], offset[64], block[64];  // record_bytes is at most 64 (the manifest says)
  for (unsigned p = 0; p < width_; ++p) {
    const PlaneLayout::At at = layout.at(index, p);
    block[p] = at.block;
    offset[p] = at.offset;
    global[p] = cache_ ? first_block_[t] + block[p] : 0;
  }
  if (!cache_) {  // opened for solving: no cache
    for (unsigned p = 0; p < width_; ++p) bytes[p] = decoded(t, block[p]).at(offset[p]);
    return;
  }
  try {
    cache_->bytes(width_, global, offset, bytes, [&](unsigned p) { return decoded(t, block[p]); });
  } catch (const std::out_of_range&) {
    throw short_block(t);
  }
}

void Database::record_from_block(TierId t, const PlaneLayout& layout, uint64_t b, const std::vector<uint8_t>& blk,
                                 uint64_t index, uint8_t* bytes) const {
  if (blk.size() != layout.block_size(b)) throw misfit_block(t, b);
  for (unsigned p = 0; p < width_; ++p) bytes[p] = blk[layout.at(index, p).offset];
}

DbError Database::misfit_block(TierId t, uint64_t b) const {
  return DbError(block_name(t, b) + " does not fit the tier's size (damaged)");
}

DbError Database::short_block(TierId t) const {
  return DbError(path_ + ": tier " + std::to_string(t) + " is damaged (a block is shorter than its tier says)");
}

void Database::read_records(TierId t, uint64_t first, uint64_t count, void* out) const {
  const TierMeta& m = tier_meta(t);
  if (count == 0) return;
  if (first >= m.kept || count > m.kept - first)
    throw DbError("records " + std::to_string(first) + ".." + std::to_string(first + count - 1) +
                  " are beyond the records tier " + std::to_string(t) + " keeps");
  const PlaneLayout layout = this->layout(m);
  auto* records = static_cast<uint8_t*>(out);
  if (layout.per_block) {
    // each block once, every plane of its records from it
    const uint64_t per = layout.block_records();
    for (uint64_t i = first; i < first + count;) {
      const uint64_t b = i / per, in = i % per, n = std::min(per, m.kept - b * per), len = std::min(first + count - i, n - in);
      const auto blk = held(t, b);
      if (blk->size() != n * width_) throw misfit_block(t, b);
      for (unsigned p = 0; p < width_; ++p) {
        const uint8_t* plane = blk->data() + p * n + in;
        for (uint64_t r = 0; r < len; ++r) records[(i - first + r) * width_ + p] = plane[r];
      }
      i += len;
    }
    return;
  }
  for (unsigned p = 0; p < width_; ++p) {
    uint64_t s = p * m.kept + first, done = 0;
    while (done < count) {
      const uint64_t b = s / block_bytes_, offset = s % block_bytes_, len = std::min(count - done, block_bytes_ - offset);
      const auto blk = held(t, b);
      if (offset + len > blk->size()) throw short_block(t);
      for (uint64_t i = 0; i < len; ++i) records[(done + i) * width_ + p] = (*blk)[offset + i];
      done += len;
      s += len;
    }
  }
}

/// Reads records for one thread through a small table of its own of the blocks it used
/// lately (each held by reference, so the shared cache may let it go meanwhile; the table
/// holds at most slots x 64 KiB beyond the cache): a read that finds its block there takes
/// no lock, and threads reading at once do not queue on the shared cache's lock.
class Database::Reader : public TierSource {
 public:
  Reader(const Database& d, size_t slots) : d_(d), slots_(std::max<size_t>(slots, 1)) {}
  unsigned record_bytes() const override { return d_.record_bytes(); }
  bool has_tier(TierId t) const override { return d_.has_tier(t); }
  uint64_t tier_positions(TierId t) const override { return d_.tier_positions(t); }
  uint64_t tier_kept(TierId t) const override { return d_.tier_kept(t); }
  bool matches_digest(TierId t, const void* records, uint64_t count) const override {
    return d_.matches_digest(t, records, count);
  }
  void load_tier(TierId t, void* out) const override { d_.load_tier(t, out); }
  void read_records(TierId t, uint64_t first, uint64_t count, void* out) const override {
    d_.read_records(t, first, count, out);  // each block once, through the shared cache
  }
  void prefetch(std::span<const RecordRun> runs) const override { d_.prefetch(runs); }
  void read_record(TierId t, uint64_t index, void* out) const override {
    if (!d_.cache_) return d_.read_record(t, index, out);  // opened for solving
    const TierMeta& m = d_.tier_meta(t);
    if (index >= m.kept) return d_.read_record(t, index, out);  // says what is wrong
    const PlaneLayout layout = d_.layout(m);
    auto* bytes = static_cast<uint8_t*>(out);
    if (layout.per_block) {  // every byte from one block, checked to be the size the tier says
      const uint64_t b = layout.at(index, 0).block, g = d_.first_block_[t] + b;
      Slot& slot = slots_[g % slots_.size()];
      if (slot.block_id != g) {
        slot.block = d_.cache_->block(g, [&] { return d_.decoded(t, b); });
        slot.block_id = g;
      }
      return d_.record_from_block(t, layout, b, *slot.block, index, bytes);
    }
    for (unsigned p = 0; p < d_.width_; ++p) {
      const PlaneLayout::At at = layout.at(index, p);
      const uint64_t b = at.block, g = d_.first_block_[t] + b;
      Slot& slot = slots_[g % slots_.size()];
      if (slot.block_id != g) {
        slot.block = d_.cache_->block(g, [&] { return d_.decoded(t, b); });
        slot.block_id = g;
      }
      try {
        bytes[p] = BlockCache::at(*slot.block, at.offset);
      } catch (const std::out_of_range&) {
        throw d_.short_block(t);
      }
    }
  }

 private:
  struct Slot {
    uint64_t block_id = UINT64_MAX;
    std::shared_ptr<const BlockCache::Block> block;
  };
  const Database& d_;
  mutable std::vector<Slot> slots_;  // direct-mapped by global block number
};

std::unique_ptr<TierSource> Database::reader(size_t slots) const { return std::make_unique<Reader>(*this, slots); }

bool Database::matches_digest(TierId t, const void* records, uint64_t count) const {
  const TierMeta& m = tier_meta(t);
  return count == m.positions && plane_digest(static_cast<const uint8_t*>(records), count, width_) == m.digest;
}

uint64_t Database::digest() const {
  std::string all;
  for (TierId t = 0; t < tier_count(); ++t) {
    const uint64_t d = tier_meta(t).digest;
    for (int i = 0; i < 8; ++i) all.push_back(static_cast<char>((d >> (8 * i)) & 0xff));
  }
  return xxh64(all.data(), all.size());
}

void Database::finish(const std::vector<TierInfo>& tiers) {
  if (tiers.size() != tier_meta_.size()) throw DbError("finish: tier count mismatch");
  if (writer_ && writer_->failed()) {  // a group written after the last commit failed: as if it had thrown
    write_failed_ = true;
    writer_->throw_failure();
  }
  flush();
  uint64_t stored = 0, positions = 0, table = 0;
  std::vector<TierMeta> meta(tier_count());
  for (TierId t = 0; t < tier_count(); ++t) {
    meta[t] = tier_meta(t);
    stored += meta[t].stored_bytes;
    (sized_by_solve_[t] ? table : positions) += meta[t].positions;
  }
  manifest_["complete"] = true;
  manifest_["positions"] = positions;
  if (manifest_.contains("sized_by_solve")) manifest_["table_records"] = table;
  manifest_["stored_bytes"] = stored;
  manifest_["digest"] = hex64(digest());
  // the per-tier list (12,546 tiers at length 16) under a key of its own, written straight as
  // JSON text on every core: the manifest stays small, and a damaged list leaves every
  // lookup working. Both in one synced batch; then flushed into a table, so that a read-only
  // open need not replay the log for them.
  const std::string list = tier_list_text(tiers, meta);
  manifest_.erase("tiers");
  full_.reset();
  rocksdb::WriteBatch batch;
  check(batch.Put(kTiersKey, list), "writing the manifest of " + path_);
  check(batch.Put(kManifestKey, manifest_.dump()), "writing the manifest of " + path_);
  write(batch, "writing the manifest of " + path_);
  const rocksdb::Status flushed = db_->Flush(rocksdb::FlushOptions());
  if (!flushed.ok()) write_failed_ = true;
  check(flushed, "flushing " + path_);
}

std::vector<std::pair<TierId, std::string>> Database::damaged_tiers() const {
  std::vector<std::pair<TierId, std::string>> out;
  std::vector<uint8_t> buf;
  for (TierId t = 0; t < tier_count(); ++t) {
    if (!has_tier(t)) continue;
    try {
      buf.resize(tier_kept(t) * width_);
      load_tier(t, buf.data());
    } catch (const DbError& e) {
      out.push_back({t, e.what()});
    }
  }
  return out;
}

void Database::drop_tier_keys(TierId t) {
  rocksdb::WriteBatch batch;
  check(batch.DeleteRange(block_key(t, 0), block_key(t + 1, 0)), "forgetting a tier");
  check(batch.Delete(tier_key(t)), "forgetting a tier");
  write(batch, "forgetting tier " + std::to_string(t) + " of " + path_);
}

void Database::forget_tier(TierId t) {
  if (read_only_) throw DbError(path_ + " is opened read-only");
  (void)tier_meta(t);  // committed
  rocksdb::WriteBatch batch;
  check(batch.DeleteRange(block_key(t, 0), block_key(t + 1, 0)), "forgetting a tier");
  check(batch.Delete(tier_key(t)), "forgetting a tier");
  if (complete()) {  // no longer complete: a crash before the tier is solved again leaves it so
    manifest_["complete"] = false;
    manifest_.erase("digest");
    full_.reset();
    check(batch.Put(kManifestKey, manifest_.dump()), "writing the manifest of " + path_);
  }
  write(batch, "forgetting tier " + std::to_string(t) + " of " + path_);
  tier_meta_[t].reset();
}

uint64_t Database::disk_bytes() const {
  uint64_t total = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(path_, ec))
    if (e.is_regular_file(ec)) total += e.file_size(ec);
  return total;
}

}  // namespace toadbase::db
