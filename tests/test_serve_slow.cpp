// `toadbase serve` for the games with their own JSON (River Toad, the forest): their
// databases take seconds to solve, so these run with the slow label. /api/ answers exactly
// what `toadbase query` and `info --json` print; GamesmanUni's list leaves them out.
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "serve_support.hpp"

using namespace tbtest;
using json = nlohmann::json;

namespace {


/// Every position through GET and through one POST, against `query -` reading them.
void check_api(const TestServer& s, const std::string& db, const std::string& id, const std::vector<std::string>& positions) {
  std::string input;
  for (const auto& p : positions) input += p + "\n";
  const RunResult cmd = run_toadbase({"query", "--db", db, "-"}, input);
  std::istringstream lines(cmd.out);
  int answered = 0, refused = 0;
  for (std::string line; std::getline(lines, line);) ++(line.find("\"error\"") == std::string::npos ? answered : refused);
  CHECK(answered >= 2);  // both kinds of line are checked
  CHECK(refused >= 2);
  lines = std::istringstream(cmd.out);
  auto c = s.client();
  for (const auto& p : positions) {
    std::string line;
    REQUIRE(std::getline(lines, line));
    auto r = c.Get(("/api/" + id + "/query?p=" + encode(p)).c_str());
    REQUIRE(r);
    INFO(p);
    CHECK(r->body == line);
    CHECK(r->status == (line.find("\"error\"") == std::string::npos ? 200 : 400));
    CHECK(r->get_header_value("Access-Control-Allow-Origin") == "*");
  }
  auto r = c.Post(("/api/" + id + "/query").c_str(), input, "text/plain");
  REQUIRE(r);
  CHECK(r->body == cmd.out);
  CHECK(s.get("/api/" + id + "/").body + "\n" == ok({"info", "--db", db, "--json"}).out);
}

}  // namespace

TEST_CASE("serve: River Toad and the forest answer on /api/ exactly as query and info --json", "[serve][slow]") {
  TempDir dir("serve-own-json");
  const std::string rt = dir / "rt1", forest = dir / "forest3";
  ok({"solve", "river-toad", "--turns", "1", "--db", rt, "--quiet"});
  ok({"solve", "forest", "--side", "3", "--db", forest, "--quiet"});
  TestServer s({rt, forest});

  check_api(s, rt, "rt1",
            {"1_4_3_0.0.0.0", "1_4_0_21.21.10.14", "1_1_4_33.0.5.9", "1_4_#SS SS#/# S S #/#     #/#SSSSS#/#  T  #",
             "1_r21,21,10,14_p", "2_4_3_0.0.0.0", "1_99_3_0.0.0.0", "1_4_9_0.0.0.0", "1_4_3_0.0.0", "x", "1_4_3_34.0.0.0"});
  check_api(s, forest, "forest3",
            {R"({"side":3,"start":[0,0],"at":[0,0]})", R"({"side":3,"start":[1,1],"at":[1,1]})",
             R"({"side":3,"start":[0,0],"at":[0,0],"visited":[{"tile":[0,0],"bones":false,"leaves":false}]})",
             R"({"side":4,"start":[0,0],"at":[0,0]})", R"({"side":3})", "not json", "{}"});

  // neither game is GamesmanUni's: its list is empty, their variants unknown
  CHECK(s.get("/uwapi/").body == "[]");
  CHECK(s.get("/uwapi/river-toad/").status == 404);
  const json list = json::parse(s.get("/api/").body);
  REQUIRE(list.at("databases").size() == 2);
  CHECK(list["databases"][0].at("game") == "forest");
  CHECK(list["databases"][1].at("game") == "river-toad");
  CHECK_FALSE(list["databases"][0].contains("uwapi"));
}
