// toadbase analyze --db DIR: win/lose counts by remoteness, extremes, the game's census.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "solver/core/threads.hpp"
#include "tools/cli.hpp"
#include "tools/open.hpp"

namespace toadbase::tools {

namespace {

using json = nlohmann::json;

struct AnalyzeOptions {
  Common c;
  bool per_tier = false;
};

/// A figure of a table: text as it is, a real number to 6 significant digits.
std::string cell_text(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return "-";
  if (v.is_number_float()) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v.get<double>());
    return buf;
  }
  return dump(v);
}

/// A game's own figures per tier as a table: the tier's name, then a column a field (the
/// fields of an object each a column of their own: outcomeClasses -> L R N P); the heading
/// is the first line.
void print_tier_table(const json& tiers) {
  std::vector<std::string> heads;
  std::vector<std::vector<std::string>> rows;
  for (const auto& t : tiers) {
    std::vector<std::string> row{t.contains("tier") ? cell_text(t["tier"]) : "?"};
    const bool first = rows.empty();
    for (auto& [k, v] : t.items()) {
      if (k == "tier") continue;
      if (v.is_object()) {
        for (auto& [sk, sv] : v.items()) {
          row.push_back(cell_text(sv));
          if (first) heads.push_back(sk);
        }
      } else {
        row.push_back(cell_text(v));
        if (first) heads.push_back(k);
      }
    }
    rows.push_back(std::move(row));
  }
  std::vector<size_t> width(heads.size() + 1, 0);
  for (size_t c = 0; c < heads.size(); ++c) width[c + 1] = heads[c].size();
  for (const auto& row : rows)
    for (size_t c = 0; c < row.size() && c < width.size(); ++c) width[c] = std::max(width[c], row[c].size());
  auto pad = [](const std::string& s, size_t w, bool left) {
    const std::string fill(w > s.size() ? w - s.size() : 0, ' ');
    return left ? s + fill : fill + s;
  };
  std::string line = pad("per tier:", width[0] + 2, true);
  for (size_t c = 0; c < heads.size(); ++c) line += " " + pad(heads[c], width[c + 1], false);
  std::cout << line << "\n";
  for (const auto& row : rows) {
    line = "  " + pad(row[0], width[0], true);
    for (size_t c = 1; c < row.size() && c < width.size(); ++c) line += " " + pad(row[c], width[c], false);
    std::cout << line << "\n";
  }
}

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
    const json tiers = a.contains("tiers") && a["tiers"].is_array() ? a["tiers"] : json::array();
    if (tiers.empty()) {
      std::cout << "\nper tier: none (this analysis has no figures per tier)\n";
    } else if (tiers[0].contains("winByRemoteness")) {
      std::cout << "\nper tier: wins, losses, wR:count (wins by remoteness), lR:count (losses)\n";
      for (const auto& t : tiers) {
        std::cout << "  " << t["tier"].get<std::string>() << " " << t["wins"] << " " << t["losses"];
        for (auto& [r, n] : t["winByRemoteness"].items()) std::cout << " w" << r << ":" << n;
        for (auto& [r, n] : t["loseByRemoteness"].items()) std::cout << " l" << r << ":" << n;
        std::cout << "\n";
      }
    } else {  // a game's own figures per tier
      std::cout << "\n";
      print_tier_table(tiers);
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
