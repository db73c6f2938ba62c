#include "solver/games/forest/posterior.hpp"

#include <algorithm>
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

constexpr const char* kObservationsShape =
    R"({"side": n, "start": [r, c], "visited": [...], "deaths": [...], "stones": [...]})";
constexpr const char* kBeliefShape =
    R"({"side": 3, "start": [r, c], "at": [r, c], "visited": [...], "deaths": [...], "stones": [...]})";

/// An error in the text as a whole (not JSON, or not an object): the message says first what
/// the text should be.
struct ShapeError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

/// A JSON value shown in a message: its text, cut to 40 characters.
std::string shown(const nlohmann::json& v) {
  std::string s = v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (s.size() > 40) {
    size_t cut = 37;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // not inside a character
    s = s.substr(0, cut) + "...";
  }
  return s;
}

/// What a JSON value is, in words.
std::string kind(const nlohmann::json& v) {
  if (v.is_object()) return "an object";
  if (v.is_array()) return "an array";
  if (v.is_string()) return "a string";
  if (v.is_boolean()) return "true or false";
  if (v.is_number()) return "a number";
  return "null";
}

bool word_char(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' || c == '+' ||
         c == '-';
}

/// The text as JSON; throws ShapeError saying where it stops being JSON.
nlohmann::json parse_text(const std::string& text) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) throw ShapeError("the text is empty");
    if (e.byte == 0 || e.byte > text.size()) throw ShapeError("not JSON: it ends before the JSON does");
    // the byte the parser stopped at, moved back to the start of the word it was reading
    size_t at = e.byte - 1;
    if (word_char(text[at]))
      while (at > 0 && word_char(text[at - 1])) --at;
    // counted in characters (UTF-8), by line when the text has several
    const size_t line_start = text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
    size_t column = 1;
    for (size_t i = line_start; i < at; ++i) column += (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
    const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n');
    throw ShapeError(text.find('\n') == std::string::npos
                         ? "not JSON at character " + std::to_string(column)
                         : "not JSON at line " + std::to_string(line) + ", character " + std::to_string(column));
  } catch (const nlohmann::json::exception&) {
    // a number past the largest double (1e400)
    throw ShapeError("not JSON that can be read: a number in it is too large");
  }
}

/// Reads observations (and, for a belief, "at" into *at), naming the field that is wrong.
Observations read_checked(const nlohmann::json& j, int* at) {
  const bool belief = at != nullptr;
  auto fail = [](const std::string& why) { throw std::invalid_argument(why); };
  if (!j.is_object()) throw ShapeError("this is " + kind(j));
  for (const auto& [key, value] : j.items())
    if (key != "side" && key != "start" && key != "at" && key != "visited" && key != "deaths" && key != "stones")
      fail("unknown field " + shown(key) + " (the fields are side, start, " + (belief ? "at, " : "") +
           "visited, deaths and stones)");
  Observations o;
  if (!j.contains("side")) fail(belief ? "give \"side\": 3" : "give \"side\": the forest's side");
  const auto& side = j["side"];
  if (!side.is_number_integer()) fail("\"side\" is a whole number, not " + shown(side));
  // the JSON library reads 0 and 1 as unsigned: the lower bound is checked both ways
  if (side.is_number_unsigned() ? side.get<uint64_t>() < 2 || side.get<uint64_t>() > uint64_t{kMaxSide}
                                : side.get<int64_t>() < 2 || side.get<int64_t>() > kMaxSide)
    fail("\"side\" is 2.." + std::to_string(kMaxSide) + ", not " + shown(side));
  o.side = side.get<int>();
  // a tile [row, column] inside the forest
  auto tile = [&](const nlohmann::json& rc, const std::string& what) {
    if (!rc.is_array() || rc.size() != 2 || !rc[0].is_number_integer() || !rc[1].is_number_integer())
      fail(what + " is a tile [row, column], not " + shown(rc));
    auto inside = [&](const nlohmann::json& x) {
      return x.is_number_unsigned() ? x.get<uint64_t>() < static_cast<uint64_t>(o.side)
                                    : x.get<int64_t>() >= 0 && x.get<int64_t>() < o.side;
    };
    if (!inside(rc[0]) || !inside(rc[1]))
      fail(what + " " + shown(rc) + " is outside the forest (rows and columns 0.." + std::to_string(o.side - 1) + ")");
    return rc[0].get<int>() * o.side + rc[1].get<int>();
  };
  // a list, absent for none
  auto list = [&](const char* name, const std::string& of) -> const nlohmann::json& {
    static const nlohmann::json none = nlohmann::json::array();
    if (!j.contains(name)) return none;
    const auto& v = j[name];
    if (!v.is_array()) fail(std::string("\"") + name + "\" is a list of " + of + ", not " + shown(v));
    return v;
  };
  if (!j.contains("start")) fail("give \"start\": [row, column], the tile he started on");
  o.start = tile(j["start"], "\"start\"");
  if (belief) {
    if (!j.contains("at")) fail("give \"at\": [row, column], where he stands");
    *at = tile(j["at"], "\"at\"");
  }
  const std::string visit = R"({"tile": [r, c], "bones": true|false, "leaves": true|false})";
  for (const auto& v : list("visited", visit)) {
    bool fits = v.is_object() && v.contains("tile");
    if (fits)
      for (const auto& [key, value] : v.items())
        fits = fits && (key == "tile" || ((key == "bones" || key == "leaves") && value.is_boolean()));
    if (!fits) fail("each visited entry is " + visit + ", not " + shown(v));
    o.visited.push_back({tile(v["tile"], "a visited tile"), v.value("bones", false), v.value("leaves", false)});
  }
  const std::string death = R"({"tile": [r, c], "hazard": "monster"|"trap"})";
  for (const auto& d : list("deaths", death)) {
    bool fits = d.is_object() && d.contains("tile") && d.contains("hazard") && d.size() == 2;
    if (!fits) fail("each death is " + death + ", not " + shown(d));
    const auto& h = d["hazard"];
    if (!h.is_string() || (h != "monster" && h != "trap"))
      fail("a death's hazard is \"monster\" or \"trap\", not " + shown(h));
    o.deaths.push_back({tile(d["tile"], "a death's tile"), h == "monster" ? kMonster : kTrap});
  }
  for (const auto& t : list("stones", "tiles [[r, c], ...]")) o.stones.push_back(tile(t, "a stone's tile"));
  return o;
}

}  // namespace

Observations read_observations(const std::string& text) {
  const std::string what = "observations: ";
  try {
    return read_checked(parse_text(text), nullptr);
  } catch (const ShapeError& e) {
    throw std::invalid_argument(what + "a JSON object " + kObservationsShape + ": " + e.what());
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(what + e.what());
  }
}

Observations read_belief(const std::string& text, int* at) {
  try {
    return read_checked(parse_text(text), at);
  } catch (const ShapeError& e) {
    throw std::invalid_argument(std::string("a forest belief is a JSON object ") + kBeliefShape + ": " + e.what());
  }
}

}  // namespace toadbase::forest
