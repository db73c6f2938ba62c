// The table of canonical forms: dyadic numbers, interning, canonicalization (make),
// comparison, negation, sums, atomic weights and deterministic renumbering.
#include "solver/cgt/cgt.hpp"

#include "solver/core/work_budget.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cassert>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <new>
#include <type_traits>

namespace toadbase::cgt {

// ---- dyadic rationals -----------------------------------------------------------------

namespace {

__extension__ typedef __int128 i128;  // GCC's 128-bit integer, for exact intermediates

constexpr int kMaxExponent = 60;
constexpr int64_t kMaxNumerator = int64_t{1} << 57;

[[noreturn]] void overflow() {
  throw std::overflow_error("dyadic rational out of range (numerator 2^57, denominator 2^60)");
}

}  // namespace

Dyadic Dyadic::fraction(int64_t num, int exp) {
  if (exp < 0) {
    if (-exp > 62) overflow();
    const i128 n = static_cast<i128>(num) << -exp;
    if (n >= kMaxNumerator || n <= -kMaxNumerator) overflow();
    return from_parts(static_cast<int64_t>(n), 0);
  }
  if (num == 0) return {};
  const int tz = std::min(std::countr_zero(static_cast<uint64_t>(num)), exp);
  num >>= tz;  // arithmetic shift of a multiple of 2^tz: exact
  exp -= tz;
  if (exp > kMaxExponent || num >= kMaxNumerator || num <= -kMaxNumerator) overflow();
  return from_parts(num, exp);
}

Dyadic Dyadic::operator+(Dyadic o) const {
  // one denominator, the common case (integers above all): the sum in 64 bits when it fits,
  // reduced (and refused past the bounds) as fraction() does
  if (int64_t n; exp_ == o.exp_ && !__builtin_add_overflow(num_, o.num_, &n)) return fraction(n, exp_);
  const int e = std::max(exp_, o.exp_);
  const i128 a = static_cast<i128>(num_) << (e - exp_);
  const i128 b = static_cast<i128>(o.num_) << (e - o.exp_);
  const i128 s = a + b;
  if (s >= (static_cast<i128>(1) << 100) || s <= -(static_cast<i128>(1) << 100)) overflow();
  // reduce in 128 bits, then narrow
  i128 n = s;
  int exp = e;
  while (exp > 0 && (n & 1) == 0) {
    n /= 2;
    --exp;
  }
  if (n >= kMaxNumerator || n <= -kMaxNumerator) overflow();
  return from_parts(static_cast<int64_t>(n), exp);
}

Dyadic Dyadic::operator*(int64_t k) const {
  const i128 p = static_cast<i128>(num_) * k;
  if (p >= kMaxNumerator || p <= -kMaxNumerator) overflow();
  return fraction(static_cast<int64_t>(p), exp_);
}

Dyadic Dyadic::floor() const {
  if (exp_ == 0) return *this;
  return Dyadic(num_ >> exp_);  // arithmetic shift rounds toward -inf
}

Dyadic Dyadic::ceil() const {
  if (exp_ == 0) return *this;
  return Dyadic((num_ >> exp_) + 1);
}

std::strong_ordering operator<=>(Dyadic a, Dyadic b) {
  if (a.exp_ == b.exp_) return a.num_ <=> b.num_;
  const int e = std::max(a.exp_, b.exp_);
  const i128 x = static_cast<i128>(a.num_) << (e - a.exp_);
  const i128 y = static_cast<i128>(b.num_) << (e - b.exp_);
  return x < y ? std::strong_ordering::less
               : (x > y ? std::strong_ordering::greater : std::strong_ordering::equal);
}

std::string Dyadic::to_string() const {
  if (exp_ == 0) return std::to_string(num_);
  return std::to_string(num_) + "/" + std::to_string(int64_t{1} << exp_);
}

Dyadic simplest_between(std::optional<Dyadic> a, std::optional<Dyadic> b) {
  if (a && b && !(*a < *b)) throw std::invalid_argument("simplest_between: a >= b");
  if ((!a || *a < Dyadic(0)) && (!b || Dyadic(0) < *b)) return Dyadic(0);
  if (b && *b <= Dyadic(0)) {
    // both at most 0: the mirror image of the positive case
    std::optional<Dyadic> na, nb;
    if (b) na = -*b;
    if (a) nb = -*a;
    return -simplest_between(na, nb);
  }
  // 0 <= a < b (b may be +inf): the least integer above a if it is below b, else the
  // dyadic with the smallest denominator strictly between them, found on integers at the
  // common scale 2^e (a = big_a / 2^e, b = big_b / 2^e)
  const Dyadic n = a->floor() + Dyadic(1);
  if (!b || n < *b) return n;
  // (the midpoint has denominator 2^e at most, with e one past the larger exponent)
  const int e = std::max(a->exponent(), b->exponent()) + 1;
  const i128 big_a = static_cast<i128>(a->numerator()) << (e - a->exponent());
  const i128 big_b = static_cast<i128>(b->numerator()) << (e - b->exponent());
  for (int k = 1; k <= e; ++k) {
    const i128 step = static_cast<i128>(1) << (e - k);
    const i128 c = (big_a / step + 1) * step;  // the least multiple of 2^-k above a
    if (c < big_b) return Dyadic::fraction(static_cast<int64_t>(c >> (e - k)), k);
  }
  throw std::logic_error("simplest_between: nothing between");
}

char outcome_name(OutcomeClass c) {
  switch (c) {
    case OutcomeClass::L: return 'L';
    case OutcomeClass::R: return 'R';
    case OutcomeClass::N: return 'N';
    default: return 'P';
  }
}

std::string_view kind_name(Kind k) {
  switch (k) {
    case Kind::Number: return "number";
    case Kind::Nimber: return "nimber";
    case Kind::Infinitesimal: return "infinitesimal";
    case Kind::NumberPlusInfinitesimal: return "number plus infinitesimal";
    default: return "hot";
  }
}

// ---- small option lists ---------------------------------------------------------------

namespace {

/// A list of ids that lives on the stack up to 16 entries (most option lists).
class IdVec {
 public:
  IdVec() = default;
  explicit IdVec(std::span<const FormId> s) { assign(s); }
  IdVec(const IdVec& o) { assign(o.span()); }
  IdVec& operator=(const IdVec& o) {
    if (this != &o) assign(o.span());
    return *this;
  }
  ~IdVec() {
    if (data_ != inline_) delete[] data_;
  }
  void assign(std::span<const FormId> s) {
    size_ = 0;
    reserve(s.size());
    std::copy(s.begin(), s.end(), data_);
    size_ = s.size();
  }
  void push_back(FormId x) {
    if (size_ == cap_) reserve(cap_ * 2);
    data_[size_++] = x;
  }
  void reserve(size_t n) {
    if (n <= cap_) return;
    FormId* fresh = new FormId[n];
    std::copy(data_, data_ + size_, fresh);
    if (data_ != inline_) delete[] data_;
    data_ = fresh;
    cap_ = n;
  }
  void resize(size_t n) {
    reserve(n);
    size_ = n;
  }
  void clear() { size_ = 0; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  FormId* begin() { return data_; }
  FormId* end() { return data_ + size_; }
  const FormId* begin() const { return data_; }
  const FormId* end() const { return data_ + size_; }
  FormId& operator[](size_t i) { return data_[i]; }
  FormId operator[](size_t i) const { return data_[i]; }
  std::span<const FormId> span() const { return {data_, size_}; }
  void sort_unique() {
    std::sort(begin(), end());
    size_ = static_cast<size_t>(std::unique(begin(), end()) - begin());
  }

 private:
  FormId inline_[16];
  FormId* data_ = inline_;
  size_t size_ = 0, cap_ = 16;
};

uint64_t mix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

uint32_t hash_options(std::span<const FormId> left, std::span<const FormId> right) {
  uint64_t h = 0x9e3779b97f4a7c15ULL ^ (left.size() << 20) ^ right.size();
  for (FormId x : left) h = (h ^ x) * 0x100000001b3ULL + 0x632be59bd9b4e019ULL;
  h = mix64(h);
  for (FormId x : right) h = (h ^ x) * 0x100000001b3ULL + 0x8cb92ba72f3d8dd7ULL;
  return static_cast<uint32_t>(mix64(h) >> 32);
}

/// compare_packed when the exponents differ: the numerators brought to one denominator in
/// 64 bits when they fit (numerators of 31 bits or fewer, exponents 32 or fewer apart), else
/// by Dyadic's comparison.
[[gnu::noinline]] int compare_packed_apart(int64_t a, int64_t b) {
  const int64_t na = a >> 6, nb = b >> 6;  // the numerators (a = n * 64 + e: an exact shift)
  const int d = static_cast<int>(a & 63) - static_cast<int>(b & 63);
  if (na == static_cast<int32_t>(na) && nb == static_cast<int32_t>(nb) && d >= -32 && d <= 32) {
    const int64_t x = d < 0 ? na * (int64_t{1} << -d) : na, y = d > 0 ? nb * (int64_t{1} << d) : nb;
    return (x > y) - (x < y);
  }
  const auto c = Dyadic::unpack(a) <=> Dyadic::unpack(b);
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

/// Compares two packed dyadics (numerator * 64 + exponent): with one exponent, the common
/// case, as the packed words (the numerators' order), inline; else compare_packed_apart.
[[gnu::always_inline]] inline int compare_packed(int64_t a, int64_t b) {
  if ((a & 63) == (b & 63)) return (a > b) - (a < b);
  return compare_packed_apart(a, b);
}

/// The side of one of number_up_star()'s shapes (FormTable::describe: every option is x +
/// j.^ + *i with one x): the value's (k, m) when the options take one, else nothing.
template <class Rec>
std::optional<std::pair<int, unsigned>> nus_shape(std::span<const FormId> left, std::span<const FormId> right,
                                                  const Rec& rec) {
  auto is = [&](FormId o, int k, unsigned m) {
    const auto& q = rec(o);
    return q.ups == k && q.nim == m;
  };
  std::optional<std::pair<int, unsigned>> v;
  if (left.size() == right.size() && std::equal(left.begin(), left.end(), right.begin())) {
    // distinct forms x + *i have distinct i, so all i < count means i = 0 .. count-1
    bool ok = true;
    for (FormId o : left) {
      const auto& q = rec(o);
      ok = ok && q.ups == 0 && q.nim < left.size();
    }
    if (ok) v = {0, unsigned(left.size())};
  } else if (left.size() == 1 && right.size() == 1) {
    const auto& a = rec(left[0]);
    const auto& b = rec(right[0]);
    if (a.ups == 0 && a.nim == 0 && b.ups >= 0 && !(b.ups == 0 && b.nim == 0))
      v = {b.ups + 1, b.nim ^ 1u};
    else if (b.ups == 0 && b.nim == 0 && a.ups <= 0 && !(a.ups == 0 && a.nim == 0))
      v = {a.ups - 1, a.nim ^ 1u};
  } else if (left.size() == 2 && right.size() == 1) {
    if (is(right[0], 0, 0) && ((is(left[0], 0, 0) && is(left[1], 0, 1)) ||
                               (is(left[1], 0, 0) && is(left[0], 0, 1))))
      v = {1, 1};
  } else if (left.size() == 1 && right.size() == 2) {
    if (is(left[0], 0, 0) && ((is(right[0], 0, 0) && is(right[1], 0, 1)) ||
                              (is(right[1], 0, 0) && is(right[0], 0, 1))))
      v = {-1, 1};
  }
  return v;
}

/// Drops the options of a side that another option of it dominates (Left keeps the greatest,
/// Right the least). Its pairs were paid for by make() before it began; each row of them is
/// counted towards a stop (Ctrl-C in Python), with nothing changed yet but caches.
void drop_dominated(FormTable& t, IdVec& side, bool is_left) {
  if (side.size() < 2) return;
  size_t kept = 0;
  for (size_t i = 0; i < side.size(); ++i) {
    core::WorkBudget::paid(side.size() / 16);
    bool dominated = false;
    for (size_t j = 0; j < side.size() && !dominated; ++j) {
      if (j == i) continue;
      dominated = is_left ? t.leq(side[i], side[j]) : t.leq(side[j], side[i]);
    }
    if (!dominated) side[kept++] = side[i];
  }
  side.resize(kept);
}

}  // namespace

// ---- the table's parts ----------------------------------------------------------------

struct FormTable::Shard {
  std::mutex mutex;
  std::vector<FormId> index;  // open addressing by hash; kNoForm = empty
  size_t count = 0;
  WordArena options{size_t{1} << 14};  // the forms' options
};

uint32_t* FormTable::WordArena::allocate(size_t n) {
  if (n == 0) return nullptr;
  if (n > free_left) {
    const size_t block = std::max(n, block_words);
    blocks.emplace_back(new uint32_t[block]);
    free = blocks.back().get();
    free_left = block;
    bytes += block * sizeof(uint32_t);
  }
  uint32_t* p = free;
  free += n;
  free_left -= n;
  return p;
}

namespace detail {

/// A cache's entries, all bytes zero, from calloc: the pages of a large one are mapped on first
/// touch, so a table that meets a few forms does not pay for writing its caches' full size (48
/// MiB by default: most of what a small solve, a query or a test spent).
template <class T>
class ZeroedArray {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

 public:
  explicit ZeroedArray(size_t n) : p_(static_cast<T*>(std::calloc(n, sizeof(T)))), n_(n) {
    if (!p_) throw std::bad_alloc();
  }
  ~ZeroedArray() { std::free(p_); }
  ZeroedArray(const ZeroedArray&) = delete;
  ZeroedArray& operator=(const ZeroedArray&) = delete;
  T& operator[](size_t i) const { return p_[i]; }
  size_t size() const { return n_; }

 private:
  T* p_;
  size_t n_;
};

}  // namespace detail

/// <= answers: one word an entry, (g + 1) << 32 | h << 1 | answer (0: empty, no key is 0); a
/// clash overwrites. Read and written by any thread without a lock (a word is all or nothing).
class FormTable::LeqCache {
 public:
  explicit LeqCache(size_t entries) : slots_(entries), mask_(entries - 1) {}
  static uint64_t key(FormId g, FormId h) {
    return (uint64_t{g} + 1) << 32 | uint64_t{h} << 1;
  }
  size_t slot(uint64_t k) const { return mix64(k) & mask_; }
  int get(uint64_t k) const {
    const uint64_t v = std::atomic_ref<uint64_t>(slots_[slot(k)]).load(std::memory_order_relaxed);
    return (v & ~uint64_t{1}) == k ? int(v & 1) : -1;
  }
  void put(uint64_t k, bool answer) {
    std::atomic_ref<uint64_t>(slots_[slot(k)]).store(k | uint64_t{answer}, std::memory_order_relaxed);
  }
  size_t bytes() const { return (mask_ + 1) * sizeof(uint64_t); }

 private:
  detail::ZeroedArray<uint64_t> slots_;
  size_t mask_;
};

/// Results of sums, Norton products and naive atomic weights: a lossy table in stripes,
/// each stripe under its own mutex (a hit returns the stored id, a clash overwrites). An
/// entry of zeros is empty: no key is 0 (every op is 1 or more).
class FormTable::OpCache {
 public:
  enum Op : uint64_t { kSum = 1, kAtomicWeight = 2, kNorton = 3 };
  explicit OpCache(size_t entries) : entries_(entries), mask_(entries - 1) {}
  static uint64_t key(Op op, FormId g, FormId h) {
    return uint64_t{op} << 62 | uint64_t{g} << 31 | h;
  }
  FormId get(uint64_t k) {
    const size_t i = mix64(k) & mask_;
    std::lock_guard lock(stripes_[i & (kStripes - 1)].m);
    return entries_[i].key == k ? entries_[i].value : kNoForm;
  }
  void put(uint64_t k, FormId v) {
    const size_t i = mix64(k) & mask_;
    std::lock_guard lock(stripes_[i & (kStripes - 1)].m);
    entries_[i] = {k, v};
  }
  size_t bytes() const { return entries_.size() * sizeof(Entry); }
  size_t entries() const { return entries_.size(); }

 private:
  struct Entry {
    uint64_t key;
    FormId value;
  };
  static constexpr size_t kStripes = 256;
  struct alignas(64) Stripe {
    std::mutex m;
  };
  detail::ZeroedArray<Entry> entries_;
  size_t mask_;
  Stripe stripes_[kStripes];
};

/// A game under construction, { l | r }, compared with interned forms without interning it.
struct FormTable::Pending {
  std::span<const FormId> l, r;
};

namespace {
std::atomic<uint64_t> table_serials{0};
}  // namespace

FormTable::FormTable(Options options)
    : serial_(++table_serials),
      chunks_(new std::atomic<Record*>[kMaxChunks]),
      shards_(new Shard[kShards]),
      leq_cache_(std::make_unique<LeqCache>(std::bit_ceil(std::max<size_t>(options.leq_cache_entries, 1024)))),
      op_cache_(std::make_unique<OpCache>(std::bit_ceil(std::max<size_t>(options.op_cache_entries, 1024)))),
      uptimal_(std::make_unique<UptimalMemo>()),
      nus_fast_(new std::atomic<uint64_t>[kNusFast]) {
  for (size_t i = 0; i < kMaxChunks; ++i) chunks_[i].store(nullptr, std::memory_order_relaxed);
  for (size_t i = 0; i < kNusFast; ++i) nus_fast_[i].store(0, std::memory_order_relaxed);
  const FormId z = intern({}, {});
  if (z != 0) throw std::logic_error("FormTable: 0 did not get id 0");
}

FormTable::~FormTable() {
  for (size_t c = 0; c < kMaxChunks; ++c) {
    Record* p = chunks_[c].load(std::memory_order_relaxed);
    if (!p) continue;
    delete[] p;
  }
}

size_t FormTable::memory_bytes() const {
  size_t bytes = 0;
  for (size_t c = 0; c < kMaxChunks; ++c)
    if (chunks_[c].load(std::memory_order_relaxed)) bytes += kChunk * sizeof(Record);
  for (size_t s = 0; s < kShards; ++s) {
    std::lock_guard lock(shards_[s].mutex);
    bytes += shards_[s].options.bytes + shards_[s].index.size() * sizeof(FormId);
  }
  return bytes + leq_cache_->bytes() + op_cache_->bytes() + thermograph_bytes();
}

// ---- interning ------------------------------------------------------------------------

FormId FormTable::intern(std::span<const FormId> left, std::span<const FormId> right) {
  if (left.size() > 0xffff || right.size() > 0xffff)
    throw std::length_error("FormTable: more than 65535 options for one player");
  const uint32_t h = hash_options(left, right);
  Shard& s = shards_[h >> (32 - kShardBits)];
  std::lock_guard lock(s.mutex);
  if (s.index.empty()) s.index.assign(1024, kNoForm);
  size_t mask = s.index.size() - 1;
  size_t i = (h & kHashMask) & mask;  // as the index is rebuilt: from the hash a record keeps
  for (FormId id; (id = s.index[i]) != kNoForm; i = (i + 1) & mask) {
    const Record& r = rec(id);
    if (r.hash == (h & kHashMask) && r.n_left == left.size() && r.n_right == right.size() &&
        std::equal(left.begin(), left.end(), r.options) &&
        std::equal(right.begin(), right.end(), r.options + r.n_left))
      return id;
  }
  const FormId id = next_id_.fetch_add(1, std::memory_order_acq_rel);
  const size_t c = id >> kChunkBits;
  if (c >= kMaxChunks) throw std::length_error("FormTable: more than 2^31 forms");
  if (!chunks_[c].load(std::memory_order_acquire)) {
    Record* fresh = new Record[kChunk];
    Record* expected = nullptr;
    if (!chunks_[c].compare_exchange_strong(expected, fresh, std::memory_order_acq_rel))
      delete[] fresh;
  }
  Record& r = rec_mut(id);
  // (describe and allocate may throw: the counts are written with the options, after them)
  const auto [ls, rs] = describe(r, left, right);
  // the stops in the record when they fit 32 bits each, else after the options
  const bool wide = ls != static_cast<int32_t>(ls) || rs != static_cast<int32_t>(rs);
  const size_t n = left.size() + right.size();
  FormId* opts = s.options.allocate(n + (wide ? 4 : 0));
  std::copy(left.begin(), left.end(), opts);
  std::copy(right.begin(), right.end(), opts + left.size());
  if (wide) {
    const int64_t stops[2] = {ls, rs};
    for (size_t k = 0; k < 2; ++k) {
      opts[n + 2 * k] = static_cast<uint32_t>(static_cast<uint64_t>(stops[k]));
      opts[n + 2 * k + 1] = static_cast<uint32_t>(static_cast<uint64_t>(stops[k]) >> 32);
    }
    r.flags |= kWideStopsFlag;
  } else {
    r.ls = static_cast<int32_t>(ls);
    r.rs = static_cast<int32_t>(rs);
  }
  r.options = opts;
  r.n_left = static_cast<uint16_t>(left.size());
  r.n_right = static_cast<uint16_t>(right.size());
  r.hash = h & kHashMask;
  s.index[i] = id;
  index_added(s);
  return id;
}

void FormTable::index_added(Shard& s) const {
  if (++s.count * 4 <= s.index.size() * 3) return;  // at most three quarters full
  std::vector<FormId> bigger(s.index.size() * 2, kNoForm);
  for (FormId x : s.index)
    if (x != kNoForm) index_put(bigger, x);
  s.index.swap(bigger);
}

void FormTable::index_put(std::vector<FormId>& index, FormId x) const {
  const size_t mask = index.size() - 1;
  size_t j = rec(x).hash & mask;
  while (index[j] != kNoForm) j = (j + 1) & mask;
  index[j] = x;
}

// Everything a record knows besides its options, from its (canonical) options' records.
std::pair<int64_t, int64_t> FormTable::describe(Record& r, std::span<const FormId> left,
                                                std::span<const FormId> right) const {
  unsigned birthday = 0, far = 1;
  bool all_numbers = true, all_nus = true, all_small = true;
  for (auto side : {left, right})
    for (FormId x : side) {
      const Record& o = rec(x);
      birthday = std::max<unsigned>(birthday, o.birthday + 1u);
      far = std::max<unsigned>(far, o.far_star);
      all_numbers = all_numbers && (o.flags & kNumberFlag);
      all_nus = all_nus && (o.flags & kNusFlag);
      all_small = all_small && (o.flags & kAllSmallFlag);
    }
  if (birthday > 0xffff) throw std::length_error("FormTable: birthday past 65535");
  r.birthday = static_cast<uint16_t>(birthday);
  r.flags = 0;

  if (all_numbers) {
    // the options' values are their (packed) stops
    std::optional<Dyadic> a, b;
    if (!left.empty()) {
      int64_t m = rec(left[0]).left_stop();
      for (FormId x : left)
        if (compare_packed(m, rec(x).left_stop()) < 0) m = rec(x).left_stop();
      a = Dyadic::unpack(m);
    }
    if (!right.empty()) {
      int64_t m = rec(right[0]).left_stop();
      for (FormId x : right)
        if (compare_packed(rec(x).left_stop(), m) < 0) m = rec(x).left_stop();
      b = Dyadic::unpack(m);
    }
    if (!a || !b || *a < *b) {
      const Dyadic x = simplest_between(a, b);
      r.flags = kNumberFlag | kNusFlag | (x == Dyadic(0) ? kAllSmallFlag : 0);
      r.ups = 0;
      r.nim = 0;
      r.far_star = 1;
      return {x.packed(), x.packed()};
    }
  }

  // A number-up-star x + k.^ + *m has options x + j.^ + *i with the same x, in one of the
  // shapes of number_up_star() (CGSuite's construction; checked against sums in the tests):
  //   { x, x*, .., x*(m-1) | the same }                       k = 0
  //   { x | x + (k-1).^ + *(m^1) }                             k >= 1, not (k, m) = (1, 1)
  //   { x, x* | x }                                            k = 1, m = 1
  // and their negatives. A canonical form of one of these shapes is that value.
  if (all_nus && !left.empty() && !right.empty()) {
    const int64_t x = rec(left[0]).left_stop();
    bool same = true;
    for (auto side : {left, right})
      for (FormId o : side) same = same && rec(o).left_stop() == x;
    if (same) {
      const std::optional<std::pair<int, unsigned>> v =
          nus_shape(left, right, [&](FormId o) -> const Record& { return rec(o); });
      if (v) {
        if (v->first > 32767 || v->first < -32767 || v->second > 0xffff)
          throw std::length_error("FormTable: up multiple or nimber out of range");
        r.flags = kNusFlag | (x == 0 ? kAllSmallFlag : 0);
        r.ups = static_cast<int16_t>(v->first);
        r.nim = static_cast<uint16_t>(v->second);
        r.far_star = (x == 0 && r.ups == 0) ? static_cast<uint16_t>(std::min(r.nim + 1u, 0xffffu))
                                            : static_cast<uint16_t>(far);
        return {x, x};
      }
    }
  }

  if (left.empty() || right.empty())
    throw std::logic_error("FormTable: a canonical non-number with an empty side");
  int64_t ls = rec(left[0]).right_stop(), rs = rec(right[0]).left_stop();
  for (FormId o : left)
    if (compare_packed(ls, rec(o).right_stop()) < 0) ls = rec(o).right_stop();
  for (FormId o : right)
    if (compare_packed(rec(o).left_stop(), rs) < 0) rs = rec(o).left_stop();
  r.far_star = static_cast<uint16_t>(far);
  if (all_small) r.flags |= kAllSmallFlag;
  return {ls, rs};
}

// ---- numbers and number-up-stars ------------------------------------------------------

FormId FormTable::number(Dyadic x) {
  return number_up_star({x, 0, 0});
}

namespace {

/// A 32-bit key for a small number-up-star (packed number in 22 bits, ups in [-31, 31],
/// nimber below 16), never 0 (an empty slot holds 0: ups + 32 is never 0); nullopt for a
/// larger one.
std::optional<uint32_t> small_nus_key(const NumberUpStar& v) {
  const int64_t p = v.number.packed();
  if (p < -(int64_t{1} << 21) || p >= (int64_t{1} << 21) || v.ups < -31 || v.ups > 31 || v.nim > 15)
    return std::nullopt;
  return uint32_t(p & 0x3fffff) | uint32_t(v.ups + 32) << 22 | v.nim << 28;
}

}  // namespace

FormId FormTable::number_up_star(const NumberUpStar& v) {
  if (v.number == Dyadic(0) && v.ups == 0 && v.nim == 0) return zero();
  if (v.ups > 32767 || v.ups < -32767 || v.nim > 0xffff)
    throw std::length_error("FormTable: up multiple or nimber out of range");
  const std::optional<uint32_t> small = small_nus_key(v);
  std::atomic<uint64_t>* slot = small ? &nus_fast_[mix64(*small) & (kNusFast - 1)] : nullptr;
  if (slot) {
    const uint64_t w = slot->load(std::memory_order_acquire);
    if (w >> 32 == *small) return FormId(w);
  }
  const int64_t key = static_cast<int64_t>(mix64(static_cast<uint64_t>(v.number.packed())) ^
                                           (uint64_t(uint16_t(v.ups)) << 16 | v.nim));
  // (a hash clash is resolved by checking the record below)
  if (!slot) {
    std::lock_guard lock(nus_mutex_);
    auto it = nus_ids_.find(key);
    if (it != nus_ids_.end()) {
      const auto got = number_up_star_value(it->second);
      if (got && *got == v) return it->second;
    }
  }
  // made from its options: a step, and one for 16 options (*n has n on each side)
  core::WorkBudget::spend(1 + uint64_t{v.nim} / 8);
  FormId id;
  if (v.ups == 0 && v.nim == 0) {
    const Dyadic x = v.number;
    if (x.is_integer()) {
      const int64_t n = x.numerator();
      if (n > kMaxInteger || n < -kMaxInteger)
        throw std::length_error("FormTable: the integer " + std::to_string(n) + " is out of range (at most " +
                                std::to_string(kMaxInteger) + " either way)");
      FormId prev;
      if (n <= 64 && n >= -64) {
        prev = number(x > Dyadic(0) ? x - Dyadic(1) : x + Dyadic(1));
      } else {  // a large one from 0 up, a step at a time: no recursion as deep as it is large
        core::WorkBudget::spend(static_cast<uint64_t>(n > 0 ? n : -n));
        prev = zero();
        for (int64_t k = 1; k < (n > 0 ? n : -n); ++k)
          prev = n > 0 ? intern(std::span(&prev, 1), {}) : intern({}, std::span(&prev, 1));
      }
      id = x > Dyadic(0) ? intern(std::span(&prev, 1), {}) : intern({}, std::span(&prev, 1));
    } else {
      const Dyadic step = Dyadic::fraction(1, x.exponent());
      const FormId a = number(x - step), b = number(x + step);
      id = intern(std::span(&a, 1), std::span(&b, 1));
    }
  } else {
    const FormId x = number(v.number);
    if (v.ups == 0) {
      IdVec opts;
      for (unsigned j = 0; j < v.nim; ++j) opts.push_back(number_up_star({v.number, 0, j}));
      opts.sort_unique();
      id = intern(opts.span(), opts.span());
    } else if (v.ups == 1 && v.nim == 1) {
      IdVec l;
      l.push_back(x);
      l.push_back(number_up_star({v.number, 0, 1}));
      l.sort_unique();
      id = intern(l.span(), std::span(&x, 1));
    } else if (v.ups == -1 && v.nim == 1) {
      IdVec r;
      r.push_back(x);
      r.push_back(number_up_star({v.number, 0, 1}));
      r.sort_unique();
      id = intern(std::span(&x, 1), r.span());
    } else if (v.ups > 0) {
      const FormId o = number_up_star({v.number, v.ups - 1, v.nim ^ 1u});
      id = intern(std::span(&x, 1), std::span(&o, 1));
    } else {
      const FormId o = number_up_star({v.number, v.ups + 1, v.nim ^ 1u});
      id = intern(std::span(&o, 1), std::span(&x, 1));
    }
  }
  const auto got = number_up_star_value(id);
  if (!got || !(*got == v)) throw std::logic_error("FormTable: number-up-star shape not recognised");
  if (slot) {
    slot->store(uint64_t{*small} << 32 | id, std::memory_order_release);
  } else {
    std::lock_guard lock(nus_mutex_);
    nus_ids_[key] = id;
  }
  return id;
}

FormId FormTable::up_sum(unsigned n) {
  if (n == 0) return zero();
  FormId g = up();
  const FormId s = star();
  for (unsigned k = 2; k <= n; ++k) g = make({g}, {s});
  return g;
}

// ---- canonical forms ------------------------------------------------------------------

FormId FormTable::make(std::span<const FormId> left_in, std::span<const FormId> right_in) {
  // a step, one for 16 options (what the form may keep), and one for 16 of the pairs of a
  // side's options compared for dominance (most settled by their stops, quickly, but a
  // side of 60,000 switches is 3.6e9 of them): charged before anything is changed, so a
  // typed form too wide to make is refused before the work (and counted towards a stop row
  // by row as they are compared: drop_dominated). The pass for reversible options is charged
  // as it goes, an option at a time (it changes nothing of the table either)
  const uint64_t nl = left_in.size(), nr = right_in.size();
  core::WorkBudget::spend(1 + (nl + nr) / 16 + (nl * nl + nr * nr) / 16);
  IdVec l(left_in), r(right_in);
  l.sort_unique();
  r.sort_unique();

  // 1. only numbers: the simplest number between them, or { max | min }
  bool all_numbers = true;
  for (FormId x : l) all_numbers = all_numbers && is_number(x);
  for (FormId x : r) all_numbers = all_numbers && is_number(x);
  if (all_numbers) {
    if (l.empty() && r.empty()) return zero();
    FormId ga = kNoForm, gb = kNoForm;
    for (FormId x : l)
      if (ga == kNoForm || compare_packed(rec(ga).left_stop(), rec(x).left_stop()) < 0) ga = x;
    for (FormId x : r)
      if (gb == kNoForm || compare_packed(rec(x).left_stop(), rec(gb).left_stop()) < 0) gb = x;
    std::optional<Dyadic> a, b;
    if (ga != kNoForm) a = left_stop(ga);
    if (gb != kNoForm) b = left_stop(gb);
    if (!a || !b || *a < *b) return number(simplest_between(a, b));
    return intern(std::span(&ga, 1), std::span(&gb, 1));
  }

  // 2. nimbers on both sides with the same mex
  auto mex = [&](const IdVec& side) -> int {  // -1: not only nimbers (or a mex past 63)
    uint64_t seen = 0;
    for (FormId x : side) {
      if (!is_nimber(x)) return -1;
      const unsigned m = rec(x).nim;
      if (m < 64) seen |= uint64_t{1} << m;
    }
    return seen == ~uint64_t{0} ? -1 : std::countr_one(seen);
  };
  if (!l.empty() && !r.empty()) {
    const int ml = mex(l);
    if (ml >= 0 && ml == mex(r)) return nimber(unsigned(ml));
  }

  // 3. dominated options out, reversible options bypassed, until neither is left
  IdVec next;
  for (;;) {
    drop_dominated(*this, l, true);
    drop_dominated(*this, r, false);

    bool changed = false;
    {
      const Pending g{l.span(), r.span()};
      next.clear();
      for (FormId x : l) {
        // each of x's Right options is compared with the pending form's options (a step for
        // 16 of those pairs, as the dominance pairs above: a wide form's pass is long)
        core::WorkBudget::spend(right(x).size() * (l.size() + r.size()) / 16);
        FormId reverser = kNoForm;
        for (FormId xr : right(x))
          if (leq_to_pending(xr, g)) {
            reverser = xr;
            break;
          }
        if (reverser == kNoForm) {
          next.push_back(x);
        } else {
          for (FormId y : left(reverser)) next.push_back(y);
          changed = true;
        }
      }
    }
    if (changed) {
      next.sort_unique();
      l = next;
    }
    {
      const Pending g{l.span(), r.span()};
      next.clear();
      bool changed_r = false;
      for (FormId x : r) {
        core::WorkBudget::spend(left(x).size() * (l.size() + r.size()) / 16);
        FormId reverser = kNoForm;
        for (FormId xl : left(x))
          if (leq_from_pending(g, xl)) {
            reverser = xl;
            break;
          }
        if (reverser == kNoForm) {
          next.push_back(x);
        } else {
          for (FormId y : right(reverser)) next.push_back(y);
          changed_r = true;
        }
      }
      if (changed_r) {
        next.sort_unique();
        r = next;
        changed = true;
      }
    }
    if (!changed) break;
  }
  return intern(l.span(), r.span());
}

// Comparisons with the game under construction G (not interned, so not cached). They walk
// an option's followers as a tree, but briefly: over every Toads and Frogs board of 12 to
// 15 cells, 2.2 to 2.4 calls a make() on average, at most 29 to 49 in one.

// x <= G for the game under construction G: no GR <= x and no XL >= G.
bool FormTable::leq_to_pending(FormId x, const Pending& g) {
  for (FormId gr : g.r)
    if (leq(gr, x)) return false;
  for (FormId xl : left(x))
    if (leq_from_pending(g, xl)) return false;
  return true;
}

// G <= x: no GL >= x and no XR <= G.
bool FormTable::leq_from_pending(const Pending& g, FormId x) {
  for (FormId gl : g.l)
    if (leq(x, gl)) return false;
  for (FormId xr : right(x))
    if (leq_to_pending(xr, g)) return false;
  return true;
}

// ---- comparison -----------------------------------------------------------------------


bool FormTable::leq(FormId g, FormId h) {
  if (g == h) return true;
  const Record& a = rec(g);
  const Record& b = rec(h);
  if ((a.flags & b.flags & kNusFlag)) {
    // H - G = (y - x) + (l - k).^ + *(m ^ n) >= 0 ?
    const int c = compare_packed(a.left_stop(), b.left_stop());
    if (c != 0) return c < 0;
    const int d = b.ups - a.ups;
    const unsigned star = a.nim ^ b.nim;
    if (d >= 2) return true;
    if (d == 1) return star != 1;
    return false;  // d == 0 (then the nimbers differ: confused) or H has fewer ups
  }
  // G <= H needs LS(G) <= LS(H) and RS(G) <= RS(H); LS(G) < RS(H) gives G < H
  if (compare_packed(b.left_stop(), a.left_stop()) < 0 || compare_packed(b.right_stop(), a.right_stop()) < 0)
    return false;
  if (compare_packed(a.left_stop(), b.right_stop()) < 0) return true;
  const uint64_t k = LeqCache::key(g, h);
  const int cached = leq_cache_->get(k);
  if (cached >= 0) return cached;
  const bool answer = leq_slow(g, h);
  leq_cache_->put(k, answer);
  return answer;
}

bool FormTable::leq_slow(FormId g, FormId h) {
  core::WorkBudget::spend();
  // G <= H unless some GL >= H or some HR <= G. A number's own options never decide
  // against a non-number (number avoidance), and two numbers never get here.
  if (!is_number(g))
    for (FormId x : left(g))
      if (leq(h, x)) return false;
  if (!is_number(h))
    for (FormId x : right(h))
      if (leq(x, g)) return false;
  return true;
}

OutcomeClass FormTable::outcome(FormId g) {
  const bool le = leq(g, zero()), ge = leq(zero(), g);
  if (le && ge) return OutcomeClass::P;
  if (ge) return OutcomeClass::L;
  if (le) return OutcomeClass::R;
  return OutcomeClass::N;
}

Kind FormTable::kind(FormId g) const {
  const Record& r = rec(g);
  if (r.flags & kNumberFlag) return Kind::Number;
  if ((r.flags & kNusFlag) && r.ups == 0 && r.left_stop() == 0) return Kind::Nimber;
  if (r.left_stop() != r.right_stop()) return Kind::Hot;
  return r.left_stop() == 0 ? Kind::Infinitesimal : Kind::NumberPlusInfinitesimal;
}

// ---- negation and sums ----------------------------------------------------------------

FormId FormTable::negate(FormId g) {
  if (g == zero()) return g;
  const Record& r = rec(g);
  if (r.flags & kNusFlag)
    return number_up_star({-Dyadic::unpack(r.left_stop()), -r.ups, r.nim});
  const FormId known = r.negative.load(std::memory_order_acquire);
  if (known != kNoForm) return known;
  IdVec l, rr;
  for (FormId x : right(g)) l.push_back(negate(x));
  for (FormId x : left(g)) rr.push_back(negate(x));
  l.sort_unique();
  rr.sort_unique();
  const FormId n = intern(l.span(), rr.span());  // the negative of a canonical form is one
  rec_mut(g).negative.store(n, std::memory_order_release);
  rec_mut(n).negative.store(g, std::memory_order_release);
  return n;
}

FormId FormTable::sum(FormId g, FormId h) {
  if (g == zero()) return h;
  if (h == zero()) return g;
  const Record& a = rec(g);
  const Record& b = rec(h);
  if (a.flags & b.flags & kNusFlag) {
    return number_up_star({Dyadic::unpack(a.left_stop()) + Dyadic::unpack(b.left_stop()),
                           a.ups + b.ups, unsigned(a.nim ^ b.nim)});
  }
  if (h < g) std::swap(g, h);
  const uint64_t k = OpCache::key(OpCache::kSum, g, h);
  const FormId known = op_cache_->get(k);
  if (known != kNoForm) return known;
  core::WorkBudget::spend();
  IdVec l, r;
  // { GL + H, G + HL | GR + H, G + HR }; a number's own options are never needed
  // (number translation)
  if (!is_number(g)) {
    for (FormId x : left(g)) l.push_back(sum(x, h));
    for (FormId x : right(g)) r.push_back(sum(x, h));
  }
  if (!is_number(h)) {
    for (FormId x : left(h)) l.push_back(sum(g, x));
    for (FormId x : right(h)) r.push_back(sum(g, x));
  }
  const FormId result = make(l.span(), r.span());
  op_cache_->put(k, result);
  return result;
}

// ---- atomic weight --------------------------------------------------------------------

FormId FormTable::norton_up(FormId g) {
  if (is_integer(g)) {
    const int64_t n = left_stop(g).numerator();
    if (n > 32767 || n < -32767) throw std::length_error("norton_up: multiple out of range");
    return number_up_star({Dyadic(0), int(n), 0});
  }
  const uint64_t k = OpCache::key(OpCache::kNorton, g, 0);
  const FormId known = op_cache_->get(k);
  if (known != kNoForm) return known;
  // G.U = { GL.U + U + I | GR.U - (U + I) } over U's incentives I; for U = ^ the only
  // undominated one is ^* (the other, v, is smaller), so U + I = ^^*.
  const FormId u_plus_i = number_up_star({Dyadic(0), 2, 1});
  const FormId minus = negate(u_plus_i);
  IdVec l, r;
  for (FormId x : left(g)) l.push_back(sum(norton_up(x), u_plus_i));
  for (FormId x : right(g)) r.push_back(sum(norton_up(x), minus));
  const FormId result = make(l.span(), r.span());
  op_cache_->put(k, result);
  return result;
}

FormId FormTable::naive_atomic_weight(FormId g) {
  const Record& rg = rec(g);
  if (rg.flags & kNusFlag) return integer(rg.ups);
  const uint64_t k = OpCache::key(OpCache::kAtomicWeight, g, 0);
  const FormId known = op_cache_->get(k);
  if (known != kNoForm) return known;
  const FormId minus2 = integer(-2), plus2 = integer(2);
  IdVec l, r;
  for (FormId x : left(g)) l.push_back(sum(naive_atomic_weight(x), minus2));
  for (FormId x : right(g)) r.push_back(sum(naive_atomic_weight(x), plus2));
  const FormId g0 = make(l.span(), r.span());
  FormId result = g0;
  if (is_integer(g0)) {
    // the eccentric case: G against a far star
    const FormId fs = nimber(far_star(g));
    const bool le = leq(g, fs), ge = leq(fs, g);
    if (le && !ge) {
      // the least integer |> every aw(GL) - 2
      std::optional<Dyadic> best;
      for (FormId x : l) {
        Dyadic n = right_stop(x).ceil();
        if (leq(number(n), x)) n = n + Dyadic(1);
        if (!best || *best < n) best = n;
      }
      result = best ? number(*best) : zero();
    } else if (ge && !le) {
      // the greatest integer <| every aw(GR) + 2
      std::optional<Dyadic> best;
      for (FormId x : r) {
        Dyadic n = left_stop(x).floor();
        if (leq(x, number(n))) n = n - Dyadic(1);
        if (!best || n < *best) best = n;
      }
      result = best ? number(*best) : zero();
    }
  }
  op_cache_->put(k, result);
  return result;
}

std::optional<FormId> FormTable::atomic_weight(FormId g) {
  if (left_stop(g) != Dyadic(0) || right_stop(g) != Dyadic(0)) return std::nullopt;
  const FormId aw = naive_atomic_weight(g);
  if (is_all_small(g)) return aw;
  const FormId diff = difference(g, norton_up(aw));
  unsigned n = 2;
  while (n < far_star(g)) n <<= 1;
  IdVec l, r;
  for (unsigned j = 0; j < n; ++j) {
    l.push_back(nimber(j));
    r.push_back(nimber(j));
  }
  r.push_back(nimber(n));
  const FormId red_kite = make(l.span(), r.span());  // *n : -1 (ordinal sum)
  const FormId eps = sum(number_up_star({Dyadic(0), 1, 1}), red_kite);
  if (leq(diff, eps) && leq(negate(eps), diff)) return aw;
  return std::nullopt;
}

// ---- deterministic numbering ----------------------------------------------------------

std::unique_ptr<FormTable> FormTable::rebuild(std::span<const FormId> order) const {
  const size_t n = size();
  if (order.empty() || order[0] != zero())
    throw std::invalid_argument("FormTable::rebuild: the order must start with 0");
  std::vector<FormId> new_id(n, kNoForm);
  for (size_t k = 0; k < order.size(); ++k) {
    if (order[k] >= n || new_id[order[k]] != kNoForm)
      throw std::invalid_argument("FormTable::rebuild: bad or repeated id in the order");
    new_id[order[k]] = FormId(k);
  }
  auto t = std::make_unique<FormTable>();
  IdVec l, r;
  for (size_t k = 1; k < order.size(); ++k) {
    l.clear();
    r.clear();
    for (FormId x : left(order[k])) l.push_back(new_id[x]);
    for (FormId x : right(order[k])) r.push_back(new_id[x]);
    for (FormId x : l)
      if (x == kNoForm || x >= k) throw std::invalid_argument("FormTable::rebuild: option after its form");
    for (FormId x : r)
      if (x == kNoForm || x >= k) throw std::invalid_argument("FormTable::rebuild: option after its form");
    std::sort(l.begin(), l.end());
    std::sort(r.begin(), r.end());
    if (t->intern(l.span(), r.span()) != k) throw std::logic_error("FormTable::rebuild: ids drifted");
  }
  return t;
}

// ---- letting forms go ------------------------------------------------------------------

std::vector<FormId> FormTable::survivors(std::span<const std::span<const FormId>> roots) const {
  const size_t n = size();
  std::vector<FormId> out(n, kNoForm);  // first 0 for a form kept, then its new id
  std::vector<FormId> stack;
  auto keep = [&](FormId g) {
    if (g >= n) throw std::invalid_argument("FormTable::survivors: form " + std::to_string(g) + " not in the table");
    if (out[g] != kNoForm) return;
    out[g] = 0;
    stack.push_back(g);
  };
  auto follow = [&] {
    while (!stack.empty()) {
      const FormId g = stack.back();
      stack.pop_back();
      for (FormId x : left(g)) keep(x);
      for (FormId x : right(g)) keep(x);
    }
  };
  keep(zero());
  follow();
  for (std::span<const FormId> list : roots)
    for (FormId g : list) {
      keep(g);
      follow();
    }
  FormId next = 0;
  for (FormId& k : out)
    if (k != kNoForm) k = next++;
  return out;
}

void FormTable::compact(std::span<const FormId> new_id) {
  const size_t n = size();
  if (new_id.size() != n || new_id[0] != zero())
    throw std::invalid_argument("FormTable::compact: new_id must name every form and keep 0 at 0");
  // checked whole before anything is moved
  FormId next = 0;
  for (FormId g = 0; g < n; ++g) {
    if (new_id[g] == kNoForm) continue;
    if (new_id[g] != next++) throw std::invalid_argument("FormTable::compact: the forms kept must keep their order");
    for (auto side : {left(g), right(g)})
      for (FormId x : side)
        if (x >= n || new_id[x] == kNoForm)
          throw std::invalid_argument("FormTable::compact: form " + std::to_string(g) + " kept without its options");
  }
  std::unique_ptr<Shard[]> fresh(new Shard[kShards]);
  IdVec l, r;
  next = 0;
  for (FormId g = 0; g < n; ++g) {
    const FormId k = new_id[g];
    if (k == kNoForm) continue;
    ++next;
    // everything read before record k (k <= g) is written
    const Record& src = rec(g);
    l.clear();
    r.clear();
    for (int side = 0; side < 2; ++side)
      for (FormId x : side ? right(g) : left(g)) {
        (side ? r : l).push_back(new_id[x]);  // each side stays sorted: new ids keep the order
      }
    const bool wide = src.flags & kWideStopsFlag;
    uint32_t wide_words[4] = {};
    if (wide) std::copy_n(src.options + src.n_left + src.n_right, 4, wide_words);
    const FormId neg = src.negative.load(std::memory_order_relaxed);
    const uint32_t thermo = src.thermo.load(std::memory_order_relaxed);
    const int32_t ls = src.ls, rs = src.rs;
    const uint32_t flags = src.flags;
    const uint16_t birthday = src.birthday, far_star = src.far_star, nim = src.nim;
    const int16_t ups = src.ups;

    const uint32_t h = hash_options(l.span(), r.span());
    Shard& s = fresh[h >> (32 - kShardBits)];
    FormId* opts = s.options.allocate(l.size() + r.size() + (wide ? 4 : 0));
    std::copy(l.begin(), l.end(), opts);
    std::copy(r.begin(), r.end(), opts + l.size());
    if (wide) std::copy_n(wide_words, 4, opts + l.size() + r.size());
    Record& dst = rec_mut(k);
    dst.options = opts;
    dst.ls = ls;
    dst.rs = rs;
    dst.thermo.store(thermo, std::memory_order_relaxed);
    dst.hash = h & kHashMask;
    dst.flags = flags & 15u;
    dst.negative.store(neg != kNoForm && neg < n ? new_id[neg] : kNoForm, std::memory_order_relaxed);
    dst.n_left = static_cast<uint16_t>(l.size());
    dst.n_right = static_cast<uint16_t>(r.size());
    dst.birthday = birthday;
    dst.far_star = far_star;
    dst.ups = ups;
    dst.nim = nim;
    if (s.index.empty()) s.index.assign(1024, kNoForm);
    index_put(s.index, k);
    index_added(s);
  }
  // the records past the last kept form as a fresh chunk's (intern writes over them); the
  // chunks past it freed
  for (size_t id = next; id < std::min(n, (size_t{next} + kChunk - 1) / kChunk * kChunk); ++id)
    rec_mut(static_cast<FormId>(id)).reset();
  for (size_t c = (size_t{next} + kChunk - 1) / kChunk; c < kMaxChunks; ++c)
    delete[] chunks_[c].exchange(nullptr, std::memory_order_acq_rel);
  next_id_.store(next, std::memory_order_release);
  shards_.swap(fresh);
  fresh.reset();
  compact_thermographs();
  // every cache keyed by ids forgets them
  leq_cache_ = std::make_unique<LeqCache>(leq_cache_->bytes() / sizeof(uint64_t));
  op_cache_ = std::make_unique<OpCache>(op_cache_->entries());
  uptimal_ = std::make_unique<UptimalMemo>();
  for (size_t i = 0; i < kNusFast; ++i) nus_fast_[i].store(0, std::memory_order_relaxed);
  nus_ids_.clear();
  serial_ = ++table_serials;  // PrintMemos of this table forget its texts
}

Renumbering renumber_by_structure(const FormTable& table) {
  const size_t n = table.size();
  std::vector<std::vector<FormId>> by_birthday;
  for (FormId g = 0; g < n; ++g) {
    const unsigned b = table.birthday(g);
    if (b >= by_birthday.size()) by_birthday.resize(b + 1);
    by_birthday[b].push_back(g);
  }
  Renumbering out;
  out.new_id.assign(n, kNoForm);
  out.order.reserve(n);
  std::vector<FormId> keys;       // each form's key, one after the other:
  std::vector<size_t> key_start;  // option counts, then each side's options' new ids, sorted
  std::vector<uint32_t> rank;
  for (const std::vector<FormId>& level : by_birthday) {
    // a form's options are born earlier, so they already have their new ids
    keys.clear();
    key_start.assign(1, 0);
    for (FormId g : level) {
      const auto l = table.left(g), r = table.right(g);
      keys.push_back(FormId(l.size()));
      keys.push_back(FormId(r.size()));
      for (auto side : {l, r}) {
        const size_t from = keys.size();
        for (FormId x : side) keys.push_back(out.new_id[x]);
        std::sort(keys.begin() + std::ptrdiff_t(from), keys.end());
      }
      key_start.push_back(keys.size());
    }
    rank.resize(level.size());
    for (uint32_t i = 0; i < rank.size(); ++i) rank[i] = i;
    std::sort(rank.begin(), rank.end(), [&](uint32_t a, uint32_t b) {
      return std::lexicographical_compare(keys.begin() + std::ptrdiff_t(key_start[a]),
                                          keys.begin() + std::ptrdiff_t(key_start[a + 1]),
                                          keys.begin() + std::ptrdiff_t(key_start[b]),
                                          keys.begin() + std::ptrdiff_t(key_start[b + 1]));
    });
    for (uint32_t i : rank) {
      out.new_id[level[i]] = FormId(out.order.size());
      out.order.push_back(level[i]);
    }
  }
  return out;
}

Renumbering renumber_by_first_use(const FormTable& table, std::span<const FormId> roots) {
  // options are visited in the order of the structural numbering, which does not depend on
  // how the table was made
  const Renumbering structure = renumber_by_structure(table);
  const size_t n = table.size();
  Renumbering out;
  out.new_id.assign(n, kNoForm);
  auto assign = [&](FormId g) {
    out.new_id[g] = FormId(out.order.size());
    out.order.push_back(g);
  };
  assign(FormTable::zero());
  std::vector<FormId> opts;
  // iterative post-order walk: a frame is (form, options pushed yet)
  std::vector<std::pair<FormId, bool>> stack;
  for (FormId root : roots) {
    if (root >= n) throw std::invalid_argument("renumber_by_first_use: root not in the table");
    stack.push_back({root, false});
    while (!stack.empty()) {
      auto [g, expanded] = stack.back();
      if (out.new_id[g] != kNoForm) {
        stack.pop_back();
        continue;
      }
      if (expanded) {
        stack.pop_back();
        assign(g);
        continue;
      }
      stack.back().second = true;
      // walked Left options first, each side in structural order: so pushed Right ones
      // first, each side reversed
      for (int side = 1; side >= 0; --side) {
        auto span = side == 0 ? table.left(g) : table.right(g);
        opts.assign(span.begin(), span.end());
        std::sort(opts.begin(), opts.end(), [&](FormId a, FormId b) {
          return structure.new_id[a] < structure.new_id[b];
        });
        for (auto it = opts.rbegin(); it != opts.rend(); ++it)
          if (out.new_id[*it] == kNoForm) stack.push_back({*it, false});
      }
    }
  }
  return out;
}

}  // namespace toadbase::cgt
