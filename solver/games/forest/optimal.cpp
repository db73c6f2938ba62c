#include "solver/games/forest/optimal.hpp"

#include <algorithm>
#include <atomic>
#include <deque>
#include <mutex>
#include <stdexcept>
#include <unordered_map>

#include "solver/games/forest/agents.hpp"
#include "solver/games/forest/posterior.hpp"

namespace toadbase::forest {

namespace {

constexpr int kSide = 3, kN = 9, kReward = 10 * kN;

struct World {
  uint8_t content[kN];
  uint8_t bones[kN], leaves[kN];
  int8_t portal, start;
  double p;
};

const std::vector<World>& worlds() {
  static const std::vector<World> all = [] {
    std::vector<World> v;
    each_forest(kSide, [&](const Forest& f, double p) {
      World w{};
      for (int t = 0; t < kN; ++t) w.content[t] = f.content[t], w.bones[t] = f.bones[t], w.leaves[t] = f.leaves[t];
      w.portal = static_cast<int8_t>(f.portal);
      w.start = static_cast<int8_t>(f.start);
      w.p = p;
      v.push_back(w);
    });
    return v;
  }();
  return all;
}

/// What the wanderer knows, packed: masks over the 9 tiles.
struct Belief {
  uint16_t visited = 0, bones = 0, leaves = 0, trap = 0, monster = 0, stoned = 0;
  int8_t start = 0, at = 0;
  uint64_t key() const {
    return uint64_t(visited) | uint64_t(bones) << 9 | uint64_t(leaves) << 18 | uint64_t(trap) << 27 |
           uint64_t(monster) << 36 | uint64_t(stoned) << 45 | uint64_t(start) << 54 | uint64_t(at) << 58;
  }
};

struct Choice {
  double value = 0;
  int target = -1;
  bool stone = false;
};

bool reachable_avoiding(uint16_t trap, int from, int to) {
  uint16_t seen = uint16_t(1u << from);
  std::deque<int> q{from};
  while (!q.empty()) {
    const int t = q.front();
    q.pop_front();
    if (t == to) return true;
    for (int u : neighbours(kSide, t))
      if (!(seen >> u & 1) && !(trap >> u & 1)) seen |= uint16_t(1u << u), q.push_back(u);
  }
  return false;
}

class Solver {
 public:
  Choice best(const Belief& b, const std::vector<int>& ws) {
    std::lock_guard<std::mutex> lock(mu_);
    return solve(b, ws);
  }
  /// Every belief met so far with its decision.
  std::vector<PolicyEntry> entries(int start) {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<PolicyEntry> out;
    for (const auto& [key, c] : memo_)
      if (static_cast<int>(key >> 54 & 15) == start) out.push_back({key, c.target, c.stone, c.value});
    std::sort(out.begin(), out.end(), [](const PolicyEntry& a, const PolicyEntry& b) { return a.belief < b.belief; });
    return out;
  }
  /// The worlds that agree with a belief.
  static std::vector<int> consistent(const Belief& b) {
    std::vector<int> out;
    const auto& all = worlds();
    for (int i = 0; i < static_cast<int>(all.size()); ++i)
      if (agrees(all[i], b)) out.push_back(i);
    return out;
  }
  static bool agrees(const World& w, const Belief& b) {
    if (w.start != b.start) return false;
    for (int t = 0; t < kN; ++t) {
      const uint16_t bit = uint16_t(1u << t);
      if (b.visited & bit) {
        if (w.portal == t || w.content[t] == kTrap || (w.content[t] == kMonster && !(b.stoned & bit))) return false;
        if (bool(w.bones[t]) != bool(b.bones & bit) || bool(w.leaves[t]) != bool(b.leaves & bit)) return false;
      }
      if ((b.trap & bit) && w.content[t] != kTrap) return false;
      if ((b.monster & bit) && w.content[t] != kMonster) return false;
    }
    return true;
  }

 private:
  Choice solve(const Belief& b, const std::vector<int>& ws) {
    const uint64_t key = b.key();
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    const auto& all = worlds();
    double total = 0;
    for (int i : ws) total += all[i].p;
    Choice best;
    bool any = false;
    // steps from where he stands to every tile, over visited tiles (the last step may leave them)
    int dist[kN];
    for (int& d : dist) d = -1;
    {
      int q[kN], head = 0, tail = 0;
      dist[b.at] = 0;
      q[tail++] = b.at;
      while (head < tail) {
        const int t = q[head++];
        if (!(b.visited >> t & 1)) continue;  // a frontier tile: no walking through it
        for (int u : neighbours(kSide, t))
          if (dist[u] < 0) dist[u] = dist[t] + 1, q[tail++] = u;
      }
    }
    std::vector<int> bucket[6];  // trap, monster, safe with clues 0..3
    for (int t = 0; t < kN && total > 0; ++t) {
      const uint16_t bit = uint16_t(1u << t);
      if ((b.visited & bit) || (b.trap & bit) || dist[t] < 0) continue;
      bool monster_possible = false;
      if (!(b.stoned & bit))
        for (int i : ws)
          if (all[i].portal != t && all[i].content[t] == kMonster) {
            monster_possible = true;
            break;
          }
      for (int stone = 0; stone < 2; ++stone) {
        // a stone where no live monster can be costs 10 and teaches nothing: never better
        if (stone && !monster_possible) continue;
        // stepping unarmed onto a monster he died on teaches nothing (and dies again)
        if (!stone && (b.monster & bit) && !(b.stoned & bit)) continue;
        const uint16_t stoned = stone ? uint16_t(b.stoned | bit) : b.stoned;
        for (auto& v : bucket) v.clear();
        double portal_p = 0, bp[6] = {0, 0, 0, 0, 0, 0};
        for (int i : ws) {
          const World& w = all[i];
          int k;
          if (w.portal == t) {
            portal_p += w.p;
            continue;
          } else if (w.content[t] == kTrap) {
            k = 0;
          } else if (w.content[t] == kMonster && !(stoned & bit)) {
            k = 1;
          } else {
            k = 2 + ((w.bones[t] ? 1 : 0) | (w.leaves[t] ? 2 : 0));
          }
          bucket[k].push_back(i);
          bp[k] += w.p;
        }
        // a certain death that teaches nothing new (a certain trap, or a certain live monster
        // met unarmed) only costs 10n and the walk back: never taken (with nothing else left
        // to try the forest is over, stuck, with value 0)
        const size_t others = bucket[2].size() + bucket[3].size() + bucket[4].size() + bucket[5].size();
        if (portal_p == 0 && others == 0 && (bucket[0].empty() || bucket[1].empty())) continue;
        double v = -static_cast<double>(dist[t]) - 10.0 * stone + portal_p / total * kReward;
        if (!bucket[0].empty()) {
          Belief nb = b;
          nb.trap |= bit;
          nb.stoned = stoned;
          nb.at = b.start;
          std::vector<int> go_on;
          for (int i : bucket[0])
            if (reachable_avoiding(nb.trap, all[i].start, all[i].portal)) go_on.push_back(i);
          v += bp[0] / total * -kReward;
          if (!go_on.empty()) {
            double pg = 0;
            for (int i : go_on) pg += all[i].p;
            v += pg / total * solve(nb, go_on).value;
          }
        }
        if (!bucket[1].empty()) {
          Belief nb = b;
          nb.monster |= bit;
          nb.stoned = stoned;
          nb.at = b.start;
          v += bp[1] / total * (-kReward + solve(nb, std::vector<int>(bucket[1])).value);
        }
        for (int c = 0; c < 4; ++c) {
          if (bucket[2 + c].empty()) continue;
          Belief nb = b;
          nb.visited |= bit;
          if (c & 1) nb.bones |= bit;
          if (c & 2) nb.leaves |= bit;
          nb.stoned = stoned;
          nb.at = static_cast<int8_t>(t);
          v += bp[2 + c] / total * solve(nb, std::vector<int>(bucket[2 + c])).value;
        }
        if (!any || v > best.value + 1e-12) {
          best = {v, t, stone != 0};
          any = true;
        }
      }
    }
    memo_[key] = best;
    return best;
  }

  std::mutex mu_;
  std::unordered_map<uint64_t, Choice> memo_;
};

Solver& solver() {
  static Solver s;
  return s;
}

/// The worlds of each start tile, computed once.
const std::vector<int>& start_worlds(int start) {
  static const std::vector<std::vector<int>> by_start = [] {
    std::vector<std::vector<int>> v(kN);
    const auto& all = worlds();
    for (int i = 0; i < static_cast<int>(all.size()); ++i) v[all[i].start].push_back(i);
    return v;
  }();
  return by_start.at(start);
}

class Optimal : public Agent {
 public:
  explicit Optimal(PolicyLookup lookup) : lookup_(std::move(lookup)) {}
  std::string name() const override { return "optimal"; }
  void begin(const Knowledge& k, const Forest*) override {
    if (k.side != kSide) throw std::invalid_argument("the optimal agent covers 3x3 forests only (so far)");
    b_ = Belief{};
    b_.start = static_cast<int8_t>(k.start);
    b_.at = b_.start;
    b_.visited = uint16_t(1u << k.start);
    if (!lookup_) ws_ = start_worlds(k.start);
    plan_.clear();
  }
  void died(const Knowledge& k, int tile) override {
    const uint16_t bit = uint16_t(1u << tile);
    if (k.known_trap[tile]) b_.trap |= bit;
    else b_.monster |= bit;
    b_.at = b_.start;
    if (!lookup_) filter();
    plan_.clear();
  }
  Action next(const Knowledge& k, int at) override {
    if (plan_.empty()) {
      // arrived: record what he sees, then decide
      const uint16_t bit = uint16_t(1u << at);
      if (!(b_.visited & bit) && k.visited[at]) {
        b_.visited |= bit;
        if (k.bones[at]) b_.bones |= bit;
        if (k.leaves[at]) b_.leaves |= bit;
      }
      b_.at = static_cast<int8_t>(at);
      Choice c;
      if (lookup_) {
        const auto e = lookup_(b_.key());
        if (!e) throw std::runtime_error("the stored policy has no entry for belief " + std::to_string(b_.key()));
        c = {e->value, e->target, e->stone};
      } else {
        filter();
        c = solver().best(b_, ws_);
      }
      if (c.target < 0) return {Action::GiveUp, 0};
      std::vector<uint8_t> ok(kN, 0);
      for (int t = 0; t < kN; ++t) ok[t] = b_.visited >> t & 1;
      const auto path = shortest_path(kSide, at, c.target, ok);
      for (size_t i = 0; i + 1 < path.size(); ++i) plan_.push_back({Action::Move, path[i]});
      if (c.stone) {
        plan_.push_back({Action::Shoot, c.target});
        b_.stoned |= uint16_t(1u << c.target);
      }
      plan_.push_back({Action::Move, c.target});
    }
    const Action a = plan_.front();
    plan_.erase(plan_.begin());
    return a;
  }

 private:
  void filter() {
    const auto& all = worlds();
    std::vector<int> keep;
    for (int i : ws_)
      if (Solver::agrees(all[i], b_)) keep.push_back(i);
    ws_.swap(keep);
  }
  PolicyLookup lookup_;
  Belief b_;
  std::vector<int> ws_;  // the worlds that agree with b_ (when searching)
  std::vector<Action> plan_;
};

}  // namespace

std::unique_ptr<Agent> make_optimal_agent(PolicyLookup lookup) { return std::make_unique<Optimal>(std::move(lookup)); }

namespace {
std::atomic<uint64_t> policy_calls{0};
}

uint64_t optimal_policy_calls() { return policy_calls.load(); }

std::vector<PolicyEntry> optimal_policy(int start) {
  if (start < 0 || start >= kN) throw std::invalid_argument("a 3x3 start tile is 0..8");
  ++policy_calls;
  optimal_expected_score();  // solves every start belief (once)
  return solver().entries(start);
}

uint64_t belief_key(const Observations& o, int at) {
  if (o.side != kSide)
    throw std::invalid_argument("the optimal policy covers 3x3 forests only (\"side\": 3), not side " +
                                std::to_string(o.side));
  auto bad = [](const std::string& why) { throw std::invalid_argument("belief: " + why); };
  if (o.start < 0 || o.start >= kN || at < 0 || at >= kN) bad("a tile outside the forest");
  Belief b;
  b.start = static_cast<int8_t>(o.start);
  b.at = static_cast<int8_t>(at);
  b.visited = uint16_t(1u << o.start);
  for (const auto& v : o.visited) {
    const uint16_t bit = uint16_t(1u << v.tile);
    b.visited |= bit;
    if (v.bones) b.bones |= bit;
    if (v.leaves) b.leaves |= bit;
  }
  if (b.bones & (1u << o.start) || b.leaves & (1u << o.start)) bad("the start shows no clue");
  for (auto [t, h] : o.deaths) (h == kTrap ? b.trap : b.monster) |= uint16_t(1u << t);
  for (int t : o.stones) b.stoned |= uint16_t(1u << t);
  if (b.trap & (b.visited | b.monster)) bad("a known trap is visited or also a monster");
  if (!(b.visited >> at & 1)) bad("he stands on a tile he has visited, and this one is not");
  return b.key();
}

Observations belief_observations(uint64_t key, int* at) {
  auto mask = [&](int i) { return static_cast<uint16_t>(key >> (9 * i) & 511); };
  Observations o;
  o.side = kSide;
  o.start = static_cast<int>(key >> 54 & 15);
  if (at) *at = static_cast<int>(key >> 58 & 15);
  for (int t = 0; t < kN; ++t) {
    if ((mask(0) >> t & 1) && t != o.start) o.visited.push_back({t, (mask(1) >> t & 1) != 0, (mask(2) >> t & 1) != 0});
    if (mask(3) >> t & 1) o.deaths.push_back({t, kTrap});
    if (mask(4) >> t & 1) o.deaths.push_back({t, kMonster});
    if (mask(5) >> t & 1) o.stones.push_back(t);
  }
  return o;
}

double optimal_expected_score() {
  const auto& all = worlds();
  double total = 0;
  for (int s = 0; s < kN; ++s) {
    Belief b;
    b.start = static_cast<int8_t>(s);
    b.at = b.start;
    b.visited = uint16_t(1u << s);
    const auto ws = Solver::consistent(b);
    if (ws.empty()) continue;
    double p = 0;
    for (int i : ws) p += all[i].p;
    total += p * solver().best(b, ws).value;
  }
  return total;
}

}  // namespace toadbase::forest
