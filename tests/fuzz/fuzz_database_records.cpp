// What a database reads back from disk: the manifest, a tier's commit record, a block. Damaged
// bytes must come out as a DbError naming the place, never a crash or a huge allocation.
#include "db/codec.hpp"
#include "db/layout.hpp"
#include "db/manifest.hpp"
#include "fuzz.hpp"

using namespace toadbase;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string s = fuzz::text(data, size);
  fuzz::expect_clean([&] {
    const nlohmann::json m = db::parse_manifest(s, "fuzz");
    (void)db::identity_of(m);
  });
  for (unsigned width : {1u, 8u, 17u})
    for (uint32_t version : {1u, 2u, 3u, 4u})
      for (uint64_t block : {db::kMinBlockBytes, db::kDefaultBlockBytes})
        fuzz::expect_clean([&] {
          const db::TierMeta t = db::decode_commit(s, width, version, block, "fuzz tier");
          fuzz::require(t.kept <= t.positions, "a tier keeps at most its records");
          fuzz::require(t.blocks == db::PlaneLayout{width, t.kept, block, db::planes_per_block(version, width)}.blocks(),
                        "blocks cover the kept records");
        });
  for (uint64_t block : {db::kMinBlockBytes, db::kDefaultBlockBytes})
    fuzz::expect_clean([&] {
      const std::vector<uint8_t> raw = db::decode_block(s, block, "fuzz block");
      fuzz::require(raw.size() <= block, "a block holds at most its bytes");
    });
  return 0;
}
