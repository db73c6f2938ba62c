#include "tools/uwapi.hpp"

#include <algorithm>
#include <vector>

namespace toadbase::tools {

nlohmann::ordered_json position_json(const PositionProbe& probe) {
  const bool puzzle = probe.players == 1;
  struct Row {
    const MoveProbe* m;
    bool winning;  // for the player making the move
  };
  std::vector<Row> rows;
  for (const MoveProbe& m : probe.moves) {
    // two players: a move wins when the child is lost for the opponent;
    // a puzzle: a move wins when the goal stays reachable
    const bool winning = puzzle ? m.outcome.value == Value::Win : m.outcome.value == Value::Lose;
    rows.push_back({&m, winning});
  }
  // best first: winning moves by the shortest win, then losing moves by the longest loss
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    if (a.winning != b.winning) return a.winning;
    return a.winning ? a.m->outcome.remoteness < b.m->outcome.remoteness
                     : a.m->outcome.remoteness > b.m->outcome.remoteness;
  });
  int min_losing_child = -1, max_winning_child = -1;
  for (const Row& r : rows) {
    const int rem = static_cast<int>(r.m->outcome.remoteness);
    if (r.winning && (min_losing_child < 0 || rem < min_losing_child)) min_losing_child = rem;
    if (!r.winning && rem > max_winning_child) max_winning_child = rem;
  }
  nlohmann::ordered_json moves = nlohmann::ordered_json::array();
  for (const Row& r : rows) {
    const int rem = static_cast<int>(r.m->outcome.remoteness);
    const int delta = puzzle ? static_cast<int>(probe.outcome.remoteness) - rem
                             : (r.winning ? rem - min_losing_child : max_winning_child - rem);
    moves.push_back({{"move", r.m->name},
                     {"autoguiMove", r.m->autogui},
                     {"position", r.m->position},
                     {"moveValue", r.winning ? "win" : "lose"},
                     {"positionValue", value_name(r.m->outcome.value)},
                     {"remoteness", r.m->outcome.remoteness},
                     {"deltaRemoteness", delta}});
  }
  nlohmann::ordered_json j;
  j["position"] = probe.position;
  j["positionValue"] = value_name(probe.outcome.value);
  j["remoteness"] = probe.outcome.remoteness;
  j["moves"] = std::move(moves);
  return j;
}

nlohmann::ordered_json query_json(const Instance& instance, const TierSource& source, const std::string& text,
                                  const std::string& turn) {
  if (instance.win_lose()) return position_json(instance.probe(source, text, turn));
  return instance.query(source, text, turn);
}

}  // namespace toadbase::tools
