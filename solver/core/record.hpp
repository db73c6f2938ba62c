// Records: the value of one position, packed into one or two bytes. A record type names its
// storage (`Storage`: the unsigned integer a tier is an array of), its name in a database's
// manifest (`kName`), how to decode it and the hot loop's accumulator.
//
// Two-player, loop-free, no ties (Toads and Frogs): the record is the remoteness itself.
//
//     ParityRecord       bit  7 6 5 4 3 2 1 0         remoteness 0 .. 255
//     WideParityRecord   bit 15 14 ... 1 0            remoteness 0 .. 65535 (two bytes)
//
// The value needs no bit of its own: a primitive loss has remoteness 0; a win is
// 1 + the smallest (even) remoteness of a losing child, so odd; a loss is 1 + the largest
// (odd) remoteness of its winning children, so even. Hence: odd = win, even = lose.
// A game picks the narrow record when its space's remoteness bound fits one byte and the
// wide one otherwise (module.hpp: WideRecordType, remoteness_bound).
#pragma once

#include <array>
#include <concepts>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>

namespace toadbase {

/// The storage of the one-byte records (ParityRecord, PuzzleRecord).
using Record = uint8_t;

enum class Value : uint8_t { Undecided, Win, Lose, Tie, Draw };

/// The largest value a record type stores (combine() results above it overflow).
template <class Rec>
inline constexpr unsigned kMaxStored = std::numeric_limits<typename Rec::Storage>::max();

inline std::string_view value_name(Value v) {
  switch (v) {
    case Value::Win: return "win";
    case Value::Lose: return "lose";
    case Value::Tie: return "tie";
    case Value::Draw: return "draw";
    default: return "undecided";
  }
}

/// A position's value for the player to move and its remoteness.
struct Outcome {
  Value value = Value::Undecided;
  unsigned remoteness = 0;
  friend bool operator==(const Outcome&, const Outcome&) = default;
};

/// GamesmanOne's value codes (the top four bits of its 16-bit record).
inline constexpr uint16_t kGamesmanLose = 1, kGamesmanTie = 3, kGamesmanWin = 4;

/// The child tiers' records an accumulator reads, by slot. The first two slots' pointers are
/// held by value: the accumulator is a local (with_local_visitor) whose scalar members stay
/// in registers, where a pointer read from the caller's list would be read again after every
/// record written (a byte store may alias it).
template <class S>
struct ChildRecords {
  const S* const* list;
  const S* first[2] = {nullptr, nullptr};
  explicit ChildRecords(std::span<const S* const> slots) : list(slots.data()) {
    for (size_t k = 0; k < slots.size() && k < 2; ++k) first[k] = slots[k];
  }
  const S* operator[](uint32_t slot) const { return slot < 2 ? first[slot] : list[slot]; }
};

/// The two-player parity record: remoteness in a byte, value by parity.
struct ParityRecord {
  using Storage = uint8_t;
  static constexpr const char* kName = "remoteness-u8-parity";
  static constexpr int kPlayers = 2;
  static Outcome decode(Record r) { return {(r & 1) ? Value::Win : Value::Lose, r}; }
  /// GamesCrafters' 16-bit record: value code << 12 | remoteness.
  static uint16_t gamescrafters16(Record r) {
    return static_cast<uint16_t>(((r & 1) ? kGamesmanWin : kGamesmanLose) << 12 | r);
  }

  /// Combine children records into the parent's: returns remoteness + 1, or a value above
  /// 255 when the result would not fit (the caller reports the overflow).
  /// No children: a primitive loss (normal play).
  template <class Read>
  static unsigned combine(unsigned count, Read&& read) {
    if (count == 0) return 0;
    // branch-free: a losing child (even) competes for the minimum, a winning one (odd) for
    // the maximum; any losing child makes the position a win.
    unsigned min_even = 1024, max_odd = 0;
    for (unsigned k = 0; k < count; ++k) {
      const unsigned r = read(k);
      const unsigned odd = r & 1;
      const unsigned as_even = odd ? 1024u : r, as_odd = odd ? r : 0u;
      min_even = as_even < min_even ? as_even : min_even;
      max_odd = as_odd > max_odd ? as_odd : max_odd;
    }
    return (min_even != 1024 ? min_even : max_odd) + 1;
  }

  /// The hot loop's form of combine(): one table load and one minimum a child. A child's
  /// key (a byte) orders the children from best to worst for the player to move:
  ///     losing child (even r):   key r / 2               0..127: the quickest win first
  ///     winning child (odd r):   key 255 - (r - 1) / 2   128..255: the longest first
  ///     no child:                key kNone = 256         above every key
  /// so the parent is 2 key + 1 (a win) below 128, 512 - 2 key (a loss) from 128 (0 without
  /// children): one more table load, record. The largest it gives is 256 (every child a win
  /// of 255, key 128), the only value a byte cannot hold: `seen` gathers every value written
  /// with one OR, and overflowed() reads its ninth bit once the range is done.
  /// The accumulator carries both tables: the scan's local copy of it (with_local_visitor)
  /// holds them on its stack, read at a fixed offset from the stack pointer, where a global
  /// table costs a register for its address in position-independent code. `Children` reads
  /// [slot][index]: raw arrays, or tiers held packed (HeldChildren, packed.hpp).
  template <class Children = ChildRecords<Record>>
  struct AccumulatorOf {
    static constexpr unsigned kNone = 256;
    Children child_records;  // [slot] -> that child tier's records
    Record* out;
    unsigned best = kNone;
    unsigned seen = 0;
    std::array<uint8_t, 256> key = kKey;
    std::array<uint16_t, kNone + 1> record = kRecord;
    AccumulatorOf(std::span<const Record* const> slots, Record* o)
      requires std::same_as<Children, ChildRecords<Record>>
        : child_records(slots), out(o) {}
    AccumulatorOf(Children children, Record* o) : child_records(children), out(o) {}
    void child(uint32_t slot, uint64_t index, bool real) {
      const unsigned k = real ? key[child_records[slot][index]] : kNone;
      best = k < best ? k : best;
    }
    void position(uint64_t index) {
      const unsigned v = record[best];
      seen |= v;
      out[index] = static_cast<Record>(v);
      best = kNone;
    }
    /// True when a position written since the accumulator was made needs more than a byte.
    bool overflowed() const { return seen > 255; }

   private:
    static constexpr std::array<uint8_t, 256> kKey = [] {
      std::array<uint8_t, 256> k{};
      for (unsigned r = 0; r < 256; ++r) k[r] = static_cast<uint8_t>((r & 1) ? 255 - r / 2 : r / 2);
      return k;
    }();
    static constexpr std::array<uint16_t, kNone + 1> kRecord = [] {
      std::array<uint16_t, kNone + 1> v{};
      for (unsigned k = 0; k < kNone; ++k) v[k] = static_cast<uint16_t>(k < 128 ? 2 * k + 1 : 512 - 2 * k);
      return v;  // v[kNone] = 0: no child, a loss now
    }();
  };
  using Accumulator = AccumulatorOf<>;
};

/// The two-player parity record in two bytes, for spaces whose games can outlast 255 moves:
/// the same encoding (remoteness, odd = win), remoteness up to 65535.
struct WideParityRecord {
  using Storage = uint16_t;
  static constexpr const char* kName = "remoteness-u16-parity";
  static constexpr int kPlayers = 2;
  static Outcome decode(Storage r) { return {(r & 1) ? Value::Win : Value::Lose, r}; }
  /// GamesCrafters' 16-bit record holds remoteness up to 4095; gamescrafters16_fits() says
  /// whether this one does.
  static bool gamescrafters16_fits(Storage r) { return r < 4096; }
  static uint16_t gamescrafters16(Storage r) {
    return static_cast<uint16_t>(((r & 1) ? kGamesmanWin : kGamesmanLose) << 12 | (r & 0xfff));
  }

  /// As ParityRecord::combine, with room for 65535 (a value above it: overflow).
  template <class Read>
  static unsigned combine(unsigned count, Read&& read) {
    if (count == 0) return 0;
    constexpr unsigned kNoEven = 1u << 20;
    unsigned min_even = kNoEven, max_odd = 0;
    for (unsigned k = 0; k < count; ++k) {
      const unsigned r = read(k);
      const unsigned odd = r & 1;
      const unsigned as_even = odd ? kNoEven : r, as_odd = odd ? r : 0u;
      min_even = as_even < min_even ? as_even : min_even;
      max_odd = as_odd > max_odd ? as_odd : max_odd;
    }
    return (min_even != kNoEven ? min_even : max_odd) + 1;
  }

  /// ParityRecord's accumulator with wider keys, computed instead of looked up (a table of
  /// 65536 keys would not stay in the first-level cache):
  ///     losing child (even r):   key r                 below 2^16
  ///     winning child (odd r):   key 2^17 - r          above every losing key; the longest first
  template <class Children = ChildRecords<Storage>>
  struct AccumulatorOf {
    static constexpr unsigned kNone = 1u << 18;
    Children child_records;
    Storage* out;
    unsigned best = kNone;
    bool overflow = false;
    AccumulatorOf(std::span<const Storage* const> slots, Storage* o)
      requires std::same_as<Children, ChildRecords<Storage>>
        : child_records(slots), out(o) {}
    AccumulatorOf(Children children, Storage* o) : child_records(children), out(o) {}
    void child(uint32_t slot, uint64_t index, bool real) {
      const unsigned r = child_records[slot][index];
      const unsigned key = (r & 1) ? (1u << 17) - r : r;
      const unsigned k = real ? key : kNone;
      best = k < best ? k : best;
    }
    void position(uint64_t index) {
      const unsigned v = best < (1u << 16) ? best + 1 : best == kNone ? 0 : (1u << 17) + 1 - best;
      overflow |= v > 65535;
      out[index] = static_cast<Storage>(v);
      best = kNone;
    }
    bool overflowed() const { return overflow; }
  };
  using Accumulator = AccumulatorOf<>;
};

/// The one-player (puzzle) record, GamesCrafters' puzzle convention: a position is a win
/// when the goal can be reached, with remoteness = the fewest moves to it, else a lose.
///
///     byte 0          lose (the goal cannot be reached)
///     byte r + 1      win in r moves (the goal itself: byte 1, win in 0)
///
/// A win is 1 + the smallest remoteness among winning children. A position without
/// children is a lose unless it is the goal, which the game reports as such (scan calls
/// visit.goal(index) instead of visit.position(index)).
struct PuzzleRecord {
  using Storage = uint8_t;
  static constexpr const char* kName = "puzzle-remoteness-u8";
  static constexpr int kPlayers = 1;
  static constexpr Record kGoal = 1;
  static Outcome decode(Record r) {
    return r ? Outcome{Value::Win, r - 1u} : Outcome{Value::Lose, 0};
  }
  /// GamesCrafters' 16-bit record: a win in k moves is (win, k); a position that cannot
  /// reach the goal is (lose, 0), as GamesmanOne writes a puzzle's dead positions.
  static uint16_t gamescrafters16(Record r) {
    return r ? static_cast<uint16_t>(kGamesmanWin << 12 | (r - 1u)) : static_cast<uint16_t>(kGamesmanLose << 12);
  }

  /// The record of a position from its children's records (a value above 255 = overflow).
  template <class Read>
  static unsigned combine(unsigned count, Read&& read) {
    unsigned best = 1024;
    for (unsigned k = 0; k < count; ++k) {
      const unsigned r = read(k);
      const unsigned key = r ? r : 1024u;
      best = key < best ? key : best;
    }
    return best == 1024 ? 0 : best + 1;
  }

  /// Reads the child tiers' pointers from the caller's list, not ChildRecords: the puzzle's
  /// scans name their slots at run time (a tier's slot of each move kind), where ChildRecords'
  /// choice between its two held pointers and the list cost more than the reload (callgrind,
  /// a frog puzzle of 7 + 7 frogs: 4 % more instructions in the scan).
  struct Accumulator {
    const Record* const* child_records;
    Record* out;
    unsigned best = 1024;
    bool overflow = false;
    Accumulator(std::span<const Record* const> slots, Record* o) : child_records(slots.data()), out(o) {}
    void child(uint32_t slot, uint64_t index, bool real) {
      const unsigned r = child_records[slot][index];
      const unsigned key = (real && r) ? r : 1024u;
      best = key < best ? key : best;
    }
    void position(uint64_t index) {
      const unsigned v = best == 1024 ? 0 : best + 1;
      overflow |= v > 255;
      out[index] = static_cast<Record>(v);
      best = 1024;
    }
    void goal(uint64_t index) {
      out[index] = kGoal;
      best = 1024;
    }
    bool overflowed() const { return overflow; }
  };
};

}  // namespace toadbase
