// The optimal 3x3 policy as a database holds it (solve forest --side 3).
//
// Tiers: one per start tile ("start-r-c"), its belief states sorted by key. A record is 17
// bytes (the database keeps them as byte planes: plane b holds byte b of every record):
//
//     bytes 0-7    the belief key (u64le; optimal.hpp draws its bits)
//     byte  8      the decision: target tile | 16 if a stone first; 255: nothing left to try
//     bytes 9-16   the maximum expected score from here (IEEE double, little-endian)
//
// A position is a belief written as the `forest posterior` JSON plus where he stands:
// {"side": 3, "start": [r, c], "at": [r, c], "visited": [...], "deaths": [...], "stones": [...]}.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "solver/core/store.hpp"
#include "solver/games/forest/optimal.hpp"

namespace toadbase::forest {

inline constexpr int kPolicySide = 3;

struct PolicyRecord {
  uint8_t bytes[17];
};
static_assert(sizeof(PolicyRecord) == 17);

PolicyRecord encode_policy(const PolicyEntry& e);
PolicyEntry decode_policy(const PolicyRecord& r);

/// "start-r-c".
std::string policy_tier_name(int start);
/// How many belief states the expectimax meets from the start tile `start` (0..8): the size of
/// its tier. The beliefs it meets follow from the rules alone (every decision's every outcome
/// is searched, whatever the values), so these counts are the same in every build; the
/// tiers are named and sized from them without a search (the search takes seconds, and a
/// query of a database needs none). A solve checks them against the search it commits.
uint64_t policy_tier_beliefs(int start);
/// The stored decision of a belief key (a binary search over its start tile's tier).
std::optional<PolicyEntry> find_policy(const TierSource& source, uint64_t key);
/// A belief as the posterior's JSON plus "at"; throws std::invalid_argument.
uint64_t parse_belief(const std::string& text);
/// The canonical JSON of a belief key.
std::string format_belief(uint64_t key);

}  // namespace toadbase::forest
