// The games the toadbase command knows, each behind one face (registry.cpp lists them).
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "solver/core/module.hpp"
#include "solver/core/tier_module.hpp"

namespace toadbase::tools {

/// A registered game as the command line sees it.
class Game {
 public:
  virtual ~Game() = default;
  virtual std::string name() const = 0;
  virtual std::string title() const = 0;
  /// False for a game that only brings its own subcommands (no `solve`, no database).
  virtual bool has_database() const = 0;
  virtual std::vector<ParamSpec> parameters() const = 0;
  /// Validates and fills in the given parameters (throws std::invalid_argument).
  virtual nlohmann::json normalize(const nlohmann::json& given) const = 0;
  /// The instance of a space with the record `record` names (a database's), or with none the
  /// record the game picks for the space (throws std::invalid_argument for a record the game
  /// does not write).
  virtual std::unique_ptr<Instance> instance(const nlohmann::json& normalized,
                                             const std::string& record = "") const = 0;
  /// The records the game writes (the names `instance` takes).
  virtual std::vector<std::string> records() const = 0;
  virtual std::vector<GameCommand> add_commands(CLI::App& root, const Host& host) const = 0;
  /// The game's own HTTP routes (none for most games).
  virtual std::vector<ApiRoute> api_routes() const = 0;
  /// How GamesmanUni shows the game, or nothing for a game it does not play.
  virtual std::optional<UwapiGame> uwapi() const = 0;
};

/// The face of a module M (the contract: solver/core/module.hpp).
template <Module M>
class Registered : public Game {
 public:
  std::string name() const override { return M::kName; }
  std::string title() const override { return M::kTitle; }
  bool has_database() const override { return TierGameRules<M> || OwnEngine<M>; }
  std::vector<ParamSpec> parameters() const override {
    if constexpr (WithParameters<M>) {
      return M::parameters();
    } else {
      return {};
    }
  }
  nlohmann::json normalize(const nlohmann::json& given) const override {
    if constexpr (WithParameters<M>) {
      return M::normalize(given);
    } else {
      (void)given;
      throw std::invalid_argument(std::string(M::kName) + " has no position database");
    }
  }
  std::unique_ptr<Instance> instance(const nlohmann::json& normalized,
                                     const std::string& record = "") const override {
    if constexpr (TierGameRules<M>) {
      return make_tier_instance<M>(normalized, record);
    } else if constexpr (OwnEngine<M>) {
      auto inst = M::make_instance(normalized);
      if (!record.empty() && record != inst->identity().record)
        throw std::invalid_argument(std::string(M::kName) + " has no record '" + record +
                                    "': it writes " + inst->identity().record);
      return inst;
    } else {
      (void)normalized, (void)record;
      throw std::invalid_argument(std::string(M::kName) + " has no position database");
    }
  }
  std::vector<std::string> records() const override {
    if constexpr (TierGameRules<M>) {
      return tier_records<M>();
    } else {
      return {};
    }
  }
  std::vector<GameCommand> add_commands(CLI::App& root, const Host& host) const override {
    if constexpr (WithCommands<M>) {
      return M::add_commands(root, host);
    } else {
      (void)root, (void)host;
      return {};
    }
  }
  std::vector<ApiRoute> api_routes() const override {
    if constexpr (WithApiRoutes<M>) {
      return M::api_routes();
    } else {
      return {};
    }
  }
  std::optional<UwapiGame> uwapi() const override {
    if constexpr (WithUwapi<M>) {
      return M::uwapi();
    } else {
      return std::nullopt;
    }
  }
};

/// Every registered game, in registration order.
const std::vector<std::unique_ptr<Game>>& games();
/// The game of a name, or nullptr.
const Game* find_game(const std::string& name);

}  // namespace toadbase::tools
