#include "solver/games/forest/module.hpp"

#include <algorithm>
#include <limits>
#include <mutex>
#include <optional>

#include "solver/core/ledger.hpp"
#include "solver/games/forest/agents.hpp"
#include "solver/games/forest/forest.hpp"
#include "solver/games/forest/optimal.hpp"
#include "solver/core/printable.hpp"
#include "solver/games/forest/policy_table.hpp"

namespace toadbase::forest {

namespace {

constexpr const char* kRecord = "forest-belief-u64-decision-u8-value-f64-planes";

/// The optimal 3x3 policy: every belief state the expectimax meets, one tier per start tile.
class PolicyInstance : public Instance {
 public:
  static constexpr int kTiles = kPolicySide * kPolicySide;

  Identity identity() const override {
    return {Module::kName, {{"side", kPolicySide}}, kRecord, sizeof(PolicyRecord)};
  }

  /// Named and sized without a search (policy_table.hpp): opening a database to query it
  /// asks for the tiers, and the search takes seconds.
  std::vector<TierInfo> tiers() const override {
    std::vector<TierInfo> out;
    for (int s = 0; s < kTiles; ++s) out.push_back({policy_tier_name(s), policy_tier_beliefs(s)});
    return out;
  }

  /// The expectimax's beliefs of a start tile, taken from the search once per instance.
  const std::vector<PolicyEntry>& policy(int start) const {
    std::lock_guard lock(mu_);
    auto& p = policy_[start];
    if (!p) p = optimal_policy(start);
    return *p;
  }

  std::vector<PolicyRecord> records(int start) const {
    std::vector<PolicyRecord> out;
    for (const auto& e : policy(start)) out.push_back(encode_policy(e));
    return out;
  }

  SolveStats solve(TierStore& store, Progress* progress) const override {
    SolveStats st;
    SolveLedger ledger(st, progress);
    ledger.in_order(
        kTiles, [&](uint64_t s) { return store.has_tier(static_cast<TierId>(s)); },
        [&](uint64_t s) {  // a later start reads nothing of it
          ledger.skipped(policy_tier_name(static_cast<int>(s)), policy_tier_beliefs(static_cast<int>(s)));
        },
        [&](uint64_t i) {
          const int s = static_cast<int>(i);
          const auto recs = records(s);
          if (recs.size() != policy_tier_beliefs(s))
            throw std::logic_error("tier " + policy_tier_name(s) + ": the search met " + std::to_string(recs.size()) +
                                   " beliefs, not the " + std::to_string(policy_tier_beliefs(s)) + " its tier declares");
          store.commit(static_cast<TierId>(s), recs);
          ledger.solved(policy_tier_name(s), recs.size());
        });
    return st;
  }

  nlohmann::ordered_json query(const TierSource& source, const std::string& text,
                               const std::string& turn) const override {
    if (!turn.empty()) throw BadTurn("forest positions have no player to move to give");
    uint64_t key = 0;
    try {
      key = parse_belief(text);
    } catch (const std::invalid_argument& e) {
      throw BadPosition(printable("position '" + text + "': " + e.what()));
    }
    const auto e = find_policy(source, key);
    if (!e) throw BadPosition("position '" + printable(text) + "': the optimal wanderer never holds this belief (none stored)");
    nlohmann::ordered_json j;
    j["position"] = nlohmann::ordered_json::parse(format_belief(key));
    j["value"] = e->value;
    if (e->target < 0) {
      j["decision"] = nullptr;
    } else {
      j["decision"] = {{"target", {e->target / kPolicySide, e->target % kPolicySide}}, {"stone", e->stone}};
    }
    return j;
  }

  VerifyReport verify(const TierSource& source, Progress* progress) const override {
    VerifyReport rep;
    for (int s = 0; s < kTiles; ++s) {
      const TierId t = static_cast<TierId>(s);
      std::vector<PolicyRecord> stored;
      try {
        if (!source.has_tier(t)) throw std::runtime_error("is not committed");
        stored = source.load<PolicyRecord>(t);
      } catch (const std::exception& ex) {
        rep.ok = false;
        rep.problem = std::string(ex.what()) + " (tier " + policy_tier_name(s) + ")";
        return rep;
      }
      const auto mine = records(s);
      const bool same = stored.size() == mine.size() &&
                        std::equal(stored.begin(), stored.end(), mine.begin(), [](const auto& a, const auto& b) {
                          return std::memcmp(a.bytes, b.bytes, sizeof a.bytes) == 0;
                        });
      if (!same) {
        rep.ok = false;
        rep.problem = "tier " + policy_tier_name(s) + ": the stored policy differs from the expectimax (" +
                      std::to_string(stored.size()) + " stored beliefs, " + std::to_string(mine.size()) +
                      " recomputed)";
        return rep;
      }
      // the path users take: a sample of beliefs looked up as a query does
      const auto& entries = policy(s);
      for (uint64_t k = 0; k < kProbesPerTier && !entries.empty(); ++k) {
        const PolicyEntry& want = entries[(entries.size() * k) / kProbesPerTier];
        const nlohmann::ordered_json q = query(source, format_belief(want.belief), "");
        if (q["value"].get<double>() != want.value || q["decision"].is_null() != (want.target < 0)) {
          rep.ok = false;
          rep.problem = "tier " + policy_tier_name(s) + ": belief " + format_belief(want.belief) +
                        " looks up another decision than the expectimax's";
          return rep;
        }
        ++rep.positions_probed;
      }
      rep.positions_checked += mine.size();
      if (progress) progress->tier_done(policy_tier_name(s), mine.size(), false);
    }
    return rep;
  }

  nlohmann::json analyze(const TierSource& source) const override {
    nlohmann::json tiers = nlohmann::json::array();
    uint64_t total = 0, stones = 0, none = 0;
    double expected = 0, mass = 0;
    std::vector<double> start_p(kTiles, 0.0);
    each_forest(kPolicySide, [&](const Forest& f, double w) { start_p[f.start] += w; });
    for (int s = 0; s < kTiles; ++s) {
      const TierId t = static_cast<TierId>(s);
      const std::vector<PolicyRecord> recs = source.load<PolicyRecord>(t);
      uint64_t st = 0, no = 0;
      for (const auto& r : recs) {
        const PolicyEntry e = decode_policy(r);
        st += e.stone;
        no += e.target < 0;
      }
      Observations o;
      o.side = kPolicySide;
      o.start = s;
      const auto first = find_policy(source, belief_key(o, s));
      const double v = first ? first->value : 0;
      tiers.push_back({{"tier", policy_tier_name(s)}, {"beliefs", recs.size()}, {"stoneDecisions", st}, {"startValue", v}});
      expected += start_p[s] * v;
      mass += start_p[s];
      total += recs.size(), stones += st, none += no;
    }
    nlohmann::json out = {{"game", Module::kName},    {"parameters", {{"side", kPolicySide}}},
                          {"beliefs", total},         {"positions", total},
                          {"stoneDecisions", stones}, {"nothingLeft", none},
                          {"tiers", tiers},           {"expectedScore", expected / mass}};
    nlohmann::json report = nlohmann::json::array();
    report.push_back("the optimal 3x3 wanderer: " + std::to_string(total) + " belief states, " +
                     std::to_string(stones) + " of them decide on a stone");
    report.push_back("maximum expected score of a 3x3 forest (every forest, the stuck ones too): " +
                     std::to_string(expected / mass));
    out["report"] = report;
    return out;
  }

 private:
  mutable std::mutex mu_;
  mutable std::vector<std::optional<std::vector<PolicyEntry>>> policy_ =
      std::vector<std::optional<std::vector<PolicyEntry>>>(kTiles);
};

}  // namespace

std::vector<ParamSpec> Module::parameters() {
  return {{"side", ParamSpec::Kind::Int, "the forest's side: 3 (the optimal policy of every belief state)", "3"}};
}

nlohmann::json Module::normalize(const nlohmann::json& given) {
  const int side = given.value("side", kPolicySide);
  if (side != kPolicySide)
    throw std::invalid_argument("--side: the optimal policy is solved for 3x3 forests only, not " + std::to_string(side));
  return {{"side", side}};
}

std::unique_ptr<Instance> Module::make_instance(const nlohmann::json&) { return std::make_unique<PolicyInstance>(); }

std::vector<ApiRoute> Module::api_routes() {
  ApiRoute play{"play", false, [](const ApiRequest& req) {
    const int side = static_cast<int>(req.integer("side", 3, 2, static_cast<long long>(req.limit("side", 8))));
    const auto seed = static_cast<uint64_t>(req.integer("seed", 1, 0, std::numeric_limits<long long>::max()));
    const std::string name = req.has("agent") ? req.param("agent") : "original";
    const Forest f = generate(side, seed, 0);
    std::unique_ptr<Agent> agent;
    if (name == "optimal") {
      // the stored policy decides: the search itself takes seconds, too long for a request
      const std::string id = req.param("db");
      const TierSource* source = id.empty() ? nullptr : req.database(id, kName);
      if (!source)
        return ApiAnswer::error(400, "the optimal agent reads its moves from a served forest database: add &db=<its id>");
      if (side != kPolicySide)
        return ApiAnswer::error(400, "the stored policy is for 3x3 forests, not side " + std::to_string(side));
      agent = make_optimal_agent([source](uint64_t key) { return find_policy(*source, key); });
    } else {
      const auto& names = agent_names();
      if (std::find(names.begin(), names.end(), name) == names.end())
        return ApiAnswer::error(400, "agent must be original, bayes, optimal or oracle, not '" + printable(name) + "'");
      agent = make_agent(name);
    }
    return ApiAnswer{200, play_json(f, *agent, seed, side <= kPosteriorSide)};
  }};
  return {play};
}

PageView Module::page() {
  static const std::string about =
      "The wanderer learns the forest tile by tile: bones lie next to a monster, leaves next to "
      "a trap. A step costs 1, a stone 10, a death 10 per tile, and the portal pays 10 per tile.";
  PageView v;
  v.title = "Magic Forest";
  v.kind = "wanderer";
  v.describe = [](const nlohmann::json& p) {
    return "Magic Forest policy, side " + std::to_string(p.value("side", 0));
  };
  v.about = [](const nlohmann::json&) { return about; };
  v.route = "play";
  PageTool walk;
  walk.id = kName;
  walk.kind = "wanderer";
  walk.card = "watch a wanderer cross a misty forest";
  walk.picker = "watch the wanderer";
  walk.about = about;
  walk.route = "play";
  walk.params = {{"side", 4}, {"seed", 7}, {"agent", "bayes"}};
  v.tools = {walk};
  return v;
}

}  // namespace toadbase::forest
