// Magic Forest Wanderer as the tools see it: its own `forest` subcommands (command.cpp); its
// database (the optimal 3x3 policy) is tools/forest_module.hpp.
#pragma once

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace CLI {
class App;  // CLI11, included by the game's command.cpp
}

namespace toadbase::forest {

struct Forest;
class Agent;
/// `forest play`'s output: the forest, the wanderer's actions one per line, the result.
int print_play(const Forest& f, Agent& agent, uint64_t seed);

struct Game {
  static constexpr const char* kName = "forest";
  static constexpr const char* kTitle = "Magic Forest Wanderer (hidden information, one player)";
  /// `forest play | eval | posterior`.
  static std::vector<std::pair<CLI::App*, std::function<int()>>> add_commands(CLI::App& root);
};

}  // namespace toadbase::forest
