// The position database (db/database.hpp) in temp directories: commit and read back, digests,
// reopening, refusing foreign or mismatched databases, and reporting damage.
#include <rocksdb/db.h>
#include <rocksdb/perf_context.h>
#include <rocksdb/perf_level.h>
#include <rocksdb/table_properties.h>

#include <catch2/catch.hpp>
#include <tbb/global_control.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <random>
#include <span>
#include <thread>

#include "db/block_cache.hpp"
#include "db/codec.hpp"
#include "db/database.hpp"
#include "db/group_writer.hpp"
#include "solver/core/hash.hpp"
#include "tools/registry.hpp"
#include "support.hpp"

using namespace tbtest;
using Catch::Matchers::Contains;
using toadbase::db::Database;
using toadbase::db::DbError;
using toadbase::db::Identity;
using toadbase::db::TierInfo;

namespace {

namespace fs = std::filesystem;

const Identity kId{"toads-frogs", {{"length", 5}}, "remoteness-u8-parity"};
// tier 1 spans three blocks of 65536 records; tier 4 is empty; tier 5 is derived (its records
// are not stored, only its size and digest)
const std::vector<TierInfo> kTiers{{"a", 10}, {"b", 150000}, {"c", 1},
                                   {"d", 65536}, {"e", 0}, {"f", 1000}};
constexpr TierId kDerived = 5;

std::vector<std::vector<Record>> sample_records(uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<Record>> out;
  for (const auto& t : kTiers) {
    std::vector<Record> r(t.positions);
    // compressible but not constant: small remoteness values with runs
    for (auto& x : r) x = static_cast<Record>(rng() % 7 == 0 ? rng() % 256 : rng() % 4);
    out.push_back(std::move(r));
  }
  return out;
}

std::string le64(uint64_t v) {
  std::string s;
  for (int i = 0; i < 8; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  return s;
}

uint64_t expected_digest(const std::vector<std::vector<Record>>& recs) {
  std::string all;
  for (const auto& r : recs) all += le64(toadbase::xxh64(r.data(), r.size()));
  return toadbase::xxh64(all.data(), all.size());
}


/// A complete database holding `recs`, committed in the given tier order.
void make_db(const std::string& path, const std::vector<std::vector<Record>>& recs,
             std::vector<TierId> order, int level = 3) {
  auto d = Database::open_for_solve(path, kId, kTiers, level);
  for (TierId t : order) d->commit(t, recs[t], t != kDerived ? toadbase::kAllRecords : 0);
  d->finish(kTiers);
}

std::string db_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const DbError& e) {
    return e.what();
  }
  FAIL("no DbError thrown");
  return {};
}

/// Changes the raw RocksDB underneath a closed toadbase database.
struct RawDb {
  explicit RawDb(const std::string& path, bool create = false) {
    rocksdb::Options o;
    o.create_if_missing = create;
    rocksdb::DB* raw = nullptr;
    const auto s = rocksdb::DB::Open(o, path, &raw);
    if (!s.ok()) throw std::runtime_error("raw open: " + s.ToString());
    db.reset(raw);
  }
  std::string get(const std::string& k) {
    std::string v;
    if (!db->Get(rocksdb::ReadOptions(), k, &v).ok()) throw std::runtime_error("raw get " + k);
    return v;
  }
  void put(const std::string& k, const std::string& v) {
    if (!db->Put(rocksdb::WriteOptions(), k, v).ok()) throw std::runtime_error("raw put");
  }
  void del(const std::string& k) {
    if (!db->Delete(rocksdb::WriteOptions(), k).ok()) throw std::runtime_error("raw delete");
  }
  std::unique_ptr<rocksdb::DB> db;
};

}  // namespace

TEST_CASE("xxh64 matches the reference implementation's test vectors", "[db][digest]") {
  CHECK(toadbase::xxh64("", 0) == 0xEF46DB3751D8E999ULL);
  CHECK(toadbase::xxh64("a", 1) == 0xD24EC4F1A98C6E5BULL);
  CHECK(toadbase::xxh64("abc", 3) == 0x44BC2CF5AD770999ULL);
  const std::string long_text = "Nobody inspects the spammish repetition";  // >= 32 bytes
  CHECK(toadbase::xxh64(long_text.data(), long_text.size()) == 0xFBCEA83C8A378BF1ULL);
  CHECK(toadbase::db::hex64(0xEF46DB3751D8E999ULL) == "ef46db3751d8e999");
  CHECK(toadbase::db::hex64(1) == "0000000000000001");
}

TEST_CASE("a tier may keep a prefix of its records: the digest still covers all of them",
          "[db][tail]") {
  TempDir dir("db-prefix");
  const auto recs = sample_records(7);
  const std::string path = dir / "db";
  {
    auto d = Database::open_for_solve(path, kId, kTiers, 3);
    d->commit(1, recs[1], 70000);  // two blocks, the second one short
    d->commit(3, recs[3], 0);      // all of it a tail: nothing kept, not derived by the DB
    for (TierId t : {0u, 2u, 4u}) d->commit(t, recs[t]);
    d->commit(kDerived, recs[kDerived], uint64_t{0});
    // committing a tier again replaces it (a resumed solve whose tail source was lost)
    d->commit(1, recs[1], 70000);
    d->finish(kTiers);
  }
  auto d = Database::open_read_only(path);
  CHECK(d->tier_meta(1).kept == 70000);
  CHECK(d->tier_meta(1).blocks == 2);
  CHECK(d->tier_meta(1).positions == 150000);
  CHECK(d->tier_meta(1).digest == toadbase::xxh64(recs[1].data(), recs[1].size()));
  CHECK(d->digest() == expected_digest(recs));
  const auto kept = d->load<Record>(1);
  CHECK(kept == std::vector<Record>(recs[1].begin(), recs[1].begin() + 70000));
  CHECK(d->record<Record>(1, 69999) == recs[1][69999]);
  CHECK_THAT(db_error([&] { d->record<Record>(1, 70000); }), Contains("keeps"));
  CHECK(d->load<Record>(3).empty());
  CHECK(d->tier_meta(0).kept == 10);
  const auto& tiers = d->manifest().at("tiers");
  CHECK(tiers.at(1).at("kept") == 70000);
  CHECK(tiers.at(1).at("positions") == 150000);
}

TEST_CASE("a database of format 1 (every tier kept whole or not at all) is read, not resumed",
          "[db][tail]") {
  TempDir dir("db-format1");
  const auto recs = sample_records(8);
  const std::string path = dir / "db";
  make_db(path, recs, {0, 1, 2, 3, 4, 5});
  {
    // what the previous format wrote: 32-byte commit records, "format_version": 1
    RawDb raw(path);
    for (TierId t = 0; t < kTiers.size(); ++t) {
      std::string v = raw.get(tier_key(t));
      REQUIRE(v.size() == 40);
      raw.put(tier_key(t), v.substr(0, 32));
    }
    auto m = nlohmann::json::parse(raw.get("manifest"));
    m["format_version"] = 1;
    raw.put("manifest", m.dump());
  }
  {
    auto d = Database::open_read_only(path);
    CHECK(d->load<Record>(1) == recs[1]);
    CHECK(d->tier_meta(1).kept == 150000);
    CHECK(d->tier_derived(kDerived));
    CHECK(d->tier_meta(kDerived).kept == 0);
    CHECK(d->digest() == expected_digest(recs));
  }
  CHECK_THAT(db_error([&] { Database::open_for_solve(path, kId, kTiers, 3); }),
             Contains("format version 1") && Contains("solve again"));
  {
    RawDb raw(path);
    auto m = nlohmann::json::parse(raw.get("manifest"));
    m["format_version"] = toadbase::db::kFormatVersion + 1;  // a newer toadbase
    raw.put("manifest", m.dump());
  }
  CHECK_THAT(db_error([&] { Database::open_read_only(path); }),
             Contains("format version " + std::to_string(toadbase::db::kFormatVersion + 1)));
}

TEST_CASE("commit tiers, read them back, digest, reopen read-only", "[db]") {
  TempDir dir("db-roundtrip");
  const auto recs = sample_records(1);
  const std::string path = dir / "db";
  {
    auto d = Database::open_for_solve(path, kId, kTiers, 3);
    CHECK_FALSE(d->complete());
    CHECK(d->tier_count() == kTiers.size());
    CHECK(d->committed_tiers() == 0);
    for (TierId t : {3u, 0u, 1u}) d->commit(t, recs[t]);
    d->commit(kDerived, recs[kDerived], uint64_t{0});
    CHECK(d->committed_tiers() == 4);
    CHECK(d->has_tier(1));
    CHECK_FALSE(d->has_tier(2));
    CHECK_THROWS_AS(d->load<Record>(2), DbError);
    d->flush();
    CHECK(d->load<Record>(1) == recs[1]);
    CHECK(d->tier_meta(1).positions == 150000);
    CHECK(d->tier_meta(1).blocks == 3);
    CHECK(d->tier_meta(1).digest == toadbase::xxh64(recs[1].data(), recs[1].size()));
    // a derived tier keeps its size and digest, not its records
    CHECK(d->tier_derived(kDerived));
    CHECK_FALSE(d->tier_derived(1));
    CHECK(d->tier_meta(kDerived).positions == 1000);
    CHECK(d->tier_meta(kDerived).digest == toadbase::xxh64(recs[kDerived].data(), 1000));
    CHECK(d->load<Record>(kDerived).empty());
    CHECK(d->tier_meta(kDerived).kept == 0);
    d->commit(2, recs[2]);
    d->commit(4, recs[4]);
    d->finish(kTiers);
    CHECK(d->complete());
    CHECK(d->digest() == expected_digest(recs));
    CHECK(d->manifest().at("digest") == toadbase::db::hex64(expected_digest(recs)));
    CHECK(d->manifest().at("positions") == 150000 + 10 + 1 + 65536 + 1000);
    CHECK(d->manifest().at("tiers").at(kDerived).at("stored") == false);
    CHECK(d->manifest().at("tiers").at(1).at("stored") == true);
  }
  SECTION("read-only") {
    auto d = Database::open_read_only(path);
    CHECK(d->complete());
    CHECK(d->committed_tiers() == kTiers.size());
    CHECK(d->identity().game == kId.game);
    CHECK(d->identity().parameters == kId.parameters);
    CHECK(d->identity().record == kId.record);
    CHECK(d->digest() == expected_digest(recs));
    CHECK(d->tier_derived(kDerived));
    for (TierId t = 0; t < kTiers.size(); ++t)
      if (t != kDerived) CHECK(d->load<Record>(t) == recs[t]);
    // every record, through the block cache, also with a cache too small for one block
    auto tiny = Database::open_read_only(path, 0);
    uint64_t bad = 0;
    for (TierId t = 0; t < kDerived; ++t)
      for (uint64_t i = 0; i < recs[t].size(); i += (i % 997 == 0 ? 1 : 13)) {
        bad += d->record<Record>(t, i) != recs[t][i];
        bad += tiny->record<Record>(t, i) != recs[t][i];
      }
    CHECK(bad == 0);
    CHECK_THROWS_AS(d->commit(0, recs[0]), DbError);
    CHECK(d->disk_bytes() > 0);
    for (uint64_t i : {0ul, 1ul, 65535ul, 65536ul, 131071ul, 131072ul, 149999ul})
      CHECK(d->record<Record>(1, i) == recs[1][i]);
    CHECK_THAT(db_error([&] { d->record<Record>(1, 150000); }), Contains("beyond"));
    CHECK_THAT(db_error([&] { d->record<Record>(kDerived, 3); }), Contains("derived"));
    CHECK_THROWS_AS(d->record<Record>(4, 0), DbError);  // the empty tier
  }
  SECTION("the digest does not depend on commit order or compression level") {
    make_db(dir / "other", recs, {5, 4, 3, 2, 1, 0}, 19);
    auto a = Database::open_read_only(path);
    auto b = Database::open_read_only(dir / "other");
    CHECK(a->digest() == b->digest());
    CHECK(a->manifest().at("digest") == b->manifest().at("digest"));
    // and it does depend on the records
    auto changed = recs;
    changed[1][77777] ^= 1;
    make_db(dir / "changed", changed, {0, 1, 2, 3, 4, 5});
    CHECK(Database::open_read_only(dir / "changed")->digest() != a->digest());
  }
}

TEST_CASE("a reader for one thread reads every record as the database does", "[db]") {
  TempDir dir("db-reader");
  const auto recs = sample_records(3);
  make_db(dir / "db", recs, {0, 1, 2, 3, 4, 5});
  // the shared cache big, or holding nothing (the reader's own table keeps its blocks); the
  // reader's table of one slot (every other block evicts), three, or the default
  for (size_t cache : {size_t{256} << 20, size_t{0}}) {
    auto d = Database::open_read_only(dir / "db", cache);
    for (size_t slots : {size_t{1}, size_t{3}, size_t{256}}) {
      auto r = d->reader(slots);
      CHECK(r->record_bytes() == 1);
      uint64_t bad = 0, read = 0;
      std::mt19937_64 rng(slots);
      for (int k = 0; k < 20000; ++k) {
        const TierId t = rng() % 2 ? 1 : static_cast<TierId>(rng() % 4);
        const uint64_t i = rng() % recs[t].size();
        bad += r->record<Record>(t, i) != recs[t][i];
        ++read;
      }
      CHECK(read == 20000);
      CHECK(bad == 0);
      CHECK_THAT(db_error([&] { r->record<Record>(1, 150000); }), Contains("beyond"));
      CHECK_THAT(db_error([&] { r->record<Record>(kDerived, 3); }), Contains("derived"));
    }
  }
  SECTION("records of several bytes: every byte plane") {
    const Identity wide{"wide", nlohmann::json::object(), "u16", 2};
    const std::vector<TierInfo> tiers{{"w", 100000}};
    std::vector<uint16_t> w(100000);
    for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<uint16_t>(i * 2654435761u >> 7);
    {
      auto d = Database::open_for_solve(dir / "wide", wide, tiers, 3);
      d->commit(0, w);
      d->finish(tiers);
    }
    auto d = Database::open_read_only(dir / "wide");
    auto r = d->reader(1);
    uint64_t bad = 0;
    for (uint64_t i = 0; i < w.size(); i += 7) bad += r->record<uint16_t>(0, i) != w[i];
    CHECK(bad == 0);
  }
}

TEST_CASE("a group that cannot be written stays pending: its tiers stay readable and a later flush writes them",
          "[db]") {
  TempDir dir("db-unwritable");
  const auto recs = sample_records(6);
  const fs::path path = dir / "db";
  {
    auto d = Database::open_for_solve(path, kId, kTiers, 3);
    d->commit(0, recs[0]);
    d->commit(2, recs[2]);
    // directories where the group's SST file would go: creating the file fails (even as root)
    for (int i = 0; i < 8; ++i) fs::create_directory(path / ("ingest-" + std::to_string(i) + ".sst.tmp"));
    CHECK_THROWS_AS(d->flush(), DbError);
    REQUIRE(d->has_tier(0));
    CHECK(d->load<Record>(0) == recs[0]);
    CHECK(d->load<Record>(2) == recs[2]);
    for (int i = 0; i < 8; ++i) fs::remove(path / ("ingest-" + std::to_string(i) + ".sst.tmp"));
    d->flush();
  }
  auto d = Database::open_read_only(path);
  CHECK(d->load<Record>(0) == recs[0]);
  CHECK(d->load<Record>(2) == recs[2]);
}

TEST_CASE("a group the writer's thread cannot write: the next commit throws its error, every tier committed stays "
          "readable, and a flush writes them once it can",
          "[db]") {
  TempDir dir("db-writer-fails");
  const auto recs = sample_records(7);
  const fs::path path = dir / "db";
  {
    auto d = Database::open_for_solve(path, kId, kTiers, 3);
    // directories where the groups' SST files would go: creating one fails (even as root)
    for (int i = 0; i < 8; ++i) fs::create_directory(path / ("ingest-" + std::to_string(i) + ".sst.tmp"));
    d->commit(0, recs[0]);
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));  // the group is due (kGroupSeconds)
    d->commit(2, recs[2]);  // hands tiers 0 and 2 to the writer's thread, which fails
    std::string error;
    int commits = 0;
    for (const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
         error.empty() && std::chrono::steady_clock::now() < until; ++commits) {
      try {
        d->commit(3, recs[3]);
      } catch (const DbError& e) {
        error = e.what();
      }
      if (error.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    INFO("commits of tier 3 until one threw: " << commits);
    CHECK_THAT(error, Contains("writing tiers to") && Contains(path.string()));
    for (TierId t : {TierId{0}, TierId{2}, TierId{3}}) {
      REQUIRE(d->has_tier(t));
      CHECK(d->load<Record>(t) == recs[t]);
    }
    CHECK_THROWS_WITH(d->finish(kTiers), Contains("writing tiers to"));  // never completed over it
    CHECK_FALSE(d->complete());
    CHECK_THROWS_AS(d->flush(), DbError);  // the directories are still there
    CHECK_THROWS_AS(d->commit(1, recs[1]), DbError);  // the error stays until a flush writes it all
    CHECK(d->load<Record>(1) == recs[1]);
    for (int i = 0; i < 8; ++i) fs::remove(path / ("ingest-" + std::to_string(i) + ".sst.tmp"));
    d->flush();
    d->commit(5, recs[5], 0);  // the error is gone with it
    d->flush();
  }
  auto d = Database::open_read_only(path);
  for (TierId t : {TierId{0}, TierId{1}, TierId{2}, TierId{3}}) CHECK(d->load<Record>(t) == recs[t]);
  CHECK(d->has_tier(5));
}

/// The names of this process's threads now.
std::vector<std::string> thread_names() {
  std::vector<std::string> names;
  for (const auto& task : fs::directory_iterator("/proc/self/task")) {
    std::ifstream in(task.path() / "comm");
    std::string name;
    if (std::getline(in, name)) names.push_back(name);
  }
  return names;
}

TEST_CASE("the thread that writes a database's groups goes by its name (top -H, a solve's cpuSeconds)", "[db]") {
  TempDir dir("db-writer-name");
  const auto recs = sample_records(3);
  auto d = Database::open_for_solve(dir / "db", kId, kTiers, 3);
  const auto named = [] {
    const auto names = thread_names();
    return std::count(names.begin(), names.end(), std::string(toadbase::db::kWriterThreadName));
  };
  CHECK(named() == 0);  // no group was due yet: no writer's thread
  d->commit(0, recs[0]);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));  // the group is due (kGroupSeconds)
  d->commit(1, recs[1]);  // hands the group to the writer's thread, started now
  CHECK(named() == 1);
  d->flush();
  CHECK(d->load<Record>(0) == recs[0]);
}

TEST_CASE("a committed tier reads back before its group is written", "[db]") {
  // has_tier() says yes as soon as commit_tier returns, so read_tier must work too
  TempDir dir("db-pending");
  const auto recs = sample_records(5);
  auto d = Database::open_for_solve(dir / "db", kId, kTiers, 3);
  d->commit(0, recs[0]);
  REQUIRE(d->has_tier(0));
  std::vector<Record> back;
  try {
    back = d->load<Record>(0);
  } catch (const DbError& e) {
    FAIL_CHECK("read_tier of a committed tier: " << e.what());
  }
  CHECK(back == recs[0]);
}

TEST_CASE("read_record works on a database opened for solving", "[db]") {
  // the API puts no restriction on read_record; the solve handle reads its own tiers
  TempDir dir("db-solve-read");
  const auto recs = sample_records(6);
  auto d = Database::open_for_solve(dir / "db", kId, kTiers, 3);
  d->commit(1, recs[1]);
  d->flush();
  REQUIRE(d->load<Record>(1) == recs[1]);
  for (uint64_t i : {0ul, 65536ul, 149999ul}) CHECK(d->record<Record>(1, i) == recs[1][i]);
}

TEST_CASE("open_for_solve resumes its own database and refuses another", "[db]") {
  TempDir dir("db-resume");
  const auto recs = sample_records(2);
  const std::string path = dir / "db";
  {
    auto d = Database::open_for_solve(path, kId, kTiers, 3);
    d->commit(0, recs[0]);
    d->commit(1, recs[1]);
  }  // closed without finish: an interrupted solve
  {
    auto r = Database::open_read_only(path);
    CHECK_FALSE(r->complete());
    CHECK(r->committed_tiers() == 2);
  }
  {
    auto d = Database::open_for_solve(path, kId, kTiers, 3);
    CHECK(d->has_tier(0));
    CHECK(d->has_tier(1));
    CHECK_FALSE(d->has_tier(2));
    CHECK(d->load<Record>(1) == recs[1]);
  }
  Identity other = kId;
  other.parameters = {{"length", 6}};
  CHECK_THAT(db_error([&] { Database::open_for_solve(path, other, kTiers, 3); }),
             Contains("holds") && Contains("\"length\":5"));
  Identity other_record = kId;
  other_record.record = "something-else";
  CHECK_THROWS_AS(Database::open_for_solve(path, other_record, kTiers, 3), DbError);
  auto other_tiers = kTiers;
  other_tiers[2].positions = 2;
  CHECK_THAT(db_error([&] { Database::open_for_solve(path, kId, other_tiers, 3); }),
             Contains("tier layout"));
  // refusals leave the database as it was
  auto r = Database::open_read_only(path);
  CHECK(r->committed_tiers() == 2);
  CHECK(r->load<Record>(0) == recs[0]);
}

TEST_CASE("opening what is not a toadbase database fails with a clear DbError", "[db]") {
  TempDir dir("db-foreign");
  SECTION("a missing directory") {
    const std::string e = db_error([&] { Database::open_read_only(dir / "nothing"); });
    CHECK_THAT(e, Contains("nothing") && Contains("missing"));
    CHECK_FALSE(fs::exists(dir / "nothing"));  // reading creates nothing
  }
  SECTION("an empty directory") {
    fs::create_directories(dir / "vacant");
    CHECK_THAT(db_error([&] { Database::open_read_only(dir / "vacant"); }),
               Contains("vacant") && Contains("not a database"));
  }
  SECTION("a file") {
    write_file(dir / "file", "hello");
    CHECK_THAT(db_error([&] { Database::open_read_only(dir / "file"); }),
               Contains("not a database"));
  }
  SECTION("a RocksDB database of something else") {
    { RawDb(dir / "rocks", true).put("hello", "world"); }
    CHECK_THAT(db_error([&] { Database::open_read_only(dir / "rocks"); }),
               Contains("not a toadbase"));
    CHECK_THAT(db_error([&] { Database::open_for_solve(dir / "rocks", kId, kTiers, 3); }),
               Contains("not a toadbase"));
    // and solving did not turn it into one
    CHECK_THROWS_AS(Database::open_read_only(dir / "rocks"), DbError);
  }
  SECTION("a damaged manifest, another format, another version") {
    { RawDb(dir / "junk", true).put("manifest", "{not json"); }
    CHECK_THAT(db_error([&] { Database::open_read_only(dir / "junk"); }), Contains("manifest"));
    { RawDb(dir / "fmt", true).put("manifest", R"({"format":"gamesman","tier_count":0})"); }
    CHECK_THAT(db_error([&] { Database::open_read_only(dir / "fmt"); }),
               Contains("not a toadbase"));
    {
      RawDb(dir / "ver", true)
          .put("manifest", R"({"format":"toadbase","format_version":99,"tier_count":0})");
    }
    CHECK_THAT(db_error([&] { Database::open_read_only(dir / "ver"); }), Contains("version"));
  }
  SECTION("a non-empty directory that is no database is not written into") {
    write_file(dir / "notes.txt", "mine");
    CHECK_THAT(db_error([&] { Database::open_for_solve(dir.path(), kId, kTiers, 3); }),
               Contains("not a database"));
    CHECK_FALSE(fs::exists(dir / "CURRENT"));
  }
  SECTION("a database whose creation was killed before CURRENT is solved into; with a file of anyone else's, not") {
    // what RocksDB writes before CURRENT (a solve killed that early left these)
    const fs::path cut = dir / "cut";
    fs::create_directories(cut);
    for (const char* f : {"LOCK", "LOG", "IDENTITY", "MANIFEST-000001", "000001.dbtmp", "OPTIONS-000003"})
      write_file(cut / f, "");
    const fs::path other = dir / "other";
    fs::copy(cut, other);
    write_file(other / "notes.txt", "mine");
    { auto d = Database::open_for_solve(cut, kId, kTiers, 3); }
    CHECK(fs::exists(cut / "CURRENT"));
    CHECK_NOTHROW(Database::open_read_only(cut));
    CHECK_THAT(db_error([&] { Database::open_for_solve(other, kId, kTiers, 3); }), Contains("not a database"));
    CHECK(fs::exists(other / "notes.txt"));
    CHECK_FALSE(fs::exists(other / "CURRENT"));
  }
}

TEST_CASE("damaged tiers are reported, naming the tier and block", "[db]") {
  TempDir dir("db-damage");
  const auto recs = sample_records(3);
  const std::string path = dir / "db";
  make_db(path, recs, {0, 1, 2, 3, 4, 5});

  SECTION("a block that is not a zstd frame") {
    { RawDb(path).put(block_key(1, 1), "12345678garbage-garbage"); }
    auto d = Database::open_read_only(path);
    CHECK_THAT(db_error([&] { d->load<Record>(1); }), Contains("tier 1 block 1") && Contains("damaged"));
    CHECK_THAT(db_error([&] { d->record<Record>(1, 70000); }), Contains("tier 1 block 1"));
    CHECK(d->record<Record>(1, 5) == recs[1][5]);  // block 0 is intact
    CHECK(d->load<Record>(0) == recs[0]);
  }
  SECTION("a block whose records do not match its digest") {
    {
      RawDb raw(path);
      std::string v = raw.get(block_key(1, 0));
      v[0] = static_cast<char>(v[0] ^ 0x40);  // the block's XXH64, first byte
      raw.put(block_key(1, 0), v);
    }
    auto d = Database::open_read_only(path);
    CHECK_THAT(db_error([&] { d->load<Record>(1); }), Contains("tier 1 block 0") && Contains("digest"));
  }
  SECTION("a truncated block") {
    { RawDb(path).put(block_key(3, 0), "1234"); }
    auto d = Database::open_read_only(path);
    CHECK_THAT(db_error([&] { d->load<Record>(3); }), Contains("tier 3 block 0") && Contains("damaged"));
  }
  SECTION("a missing block") {
    { RawDb(path).del(block_key(1, 2)); }
    auto d = Database::open_read_only(path);
    CHECK_THAT(db_error([&] { d->load<Record>(1); }), Contains("tier 1 block 2") && Contains("missing"));
  }
  SECTION("a tier whose commit record has another digest") {
    {
      RawDb raw(path);
      std::string v = raw.get(tier_key(0));
      REQUIRE(v.size() == 40);
      v[24] = static_cast<char>(v[24] ^ 1);
      raw.put(tier_key(0), v);
    }
    auto d = Database::open_read_only(path);
    CHECK_THAT(db_error([&] { d->load<Record>(0); }), Contains("tier 0") && Contains("digest"));
  }
  SECTION("a damaged tier record") {
    { RawDb(path).put(tier_key(2), "short"); }
    CHECK_THAT(db_error([&] { Database::open_read_only(path); }), Contains("tier 2") && Contains("damaged") && Contains("commit record"));
  }
}

// ---- the tools' instance over a real database: verify recomputes, not trusts ----------------

namespace {

std::unique_ptr<toadbase::Instance> toads_frogs_instance(const nlohmann::json& given) {
  const auto* g = toadbase::tools::find_game("toads-frogs");
  REQUIRE(g != nullptr);
  return g->instance(g->normalize(given));
}

void solve_into(const std::string& path, const toadbase::Instance& inst) {
  auto d = Database::open_for_solve(path, inst.identity(), inst.tiers(), 3);
  inst.solve(*d, nullptr);
  d->finish(inst.tiers());
}

/// Every tier's whole records (derived tiers and tails rebuilt), as the instance reads them.
std::vector<std::vector<Record>> tier_records(const toadbase::Instance& inst, const toadbase::TierSource& source) {
  std::vector<std::vector<Record>> out;
  inst.each_tier(source, [&](TierId, const std::vector<uint8_t>& r) { out.push_back(r); });
  return out;
}

}  // namespace

TEST_CASE("a Toads and Frogs database of format 1 (every Toads tier whole) answers as before",
          "[db][tail]") {
  TempDir dir("db-format1-tf");
  const auto inst = toads_frogs_instance({{"length", 7}});
  const std::string path = dir / "db";
  const SolvedSpace mem(tf::SpaceParams{7, std::nullopt, std::nullopt});
  const tf::Space& space = mem.space;
  {
    // what format 1 kept: every Toads-to-move tier whole, no Frogs-to-move tier
    auto d = Database::open_for_solve(path, inst->identity(), inst->tiers(), 3);
    for (TierId t = 0; t < space.tier_count(); ++t)
      d->commit(t, mem.store.records[t], space.toads_to_move(t) ? toadbase::kAllRecords : 0);
    d->finish(inst->tiers());
  }
  {
    RawDb raw(path);
    for (TierId t = 0; t < space.tier_count(); ++t) raw.put(tier_key(t), raw.get(tier_key(t)).substr(0, 32));
    auto m = nlohmann::json::parse(raw.get("manifest"));
    m["format_version"] = 1;
    raw.put("manifest", m.dump());
  }
  auto d = Database::open_read_only(path);
  uint64_t bad = 0;
  CHECK(tier_records(*inst, *d) == mem.store.records);
  for (const std::string& board : all_boards(7))
    for (const char* turn : {"1", "2"}) {
      const Truth want = oracle(std::string(turn) + "_" + board);
      const auto o = inst->win_lose_values()->value(*d, board, turn).second;
      bad += (o.value == toadbase::Value::Win) != want.win || o.remoteness != want.remoteness;
    }
  CHECK(bad == 0);
  CHECK(inst->verify(*d, nullptr).ok);
}

TEST_CASE("verify --sample recomputes random positions of every tier and finds a wrong value", "[db][verify]") {
  TempDir dir("db-verify-sample");
  const auto inst = toads_frogs_instance({{"length", 7}});
  const std::string path = dir / "db";
  solve_into(path, *inst);
  const toadbase::toads_frogs::Space space(tf::SpaceParams{7, std::nullopt, std::nullopt});
  const auto sample = [&](uint64_t per_tier, uint64_t seed, int threads) {
    auto d = Database::open_read_only(path);
    return toadbase::with_threads(threads, [&] { return inst->verify_sample(*d, per_tier, seed, nullptr); });
  };
  {
    // a sample as large as every tier is every position, derived tiers' included
    const auto all = sample(1u << 20, 1, 0);
    CHECK(all.ok);
    CHECK(all.problem.empty());
    CHECK(all.positions_checked == 2 * 2187);
    // a small one: that many of every tier
    uint64_t want = 0;
    for (TierId t = 0; t < space.tier_count(); ++t) want += std::min<uint64_t>(space.tier_size(t), 3);
    const auto few = sample(3, 7, 1);
    CHECK(few.ok);
    CHECK(few.positions_checked == want);
    CHECK(sample(3, 7, 2).positions_checked == want);
  }
  // one record of a stored tier changed, its digests made to agree (the whole verify's case)
  TierId victim = 0;
  while (space.tier_prefix(victim) < 3 || !space.tier_stored(victim)) ++victim;
  {
    std::vector<Record> whole;
    {
      auto d = Database::open_read_only(path);
      whole = tier_records(*inst, *d).at(victim);
    }
    whole[2] = static_cast<Record>(whole[2] + 2);
    auto d = Database::open_for_solve(path, inst->identity(), inst->tiers(), 3, true);
    d->commit(victim, whole, space.tier_prefix(victim));
  }
  // every position drawn: the changed one disagrees with its children (or a parent with it)
  const auto rep = sample(1u << 20, 1, 2);
  CHECK_FALSE(rep.ok);
  INFO(rep.problem);
  CHECK_THAT(rep.problem, Contains("stored ") && Contains(", recomputed "));
  const auto one = sample(1u << 20, 1, 1);  // the same first problem on any thread count
  CHECK_FALSE(one.ok);
  CHECK(one.problem == rep.problem);
}

TEST_CASE("verify recomputes every record and names the first wrong one", "[db][verify]") {
  TempDir dir("db-verify");
  const auto inst = toads_frogs_instance({{"length", 7}});
  const std::string path = dir / "db";
  solve_into(path, *inst);
  {
    auto d = Database::open_read_only(path);
    const auto rep = inst->verify(*d, nullptr);
    CHECK(rep.ok);
    CHECK(rep.problem.empty());
    CHECK(rep.positions_checked == 2 * 2187);
    // lookups agree with the oracle
    // both turns: Frogs-to-move positions come from derived tiers
    for (const std::string& board : all_boards(7)) {
      for (const char* turn : {"1", "2"}) {
        const auto [canon, o] = inst->win_lose_values()->value(*d, board, turn);
        const std::string pos = std::string(turn) + "_" + board;
        const Truth want = oracle(pos);
        if (canon != pos || (o.value == toadbase::Value::Win) != want.win ||
            o.remoteness != want.remoteness)
          FAIL_CHECK(pos << ": lookup gives " << canon << " " << o.remoteness);
      }
    }
    // tier_records gives every tier, stored or derived
    const toadbase::toads_frogs::Space space(tf::SpaceParams{7, std::nullopt, std::nullopt});
    const SolvedSpace mem(tf::SpaceParams{7, std::nullopt, std::nullopt});
    CHECK(tier_records(*inst, *d) == mem.store.records);
    // the database keeps the Toads' tiers with no more toads than frogs, up to their tails
    // (boards ending in a toad)
    uint64_t kept = 0, want = 0;
    for (TierId t = 0; t < space.tier_count(); ++t) {
      CHECK(d->tier_meta(t).kept == toadbase::records_kept(space, t));
      kept += d->tier_meta(t).kept;
    }
    for (const std::string& board : all_boards(7)) {
      const auto [toads, frogs] = piece_counts(board);
      want += toads <= frogs && board.back() != 'T';
    }
    CHECK(kept == want);
  }
  // rewrites one tier of the database, digests and all (its records changed by `change`,
  // keeping the first `keep`), then verifies it
  auto verify_rewritten = [&](TierId victim, const std::function<void(std::vector<Record>&)>& change,
                              uint64_t keep) {
    std::vector<Record> whole;
    {
      auto d = Database::open_read_only(path);
      whole = tier_records(*inst, *d).at(victim);
    }
    change(whole);
    {
      // a complete database opens for writing only to be repaired
      auto d = Database::open_for_solve(path, inst->identity(), inst->tiers(), 3, true);
      d->commit(victim, whole, keep);
    }
    auto d = Database::open_read_only(path);
    return inst->verify(*d, nullptr);
  };
  const toadbase::toads_frogs::Space space7(tf::SpaceParams{7, std::nullopt, std::nullopt});
  SECTION("a stored tier that keeps fewer records than lookups read, digests consistent") {
    TierId victim = 0;
    while (!space7.tier_stored(victim) || space7.tier_prefix(victim) < 2) ++victim;
    const auto rep = verify_rewritten(victim, [](std::vector<Record>&) {}, space7.tier_prefix(victim) - 1);
    CHECK_FALSE(rep.ok);
    CHECK_THAT(rep.problem, Contains("keeps") && Contains(space7.tier_name(victim)));
  }
  SECTION("a wrong value with consistent digests") {
    TierId victim = 0;
    while (space7.tier_prefix(victim) < 3 || !space7.tier_stored(victim)) ++victim;
    const auto rep = verify_rewritten(
        victim, [](std::vector<Record>& r) { r[2] = static_cast<Record>(r[2] + 2); },
        space7.tier_prefix(victim));
    CHECK_FALSE(rep.ok);
    CHECK_THAT(rep.problem, Contains(space7.tier_name(victim) + " index 2") &&
                                Contains(to_string(space7.unrank(victim, 2))));
  }
  SECTION("a damaged block") {
    const toadbase::toads_frogs::Space space(tf::SpaceParams{7, std::nullopt, std::nullopt});
    const TierId victim = 6;
    REQUIRE(space.tier_stored(victim));
    { RawDb(path).put(block_key(victim, 0), "12345678garbage-garbage"); }
    auto d = Database::open_read_only(path);
    const auto rep = inst->verify(*d, nullptr);
    CHECK_FALSE(rep.ok);
    CHECK_THAT(rep.problem, Contains("damaged") && Contains(space.tier_name(victim)));
  }
  SECTION("a derived tier whose recorded digest differs") {
    const toadbase::toads_frogs::Space space(tf::SpaceParams{7, std::nullopt, std::nullopt});
    TierId victim = 0;
    while (space.tier_stored(victim) || space.tier_size(victim) < 3) ++victim;
    {
      RawDb raw(path);
      std::string v = raw.get(tier_key(victim));
      REQUIRE(v.size() == 40);
      v[24] = static_cast<char>(v[24] ^ 1);
      raw.put(tier_key(victim), v);
    }
    auto d = Database::open_read_only(path);
    CHECK(d->tier_derived(victim));
    const auto rep = inst->verify(*d, nullptr);
    CHECK_FALSE(rep.ok);
    CHECK_THAT(rep.problem, Contains(space.tier_name(victim)) && Contains("digest"));
  }
}

TEST_CASE("committing a tier beyond the tier count is refused and harms nothing", "[db]") {
  TempDir dir("db-beyond");
  const auto recs = sample_records(4);
  const std::string path = dir / "db";
  {
    auto d = Database::open_for_solve(path, kId, kTiers, 3);
    d->commit(0, recs[0]);
    CHECK_THROWS(d->commit(static_cast<TierId>(kTiers.size()), recs[2]));
    CHECK(d->committed_tiers() == 1);
  }
  // the database still opens, for solving and for reading
  auto d = Database::open_for_solve(path, kId, kTiers, 3);
  CHECK(d->committed_tiers() == 1);
  CHECK(d->load<Record>(0) == recs[0]);
}

TEST_CASE("tiers sized by the solve: any count committed, kept whole, checked on resume and when damaged", "[db]") {
  TempDir dir("db-sized");
  const std::string path = dir / "db";
  const Identity id{"toads-frogs", {{"length", 5}}, "remoteness-u8-parity"};
  // a sized tier, then two whose size the solve learns
  const std::vector<TierInfo> tiers{{"boards", 1000}, {"table", toadbase::kSizedBySolve}, {"heap", toadbase::kSizedBySolve}};
  std::vector<Record> boards(1000), table(70000), heap(3);
  for (size_t i = 0; i < boards.size(); ++i) boards[i] = static_cast<Record>(i % 7);
  for (size_t i = 0; i < table.size(); ++i) table[i] = static_cast<Record>(i * 31 % 251);
  {
    auto d = Database::open_for_solve(path, id, tiers, 3);
    CHECK(d->tier_sized_by_solve(1));
    CHECK_FALSE(d->tier_sized_by_solve(0));
    d->commit(1, table);
    CHECK_THROWS_AS(d->commit(2, heap, 1), std::logic_error);  // such a tier keeps all its records
  }
  {
    // resumed: the table's size is whatever was committed
    auto d = Database::open_for_solve(path, id, tiers, 3);
    CHECK(d->tier_positions(1) == 70000);
    CHECK(d->load<Record>(1) == table);
    d->commit(0, boards);
    d->commit(2, heap);
    d->finish(tiers);
    // positions counts the sized tiers; the tables' records are counted apart
    CHECK(d->summary()["positions"] == 1000);
    CHECK(d->summary()["table_records"] == 70003);
  }
  auto r = Database::open_read_only(path);
  CHECK(r->load<Record>(2) == heap);
  Record x;
  r->read_record(1, 69999, &x);
  CHECK(x == table[69999]);
  // a run read at once, across a block boundary, as record by record
  std::vector<Record> run(9000);
  r->read_records(1, 60000, run.size(), run.data());
  CHECK(run == std::vector<Record>(table.begin() + 60000, table.begin() + 69000));
  CHECK_THROWS_AS(r->read_records(1, 69000, 1001, run.data()), DbError);
  // another tier layout (a sized tier where the solve sized it) is refused
  std::vector<TierInfo> other = tiers;
  other[2].positions = 3;
  CHECK_THAT(db_error([&] { Database::open_for_solve(path, id, other, 3); }), Contains("another tier layout"));
  // a commit record claiming 2^40 records: damage, in a complete database and in an incomplete one
  const std::string incomplete = dir / "incomplete";
  {
    auto d = Database::open_for_solve(incomplete, id, tiers, 3);
    d->commit(1, table);
  }
  for (const std::string& p : {path, incomplete}) {
    {
      RawDb raw(p);
      std::string v = raw.get(tier_key(1));
      REQUIRE(v.size() == 40);
      for (int i = 0; i < 8; ++i) v[i] = static_cast<char>(((uint64_t{1} << 40) >> (8 * i)) & 0xff);       // records
      for (int i = 0; i < 8; ++i) v[32 + i] = static_cast<char>(((uint64_t{1} << 40) >> (8 * i)) & 0xff);  // kept
      for (int i = 0; i < 8; ++i) v[8 + i] = static_cast<char>(((uint64_t{1} << 24) >> (8 * i)) & 0xff);   // blocks
      raw.put(tier_key(1), v);
    }
    CHECK_THAT(db_error([&] { Database::open_read_only(p); }), Contains("tier 1 is damaged") && Contains("claims"));
  }
}

TEST_CASE("a tier committed from a record source is stored as the same records committed at once", "[db]") {
  // 4-byte records: a block's run of a plane starts mid-plane and crosses into the next
  // plane; 1-byte records: the stream is the records themselves
  for (const uint32_t width : {4u, 1u}) {
    DYNAMIC_SECTION("records of " << width << " bytes") {
      TempDir dir("db-source");
      const Identity id{"toads-frogs-cgt", {{"length", 5}}, width == 4 ? "cgt-form-id-u32" : "remoteness-u8-parity", width};
      const std::vector<TierInfo> tiers{{"empty", toadbase::kSizedBySolve},
                                        {"one", toadbase::kSizedBySolve},
                                        {"many", toadbase::kSizedBySolve}};
      const std::vector<uint64_t> counts{0, 1, 70001};
      std::mt19937_64 rng(width);
      std::vector<std::vector<uint8_t>> recs;
      for (uint64_t n : counts) {
        std::vector<uint8_t> r(n * width);
        for (auto& b : r) b = static_cast<uint8_t>(rng() % 5 == 0 ? rng() : rng() % 3);
        recs.push_back(std::move(r));
      }
      const std::string at_once = dir / "at-once", from_source = dir / "from-source";
      {
        auto d = Database::open_for_solve(at_once, id, tiers, 3);
        for (TierId t = 0; t < 3; ++t) d->commit_tier(t, recs[t].data(), counts[t], toadbase::kAllRecords);
        d->finish(tiers);
      }
      uint64_t longest_run = 0, asked = 0;
      std::mutex mu;
      {
        auto d = Database::open_for_solve(from_source, id, tiers, 3);
        for (TierId t = 0; t < 3; ++t)
          d->commit_tier_from(t, counts[t], [&, t](uint64_t first, uint64_t count, void* out) {
            REQUIRE(first + count <= counts[t]);
            std::memcpy(out, recs[t].data() + first * width, count * width);
            std::lock_guard lock(mu);
            longest_run = std::max(longest_run, count);
            asked += count;
          });
        d->finish(tiers);
      }
      // asked a block's records at a time (65536 bytes of them), each record once for the
      // blocks; records wider than a byte (their planes per block) once more for each plane
      // of the digest (the XXH64 of the planes one after the other), 65536 records a run
      CHECK(longest_run <= 65536);
      CHECK(asked == (counts[1] + counts[2]) * (width == 1 ? 1 : 1 + width));
      {
        auto a = Database::open_read_only(at_once), b = Database::open_read_only(from_source);
        CHECK(a->digest() == b->digest());
        for (TierId t = 0; t < 3; ++t) {
          CHECK(a->tier_meta(t).digest == b->tier_meta(t).digest);
          CHECK(a->tier_meta(t).blocks == b->tier_meta(t).blocks);
          std::vector<uint8_t> back(counts[t] * width);
          if (counts[t]) b->load_tier(t, back.data());
          CHECK(back == recs[t]);
        }
        CHECK(b->damaged_tiers().empty());
      }
      // block for block the same bytes
      RawDb ra(at_once), rb(from_source);
      for (uint32_t blk = 0; blk * 65536 < counts[2] * width; ++blk) CHECK(ra.get(block_key(2, blk)) == rb.get(block_key(2, blk)));
      CHECK(ra.get(tier_key(2)) == rb.get(tier_key(2)));
    }
  }
}

TEST_CASE("a database of smaller blocks: format 3 or more, every read path, resumed as it was made, refused when it lies",
          "[db]") {
  TempDir dir("db-blocks");
  const std::string path = dir / "db";
  // 2-byte records of 4 KiB blocks: the big tier spans 25 blocks of 2,048 records each, the
  // last one short
  const Identity small{"wide", nlohmann::json::object(), "u16", 2, 4096};
  const std::vector<TierInfo> tiers{{"w", 50001}, {"one", 1}, {"table", toadbase::kSizedBySolve}};
  std::vector<uint16_t> w(50001), one{7}, table(3000);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<uint16_t>(i * 2654435761u >> 9);
  for (size_t i = 0; i < table.size(); ++i) table[i] = static_cast<uint16_t>(i % 300);
  {
    auto d = Database::open_for_solve(path, small, tiers, 3);
    CHECK(d->block_bytes() == 4096);
    d->commit(0, w);
    d->commit_tier_from(2, table.size(), [&](uint64_t first, uint64_t count, void* out) {
      std::memcpy(out, table.data() + first, count * 2);
    });
  }
  {
    // resumed by a solve that asks for the default: the database keeps its blocks
    Identity plain = small;
    plain.block_bytes = 0;
    auto d = Database::open_for_solve(path, plain, tiers, 3);
    CHECK(d->block_bytes() == 4096);
    CHECK(d->load<uint16_t>(0) == w);
    d->commit(1, one);
    d->finish(tiers);
  }
  auto d = Database::open_read_only(path);
  CHECK(d->summary()["format_version"] == 4);  // 2-byte records: their planes per block
  CHECK(d->planes_per_block());
  CHECK(d->summary()["block_records"] == 4096);
  CHECK(d->identity().block_bytes == 4096);
  CHECK(d->tier_meta(0).blocks == (50001 * 2 + 4095) / 4096);
  CHECK(d->load<uint16_t>(0) == w);
  CHECK(d->load<uint16_t>(2) == table);
  CHECK(d->damaged_tiers().empty());
  // record by record through the cache, through a reader of one slot, and runs across blocks
  auto r = d->reader(1);
  uint64_t bad = 0;
  for (uint64_t i = 0; i < w.size(); i += 5) bad += d->record<uint16_t>(0, i) != w[i] || r->record<uint16_t>(0, i) != w[i];
  CHECK(bad == 0);
  std::vector<uint16_t> run(5000);
  d->read_records(0, 2040, run.size(), run.data());
  CHECK(run == std::vector<uint16_t>(w.begin() + 2040, w.begin() + 7040));
  // the same records in blocks of 64 KiB: the same digest (format 4 too: records of 2 bytes)
  {
    Identity plain = small;
    plain.block_bytes = 0;
    auto p = Database::open_for_solve(dir / "plain", plain, tiers, 3);
    p->commit(0, w);
    p->commit(1, one);
    p->commit(2, table);
    p->finish(tiers);
    CHECK(p->summary()["format_version"] == 4);
    CHECK(p->summary()["block_records"] == 65536);
    CHECK(p->digest() == d->digest());
  }
  // block sizes that are not a power of two from 4 KiB to 1 MiB are refused before anything is written
  for (uint32_t bad_size : {100u, 5000u, 2048u, 1u << 21}) {
    Identity odd = small;
    odd.block_bytes = bad_size;
    CHECK_THROWS_AS(Database::open_for_solve(dir / ("odd" + std::to_string(bad_size)), odd, tiers, 3),
                    std::invalid_argument);
  }
  // a manifest that says other blocks than its tiers were cut into, or blocks other than
  // 64 KiB in format 2 (which always cut 64 KiB): damage, named
  d.reset();
  r.reset();
  const std::string manifest = RawDb(path).get("manifest");
  for (const auto& [field, value] : std::vector<std::pair<std::string, nlohmann::json>>{
           {"block_records", 8192}, {"block_records", 3000}, {"format_version", 2}}) {
    nlohmann::json m = nlohmann::json::parse(manifest);
    m[field] = value;
    RawDb(path).put("manifest", m.dump());
    CHECK_THAT(db_error([&] { Database::open_read_only(path)->load<uint16_t>(0); }), Contains("damaged"));
  }
}

namespace {

/// Records of `width` bytes, byte p of record i made so that the high bytes are mostly
/// small (as form ids and counts are) and no two planes are alike.
std::vector<uint8_t> wide_records(uint64_t count, unsigned width, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint8_t> r(count * width);
  for (uint64_t i = 0; i < count; ++i)
    for (unsigned p = 0; p < width; ++p)
      r[i * width + p] = static_cast<uint8_t>(p == 0 ? rng() : p == width - 1 ? rng() % 3 : (i >> (3 * p)) + p);
  return r;
}

/// Writes a finished database of one tier of `n` four-byte records (wide_records of `seed`)
/// in 4 KiB blocks at `path` and returns the records. `flushed`: its blocks in files, as a
/// database solved and closed has them, not in RocksDB's log.
std::vector<uint8_t> write_wide(const std::string& path, uint64_t n, uint64_t seed, bool flushed = true) {
  const Identity id{"wide", nlohmann::json::object(), "u32", 4, 4096};
  const std::vector<TierInfo> tiers{{"ids", n}};
  std::vector<uint8_t> recs = wide_records(n, 4, seed);
  {
    auto d = Database::open_for_solve(path, id, tiers, 3);
    REQUIRE(d->planes_per_block());
    d->commit_tier(0, recs.data(), n, toadbase::kAllRecords);
    d->finish(tiers);
  }
  if (flushed) {
    RawDb raw(path);
    REQUIRE(raw.db->Flush(rocksdb::FlushOptions()).ok());
  }
  return recs;
}

/// Lays the committed tiers of a closed database of `width`-byte records out again as
/// format 3 wrote them (one plane stream a tier, cut into blocks), `recs[t]` being tier t's
/// records, and says format 3 (2 for blocks of 64 KiB) in its manifest: a database solved
/// before format 4.
void to_planes_per_tier(const std::string& path, unsigned width, uint64_t block,
                        const std::vector<std::vector<uint8_t>>& recs) {
  RawDb raw(path);
  for (size_t t = 0; t < recs.size(); ++t) {
    std::string c;
    if (!raw.db->Get(rocksdb::ReadOptions(), tier_key(static_cast<uint32_t>(t)), &c).ok()) continue;
    uint64_t kept_bytes = 0;
    for (int i = 7; i >= 0; --i) kept_bytes = kept_bytes << 8 | static_cast<uint8_t>(c[32 + static_cast<size_t>(i)]);
    const uint64_t kept = kept_bytes / width;
    const toadbase::db::PlaneLayout now{width, kept, block, true}, old{width, kept, block, false};
    for (uint64_t b = 0; b < now.blocks(); ++b) raw.del(block_key(static_cast<uint32_t>(t), static_cast<uint32_t>(b)));
    std::vector<uint8_t> out(block);
    for (uint64_t b = 0; b < old.blocks(); ++b) {
      old.gather(recs[t].data(), b, out.data());
      raw.put(block_key(static_cast<uint32_t>(t), static_cast<uint32_t>(b)),
              toadbase::db::encode_block(out.data(), old.block_size(b), 3));
    }
    c.replace(8, 8, le64(old.blocks()));  // the commit record's block count
    raw.put(tier_key(static_cast<uint32_t>(t)), c);
  }
  auto m = nlohmann::json::parse(raw.get("manifest"));
  m["format_version"] = block == toadbase::db::kDefaultBlockBytes ? 2 : 3;
  raw.put("manifest", m.dump());
}

}  // namespace

TEST_CASE("records wider than a byte: format 4 keeps each block's records' planes in the block, every path reads "
          "them, a database of format 3 (planes per tier) still reads",
          "[db][layout]") {
  TempDir dir("db-planes");
  for (const unsigned width : {2u, 3u, 4u, 12u}) {
    for (const uint64_t block : {toadbase::db::kMinBlockBytes, toadbase::db::kDefaultBlockBytes}) {
      const uint64_t per = block / width;  // records a block holds
      // a tier of one record, one a record short of a block, a block exactly, several blocks
      // and a short last one, a kept prefix (a tail not stored), one derived, and a table
      const std::vector<uint64_t> sizes{1, per - 1, per, 3 * per + 17, 2 * per + 5, 700};
      const std::vector<uint64_t> keep{toadbase::kAllRecords, toadbase::kAllRecords, toadbase::kAllRecords,
                                       toadbase::kAllRecords, per + 3, 0};
      std::vector<TierInfo> tiers;
      std::vector<std::vector<uint8_t>> recs;
      for (size_t t = 0; t < sizes.size(); ++t) {
        tiers.push_back({"t" + std::to_string(t), sizes[t]});
        recs.push_back(wide_records(sizes[t], width, width * 100 + t));
      }
      const size_t kTable = tiers.size();
      tiers.push_back({"table", toadbase::kSizedBySolve});
      recs.push_back(wide_records(5 * per / 2, width, width));
      const Identity id{"wide", {{"w", width}}, "bytes" + std::to_string(width), width, static_cast<uint32_t>(block)};
      const std::string path = dir / ("w" + std::to_string(width) + "b" + std::to_string(block));
      INFO("width " << width << ", blocks of " << block);
      {
        auto d = Database::open_for_solve(path, id, tiers, 3);
        CHECK(d->planes_per_block());
        // tier 0 packed as another rank packs it, tier 3 from a record source, the others at once
        const auto packer = Database::packer(width, 3, block, true);
        d->commit_packed(0, packer->pack(recs[0].data(), sizes[0], toadbase::kAllRecords), sizes[0], toadbase::kAllRecords);
        d->commit_tier_from(3, sizes[3], [&](uint64_t first, uint64_t count, void* out) {
          std::memcpy(out, recs[3].data() + first * width, count * width);
        });
        for (size_t t : {1u, 2u, 4u, 5u}) d->commit_tier(static_cast<TierId>(t), recs[t].data(), sizes[t], keep[t]);
        d->commit_tier_from(static_cast<TierId>(kTable), recs[kTable].size() / width,
                            [&](uint64_t first, uint64_t count, void* out) {
                              std::memcpy(out, recs[kTable].data() + first * width, count * width);
                            });
        d->finish(tiers);
      }
      // every read path against the records; `what` names the database read
      auto check_reads = [&](const std::string& what) {
        INFO(what);
        auto d = Database::open_read_only(path, 0);  // a cache that keeps one block
        auto r = d->reader(1);
        for (size_t t = 0; t <= kTable; ++t) {
          INFO("tier " << t);
          const uint64_t n = recs[t].size() / width;
          CHECK(d->tier_meta(static_cast<TierId>(t)).digest == toadbase::tier_digest(recs[t].data(), n, width));
          const uint64_t kept = d->tier_meta(static_cast<TierId>(t)).kept;
          CHECK(kept == std::min(n, t == kTable ? n : keep[t]));
          std::vector<uint8_t> all(n * width, 0);
          d->load_tier(static_cast<TierId>(t), all.data());
          CHECK(std::equal(all.begin(), all.begin() + static_cast<long>(kept * width), recs[t].begin()));
          uint64_t bad = 0;
          std::vector<uint8_t> one(width), two(width);
          for (uint64_t i = 0; i < kept; i += (i % per < 3 || i % per > per - 3) ? 1 : 97) {
            d->read_record(static_cast<TierId>(t), i, one.data());
            r->read_record(static_cast<TierId>(t), i, two.data());
            bad += !std::equal(one.begin(), one.end(), recs[t].begin() + static_cast<long>(i * width));
            bad += one != two;
          }
          CHECK(bad == 0);
          // runs that start and end inside blocks and cross them
          for (uint64_t from : {uint64_t{0}, per - 2, per + 1}) {
            if (from >= kept) continue;
            const uint64_t len = std::min(kept - from, 2 * per + 7);
            std::vector<uint8_t> run(len * width);
            d->read_records(static_cast<TierId>(t), from, len, run.data());
            CHECK(std::equal(run.begin(), run.end(), recs[t].begin() + static_cast<long>(from * width)));
          }
        }
        CHECK(d->damaged_tiers().empty());
        return d->digest();
      };
      const uint64_t digest = check_reads("format 4");
      {
        auto d = Database::open_read_only(path);
        CHECK(d->summary()["format_version"] == 4);
        // block 0 of tier 3 is its first `per` records' planes, one after the other
        RawDb raw(path);
        const std::vector<uint8_t> b0 =
            toadbase::db::decode_block(raw.get(block_key(3, 0)), block, "block 0");
        REQUIRE(b0.size() == per * width);
        uint64_t bad = 0;
        for (uint64_t i = 0; i < per; ++i)
          for (unsigned p = 0; p < width; ++p) bad += b0[p * per + i] != recs[3][i * width + p];
        CHECK(bad == 0);
      }
      // the same tiers laid out as format 3 wrote them (one plane stream a tier, cut into
      // blocks), as a database solved before format 4 holds them: read the same, same digest
      to_planes_per_tier(path, width, block, recs);
      CHECK_FALSE(Database::open_read_only(path)->planes_per_block());
      CHECK(check_reads("format 3") == digest);
    }
  }
}

TEST_CASE("a whole block of another size in a block's place: every read of wide records names the block, none "
          "reads past it",
          "[db][layout]") {
  TempDir dir("db-misfit");
  const unsigned width = 4;
  const uint64_t block = toadbase::db::kMinBlockBytes, per = block / width;
  const std::vector<TierInfo> tiers{{"t", 3 * per + 17}};
  const auto recs = wide_records(tiers[0].positions, width, 41);
  const Identity id{"wide", {{"w", width}}, "bytes4", width, static_cast<uint32_t>(block)};
  const std::string path = dir / "db";
  {
    auto d = Database::open_for_solve(path, id, tiers, 3);
    REQUIRE(d->planes_per_block());
    d->commit_tier(0, recs.data(), tiers[0].positions, toadbase::kAllRecords);
    d->finish(tiers);
  }
  // block 0 replaced by block 3 (its 17 records): a frame that decodes and matches its own hash
  { RawDb raw(path); raw.put(block_key(0, 0), raw.get(block_key(0, 3))); }
  auto d = Database::open_read_only(path, 0);
  auto r = d->reader(1);
  std::vector<uint8_t> one(width), run(10 * width), all(recs.size());
  const auto misfit = Contains("tier 0 block 0 does not fit the tier's size (damaged)");
  CHECK_THAT(db_error([&] { d->load_tier(0, all.data()); }), misfit);
  CHECK_THAT(db_error([&] { d->read_record(0, 5, one.data()); }), misfit);
  CHECK_THAT(db_error([&] { r->read_record(0, 5, one.data()); }), misfit);
  CHECK_THAT(db_error([&] { d->read_records(0, 0, 10, run.data()); }), misfit);
  // the other blocks read as before
  d->read_record(0, per + 5, one.data());
  CHECK(std::equal(one.begin(), one.end(), recs.begin() + static_cast<long>((per + 5) * width)));
  r->read_record(0, 2 * per, one.data());
  CHECK(std::equal(one.begin(), one.end(), recs.begin() + static_cast<long>(2 * per * width)));
}

TEST_CASE("a fresh reader reads a record of four bytes from one data block, not one a byte", "[db][layout]") {
  // a CGT database's form ids: format 3 kept each of a record's bytes in a block of its own
  // (four reads of RocksDB and four blocks decompressed for each id a cold query read)
  TempDir dir("db-one-block");
  const std::vector<uint8_t> recs = write_wide(dir / "db", 200000, 9);
  uint64_t bad = 0;
  for (uint64_t i : {uint64_t{5}, uint64_t{77777}, uint64_t{199999}}) {
    auto d = Database::open_read_only(dir / "db", 0);
    rocksdb::SetPerfLevel(rocksdb::PerfLevel::kEnableCount);
    rocksdb::get_perf_context()->Reset();
    uint8_t r[4];
    d->read_record(0, i, r);
    const uint64_t reads = rocksdb::get_perf_context()->block_read_count;
    rocksdb::SetPerfLevel(rocksdb::PerfLevel::kDisable);
    // one, or none when it lies in the end of the file RocksDB read when it opened it (the
    // planes per tier of format 3 lay 800,000 bytes apart: four reads, or three)
    INFO("record " << i << ": " << reads << " data blocks read");
    CHECK(reads <= 1);
    bad += !std::equal(r, r + 4, recs.begin() + static_cast<long>(4 * i));
  }
  CHECK(bad == 0);
}

TEST_CASE("the block cache keeps blocks on either side of its pages' edges, lets the oldest go past its capacity, "
          "and reads a block it holds without loading it again",
          "[db]") {
  using toadbase::db::BlockCache;
  const uint64_t page = BlockCache::kPageSlots, blocks = 3 * page + 5;  // the last page partly used
  BlockCache cache(blocks, 4 * 100);  // four blocks of 100 bytes
  int loads = 0;
  auto block_of = [&loads](int v) {
    return [&loads, v] {
      ++loads;
      return BlockCache::Block(100, static_cast<uint8_t>(v));
    };
  };
  // each side of each page's edge, the first block and the last
  const std::vector<uint64_t> edges{0, page - 1, page, 2 * page - 1, 2 * page, 3 * page - 1, 3 * page, blocks - 1};
  for (const uint64_t g : edges) CHECK_FALSE(cache.holds(g));
  for (size_t i = 0; i < edges.size(); i += 2) {  // in pairs: the cache holds four blocks
    CHECK(cache.byte(edges[i], 7, block_of(1)) == 1);
    CHECK(cache.byte(edges[i + 1], 7, block_of(2)) == 2);
    CHECK(cache.holds(edges[i]));
    CHECK(cache.holds(edges[i + 1]));
    CHECK_FALSE(cache.holds(edges[i] + 1));  // a block beside one held, in its page
  }
  CHECK(loads == 8);
  CHECK_FALSE(cache.holds(0));  // the first four went as the last four came
  CHECK_FALSE(cache.holds(edges[3]));
  for (const uint64_t g : {edges[4], edges[5], edges[6]}) CHECK(cache.holds(g));
  BlockCache fresh(blocks, 4 * 100);  // no page made yet: nothing held, anywhere
  for (uint64_t g = 0; g < blocks; g += 100) CHECK_FALSE(fresh.holds(g));
  loads = 0;
  for (int i = 0; i < 4; ++i) CHECK(cache.byte(edges[i], 7, block_of(i + 1)) == i + 1);
  CHECK(loads == 4);
  for (int i = 0; i < 4; ++i) CHECK(cache.holds(edges[i]));
  CHECK(cache.block(edges[2], block_of(99))->at(0) == 3);  // held: not loaded again
  CHECK(loads == 4);
  CHECK_FALSE(cache.holds(blocks - 1));
  // a fifth block: the first loaded (block 0) goes
  CHECK(cache.byte(blocks - 1, 0, block_of(5)) == 5);
  CHECK_FALSE(cache.holds(0));
  CHECK(cache.holds(blocks - 1));
  // several at once: those held read, the others loaded (block 0 again: edges[1] goes)
  const uint64_t globals[3] = {edges[1], 0, blocks - 1}, offsets[3] = {1, 2, 99};
  uint8_t out[3] = {};
  cache.bytes(3, globals, offsets, out, [&](unsigned i) {
    ++loads;
    return BlockCache::Block(100, static_cast<uint8_t>(50 + i));
  });
  CHECK((out[0] == 2 && out[1] == 51 && out[2] == 5));
  CHECK(loads == 6);
  CHECK_FALSE(cache.holds(edges[1]));
  CHECK(cache.holds(0));
  CHECK_THROWS_AS(cache.byte(0, 100, block_of(0)), std::out_of_range);  // past the block's end
}

TEST_CASE("prefetch fetches scattered runs' blocks together, and the reads after it find them held, in either "
          "layout, and a run it cannot read is left to the read",
          "[db][layout]") {
  // a CGT query asks for its board's and children's records a step at a time: each step's
  // blocks are fetched at once, and the step's reads then take no block from RocksDB
  TempDir dir("db-prefetch");
  const uint64_t n = 200000;
  const std::vector<uint8_t> recs = write_wide(dir / "db", n, 11);
  // single records far apart, and a run over several blocks (1,024 records a block)
  const std::vector<toadbase::RecordRun> runs{{0, 5, 1}, {0, 77777, 1}, {0, 199999, 1}, {0, 120000, 3000}};
  // RocksDB data blocks this thread takes (from its files or its own cache) for `read`
  auto blocks_taken = [](auto&& read) {
    rocksdb::SetPerfLevel(rocksdb::PerfLevel::kEnableCount);
    rocksdb::get_perf_context()->Reset();
    read();
    const uint64_t taken = rocksdb::get_perf_context()->block_read_count + rocksdb::get_perf_context()->block_cache_hit_count;
    rocksdb::SetPerfLevel(rocksdb::PerfLevel::kDisable);
    return taken;
  };
  auto read_all = [&](const toadbase::TierSource& d) {
    uint64_t bad = 0;
    for (const auto& r : runs) {
      std::vector<uint8_t> got(r.count * 4);
      if (r.count == 1) d.read_record(0, r.first, got.data());
      else d.read_records(0, r.first, r.count, got.data());
      bad += !std::equal(got.begin(), got.end(), recs.begin() + static_cast<long>(4 * r.first));
    }
    return bad;
  };
  for (const bool format3 : {false, true}) {
    INFO((format3 ? "format 3 (planes per tier)" : "format 4 (planes per block)"));
    if (format3) {
      to_planes_per_tier(dir / "db", 4, 4096, {recs});
      RawDb raw(dir / "db");
      REQUIRE(raw.db->Flush(rocksdb::FlushOptions()).ok());
    }
    {
      auto d = Database::open_read_only(dir / "db");
      uint64_t bad = 0;
      CHECK(blocks_taken([&] { bad = read_all(*d); }) > 0);  // without it: the reads take blocks
      CHECK(bad == 0);
    }
    for (const bool through_reader : {false, true}) {
      auto d = Database::open_read_only(dir / "db");
      const auto reader = d->reader();
      const toadbase::TierSource& src = through_reader ? *reader : static_cast<const toadbase::TierSource&>(*d);
      src.prefetch(runs);
      uint64_t bad = 0;
      CHECK(blocks_taken([&] { bad = read_all(src); }) == 0);
      CHECK(bad == 0);
    }
  }
  // what a read refuses, prefetch leaves to it: no throw, and the read still says what is wrong
  auto d = Database::open_read_only(dir / "db");
  const std::vector<toadbase::RecordRun> wrong{{7, 0, 1}, {0, n, 1}, {0, 5, UINT64_MAX}, {0, n - 1, 2}, {0, 3, 0}};
  CHECK_NOTHROW(d->prefetch(wrong));
  uint8_t r[4];
  CHECK_THROWS_AS(d->read_record(0, n, r), DbError);
  // a cache of no room (what open_read_only(path, 0) makes, as a solve that finds its
  // database complete has it): nothing fetched
  {
    auto tiny = Database::open_read_only(dir / "db", 0);
    tiny->prefetch(runs);
    CHECK(blocks_taken([&] { CHECK(read_all(*tiny) == 0); }) > 0);
  }
  // a damaged block among the runs' (tier 0 lies in format 3 here: record 77777's plane 0
  // is in block 77777 / 4096 = 18): prefetch fetches the others and throws nothing, and the
  // read of the damaged one says what reading it said without a prefetch
  d.reset();
  std::string unprefetched;
  {
    RawDb raw(dir / "db");
    raw.put(block_key(0, 18), "not a block at all");
  }
  try {
    Database::open_read_only(dir / "db")->read_record(0, 77777, r);
  } catch (const DbError& e) {
    unprefetched = e.what();
  }
  REQUIRE_THAT(unprefetched, Contains("block 18") && Contains("damaged"));
  // the first two runs are 8 blocks (fetched on this thread: fewer than kParallelPrefetch),
  // all of them 16 (on every core: records 5 and 199,999 share three blocks, the run of
  // 3,000 spans 7)
  static_assert(Database::kParallelPrefetch > 8 && Database::kParallelPrefetch <= 16);
  for (const size_t k : {size_t{2}, runs.size()}) {
    INFO("a hint of the first " << k << " runs");
    auto damaged = Database::open_read_only(dir / "db");
    CHECK_NOTHROW(damaged->prefetch(std::span(runs).first(k)));
    uint8_t ok[4];
    damaged->read_record(0, 5, ok);  // the others read as before
    CHECK(std::equal(ok, ok + 4, recs.begin() + 20));
    CHECK_THROWS_WITH(damaged->read_record(0, 77777, r), unprefetched);
  }
}

TEST_CASE("a reader with a cache of decoded blocks as large as RocksDB's keeps them there only and not stored in "
          "RocksDB's as well (a smaller one has RocksDB's keep them)",
          "[db][layout]") {
  // RocksDB's block cache would hold every block a read takes beside the decoded one (a
  // fresh reader's CGT query paid for putting each block in it)
  TempDir dir("db-no-double-cache");
  const std::vector<uint8_t> recs = write_wide(dir / "db", 50000, 5);
  for (const size_t cache : {Database::kStoredCacheBytes, size_t{256} << 20, size_t{0}, size_t{1} << 20}) {
    INFO("a cache of " << cache << " bytes");
    auto d = Database::open_read_only(dir / "db", cache);
    const uint64_t before = d->stored_cache_bytes();
    uint8_t r[4];
    for (const uint64_t i : {30000, 5, 45000}) {  // 1,024 records a block
      d->read_record(0, i, r);
      CHECK(std::equal(r, r + 4, recs.begin() + static_cast<long>(4 * i)));
    }
    const std::vector<toadbase::RecordRun> runs{{0, 2000, 1}, {0, 9000, 1}, {0, 20000, 1}};
    d->prefetch(runs);  // one MultiGet
    for (const auto& run : runs) d->read_record(0, run.first, r);
    if (cache >= Database::kStoredCacheBytes) {
      CHECK(d->stored_cache_bytes() == before);
    } else {
      CHECK(d->stored_cache_bytes() > before);
    }
  }
}

TEST_CASE("prefetch of many blocks keeps to oneTBB's bound on parallelism (what serve --threads sets): under a "
          "bound of one it starts no thread",
          "[db][layout]") {
  // (a thread count cannot show that the hint went to the cores: oneTBB starts the worker that
  // the set-up's own parallel loops asked for once the bound goes)
  TempDir dir("db-prefetch-bound");
  const uint64_t per = 1024, blocks = 200, n = blocks * per;  // 4-byte records, 4 KiB blocks
  // a hint of 64 blocks, a record in each (Database::kParallelPrefetch or more: on the cores)
  std::vector<toadbase::RecordRun> hint;
  for (uint64_t b = 0; b < 64; ++b) hint.push_back({0, b * per + 3, 1});
  static_assert(Database::kParallelPrefetch <= 64);
  std::vector<uint8_t> recs;
  std::unique_ptr<Database> d;
  int before = 0;
  {
    // the set-up too (writing packs blocks on oneTBB's threads): no worker before the end
    tbb::global_control one(tbb::global_control::max_allowed_parallelism, 1);
    recs = write_wide(dir / "db", n, 17, false);
    d = Database::open_read_only(dir / "db");
    before = thread_count(::getpid());
    REQUIRE(before > 0);
    d->prefetch(hint);
    // oneTBB starts its workers as it wants them: a moment for one to show
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    CHECK(thread_count(::getpid()) == before);
  }
  uint8_t got[4];
  d->read_record(0, 5 * per + 3, got);  // what the hint fetched reads right
  CHECK(std::equal(got, got + 4, recs.begin() + static_cast<long>(4 * (5 * per + 3))));
}

TEST_CASE("prefetch fetches no more than kPrefetchBlocks blocks a hint, nor more than half its cache holds, the "
          "runs' first blocks first",
          "[db][layout]") {
  TempDir dir("db-prefetch-caps");
  const uint64_t per = 1024, blocks = 400, n = blocks * per;  // 4-byte records, 4 KiB blocks
  const std::vector<uint8_t> recs = write_wide(dir / "db", n, 13);
  std::vector<toadbase::RecordRun> runs;  // a record in each block, in block order
  for (uint64_t b = 0; b < blocks; ++b) runs.push_back({0, b * per + 7, 1});
  // how many of the runs, read in order after the hint, took no block from RocksDB
  auto held_after_prefetch = [&](size_t cache_bytes) {
    auto d = Database::open_read_only(dir / "db", cache_bytes);
    d->prefetch(runs);
    std::vector<int> held;
    uint64_t bad = 0;
    for (const auto& r : runs) {
      uint8_t got[4];
      rocksdb::SetPerfLevel(rocksdb::PerfLevel::kEnableCount);
      rocksdb::get_perf_context()->Reset();
      d->read_record(0, r.first, got);
      held.push_back(rocksdb::get_perf_context()->block_read_count + rocksdb::get_perf_context()->block_cache_hit_count == 0);
      rocksdb::SetPerfLevel(rocksdb::PerfLevel::kDisable);
      bad += !std::equal(got, got + 4, recs.begin() + static_cast<long>(4 * r.first));
    }
    CHECK(bad == 0);
    return held;
  };
  auto first_held = [](const std::vector<int>& held, size_t k) {  // the first k held, no other
    return std::all_of(held.begin(), held.begin() + static_cast<long>(k), [](int h) { return h; }) &&
           std::none_of(held.begin() + static_cast<long>(k), held.end(), [](int h) { return h; });
  };
  // a cache of 64 MiB: kPrefetchBlocks of the 400
  const auto big = held_after_prefetch(size_t{64} << 20);
  CHECK(std::count(big.begin(), big.end(), 1) == static_cast<long>(Database::kPrefetchBlocks));
  CHECK(first_held(big, Database::kPrefetchBlocks));
  // a cache of 40 blocks: 20, so that what the caller read before stays
  const auto small = held_after_prefetch(40 * 4096);
  CHECK(std::count(small.begin(), small.end(), 1) == 20);
  CHECK(first_held(small, 20));
}

TEST_CASE("a tier packed on another rank in another layout, of another size than the plan's, or not packed by toadbase is "
          "refused, naming what is wrong, and commits nothing",
          "[db][layout]") {
  TempDir dir("db-packed-layout");
  const unsigned width = 4;
  const uint64_t block = 4096, per = block / width;
  const Identity id{"wide", nlohmann::json::object(), "u32", width, static_cast<uint32_t>(block)};
  const std::vector<TierInfo> tiers{{"a", 2 * per + 100}};
  const auto recs = wide_records(tiers[0].positions, width, 77);
  auto d = Database::open_for_solve(dir / "db", id, tiers, 3);
  REQUIRE(d->planes_per_block());
  auto packed = [&](unsigned w, uint64_t b, bool per_block) {
    return Database::packer(w, 3, b, per_block)->pack(recs.data(), recs.size() / w, toadbase::kAllRecords);
  };
  const uint64_t whole = tiers[0].positions;
  auto commit = [&](const std::vector<uint8_t>& v, uint64_t count = 0, uint64_t keep = toadbase::kAllRecords) {
    if (!count) count = whole;
    d->commit_packed(0, v, count, keep);
  };
  const auto ours = Contains("this database holds records of 4 bytes in blocks of 4096 bytes, planes per block");
  // the other layout makes as many blocks of these 4-byte records: only the layout tells
  CHECK_THAT(db_error([&] { commit(packed(width, block, false)); }),
             ours && Contains("holds records of 4 bytes in blocks of 4096 bytes, planes per tier"));
  CHECK_THAT(db_error([&] { commit(packed(width, 2 * block, true)); }),
             ours && Contains("blocks of 8192 bytes, planes per block;"));
  CHECK_THAT(db_error([&] { commit(packed(2, block, true)); }), ours && Contains("records of 2 bytes"));
  CHECK_FALSE(d->has_tier(0));
  // cut short, or claiming more blocks than it holds: damaged
  auto good = packed(width, block, true);
  std::vector<uint8_t> cut(good.begin(), good.begin() + 40);
  CHECK_THAT(db_error([&] { commit(cut); }), Contains("is damaged (40 bytes)"));
  auto forged = [&](uint64_t positions, uint64_t kept, uint64_t blocks) {  // its header's counts
    std::vector<uint8_t> v = good;
    for (const auto& [at, x] : {std::pair{8, positions}, {16, kept}, {24, blocks}})
      for (int i = 0; i < 8; ++i) v[at + i] = static_cast<uint8_t>(x >> (8 * i));
    return v;
  };
  // more blocks than its records fill; as many as 2^40 records fill, more than it holds; a
  // count whose bytes overflow (each as the plan's size: the counts are checked also then)
  uint64_t layout_blocks = 0;  // good's count of blocks
  for (int i = 7; i >= 0; --i) layout_blocks = (layout_blocks << 8) | good[24 + i];
  const uint64_t n = tiers[0].positions, huge = uint64_t{1} << 40, over = uint64_t{1} << 62;
  CHECK_THAT(db_error([&] { commit(forged(n, n, 255)); }), Contains("does not add up (damaged)"));
  CHECK_THAT(db_error([&] { commit(forged(huge, huge, uint64_t{1} << 30), huge); }), Contains("does not add up (damaged)"));
  CHECK_THAT(db_error([&] { commit(forged(over, over, 0), over); }), Contains("does not add up (damaged)"));
  // a tier of another size, or keeping other records, than the solve's plan
  CHECK_THAT(db_error([&] { commit(good, n + 1); }),
             Contains("holds " + std::to_string(n) + " records keeping " + std::to_string(n) + "; the solve's plan has " +
                      std::to_string(n + 1) + " keeping " + std::to_string(n + 1)));
  CHECK_THAT(db_error([&] { commit(good, n, 7); }), Contains("the solve's plan has " + std::to_string(n) + " keeping 7"));
  CHECK_THAT(db_error([&] { commit(forged(n, n - 1, layout_blocks)); }), Contains("keeping " + std::to_string(n - 1) + "; the solve's plan"));
  // not a packed tier of this toadbase (another version's, or bytes of something else)
  std::vector<uint8_t> foreign = good;
  foreign[6] = 2;
  CHECK_THAT(db_error([&] { commit(foreign); }), Contains("is not a packed tier of this toadbase (its first bytes: 00026b6361706274)"));
  CHECK_FALSE(d->has_tier(0));
  commit(good, n, toadbase::kAllRecords);
  d->finish(tiers);
  d.reset();
  auto r = Database::open_read_only(dir / "db");
  std::vector<uint8_t> all(recs.size());
  r->load_tier(0, all.data());
  CHECK(all == recs);
}

TEST_CASE("a database of format 3 with records wider than a byte resumes in its own layout, also after its "
          "manifest is written anew by a repair",
          "[db][layout]") {
  TempDir dir("db-planes-resume");
  const unsigned width = 4;
  const uint64_t block = 4096, per = block / width;
  const Identity id{"wide", nlohmann::json::object(), "u32", width, static_cast<uint32_t>(block)};
  // c over several blocks, packed as another rank packs it: a packer of the other layout
  // makes as many blocks (4-byte records), so the packed tier names its layout
  const std::vector<TierInfo> tiers{{"a", 3 * per + 17}, {"b", 2 * per + 5}, {"c", 2 * per + 100}, {"d", 2 * per}};
  const std::vector<uint64_t> keep{toadbase::kAllRecords, per + 3, toadbase::kAllRecords, toadbase::kAllRecords};
  std::vector<std::vector<uint8_t>> recs;
  for (size_t t = 0; t < tiers.size(); ++t) recs.push_back(wide_records(tiers[t].positions, width, 50 + t));
  auto commit = [&](Database& d, TierId t) {
    if (t == 2) {  // as another rank packs it, in the database's own layout
      d.commit_packed(t, Database::packer(width, 3, block, d.planes_per_block())->pack(recs[t].data(), tiers[t].positions, keep[t]),
                      tiers[t].positions, keep[t]);
    } else if (t == 3) {
      d.commit_tier_from(t, tiers[t].positions, [&](uint64_t first, uint64_t count, void* out) {
        std::memcpy(out, recs[t].data() + first * width, count * width);
      });
    } else {
      d.commit_tier(t, recs[t].data(), tiers[t].positions, keep[t]);
    }
  };
  // every tier read back, by every path
  auto reads_back = [&](const std::string& path) {
    auto d = Database::open_read_only(path, 0);
    auto r = d->reader(1);
    uint64_t bad = 0;
    for (TierId t = 0; t < tiers.size(); ++t) {
      const uint64_t kept = d->tier_meta(t).kept;
      CHECK(kept == std::min(tiers[t].positions, keep[t]));
      CHECK(d->tier_meta(t).digest == toadbase::tier_digest(recs[t].data(), tiers[t].positions, width));
      std::vector<uint8_t> all(kept * width), one(width), two(width);
      d->load_tier(t, all.data());
      bad += !std::equal(all.begin(), all.end(), recs[t].begin());
      for (uint64_t i = 0; i < kept; i += 37) {
        d->read_record(t, i, one.data());
        r->read_record(t, i, two.data());
        bad += !std::equal(one.begin(), one.end(), recs[t].begin() + static_cast<long>(i * width)) || one != two;
      }
    }
    CHECK(bad == 0);
    CHECK(d->damaged_tiers().empty());
    return d->summary()["format_version"].get<int>();
  };
  const std::string path = dir / "db";
  {
    auto d = Database::open_for_solve(path, id, tiers, 3);
    commit(*d, 0);
    commit(*d, 1);
  }
  to_planes_per_tier(path, width, block, recs);
  {
    auto d = Database::open_for_solve(path, id, tiers, 3);
    CHECK_FALSE(d->planes_per_block());
    commit(*d, 2);
    commit(*d, 3);
    d->finish(tiers);
  }
  CHECK(reads_back(path) == 3);
  {
    // the tier committed on resume is in the plane stream of format 3
    RawDb raw(path);
    const toadbase::db::PlaneLayout old{width, tiers[2].positions, block, false};
    REQUIRE(old.blocks() >= 2);
    for (uint32_t b = 0; b < old.blocks(); ++b) {
      std::vector<uint8_t> want(block);
      old.gather(recs[2].data(), b, want.data());
      want.resize(old.block_size(b));
      CHECK(toadbase::db::decode_block(raw.get(block_key(2, b)), block, "block") == want);
    }
  }
  // the manifest lost (a killed solve's damaged log): a repair writes it anew in the layout
  // its tiers were written in, and keeps them all
  fs::copy(path, dir / "lost", fs::copy_options::recursive);
  RawDb(dir / "lost").del("manifest");
  {
    auto d = Database::open_for_solve(dir / "lost", id, tiers, 3, true);
    CHECK_FALSE(d->planes_per_block());
    CHECK(d->repaired_tiers().empty());
    d->finish(tiers);
  }
  CHECK(reads_back(dir / "lost") == 3);
  // a database of format 4 that lost its manifest: a tier kept whole says so, and the tier
  // kept in part over two blocks is kept
  {
    auto d = Database::open_for_solve(dir / "four", id, tiers, 3);
    commit(*d, 0);
    commit(*d, 1);
  }
  RawDb(dir / "four").del("manifest");
  {
    auto d = Database::open_for_solve(dir / "four", id, tiers, 3, true);
    CHECK(d->planes_per_block());
    CHECK(d->repaired_tiers().empty());
    CHECK(d->has_tier(1));
    commit(*d, 2);
    commit(*d, 3);
    d->finish(tiers);
  }
  CHECK(reads_back(dir / "four") == 4);
  // with only a tier that keeps a prefix (no digest tells the layout): it is solved again
  {
    auto d = Database::open_for_solve(dir / "prefix", id, tiers, 3);
    commit(*d, 1);
  }
  to_planes_per_tier(dir / "prefix", width, block, recs);
  RawDb(dir / "prefix").del("manifest");
  {
    auto d = Database::open_for_solve(dir / "prefix", id, tiers, 3, true);
    CHECK(d->planes_per_block());
    REQUIRE(d->repaired_tiers().size() == 1);
    CHECK(d->repaired_tiers()[0].first == 1);
    CHECK_THAT(d->repaired_tiers()[0].second, Contains("kept in part, in a layout that no tier"));
    CHECK_FALSE(d->has_tier(1));
    for (TierId t = 0; t < tiers.size(); ++t) commit(*d, t);
    d->finish(tiers);
  }
  CHECK(reads_back(dir / "prefix") == 4);
}

TEST_CASE("a compressed block holds its compressed bytes and not the worst case", "[db][codec]") {
  // a tier's blocks wait in memory until their group is written: each kept the capacity of
  // the worst case (more than the raw block), so committing a tier of 4 GB held 4 GB more
  std::vector<uint8_t> raw(65536);
  for (size_t i = 0; i < raw.size(); ++i) raw[i] = static_cast<uint8_t>(i / 4096);
  const std::string v = toadbase::db::encode_block(raw.data(), raw.size(), 3);
  CHECK(v.size() < 1024);
  CHECK(v.capacity() < 2 * v.size());
  CHECK(toadbase::db::decode_block(v, raw.size(), "block") == raw);
}

namespace {

/// A table option of the newest OPTIONS file RocksDB wrote in database `path` (what its
/// compactions write files with); "" when it names none.
std::string table_option(const std::string& path, const std::string& name) {
  std::string newest;
  for (const auto& e : fs::directory_iterator(path))
    if (e.path().filename().string().rfind("OPTIONS-", 0) == 0 && e.path().string() > newest) newest = e.path().string();
  REQUIRE(!newest.empty());
  std::ifstream options(newest);
  std::string line, value;
  bool in_table = false;
  while (std::getline(options, line)) {
    const size_t at = line.find_first_not_of(' ');
    if (line.rfind("[", 0) == 0) in_table = line.rfind("[TableOptions/BlockBasedTable", 0) == 0;
    else if (in_table && at != std::string::npos && line.compare(at, name.size() + 1, name + "=") == 0)
      value = line.substr(at + name.size() + 1);
  }
  return value;
}

/// 48 tiers of 96 KiB of random records (7 values) committed one by one into a database of
/// `block_bytes` blocks: RocksDB ingests them and compacts some of them into levels.
std::vector<std::vector<uint8_t>> many_tiers(const std::string& path, uint32_t block_bytes) {
  std::mt19937_64 rng(11);
  std::vector<TierInfo> tiers;
  std::vector<std::vector<uint8_t>> recs;
  for (int t = 0; t < 48; ++t) {
    recs.emplace_back(size_t{96} << 10);
    for (auto& r : recs.back()) r = static_cast<uint8_t>(rng() % 7);
    tiers.push_back({"t" + std::to_string(t), recs.back().size()});
  }
  const Identity id{"toads-frogs", {{"length", 5}}, "remoteness-u8-parity", 1, block_bytes};
  auto d = Database::open_for_solve(path, id, tiers, 3);
  for (toadbase::TierId t = 0; t < tiers.size(); ++t)
    d->commit_tier(t, recs[t].data(), recs[t].size(), toadbase::kAllRecords);
  d->finish(tiers);
  return recs;
}

/// The mean bytes of a data block over every file of database `path`.
double mean_data_block(const std::string& path) {
  rocksdb::DB* raw = nullptr;
  REQUIRE(rocksdb::DB::OpenForReadOnly(rocksdb::Options(), path, &raw).ok());
  std::unique_ptr<rocksdb::DB> db(raw);
  rocksdb::TablePropertiesCollection props;
  REQUIRE(db->GetPropertiesOfAllTables(&props).ok());
  uint64_t bytes = 0, blocks = 0;
  for (const auto& [file, p] : props) bytes += p->data_size, blocks += p->num_data_blocks;
  REQUIRE(blocks > 0);
  return static_cast<double>(bytes) / static_cast<double>(blocks);
}

}  // namespace

TEST_CASE("a database of small blocks has data blocks as small in its files, those RocksDB compacts too", "[db]") {
  // a read takes a whole data block from its file: a game that asks for 4 KiB blocks (a query
  // reading many scattered records) read 32 KiB for each; a database of the default blocks
  // keeps data blocks of 32 KiB (a smaller one would grow its index, read whole at open)
  TempDir dir("db-data-blocks");
  const std::string small = dir / "small", plain = dir / "plain";
  many_tiers(small, 4096);
  many_tiers(plain, 0);
  const double small_block = mean_data_block(small), plain_block = mean_data_block(plain);
  INFO("mean data block: " << small_block << " bytes (4 KiB blocks), " << plain_block << " (64 KiB)");
  CHECK(small_block < 6 << 10);
  CHECK(plain_block > 24 << 10);
  CHECK(table_option(small, "block_size") == "4096");
  CHECK(table_option(plain, "block_size") == "32768");
}

TEST_CASE("a database resumed by a solve that names other blocks keeps the data blocks of its own", "[db]") {
  // its records stay cut in its own blocks (the manifest's); the files its resume writes too
  TempDir dir("db-resume-blocks");
  const std::string path = dir / "db";
  const Identity small{"wide", nlohmann::json::object(), "u8", 1, 4096};
  const std::vector<TierInfo> tiers{{"a", 70000}, {"b", 70000}};
  std::vector<uint8_t> a(70000), b(70000);
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<uint8_t>(i * 2654435761u >> 13), b[i] = a[i] ^ 0x5a;
  Database::open_for_solve(path, small, tiers, 3)->commit(0, a);
  Identity plain = small;
  plain.block_bytes = 0;
  {
    auto d = Database::open_for_solve(path, plain, tiers, 3);
    CHECK(d->block_bytes() == 4096);
    d->commit(1, b);
    d->finish(tiers);
  }
  CHECK(table_option(path, "block_size") == "4096");
  CHECK(mean_data_block(path) < 6 << 10);
  auto d = Database::open_read_only(path);
  CHECK(d->load<uint8_t>(0) == a);
  CHECK(d->load<uint8_t>(1) == b);
}

TEST_CASE("every file of a database carries a Bloom filter, those RocksDB compacts too", "[db]") {
  // many tiers committed one by one: RocksDB ingests them and compacts some into levels
  // whose key ranges overlap; without filters a lookup read a data block in every level
  // whose range spans its key
  TempDir dir("db-bloom");
  const std::string path = dir / "db";
  const std::vector<std::vector<uint8_t>> recs = many_tiers(path, 16384);
  {
    rocksdb::DB* raw = nullptr;
    REQUIRE(rocksdb::DB::OpenForReadOnly(rocksdb::Options(), path, &raw).ok());
    std::unique_ptr<rocksdb::DB> db(raw);
    rocksdb::TablePropertiesCollection props;
    REQUIRE(db->GetPropertiesOfAllTables(&props).ok());
    REQUIRE(props.size() > 1);
    for (const auto& [file, p] : props) {
      INFO(file);
      CHECK(p->filter_policy_name == "bloomfilter");
    }
  }
  // the files RocksDB writes itself take the options the solve opened the database with
  CHECK_THAT(table_option(path, "filter_policy"), Contains("bloomfilter"));
  // a fresh reader: one record of every tier, one data block read each (these few files do
  // not overlap; a large database's levels do, where the filters spare the other levels' reads)
  auto d = Database::open_read_only(path, 0);
  rocksdb::SetPerfLevel(rocksdb::PerfLevel::kEnableCount);
  rocksdb::get_perf_context()->Reset();
  uint64_t bad = 0;
  for (toadbase::TierId t = 0; t < recs.size(); ++t) {
    uint8_t r = 0;
    d->read_record(t, 5000 + 1000 * t, &r);
    bad += r != recs[t][5000 + 1000 * t];
  }
  const uint64_t blocks_read = rocksdb::get_perf_context()->block_read_count;
  rocksdb::SetPerfLevel(rocksdb::PerfLevel::kDisable);
  CHECK(bad == 0);
  INFO(blocks_read << " blocks read for " << recs.size() << " lookups");
  CHECK(blocks_read <= recs.size());
}

TEST_CASE("commit_tier_held: the whole blocks a commit compressed, unpacked by the database's codec, lead a tier "
          "held packed, and the database holds what commit_tier would",
          "[db][packed]") {
  TempDir dir("db-held");
  const auto recs = sample_records(5);
  auto d = Database::open_for_solve(dir / "held", kId, kTiers, 3);
  auto plain = Database::open_for_solve(dir / "plain", kId, kTiers, 3);
  const toadbase::RecordCodec& codec = *d->record_codec();
  constexpr uint64_t kBlock = toadbase::PackedTier::kBlock;
  // tier, records kept, whole blocks given back (the kept records' last block only when full)
  struct Case {
    TierId t;
    uint64_t keep, blocks;
  };
  for (const Case c : {Case{1, toadbase::kAllRecords, 2}, Case{3, toadbase::kAllRecords, 1}, Case{0, toadbase::kAllRecords, 0},
                       Case{kDerived, 0, 0}, Case{1, 140000, 2}, Case{1, 131071, 1}, Case{1, 131072, 2}}) {
    INFO("tier " << c.t << " keeping " << c.keep);
    const std::vector<Record>& r = recs[c.t];
    std::vector<std::vector<uint8_t>> blocks = d->commit_tier_held(c.t, r.data(), r.size(), c.keep);
    plain->commit_tier(c.t, r.data(), r.size(), c.keep);
    REQUIRE(blocks.size() == c.blocks);
    std::vector<uint8_t> back(kBlock);
    for (uint64_t b = 0; b < blocks.size(); ++b) {
      codec.unpack(blocks[b], back.data(), kBlock);
      CHECK(std::equal(back.begin(), back.end(), r.begin() + static_cast<ptrdiff_t>(b * kBlock)));
    }
    // held packed: the given blocks, the rest packed from the records, every record read back
    const toadbase::PackedTier held(codec, r.data(), r.size(), std::move(blocks));
    std::vector<uint8_t> whole(r.size());
    held.unpack(whole.data());
    CHECK(std::equal(whole.begin(), whole.end(), r.begin()));
    toadbase::UnpackedBlocks cache;
    const toadbase::HeldRecords<Record> read(nullptr, &held, &cache);
    uint64_t bad = 0;
    for (uint64_t i = 0; i < r.size(); i += 7) bad += read[i] != r[i];
    CHECK(bad == 0);
    d->flush();
    plain->flush();
    CHECK(d->tier_meta(c.t).kept == plain->tier_meta(c.t).kept);
    CHECK(d->tier_meta(c.t).digest == plain->tier_meta(c.t).digest);
    CHECK(d->tier_meta(c.t).stored_bytes == plain->tier_meta(c.t).stored_bytes);
    CHECK(d->load<Record>(c.t) == plain->load<Record>(c.t));
  }
  // a block of the codec's own: the same layout (eight bytes before the frame), and damage refused
  const std::vector<uint8_t> own = codec.pack(recs[1].data(), kBlock);
  std::vector<uint8_t> back(kBlock);
  codec.unpack(own, back.data(), kBlock);
  CHECK(std::equal(back.begin(), back.end(), recs[1].begin()));
  CHECK_THROWS_AS(codec.unpack(std::span<const uint8_t>(own.data(), 7), back.data(), kBlock), DbError);
  CHECK_THROWS_AS(codec.unpack(std::span<const uint8_t>(own.data() + 8, own.size() - 8), back.data(), kBlock), DbError);
  // records wider than a byte (their blocks hold planes, never the records as they lie), and
  // blocks of another size than the tiers held packed: none given, each alone
  const Identity wide{"wide", nlohmann::json::object(), "u32", 4, 65536};
  auto w = Database::open_for_solve(dir / "wide", wide, {{"ids", 70000}}, 3);
  const std::vector<uint8_t> four(70000 * 4, 3);
  CHECK(w->commit_tier_held(0, four.data(), 70000, toadbase::kAllRecords).empty());
  const Identity small{"wide", nlohmann::json::object(), "u8", 1, 4096};
  auto s = Database::open_for_solve(dir / "small", small, {{"a", 70000}}, 3);
  CHECK(s->commit_tier_held(0, four.data(), 70000, toadbase::kAllRecords).empty());
}
