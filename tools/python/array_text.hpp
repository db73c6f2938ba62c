// The text of one item of a numpy array of fixed-width strings, read from the array's raw
// buffer: what Database.values() reads a 'U' or 'S' array with. Pure C++ (no Python
// headers), so the fuzz target tests/fuzz/fuzz_python_strings.cpp runs the module's own code.
//
// numpy pads a string shorter than the array's item size with NULs at its end, and only
// there: trailing NULs are padding, a NUL before another character is part of the string
// (and reaches the position parser, which refuses it as the command does).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "solver/core/printable.hpp"

namespace toadbase::python {

/// numpy's kinds of fixed-width strings: 'U' (UCS-4 code points, four bytes each in this
/// machine's byte order) and 'S' (bytes).
enum class ItemKind { Ucs4, Bytes };

/// A code point that is Unicode text: at most U+10FFFF and not a surrogate (U+D800..U+DFFF).
constexpr bool unicode_scalar(uint32_t c) { return c <= 0x10FFFF && (c < 0xD800 || c > 0xDFFF); }

/// Code point k of a UCS-4 buffer, read bytewise (an array's items need not be aligned).
inline uint32_t ucs4_at(const char* ucs4, size_t k) {
  uint32_t c;
  std::memcpy(&c, ucs4 + 4 * k, 4);
  return c;
}

/// The units of an item of `width` bytes (code points for Ucs4, bytes for Bytes) without
/// its trailing NULs. A Ucs4 item holds width / 4 code points (numpy's widths are multiples
/// of 4; a rest would be ignored).
inline size_t item_units(ItemKind kind, const char* item, size_t width) {
  if (kind == ItemKind::Bytes) {
    size_t n = width;
    while (n > 0 && item[n - 1] == 0) --n;
    return n;
  }
  size_t n = width / 4;
  while (n > 0 && ucs4_at(item, n - 1) == 0) --n;
  return n;
}

/// Appends `c`, a Unicode scalar value (unicode_scalar(c)), as UTF-8.
inline void append_utf8(uint32_t c, std::string& out) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

/// item_text()'s answer when every code point of the item is text.
inline constexpr size_t kAllText = SIZE_MAX;

/// An item of `width` bytes as the text a position parser reads, into `out` (cleared; its
/// capacity is reused): trailing NULs dropped, bytes as they are, code points as UTF-8.
/// Returns kAllText, or the index of the first code point that is not Unicode text (a
/// surrogate, or past U+10FFFF): `out` then holds the text before it, and the item is no
/// position (not_text() says why).
inline size_t item_text(ItemKind kind, const char* item, size_t width, std::string& out) {
  out.clear();
  const size_t n = item_units(kind, item, width);
  if (kind == ItemKind::Bytes) {
    out.append(item, n);
    return kAllText;
  }
  for (size_t k = 0; k < n; ++k) {
    const uint32_t c = ucs4_at(item, k);
    if (!unicode_scalar(c)) return k;
    append_utf8(c, out);
  }
  return kAllText;
}

/// `chars` code points as an error message quotes them: the text through printable() (as
/// the command quotes what it was given), and a code point that is not text as Python
/// writes it in a string's repr (\ud800, \U00110000).
inline std::string quoted_ucs4(const char* ucs4, size_t chars) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out, run;
  for (size_t k = 0; k < chars; ++k) {
    const uint32_t c = ucs4_at(ucs4, k);
    if (unicode_scalar(c)) {
      append_utf8(c, run);
      continue;
    }
    out += printable(run);
    run.clear();
    const int digits = c <= 0xFFFF ? 4 : 8;
    out += digits == 4 ? "\\u" : "\\U";
    for (int d = digits - 1; d >= 0; --d) out += kHex[(c >> (4 * d)) & 0xF];
  }
  return out + printable(run);
}

/// Why `chars` code points are no text, `at` being the first that is not (item_text()'s
/// answer): "'1_T\ud800': character 3 is U+D800, a lone surrogate, not text".
inline std::string not_text(const char* ucs4, size_t chars, size_t at) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  const uint32_t c = ucs4_at(ucs4, at);
  std::string code = "U+";
  const int digits = c <= 0xFFFF ? 4 : c <= 0xFFFFF ? 5 : c <= 0xFFFFFF ? 6 : c <= 0xFFFFFFF ? 7 : 8;
  for (int d = digits - 1; d >= 0; --d) code += kHex[(c >> (4 * d)) & 0xF];
  const bool surrogate = c >= 0xD800 && c <= 0xDFFF;
  return "'" + quoted_ucs4(ucs4, chars) + "': character " + std::to_string(at) + " is " + code +
         (surrogate ? ", a lone surrogate" : ", past Unicode's last code point U+10FFFF") + ", not text";
}

}  // namespace toadbase::python
