// verify for a CGT database: everything recomputed, nothing trusted.
//   1. the form table: every stored form made again from its stored options (it must come
//      back as itself: canonical), its columns recomputed (text, stops, mean, temperature,
//      kind, outcome class, birthday, atomic weight, negative);
//   2. every board: its value made again from its children's stored values, its moves found
//      by Toads and Frogs' own rules (not the solver's bit tricks);
//   3. the ids: numbered again from the boards, they must be the stored ones, and reach
//      every stored form;
//   4. a sample of every class looked up as query does (also padded and mirrored).
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <mutex>

#include "solver/games/toads_frogs/toads_frogs.hpp"
#include "solver/games/toads_frogs_cgt/instance.hpp"

namespace toadbase::toads_frogs_cgt {

namespace {

using cgt::FormTable;

/// The first problem found by parallel work, by the lowest index.
struct FirstProblem {
  std::mutex mu;
  uint64_t at = UINT64_MAX;
  std::string what;
  void report(uint64_t i, const std::string& why) {
    std::lock_guard lock(mu);
    if (i < at) at = i, what = why;
  }
  bool found() const { return at != UINT64_MAX; }
};

std::string differs(const StoredForm& a, const StoredForm& b) {
  if (a.left != b.left || a.right != b.right) return "options";
  if (a.text_stored != b.text_stored) return a.text_stored ? "text (recomputed: too long to store)" : "text (recomputed: short enough to store)";
  if (a.text != b.text) return "text '" + a.text + "', recomputed '" + b.text + "'";
  if (a.printed_length != b.printed_length) return "printed length";
  if (a.atomic_weight != b.atomic_weight) return "atomic weight";
  if (a.left_stop != b.left_stop || a.right_stop != b.right_stop) return "stops";
  if (a.mean != b.mean || a.temperature != b.temperature) return "mean or temperature";
  if (a.kind != b.kind) return "kind";
  if (a.outcome != b.outcome) return "outcome class";
  if (a.birthday != b.birthday) return "birthday";
  if (a.negative != b.negative) return "negative";
  return "";
}

/// Every board of class k recomputed from its children's stored values (`values`: this
/// class's and every shorter one's); the first that differs, or "".
std::string recompute_class(const Boards& boards, FormTable& table, const std::vector<std::vector<FormId>>& values,
                            uint32_t k) {
  const BoardClass& c = boards.cls(k);
  const std::vector<FormId>& v = values[k];
  // a child's stored value: in this class or, stripped (mirrored), in a shorter one
  auto child_value = [&](const toads_frogs::Position& q) {
    const Located at = boards.locate(Board{q.toads, q.frogs, q.length});
    const FormId g = values[at.cls][at.index];
    return at.mirrored ? table.negate(g) : g;
  };
  FirstProblem bad;
  tbb::parallel_for(tbb::blocked_range<uint64_t>(0, c.size, 1024), [&](const tbb::blocked_range<uint64_t>& r) {
    std::vector<FormId> left, right;
    for (uint64_t i = r.begin(); i != r.end(); ++i) {
      const Board b = boards.unrank(k, i);
      toads_frogs::Position p;
      p.toads = b.toads;
      p.frogs = b.frogs;
      p.length = static_cast<uint8_t>(b.length);
      left.clear();
      right.clear();
      p.turn = toads_frogs::Player::Toads;
      for (const toads_frogs::Move mv : toads_frogs::legal_moves(p)) left.push_back(child_value(toads_frogs::apply(p, mv)));
      p.turn = toads_frogs::Player::Frogs;
      for (const toads_frogs::Move mv : toads_frogs::legal_moves(p)) right.push_back(child_value(toads_frogs::apply(p, mv)));
      const FormId g = table.make(left, right);
      if (g != v[i])
        bad.report(i, "class " + c.name() + " board " + board_string(b) + ": stored " + table.to_string(v[i]) +
                          ", recomputed from its children " + table.to_string(g));
    }
  });
  return bad.found() ? bad.what : std::string();
}

constexpr uint64_t kProbes = 16;  // boards of each class looked up as query does
// a batch of a chunk's forms verified at once: at most this many, and this many characters of
// text (a form of more alone)
constexpr uint64_t kBatchForms = uint64_t{1} << 16, kBatchText = uint64_t{1} << 24;

/// A sample of class k's boards looked up through `value_of(board)` (the query's value), each
/// itself and, padded with a dead frog when it can be and mirrored, its negative; the first
/// that differs from the recomputed value `v`, or "".
template <class ValueOf>
std::string probe_class(const Boards& boards, FormTable& table, const std::vector<FormId>& v, uint32_t k,
                        ValueOf&& value_of) {
  const BoardClass& c = boards.cls(k);
  const int n = boards.max_length();
  for (uint64_t s = 0; s < std::min(kProbes, c.size); ++s) {
    const uint64_t i = c.size * s / std::min(kProbes, c.size);
    const Board b = boards.unrank(k, i);
    const std::string want = table.to_string(v[i]), negative = table.to_string(table.negate(v[i]));
    Board padded = b;
    if (b.length < n) {  // a dead frog in front
      padded.toads <<= 1;
      padded.frogs = padded.frogs << 1 | 1u;
      padded.length += 1;
    }
    try {
      const std::string got = value_of(board_string(b));
      const std::string got_mirror = value_of(board_string(mirror(padded)));
      if (got != want) return "query of " + board_string(b) + " gives " + got + ", recomputed " + want;
      if (got_mirror != negative)
        return "query of " + board_string(mirror(padded)) + " gives " + got_mirror + ", recomputed " + negative;
    } catch (const std::exception& e) {
      return "query of " + board_string(b) + ": " + e.what();
    }
  }
  return "";
}

}  // namespace

VerifyReport CgtInstance::verify(const TierSource& source, Progress* progress) const {
  VerifyReport rep;
  auto fail = [&](const std::string& why) {
    rep.ok = false;
    rep.problem = why;
    return rep;
  };
  const TierLayout lay = layout();
  const uint32_t classes = boards_.class_count();
  const std::vector<TierInfo> all = tiers();
  for (TierId t = 0; t < lay.tiers(); ++t)
    if (!source.has_tier(t)) return fail("tier " + all[t].name + " is not committed");

  // 1. the form table, chunk by chunk, a batch of forms at a time (a chunk of 21 cells holds
  // more than 4 billion characters of text: read whole, 16 GB)
  FormTable table;
  Numbering ids(table);
  for (uint32_t k = 0; k < classes; ++k) {
    const std::string where = "the form table's chunk " + boards_.cls(k).name();
    try {
      read_chunk(source, lay, k, where, kBatchForms, kBatchText, [&](uint64_t, std::vector<StoredForm>& forms) {
        const uint32_t first = ids.count();
        build_forms(table, ids, forms, where);
        FirstProblem bad;
        tbb::parallel_for(tbb::blocked_range<size_t>(0, forms.size(), 64), [&](const tbb::blocked_range<size_t>& r) {
          for (size_t i = r.begin(); i != r.end(); ++i) {
            try {
              // printed without the solve's PrintMemo: a fault of the memo would be in both texts
              const std::string d =
                  differs(forms[i], describe(table, ids.form(first + static_cast<uint32_t>(i)), ids, text_cap()));
              if (!d.empty()) bad.report(i, "form " + std::to_string(first + i) + " (" + forms[i].text + "): its stored " + d);
            } catch (const std::exception& e) {
              bad.report(i, "form " + std::to_string(first + i) + " (" + forms[i].text + "): " + e.what());
            }
          }
        });
        if (bad.found()) throw std::runtime_error(bad.what);
      });
    } catch (const std::exception& e) {
      return fail(e.what());
    }
    if (progress) {
      progress->tier_done(all[lay.forms(k)].name, 0, false);
      progress->tier_done(all[lay.options(k)].name, 0, false);
      progress->tier_done(all[lay.text(k)].name, 0, false);
    }
  }

  // 2. and 3. the boards, length by length; the ids numbered again in class order
  const int n = boards_.max_length();
  std::vector<std::vector<FormId>> values(classes);
  Numbering again(table);
  for (uint32_t k = 0; k < classes; ++k) {
    const BoardClass& c = boards_.cls(k);
    std::vector<uint32_t> stored;
    try {
      stored = source.load<uint32_t>(lay.board(k));
    } catch (const std::exception& e) {
      return fail(e.what());
    }
    if (stored.size() != c.size)
      return fail("class " + c.name() + " holds " + std::to_string(stored.size()) + " boards, not " + std::to_string(c.size));
    std::vector<FormId>& v = values[k];
    v.resize(c.size);
    for (uint64_t i = 0; i < c.size; ++i) {
      if (stored[i] >= ids.count())
        return fail("class " + c.name() + " board " + board_string(boards_.unrank(k, i)) + " names form " +
                    std::to_string(stored[i]) + ", beyond the form table");
      v[i] = ids.form(stored[i]);
    }
    const std::string wrong = recompute_class(boards_, table, values, k);
    if (!wrong.empty()) return fail(wrong);
    if (again.count() == 0) again.number(FormTable::zero());
    for (int sa = static_cast<int>(c.cnt0.size()) - 1; sa >= 0 && rep.ok; --sa)
      boards_.toad_sets(c, sa, 0, c.cnt0[sa] + c.cnt1[sa], [&](uint64_t, uint32_t, uint64_t start, uint64_t nb) {
        for (uint64_t i = start; i < start + nb && rep.ok; ++i)
          if (again.number(v[i]) != stored[i])
            fail("class " + c.name() + " board " + board_string(boards_.unrank(k, i)) + " has form id " +
                 std::to_string(stored[i]) + ", the deterministic numbering gives " + std::to_string(again.number(v[i])));
      });
    if (!rep.ok) return rep;
    // 4. a sample looked up as query does
    const std::string looked_up = probe_class(boards_, table, values[k], k, [&](const std::string& board) {
      return query(source, board, "")["value"].get<std::string>();
    });
    if (!looked_up.empty()) return fail(looked_up);
    rep.positions_probed += std::min(kProbes, c.size);
    rep.positions_checked += c.size;
    if (c.m == n) std::vector<FormId>().swap(v);  // no longer class reads it
    if (progress) progress->tier_done(c.name(), c.size, false);
  }
  if (again.count() != ids.count())
    return fail("the form table holds " + std::to_string(ids.count()) + " forms, the boards reach " +
                std::to_string(again.count()));
  return rep;
}

}  // namespace toadbase::toads_frogs_cgt
