#include "solver/games/river_toad/prefixes.hpp"

#include <array>
#include <map>

namespace toadbase::river_toad {

Prefixes prefix_outcomes(const std::vector<uint8_t>& rolls, const Rules& rules, uint64_t count_budget) {
  const int N = static_cast<int>(rolls.size());
  Prefixes out;
  out.best_hp.assign(N, -1);
  std::array<int, kColumns> best{};
  best.fill(-1);
  best[rules.start_column] = rules.start_hp;
  for (int k = 0; k < N; ++k) {
    std::array<int, kColumns> next{};
    next.fill(-1);
    for (int c = kFirstRiver; c <= kLastRiver; ++c) {
      if (best[c] < 0) continue;
      for (int a = 0; a < kActions; ++a) {
        if (!legal(c, a)) continue;
        const Step s = step(rolls, State{k, c, best[c]}, a, rules);
        if (s.death == Death::None && s.next.hp > next[s.next.column]) next[s.next.column] = s.next.hp;
      }
    }
    best = next;
    for (int c = kFirstRiver; c <= kLastRiver; ++c) out.best_hp[k] = std::max(out.best_hp[k], best[c]);
  }
  if (count_budget == kNoCounts) return out;
  out.surviving.reserve(N);
  std::array<std::map<int, BigCount>, kColumns> now, next;
  now[rules.start_column][rules.start_hp] = BigCount(1);
  uint64_t spent = 0;
  for (int k = 0; k < N; ++k) {
    for (auto& m : next) m.clear();
    for (int c = kFirstRiver; c <= kLastRiver; ++c)
      for (const auto& [hp, count] : now[c])
        for (int a = 0; a < kActions; ++a) {
          if (!legal(c, a)) continue;
          const Step s = step(rolls, State{k, c, hp}, a, rules);
          if (s.death == Death::None) next[s.next.column][s.next.hp] += count, spent += count.limbs() + 1;
        }
    now.swap(next);
    BigCount total;
    for (int c = kFirstRiver; c <= kLastRiver; ++c)
      for (const auto& [hp, count] : now[c]) total += count, spent += count.limbs() + 1;
    out.surviving.push_back(std::move(total));
    out.counted = out.surviving.size();
    if (spent > count_budget) break;
  }
  return out;
}

}  // namespace toadbase::river_toad
