// A tier game's Instance, made from its module (the rules half of the contract in
// module.hpp): the engine does the rest. One template serves every tier game, with either of
// its records (make_tier_instance picks one).
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/combinable.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <span>
#include <string>

#include "solver/core/engine.hpp"
#include "solver/module/module.hpp"

namespace toadbase {

template <class M, class Rec = typename M::RecordType>
requires TierGameRules<M>
class TierInstance final : public Instance, public WinLoseValues {
 public:
  using Space = typename M::Space;
  using Position = typename M::Position;
  using R = typename Rec::Storage;

  explicit TierInstance(nlohmann::json params)
      : params_(std::move(params)), space_(M::make_space(params_)) {}

  const Space& space() const { return space_; }

  Identity identity() const override { return {M::kName, params_, Rec::kName, sizeof(R)}; }

  std::vector<TierInfo> tiers() const override {
    std::vector<TierInfo> out;
    out.reserve(space_.tier_count());
    for (TierId t = 0; t < space_.tier_count(); ++t)
      out.push_back({space_.tier_name(t), space_.tier_size(t)});
    return out;
  }

  SolveStats solve(TierStore& store, Progress* progress) const override {
    return solve_tiers<Space, Rec>(space_, store, progress);
  }
  SolveStats solve(TierStore& store, Progress* progress, const CostModel& model) const override {
    return solve_tiers<Space, Rec>(space_, store, progress, model);
  }
  SolveStats solve(TierStore* store, const TierPacker& packer, Progress* progress,
                   Transport& transport, const CostModel& model) const override {
    return solve_tiers<Space, Rec>(space_, store, &packer, progress, &transport, model);
  }
  BudgetFit budget_fit(int ranks, const CostModel& model) const override {
    if (ranks != 1) return Instance::budget_fit(ranks, model);
    CostModel m = model;
    m.record_bytes = sizeof(R);
    if constexpr (!holds_packed<Space, Rec>()) m.packed_permille = 0;  // solve_tiers holds its tiers raw
    const TierPlan p = plan_tiers(space_);
    return fit_one_rank(p, m.memory_budget, sizeof(R), packing_of(p, m, 1));  // no Distribution made
  }
  Distribution plan(int ranks, const CostModel& model) const override {
    CostModel m = model;
    m.record_bytes = sizeof(R);
    if constexpr (!holds_packed<Space, Rec>()) m.packed_permille = 0;
    TierPlan p = plan_tiers(space_);
    return distribute_within_budget(p, std::vector<char>(p.size.size(), 0), ranks, m);
  }

  /// A position string as a position of the space (or one it embeds); throws BadPosition.
  Position parse(const std::string& text, const std::string& turn) const {
    Position p;
    try {
      p = M::parse(text, turn);
    } catch (const BadTurn&) {
      throw;
    } catch (const std::invalid_argument& e) {
      throw BadPosition(printable(e.what()));
    }
    if (!embedded(space_, p)) {
      std::string why;
      if constexpr (requires { space_.why_not_contained(p); }) why = space_.why_not_contained(p);
      throw BadPosition("position '" + printable(text) +
                        "': " + (why.empty() ? std::string("it lies outside the space") : why));
    }
    return p;
  }

  Outcome outcome(const TierSource& source, const Position& p) const {
    try {
      return toadbase::probe<Space, Rec>(space_, source, p);
    } catch (const std::invalid_argument&) {
      throw BadPosition("position " + M::format(p) + " lies outside the space");
    }
  }

  static std::string autogui(const Position& p) {
    if constexpr (requires { M::autogui_position(p); }) {
      return M::autogui_position(p);
    } else {
      return M::format(p);
    }
  }

  const WinLoseValues* win_lose_values() const override { return this; }

  PositionProbe probe(const TierSource& source, const std::string& text,
                      const std::string& turn) const override {
    const Position p = parse(text, turn);
    PositionProbe out;
    out.players = Rec::kPlayers;
    if constexpr (requires { M::turn(p); }) out.turn = M::turn(p);
    out.position = M::format(p);
    out.autogui_position = autogui(p);
    out.outcome = outcome(source, p);
    for (auto& m : M::moves(p))
      out.moves.push_back(
          {m.name, m.autogui, M::format(m.child), autogui(m.child), outcome(source, m.child)});
    return out;
  }

  std::pair<std::string, Outcome> value(const TierSource& source, const std::string& text,
                                        const std::string& turn) const override {
    const Position p = parse(text, turn);
    return {M::format(p), outcome(source, p)};
  }

  Outcome lookup(const TierSource& source, const std::string& text,
                 const std::string& turn) const override {
    return outcome(source, parse(text, turn));
  }

  void check_turn(const std::string& turn) const override {
    if (turn.empty()) return;
    // every game's parse reads the turn before the text (module.hpp): an empty text's other
    // errors are not the turn's
    try {
      (void)M::parse("", turn);
    } catch (const BadTurn&) {
      throw;
    } catch (const std::exception&) {
    }
  }

  std::string start_position() const override {
    if constexpr (requires { M::start(space_); }) {
      return M::format(M::start(space_));
    } else {
      return "";
    }
  }

  std::string position_at(TierId t, uint64_t index) const override {
    return M::format(space_.unrank(t, index));
  }

  VerifyReport verify(const TierSource& source, Progress* progress) const override {
    // the probe sample goes the way a query goes: the position's string, parsed back
    return verify_tiers<Space, Rec>(
        space_, source, progress,
        [&](const Position& p) { return outcome(source, parse(M::format(p), "")); },
        [](const Position& p) { return M::format(p); });
  }

  VerifyReport verify_sample(const TierSource& source, uint64_t per_tier, uint64_t seed,
                             Progress* progress) const override {
    return toadbase::verify_sample<Space, Rec>(
        space_, source, progress, per_tier, seed,
        [&](const Position& p) { return outcome(source, parse(M::format(p), "")); },
        [](const Position& p) { return M::format(p); });
  }

  void each_tier(
      const TierSource& source,
      const std::function<void(TierId, const std::vector<uint8_t>&)>& each) const override {
    TierReader<Space, Rec> reader(space_, source);
    for (TierId t = 0; t < space_.tier_count(); ++t) {
      if constexpr (sizeof(R) == 1) {
        each(t, reader.records(t));
      } else {  // record-major bytes (this machine's order: little-endian)
        const std::vector<R> recs = reader.records(t);
        std::vector<uint8_t> raw(recs.size() * sizeof(R));
        if (!raw.empty()) std::memcpy(raw.data(), recs.data(), raw.size());
        each(t, raw);
      }
    }
  }

  std::function<std::vector<uint8_t>(TierId)> tier_reader(const TierSource& source) const override {
    auto reader = std::make_shared<TierReader<Space, Rec>>(space_, source);
    return [reader](TierId t) {
      if constexpr (sizeof(R) == 1) {
        return reader->records(t);
      } else {  // record-major bytes, as each_tier gives them
        const std::vector<R> recs = reader->records(t);
        std::vector<uint8_t> raw(recs.size() * sizeof(R));
        if (!raw.empty()) std::memcpy(raw.data(), recs.data(), raw.size());
        return raw;
      }
    };
  }

  std::vector<uint16_t> gamescrafters16(const std::vector<uint8_t>& records) const override {
    std::vector<uint16_t> out(records.size() / sizeof(R));
    for (size_t i = 0; i < out.size(); ++i) {
      R r;
      std::memcpy(&r, records.data() + i * sizeof(R), sizeof(R));
      if constexpr (requires { Rec::gamescrafters16_fits(r); }) {
        if (!Rec::gamescrafters16_fits(r))
          throw std::invalid_argument("remoteness " + std::to_string(Rec::decode(r).remoteness) +
                                      " does not fit the 12 bits of GamesCrafters' 16-bit record");
      }
      out[i] = Rec::gamescrafters16(r);
    }
    return out;
  }

  nlohmann::json analyze(const TierSource& source) const override {
    // Every tier once, level by level (read_tiers: a stored tier loaded, a derived tier
    // solved again from its held children, never recovered through a chain), counted as it
    // comes and handed to the game's census when it has one. Counts by remoteness go into
    // arrays, not maps: a position costs an increment.
    //
    // A tier's (or one thread's part's) counts: win r at 2r, lose r at 2r + 1 (grown to the
    // largest remoteness seen), and the first index of each longest remoteness.
    struct Counts {
      std::vector<uint64_t> count;
      int longest_win = -1, longest_loss = -1;
      uint64_t win_at = 0, loss_at = 0;
      uint64_t positions = 0;
      // the longer remoteness, or the same one at an earlier index
      static void keep_longest(int& longest, uint64_t& at, int r, uint64_t i) {
        if (r > longest || (r == longest && i < at)) longest = r, at = i;
      }
      void add(const Counts& o) {
        if (o.count.size() > count.size()) count.resize(o.count.size(), 0);
        for (size_t k = 0; k < o.count.size(); ++k) count[k] += o.count[k];
        keep_longest(longest_win, win_at, o.longest_win, o.win_at);
        keep_longest(longest_loss, loss_at, o.longest_loss, o.loss_at);
      }
      uint64_t at(size_t k) const { return k < count.size() ? count[k] : 0; }
    };
    std::vector<Counts> stats(space_.tier_count());
    const auto account = [&](TierId t, std::span<const R> recs) {
      tbb::combinable<Counts> parts;
      tbb::parallel_for(tbb::blocked_range<uint64_t>(0, recs.size(), uint64_t{1} << 16),
                        [&](const tbb::blocked_range<uint64_t>& range) {
                          Counts& c = parts.local();
                          for (uint64_t i = range.begin(); i != range.end(); ++i) {
                            const Outcome o = Rec::decode(recs[i]);
                            const size_t k = 2 * static_cast<size_t>(o.remoteness) + (o.value == Value::Win ? 0 : 1);
                            if (k >= c.count.size()) c.count.resize(k + 2, 0);
                            ++c.count[k];
                            const int r = static_cast<int>(o.remoteness);
                            if (o.value == Value::Win)
                              Counts::keep_longest(c.longest_win, c.win_at, r, i);
                            else
                              Counts::keep_longest(c.longest_loss, c.loss_at, r, i);
                          }
                        });
      Counts& s = stats[t];  // this tier's alone: no other task writes it
      parts.combine_each([&](const Counts& c) { s.add(c); });
      s.positions = recs.size();
    };
    nlohmann::json extra;
    if constexpr (requires { typename M::Census; }) {
      typename M::Census census(space_);
      read_tiers<Space, Rec>(space_, source, [&](TierId t, std::span<const R> whole, const auto& held) {
        account(t, whole);
        census.tier(t, [&](TierId c, uint64_t i) { return Rec::decode(c == t ? whole[i] : held(c)[i]); });
      });
      extra = census.report();
    } else {
      read_tiers<Space, Rec>(space_, source,
                             [&](TierId t, std::span<const R> whole, const auto&) { account(t, whole); });
    }

    std::map<unsigned, uint64_t> win_total, lose_total;
    nlohmann::json per_tier = nlohmann::json::array();
    int longest_win = -1, longest_loss = -1;
    std::string win_example, loss_example;
    for (TierId t = 0; t < space_.tier_count(); ++t) {
      const Counts& s = stats[t];
      uint64_t wins = 0, losses = 0;
      nlohmann::json wj = nlohmann::json::object(), lj = nlohmann::json::object();
      for (unsigned r = 0; 2 * r < s.count.size(); ++r) {
        if (const uint64_t c = s.at(2 * r)) wins += c, win_total[r] += c, wj[std::to_string(r)] = c;
        if (const uint64_t c = s.at(2 * r + 1)) losses += c, lose_total[r] += c, lj[std::to_string(r)] = c;
      }
      if (s.longest_win > longest_win) longest_win = s.longest_win, win_example = position_at(t, s.win_at);
      if (s.longest_loss > longest_loss) longest_loss = s.longest_loss, loss_example = position_at(t, s.loss_at);
      per_tier.push_back({{"tier", space_.tier_name(t)},
                          {"positions", s.positions},
                          {"wins", wins},
                          {"losses", losses},
                          {"winByRemoteness", wj},
                          {"loseByRemoteness", lj}});
    }
    nlohmann::json by_r = nlohmann::json::array();
    unsigned top = 0;
    if (!win_total.empty()) top = std::max(top, win_total.rbegin()->first);
    if (!lose_total.empty()) top = std::max(top, lose_total.rbegin()->first);
    uint64_t wins = 0, losses = 0;
    for (unsigned r = 0; r <= top; ++r) {
      const uint64_t w = win_total.count(r) ? win_total[r] : 0,
                     l = lose_total.count(r) ? lose_total[r] : 0;
      wins += w;
      losses += l;
      if (w || l) by_r.push_back({{"remoteness", r}, {"win", w}, {"lose", l}});
    }
    nlohmann::json out = {{"game", M::kName}, {"parameters", params_}, {"positions", wins + losses},
                          {"wins", wins},     {"losses", losses},      {"byRemoteness", by_r},
                          {"tiers", per_tier}};
    if (longest_win >= 0)
      out["longestWin"] = {{"remoteness", longest_win}, {"position", win_example}};
    if (longest_loss >= 0 && Rec::kPlayers == 2)
      out["longestLoss"] = {{"remoteness", longest_loss}, {"position", loss_example}};
    if (extra.is_object())
      for (auto& [k, v] : extra.items()) out[k] = v;
    return out;
  }

 private:
  nlohmann::json params_;
  Space space_;
};

}  // namespace toadbase

namespace toadbase {

/// The Instance of a tier game's space with the record `record` names (a database's
/// manifest), or with no name the one the game picks for the space: RecordType, or its
/// WideRecordType when the space's remoteness bound passes what RecordType holds. Throws
/// std::invalid_argument for a record the game does not write.
template <class M>
requires TierGameRules<M> std::unique_ptr<Instance> make_tier_instance(
    const nlohmann::json& normalized, const std::string& record = "") {
  using Narrow = typename M::RecordType;
  if (record == Narrow::kName) return std::make_unique<TierInstance<M, Narrow>>(normalized);
  if constexpr (WithWideRecord<M>) {
    using Wide = typename M::WideRecordType;
    if (record == Wide::kName) return std::make_unique<TierInstance<M, Wide>>(normalized);
    if (record.empty()) {
      if (M::remoteness_bound(normalized) > kMaxStored<Narrow>)
        return std::make_unique<TierInstance<M, Wide>>(normalized);
      return std::make_unique<TierInstance<M, Narrow>>(normalized);
    }
    throw std::invalid_argument(std::string(M::kName) + " has no record '" + record +
                                "': it writes " + Narrow::kName + " or " + Wide::kName);
  } else {
    if (record.empty()) return std::make_unique<TierInstance<M, Narrow>>(normalized);
    throw std::invalid_argument(std::string(M::kName) + " has no record '" + record +
                                "': it writes " + Narrow::kName);
  }
}

/// The names of the records a tier game writes (its RecordType first).
template <class M>
requires TierGameRules<M> std::vector<std::string> tier_records() {
  // one initializer list: GCC 12 reads a push_back of a long name into a vector made just
  // before as writing past the string (-Warray-bounds, a false positive)
  if constexpr (WithWideRecord<M>) {
    return {M::RecordType::kName, M::WideRecordType::kName};
  } else {
    return {M::RecordType::kName};
  }
}

}  // namespace toadbase
