// River Toad's module (the contract: solver/module/module.hpp): its own subcommands
// (`river-toad solve | check | prefixes | play`, command.cpp) and its position database, a
// chance game's engine of its own (survival.hpp: every position's exact survival odds;
// module.cpp: the instance that solves, verifies, queries and analyzes it). One line in
// tools/registry.cpp registers it.
#pragma once

#include <memory>
#include <string>
#include <nlohmann/json.hpp>
#include <vector>

#include "solver/module/module.hpp"

namespace toadbase::river_toad {

struct Rules;

/// `river-toad solve ROLLS --json`'s object for a roll file's text, by dp (the server's
/// /api/river-toad/solve answers it): the optimal plan, the final board, and the replay turn
/// by turn (`turns`). Throws std::invalid_argument naming what is wrong with the file or rules.
nlohmann::ordered_json solve_json(const std::string& roll_text, const Rules& rules);

struct Module {
  static constexpr const char* kName = "river-toad";
  static constexpr const char* kTitle = "River Toad, a roll-driven Frogger-like game (one player)";

  /// `solve river-toad --turns T --fly-hp H --weights w0,...,w33`.
  static std::vector<ParamSpec> parameters();
  /// {"turns": T, "fly_hp": H, "weights": "uniform" | [34 weights]}.
  static nlohmann::json normalize(const nlohmann::json& given);
  static std::unique_ptr<Instance> make_instance(const nlohmann::json& normalized);
  /// `river-toad solve | check | prefixes | play` (command.cpp).
  static std::vector<GameCommand> add_commands(CLI::App& root, const Host& host);
  /// POST /api/river-toad/solve (the body is a roll file; GET ?rolls=TEXT for a short one),
  /// with ?hp=&column=&fly_hp=: solve_json; at most the limit "rolls" (100,000) rolls.
  static std::vector<ApiRoute> api_routes();
  /// The page's view: a position database as the river's rows and each action's survival
  /// odds; and, without a database, a roll file solved and replayed (#view=rolls).
  static PageView page();

  /// The record type's name in a database's manifest.
  static constexpr const char* kRecord = "survival-count-u61-action-u3-planes";
};

}  // namespace toadbase::river_toad
