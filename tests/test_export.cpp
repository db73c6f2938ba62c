// export through the real binary, decoded record by record and compared with query: every
// game's records map through their own record type (GamesCrafters' 16-bit records: value in
// the top four bits, lose 1 / win 4, remoteness below).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support.hpp"
#include "tools/open.hpp"

using namespace tbtest;
using Catch::Matchers::Contains;
using json = nlohmann::json;

namespace {

/// The GamesCrafters records of an export, decoded: (value code, remoteness) of record k.
std::pair<unsigned, unsigned> gc16(const std::string& file, size_t k) {
  const unsigned w = static_cast<uint8_t>(file[2 * k]) | static_cast<uint8_t>(file[2 * k + 1]) << 8;
  return {w >> 12, w & 0xfff};
}

/// Every record of a gamescrafters16 export against the value `query` gives its position.
void check_every_record(const std::string& db, const std::string& file) {
  const toadbase::tools::Opened d = toadbase::tools::open_database(db);
  size_t first = 0;  // the tier's first record in the file
  uint64_t bad = 0, checked = 0;
  std::vector<std::string> positions;
  std::vector<size_t> where;
  for (TierId t = 0; t < d.db->tier_count(); ++t) {
    const uint64_t n = d.db->tier_meta(t).positions;
    for (uint64_t i = 0; i < std::min<uint64_t>(n, 3); ++i) {  // every tier, its first records
      positions.push_back(d.instance->position_at(t, i));
      where.push_back(first + i);
    }
    first += n;
  }
  REQUIRE(file.size() == 2 * first);
  // one query process for all of them, one JSON line each
  std::string input;
  for (const auto& p : positions) input += p + "\n";
  std::istringstream lines(ok({"query", "--db", db, "-"}, input).out);
  std::string line;
  for (size_t j = 0; j < positions.size(); ++j) {
    REQUIRE(std::getline(lines, line));
    const json q = json::parse(line);
    REQUIRE(q.at("position") == positions[j]);
    const auto [code, rem] = gc16(file, where[j]);
    const bool win = q.at("positionValue") == "win";
    // a win in k is (4, k); a loss is (1, k) for two players, (1, 0) for a puzzle's dead end
    bad += code != (win ? 4u : 1u) || rem != q.at("remoteness").get<unsigned>();
    ++checked;
  }
  CHECK(bad == 0);
  CHECK(checked == positions.size());
}

}  // namespace

TEST_CASE("export gamescrafters16: the frog puzzle writes a win in k as a win in k",
          "[export][frog-puzzle]") {
  TempDir dir("export-puzzle");
  const std::string db = dir / "p22";
  ok({"solve", "frog-puzzle", "--left", "2", "--right", "2", "--db", db, "--quiet"});
  ok({"export", "--db", db, "--format", "gamescrafters16", dir / "gc.bin"});
  const std::string file = read_file(dir / "gc.bin");
  const toadbase::tools::Opened d = toadbase::tools::open_database(db);
  REQUIRE(file.size() == 2 * d.db->manifest().at("positions").get<size_t>());
  // every position of the space, decoded, against query
  size_t k = 0;
  uint64_t bad = 0, wins_in_one = 0, dead = 0;
  for (TierId t = 0; t < d.db->tier_count(); ++t)
    for (uint64_t i = 0; i < d.db->tier_meta(t).positions; ++i, ++k) {
      const std::string pos = d.instance->position_at(t, i);
      const toadbase::Outcome o = d.instance->value(*d.db, pos, "").second;
      const unsigned rem = o.remoteness;
      const auto [code, r] = gc16(file, k);
      if (o.value == toadbase::Value::Win) {
        bad += code != 4 || r != rem;
        wins_in_one += rem == 1;
      } else {
        bad += code != 1 || r != 0;
        ++dead;
      }
    }
  CHECK(bad == 0);
  CHECK(wins_in_one > 0);  // "win in 1" was written as "lose in 2" once
  CHECK(dead > 0);
  // the same through the command's own JSON, for the puzzle's first tiers
  check_every_record(db, file);
}

TEST_CASE("export gamescrafters16: Toads and Frogs records decode to the values query gives",
          "[export]") {
  TempDir dir("export-tf");
  const std::string db = dir / "tf6";
  ok({"solve", "toads-frogs", "--length", "6", "--db", db, "--quiet"});
  ok({"export", "--db", db, "--format", "gamescrafters16", dir / "gc.bin"});
  check_every_record(db, read_file(dir / "gc.bin"));
}
