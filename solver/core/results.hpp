// What a solve and a verify report: the two result structs every way in reads, apart from the
// engine that fills them (solver/core/engine.hpp), so the contract (solver/module/) and the
// command need not parse the engine to name them.
#pragma once

#include <cstdint>
#include <string>

namespace toadbase {

struct SolveStats {
  uint64_t positions_solved = 0;  // of the tiers this run committed (rank 0: every rank's)
  uint64_t tiers_solved = 0;
  uint64_t tiers_skipped = 0;
  uint64_t peak_bytes_in_flight = 0;  // records in memory at once, on this rank
  // this rank's share (all of it on one process)
  uint64_t positions_computed = 0;  // scanned or copied
  uint64_t pieces_computed = 0;
  double seconds_waiting = 0;  // for records from other ranks
  // where this rank's time went, summed over its tasks (one thread a rank: wall time)
  double seconds_solving = 0;    // its pieces' records computed
  double seconds_reporting = 0;  // tiers committed (rank 0) or packed for rank 0 (the others)
  // finished tiers held packed under the memory budget (schedule.hpp): their raw bytes and
  // what they held packed (the share the plan assumed: packed_permille)
  bool packed = false;
  uint32_t packed_permille = 0;
  uint32_t packed_span = 0;  // the tiers packed: those last read this many levels on or more
  uint64_t bytes_packed_raw = 0, bytes_packed = 0;
  uint64_t blocks_unpacked = 0;  // by the scans' caches (packed.hpp: blocks of 64 KiB)
  uint64_t blocks_from_commits = 0;  // of the blocks held, those committing their tier packed (not packed again)
};

/// What verify found: ok, or the first problem (naming the tier, index and position).
struct VerifyReport {
  bool ok = true;
  uint64_t positions_checked = 0;
  uint64_t positions_probed = 0;  // of those, probed again as a lookup does
  std::string problem;
};

/// How many positions of each tier verify probes again as a lookup does (every position of
/// a space of at most kProbeAllBelow positions); the engines of their own keep the same.
inline constexpr uint64_t kProbesPerTier = 64;
inline constexpr uint64_t kProbeAllBelow = uint64_t{1} << 20;
/// A large tier's probes are spread over this many sections of it (verify.hpp).
inline constexpr uint64_t kProbeSections = 4;

}  // namespace toadbase
