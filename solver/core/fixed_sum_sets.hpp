// Ranking k-subsets of {0..m-1} that have a given sum of elements.
//
// The sets of one sum s are numbered 0 .. count(s)-1 in increasing order of their bitmask.
// To rank in O(1), a mask is cut into a high part H (bits h..m-1) and a low part L:
//
//     rank(H:L) = prefix[s][H] + low_rank[L]
//
//     prefix[s][H]  = sets of sum s whose high part is numerically below H
//                   = sum over H' < H of lows(k - |H'|, s - sum(H'))
//     low_rank[L]   = L's position among the low parts of its size and sum, in mask order
//     lows(j, t)    = how many j-subsets of {0..h-1} have sum t
//
// Example, m = 4, k = 2, s = 3: the sets {0,3} = 1001 and {1,2} = 0110 have rank 1 and 0.
// Tables: 2^h low entries and (sums x 2^(m-h)) prefix entries; h = (m + 1) / 2 balances them
// (m = 25: 8,192 low entries, 157 x 4,096 prefix entries; a tier's scan reads a few 16 KiB rows,
// which stay in cache; a wider split, h = m - m/3, solved the 12 + 12 frog puzzle slower).
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "solver/core/huge_pages.hpp"

namespace toadbase {

class FixedSumSets {
 public:
  /// k-subsets of {0..m-1}, 0 <= k <= m <= 32.
  FixedSumSets(int m, int k) : m_(m), k_(k) {
    if (m < 0 || m > 32 || k < 0 || k > m) throw std::invalid_argument("FixedSumSets: bad m or k");
    h_ = (m + 1) / 2;
    min_sum_ = k * (k - 1) / 2;
    max_sum_ = min_sum_ + k * (m - k);
    const uint32_t nlow = uint32_t{1} << h_;
    low_sum_max_ = h_ * (h_ - 1) / 2;
    const int groups = (h_ + 1) * (low_sum_max_ + 1);
    std::vector<uint32_t> group_size(groups, 0);
    low_rank_.assign(nlow, 0);
    for (uint32_t L = 0; L < nlow; ++L) {
      const int g = group(std::popcount(L), bit_sum(L));
      low_rank_[L] = group_size[g]++;
    }
    group_start_.assign(groups + 1, 0);
    for (int g = 0; g < groups; ++g) group_start_[g + 1] = group_start_[g] + group_size[g];
    low_list_.assign(nlow, 0);
    for (uint32_t L = 0; L < nlow; ++L)
      low_list_[group_start_[group(std::popcount(L), bit_sum(L))] + low_rank_[L]] = L;
    nhigh_ = uint64_t{1} << (m_ - h_);
    const int sums = max_sum_ - min_sum_ + 1;
    prefix_.resize(static_cast<size_t>(sums) * (nhigh_ + 1));  // every entry written below
    // high part by high part, each one's size and sum found once (not again for every sum)
    const size_t stride = nhigh_ + 1;
    for (int s = 0; s < sums; ++s) prefix_[static_cast<size_t>(s) * stride] = 0;
    for (uint64_t H = 0; H < nhigh_; ++H) {
      const int pop = std::popcount(H), j = k_ - pop, high_sum = pop * h_ + bit_sum(H);
      for (int s = min_sum_; s <= max_sum_; ++s) {
        uint32_t* p = &prefix_[static_cast<size_t>(s - min_sum_) * stride + H];
        const int t = s - high_sum;
        const bool fits = j >= 0 && j <= h_ && t >= 0 && t <= low_sum_max_;
        p[1] = p[0] + (fits ? group_start_[group(j, t) + 1] - group_start_[group(j, t)] : 0);
      }
    }
  }

  int size() const { return m_; }
  int elements() const { return k_; }
  int min_sum() const { return min_sum_; }
  int max_sum() const { return max_sum_; }

  /// The sum of the elements of a set.
  static int bit_sum(uint64_t mask) {
    int s = 0;
    for (; mask; mask &= mask - 1) s += std::countr_zero(mask);
    return s;
  }

  /// How many of the sets have sum s.
  uint64_t count(int s) const {
    if (s < min_sum_ || s > max_sum_) return 0;
    return row(s)[nhigh_];
  }

  /// How many of the sets of sum s lie within {0..m-2} (leave out the top element m-1): in
  /// mask order they come first.
  uint64_t count_without_top(int s) const {
    if (s < min_sum_ || s > max_sum_) return 0;
    if (m_ - 1 >= h_) return row(s)[nhigh_ / 2];  // the top element is the high part's top bit
    return k_ == 0 && s == 0 ? 1 : 0;              // m = 1: only the empty set avoids element 0
  }

  /// The rank of a k-set among the sets of its sum s (s must be its sum).
  uint64_t rank(uint64_t mask, int s) const {
    return row(s)[mask >> h_] + low_rank_[mask & ((uint64_t{1} << h_) - 1)];
  }
  uint64_t rank(uint64_t mask) const { return rank(mask, bit_sum(mask)); }

  /// For hot loops: the table row of a sum, then ranks of many sets of that sum.
  struct Ranker {
    const uint32_t* row;
    const uint32_t* low_rank;
    int h;
    uint64_t low_mask;
    uint64_t operator()(uint64_t mask) const { return row[mask >> h] + low_rank[mask & low_mask]; }
  };
  /// A ranker for sum s (s may lie outside the sums: then it must not be called).
  Ranker ranker(int s) const {
    const bool in = s >= min_sum_ && s <= max_sum_;
    return {in ? row(s) : nullptr, low_rank_.data(), h_, (uint64_t{1} << h_) - 1};
  }

  /// The set of sum s with rank r (r < count(s)).
  uint64_t unrank(int s, uint64_t r) const {
    const uint32_t* p = row(s);
    // the last H whose prefix is <= r holds it (its block is non-empty)
    const uint64_t H = static_cast<uint64_t>(std::upper_bound(p, p + nhigh_ + 1, r) - p) - 1;
    return (H << h_) | low_list_[low_start(H, s) + (r - p[H])];
  }

  /// Calls f(mask) for the sets of sum s with ranks r, r+1, ..., r+n-1, in order.
  template <class F>
  void walk(int s, uint64_t r, uint64_t n, F&& f) const {
    if (n == 0) return;
    const uint32_t* p = row(s);
    uint64_t H = static_cast<uint64_t>(std::upper_bound(p, p + nhigh_ + 1, r) - p) - 1;
    uint64_t li = r - p[H];
    while (true) {
      const uint64_t block = p[H + 1] - p[H];
      if (block) {
        const uint32_t* list = &low_list_[low_start(H, s)];
        const uint64_t high = H << h_;
        for (; li < block; ++li) {
          f(high | list[li]);
          if (--n == 0) return;
        }
      }
      ++H;
      li = 0;
    }
  }

 private:
  int group(int pop, int sum) const { return pop * (low_sum_max_ + 1) + sum; }
  const uint32_t* row(int s) const { return &prefix_[static_cast<size_t>(s - min_sum_) * (nhigh_ + 1)]; }
  // the first entry of the low parts that complete the high part H to a set of sum s
  uint32_t low_start(uint64_t H, int s) const {
    const int j = k_ - std::popcount(H);
    const int t = s - (std::popcount(H) * h_ + bit_sum(H));
    return group_start_[group(j, t)];
  }

  int m_, k_, h_ = 0, min_sum_ = 0, max_sum_ = 0, low_sum_max_ = 0;
  uint64_t nhigh_ = 1;
  std::vector<uint32_t> low_rank_, low_list_, group_start_;
  // [s - min_sum][H], nhigh + 1 entries per sum; 32 bits hold every count (at most
  // C(32, 16) < 2^32) in half the memory (28 MiB at 22 cells in 64 bits, all touched as a
  // space is made)
  HugeVector<uint32_t> prefix_;
};

}  // namespace toadbase
