// A distributed solve slowed down and broken from the test side, for the MPI fault tests
// (test_mpi.cpp starts it under mpirun, then kills a rank, cancels the job or lets a rank
// abort). Not a test itself.
//
//     mpi_fault_solve GAME PARAMETERS-JSON DB DELAY-MS PID-DIR [ABORT-RANK ABORT-AFTER]
//
// Every rank writes its pid to PID-DIR/rank-<r>.pid; rank 0 sleeps DELAY-MS after each tier
// it commits; tiers go to whichever rank finishes them first (not whole components), so
// records cross between ranks; rank ABORT-RANK calls std::abort() (SIGABRT) once it has sent
// ABORT-AFTER messages.
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <thread>

#include <unistd.h>

#include "db/database.hpp"
#include "delayed_store.hpp"
#include "solver/core/threads.hpp"
#include "tools/mpi.hpp"
#include "tools/registry.hpp"

namespace {

using toadbase::TierId;

/// A transport whose rank aborts after a number of sends.
class AbortingTransport : public toadbase::Transport {
 public:
  AbortingTransport(Transport& inner, long after) : inner_(inner), left_(after) {}
  int rank() const override { return inner_.rank(); }
  int ranks() const override { return inner_.ranks(); }
  void send(std::span<const int> to, std::span<const uint8_t> header, std::span<const uint8_t> payload,
            bool compress) override {
    if (left_-- <= 0) {
      std::cerr << "mpi_fault_solve: rank " << rank() << " aborts as asked\n" << std::flush;
      std::abort();
    }
    inner_.send(to, header, payload, compress);
  }
  bool receive(bool wait, Inbox& inbox) override { return inner_.receive(wait, inbox); }
  void flush() override { inner_.flush(); }
  void broadcast(std::vector<uint8_t>& bytes) override { inner_.broadcast(bytes); }
  std::vector<uint64_t> all_gather(std::span<const uint64_t> values) override { return inner_.all_gather(values); }
  Counters counters() const override { return inner_.counters(); }

 private:
  Transport& inner_;
  std::atomic<long> left_;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6 && argc != 8) {
    std::cerr << "usage: mpi_fault_solve GAME PARAMETERS-JSON DB DELAY-MS PID-DIR [ABORT-RANK ABORT-AFTER]\n";
    return 2;
  }
  try {
    const toadbase::tools::Game* game = toadbase::tools::find_game(argv[1]);
    if (!game) throw std::invalid_argument(std::string("no game ") + argv[1]);
    const auto inst = game->instance(game->normalize(nlohmann::json::parse(argv[2])));
    auto tr = toadbase::tools::start_mpi();
    const int me = tr->rank();
    std::ofstream(std::string(argv[5]) + "/rank-" + std::to_string(me) + ".pid") << getpid() << "\n";
    const int abort_rank = argc == 8 ? std::atoi(argv[6]) : -1;
    AbortingTransport wire(*tr, me == abort_rank ? std::atol(argv[7]) : 1L << 40);
    std::unique_ptr<toadbase::db::Database> db;
    std::unique_ptr<tbtest::DelayedStore> slow;
    if (me == 0) {
      db = toadbase::db::Database::open_for_solve(argv[3], inst->identity(), inst->tiers(), 3);
      slow = std::make_unique<tbtest::DelayedStore>(*db, std::atoi(argv[4]));
    }
    const auto packer =
        toadbase::db::Database::packer(inst->identity().record_bytes, 3, toadbase::db::kDefaultBlockBytes,
                                       toadbase::db::planes_per_block(toadbase::db::kFormatVersion,
                                                                      inst->identity().record_bytes));
    toadbase::CostModel model;
    model.whole_components = false;  // records cross between the ranks
    toadbase::with_threads(1, [&] { return inst->solve(slow.get(), *packer, nullptr, wire, model); });
    if (me == 0) db->finish(inst->tiers());
  } catch (const std::exception& e) {
    std::cerr << "mpi_fault_solve: " << e.what() << "\n";
    toadbase::tools::abort_job(1);
  }
  return 0;
}
