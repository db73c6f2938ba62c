#include "solver/games/frog_puzzle/module.hpp"

#include <algorithm>
#include <map>

#include "solver/games/frog_puzzle/explorer.hpp"

namespace toadbase::frog_puzzle {

std::vector<ParamSpec> Module::parameters() {
  return {
      {"left", ParamSpec::Kind::Int, "frogs facing right, L", "3", 0, kMaxCells},
      {"right", ParamSpec::Kind::Int, "frogs facing left, R", "as many as --left", 0, kMaxCells},
      {"empty", ParamSpec::Kind::Int, "empty cells", "1", 1, kMaxCells},
      {"start", ParamSpec::Kind::String, "the space that holds this board (e.g. LLL_RRR)", "none"},
  };
}

nlohmann::json Module::normalize(const nlohmann::json& given) {
  Counts c;
  if (given.contains("start")) {
    if (given.contains("left") || given.contains("right") || given.contains("empty"))
      throw std::invalid_argument("--start gives the frog counts; drop --left, --right, --empty");
    c = counts(frog_puzzle::parse(given["start"].get<std::string>()));
  } else {
    c.n = given.value("left", 3);
    c.m = given.value("right", c.n);
    c.k = given.value("empty", 1);
  }
  nlohmann::json out = {{"left", c.n}, {"right", c.m}, {"empty", c.k}};
  Space{c};  // validates
  return out;
}

Module::Space Module::make_space(const nlohmann::json& j) {
  return Space(Counts{j.at("left").get<int>(), j.at("right").get<int>(), j.at("empty").get<int>()});
}

Position Module::parse(const std::string& text, const std::string& turn) {
  if (!turn.empty() && turn != "1")
    throw BadTurn("the frog puzzle has one player: the player to move can only be 1, not '" + printable_excerpt(turn) + "'");
  return frog_puzzle::parse(text);
}

std::vector<NamedMove<Position>> Module::moves(const Position& p) {
  std::vector<NamedMove<Position>> out;
  if (is_goal(p)) return out;
  for (Move m : legal_moves(p)) out.push_back({move_text(p, m), autogui_move(m), apply(p, m)});
  return out;
}

std::string Module::autogui_position(const Position& p) {
  std::string board = frog_puzzle::format(p);
  for (char& c : board)
    if (c == '_') c = '-';
  return "1_" + board;
}

Position Module::start(const Space& space) {
  return start_of(space.counts());
}

Module::Census::Census(const Space& space)
    : start_position_(start_of(space.counts())),
      goal_(goal_of(space.counts())),
      start_at_(space.rank(start_position_)) {
  Explorer ex(start_position_, kDefaultExploreLimit, false);
  reachable_ = ex.reachable();
  stuck_ = ex.stuck();
  for (size_t d = 0; d < ex.layers(); ++d)
    for (uint64_t k : ex.layer(d)) {
      const TierIndex ti = space.rank(ex.position(k));
      by_tier_[ti.tier].push_back(ti.index);
    }
}

nlohmann::json Module::Census::report() const {
  const Position& start = start_position_;
  const Outcome s = start_;
  const uint64_t wins = wins_, loses = loses_;
  const auto& by_r = by_r_;
  nlohmann::json rows = nlohmann::json::array();
  for (auto [r, c] : by_r) rows.push_back({{"remoteness", r}, {"positions", c}});
  nlohmann::json out;
  out["fromStart"] = {{"start", format(start)},
                      {"goal", format(goal_)},
                      {"startValue", value_name(s.value)},
                      {"startRemoteness", s.remoteness},
                      {"reachable", reachable_},
                      {"canReachGoal", wins},
                      {"deadEnds", loses},
                      {"stuck", stuck_},
                      {"reachableByRemoteness", rows}};
  out["report"] = nlohmann::json::array(
      {"from the start " + format(start) + " (" + std::string(value_name(s.value)) +
       (s.value == Value::Win ? " in " + std::to_string(s.remoteness) : std::string()) +
       "): " + std::to_string(reachable_) + " positions reachable, " + std::to_string(wins) +
       " can still reach the goal, " + std::to_string(loses) + " dead ends (" +
       std::to_string(stuck_) + " with no move at all)"});
  return out;
}

// The route's work budget. A request whose reach bound (frog_puzzle.hpp) is within
// kBoundSlack times the route's limit is explored up to the limit (at most about 0.7 s of the
// heavy pool at the default 2^22). One past it is explored only up to kQuickPositions (about
// 10 ms): a position with few reachable positions despite its bound (stuck frogs) is still
// answered, and the rest are refused in milliseconds, where exploring to the limit took
// 0.7 s. The bound has measured 1.7 to 5 times the reachable count, so a refusal this way
// means, nearly always, past the limit.
namespace {
constexpr uint64_t kBoundSlack = 8;
constexpr uint64_t kQuickPositions = uint64_t{1} << 16;
}  // namespace

std::vector<ApiRoute> Module::api_routes() {
  ApiRoute solve{
      "solve", false, [](const ApiRequest& req) {
        if (!req.has("p"))
          return ApiAnswer::error(400, "give the position: /api/frog-puzzle/solve?p=LLL_RRR");
        const uint64_t max_positions = req.limit("positions", uint64_t{1} << 22);
        const Position start = frog_puzzle::parse(req.param("p"));
        const uint64_t bound = reach_bound(start);
        const bool far = bound / kBoundSlack >= max_positions;
        const uint64_t budget = far ? std::min(max_positions, kQuickPositions) : max_positions;
        try {
          return ApiAnswer{200, solve_json(start, budget)};
        } catch (const std::length_error&) {
          if (far)
            return ApiAnswer::error(
                413, "as many as " + std::to_string(bound) + " positions may be reachable from " +
                         format(start) + " (more than " + std::to_string(kBoundSlack) +
                         " times this server's limit of " + std::to_string(max_positions) +
                         "), and the first " + std::to_string(budget) +
                         " explored did not end; use toadbase frog-puzzle solve");
          return ApiAnswer::error(
              413, "more than " + std::to_string(max_positions) + " positions are reachable from " +
                       format(start) + "; use toadbase frog-puzzle solve");
        }
      }};
  return {solve};
}

UwapiGame Module::uwapi() {
  UwapiGame g;
  g.name = "Frog Swap Puzzle";
  g.one_player = true;
  g.mover = 'L';
  g.other = 'R';
  g.instructions =
      "# Frog Swap Puzzle\n\n"
      "Frogs facing right (L) start on the left, frogs facing left (R) on the right, with an "
      "empty cell between them. Swap the two groups.\n\n"
      "- A frog moves only the way it faces: into the adjacent empty cell, or over exactly one "
      "frog of the other kind into the empty cell beyond.\n"
      "- The puzzle is solved when every R is left of every L.\n\n"
      "Some moves lead to dead ends from which the goal cannot be reached.\n";
  g.describe = [](const nlohmann::json& p) {
    const int empty = p.value("empty", 1);
    return std::to_string(p.value("left", 0)) + " + " + std::to_string(p.value("right", 0)) +
           " frogs, " + std::to_string(empty) + (empty == 1 ? " empty cell" : " empty cells");
  };
  return g;
}

PageView Module::page() {
  PageView v;
  v.title = "The frog swap puzzle";
  v.kind = "strip";
  v.describe = [](const nlohmann::json& p) {
    return "Frog puzzle, " + std::to_string(p.value("left", 0)) + " + " +
           std::to_string(p.value("right", 0)) + " frogs, " + std::to_string(p.value("empty", 1)) +
           " empty";
  };
  v.about = [](const nlohmann::json& p) {
    const std::string goal = std::string(p.value("right", 0), 'R') +
                             std::string(p.value("empty", 1), '_') +
                             std::string(p.value("left", 0), 'L');
    return "Click a frog to move it: it slides into the empty cell ahead or jumps one frog of the "
           "other kind. Swap the two groups: the goal is " +
           goal + ".";
  };
  v.route = "solve";
  v.pieces = {{'L', "frog facing right", "L\u203a", "left"},
              {'R', "frog facing left", "\u2039R", "right"}};
  v.words = {{"solved", "Solved! Every frog has crossed."},
             {"stuck", "Stuck: no frog can move, and this is not the goal."}};
  return v;
}

}  // namespace toadbase::frog_puzzle
