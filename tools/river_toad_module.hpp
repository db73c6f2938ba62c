// River Toad's position database for the command line: `solve river-toad --turns T`, query,
// info, analyze, verify. A chance game: its records are exact survival counts (see
// solver/games/river_toad/survival.hpp), stored as byte planes through the same tier store.
#pragma once

#include <CLI/CLI.hpp>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <sstream>

#include "solver/core/hash.hpp"
#include "solver/games/river_toad/game.hpp"
#include "solver/games/river_toad/survival.hpp"
#include "tools/module.hpp"

namespace toadbase::tools {

class RiverToadModule;

class RiverToadInstance : public Instance {
  friend class RiverToadModule;

 public:
  using Space = river_toad::SurvivalSpace;

  explicit RiverToadInstance(nlohmann::json params) : params_(std::move(params)), space_(make(params_)) {}

  static Space make(const nlohmann::json& p) {
    river_toad::Rules rules;
    rules.fly_hp = p.at("fly_hp").get<int>();
    std::vector<uint64_t> w;
    if (p.at("weights").is_array()) w = p.at("weights").get<std::vector<uint64_t>>();
    return Space(p.at("turns").get<int>(), w, rules);
  }

  db::Identity identity() const override {
    return {river_toad::Game::kName, params_, "survival-count-u61-action-u3-planes", river_toad::kRecordBytes};
  }

  std::vector<db::TierInfo> tiers() const override {
    std::vector<db::TierInfo> out;
    for (int t = 1; t <= space_.turns(); ++t)
      out.push_back({"t" + std::to_string(t), space_.tier_positions(t) * river_toad::kRecordBytes});
    return out;
  }

  SolveStats solve(TierStore& store, Progress* progress) const override { return space_.solve(store, progress); }

  /// A parsed position: turns left, HP (capped), column, the four visible rolls.
  struct Pos {
    int t, hp, column, r[4];
  };

  static int roll_of_row(const std::string& row, int line) {
    auto bad = [&](const std::string& why) -> int {
      throw BadPosition("board row " + std::to_string(line) + " '" + row + "': " + why);
    };
    if (row.size() != 7) return bad("a row has 7 characters (# bank, space, S snake, F fly on a bank)");
    int roll = 0;
    bool fly_l = row[0] == 'F', fly_r = row[6] == 'F';
    if (!(row[0] == '#' || fly_l) || !(row[6] == '#' || fly_r)) return bad("the banks are # or F");
    for (int c = 1; c <= 5; ++c) {
      if (row[c] == 'S') roll |= 1 << (5 - c);
      else if (row[c] != ' ') return bad("the river holds spaces and S only");
    }
    if ((fly_l || fly_r) && (roll || (fly_l && fly_r))) return bad("no roll spawns snakes and a fly, or two flies");
    return fly_l ? river_toad::kLeftFlyRoll : fly_r ? river_toad::kRightFlyRoll : roll;
  }

  Pos parse(const std::string& text) const {
    // "<t>_<hp>_<column>_<r1>.<r2>.<r3>.<r4>", "<t>_<hp>_<row0>/<row1>/<row2>/<row3>/<row4>",
    // or "<t>_r<rolls so far, comma-separated>_p<plan so far>" (start: column 3, 20 HP)
    auto fail = [&](const std::string& why) -> Pos { throw BadPosition("position '" + text + "': " + why); };
    std::vector<std::string> f;
    size_t start = 0;
    for (int i = 0; i < 3; ++i) {
      const size_t u = text.find('_', start);
      if (u == std::string::npos) break;
      f.push_back(text.substr(start, u - start));
      start = u + 1;
    }
    f.push_back(text.substr(start));
    auto num = [&](const std::string& s, const char* what) {
      if (s.empty() || s.size() > 6 || s.find_first_not_of("0123456789") != std::string::npos)
        fail(std::string(what) + " '" + s + "' is not a number");
      return std::stoi(s);
    };
    Pos p{};
    const bool picture = text.find('/') != std::string::npos;
    if (f.size() == 3 && f[1].starts_with("r") && f[2].starts_with("p")) {
      // a roll prefix and the plan so far: "<t>_r<roll>,<roll>,..._p<plan>"
      p.t = num(f[0], "turns left");
      std::vector<uint8_t> rolls;
      std::stringstream ss(f[1].substr(1));
      for (std::string r; std::getline(ss, r, ',');) {
        const int v = num(r, "roll");
        if (v > river_toad::kMaxRoll) return fail("roll " + r + " is outside 0..33");
        rolls.push_back(static_cast<uint8_t>(v));
      }
      const std::string plan = f[2].substr(1);
      if (plan.size() != rolls.size())
        return fail("the plan so far has " + std::to_string(plan.size()) + " actions for " + std::to_string(rolls.size()) +
                    " rolls (one action a turn, each turn spawns its roll)");
      river_toad::Rules rules;
      rules.fly_hp = space_.rules().fly_hp;
      const river_toad::Playout out = river_toad::play(rolls, plan, rules);
      if (out.illegal_turn) return fail("turn " + std::to_string(out.illegal_turn) + ": " + out.illegal_why);
      if (out.death != river_toad::Death::None)
        return fail("the toad dies on turn " + std::to_string(out.turns_played) + " (" + river_toad::death_name(out.death) + ")");
      for (int i = 0; i < 4; ++i) {
        const int k = static_cast<int>(rolls.size()) - 1 - i;
        p.r[i] = k >= 0 ? rolls[k] : 0;
      }
      p.hp = out.final_hp;
      int col = 0;
      for (int c = 1; c <= 5; ++c)
        if (out.board.back()[c] == 'T') col = c;
      p.column = col;
    } else if (picture) {
      // the rows may contain '_'? no: only # space S F T X
      const size_t u1 = text.find('_'), u2 = u1 == std::string::npos ? u1 : text.find('_', u1 + 1);
      if (u2 == std::string::npos) return fail("write <turns left>_<HP>_<row0>/<row1>/<row2>/<row3>/<row4>");
      p.t = num(text.substr(0, u1), "turns left");
      p.hp = num(text.substr(u1 + 1, u2 - u1 - 1), "HP");
      std::vector<std::string> rows;
      std::stringstream ss(text.substr(u2 + 1));
      for (std::string row; std::getline(ss, row, '/');) rows.push_back(row);
      if (rows.size() != 5) return fail("a board picture has 5 rows separated by '/'");
      for (int i = 0; i < 4; ++i) p.r[i] = roll_of_row(rows[i], i);
      const std::string& bottom = rows[4];
      if (bottom.size() != 7 || bottom[0] != '#' || bottom[6] != '#') return fail("the bottom row is #, five cells, #");
      p.column = 0;
      for (int c = 1; c <= 5; ++c) {
        if (bottom[c] == 'T') {
          if (p.column) return fail("two toads in the bottom row");
          p.column = c;
        } else if (bottom[c] != ' ') {
          return fail("the bottom row holds the toad T and spaces (a dead toad X has no value)");
        }
      }
      if (!p.column) return fail("no toad T in the bottom row");
    } else {
      if (f.size() != 4)
        return fail("write <turns left>_<HP>_<column>_<row0 roll>.<row1>.<row2>.<row3> (e.g. 8_20_3_0.0.0.0), "
                    "a board picture <turns left>_<HP>_<row0>/.../<row4>, or <turns left>_r<rolls>_p<plan>");
      p.t = num(f[0], "turns left");
      p.hp = num(f[1], "HP");
      p.column = num(f[2], "column");
      std::stringstream ss(f[3]);
      int i = 0;
      for (std::string r; std::getline(ss, r, '.'); ++i) {
        if (i >= 4) return fail("four rolls, rows 0..3");
        p.r[i] = num(r, "roll");
        if (p.r[i] > river_toad::kMaxRoll) return fail("roll " + r + " is outside 0..33");
      }
      if (i != 4) return fail("four rolls, rows 0..3, separated by '.'");
    }
    if (p.column < river_toad::kFirstRiver || p.column > river_toad::kLastRiver) return fail("the column is 1..5");
    if (p.t < 1 || p.t > space_.turns())
      return fail("turns left must be 1.." + std::to_string(space_.turns()) + " in this database");
    if (p.hp < 1) return fail("HP 0 is a dead toad");
    p.hp = std::min(p.hp, Space::hp_cap(p.t));
    return p;
  }

  std::string canonical(const Pos& p) const {
    return std::to_string(p.t) + "_" + std::to_string(p.hp) + "_" + std::to_string(p.column) + "_" +
           std::to_string(p.r[0]) + "." + std::to_string(p.r[1]) + "." + std::to_string(p.r[2]) + "." +
           std::to_string(p.r[3]);
  }

  static std::vector<std::string> board_of(const Pos& p) {
    std::vector<std::string> rows;
    for (int i = 0; i < 4; ++i) {
      std::string row = "#     #";
      const uint8_t s = river_toad::snake_columns(p.r[i]);
      for (int c = 1; c <= 5; ++c)
        if ((s >> c) & 1) row[c] = 'S';
      if (p.r[i] == river_toad::kLeftFlyRoll) row[0] = 'F';
      if (p.r[i] == river_toad::kRightFlyRoll) row[6] = 'F';
      rows.push_back(row);
    }
    std::string bottom = "#     #";
    bottom[p.column] = 'T';
    rows.push_back(bottom);
    return rows;
  }

  uint64_t read_u64(const db::Database& db, int t, uint64_t index) const {
    const uint64_t n = space_.tier_positions(t);
    uint64_t v = 0;
    for (int b = 0; b < river_toad::kRecordBytes; ++b)
      v |= uint64_t{db.read_record(static_cast<TierId>(t - 1), b * n + index)} << (8 * b);
    return v;
  }

  /// The count of one action from a position, from the stored tier t-1 (the weighted sum
  /// over the next roll of the counts of the position the action leads to).
  uint64_t action_count(const db::Database& db, const Pos& p, int a) const {
    if (!river_toad::legal(p.column, a)) return 0;
    const int to = p.column + river_toad::kShift[a];
    int h = std::max(p.hp - river_toad::kCost[a], 0);
    if ((river_toad::snake_columns(p.r[3]) >> to) & 1) return 0;
    if ((p.r[3] == river_toad::kLeftFlyRoll && to == river_toad::kFirstRiver) ||
        (p.r[3] == river_toad::kRightFlyRoll && to == river_toad::kLastRiver))
      h += space_.rules().fly_hp;
    if (h == 0) return 0;
    if (p.t == 1) return space_.weight_sum();
    h = std::min(h, Space::hp_cap(p.t - 1));
    uint64_t sum = 0;
    for (int r0 = 0; r0 < river_toad::kRolls; ++r0)
      if (space_.weights()[r0])
        sum += space_.weights()[r0] *
               (read_u64(db, p.t - 1, Space::index(p.t - 1, r0, p.r[0], p.r[1], p.r[2], to, h)) & river_toad::kCountMask);
    return sum;
  }

  nlohmann::ordered_json query(const db::Database& db, const std::string& text, const std::string& turn) const override {
    if (!turn.empty()) throw BadPosition("river-toad positions have no turn to give");
    const Pos p = parse(text);
    const uint64_t rec = read_u64(db, p.t, Space::index(p.t, p.r[0], p.r[1], p.r[2], p.r[3], p.column, p.hp));
    const uint64_t count = rec & river_toad::kCountMask, den = space_.denominator(p.t);
    const int best = static_cast<int>(rec >> 61);
    struct Row {
      int a;
      uint64_t c;
    };
    std::vector<Row> rows;
    for (int a = 0; a < river_toad::kActions; ++a)
      if (river_toad::legal(p.column, a)) rows.push_back({a, action_count(db, p, a)});
    std::stable_sort(rows.begin(), rows.end(), [&](const Row& x, const Row& y) {
      if (x.c != y.c) return x.c > y.c;
      return (x.a == best) > (y.a == best);
    });
    nlohmann::ordered_json moves = nlohmann::ordered_json::array();
    for (const Row& r : rows)
      moves.push_back({{"move", std::string(1, river_toad::kLetters[r.a])},
                       {"survival", static_cast<double>(r.c) / static_cast<double>(den)},
                       {"count", std::to_string(r.c)}});
    nlohmann::ordered_json j;
    j["position"] = canonical(p);
    j["turnsLeft"] = p.t;
    j["hp"] = p.hp;
    j["column"] = p.column;
    j["board"] = board_of(p);
    j["survival"] = static_cast<double>(count) / static_cast<double>(den);
    j["count"] = std::to_string(count);
    j["denominator"] = std::to_string(den);
    j["bestAction"] = std::string(1, river_toad::kLetters[best]);
    j["moves"] = std::move(moves);
    return j;
  }

  std::pair<std::string, Outcome> lookup(const db::Database&, const std::string& text, const std::string&) const override {
    throw BadPosition("position '" + text + "': river-toad values are probabilities; use query");
  }

  std::vector<Record> tier_records(const db::Database& db, TierId t) const override { return db.read_tier(t); }

  std::string position_at(TierId tier, uint64_t index) const override {
    const int t = static_cast<int>(tier) + 1;
    Pos p{};
    p.t = t;
    const int cap = Space::hp_cap(t);
    p.hp = static_cast<int>(index % cap) + 1;
    index /= cap;
    p.column = static_cast<int>(index % 5) + 1;
    index /= 5;
    for (int i = 3; i >= 0; --i) p.r[i] = static_cast<int>(index % river_toad::kRolls), index /= river_toad::kRolls;
    return canonical(p);
  }

  /// Recomputes every tier from the stored tier below it and compares record by record.
  VerifyReport verify(const db::Database& db, Progress* progress) const override {
    VerifyReport rep;
    std::vector<uint64_t> e = space_.first_expectation();
    std::vector<Record> mine, stored;
    for (int t = 1; t <= space_.turns(); ++t) {
      try {
        std::vector<Record>().swap(stored);
        stored = db.read_tier(static_cast<TierId>(t - 1));
      } catch (const std::exception& ex) {
        rep.ok = false;
        rep.problem = std::string(ex.what()) + " (tier t" + std::to_string(t) + ")";
        return rep;
      }
      space_.solve_tier(t, e, mine);
      const uint64_t n = space_.tier_positions(t);
      if (stored.size() != mine.size()) {
        rep.ok = false;
        rep.problem = "tier t" + std::to_string(t) + " holds " + std::to_string(stored.size() / river_toad::kRecordBytes) +
                      " records, the space " + std::to_string(n);
        return rep;
      }
      if (stored != mine) {
        uint64_t i = 0;
        while (Space::plane_get(stored.data(), n, i) == Space::plane_get(mine.data(), n, i)) ++i;
        rep.ok = false;
        rep.problem = "tier t" + std::to_string(t) + " index " + std::to_string(i) + " (" +
                      position_at(static_cast<TierId>(t - 1), i) + "): stored " +
                      std::to_string(Space::plane_get(stored.data(), n, i) & river_toad::kCountMask) + " (action " +
                      std::to_string(Space::plane_get(stored.data(), n, i) >> 61) + "), recomputed " +
                      std::to_string(Space::plane_get(mine.data(), n, i) & river_toad::kCountMask) + " (action " +
                      std::to_string(Space::plane_get(mine.data(), n, i) >> 61) + ")";
        return rep;
      }
      rep.positions_checked += n;
      std::vector<Record>().swap(mine);
      if (t < space_.turns()) e = space_.expectation(t, stored);
      if (progress) progress->tier_done("t" + std::to_string(t), n, false);
    }
    return rep;
  }

  nlohmann::json analyze(const db::Database& db) const override {
    nlohmann::json tiers = nlohmann::json::array(), odds = nlohmann::json::array();
    uint64_t total = 0;
    for (int t = 1; t <= space_.turns(); ++t) {
      const std::vector<Record> planes = db.read_tier(static_cast<TierId>(t - 1));
      const uint64_t n = space_.tier_positions(t), den = space_.denominator(t);
      uint64_t dead = 0, sure = 0;
      double sum = 0;
      for (uint64_t i = 0; i < n; ++i) {
        const uint64_t c = Space::plane_get(planes.data(), n, i) & river_toad::kCountMask;
        dead += c == 0;
        sure += c == den;
        sum += static_cast<double>(c) / static_cast<double>(den);
      }
      total += n;
      tiers.push_back({{"tier", "t" + std::to_string(t)}, {"positions", n}, {"lost", dead},
                       {"certain", sure}, {"mean_survival", n ? sum / static_cast<double>(n) : 0.0}});
      const Pos start{t, std::min(20, Space::hp_cap(t)), 3, {0, 0, 0, 0}};
      const uint64_t c = Space::plane_get(planes.data(), n, Space::index(t, 0, 0, 0, 0, 3, start.hp)) & river_toad::kCountMask;
      odds.push_back({{"turns", t}, {"position", canonical(start)}, {"probability", static_cast<double>(c) / static_cast<double>(den)},
                      {"exact", std::to_string(c) + "/" + std::to_string(den)}});
    }
    nlohmann::json out = {{"game", river_toad::Game::kName}, {"parameters", params_}, {"positions", total},
                          {"tiers", tiers}, {"survival_from_empty_board", odds}};
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
  Space space_;
};

class RiverToadModule : public GameModule {
 public:
  std::string name() const override { return river_toad::Game::kName; }
  std::string title() const override { return river_toad::Game::kTitle; }
  std::vector<ParamSpec> parameters() const override {
    return {{"turns", ParamSpec::Kind::Int, "every position with 1..T turns left (default 4)"},
            {"fly-hp", ParamSpec::Kind::Int, "HP a fly gives (default 5)"},
            {"weights", ParamSpec::Kind::String,
             "the rolls' weights: 34 non-negative integers, comma-separated (default: uniform)"}};
  }
  nlohmann::json normalize(const nlohmann::json& given) const override {
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
      bool uniform = w.size() == 34 && std::all_of(w.begin(), w.end(), [&](uint64_t x) { return x == w[0]; }) && w[0] == 1;
      if (!uniform) out["weights"] = w;
    }
    if (out["fly_hp"].get<int>() < 0 || out["fly_hp"].get<int>() > 1000)
      throw std::invalid_argument("--fly-hp must be 0..1000");
    RiverToadInstance::make(out);  // validates
    return out;
  }
  std::unique_ptr<Instance> instance(const nlohmann::json& normalized) const override {
    return std::make_unique<RiverToadInstance>(normalized);
  }
  std::vector<GameCommand> add_commands(CLI::App& root) const override {
    auto cmds = river_toad::Game::add_commands(root);
    // `river-toad play --advise DB`: the database's best action every turn
    for (auto& [app, action] : cmds) {
      if (app->get_name() != "play") continue;
      auto advise = std::make_shared<std::string>();
      app->add_option("--advise", *advise, "a river-toad database: show its best action every turn (and follow it when no plan is given)");
      auto inner = action;
      action = [app, advise, inner] { return advise->empty() ? inner() : play_advised(*app, *advise); };
    }
    return cmds;
  }

  static int play_advised(CLI::App& app, const std::string& path) {
    auto d = db::Database::open_read_only(path);
    const db::Identity id = d->identity();
    if (id.game != river_toad::Game::kName) throw BadPosition(path + " holds " + id.game + ", not river-toad");
    if (!d->complete()) throw BadPosition(path + " is incomplete; run its solve again to resume");
    RiverToadInstance inst(id.parameters);
    river_toad::Rules rules;
    if (app.count("--hp")) rules.start_hp = app.get_option("--hp")->as<int>();
    if (app.count("--column")) rules.start_column = app.get_option("--column")->as<int>();
    if (app.count("--fly-hp")) rules.fly_hp = app.get_option("--fly-hp")->as<int>();
    if (rules.start_column < 1 || rules.start_column > 5 || rules.start_hp < 1)
      throw BadPosition("--column must be 1..5 and --hp at least 1");
    if (rules.fly_hp != inst.space_.rules().fly_hp)
      throw BadPosition("--fly-hp " + std::to_string(rules.fly_hp) + " differs from the database's " +
                        std::to_string(inst.space_.rules().fly_hp));
    const auto rolls = river_toad::read_rolls_file(app.get_option("rolls")->as<std::string>());
    std::string plan = app.count("--plan") ? app.get_option("--plan")->as<std::string>() : "";
    if (app.count("--plan-file")) throw BadPosition("--advise takes --plan, not --plan-file");
    const bool follow = plan.empty();
    river_toad::Board b(rules);
    std::vector<uint8_t> seen;
    for (size_t k = 0; k < rolls.size(); ++k) {
      const int left = static_cast<int>(rolls.size() - k);
      RiverToadInstance::Pos p{};
      p.t = std::min(left, inst.space_.turns());
      for (int i = 0; i < 4; ++i) p.r[i] = seen.size() > size_t(i) ? seen[seen.size() - 1 - i] : 0;
      p.column = b.column();
      p.hp = std::min(b.hp(), RiverToadInstance::Space::hp_cap(p.t));
      const nlohmann::ordered_json q = inst.query(*d, inst.canonical(p), "");
      const std::string best = q["bestAction"];
      std::cout << "turn " << k + 1 << ": advice " << best << " (survives the next " << p.t << " turns with probability "
                << q["survival"].get<double>() << (left > inst.space_.turns() ? ", the database's horizon" : "") << ")";
      char letter = follow ? best[0] : (k < plan.size() ? plan[k] : 0);
      if (!follow && k >= plan.size()) {
        std::cout << "\nthe plan ends here\n";
        return 1;
      }
      if (!follow && k == 0 && plan.size() > rolls.size())
        throw BadPosition("the plan has " + std::to_string(plan.size()) + " actions for " + std::to_string(rolls.size()) + " rolls");
      const int a = river_toad::action_of(letter);
      if (a < 0 || !river_toad::legal(b.column(), a)) throw BadPosition(std::string("turn ") + std::to_string(k + 1) + ": '" + letter + "' is illegal here");
      b.turn(a, rolls[k]);
      seen.push_back(rolls[k]);
      std::cout << ", plays " << letter << ": column " << b.column() << ", HP " << b.hp()
                << (b.alive() ? "" : std::string(", dead: ") + river_toad::death_name(b.death())) << "\n";
      for (const auto& row : b.render()) std::cout << "  " << row << "\n";
      if (!b.alive()) return 2;
    }
    std::cout << "survived all " << rolls.size() << " turns with HP " << b.hp() << "\n";
    return 0;
  }
};

}  // namespace toadbase::tools
