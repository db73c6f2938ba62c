// River Toad roll files: read, and what reads holds rolls 0..33, as many as its count line says.
#include <sstream>

#include "fuzz.hpp"
#include "solver/games/river_toad/river_toad.hpp"

using namespace toadbase;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string s = fuzz::text(data, size);
  fuzz::expect_clean([&] {
    std::istringstream in(s);
    const std::vector<uint8_t> rolls = river_toad::read_rolls(in, "fuzz.txt");
    for (uint8_t r : rolls) fuzz::require(r <= river_toad::kMaxRoll, "every roll is 0..33");
    // a plan over them plays without surprises
    (void)river_toad::play(rolls, std::string(rolls.size(), 'D'), river_toad::Rules{});
  });
  return 0;
}
