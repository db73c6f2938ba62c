#include "db/group_writer.hpp"

#include <pthread.h>
#include <rocksdb/db.h>
#include <rocksdb/sst_file_writer.h>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <iterator>
#include <numeric>

#include "db/errors.hpp"
#include "db/rocks.hpp"

namespace toadbase::db {

namespace {

std::string message_of(std::exception_ptr e, const std::string& dir) {
  try {
    std::rethrow_exception(e);
  } catch (const std::exception& x) {
    return x.what();
  } catch (...) {
    return "writing tiers to " + dir + ": an unknown error";
  }
}

}  // namespace

GroupWriter::~GroupWriter() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

bool GroupWriter::due() const {
  return pending_bytes_ >= kGroupBytes ||
         std::chrono::duration<double>(std::chrono::steady_clock::now() - last_).count() >= kGroupSeconds;
}

void GroupWriter::add(KeyValues kvs) {
  std::unique_lock lock(mu_);
  for (auto& kv : kvs) {  // pending first: a tier committed stays readable whatever follows
    pending_bytes_ += kv.second.size() + 64;
    pending_.push_back(std::move(kv));
  }
  failed_here();
  if (!due()) return;
  idle_.wait(lock, [this] { return !busy_ || !failure_.empty(); });
  failed_here();
  if (!due()) return;  // another committer handed the group over meanwhile
  if (!thread_.joinable()) {  // before the group leaves pending_
    thread_ = std::thread([this] { run(); });
    static_assert(sizeof kWriterThreadName <= 16, "a thread's name takes 15 characters");
    pthread_setname_np(thread_.native_handle(), kWriterThreadName);  // a name only: a failure changes nothing
  }
  start_writing();
  handed_ = true;
  lock.unlock();
  wake_.notify_one();
}

void GroupWriter::flush() {
  std::unique_lock lock(mu_);
  idle_.wait(lock, [this] { return !busy_; });
  start_writing();  // with a group that failed: written again
  const std::exception_ptr error = write_started(lock);
  if (!error) failure_.clear();  // everything committed is written
  lock.unlock();
  idle_.notify_all();
  if (error) std::rethrow_exception(error);
}

bool GroupWriter::failed() const {
  std::unique_lock lock(mu_);
  idle_.wait(lock, [this] { return !busy_; });
  return !failure_.empty();
}

void GroupWriter::throw_failure() const {
  std::lock_guard lock(mu_);
  failed_here();
}

bool GroupWriter::pending(const std::string& key, std::string* value) const {
  std::lock_guard lock(mu_);
  // the pending group, then the one being written (read only while it is written, by the
  // writer too), then one that failed: the latest commit of a key is the first found
  for (const KeyValues* group : {&pending_, &writing_, &failed_})
    for (auto it = group->rbegin(); it != group->rend(); ++it)
      if (it->first == key) {
        *value = it->second;
        return true;
      }
  return false;
}

void GroupWriter::start_writing() {
  // a group that failed first (older than anything added since, so a tier committed again
  // still wins); made room for before anything moves, so a failure to allocate leaves both
  if (!failed_.empty()) {
    failed_.reserve(failed_.size() + pending_.size());
    std::move(pending_.begin(), pending_.end(), std::back_inserter(failed_));
    pending_.clear();
    pending_.swap(failed_);
  }
  last_ = std::chrono::steady_clock::now();
  writing_.swap(pending_);
  pending_bytes_ = 0;
  writing_number_ = written_++;
  busy_ = true;
}

void GroupWriter::done_writing(std::exception_ptr error) noexcept {
  if (error) {
    if (failure_.empty()) {
      try {
        failure_ = message_of(error, dir_);
      } catch (...) {
        failure_ = "a write failed";
      }
    }
    failed_.swap(writing_);  // failed_ was emptied when the group started
  }
  writing_.clear();
  busy_ = false;
}

std::exception_ptr GroupWriter::write_started(std::unique_lock<std::mutex>& lock) {
  lock.unlock();
  std::exception_ptr error;
  try {
    write(writing_, writing_number_);
  } catch (...) {
    error = std::current_exception();
  }
  lock.lock();
  done_writing(error);
  return error;
}

void GroupWriter::failed_here() const {
  if (!failure_.empty()) throw DbError(failure_);
}

void GroupWriter::run() {
  std::unique_lock lock(mu_);
  for (;;) {
    wake_.wait(lock, [this] { return handed_ || stop_; });
    if (!handed_) return;  // stopped, nothing to write
    handed_ = false;
    write_started(lock);  // its failure is kept (done_writing) for the committers
    idle_.notify_all();
  }
}

void GroupWriter::write(const KeyValues& group, uint64_t number) const {
  if (group.empty()) return;
  // the table's keys in order, each once: a tier committed again in the group, its later
  // records (the group is left as it is: pending() reads it meanwhile)
  std::vector<size_t> order(group.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return group[a].first < group[b].first; });
  std::vector<size_t> unique;
  unique.reserve(order.size());
  for (size_t i : order) {
    if (!unique.empty() && group[unique.back()].first == group[i].first) unique.back() = i;
    else unique.push_back(i);
  }
  // the table: its keys and values, and no more than 64 bytes beside each (block trailers,
  // index entries, lengths) and the margin (its properties and footer, the MANIFEST record)
  uint64_t bytes = 0;
  for (size_t i : unique) bytes += group[i].first.size() + group[i].second.size() + 64;
  ensure_space(dir_, bytes, "writing tiers to " + dir_);
  const std::string file = (std::filesystem::path(dir_) / ("ingest-" + std::to_string(number) + ".sst.tmp")).string();
  try {
    rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), rocks_options(block_bytes_));
    check(writer.Open(file), "writing tiers to " + dir_);
    for (size_t i : unique) check(writer.Put(group[i].first, group[i].second), "writing tiers to " + dir_);
    check(writer.Finish(), "writing tiers to " + dir_);
    rocksdb::IngestExternalFileOptions opts;
    opts.move_files = true;
    check(db_.IngestExternalFile({file}, opts), "committing tiers to " + dir_);
  } catch (...) {
    std::error_code ec;  // a half-written file must not stay (on a full disk it keeps it full)
    if (std::filesystem::is_regular_file(file, ec)) std::filesystem::remove(file, ec);
    throw;
  }
}

}  // namespace toadbase::db
