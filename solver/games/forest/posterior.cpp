#include "solver/games/forest/posterior.hpp"

#include <nlohmann/json.hpp>

namespace toadbase::forest {

double no_start_probability(int side) {
  double none = 0;
  each_configuration(side, [&](const Forest& fo, double p) {
    if (fo.eligible_starts().empty()) none += p;
  });
  return none;
}

Observations observations(const Knowledge& k) {
  Observations o;
  o.side = k.side;
  o.start = k.start;
  for (int t = 0; t < k.tiles(); ++t) {
    if (k.visited[t] && t != k.start) o.visited.push_back({t, k.bones[t] != 0, k.leaves[t] != 0});
    if (k.known_trap[t]) o.deaths.push_back({t, kTrap});
    if (k.known_monster[t]) o.deaths.push_back({t, kMonster});
    if (k.stoned[t]) o.stones.push_back(t);
  }
  return o;
}

Posterior posterior(const Observations& o) { return infer(o, InferenceOptions{}); }

namespace {
Observations read_checked(const nlohmann::json& j);
}

Observations read_observations(const std::string& text) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const std::exception& e) {
    throw std::invalid_argument(std::string("observations: not JSON (") + e.what() + ")");
  }
  try {
    return read_checked(j);
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(std::string("observations: a field has the wrong type (") + e.what() + ")");
  }
}

namespace {

Observations read_checked(const nlohmann::json& j) {
  Observations o;
  auto fail = [](const std::string& why) -> void { throw std::invalid_argument("observations: " + why); };
  if (!j.is_object() || !j.contains("side") || !j["side"].is_number_integer()) fail("give \"side\"");
  const int64_t side = j["side"].get<int64_t>();
  if (side < 2 || side > kMaxSide) fail("side must be 2.." + std::to_string(kMaxSide));
  o.side = static_cast<int>(side);
  auto tile = [&](const nlohmann::json& rc) {
    if (!rc.is_array() || rc.size() != 2 || !rc[0].is_number_integer() || !rc[1].is_number_integer())
      fail("a tile is [row, column], not " + rc.dump());
    const int64_t r = rc[0].get<int64_t>(), c = rc[1].get<int64_t>();
    if (r < 0 || c < 0 || r >= o.side || c >= o.side) fail("tile " + rc.dump() + " is outside the forest");
    return static_cast<int>(r * o.side + c);
  };
  if (!j.contains("start")) fail("give \"start\": [row, column]");
  o.start = tile(j["start"]);
  for (const auto& v : j.value("visited", nlohmann::json::array())) {
    if (!v.is_object() || !v.contains("tile") || (v.contains("bones") && !v["bones"].is_boolean()) ||
        (v.contains("leaves") && !v["leaves"].is_boolean()))
      fail("each visited entry is {\"tile\": [r, c], \"bones\": true|false, \"leaves\": true|false}");
    o.visited.push_back({tile(v["tile"]), v.value("bones", false), v.value("leaves", false)});
  }
  for (const auto& d : j.value("deaths", nlohmann::json::array())) {
    if (!d.is_object() || !d.contains("tile")) fail("each death is {\"tile\": [r, c], \"hazard\": \"monster\" | \"trap\"}");
    const std::string h = d.value("hazard", "");
    if (h != "monster" && h != "trap") fail("a death's hazard is \"monster\" or \"trap\"");
    o.deaths.push_back({tile(d.at("tile")), h == "monster" ? kMonster : kTrap});
  }
  for (const auto& s : j.value("stones", nlohmann::json::array())) o.stones.push_back(tile(s));
  return o;
}

}  // namespace

}  // namespace toadbase::forest
