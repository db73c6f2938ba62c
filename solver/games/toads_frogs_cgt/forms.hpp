// The table of distinct values, as a CGT database stores it.
//
// FORM IDS. The engine's FormTable hands out ids in creation order, which depends on the
// threads. The database numbers the forms instead in the order the solve first meets them:
// class after class in the solve order (boards.hpp), each class's boards in its solve order
// (SA from high to low, toad set by toad set, frog sets in rank order), each board's value
// after its options (a depth-first walk; options not yet numbered taken in a structural
// order: number-up-stars by value, the rest by birthday, option counts, then options), and
// each form's negative right after it. So the ids depend on nothing but the boards: the same
// for 1 and 2 threads and after a resume, with no renumbering pass at the end. Id 0 is 0.
//
// CHUNKS. The forms first numbered in class k are that class's chunk, ids
// [first_k, first_k + count_k); each chunk is three tiers of 4-byte records (store.hpp: every
// tier of a database has one record width), sized by the solve:
//
//   "m12_t3f4.forms"    a row of kColumns words a form, row after row (a query reads a form's
//                       row and the one before it in one run; column after column it read a
//                       block a column and byte plane, a slower cold query for a little
//                       less stored):
//       options_end   where the form's options end in the options tier (they start where
//                     the previous form's end)
//       counts        Left options | Right options << 16
//       text_end      where the form's characters end in the text tier
//       atomic_length how many of them are its atomic weight's (the rest its value's), or
//                     kNoAtomicWeight when it has none; for a form whose text is not stored
//                     (kTextNotStored below), the length of its printed value
//       left_stop, right_stop, mean, temperature
//                     dyadics m / 2^e as the int32 m * 64 + e
//       info          birthday | kind << 16 | outcome class << 20 (cgt.hpp's enums)
//                     | kTextNotStored | kHasAtomicWeight (only with kTextNotStored)
//                     | options_end >> 32 << 22 | text_end >> 32 << 26 (see WIDE CHUNKS)
//       negative      the id of its negative (every form's negative is in the table)
//   "m12_t3f4.options"  per form its Left options' ids, then its Right options' (each side
//                       ascending)
//   "m12_t3f4.text"     per form its value as CGSuite prints it, then its atomic weight's,
//                       one character a record (the database stores records as byte planes:
//                       so the text lies in one plane, as text, and compresses as text)
//
//       form 7 = {0 | *}:  options_end 9, counts 1 | 1 << 16, text_end 40, atomic_length 1
//                          options ... 0 2 ...    text ... { 0 | * } 0 ...
//
// WIDE CHUNKS. A chunk may hold more than 2^32 characters of text (one class of 21 cells
// does) or options: options_end and text_end are the low 32 bits of the end, and the info
// column carries the bits above them (2 for the options, 6 for the text: up to 2^34 options
// and 2^38 characters a chunk). They are 0 in every chunk of fewer than 2^32 records, so the
// databases of 20 cells or fewer are as they were, digests included. Read the ends with
// options_end() and text_end(), never from their columns alone.
//
// LONG FORMS. A value that prints longer than kTextCap characters (or whose atomic weight
// does) keeps no text: a printed form grows far faster than the forms do (the longest of
// 18 cells prints 199,637 characters, of 19 cells 11 million, one class of 19 cells 640
// million in all), and such a text is read by nobody but is built in memory to be stored.
// Its row says so (kTextNotStored, its printed length in atomic_length, text_end
// unchanged); a reader prints it when asked, from the form's followers' stored options
// (FormReader::build). No form of 18 cells or fewer is that long: their databases are the
// same as before the cap, digests included.

#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "solver/cgt/cgt.hpp"
#include "solver/core/store.hpp"

namespace toadbase::toads_frogs_cgt {

using cgt::FormId;

/// Where a database's tiers are: class k's boards, its chunk's columns, options and text.
struct TierLayout {
  uint32_t classes = 0;
  TierId board(uint32_t k) const { return k; }
  TierId forms(uint32_t k) const { return classes + k; }
  TierId options(uint32_t k) const { return 2 * classes + k; }
  TierId text(uint32_t k) const { return 3 * classes + k; }
  TierId tiers() const { return 4 * classes; }
};

enum Column : uint32_t {
  kOptionsEnd,
  kCounts,
  kTextEnd,
  kAtomicLength,
  kLeftStop,
  kRightStop,
  kMean,
  kTemperature,
  kInfo,
  kNegative,
  kColumns
};
inline constexpr uint32_t kNoAtomicWeight = UINT32_MAX;
/// The longest text stored for a value (or for its atomic weight), in characters, unless
/// the solve is told otherwise (solve's --text-cap, kept in the database's parameters when
/// it is not this); kMaxTextCap bounds what a reader reads as one form's text.
inline constexpr uint64_t kTextCap = uint64_t{1} << 18, kMaxTextCap = uint64_t{1} << 23;
/// The info column's flags: the form's text is not stored; it has an atomic weight (said
/// here since atomic_length holds the printed length instead).
inline constexpr uint32_t kTextNotStored = uint32_t{1} << 24, kHasAtomicWeight = uint32_t{1} << 25;

/// Where the bits of options_end and text_end past 32 lie in the info column.
inline constexpr unsigned kOptionsEndHighShift = 22, kTextEndHighShift = 26;
inline constexpr uint64_t kMaxChunkOptions = uint64_t{1} << 34, kMaxChunkText = uint64_t{1} << 38;
/// A row's ends, whole (WIDE CHUNKS above).
inline uint64_t options_end(const uint32_t* row) {
  return row[kOptionsEnd] | uint64_t{row[kInfo] >> kOptionsEndHighShift & 3} << 32;
}
inline uint64_t text_end(const uint32_t* row) {
  return row[kTextEnd] | uint64_t{row[kInfo] >> kTextEndHighShift} << 32;
}
/// Sets a row's ends; throws std::length_error when either reaches its kMaxChunk bound.
inline void set_ends(uint32_t* row, uint64_t options_end, uint64_t text_end) {
  if (options_end >= kMaxChunkOptions || text_end >= kMaxChunkText)
    throw std::length_error("a chunk of the form table of 2^34 options or 2^38 characters of text, or more");
  row[kOptionsEnd] = static_cast<uint32_t>(options_end);
  row[kTextEnd] = static_cast<uint32_t>(text_end);
  row[kInfo] = (row[kInfo] & ~(uint32_t{3} << kOptionsEndHighShift | ~uint32_t{0} << kTextEndHighShift)) |
               static_cast<uint32_t>(options_end >> 32) << kOptionsEndHighShift |
               static_cast<uint32_t>(text_end >> 32) << kTextEndHighShift;
}

/// A form as the table stores it (ids are the database's).
struct StoredForm {
  std::vector<uint32_t> left, right;  // each ascending
  std::string text;
  std::optional<std::string> atomic_weight;
  /// False for a long form (see LONG FORMS above): as stored, text is empty and
  /// atomic_weight "" when there is one, and printed_length is the value's length (at most
  /// UINT32_MAX - 1: a longer one is said as that). FormReader::read fills both texts in.
  bool text_stored = true;
  uint32_t printed_length = 0;
  cgt::Dyadic left_stop, right_stop, mean, temperature;
  unsigned birthday = 0;
  cgt::Kind kind = cgt::Kind::Number;
  cgt::OutcomeClass outcome = cgt::OutcomeClass::P;
  uint32_t negative = 0;
  friend bool operator==(const StoredForm&, const StoredForm&) = default;
};

/// A dyadic as an int32 column word (m * 64 + e); throws std::overflow_error when it does
/// not fit (|m| >= 2^25).
uint32_t pack_dyadic(cgt::Dyadic d);
cgt::Dyadic unpack_dyadic(uint32_t w);

/// A chunk's columns and options tiers (ChunkWriter keeps its text apart).
struct FormChunk {
  std::vector<uint32_t> columns, options;
};

/// A chunk encoded a batch of forms at a time (in id order), so that a solve holds one
/// batch of StoredForms, not the chunk's. The text is kept compressed, a frame of
/// kTextFrame characters at a time, until commit() widens it.
class ChunkWriter {
 public:
  /// Characters compressed together (zstd): the frame commit() reads a run from.
  static constexpr size_t kTextFrame = size_t{1} << 20;
  ChunkWriter();
  ~ChunkWriter();
  ChunkWriter(const ChunkWriter&) = delete;
  ChunkWriter& operator=(const ChunkWriter&) = delete;
  void append(std::span<const StoredForm> forms);
  /// Commits the chunk as tiers `columns`, `options` and `text` of `store`, the text widened
  /// a run at a time as the store packs it (a chunk of 20 cells holds up to 1.1 billion
  /// characters: 4.5 GB widened at once, 1.1 GB a byte a character; its frames hold a
  /// fraction of that), and lets it all go.
  void commit(TierStore& store, TierId columns, TierId options, TierId text);
  /// The text's characters so far, and the bytes holding them.
  uint64_t text_size() const { return text_size_; }
  uint64_t text_held_bytes() const;

 private:
  void put_text(const std::string& s);
  /// Compresses the open frame into frames_.
  void seal();

  FormChunk chunk_;
  std::vector<std::string> frames_;  // kTextFrame characters each, compressed
  std::string open_;                 // the characters after them (fewer than kTextFrame)
  uint64_t text_size_ = 0;
  struct Compressor;
  std::unique_ptr<Compressor> zstd_;
};

/// The forms of a chunk read back (without their texts when `text` is null: then
/// `text_records`, when known, is how many characters its text tier holds); throws
/// std::runtime_error naming `where` when the records do not add up (a damaged chunk), a
/// form by its row (counted from `first_row` when `columns` are a chunk's rows from there).
std::vector<StoredForm> decode_forms(std::span<const uint32_t> columns, std::span<const uint32_t> options,
                                     const std::vector<uint32_t>* text, const std::string& where,
                                     std::optional<uint64_t> text_records = std::nullopt, uint64_t first_row = 0);

/// Chunk k's forms with their texts, read back a batch at a time in id order, each batch's
/// text read for it alone: at most `max_forms` forms and `max_text` characters a batch (a
/// single longer form alone), so that a chunk of billions of characters is read holding a
/// batch's. `each(first_row, forms)` for every batch; throws std::runtime_error naming
/// `where` as decode_forms does (a damaged chunk), and what `each` throws.
template <class Each>
void read_chunk(const TierSource& source, const TierLayout& layout, uint32_t k, const std::string& where,
                uint64_t max_forms, uint64_t max_text, Each&& each);

/// The database's numbering of a FormTable's forms (see the top of this file). Not
/// thread-safe: one thread numbers; reads are safe while nobody numbers.
///
/// FORMS LET GO. A solve may let go of forms no board it still reads leads to (the table's
/// compact()): a numbered form let go is remembered by a print, 96 bits hashed from its
/// options' database ids (each side sorted: the options' ids name a canonical form), with its
/// id, in a slot of 16 bytes (18 to 37 bytes a print, the hash table at 7/16 to 7/8 full)
/// where its record, options, index and thermograph took more. A
/// form made again in the table is not new: number() finds its print and gives it its id
/// back, so the ids, the chunks and the digest are those of a solve that let nothing go.
class Numbering {
 public:
  explicit Numbering(cgt::FormTable& table);
  uint32_t count() const { return static_cast<uint32_t>(internal_.size()); }
  /// The database id of an engine form, if numbered.
  std::optional<uint32_t> id(FormId g) const {
    if (g >= id_of_.size() || id_of_[g] == UINT32_MAX) return std::nullopt;
    return id_of_[g];
  }
  /// The engine form of a database id (cgt::kNoForm: let go and not made again).
  FormId form(uint32_t id) const { return internal_.at(id); }
  /// Numbers g if it is not yet, with what it needs first (its options, depth first) and
  /// its negative right after; returns its id. A form let go and made again gets its id back.
  uint32_t number(FormId g);
  /// Gives the next id to g (a form read back from a database, in id order).
  void adopt(FormId g);
  /// Before the table's compact(new_id): the numbered forms it lets go are kept as prints,
  /// the others renamed to their new engine ids. new_id is FormTable::survivors' (the kept
  /// forms numbered 0, 1, ... in their order).
  void let_go(std::span<const FormId> new_id);
  /// How many numbered forms were ever let go (their prints are kept, also once such a form
  /// is made again), and the bytes the prints take.
  uint64_t prints() const { return prints_.count(); }
  uint64_t print_bytes() const { return prints_.bytes(); }
  /// How many times a form let go was made again and given its id back.
  uint64_t made_again() const { return made_again_; }

 private:
  struct Print {
    uint64_t a = 0;
    uint32_t b = 0;
    friend bool operator==(const Print&, const Print&) = default;
  };
  /// Prints and their ids, open addressing (at most seven eighths full).
  class Prints {
   public:
    std::optional<uint32_t> find(Print p) const;
    void insert(Print p, uint32_t id);
    uint64_t count() const { return count_; }
    uint64_t bytes() const { return slots_.size() * sizeof(Slot); }

   private:
    struct Slot {
      uint64_t a;
      uint32_t b, id;  // id UINT32_MAX: empty
    };
    /// The slot holding print p, else the first free one from its hash on (linear probing;
    /// slots has a free slot and a power-of-two size).
    static size_t slot_of(const std::vector<Slot>& slots, Print p);
    std::vector<Slot> slots_;
    uint64_t count_ = 0;
  };
  void assign(FormId g);
  void assign_new(FormId g);
  /// g's print, from its options' ids (every option numbered).
  Print print_of(FormId g) const;
  int structural_compare(FormId a, FormId b) const;

  cgt::FormTable& t_;
  std::vector<uint32_t> id_of_;  // [engine id] -> database id, UINT32_MAX: none
  std::vector<FormId> internal_;  // [database id] -> engine id, kNoForm: let go
  Prints prints_;
  mutable std::vector<uint32_t> scratch_;
  uint64_t made_again_ = 0;
};

/// What the table stores about engine form g (its options numbered; no text past `cap`).
/// `memo`: the calling thread's texts printed before (FormTable::to_string), or none.
StoredForm describe(cgt::FormTable& t, FormId g, const Numbering& ids, uint64_t cap,
                    cgt::PrintMemo* memo = nullptr);
/// The same but its options and negative: any form of any table (a sum, say), its texts
/// kept when they print in at most `cap` characters each.
StoredForm describe_value(cgt::FormTable& t, FormId g, uint64_t cap = UINT64_MAX, cgt::PrintMemo* memo = nullptr);

/// Makes stored forms (a chunk, in id order, ids from ids.count()) in `t` from their
/// options and adopts them; throws std::runtime_error naming `where` when a stored form is
/// not the canonical form of its options or names an option after itself.
void build_forms(cgt::FormTable& t, Numbering& ids, const std::vector<StoredForm>& forms, const std::string& where);

/// Single forms of a complete database, read through the store's block cache (query).
/// Thread-safe.
class FormReader {
 public:
  FormReader(const TierSource& source, TierLayout layout);
  uint32_t count() const { return first_.back(); }
  /// A form with its texts (a long form's printed from its followers).
  StoredForm read(uint32_t id) const;
  /// The value's text alone.
  std::string text(uint32_t id) const;
  /// The characters of its value and atomic weight as printed, from its row alone (no text
  /// read, no long form printed).
  uint64_t printed_length(uint32_t id) const;
  /// The characters of its value alone as printed, and whether its text is stored (not a
  /// long form), from its row alone.
  std::pair<uint64_t, bool> value_length(uint32_t id) const;
  /// The id of its negative.
  uint32_t negative(uint32_t id) const;
  /// Tells the store (TierSource::prefetch) the rows these forms' reads start with: each
  /// form's row and the one before it (text, negative, read). Ids out of range are left to
  /// the reads.
  void prefetch_rows(std::span<const uint32_t> ids) const;
  /// Tells the store the stored texts of these forms' values (what text() reads; read()
  /// reads an atomic weight's characters after them, mostly in the same block), their rows
  /// read to find them (prefetch_rows first); throws as text() on a row that does not add up.
  void prefetch_texts(std::span<const uint32_t> ids) const;
  /// The form made in `t` from its followers' stored options (options have lower ids than
  /// the forms that use them, so the followers are made in id order); throws
  /// std::runtime_error on a follower naming an option not below it (damaged).
  cgt::FormId build(cgt::FormTable& t, uint32_t id) const;

 private:
  struct Where {
    uint32_t chunk, row, rows;
  };
  Where where(uint32_t id) const;
  /// Its row, and where its options and characters start in its chunk (the row before it's
  /// ends): both rows read in one run.
  struct Row {
    std::array<uint32_t, kColumns> words;
    uint64_t options_start, text_start;
  };
  Row row(const Where& w) const;
  /// Where the characters of form `id`'s value lie in its chunk's text: (first, count);
  /// throws std::runtime_error when its row does not add up (damaged).
  std::pair<uint64_t, uint64_t> value_chars(uint32_t id, const Row& r) const;
  /// A form as stored (a long form without its texts), its text read when `with_text`.
  StoredForm stored(uint32_t id, bool with_text) const;
  /// A long form's texts, printed.
  void print(uint32_t id, StoredForm& f) const;
  uint32_t word(TierId t, uint64_t i) const;
  uint32_t column(const Where& w, Column c) const;
  std::string chars(TierId t, uint64_t from, uint64_t length) const;

  const TierSource& source_;
  TierLayout layout_;
  std::vector<uint32_t> first_;  // [k]: first id of chunk k; [classes]: the count
};

template <class Each>
void read_chunk(const TierSource& source, const TierLayout& layout, uint32_t k, const std::string& where,
                uint64_t max_forms, uint64_t max_text, Each&& each) {
  const std::vector<uint32_t> cols = source.load<uint32_t>(layout.forms(k));
  const std::vector<uint32_t> opts = source.load<uint32_t>(layout.options(k));
  if (cols.size() % kColumns) throw std::runtime_error(where + ": its column tier does not hold whole forms (damaged)");
  const uint64_t rows = cols.size() / kColumns, text_records = source.tier_kept(layout.text(k));
  auto row = [&](uint64_t r) { return cols.data() + r * kColumns; };
  auto damaged = [&](uint64_t r) {
    return std::runtime_error(where + ": form " + std::to_string(r) + " of the chunk does not add up (damaged)");
  };
  std::vector<uint32_t> batch, text;
  uint64_t ostart = 0, tstart = 0;
  for (uint64_t r0 = 0; r0 < rows;) {
    uint64_t r1 = r0 + 1;  // the batch: rows [r0, r1)
    while (r1 < rows && r1 - r0 < max_forms && text_end(row(r1)) >= tstart && text_end(row(r1)) - tstart <= max_text)
      ++r1;
    const uint64_t oend = options_end(row(r1 - 1)), tend = text_end(row(r1 - 1));
    if (oend < ostart || oend > opts.size() || tend < tstart || tend > text_records) throw damaged(r1 - 1);
    // its rows, their ends counted from the batch's first option and character
    batch.assign(row(r0), row(r1));
    for (uint64_t r = r0; r < r1; ++r) {
      uint32_t* w = batch.data() + (r - r0) * kColumns;
      const uint64_t o = options_end(w), t = text_end(w);
      if (o < ostart || o > oend || t < tstart || t > tend) throw damaged(r);
      set_ends(w, o - ostart, t - tstart);
    }
    text.resize(tend - tstart);
    if (!text.empty()) source.read_records(layout.text(k), tstart, text.size(), text.data());
    std::vector<StoredForm> forms =
        decode_forms(batch, std::span<const uint32_t>(opts).subspan(ostart, oend - ostart), &text, where, std::nullopt, r0);
    each(r0, forms);
    ostart = oend;
    tstart = tend;
    r0 = r1;
  }
  if (ostart != opts.size() || tstart != text_records)
    throw std::runtime_error(where + ": its options or text hold more than its forms (damaged)");
}

}  // namespace toadbase::toads_frogs_cgt
