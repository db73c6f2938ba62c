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
    std::cout << dump(camel_keys(a)) << "\n";
    return 0;
  }
  std::cout << a["game"].get<std::string>() << " " << dump(a["parameters"]);
  if (a.contains("positions")) std::cout << ": " << a["positions"] << " positions";
  if (a.contains("wins")) std::cout << ", " << a["wins"] << " wins, " << a["losses"] << " losses";
  std::cout << "\n";
  if (a.contains("longestWin"))
    std::cout << "longest win:  " << a["longestWin"]["remoteness"] << " (e.g. "
              << a["longestWin"]["position"].get<std::string>() << ")\n";
  if (a.contains("longestLoss"))
    std::cout << "longest loss: " << a["longestLoss"]["remoteness"] << " (e.g. "
              << a["longestLoss"]["position"].get<std::string>() << ")\n";
  if (a.contains("byRemoteness")) std::printf("%10s %14s %14s\n", "remoteness", "win", "lose");
  for (const auto& r : a.value("byRemoteness", json::array()))
    std::printf("%10u %14llu %14llu\n", r["remoteness"].get<unsigned>(),
                static_cast<unsigned long long>(r["win"].get<uint64_t>()),
                static_cast<unsigned long long>(r["lose"].get<uint64_t>()));
  if (a.contains("report")) {  // the game's own findings, as lines
    std::cout << "\n";
    for (const auto& line : a["report"]) std::cout << line.get<std::string>() << "\n";
  }
  if (o.per_tier) {
    if (!a["tiers"].empty() && a["tiers"][0].contains("winByRemoteness"))
      std::cout << "\nper tier: wins, losses, wR:count (wins by remoteness), lR:count (losses)\n";
    else
      std::cout << "\nper tier:\n";
    for (const auto& t : a["tiers"]) {
      std::cout << "  " << t["tier"].get<std::string>();
      if (t.contains("winByRemoteness")) {
        std::cout << " " << t["wins"] << " " << t["losses"];
        for (auto& [r, n] : t["winByRemoteness"].items()) std::cout << " w" << r << ":" << n;
        for (auto& [r, n] : t["loseByRemoteness"].items()) std::cout << " l" << r << ":" << n;
      } else {  // a game's own figures per tier
        for (auto& [k, v] : t.items())
          if (k != "tier") std::cout << " " << k << " " << v;
      }
      std::cout << "\n";
    }
  }
  return 0;
}

}  // namespace

Command add_analyze(CLI::App& root) {
  auto o = std::make_shared<AnalyzeOptions>();
  auto* analyze =
      root.add_subcommand("analyze", "win/lose counts by remoteness, extremes, outcome classes");
  add_db_option(analyze, o->c);
  add_json_flag(analyze, o->c);
  add_threads_option(analyze, o->c);
  analyze->add_flag("--per-tier", o->per_tier,
                    "print the counts of every tier too (JSON always has them)");
  examples(analyze, {"toadbase analyze --db data/tf10",
                     "toadbase analyze --db data/tf10 --json --threads 2"});
  return {analyze, [o] { return run_analyze(*o); }};
}

}  // namespace toadbase::tools
