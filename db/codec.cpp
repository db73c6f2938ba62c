#include "db/codec.hpp"

#include <zstd.h>

#include <memory>

#include "db/errors.hpp"
#include "solver/core/hash.hpp"

namespace toadbase::db {

namespace {
uint64_t get_le64(const char* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}
}  // namespace

std::string encode_block(const uint8_t* raw, uint64_t len, int level) {
  const size_t bound = ZSTD_compressBound(len);
  std::string v(8 + bound, '\0');
  const uint64_t h = xxh64(raw, len);
  for (int i = 0; i < 8; ++i) v[i] = static_cast<char>((h >> (8 * i)) & 0xff);
  thread_local std::unique_ptr<ZSTD_CCtx, size_t (*)(ZSTD_CCtx*)> cctx(ZSTD_createCCtx(), ZSTD_freeCCtx);
  const size_t z = ZSTD_compressCCtx(cctx.get(), v.data() + 8, bound, raw, len, level);
  if (ZSTD_isError(z)) throw DbError(std::string("zstd: ") + ZSTD_getErrorName(z));
  v.resize(8 + z);
  return v;
}

std::vector<uint8_t> decode_block(const std::string& value, uint64_t max_bytes, const std::string& where) {
  if (value.size() < 8) throw DbError(where + " is damaged (too short)");
  const unsigned long long size = ZSTD_getFrameContentSize(value.data() + 8, value.size() - 8);
  if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN || size > max_bytes)
    throw DbError(where + " is damaged (not a zstd frame)");
  std::vector<uint8_t> out(size);
  // a context of the thread's own: ZSTD_decompress makes one (over 100 KiB) for each call
  thread_local std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> dctx(ZSTD_createDCtx(), ZSTD_freeDCtx);
  const size_t z = ZSTD_decompressDCtx(dctx.get(), out.data(), size, value.data() + 8, value.size() - 8);
  if (ZSTD_isError(z) || z != size) throw DbError(where + " is damaged (zstd: " + ZSTD_getErrorName(z) + ")");
  if (xxh64(out.data(), out.size()) != get_le64(value.data())) throw DbError(where + " is damaged (digest mismatch)");
  return out;
}

}  // namespace toadbase::db
