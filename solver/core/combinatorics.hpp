// Ranking helpers: binomial coefficients and the combinatorial number system.
//
// A k-subset of {0..m-1} is held as a bitmask. Its colex rank is
//
//     rank({b_1 < b_2 < ... < b_k}) = C(b_1, 1) + C(b_2, 2) + ... + C(b_k, k)
//
// which numbers the C(m, k) subsets 0 .. C(m, k)-1 in colexicographic order
// (compare the largest element first). Example with k = 2 over {0..3}:
//
//     mask  0011 0101 0110 1001 1010 1100
//     rank     0    1    2    3    4    5
//
// `next_subset` steps to the colex successor (Gosper's hack), so scanning a
// range of ranks needs one unrank and then O(1) per subset.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#if defined(__BMI2__)
#include <immintrin.h>
#endif

namespace toadbase {

inline constexpr int kMaxBinomial = 64;

struct BinomialTable {
  std::array<std::array<uint64_t, kMaxBinomial + 1>, kMaxBinomial + 1> c{};
  constexpr BinomialTable() {
    for (int n = 0; n <= kMaxBinomial; ++n) {
      c[n][0] = 1;
      for (int k = 1; k <= n; ++k) c[n][k] = c[n - 1][k - 1] + (k <= n - 1 ? c[n - 1][k] : 0);
    }
  }
};
inline constexpr BinomialTable kBinomial{};

/// C(n, k), zero when k < 0 or k > n.
constexpr uint64_t binomial(int n, int k) {
  if (k < 0 || n < 0 || k > n) return 0;
  return kBinomial.c[n][k];
}

/// Colex rank of a subset held as a bitmask.
inline uint64_t colex_rank(uint64_t mask) {
  uint64_t r = 0;
  int j = 1;
  while (mask) {
    int b = std::countr_zero(mask);
    r += binomial(b, j++);
    mask &= mask - 1;
  }
  return r;
}

/// colex_rank of a subset of {0..bits-1} by table lookups: a subset of the lowest 16 elements
/// by one lookup in the ranks of every such subset (256 KiB), a larger one a byte at a time
/// (the rank of a byte's elements given how many lie below it): no loop over the elements.
/// The branches are which of the two (by the subset's highest element: always the lookup
/// when bits is 16 or fewer) and the bytes' count. Tables for fewer bits stay smaller
/// (bytes: 34 KiB for 16 bits, 132 KiB for 32; the subsets of the lowest 16: 2^bits entries
/// up to 16).
class ColexByteRank {
 public:
  explicit ColexByteRank(int bits = 32)
      : bytes_((std::clamp(bits, 1, 32) + 7) / 8), rows_(8 * bytes_ + 1), table_(static_cast<size_t>(bytes_ * rows_ * 256)) {
    if (bits < 1 || bits > 32) throw std::invalid_argument("ColexByteRank: " + std::to_string(bits) + " bits, not 1..32");
    low_.resize(size_t{1} << std::min(bits, 16));
    for (int k = 0; k < bytes_; ++k)
      for (int c = 0; c < rows_; ++c)
        for (int b = 0; b < 256; ++b) {
          uint64_t r = 0;
          int j = c + 1;
          for (int q = 0; q < 8; ++q)
            if (b >> q & 1) r += binomial(8 * k + q, j++);
          table_[static_cast<size_t>((k * rows_ + c) * 256 + b)] = static_cast<uint32_t>(r);  // C(31, 15) < 2^32
        }
    for (uint32_t m = 0; m < low_.size(); ++m) low_[m] = static_cast<uint32_t>(by_bytes(m));
    low_count_ = static_cast<uint32_t>(low_.size());
  }
  /// The rank of `mask` (below 2^bits): one lookup below 2^16, else by_bytes.
  [[gnu::always_inline]] uint64_t operator()(uint32_t mask) const {
    if (mask < low_count_) return low_[mask];
    return by_bytes(mask);
  }

 private:
  /// A byte at a time, unrolled (the byte count is the table's, so each test goes the same
  /// way every call); each byte's row is the elements below it, counted at once rather than
  /// carried from byte to byte.
  [[gnu::always_inline]] uint64_t by_bytes(uint32_t mask) const {
    const uint32_t* t = table_.data();
    uint64_t r = t[mask & 0xff];
    for (int k = 1; k < 4; ++k) {
      if (k == bytes_) break;
      const int below = std::popcount(mask & ((1u << (8 * k)) - 1));
      r += t[static_cast<size_t>((k * rows_ + below) * 256) + ((mask >> (8 * k)) & 0xff)];
    }
    return r;
  }

  int bytes_, rows_;  // rows: the elements below a byte, 0 .. 8 * bytes
  std::vector<uint32_t> table_;
  std::vector<uint32_t> low_;  // [mask]: the rank of every subset of {0..min(bits, 16) - 1}
  uint32_t low_count_ = 0;     // low_.size(), one load where the size took two and a shift
};

/// The sum of the indices of the set bits of x (no loop over them).
[[gnu::always_inline]] constexpr int bit_index_sum(uint32_t x) {
  return std::popcount(x & 0xAAAAAAAAu) + 2 * std::popcount(x & 0xCCCCCCCCu) + 4 * std::popcount(x & 0xF0F0F0F0u) +
         8 * std::popcount(x & 0xFF00FF00u) + 16 * std::popcount(x & 0xFFFF0000u);
}

/// The k-subset of {0..m-1} whose colex rank is `rank` (rank < C(m, k)).
inline uint64_t colex_unrank(uint64_t rank, int k, int m) {
  uint64_t mask = 0;
  int b = m - 1;
  for (int j = k; j >= 1; --j) {
    while (binomial(b, j) > rank) --b;
    rank -= binomial(b, j);
    mask |= uint64_t{1} << b;
    --b;
  }
  return mask;
}

/// The colex successor of a non-empty subset with the same number of elements.
inline uint64_t next_subset(uint64_t mask) {
  uint64_t t = mask | (mask - 1);
  return (t + 1) | (((~t & (t + 1)) - 1) >> (std::countr_zero(mask) + 1));
}

/// Deposit the low bits of `src` into the set bits of `mask`, lowest first.
inline uint64_t deposit_bits(uint64_t src, uint64_t mask) {
#if defined(__BMI2__)
  return _pdep_u64(src, mask);
#else
  uint64_t out = 0;
  for (uint64_t bit = 1; mask; bit <<= 1) {
    uint64_t low = mask & -mask;
    if (src & bit) out |= low;
    mask &= mask - 1;
  }
  return out;
#endif
}

/// Gather the bits of `src` at the set bits of `mask` into the low bits.
inline uint64_t extract_bits(uint64_t src, uint64_t mask) {
#if defined(__BMI2__)
  return _pext_u64(src, mask);
#else
  uint64_t out = 0;
  for (uint64_t bit = 1; mask; bit <<= 1) {
    uint64_t low = mask & -mask;
    if (src & low) out |= bit;
    mask &= mask - 1;
  }
  return out;
#endif
}

}  // namespace toadbase
