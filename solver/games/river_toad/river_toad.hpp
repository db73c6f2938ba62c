// River Toad (a roll-driven Frogger-like game): the rules, the roll file, the board.
//
// THE BOARD. 5 rows x 7 columns, row 0 on top (where things spawn), row 4 the bottom row,
// column 0 the left bank, columns 1..5 the river, column 6 the right bank. Mr. Toad lives in
// the bottom row, river columns only.
//
//     #SS SS#   row 0: roll k-1 (spawned last turn)         # bank
//     # SSS #   row 1: roll k-2                              S snake (river), F fly (bank)
//     # S S #   row 2: roll k-3                              T the toad, X the toad dead
//     #S S S#   row 3: roll k-4 (reaches the bottom on turn k)
//     #   T #   row 4: the toad (snakes and flies vanish here)
//
// A TURN (k = 1..N), five phases: (1) the toad moves (A -2 / S -1 / D 0 / F +1 / G +2 columns,
// costing 3 / 1 / 0 / 1 / 3 HP, clamped at 0; never off the river); (2) snakes move down,
// one entering the toad's cell catches him; (3) flies move down, a fly entering the bottom
// row beside the toad (left bank and column 1, right bank and column 5) is eaten: +5 HP;
// (4) roll k spawns in row 0; (5) HP 0 or caught: dead.
//
// CLOSED FORM (turn() below: every solver, the database and the Board use it; the tests run
// the five phases literally and check they agree): roll k-4 reaches the bottom row on turn
// k, so turn k is decided by the toad's column after the move and roll k-4 alone. The last
// four rolls never matter.
#pragma once

#include <array>
#include <cstdint>
#include <istream>
#include <stdexcept>
#include <string>
#include <vector>

namespace toadbase::river_toad {

inline constexpr int kRows = 5, kColumns = 7;
inline constexpr int kFirstRiver = 1, kLastRiver = 5;
inline constexpr int kMaxRoll = 33, kLeftFlyRoll = 32, kRightFlyRoll = 33;
inline constexpr int kDelay = 4;  // turns from spawning to reaching the bottom row

/// The named defaults, each with a command-line override.
struct Rules {
  int start_column = 3;  // River 3, the centre
  int start_hp = 20;     // inferred from the assignment's sample
  int fly_hp = 5;        // HP a fly gives
};

/// Actions in letter order A S D F G: index 0..4.
inline constexpr int kActions = 5;
inline constexpr std::array<char, kActions> kLetters = {'A', 'S', 'D', 'F', 'G'};
inline constexpr std::array<int, kActions> kShift = {-2, -1, 0, 1, 2};
inline constexpr std::array<int, kActions> kCost = {3, 1, 0, 1, 3};
/// The action of a letter (upper or lower case), or -1.
int action_of(char letter);

/// Bit c set: a snake spawns in river column c (1..5); River c iff bit (5 - c) of the roll.
uint8_t snake_columns(int roll);
/// The bank column of the fly a roll spawns (0 or 6), or -1.
int fly_column(int roll);

/// A roll file's defect, naming its line.
struct RollError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};
/// Reads "N # comment" then N rolls (0..33), one a line; '#' comments and blank lines are
/// allowed anywhere. `name` is used in messages.
std::vector<uint8_t> read_rolls(std::istream& in, const std::string& name);
std::vector<uint8_t> read_rolls_file(const std::string& path);

enum class Death : uint8_t { None, Caught, Starved };
const char* death_name(Death d);

/// The toad at the start of turn `turn + 1` (after `turn` turns).
struct State {
  int turn = 0, column = 3, hp = 20;
};

/// True when the action keeps the toad in the river.
inline bool legal(int column, int action) {
  const int c = column + kShift[action];
  return c >= kFirstRiver && c <= kLastRiver;
}

struct Step {
  State next;
  Death death = Death::None;
  bool ate = false;
};

/// THE TURN, by the closed form: the toad on `column` with `hp` takes `action` (legal), and
/// `arriving` (the roll that reaches the bottom row this turn, -1 for none) decides it. Every
/// solver and the position database go through here.
struct TurnResult {
  int column, hp;
  Death death = Death::None;
  bool ate = false;
};
inline TurnResult turn(int column, int hp, int action, int arriving, const Rules& rules) {
  TurnResult r{column + kShift[action], hp - kCost[action]};
  if (r.hp < 0) r.hp = 0;
  bool caught = false;
  if (arriving >= 0) {
    caught = (snake_columns(arriving) >> r.column) & 1;
    if ((arriving == kLeftFlyRoll && r.column == kFirstRiver) ||
        (arriving == kRightFlyRoll && r.column == kLastRiver)) {
      r.hp += rules.fly_hp;
      r.ate = true;
    }
  }
  r.death = caught ? Death::Caught : r.hp == 0 ? Death::Starved : Death::None;
  return r;
}

/// One turn of a roll file (the action must be legal; turn < rolls.size()).
inline Step step(const std::vector<uint8_t>& rolls, const State& s, int action,
                 const Rules& rules) {
  const int t = s.turn + 1;
  const TurnResult x = turn(s.column, s.hp, action, t > kDelay ? rolls[t - 1 - kDelay] : -1, rules);
  Step r;
  r.next = State{t, x.column, x.hp};
  r.death = x.death;
  r.ate = x.ate;
  return r;
}

/// The board as the rules draw it (for rendering, play and checking plans): the toad's fate
/// each turn comes from turn() above, the snakes and flies on their way down are drawn.
class Board {
 public:
  explicit Board(const Rules& rules);
  /// Plays one turn: the action (must be legal) and the roll that spawns.
  void turn(int action, int roll);
  bool alive() const { return death_ == Death::None; }
  Death death() const { return death_; }
  int hp() const { return hp_; }
  int column() const { return column_; }
  int turns() const { return turns_; }
  bool ate_last_turn() const { return ate_; }
  /// Five lines of 7 characters, top row first.
  std::vector<std::string> render() const;

 private:
  Rules rules_;
  std::array<std::array<char, kColumns>, kRows> cell_{};
  int column_, hp_, turns_ = 0;
  std::array<uint8_t, kDelay> spawned_{};  // the last kDelay rolls, by turn modulo kDelay
  bool ate_ = false;
  Death death_ = Death::None;
};

/// What a plan does: played by the Board until the plan ends or the toad dies.
struct Playout {
  int turns_played = 0;  // turns played (the death turn included)
  int final_hp = 0;
  Death death = Death::None;
  int illegal_turn = 0;  // 1-based turn of the first illegal action, 0 = none
  std::string illegal_why;
  std::vector<std::string> board;  // after the last turn played
  bool survived(size_t rolls) const {
    return illegal_turn == 0 && death == Death::None && turns_played == static_cast<int>(rolls);
  }
};
/// Plays `plan` (letters) over the rolls. Stops at an illegal action, a death, or the end of
/// the plan (a plan longer than the rolls is illegal at turn N + 1).
Playout play(const std::vector<uint8_t>& rolls, const std::string& plan, const Rules& rules);

std::string plan_string(const std::vector<int>& actions);

}  // namespace toadbase::river_toad
