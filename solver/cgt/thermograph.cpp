// Thermographs of short games, exactly (Winning Ways ch. 6; Siegel, CGT II.5).
//
// For t >= 0, a game G that is not a number has scaffolds
//     A(t) = max over GL of RW(GL)(t) - t          (Left's wall before the mast)
//     B(t) = min over GR of LW(GR)(t) + t          (Right's)
// Right walls slope 0 or +1 and left walls 0 or -1, so A never rises and B never falls;
// A(0) = LS(G) >= B(0) = RS(G). The temperature is the least t >= 0 with A(t) <= B(t), the
// mean (mast) is A there, and above it both walls are the mast:
//
//        t ^
//          |      |            the mast at the mean, from the temperature up
//     temp +------+------      A meets B
//          |     / `.
//          |    /    `.        LW = A (slope 0 or -1 in t) leans right as t rises,
//          |   |       |       RW = B (slope 0 or +1) leans left
//        0 +---+-------+---->  value, largest on the left (as CGSuite draws it)
//             LS      RS
//
// Every break point is a dyadic rational: two lines of integer slopes 0, +-1 meet where a
// difference of dyadics is halved at most. A number's walls are its value for t >= 0.
#include <algorithm>

#include "solver/cgt/cgt.hpp"
#include "solver/core/work_budget.hpp"

namespace toadbase::cgt {

namespace {

using Piece = Trajectory::Piece;

Dyadic piece_at(const Piece& p, Dyadic t) { return p.value + (t - p.t) * p.slope; }

const Piece& piece_for(const Trajectory& f, Dyadic t) {
  // the last piece starting at or before t
  auto it = std::upper_bound(f.pieces.begin(), f.pieces.end(), t,
                             [](Dyadic x, const Piece& p) { return x < p.t; });
  return *(it - 1);
}

/// d / k for k a power of two (slopes differ by 1 or 2 here).
Dyadic divide(Dyadic d, int k) {
  if (k <= 0 || (k & (k - 1)) != 0) throw std::logic_error("thermograph: slope step not 1 or 2");
  while (k > 1) {
    d = d.half();
    k >>= 1;
  }
  return d;
}

/// Merge neighbouring pieces that continue one line.
void merge(std::vector<Piece>& ps) {
  std::vector<Piece> out;
  for (const Piece& p : ps) {
    if (!out.empty() && out.back().slope == p.slope && piece_at(out.back(), p.t) == p.value)
      continue;
    out.push_back(p);
  }
  ps.swap(out);
}

/// The upper (or lower) envelope of some trajectories, then tilted: + tilt * t.
Trajectory envelope(const std::vector<const Trajectory*>& fs, bool upper, int tilt) {
  std::vector<Dyadic> ts;
  for (const Trajectory* f : fs)
    for (const Piece& p : f->pieces) ts.push_back(p.t);
  std::sort(ts.begin(), ts.end());
  ts.erase(std::unique(ts.begin(), ts.end()), ts.end());

  struct Line {
    Dyadic v;  // value at the interval's start
    int s;
  };
  std::vector<Piece> out;
  std::vector<Line> lines(fs.size());
  for (size_t i = 0; i < ts.size(); ++i) {
    const Dyadic a = ts[i];
    const bool last = i + 1 == ts.size();
    for (size_t j = 0; j < fs.size(); ++j) {
      const Piece& p = piece_for(*fs[j], a);
      lines[j] = {piece_at(p, a), p.slope};
    }
    auto value = [&](size_t j, Dyadic t) { return lines[j].v + (t - a) * lines[j].s; };
    auto better = [&](size_t j, size_t k, Dyadic t) {  // line j beats line k from t on
      const Dyadic vj = value(j, t), vk = value(k, t);
      if (vj != vk) return upper ? vk < vj : vj < vk;
      return upper ? lines[j].s > lines[k].s : lines[j].s < lines[k].s;
    };
    Dyadic cur = a;
    for (;;) {
      size_t best = 0;
      for (size_t j = 1; j < fs.size(); ++j)
        if (better(j, best, cur)) best = j;
      out.push_back({cur, value(best, cur), lines[best].s});
      std::optional<Dyadic> next;
      for (size_t j = 0; j < fs.size(); ++j) {
        const int ds = upper ? lines[j].s - lines[best].s : lines[best].s - lines[j].s;
        if (j == best || ds <= 0) continue;
        const Dyadic gap = upper ? value(best, cur) - value(j, cur) : value(j, cur) - value(best, cur);
        const Dyadic tc = cur + divide(gap, ds);
        if (cur < tc && (last || tc < ts[i + 1]) && (!next || tc < *next)) next = tc;
      }
      if (!next) break;
      cur = *next;
    }
  }
  for (Piece& p : out) {
    p.value = p.value + p.t * tilt;
    p.slope += tilt;
  }
  merge(out);
  return {out};
}

/// The wall up to temperature tau, then the mast.
Trajectory truncate(const Trajectory& f, Dyadic tau, Dyadic mast) {
  Trajectory out;
  for (const Piece& p : f.pieces)
    if (p.t < tau) out.pieces.push_back(p);
  out.pieces.push_back({tau, mast, 0});
  merge(out.pieces);
  return out;
}

}  // namespace

Dyadic Trajectory::at(Dyadic t) const { return piece_at(piece_for(*this, t), t); }

// ---- the walls as kept ------------------------------------------------------------------
//
// Only a hot form's thermograph is kept (any other's walls are its one stop from t = 0), in
// one run of 32-bit words out of the table's thermograph arena (no allocation of its own):
//
//   [0]      left pieces | right pieces << 15 | wide << 30
//   pieces   the left wall's, then the right wall's: each (t, value) as packed dyadics
//            (Dyadic::packed), one word each (an int32) when every one of them fits, else
//            two each (low word, high word)
//   slopes   two bits a piece (slope + 1), sixteen pieces a word
//
// Both walls end in the mast (slope 0): the mean is their last piece's value, and the
// temperature the later of the two last pieces' starts (the walls cross at the temperature,
// so at least one of them has its mast piece start there).

namespace {

constexpr uint32_t kPieceBits = 15, kPieceMask = (1u << kPieceBits) - 1, kWideBit = 1u << 30;

bool fits_word(int64_t packed) { return packed >= INT32_MIN && packed <= INT32_MAX; }

/// The words a kept thermograph of n pieces in all takes (see above).
size_t walls_size(size_t n, bool wide) { return 1 + n * (wide ? 4 : 2) + (n + 15) / 16; }

/// A kept thermograph's words, read in place.
class KeptWalls {
 public:
  explicit KeptWalls(const uint32_t* w) : w_(w) {}
  unsigned pieces(bool left_wall) const {
    return left_wall ? (w_[0] & kPieceMask) : (w_[0] >> kPieceBits & kPieceMask);
  }
  /// Piece i of a wall.
  Piece piece(bool left_wall, unsigned i) const {
    const unsigned k = left_wall ? i : pieces(true) + i;
    return {Dyadic::unpack(packed(k, 0)), Dyadic::unpack(packed(k, 1)), slope(k)};
  }
  Piece last(bool left_wall) const { return piece(left_wall, pieces(left_wall) - 1); }
  Trajectory wall(bool left_wall) const {
    Trajectory f;
    const unsigned n = pieces(left_wall);
    f.pieces.reserve(n);
    for (unsigned i = 0; i < n; ++i) f.pieces.push_back(piece(left_wall, i));
    return f;
  }
  /// The run's words, from its first (as encode_walls lays them out).
  std::span<const uint32_t> words() const {
    return {w_, walls_size(total(), wide())};
  }

 private:
  bool wide() const { return w_[0] & kWideBit; }
  unsigned total() const { return pieces(true) + pieces(false); }
  int64_t packed(unsigned k, unsigned which) const {
    if (!wide()) return static_cast<int32_t>(w_[1 + 2 * k + which]);
    const uint32_t* p = w_ + 1 + 4 * k + 2 * which;
    return static_cast<int64_t>(uint64_t{p[0]} | uint64_t{p[1]} << 32);
  }
  int slope(unsigned k) const {
    const uint32_t* slopes = w_ + 1 + total() * (wide() ? 4 : 2);
    return static_cast<int>(slopes[k / 16] >> (2 * (k % 16)) & 3) - 1;
  }
  const uint32_t* w_;
};

/// The words of a hot form's walls (see above).
std::vector<uint32_t> encode_walls(const Trajectory& left_wall, const Trajectory& right_wall) {
  const size_t nl = left_wall.pieces.size(), nr = right_wall.pieces.size();
  if (nl == 0 || nr == 0 || nl > kPieceMask || nr > kPieceMask)
    throw std::length_error("thermograph: a wall of no pieces or of more than 32767");
  bool wide = false;
  for (const Trajectory* f : {&left_wall, &right_wall})
    for (const Piece& p : f->pieces)
      wide = wide || !fits_word(p.t.packed()) || !fits_word(p.value.packed());
  const size_t n = nl + nr;
  std::vector<uint32_t> w;
  w.reserve(walls_size(n, wide));
  w.push_back(static_cast<uint32_t>(nl | nr << kPieceBits) | (wide ? kWideBit : 0u));
  auto put = [&](int64_t v) {
    if (wide) {
      w.push_back(static_cast<uint32_t>(static_cast<uint64_t>(v)));
      w.push_back(static_cast<uint32_t>(static_cast<uint64_t>(v) >> 32));
    } else {
      w.push_back(static_cast<uint32_t>(static_cast<int32_t>(v)));
    }
  };
  for (const Trajectory* f : {&left_wall, &right_wall})
    for (const Piece& p : f->pieces) {
      put(p.t.packed());
      put(p.value.packed());
    }
  size_t k = 0;
  for (const Trajectory* f : {&left_wall, &right_wall})
    for (const Piece& p : f->pieces) {
      if (p.slope < -1 || p.slope > 2)
        throw std::logic_error("thermograph: a wall's slope past -1..2");
      if (k % 16 == 0) w.push_back(0);
      w.back() |= static_cast<uint32_t>(p.slope + 1) << (2 * (k % 16));
      ++k;
    }
  return w;
}

}  // namespace

FormTable::ThermoArena::ThermoArena() : slots(new std::atomic<uint32_t*>[kSlots]) {
  for (size_t i = 0; i < kSlots; ++i) slots[i].store(nullptr, std::memory_order_relaxed);
}

uint32_t FormTable::ThermoArena::copy(std::span<const uint32_t> from) {
  std::lock_guard lock(mutex);
  const uint64_t n = std::max<uint64_t>(from.size(), 1);
  uint64_t place = next;
  // a run lies in one allocation: in what is left of the current block, else from the next
  // slot on, over as many slots as it needs
  if (place % kBlock == 0 || place / kBlock != (place + n - 1) / kBlock) {
    place = (place + kBlock - 1) / kBlock * kBlock;
    const uint64_t first = place / kBlock, count = (n + kBlock - 1) / kBlock;
    // the last place is 2^32 - 2: its handle, 1 + place, must fit 32 bits
    if (place + n >= (uint64_t{1} << 32)) throw std::length_error("FormTable: kept thermographs past 2^32 words");
    blocks.emplace_back(new uint32_t[count * kBlock]);
    bytes += count * kBlock * sizeof(uint32_t);
    for (uint64_t k = 0; k < count; ++k)
      slots[first + k].store(blocks.back().get() + k * kBlock, std::memory_order_release);
  }
  uint32_t* p = slots[place / kBlock].load(std::memory_order_relaxed) + place % kBlock;
  std::copy(from.begin(), from.end(), p);
  next = place + n;
  return static_cast<uint32_t>(place + 1);
}

void FormTable::compact_thermographs() {
  ThermoArena fresh;
  const size_t n = size();
  for (FormId g = 0; g < n; ++g) {
    Record& r = rec_mut(g);
    const uint32_t handle = r.thermo.load(std::memory_order_relaxed);
    if (!handle) continue;
    r.thermo.store(fresh.copy(KeptWalls(thermo_arena_.at(handle)).words()), std::memory_order_relaxed);
  }
  std::lock_guard lock(thermo_arena_.mutex);
  std::swap(thermo_arena_.slots, fresh.slots);
  std::swap(thermo_arena_.blocks, fresh.blocks);
  std::swap(thermo_arena_.next, fresh.next);
  std::swap(thermo_arena_.bytes, fresh.bytes);
}

size_t FormTable::thermograph_bytes() const {
  std::lock_guard lock(thermo_arena_.mutex);
  return thermo_arena_.bytes;
}

/// A form's wall: a hot form's as kept, any other's its stop (LS = RS) from t = 0.
Trajectory FormTable::wall(FormId g, bool left_wall) {
  const Record& r = rec(g);
  if (r.left_stop() == r.right_stop()) return Trajectory::constant(Dyadic::unpack(r.left_stop()));
  return KeptWalls(hot_walls(g)).wall(left_wall);
}

const uint32_t* FormTable::hot_walls(FormId g) {
  if (const uint32_t known = rec(g).thermo.load(std::memory_order_acquire)) return thermo_arena_.at(known);
  core::WorkBudget::spend();
  // the options' walls, as they face G
  std::vector<Trajectory> options;
  options.reserve(left(g).size() + right(g).size());
  for (FormId x : left(g)) options.push_back(wall(x, false));
  for (FormId x : right(g)) options.push_back(wall(x, true));
  std::vector<const Trajectory*> walls;
  for (size_t i = 0; i < left(g).size(); ++i) walls.push_back(&options[i]);
  const Trajectory a = envelope(walls, true, -1);
  walls.clear();
  for (size_t i = left(g).size(); i < options.size(); ++i) walls.push_back(&options[i]);
  const Trajectory b = envelope(walls, false, +1);

  std::vector<Dyadic> ts;
  for (const Piece& p : a.pieces) ts.push_back(p.t);
  for (const Piece& p : b.pieces) ts.push_back(p.t);
  std::sort(ts.begin(), ts.end());
  ts.erase(std::unique(ts.begin(), ts.end()), ts.end());
  std::optional<Dyadic> tau;
  for (size_t i = 0; i < ts.size() && !tau; ++i) {
    const Dyadic t = ts[i];
    const Dyadic d = a.at(t) - b.at(t);
    if (d <= Dyadic(0)) {
      tau = t;  // only at t = 0 (LS = RS): A - B never rises and reaches 0 at a crossing
      break;
    }
    const int closing = piece_for(b, t).slope - piece_for(a, t).slope;
    if (closing <= 0) continue;
    const Dyadic tc = t + divide(d, closing);
    if (i + 1 == ts.size() || tc <= ts[i + 1]) tau = tc;
  }
  if (!tau) throw std::logic_error("thermograph: the walls never meet");
  const Dyadic mast = a.at(*tau);
  if (mast != b.at(*tau)) throw std::logic_error("thermograph: walls meet off the mast");
  const Trajectory lw = truncate(a, *tau, mast), rw = truncate(b, *tau, mast);
  const std::vector<uint32_t> words = encode_walls(lw, rw);
  // what is read back for the mean and the temperature (see above) is what was found
  const KeptWalls kept(words.data());
  if (kept.last(true).value != mast || kept.last(false).value != mast ||
      std::max(kept.last(true).t, kept.last(false).t) != *tau)
    throw std::logic_error("thermograph: the kept walls miss the mean or the temperature found");
  const uint32_t fresh = thermo_arena_.copy(words);
  uint32_t expected = 0;
  if (rec_mut(g).thermo.compare_exchange_strong(expected, fresh, std::memory_order_acq_rel))
    return thermo_arena_.at(fresh);
  return thermo_arena_.at(expected);  // another thread got there first: the same walls (these words stay unused)
}

namespace {

/// CGSuite's temperature of a game whose stops agree: a number m / 2^k's -1 / 2^k (an
/// integer's -1), anything else's 0.
Dyadic cold_temperature(bool number, Dyadic x) {
  if (!number) return Dyadic(0);
  return x.is_integer() ? Dyadic(-1) : -Dyadic::fraction(1, x.exponent());
}

}  // namespace

Thermograph FormTable::thermograph(FormId g) {
  Thermograph th;
  const Record& r = rec(g);
  if (r.left_stop() == r.right_stop()) {
    // a number: a mast from t = 0, temperature -1/2^k (CGSuite's convention: an integer's
    // is -1); anything else with equal stops (a number plus an infinitesimal): the same
    // mast, temperature 0
    const Dyadic x = Dyadic::unpack(r.left_stop());
    th.left_wall = th.right_wall = Trajectory::constant(x);
    th.mean = x;
    th.temperature = cold_temperature(is_number(g), x);
    return th;
  }
  const KeptWalls kept(hot_walls(g));
  th.left_wall = kept.wall(true);
  th.right_wall = kept.wall(false);
  th.mean = th.left_wall.pieces.back().value;
  th.temperature = std::max(th.left_wall.pieces.back().t, th.right_wall.pieces.back().t);
  return th;
}

Dyadic FormTable::mean(FormId g) {
  const Record& r = rec(g);
  if (r.left_stop() == r.right_stop()) return Dyadic::unpack(r.left_stop());
  return KeptWalls(hot_walls(g)).last(true).value;
}

Dyadic FormTable::temperature(FormId g) {
  const Record& r = rec(g);
  if (r.left_stop() == r.right_stop())
    return cold_temperature(is_number(g), Dyadic::unpack(r.left_stop()));
  const KeptWalls kept(hot_walls(g));
  return std::max(kept.last(true).t, kept.last(false).t);
}

}  // namespace toadbase::cgt
