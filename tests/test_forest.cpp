// Magic Forest Wanderer: the generator's statistics, the exact posterior against an
// enumeration written here, the original agent's decisions on hand-made forests, the rules
// of death, respawn, stones and score, and the published figures.
#include <catch2/catch.hpp>

#include <algorithm>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "db/database.hpp"
#include "solver/games/forest/agents.hpp"
#include "solver/games/forest/forest.hpp"
#include "solver/games/forest/module.hpp"
#include "solver/games/forest/optimal.hpp"
#include "solver/games/forest/policy_table.hpp"
#include "solver/games/forest/posterior.hpp"
#include "support.hpp"
#include "tools/commands.hpp"

using namespace toadbase::forest;

namespace {

/// A forest from a picture: M monster, T trap, P portal, S start, . empty.
Forest make(const std::vector<std::string>& rows) {
  Forest f;
  f.side = static_cast<int>(rows.size());
  f.content.assign(f.tiles(), kEmpty);
  for (int r = 0; r < f.side; ++r)
    for (int c = 0; c < f.side; ++c) {
      const char ch = rows[r][c];
      const int t = r * f.side + c;
      if (ch == 'M') f.content[t] = kMonster;
      if (ch == 'T') f.content[t] = kTrap;
      if (ch == 'P') f.portal = t;
      if (ch == 'S') f.start = t;
    }
  place_clues(f);
  return f;
}

/// Plays a fixed list of actions.
class Scripted : public Agent {
 public:
  explicit Scripted(std::vector<Action> a) : actions_(std::move(a)) {}
  std::string name() const override { return "scripted"; }
  void begin(const Knowledge&, const Forest*) override {}
  Action next(const Knowledge&, int) override {
    if (i_ >= actions_.size()) return {Action::GiveUp, 0};
    return actions_[i_++];
  }
  void died(const Knowledge& k, int tile) override { deaths.push_back({tile, k.known_trap[tile] ? 'T' : 'M'}); }
  std::vector<std::pair<int, char>> deaths;

 private:
  std::vector<Action> actions_;
  size_t i_ = 0;
};

// ---- the test's own enumeration of every 3x3 forest ------------------------------------

struct World {
  int content[9];  // 0 empty, 1 monster, 2 trap (the portal tile: 0)
  int portal, start;
  double p;
};

std::vector<World> all_3x3() {
  std::vector<World> out;
  auto nb = [](int t) {
    std::vector<int> v;
    if (t / 3 > 0) v.push_back(t - 3);
    if (t / 3 < 2) v.push_back(t + 3);
    if (t % 3 > 0) v.push_back(t - 1);
    if (t % 3 < 2) v.push_back(t + 1);
    return v;
  };
  for (int code = 0; code < 19683; ++code)
    for (int portal = 0; portal < 9; ++portal) {
      World w{};
      int c = code;
      double p = 1.0 / 9;
      bool redundant = false;
      for (int t = 0; t < 9; ++t) {
        w.content[t] = c % 3;
        c /= 3;
        if (t == portal) {
          if (w.content[t] != 0) redundant = true;  // counted once, with weight 1 for its draw
          continue;
        }
        p *= w.content[t] == 0 ? 0.9 : 0.05;
      }
      if (redundant) continue;
      w.portal = portal;
      std::vector<int> eligible;
      for (int t = 0; t < 9; ++t) {
        bool clue = false;
        for (int u : nb(t)) clue |= w.content[u] != 0 && u != portal;
        if (w.content[t] == 0 && t != portal && !clue) eligible.push_back(t);
      }
      for (int s : eligible) {
        World x = w;
        x.start = s;
        x.p = p / static_cast<double>(eligible.size());
        out.push_back(x);
      }
    }
  return out;
}

}  // namespace

TEST_CASE("forest generator: hazard rates, portal uniformity, the 0.889 % no-start rate", "[forest]") {
  REQUIRE(no_start_probability(3) == Approx(0.00889).margin(0.000005));
  uint64_t tiles = 0, monsters = 0, traps = 0;
  std::vector<uint64_t> portal(25, 0);
  const int N = 40000;
  for (int i = 0; i < N; ++i) {
    const Forest f = generate(5, 99, i);
    REQUIRE(f.content[f.portal] == kEmpty);
    const auto e = f.eligible_starts();
    REQUIRE(std::find(e.begin(), e.end(), f.start) != e.end());
    ++portal[f.portal];
    for (int t = 0; t < 25; ++t) {
      if (t == f.portal) continue;
      ++tiles;
      monsters += f.content[t] == kMonster;
      traps += f.content[t] == kTrap;
    }
  }
  // conditioning on a start tile lowers the rates a little on 5x5 (<0.3 %); 4 sigma bounds
  const double nt = static_cast<double>(tiles);
  const double pm = static_cast<double>(monsters) / nt, pt = static_cast<double>(traps) / nt, sd = std::sqrt(0.05 * 0.95 / nt);
  REQUIRE(std::abs(pm - 0.05) < 4 * sd + 0.003);
  REQUIRE(std::abs(pt - 0.05) < 4 * sd + 0.003);
  double chi2 = 0;
  for (uint64_t c : portal) chi2 += (static_cast<double>(c) - N / 25.0) * (static_cast<double>(c) - N / 25.0) / (N / 25.0);
  REQUIRE(chi2 < 60);  // 24 degrees of freedom: 60 is far beyond the 0.9999 quantile (~52)
  // the same seed and index give the same forest
  REQUIRE(generate(7, 3, 11).content == generate(7, 3, 11).content);
  REQUIRE(generate(7, 3, 11).start == generate(7, 3, 11).start);
}

TEST_CASE("forest posterior: the spec's example, and every 3x3 observation set against an enumeration",
          "[forest]") {
  Observations o;
  o.side = 3;
  o.start = 0;
  o.visited = {{1, true, false}};
  Posterior p = posterior(o);
  REQUIRE(p.monster[2] == Approx(0.444).margin(0.0005));
  REQUIRE(p.monster[4] == Approx(0.591).margin(0.0005));
  REQUIRE(p.trap[2] == 0);
  REQUIRE(p.trap[4] == 0);
  // observation sets from random safe walks in generated forests
  const auto worlds = all_3x3();
  double total = 0;
  for (const auto& w : worlds) total += w.p;
  REQUIRE(total == Approx(1 - no_start_probability(3)).epsilon(1e-9));
  std::mt19937_64 rng(5);
  int checked = 0;
  for (int i = 0; i < 40 && checked < 12; ++i) {
    const Forest f = generate(3, 77, i);
    Observations obs;
    obs.start = f.start;
    // observations: a short random walk over safe tiles, recording the clues seen
    std::vector<uint8_t> seen(9, 0);
    seen[f.start] = 1;
    int at = f.start;
    for (int step = 0; step < 4; ++step) {
      const auto nb = f.neighbours(at);
      const int t = nb[rng() % nb.size()];
      if (f.content[t] != kEmpty || t == f.portal) continue;
      at = t;
      if (!seen[t]) obs.visited.push_back({t, f.bones[t] != 0, f.leaves[t] != 0}), seen[t] = 1;
    }
    const Posterior got = posterior(obs);
    // the enumeration
    std::vector<double> m(9, 0), tr(9, 0), po(9, 0);
    double z = 0;
    for (const auto& w : worlds) {
      if (w.start != obs.start) continue;
      bool ok = true;
      for (const auto& v : obs.visited) {
        if (w.content[v.tile] != 0 || w.portal == v.tile) ok = false;
        bool bones = false, leaves = false;
        for (int u : neighbours(3, v.tile)) {
          if (u == w.portal) continue;
          bones |= w.content[u] == 1;
          leaves |= w.content[u] == 2;
        }
        if (bones != v.bones || leaves != v.leaves) ok = false;
      }
      if (!ok) continue;
      z += w.p;
      for (int t = 0; t < 9; ++t) {
        if (t == w.portal) po[t] += w.p;
        else if (w.content[t] == 1) m[t] += w.p;
        else if (w.content[t] == 2) tr[t] += w.p;
      }
    }
    for (int t = 0; t < 9; ++t) {
      REQUIRE(got.monster[t] == Approx(m[t] / z).margin(1e-12));
      REQUIRE(got.trap[t] == Approx(tr[t] / z).margin(1e-12));
      REQUIRE(got.portal[t] == Approx(po[t] / z).margin(1e-12));
    }
    ++checked;
  }
  REQUIRE(checked == 12);
  REQUIRE_THROWS_AS(read_observations("{\"side\": 3}"), std::invalid_argument);
  REQUIRE_THROWS_AS(read_observations("{\"side\": 3, \"start\": [3, 0]}"), std::invalid_argument);
  // a side below 2, read as an unsigned number by the JSON library, is refused as a signed one is
  for (const char* side : {"0", "1", "-1"})
    REQUIRE_THROWS_WITH(read_observations(std::string("{\"side\": ") + side + ", \"start\": [0, 0]}"),
                        Catch::Matchers::Contains(std::string("\"side\" is 2..12, not ") + side));
  Observations bad = o;
  bad.visited.push_back({0, true, false});  // the start shows no clue
  REQUIRE_THROWS_AS(posterior(bad), std::invalid_argument);
}

namespace {

/// The test's own sum over every forest that agrees with the observations, on any side:
/// every content of the tiles not pinned down by the observations, every portal tile.
Posterior brute_posterior(const Observations& o) {
  const int s = o.side, n = s * s;
  std::vector<int> clue(n, -1), death(n, -1), stoned(n, 0);
  clue[o.start] = 0;
  for (const auto& v : o.visited) clue[v.tile] = (v.bones ? 1 : 0) | (v.leaves ? 2 : 0);
  for (auto [t, h] : o.deaths) death[t] = h;
  for (int t : o.stones) stoned[t] = 1;
  std::vector<int> free;  // tiles whose content is not known
  for (int t = 0; t < n; ++t)
    if (death[t] < 0 && (clue[t] < 0 || (stoned[t] && t != o.start))) free.push_back(t);
  long combos = 1;
  for (size_t i = 0; i < free.size(); ++i) combos *= 3;
  Posterior out;
  out.monster.assign(n, 0), out.trap.assign(n, 0), out.portal.assign(n, 0);
  double z = 0;
  std::vector<int> content(n);
  for (int portal = 0; portal < n; ++portal) {
    if (clue[portal] >= 0 || death[portal] >= 0) continue;
    for (long code = 0; code < combos; ++code) {
      long c = code;
      double p = 1;
      bool ok = true;
      for (int t = 0; t < n; ++t) content[t] = death[t] >= 0 ? death[t] : 0;
      for (int t : free) {
        content[t] = static_cast<int>(c % 3);
        c /= 3;
        if (t == portal && content[t] != 0) ok = false;  // the portal's own draw is summed out
        if (clue[t] >= 0 && content[t] == 2) ok = false;  // walked in: no trap
      }
      if (!ok) continue;
      for (int t = 0; t < n; ++t)
        if (t != portal) p *= content[t] == 0 ? 0.9 : 0.05;
      int eligible = 0;
      bool start_ok = false;
      for (int t = 0; t < n && ok; ++t) {
        bool bones = false, leaves = false;
        for (int u : neighbours(s, t)) bones |= content[u] == 1, leaves |= content[u] == 2;
        if (clue[t] >= 0 && ((bones ? 1 : 0) | (leaves ? 2 : 0)) != clue[t]) ok = false;
        if (content[t] == 0 && t != portal && !bones && !leaves) {
          ++eligible;
          start_ok |= t == o.start;
        }
      }
      if (!ok || !start_ok) continue;
      const double w = p / eligible;
      z += w;
      out.portal[portal] += w;
      for (int t = 0; t < n; ++t) {
        if (content[t] == 1) out.monster[t] += w;
        if (content[t] == 2) out.trap[t] += w;
      }
    }
  }
  for (int t = 0; t < n; ++t) out.monster[t] /= z, out.trap[t] /= z, out.portal[t] /= z;
  return out;
}

}  // namespace

TEST_CASE("forest posterior on 4x4 and 5x5, with deaths and stones, against a brute-force sum", "[forest]") {
  for (int side : {4, 5}) {
    const int unknown = side == 4 ? 9 : 8;  // tiles left unknown: the brute force is 3^unknown x n
    int checked = 0, with_deaths = 0, with_stones = 0;
    for (uint64_t i = 0; checked < 8; ++i) {
      const Forest f = generate(side, 1234, i);
      const int n = side * side;
      // observations: a random walk that throws stones at random and dies now and then
      std::mt19937_64 rng(i);
      Observations o;
      o.side = side;
      o.start = f.start;
      std::vector<int> seen(n, 0), dead(n, 0), stoned(n, 0);
      seen[f.start] = 1;
      auto free_tiles = [&] {  // what the brute force enumerates
        int c = 0;
        for (int t = 0; t < n; ++t) c += !dead[t] && (!seen[t] || (stoned[t] && t != f.start));
        return c;
      };
      int at = f.start;
      for (int step = 0; step < 80 && free_tiles() > unknown; ++step) {
        const auto nb = f.neighbours(at);
        const int t = nb[rng() % nb.size()];
        if (t == f.portal) continue;
        if (rng() % 6 == 0 && !stoned[t]) o.stones.push_back(t), stoned[t] = 1;
        const bool monster = f.content[t] == kMonster && !stoned[t];
        if (monster || f.content[t] == kTrap) {
          if (!dead[t]) o.deaths.push_back({t, f.content[t]}), dead[t] = 1;
          at = f.start;
          continue;
        }
        at = t;
        if (!seen[t]) o.visited.push_back({t, f.bones[t] != 0, f.leaves[t] != 0}), seen[t] = 1;
      }
      if (free_tiles() > unknown) continue;
      const Posterior want = brute_posterior(o), got = posterior(o);
      for (int t = 0; t < n; ++t) {
        REQUIRE(got.monster[t] == Approx(want.monster[t]).margin(1e-12));
        REQUIRE(got.trap[t] == Approx(want.trap[t]).margin(1e-12));
        REQUIRE(got.portal[t] == Approx(want.portal[t]).margin(1e-12));
      }
      // the window form is exact when no tile lies beyond the window
      InferenceOptions wide;
      wide.window = 2 * side;
      const Posterior w = infer(o, wide);
      for (int t = 0; t < n; ++t) REQUIRE(w.monster[t] == Approx(want.monster[t]).margin(1e-12));
      ++checked;
      with_deaths += !o.deaths.empty();
      with_stones += !o.stones.empty();
    }
    REQUIRE(with_deaths > 0);
    REQUIRE(with_stones > 0);
  }
  // observations no forest explains: bones on (0,1) with every neighbour visited and safe
  Observations o;
  o.side = 4;
  o.start = 0;
  o.visited = {{1, true, false}, {2, false, false}, {5, false, false}};
  REQUIRE_THROWS_WITH(posterior(o), Catch::Matchers::Contains("cannot happen"));
  o.visited = {{1, true, false}, {2, false, false}};
  REQUIRE(posterior(o).monster[5] == Approx(1.0));
}

TEST_CASE("forest original agent: decisions the spec's rule makes on hand-made forests", "[forest]") {
  // start (0,0); (0,1) shows bones (monster on (0,2)): pM = 1/3 on (0,2) and (1,1), and (1,0)
  // has pM = pT = 0, so rule 1 sends him back through the start to (1,0)
  {
    const Forest f = make({"S.M", "...", "..P"});
    auto a = make_agent("original");
    const Episode e = play(f, *a, true);
    REQUIRE(e.steps.size() >= 3);
    REQUIRE(e.steps[0].text == "move to [0, 1] (bones)");
    REQUIRE(e.steps[1].text == "move to [0, 0]");
    REQUIRE(e.steps[2].text == "move to [1, 0]");
    REQUIRE(e.steps[2].at == 3);
    REQUIRE(e.steps[2].knows.visited == std::vector<uint8_t>{1, 1, 0, 1, 0, 0, 0, 0, 0});
    REQUIRE(e.steps[0].knows.bones[1] == 1);
    REQUIRE(e.steps[2].score == -3);
    REQUIRE(e.portal);
    REQUIRE(e.deaths == 0);
  }
  // a monster in the centre: after (0,1) and (1,0) both show bones, every frontier tile has
  // pM > 0 and pT = 0: rule 2 takes the highest pM, the centre (1/3 + 1/3), with a stone first
  {
    const Forest f = make({"S..", ".M.", "..P"});
    auto a = make_agent("original");
    const Episode e = play(f, *a, true);
    REQUIRE(e.steps.size() >= 5);
    std::vector<std::string> texts;
    for (size_t i = 0; i < 5; ++i) texts.push_back(e.steps[i].text);
    REQUIRE(texts == std::vector<std::string>{"move to [0, 1] (bones)", "move to [0, 0]", "move to [1, 0] (bones)",
                                              "stone at [1, 1]", "move to [1, 1]"});
    REQUIRE(e.steps[3].knows.stoned[4] == 1);
    REQUIRE(e.steps[3].score == -13);
    REQUIRE(e.portal);
    REQUIRE(e.stones >= 1);
  }
}

namespace {

/// Wraps an agent and records, for every step onto a new tile and every stone, the exact
/// risk there at that moment.
class Watched : public Agent {
 public:
  explicit Watched(std::unique_ptr<Agent> inner) : inner_(std::move(inner)) {}
  std::string name() const override { return inner_->name(); }
  void begin(const Knowledge& k, const Forest* f) override { inner_->begin(k, f); }
  void died(const Knowledge& k, int tile) override {
    deaths.push_back(last_risk);
    inner_->died(k, tile);
  }
  Action next(const Knowledge& k, int at) override {
    const Action a = inner_->next(k, at);
    if (a.kind == Action::GiveUp || (a.kind == Action::Move && k.visited[a.tile])) return a;
    const Posterior p = posterior(observations(k));
    if (a.kind == Action::Shoot) {
      shots.push_back(k.stoned[a.tile] ? 0.0 : p.monster[a.tile]);
    } else {
      const double live = k.stoned[a.tile] ? 0.0 : p.monster[a.tile];
      last_risk = p.trap[a.tile] + live;
      entries.push_back(last_risk);
      pointless += p.trap[a.tile] > 1 - 1e-9 || live > 1 - 1e-9;
    }
    return a;
  }
  std::vector<double> entries, shots, deaths;
  int pointless = 0;  // steps onto a certain trap, or a certain live monster
  double last_risk = 0;

 private:
  std::unique_ptr<Agent> inner_;
};

}  // namespace

TEST_CASE("forest bayes agent: never a pointless death, dies only where the exact risk was positive, "
          "stones only live monsters, beats the original on the same forests", "[forest]") {
  for (int side : {3, 4, 5}) {
    double bayes = 0, original = 0, forests = 0;
    int stones = 0, risky = 0;
    for (uint64_t i = 0; i < 100; ++i) {
      const Forest f = generate(side, 21, i);
      Watched w(make_agent("bayes"));
      const Episode e = play(f, w);
      REQUIRE(w.pointless == 0);
      for (double r : w.entries) risky += r > 0;
      for (double r : w.deaths) REQUIRE(r > 0);
      for (double r : w.shots) REQUIRE(r > 0);
      stones += e.stones;
      auto o = make_agent("original");
      const Episode eo = play(f, *o);
      bayes += static_cast<double>(e.score), original += static_cast<double>(eo.score), ++forests;
    }
    INFO("side " << side << ": bayes " << bayes / forests << ", original " << original / forests);
    REQUIRE(bayes > original);
    if (side == 5) {  // the checks above did see risk taken
      REQUIRE(risky > 0);
      REQUIRE(stones > 0);
    }
  }
}

TEST_CASE("forest rules: moves, stones, death and respawn with the map kept, portal, stuck", "[forest]") {
  // 3x3, n = 9: start (1,0); a monster on (1,1); the portal on (1,2)
  Forest f = make({"...", "SMP", "..."});
  f.start = 3;
  {
    // walk into the monster: -1 -10n, back to the start; stone it (-10), walk through (-1 -1 +10n)
    Scripted s({{Action::Move, 4}, {Action::Shoot, 4}, {Action::Move, 4}, {Action::Move, 5}});
    const Episode e = play(f, s);
    REQUIRE(e.deaths == 1);
    REQUIRE(s.deaths == std::vector<std::pair<int, char>>{{4, 'M'}});
    REQUIRE(e.stones == 1);
    REQUIRE(e.moves == 3);
    REQUIRE(e.portal);
    REQUIRE(e.score == -1 - 90 - 10 - 1 - 1 + 90);
  }
  {
    // a stone at an empty tile still costs 10; a killed monster stays dead after a death
    Forest g = make({"...", "SMP", ".T."});
    g.start = 3;
    Scripted s({{Action::Shoot, 4}, {Action::Move, 6}, {Action::Move, 7}, {Action::Move, 4}, {Action::Move, 5}});
    const Episode e = play(g, s);
    REQUIRE(e.deaths == 1);  // the trap on (2,1)
    REQUIRE(s.deaths == std::vector<std::pair<int, char>>{{7, 'T'}});
    REQUIRE(e.portal);
    REQUIRE(e.score == -10 - 1 - 1 - 90 - 1 - 1 + 90);
  }
  {
    // known traps cut the portal off: stuck
    Forest h = make({"S.T", "..T", "TTP"});
    h.start = 0;
    Scripted s({{Action::Move, 1}, {Action::Move, 2}, {Action::Move, 1}, {Action::Move, 4}, {Action::Move, 5},
                {Action::Move, 3}, {Action::Move, 6}, {Action::Move, 1}, {Action::Move, 4}, {Action::Move, 7}});
    const Episode e = play(h, s);
    REQUIRE(e.stuck);
    REQUIRE(e.deaths == 4);
    REQUIRE_FALSE(e.portal);
  }
  // an action at a tile that is not a neighbour is a bug of the agent
  Scripted wrong({{Action::Move, 8}});
  REQUIRE_THROWS_AS(play(f, wrong), std::logic_error);
}

TEST_CASE("forest: the original agent reproduces the published 3x3 figures, and the oracle too", "[forest]") {
  // spec: 20 000 forests: score per forest 81.0, deaths 0.015, oracle 88.0; portal 99.00 %
  // counts the 0.889 % of draws without a start (the original loops on them) as failures
  for (const char* name : {"original", "oracle"}) {
    double score = 0, scored = 0, deaths = 0, portal = 0;
    for (int i = 0; i < 20000; ++i) {
      auto a = make_agent(name);
      const Episode e = play(generate(3, 1, i), *a);
      deaths += e.deaths;
      portal += e.portal;
      if (e.portal) score += static_cast<double>(e.score), ++scored;
    }
    const double mean = score / scored;
    INFO(name << ": score " << mean << ", deaths " << deaths / 20000 << ", portal " << portal / 20000);
    if (std::string(name) == "original") {
      REQUIRE(std::abs(mean - 81.0) < 0.6);        // our 95 % interval is +-0.2; theirs as wide
      REQUIRE(std::abs(deaths / 20000 - 0.015) < 0.004);
      REQUIRE(std::abs(portal / 20000 * (1 - no_start_probability(3)) - 0.9900) < 0.002);
    } else {
      REQUIRE(std::abs(mean - 88.0) < 0.1);
    }
  }
}

TEST_CASE("cli forest: play, eval (sampled and exact), posterior, and bad input", "[cli][forest]") {
  using namespace tbtest;
  TempDir dir("forest");
  REQUIRE_THAT(ok({"forest", "play", "--side", "4", "--seed", "7", "--agent", "original"}).out,
               Catch::Matchers::Contains("reached the portal"));
  REQUIRE_THAT(run_expecting({"forest", "play", "--agent", "all"}, 2).err,
               Catch::Matchers::Contains("one agent") && Catch::Matchers::Contains("eval") &&
                   !Catch::Matchers::Contains("not 'all'"));
  REQUIRE_THAT(ok({"forest", "play", "--side", "4", "--seed", "7", "--agent", "bayes"}).out,
               Catch::Matchers::Contains("bayes: reached the portal"));
  // side 4: "all" is original, bayes and oracle (optimal covers 3x3 only and has its own slow test)
  std::istringstream rows(ok({"forest", "eval", "--agent", "all", "--side", "4", "--forests", "500", "--json"}).out);
  std::string line;
  int n = 0;
  while (std::getline(rows, line)) {
    const auto j = nlohmann::json::parse(line);
    REQUIRE(j["side"] == 4);
    REQUIRE(j["portalRate"].get<double>() > 0.98);
    // a count of forests is a whole number in the JSON (it once printed 500.0)
    REQUIRE(j["forests"].is_number_unsigned());
    REQUIRE(j["forests"] == 500);
    ++n;
  }
  REQUIRE(n == 3);
  const auto exact = nlohmann::json::parse(ok({"forest", "eval", "--agent", "oracle", "--side", "3", "--exact", "--json"}).out);
  REQUIRE(exact["forests"] == "exact");
  REQUIRE(exact["scorePerForest"].get<double>() == Approx(88.0).margin(0.1));
  write_file(dir / "obs.json", R"({"side": 3, "start": [0, 0], "visited": [{"tile": [0, 1], "bones": true}]})");
  const auto post = nlohmann::json::parse(ok({"forest", "posterior", dir / "obs.json", "--json"}).out);
  REQUIRE(post["tiles"][2]["monster"].get<double>() == Approx(0.444).margin(0.0005));
  REQUIRE(post["tiles"][4]["monster"].get<double>() == Approx(0.591).margin(0.0005));
  // a larger forest: text form, three tables of side rows
  write_file(dir / "obs6.json", R"({"side": 6, "start": [2, 2], "visited": [{"tile": [2, 3], "leaves": true}]})");
  const std::string text = ok({"forest", "posterior", dir / "obs6.json"}).out;
  REQUIRE(std::count(text.begin(), text.end(), '\n') == 3 * 7);
  write_file(dir / "bad.json", R"({"side": 3, "start": [0, 0], "visited": [{"tile": [0, 9]}]})");
  REQUIRE_THAT(run_expecting({"forest", "posterior", dir / "bad.json"}, 1).err, Catch::Matchers::Contains("outside"));
  run_expecting({"forest", "eval", "--agent", "nobody"}, 2);
  for (const char* sides : {"5-3", "3x-5", "3-2147483647", "1-3"})
    run_expecting({"forest", "eval", "--sides", sides, "--forests", "10"}, 2);
  run_expecting({"forest", "eval", "--side", "3", "--forests", "0"}, 2);
  for (const char* obs : {R"({"side": 3, "start": [0, 0], "deaths": [5]})",
                          R"({"side": 3, "start": [0, 0], "visited": [{"tile": [0, 1], "bones": 1}]})",
                          R"({"side": 4294967299, "start": [0, 0]})",
                          R"({"side": 3, "start": [4294967296, 0]})"}) {
    write_file(dir / "o.json", obs);
    INFO(obs);
    REQUIRE_THAT(run_expecting({"forest", "posterior", dir / "o.json"}, 1).err, Catch::Matchers::Contains("observations:"));
  }
  run_expecting({"forest", "eval", "--side", "5", "--exact"}, 2);
}

namespace {

/// The toadbase command run in this process (so that what it calls can be counted here): its
/// exit code and standard output.
std::pair<int, std::string> run_here(std::vector<std::string> args) {
  args.insert(args.begin(), "toadbase");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::ostringstream out;
  struct Restore {
    std::streambuf* old;
    ~Restore() { std::cout.rdbuf(old); }
  } restore{std::cout.rdbuf(out.rdbuf())};
  const int rc = toadbase::tools::run(static_cast<int>(args.size()), argv.data());
  std::cout.flush();
  return {rc, out.str()};
}

/// A database of the forest's identity whose tiers hold two beliefs a start tile of the test's
/// own making, each with a decision and a value no search gives; returns them by tier.
std::vector<std::vector<PolicyEntry>> stored_beliefs(const std::string& path) {
  const auto inst = Module::make_instance(Module::normalize(nlohmann::json::object()));
  std::vector<toadbase::TierInfo> tiers;
  std::vector<std::vector<PolicyEntry>> entries(9);
  for (int s = 0; s < 9; ++s) {
    Observations o;
    o.side = 3;
    o.start = s;
    entries[s].push_back({belief_key(o, s), (s + 1) % 9, s % 2 == 1, 50.25 + s});
    const int next = s == 8 ? 7 : s + 1;  // a neighbour in the same row
    o.visited.push_back({next, true, s % 3 == 0});
    entries[s].push_back({belief_key(o, next), -1, false, -3.5 - s});
    std::sort(entries[s].begin(), entries[s].end(), [](const auto& a, const auto& b) { return a.belief < b.belief; });
    tiers.push_back({policy_tier_name(s), entries[s].size()});
  }
  auto d = toadbase::db::Database::open_for_solve(path, inst->identity(), tiers, 3);
  for (int s = 0; s < 9; ++s) {
    std::vector<PolicyRecord> recs;
    for (const auto& e : entries[s]) recs.push_back(encode_policy(e));
    d->commit(static_cast<toadbase::TierId>(s), recs);
  }
  d->finish(tiers);
  return entries;
}

}  // namespace

TEST_CASE("forest database: a query answers from the stored policy and opening it searches nothing",
          "[forest][db]") {
  // a query answers what the database stores, and neither opening the database nor querying
  // it takes the policy from the search (seconds)
  tbtest::TempDir dir("forest-stored");
  const std::string path = dir / "f3";
  const auto entries = stored_beliefs(path);
  const auto inst = Module::make_instance(Module::normalize(nlohmann::json::object()));
  std::vector<std::string> args{"query", "--db", path};
  for (const auto& tier : entries)
    for (const auto& e : tier) args.push_back(format_belief(e.belief));
  const std::string missing = R"({"side":3,"start":[1,1],"at":[1,2],"visited":[{"tile":[1,2]}]})";
  args.push_back(missing);
  const uint64_t calls = optimal_policy_calls();
  const auto [rc, out] = run_here(args);
  CHECK(optimal_policy_calls() == calls);
  REQUIRE(rc == 1);  // the belief the database does not hold
  std::istringstream lines(out);
  std::string line;
  size_t i = 3;
  for (const auto& tier : entries)
    for (const auto& e : tier) {
      REQUIRE(std::getline(lines, line));
      INFO(args[i] << " -> " << line);
      const auto j = nlohmann::ordered_json::parse(line);
      CHECK(j["position"].dump() == args[i++]);
      CHECK(j["value"].get<double>() == e.value);
      if (e.target < 0) {
        CHECK(j["decision"].is_null());
      } else {
        CHECK(j["decision"]["target"] == nlohmann::json::array({e.target / 3, e.target % 3}));
        CHECK(j["decision"]["stone"] == e.stone);
      }
    }
  REQUIRE(std::getline(lines, line));
  CHECK_THAT(nlohmann::json::parse(line)["error"].get<std::string>(), Catch::Matchers::Contains("none stored"));
  CHECK_FALSE(std::getline(lines, line));
  // the instance names its nine tiers without a search too
  const auto declared = inst->tiers();
  REQUIRE(declared.size() == 9);
  CHECK(declared[4].name == "start-1-1");
  CHECK(optimal_policy_calls() == calls);
}

TEST_CASE("forest query: a position that is not a belief is named in words, without the JSON library's text",
          "[cli][forest]") {
  using Catch::Matchers::Contains;
  tbtest::TempDir dir("forest-bad");
  const std::string db = dir / "f3";
  stored_beliefs(db);
  const std::string shape =
      R"(a forest belief is a JSON object {"side": 3, "start": [r, c], "at": [r, c], "visited": [...], "deaths": [...], "stones": [...]}: )";
  // each position, and what its message must say
  const std::vector<std::pair<std::string, std::string>> cases{
      {"not json", shape + "not JSON at character 1"},
      {R"({"side": 3, "start": [0, 0], "at": [0, 0]} x)", shape + "not JSON at character 44"},
      {R"({"side": 3, "start": [0, 0],})", shape + "not JSON at character 29"},
      {R"({"side": 3, "start": [0, 0)", shape + "not JSON: it ends before the JSON does"},
      {R"({"side": 3, "start": [0, 0], "at": [0, 1e400]})", shape + "not JSON that can be read: a number in it is too large"},
      {"[1, 2]", shape + "this is an array"},
      {"42", shape + "this is a number"},
      {R"("start")", shape + "this is a string"},
      {"null", shape + "this is null"},
      {"{}", R"(give "side": 3)"},
      {R"({"side": 3})", R"(give "start": [row, column], the tile he started on)"},
      {R"({"side": 3, "start": [0, 0]})", R"(give "at": [row, column], where he stands)"},
      {R"({"side": "3", "start": [0, 0], "at": [0, 0]})", R"("side" is a whole number, not "3")"},
      {R"({"side": 3.0, "start": [0, 0], "at": [0, 0]})", R"("side" is a whole number, not 3.0)"},
      {R"({"side": 18446744073709551615, "start": [0, 0], "at": [0, 0]})",
       R"("side" is 2..12, not 18446744073709551615)"},
      {R"({"side": 1, "start": [0, 0], "at": [0, 1]})", R"("side" is 2..12, not 1)"},
      {R"({"side": 0, "start": [0, 0], "at": [0, 0]})", R"("side" is 2..12, not 0)"},
      {R"({"side": 4, "start": [0, 0], "at": [0, 0]})", R"(the optimal policy covers 3x3 forests only ("side": 3), not side 4)"},
      {R"({"side": 3, "start": "a1", "at": [0, 0]})", R"("start" is a tile [row, column], not "a1")"},
      {R"({"side": 3, "start": [0, 0], "at": [0, 4294967296]})", R"("at" [0,4294967296] is outside the forest (rows and columns 0..2))"},
      {R"({"side": 3, "start": [-1, 0], "at": [0, 0]})", R"("start" [-1,0] is outside the forest (rows and columns 0..2))"},
      {R"({"side": 3, "start": [0, 0], "at": [0, 0], "visited": 5})",
       R"("visited" is a list of {"tile": [r, c], "bones": true|false, "leaves": true|false}, not 5)"},
      {R"({"side": 3, "start": [0, 0], "at": [0, 0], "visited": [{"tile": [0, 1], "bones": 1}]})",
       R"(each visited entry is {"tile": [r, c], "bones": true|false, "leaves": true|false}, not {"bones":1,"tile":[0,1]})"},
      {R"({"side": 3, "start": [0, 0], "at": [0, 0], "deaths": [{"tile": [0, 1], "hazard": 7}]})",
       R"(a death's hazard is "monster" or "trap", not 7)"},
      {R"({"side": 3, "start": [0, 0], "at": [0, 0], "deaths": [[0, 1]]})",
       R"(each death is {"tile": [r, c], "hazard": "monster"|"trap"}, not [0,1])"},
      {R"({"side": 3, "start": [0, 0], "at": [0, 0], "stones": [[0]]})", R"(a stone's tile is a tile [row, column], not [0])"},
      {R"({"side": 3, "start": [0, 0], "at": [0, 0], "visted": []})",
       R"(unknown field "visted" (the fields are side, start, at, visited, deaths and stones))"},
  };
  std::vector<std::string> args{"query", "--db", db};
  for (const auto& c : cases) args.push_back(c.first);
  const auto r = tbtest::run_expecting(args, 1);
  std::istringstream lines(r.out);
  std::string line;
  for (const auto& [position, why] : cases) {
    REQUIRE(std::getline(lines, line));
    INFO(position << " -> " << line);
    const auto j = nlohmann::json::parse(line);
    CHECK(j["position"] == position);
    CHECK(j["error"] == "position '" + position + "': " + why);
  }
  CHECK_FALSE(std::getline(lines, line));
  // --text: the same words
  CHECK_THAT(tbtest::run_expecting({"query", "--db", db, "--text", "not json"}, 1).out,
             Contains(shape + "not JSON at character 1") && !Contains("json.exception"));
  // the posterior's observations: the same reader, by line and character in a file of several
  const std::string obs = dir / "obs.json";
  tbtest::write_file(obs, "{\n  \"side\": 3,\n  \"start\": [0, 0],,\n}\n");
  CHECK_THAT(tbtest::run_expecting({"forest", "posterior", obs}, 1).err,
             Contains(R"(observations: a JSON object {"side": n, "start": [r, c], "visited": [...], "deaths": [...], "stones": [...]}: not JSON at line 3, character 19)") &&
                 !Contains("json.exception"));
  tbtest::write_file(obs, R"({"side": 3, "start": [0, 0], "deaths": [{"tile": [0, 1], "hazard": ["trap"]}]})");
  CHECK_THAT(tbtest::run_expecting({"forest", "posterior", obs}, 1).err,
             Contains(R"(observations: a death's hazard is "monster" or "trap", not ["trap"])") && !Contains("json.exception"));
  // a value shown in a message is cut short, never inside a character
  std::string key = "a";
  for (int i = 0; i < 30; ++i) key += "\u00e9";  // two bytes each in UTF-8
  tbtest::write_file(obs, R"({"side": 3, "start": [0, 0], ")" + key + R"(": 1})");
  const std::string err = tbtest::run_expecting({"forest", "posterior", obs}, 1).err;
  CHECK_THAT(err, Contains("observations: unknown field \"a\u00e9") && Contains("...") && Contains("(the fields are"));
  CHECK_NOTHROW(nlohmann::json(err).dump());  // valid UTF-8
}
