// The games the toadbase command knows, each behind one face (registry.cpp lists them; the
// face of a module is tools/registered.hpp).
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "solver/module/module.hpp"

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
  /// True for a game whose databases answer win/lose values (a tier game: probe, play).
  virtual bool win_lose() const = 0;
  /// True for a game whose query answers combinatorial game values (kCgtValues).
  virtual bool cgt_values() const = 0;
  /// How the page shows the game: its page(), or the plain view under its kTitle.
  virtual PageView page() const = 0;
};

/// Every registered game, in registration order.
const std::vector<std::unique_ptr<Game>>& games();
/// The game of a name, or nullptr.
const Game* find_game(const std::string& name);
/// The names of the games `which` picks, for a message: "a", "a or b", "a, b or c".
std::string game_names(bool (Game::*which)() const);

}  // namespace toadbase::tools
