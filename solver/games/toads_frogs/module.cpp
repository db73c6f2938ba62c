#include "solver/games/toads_frogs/module.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <map>

namespace toadbase::toads_frogs {

std::vector<ParamSpec> Module::parameters() {
  return {
      {"length", ParamSpec::Kind::Int,
       "cells on the strip (1.." + std::to_string(kMaxLength) + "); every board of this length",
       "10", 1, kMaxLength},
      {"toads", ParamSpec::Kind::Int, "only boards with this many toads (with --frogs)",
       "every count", 0, kMaxLength},
      {"frogs", ParamSpec::Kind::Int, "only boards with this many frogs (with --toads)",
       "every count", 0, kMaxLength},
      {"start", ParamSpec::Kind::String,
       "the space that holds this board: its length and piece counts (e.g. TTT---FFF)", "none"},
  };
}

namespace {
SpaceParams params_of(const nlohmann::json& j) {
  SpaceParams p;
  p.length = j.at("length").get<int>();
  if (j.contains("toads")) {
    p.toads = j.at("toads").get<int>();
    p.frogs = j.at("frogs").get<int>();
  }
  return p;
}
}  // namespace

nlohmann::json Module::normalize(const nlohmann::json& given) {
  nlohmann::json out;
  if (given.contains("start")) {
    if (given.contains("length") || given.contains("toads") || given.contains("frogs"))
      throw std::invalid_argument(
          "--start gives the length and piece counts; drop --length, --toads, --frogs");
    Position p = toads_frogs::parse(given["start"].get<std::string>(), Player::Toads);
    out["length"] = p.length;
    out["toads"] = std::popcount(p.toads);
    out["frogs"] = std::popcount(p.frogs);
  } else {
    out["length"] = given.value("length", 10);
    if (given.contains("toads") != given.contains("frogs"))
      throw std::invalid_argument("give both --toads and --frogs, or neither");
    if (given.contains("toads")) {
      out["toads"] = given["toads"];
      out["frogs"] = given["frogs"];
    }
  }
  Space::check(params_of(out));  // validates, without making the space's tables
  return out;
}

Module::Space Module::make_space(const nlohmann::json& j) { return Space(params_of(j)); }

Position Module::parse(const std::string& text, const std::string& turn) {
  std::optional<Player> def;
  if (turn == "1") {
    def = Player::Toads;
  } else if (turn == "2") {
    def = Player::Frogs;
  } else if (!turn.empty()) {
    throw BadTurn("the player to move is 1 (Toads) or 2 (Frogs), not '" + printable_excerpt(turn) + "'");
  }
  const Position p = toads_frogs::parse(text, def);
  // a bare board takes the turn given; a position that names its own player must agree with it
  if (def && p.turn != *def)
    throw PositionError(printable("position '" + text + "': " + (p.turn == Player::Toads ? "1 (Toads)" : "2 (Frogs)") +
                                  " to move, and the turn given is " + turn));
  return p;
}

std::vector<NamedMove<Position>> Module::moves(const Position& p) {
  std::vector<NamedMove<Position>> out;
  for (Move m : legal_moves(p)) out.push_back({move_name(m), autogui_move(m), apply(p, m)});
  return out;
}

Position Module::start(const Space& space) {
  const int n = space.length();
  const int t = space.params().toads ? *space.params().toads : (n + 1) / 3;
  const int f = space.params().frogs ? *space.params().frogs : (n + 1) / 3;
  Position p;
  p.length = static_cast<uint8_t>(n);
  p.toads = (1u << t) - 1;
  p.frogs = ((1u << f) - 1) << (n - f);
  p.turn = Player::Toads;
  return p;
}

uint64_t Module::remoteness_bound(const nlohmann::json& j) {
  const int n = j.at("length").get<int>();
  uint64_t worst = 0;
  for (int t = 0; t <= n; ++t)
    for (int f = 0; t + f <= n; ++f) {
      if (j.contains("toads") && (t != j.at("toads").get<int>() || f != j.at("frogs").get<int>()))
        continue;
      const uint64_t e = static_cast<uint64_t>(n - t - f);
      worst = std::max<uint64_t>(worst, e * static_cast<uint64_t>(t + f) +
                                            static_cast<uint64_t>(t) * static_cast<uint64_t>(f));
    }
  return worst;
}

nlohmann::json Module::Census::report() const {
  nlohmann::json rows = nlohmann::json::array();
  std::array<uint64_t, 4> total{};
  // the same as lines for `analyze` without --json: a row a piece count, then the totals
  nlohmann::json lines = {
      "outcome classes of the boards (each board counted once, both players' values together):",
      "L: Left (Toads) wins whoever starts, R: Right (Frogs) wins whoever starts,",
      "N: the player to move wins, P: the player to move loses"};
  char line[128];
  auto counts = [&](const char* head, const std::array<uint64_t, 4>& c) {
    std::snprintf(line, sizeof line, "%s %12llu %12llu %12llu %12llu", head,
                  static_cast<unsigned long long>(c[0]), static_cast<unsigned long long>(c[1]),
                  static_cast<unsigned long long>(c[2]), static_cast<unsigned long long>(c[3]));
    lines.push_back(line);
  };
  std::snprintf(line, sizeof line, "%6s %6s %12s %12s %12s %12s", "toads", "frogs", "L", "R", "N",
                "P");
  lines.push_back(line);
  for (const auto& [k, c] : by_counts_) {
    rows.push_back({{"toads", k.first},
                    {"frogs", k.second},
                    {"L", c[0]},
                    {"R", c[1]},
                    {"N", c[2]},
                    {"P", c[3]}});
    for (int i = 0; i < 4; ++i) total[i] += c[i];
    char head[32];
    std::snprintf(head, sizeof head, "%6d %6d", k.first, k.second);
    counts(head, c);
  }
  counts("          all", total);
  return {
      {"outcomeClasses", rows},
      {"outcomeClassTotals", {{"L", total[0]}, {"R", total[1]}, {"N", total[2]}, {"P", total[3]}}},
      {"report", lines}};
}

UwapiGame Module::uwapi() {
  UwapiGame g;
  g.name = "Toads and Frogs";
  g.mover = 'T';
  g.other = 'F';
  g.instructions =
      "# Toads and Frogs\n\n"
      "A strip of cells holds toads (T) and frogs (F). Player 1 moves the toads, which go right; "
      "player 2 moves the frogs, which go left.\n\n"
      "- On your turn, slide one of your pieces one cell forward into an empty cell, or jump it "
      "over exactly one opposing piece into the empty cell just beyond.\n"
      "- You cannot jump your own piece, an empty cell, or two pieces.\n"
      "- The player who cannot move loses.\n\n"
      "Every position's value comes from an exhaustive solve: a win hurries, a loss stalls.\n";
  g.describe = [](const nlohmann::json& p) {
    std::string s = std::to_string(p.value("length", 0)) + " cells";
    if (p.contains("toads"))
      s += ", " + std::to_string(p.value("toads", 0)) + " toads, " +
           std::to_string(p.value("frogs", 0)) + " frogs";
    return s;
  };
  return g;
}

PageView Module::page() {
  PageView v;
  v.title = "Toads and Frogs";
  v.kind = "strip";
  v.describe = [](const nlohmann::json& p) {
    std::string s = "Toads and Frogs, " + std::to_string(p.value("length", 0)) + " cells";
    if (p.contains("toads"))
      s += ", " + std::to_string(p.value("toads", 0)) + " toads, " +
           std::to_string(p.value("frogs", 0)) + " frogs";
    return s;
  };
  v.about = [](const nlohmann::json&) {
    return std::string(
        "Toads (T, brown) slide or jump right, Frogs (F, blue) left; whoever cannot move loses.");
  };
  v.turn_prefix = true;
  v.sides = {{"Toads", "var(--toad)"}, {"Frogs", "var(--frog)"}};
  v.pieces = {{'T', "toad", "T\u203a", "toad"}, {'F', "frog", "\u2039F", "frog"}};
  return v;
}

}  // namespace toadbase::toads_frogs
