// The C library (include/toadbase.h) fed positions: toadbase_probe, toadbase_probe_batch and
// toadbase_query on a small Toads and Frogs database and a frog puzzle one, every input with
// no turn and with each turn, never an abort; each call either answers or returns a negative
// status with a message, and the three agree on which positions they answer.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "fuzz.hpp"
#include "toadbase.h"
#include "tools/commands.hpp"

using namespace toadbase;

namespace {

struct World {
  std::string dir;
  std::vector<toadbase_db*> dbs;
  World() {
    char tmpl[] = "/tmp/toadbase-fuzz-capi-XXXXXX";
    dir = ::mkdtemp(tmpl);
    std::freopen("/dev/null", "w", stdout);
    for (const std::vector<std::string>& game :
         {std::vector<std::string>{"toads-frogs", "--length", "5"}, std::vector<std::string>{"frog-puzzle", "--left", "2"}}) {
      const std::string db = dir + "/" + game[0];
      std::vector<std::string> args = {"toadbase", "solve"};
      args.insert(args.end(), game.begin(), game.end());
      args.insert(args.end(), {"--quiet", "--db", db});
      std::vector<char*> argv;
      for (auto& s : args) argv.push_back(s.data());
      fuzz::require(tools::run(static_cast<int>(args.size()), argv.data()) == 0, "the database solves");
      toadbase_db* d = nullptr;
      fuzz::require(toadbase_open(db.c_str(), &d) == TOADBASE_OK && d, "the database opens");
      dbs.push_back(d);
    }
  }
  ~World() {
    for (toadbase_db* d : dbs) toadbase_close(d);
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static World world;
  const std::string s = fuzz::text(data, size);
  const char* position = s.c_str();  // a C string ends at the first NUL, as the caller's would
  for (toadbase_db* db : world.dbs) {
    for (const char* turn : {static_cast<const char*>(nullptr), "1", "2", "3", ""}) {
      int value = -1;
      unsigned remoteness = 0;
      const int probed = toadbase_probe(db, position, turn, &value, &remoteness);
      fuzz::require(probed == TOADBASE_OK || probed < 0, "a status");
      if (probed == TOADBASE_OK) {
        fuzz::require(value == TOADBASE_WIN || value == TOADBASE_LOSE, "a win/lose value");
      } else {
        fuzz::require(*toadbase_last_error() != '\0', "a failure says why");
      }
      uint8_t v = 9;
      uint16_t r = 9;
      const int64_t failed = toadbase_probe_batch(db, &position, 1, turn, &v, &r);
      fuzz::require(failed == (probed == TOADBASE_OK ? 0 : 1) || (failed < 0 && probed < 0),
                    "the batch answers what the probe answers");
      if (probed == TOADBASE_OK) fuzz::require(v == value && r == remoteness, "the batch's answer is the probe's");
      char* json = nullptr;
      const int queried = toadbase_query(db, position, turn, &json);
      fuzz::require((queried == TOADBASE_OK) == (json != nullptr), "an answer exactly when OK");
      fuzz::require((queried == TOADBASE_OK) == (probed == TOADBASE_OK), "the query answers what the probe answers");
      toadbase_free(json);
    }
  }
  return 0;
}
