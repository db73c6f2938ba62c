// toadbase solve GAME --param ... --db DIR: every position of a game's space into a database.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>

#include "db/database.hpp"
#include "db/errors.hpp"
#include "tools/cli.hpp"
#include "tools/registry.hpp"

namespace toadbase::tools {

namespace {

using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

/// `--repair`: tiers whose blocks no longer read back whole are dropped, to be solved again;
/// damaged commit records and a damaged manifest were dropped or rebuilt by the open.
void repair(db::Database& d, const std::vector<TierInfo>& tiers, bool quiet) {
  std::vector<std::string> lines;
  for (TierId t : d.repaired_tiers()) lines.push_back("tier " + tiers[t].name + ": its commit record was damaged");
  for (const auto& [t, why] : d.damaged_tiers()) {
    d.forget_tier(t);
    lines.push_back("tier " + tiers[t].name + ": " + why);
  }
  if (d.complete()) {
    try {
      (void)d.manifest();
    } catch (const db::DbError& e) {
      lines.push_back(std::string(e.what()) + ": written again");
      d.finish(tiers);
    }
  }
  if (quiet) return;
  if (lines.empty()) std::cerr << "repair: nothing damaged in " << d.path() << "\n";
  for (const auto& l : lines) std::cerr << "repair: " << l << (l.ends_with("again") ? "" : " (solved again)") << "\n";
}

int run_solve(const Game& game, const json& given, const Common& c, int zstd_level, bool repairing) {
  json params;
  try {
    params = game.normalize(given);
  } catch (const std::invalid_argument& e) {
    throw UserError(std::string("solve ") + game.name() + ": " + e.what());
  }
  auto inst = game.instance(params);
  const auto tiers = inst->tiers();
  auto d = db::Database::open_for_solve(c.db, inst->identity(), tiers, zstd_level, repairing);
  if (repairing) repair(*d, tiers, c.quiet);
  uint64_t positions = 0;
  for (const auto& t : tiers) positions += t.positions;
  auto progress = make_progress("solve " + game.name(), positions, tiers.size(), c.quiet);
  const bool was_complete = d->complete();
  SolveStats stats;
  const auto t0 = Clock::now();
  if (!was_complete) {
    stats = with_threads(c.threads, [&] { return inst->solve(*d, progress.get()); });
    progress->finish();
    d->finish(tiers);
  }
  const double secs = std::chrono::duration<double>(Clock::now() - t0).count();
  const json& m = d->summary();
  const uint64_t stored = m.value("stored_bytes", uint64_t{0});
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
    std::cout << game.name() << " " << dump(params) << ": " << positions << " positions in " << tiers.size()
              << " tiers -> " << c.db << "\n";
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

struct SolveOptions {
  Common c;
  int zstd_level = 3;
  bool repair = false;
  std::map<std::string, std::string> strings;
  std::map<std::string, int> ints;
};

}  // namespace

std::vector<Command> add_solve(CLI::App& root) {
  auto* solve = root.add_subcommand("solve", "solve every position of a game's space into a database");
  solve->require_subcommand(1);
  std::vector<Command> out;
  for (const auto& g : games()) {
    if (!g->has_database()) continue;
    auto o = std::make_shared<SolveOptions>();
    auto* s = solve->add_subcommand(g->name(), g->title());
    add_db_option(s, o->c);
    add_threads_option(s, o->c);
    add_json_flag(s, o->c);
    s->add_flag("--quiet", o->c.quiet, "no progress output");
    s->add_option("--zstd-level", o->zstd_level, "zstd level of the stored blocks (1..19)")->check(CLI::Range(1, 19));
    s->add_flag("--repair", o->repair,
                "solve again the tiers of this database that no longer read back whole (damaged blocks or "
                "commit records, a damaged manifest); ends with the original digest");
    const std::vector<ParamSpec> params = g->parameters();
    for (const auto& p : params) {
      if (p.kind == ParamSpec::Kind::Int) {
        s->add_option("--" + p.name, o->ints[p.name], p.help);
      } else {
        s->add_option("--" + p.name, o->strings[p.name], p.help);
      }
    }
    const Game* game = g.get();
    out.push_back({s, [s, o, game, params] {
                     json given = json::object();
                     for (const auto& p : params) {
                       if (s->count("--" + p.name) == 0) continue;
                       if (p.kind == ParamSpec::Kind::Int) {
                         given[p.name] = o->ints[p.name];
                       } else {
                         given[p.name] = o->strings[p.name];
                       }
                     }
                     return run_solve(*game, given, o->c, o->zstd_level, o->repair);
                   }});
  }
  return out;
}

}  // namespace toadbase::tools
