// Boards by value: the index (made, saved, loaded) and the search (find.hpp).
#include "solver/games/toads_frogs_cgt/find.hpp"

#include "solver/core/work_budget.hpp"

#include "solver/games/toads_frogs_cgt/instance.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <numeric>

#include "solver/core/hash.hpp"
#include "solver/core/printable.hpp"
#include "solver/module/module.hpp"

namespace toadbase::toads_frogs_cgt {

namespace {

constexpr char kMagic[24] = "toadbase-cgt-find-index";
constexpr uint32_t kVersion = 1;
constexpr size_t kHeader = 24 + 4 * 4 + 8 * 3;
constexpr uint32_t kOffsetEvery = 64;

void put_u32(std::string& s, uint32_t v) { s.append(reinterpret_cast<const char*>(&v), 4); }
void put_u64(std::string& s, uint64_t v) { s.append(reinterpret_cast<const char*>(&v), 8); }
void put_varint(std::string& s, uint64_t v) {
  while (v >= 0x80) {
    s.push_back(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  s.push_back(static_cast<char>(v));
}



/// Each form's value text (its key) and columns, a chunk at a time; the text read in
/// windows, since a chunk of 20 cells holds up to a billion characters.
struct FormColumns {
  std::vector<std::pair<uint32_t, uint32_t>> keys;  // (key, form)
  std::vector<uint32_t> negative, mean, temperature;
  std::vector<uint8_t> info;
};

FormColumns read_columns(const Boards& boards, const TierSource& source, uint32_t F) {
  const TierLayout lay{boards.class_count()};
  FormColumns out;
  out.keys.resize(F);
  out.negative.resize(F);
  out.mean.resize(F);
  out.temperature.resize(F);
  out.info.resize(F);
  constexpr uint64_t kWindow = uint64_t{1} << 20;
  std::vector<uint32_t> window;
  std::string text;
  uint32_t g = 0;
  for (uint32_t k = 0; k < lay.classes; ++k) {
    const std::vector<uint32_t> cols = source.load<uint32_t>(lay.forms(k));
    const size_t rows = cols.size() / kColumns;
    const uint64_t text_size = source.tier_kept(lay.text(k));
    uint64_t wstart = 0, wend = 0;
    for (size_t r = 0; r < rows; ++r, ++g) {
      if (g >= F) throw std::runtime_error("the form table holds more forms than its chunks say (damaged)");
      const uint32_t* row = cols.data() + r * kColumns;
      const uint32_t info = row[kInfo];
      out.negative[g] = row[kNegative];
      out.mean[g] = row[kMean];
      out.temperature[g] = row[kTemperature];
      out.info[g] = static_cast<uint8_t>((info >> 16 & 15) | (info >> 20 & 3) << 4);
      if (info & kTextNotStored) {
        out.keys[g] = {FindIndex::long_key(row[kAtomicLength]), g};
        continue;
      }
      const uint64_t start = r ? text_end(row - kColumns) : 0, end = text_end(row);
      const uint32_t aw = row[kAtomicLength];
      const uint64_t length = end - start - (aw == kNoAtomicWeight ? 0 : aw);
      if (end < start || start + length > text_size || length > end - start)
        throw std::runtime_error("form " + std::to_string(g) + "'s text lies beyond its chunk (damaged)");
      if (start < wstart || start + length > wend) {
        wstart = start;
        wend = std::min(text_size, start + std::max(kWindow, length));
        window.resize(wend - wstart);
        if (!window.empty()) source.read_records(lay.text(k), wstart, wend - wstart, window.data());
      }
      text.resize(length);
      for (uint64_t c = 0; c < length; ++c) text[c] = static_cast<char>(window[start - wstart + c]);
      out.keys[g] = {FindIndex::key(text), g};
    }
  }
  if (g != F) throw std::runtime_error("the form table's chunks hold fewer forms than it says (damaged)");
  for (uint32_t x = 0; x < F; ++x)
    if (out.negative[x] >= F) throw std::runtime_error("form " + std::to_string(x) + " names a negative beyond the table (damaged)");
  std::sort(out.keys.begin(), out.keys.end());
  return out;
}

}  // namespace

uint32_t FindIndex::key(std::string_view text) { return static_cast<uint32_t>(xxh64(text.data(), text.size())); }
uint32_t FindIndex::long_key(uint64_t printed_length) {
  const std::string s = "#" + std::to_string(printed_length);
  return key(s);
}

FindIndex FindIndex::build(const Boards& boards, const TierSource& source, const FormReader& reader) {
  const uint32_t F = reader.count(), C = boards.class_count();
  const TierLayout lay{C};
  FormColumns col = read_columns(boards, source, F);

  // two passes over the boards: how many classes each form has boards in, then the pairs
  std::vector<uint32_t> stamp(F, UINT32_MAX);
  std::vector<uint64_t> start(static_cast<size_t>(F) + 1, 0);
  auto each_class = [&](auto&& each) {
    for (uint32_t k = 0; k < C; ++k) {
      const std::vector<uint32_t> ids = source.load<uint32_t>(lay.board(k));
      if (ids.size() != boards.cls(k).size)
        throw std::runtime_error("class " + boards.cls(k).name() + " holds " + std::to_string(ids.size()) +
                                 " boards, not " + std::to_string(boards.cls(k).size) + " (damaged)");
      for (uint64_t i = 0; i < ids.size(); ++i) {
        if (ids[i] >= F)
          throw std::runtime_error("class " + boards.cls(k).name() + " names a form beyond the table (damaged)");
        each(k, i, ids[i]);
      }
    }
  };
  each_class([&](uint32_t k, uint64_t, uint32_t g) {
    if (stamp[g] != k) {
      stamp[g] = k;
      ++start[g + 1];
    }
  });
  for (uint32_t g = 0; g < F; ++g) start[g + 1] += start[g];
  const uint64_t P = start[F];
  struct Raw {
    uint32_t cls;
    uint32_t count;
    uint64_t first;
  };
  std::vector<Raw> raw(P);
  std::vector<uint64_t> next(start.begin(), start.end() - 1);
  std::fill(stamp.begin(), stamp.end(), UINT32_MAX);
  each_class([&](uint32_t k, uint64_t i, uint32_t g) {
    if (stamp[g] != k) {
      stamp[g] = k;
      raw[next[g]++] = {k, 1, i};
    } else {
      ++raw[next[g] - 1].count;
    }
  });
  std::vector<uint32_t>().swap(stamp);
  std::vector<uint64_t>().swap(next);

  std::string stream;
  std::vector<uint64_t> offsets;
  for (uint32_t g = 0; g < F; ++g) {
    if (g % kOffsetEvery == 0) offsets.push_back(stream.size());
    put_varint(stream, start[g + 1] - start[g]);
    uint32_t prev = 0;
    for (uint64_t p = start[g]; p < start[g + 1]; ++p) {
      put_varint(stream, raw[p].cls - prev);
      put_varint(stream, raw[p].count);
      put_varint(stream, raw[p].first);
      prev = raw[p].cls;
    }
  }
  offsets.push_back(stream.size());
  std::vector<Raw>().swap(raw);

  // the file made in place (header, then the body's block hashes, then the body): no second
  // copy of the body beside it (at 21 cells the body is about 3 GB)
  const size_t body_size = col.keys.size() * 8 + (col.negative.size() + col.mean.size() + col.temperature.size()) * 4 +
                           col.info.size() + offsets.size() * 8 + stream.size();
  const size_t table_size = (body_size + kBlock - 1) / kBlock * 8;
  FindIndex x;
  std::string& bytes = x.owned_;
  bytes.reserve(kHeader + table_size + body_size);
  bytes.assign(kMagic, sizeof kMagic);
  put_u32(bytes, kVersion);
  put_u32(bytes, static_cast<uint32_t>(boards.max_length()));
  put_u32(bytes, C);
  put_u32(bytes, F);
  put_u64(bytes, P);
  put_u64(bytes, stream.size());
  const size_t table_digest_at = bytes.size();
  put_u64(bytes, 0);  // the table's digest, once the table is made
  bytes.append(table_size, '\0');
  const size_t body_at = bytes.size();
  for (const auto& [key, g] : col.keys) put_u32(bytes, key), put_u32(bytes, g);
  for (uint32_t v : col.negative) put_u32(bytes, v);
  for (uint32_t v : col.mean) put_u32(bytes, v);
  for (uint32_t v : col.temperature) put_u32(bytes, v);
  bytes.append(reinterpret_cast<const char*>(col.info.data()), col.info.size());
  for (uint64_t o : offsets) put_u64(bytes, o);
  bytes += stream;
  std::string().swap(stream);
  if (body_at != kHeader + table_size || bytes.size() != body_at + body_size)
    throw std::logic_error("find index: the body is not the size it was planned");
  for (size_t b = 0, at = kHeader; b < body_size; b += kBlock, at += 8) {
    const uint64_t h = xxh64(bytes.data() + body_at + b, std::min(kBlock, body_size - b));
    std::memcpy(bytes.data() + at, &h, 8);
  }
  const uint64_t table_digest = xxh64(bytes.data() + kHeader, table_size);
  std::memcpy(bytes.data() + table_digest_at, &table_digest, 8);
  x.size_ = bytes.size();
  x.attach("the index just made", boards, F);
  return x;
}

FindIndex::FindIndex(FindIndex&& o) noexcept
    : owned_(std::move(o.owned_)), fd_(o.fd_), size_(o.size_), where_(std::move(o.where_)), stamp_(o.stamp_),
      loaded_ns_(o.loaded_ns_), forms_(o.forms_), classes_(o.classes_), pairs_(o.pairs_), table_off_(o.table_off_),
      body_off_(o.body_off_), keys_off_(o.keys_off_), neg_off_(o.neg_off_), mean_off_(o.mean_off_),
      temp_off_(o.temp_off_), info_off_(o.info_off_), offsets_off_(o.offsets_off_), stream_off_(o.stream_off_),
      block_sum_(std::move(o.block_sum_)), verified_(std::move(o.verified_)), class_size_(std::move(o.class_size_)) {
  o.fd_ = -1;
  o.size_ = 0;
}

FindIndex::~FindIndex() {
  if (fd_ >= 0) ::close(fd_);
}

void FindIndex::read(size_t off, size_t len, void* to) const {
  if (off > size_ || len > size_ - off) throw std::runtime_error(where_ + ": a read beyond the index (damaged)");
  if (fd_ < 0) {
    std::memcpy(to, owned_.data() + off, len);
    return;
  }
  char* p = static_cast<char*>(to);
  while (len > 0) {
    const ssize_t r = ::pread(fd_, p, len, static_cast<off_t>(off));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) throw std::runtime_error("cannot read " + where_ + ": " + std::strerror(errno));
    if (r == 0)
      throw std::runtime_error(where_ + " was cut short while it was read (it ends before byte " + std::to_string(off) +
                               " of " + std::to_string(size_) +
                               "): replace an index by renaming a new file over it, as toadbase cgt index does");
    p += r;
    off += static_cast<size_t>(r);
    len -= static_cast<size_t>(r);
  }
}

void FindIndex::attach(const std::string& where, const Boards& boards, uint32_t forms) {
  where_ = where;
  auto bad = [&](const std::string& what) {
    return std::runtime_error(where + " is not a find index of this database: " + what +
                              " (make it again: toadbase cgt index --db DB)");
  };
  char head[kHeader];
  if (size_ < kHeader) throw bad("it does not begin as one");
  read(0, kHeader, head);
  if (std::memcmp(head, kMagic, sizeof kMagic) != 0) throw bad("it does not begin as one");
  auto u32_at = [&](size_t at) {
    uint32_t v;
    std::memcpy(&v, head + at, 4);
    return v;
  };
  auto u64_at = [&](size_t at) {
    uint64_t v;
    std::memcpy(&v, head + at, 8);
    return v;
  };
  if (u32_at(24) != kVersion) throw bad("version " + std::to_string(u32_at(24)) + ", not " + std::to_string(kVersion));
  const uint32_t n = u32_at(28);
  classes_ = u32_at(32);
  forms_ = u32_at(36);
  pairs_ = u64_at(40);
  const uint64_t stream = u64_at(48), sum = u64_at(56);
  if (n != static_cast<uint32_t>(boards.max_length()) || classes_ != boards.class_count())
    throw bad("made for boards of 1.." + std::to_string(n) + " cells in " + std::to_string(classes_) +
              " classes, the database holds 1.." + std::to_string(boards.max_length()));
  if (forms_ != forms) throw bad("made for " + std::to_string(forms_) + " forms, the database holds " + std::to_string(forms));
  const uint64_t F = forms_, offsets = (F + kOffsetEvery - 1) / kOffsetEvery + 1;
  if (stream > size_) throw bad("shorter than its header says");
  // what the database bounds (before anything is sized by the file's length): a pair a
  // class a form at most, a board a pair at most, varints of 10 bytes at most
  for (uint32_t k = 0; k < classes_; ++k) class_size_.push_back(boards.cls(k).size);
  const uint64_t boards_stored = std::accumulate(class_size_.begin(), class_size_.end(), uint64_t{0});
  if (pairs_ > boards_stored || pairs_ / std::max<uint64_t>(F, 1) > classes_ || stream > 10 * F + 30 * pairs_)
    throw bad("its header names more pairs or bytes than the database allows (damaged)");
  const uint64_t body = 21 * F + 8 * offsets + stream, blocks = (body + kBlock - 1) / kBlock;
  table_off_ = kHeader;
  body_off_ = table_off_ + 8 * blocks;
  if (body_off_ + body != size_)
    throw bad(std::to_string(size_) + " bytes, not the " + std::to_string(body_off_ + body) + " its header says");
  block_sum_.resize(blocks);
  read(table_off_, 8 * blocks, block_sum_.data());
  if (xxh64(block_sum_.data(), 8 * blocks) != sum) throw bad("its block table does not match its checksum (damaged)");
  keys_off_ = body_off_;
  neg_off_ = keys_off_ + 8 * F;
  mean_off_ = neg_off_ + 4 * F;
  temp_off_ = mean_off_ + 4 * F;
  info_off_ = temp_off_ + 4 * F;
  offsets_off_ = info_off_ + F;
  stream_off_ = offsets_off_ + 8 * offsets;
  verified_ = std::make_unique<std::atomic<uint8_t>[]>(blocks);
  for (uint64_t b = 0; b < blocks; ++b) verified_[b].store(0, std::memory_order_relaxed);
  Sequence in(*this, offsets_off_, offsets_off_ + 8 * offsets);
  uint64_t prev = 0;
  for (uint64_t j = 0; j < offsets; ++j) {
    uint64_t o;
    try {
      o = in.u64();
    } catch (const Damaged&) {
      throw bad("its offsets are damaged");
    }
    if (o < prev || o > stream) throw bad("its offsets are out of order (damaged)");
    prev = o;
  }
}

void FindIndex::check_blocks(size_t b, size_t n, const char* bytes) const {
  for (size_t i = 0; i < n; ++i, ++b) {
    if (verified_[b].load(std::memory_order_acquire)) continue;
    const size_t from = body_off_ + b * kBlock, len = std::min(kBlock, size_ - from);
    if (xxh64(bytes + i * kBlock, len) != block_sum_[b])
      throw Damaged(where_ + " is not a find index of this database: block " + std::to_string(b) +
                               " does not match its checksum (damaged; make it again: toadbase cgt index --db DB)");
    verified_[b].store(1, std::memory_order_release);
  }
}

void FindIndex::checked_read(size_t off, size_t len, void* to) const {
  if (off < body_off_ || off > size_ || len > size_ - off)
    throw std::runtime_error(where_ + ": a read beyond the index (damaged)");
  if (len == 0) return;
  const size_t first = (off - body_off_) / kBlock, last = (off + len - 1 - body_off_) / kBlock;
  bool checked = true;
  for (size_t b = first; b <= last && checked; ++b) checked = verified_[b].load(std::memory_order_acquire);
  if (checked) return read(off, len, to);
  // the blocks whole, checked, and the bytes asked for copied from what was checked
  const size_t from = body_off_ + first * kBlock, bytes = std::min((last - first + 1) * kBlock, size_ - from);
  std::vector<char> blocks(bytes);
  read(from, bytes, blocks.data());
  check_blocks(first, last - first + 1, blocks.data());
  std::memcpy(to, blocks.data() + (off - from), len);
}

void FindIndex::Sequence::refill() {
  if (at_ >= to_) throw std::runtime_error(x_.where_ + ": the index ends inside what it describes (damaged)");
  if (at_ < x_.body_off_ || to_ > x_.size_) throw std::runtime_error(x_.where_ + ": a read beyond the index (damaged)");
  constexpr size_t kWindowBlocks = 4;  // 256 KiB
  const size_t b = (at_ - x_.body_off_) / kBlock, from = x_.body_off_ + b * kBlock;
  const size_t last = (to_ - 1 - x_.body_off_) / kBlock, n = std::min(kWindowBlocks, last - b + 1);
  const size_t len = std::min(n * kBlock, x_.size_ - from);
  buf_.resize(len);
  x_.read(from, len, buf_.data());
  x_.check_blocks(b, n, buf_.data());
  p_ = buf_.data() + (at_ - from);
  end_ = buf_.data() + (std::min(to_, from + len) - from);
}

uint64_t FindIndex::Sequence::varint() {
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (at_ >= to_) throw std::runtime_error(x_.where_ + ": the index ends inside a pair (damaged)");
    const uint8_t b = byte();
    v |= uint64_t{b & 0x7fu} << shift;
    if (!(b & 0x80)) return v;
  }
  throw std::runtime_error(x_.where_ + ": the index holds a number too long (damaged)");
}

FindIndex::Pair FindIndex::Sequence::pair(uint64_t& cls) {
  cls += varint();
  const uint64_t count = varint();
  return x_.checked_pair(cls, count, varint());
}

FindIndex::Pair FindIndex::checked_pair(uint64_t cls, uint64_t count, uint64_t first) const {
  if (cls >= classes_ || count == 0 || first >= class_size_[cls] || count > class_size_[cls] - first)
    throw std::runtime_error(where_ + ": the index names boards its database does not hold (damaged)");
  return {static_cast<uint32_t>(cls), count, first};
}

FindIndex FindIndex::load(const std::string& file, const Boards& boards, uint32_t forms) {
  // (O_NONBLOCK: a FIFO put in its place is refused below, not waited on)
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    if (errno == ENOENT)
      throw Unavailable("no find index " + file + ": make it once with toadbase cgt index --db " +
                        std::filesystem::path(file).parent_path().string());
    throw std::runtime_error("cannot read " + file + ": " + std::strerror(errno));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw std::runtime_error(file + " is not a find index of this database: not a regular file");
  }
  FindIndex x;
  x.fd_ = fd;  // closed with x, also when attach throws
  x.stamp_ = stamp_from(st);
  x.loaded_ns_ = std::chrono::duration_cast<std::chrono::nanoseconds>(
                     std::chrono::system_clock::now().time_since_epoch()).count();
  x.size_ = static_cast<size_t>(st.st_size);
  x.attach(file, boards, forms);
  return x;
}

FindIndex::FileStamp FindIndex::stamp_from(const struct ::stat& st) {
  auto ns = [](const timespec& t) { return int64_t{t.tv_sec} * 1'000'000'000 + t.tv_nsec; };
  return {static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino), static_cast<uint64_t>(st.st_size),
          ns(st.st_mtim), ns(st.st_ctim)};
}

bool FindIndex::unchanged() const {
  // a file changed shortly before it was opened may change again within the same tick of the
  // file system's clock, its times unchanged: such an index is opened again at every query.
  // (ctime alone: any change, times set included, makes it now; mtime can be set to any time)
  constexpr int64_t kRacyNs = 2'000'000'000;
  if (!stamp_ || stamp_->ctime_ns > loaded_ns_ - kRacyNs) return false;
  struct stat st {};  // (stat, not open: no descriptor taken, no wait on a FIFO put there)
  if (::stat(where_.c_str(), &st) != 0) return false;
  return stamp_from(st) == *stamp_;
}

void FindIndex::save(const std::string& file) const {
  if (fd_ >= 0) throw std::logic_error("find index: only a made index is saved");
  const std::string tmp = file + ".part";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error("cannot write " + tmp + ": " + std::strerror(errno));
  size_t done = 0;
  while (done < size_) {
    const ssize_t w = ::write(fd, owned_.data() + done, std::min<size_t>(size_ - done, size_t{1} << 26));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      const std::string why = w < 0 ? std::strerror(errno) : "nothing written";
      ::close(fd);
      ::unlink(tmp.c_str());
      throw std::runtime_error("cannot write " + tmp + ": " + why);
    }
    done += static_cast<size_t>(w);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(tmp.c_str());
    throw std::runtime_error("cannot write " + tmp + ": " + why);
  }
  if (::rename(tmp.c_str(), file.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(tmp.c_str());
    throw std::runtime_error("cannot write " + file + ": " + why);
  }
  const int dir = ::open(std::filesystem::path(file).parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

std::vector<uint32_t> FindIndex::forms_with_key(uint32_t key) const {
  size_t lo = 0, hi = forms_;
  while (lo < hi) {
    const size_t mid = (lo + hi) / 2;
    if (u32(keys_off_, 2 * mid) < key) lo = mid + 1;
    else hi = mid;
  }
  std::vector<uint32_t> out;
  for (; lo < forms_ && u32(keys_off_, 2 * lo) == key; ++lo) {
    const uint32_t g = u32(keys_off_, 2 * lo + 1);
    if (g >= forms_) throw std::runtime_error(where_ + ": the index names a form beyond the table (damaged)");
    out.push_back(g);
  }
  return out;
}

std::vector<FindIndex::Pair> FindIndex::pairs_of(uint32_t g) const {
  if (g >= forms_) throw std::out_of_range("no such form");
  // the pairs of the 64 forms from 64 * (g / 64) on (where two offsets say), read on until
  // form g's: a form's are found by reading past the ones before it
  uint64_t o[2];
  checked_read(offsets_off_ + 8 * (g / kOffsetEvery), 16, o);
  const uint64_t most = uint64_t{kOffsetEvery} * (1 + 3 * uint64_t{classes_}) * 10;  // varints of 10 bytes at most
  if (o[1] < o[0] || o[1] - o[0] > most || o[1] > size_ - stream_off_)
    throw std::runtime_error(where_ + ": its offsets are out of order (damaged)");
  Sequence in(*this, stream_off_ + o[0], stream_off_ + o[1]);
  for (uint32_t skip = g % kOffsetEvery; skip > 0; --skip)
    for (uint64_t p = 3 * checked_pair_count(in.varint()); p > 0; --p) in.varint();
  std::vector<Pair> out;
  uint64_t cls = 0;
  for (uint64_t p = checked_pair_count(in.varint()); p > 0; --p) out.push_back(in.pair(cls));
  return out;
}

// ---- the query ---------------------------------------------------------------------------

cgt::FormId parse_value(cgt::FormTable& t, const std::string& value) {
  try {
    return t.parse(value);
  } catch (const cgt::ParseError& e) {
    throw UsageError(std::string("value: ") + e.what());
  } catch (const std::overflow_error& e) {
    throw UsageError("value '" + printable_excerpt(value) + "': " + e.what());
  }
}

cgt::Dyadic parse_dyadic(const std::string& text, const std::string& what) {
  cgt::FormTable t({size_t{1} << 10, size_t{1} << 10});
  cgt::FormId g;
  try {
    g = t.parse(text);
  } catch (const core::WorkLimit&) {
    throw;  // the request's budget, not a mistake in the number
  } catch (const std::exception& e) {
    throw UsageError(what + ": " + e.what());
  }
  const auto x = t.number_value(g);
  if (!x) throw UsageError(what + " must be a number (3, -1/2, 5/8), not '" + printable_excerpt(text) + "'");
  return *x;
}

FindQuery FindQuery::from_params(const std::map<std::string, std::string>& params) {
  FindQuery q;
  for (const auto& [name, v] : params) {
    if (name == "value") {
      q.value = v;
      q.table = std::make_unique<cgt::FormTable>(cgt::FormTable::Options{size_t{1} << 16, size_t{1} << 14});
      q.form = parse_value(*q.table, v);  // made once: find_boards reads it from here
    } else if (name == "outcome") {
      if (v.size() != 1 || std::string_view("LRNP").find(v[0]) == std::string_view::npos)
        throw UsageError("outcome must be L, R, N or P, not '" + printable_excerpt(v) + "'");
      q.outcome = static_cast<cgt::OutcomeClass>(std::string_view("LRNP").find(v[0]));
    } else if (name == "kind") {
      // as the option is spelled (number-plus-infinitesimal) or as query prints it
      std::string spaced = v;
      std::replace(spaced.begin(), spaced.end(), '-', ' ');
      for (int k = 0; k < 5; ++k)
        if (cgt::kind_name(static_cast<cgt::Kind>(k)) == spaced) q.kind = static_cast<cgt::Kind>(k);
      if (!q.kind)
        throw UsageError("kind must be number, nimber, infinitesimal, number-plus-infinitesimal or hot, not '" +
                         printable_excerpt(v) + "'");
    } else if (name == "temperatureAtLeast") {
      q.temperature_at_least = parse_dyadic(v, "temperature-at-least");
    } else if (name == "mean") {
      q.mean = parse_dyadic(v, "mean");
    } else if (name == "limit") {
      const std::optional<long long> n = whole_number(v, 0, kFindMaxLimit);
      if (!n) throw UsageError("limit must be a whole number from 0 to " + std::to_string(kFindMaxLimit) + ", not '" +
                               printable_excerpt(v) + "'");
      q.limit = static_cast<int>(*n);
    } else {
      throw UsageError("find takes value, outcome, kind, temperatureAtLeast, mean and limit, not '" +
                       printable_excerpt(name) + "'");
    }
  }
  if (!q.value && !q.outcome && !q.kind && !q.temperature_at_least && !q.mean)
    throw UsageError("find needs a value or a property (outcome, kind, temperatureAtLeast, mean)");
  return q;
}

nlohmann::ordered_json FindQuery::to_json() const {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  if (value) j["value"] = *value;
  if (outcome) j["outcome"] = std::string(1, cgt::outcome_name(*outcome));
  if (kind) {
    std::string name(cgt::kind_name(*kind));
    std::replace(name.begin(), name.end(), ' ', '-');
    j["kind"] = name;
  }
  if (temperature_at_least) j["temperatureAtLeast"] = temperature_at_least->to_string();
  if (mean) j["mean"] = mean->to_string();
  j["limit"] = limit;
  return j;
}

namespace {

/// The form of the value a query asks for, when any board or follower of the database has
/// it (its printed text, or its printed length for a form that keeps no text); `out` gets the
/// value as printed (null past the text cap).
std::optional<uint32_t> find_target(const FindIndex& index, const FormReader& reader, const FindQuery& q,
                                    uint64_t text_cap, nlohmann::ordered_json& out) {
  if (!q.table) throw std::logic_error("find: a value not made by FindQuery::from_params");
  cgt::FormTable& t = *q.table;
  const cgt::FormId g = q.form;
  const uint64_t length = t.printed_length(g);
  const bool stored = length <= text_cap;
  const std::string text = stored ? t.to_string(g) : std::string();
  out["value"] = stored ? nlohmann::ordered_json(text) : nlohmann::ordered_json(nullptr);
  if (!stored) out["characters"] = length;  // as the database gives a value past its cap
  // a form keeps no text (keyed by its printed length) when its value or its atomic weight
  // prints past the cap: a short value may be such a form, so both keys are tried
  std::vector<uint32_t> candidates;
  if (stored) candidates = index.forms_with_key(FindIndex::key(text));
  for (uint32_t c : index.forms_with_key(FindIndex::long_key(length))) candidates.push_back(c);
  for (uint32_t c : candidates)
    if (reader.value_length(c).first == length && reader.text(c) == (stored ? text : t.to_string(g))) return c;
  return std::nullopt;
}

/// A stored form that matched, in one class of boards: its boards' count and the first.
struct Hit {
  uint32_t cls = 0, stored = 0, value = 0;
  uint64_t count = 0, first = 0;
  bool mirrored = false;
};

/// The shortest boards of the hits, `limit` at most: every kept pair's first board, shortest
/// core first, then its class read on for the others.
nlohmann::ordered_json shortest_boards(const Boards& boards, const TierSource& source, const FormReader& reader,
                                       const std::vector<std::vector<Hit>>& kept, size_t limit) {
  const int n = boards.max_length();
  const TierLayout lay{boards.class_count()};
  nlohmann::ordered_json shortest = nlohmann::ordered_json::array();
  auto emit = [&](const Hit& h, uint64_t index_in_class) {
    const Board b = boards.unrank(h.cls, index_in_class);
    nlohmann::ordered_json e;
    e["board"] = board_string(h.mirrored ? mirror(b) : b);
    e["cells"] = b.length;
    const auto [characters, text_stored] = reader.value_length(h.value);
    if (text_stored) e["value"] = reader.text(h.value);
    else e["characters"] = characters;
    shortest.push_back(std::move(e));
  };
  std::vector<uint32_t> buf;
  for (int m = 1; m <= n && shortest.size() < limit; ++m) {
    for (const Hit& h : kept[m]) {
      if (shortest.size() >= limit) break;
      emit(h, h.first);
    }
    for (const Hit& h : kept[m]) {
      uint64_t more = h.count - 1, i = h.first + 1;
      const uint64_t size = boards.cls(h.cls).size;
      while (more > 0 && shortest.size() < limit && i < size) {
        const uint64_t run = std::min<uint64_t>(4096, size - i);
        buf.resize(run);
        source.read_records(lay.board(h.cls), i, run, buf.data());
        for (uint64_t r = 0; r < run && more > 0 && shortest.size() < limit; ++r)
          if (buf[r] == h.stored) {
            emit(h, i + r);
            --more;
          }
        i += run;
      }
    }
  }
  return shortest;
}

}  // namespace

nlohmann::ordered_json find_boards(const FindIndex& index, const Boards& boards, const TierSource& source,
                                   const FormReader& reader, const FindQuery& q, uint64_t text_cap) {
  const int n = boards.max_length();
  const uint32_t F = index.forms();
  nlohmann::ordered_json out;
  out["query"] = q.to_json();
  out["maxLength"] = n;

  // the value asked for: its form in the database, if any board or follower has it
  const std::optional<uint32_t> target = q.value ? find_target(index, reader, q, text_cap, out) : std::nullopt;
  const bool absent = q.value && !target;

  auto has_properties = [&](const FindIndex::Row& r) {
    if (q.outcome && r.outcome() != *q.outcome) return false;
    if (q.kind && r.kind() != *q.kind) return false;
    if (q.temperature_at_least && r.temperature_value() < *q.temperature_at_least) return false;
    if (q.mean && r.mean_value() != *q.mean) return false;
    return true;
  };
  // a value lookup: the one form asked about; a search by property: every form's answer,
  // its columns read once front to back (a bit a form), before the pairs are read
  const bool properties = q.outcome || q.kind || q.temperature_at_least || q.mean;
  const bool target_has = target && (!properties || has_properties(index.row(*target)));
  std::vector<uint64_t> wanted(target || absent ? 0 : (F + 63) / 64, 0);
  if (!target && !absent)
    index.each_form([&](uint32_t g, const FindIndex::Row& r) {
      if (has_properties(r)) wanted[g / 64] |= uint64_t{1} << (g % 64);
    });
  auto matches = [&](uint32_t v) {
    if (target) return v == *target && target_has;
    return !absent && (wanted[v / 64] >> (v % 64) & 1) != 0;
  };

  std::vector<uint64_t> reduced(static_cast<size_t>(n) + 1, 0);
  std::vector<std::vector<Hit>> kept(static_cast<size_t>(n) + 1);
  // the values met: a flag for a value lookup, a bit a form for a search by property (a
  // value lookup stays a few reads of the index, whatever the table's size)
  std::vector<uint64_t> occurs(target || absent ? 0 : (F + 63) / 64, 0);
  bool target_occurs = false, target_on_boards = false;  // (the latter: the properties aside)
  auto met = [&](uint32_t v) {
    if (target) target_occurs = true;
    else occurs[v / 64] |= uint64_t{1} << (v % 64);
  };
  // a pair of form g (whose negative is neg), as itself or mirrored
  auto add = [&](uint32_t g, uint32_t neg, const FindIndex::Pair& p, bool mirrored) {
    const BoardClass& c = boards.cls(p.cls);
    if (mirrored && c.t == c.f) return;  // its mirror is stored: counted as itself
    const uint32_t v = mirrored ? neg : g;
    if (target) target_on_boards = true;
    if (!matches(v)) return;
    reduced[c.m] += p.count;
    met(v);
    if (kept[c.m].size() < static_cast<size_t>(q.limit)) kept[c.m].push_back({p.cls, g, v, p.count, p.first, mirrored});
  };
  if (target) {
    const uint32_t neg = index.negative(*target), neg_neg = index.negative(neg);
    for (const auto& p : index.pairs_of(*target)) add(*target, neg, p, false);
    for (const auto& p : index.pairs_of(neg)) add(neg, neg_neg, p, true);
  } else if (!absent) {
    index.each_pair([&](uint32_t g, uint32_t neg, const FindIndex::Pair& p) {
      add(g, neg, p, false);
      add(g, neg, p, true);
    });
  }
  // the boards F^k T^j: no core, value 0
  const bool zero = !absent && F > 0 && matches(0);
  if (zero) met(0);

  nlohmann::ordered_json by_length = nlohmann::ordered_json::array();
  uint64_t at_n = 0;
  for (int L = 1; L <= n; ++L) {
    uint64_t count = zero ? static_cast<uint64_t>(L) + 1 : 0;
    for (int m = 1; m <= L; ++m) count += reduced[m] * static_cast<uint64_t>(L - m + 1);
    by_length.push_back({{"length", L}, {"boards", count}});
    at_n = count;
  }
  uint64_t values = target_occurs ? 1 : 0;
  for (uint64_t w : occurs) values += static_cast<uint64_t>(std::popcount(w));
  out["found"] = values > 0;
  out["values"] = values;
  out["boards"] = at_n;
  out["byLength"] = by_length;

  const nlohmann::ordered_json shortest = shortest_boards(boards, source, reader, kept, static_cast<size_t>(q.limit));
  out["shortest"] = shortest;
  if (values == 0) {  // what was asked, each property named: which of them left nothing
    std::vector<std::string> asked;
    if (q.outcome) asked.push_back("outcome class " + std::string(1, cgt::outcome_name(*q.outcome)));
    if (q.kind) asked.push_back("kind " + std::string(cgt::kind_name(*q.kind)));
    if (q.temperature_at_least) asked.push_back("temperature at least " + q.temperature_at_least->to_string());
    if (q.mean) asked.push_back("mean " + q.mean->to_string());
    std::string what = q.value ? "value " + printable_excerpt(*q.value) : "a value";
    for (size_t i = 0; i < asked.size(); ++i) what += (i ? ", " : " with ") + asked[i];
    std::string why;
    if (absent) why = " (it is none of the database's " + std::to_string(F) + " values and followers)";
    else if (target_on_boards) why = " (boards with that value occur, none with the properties asked for)";
    out["message"] = "no board of 1.." + std::to_string(n) + " cells has " + what + why;
  }
  return out;
}

// ---- the instance's find -------------------------------------------------------------------

nlohmann::ordered_json CgtInstance::find(const TierSource& source, const std::string& path,
                                         const std::map<std::string, std::string>& params) const {
  return find(source, path, FindQuery::from_params(params));
}

nlohmann::ordered_json CgtInstance::find(const TierSource& source, const std::string& path, const FindQuery& q) const {
  const FormReader reader(source, layout());
  const std::string file = (std::filesystem::path(path) / kFindIndexFile).string();
  std::shared_ptr<const FindIndex> index;
  {
    std::lock_guard lock(find_mutex_);
    // the index kept from the last query, while its file is the one opened (see unchanged())
    if (!find_index_ || find_path_ != path || !find_index_->unchanged()) {
      find_index_.reset();  // (a query still reading it keeps it open until it ends: a file
                            // cut short under it is an error naming it; see unchanged())
      find_index_ = std::make_shared<const FindIndex>(FindIndex::load(file, boards_, reader.count()));
      find_path_ = path;
      ++find_index_loads_;
    }
    index = find_index_;
  }
  return find_boards(*index, boards_, source, reader, q, text_cap());
}

}  // namespace toadbase::toads_frogs_cgt
