// Levels that keep a memory budget. The walk holds a tier from its level to the last level
// that reads it (walk.hpp). The natural levels (each tier one above the highest it reads)
// start every component of the tier DAG at level 0, so what is held at once is the sum of
// every component's working set: at 24 cells of Toads and Frogs, 25 components (one per
// number of pieces) and 16 GiB at once, where the largest alone holds about a tenth of it.
// Under a budget the schedule moves whole components later, so fewer run side by side:
//
//     profile(c)[i] = the record bytes component c holds at its own level i, from its
//                     natural levels (a tier from its level to its last reader's; a tier
//                     no one reads, its level and the next, as distribute.cpp reckons it)
//     components by peak, largest first: c starts at the lowest level s where
//         placed[s + i] + profile(c)[i] <= budget for every i
//     a component whose peak alone passes the budget goes after everything placed
//
//     budget 12 GiB, components A (peak 7), B (5), C (4), D (3):
//       level  0 ......... 300 ......... 600
//              A A A A A A A   C C C C C C C
//              B B B B B B B   D D D D D D D       at most 12 at once
//
// Inside a component the natural levels stay: its tiers still run side by side, each
// parallel inside. The smallest budget any such schedule keeps is the largest component's
// peak (components one after another). By the plan's reckoning (distribute.cpp) every rank
// of a distributed solve holds at most what one rank holding every tier would, level by
// level, so a schedule that fits one rank fits each. Outside that reckoning: a rank that
// runs ahead may send another the pieces of a later level early, and a resumed solve that
// rebuilds a committed tier holds, for the moment, the tiers the rebuild reads (its tail's
// source).
//
// When no schedule of raw tiers keeps the budget, a solve in one process may hold its
// finished tiers packed (packed.hpp): a tier is raw at its own level and packed from the next
// to its last reader's, at a share of its bytes the plan assumes (CostModel::packed_permille;
// the walk reports the share it met), read a block at a time through each thread's cache:
//
//     held at a level = the level's tiers, raw + the tiers held for later levels, packed
//                       + threads x (a cache of unpacked blocks + the largest tier packed,
//                                    made while its raw records are still held)  (overhead)
//
// The same two schedules then run on that reckoning: the natural levels, else components
// moved. Packing costs time (every such tier compressed once and unpacked by each reader), so
// it is the last resort: a budget that raw tiers keep, moved or not, is kept raw. And it packs
// the fewest tiers that keep the budget: a tier's span, the levels from its own to its last
// reader's, says how long packing it saves its bytes; for each span that occurs, the longest
// first, the tiers held at least that long are packed (natural levels, then moved), down to
// span 1, every tier a later level reads (the smallest budget; --hold-compressed's):
//
//     Toads and Frogs: a toads' tier is read by the next level only (span 1), a frogs'
//     tier by the next and the one three on (span 3): half the bytes. At 24 cells the
//     largest component holds 2.83 GiB raw, 2.05 GiB with the frogs' tiers packed and
//     1.79 GiB with every finished tier packed (45 %; each with the overhead on top).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "solver/core/distribute.hpp"

namespace toadbase {

/// The record bytes one rank that solved every tier would hold at once along the plan's
/// levels, `width` bytes a record (distribute.cpp's reckoning, or above it).
/// With `permille`, a finished tier whose last reader is `span` or more levels after its own
/// (span 1: any later level) is held packed at that share from the level after its own (the
/// overhead of unpacking not counted: Packing).
uint64_t held_peak(const TierPlan& plan, uint64_t width, uint32_t permille = 0, uint32_t span = 1);

/// Exactly the peak distribute() reckons for one rank that solves every tier (nothing
/// skipped) along the plan's levels, without making the plan (`permille` as held_peak's).
uint64_t one_rank_peak(const TierPlan& plan, uint64_t width, uint32_t permille = 0, uint32_t span = 1);

/// The smallest budget a schedule of whole components keeps: the largest component's peak.
uint64_t smallest_budget(const TierPlan& plan, uint64_t width, uint32_t permille = 0, uint32_t span = 1);

/// Moves components of the plan to later levels (by_level and last_level follow) so that
/// held_peak stays within `budget`, when the budget is at least smallest_budget. Returns
/// false, the plan unchanged, when it is not.
bool fit_levels(TierPlan& plan, uint64_t budget, uint64_t width, uint32_t permille = 0, uint32_t span = 1);

/// Finished tiers held packed (the top of this file): the share the plan assumes, and what
/// the pieces running at once hold besides.
struct Packing {
  uint32_t permille = 0;  // 0: held raw
  uint64_t overhead = 0;  // bytes
  bool always = false;    // packed whatever the budget (CostModel::always_pack)
  uint32_t always_span = 1;  // then: the tiers last read this many levels on or more
  /// The span packed when no budget chooses one: always_span when always, else 1 (every
  /// tier a later level reads: the smallest budget).
  uint32_t span() const { return always ? always_span : 1; }
};
/// What one rank holds at once on the plan's levels (one_rank_peak) with the finished tiers
/// last read `span` or more levels on held packed, and the packing's overhead on top.
uint64_t packed_peak(const TierPlan& plan, uint64_t width, const Packing& packing, uint32_t span);
/// What `threads` threads hold besides the held tiers when tiers are packed: each its cache
/// of unpacked blocks (packed.hpp) and a tier it packs while its raw records are held.
uint64_t packing_overhead(const TierPlan& plan, uint64_t width, uint32_t permille, uint64_t threads);
/// The packing a solve of `ranks` ranks may use under `model` (none: model.packed_permille
/// is 0, or several ranks); the threads are model.threads[0], or this arena's.
Packing packing_of(const TierPlan& plan, const CostModel& model, int ranks);

/// The plan of a solve within model.memory_budget: `plan`'s natural levels when the busiest
/// rank's peak fits the budget (or there is none), else its components moved later
/// (fit_levels; `plan` is changed, and the result says fitted), else in one process the
/// fewest finished tiers packed that keep it (the top of this file; the result says packed
/// and the span). When no schedule fits, the natural plan: its busiest rank passes the
/// budget and the caller refuses.
Distribution distribute_within_budget(TierPlan& plan, const std::vector<char>& skip, int ranks,
                                      const CostModel& model);

/// What distribute_within_budget's plan on one rank (nothing skipped) holds under `budget`
/// (0: none), reckoned without making the plan: a check before a solve in one process.
struct BudgetFit {
  uint64_t peak = 0;          // the records held at once, on the levels the solve takes
  uint64_t natural_peak = 0;  // on the natural levels
  uint64_t smallest = 0;      // smallest_budget (packed, with its overhead, when less)
  bool fitted = false;        // the levels moved
  bool packed = false;        // finished tiers held packed (peak: with the overhead)
  uint64_t packed_natural_peak = 0;  // packed (span 1, or always_span) on the natural levels, with the overhead (0: no packing)
  bool smallest_packed = false;      // `smallest` holds the finished tiers packed
  uint32_t packed_span = 0;          // packed: the tiers whose last reader is this many levels on or more
  /// The smallest budget that works: the natural peak, or the largest component's when less.
  uint64_t least() const { return smallest ? std::min(natural_peak, smallest) : peak; }
};
BudgetFit fit_one_rank(const TierPlan& plan, uint64_t budget, uint64_t width, const Packing& packing = {});
/// The same figures of a plan distribute_within_budget made.
inline BudgetFit budget_fit_of(const Distribution& d) {
  return {d.busiest_peak(), d.natural_peak, d.smallest_budget, d.fitted, d.packed, 0, d.smallest_packed,
          d.packed ? d.packed_span : 0u};
}

}  // namespace toadbase
