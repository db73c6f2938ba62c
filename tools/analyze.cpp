// toadbase analyze --db DIR: win/lose counts by remoteness, extremes, the game's census.
#include <cstdio>
#include <iostream>

#include "tools/cli.hpp"
#include "tools/open.hpp"

namespace toadbase::tools {

namespace {

using json = nlohmann::json;

struct AnalyzeOptions {
  Common c;
  bool per_tier = false;
};

int run_analyze(const AnalyzeOptions& o) {
  const Opened d = open_database(o.c.db);
  const json a = with_threads(o.c.threads, [&] { return d.instance->analyze(*d.db); });
  if (o.c.json_out) {
    std::cout << dump(a) << "\n";
    return 0;
  }
  std::cout << a["game"].get<std::string>() << " " << dump(a["parameters"]) << ": " << a["positions"] << " positions";
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
    std::printf("\noutcome classes by piece counts\n%6s %6s %12s %12s %12s %12s\n", "toads", "frogs", "L", "R", "N", "P");
    for (const auto& r : a["outcome_classes"])
      std::printf("%6d %6d %12llu %12llu %12llu %12llu\n", r["toads"].get<int>(), r["frogs"].get<int>(),
                  static_cast<unsigned long long>(r["L"].get<uint64_t>()),
                  static_cast<unsigned long long>(r["R"].get<uint64_t>()),
                  static_cast<unsigned long long>(r["N"].get<uint64_t>()),
                  static_cast<unsigned long long>(r["P"].get<uint64_t>()));
    const auto& t = a["outcome_class_totals"];
    std::printf("%13s %12llu %12llu %12llu %12llu\n", "all", static_cast<unsigned long long>(t["L"].get<uint64_t>()),
                static_cast<unsigned long long>(t["R"].get<uint64_t>()),
                static_cast<unsigned long long>(t["N"].get<uint64_t>()),
                static_cast<unsigned long long>(t["P"].get<uint64_t>()));
  }
  if (a.contains("report")) {  // the game's own findings, as lines
    std::cout << "\n";
    for (const auto& line : a["report"]) std::cout << line.get<std::string>() << "\n";
  }
  if (o.per_tier) {
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

}  // namespace

Command add_analyze(CLI::App& root) {
  auto o = std::make_shared<AnalyzeOptions>();
  auto* analyze = root.add_subcommand("analyze", "win/lose counts by remoteness, extremes, outcome classes");
  add_db_option(analyze, o->c);
  add_json_flag(analyze, o->c);
  add_threads_option(analyze, o->c);
  analyze->add_flag("--per-tier", o->per_tier, "print the counts of every tier too (JSON always has them)");
  return {analyze, [o] { return run_analyze(*o); }};
}

}  // namespace toadbase::tools
