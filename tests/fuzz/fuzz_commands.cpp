// The files and arguments the commands read, through the command itself (in this process):
// the first byte picks the command, the rest is the file or argument it reads.
//   0  frog-puzzle check LLL_RRR FILE          a puzzle solution, in any notation
//   1  river-toad check ROLLS FILE             a plan file (plan, HP, board)
//   2  validate --db TF FILE                   TSV claims
//   3  river-toad solve FILE                   a roll file, solved and written out
//   4  cgt sum --db CGT ARG                    strips separated by walls
//   5  query --db CGT ARG                      a board of the CGT database
//   6  query --db TF --text ARG                a position, shown as text
// Exit codes are the commands' business; a crash, a hang or a sanitizer report is a defect.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "fuzz.hpp"
#include "run_command.hpp"

using namespace toadbase;
using fuzz::run;
namespace fs = std::filesystem;

namespace {

void write(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

struct World {
  std::string dir, tf, cgt, rolls, input;
  World() {
    char tmpl[] = "/tmp/toadbase-fuzz-XXXXXX";
    dir = ::mkdtemp(tmpl);
    tf = dir + "/tf5", cgt = dir + "/cgt5", rolls = dir + "/rolls.txt", input = dir + "/input";
    // what the commands print is not the point (their errors stay on stderr, with any report)
    std::freopen("/dev/null", "w", stdout);
    run({"solve", "toads-frogs", "--length", "5", "--quiet", "--db", tf});
    run({"solve", "toads-frogs-cgt", "--length", "5", "--quiet", "--db", cgt});
    write(rolls, "5\n21\n21\n10\n14\n27\n");
  }
  ~World() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static World w;
  if (size == 0) return 0;
  const std::string rest = fuzz::text(data + 1, size - 1);
  // an argument cannot hold a NUL: the command line cuts it there
  const std::string arg = rest.substr(0, rest.find('\0'));
  fuzz::expect_clean([&] {
    switch (data[0] % 7) {
      case 0: write(w.input, rest); run({"frog-puzzle", "check", "LLL_RRR", w.input}); break;
      case 1: write(w.input, rest); run({"river-toad", "check", w.rolls, w.input, "--json"}); break;
      case 2: write(w.input, rest); run({"validate", "--db", w.tf, w.input}); break;
      case 3: write(w.input, rest); run({"river-toad", "solve", w.input, "--algorithm", "all", "--max-nodes", "20000"}); break;
      case 4: run({"cgt", "sum", "--db", w.cgt, "--", arg}); break;
      case 5: run({"query", "--db", w.cgt, "--", arg}); break;
      default: run({"query", "--db", w.tf, "--text", "--turn", "1", "--", arg}); break;
    }
  });
  return 0;
}
