// The README as a newcomer runs it (label `slow`): every line of every ```sh block of
// README.md, read when the test runs, in order, in one empty directory, with `toadbase` on
// the PATH as the binary just built; each must exit 0.
//
// What is changed, and why (nothing else is): the commands the README marks "(long: ...)"
// run at a smaller size, so that this test takes a minute instead of half an hour, and the
// one position that names that size follows it:
//   --length 16                     -> --length 10       (data/tf16: the same commands work on it)
//   --length 20 --toads 6 --frogs 6 -> --length 12 --toads 4 --frogs 4
//   --turns 8                       -> --turns 1         (River Toad: 775 million positions -> 27 million)
//   8_20_3_0.0.0.0                  -> 1_4_3_0.0.0.0     (8 turns left does not exist in a 1-turn database)
//   --sides 3-10 --forests 20000    -> --sides 3-4 --forests 200
// Each substitution must be used, so the README and this list cannot drift apart.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/wait.h>

#include "support.hpp"

using namespace tbtest;
namespace fs = std::filesystem;

namespace {

/// Every line of the README's ```sh blocks, in order.
std::vector<std::string> readme_commands() {
  std::ifstream in(source_dir() + "/README.md");
  REQUIRE(in);
  std::vector<std::string> out;
  bool in_sh = false;
  for (std::string line; std::getline(in, line);) {
    if (!in_sh && line == "```sh") {
      in_sh = true;
    } else if (in_sh && line.rfind("```", 0) == 0) {
      in_sh = false;
    } else if (in_sh && line.find_first_not_of(' ') != std::string::npos) {
      out.push_back(line);
    }
  }
  return out;
}

}  // namespace

TEST_CASE("cli: every command of the README runs as written", "[cli][readme][slow]") {
  const std::vector<std::pair<std::string, std::string>> smaller = {
      {"--length 16 ", "--length 10 "},
      {"--length 20 --toads 6 --frogs 6", "--length 12 --toads 4 --frogs 4"},
      {"--turns 8 ", "--turns 1 "},
      {"8_20_3_0.0.0.0", "1_4_3_0.0.0.0"},
      {"--sides 3-10 --forests 20000", "--sides 3-4 --forests 200"},
  };
  std::vector<int> used(smaller.size(), 0);
  TempDir dir("readme");
  fs::create_directories(dir / "bin");
  fs::create_symlink(toadbase_bin(), dir / "bin/toadbase");
  fs::create_directories(dir / "work");
  const std::vector<std::string> commands = readme_commands();
  REQUIRE(commands.size() > 40);
  size_t toadbase_lines = 0;
  for (size_t i = 0; i < commands.size(); ++i) {
    std::string line = commands[i];
    const bool long_running = line.find("(long") != std::string::npos;
    for (size_t k = 0; k < smaller.size(); ++k) {
      // sizes only where the README says a command is long; the position wherever it appears
      if (!long_running && smaller[k].first != "8_20_3_0.0.0.0") continue;
      for (size_t at; (at = line.find(smaller[k].first)) != std::string::npos;) {
        line.replace(at, smaller[k].first.size(), smaller[k].second);
        ++used[k];
      }
    }
    toadbase_lines += line.find("toadbase ") != std::string::npos;
    const std::string bin = dir / "bin", work = dir / "work";
    const std::string script = "set -o pipefail; export PATH=\"" + bin + ":$PATH\"; cd \"" + work + "\" && " + line;
    const pid_t pid = spawn_program("/bin/bash", {"-c", script}, "", dir / "out", dir / "err");
    int st = 0;
    waitpid(pid, &st, 0);
    const int rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    INFO("README line " << i + 1 << " of the sh blocks: " << commands[i] << "\nran: " << line << "\nexit " << rc
                        << "\nstdout: " << read_file(dir / "out").substr(0, 1500)
                        << "\nstderr: " << read_file(dir / "err").substr(0, 1500));
    CHECK(rc == 0);
  }
  for (size_t k = 0; k < smaller.size(); ++k) {
    INFO("substitution " << smaller[k].first << " found nowhere in the README");
    CHECK(used[k] > 0);
  }
  CHECK(toadbase_lines > 40);
}
