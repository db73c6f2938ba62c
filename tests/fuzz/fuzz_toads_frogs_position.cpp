// Toads and Frogs position strings: parse, and what parses formats back to itself and ranks
// into the space of its length and piece counts.
#include <bit>

#include "fuzz.hpp"
#include "solver/games/toads_frogs/module.hpp"

using namespace toadbase;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string s = fuzz::text(data, size);
  for (const char* turn : {"", "1", "2", "3"}) {
    fuzz::expect_clean([&] {
      const toads_frogs::Position p = toads_frogs::Module::parse(s, turn);
      const toads_frogs::Position q = toads_frogs::Module::parse(toads_frogs::Module::format(p), "");
      fuzz::require(p == q, "format(parse(s)) parses back to the same position");
      if (p.length >= 1 && p.length <= 10) {
        const toads_frogs::Space space(toads_frogs::SpaceParams{p.length, std::popcount(p.toads), std::popcount(p.frogs)});
        fuzz::require(space.contains(p), "the space of its counts holds it");
        const TierIndex ti = space.rank(p);
        fuzz::require(space.unrank(ti.tier, ti.index) == p, "unrank(rank(p)) == p");
      }
    });
  }
  return 0;
}
