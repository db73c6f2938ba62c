// toadbase query --db DIR POSITION...: each position's value and every move's, as JSON lines
// (or short text); also the space's start position and uniformly random positions.
#include <algorithm>
#include <iostream>
#include <random>

#include "tools/cli.hpp"
#include "tools/open.hpp"
#include "tools/uwapi.hpp"

namespace toadbase::tools {

namespace {

using ojson = nlohmann::ordered_json;

struct QueryOptions {
  Common c;
  std::vector<std::string> positions;
  std::string turn;
  bool text = false, start = false;
  uint64_t random = 0, seed = 1;
};

std::string scalar_text(const ojson& v) { return v.is_string() ? v.get<std::string>() : dump(v); }

/// "key value, key value" of an object's scalar fields (a move, a decision).
std::string fields_text(const ojson& o, const std::string& skip = "") {
  std::string s;
  for (auto it = o.begin(); it != o.end(); ++it) {
    if (it.key() == skip) continue;
    s += (s.empty() ? "" : ", ") + it.key() + " " + scalar_text(it.value());
  }
  return s;
}

/// The text form of a query answer. Win/lose games: "POS: win in 11" and a line a move;
/// other games (River Toad's odds, the forest's decisions): their fields, one a line.
std::string query_text(const ojson& j) {
  std::string out;
  if (j.contains("positionValue")) {
    // "lose in 3", or a puzzle's dead end in words (its remoteness 0 counts no moves)
    auto value = [](const ojson& o) {
      if (dead_end(o)) return std::string(kDeadEndWords);
      return o["positionValue"].get<std::string>() + " in " + std::to_string(o["remoteness"].get<unsigned>());
    };
    out += j["position"].get<std::string>() + ": " + value(j) + "\n";
    for (const auto& m : j["moves"])
      out += "  " + m["move"].get<std::string>() + " -> " + m["position"].get<std::string>() + "  " +
             m["moveValue"].get<std::string>() + " (" + value(m) + ")\n";
    return out;
  }
  out += scalar_text(j["position"]) + "\n";
  for (auto it = j.begin(); it != j.end(); ++it) {
    const ojson& v = it.value();
    if (it.key() == "position") continue;
    if (v.is_array() && std::all_of(v.begin(), v.end(), [](const ojson& x) { return x.is_string(); })) {
      out += "  " + it.key() + ":\n";  // a board, a row a line
      for (const auto& row : v) out += "    " + row.get<std::string>() + "\n";
    } else if (v.is_array() && std::all_of(v.begin(), v.end(), [](const ojson& x) { return x.is_object(); })) {
      out += "  " + it.key() + ":" + (v.empty() ? " none" : "") + "\n";
      for (const auto& m : v)
        out += "    " + (m.contains("move") ? scalar_text(m["move"]) + ": " + fields_text(m, "move") : fields_text(m)) +
               "\n";
    } else if (v.is_object()) {
      out += "  " + it.key() + ": " + fields_text(v) + "\n";
    } else {
      out += "  " + it.key() + ": " + (v.is_null() ? std::string("none") : scalar_text(v)) + "\n";
    }
  }
  return out;
}

/// `count` positions drawn uniformly from every position of the database (each tier's share
/// by its size), with a seeded generator: the same seed draws the same positions.
std::vector<std::string> random_positions(const Instance& instance, uint64_t count, uint64_t seed) {
  const std::vector<TierInfo> tiers = instance.tiers();
  std::vector<uint64_t> cum(tiers.size() + 1, 0);
  for (size_t t = 0; t < tiers.size(); ++t) cum[t + 1] = cum[t] + tiers[t].positions;
  std::mt19937_64 rng(seed);
  std::vector<std::string> out;
  for (uint64_t i = 0; i < count && cum.back() > 0; ++i) {
    const uint64_t g = std::uniform_int_distribution<uint64_t>(0, cum.back() - 1)(rng);
    const auto t = static_cast<TierId>(std::upper_bound(cum.begin(), cum.end(), g) - cum.begin() - 1);
    try {
      out.push_back(instance.position_at(t, g - cum[t]));
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--random: ") + e.what());
    }
  }
  return out;
}

int run_query(const QueryOptions& o) {
  if (o.positions.empty() && !o.start && o.random == 0)
    throw UsageError("query: give positions, - to read them from standard input, --start or --random N");
  if (std::count(o.positions.begin(), o.positions.end(), "-") > 1)
    throw UsageError("query: standard input (-) can be read only once");
  const Opened d = open_database(o.c.db);
  int rc = kExitOk;
  std::string out;
  auto answer = [&](const std::string& p) {
    try {
      const ojson j = query_json(*d.instance, *d.db, p, o.turn);
      out += o.text ? query_text(j) : dump(j) + "\n";
    } catch (const BadTurn&) {
      throw;  // not this position's: the command's (exit 2)
    } catch (const BadPosition& e) {
      rc = kExitNo;
      ojson j;
      j["position"] = p;
      j["error"] = e.what();
      out += o.text ? std::string("error: ") + e.what() + "\n" : dump(j) + "\n";
    } catch (const std::runtime_error& e) {
      // the database could not read what this position needs (a damaged block): the other
      // positions of the batch are still answered
      rc = kExitNo;
      ojson j;
      j["position"] = p;
      j["error"] = std::string("the database cannot answer it: ") + e.what();
      out += o.text ? std::string("error: ") + j["error"].get<std::string>() + "\n" : dump(j) + "\n";
    }
    if (out.size() > (1 << 16)) {
      std::cout << out;
      out.clear();
    }
  };
  if (o.start) {
    const std::string s = d.instance->start_position();
    if (s.empty()) throw UsageError("--start: " + d.db->identity().game + " databases name no start position");
    answer(s);
  }
  for (const auto& p : random_positions(*d.instance, o.random, o.seed)) answer(p);
  for (const auto& p : o.positions) {
    if (p == "-") {
      each_input_line("-", [&](uint64_t, const std::string& line) { answer(line); });
    } else {
      answer(p);
    }
  }
  std::cout << out << std::flush;
  return rc;
}

}  // namespace

Command add_query(CLI::App& root) {
  auto o = std::make_shared<QueryOptions>();
  auto* query = root.add_subcommand("query", "the value of positions and of every move from them, as JSON lines");
  add_db_option(query, o->c);
  // one argument is one position: a list such as [1, 1, 0, -1, -1] is not split at its commas
  // (the positions reach o->positions whole; the option below is for the help page)
  static std::vector<std::string> shown;
  query->add_option("positions", shown,
                    "positions (e.g. 1_TT--FF); - reads them from standard input, one a line (# comments and "
                    "blank lines skipped); a position that starts with - goes after --");
  whole_positionals(query, &o->positions);
  query->add_option("--turn", o->turn, "the player to move for positions given as a bare board (1 or 2)")
      ->check(turn_given())
      ->default_str("none: the position says");
  query->add_flag("--start", o->start, "the space's start position first");
  query->add_option("--random", o->random, "N positions drawn uniformly from the database's positions (at most 10,000,000)")
      ->check(whole_number_in(uint64_t{0}, uint64_t{10000000}))
      ->default_str("0");
  query->add_option("--seed", o->seed, "the seed of --random (the same seed draws the same positions)")
      ->check(whole_number_in<uint64_t>());
  auto* text = query->add_flag("--text", o->text, "short text for people instead of JSON");
  auto* json = query->add_flag("--json", o->c.json_out, "JSON, one object a line (the default)");
  text->excludes(json);
  examples(query, {"toadbase query --db data/tf10 1_TTT----FFF 2_T-F", "printf '1_TT--FF\\n' | toadbase query --db data/tf10 -",
                   "toadbase query --db data/tf10 --turn 1 --text -- --TF"});
  return {query, [o] { return run_query(*o); }};
}

}  // namespace toadbase::tools
