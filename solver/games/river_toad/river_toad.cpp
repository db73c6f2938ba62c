#include "solver/games/river_toad/river_toad.hpp"

#include <cctype>
#include <fstream>
#include <sstream>

#include "solver/core/printable.hpp"

namespace toadbase::river_toad {

int action_of(char letter) {
  const char u = static_cast<char>(std::toupper(static_cast<unsigned char>(letter)));
  for (int a = 0; a < kActions; ++a)
    if (kLetters[a] == u) return a;
  return -1;
}

uint8_t snake_columns(int roll) {
  if (roll < 1 || roll > 31) return 0;
  uint8_t mask = 0;
  for (int c = kFirstRiver; c <= kLastRiver; ++c)
    if ((roll >> (5 - c)) & 1) mask |= static_cast<uint8_t>(1u << c);
  return mask;
}

int fly_column(int roll) {
  if (roll == kLeftFlyRoll) return 0;
  if (roll == kRightFlyRoll) return kColumns - 1;
  return -1;
}

const char* death_name(Death d) {
  switch (d) {
    case Death::Caught:
      return "caught by a snake";
    case Death::Starved:
      return "starved (HP 0)";
    default:
      return "alive";
  }
}

namespace {

// The line without its comment, trimmed.
std::string content(const std::string& line) {
  std::string s = line.substr(0, line.find('#'));
  const size_t a = s.find_first_not_of(" \t\r");
  if (a == std::string::npos) return "";
  const size_t b = s.find_last_not_of(" \t\r");
  return s.substr(a, b - a + 1);
}

bool parse_int(const std::string& s, long long& v) {
  if (s.empty() || s.size() > 12) return false;
  size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;
  if (i == s.size()) return false;
  for (size_t j = i; j < s.size(); ++j)
    if (!std::isdigit(static_cast<unsigned char>(s[j]))) return false;
  v = std::stoll(s);
  return true;
}

}  // namespace

std::vector<uint8_t> read_rolls(std::istream& in, const std::string& name) {
  std::string line;
  int lineno = 0;
  long long count = -1;
  int count_line = 0;
  std::vector<uint8_t> rolls;
  auto fail = [&](int l, const std::string& why) -> void {
    throw RollError(name + ":" + std::to_string(l) + ": " + why);
  };
  while (std::getline(in, line)) {
    ++lineno;
    const std::string s = content(line);
    if (s.empty()) continue;
    long long v;
    // the line is the user's bytes: shown escaped (a NUL must not end the message) and cut
    // short (a 600 KB line is not echoed whole)
    if (!parse_int(s, v)) fail(lineno, "'" + printable_excerpt(s) + "' is not an integer");
    if (count < 0) {
      if (v < 0) fail(lineno, "the count of rolls cannot be negative (" + s + ")");
      count = v;
      count_line = lineno;
      continue;
    }
    if (v < 0 || v > kMaxRoll)
      fail(lineno, "roll " + s + " is outside 0.." + std::to_string(kMaxRoll));
    if (static_cast<long long>(rolls.size()) == count)
      fail(lineno, "more rolls than the count " + std::to_string(count) + " on line " +
                       std::to_string(count_line));
    rolls.push_back(static_cast<uint8_t>(v));
  }
  if (count < 0) fail(lineno ? lineno : 1, "no count of rolls (the first line gives N)");
  if (static_cast<long long>(rolls.size()) != count)
    fail(lineno, "the count on line " + std::to_string(count_line) + " says " +
                     std::to_string(count) + " rolls, the file has " +
                     std::to_string(rolls.size()));
  return rolls;
}

std::vector<uint8_t> read_rolls_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw RollError(path + ": cannot read the roll file");
  return read_rolls(in, path);
}

Board::Board(const Rules& rules) : rules_(rules), column_(rules.start_column), hp_(rules.start_hp) {
  for (auto& row : cell_) row.fill(' ');
}

void Board::turn(int action, int roll) {
  // the toad's fate is THE TURN's: decided by the roll spawned kDelay turns ago, the one
  // that reaches the bottom row now
  const int arriving =
      turns_ >= kDelay ? spawned_[static_cast<size_t>(turns_ - kDelay) % kDelay] : -1;
  const TurnResult x = river_toad::turn(column_, hp_, action, arriving, rules_);
  column_ = x.column;
  hp_ = x.hp;
  ate_ = x.ate;
  death_ = x.death;
  // the picture: snakes and flies move down a row (those in the bottom row are gone), the
  // roll spawns in the top row
  for (int r = kRows - 2; r >= 0; --r)
    for (int c = 0; c < kColumns; ++c) {
      cell_[r + 1][c] = r + 1 == kRows - 1 ? ' ' : cell_[r][c];
      cell_[r][c] = ' ';
    }
  const uint8_t snakes = snake_columns(roll);
  for (int c = kFirstRiver; c <= kLastRiver; ++c)
    if ((snakes >> c) & 1) cell_[0][c] = 'S';
  if (fly_column(roll) >= 0) cell_[0][fly_column(roll)] = 'F';
  spawned_[static_cast<size_t>(turns_) % kDelay] = static_cast<uint8_t>(roll);
  ++turns_;
}

std::vector<std::string> Board::render() const {
  std::vector<std::string> out;
  for (int r = 0; r < kRows; ++r) {
    std::string line(kColumns, ' ');
    line[0] = line[kColumns - 1] = '#';
    for (int c = 0; c < kColumns; ++c)
      if (cell_[r][c] == 'S' || cell_[r][c] == 'F') line[c] = cell_[r][c];
    if (r == kRows - 1) line[column_] = alive() ? 'T' : 'X';
    out.push_back(line);
  }
  return out;
}

Playout play(const std::vector<uint8_t>& rolls, const std::string& plan, const Rules& rules) {
  Board b(rules);
  Playout p;
  for (size_t i = 0; i < plan.size(); ++i) {
    const int a = action_of(plan[i]);
    const int turn = static_cast<int>(i) + 1;
    if (i >= rolls.size()) {
      p.illegal_turn = turn;
      p.illegal_why = "the plan is longer than the " + std::to_string(rolls.size()) + " rolls";
      break;
    }
    if (a < 0) {
      p.illegal_turn = turn;
      p.illegal_why = "'" + printable(std::string(1, plan[i])) + "' is not an action (A S D F G)";
      break;
    }
    if (!legal(b.column(), a)) {
      p.illegal_turn = turn;
      p.illegal_why = std::string(1, kLetters[a]) + " from column " + std::to_string(b.column()) +
                      " leaves the river (columns 1..5)";
      break;
    }
    b.turn(a, rolls[i]);
    if (!b.alive()) break;
  }
  p.turns_played = b.turns();
  p.final_hp = b.hp();
  p.death = b.death();
  p.board = b.render();
  return p;
}

std::string plan_string(const std::vector<int>& actions) {
  std::string s;
  for (int a : actions) s += kLetters[a];
  return s;
}

}  // namespace toadbase::river_toad
