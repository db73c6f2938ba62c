// River Toad positions as the database addresses them, and their strings.
//
//   canonical   <turns left>_<HP>_<column>_<row0 roll>.<row1>.<row2>.<row3>     8_20_3_0.0.0.0
//   picture     <turns left>_<HP>_<row0>/<row1>/<row2>/<row3>/<row4>             the board drawn,
//               rows of 7 characters: # bank, space, S snake, F fly on a bank, T the toad
//   prefix      <turns left>_r<rolls so far, comma-separated>_p<plan so far>    8_r21,21,10_pGAD
//               (from the start: column 3, 20 HP; the last four rolls are rows 0..3)
//
// Row 0 is the newest roll; row 3 reaches the bottom row next turn.
#pragma once

#include <string>
#include <vector>

#include "solver/games/river_toad/river_toad.hpp"

namespace toadbase::river_toad {

/// What the toad sees at the start of a turn, and the turns left.
struct SurvivalPosition {
  int t = 1, hp = 1, column = 3;
  int r[4] = {0, 0, 0, 0};  // rows 0..3: the last four rolls, newest first
};

/// Reads any of the three forms; `turns` is the database's horizon (turns left must be
/// 1..turns) and HP is capped at 3t + 1. Throws std::invalid_argument saying what is wrong.
SurvivalPosition parse_position(const std::string& text, int turns, const Rules& rules);
/// The canonical form.
std::string format_position(const SurvivalPosition& p);
/// The board rows 0..4 (row 4: the toad), as the assignment prints them.
std::vector<std::string> board_of(const SurvivalPosition& p);

}  // namespace toadbase::river_toad
