// The game concept: what the tier solver asks of a game.
//
// A game's space is a list of tiers in solve order. Tier ids are 0 .. tier_count()-1 and a
// tier's children live only in tiers with smaller ids ("immediate transition": every move
// leaves its tier), so one pass over a tier reads only finished tiers. Inside a tier the
// positions are numbered 0 .. tier_size(t)-1 by a perfect hash (rank / unrank).
//
// The solver's hot loop calls `scan(tier, lo, hi, visit)`: the game walks the positions
// lo .. hi-1 of the tier in order; for each it calls visit.child(slot, index, real) for each
// candidate child, where `slot` indexes child_tiers(tier), then visit.position(index).
// `real` false means "not a move": the game may report candidates that fail a test so its
// loop runs a fixed number of times (no unpredictable branch), but (slot, index) must still
// address an existing record. A plain lambda (index, const Child*, count) is accepted too
// (CollectChildren below gathers the real children for it).
// A one-player game (a puzzle) calls visit.goal(index) instead of visit.position(index) for a
// goal position: its value comes from the rules, not from its children. The generic path
// asks `bool is_goal(const Position&) const` (see is_goal() below).
// A game is free to enumerate incrementally there; the generic path (unrank, children,
// rank) is used by `verify`, which must not trust the fast path.
//
// Optionally a game may declare `bool tier_stored(TierId) const`: a tier for which it
// returns false is *derived*: the database keeps only its digest, and its records are
// recomputed on demand from its children (recovered the same way when derived too). A
// lookup goes through canonical() (below): the game must take every position to a stored
// one or to one whose children are (Syzygy's DTZ tables keep one side to move likewise).
//
// Optionally a game may also declare that a tier ends in a *tail* of positions equivalent to
// positions of another tier (the same game tree, so the same record):
//     uint64_t tier_prefix(TierId t) const    positions [0, prefix) are scanned, the rest
//                                             are the tail (prefix == tier_size: no tail)
//     TierId tail_source(TierId t) const       the one tier holding every tail position's
//                                             equivalent
//     void fill_tail(TierId t, const Record* source, Record* out) const
//                                             out[prefix .. size) from the source's records
//     void fill_tail_rows(TierId t, const RecordRows<Record>& rows, Record* out) const
//                                             the same from a source read a run of records
//                                             at a time (a tier held compressed: packed.hpp);
//                                             (without it, a solve holds its tiers raw
//                                             whatever the budget: holds_packed)
//     Position canonical(const Position&) const
//                                             a position of the same value that is stored
//                                             (in a prefix), or one ply from stored ones
// The solver scans the prefix and copies the tail; the database stores the prefix only (and
// nothing of a derived tier); a lookup ranks canonical(p). Toads and Frogs: a toad on the
// last cell never moves again, so X + "T" plays as "F" + X (see toads_frogs.hpp).
//
// Optionally a game says which positions a lookup may be given (the module's parse() reads
// any well-formed string; these decide whether the space answers it), at most one of:
//     std::optional<Position> embed(const Position&) const
//                                             the position itself when the space holds it,
//                                             an equivalent one it holds (Toads and Frogs:
//                                             a shorter board padded with pieces that never
//                                             move), or nothing: the space cannot answer it
//     bool contains(const Position&) const    true when the space holds the position
// A game with neither must hold every position its parse() accepts: rank() is called on it.
// With either, it may also give the reason a position is refused, for the user:
//     std::string why_not_contained(const Position&) const
//                                             e.g. "the space holds boards of 16 cells"
//                                             (empty: the engine says "it lies outside the
//                                             space")
// See embedded() in engine.hpp, and TierInstance::parse in tier_module.hpp.
//
// Optionally a game may step through a tier in rank order, for verify's walk over every
// position (cheaper than an unrank each; verify unranks the first of every run and checks
// rank() of each):
//     void next_in_tier(TierId t, Position& p) const
//                                             p, of index i < tier_size(t) - 1 in tier t,
//                                             becomes the position of index i + 1
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "solver/core/store.hpp"

namespace toadbase {

/// A position's address in the space: its tier and its index inside the tier.
struct TierIndex {
  TierId tier;
  uint64_t index;
  friend bool operator==(const TierIndex&, const TierIndex&) = default;
};

/// A child seen from the hot loop: which of the parent's child tiers, and where in it.
struct Child {
  uint32_t slot;
  uint64_t index;
};

/// The most children a position may have in the hot loop (the visitor's array size).
inline constexpr unsigned kMaxChildren = 64;

/// A visitor the concept checks `scan` against.
struct ScanProbe {
  void child(uint32_t, uint64_t, bool) {}
  void position(uint64_t) {}
  void goal(uint64_t) {}
};

/// Turns a lambda (index, children, count) into a scan visitor.
template <class F>
struct CollectChildren {
  F& f;
  Child kids[kMaxChildren];
  unsigned n = 0;
  void child(uint32_t slot, uint64_t index, bool real) {
    kids[n] = Child{slot, index};
    n += real ? 1u : 0u;
  }
  void position(uint64_t index) {
    f(index, static_cast<const Child*>(kids), n);
    n = 0;
  }
  /// A lambda sees a goal as a position without children (count 0 and a null array).
  void goal(uint64_t index) {
    f(index, static_cast<const Child*>(nullptr), 0u);
    n = 0;
  }
};

/// True when `V` is a lambda (index, children, count) rather than a scan visitor.
template <class V>
inline constexpr bool kIsChildLambda = std::is_invocable_v<V&, uint64_t, const Child*, unsigned>;

/// Runs `f(v)` on a local copy `v` of a scan visitor and copies it back (when it can be
/// copied back). A hot loop's accumulator that lives in the caller's memory must be stored
/// and reloaded around every record it writes (a byte store may alias anything); a local
/// copy whose address never escapes keeps its scalar members in registers (and what it
/// carries in arrays on the stack, read at an offset from the stack pointer).
template <class V, class F>
void with_local_visitor(V& visit, F&& f) {
  if constexpr (std::is_copy_assignable_v<V>) {
    V local = visit;
    f(local);
    visit = local;
  } else {
    f(visit);
  }
}

template <class G>
concept TierGame = requires(const G& g, TierId t, uint64_t i, const typename G::Position& p,
                            ScanProbe visit) {
  typename G::Position;
  { g.tier_count() } -> std::convertible_to<TierId>;
  { g.tier_size(t) } -> std::convertible_to<uint64_t>;
  { g.tier_name(t) } -> std::convertible_to<std::string>;
  { g.child_tiers(t) } -> std::convertible_to<std::vector<TierId>>;
  { g.unrank(t, i) } -> std::same_as<typename G::Position>;
  { g.rank(p) } -> std::same_as<TierIndex>;
  { g.children(p) } -> std::convertible_to<std::vector<typename G::Position>>;
  g.scan(t, i, i, visit);
};

/// False when the game declares tier t derived (not stored, recomputed from its children).
template <class G>
bool tier_stored(const G& game, TierId t) {
  if constexpr (requires { game.tier_stored(t); }) {
    return game.tier_stored(t);
  } else {
    return true;
  }
}

/// The positions of tier t the solver scans (and a stored tier stores): a prefix 0 .. k-1;
/// the rest of the tier, if any, is a tail filled from tail_source(t).
template <class G>
uint64_t tier_prefix(const G& game, TierId t) {
  if constexpr (requires { game.tier_prefix(t); }) {
    return game.tier_prefix(t);
  } else {
    return game.tier_size(t);
  }
}

/// True when tier t ends in a tail of positions copied from another tier.
template <class G>
bool has_tail(const G& game, TierId t) {
  return tier_prefix(game, t) < game.tier_size(t);
}

/// The position itself, or the game's equivalent of it that lies in a tier's prefix.
template <class G>
typename G::Position canonical(const G& game, const typename G::Position& p) {
  if constexpr (requires { game.canonical(p); }) {
    return game.canonical(p);
  } else {
    return p;
  }
}

/// True when the game declares p a goal (a puzzle's solved position); false for games
/// without goals.
template <class G>
bool is_goal(const G& game, const typename G::Position& p) {
  if constexpr (requires { game.is_goal(p); }) {
    return game.is_goal(p);
  } else {
    return false;
  }
}

/// The children of p into `out` (replacing what it held): the game's own
/// children(p, out) when it has one, which allocates nothing once `out` has grown; else
/// children(p).
template <class G>
void children_into(const G& game, const typename G::Position& p, std::vector<typename G::Position>& out) {
  if constexpr (requires { game.children(p, out); }) {
    game.children(p, out);
  } else {
    out = game.children(p);
  }
}

/// Calls f(child) for each child of p until f returns false; false when it did. The game's
/// own each_child(p, f) when it has one (no vector: verify's loop, a child ranked as it is
/// made), else its children into `scratch`.
template <class G, class F>
bool each_child(const G& game, const typename G::Position& p, std::vector<typename G::Position>& scratch, F&& f) {
  if constexpr (requires { game.each_child(p, f); }) {
    return game.each_child(p, f);
  } else {
    children_into(game, p, scratch);
    for (const auto& c : scratch)
      if (!f(c)) return false;
    return true;
  }
}

/// The position after p (index i of tier t) in rank order: the game's step, or an unrank.
template <class G>
[[gnu::always_inline]] inline void next_in_tier(const G& game, TierId t, uint64_t i, typename G::Position& p) {
  if constexpr (requires { game.next_in_tier(t, p); }) {
    game.next_in_tier(t, p);
  } else {
    p = game.unrank(t, i + 1);
  }
}

/// The record of a position from its children's records, through the generic path.
template <class Rec, class G, class Read>
unsigned record_from_children(const G& game, const typename G::Position& p, unsigned count,
                              Read&& read) {
  if constexpr (requires { Rec::kGoal; }) {
    if (is_goal(game, p)) return Rec::kGoal;
  }
  return Rec::combine(count, read);
}

}  // namespace toadbase
