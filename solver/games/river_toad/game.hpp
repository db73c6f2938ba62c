// River Toad as the tools see it: its own `river-toad` subcommands (command.cpp). It has no
// position database yet, so it registers as a commands-only game (tools/module.hpp).
#pragma once

#include <functional>
#include <utility>
#include <vector>

namespace CLI {
class App;  // CLI11, included by the game's command.cpp
}

namespace toadbase::river_toad {

struct Game {
  static constexpr const char* kName = "river-toad";
  static constexpr const char* kTitle = "River Toad, a roll-driven Frogger-like game (one player)";
  /// `river-toad solve | check | prefixes | play`.
  static std::vector<std::pair<CLI::App*, std::function<int()>>> add_commands(CLI::App& root);
};

}  // namespace toadbase::river_toad
