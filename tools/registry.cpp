// The games the toadbase command knows. Adding a game: its folder under solver/games/ and
// one line below.
#include "solver/games/frog_puzzle/game.hpp"
#include "solver/games/river_toad/game.hpp"
#include "solver/games/toads_frogs/game.hpp"
#include "tools/forest_module.hpp"
#include "tools/river_toad_module.hpp"
#include "tools/tier_module.hpp"

namespace toadbase::tools {

const std::vector<std::unique_ptr<GameModule>>& games() {
  static const std::vector<std::unique_ptr<GameModule>> all = [] {
    std::vector<std::unique_ptr<GameModule>> v;
    v.push_back(std::make_unique<TierGameModule<toads_frogs::Game>>());
    v.push_back(std::make_unique<TierGameModule<frog_puzzle::Game>>());
    v.push_back(std::make_unique<RiverToadModule>());
    v.push_back(std::make_unique<ForestModule>());
    return v;
  }();
  return all;
}

const GameModule* find_game(const std::string& name) {
  for (const auto& g : games())
    if (g->name() == name) return g.get();
  return nullptr;
}

}  // namespace toadbase::tools
