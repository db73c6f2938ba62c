// RocksDB as the database uses it: the options every open shares, and status checks.
#pragma once

#include <rocksdb/options.h>
#include <rocksdb/status.h>

#include <string>

namespace toadbase::db {

/// Options of every open and of the SST files a group is written to.
rocksdb::Options rocks_options();
/// Throws DbError "what: status" unless `s` is OK.
void check(const rocksdb::Status& s, const std::string& what);

}  // namespace toadbase::db
