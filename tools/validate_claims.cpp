// validate's checking, shared by the command, the server and Python (tools/validate.hpp).
#include <algorithm>
#include <optional>
#include <stdexcept>

#include "tools/cli.hpp"
#include "tools/validate.hpp"

namespace toadbase::tools {

using ojson = nlohmann::ordered_json;

constexpr size_t kShownLine = 200;  // bytes of an unparseable line shown

struct ClaimTally::Impl {
  Impl(const Opened& opened, const std::string& player, int listed) : d(opened), turn(player), show(listed) {}

  const Opened& d;
  std::string turn;
  int show = 10;
  const WinLoseValues* values = nullptr;           // a win/lose database's
  std::optional<ValueClaims::Checker> check_value;  // a value database's
  uint64_t rows = 0, agree = 0, disagree = 0, unparseable = 0;
  ojson firsts = ojson::array(), bad_rows = ojson::array();

  void unparse(uint64_t lineno, const std::string& line, const std::string& why) {
    ++unparseable;
    // the line shown as an error shows bytes: escaped, and cut short (a line may be megabytes)
    if (static_cast<int>(bad_rows.size()) < show)
      bad_rows.push_back({{"line", lineno}, {"text", printable_excerpt(line, kShownLine)}, {"error", why}});
  }
  void disagreement(ojson row) {
    ++disagree;
    if (static_cast<int>(firsts.size()) < show) firsts.push_back(std::move(row));
  }

  /// board<TAB>value of a game with values of its own, compared as games.
  void add_value(uint64_t lineno, const std::string& line) {
    const size_t tab = line.find('\t');
    if (tab == std::string::npos || line.find('\t', tab + 1) != std::string::npos)
      return unparse(lineno, line,
                     "expected position<TAB>value, found " +
                         std::to_string(tab == std::string::npos ? 1 : 2 + std::count(line.begin() + tab + 1, line.end(), '\t')) +
                         " columns");
    ValueClaims::Verdict v;
    try {
      v = (*check_value)(line.substr(0, tab), line.substr(tab + 1));
    } catch (const BadPosition& e) {
      return unparse(lineno, line, e.what());
    } catch (const std::invalid_argument& e) {
      return unparse(lineno, line, e.what());
    }
    if (v.agrees)
      ++agree;
    else
      disagreement({{"line", lineno}, {"position", v.position}, {"claimedValue", line.substr(tab + 1)}, {"value", v.value}});
  }

  /// position<TAB>win|lose[<TAB>remoteness].
  void add_win_lose(uint64_t lineno, const std::string& line) {
    std::vector<std::string> cols;  // every tab separates two columns, an empty last one too
    for (size_t from = 0;;) {
      const size_t tab = line.find('\t', from);
      cols.push_back(line.substr(from, tab == std::string::npos ? std::string::npos : tab - from));
      if (tab == std::string::npos) break;
      from = tab + 1;
    }
    if (cols.size() < 2 || cols.size() > 3)
      return unparse(lineno, line,
                     "expected position<TAB>value[<TAB>remoteness], found " + std::to_string(cols.size()) + " columns");
    std::string v = cols[1];
    std::transform(v.begin(), v.end(), v.begin(), [](unsigned char ch) { return std::tolower(ch); });
    if (v != "win" && v != "lose") return unparse(lineno, line, "value '" + printable_excerpt(cols[1]) + "' is neither win nor lose");
    std::optional<unsigned> rem;
    if (cols.size() == 3) {
      const std::string& r = cols[2];
      if (r.empty() || r.size() > 6 || r.find_first_not_of("0123456789") != std::string::npos)
        return unparse(lineno, line, "remoteness '" + printable_excerpt(r) + "' is not a whole number");
      rem = static_cast<unsigned>(std::stoul(r));
    }
    std::pair<std::string, Outcome> got;
    try {
      got = values->value(*d.db, cols[0], turn);
    } catch (const BadTurn&) {
      throw;  // not this line's: the caller's (exit 2)
    } catch (const BadPosition& e) {
      return unparse(lineno, line, e.what());
    }
    const std::string have = std::string(value_name(got.second.value));
    if (have == v && (!rem || *rem == got.second.remoteness))
      ++agree;
    else
      disagreement({{"line", lineno},
                    {"position", got.first},
                    {"claimedValue", v},
                    {"claimedRemoteness", rem ? ojson(*rem) : ojson(nullptr)},
                    {"value", have},
                    {"remoteness", got.second.remoteness}});
  }
};

ClaimTally::ClaimTally(const Opened& d, const std::string& turn, int show) : impl_(std::make_unique<Impl>(d, turn, show)) {
  impl_->values = d.instance->win_lose_values();
  if (impl_->values) {
    impl_->values->check_turn(turn);  // a bad --turn is the caller's, named before any line
    return;
  }
  const ValueClaims* claims = d.instance->value_claims();
  if (!claims)
    throw UsageError("validate: " + d.db->identity().game + " values are not win/lose; validate reads win/lose claims");
  if (!turn.empty())
    throw UsageError("validate: the player to move (--turn, turn=) is for win/lose claims; " + d.db->identity().game +
                     " values do not depend on it");
  impl_->check_value.emplace(claims->claim_checker(*d.db));
}

ClaimTally::~ClaimTally() = default;

void ClaimTally::add(uint64_t lineno, const std::string& line) {
  ++impl_->rows;
  if (impl_->values)
    impl_->add_win_lose(lineno, line);
  else
    impl_->add_value(lineno, line);
}

uint64_t ClaimTally::rows() const { return impl_->rows; }

bool ClaimTally::clean() const { return impl_->disagree == 0 && impl_->unparseable == 0; }

std::string ClaimTally::no_claims(const std::string& from) {
  return "validate: no claim in " + from + " (only blank or # comment lines, or none): nothing was checked";
}

ojson ClaimTally::summary(const std::string& file) const {
  const Impl& t = *impl_;
  return ojson{{"file", file},
               {"rows", t.rows},
               {"agreeing", t.agree},
               {"disagreeing", t.disagree},
               {"unparseable", t.unparseable},
               {"firstDisagreements", t.firsts},
               {"firstUnparseable", t.bad_rows}};
}

std::string ClaimTally::text(const std::string& from, const std::string& db) const {
  const Impl& t = *impl_;
  std::string out = "validate " + from + " against " + db + ": " + std::to_string(t.rows) + " rows, " +
                    std::to_string(t.agree) + " agreeing, " + std::to_string(t.disagree) + " disagreeing, " +
                    std::to_string(t.unparseable) + " unparseable\n";
  for (const auto& f : t.firsts) {
    std::string claimed = f["claimedValue"].get<std::string>();
    if (t.values) {
      if (!f["claimedRemoteness"].is_null()) claimed += " " + dump(f["claimedRemoteness"]);
      claimed += ", actual " + f["value"].get<std::string>() + " " + dump(f["remoteness"]);
    } else {
      claimed += ", actual " + f["value"].get<std::string>();
    }
    out += "  line " + dump(f["line"]) + ": " + f["position"].get<std::string>() + " claimed " + claimed + "\n";
  }
  for (const auto& b : t.bad_rows)
    out += "  line " + dump(b["line"]) + " unparseable: " + b["error"].get<std::string>() + "\n";
  return out;
}

}  // namespace toadbase::tools
