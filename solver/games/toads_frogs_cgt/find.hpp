// Boards by value: `toadbase cgt find`, Python's db.find(), GET /api/<db>/find (issue 25).
//
// The database answers "what is this board?"; find answers the other way: which boards have
// this value (or a value of this kind, outcome class, temperature or mean), how many of each
// length, and the shortest. It reads an index made once from the database
// (`toadbase cgt index --db D`, a pass over every stored board) and kept beside it, in the
// database's folder, as the file "cgt-find.index":
//
//   header      magic "toadbase-cgt-find-index\0" (24 bytes), then u32 version, the
//               database's length n, its classes C, its forms F; u64 entries (pairs below),
//               stream bytes, and the XXH64 of the block table
//   block table u64 a block: the XXH64 of each kBlock bytes of what follows (the last
//               block shorter), checked when a read first touches the block
//   keys        F x {u32 key, u32 form}, sorted: key = XXH64 of the value's text as the
//               database prints it (a long form's: of "#" and its printed length), so a
//               value typed in any notation is parsed, printed canonically and found by
//               binary search, then checked against the form's stored text
//   negative    F x u32: each form's negative (a mirrored board's value)
//   mean        F x u32, temperature F x u32 (dyadics as the forms' columns pack them)
//   info        F x u8: kind | outcome class << 4
//   offsets     (ceil(F / 64) + 1) x u64: where form 64j's entries start in the stream (the
//               last: where the stream ends)
//   stream      per form, its classes in class order: count of pairs, then per pair
//               (class - previous class, boards of the class with the form, index of the
//               first), each an unsigned LEB128 varint
//
//       form 17 = ^: pairs (class 3, 1 board, index 0), (class 9, 4 boards, first 12), ...
//
// A stored board of class (m, t, f) with form g stands for itself (value g) and, when t < f,
// for its mirror (value g's negative; with t = f the mirror is stored too). A reduced board
// of m cells is the core of L - m + 1 boards of L cells (F^k X T^j, boards.hpp), and the
// L + 1 boards F^k T^j of L cells have no core and value 0: so the boards of each length
// with a value come from the pairs alone. The shortest boards are the reduced ones (dead
// pieces only lengthen a board): each pair's first board, then, when more are asked for, the
// class read on from it.
#pragma once

#include <sys/stat.h>

#include <atomic>
#include <cstring>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "solver/games/toads_frogs_cgt/boards.hpp"
#include "solver/games/toads_frogs_cgt/forms.hpp"

namespace toadbase::toads_frogs_cgt {

/// The index file's name in the database's folder.
inline constexpr const char* kFindIndexFile = "cgt-find.index";
/// The most boards find lists (--limit).
inline constexpr int kFindMaxLimit = 1000;

/// The index, read from its file (or made in memory). Thread-safe to read. The file is read
/// through its descriptor (pread), never mapped: a file cut short in place while a query reads
/// it is an error naming it, where a mapping's bytes past the cut would stop the process
/// (SIGBUS). It is checked in blocks of kBlock bytes, each against its XXH64 in the block table,
/// the first time a read touches it: a value lookup reads a few blocks, not the whole file; a
/// search by property reads the columns and the pairs front to back, a window at a time.
class FindIndex {
 public:
  /// Made from a complete database by one pass over its stored boards (two: counting, then
  /// filling). Throws std::runtime_error on a damaged database.
  static FindIndex build(const Boards& boards, const TierSource& source, const FormReader& reader);
  /// Opened from `file` and checked against the database (its length, classes and forms);
  /// throws Unavailable when there is no file, std::runtime_error naming the file and what
  /// is wrong otherwise (a read that later meets a damaged block, or the end of a file cut
  /// short since, throws the same).
  static FindIndex load(const std::string& file, const Boards& boards, uint32_t forms);
  /// Written whole or not at all (a temporary file synced and renamed over `file`).
  void save(const std::string& file) const;
  /// Whether its file is still the one this index was opened from: the same inode, size and
  /// times of change. A process that keeps an index between queries (serve, Python) opens it
  /// again when not: an index made again is read, and a query that begins after a file was
  /// changed in place (copied over, cut short) does not trust the blocks it checked before.
  /// A query already reading the old file reads on: a file cut short under it is an error
  /// naming it; one rewritten in place may be read from blocks it checked before. An index is
  /// replaced by a new file renamed over it (as `cgt index` does), never rewritten in place.
  bool unchanged() const;

  FindIndex(FindIndex&&) noexcept;
  FindIndex& operator=(FindIndex&&) = delete;
  FindIndex(const FindIndex&) = delete;
  ~FindIndex();

  uint32_t forms() const { return forms_; }
  uint64_t pairs() const { return pairs_; }
  uint64_t file_bytes() const { return size_; }

  /// The key of a value's text (a long form: its printed length).
  static uint32_t key(std::string_view text);
  static uint32_t long_key(uint64_t printed_length);
  /// The forms whose key is `key`.
  std::vector<uint32_t> forms_with_key(uint32_t key) const;

  struct Pair {
    uint32_t cls = 0;
    uint64_t count = 0, first = 0;
  };
  /// Form g's pairs, in class order.
  std::vector<Pair> pairs_of(uint32_t g) const;
  /// Calls each(g, negative of g, pair) for every pair of every form, form by form (the
  /// pairs and the negatives read front to back).
  template <class Each>
  void each_pair(Each&& each) const;

  /// A form's columns, as stored.
  struct Row {
    uint32_t mean = 0, temperature = 0;
    uint8_t info = 0;
    cgt::Kind kind() const { return static_cast<cgt::Kind>(info & 15); }
    cgt::OutcomeClass outcome() const { return static_cast<cgt::OutcomeClass>(info >> 4 & 3); }
    cgt::Dyadic mean_value() const { return unpack_dyadic(mean); }
    cgt::Dyadic temperature_value() const { return unpack_dyadic(temperature); }
  };
  /// Calls each(g, row) for every form in order (the columns read front to back).
  template <class Each>
  void each_form(Each&& each) const;

  uint32_t negative(uint32_t g) const { return checked_negative(u32(neg_off_, g)); }
  Row row(uint32_t g) const { return {u32(mean_off_, g), u32(temp_off_, g), byte(info_off_ + g)}; }

  static constexpr size_t kBlock = size_t{1} << 16;

 private:
  FindIndex() = default;
  struct Damaged : std::runtime_error {  // a block that does not match its checksum
    using std::runtime_error::runtime_error;
  };
  void attach(const std::string& where, const Boards& boards, uint32_t forms);
  /// Copies bytes [off, off + len) of the index to `to`, unchecked; throws naming the file
  /// when it ends before them (cut short since it was opened).
  void read(size_t off, size_t len, void* to) const;
  /// Checks the blocks [b, b + n) whole in `bytes` (read from where block b begins).
  void check_blocks(size_t b, size_t n, const char* bytes) const;
  /// Copies bytes [off, off + len) of the index to `to`, their blocks checked (a block read
  /// for the first time is checked and copied from in one read). For a few bytes (the
  /// callers read 1, 4 or 16): the blocks spanned are read whole.
  void checked_read(size_t off, size_t len, void* to) const;
  uint32_t u32(size_t off, uint64_t i) const {
    uint32_t v;
    checked_read(off + 4 * i, 4, &v);
    return v;
  }
  uint8_t byte(size_t off) const {
    uint8_t v;
    checked_read(off, 1, &v);
    return v;
  }

  /// Reads bytes [from, to) of the index front to back, a window of whole blocks at a time,
  /// each block checked as its window is read.
  class Sequence {
   public:
    Sequence(const FindIndex& x, size_t from, size_t to) : x_(x), at_(from), to_(to) {}
    Sequence(const Sequence&) = delete;  // (p_ and end_ point into its own buffer)
    Sequence& operator=(const Sequence&) = delete;
    uint8_t byte() {
      if (p_ == end_) refill();
      ++at_;
      return static_cast<uint8_t>(*p_++);
    }
    uint32_t u32() {
      uint32_t v = 0;
      for (int i = 0; i < 4; ++i) v |= uint32_t{byte()} << (8 * i);
      return v;
    }
    uint64_t u64() {
      const uint64_t lo = u32();
      return lo | uint64_t{u32()} << 32;
    }
    uint64_t varint();
    FindIndex::Pair pair(uint64_t& cls);  // the next pair, its class counted on from cls

   private:
    void refill();
    const FindIndex& x_;
    size_t at_, to_;
    std::vector<char> buf_;
    const char* p_ = nullptr;
    const char* end_ = nullptr;
  };
  /// A pair as read, checked against the database.
  Pair checked_pair(uint64_t cls, uint64_t count, uint64_t first) const;
  /// A form's negative or its count of pairs as read, checked against the table.
  uint32_t checked_negative(uint32_t n) const {
    if (n >= forms_) throw std::runtime_error(where_ + ": the index names a negative beyond the table (damaged)");
    return n;
  }
  uint64_t checked_pair_count(uint64_t n) const {
    if (n > classes_) throw std::runtime_error(where_ + ": the index holds too many pairs for a form (damaged)");
    return n;
  }

  std::string owned_;            // a made index's bytes
  int fd_ = -1;                  // a loaded one's file
  size_t size_ = 0;
  std::string where_;            // the file (a made index: words saying so), for messages
  struct FileStamp {
    uint64_t dev = 0, ino = 0, size = 0;
    int64_t mtime_ns = 0, ctime_ns = 0;
    bool operator==(const FileStamp&) const = default;
  };
  static FileStamp stamp_from(const struct ::stat& st);
  std::optional<FileStamp> stamp_;  // a loaded index's file when it was opened
  int64_t loaded_ns_ = 0;           // when (the realtime clock, as the file's times)
  uint32_t forms_ = 0, classes_ = 0;
  uint64_t pairs_ = 0;
  size_t table_off_ = 0, body_off_ = 0, keys_off_ = 0, neg_off_ = 0, mean_off_ = 0, temp_off_ = 0, info_off_ = 0,
         offsets_off_ = 0, stream_off_ = 0;
  std::vector<uint64_t> block_sum_;                    // [block]: its XXH64, from the block table
  std::unique_ptr<std::atomic<uint8_t>[]> verified_;  // [block]: checked
  std::vector<uint64_t> class_size_;                   // for checking a pair
};

template <class Each>
void FindIndex::each_pair(Each&& each) const {
  Sequence stream(*this, stream_off_, size_), neg(*this, neg_off_, neg_off_ + 4 * size_t{forms_});
  for (uint32_t g = 0; g < forms_; ++g) {
    const uint32_t n = checked_negative(neg.u32());
    const uint64_t pairs = checked_pair_count(stream.varint());
    uint64_t cls = 0;
    for (uint64_t p = 0; p < pairs; ++p) each(g, n, stream.pair(cls));
  }
}

template <class Each>
void FindIndex::each_form(Each&& each) const {
  const size_t F = forms_;
  Sequence mean(*this, mean_off_, mean_off_ + 4 * F), temp(*this, temp_off_, temp_off_ + 4 * F),
      info(*this, info_off_, info_off_ + F);
  for (uint32_t g = 0; g < forms_; ++g) {
    Row r;
    r.mean = mean.u32();
    r.temperature = temp.u32();
    r.info = info.byte();
    each(g, r);
  }
}

/// What find is asked (each given one narrows it; at least one given).
struct FindQuery {
  std::optional<std::string> value;                 // a value in CGSuite's notation
  std::optional<cgt::OutcomeClass> outcome;         // --outcome L|R|N|P
  std::optional<cgt::Kind> kind;                    // --kind number|nimber|...
  std::optional<cgt::Dyadic> temperature_at_least;  // --temperature-at-least T
  std::optional<cgt::Dyadic> mean;                  // --mean M
  int limit = 10;                                   // the shortest boards listed, 0..kFindMaxLimit
  /// The value made once, when from_params read it: the table that holds it, and its form.
  /// A search grows the table, so a query is its own and is never copied (moved only).
  std::unique_ptr<cgt::FormTable> table;
  cgt::FormId form{};

  FindQuery() = default;
  FindQuery(FindQuery&&) = default;
  FindQuery& operator=(FindQuery&&) = default;
  FindQuery(const FindQuery&) = delete;
  FindQuery& operator=(const FindQuery&) = delete;

  /// From named parameters, as HTTP and Python give them ("value", "outcome", "kind",
  /// "temperatureAtLeast", "mean", "limit"); throws UsageError naming a bad one.
  static FindQuery from_params(const std::map<std::string, std::string>& params);
  /// The query as the answer repeats it.
  nlohmann::ordered_json to_json() const;
};

/// A dyadic number as find reads one ("3", "-1/2", "0.25"); throws UsageError naming `what`.
cgt::Dyadic parse_dyadic(const std::string& text, const std::string& what);
/// A typed value (any notation) made in `t`, as find and thermograph read one; throws
/// UsageError saying where it does not parse or what bound it passes.
cgt::FormId parse_value(cgt::FormTable& t, const std::string& value);

/// The answer (see the README's `cgt find`): the boards of each length 1..n with a matching
/// value, the distinct values matched, the shortest boards. `found` is false when no board
/// has one (the command exits 1).
nlohmann::ordered_json find_boards(const FindIndex& index, const Boards& boards, const TierSource& source,
                                   const FormReader& reader, const FindQuery& q, uint64_t text_cap);

}  // namespace toadbase::toads_frogs_cgt
