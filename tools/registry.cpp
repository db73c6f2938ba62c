// The games the toadbase command knows. Adding a game: its folder under solver/games/ and
// one line below.
#include "tools/registered.hpp"

#include "solver/games/forest/module.hpp"
#include "solver/games/frog_puzzle/module.hpp"
#include "solver/games/river_toad/module.hpp"
#include "solver/games/toads_frogs/module.hpp"
#include "solver/games/toads_frogs_cgt/module.hpp"

namespace toadbase::tools {

const std::vector<std::unique_ptr<Game>>& games() {
  static const std::vector<std::unique_ptr<Game>> all = [] {
    std::vector<std::unique_ptr<Game>> v;
    v.push_back(std::make_unique<Registered<toads_frogs::Module>>());
    v.push_back(std::make_unique<Registered<frog_puzzle::Module>>());
    v.push_back(std::make_unique<Registered<river_toad::Module>>());
    v.push_back(std::make_unique<Registered<forest::Module>>());
    v.push_back(std::make_unique<Registered<toads_frogs_cgt::Module>>());
    return v;
  }();
  return all;
}

const Game* find_game(const std::string& name) {
  for (const auto& g : games())
    if (g->name() == name) return g.get();
  return nullptr;
}

std::string game_names(bool (Game::*which)() const) {
  std::vector<std::string> names;
  for (const auto& g : games())
    if (((*g).*which)()) names.push_back(g->name());
  std::string s;
  for (size_t i = 0; i < names.size(); ++i) s += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return s;
}

}  // namespace toadbase::tools
