// The plan of a distributed solve: which rank solves which tier (or which piece of a large
// tier), who reports each tier to rank 0, what crosses the wire, and an estimate of each
// rank's work, traffic and memory. Every rank computes the same plan from the same inputs
// (integer arithmetic only, so it does not depend on the machine), and the engine checks
// that they agree before it starts.
//
// The walk takes the tier DAG level by level (engine.hpp). A tier of level L reads tiers of
// lower levels only, so a rank can solve its level-L pieces as soon as the tiers they read
// have arrived: no rank waits for a level to end anywhere else.
//
//     tier t, split when large:   [0 ........ prefix)[tail)     pieces: index ranges of the
//                                 [ piece 0 )[ piece 1 ....... ]   prefix; the last one takes
//                                                                 the tail (copied, not scanned)
//
// Components first: tiers joined by what they read form components of the DAG (Toads and
// Frogs: one a piece count, since moves and tails keep the number of pieces). A component
// that fits one rank's share of the work is solved whole on one rank (the largest first, on
// the least loaded rank), so its tiers never cross the wire; a larger one gets a group of
// ranks, as many as its share, and its large tiers are cut in pieces. A component's work is
// its tiers' scans and tail copies and the compression of their kept records; rank 0 starts
// loaded with writing every tier to the database, so it gets less of the rest.
//
// Assignment: levels lowest first; inside a level the largest pieces first, each to the rank
// of its group where it would finish earliest, counting the time its inputs need to arrive
// from other ranks (an input already on the rank costs nothing). That keeps a tier next to
// the tiers it reads unless another rank is idle long enough to be worth the transfer.
//
// Reports: rank 0 writes every tier. The rank that holds a tier whole first tells it: rank 0
// itself when it reads the tier or solves all of it (it commits it), else the solver of an
// unsplit tier, else the lowest-numbered reader of a split one; a split tier that nobody
// reads goes whole to rank 0. A reporter other than rank 0 sends the tier's kept records and
// its digest (solver/core/hash.hpp) to rank 0, packed as the database stores them, together
// with the other tiers it finished in the same level: one message a level (a message a tier,
// thousands of small ones, kept the sender waiting on a full channel until rank 0 read them
// between its own levels: a third of a length-18 solve on 2 ranks).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "solver/core/store.hpp"

namespace toadbase {

/// Which tiers read which, and in which order the walk takes them (engine.hpp's plan_tiers
/// fills it from a game).
struct TierPlan {
  std::vector<std::vector<TierId>> reads;     // [t]: its child tiers, then its tail's source
  std::vector<char> tail;                     // [t]: 1 when reads[t].back() is its tail's source
  std::vector<uint32_t> level;                // [t]
  std::vector<std::vector<TierId>> by_level;  // [L]: the tiers of level L, in id order
  std::vector<uint32_t> last_level;           // [t]: the last level that reads t (0: none)
  std::vector<uint64_t> size, prefix, kept;   // [t]: records; scanned; kept by the store
};

/// The last level that reads each tier (0 for a tier no level reads): a tier is held until
/// that level is done (TierPlan::last_level).
inline std::vector<uint32_t> last_levels(const std::vector<std::vector<TierId>>& reads,
                                         const std::vector<uint32_t>& level) {
  std::vector<uint32_t> last(reads.size(), 0);
  for (TierId t = 0; t < reads.size(); ++t)
    for (TierId c : reads[t]) last[c] = std::max(last[c], level[t]);
  return last;
}

/// A piece of a tier: records [lo, hi), solved by `rank`. hi == size: the piece takes the
/// tail too.
struct Piece {
  TierId tier;
  uint64_t lo, hi;
  int rank;
};

/// What the plan weighs, in picoseconds of one thread (integers: every rank computes the
/// same plan). The defaults are this project's measurements (results/MPI.md): compressing a
/// record byte costs more than scanning a position, decompressing it less.
struct CostModel {
  uint64_t scan_ps = 16'000;             // a scanned position
  uint64_t tail_ps = 1'600;              // a tail position copied
  uint64_t wire_ps_per_byte = 10'000;    // a record byte to another rank: compressed, sent, decompressed
  uint64_t commit_ps_per_byte = 12'000;  // a kept record byte compressed for the database
  uint64_t write_ps_per_byte = 3'000;    // rank 0: a kept record byte's blocks written to the database
  unsigned record_bytes = 1;
  std::vector<int> threads;              // [rank]
  /// Pieces of at most this many scanned positions, in components spread over several ranks
  /// (0: the plan's rule, total / (ranks x levels), at least kMinPiece).
  uint64_t piece_positions = 0;
  /// Solve a component of the tier DAG whole on one rank when it fits one rank's share
  /// (false: every tier goes wherever it finishes first; the tests use it to send more).
  bool whole_components = true;
  /// Record bytes a rank may hold at once (0: no budget): components of the DAG move to later
  /// levels to keep it (schedule.hpp: distribute_within_budget).
  uint64_t memory_budget = 0;
  /// When no schedule of raw tiers keeps the budget, a solve in one process may hold its
  /// finished tiers packed (schedule.hpp): the bytes the plan reckons a packed tier holds per
  /// 1000 raw (0: never packed). The store must offer a codec (TierStore::record_codec).
  uint32_t packed_permille = 0;
  /// Hold finished tiers packed whatever the budget (with packed_permille): what packing
  /// costs, measured, and its path tested on spaces too small to need it.
  bool always_pack = false;
  /// With always_pack: the tiers packed are those whose last reader is this many levels or
  /// more after their own (1: every tier a later level reads; more: a test's fewer tiers).
  uint32_t always_span = 1;
  /// The threads a packed solve's overhead is reckoned for (0: threads[0], or this arena's):
  /// a check made before the solve's own threads start, or a plan whose threads are the
  /// estimate's.
  int packing_threads = 0;
};

inline constexpr uint64_t kMinPiece = uint64_t{1} << 20;

/// A rank's share, as the plan estimates it.
struct RankLoad {
  uint64_t positions = 0;       // positions it solves (scanned or copied)
  uint64_t pieces = 0;
  uint64_t bytes_sent = 0;      // record bytes before compression
  uint64_t bytes_received = 0;
  uint64_t peak_bytes = 0;      // records in memory at once
  uint64_t busy_ps = 0;         // solving, sending, receiving, committing
};

struct Distribution {
  int ranks = 1;
  uint32_t levels = 0;
  std::vector<Piece> pieces;                // by tier id, then lo
  std::vector<uint32_t> first_piece;        // [t] .. [t + 1]: tier t's pieces (none: skipped)
  std::vector<int> reporter;                // [t]: who reports it to rank 0 (-1: skipped)
  std::vector<std::vector<int>> sinks;      // [t]: the ranks every piece of t goes to
  std::vector<std::vector<int>> recovered;  // [t], a skipped tier: ranks rank 0 sends it to
  std::vector<uint32_t> recovered_level;    // [t]: the level at which rank 0 sends it
  uint64_t piece_positions = 0;             // the split threshold used
  std::vector<RankLoad> load;               // [rank]
  uint64_t makespan_ps = 0;                 // the estimated time of the whole solve
  bool fitted = false;                      // levels moved to keep the memory budget (schedule.hpp)
  uint64_t natural_peak = 0;                // the busiest rank's peak on the natural levels (schedule.hpp)
  uint64_t smallest_budget = 0;             // the smallest budget a schedule keeps (schedule.hpp)
  bool packed = false;                      // finished tiers held packed (one rank; schedule.hpp)
  bool smallest_packed = false;             // smallest_budget holds the finished tiers packed
  uint32_t packed_span = 1;                 // then: the tiers packed, those last read this many levels on or more
  uint64_t packing_overhead = 0;            // then: in load[0].peak_bytes, the pieces' unpacked reads

  uint64_t pieces_of(TierId t) const { return first_piece[t + 1] - first_piece[t]; }
  /// The records the busiest rank holds at once.
  uint64_t busiest_peak() const;
  bool split(TierId t) const { return pieces_of(t) > 1; }
  /// The tiers piece p reads: its tier's children, and its tail's source when it takes the
  /// tail.
  std::vector<TierId> reads_of(const TierPlan& plan, const Piece& p) const;
  /// A digest of the plan, to check that every rank made the same.
  uint64_t hash() const;
};

/// The plan for `ranks` ranks of the tiers not skipped (skip[t] != 0: committed earlier).
Distribution distribute(const TierPlan& plan, const std::vector<char>& skip, int ranks, const CostModel& model);

}  // namespace toadbase
