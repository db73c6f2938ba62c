// The find index (`cgt find`'s file beside a value database), damaged: read back and searched.
// A damaged index must come out as an error naming it, never a crash, a hang or a huge
// allocation, and an index whose checksums were made again over damaged bytes (a writer's bug,
// not the disk's) likewise. The first byte picks how the input damages the valid index of a
// database of 7 cells:
//   bit 0-1  0: the rest overwrites the index from an offset (two bytes), 1: the index cut
//            at an offset (two bytes), 2: the rest as (offset, byte) pairs XORed in (three
//            bytes a pair), 3: the rest is the whole file
//   bit 2    the block table and its checksum made again over the damaged bytes
//   bit 3-5  what is asked: a value (0, ^, *, 1/2, a value not in the table) or a property
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "fuzz.hpp"
#include "solver/core/hash.hpp"
#include "solver/games/toads_frogs_cgt/find.hpp"
#include "solver/games/toads_frogs_cgt/instance.hpp"
#include "run_command.hpp"
#include "tools/open.hpp"

using namespace toadbase;
using fuzz::run;
namespace fs = std::filesystem;
namespace cgtdb = toadbase::toads_frogs_cgt;

namespace {

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct World {
  std::string dir, db, file, index;
  tools::Opened opened;
  const cgtdb::CgtInstance* inst = nullptr;
  World() {
    char tmpl[] = "/tmp/toadbase-fuzz-XXXXXX";
    const char* made = ::mkdtemp(tmpl);
    if (!made) fail("no folder for its database");
    dir = made;
    db = dir + "/cgt7";
    file = db + "/" + cgtdb::kFindIndexFile;
    std::freopen("/dev/null", "w", stdout);
    if (run({"solve", "toads-frogs-cgt", "--length", "7", "--quiet", "--db", db}) != 0) fail("the solve failed");
    if (run({"cgt", "index", "--db", db}) != 0) fail("cgt index failed");
    index = read_all(file);
    try {
      opened = tools::open_database(db);
    } catch (const std::exception& e) {
      fail(e.what());
    }
    inst = dynamic_cast<const cgtdb::CgtInstance*>(opened.instance.get());
    if (!inst || index.size() < 64) fail("not a value database with its index");
  }
  [[noreturn]] static void fail(const char* why) {
    std::fprintf(stderr, "the fuzz target's database was not made: %s\n", why);
    std::abort();
  }
  ~World() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

/// The block table and its checksum made again over the bytes as they are, where the file's
/// length puts them (the layout FindIndex reads: a header of 64 bytes, the block table, the body).
void sum_again(std::string& b) {
  if (b.size() < 64) return;
  for (uint64_t blocks = 1; blocks <= b.size() / 8; ++blocks) {
    const uint64_t body_at = 64 + 8 * blocks;
    if (body_at > b.size()) return;
    if ((b.size() - body_at + cgtdb::FindIndex::kBlock - 1) / cgtdb::FindIndex::kBlock != blocks) continue;
    for (uint64_t k = 0; k < blocks; ++k) {
      const uint64_t from = body_at + k * cgtdb::FindIndex::kBlock;
      const uint64_t h = xxh64(b.data() + from, std::min<uint64_t>(cgtdb::FindIndex::kBlock, b.size() - from));
      std::memcpy(b.data() + 64 + 8 * k, &h, 8);
    }
    const uint64_t t = xxh64(b.data() + 64, 8 * blocks);
    std::memcpy(b.data() + 56, &t, 8);
    return;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static World w;
  if (size < 3) return 0;
  const uint8_t how = data[0];
  std::string b = w.index;
  const size_t at = (size_t{data[1]} << 8 | data[2]) % (b.size() + 1);
  switch (how & 3) {
    case 0: b.replace(at, std::min(b.size() - at, size - 3), reinterpret_cast<const char*>(data + 3), size - 3); break;
    case 1: b.resize(at); break;
    case 2:
      for (size_t i = 1; i + 2 < size; i += 3)
        b[(size_t{data[i]} << 8 | data[i + 1]) % b.size()] ^= static_cast<char>(data[i + 2]);
      break;
    default: b = fuzz::text(data + 1, size - 1); break;
  }
  if (how & 4) sum_again(b);
  std::ofstream(w.file, std::ios::binary | std::ios::trunc) << b;
  static const std::vector<std::map<std::string, std::string>> asks = {
      {{"value", "0"}},     {{"value", "^"}},         {{"value", "*"}, {"limit", "1000"}},
      {{"value", "1/2"}},   {{"value", "*7"}},        {{"kind", "hot"}, {"limit", "1000"}},
      {{"outcome", "P"}},   {{"mean", "1/2"}, {"temperatureAtLeast", "0"}, {"outcome", "L"}}};
  fuzz::expect_clean([&] {
    const cgtdb::FormReader reader(*w.opened.db, w.inst->layout());
    const cgtdb::FindIndex x = cgtdb::FindIndex::load(w.file, w.inst->boards(), reader.count());
    const cgtdb::FindQuery q = cgtdb::FindQuery::from_params(asks[(how >> 3) % asks.size()]);
    const nlohmann::ordered_json a = cgtdb::find_boards(x, w.inst->boards(), *w.opened.db, reader, q, w.inst->text_cap());
    fuzz::require(a.at("shortest").size() <= 1000, "at most the limit's boards listed");
  });
  return 0;
}
