// The optimal 3x3 wanderer (label `slow`: it searches 2.6 million belief states): its value
// equals what the agent scores, exactly, over every 3x3 forest, and lies between the
// original's and the oracle's.
#include <catch2/catch.hpp>

#include "solver/games/forest/agents.hpp"
#include "solver/games/forest/optimal.hpp"
#include "solver/games/forest/posterior.hpp"

using namespace toadbase::forest;

TEST_CASE("forest optimal agent: its expectimax value is what it scores, between original and oracle",
          "[forest][slow]") {
  const double value = optimal_expected_score();
  double optimal = 0, original = 0, oracle = 0, mass = 0;
  each_forest(3, [&](const Forest& f, double p) {
    mass += p;
    for (auto [name, sum] : {std::pair<const char*, double*>{"optimal", &optimal}, {"original", &original}, {"oracle", &oracle}}) {
      auto a = make_agent(name);
      *sum += p * static_cast<double>(play(f, *a).score);
    }
  });
  INFO("value " << value << ", optimal " << optimal << ", original " << original << ", oracle " << oracle);
  REQUIRE(mass == Approx(1.0).epsilon(1e-12));
  REQUIRE(optimal == Approx(value).epsilon(1e-9));
  REQUIRE(optimal > original + 1);  // strictly better than the original rule
  REQUIRE(optimal < oracle);        // and below the perfect-information bound
  REQUIRE_THROWS_AS(make_agent("optimal")->begin(Knowledge{4, 0, {}, {}, {}, {}, {}, {}}, nullptr), std::invalid_argument);
}
