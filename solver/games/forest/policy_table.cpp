#include "solver/games/forest/policy_table.hpp"

#include <cstring>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace toadbase::forest {

namespace {
constexpr uint8_t kNothingLeft = 255;
}

PolicyRecord encode_policy(const PolicyEntry& e) {
  PolicyRecord r{};
  for (int b = 0; b < 8; ++b) r.bytes[b] = static_cast<uint8_t>(e.belief >> (8 * b));
  r.bytes[8] = e.target < 0 ? kNothingLeft : static_cast<uint8_t>(e.target | (e.stone ? 16 : 0));
  uint64_t v;
  std::memcpy(&v, &e.value, 8);
  for (int b = 0; b < 8; ++b) r.bytes[9 + b] = static_cast<uint8_t>(v >> (8 * b));
  return r;
}

PolicyEntry decode_policy(const PolicyRecord& r) {
  PolicyEntry e;
  for (int b = 0; b < 8; ++b) e.belief |= uint64_t{r.bytes[b]} << (8 * b);
  e.target = r.bytes[8] == kNothingLeft ? -1 : r.bytes[8] & 15;
  e.stone = r.bytes[8] != kNothingLeft && (r.bytes[8] & 16);
  uint64_t v = 0;
  for (int b = 0; b < 8; ++b) v |= uint64_t{r.bytes[9 + b]} << (8 * b);
  std::memcpy(&e.value, &v, 8);
  return e;
}

std::string policy_tier_name(int s) {
  return "start-" + std::to_string(s / kPolicySide) + "-" + std::to_string(s % kPolicySide);
}

uint64_t policy_tier_beliefs(int start) {
  // equal by the forest's symmetry: the four corners, the four edges, the centre
  static constexpr uint64_t kBeliefs[kPolicySide * kPolicySide] = {271561, 168094, 271561, 168094, 73601,
                                                                   168094, 271561, 168094, 271561};
  if (start < 0 || start >= kPolicySide * kPolicySide) throw std::invalid_argument("a 3x3 start tile is 0..8");
  return kBeliefs[start];
}

std::optional<PolicyEntry> find_policy(const TierSource& source, uint64_t key) {
  const TierId t = static_cast<TierId>(key >> 54 & 15);
  if (t >= kPolicySide * kPolicySide || !source.has_tier(t)) return std::nullopt;
  const uint64_t n = source.tier_kept(t);
  uint64_t lo = 0, hi = n;
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (decode_policy(source.record<PolicyRecord>(t, mid)).belief < key) lo = mid + 1;
    else hi = mid;
  }
  if (lo == n) return std::nullopt;
  const PolicyEntry e = decode_policy(source.record<PolicyRecord>(t, lo));
  if (e.belief != key) return std::nullopt;
  return e;
}

uint64_t parse_belief(const std::string& text) {
  int at = 0;
  const Observations o = read_belief(text, &at);
  return belief_key(o, at);
}

std::string format_belief(uint64_t key) {
  int at = 0;
  const Observations o = belief_observations(key, &at);
  auto rc = [](int t) { return nlohmann::ordered_json::array({t / kPolicySide, t % kPolicySide}); };
  nlohmann::ordered_json j = {{"side", kPolicySide}, {"start", rc(o.start)}, {"at", rc(at)}};
  j["visited"] = nlohmann::ordered_json::array();
  for (const auto& v : o.visited) j["visited"].push_back({{"tile", rc(v.tile)}, {"bones", v.bones}, {"leaves", v.leaves}});
  j["deaths"] = nlohmann::ordered_json::array();
  for (auto [t, h] : o.deaths) j["deaths"].push_back({{"tile", rc(t)}, {"hazard", h == kTrap ? "trap" : "monster"}});
  j["stones"] = nlohmann::ordered_json::array();
  for (int t : o.stones) j["stones"].push_back(rc(t));
  return j.dump();
}

}  // namespace toadbase::forest
