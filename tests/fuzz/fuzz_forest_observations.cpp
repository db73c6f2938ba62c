// Magic Forest observations (the posterior's JSON) and database beliefs (the same plus "at").
#include "fuzz.hpp"
#include "solver/games/forest/policy_table.hpp"
#include "solver/games/forest/posterior.hpp"

using namespace toadbase;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string s = fuzz::text(data, size);
  fuzz::expect_clean([&] {
    const forest::Observations o = forest::read_observations(s);
    fuzz::require(o.side >= 2, "a forest has a side");
    for (const auto& v : o.visited) fuzz::require(v.tile >= 0 && v.tile < o.side * o.side, "visited tiles are inside");
  });
  fuzz::expect_clean([&] {
    const uint64_t key = forest::parse_belief(s);
    fuzz::require(forest::parse_belief(forest::format_belief(key)) == key, "a belief's JSON reads back to its key");
  });
  return 0;
}
