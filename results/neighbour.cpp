// A load for the other core, to tell which of the machine's shared parts slow a solve down
// (results/frontier.sh neighbours): built by that script with the system compiler.
//
//   neighbour KIND            prints "ready" once its memory is made, then runs until killed
//                             (SIGTERM): the load beside a solve
//   neighbour KIND SECONDS    runs about SECONDS, then prints the work it did a second
//
// KIND:
//   compute  a chain of multiplies in registers: no memory at all, one instruction at a time
//   wide     eight independent chains of adds, rotates and exclusive ors in registers: as
//            many instructions at once as the core's units take (two such loads on one
//            physical core, two hardware threads, share those units)
//   random   dependent reads at random places of 256 MiB: memory latency, almost no bandwidth
//   stream   b[i] = a[i] + b[i] over two arrays of 128 MiB: memory bandwidth
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

volatile std::sig_atomic_t stop = 0;
void on_term(int) { stop = 1; }

using Clock = std::chrono::steady_clock;

// one round of KIND's work: a fixed amount, short enough (a few ms) to check the clock after
struct Load {
  virtual ~Load() = default;
  virtual void round() = 0;
  uint64_t sink = 0;
};

struct Compute final : Load {
  uint64_t x = 1;
  void round() override {
    for (int i = 0; i < 1 << 20; ++i) x = x * 6364136223846793005ULL + 1442695040888963407ULL, x ^= x >> 29;
    sink += x;
  }
};

struct Wide final : Load {
  uint64_t x[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  static uint64_t rot(uint64_t v, int k) { return v << k | v >> (64 - k); }
  void round() override {
    uint64_t a = x[0], b = x[1], c = x[2], d = x[3], e = x[4], f = x[5], g = x[6], h = x[7];
    for (uint64_t i = 0; i < uint64_t{1} << 20; ++i) {
      a = rot(a + i, 7) ^ b, b = rot(b + i, 9) ^ c, c = rot(c + i, 11) ^ d, d = rot(d + i, 13) ^ e;
      e = rot(e + i, 17) ^ f, f = rot(f + i, 19) ^ g, g = rot(g + i, 23) ^ h, h = rot(h + i, 29) ^ a;
      asm volatile("" : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(e), "+r"(f), "+r"(g), "+r"(h));
    }
    x[0] = a, x[1] = b, x[2] = c, x[3] = d, x[4] = e, x[5] = f, x[6] = g, x[7] = h;
    sink += a ^ e;
  }
};

struct Random final : Load {
  static constexpr size_t kSize = size_t{1} << 28;
  std::vector<uint32_t> next;  // a walk through every slot in one random cycle
  uint32_t at = 0;
  Random() : next(kSize / sizeof(uint32_t)) {
    const size_t n = next.size();
    std::vector<uint32_t> order(n);
    for (size_t i = 0; i < n; ++i) order[i] = static_cast<uint32_t>(i);
    uint64_t s = 88172645463325252ULL;
    for (size_t i = n - 1; i > 0; --i) {  // Fisher-Yates with xorshift
      s ^= s << 13, s ^= s >> 7, s ^= s << 17;
      std::swap(order[i], order[s % (i + 1)]);
    }
    for (size_t i = 0; i < n; ++i) next[order[i]] = order[(i + 1) % n];
  }
  void round() override {
    for (int i = 0; i < 1 << 16; ++i) at = next[at];
    sink += at;
  }
};

struct Stream final : Load {
  static constexpr size_t kSize = size_t{1} << 27;
  std::vector<uint8_t> a, b;
  size_t at = 0;
  Stream() : a(kSize, 1), b(kSize, 2) {}
  void round() override {  // 4 MiB of each array a round
    const size_t end = at + (size_t{1} << 22);
    for (size_t i = at; i < end; ++i) b[i] = static_cast<uint8_t>(a[i] + b[i]);
    sink += b[at];
    at = end % kSize;
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: neighbour compute|wide|random|stream [SECONDS]\n");
    return 2;
  }
  Load* load = nullptr;
  if (!std::strcmp(argv[1], "compute")) load = new Compute;
  else if (!std::strcmp(argv[1], "wide")) load = new Wide;
  else if (!std::strcmp(argv[1], "random")) load = new Random;
  else if (!std::strcmp(argv[1], "stream")) load = new Stream;
  else {
    std::fprintf(stderr, "neighbour: unknown kind '%s' (compute, wide, random or stream)\n", argv[1]);
    return 2;
  }
  std::signal(SIGTERM, on_term);
  std::signal(SIGINT, on_term);
  const double seconds = argc == 3 ? std::atof(argv[2]) : 0;
  if (seconds <= 0) {
    std::printf("ready\n");
    std::fflush(stdout);
  }
  const auto start = Clock::now();
  uint64_t rounds = 0;
  double elapsed = 0;
  while (!stop) {
    load->round();
    ++rounds;
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    if (seconds > 0 && elapsed >= seconds) break;
  }
  if (seconds > 0) std::printf("%.6g %llu\n", rounds / elapsed, static_cast<unsigned long long>(load->sink & 1));
  delete load;
  return 0;
}
