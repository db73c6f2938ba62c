#include "solver/games/toads_frogs_cgt/solver.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <mutex>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "solver/core/combinatorics.hpp"
#include "solver/core/ledger.hpp"
#include "solver/games/toads_frogs_cgt/forms.hpp"

namespace toadbase::toads_frogs_cgt {

namespace {

using cgt::FormTable;
using cgt::kNoForm;

/// A class's four tiers, as progress names them: its boards, then its chunk of the table.
std::vector<std::pair<std::string, uint64_t>> class_tiers(const BoardClass& c) {
  return {{c.name(), c.size}, {c.name() + ".forms", 0}, {c.name() + ".options", 0}, {c.name() + ".text", 0}};
}

class Solver {
 public:
  Solver(const Boards& boards, TierStore& store, Progress* progress, uint64_t text_cap, uint64_t compact_floor)
      : b_(boards), store_(store), layout_{boards.class_count()}, text_cap_(text_cap), ids_(table_),
        values_(boards.class_count()), readers_(boards.class_count(), 0), ledger_(stats_, progress),
        compact_floor_(compact_floor), compact_at_(compact_floor) {}

  TableStats table_stats() {
    table_stats_.largest = std::max<uint64_t>(table_stats_.largest, table_.size());
    table_stats_.forms_made_again = ids_.made_again();
    table_stats_.prints = ids_.prints();
    return table_stats_;
  }

  SolveStats run() {
    count_readers();
    resume();
    if (table_.size() >= compact_at_) compact_table();
    for (int m = 1; m <= b_.max_length(); ++m) {
      const auto [lo, hi] = b_.classes_of_length(m);
      if (hi <= first_) continue;
      next_ = std::max(lo, first_);
      end_ = hi;
      next_commit_ = next_.load();
      done_.assign(b_.class_count(), false);
      for (;;) {
        const int workers = std::max(1, tbb::this_task_arena::max_concurrency());
        tbb::parallel_for(tbb::blocked_range<int>(0, workers, 1), [&](const tbb::blocked_range<int>&) { work(); },
                          tbb::simple_partitioner());
        if (next_commit_ == hi) break;
        if (pause_ && !ledger_.stopping()) {  // every class begun is committed: the table is the solve's alone
          compact_table();
          next_ = next_commit_;
          continue;
        }
        ledger_.finish();  // stopped on request: every class begun is committed
        throw std::logic_error("cgt solve: a class of length " + std::to_string(m) + " was not committed");
      }
    }
    return stats_;
  }

 private:
  // ---- which classes read which ------------------------------------------------------

  /// The shorter classes a class reads (boards.hpp: a move that kills a piece strips one
  /// cell, so they are of one cell fewer): a toad onto the last cell leaves (m - 1, t - 1, f),
  /// a frog onto cell 0 (m - 1, t, f - 1), mirrored when it has more toads than frogs.
  std::vector<uint32_t> shorter_classes(uint32_t k) const {
    const BoardClass& c = b_.cls(k);
    std::vector<uint32_t> out;
    if (c.m < 2) return out;
    auto add = [&](int t, int f) {
      if (t < 0 || f < 0) return;
      if (const auto s = b_.class_of(c.m - 1, std::min(t, f), std::max(t, f)))
        if (std::find(out.begin(), out.end(), *s) == out.end()) out.push_back(*s);
    };
    add(c.t - 1, c.f);
    add(c.t, c.f - 1);
    return out;
  }

  /// How many classes not yet solved read each class: its values are let go at none.
  void count_readers() {
    while (first_ < b_.class_count() && store_.has_tier(layout_.board(first_)) &&
           store_.has_tier(layout_.forms(first_)) && store_.has_tier(layout_.options(first_)) &&
           store_.has_tier(layout_.text(first_)))
      ++first_;
    for (uint32_t k = first_; k < b_.class_count(); ++k)
      for (uint32_t s : shorter_classes(k)) ++readers_[s];
  }

  /// After class k is solved: the shorter classes no class left reads are let go.
  void release_shorter(uint32_t k) {
    for (uint32_t s : shorter_classes(k)) {
      std::lock_guard lock(mu_);
      if (--readers_[s] == 0 && !values_[s].empty()) {
        held_bytes_ -= values_[s].size() * sizeof(FormId);
        std::vector<FormId>().swap(values_[s]);
      }
    }
  }

  // ---- resume -------------------------------------------------------------------------

  void resume() {
    for (uint32_t k = 0; k < first_; ++k) {
      const BoardClass& c = b_.cls(k);
      const std::string where = "the form table's chunk " + c.name();
      const std::vector<uint32_t> cols = store_.load<uint32_t>(layout_.forms(k));
      const std::vector<uint32_t> options = store_.load<uint32_t>(layout_.options(k));
      build_forms(table_, ids_, decode_forms(cols, options, nullptr, where, store_.tier_positions(layout_.text(k))),
                  where);
      if (readers_[k] > 0) {  // a class left to solve reads it
        const std::vector<uint32_t> stored = store_.load<uint32_t>(layout_.board(k));
        if (stored.size() != c.size) throw std::runtime_error("class " + c.name() + " holds the wrong number of boards");
        std::vector<FormId>& v = values_[k];
        v.resize(c.size);
        for (uint64_t i = 0; i < c.size; ++i) {
          if (stored[i] >= ids_.count())
            throw std::runtime_error("class " + c.name() + " board " + std::to_string(i) + " names form " +
                                     std::to_string(stored[i]) + ", beyond the table read back (damaged)");
          v[i] = ids_.form(stored[i]);
        }
        held_bytes_ += c.size * sizeof(FormId);
      }
      ledger_.skipped(class_tiers(c));
    }
    stats_.peak_bytes_in_flight = held_bytes_;
  }

  // ---- letting forms go ---------------------------------------------------------------

  /// With no class in flight: the forms no held class's value leads to are let go
  /// (FormTable::compact; the numbering keeps their prints), the held values renamed.
  void compact_table() {
    std::vector<std::span<const FormId>> roots;
    for (const std::vector<FormId>& v : values_)
      if (!v.empty()) roots.emplace_back(v);
    const std::vector<FormId> new_id = table_.survivors(roots);
    ids_.let_go(new_id);
    ++table_stats_.compactions;
    table_stats_.largest = std::max<uint64_t>(table_stats_.largest, new_id.size());
    table_.compact(new_id);
    table_stats_.forms_let_go += new_id.size() - table_.size();
    for (std::vector<FormId>& v : values_)
      tbb::parallel_for(tbb::blocked_range<size_t>(0, v.size(), size_t{1} << 16), [&](const tbb::blocked_range<size_t>& r) {
        for (size_t i = r.begin(); i != r.end(); ++i) v[i] = new_id[v[i]];
      });
    // the next when the table has grown by a quarter (or to the floor)
    compact_at_ = std::max<uint64_t>(compact_floor_, table_.size() + table_.size() / 4 + 1);
    pause_ = false;
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
  }

  // ---- the workers --------------------------------------------------------------------

  void work() {
    for (;;) {
      // a class begun is finished and committed; no new one once stopping or pausing
      if (ledger_.stopping() || pause_.load(std::memory_order_relaxed)) return;
      const uint32_t k = next_.fetch_add(1);
      if (k >= end_) return;
      tbb::this_task_arena::isolate([&] { solve_class(k); });
      release_shorter(k);
      {
        std::lock_guard lock(mu_);
        done_[k] = true;
        if (committing_) continue;  // the committing worker takes it in turn
        committing_ = true;
      }
      for (;;) {
        uint32_t c;
        {
          std::lock_guard lock(mu_);
          if (next_commit_ >= end_ || !done_[next_commit_]) {
            committing_ = false;
            break;
          }
          c = next_commit_;
        }
        tbb::this_task_arena::isolate([&] { commit_class(c); });
        if (table_.size() >= compact_at_) pause_ = true;  // the workers stop taking classes
        std::lock_guard lock(mu_);
        ++next_commit_;
      }
    }
  }

  // ---- solving a class ----------------------------------------------------------------

  /// The value of a child that lost dead pieces: in a shorter class, held in memory.
  FormId shorter(uint32_t toads, uint32_t frogs, int length) {
    const Located at = b_.locate(Board{toads, frogs, length});
    const std::vector<FormId>& held = values_[at.cls];
    if (at.index >= held.size()) throw std::logic_error("cgt solve: a class read after it was let go");
    const FormId g = held[at.index];
    return at.mirrored ? table_.negate(g) : g;
  }

  void solve_class(uint32_t k) {
    const BoardClass& c = b_.cls(k);
    std::vector<FormId>& v = values_[k];
    v.assign(c.size, kNoForm);
    {
      std::lock_guard lock(mu_);
      held_bytes_ += c.size * sizeof(FormId);
      stats_.peak_bytes_in_flight = std::max(stats_.peak_bytes_in_flight, held_bytes_);
    }
    if (c.m == 1) {
      v[0] = FormTable::zero();
      return;
    }
    const int m = c.m;
    const uint32_t full = (1u << m) - 1;
    const uint64_t grain = std::max<uint64_t>(1, 2048 / std::max<uint64_t>(1, std::max(c.b0, c.b1)));
    for (int sa = static_cast<int>(c.cnt0.size()) - 1; sa >= 0; --sa) {
      const uint64_t slots = c.cnt0[sa] + c.cnt1[sa];
      if (!slots) continue;
      tbb::parallel_for(tbb::blocked_range<uint64_t>(0, slots, grain), [&](const tbb::blocked_range<uint64_t>& r) {
        b_.toad_sets(c, sa, r.begin(), r.end(), [&](uint64_t, uint32_t toads, uint64_t start, uint64_t nb) {
          const uint32_t free_cells = (full - 1) & ~toads;  // cells 1..m-1 without a toad
          uint64_t ordinals = c.f ? (uint64_t{1} << c.f) - 1 : 0;
          for (uint64_t rb = 0; rb < nb; ++rb) {
            const uint32_t frogs = static_cast<uint32_t>(deposit_bits(ordinals, free_cells));
            v[start + rb] = value(c, v, sa, toads, frogs);
            if (c.f) ordinals = next_subset(ordinals);
          }
        });
      });
    }
  }

  /// A board's value from its children's (see solver.hpp).
  FormId value(const BoardClass& c, const std::vector<FormId>& v, int sa, uint32_t toads, uint32_t frogs) {
    const int m = c.m;
    if (c.t == c.f) {  // its mirror, solved already at a higher SA, is its negative
      const Board mb = mirror(Board{toads, frogs, m});
      if (bit_index_sum(mb.toads) > sa) return table_.negate(v[b_.index_in(c, mb.toads, mb.frogs)]);
    }
    const uint32_t full = (1u << m) - 1;
    const uint32_t empty = ~(toads | frogs) & full;
    FormId left[kMaxLength], right[kMaxLength];
    int nl = 0, nr = 0;
    // Toads (Left): slide into the empty cell ahead, or jump one frog into the empty cell beyond
    const uint32_t slide_t = toads & (empty >> 1), jump_t = toads & (frogs >> 1) & (empty >> 2);
    for (uint32_t s = slide_t | jump_t; s; s &= s - 1) {
      const int i = std::countr_zero(s);
      const int to = (slide_t >> i & 1) ? i + 1 : i + 2;
      const uint32_t nt = toads ^ (1u << i) ^ (1u << to);
      left[nl++] = to == m - 1 ? shorter(nt, frogs, m) : v[b_.index_in(c, nt, frogs)];
    }
    // Frogs (Right), leftwards
    const uint32_t slide_f = frogs & (empty << 1), jump_f = frogs & (toads << 1) & (empty << 2);
    for (uint32_t s = slide_f | jump_f; s; s &= s - 1) {
      const int i = std::countr_zero(s);
      const int to = (slide_f >> i & 1) ? i - 1 : i - 2;
      const uint32_t nf = frogs ^ (1u << i) ^ (1u << to);
      right[nr++] = to == 0 ? shorter(toads, nf, m) : v[b_.index_in(c, toads, nf)];
    }
    return table_.make(std::span<const FormId>(left, static_cast<size_t>(nl)),
                       std::span<const FormId>(right, static_cast<size_t>(nr)));
  }

  // ---- committing a class -------------------------------------------------------------

  void commit_class(uint32_t k) {
    const BoardClass& c = b_.cls(k);
    std::vector<FormId>& v = values_[k];
    const uint32_t first = ids_.count();
    if (first == 0) ids_.number(FormTable::zero());  // id 0 is 0
    // number the class's values in its solve order: in place when no class reads them
    // (the longest ones), else into a copy
    const bool read_later = readers_[k] > 0;
    std::vector<uint32_t> numbered;
    if (read_later) numbered.resize(c.size);
    std::vector<uint32_t>& out = read_later ? numbered : v;
    for (int sa = static_cast<int>(c.cnt0.size()) - 1; sa >= 0; --sa) {
      const uint64_t slots = c.cnt0[sa] + c.cnt1[sa];
      b_.toad_sets(c, sa, 0, slots, [&](uint64_t, uint32_t, uint64_t start, uint64_t nb) {
        for (uint64_t i = start; i < start + nb; ++i) out[i] = ids_.number(v[i]);
      });
    }
    // describe the forms new here, in parallel, a batch at a time
    const uint32_t count = ids_.count() - first;
    ChunkWriter writer;
    std::vector<StoredForm> forms;
    for (uint32_t from = 0; from < count; from += kDescribeBatch) {
      forms.assign(std::min(kDescribeBatch, count - from), StoredForm{});
      tbb::parallel_for(tbb::blocked_range<uint32_t>(0, static_cast<uint32_t>(forms.size()), 64),
                        [&](const tbb::blocked_range<uint32_t>& r) {
                          cgt::PrintMemo& memo = print_memos_.local();
                          for (uint32_t i = r.begin(); i != r.end(); ++i)
                            forms[i] = describe(table_, ids_.form(first + from + i), ids_, text_cap_, &memo);
                        });
      writer.append(forms);
    }
    std::vector<StoredForm>().swap(forms);
#if defined(__GLIBC__)
    malloc_trim(0);  // the printing's temporaries back before the chunk is packed (the memos stay)
#endif
    // the chunk first, the boards last: a class is done when its board tier is in
    writer.commit(store_, layout_.forms(k), layout_.options(k), layout_.text(k));
    store_.commit(layout_.board(k), out);
    ledger_.solved(class_tiers(c));
    if (!read_later) {  // no longer class reads it
      std::vector<FormId>().swap(v);
      std::lock_guard lock(mu_);
      held_bytes_ -= c.size * sizeof(FormId);
    }
#if defined(__GLIBC__)
    malloc_trim(0);  // the chunk's and the values' memory back to the system
#endif
  }

  /// Forms described at once when a class is committed (their StoredForms held together).
  static constexpr uint32_t kDescribeBatch = uint32_t{1} << 16;

  const Boards& b_;
  TierStore& store_;
  TierLayout layout_;
  uint64_t text_cap_;
  FormTable table_;
  Numbering ids_;
  // each thread's texts printed before: a new form's options were printed as forms of their own
  tbb::enumerable_thread_specific<cgt::PrintMemo> print_memos_;
  std::vector<std::vector<FormId>> values_;  // [class]: engine ids, while held
  std::vector<uint32_t> readers_;             // [class]: classes left to solve that read it; mu_
  uint32_t first_ = 0;                        // the first class not read back
  SolveStats stats_;
  SolveLedger ledger_;  // skipped, solved, stopped
  // the table is compacted at the first pause once it holds compact_at_ forms
  uint64_t compact_floor_, compact_at_;
  std::atomic<bool> pause_{false};
  TableStats table_stats_;

  // the workers of one length
  std::atomic<uint32_t> next_{0};
  uint32_t end_ = 0;
  std::mutex mu_;
  std::vector<bool> done_;   // mu_
  uint32_t next_commit_ = 0;  // mu_
  bool committing_ = false;   // mu_
  uint64_t held_bytes_ = 0;   // mu_
};

}  // namespace

SolveStats solve_database(const Boards& boards, TierStore& store, Progress* progress, uint64_t text_cap,
                          uint64_t compact_floor, TableStats* table) {
  Solver s(boards, store, progress, text_cap, compact_floor);
  const SolveStats out = s.run();
  if (table) *table = s.table_stats();
  return out;
}

}  // namespace toadbase::toads_frogs_cgt
