// MPI for a distributed solve: how the command knows an MPI launcher started it (mpirun,
// mpiexec, srun with an MPI plugin), and the engine's Transport (solver/core/transport.hpp)
// over MPI. A plain `toadbase solve` never starts MPI.
//
// On the wire a message is one or more MPI messages of at most 1 GiB: the first (tag 1)
// holds the total length and the engine's header, then the payload cut in blocks of 1 MiB,
// each compressed with zstd (level 1: the records compress several times over and the
// blocks compress in parallel); the rest (tag 2) follow in order. A rank takes the next
// first part from any rank, then that message's other parts from its sender.
#pragma once

#include <memory>
#include <string>

#include "solver/core/transport.hpp"

namespace toadbase::tools {

/// How this process was started, from its launcher's environment.
struct Launch {
  bool mpi = false;      // by an MPI launcher: the solve is distributed over its ranks
  std::string launcher;  // "mpirun", "srun", ... (for messages)
  /// The processes the launcher says it started (0: it does not say). MPI must join them
  /// into as many ranks: a launcher of another MPI library than the one toadbase was built
  /// with starts them as one-rank jobs of their own, each writing the same database.
  int declared = 0;
  /// A launch that cannot work, said for the user (empty: none): srun without MPI support
  /// starts every task as a one-rank solve of its own, all writing one database.
  std::string problem;
};
Launch detect_launch();

/// True when this toadbase was built with MPI.
bool have_mpi();

/// Starts MPI for this process and returns the transport between its ranks; MPI ends when
/// the transport is destroyed. Throws std::runtime_error when this toadbase was built without
/// MPI or MPI cannot start.
std::unique_ptr<Transport> start_mpi();

/// Ends every rank of the job at once, after an error on this one (MPI_Abort).
[[noreturn]] void abort_job(int code);

}  // namespace toadbase::tools
