// The tier engine: solve, verify and probe a loop-free game whose space is a DAG of tiers
// (solver/core/game.hpp). One walker of the tier DAG (walk.hpp) serves solve and verify:
//
//   level(t) = 0 for a tier that reads no tier, else 1 + the highest level of the tiers it
//              reads (its child tiers, and the source of its tail when it has one); under a
//              memory budget whole components of the DAG start later (schedule.hpp)
//   for each level, lowest first:
//       pass over the tiers the caller skips (a resumed solve: committed by an earlier run)
//       make sure every tier the level's tiers read is in memory (recovered if need be, or
//       in a distributed solve received from the rank that solved it)
//       run this rank's pieces of the level's tiers side by side, each parallel inside
//       (TBB); keep a tier while a later level here reads it, send it to the ranks that do
//       free every tier no later level reads
//
//   one process    every tier is one piece on rank 0, nothing is sent: the solve as it
//                  always was
//   distributed    the plan (distribute.hpp) says which rank solves which tier, or which
//                  piece of a large one; a finished piece goes to the ranks that read it
//                  (exchange.hpp, over a Transport), a finished tier to rank 0, which
//                  alone writes the store (packed where it was solved: TierPacker)
//
//   solve    a tier = game.scan over its prefix (the hot loop: records combined from the
//            children's records), its tail copied from its source; committed to the store
//            (solve.hpp)
//   verify   a tier = every position recomputed through the generic path (unrank, children,
//            rank), compared with the stored records and the tier's digest; then a sample of
//            its positions probed as a lookup does (verify.hpp)
//   probe    one position: canonical(p), then its stored record, or one ply from stored
//            children for a derived tier (a shorter board is embedded first) (probe.hpp)
//
// The tiers of one level never read each other, so they run side by side: many small tiers
// keep both cores busy where one of them alone would not fill a task. Memory is the tiers
// in flight (the current level and the levels it reads), not the space. The hot loop reads
// finished tiers only: no counters, atomics or locks, and the result does not depend on the
// thread count, the number of ranks or the order in which tiers finish.
//
// Records: a tier is an array of the record type's Storage (one byte for ParityRecord and
// PuzzleRecord, two for WideParityRecord): every function here takes the record type Rec and
// works on its Storage.
#pragma once

#include "solver/core/probe.hpp"
#include "solver/core/solve.hpp"
#include "solver/core/verify.hpp"
#include "solver/core/walk.hpp"
