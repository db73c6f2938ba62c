// toadbase query --db DIR POSITION...: each position's value and every move's, as JSON lines.
#include <iostream>

#include "tools/cli.hpp"
#include "tools/open.hpp"
#include "tools/uwapi.hpp"

namespace toadbase::tools {

namespace {

struct QueryOptions {
  Common c;
  std::vector<std::string> positions;
  std::string turn;
  bool text = false;
};

int run_query(const QueryOptions& o) {
  const Opened d = open_database(o.c.db);
  if (o.positions.empty()) throw UserError("query: give positions, or - to read them from standard input");
  std::vector<std::string> all;
  for (const auto& p : o.positions) {
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
      const nlohmann::ordered_json j = query_json(*d.instance, *d.db, p, o.turn);
      if (o.text && !j.contains("positionValue")) {
        out += dump(j) + "\n";  // a game without win/lose values (River Toad): its JSON
      } else if (o.text) {
        out += j["position"].get<std::string>() + ": " + j["positionValue"].get<std::string>() + " in " +
               std::to_string(j["remoteness"].get<unsigned>()) + "\n";
        for (const auto& m : j["moves"])
          out += "  " + m["move"].get<std::string>() + " -> " + m["position"].get<std::string>() + "  " +
                 m["moveValue"].get<std::string>() + " (" + m["positionValue"].get<std::string>() + " in " +
                 std::to_string(m["remoteness"].get<unsigned>()) + ")\n";
      } else {
        out += dump(j) + "\n";
      }
    } catch (const BadPosition& e) {
      rc = 1;
      nlohmann::ordered_json j;
      j["position"] = p;
      j["error"] = e.what();
      out += o.text ? std::string("error: ") + e.what() + "\n" : dump(j) + "\n";
    }
    if (out.size() > (1 << 16)) {
      std::cout << out;
      out.clear();
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
  query->add_option("positions", o->positions,
                    "positions (e.g. 1_TT--FF); - reads them from standard input, one a line");
  query->allow_extras();  // a bare board such as -TTT-FFF is a position, not an option
  query->add_option("--turn", o->turn, "the player to move for positions given as a bare board (1 or 2)");
  query->add_flag("--text", o->text, "short text instead of JSON");
  return {query, [query, o] {
            for (const auto& extra : query->remaining()) o->positions.push_back(extra);
            return run_query(*o);
          }};
}

}  // namespace toadbase::tools
