// Magic Forest Wanderer's module (the contract: solver/module/module.hpp): its own
// subcommands (`forest play | eval | posterior`, command.cpp) and its position database, the
// optimal 3x3 policy (policy_table.hpp: the records; module.cpp: the instance that solves,
// verifies, queries and analyzes it). One line in tools/registry.cpp registers it.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "solver/module/module.hpp"

namespace toadbase::forest {

struct Forest;
class Agent;
/// `forest play`'s output: the forest, then every action with the board and what he knows
/// after it, then the result (`json`: one object a line).
int print_play(const Forest& f, Agent& agent, uint64_t seed, bool json);

/// Forests up to this side get the exact posterior after every step in play_json.
inline constexpr int kPosteriorSide = 6;
/// The same play as `forest play --json`, as one object (the server's /api/forest/play
/// answers it): side, seed, agent, the forest itself (`rows` as `forest play` draws them,
/// `content` per tile, portal, start, bones, leaves; tiles as [row, column]), `steps` (each
/// action, its outcome: walked, stone, monster, trap or portal, its text, where he stands
/// after, score, moves, stones and deaths so far, and with `posteriors` the exact P(monster),
/// P(trap), P(portal) per tile after it; `posterior` at the top: before the first), `result`.
nlohmann::ordered_json play_json(const Forest& f, Agent& agent, uint64_t seed, bool posteriors);

struct Module {
  static constexpr const char* kName = "forest";
  static constexpr const char* kTitle = "Magic Forest Wanderer (hidden information, one player)";

  /// `solve forest --side 3`.
  static std::vector<ParamSpec> parameters();
  static nlohmann::json normalize(const nlohmann::json& given);
  static std::unique_ptr<Instance> make_instance(const nlohmann::json& normalized);
  /// `forest play | eval | posterior` (command.cpp).
  static std::vector<GameCommand> add_commands(CLI::App& root, const Host& host);
  /// GET /api/forest/play?side=&seed=&agent=[&db=]: play_json of a forest played by an agent
  /// (the optimal one reads a served forest database); sides 2 to the limit "side" (8).
  static std::vector<ApiRoute> api_routes();
  /// The page's view: a forest walked step by step by an agent (/api/forest/play), with or
  /// without a database (the optimal agent reads one).
  static PageView page();
};

}  // namespace toadbase::forest
