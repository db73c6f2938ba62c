#include "solver/games/toads_frogs_cgt/forms.hpp"

#include <zstd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <unordered_map>

namespace toadbase::toads_frogs_cgt {

using cgt::Dyadic;

// ---- columns ----------------------------------------------------------------------------

uint32_t pack_dyadic(Dyadic d) {
  const int64_t m = d.numerator();
  if (m >= (int64_t{1} << 25) || m <= -(int64_t{1} << 25))
    throw std::overflow_error("the number " + d.to_string() + " does not fit the form table's 32-bit column");
  return static_cast<uint32_t>(static_cast<int32_t>(m * 64 + d.exponent()));
}

Dyadic unpack_dyadic(uint32_t w) {
  const int32_t p = static_cast<int32_t>(w);
  return Dyadic::fraction((p - (p & 63)) / 64, p & 63);
}

void ChunkWriter::append(std::span<const StoredForm> forms) {
  FormChunk& c = chunk_;
  const size_t first = c.columns.size() / kColumns, n = forms.size();
  c.columns.resize((first + n) * kColumns, 0);
  auto col = [&](Column k, size_t row) -> uint32_t& { return c.columns[(first + row) * kColumns + k]; };
  for (size_t r = 0; r < n; ++r) {
    const StoredForm& f = forms[r];
    if (f.left.size() > 0xffff || f.right.size() > 0xffff)
      throw std::length_error("a form with more than 65535 options a side");
    c.options.insert(c.options.end(), f.left.begin(), f.left.end());
    c.options.insert(c.options.end(), f.right.begin(), f.right.end());
    if (f.text_stored) {
      put_text(f.text);
      if (f.atomic_weight) put_text(*f.atomic_weight);
    } else if (!f.text.empty() || (f.atomic_weight && !f.atomic_weight->empty()) || f.printed_length == UINT32_MAX) {
      throw std::logic_error("a long form with a text, or printed_length UINT32_MAX");
    }
    if (c.options.size() >= kMaxChunkOptions || text_size_ >= kMaxChunkText)
      throw std::length_error("a chunk of the form table of 2^34 options or 2^38 characters of text, or more");
    col(kCounts, r) = static_cast<uint32_t>(f.left.size() | f.right.size() << 16);
    col(kAtomicLength, r) = !f.text_stored   ? f.printed_length
                            : f.atomic_weight ? static_cast<uint32_t>(f.atomic_weight->size())
                                              : kNoAtomicWeight;
    col(kLeftStop, r) = pack_dyadic(f.left_stop);
    col(kRightStop, r) = pack_dyadic(f.right_stop);
    col(kMean, r) = pack_dyadic(f.mean);
    col(kTemperature, r) = pack_dyadic(f.temperature);
    col(kInfo, r) = f.birthday | static_cast<uint32_t>(f.kind) << 16 | static_cast<uint32_t>(f.outcome) << 20 |
                    (f.text_stored ? 0 : kTextNotStored | (f.atomic_weight ? kHasAtomicWeight : 0));
    col(kNegative, r) = f.negative;
    set_ends(&col(kOptionsEnd, r), c.options.size(), text_size_);  // after info: it holds their high bits
  }
}

// ---- the chunk's text, held compressed ------------------------------------------------------

struct ChunkWriter::Compressor {
  std::unique_ptr<ZSTD_CCtx, size_t (*)(ZSTD_CCtx*)> cctx{ZSTD_createCCtx(), ZSTD_freeCCtx};
  std::string out;  // a frame compressed, before it is copied out at its size (not counted as held)
};

ChunkWriter::ChunkWriter() : zstd_(std::make_unique<Compressor>()) {
  if (!zstd_->cctx) throw std::bad_alloc();
}
ChunkWriter::~ChunkWriter() = default;

uint64_t ChunkWriter::text_held_bytes() const {
  uint64_t n = open_.capacity();
  for (const std::string& f : frames_) n += f.capacity();
  return n;
}

void ChunkWriter::put_text(const std::string& s) {
  for (size_t at = 0; at < s.size();) {
    const size_t n = std::min(s.size() - at, kTextFrame - open_.size());
    open_.append(s, at, n);
    at += n;
    if (open_.size() == kTextFrame) seal();
  }
  text_size_ += s.size();
}

void ChunkWriter::seal() {
  if (open_.empty()) return;
  // level 1: the text is compressed once more as the store packs it; this is to hold it
  std::string& out = zstd_->out;
  out.resize(ZSTD_compressBound(open_.size()));  // one buffer for every frame
  const size_t z = ZSTD_compressCCtx(zstd_->cctx.get(), out.data(), out.size(), open_.data(), open_.size(), 1);
  if (ZSTD_isError(z)) throw std::runtime_error(std::string("holding a chunk's text: zstd: ") + ZSTD_getErrorName(z));
  frames_.emplace_back(out.data(), z);
  open_.clear();
}

namespace {

/// The frame a thread read last, widened from: the store asks for runs in order on each
/// thread (its blocks, then its digest's passes, one a byte plane), so a frame is
/// decompressed about once a thread and pass. Each thread keeps its last frame (a million
/// characters) and its context.
struct FrameCache {
  uint64_t commit = 0;  // which commit it belongs to
  size_t frame = 0;
  std::string chars;
  std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> dctx{ZSTD_createDCtx(), ZSTD_freeDCtx};
};
std::atomic<uint64_t> commits{0};

}  // namespace

void ChunkWriter::commit(TierStore& store, TierId columns, TierId options, TierId text) {
  store.commit(columns, chunk_.columns);
  store.commit(options, chunk_.options);
  chunk_ = {};
  seal();
  const uint64_t me = ++commits;
  store.commit_tier_from(text, text_size_, [this, me](uint64_t first, uint64_t count, void* out) {
    thread_local FrameCache cache;
    auto* w = static_cast<uint32_t*>(out);
    for (uint64_t i = 0; i < count;) {
      const uint64_t at = first + i;
      if (at >= text_size_) throw std::logic_error("a run of a chunk's text past its characters");
      const size_t f = static_cast<size_t>(at / kTextFrame);
      if (cache.commit != me || cache.frame != f) {
        if (!cache.dctx) throw std::bad_alloc();
        const size_t size = static_cast<size_t>(std::min<uint64_t>(kTextFrame, text_size_ - uint64_t{f} * kTextFrame));
        cache.commit = 0;  // not valid until filled
        cache.chars.resize(size);
        const std::string& z = frames_.at(f);
        const size_t got = ZSTD_decompressDCtx(cache.dctx.get(), cache.chars.data(), size, z.data(), z.size());
        if (ZSTD_isError(got) || got != size)
          throw std::logic_error("a chunk's text frame does not decompress to its size");
        cache.commit = me;
        cache.frame = f;
      }
      const uint64_t offset = at % kTextFrame;
      if (offset >= cache.chars.size()) throw std::logic_error("a chunk's text frame shorter than its place");
      const uint64_t run = std::min<uint64_t>(count - i, cache.chars.size() - offset);
      for (uint64_t j = 0; j < run; ++j) w[i + j] = static_cast<uint8_t>(cache.chars[offset + j]);
      i += run;
    }
  });
  std::vector<std::string>().swap(frames_);
  std::string().swap(open_);
  text_size_ = 0;
}

std::vector<StoredForm> decode_forms(std::span<const uint32_t> columns, std::span<const uint32_t> options,
                                     const std::vector<uint32_t>* text, const std::string& where,
                                     std::optional<uint64_t> text_records, uint64_t first_row) {
  if (text) text_records = text->size();
  if (columns.size() % kColumns) throw std::runtime_error(where + ": its column tier does not hold whole forms (damaged)");
  const size_t n = columns.size() / kColumns;
  auto col = [&](Column k, size_t row) { return columns[row * kColumns + k]; };
  auto chars = [&](uint64_t from, uint64_t to) {
    std::string s(static_cast<size_t>(to - from), '\0');
    for (uint64_t i = from; i < to; ++i) {
      if ((*text)[i] > 0xff) throw std::runtime_error(where + ": a character of its text is not one (damaged)");
      s[static_cast<size_t>(i - from)] = static_cast<char>((*text)[i]);
    }
    return s;
  };
  std::vector<StoredForm> out(n);
  uint64_t ostart = 0, tstart = 0;
  for (size_t r = 0; r < n; ++r) {
    StoredForm& f = out[r];
    const uint32_t* row = columns.data() + r * kColumns;
    const uint64_t oend = options_end(row), tend = text_end(row);
    const uint32_t nl = col(kCounts, r) & 0xffff, nr = col(kCounts, r) >> 16;
    const uint32_t aw = col(kAtomicLength, r), info = col(kInfo, r);
    const bool stored = !(info & kTextNotStored);
    const bool bad = oend < ostart || oend > options.size() || oend - ostart != uint64_t{nl} + nr || tend < tstart ||
                     (text_records && tend > *text_records) || (stored && aw != kNoAtomicWeight && aw > tend - tstart) ||
                     (!stored && (tend != tstart || aw == UINT32_MAX)) || (stored && (info & kHasAtomicWeight)) ||
                     (info >> 16 & 0xf) > 4;
    if (bad)
      throw std::runtime_error(where + ": form " + std::to_string(first_row + r) + " of the chunk does not add up (damaged)");
    f.left.assign(options.begin() + static_cast<ptrdiff_t>(ostart), options.begin() + static_cast<ptrdiff_t>(ostart + nl));
    f.right.assign(options.begin() + static_cast<ptrdiff_t>(ostart + nl), options.begin() + static_cast<ptrdiff_t>(oend));
    if (!stored) {
      f.text_stored = false;
      f.printed_length = aw;
      if (info & kHasAtomicWeight) f.atomic_weight = "";
    } else if (text) {
      const uint64_t split = aw == kNoAtomicWeight ? tend : tend - aw;
      f.text = chars(tstart, split);
      if (aw != kNoAtomicWeight) f.atomic_weight = chars(split, tend);
    }
    f.left_stop = unpack_dyadic(col(kLeftStop, r));
    f.right_stop = unpack_dyadic(col(kRightStop, r));
    f.mean = unpack_dyadic(col(kMean, r));
    f.temperature = unpack_dyadic(col(kTemperature, r));
    f.birthday = info & 0xffff;
    f.kind = static_cast<cgt::Kind>(info >> 16 & 0xf);
    f.outcome = static_cast<cgt::OutcomeClass>(info >> 20 & 3);
    f.negative = col(kNegative, r);
    ostart = oend;
    tstart = tend;
  }
  if (ostart != options.size() || (text_records && tstart != *text_records))
    throw std::runtime_error(where + ": its options or text hold more than its forms (damaged)");
  return out;
}

// ---- numbering --------------------------------------------------------------------------

Numbering::Numbering(cgt::FormTable& table) : t_(table) {}

void Numbering::assign_new(FormId g) {
  if (g >= id_of_.size()) id_of_.resize(std::max<size_t>(t_.size(), size_t{g} + 1), UINT32_MAX);
  id_of_[g] = static_cast<uint32_t>(internal_.size());
  internal_.push_back(g);
}

void Numbering::assign(FormId g) {
  if (prints_.count() > 0)
    if (const auto old = prints_.find(print_of(g))) {  // let go before, made again
      if (internal_.at(*old) != cgt::kNoForm) throw std::logic_error("Numbering: a form let go is in the table twice");
      if (g >= id_of_.size()) id_of_.resize(std::max<size_t>(t_.size(), size_t{g} + 1), UINT32_MAX);
      id_of_[g] = *old;
      internal_[*old] = g;
      ++made_again_;
      return;
    }
  assign_new(g);
}

void Numbering::adopt(FormId g) {
  if (id(g)) throw std::logic_error("Numbering::adopt: form numbered twice");
  assign_new(g);
}

namespace {
uint64_t mix_print(uint64_t x) {  // splitmix64's finalizer
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
}  // namespace

Numbering::Print Numbering::print_of(FormId g) const {
  const auto l = t_.left(g), r = t_.right(g);
  uint64_t a = mix_print(0x243f6a8885a308d3ULL ^ (uint64_t{l.size()} << 32 | r.size()));
  uint64_t b = mix_print(0x13198a2e03707344ULL + (uint64_t{r.size()} << 32 | l.size()));
  for (auto side : {l, r}) {
    scratch_.clear();
    for (FormId x : side) {
      const auto d = id(x);
      if (!d) throw std::logic_error("Numbering: a form's option is not numbered");
      scratch_.push_back(*d);
    }
    std::sort(scratch_.begin(), scratch_.end());
    for (uint32_t d : scratch_) {
      a = mix_print(a ^ (d + 0x9e3779b97f4a7c15ULL));
      b = mix_print(b * 0x100000001b3ULL + d + 0xa4093822299f31d0ULL);
    }
    a = mix_print(a + 0x082efa98ec4e6c89ULL);  // the sides apart
    b = mix_print(b ^ 0x452821e638d01377ULL);
  }
  return {a, static_cast<uint32_t>(b >> 32)};
}

size_t Numbering::Prints::slot_of(const std::vector<Slot>& slots, Print p) {
  const size_t mask = slots.size() - 1;
  size_t i = p.a & mask;
  while (slots[i].id != UINT32_MAX && !(slots[i].a == p.a && slots[i].b == p.b)) i = (i + 1) & mask;
  return i;
}

std::optional<uint32_t> Numbering::Prints::find(Print p) const {
  if (slots_.empty()) return std::nullopt;
  const Slot& s = slots_[slot_of(slots_, p)];
  if (s.id == UINT32_MAX) return std::nullopt;
  return s.id;
}

void Numbering::Prints::insert(Print p, uint32_t id) {
  if ((count_ + 1) * 8 > slots_.size() * 7) {  // at most seven eighths full (16 bytes a slot)
    std::vector<Slot> bigger(std::max<size_t>(1024, slots_.size() * 2), Slot{0, 0, UINT32_MAX});
    for (const Slot& s : slots_)
      if (s.id != UINT32_MAX) bigger[slot_of(bigger, {s.a, s.b})] = s;
    slots_.swap(bigger);
  }
  Slot& s = slots_[slot_of(slots_, p)];
  if (s.id != UINT32_MAX) {
    if (s.id != id) throw std::logic_error("Numbering: two forms with one print");
    return;  // let go before, made again, let go again
  }
  s = {p.a, p.b, id};
  ++count_;
}

void Numbering::let_go(std::span<const FormId> new_id) {
  // the prints first: they read the options' ids as they are
  for (uint32_t d = 0; d < internal_.size(); ++d) {
    const FormId g = internal_[d];
    if (g != cgt::kNoForm && new_id[g] == cgt::kNoForm) prints_.insert(print_of(g), d);
  }
  // the kept forms' new ids are 0, 1, ... in order: the last kept form's, plus one
  FormId kept = 0;
  for (size_t g = new_id.size(); g-- > 0;)
    if (new_id[g] != cgt::kNoForm) {
      kept = new_id[g] + 1;
      break;
    }
  std::vector<uint32_t>(kept, UINT32_MAX).swap(id_of_);  // not the largest table's capacity
  for (uint32_t d = 0; d < internal_.size(); ++d) {
    FormId& g = internal_[d];
    if (g == cgt::kNoForm) continue;
    g = new_id[g];
    if (g != cgt::kNoForm) id_of_.at(g) = d;  // (past `kept`: new_id is not survivors')
  }
}

// A total order of canonical forms that depends on their structure alone (never on ids).
int Numbering::structural_compare(FormId a, FormId b) const {
  if (a == b) return 0;
  const auto va = t_.number_up_star_value(a), vb = t_.number_up_star_value(b);
  if (va && vb) {
    if (va->number != vb->number) return va->number < vb->number ? -1 : 1;
    if (va->ups != vb->ups) return va->ups < vb->ups ? -1 : 1;
    return va->nim < vb->nim ? -1 : 1;  // distinct forms: the nimbers differ
  }
  if (va || vb) return va ? -1 : 1;
  if (t_.birthday(a) != t_.birthday(b)) return t_.birthday(a) < t_.birthday(b) ? -1 : 1;
  for (int side = 0; side < 2; ++side) {
    const auto x = side ? t_.right(a) : t_.left(a), y = side ? t_.right(b) : t_.left(b);
    if (x.size() != y.size()) return x.size() < y.size() ? -1 : 1;
  }
  auto less = [&](FormId p, FormId q) { return structural_compare(p, q) < 0; };
  for (int side = 0; side < 2; ++side) {
    const auto x = side ? t_.right(a) : t_.left(a), y = side ? t_.right(b) : t_.left(b);
    std::vector<FormId> xs(x.begin(), x.end()), ys(y.begin(), y.end());
    std::sort(xs.begin(), xs.end(), less);
    std::sort(ys.begin(), ys.end(), less);
    for (size_t i = 0; i < xs.size(); ++i)
      if (const int c = structural_compare(xs[i], ys[i])) return c;
  }
  throw std::logic_error("Numbering: two forms with the same structure");
}

uint32_t Numbering::number(FormId g) {
  if (const auto known = id(g)) return *known;
  std::vector<std::pair<FormId, bool>> stack{{g, false}};  // (form, options pushed)
  std::vector<FormId> opts;
  while (!stack.empty()) {
    const auto [x, expanded] = stack.back();
    if (id(x)) {
      stack.pop_back();
      continue;
    }
    if (expanded) {
      stack.pop_back();
      assign(x);
      // its negative right after it. Its options, the negatives of x's options, were each
      // numbered right after theirs; one let go since and made again by negate() gets its
      // id back first (no new id: the same ids as a solve that lets nothing go)
      const FormId n = t_.negate(x);
      if (!id(n)) stack.push_back({n, false});
      continue;
    }
    stack.back().second = true;
    opts.clear();
    for (FormId y : t_.left(x))
      if (!id(y)) opts.push_back(y);
    for (FormId y : t_.right(x))
      if (!id(y)) opts.push_back(y);
    std::sort(opts.begin(), opts.end());
    opts.erase(std::unique(opts.begin(), opts.end()), opts.end());
    std::sort(opts.begin(), opts.end(), [&](FormId p, FormId q) { return structural_compare(p, q) < 0; });
    for (auto it = opts.rbegin(); it != opts.rend(); ++it) stack.push_back({*it, false});
  }
  return *id(g);
}

// ---- describing a form ------------------------------------------------------------------

StoredForm describe(cgt::FormTable& t, FormId g, const Numbering& ids, uint64_t cap, cgt::PrintMemo* memo) {
  StoredForm f = describe_value(t, g, cap, memo);
  auto ids_of = [&](std::span<const FormId> side) {
    std::vector<uint32_t> v;
    for (FormId x : side) v.push_back(ids.id(x).value());
    std::sort(v.begin(), v.end());
    return v;
  };
  f.left = ids_of(t.left(g));
  f.right = ids_of(t.right(g));
  f.negative = ids.id(t.negate(g)).value();
  return f;
}

StoredForm describe_value(cgt::FormTable& t, FormId g, uint64_t cap, cgt::PrintMemo* memo) {
  StoredForm f;
  std::optional<std::string> text = t.to_string(g, cap, memo), aw_text;
  const auto aw = t.atomic_weight(g);
  if (aw) aw_text = t.to_string(*aw, cap, memo);
  if (text && (!aw || aw_text)) {
    f.text = std::move(*text);
    if (aw) f.atomic_weight = std::move(*aw_text);
  } else {  // a long form: no text kept, its length
    f.text_stored = false;
    f.printed_length = static_cast<uint32_t>(std::min<uint64_t>(text ? text->size() : t.printed_length(g), UINT32_MAX - 1));
    if (aw) f.atomic_weight = "";
  }
  f.left_stop = t.left_stop(g);
  f.right_stop = t.right_stop(g);
  f.kind = t.kind(g);
  if (f.kind == cgt::Kind::Hot) {
    f.mean = t.mean(g);
    f.temperature = t.temperature(g);
  } else if (f.kind == cgt::Kind::Number) {
    // CGSuite's convention (as FormTable::thermograph): an integer's temperature is -1,
    // m / 2^k's -1 / 2^k
    f.mean = f.left_stop;
    f.temperature = f.left_stop.is_integer() ? Dyadic(-1) : -Dyadic::fraction(1, f.left_stop.exponent());
  } else {
    f.mean = f.left_stop;  // both stops agree: a mast from temperature 0
    f.temperature = Dyadic(0);
  }
  f.birthday = t.birthday(g);
  f.outcome = t.outcome(g);
  return f;
}

void build_forms(cgt::FormTable& t, Numbering& ids, const std::vector<StoredForm>& forms, const std::string& where) {
  std::vector<FormId> l, r;
  for (size_t k = 0; k < forms.size(); ++k) {
    const StoredForm& f = forms[k];
    const uint32_t self = ids.count();
    l.clear();
    r.clear();
    for (uint32_t x : f.left) {
      if (x >= self) throw std::runtime_error(where + ": form " + std::to_string(self) + " names option " + std::to_string(x) + ", not before it (damaged)");
      l.push_back(ids.form(x));
    }
    for (uint32_t x : f.right) {
      if (x >= self) throw std::runtime_error(where + ": form " + std::to_string(self) + " names option " + std::to_string(x) + ", not before it (damaged)");
      r.push_back(ids.form(x));
    }
    if (self == 0 && (!l.empty() || !r.empty()))
      throw std::runtime_error(where + ": form 0 is not the game 0 (damaged)");
    const FormId g = self == 0 ? cgt::FormTable::zero() : t.make(l, r);
    // a canonical form is its own canonical form: the same options back
    const auto same = [&](std::span<const FormId> made, const std::vector<FormId>& stored) {
      std::vector<FormId> a(made.begin(), made.end()), b = stored;
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
      return a == b;
    };
    if (ids.id(g) || !same(t.left(g), l) || !same(t.right(g), r))
      throw std::runtime_error(where + ": form " + std::to_string(self) + " (" + f.text +
                               ") is not the canonical form of its options (damaged)");
    ids.adopt(g);
  }
}

// ---- reading single forms ---------------------------------------------------------------

FormReader::FormReader(const TierSource& source, TierLayout layout) : source_(source), layout_(layout) {
  first_.assign(layout.classes + 1, 0);
  for (uint32_t k = 0; k < layout.classes; ++k) {
    const uint64_t words = source.tier_positions(layout.forms(k));
    if (words % kColumns) throw std::runtime_error("the form table's chunk " + std::to_string(k) + " is damaged");
    first_[k + 1] = first_[k] + static_cast<uint32_t>(words / kColumns);
  }
}

FormReader::Where FormReader::where(uint32_t id) const {
  if (id >= count()) throw std::runtime_error("form " + std::to_string(id) + " is beyond the form table (damaged)");
  const uint32_t k = static_cast<uint32_t>(std::upper_bound(first_.begin(), first_.end(), id) - first_.begin()) - 1;
  return {k, id - first_[k], first_[k + 1] - first_[k]};
}

uint32_t FormReader::word(TierId t, uint64_t i) const {
  uint32_t w;
  source_.read_record(t, i, &w);
  return w;
}

uint32_t FormReader::column(const Where& w, Column c) const {
  return word(layout_.forms(w.chunk), uint64_t{w.row} * kColumns + c);
}

std::string FormReader::chars(TierId t, uint64_t from, uint64_t length) const {
  std::vector<uint32_t> words(static_cast<size_t>(length));
  source_.read_records(t, from, length, words.data());
  std::string s(static_cast<size_t>(length), '\0');
  for (uint64_t i = 0; i < length; ++i) {
    if (words[i] > 0xff) throw std::runtime_error("a character of the form table's text is not one (damaged)");
    s[static_cast<size_t>(i)] = static_cast<char>(words[i]);
  }
  return s;
}

StoredForm FormReader::stored(uint32_t id, bool with_text) const {
  const Where w = where(id);
  const Row r = row(w);
  std::vector<uint32_t> cols(r.words.begin(), r.words.end());
  const uint64_t ostart = r.options_start, tstart = r.text_start;
  const uint64_t oend = options_end(cols.data()), tend = text_end(cols.data());
  if (oend < ostart || tend < tstart || oend - ostart > 0x1ffff || tend - tstart > 2 * kMaxTextCap)
    throw std::runtime_error("form " + std::to_string(id) + " does not add up (damaged)");
  // the one form as a chunk of its own
  std::vector<uint32_t> options(oend - ostart), text(with_text ? tend - tstart : 0);
  source_.read_records(layout_.options(w.chunk), ostart, options.size(), options.data());
  if (with_text) source_.read_records(layout_.text(w.chunk), tstart, text.size(), text.data());
  set_ends(cols.data(), options.size(), tend - tstart);
  return decode_forms(cols, options, with_text ? &text : nullptr, "form " + std::to_string(id)).at(0);
}

StoredForm FormReader::read(uint32_t id) const {
  StoredForm f = stored(id, true);
  if (!f.text_stored) print(id, f);
  return f;
}

cgt::FormId FormReader::build(cgt::FormTable& t, uint32_t id) const {
  // the followers, each read once; then made in id order, options first
  std::unordered_map<uint32_t, std::pair<std::vector<uint32_t>, std::vector<uint32_t>>> opts;
  std::vector<uint32_t> todo{id};
  while (!todo.empty()) {
    const uint32_t x = todo.back();
    todo.pop_back();
    if (opts.count(x)) continue;
    StoredForm f = stored(x, false);
    for (const auto* side : {&f.left, &f.right}) {
      for (uint32_t y : *side) {
        if (y >= x)
          throw std::runtime_error("form " + std::to_string(x) + " names option " + std::to_string(y) +
                                   ", not before it (damaged)");
        if (!opts.count(y)) todo.push_back(y);
      }
    }
    opts.emplace(x, std::make_pair(std::move(f.left), std::move(f.right)));
  }
  std::vector<uint32_t> order;
  order.reserve(opts.size());
  for (const auto& [x, o] : opts) order.push_back(x);
  std::sort(order.begin(), order.end());
  std::unordered_map<uint32_t, cgt::FormId> made;
  std::vector<cgt::FormId> l, r;
  for (uint32_t x : order) {
    const auto& [left, right] = opts.at(x);
    l.clear();
    r.clear();
    for (uint32_t y : left) l.push_back(made.at(y));
    for (uint32_t y : right) r.push_back(made.at(y));
    made.emplace(x, t.make(l, r));
  }
  return made.at(id);
}

namespace {

// The tables long forms are printed in, kept between prints: a fresh FormTable touches some
// megabytes (its first chunk of records, its caches) before its first form, which cost more
// than the print itself (verify and query print every long form they meet). A table is taken
// by one print at a time; one that grew past its first chunk of records is let go, and at most
// kKeepTables are kept (no more than prints ran at once), so what stays is a few tables of a
// few megabytes each.
class PrintTables {
 public:
  std::unique_ptr<cgt::FormTable> take() {
    {
      std::lock_guard lock(mutex_);
      if (!free_.empty()) {
        auto t = std::move(free_.back());
        free_.pop_back();
        return t;
      }
    }
    return std::make_unique<cgt::FormTable>(cgt::FormTable::Options{size_t{1} << 18, size_t{1} << 16});
  }
  void give(std::unique_ptr<cgt::FormTable> t) {
    if (t->size() > kKeepForms) return;
    std::lock_guard lock(mutex_);
    if (free_.size() < kKeepTables) free_.push_back(std::move(t));
  }

 private:
  static constexpr size_t kKeepForms = size_t{1} << 16, kKeepTables = 8;
  std::mutex mutex_;
  std::vector<std::unique_ptr<cgt::FormTable>> free_;
};

PrintTables& print_tables() {
  static PrintTables tables;
  return tables;
}

}  // namespace

void FormReader::print(uint32_t id, StoredForm& f) const {
  // returned to the pool on every path but an exception's (a damaged form: the table is dropped)
  std::unique_ptr<cgt::FormTable> table = print_tables().take();
  cgt::FormTable& t = *table;
  const cgt::FormId g = build(t, id);
  f.text = t.to_string(g);
  const auto aw = t.atomic_weight(g);
  if (aw.has_value() != f.atomic_weight.has_value())
    throw std::runtime_error("form " + std::to_string(id) + ": its atomic weight is not what its row says (damaged)");
  if (aw) f.atomic_weight = t.to_string(*aw);
  print_tables().give(std::move(table));
}

FormReader::Row FormReader::row(const Where& w) const {
  std::array<uint32_t, 2 * kColumns> two{};  // the row before it (none for the first), then its own
  const uint32_t from = w.row ? w.row - 1 : 0, count = w.row ? 2 : 1;
  source_.read_records(layout_.forms(w.chunk), uint64_t{from} * kColumns, uint64_t{count} * kColumns,
                       two.data() + (w.row ? 0u : uint32_t{kColumns}));
  Row r;
  std::copy(two.begin() + kColumns, two.end(), r.words.begin());
  r.options_start = w.row ? options_end(two.data()) : 0;
  r.text_start = w.row ? text_end(two.data()) : 0;
  return r;
}

std::pair<uint64_t, uint64_t> FormReader::value_chars(uint32_t id, const Row& r) const {
  const uint64_t start = r.text_start, end = text_end(r.words.data());
  const uint32_t aw = r.words[kAtomicLength];
  const uint64_t split = aw == kNoAtomicWeight ? end : end - aw;
  if (end < start || split < start || end - start > 2 * kMaxTextCap)
    throw std::runtime_error("form " + std::to_string(id) + " does not add up (damaged)");
  return {start, split - start};
}

std::string FormReader::text(uint32_t id) const {
  const Where w = where(id);
  const Row r = row(w);
  if (r.words[kInfo] & kTextNotStored) return read(id).text;
  const auto [from, length] = value_chars(id, r);
  return chars(layout_.text(w.chunk), from, length);
}

uint64_t FormReader::printed_length(uint32_t id) const {
  const Row r = row(where(id));
  // a long form's row holds its value's printed length; its atomic weight is as long or less
  if (r.words[kInfo] & kTextNotStored) return 2 * uint64_t{r.words[kAtomicLength]};
  const uint64_t end = text_end(r.words.data());
  return end > r.text_start ? end - r.text_start : 0;
}

std::pair<uint64_t, bool> FormReader::value_length(uint32_t id) const {
  const Row r = row(where(id));
  if (r.words[kInfo] & kTextNotStored) return {r.words[kAtomicLength], false};
  const uint64_t end = text_end(r.words.data()), aw = r.words[kAtomicLength];
  const uint64_t all = end > r.text_start ? end - r.text_start : 0;
  return {aw == kNoAtomicWeight || aw > all ? all : all - aw, true};
}

uint32_t FormReader::negative(uint32_t id) const { return column(where(id), kNegative); }

void FormReader::prefetch_rows(std::span<const uint32_t> ids) const {
  std::vector<RecordRun> runs;
  for (const uint32_t id : ids) {
    if (id >= count()) continue;
    const Where w = where(id);
    const uint32_t from = w.row ? w.row - 1 : 0, rows = w.row ? 2 : 1;
    runs.push_back({layout_.forms(w.chunk), uint64_t{from} * kColumns, uint64_t{rows} * kColumns});
  }
  source_.prefetch(runs);
}

void FormReader::prefetch_texts(std::span<const uint32_t> ids) const {
  std::vector<RecordRun> runs;
  for (const uint32_t id : ids) {
    if (id >= count()) continue;
    const Where w = where(id);
    const Row r = row(w);
    if (r.words[kInfo] & kTextNotStored) continue;  // printed from its followers, not read
    const auto [from, length] = value_chars(id, r);  // what text() reads
    if (length) runs.push_back({layout_.text(w.chunk), from, length});
  }
  source_.prefetch(runs);
}

}  // namespace toadbase::toads_frogs_cgt
