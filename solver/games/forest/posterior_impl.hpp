// each_forest: the templates behind posterior.hpp.
#pragma once

#include <cmath>
#include <stdexcept>

namespace toadbase::forest {

/// Calls f(forest with its clues, probability of its contents and portal) for every drawing
/// of a side-3 forest (the start not drawn yet; forests without a start included).
template <class F>
void each_configuration(int side, F&& f) {
  if (side > 3) throw std::invalid_argument("exact enumeration covers side 3 only");
  const int n = side * side;
  int pow3 = 1;
  for (int i = 0; i < n - 1; ++i) pow3 *= 3;
  Forest fo;
  fo.side = side;
  for (int portal = 0; portal < n; ++portal)
    for (int code = 0; code < pow3; ++code) {
      fo.content.assign(n, kEmpty);
      double p = 1.0 / n;
      int c = code;
      for (int t = 0; t < n; ++t) {
        if (t == portal) continue;  // the portal replaces whatever was drawn there
        fo.content[t] = static_cast<uint8_t>(c % 3);
        c /= 3;
        p *= fo.content[t] == kEmpty ? 18.0 / 20 : 1.0 / 20;
      }
      fo.portal = portal;
      place_clues(fo);
      f(fo, p);
    }
}

template <class F>
void each_forest(int side, F&& f) {
  const double p_no = no_start_probability(side);
  each_configuration(side, [&](Forest& fo, double p) {
    const auto e = fo.eligible_starts();
    for (int s : e) {
      fo.start = s;
      f(static_cast<const Forest&>(fo), p / static_cast<double>(e.size()) / (1 - p_no));
    }
  });
}

}  // namespace toadbase::forest
