#include "db/group_writer.hpp"

#include <rocksdb/db.h>
#include <rocksdb/sst_file_writer.h>

#include <algorithm>
#include <filesystem>

#include "db/errors.hpp"
#include "db/rocks.hpp"

namespace toadbase::db {

void GroupWriter::add(KeyValues kvs) {
  std::unique_lock lock(mu_);
  for (auto& kv : kvs) {
    pending_bytes_ += kv.second.size() + 64;
    pending_.push_back(std::move(kv));
  }
  if (pending_bytes_ >= kGroupBytes ||
      std::chrono::duration<double>(std::chrono::steady_clock::now() - last_).count() >= kGroupSeconds) {
    auto [group, number] = take();
    lock.unlock();
    ingest(group, number);
  }
}

void GroupWriter::flush() {
  std::unique_lock lock(mu_);
  auto [group, number] = take();
  lock.unlock();
  ingest(group, number);
}

bool GroupWriter::pending(const std::string& key, std::string* value) const {
  std::lock_guard lock(mu_);
  for (auto it = pending_.rbegin(); it != pending_.rend(); ++it) {
    if (it->first == key) {
      *value = it->second;
      return true;
    }
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

void GroupWriter::ingest(KeyValues& group, uint64_t number) {
  try {
    write(group, number);
  } catch (...) {
    std::lock_guard lock(mu_);
    for (auto& kv : group) {
      pending_bytes_ += kv.second.size() + 64;
      pending_.push_back(std::move(kv));
    }
    throw;
  }
}

void GroupWriter::write(KeyValues& group, uint64_t number) {
  if (group.empty()) return;
  std::stable_sort(group.begin(), group.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  // a tier committed again in the same group: its later records win
  KeyValues unique;
  unique.reserve(group.size());
  for (auto& kv : group) {
    if (!unique.empty() && unique.back().first == kv.first) unique.back() = std::move(kv);
    else unique.push_back(std::move(kv));
  }
  group.swap(unique);
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
