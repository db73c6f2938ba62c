// River Toad database positions (canonical, board picture, roll prefix with the plan so far):
// parse, and the canonical form parses back to itself.
#include "fuzz.hpp"
#include "solver/games/river_toad/positions.hpp"

using namespace toadbase;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string s = fuzz::text(data, size);
  fuzz::expect_clean([&] {
    const river_toad::Rules rules;
    const river_toad::SurvivalPosition p = river_toad::parse_position(s, 8, rules);
    const std::string c = river_toad::format_position(p);
    fuzz::require(river_toad::format_position(river_toad::parse_position(c, 8, rules)) == c, "canonical is stable");
    fuzz::require(river_toad::board_of(p).size() == 5, "a board has five rows");
  });
  return 0;
}
