#include "db/codec.hpp"

#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <span>
#include <vector>

#include "db/bytes.hpp"
#include "db/errors.hpp"
#include "solver/core/hash.hpp"

namespace toadbase::db {

namespace {

// `len` raw bytes as a zstd frame at `level`, in a buffer of the thread's own (valid until the
// thread's next call): its caller copies it into a value of its size behind the eight bytes
// of a block's digest. A value cut down from the worst case kept that capacity, as much
// memory as the raw block, for as long as the tier's blocks wait to be written (a tier of
// 4 GB held 4 GB).
std::span<const char> zstd_frame(const uint8_t* raw, uint64_t len, int level) {
  thread_local std::vector<char> buffer;
  const size_t bound = ZSTD_compressBound(len);
  buffer.resize(std::max(buffer.size(), bound));
  thread_local std::unique_ptr<ZSTD_CCtx, size_t (*)(ZSTD_CCtx*)> cctx(ZSTD_createCCtx(), ZSTD_freeCCtx);
  const size_t z = ZSTD_compressCCtx(cctx.get(), buffer.data(), bound, raw, len, level);
  if (ZSTD_isError(z)) throw DbError(std::string("zstd: ") + ZSTD_getErrorName(z));
  return {buffer.data(), z};
}

// a context of the thread's own: ZSTD_decompress makes one (over 100 KiB) for each call
ZSTD_DCtx* thread_dctx() {
  thread_local std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> dctx(ZSTD_createDCtx(), ZSTD_freeDCtx);
  return dctx.get();
}

}  // namespace

std::string encode_block(const uint8_t* raw, uint64_t len, int level) {
  const std::span<const char> frame = zstd_frame(raw, len, level);
  std::string v(8 + frame.size(), '\0');
  const uint64_t h = xxh64(raw, len);
  for (int i = 0; i < 8; ++i) v[i] = static_cast<char>((h >> (8 * i)) & 0xff);
  std::memcpy(v.data() + 8, frame.data(), frame.size());
  return v;
}

std::string try_decode_block(std::string_view value, uint64_t max_bytes, std::vector<uint8_t>& out) {
  if (value.size() < 8) return "too short";
  const unsigned long long size = ZSTD_getFrameContentSize(value.data() + 8, value.size() - 8);
  if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN || size > max_bytes) return "not a zstd frame";
  out.resize(size);
  const size_t z = ZSTD_decompressDCtx(thread_dctx(), out.data(), size, value.data() + 8, value.size() - 8);
  if (ZSTD_isError(z) || z != size) return std::string("zstd: ") + ZSTD_getErrorName(z);
  if (xxh64(out.data(), out.size()) != get_le64(value.data())) return "digest mismatch";
  return {};
}

std::vector<uint8_t> decode_block(std::string_view value, uint64_t max_bytes, const std::string& where) {
  std::vector<uint8_t> out;
  const std::string wrong = try_decode_block(value, max_bytes, out);
  if (!wrong.empty()) throw DbError(where + " is damaged (" + wrong + ")");
  return out;
}

std::vector<uint8_t> ZstdRecordCodec::pack(const uint8_t* raw, uint64_t bytes) const {
  // the eight bytes where a database block has its digest left zero: the layout of the
  // blocks a commit gives (Database::commit_tier_held)
  const std::span<const char> frame = zstd_frame(raw, bytes, 1);
  std::vector<uint8_t> out;
  out.reserve(8 + frame.size());
  out.assign(8, 0);
  out.insert(out.end(), frame.begin(), frame.end());
  return out;
}

void ZstdRecordCodec::unpack(std::span<const uint8_t> packed, uint8_t* raw, uint64_t bytes) const {
  if (packed.size() < 8) throw DbError("a packed tier's block of " + std::to_string(packed.size()) + " bytes is too short");
  const size_t z = ZSTD_decompressDCtx(thread_dctx(), raw, bytes, packed.data() + 8, packed.size() - 8);
  if (ZSTD_isError(z) || z != bytes)
    throw DbError(std::string("a packed tier does not unpack (zstd: ") + (ZSTD_isError(z) ? ZSTD_getErrorName(z) : "wrong size") + ")");
}

}  // namespace toadbase::db
