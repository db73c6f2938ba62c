#include "tools/http_server.hpp"

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string_view>

namespace toadbase::tools {

namespace {

using Clock = std::chrono::steady_clock;

thread_local bool routed = false;  // the router saw the request being processed

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
}
int64_t ns(std::chrono::milliseconds ms) { return std::chrono::duration_cast<std::chrono::nanoseconds>(ms).count(); }

constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";

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
  std::string in;        // bytes received and not answered yet
  size_t scanned = 0;    // bytes of `in` already searched for the end of the headers
  std::string out;       // the answer being written
  bool continue_sent = false;
  std::string peer_ip, local_ip;
  int peer_port = 0, local_port = 0;
  std::atomic<bool> busy{false};              // a worker holds it
  std::atomic<int64_t> last_activity{0};      // steady-clock ns
  std::atomic<int64_t> request_started{0};    // first byte of the pending request; 0: none
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

HttpServer::HttpServer(HttpLimits limits) : limits_(limits) {
  if (limits_.threads <= 0) limits_.threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
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

int HttpServer::start(const std::string& host, int port) {
  if (started_) throw std::logic_error("the server is already started");
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
  if (epoll_fd_ < 0 || wake_fd_ < 0) throw std::runtime_error(std::string("epoll: ") + std::strerror(errno));
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.ptr = nullptr;  // the wake-up: every worker sees it and leaves
  epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, wake_fd_, &ev);
  started_ = true;
  for (int i = 0; i < limits_.threads; ++i) workers_.emplace_back([this] { worker_loop(); });
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
    for (auto& [fd, c] : conns_) ::shutdown(fd, SHUT_RDWR);  // a worker in a write gives up
  }
  for (auto& t : workers_) t.join();
  {
    std::lock_guard lk(stop_mu_);
  }
  stop_cv_.notify_all();
  if (sweeper_.joinable()) sweeper_.join();
  std::lock_guard lk(mu_);
  for (auto& [fd, c] : conns_) ::close(fd);
  conns_.clear();
  ::close(epoll_fd_);
  ::close(wake_fd_);
}

void HttpServer::set_router(HandlerWithResponse router) {
  set_pre_routing_handler([router = std::move(router)](const httplib::Request& req, httplib::Response& res) {
    routed = true;
    return router(req, res);
  });
}

size_t HttpServer::open_connections() const {
  std::lock_guard lk(mu_);
  return conns_.size();
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
  bool full = false;
  {
    std::lock_guard lk(mu_);
    if (stopping_ || conns_.size() >= limits_.max_connections) {
      full = true;
    } else {
      conns_.emplace(sock, std::move(c));
    }
  }
  if (full) {
    const std::string busy = canned(503, "too many open connections (at most " +
                                             std::to_string(limits_.max_connections) + "); try again");
    if (::send(sock, busy.data(), busy.size(), MSG_NOSIGNAL | MSG_DONTWAIT) < 0) {
    }
    ::close(sock);
    return false;
  }
  epoll_event ev{};
  ev.events = EPOLLIN | EPOLLRDHUP | EPOLLONESHOT;
  ev.data.ptr = raw;
  if (epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, sock, &ev) != 0) close_connection(raw);
  return true;
}

void HttpServer::worker_loop() {
  while (!stopping_) {
    epoll_event ev{};
    const int n = epoll_wait(epoll_fd_, &ev, 1, -1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0 || ev.data.ptr == nullptr) break;
    auto* c = static_cast<Connection*>(ev.data.ptr);
    c->busy = true;
    serve(c);
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
      const int64_t started = c->request_started;
      const bool expired = started ? now - started > ns(limits_.request_timeout)
                                   : now - c->last_activity > ns(limits_.keep_alive);
      if (expired) ::shutdown(fd, SHUT_RDWR);  // the worker that sees it closes it
    }
  }
}

void HttpServer::serve(Connection* c) {
  char buf[16384];
  bool eof = false;
  const size_t most = limits_.max_header_bytes + limits_.max_body + sizeof(buf);
  while (c->in.size() < most) {
    const ssize_t n = ::recv(c->fd, buf, sizeof(buf), 0);
    if (n > 0) {
      if (c->in.empty()) c->request_started = now_ns();
      c->in.append(buf, static_cast<size_t>(n));
      continue;
    }
    if (n == 0) {
      eof = true;
      break;
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) break;
    close_connection(c);  // reset by the peer
    return;
  }
  c->last_activity = now_ns();
  while (!c->in.empty() && !stopping_) {
    size_t length = 0;
    int status = 0;
    std::string message;
    const Framing f = frame(c, length, status, message);
    if (f == Framing::Reject) {
      reject(c, status, message);
      return;
    }
    if (f == Framing::Incomplete) break;
    c->out.clear();
    bool closed = false, ok = false;
    try {
      BufferedStream s(c->in.data(), length, c->out, c->peer_ip, c->peer_port, c->local_ip, c->local_port);
      routed = false;
      ok = process_request(s, false, closed, nullptr) && routed;
    } catch (...) {
      ok = false;
    }
    // the interim answer already went out while the body was arriving
    if (c->continue_sent && c->out.compare(0, kContinue.size(), kContinue) == 0) c->out.erase(0, kContinue.size());
    c->continue_sent = false;
    c->in.erase(0, length);
    c->scanned = 0;
    c->request_started = c->in.empty() ? 0 : now_ns();
    if (!send_all(c, c->out) || !ok || closed) {
      close_connection(c);
      return;
    }
    c->last_activity = now_ns();
    if (c->out.capacity() > (size_t{1} << 16)) std::string().swap(c->out);  // a batch answer's buffer
  }
  if (eof || stopping_) {
    close_connection(c);
    return;
  }
  rearm(c);
}

HttpServer::Framing HttpServer::frame(Connection* c, size_t& length, int& status, std::string& message) {
  const std::string& in = c->in;
  const size_t from = c->scanned >= 3 ? c->scanned - 3 : 0;
  const void* hit = memmem(in.data() + from, in.size() - from, "\r\n\r\n", 4);
  const size_t first_eol = in.find("\r\n");
  const bool line_too_long = first_eol == std::string::npos ? in.size() > limits_.max_request_line
                                                            : first_eol > limits_.max_request_line;
  if (line_too_long) {
    status = 414;
    message = "the request line is longer than " + std::to_string(limits_.max_request_line) + " bytes";
    return Framing::Reject;
  }
  if (!hit) {
    c->scanned = in.size();
    if (in.size() > limits_.max_header_bytes) {
      status = 431;
      message = "the request's headers are longer than " + std::to_string(limits_.max_header_bytes) + " bytes";
      return Framing::Reject;
    }
    return Framing::Incomplete;
  }
  const size_t header_end = static_cast<size_t>(static_cast<const char*>(hit) - in.data()) + 4;
  if (header_end > limits_.max_header_bytes) {
    status = 431;
    message = "the request's headers are longer than " + std::to_string(limits_.max_header_bytes) + " bytes";
    return Framing::Reject;
  }
  size_t headers = 0, content_length = 0;
  bool has_length = false, expect_continue = false;
  for (size_t at = first_eol + 2; at + 2 < header_end;) {
    const size_t eol = in.find("\r\n", at);
    const std::string_view line(in.data() + at, eol - at);
    at = eol + 2;
    ++headers;
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;  // httplib answers 400 for it
    const std::string_view name = line.substr(0, colon), value = trim(line.substr(colon + 1));
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
  if (in.size() < header_end + content_length) {
    if (expect_continue && !c->continue_sent) {
      c->continue_sent = true;
      if (!send_all(c, std::string(kContinue))) {
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

bool HttpServer::send_all(Connection* c, const std::string& bytes) {
  size_t off = 0;
  const int64_t deadline = now_ns() + ns(limits_.write_timeout);
  while (off < bytes.size()) {
    const ssize_t n = ::send(c->fd, bytes.data() + off, bytes.size() - off, MSG_NOSIGNAL);
    if (n > 0) {
      off += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      const int64_t left = deadline - now_ns();
      if (left <= 0 || stopping_) return false;
      pollfd p{c->fd, POLLOUT, 0};
      ::poll(&p, 1, static_cast<int>(std::min<int64_t>(left / 1000000 + 1, 100)));
      continue;
    }
    return false;
  }
  return true;
}

void HttpServer::reject(Connection* c, int status, const std::string& message) {
  send_all(c, canned(status, message));
  close_connection(c);
}

void HttpServer::rearm(Connection* c) {
  c->busy = false;
  epoll_event ev{};
  ev.events = EPOLLIN | EPOLLRDHUP | EPOLLONESHOT;
  ev.data.ptr = c;
  if (epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, c->fd, &ev) != 0) {
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
    }
  }
  ::close(c->fd);
}

}  // namespace toadbase::tools
