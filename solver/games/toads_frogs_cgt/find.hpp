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
//   offsets     (F / 64 + 1) x u64: where form 64j's entries start in the stream
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

/// The index, mapped from its file (or made in memory). Thread-safe to read. The file is
/// checked in blocks of kBlock bytes, each against its XXH64 in the block table, the first
/// time a read touches it: a value lookup reads a few blocks, not the whole file.
class FindIndex {
 public:
  /// Made from a complete database by one pass over its stored boards (two: counting, then
  /// filling). Throws std::runtime_error on a damaged database.
  static FindIndex build(const Boards& boards, const TierSource& source, const FormReader& reader);
  /// Mapped from `file` and checked against the database (its length, classes and forms);
  /// throws Unavailable when there is no file, std::runtime_error naming the file and what
  /// is wrong otherwise (a read that later meets a damaged block throws the same).
  static FindIndex load(const std::string& file, const Boards& boards, uint32_t forms);
  /// Written whole or not at all (a temporary file synced and renamed over `file`).
  void save(const std::string& file) const;
  /// Whether its file is still the one this index was mapped from: the same inode, size and
  /// times of change. A process that keeps an index between queries (serve, Python) maps it
  /// again when not: an index made again is read, and a query that begins after a file was
  /// changed in place (copied over, cut short) does not read it through the old mapping,
  /// where its bytes past a cut would stop the process (SIGBUS) and its blocks checked before
  /// would be trusted. A query already reading the old mapping still does: an index is
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
  /// Calls each(g, pair) for every pair of every form, form by form.
  template <class Each>
  void each_pair(Each&& each) const;
  /// Checks every block of the columns below (before a pass that reads them all).
  void check_columns() const;

  uint32_t negative(uint32_t g) const {
    const uint32_t n = u32(neg_off_, g);
    if (n >= forms_) throw std::runtime_error(where_ + ": the index names a negative beyond the table (damaged)");
    return n;
  }
  cgt::Dyadic mean(uint32_t g) const { return unpack_dyadic(u32(mean_off_, g)); }
  cgt::Dyadic temperature(uint32_t g) const { return unpack_dyadic(u32(temp_off_, g)); }
  cgt::Kind kind(uint32_t g) const { return static_cast<cgt::Kind>(byte(info_off_ + g) & 15); }
  cgt::OutcomeClass outcome(uint32_t g) const { return static_cast<cgt::OutcomeClass>(byte(info_off_ + g) >> 4 & 3); }

  static constexpr size_t kBlock = size_t{1} << 16;

 private:
  FindIndex() = default;
  void attach(const std::string& where, const Boards& boards, uint32_t forms);
  /// Throws unless bytes [off, off + len) lie in the file and their blocks match the table.
  void ensure(size_t off, size_t len) const;
  uint32_t u32(size_t off, uint64_t i) const {
    ensure(off + 4 * i, 4);
    uint32_t v;
    std::memcpy(&v, data_ + off + 4 * i, 4);
    return v;
  }
  uint8_t byte(size_t off) const {
    ensure(off, 1);
    return static_cast<uint8_t>(data_[off]);
  }
  uint64_t varint(size_t& at, size_t end, bool checked) const;
  size_t stream_start(uint32_t g) const;  // where form g's pairs start
  /// The pair at `at` (its class counted on from `cls`), checked against the database.
  Pair next_pair(size_t& at, uint64_t& cls, bool checked) const;

  std::string owned_;            // a made index's bytes
  void* map_ = nullptr;          // a loaded one's mapping
  const char* data_ = nullptr;   // the file's bytes
  size_t size_ = 0;
  std::string where_;            // the file (a made index: words saying so), for messages
  struct FileStamp {
    uint64_t dev = 0, ino = 0, size = 0;
    int64_t mtime_ns = 0, ctime_ns = 0;
    bool operator==(const FileStamp&) const = default;
  };
  static FileStamp stamp_from(const struct ::stat& st);
  std::optional<FileStamp> stamp_;  // a loaded index's file when it was mapped
  int64_t loaded_ns_ = 0;           // when (the realtime clock, as the file's times)
  uint32_t forms_ = 0, classes_ = 0;
  uint64_t pairs_ = 0;
  size_t table_off_ = 0, body_off_ = 0, keys_off_ = 0, neg_off_ = 0, mean_off_ = 0, temp_off_ = 0, info_off_ = 0,
         offsets_off_ = 0, stream_off_ = 0;
  std::unique_ptr<std::atomic<uint8_t>[]> verified_;  // [block]: checked
  std::vector<uint64_t> class_size_;                   // for checking a pair
};

template <class Each>
void FindIndex::each_pair(Each&& each) const {
  ensure(stream_off_, size_ - stream_off_);
  size_t at = stream_off_;
  for (uint32_t g = 0; g < forms_; ++g) {
    const uint64_t n = varint(at, size_, false);
    uint64_t cls = 0;
    for (uint64_t p = 0; p < n; ++p) each(g, next_pair(at, cls, false));
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
