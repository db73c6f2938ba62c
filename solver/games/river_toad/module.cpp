#include "solver/games/river_toad/module.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <sstream>

#include "solver/games/river_toad/positions.hpp"
#include "solver/games/river_toad/river_toad.hpp"
#include "solver/games/river_toad/survival.hpp"

namespace toadbase::river_toad {

namespace {

/// Every position's exact survival odds: solve, verify, query, analyze.
class SurvivalInstance : public Instance {
 public:
  explicit SurvivalInstance(nlohmann::json params) : params_(std::move(params)), space_(make(params_)) {}

  static SurvivalSpace make(const nlohmann::json& p) {
    Rules rules;
    rules.fly_hp = p.at("fly_hp").get<int>();
    std::vector<uint64_t> w;
    if (p.at("weights").is_array()) w = p.at("weights").get<std::vector<uint64_t>>();
    return SurvivalSpace(p.at("turns").get<int>(), w, rules);
  }

  Identity identity() const override {
    return {Module::kName, params_, Module::kRecord, sizeof(SurvivalRecord)};
  }

  std::vector<TierInfo> tiers() const override {
    std::vector<TierInfo> out;
    for (int t = 1; t <= space_.turns(); ++t) out.push_back({"t" + std::to_string(t), space_.tier_positions(t)});
    return out;
  }

  SolveStats solve(TierStore& store, Progress* progress) const override { return space_.solve(store, progress); }

  SurvivalPosition parse(const std::string& text, const std::string& turn) const {
    if (!turn.empty()) throw BadTurn("river-toad positions have no player to move to give");
    try {
      return parse_position(text, space_.turns(), space_.rules());
    } catch (const std::invalid_argument& e) {
      throw BadPosition(e.what());
    }
  }

  SurvivalRecord record(const TierSource& source, int t, const SurvivalPosition& p) const {
    return source.record<SurvivalRecord>(static_cast<TierId>(t - 1),
                                         SurvivalSpace::index(t, p.r[0], p.r[1], p.r[2], p.r[3], p.column, p.hp));
  }

  /// The count of one action: the weighted sum over the next roll of the counts of where the
  /// action leaves him (tier t - 1).
  uint64_t action_count(const TierSource& source, const SurvivalPosition& p, int a) const {
    const auto to = space_.after_action(p.t, p.r[3], p.column, p.hp, a);
    if (!to) return 0;
    if (p.t == 1) return space_.weight_sum();
    uint64_t sum = 0;
    for (int r0 = 0; r0 < kRolls; ++r0) {
      if (!space_.weights()[r0]) continue;
      const SurvivalPosition next{p.t - 1, to->hp, to->column, {r0, p.r[0], p.r[1], p.r[2]}};
      sum += space_.weights()[r0] * (record(source, p.t - 1, next) & kCountMask);
    }
    return sum;
  }

  nlohmann::ordered_json query(const TierSource& source, const std::string& text,
                               const std::string& turn) const override {
    const SurvivalPosition p = parse(text, turn);
    const SurvivalRecord rec = record(source, p.t, p);
    const uint64_t count = rec & kCountMask, den = space_.denominator(p.t);
    const int best = static_cast<int>(rec >> 61);
    struct Row {
      int a;
      uint64_t c;
    };
    std::vector<Row> rows;
    for (int a = 0; a < kActions; ++a)
      if (legal(p.column, a)) rows.push_back({a, action_count(source, p, a)});
    std::stable_sort(rows.begin(), rows.end(), [&](const Row& x, const Row& y) {
      if (x.c != y.c) return x.c > y.c;
      return (x.a == best) > (y.a == best);
    });
    nlohmann::ordered_json moves = nlohmann::ordered_json::array();
    for (const Row& r : rows)
      moves.push_back({{"move", std::string(1, kLetters[r.a])},
                       {"survival", static_cast<double>(r.c) / static_cast<double>(den)},
                       {"count", std::to_string(r.c)}});
    nlohmann::ordered_json j;
    j["position"] = format_position(p);
    j["turnsLeft"] = p.t;
    j["hp"] = p.hp;
    j["column"] = p.column;
    j["board"] = board_of(p);
    j["survival"] = static_cast<double>(count) / static_cast<double>(den);
    j["count"] = std::to_string(count);
    j["denominator"] = std::to_string(den);
    j["bestAction"] = std::string(1, kLetters[best]);
    j["moves"] = std::move(moves);
    return j;
  }

  std::string start_position() const override {
    SurvivalPosition p;
    p.t = space_.turns();
    p.hp = std::min(Rules{}.start_hp, SurvivalSpace::hp_cap(p.t));
    p.column = Rules{}.start_column;
    return format_position(p);
  }

  std::string position_at(TierId tier, uint64_t index) const override {
    SurvivalPosition p;
    p.t = static_cast<int>(tier) + 1;
    const int cap = SurvivalSpace::hp_cap(p.t);
    p.hp = static_cast<int>(index % cap) + 1;
    index /= cap;
    p.column = static_cast<int>(index % 5) + 1;
    index /= 5;
    for (int i = 3; i >= 0; --i) p.r[i] = static_cast<int>(index % kRolls), index /= kRolls;
    return format_position(p);
  }

  /// Recomputes every tier from the stored tier below it and compares record by record.
  VerifyReport verify(const TierSource& source, Progress* progress) const override {
    VerifyReport rep;
    std::vector<uint64_t> e = space_.first_expectation();
    std::vector<SurvivalRecord> mine, stored;
    for (int t = 1; t <= space_.turns(); ++t) {
      const TierId id = static_cast<TierId>(t - 1);
      const uint64_t n = space_.tier_positions(t);
      try {
        std::vector<SurvivalRecord>().swap(stored);
        if (!source.has_tier(id)) throw std::runtime_error("is not committed");
        stored = source.load<SurvivalRecord>(id);
      } catch (const std::exception& ex) {
        rep.ok = false;
        rep.problem = std::string(ex.what()) + " (tier t" + std::to_string(t) + ")";
        return rep;
      }
      if (stored.size() != n) {
        rep.ok = false;
        rep.problem = "tier t" + std::to_string(t) + " holds " + std::to_string(stored.size()) + " records, the space " +
                      std::to_string(n);
        return rep;
      }
      space_.solve_tier(t, e, mine);
      if (stored != mine) {
        uint64_t i = 0;
        while (stored[i] == mine[i]) ++i;
        rep.ok = false;
        rep.problem = "tier t" + std::to_string(t) + " index " + std::to_string(i) + " (" + position_at(id, i) +
                      "): stored " + std::to_string(stored[i] & kCountMask) + " (action " +
                      std::to_string(stored[i] >> 61) + "), recomputed " + std::to_string(mine[i] & kCountMask) +
                      " (action " + std::to_string(mine[i] >> 61) + ")";
        return rep;
      }
      // the path users take: a sample of the tier's positions queried as the command does
      for (uint64_t k = 0; k < kProbesPerTier; ++k) {
        const uint64_t i = (n * k) / kProbesPerTier;
        const nlohmann::ordered_json q = query(source, position_at(id, i), "");
        if (q["count"] != std::to_string(mine[i] & kCountMask) ||
            q["bestAction"] != std::string(1, kLetters[mine[i] >> 61])) {
          rep.ok = false;
          rep.problem = "tier t" + std::to_string(t) + " index " + std::to_string(i) + " (" + position_at(id, i) +
                        "): queried as " + q["count"].get<std::string>() + ", recomputed " +
                        std::to_string(mine[i] & kCountMask);
          return rep;
        }
        ++rep.positions_probed;
      }
      rep.positions_checked += n;
      std::vector<SurvivalRecord>().swap(mine);
      if (t < space_.turns()) e = space_.expectation(t, stored);
      if (progress) progress->tier_done("t" + std::to_string(t), n, false);
    }
    return rep;
  }

  nlohmann::json analyze(const TierSource& source) const override {
    nlohmann::json tiers = nlohmann::json::array(), odds = nlohmann::json::array();
    uint64_t total = 0;
    for (int t = 1; t <= space_.turns(); ++t) {
      const std::vector<SurvivalRecord> recs = source.load<SurvivalRecord>(static_cast<TierId>(t - 1));
      const uint64_t n = space_.tier_positions(t), den = space_.denominator(t);
      uint64_t dead = 0, sure = 0;
      double sum = 0;
      for (uint64_t i = 0; i < n; ++i) {
        const uint64_t c = recs[i] & kCountMask;
        dead += c == 0;
        sure += c == den;
        sum += static_cast<double>(c) / static_cast<double>(den);
      }
      total += n;
      tiers.push_back({{"tier", "t" + std::to_string(t)},
                       {"positions", n},
                       {"lost", dead},
                       {"certain", sure},
                       {"meanSurvival", n ? sum / static_cast<double>(n) : 0.0}});
      const SurvivalPosition start{t, std::min(20, SurvivalSpace::hp_cap(t)), 3, {0, 0, 0, 0}};
      const uint64_t c = recs[SurvivalSpace::index(t, 0, 0, 0, 0, 3, start.hp)] & kCountMask;
      odds.push_back({{"turns", t},
                      {"position", format_position(start)},
                      {"probability", static_cast<double>(c) / static_cast<double>(den)},
                      {"exact", std::to_string(c) + "/" + std::to_string(den)}});
    }
    nlohmann::json out = {{"game", Module::kName}, {"parameters", params_}, {"positions", total},
                          {"tiers", tiers},        {"survivalFromEmptyBoard", odds}};
    nlohmann::json report = nlohmann::json::array();
    report.push_back("survival under optimal play from the empty board, column 3, 20 HP:");
    for (const auto& o : odds)
      report.push_back("  " + std::to_string(o["turns"].get<int>()) + " turns: " +
                       std::to_string(o["probability"].get<double>()) + " (" + o["exact"].get<std::string>() + ")");
    out["report"] = report;
    return out;
  }

 private:
  nlohmann::json params_;
  SurvivalSpace space_;
};

}  // namespace

std::vector<ParamSpec> Module::parameters() {
  return {{"turns", ParamSpec::Kind::Int, "every position with 1..T turns left (at most 11 with uniform rolls)", "4", 1},
          {"fly-hp", ParamSpec::Kind::Int, "HP a fly gives", "5", 0, 1000},
          {"weights", ParamSpec::Kind::String, "the rolls' weights: 34 non-negative integers, comma-separated",
           "uniform"}};
}

nlohmann::json Module::normalize(const nlohmann::json& given) {
  nlohmann::json out = {{"turns", given.value("turns", 4)}, {"fly_hp", given.value("fly-hp", 5)}, {"weights", "uniform"}};
  if (given.contains("weights")) {
    std::vector<uint64_t> w;
    std::stringstream ss(given["weights"].get<std::string>());
    for (std::string x; std::getline(ss, x, ',');) {
      if (x.empty() || x.size() > 8 || x.find_first_not_of("0123456789") != std::string::npos)
        throw std::invalid_argument("--weights: '" + x + "' is not a non-negative integer");
      w.push_back(std::stoull(x));
    }
    if (w.empty()) throw std::invalid_argument("--weights: give 34 weights, one per roll 0..33");
    const bool uniform =
        w.size() == 34 && std::all_of(w.begin(), w.end(), [&](uint64_t x) { return x == w[0]; }) && w[0] == 1;
    if (!uniform) out["weights"] = w;
  }
  if (out["fly_hp"].get<int>() < 0 || out["fly_hp"].get<int>() > 1000)
    throw std::invalid_argument("--fly-hp must be 0..1000");
  SurvivalInstance::make(out);  // validates
  return out;
}

std::unique_ptr<Instance> Module::make_instance(const nlohmann::json& normalized) {
  return std::make_unique<SurvivalInstance>(normalized);
}


std::vector<ApiRoute> Module::api_routes() {
  ApiRoute solve{"solve", true, [](const ApiRequest& req) {
    if (!req.posted() && !req.has("rolls"))
      return ApiAnswer::error(400, "give the roll file: POST it as the body, or GET /api/river-toad/solve?rolls=...");
    const std::string& rolls = req.posted() ? req.body() : req.param("rolls");
    const uint64_t max_rolls = req.limit("rolls", 100000);
    const std::string too_many = "more than " + std::to_string(max_rolls) + " rolls in one request";
    Rules rules;
    rules.start_hp = static_cast<int>(req.integer("hp", rules.start_hp, 1, 1000000));
    rules.start_column = static_cast<int>(req.integer("column", rules.start_column, 1, 5));
    rules.fly_hp = static_cast<int>(req.integer("fly_hp", rules.fly_hp, 0, 1000));
    uint64_t lines = 0;
    for (char c : rolls) lines += c == '\n';
    if (lines > max_rolls + 100) return ApiAnswer::error(413, too_many);  // room for comments
    nlohmann::ordered_json j = solve_json(rolls, rules);
    if (j["rolls"].get<uint64_t>() > max_rolls) return ApiAnswer::error(413, too_many);
    return ApiAnswer{200, std::move(j)};
  }};
  return {solve};
}

PageView Module::page() {
  PageView v;
  v.title = "River Toad";
  v.kind = "river";
  v.describe = [](const nlohmann::json& p) {
    return "River Toad positions, " + std::to_string(p.value("turns", 0)) + " turns";
  };
  v.about = [](const nlohmann::json&) {
    return std::string(
        "A position: turns left, HP, column, and the river above. Each action\u2019s chance of "
        "surviving every remaining turn, over every roll, with the best play after it.");
  };
  // the river's cells as a query's `board` and solve's turns draw them
  v.pieces = {{'#', "bank", "", "bank"},
              {'S', "snake", "S", "snake"},
              {'F', "fly", "F", "fly"},
              {'T', "toad", "T", "toad"},
              {'X', "the toad, dead", "X", "dead"}};
  PageTool rolls;
  rolls.id = "rolls";
  rolls.kind = "river";
  rolls.card = "solve a roll file and replay it";
  rolls.picker = "replay a roll file";
  rolls.about =
      "The toad crosses a river of snakes (S) and flies (F) that the rolls bring down; each turn "
      "it moves with A S D F G. Give a roll file (the count, then one roll 0..33 a line): the "
      "server finds the plan that ends with the most HP, and you replay it turn by turn.";
  rolls.route = "solve";
  v.tools = {rolls};
  return v;
}

}  // namespace toadbase::river_toad
