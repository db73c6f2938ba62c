// The distributed walk without MPI: ranks are threads of this process and talk through an
// in-memory Transport (LoopHub below), so the engine's plan, messages, reports and resume are
// tested here, fast and under the sanitizers; test_mpi.cpp runs the same solve under mpirun.
// Every distributed solve must commit, on rank 0, exactly the records and digests of a solve
// in one process.
#include <catch2/catch.hpp>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <cstddef>
#include <optional>
#include <functional>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "solver/core/distribute.hpp"
#include "solver/core/engine.hpp"
#include "solver/games/toads_frogs/toads_frogs.hpp"
#include "support.hpp"

using namespace tbtest;
using toadbase::CostModel;
using toadbase::Distribution;
using toadbase::Transport;
using toadbase::WireHeader;

namespace {

/// The ranks' mailboxes and collectives, in memory.
class LoopHub {
 public:
  explicit LoopHub(int ranks) : ranks_(ranks), boxes_(static_cast<size_t>(ranks)), round_(static_cast<size_t>(ranks)) {}
  int ranks() const { return ranks_; }

  struct Message {
    int from;
    std::vector<uint8_t> header, payload;
  };
  void post(int to, Message m) {
    std::lock_guard lock(mu_);
    WireHeader h;
    std::memcpy(&h, m.header.data(), sizeof h);
    ++kinds_[h.kind];
    boxes_[static_cast<size_t>(to)].push_back(std::move(m));
    cv_.notify_all();
  }
  bool take(int rank, bool wait, Message& out) {
    std::unique_lock lock(mu_);
    auto& box = boxes_[static_cast<size_t>(rank)];
    if (wait && !cv_.wait_for(lock, std::chrono::seconds(60), [&] { return !box.empty() || failed_; }))
      throw std::runtime_error("rank " + std::to_string(rank) + " waited a minute for a message");
    if (failed_) throw std::runtime_error("another rank failed");
    if (box.empty()) return false;
    out = std::move(box.front());
    box.pop_front();
    return true;
  }
  /// Every rank's contribution, once all have given theirs (a generation at a time).
  std::vector<std::vector<uint8_t>> exchange(int rank, std::vector<uint8_t> mine) {
    std::unique_lock lock(mu_);
    const uint64_t gen = generation_;
    round_[static_cast<size_t>(rank)] = std::move(mine);
    if (++arrived_ == ranks_) {
      done_ = round_;
      round_.assign(static_cast<size_t>(ranks_), {});
      arrived_ = 0;
      ++generation_;
      cv_.notify_all();
    } else if (!cv_.wait_for(lock, std::chrono::seconds(60), [&] { return generation_ != gen || failed_; })) {
      throw std::runtime_error("rank " + std::to_string(rank) + " waited a minute in a collective");
    }
    if (failed_) throw std::runtime_error("another rank failed");
    return done_;
  }
  void fail() {
    std::lock_guard lock(mu_);
    failed_ = true;
    cv_.notify_all();
  }
  uint64_t messages(uint32_t kind) const {
    std::lock_guard lock(mu_);
    return kinds_.count(kind) ? kinds_.at(kind) : 0;
  }

 private:
  int ranks_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::deque<Message>> boxes_;
  std::vector<std::vector<uint8_t>> round_, done_;
  int arrived_ = 0;
  uint64_t generation_ = 0;
  bool failed_ = false;
  std::map<uint32_t, uint64_t> kinds_;
};

class LoopTransport : public Transport {
 public:
  LoopTransport(LoopHub& hub, int rank) : hub_(hub), rank_(rank) {}
  int rank() const override { return rank_; }
  int ranks() const override { return hub_.ranks(); }
  void send(std::span<const int> to, std::span<const uint8_t> header, std::span<const uint8_t> payload,
            bool) override {
    for (int r : to) {
      if (r == rank_) throw std::logic_error("a message to itself");
      hub_.post(r, {rank_, std::vector<uint8_t>(header.begin(), header.end()),
                    std::vector<uint8_t>(payload.begin(), payload.end())});
      std::lock_guard lock(mu_);
      ++k_.messages_sent;
      k_.raw_sent += payload.size();
    }
  }
  bool receive(bool wait, Inbox& inbox) override {
    LoopHub::Message m;
    if (!hub_.take(rank_, wait, m)) return false;
    uint8_t* dest = inbox.place(m.from, m.header, m.payload.size());
    if (!m.payload.empty()) std::memcpy(dest, m.payload.data(), m.payload.size());
    inbox.arrived(m.from, m.header);
    std::lock_guard lock(mu_);
    ++k_.messages_received;
    k_.raw_received += m.payload.size();
    return true;
  }
  void flush() override {}
  void broadcast(std::vector<uint8_t>& bytes) override { bytes = hub_.exchange(rank_, bytes)[0]; }
  std::vector<uint64_t> all_gather(std::span<const uint64_t> values) override {
    std::vector<uint8_t> mine(values.size() * 8);
    std::memcpy(mine.data(), values.data(), mine.size());
    std::vector<uint64_t> out;
    for (const auto& v : hub_.exchange(rank_, mine)) {
      const size_t at = out.size();
      out.resize(at + v.size() / 8);
      std::memcpy(out.data() + at, v.data(), v.size());
    }
    return out;
  }
  Counters counters() const override {
    std::lock_guard lock(mu_);
    return k_;
  }

 private:
  LoopHub& hub_;
  int rank_;
  mutable std::mutex mu_;
  Counters k_;
};

/// Solves `game` on `ranks` ranks (threads), rank 0 into `store`; returns every rank's stats.
template <class G, class Rec = toadbase::ParityRecord>
std::vector<toadbase::SolveStats> solve_on(const G& game, int ranks, BasicMemStore<typename Rec::Storage>& store,
                                           const CostModel& model, LoopHub* hub_out = nullptr, int threads = 1) {
  return solve_on<G, Rec>(game, ranks, store, std::vector<CostModel>(static_cast<size_t>(ranks), model), hub_out, threads);
}

/// The same, each rank with a model of its own (models[r]).
template <class G, class Rec = toadbase::ParityRecord>
std::vector<toadbase::SolveStats> solve_on(const G& game, int ranks, BasicMemStore<typename Rec::Storage>& store,
                                           const std::vector<CostModel>& models, LoopHub* hub_out = nullptr,
                                           int threads = 1) {
  LoopHub local(ranks);
  LoopHub& hub = hub_out ? *hub_out : local;
  std::vector<toadbase::SolveStats> stats(static_cast<size_t>(ranks));
  std::vector<std::string> errors(static_cast<size_t>(ranks));
  std::vector<std::thread> threads_of;
  const MemPacker<typename Rec::Storage> packer;
  for (int r = 0; r < ranks; ++r)
    threads_of.emplace_back([&, r] {
      try {
        LoopTransport tr(hub, r);
        stats[static_cast<size_t>(r)] = toadbase::with_threads(threads, [&] {
          return toadbase::solve_tiers<G, Rec>(game, r == 0 ? &store : nullptr, &packer, nullptr, &tr,
                                               models[static_cast<size_t>(r)]);
        });
      } catch (const std::exception& e) {
        errors[static_cast<size_t>(r)] = e.what();
        hub.fail();
      }
    });
  for (auto& t : threads_of) t.join();
  for (int r = 0; r < ranks; ++r) INFO("rank " << r << ": " << errors[static_cast<size_t>(r)]);
  for (const auto& e : errors) REQUIRE(e.empty());
  return stats;
}

/// Runs rank(r, hub) for ranks 0 and 1, each on a thread; returns each rank's error (empty:
/// none). A rank that fails ends the other's waits.
std::vector<std::string> on_two_ranks(const std::function<void(int, LoopHub&)>& rank) {
  LoopHub hub(2);
  std::vector<std::string> errors(2);
  std::vector<std::thread> ts;
  for (int r = 0; r < 2; ++r)
    ts.emplace_back([&, r] {
      try {
        rank(r, hub);
      } catch (const std::exception& e) {
        errors[static_cast<size_t>(r)] = e.what();
        hub.fail();
      }
    });
  for (auto& t : ts) t.join();
  return errors;
}

/// What rank 0 committed equals a one-process solve: kept records and every digest.
template <class R>
void require_same(const BasicMemStore<R>& one, const BasicMemStore<R>& many, const std::vector<uint64_t>& kept) {
  REQUIRE(one.records.size() == many.records.size());
  uint64_t bad = 0;
  for (TierId t = 0; t < one.records.size(); ++t) {
    if (!many.committed[t] || many.digest_of(t) != one.digest_of(t) || many.kept[t] != kept[t] ||
        !std::equal(many.records[t].begin(), many.records[t].begin() + static_cast<ptrdiff_t>(kept[t]),
                    one.records[t].begin()))
      ++bad;
  }
  CHECK(bad == 0);
}

std::vector<uint64_t> kept_of(const tf::Space& s) {
  std::vector<uint64_t> k;
  for (TierId t = 0; t < s.tier_count(); ++t) k.push_back(toadbase::records_kept(s, t));
  return k;
}

}  // namespace

TEST_CASE("distributed walk: 1 to 4 ranks commit what one process commits", "[distributed]") {
  const tf::Space space(tf::SpaceParams{9, std::nullopt, std::nullopt});
  MemStore one(space.tier_count());
  toadbase::solve_tiers(space, one, nullptr);
  for (bool whole : {true, false})
    for (int ranks : {1, 2, 3, 4}) {
      DYNAMIC_SECTION(ranks << " ranks, " << (whole ? "whole components" : "tiers anywhere")) {
        CostModel model;
        model.whole_components = whole;
        MemStore many(space.tier_count());
        LoopHub hub(ranks);
        const auto stats = solve_on(space, ranks, many, model, &hub);
        require_same(one, many, kept_of(space));
        uint64_t computed = 0;
        for (const auto& s : stats) computed += s.positions_computed;
        CHECK(computed == space.total_positions());
        CHECK(stats[0].tiers_solved == space.tier_count());
        CHECK(stats[0].positions_solved == space.total_positions());
        // rank 0 commits what the others report packed, and nothing twice
        CHECK(many.commits == space.tier_count());
        if (ranks > 1) CHECK(many.packed_commits > 0);
        // reports travel batched: at most one message a level from each other rank
        const auto levels = toadbase::plan_tiers(space).by_level.size();
        CHECK(hub.messages(WireHeader::kReports) <= static_cast<uint64_t>(ranks - 1) * levels);
        CHECK((hub.messages(WireHeader::kReports) > 0) == (many.packed_commits > 0));
        if (ranks > 1) CHECK(hub.messages(WireHeader::kReports) < many.packed_commits);
        // whole components: the tiers cross no wire (Toads and Frogs' components are its
        // piece counts: tails and children keep them), only reports do, while every
        // component fits one rank's share (on 4 ranks the 6-piece boards do not)
        if (whole && ranks <= 3) CHECK(hub.messages(WireHeader::kPiece) == 0);
        if (!whole && ranks > 1) CHECK(hub.messages(WireHeader::kPiece) > 0);
      }
    }
}

TEST_CASE("distributed walk: tiers split in pieces across ranks", "[distributed]") {
  const tf::Space space(tf::SpaceParams{9, std::nullopt, std::nullopt});
  MemStore one(space.tier_count());
  toadbase::solve_tiers(space, one, nullptr);
  for (uint64_t piece : {7u, 100u}) {
    for (int ranks : {2, 3}) {
      DYNAMIC_SECTION(ranks << " ranks, pieces of " << piece) {
        CostModel model;
        model.whole_components = false;
        model.piece_positions = piece;
        MemStore many(space.tier_count());
        LoopHub hub(ranks);
        solve_on(space, ranks, many, model, &hub, 2);
        require_same(one, many, kept_of(space));
        // the plan did split tiers over several ranks
        std::vector<char> none(space.tier_count(), 0);
        model.record_bytes = 1;
        const Distribution d = toadbase::distribute(toadbase::plan_tiers(space), none, ranks, model);
        uint64_t spread = 0;
        for (TierId t = 0; t < space.tier_count(); ++t) {
          std::set<int> on;
          for (uint32_t i = d.first_piece[t]; i < d.first_piece[t + 1]; ++i) on.insert(d.pieces[i].rank);
          spread += on.size() > 1;
        }
        CHECK(spread > 0);
      }
    }
  }
}

TEST_CASE("distributed walk: the plan covers every tier once and is the same for the same inputs", "[distributed]") {
  const tf::Space space(tf::SpaceParams{11, std::nullopt, std::nullopt});
  const toadbase::TierPlan plan = toadbase::plan_tiers(space);
  std::mt19937 rng(3);
  for (int round = 0; round < 6; ++round) {
    std::vector<char> skip(space.tier_count(), 0);
    if (round % 2)
      for (auto& s : skip) s = rng() % 3 == 0;
    CostModel model;
    model.whole_components = round < 3;
    model.piece_positions = round == 5 ? 500 : 0;
    const int ranks = 2 + round;
    const Distribution a = toadbase::distribute(plan, skip, ranks, model), b = toadbase::distribute(plan, skip, ranks, model);
    CHECK(a.hash() == b.hash());
    uint64_t bad = 0, positions = 0;
    for (TierId t = 0; t < space.tier_count(); ++t) {
      if (skip[t]) {
        bad += a.pieces_of(t) != 0;
        continue;
      }
      uint64_t at = 0;
      for (uint32_t i = a.first_piece[t]; i < a.first_piece[t + 1]; ++i) {
        const auto& p = a.pieces[i];
        bad += p.tier != t || p.lo != at || p.hi <= p.lo || p.rank < 0 || p.rank >= ranks;
        at = p.hi;
      }
      bad += at != space.tier_size(t);
      positions += space.tier_size(t);
      bad += a.reporter[t] < 0 || a.reporter[t] >= ranks;
    }
    CHECK(bad == 0);
    uint64_t planned = 0;
    for (const auto& l : a.load) planned += l.positions;
    CHECK(planned == positions);
  }
}

TEST_CASE("distributed walk: resumed from any committed subset, on any number of ranks", "[distributed][resume]") {
  const tf::Space space(tf::SpaceParams{8, std::nullopt, std::nullopt});
  MemStore one(space.tier_count());
  toadbase::solve_tiers(space, one, nullptr);
  std::mt19937 rng(11);
  for (int round = 0; round < 8; ++round) {
    const int ranks = 1 + round % 4;
    DYNAMIC_SECTION("round " << round << ", " << ranks << " ranks") {
      MemStore partial(space.tier_count());
      partial.allow_recommit = true;
      for (TierId t = 0; t < space.tier_count(); ++t)
        if (rng() % 2) partial.preload(t, one.records[t], toadbase::records_kept(space, t));
      CostModel model;
      model.whole_components = round % 2 == 0;
      LoopHub hub(ranks);
      const auto stats = solve_on(space, ranks, partial, model, &hub);
      CHECK(stats[0].tiers_skipped + stats[0].tiers_solved == space.tier_count());
      require_same(one, partial, kept_of(space));
      // committed tiers other ranks read came from rank 0
      if (ranks > 1 && !model.whole_components) CHECK(hub.messages(WireHeader::kRecovered) > 0);
    }
  }
}

TEST_CASE("distributed walk: wide records across ranks equal the narrow ones", "[distributed][wide]") {
  const tf::Space space(tf::SpaceParams{8, std::nullopt, std::nullopt});
  MemStore narrow(space.tier_count());
  toadbase::solve_tiers(space, narrow, nullptr);
  BasicMemStore<uint16_t> wide(space.tier_count());
  CostModel model;
  model.whole_components = false;
  model.piece_positions = 50;
  solve_on<tf::Space, toadbase::WideParityRecord>(space, 3, wide, model);
  uint64_t bad = 0;
  for (TierId t = 0; t < space.tier_count(); ++t) {
    const uint64_t k = toadbase::records_kept(space, t);
    for (uint64_t i = 0; i < k; ++i) bad += wide.records[t][i] != narrow.records[t][i];
  }
  CHECK(bad == 0);
}

TEST_CASE("distributed walk: an error on one rank ends the solve on every rank", "[distributed]") {
  // a chain whose remoteness overflows the one-byte record on some rank
  const tf::Space space(tf::SpaceParams{7, std::nullopt, std::nullopt});
  MemStore store(space.tier_count());
  const MemPacker<uint8_t> packer;
  const std::vector<std::string> errors = on_two_ranks([&](int r, LoopHub& hub) {
    LoopTransport tr(hub, r);
    CostModel model;
    model.whole_components = false;
    if (r == 1) throw std::runtime_error("rank 1 fails before it starts");
    toadbase::with_threads(1, [&] { return toadbase::solve_tiers(space, &store, &packer, nullptr, &tr, model); });
  });
  CHECK(errors[1] == "rank 1 fails before it starts");
  CHECK_THAT(errors[0], Catch::Matchers::Contains("another rank failed"));
}

namespace {

/// Rank 1's transport, its batches of reports to rank 0 changed on the way by `tamper`.
class TamperTransport : public LoopTransport {
 public:
  TamperTransport(LoopHub& hub, int rank, std::function<void(std::vector<uint8_t>&)> tamper, bool twice)
      : LoopTransport(hub, rank), tamper_(std::move(tamper)), twice_(twice) {}
  void send(std::span<const int> to, std::span<const uint8_t> header, std::span<const uint8_t> payload,
            bool compress) override {
    WireHeader h;
    std::memcpy(&h, header.data(), sizeof h);
    if (h.kind != WireHeader::kReports) return LoopTransport::send(to, header, payload, compress);
    std::vector<uint8_t> changed(payload.begin(), payload.end());
    tamper_(changed);
    std::vector<uint8_t> head(header.begin(), header.end());
    if (count_) std::memcpy(head.data() + offsetof(WireHeader, count), &*count_, sizeof *count_);
    LoopTransport::send(to, head, changed, compress);
    if (twice_) LoopTransport::send(to, header, changed, compress);
  }

 private:
  std::function<void(std::vector<uint8_t>&)> tamper_;
  bool twice_;

 public:
  std::optional<uint64_t> count_;  // the header's count of tiers, when set
};

/// Rank 0's error when rank 1's reports are tampered with (empty: the solve went through).
std::string solve_tampered(const tf::Space& space, std::function<void(std::vector<uint8_t>&)> tamper,
                           bool twice = false, std::optional<uint64_t> count = std::nullopt) {
  MemStore store(space.tier_count());
  const MemPacker<uint8_t> packer;
  return on_two_ranks([&](int r, LoopHub& hub) {
    std::unique_ptr<LoopTransport> tr;
    if (r == 1) {
      auto t = std::make_unique<TamperTransport>(hub, r, tamper, twice);
      t->count_ = count;
      tr = std::move(t);
    } else {
      tr = std::make_unique<LoopTransport>(hub, r);
    }
    toadbase::with_threads(1, [&] { return toadbase::solve_tiers(space, &store, &packer, nullptr, tr.get(), CostModel{}); });
  })[0];
}

}  // namespace

TEST_CASE("distributed walk: damaged or forged reports are refused by rank 0, naming the sender", "[distributed]") {
  const tf::Space space(tf::SpaceParams{8, std::nullopt, std::nullopt});
  // untouched, the solve goes through (the tampering transport itself is sound)
  CHECK(solve_tampered(space, [](std::vector<uint8_t>&) {}).empty());
  // cut short: the last tier's bytes run past the end
  CHECK_THAT(solve_tampered(space, [](std::vector<uint8_t>& b) {
               if (!b.empty()) b.pop_back();
             }),
             Catch::Matchers::Contains("reports from rank 1"));
  // a header naming more tiers than the bytes could hold (2^60: 16 bytes each wraps round)
  for (uint64_t count : {uint64_t{1} << 60, uint64_t{1} << 40})
    CHECK_THAT(solve_tampered(space, [](std::vector<uint8_t>&) {}, false, count),
               Catch::Matchers::Contains("reports this rank does not expect"));
  // the same batch twice: its tiers would be committed twice
  CHECK_THAT(solve_tampered(space, [](std::vector<uint8_t>&) {}, true), Catch::Matchers::Contains("a second time"));
  // bytes left over after the tiers it names
  CHECK_THAT(solve_tampered(space, [](std::vector<uint8_t>& b) { b.push_back(0); }),
             Catch::Matchers::Contains("reports from rank 1 are damaged"));
  // a tier rank 1 does not report (rank 0's own, as the solve plans it) or beyond the plan
  CostModel model;
  model.threads = {1, 1};
  const auto plan = toadbase::plan_tiers(space);
  const Distribution d = toadbase::distribute(plan, std::vector<char>(plan.size.size(), 0), 2, model);
  const auto own = std::find(d.reporter.begin(), d.reporter.end(), 0);
  REQUIRE(own != d.reporter.end());
  REQUIRE(std::find(d.reporter.begin(), d.reporter.end(), 1) != d.reporter.end());
  for (uint64_t forged : {static_cast<uint64_t>(own - d.reporter.begin()), uint64_t{1} << 40}) {
    CHECK_THAT(solve_tampered(space, [&](std::vector<uint8_t>& b) { std::memcpy(b.data(), &forged, 8); }),
               Catch::Matchers::Contains("do not fit the plan"));
  }
}

// ---- a memory budget: components of the tier DAG move to later levels (schedule.hpp) ----

namespace {

/// Each tier's last reader's level, counted here (its own level when no tier reads it).
std::vector<uint32_t> last_reader_levels(const toadbase::TierPlan& plan) {
  std::vector<uint32_t> last(plan.level);
  for (TierId r = 0; r < plan.size.size(); ++r)
    for (TierId c : plan.reads[r]) last[c] = std::max(last[c], plan.level[r]);
  return last;
}

/// What the walk holds at each level of `plan`, counted here from the plan alone: a tier
/// from its level to the last level of a tier that reads it; one no tier reads, at its level.
uint64_t most_held(const toadbase::TierPlan& plan) {
  const std::vector<uint32_t> last = last_reader_levels(plan);
  uint64_t most = 0;
  for (uint32_t L = 0; L < plan.by_level.size(); ++L) {
    uint64_t held = 0;
    for (TierId t = 0; t < plan.size.size(); ++t)
      if (plan.level[t] <= L && L <= last[t]) held += plan.size[t];
    most = std::max(most, held);
  }
  return most;
}

}  // namespace

TEST_CASE("memory budget: components move to later levels to keep any budget from the largest component's peak up",
          "[distributed][memory]") {
  const tf::Space space(tf::SpaceParams{11, std::nullopt, std::nullopt});
  const toadbase::TierPlan natural = toadbase::plan_tiers(space);
  const uint64_t peak = toadbase::held_peak(natural, 1), least = toadbase::smallest_budget(natural, 1);
  REQUIRE(least > 0);
  REQUIRE(least * 2 < peak);  // eleven piece counts: the largest holds far less than all at once
  CHECK(most_held(natural) <= peak);
  const Distribution one = toadbase::distribute(natural, std::vector<char>(natural.size.size(), 0), 1, CostModel{});
  CHECK(toadbase::one_rank_peak(natural, 1) == one.busiest_peak());
  CHECK(toadbase::fit_one_rank(natural, 0, 1).peak == one.busiest_peak());
  for (uint64_t budget : {least, least + 1, (least + peak) / 2, peak - 1}) {
    DYNAMIC_SECTION("budget " << budget << " of " << peak) {
      toadbase::TierPlan plan = natural;
      REQUIRE(toadbase::fit_levels(plan, budget, 1));
      // every tier after what it reads, each once in its level's list, in id order
      uint64_t misplaced = 0, listed = 0;
      for (TierId t = 0; t < plan.size.size(); ++t)
        for (TierId c : plan.reads[t]) misplaced += plan.level[c] >= plan.level[t];
      for (uint32_t L = 0; L < plan.by_level.size(); ++L) {
        CHECK(std::is_sorted(plan.by_level[L].begin(), plan.by_level[L].end()));
        for (TierId t : plan.by_level[L]) misplaced += plan.level[t] != L, ++listed;
      }
      CHECK(misplaced == 0);
      CHECK(listed == plan.size.size());
      CHECK(plan.last_level == toadbase::last_levels(plan.reads, plan.level));
      CHECK(plan.by_level.size() > natural.by_level.size());
      // within the budget, counted here and by the planner on 1 to 3 ranks
      CHECK(most_held(plan) <= budget);
      CHECK(toadbase::held_peak(plan, 1) <= budget);
      for (int ranks : {1, 2, 3}) {
        CostModel model;
        model.memory_budget = budget;
        toadbase::TierPlan mine = natural;
        const Distribution d = toadbase::distribute_within_budget(mine, std::vector<char>(mine.size.size(), 0), ranks, model);
        uint64_t busiest = 0;
        for (const auto& l : d.load) busiest = std::max(busiest, l.peak_bytes);
        CHECK(busiest <= budget);
        CHECK(d.smallest_budget == least);
        if (ranks == 1) {
          CHECK(d.fitted);
          // the check before a solve reckons the same figures without making the plan
          const toadbase::BudgetFit f = toadbase::fit_one_rank(natural, budget, 1);
          CHECK(f.fitted);
          CHECK(f.peak == busiest);
          CHECK(f.natural_peak == d.natural_peak);
          CHECK(f.smallest == least);
          CHECK(toadbase::one_rank_peak(mine, 1) == busiest);
        }
      }
    }
  }
  // below the largest component: refused, the plan as it was
  toadbase::TierPlan plan = natural;
  CHECK_FALSE(toadbase::fit_levels(plan, least - 1, 1));
  CHECK(plan.level == natural.level);
  const toadbase::BudgetFit below = toadbase::fit_one_rank(natural, least - 1, 1);
  CHECK_FALSE(below.fitted);
  CHECK(below.peak == below.natural_peak);
  CHECK(below.peak > least - 1);
  // a budget the natural levels keep leaves them as they are
  CostModel model;
  model.memory_budget = peak;
  const Distribution d = toadbase::distribute_within_budget(plan, std::vector<char>(plan.size.size(), 0), 1, model);
  CHECK_FALSE(d.fitted);
  CHECK(plan.level == natural.level);
  // two-byte records: twice the bytes
  CHECK(toadbase::smallest_budget(natural, 2) == 2 * least);
}

TEST_CASE("memory budget: a solve within the smallest budget commits what the natural solve commits and holds no more",
          "[distributed][memory]") {
  const tf::Space space(tf::SpaceParams{10, std::nullopt, std::nullopt});
  MemStore one(space.tier_count());
  const toadbase::SolveStats natural = toadbase::solve_tiers(space, one, nullptr);
  const uint64_t least = toadbase::smallest_budget(toadbase::plan_tiers(space), 1);
  REQUIRE(least < natural.peak_bytes_in_flight);
  for (int ranks : {1, 2, 3}) {
    DYNAMIC_SECTION(ranks << " ranks") {
      CostModel model;
      model.memory_budget = least;
      MemStore many(space.tier_count());
      const auto stats = solve_on(space, ranks, many, model, nullptr, 2);
      require_same(one, many, kept_of(space));
      for (const auto& s : stats) CHECK(s.peak_bytes_in_flight <= least);
    }
  }
  SECTION("resumed from half its tiers") {
    std::mt19937 rng(5);
    MemStore partial(space.tier_count());
    partial.allow_recommit = true;
    for (TierId t = 0; t < space.tier_count(); ++t)
      if (rng() % 2) partial.preload(t, one.records[t], toadbase::records_kept(space, t));
    CostModel model;
    model.memory_budget = least;
    const toadbase::SolveStats s = toadbase::solve_tiers(space, partial, nullptr, model);
    require_same(one, partial, kept_of(space));
    CHECK(s.tiers_skipped + s.tiers_solved == space.tier_count());
    INFO("held " << s.peak_bytes_in_flight << " of a budget of " << least);
    CHECK(s.peak_bytes_in_flight <= least);
  }
  SECTION("ranks given different budgets plan with the smallest (else their plans differ and the solve stops)") {
    std::vector<CostModel> models(2);
    models[0].memory_budget = least;
    models[1].memory_budget = 1ull << 40;
    MemStore two(space.tier_count());
    const auto stats = solve_on(space, 2, two, models);
    require_same(one, two, kept_of(space));
    for (const auto& s : stats) CHECK(s.peak_bytes_in_flight <= least);
  }
  SECTION("components cut across ranks: the records are the same") {
    CostModel model;
    model.memory_budget = least;
    model.whole_components = false;
    model.piece_positions = 200;
    MemStore many(space.tier_count());
    solve_on(space, 3, many, model);
    require_same(one, many, kept_of(space));
  }
}

namespace {

/// What the walk holds at each level of `plan` with its finished tiers packed, counted here
/// from the plan alone: a tier whose last reader is `span` or more levels on, raw at its level
/// and `permille` of its bytes (rounded up) from the next to its last reader's; one read
/// sooner, raw throughout; one no tier reads, raw at its level and the next.
uint64_t most_held_packed(const toadbase::TierPlan& plan, uint32_t permille, uint32_t span = 1) {
  const std::vector<uint32_t> last = last_reader_levels(plan);
  uint64_t most = 0;
  for (uint32_t L = 0; L < plan.by_level.size(); ++L) {
    uint64_t held = 0;
    for (TierId t = 0; t < plan.size.size(); ++t) {
      const uint32_t at = plan.level[t];
      if (last[t] > at) {
        const bool packed = last[t] - at >= span;
        if (L == at) held += plan.size[t];
        if (at < L && L <= last[t]) held += packed ? (plan.size[t] * permille + 999) / 1000 : plan.size[t];
      } else if (at <= L && L <= at + 1) {
        held += plan.size[t];
      }
    }
    most = std::max(most, held);
  }
  return most;
}

}  // namespace

TEST_CASE("held packed: a tier's records read back through a thread's cache of blocks in any order",
          "[distributed][memory][packed]") {
  RunCodec codec;
  std::mt19937_64 rng(7);
  // three tiers of 300 blocks (more than a cache holds) and a small one, in runs a codec packs
  std::vector<std::vector<uint16_t>> raw;
  for (uint64_t n : {uint64_t{300} * toadbase::PackedTier::kBlock / 2 + 17, uint64_t{300} * toadbase::PackedTier::kBlock / 2,
                     uint64_t{301} * toadbase::PackedTier::kBlock / 2 - 1, uint64_t{5}}) {
    std::vector<uint16_t> v(n);
    // both bytes of a record alike, in runs of 37 records, now and then a random one
    for (uint64_t i = 0; i < n; ++i) v[i] = static_cast<uint16_t>(rng() % 7 ? ((i / 37 * 3 + raw.size()) & 0xff) * 0x101 : rng());
    raw.push_back(std::move(v));
  }
  std::vector<std::unique_ptr<toadbase::PackedTier>> packed;
  for (const auto& v : raw)
    packed.push_back(std::make_unique<toadbase::PackedTier>(codec, reinterpret_cast<const uint8_t*>(v.data()),
                                                            v.size() * sizeof(uint16_t)));
  CHECK(packed[0]->packed_bytes() < packed[0]->bytes());
  toadbase::UnpackedBlocks cache;
  std::vector<toadbase::HeldRecords<uint16_t>> held;
  for (const auto& p : packed) held.emplace_back(nullptr, p.get(), &cache);
  uint64_t bad = 0;
  for (uint64_t k = 0; k < 2'000'000; ++k) {  // random tiers and indices: evictions all along
    const size_t t = rng() % raw.size();
    const uint64_t i = rng() % raw[t].size();
    bad += held[t][i] != raw[t][i];
  }
  for (size_t t = 0; t < raw.size(); ++t)  // in order, the tiers interleaved
    for (uint64_t i = 0; i < raw[t].size(); i += 1 + rng() % 5) bad += held[t][i] != raw[t][i];
  CHECK(bad == 0);
  CHECK(cache.misses() > 300);
  // runs across blocks, copied out in order
  std::vector<uint16_t> scratch;
  for (int k = 0; k < 200; ++k) {
    const size_t t = rng() % 3;
    const uint64_t count = 1 + rng() % (toadbase::PackedTier::kBlock * 2);
    const uint64_t first = rng() % (raw[t].size() - count);
    const uint16_t* run = held[t].run(first, count, scratch);
    bad += !std::equal(run, run + count, raw[t].begin() + static_cast<ptrdiff_t>(first));
  }
  CHECK(bad == 0);
  // a tier packed again where another was: the cache does not serve the old one's blocks (to
  // a reader made after it; a reader is made for one packing of its tier)
  const uint64_t old_id = packed[3]->id();
  CHECK(held[3][2] == raw[3][2]);
  std::vector<uint16_t> other = {9, 8, 7, 6, 5};
  *packed[3] = toadbase::PackedTier(codec, reinterpret_cast<const uint8_t*>(other.data()), 10);
  CHECK(packed[3]->id() != old_id);
  CHECK(toadbase::HeldRecords<uint16_t>(nullptr, packed[3].get(), &cache)[2] == 7);
  // raw records read as they lie
  const toadbase::HeldRecords<uint16_t> plain(raw[1].data(), nullptr, nullptr);
  CHECK(plain[12345] == raw[1][12345]);
  CHECK(plain.run(7, 3, scratch) == raw[1].data() + 7);
}

TEST_CASE("held packed: the plan reckons a packed tier after its level and a solve holding its tiers packed commits "
          "what the natural solve commits",
          "[distributed][memory][packed]") {
  const tf::Space space(tf::SpaceParams{10, std::nullopt, std::nullopt});
  const toadbase::TierPlan plan = toadbase::plan_tiers(space);
  for (uint32_t permille : {250u, 600u, 1000u})
    for (uint32_t span : {1u, 2u, 3u, 4u}) {
      INFO("permille " << permille << ", span " << span);
      CHECK(toadbase::one_rank_peak(plan, 1, permille, span) == most_held_packed(plan, permille, span));
      CHECK(toadbase::held_peak(plan, 1, permille, span) >= toadbase::one_rank_peak(plan, 1, permille, span));
    }
  // Toads and Frogs: a frogs' tier is last read three levels on, a toads' tier one: packing
  // only the first holds more than packing both and less than packing none
  CHECK(toadbase::one_rank_peak(plan, 1, 250, 3) > toadbase::one_rank_peak(plan, 1, 250, 1));
  CHECK(toadbase::one_rank_peak(plan, 1, 250, 3) < toadbase::one_rank_peak(plan, 1));
  CHECK(toadbase::one_rank_peak(plan, 1, 250, 4) == toadbase::one_rank_peak(plan, 1));
  CHECK(toadbase::one_rank_peak(plan, 1, 1000) == toadbase::one_rank_peak(plan, 1));
  CHECK(toadbase::one_rank_peak(plan, 1, 250) < toadbase::one_rank_peak(plan, 1));
  CHECK(toadbase::smallest_budget(plan, 1, 250) < toadbase::smallest_budget(plan, 1));

  MemStore one(space.tier_count());
  toadbase::solve_tiers(space, one, nullptr);
  RunCodec codec;
  CostModel model;
  model.packed_permille = 600;
  model.always_pack = true;
  // a solve holding its tiers packed under `m` commits what the natural solve commits
  const auto solve_packed = [&](const CostModel& m) {
    MemStore packed(space.tier_count());
    packed.codec = &codec;
    const toadbase::SolveStats s = toadbase::solve_tiers(space, packed, nullptr, m);
    require_same(one, packed, kept_of(space));
    return s;
  };
  // a store that holds the natural solve's tiers by a coin's throw (`seed`): a solve resumed
  const auto half_committed = [&](unsigned seed) {
    std::mt19937 rng(seed);
    MemStore partial(space.tier_count());
    partial.allow_recommit = true;
    partial.codec = &codec;
    for (TierId t = 0; t < space.tier_count(); ++t)
      if (rng() % 2) partial.preload(t, one.records[t], toadbase::records_kept(space, t));
    return partial;
  };
  // the bytes of the tiers a later level reads, and of those last read three levels on or more
  const std::vector<uint32_t> last = last_reader_levels(plan);
  uint64_t read_later = 0, long_held = 0;
  for (TierId t = 0; t < plan.size.size(); ++t) {
    if (last[t] > plan.level[t]) read_later += plan.size[t];
    if (last[t] >= plan.level[t] + 3) long_held += plan.size[t];
  }
  SECTION("every tier a later level reads held packed") {
    const toadbase::SolveStats s = solve_packed(model);
    CHECK(s.packed);
    CHECK(s.packed_permille == 600);
    CHECK(s.packed_span == 1);
    CHECK(s.bytes_packed_raw == read_later);
    CHECK(codec.packed_bytes == s.bytes_packed_raw);
    CHECK(codec.unpacks > 0);
  }
  SECTION("within a budget only packed tiers keep: components moved too") {
    CostModel m = model;
    m.threads = {1};
    const toadbase::Packing packing = toadbase::packing_of(plan, m, 1);
    REQUIRE(packing.always);
    const toadbase::BudgetFit least = toadbase::fit_one_rank(plan, 0, 1, packing);
    CHECK(least.smallest_packed);
    m.memory_budget = least.smallest;
    const toadbase::BudgetFit f = toadbase::fit_one_rank(plan, m.memory_budget, 1, packing);
    CHECK(f.packed);
    CHECK(f.fitted);
    CHECK(f.peak <= m.memory_budget);
    MemStore packed(space.tier_count());
    packed.codec = &codec;
    const toadbase::SolveStats s =
        toadbase::with_threads(1, [&] { return toadbase::solve_tiers(space, packed, nullptr, m); });
    require_same(one, packed, kept_of(space));
    CHECK(s.packed);
    // one below it: refused before any tier is committed
    m.memory_budget = least.smallest - 1;
    MemStore refused(space.tier_count());
    refused.codec = &codec;
    CHECK_THROWS_WITH(toadbase::with_threads(1, [&] { return toadbase::solve_tiers(space, refused, nullptr, m); }),
                      Catch::Contains("more than the memory budget"));
    CHECK(refused.commits == 0);
  }
  SECTION("the fewest tiers packed: those held longest, as long as they keep the budget") {
    // the choice, without the overhead (which passes these small tiers' bytes)
    const toadbase::Packing bare{600, 0, false};
    const uint64_t three = toadbase::smallest_budget(plan, 1, 600, 3);
    REQUIRE(three < toadbase::smallest_budget(plan, 1));  // raw tiers do not keep it, moved or not
    REQUIRE(toadbase::smallest_budget(plan, 1, 600, 1) < three);
    toadbase::BudgetFit f = toadbase::fit_one_rank(plan, three, 1, bare);
    CHECK((f.packed && f.fitted && f.packed_span == 3 && f.peak <= three));
    f = toadbase::fit_one_rank(plan, three - 1, 1, bare);  // only packing every one keeps it
    CHECK((f.packed && f.fitted && f.packed_span == 1 && f.peak < three));
    f = toadbase::fit_one_rank(plan, toadbase::one_rank_peak(plan, 1), 1, bare);  // raw tiers keep it
    CHECK((!f.packed && !f.fitted && f.packed_span == 0));
    // the check before a solve and the plan the solve makes agree (packing every tier a later
    // level reads or only the longest held, with the overhead: natural, moved, refused)
    for (uint32_t span : {1u, 3u}) {
      CostModel m = model;
      m.threads = {1};
      m.always_span = span;
      const toadbase::Packing packing = toadbase::packing_of(plan, m, 1);
      const uint64_t natural = toadbase::one_rank_peak(plan, 1, 600, span) + packing.overhead;
      const uint64_t least = toadbase::smallest_budget(plan, 1, 600, span) + packing.overhead;
      REQUIRE(least < natural);
      for (uint64_t budget : {uint64_t{0}, natural, least, least - 1}) {
        INFO("span " << span << ", budget " << budget);
        m.memory_budget = budget;
        toadbase::TierPlan mine = plan;
        const Distribution d = toadbase::distribute_within_budget(mine, std::vector<char>(mine.size.size(), 0), 1, m);
        const toadbase::BudgetFit g = toadbase::fit_one_rank(plan, budget, 1, packing);
        const toadbase::BudgetFit h = toadbase::budget_fit_of(d);
        CHECK((g.packed && h.packed && g.packed_span == span && h.packed_span == span));
        CHECK(g.fitted == h.fitted);
        CHECK(g.fitted == (budget == least));
        CHECK(g.peak == h.peak);
        CHECK(g.smallest == h.smallest);
        CHECK(g.smallest == least);
        CHECK((budget == least - 1) == (budget && g.peak > budget));  // refused below the smallest
      }
    }
    // the walk packs exactly the tiers of the span: a tier last read three levels on or more
    REQUIRE(long_held > 0);
    REQUIRE(long_held < read_later);
    CostModel m = model;
    m.always_span = 3;
    const toadbase::SolveStats s = solve_packed(m);
    CHECK(s.packed);
    CHECK(s.packed_span == 3);
    CHECK(s.bytes_packed_raw == long_held);
  }
  SECTION("resumed from half its tiers") {
    MemStore partial = half_committed(11);
    CostModel m = model;
    m.threads = {1};
    m.memory_budget = toadbase::fit_one_rank(plan, 0, 1, toadbase::packing_of(plan, m, 1)).smallest;
    const toadbase::SolveStats s =
        toadbase::with_threads(1, [&] { return toadbase::solve_tiers(space, partial, nullptr, m); });
    require_same(one, partial, kept_of(space));
    CHECK(s.tiers_skipped + s.tiers_solved == space.tier_count());
    CHECK(s.packed);
    INFO("held " << s.peak_bytes_in_flight << " of a budget of " << m.memory_budget);
    CHECK(s.peak_bytes_in_flight <= m.memory_budget);
  }
  SECTION("resumed from half its tiers, the tiers held longest packed") {
    // a tier is packed by the plan's last reader, not by this run's: a tier whose reader one
    // level on is solved again and whose reader three levels on is committed is packed too
    MemStore partial = half_committed(12);
    const std::vector<char> done = toadbase::committed_tiers(space, plan, partial);
    // held by this run: a tier some tier solved now reads; packed: those last read three on
    std::vector<char> needed(plan.size.size(), 0);
    for (TierId r = 0; r < plan.size.size(); ++r)
      if (!done[r])
        for (TierId c : plan.reads[r]) needed[c] = 1;
    uint64_t expected = 0, by_this_run = 0;
    for (TierId t = 0; t < plan.size.size(); ++t) {
      if (!needed[t] || last[t] < plan.level[t] + 3) continue;
      expected += plan.size[t];
      uint32_t mine = 0;  // this run's last reader of t
      for (TierId r = 0; r < plan.size.size(); ++r)
        if (!done[r] && std::find(plan.reads[r].begin(), plan.reads[r].end(), t) != plan.reads[r].end())
          mine = std::max(mine, plan.level[r]);
      if (mine >= plan.level[t] + 3) by_this_run += plan.size[t];
    }
    REQUIRE(by_this_run < expected);  // some tier's far reader is committed
    CostModel m = model;
    m.always_span = 3;
    const toadbase::SolveStats s = toadbase::solve_tiers(space, partial, nullptr, m);
    require_same(one, partial, kept_of(space));
    CHECK(s.tiers_skipped > 0);
    CHECK(s.packed_span == 3);
    CHECK(s.bytes_packed_raw == expected);
  }
  SECTION("two-byte records") {
    BasicMemStore<uint16_t> narrow(space.tier_count()), wide(space.tier_count());
    toadbase::solve_tiers<tf::Space, toadbase::WideParityRecord>(space, narrow, nullptr);
    wide.codec = &codec;
    const toadbase::SolveStats s = toadbase::solve_tiers<tf::Space, toadbase::WideParityRecord>(space, wide, nullptr, model);
    require_same(narrow, wide, kept_of(space));
    CHECK(s.bytes_packed_raw % 2 == 0);
  }
  SECTION("a store that offers no codec: refused before any tier is committed") {
    MemStore none(space.tier_count());
    CHECK_THROWS_WITH(toadbase::solve_tiers(space, none, nullptr, model), Catch::Contains("no codec"));
    CHECK(none.commits == 0);
  }
}
