// How a tier's records lie in the database: byte planes, cut into blocks.
//
// Records of w bytes come in record-major (every record's bytes together). The database
// keeps them as byte planes, plane p holding byte p of every record: a record's high bytes
// (mostly zero for River Toad's counts, a float's exponent for the forest's values, a CGT
// form id's top byte) sit together and compress to little. Each block is one RocksDB value,
// zstd-compressed (codec.hpp). One-byte records are their own single plane, the same in
// every format.
//
// FORMAT 4 (planes per block): block b holds records [bR, bR + n) of the kept records,
// R = block bytes / w (n = R but in the last block), as their w planes one after the other,
// so that a record is read from one block:
//
//     w = 4, R = 1024:   block 0 = r0b0 .. r1023b0 | r0b1 .. r1023b1 | r0b2 .. | r0b3 ..
//     byte p of record i: block i / R, offset p * n + i % R
//
// FORMATS 1-3 (planes per tier): the w planes of all kept records one after the other, one
// stream cut into blocks of the block bytes: a record of w bytes lay in w blocks, and a cold
// query of the CGT database (4-byte form ids) decompressed four blocks for each record it
// read (issue 25's cold queries).
//
//     kept k = 3 records of w = 2 bytes:     r0b0 r1b0 r2b0 | r0b1 r1b1 r2b1
//     stream offset of byte p of record i:   p * k + i
//
// The block bytes are kDefaultBlockBytes unless the game asks for another
// (Identity::block_bytes). The tier's digest is the XXH64 of the planes of *every* record of
// the tier (not only the kept ones) one after the other, in every format: so a tier that
// keeps a prefix is still checked whole once its tail is rebuilt, and a database written in
// either format has the same digests.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "solver/core/hash.hpp"

namespace toadbase::db {

/// Bytes a block holds at most (the last block of a tier may hold fewer, and with planes per
/// block every block of records whose width does not divide it does), unless the database
/// says otherwise: a power of two from kMinBlockBytes to kMaxBlockBytes. A smaller block is
/// decompressed faster when one record is read, and compresses less.
inline constexpr uint64_t kDefaultBlockBytes = 1 << 16;
inline constexpr uint64_t kMinBlockBytes = 1 << 12, kMaxBlockBytes = 1 << 20;

inline bool valid_block_bytes(uint64_t b) {
  return b >= kMinBlockBytes && b <= kMaxBlockBytes && (b & (b - 1)) == 0;
}
inline uint64_t blocks_of(uint64_t stream_bytes, uint64_t block_bytes) {
  return (stream_bytes + block_bytes - 1) / block_bytes;
}

/// The first format that lays its planes out per block.
inline constexpr uint32_t kPlanesPerBlockVersion = 4;
/// Whether a database of this format version and record width keeps its planes per block
/// (records of one byte are laid out the same either way).
inline bool planes_per_block(uint32_t format_version, unsigned width) {
  return format_version >= kPlanesPerBlockVersion && width > 1;
}

/// How the first `kept` records of a tier lie in its blocks (see the top of this file).
struct PlaneLayout {
  unsigned width;        // bytes per record
  uint64_t kept;         // records in the blocks
  uint64_t block_bytes;  // the database's block bytes
  bool per_block;        // format 4's planes per block, else one plane stream for the tier

  uint64_t stream_bytes() const { return kept * width; }
  /// Records a block holds (planes per block).
  uint64_t block_records() const { return block_bytes / width; }
  uint64_t blocks() const {
    return per_block ? (kept + block_records() - 1) / block_records() : blocks_of(stream_bytes(), block_bytes);
  }
  /// Bytes block b holds.
  uint64_t block_size(uint64_t b) const {
    if (per_block) return std::min(block_records(), kept - b * block_records()) * width;
    return std::min(block_bytes, stream_bytes() - b * block_bytes);
  }
  struct At {
    uint64_t block, offset;
  };
  /// Where byte `plane` of record `record` lies.
  At at(uint64_t record, unsigned plane) const {
    if (!per_block) {
      const uint64_t s = plane * kept + record;
      return {s / block_bytes, s % block_bytes};
    }
    const uint64_t r = block_records(), b = record / r, n = std::min(r, kept - b * r);
    return {b, plane * n + record % r};
  }

  /// Block b's bytes out of the records (record-major, the tier's first record at `records`).
  void gather(const uint8_t* records, uint64_t b, uint8_t* out) const {
    const uint64_t len = block_size(b);
    if (width == 1) {
      std::memcpy(out, records + b * block_bytes, len);
      return;
    }
    if (per_block) {
      const uint64_t first = b * block_records(), n = len / width;
      const uint8_t* in = records + first * width;
      for (uint64_t i = 0; i < n; ++i)
        for (unsigned p = 0; p < width; ++p) out[p * n + i] = in[i * width + p];
      return;
    }
    const uint64_t from = b * block_bytes;
    uint64_t plane = from / kept, i = from % kept;
    for (uint64_t s = 0; s < len; ++s) {
      out[s] = records[i * width + plane];
      if (++i == kept) i = 0, ++plane;
    }
  }
  /// Block b's bytes (block_size(b) of them) into the records.
  void scatter(const uint8_t* in, uint64_t b, uint8_t* records) const {
    const uint64_t len = block_size(b);
    if (width == 1) {
      std::memcpy(records + b * block_bytes, in, len);
      return;
    }
    if (per_block) {
      const uint64_t first = b * block_records(), n = len / width;
      uint8_t* out = records + first * width;
      for (uint64_t i = 0; i < n; ++i)
        for (unsigned p = 0; p < width; ++p) out[i * width + p] = in[p * n + i];
      return;
    }
    const uint64_t from = b * block_bytes;
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
