// Every numeric option of every command, read from --help-all, refuses -1, a huge value and a
// non-number in the project's words: exit 2, the option named, never CLI11's text (issue 28
// item 9). Some 300 starts of the command: label `slow`, so the sanitizer run leaves it to the
// Release run; test_cli_hardening.cpp checks the messages' words, option by option, in both.
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

#include "support.hpp"

using namespace tbtest;
using Catch::Matchers::StartsWith;

namespace {

/// A numeric option as --help-all shows it: the command's words, the option, its type.
struct NumberOption {
  std::vector<std::string> command;
  std::string option, type;
  bool bounded = false;  // the help shows a range after the type ("INT:1..19")
};

/// Every option of every command whose type is a number, read from --help-all.
std::vector<NumberOption> number_options() {
  const std::string help = ok({"--help-all"}).out;
  std::vector<NumberOption> out;
  std::vector<std::string> command;
  for (const std::string& line : lines_of(help)) {
    if (line.rfind("Usage: toadbase", 0) == 0) {
      command.clear();
      const std::vector<std::string> w = words_of(line);
      for (size_t i = 2; i < w.size() && w[i][0] != '[' && w[i][0] != '-'; ++i)
        command.push_back(w[i]);
      continue;
    }
    const std::vector<std::string> w = words_of(line);
    if (w.size() < 2 || line.rfind("  -", 0) != 0) continue;
    std::string name = w[0];
    if (const size_t comma = name.rfind(','); comma != std::string::npos)
      name = name.substr(comma + 1);
    if (name.rfind("--", 0) != 0) continue;
    const std::string type = w[1].substr(0, w[1].find(':'));
    if (type != "INT" && type != "UINT" && type != "FLOAT") continue;
    out.push_back({command, name, type, w[1].find(':') != std::string::npos});
  }
  return out;
}

}  // namespace

TEST_CASE(
    "cli hardening: every numeric option refuses -1, a huge value and a non-number by name, exit 2",
    "[cli][hardening]") {
  const std::vector<NumberOption> options = number_options();
  // the options the issue names are among them (the reading of --help-all works)
  std::set<std::string> seen;
  for (const auto& o : options) seen.insert(o.option);
  for (const char* named :
       {"--seed", "--max-positions", "--limit", "--max-nodes", "--show", "--length", "--threads",
        "--random", "--plan-rate", "--port", "--forests", "--hp", "--zstd-level"})
    CHECK(seen.count(named) == 1);
  REQUIRE(options.size() >= 30);
  for (const NumberOption& o : options) {
    // huge: past every integer type, and past every double for a real number
    std::vector<std::string> values = {o.type == "FLOAT" ? "1e999" : "99999999999999999999999",
                                       "ten", "1x", ""};
    // -1: refused by every option but a signed one with no lower bound (its command decides)
    if (o.type != "INT" || o.bounded) values.push_back("-1");
    for (const std::string& v : values) {
      std::vector<std::string> args = o.command;
      args.push_back(o.option + "=" + v);
      const RunResult r = run_toadbase(args);
      INFO(describe(args, r));
      check_no_library_text(r.err);
      CHECK(r.rc == 2);
      CHECK_THAT(r.err, StartsWith("toadbase: error: " + o.option + ": "));
      CHECK(r.out.empty());
    }
  }
}
