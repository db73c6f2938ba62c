// Faults around a database, through the real binary: refused and finished solves write
// nothing, a read-only mount answers every read command, a full disk fails clearly and
// resumes, damage is repaired to the original digest, a commit record that lies is caught.
// Tests that need to mount a file system (tmpfs, a read-only bind mount) say so and skip
// where mounting is not allowed.
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <rocksdb/db.h>

#include "support.hpp"

using namespace tbtest;
using Catch::Matchers::Contains;
using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

/// Every file of a directory with its size and modification time.
std::map<std::string, std::pair<uintmax_t, fs::file_time_type>> snapshot(const std::string& dir) {
  std::map<std::string, std::pair<uintmax_t, fs::file_time_type>> out;
  for (const auto& e : fs::directory_iterator(dir)) out[e.path().filename()] = {fs::file_size(e.path()), e.last_write_time()};
  return out;
}

/// A mount point the test owns (unmounted at the end); empty when mounting is not allowed.
class Mount {
 public:
  Mount(const std::string& target, const std::string& source, const std::string& type, unsigned long flags,
        const std::string& options)
      : target_(target) {
    fs::create_directories(target);
    ok_ = ::mount(source.c_str(), target.c_str(), type.empty() ? nullptr : type.c_str(), flags,
                  options.empty() ? nullptr : options.c_str()) == 0;
  }
  ~Mount() {
    if (ok_) ::umount2(target_.c_str(), MNT_DETACH);
  }
  bool ok() const { return ok_; }
  /// Remounts with other flags or options (a read-only bind, a bigger tmpfs).
  bool remount(unsigned long flags, const std::string& options) {
    return ::mount(nullptr, target_.c_str(), nullptr, MS_REMOUNT | flags, options.empty() ? nullptr : options.c_str()) == 0;
  }

 private:
  std::string target_;
  bool ok_ = false;
};

std::string no_tmp_files(const std::string& dir) {
  std::string found;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.path().extension() == ".tmp" || e.path().extension() == ".partial") found += e.path().string() + " ";
  return found;
}

/// Raw RocksDB access beneath a closed database.
void raw_put(const std::string& path, const std::string& key, const std::string& value) {
  rocksdb::DB* raw = nullptr;
  REQUIRE(rocksdb::DB::Open(rocksdb::Options(), path, &raw).ok());
  std::unique_ptr<rocksdb::DB> db(raw);
  REQUIRE(db->Put(rocksdb::WriteOptions(), key, value).ok());
}
void raw_delete(const std::string& path, const std::string& key) {
  rocksdb::DB* raw = nullptr;
  REQUIRE(rocksdb::DB::Open(rocksdb::Options(), path, &raw).ok());
  std::unique_ptr<rocksdb::DB> db(raw);
  REQUIRE(db->Delete(rocksdb::WriteOptions(), key).ok());
}
std::string raw_get(const std::string& path, const std::string& key) {
  rocksdb::DB* raw = nullptr;
  REQUIRE(rocksdb::DB::OpenForReadOnly(rocksdb::Options(), path, &raw).ok());
  std::unique_ptr<rocksdb::DB> db(raw);
  std::string v;
  REQUIRE(db->Get(rocksdb::ReadOptions(), key, &v).ok());
  return v;
}

std::string digest_of(const std::string& db) { return json::parse(ok({"info", "--db", db, "--json"}).out).at("digest"); }

const std::vector<std::string> kSolve10 = {"solve", "toads-frogs", "--length", "10", "--quiet", "--db"};

std::vector<std::string> with(std::vector<std::string> args, const std::string& last) {
  args.push_back(last);
  return args;
}

}  // namespace

TEST_CASE("faults: a refused solve, or one with nothing left to do, writes nothing", "[db][faults]") {
  TempDir dir("faults-refused");
  const std::string db = dir / "tf6";
  ok({"solve", "toads-frogs", "--length", "6", "--db", db, "--quiet"});
  const auto before = snapshot(db);
  CHECK_THAT(ok({"solve", "toads-frogs", "--length", "6", "--db", db}).out, Contains("already complete"));
  const RunResult other = run_toadbase({"solve", "toads-frogs", "--length", "7", "--db", db});
  CHECK(other.rc == 1);
  CHECK_THAT(other.err, Contains("holds") && Contains("\"length\":6"));
  const RunResult game = run_toadbase({"solve", "frog-puzzle", "--left", "2", "--db", db});
  CHECK(game.rc == 1);
  CHECK_THAT(game.err, Contains("toads-frogs"));
  CHECK(snapshot(db) == before);  // no WAL, MANIFEST or OPTIONS file added or rewritten
}

TEST_CASE("faults: a database on a read-only mount answers every read command", "[db][faults]") {
  TempDir dir("faults-ro");
  const std::string db = dir / "tf8";
  ok({"solve", "toads-frogs", "--length", "8", "--db", db, "--quiet"});
  Mount ro(dir / "ro", db, "", MS_BIND, "");
  if (!ro.ok() || !ro.remount(MS_BIND | MS_RDONLY, "")) {
    WARN("skipped: this test needs to bind-mount a directory read-only (mount(2) was refused)");
    std::cout << "figure readonly skipped=1\n";
    return;
  }
  const std::string rodb = dir / "ro";
  CHECK(::access((rodb + "/probe").c_str(), F_OK) != 0);
  CHECK(digest_of(rodb) == digest_of(db));
  CHECK_THAT(ok({"query", "--db", rodb, "1_TTT--FFF"}).out, Contains("\"positionValue\""));
  CHECK_THAT(ok({"verify", "--db", rodb, "--quiet"}).out, Contains("OK"));
  ok({"analyze", "--db", rodb, "--json"});
  ok({"export", "--db", rodb, dir / "out.bin"});
  CHECK_THAT(ok({"solve", "toads-frogs", "--length", "8", "--db", rodb}).out, Contains("already complete"));
  const RunResult refused = run_toadbase({"solve", "toads-frogs", "--length", "9", "--db", rodb});
  CHECK(refused.rc == 1);
  CHECK_THAT(refused.err, Contains("holds"));
  CHECK_FALSE(Contains("IO error").match(refused.err));
  std::cout << "figure readonly commands=6 answered=6\n";
}

TEST_CASE("faults: a full disk fails with one clear message, leaves no partial file, and resumes to the same digest",
          "[db][faults]") {
  TempDir dir("faults-full");
  const std::string ref = dir / "ref";
  ok({"solve", "toads-frogs", "--length", "14", "--db", ref, "--quiet"});
  Mount small(dir / "small", "tmpfs", "tmpfs", 0, "size=400k");
  if (!small.ok()) {
    WARN("skipped: this test needs to mount a small tmpfs (mount(2) was refused)");
    std::cout << "figure diskfull skipped=1\n";
    return;
  }
  const std::string db = dir / "small/tf14";
  const std::vector<std::string> solve = {"solve", "toads-frogs", "--length", "14", "--db", db, "--quiet"};
  for (int attempt = 0; attempt < 2; ++attempt) {  // and again while the disk is still full
    const RunResult r = run_toadbase(solve);
    INFO(describe(solve, r));
    CHECK(r.rc == 1);  // not an abort
    CHECK_THAT(r.err, Contains("no space left") && Contains(db));
    CHECK_FALSE(Contains("While appending").match(r.err));
    CHECK(no_tmp_files(dir / "small") == "");
    CHECK(json::parse(ok({"info", "--db", db, "--json"}).out).at("complete") == false);
  }
  // every other write path on the full disk: the last bytes taken by a filler first
  {
    std::ofstream filler(dir / "small/filler", std::ios::binary);
    const std::string chunk(4096, 'x');
    while (filler.write(chunk.data(), static_cast<std::streamsize>(chunk.size())) && filler.flush()) {
    }
  }
  write_file(dir / "rolls.txt", "5\n21\n21\n10\n14\n27\n");
  const std::vector<std::vector<std::string>> writers = {
      {"export", "--db", ref, dir / "small/out.bin"},
      {"export", "--db", ref, "--format", "tsv", dir / "small/out.tsv"},
      {"river-toad", "solve", dir / "rolls.txt", dir / "small/plan.txt"},
      {"solve", "forest", "--side", "3", "--quiet", "--db", dir / "small/forest"},
  };
  int refused = 0;
  for (const auto& args : writers) {
    const RunResult r = run_toadbase(args);
    INFO(describe(args, r));
    CHECK(r.rc == 1);
    CHECK_THAT(r.err, Contains("no space left") && Contains(args.back()));
    CHECK(no_tmp_files(dir / "small") == "");
    if (args[0] == "solve") {  // never claimed complete (when anything was written at all)
      const RunResult info = run_toadbase({"info", "--db", args.back(), "--json"});
      CHECK((info.rc == 1 || json::parse(info.out).at("complete") == false));
    } else {
      CHECK_FALSE(fs::exists(args.back()));
    }
    refused += r.rc == 1;
  }
  std::cout << "figure diskfull writers=" << writers.size() + 2 << " refused=" << refused + 2 << "\n";
  fs::remove(dir / "small/filler");
  REQUIRE(small.remount(0, "size=64m"));
  ok(solve);
  CHECK(digest_of(db) == digest_of(ref));
  CHECK_THAT(ok({"verify", "--db", db, "--quiet"}).out, Contains("OK"));
}

namespace {

/// Takes all but `kib` KiB of the free space of the file system holding `dir` with the file
/// `filler` (replaced).
void leave_free(const std::string& dir, const std::string& filler, uint64_t kib) {
  fs::remove(filler);
  struct statvfs st {};
  REQUIRE(::statvfs(dir.c_str(), &st) == 0);
  const uint64_t free = static_cast<uint64_t>(st.f_bavail) * st.f_frsize;
  if (free <= kib * 1024) return;
  const int fd = ::open(filler.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  REQUIRE(fd >= 0);
  const int rc = ::posix_fallocate(fd, 0, static_cast<off_t>(free - kib * 1024));
  ::close(fd);
  REQUIRE(rc == 0);
}

}  // namespace

TEST_CASE("faults: a nearly full disk stops a solve with a clear message at every fill level, and the solve resumes",
          "[db][faults]") {
  // RocksDB 7.8 aborted the solve (its assertion sync_without_flush_called_, exit 134) when a
  // write to its log failed and it was used again: the final manifest's write at 1.5-1.8 MiB
  // free for length 14 (176-384 KiB for length 10), its info log inside DB::Open at 16 KiB
  TempDir dir("faults-nearly-full");
  std::map<std::string, std::string> reference;
  for (const char* length : {"10", "14"}) {
    const std::string ref = dir / (std::string("ref") + length);
    ok({"solve", "toads-frogs", "--length", length, "--db", ref, "--quiet"});
    reference[length] = digest_of(ref);
  }
  Mount disk(dir / "disk", "tmpfs", "tmpfs", 0, "size=20m");
  if (!disk.ok()) {
    WARN("SKIPPED: this test needs to mount a 20 MiB tmpfs (mount(2) was refused)");
    std::cout << "figure nearlyfull skipped=1\n";
    return;
  }
  const std::string mnt = dir / "disk", filler = dir / "disk/filler", db = dir / "disk/tf";
  int runs = 0, refused = 0, completed = 0;
  // one run at `kib` free: it completes with the reference digest or says no space is left
  // (naming the database), never aborts, and leaves no partial file
  auto attempt = [&](const std::string& length, uint64_t kib) {
    const std::vector<std::string> solve = {"solve", "toads-frogs", "--length", length, "--db", db, "--json"};
    leave_free(mnt, filler, kib);
    const RunResult r = run_toadbase(solve);
    INFO(kib << " KiB free: " << describe(solve, r));
    ++runs;
    REQUIRE((r.rc == 0 || r.rc == 1));  // 134: aborted
    CHECK(no_tmp_files(mnt) == "");
    if (r.rc == 0) {
      CHECK(json::parse(r.out).at("digest") == reference[length]);
      ++completed;
    } else {
      CHECK_THAT(json::parse(r.out).at("error").get<std::string>(),
                 Contains("no space left on the device") && Contains(db));
      ++refused;
    }
    return r.rc == 0;
  };
  // each fill level: a first solve; when refused, a resume of what it left with less space
  // still, then with the space back, which ends with the reference digest
  auto step = [&](const std::string& length, uint64_t kib) {
    fs::remove_all(db);
    const bool done = attempt(length, kib);
    if (!done) attempt(length, kib / 2);
    fs::remove(filler);
    const RunResult r = ok({"solve", "toads-frogs", "--length", length, "--db", db, "--json"});
    CHECK(json::parse(r.out).at("digest") == reference[length]);
    return done;
  };
  // length 10 from a full disk to past where it completes: 8 KiB steps to 64 KiB, then 64 KiB
  uint64_t completes_at = 0;
  for (uint64_t kib = 0;; kib += kib < 64 ? 8 : 64) {
    REQUIRE(kib <= 4096);  // a solve of length 10 fits in 4 MiB
    const bool done = step("10", kib);
    if (completes_at) CHECK(done);  // and with more space still
    else if (done) completes_at = kib;
    if (completes_at && kib >= completes_at + 64) break;
  }
  // the case: length 14 on a 20 MiB tmpfs at 1.5 and 1.75 MiB free
  for (uint64_t kib : {1536, 1792}) step("14", kib);
  std::cout << "figure nearlyfull runs=" << runs << " refused=" << refused << " completed=" << completed
            << " aborted=0 length10_completes_at_kib=" << completes_at << "\n";
}

TEST_CASE("faults: solve --repair solves damaged tiers again and ends with the original digest", "[db][faults]") {
  TempDir dir("faults-repair");
  const std::string db = dir / "tf10";
  ok(with(kSolve10, db));
  const std::string reference = digest_of(db);
  const std::vector<std::string> repair = {"solve", "toads-frogs", "--length", "10", "--repair", "--db", db};

  SECTION("a damaged block") {
    raw_put(db, block_key(0, 0), "12345678garbage-garbage");
    const RunResult v = run_toadbase({"verify", "--db", db, "--quiet"});
    CHECK(v.rc == 1);
    CHECK_THAT(v.out, Contains("tier 0 block 0") && Contains("damaged"));
    const RunResult r = ok(repair);
    CHECK_THAT(r.err, Contains("repair: tier") && Contains("solved again"));
  }
  SECTION("a damaged commit record") {
    raw_put(db, tier_key(4), "short");
    const RunResult info = run_toadbase({"info", "--db", db});
    CHECK(info.rc == 1);
    CHECK_THAT(info.err, Contains("tier 4") && Contains("damaged"));
    CHECK_THAT(ok(repair).err, Contains("commit record was damaged"));
  }
  SECTION("a commit record that adds up but claims another size") {
    std::string v = raw_get(db, tier_key(4));
    REQUIRE(v.size() == 40);
    auto bump = [&](size_t at) {  // a little-endian u64 plus one (records of one byte)
      for (size_t i = at; i < at + 8 && ++reinterpret_cast<uint8_t&>(v[i]) == 0; ++i) {
      }
    };
    bump(0);   // positions
    bump(32);  // kept
    raw_put(db, tier_key(4), v);
    const RunResult r = ok(repair);
    CHECK_THAT(r.err, Contains("its commit record says") && Contains("records, the tier has"));
    CHECK_THAT(r.err, !Contains("commit record was damaged"));
  }
  SECTION("a damaged manifest") {
    raw_put(db, "manifest", "{\"format\": \"toadbase\", garbage");
    const RunResult info = run_toadbase({"info", "--db", db});
    CHECK(info.rc == 1);
    CHECK_THAT(info.err, Contains("manifest is damaged"));
    // the repair needs the parameters, and refuses records that do not fit them
    const RunResult wrong = run_toadbase({"solve", "toads-frogs", "--length", "9", "--repair", "--db", db});
    CHECK(wrong.rc == 1);
    CHECK_THAT(wrong.err, Contains("not this database's tier") || Contains("damaged"));
    ok(repair);
  }
  SECTION("a lost manifest (a killed solve's damaged log loses its first write): repair writes it again") {
    raw_delete(db, "manifest");
    const RunResult info = run_toadbase({"info", "--db", db});
    CHECK(info.rc == 1);
    CHECK_THAT(info.err, Contains("no manifest") && Contains("solve --repair"));
    const RunResult plain = run_toadbase({"solve", "toads-frogs", "--length", "10", "--db", db});
    CHECK(plain.rc == 1);  // a plain solve does not guess
    // the repair needs the parameters, and refuses records that do not fit them
    const RunResult wrong = run_toadbase({"solve", "toads-frogs", "--length", "9", "--repair", "--db", db});
    CHECK(wrong.rc == 1);
    ok(repair);
  }
  SECTION("a damaged per-tier list: lookups still work, repair writes it again") {
    raw_put(db, "tiers", "[{\"name\": ");
    ok({"query", "--db", db, "1_TTT----FFF"});
    ok({"info", "--db", db});
    const RunResult t = run_toadbase({"info", "--db", db, "--tiers"});
    CHECK(t.rc == 1);
    CHECK_THAT(t.err, Contains("per-tier list is damaged"));
    CHECK_THAT(ok(repair).err, Contains("written again"));
    ok({"info", "--db", db, "--tiers"});
  }
  CHECK(digest_of(db) == reference);
  CHECK_THAT(ok({"verify", "--db", db, "--quiet"}).out, Contains("OK"));
  CHECK_THAT(ok(repair).err, Contains("nothing damaged"));
}

TEST_CASE("faults: solve --repair never takes over a RocksDB database of someone else's", "[db][faults]") {
  TempDir dir("faults-foreign");
  const std::string db = dir / "theirs";
  {
    rocksdb::Options o;
    o.create_if_missing = true;
    rocksdb::DB* raw = nullptr;
    REQUIRE(rocksdb::DB::Open(o, db, &raw).ok());
    std::unique_ptr<rocksdb::DB> d(raw);
    REQUIRE(d->Put(rocksdb::WriteOptions(), "their key", "their value").ok());
  }
  const RunResult r = run_toadbase({"solve", "toads-frogs", "--length", "6", "--repair", "--db", db});
  CHECK(r.rc == 1);
  CHECK_THAT(r.err, Contains("not a toadbase one"));
  CHECK(raw_get(db, "their key") == "their value");
  rocksdb::DB* raw = nullptr;
  REQUIRE(rocksdb::DB::OpenForReadOnly(rocksdb::Options(), db, &raw).ok());
  std::unique_ptr<rocksdb::DB> d(raw);
  std::string v;
  CHECK(d->Get(rocksdb::ReadOptions(), "manifest", &v).IsNotFound());  // nothing written
}

TEST_CASE("faults: a commit record claiming 2^40 records is named as damage, not an allocation failure", "[db][faults]") {
  TempDir dir("faults-huge");
  const std::string db = dir / "tf6";
  ok({"solve", "toads-frogs", "--length", "6", "--db", db, "--quiet"});
  std::string v = raw_get(db, tier_key(2));
  REQUIRE(v.size() == 40);
  for (int i = 0; i < 8; ++i) v[i] = static_cast<char>(((uint64_t{1} << 40) >> (8 * i)) & 0xff);  // positions
  for (int i = 0; i < 8; ++i) v[32 + i] = static_cast<char>(((uint64_t{1} << 40) >> (8 * i)) & 0xff);  // kept
  for (int i = 0; i < 8; ++i) v[8 + i] = static_cast<char>(((uint64_t{1} << 24) >> (8 * i)) & 0xff);  // blocks
  raw_put(db, tier_key(2), v);
  const RunResult r = run_toadbase({"query", "--db", db, "1_TT--FF"});
  CHECK(r.rc == 1);
  CHECK_THAT(r.err, Contains("tier 2 is damaged") && Contains("claims"));
  CHECK_FALSE(Contains("bad_alloc").match(r.err));
}

TEST_CASE("faults: a damaged byte in any file of a database is caught by info or the first read, never a wrong answer",
          "[db][faults]") {
  TempDir dir("faults-bytes");
  const std::string good = dir / "tf9";
  ok({"solve", "toads-frogs", "--length", "9", "--db", good, "--quiet"});
  // positions from every corner of the space, and their answers from the intact database
  std::string input;
  for (const char* b : {"TTT---FFF", "T-T-F-F--", "---TTFF--", "FTFTFTFT-", "TF-------", "-------TF"})
    for (const char* turn : {"1_", "2_"}) input += std::string(turn) + b + "\n";
  const std::string answers = ok({"query", "--db", good, "-"}, input).out;
  std::mt19937 rng(7);
  int files = 0, caught = 0, harmless = 0;
  for (const auto& e : fs::directory_iterator(good)) {
    const std::string name = e.path().filename();
    const uintmax_t size = fs::file_size(e.path());
    if (size == 0 || name == "LOCK" || name == "LOG" || name == "IDENTITY") continue;
    ++files;
    for (int k = 0; k < 6; ++k) {
      const std::string db = dir / ("damaged-" + std::to_string(files) + "-" + std::to_string(k));
      fs::copy(good, db);
      std::string bytes = read_file(db + "/" + name);
      const size_t at = rng() % bytes.size();
      bytes[at] = static_cast<char>(bytes[at] ^ (1 + rng() % 255));
      write_file(db + "/" + name, bytes);
      INFO(name << " byte " << at);
      const RunResult q = run_toadbase({"query", "--db", db, "-"}, input);
      if (q.rc == 0) {
        CHECK(q.out == answers);  // a damaged file may still answer, but only rightly
        const RunResult v = run_toadbase({"verify", "--db", db, "--quiet"});
        CHECK((v.rc == 0 || v.rc == 1));
        ++harmless;
      } else {
        CHECK(q.rc == 1);  // an error, not a crash
        CHECK_FALSE(q.err.empty());
        CHECK_FALSE(Contains("terminate").match(q.err));
        ++caught;
      }
      fs::remove_all(db);
    }
  }
  CHECK(files >= 4);  // tables, MANIFEST, CURRENT, OPTIONS
  CHECK(caught > 0);
  INFO("caught " << caught << ", harmless " << harmless);
  std::cout << "figure damage files=" << files << " flips=" << caught + harmless << " caught=" << caught
            << " harmless=" << harmless << "\n";
}

TEST_CASE("faults: a query batch answers every position it can when a block is damaged, and names the others",
          "[db][faults]") {
  TempDir dir("faults-batch");
  const std::string db = dir / "tf10";
  ok(with(kSolve10, db));
  const std::vector<std::string> batch = {"query", "--db", db, "--random", "400", "--seed", "7"};
  const std::vector<std::string> before = lines_of(ok(batch).out);
  // the stored tier with the most positions loses its first block
  const json tiers = json::parse(ok({"info", "--db", db, "--json", "--tiers"}).out).at("tiers");
  uint32_t largest = 0;
  uint64_t most = 0;
  for (uint32_t t = 0; t < tiers.size(); ++t)
    if (tiers[t].value("storedBytes", uint64_t{0}) > 0 && tiers[t].at("positions").get<uint64_t>() > most)
      largest = t, most = tiers[t].at("positions").get<uint64_t>();
  REQUIRE(most > 0);
  raw_put(db, block_key(largest, 0), "12345678garbage-garbage");
  const RunResult r = run_toadbase(batch);
  CHECK(r.rc == 1);
  const std::vector<std::string> after = lines_of(r.out);
  REQUIRE(after.size() == before.size());
  size_t answered = 0, refused = 0;
  for (size_t i = 0; i < after.size(); ++i) {
    if (after[i] == before[i]) {
      ++answered;
      continue;
    }
    const json j = json::parse(after[i]);
    CHECK(j.at("position") == json::parse(before[i]).at("position"));
    CHECK_THAT(j.at("error").get<std::string>(), Contains("cannot answer") && Contains("damaged"));
    ++refused;
  }
  CHECK(answered > 0);
  CHECK(refused > 0);
}

TEST_CASE("faults: a FIFO, a socket or a device among a database's files is refused at once, never waited on",
          "[db][faults]") {
  // a FIFO named CURRENT held every read command forever; a link to /dev/zero in place of the
  // manifest fed RocksDB without end
  TempDir dir("faults-special");
  const std::string good = dir / "tf6";
  ok({"solve", "toads-frogs", "--length", "6", "--db", good, "--quiet"});
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(good)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  REQUIRE(std::find(names.begin(), names.end(), "CURRENT") != names.end());
  const std::string manifest = *std::find_if(names.begin(), names.end(), [](const std::string& n) {
    return n.rfind("MANIFEST-", 0) == 0;
  });
  struct Case {
    std::string file, kind;
    bool fifo;  // else a link to /dev/zero
  };
  int copies = 0;
  for (const Case& c : {Case{"CURRENT", "FIFO", true}, Case{manifest, "device", false}, Case{"CURRENT", "device", false}}) {
    const std::string db = dir / ("copy-" + std::to_string(++copies));
    fs::copy(good, db, fs::copy_options::recursive);
    fs::remove(fs::path(db) / c.file);
    if (c.fifo)
      REQUIRE(::mkfifo((fs::path(db) / c.file).c_str(), 0644) == 0);
    else
      fs::create_symlink("/dev/zero", fs::path(db) / c.file);
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"query", "--db", db, "1_T-F"}, std::vector<std::string>{"info", "--db", db}}) {
      const RunResult r = run_toadbase(args);
      INFO(describe(args, r));
      CHECK(r.rc == 1);
      CHECK_THAT(r.err, Contains(db) && Contains(c.file) && Contains("is a " + c.kind + ", not a regular file"));
    }
  }
}
