// The bayes wanderer: exact beliefs, decisions by expected score.
//
// After every new tile and every death it computes the posterior of each tile (inference.cpp:
// exact on sides up to 5; on larger forests the tiles more than one step from everything he
// has seen enter only through 1/|E|, as independent factors). Then, for each frontier tile t
// (not visited, not a known trap, reached by walking over visited tiles) and with or without
// a stone, the cost of trying it is
//
//     c(t, stone) = steps + 10 stone + P(death) x (10n + steps back from the start)
//     P(death)    = P(trap at t) + P(live monster at t) if no stone, P(trap at t) with one
//
// and the chance it ends the forest is P(portal at t). He tries the tile with the highest
// P(portal at t) / c(t, stone), never a certain death that teaches nothing: the order that
// minimises the expected cost of a search for one hidden object among boxes of known costs,
// re-evaluated after every lesson. Ties: the first tile in row-major order, no stone before a
// stone.
#include <limits>
#include <stdexcept>

#include "solver/games/forest/agents.hpp"
#include "solver/games/forest/posterior.hpp"

namespace toadbase::forest {

namespace {

class Bayes : public Agent {
 public:
  std::string name() const override { return "bayes"; }
  void begin(const Knowledge& k, const Forest*) override {
    (void)k;
    plan_.clear();
  }
  void died(const Knowledge&, int) override { plan_.clear(); }
  Action next(const Knowledge& k, int at) override {
    if (plan_.empty()) decide(k, at);
    if (plan_.empty()) return {Action::GiveUp, 0};
    const Action a = plan_.front();
    plan_.erase(plan_.begin());
    return a;
  }

 private:
  void decide(const Knowledge& k, int at) {
    const int n = k.tiles();
    InferenceOptions opt;  // every decision follows a lesson: a new tile, or a death
    if (k.side > 5) opt.window = 1, opt.points = 16;
    post_ = infer(observations(k), opt);
    // steps from `at` over visited tiles (the last step may leave them), and from the start
    const auto from_here = steps(k, at), from_start = steps(k, k.start);
    const double reward = 10.0 * n;
    double best = -1;
    int target = -1;
    bool stone = false;
    for (int t = 0; t < n; ++t) {
      if (k.visited[t] || k.known_trap[t] || from_here[t] < 0) continue;
      const double live = k.stoned[t] ? 0.0 : post_.monster[t];
      for (int s = 0; s < 2; ++s) {
        if (s && live <= 0) continue;
        const double death = post_.trap[t] + (s ? 0.0 : live);
        // a certain death that teaches nothing new (a certain trap, a certain live monster
        // met unarmed) is never tried; with nothing else left he gives up (stuck)
        if (post_.trap[t] > 1 - 1e-9 || (!s && live > 1 - 1e-9)) continue;
        const double cost = from_here[t] + 10.0 * s + death * (reward + from_start[t]);
        // a tile that cannot be the portal may still open the way to it: a tiny gain keeps
        // the cheapest such step ahead of the rest when no tile can be the portal
        const double index = (post_.portal[t] + 1e-9) / cost;
        if (index > best * (1 + 1e-12) || target < 0) best = index, target = t, stone = s != 0;
      }
    }
    if (target < 0) return;
    std::vector<uint8_t> ok(k.visited.begin(), k.visited.end());
    const auto path = shortest_path(k.side, at, target, ok);
    for (size_t i = 0; i + 1 < path.size(); ++i) plan_.push_back({Action::Move, path[i]});
    if (stone) plan_.push_back({Action::Shoot, target});
    plan_.push_back({Action::Move, target});
  }

  static std::vector<int> steps(const Knowledge& k, int from) {
    const int n = k.tiles();
    std::vector<int> d(n, -1);
    std::vector<int> q{from};
    d[from] = 0;
    for (size_t h = 0; h < q.size(); ++h) {
      const int t = q[h];
      if (!k.visited[t]) continue;  // a frontier tile: no walking through it
      for (int u : neighbours(k.side, t))
        if (d[u] < 0) d[u] = d[t] + 1, q.push_back(u);
    }
    return d;
  }

  Posterior post_;
  std::vector<Action> plan_;
};

}  // namespace

std::unique_ptr<Agent> make_bayes_agent() { return std::make_unique<Bayes>(); }

}  // namespace toadbase::forest
