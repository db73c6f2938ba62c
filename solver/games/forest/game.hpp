// Magic Forest Wanderer as the tools see it: its own `forest` subcommands (command.cpp).
// No position database yet: it registers as a commands-only game (tools/module.hpp).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <utility>
#include <vector>

namespace toadbase::forest {

struct Game {
  static constexpr const char* kName = "forest";
  static constexpr const char* kTitle = "Magic Forest Wanderer (hidden information, one player)";
  /// `forest play | eval | posterior`.
  static std::vector<std::pair<CLI::App*, std::function<int()>>> add_commands(CLI::App& root);
};

}  // namespace toadbase::forest
