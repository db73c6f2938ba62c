// `toadbase forest play | eval | posterior`.
#include <CLI/CLI.hpp>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>

#include "solver/games/forest/agents.hpp"
#include "solver/games/forest/module.hpp"
#include "solver/games/forest/optimal.hpp"
#include "solver/games/forest/policy_table.hpp"
#include "solver/games/forest/posterior.hpp"

namespace toadbase::forest {

namespace {

/// What he knows, a character a tile: W where he stands, S the start, . visited with no
/// clue, b bones, l leaves, B both, x a trap or monster he died on, o a stone thrown at an
/// unvisited tile, ? unseen.
std::vector<std::string> knowledge_rows(const Knowledge& k, int at) {
  std::vector<std::string> rows;
  for (int r = 0; r < k.side; ++r) {
    std::string row;
    for (int c = 0; c < k.side; ++c) {
      const int t = r * k.side + c;
      char ch = '?';
      if (t == at) {
        ch = 'W';
      } else if (k.known_trap[t] || k.known_monster[t]) {
        ch = 'x';
      } else if (k.visited[t]) {
        ch = k.bones[t] && k.leaves[t] ? 'B' : k.bones[t] ? 'b' : k.leaves[t] ? 'l' : t == k.start ? 'S' : '.';
      } else if (k.stoned[t]) {
        ch = 'o';
      }
      row += ch;
    }
    rows.push_back(row);
  }
  return rows;
}

std::string spaced(const std::string& row) {
  std::string s;
  for (char c : row) s += (s.empty() ? "" : " ") + std::string(1, c);
  return s;
}

nlohmann::ordered_json tile_json(int side, int t) { return {t / side, t % side}; }

}  // namespace

namespace {

/// P(monster), P(trap), P(portal) per tile (row-major), three figures after the point; null
/// when the exact sum cannot be had.
nlohmann::ordered_json posterior_json(const Observations& o) {
  try {
    const Posterior p = posterior(o);
    auto round3 = [](const std::vector<double>& v) {
      nlohmann::ordered_json a = nlohmann::ordered_json::array();
      for (double x : v) a.push_back(std::round(x * 1000) / 1000);
      return a;
    };
    return {{"monster", round3(p.monster)}, {"trap", round3(p.trap)}, {"portal", round3(p.portal)}};
  } catch (const std::exception&) {
    return nullptr;
  }
}

}  // namespace

nlohmann::ordered_json play_json(const Forest& f, Agent& agent, uint64_t seed, bool posteriors) {
  using ojson = nlohmann::ordered_json;
  const int s = f.side, n = f.tiles();
  const Episode e = play(f, agent, true);
  ojson forest;
  forest["rows"] = f.picture();
  ojson content = ojson::array(), bones = ojson::array(), leaves = ojson::array();
  for (int t = 0; t < n; ++t) {
    content.push_back(f.content[t] == kMonster ? "monster" : f.content[t] == kTrap ? "trap" : "");
    if (f.bones[t]) bones.push_back(tile_json(s, t));
    if (f.leaves[t]) leaves.push_back(tile_json(s, t));
  }
  forest["content"] = std::move(content);
  forest["portal"] = tile_json(s, f.portal);
  forest["start"] = tile_json(s, f.start);
  forest["bones"] = std::move(bones);
  forest["leaves"] = std::move(leaves);
  ojson j;
  j["side"] = s;
  j["seed"] = seed;
  j["agent"] = agent.name();
  j["forest"] = std::move(forest);
  if (posteriors) {
    Observations o;
    o.side = s;
    o.start = f.start;
    o.visited.push_back({f.start, f.bones[f.start] != 0, f.leaves[f.start] != 0});
    j["posterior"] = posterior_json(o);
  }
  ojson steps = ojson::array();
  int moves = 0, stones = 0, deaths = 0;
  for (const Step& st : e.steps) {
    const int t = st.action.tile;
    std::string outcome = "stone";
    if (st.action.kind == Action::Shoot) {
      ++stones;
    } else {
      ++moves;
      // he stands where he moved unless he died there (and went back to the start)
      if (st.at != t) outcome = f.content[t] == kTrap ? "trap" : "monster", ++deaths;
      else outcome = t == f.portal ? "portal" : "walked";
    }
    ojson step;
    step["action"] = st.action.kind == Action::Shoot ? "stone" : "move";
    step["tile"] = tile_json(s, t);
    step["outcome"] = outcome;
    step["text"] = st.text;
    step["at"] = tile_json(s, st.at);
    step["score"] = st.score;
    step["moves"] = moves;
    step["stones"] = stones;
    step["deaths"] = deaths;
    if (posteriors && outcome != "portal") step["posterior"] = posterior_json(observations(st.knows));
    steps.push_back(std::move(step));
  }
  j["steps"] = std::move(steps);
  j["result"] = {{"portal", e.portal}, {"stuck", e.stuck}, {"deaths", e.deaths}, {"moves", e.moves},
                 {"stones", e.stones}, {"score", e.score}};
  return j;
}

int print_play(const Forest& f, Agent& agent, uint64_t seed, bool json_out) {
  const Episode e = play(f, agent, true);
  const nlohmann::ordered_json result = {{"agent", agent.name()}, {"portal", e.portal}, {"stuck", e.stuck},
                                         {"deaths", e.deaths},     {"moves", e.moves},   {"stones", e.stones},
                                         {"score", e.score}};
  if (json_out) {  // one object a line: the forest, every step, the result
    std::cout << nlohmann::ordered_json{{"side", f.side}, {"seed", seed}, {"agent", agent.name()},
                                        {"forest", f.picture()}, {"start", tile_json(f.side, f.start)}}
                     .dump()
              << "\n";
    int i = 0;
    for (const Step& s : e.steps)
      std::cout << nlohmann::ordered_json{{"step", ++i},
                                          {"action", s.action.kind == Action::Shoot ? "stone" : "move"},
                                          {"tile", tile_json(f.side, s.action.tile)},
                                          {"text", s.text},
                                          {"at", tile_json(f.side, s.at)},
                                          {"score", s.score},
                                          {"knows", knowledge_rows(s.knows, s.at)}}
                       .dump()
                << "\n";
    std::cout << nlohmann::ordered_json{{"result", result}}.dump() << "\n";
    return kExitOk;
  }
  const std::vector<std::string> truth = f.picture();
  const size_t width = 2 * static_cast<size_t>(f.side) - 1;
  auto boards = [&](const std::vector<std::string>& knows) {
    for (int r = 0; r < f.side; ++r) {
      std::string left = spaced(truth[r]);
      left.resize(std::max(width, size_t{6}), ' ');
      std::cout << "       " << left << "   " << spaced(knows[r]) << "\n";
    }
  };
  std::cout << "forest " << f.side << "x" << f.side << ", seed " << seed << ", agent " << agent.name()
            << ", tiles as [row, column] from [0, 0] top left\n"
            << "left, the forest: M monster, T trap, P portal, S start, . nothing\n"
            << "right, what he knows: W where he is, . visited, b bones, l leaves, B both, x where he died,\n"
            << "o a stone thrown, ? unseen\n\n";
  std::string head = "forest";
  head.resize(std::max(width, size_t{6}), ' ');
  std::cout << "  start at " << tile_name(f.side, f.start) << ", score 0\n       " << head << "   he knows\n";
  Knowledge first;
  first.side = f.side;
  first.start = f.start;
  for (auto* v : {&first.visited, &first.bones, &first.leaves, &first.known_trap, &first.known_monster, &first.stoned})
    v->assign(f.tiles(), 0);
  first.visited[f.start] = 1;
  boards(knowledge_rows(first, f.start));
  int i = 0;
  for (const Step& s : e.steps) {
    std::cout << "  " << ++i << ". " << s.text << "; score " << s.score << "\n";
    boards(knowledge_rows(s.knows, s.at));
  }
  std::cout << agent.name() << ": " << (e.portal ? "reached the portal" : "stuck") << ", " << e.deaths
            << " deaths, " << e.moves << " moves, " << e.stones << " stones, score " << e.score << "\n";
  return kExitOk;
}

namespace {

using json = nlohmann::ordered_json;

struct Options {
  std::string agent = "original", sides, file, db;
  int side = 3, threads = 0;
  uint64_t seed = 1, forests = 20000;
  bool json_out = false, exact = false;
};

void check_side(int side) {
  if (side < 2 || side > kMaxSide)
    throw UsageError("--side must be 2.." + std::to_string(kMaxSide) + ", not " + std::to_string(side));
}

/// An agent named on the command line (`all` only where every agent runs: eval).
void check_agent(const std::string& name, bool all_allowed) {
  const auto& names = agent_names();
  if (name == "all" && all_allowed) return;
  if (std::find(names.begin(), names.end(), name) != names.end()) return;
  std::string list;
  for (const auto& n : names) list += n + ", ";
  if (name == "all") throw UsageError("play takes one agent: " + list.substr(0, list.size() - 2) + " (all is for eval)");
  throw UsageError("--agent must be " + list + (all_allowed ? "or all" : "not more than one") + ", not '" + name + "'");
}

int run_play(const Options& o, const Host& host) {
  check_side(o.side);
  check_agent(o.agent, false);
  if (o.db.empty()) {
    if (o.agent == "optimal" && o.side != kPolicySide)
      throw UsageError("the optimal agent is solved for 3x3 forests, not side " + std::to_string(o.side));
    auto agent = make_agent(o.agent);
    return print_play(generate(o.side, o.seed, 0), *agent, o.seed, o.json_out);
  }
  // --db: the stored policy decides every step
  if (o.agent != "optimal") throw UsageError("--db is for --agent optimal (the stored policy), not " + o.agent);
  if (o.side != kPolicySide)
    throw UsageError("the stored policy is for 3x3 forests, not side " + std::to_string(o.side));
  const OpenedDatabase db = host.open(o.db, Module::kName);
  const TierSource& source = *db.source;
  auto player = make_optimal_agent([&source](uint64_t key) { return find_policy(source, key); });
  return print_play(generate(o.side, o.seed, 0), *player, o.seed, o.json_out);
}

struct Totals {
  double forests = 0, portal = 0, stuck = 0, deaths = 0, moves = 0, stones = 0;
  double score_sum = 0, score_sq = 0, scored = 0;  // over forests where the portal was reached
  void add(const Episode& e, double w = 1) {
    forests += w;
    portal += w * e.portal;
    stuck += w * e.stuck;
    deaths += w * e.deaths;
    moves += w * e.moves;
    stones += w * e.stones;
    if (e.portal) score_sum += w * static_cast<double>(e.score), score_sq += w * double(e.score) * double(e.score), scored += w;
  }
  void merge(const Totals& t) {
    forests += t.forests, portal += t.portal, stuck += t.stuck, deaths += t.deaths, moves += t.moves,
        stones += t.stones, score_sum += t.score_sum, score_sq += t.score_sq, scored += t.scored;
  }
};

json totals_json(const std::string& agent, int side, const Totals& t, bool exact) {
  const double mean = t.scored ? t.score_sum / t.scored : 0;
  const double var = t.scored > 1 ? (t.score_sq / t.scored - mean * mean) * t.scored / (t.scored - 1) : 0;
  json j = {{"agent", agent}, {"side", side}, {"forests", exact ? json("exact") : json(static_cast<uint64_t>(std::llround(t.forests)))},
            {"portalRate", t.portal / t.forests}, {"stuckRate", t.stuck / t.forests},
            {"deathsPerForest", t.deaths / t.forests}, {"movesPerForest", t.moves / t.forests},
            {"stonesPerForest", t.stones / t.forests}, {"scorePerForest", mean}};
  j["scoreCi95"] = exact ? 0.0 : 1.96 * std::sqrt(std::max(var, 0.0) / std::max(t.scored, 1.0));
  return j;
}

int run_eval(const Options& o) {
  std::vector<int> sides;
  if (!o.sides.empty()) {
    const size_t dash = o.sides.find('-');
    auto side_of = [&](const std::string& x) {
      if (x.empty() || x.size() > 2 || x.find_first_not_of("0123456789") != std::string::npos)
        throw UsageError("--sides is a range like 3-10, not '" + o.sides + "'");
      const int v = std::stoi(x);
      check_side(v);
      return v;
    };
    const int a = side_of(o.sides.substr(0, dash));
    const int b = dash == std::string::npos ? a : side_of(o.sides.substr(dash + 1));
    if (a > b) throw UsageError("--sides: the range " + o.sides + " is empty");
    for (int s = a; s <= b; ++s) sides.push_back(s);
  } else {
    sides.push_back(o.side);
  }
  for (int s : sides) check_side(s);
  if (o.forests == 0 && !o.exact) throw UsageError("--forests must be at least 1");
  check_agent(o.agent, true);
  std::vector<std::string> agents = o.agent == "all" ? agent_names() : std::vector<std::string>{o.agent};
  if (o.exact && (sides.size() != 1 || sides[0] != 3)) throw UsageError("--exact covers side 3 only");
  std::vector<json> rows;
  tbb::task_arena arena(o.threads > 0 ? o.threads : tbb::task_arena::automatic);
  for (int s : sides)
    for (const auto& name : agents) {
      if (o.agent == "all" && name == "optimal" && s != 3) continue;  // solved for 3x3 only
      Totals total;
      if (o.exact) {
        each_forest(3, [&](const Forest& f, double p) {
          auto agent = make_agent(name);
          total.add(play(f, *agent), p);
        });
      } else {
        std::mutex mu;
        arena.execute([&] {
          tbb::parallel_for(tbb::blocked_range<uint64_t>(0, o.forests, 64), [&](const tbb::blocked_range<uint64_t>& r) {
            Totals part;
            auto agent = make_agent(name);
            for (uint64_t i = r.begin(); i != r.end(); ++i) part.add(play(generate(s, o.seed, i), *agent));
            std::lock_guard<std::mutex> lock(mu);
            total.merge(part);
          });
        });
      }
      rows.push_back(totals_json(name, s, total, o.exact));
    }
  if (o.json_out) {
    for (const auto& r : rows) std::cout << r.dump() << "\n";
    return 0;
  }
  std::printf("%5s %-9s %9s %8s %8s %8s %8s %18s\n", "side", "agent", "portal", "deaths", "moves", "stones", "stuck",
              "score/forest");
  for (const auto& r : rows)
    std::printf("%5d %-9s %8.2f%% %8.3f %8.2f %8.3f %7.2f%% %10.1f +- %.1f\n", r["side"].get<int>(),
                r["agent"].get<std::string>().c_str(), 100 * r["portalRate"].get<double>(), r["deathsPerForest"].get<double>(),
                r["movesPerForest"].get<double>(), r["stonesPerForest"].get<double>(), 100 * r["stuckRate"].get<double>(),
                r["scorePerForest"].get<double>(), r["scoreCi95"].get<double>());
  std::cout << (o.exact ? "(exact expectation over every 3x3 forest)\n"
                        : "(" + std::to_string(o.forests) + " forests per side, seed " + std::to_string(o.seed) +
                              "; score over forests where the portal was reached, +- a 95% interval)\n");
  return 0;
}

int run_posterior(const Options& o, const Host& host) {
  const std::string text = host.read_input(o.file);
  const Observations obs = read_observations(text);
  const Posterior p = posterior(obs);
  const int s = obs.side;
  if (o.json_out) {
    json tiles = json::array();
    for (int t = 0; t < s * s; ++t)
      tiles.push_back({{"tile", {t / s, t % s}}, {"monster", p.monster[t]}, {"trap", p.trap[t]}, {"portal", p.portal[t]}});
    std::cout << json{{"side", s}, {"tiles", tiles}}.dump() << "\n";
    return 0;
  }
  for (const char* what : {"monster", "trap", "portal"}) {
    const auto& v = std::string(what) == "monster" ? p.monster : std::string(what) == "trap" ? p.trap : p.portal;
    std::cout << "P(" << what << ")\n";
    for (int r = 0; r < s; ++r) {
      for (int c = 0; c < s; ++c) std::printf(" %6.3f", v[r * s + c]);
      std::printf("\n");
    }
  }
  return 0;
}

}  // namespace

std::vector<GameCommand> Module::add_commands(CLI::App& root, const Host& host) {
  auto* top = root.add_subcommand("forest", "Magic Forest Wanderer: play, eval, posterior");
  top->require_subcommand(1);
  host.examples(top, {"toadbase forest play --side 4 --seed 7 --agent bayes",
                      "toadbase forest eval --agent all --side 3 --forests 2000"});
  auto po = std::make_shared<Options>();
  auto* playc = top->add_subcommand("play", "one forest, step by step: the board and what he knows after every action");
  playc->add_option("--side", po->side, "forest side");
  playc->add_option("--seed", po->seed, "random seed")->check(CLI::NonNegativeNumber);
  playc->add_option("--agent", po->agent, "original | bayes | optimal (3x3) | oracle");
  playc->add_option("--db", po->db, "a forest database (solve forest --side 3): the optimal agent looks its moves up there")
      ->default_str("none");
  playc->add_flag("--json", po->json_out, "one JSON object a line: the forest, every step, the result");
  host.examples(playc, {"toadbase forest play --side 4 --seed 7 --agent bayes",
                        "toadbase forest play --agent optimal --db data/forest3 --seed 7",
                        "toadbase forest play --seed 3 --json"});
  auto eo = std::make_shared<Options>();
  auto* eval = top->add_subcommand("eval", "agents on the same seeded forests: portal rate, deaths, score");
  eval->add_option("--agent", eo->agent, "original | bayes | optimal (3x3) | oracle | all");
  eval->add_option("--side", eo->side, "forest side");
  eval->add_option("--sides", eo->sides, "a range of sides, e.g. 3-10")->default_str("--side only");
  eval->add_option("--forests", eo->forests, "forests per side")->check(CLI::Range(uint64_t{0}, uint64_t{1000000000}));
  eval->add_option("--seed", eo->seed, "random seed")->check(CLI::NonNegativeNumber);
  eval->add_option("--threads", eo->threads, "worker threads (0: all cores)")->check(CLI::Range(0, 1024))->default_str("all cores");
  eval->add_flag("--exact", eo->exact, "3x3: the exact expectation over every forest instead of sampling");
  eval->add_flag("--json", eo->json_out, "one JSON object per side and agent");
  host.examples(eval, {"toadbase forest eval --agent original --side 3 --forests 2000 --seed 1",
                       "toadbase forest eval --agent all --side 3 --exact",
                       "toadbase forest eval --agent bayes --sides 3-5 --forests 500 --json"});
  auto qo = std::make_shared<Options>();
  auto* post = top->add_subcommand("posterior", "exact P(monster), P(trap), P(portal) per tile from observations (JSON)");
  post->add_option("observations", qo->file, "the observations file (- for standard input)")->required();
  post->add_flag("--json", qo->json_out, "print JSON");
  host.examples(post, {"toadbase forest posterior observations.json",
                       "echo '{\"side\": 3, \"start\": [0, 0]}' | toadbase forest posterior - --json"});
  return {{playc, [po, &host] { return run_play(*po, host); }},
          {eval, [eo] { return run_eval(*eo); }},
          {post, [qo, &host] { return run_posterior(*qo, host); }}};
}

}  // namespace toadbase::forest
