// The Python module's reading of a numpy array of fixed-width strings (tools/python/
// array_text.hpp, what Database.values() runs on a 'U' or 'S' array's buffer), on arbitrary
// buffers. The input: byte 0 picks the kind ('U' when even, 'S' when odd), byte 1 the item
// size (a multiple of 4 for 'U', as numpy's are; 0 for 'S' too), the rest is the buffer,
// cut to whole items. Every item is copied into an allocation of exactly its size, so a read
// past it is a sanitizer report. Properties:
//   - only trailing NULs are dropped: the text is the item up to its last non-NUL unit, NULs
//     inside kept;
//   - 'S': the bytes as they are; 'U': the UTF-8 of the code points, which decodes back to
//     them, at most the item's size, or the first code point that is not Unicode text
//     (a surrogate, or past U+10FFFF) named, with the text before it;
//   - the quoted form an error message uses is printable: ASCII from space to '~' or
//     well-formed UTF-8, and for text it is printable() of the text, as the command quotes.
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "fuzz.hpp"
#include "tools/python/array_text.hpp"

using namespace toadbase;
using namespace toadbase::python;
using toadbase::fuzz::require;

namespace {

/// The code points of well-formed UTF-8, or false.
bool decode_utf8(const std::string& s, std::vector<uint32_t>& out) {
  out.clear();
  for (size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) {
      out.push_back(b);
      ++i;
      continue;
    }
    const size_t n = toadbase::detail::utf8_sequence(s, i);
    if (n == 0) return false;
    uint32_t c = b & (n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07);
    for (size_t k = 1; k < n; ++k) c = (c << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    out.push_back(c);
    i += n;
  }
  return true;
}

/// Printable as printable() makes it: no control byte, nothing that is not UTF-8.
bool is_printable(const std::string& s) {
  for (size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    if (b >= 0x20 && b < 0x7F) {
      ++i;
      continue;
    }
    const size_t n = b >= 0x80 ? toadbase::detail::utf8_sequence(s, i) : 0;
    if (n == 0) return false;
    i += n;
  }
  return true;
}

void check_bytes(const char* item, size_t width) {
  std::string out = "left over";
  require(item_text(ItemKind::Bytes, item, width, out) == kAllText, "bytes are always text");
  const size_t n = item_units(ItemKind::Bytes, item, width);
  require(n <= width && out.size() == n, "the text is the item without its trailing NULs");
  require(std::memcmp(out.data(), item, n) == 0, "the bytes as they are");
  require(n == 0 || item[n - 1] != 0, "only NULs dropped");
  for (size_t k = n; k < width; ++k) require(item[k] == 0, "only trailing NULs dropped");
}

void check_ucs4(const char* item, size_t width) {
  std::string out = "left over";
  const size_t at = item_text(ItemKind::Ucs4, item, width, out);
  const size_t n = item_units(ItemKind::Ucs4, item, width);
  require(n <= width / 4, "at most the item's code points");
  require(n == 0 || ucs4_at(item, n - 1) != 0, "only NULs dropped");
  for (size_t k = n; k < width / 4; ++k) require(ucs4_at(item, k) == 0, "only trailing NULs dropped");
  std::vector<uint32_t> decoded;
  require(decode_utf8(out, decoded), "the text is well-formed UTF-8");
  const size_t kept = at == kAllText ? n : at;
  require(decoded.size() == kept, "one character a code point");
  for (size_t k = 0; k < kept; ++k)
    require(decoded[k] == ucs4_at(item, k), "the text decodes to the item's code points, NULs inside kept");
  require(out.size() <= 4 * kept && out.size() <= width, "no longer than the item");
  const std::string quoted = quoted_ucs4(item, n);
  require(is_printable(quoted), "a message quotes printable text");
  if (at == kAllText) {
    require(quoted == printable(out), "text is quoted as the command quotes it");
    return;
  }
  require(at < n && !unicode_scalar(ucs4_at(item, at)), "the first code point that is not text is named");
  const std::string why = not_text(item, n, at);
  require(is_printable(why), "the message is printable");
  require(why.rfind("'" + quoted + "': character " + std::to_string(at) + " is U+", 0) == 0,
          "the message quotes the item and names the character");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const ItemKind kind = data[0] % 2 == 0 ? ItemKind::Ucs4 : ItemKind::Bytes;
  const size_t width = kind == ItemKind::Ucs4 ? 4 * static_cast<size_t>(data[1] % 33) : static_cast<size_t>(data[1] % 129);
  const size_t bytes = size - 2;
  if (width == 0) {
    // a zero-size item (no array has one, but nothing may be read from it)
    std::string out = "left over";
    const char none = 0;
    require(item_text(kind, &none, 0, out) == kAllText && out.empty(), "an empty item is empty text");
    return 0;
  }
  const size_t count = bytes / width;
  for (size_t i = 0; i < count; ++i) {
    const auto item = std::make_unique<char[]>(width);  // exactly the item: a read past it is reported
    std::memcpy(item.get(), data + 2 + i * width, width);
    if (kind == ItemKind::Bytes)
      check_bytes(item.get(), width);
    else
      check_ucs4(item.get(), width);
  }
  return 0;
}
