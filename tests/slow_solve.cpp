// A solve slowed down from the test side, for the kill-and-resume tests: every commit sleeps
// (DelayedStore below). Not a test itself: the tests start it and kill it.
//
//     slow_solve GAME PARAMETERS-JSON DB DELAY-MS
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <thread>

#include "db/database.hpp"
#include "tools/registry.hpp"

namespace {

using toadbase::TierId;

/// A store that sleeps after each commit, so a solve can be killed part way (the crash and
/// resume tests: this program runs a solve through it).
class DelayedStore : public toadbase::TierStore {
 public:
  DelayedStore(toadbase::TierStore& inner, int ms) : inner_(inner), ms_(ms) {}
  unsigned record_bytes() const override { return inner_.record_bytes(); }
  bool has_tier(TierId t) const override { return inner_.has_tier(t); }
  uint64_t tier_positions(TierId t) const override { return inner_.tier_positions(t); }
  uint64_t tier_kept(TierId t) const override { return inner_.tier_kept(t); }
  bool matches_digest(TierId t, const void* r, uint64_t n) const override { return inner_.matches_digest(t, r, n); }
  void load_tier(TierId t, void* out) const override { inner_.load_tier(t, out); }
  void read_record(TierId t, uint64_t i, void* out) const override { inner_.read_record(t, i, out); }
  void commit_tier(TierId t, const void* r, uint64_t count, uint64_t keep) override {
    inner_.commit_tier(t, r, count, keep);
    std::this_thread::sleep_for(std::chrono::milliseconds(ms_));
  }

 private:
  toadbase::TierStore& inner_;
  int ms_;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::cerr << "usage: slow_solve GAME PARAMETERS-JSON DB DELAY-MS\n";
    return 2;
  }
  try {
    const toadbase::tools::Game* game = toadbase::tools::find_game(argv[1]);
    if (!game) throw std::invalid_argument(std::string("no game ") + argv[1]);
    const auto inst = game->instance(game->normalize(nlohmann::json::parse(argv[2])));
    auto db = toadbase::db::Database::open_for_solve(argv[3], inst->identity(), inst->tiers(), 3);
    if (db->complete()) return 0;  // killed after its final manifest write: nothing left to do
    DelayedStore slow(*db, std::atoi(argv[4]));
    toadbase::with_threads(0, [&] { return inst->solve(slow, nullptr); });
    db->finish(inst->tiers());
  } catch (const std::exception& e) {
    std::cerr << "slow_solve: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
