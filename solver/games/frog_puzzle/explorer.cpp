#include "solver/games/frog_puzzle/explorer.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace toadbase::frog_puzzle {

Explorer::Explorer(const Position& start, uint64_t limit, bool with_values)
    : start_(start), goal_(goal_of(counts(start))) {
  layers_.push_back({key(start)});
  reachable_ = 1;
  std::vector<uint64_t> next;
  while (true) {
    next.clear();
    for (uint64_t k : layers_.back()) {
      const Position p = position(k);
      const auto moves = legal_moves(p);
      if (moves.empty() && !(p == goal_)) ++stuck_;
      for (Move m : moves) next.push_back(key(apply(p, m)));
    }
    if (next.empty()) break;
    std::sort(next.begin(), next.end());
    next.erase(std::unique(next.begin(), next.end()), next.end());
    reachable_ += next.size();
    if (reachable_ > limit)
      throw std::length_error("more than " + std::to_string(limit) + " positions are reachable from " +
                              format(start) + "; this in-memory search stops there");
    layers_.push_back(next);
  }
  for (size_t d = 0; d < layers_.size(); ++d)
    if (find(d, key(goal_)) >= 0) goal_layer_ = static_cast<int>(d);
  if (!with_values) return;
  // values and solution counts, last layer first
  win_.resize(layers_.size());
  std::vector<BigCount> below, here;
  for (size_t d = layers_.size(); d-- > 0;) {
    const auto& L = layers_[d];
    win_[d].assign(L.size(), 0);
    here.assign(L.size(), BigCount{});
    for (size_t i = 0; i < L.size(); ++i) {
      const Position p = position(L[i]);
      if (p == goal_) {
        win_[d][i] = 1;
        here[i] = BigCount(1);
        continue;
      }
      if (d + 1 >= layers_.size()) continue;
      for (Move m : legal_moves(p)) {
        const int64_t j = find(d + 1, key(apply(p, m)));
        if (j >= 0 && win_[d + 1][j]) {
          win_[d][i] = 1;
          here[i] += below[j];
        }
      }
    }
    for (uint8_t w : win_[d]) wins_ += w;
    below.swap(here);
  }
  solutions_ = below.empty() ? BigCount{} : below[0];
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
