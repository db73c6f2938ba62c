// No game is named where the contract reaches instead (issue 26): the page (tools/web/), the
// Python module (tools/python/) and `toadbase play` (tools/play.cpp) know a game only through
// the registry and /api/ (its module's page(), kCgtValues, win_lose), so a new game needs no
// line there. Every registered game is looked for, from the registry: a game added later is
// covered without touching this test.
//
// What counts as naming a game:
//   - its name as a string or a route's part: between two of ' " ` / = & ? # ("'forest'",
//     "/api/frog-puzzle/solve", "view=forest&"), for every game;
//   - its name anywhere as a word of its own, for a name of more than one word
//     ("toads-frogs-cgt" in a sentence): a one-word name ("forest") is also an ordinary word,
//     which prose and the fields of a game's own answer (a walk's "forest") may use;
//   - its page title ("Toads and Frogs"), anywhere.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tools/registry.hpp"

namespace fs = std::filesystem;

namespace {

struct SourceFile {
  std::string path;  // from the source root
  std::string text;
};

/// Every file where no game may be named.
std::vector<SourceFile> watched_files() {
  const fs::path root = source_dir();
  std::vector<fs::path> paths = {root / "tools/play.cpp"};
  for (const char* dir : {"tools/web", "tools/python"})
    for (const auto& e : fs::recursive_directory_iterator(root / dir))
      if (e.is_regular_file()) paths.push_back(e.path());
  std::vector<SourceFile> out;
  for (const auto& p : paths) {
    std::ifstream in(p, std::ios::binary);
    REQUIRE(in);
    std::ostringstream s;
    s << in.rdbuf();
    out.push_back({fs::relative(p, root).string(), s.str()});
  }
  return out;
}

std::string regex_quote(const std::string& s) {
  static const std::regex special(R"([.^$|()\[\]{}*+?\\-])");
  return std::regex_replace(s, special, R"(\$&)");
}

/// "file:line: text" of every line of `f` where `pattern` matches.
std::vector<std::string> hits(const SourceFile& f, const std::regex& pattern) {
  std::vector<std::string> out;
  std::istringstream in(f.text);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n)
    if (std::regex_search(line, pattern))
      out.push_back(f.path + ":" + std::to_string(n) + ": " + line);
  return out;
}

/// The patterns that name a game (see the top of this file).
std::vector<std::regex> naming(const toadbase::tools::Game& g) {
  const std::string name = regex_quote(g.name());
  const std::string delim = R"(['"`/=&?#])";
  std::vector<std::regex> out = {std::regex(delim + name + delim)};
  if (g.name().find('-') != std::string::npos)
    out.emplace_back("(^|[^A-Za-z0-9_-])" + name + "($|[^A-Za-z0-9_-])");
  const std::string title = g.page().title;
  if (!title.empty()) out.emplace_back(regex_quote(title));
  return out;
}

}  // namespace

TEST_CASE("contract: the page, the Python module and play name no game", "[contract]") {
  const auto files = watched_files();
  // the watched places exist (a moved folder would make this test pass on nothing)
  bool page = false, python = false;
  for (const auto& f : files) {
    page = page || f.path == "tools/web/app.js";
    python = python || f.path == "tools/python/module.cpp";
  }
  REQUIRE(page);
  REQUIRE(python);
  REQUIRE(toadbase::tools::games().size() >= 2);
  std::vector<std::string> found;
  for (const auto& g : toadbase::tools::games())
    for (const auto& pattern : naming(*g))
      for (const auto& f : files)
        for (auto& h : hits(f, pattern)) found.push_back(g->name() + " named at " + h);
  INFO([&] {
    std::string s;
    for (const auto& x : found) s += x + "\n";
    return s;
  }());
  CHECK(found.empty());
}

TEST_CASE("contract: the naming patterns catch a game's name written as the page would",
          "[contract]") {
  // the patterns above, on lines that name a game and lines that do not
  const auto& g = *toadbase::tools::games().front();
  const auto patterns = naming(g);
  const auto named = [&](const std::string& line) {
    for (const auto& p : patterns)
      if (std::regex_search(line, p)) return true;
    return false;
  };
  const std::string n = g.name();
  CHECK(named("if (d.game === '" + n + "') return 1;"));
  CHECK(named("fetch(\"/api/" + n + "/solve\")"));
  CHECK(named("go('#view=" + n + "&side=3')"));
  CHECK(named("el('h2', { text: `" + g.page().title + ": ${d.id}` })"));
  CHECK_FALSE(named("if (d.game === game.name) return 1;"));
  CHECK_FALSE(named("const x = '" + n + "x';"));
}

TEST_CASE("contract: win/lose values are a capability an instance has or lacks, as its game says",
          "[contract]") {
  int with = 0, without = 0;
  for (const auto& g : toadbase::tools::games()) {
    if (!g->has_database()) continue;
    const auto inst = g->instance(g->normalize(nlohmann::json::object()));
    INFO(g->name());
    const toadbase::WinLoseValues* values = inst->win_lose_values();
    CHECK((values != nullptr) == g->win_lose());
    (values ? with : without)++;
  }
  // both kinds are registered: the check above saw each
  CHECK(with >= 1);
  CHECK(without >= 1);
  // the names of either kind, listed for messages, are the registry's, joined as people write them
  const std::string wl = toadbase::tools::game_names(&toadbase::tools::Game::win_lose);
  CHECK(wl.find("toads-frogs") != std::string::npos);
  CHECK(wl.find(" or ") != std::string::npos);
  CHECK(wl.find("forest") == std::string::npos);
  CHECK(toadbase::tools::game_names(&toadbase::tools::Game::cgt_values) == "toads-frogs-cgt");
}
