// The scan of tiers held compressed under a memory budget (solver/core/solve.hpp:
// solve_range_held), instantiated here for both records rather than where the engine is
// instantiated (module.hpp declares them): in one unit with the natural scan, it changed how
// the compiler built that one (32.2 instructions a position at 16 cells, not 31.9).
#include "solver/games/toads_frogs/module.hpp"

namespace toadbase {
template void solve_range_held<toads_frogs::Space, ParityRecord, uint8_t>(
    const toads_frogs::Space&, TierId, uint64_t, uint64_t, const std::vector<HeldRecords<uint8_t>>&, uint8_t*,
    const HeldRecords<uint8_t>*, tbb::enumerable_thread_specific<UnpackedBlocks>&);
template void solve_range_held<toads_frogs::Space, WideParityRecord, uint16_t>(
    const toads_frogs::Space&, TierId, uint64_t, uint64_t, const std::vector<HeldRecords<uint16_t>>&, uint16_t*,
    const HeldRecords<uint16_t>*, tbb::enumerable_thread_specific<UnpackedBlocks>&);
}  // namespace toadbase
