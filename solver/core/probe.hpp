// Probe: one position's value read from a solved space as every lookup reads it, and the
// whole tiers of a solved space for a pass over it (analyze, export).
//
//   probe    canonical(p), then its stored record, or one ply from stored children for a
//            derived tier (a shorter board is embedded first)
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <vector>

#include "solver/core/game.hpp"
#include "solver/core/record.hpp"
#include "solver/core/solve.hpp"
#include "solver/core/store.hpp"

namespace toadbase {

/// The position itself, or the game's equivalent of it inside the space (a shorter board
/// padded with pieces that never move); nothing when the space holds no equivalent.
template <TierGame G>
std::optional<typename G::Position> embedded(const G& game, const typename G::Position& p) {
  if constexpr (requires { game.embed(p); }) {
    return game.embed(p);
  } else if constexpr (requires { game.contains(p); }) {
    if (game.contains(p)) return p;
    return std::nullopt;
  } else {
    return p;
  }
}

/// The record of a position of the space, read through the source as every lookup does:
/// canonical(p) (a tail position: its stored equivalent; a mirror), then its stored record,
/// or for a derived tier the combination of its children's stored records (one ply).
template <TierGame G, class Rec = ParityRecord>
unsigned probe_record(const G& game, const TierSource& source, const typename G::Position& given) {
  const typename G::Position p = canonical(game, given);
  const TierIndex ti = game.rank(p);
  using R = typename Rec::Storage;
  if (tier_stored(game, ti.tier)) return source.record<R>(ti.tier, ti.index);
  const auto kids = game.children(p);
  unsigned few[kMaxChildren];  // no allocation for the usual number of children
  std::vector<unsigned> many(kids.size() > kMaxChildren ? kids.size() : 0);
  unsigned* recs = many.empty() ? few : many.data();
  for (size_t k = 0; k < kids.size(); ++k) {
    const TierIndex ci = game.rank(canonical(game, kids[k]));
    recs[k] = source.record<R>(ci.tier, ci.index);
  }
  return record_from_children<Rec>(game, p, static_cast<unsigned>(kids.size()), [&](unsigned k) { return recs[k]; });
}

/// The value of any position the space holds or embeds; std::invalid_argument otherwise.
template <TierGame G, class Rec = ParityRecord>
Outcome probe(const G& game, const TierSource& source, const typename G::Position& given) {
  const auto inside = embedded(game, given);
  if (!inside) throw std::invalid_argument("the position lies outside the space");
  return Rec::decode(static_cast<typename Rec::Storage>(probe_record<G, Rec>(game, source, *inside)));
}

// ---- whole tiers for a pass over the database -------------------------------------------

/// Every tier's whole records (derived tiers and tails rebuilt), for analyze and export:
/// a memo of recent tiers (a tail's source, a derived tier's children are read again by
/// the tiers after them). Thread-safe.
template <TierGame G, class Rec = ParityRecord>
class TierReader {
 public:
  using R = typename Rec::Storage;

  TierReader(const G& game, const TierSource& source, uint64_t memo_bytes = uint64_t{256} << 20)
      : game_(game), source_(source), memo_cap_(memo_bytes) {}

  std::vector<R> records(TierId t) const {
    // this tier and those it reads go through the memo, pinned for this call
    std::vector<std::pair<TierId, std::shared_ptr<const std::vector<R>>>> pinned;
    std::function<const R*(TierId)> fetch = [&](TierId c) -> const R* {
      // pinned first: the memo may have let it go, and a chain read again from there
      // doubles its work at every derived tier that reads two of the chain
      for (const auto& [id, r] : pinned)
        if (id == c) return r->data();
      std::shared_ptr<const std::vector<R>> recs;
      {
        std::lock_guard lock(mu_);
        for (const auto& [id, r] : memo_)
          if (id == c) recs = r;
      }
      if (!recs) {
        recs = std::make_shared<const std::vector<R>>(recover_tier<G, Rec>(game_, source_, c, fetch));
        std::lock_guard lock(mu_);
        memo_.push_back({c, recs});
        memo_bytes_ += recs->size() * sizeof(R);
        while (memo_bytes_ > memo_cap_ && memo_.size() > 1) {
          memo_bytes_ -= memo_.front().second->size() * sizeof(R);
          memo_.pop_front();
        }
      }
      pinned.emplace_back(c, recs);
      return recs->data();
    };
    const R* r = fetch(t);
    return std::vector<R>(r, r + game_.tier_size(t));
  }

 private:
  const G& game_;
  const TierSource& source_;
  uint64_t memo_cap_;
  mutable std::mutex mu_;
  mutable std::deque<std::pair<TierId, std::shared_ptr<const std::vector<R>>>> memo_;
  mutable uint64_t memo_bytes_ = 0;
};

}  // namespace toadbase
