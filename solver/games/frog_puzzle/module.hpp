// The frog swap puzzle's module (the contract: solver/module/module.hpp): parameters, position
// strings, named moves, the start, the reachable-from-the-start census for `analyze`, and
// its own `frog-puzzle` subcommands. One line in tools/registry.cpp registers it.
#pragma once

#include <functional>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "solver/module/module.hpp"
#include "solver/games/frog_puzzle/frog_puzzle.hpp"

namespace toadbase::frog_puzzle {

/// `frog-puzzle solve POSITION --json`'s object (the server's /api/frog-puzzle/solve answers
/// it): fewest moves, number of optimal solutions, the first one step by step; for a dead end
/// `"solvable": false`. Throws std::invalid_argument on a bad position, std::length_error past
/// `max_positions` reachable positions.
nlohmann::ordered_json solve_json(const std::string& position, uint64_t max_positions);
nlohmann::ordered_json solve_json(const Position& start, uint64_t max_positions);

struct Module {
  using Space = frog_puzzle::Space;
  using Position = frog_puzzle::Position;
  using RecordType = PuzzleRecord;

  static constexpr const char* kName = "frog-puzzle";
  static constexpr const char* kTitle = "the frog swap puzzle, one player";

  static std::vector<ParamSpec> parameters();
  /// {"left": n, "right": m, "empty": k}. Throws std::invalid_argument.
  static nlohmann::json normalize(const nlohmann::json& given);
  static Space make_space(const nlohmann::json& normalized);
  /// A puzzle has one player: `turn` must be empty or "1".
  static Position parse(const std::string& text, const std::string& turn);
  static std::string format(const Position& p) { return frog_puzzle::format(p); }
  static std::vector<NamedMove<Position>> moves(const Position& p);
  /// The board as GamesmanUni's widget reads it: one player, `-` for an empty cell
  /// ("LL_RR" -> "1_LL-RR").
  static std::string autogui_position(const Position& p);
  /// The space's start L..L _.._ R..R.
  static Position start(const Space& space);
  /// GamesmanUni's view: one player, frogs L and R, the rules; a variant is named
  /// "3 + 3 frogs, 1 empty cell".
  static UwapiGame uwapi();
  /// The page's view: a strip of frogs, played alone, with the optimal solution from
  /// /api/frog-puzzle/solve.
  static PageView page();

  /// From the start L^n _^k R^m: positions reachable, how many can still reach the goal,
  /// dead ends, stuck positions, remoteness of the reachable ones (values from the records).
  class Census {
   public:
    /// Explores from the space's start (the reachable positions, grouped by tier).
    explicit Census(const Space& space);
    /// Tier t is whole: its reachable positions counted. Thread-safe.
    template <class OutcomeAt>
    void tier(TierId t, OutcomeAt&& at) {
      const auto it = by_tier_.find(t);
      if (it == by_tier_.end()) return;
      uint64_t wins = 0, loses = 0;
      std::map<unsigned, uint64_t> by_r;
      for (uint64_t i : it->second) {
        const Outcome o = at(t, i);
        if (o.value == Value::Win) {
          ++wins;
          ++by_r[o.remoteness];
        } else {
          ++loses;
        }
      }
      std::lock_guard lock(mu_);
      wins_ += wins;
      loses_ += loses;
      for (auto [r, c] : by_r) by_r_[r] += c;
      if (t == start_at_.tier) start_ = at(t, start_at_.index);
    }
    nlohmann::json report() const;

   private:
    Position start_position_, goal_;
    TierIndex start_at_;
    uint64_t reachable_ = 0, stuck_ = 0;
    std::map<TierId, std::vector<uint64_t>> by_tier_;  // the reachable positions' indices
    std::mutex mu_;
    uint64_t wins_ = 0, loses_ = 0;
    std::map<unsigned, uint64_t> by_r_;
    Outcome start_{};
  };

  /// `toadbase frog-puzzle solve` and `toadbase frog-puzzle check` (command.cpp).
  static std::vector<GameCommand> add_commands(CLI::App& root, const Host& host);
  /// GET /api/frog-puzzle/solve?p=P: solve_json of a position, 413 past the limit
  /// "positions" (4,194,304) reachable positions.
  static std::vector<ApiRoute> api_routes();
};

}  // namespace toadbase::frog_puzzle
