// The combinatorial game theory engine (solver/cgt/cgt.hpp) against an oracle written
// here from the definitions, against the literature's Toads and Frogs values and CGSuite's
// own test values, and against the algebra's identities.
#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "cgt_oracle.hpp"
#include "solver/cgt/cgt.hpp"
#include "solver/core/work_budget.hpp"

using namespace toadbase::cgt;
using namespace cgt_oracle;

namespace {

/// Board values through the engine: each board's value from its options' values.
struct EngineBoards {
  FormTable& t;
  std::unordered_map<std::string, FormId> memo;
  FormId value(const std::string& b) {
    if (auto it = memo.find(b); it != memo.end()) return it->second;
    std::vector<FormId> l, r;
    for (const auto& c : moves(b, true)) l.push_back(value(c));
    for (const auto& c : moves(b, false)) r.push_back(value(c));
    const FormId g = t.make(l, r);
    memo.emplace(b, g);
    return g;
  }
};

/// The sum by its definition, each option through make(): no number-up-star arithmetic.
struct SlowSum {
  FormTable& t;
  std::map<std::pair<FormId, FormId>, FormId> memo;
  FormId operator()(FormId g, FormId h) {
    if (auto it = memo.find({g, h}); it != memo.end()) return it->second;
    std::vector<FormId> l, r;
    for (FormId x : t.left(g)) l.push_back((*this)(x, h));
    for (FormId x : t.left(h)) l.push_back((*this)(g, x));
    for (FormId x : t.right(g)) r.push_back((*this)(x, h));
    for (FormId x : t.right(h)) r.push_back((*this)(g, x));
    const FormId s = t.make(l, r);
    memo[{g, h}] = s;
    return s;
  }
};

/// No option dominated by another of its side, none reversible (checked with leq).
bool is_canonical(FormTable& t, FormId g) {
  const auto l = t.left(g), r = t.right(g);
  for (FormId x : l)
    for (FormId y : l)
      if (x != y && t.leq(x, y)) return false;
  for (FormId x : r)
    for (FormId y : r)
      if (x != y && t.leq(y, x)) return false;
  for (FormId x : l)
    for (FormId y : t.right(x))
      if (t.leq(y, g)) return false;
  for (FormId x : r)
    for (FormId y : t.left(x))
      if (t.leq(g, y)) return false;
  return true;
}

std::string str(FormTable& t, std::optional<FormId> g) { return g ? t.to_string(*g) : "none"; }

/// The values of every board of 1..9 cells and a few long ones, whose followers are met
/// many times over (printing's tests: the count's memo, the texts' memo).
void add_printing_forms(FormTable& t) {
  EngineBoards engine{t, {}};
  for (int n = 1; n <= 9; ++n)
    for (const std::string& b : all_boards(n)) engine.value(b);
  for (const char* b : {"T-TTF-FFFFFF", "TTTTTT-TFF-F", "T-T-FTFFFFFF", "TT-T-F-TFFFFF"}) engine.value(b);
}

}  // namespace

// ---- dyadic rationals -----------------------------------------------------------------

TEST_CASE("dyadic rationals: reduced, exact, ordered, printed", "[cgt]") {
  const Dyadic half = Dyadic::fraction(1, 1), three_quarters = Dyadic::fraction(6, 3);
  CHECK(three_quarters.numerator() == 3);
  CHECK(three_quarters.exponent() == 2);
  CHECK(Dyadic::fraction(8, 3) == Dyadic(1));
  CHECK((half + Dyadic::fraction(1, 2)) == three_quarters);
  CHECK((half + half) == Dyadic(1));
  CHECK((Dyadic(0) - three_quarters).to_string() == "-3/4");
  CHECK(Dyadic::fraction(25, 4).to_string() == "25/16");
  CHECK((three_quarters * 4) == Dyadic(3));
  CHECK(half.half() == Dyadic::fraction(1, 2));
  CHECK(Dyadic::fraction(-5, 2).floor() == Dyadic(-2));
  CHECK(Dyadic::fraction(-5, 2).ceil() == Dyadic(-1));
  CHECK(Dyadic::fraction(5, 2).floor() == Dyadic(1));
  CHECK(Dyadic::fraction(5, 2).ceil() == Dyadic(2));
  CHECK(Dyadic(-3) < Dyadic::fraction(-5, 1));
  CHECK(Dyadic::fraction(1, 40) < Dyadic::fraction(1, 39));
  for (const Dyadic d : {Dyadic(0), Dyadic(-7), three_quarters, -Dyadic::fraction(73, 4)})
    CHECK(Dyadic::unpack(d.packed()) == d);
  CHECK_THROWS_AS(Dyadic::fraction(1, 61), std::overflow_error);
  CHECK_THROWS_AS(Dyadic(int64_t{1} << 56) * 4, std::overflow_error);

  // sums and comparisons against plain 128-bit arithmetic: one denominator and two, both
  // signs, zero, numerators up to the largest kept (below 2^57) and sums past it
  __extension__ typedef __int128 wide;  // GCC's 128-bit integer
  std::vector<Dyadic> ds;
  for (const int64_t n : {int64_t{0}, int64_t{1}, int64_t{-1}, int64_t{3}, int64_t{-6}, int64_t{1} << 31,
                          -(int64_t{1} << 31), (int64_t{1} << 56) - 1, (int64_t{1} << 57) - 1,
                          -(int64_t{1} << 57) + 1})
    for (const int e : {0, 1, 2, 31, 32, 33, 60}) ds.push_back(Dyadic::fraction(n, e));
  uint64_t bad = 0, overflows = 0;
  for (const Dyadic a : ds)
    for (const Dyadic b : ds) {
      const int e = std::max(a.exponent(), b.exponent());
      const wide x = static_cast<wide>(a.numerator()) << (e - a.exponent());
      const wide y = static_cast<wide>(b.numerator()) << (e - b.exponent());
      const bool order = (a < b) == (x < y) && (a == b) == (x == y) && (b < a) == (y < x);
      wide s = x + y;
      int se = e;
      while (se > 0 && s % 2 == 0) {
        s /= 2;
        --se;
      }
      bool sum = true;
      if (s >= (static_cast<wide>(1) << 57) || s <= -(static_cast<wide>(1) << 57)) {
        ++overflows;
        try {
          (void)(a + b);
          sum = false;
        } catch (const std::overflow_error&) {
        }
      } else {
        const Dyadic got = a + b;
        sum = got.numerator() == static_cast<int64_t>(s) && got.exponent() == se;
      }
      if ((!order || !sum) && ++bad <= 5)
        FAIL_CHECK(a.to_string() << " and " << b.to_string() << (order ? "" : ": compared wrong")
                                 << (sum ? "" : ": added wrong"));
    }
  CHECK(bad == 0);
  CHECK(overflows > 0);
}

TEST_CASE("simplest number between two numbers", "[cgt]") {
  auto f = [](int64_t n, int e) { return Dyadic::fraction(n, e); };
  CHECK(simplest_between(std::nullopt, std::nullopt) == Dyadic(0));
  CHECK(simplest_between(Dyadic(0), std::nullopt) == Dyadic(1));
  CHECK(simplest_between(std::nullopt, Dyadic(-3)) == Dyadic(-4));
  CHECK(simplest_between(Dyadic(-1), Dyadic(5)) == Dyadic(0));
  CHECK(simplest_between(Dyadic(2), Dyadic(7)) == Dyadic(3));
  CHECK(simplest_between(Dyadic(0), Dyadic(1)) == f(1, 1));
  CHECK(simplest_between(f(1, 1), Dyadic(1)) == f(3, 2));
  CHECK(simplest_between(f(5, 3), f(7, 3)) == f(3, 2));
  CHECK(simplest_between(f(-7, 3), f(-5, 3)) == f(-3, 2));
  CHECK(simplest_between(f(1, 5), f(1, 4)) == f(3, 6));
  CHECK(simplest_between(Dyadic(-2), Dyadic(-1)) == f(-3, 1));
}

// ---- the oracle on every small board --------------------------------------------------

TEST_CASE("every board of 1..8 cells: the engine's form is the oracle's canonical form, "
          "equal by the definition to the board itself, with the board's outcome class",
          "[cgt][oracle]") {
  FormTable t;
  EngineBoards engine{t, {}};
  Oracle o;
  OracleBoards boards{o, {}};
  Minimax minimax;
  uint64_t checked = 0, failures = 0;
  for (int n = 1; n <= 8; ++n) {
    for (const std::string& b : all_boards(n)) {
      const FormId g = engine.value(b);
      const int raw = boards.game(b);
      const int want = o.canonical(raw);
      const int got = o.from_engine(t, g);
      const bool lf = minimax.wins_first(b, true), rf = minimax.wins_first(b, false);
      const OutcomeClass oc = lf ? (rf ? OutcomeClass::N : OutcomeClass::L)
                                 : (rf ? OutcomeClass::R : OutcomeClass::P);
      ++checked;
      const bool ok = got == want && o.eq(raw, got) && t.outcome(g) == oc;
      if (!ok && ++failures <= 10)
        FAIL_CHECK(b << ": engine " << t.to_string(g) << (got == want ? "" : " not the oracle's form")
                     << (o.eq(raw, got) ? "" : ", not equal to the board")
                     << ", class " << outcome_name(t.outcome(g)) << " (minimax "
                     << outcome_name(oc) << ")");
    }
  }
  CHECK(failures == 0);
  CHECK(checked == 3 + 9 + 27 + 81 + 243 + 729 + 2187 + 6561);
}

TEST_CASE("sums against the oracle: the engine's G + H is the canonical form of the plain "
          "sum, on sampled board values",
          "[cgt][oracle]") {
  FormTable t;
  EngineBoards engine{t, {}};
  Oracle o;
  std::vector<FormId> forms;
  {
    std::set<FormId> seen;
    for (int n = 1; n <= 7; ++n)
      for (const std::string& b : all_boards(n))
        if (seen.insert(engine.value(b)).second && t.birthday(engine.value(b)) <= 5)
          forms.push_back(engine.value(b));
  }
  REQUIRE(forms.size() > 40);
  std::mt19937 rng(17);
  std::uniform_int_distribution<size_t> pick(0, forms.size() - 1);
  for (int k = 0; k < 300; ++k) {
    const FormId g = forms[pick(rng)], h = forms[pick(rng)];
    const FormId s = t.sum(g, h);
    const int plain = o.sum(o.from_engine(t, g), o.from_engine(t, h));
    INFO(t.to_string(g) << " + " << t.to_string(h) << " = " << t.to_string(s));
    CHECK(o.from_engine(t, s) == o.canonical(plain));
    CHECK(o.eq(o.from_engine(t, s), plain));
    // and G - G = 0 by the definition
    const int diff = o.sum(o.from_engine(t, g), o.negative(o.from_engine(t, g)));
    CHECK(o.eq(diff, o.number(Dyadic(0))));
  }
}

TEST_CASE("number-up-stars: the closed forms are the canonical forms of the sums, by the "
          "oracle and by the engine's plain sums",
          "[cgt][oracle]") {
  FormTable t;
  Oracle o;
  SlowSum slow{t, {}};
  const FormId up = t.make({t.zero()}, {t.make({t.zero()}, {t.zero()})});
  CHECK(up == t.up());
  for (const Dyadic x : {Dyadic(0), Dyadic(1), Dyadic::fraction(1, 1), -Dyadic::fraction(3, 2)}) {
    for (int k = -4; k <= 4; ++k) {
      for (unsigned m = 0; m <= 4; ++m) {
        // x + k ups + *m, added one by one through make()
        FormId g = t.number(x);
        int plain = o.number(x);
        const FormId unit = k >= 0 ? up : t.negate(up);
        for (int i = 0; i < std::abs(k); ++i) {
          g = slow(g, unit);
          plain = o.sum(plain, o.from_engine(t, unit));
        }
        // *m from its options *0 .. *(m-1) on both sides
        FormId nim = t.zero();
        if (m > 0) {
          std::vector<FormId> opts;
          for (unsigned i = 0; i < m; ++i) opts.push_back(t.nimber(i));
          nim = t.make(opts, opts);
        }
        g = slow(g, nim);
        plain = o.sum(plain, o.from_engine(t, nim));
        const FormId closed = t.number_up_star({x, k, m});
        INFO(x.to_string() << " + " << k << ".^ + *" << m << ": " << t.to_string(closed));
        CHECK(g == closed);
        CHECK(o.from_engine(t, closed) == o.canonical(plain));
        const auto v = t.number_up_star_value(g);
        REQUIRE(v);
        CHECK(*v == NumberUpStar{x, k, m});
      }
    }
  }
}

TEST_CASE("number-up-stars: each one asked first of a fresh table, past the small-key range "
          "too, is its own value and the negative of its mirror",
          "[cgt]") {
  // Each (x, k, m) in a table of its own, so a lookup finds nothing built before it. The
  // edges of the small-key range ([-32, 31] ups, nimbers below 16) are where a key may be 0.
  for (const Dyadic x : {Dyadic(0), Dyadic(1), -Dyadic::fraction(1, 1)}) {
    for (int k = -40; k <= 40; ++k) {
      for (unsigned m : {0u, 1u, 2u, 15u, 16u, 17u}) {
        if (x == Dyadic(0) && k == 0 && m == 0) continue;
        FormTable t({size_t{1} << 12, size_t{1} << 10});
        const FormId g = t.number_up_star({x, k, m});
        INFO(x.to_string() << " + " << k << ".^ + *" << m << ": " << t.to_string(g));
        CHECK(g != t.zero());
        const auto v = t.number_up_star_value(g);
        REQUIRE(v);
        CHECK(*v == NumberUpStar{x, k, m});
        CHECK(t.negate(g) == t.number_up_star({-x, -k, m}));
        CHECK(t.sum(g, t.number_up_star({-x, -k, m})) == t.zero());
      }
    }
  }
}

TEST_CASE("a work budget stops a costly value part way, and the table stays whole", "[cgt]") {
  using toadbase::core::WorkBudget;
  using toadbase::core::WorkLimit;
  WorkBudget::spend(1000);  // no budget alive: free of charge
  FormTable t({size_t{1} << 12, size_t{1} << 10});
  {
    // {^256|*256} is 3 characters of braces about two short values, and more than 20 s of
    // work to print unbounded (its uptimal expansion is tried by sums of ^-nths)
    WorkBudget budget(20'000);
    CHECK_THROWS_AS(t.to_string(t.parse("{^256|*256}")), WorkLimit);
    CHECK(budget.spent() == budget.limit());
    try {
      WorkBudget::spend();
      FAIL("a used budget took another step");
    } catch (const WorkLimit& e) {
      CHECK(e.steps() == 20'000);
      CHECK_THAT(e.what(), Catch::Matchers::Contains("20000 steps"));
    }
  }
  {
    // a budget with a stop: asked once every kPollSteps steps taken, and its true ends the
    // work as a spent budget does (Python's Ctrl-C during a value's work)
    struct Asked {
      int times = 0, stop_at = 3;
    } asked;
    const WorkBudget::Stop stop = [](void* c) {
      Asked& a = *static_cast<Asked*>(c);
      return ++a.times == a.stop_at;
    };
    WorkBudget budget(UINT64_MAX, stop, &asked);
    WorkBudget::spend(WorkBudget::kPollSteps - 1);
    CHECK(asked.times == 0);
    WorkBudget::spend();
    CHECK(asked.times == 1);
    WorkBudget::spend(WorkBudget::kPollSteps);
    CHECK(asked.times == 2);
    // work paid for before it began counts towards the stop, not against the budget again
    const uint64_t spent = budget.spent();
    WorkBudget::paid(WorkBudget::kPollSteps - 1);
    CHECK(asked.times == 2);
    asked.stop_at = 4;
    WorkBudget::paid(1);
    CHECK(asked.times == 3);
    CHECK(budget.spent() == spent);
    CHECK_THROWS_AS(t.to_string(t.parse("{^256|*256}")), WorkLimit);  // stopped at the fourth
    CHECK(asked.times == 4);
    CHECK(budget.spent() == budget.limit());
  }
  {
    // budgets nest: the innermost counts, the outer one resumes where it was
    WorkBudget outer(1000);
    WorkBudget::spend(10);
    {
      WorkBudget inner(5);
      WorkBudget::spend(5);
      CHECK_THROWS_AS(WorkBudget::spend(), WorkLimit);
    }
    CHECK(outer.spent() == 10);
  }
  {
    // a side of 5,000 switches: its pairs are charged before they are compared (they took
    // seconds to compare, and a 1 MiB claim holds 110,000)
    std::vector<FormId> wide;
    for (int i = 1; i <= 5000; ++i) {
      const FormId x = t.number(Dyadic::fraction(i, 10));
      wide.push_back(t.make({x}, {t.negate(x)}));
    }
    const FormId low = t.integer(-64);
    WorkBudget budget(1'000'000);
    CHECK_THROWS_AS(t.make(std::span<const FormId>(wide), std::span<const FormId>(&low, 1)), WorkLimit);
    CHECK(budget.spent() == budget.limit());
  }
  {
    // a form of 2,000 switches a side: its dominance pairs are paid for at once, before they
    // are compared, and the pass that looks for reversible options after them is charged as
    // it goes; both are counted towards the stop, so that it is asked all through the work
    // (once, at the charge made up front, when they were not: Python's Ctrl-C waited for them)
    std::vector<FormId> wide;
    for (int i = 1; i <= 2000; ++i) {
      const FormId x = t.number(Dyadic::fraction(i, 6));  // i/64
      wide.push_back(t.make({x}, {t.negate(x)}));
    }
    struct Asked {
      int times = 0;
    } asked;
    const WorkBudget::Stop count = [](void* c) {
      ++static_cast<Asked*>(c)->times;
      return false;
    };
    WorkBudget budget(UINT64_MAX, count, &asked);
    const FormId g = t.make(std::span<const FormId>(wide), std::span<const FormId>(wide));
    // 2 x 2,000^2 / 16 pairs paid for at once, as many counted row by row, and 2 x 2,000 x
    // 4,000 / 16 charged in the reversal pass: some 20 asks of the stop, each 2^16 steps
    INFO("asked " << asked.times);
    CHECK(asked.times >= 12);
    CHECK(budget.spent() >= 2 * 2000 * 4000 / 16);
    CHECK(t.to_string(g) == "0");  // {A|A} with A = -A: the second player mirrors
  }
  // the same table, past its interrupted work, answers as a fresh one does
  FormTable fresh;
  for (const char* v : {"{^32|*32}", "{^64|*64}", "{2|-1}", "^3*", "{1|{0|-1}}", "*5", "^<2>*", "{0|^256}"}) {
    INFO(v);
    const FormId a = t.parse(v), b = fresh.parse(v);
    CHECK(t.to_string(a) == fresh.to_string(b));
    CHECK(t.mean(a) == fresh.mean(b));
    CHECK(t.temperature(a) == fresh.temperature(b));
    CHECK(t.outcome(a) == fresh.outcome(b));
    CHECK(t.to_string(t.sum(a, t.negate(a))) == "0");
  }
}

// ---- the literature -------------------------------------------------------------------

TEST_CASE("Toads and Frogs: every value in the spec's list", "[cgt][literature]") {
  FormTable t;
  EngineBoards engine{t, {}};
  const std::vector<std::pair<const char*, const char*>> values = {
      {"T-F", "*"}, {"-TF", "0"}, {"F-T", "0"}, {"-TTF", "0"}, {"FT-", "1"}, {"TFT-", "1"},
      {"T-TF", "1/2"}, {"TFTF-", "0"}, {"TFF-T", "0"}, {"TF-TF", "0"}, {"F-TTF", "0"},
      {"-TTFF", "0"}, {"TTFF", "0"}, {"TFT-F", "*"}, {"T-TFF", "^"},
      {"TTTF-F", "Miny(1/4)"}, {"TTTF-F", "{{1/4|0}|0}"}, {"TT---F", "2*"},
      {"TFTF-TF", "0"}, {"TFTFTF-", "0"}, {"TFTFT-F", "*"}, {"TF-TTFF", "0"},
      {"TFT-TFF", "^"}, {"-TTFTFF", "0"}, {"T-TFTFF", "{0|^}"}, {"T--FF", "-1"},
      {"T---F", "*"}, {"T-FF", "{0|-1/2}"},
      {"TTTTT--FFFFF",
       "+-{{2|*},{5/2||2|{0||||{0||v<2>|-1},{0||||0||Miny(1/32)|-2|||-1/2*}|||v<2>|-1/2||-1*}|||0}}"},
  };
  for (const auto& [board, value] : values) {
    const FormId g = engine.value(board);
    INFO(board << " = " << t.to_string(g) << ", expected " << value);
    CHECK(g == t.parse(value));
  }
  // CGSuite prints the big one exactly so, and the Miny and the double up its own way
  CHECK(t.to_string(engine.value("TTTTT--FFFFF")) ==
        "+-{{2|*},{5/2||2|{0||||{0||v<2>|-1},{0||||0||Miny(1/32)|-2|||-1/2*}|||v<2>|-1/2||-1*}|||0}}");
  CHECK(t.to_string(engine.value("TTTF-F")) == "Miny(1/4)");
  CHECK(t.to_string(engine.value("T-TFTFF")) == "^^*");
  // the outcome classes the spec lists
  CHECK(t.outcome(engine.value("T-F")) == OutcomeClass::N);
  CHECK(t.outcome(engine.value("TFT-F")) == OutcomeClass::N);
  CHECK(t.outcome(engine.value("T-TFF")) == OutcomeClass::L);
  CHECK(t.outcome(engine.value("TTFF")) == OutcomeClass::P);
  // TTT--FFF is hot; T^a--F^a for a = 4, 5 is infinitesimal
  CHECK(t.kind(engine.value("TTT--FFF")) == Kind::Hot);
  CHECK(t.kind(engine.value("TTTT--FFFF")) == Kind::Infinitesimal);
  CHECK(t.kind(engine.value("TTTTT--FFFFF")) == Kind::Infinitesimal);
}

TEST_CASE("Toads and Frogs: Erickson's formulas on small cases", "[cgt][literature]") {
  FormTable t;
  EngineBoards engine{t, {}};
  auto rep = [](char c, int k) { return std::string(size_t(k), c); };
  auto n = [&](int64_t k) { return t.integer(k); };
  // E1: T^a--F^b = {{a-3|a-b}|{*|3-b}} for a > b >= 2
  for (int a = 3; a <= 5; ++a)
    for (int b = 2; b < a && a + b + 2 <= 10; ++b) {
      const FormId want = t.make({t.make({n(a - 3)}, {n(a - b)})}, {t.make({t.star()}, {n(3 - b)})});
      INFO("a=" << a << " b=" << b);
      CHECK(engine.value(rep('T', a) + "--" + rep('F', b)) == want);
    }
  // E2: T^a---FF = (a-2)* for a >= 2
  for (int a = 2; a <= 6; ++a)
    CHECK(engine.value(rep('T', a) + "---FF") == t.number_up_star({Dyadic(a - 2), 0, 1}));
  // E3: T^a---FFF = a - 7/2 for a >= 5
  for (int a = 5; a <= 6; ++a)
    CHECK(engine.value(rep('T', a) + "---FFF") == t.number(Dyadic(a) - Dyadic::fraction(7, 1)));
  // E4: T^a -^a F^(a-1) is 1 or 1*
  for (int a = 2; a <= 4; ++a) {
    const FormId g = engine.value(rep('T', a) + rep('-', a) + rep('F', a - 1));
    CHECK((g == n(1) || g == t.number_up_star({Dyadic(1), 0, 1})));
  }
}

// ---- CGSuite's own test values --------------------------------------------------------

TEST_CASE("CGSuite's canonical-form test values: printing, stops, mean, temperature, "
          "birthday, outcome, atomic weight",
          "[cgt][notation]") {
  struct Case {
    const char *in, *out, *ls, *rs, *mean, *temp;
    unsigned birthday;
    char oc;
    const char* aw;
  };
  const std::vector<Case> cases = {
      {"0", "0", "0", "0", "0", "-1", 0, 'P', "0"},
      {"5", "5", "5", "5", "5", "-1", 5, 'L', "none"},
      {"-1/2", "-1/2", "-1/2", "-1/2", "-1/2", "-1/2", 2, 'R', "none"},
      {"25/16", "25/16", "25/16", "25/16", "25/16", "-1/16", 6, 'L', "none"},
      {"*8", "*8", "0", "0", "0", "0", 8, 'N', "0"},
      {"9/8+*", "9/8*", "9/8", "9/8", "9/8", "0", 6, 'L', "none"},
      {"^", "^", "0", "0", "0", "0", 2, 'L', "1"},
      {"v*", "v*", "0", "0", "0", "0", 2, 'N', "-1"},
      {"6+^*", "6^*", "6", "6", "6", "0", 8, 'L', "none"},
      {"^*6", "^*6", "0", "0", "0", "0", 8, 'L', "1"},
      {"73/16+v9*8", "73/16v9*8", "73/16", "73/16", "73/16", "0", 27, 'L', "none"},
      {"{0|*||*|||*||||*}", "^[4]", "0", "0", "0", "0", 5, 'L', "1"},
      {"{0||0|v*}", "{0|^<2>}", "0", "0", "0", "0", 4, 'L', "1"},
      {"{0||0,v*|vv|||{0||0,v*|vv|||vv,{0,v*|vv}},{0||0,v*|vv}|{0||0,v*|vv|||vv,{0,v*|vv}||||vv}}",
       "{0||0,v*|vv|||{0||0,v*|vv|||vv,{0,v*|vv}},{0||0,v*|vv}|{0||0,v*|vv|||vv,{0,v*|vv}||||vv}}",
       "0", "0", "0", "0", 9, 'L', "0"},
      {"{0,*,*2,*3,{0,*,*2,*3,*4||*4,v*5|vv*4}||{0,*,*2,*3,*4||*4,v*5|vv*4|||vv*4,{*4,v*5|vv*4}},"
       "{0,*,*2,*3,*4||*4,v*5|vv*4}|{0,*,*2,*3,*4||*4,v*5|vv*4|||vv*4,{*4,v*5|vv*4}||||vv*4}}",
       "{0,*,*2,*3,{0,*,*2,*3,*4||*4,v*5|vv*4}||{0,*,*2,*3,*4||*4,v*5|vv*4|||vv*4,{*4,v*5|vv*4}},"
       "{0,*,*2,*3,*4||*4,v*5|vv*4}|{0,*,*2,*3,*4||*4,v*5|vv*4|||vv*4,{*4,v*5|vv*4}||||vv*4}}",
       "0", "0", "0", "0", 12, 'N', "0"},
      {"{0||0|vvv}", "{0||0|v3}", "0", "0", "0", "0", 6, 'L', "0"},
      {"{^^^|vv}", "{^3|vv}", "0", "0", "0", "0", 5, 'N', "{1|0}"},
      {"{0||0|-3/2}", "Tiny(3/2)", "0", "0", "0", "0", 5, 'L', "0"},
      {"{0|||0||-1|-3}", "Tiny({3|1})", "0", "0", "0", "0", 6, 'L', "0"},
      {"{5||3|1|||0||||0}", "Miny({5||3|1})", "0", "0", "0", "0", 8, 'R', "0"},
      {"{1|^^||^}", "{1|^^||^}", "0", "0", "0", "0", 5, 'L', "2"},
      {"{1|^^^||^}", "{1|^3||^}", "0", "0", "0", "0", 6, 'L', "none"},
      {"{3||2+*|1+*}", "{3||2*|1*}", "3", "2", "9/4", "3/4", 5, 'L', "none"},
      {"{3/2+*|1/2||{0|-3},{-1+*,{-1/2|-1+*}|-5/2}}", "{3/2*|1/2||{0|-3},{-1*,{-1/2|-1*}|-5/2}}",
       "1/2", "-1", "-5/16", "21/16", 6, 'N', "none"},
  };
  FormTable t;
  for (const Case& c : cases) {
    const FormId g = t.parse(c.in);
    INFO(c.in << " prints " << t.to_string(g));
    CHECK(t.to_string(g) == c.out);
    CHECK(t.parse(c.out) == g);
    CHECK(t.left_stop(g).to_string() == c.ls);
    CHECK(t.right_stop(g).to_string() == c.rs);
    CHECK(t.mean(g).to_string() == c.mean);
    CHECK(t.temperature(g).to_string() == c.temp);
    CHECK(t.birthday(g) == c.birthday);
    CHECK(outcome_name(t.outcome(g)) == c.oc);
    CHECK(str(t, t.atomic_weight(g)) == c.aw);
  }
}

TEST_CASE("thermographs: CGSuite's walls, and the standard small games", "[cgt][thermograph]") {
  FormTable t;
  using P = Trajectory::Piece;
  auto d = [](int64_t n, int e = 0) { return Dyadic::fraction(n, e); };
  auto walls = [&](const char* g) { return t.thermograph(t.parse(g)); };
  {
    const Thermograph th = walls("{3||2*|1*}");
    CHECK(th.left_wall.pieces == std::vector<P>{{d(0), d(3), -1}, {d(3, 2), d(9, 2), 0}});
    CHECK(th.right_wall.pieces ==
          std::vector<P>{{d(0), d(2), 0}, {d(1, 1), d(2), 1}, {d(3, 2), d(9, 2), 0}});
  }
  {
    const Thermograph th = walls("{3/2*|1/2||{0|-3},{-1*,{-1/2|-1*}|-5/2}}");
    CHECK(th.left_wall.pieces ==
          std::vector<P>{{d(0), d(1, 1), 0}, {d(1, 1), d(1, 1), -1}, {d(21, 4), d(-5, 4), 0}});
    CHECK(th.right_wall.pieces == std::vector<P>{{d(0), d(-1), 1},
                                                 {d(1, 2), d(-3, 2), 0},
                                                 {d(7, 3), d(-3, 2), 1},
                                                 {d(21, 4), d(-5, 4), 0}});
    CHECK(th.left_wall.at(d(1)) == d(0));  // 1/2 - (1 - 1/2)
    CHECK(th.right_wall.at(d(1)) == d(-3, 2) + d(1, 3));  // -3/4 + (1 - 7/8)
  }
  // {2|*}: stops 2 and 0, walls 2 - t and t meeting at t = 1: mean 1, temperature 1
  const FormId sw = t.parse("{2|*}");
  CHECK(t.left_stop(sw) == d(2));
  CHECK(t.right_stop(sw) == d(0));
  CHECK(t.mean(sw) == d(1));
  CHECK(t.temperature(sw) == d(1));
  CHECK(t.kind(sw) == Kind::Hot);
  // +-1: temperature 1, mean 0; 1/2: -1/2 by CGSuite's convention, an integer -1
  CHECK(t.temperature(t.parse("+-1")) == d(1));
  CHECK(t.mean(t.parse("+-1")) == d(0));
  CHECK(t.temperature(t.parse("1/2")) == d(-1, 1));
  CHECK(t.temperature(t.parse("-3/8")) == d(-1, 3));
  CHECK(t.temperature(t.parse("7")) == d(-1));
  CHECK(t.temperature(t.parse("*")) == d(0));
  CHECK(t.temperature(t.parse("^")) == d(0));
  CHECK(t.temperature(t.parse("{1|0}")) == d(1, 1));
  CHECK(t.mean(t.parse("{1|0}")) == d(1, 1));
  CHECK(t.temperature(t.parse("{5|{1|0}}")) == d(9, 2));  // mean 11/4: 5 - t = 1/2 + t
  CHECK(t.mean(t.parse("{5|{1|0}}")) == d(11, 2));
}

TEST_CASE("stops past 32 bits (a record keeps them beside its options): numbers, switches, sums, "
          "thermographs", "[cgt]") {
  // a record holds its stops as packed dyadics (numerator * 64 + exponent) in 32 bits each
  // when they fit; these need more (a numerator past 2^25), so they are kept after the options
  FormTable t;
  const Dyadic a = Dyadic::fraction((int64_t{1} << 26) + 1, 20), b = Dyadic::fraction((int64_t{1} << 27) - 3, 21);
  const Dyadic step = Dyadic::fraction(1, 20);
  REQUIRE(a.packed() > INT32_MAX);
  REQUIRE(b.packed() > INT32_MAX);
  const FormId x = t.number(a), y = t.number(b), z = t.number(a + step);
  CHECK(t.left_stop(x) == a);
  CHECK(t.right_stop(x) == a);
  CHECK(t.number_value(x) == a);
  CHECK(t.number_value(y) == b);
  CHECK(t.is_number(x));
  CHECK(t.birthday(x) == 64 + 21);  // 64 on day 64, then 65, 64 + 1/2, .., 64 + 1/2^20
  CHECK(t.less(x, z));
  CHECK_FALSE(t.leq(z, x));
  CHECK(t.number_value(t.negate(x)) == -a);
  CHECK(t.right_stop(t.negate(x)) == -a);
  CHECK(t.sum(x, y) == t.number(a + b));
  CHECK(t.sum(x, t.negate(x)) == t.zero());
  CHECK(t.to_string(x) == a.to_string());
  CHECK(t.parse(a.to_string()) == x);
  // a switch between them, and its negative: stops, kind, mean, temperature
  const FormId sw = t.make({z}, {x});
  CHECK(t.left_stop(sw) == a + step);
  CHECK(t.right_stop(sw) == a);
  CHECK(t.kind(sw) == Kind::Hot);
  CHECK(t.mean(sw) == a + step.half());
  CHECK(t.temperature(sw) == step.half());
  const FormId neg = t.negate(sw);
  CHECK(t.left_stop(neg) == -a);
  CHECK(t.right_stop(neg) == -(a + step));
  CHECK(t.sum(sw, neg) == t.zero());
  // x* and x^: number-up-stars on a wide number, and a game on them of the plain sum
  const FormId xs = t.sum(x, t.star()), xu = t.sum(x, t.up());
  CHECK(t.kind(xs) == Kind::NumberPlusInfinitesimal);
  CHECK(t.left_stop(xs) == a);
  CHECK(t.number_up_star_value(xu) == NumberUpStar{a, 1, 0});
  CHECK(t.make({x}, {x}) == xs);
  CHECK(t.fuzzy(xs, x));
  CHECK(t.less(x, xu));
  const FormId hot = t.make({xu, z}, {xs});
  CHECK(t.left_stop(hot) == a + step);
  CHECK(t.right_stop(hot) == a);
  CHECK(t.to_string(t.parse(t.to_string(hot))) == t.to_string(hot));
}

TEST_CASE("kinds, outcome classes and the number tests", "[cgt]") {
  FormTable t;
  auto k = [&](const char* g) { return t.kind(t.parse(g)); };
  CHECK(k("0") == Kind::Number);
  CHECK(k("-3/4") == Kind::Number);
  CHECK(k("*") == Kind::Nimber);
  CHECK(k("*3") == Kind::Nimber);
  CHECK(k("^") == Kind::Infinitesimal);
  CHECK(k("^*") == Kind::Infinitesimal);
  CHECK(k("Tiny(2)") == Kind::Infinitesimal);
  CHECK(k("2*") == Kind::NumberPlusInfinitesimal);
  CHECK(k("-1/2v") == Kind::NumberPlusInfinitesimal);
  CHECK(k("3+Tiny(1)") == Kind::NumberPlusInfinitesimal);
  CHECK(k("+-1") == Kind::Hot);
  CHECK(k("{2|*}") == Kind::Hot);
  CHECK(kind_name(Kind::NumberPlusInfinitesimal) == "number plus infinitesimal");
  CHECK(t.is_number(t.parse("{0|1}")));
  CHECK(t.is_integer(t.parse("{1|}")));
  CHECK(!t.is_number(t.parse("{1|1}")));
  CHECK(t.is_nimber(t.parse("{0,*|0,*}")));
  CHECK(t.number_value(t.parse("{1/2|1}")) == Dyadic::fraction(3, 2));
  CHECK(t.outcome(t.parse("^*")) == OutcomeClass::N);
  CHECK(t.outcome(t.parse("^^*")) == OutcomeClass::L);
  CHECK(t.outcome(t.parse("-1/4")) == OutcomeClass::R);
  CHECK(t.fuzzy(t.parse("*"), t.zero()));
  CHECK(t.less(t.parse("v"), t.parse("0")));
  CHECK(t.geq(t.parse("^*2"), t.zero()));
}

// ---- identities -----------------------------------------------------------------------

TEST_CASE("identities over every board value of 1..9 cells: G + (-G) = 0, the mirror is the "
          "negative, no dominated or reversible option left, stops and walls agree",
          "[cgt][identities]") {
  FormTable t;
  EngineBoards engine{t, {}};
  std::set<FormId> values;
  uint64_t mirror_bad = 0;
  for (int n = 1; n <= 9; ++n)
    for (const std::string& b : all_boards(n)) {
      const FormId g = engine.value(b);
      values.insert(g);
      if (engine.value(mirror(b)) != t.negate(g) && ++mirror_bad <= 5)
        FAIL_CHECK(b << " = " << t.to_string(g) << ", its mirror " << t.to_string(engine.value(mirror(b))));
    }
  CHECK(mirror_bad == 0);
  for (FormId g : values) {
    INFO(t.to_string(g));
    CHECK(t.sum(g, t.negate(g)) == t.zero());
    CHECK(t.negate(t.negate(g)) == g);
    CHECK(t.left_stop(t.negate(g)) == -t.right_stop(g));
    CHECK(!(t.left_stop(g) < t.right_stop(g)));
    const Thermograph& th = t.thermograph(g);
    CHECK(th.left_wall.at(Dyadic(0)) == t.left_stop(g));
    CHECK(th.right_wall.at(Dyadic(0)) == t.right_stop(g));
    CHECK(t.mean(t.negate(g)) == -t.mean(g));
    if (!t.is_number(g)) CHECK(t.temperature(g) >= Dyadic(0));
    CHECK((t.kind(g) == Kind::Hot) == (t.temperature(g) > Dyadic(0)));
  }
  // every form the table holds now (board values, their options, sums, negatives) is canonical
  uint64_t bad = 0;
  for (FormId g = 0; g < t.size(); ++g)
    if (!is_canonical(t, g) && ++bad <= 5) FAIL_CHECK("not canonical: " << t.to_string(g));
  CHECK(bad == 0);
  INFO(values.size() << " distinct values, " << t.size() << " forms");
  CHECK(values.size() > 500);
}

TEST_CASE("nimbers add by xor, numbers add as numbers", "[cgt][identities]") {
  FormTable t;
  SlowSum slow{t, {}};
  for (unsigned a = 0; a < 16; ++a)
    for (unsigned b = 0; b < 16; ++b) {
      CHECK(t.sum(t.nimber(a), t.nimber(b)) == t.nimber(a ^ b));
      if (a < 6 && b < 6) CHECK(slow(t.nimber(a), t.nimber(b)) == t.nimber(a ^ b));
    }
  // past the 64 nimbers the mex shortcut tracks
  std::vector<FormId> low;
  for (unsigned j = 0; j < 70; ++j) low.push_back(t.nimber(j));
  CHECK(t.make(low, low) == t.nimber(70));
  CHECK(t.sum(t.nimber(70), t.nimber(5)) == t.nimber(70 ^ 5));
  CHECK(t.to_string(t.nimber(70)) == "*70");
  std::mt19937 rng(5);
  std::uniform_int_distribution<int64_t> num(-40, 40);
  std::uniform_int_distribution<int> ex(0, 4);
  for (int k = 0; k < 300; ++k) {
    const Dyadic x = Dyadic::fraction(num(rng), ex(rng)), y = Dyadic::fraction(num(rng), ex(rng));
    const FormId gx = t.number(x), gy = t.number(y);
    INFO(x.to_string() << " and " << y.to_string());
    CHECK(t.sum(gx, gy) == t.number(x + y));
    CHECK(t.negate(gx) == t.number(-x));
    CHECK(t.leq(gx, gy) == (x <= y));
    CHECK(t.number_value(gx) == x);
    CHECK(t.to_string(gx) == x.to_string());
    if (k < 40) CHECK(slow(gx, gy) == t.number(x + y));
  }
  // the canonical forms of numbers
  CHECK(t.left(t.number(Dyadic(3)))[0] == t.integer(2));
  CHECK(t.right(t.number(Dyadic(3))).empty());
  CHECK(t.left(t.number(Dyadic::fraction(-3, 2)))[0] == t.integer(-1));
  CHECK(t.right(t.number(Dyadic::fraction(-3, 2)))[0] == t.number(Dyadic::fraction(-1, 1)));
}

TEST_CASE("sums are commutative and associative, and match the plain sum, on sampled values",
          "[cgt][identities]") {
  FormTable t;
  EngineBoards engine{t, {}};
  SlowSum slow{t, {}};
  std::vector<FormId> forms;
  std::set<FormId> seen;
  for (int n = 1; n <= 8; ++n)
    for (const std::string& b : all_boards(n))
      if (seen.insert(engine.value(b)).second) forms.push_back(engine.value(b));
  std::mt19937 rng(3);
  std::uniform_int_distribution<size_t> pick(0, forms.size() - 1);
  for (int k = 0; k < 400; ++k) {
    const FormId a = forms[pick(rng)], b = forms[pick(rng)], c = forms[pick(rng)];
    INFO(t.to_string(a) << ", " << t.to_string(b) << ", " << t.to_string(c));
    CHECK(t.sum(a, b) == t.sum(b, a));
    CHECK(t.sum(t.sum(a, b), c) == t.sum(a, t.sum(b, c)));
    CHECK(t.difference(t.sum(a, b), b) == a);
    if (k < 60) CHECK(slow(a, b) == t.sum(a, b));
    // means add, and the order agrees with differences
    CHECK(t.mean(t.sum(a, b)) == t.mean(a) + t.mean(b));
    const FormId d = t.difference(b, a);
    CHECK(t.leq(a, b) == t.leq(t.zero(), d));
  }
}

TEST_CASE("uptimals: ^<n>, ^[n] and expansions", "[cgt][notation]") {
  FormTable t;
  // ^[n] = ^ + ^<2> + .. + ^<n>
  for (unsigned n = 1; n <= 6; ++n) {
    FormId s = t.zero();
    for (unsigned k = 1; k <= n; ++k) s = t.sum(s, t.up_nth(k));
    CHECK(s == t.up_sum(n));
  }
  CHECK(t.up_nth(2) == t.parse("{0|v*}"));
  CHECK(t.to_string(t.up_nth(2)) == "^<2>");
  CHECK(t.to_string(t.negate(t.up_nth(3))) == "v<3>");
  CHECK(t.to_string(t.up_sum(3)) == "^[3]");
  // {0|^<2>} = * + ^ + 2.^<2>: expansion *.12, printed as a game
  const auto e = t.uptimal_expansion(t.parse("{0|^<2>}"));
  REQUIRE(e);
  CHECK(e->digits == std::vector<int>{1, 2});
  CHECK(e->nim == 1);
  CHECK(t.uptimal(*e) == t.parse("{0|^<2>}"));
  CHECK(!t.uptimal_expansion(t.parse("{0||0|v3}")));
  CHECK(!t.uptimal_expansion(t.parse("{1|0}")));
  // round trips of expansions
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> digit(-2, 2), len(0, 4), nim(0, 3), num(-3, 3);
  for (int k = 0; k < 60; ++k) {
    FormTable::UptimalExpansion x{Dyadic::fraction(num(rng), 1), {}, unsigned(nim(rng))};
    x.digits.resize(size_t(len(rng)));
    for (int& d : x.digits) d = digit(rng);
    while (!x.digits.empty() && x.digits.back() == 0) x.digits.pop_back();
    const FormId g = t.uptimal(x);
    INFO(t.to_string(g));
    const auto back = t.uptimal_expansion(g);
    REQUIRE(back);
    CHECK(*back == x);
    CHECK(t.parse(t.to_string(g)) == g);
  }
}

TEST_CASE("notation: round trips of every form met, and the parser's forms and errors",
          "[cgt][notation]") {
  FormTable t;
  EngineBoards engine{t, {}};
  for (int n = 1; n <= 8; ++n)
    for (const std::string& b : all_boards(n)) engine.value(b);
  engine.value("TTTTT--FFFFF");
  const size_t n = t.size();
  uint64_t bad = 0;
  for (FormId g = 0; g < n; ++g) {
    const std::string s = t.to_string(g);
    FormId back = kNoForm;
    try {
      back = t.parse(s);
    } catch (const ParseError& e) {
      FAIL_CHECK(e.what());
    }
    if (back != g && ++bad <= 5) FAIL_CHECK(s << " reads back as " << (back == kNoForm ? "nothing" : t.to_string(back)));
  }
  CHECK(bad == 0);

  // other spellings of the same values
  CHECK(t.parse("{0|}") == t.integer(1));
  CHECK(t.parse("{|}") == t.zero());
  CHECK(t.parse(" { 0 , * | 0 , * } ") == t.nimber(2));
  CHECK(t.parse("^^^") == t.parse("^3"));
  CHECK(t.parse("^ + ^ + *") == t.parse("^^*"));
  CHECK(t.parse("1 - 1/2") == t.parse("1/2"));
  CHECK(t.parse("-1^") == t.parse("-1 + ^"));
  CHECK(t.parse("-(1^)") == t.parse("-1v"));
  CHECK(t.parse("\xC2\xB1" "1") == t.parse("+-1"));
  CHECK(t.parse("+-(1*)") == t.parse("{1*|-1*}"));
  CHECK(t.parse("+-{1,{2|1}}") == t.parse("{1,{2|1}|-1,{-1|-2}}"));
  CHECK(t.parse("(1/32).Miny") == t.parse("Miny(1/32)"));
  CHECK(t.parse("3Tiny({3|1})") == t.parse("3 + Tiny({3|1})"));
  CHECK(t.parse("{1|{0|-1}}") == t.parse("{1||0|-1}"));
  CHECK(t.parse("{{1|0}|-1}") == t.parse("{1|0||-1}"));
  CHECK(t.to_string(t.parse("3Tiny({3|1})")) == "3Tiny({3|1})");
  CHECK(t.to_string(t.parse("+-(1*)")) == "+-(1*)");
  CHECK(t.to_string(t.parse("{1|-1}")) == "+-1");
  CHECK(t.to_string(t.parse("{*|*}")) == "0");
  CHECK(t.to_string(t.parse("{2|*}")) == "{2|*}");

  for (const char* badtext : {"", "{1|2|3}", "{", "{1,2}", "1/3", "{1|}}", "^<0>", "Tiny(1",
                              "{,1|}", "2 3", "x", "*-", "-", "+-{}"})
    CHECK_THROWS_AS(t.parse(badtext), ParseError);
}

TEST_CASE("notation: the length counted without printing, and printing bounded by a limit, agree with the text",
          "[cgt][notation]") {
  FormTable t;
  add_printing_forms(t);
  const size_t n = t.size();
  size_t longest = 0;
  uint64_t bad = 0;
  for (FormId g = 0; g < n; ++g) {
    const std::string s = t.to_string(g);
    longest = std::max(longest, s.size());
    const bool same = t.printed_length(g) == s.size() && t.to_string(g, s.size()) == s &&
                      t.to_string(g, UINT64_MAX) == s && !t.to_string(g, s.size() - 1).has_value();
    if (!same && ++bad <= 5)
      FAIL_CHECK(s << ": counted " << t.printed_length(g) << ", bounded by its length "
                   << t.to_string(g, s.size()).value_or("(none)"));
  }
  CHECK(bad == 0);
  CHECK(longest > 100);
  CHECK_FALSE(t.to_string(t.zero(), 0).has_value());  // "0" is one character
}

TEST_CASE("notation: printing with a memo of texts printed before gives the texts printed without one",
          "[cgt][notation]") {
  FormTable t;
  add_printing_forms(t);
  // each way print_composite prints: Tiny and Miny, switches, uptimals, and forms of them
  for (const char* v : {"3Tiny({3|1})", "(1/32).Miny", "+-{1,{2|1}}", "+-(1*)", "^<3>*", "^[4]", "{1|{0|-1}}",
                        "{3Tiny({3|1}),+-{1,{2|1}}|^<3>*,(1/32).Miny}", "{^[4],+-(1*)||{1|{0|-1}}}"})
    t.parse(v);
  const FormId n = static_cast<FormId>(t.size());
  std::vector<std::string> plain(n);
  for (FormId g = 0; g < n; ++g) plain[g] = t.to_string(g);

  // a memo large enough to keep everything, and one so small it forgets again and again
  PrintMemo big, small(4096), tiny(16);
  uint64_t bad = 0;
  auto check = [&](PrintMemo& memo, FormId g) {
    const auto s = t.to_string(g, UINT64_MAX, &memo);
    if (s != plain[g] && ++bad <= 5) FAIL_CHECK(plain[g] << " printed with a memo as " << s.value_or("(none)"));
  };
  for (FormId g = 0; g < n; ++g) check(big, g);     // options before the forms they make
  for (FormId g = n; g-- > 0;) check(small, g);      // forms before their options
  for (FormId g = 0; g < n; ++g) check(tiny, g);     // only the shortest texts kept
  for (FormId g = 0; g < n; ++g) check(big, g);      // everything from the memo
  CHECK(bad == 0);
  CHECK(small.chars() <= 4096);
  CHECK(tiny.chars() <= 16);
  for (const char* v : {"3Tiny({3|1})", "+-{1,{2|1}}", "^<3>*"})  // the branches were printed
    CHECK(std::find(plain.begin(), plain.end(), std::string(v)) != plain.end());
  CHECK(big.chars() > 4096);

  // a text cut short by the limit leaves nothing of itself in the memo
  for (FormId g = 0; g < n; ++g) {
    if (plain[g].size() < 40) continue;
    PrintMemo memo;
    CHECK_FALSE(t.to_string(g, plain[g].size() - 1, &memo).has_value());
    CHECK(t.to_string(g, plain[g].size() - 1, &memo) == std::nullopt);
    CHECK(t.to_string(g, plain[g].size(), &memo) == plain[g]);
    CHECK(t.to_string(g, UINT64_MAX, &memo) == plain[g]);
  }

  // a memo handed another table forgets the first's texts: the same ids are other forms there
  FormTable u;
  EngineBoards other{u, {}};
  for (const char* b : {"TT-T-F-TFFFFF", "T-T-FTFFFFFF"}) other.value(b);
  for (int m = 9; m >= 1; --m)
    for (const std::string& b : all_boards(m)) other.value(b);
  uint64_t differ = 0, wrong = 0;
  for (FormId g = 0; g < std::min<FormId>(n, static_cast<FormId>(u.size())); ++g) {
    const std::string s = u.to_string(g);
    differ += s != plain[g];
    wrong += u.to_string(g, UINT64_MAX, &big) != s;
  }
  CHECK(differ > 100);  // the test means something: the two tables number their forms apart
  CHECK(wrong == 0);
  for (FormId g = 0; g < n; ++g) check(big, g);  // and back to the first table
  CHECK(bad == 0);
}

TEST_CASE("atomic weights: ups, nimbers, Tiny, and sums of all-small games", "[cgt]") {
  FormTable t;
  auto aw = [&](const char* g) { return str(t, t.atomic_weight(t.parse(g))); };
  CHECK(aw("^") == "1");
  CHECK(aw("vv*") == "-2");
  CHECK(aw("^*3") == "1");
  CHECK(aw("*5") == "0");
  CHECK(aw("^<2>") == "0");
  CHECK(aw("^[3]") == "1");
  CHECK(aw("{0|^<2>}") == "1");
  CHECK(aw("1") == "none");
  CHECK(aw("+-1") == "none");
  CHECK(aw("1^") == "none");
  // atomic weight adds over all-small games
  const std::vector<const char*> small = {"^", "v*", "{0|^<2>}", "^[3]", "{^^^|vv}", "*2", "^^*"};
  for (const char* a : small)
    for (const char* b : small) {
      const FormId s = t.sum(t.parse(a), t.parse(b));
      REQUIRE(t.is_all_small(s));
      INFO(a << " + " << b);
      CHECK(t.atomic_weight(s) == t.sum(*t.atomic_weight(t.parse(a)), *t.atomic_weight(t.parse(b))));
    }
}

// ---- threads and deterministic ids ----------------------------------------------------

TEST_CASE("two threads build the same values as one, and deterministic renumbering gives the "
          "same table either way",
          "[cgt][threads]") {
  std::vector<std::string> boards;
  for (int n = 1; n <= 9; ++n)
    for (const std::string& b : all_boards(n)) boards.push_back(b);

  FormTable one;
  EngineBoards single{one, {}};
  std::vector<FormId> single_ids;
  for (const auto& b : boards) single_ids.push_back(single.value(b));

  FormTable two;
  EngineBoards e0{two, {}}, e1{two, {}};
  std::thread a([&] {
    for (size_t i = 0; i < boards.size(); ++i) e0.value(boards[i]);
  });
  std::thread b([&] {
    for (size_t i = boards.size(); i-- > 0;) e1.value(boards[i]);  // the other way round
  });
  a.join();
  b.join();
  std::vector<FormId> two_ids;
  uint64_t mismatch = 0;
  for (const auto& bd : boards) {
    const FormId x = e0.value(bd), y = e1.value(bd);
    two_ids.push_back(x);
    if (x != y || two.to_string(x) != one.to_string(single.value(bd))) ++mismatch;
  }
  CHECK(mismatch == 0);
  CHECK(two.size() == one.size());

  // the same forms by structure, whatever order made them
  const Renumbering r1 = renumber_by_structure(one), r2 = renumber_by_structure(two);
  REQUIRE(r1.order.size() == one.size());
  REQUIRE(r2.order.size() == two.size());
  const auto t1 = one.rebuild(r1.order), t2 = two.rebuild(r2.order);
  REQUIRE(t1->size() == t2->size());
  uint64_t differ = 0;
  for (FormId g = 0; g < t1->size(); ++g) {
    const auto l1 = t1->left(g), l2 = t2->left(g), q1 = t1->right(g), q2 = t2->right(g);
    if (!std::equal(l1.begin(), l1.end(), l2.begin(), l2.end()) ||
        !std::equal(q1.begin(), q1.end(), q2.begin(), q2.end()))
      ++differ;
  }
  CHECK(differ == 0);
  for (size_t i = 0; i < boards.size(); ++i)
    CHECK(r1.new_id[single_ids[i]] == r2.new_id[two_ids[i]]);

  // by first use from the boards, in board order
  const Renumbering f1 = renumber_by_first_use(one, single_ids), f2 = renumber_by_first_use(two, two_ids);
  REQUIRE(f1.order.size() == f2.order.size());
  for (size_t i = 0; i < boards.size(); ++i) CHECK(f1.new_id[single_ids[i]] == f2.new_id[two_ids[i]]);
  const auto u1 = one.rebuild(f1.order);
  for (size_t i = 0; i < boards.size(); i += 97)
    CHECK(u1->to_string(f1.new_id[single_ids[i]]) == one.to_string(single_ids[i]));
}

TEST_CASE("compact: the forms kept answer as before under their new ids, the forms let go come back "
          "as new ids of the same values, and no cache remembers an old id",
          "[cgt][compact]") {
  FormTable t;
  EngineBoards eb{t, {}};
  std::vector<std::string> short_boards, long_boards;
  for (int n = 1; n <= 8; ++n)
    for (const std::string& b : all_boards(n)) (n <= 5 ? short_boards : long_boards).push_back(b);
  std::vector<FormId> roots;
  for (const auto& b : short_boards) roots.push_back(eb.value(b));
  for (const auto& b : long_boards) eb.value(b);
  // fill the caches and the thermograph arena with old ids: sums, negatives, <=, atomic
  // weights, means, uptimal expansions, number-up-stars
  std::vector<FormId> all;
  for (const auto& b : long_boards) all.push_back(eb.memo.at(b));
  for (size_t i = 0; i + 1 < all.size(); i += 41) {
    t.sum(all[i], all[i + 1]);
    t.leq(all[i], all[i + 1]);
    t.atomic_weight(all[i]);
    t.mean(all[i]);
    t.uptimal_expansion(all[i]);
  }
  t.number_up_star({Dyadic(3), 2, 1});
  // every negative in the table too, and whatever printing and thermographs make
  for (size_t done = 0; done < t.size();) {
    const size_t upto = t.size();
    for (FormId g = static_cast<FormId>(done); g < upto; ++g) {
      t.negate(g);
      t.to_string(g);
      t.temperature(g);
    }
    done = upto;
  }
  const size_t before = t.size();
  std::vector<std::string> text(before), negative(before);
  std::vector<Dyadic> temperature(before);
  for (FormId g = 0; g < before; ++g) {
    text[g] = t.to_string(g);
    negative[g] = t.to_string(t.negate(g));
    temperature[g] = t.temperature(g);
  }
  REQUIRE(t.size() == before);

  const std::vector<FormId> new_id = t.survivors(std::vector<std::span<const FormId>>{roots});
  REQUIRE(new_id.size() == before);
  CHECK(new_id[0] == 0);
  size_t kept = 0;
  for (FormId g = 0; g < before; ++g) {
    if (new_id[g] == kNoForm) continue;
    CHECK(new_id[g] == kept);  // in order, from 0
    ++kept;
    for (auto side : {t.left(g), t.right(g)})
      for (FormId x : side) CHECK(new_id[x] != kNoForm);  // closed under options
  }
  for (FormId g : roots) CHECK(new_id[g] != kNoForm);
  REQUIRE(kept < before / 2);  // the long boards' forms are most of the table

  // what each kept form is, by its old id
  std::vector<std::vector<FormId>> left(before), right(before);
  std::vector<Dyadic> ls(before), rs(before);
  std::vector<unsigned> born(before);
  for (FormId g = 0; g < before; ++g) {
    if (new_id[g] == kNoForm) continue;
    for (FormId x : t.left(g)) left[g].push_back(new_id[x]);
    for (FormId x : t.right(g)) right[g].push_back(new_id[x]);
    ls[g] = t.left_stop(g);
    rs[g] = t.right_stop(g);
    born[g] = t.birthday(g);
  }
  t.compact(new_id);
  REQUIRE(t.size() == kept);
  uint64_t wrong = 0;
  for (FormId g = 0; g < before; ++g) {
    const FormId k = new_id[g];
    if (k == kNoForm) continue;
    const auto l = t.left(k), r = t.right(k);
    if (!std::equal(l.begin(), l.end(), left[g].begin(), left[g].end()) ||
        !std::equal(r.begin(), r.end(), right[g].begin(), right[g].end()) || t.left_stop(k) != ls[g] ||
        t.right_stop(k) != rs[g] || t.birthday(k) != born[g] || t.to_string(k) != text[g] ||
        t.temperature(k) != temperature[g] || t.to_string(t.negate(k)) != negative[g])
      ++wrong;
    if (t.make(l, r) != k) ++wrong;  // interned where the index says: found, not made again
  }
  CHECK(wrong == 0);

  // the boards again in a fresh memo: the short ones give their kept forms, the long ones
  // their values again (as new forms), and no value is in the table twice
  EngineBoards again{t, {}};
  for (size_t i = 0; i < short_boards.size(); ++i) CHECK(again.value(short_boards[i]) == new_id[roots[i]]);
  uint64_t differ = 0;
  for (size_t i = 0; i < long_boards.size(); ++i)
    if (t.to_string(again.value(long_boards[i])) != text[all[i]]) ++differ;
  CHECK(differ == 0);
  for (size_t i = 0; i + 1 < long_boards.size(); i += 41) {
    const FormId a = again.value(long_boards[i]), b = again.value(long_boards[i + 1]);
    FormTable fresh;
    EngineBoards f{fresh, {}};
    const FormId fa = f.value(long_boards[i]), fb = f.value(long_boards[i + 1]);
    CHECK(t.to_string(t.sum(a, b)) == fresh.to_string(fresh.sum(fa, fb)));
    CHECK(t.leq(a, b) == fresh.leq(fa, fb));
    CHECK(str(t, t.atomic_weight(a)) == str(fresh, fresh.atomic_weight(fa)));
  }
  CHECK(t.to_string(t.number_up_star({Dyadic(3), 2, 1})) == "3^^*");
  std::set<std::string> printed;
  for (FormId g = 0; g < t.size(); ++g) printed.insert(t.to_string(g));
  CHECK(printed.size() == t.size());

  // a numbering that does not keep the order, or keeps a form without its options, is refused
  std::vector<FormId> swapped(t.size());
  for (FormId g = 0; g < t.size(); ++g) swapped[g] = g;
  std::swap(swapped[1], swapped[2]);
  CHECK_THROWS_AS(t.compact(swapped), std::invalid_argument);
  std::vector<FormId> orphan(t.size(), kNoForm);
  orphan[0] = 0;
  const FormId last = static_cast<FormId>(t.size() - 1);
  orphan[last] = 1;  // a form of 8 cells without its options
  CHECK_THROWS_AS(t.compact(orphan), std::invalid_argument);
}

TEST_CASE("compact: a table of two chunks, stops past 32 bits and a kept thermograph", "[cgt][compact]") {
  FormTable t;
  const FormId high = t.integer(60000);
  t.integer(-60000);  // 120,001 forms: two chunks of 65,536 records
  const Dyadic fine = Dyadic::fraction((int64_t{1} << 30) - 1, 30);  // packed: past 32 bits
  const FormId w = t.number(fine);
  const FormId hot = t.make({w}, {t.negate(w)});
  const Thermograph th = t.thermograph(hot);
  REQUIRE(t.size() > 65536);
  const std::string high_text = t.to_string(high), w_text = t.to_string(w), hot_text = t.to_string(hot);
  const std::vector<FormId> roots{high, w, hot};
  const std::vector<FormId> new_id = t.survivors(std::vector<std::span<const FormId>>{roots});
  t.compact(new_id);
  REQUIRE(t.size() < 65536);  // the second chunk let go
  CHECK(t.size() > 60000);    // the kept chain grew each shard's index as it was made anew
  const FormId high2 = new_id[high], w2 = new_id[w], hot2 = new_id[hot];
  CHECK(t.to_string(high2) == high_text);
  CHECK(t.to_string(w2) == w_text);
  CHECK(t.to_string(hot2) == hot_text);
  CHECK(t.left_stop(w2) == fine);
  CHECK(t.left_stop(hot2) == fine);
  CHECK(t.right_stop(hot2) == -fine);
  const Thermograph again = t.thermograph(hot2);
  CHECK(again.left_wall == th.left_wall);
  CHECK(again.right_wall == th.right_wall);
  CHECK(again.temperature == th.temperature);
  // found again where they are, and the forms let go made anew
  CHECK(t.integer(60000) == high2);
  CHECK(t.number(fine) == w2);
  CHECK(t.make({w2}, {t.negate(w2)}) == hot2);
  const size_t kept = t.size();
  CHECK(t.to_string(t.integer(-60000)) == "-60000");
  CHECK(t.size() > kept + 59000);
  CHECK(t.to_string(t.sum(t.integer(-60000), high2)) == "0");
}

TEST_CASE("two threads interning the same forms at once get one id each", "[cgt][threads]") {
  FormTable t;
  std::vector<FormId> got[2];
  auto work = [&](int w) {
    // both threads build the same chains of ups, nimbers and numbers, interleaved
    for (unsigned k = 0; k < 300; ++k) {
      got[w].push_back(t.make({t.number_up_star({Dyadic(k % 7), int(k % 11), 0})},
                              {t.nimber(k % 13)}));
      got[w].push_back(t.sum(t.parse("{2|*}"), t.number(Dyadic::fraction(int64_t(k), 3))));
    }
  };
  std::thread a(work, 0), b(work, 1);
  a.join();
  b.join();
  CHECK(got[0] == got[1]);
  std::set<std::string> printed;
  for (FormId g = 0; g < t.size(); ++g) printed.insert(t.to_string(g));
  CHECK(printed.size() == t.size());  // no form twice
}

// ---- benchmark (hidden: run with '[.bench]') -------------------------------------------

TEST_CASE("benchmark: every Toads and Frogs board of 10..12 cells through the engine",
          "[.bench]") {
  // boards as base-3 codes (0 empty, 1 toad, 2 frog; cell i is digit i), values memoised
  for (int n = 10; n <= 12; ++n) {
    FormTable t;
    std::vector<uint32_t> pow3(size_t(n) + 1, 1);
    for (int i = 1; i <= n; ++i) pow3[i] = pow3[i - 1] * 3;
    std::vector<FormId> memo(pow3[n], kNoForm);
    uint64_t makes = 0;
    std::function<FormId(uint32_t)> value = [&](uint32_t code) -> FormId {
      if (memo[code] != kNoForm) return memo[code];
      uint8_t c[32];
      for (int i = 0, x = int(code); i < n; ++i, x /= 3) c[i] = uint8_t(x % 3);
      FormId l[32], r[32];
      size_t nl = 0, nr = 0;
      for (int i = 0; i < n; ++i) {
        if (c[i] == 1) {
          if (i + 1 < n && c[i + 1] == 0)
            l[nl++] = value(code - pow3[i] + pow3[i + 1]);
          else if (i + 2 < n && c[i + 1] == 2 && c[i + 2] == 0)
            l[nl++] = value(code - pow3[i] + pow3[i + 2]);
        } else if (c[i] == 2) {
          if (i >= 1 && c[i - 1] == 0)
            r[nr++] = value(code - 2 * pow3[i] + 2 * pow3[i - 1]);
          else if (i >= 2 && c[i - 1] == 1 && c[i - 2] == 0)
            r[nr++] = value(code - 2 * pow3[i] + 2 * pow3[i - 2]);
        }
      }
      ++makes;
      return memo[code] = t.make(std::span<const FormId>(l, nl), std::span<const FormId>(r, nr));
    };
    const auto start = std::chrono::steady_clock::now();
    std::unordered_set<FormId> distinct;
    for (uint32_t code = 0; code < pow3[n]; ++code) distinct.insert(value(code));
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("length %2d: %8u boards, %8zu distinct values, %8zu forms, %.3f s, %.0f boards/s, "
                "%.1f MiB\n",
                n, pow3[n], distinct.size(), t.size(), s, double(makes) / s,
                double(t.memory_bytes()) / (1 << 20));
    CHECK(distinct.size() > 0);
  }
}
