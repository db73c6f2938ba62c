#include "solver/games/frog_puzzle/explorer.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>
#include <utility>

namespace toadbase::frog_puzzle {

namespace {

// The children of a position, as keys, straight from the masks (no allocation).
template <class F>
void each_child(uint64_t key, uint32_t full, F&& f) {
  const uint32_t L = static_cast<uint32_t>(key), R = static_cast<uint32_t>(key >> 32);
  const uint32_t E = ~(L | R) & full;
  auto emit = [&](uint32_t l, uint32_t r) { f(uint64_t{l} | (uint64_t{r} << 32)); };
  for (uint32_t m = L & (E >> 1); m; m &= m - 1) emit(L ^ (3u << std::countr_zero(m)), R);
  for (uint32_t m = L & (R >> 1) & (E >> 2); m; m &= m - 1) emit(L ^ (5u << std::countr_zero(m)), R);
  for (uint32_t m = R & (E << 1); m; m &= m - 1) emit(L, R ^ (3u << (std::countr_zero(m) - 1)));
  for (uint32_t m = R & (L << 1) & (E << 2); m; m &= m - 1) emit(L, R ^ (5u << (std::countr_zero(m) - 2)));
}

// Sorts keys of `bits` significant bits (least significant digit first, 11 bits a pass):
// the layers are millions of keys, where std::sort spent most of an exploration.
void radix_sort(std::vector<uint64_t>& keys, std::vector<uint64_t>& spare, int bits) {
  constexpr int kDigit = 11;
  constexpr size_t kBuckets = size_t{1} << kDigit;
  spare.resize(keys.size());
  std::vector<size_t> count(kBuckets);
  for (int shift = 0; shift < bits; shift += kDigit) {
    std::fill(count.begin(), count.end(), 0);
    for (uint64_t k : keys) ++count[(k >> shift) & (kBuckets - 1)];
    size_t sum = 0;
    for (size_t& c : count) sum += std::exchange(c, sum);
    for (uint64_t k : keys) spare[count[(k >> shift) & (kBuckets - 1)]++] = k;
    keys.swap(spare);
  }
}

}  // namespace

Explorer::Explorer(const Position& start, uint64_t limit, bool with_values)
    : start_(start), goal_(goal_of(counts(start))) {
  const uint32_t full = start.length >= 32 ? ~0u : (1u << start.length) - 1;
  const uint64_t goal_key = key(goal_);
  layers_.push_back({key(start)});
  reachable_ = 1;
  // a layer's children are gathered as packed keys (L | R << length), sorted and made
  // unique in that form (their order is the keys' order: R first, then L), then unpacked
  const unsigned n = start.length;
  std::vector<uint64_t> next, spare;
  while (true) {
    next.clear();
    for (uint64_t k : layers_.back()) {
      const size_t before = next.size();
      if (k != goal_key)
        each_child(k, full, [&](uint64_t c) { next.push_back((c & full) | ((c >> 32) << n)); });
      if (next.size() == before && k != goal_key) ++stuck_;
    }
    if (next.empty()) break;
    radix_sort(next, spare, static_cast<int>(2 * n));
    next.erase(std::unique(next.begin(), next.end()), next.end());
    for (uint64_t& c : next) c = (c & full) | ((c >> n) << 32);
    reachable_ += next.size();
    if (reachable_ > limit)
      throw std::length_error("more than " + std::to_string(limit) + " positions are reachable from " +
                              format(start) + "; this in-memory search stops there (--max-positions)");
    layers_.push_back(next);
  }
  for (size_t d = 0; d < layers_.size(); ++d)
    if (find(d, goal_key) >= 0) goal_layer_ = static_cast<int>(d);
  if (!with_values) return;
  // values and solution counts, last layer first. Counts are flat arrays of base-2^32
  // limbs, `width` limbs a position: a sum of c children of width w fits w + 1 limbs, and
  // each layer is trimmed back to the widest count it holds.
  win_.resize(layers_.size());
  std::vector<uint32_t> below, here;
  size_t wb = 1;
  for (size_t d = layers_.size(); d-- > 0;) {
    const auto& Ld = layers_[d];
    const size_t wh = wb + 1;
    win_[d].assign(Ld.size(), 0);
    here.assign(Ld.size() * wh, 0);
    for (size_t i = 0; i < Ld.size(); ++i) {
      uint32_t* acc = &here[i * wh];
      if (Ld[i] == goal_key) {
        win_[d][i] = 1;
        acc[0] = 1;
        continue;
      }
      if (d + 1 >= layers_.size()) continue;
      each_child(Ld[i], full, [&](uint64_t c) {
        const int64_t j = find(d + 1, c);
        if (j < 0 || !win_[d + 1][j]) return;
        win_[d][i] = 1;
        const uint32_t* add = &below[static_cast<size_t>(j) * wb];
        uint64_t carry = 0;
        for (size_t l = 0; l < wh; ++l) {
          const uint64_t sum = uint64_t{acc[l]} + (l < wb ? add[l] : 0) + carry;
          acc[l] = static_cast<uint32_t>(sum);
          carry = sum >> 32;
        }
      });
    }
    for (uint8_t w : win_[d]) wins_ += w;
    // trim to the widest count of the layer
    size_t used = 1;
    for (size_t i = 0; i < Ld.size(); ++i)
      for (size_t l = wh; l-- > used;)
        if (here[i * wh + l]) {
          used = l + 1;
          break;
        }
    below.assign(Ld.size() * used, 0);
    for (size_t i = 0; i < Ld.size(); ++i)
      std::copy_n(&here[i * wh], used, &below[i * used]);
    wb = used;
  }
  solutions_ = BigCount::from_limbs(std::vector<uint32_t>(below.begin(), below.begin() + wb));
}

int64_t Explorer::find(size_t d, uint64_t k) const {
  if (d >= layers_.size()) return -1;
  const auto& L = layers_[d];
  auto it = std::lower_bound(L.begin(), L.end(), k);
  if (it == L.end() || *it != k) return -1;
  return it - L.begin();
}

bool Explorer::win_at(const Position& p, size_t d) const {
  const int64_t i = find(d, key(p));
  return i >= 0 && win_[d][i];
}

int Explorer::value(const Position& p) const {
  if (p.length != start_.length) return -1;
  const int d = potential(p) - potential(start_);
  if (d < 0) return -1;
  const int64_t i = find(static_cast<size_t>(d), key(p));
  if (i < 0) return -1;
  return win_.empty() ? -1 : win_[d][i];
}

int Explorer::remoteness(const Position& p) const {
  return goal_layer_ - (potential(p) - potential(start_));
}

std::vector<Move> Explorer::first_solution() const {
  std::vector<Move> out;
  if (!solvable()) return out;
  Position p = start_;
  for (int d = 0; !(p == goal_); ++d) {
    for (Move m : legal_moves(p)) {
      const Position q = apply(p, m);
      if (win_at(q, d + 1)) {
        out.push_back(m);
        p = q;
        break;
      }
    }
  }
  return out;
}

void Explorer::each_solution(const std::function<bool(const std::vector<Move>&)>& each) const {
  if (!solvable()) return;
  std::vector<Move> path;
  bool go = true;
  std::function<void(const Position&, size_t)> dfs = [&](const Position& p, size_t d) {
    if (p == goal_) {
      go = each(path);
      return;
    }
    for (Move m : legal_moves(p)) {
      const Position q = apply(p, m);
      if (!win_at(q, d + 1)) continue;
      path.push_back(m);
      dfs(q, d + 1);
      path.pop_back();
      if (!go) return;
    }
  };
  dfs(start_, 0);
}

}  // namespace toadbase::frog_puzzle
