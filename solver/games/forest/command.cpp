// `toadbase forest play | eval | posterior`.
#include <CLI/CLI.hpp>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

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

int print_play(const Forest& f, Agent& agent, uint64_t seed) {
  const Episode e = play(f, agent, true);
  std::cout << "forest " << f.side << "x" << f.side << ", seed " << seed << " (M monster, T trap, P portal, S start):\n";
  for (const auto& row : f.picture()) std::cout << "  " << row << "\n";
  int i = 0;
  for (const auto& line : e.log) std::cout << "  " << ++i << ". " << line << "\n";
  std::cout << agent.name() << ": " << (e.portal ? "reached the portal" : "stuck") << ", " << e.deaths
            << " deaths, " << e.moves << " moves, " << e.stones << " stones, score " << e.score << "\n";
  return 0;
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
  if (side < 2 || side > kMaxSide) throw std::invalid_argument("--side must be 2.." + std::to_string(kMaxSide));
}

int run_play(const Options& o, const Host& host) {
  check_side(o.side);
  if (o.db.empty()) {
    auto agent = make_agent(o.agent);
    return print_play(generate(o.side, o.seed, 0), *agent, o.seed);
  }
  // --db: the stored policy decides every step
  if (o.agent != "optimal") throw std::invalid_argument("--db is for --agent optimal (the stored policy), not " + o.agent);
  if (o.side != kPolicySide)
    throw std::invalid_argument("the stored policy is for 3x3 forests, not side " + std::to_string(o.side));
  const OpenedDatabase db = host.open(o.db, Module::kName);
  const TierSource& source = *db.source;
  auto player = make_optimal_agent([&source](uint64_t key) { return find_policy(source, key); });
  return print_play(generate(o.side, o.seed, 0), *player, o.seed);
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
  json j = {{"agent", agent}, {"side", side}, {"forests", exact ? json("exact") : json(t.forests)},
            {"portal_rate", t.portal / t.forests}, {"stuck_rate", t.stuck / t.forests},
            {"deaths_per_forest", t.deaths / t.forests}, {"moves_per_forest", t.moves / t.forests},
            {"stones_per_forest", t.stones / t.forests}, {"score_per_forest", mean}};
  j["score_ci95"] = exact ? 0.0 : 1.96 * std::sqrt(std::max(var, 0.0) / std::max(t.scored, 1.0));
  return j;
}

int run_eval(const Options& o) {
  std::vector<int> sides;
  if (!o.sides.empty()) {
    const size_t dash = o.sides.find('-');
    auto side_of = [&](const std::string& x) {
      if (x.empty() || x.size() > 2 || x.find_first_not_of("0123456789") != std::string::npos)
        throw std::invalid_argument("--sides is a range like 3-10, not '" + o.sides + "'");
      const int v = std::stoi(x);
      check_side(v);
      return v;
    };
    const int a = side_of(o.sides.substr(0, dash));
    const int b = dash == std::string::npos ? a : side_of(o.sides.substr(dash + 1));
    if (a > b) throw std::invalid_argument("--sides: the range " + o.sides + " is empty");
    for (int s = a; s <= b; ++s) sides.push_back(s);
  } else {
    sides.push_back(o.side);
  }
  for (int s : sides) check_side(s);
  if (o.forests == 0 && !o.exact) throw std::invalid_argument("--forests must be at least 1");
  std::vector<std::string> agents = o.agent == "all" ? agent_names() : std::vector<std::string>{o.agent};
  for (const auto& a : agents) make_agent(a);  // validates the names
  if (o.exact && (sides.size() != 1 || sides[0] != 3)) throw std::invalid_argument("--exact covers side 3 only");
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
                r["agent"].get<std::string>().c_str(), 100 * r["portal_rate"].get<double>(), r["deaths_per_forest"].get<double>(),
                r["moves_per_forest"].get<double>(), r["stones_per_forest"].get<double>(), 100 * r["stuck_rate"].get<double>(),
                r["score_per_forest"].get<double>(), r["score_ci95"].get<double>());
  std::cout << (o.exact ? "(exact expectation over every 3x3 forest)\n"
                        : "(" + std::to_string(o.forests) + " forests per side, seed " + std::to_string(o.seed) +
                              "; score over forests where the portal was reached, +- a 95% interval)\n");
  return 0;
}

int run_posterior(const Options& o) {
  std::string text;
  if (o.file == "-") {
    std::stringstream ss;
    ss << std::cin.rdbuf();
    text = ss.str();
  } else {
    std::ifstream in(o.file);
    if (!in) throw std::invalid_argument("cannot read " + o.file);
    std::stringstream ss;
    ss << in.rdbuf();
    text = ss.str();
  }
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
  auto po = std::make_shared<Options>();
  auto* playc = top->add_subcommand("play", "one forest, turn by turn");
  playc->add_option("--side", po->side, "forest side (default 3)");
  playc->add_option("--seed", po->seed, "random seed (default 1)");
  playc->add_option("--agent", po->agent, "original | bayes | optimal (3x3) | oracle");
  playc->add_option("--db", po->db, "a forest database (solve forest --side 3): the optimal agent looks its moves up there");
  auto eo = std::make_shared<Options>();
  auto* eval = top->add_subcommand("eval", "agents on the same seeded forests: portal rate, deaths, score");
  eval->add_option("--agent", eo->agent, "original | bayes | optimal (3x3) | oracle | all");
  eval->add_option("--side", eo->side, "forest side (default 3)");
  eval->add_option("--sides", eo->sides, "a range of sides, e.g. 3-10");
  eval->add_option("--forests", eo->forests, "forests per side (default 20000)");
  eval->add_option("--seed", eo->seed, "random seed (default 1)");
  eval->add_option("--threads", eo->threads, "worker threads (default: all cores)");
  eval->add_flag("--exact", eo->exact, "3x3: the exact expectation over every forest instead of sampling");
  eval->add_flag("--json", eo->json_out, "one JSON object per side and agent");
  auto qo = std::make_shared<Options>();
  auto* post = top->add_subcommand("posterior", "exact P(monster), P(trap), P(portal) per tile from observations (JSON)");
  post->add_option("observations", qo->file, "the observations file (- for standard input)")->required();
  post->add_flag("--json", qo->json_out, "print JSON");
  return {{playc, [po, &host] { return run_play(*po, host); }}, {eval, [eo] { return run_eval(*eo); }}, {post, [qo] { return run_posterior(*qo); }}};
}

}  // namespace toadbase::forest
