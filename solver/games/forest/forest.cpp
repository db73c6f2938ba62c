#include "solver/games/forest/forest.hpp"

#include <algorithm>
#include <deque>
#include <stdexcept>

namespace toadbase::forest {

std::vector<int> neighbours(int side, int t) {
  std::vector<int> out;
  const int r = t / side, c = t % side;
  if (r > 0) out.push_back(t - side);
  if (c > 0) out.push_back(t - 1);
  if (c + 1 < side) out.push_back(t + 1);
  if (r + 1 < side) out.push_back(t + side);
  return out;
}

std::vector<int> Forest::neighbours(int t) const { return forest::neighbours(side, t); }

std::vector<int> Forest::eligible_starts() const {
  std::vector<int> out;
  for (int t = 0; t < tiles(); ++t)
    if (content[t] == kEmpty && !bones[t] && !leaves[t] && t != portal) out.push_back(t);
  return out;
}

void place_clues(Forest& f) {
  f.bones.assign(f.tiles(), 0);
  f.leaves.assign(f.tiles(), 0);
  for (int t = 0; t < f.tiles(); ++t)
    for (int u : f.neighbours(t)) {
      if (f.content[t] == kMonster) f.bones[u] = 1;
      if (f.content[t] == kTrap) f.leaves[u] = 1;
    }
}

Forest generate(int side, std::mt19937_64& rng) {
  Forest f;
  f.side = side;
  while (true) {
    f.content.assign(side * side, kEmpty);
    for (auto& c : f.content) {
      const uint64_t u = rng() % 20;
      c = u == 0 ? kMonster : u == 1 ? kTrap : kEmpty;
    }
    f.portal = static_cast<int>(rng() % static_cast<uint64_t>(side * side));
    f.content[f.portal] = kEmpty;
    place_clues(f);
    const auto e = f.eligible_starts();
    if (e.empty()) continue;  // the fix: draw the whole forest again
    f.start = e[rng() % e.size()];
    return f;
  }
}

Forest generate(int side, uint64_t seed, uint64_t index) {
  // splitmix64 of (seed, index): each forest its own stream
  uint64_t z = seed * 0x9E3779B97F4A7C15ull + index + 0x632BE59BD9B4E019ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  std::mt19937_64 rng(z);
  return generate(side, rng);
}

std::vector<std::string> Forest::picture() const {
  std::vector<std::string> rows;
  for (int r = 0; r < side; ++r) {
    std::string row;
    for (int c = 0; c < side; ++c) {
      const int t = r * side + c;
      char ch = t == portal ? 'P' : content[t] == kMonster ? 'M' : content[t] == kTrap ? 'T' : t == start ? 'S' : '.';
      row += ch;
    }
    rows.push_back(row);
  }
  return rows;
}

bool portal_reachable(const Forest& f, const std::vector<uint8_t>& known_trap) {
  std::vector<uint8_t> seen(f.tiles(), 0);
  std::deque<int> q{f.start};
  seen[f.start] = 1;
  while (!q.empty()) {
    const int t = q.front();
    q.pop_front();
    if (t == f.portal) return true;
    for (int u : f.neighbours(t))
      if (!seen[u] && !known_trap[u]) seen[u] = 1, q.push_back(u);
  }
  return false;
}

std::string tile_name(int side, int t) { return "[" + std::to_string(t / side) + ", " + std::to_string(t % side) + "]"; }

Episode play(const Forest& f, Agent& agent, bool log) {
  const int n = f.tiles();
  Knowledge k;
  k.side = f.side;
  k.start = f.start;
  k.visited.assign(n, 0);
  k.bones.assign(n, 0);
  k.leaves.assign(n, 0);
  k.known_trap.assign(n, 0);
  k.known_monster.assign(n, 0);
  k.stoned.assign(n, 0);
  std::vector<uint8_t> alive_monster(n, 0);
  for (int t = 0; t < n; ++t) alive_monster[t] = f.content[t] == kMonster;
  auto visit = [&](int t) {
    k.visited[t] = 1;
    k.bones[t] = f.bones[t];
    k.leaves[t] = f.leaves[t];
  };
  Episode e;
  int at = f.start;
  visit(at);
  agent.begin(k, &f);
  const int limit = 100 * n;
  for (int step = 0; step < limit; ++step) {
    const Action a = agent.next(k, at);
    if (a.kind == Action::GiveUp) break;
    const auto nb = f.neighbours(at);
    if (std::find(nb.begin(), nb.end(), a.tile) == nb.end())
      throw std::logic_error(agent.name() + ": an action aimed at a tile that is not a neighbour");
    if (a.kind == Action::Shoot) {
      ++e.stones;
      e.score -= 10;
      k.stoned[a.tile] = 1;
      alive_monster[a.tile] = 0;
      if (log) e.steps.push_back({a, "stone at " + tile_name(f.side, a.tile), at, e.score, k});
      continue;
    }
    ++e.moves;
    e.score -= 1;
    const int t = a.tile;
    if (alive_monster[t] || f.content[t] == kTrap) {
      ++e.deaths;
      e.score -= 10L * n;
      if (f.content[t] == kTrap) k.known_trap[t] = 1;
      else k.known_monster[t] = 1;
      at = f.start;
      if (log)
        e.steps.push_back({a, "move to " + tile_name(f.side, t) + ": killed by a " +
                                  (f.content[t] == kTrap ? "trap" : "monster") + ", back to the start",
                           at, e.score, k});
      agent.died(k, t);
      if (f.content[t] == kTrap && !portal_reachable(f, k.known_trap)) {
        e.stuck = true;
        return e;
      }
      continue;
    }
    at = t;
    if (t == f.portal) {
      e.portal = true;
      e.score += 10L * n;
      if (log) e.steps.push_back({a, "move to " + tile_name(f.side, t) + ": the portal", at, e.score, k});
      return e;
    }
    visit(t);
    if (log)
      e.steps.push_back({a, "move to " + tile_name(f.side, t) + (f.bones[t] ? " (bones)" : "") + (f.leaves[t] ? " (leaves)" : ""),
                         at, e.score, k});
  }
  e.stuck = true;
  return e;
}

}  // namespace toadbase::forest
