// How the ranks of a distributed solve talk: the engine's view of the wire. The engine knows
// no MPI; tools/mpi.cpp implements this on MPI (compressing every payload with zstd), and the
// tests implement it between threads.
//
//     rank 0   opens and writes the database, solves its share of the tiers
//     rank r   solves its share; sends each finished piece to the ranks that read it, and
//              the kept records and digest of the tiers it reports to rank 0
//
// A message is a small header (the engine's: which tier, which records) and a payload of
// record bytes. Messages from one rank to another arrive in the order they were sent; a rank
// takes them in the order they arrive, from any rank.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace toadbase {

class Transport {
 public:
  virtual ~Transport() = default;

  /// This rank, 0 .. ranks()-1.
  virtual int rank() const = 0;
  virtual int ranks() const = 0;

  /// Sends `header` and `payload` to every rank of `to` (never this one). Returns once both
  /// are copied into the transport: the caller may free them. Thread-safe. `compress`: false
  /// for a payload that is compressed already (a packed tier).
  virtual void send(std::span<const int> to, std::span<const uint8_t> header, std::span<const uint8_t> payload,
                    bool compress = true) = 0;

  /// What a receiving rank does with a message: place() says where its payload goes (exactly
  /// `payload_bytes` bytes; nullptr when it has none), arrived() runs once it is there.
  class Inbox {
   public:
    virtual ~Inbox() = default;
    virtual uint8_t* place(int from, std::span<const uint8_t> header, uint64_t payload_bytes) = 0;
    virtual void arrived(int from, std::span<const uint8_t> header) = 0;
  };
  /// Takes one message, from any rank, into `inbox`: the next one waiting, or with `wait`
  /// the next to arrive. Returns false when none was waiting (never with `wait`). Called by
  /// one thread at a time.
  virtual bool receive(bool wait, Inbox& inbox) = 0;

  /// Waits until every message this rank sent has been taken by its receiver.
  virtual void flush() = 0;

  // collectives: every rank calls them, in the same order
  /// Rank 0's bytes, on every rank.
  virtual void broadcast(std::vector<uint8_t>& bytes) = 0;
  /// Every rank's values (the same count on every rank), rank 0's first.
  virtual std::vector<uint64_t> all_gather(std::span<const uint64_t> values) = 0;

  /// What crossed the wire from and to this rank so far.
  struct Counters {
    uint64_t messages_sent = 0, messages_received = 0;
    uint64_t bytes_sent = 0, bytes_received = 0;  // on the wire (compressed, headers included)
    uint64_t raw_sent = 0, raw_received = 0;      // payload bytes before compression
    double seconds_waiting = 0;                   // blocked in receive(wait = true)
  };
  virtual Counters counters() const = 0;
};

}  // namespace toadbase
