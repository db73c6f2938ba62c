#include "solver/games/river_toad/algorithms.hpp"

#include <algorithm>
#include <queue>
#include <stdexcept>
#include <array>

namespace toadbase::river_toad {

namespace {

constexpr int kNone = -1;

// A search node in an arena: its state and how it was reached.
struct Node {
  int32_t parent;
  int32_t hp;
  int32_t turn;
  int8_t column;
  int8_t action;
};

std::vector<int> path_to(const std::vector<Node>& arena, int32_t i) {
  std::vector<int> out;
  for (; arena[i].parent >= 0; i = arena[i].parent) out.push_back(arena[i].action);
  std::reverse(out.begin(), out.end());
  return out;
}

PlanResult finish(const char* name, const std::vector<Node>& arena, int32_t goal, uint64_t nodes, bool gave_up) {
  PlanResult r;
  r.algorithm = name;
  r.nodes_expanded = nodes;
  r.gave_up = gave_up;
  if (goal >= 0) {
    r.survived = true;
    r.actions = path_to(arena, goal);
    r.final_hp = arena[goal].hp;
  }
  return r;
}

}  // namespace

PlanResult solve_dp(const std::vector<uint8_t>& rolls, const Rules& rules) {
  const int N = static_cast<int>(rolls.size());
  PlanResult r;
  r.algorithm = "dp";
  std::vector<int> best(static_cast<size_t>(N + 1) * kColumns, kNone);
  std::vector<int8_t> how(static_cast<size_t>(N + 1) * kColumns, -1);
  best[rules.start_column] = rules.start_hp;
  int last_alive = 0;
  for (int k = 0; k < N; ++k) {
    bool any = false;
    for (int c = kFirstRiver; c <= kLastRiver; ++c) {
      for (int a = 0; a < kActions; ++a) {
        const int from = c - kShift[a];
        if (from < kFirstRiver || from > kLastRiver) continue;
        const int hp = best[k * kColumns + from];
        if (hp == kNone) continue;
        ++r.nodes_expanded;
        const Step s = step(rolls, State{k, from, hp}, a, rules);
        if (s.death != Death::None) continue;
        int& slot = best[(k + 1) * kColumns + c];
        if (s.next.hp > slot) {
          slot = s.next.hp;
          how[(k + 1) * kColumns + c] = static_cast<int8_t>(a);
          any = true;
        }
      }
    }
    if (!any) break;
    last_alive = k + 1;
  }
  auto back = [&](int k, int c) {
    std::vector<int> plan(k);
    for (int t = k; t > 0; --t) {
      const int a = how[t * kColumns + c];
      plan[t - 1] = a;
      c -= kShift[a];
    }
    return plan;
  };
  int end = kNone;
  for (int c = kFirstRiver; c <= kLastRiver; ++c)
    if (best[last_alive * kColumns + c] != kNone && (end == kNone || best[last_alive * kColumns + c] > best[last_alive * kColumns + end]))
      end = c;
  r.actions = back(last_alive, end);
  r.final_hp = best[last_alive * kColumns + end];
  if (last_alive == N) {
    r.survived = true;
    return r;
  }
  // no surviving plan: the longest, then the move that dies with the most HP
  int dying = kNone, dying_hp = -1;
  for (int a = 0; a < kActions; ++a) {
    if (!legal(end, a)) continue;
    const Step s = step(rolls, State{last_alive, end, r.final_hp}, a, rules);
    if (s.next.hp > dying_hp) dying = a, dying_hp = s.next.hp;
  }
  r.actions.push_back(dying);
  r.final_hp = dying_hp;
  return r;
}

PlanResult solve_bfs(const std::vector<uint8_t>& rolls, const Rules& rules, uint64_t budget) {
  const int N = static_cast<int>(rolls.size());
  std::vector<Node> arena{{-1, rules.start_hp, 0, static_cast<int8_t>(rules.start_column), -1}};
  size_t layer_begin = 0, layer_end = 1;
  uint64_t nodes = 0;
  std::vector<Node> next;
  for (int k = 0; k < N; ++k) {
    next.clear();
    for (size_t i = layer_begin; i < layer_end; ++i) {
      ++nodes;
      const Node n = arena[i];
      for (int a = 0; a < kActions; ++a) {
        if (!legal(n.column, a)) continue;
        const Step s = step(rolls, State{k, n.column, n.hp}, a, rules);
        if (s.death != Death::None) continue;
        next.push_back({static_cast<int32_t>(i), s.next.hp, k + 1, static_cast<int8_t>(s.next.column), static_cast<int8_t>(a)});
      }
    }
    // the next layer keeps, per column, the first state with the most HP: the others are
    // dominated (the same column with no more HP) and can reach no better end
    std::array<int, kColumns> most;
    most.fill(-1);
    for (const Node& n : next) most[n.column] = std::max(most[n.column], n.hp);
    layer_begin = arena.size();
    for (const Node& n : next)
      if (n.hp == most[n.column]) {
        arena.push_back(n);
        most[n.column] = -2;  // taken
      }
    layer_end = arena.size();
    if (arena.size() > budget) return finish("bfs", arena, -1, nodes, true);
    if (layer_begin == layer_end) return finish("bfs", arena, -1, nodes, false);
  }
  int32_t goal = -1;
  for (size_t i = layer_begin; i < layer_end; ++i)
    if (goal < 0 || arena[i].hp > arena[goal].hp) goal = static_cast<int32_t>(i);
  return finish("bfs", arena, goal, nodes, false);
}

PlanResult solve_dfs(const std::vector<uint8_t>& rolls, const Rules& rules, uint64_t budget) {
  const int N = static_cast<int>(rolls.size());
  std::vector<int> failed(static_cast<size_t>(N + 1) * kColumns, -1);  // highest HP known to fail
  struct Frame {
    int column, hp, next_action;
  };
  std::vector<Frame> stack{{rules.start_column, rules.start_hp, 0}};
  std::vector<int> plan;
  uint64_t nodes = 1;
  PlanResult r;
  r.algorithm = "dfs";
  while (!stack.empty()) {
    const int k = static_cast<int>(stack.size()) - 1;
    if (k == N) {
      r.survived = true;
      r.actions = plan;
      r.final_hp = stack.back().hp;
      r.nodes_expanded = nodes;
      return r;
    }
    Frame& f = stack.back();
    bool pushed = false;
    while (f.next_action < kActions) {
      const int a = f.next_action++;
      if (!legal(f.column, a)) continue;
      const Step s = step(rolls, State{k, f.column, f.hp}, a, rules);
      if (s.death != Death::None || s.next.hp <= failed[(k + 1) * kColumns + s.next.column]) continue;
      plan.push_back(a);
      stack.push_back({s.next.column, s.next.hp, 0});
      pushed = true;
      if (++nodes > budget) {
        r.gave_up = true;
        r.nodes_expanded = nodes;
        return r;
      }
      break;
    }
    if (pushed) continue;
    int& fl = failed[k * kColumns + f.column];
    fl = std::max(fl, f.hp);
    stack.pop_back();
    if (!plan.empty()) plan.pop_back();
  }
  r.nodes_expanded = nodes;
  return r;
}

std::vector<int64_t> relaxed_cost_to_go(const std::vector<uint8_t>& rolls, const Rules& rules) {
  const int N = static_cast<int>(rolls.size());
  std::vector<int64_t> h((rolls.size() + 1) * kColumns, -1);
  std::fill(h.end() - kColumns + kFirstRiver, h.end() - (kColumns - 1 - kLastRiver), 0);
  for (int k = N - 1; k >= 0; --k)
    for (int c = kFirstRiver; c <= kLastRiver; ++c) {
      int64_t best = -1;
      for (int a = 0; a < kActions; ++a) {
        if (!legal(c, a)) continue;
        const int to = c + kShift[a];
        const int64_t rest = h[(k + 1) * kColumns + to];
        if (rest < 0) continue;
        int64_t cost = std::min(kCost[a], 1);
        if (k + 1 > kDelay) {
          const int roll = rolls[k - kDelay];
          if ((snake_columns(roll) >> to) & 1) continue;
          const bool fly = roll == kLeftFlyRoll || roll == kRightFlyRoll;
          const bool eat = (roll == kLeftFlyRoll && to == kFirstRiver) || (roll == kRightFlyRoll && to == kLastRiver);
          if (fly && !eat) cost += rules.fly_hp;
        }
        if (best < 0 || cost + rest < best) best = cost + rest;
      }
      h[k * kColumns + c] = best;
    }
  return h;
}

namespace {

// Best-first search: priority (key, -turn, -hp, order); astar keys on g + h, greedy on h.
PlanResult best_first(const char* name, bool use_g, const std::vector<uint8_t>& rolls, const Rules& rules,
                      uint64_t budget) {
  const int N = static_cast<int>(rolls.size());
  const std::vector<int64_t> h = relaxed_cost_to_go(rolls, rules);
  std::vector<int> flies_by(N + 1, 0);  // flies that reached the bottom in turns 1..k
  for (int k = 1; k <= N; ++k)
    flies_by[k] = flies_by[k - 1] + (k > kDelay && fly_column(rolls[k - 1 - kDelay]) >= 0 ? 1 : 0);
  std::vector<Node> arena{{-1, rules.start_hp, 0, static_cast<int8_t>(rules.start_column), -1}};
  struct Item {
    int64_t key;
    int turn, hp;
    int32_t node;
    bool operator<(const Item& o) const {  // std::priority_queue pops the largest
      if (key != o.key) return key > o.key;
      if (turn != o.turn) return turn < o.turn;
      if (hp != o.hp) return hp < o.hp;
      return node > o.node;
    }
  };
  auto key_of = [&](int turn, int column, int hp) -> int64_t {
    const int64_t hv = h[turn * kColumns + column];
    if (!use_g) return hv;
    const int64_t g = int64_t(rules.start_hp) + int64_t(rules.fly_hp) * flies_by[turn] - hp;
    return g + hv;
  };
  std::priority_queue<Item> open;
  // the most HP closed per (turn, column): a state with no more HP is dominated
  std::vector<int> closed_hp((rolls.size() + 1) * kColumns, -1);
  if (h[rules.start_column] >= 0) open.push({key_of(0, rules.start_column, rules.start_hp), 0, rules.start_hp, 0});
  uint64_t nodes = 0;
  while (!open.empty()) {
    const Item it = open.top();
    open.pop();
    const Node n = arena[it.node];
    int& best_closed = closed_hp[n.turn * kColumns + n.column];
    if (n.hp <= best_closed) continue;
    best_closed = n.hp;
    ++nodes;
    if (n.turn == N) return finish(name, arena, it.node, nodes, false);
    if (nodes > budget) return finish(name, arena, -1, nodes, true);
    for (int a = 0; a < kActions; ++a) {
      if (!legal(n.column, a)) continue;
      const Step s = step(rolls, State{n.turn, n.column, n.hp}, a, rules);
      if (s.death != Death::None || h[(n.turn + 1) * kColumns + s.next.column] < 0) continue;
      if (s.next.hp <= closed_hp[(n.turn + 1) * kColumns + s.next.column]) continue;
      arena.push_back({it.node, s.next.hp, n.turn + 1, static_cast<int8_t>(s.next.column), static_cast<int8_t>(a)});
      open.push({key_of(n.turn + 1, s.next.column, s.next.hp), n.turn + 1, s.next.hp,
                 static_cast<int32_t>(arena.size() - 1)});
    }
  }
  return finish(name, arena, -1, nodes, false);
}

}  // namespace

PlanResult solve_greedy(const std::vector<uint8_t>& rolls, const Rules& rules, uint64_t budget) {
  return best_first("greedy", false, rolls, rules, budget);
}

PlanResult solve_astar(const std::vector<uint8_t>& rolls, const Rules& rules, uint64_t budget) {
  return best_first("astar", true, rolls, rules, budget);
}

const std::vector<std::string>& algorithm_names() {
  static const std::vector<std::string> names = {"bfs", "dfs", "greedy", "astar", "dp"};
  return names;
}

PlanResult solve_with(const std::string& algorithm, const std::vector<uint8_t>& rolls, const Rules& rules,
                      uint64_t budget) {
  if (algorithm == "bfs") return solve_bfs(rolls, rules, budget);
  if (algorithm == "dfs") return solve_dfs(rolls, rules, budget);
  if (algorithm == "greedy") return solve_greedy(rolls, rules, budget);
  if (algorithm == "astar") return solve_astar(rolls, rules, budget);
  if (algorithm == "dp") return solve_dp(rolls, rules);
  throw std::invalid_argument("--algorithm must be bfs, dfs, greedy, astar, dp or all, not '" + algorithm + "'");
}

}  // namespace toadbase::river_toad
