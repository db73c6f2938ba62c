// How a tier's records lie in the database: byte planes, cut into blocks.
//
// Records of w bytes come in record-major (every record's bytes together). The database
// keeps them as w byte planes, plane p holding byte p of every kept record, one plane after
// the other: a record's high bytes (mostly zero for River Toad's counts, a float's exponent
// for the forest's values) sit together and compress to little. One-byte records are their
// own single plane.
//
//     kept k = 3 records of w = 2 bytes:     r0b0 r1b0 r2b0 | r0b1 r1b1 r2b1
//     stream offset of byte p of record i:   p * k + i
//
// The stream is cut into blocks of the database's block bytes (kDefaultBlockBytes unless the
// game asks for another: Identity::block_bytes); each block is one RocksDB value. The tier's
// digest is the XXH64 of the planes of *every* record of the tier (not only the kept ones),
// so a tier that keeps a prefix is still checked whole once its tail is rebuilt.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "solver/core/hash.hpp"

namespace toadbase::db {

/// Bytes of the plane stream a block holds (the last block of a tier may hold fewer), unless
/// the database says otherwise: a power of two from kMinBlockBytes to kMaxBlockBytes. A
/// smaller block is decompressed faster when one record is read, and compresses less.
inline constexpr uint64_t kDefaultBlockBytes = 1 << 16;
inline constexpr uint64_t kMinBlockBytes = 1 << 12, kMaxBlockBytes = 1 << 20;

inline bool valid_block_bytes(uint64_t b) {
  return b >= kMinBlockBytes && b <= kMaxBlockBytes && (b & (b - 1)) == 0;
}
inline uint64_t blocks_of(uint64_t stream_bytes, uint64_t block_bytes) {
  return (stream_bytes + block_bytes - 1) / block_bytes;
}

/// The plane stream of the first `kept` records of a record-major array.
struct PlaneLayout {
  unsigned width;  // bytes per record
  uint64_t kept;   // records in the stream

  uint64_t stream_bytes() const { return kept * width; }
  uint64_t offset(uint64_t record, unsigned plane) const { return plane * kept + record; }

  /// Stream bytes [from, from + len) out of the records.
  void gather(const uint8_t* records, uint64_t from, uint64_t len, uint8_t* out) const {
    if (width == 1) {
      std::memcpy(out, records + from, len);
      return;
    }
    uint64_t plane = from / kept, i = from % kept;
    for (uint64_t s = 0; s < len; ++s) {
      out[s] = records[i * width + plane];
      if (++i == kept) i = 0, ++plane;
    }
  }
  /// Stream bytes [from, from + len) into the records.
  void scatter(const uint8_t* in, uint64_t from, uint64_t len, uint8_t* records) const {
    if (width == 1) {
      std::memcpy(records + from, in, len);
      return;
    }
    uint64_t plane = from / kept, i = from % kept;
    for (uint64_t s = 0; s < len; ++s) {
      records[i * width + plane] = in[s];
      if (++i == kept) i = 0, ++plane;
    }
  }
};

/// The tier digest: XXH64 of the planes of all `count` records (record-major input); its
/// definition is the engine's (solver/core/hash.hpp), which ranks that hold no database use too.
inline uint64_t plane_digest(const uint8_t* records, uint64_t count, unsigned width) {
  return tier_digest(records, count, width);
}

}  // namespace toadbase::db
