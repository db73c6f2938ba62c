// Position values as JSON in the GamesCrafters UWAPI shape: the one writer every win/lose
// game's answers go through (the command's query lines, the server's routes, Python's
// query()).
//
//   {"position":"1_TT--FF","positionValue":"win","remoteness":11,
//    "moves":[{"move":"1-2","autoguiMove":"M_1_2_x","position":"2_T-T-FF","moveValue":"win",
//              "positionValue":"lose","remoteness":10,"deltaRemoteness":0}, ...]}
//
// moveValue is the value for the player making the move; moves are sorted best first
// (winning moves by the shortest win, then losing moves by the longest loss).
// deltaRemoteness, two players: a winning move's child remoteness minus the smallest among
// losing children; a losing move's: the largest remoteness among winning children minus the
// child's. A puzzle: the parent's remoteness minus the child's.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "solver/core/module.hpp"

namespace toadbase::tools {

/// The JSON of a probed win/lose position.
nlohmann::ordered_json position_json(const PositionProbe& probe);
/// The JSON line `toadbase query` prints for a position of any game; throws BadPosition.
nlohmann::ordered_json query_json(const Instance& instance, const TierSource& source, const std::string& text,
                                  const std::string& turn);

}  // namespace toadbase::tools
