// A solve slowed down from the test side, for the kill-and-resume tests: every commit sleeps
// (tests/delayed_store.hpp). Not a test itself: the tests start it and kill it.
//
//     slow_solve GAME PARAMETERS-JSON DB DELAY-MS
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <thread>

#include "db/database.hpp"
#include "delayed_store.hpp"
#include "solver/core/threads.hpp"
#include "tools/registry.hpp"

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
    tbtest::DelayedStore slow(*db, std::atoi(argv[4]), stdout);  // a line a commit
    toadbase::with_threads(0, [&] { return inst->solve(slow, nullptr); });
    db->finish(inst->tiers());
  } catch (const std::exception& e) {
    std::cerr << "slow_solve: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
