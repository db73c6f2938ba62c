// The HTTP connection layer under `toadbase serve`: cpp-httplib parses requests, routes them
// and writes the answers; this class owns the connections.
//
// cpp-httplib on its own gives each connection a pool thread for as long as the connection
// lives, reading it with blocking calls: 64 keep-alive clients need 64 threads, and a client
// that sends a byte every few seconds holds its thread forever. Here the accepted socket is
// handed to an epoll loop instead:
//
//     accept (httplib's listen loop) --> admit: a connection slot (per address and in all;
//        when every slot is taken, the connection with the oldest unfinished request, else
//        the longest idle one, is dropped for the newcomer), non-blocking, one-shot in epoll
//     worker threads (as many as cores) <-- epoll: a connection can be read or written
//                                       <-- the ready queue: a connection with requests left
//        write what is still owed; read what is there -> a whole request buffered?
//           no:  check the limits, re-arm, back to epoll (a slow client holds no thread)
//           yes: a heavy request (a game's own work, a batch)? -> the heavy pool
//                else httplib's process_request on the buffered bytes, its answer queued
//                (a route that finds its answer long defers it: -> the heavy pool)
//        after `burst` requests of one connection, it goes to the back of the ready queue;
//        an answer the client does not take waits for EPOLLOUT (no worker waits on a socket)
//     heavy pool (1 thread, lowered priority): one heavy request at a time, at most
//        `heavy_per_address` queued or running per address and `heavy_queue` in all (503
//        past that, at once); the connection then goes back to the workers
//     sweeper (4 times a second): connections idle past the keep-alive time, whose request is
//        not complete within the request time, or whose answer is not taken within the write
//        time, are shut down (a worker closes them)
//
// Limits (each answered with a JSON error and the connection closed): request line
// (414), a header line, header bytes and header count (431), body (413), Transfer-Encoding
// (411: send Content-Length), lines not ended by CRLF and header lines without a colon (400),
// connections from one address (503). A `Range` header is ignored: every answer is whole (200).
#pragma once

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

namespace toadbase::tools {

struct HttpLimits {
  int threads = 0;                        // workers; 0: the cores
  int heavy_threads = 1;                  // workers of heavy requests (see set_heavy)
  size_t max_connections = 512;           // open at once (lowered to what the fd limit allows)
  size_t max_per_address = 128;           // open at once from one client address; more get 503
  size_t heavy_queue = 16;                // heavy requests waiting at once; more get 503
  size_t heavy_per_address = 2;           // heavy requests queued or running from one address
  size_t burst = 8;                       // pipelined requests served before the next connection's turn
  size_t max_unsent = size_t{1} << 20;    // answers not taken by the client: no more are made past this
  size_t max_request_line = 8192;         // bytes of "GET /path?query HTTP/1.1"
  size_t max_header_line = 8192;          // bytes of one header line
  size_t max_header_bytes = 16384;        // the request line and every header together
  size_t max_headers = 64;                // header lines
  size_t max_body = size_t{1} << 20;      // Content-Length
  std::chrono::milliseconds keep_alive{5000};       // an idle connection is closed after this
  std::chrono::milliseconds request_timeout{10000}; // a request must arrive whole within this
  std::chrono::milliseconds write_timeout{5000};    // an answer must be taken within this
};

/// Whether bytes wait unread on the socket: a connection whose request came whole while every
/// worker was busy is waiting for its turn, not idle (the keep-alive timeout spares it).
bool has_unread_input(int fd);

class HttpServer : public httplib::Server {
 public:
  explicit HttpServer(HttpLimits limits);
  ~HttpServer() override;
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  /// Binds `host`:`port` (0: any free port) and starts serving in background threads;
  /// returns the port. Throws std::runtime_error when the address cannot be bound, or when
  /// the process's file-descriptor limit leaves no room for a connection.
  int start(const std::string& host, int port);
  /// Stops accepting, closes every connection and joins the threads (idempotent).
  void shutdown();

  /// Routes every request that parsed (httplib's pre-routing handler). A request httplib
  /// answers on its own (it cannot parse it) closes the connection after the answer: the
  /// stream's state is suspect.
  void set_router(HandlerWithResponse router);
  /// Which requests are heavy, from the request line's method and target (before any
  /// parsing): they run on the heavy pool. Set before start().
  void set_heavy(std::function<bool(std::string_view method, std::string_view target)> heavy);

  /// For a route running on a worker that finds its request heavy after all (a long answer,
  /// known only from the database): true, and the request is run again on the heavy pool
  /// (what the route answers now is dropped; 503 when the pool is full); false on the heavy
  /// pool itself, where the route goes on and answers.
  static bool defer_to_heavy();
  /// Whether the calling thread is the heavy pool's.
  static bool on_heavy_pool();

  /// Connections open now (for tests and the benchmark).
  size_t open_connections() const;
  /// What start() had to change (the connection limit lowered to the fd limit), for the log.
  const std::vector<std::string>& notices() const { return notices_; }
  /// The connection limit in force (after start(): perhaps lowered to the fd limit).
  size_t max_connections() const { return limits_.max_connections; }

 private:
  struct Connection;
  enum class Framing { Incomplete, Complete, Reject };

  bool process_and_close_socket(socket_t sock) override;  // adopts the socket
  Connection* pick_victim();                               // under mu_
  void fit_fd_limit();
  void worker_loop();
  void heavy_loop();
  void sweeper_loop();
  void serve(Connection* c);
  /// Runs the request at the front of the buffer (`length` bytes) and queues its answer;
  /// false, with nothing queued and the request left in the buffer, when its route deferred
  /// it to the heavy pool.
  bool run(Connection* c, size_t length);
  /// Whether the buffer starts with a whole request; its length in `length`, or the status
  /// and message of a request that breaks a limit. `Range` and `Content-Type` headers are
  /// renamed in place (every answer is whole; every body is the route's text).
  Framing frame(Connection* c, size_t& length, int& status, std::string& message);
  bool is_heavy(const Connection* c) const;
  bool hand_to_heavy(Connection* c, size_t length);
  /// Sends what is owed without waiting; false when the connection failed.
  bool flush(Connection* c);
  void finish_turn(Connection* c, bool more);
  void push_ready(Connection* c);
  void arm(Connection* c, uint32_t events);
  void close_connection(Connection* c);

  HttpLimits limits_;
  std::function<bool(std::string_view, std::string_view)> heavy_;
  std::vector<std::string> notices_;
  int epoll_fd_ = -1;
  int wake_fd_ = -1;   // written once at shutdown: every worker sees it
  int ready_fd_ = -1;  // a semaphore: one count a connection in ready_
  std::atomic<bool> stopping_{false};
  std::thread listener_, sweeper_;
  std::vector<std::thread> workers_, heavy_workers_;
  mutable std::mutex mu_;  // guards conns_, per_address_ (a connection is freed only after leaving it)
  std::unordered_map<int, std::unique_ptr<Connection>> conns_;
  std::unordered_map<std::string, size_t> per_address_;
  size_t evicting_ = 0;       // connections dropped for newcomers, not closed yet
  size_t most_evicting_ = 1;  // of those at once (set by fit_fd_limit)
  std::mutex ready_mu_;
  std::deque<Connection*> ready_;
  std::mutex heavy_mu_;
  std::condition_variable heavy_cv_;
  std::deque<Connection*> heavy_queue_;
  std::unordered_map<std::string, size_t> heavy_per_address_;
  std::mutex stop_mu_;
  std::condition_variable stop_cv_;
  bool started_ = false;
};

}  // namespace toadbase::tools
