// The HTTP connection layer under `toadbase serve`: cpp-httplib parses requests, routes them
// and writes the answers; this class owns the connections.
//
// cpp-httplib on its own gives each connection a pool thread for as long as the connection
// lives, reading it with blocking calls: 64 keep-alive clients need 64 threads, and a client
// that sends a byte every few seconds holds its thread forever. Here the accepted socket is
// handed to an epoll loop instead:
//
//     accept (httplib's listen loop) --> adopt: non-blocking, registered one-shot in epoll
//     worker threads (as many as cores) <-- epoll: a connection has bytes
//        read what is there -> a whole request buffered?  (request line + headers, then
//                                                          Content-Length bytes of body)
//           no:  check the limits, re-arm, back to epoll (a slow client holds no thread)
//           yes: httplib's process_request on the buffered bytes -> one send of the answer
//     sweeper (4 times a second): connections idle past the keep-alive time, or whose request
//        is not complete within the request time, are shut down (a worker closes them)
//
// Limits (each answered with a JSON error and the connection closed): request line
// (414), header bytes and header count (431), body (413), Transfer-Encoding (411: send
// Content-Length), connections open at once (503).
#pragma once

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace toadbase::tools {

struct HttpLimits {
  int threads = 0;                        // workers; 0: the cores
  size_t max_connections = 512;           // open at once; more are answered 503 and closed
  size_t max_request_line = 8192;         // bytes of "GET /path?query HTTP/1.1"
  size_t max_header_bytes = 16384;        // the request line and every header together
  size_t max_headers = 64;                // header lines
  size_t max_body = size_t{1} << 20;      // Content-Length
  std::chrono::milliseconds keep_alive{5000};       // an idle connection is closed after this
  std::chrono::milliseconds request_timeout{10000}; // a request must arrive whole within this
  std::chrono::milliseconds write_timeout{5000};    // an answer must be taken within this
};

class HttpServer : public httplib::Server {
 public:
  explicit HttpServer(HttpLimits limits);
  ~HttpServer() override;
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  /// Binds `host`:`port` (0: any free port) and starts serving in background threads;
  /// returns the port. Throws std::runtime_error when the address cannot be bound.
  int start(const std::string& host, int port);
  /// Stops accepting, closes every connection and joins the threads (idempotent).
  void shutdown();

  /// Routes every request that parsed (httplib's pre-routing handler). A request httplib
  /// answers on its own (it cannot parse it) closes the connection after the answer: the
  /// stream's state is suspect.
  void set_router(HandlerWithResponse router);

  /// Connections open now (for tests and the benchmark).
  size_t open_connections() const;

 private:
  struct Connection;
  enum class Framing { Incomplete, Complete, Reject };

  bool process_and_close_socket(socket_t sock) override;  // adopts the socket
  void worker_loop();
  void sweeper_loop();
  void serve(Connection* c);
  /// Whether the buffer starts with a whole request; its length in `length`, or the status
  /// and message of a request that breaks a limit.
  Framing frame(Connection* c, size_t& length, int& status, std::string& message);
  bool send_all(Connection* c, const std::string& bytes);
  void reject(Connection* c, int status, const std::string& message);
  void rearm(Connection* c);
  void close_connection(Connection* c);

  HttpLimits limits_;
  int epoll_fd_ = -1;
  int wake_fd_ = -1;
  std::atomic<bool> stopping_{false};
  std::thread listener_, sweeper_;
  std::vector<std::thread> workers_;
  mutable std::mutex mu_;  // guards conns_ (a connection is freed only after leaving it)
  std::unordered_map<int, std::unique_ptr<Connection>> conns_;
  std::mutex stop_mu_;
  std::condition_variable stop_cv_;
  bool started_ = false;
};

}  // namespace toadbase::tools
