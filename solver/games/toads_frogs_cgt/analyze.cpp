// analyze for a CGT database: one pass over every stored board (each stands for itself and,
// with fewer toads than frogs, its mirror, whose value is the negative).
//
//   distinct values by length   a value first met on a reduced board of m cells is the value
//                               of a board of every length >= m (dead pieces pad it), so the
//                               count for m is the values whose shortest board has <= m cells
//   census                      the boards of exactly n cells by kind and outcome class (a
//                               reduced board of m cells is the core of n - m + 1 of them,
//                               F^k X T^(n-m-k)), and the distinct values alike
//   hottest boards, longest printed forms   with the first board met that has each value
//   per tier                    each class of stored boards (a tier): its cells and pieces,
//                               boards, the distinct values among them, the forms its chunk
//                               of the table holds (first met there), its boards by outcome
//                               class (as stored: not counting mirrors)
//   laws                        the spec's laws over every board of 1..n cells: Death Leap
//                               and "contiguous pieces give an integer" hold for a board iff
//                               they hold for its reduced core (dead pieces add none of the
//                               patterns and no gap), so the reduced boards are checked;
//                               E1-E4 and T^a--F^a on every board of their families that fits
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "solver/games/toads_frogs_cgt/instance.hpp"

namespace toadbase::toads_frogs_cgt {

namespace {

using cgt::Dyadic;
using cgt::Kind;
using cgt::OutcomeClass;
using json = nlohmann::json;

constexpr int kKinds = 5, kOutcomes = 4;
constexpr size_t kCandidates = 256, kShown = 10;

OutcomeClass swapped(OutcomeClass o) {
  return o == OutcomeClass::L ? OutcomeClass::R : o == OutcomeClass::R ? OutcomeClass::L : o;
}

std::string repeat(char c, int k) { return std::string(static_cast<size_t>(std::max(k, 0)), c); }

/// A law over some boards: how many were checked, and the counterexamples.
struct Law {
  explicit Law(std::string n, std::string u = "boards") : name(std::move(n)), unit(std::move(u)) {}
  std::string name;
  std::string unit;  // what boardsChecked counts
  uint64_t checked = 0, failed = 0;
  std::vector<json> examples;  // the first few
  /// A counterexample (made only while fewer than kShown are kept).
  template <class Make>
  void fail(Make&& make) {
    ++failed;
    if (examples.size() < kShown) examples.push_back(make());
  }
  json to_json() const {
    return {{"law", name}, {"boardsChecked", checked}, {"checked", unit}, {"holds", failed == 0},
            {"counterexampleCount", failed}, {"counterexamples", examples}};
  }
};

/// The columns analyze reads, for every form of the table.
struct Columns {
  std::vector<uint32_t> info, temperature, mean, text_length, negative;
  std::vector<uint64_t> chunk_forms;  // [k]: the forms of class k's chunk

  int kind(uint32_t g) const { return static_cast<int>(info[g] >> 16 & 0xf); }
  OutcomeClass outcome(uint32_t g) const { return static_cast<OutcomeClass>(info[g] >> 20 & 3); }

  Columns(const TierSource& source, const TierLayout& lay, uint32_t classes, uint32_t F)
      : info(F), temperature(F), mean(F), text_length(F), negative(F), chunk_forms(classes) {
    for (uint32_t k = 0, at = 0; k < classes; ++k) {
      const std::vector<uint32_t> cols = source.load<uint32_t>(lay.forms(k));
      const size_t rows = cols.size() / kColumns;
      chunk_forms[k] = rows;
      auto copy = [&](Column c, std::vector<uint32_t>& to) {
        for (size_t r = 0; r < rows; ++r) to[at + r] = cols[r * kColumns + c];
      };
      copy(kInfo, info);
      copy(kTemperature, temperature);
      copy(kMean, mean);
      copy(kNegative, negative);
      for (size_t r = 0; r < rows; ++r) {  // the value's characters: the segment less the atomic weight's
        const uint32_t* row = cols.data() + r * kColumns;
        const uint64_t end = text_end(row), start = r ? text_end(row - kColumns) : 0;
        const uint32_t aw = row[kAtomicLength];
        text_length[at + r] = row[kInfo] & kTextNotStored
                                  ? aw  // a long form: its printed length
                                  : static_cast<uint32_t>(end - start - (aw == kNoAtomicWeight ? 0 : aw));
      }
      at += static_cast<uint32_t>(rows);
    }
    for (uint32_t g = 0; g < F; ++g)
      if (negative[g] >= F)
        throw std::runtime_error("form " + std::to_string(g) + " names a negative beyond the table (damaged)");
  }
};

/// Candidates for the hottest and the longest forms, and the first board met with each.
class Examples {
 public:
  Examples(const Columns& col, uint32_t F) {
    std::vector<uint32_t> order(F);
    for (uint32_t g = 0; g < F; ++g) order[g] = g;
    auto top = [&](auto key) {
      std::vector<uint32_t> o = order;
      const size_t k = std::min<size_t>(kCandidates, o.size());
      std::partial_sort(o.begin(), o.begin() + static_cast<ptrdiff_t>(k), o.end(),
                        [&](uint32_t a, uint32_t b) { return key(a) != key(b) ? key(a) > key(b) : a < b; });
      o.resize(k);
      return o;
    };
    hot = top([&](uint32_t g) { return unpack_dyadic(col.temperature[g]); });
    longest = top([&](uint32_t g) { return col.text_length[g]; });
    for (uint32_t g : hot) slot_.emplace(g, slot_.size());
    for (uint32_t g : longest) slot_.emplace(g, slot_.size());
    example_ = std::vector<std::atomic<uint64_t>>(slot_.size());
    for (auto& e : example_) e.store(UINT64_MAX);
  }

  /// Board i of class k (its mirror when `mirrored`) has form g: kept when it comes first.
  void note(uint32_t g, uint32_t k, uint64_t i, bool mirrored) {
    const auto it = slot_.find(g);
    if (it == slot_.end()) return;
    const uint64_t code = (uint64_t{k} << 40 | i) << 1 | static_cast<uint64_t>(mirrored);
    uint64_t seen = example_[it->second].load();
    while (code < seen && !example_[it->second].compare_exchange_weak(seen, code)) {
    }
  }

  /// The first board met with form g (none: a follower only, the value of no board).
  std::optional<std::string> board(const Boards& boards, uint32_t g) const {
    const uint64_t code = example_[slot_.at(g)].load();
    if (code == UINT64_MAX) return std::nullopt;
    const Board b = boards.unrank(static_cast<uint32_t>(code >> 41), (code >> 1) & ((uint64_t{1} << 40) - 1));
    return board_string(code & 1 ? mirror(b) : b);
  }

  std::vector<uint32_t> hot, longest;

 private:
  std::map<uint32_t, size_t> slot_;              // candidate form -> its example slot
  std::vector<std::atomic<uint64_t>> example_;  // (class << 40 | index) << 1 | mirrored
};

/// What the pass over the stored boards adds up, for the whole table or one range of a class.
struct Tally {
  uint64_t census[kKinds][kOutcomes] = {};
  uint64_t values = 0, outcomes[kOutcomes] = {};
  Law death, contiguous;
  explicit Tally(const std::string& checked)
      : death{"Death Leap: a board with none of T-, -F, TF--, --TF is 0", checked},
        contiguous{"a board whose pieces are contiguous has an integer value", checked} {}

  void add(const Tally& o) {
    values += o.values;
    for (int k = 0; k < kOutcomes; ++k) outcomes[k] += o.outcomes[k];
    for (int a = 0; a < kKinds; ++a)
      for (int k = 0; k < kOutcomes; ++k) census[a][k] += o.census[a][k];
    for (auto [law, from] : {std::pair{&death, &o.death}, std::pair{&contiguous, &o.contiguous}}) {
      law->checked += from->checked;
      for (const json& e : from->examples) law->fail([&] { return e; });
      law->failed += from->failed - from->examples.size();
    }
  }
};

/// The pass over every stored board, class by class.
class BoardPass {
 public:
  BoardPass(const Boards& boards, const FormReader& reader, const Columns& col, Examples& ex, uint32_t F)
      : shortest(F), boards_(boards), reader_(reader), col_(col), ex_(ex), F_(F), n_(boards.max_length()), last_class_(F),
        total(kChecked) {
    for (auto& s : shortest) s.store(UINT8_MAX);
    for (auto& l : last_class_) l.store(UINT32_MAX, std::memory_order_relaxed);
  }

  /// Class k's boards: their tally, added to the total, and its line of the per-tier table.
  json run_class(const TierSource& source, const TierLayout& lay, uint32_t k) {
    const BoardClass& c = boards_.cls(k);
    const std::vector<uint32_t> ids = source.load<uint32_t>(lay.board(k));
    for (uint32_t g : ids)
      if (g >= F_) throw std::runtime_error("class " + c.name() + " names a form beyond the table (damaged)");
    Tally cls(kChecked);
    tbb::parallel_for(tbb::blocked_range<uint64_t>(0, c.size, 4096), [&](const tbb::blocked_range<uint64_t>& r) {
      Tally mine(kChecked);
      for (uint64_t i = r.begin(); i != r.end(); ++i) board(k, c, i, ids[i], mine);
      std::lock_guard lock(mu_);
      cls.add(mine);
    });
    total.add(cls);
    json by_outcome = json::object();
    for (int o = 0; o < kOutcomes; ++o) by_outcome[std::string(1, "LRNP"[o])] = cls.outcomes[o];
    return {{"tier", c.name()},          {"cells", c.m},
            {"toads", c.t},              {"frogs", c.f},
            {"boards", c.size},          {"distinctValues", cls.values},
            {"forms", col_.chunk_forms[k]}, {"outcomeClasses", by_outcome}};
  }

  // checked on the stored boards, each for itself and its mirror: a board holds a pattern (or
  // a gap) iff its stripped core does, so these stand for every board
  static constexpr const char* kChecked = "boards stripped of dead pieces, and their mirrors";
  std::vector<std::atomic<uint8_t>> shortest;  // [g]: the fewest cells of a board with the value

 private:
  void board(uint32_t k, const BoardClass& c, uint64_t i, uint32_t g, Tally& mine) {
    // per tier: a form is counted in class k by the first board of k that finds it not yet
    // marked with k
    if (last_class_[g].load(std::memory_order_relaxed) != k && last_class_[g].exchange(k, std::memory_order_relaxed) != k)
      ++mine.values;
    ++mine.outcomes[static_cast<int>(col_.outcome(g))];
    const bool both = c.t < c.f;  // the mirror is not stored: it counts here
    const uint64_t weight = static_cast<uint64_t>(n_ - c.m + 1);
    for (int side = 0; side < (both ? 2 : 1); ++side) {
      const uint32_t x = side ? col_.negative[g] : g;
      uint8_t seen = shortest[x].load(std::memory_order_relaxed);
      while (c.m < seen && !shortest[x].compare_exchange_weak(seen, static_cast<uint8_t>(c.m))) {
      }
      const OutcomeClass o = side ? swapped(col_.outcome(g)) : col_.outcome(g);
      mine.census[col_.kind(g)][static_cast<int>(o)] += weight;
      ex_.note(x, k, i, side != 0);
    }
    laws(boards_.unrank(k, i), g, (1u << c.m) - 1, both ? 2 : 1, mine);
  }

  // Death Leap and the contiguous law on one stored board (`boards`: 2 with its mirror, for
  // which the patterns and 0 are the same)
  void laws(const Board& b, uint32_t g, uint32_t full, int boards, Tally& mine) const {
    const uint32_t empty = ~(b.toads | b.frogs) & full;
    const bool pattern = (b.toads & (empty >> 1)) || (b.frogs & (empty << 1)) ||
                         (b.toads & (b.frogs >> 1) & (empty >> 2) & (empty >> 3)) ||
                         (empty & (empty >> 1) & (b.toads >> 2) & (b.frogs >> 3));
    if (!pattern) {
      mine.death.checked += static_cast<uint64_t>(boards);
      if (g != 0)
        mine.death.fail([&] { return json{{"board", board_string(b)}, {"value", reader_.text(g)}, {"expected", "0"}}; });
    }
    const uint32_t occupied = b.toads | b.frogs;
    if (!occupied) return;
    const uint32_t run = occupied >> std::countr_zero(occupied);
    if ((run & (run + 1)) != 0) return;
    mine.contiguous.checked += static_cast<uint64_t>(boards);
    const bool integer = col_.kind(g) == static_cast<int>(Kind::Number) && unpack_dyadic(col_.mean[g]).is_integer();
    if (!integer)
      mine.contiguous.fail(
          [&] { return json{{"board", board_string(b)}, {"value", reader_.text(g)}, {"expected", "an integer"}}; });
  }

  const Boards& boards_;
  const FormReader& reader_;
  const Columns& col_;
  Examples& ex_;
  const uint32_t F_;
  const int n_;
  std::vector<std::atomic<uint32_t>> last_class_;
  std::mutex mu_;

 public:
  Tally total;
};

json census_json(const uint64_t (&cc)[kKinds][kOutcomes]) {
  const char* outcomes = "LRNP";
  json byk = json::object(), byo = json::object(), both = json::array();
  for (int a = 0; a < kKinds; ++a) {
    uint64_t s = 0;
    for (int o = 0; o < kOutcomes; ++o) s += cc[a][o];
    byk[std::string(cgt::kind_name(static_cast<Kind>(a)))] = s;
  }
  for (int o = 0; o < kOutcomes; ++o) {
    uint64_t s = 0;
    for (int a = 0; a < kKinds; ++a) s += cc[a][o];
    byo[std::string(1, outcomes[o])] = s;
  }
  for (int a = 0; a < kKinds; ++a)
    for (int o = 0; o < kOutcomes; ++o)
      if (cc[a][o])
        both.push_back({{"kind", std::string(cgt::kind_name(static_cast<Kind>(a)))},
                        {"outcomeClass", std::string(1, outcomes[o])},
                        {"count", cc[a][o]}});
  return json{{"byKind", byk}, {"byOutcomeClass", byo}, {"byKindAndOutcomeClass", both}};
}

/// The hottest boards (by_heat) or the longest printed forms, each with its first board.
json listed(const std::vector<uint32_t>& candidates, bool by_heat, const Columns& col, const Examples& ex,
            const Boards& boards, const FormReader& reader) {
  json out = json::array();
  for (uint32_t g : candidates) {
    if (out.size() >= kShown) break;
    if (by_heat && col.kind(g) != static_cast<int>(Kind::Hot)) continue;  // a number or a cold game is not hot
    const auto board = ex.board(boards, g);
    if (!board) continue;  // not the value of a board (a follower only)
    json e = {{"board", *board}};
    // a long form's text is not stored (forms.hpp): its board and length; query prints it
    if (!(col.info[g] & kTextNotStored)) e["value"] = reader.text(g);
    if (by_heat) {
      e["temperature"] = unpack_dyadic(col.temperature[g]).to_string();
      e["mean"] = unpack_dyadic(col.mean[g]).to_string();
    } else {
      e["characters"] = col.text_length[g];
    }
    out.push_back(e);
  }
  return out;
}

/// The families of the spec's laws, on every board of them with at most n cells; `stored(b)`
/// is a board's form.
template <class FormOf>
std::vector<Law> spec_families(int n, const FormReader& reader, FormOf&& stored) {
  cgt::FormTable t;
  std::vector<Law> families;
  auto family = [&](const std::string& name, auto&& each) {
    Law law{name};
    each(law);
    families.push_back(std::move(law));
  };
  auto expect = [&](Law& law, const std::string& board, const std::string& want) {
    ++law.checked;
    const std::string got = reader.text(stored(board));
    if (t.parse(got) != t.parse(want)) law.fail([&] { return json{{"board", board}, {"value", got}, {"expected", want}}; });
  };
  family("E1: T^a--F^b = {{a-3|a-b}|{*|3-b}} for a > b >= 2", [&](Law& law) {
    for (int b = 2; b + 1 + b + 2 <= n; ++b)
      for (int a = b + 1; a + b + 2 <= n; ++a)
        expect(law, repeat('T', a) + "--" + repeat('F', b),
               "{{" + std::to_string(a - 3) + "|" + std::to_string(a - b) + "}|{*|" + std::to_string(3 - b) + "}}");
  });
  family("E2: T^a---FF = (a-2)* for a >= 2", [&](Law& law) {
    for (int a = 2; a + 5 <= n; ++a) expect(law, repeat('T', a) + "---FF", std::to_string(a - 2) + "*");
  });
  family("E3: T^a---FFF = a - 7/2 for a >= 5", [&](Law& law) {
    for (int a = 5; a + 6 <= n; ++a) expect(law, repeat('T', a) + "---FFF", std::to_string(2 * a - 7) + "/2");
  });
  family("E4: T^a -^a F^(a-1) = 1 or 1*", [&](Law& law) {
    for (int a = 1; 3 * a - 1 <= n; ++a) {
      const std::string board = repeat('T', a) + repeat('-', a) + repeat('F', a - 1);
      ++law.checked;
      const std::string got = reader.text(stored(board));
      const cgt::FormId g = t.parse(got);
      if (g != t.parse("1") && g != t.parse("1*"))
        law.fail([&] { return json{{"board", board}, {"value", got}, {"expected", "1 or 1*"}}; });
    }
  });
  family("T^a--F^a is infinitesimal (both stops 0) for a >= 4", [&](Law& law) {
    for (int a = 4; 2 * a + 2 <= n; ++a) {
      const std::string board = repeat('T', a) + "--" + repeat('F', a);
      ++law.checked;
      const StoredForm f = reader.read(stored(board));
      if (f.left_stop != Dyadic(0) || f.right_stop != Dyadic(0))
        law.fail([&] { return json{{"board", board}, {"value", f.text}, {"expected", "both stops 0"}}; });
    }
  });
  family("TTT--FFF is hot", [&](Law& law) {
    if (n < 8) return;
    ++law.checked;
    const StoredForm f = reader.read(stored("TTT--FFF"));
    if (f.kind != Kind::Hot) law.fail([&] { return json{{"board", "TTT--FFF"}, {"value", f.text}, {"expected", "hot"}}; });
  });
  return families;
}

/// The analysis for people, line by line, from its JSON.
json report_lines(const json& out, int n, uint64_t text_cap) {
  json report = json::array();
  report.push_back("boards stored: " + out["positions"].dump() + " (every board of 1.." + std::to_string(n) +
                   " cells up to dead pieces and mirror), " + out["forms"].dump() + " forms in the table");
  report.push_back("distinct values by length (boards of exactly m cells):");
  std::string line = " ";
  for (const auto& r : out["distinctValuesByLength"]) line += " " + r["length"].dump() + ":" + r["values"].dump();
  report.push_back(line);
  const json &boards = out["censusOfBoards"], &values = out["censusOfValues"];
  report.push_back("census of the " + out["boards"].dump() + " boards of " + std::to_string(n) +
                   " cells (and of the distinct values):");
  for (int a = 0; a < kKinds; ++a) {
    const std::string k(cgt::kind_name(static_cast<Kind>(a)));
    report.push_back("  " + k + repeat(' ', 26 - static_cast<int>(k.size())) + boards["byKind"][k].dump() + " boards, " +
                     values["byKind"][k].dump() + " values");
  }
  for (int o = 0; o < kOutcomes; ++o) {
    const std::string k(1, "LRNP"[o]);
    report.push_back("  outcome class " + k + repeat(' ', 11) + boards["byOutcomeClass"][k].dump() + " boards, " +
                     values["byOutcomeClass"][k].dump() + " values");
  }
  report.push_back("hottest boards:");
  for (const auto& e : out["hottestBoards"])
    report.push_back("  " + e["board"].get<std::string>() + "  temperature " + e["temperature"].get<std::string>() +
                     ", mean " + e["mean"].get<std::string>() + "  " +
                     (e.contains("value") ? e["value"].get<std::string>() : "(a long form: query prints it)"));
  report.push_back("longest printed forms (" + out["longForms"]["count"].dump() + " forms print longer than " +
                   std::to_string(text_cap) + " characters: their text is printed when queried):");
  for (const auto& e : out["longestForms"])
    report.push_back("  " + e["board"].get<std::string>() + "  " + e["characters"].dump() + " characters");
  report.push_back("laws:");
  for (const auto& l : out["laws"]) {
    report.push_back("  " + std::string(l["holds"].get<bool>() ? "holds" : "FAILS") + " over " +
                     l["boardsChecked"].dump() + " " + l["checked"].get<std::string>() + ": " + l["law"].get<std::string>());
    for (const auto& e : l["counterexamples"])
      report.push_back("      " + e["board"].get<std::string>() + " = " + e["value"].get<std::string>() + ", expected " +
                       e["expected"].get<std::string>());
  }
  return report;
}

}  // namespace

json CgtInstance::analyze(const TierSource& source) const {
  const TierLayout lay = layout();
  const uint32_t classes = boards_.class_count();
  const int n = boards_.max_length();
  const FormReader reader(source, lay);
  const uint32_t F = reader.count();
  const Columns col(source, lay, classes, F);
  Examples ex(col, F);

  BoardPass pass(boards_, reader, col, ex, F);
  json per_tier = json::array();
  for (uint32_t k = 0; k < classes; ++k) per_tier.push_back(pass.run_class(source, lay, k));
  uint64_t(&census)[kKinds][kOutcomes] = pass.total.census;
  // the boards F^k T^j (no core): n + 1 of them, 0
  census[static_cast<int>(Kind::Number)][static_cast<int>(OutcomeClass::P)] += static_cast<uint64_t>(n) + 1;

  // distinct values by length, and by kind and outcome class
  std::vector<uint64_t> first_at(static_cast<size_t>(n) + 2, 0);
  uint64_t values_census[kKinds][kOutcomes] = {};
  uint64_t distinct = 0;
  for (uint32_t g = 0; g < F; ++g) {
    const uint8_t s = pass.shortest[g].load();
    if (s == UINT8_MAX) continue;
    ++first_at[s];
    ++distinct;
    ++values_census[col.kind(g)][static_cast<int>(col.outcome(g))];
  }
  json by_length = json::array();
  uint64_t running = 0;
  for (int m = 1; m <= n; ++m) {
    running += first_at[m];
    by_length.push_back({{"length", m}, {"values", running}});
  }

  json laws = json::array({pass.total.death.to_json(), pass.total.contiguous.to_json()});
  auto stored = [&](const std::string& board) { return form_of(source, reader, parse_board(board)); };
  for (const Law& l : spec_families(n, reader, stored)) laws.push_back(l.to_json());
  json out = {{"game", "toads-frogs-cgt"},
              {"parameters", params_},
              {"positions", boards_.total()},
              {"forms", F},
              {"distinctValues", distinct},
              {"distinctValuesByLength", by_length},
              {"censusOfBoards", census_json(census)},
              {"censusOfValues", census_json(values_census)},
              {"hottestBoards", listed(ex.hot, true, col, ex, boards_, reader)},
              {"longestForms", listed(ex.longest, false, col, ex, boards_, reader)},
              {"laws", laws},
              {"tiers", per_tier}};
  // the forms whose text is not stored (forms.hpp, LONG FORMS)
  uint32_t long_forms = 0;
  for (uint32_t g = 0; g < F; ++g) long_forms += (col.info[g] & kTextNotStored) != 0;
  out["longForms"] = {{"count", long_forms}, {"textCap", text_cap()}};
  uint64_t boards_of_n = 0;
  for (int a = 0; a < kKinds; ++a)
    for (int o = 0; o < kOutcomes; ++o) boards_of_n += census[a][o];
  out["boards"] = boards_of_n;  // 3^n: checked by the tests
  out["report"] = report_lines(out, n, text_cap());
  return out;
}

}  // namespace toadbase::toads_frogs_cgt
