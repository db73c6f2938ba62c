// Running work on a bounded number of threads: what the command and the ways in need of oneTBB,
// without the engine.
#pragma once

#include <tbb/task_arena.h>

#include <utility>

namespace toadbase {

/// Run `f` with at most `threads` worker threads (0 = all cores).
template <class F>
auto with_threads(int threads, F&& f) {
  tbb::task_arena arena(threads > 0 ? threads : tbb::task_arena::automatic);
  return arena.execute(std::forward<F>(f));
}

}  // namespace toadbase
