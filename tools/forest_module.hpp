// The Magic Forest Wanderer's database: the optimal 3x3 policy, every belief state the
// expectimax meets (solver/games/forest/optimal.hpp), and `forest play --db` that follows it.
//
// Tiers: one per start tile ("start-r-c"), its belief states sorted by key. A record is 17
// bytes, stored as byte planes (plane b holds byte b of every record of the tier):
//
//     bytes 0-7    the belief key (u64le)
//     byte  8      the decision: target tile | 16 if a stone first; 255: nothing left to try
//     bytes 9-16   the maximum expected score from here (IEEE double, little-endian)
//
// A position is a belief written as the `forest posterior` JSON plus where he stands:
// {"side": 3, "start": [r, c], "at": [r, c], "visited": [...], "deaths": [...], "stones": [...]}.
#pragma once

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

#include "solver/games/forest/agents.hpp"
#include "solver/games/forest/game.hpp"
#include "solver/games/forest/optimal.hpp"
#include "solver/games/forest/posterior.hpp"
#include "tools/module.hpp"

namespace toadbase::tools {

class ForestInstance : public Instance {
 public:
  static constexpr int kSide = 3, kBytes = 17;
  static constexpr uint8_t kNone = 255;

  db::Identity identity() const override {
    return {forest::Game::kName, {{"side", kSide}}, "forest-belief-u64-decision-u8-value-f64-planes", kBytes};
  }

  std::vector<db::TierInfo> tiers() const override {
    std::vector<db::TierInfo> out;
    for (int s = 0; s < kSide * kSide; ++s) out.push_back({tier_name(s), policy(s).size() * kBytes});
    return out;
  }

  /// The expectimax's beliefs of a start tile, taken from the search once per instance.
  const std::vector<forest::PolicyEntry>& policy(int start) const {
    if (policy_.empty()) policy_.resize(kSide * kSide);
    auto& p = policy_[start];
    if (!p) p = forest::optimal_policy(start);
    return *p;
  }

  static std::string tier_name(int s) { return "start-" + std::to_string(s / kSide) + "-" + std::to_string(s % kSide); }

  /// The records of one start tile, as byte planes.
  std::vector<Record> records(int start) const {
    const auto& entries = policy(start);
    const size_t n = entries.size();
    std::vector<Record> out(n * kBytes);
    for (size_t i = 0; i < n; ++i) {
      const auto& e = entries[i];
      uint8_t bytes[kBytes];
      for (int b = 0; b < 8; ++b) bytes[b] = static_cast<uint8_t>(e.belief >> (8 * b));
      bytes[8] = e.target < 0 ? kNone : static_cast<uint8_t>(e.target | (e.stone ? 16 : 0));
      uint64_t v;
      std::memcpy(&v, &e.value, 8);
      for (int b = 0; b < 8; ++b) bytes[9 + b] = static_cast<uint8_t>(v >> (8 * b));
      for (int b = 0; b < kBytes; ++b) out[b * n + i] = bytes[b];
    }
    return out;
  }

  SolveStats solve(TierStore& store, Progress* progress) const override {
    SolveStats st;
    for (int s = 0; s < kSide * kSide; ++s) {
      const TierId t = static_cast<TierId>(s);
      if (store.has_tier(t)) {
        ++st.tiers_skipped;
        continue;
      }
      const auto recs = records(s);
      store.commit_tier(t, recs, kAllRecords);
      ++st.tiers_solved;
      st.positions_solved += recs.size() / kBytes;
      if (progress) progress->tier_done(tier_name(s), recs.size() / kBytes, false);
    }
    return st;
  }

  static uint64_t positions(const db::Database& db, TierId t) { return db.tier_meta(t).positions / kBytes; }

  static forest::PolicyEntry entry_at(const db::Database& db, TierId t, uint64_t i) {
    const uint64_t n = positions(db, t);
    uint8_t bytes[kBytes];
    for (int b = 0; b < kBytes; ++b) bytes[b] = db.read_record(t, b * n + i);
    forest::PolicyEntry e;
    for (int b = 0; b < 8; ++b) e.belief |= uint64_t{bytes[b]} << (8 * b);
    e.target = bytes[8] == kNone ? -1 : bytes[8] & 15;
    e.stone = bytes[8] != kNone && (bytes[8] & 16);
    uint64_t v = 0;
    for (int b = 0; b < 8; ++b) v |= uint64_t{bytes[9 + b]} << (8 * b);
    std::memcpy(&e.value, &v, 8);
    return e;
  }

  /// The stored decision of a belief key (binary search over its start tile's tier).
  static std::optional<forest::PolicyEntry> find(const db::Database& db, uint64_t key) {
    const TierId t = static_cast<TierId>(key >> 54 & 15);
    if (t >= db.tier_count()) return std::nullopt;
    uint64_t lo = 0, hi = positions(db, t);
    while (lo < hi) {
      const uint64_t mid = lo + (hi - lo) / 2;
      uint64_t k = 0;
      const uint64_t n = positions(db, t);
      for (int b = 0; b < 8; ++b) k |= uint64_t{db.read_record(t, b * n + mid)} << (8 * b);
      if (k < key) lo = mid + 1;
      else hi = mid;
    }
    if (lo == positions(db, t)) return std::nullopt;
    auto e = entry_at(db, t, lo);
    if (e.belief != key) return std::nullopt;
    return e;
  }

  static uint64_t parse(const std::string& text) {
    try {
      const forest::Observations o = forest::read_observations(text);
      const auto j = nlohmann::json::parse(text);
      if (!j.contains("at")) throw std::invalid_argument("give \"at\": [row, column], where he stands");
      const auto& at = j["at"];
      if (!at.is_array() || at.size() != 2 || !at[0].is_number_integer() || !at[1].is_number_integer())
        throw std::invalid_argument("\"at\" is [row, column]");
      const int r = at[0].get<int>(), c = at[1].get<int>();
      if (r < 0 || c < 0 || r >= o.side || c >= o.side) throw std::invalid_argument("\"at\" is outside the forest");
      return forest::belief_key(o, r * o.side + c);
    } catch (const std::invalid_argument& e) {
      throw BadPosition("position '" + text + "': " + e.what());
    }
  }

  static std::string canonical(uint64_t key) {
    int at = 0;
    const forest::Observations o = forest::belief_observations(key, &at);
    auto rc = [](int t) { return nlohmann::ordered_json::array({t / kSide, t % kSide}); };
    nlohmann::ordered_json j = {{"side", kSide}, {"start", rc(o.start)}, {"at", rc(at)}};
    j["visited"] = nlohmann::ordered_json::array();
    for (const auto& v : o.visited) j["visited"].push_back({{"tile", rc(v.tile)}, {"bones", v.bones}, {"leaves", v.leaves}});
    j["deaths"] = nlohmann::ordered_json::array();
    for (auto [t, h] : o.deaths) j["deaths"].push_back({{"tile", rc(t)}, {"hazard", h == forest::kTrap ? "trap" : "monster"}});
    j["stones"] = nlohmann::ordered_json::array();
    for (int t : o.stones) j["stones"].push_back(rc(t));
    return j.dump();
  }

  nlohmann::ordered_json query(const db::Database& db, const std::string& text, const std::string& turn) const override {
    if (!turn.empty()) throw BadPosition("forest positions have no turn to give");
    const uint64_t key = parse(text);
    const auto e = find(db, key);
    if (!e) throw BadPosition("position '" + text + "': the optimal wanderer never holds this belief (none stored)");
    nlohmann::ordered_json j;
    j["position"] = nlohmann::ordered_json::parse(canonical(key));
    j["value"] = e->value;
    if (e->target < 0) {
      j["decision"] = nullptr;
    } else {
      j["decision"] = {{"target", {e->target / kSide, e->target % kSide}}, {"stone", e->stone}};
    }
    return j;
  }

  std::pair<std::string, Outcome> lookup(const db::Database&, const std::string& text, const std::string&) const override {
    throw BadPosition("position '" + text + "': forest values are expected scores; use query");
  }

  std::vector<Record> tier_records(const db::Database& db, TierId t) const override { return db.read_tier(t); }

  std::string position_at(TierId, uint64_t) const override {
    throw std::invalid_argument("forest positions are looked up by belief; use query");
  }

  VerifyReport verify(const db::Database& db, Progress* progress) const override {
    VerifyReport rep;
    for (int s = 0; s < kSide * kSide; ++s) {
      const TierId t = static_cast<TierId>(s);
      std::vector<Record> stored;
      try {
        stored = db.read_tier(t);
      } catch (const std::exception& ex) {
        rep.ok = false;
        rep.problem = std::string(ex.what()) + " (tier " + tier_name(s) + ")";
        return rep;
      }
      const auto mine = records(s);
      if (stored != mine) {
        rep.ok = false;
        rep.problem = "tier " + tier_name(s) + ": the stored policy differs from the expectimax (" +
                      std::to_string(stored.size() / kBytes) + " stored beliefs, " + std::to_string(mine.size() / kBytes) +
                      " recomputed)";
        return rep;
      }
      rep.positions_checked += mine.size() / kBytes;
      if (progress) progress->tier_done(tier_name(s), mine.size() / kBytes, false);
    }
    return rep;
  }

  nlohmann::json analyze(const db::Database& db) const override {
    nlohmann::json tiers = nlohmann::json::array();
    uint64_t total = 0, stones = 0, none = 0;
    double expected = 0, mass = 0;
    const std::vector<double> start_p = start_probabilities();
    for (int s = 0; s < kSide * kSide; ++s) {
      const TierId t = static_cast<TierId>(s);
      const uint64_t n = positions(db, t);
      uint64_t st = 0, no = 0;
      for (uint64_t i = 0; i < n; ++i) {
        const auto e = entry_at(db, t, i);
        st += e.stone;
        no += e.target < 0;
      }
      forest::Observations o;
      o.side = kSide;
      o.start = s;
      const auto first = find(db, forest::belief_key(o, s));
      const double v = first ? first->value : 0;
      tiers.push_back({{"tier", tier_name(s)}, {"beliefs", n}, {"stone_decisions", st}, {"start_value", v}});
      expected += start_p[s] * v;
      mass += start_p[s];
      total += n, stones += st, none += no;
    }
    nlohmann::json out = {{"game", forest::Game::kName}, {"parameters", {{"side", kSide}}}, {"beliefs", total},
                          {"stone_decisions", stones}, {"nothing_left", none}, {"tiers", tiers},
                          {"expected_score", expected / mass}};
    nlohmann::json report = nlohmann::json::array();
    report.push_back("the optimal 3x3 wanderer: " + std::to_string(total) + " belief states, " + std::to_string(stones) +
                     " of them decide on a stone");
    report.push_back("maximum expected score of a 3x3 forest (every forest, the stuck ones too): " + std::to_string(expected / mass));
    out["report"] = report;
    return out;
  }

  /// P(start tile) under the generator (with the redraw).
  static std::vector<double> start_probabilities() {
    std::vector<double> p(kSide * kSide, 0.0);
    forest::each_forest(kSide, [&](const forest::Forest& f, double w) { p[f.start] += w; });
    return p;
  }

 private:
  mutable std::vector<std::optional<std::vector<forest::PolicyEntry>>> policy_;
};

class ForestModule : public GameModule {
 public:
  std::string name() const override { return forest::Game::kName; }
  std::string title() const override { return forest::Game::kTitle; }
  std::vector<ParamSpec> parameters() const override {
    return {{"side", ParamSpec::Kind::Int, "the forest's side: 3 (the optimal policy of every belief state)"}};
  }
  nlohmann::json normalize(const nlohmann::json& given) const override {
    const int side = given.value("side", 3);
    if (side != 3) throw std::invalid_argument("--side: the optimal policy is solved for 3x3 forests only, not " + std::to_string(side));
    return {{"side", side}};
  }
  std::unique_ptr<Instance> instance(const nlohmann::json&) const override { return std::make_unique<ForestInstance>(); }
  std::vector<GameCommand> add_commands(CLI::App& root) const override {
    auto cmds = forest::Game::add_commands(root);
    // `forest play --agent optimal --db DB`: the stored policy decides every step
    for (auto& [app, action] : cmds) {
      if (app->get_name() != "play") continue;
      auto path = std::make_shared<std::string>();
      app->add_option("--db", *path, "a forest database (solve forest --side 3): the optimal agent looks its moves up there");
      auto inner = action;
      CLI::App* a = app;
      action = [a, path, inner] { return path->empty() ? inner() : play_stored(*a, *path); };
    }
    return cmds;
  }

  static int play_stored(CLI::App& app, const std::string& path) {
    auto d = db::Database::open_read_only(path);
    const db::Identity id = d->identity();
    if (id.game != forest::Game::kName) throw BadPosition(path + " holds " + id.game + ", not forest");
    if (id.record != ForestInstance().identity().record)
      throw BadPosition(path + " stores records '" + id.record + "', not this toadbase's forest policy");
    if (!d->complete()) throw BadPosition(path + " is incomplete; run its solve again to resume");
    const std::string agent = app.count("--agent") ? app.get_option("--agent")->as<std::string>() : "original";
    if (agent != "optimal") throw BadPosition("--db is for --agent optimal (the stored policy), not " + agent);
    const int side = app.count("--side") ? app.get_option("--side")->as<int>() : 3;
    if (side != ForestInstance::kSide) throw BadPosition("the stored policy is for 3x3 forests, not side " + std::to_string(side));
    const uint64_t seed = app.count("--seed") ? app.get_option("--seed")->as<uint64_t>() : 1;
    db::Database& db = *d;
    auto player = forest::make_optimal_agent([&db](uint64_t key) { return ForestInstance::find(db, key); });
    return forest::print_play(forest::generate(side, seed, 0), *player, seed);
  }
};

}  // namespace toadbase::tools
