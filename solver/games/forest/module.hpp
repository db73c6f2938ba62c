// Magic Forest Wanderer's module (the contract: solver/core/module.hpp): its own
// subcommands (`forest play | eval | posterior`, command.cpp) and its position database, the
// optimal 3x3 policy (policy_table.hpp: the records; module.cpp: the instance that solves,
// verifies, queries and analyzes it). One line in tools/registry.cpp registers it.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "solver/core/module.hpp"

namespace toadbase::forest {

struct Forest;
class Agent;
/// `forest play`'s output: the forest, then every action with the board and what he knows
/// after it, then the result (`json`: one object a line).
int print_play(const Forest& f, Agent& agent, uint64_t seed, bool json);

struct Module {
  static constexpr const char* kName = "forest";
  static constexpr const char* kTitle = "Magic Forest Wanderer (hidden information, one player)";

  /// `solve forest --side 3`.
  static std::vector<ParamSpec> parameters();
  static nlohmann::json normalize(const nlohmann::json& given);
  static std::unique_ptr<Instance> make_instance(const nlohmann::json& normalized);
  /// `forest play | eval | posterior` (command.cpp).
  static std::vector<GameCommand> add_commands(CLI::App& root, const Host& host);
};

}  // namespace toadbase::forest
