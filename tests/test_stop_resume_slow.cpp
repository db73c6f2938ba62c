// Every engine's solve (the tier engine, River Toad's, the forest's, the CGT table's) keeps
// the same books (solver/core/ledger.hpp): asked to stop, it ends at the next unit boundary
// with Interrupted, what it committed staying; solved again, it passes those units over and
// ends with the database an uninterrupted solve writes.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "db/database.hpp"
#include "solver/core/progress.hpp"
#include "tools/registry.hpp"
#include "support.hpp"

using toadbase::db::Database;

namespace {

/// Counts what the solve reports, skipped and solved apart; asks it to stop once `stop_after`
/// tiers were solved in this run.
class StopCounter : public toadbase::Progress {
 public:
  explicit StopCounter(uint64_t stop_after) : Progress("solve", 0, 0), stop_after_(stop_after) {}
  uint64_t solved = 0, skipped = 0;

 protected:
  void tier_counted(const std::string&) override {
    skipped = tiers_skipped();
    solved = tiers_done() - skipped;
    if (solved >= stop_after_) toadbase::request_stop();
  }

 private:
  uint64_t stop_after_;
};

struct StopCase {
  std::string game;
  nlohmann::json params;
};

/// The digest of a database solved in one go.
uint64_t solved_digest(const toadbase::Instance& inst, const std::string& path) {
  auto d = Database::open_for_solve(path, inst.identity(), inst.tiers(), 3);
  toadbase::with_threads(2, [&] { return inst.solve(*d, nullptr); });
  d->finish(inst.tiers());
  return d->digest();
}

}  // namespace

TEST_CASE("every engine stops at a unit boundary when asked and resumes to the same database", "[ledger][resume][slow]") {
  const std::vector<StopCase> cases = {
      {"toads-frogs", {{"length", 8}}},
      {"river-toad", {{"turns", 4}}},
      {"forest", nlohmann::json::object()},
      {"toads-frogs-cgt", {{"length", 7}}},
  };
  for (const StopCase& c : cases) {
    DYNAMIC_SECTION(c.game) {
      const toadbase::tools::Game* g = toadbase::tools::find_game(c.game);
      REQUIRE(g);
      const auto inst = g->instance(g->normalize(c.params));
      const auto tiers = inst->tiers();
      REQUIRE(tiers.size() >= 4);
      tbtest::TempDir dir("stop-resume");
      const uint64_t want = solved_digest(*inst, dir / "whole");

      const std::string path = dir / "stopped";
      toadbase::clear_stop();
      {
        auto d = Database::open_for_solve(path, inst->identity(), inst->tiers(), 3);
        StopCounter first(1);  // a stop asked for once the first tier is solved
        CHECK_THROWS_AS(toadbase::with_threads(2, [&] { return inst->solve(*d, &first); }), toadbase::Interrupted);
        toadbase::clear_stop();
        CHECK(first.solved >= 1);
        CHECK(first.solved < tiers.size());  // it stopped before the end
        CHECK(first.skipped == 0);
      }
      auto d = Database::open_for_solve(path, inst->identity(), inst->tiers(), 3);
      StopCounter second(UINT64_MAX);
      const toadbase::SolveStats st = toadbase::with_threads(2, [&] { return inst->solve(*d, &second); });
      d->finish(inst->tiers());
      CHECK(second.skipped >= 1);  // what the first run committed is passed over
      CHECK(st.tiers_skipped == second.skipped);
      CHECK(st.tiers_solved == second.solved);
      CHECK(second.skipped + second.solved == tiers.size());
      CHECK(d->digest() == want);
    }
  }
  toadbase::clear_stop();
}
