// An unsigned integer of any size, for counting (solutions, paths): add and print.
// Limbs are base 2^32, least significant first.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace toadbase {

class BigCount {
 public:
  BigCount() = default;
  explicit BigCount(uint64_t v) {
    if (v) limbs_.push_back(static_cast<uint32_t>(v));
    if (v >> 32) limbs_.push_back(static_cast<uint32_t>(v >> 32));
  }

  /// From base-2^32 limbs, least significant first.
  static BigCount from_limbs(std::vector<uint32_t> limbs) {
    BigCount b;
    while (!limbs.empty() && limbs.back() == 0) limbs.pop_back();
    b.limbs_ = std::move(limbs);
    return b;
  }

  BigCount& operator+=(const BigCount& o) {
    if (o.limbs_.size() > limbs_.size()) limbs_.resize(o.limbs_.size(), 0);
    uint64_t carry = 0;
    for (size_t i = 0; i < limbs_.size(); ++i) {
      const uint64_t s = uint64_t{limbs_[i]} + (i < o.limbs_.size() ? o.limbs_[i] : 0) + carry;
      limbs_[i] = static_cast<uint32_t>(s);
      carry = s >> 32;
      if (!carry && i >= o.limbs_.size()) break;
    }
    if (carry) limbs_.push_back(static_cast<uint32_t>(carry));
    return *this;
  }

  bool is_zero() const { return limbs_.empty(); }
  /// Its size in base-2^32 limbs.
  size_t limbs() const { return limbs_.size(); }
  /// The value when it fits 64 bits.
  bool fits64() const { return limbs_.size() <= 2; }
  uint64_t low64() const {
    uint64_t v = limbs_.empty() ? 0 : limbs_[0];
    if (limbs_.size() > 1) v |= uint64_t{limbs_[1]} << 32;
    return v;
  }

  friend bool operator==(const BigCount&, const BigCount&) = default;
  friend bool operator<(const BigCount& a, const BigCount& b) {
    if (a.limbs_.size() != b.limbs_.size()) return a.limbs_.size() < b.limbs_.size();
    return std::lexicographical_compare(a.limbs_.rbegin(), a.limbs_.rend(), b.limbs_.rbegin(),
                                        b.limbs_.rend());
  }

  /// Decimal digits.
  std::string str() const {
    if (limbs_.empty()) return "0";
    std::vector<uint32_t> n = limbs_;
    std::string out;
    while (!n.empty()) {  // divide by 10^9, collect the remainders
      uint64_t rem = 0;
      for (size_t i = n.size(); i-- > 0;) {
        const uint64_t cur = (rem << 32) | n[i];
        n[i] = static_cast<uint32_t>(cur / 1000000000u);
        rem = cur % 1000000000u;
      }
      while (!n.empty() && n.back() == 0) n.pop_back();
      std::string chunk = std::to_string(rem);
      if (!n.empty()) chunk.insert(0, 9 - chunk.size(), '0');
      out.insert(0, chunk);
    }
    return out;
  }

 private:
  std::vector<uint32_t> limbs_;  // no leading zero limbs
};

}  // namespace toadbase
