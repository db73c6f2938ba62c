// A finished tier held compressed between the level that makes it and the last level that
// reads it, when the memory budget needs it (schedule.hpp chooses; walk.hpp holds):
//
//     level L      the tier is made raw (its pieces write the array), then packed:
//                  blocks of 64 KiB of record bytes, each compressed on its own
//                      raw  | 64 KiB | 64 KiB | 64 KiB | ... | rest |
//                      packed  [b0]     [b1]     [b2]           [bk]     (about half the bytes)
//     L+1 .. last  held packed; the scan reads a child's record through its thread's cache
//                  of unpacked blocks (UnpackedBlocks), a block unpacked where it misses
//
// Why a cache of a few blocks a thread is enough: the scans read their child tiers almost
// in order (a toads' tier's children: one run of indices per toad that moves, each rising as
// the scan goes; a frogs' tier's, the same block of indices as the position; a tail, its
// source's rows in rising order). 128 blocks of 64 KiB in sets of 4 missed once in about
// 30,000 positions over every tier of 20 and of 22 cells of Toads and Frogs.
//
// The engine knows no compressor: the store offers one (RecordCodec: the database's zstd),
// the way it offers its TierPacker to the ranks of a distributed solve.
#pragma once

#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace toadbase {

/// Compresses blocks of record bytes and restores them. Thread-safe.
class RecordCodec {
 public:
  virtual ~RecordCodec() = default;
  /// `bytes` raw bytes compressed.
  virtual std::vector<uint8_t> pack(const uint8_t* raw, uint64_t bytes) const = 0;
  /// Exactly `bytes` raw bytes back from what pack() made of them into `raw`; throws
  /// std::runtime_error when `packed` is not that.
  virtual void unpack(std::span<const uint8_t> packed, uint8_t* raw, uint64_t bytes) const = 0;
};

/// A tier's record bytes, compressed a block at a time.
class PackedTier {
 public:
  static constexpr int kBlockBits = 16;
  static constexpr uint64_t kBlock = uint64_t{1} << kBlockBits;

  PackedTier() = default;
  /// `bytes` bytes at `raw` compressed by `codec`, the blocks side by side (TBB).
  PackedTier(const RecordCodec& codec, const uint8_t* raw, uint64_t bytes) : PackedTier(codec, raw, bytes, {}) {}

  /// The same, its leading blocks as `codec` already packed them (`first`: a store that
  /// packed the tier's kept records to commit them gives its whole blocks,
  /// TierStore::commit_tier_held), the rest packed here.
  PackedTier(const RecordCodec& codec, const uint8_t* raw, uint64_t bytes, std::vector<std::vector<uint8_t>> first)
      : codec_(&codec), id_(next_id()), blocks_(std::move(first)), bytes_(bytes) {
    const size_t given = blocks_.size();
    if (given * kBlock > bytes)
      throw std::logic_error(std::to_string(given) + " packed blocks given for a tier of " + std::to_string(bytes) + " bytes");
    blocks_.reserve((bytes + kBlock - 1) / kBlock);  // the list at its size: what packed_bytes() counts
    blocks_.resize((bytes + kBlock - 1) / kBlock);
    tbb::parallel_for(given, blocks_.size(), [&](size_t b) {
      blocks_[b] = codec.pack(raw + b * kBlock, block_bytes(b));
      blocks_[b].shrink_to_fit();
    });
    for (const auto& b : blocks_) packed_ += b.size() + sizeof b;
  }

  /// Block b's raw bytes into `raw` (block_bytes(b) of them).
  void unpack_block(uint64_t b, uint8_t* raw) const { codec_->unpack(blocks_[b], raw, block_bytes(b)); }
  /// The raw bytes back into `raw` (bytes() of them), the blocks side by side.
  void unpack(uint8_t* raw) const {
    tbb::parallel_for(size_t{0}, blocks_.size(), [&](size_t b) { unpack_block(b, raw + b * kBlock); });
  }

  uint64_t block_bytes(uint64_t b) const { return std::min(kBlock, bytes_ - b * kBlock); }
  uint64_t bytes() const { return bytes_; }
  /// What it holds: the compressed blocks and their list.
  uint64_t packed_bytes() const { return packed_; }
  bool empty() const { return bytes_ == 0; }
  /// Names this packing of a tier alone in the process (a cache's key: another tier packed
  /// later at the same address has another).
  uint64_t id() const { return id_; }

 private:
  static uint64_t next_id() {
    static std::atomic<uint64_t> ids{1};
    return ids++;
  }
  const RecordCodec* codec_ = nullptr;
  uint64_t id_ = 0;
  std::vector<std::vector<uint8_t>> blocks_;
  uint64_t bytes_ = 0, packed_ = 0;
};

/// One thread's unpacked blocks of packed tiers: kSets sets of kWays blocks, a block's set
/// chosen by a hash of its tier and number, the least recently used of a set replaced. A
/// place is made the size of the largest block it has held (tiers smaller than a block take
/// less).
class UnpackedBlocks {
 public:
  static constexpr unsigned kWays = 4, kSets = 32, kPlaces = kWays * kSets;
  /// The most one thread's cache holds.
  static constexpr uint64_t kBytes = uint64_t{kPlaces} * PackedTier::kBlock;
  /// The most it holds reading tiers of at most `largest` bytes.
  static constexpr uint64_t bytes_for(uint64_t largest) {
    return kPlaces * std::min(largest, PackedTier::kBlock);
  }

  UnpackedBlocks() {
    for (unsigned i = 0; i < kPlaces; ++i) tags_[i] = {0, 0, i};
  }

  /// Block b of `tier`, unpacked.
  const uint8_t* block(const PackedTier& tier, uint64_t b) {
    const uint64_t id = tier.id();
    Tag* set = tags_ + ((((id << 40) ^ b) * 0x9E3779B97F4A7C15ull) >> 59) % kSets * kWays;
    for (unsigned w = 0; w < kWays; ++w)
      if (set[w].tier == id && set[w].block == b) return to_front(set, w);
    Tag& last = set[kWays - 1];
    last.tier = 0;  // an unpack that throws leaves no tag on half a block
    Place& place = places_[last.slot];
    if (place.size < tier.block_bytes(b)) {
      place.size = tier.block_bytes(b);
      place.bytes.reset(new uint8_t[place.size]);
    }
    tier.unpack_block(b, place.bytes.get());
    last.tier = id;
    last.block = b;
    ++misses_;
    return to_front(set, kWays - 1);
  }
  /// Blocks unpacked so far: a block found before the last miss is still where it was.
  uint64_t misses() const { return misses_; }

 private:
  struct Tag {
    uint64_t tier, block;  // tier 0: none
    uint32_t slot;
  };
  const uint8_t* to_front(Tag* set, unsigned w) {
    const Tag hit = set[w];
    for (; w > 0; --w) set[w] = set[w - 1];
    set[0] = hit;
    return places_[hit.slot].bytes.get();
  }
  struct Place {
    std::unique_ptr<uint8_t[]> bytes;
    uint64_t size = 0;
  };
  Place places_[kPlaces];
  Tag tags_[kPlaces];
  uint64_t misses_ = 0;
};

/// A tier's records as the scan reads them: raw, or packed and read through a thread's
/// UnpackedBlocks. Made for one packing of its tier, on one thread (it remembers where the
/// blocks it read lie in the cache until the cache unpacks another): a scan's task makes its
/// own from the tiers its level holds.
template <class S>
struct HeldRecords {
  static_assert(PackedTier::kBlock % sizeof(S) == 0, "a record must not straddle two blocks");
  const S* raw = nullptr;
  const PackedTier* packed = nullptr;
  UnpackedBlocks* cache = nullptr;

  HeldRecords() = default;
  HeldRecords(const S* r, const PackedTier* p, UnpackedBlocks* c) : raw(r), packed(p), cache(c) {}

  S operator[](uint64_t index) const {
    if (raw) return raw[index];
    const uint64_t at = index * sizeof(S), b = at >> PackedTier::kBlockBits;
    // the blocks found since the cache last unpacked one (a toads' scan reads a few runs of
    // a child tier at once): a pointer each, where the cache's lookup hashes and reorders
    Recent& r = recent[b % kRecent];
    if (r.block != b || r.epoch != cache->misses()) {
      r.bytes = cache->block(*packed, b);
      r.block = b;
      r.epoch = cache->misses();
    }
    S v;
    std::memcpy(&v, r.bytes + (at & (PackedTier::kBlock - 1)), sizeof(S));
    return v;
  }
  /// Records [first, first + count) in order: at `first` of the raw array, or copied into
  /// `scratch` from the blocks they lie in.
  const S* run(uint64_t first, uint64_t count, std::vector<S>& scratch) const {
    if (raw) return raw + first;
    scratch.resize(count);
    uint64_t at = first * sizeof(S), left = count * sizeof(S);
    auto* to = reinterpret_cast<uint8_t*>(scratch.data());
    while (left) {
      const uint64_t in = at & (PackedTier::kBlock - 1), n = std::min(left, PackedTier::kBlock - in);
      std::memcpy(to, cache->block(*packed, at >> PackedTier::kBlockBits) + in, n);
      to += n, at += n, left -= n;
    }
    return scratch.data();
  }

 private:
  static constexpr unsigned kRecent = 8;
  struct Recent {
    uint64_t block = UINT64_MAX, epoch = UINT64_MAX;
    const uint8_t* bytes = nullptr;
  };
  mutable std::array<Recent, kRecent> recent{};
};

/// Records [first, first + count) of a tier in order (in the array, or copied into `scratch`):
/// how a game that copies rows of a tier (a tail) reads one held packed.
template <class S>
using RecordRows = std::function<const S*(uint64_t first, uint64_t count, std::vector<S>& scratch)>;

/// The child tiers' records an accumulator reads when some are packed (ChildRecords' twin,
/// record.hpp): [slot][index].
template <class S>
struct HeldChildren {
  const HeldRecords<S>* slots;
  const HeldRecords<S>& operator[](uint32_t slot) const { return slots[slot]; }
};

}  // namespace toadbase
