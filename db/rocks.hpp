// RocksDB as the database uses it: the options every open shares, and status checks.
#pragma once

#include <rocksdb/options.h>
#include <rocksdb/table.h>
#include <rocksdb/status.h>

#include <cstdint>
#include <optional>
#include <string>

namespace toadbase::db {

/// RocksDB's data blocks in the files of a database whose records are cut into blocks of
/// `block_bytes` (layout.hpp): 32 KiB, or one of ours when that is smaller. A read takes a
/// whole data block from the file: a game that asked for small blocks of its own (a query
/// reading many scattered records, as the CGT database's) reads a few KiB a record, not 32.
/// (0, a game that names no blocks of its own, means the default: 32 KiB.)
inline uint64_t data_block_bytes(uint64_t block_bytes) {
  return block_bytes != 0 && block_bytes < (32 << 10) ? block_bytes : 32 << 10;
}
/// Options of every open and of the SST files a group is written to, for a database cut into
/// blocks of `block_bytes` (which sets only the data blocks of files written: any open reads
/// files of any).
rocksdb::Options rocks_options(uint64_t block_bytes);
/// The table options in rocks_options() (data blocks by data_block_bytes, a Bloom filter a
/// file), for an open that adds its own block cache.
rocksdb::BlockBasedTableOptions table_options(uint64_t block_bytes);
/// Throws DbError "what: status" unless `s` is OK.
void check(const rocksdb::Status& s, const std::string& what);

/// Room kept free beside each write the database makes, for what RocksDB writes of its own
/// between two of them: the OPTIONS file (7 KiB), MANIFEST records, CURRENT, IDENTITY, LOG
/// lines and a new log file, each a few file-system blocks at most (under 64 KiB in all).
inline constexpr uint64_t kSpaceMargin = 256 << 10;
/// Bytes this process may still write on the file system of `path` (of its nearest existing
/// parent when it does not exist yet); nullopt when the system does not say.
std::optional<uint64_t> free_bytes(const std::string& path);
/// Throws DbError "what: no space left on the device (...)" unless `bytes` and kSpaceMargin
/// are free beside `path`. Checked before each write, so that RocksDB's own writers do not
/// run out of space (after a failed write RocksDB 7.8's WritableFileWriter asserts on the
/// next use); a write still failing (the disk filled meanwhile) fails as clearly.
void ensure_space(const std::string& path, uint64_t bytes, const std::string& what);

}  // namespace toadbase::db
