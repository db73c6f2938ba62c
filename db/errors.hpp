// What the database throws, and how it writes digests.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace toadbase::db {

/// A database that is missing, foreign, damaged, or does not fit the request.
struct DbError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A digest as 16 lower-case hex digits.
std::string hex64(uint64_t v);

}  // namespace toadbase::db
