// The command line's adapter for a tiered game: one template serves every game whose
// space satisfies TierGame and whose traits give parameters, position strings and moves.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>

#include "solver/core/hash.hpp"
#include "solver/core/tier_solver.hpp"
#include "tools/module.hpp"

namespace toadbase::tools {

template <class G>
class TierInstance : public Instance {
 public:
  using Space = typename G::Space;
  using Position = typename G::Position;
  using Rec = typename G::RecordType;
  static_assert(TierGame<Space>);

  explicit TierInstance(nlohmann::json params)
      : params_(std::move(params)), space_(G::make_space(params_)) {}

  db::Identity identity() const override { return {G::kName, params_, Rec::kName}; }

  std::vector<db::TierInfo> tiers() const override {
    std::vector<db::TierInfo> out;
    out.reserve(space_.tier_count());
    for (TierId t = 0; t < space_.tier_count(); ++t)
      out.push_back({space_.tier_name(t), space_.tier_size(t)});
    return out;
  }

  SolveStats solve(TierStore& store, Progress* progress) const override {
    return solve_tiers<Space, Rec>(space_, store, progress);
  }

  Position parse_checked(const std::string& text, const std::string& turn) const {
    Position p;
    try {
      p = G::parse(text, turn);
    } catch (const std::invalid_argument& e) {
      throw BadPosition(e.what());
    }
    std::string why = space_.why_not_contained(p);
    if (!why.empty() && !embedded(p)) throw BadPosition("position '" + text + "': " + why);
    return p;
  }

  /// The position itself, or the game's equivalent of it inside the space (a shorter board).
  std::optional<Position> embedded(const Position& p) const {
    if constexpr (requires { space_.embed(p); }) {
      return space_.embed(p);
    } else {
      if (space_.contains(p)) return p;
      return std::nullopt;
    }
  }

  /// The record of a position of the space, through the database.
  unsigned record_of(const db::Database& db, const Position& given) const {
    const Position p = canonical(space_, given);  // a tail position: its stored equivalent
    const TierIndex ti = space_.rank(p);
    if (tier_stored(space_, ti.tier)) return db.read_record(ti.tier, ti.index);
    // a derived tier: one ply from its children, which are stored
    const auto children = space_.children(p);
    std::vector<unsigned> recs;
    for (const auto& c : children) {
      const TierIndex ci = space_.rank(canonical(space_, c));
      recs.push_back(db.read_record(ci.tier, ci.index));
    }
    return record_from_children<Rec>(space_, p, static_cast<unsigned>(recs.size()),
                                     [&](unsigned k) { return recs[k]; });
  }

  Outcome outcome_of(const db::Database& db, const Position& given) const {
    const std::optional<Position> inside = embedded(given);
    if (!inside) throw BadPosition("position " + G::format(given) + " lies outside the space");
    return Rec::decode(static_cast<Record>(record_of(db, *inside)));
  }

  std::vector<Record> tier_records(const db::Database& db, TierId t) const override {
    ReadStore store(db);
    {
      std::lock_guard lock(memo_mu_);
      if (memo_db_ != &db) {  // the memo holds one database's tiers
        memo_.clear();
        memo_bytes_ = 0;
        memo_db_ = &db;
      }
    }
    // this tier and those it reads (a tail's source, a derived tier's children) go through a
    // small memo, since a pass over every tier reads each of them again; pinned for this call
    std::vector<std::shared_ptr<const std::vector<Record>>> pinned;
    std::function<const Record*(TierId)> fetch = [&](TierId c) -> const Record* {
      std::shared_ptr<const std::vector<Record>> recs;
      {
        std::lock_guard lock(memo_mu_);
        for (const auto& [id, r] : memo_)
          if (id == c) recs = r;
      }
      if (!recs) {
        recs = std::make_shared<const std::vector<Record>>(recover_tier<Space, Rec>(space_, store, c, fetch));
        std::lock_guard lock(memo_mu_);
        memo_.push_back({c, recs});
        memo_bytes_ += recs->size();
        while (memo_bytes_ > kMemoBytes && memo_.size() > 1) {
          memo_bytes_ -= memo_.front().second->size();
          memo_.pop_front();
        }
      }
      pinned.push_back(recs);
      return recs->data();
    };
    const Record* r = fetch(t);
    return std::vector<Record>(r, r + space_.tier_size(t));
  }

  std::pair<std::string, Outcome> lookup(const db::Database& db, const std::string& text,
                                         const std::string& turn) const override {
    Position p = parse_checked(text, turn);
    return {G::format(p), outcome_of(db, p)};
  }

  std::string position_at(TierId t, uint64_t index) const override {
    return G::format(space_.unrank(t, index));
  }

  nlohmann::ordered_json query(const db::Database& db, const std::string& text,
                               const std::string& turn) const override {
    Position p = parse_checked(text, turn);
    Outcome o = outcome_of(db, p);
    struct Row {
      std::string name, autogui, child;
      Outcome child_outcome;
      bool winning;  // for the player making the move
    };
    constexpr bool kPuzzle = Rec::kPlayers == 1;
    std::vector<Row> rows;
    for (auto& m : G::moves(p)) {
      Outcome c = outcome_of(db, m.child);
      // two players: a move wins when the child is lost for the opponent;
      // a puzzle: a move wins when the goal stays reachable
      const bool winning = kPuzzle ? c.value == Value::Win : c.value == Value::Lose;
      rows.push_back({m.name, m.autogui, G::format(m.child), c, winning});
    }
    // best first: winning moves by the shortest win, then losing moves by the longest loss
    std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
      if (a.winning != b.winning) return a.winning;
      return a.winning ? a.child_outcome.remoteness < b.child_outcome.remoteness
                       : a.child_outcome.remoteness > b.child_outcome.remoteness;
    });
    int min_losing_child = -1, max_winning_child = -1;
    for (const Row& r : rows) {
      int rem = static_cast<int>(r.child_outcome.remoteness);
      if (r.winning && (min_losing_child < 0 || rem < min_losing_child)) min_losing_child = rem;
      if (!r.winning && rem > max_winning_child) max_winning_child = rem;
    }
    nlohmann::ordered_json moves = nlohmann::ordered_json::array();
    for (const Row& r : rows) {
      int rem = static_cast<int>(r.child_outcome.remoteness);
      // UWAPI: two players measure against the best move; a puzzle: parent minus child
      int delta = kPuzzle ? static_cast<int>(o.remoteness) - rem
                          : (r.winning ? rem - min_losing_child : max_winning_child - rem);
      moves.push_back({{"move", r.name},
                       {"autoguiMove", r.autogui},
                       {"position", r.child},
                       {"moveValue", r.winning ? "win" : "lose"},
                       {"positionValue", value_name(r.child_outcome.value)},
                       {"remoteness", r.child_outcome.remoteness},
                       {"deltaRemoteness", delta}});
    }
    nlohmann::ordered_json j;
    j["position"] = G::format(p);
    j["positionValue"] = value_name(o.value);
    j["remoteness"] = o.remoteness;
    j["moves"] = std::move(moves);
    return j;
  }

  VerifyReport verify(const db::Database& db, Progress* progress) const override {
    VerifyReport rep;
    const TierId n = space_.tier_count();
    const std::vector<TierId> last = last_readers(space_);
    std::vector<std::vector<Record>> held(n);
    for (TierId t = 0; t < n; ++t) {
      const bool is_stored = tier_stored(space_, t);
      const uint64_t size = space_.tier_size(t);
      std::vector<Record> stored;
      try {
        // checks block digests (and the tier digest when it keeps every record); a derived
        // tier has its digest only, a tier with a tail its prefix
        if (is_stored) stored = db.read_tier(t);
        if (db.tier_meta(t).positions != size)
          throw db::DbError("holds " + std::to_string(db.tier_meta(t).positions) +
                            " records, the space has " + std::to_string(size));
        if (is_stored && stored.size() < records_kept(space_, t))
          throw db::DbError("keeps " + std::to_string(stored.size()) + " records, lookups need " +
                            std::to_string(records_kept(space_, t)));
      } catch (const std::exception& e) {
        rep.ok = false;
        rep.problem = std::string(e.what()) + " (tier " + space_.tier_name(t) + ")";
        return rep;
      }
      std::vector<Record> mine(size);
      const std::vector<TierId> kids = space_.child_tiers(t);
      std::mutex mu;
      uint64_t first_bad = UINT64_MAX;
      std::string problem;
      auto fail = [&](uint64_t i, std::string what) {
        std::lock_guard<std::mutex> lock(mu);
        if (i < first_bad) {
          first_bad = i;
          problem = std::move(what);
        }
      };
      tbb::parallel_for(tbb::blocked_range<uint64_t>(0, size, 4096),
                        [&](const tbb::blocked_range<uint64_t>& r) {
        std::vector<unsigned> recs;
        for (uint64_t i = r.begin(); i != r.end(); ++i) {
          const Position p = space_.unrank(t, i);
          if (!(space_.rank(p) == TierIndex{t, i})) {
            fail(i, "tier " + space_.tier_name(t) + " index " + std::to_string(i) +
                        ": rank(unrank) does not come back (" + G::format(p) + ")");
            return;
          }
          recs.clear();
          for (const auto& c : space_.children(p)) {
            TierIndex ci = space_.rank(c);
            if (std::find(kids.begin(), kids.end(), ci.tier) == kids.end()) {
              fail(i, "tier " + space_.tier_name(t) + " index " + std::to_string(i) + ": child " +
                          G::format(c) + " lies outside the child tiers");
              return;
            }
            recs.push_back(held[ci.tier][ci.index]);
          }
          const unsigned want = record_from_children<Rec>(
              space_, p, static_cast<unsigned>(recs.size()), [&](unsigned k) { return recs[k]; });
          if (want > kMaxRemoteness) {
            fail(i, "tier " + space_.tier_name(t) + " index " + std::to_string(i) +
                        ": remoteness overflows the record");
            return;
          }
          mine[i] = static_cast<Record>(want);
          if (i < stored.size() && mine[i] != stored[i]) {
            Outcome have = Rec::decode(stored[i]), should = Rec::decode(mine[i]);
            fail(i, "tier " + space_.tier_name(t) + " index " + std::to_string(i) + " (" +
                        G::format(p) + "): stored " + std::string(value_name(have.value)) + " in " +
                        std::to_string(have.remoteness) + ", recomputed " +
                        std::string(value_name(should.value)) + " in " +
                        std::to_string(should.remoteness));
            return;
          }
        }
      });
      if (first_bad == UINT64_MAX && xxh64(mine.data(), mine.size()) != db.tier_meta(t).digest) {
        first_bad = 0;
        problem = "tier " + space_.tier_name(t) +
                  (is_stored ? std::string(" (its tail, copied from another tier)")
                             : std::string(" (derived, not stored)")) +
                  ": its recomputed records do not match the digest the solve recorded";
      }
      if (first_bad != UINT64_MAX) {
        rep.ok = false;
        rep.problem = problem;
        return rep;
      }
      rep.positions_checked += mine.size();
      if (last[t] > t) held[t] = std::move(mine);
      for (TierId c : kids)
        if (last[c] <= t) std::vector<Record>().swap(held[c]);
      if (progress) progress->tier_done(space_.tier_name(t), space_.tier_size(t), false);
    }
    return rep;
  }

  nlohmann::json analyze(const db::Database& db) const override {
    std::map<unsigned, uint64_t> win_total, lose_total;
    nlohmann::json per_tier = nlohmann::json::array();
    int longest_win = -1, longest_loss = -1;
    std::string win_example, loss_example;
    for (TierId t = 0; t < space_.tier_count(); ++t) {
      const std::vector<Record> recs = tier_records(db, t);
      std::map<unsigned, uint64_t> w, l;
      int tw = -1, tl = -1;
      uint64_t iw = 0, il = 0;
      for (uint64_t i = 0; i < recs.size(); ++i) {
        Outcome o = Rec::decode(recs[i]);
        int r = static_cast<int>(o.remoteness);
        if (o.value == Value::Win) {
          ++w[o.remoteness];
          if (r > tw) tw = r, iw = i;
        } else {
          ++l[o.remoteness];
          if (r > tl) tl = r, il = i;
        }
      }
      uint64_t wins = 0, losses = 0;
      nlohmann::json wj = nlohmann::json::object(), lj = nlohmann::json::object();
      for (auto [r, c] : w) wins += c, win_total[r] += c, wj[std::to_string(r)] = c;
      for (auto [r, c] : l) losses += c, lose_total[r] += c, lj[std::to_string(r)] = c;
      if (tw > longest_win) longest_win = tw, win_example = position_at(t, iw);
      if (tl > longest_loss) longest_loss = tl, loss_example = position_at(t, il);
      per_tier.push_back({{"tier", space_.tier_name(t)},
                          {"positions", recs.size()},
                          {"wins", wins},
                          {"losses", losses},
                          {"win_by_remoteness", wj},
                          {"lose_by_remoteness", lj}});
    }
    nlohmann::json by_r = nlohmann::json::array();
    unsigned top = 0;
    if (!win_total.empty()) top = std::max(top, win_total.rbegin()->first);
    if (!lose_total.empty()) top = std::max(top, lose_total.rbegin()->first);
    uint64_t wins = 0, losses = 0;
    for (unsigned r = 0; r <= top; ++r) {
      uint64_t w = win_total.count(r) ? win_total[r] : 0, l = lose_total.count(r) ? lose_total[r] : 0;
      wins += w;
      losses += l;
      if (w || l) by_r.push_back({{"remoteness", r}, {"win", w}, {"lose", l}});
    }
    nlohmann::json out = {{"game", G::kName},
                          {"parameters", params_},
                          {"positions", wins + losses},
                          {"wins", wins},
                          {"losses", losses},
                          {"by_remoteness", by_r},
                          {"tiers", per_tier}};
    if (longest_win >= 0)
      out["longest_win"] = {{"remoteness", longest_win}, {"position", win_example}};
    if (longest_loss >= 0 && Rec::kPlayers == 2)
      out["longest_loss"] = {{"remoteness", longest_loss}, {"position", loss_example}};
    if constexpr (requires { G::census(space_, [](TierId) { return std::vector<Record>{}; }); }) {
      nlohmann::json extra = G::census(space_, [&](TierId t) { return tier_records(db, t); });
      for (auto& [k, v] : extra.items()) out[k] = v;
    }
    return out;
  }

 private:
  /// The solver's view of a database opened to read.
  class ReadStore : public TierStore {
   public:
    explicit ReadStore(const db::Database& db) : db_(db) {}
    bool has_tier(TierId t) const override { return db_.tier_committed(t); }
    std::vector<Record> load_tier(TierId t) override { return db_.read_tier(t); }
    void commit_tier(TierId, const std::vector<Record>&, uint64_t) override {
      throw std::logic_error("a database opened to read takes no tiers");
    }

   private:
    const db::Database& db_;
  };

  static constexpr uint64_t kMemoBytes = uint64_t{256} << 20;
  nlohmann::json params_;
  Space space_;
  mutable std::mutex memo_mu_;
  mutable std::deque<std::pair<TierId, std::shared_ptr<const std::vector<Record>>>> memo_;
  mutable uint64_t memo_bytes_ = 0;
  mutable const db::Database* memo_db_ = nullptr;
};

template <class G>
class TierGameModule : public GameModule {
 public:
  std::string name() const override { return G::kName; }
  std::string title() const override { return G::kTitle; }
  std::vector<ParamSpec> parameters() const override { return G::parameters(); }
  nlohmann::json normalize(const nlohmann::json& given) const override {
    return G::normalize(given);
  }
  std::unique_ptr<Instance> instance(const nlohmann::json& normalized) const override {
    return std::make_unique<TierInstance<G>>(normalized);
  }
  std::vector<GameCommand> add_commands(CLI::App& root) const override {
    if constexpr (requires { G::add_commands(root); }) {
      return G::add_commands(root);
    } else {
      return {};
    }
  }
};

}  // namespace toadbase::tools
