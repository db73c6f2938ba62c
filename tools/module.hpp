// What the command line needs of a game: a module per game, registered in registry.cpp.
#pragma once

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "db/database.hpp"
#include "solver/core/params.hpp"
#include "solver/core/progress.hpp"
#include "solver/core/tier_solver.hpp"

namespace CLI {
class App;  // CLI11, included where a command line is built
}

namespace toadbase::tools {

/// A bad position string; the message says what is wrong.
struct BadPosition : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

struct VerifyReport {
  bool ok = true;
  uint64_t positions_checked = 0;
  std::string problem;  // the first problem found, naming the tier, index and position
};

/// One space of one game (the game plus its normalized parameters).
class Instance {
 public:
  virtual ~Instance() = default;
  virtual db::Identity identity() const = 0;
  virtual std::vector<db::TierInfo> tiers() const = 0;
  virtual SolveStats solve(TierStore& store, Progress* progress) const = 0;
  /// UWAPI-shaped JSON of a position; throws BadPosition.
  virtual nlohmann::ordered_json query(const db::Database& db, const std::string& position,
                                       const std::string& turn) const = 0;
  /// Recomputes every record from its children through the generic position API.
  virtual VerifyReport verify(const db::Database& db, Progress* progress) const = 0;
  /// Counts by remoteness, extremes, and the game's own census.
  virtual nlohmann::json analyze(const db::Database& db) const = 0;
  /// The canonical string and stored outcome of a position; throws BadPosition.
  virtual std::pair<std::string, Outcome> lookup(const db::Database& db, const std::string& position,
                                                 const std::string& turn) const = 0;
  /// Every record of a tier, recomputed from its children when the tier is derived.
  virtual std::vector<Record> tier_records(const db::Database& db, TierId t) const = 0;
  /// The canonical string of the i-th position of a tier (for reports and benchmarks).
  virtual std::string position_at(TierId t, uint64_t index) const = 0;
};

/// A game's own subcommand (e.g. `toadbase frog-puzzle ...`): the parsed CLI11 app and
/// what to run when it was given (returns the exit code; throws std::exception on errors).
using GameCommand = std::pair<CLI::App*, std::function<int()>>;

class GameModule {
 public:
  virtual ~GameModule() = default;
  virtual std::string name() const = 0;
  virtual std::string title() const = 0;
  virtual std::vector<ParamSpec> parameters() const = 0;
  /// Validates and normalizes the given parameters (throws std::invalid_argument).
  virtual nlohmann::json normalize(const nlohmann::json& given) const = 0;
  virtual std::unique_ptr<Instance> instance(const nlohmann::json& normalized) const = 0;
  /// The game's own subcommands, added under the root app (none by default).
  virtual std::vector<GameCommand> add_commands(CLI::App& /*root*/) const { return {}; }
  /// False for a game that only brings its own subcommands (no `solve`, no database).
  virtual bool has_database() const { return true; }
};

/// A game that brings its own subcommands and no position database (G::kName, G::kTitle,
/// G::add_commands).
template <class G>
class CommandsOnlyModule : public GameModule {
 public:
  std::string name() const override { return G::kName; }
  std::string title() const override { return G::kTitle; }
  std::vector<ParamSpec> parameters() const override { return {}; }
  nlohmann::json normalize(const nlohmann::json&) const override {
    throw std::invalid_argument(std::string(G::kName) + " has no position database");
  }
  std::unique_ptr<Instance> instance(const nlohmann::json&) const override {
    throw std::invalid_argument(std::string(G::kName) + " has no position database");
  }
  std::vector<GameCommand> add_commands(CLI::App& root) const override { return G::add_commands(root); }
  bool has_database() const override { return false; }
};

/// Every registered game, in registration order.
const std::vector<std::unique_ptr<GameModule>>& games();
/// The module of a game name, or nullptr.
const GameModule* find_game(const std::string& name);

}  // namespace toadbase::tools
