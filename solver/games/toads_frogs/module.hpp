// Toads and Frogs' module (the contract: solver/module/module.hpp): parameters, position
// strings, named moves, the start position and the outcome-class census. The tier engine
// does the rest; one line in tools/registry.cpp registers it.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/combinable.h>
#include <tbb/parallel_for.h>

#include <array>
#include <functional>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "solver/core/solve.hpp"
#include "solver/module/module.hpp"
#include "solver/games/toads_frogs/toads_frogs.hpp"

namespace toadbase::toads_frogs {

struct Module {
  using Space = toads_frogs::Space;
  using Position = toads_frogs::Position;
  using RecordType = ParityRecord;
  /// For a space whose games could outlast 255 moves (none up to kMaxLength: remoteness_bound),
  /// or given by hand (`--record remoteness-u16-parity`).
  using WideRecordType = WideParityRecord;

  static constexpr const char* kName = "toads-frogs";
  static constexpr const char* kTitle = "Toads and Frogs (Richard Guy), two players";

  static std::vector<ParamSpec> parameters();
  /// Turns the options given (a JSON object of the parameters) into the space's identity:
  /// {"length": n} or {"length": n, "toads": t, "frogs": f}. Throws std::invalid_argument.
  static nlohmann::json normalize(const nlohmann::json& given);
  static Space make_space(const nlohmann::json& normalized);
  /// Parses a position string; `turn` ("1"/"2"/"") supplies the player for a bare board.
  static Position parse(const std::string& text, const std::string& turn);
  static std::string format(const Position& p) { return toads_frogs::format(p); }
  static std::vector<NamedMove<Position>> moves(const Position& p);
  /// The player to move: 1 the Toads, 2 the Frogs.
  static int turn(const Position& p) { return static_cast<int>(p.turn); }
  /// The space's start: its piece counts packed at the ends (T..T-..-F..F), or for every
  /// count the conventional start of the length (round(n/3) toads and frogs), Toads to move.
  static Position start(const Space& space);
  /// GamesmanUni's view: two players, toads T and frogs F, the rules; a variant is named
  /// "16 cells" or "16 cells, 5 toads, 5 frogs".
  static UwapiGame uwapi();
  /// The page's view: a strip of toads and frogs, the player to move first ("1_"), against
  /// perfect play.
  static PageView page();

  /// A bound on the number of moves of any game of the space, e(t + f) + tf (e empty cells,
  /// t toads, f frogs), at its worst piece counts: 161 for length 22, 192 for 24, 243 for 27,
  /// so every length up to kMaxLength keeps one-byte records. With P = (sum of toad cells) -
  /// (sum of frog cells) and I the pairs of a toad left of a frog: a slide raises P by 1 and
  /// keeps I, a jump raises P by 2 and lowers I by 1 (the two pieces pass, never to pass
  /// back). The cells right of a toad hold at least the toads and the frogs to its right, so
  /// the toads' sum is at most its largest less I; the cells left of a frog likewise hold the
  /// toads and frogs to its left, so the frogs' sum is at least its smallest plus I: P <=
  /// Pmax - 2I, and in the same way P >= Pmin + 2(tf - I), with Pmax - Pmin = e(t + f) + 2tf.
  /// A game of J jumps from I0 to I0 - J therefore has at most e(t + f) + 2J - J moves, and
  /// J <= I0 <= tf. Up to 10 cells, where a test plays every game out, it is the longest
  /// game of every space with an empty cell.
  static uint64_t remoteness_bound(const nlohmann::json& normalized);

  /// The outcome classes L / R / N / P of every board, by piece counts: counted at each
  /// Frogs' tier, which reads the Toads' tier of the same boards (same index).
  class Census {
   public:
    explicit Census(const Space& space) : space_(space) {}
    /// Tier u is whole; at(tier, i) is the outcome of position i of u or of a tier read to
    /// make u (u, Frogs to move, is derived: its children are).
    /// Thread-safe: analyze gives the tiers of a level side by side.
    template <class OutcomeAt>
    void tier(TierId u, OutcomeAt&& at) {
      if (space_.toads_to_move(u)) return;
      const TierId t = space_.other_turn_tier(u);  // the same boards, Toads to move
      using Counts = std::array<uint64_t, 4>;
      tbb::combinable<Counts> parts([] { return Counts{}; });
      tbb::parallel_for(tbb::blocked_range<uint64_t>(0, space_.tier_size(u), uint64_t{1} << 16),
                        [&](const tbb::blocked_range<uint64_t>& r) {
                          Counts& c = parts.local();
                          for (uint64_t i = r.begin(); i != r.end(); ++i)
                            ++c[outcome_class(at(t, i).value == Value::Win, at(u, i).value == Value::Win)];
                        });
      const Counts sum = parts.combine([](Counts a, const Counts& b) {
        for (int k = 0; k < 4; ++k) a[k] += b[k];
        return a;
      });
      std::lock_guard lock(mu_);
      auto& c = by_counts_[{space_.tier_toads(u), space_.tier_frogs(u)}];
      for (int k = 0; k < 4; ++k) c[k] += sum[k];
    }
    nlohmann::json report() const;

   private:
    // 0 L (Toads win whoever starts), 1 R, 2 N (the player to move wins), 3 P
    static int outcome_class(bool toads_win_first, bool frogs_win_first) {
      return toads_win_first ? (frogs_win_first ? 2 : 0) : (frogs_win_first ? 1 : 3);
    }
    const Space& space_;
    std::mutex mu_;
    std::map<std::pair<int, int>, std::array<uint64_t, 4>> by_counts_;  // (toads, frogs)
  };
};

}  // namespace toadbase::toads_frogs

// The scan of tiers held compressed (solver/core/solve.hpp: solve_range_held), compiled in its
// own unit (held_scan.cpp) for both records: beside the natural scan it changed how the
// compiler built that one.
namespace toadbase {
extern template void solve_range_held<toads_frogs::Space, ParityRecord, uint8_t>(
    const toads_frogs::Space&, TierId, uint64_t, uint64_t, const std::vector<HeldRecords<uint8_t>>&, uint8_t*,
    const HeldRecords<uint8_t>*, tbb::enumerable_thread_specific<UnpackedBlocks>&);
extern template void solve_range_held<toads_frogs::Space, WideParityRecord, uint16_t>(
    const toads_frogs::Space&, TierId, uint64_t, uint64_t, const std::vector<HeldRecords<uint16_t>>&, uint16_t*,
    const HeldRecords<uint16_t>*, tbb::enumerable_thread_specific<UnpackedBlocks>&);
}  // namespace toadbase
