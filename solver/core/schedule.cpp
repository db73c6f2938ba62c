#include "solver/core/schedule.hpp"

#include "solver/core/packed.hpp"

#include <algorithm>
#include <functional>
#include <numeric>
#include <tuple>

#include <tbb/task_arena.h>

namespace toadbase {
namespace {

/// The levels tier t is held along `level` (the plan's reads): from its level to the last
/// level that reads it; a tier no one reads, its level and the next.
std::pair<uint32_t, uint32_t> held_span(const TierPlan& plan, const std::vector<uint32_t>& last, TierId t) {
  const uint32_t L = plan.level[t];
  return {L, last[t] > L ? last[t] : L + 1};
}

/// A tier of `raw` bytes held packed (packed.hpp): `permille` of them, rounded up.
uint64_t packed_size(uint64_t raw, uint32_t permille) { return (raw * permille + 999) / 1000; }

/// Bytes held at each level (one past the last level too: a tier no one reads at the last),
/// no tier held past level `cap`; with `permille`, a tier whose last reader is `span` or more
/// levels after its own is held raw at its own level and packed from the next (packed_size).
std::vector<uint64_t> profile_of(const TierPlan& plan, const std::vector<uint32_t>& last, const std::vector<TierId>& tiers,
                                 uint32_t base, uint64_t width, uint32_t permille, uint32_t span, uint32_t cap = UINT32_MAX) {
  uint32_t top = 0;
  for (TierId t : tiers) top = std::max(top, std::min(held_span(plan, last, t).second, cap) - base);
  std::vector<int64_t> delta(top + 2, 0);
  for (TierId t : tiers) {
    auto [from, to] = held_span(plan, last, t);
    to = std::min(to, cap);
    const uint64_t raw = plan.size[t] * width;
    const uint64_t later =
        permille && uint64_t{last[t]} >= uint64_t{from} + std::max(span, 1u) ? packed_size(raw, permille) : raw;
    delta[from - base] += static_cast<int64_t>(raw);
    if (from + 1 <= to) delta[from - base + 1] -= static_cast<int64_t>(raw - later);
    delta[to - base + 1] -= static_cast<int64_t>(later);
  }
  std::vector<uint64_t> held(top + 1, 0);
  int64_t now = 0;
  for (uint32_t i = 0; i <= top; ++i) held[i] = static_cast<uint64_t>(now += delta[i]);
  return held;
}

struct Component {
  std::vector<TierId> tiers;  // in id order
  uint32_t base = 0;          // its lowest natural level
  std::vector<uint64_t> profile;
  uint64_t peak = 0;
};

/// The components of the tier DAG (tiers joined by what they read), each with its profile
/// along the plan's levels, largest peak first (ties: lowest tier first).
std::vector<Component> components(const TierPlan& plan, uint64_t width, uint32_t permille, uint32_t span) {
  const TierId n = static_cast<TierId>(plan.reads.size());
  std::vector<TierId> parent(n);
  std::iota(parent.begin(), parent.end(), TierId{0});
  const auto root = [&](TierId t) {
    while (parent[t] != t) t = parent[t] = parent[parent[t]];
    return t;
  };
  for (TierId t = 0; t < n; ++t)
    for (TierId c : plan.reads[t]) {
      const TierId a = root(t), b = root(c);
      if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
  std::vector<uint32_t> index(n, UINT32_MAX);
  std::vector<Component> out;
  for (TierId t = 0; t < n; ++t) {
    const TierId r = root(t);
    if (index[r] == UINT32_MAX) {
      index[r] = static_cast<uint32_t>(out.size());
      out.emplace_back();
      out.back().base = plan.level[t];
    }
    Component& c = out[index[r]];
    c.tiers.push_back(t);
    c.base = std::min(c.base, plan.level[t]);
  }
  const std::vector<uint32_t> last = last_levels(plan.reads, plan.level);
  for (Component& c : out) {
    c.profile = profile_of(plan, last, c.tiers, c.base, width, permille, span);
    c.peak = c.profile.empty() ? 0 : *std::max_element(c.profile.begin(), c.profile.end());
  }
  std::stable_sort(out.begin(), out.end(), [](const Component& a, const Component& b) { return a.peak > b.peak; });
  return out;
}

/// The most bytes every tier of the plan holds at once, none held past level `cap`.
uint64_t peak_of_all(const TierPlan& plan, uint64_t width, uint32_t permille, uint32_t span, uint32_t cap) {
  std::vector<TierId> all(plan.reads.size());
  std::iota(all.begin(), all.end(), TierId{0});
  const std::vector<uint64_t> held = profile_of(plan, last_levels(plan.reads, plan.level), all, 0, width, permille, span, cap);
  return held.empty() ? 0 : *std::max_element(held.begin(), held.end());
}

}  // namespace

uint64_t held_peak(const TierPlan& plan, uint64_t width, uint32_t permille, uint32_t span) {
  return peak_of_all(plan, width, permille, span, UINT32_MAX);
}

uint64_t one_rank_peak(const TierPlan& plan, uint64_t width, uint32_t permille, uint32_t span) {
  // as held_peak, but a tier no one reads is held at its level and the next only within the
  // levels (distribute.cpp's memory() on one rank: its reporter, rank 0, does not read it)
  const uint32_t levels = static_cast<uint32_t>(plan.by_level.size());
  return levels ? peak_of_all(plan, width, permille, span, levels - 1) : 0;
}

uint64_t packed_peak(const TierPlan& plan, uint64_t width, const Packing& packing, uint32_t span) {
  return one_rank_peak(plan, width, packing.permille, span) + packing.overhead;
}

uint64_t packing_overhead(const TierPlan& plan, uint64_t width, uint32_t permille, uint64_t threads) {
  uint64_t largest = 0;
  for (TierId t = 0; t < plan.reads.size(); ++t) largest = std::max(largest, plan.size[t] * width);
  return std::max<uint64_t>(threads, 1) * (UnpackedBlocks::bytes_for(largest) + packed_size(largest, permille));
}

namespace {

/// The smallest budget a solve in one process keeps, and whether it holds tiers packed: the
/// largest component's peak raw, or packed with the overhead when that is less (or always).
std::pair<uint64_t, bool> smallest_of(const TierPlan& plan, uint64_t width, const Packing& packing) {
  const uint64_t raw = smallest_budget(plan, width);
  if (!packing.permille) return {raw, false};
  const uint64_t packed = smallest_budget(plan, width, packing.permille, packing.span()) + packing.overhead;
  const bool use = packing.always || packed < raw;
  return {use ? packed : raw, use};
}

/// The spans of levels a tier is held after its own (its last reader's level less its own),
/// every one that occurs, longest first: packing only the tiers held at least that long packs
/// fewer as the span grows (schedule.hpp).
std::vector<uint32_t> hold_spans(const TierPlan& plan) {
  const std::vector<uint32_t> last = last_levels(plan.reads, plan.level);
  std::vector<uint32_t> spans;
  for (TierId t = 0; t < plan.reads.size(); ++t)
    if (last[t] > plan.level[t]) spans.push_back(last[t] - plan.level[t]);
  std::sort(spans.begin(), spans.end(), std::greater<>());
  spans.erase(std::unique(spans.begin(), spans.end()), spans.end());
  return spans;
}

/// The levels and the holding a budget takes, in the order they cost time (schedule.hpp):
/// raw tiers on the natural levels (`raw_natural_peak` is what they hold), raw tiers with
/// components moved, then (one process) packed tiers, the fewest first: for each span, the
/// longest first, the tiers held at least that long packed, on the natural levels, then with
/// components moved. `always`: the tiers of its span packed (always_span; 1: every tier a
/// later level reads), natural or moved. A budget none keeps gets the natural levels (the
/// caller refuses it, naming their peak).
struct Holding {
  TierPlan levels;  // the plan, its components moved when `fitted`
  bool fitted = false;
  bool packed = false;  // when no schedule keeps the budget: packing.always (the packed peak refused)
  uint32_t span = 1;    // packed: the tiers whose last reader is this many levels or more after their own
};

Holding choose_holding(const TierPlan& plan, uint64_t budget, uint64_t width, const Packing& packing,
                       uint64_t raw_natural_peak) {
  Holding h{plan};
  if (!packing.always || !packing.permille) {
    if (!budget || raw_natural_peak <= budget) return h;
    if (fit_levels(h.levels, budget, width)) {
      h.fitted = true;
      return h;
    }
  }
  if (!packing.permille) return h;  // refused by the caller: the raw natural peak
  h.packed = true;
  const std::vector<uint32_t> spans = packing.always ? std::vector<uint32_t>{packing.span()} : hold_spans(plan);
  for (uint32_t span : spans) {
    h.span = span;
    if (!budget || packed_peak(plan, width, packing, span) <= budget) return h;
    if (budget > packing.overhead && fit_levels(h.levels, budget - packing.overhead, width, packing.permille, span)) {
      h.fitted = true;
      return h;
    }
  }
  h.span = packing.span();
  h.packed = packing.always;
  return h;
}

}  // namespace

BudgetFit fit_one_rank(const TierPlan& plan, uint64_t budget, uint64_t width, const Packing& packing) {
  BudgetFit f;
  const uint64_t raw_natural = one_rank_peak(plan, width);
  std::tie(f.smallest, f.smallest_packed) = smallest_of(plan, width, packing);
  f.natural_peak = raw_natural;
  if (packing.permille) {
    f.packed_natural_peak = packed_peak(plan, width, packing, packing.span());
    if (packing.always) f.natural_peak = f.packed_natural_peak;  // its natural levels hold tiers packed
  }
  const Holding h = choose_holding(plan, budget, width, packing, raw_natural);
  f.fitted = h.fitted;
  f.packed = h.packed;
  f.packed_span = h.packed ? h.span : 0;
  f.peak = h.packed ? packed_peak(h.levels, width, packing, h.span)
           : h.fitted ? one_rank_peak(h.levels, width)
                      : raw_natural;
  return f;
}

uint64_t smallest_budget(const TierPlan& plan, uint64_t width, uint32_t permille, uint32_t span) {
  const std::vector<Component> comps = components(plan, width, permille, span);
  return comps.empty() ? 0 : comps.front().peak;
}

bool fit_levels(TierPlan& plan, uint64_t budget, uint64_t width, uint32_t permille, uint32_t span) {
  const std::vector<Component> comps = components(plan, width, permille, span);
  if (!comps.empty() && comps.front().peak > budget) return false;
  std::vector<uint64_t> placed;  // bytes held at each level by the components placed
  std::vector<uint32_t> level(plan.level.size(), 0);
  for (const Component& c : comps) {
    const std::vector<uint64_t>& prof = c.profile;
    const auto fits_at = [&](size_t s) {
      for (size_t i = 0; i < prof.size(); ++i)
        if ((s + i < placed.size() ? placed[s + i] : 0) + prof[i] > budget) return false;
      return true;
    };
    size_t s = 0;
    while (s < placed.size() && !fits_at(s)) ++s;  // at placed.size() it fits: its peak is within
    if (placed.size() < s + prof.size()) placed.resize(s + prof.size(), 0);
    for (size_t i = 0; i < prof.size(); ++i) placed[s + i] += prof[i];
    for (TierId t : c.tiers) level[t] = static_cast<uint32_t>(s) + plan.level[t] - c.base;
  }
  const uint32_t levels = plan.level.empty() ? 0 : *std::max_element(level.begin(), level.end()) + 1;
  plan.level = std::move(level);
  plan.by_level.assign(levels, {});
  for (TierId t = 0; t < plan.level.size(); ++t) plan.by_level[plan.level[t]].push_back(t);
  plan.last_level = last_levels(plan.reads, plan.level);
  return true;
}

Packing packing_of(const TierPlan& plan, const CostModel& model, int ranks) {
  if (!model.packed_permille || ranks != 1) return {};
  const uint64_t threads = model.packing_threads > 0 ? static_cast<uint64_t>(model.packing_threads)
                           : model.threads.empty()  ? static_cast<uint64_t>(tbb::this_task_arena::max_concurrency())
                                                    : static_cast<uint64_t>(std::max(model.threads[0], 1));
  return {model.packed_permille, packing_overhead(plan, model.record_bytes, model.packed_permille, threads),
          model.always_pack, std::max(model.always_span, 1u)};
}

Distribution distribute_within_budget(TierPlan& plan, const std::vector<char>& skip, int ranks,
                                      const CostModel& model) {
  const Packing packing = packing_of(plan, model, ranks);
  const uint64_t width = model.record_bytes, budget = model.memory_budget;
  Distribution natural = distribute(plan, skip, ranks, model);
  std::tie(natural.smallest_budget, natural.smallest_packed) = smallest_of(plan, width, packing);
  const uint64_t raw_natural = natural.busiest_peak();
  natural.natural_peak = packing.always && packing.permille  // its natural levels hold tiers packed
                             ? packed_peak(plan, width, packing, packing.span())
                             : raw_natural;
  Holding h = choose_holding(plan, budget, width, packing, raw_natural);
  if (!h.fitted && !h.packed) return natural;  // kept on the natural levels, or refused by the caller
  Distribution d = distribute(h.levels, skip, ranks, model);
  if (h.packed) {
    d.packed = true;
    d.packed_span = h.span;
    d.packing_overhead = packing.overhead;
    // the walk's reckoning of one rank (distribute.cpp's, a finished tier held packed after
    // its level), which the tests hold equal to distribute's for tiers held raw
    d.load[0].peak_bytes = packed_peak(h.levels, width, packing, h.span);
  } else if (d.busiest_peak() > budget) {
    return natural;  // not expected: held_peak bounds every rank
  }
  d.fitted = h.packed ? h.levels.level != plan.level : true;
  d.natural_peak = natural.natural_peak;
  d.smallest_budget = natural.smallest_budget;
  d.smallest_packed = natural.smallest_packed;
  plan = std::move(h.levels);
  return d;
}

}  // namespace toadbase
