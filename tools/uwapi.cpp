#include "tools/uwapi.hpp"

#include <algorithm>
#include <string_view>
#include <utility>
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
    // a puzzle's move into a dead end changes no count of moves to the goal (as UWAPI says 0)
    const int delta = puzzle ? (r.winning ? static_cast<int>(probe.outcome.remoteness) - rem : 0)
                             : (r.winning ? rem - min_losing_child : max_winning_child - rem);
    nlohmann::ordered_json m = {{"move", r.m->name},
                                {"autoguiMove", r.m->autogui},
                                {"position", r.m->position},
                                {"autoguiPosition", r.m->autogui_position},
                                {"moveValue", r.winning ? "win" : "lose"},
                                {"positionValue", value_name(r.m->outcome.value)},
                                {"remoteness", r.m->outcome.remoteness},
                                {"deltaRemoteness", delta}};
    if (puzzle) m["goalReachable"] = r.m->outcome.value == Value::Win;
    moves.push_back(std::move(m));
  }
  nlohmann::ordered_json j;
  j["position"] = probe.position;
  j["autoguiPosition"] = probe.autogui_position;
  j["positionValue"] = value_name(probe.outcome.value);
  j["remoteness"] = probe.outcome.remoteness;
  // a puzzle says plainly whether the goal can be reached: a dead end's remoteness is 0, and
  // that 0 counts no moves
  if (puzzle) j["goalReachable"] = probe.outcome.value == Value::Win;
  j["moves"] = std::move(moves);
  return j;
}

namespace {

/// UWAPI's name of a value ("unsolved" where ours says undecided).
const char* uwapi_value(Value v) {
  switch (v) {
    case Value::Win: return "win";
    case Value::Lose: return "lose";
    case Value::Tie: return "tie";
    case Value::Draw: return "draw";
    default: return "unsolved";
  }
}

/// The client's order of move values: win, tie, draw, lose.
int value_rank(Value v) {
  switch (v) {
    case Value::Win: return 0;
    case Value::Tie: return 1;
    case Value::Draw: return 2;
    case Value::Lose: return 3;
    default: return 4;
  }
}

/// The cells of an autogui arrow key "M_<from>_<to>_x" (as GamesCrafters' modules list moves,
/// in the board's order); {-1, -1} for a key of another form.
std::pair<int, int> arrow_cells(const std::string& key) {
  // "M_" digits "_" digits "_" sound
  size_t at = 2;
  auto number = [&](int& v) {
    const size_t first = at;
    v = 0;
    while (at < key.size() && key[at] >= '0' && key[at] <= '9' && at - first < 6) v = v * 10 + (key[at++] - '0');
    return at > first && at < key.size() && key[at++] == '_';
  };
  int from = 0, to = 0;
  if (key.compare(0, 2, "M_") != 0 || !number(from) || !number(to) || at + 1 != key.size()) return {-1, -1};
  return {from, to};
}

Value flipped(Value v) { return v == Value::Win ? Value::Lose : v == Value::Lose ? Value::Win : v; }

}  // namespace

namespace {

/// Appends `s` as a JSON string.
void put_string(std::string& out, std::string_view s) {
  static const char* hex = "0123456789abcdef";
  out += '"';
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c < 0x20) {
      const char* brief = c == '\b' ? "\\b" : c == '\f' ? "\\f" : c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t" : nullptr;
      if (brief) {
        out += brief;
        continue;
      }
      out += "\\u00";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += ch;
    }
  }
  out += '"';
}

void put_field(std::string& out, const char* key, std::string_view value) {
  out += '"';
  out += key;
  out += "\":";
  put_string(out, value);
}

void put_field(std::string& out, const char* key, int value) {
  out += '"';
  out += key;
  out += "\":";
  out += std::to_string(value);
}

}  // namespace

std::string uwapi_position_text(const PositionProbe& probe) {
  const bool puzzle = probe.players == 1;
  // a puzzle position's remoteness as the client reads it: -200 when the goal is out of reach
  auto remoteness = [&](const Outcome& o) {
    return puzzle && o.value != Value::Win ? kUwapiInfiniteRemoteness : static_cast<int>(o.remoteness);
  };
  struct Row {
    const MoveProbe* m;
    Value move_value;  // for the player making the move
    int delta;
    std::pair<int, int> cells;  // ties go in the board's order
  };
  std::vector<Row> rows;
  rows.reserve(probe.moves.size());
  int min_losing_child = -1, max_winning_child = -1;  // two players
  for (const MoveProbe& m : probe.moves) {
    const int rem = static_cast<int>(m.outcome.remoteness);
    if (m.outcome.value == Value::Lose && (min_losing_child < 0 || rem < min_losing_child)) min_losing_child = rem;
    if (m.outcome.value == Value::Win && rem > max_winning_child) max_winning_child = rem;
  }
  const int parent = remoteness(probe.outcome);
  for (const MoveProbe& m : probe.moves) {
    Row r{&m, Value::Lose, 0, arrow_cells(m.autogui)};
    const int rem = static_cast<int>(m.outcome.remoteness);
    if (puzzle) {
      if (m.outcome.value == Value::Win && parent >= 0) {
        r.delta = parent - rem;
        r.move_value = r.delta > 0 ? Value::Win : r.delta < 0 ? Value::Lose : Value::Tie;
      }
    } else {
      r.move_value = flipped(m.outcome.value);
      if (r.move_value == Value::Win) r.delta = rem - min_losing_child;
      if (r.move_value == Value::Lose) r.delta = max_winning_child - rem;
    }
    rows.push_back(r);
  }
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    const int ra = value_rank(a.move_value), rb = value_rank(b.move_value);
    if (ra != rb) return ra < rb;
    return a.delta != b.delta ? a.delta < b.delta : a.cells < b.cells;
  });
  // written straight into one string (the server's hot path): the field order is the spec's
  std::string out;
  out.reserve(128 + 256 * rows.size());
  out += '{';
  put_field(out, "position", probe.position);
  out += ',';
  put_field(out, "autoguiPosition", probe.autogui_position);
  out += ',';
  put_field(out, "positionValue", uwapi_value(probe.outcome.value));
  out += ',';
  put_field(out, "remoteness", parent);
  out += ",\"moves\":[";
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    if (i) out += ',';
    out += '{';
    put_field(out, "move", r.m->name);
    out += ',';
    put_field(out, "autoguiMove", r.m->autogui);
    out += ',';
    put_field(out, "position", r.m->position);
    out += ',';
    put_field(out, "autoguiPosition", r.m->autogui_position);
    out += ',';
    put_field(out, "positionValue", uwapi_value(r.m->outcome.value));
    out += ',';
    put_field(out, "remoteness", remoteness(r.m->outcome));
    out += ',';
    put_field(out, "moveValue", uwapi_value(r.move_value));
    out += ',';
    put_field(out, "deltaRemoteness", r.delta);
    out += '}';
  }
  out += "]}";
  return out;
}

nlohmann::ordered_json uwapi_position_json(const PositionProbe& probe) {
  return nlohmann::ordered_json::parse(uwapi_position_text(probe));
}

nlohmann::ordered_json query_json(const Instance& instance, const TierSource& source, const std::string& text,
                                  const std::string& turn) {
  if (const WinLoseValues* values = instance.win_lose_values()) return position_json(values->probe(source, text, turn));
  return instance.query(source, text, turn);
}

}  // namespace toadbase::tools
