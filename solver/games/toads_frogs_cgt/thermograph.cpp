#include "solver/games/toads_frogs_cgt/thermograph.hpp"

#include "solver/cgt/cgt.hpp"
#include "solver/games/toads_frogs_cgt/find.hpp"
#include "solver/games/toads_frogs_cgt/forms.hpp"

namespace toadbase::toads_frogs_cgt {

namespace {

nlohmann::ordered_json wall_json(const cgt::Trajectory& wall) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& p : wall.pieces)
    out.push_back({{"from", p.t.to_string()}, {"value", p.value.to_string()}, {"slope", p.slope}});
  return out;
}

}  // namespace

nlohmann::ordered_json thermograph_json(const std::string& value) {
  cgt::FormTable t({size_t{1} << 16, size_t{1} << 14});
  const cgt::FormId g = parse_value(t, value);
  const cgt::Thermograph th = t.thermograph(g);
  nlohmann::ordered_json j;
  // the value as text unless it prints past the database's text cap (a sum of a dozen hot
  // switches, 367 characters typed, prints 766 MB): then null, and how long it is
  const uint64_t length = t.printed_length(g);
  if (length <= kTextCap) {
    j["value"] = t.to_string(g);
  } else {
    j["value"] = nullptr;
    j["characters"] = length;
  }
  j["mean"] = th.mean.to_string();
  j["temperature"] = th.temperature.to_string();
  j["leftWall"] = wall_json(th.left_wall);
  j["rightWall"] = wall_json(th.right_wall);
  return j;
}

}  // namespace toadbase::toads_frogs_cgt
