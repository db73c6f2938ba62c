// Fixed-width integers in the database's values: little-endian 64-bit words (a block's
// digest, a manifest's counts) and big-endian 32-bit words (a manifest's tier numbers, which
// sort as keys).
#pragma once

#include <cstdint>
#include <string>

namespace toadbase::db {

inline void put_be32(std::string& s, uint32_t v) {
  for (int i = 3; i >= 0; --i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
inline void put_le64(std::string& s, uint64_t v) {
  for (int i = 0; i < 8; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
inline uint64_t get_le64(const char* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}

}  // namespace toadbase::db
