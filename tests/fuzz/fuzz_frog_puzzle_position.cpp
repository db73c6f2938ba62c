// Frog puzzle position strings in every accepted notation (LLL_RRR, 1_xx-oo, xx-oo, the
// blog's list [1, 1, 0, -1, -1]): parse, and what parses formats back to itself.
#include "fuzz.hpp"
#include "solver/games/frog_puzzle/module.hpp"

using namespace toadbase;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string s = fuzz::text(data, size);
  for (const char* turn : {"", "1", "2"}) {
    fuzz::expect_clean([&] {
      const frog_puzzle::Position p = frog_puzzle::Module::parse(s, turn);
      fuzz::require(frog_puzzle::parse(frog_puzzle::format(p)) == p, "format(parse(s)) parses back");
      fuzz::require(frog_puzzle::parse(frog_puzzle::format_blog(p)) == p, "the blog's list parses back");
      for (const auto& m : frog_puzzle::Module::moves(p)) (void)frog_puzzle::format(m.child);
    });
  }
  return 0;
}
