#include "tools/http_server.hpp"

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string_view>

namespace toadbase::tools {

namespace {

using Clock = std::chrono::steady_clock;

thread_local bool routed = false;  // the router saw the request being processed
thread_local bool on_heavy = false;  // this thread is the heavy pool's
thread_local bool deferred = false;  // the route asked for the heavy pool (defer_to_heavy)

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
}
int64_t ns(std::chrono::milliseconds ms) { return std::chrono::duration_cast<std::chrono::nanoseconds>(ms).count(); }

constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
constexpr std::string_view kIgnoredRange = "X-Rng";  // as long as "Range"
// as long as "Content-Type": a body is the route's text whatever the client calls it (curl
// --data-binary says application/x-www-form-urlencoded, which httplib would read as form
// fields, and refuse past 8 KiB)
constexpr std::string_view kIgnoredContentType = "X-Given-Type";

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

const char* reason(int status) {
  switch (status) {
    case 400: return "Bad Request";
    case 408: return "Request Timeout";
    case 411: return "Length Required";
    case 413: return "Payload Too Large";
    case 414: return "URI Too Long";
    case 431: return "Request Header Fields Too Large";
    case 503: return "Service Unavailable";
    default: return "Error";
  }
}

/// A whole answer for a request refused before it reached httplib; the connection closes.
std::string canned(int status, const std::string& message) {
  // the message may quote the request's bytes: what is not UTF-8 is replaced, never thrown
  const std::string body = nlohmann::json{{"error", message}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return "HTTP/1.1 " + std::to_string(status) + " " + reason(status) +
         "\r\nContent-Type: application/json\r\nAccess-Control-Allow-Origin: *\r\nContent-Length: " +
         std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
}

/// Runs the listen loop's job (adopting the socket) on the accepting thread: adopting only
/// registers the socket, so no thread is needed.
class InlineQueue : public httplib::TaskQueue {
 public:
  void enqueue(std::function<void()> fn) override { fn(); }
  void shutdown() override {}
};

void address_of(int fd, bool peer, std::string& ip, int& port) {
  sockaddr_storage addr{};
  socklen_t len = sizeof(addr);
  const int rc = peer ? getpeername(fd, reinterpret_cast<sockaddr*>(&addr), &len)
                      : getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  if (rc != 0) return;
  char host[NI_MAXHOST];
  char serv[NI_MAXSERV];
  if (getnameinfo(reinterpret_cast<sockaddr*>(&addr), len, host, sizeof(host), serv, sizeof(serv),
                  NI_NUMERICHOST | NI_NUMERICSERV) == 0) {
    ip = host;
    port = std::atoi(serv);
  }
}

}  // namespace

struct HttpServer::Connection {
  int fd = -1;
  std::string in;        // bytes received: requests answered up to `consumed`, then pending ones
  size_t consumed = 0;   // bytes of `in` already answered (erased at the end of a turn)
  size_t scanned = 0;    // bytes of the pending request already searched for the end of the headers
  std::string out;       // answers not yet taken by the client, from `sent`
  size_t sent = 0;
  size_t heavy_length = 0;     // the request handed to the heavy pool
  bool continue_sent = false;
  bool eof = false;            // the client half-closed: answer what is buffered, then close
  bool close_after = false;    // close once `out` is sent
  bool evicted = false;        // dropped for a newcomer (under mu_)
  std::string peer_ip, local_ip;
  int peer_port = 0, local_port = 0;
  std::atomic<bool> busy{false};              // a worker holds it (or a queue does)
  std::atomic<int64_t> last_activity{0};      // steady-clock ns
  std::atomic<int64_t> request_started{0};    // first byte of the pending request; 0: none
  std::atomic<int64_t> write_started{0};      // an answer is waiting for the client; 0: none
};

namespace {

/// One buffered request as httplib's parser reads it; the answer goes to a string that is
/// sent with one call.
class BufferedStream final : public httplib::Stream {
 public:
  BufferedStream(const char* data, size_t size, std::string& out, const std::string& peer_ip, int peer_port,
                 const std::string& local_ip, int local_port)
      : data_(data), size_(size), out_(out), peer_ip_(peer_ip), local_ip_(local_ip), peer_port_(peer_port),
        local_port_(local_port) {}
  bool is_readable() const override { return pos_ < size_; }
  bool is_writable() const override { return true; }
  ssize_t read(char* ptr, size_t size) override {
    const size_t n = std::min(size, size_ - pos_);
    std::memcpy(ptr, data_ + pos_, n);
    pos_ += n;
    return static_cast<ssize_t>(n);
  }
  ssize_t write(const char* ptr, size_t size) override {
    out_.append(ptr, size);
    return static_cast<ssize_t>(size);
  }
  void get_remote_ip_and_port(std::string& ip, int& port) const override { ip = peer_ip_, port = peer_port_; }
  void get_local_ip_and_port(std::string& ip, int& port) const override { ip = local_ip_, port = local_port_; }
  // httplib refuses a socket past FD_SETSIZE (it would select() on it); this stream never
  // lets it touch the socket
  socket_t socket() const override { return INVALID_SOCKET; }

 private:
  const char* data_;
  size_t size_, pos_ = 0;
  std::string& out_;
  const std::string &peer_ip_, &local_ip_;
  int peer_port_, local_port_;
};

}  // namespace

bool HttpServer::defer_to_heavy() {
  if (on_heavy) return false;
  deferred = true;
  return true;
}

bool HttpServer::on_heavy_pool() { return on_heavy; }

bool has_unread_input(int fd) {
  int waiting = 0;
  return ::ioctl(fd, FIONREAD, &waiting) == 0 && waiting > 0;
}

HttpServer::HttpServer(HttpLimits limits) : limits_(limits) {
  if (limits_.threads <= 0) limits_.threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (limits_.heavy_threads <= 0) limits_.heavy_threads = 1;
  new_task_queue = [] { return new InlineQueue; };
  // SO_REUSEADDR only: httplib's default SO_REUSEPORT would let a second server bind the
  // same port and take half of its connections
  set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  });
  set_payload_max_length(limits_.max_body);
  set_keep_alive_timeout(std::max<time_t>(1, limits_.keep_alive.count() / 1000));
  set_keep_alive_max_count(1000000);
}

HttpServer::~HttpServer() { shutdown(); }

void HttpServer::fit_fd_limit() {
  // every connection is a descriptor: past the limit accept() fails and the newcomer waits
  // unanswered in the backlog, so the connection limit must fit what is left of it
  size_t in_use = 0;
  std::error_code ec;
  for (auto it = std::filesystem::directory_iterator("/proc/self/fd", ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec))
    ++in_use;
  const size_t spare = 16;  // files the process may still open
  rlimit rl{};
  if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return;
  most_evicting_ = std::clamp<size_t>(limits_.max_connections / 8, 1, 64);
  const rlim_t want = static_cast<rlim_t>(in_use + spare + limits_.max_connections + most_evicting_);
  if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < want) {
    rlimit raised = rl;
    raised.rlim_cur = rl.rlim_max == RLIM_INFINITY ? want : std::min(want, rl.rlim_max);
    if (setrlimit(RLIMIT_NOFILE, &raised) == 0) rl = raised;
  }
  if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= want) return;
  // the descriptors left, shared by the connections and those dropped for newer ones and not
  // closed yet (an eighth as many)
  const size_t left = rl.rlim_cur > in_use + spare ? static_cast<size_t>(rl.rlim_cur) - in_use - spare : 0;
  most_evicting_ = std::max<size_t>(1, left / 9);
  const size_t room = left > most_evicting_ ? left - most_evicting_ : 0;
  if (room == 0)
    throw std::runtime_error("the file-descriptor limit (ulimit -n " + std::to_string(rl.rlim_cur) + ", " +
                             std::to_string(in_use) + " in use) leaves no room for a connection; raise it");
  notices_.push_back("at most " + std::to_string(room) + " connections at once, not " +
                     std::to_string(limits_.max_connections) + ": the file-descriptor limit is " +
                     std::to_string(rl.rlim_cur) + " (ulimit -n) and " + std::to_string(in_use) +
                     " are in use; raise it to serve more");
  limits_.max_connections = room;
}

int HttpServer::start(const std::string& host, int port) {
  if (started_) throw std::logic_error("the server is already started");
  fit_fd_limit();
  int bound = port;
  if (port == 0) {
    bound = bind_to_any_port(host);
    if (bound < 0) throw std::runtime_error("cannot listen on " + host + " (any port)");
  } else if (!bind_to_port(host, port)) {
    throw std::runtime_error("cannot listen on " + host + ":" + std::to_string(port) +
                             " (in use, not an address of this machine, or not allowed)");
  }
  // httplib listens with a backlog of 5: a burst of clients past that waits for a SYN
  // retransmission (a second); listening again raises it
  ::listen(svr_sock_, SOMAXCONN);
  epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
  wake_fd_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  ready_fd_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK | EFD_SEMAPHORE);
  if (epoll_fd_ < 0 || wake_fd_ < 0 || ready_fd_ < 0)
    throw std::runtime_error(std::string("epoll: ") + std::strerror(errno));
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.ptr = nullptr;  // the wake-up: every worker sees it and leaves
  epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, wake_fd_, &ev);
  ev.data.ptr = &ready_;  // a connection waits in the ready queue
  epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, ready_fd_, &ev);
  started_ = true;
  for (int i = 0; i < limits_.threads; ++i) workers_.emplace_back([this] { worker_loop(); });
  if (heavy_)
    for (int i = 0; i < limits_.heavy_threads; ++i) heavy_workers_.emplace_back([this] { heavy_loop(); });
  sweeper_ = std::thread([this] { sweeper_loop(); });
  listener_ = std::thread([this] { listen_after_bind(); });
  while (!is_running()) std::this_thread::sleep_for(std::chrono::microseconds(200));
  return bound;
}

void HttpServer::shutdown() {
  if (!started_ || stopping_.exchange(true)) return;
  stop();  // httplib: closes the listening socket, the accept loop ends
  if (listener_.joinable()) listener_.join();
  const uint64_t one = 1;
  if (::write(wake_fd_, &one, sizeof(one)) < 0) {
  }
  {
    std::lock_guard lk(mu_);
    for (auto& [fd, c] : conns_) ::shutdown(fd, SHUT_RDWR);
  }
  {
    std::lock_guard lk(heavy_mu_);
  }
  heavy_cv_.notify_all();
  for (auto& t : workers_) t.join();
  for (auto& t : heavy_workers_) t.join();
  {
    std::lock_guard lk(stop_mu_);
  }
  stop_cv_.notify_all();
  if (sweeper_.joinable()) sweeper_.join();
  std::lock_guard lk(mu_);
  for (auto& [fd, c] : conns_) ::close(fd);
  conns_.clear();
  per_address_.clear();
  ::close(epoll_fd_);
  ::close(wake_fd_);
  ::close(ready_fd_);
}

void HttpServer::set_router(HandlerWithResponse router) {
  set_pre_routing_handler([router = std::move(router)](const httplib::Request& req, httplib::Response& res) {
    routed = true;
    return router(req, res);
  });
}

void HttpServer::set_heavy(std::function<bool(std::string_view, std::string_view)> heavy) {
  if (started_) throw std::logic_error("set_heavy after start");
  heavy_ = std::move(heavy);
}

size_t HttpServer::open_connections() const {
  std::lock_guard lk(mu_);
  return conns_.size();
}

HttpServer::Connection* HttpServer::pick_victim() {
  // the oldest unfinished request first (a client trickling its headers), else an idle
  // connection of the address holding the most (the one idle longest among them); never one
  // a worker holds or one still taking an answer
  if (evicting_ >= most_evicting_) return nullptr;
  Connection* unfinished = nullptr;
  Connection* idle = nullptr;
  size_t idle_holds = 0;
  for (auto& [fd, c] : conns_) {
    if (c->evicted || c->busy || c->write_started) continue;
    const int64_t started = c->request_started;
    if (started) {
      if (!unfinished || started < unfinished->request_started) unfinished = c.get();
      continue;
    }
    const size_t holds = per_address_[c->peer_ip];
    if (!idle || holds > idle_holds || (holds == idle_holds && c->last_activity < idle->last_activity)) {
      idle = c.get();
      idle_holds = holds;
    }
  }
  return unfinished ? unfinished : idle;
}

bool HttpServer::process_and_close_socket(socket_t sock) {
  const int flags = fcntl(sock, F_GETFL, 0);
  fcntl(sock, F_SETFL, flags | O_NONBLOCK);
  int yes = 1;
  setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof(yes));
  auto c = std::make_unique<Connection>();
  c->fd = sock;
  c->last_activity = now_ns();
  address_of(sock, true, c->peer_ip, c->peer_port);
  address_of(sock, false, c->local_ip, c->local_port);
  Connection* raw = c.get();
  std::string refused;
  {
    std::lock_guard lk(mu_);
    size_t& mine = per_address_[raw->peer_ip];
    if (stopping_) {
      refused = "the server is stopping";
    } else if (mine >= limits_.max_per_address) {
      refused = "too many connections from " + raw->peer_ip + " (at most " +
                std::to_string(limits_.max_per_address) + " at once); close some and try again";
    } else if (conns_.size() - evicting_ >= limits_.max_connections) {
      Connection* victim = pick_victim();
      if (victim) {
        victim->evicted = true;
        ++evicting_;
        ::shutdown(victim->fd, SHUT_RDWR);  // the worker that sees it closes it
      } else {
        refused = "too many open connections (at most " + std::to_string(limits_.max_connections) + "); try again";
      }
    }
    if (refused.empty()) {
      ++mine;
      conns_.emplace(sock, std::move(c));
    } else if (mine == 0) {
      per_address_.erase(raw->peer_ip);
    }
  }
  if (!refused.empty()) {
    const std::string busy = canned(503, refused);
    if (::send(sock, busy.data(), busy.size(), MSG_NOSIGNAL | MSG_DONTWAIT) < 0) {
    }
    ::close(sock);
    return false;
  }
  raw->busy = true;
  arm(raw, EPOLLIN);
  return true;
}

void HttpServer::worker_loop() {
  while (!stopping_) {
    epoll_event ev{};
    const int n = epoll_wait(epoll_fd_, &ev, 1, -1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0 || ev.data.ptr == nullptr) break;
    Connection* c = nullptr;
    if (ev.data.ptr == &ready_) {
      uint64_t one = 0;
      if (::read(ready_fd_, &one, sizeof(one)) != sizeof(one)) continue;  // another worker took it
      std::lock_guard lk(ready_mu_);
      if (ready_.empty()) continue;
      c = ready_.front();
      ready_.pop_front();
    } else {
      c = static_cast<Connection*>(ev.data.ptr);
      c->busy = true;
    }
    serve(c);
  }
}

void HttpServer::heavy_loop() {
  // heavy work yields the cores to the position requests: this thread runs at a lower priority
  if (setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10) != 0) {
  }
  on_heavy = true;
  for (;;) {
    Connection* c = nullptr;
    {
      std::unique_lock lk(heavy_mu_);
      heavy_cv_.wait(lk, [this] { return stopping_ || !heavy_queue_.empty(); });
      if (stopping_) return;
      c = heavy_queue_.front();
      heavy_queue_.pop_front();
    }
    run(c, c->heavy_length);
    {
      std::lock_guard lk(heavy_mu_);
      auto it = heavy_per_address_.find(c->peer_ip);
      if (it != heavy_per_address_.end() && --it->second == 0) heavy_per_address_.erase(it);
    }
    push_ready(c);  // a worker sends the answer and goes on with the connection
  }
}

void HttpServer::sweeper_loop() {
  std::unique_lock lk(stop_mu_);
  while (!stopping_) {
    stop_cv_.wait_for(lk, std::chrono::milliseconds(250));
    if (stopping_) break;
    const int64_t now = now_ns();
    std::lock_guard g(mu_);
    for (auto& [fd, c] : conns_) {
      if (c->busy) continue;
      const int64_t started = c->request_started, writing = c->write_started;
      const bool expired = writing   ? now - writing > ns(limits_.write_timeout)
                           : started ? now - started > ns(limits_.request_timeout)
                                     : (now - c->last_activity > ns(limits_.keep_alive) && !has_unread_input(fd));
      if (expired) ::shutdown(fd, SHUT_RDWR);  // the worker that sees it closes it
    }
  }
}

void HttpServer::serve(Connection* c) {
  // what the client has not taken yet goes first; nothing more is read until it is taken
  if (!flush(c)) return close_connection(c);
  if (c->sent < c->out.size()) return arm(c, EPOLLOUT);
  if (c->close_after) return close_connection(c);
  char buf[16384];
  const size_t most = limits_.max_header_bytes + limits_.max_body + sizeof(buf);
  while (!c->eof && c->in.size() - c->consumed < most) {
    const ssize_t n = ::recv(c->fd, buf, sizeof(buf), 0);
    if (n > 0) {
      if (c->in.size() == c->consumed) c->request_started = now_ns();
      c->in.append(buf, static_cast<size_t>(n));
      continue;
    }
    if (n == 0) {
      c->eof = true;
      break;
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) break;
    return close_connection(c);  // reset by the peer
  }
  c->last_activity = now_ns();
  size_t served = 0;
  bool more = false;
  while (c->in.size() > c->consumed && !stopping_ && !c->close_after) {
    if (served == limits_.burst || c->out.size() - c->sent > limits_.max_unsent) {
      more = true;  // the next connection's turn: this one goes to the back of the queue
      break;
    }
    size_t length = 0;
    int status = 0;
    std::string message;
    const Framing f = frame(c, length, status, message);
    if (f == Framing::Reject) {
      c->out += canned(status, message);
      c->close_after = true;
      break;
    }
    if (f == Framing::Incomplete) break;
    // heavy from its request line, or found heavy by its route (a long answer): the heavy pool
    if (is_heavy(c) || !run(c, length)) {
      if (!flush(c)) return close_connection(c);  // the answers before it go out first
      if (hand_to_heavy(c, length)) return;  // the heavy pool has it now
      c->out += canned(503, "the server is busy with heavy requests (a game's own work, batches, "
                            "boards by value, long answers); try again");
      c->close_after = true;
      break;
    }
    ++served;
  }
  finish_turn(c, more);
}

void HttpServer::finish_turn(Connection* c, bool more) {
  if (c->consumed > 0) {
    c->in.erase(0, c->consumed);  // once a turn: a pipelined flood is not moved request by request
    c->consumed = 0;
    if (c->in.empty() && c->in.capacity() > (size_t{1} << 16)) std::string().swap(c->in);
  }
  if (!flush(c)) return close_connection(c);
  if (c->sent < c->out.size()) return arm(c, EPOLLOUT);
  if (c->close_after || stopping_) return close_connection(c);
  if (more) return push_ready(c);
  if (c->eof) return close_connection(c);
  arm(c, EPOLLIN);
}

bool HttpServer::run(Connection* c, size_t length) {
  const size_t start = c->out.size();
  bool closed = false, ok = false;
  try {
    BufferedStream s(c->in.data() + c->consumed, length, c->out, c->peer_ip, c->peer_port, c->local_ip,
                     c->local_port);
    routed = false;
    deferred = false;
    ok = process_request(s, false, closed, nullptr) && routed;
  } catch (...) {
    ok = false;
  }
  if (deferred) {
    deferred = false;
    c->out.resize(start);  // the route's stand-in answer; the request stays to be run again
    return false;
  }
  // the interim answer already went out while the body was arriving
  if (c->continue_sent && c->out.compare(start, kContinue.size(), kContinue) == 0) c->out.erase(start, kContinue.size());
  c->continue_sent = false;
  c->consumed += length;
  c->scanned = 0;
  c->request_started = c->in.size() > c->consumed ? now_ns() : 0;
  if (!ok || closed) c->close_after = true;
  return true;
}

HttpServer::Framing HttpServer::frame(Connection* c, size_t& length, int& status, std::string& message) {
  char* base = c->in.data() + c->consumed;
  const std::string_view in(base, c->in.size() - c->consumed);
  const size_t from = c->scanned >= 3 ? c->scanned - 3 : 0;
  const size_t hit = in.find("\r\n\r\n", from);
  const size_t header_end = hit == std::string_view::npos ? std::string_view::npos : hit + 4;
  const std::string_view head = in.substr(0, hit == std::string_view::npos ? in.size() : hit + 2);
  // a bare LF would leave the request waiting for a CRLF CRLF that never comes
  for (size_t at = head.find('\n', c->scanned > 0 ? c->scanned - 1 : 0); at != std::string_view::npos;
       at = head.find('\n', at + 1)) {
    if (at == 0 || head[at - 1] != '\r') {
      status = 400;
      message = "a line of the request ends in a bare LF: HTTP lines end in CRLF";
      return Framing::Reject;
    }
  }
  const size_t first_eol = in.find("\r\n");
  const bool line_too_long = first_eol == std::string_view::npos ? in.size() > limits_.max_request_line
                                                                 : first_eol > limits_.max_request_line;
  if (line_too_long) {
    status = 414;
    message = "the request line is longer than " + std::to_string(limits_.max_request_line) + " bytes";
    return Framing::Reject;
  }
  const std::string too_long_line =
      "a header line is longer than " + std::to_string(limits_.max_header_line) + " bytes";
  if (header_end == std::string_view::npos) {
    c->scanned = in.size();
    const size_t last_eol = in.rfind("\r\n");
    if (last_eol != std::string_view::npos && in.size() - last_eol - 2 > limits_.max_header_line) {
      status = 431;
      message = too_long_line;
      return Framing::Reject;
    }
    if (in.size() > limits_.max_header_bytes) {
      status = 431;
      message = "the request's headers are longer than " + std::to_string(limits_.max_header_bytes) + " bytes";
      return Framing::Reject;
    }
    return Framing::Incomplete;
  }
  if (header_end > limits_.max_header_bytes) {
    status = 431;
    message = "the request's headers are longer than " + std::to_string(limits_.max_header_bytes) + " bytes";
    return Framing::Reject;
  }
  size_t headers = 0, content_length = 0;
  bool has_length = false, expect_continue = false;
  for (size_t at = first_eol + 2; at + 2 < header_end;) {
    const size_t eol = in.find("\r\n", at);
    const std::string_view line = in.substr(at, eol - at);
    const size_t line_at = at;
    at = eol + 2;
    ++headers;
    if (line.size() > limits_.max_header_line) {
      status = 431;
      message = too_long_line;
      return Framing::Reject;
    }
    const size_t colon = line.find(':');
    const std::string_view name = line.substr(0, colon);
    if (colon == std::string_view::npos || name.empty() || name.find_first_of(" \t") != std::string_view::npos) {
      status = 400;
      message = "header line " + std::to_string(headers) + " is not 'Name: value'";
      return Framing::Reject;
    }
    const std::string_view value = trim(line.substr(colon + 1));
    if (iequals(name, "Content-Length")) {
      size_t v = 0;
      bool digits = !value.empty() && value.size() <= 18;
      for (char ch : value) {
        if (ch < '0' || ch > '9') digits = false;
        else v = v * 10 + static_cast<size_t>(ch - '0');
      }
      if (!digits || (has_length && v != content_length)) {
        status = 400;
        message = "bad Content-Length '" + std::string(value.substr(0, 40)) + "'";
        return Framing::Reject;
      }
      has_length = true;
      content_length = v;
    } else if (iequals(name, "Transfer-Encoding")) {
      status = 411;
      message = "Transfer-Encoding is not accepted: send the body with a Content-Length";
      return Framing::Reject;
    } else if (iequals(name, "Expect") && iequals(value, "100-continue")) {
      expect_continue = true;
    } else if (iequals(name, "Range")) {
      // every answer is whole: httplib would answer each of thousands of ranges with a copy
      // of the body; renamed in place, the header reaches nobody
      std::memcpy(base + line_at, kIgnoredRange.data(), kIgnoredRange.size());
    } else if (iequals(name, "Content-Type")) {
      std::memcpy(base + line_at, kIgnoredContentType.data(), kIgnoredContentType.size());
    }
  }
  if (headers > limits_.max_headers) {
    status = 431;
    message = "more than " + std::to_string(limits_.max_headers) + " header lines";
    return Framing::Reject;
  }
  if (content_length > limits_.max_body) {
    status = 413;
    message = "the body is longer than " + std::to_string(limits_.max_body) + " bytes";
    return Framing::Reject;
  }
  c->scanned = hit;  // the next look finds the same end of the headers, not one in the body
  if (in.size() < header_end + content_length) {
    if (expect_continue && !c->continue_sent) {
      c->continue_sent = true;
      c->out += kContinue;
      if (!flush(c)) {
        status = 400;
        message = "the connection failed";
        return Framing::Reject;
      }
    }
    return Framing::Incomplete;
  }
  length = header_end + content_length;
  return Framing::Complete;
}

bool HttpServer::is_heavy(const Connection* c) const {
  if (!heavy_) return false;
  const std::string_view line(c->in.data() + c->consumed, c->in.find("\r\n", c->consumed) - c->consumed);
  const size_t sp1 = line.find(' ');
  const size_t sp2 = line.find(' ', sp1 == std::string_view::npos ? line.size() : sp1 + 1);
  if (sp1 == std::string_view::npos || sp2 == std::string_view::npos) return false;
  return heavy_(line.substr(0, sp1), line.substr(sp1 + 1, sp2 - sp1 - 1));
}

bool HttpServer::hand_to_heavy(Connection* c, size_t length) {
  {
    std::lock_guard lk(heavy_mu_);
    size_t& mine = heavy_per_address_[c->peer_ip];
    if (heavy_queue_.size() >= limits_.heavy_queue || mine >= limits_.heavy_per_address) {
      if (mine == 0) heavy_per_address_.erase(c->peer_ip);
      return false;
    }
    ++mine;
    c->heavy_length = length;
    heavy_queue_.push_back(c);
  }
  heavy_cv_.notify_one();
  return true;
}

bool HttpServer::flush(Connection* c) {
  while (c->sent < c->out.size()) {
    const ssize_t n = ::send(c->fd, c->out.data() + c->sent, c->out.size() - c->sent, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      c->sent += static_cast<size_t>(n);
      c->write_started = now_ns();  // the client takes it: the write time starts again
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (!c->write_started) c->write_started = now_ns();
      return true;
    }
    return false;
  }
  c->out.clear();
  c->sent = 0;
  c->write_started = 0;
  if (c->out.capacity() > (size_t{1} << 16)) std::string().swap(c->out);  // a batch answer's buffer
  return true;
}

void HttpServer::push_ready(Connection* c) {
  {
    std::lock_guard lk(ready_mu_);
    ready_.push_back(c);
  }
  const uint64_t one = 1;
  if (::write(ready_fd_, &one, sizeof(one)) < 0) {
  }
}

void HttpServer::arm(Connection* c, uint32_t events) {
  c->busy = false;
  epoll_event ev{};
  ev.events = events | EPOLLRDHUP | EPOLLONESHOT;
  ev.data.ptr = c;
  if (epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, c->fd, &ev) != 0 &&
      (errno != ENOENT || epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, c->fd, &ev) != 0)) {
    c->busy = true;
    close_connection(c);
  }
}

void HttpServer::close_connection(Connection* c) {
  std::unique_ptr<Connection> owned;
  {
    std::lock_guard lk(mu_);
    auto it = conns_.find(c->fd);
    if (it != conns_.end()) {
      owned = std::move(it->second);
      conns_.erase(it);
      if (c->evicted) --evicting_;
      auto a = per_address_.find(c->peer_ip);
      if (a != per_address_.end() && --a->second == 0) per_address_.erase(a);
    }
  }
  ::close(c->fd);
}

}  // namespace toadbase::tools
