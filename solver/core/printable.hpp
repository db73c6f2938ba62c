#pragma once

#include <string>
#include <string_view>

namespace toadbase {

namespace detail {

/// The length of the well-formed UTF-8 sequence at s[i] (a lead byte of 0x80 or more), or 0.
inline size_t utf8_sequence(std::string_view s, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the range of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;  // no overlong forms
    if (c == 0xED) hi = 0x9F;  // no surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;  // nothing past U+10FFFF
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (size_t k = 2; k < n; ++k)
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  return n;
}

}  // namespace detail

/// `s` with every byte a terminal or a JSON writer cannot show as it is written out: control
/// bytes as \t, \n, \r or \xNN (so a NUL no longer ends the message), and bytes that are not
/// well-formed UTF-8 as \xNN. Printable ASCII and well-formed UTF-8 are kept. Every error
/// message that quotes what a user gave goes through this.
inline std::string printable(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    if (c >= 0x80) {
      if (const size_t n = detail::utf8_sequence(s, i)) {
        out.append(s.substr(i, n));
        i += n;
        continue;
      }
    }
    if (c == '\t') {
      out += "\\t";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
    }
    ++i;
  }
  return out;
}

/// printable() of at most the first `most` bytes of `s`, then "... (N bytes)" when it is
/// longer: what an error quotes of a line the user gave, so that a line of 600 KB is not
/// echoed whole (a cut in the middle of a UTF-8 sequence shows its first bytes as \xNN).
inline std::string printable_excerpt(std::string_view s, size_t most = 80) {
  if (s.size() <= most) return printable(s);
  return printable(s.substr(0, most)) + "... (" + std::to_string(s.size()) + " bytes)";
}

}  // namespace toadbase
