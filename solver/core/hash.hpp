// Digests of record arrays: XXH64 (the xxHash 64-bit algorithm, seed 0), so anyone can
// recompute a database's digests with a stock xxhsum over the exported records.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace toadbase {

namespace xxh64_detail {
inline constexpr uint64_t P1 = 11400714785074694791ULL;
inline constexpr uint64_t P2 = 14029467366897019727ULL;
inline constexpr uint64_t P3 = 1609587929392839161ULL;
inline constexpr uint64_t P4 = 9650029242287828579ULL;
inline constexpr uint64_t P5 = 2870177450012600261ULL;
inline uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
inline uint64_t read64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
inline uint32_t read32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
inline uint64_t round(uint64_t acc, uint64_t input) {
  acc += input * P2;
  acc = rotl(acc, 31);
  return acc * P1;
}
inline uint64_t merge(uint64_t acc, uint64_t val) {
  acc ^= round(0, val);
  return acc * P1 + P4;
}
}  // namespace xxh64_detail

/// XXH64 of `len` bytes with the given seed.
inline uint64_t xxh64(const void* data, size_t len, uint64_t seed = 0) {
  using namespace xxh64_detail;
  const uint8_t* p = static_cast<const uint8_t*>(data);
  const uint8_t* end = p + len;
  uint64_t h;
  if (len >= 32) {
    uint64_t v1 = seed + P1 + P2, v2 = seed + P2, v3 = seed, v4 = seed - P1;
    const uint8_t* limit = end - 32;
    do {
      v1 = round(v1, read64(p));
      v2 = round(v2, read64(p + 8));
      v3 = round(v3, read64(p + 16));
      v4 = round(v4, read64(p + 24));
      p += 32;
    } while (p <= limit);
    h = rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18);
    h = merge(h, v1);
    h = merge(h, v2);
    h = merge(h, v3);
    h = merge(h, v4);
  } else {
    h = seed + P5;
  }
  h += static_cast<uint64_t>(len);
  while (p + 8 <= end) {
    h ^= round(0, read64(p));
    h = rotl(h, 27) * P1 + P4;
    p += 8;
  }
  if (p + 4 <= end) {
    h ^= static_cast<uint64_t>(read32(p)) * P1;
    h = rotl(h, 23) * P2 + P3;
    p += 4;
  }
  while (p < end) {
    h ^= (*p) * P5;
    h = rotl(h, 11) * P1;
    ++p;
  }
  h ^= h >> 33;
  h *= P2;
  h ^= h >> 29;
  h *= P3;
  h ^= h >> 32;
  return h;
}

/// XXH64 of a stream given in pieces (same result as xxh64() over their concatenation).
class Xxh64Stream {
 public:
  explicit Xxh64Stream(uint64_t seed = 0) : seed_(seed) {
    using namespace xxh64_detail;
    v_[0] = seed + P1 + P2;
    v_[1] = seed + P2;
    v_[2] = seed;
    v_[3] = seed - P1;
  }
  void update(const void* data, size_t len) {
    using namespace xxh64_detail;
    const uint8_t* p = static_cast<const uint8_t*>(data);
    total_ += len;
    if (buffered_ + len < 32) {
      std::memcpy(buf_ + buffered_, p, len);
      buffered_ += len;
      return;
    }
    if (buffered_) {
      const size_t fill = 32 - buffered_;
      std::memcpy(buf_ + buffered_, p, fill);
      stripe(buf_);
      p += fill;
      len -= fill;
      buffered_ = 0;
    }
    while (len >= 32) {
      stripe(p);
      p += 32;
      len -= 32;
    }
    std::memcpy(buf_, p, len);
    buffered_ = len;
  }
  uint64_t digest() const {
    using namespace xxh64_detail;
    uint64_t h;
    if (total_ >= 32) {
      h = rotl(v_[0], 1) + rotl(v_[1], 7) + rotl(v_[2], 12) + rotl(v_[3], 18);
      for (uint64_t v : v_) h = merge(h, v);
    } else {
      h = seed_ + P5;
    }
    h += total_;
    const uint8_t* p = buf_;
    const uint8_t* end = buf_ + buffered_;
    while (p + 8 <= end) {
      h ^= round(0, read64(p));
      h = rotl(h, 27) * P1 + P4;
      p += 8;
    }
    if (p + 4 <= end) {
      h ^= static_cast<uint64_t>(read32(p)) * P1;
      h = rotl(h, 23) * P2 + P3;
      p += 4;
    }
    while (p < end) {
      h ^= (*p) * P5;
      h = rotl(h, 11) * P1;
      ++p;
    }
    h ^= h >> 33;
    h *= P2;
    h ^= h >> 29;
    h *= P3;
    h ^= h >> 32;
    return h;
  }

 private:
  void stripe(const uint8_t* p) {
    using namespace xxh64_detail;
    for (int k = 0; k < 4; ++k) v_[k] = round(v_[k], read64(p + 8 * k));
  }
  uint64_t seed_;
  uint64_t v_[4];
  uint8_t buf_[32] = {};
  size_t buffered_ = 0;
  uint64_t total_ = 0;
};

/// A tier's digest, the one every store records and matches_digest() checks: the XXH64 of
/// its `count` records (record-major, `width` bytes each) laid out as byte planes, byte 0 of
/// every record, then byte 1 of every record, and so on. For one-byte records: the XXH64 of
/// the records themselves.
///
///     3 records of 2 bytes   r0b0 r0b1 r1b0 r1b1 r2b0 r2b1   digest of   r0b0 r1b0 r2b0 r0b1 r1b1 r2b1
inline uint64_t tier_digest(const void* records, uint64_t count, unsigned width) {
  const auto* r = static_cast<const uint8_t*>(records);
  if (width == 1) return xxh64(r, count);
  Xxh64Stream h;
  uint8_t buf[1 << 14];
  for (unsigned plane = 0; plane < width; ++plane)
    for (uint64_t from = 0; from < count; from += sizeof buf) {
      const uint64_t len = std::min<uint64_t>(sizeof buf, count - from);
      for (uint64_t i = 0; i < len; ++i) buf[i] = r[(from + i) * width + plane];
      h.update(buf, len);
    }
  return h.digest();
}

}  // namespace toadbase
