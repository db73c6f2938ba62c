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

#include "solver/core/cgt.hpp"

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

const Thermograph& FormTable::thermograph(FormId g) {
  if (const Thermograph* known = rec(g).thermo.load(std::memory_order_acquire)) return *known;
  auto th = std::make_unique<Thermograph>();
  if (is_number_up_star(g)) {
    // a number: a mast from t = 0, temperature -1/2^k (CGSuite's convention: an integer's
    // is -1); a number plus an infinitesimal: the same mast, temperature 0
    const Dyadic x = left_stop(g);
    th->left_wall = th->right_wall = Trajectory::constant(x);
    th->mean = x;
    th->temperature = !is_number(g)   ? Dyadic(0)
                      : x.is_integer() ? Dyadic(-1)
                                       : -Dyadic::fraction(1, x.exponent());
  } else {
    std::vector<const Trajectory*> walls;
    for (FormId x : left(g)) walls.push_back(&thermograph(x).right_wall);
    const Trajectory a = envelope(walls, true, -1);
    walls.clear();
    for (FormId x : right(g)) walls.push_back(&thermograph(x).left_wall);
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
    th->left_wall = truncate(a, *tau, mast);
    th->right_wall = truncate(b, *tau, mast);
    th->mean = mast;
    th->temperature = *tau;
  }
  const Thermograph* expected = nullptr;
  const Thermograph* fresh = th.get();
  if (rec_mut(g).thermo.compare_exchange_strong(expected, fresh, std::memory_order_acq_rel)) {
    th.release();
    return *fresh;
  }
  return *expected;  // another thread got there first: the same thermograph
}

}  // namespace toadbase::cgt
