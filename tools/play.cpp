// toadbase play --db DIR [POSITION]: a person against perfect play, one move a line, every
// move's value shown; or --watch perfect play on both sides. Any win/lose database (two
// players; the puzzle plays alone). The answers come from the same probe as query's.
#include <iostream>

#include "tools/cli.hpp"
#include "tools/open.hpp"
#include "tools/registry.hpp"
#include "tools/uwapi.hpp"

namespace toadbase::tools {

namespace {

using ojson = nlohmann::ordered_json;

struct PlayOptions {
  Common c;
  std::string position, turn, as = "1";
  bool watch = false;
};

/// "win in 3" / "lose in 4" for the player making the move (the child's remoteness + 1); a
/// puzzle's move into a dead end says so.
std::string move_value(const ojson& m) {
  if (dead_end(m)) return "a dead end";
  return m["moveValue"].get<std::string>() + " in " + std::to_string(m["remoteness"].get<unsigned>() + 1);
}

/// The player to move, as the game's probe says (a game that does not say: player 1).
std::string player_of(const PositionProbe& p) {
  return p.turn == 2 ? "2" : "1";
}

/// A player as the game's page names it ("Toads (player 1)"), or "player 1" when it names none.
std::string player_name(const PageView& view, const std::string& player) {
  if (view.sides.size() < 2) return "player " + player;
  return view.sides[player == "2" ? 1 : 0].name + " (player " + player + ")";
}

int run_play(const PlayOptions& o) {
  if (o.as != "1" && o.as != "2") throw UsageError("--as must be 1 or 2 (the player you are), not '" + o.as + "'");
  const Opened d = open_database(o.c.db);
  const WinLoseValues* values = d.instance->win_lose_values();
  if (!values)
    throw UsageError("play: " + d.db->identity().game +
                     " values are not win/lose; play takes a database of " + game_names(&Game::win_lose));
  std::string pos = o.position.empty() ? d.instance->start_position() : o.position;
  if (pos.empty()) throw UsageError("play: give a position (" + d.db->identity().game + " names no start)");
  PositionProbe probe = values->probe(*d.db, pos, o.turn);  // a bad position: exit 1, a bad --turn: 2
  const bool puzzle = probe.players == 1;
  const Game* game = find_game(d.db->identity().game);
  const PageView view = game ? game->page() : PageView{};
  auto named = [&](const std::string& player) { return player_name(view, player); };
  ojson j = position_json(probe);
  std::cout << (o.watch ? (puzzle ? "perfect play" : "perfect play on both sides") : puzzle ? "you play the puzzle" : "you are " + named(o.as))
            << "; values are for the player making the move, best first\n";
  int ply = 0;
  std::string line;
  while (true) {
    const std::string player = player_of(probe);
    std::cout << "\n" << j["position"].get<std::string>() << "  " << (puzzle ? "" : named(player) + " to move: ");
    if (dead_end(j))
      std::cout << kDeadEndWords << "\n";
    else
      std::cout << j["positionValue"].get<std::string>() << " in " << j["remoteness"] << "\n";
    const ojson& moves = j["moves"];
    if (moves.empty()) {
      if (puzzle) {
        std::cout << (j["positionValue"] == "win" ? "the goal, after " + std::to_string(ply) + " moves"
                                                  : "no move left, and this is not the goal")
                  << "\n";
      } else {
        std::cout << named(player) << " has no move and loses: " << named(player == "1" ? "2" : "1")
                  << " wins after " << ply << " moves\n";
      }
      return kExitOk;
    }
    const bool perfect = o.watch || (!puzzle && player != o.as);
    const ojson* chosen = nullptr;
    if (perfect) {
      chosen = &moves[0];  // best first: the quickest win, or the longest loss
      std::cout << (puzzle ? std::string("perfect play") : named(player)) << " plays "
                << (*chosen)["move"].get<std::string>() << " (" << move_value(*chosen) << ")\n";
    } else {
      for (size_t k = 0; k < moves.size(); ++k)
        std::cout << "  " << k + 1 << ". " << moves[k]["move"].get<std::string>() << " -> "
                  << moves[k]["position"].get<std::string>() << "  " << move_value(moves[k]) << "\n";
      while (!chosen) {
        std::cout << "your move (its name, its number, or q): " << std::flush;
        if (!std::getline(std::cin, line)) {
          std::cout << "\nno more input: stopped at " << j["position"].get<std::string>() << "\n";
          return kExitOk;
        }
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const size_t a = line.find_first_not_of(" \t"), b = line.find_last_not_of(" \t");
        const std::string w = a == std::string::npos ? "" : line.substr(a, b - a + 1);
        if (w.empty() || w[0] == '#') continue;
        if (w == "q" || w == "quit") {
          std::cout << "stopped at " << j["position"].get<std::string>() << "\n";
          return kExitOk;
        }
        for (size_t k = 0; k < moves.size(); ++k)
          if (w == moves[k]["move"] || w == moves[k]["position"] || w == std::to_string(k + 1)) chosen = &moves[k];
        if (!chosen) std::cout << "'" << w << "' is not a move here\n";
      }
      std::cout << "you play " << (*chosen)["move"].get<std::string>() << " (" << move_value(*chosen) << ")\n";
    }
    probe = values->probe(*d.db, (*chosen)["position"].get<std::string>(), "");
    j = position_json(probe);
    ++ply;
  }
}

}  // namespace

Command add_play(CLI::App& root) {
  auto o = std::make_shared<PlayOptions>();
  auto* play = root.add_subcommand(
      "play", "play a database's game against perfect play in the terminal, one move a line (or --watch)");
  add_db_option(play, o->c);
  play->add_option("position", o->position, "where to start; the database's start position when none is given");
  play->add_option("--turn", o->turn, "the player to move for a bare board (1 or 2)")
      ->check(turn_given())
      ->default_str("none: the position says");
  play->add_option("--as", o->as, "the player you are, 1 or 2 (two-player games)");
  play->add_flag("--watch", o->watch, "perfect play on both sides, no input");
  examples(play, {"toadbase play --db data/tf10", "toadbase play --db data/tf10 1_TT--FF --as 2",
                  "toadbase play --db data/frogs8 LLL_RRR --watch"});
  return {play, [o] { return run_play(*o); }};
}

}  // namespace toadbase::tools
