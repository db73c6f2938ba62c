// toadbase validate --db DIR FILE: another solver's position<TAB>value[<TAB>remoteness] claims.
#include <algorithm>
#include <fstream>
#include <iostream>
#include <limits>
#include <optional>
#include <sstream>

#include "tools/cli.hpp"
#include "tools/open.hpp"

namespace toadbase::tools {

namespace {

using json = nlohmann::json;

struct ValidateOptions {
  Common c;
  std::string file, turn;
  int show = 10;
};

/// What a validate run counts, and how it reports it (the same for both kinds of claim).
struct Tally {
  uint64_t rows = 0, agree = 0, disagree = 0, unparseable = 0;
  nlohmann::ordered_json firsts = nlohmann::ordered_json::array(), bad_rows = nlohmann::ordered_json::array();

  /// Prints the summary (JSON or text; `claimed` words a disagreement's claim); the exit code.
  template <class Claimed>
  int report(const ValidateOptions& o, Claimed&& claimed) const {
    // an empty claim file (an export that wrote nothing, a wrong path piped in) checks nothing
    if (rows == 0)
      throw std::runtime_error("validate: no claim in " + input_name(o.file) +
                               " (only blank or # comment lines, or none): nothing was checked");
    if (o.c.json_out) {
      std::cout << dump(nlohmann::ordered_json{{"file", o.file},
                                               {"rows", rows},
                                               {"agreeing", agree},
                                               {"disagreeing", disagree},
                                               {"unparseable", unparseable},
                                               {"firstDisagreements", firsts},
                                               {"firstUnparseable", bad_rows}})
                << "\n";
    } else {
      std::cout << "validate " << input_name(o.file) << " against " << o.c.db << ": " << rows << " rows, " << agree
                << " agreeing, " << disagree << " disagreeing, " << unparseable << " unparseable\n";
      for (const auto& f : firsts)
        std::cout << "  line " << f["line"] << ": " << f["position"].get<std::string>() << " claimed " << claimed(f) << "\n";
      for (const auto& b : bad_rows)
        std::cout << "  line " << b["line"] << " unparseable: " << b["error"].get<std::string>() << "\n";
    }
    return (disagree || unparseable) ? kExitNo : kExitOk;
  }
};

/// position<TAB>value claims of a game with values of its own (the value database's:
/// board<TAB>value, values compared as games).
int run_validate_claims(const ValidateOptions& o, const Opened& d, const ValueClaims& claims) {
  Tally t;
  const ValueClaims::Checker check = claims.claim_checker(*d.db);
  each_input_line(o.file, [&](uint64_t lineno, const std::string& line) {
    ++t.rows;
    auto unparse = [&](const std::string& why) {
      ++t.unparseable;
      if (static_cast<int>(t.bad_rows.size()) < o.show)
        t.bad_rows.push_back({{"line", lineno}, {"text", line}, {"error", why}});
    };
    const size_t tab = line.find('\t');
    if (tab == std::string::npos || line.find('\t', tab + 1) != std::string::npos) {
      unparse("expected position<TAB>value, found " +
              std::to_string(tab == std::string::npos ? 1 : 2 + std::count(line.begin() + tab + 1, line.end(), '\t')) +
              " columns");
      return;
    }
    ValueClaims::Verdict v;
    try {
      v = check(line.substr(0, tab), line.substr(tab + 1));
    } catch (const BadPosition& e) {
      unparse(e.what());
      return;
    } catch (const std::invalid_argument& e) {
      unparse(e.what());
      return;
    }
    if (v.agrees) {
      ++t.agree;
    } else {
      ++t.disagree;
      if (static_cast<int>(t.firsts.size()) < o.show)
        t.firsts.push_back({{"line", lineno}, {"position", v.position}, {"claimedValue", line.substr(tab + 1)}, {"value", v.value}});
    }
  });
  return t.report(o, [](const auto& f) {
    return f["claimedValue"].template get<std::string>() + ", actual " + f["value"].template get<std::string>();
  });
}

int run_validate(const ValidateOptions& o) {
  const Opened d = open_database(o.c.db);
  const WinLoseValues* values = d.instance->win_lose_values();
  if (!values) {
    if (const ValueClaims* claims = d.instance->value_claims()) {
      if (!o.turn.empty()) throw UsageError("validate: --turn is for win/lose claims; " + d.db->identity().game + " values do not depend on it");
      return run_validate_claims(o, d, *claims);
    }
    throw UsageError("validate: " + d.db->identity().game + " values are not win/lose; validate reads win/lose claims");
  }
  Tally t;
  each_input_line(o.file, [&](uint64_t lineno, const std::string& line) {
    ++t.rows;
    std::vector<std::string> cols;
    std::stringstream ss(line);
    std::string col;
    while (std::getline(ss, col, '\t')) cols.push_back(col);
    auto unparse = [&](const std::string& why) {
      ++t.unparseable;
      if (static_cast<int>(t.bad_rows.size()) < o.show)
        t.bad_rows.push_back({{"line", lineno}, {"text", line}, {"error", why}});
    };
    if (cols.size() < 2 || cols.size() > 3) {
      unparse("expected position<TAB>value[<TAB>remoteness], found " + std::to_string(cols.size()) + " columns");
      return;
    }
    std::string v = cols[1];
    std::transform(v.begin(), v.end(), v.begin(), [](unsigned char ch) { return std::tolower(ch); });
    if (v != "win" && v != "lose") {
      unparse("value '" + printable_excerpt(cols[1]) + "' is neither win nor lose");
      return;
    }
    std::optional<unsigned> rem;
    if (cols.size() == 3) {
      const std::string& r = cols[2];
      if (r.empty() || r.size() > 6 || r.find_first_not_of("0123456789") != std::string::npos) {
        unparse("remoteness '" + printable_excerpt(r) + "' is not a whole number");
        return;
      }
      rem = static_cast<unsigned>(std::stoul(r));
    }
    std::pair<std::string, Outcome> got;
    try {
      got = values->value(*d.db, cols[0], o.turn);
    } catch (const BadTurn&) {
      throw;  // not this line's: the command's (exit 2)
    } catch (const BadPosition& e) {
      unparse(e.what());
      return;
    }
    const std::string have = std::string(value_name(got.second.value));
    if (have == v && (!rem || *rem == got.second.remoteness)) {
      ++t.agree;
    } else {
      ++t.disagree;
      if (static_cast<int>(t.firsts.size()) < o.show)
        t.firsts.push_back({{"line", lineno},
                          {"position", got.first},
                          {"claimedValue", v},
                          {"claimedRemoteness", rem ? nlohmann::ordered_json(*rem) : nlohmann::ordered_json(nullptr)},
                          {"value", have},
                          {"remoteness", got.second.remoteness}});
    }
  });
  return t.report(o, [](const auto& f) {
    return f["claimedValue"].template get<std::string>() +
           (f["claimedRemoteness"].is_null() ? "" : " " + dump(f["claimedRemoteness"])) + ", actual " +
           f["value"].template get<std::string>() + " " + dump(f["remoteness"]);
  });
}

}  // namespace

Command add_validate(CLI::App& root) {
  auto o = std::make_shared<ValidateOptions>();
  auto* validate =
      root.add_subcommand("validate", "compare another solver's position<TAB>value[<TAB>remoteness] file");
  add_db_option(validate, o->c);
  add_json_flag(validate, o->c);
  validate->add_option("file", o->file, "the TSV file; - reads standard input")->required();
  validate->add_option("--turn", o->turn, "the player to move for bare boards (1 or 2)")
      ->default_str("none: the position says");
  validate->add_option("--show", o->show, "how many disagreements (and unparseable rows) to list")
      ->check(whole_number_in(0, std::numeric_limits<int>::max()));
  examples(validate, {"toadbase validate --db data/tf10 other-solver.tsv",
                      "toadbase export --db data/tf10 --format tsv - | toadbase validate --db data/tf10 -"});
  return {validate, [o] { return run_validate(*o); }};
}

}  // namespace toadbase::tools
