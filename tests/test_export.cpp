// export through the real binary, decoded record by record and compared with query: every
// game's records map through their own record type (GamesCrafters' 16-bit records: value in
// the top four bits, lose 1 / win 4, remoteness below).
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support.hpp"
#include "tools/open.hpp"

using namespace tbtest;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
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
      const toadbase::Outcome o = d.instance->win_lose_values()->value(*d.db, pos, "").second;
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

TEST_CASE(
    "export: a CGT database's records go out raw (a form id a board, then the form table), no "
    "win/lose form",
    "[export][cgt]") {
  TempDir dir("export-cgt");
  const std::string db = dir / "cgt7";
  ok({"solve", "toads-frogs-cgt", "--length", "7", "--db", db, "--quiet"});
  CHECK_THAT(
      run_expecting({"export", "--db", db, "--format", "gamescrafters16", dir / "gc.bin"}, 1).err,
      Contains("toads-frogs-cgt values (cgt-form-id-u32) are not win/lose: no GamesCrafters 16-bit "
               "form"));
  // tsv is the value database's own: board<TAB>value lines (issue 25), what validate reads
  ok({"export", "--db", db, "--format", "tsv", dir / "out.tsv"});
  CHECK_THAT(read_file(dir / "out.tsv"), StartsWith("# toads-frogs-cgt {\"length\":7}: position<TAB>value"));
  CHECK_THAT(read_file(dir / "out.tsv"), Contains("\nT-TFF\t^\n"));
  CHECK_FALSE(std::filesystem::exists(dir / "gc.bin"));
  ok({"export", "--db", db, "--format", "raw", dir / "raw.bin"});
  const std::string raw = read_file(dir / "raw.bin");
  // decoded: the boards' tiers (a class of boards, "m7_t2f3") hold a form id each; two boards
  // with one id have one value, two ids two values (canonical forms are unique)
  const toadbase::tools::Opened d = toadbase::tools::open_database(db);
  const std::vector<toadbase::TierInfo> tiers = d.instance->tiers();
  size_t at = 0;
  std::vector<std::string> boards;
  std::vector<uint32_t> ids;
  for (TierId t = 0; t < d.db->tier_count(); ++t) {
    const uint64_t n = d.db->tier_meta(t).positions;
    if (tiers[t].name.find('.') == std::string::npos)
      for (uint64_t i = 0; i < n; ++i) {
        uint32_t id = 0;
        for (int b = 0; b < 4; ++b)
          id |= uint32_t{static_cast<uint8_t>(raw.at(at + 4 * i + b))} << (8 * b);
        boards.push_back(d.instance->position_at(t, i));
        ids.push_back(id);
      }
    at += 4 * n;
  }
  REQUIRE(raw.size() == at);
  std::string input;
  for (const auto& b : boards) input += b + "\n";
  std::istringstream lines(ok({"query", "--db", db, "-"}, input).out);
  std::map<uint32_t, std::string> value_of_id;
  std::map<std::string, uint32_t> id_of_value;
  std::string line;
  for (size_t k = 0; k < boards.size(); ++k) {
    REQUIRE(std::getline(lines, line));
    const json q = json::parse(line);
    const std::string value = q.at("value");
    INFO(boards[k] << " id " << ids[k] << " value " << value);
    CHECK(value_of_id.emplace(ids[k], value).first->second == value);
    CHECK(id_of_value.emplace(value, ids[k]).first->second == ids[k]);
  }
  // many boards, fewer values: the ids are shared, as the form table is
  CHECK(boards.size() > 500);
  CHECK(value_of_id.size() > 50);
  CHECK(value_of_id.size() < boards.size() / 2);
}
