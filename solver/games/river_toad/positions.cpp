#include "solver/games/river_toad/positions.hpp"

#include "solver/core/printable.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace toadbase::river_toad {

namespace {

[[noreturn]] void bad(const std::string& text, const std::string& why) {
  throw std::invalid_argument(printable("position '" + text + "': " + why));
}

int number(const std::string& text, const std::string& s, const char* what) {
  if (s.empty() || s.size() > 6 || s.find_first_not_of("0123456789") != std::string::npos)
    bad(text, std::string(what) + " '" + s + "' is not a number");
  return std::stoi(s);
}

int roll_of_row(const std::string& text, const std::string& row, int line) {
  auto fail = [&](const std::string& why) { bad(text, "board row " + std::to_string(line) + " '" + row + "': " + why); };
  if (row.size() != 7) fail("a row has 7 characters (# bank, space, S snake, F fly on a bank)");
  int roll = 0;
  const bool fly_l = row[0] == 'F', fly_r = row[6] == 'F';
  if (!(row[0] == '#' || fly_l) || !(row[6] == '#' || fly_r)) fail("the banks are # or F");
  for (int c = 1; c <= 5; ++c) {
    if (row[c] == 'S') roll |= 1 << (5 - c);
    else if (row[c] != ' ') fail("the river holds spaces and S only");
  }
  if ((fly_l || fly_r) && (roll || (fly_l && fly_r))) fail("no roll spawns snakes and a fly, or two flies");
  return fly_l ? kLeftFlyRoll : fly_r ? kRightFlyRoll : roll;
}

}  // namespace

SurvivalPosition parse_position(const std::string& text, int turns, const Rules& rules) {
  std::vector<std::string> f;  // up to four '_'-separated fields
  size_t start = 0;
  for (int i = 0; i < 3; ++i) {
    const size_t u = text.find('_', start);
    if (u == std::string::npos) break;
    f.push_back(text.substr(start, u - start));
    start = u + 1;
  }
  f.push_back(text.substr(start));
  SurvivalPosition p;
  const bool picture = text.find('/') != std::string::npos;
  if (f.size() == 3 && f[1].starts_with("r") && f[2].starts_with("p")) {
    // a roll prefix and the plan so far
    p.t = number(text, f[0], "turns left");
    std::vector<uint8_t> rolls;
    std::stringstream ss(f[1].substr(1));
    for (std::string r; std::getline(ss, r, ',');) {
      const int v = number(text, r, "roll");
      if (v > kMaxRoll) bad(text, "roll " + r + " is outside 0..33");
      rolls.push_back(static_cast<uint8_t>(v));
    }
    const std::string plan = f[2].substr(1);
    if (plan.size() != rolls.size())
      bad(text, "the plan so far has " + std::to_string(plan.size()) + " actions for " + std::to_string(rolls.size()) +
                    " rolls (one action a turn, each turn spawns its roll)");
    Rules from_start;
    from_start.fly_hp = rules.fly_hp;
    const Playout out = play(rolls, plan, from_start);
    if (out.illegal_turn) bad(text, "turn " + std::to_string(out.illegal_turn) + ": " + out.illegal_why);
    if (out.death != Death::None)
      bad(text, "the toad dies on turn " + std::to_string(out.turns_played) + " (" + death_name(out.death) + ")");
    for (int i = 0; i < 4; ++i) {
      const int k = static_cast<int>(rolls.size()) - 1 - i;
      p.r[i] = k >= 0 ? rolls[k] : 0;
    }
    p.hp = out.final_hp;
    p.column = 0;
    for (int c = 1; c <= 5; ++c)
      if (out.board.back()[c] == 'T') p.column = c;
  } else if (picture) {
    const size_t u1 = text.find('_'), u2 = u1 == std::string::npos ? u1 : text.find('_', u1 + 1);
    if (u2 == std::string::npos) bad(text, "write <turns left>_<HP>_<row0>/<row1>/<row2>/<row3>/<row4>");
    p.t = number(text, text.substr(0, u1), "turns left");
    p.hp = number(text, text.substr(u1 + 1, u2 - u1 - 1), "HP");
    std::vector<std::string> rows;
    std::stringstream ss(text.substr(u2 + 1));
    for (std::string row; std::getline(ss, row, '/');) rows.push_back(row);
    if (rows.size() != 5) bad(text, "a board picture has 5 rows separated by '/'");
    for (int i = 0; i < 4; ++i) p.r[i] = roll_of_row(text, rows[i], i);
    const std::string& bottom = rows[4];
    if (bottom.size() != 7 || bottom[0] != '#' || bottom[6] != '#') bad(text, "the bottom row is #, five cells, #");
    p.column = 0;
    for (int c = 1; c <= 5; ++c) {
      if (bottom[c] == 'T') {
        if (p.column) bad(text, "two toads in the bottom row");
        p.column = c;
      } else if (bottom[c] != ' ') {
        bad(text, "the bottom row holds the toad T and spaces (a dead toad X has no value)");
      }
    }
    if (!p.column) bad(text, "no toad T in the bottom row");
  } else {
    if (f.size() != 4)
      bad(text, "write <turns left>_<HP>_<column>_<row0 roll>.<row1>.<row2>.<row3> (e.g. 8_20_3_0.0.0.0), "
                "a board picture <turns left>_<HP>_<row0>/.../<row4>, or <turns left>_r<rolls>_p<plan>");
    p.t = number(text, f[0], "turns left");
    p.hp = number(text, f[1], "HP");
    p.column = number(text, f[2], "column");
    std::stringstream ss(f[3]);
    int i = 0;
    for (std::string r; std::getline(ss, r, '.'); ++i) {
      if (i >= 4) bad(text, "four rolls, rows 0..3");
      p.r[i] = number(text, r, "roll");
      if (p.r[i] > kMaxRoll) bad(text, "roll " + r + " is outside 0..33");
    }
    if (i != 4) bad(text, "four rolls, rows 0..3, separated by '.'");
  }
  if (p.column < kFirstRiver || p.column > kLastRiver) bad(text, "the column is 1..5");
  if (p.t < 1 || p.t > turns) bad(text, "turns left must be 1.." + std::to_string(turns) + " in this database");
  if (p.hp < 1) bad(text, "HP 0 is a dead toad");
  p.hp = std::min(p.hp, 3 * p.t + 1);
  return p;
}

std::string format_position(const SurvivalPosition& p) {
  return std::to_string(p.t) + "_" + std::to_string(p.hp) + "_" + std::to_string(p.column) + "_" +
         std::to_string(p.r[0]) + "." + std::to_string(p.r[1]) + "." + std::to_string(p.r[2]) + "." +
         std::to_string(p.r[3]);
}

std::vector<std::string> board_of(const SurvivalPosition& p) {
  std::vector<std::string> rows;
  for (int i = 0; i < 4; ++i) {
    std::string row = "#     #";
    const uint8_t s = snake_columns(p.r[i]);
    for (int c = 1; c <= 5; ++c)
      if ((s >> c) & 1) row[c] = 'S';
    if (p.r[i] == kLeftFlyRoll) row[0] = 'F';
    if (p.r[i] == kRightFlyRoll) row[6] = 'F';
    rows.push_back(row);
  }
  std::string bottom = "#     #";
  bottom[p.column] = 'T';
  rows.push_back(bottom);
  return rows;
}

}  // namespace toadbase::river_toad
