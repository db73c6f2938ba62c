// CGSuite's plain-text notation for canonical forms: printing and parsing.
//
// Printing follows CGSuite (its display of canonical short games):
//   - a number-up-star x + k.^ + *m: the number (left out when 0 unless nothing else is
//     there), then ^ ^^ ^3 .. or v vv v3 .., then * or *m: "1/2^", "-1v3*2", "^^*", "2*";
//   - x + ^<n> + *m and x + ^[n] + *m (a unit or a unit sum of up-nths, n >= 2) likewise:
//     "v<2>", "1^[3]*";
//   - a switch (G = -G, so G = {a, b, .. | -a, -b, ..}): "+-a", or "+-{a,b}";
//   - Tiny / Miny: { x || x | x - s } with x a number, s's mean positive: [x]Tiny(s);
//     { x + s | x || x }: [x]Miny(s) (x left out when 0);
//   - anything else: "{L|R}" with each side's options sorted (numbers by value, then
//     nimbers, then uptimals by expansion, then the rest by their options), joined by commas
//     (braced each when a side has more than one); bars: one more than the most an option
//     shows unbraced, so {a||b|c} = {a | {b|c}}; four bars force braces.
// At the top the form is braced: "{2|*}", not "2|*".
//
// Parsing reads all of that back, plus sums and differences "^ + *", "x.Tiny", "±", and
// longer runs of ^ or v ("^^^" = "^3"). A number's sign belongs to the number: "-1^" is
// -1 + ^ (as CGSuite prints it), not -(1^).
#include <algorithm>
#include <cctype>
#include <cstring>

#include "solver/core/printable.hpp"
#include "solver/cgt/cgt.hpp"

namespace toadbase::cgt {

// ---- uptimals ------------------------------------------------------------------------

FormId FormTable::up_nth(unsigned n) {
  if (n == 0) throw std::invalid_argument("up_nth: n >= 1");
  if (n == 1) return up();
  {
    std::lock_guard lock(uptimal_->mutex);
    if (n < uptimal_->up_nth.size() && uptimal_->up_nth[n] != kNoForm) return uptimal_->up_nth[n];
  }
  const FormId g = make({zero()}, {sum(negate(up_sum(n - 1)), star())});  // {0 | v[n-1]*}
  std::lock_guard lock(uptimal_->mutex);
  if (uptimal_->up_nth.size() <= n) uptimal_->up_nth.resize(n + 1, kNoForm);
  uptimal_->up_nth[n] = g;
  return g;
}

FormId FormTable::uptimal(const UptimalExpansion& e) {
  FormId g = number_up_star({e.number, e.digits.empty() ? 0 : e.digits[0], e.nim});
  for (size_t i = 1; i < e.digits.size(); ++i) {
    int d = e.digits[i];
    if (d == 0) continue;
    FormId unit = up_nth(unsigned(i + 1));
    if (d < 0) {
      unit = negate(unit);
      d = -d;
    }
    for (int k = 0; k < d; ++k) g = sum(g, unit);
  }
  return g;
}

std::optional<FormTable::UptimalExpansion> FormTable::uptimal_expansion(FormId g) {
  if (auto v = number_up_star_value(g)) {
    UptimalExpansion e{v->number, {}, v->nim};
    if (v->ups) e.digits.push_back(v->ups);
    return e;
  }
  if (left_stop(g) != right_stop(g)) return std::nullopt;  // an uptimal is x + infinitesimal
  {
    std::lock_guard lock(uptimal_->mutex);
    const auto it = uptimal_->known.find(g);
    if (it != uptimal_->known.end()) return it->second;
    if (uptimal_->is_none(g)) return std::nullopt;
  }
  std::optional<UptimalExpansion> e = expansion_of_right_first(g);
  if (!e) {
    if (auto n = expansion_of_right_first(negate(g))) {
      e = n;
      e->number = -e->number;
      for (int& d : e->digits) d = -d;
    }
  }
  std::lock_guard lock(uptimal_->mutex);
  if (e)
    uptimal_->known[g] = *e;
  else
    uptimal_->add_none(g);
  return e;
}

namespace {

size_t none_slot(FormId g, size_t mask) {
  return static_cast<size_t>((uint64_t{g} * 0x9e3779b97f4a7c15ULL) >> 32) & mask;
}

}  // namespace

bool FormTable::UptimalMemo::is_none(FormId g) const {
  if (none.empty()) return false;
  const size_t mask = none.size() - 1;
  for (size_t i = none_slot(g, mask); none[i] != kNoForm; i = (i + 1) & mask)
    if (none[i] == g) return true;
  return false;
}

void FormTable::UptimalMemo::add_none(FormId g) {
  if (is_none(g)) return;
  if ((none_count + 1) * 4 > none.size() * 3) {
    std::vector<FormId> bigger(std::max<size_t>(1024, none.size() * 2), kNoForm);
    const size_t mask = bigger.size() - 1;
    for (FormId x : none) {
      if (x == kNoForm) continue;
      size_t i = none_slot(x, mask);
      while (bigger[i] != kNoForm) i = (i + 1) & mask;
      bigger[i] = x;
    }
    none.swap(bigger);
  }
  const size_t mask = none.size() - 1;
  size_t i = none_slot(g, mask);
  while (none[i] != kNoForm) i = (i + 1) & mask;
  none[i] = g;
  ++none_count;
}

// An uptimal G = x.d1..dn + *m whose last digit dn is positive has one Right option, itself
// an uptimal x.r1..rk + *(m^1), and G's digits are r's with the first j raised by one:
// j = k when dn >= 2 (then rk > 0), j = one past the longest expansion among G's options
// when dn = 1 (Siegel, CGT; CGSuite recognises uptimals this way). So there are at most two
// candidates; each is confirmed by building its canonical form.
std::optional<FormTable::UptimalExpansion> FormTable::expansion_of_right_first(FormId g) {
  if (right(g).size() != 1) return std::nullopt;
  const auto r = uptimal_expansion(right(g)[0]);
  if (!r) return std::nullopt;
  size_t longest = r->digits.size();
  for (FormId x : left(g)) {
    const auto l = uptimal_expansion(x);
    if (!l || l->number != r->number) return std::nullopt;
    longest = std::max(longest, l->digits.size());
  }
  auto raised = [&](size_t j) {
    UptimalExpansion e = *r;
    if (e.digits.size() < j) e.digits.resize(j, 0);
    for (size_t i = 0; i < j; ++i) ++e.digits[i];
    while (!e.digits.empty() && e.digits.back() == 0) e.digits.pop_back();
    e.nim ^= 1u;
    return e;
  };
  std::vector<UptimalExpansion> candidates;
  if (!r->digits.empty() && r->digits.back() > 0) candidates.push_back(raised(r->digits.size()));
  candidates.push_back(raised(longest + 1));
  for (const UptimalExpansion& c : candidates)
    if (c.digits.size() >= 2 && uptimal(c) == g) return c;  // (shorter ones are number-up-stars)
  return std::nullopt;
}

// ---- printing -------------------------------------------------------------------------

namespace {

using Expansion = FormTable::UptimalExpansion;

// CGSuite's order of expansions: number, then digits from the first, then length, then *.
int compare_expansions(const Expansion& a, const Expansion& b) {
  if (a.number != b.number) return a.number < b.number ? -1 : 1;
  for (size_t i = 0; i < a.digits.size() && i < b.digits.size(); ++i)
    if (a.digits[i] != b.digits[i]) return a.digits[i] < b.digits[i] ? -1 : 1;
  if (a.digits.size() != b.digits.size()) return a.digits.size() < b.digits.size() ? -1 : 1;
  if (a.nim != b.nim) return a.nim < b.nim ? -1 : 1;
  return 0;
}

void append_ups(std::string& out, int k) {
  if (k == 0) return;
  const char* sym = k > 0 ? "^" : "v";
  const int n = k > 0 ? k : -k;
  out += sym;
  if (n == 2) out += sym;
  if (n > 2) out += std::to_string(n);
}

void append_star(std::string& out, unsigned m) {
  if (m == 0) return;
  out += '*';
  if (m > 1) out += std::to_string(m);
}

}  // namespace

// The order CGSuite lists options in: numbers by value, nimbers, then uptimals (number-up-
// stars among them) by their expansions, then everything else by its sorted Left options,
// then its sorted Right options.
int FormTable::print_order(FormId a, FormId b) {
  if (a == b) return 0;
  auto rank = [&](FormId g, Expansion& e) {
    if (is_number(g)) return 0;
    if (is_nimber(g)) return 1;
    if (auto u = uptimal_expansion(g)) {
      e = *u;
      return 2;
    }
    return 3;
  };
  Expansion ea, eb;
  const int ra = rank(a, ea), rb = rank(b, eb);
  if (ra != rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 0: return left_stop(a) < left_stop(b) ? -1 : 1;
    case 1: return rec(a).nim < rec(b).nim ? -1 : 1;
    case 2: return compare_expansions(ea, eb);
    default: break;
  }
  auto sorted = [&](std::span<const FormId> s) {
    std::vector<FormId> v(s.begin(), s.end());
    std::stable_sort(v.begin(), v.end(), [&](FormId x, FormId y) { return print_order(x, y) < 0; });
    return v;
  };
  auto compare_lists = [&](const std::vector<FormId>& x, const std::vector<FormId>& y) {
    for (size_t i = 0; i < x.size() && i < y.size(); ++i)
      if (int c = print_order(x[i], y[i])) return c;
    return x.size() == y.size() ? 0 : (x.size() < y.size() ? -1 : 1);
  };
  if (int c = compare_lists(sorted(left(a)), sorted(left(b)))) return c;
  return compare_lists(sorted(right(a)), sorted(right(b)));
}

// Where print() writes: a string (with a limit past which it gives up), or nowhere, only
// counting (printed_length: each follower counted once, in a memo by form and context).
struct FormTable::PrintOut {
  struct TooLong {};
  std::string* text = nullptr;  // null: count only
  uint64_t chars = 0;
  uint64_t limit = UINT64_MAX;
  std::unordered_map<uint64_t, std::pair<uint64_t, int>>* memo = nullptr;  // counting
  PrintMemo* texts = nullptr;                                               // printing: texts printed before

  void add(std::string_view s) {
    chars += s.size();
    if (text) {
      if (chars > limit) throw TooLong{};
      text->append(s);
    }
  }
  void add(char c) { add(std::string_view(&c, 1)); }
  void add_bars(int k) {
    chars += static_cast<uint64_t>(k);
    if (text) {
      if (chars > limit) throw TooLong{};
      text->append(static_cast<size_t>(k), '|');
    }
  }
  void add(const PrintOut& part) {
    chars += part.chars;
    if (text) {
      if (chars > limit) throw TooLong{};
      text->append(*part.text);
    }
  }
  /// A part printed on its own first (a side of a form: its bars decide the braces).
  PrintOut part(std::string* buffer) const { return {text ? buffer : nullptr, 0, limit, memo, texts}; }
};

std::string FormTable::to_string(FormId g) {
  std::string out;
  PrintOut o{&out};
  print(o, g, true, false);
  return out;
}

std::optional<std::string> FormTable::to_string(FormId g, uint64_t limit) { return to_string(g, limit, nullptr); }

std::optional<std::string> FormTable::to_string(FormId g, uint64_t limit, PrintMemo* memo) {
  if (memo && memo->table_ != serial_) {
    memo->forget();
    memo->table_ = serial_;
  }
  std::string out;
  PrintOut o{&out, 0, limit, nullptr, memo};
  try {
    print(o, g, true, false);
  } catch (const PrintOut::TooLong&) {
    return std::nullopt;
  }
  return out;
}

uint64_t FormTable::printed_length(FormId g) {
  std::unordered_map<uint64_t, std::pair<uint64_t, int>> memo;
  PrintOut o{nullptr, 0, UINT64_MAX, &memo};
  print(o, g, true, false);
  return o.chars;
}

// Appends g; returns how many bars it showed unbraced (0 for an atom or a braced form).
int FormTable::print(PrintOut& out, FormId g, bool force_brackets, bool force_parens) {
  if (auto v = number_up_star_value(g)) {
    const bool compact = is_number(g) || is_nimber(g) || (v->number == Dyadic(0) && v->nim == 0);
    const bool parens = force_parens && !compact;
    std::string s;
    if (parens) s += '(';
    if (v->number != Dyadic(0) || (v->ups == 0 && v->nim == 0)) s += v->number.to_string();
    append_ups(s, v->ups);
    append_star(s, v->nim);
    if (parens) s += ')';
    out.add(s);
    return 0;
  }
  // counting: a follower met again in the same context costs a lookup
  const uint64_t key = uint64_t{g} << 2 | uint64_t{force_brackets} << 1 | uint64_t{force_parens};
  if (out.memo) {
    if (const auto it = out.memo->find(key); it != out.memo->end()) {
      out.chars += it->second.first;
      return it->second.second;
    }
  }
  // printing with a memo: a follower printed before in the same place is copied
  PrintMemo* const texts = out.text ? out.texts : nullptr;
  if (texts) {
    if (const auto it = texts->texts_.find(key); it != texts->texts_.end()) {
      out.add(it->second.first);
      return it->second.second;
    }
  }
  const uint64_t before = out.chars;
  const size_t at = out.text ? out.text->size() : 0;
  const int bars = print_composite(out, g, force_brackets, force_parens);
  if (out.memo) out.memo->emplace(key, std::make_pair(out.chars - before, bars));
  if (texts && out.text->size() - at <= std::min(PrintMemo::kLongest, texts->max_chars_)) {
    const size_t n = out.text->size() - at;
    if (texts->chars_ + n > texts->max_chars_) texts->forget();
    texts->texts_.emplace(key, std::make_pair(out.text->substr(at), bars));
    texts->chars_ += n;
  }
  return bars;
}

int FormTable::print_composite(PrintOut& out, FormId g, bool force_brackets, bool force_parens) {
  if (auto u = uptimal_expansion(g)) {
    // a unit x + ^<n> + *m (one digit, +-1) or a unit sum x + ^[n] + *m (all digits
    // +1, or all -1) prints short; other uptimals print as games
    const std::vector<int>& d = u->digits;
    const bool unit = std::count(d.begin(), d.end(), 0) + 1 == std::ptrdiff_t(d.size()) &&
                      (d.back() == 1 || d.back() == -1);
    const bool unit_sum = (d[0] == 1 || d[0] == -1) &&
                          std::all_of(d.begin(), d.end(), [&](int x) { return x == d[0]; });
    if (unit || unit_sum) {
      const bool parens = force_parens && !(u->number == Dyadic(0) && u->nim == 0);
      std::string s;
      if (parens) s += '(';
      if (u->number != Dyadic(0)) s += u->number.to_string();
      s += d.back() > 0 ? '^' : 'v';
      s += unit ? '<' : '[';
      s += std::to_string(d.size());
      s += unit ? '>' : ']';
      append_star(s, u->nim);
      if (parens) s += ')';
      out.add(s);
      return 0;
    }
  }

  // the order options are listed in changes no length: counting skips the sort
  auto sorted = [&](std::span<const FormId> s) {
    std::vector<FormId> v(s.begin(), s.end());
    if (out.text)
      std::stable_sort(v.begin(), v.end(), [&](FormId x, FormId y) { return print_order(x, y) < 0; });
    return v;
  };
  const std::vector<FormId> lo = sorted(left(g)), ro = sorted(right(g));

  if (negate(g) == g) {  // a switch {a, b | -a, -b}
    out.add("+-");
    if (lo.size() == 1) {
      print(out, lo[0], true, true);
    } else {
      out.add('{');
      for (size_t i = 0; i < lo.size(); ++i) {
        if (i) out.add(',');
        print(out, lo[i], true, false);
      }
      out.add('}');
    }
    return 0;
  }

  if (lo.size() == 1 && ro.size() == 1) {
    // Tiny: { x || x | y } with mean(y) < x; Miny: { z | x || x } with mean(z) > x
    const FormId a = lo[0], b = ro[0];
    std::optional<std::pair<FormId, FormId>> tiny;  // (translate, subscript)
    bool is_tiny = false;
    if (is_number(a) && left(b).size() == 1 && right(b).size() == 1 && left(b)[0] == a &&
        mean(right(b)[0]) < left_stop(a)) {
      tiny = {{a, difference(a, right(b)[0])}};
      is_tiny = true;
    } else if (is_number(b) && left(a).size() == 1 && right(a).size() == 1 &&
               right(a)[0] == b && left_stop(b) < mean(left(a)[0])) {
      tiny = {{b, difference(left(a)[0], b)}};
    }
    if (tiny) {
      const bool translated = tiny->first != zero();
      if (force_parens && translated) out.add('(');
      if (translated) out.add(left_stop(tiny->first).to_string());
      out.add(is_tiny ? "Tiny(" : "Miny(");
      print(out, tiny->second, true, false);
      out.add(')');
      if (force_parens && translated) out.add(')');
      return 0;
    }
  }

  std::string lbuf, rbuf;
  PrintOut ls = out.part(&lbuf), rs = out.part(&rbuf);
  int bars = 0;
  for (size_t i = 0; i < lo.size(); ++i) {
    if (i) ls.add(',');
    bars = std::max(bars, print(ls, lo[i], lo.size() > 1, false) + 1);
  }
  for (size_t i = 0; i < ro.size(); ++i) {
    if (i) rs.add(',');
    bars = std::max(bars, print(rs, ro[i], ro.size() > 1, false) + 1);
  }
  const bool braced = force_brackets || bars >= 4;
  if (braced) out.add('{');
  out.add(ls);
  out.add_bars(bars);
  out.add(rs);
  if (braced) out.add('}');
  return braced ? 0 : bars;
}

// ---- parsing --------------------------------------------------------------------------

namespace {

class Parser {
 public:
  Parser(FormTable& t, std::string_view s) : t_(t), s_(s) {}

  FormId parse_all() {
    FormId g;
    try {
      g = expr();
    } catch (const std::length_error& e) {  // a value past what the table makes
      fail(std::string("out of range: ") + e.what());
    } catch (const std::overflow_error& e) {
      fail(std::string("out of range: ") + e.what());
    }
    skip();
    if (pos_ != s_.size()) fail("unexpected " + quoted_char());
    return g;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    // the text shown escaped and cut short (it is the user's: any bytes, any length)
    throw ParseError("game notation, column " + std::to_string(pos_ + 1) + ": " + what + " in \"" +
                     printable_excerpt(s_) + "\"");
  }
  std::string quoted_char() const { return "'" + printable(s_.substr(pos_, 1)) + "'"; }
  // nesting (parentheses, braces, -, +-, Tiny) past this is refused: the parser recurses
  static constexpr int kMaxDepth = 200;
  // what a typed value may ask the table to make: past these a value costs seconds and
  // gigabytes (a nimber *n has n options, each made first) or is no game of a board
  static constexpr uint64_t kMaxNimber = 1024, kMaxUpNth = 64, kMaxUps = 4096;
  int depth_ = 0;
  void skip() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  char peek_at(size_t k) const { return pos_ + k < s_.size() ? s_[pos_ + k] : '\0'; }
  bool take(std::string_view w) {
    if (s_.substr(pos_, w.size()) == w) {
      pos_ += w.size();
      return true;
    }
    return false;
  }
  void expect(char c) {
    skip();
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++pos_;
  }
  static bool digit(char c) { return c >= '0' && c <= '9'; }
  bool at_tiny() const {
    const std::string_view rest = s_.substr(pos_);
    return rest.starts_with("Tiny") || rest.starts_with("Miny");
  }
  uint64_t digits() {
    if (!digit(peek())) fail("expected a digit");
    uint64_t v = 0;
    while (digit(peek())) {
      v = v * 10 + uint64_t(s_[pos_++] - '0');
      if (v > (uint64_t{1} << 56)) fail("number too large");
    }
    return v;
  }

  // expr := term { ('+' | '-') term }
  FormId expr() {
    FormId g = term();
    for (;;) {
      skip();
      if (peek() == '+' && peek_at(1) != '-') {
        ++pos_;
        g = t_.sum(g, term());
      } else if (peek() == '-') {
        ++pos_;
        g = t_.difference(g, term());
      } else {
        return g;
      }
    }
  }

  // term := unary [Tiny(..) | Miny(..)]   (a number in front of Tiny is its translate)
  FormId term() {
    FormId g = unary();
    skip();
    if (at_tiny()) g = t_.sum(g, tiny());
    return g;
  }

  FormId unary() {
    struct Deeper {
      int& d;
      explicit Deeper(int& x) : d(++x) {}
      ~Deeper() { --d; }
    } deeper(depth_);
    if (depth_ > kMaxDepth) fail("nested more than " + std::to_string(kMaxDepth) + " deep");
    skip();
    if (take("+-") || take("\xC2\xB1")) return plus_minus();
    if (peek() == '-') {
      if (digit(peek_at(1))) {
        ++pos_;
        return postfix(literal(true));
      }
      ++pos_;
      return t_.negate(unary());
    }
    return postfix(atom());
  }

  FormId postfix(FormId g) {
    if (take(".Tiny")) return tiny_of(g, true);
    if (take(".Miny")) return tiny_of(g, false);
    return g;
  }

  FormId tiny_of(FormId s, bool tiny) {
    if (tiny) {  // {0 || 0 | -s}
      const FormId inner = t_.make({t_.zero()}, {t_.negate(s)});
      return t_.make({t_.zero()}, {inner});
    }
    const FormId inner = t_.make({s}, {t_.zero()});  // {s | 0 || 0}
    return t_.make({inner}, {t_.zero()});
  }

  FormId tiny() {
    const bool is_tiny = take("Tiny");
    if (!is_tiny && !take("Miny")) fail("expected Tiny or Miny");
    expect('(');
    const FormId s = expr();
    expect(')');
    return tiny_of(s, is_tiny);
  }

  // After "+-": {a,b} (options), {a|b} (one game), (expr), or an atom.
  FormId plus_minus() {
    skip();
    std::vector<FormId> opts;
    if (peek() == '{') {
      ++pos_;
      Body b = body();
      if (has_bar(b, 0, b.elems.size() - 1)) {
        opts.push_back(game(b, 0, b.elems.size() - 1));
      } else {
        opts = side(b, 0, b.elems.size() - 1);
        if (opts.empty()) fail("+- of nothing");
      }
    } else {
      opts.push_back(unary());
    }
    std::vector<FormId> negs;
    for (FormId x : opts) negs.push_back(t_.negate(x));
    return t_.make(opts, negs);
  }

  FormId atom() {
    skip();
    const char c = peek();
    if (c == '(') {
      ++pos_;
      const FormId g = expr();
      expect(')');
      return g;
    }
    if (c == '{') {
      ++pos_;
      Body b = body();
      if (!has_bar(b, 0, b.elems.size() - 1)) fail("a game needs a '|'");
      return game(b, 0, b.elems.size() - 1);
    }
    if (at_tiny()) return tiny();
    if (digit(c) || c == '^' || c == 'v' || c == '*') return literal(false);
    if (c == '\0' && pos_ >= s_.size()) fail("unexpected end");
    fail("unexpected " + quoted_char());
  }

  // [number] [ups] [star]: 3, -1/2, ^, vv, v3, ^<2>, v[3], *, *4, 1/2^*, -1v3*2
  FormId literal(bool negative) {
    Dyadic x(0);
    bool any = false;
    if (digit(peek())) {
      const uint64_t n = digits();
      uint64_t d = 1;
      if (peek() == '/' && digit(peek_at(1))) {
        ++pos_;
        d = digits();
        if (d == 0 || (d & (d - 1)) != 0) fail("a denominator must be a power of two");
      }
      x = Dyadic::fraction(int64_t(n), std::countr_zero(d));
      any = true;
    } else if (negative) {
      fail("expected a number after '-'");
    }
    if (negative) x = -x;
    int ups = 0;
    unsigned nth = 0;
    bool is_sum = false;
    if (peek() == '^' || peek() == 'v') {
      const char sym = s_[pos_++];
      const int sign = sym == '^' ? 1 : -1;
      if (peek() == '<' || peek() == '[') {
        is_sum = peek() == '[';
        ++pos_;
        const uint64_t n = digits();
        if (n == 0 || n > kMaxUpNth) fail("bad up-nth (1.." + std::to_string(kMaxUpNth) + ")");
        nth = unsigned(n);
        if (peek() != (is_sum ? ']' : '>')) fail(is_sum ? "expected ']'" : "expected '>'");
        ++pos_;
        ups = sign;
      } else if (digit(peek())) {
        const uint64_t k = digits();
        if (k > kMaxUps) fail("too many ups (at most " + std::to_string(kMaxUps) + ")");
        ups = sign * int(k);
      } else {
        int k = 1;
        while (peek() == sym) {
          ++pos_;
          if (++k > int(kMaxUps)) fail("too many ups (at most " + std::to_string(kMaxUps) + ")");
        }
        ups = sign * k;
      }
      any = true;
    }
    unsigned nim = 0;
    if (peek() == '*') {
      ++pos_;
      const uint64_t m = digit(peek()) ? digits() : 1;
      if (m > kMaxNimber) fail("nimber too large (at most *" + std::to_string(kMaxNimber) + ")");
      nim = unsigned(m);
      any = true;
    }
    if (!any) fail("expected a game");
    if (nth > 1) {
      const FormId base = is_sum ? t_.up_sum(nth) : t_.up_nth(nth);
      return t_.sum(t_.number_up_star({x, 0, nim}), ups > 0 ? base : t_.negate(base));
    }
    return t_.number_up_star({x, ups, nim});
  }

  // Inside braces: elements (possibly empty) split by commas (0) and bar runs (k bars).
  struct Body {
    std::vector<std::optional<FormId>> elems;
    std::vector<int> seps;  // seps[i] between elems[i] and elems[i + 1]
  };
  Body body() {
    Body b;
    for (;;) {
      skip();
      const char c = peek();
      if (c == '|' || c == ',' || c == '}')
        b.elems.push_back(std::nullopt);
      else
        b.elems.push_back(expr());
      skip();
      if (peek() == '}') {
        ++pos_;
        return b;
      }
      if (peek() == ',') {
        ++pos_;
        b.seps.push_back(0);
      } else if (peek() == '|') {
        int k = 0;
        while (peek() == '|') {
          ++pos_;
          ++k;
        }
        if (k > 64) fail("more than 64 bars in a row");
        b.seps.push_back(k);
      } else {
        fail(peek() ? "expected ',', '|' or '}'" : "missing '}'");
      }
    }
  }
  static bool has_bar(const Body& b, size_t lo, size_t hi) {
    for (size_t i = lo; i < hi; ++i)
      if (b.seps[i] > 0) return true;
    return false;
  }
  // elems[lo..hi] with at least one bar between them: split at the longest run.
  FormId game(const Body& b, size_t lo, size_t hi) {
    int most = 0;
    size_t at = 0, count = 0;
    for (size_t i = lo; i < hi; ++i) {
      if (b.seps[i] > most) {
        most = b.seps[i];
        at = i;
        count = 1;
      } else if (b.seps[i] == most && most > 0) {
        ++count;
      }
    }
    if (count != 1) fail("ambiguous bars: " + std::to_string(count) + " runs of " + std::to_string(most));
    const std::vector<FormId> l = side(b, lo, at), r = side(b, at + 1, hi);
    return t_.make(l, r);
  }
  // One side: a game of its own if it holds a bar, else its options split at commas.
  std::vector<FormId> side(const Body& b, size_t lo, size_t hi) {
    if (has_bar(b, lo, hi)) return {game(b, lo, hi)};
    std::vector<FormId> out;
    if (lo == hi && !b.elems[lo]) return out;  // an empty side
    for (size_t i = lo; i <= hi; ++i) {
      if (!b.elems[i]) fail("an empty option");
      out.push_back(*b.elems[i]);
    }
    return out;
  }

  FormTable& t_;
  std::string_view s_;
  size_t pos_ = 0;
};

}  // namespace

FormId FormTable::parse(std::string_view text) { return Parser(*this, text).parse_all(); }

}  // namespace toadbase::cgt
