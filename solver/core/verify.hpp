// Verify: every tier recomputed through the generic path (unrank or the game's step to the next
// index, children, rank: not the hot loop), compared with the stored records and the tier's
// digest; then a sample of its positions probed as a lookup does. Or, for a database too large to
// recompute whole, a random sample of every tier from its children's stored records (verify_sample).
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "solver/core/distribute.hpp"
#include "solver/core/game.hpp"
#include "solver/core/probe.hpp"
#include "solver/core/progress.hpp"
#include "solver/core/record.hpp"
#include "solver/core/results.hpp"
#include "solver/core/store.hpp"
#include "solver/core/walk.hpp"

namespace toadbase {

/// "win in 11": an outcome as verify's problems word it.
inline std::string outcome_text(Outcome o) {
  return std::string(value_name(o.value)) + " in " + std::to_string(o.remoteness);
}

/// One verify: the walk's work for each tier, and the first problem found (the lowest
/// tier, then the lowest index: the same report whatever the thread count).
template <TierGame G, class Rec, class Lookup, class Name>
class TierVerifier {
 public:
  using Position = typename G::Position;
  using R = typename Rec::Storage;

  TierVerifier(const G& game, const TierSource& source, Progress* progress, Lookup& lookup, Name& name)
      : game_(game), source_(source), progress_(progress), lookup_(lookup), name_(name), walk_(plan_tiers(game)) {
    uint64_t total = 0;
    for (TierId t = 0; t < game.tier_count(); ++t) total += game.tier_size(t);
    probe_all_ = total <= kProbeAllBelow;
  }

  VerifyReport run() {
    typename TierWalk<R>::Steps steps;
    steps.skip = [&](TierId) { return !rep_.ok; };  // after a failure the remaining levels are passed over
    steps.fetch = [&](TierId t, const typename TierWalk<R>::Hold&) -> std::vector<R> {
      throw std::logic_error("verify: tier " + game_.tier_name(t) + " was not recomputed before its readers");
    };
    steps.work = [&](TierId t, uint64_t, uint64_t, R* mine) { check_tier(t, mine); };
    steps.report = [](TierId, const R*) {};
    walk_.run(steps, distribute(walk_.plan(), std::vector<char>(walk_.plan().size.size(), 0), 1, CostModel{}));
    return rep_;
  }

 private:
  // a failed level ends the walk: the levels above read its records
  void check_tier(TierId t, R* mine) {
    const uint64_t size = game_.tier_size(t);
    std::vector<R> stored;
    if (!load_stored(t, stored)) return;
    if (!recompute(t, stored, mine)) return;
    if (!source_.matches_digest(t, mine, size)) {
      fail(t, 0, "tier " + game_.tier_name(t) +
                     (tier_stored(game_, t) ? std::string(" (its tail, copied from another tier)")
                                            : std::string(" (derived, not stored)")) +
                     ": its recomputed records do not match the digest the solve recorded");
      return;
    }
    const uint64_t probes = probe_all_ ? size : std::min(size, kProbesPerTier);
    if (!probe_sample(t, mine, probes)) return;
    std::lock_guard lock(mu_);
    rep_.positions_checked += size;
    rep_.positions_probed += probes;
    if (progress_) progress_->tier_done(game_.tier_name(t), size, false);
  }

  // the tier's committed records (none for a derived tier), checked against the space
  bool load_stored(TierId t, std::vector<R>& stored) {
    const uint64_t size = game_.tier_size(t);
    try {
      if (!source_.has_tier(t)) throw std::runtime_error("is not committed");
      if (source_.tier_positions(t) != size)
        throw std::runtime_error("holds " + std::to_string(source_.tier_positions(t)) + " records, the space has " +
                                 std::to_string(size));
      if (tier_stored(game_, t)) stored = source_.load<R>(t);  // checks block digests
      if (tier_stored(game_, t) && stored.size() < records_kept(game_, t))
        throw std::runtime_error("keeps " + std::to_string(stored.size()) + " records, lookups need " +
                                 std::to_string(records_kept(game_, t)));
    } catch (const std::exception& e) {
      fail(t, 0, std::string(e.what()) + " (tier " + game_.tier_name(t) + ")");
      return false;
    }
    return true;
  }

  // every record of the tier from its children's, through the generic path, into `mine`,
  // compared with the stored records. The loop only detects a problem; recompute_one() words
  // it (the same checks, one position, made again).
  bool recompute(TierId t, const std::vector<R>& stored, R* mine) {
    const std::vector<TierId> kids = game_.child_tiers(t);
    std::vector<const R*> kid_records;  // beside kids: a child's tier found by a short loop
    for (TierId k : kids) kid_records.push_back(walk_.held(k));
    const TierId* const kid = kids.data();
    const R* const* const kid_rec = kid_records.data();
    const size_t nk = kids.size();
    const uint64_t kept = stored.size();
    const R* const old = stored.data();
    std::atomic<bool> bad{false};
    tbb::parallel_for(tbb::blocked_range<uint64_t>(0, game_.tier_size(t), 4096), [&](const tbb::blocked_range<uint64_t>& r) {
      std::vector<unsigned> more;  // for a position with more than kMaxChildren children
      unsigned few[kMaxChildren];
      unsigned* recs = few;
      unsigned room = kMaxChildren;
      std::vector<Position> children;  // for a game without each_child
      // the run's first position unranked, the others stepped to (every one's rank checked)
      Position p = game_.unrank(t, r.begin());
      for (uint64_t i = r.begin(); i != r.end(); ++i) {
        if (i != r.begin()) next_in_tier(game_, t, i - 1, p);
        unsigned count = 0;
        const bool inside = game_.rank(p) == TierIndex{t, i} &&
                            each_child(game_, p, children, [&](const Position& c) __attribute__((always_inline)) {
                              const TierIndex ci = game_.rank(c);
                              size_t k = 0;
                              while (k < nk && kid[k] != ci.tier) ++k;
                              if (k == nk) return false;
                              if (count == room) [[unlikely]] {
                                if (recs == few) more.assign(few, few + count);
                                more.resize(2 * room);
                                recs = more.data();
                                room = static_cast<unsigned>(more.size());
                              }
                              recs[count++] = kid_rec[k][ci.index];
                              return true;
                            });
        const unsigned want =
            inside ? record_from_children<Rec>(game_, p, count, [&](unsigned k) { return recs[k]; }) : 0;
        if (!inside || want > kMaxStored<Rec> || (i < kept && static_cast<R>(want) != old[i])) {
          std::vector<unsigned> recs_again;
          if (recompute_one(t, i, p, i == r.begin(), kids, stored, mine, recs_again, children))
            fail(t, i, at(t, i, p) + ": verify's two passes over it disagree");
          bad = true;
          return;
        }
        mine[i] = static_cast<R>(want);
      }
    });
    return !bad;
  }

  // one position's checks, each worded: the problem recompute() found
  bool recompute_one(TierId t, uint64_t i, const Position& p, bool unranked, const std::vector<TierId>& kids,
                     const std::vector<R>& stored, R* mine, std::vector<unsigned>& recs,
                     std::vector<Position>& children) {
    if (!(game_.rank(p) == TierIndex{t, i})) {
      fail(t, i, "tier " + game_.tier_name(t) + " index " + std::to_string(i) +
                     (unranked ? ": rank(unrank) does not come back (" : ": the position stepped to from index " +
                                                                           std::to_string(i - 1) + " ranks elsewhere (") +
                     name_(p) + ")");
      return false;
    }
    recs.clear();
    // the report made outside the loop, so that the loop stays small enough to inline
    Position outside{};
    const bool inside = each_child(game_, p, children, [&](const Position& c) __attribute__((always_inline)) {
      const TierIndex ci = game_.rank(c);
      if (std::find(kids.begin(), kids.end(), ci.tier) == kids.end()) {
        outside = c;
        return false;
      }
      recs.push_back(walk_.held(ci.tier)[ci.index]);
      return true;
    });
    if (!inside) {
      fail(t, i, at(t, i, p) + ": child " + name_(outside) + " lies outside the child tiers");
      return false;
    }
    const unsigned want =
        record_from_children<Rec>(game_, p, static_cast<unsigned>(recs.size()), [&](unsigned k) { return recs[k]; });
    if (want > kMaxStored<Rec>) {
      fail(t, i, at(t, i, p) + ": remoteness overflows the record");
      return false;
    }
    mine[i] = static_cast<R>(want);
    if (i < stored.size() && mine[i] != stored[i]) {
      fail(t, i, at(t, i, p) + ": stored " + outcome_text(Rec::decode(stored[i])) + ", recomputed " +
                     outcome_text(Rec::decode(mine[i])));
      return false;
    }
    return true;
  }

  // the path users take: a sample of the tier's positions looked up as query does. A sample
  // of a large tier is spread over kProbeSections sections of it, as many lookups in each:
  // when the tier has a tail (read through canonical(), which the recompute above never
  // calls), the last section ends the tier and holds the whole tail (at least `each`
  // positions: a shorter tail is looked up whole) and the others share the rest; otherwise
  // the sections are the tier's quarters (as they are when the tail is most of the tier).
  static_assert(kProbeSections >= 2 && kProbesPerTier % kProbeSections == 0);
  bool probe_sample(TierId t, const R* mine, uint64_t probes) {
    const uint64_t size = game_.tier_size(t);
    const bool spread = !probe_all_ && probes == kProbesPerTier && size >= kProbesPerTier;
    const uint64_t each = kProbesPerTier / kProbeSections;
    const uint64_t prefix = tier_prefix(game_, t);
    const uint64_t last = std::min(prefix, size - std::min(size, each));  // where the last section begins
    const bool tail_apart = prefix < size && last >= (kProbeSections - 1) * each;
    const auto section = [&](uint64_t s) -> std::pair<uint64_t, uint64_t> {  // [begin, end), at least `each` long
      if (!tail_apart) return {s * (size / kProbeSections), (s + 1) * (size / kProbeSections)};
      if (s + 1 == kProbeSections) return {last, size};
      const uint64_t part = last / (kProbeSections - 1);
      return {s * part, (s + 1) * part};
    };
    for (uint64_t k = 0; k < probes; ++k) {
      uint64_t i = k;
      if (spread) {  // the j-th of `each` lookups in a section: in the j-th of `each` equal parts of it
        const auto [begin, end] = section(k / each);
        const uint64_t length = end - begin, j = k % each;
        i = begin + (length * j) / each + (k * 7919) % std::max<uint64_t>(1, length / each);
      }
      const Position p = game_.unrank(t, i);
      std::string problem;
      try {
        const Outcome got = lookup_(p), want = Rec::decode(mine[i]);
        if (!(got == want)) problem = "looked up as " + outcome_text(got) + ", recomputed " + outcome_text(want);
      } catch (const std::exception& e) {
        problem = std::string("the lookup fails: ") + e.what();
      }
      if (!problem.empty()) {
        fail(t, i, at(t, i, p) + ": " + problem);
        return false;
      }
    }
    return true;
  }

  void fail(TierId t, uint64_t i, std::string what) {
    std::lock_guard lock(mu_);
    if (t < bad_tier_ || (t == bad_tier_ && i < bad_index_)) {
      bad_tier_ = t;
      bad_index_ = i;
      rep_.ok = false;
      rep_.problem = std::move(what);
    }
  }
  std::string at(TierId t, uint64_t i, const Position& p) const {
    return "tier " + game_.tier_name(t) + " index " + std::to_string(i) + " (" + name_(p) + ")";
  }

  const G& game_;
  const TierSource& source_;
  Progress* progress_;
  Lookup& lookup_;
  Name& name_;
  TierWalk<R> walk_;
  bool probe_all_ = false;
  VerifyReport rep_;
  std::mutex mu_;
  TierId bad_tier_ = UINT32_MAX;  // the first problem: lowest tier, then lowest index
  uint64_t bad_index_ = 0;
};

/// Recomputes every record of the space from its children through the generic path
/// (unrank, children, rank: not the hot loop), compares it with the source's stored
/// records and every tier's digest, then probes a sample of each tier's positions through
/// `lookup(position) -> Outcome` (the path a query takes: the position's string parsed
/// back, then probe()) and compares with the recomputed record. `name(position)` writes
/// positions in reports. Call inside with_threads().
template <TierGame G, class Rec, class Lookup, class Name>
VerifyReport verify_tiers(const G& game, const TierSource& source, Progress* progress, Lookup&& lookup, Name&& name) {
  return TierVerifier<G, Rec, std::remove_reference_t<Lookup>, std::remove_reference_t<Name>>(game, source, progress,
                                                                                             lookup, name)
      .run();
}

/// Recomputes `per_tier` random positions of every tier (every position of a smaller tier)
/// from their children's records as a lookup reads them (stored, or one ply for a derived
/// tier), checks that each position ranks back to where it was drawn, and compares the
/// result with the position looked up through `lookup` (the path a query takes). The same
/// `seed` draws the same positions; the first problem reported is the lowest tier's, then the
/// lowest draw's, whatever the thread count. Every tier must be committed. Call inside
/// with_threads().
template <TierGame G, class Rec, class Lookup, class Name>
VerifyReport verify_sample(const G& game, const TierSource& source, Progress* progress, uint64_t per_tier,
                           uint64_t seed, Lookup&& lookup, Name&& name) {
  using Position = typename G::Position;
  const TierId tiers = game.tier_count();
  std::vector<std::string> problem(tiers);
  std::vector<uint64_t> checked(tiers, 0);
  std::mutex progress_mu;
  tbb::parallel_for(tbb::blocked_range<TierId>(0, tiers, 1), [&](const tbb::blocked_range<TierId>& r) {
    for (TierId t = r.begin(); t != r.end(); ++t) {
      const uint64_t size = game.tier_size(t);
      const bool all = size <= per_tier;
      const uint64_t draws = all ? size : per_tier;
      uint64_t state = seed ^ (0x9e3779b97f4a7c15ULL * (uint64_t{t} + 1));
      const auto next = [&state] {  // SplitMix64
        uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
      };
      std::vector<unsigned> recs;
      if (!source.has_tier(t)) problem[t] = "tier " + game.tier_name(t) + " is not committed";
      for (uint64_t k = 0; k < draws && problem[t].empty(); ++k) {
        const uint64_t i = all ? k : next() % size;
        const auto at = [&](const Position& p) {
          return "tier " + game.tier_name(t) + " index " + std::to_string(i) + " (" + name(p) + ")";
        };
        try {
          const Position p = game.unrank(t, i);
          if (!(game.rank(p) == TierIndex{t, i})) {
            problem[t] = at(p) + ": rank(unrank) does not come back";
            break;
          }
          recs.clear();
          for (const Position& c : game.children(p)) recs.push_back(probe_record<G, Rec>(game, source, c));
          const unsigned want = record_from_children<Rec>(game, p, static_cast<unsigned>(recs.size()),
                                                          [&](unsigned j) { return recs[j]; });
          if (want > kMaxStored<Rec>) {
            problem[t] = at(p) + ": remoteness overflows the record";
            break;
          }
          const Outcome w = Rec::decode(static_cast<typename Rec::Storage>(want));
          const Outcome stored = Rec::decode(static_cast<typename Rec::Storage>(probe_record<G, Rec>(game, source, p)));
          if (!(stored == w)) {
            problem[t] = at(p) + ": stored " + outcome_text(stored) + ", recomputed " + outcome_text(w);
            break;
          }
          const Outcome got = lookup(p);
          if (!(got == w)) problem[t] = at(p) + ": looked up as " + outcome_text(got) + ", recomputed " + outcome_text(w);
        } catch (const std::exception& e) {
          problem[t] = "tier " + game.tier_name(t) + " index " + std::to_string(i) + ": " + e.what();
        }
        ++checked[t];
      }
      if (progress) {
        std::lock_guard lock(progress_mu);
        progress->tier_done(game.tier_name(t), checked[t], false);
      }
    }
  });
  VerifyReport rep;
  for (TierId t = 0; t < tiers; ++t) {
    if (!problem[t].empty()) {
      rep.ok = false;
      rep.problem = problem[t];
      break;
    }
    rep.positions_checked += checked[t];
  }
  rep.positions_probed = rep.positions_checked;
  return rep;
}

}  // namespace toadbase
