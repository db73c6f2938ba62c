// How a tier walk (walk.hpp) meets the other ranks: one interface, two implementations.
//
//   LocalExchange    one process: nothing is sent, nothing arrives, every tier is reported
//                    where it was solved
//   RankedExchange   a rank of a distributed solve, over a Transport: a solved piece goes to
//                    the ranks that read it, a committed tier rank 0 recovered to the ranks
//                    that read it, a finished tier (packed) to rank 0 in one batch a level;
//                    what arrives is checked against the plan and handed to the walk
//
// The wire: every message is a WireHeader and a payload. A piece or a recovered tier is
// records [lo, hi) of a tier, as they lie in memory (compressed by the transport). A batch of
// reports is, for each tier, u64 tier, u64 bytes, then the tier as its reporter packed it.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "solver/core/distribute.hpp"
#include "solver/core/transport.hpp"

namespace toadbase {

/// The header of every message of a distributed walk.
struct WireHeader {
  // kReports: the tiers a rank finished for rank 0 in one level, packed (TierPacker), one
  // message: tier 0, lo = hi = 0, `count` tiers. (3, a message a tier, kept the sender
  // waiting on rank 0's reads.)
  enum Kind : uint32_t { kPiece = 1, kRecovered = 2, kReports = 4 };
  uint32_t kind = 0;
  TierId tier = 0;
  uint64_t lo = 0, hi = 0;  // records [lo, hi) of the tier
  uint64_t count = 0;       // kReports: the tiers in it
};

/// A batch of reports goes to rank 0 at the end of a level, or sooner once it holds this
/// many bytes.
inline constexpr uint64_t kReportBatchBytes = uint64_t{16} << 20;

/// The walk's side of an exchange: where what other ranks send lands.
template <class R>
class WalkInbox {
 public:
  /// Where records [lo, hi) of tier t arrive (a piece another rank solved; `recovered`: a
  /// whole committed tier rank 0 sends). Throws, naming the message by `what`, when this
  /// rank does not expect them.
  virtual R* place(TierId t, uint64_t lo, uint64_t hi, bool recovered, const std::string& what) = 0;
  /// The records place() gave room for are in.
  virtual void arrived(TierId t, bool recovered) = 0;
  /// Rank 0: tier t, as the rank that reported it packed it.
  virtual void packed(TierId t, std::span<const uint8_t> bytes) = 0;

 protected:
  ~WalkInbox() = default;
};

/// What a walk sends to and takes from the other ranks. send_* and report() are called from
/// the level's tasks, side by side.
template <class R>
class Exchange {
 public:
  virtual ~Exchange() = default;
  virtual int rank() const = 0;
  /// Records [lo, hi) of tier t to the ranks `to`.
  virtual void send(const std::vector<int>& to, WireHeader::Kind kind, TierId t, uint64_t lo, uint64_t hi,
                    const R* records) = 0;
  /// Tier t, packed, for rank 0 (from another rank).
  virtual void report(TierId t, const std::vector<uint8_t>& packed) = 0;
  /// Waits for one message and hands it to `in`; tier `wanted` is the one the walk waits for.
  virtual void receive_one(WalkInbox<R>& in, TierId wanted) = 0;
  /// The end of a level: the batch of reports sent, every message already here taken.
  virtual void end_level(WalkInbox<R>& in) = 0;
  /// The end of the walk: rank 0 takes messages while `due()`; everything sent is delivered.
  virtual void finish(WalkInbox<R>& in, const std::function<bool()>& due) = 0;
};

/// One process: there is no other rank.
template <class R>
class LocalExchange final : public Exchange<R> {
 public:
  int rank() const override { return 0; }
  void send(const std::vector<int>& to, WireHeader::Kind, TierId t, uint64_t, uint64_t, const R*) override {
    if (!to.empty()) throw std::logic_error("tier " + std::to_string(t) + ": a send in a solve of one process");
  }
  void report(TierId t, const std::vector<uint8_t>&) override {
    throw std::logic_error("tier " + std::to_string(t) + ": reported to rank 0 from rank 0");
  }
  void receive_one(WalkInbox<R>&, TierId wanted) override {
    throw std::logic_error("tier " + std::to_string(wanted) + " is read before it was solved");
  }
  void end_level(WalkInbox<R>&) override {}
  void finish(WalkInbox<R>&, const std::function<bool()>&) override {}
};

/// A rank of a distributed walk along `dist`, over `transport`.
template <class R>
class RankedExchange final : public Exchange<R> {
 public:
  RankedExchange(Transport& transport, const TierPlan& plan, const Distribution& dist)
      : tr_(transport), plan_(plan), dist_(dist), reported_(transport.rank() == 0 ? plan.size.size() : 0, 0) {}

  int rank() const override { return tr_.rank(); }

  void send(const std::vector<int>& to, WireHeader::Kind kind, TierId t, uint64_t lo, uint64_t hi,
            const R* records) override {
    put(to, WireHeader{kind, t, lo, hi}, records + lo, (hi - lo) * sizeof(R), true);
  }

  void report(TierId t, const std::vector<uint8_t>& packed) override {
    {
      std::lock_guard lock(batch_mu_);
      put_u64(t);
      put_u64(packed.size());
      batch_.insert(batch_.end(), packed.begin(), packed.end());
      ++batch_tiers_;
    }
    send_batch(true);
  }

  void receive_one(WalkInbox<R>& in, TierId) override { take(true, in); }

  void end_level(WalkInbox<R>& in) override {
    send_batch(false);
    // rank 0 commits reports; the others take pieces early, so that no sender waits on a
    // full channel
    while (take(false, in)) {
    }
  }

  void finish(WalkInbox<R>& in, const std::function<bool()>& due) override {
    if (rank() == 0)
      while (due()) take(true, in);
    tr_.flush();
  }

 private:
  // Transport's inbox: checks each message against the plan, then hands it to the walk
  struct Inbox final : Transport::Inbox {
    RankedExchange& ex;
    WalkInbox<R>& walk;
    Inbox(RankedExchange& e, WalkInbox<R>& w) : ex(e), walk(w) {}
    uint8_t* place(int from, std::span<const uint8_t> header, uint64_t bytes) override {
      return ex.place(from, read(header), bytes, walk);
    }
    void arrived(int from, std::span<const uint8_t> header) override { ex.arrived(from, read(header), walk); }
  };

  static WireHeader read(std::span<const uint8_t> header) {
    WireHeader h;
    if (header.size() != sizeof h) throw std::runtime_error("a message from another rank is damaged (its header)");
    std::memcpy(&h, header.data(), sizeof h);
    return h;
  }

  bool take(bool wait, WalkInbox<R>& walk) {
    Inbox inbox(*this, walk);
    return tr_.receive(wait, inbox);
  }

  uint8_t* place(int from, const WireHeader& h, uint64_t bytes, WalkInbox<R>& walk) {
    const std::string what = "a message from rank " + std::to_string(from) + " about tier " + std::to_string(h.tier);
    if (h.tier >= plan_.size.size() || h.lo > h.hi || h.hi > plan_.size[h.tier])
      throw std::runtime_error(what + " does not fit the plan (a rank of another space or build?)");
    if (h.kind == WireHeader::kReports) {
      if (rank() != 0 || h.tier != 0 || h.lo != 0 || h.hi != 0 || h.count == 0 || h.count > bytes / 16)
        throw std::runtime_error("a message from rank " + std::to_string(from) + ": reports this rank does not expect");
      reports_.resize(bytes);
      return reports_.data();
    }
    if (bytes != (h.hi - h.lo) * sizeof(R)) throw std::runtime_error(what + " does not fit the plan (another record width?)");
    if (h.kind != WireHeader::kPiece && h.kind != WireHeader::kRecovered)
      throw std::runtime_error(what + ": records this rank does not expect");
    return reinterpret_cast<uint8_t*>(walk.place(h.tier, h.lo, h.hi, h.kind == WireHeader::kRecovered, what));
  }

  void arrived(int from, const WireHeader& h, WalkInbox<R>& walk) {
    if (h.kind != WireHeader::kReports) return walk.arrived(h.tier, h.kind == WireHeader::kRecovered);
    const std::string what = "reports from rank " + std::to_string(from);
    size_t at = 0;
    for (uint64_t k = 0; k < h.count; ++k) {
      uint64_t t = 0, bytes = 0;
      if (reports_.size() - at < 16) throw std::runtime_error(what + " are damaged (cut short)");
      std::memcpy(&t, reports_.data() + at, 8);
      std::memcpy(&bytes, reports_.data() + at + 8, 8);
      at += 16;
      if (t >= plan_.size.size() || dist_.reporter[t] != from || bytes > reports_.size() - at)
        throw std::runtime_error(what + " do not fit the plan (tier " + std::to_string(t) + ")");
      if (reported_[t]) throw std::runtime_error(what + " name tier " + std::to_string(t) + " a second time");
      reported_[t] = 1;
      walk.packed(static_cast<TierId>(t), std::span<const uint8_t>(reports_.data() + at, bytes));
      at += bytes;
    }
    if (at != reports_.size()) throw std::runtime_error(what + " are damaged (bytes left over)");
  }

  void put(const std::vector<int>& to, const WireHeader& h, const void* payload, uint64_t bytes, bool compress) {
    if (to.empty()) return;
    tr_.send(std::span<const int>(to), std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(&h), sizeof h),
             std::span<const uint8_t>(static_cast<const uint8_t*>(payload), bytes), compress);
  }

  void put_u64(uint64_t v) {
    const size_t at = batch_.size();
    batch_.resize(at + 8);
    std::memcpy(batch_.data() + at, &v, 8);
  }

  void send_batch(bool only_if_full) {
    std::vector<uint8_t> out;
    uint64_t count = 0;
    {
      std::lock_guard lock(batch_mu_);
      if (batch_tiers_ == 0 || (only_if_full && batch_.size() < kReportBatchBytes)) return;
      out.swap(batch_);
      std::swap(count, batch_tiers_);
    }
    put({0}, WireHeader{WireHeader::kReports, 0, 0, 0, count}, out.data(), out.size(), false);
  }

  Transport& tr_;
  const TierPlan& plan_;
  const Distribution& dist_;
  std::mutex batch_mu_;  // the batch of reports to rank 0, filled by the level's tasks
  std::vector<uint8_t> batch_;
  uint64_t batch_tiers_ = 0;
  std::vector<uint8_t> reports_;  // rank 0: a batch of reports on its way in
  std::vector<char> reported_;    // rank 0: tiers another rank reported
};

}  // namespace toadbase
