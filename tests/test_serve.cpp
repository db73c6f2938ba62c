// `toadbase serve` through real HTTP: a server started in this process on a free port (and
// the command itself, spawned), asked with cpp-httplib's client and with raw sockets.
// Oracles: the spec's reference answers (spec/uwapi.md), the spec's move rules computed here
// from the brute-force oracle (support.hpp) and a brute-force puzzle solver written below,
// and the toadbase command's own query / info output for the same positions.
#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <filesystem>
#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "serve_support.hpp"
#include "tools/registry.hpp"
#include "tools/uwapi.hpp"
#include "tools/web_assets.hpp"

using namespace tbtest;
using Catch::Matchers::Contains;
using json = nlohmann::json;

namespace {

namespace fs = std::filesystem;

std::string solve_puzzle(const TempDir& dir, const std::string& name, int left, int right) {
  const std::string db = dir / name;
  ok({"solve", "frog-puzzle", "--left", std::to_string(left), "--right", std::to_string(right), "--db", db, "--quiet"});
  return db;
}


std::string without_spaces(const std::string& s) {
  std::string out;
  for (char c : s)
    if (c != ' ' && c != '\n') out += c;
  return out;
}

// ---- the spec's move rules, computed here ---------------------------------------------

struct ExpectedMove {
  std::string position, move_value, position_value;
  int remoteness = 0, delta = 0;
};

int value_rank(const std::string& v) { return v == "win" ? 0 : v == "tie" ? 1 : v == "draw" ? 2 : 3; }

/// Checks a UWAPI answer's moves: the same moves as `expected` (by position), each with the
/// expected values, in the spec's order (win, tie, lose; within each by deltaRemoteness).
void check_moves(const json& got, std::vector<ExpectedMove> expected, const std::string& where) {
  INFO(where << "\n" << got.dump());
  REQUIRE(got.at("moves").size() == expected.size());
  std::map<std::string, ExpectedMove> by_pos;
  for (auto& e : expected) by_pos[e.position] = e;
  int last_rank = -1, last_delta = 0;
  std::set<std::string> keys;
  for (const auto& m : got["moves"]) {
    const std::string pos = m.at("position");
    REQUIRE(by_pos.count(pos) == 1);
    const ExpectedMove& e = by_pos[pos];
    CHECK(m.at("moveValue") == e.move_value);
    CHECK(m.at("positionValue") == e.position_value);
    CHECK(m.at("remoteness") == e.remoteness);
    CHECK(m.at("deltaRemoteness") == e.delta);
    CHECK(keys.insert(m.at("autoguiMove").get<std::string>()).second);  // unique click keys
    const int rank = value_rank(e.move_value);
    REQUIRE(rank >= last_rank);
    if (rank == last_rank) REQUIRE(e.delta >= last_delta);
    last_rank = rank;
    last_delta = e.delta;
  }
}

/// The UWAPI answer a Toads and Frogs position should get, from the oracle: moveValue flips
/// the child's value; winning moves' delta against the fastest losing child, losing moves'
/// against the slowest winning child.
std::vector<ExpectedMove> tf_expected(const std::string& pos) {
  std::vector<ExpectedMove> out;
  int min_losing = 1000, max_winning = -1;
  for (const auto& c : oracle_children(pos)) {
    const Truth t = oracle(c);
    const int r = static_cast<int>(t.remoteness);
    if (!t.win) min_losing = std::min(min_losing, r);
    if (t.win) max_winning = std::max(max_winning, r);
    out.push_back({c, t.win ? "lose" : "win", t.win ? "win" : "lose", r, 0});
  }
  for (auto& e : out) e.delta = e.move_value == "win" ? e.remoteness - min_losing : max_winning - e.remoteness;
  return out;
}

// ---- the frog puzzle by brute force ---------------------------------------------------

/// Boards of L, R and _; a frog moves the way it faces, into the next cell or over one frog
/// of the other kind.
std::vector<std::string> puzzle_children(const std::string& b) {
  std::vector<std::string> out;
  const int n = static_cast<int>(b.size());
  for (int i = 0; i < n; ++i) {
    const int dir = b[i] == 'L' ? 1 : b[i] == 'R' ? -1 : 0;
    if (!dir) continue;
    const char other = b[i] == 'L' ? 'R' : 'L';
    const int step = i + dir, jump = i + 2 * dir;
    std::string c = b;
    if (step >= 0 && step < n && b[step] == '_') {
      std::swap(c[i], c[step]);
      out.push_back(c);
    } else if (jump >= 0 && jump < n && b[step] == other && b[jump] == '_') {
      std::swap(c[i], c[jump]);
      out.push_back(c);
    }
  }
  return out;
}

/// Fewest moves to the goal (R..R _ L..L), -1 when it cannot be reached.
int puzzle_remoteness(const std::string& b, std::map<std::string, int>& memo) {
  if (auto it = memo.find(b); it != memo.end()) return it->second;
  const auto l = std::count(b.begin(), b.end(), 'L'), r = std::count(b.begin(), b.end(), 'R');
  const std::string goal = std::string(r, 'R') + std::string(b.size() - l - r, '_') + std::string(l, 'L');
  int best = -1;
  if (b == goal) {
    best = 0;
  } else {
    for (const auto& c : puzzle_children(b)) {
      const int rc = puzzle_remoteness(c, memo);
      if (rc >= 0 && (best < 0 || rc + 1 < best)) best = rc + 1;
    }
  }
  return memo[b] = best;
}

}  // namespace

TEST_CASE("serve: the spec's reference answers, verbatim", "[serve]") {
  TempDir dir("serve-ref");
  TestServer s({solve_tf(dir, "tf10", 10)});
  const std::string a = without_spaces(R"({"position":"2_T-TT--F-FF","autoguiPosition":"2_T-TT--F-FF","positionValue":"lose","remoteness":24,
 "moves":[{"move":"6-5","autoguiMove":"M_6_5_x","position":"1_T-TT-F--FF","autoguiPosition":"1_T-TT-F--FF",
           "positionValue":"win","remoteness":23,"moveValue":"lose","deltaRemoteness":0},
          {"move":"8-7","autoguiMove":"M_8_7_x","position":"1_T-TT--FF-F","autoguiPosition":"1_T-TT--FF-F",
           "positionValue":"win","remoteness":23,"moveValue":"lose","deltaRemoteness":0}]})");
  const std::string b = without_spaces(
      R"({"position":"1_FF-F---TTT","autoguiPosition":"1_FF-F---TTT","positionValue":"lose","remoteness":0,"moves":[]})");
  for (const std::string slash : {"/", ""}) {
    auto r = s.get("/uwapi/toads-frogs/tf10/positions" + slash + "?p=2_T-TT--F-FF");
    CHECK(r.status == 200);
    CHECK(r.body == a);
    CHECK(r.get_header_value("Content-Type") == "application/json");
    CHECK(r.get_header_value("Access-Control-Allow-Origin") == "*");
    r = s.get("/uwapi/toads-frogs/tf10/positions" + slash + "?p=1_FF-F---TTT");
    CHECK(r.status == 200);
    CHECK(r.body == b);
  }
}

TEST_CASE("serve: UWAPI games, variants and board data, field by field", "[serve]") {
  TempDir dir("serve-uwapi");
  TestServer s({solve_tf(dir, "tf10", 10), solve_tf(dir, "tf9", 9), solve_puzzle(dir, "frogs3", 3, 3)});

  auto r = s.get("/uwapi/");
  REQUIRE(r.status == 200);
  const json games = json::parse(r.body);
  REQUIRE(games.size() == 2);  // sorted by name
  CHECK(games[0] == json{{"id", "frog-puzzle"}, {"name", "Frog Swap Puzzle"}, {"type", "onePlayer"}, {"gui", "v2"}});
  CHECK(games[1] == json{{"id", "toads-frogs"}, {"name", "Toads and Frogs"}, {"type", "twoPlayer"}, {"gui", "v2"}});
  CHECK(s.get("/uwapi").body == r.body);

  const json tf = json::parse(s.get("/uwapi/toads-frogs/").body);
  CHECK(tf.at("id") == "toads-frogs");
  CHECK(tf.at("allowCustomVariantCreation") == false);
  CHECK(tf.at("supportsWinBy") == false);
  REQUIRE(tf.at("variants").size() == 2);
  // smallest board first (not the ids' order), each named without parentheses: GamesmanUni
  // titles a variant "Toads and Frogs (its name)"
  CHECK(tf["variants"][0].at("id") == "tf9");
  CHECK(tf["variants"][1].at("id") == "tf10");
  CHECK(tf["variants"][0].at("name") == "9 cells \u2014 tf9");
  CHECK(tf["variants"][1].at("name") == "10 cells \u2014 tf10");
  for (const auto& v : tf["variants"]) CHECK(v.at("name").get<std::string>().find_first_of("()") == std::string::npos);
  for (const auto& v : tf["variants"]) CHECK(v.at("gui") == "v2");

  const json v10 = json::parse(s.get("/uwapi/toads-frogs/tf10/").body);
  CHECK(v10.at("id") == "tf10");
  CHECK(v10.at("startPosition") == "1_TTT----FFF");  // the conventional start of length 10
  CHECK(v10.at("autoguiStartPosition") == "1_TTT----FFF");
  CHECK(v10.at("gui") == "v2");
  const json theme = v10.at("imageAutoGUIData").at("themes").at(v10["imageAutoGUIData"].at("defaultTheme").get<std::string>());
  CHECK(theme.at("space") == json{10, 3});
  REQUIRE(theme.at("centers").size() == 10);
  for (int i = 0; i < 10; ++i) CHECK(theme["centers"][i] == json{i + 0.5, 2});
  CHECK_FALSE(theme.contains("background"));  // no pond of 10 cells ships
  CHECK(theme.at("charImages").at("T").at("image") == "toadsandfrogs/bluefrog.svg");
  CHECK(theme.at("charImages").at("F").at("image") == "toadsandfrogs/redfrog.svg");
  CHECK(theme.at("sounds") == json{{"x", "animals/frog.mp3"}});
  CHECK(theme.at("arrowWidth") == 0.1);
  CHECK(theme.at("animationType") == "simpleSlides");

  const json v9 = json::parse(s.get("/uwapi/toads-frogs/tf9").body);
  CHECK(v9.at("startPosition") == "1_TTT---FFF");
  CHECK(v9["imageAutoGUIData"]["themes"]["frogs"].at("background") == "toadsandfrogs/pond8.svg");

  const json p = json::parse(s.get("/uwapi/frog-puzzle/frogs3/").body);
  CHECK(p.at("startPosition") == "LLL_RRR");
  CHECK(p.at("autoguiStartPosition") == "1_LLL-RRR");
  const json pt = p["imageAutoGUIData"]["themes"]["frogs"];
  CHECK(pt.at("space") == json{7, 3});
  CHECK(pt.at("background") == "toadsandfrogs/pond6.svg");
  CHECK(pt.at("charImages").at("L").at("image") == "toadsandfrogs/bluefrog.svg");
  CHECK(pt.at("charImages").at("R").at("image") == "toadsandfrogs/redfrog.svg");
  // every image and sound named is one the spec lists
  const std::set<std::string> shipped = {"toadsandfrogs/bluefrog.svg", "toadsandfrogs/redfrog.svg",
                                         "toadsandfrogs/pond4.svg",    "toadsandfrogs/pond6.svg",
                                         "toadsandfrogs/pond8.svg",    "toadsandfrogs/pond10.svg",
                                         "general/basichitbox.svg",    "animals/frog.mp3"};
  for (const json* t : {&theme, &pt}) {
    for (const auto& [k, c] : t->at("charImages").items()) CHECK(shipped.count(c.at("image")));
    for (const auto& [k, snd] : t->at("sounds").items()) CHECK(shipped.count(snd));
    if (t->contains("background")) CHECK(shipped.count(t->at("background")));
  }

  const json ins = json::parse(s.get("/uwapi/toads-frogs/tf10/instructions/?locale=en").body);
  CHECK_THAT(ins.at("instructions").get<std::string>(), Contains("jump"));
  CHECK_THAT(json::parse(s.get("/uwapi/frog-puzzle/frogs3/instructions").body).at("instructions").get<std::string>(),
             Contains("Swap"));

  // the start positions answer, and every position string keeps to [A-Za-z0-9_-]
  for (const std::string route : {"/uwapi/toads-frogs/tf10/positions/?p=1_TTT----FFF",
                                   "/uwapi/frog-puzzle/frogs3/positions/?p=LLL_RRR"}) {
    const json j = json::parse(s.get(route).body);
    auto plain = [](const std::string& t) {
      return std::all_of(t.begin(), t.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'; });
    };
    CHECK(plain(j.at("position")));
    for (const auto& m : j.at("moves")) {
      CHECK(plain(m.at("position")));
      CHECK(m.at("move").get<std::string>().find(':') == std::string::npos);
      const std::string a = m.at("autoguiPosition");
      CHECK((a.rfind("1_", 0) == 0 || a.rfind("2_", 0) == 0));
    }
  }

  // errors as the spec says
  CHECK(json::parse(s.get("/uwapi/chess/").body) == json{{"error", "Invalid Game"}});
  CHECK(json::parse(s.get("/uwapi/toads-frogs/tf11/").body) == json{{"error", "Invalid Variant"}});
  CHECK(json::parse(s.get("/uwapi/toads-frogs/frogs3/").body) == json{{"error", "Invalid Variant"}});  // another game's
  CHECK(json::parse(s.get("/uwapi/toads-frogs/tf10/positions/?p=1_TTX").body) == json{{"error", "Invalid Position"}});
  CHECK(json::parse(s.get("/uwapi/toads-frogs/tf10/positions/").body) == json{{"error", "Invalid Position"}});
  CHECK(json::parse(s.get("/uwapi/toads-frogs/tf10/positions/?p=1_TT-FF-FF-FF").body) == json{{"error", "Invalid Position"}});
  CHECK(s.get("/uwapi/chess/").status == 404);
}

TEST_CASE("serve: a game with no database served is not listed", "[serve]") {
  TempDir dir("serve-one");
  TestServer s({solve_puzzle(dir, "p2", 2, 2)});
  const json games = json::parse(s.get("/uwapi/").body);
  REQUIRE(games.size() == 1);
  CHECK(games[0].at("id") == "frog-puzzle");
  CHECK(s.get("/uwapi/toads-frogs/").status == 404);
}

TEST_CASE("serve: UWAPI moves of Toads and Frogs positions follow the spec's order and deltaRemoteness",
          "[serve]") {
  TempDir dir("serve-tf-moves");
  TestServer s({solve_tf(dir, "tf8", 8)});
  auto c = s.client();
  std::mt19937 rng(8);
  std::vector<std::string> boards = all_boards(8);
  std::shuffle(boards.begin(), boards.end(), rng);
  boards.resize(600);
  for (const auto& b : boards)
    for (const std::string turn : {"1", "2"}) {
      const std::string pos = turn + "_" + b;
      auto r = c.Get(("/uwapi/toads-frogs/tf8/positions/?p=" + pos).c_str());
      REQUIRE(r);
      REQUIRE(r->status == 200);
      const json j = json::parse(r->body);
      const Truth t = oracle(pos);
      CHECK(j.at("position") == pos);
      CHECK(j.at("autoguiPosition") == pos);
      CHECK(j.at("positionValue") == (t.win ? "win" : "lose"));
      CHECK(j.at("remoteness") == static_cast<int>(t.remoteness));
      check_moves(j, tf_expected(pos), pos);
      for (const auto& m : j["moves"]) {
        const std::string key = m.at("autoguiMove");
        const std::string name = m.at("move");
        int from = -1, to = -1;
        REQUIRE(std::sscanf(key.c_str(), "M_%d_%d_x", &from, &to) == 2);
        CHECK(name == std::to_string(from) + "-" + std::to_string(to));
        CHECK(m.at("autoguiPosition") == m.at("position"));
      }
    }
}

TEST_CASE("serve: UWAPI puzzle answers follow the one-player rules (-200, delta = parent - child)", "[serve]") {
  TempDir dir("serve-puzzle-moves");
  TestServer s({solve_puzzle(dir, "frogs3", 3, 3)});
  auto c = s.client();
  std::map<std::string, int> memo;
  std::string cells = "LLLRRR_";
  std::sort(cells.begin(), cells.end());
  int positions = 0, dead_ends = 0, dead_moves = 0;
  do {
    ++positions;
    const int rem = puzzle_remoteness(cells, memo);
    auto r = c.Get(("/uwapi/frog-puzzle/frogs3/positions/?p=" + cells).c_str());
    REQUIRE(r);
    REQUIRE(r->status == 200);
    const json j = json::parse(r->body);
    std::string autogui = "1_" + cells;
    std::replace(autogui.begin(), autogui.end(), '_', '-');
    autogui[1] = '_';
    CHECK(j.at("position") == cells);
    CHECK(j.at("autoguiPosition") == autogui);
    // the autoguiPosition printed is read back (a GamesmanUni deep link holds it)
    auto back = c.Get(("/uwapi/frog-puzzle/frogs3/positions/?p=" + autogui).c_str());
    REQUIRE(back);
    CHECK(back->status == 200);
    CHECK(back->body == r->body);
    CHECK(j.at("positionValue") == (rem >= 0 ? "win" : "lose"));
    CHECK(j.at("remoteness") == (rem >= 0 ? rem : -200));
    if (rem < 0) ++dead_ends;
    std::vector<ExpectedMove> expected;
    if (rem != 0)  // the goal has no moves
      for (const auto& child : puzzle_children(cells)) {
        const int rc = puzzle_remoteness(child, memo);
        ExpectedMove e{child, "lose", rc >= 0 ? "win" : "lose", rc >= 0 ? rc : -200, 0};
        if (rc >= 0 && rem >= 0) {
          e.delta = rem - rc;
          e.move_value = e.delta > 0 ? "win" : e.delta < 0 ? "lose" : "tie";
        }
        if (rc < 0) ++dead_moves;
        expected.push_back(e);
      }
    check_moves(j, expected, cells);
  } while (std::next_permutation(cells.begin(), cells.end()));
  CHECK(positions == 140);
  CHECK(dead_ends > 0);
  CHECK(dead_moves > 0);
}

TEST_CASE("serve: /api/ says how the page shows each game, after the fields it had", "[serve]") {
  TempDir dir("serve-api-page");
  const std::string tf = solve_tf(dir, "tf6", 6), frogs = solve_puzzle(dir, "frogs3", 3, 3);
  const std::string cgt = dir / "cgt5";
  ok({"solve", "toads-frogs-cgt", "--length", "5", "--db", cgt, "--quiet"});
  TestServer s({tf, frogs, cgt});
  const auto listing = nlohmann::ordered_json::parse(s.get("/api/").body);
  const auto keys = [](const nlohmann::ordered_json& j) {
    std::vector<std::string> out;
    for (const auto& [k, v] : j.items()) out.push_back(k);
    return out;
  };
  CHECK(keys(listing) == std::vector<std::string>{"databases", "games"});
  // each database: the fields it had, in their order, then the page's line and explanation
  std::map<std::string, nlohmann::ordered_json> db;
  for (const auto& d : listing["databases"]) {
    std::vector<std::string> want = {"id",          "game",   "parameters", "positions", "tiers",
                                     "storedBytes", "digest", "manifest",   "query",     "start"};
    if (d.contains("uwapi")) want.push_back("uwapi");
    want.insert(want.end(), {"description", "about"});
    CHECK(keys(d) == want);
    db[d["id"].get<std::string>()] = d;
  }
  REQUIRE(db.size() == 3);
  CHECK(db["tf6"]["description"] == "Toads and Frogs, 6 cells");
  CHECK(db["frogs3"]["description"] == "Frog puzzle, 3 + 3 frogs, 1 empty");
  CHECK(db["cgt5"]["description"] == "Toads and Frogs values, boards of 1..5 cells");
  CHECK_THAT(db["frogs3"]["about"].get<std::string>(), Contains("the goal is RRR_LLL."));

  // every registered game in the registry's order, as its module's page() says
  const auto& listed = listing["games"];
  REQUIRE(listed.size() == toadbase::tools::games().size());
  std::set<std::string> tools;
  std::map<std::string, nlohmann::ordered_json> game;
  for (size_t i = 0; i < listed.size(); ++i) {
    const auto& g = *toadbase::tools::games()[i];
    const toadbase::PageView v = g.page();
    const auto& j = listed[i];
    INFO(j.dump());
    CHECK(keys(j) == std::vector<std::string>{"name", "title", "view", "tools"});
    CHECK(j["name"] == g.name());
    CHECK(j["title"] == v.title);
    CHECK(!v.title.empty());
    CHECK(j["view"]["kind"] == v.kind);
    CHECK(j["view"]["positionField"] == v.position_field);
    CHECK(j["view"]["turnPrefix"] == v.turn_prefix);
    CHECK(j["view"]["pieces"].size() == v.pieces.size());
    CHECK(j["view"]["sides"].size() == v.sides.size());
    CHECK(j["tools"].size() == v.tools.size());
    // every route the page calls is one of the game's own: the server answers it (not 404)
    std::vector<std::string> routes = {j["view"]["route"]};
    for (const auto& t : j["tools"]) {
      CHECK(tools.insert(t["id"].get<std::string>()).second);  // a tool's id is unique
      CHECK(!t["kind"].get<std::string>().empty());
      routes.push_back(t["route"]);
    }
    for (const auto& r : routes)
      if (!r.empty()) {
        INFO(r);
        CHECK(r.rfind("/api/" + g.name() + "/", 0) == 0);
        CHECK(s.get(r).status != 404);
      }
    game[g.name()] = j;
  }
  const auto& strip = game["toads-frogs"]["view"];
  CHECK(strip["kind"] == "strip");
  CHECK(strip["turnPrefix"] == true);
  CHECK(strip["pieces"][0]["letter"] == "T");
  CHECK(strip["pieces"][1]["letter"] == "F");
  CHECK(strip["sides"][0]["name"] == "Toads");
  CHECK(game["frog-puzzle"]["view"]["route"] == "/api/frog-puzzle/solve");
  const auto& values = game["toads-frogs-cgt"]["view"];
  CHECK(values["kind"] == "values");
  CHECK(values["route"] == "/api/toads-frogs-cgt/thermograph");
  CHECK(values["words"]["empty"] == "-");
  CHECK(values["pieces"].size() == 2);

  // the field the description names holds the position, in the query's answer and in each of
  // its moves that leads to one: what the plain view shows and opens
  for (const auto& [id, d] : db) {
    const std::string field = game[d["game"].get<std::string>()]["view"]["positionField"];
    const json q =
        json::parse(s.get("/api/" + id + "/query?p=" + d["start"].get<std::string>()).body);
    INFO(id << " " << q.dump());
    CHECK(q.at(field).is_string());
    int moves = 0;
    for (const auto& [k, v] : q.items())
      if (v.is_array())
        for (const auto& m : v)
          if (m.is_object() && m.contains("move")) {
            CHECK(m.at(field).is_string());
            ++moves;
          }
    CHECK(moves > 0);
  }
}

TEST_CASE("serve: /api/ answers exactly what query and info --json print", "[serve]") {
  TempDir dir("serve-api");
  const std::string tf = solve_tf(dir, "tf10", 10), frogs = solve_puzzle(dir, "frogs3", 3, 3);
  TestServer s({tf, frogs});
  auto c = s.client();

  const json list = json::parse(s.get("/api/").body);
  REQUIRE(list.at("databases").size() == 2);
  for (const auto& [i, path] : std::vector<std::pair<int, std::string>>{{0, frogs}, {1, tf}}) {
    const json d = list["databases"][i];
    const json info = json::parse(ok({"info", "--db", path, "--json"}).out);
    CHECK(d.at("id") == fs::path(path).filename().string());
    CHECK(d.at("game") == info.at("game"));
    CHECK(d.at("parameters") == info.at("parameters"));
    CHECK(d.at("positions") == info.at("positions"));
    CHECK(d.at("tiers") == info.at("tierCount"));
    CHECK(d.at("digest") == info.at("digest"));
    // the manifest route is info --json, byte for byte, with and without tiers
    CHECK(s.get("/api/" + d["id"].get<std::string>() + "/").body + "\n" == ok({"info", "--db", path, "--json"}).out);
    CHECK(s.get("/api/" + d["id"].get<std::string>() + "?tiers=1").body + "\n" ==
          ok({"info", "--db", path, "--json", "--tiers"}).out);
  }

  std::vector<std::string> tf_positions = {"1_TTT----FFF", "2_T-TT--F-FF", "1_FF-F---TTT", "1_tt..ff____",
                                           "1_TT-FF",      "3_TT--FF----", "1_TXT-------", "",
                                           "2_" + std::string(10, '-'), "1_TTTTTTTTTT"};
  std::mt19937 rng(10);
  auto boards = all_boards(10);
  for (int i = 0; i < 60; ++i) tf_positions.push_back((i % 2 ? "1_" : "2_") + boards[rng() % boards.size()]);
  const std::vector<std::string> puzzle_positions = {"LLL_RRR", "RRR_LLL", "L_LLRRR", "1_xxx-ooo", "[1, 1, 0, 1, -1, -1, -1]",
                                                     "LL_RR",   "LLLLRR_", "LLL_RRX", "LLL__RR", "  LL_LRRR "};
  for (const auto& [path, positions] : {std::pair{tf, tf_positions}, std::pair{frogs, puzzle_positions}}) {
    const std::string id = fs::path(path).filename().string();
    std::string stdin_text;
    for (const auto& p : positions) stdin_text += p + "\n";
    // GET: one line each, exactly the command's (positions on standard input: the command
    // line's parser would split a "[1, 0, -1]" list)
    const RunResult cmd = run_toadbase({"query", "--db", path, "-"}, stdin_text);
    const auto lines = lines_of(cmd.out);
    size_t k = 0;
    for (const auto& p : positions) {
      if (p.empty()) continue;
      auto r = c.Get(("/api/" + id + "/query?p=" + encode(p)).c_str());
      REQUIRE(r);
      INFO(p);
      REQUIRE(k < lines.size());
      CHECK(r->body == lines[k]);
      CHECK(r->status == (lines[k].find("\"error\"") == std::string::npos ? 200 : 400));
      ++k;
    }
    CHECK(k == lines.size());
    // and as command-line arguments, where they pass through unsplit
    std::vector<std::string> args = {"query", "--db", path};
    std::string expected_args;
    for (size_t i = 0; i < positions.size(); ++i) {
      const auto& p = positions[i];
      if (p.empty() || p.find_first_of(", ") != std::string::npos) continue;
      args.push_back(p);
      expected_args += s.get("/api/" + id + "/query?p=" + encode(p)).body + "\n";
    }
    const RunResult by_args = run_toadbase(args);
    INFO(by_args.err);
    CHECK(by_args.out == expected_args);
    // POST: the same lines as `query -` reading them from standard input
    const RunResult& piped = cmd;
    auto r = c.Post(("/api/" + id + "/query").c_str(), stdin_text, "text/plain");
    REQUIRE(r);
    CHECK(r->status == 200);
    CHECK(r->get_header_value("Content-Type") == "application/x-ndjson");
    CHECK(r->body == piped.out);
    // CRLF lines and a turn for bare boards
    if (path == tf) {
      r = c.Post(("/api/" + id + "/query?turn=2").c_str(), "TTT----FFF\r\n\r\nT-TT--F-FF\r\n", "text/plain");
      REQUIRE(r);
      CHECK(r->body == ok({"query", "--db", path, "--turn", "2", "TTT----FFF", "T-TT--F-FF"}).out);
      // comment lines, indented or not, are skipped as `query -` skips them
      const std::string commented = "# boards\nTTT----FFF\n  # an indented comment\n\t\n#T-TT--F-FF\n";
      r = c.Post(("/api/" + id + "/query?turn=2").c_str(), commented, "text/plain");
      REQUIRE(r);
      CHECK(r->body == ok({"query", "--db", path, "--turn", "2", "-"}, commented).out);
      CHECK(r->body == ok({"query", "--db", path, "--turn", "2", "TTT----FFF"}).out);
      CHECK(s.get("/api/tf10/query?p=TTT----FFF&turn=2").body + "\n" ==
            ok({"query", "--db", path, "--turn", "2", "TTT----FFF"}).out);
    }
  }

  CHECK(s.get("/api/nope/").status == 404);
  CHECK(json::parse(s.get("/api/nope/").body).at("error").get<std::string>().find("nope") != std::string::npos);
  CHECK(s.get("/api/tf10/query").status == 400);
  CHECK(s.get("/api/tf10/nothing").status == 404);
  CHECK(json::parse(s.get("/api/tf10/nothing").body).contains("error"));
}

TEST_CASE("serve: the batch route is bounded in lines and bytes", "[serve]") {
  TempDir dir("serve-batch");
  toadbase::tools::ServeOptions o;
  o.max_batch_lines = 50;
  o.limits.max_body = 4096;
  TestServer s({solve_tf(dir, "tf8", 8)}, o);
  auto c = s.client();
  std::string fifty, fifty_one;
  for (int i = 0; i < 50; ++i) fifty += "1_TT----FF\n";
  fifty_one = fifty + "2_TT----FF\n";
  auto r = c.Post("/api/tf8/query", fifty, "text/plain");
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(lines_of(r->body).size() == 50);
  r = c.Post("/api/tf8/query", fifty_one, "text/plain");
  REQUIRE(r);
  CHECK(r->status == 413);
  CHECK_THAT(json::parse(r->body).at("error").get<std::string>(), Contains("50"));
  r = c.Post("/api/tf8/query", std::string(5000, '\n'), "text/plain");
  REQUIRE(r);
  CHECK(r->status == 413);
  CHECK(json::parse(r->body).contains("error"));
  r = c.Post("/api/none/query", "1_TT----FF\n", "text/plain");
  REQUIRE(r);
  CHECK(r->status == 404);
  // the server still answers
  CHECK(s.get("/api/tf8/query?p=1_TT----FF").status == 200);
}

TEST_CASE("serve: CORS on every answer, OPTIONS 204, HEAD, and 405 for other methods", "[serve]") {
  TempDir dir("serve-methods");
  TestServer s({solve_tf(dir, "tf8", 8)});
  auto c = s.client();
  const std::vector<std::string> paths = {"/", "/uwapi/", "/uwapi/toads-frogs/tf8/positions/?p=1_TT----FF",
                                          "/uwapi/x/", "/api/", "/api/tf8/", "/api/tf8/query?p=bad", "/nope",
                                          "/toadbase.css"};
  for (const auto& p : paths) {
    INFO(p);
    auto g = c.Get(p.c_str());
    REQUIRE(g);
    CHECK(g->get_header_value("Access-Control-Allow-Origin") == "*");
    auto h = c.Head(p.c_str());
    REQUIRE(h);
    CHECK(h->status == g->status);
    CHECK(h->body.empty());
    CHECK(h->get_header_value("Access-Control-Allow-Origin") == "*");
    CHECK(h->get_header_value("Content-Length") == std::to_string(g->body.size()));
    auto o = c.Options(p.c_str());
    REQUIRE(o);
    CHECK(o->status == 204);
    CHECK(o->body.empty());
    CHECK(o->get_header_value("Access-Control-Allow-Origin") == "*");
    for (const std::string method : {"PUT", "DELETE", "PATCH"}) {
      httplib::Request req;
      req.method = method;
      req.path = p;
      auto r = c.send(req);
      REQUIRE(r);
      CHECK(r->status == 405);
      CHECK(r->get_header_value("Access-Control-Allow-Origin") == "*");
      const bool batch = p.rfind("/api/tf8/query", 0) == 0;
      CHECK(r->get_header_value("Allow") == (batch ? "GET, HEAD, POST, OPTIONS" : "GET, HEAD, OPTIONS"));
      CHECK(json::parse(r->body).contains("error"));
    }
    auto post = c.Post(p.c_str(), "1_TT----FF", "text/plain");
    REQUIRE(post);
    CHECK(post->status == (p.rfind("/api/tf8/query", 0) == 0 ? 200 : 405));
  }
  auto r = c.Put("/api/tf8/query", "1_TT----FF", "text/plain");
  REQUIRE(r);
  CHECK(r->status == 405);
  CHECK(r->get_header_value("Allow") == "GET, HEAD, POST, OPTIONS");
  // TRACE and CONNECT through a raw socket
  for (const std::string line : {"TRACE / HTTP/1.1", "CONNECT 127.0.0.1:1 HTTP/1.1"}) {
    RawSocket sock(s.port);
    sock.send(line + "\r\nHost: x\r\nConnection: close\r\n\r\n");
    const std::string raw = sock.read_all(2000);
    INFO(raw);
    CHECK((status_of(raw) == 405 || status_of(raw) == 400));
    CHECK_THAT(raw, Contains("Access-Control-Allow-Origin: *"));
  }
}

TEST_CASE("serve: the page, built-in files, and no path escapes", "[serve]") {
  TempDir dir("serve-page");
  TestServer s({solve_tf(dir, "tf8", 8), solve_puzzle(dir, "p2", 2, 2)});
  // the page (tools/web/index.html) at /, every file it names answering
  auto page = s.get("/");
  CHECK(page.status == 200);
  CHECK_THAT(page.get_header_value("Content-Type"), Contains("text/html"));
  CHECK(page.body == read_file(source_dir() + "/tools/web/index.html"));
  // every file of tools/web/ is built in, named by the page and served as its kind
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(source_dir() + "/tools/web")) {
    const std::string file = "/" + e.path().filename().string();
    if (file[1] == '.') continue;
    ++files;
    INFO(file);
    const auto f = s.get(file);
    CHECK(f.status == 200);
    CHECK(f.body == read_file(e.path().string()));
    if (file == "/index.html") continue;
    CHECK_THAT(page.body, Contains(std::string("\"") + file + "\""));
    if (e.path().extension() == ".js")
      CHECK(f.get_header_value("Content-Type") == "text/javascript; charset=utf-8");
  }
  CHECK(files >= 4);  // the page, the style, app.js and its views
  CHECK(toadbase::tools::web_asset_count() == files);
  // the listing without script
  auto r = s.get("/databases");
  CHECK(r.status == 200);
  CHECK_THAT(r.get_header_value("Content-Type"), Contains("text/html"));
  CHECK_THAT(r.body, Contains("tf8"));
  CHECK_THAT(r.body, Contains("/uwapi/toads-frogs/tf8/"));
  CHECK_THAT(r.body, Contains("/api/p2/"));
  // every link on the page answers 200
  size_t at = 0;
  int links = 0;
  while ((at = r.body.find("href=\"", at)) != std::string::npos) {
    at += 6;
    const std::string href = r.body.substr(at, r.body.find('"', at) - at);
    INFO(href);
    CHECK(s.get(href).status == 200);
    ++links;
  }
  CHECK(links >= 8);
  // a file of tools/web/, byte for byte
  auto css = s.get("/toadbase.css");
  CHECK(css.status == 200);
  CHECK(css.get_header_value("Content-Type") == "text/css; charset=utf-8");
  CHECK(css.body == read_file(source_dir() + "/tools/web/toadbase.css"));
  CHECK(toadbase::tools::web_asset_count() >= 1);

  const std::vector<std::string> escapes = {
      "/../../../../etc/passwd", "/..%2f..%2f..%2fetc%2fpasswd", "/%2e%2e/%2e%2e/etc/passwd", "//etc/passwd",
      "/toadbase.css/../../../etc/passwd", "/.%2e/.%2e/etc/passwd", "/%2Fetc%2Fpasswd", "/etc/passwd",
      "/..\\..\\etc\\passwd", "/CMakeLists.txt", "/tools/web/toadbase.css", "/toadbase.css%00.html", "/%00"};
  for (const auto& p : escapes) {
    RawSocket sock(s.port);
    sock.send("GET " + p + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    const std::string raw = sock.read_all(2000);
    INFO(p << "\n" << raw);
    CHECK((status_of(raw) == 404 || status_of(raw) == 400));
    CHECK(raw.find("root:") == std::string::npos);
    CHECK(raw.find("cmake_minimum_required") == std::string::npos);
  }
}

TEST_CASE("serve: random and malformed requests leave the server answering correctly", "[serve]") {
  TempDir dir("serve-fuzz");
  const std::string tf = solve_tf(dir, "tf10", 10);
  TestServer s({tf, solve_puzzle(dir, "frogs3", 3, 3)});
  const std::string reference = s.get("/uwapi/toads-frogs/tf10/positions/?p=2_T-TT--F-FF").body;
  const std::string reference_api = s.get("/api/tf10/query?p=1_TTT----FFF").body;
  REQUIRE(reference_api + "\n" == ok({"query", "--db", tf, "1_TTT----FFF"}).out);
  std::mt19937 rng(13);

  // random bytes, with and without a request's shape
  for (int i = 0; i < 60; ++i) {
    std::string junk(rng() % 3000 + 1, '\0');
    for (auto& ch : junk) ch = static_cast<char>(rng() & 0xff);
    if (i % 3 == 0) junk = "GET /" + junk + " HTTP/1.1\r\n\r\n";
    if (i % 3 == 1) junk += "\r\n\r\n";
    RawSocket sock(s.port);
    sock.send(junk);
    ::shutdown(sock.fd(), SHUT_WR);
    const std::string raw = sock.read_all(3000);
    if (!raw.empty()) CHECK(status_of(raw) >= 400);
  }

  // position syntax broken every way, on both routes
  std::vector<std::string> bad = {"", "_", "1_", "1__", "3_TT--FF--FF", "1-TTT----FFF", "1_TTT----FFFF",
                                  "1_TTT----FF", "TTT----FFF", "1_TTT----FFX", "1_TTT\x01---FFF", "1_TTT----FF\xff",
                                  "\xc3\xa9", "1_" + std::string(5000, 'T'), "%", "%zz", "%4", "%%%", "%00", "%FF%FE",
                                  "1_TTT%00----FFF", "1_TTT+---FFF", "1_TTT----FFF&p=2", "1_TTT----FFF#x",
                                  "[1, 0, -1]", "{\"side\":3}", "LLL_RRR", "2_TTT----FFF2_", "-1", "99999999999999999999"};
  std::string huge_encoded;
  for (int i = 0; i < 2000; ++i) huge_encoded += "%41";
  bad.push_back(huge_encoded);
  for (const auto& p : bad) {
    for (const std::string route : {"/uwapi/toads-frogs/tf10/positions/?p=", "/api/tf10/query?p=",
                                    "/uwapi/frog-puzzle/frogs3/positions/?p="}) {
      RawSocket sock(s.port);
      sock.send("GET " + route + p + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
      const std::string raw = sock.read_all(3000);
      INFO(route << p << "\n" << raw.substr(0, 300));
      const int st = status_of(raw);
      if (st == 200) {
        // accepted: then it must be a position the command accepts too
        const std::string body = raw.substr(raw.find("\r\n\r\n") + 4);
        CHECK(json::parse(body).contains("moves"));
      } else {
        CHECK((st == 400 || st == 404 || st == 414));
        const std::string body = raw.substr(raw.find("\r\n\r\n") + 4);
        CHECK(json::parse(body).contains("error"));  // a JSON error, never a crash
      }
    }
  }

  // unknown routes and broken paths
  for (const std::string& p : std::vector<std::string>{"/uwapi/toads-frogs/tf10/positions/extra?p=1_TT", "/uwapi//toads-frogs/", "/api//",
                              "/api/tf10/query/more", "/uwapi/toads-frogs/tf10/nothing/", "/%", "/%zz/%4",
                              "/api/%ff%fe/", "/uwapi/%00/", "/" + std::string(7000, 'a')}) {
    RawSocket sock(s.port);
    sock.send("GET " + p + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    const std::string raw = sock.read_all(3000);
    INFO(p << "\n" << raw.substr(0, 300));
    CHECK((status_of(raw) == 404 || status_of(raw) == 400));
  }

  // broken request lines and headers
  for (const std::string req : {"GET\r\n\r\n", "GET / HTTP/9.9\r\n\r\n", " / HTTP/1.1\r\n\r\n",
                                "GET / HTTP/1.1\r\nNoColonHere\r\n\r\n", "GET / HTTP/1.1\r\nContent-Length: x\r\n\r\n",
                                "GET / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nabcdef",
                                "POST /api/tf10/query HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nabcde\r\n0\r\n\r\n",
                                "BREW /pot HTTP/1.1\r\n\r\n", "GET / HTTP/1.1\n\n", "\r\n\r\n"}) {
    RawSocket sock(s.port);
    sock.send(req);
    ::shutdown(sock.fd(), SHUT_WR);
    const std::string raw = sock.read_all(3000);
    INFO(req << "\n" << raw.substr(0, 300));
    if (!raw.empty()) CHECK(status_of(raw) >= 200);
  }
  // a refusal that quotes bytes of the request that are not UTF-8 (the fuzz target found
  // this one stopping the whole server): a JSON error, and the server goes on
  for (const std::string req : {"GET / HTTP/1.1\r\nContent-Length: \xff\xfe\r\n\r\n",
                                "POST /api/tf10/query HTTP/1.1\r\nContent-Length: 1\xc3\r\n\r\nx"}) {
    RawSocket sock(s.port);
    sock.send(req);
    ::shutdown(sock.fd(), SHUT_WR);
    const std::string raw = sock.read_all(3000);
    INFO(raw.substr(0, 300));
    CHECK(status_of(raw) == 400);
    CHECK(json::parse(raw.substr(raw.find("\r\n\r\n") + 4)).contains("error"));
  }

  // a request httplib cannot parse is answered 400 and the connection closed (its stream
  // cannot be trusted), while a routed error keeps the connection
  {
    RawSocket sock(s.port);
    sock.send("NOT A REQUEST\r\n\r\n");
    CHECK(status_of(sock.read_all(300)) == 400);
    CHECK(sock.closed_by_server(2000));
    RawSocket kept(s.port);
    kept.send("GET /api/tf10/query?p=bad HTTP/1.1\r\nHost: x\r\n\r\n");
    CHECK(status_of(kept.read_response(5000)) == 400);
    CHECK_FALSE(kept.closed_by_server(300));
  }

  // after all of it: the same answers
  CHECK(s.get("/uwapi/toads-frogs/tf10/positions/?p=2_T-TT--F-FF").body == reference);
  CHECK(s.get("/api/tf10/query?p=1_TTT----FFF").body == reference_api);
}

TEST_CASE("serve: limits on the URL, headers, body and connections, and slow clients hold no thread", "[serve]") {
  TempDir dir("serve-limits");
  toadbase::tools::ServeOptions o;
  o.limits.threads = 2;
  o.limits.max_connections = 16;
  o.limits.request_timeout = std::chrono::milliseconds(2000);
  o.limits.keep_alive = std::chrono::milliseconds(2500);
  TestServer s({solve_tf(dir, "tf8", 8)}, o);
  const std::string good = "/uwapi/toads-frogs/tf8/positions/?p=1_TT----FF";
  const std::string expected = s.get(good).body;

  auto exchange = [&](const std::string& bytes) {
    RawSocket sock(s.port);
    sock.send(bytes);
    return sock.read_all(3000);
  };
  // URL longer than 8 KiB: 414
  std::string raw = exchange("GET /api/tf8/query?p=" + std::string(9000, 'T') + " HTTP/1.1\r\nHost: x\r\n\r\n");
  CHECK(status_of(raw) == 414);
  CHECK_THAT(raw, Contains("Access-Control-Allow-Origin: *"));
  // too many headers, or too many header bytes: 431
  std::string many = "GET / HTTP/1.1\r\n";
  for (int i = 0; i < 100; ++i) many += "X-H" + std::to_string(i) + ": v\r\n";
  CHECK(status_of(exchange(many + "\r\n")) == 431);
  CHECK(status_of(exchange("GET / HTTP/1.1\r\nX-Big: " + std::string(20000, 'b') + "\r\n\r\n")) == 431);
  // a body past the limit is refused before it is read
  raw = exchange("POST /api/tf8/query HTTP/1.1\r\nContent-Length: 5000000\r\n\r\n1_TT----FF\n");
  CHECK(status_of(raw) == 413);
  CHECK(json::parse(raw.substr(raw.find("\r\n\r\n") + 4)).contains("error"));
  // a body sent with Expect: 100-continue gets the interim answer, then the real one
  {
    RawSocket sock(s.port);
    sock.send("POST /api/tf8/query HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 11\r\n\r\n");
    const std::string interim = sock.read_response(1500);
    CHECK(interim == "HTTP/1.1 100 Continue\r\n\r\n");
    sock.send("1_TT----FF\n");
    const std::string final_answer = sock.read_response(5000);
    CHECK(status_of(final_answer) == 200);
    CHECK(final_answer.find("100 Continue") == std::string::npos);
  }

  // slow clients: a dozen connections each holding half a request, on 2 worker threads
  std::vector<std::unique_ptr<RawSocket>> slow;
  for (int i = 0; i < 12; ++i) {
    slow.push_back(std::make_unique<RawSocket>(s.port));
    slow.back()->send("GET /uwapi/ HTTP/1.1\r\nHost: x\r\n");
  }
  const auto t0 = std::chrono::steady_clock::now();
  CHECK(s.get(good).body == expected);  // answered at once meanwhile
  // (well within the request time, which a server blocked by them would have to wait out)
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(1500));
  // ... and dropped once the request time is up
  for (auto& sock : slow) CHECK(sock->closed_by_server(6000));
  slow.clear();

  // a request dribbled a byte at a time within the time still gets its answer
  {
    RawSocket sock(s.port);
    const std::string req = "GET " + good + " HTTP/1.1\r\nHost: x\r\n\r\n";
    for (char ch : req.substr(0, 20)) {
      sock.send(std::string(1, ch));
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    sock.send(req.substr(20));
    raw = sock.read_response(5000);
    CHECK(status_of(raw) == 200);
    CHECK(raw.substr(raw.find("\r\n\r\n") + 4) == expected);
    // keep-alive: the same connection answers again, pipelined twice
    sock.send(req + req);
    raw = sock.read_response(5000);
    raw += sock.read_response(5000);
    size_t answers = 0;
    for (size_t at = 0; (at = raw.find("HTTP/1.1 200", at)) != std::string::npos; ++at) ++answers;
    CHECK(answers == 2);
    // an idle connection is closed after the keep-alive time
    CHECK(sock.closed_by_server(6000));
  }

  // a connection past the limit takes the slot of the one idle longest; the server recovers
  std::vector<std::unique_ptr<RawSocket>> idle;
  for (int i = 0; i < 200 && s.server->open_connections() > 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));  // the earlier connections gone
  REQUIRE(s.server->open_connections() == 0);
  for (int i = 0; i < 16; ++i) idle.push_back(std::make_unique<RawSocket>(s.port));
  for (int i = 0; i < 200 && s.server->open_connections() < 16; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));  // all adopted (a loaded machine is slow to)
  REQUIRE(s.server->open_connections() >= 16);
  {
    RawSocket extra(s.port);
    extra.send("GET " + good + " HTTP/1.1\r\nHost: x\r\n\r\n");
    raw = extra.read_response(10000);
    CHECK(status_of(raw) == 200);
    CHECK(raw.substr(raw.find("\r\n\r\n") + 4) == expected);
    CHECK(idle.front()->closed_by_server(5000));
  }
  idle.clear();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  CHECK(s.get(good).body == expected);
  for (int i = 0; i < 50 && s.server->open_connections() > 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK(s.server->open_connections() == 0);
}

TEST_CASE("serve: many clients at once get the answers one client gets", "[serve]") {
  TempDir dir("serve-concurrent");
  TestServer s({solve_tf(dir, "tf9", 9), solve_puzzle(dir, "frogs3", 3, 3)});
  std::vector<std::string> paths;
  std::mt19937 rng(9);
  auto boards = all_boards(9);
  for (int i = 0; i < 120; ++i)
    paths.push_back("/uwapi/toads-frogs/tf9/positions/?p=" + std::string(i % 2 ? "1_" : "2_") + boards[rng() % boards.size()]);
  for (const std::string p : {"/api/", "/uwapi/", "/api/frogs3/query?p=LLL_RRR", "/uwapi/frog-puzzle/frogs3/positions/?p=LL_LRRR",
                              "/api/tf9/query?p=1_bad"})
    paths.push_back(p);
  std::vector<std::string> expected;
  for (const auto& p : paths) expected.push_back(s.get(p).body);
  std::atomic<int> wrong{0}, failed{0};
  std::vector<std::thread> clients;
  for (int t = 0; t < 8; ++t)
    clients.emplace_back([&, t] {
      auto c = s.client();
      for (size_t i = 0; i < paths.size(); ++i) {
        const size_t k = (i * 7 + static_cast<size_t>(t) * 13) % paths.size();
        auto r = c.Get(paths[k].c_str());
        if (!r) ++failed;
        else if (r->body != expected[k]) ++wrong;
      }
    });
  for (auto& t : clients) t.join();
  CHECK(failed == 0);
  CHECK(wrong == 0);
}

namespace {

/// The URL a spawned `toadbase serve` prints to `out` ("listening on URL ..."), waited for up
/// to 10 s; "" when it never does.
std::string listening_url(const std::string& out) {
  for (int i = 0; i < 200; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    for (const auto& line : lines_of(read_file(out)))
      if (line.rfind("listening on ", 0) == 0) return line.substr(13, line.find(' ', 13) - 13);
  }
  return "";
}

}  // namespace

TEST_CASE("serve --threads 1: a query's prefetch starts no thread beyond the server's own", "[serve][cli]") {
  TempDir dir("serve-threads");
  const std::string db = dir / "cgt12";
  ok({"solve", "toads-frogs-cgt", "--length", "12", "--db", db, "--quiet"});
  const pid_t pid = spawn_toadbase({"serve", "--db", db, "--port", "0", "--threads", "1"}, "", dir / "out", dir / "err");
  struct Stop {  // the server stopped on every path out, a failed REQUIRE's too
    pid_t pid;
    ~Stop() {
      if (pid > 0) ::kill(pid, SIGKILL), ::waitpid(pid, nullptr, 0);
    }
  } stop{pid};
  const std::string url = listening_url(dir / "out");
  INFO(read_file(dir / "out") << read_file(dir / "err"));
  REQUIRE(url.rfind("http://127.0.0.1:", 0) == 0);
  const int before = thread_count(pid);
  REQUIRE(before > 0);
  httplib::Client c("127.0.0.1", std::stoi(url.substr(17)));
  // boards with many moves: each query prefetches its children's blocks (several tiers)
  for (const char* b : {"T-T-T-F-F-FF", "TT--T-FF-F-F", "T-T--TF--F-F", "-T-T-T-F-F-F"}) {
    auto r = c.Get(std::string("/api/cgt12/query?p=") + b);
    REQUIRE(r);
    CHECK(r->status == 200);
  }
  // oneTBB starts its workers as it wants them: a moment for one to show. Each step of these
  // queries asks for fewer blocks than Database::kParallelPrefetch, fetched on the worker that
  // asks; a hint of more goes to oneTBB, whose bound under --threads test_db.cpp checks ("prefetch
  // of many blocks keeps to oneTBB's bound ...")
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  CHECK(thread_count(pid) == before);
  ::kill(pid, SIGTERM);
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  stop.pid = 0;
  CHECK(WIFEXITED(status));
}

TEST_CASE("serve: the command prints its URL, answers, and stops on SIGTERM and SIGINT", "[serve][cli]") {
  TempDir dir("serve-cmd");
  solve_tf(dir, "tf8", 8);
  solve_puzzle(dir, "frogs2", 2, 2);
  fs::create_directories(dir / "data");
  fs::rename(dir / "tf8", dir / "data/tf8");
  fs::rename(dir / "frogs2", dir / "data/frogs2");
  fs::create_directories(dir / "data/notes");  // not a database: passed over quietly
  fs::create_directories(dir / "broken");
  write_file(dir / "broken/CURRENT", "MANIFEST-000001\n");  // looks like one, cannot be opened

  for (const int sig : {SIGTERM, SIGINT}) {
    const pid_t pid = spawn_toadbase({"serve", "--data", dir / "data", "--db", dir / "broken", "--port", "0"}, "",
                                     dir / "out", dir / "err");
    const std::string url = listening_url(dir / "out");
    INFO(read_file(dir / "out") << read_file(dir / "err"));
    REQUIRE(url.rfind("http://127.0.0.1:", 0) == 0);
    CHECK_THAT(read_file(dir / "out"), Contains("serving frogs2") && Contains("serving tf8"));
    CHECK_THAT(read_file(dir / "err"), Contains("warning") && Contains("broken"));
    const int port = std::stoi(url.substr(17));
    httplib::Client c("127.0.0.1", port);
    auto r = c.Get("/uwapi/toads-frogs/tf8/positions/?p=1_TT----FF");
    REQUIRE(r);
    auto api = c.Get("/api/tf8/query?p=1_TT----FF");
    REQUIRE(api);
    CHECK(api->body + "\n" == ok({"query", "--db", dir / "data/tf8", "1_TT----FF"}).out);
    CHECK(json::parse(r->body).at("autoguiPosition") == "1_TT----FF");
    CHECK(json::parse(c.Get("/api/")->body).at("databases").size() == 2);
    ::kill(pid, sig);
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    CHECK_THAT(read_file(dir / "out"), Contains("stopped"));
  }

  // nothing to serve: exit 1 naming why; no database option: exit 2
  RunResult r = run_expecting({"serve", "--db", dir / "broken", "--port", "0"}, 1);
  CHECK_THAT(r.err, Contains("no database to serve"));
  CHECK_THAT(r.err, Contains("broken"));
  r = run_expecting({"serve", "--data", dir / "data/notes", "--port", "0"}, 1);
  CHECK_THAT(r.err, Contains("no database"));
  // --data naming a database itself (it holds CURRENT) serves that database
  {
    std::vector<std::string> warnings;
    const auto served = toadbase::tools::open_served({std::string(dir / "data/tf8")}, {}, 1 << 20, warnings);
    INFO((warnings.empty() ? std::string() : warnings.front()));
    REQUIRE(served.size() == 1);
    CHECK(served[0]->id == "tf8");
    CHECK(warnings.empty());
  }
  r = run_expecting({"serve"}, 2);
  CHECK_THAT(r.err, Contains("--data"));
  run_expecting({"serve", "--db", dir / "data/tf8", "--port", "70000"}, 2);
  run_expecting({"serve", "--db", dir / "data/tf8", "--bogus"}, 2);
  // a port in use: exit 1 with the address named
  TestServer busy({dir / "data/tf8"});
  r = run_expecting({"serve", "--db", dir / "data/tf8", "--port", std::to_string(busy.port)}, 1);
  CHECK_THAT(r.err, Contains(std::to_string(busy.port)));
}

TEST_CASE("serve: serving writes nothing, and a solve into another directory meanwhile disturbs nothing",
          "[serve]") {
  TempDir dir("serve-readonly");
  const std::string tf = solve_tf(dir, "tf9", 9);
  auto snapshot = [](const std::string& path) {
    std::map<std::string, std::pair<uintmax_t, fs::file_time_type>> out;
    for (const auto& e : fs::directory_iterator(path)) out[e.path().filename()] = {e.file_size(), e.last_write_time()};
    return out;
  };
  const auto before = snapshot(tf);
  {
    TestServer s({tf});
    auto c = s.client();
    std::vector<std::string> positions;
    for (const auto& b : all_boards(9))
      if (positions.size() < 300) positions.push_back("1_" + b);
    std::vector<std::string> expected;
    for (const auto& p : positions) expected.push_back(c.Get(("/api/tf9/query?p=" + p).c_str())->body);
    std::atomic<bool> done{false};
    std::atomic<int> wrong{0};
    std::thread reader([&] {
      auto rc = s.client();
      while (!done)
        for (size_t i = 0; i < positions.size(); i += 7) {
          auto r = rc.Get(("/api/tf9/query?p=" + positions[i]).c_str());
          if (!r || r->body != expected[i]) ++wrong;
        }
    });
    ok({"solve", "toads-frogs", "--length", "11", "--db", dir / "tf11", "--quiet"});
    done = true;
    reader.join();
    CHECK(wrong == 0);
    CHECK(c.Get("/api/tf9/")->status == 200);
  }
  CHECK(snapshot(tf) == before);
}

TEST_CASE("serve: the UWAPI text writer escapes what JSON must and reads back as it wrote", "[serve]") {
  toadbase::PositionProbe p;
  p.players = 2;
  p.position = "1_\"quoted\\\x01";
  p.autogui_position = "1_TT";
  p.outcome = {toadbase::Value::Win, 3};
  p.moves.push_back({"a\"b", "M_10_2_x", "2_x\ty", "2_x", {toadbase::Value::Lose, 2}});
  p.moves.push_back({"c", "M_1_2_x", "2_z", "2_z", {toadbase::Value::Lose, 2}});
  p.moves.push_back({"d", "odd key", "2_w", "2_w", {toadbase::Value::Win, 5}});
  const std::string text = toadbase::tools::uwapi_position_text(p);
  const auto j = nlohmann::ordered_json::parse(text);
  CHECK(j.dump() == text);  // compact, and nlohmann writes it back byte for byte
  CHECK(j.at("position") == p.position);
  REQUIRE(j.at("moves").size() == 3);
  CHECK(j["moves"][0].at("move") == "c");  // ties in the board's order: cell 1 before cell 10
  CHECK(j["moves"][1].at("move") == "a\"b");
  CHECK(j["moves"][1].at("position") == "2_x\ty");
  CHECK(j["moves"][2].at("moveValue") == "lose");
  CHECK(toadbase::tools::uwapi_position_json(p) == j);
}

TEST_CASE("serve: the games' own routes answer as their commands do", "[serve]") {
  TempDir dir("serve-games");
  toadbase::tools::ServeOptions o;
  o.route_limits["river-toad.rolls"] = 20;
  o.route_limits["frog-puzzle.positions"] = 1000;
  TestServer s({solve_tf(dir, "tf6", 6)}, o);
  auto c = s.client();

  SECTION("frog-puzzle solve") {
    auto r = s.get("/api/frog-puzzle/solve?p=LLL_RRR");
    CHECK(r.status == 200);
    CHECK(r.body + "\n" == ok({"frog-puzzle", "solve", "LLL_RRR", "--json"}).out);
    const json j = json::parse(r.body);
    // n(m + k) + mk moves (the spec's count), each a legal step of a frog, ending at the goal
    CHECK(j["moves"] == 3 * (3 + 1) + 3 * 1);
    std::string board = "LLL_RRR";
    for (const auto& step : j["solution"]) {
      const int from = step["from"], to = step["to"];
      const char frog = board[static_cast<size_t>(from)];
      INFO(board << " " << step.dump());
      REQUIRE(board[static_cast<size_t>(to)] == '_');
      CHECK(((frog == 'L' && (to == from + 1 || (to == from + 2 && board[static_cast<size_t>(from + 1)] == 'R'))) ||
             (frog == 'R' && (to == from - 1 || (to == from - 2 && board[static_cast<size_t>(from - 1)] == 'L')))));
      std::swap(board[static_cast<size_t>(from)], board[static_cast<size_t>(to)]);
      CHECK(step["position"] == board);
    }
    CHECK(board == "RRR_LLL");
    // a dead end says so; a bad position names itself
    auto dead = json::parse(s.get("/api/frog-puzzle/solve?p=L_LLRRR").body);
    CHECK(dead["solvable"] == false);
    auto bad = s.get("/api/frog-puzzle/solve?p=LLX_RRR");
    CHECK(bad.status == 400);
    CHECK_THAT(json::parse(bad.body)["error"].get<std::string>(), Contains("X"));
    CHECK(s.get("/api/frog-puzzle/solve").status == 400);
    // bounded: past the server's limit of reachable positions, 413
    CHECK(s.get("/api/frog-puzzle/solve?p=" + std::string(8, 'L') + "_" + std::string(8, 'R')).status == 413);
    auto past = s.get("/api/frog-puzzle/solve?p=LLLL___RRR");  // 3,255 reachable, bound 4,200
    CHECK(past.status == 413);
    CHECK_THAT(json::parse(past.body)["error"].get<std::string>(),
               Contains("more than 1000 positions are reachable from LLLL___RRR"));
    CHECK(s.get("/api/frog-puzzle/solve?p=LLL__RRR").status == 200);  // 413 reachable, bound 560
    // the work budget: past 8 times the limit, a bound on the reachable positions refuses
    // after a short search; a board whose frogs never move has a bound of 1 and is answered
    auto far = s.get("/api/frog-puzzle/solve?p=LLLLLLLL____RRRRRRRR");
    CHECK(far.status == 413);
    CHECK_THAT(json::parse(far.body)["error"].get<std::string>(),
               Contains("as many as 62355150 positions may be reachable from LLLLLLLL____RRRRRRRR"));
    // a second '=' would solve another position (the part after it): refused
    CHECK(s.get("/api/frog-puzzle/solve?p=XXXX=LL_R").status == 400);
    auto stuck = s.get("/api/frog-puzzle/solve?p=LLLLLLLLRRRRRRRR________");
    REQUIRE(stuck.status == 200);
    CHECK(json::parse(stuck.body)["solvable"] == false);
    CHECK(json::parse(stuck.body)["reachablePositions"] == 1);
    CHECK(c.Post("/api/frog-puzzle/solve?p=LLL_RRR", "", "text/plain")->status == 405);
  }

  SECTION("forest play") {
    for (const std::string agent : {"original", "bayes", "oracle"}) {
      INFO(agent);
      auto r = s.get("/api/forest/play?side=4&seed=27&agent=" + agent);
      REQUIRE(r.status == 200);
      const json j = json::parse(r.body);
      // the same play as `forest play --json` (one object a line: the forest, each step, the result)
      const std::vector<std::string> lines = lines_of(ok({"forest", "play", "--side", "4", "--seed", "27", "--agent", agent, "--json"}).out);
      REQUIRE(lines.size() == j["steps"].size() + 2);
      CHECK(json::parse(lines.front())["forest"] == j["forest"]["rows"]);
      for (size_t i = 0; i < j["steps"].size(); ++i) {
        const json cli = json::parse(lines[i + 1]);
        const json& st = j["steps"][i];
        CHECK(cli["text"] == st["text"]);
        CHECK(cli["tile"] == st["tile"]);
        CHECK(cli["at"] == st["at"]);
        CHECK(cli["score"] == st["score"]);
      }
      const json cli_result = json::parse(lines.back())["result"];
      const json& res = j["result"];
      for (const char* k : {"portal", "stuck", "deaths", "moves", "stones", "score"}) CHECK(cli_result[k] == res[k]);
      REQUIRE(!j["steps"].empty());
      CHECK(j["steps"].back()["score"] == res["score"]);
      // the score adds up from the steps: -1 a move, -10 a stone, -160 a death, +160 the portal
      long score = 0;
      for (const auto& st : j["steps"]) {
        const std::string out = st["outcome"];
        score += out == "stone" ? -10 : -1;
        if (out == "monster" || out == "trap") score -= 160;
        if (out == "portal") score += 160;
        CHECK(st["score"] == score);
        if (st.contains("posterior")) {  // a distribution over where the portal is
          double sum = 0;
          for (double p : st["posterior"]["portal"]) sum += p;
          CHECK(std::abs(sum - 1) < 0.01);
        }
      }
    }
    CHECK(s.get("/api/forest/play?agent=nobody").status == 400);
    CHECK(s.get("/api/forest/play?side=99").status == 400);
    CHECK(s.get("/api/forest/play?side=3x").status == 400);
    CHECK(s.get("/api/forest/play?seed=-1").status == 400);
    auto opt = s.get("/api/forest/play?agent=optimal");
    CHECK(opt.status == 400);
    CHECK_THAT(json::parse(opt.body)["error"].get<std::string>(), Contains("forest database"));
  }

  SECTION("river-toad solve") {
    const std::string rolls = "6 # rolls\n5\n17\n30\n2\n9\n21\n";
    const std::string file = dir / "rolls.txt";
    std::ofstream(file) << rolls;
    auto r = c.Post("/api/river-toad/solve", rolls, "text/plain");
    REQUIRE(r);
    REQUIRE(r->status == 200);
    json got = json::parse(r->body);
    json want = json::parse(ok({"river-toad", "solve", file, "--json"}).out);
    got.erase("algorithms");  // their times differ
    want.erase("algorithms");
    CHECK(got == want);
    // each turn's HP and column as `river-toad play` prints them
    const std::string text = ok({"river-toad", "play", file}).out;
    REQUIRE(got["turns"].size() == 6);
    for (const auto& t : got["turns"])
      CHECK_THAT(text, Contains("turn " + std::to_string(t["turn"].get<int>()) + ": " + t["action"].get<std::string>() +
                                ", roll " + std::to_string(t["roll"].get<int>()) + ", column " +
                                std::to_string(t["column"].get<int>()) + ", HP " + std::to_string(t["hp"].get<int>())));
    // GET with the file in the address answers the same
    auto g = json::parse(s.get("/api/river-toad/solve?rolls=" + encode(rolls)).body);
    g.erase("algorithms");
    CHECK(g == got);
    auto bad = c.Post("/api/river-toad/solve", "2\n5\n99\n", "text/plain");
    CHECK(bad->status == 400);
    CHECK_THAT(json::parse(bad->body)["error"].get<std::string>(), Contains("99"));
    CHECK(s.get("/api/river-toad/solve").status == 400);
    std::string many = "30\n";
    for (int i = 0; i < 30; ++i) many += "5\n";
    CHECK(c.Post("/api/river-toad/solve", many, "text/plain")->status == 413);
    CHECK(s.get("/api/river-toad/solve?rolls=3%0A1%0A2%0A3&hp=0").status == 400);
  }
  // the server still answers the databases' routes after all that; /api/ names the start
  CHECK(s.get("/api/tf6/query?p=1_TT--FF").status == 200);
  const json listed = json::parse(s.get("/api/").body)["databases"].at(0);
  CHECK(listed["start"] == json::parse(s.get("/uwapi/toads-frogs/tf6/").body)["startPosition"]);
  CHECK(listed["start"] == "1_TT--FF");
}
