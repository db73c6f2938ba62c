// `toadbase river-toad solve | check | prefixes | play`: plans for a roll file, checking
// anyone's output file, the outcome of every roll prefix, and a turn-by-turn replay.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "solver/module/cli_numbers.hpp"
#include "solver/games/river_toad/algorithms.hpp"
#include "solver/games/river_toad/module.hpp"
#include "solver/games/river_toad/positions.hpp"
#include "solver/games/river_toad/prefixes.hpp"

namespace toadbase::river_toad {

namespace {

using json = nlohmann::ordered_json;

struct Options {
  std::string rolls, out, algorithm = "dp", plan, plan_file, advise;
  Rules rules;
  bool json_out = false, counts = false, no_counts = false;
  uint64_t budget = kDefaultNodeBudget;
  const Host* host = nullptr;
};

void check_rules(const Rules& r) {
  if (r.start_column < kFirstRiver || r.start_column > kLastRiver)
    throw UsageError("--column must be a river column, 1..5, not " + std::to_string(r.start_column));
  if (r.start_hp < 1 || r.start_hp > 1000000)
    throw UsageError("--hp must be 1..1000000, not " + std::to_string(r.start_hp));
  if (r.fly_hp < 0 || r.fly_hp > 1000) throw UsageError("--fly-hp must be 0..1000, not " + std::to_string(r.fly_hp));
}

/// The roll file ("-": standard input), read through the host.
std::vector<uint8_t> rolls_of(const Options& o) {
  std::istringstream in(o.host->read_input(o.rolls));
  return read_rolls(in, o.rolls == "-" ? "standard input" : o.rolls);
}

/// The assignment's output file: plan, final HP, the board.
std::string output_text(const std::string& plan, const Playout& p) {
  std::string s = plan + "\n" + std::to_string(p.final_hp) + "\n";
  for (const auto& row : p.board) s += row + "\n";
  return s;
}

std::string shorten(const std::string& plan, size_t most = 40) {
  if (plan.size() <= most) return plan;
  return plan.substr(0, most) + "... (" + std::to_string(plan.size()) + ")";
}

json result_json(const PlanResult& r, double seconds) {
  json j = {{"algorithm", r.algorithm}, {"survived", r.survived}, {"gaveUp", r.gave_up},
            {"plan", plan_string(r.actions)}, {"finalHp", r.survived ? json(r.final_hp) : json(nullptr)},
            {"nodesExpanded", r.nodes_expanded}, {"seconds", seconds}};
  return j;
}

/// `solve --json`'s object without `algorithms`: the plan written, its final board, and the
/// replay turn by turn (`turns`: each turn's action, roll, column, HP and board).
json plan_json(const std::vector<uint8_t>& rolls, const Rules& rules, const PlanResult& dp, const std::string& plan,
               const Playout& p) {
  const bool survives = dp.survived;
  json j = {{"rolls", rolls.size()}, {"survivable", survives},
            {"optimalHp", survives ? json(dp.final_hp) : json(nullptr)}, {"plan", plan},
            {"finalHp", p.final_hp}, {"board", p.board}};
  if (!survives) {
    j["survivesTurns"] = p.turns_played - 1;
    j["deathTurn"] = p.turns_played;
    j["death"] = death_name(p.death);
  }
  Board b(rules);
  j["start"] = {{"column", b.column()}, {"hp", b.hp()}, {"board", b.render()}};
  json turns = json::array();
  for (size_t i = 0; i < plan.size() && i < rolls.size() && b.alive(); ++i) {
    const int a = action_of(plan[i]);
    if (a < 0 || !legal(b.column(), a)) break;  // dp's plans are legal; a guard, not a path
    b.turn(a, rolls[i]);
    json t = {{"turn", i + 1}, {"action", std::string(1, plan[i])}, {"roll", int(rolls[i])}, {"column", b.column()},
              {"hp", b.hp()}, {"ate", b.ate_last_turn()}, {"alive", b.alive()}, {"board", b.render()}};
    if (!b.alive()) t["death"] = death_name(b.death());
    turns.push_back(std::move(t));
  }
  j["turns"] = std::move(turns);
  return j;
}

int run_solve(const Options& o) {
  check_rules(o.rules);
  const auto& names = algorithm_names();
  if (o.algorithm != "all" && std::find(names.begin(), names.end(), o.algorithm) == names.end())
    throw UsageError("--algorithm must be bfs, dfs, greedy, astar, dp or all, not '" + o.algorithm + "'");
  if (o.json_out && o.out == "-") throw UsageError("--json and the output file - would both write standard output");
  const auto rolls = rolls_of(o);
  using Clock = std::chrono::steady_clock;
  auto timed = [&](const std::string& name) {
    auto t0 = Clock::now();
    PlanResult r = solve_with(name, rolls, o.rules, o.budget);
    return std::make_pair(r, std::chrono::duration<double>(Clock::now() - t0).count());
  };
  std::vector<std::pair<PlanResult, double>> runs;
  if (o.algorithm == "all") {
    for (const auto& name : algorithm_names()) runs.push_back(timed(name));
  } else {
    runs.push_back(timed(o.algorithm));
  }
  // dp: the optimum, and the longest plan when none survives (reused when it already ran)
  const auto dp_run = std::find_if(runs.begin(), runs.end(), [](const auto& r) { return r.first.algorithm == "dp"; });
  const PlanResult dp = dp_run != runs.end() ? dp_run->first : solve_dp(rolls, o.rules);
  // the plan written: the chosen algorithm's (dp's for `all`); dp's longest when none survives
  const PlanResult& chosen = o.algorithm == "all" ? dp : runs.front().first;
  const bool survives = dp.survived;
  const std::string plan = plan_string(survives && chosen.survived ? chosen.actions : dp.actions);
  const Playout p = play(rolls, plan, o.rules);
  const std::string text = output_text(plan, p);
  if (!o.out.empty()) o.host->write_output(o.out, text);
  if (o.json_out) {
    json j = plan_json(rolls, o.rules, dp, plan, p);
    json list = json::array();
    for (const auto& [r, secs] : runs) list.push_back(result_json(r, secs));
    j["algorithms"] = list;
    std::cout << j.dump(-1, ' ', false, json::error_handler_t::replace) << "\n";
  } else {
    if (o.algorithm == "all") {
      std::printf("%-8s %-44s %9s %14s %10s\n", "algo", "plan", "final HP", "nodes", "time");
      for (const auto& [r, secs] : runs)
        std::printf("%-8s %-44s %9s %14llu %9.3fs\n", r.algorithm.c_str(),
                    r.survived ? shorten(plan_string(r.actions)).c_str() : (r.gave_up ? "(gave up: node budget)" : "(none survives)"),
                    r.survived ? std::to_string(r.final_hp).c_str() : "-",
                    static_cast<unsigned long long>(r.nodes_expanded), secs);
      std::printf("\n");
    }
    if (!survives) {
      std::cout << "no surviving plan: the best survives " << p.turns_played - 1 << " of " << rolls.size()
                << " turns and dies on turn " << p.turns_played << " (" << death_name(p.death) << ")\n";
    } else if (!chosen.survived) {
      std::cout << chosen.algorithm << " found no plan within its node budget; writing dp's\n";
    }
    if ((o.out.empty() || o.algorithm != "all") && o.out != "-") std::cout << text;
  }
  return survives ? kExitOk : kExitUnsolvable;
}

// ---- check -----------------------------------------------------------------------------

int run_check(const Options& o) {
  check_rules(o.rules);
  if (o.rolls == "-" && o.out == "-") throw UsageError("the roll file and the output file cannot both be -");
  const auto rolls = rolls_of(o);
  std::istringstream in(o.host->read_input(o.out));
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) {
    if (!l.empty() && l.back() == '\r') l.pop_back();
    lines.push_back(l);
  }
  while (!lines.empty() && lines.back().find_first_not_of(" \t") == std::string::npos) lines.pop_back();
  auto fail = [&](int line, const std::string& why) -> void {
    throw std::invalid_argument((o.out == "-" ? "standard input" : o.out) + ":" + std::to_string(line) + ": " + why);
  };
  if (lines.empty()) fail(1, "empty: the first line is the plan");
  std::string plan;
  for (char c : lines[0])
    if (c != ' ' && c != '\t') plan += c;
  if (lines.size() < 2) fail(2, "missing: the second line is the final HP");
  long long printed_hp = 0;
  {
    std::string s = lines[1];
    const size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
    s = a == std::string::npos ? "" : s.substr(a, b - a + 1);
    const size_t digits = (!s.empty() && s[0] == '-') ? 1 : 0;
    if (s.size() <= digits || s.size() > 12 || s.find_first_not_of("0123456789", digits) != std::string::npos)
      fail(2, "'" + printable_excerpt(lines[1]) + "' is not an HP (an integer)");
    printed_hp = std::stoll(s);
  }
  std::vector<std::string> printed_board(lines.begin() + 2, lines.end());
  const Playout p = play(rolls, plan, o.rules);
  const PlanResult dp = solve_dp(rolls, o.rules);
  const bool legal_plan = p.illegal_turn == 0;
  const bool survived = p.survived(rolls.size());
  const bool complete = legal_plan && p.death == Death::None && p.turns_played == static_cast<int>(rolls.size());
  // an illegal plan has no final HP or board to compare with (null in the JSON)
  const bool hp_ok = legal_plan && printed_hp == p.final_hp;
  bool board_ok = legal_plan && printed_board.size() == p.board.size();
  int first_bad_row = 0;
  if (legal_plan)
    for (size_t r = 0; r < p.board.size(); ++r) {
      std::string got = r < printed_board.size() ? printed_board[r] : "";
      while (!got.empty() && (got.back() == ' ' || got.back() == '\t') && got.size() > p.board[r].size()) got.pop_back();
      if (got != p.board[r]) {
        board_ok = false;
        if (!first_bad_row) first_bad_row = static_cast<int>(r) + 1;
      }
    }
  const bool ok = survived && hp_ok && board_ok;
  json j = {{"rolls", rolls.size()}, {"plan", plan}, {"legal", legal_plan}};
  if (!legal_plan)
    j["firstIllegal"] = {{"line", 1}, {"turn", p.illegal_turn}, {"reason", p.illegal_why}};
  j["survives"] = survived;
  if (legal_plan && p.death != Death::None) j["death"] = {{"turn", p.turns_played}, {"cause", death_name(p.death)}};
  if (legal_plan && p.death == Death::None && !complete) j["turnsMissing"] = static_cast<int>(rolls.size()) - p.turns_played;
  j["printedHp"] = printed_hp;
  j["simulatedHp"] = legal_plan ? json(p.final_hp) : json(nullptr);
  j["hpMatches"] = legal_plan ? json(hp_ok) : json(nullptr);
  j["boardMatches"] = legal_plan ? json(board_ok) : json(nullptr);
  // the file's line of the first wrong row (rows start on line 3); extra rows: the first extra
  const int wrong_line = first_bad_row ? first_bad_row + 2 : static_cast<int>(p.board.size()) + 3;
  if (legal_plan && !board_ok) j["firstWrongBoardLine"] = wrong_line;
  j["simulatedBoard"] = legal_plan ? json(p.board) : json(nullptr);
  j["optimalHp"] = dp.survived ? json(dp.final_hp) : json(nullptr);
  if (survived && dp.survived) j["hpBelowOptimum"] = dp.final_hp - p.final_hp;
  j["valid"] = ok;
  if (o.json_out) {
    // the plan is the user's bytes: invalid UTF-8 is shown replaced, never a library error
    std::cout << j.dump(-1, ' ', false, json::error_handler_t::replace) << "\n";
    return ok ? kExitOk : kExitNo;
  }
  if (!legal_plan) {
    std::cout << "illegal: line 1, turn " << p.illegal_turn << ": " << p.illegal_why << "\n";
    return 1;
  }
  if (p.death != Death::None) {
    std::cout << "dies: on turn " << p.turns_played << " of " << rolls.size() << ", " << death_name(p.death) << "\n";
  } else if (!complete) {
    std::cout << "incomplete: the plan has " << plan.size() << " actions for " << rolls.size() << " rolls\n";
  } else {
    std::cout << "survives all " << rolls.size() << " turns with HP " << p.final_hp;
    if (dp.survived)
      std::cout << (dp.final_hp == p.final_hp ? " (optimal)"
                                              : " (" + std::to_string(dp.final_hp - p.final_hp) +
                                                    " below the optimum " + std::to_string(dp.final_hp) + ")");
    std::cout << "\n";
  }
  std::cout << "printed HP " << printed_hp << (hp_ok ? ": right" : ": wrong, the simulation gives " + std::to_string(p.final_hp)) << "\n";
  std::cout << "printed board: " << (board_ok ? "right" : "wrong from line " + std::to_string(wrong_line) + "; the simulation gives:") << "\n";
  if (!board_ok)
    for (const auto& row : p.board) std::cout << "  " << row << "\n";
  std::cout << (ok ? "valid" : "not valid") << "\n";
  return ok ? kExitOk : kExitNo;
}

// ---- prefixes --------------------------------------------------------------------------

int run_prefixes(const Options& o) {
  check_rules(o.rules);
  if (o.counts && o.no_counts) throw UsageError("--counts and --no-counts contradict each other");
  const auto rolls = rolls_of(o);
  const uint64_t budget = o.no_counts ? kNoCounts : o.counts ? kAllCounts : kDefaultCountBudget;
  const Prefixes px = prefix_outcomes(rolls, o.rules, budget);
  const bool counts = budget != kNoCounts;
  std::string out;
  if (!o.json_out) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%8s %10s %8s  %s\n", "turns", "survivable", "best HP", counts ? "surviving plans" : "");
    out += buf;
  }
  for (size_t k = 0; k < rolls.size(); ++k) {
    const bool can = px.best_hp[k] >= 0;
    if (o.json_out) {  // written by hand: a million lines through json objects take seconds
      out += "{\"turns\":" + std::to_string(k + 1) + ",\"survivable\":" + (can ? "true" : "false") +
             ",\"bestHp\":" + (can ? std::to_string(px.best_hp[k]) : "null");
      if (counts) out += ",\"survivingPlans\":" + (k < px.counted ? "\"" + px.surviving[k].str() + "\"" : "null");
      out += "}\n";
    } else {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%8zu %10s %8s  ", k + 1, can ? "yes" : "no", can ? std::to_string(px.best_hp[k]).c_str() : "-");
      out += buf;
      out += counts && k < px.counted ? px.surviving[k].str() : "";
      out += "\n";
    }
    if (out.size() > (1 << 16)) {
      std::cout << out;
      out.clear();
    }
  }
  std::cout << out << std::flush;
  if (counts && px.counted < rolls.size() && !px.surviving.empty())
    std::cerr << "surviving plans counted for turns 1.." << px.counted << " only: past that the counts ("
              << px.surviving.back().str().size() << " digits at turn " << px.counted
              << ") outgrow the default budget of about a second; --counts counts them all (slow)\n";
  return 0;
}

// ---- play ------------------------------------------------------------------------------

int run_play(const Options& o) {
  check_rules(o.rules);
  if (!o.plan.empty() && !o.plan_file.empty()) throw UsageError("give --plan or --plan-file, not both");
  if (o.rolls == "-" && o.plan_file == "-") throw UsageError("the roll file and --plan-file cannot both be -");
  const auto rolls = rolls_of(o);
  std::string plan = o.plan;
  if (!o.plan_file.empty()) {
    std::istringstream in(o.host->read_input(o.plan_file));
    std::getline(in, plan);
    if (!plan.empty() && plan.back() == '\r') plan.pop_back();
  }
  // no plan given: the optimal one, and if even that dies nobody survives (exit 3)
  const bool optimal = o.plan.empty() && o.plan_file.empty();
  if (optimal) plan = plan_string(solve_dp(rolls, o.rules).actions);
  Board b(o.rules);
  std::cout << "start: column " << o.rules.start_column << ", HP " << o.rules.start_hp << "\n";
  for (const auto& row : b.render()) std::cout << "  " << row << "\n";
  for (size_t i = 0; i < plan.size(); ++i) {
    const int a = action_of(plan[i]);
    if (i >= rolls.size()) throw std::invalid_argument("the plan is longer than the rolls (turn " + std::to_string(i + 1) + ")");
    if (a < 0 || !legal(b.column(), a))
      throw std::invalid_argument("turn " + std::to_string(i + 1) + ": '" + printable(std::string(1, plan[i])) +
                                  "' is illegal from column " + std::to_string(b.column()));
    b.turn(a, rolls[i]);
    std::cout << "turn " << i + 1 << ": " << kLetters[a] << ", roll " << int(rolls[i]) << ", column " << b.column()
              << ", HP " << b.hp() << (b.ate_last_turn() ? " (ate a fly)" : "")
              << (b.alive() ? "" : std::string(" - dead, ") + death_name(b.death())) << "\n";
    for (const auto& row : b.render()) std::cout << "  " << row << "\n";
    if (!b.alive()) {
      if (optimal) std::cout << "nobody survives these rolls: this is the plan that lives longest\n";
      return optimal ? kExitUnsolvable : kExitNo;
    }
  }
  const bool all = plan.size() == rolls.size();
  std::cout << (all ? "survived all " + std::to_string(rolls.size()) + " turns with HP " + std::to_string(b.hp())
                    : "the plan ends after " + std::to_string(plan.size()) + " of " + std::to_string(rolls.size()) + " turns")
            << "\n";
  return all ? kExitOk : kExitNo;
}

/// `play --advise DB`: the database's best action every turn (followed when no plan is given).
int run_play_advised(const Options& o, const Host& host) {
  check_rules(o.rules);
  if (!o.plan_file.empty()) throw UsageError("--advise takes --plan, not --plan-file");
  const OpenedDatabase db = host.open(o.advise, Module::kName);
  const int horizon = db.manifest.at("parameters").at("turns").get<int>();
  const int db_fly_hp = db.manifest.at("parameters").at("fly_hp").get<int>();
  if (o.rules.fly_hp != db_fly_hp)
    throw UsageError("--fly-hp " + std::to_string(o.rules.fly_hp) + " differs from the database's " +
                     std::to_string(db_fly_hp));
  const auto rolls = rolls_of(o);
  const bool follow = o.plan.empty();
  if (!follow && o.plan.size() > rolls.size())
    throw std::invalid_argument("the plan has " + std::to_string(o.plan.size()) + " actions for " +
                                std::to_string(rolls.size()) + " rolls");
  Board b(o.rules);
  std::vector<uint8_t> seen;
  for (size_t k = 0; k < rolls.size(); ++k) {
    const int left = static_cast<int>(rolls.size() - k);
    SurvivalPosition p;
    p.t = std::min(left, horizon);
    for (int i = 0; i < 4; ++i) p.r[i] = seen.size() > size_t(i) ? seen[seen.size() - 1 - i] : 0;
    p.column = b.column();
    p.hp = std::min(b.hp(), 3 * p.t + 1);
    const nlohmann::ordered_json q = db.instance->query(*db.source, format_position(p), "");
    const std::string best = q["bestAction"];
    std::cout << "turn " << k + 1 << ": advice " << best << " (survives the next " << p.t
              << " turns with probability " << q["survival"].get<double>()
              << (left > horizon ? ", the database's horizon" : "") << ")";
    if (!follow && k >= o.plan.size()) {
      std::cout << "\nthe plan ends here\n";
      return kExitNo;
    }
    const char letter = follow ? best[0] : o.plan[k];
    const int a = action_of(letter);
    if (a < 0 || !legal(b.column(), a))
      throw std::invalid_argument("turn " + std::to_string(k + 1) + ": '" + printable(std::string(1, letter)) +
                                  "' is illegal here");
    b.turn(a, rolls[k]);
    seen.push_back(rolls[k]);
    std::cout << ", plays " << letter << ": column " << b.column() << ", HP " << b.hp()
              << (b.alive() ? "" : std::string(", dead: ") + death_name(b.death())) << "\n";
    for (const auto& row : b.render()) std::cout << "  " << row << "\n";
    if (!b.alive()) return kExitNo;  // the advice plays the odds of random rolls; it can die
  }
  std::cout << "survived all " << rolls.size() << " turns with HP " << b.hp() << "\n";
  return kExitOk;
}

void add_rules(CLI::App* s, Options& o, const Host& host) {
  s->add_option("--hp", o.rules.start_hp, "starting HP")->check(whole_number_in(1, 1000000));
  s->add_option("--column", o.rules.start_column, "starting column, 1..5 (3 is River 3)")
      ->check(whole_number_in(kFirstRiver, kLastRiver));
  s->add_option("--fly-hp", o.rules.fly_hp, "HP a fly gives")->check(whole_number_in(0, 1000));
  s->add_flag("--json", o.json_out, "print JSON");
  o.host = &host;
}

}  // namespace

nlohmann::ordered_json solve_json(const std::string& roll_text, const Rules& rules) {
  check_rules(rules);
  std::istringstream in(roll_text);
  const auto rolls = read_rolls(in, "the roll file");
  const auto t0 = std::chrono::steady_clock::now();
  const PlanResult dp = solve_dp(rolls, rules);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const std::string plan = plan_string(dp.actions);
  json j = plan_json(rolls, rules, dp, plan, play(rolls, plan, rules));
  j["algorithms"] = json::array({result_json(dp, secs)});
  return j;
}

std::vector<GameCommand> Module::add_commands(CLI::App& root, const Host& host) {
  auto* top = root.add_subcommand("river-toad", "River Toad plans for a roll file: solve, check, prefixes, play");
  top->require_subcommand(1);
  host.examples(top, {"toadbase river-toad solve rolls.txt plan.txt", "toadbase river-toad check rolls.txt plan.txt"});
  auto so = std::make_shared<Options>();
  auto* solve = top->add_subcommand("solve", "the optimal plan (highest final HP) in the assignment's output format");
  solve->add_option("rolls", so->rolls, "the roll file (- reads standard input)")->required();
  solve->add_option("output", so->out, "write the output file here (plan, final HP, board; - for standard output)");
  solve->add_option("--algorithm", so->algorithm, "bfs | dfs | greedy | astar | dp | all (a comparison table)");
  solve->add_option("--max-nodes", so->budget, "node budget of bfs, dfs, greedy and astar")
      ->check(whole_number_in<uint64_t>());
  add_rules(solve, *so, host);
  host.examples(solve, {"toadbase river-toad solve rolls.txt plan.txt", "toadbase river-toad solve rolls.txt --algorithm all",
                        "printf '3\\n21\\n0\\n4\\n' | toadbase river-toad solve - --json"});
  auto co = std::make_shared<Options>();
  auto* check = top->add_subcommand("check", "validate an output file: legal, survives, printed HP and board, distance from the optimum");
  check->add_option("rolls", co->rolls, "the roll file (- reads standard input)")->required();
  check->add_option("output", co->out, "the output file to check (- reads standard input)")->required();
  add_rules(check, *co, host);
  host.examples(check, {"toadbase river-toad check rolls.txt plan.txt", "toadbase river-toad solve rolls.txt - | toadbase river-toad check rolls.txt - --json"});
  auto po = std::make_shared<Options>();
  auto* prefixes = top->add_subcommand("prefixes", "for every k: can k turns be survived, the best HP, the number of surviving plans");
  prefixes->add_option("rolls", po->rolls, "the roll file (- reads standard input)")->required();
  prefixes->add_flag("--counts", po->counts, "count surviving plans for every prefix, however long it takes");
  prefixes->add_flag("--no-counts", po->no_counts, "skip the counts");
  add_rules(prefixes, *po, host);
  host.examples(prefixes, {"toadbase river-toad prefixes rolls.txt", "toadbase river-toad prefixes rolls.txt --json --no-counts"});
  auto pl = std::make_shared<Options>();
  auto* playc = top->add_subcommand("play", "replay a plan turn by turn (default: the optimal plan)");
  playc->add_option("rolls", pl->rolls, "the roll file (- reads standard input)")->required();
  playc->add_option("--plan", pl->plan, "the plan, e.g. GAGAF")->default_str("the optimal plan");
  playc->add_option("--plan-file", pl->plan_file, "an output file whose first line is the plan (- reads standard input)")
      ->default_str("none");
  playc->add_option("--advise", pl->advise,
                    "a river-toad database: show its best action every turn (and follow it when no plan is given)")
      ->default_str("none");
  add_rules(playc, *pl, host);
  host.examples(playc, {"toadbase river-toad play rolls.txt", "toadbase river-toad play rolls.txt --plan GAGAF",
                        "toadbase river-toad play rolls.txt --advise data/rt8"});
  return {{solve, [so] { return run_solve(*so); }},
          {check, [co] { return run_check(*co); }},
          {prefixes, [po] { return run_prefixes(*po); }},
          {playc, [pl, &host] { return pl->advise.empty() ? run_play(*pl) : run_play_advised(*pl, host); }}};
}

}  // namespace toadbase::river_toad
