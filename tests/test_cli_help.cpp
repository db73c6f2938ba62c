// The help pages and the version, through the real binary: every command's --help exits 0,
// shows a default for every option that takes a value (unless it is required) and ends with
// one to three examples of that command; `toadbase help COMMAND` prints the same page;
// --help-all reaches every game's options; a mistyped command or game is named with the
// closest match and the list of games; --version and --version --json.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "support.hpp"

using namespace tbtest;
using Catch::Matchers::Contains;
using json = nlohmann::json;

namespace {

/// Every command of the README, as the words after `toadbase`.
const std::vector<std::string> kCommands = {
    "solve",          "solve toads-frogs",   "solve frog-puzzle",  "solve river-toad",   "solve forest",
    "query",          "info",                "analyze",            "verify",             "validate",
    "export",         "bench",               "bench lookup",       "play",               "help",
    "frog-puzzle",    "frog-puzzle solve",   "frog-puzzle check",  "river-toad",         "river-toad solve",
    "river-toad check", "river-toad prefixes", "river-toad play",  "forest",             "forest play",
    "forest eval",    "forest posterior"};

const std::vector<std::string> kGames = {"toads-frogs", "frog-puzzle", "river-toad", "forest"};

std::vector<std::string> words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

/// The option entries of a help page ("--name TYPE ... description [default: X]"), a wrapped
/// description joined to its option.
std::vector<std::string> option_entries(const std::string& help) {
  std::vector<std::string> out;
  bool in_options = false;
  for (const auto& line : lines_of(help)) {
    if (line == "Options:") {
      in_options = true;
      continue;
    }
    if (!in_options) continue;
    if (line.empty() || line[0] != ' ') {
      in_options = false;
    } else if (line.rfind("  -", 0) == 0) {
      out.push_back(line);
    } else if (!out.empty() && line.find_first_not_of(' ') > 10) {
      out.back() += " " + line.substr(line.find_first_not_of(' '));
    }
  }
  return out;
}

/// True when an option entry takes a value: its name is followed by a TYPE in capitals.
bool takes_value(const std::string& entry) {
  const auto w = words(entry);
  return w.size() > 1 && std::regex_match(w[1], std::regex("[A-Z]+(:.*)?"));
}

}  // namespace

TEST_CASE("cli help: every command's --help exits 0, shows every default and one to three examples",
          "[cli][help]") {
  for (const auto& command : kCommands) {
    std::vector<std::string> args = words(command);
    args.push_back("--help");
    const RunResult r = run_toadbase(args);
    INFO(describe(args, r));
    REQUIRE(r.rc == 0);
    CHECK_THAT(r.out, Contains("Usage: toadbase " + command));
    int valued = 0;
    for (const auto& e : option_entries(r.out)) {
      INFO(e);
      if (!takes_value(e) || e.find("REQUIRED") != std::string::npos) continue;
      ++valued;
      CHECK_THAT(e, Contains("[default: "));
    }
    // the examples: one to three command lines of this very command
    const size_t at = r.out.find("Examples:\n");
    REQUIRE(at != std::string::npos);
    int examples = 0;
    for (const auto& line : lines_of(r.out.substr(at + 10))) {
      if (line.rfind("  ", 0) != 0) break;
      ++examples;
      CHECK_THAT(line, Contains("toadbase " + command));
    }
    CHECK(examples >= 1);
    CHECK(examples <= 3);
  }
}

TEST_CASE("cli help: the defaults the README's readers looked for are shown", "[cli][help]") {
  struct Want {
    std::string command, option, value;
  };
  const std::vector<Want> wants = {
      {"solve toads-frogs", "--length", "10"},       {"solve toads-frogs", "--zstd-level", "3"},
      {"solve toads-frogs", "--threads", "all cores"}, {"solve frog-puzzle", "--right", "as many as --left"},
      {"solve river-toad", "--turns", "4"},          {"export", "--format", "raw"},
      {"river-toad solve", "--max-nodes", "20000000"}, {"river-toad solve", "--algorithm", "dp"},
      {"river-toad play", "--plan", "the optimal plan"}, {"forest play", "--agent", "original"},
      {"forest eval", "--forests", "20000"},         {"query", "--seed", "1"},
      {"frog-puzzle solve", "--limit", "1000"},      {"validate", "--show", "10"}};
  for (const auto& w : wants) {
    std::vector<std::string> args = words(w.command);
    args.push_back("--help");
    const std::string help = ok(args).out;
    bool found = false;
    for (const auto& e : option_entries(help))
      if (words(e)[0] == w.option || words(e)[0].rfind(w.option + ",", 0) == 0) {
        found = true;
        INFO(w.command << ": " << e);
        CHECK_THAT(e, Contains("[default: " + w.value + "]"));
      }
    INFO(w.command << " " << w.option);
    CHECK(found);
  }
}

TEST_CASE("cli help: toadbase help COMMAND is the command's --help, and --help-all reaches every game option",
          "[cli][help]") {
  for (const char* command : {"solve", "solve toads-frogs", "query", "river-toad solve", "forest eval"}) {
    std::vector<std::string> help = {"help"}, flag = words(command);
    for (const auto& w : words(command)) help.push_back(w);
    flag.push_back("--help");
    INFO(command);
    CHECK(ok(help).out == ok(flag).out);
  }
  CHECK(ok({"help"}).out == ok({"--help"}).out);
  const RunResult typo = run_expecting({"help", "river-toad", "slove"}, 2);
  CHECK_THAT(typo.err, Contains("'slove'") && Contains("did you mean 'solve'"));

  const std::string all = ok({"--help-all"}).out;
  for (const auto& command : kCommands) CHECK_THAT(all, Contains("Usage: toadbase " + command));
  // the games' own options, down to the leaves
  for (const char* option : {"--length", "--toads", "--left", "--empty", "--turns", "--weights", "--fly-hp",
                             "--max-nodes", "--plan-file", "--advise", "--forests", "--sides", "--exact",
                             "--max-positions", "--limit", "--zstd-level", "--random", "--watch"})
    CHECK_THAT(all, Contains(option));
  // below a command: that command's part only
  const std::string rt = ok({"river-toad", "--help-all"}).out;
  CHECK_THAT(rt, Contains("Usage: toadbase river-toad check") && Contains("--max-nodes"));
  CHECK_THAT(rt, !Contains("Usage: toadbase query"));
}

TEST_CASE("cli help: an unknown command or game is named, with the closest match and the games",
          "[cli][help]") {
  struct Case {
    std::vector<std::string> args;
    std::vector<std::string> says;
  };
  const std::vector<Case> cases = {
      {{"slove"}, {"unknown command 'slove'", "did you mean 'solve'?"}},
      {{"qurey", "--db", "x", "1_T-F"}, {"unknown command 'qurey'", "did you mean 'query'?"}},
      {{"solve", "toads-frog", "--db", "x"}, {"unknown game 'toads-frog'", "did you mean 'toads-frogs'?"}},
      {{"solve", "frogpuzzle"}, {"unknown game 'frogpuzzle'", "did you mean 'frog-puzzle'?"}},
      {{"river-toad", "slove", "rolls.txt"}, {"unknown command 'slove' for toadbase river-toad", "did you mean 'solve'?"}},
      {{"forest", "evl"}, {"'evl'", "did you mean 'eval'?"}},
      {{"toads-frogs"}, {"unknown command 'toads-frogs'", "toadbase solve toads-frogs"}},
      {{"xyzzy"}, {"unknown command 'xyzzy'", "commands of toadbase: solve, query"}},
      {{}, {"name a command", "solve, query"}},
      {{"solve"}, {"solve needs a game"}},
      {{"river-toad"}, {"river-toad needs a command: solve, check, prefixes, play"}},
  };
  for (const Case& c : cases) {
    const RunResult r = run_toadbase(c.args);
    INFO(describe(c.args, r));
    CHECK(r.rc == 2);
    CHECK(r.out.empty());
    for (const auto& s : c.says) CHECK_THAT(r.err, Contains(s));
    if (c.args.empty() || c.args[0] != "river-toad")  // a game's own commands list those instead
      for (const auto& g : kGames) CHECK_THAT(r.err, Contains(g));
    CHECK_THAT(r.err, !Contains("A subcommand is required"));
  }
  // nothing close: no suggestion
  CHECK_THAT(run_expecting({"xyzzy"}, 2).err, !Contains("did you mean"));
  // under --json the same error is a JSON object on standard output
  const RunResult j = run_expecting({"slove", "--json"}, 2);
  CHECK(j.err.empty());
  CHECK_THAT(json::parse(j.out).at("error").get<std::string>(), Contains("did you mean 'solve'?"));
}

TEST_CASE("cli help: --version names the version, commit, compiler, -march and libraries", "[cli][help]") {
  const std::string text = ok({"--version"}).out;
  CHECK(text.rfind(std::string("toadbase ") + TOADBASE_VERSION + " (", 0) == 0);
  CHECK_THAT(text, Contains("rocksdb") && Contains("tbb") && Contains("zstd"));
  const json j = json::parse(ok({"--version", "--json"}).out);
  CHECK(j.at("version") == TOADBASE_VERSION);
  CHECK((j.at("commit").is_null() || std::regex_match(j.at("commit").get<std::string>(),
                                                      std::regex("[0-9A-Za-z._-]+"))));
  const bool march_right = std::string(TOADBASE_EXPECTED_MARCH).empty() ? j.at("march").is_null()
                                                                       : j.at("march") == TOADBASE_EXPECTED_MARCH;
  CHECK(march_right);
  CHECK_THAT(j.at("compiler").get<std::string>(), Contains("GNU") || Contains("Clang"));
  const std::set<std::string> libraries = {"tbb", "rocksdb", "zstd", "cli11", "nlohmannJson"};
  std::set<std::string> seen;
  for (const auto& [name, version] : j.at("libraries").items()) {
    seen.insert(name);
    INFO(name);
    CHECK(std::regex_match(version.get<std::string>(), std::regex("[0-9]+(\\.[0-9]+)+.*")));
  }
  CHECK(seen == libraries);
}
