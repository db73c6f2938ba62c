// Decompressed blocks kept for lookups: a slot per block of the database (direct-mapped by
// a global block number), evicted in the order they were loaded once the cache holds more
// than its capacity. Thread-safe; a block is decoded outside the lock.
//
// The slots come in pages of kPageSlots (4 KiB of slots: one page of memory), each made when
// one of its blocks is first kept and kept until the cache goes: a database of 20 cells has
// 8.7 million blocks, and a table of them all (133 MiB), written at every open, was most of
// what opening it for one query cost (a reader that reads across the whole database grows
// back to about that table). Pages of 4,096 slots (64 KiB) made a fresh reader's query slower
// than the whole table did: each block in a new page wrote sixteen pages of memory.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <vector>

namespace toadbase::db {

class BlockCache {
 public:
  using Block = std::vector<uint8_t>;
  /// Slots a page (see the top of this file).
  static constexpr uint64_t kPageSlots = 256;
  /// `blocks` slots, at most about `capacity` bytes held (at least one block).
  BlockCache(uint64_t blocks, uint64_t capacity)
      : pages_((blocks + kPageSlots - 1) / kPageSlots), cap_(capacity) {}

  /// Bytes out[i] = byte offsets[i] of block globals[i] for i < n, under one lock for the
  /// blocks held; `load(i)` decodes the block of entry i when it is not (outside the lock).
  template <class Load>
  void bytes(unsigned n, const uint64_t* globals, const uint64_t* offsets, uint8_t* out, Load&& load) {
    uint64_t missing = 0;  // bit i: entry i's block was not held
    {
      std::lock_guard lock(mu_);
      for (unsigned i = 0; i < n; ++i) {
        if (const Held* h = held(globals[i])) out[i] = at(**h, offsets[i]);
        else missing |= uint64_t{1} << i;
      }
    }
    for (unsigned i = 0; i < n; ++i)
      if (missing >> i & 1) out[i] = byte(globals[i], offsets[i], [&] { return load(i); });
  }

  /// Byte `offset` of block `g`, loading it with `load()` when it is not held.
  template <class Load>
  uint8_t byte(uint64_t g, uint64_t offset, Load&& load) {
    {
      std::lock_guard lock(mu_);
      if (const Held* h = held(g)) return at(**h, offset);
    }
    auto blk = std::make_shared<const Block>(load());
    const uint8_t b = at(*blk, offset);
    keep(g, std::move(blk));
    return b;
  }

  /// Block `g` itself, loading it with `load()` when it is not held. The reference keeps
  /// the block alive after the cache lets it go (a reader's own table of blocks).
  template <class Load>
  std::shared_ptr<const Block> block(uint64_t g, Load&& load) {
    {
      std::lock_guard lock(mu_);
      if (const Held* h = held(g)) return *h;
    }
    auto blk = std::make_shared<const Block>(load());
    keep(g, blk);
    return blk;
  }

  /// About how many bytes it holds at most.
  uint64_t capacity() const { return cap_; }
  /// True when block `g` is held.
  bool holds(uint64_t g) {
    std::lock_guard lock(mu_);
    return held(g) != nullptr;
  }

  static uint8_t at(const Block& b, uint64_t offset) {
    if (offset >= b.size()) throw std::out_of_range("a block is shorter than its tier says");
    return b[offset];
  }

 private:
  using Held = std::shared_ptr<const Block>;
  using Page = std::array<Held, kPageSlots>;

  /// Block g's slot when it holds the block, else null (its page never made, or the slot
  /// empty). Under mu_.
  const Held* held(uint64_t g) const {
    const std::unique_ptr<Page>& page = pages_[g / kPageSlots];
    const Held* h = page ? &(*page)[g % kPageSlots] : nullptr;
    return h && *h ? h : nullptr;
  }
  /// Block g's slot, its page made if need be. Under mu_.
  Held& slot(uint64_t g) {
    std::unique_ptr<Page>& page = pages_[g / kPageSlots];
    if (!page) page = std::make_unique<Page>();
    return (*page)[g % kPageSlots];
  }

  void keep(uint64_t g, Held blk) {
    std::lock_guard lock(mu_);
    Held& s = slot(g);
    if (s) return;
    used_ += blk->size();
    s = std::move(blk);
    loaded_.push_back(g);
    while (used_ > cap_ && loaded_.size() > 1) {
      Held& old = slot(loaded_.front());
      used_ -= old->size();
      old.reset();
      loaded_.pop_front();
    }
  }

  std::mutex mu_;
  std::vector<std::unique_ptr<Page>> pages_;  // [g / kPageSlots], made on first use
  std::deque<uint64_t> loaded_;  // global blocks, oldest first
  uint64_t used_ = 0, cap_;
};

}  // namespace toadbase::db
