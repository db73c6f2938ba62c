// One block of a tier's byte planes as it is stored: its digest, then its bytes compressed.
//
//     u64le XXH64(raw bytes)  |  one zstd frame of the raw bytes (content size in its header)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "solver/core/packed.hpp"

namespace toadbase::db {

/// The stored form of `len` raw bytes (zstd at `level`; thread-safe, one context a thread).
std::string encode_block(const uint8_t* raw, uint64_t len, int level);
/// The raw bytes of a stored block; throws DbError naming `where` and what is wrong (too
/// short, not a zstd frame, more than `max_bytes`, digest mismatch).
std::vector<uint8_t> decode_block(std::string_view value, uint64_t max_bytes, const std::string& where);
/// The same into `out`; what is wrong ("too short", ...: decode_block's words in its
/// parentheses), or empty when the block decodes. A reader names the block only then.
std::string try_decode_block(std::string_view value, uint64_t max_bytes, std::vector<uint8_t>& out);

/// A solve's finished tiers held packed in memory (solver/core/packed.hpp): a block as the
/// database keeps one (encode_block: eight bytes for its digest, a zstd frame), packed at
/// level 1 with the eight bytes zero (one 1 MiB block of Toads and Frogs' records of 22
/// cells: 1.9x, about 400 MB/s packed and 1.2 GB/s unpacked a thread here), unpacked without
/// checking them (the bytes never leave the process): so a tier held packed may be the blocks
/// its commit made (Database::commit_tier_held) or these.
class ZstdRecordCodec final : public RecordCodec {
 public:
  std::vector<uint8_t> pack(const uint8_t* raw, uint64_t bytes) const override;
  void unpack(std::span<const uint8_t> packed, uint8_t* raw, uint64_t bytes) const override;
};

}  // namespace toadbase::db
