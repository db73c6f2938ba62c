// Position values as JSON in the GamesCrafters UWAPI shape: the one writer every win/lose
// game's answers go through (the command's query lines, the server's routes, Python's
// query()).
//
//   {"position":"1_TT--FF","autoguiPosition":"1_TT--FF","positionValue":"win","remoteness":11,
//    "moves":[{"move":"1-2","autoguiMove":"M_1_2_x","position":"2_T-T-FF",
//              "autoguiPosition":"2_T-T-FF","moveValue":"win","positionValue":"lose",
//              "remoteness":10,"deltaRemoteness":0}, ...]}
//
// autoguiPosition is the position as GamesmanUni's board reads it (the puzzle: 1_xx-oo).
// moveValue is the value for the player making the move; moves are sorted best first
// (winning moves by the shortest win, then losing moves by the longest loss).
// deltaRemoteness, two players: a winning move's child remoteness minus the smallest among
// losing children; a losing move's: the largest remoteness among winning children minus the
// child's. A puzzle: the parent's remoteness minus the child's.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "solver/module/module.hpp"

namespace toadbase::tools {

/// The JSON of a probed win/lose position. A puzzle's position and moves carry goalReachable.
nlohmann::ordered_json position_json(const PositionProbe& probe);
/// A puzzle's position or move in position_json from which the goal cannot be reached (its
/// remoteness, 0, counts no moves), and how the terminal says so.
inline bool dead_end(const nlohmann::ordered_json& o) {
  const auto it = o.find("goalReachable");
  return it != o.end() && !it->get<bool>();
}
inline constexpr const char* kDeadEndWords = "dead end, the goal cannot be reached";
/// The JSON of a probed win/lose position on GamesmanUni's route (spec/uwapi.md): the same
/// probe as position_json, with the board widget's `autoguiPosition` on the position and on
/// every move, and the client's rules for puzzles: a position that cannot reach the goal has
/// remoteness -200; a move's deltaRemoteness is the parent's remoteness minus the child's,
/// its moveValue win / tie / lose as that is > 0, 0, < 0 (a child that cannot reach the goal:
/// lose, -200, delta 0). Moves sorted win, tie, draw, lose, each by deltaRemoteness, ties in
/// the board's order (the arrow's source cell, left to right), as GamesCrafters' modules list them.
///
///   {"position":"2_T-TT--F-FF","autoguiPosition":"2_T-TT--F-FF","positionValue":"lose",
///    "remoteness":24,"moves":[{"move":"6-5","autoguiMove":"M_6_5_x","position":"1_T-TT-F--FF",
///    "autoguiPosition":"1_T-TT-F--FF","positionValue":"win","remoteness":23,"moveValue":"lose",
///    "deltaRemoteness":0}, ...]}
nlohmann::ordered_json uwapi_position_json(const PositionProbe& probe);
/// The same JSON as text, written straight into one string (what the server sends).
std::string uwapi_position_text(const PositionProbe& probe);
/// UWAPI's remoteness code for a position that can never reach the goal (a puzzle's dead end).
inline constexpr int kUwapiInfiniteRemoteness = -200;

/// The JSON line `toadbase query` prints for a position of any game; throws BadPosition.
nlohmann::ordered_json query_json(const Instance& instance, const TierSource& source, const std::string& text,
                                  const std::string& turn);

}  // namespace toadbase::tools
