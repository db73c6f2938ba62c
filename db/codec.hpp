// One block of a tier's byte planes as it is stored: its digest, then its bytes compressed.
//
//     u64le XXH64(raw bytes)  |  one zstd frame of the raw bytes (content size in its header)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace toadbase::db {

/// The stored form of `len` raw bytes (zstd at `level`; thread-safe, one context a thread).
std::string encode_block(const uint8_t* raw, uint64_t len, int level);
/// The raw bytes of a stored block; throws DbError naming `where` and what is wrong (too
/// short, not a zstd frame, more than `max_bytes`, digest mismatch).
std::vector<uint8_t> decode_block(const std::string& value, uint64_t max_bytes, const std::string& where);

}  // namespace toadbase::db
