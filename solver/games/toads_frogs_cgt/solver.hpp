// Solving a CGT database: every stored board's canonical value (boards.hpp), the table of
// distinct forms (forms.hpp), committed class by class.
//
//   for each length m = 1..n:                     (a class reads only itself and shorter ones)
//     workers (one a core) take the classes of m in order, each:
//       solve:  SA from high to low; the toad sets of one SA side by side (TBB), each toad
//               set's frog sets in rank order; a board's value = make(its Toads' children's
//               values | its Frogs' children's values). A child that loses a dead piece is
//               looked up, stripped (and mirrored, negated), in a shorter class held in
//               memory. For t = f, a board whose mirror was solved at a higher SA is that
//               value's negative.
//       commit, in class order (whichever worker finishes the next class does it): number
//               the class's values (forms.hpp), describe its new forms (text, stops, mean,
//               temperature, atomic weight: in parallel, a batch at a time), commit the
//               chunk's three tiers, then the board tier; keep the class's values in memory
//               when a longer class reads it
//
// Memory: the values of the classes of one cell fewer that a class left to solve reads (a
// move that kills a piece strips one cell; a class's values are let go once the two classes
// that read them are solved: 4 bytes a board, at most the boards of n - 1 cells), the
// classes in flight, the FormTable (its records, options, index and the hot forms'
// thermographs: 40 bytes a form's record), and the chunk being committed: its text (up to
// 1.1 billion characters at 20 cells) held compressed a frame of a million characters at a
// time, which the store widens into its 4-byte records a block's run at a time as it packs
// them (TierStore::commit_tier_from); and each thread's texts printed before (cgt::PrintMemo,
// kept for the whole solve, one a thread: at most 2^24 characters of text, its map's nodes
// not counted; measured at 18 cells, about 40 MB a thread), which describing a form copies
// its followers' texts from.
//
// Resume: the classes whose four tiers (boards, columns, options, text) were all committed,
// in order, are read back (their forms made again from their options, in id order), and the
// solve goes on from the first class that is missing one; a class committed past that point
// is solved and committed again (the same records).
#pragma once

#include "solver/core/engine.hpp"
#include "solver/core/progress.hpp"
#include "solver/core/store.hpp"
#include "solver/games/toads_frogs_cgt/boards.hpp"

namespace toadbase::toads_frogs_cgt {

/// text_cap: the longest text stored (forms.hpp, LONG FORMS).
SolveStats solve_database(const Boards& boards, TierStore& store, Progress* progress, uint64_t text_cap);

}  // namespace toadbase::toads_frogs_cgt
