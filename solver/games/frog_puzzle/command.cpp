// `toadbase frog-puzzle solve POSITION` and `toadbase frog-puzzle check POSITION FILE`:
// the puzzle answered in memory from one position (no database), in the sources' formats.
#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "solver/module/cli_numbers.hpp"
#include "solver/games/frog_puzzle/explorer.hpp"
#include "solver/games/frog_puzzle/module.hpp"

namespace toadbase::frog_puzzle {

namespace {

using json = nlohmann::ordered_json;

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

struct SolveOptions {
  std::string position, format = "text";
  bool all = false, json_out = false;
  uint64_t limit = 1000, max_positions = kDefaultExploreLimit;
};

struct CheckOptions {
  std::string position, file;
  bool json_out = false;
  uint64_t max_positions = kDefaultExploreLimit;
};

json steps_json(const Position& start, const std::vector<Move>& moves) {
  json out = json::array();
  Position p = start;
  for (Move m : moves) {
    const std::string text = move_text(p, m);
    p = apply(p, m);
    out.push_back({{"move", text}, {"from", m.from}, {"to", m.to}, {"position", format(p)}});
  }
  return out;
}

/// `solve --json`'s object (without `all_solutions`): the fewest moves, the number of optimal
/// solutions and the first one; `solvable: false` and the positions searched for a dead end.
json solved_json(const Position& start, const Explorer& ex) {
  if (!ex.solvable())
    return {{"position", format(start)}, {"goal", format(ex.goal())}, {"solvable", false},
            {"reachablePositions", ex.reachable()}};
  return {{"position", format(start)},
          {"goal", format(ex.goal())},
          {"solvable", true},
          {"moves", ex.moves()},
          {"solutions", ex.solutions().str()},
          {"reachablePositions", ex.reachable()},
          {"solution", steps_json(start, ex.first_solution())}};
}

std::string blog_line(const Position& start, const std::vector<Move>& moves) {
  std::string s = "[" + format_blog(start);
  Position p = start;
  for (Move m : moves) {
    p = apply(p, m);
    s += ", " + format_blog(p);
  }
  return s + "]";
}

std::string moves_lines(const Position& start, const std::vector<Move>& moves) {
  std::string s;
  Position p = start;
  for (Move m : moves) {
    s += move_text(p, m) + "\n";
    p = apply(p, m);
  }
  return s;
}

std::string text_lines(const Position& start, const std::vector<Move>& moves) {
  std::string s;
  Position p = start;
  char buf[96];
  int i = 0;
  for (Move m : moves) {
    const std::string mt = move_text(p, m);
    p = apply(p, m);
    std::snprintf(buf, sizeof buf, "  %3d  %-16s %s\n", ++i, mt.c_str(), format(p).c_str());
    s += buf;
  }
  return s;
}

int run_solve(const SolveOptions& o) {
  if (o.format != "text" && o.format != "blog" && o.format != "moves")
    throw UsageError("--format must be text, blog or moves, not '" + o.format + "'");
  if (o.json_out && o.format != "text") throw UsageError("--json and --format " + o.format + " contradict each other");
  const Position start = parse(o.position);
  Explorer ex(start, o.max_positions);
  if (!ex.solvable()) {
    if (o.json_out) {
      std::cout << dump(solved_json(start, ex)) << "\n";
    } else {
      std::cout << format(start) << ": the goal " << format(ex.goal())
                << " cannot be reached from here (a dead end; " << ex.reachable()
                << " positions reachable, none of them the goal)\n";
    }
    return kExitUnsolvable;
  }
  std::vector<std::vector<Move>> all;
  if (o.all) {
    if (BigCount(o.limit) < ex.solutions())
      throw std::invalid_argument(format(start) + " has " + ex.solutions().str() +
                                  " optimal solutions; --all lists at most " +
                                  std::to_string(o.limit) + " (raise it with --limit)");
    ex.each_solution([&](const std::vector<Move>& path) {
      all.push_back(path);
      return true;
    });
  } else {
    all.push_back(ex.first_solution());
  }
  if (o.json_out) {
    json j = solved_json(start, ex);
    if (o.all) {
      json list = json::array();
      for (const auto& s : all) list.push_back(steps_json(start, s));
      j["allSolutions"] = std::move(list);
    }
    std::cout << dump(j) << "\n";
    return 0;
  }
  if (o.format == "blog") {
    for (const auto& s : all) std::cout << blog_line(start, s) << "\n";
    return 0;
  }
  if (o.format == "moves") {
    for (size_t i = 0; i < all.size(); ++i) std::cout << (i ? "\n" : "") << moves_lines(start, all[i]);
    return 0;
  }
  std::cout << format(start) << " -> " << format(ex.goal()) << ": " << ex.moves()
            << " moves (fewest), " << ex.solutions().str() << " optimal solution"
            << (ex.solutions() == BigCount(1) ? "" : "s") << "\n";
  if (!o.all) {
    std::cout << "one optimal solution (at each step the leftmost frog that keeps the goal reachable):\n"
              << "         " << format(start) << "\n"
              << text_lines(start, all.front());
  } else {
    for (size_t i = 0; i < all.size(); ++i)
      std::cout << "solution " << i + 1 << " of " << all.size() << ":\n         " << format(start)
                << "\n" << text_lines(start, all[i]);
  }
  return 0;
}

// ---- check -----------------------------------------------------------------------------

struct Step {
  int line;
  std::string text;        // as written (a move, or a board)
  std::optional<Move> move;  // moves format
  std::optional<Position> board;  // blog format
  char letter = 0;                // moves format: the frog named, L or R
};

std::vector<Step> read_steps(std::string all, std::string& fmt) {
  // Python's tuples (1, 1, 0, -1) read as the blog's lists
  for (char& c : all) c = c == '(' ? '[' : c == ')' ? ']' : c;
  std::vector<Step> steps;
  const size_t first = all.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) throw std::invalid_argument("the solution file is empty");
  if (all[first] == '[') {
    fmt = "blog";
    int line = 1;
    for (size_t i = 0; i < all.size(); ++i) {
      const char c = all[i];
      if (c == '\n') {
        ++line;
      } else if (c == '[') {
        size_t j = i + 1;
        while (j < all.size() && all[j] != '[' && all[j] != ']') ++j;
        if (j >= all.size()) throw std::invalid_argument("line " + std::to_string(line) + ": a '[' is never closed");
        if (all[j] == '[') continue;  // an outer list opens here
        const std::string group = all.substr(i, j - i + 1);
        Step s{line, group, std::nullopt, std::nullopt, 0};
        try {
          s.board = parse(group);
        } catch (const std::invalid_argument& e) {
          throw std::invalid_argument("line " + std::to_string(line) + ": " + e.what());
        }
        steps.push_back(s);
        for (size_t k = i; k < j; ++k) line += all[k] == '\n';
        i = j;
      } else if (!(c == ']' || c == ',' || std::isspace(static_cast<unsigned char>(c)))) {
        throw std::invalid_argument("line " + std::to_string(line) + ": unexpected '" + printable(std::string(1, c)) +
                                    "' (the blog's format is lists of 1, 0, -1)");
      }
    }
  } else {
    fmt = "moves";
    std::istringstream lines(all);
    std::string text;
    int line = 0;
    while (std::getline(lines, text)) {
      ++line;
      if (!text.empty() && text.back() == '\r') text.pop_back();
      const size_t nb = text.find_first_not_of(" \t");
      if (nb == std::string::npos || text[nb] == '#') continue;
      // "<L|R> from <cell> to <cell>", words in any case
      std::istringstream words(text);
      std::vector<std::string> w;
      for (std::string x; words >> x;) w.push_back(lower(x));
      auto cell = [](const std::string& x) {
        return !x.empty() && x.size() <= 3 && x.find_first_not_of("0123456789") == std::string::npos;
      };
      if (w.size() != 5 || (w[0] != "l" && w[0] != "r") || w[1] != "from" || !cell(w[2]) ||
          w[3] != "to" || !cell(w[4]))
        throw std::invalid_argument("line " + std::to_string(line) + ": '" + printable_excerpt(text) +
                                    "' is not a move like 'L from 2 to 3'");
      Step s{line, text.substr(nb), Move{std::stoi(w[2]), std::stoi(w[4])}, std::nullopt,
             static_cast<char>(std::toupper(static_cast<unsigned char>(w[0][0])))};
      steps.push_back(s);
    }
    if (steps.empty()) throw std::invalid_argument("the solution file holds no moves");
  }
  return steps;
}

int run_check(const CheckOptions& o, const Host& host) {
  const Position start = parse(o.position);
  std::string fmt;
  std::vector<Step> steps = read_steps(host.read_input(o.file), fmt);
  if (fmt == "blog" && !steps.empty() && *steps.front().board == start) steps.erase(steps.begin());
  Explorer ex(start, o.max_positions);
  Position p = start;
  json err;
  int done = 0;
  for (const Step& s : steps) {
    Move m{};
    std::string why;
    if (fmt == "moves") {
      m = *s.move;
      const char letter = s.letter;
      why = why_illegal(p, m);
      if (why.empty()) {
        const bool is_l = (p.left >> m.from) & 1;
        if ((letter == 'L') != is_l)
          why = "cell " + std::to_string(m.from) + " holds an " + (is_l ? "L" : "R") + " frog, not an " + letter;
      }
    } else {
      const Position& b = *s.board;
      if (b.length != p.length) {
        why = "the board has " + std::to_string(b.length) + " cells, the puzzle " + std::to_string(p.length);
      } else {
        const uint32_t changed = (b.left ^ p.left) | (b.right ^ p.right);
        const bool l_moved = b.left != p.left, r_moved = b.right != p.right;
        if (std::popcount(changed) != 2 || (l_moved && r_moved) ||
            std::popcount(b.left) != std::popcount(p.left) || std::popcount(b.right) != std::popcount(p.right)) {
          why = "this board is not one frog's move from the previous one (" + format(p) + ")";
        } else {
          const uint32_t moved_from = (l_moved ? p.left & ~b.left : p.right & ~b.right);
          const uint32_t moved_to = changed & ~moved_from;
          m = Move{std::countr_zero(moved_from), std::countr_zero(moved_to)};
          why = why_illegal(p, m);
        }
      }
    }
    if (is_goal(p) && why.empty()) why = "the goal is already reached: no move is left to make";
    if (!why.empty()) {
      err = {{"step", done + 1}, {"line", s.line}, {"text", s.text}, {"position", format(p)}, {"reason", why}};
      break;
    }
    p = apply(p, m);
    ++done;
  }
  const bool legal = err.is_null();
  const bool reaches = legal && is_goal(p);
  const int fewest = ex.solvable() ? ex.moves() : -1;
  json j = {{"position", format(start)}, {"goal", format(ex.goal())}, {"format", fmt},
            {"steps", static_cast<int>(steps.size())}, {"legal", legal}, {"reachesGoal", reaches}};
  if (!legal) j["firstIllegal"] = err;
  j["finalPosition"] = format(p);
  j["fewestMoves"] = fewest >= 0 ? json(fewest) : json(nullptr);
  if (reaches) {
    j["optimal"] = done == fewest;
    j["movesTooMany"] = done - fewest;
  }
  if (legal && !reaches) {
    const int v = ex.value(p);
    j["finalValue"] = v == 1 ? "win" : "lose";
    if (v == 1) j["finalRemoteness"] = ex.remoteness(p);
  }
  if (o.json_out) {
    std::cout << dump(j) << "\n";
  } else if (!legal) {
    std::cout << "illegal: step " << err["step"].get<int>() << " (line " << err["line"].get<int>() << ", '"
              << printable_excerpt(err["text"].get<std::string>()) << "') in " << err["position"].get<std::string>() << ": "
              << err["reason"].get<std::string>() << "\n";
  } else if (!reaches) {
    std::cout << "legal, but not a solution: after " << done << " moves the board is " << format(p)
              << ", not the goal " << format(ex.goal()) << "; "
              << (j["finalValue"] == "win"
                      ? "the goal is still " + std::to_string(j["finalRemoteness"].get<int>()) + " moves away"
                      : std::string("the goal cannot be reached from there (a dead end)"))
              << "\n";
  } else {
    std::cout << "legal: " << done << " moves from " << format(start) << " reach the goal " << format(ex.goal())
              << "; " << (done == fewest ? "optimal (the fewest is " + std::to_string(fewest) + ")"
                                         : std::to_string(done - fewest) + " moves too long (the fewest is " +
                                               std::to_string(fewest) + ")")
              << "\n";
  }
  return reaches ? kExitOk : kExitNo;
}

}  // namespace

nlohmann::ordered_json solve_json(const std::string& position, uint64_t max_positions) {
  return solve_json(parse(position), max_positions);
}

nlohmann::ordered_json solve_json(const Position& start, uint64_t max_positions) {
  const Explorer ex(start, max_positions);
  return solved_json(start, ex);
}

std::vector<GameCommand> Module::add_commands(CLI::App& root, const Host& host) {
  auto* top = root.add_subcommand("frog-puzzle", "the frog swap puzzle from one position, in memory: solve, check");
  top->require_subcommand(1);
  host.examples(top, {"toadbase frog-puzzle solve LLL_RRR", "toadbase frog-puzzle check LLL_RRR solution.txt"});
  auto so = std::make_shared<SolveOptions>();
  auto* solve = top->add_subcommand("solve", "fewest moves, one optimal solution, the number of optimal solutions");
  solve->add_option("position", so->position, "the start, e.g. LLL_RRR, 1_xx-oo, [1, 1, 0, -1, -1] or (1, 1, 0, -1, -1)")
      ->required();
  solve->add_flag("--all", so->all, "list every optimal solution (at most --limit)");
  solve->add_option("--limit", so->limit, "the most solutions --all lists")->check(whole_number_in<uint64_t>());
  solve->add_option("--format", so->format,
                    "text, blog (lists of 1/0/-1 as the Python blog prints them), or moves "
                    "('L from 2 to 3', one a line)");
  solve->add_flag("--json", so->json_out, "print JSON");
  solve->add_option("--max-positions", so->max_positions, "stop past this many reachable positions")
      ->check(whole_number_in<uint64_t>());
  host.examples(solve, {"toadbase frog-puzzle solve LLL_RRR", "toadbase frog-puzzle solve LLL_RRR --all --format moves",
                        "toadbase frog-puzzle solve '[1, 1, 0, -1, -1]' --json"});
  auto co = std::make_shared<CheckOptions>();
  auto* check = top->add_subcommand("check", "validate a solution in the blog's or the article's format");
  check->add_option("position", co->position, "the start, e.g. LLL_RRR")->required();
  check->add_option("file", co->file, "the solution (- reads standard input)")->required();
  check->add_flag("--json", co->json_out, "print JSON");
  check->add_option("--max-positions", co->max_positions, "stop past this many reachable positions")
      ->check(whole_number_in<uint64_t>());
  host.examples(check, {"toadbase frog-puzzle check LLL_RRR solution.txt",
                        "toadbase frog-puzzle solve LL_RR --format moves | toadbase frog-puzzle check LL_RR -"});
  return {{solve, [so] { return run_solve(*so); }}, {check, [co, &host] { return run_check(*co, host); }}};
}

}  // namespace toadbase::frog_puzzle
