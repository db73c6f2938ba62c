// Combinatorial game theory: short partizan games as interned canonical forms.
//
// A short game G = { GL, ... | GR, ... } lists what Left can move to and what Right can move
// to. Every game equals exactly one *canonical form*: no option dominated by another of the
// same player, no reversible option (Conway; Winning Ways ch. 2). Two games are equal iff
// their canonical forms are identical, so a canonical form interned once gets one integer
// id, and "G = H" is "id == id". The engine knows no game: a solver hands it a position's
// options as ids and gets back the id of the position's value.
//
//   FormTable (ids stable until compact(), which renumbers; 0 is the game 0 = { | })
//
//     id   record                                         options arena (one per shard)
//     0    { | }           birthday 0, number 0            ...
//     1    {0 | }          birthday 1, number 1            [0]
//     2    {0 | 0}         birthday 1, nimber *            [0 | 0]
//     3    {0 | 2}         birthday 2, up (0 + 1^ + *0)    [0 | 2]
//     4    {1 | 2}         birthday 2, hot, stops 1 / 0    [1 | 2]
//          \__ a record: where its options sit in the arena, how many a side (each side
//              sorted by id), birthday, both stops, number-up-star part when it has one
//              (x + k.^ + *m), a few flags; the negative and a hot form's thermograph filled on
//              demand (the thermograph in a few words of its own arena)
//
//   make(L, R): the canonical form of { L | R } (its options already canonical ids):
//     1. duplicates out; if every option is a number: the simplest number between them, or
//        { max L | min R } (a hot switch of numbers, or x* when they meet)
//     2. both sides nimbers with one mex m: *m
//     3. dominated options out (GL <= GL', GR >= GR'), then reversible options bypassed
//        (GL with some GLR <= G is replaced by GLR's Left options; mirror for Right), again
//        until nothing changes. Removing dominated options first keeps the reversibility
//        tests few; the result is the same canonical form in any order (it is unique).
//     4. interned: looked up by its options (hash), or written as a new record.
//
//   Comparisons follow the definition, G <= H iff no GL >= H and no HR <= G, with fast
//   paths: identical ids; both number-up-star (closed form); stops (LS(G) < RS(H) gives
//   G < H; LS(G) > LS(H) or RS(G) > RS(H) rules G <= H out); number avoidance (a number's
//   own options are never tried against a non-number). Results go to a lossy lock-free
//   cache (one 64-bit word an entry: both ids and the answer).
//
// Threads: every member function but compact() may be called from several threads at once (a
// solver's TBB tasks share one table). The intern table is split into 64 shards by hash, each with
// its own mutex, hash index and options arena; a record is written before its id is
// published (under the shard's mutex), and records live in fixed chunks that never move (but
// in compact(), which no other thread may overlap), so reading an existing form (options,
// stops, flags) takes no lock. The <= cache and the small
// number-up-star table are lossy arrays of atomic words; sums sit in a lossy table under
// 256 striped mutexes; a form's negative and thermograph are set once, atomically. Ids are
// handed out in creation order, so two threads give the same forms different ids from run
// to run: renumber_by_structure / renumber_by_first_use and FormTable::rebuild give a table
// whose ids do not depend on the thread count. size() also counts forms another thread is
// still writing: walk ids 0 .. size()-1 only when no thread is adding forms.
//
// Values are exact: numbers are dyadic rationals (a 64-bit numerator over a power of two),
// and thermographs (mean, temperature) are computed with them.
//
// Notation, as CGSuite prints it (to_string / parse; see notation.cpp):
//   0  3  -1/2  *  *2  ^  v  ^^  v3  ^*  vv*3  2*  1/2^  -1v3*2   numbers, nimbers, ups
//   ^<2> v<3>*   ^[4]   (up-second, ...: {0|v[n-1]*};  ^[n] = ^ + ^<2> + ... + ^<n>)
//   {2|*}  {a||b|c} (longer bars split first; a side of several options braces each)
//   +-1 for {1|-1}, +-{a,b} for {a,b|-a,-b}; Tiny(x) = {0||0|-x}, Miny(x) = {x|0||0},
//   with a number in front for a translate: 3Tiny({3|1}).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace toadbase::cgt {

/// A canonical form's id in its FormTable.
using FormId = uint32_t;
inline constexpr FormId kNoForm = UINT32_MAX;

/// A dyadic rational m / 2^e (e >= 0), always reduced (m odd or e == 0). Arithmetic is exact
/// and throws std::overflow_error beyond a 58-bit numerator or e > 60 (far past any short
/// game a board gives).
class Dyadic {
 public:
  constexpr Dyadic() = default;
  constexpr Dyadic(int64_t n) : num_(n) {}  // NOLINT: integers are dyadics
  /// num / 2^exp, reduced.
  static Dyadic fraction(int64_t num, int exp);

  int64_t numerator() const { return num_; }
  /// The denominator is 2^exponent().
  int exponent() const { return exp_; }
  bool is_integer() const { return exp_ == 0; }

  Dyadic operator+(Dyadic o) const;
  Dyadic operator-(Dyadic o) const { return *this + (-o); }
  Dyadic operator-() const { return from_parts(-num_, exp_); }
  Dyadic operator*(int64_t k) const;
  Dyadic half() const { return fraction(num_, exp_ + 1); }
  /// The greatest integer <= x, and the least integer >= x.
  Dyadic floor() const;
  Dyadic ceil() const;

  friend bool operator==(Dyadic a, Dyadic b) { return a.num_ == b.num_ && a.exp_ == b.exp_; }
  friend std::strong_ordering operator<=>(Dyadic a, Dyadic b);

  /// "0", "5", "-3/4", "25/16".
  std::string to_string() const;
  /// One 64-bit word (numerator * 64 + exponent), for compact records.
  int64_t packed() const { return num_ * 64 + exp_; }
  static Dyadic unpack(int64_t p) { return from_parts((p - (p & 63)) / 64, int(p & 63)); }

 private:
  static constexpr Dyadic from_parts(int64_t n, int e) {
    Dyadic d;
    d.num_ = n;
    d.exp_ = e;
    return d;
  }
  int64_t num_ = 0;
  int exp_ = 0;
};

/// The simplest number strictly between a and b (a < b); nullopt stands for -inf / +inf.
Dyadic simplest_between(std::optional<Dyadic> a, std::optional<Dyadic> b);

/// Who wins G + (the rest is nothing): Left whoever starts (L), Right whoever starts (R),
/// the player to move (N), the player not to move (P).
enum class OutcomeClass : uint8_t { L, R, N, P };
char outcome_name(OutcomeClass c);

/// What sort of value a game is (the first that applies):
///   number                    G is a dyadic rational
///   nimber                    G = *m, m >= 1
///   hot                       LS(G) > RS(G), equivalently temperature > 0
///   infinitesimal             LS(G) = RS(G) = 0 (up, Tiny(x), {0|^<2>}, ...)
///   number plus infinitesimal LS(G) = RS(G) = x != 0 (2*, 1/2^, 3Tiny(1), ...)
/// A non-number always has LS >= RS, and its temperature is 0 exactly when LS = RS.
enum class Kind : uint8_t { Number, Nimber, Infinitesimal, NumberPlusInfinitesimal, Hot };
std::string_view kind_name(Kind k);  // "number", "nimber", "infinitesimal", ...

/// A number-up-star value x + ups.^ + *nim.
struct NumberUpStar {
  Dyadic number;
  int ups = 0;
  unsigned nim = 0;
  friend bool operator==(const NumberUpStar&, const NumberUpStar&) = default;
};

/// One wall of a thermograph: a piecewise linear function of the temperature t >= 0. Piece
/// k holds on [t_k, t_{k+1}) (the last one on [t_k, inf)): value + slope * (u - t_k).
/// The first piece starts at t = 0.
struct Trajectory {
  struct Piece {
    Dyadic t, value;
    int slope = 0;
    friend bool operator==(const Piece&, const Piece&) = default;
  };
  std::vector<Piece> pieces;

  static Trajectory constant(Dyadic v) { return {{{Dyadic(0), v, 0}}}; }
  /// The wall's value at temperature t >= 0.
  Dyadic at(Dyadic t) const;
  friend bool operator==(const Trajectory&, const Trajectory&) = default;
};

/// A game's thermograph for t >= 0: its left and right walls (the cooled game's stops at
/// each temperature), the mast's value (the mean) and the temperature where the walls meet.
/// A number x = m/2^k has a vertical mast at x from t = 0 and, by CGSuite's convention,
/// temperature -1/2^k (an integer: -1). Every other game has temperature >= 0.
struct Thermograph {
  Trajectory left_wall, right_wall;
  Dyadic mean, temperature;
};

/// A malformed game in parse(); what() says what and where.
class ParseError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

class FormTable;

/// Texts printed before, for printing many forms that share followers (a solve describing
/// its new forms: their options were printed as forms of their own): a follower printed in
/// the same place again, (form, braces, parens), is copied rather than walked and its
/// options sorted again. One memo is one thread's, for one table at a time (a memo handed
/// another table forgets the first's); it forgets everything when it would hold more than
/// `max_chars` characters of text, and keeps no text longer than kLongest (or than
/// max_chars). The bound is of characters: the map's nodes come on top (about 70 bytes a
/// text kept).
class PrintMemo {
 public:
  explicit PrintMemo(size_t max_chars = size_t{1} << 24) : max_chars_(max_chars) {}
  static constexpr size_t kLongest = size_t{1} << 16;
  size_t chars() const { return chars_; }

 private:
  friend class FormTable;
  void forget() {
    texts_.clear();
    chars_ = 0;
  }
  uint64_t table_ = 0;  // the serial of the table its texts are of (0: none)
  std::unordered_map<uint64_t, std::pair<std::string, int>> texts_;  // key as print()'s: (text, bars)
  size_t chars_ = 0, max_chars_;
};

/// The table of canonical forms. See the drawing at the top of this file.
class FormTable {
 public:
  struct Options {
    /// Entries of the <= cache (a power of two; 8 bytes each).
    size_t leq_cache_entries = size_t{1} << 22;
    /// Entries of the sum / atomic weight cache (a power of two; 16 bytes each).
    size_t op_cache_entries = size_t{1} << 20;
  };
  FormTable() : FormTable(Options{}) {}
  explicit FormTable(Options options);
  ~FormTable();
  FormTable(const FormTable&) = delete;
  FormTable& operator=(const FormTable&) = delete;

  // ---- building values ---------------------------------------------------------------

  /// The canonical form of { left | right }, each option a canonical id of this table (in
  /// any order, repeats allowed). A position's value from its options' values.
  FormId make(std::span<const FormId> left, std::span<const FormId> right);
  FormId make(std::initializer_list<FormId> left, std::initializer_list<FormId> right) {
    return make(std::span<const FormId>(left.begin(), left.size()),
                std::span<const FormId>(right.begin(), right.size()));
  }
  static constexpr FormId zero() { return 0; }
  /// The largest integer number() makes (either sign); past it std::length_error.
  static constexpr int64_t kMaxInteger = 65535;  // its birthday: a record holds 16 bits
  FormId number(Dyadic x);
  FormId integer(int64_t n) { return number(Dyadic(n)); }
  FormId nimber(unsigned m) { return number_up_star({Dyadic(0), 0, m}); }
  FormId star() { return nimber(1); }
  FormId up() { return number_up_star({Dyadic(0), 1, 0}); }
  /// x + ups.^ + *nim, built from its known canonical form.
  FormId number_up_star(const NumberUpStar& v);
  /// ^<n> ("up-nth": ^<1> = ^, ^<n> = {0 | v[n-1]*}) and ^[n] = ^ + ^<2> + ... + ^<n>
  /// (= {^[n-1] | *}); n >= 1.
  FormId up_nth(unsigned n);
  FormId up_sum(unsigned n);

  // ---- reading a form ----------------------------------------------------------------

  /// How many forms the table holds (ids 0 .. size()-1).
  size_t size() const { return next_id_.load(std::memory_order_acquire); }
  std::span<const FormId> left(FormId g) const {
    const Record& r = rec(g);
    return {r.options, r.n_left};
  }
  std::span<const FormId> right(FormId g) const {
    const Record& r = rec(g);
    return {r.options + r.n_left, r.n_right};
  }
  unsigned birthday(FormId g) const { return rec(g).birthday; }
  bool is_number(FormId g) const { return rec(g).flags & kNumberFlag; }
  bool is_integer(FormId g) const { return (rec(g).flags & kNumberFlag) && left_stop(g).is_integer(); }
  bool is_number_up_star(FormId g) const { return rec(g).flags & kNusFlag; }
  bool is_nimber(FormId g) const {
    const Record& r = rec(g);
    return (r.flags & kNusFlag) && r.ups == 0 && r.left_stop() == 0;
  }
  /// Every follower's number is 0 (Winning Ways' "all small").
  bool is_all_small(FormId g) const { return rec(g).flags & kAllSmallFlag; }
  std::optional<Dyadic> number_value(FormId g) const {
    if (!is_number(g)) return std::nullopt;
    return left_stop(g);
  }
  std::optional<NumberUpStar> number_up_star_value(FormId g) const {
    const Record& r = rec(g);
    if (!(r.flags & kNusFlag)) return std::nullopt;
    return NumberUpStar{Dyadic::unpack(r.left_stop()), r.ups, r.nim};
  }
  /// Left's stop (Left moving first, both playing to the first number) and Right's.
  Dyadic left_stop(FormId g) const { return Dyadic::unpack(rec(g).left_stop()); }
  Dyadic right_stop(FormId g) const { return Dyadic::unpack(rec(g).right_stop()); }
  Kind kind(FormId g) const;

  // ---- comparing and adding ----------------------------------------------------------

  bool leq(FormId g, FormId h);
  bool geq(FormId g, FormId h) { return leq(h, g); }
  bool less(FormId g, FormId h) { return g != h && leq(g, h); }
  bool equal(FormId g, FormId h) const { return g == h; }
  /// G || H: neither G <= H nor H <= G.
  bool fuzzy(FormId g, FormId h) { return !leq(g, h) && !leq(h, g); }
  OutcomeClass outcome(FormId g);
  FormId negate(FormId g);
  FormId sum(FormId g, FormId h);
  FormId difference(FormId g, FormId h) { return sum(g, negate(h)); }

  // ---- derived values ----------------------------------------------------------------

  /// Computed once per form, then kept (thread-safe): a hot form's walls in a few words of
  /// the table's thermograph arena (thermograph.cpp), any other's from its stop.
  Thermograph thermograph(FormId g);
  Dyadic mean(FormId g);
  Dyadic temperature(FormId g);
  /// The atomic weight (Winning Ways ch. 8; Siegel, CGT II.7) where it exists: G is
  /// infinitesimal (both stops 0) and atomic. Its value is the naive weight
  /// aw(G) = { aw(GL) - 2 | aw(GR) + 2 } (a number-up-star's: its up multiple), with the
  /// eccentric case: when that is an integer and G < *N or G > *N (N past every nimber in G),
  /// the least integer |> every aw(GL) - 2, or the greatest <| every aw(GR) + 2. G is
  /// atomic when it is all small, or when G - aw.^ (Norton product) lies between
  /// -(^* + K) and ^* + K, K = {*0..*(N-1) | *0..*N} (N a power of two past every nimber
  /// in G): CGSuite's test. nullopt otherwise (a number other than 0, a hot game,
  /// x + infinitesimal with x != 0, or an infinitesimal that is not atomic).
  std::optional<FormId> atomic_weight(FormId g);
  /// The Norton product G.^ (G an integer n: n copies of ^).
  FormId norton_up(FormId g);
  /// The least N >= 1 past every nimber among G's followers (CGSuite's "far star").
  unsigned far_star(FormId g) const { return rec(g).far_star; }

  // ---- notation ----------------------------------------------------------------------

  /// The value in CGSuite's plain-text notation (see the top of this file).
  std::string to_string(FormId g);
  /// The same when it is at most `limit` characters long; nullopt otherwise (the printing
  /// stops once past the limit: its cost is bounded by it).
  std::optional<std::string> to_string(FormId g, uint64_t limit);
  /// The same, copying what `memo` holds of g's followers and keeping what it prints there.
  std::optional<std::string> to_string(FormId g, uint64_t limit, PrintMemo* memo);
  /// How many characters to_string(g) prints, counted without printing them: a follower
  /// met again in the same place costs a lookup, so the count costs the form's followers,
  /// not its length (a form of 10^7 characters has far fewer).
  uint64_t printed_length(FormId g);
  /// A value in that notation (also sums "a + b - c", "3+Tiny(x)", "x.Miny", "±"):
  /// its canonical form. Throws ParseError.
  FormId parse(std::string_view text);
  /// CGSuite's uptimal expansion x.d1 d2 .. dn + *m, the value
  ///     x + d1.^ + d2.^<2> + .. + dn.^<n> + *m          (dn != 0, or n = 0)
  /// Every number-up-star has one (n <= 1); nullopt for a game that is not such a sum.
  struct UptimalExpansion {
    Dyadic number;
    std::vector<int> digits;
    unsigned nim = 0;
    friend bool operator==(const UptimalExpansion&, const UptimalExpansion&) = default;
  };
  std::optional<UptimalExpansion> uptimal_expansion(FormId g);
  /// The canonical form of an expansion.
  FormId uptimal(const UptimalExpansion& e);

  /// Bytes held by records, options, caches and kept thermographs.
  size_t memory_bytes() const;
  /// Of which the kept thermographs'.
  size_t thermograph_bytes() const;

  /// The table's forms in the same layout for a renumbering: record k of the new table is
  /// form order[k] of this one. `order` must list every option before the forms that use
  /// it and start with 0 (both renumber_* functions do). Not to be called while another
  /// thread adds forms.
  std::unique_ptr<FormTable> rebuild(std::span<const FormId> order) const;

  // ---- letting forms go --------------------------------------------------------------

  /// The forms that must stay when these lists of forms must (and 0, and every follower of
  /// one): new_id[g] is g's id once compact(new_id) has run, kNoForm for a form let go. The
  /// forms kept keep their order (an option's id stays below its form's). Not to be called
  /// while another thread adds forms.
  std::vector<FormId> survivors(std::span<const std::span<const FormId>> roots) const;
  /// Lets go every form g with new_id[g] == kNoForm and gives the others their new ids, in
  /// place: records moved down, options written again (their hash changes with their ids:
  /// each shard's options and index are made anew), the chunks past the last form freed.
  /// Every cached answer (<=, sums, atomic weights, number-up-stars, uptimal expansions,
  /// PrintMemos' texts) is forgotten; a kept form's negative is kept when it is kept too, and
  /// its thermograph (the kept ones copied to a fresh arena, the others' let go). Ids
  /// held outside the table are the caller's to map through new_id. new_id must come from
  /// survivors() (or keep 0, keep order and be closed under options: checked whole before
  /// anything moves); no other thread may use the table meanwhile. Out of memory part way
  /// (std::bad_alloc) the table is not usable any more: a solve fails, and resumes from
  /// its database.
  void compact(std::span<const FormId> new_id);

 private:
  static constexpr uint8_t kNumberFlag = 1, kNusFlag = 2, kAllSmallFlag = 4;
  /// The stops did not fit 32 bits each: they are kept after the options, in the same run of
  /// the options arena, as four 32-bit words (Left's low half, high half, then Right's).
  static constexpr uint8_t kWideStopsFlag = 8;
  /// A record keeps the low 28 bits of its options' hash (the top 4 bits hold the flags); a
  /// shard's index is searched and rebuilt from those bits alone (at most 2^31 / 64 forms a
  /// shard: some 2^26 slots).
  static constexpr uint32_t kHashMask = (uint32_t{1} << 28) - 1;
  static constexpr unsigned kChunkBits = 16;
  static constexpr size_t kChunk = size_t{1} << kChunkBits;
  static constexpr size_t kMaxChunks = size_t{1} << 15;  // 2^31 forms
  static constexpr unsigned kShardBits = 6;
  static constexpr size_t kShards = size_t{1} << kShardBits;
  static constexpr size_t kNusFast = size_t{1} << 14;

  // One canonical form, in 40 bytes (a table of 20 cells holds some 42 million). Everything
  // but `negative` and `thermo` is written once, before the id is published.
  struct Record {
    const FormId* options = nullptr;  // n_left Left options, then n_right Right options
    int32_t ls = 0, rs = 0;           // the stops as packed Dyadics, unless kWideStopsFlag
    std::atomic<uint32_t> thermo{0};  // a hot form's walls as kept: 1 + where, 0 not yet
    uint32_t hash : 28 = 0;           // the options' hash & kHashMask
    uint32_t flags : 4 = 0;
    std::atomic<FormId> negative{kNoForm};
    uint16_t n_left = 0, n_right = 0;
    uint16_t birthday = 0, far_star = 1;
    int16_t ups = 0;
    uint16_t nim = 0;
    /// Left's and Right's stops, packed (a number-up-star's number).
    int64_t left_stop() const { return (flags & kWideStopsFlag) ? wide_stop(0) : ls; }
    int64_t right_stop() const { return (flags & kWideStopsFlag) ? wide_stop(1) : rs; }
    int64_t wide_stop(unsigned k) const {
      const FormId* w = options + n_left + n_right + 2 * k;
      return static_cast<int64_t>(uint64_t{w[0]} | uint64_t{w[1]} << 32);
    }
    /// Back to a fresh chunk's record (the defaults above): no form yet.
    void reset() {
      options = nullptr;
      ls = rs = 0;
      thermo.store(0, std::memory_order_relaxed);
      hash = 0;
      flags = 0;
      negative.store(kNoForm, std::memory_order_relaxed);
      n_left = n_right = 0;
      birthday = 0;
      far_star = 1;
      ups = 0;
      nim = 0;
    }
  };
  static_assert(sizeof(Record) == 40, "a form's record is 40 bytes");
  struct Shard;
  class LeqCache;
  class OpCache;
  /// Uptimal expansions found so far, and the up-nths built (notation.cpp).
  /// Forms found not to be uptimals (most of those asked about) are kept as ids alone, in
  /// an open-addressing set.
  struct UptimalMemo {
    std::mutex mutex;
    std::unordered_map<FormId, UptimalExpansion> known;
    std::vector<FormId> none;  // kNoForm: an empty slot; at most three quarters full
    size_t none_count = 0;
    std::vector<FormId> up_nth{kNoForm, kNoForm};  // [n] = ^<n>
    bool is_none(FormId g) const;
    void add_none(FormId g);
  };
  struct Pending;
  /// 32-bit words handed out from blocks of `block_words` and never given back (the
  /// caller locks): the forms' options (and stops too wide for a record).
  struct WordArena {
    explicit WordArena(size_t block) : block_words(block) {}
    size_t block_words;
    std::vector<std::unique_ptr<uint32_t[]>> blocks;
    uint32_t* free = nullptr;
    size_t free_left = 0, bytes = 0;
    uint32_t* allocate(size_t n);
  };
  /// Kept thermographs: 32-bit words in blocks that never move, found by a 32-bit handle
  /// (1 + the first word's place; 0 is none) so that a record holds 4 bytes, not a pointer.
  /// A run longer than a block takes consecutive slots of one allocation.
  struct ThermoArena {
    static constexpr unsigned kBlockBits = 18;  // 1 MiB blocks
    static constexpr size_t kBlock = size_t{1} << kBlockBits;
    static constexpr size_t kSlots = size_t{1} << (32 - kBlockBits);
    ThermoArena();
    std::mutex mutex;
    std::unique_ptr<std::atomic<uint32_t*>[]> slots;  // [place >> kBlockBits]: its block
    std::vector<std::unique_ptr<uint32_t[]>> blocks;  // mutex
    uint64_t next = 0;                                // the next free place; mutex
    size_t bytes = 0;                                 // mutex
    /// Copies the words in; their handle. Throws std::length_error past 2^32 - 1 words.
    uint32_t copy(std::span<const uint32_t> words);
    const uint32_t* at(uint32_t handle) const {
      const uint64_t place = handle - 1;
      return slots[place >> kBlockBits].load(std::memory_order_acquire) + (place & (kBlock - 1));
    }
  };

  const Record& rec(FormId g) const {
    return chunks_[g >> kChunkBits].load(std::memory_order_acquire)[g & (kChunk - 1)];
  }
  Record& rec_mut(FormId g) const {
    return chunks_[g >> kChunkBits].load(std::memory_order_acquire)[g & (kChunk - 1)];
  }

  // cgt.cpp
  FormId intern(std::span<const FormId> left, std::span<const FormId> right);
  /// Counts a form just put in shard s's index and doubles the index when it is three
  /// quarters full (the caller locks).
  void index_added(Shard& s) const;
  /// Puts form x (its record's hash written) in the first free slot of an index from its
  /// hash on (linear probing; the index has a free slot and a power-of-two size).
  void index_put(std::vector<FormId>& index, FormId x) const;
  /// Fills in r's birthday, flags, number-up-star part and far star, and returns its stops.
  std::pair<int64_t, int64_t> describe(Record& r, std::span<const FormId> left, std::span<const FormId> right) const;
  bool leq_slow(FormId g, FormId h);
  bool leq_to_pending(FormId x, const Pending& g);
  bool leq_from_pending(const Pending& g, FormId x);
  FormId naive_atomic_weight(FormId g);
  // notation.cpp
  int print_order(FormId a, FormId b);
  struct PrintOut;
  int print(PrintOut& out, FormId g, bool force_brackets, bool force_parens);
  int print_composite(PrintOut& out, FormId g, bool force_brackets, bool force_parens);
  std::optional<UptimalExpansion> expansion_of_right_first(FormId g);
  // thermograph.cpp
  const uint32_t* hot_walls(FormId g);
  Trajectory wall(FormId g, bool left_wall);
  /// The kept thermographs of the forms in the table copied to a fresh arena (compact()).
  void compact_thermographs();

  uint64_t serial_;  // this table among the tables of the process (a PrintMemo's); anew on compact()
  std::atomic<FormId> next_id_{0};
  std::unique_ptr<std::atomic<Record*>[]> chunks_;
  std::unique_ptr<Shard[]> shards_;
  std::unique_ptr<LeqCache> leq_cache_;
  std::unique_ptr<OpCache> op_cache_;
  std::unique_ptr<UptimalMemo> uptimal_;
  // number_up_star() results: small values in a lock-free table (one word an entry: a 32-bit
  // key of the value, the id), the rest in a map under a mutex
  std::unique_ptr<std::atomic<uint64_t>[]> nus_fast_;
  std::mutex nus_mutex_;
  std::unordered_map<int64_t, FormId> nus_ids_;  // number_up_star() by value hash; nus_mutex_
  mutable ThermoArena thermo_arena_;
};

/// A deterministic numbering of a table's forms: order[k] is the old id of new id k, and
/// new_id[old] the new id (kNoForm for a form left out).
struct Renumbering {
  std::vector<FormId> order;
  std::vector<FormId> new_id;
};

/// Every form, ordered by (birthday, Left option count, Right option count, Left options'
/// new ids, Right options' new ids): the same forms give the same numbering whatever order
/// (or threads) made them.
Renumbering renumber_by_structure(const FormTable& table);
/// The forms reachable from `roots`, numbered in order of first use: 0 first, then a
/// depth-first walk of each root in the given order, options (Left then Right, in stored
/// order) before the form. The same roots give the same numbering whatever made the table.
Renumbering renumber_by_first_use(const FormTable& table, std::span<const FormId> roots);

}  // namespace toadbase::cgt
