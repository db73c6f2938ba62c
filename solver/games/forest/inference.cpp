// Exact inference on a forest of any side: a transfer-matrix pass over the tiles in row-major
// order, with the start-tile factor 1/|E| turned into an integral,
//
//     1/|E| = integral over x in (0, 1) of x^(|E| - 1),
//
// so that for a fixed x every eligible tile contributes a local factor x and the weight of a
// forest is a product of local terms. The integral is a polynomial of degree < n in x, which
// Gauss-Legendre quadrature with n/2 + 1 points integrates exactly: every pass carries one
// weight per quadrature point.
//
// The pass keeps a profile of the last `side` tiles, a nibble each:
//
//     bits 0-1  class: 0 empty and still possibly eligible, 1 empty and not eligible (or the
//               portal, or a far tile), 2 monster (or "a hazard" when no later neighbour is a
//               visited tile that must tell monster from trap), 3 trap
//     bit 2     a visited tile that needs bones has seen a monster next to it
//     bit 3     the same for leaves and a trap
//
// and bit 63 says whether the portal has been placed. A tile's eligibility is settled when
// its lower neighbour is placed (a factor x), a visited tile's clues are checked when its
// last neighbour is placed. Marginals come from a forward pass (checkpointed every `side`
// tiles) and a backward pass over the same states.
//
// Window mode (for agents on large forests): tiles more than `window` steps from every
// observed tile are "far": they are left out of the pass, count as safe for their
// neighbours' eligibility with probability 0.9 each, and add their own eligibility as
// independent factors. This is an approximation of the 1/|E| coupling only: the clue
// constraints all lie within one step of an observed tile and stay exact.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <unordered_map>

#include "solver/games/forest/posterior.hpp"

namespace toadbase::forest {

namespace {

constexpr double kPEmpty = 0.9, kPHazard = 0.05;
enum Option : int { kOptEmpty = 0, kOptMonster = 1, kOptTrap = 2, kOptPortal = 3, kOptFar = 4 };
enum Cls : uint8_t { kPending = 0, kDead = 1, kHazM = 2, kHazT = 3 };
constexpr uint64_t kPortalBit = 1ull << 63;

/// Gauss-Legendre nodes and weights on (0, 1).
void gauss_legendre(int m, std::vector<double>& x, std::vector<double>& w) {
  x.assign(m, 0);
  w.assign(m, 0);
  for (int i = 0; i < m; ++i) {
    double z = std::cos(M_PI * (i + 0.75) / (m + 0.5)), dp = 0;
    for (int it = 0; it < 100; ++it) {
      double p0 = 1, p1 = 0;
      for (int j = 1; j <= m; ++j) {
        const double p2 = p1;
        p1 = p0;
        p0 = ((2.0 * j - 1) * z * p1 - (j - 1.0) * p2) / j;
      }
      dp = m * (z * p0 - p1) / (z * z - 1);
      const double dz = p0 / dp;
      z -= dz;
      if (std::abs(dz) < 1e-16) break;
    }
    x[i] = (1 - z) / 2;
    w[i] = 1 / ((1 - z * z) * dp * dp);  // 2/((1-z^2)p'^2), halved for (0, 1)
  }
}

struct TileInfo {
  uint8_t allowed = 0;           // options, bit per Option
  int8_t need_b = -1, need_l = -1;  // visited: the clues seen (0/1); -1 not visited
  bool keep_kind = false;        // a later neighbour (right, down) is visited: keep monster vs trap
  double q = 1;                  // eligibility settles with factor (1 - q) + q x (q < 1: far neighbours)
};

struct Layer {
  std::vector<uint64_t> keys;
  std::vector<double> vals;  // keys.size() x m
  std::unordered_map<uint64_t, uint32_t> index;
  uint32_t slot(uint64_t key, int m) {
    auto [it, fresh] = index.try_emplace(key, static_cast<uint32_t>(keys.size()));
    if (fresh) keys.push_back(key), vals.resize(vals.size() + m, 0.0);
    return it->second;
  }
};

class Pass {
 public:
  Pass(const Observations& o, const InferenceOptions& opt) : s_(o.side), n_(o.side * o.side) {
    build(o, opt);
  }

  Posterior run() {
    std::vector<Layer> checkpoints;
    Layer cur;
    cur.slot(0, m_)  ;
    std::fill(cur.vals.begin(), cur.vals.end(), 1.0);
    size_t held = 0;  // bytes of the checkpoints; the backward pass holds about as much again
    for (int k = 0; k < n_; ++k) {
      if (k % s_ == 0) {
        checkpoints.push_back(cur);
        held += cur.vals.size() * sizeof(double) + cur.keys.size() * 48;
      }
      cur = forward(cur, k);
      if (cur.keys.size() > kMaxStates || 2 * held > kMaxBytes)
        throw std::invalid_argument("posterior: this forest needs more than " + std::to_string(kMaxStates) +
                                    " states per tile or " + std::to_string(kMaxBytes >> 30) +
                                    " GiB (observe more of it, or use a smaller side)");
    }
    // beta at the end: the last row's eligibility, the visited tiles' clues, the portal
    std::vector<double> beta(cur.keys.size() * m_, 0.0);
    for (size_t a = 0; a < cur.keys.size(); ++a) finish(cur.keys[a], &beta[a * m_]);
    std::vector<double> z(m_, 0.0);
    for (size_t a = 0; a < cur.keys.size(); ++a)
      for (int i = 0; i < m_; ++i) z[i] += cur.vals[a * m_ + i] * beta[a * m_ + i];
    acc_.assign(static_cast<size_t>(n_) * 5 * m_, 0.0);
    Layer after = std::move(cur);  // the layer beta is over
    for (int seg = static_cast<int>(checkpoints.size()) - 1; seg >= 0; --seg) {
      const int a = seg * s_, b = std::min(a + s_, n_);
      std::vector<Layer> layers;
      layers.push_back(std::move(checkpoints[seg]));
      for (int k = a; k + 1 < b; ++k) layers.push_back(forward(layers.back(), k));
      for (int k = b - 1; k >= a; --k) {
        beta = backward(layers[k - a], k, after, beta);
        after = std::move(layers[k - a]);
      }
      checkpoints.pop_back();
    }
    // integrate: 1/|E| = sum_i w_i x_i^(|E|-1)
    auto integral = [&](const double* v) {
      double t = 0;
      for (int i = 0; i < m_; ++i) t += qw_[i] / qx_[i] * v[i] * far_[i];
      return t;
    };
    const double total = integral(z.data());
    if (!(total > 0)) throw std::invalid_argument("these observations cannot happen in any forest");
    Posterior out;
    out.monster.assign(n_, 0);
    out.trap.assign(n_, 0);
    out.portal.assign(n_, 0);
    double near_portal = 0;
    for (int t = 0; t < n_; ++t) {
      const double* a = &acc_[static_cast<size_t>(t) * 5 * m_];
      out.monster[t] = integral(a + kOptMonster * m_) / total;
      out.trap[t] = integral(a + kOptTrap * m_) / total;
      out.portal[t] = integral(a + kOptPortal * m_) / total;
      near_portal += out.portal[t];
    }
    if (far_count_ > 0) {
      const double each = std::max(0.0, 1 - near_portal) / far_count_;
      for (int t = 0; t < n_; ++t)
        if (info_[t].allowed == (1u << kOptFar))
          out.portal[t] = each, out.monster[t] = (1 - each) * kPHazard, out.trap[t] = (1 - each) * kPHazard;
    }
    out.evidence = total / n_;
    return out;
  }

 private:
  static constexpr size_t kMaxStates = 1u << 20;
  static constexpr size_t kMaxBytes = size_t{8} << 30;

  void build(const Observations& o, const InferenceOptions& opt) {
    if (o.side < 2 || o.side > kMaxSide) throw std::invalid_argument("posterior: side must be 2.." + std::to_string(kMaxSide));
    info_.assign(n_, TileInfo{});
    std::vector<int> clue(n_, -1), death(n_, -1);
    std::vector<uint8_t> stoned(n_, 0);
    auto check = [&](int t) {
      if (t < 0 || t >= n_) throw std::invalid_argument("posterior: a tile outside the forest");
    };
    check(o.start);
    clue[o.start] = 0;
    for (const auto& v : o.visited) {
      check(v.tile);
      const int c = (v.bones ? 1 : 0) | (v.leaves ? 2 : 0);
      if (clue[v.tile] >= 0 && clue[v.tile] != c && v.tile != o.start)
        throw std::invalid_argument("posterior: tile " + std::to_string(v.tile) + " is visited twice with different clues");
      clue[v.tile] = c;
    }
    if (clue[o.start] != 0) throw std::invalid_argument("the start tile shows no clue, by the generator's rule");
    for (auto [t, h] : o.deaths) {
      check(t);
      if (death[t] >= 0 && death[t] != h) throw std::invalid_argument("posterior: two different hazards on one tile");
      death[t] = h;
    }
    for (int t : o.stones) check(t), stoned[t] = 1;
    // observed tiles and the distance of every tile from them
    std::vector<int> dist(n_, 1 << 20);
    std::vector<int> queue;
    for (int t = 0; t < n_; ++t)
      if (clue[t] >= 0 || death[t] >= 0) dist[t] = 0, queue.push_back(t);
    for (size_t h = 0; h < queue.size(); ++h)
      for (int u : neighbours(s_, queue[h]))
        if (dist[u] > dist[queue[h]] + 1) dist[u] = dist[queue[h]] + 1, queue.push_back(u);
    auto far = [&](int t) { return opt.window >= 0 && dist[t] > std::max(opt.window, 1); };
    int max_eligible = 0;
    for (int t = 0; t < n_; ++t) {
      TileInfo& ti = info_[t];
      if (far(t)) {
        ti.allowed = 1u << kOptFar;
        ++far_count_;
        continue;
      }
      if (clue[t] >= 0) {
        ti.need_b = clue[t] & 1;
        ti.need_l = clue[t] >> 1 & 1;
        if (death[t] == kTrap) throw std::invalid_argument("posterior: a visited tile cannot hold a trap");
        if (death[t] == kMonster) ti.allowed = 1u << kOptMonster;  // died there, stoned it, walked in
        else ti.allowed = (1u << kOptEmpty) | (stoned[t] && t != o.start ? 1u << kOptMonster : 0u);
      } else if (death[t] >= 0) {
        ti.allowed = 1u << (death[t] == kMonster ? kOptMonster : kOptTrap);
      } else {
        ti.allowed = (1u << kOptEmpty) | (1u << kOptMonster) | (1u << kOptTrap) | (1u << kOptPortal);
      }
      if (ti.allowed & 1u) ++max_eligible;
    }
    for (int t = 0; t < n_; ++t) {
      const int r = t / s_, c = t % s_;
      info_[t].keep_kind = (c + 1 < s_ && clue[t + 1] >= 0 && !far(t + 1)) || (r + 1 < s_ && clue[t + s_] >= 0);
      int far_nb = 0;
      for (int u : neighbours(s_, t)) far_nb += far(u);
      info_[t].q = std::pow(kPEmpty, far_nb);
    }
    // the integrand is a polynomial of degree < (tiles that may be eligible, far ones included)
    m_ = opt.points > 0 ? opt.points : (max_eligible + far_count_) / 2 + 1;
    gauss_legendre(m_, qx_, qw_);
    // the far tiles' own eligibility, as independent factors
    far_.assign(m_, 1.0);
    for (int t = 0; t < n_; ++t)
      if (far(t)) {
        const double q = std::pow(kPEmpty, 1 + static_cast<int>(neighbours(s_, t).size()));
        for (int i = 0; i < m_; ++i) far_[i] *= (1 - q) + q * qx_[i];
      }
  }

  static uint8_t nib(uint64_t key, int i) { return static_cast<uint8_t>(key >> (4 * i) & 15); }

  /// Calls emit(option, next key, weight, q) for every way to place tile k after profile `key`;
  /// q >= 0 when the upper neighbour's eligibility settles with factor (1 - q) + q x.
  template <class Emit>
  void transitions(int k, uint64_t key, Emit&& emit) const {
    const int r = k / s_, j = k % s_;
    const bool has_up = r > 0, has_left = j > 0;
    const uint8_t up = nib(key, 0), left = nib(key, s_ - 1);
    const TileInfo& ti = info_[k];
    const TileInfo* ui = has_up ? &info_[k - s_] : nullptr;
    const TileInfo* li = has_left ? &info_[k - 1] : nullptr;
    const bool up_safe = !has_up || (up & 3) < 2, left_safe = !has_left || (left & 3) < 2;
    const bool upM = has_up && (up & 3) == kHazM, upT = has_up && (up & 3) == kHazT;
    const bool leftM = has_left && (left & 3) == kHazM, leftT = has_left && (left & 3) == kHazT;
    const uint64_t mask = s_ == 16 ? ~0ull : (1ull << (4 * s_)) - 1;
    for (int c = 0; c <= kOptFar; ++c) {
      if (!(ti.allowed >> c & 1)) continue;
      if (c == kOptPortal && (key & kPortalBit)) continue;
      const bool isM = c == kOptMonster, isT = c == kOptTrap, haz = isM || isT;
      uint8_t nu = up, nl = left;
      if (ui && ui->need_b >= 0) {
        if ((isM && ui->need_b == 0) || (isT && ui->need_l == 0)) continue;
        const bool sb = (nu >> 2 & 1) || isM, sl = (nu >> 3 & 1) || isT;
        if ((ui->need_b == 1 && !sb) || (ui->need_l == 1 && !sl)) continue;  // its last neighbour
      }
      if (li && li->need_b >= 0) {
        if ((isM && li->need_b == 0) || (isT && li->need_l == 0)) continue;
        nl = static_cast<uint8_t>(nl | (isM ? 4 : 0) | (isT ? 8 : 0));
      }
      uint8_t mine = 0;
      if (ti.need_b >= 0) {
        if ((ti.need_b == 0 && (upM || leftM)) || (ti.need_l == 0 && (upT || leftT))) continue;
        mine = static_cast<uint8_t>((upM || leftM ? 4 : 0) | (upT || leftT ? 8 : 0));
      }
      uint8_t cls;
      if (haz) cls = isT && ti.keep_kind ? kHazT : kHazM;
      else cls = c == kOptEmpty && up_safe && left_safe ? kPending : kDead;
      if (haz) {
        if (has_left && (nl & 3) == kPending) nl = static_cast<uint8_t>((nl & ~3) | kDead);
        if (has_up && (nu & 3) == kPending) nu = static_cast<uint8_t>((nu & ~3) | kDead);
      }
      const double q = has_up && (nu & 3) == kPending ? ui->q : -1;
      uint64_t body = key & mask;
      if (has_left) body = (body & ~(15ull << (4 * (s_ - 1)))) | uint64_t(nl) << (4 * (s_ - 1));
      body >>= 4;
      body |= uint64_t(cls | mine) << (4 * (s_ - 1));
      if ((key & kPortalBit) || c == kOptPortal) body |= kPortalBit;
      const double w = c == kOptEmpty ? kPEmpty : haz ? kPHazard : 1.0;
      emit(c, body, w, q);
    }
  }

  /// The factor that closes a profile after the last tile (per quadrature point).
  void finish(uint64_t key, double* out) const {
    for (int i = 0; i < m_; ++i) out[i] = 1;
    for (int i = 0; i < s_; ++i) {
      const TileInfo& ti = info_[n_ - s_ + i];
      const uint8_t v = nib(key, i);
      if ((ti.need_b == 1 && !(v & 4)) || (ti.need_l == 1 && !(v & 8))) {
        for (int p = 0; p < m_; ++p) out[p] = 0;
        return;
      }
      if ((v & 3) == kPending)
        for (int p = 0; p < m_; ++p) out[p] *= (1 - ti.q) + ti.q * qx_[p];
    }
    if (!(key & kPortalBit))
      for (int p = 0; p < m_; ++p) out[p] *= far_count_;  // the portal on a far tile (0 when none)
  }

  Layer forward(const Layer& cur, int k) const {
    Layer next;
    next.index.reserve(cur.keys.size() * 2);
    std::vector<double> f(m_);
    for (size_t a = 0; a < cur.keys.size(); ++a) {
      const double* in = &cur.vals[a * m_];
      transitions(k, cur.keys[a], [&](int, uint64_t nk, double w, double q) {
        const uint32_t b = next.slot(nk, m_);
        double* o = &next.vals[static_cast<size_t>(b) * m_];
        if (q < 0)
          for (int i = 0; i < m_; ++i) o[i] += in[i] * w;
        else
          for (int i = 0; i < m_; ++i) o[i] += in[i] * w * ((1 - q) + q * qx_[i]);
      });
    }
    return next;
  }

  /// beta over layer k's states from beta over layer k + 1's (`after`, `beta_after`); adds
  /// tile k's marginals.
  std::vector<double> backward(const Layer& alpha, int k, const Layer& after, const std::vector<double>& beta_after) {
    std::vector<double> beta(alpha.keys.size() * m_, 0.0);
    double* acc = &acc_[static_cast<size_t>(k) * 5 * m_];
    for (size_t a = 0; a < alpha.keys.size(); ++a) {
      const double* in = &alpha.vals[a * m_];
      double* out = &beta[a * m_];
      transitions(k, alpha.keys[a], [&](int c, uint64_t nk, double w, double q) {
        const auto it = after.index.find(nk);
        const double* bn = &beta_after[static_cast<size_t>(it->second) * m_];
        double* ac = acc + c * m_;
        for (int i = 0; i < m_; ++i) {
          const double t = w * (q < 0 ? 1.0 : (1 - q) + q * qx_[i]) * bn[i];
          out[i] += t;
          ac[i] += in[i] * t;
        }
      });
    }
    return beta;
  }

  int s_, n_, m_ = 1;
  int far_count_ = 0;
  std::vector<TileInfo> info_;
  std::vector<double> qx_, qw_, far_, acc_;
};

}  // namespace

Posterior infer(const Observations& o, const InferenceOptions& opt) { return Pass(o, opt).run(); }

}  // namespace toadbase::forest
