// The CGT database (solver/games/toads_frogs_cgt): every board's stored value against the
// oracle of cgt_oracle.hpp (canonical forms by the book, minimax), the literature's values,
// the algebra's identities over every stored form, the outcome class of every board against
// the win/lose database, deterministic digests (threads, interrupted solves), verify catching
// damage, and the command line (solve, query, cgt sum, analyze, verify).
#include <catch2/catch.hpp>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <thread>

#include "cgt_oracle.hpp"
#include "db/database.hpp"
#include "pass_reads.hpp"
#include "solver/cgt/cgt.hpp"
#include "solver/games/toads_frogs_cgt/boards.hpp"
#include "solver/games/toads_frogs_cgt/find.hpp"
#include "solver/games/toads_frogs_cgt/forms.hpp"
#include "solver/games/toads_frogs_cgt/instance.hpp"
#include "solver/games/toads_frogs_cgt/solver.hpp"
#include "serve_support.hpp"
#include "support.hpp"
#include "tools/open.hpp"
#include "tools/registry.hpp"

using namespace tbtest;
using namespace cgt_oracle;
using json = nlohmann::json;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using toadbase::TierId;
using toadbase::cgt::OutcomeClass;

namespace {

namespace cgtdb = toadbase::toads_frogs_cgt;

/// A store that passes commits on, and can stop (a crash) or change a record on the way.
class Tap : public tbtest::PassReads<toadbase::TierStore> {
 public:
  explicit Tap(toadbase::TierStore& inner) : PassReads(inner) {}
  void commit_tier(TierId t, const void* r, uint64_t count, uint64_t keep) override {
    if (commits_left == 0) throw std::runtime_error("the tap stops here (a crash)");
    --commits_left;
    std::vector<uint32_t> words(static_cast<const uint32_t*>(r), static_cast<const uint32_t*>(r) + count);
    if (change) change(t, words);
    inner_.commit_tier(t, words.data(), count, keep);
  }
  uint64_t commits_left = UINT64_MAX;
  std::function<void(TierId, std::vector<uint32_t>&)> change;
};

const toadbase::tools::Game& cgt_game() { return *toadbase::tools::find_game("toads-frogs-cgt"); }

/// Solves every board of 1..n cells into `path` (through `tap` when given); the digest.
/// `compact_floor`: the form table compacted from that many forms (the solver's own floor when
/// not given), and how the table went in `table`.
std::string solve(const std::string& path, int n, int threads = 0,
                  const std::function<void(Tap&)>& setup = nullptr, std::optional<int> text_cap = std::nullopt,
                  std::optional<uint64_t> compact_floor = std::nullopt, cgtdb::TableStats* table = nullptr) {
  json given = {{"length", n}};
  if (text_cap) given["text-cap"] = *text_cap;
  const auto inst = cgt_game().instance(cgt_game().normalize(given));
  auto d = toadbase::db::Database::open_for_solve(path, inst->identity(), inst->tiers(), 3);
  Tap tap(*d);
  if (setup) setup(tap);
  if (compact_floor)
    toadbase::with_threads(threads, [&] {
      return cgtdb::solve_database(cgtdb::Boards(n), tap, nullptr, cgtdb::kTextCap, *compact_floor, table);
    });
  else
    toadbase::with_threads(threads, [&] { return inst->solve(tap, nullptr); });
  d->finish(inst->tiers());
  return toadbase::db::hex64(d->digest());
}

/// A solved database, opened as every way in opens it.
struct Solved {
  Solved(const std::string& tag, int n) : dir(tag) {
    solve(dir / "db", n);
    opened = toadbase::tools::open_database(dir / "db");
  }
  json query(const std::string& board) const { return json(opened.instance->query(*opened.db, board, "")); }
  TempDir dir;
  toadbase::tools::Opened opened;
};

const cgtdb::CgtInstance& cgt_of(const Solved& s) { return dynamic_cast<const cgtdb::CgtInstance&>(*s.opened.instance); }

/// Every stored form made in `t` (in id order, as verify does), its engine id by database id.
std::vector<FormId> table_of(const Solved& s, FormTable& t) {
  const cgtdb::TierLayout lay = cgt_of(s).layout();
  cgtdb::Numbering ids(t);
  for (uint32_t k = 0; k < lay.classes; ++k)
    cgtdb::build_forms(t, ids,
                       cgtdb::decode_forms(s.opened.db->load<uint32_t>(lay.forms(k)),
                                           s.opened.db->load<uint32_t>(lay.options(k)), nullptr, "chunk"),
                       "chunk");
  std::vector<FormId> out;
  for (uint32_t i = 0; i < ids.count(); ++i) out.push_back(ids.form(i));
  return out;
}

char outcome_letter(bool left_wins_first, bool right_wins_first) {
  return left_wins_first ? (right_wins_first ? 'N' : 'L') : (right_wins_first ? 'R' : 'P');
}

std::string str(json j) { return j.get<std::string>(); }

}  // namespace

// ---- values ---------------------------------------------------------------------------

TEST_CASE("cgt database: every board of 1..8 cells has the oracle's canonical form and minimax outcome class",
          "[cgt][cgt-db]") {
  Solved s("cgt-oracle", 8);
  Oracle o;
  OracleBoards games{o, {}};
  Minimax minimax;
  FormTable t;
  uint64_t boards = 0;
  for (int m = 1; m <= 8; ++m)
    for (const std::string& b : cgt_oracle::all_boards(m)) {
      INFO(b);
      const json j = s.query(b);
      REQUIRE(str(j["board"]) == b);
      const FormId g = t.parse(str(j["value"]));
      REQUIRE(o.from_engine(t, g) == o.canonical(games.game(b)));
      CHECK(str(j["outcomeClass"]) == std::string(1, outcome_letter(minimax.wins_first(b, true), minimax.wins_first(b, false))));
      // the stored columns read back as the engine computes them from the value alone
      CHECK(str(j["leftStop"]) == t.left_stop(g).to_string());
      CHECK(str(j["rightStop"]) == t.right_stop(g).to_string());
      CHECK(str(j["kind"]) == std::string(toadbase::cgt::kind_name(t.kind(g))));
      CHECK(j["birthday"] == t.birthday(g));
      CHECK(str(j["mean"]) == t.mean(g).to_string());
      if (t.kind(g) != toadbase::cgt::Kind::Number) CHECK(str(j["temperature"]) == t.temperature(g).to_string());
      const auto aw = t.atomic_weight(g);
      CHECK(j.contains("atomicWeight") == aw.has_value());
      if (aw) CHECK(t.parse(str(j["atomicWeight"])) == *aw);
      // each player's moves: the oracle's children, each with its own value
      for (const bool toads : {true, false}) {
        std::multiset<std::string> want, got;
        for (const std::string& c : moves(b, toads)) want.insert(c);
        for (const json& mv : j[toads ? "leftMoves" : "rightMoves"]) {
          got.insert(str(mv["board"]));
          CHECK(o.from_engine(t, t.parse(str(mv["value"]))) == o.canonical(games.game(str(mv["board"]))));
        }
        CHECK(got == want);
      }
      ++boards;
    }
  CHECK(boards == (3 * 6561 - 3) / 2);  // 3 + 9 + ... + 3^8
}

namespace {

/// A store that passes everything to another and notes each record read that no prefetch
/// named before it.
class Unhinted : public tbtest::PassReads<toadbase::TierSource, const toadbase::TierSource> {
 public:
  explicit Unhinted(const toadbase::TierSource& in) : PassReads(in) {}
  void read_record(TierId t, uint64_t i, void* out) const override {
    note(t, i, 1);
    inner_.read_record(t, i, out);
  }
  void read_records(TierId t, uint64_t first, uint64_t count, void* out) const override {
    note(t, first, count);
    inner_.read_records(t, first, count, out);
  }
  void prefetch(std::span<const toadbase::RecordRun> runs) const override {
    hinted_.insert(hinted_.end(), runs.begin(), runs.end());
    inner_.prefetch(runs);
  }
  /// Records read unnamed, by tier, since the last clear().
  mutable std::map<TierId, uint64_t> missed;
  void clear() {
    missed.clear();
    hinted_.clear();
  }

 private:
  void note(TierId t, uint64_t first, uint64_t count) const {
    for (uint64_t i = first; i < first + count; ++i) {
      bool named = false;
      for (const auto& r : hinted_) named = named || (r.tier == t && i >= r.first && i - r.first < r.count);
      if (!named) ++missed[t];
    }
  }
  mutable std::vector<toadbase::RecordRun> hinted_;
};

}  // namespace

TEST_CASE("cgt database: a query names the records of each step before reading them (the boards' form ids, the "
          "forms' rows, the children's texts)",
          "[cgt][cgt-db]") {
  // what lets a cold database fetch a step's scattered blocks together: a query that read a
  // record no prefetch named (a board's id, a row, a child's text) would read it alone
  Solved s("cgt-prefetch", 8);
  const cgtdb::TierLayout lay = cgt_of(s).layout();
  Unhinted src(*s.opened.db);
  uint64_t boards = 0, weighted = 0;
  for (const std::string& b : cgt_oracle::all_boards(8)) {
    INFO(b);
    src.clear();
    const json j = json(s.opened.instance->query(src, b, ""));
    REQUIRE(j == s.query(b));  // the same answer as read straight from the database
    uint64_t rows = 0, texts = 0, ids = 0;
    for (const auto& [t, n] : src.missed) {
      if (t < lay.classes) ids += n;
      else if (t < 2 * lay.classes) rows += n;
      else if (t >= 3 * lay.classes) texts += n;  // options: the board's own, read as one run
    }
    CHECK(ids == 0);
    CHECK(rows == 0);
    // the board's own atomic weight is read after its value, not named
    CHECK((texts == 0 || j.contains("atomicWeight")));
    weighted += j.contains("atomicWeight");
    // serve's size of the answer, asked first, reads the same steps
    src.clear();
    (void)s.opened.instance->query_bytes(src, b, "");
    CHECK(src.missed.empty());
    ++boards;
  }
  CHECK(boards == 6561);
  CHECK(weighted > 0);
}

TEST_CASE("cgt database: a chunk's text held compressed frame by frame reads back whole, through a database's "
          "runs on every core and through a store that asks for it at once",
          "[cgt][cgt-db]") {
  using cgtdb::ChunkWriter;
  using cgtdb::StoredForm;
  TempDir dir("cgt-chunk-text");
  const toadbase::Identity id{"chunks", json::object(), "u32", 4, 4096};
  const std::vector<toadbase::TierInfo> tiers{
      {"c.forms", toadbase::kSizedBySolve}, {"c.options", toadbase::kSizedBySolve}, {"c.text", toadbase::kSizedBySolve}};
  // forms whose texts are the CGT notation's characters, repeated as printed forms repeat
  // themselves; some longer than a frame, some crossing a frame's end; `exact`: the text
  // ends on a frame's end (no open frame at the commit)
  auto make_forms = [](uint64_t seed, bool exact) {
    std::mt19937_64 rng(seed);
    const std::string pieces[] = {"{0|*}", "{1/2|{0||-1}}", "^*", "v3*2", "+-{1,{2|0}}", "{", "|", "}", ",", "Tiny(2)"};
    std::vector<StoredForm> forms;
    uint64_t total = 0;
    while (total < 3 * ChunkWriter::kTextFrame) {
      StoredForm f;
      const uint64_t want = forms.size() % 97 == 5 ? ChunkWriter::kTextFrame + rng() % 4096 : rng() % 3000;
      while (f.text.size() < want) f.text += pieces[rng() % std::size(pieces)];
      if (rng() % 3 == 0) f.atomic_weight = pieces[rng() % std::size(pieces)];
      uint64_t size = f.text.size() + (f.atomic_weight ? f.atomic_weight->size() : 0);
      if (exact && total + size > 3 * ChunkWriter::kTextFrame) {  // the last one fills to the frame's end
        f.atomic_weight.reset();
        f.text.resize(3 * ChunkWriter::kTextFrame - total, '*');
        size = f.text.size();
      }
      f.left = {static_cast<uint32_t>(forms.size() % 7)};
      f.right = {1, static_cast<uint32_t>(2 + forms.size() % 5)};
      f.left_stop = toadbase::cgt::Dyadic::fraction(static_cast<int64_t>(rng() % 64) - 32, static_cast<int>(rng() % 4));
      f.right_stop = f.mean = f.temperature = f.left_stop;
      f.birthday = static_cast<unsigned>(rng() % 40);
      f.negative = static_cast<uint32_t>(forms.size());
      forms.push_back(std::move(f));
      total += size;
    }
    return std::pair{forms, total};
  };
  for (const bool exact : {false, true}) {
    for (const bool at_once : {true, false}) {
      INFO("text ending on a frame's end: " << exact << ", the store asks for the text at once: " << at_once);
      // another text for each commit: a frame cache that outlived its commit would read
      // the previous text's characters (the database's runs come on every core after
      // commits that left each thread's cache on some frame)
      const auto [forms, total] = make_forms(7 + 2 * exact + at_once, exact);
      REQUIRE((total % ChunkWriter::kTextFrame == 0) == exact);
      const std::string path = dir / ("db" + std::to_string(exact) + std::to_string(at_once));
      {
        auto d = toadbase::db::Database::open_for_solve(path, id, tiers, 3);
        Tap tap(*d);  // commits whole tiers through commit_tier: commit_tier_from's default
        ChunkWriter w;
        for (size_t from = 0; from < forms.size(); from += 37)
          w.append(std::span(forms).subspan(from, std::min<size_t>(37, forms.size() - from)));
        CHECK(w.text_size() == total);
        // held compressed: the frames in under a third of their characters (about a fifth
        // here), and the open one
        CHECK(w.text_held_bytes() < total / 3 + ChunkWriter::kTextFrame);
        if (at_once)
          w.commit(tap, 0, 1, 2);
        else
          w.commit(*d, 0, 1, 2);
        CHECK(w.text_size() == 0);
        CHECK(w.text_held_bytes() < 64);  // an empty string's own
        d->finish(tiers);
      }
      auto d = toadbase::db::Database::open_read_only(path);
      const std::vector<uint32_t> text = d->load<uint32_t>(2);
      CHECK(text.size() == total);
      const std::vector<StoredForm> back = cgtdb::decode_forms(d->load<uint32_t>(0), d->load<uint32_t>(1), &text, "chunk");
      REQUIRE(back.size() == forms.size());
      for (size_t i = 0; i < forms.size(); ++i)
        if (!(back[i] == forms[i])) FAIL("form " << i << " read back differs");
    }
  }
}

TEST_CASE("cgt database: the literature's values (the spec's list, Erickson, CGSuite)", "[cgt][cgt-db][literature]") {
  Solved s("cgt-literature", 12);
  FormTable t;
  const std::vector<std::pair<std::string, std::string>> known = {
      {"T-F", "*"},         {"-TF", "0"},          {"F-T", "0"},        {"-TTF", "0"},       {"FT-", "1"},
      {"TFT-", "1"},        {"T-TF", "1/2"},       {"TFTF-", "0"},      {"TFF-T", "0"},      {"TF-TF", "0"},
      {"F-TTF", "0"},       {"-TTFF", "0"},        {"TTFF", "0"},       {"TFT-F", "*"},      {"T-TFF", "^"},
      {"TTTF-F", "{{1/4|0}|0}"}, {"TTTF-F", "Miny(1/4)"}, {"TT---F", "2*"}, {"TFTF-TF", "0"}, {"TFTFTF-", "0"},
      {"TFTFT-F", "*"},     {"TF-TTFF", "0"},      {"TFT-TFF", "^"},    {"-TTFTFF", "0"},    {"T-TFTFF", "{0|^}"},
      {"T--FF", "-1"},      {"T---F", "*"},        {"T-FF", "{0|-1/2}"},
      {"TTTTT--FFFFF",
       "+-{{2|*},{5/2||2|{0||||{0||v<2>|-1},{0||||0||Miny(1/32)|-2|||-1/2*}|||v<2>|-1/2||-1*}|||0}}"}};
  for (const auto& [board, value] : known) {
    INFO(board << " = " << value);
    CHECK(t.parse(str(s.query(board)["value"])) == t.parse(value));
  }
  // the issue's example line, field by field
  const std::string line = s.opened.instance->query(*s.opened.db, "T-TFF", "").dump();
  CHECK(line.starts_with(R"({"board":"T-TFF","value":"^","outcomeClass":"L","leftStop":"0","rightStop":"0",)"
                             R"("mean":"0","temperature":"0","kind":"infinitesimal","birthday":2,"atomicWeight":"1",)"));
  // a mirrored board is the negative; dead pieces change nothing; who moves does not matter
  CHECK(t.parse(str(s.query("TT-FFF")["value"])) == t.negate(t.parse(str(s.query("TTT-FF")["value"]))));
  CHECK(str(s.query("FFT-TFFTT")["value"]) == "^");
  CHECK(str(s.query("1_T-TFF")["value"]) == "^");
  CHECK(str(s.query("2_T-TFF")["value"]) == "^");
  CHECK(str(s.query("FT")["value"]) == "0");
}

TEST_CASE("cgt database: identities over every stored form and every board of 10 cells", "[cgt][cgt-db][identities]") {
  Solved s("cgt-identities", 10);
  FormTable t;
  const std::vector<FormId> forms = table_of(s, t);
  REQUIRE(forms.size() > 1000);
  const FormId zero = FormTable::zero();
  std::vector<FormId> nimbers;
  for (const FormId g : forms) {
    INFO(t.to_string(g));
    // G + (-G) = 0
    REQUIRE(t.sum(g, t.negate(g)) == zero);
    // canonical: no dominated option, no reversible option
    const auto l = t.left(g), r = t.right(g);
    for (FormId x : l)
      for (FormId y : l) REQUIRE((x == y || !t.leq(x, y)));
    for (FormId x : r)
      for (FormId y : r) REQUIRE((x == y || !t.leq(y, x)));
    for (FormId x : l)
      for (FormId y : t.right(x)) REQUIRE_FALSE(t.leq(y, g));
    for (FormId x : r)
      for (FormId y : t.left(x)) REQUIRE_FALSE(t.leq(g, y));
    if (t.is_nimber(g)) nimbers.push_back(g);
  }
  // the table is closed under negation
  std::set<FormId> all(forms.begin(), forms.end());
  for (const FormId g : forms) REQUIRE(all.count(t.negate(g)));
  // *a + *b = *(a xor b)
  REQUIRE(nimbers.size() >= 2);
  for (const FormId a : nimbers)
    for (const FormId b : nimbers) {
      const unsigned x = t.number_up_star_value(a)->nim, y = t.number_up_star_value(b)->nim;
      REQUIRE(t.sum(a, b) == t.nimber(x ^ y));
    }
  // sums commutative and associative on samples
  std::mt19937 rng(5);
  for (int i = 0; i < 300; ++i) {
    const FormId a = forms[rng() % forms.size()], b = forms[rng() % forms.size()], c = forms[rng() % forms.size()];
    REQUIRE(t.sum(a, b) == t.sum(b, a));
    REQUIRE(t.sum(t.sum(a, b), c) == t.sum(a, t.sum(b, c)));
  }
  // every board of 10 cells: its mirror's value is its negative
  for (const std::string& b : cgt_oracle::all_boards(10)) {
    const FormId g = t.parse(str(s.query(b)["value"]));
    REQUIRE(t.parse(str(s.query(mirror(b))["value"])) == t.negate(g));
  }
}

TEST_CASE("cgt database: the outcome class of every board of 10 cells is the win/lose database's", "[cgt][cgt-db]") {
  Solved s("cgt-outcome", 10);
  TempDir dir("cgt-outcome-tf");
  {
    const auto& tf = *toadbase::tools::find_game("toads-frogs");
    const auto inst = tf.instance(tf.normalize({{"length", 10}}));
    auto d = toadbase::db::Database::open_for_solve(dir / "tf", inst->identity(), inst->tiers(), 3);
    toadbase::with_threads(0, [&] { return inst->solve(*d, nullptr); });
    d->finish(inst->tiers());
  }
  const auto wl = toadbase::tools::open_database(dir / "tf");
  std::map<char, uint64_t> seen;
  for (const std::string& b : cgt_oracle::all_boards(10)) {
    INFO(b);
    const bool left_first = wl.instance->win_lose_values()->value(*wl.db, "1_" + b, "").second.value == toadbase::Value::Win;
    const bool right_first = wl.instance->win_lose_values()->value(*wl.db, "2_" + b, "").second.value == toadbase::Value::Win;
    const char want = outcome_letter(left_first, right_first);
    REQUIRE(str(s.query(b)["outcomeClass"]) == std::string(1, want));
    ++seen[want];
  }
  CHECK(seen.size() == 4);  // every class met
}

// ---- deterministic ids ----------------------------------------------------------------

TEST_CASE("cgt database: one digest for 1 and 2 threads and for solves interrupted anywhere", "[cgt][cgt-db]") {
  TempDir dir("cgt-digest");
  const int n = 9;
  const std::string one = solve(dir / "one", n, 1), two = solve(dir / "two", n, 2);
  CHECK(one == two);
  {
    // straight into the database, which packs each chunk's text from its bytes a block's run
    // at a time (the Tap above takes each tier whole): the same tiers
    const auto inst = cgt_game().instance(cgt_game().normalize(json{{"length", n}}));
    auto d = toadbase::db::Database::open_for_solve(dir / "direct", inst->identity(), inst->tiers(), 3);
    toadbase::with_threads(2, [&] { return inst->solve(*d, nullptr); });
    d->finish(inst->tiers());
    CHECK(toadbase::db::hex64(d->digest()) == one);
  }
  const uint32_t classes = toadbase::toads_frogs_cgt::Boards(n).class_count();
  for (const uint64_t stop : {uint64_t{0}, uint64_t{1}, uint64_t{2}, uint64_t{7}, uint64_t{3 * classes / 2},
                              uint64_t{3 * classes - 2}}) {
    DYNAMIC_SECTION("interrupted after " << stop << " commits") {
      const std::string path = dir / ("cut" + std::to_string(stop));
      CHECK_THROWS_WITH(solve(path, n, 2, [&](Tap& tap) { tap.commits_left = stop; }), Contains("a crash"));
      CHECK(solve(path, n, 2) == one);
      const auto o = toadbase::tools::open_database(path);
      const auto rep = toadbase::with_threads(0, [&] { return o.instance->verify(*o.db, nullptr); });
      CHECK(rep.ok);
    }
  }
}

TEST_CASE("cgt database: a numbered form let go and made again gets its id back, every time", "[cgt][compact]") {
  FormTable t;
  cgtdb::Numbering ids(t);
  ids.number(FormTable::zero());
  const std::vector<std::string> values{"{1|*}", "^*", "{2||1|0}", "+-{1,{3|2}}", "1/8"};
  std::vector<uint32_t> first;
  for (const auto& v : values) first.push_back(ids.number(t.parse(v)));
  const uint32_t count = ids.count();
  for (int round = 0; round < 3; ++round) {
    const std::vector<FormId> new_id = t.survivors({});  // 0 alone stays
    ids.let_go(new_id);
    t.compact(new_id);
    REQUIRE(t.size() == 1);
    for (uint32_t i = 1; i < count; ++i) CHECK(ids.form(i) == kNoForm);
    // made again, in another order: the same ids, none new
    for (size_t i = values.size(); i-- > 0;) CHECK(ids.number(t.parse(values[i])) == first[i]);
    CHECK(ids.count() == count);
    for (uint32_t i = 0; i < count; ++i) CHECK(ids.id(ids.form(i)) == std::optional<uint32_t>(i));
  }
  CHECK(ids.made_again() >= 3 * values.size());
  CHECK(ids.prints() == count - 1);
  // a form never numbered is new, after its options new here
  CHECK(ids.number(t.parse("*7")) >= count);
  CHECK(ids.count() > count);
}

TEST_CASE("cgt database: a solve that lets forms go (the table compacted at nearly every class) "
          "writes the same database on 1 and 2 threads and resumed",
          "[cgt][cgt-db][compact]") {
  TempDir dir("cgt-compact");
  const int n = 10;
  cgtdb::TableStats whole, one, two;
  const std::string kept = solve(dir / "kept", n, 2, nullptr, std::nullopt, cgtdb::kCompactFloor, &whole);
  CHECK(whole.compactions == 0);  // a table of 10 cells stays below the floor
  CHECK(solve(dir / "one", n, 1, nullptr, std::nullopt, 0, &one) == kept);
  CHECK(solve(dir / "two", n, 2, nullptr, std::nullopt, 0, &two) == kept);
  // one thread pauses after the same classes every run; two as their classes end
  CHECK(one.compactions > 10);
  CHECK(one.forms_let_go > whole.largest);  // forms let go, made again, let go again
  CHECK(one.forms_made_again > 0);          // some made again, with their ids back
  for (const auto& s : {one, two}) {
    CHECK(s.compactions > 0);
    CHECK(s.forms_let_go > 0);
    CHECK(s.prints > 0);
    CHECK(s.largest < whole.largest);
  }
  const uint32_t classes = cgtdb::Boards(n).class_count();
  for (const uint64_t stop : {uint64_t{5}, uint64_t{3 * classes / 2}}) {
    DYNAMIC_SECTION("interrupted after " << stop << " commits") {
      const std::string path = dir / ("cut" + std::to_string(stop));
      CHECK_THROWS_WITH(solve(path, n, 2, [&](Tap& tap) { tap.commits_left = stop; }, std::nullopt, 0),
                        Contains("a crash"));
      cgtdb::TableStats resumed;
      CHECK(solve(path, n, 2, nullptr, std::nullopt, 0, &resumed) == kept);
      CHECK(resumed.compactions > 0);
    }
  }
}

// ---- verify ---------------------------------------------------------------------------

TEST_CASE("cgt database: verify recomputes every form and every board, and catches a wrong one", "[cgt][cgt-db]") {
  TempDir dir("cgt-verify");
  const int n = 8;
  const toadbase::toads_frogs_cgt::Boards boards(n);
  const uint32_t classes = boards.class_count();
  auto verify = [&](const std::string& path) {
    const auto o = toadbase::tools::open_database(path);
    return toadbase::with_threads(0, [&] { return o.instance->verify(*o.db, nullptr); });
  };
  solve(dir / "good", n);
  const auto good = verify(dir / "good");
  CHECK(good.ok);
  CHECK(good.positions_checked == boards.total());
  // the largest class of 8 cells: one board's form id swapped for another's
  const auto [lo, hi] = boards.classes_of_length(n);
  (void)hi;
  solve(dir / "board", n, 0, [&](Tap& tap) {
    tap.change = [&](TierId t, std::vector<uint32_t>& w) {
      if (t == lo) std::swap(w[10], *std::find_if(w.begin(), w.end(), [&](uint32_t x) { return x != w[10]; }));
    };
  });
  auto bad = verify(dir / "board");
  CHECK_FALSE(bad.ok);
  CHECK_THAT(bad.problem, Contains("class " + boards.cls(lo).name()) && Contains("recomputed from its children"));
  // a form's text, one character off
  solve(dir / "text", n, 0, [&](Tap& tap) {
    tap.change = [&](TierId t, std::vector<uint32_t>& w) {
      if (t == 3 * classes + lo) w[0] = w[0] == '{' ? '<' : '{';
    };
  });
  bad = verify(dir / "text");
  CHECK_FALSE(bad.ok);
  CHECK_THAT(bad.problem, Contains("its stored text"));
  // a form's stored temperature, one step off
  solve(dir / "column", n, 0, [&](Tap& tap) {
    tap.change = [&](TierId t, std::vector<uint32_t>& w) {
      if (t == classes + lo && !w.empty()) w[cgtdb::kTemperature] += 64;  // the first form's
    };
  });
  bad = verify(dir / "column");
  CHECK_FALSE(bad.ok);
  CHECK_THAT(bad.problem, Contains("mean or temperature"));
  // a form that is not canonical: an option changed
  solve(dir / "form", n, 0, [&](Tap& tap) {
    tap.change = [&](TierId t, std::vector<uint32_t>& w) {
      if (t == 2 * classes + lo) w[0] = w[0] == 0 ? 1 : 0;
    };
  });
  bad = verify(dir / "form");
  CHECK_FALSE(bad.ok);
  CHECK_FALSE(bad.problem.empty());
}

TEST_CASE("cgt database: a chunk read a batch at a time gives the forms it gives read whole, and refuses the same "
          "damage",
          "[cgt][cgt-db]") {
  const Solved s("cgt-batches", 10);
  const cgtdb::TierLayout lay = cgt_of(s).layout();
  const auto& db = *s.opened.db;
  uint64_t batches = 0, forms_seen = 0, forms_whole = 0, bad = 0;
  for (uint32_t k = 0; k < lay.classes; ++k) {
    const std::vector<uint32_t> text = db.load<uint32_t>(lay.text(k));
    const auto whole = cgtdb::decode_forms(db.load<uint32_t>(lay.forms(k)), db.load<uint32_t>(lay.options(k)), &text, "chunk");
    forms_whole += whole.size();
    // a form a batch; 7; a few characters of text a batch (a longer form alone); all at once
    for (const auto& [forms, chars] : {std::pair<uint64_t, uint64_t>{1, 1 << 20}, {7, 1 << 20}, {1 << 16, 40}, {1 << 16, 1 << 30}}) {
      std::vector<cgtdb::StoredForm> got;
      cgtdb::read_chunk(db, lay, k, "chunk", forms, chars, [&](uint64_t first, std::vector<cgtdb::StoredForm>& batch) {
        bad += first != got.size() || batch.empty() || batch.size() > forms;
        uint64_t batch_chars = 0;
        for (const auto& f : batch) batch_chars += f.text.size() + (f.atomic_weight ? f.atomic_weight->size() : 0);
        bad += batch.size() > 1 && batch_chars > chars;
        got.insert(got.end(), batch.begin(), batch.end());
        ++batches;
      });
      bad += got != whole;
      forms_seen += got.size();
    }
  }
  CHECK(bad == 0);
  CHECK(forms_seen == 4 * forms_whole);
  CHECK(forms_whole > 1000);
  CHECK(batches > 4 * lay.classes);
  // a row whose text ends before the row above's, in the middle of a batch: the row named
  TempDir dir("cgt-batches-damage");
  const auto [lo, hi] = cgtdb::Boards(10).classes_of_length(10);
  (void)hi;
  solve(dir / "db", 10, 0, [&](Tap& tap) {
    tap.change = [&](TierId t, std::vector<uint32_t>& w) {
      if (t == lay.forms(lo) && w.size() > 5 * cgtdb::kColumns) cgtdb::set_ends(&w[4 * cgtdb::kColumns], cgtdb::options_end(&w[4 * cgtdb::kColumns]), 0);
    };
  });
  const auto o = toadbase::tools::open_database(dir / "db");
  for (const uint64_t forms : {uint64_t{1}, uint64_t{3}, uint64_t{1} << 16})
    CHECK_THROWS_WITH(cgtdb::read_chunk(*o.db, lay, lo, "chunk", forms, 1 << 20, [](uint64_t, auto&) {}),
                      Contains("form 4 of the chunk does not add up (damaged)"));
  const auto rep = toadbase::with_threads(0, [&] { return o.instance->verify(*o.db, nullptr); });
  CHECK_FALSE(rep.ok);
  CHECK_THAT(rep.problem, Contains("form 4 of the chunk does not add up (damaged)"));
}

// ---- long forms -------------------------------------------------------------------------

TEST_CASE("cgt database: a form printed longer than the text cap keeps no text, and every way in answers the same",
          "[cgt][cgt-db]") {
  TempDir dir("cgt-cap");
  // 8 cells: every board is queried three ways, and verify makes every form again, which the
  // sanitizer run takes minutes over at 9 cells
  const int n = 8;
  const uint64_t cap = 6;
  // the default cap keeps every text of 8 cells; 6 characters keeps some; 0 keeps none
  const std::string full = solve(dir / "full", n), some = solve(dir / "some", n, 2, nullptr, static_cast<int>(cap)),
                    none = solve(dir / "none", n, 1, nullptr, 0);
  CHECK(full != some);
  CHECK(solve(dir / "some1", n, 1, nullptr, static_cast<int>(cap)) == some);  // deterministic still
  const auto f = toadbase::tools::open_database(dir / "full"), s = toadbase::tools::open_database(dir / "some"),
             z = toadbase::tools::open_database(dir / "none");
  CHECK(f.db->identity().parameters == json{{"length", n}});  // the default is not written down
  CHECK(s.db->identity().parameters == json{{"length", n}, {"text_cap", cap}});
  const auto& inst = dynamic_cast<const cgtdb::CgtInstance&>(*s.instance);
  CHECK(inst.text_cap() == cap);
  // what is stored: long forms flagged, with their printed length; the rest as before
  const cgtdb::TierLayout lay = inst.layout();
  const cgtdb::FormReader full_forms(*f.db, lay), some_forms(*s.db, lay), no_forms(*z.db, lay);
  REQUIRE(full_forms.count() == some_forms.count());
  size_t long_forms = 0;
  for (uint32_t id = 0; id < full_forms.count(); ++id) {
    const cgtdb::StoredForm a = full_forms.read(id), b = some_forms.read(id), c = no_forms.read(id);
    REQUIRE(a.text_stored);
    CHECK_FALSE(c.text_stored);
    CHECK(b.text_stored == (a.text.size() <= cap && (!a.atomic_weight || a.atomic_weight->size() <= cap)));
    long_forms += !b.text_stored;
    for (const cgtdb::StoredForm* x : {&b, &c}) {
      CHECK(x->text == a.text);  // read() prints a long form from its followers
      CHECK(x->atomic_weight == a.atomic_weight);
      CHECK((x->text_stored || x->printed_length == a.text.size()));
      CHECK(x->left == a.left);
      CHECK(x->negative == a.negative);
    }
    CHECK(some_forms.text(id) == a.text);
  }
  CHECK(long_forms > 100);
  // every board of 1..8 cells queries the same; with no text stored at all every query prints
  // its forms from their followers (8 s over these boards, minutes under the sanitizers), so
  // that database answers every 16th board here: every form's text was compared above
  size_t k = 0;
  for (int m = 1; m <= n; ++m)
    for (const std::string& board : cgt_oracle::all_boards(m)) {
      const json want = json(f.instance->query(*f.db, board, ""));
      if (json(s.instance->query(*s.db, board, "")) != want ||
          (k++ % 16 == 0 && json(z.instance->query(*z.db, board, "")) != want))
        FAIL("board " << board << " answers differently");
    }
  CHECK(k > 9000);
  // verify accepts them; analyze lists the same longest forms, a long one without its text
  for (const auto* o : {&s, &z}) {
    const auto rep = toadbase::with_threads(0, [&] { return o->instance->verify(*o->db, nullptr); });
    CHECK(rep.ok);
  }
  const json af = f.instance->analyze(*f.db), as = s.instance->analyze(*s.db);
  REQUIRE(af["longestForms"].size() == as["longestForms"].size());
  for (size_t i = 0; i < af["longestForms"].size(); ++i) {
    CHECK(as["longestForms"][i]["board"] == af["longestForms"][i]["board"]);
    CHECK(as["longestForms"][i]["characters"] == af["longestForms"][i]["characters"]);
    CHECK_FALSE(as["longestForms"][i].contains("value"));  // each longer than the cap
  }
  CHECK(as["censusOfValues"] == af["censusOfValues"]);
  CHECK(as["longForms"] == json{{"count", long_forms}, {"textCap", cap}});
  CHECK(af["longForms"]["count"] == 0);
  CHECK(as["laws"] == af["laws"]);
  // the command line: --text-cap, cgt sum through long forms, a cap out of range
  const std::string db = dir / "cli";
  ok({"solve", "toads-frogs-cgt", "--length", "8", "--text-cap", "0", "--db", db, "--quiet"});
  CHECK(json::parse(ok({"cgt", "sum", "--db", db, "TT--F|T-TFF"}).out)["value"] == "1^");
  CHECK(json::parse(ok({"cgt", "sum", "--db", db, "TTT--FFF|TT--F"}).out)["value"] == "{9/8|7/8}");
  CHECK(json::parse(ok({"query", "--db", db, "T-TFF"}).out)["atomicWeight"] == "1");
  CHECK_THAT(run_expecting({"solve", "toads-frogs-cgt", "--text-cap", "-1", "--db", dir / "x", "--quiet"}, 2).err,
             Contains("--text-cap"));
}

TEST_CASE("cgt database: a long form's row that does not add up is refused, and verify catches a wrong length",
          "[cgt][cgt-db]") {
  TempDir dir("cgt-cap-damage");
  const int n = 8;
  const uint32_t classes = cgtdb::Boards(n).class_count();
  const auto [lo, hi] = cgtdb::Boards(n).classes_of_length(n);
  (void)hi;
  auto verify = [&](const std::string& path) {
    const auto o = toadbase::tools::open_database(path);
    return toadbase::with_threads(0, [&] { return o.instance->verify(*o.db, nullptr); });
  };
  // the first form of the largest class of 8 cells: its printed length one off
  solve(dir / "length", n, 0, [&](Tap& tap) {
    tap.change = [&](TierId t, std::vector<uint32_t>& w) {
      if (t == classes + lo && !w.empty()) w[cgtdb::kAtomicLength] += 1;
    };
  }, 0);
  auto bad = verify(dir / "length");
  CHECK_FALSE(bad.ok);
  CHECK_THAT(bad.problem, Contains("printed length"));
  // a form flagged long that still has text: the chunk is damaged
  std::vector<uint32_t> cols(cgtdb::kColumns, 0), options, text{'0'};
  cols[cgtdb::kTextEnd] = 1;
  cols[cgtdb::kInfo] = cgtdb::kTextNotStored;
  CHECK_THROWS_WITH(cgtdb::decode_forms(cols, options, &text, "chunk"), Contains("does not add up"));
  // a long form whose text end's bits past 32 (in its info) say it has text
  cols[cgtdb::kTextEnd] = 0;
  cols[cgtdb::kInfo] = cgtdb::kTextNotStored | uint32_t{1} << 27;
  text.clear();
  CHECK_THROWS_WITH(cgtdb::decode_forms(cols, options, &text, "chunk"), Contains("does not add up"));
  cols[cgtdb::kInfo] = cgtdb::kTextNotStored;
  CHECK(cgtdb::decode_forms(cols, options, &text, "chunk").at(0).text_stored == false);
}

namespace {

/// One chunk of the form table whose text runs past 2^32 characters and is never held: each
/// form's value kMaxTextCap characters, each character a function of its whole place.
class WideChunk final : public toadbase::TierSource {
 public:
  static constexpr uint64_t kForms = 520, kEach = cgtdb::kMaxTextCap;  // 520 * 2^23 > 2^32
  static char at(uint64_t i) { return static_cast<char>('a' + (i % 13 + (i >> 32) * 7) % 26); }
  WideChunk() : cols_(kForms * cgtdb::kColumns, 0) {
    for (uint64_t r = 0; r < kForms; ++r) {
      uint32_t* row = cols_.data() + r * cgtdb::kColumns;
      row[cgtdb::kAtomicLength] = cgtdb::kNoAtomicWeight;
      row[cgtdb::kInfo] = 3 | static_cast<uint32_t>(OutcomeClass::L) << 20;  // birthday 3, a number
      cgtdb::set_ends(row, 0, (r + 1) * kEach);
    }
  }
  const std::vector<uint32_t>& columns() const { return cols_; }
  unsigned record_bytes() const override { return 4; }
  bool has_tier(TierId t) const override { return t < 4; }
  uint64_t tier_positions(TierId t) const override {
    return t == 1 ? cols_.size() : t == 3 ? kForms * kEach : 0;
  }
  uint64_t tier_kept(TierId t) const override { return tier_positions(t); }
  bool matches_digest(TierId, const void*, uint64_t) const override { return false; }
  void load_tier(TierId t, void* out) const override {
    if (t != 1) throw std::logic_error("WideChunk: only its columns are loaded");
    std::copy(cols_.begin(), cols_.end(), static_cast<uint32_t*>(out));
  }
  void read_record(TierId t, uint64_t i, void* out) const override {
    if (i >= tier_kept(t)) throw std::out_of_range("WideChunk: a record past its tier");
    const uint32_t w = t == 1 ? cols_[i] : static_cast<uint8_t>(at(i));
    std::memcpy(out, &w, 4);
  }

 private:
  std::vector<uint32_t> cols_;
};

}  // namespace

TEST_CASE("cgt database: a chunk's text past 2^32 characters is found by its forms' whole ends", "[cgt][cgt-db]") {
  const WideChunk src;
  // the ends round-trip through a row, its info's other fields kept
  std::vector<uint32_t> row(cgtdb::kColumns, 0);
  row[cgtdb::kInfo] = 0x3fffff | cgtdb::kTextNotStored | cgtdb::kHasAtomicWeight;
  cgtdb::set_ends(row.data(), cgtdb::kMaxChunkOptions - 1, cgtdb::kMaxChunkText - 1);
  CHECK(cgtdb::options_end(row.data()) == cgtdb::kMaxChunkOptions - 1);
  CHECK(cgtdb::text_end(row.data()) == cgtdb::kMaxChunkText - 1);
  cgtdb::set_ends(row.data(), 7, (uint64_t{1} << 32) + 9);
  CHECK(cgtdb::options_end(row.data()) == 7);
  CHECK(cgtdb::text_end(row.data()) == (uint64_t{1} << 32) + 9);
  CHECK((row[cgtdb::kInfo] & 0x3fffff) == 0x3fffff);
  CHECK((row[cgtdb::kInfo] & cgtdb::kTextNotStored));
  CHECK((row[cgtdb::kInfo] & cgtdb::kHasAtomicWeight));
  // the chunk decodes: every form's text kEach characters, the one ending on 2^32 included
  const auto forms = cgtdb::decode_forms(src.columns(), {}, nullptr, "chunk");
  REQUIRE(forms.size() == WideChunk::kForms);
  // told its text tier's size (a resume), the ends must meet it: a last end 2^32 off is damage
  CHECK(cgtdb::decode_forms(src.columns(), {}, nullptr, "chunk", WideChunk::kForms * WideChunk::kEach).size() ==
        WideChunk::kForms);
  CHECK_THROWS_WITH(cgtdb::decode_forms(src.columns(), {}, nullptr, "chunk",
                                        WideChunk::kForms * WideChunk::kEach - (uint64_t{1} << 32)),
                    Contains("damaged"));
  // ends at their bounds are refused, not cut
  CHECK_THROWS_AS(cgtdb::set_ends(row.data(), cgtdb::kMaxChunkOptions, 0), std::length_error);
  CHECK_THROWS_AS(cgtdb::set_ends(row.data(), 0, cgtdb::kMaxChunkText), std::length_error);
  CHECK(forms.back().birthday == 3);
  CHECK(forms.back().outcome == OutcomeClass::L);
  const cgtdb::FormReader reader(src, cgtdb::TierLayout{1});
  REQUIRE(reader.count() == WideChunk::kForms);
  for (const uint32_t id : {0u, 510u, 511u, 512u, 519u}) {
    INFO("form " << id);
    CHECK(reader.value_length(id) == std::make_pair(WideChunk::kEach, true));
    CHECK(reader.printed_length(id) == WideChunk::kEach);
  }
  // its characters read from their place past 2^32, not 2^32 before it
  for (const uint32_t id : {511u, 512u, 519u}) {
    INFO("form " << id);
    std::string want(WideChunk::kEach, ' ');
    for (uint64_t j = 0; j < WideChunk::kEach; ++j) want[j] = WideChunk::at(id * WideChunk::kEach + j);
    const std::string got = reader.text(id);
    CHECK(got.size() == want.size());
    CHECK(got == want);
    CHECK(reader.read(id).text == want);
  }
}

// ---- the command line ------------------------------------------------------------------

TEST_CASE("cgt database through the toadbase command: solve, query, cgt sum, analyze, verify, info", "[cgt][cgt-db][cli]") {
  TempDir dir("cgt-cli");
  const std::string db = dir / "cgt11";
  const json solved = json::parse(ok({"solve", "toads-frogs-cgt", "--length", "11", "--db", db, "--quiet", "--json"}).out);
  CHECK(solved["positions"] == toadbase::toads_frogs_cgt::Boards(11).total());
  // query: JSON lines, a bad board is an error line and exit 1 after the rest
  RunResult q = run_toadbase({"query", "--db", db, "T-TFF", "TTTTTTTTTTTT", "TX", "--", "-TTFF"});  // a board starting with - after --
  CHECK(q.rc == 1);
  std::istringstream lines(q.out);
  std::string line;
  std::vector<json> js;
  while (std::getline(lines, line)) js.push_back(json::parse(line));
  REQUIRE(js.size() == 4);
  CHECK(js[0]["value"] == "^");
  CHECK(js[0]["leftMoves"].size() == 1);  // 0-1 (the toad on cell 2 is blocked)
  CHECK(js[0]["rightMoves"].size() == 1);  // 3-1, a jump
  CHECK_THAT(str(js[1]["error"]), Contains("12 cells") && Contains("1..11"));
  CHECK_THAT(str(js[2]["error"]), Contains("cell 1"));
  CHECK(js[3]["value"] == "0");
  // cgt sum: walls add; TFT-- is not TF + T--
  json sum = json::parse(ok({"cgt", "sum", "--db", db, "TT--F|T-TFF"}).out);
  FormTable t;
  CHECK(t.parse(str(sum["value"])) ==
        t.sum(t.parse(str(js[0]["value"])), t.parse(str(json::parse(ok({"query", "--db", db, "TT--F"}).out)["value"]))));
  CHECK(sum["boards"] == json::array({"TT--F", "T-TFF"}));
  CHECK(json::parse(ok({"cgt", "sum", "--db", db, "TFT--"}).out)["value"] == "3");
  CHECK(json::parse(ok({"cgt", "sum", "--db", db, "TF|T--"}).out)["value"] == "2");
  CHECK(json::parse(ok({"cgt", "sum", "--db", db, "T-F|T-F"}).out)["value"] == "0");  // * + * = 0
  CHECK_THAT(run_expecting({"cgt", "sum", "--db", db, "T-F||T-F"}, 1).err, Contains("empty strip"));
  CHECK_THAT(run_expecting({"cgt", "sum", "--db", db}, 2).err, Contains("give strips"));
  CHECK_THAT(run_expecting({"cgt", "sum", "--db", db, "T-F|TTTTTTTTTTTT"}, 1).err, Contains("12 cells"));
  CHECK(json::parse(ok({"cgt", "sum", "--db", db, "-TF|F-T"}).out)["value"] == "0");  // strips may start with '-'
  // positionals before and after "--" (CLI11 handed what followed "--" to the parent once the
  // command had a positional, and `cgt thermograph -1 -- -2` was refused)
  const std::vector<std::string> two_sums = lines_of(ok({"cgt", "sum", "--db", db, "T-F", "--", "-TF|F-T"}).out);
  REQUIRE(two_sums.size() == 2);
  CHECK(json::parse(two_sums[0])["sum"] == "T-F");
  CHECK(json::parse(two_sums[1])["sum"] == "-TF|F-T");
  const std::vector<std::string> walls = lines_of(ok({"cgt", "thermograph", "--json", "-1", "--", "-2", "{1|0}"}).out);
  REQUIRE(walls.size() == 3);
  CHECK(json::parse(walls[0])["value"] == "-1");
  CHECK(json::parse(walls[1])["value"] == "-2");
  CHECK(json::parse(walls[2])["value"] == "{1|0}");
  // before "--" too, in the order given: an argument that is no option of the command is a
  // strip or a value wherever it stands (CLI11 left "-TF" and "-1" over, and they came last)
  const std::vector<std::string> in_order = lines_of(ok({"cgt", "sum", "--db", db, "-TF|F-T", "T-F", "--text", "-T-F"}).out);
  REQUIRE(in_order.size() == 3);
  CHECK_THAT(in_order[0], StartsWith("-TF|F-T = 0"));
  CHECK_THAT(in_order[1], StartsWith("T-F = *"));
  CHECK_THAT(in_order[2], StartsWith("-T-F = "));
  const std::vector<std::string> first = lines_of(ok({"cgt", "sum", "-TF", "--db", db, "T-F"}).out);
  REQUIRE(first.size() == 2);
  CHECK(json::parse(first[0])["sum"] == "-TF");
  CHECK(json::parse(first[1])["sum"] == "T-F");
  const std::vector<std::string> three = lines_of(ok({"cgt", "thermograph", "-1", "{1|0}", "--json", "-2"}).out);
  REQUIRE(three.size() == 3);
  CHECK(json::parse(three[0])["value"] == "-1");
  CHECK(json::parse(three[1])["value"] == "{1|0}");
  CHECK(json::parse(three[2])["value"] == "-2");
  // an option's typo is still named, not read as a strip, also after a strip of dashes
  CHECK_THAT(run_expecting({"cgt", "sum", "--db", db, "--txt", "T-F"}, 2).err, Contains("did you mean '--text'"));
  CHECK_THAT(run_expecting({"cgt", "sum", "--db", db, "---", "--txt", "T-F"}, 2).err, Contains("did you mean '--text'"));
  // an option's value that starts with '-' stays its value; --db=PATH takes no argument after it
  const std::vector<std::string> eq = lines_of(ok({"cgt", "sum", "--db=" + db, "-TF", "--text"}).out);
  REQUIRE(eq.size() == 1);
  CHECK_THAT(eq[0], StartsWith("-TF = 0"));
  CHECK_THAT(ok({"cgt", "thermograph", "-1", "-h"}).out, Contains("Usage"));
  CHECK_THAT(run_expecting({"cgt", "sum", "--db", dir / "none", "T-F"}, 1).err, Contains("no database"));
  // analyze: every board of 11 cells counted once, the laws hold over boards they apply to
  const json a = json::parse(ok({"analyze", "--db", db, "--json"}).out);
  CHECK(a["boards"] == 177147);
  uint64_t by_kind = 0;
  for (auto& [k, v] : a["censusOfBoards"]["byKind"].items()) by_kind += v.get<uint64_t>();
  CHECK(by_kind == 177147);
  for (const json& law : a["laws"]) {
    INFO(law.dump());
    CHECK(law["holds"] == true);
    CHECK(law["boardsChecked"].get<uint64_t>() > 0);
  }
  CHECK(a["hottestBoards"].size() == 10);
  for (const json& e : a["hottestBoards"]) CHECK(t.kind(t.parse(str(e["value"]))) == toadbase::cgt::Kind::Hot);
  // a short database lists only its hot boards, however few (length 3: T-F = * is not one)
  const std::string db3 = dir / "cgt3";
  ok({"solve", "toads-frogs-cgt", "--length", "3", "--db", db3, "--quiet"});
  const json a3 = json::parse(ok({"analyze", "--db", db3, "--json"}).out);
  CHECK(a3["boards"] == 27);
  for (const json& e : a3["hottestBoards"]) CHECK(t.kind(t.parse(str(e["value"]))) == toadbase::cgt::Kind::Hot);
  // distinct values by length against the oracle's count of distinct canonical forms
  Oracle o;
  OracleBoards games{o, {}};
  std::set<int> values;
  for (int m = 1; m <= 7; ++m) {
    for (const std::string& b : cgt_oracle::all_boards(m)) values.insert(o.canonical(games.game(b)));
    CHECK(a["distinctValuesByLength"][m - 1]["values"] == values.size());
  }
  const std::string text = ok({"analyze", "--db", db}).out;
  CHECK_THAT(text, Contains("distinct values by length") && Contains("hottest boards") && Contains("holds over"));
  CHECK_THAT(ok({"verify", "--db", db, "--quiet"}).out, Contains("OK"));
  // a sample is for the tier games: this engine verifies its databases whole, and says so
  CHECK_THAT(run_expecting({"verify", "--db", db, "--sample", "10"}, 2).err,
             Contains("verified whole") && Contains("without --sample"));
  CHECK_THAT(ok({"info", "--db", db}).out, Contains("toads-frogs-cgt"));
  // cut into 4 KiB blocks (its queries read many scattered records), each holding its
  // records' four byte planes (a form id read from one block), so format 4
  const json info = json::parse(ok({"info", "--db", db, "--json"}).out);
  CHECK(info["blockRecords"] == 4096);
  CHECK(info["formatVersion"] == 4);
  // solving it again does nothing; another length is another database
  CHECK_THAT(ok({"solve", "toads-frogs-cgt", "--length", "11", "--db", db, "--quiet"}).out, Contains("already complete"));
  CHECK_THAT(run_expecting({"solve", "toads-frogs-cgt", "--length", "10", "--db", db, "--quiet"}, 1).err,
             Contains("remove it"));
  CHECK_THAT(run_expecting({"solve", "toads-frogs-cgt", "--length", "23", "--db", dir / "x", "--quiet"}, 2).err,
             Contains("--length: 23 is out of range (1..22)"));
}

TEST_CASE("cgt database over HTTP: /api/ answers what query and info --json print, and UWAPI does not list it",
          "[cgt][cgt-db][serve]") {
  TempDir dir("cgt-serve");
  const std::string db = dir / "cgt9";
  ok({"solve", "toads-frogs-cgt", "--length", "9", "--db", db, "--quiet"});
  TestServer s({db});
  const json list = json::parse(s.get("/api/").body);
  REQUIRE(list.at("databases").size() == 1);
  CHECK(list["databases"][0]["game"] == "toads-frogs-cgt");
  CHECK_FALSE(list["databases"][0].contains("uwapi"));  // no win/lose values for GamesmanUni
  CHECK(s.get("/api/cgt9/").body + "\n" == ok({"info", "--db", db, "--json"}).out);
  for (const std::string board : {"T-TFF", "TTT--FFF", "FFT-TFFTT", "1_T-F", "TX", "TTTTTTTTTT"}) {
    INFO(board);
    const RunResult q = run_toadbase({"query", "--db", db, board});
    const auto r = s.get("/api/cgt9/query?p=" + board);
    CHECK(r.body + "\n" == q.out);
    CHECK((r.status == 200) == (q.rc == 0));
  }
  CHECK(s.get("/uwapi/toads-frogs-cgt/cgt9/").status == 404);
}

// ---- the find index ---------------------------------------------------------------------

TEST_CASE("cgt find index: a file cut short in place under a loaded index is an error naming it, never a fault",
          "[cgt][cgt-db][find]") {
  // A process keeps an index between queries and reloads it when its file changed (see
  // FindIndex::unchanged()); a query that began before the change reads on. Read through a
  // mapping, the bytes past the cut stopped the process (SIGBUS); read through the file, a
  // read past its end is an error naming the file.
  const Solved s("cgt-find-cut", 14);
  const auto& inst = cgt_of(s);
  const cgtdb::FormReader reader(*s.opened.db, inst.layout());
  const std::string file = s.dir / "cgt-find.index";
  const cgtdb::FindIndex made = cgtdb::FindIndex::build(inst.boards(), *s.opened.db, reader);
  made.save(file);
  // (the cut falls past whole pages and blocks; the pairs span windows of 4 blocks)
  REQUIRE(made.file_bytes() - 21 * uint64_t{made.forms()} > 8 * cgtdb::FindIndex::kBlock);
  const uint32_t key_of_zero = cgtdb::FindIndex::key("0");
  const std::vector<uint32_t> zero = made.forms_with_key(key_of_zero);
  REQUIRE(zero.size() == 1);
  uint64_t pairs_made = 0;
  made.each_pair([&](uint32_t, uint32_t, const cgtdb::FindIndex::Pair&) { ++pairs_made; });
  CHECK(pairs_made == made.pairs());

  auto cut_after_loading = [&](const std::function<void(const cgtdb::FindIndex&)>& read) {
    const std::string whole = read_file(file);
    const cgtdb::FindIndex x = cgtdb::FindIndex::load(file, inst.boards(), reader.count());
    REQUIRE(::truncate(file.c_str(), 4096) == 0);
    CHECK_THROWS_WITH(read(x), Contains(file) && Contains("cut short"));
    write_file(file, whole);
  };
  cut_after_loading([&](const auto& x) { (void)x.forms_with_key(key_of_zero); });
  cut_after_loading([&](const auto& x) { (void)x.pairs_of(x.forms() - 1); });
  cut_after_loading([&](const auto& x) { (void)x.negative(x.forms() - 1); });
  cut_after_loading([&](const auto& x) { x.each_pair([](uint32_t, uint32_t, const cgtdb::FindIndex::Pair&) {}); });
  cut_after_loading([&](const auto& x) { x.each_form([](uint32_t, const cgtdb::FindIndex::Row&) {}); });
  // a scan already under way when the file is cut: the windows it has not read yet
  {
    const std::string whole = read_file(file);
    const cgtdb::FindIndex x = cgtdb::FindIndex::load(file, inst.boards(), reader.count());
    uint64_t seen = 0;
    CHECK_THROWS_WITH(x.each_pair([&](uint32_t, uint32_t, const cgtdb::FindIndex::Pair&) {
      if (seen++ == 0) REQUIRE(::truncate(file.c_str(), 4096) == 0);
    }),
                      Contains(file) && Contains("cut short"));
    CHECK(seen < made.pairs());
    write_file(file, whole);
  }
  // the file whole again: loaded, it reads as the index made
  const cgtdb::FindIndex again = cgtdb::FindIndex::load(file, inst.boards(), reader.count());
  CHECK(again.forms_with_key(key_of_zero) == zero);
  uint64_t pairs_read = 0;
  again.each_pair([&](uint32_t g, uint32_t neg, const cgtdb::FindIndex::Pair& p) {
    pairs_read += neg == again.negative(g) && p.count > 0;
  });
  CHECK(pairs_read == made.pairs());
}

TEST_CASE("cgt find: a kept index is reused while its file is unchanged, and opened again once it changes",
          "[cgt][cgt-db][find]") {
  const Solved s("cgt-find-kept", 8);
  const auto& inst = cgt_of(s);
  const std::string db = s.dir / "db", file = db + "/" + cgtdb::kFindIndexFile;
  auto make_index = [&] {
    const cgtdb::FormReader reader(*s.opened.db, inst.layout());
    cgtdb::FindIndex::build(inst.boards(), *s.opened.db, reader).save(file);
  };
  auto find = [&](const std::map<std::string, std::string>& q) { return json(inst.find(*s.opened.db, db, q)); };
  // a file changed within 2 s before it was opened is opened again at every query (a file
  // system's clock may not tell a second change in the same tick): wait past that
  constexpr auto kPastRacy = std::chrono::milliseconds(2100);
  make_index();
  std::this_thread::sleep_for(kPastRacy);
  const uint64_t before = inst.find_index_loads();
  const json zero = find({{"value", "0"}});
  CHECK(zero["found"] == true);
  CHECK(inst.find_index_loads() == before + 1);
  CHECK(find({{"value", "0"}}) == zero);
  CHECK(find({{"kind", "hot"}}).at("found") == true);
  CHECK(inst.find_index_loads() == before + 1);  // kept: the same file
  // made again (a new file renamed over it): opened at the next query, kept once it is old enough
  make_index();
  CHECK(find({{"value", "0"}}) == zero);
  CHECK(inst.find_index_loads() == before + 2);
  std::this_thread::sleep_for(kPastRacy);
  CHECK(find({{"value", "0"}}) == zero);
  const uint64_t settled = inst.find_index_loads();
  CHECK(find({{"value", "0"}}) == zero);
  CHECK(find({{"outcome", "P"}}).at("found") == true);
  CHECK(inst.find_index_loads() == settled);
}
