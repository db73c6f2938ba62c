#include "tools/mpi.hpp"

#include <tbb/parallel_for.h>
#include <zstd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#ifdef TOADBASE_HAVE_MPI
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#endif

namespace toadbase::tools {

namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

}  // namespace

Launch detect_launch() {
  Launch l;
  // the count a launcher declares: Open MPI's, PMI's (MPICH's mpiexec, srun --mpi=pmi2), Slurm's
  auto declared = [](const char* name) {
    const std::string v = env(name);
    const long n = v.empty() ? 0 : std::atol(v.c_str());
    return n > 0 && n < (1L << 30) ? static_cast<int>(n) : 0;
  };
  if (!env("OMPI_COMM_WORLD_SIZE").empty()) {
    l.mpi = true;
    l.launcher = "mpirun";
    l.declared = declared("OMPI_COMM_WORLD_SIZE");
  } else if (!env("PMIX_RANK").empty()) {
    l.mpi = true;
    l.launcher = env("SLURM_PROCID").empty() ? "a PMIx launcher" : "srun --mpi=pmix";
    l.declared = declared("SLURM_STEP_NUM_TASKS");
  } else if (!env("PMI_RANK").empty() || !env("PMI_FD").empty()) {
    l.mpi = true;
    l.launcher = env("SLURM_PROCID").empty() ? "mpiexec" : "srun --mpi=pmi2";
    l.declared = declared("PMI_SIZE");
    if (!l.declared) l.declared = declared("SLURM_STEP_NUM_TASKS");
  } else if (!env("SLURM_PROCID").empty()) {
    // srun without an MPI plugin: every task would be a one-rank solve of its own
    const std::string tasks = env("SLURM_STEP_NUM_TASKS");
    if (!tasks.empty() && std::atol(tasks.c_str()) > 1)
      l.problem =
          "srun started " + tasks +
          " tasks without MPI support (no PMI in their environment), so each would solve alone "
          "into the same database; run srun --mpi=pmix (see srun --mpi=list), or mpirun";
  }
  return l;
}

#ifdef TOADBASE_HAVE_MPI

bool have_mpi() {
  return true;
}

namespace {

constexpr int kFirstTag = 1, kMoreTag = 2;
constexpr uint64_t kChunkBytes = uint64_t{1} << 30;  // the most bytes of one MPI message
constexpr uint64_t kBlockBytes = uint64_t{1} << 20;  // payload bytes compressed as one zstd frame
constexpr int kZstdLevel = 1;

std::string mpi_error(int rc) {
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  return std::string(text, static_cast<size_t>(len));
}

void check(int rc, const std::string& what) {
  if (rc != MPI_SUCCESS) throw std::runtime_error("MPI: " + what + ": " + mpi_error(rc));
}

void put64(std::vector<uint8_t>& b, uint64_t v) {
  for (int i = 0; i < 8; ++i) b.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
uint64_t get64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

/// One message as it goes on the wire:
///   u64 total bytes | u64 header bytes | header | u64 payload bytes | u64 blocks (0: the
///   payload as it is) | u64 compressed size of each block | the blocks (zstd frames)
std::vector<uint8_t> encode(std::span<const uint8_t> header, std::span<const uint8_t> payload,
                            bool compress) {
  const uint64_t blocks = compress ? (payload.size() + kBlockBytes - 1) / kBlockBytes : 0;
  std::vector<std::vector<uint8_t>> frames(blocks);
  tbb::parallel_for(uint64_t{0}, blocks, [&](uint64_t b) {
    const uint64_t from = b * kBlockBytes,
                   len = std::min<uint64_t>(kBlockBytes, payload.size() - from);
    std::vector<uint8_t>& f = frames[b];
    f.resize(ZSTD_compressBound(len));
    const size_t n = ZSTD_compress(f.data(), f.size(), payload.data() + from, len, kZstdLevel);
    if (ZSTD_isError(n)) throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(n));
    f.resize(n);
  });
  std::vector<uint8_t> m;
  uint64_t total = 8 + 8 + header.size() + 8 + 8 + 8 * blocks;
  if (compress) {
    for (const auto& f : frames) total += f.size();
  } else {
    total += payload.size();
  }
  m.reserve(total);
  put64(m, total);
  put64(m, header.size());
  m.insert(m.end(), header.begin(), header.end());
  put64(m, payload.size());
  put64(m, blocks);
  for (const auto& f : frames) put64(m, f.size());
  for (const auto& f : frames) m.insert(m.end(), f.begin(), f.end());
  if (!compress) m.insert(m.end(), payload.begin(), payload.end());
  return m;
}

class MpiTransport : public Transport {
 public:
  MpiTransport() {
    int provided = 0;
    check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided), "starting");
    if (provided < MPI_THREAD_SERIALIZED) {
      MPI_Finalize();
      throw std::runtime_error(
          "MPI: this MPI library does not let several threads call it (MPI_THREAD_SERIALIZED)");
    }
    check(MPI_Comm_dup(MPI_COMM_WORLD, &comm_), "MPI_Comm_dup");
    MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
  }
  ~MpiTransport() override {
    try {
      flush();
    } catch (...) {
    }
    MPI_Comm_free(&comm_);
    MPI_Finalize();
  }

  int rank() const override { return rank_; }
  int ranks() const override { return size_; }

  void send(std::span<const int> to, std::span<const uint8_t> header,
            std::span<const uint8_t> payload, bool compress) override {
    if (to.empty()) return;
    auto m = std::make_shared<std::vector<uint8_t>>(
        encode(header, payload, compress));  // compressed outside the lock
    std::lock_guard lock(mu_);
    for (int dest : to) {
      if (dest == rank_ || dest < 0 || dest >= size_)
        throw std::logic_error("MPI: a message to rank " + std::to_string(dest));
      for (uint64_t from = 0; from < m->size(); from += kChunkBytes) {
        const uint64_t len = std::min<uint64_t>(kChunkBytes, m->size() - from);
        MPI_Request req;
        check(MPI_Isend(m->data() + from, static_cast<int>(len), MPI_BYTE, dest,
                        from == 0 ? kFirstTag : kMoreTag, comm_, &req),
              "sending to rank " + std::to_string(dest));
        pending_.push_back({req, m});
      }
      ++counters_.messages_sent;
      counters_.bytes_sent += m->size();
      counters_.raw_sent += payload.size();
    }
    reap();
  }

  bool receive(bool wait, Inbox& inbox) override {
    const auto start = std::chrono::steady_clock::now();
    std::chrono::microseconds pause(20);
    for (;;) {
      MPI_Message msg;
      MPI_Status status;
      int flag = 0;
      {
        std::lock_guard lock(mu_);
        check(MPI_Improbe(MPI_ANY_SOURCE, kFirstTag, comm_, &flag, &msg, &status), "probing");
        reap();
      }
      if (flag) {
        if (wait) add_wait(start);
        take(msg, status, inbox);
        return true;
      }
      if (!wait) return false;
      std::this_thread::sleep_for(pause);  // a waiting rank leaves the cores to the others
      pause = std::min(pause * 2, std::chrono::microseconds(1000));
    }
  }

  void flush() override {
    std::unique_lock lock(mu_);
    while (!pending_.empty()) {
      reap();
      if (pending_.empty()) break;
      lock.unlock();
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      lock.lock();
    }
  }

  void broadcast(std::vector<uint8_t>& bytes) override {
    std::lock_guard lock(mu_);
    uint64_t n = bytes.size();
    check(MPI_Bcast(&n, 1, MPI_UINT64_T, 0, comm_), "broadcast");
    bytes.resize(n);
    for (uint64_t from = 0; from < n; from += kChunkBytes)
      check(MPI_Bcast(bytes.data() + from, static_cast<int>(std::min(kChunkBytes, n - from)),
                      MPI_BYTE, 0, comm_),
            "broadcast");
  }

  std::vector<uint64_t> all_gather(std::span<const uint64_t> values) override {
    std::lock_guard lock(mu_);
    std::vector<uint64_t> out(values.size() * static_cast<size_t>(size_));
    check(MPI_Allgather(values.data(), static_cast<int>(values.size()), MPI_UINT64_T, out.data(),
                        static_cast<int>(values.size()), MPI_UINT64_T, comm_),
          "gathering");
    return out;
  }

  Counters counters() const override {
    std::lock_guard lock(mu_);
    return counters_;
  }

 private:
  struct Pending {
    MPI_Request request;
    std::shared_ptr<std::vector<uint8_t>> bytes;  // kept until the send completes
  };

  // drops the sends that completed (under mu_)
  void reap() {
    for (size_t i = 0; i < pending_.size();) {
      int done = 0;
      check(MPI_Test(&pending_[i].request, &done, MPI_STATUS_IGNORE), "sending");
      if (done) {
        pending_[i] = std::move(pending_.back());
        pending_.pop_back();
      } else {
        ++i;
      }
    }
  }

  void add_wait(std::chrono::steady_clock::time_point start) {
    std::lock_guard lock(mu_);
    counters_.seconds_waiting +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  void take(MPI_Message& msg, const MPI_Status& status, Inbox& inbox) {
    const int from = status.MPI_SOURCE;
    const std::string where = "a message from rank " + std::to_string(from);
    int count = 0;
    MPI_Get_count(&status, MPI_BYTE, &count);
    std::vector<uint8_t> m(static_cast<size_t>(count));
    {
      std::lock_guard lock(mu_);
      check(MPI_Mrecv(m.data(), count, MPI_BYTE, &msg, MPI_STATUS_IGNORE), "receiving " + where);
    }
    if (m.size() < 16) throw std::runtime_error("MPI: " + where + " is damaged");
    const uint64_t total = get64(m.data());
    if (total < m.size()) throw std::runtime_error("MPI: " + where + " is damaged");
    m.resize(total);
    for (uint64_t have = static_cast<uint64_t>(count);
         have < total;) {  // the other parts, in order
      MPI_Message more;
      MPI_Status st;
      int flag = 0;
      while (!flag) {
        std::lock_guard lock(mu_);
        check(MPI_Improbe(from, kMoreTag, comm_, &flag, &more, &st), "probing");
      }
      int len = 0;
      MPI_Get_count(&st, MPI_BYTE, &len);
      if (have + static_cast<uint64_t>(len) > total)
        throw std::runtime_error("MPI: " + where + " is damaged");
      std::lock_guard lock(mu_);
      check(MPI_Mrecv(m.data() + have, len, MPI_BYTE, &more, MPI_STATUS_IGNORE),
            "receiving " + where);
      have += static_cast<uint64_t>(len);
    }
    // the engine's header, then the payload's blocks
    const uint8_t* p = m.data() + 8;
    const uint8_t* end = m.data() + m.size();
    auto need = [&](uint64_t n) {
      if (static_cast<uint64_t>(end - p) < n)
        throw std::runtime_error("MPI: " + where + " is damaged");
    };
    need(8);
    const uint64_t hlen = get64(p);
    p += 8;
    need(hlen + 16);
    const std::span<const uint8_t> header(p, hlen);
    p += hlen;
    const uint64_t raw = get64(p), blocks = get64(p + 8);
    p += 16;
    if (blocks == 0) {  // sent as it is
      need(raw);
      if (static_cast<uint64_t>(end - p) != raw)
        throw std::runtime_error("MPI: " + where + " is damaged");
      uint8_t* dest = inbox.place(from, header, raw);
      if (raw && !dest) throw std::logic_error("MPI: nowhere to put " + where);
      if (raw) std::memcpy(dest, p, raw);
      count_in(m.size(), raw);
      inbox.arrived(from, header);
      return;
    }
    if (blocks != (raw + kBlockBytes - 1) / kBlockBytes)
      throw std::runtime_error("MPI: " + where + " is damaged");
    need(8 * blocks);
    std::vector<uint64_t> offset(blocks + 1, 0), size(blocks);
    for (uint64_t b = 0; b < blocks; ++b)
      size[b] = get64(p + 8 * b), offset[b + 1] = offset[b] + size[b];
    p += 8 * blocks;
    need(offset[blocks]);
    uint8_t* dest = inbox.place(from, header, raw);
    if (raw && !dest) throw std::logic_error("MPI: nowhere to put " + where);
    tbb::parallel_for(uint64_t{0}, blocks, [&](uint64_t b) {
      const uint64_t len = std::min<uint64_t>(kBlockBytes, raw - b * kBlockBytes);
      const size_t n = ZSTD_decompress(dest + b * kBlockBytes, len, p + offset[b], size[b]);
      if (ZSTD_isError(n) || n != len)
        throw std::runtime_error("MPI: " + where + " does not decompress");
    });
    count_in(m.size(), raw);
    inbox.arrived(from, header);
  }

  void count_in(uint64_t wire, uint64_t raw) {
    std::lock_guard lock(mu_);
    ++counters_.messages_received;
    counters_.bytes_received += wire;
    counters_.raw_received += raw;
  }

  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
  mutable std::mutex mu_;  // every MPI call: the library runs MPI_THREAD_SERIALIZED
  std::vector<Pending> pending_;
  Counters counters_;
};

}  // namespace

std::unique_ptr<Transport> start_mpi() {
  return std::make_unique<MpiTransport>();
}

void abort_job(int code) {
  int started = 0;
  MPI_Initialized(&started);
  if (started) MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);
}

#else  // built without MPI

bool have_mpi() {
  return false;
}

std::unique_ptr<Transport> start_mpi() {
  throw std::runtime_error(
      "this toadbase was built without MPI, so it cannot solve across ranks: install Open MPI "
      "(libopenmpi-dev) and build again, or run the solve without mpirun");
}

void abort_job(int code) {
  std::_Exit(code);
}

#endif

}  // namespace toadbase::tools
