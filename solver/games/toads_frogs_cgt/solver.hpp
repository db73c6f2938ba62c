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
// The FormTable is not held whole: once it has grown by a quarter since it was last compacted
// (and holds at least compact_floor forms), the workers take no new class, and with none in
// flight it is compacted (FormTable::survivors, compact): the forms no held class's value
// leads to are let go (a class of the last length is read by no class, nor are the forms of
// a shorter class once the classes that read it are solved), the held values renamed. A
// numbered form let go is kept as a print (forms.hpp, FORMS LET GO: 18-37 bytes a form), so a
// form made again is given its old id: the database is the same, digest included.
//
// Resume: the classes whose four tiers (boards, columns, options, text) were all committed,
// in order, are read back (their forms made again from their options, in id order), and the
// solve goes on from the first class that is missing one; a class committed past that point
// is solved and committed again (the same records). The table is read back whole (a later
// chunk names earlier forms as options) and compacted once before the solve goes on.
#pragma once

#include "solver/core/engine.hpp"
#include "solver/core/progress.hpp"
#include "solver/core/store.hpp"
#include "solver/games/toads_frogs_cgt/boards.hpp"

namespace toadbase::toads_frogs_cgt {

/// text_cap: the longest text stored (forms.hpp, LONG FORMS). compact_floor: the table is
/// not compacted below this many forms (0 in tests: at nearly every class).
/// `table`, when given, gets how the form table went.
inline constexpr uint64_t kCompactFloor = uint64_t{1} << 20;
struct TableStats {
  uint64_t compactions = 0;
  uint64_t forms_let_go = 0;     // numbered or not, over every compaction
  uint64_t forms_made_again = 0;  // numbered forms let go and given their ids back
  uint64_t largest = 0;           // forms in the table at its largest
  uint64_t prints = 0;            // numbered forms ever let go (their prints, kept to the end)
};
SolveStats solve_database(const Boards& boards, TierStore& store, Progress* progress, uint64_t text_cap,
                          uint64_t compact_floor = kCompactFloor, TableStats* table = nullptr);

}  // namespace toadbase::toads_frogs_cgt
