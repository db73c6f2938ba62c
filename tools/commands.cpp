#include "tools/commands.hpp"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <sstream>
#include <thread>

#include "tools/module.hpp"

namespace toadbase::tools {

namespace {

using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

/// JSON text of a value that may hold the user's bytes: invalid UTF-8 is replaced (U+FFFD)
/// instead of throwing, so one bad input line is one error line.
template <class J>
std::string dump(const J& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

/// An error the user caused or must fix; printed as one line, exit 1.
struct UserError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Common {
  std::string db;
  int threads = 0;
  bool json_out = false;
  bool quiet = false;
};

std::unique_ptr<Progress> make_progress(const std::string& task, uint64_t positions,
                                        uint64_t tiers, bool quiet) {
  if (quiet) return std::make_unique<Progress>(nullptr, false, task, positions, tiers);
  return std::make_unique<Progress>(&std::cerr, isatty(2) != 0, task, positions, tiers);
}

/// Opens a database read-only and the game instance it holds.
std::pair<std::unique_ptr<db::Database>, std::unique_ptr<Instance>> open_solved(
    const std::string& path, bool need_complete = true, size_t cache = size_t{256} << 20) {
  auto d = db::Database::open_read_only(path, cache);
  db::Identity id = d->identity();
  const GameModule* g = find_game(id.game);
  if (!g) throw UserError(path + " holds the game '" + id.game + "', which this toadbase does not know");
  auto inst = g->instance(id.parameters);
  if (inst->identity().record != id.record)
    throw UserError(path + " stores records '" + id.record + "', this toadbase writes '" +
                    inst->identity().record + "'");
  if (need_complete && !d->complete())
    throw UserError(path + " is incomplete: " + std::to_string(d->committed_tiers()) + " of " +
                    std::to_string(d->tier_count()) +
                    " tiers committed; run the same solve command again to resume");
  return {std::move(d), std::move(inst)};
}

std::string human_bytes(double b) {
  char buf[32];
  if (b >= 1 << 30) {
    std::snprintf(buf, sizeof buf, "%.2f GiB", b / (1 << 30));
  } else if (b >= 1 << 20) {
    std::snprintf(buf, sizeof buf, "%.2f MiB", b / (1 << 20));
  } else if (b >= 1 << 10) {
    std::snprintf(buf, sizeof buf, "%.1f KiB", b / (1 << 10));
  } else {
    std::snprintf(buf, sizeof buf, "%.0f B", b);
  }
  return buf;
}

// ---- solve -----------------------------------------------------------------------------

/// Slows commits down for the crash-and-resume tests (TOADBASE_TEST_COMMIT_DELAY_MS).
class DelayedStore : public TierStore {
 public:
  DelayedStore(TierStore& inner, int ms) : inner_(inner), ms_(ms) {}
  bool has_tier(TierId t) const override { return inner_.has_tier(t); }
  std::vector<Record> load_tier(TierId t) override { return inner_.load_tier(t); }
  void commit_tier(TierId t, const std::vector<Record>& r, uint64_t keep) override {
    inner_.commit_tier(t, r, keep);
    std::this_thread::sleep_for(std::chrono::milliseconds(ms_));
  }

 private:
  TierStore& inner_;
  int ms_;
};

int cmd_solve(const GameModule& game, const json& given, const Common& c, int zstd_level) {
  json params;
  try {
    params = game.normalize(given);
  } catch (const std::invalid_argument& e) {
    throw UserError(std::string("solve ") + game.name() + ": " + e.what());
  }
  auto inst = game.instance(params);
  const auto tiers = inst->tiers();
  auto d = db::Database::open_for_solve(c.db, inst->identity(), tiers, zstd_level);
  uint64_t positions = 0;
  for (const auto& t : tiers) positions += t.positions;
  positions /= inst->identity().record_bytes;  // tiers count bytes
  auto progress = make_progress("solve " + game.name(), positions, tiers.size(), c.quiet);
  const bool was_complete = d->complete();
  SolveStats stats;
  auto t0 = Clock::now();
  if (!was_complete) {
    db::DatabaseStore store(*d);
    const char* delay = std::getenv("TOADBASE_TEST_COMMIT_DELAY_MS");
    DelayedStore slow(store, delay ? std::atoi(delay) : 0);
    TierStore& sink = delay ? static_cast<TierStore&>(slow) : store;
    stats = with_threads(c.threads, [&] { return inst->solve(sink, progress.get()); });
    progress->finish();
    d->finish(tiers);
  }
  double secs = std::chrono::duration<double>(Clock::now() - t0).count();
  const json& m = d->manifest();
  uint64_t stored = m.value("stored_bytes", uint64_t{0});
  json out = {{"db", c.db},
              {"game", game.name()},
              {"parameters", params},
              {"positions", positions},
              {"tiers", tiers.size()},
              {"tiers_solved", stats.tiers_solved},
              {"tiers_skipped", was_complete ? tiers.size() : stats.tiers_skipped},
              {"positions_solved", stats.positions_solved},
              {"seconds", secs},
              {"positions_per_second", secs > 0 ? static_cast<double>(stats.positions_solved) / secs : 0},
              {"stored_bytes", stored},
              {"bits_per_position", positions ? 8.0 * static_cast<double>(stored) / static_cast<double>(positions) : 0},
              {"disk_bytes", d->disk_bytes()},
              {"peak_tier_bytes_in_flight", stats.peak_bytes_in_flight},
              {"digest", m.value("digest", "")}};
  if (c.json_out) {
    std::cout << dump(out) << "\n";
  } else {
    if (was_complete) std::cout << c.db << " is already complete; nothing to do\n";
    std::cout << game.name() << " " << dump(params) << ": " << positions << " positions in "
              << tiers.size() << " tiers -> " << c.db << "\n";
    if (!was_complete) {
      std::cout << "solved " << stats.positions_solved << " positions";
      if (stats.tiers_skipped) std::cout << " (resumed after " << stats.tiers_skipped << " committed tiers)";
      std::printf(" in %.3f s (%.1f M positions/s)\n", secs,
                  secs > 0 ? static_cast<double>(stats.positions_solved) / secs / 1e6 : 0.0);
    }
    std::printf("stored %s (%.3f bits/position), digest %s\n", human_bytes(static_cast<double>(stored)).c_str(),
                out["bits_per_position"].get<double>(), out["digest"].get<std::string>().c_str());
  }
  return 0;
}

// ---- query -----------------------------------------------------------------------------

int cmd_query(const Common& c, std::vector<std::string> positions, const std::string& turn,
              bool text) {
  auto [d, inst] = open_solved(c.db);
  if (positions.empty()) throw UserError("query: give positions, or - to read them from standard input");
  std::vector<std::string> all;
  for (const auto& p : positions) {
    if (p == "-") {
      std::string line;
      while (std::getline(std::cin, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.find_first_not_of(" \t") == std::string::npos) continue;
        all.push_back(line);
      }
    } else {
      all.push_back(p);
    }
  }
  int rc = 0;
  std::string out;
  for (const auto& p : all) {
    try {
      nlohmann::ordered_json j = inst->query(*d, p, turn);
      if (text && !j.contains("positionValue")) {
        out += dump(j) + "\n";  // a game without win/lose values (River Toad): its JSON
      } else if (text) {
        out += j["position"].get<std::string>() + ": " + j["positionValue"].get<std::string>() +
               " in " + std::to_string(j["remoteness"].get<unsigned>()) + "\n";
        for (const auto& m : j["moves"])
          out += "  " + m["move"].get<std::string>() + " -> " + m["position"].get<std::string>() +
                 "  " + m["moveValue"].get<std::string>() + " (" +
                 m["positionValue"].get<std::string>() + " in " +
                 std::to_string(m["remoteness"].get<unsigned>()) + ")\n";
      } else {
        out += dump(j) + "\n";
      }
    } catch (const BadPosition& e) {
      rc = 1;
      nlohmann::ordered_json j;
      j["position"] = p;
      j["error"] = e.what();
      out += text ? std::string("error: ") + e.what() + "\n" : dump(j) + "\n";
    }
    if (out.size() > (1 << 16)) {
      std::cout << out;
      out.clear();
    }
  }
  std::cout << out << std::flush;
  return rc;
}

// ---- info ------------------------------------------------------------------------------

int cmd_info(const Common& c, bool with_tiers) {
  auto d = db::Database::open_read_only(c.db);
  json m = d->manifest();
  if (!with_tiers) m.erase("tiers");
  m["committed_tiers"] = d->committed_tiers();
  m["disk_bytes"] = d->disk_bytes();
  if (!d->complete()) {
    uint64_t stored = 0, done = 0;
    for (TierId t = 0; t < d->tier_count(); ++t)
      if (d->tier_committed(t)) stored += d->tier_meta(t).stored_bytes, done += d->tier_meta(t).positions;
    m["stored_bytes"] = stored;
    m["committed_positions"] = done / d->identity().record_bytes;
  }
  uint64_t positions = m.value("positions", uint64_t{0});
  uint64_t stored = m.value("stored_bytes", uint64_t{0});
  m["bits_per_position"] = positions ? 8.0 * static_cast<double>(stored) / static_cast<double>(positions) : 0.0;
  if (c.json_out) {
    std::cout << dump(m) << "\n";
    return 0;
  }
  std::cout << "database   " << c.db << "\n"
            << "game       " << m["game"].get<std::string>() << " " << dump(m["parameters"]) << "\n"
            << "format     toadbase v" << m["format_version"] << ", records "
            << m["record"].get<std::string>() << ", zstd level " << m["zstd_level"] << ", "
            << m["block_records"] << " records a block\n"
            << "status     "
            << (d->complete() ? "complete" : "incomplete (run the solve again to resume)") << ", "
            << d->committed_tiers() << "/" << d->tier_count() << " tiers\n"
            << "positions  " << positions << "\n";
  std::printf("stored     %s (%.3f bits/position), %s on disk\n",
              human_bytes(static_cast<double>(stored)).c_str(), m["bits_per_position"].get<double>(),
              human_bytes(static_cast<double>(d->disk_bytes())).c_str());
  if (d->complete()) std::cout << "digest     " << m["digest"].get<std::string>() << "\n";
  if (with_tiers && m.contains("tiers"))
    for (const auto& t : m["tiers"])
      std::cout << "  " << t["name"].get<std::string>() << " " << t["positions"] << " positions "
                << t["stored_bytes"] << " bytes " << t["digest"].get<std::string>() << "\n";
  return 0;
}

// ---- analyze ---------------------------------------------------------------------------

int cmd_analyze(const Common& c, bool per_tier) {
  auto [d, inst] = open_solved(c.db);
  json a = with_threads(c.threads, [&] { return inst->analyze(*d); });
  if (c.json_out) {
    std::cout << dump(a) << "\n";
    return 0;
  }
  std::cout << a["game"].get<std::string>() << " " << dump(a["parameters"]) << ": "
            << a["positions"] << " positions";
  if (a.contains("wins")) std::cout << ", " << a["wins"] << " wins, " << a["losses"] << " losses";
  std::cout << "\n";
  if (a.contains("longest_win"))
    std::cout << "longest win:  " << a["longest_win"]["remoteness"] << " (e.g. "
              << a["longest_win"]["position"].get<std::string>() << ")\n";
  if (a.contains("longest_loss"))
    std::cout << "longest loss: " << a["longest_loss"]["remoteness"] << " (e.g. "
              << a["longest_loss"]["position"].get<std::string>() << ")\n";
  if (a.contains("by_remoteness")) std::printf("%10s %14s %14s\n", "remoteness", "win", "lose");
  for (const auto& r : a.value("by_remoteness", json::array()))
    std::printf("%10u %14llu %14llu\n", r["remoteness"].get<unsigned>(),
                static_cast<unsigned long long>(r["win"].get<uint64_t>()),
                static_cast<unsigned long long>(r["lose"].get<uint64_t>()));
  if (a.contains("outcome_classes")) {
    std::printf("\noutcome classes by piece counts\n%6s %6s %12s %12s %12s %12s\n", "toads",
                "frogs", "L", "R", "N", "P");
    for (const auto& r : a["outcome_classes"])
      std::printf("%6d %6d %12llu %12llu %12llu %12llu\n", r["toads"].get<int>(),
                  r["frogs"].get<int>(), static_cast<unsigned long long>(r["L"].get<uint64_t>()),
                  static_cast<unsigned long long>(r["R"].get<uint64_t>()),
                  static_cast<unsigned long long>(r["N"].get<uint64_t>()),
                  static_cast<unsigned long long>(r["P"].get<uint64_t>()));
    const auto& t = a["outcome_class_totals"];
    std::printf("%13s %12llu %12llu %12llu %12llu\n", "all",
                static_cast<unsigned long long>(t["L"].get<uint64_t>()),
                static_cast<unsigned long long>(t["R"].get<uint64_t>()),
                static_cast<unsigned long long>(t["N"].get<uint64_t>()),
                static_cast<unsigned long long>(t["P"].get<uint64_t>()));
  }
  if (a.contains("report")) {  // the game's own findings, as lines
    std::cout << "\n";
    for (const auto& line : a["report"]) std::cout << line.get<std::string>() << "\n";
  }
  if (per_tier) {
    std::cout << "\nper tier: wins, losses, win:count by remoteness | lose:count\n";
    for (const auto& t : a["tiers"]) {
      std::cout << "  " << t["tier"].get<std::string>() << " " << t["wins"] << " " << t["losses"];
      for (auto& [r, n] : t["win_by_remoteness"].items()) std::cout << " w" << r << ":" << n;
      for (auto& [r, n] : t["lose_by_remoteness"].items()) std::cout << " l" << r << ":" << n;
      std::cout << "\n";
    }
  }
  return 0;
}

// ---- verify ----------------------------------------------------------------------------

int cmd_verify(const Common& c) {
  // verify reads every tier once: no block cache needed
  auto [d, inst] = open_solved(c.db, true, 0);
  uint64_t positions = d->manifest().value("positions", uint64_t{0});
  auto progress = make_progress("verify", positions, d->tier_count(), c.quiet);
  VerifyReport rep = with_threads(c.threads, [&] { return inst->verify(*d, progress.get()); });
  std::string digest = db::hex64(d->digest());
  if (rep.ok && digest != d->manifest().value("digest", "")) {
    rep.ok = false;
    rep.problem = "the database digest " + digest + " differs from the manifest's " +
                  d->manifest().value("digest", "");
  }
  if (rep.ok) progress->finish();
  if (c.json_out) {
    std::cout << dump(json{{"db", c.db}, {"ok", rep.ok}, {"positions_checked", rep.positions_checked},
                           {"problem", rep.problem}, {"digest", digest}})
              << "\n";
  } else if (rep.ok) {
    std::cout << "verify " << c.db << ": OK, " << rep.positions_checked
              << " positions recomputed from their children, digest " << digest << "\n";
  } else {
    std::cout << "verify " << c.db << ": FAILED: " << rep.problem << "\n";
  }
  return rep.ok ? 0 : 1;
}

// ---- validate --------------------------------------------------------------------------

int cmd_validate(const Common& c, const std::string& file, const std::string& turn, int show) {
  auto [d, inst] = open_solved(c.db);
  std::ifstream in(file);
  if (!in) throw UserError("validate: cannot read " + file);
  uint64_t rows = 0, agree = 0, disagree = 0, unparseable = 0;
  json firsts = json::array(), bad_rows = json::array();
  std::string line;
  uint64_t lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos || line[0] == '#') continue;
    ++rows;
    std::vector<std::string> cols;
    std::stringstream ss(line);
    std::string col;
    while (std::getline(ss, col, '\t')) cols.push_back(col);
    auto unparse = [&](const std::string& why) {
      ++unparseable;
      if (static_cast<int>(bad_rows.size()) < show)
        bad_rows.push_back({{"line", lineno}, {"text", line}, {"error", why}});
    };
    if (cols.size() < 2 || cols.size() > 3) {
      unparse("expected position<TAB>value[<TAB>remoteness], found " + std::to_string(cols.size()) + " columns");
      continue;
    }
    std::string v = cols[1];
    std::transform(v.begin(), v.end(), v.begin(), [](unsigned char ch) { return std::tolower(ch); });
    if (v != "win" && v != "lose") {
      unparse("value '" + cols[1] + "' is neither win nor lose");
      continue;
    }
    std::optional<unsigned> rem;
    if (cols.size() == 3) {
      const std::string& r = cols[2];
      if (r.empty() || r.size() > 6 || r.find_first_not_of("0123456789") != std::string::npos) {
        unparse("remoteness '" + r + "' is not a whole number");
        continue;
      }
      rem = static_cast<unsigned>(std::stoul(r));
    }
    std::pair<std::string, Outcome> got;
    try {
      got = inst->lookup(*d, cols[0], turn);
    } catch (const BadPosition& e) {
      unparse(e.what());
      continue;
    }
    const std::string have = std::string(value_name(got.second.value));
    bool ok = have == v && (!rem || *rem == got.second.remoteness);
    if (ok) {
      ++agree;
    } else {
      ++disagree;
      if (static_cast<int>(firsts.size()) < show)
        firsts.push_back({{"line", lineno},
                          {"position", got.first},
                          {"claimed", rem ? v + " " + std::to_string(*rem) : v},
                          {"actual", have + " " + std::to_string(got.second.remoteness)}});
    }
  }
  if (c.json_out) {
    std::cout << dump(json{{"file", file},
                           {"rows", rows},
                           {"agreeing", agree},
                           {"disagreeing", disagree},
                           {"unparseable", unparseable},
                           {"first_disagreements", firsts},
                           {"first_unparseable", bad_rows}})
              << "\n";
  } else {
    std::cout << "validate " << file << " against " << c.db << ": " << rows << " rows, " << agree
              << " agreeing, " << disagree << " disagreeing, " << unparseable << " unparseable\n";
    for (const auto& f : firsts)
      std::cout << "  line " << f["line"] << ": " << f["position"].get<std::string>() << " claimed "
                << f["claimed"].get<std::string>() << ", actual " << f["actual"].get<std::string>()
                << "\n";
    for (const auto& b : bad_rows)
      std::cout << "  line " << b["line"] << " unparseable: " << b["error"].get<std::string>() << "\n";
  }
  return (disagree || unparseable) ? 1 : 0;
}

// ---- export ----------------------------------------------------------------------------

int cmd_export(const Common& c, const std::string& format, const std::string& out_path) {
  auto [d, inst] = open_solved(c.db, true, 0);
  if (format != "raw" && format != "gamescrafters16")
    throw UserError("export: --format must be raw or gamescrafters16");
  const std::string tmp = out_path + ".partial";
  {
    std::ofstream out(tmp, std::ios::binary);
    if (!out) throw UserError("export: cannot write " + tmp);
    for (TierId t = 0; t < d->tier_count(); ++t) {
      std::vector<Record> recs = inst->tier_records(*d, t);
      if (format == "raw") {
        out.write(reinterpret_cast<const char*>(recs.data()), static_cast<std::streamsize>(recs.size()));
      } else {
        // GamesmanOne's 16-bit record: value in the top 4 bits (lose 1, win 4), remoteness below
        std::vector<uint16_t> wide(recs.size());
        for (size_t i = 0; i < recs.size(); ++i) {
          unsigned r = recs[i];
          wide[i] = static_cast<uint16_t>(((r & 1) ? 4u : 1u) << 12 | r);
        }
        out.write(reinterpret_cast<const char*>(wide.data()),
                  static_cast<std::streamsize>(wide.size() * 2));
      }
    }
    if (!out) throw UserError("export: writing " + tmp + " failed");
  }
  if (std::rename(tmp.c_str(), out_path.c_str()) != 0) throw UserError("export: cannot rename to " + out_path);
  return 0;
}

// ---- bench lookup ----------------------------------------------------------------------

int cmd_bench_lookup(const Common& c, uint64_t count, uint64_t singles, uint64_t seed) {
  // batch: `count` random positions through one reader with its block cache
  auto [d, inst] = open_solved(c.db);
  std::mt19937_64 rng(seed);
  std::vector<std::pair<TierId, uint64_t>> picks;
  std::vector<uint64_t> cum(d->tier_count() + 1, 0);
  for (TierId t = 0; t < d->tier_count(); ++t) cum[t + 1] = cum[t] + d->tier_meta(t).positions;
  auto pick = [&] {
    uint64_t g = rng() % cum.back();
    TierId t = static_cast<TierId>(std::upper_bound(cum.begin(), cum.end(), g) - cum.begin() - 1);
    return std::pair<TierId, uint64_t>{t, g - cum[t]};
  };
  std::vector<std::string> strings;
  for (uint64_t i = 0; i < count; ++i) {
    auto [t, ix] = pick();
    strings.push_back(inst->position_at(t, ix));
  }
  auto t0 = Clock::now();
  uint64_t wins = 0;
  for (const auto& s : strings) wins += inst->lookup(*d, s, "").second.value == Value::Win;
  double batch_s = std::chrono::duration<double>(Clock::now() - t0).count();
  // singles: a fresh reader with an empty cache for each lookup's block (cold block)
  auto [d2, inst2] = open_solved(c.db, true, 0);
  std::vector<double> lat;
  for (uint64_t i = 0; i < singles; ++i) {
    auto [t, ix] = pick();
    std::string s = inst2->position_at(t, ix);
    auto a = Clock::now();
    (void)inst2->lookup(*d2, s, "");
    lat.push_back(std::chrono::duration<double, std::micro>(Clock::now() - a).count());
  }
  std::sort(lat.begin(), lat.end());
  auto pct = [&](double q) { return lat.empty() ? 0.0 : lat[static_cast<size_t>(q * static_cast<double>(lat.size() - 1))]; };
  json out = {{"db", c.db},
              {"batch_lookups", count},
              {"batch_seconds", batch_s},
              {"batch_lookups_per_second", batch_s > 0 ? static_cast<double>(count) / batch_s : 0},
              {"single_lookups", singles},
              {"single_p50_us", pct(0.5)},
              {"single_p99_us", pct(0.99)},
              {"single_max_us", lat.empty() ? 0.0 : lat.back()},
              {"wins_seen", wins}};
  if (c.json_out) {
    std::cout << dump(out) << "\n";
  } else {
    std::printf("batch:  %llu lookups in %.3f s = %.0f lookups/s\n", static_cast<unsigned long long>(count),
                batch_s, out["batch_lookups_per_second"].get<double>());
    std::printf("single (cold block): p50 %.1f us, p99 %.1f us, max %.1f us over %llu\n", pct(0.5),
                pct(0.99), out["single_max_us"].get<double>(), static_cast<unsigned long long>(singles));
  }
  return 0;
}

}  // namespace

int run(int argc, char** argv) {
  CLI::App app{"toadbase: exhaustive solver and position databases for the toad and frog games"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "help for every subcommand");
  Common c;
  auto add_db = [&](CLI::App* s) { s->add_option("--db", c.db, "the database directory")->required(); };
  auto add_threads = [&](CLI::App* s) {
    s->add_option("--threads", c.threads, "worker threads (default: all cores)")->check(CLI::NonNegativeNumber);
  };
  auto add_json = [&](CLI::App* s) { s->add_flag("--json", c.json_out, "print JSON"); };

  // solve GAME --param ...
  auto* solve = app.add_subcommand("solve", "solve every position of a game's space into a database");
  solve->require_subcommand(1);
  int zstd_level = 3;
  std::map<std::string, std::string> string_params;
  std::map<std::string, int> int_params;
  std::vector<std::pair<const GameModule*, CLI::App*>> solve_games;
  for (const auto& g : games()) {
    if (!g->has_database()) continue;
    auto* s = solve->add_subcommand(g->name(), g->title());
    add_db(s);
    add_threads(s);
    add_json(s);
    s->add_flag("--quiet", c.quiet, "no progress output");
    s->add_option("--zstd-level", zstd_level, "zstd level of the stored blocks (1..19)")
        ->check(CLI::Range(1, 19));
    for (const auto& p : g->parameters()) {
      if (p.kind == ParamSpec::Kind::Int) {
        s->add_option("--" + p.name, int_params[g->name() + "/" + p.name], p.help);
      } else {
        s->add_option("--" + p.name, string_params[g->name() + "/" + p.name], p.help);
      }
    }
    solve_games.push_back({g.get(), s});
  }

  auto* query = app.add_subcommand("query", "the value of positions and of every move from them, as JSON lines");
  std::vector<std::string> positions;
  std::string turn;
  bool text = false;
  add_db(query);
  query->add_option("positions", positions, "positions (e.g. 1_TT--FF); - reads them from standard input, one a line");
  query->allow_extras();  // a bare board such as -TTT-FFF is a position, not an option
  query->add_option("--turn", turn, "the player to move for positions given as a bare board (1 or 2)");
  query->add_flag("--text", text, "short text instead of JSON");

  auto* info = app.add_subcommand("info", "the manifest: game, parameters, counts, sizes, digest");
  bool with_tiers = false;
  add_db(info);
  add_json(info);
  info->add_flag("--tiers", with_tiers, "also every tier's counts, size and digest");

  auto* analyze = app.add_subcommand("analyze", "win/lose counts by remoteness, extremes, outcome classes");
  bool per_tier = false;
  add_db(analyze);
  add_json(analyze);
  add_threads(analyze);
  analyze->add_flag("--per-tier", per_tier, "print the counts of every tier too (JSON always has them)");

  auto* verify = app.add_subcommand("verify", "recompute every record from its children and check every digest");
  add_db(verify);
  add_json(verify);
  add_threads(verify);
  verify->add_flag("--quiet", c.quiet, "no progress output");

  auto* validate = app.add_subcommand("validate", "compare another solver's position<TAB>value[<TAB>remoteness] file");
  std::string tsv;
  int show = 10;
  add_db(validate);
  add_json(validate);
  validate->add_option("file", tsv, "the TSV file")->required();
  validate->add_option("--turn", turn, "the player to move for bare boards (1 or 2)");
  validate->add_option("--show", show, "how many disagreements to list")->check(CLI::NonNegativeNumber);

  auto* exp = app.add_subcommand("export", "write every record in tier order to a file");
  std::string format = "raw", out_path;
  add_db(exp);
  exp->add_option("--format", format, "raw (one byte a record) or gamescrafters16 (16-bit records)");
  exp->add_option("output", out_path, "the file to write")->required();

  auto* bench = app.add_subcommand("bench", "benchmarks that print a table");
  bench->require_subcommand(1);
  auto* bench_lookup = bench->add_subcommand("lookup", "batch lookup rate and single cold lookup latency");
  uint64_t count = 1000000, singles = 2000, seed = 1;
  add_db(bench_lookup);
  add_json(bench_lookup);
  bench_lookup->add_option("--count", count, "positions in the batch");
  bench_lookup->add_option("--singles", singles, "single cold lookups timed");
  bench_lookup->add_option("--seed", seed, "random seed");

  // the games' own subcommands
  std::vector<GameCommand> game_commands;
  for (const auto& g : games())
    for (auto& gc : g->add_commands(app)) game_commands.push_back(std::move(gc));

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }

  try {
    for (auto& [g, s] : solve_games) {
      if (!s->parsed()) continue;
      json given = json::object();
      for (const auto& p : g->parameters()) {
        if (s->count("--" + p.name) == 0) continue;
        if (p.kind == ParamSpec::Kind::Int) {
          given[p.name] = int_params[g->name() + "/" + p.name];
        } else {
          given[p.name] = string_params[g->name() + "/" + p.name];
        }
      }
      return cmd_solve(*g, given, c, zstd_level);
    }
    if (query->parsed()) {
      for (const auto& extra : query->remaining()) positions.push_back(extra);
      return cmd_query(c, positions, turn, text);
    }
    if (info->parsed()) return cmd_info(c, with_tiers);
    if (analyze->parsed()) return cmd_analyze(c, per_tier);
    if (verify->parsed()) return cmd_verify(c);
    if (validate->parsed()) return cmd_validate(c, tsv, turn, show);
    if (exp->parsed()) return cmd_export(c, format, out_path);
    if (bench_lookup->parsed()) return cmd_bench_lookup(c, count, singles, seed);
    for (auto& [sub, action] : game_commands)
      if (sub->parsed()) return action();
  } catch (const std::exception& e) {
    std::cerr << "toadbase: error: " << e.what() << "\n";
    return 1;
  }
  return 2;
}

}  // namespace toadbase::tools
