// The read side of a store passed on to another: where a test's wrapper store starts (one that
// sleeps after commits, stops or changes them, or notes the reads it is asked for). Not a test.
#pragma once

#include <cstdint>

#include "solver/core/store.hpp"

namespace tbtest {

/// Base (TierSource or TierStore) whose reads go to `inner` (an Inner, by default a Base).
template <class Base, class Inner = Base>
class PassReads : public Base {
 public:
  using TierId = toadbase::TierId;
  explicit PassReads(Inner& inner) : inner_(inner) {}
  unsigned record_bytes() const override { return inner_.record_bytes(); }
  bool has_tier(TierId t) const override { return inner_.has_tier(t); }
  uint64_t tier_positions(TierId t) const override { return inner_.tier_positions(t); }
  uint64_t tier_kept(TierId t) const override { return inner_.tier_kept(t); }
  bool matches_digest(TierId t, const void* r, uint64_t n) const override { return inner_.matches_digest(t, r, n); }
  void load_tier(TierId t, void* out) const override { inner_.load_tier(t, out); }
  void read_record(TierId t, uint64_t i, void* out) const override { inner_.read_record(t, i, out); }

 protected:
  Inner& inner_;
};

}  // namespace tbtest
