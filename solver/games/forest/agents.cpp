#include "solver/games/forest/agents.hpp"

#include "solver/games/forest/optimal.hpp"

#include <algorithm>
#include <deque>
#include <queue>
#include <stdexcept>

namespace toadbase::forest {

std::vector<int> shortest_path(int side, int from, int to, const std::vector<uint8_t>& ok) {
  const int n = side * side;
  std::vector<int> prev(n, -2);
  std::deque<int> q{from};
  prev[from] = -1;
  while (!q.empty()) {
    const int t = q.front();
    q.pop_front();
    if (t == to) break;
    for (int u : neighbours(side, t))
      if (prev[u] == -2 && (ok[u] || u == to)) prev[u] = t, q.push_back(u);
  }
  if (prev[to] == -2) return {};
  std::vector<int> path;
  for (int t = to; t != from; t = prev[t]) path.push_back(t);
  std::reverse(path.begin(), path.end());
  return path;
}

namespace {

class Original : public Agent {
 public:
  std::string name() const override { return "original"; }
  void begin(const Knowledge& k, const Forest*) override {
    const int n = k.tiles();
    pM_.assign(n, 0);
    pT_.assign(n, 0);
    reachable_.assign(n, 0);
    seen_.assign(n, 0);
    banned_.assign(n, 0);
    path_.clear();
    dest_ = -1;
  }
  void died(const Knowledge& k, int tile) override {
    if (k.known_trap[tile]) banned_[tile] = 1;
    if (k.known_monster[tile]) pM_[tile] = 1, pT_[tile] = 0;
    path_.clear();
    dest_ = -1;
  }
  Action next(const Knowledge& k, int at) override {
    if (!seen_[at]) arrive(k, at);
    if (path_.empty()) plan(k, at);
    const int step = path_.front();
    if (step == dest_ && path_.size() == 1 && pM_[dest_] != 0 && !shot_) {
      shot_ = true;
      return {Action::Shoot, step};
    }
    path_.erase(path_.begin());
    return {Action::Move, step};
  }

 private:
  void arrive(const Knowledge& k, int c) {
    seen_[c] = 1;
    const auto nb = neighbours(k.side, c);
    int v = 0;
    for (int u : nb) v += seen_[u];
    const double q = v >= 4 ? 0 : 1.0 / (4 - v);
    for (int t : nb) {
      if (seen_[t]) continue;
      reachable_[t] = 1;
      pM_[t] = k.bones[c] ? pM_[t] + q : 0;
      pT_[t] = k.leaves[c] ? pT_[t] + q : 0;
    }
  }
  void plan(const Knowledge& k, int at) {
    std::vector<int> B;
    for (int t = 0; t < k.tiles(); ++t)
      if (reachable_[t] && !seen_[t] && !banned_[t]) B.push_back(t);
    if (B.empty()) throw std::runtime_error("original: nowhere left to go");
    int dest = -1;
    for (int t : B)
      if (pM_[t] == 0 && pT_[t] == 0) {
        dest = t;
        break;
      }
    if (dest < 0)
      for (int t : B)
        if (pM_[t] > 0 && pT_[t] == 0 && (dest < 0 || pM_[t] > pM_[dest])) dest = t;
    if (dest < 0) {
      double top = -1;
      for (int t : B)
        if (pM_[t] > 0 && pT_[t] > 0) top = std::max(top, pM_[t]);
      for (int t : B) {
        const bool eligible = pM_[t] == 0 || pM_[t] == top;
        if (eligible && (dest < 0 || pT_[t] < pT_[dest])) dest = t;
      }
      if (dest < 0) dest = B[0];
    }
    dest_ = dest;
    shot_ = false;
    std::vector<uint8_t> ok(k.tiles(), 0);
    for (int t = 0; t < k.tiles(); ++t) ok[t] = seen_[t];
    path_ = shortest_path(k.side, at, dest, ok);
    if (path_.empty()) throw std::logic_error("original: no path to the destination");
  }

  std::vector<double> pM_, pT_;
  std::vector<uint8_t> reachable_, seen_, banned_;
  std::vector<int> path_;
  int dest_ = -1;
  bool shot_ = false;
};

class Oracle : public Agent {
 public:
  std::string name() const override { return "oracle"; }
  void begin(const Knowledge& k, const Forest* truth) override {
    if (!truth) throw std::logic_error("oracle: needs the forest");
    const Forest& f = *truth;
    const int n = k.tiles();
    // Dijkstra: entering a tile costs 1, a monster tile 11 (a stone, then the step), traps never
    std::vector<long> dist(n, 1L << 40);
    std::vector<int> prev(n, -1);
    using Item = std::pair<long, int>;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> pq;
    dist[f.start] = 0;
    pq.push({0, f.start});
    while (!pq.empty()) {
      auto [d, t] = pq.top();
      pq.pop();
      if (d != dist[t]) continue;
      if (t == f.portal) break;
      for (int u : f.neighbours(t)) {
        if (f.content[u] == kTrap) continue;
        const long w = f.content[u] == kMonster ? 11 : 1;
        if (d + w < dist[u]) dist[u] = d + w, prev[u] = t, pq.push({d + w, u});
      }
    }
    actions_.clear();
    if (prev[f.portal] < 0 && f.portal != f.start) return;  // cut off: it will be stuck
    std::vector<int> path;
    for (int t = f.portal; t != f.start; t = prev[t]) path.push_back(t);
    std::reverse(path.begin(), path.end());
    for (int t : path) {
      if (f.content[t] == kMonster) actions_.push_back({Action::Shoot, t});
      actions_.push_back({Action::Move, t});
    }
  }
  Action next(const Knowledge& k, int at) override {
    (void)k, (void)at;
    if (actions_.empty()) return {Action::GiveUp, 0};  // traps cut the portal off
    const Action a = actions_.front();
    actions_.erase(actions_.begin());
    return a;
  }

 private:
  std::vector<Action> actions_;
};

}  // namespace

const std::vector<std::string>& agent_names() {
  static const std::vector<std::string> names = {"original", "bayes", "optimal", "oracle"};
  return names;
}

std::unique_ptr<Agent> make_agent(const std::string& name) {
  if (name == "original") return std::make_unique<Original>();
  if (name == "oracle") return std::make_unique<Oracle>();
  if (name == "bayes") return make_bayes_agent();
  if (name == "optimal") return make_optimal_agent();
  throw std::invalid_argument("unknown agent '" + name + "': original, bayes, optimal (3x3) or oracle");
}

}  // namespace toadbase::forest
