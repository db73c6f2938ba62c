#include "db/group_writer.hpp"

#include <rocksdb/db.h>
#include <rocksdb/sst_file_writer.h>

#include <algorithm>
#include <exception>
#include <filesystem>

#include "db/errors.hpp"
#include "db/rocks.hpp"

namespace toadbase::db {

GroupWriter::~GroupWriter() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void GroupWriter::add(KeyValues kvs) {
  std::unique_lock lock(mu_);
  for (auto& kv : kvs) {  // pending first: a tier committed stays readable whatever follows
    pending_bytes_ += kv.second.size() + 64;
    pending_.push_back(std::move(kv));
  }
  failed_here(lock);
  if (pending_bytes_ < kGroupBytes &&
      std::chrono::duration<double>(std::chrono::steady_clock::now() - last_).count() < kGroupSeconds)
    return;
  idle_.wait(lock, [this] { return !busy_ || !failure_.empty(); });
  failed_here(lock);
  if (pending_.empty()) return;  // another adder handed it over meanwhile
  auto [group, number] = take();
  sort_unique(group);  // sorted here: pending() reads the group while it is written
  writing_ = std::move(group);
  writing_number_ = number;
  busy_ = true;
  if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
  lock.unlock();
  wake_.notify_one();
}

void GroupWriter::flush() {
  std::unique_lock lock(mu_);
  idle_.wait(lock, [this] { return !busy_; });
  auto [group, number] = take();  // with any group that failed: written again
  lock.unlock();
  sort_unique(group);
  try {
    write(group, number);
  } catch (const std::exception& e) {
    lock.lock();
    give_back(group);
    if (failure_.empty()) failure_ = e.what();
    throw;
  }
  lock.lock();
  failure_.clear();  // everything committed is written
}

bool GroupWriter::pending(const std::string& key, std::string* value) const {
  std::lock_guard lock(mu_);
  for (auto it = pending_.rbegin(); it != pending_.rend(); ++it) {
    if (it->first == key) {
      *value = it->second;
      return true;
    }
  }
  // the group being written: read only, by the writer too, until it is ingested
  const auto it = std::lower_bound(writing_.begin(), writing_.end(), key,
                                   [](const auto& kv, const std::string& k) { return kv.first < k; });
  if (it != writing_.end() && it->first == key) {
    *value = it->second;
    return true;
  }
  return false;
}

std::pair<GroupWriter::KeyValues, uint64_t> GroupWriter::take() {
  last_ = std::chrono::steady_clock::now();
  KeyValues group;
  group.swap(pending_);
  pending_bytes_ = 0;
  return {std::move(group), written_++};
}

void GroupWriter::failed_here(std::unique_lock<std::mutex>&) const {
  if (!failure_.empty()) throw DbError(failure_);
}

void GroupWriter::give_back(KeyValues& group) {
  // older than anything added since: first, so that a tier committed again still wins
  for (const auto& kv : group) pending_bytes_ += kv.second.size() + 64;
  pending_.insert(pending_.begin(), std::make_move_iterator(group.begin()), std::make_move_iterator(group.end()));
  group.clear();
}

void GroupWriter::run() {
  std::unique_lock lock(mu_);
  for (;;) {
    wake_.wait(lock, [this] { return busy_ || stop_; });
    if (!busy_) return;  // stopped, nothing to write
    lock.unlock();
    std::string error;
    try {
      write(writing_, writing_number_);
    } catch (const std::exception& e) {
      error = e.what();
    } catch (...) {
      error = "writing tiers to " + dir_ + ": an unknown error";
    }
    lock.lock();
    if (!error.empty()) {
      if (failure_.empty()) failure_ = error;
      give_back(writing_);
    }
    writing_.clear();
    busy_ = false;
    idle_.notify_all();
  }
}

void GroupWriter::sort_unique(KeyValues& group) {
  std::stable_sort(group.begin(), group.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  // a tier committed again in the same group: its later records win
  KeyValues unique;
  unique.reserve(group.size());
  for (auto& kv : group) {
    if (!unique.empty() && unique.back().first == kv.first) unique.back() = std::move(kv);
    else unique.push_back(std::move(kv));
  }
  group.swap(unique);
}

void GroupWriter::write(const KeyValues& group, uint64_t number) {
  if (group.empty()) return;
  // the table: its keys and values, and no more than 64 bytes beside each (block trailers,
  // index entries, lengths) and the margin (its properties and footer, the MANIFEST record)
  uint64_t bytes = 0;
  for (const auto& [k, v] : group) bytes += k.size() + v.size() + 64;
  ensure_space(dir_, bytes, "writing tiers to " + dir_);
  const std::string file = (std::filesystem::path(dir_) / ("ingest-" + std::to_string(number) + ".sst.tmp")).string();
  try {
    rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), rocks_options(block_bytes_));
    check(writer.Open(file), "writing tiers to " + dir_);
    for (const auto& [k, v] : group) check(writer.Put(k, v), "writing tiers to " + dir_);
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
