// A raw TCP connection to a server on this machine, for requests no well-behaved client
// sends (the server's Catch2 tests) and for thousands of requests a second (the HTTP fuzz
// targets). Sockets only: it needs neither Catch2 nor an HTTP library.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

namespace tbtest {

/// poll() for `events` on fd, waited out across signals (libFuzzer's timer can interrupt it)
/// until `limit_ms` after `start` (-1: no limit): above 0 ready, 0 past the limit, -1 an error
/// (errno set).
inline int poll_until(int fd, short events, int limit_ms, std::chrono::steady_clock::time_point start) {
  pollfd p{fd, events, 0};
  for (;;) {
    int wait = -1;
    if (limit_ms >= 0) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          start + std::chrono::milliseconds(limit_ms) - std::chrono::steady_clock::now());
      wait = left.count() > 0 ? static_cast<int>(left.count()) : 0;
    }
    const int n = ::poll(&p, 1, wait);
    if (n >= 0 || errno != EINTR) return n;
    if (wait == 0) return 0;
  }
}

/// connect(), waited out when a signal interrupts it or a send timeout ends it still in
/// progress, until `limit_ms` from the start (-1: no limit): 0, or -1 with errno set
/// (ETIMEDOUT past the limit).
inline int connect_within(int fd, const sockaddr_in& to, int limit_ms) {
  const auto start = std::chrono::steady_clock::now();
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&to), sizeof to) == 0) return 0;
  if (errno != EINTR && errno != EINPROGRESS) return -1;
  const int n = poll_until(fd, POLLOUT, limit_ms, start);
  if (n < 0) return -1;
  if (n == 0) {
    errno = ETIMEDOUT;
    return -1;
  }
  int err = 0;
  socklen_t len = sizeof err;
  if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0) return -1;
  if (err != 0) {
    errno = err;
    return -1;
  }
  return 0;
}

/// The next of 65,534 loopback source addresses (127.1.0.1, 127.1.0.2, ..., host order).
/// A client that half-closes first leaves each connection's local port in TIME_WAIT for a
/// minute, and thousands of connections a second from one address run out of local ports
/// within seconds wherever the kernel does not reuse them (net.ipv4.tcp_tw_reuse 0): every
/// connect after that fails. Not for a server that caps connections per address.
inline uint32_t next_loopback_source() {
  static uint32_t next = 0;
  return 0x7f010000u | (1 + next++ % 0xfffeu);
}

struct RawSocketOptions {
  uint32_t source = 0;   // a loopback address to connect from (host order); 0: 127.0.0.1, as the system picks
  int timeout_ms = -1;   // the connect's limit and each send's and recv's, above 0 (-1: none)
};

/// A connected TCP socket to 127.0.0.1:`port` (closed on destruction). Throws
/// std::runtime_error naming the step that failed (socket, bind, connect) and why.
class RawSocket {
 public:
  explicit RawSocket(int port, RawSocketOptions o = {}) {
    // 0 would be no limit to the socket's timeouts and an instant one to the connect's
    if (o.timeout_ms == 0 || o.timeout_ms < -1) throw std::invalid_argument("RawSocket: a timeout above 0 ms, or -1");
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd_ < 0) fail("socket");
    if (o.timeout_ms >= 0) {
      timeval tv{o.timeout_ms / 1000, (o.timeout_ms % 1000) * 1000};
      ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
      ::setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    }
    if (o.source) {
      const int yes = 1;  // the port is picked at connect, for this source and the server together
      ::setsockopt(fd_, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &yes, sizeof yes);
      sockaddr_in from{};
      from.sin_family = AF_INET;
      from.sin_addr.s_addr = htonl(o.source);
      if (::bind(fd_, reinterpret_cast<sockaddr*>(&from), sizeof from) != 0) fail("bind to a loopback source address");
    }
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect_within(fd_, a, o.timeout_ms) != 0) fail("connect");
  }
  ~RawSocket() {
    if (fd_ >= 0) ::close(fd_);
  }
  RawSocket(const RawSocket&) = delete;
  RawSocket& operator=(const RawSocket&) = delete;
  /// Sends everything it can (false once the server has closed the connection).
  bool send(const std::string& bytes) {
    size_t off = 0;
    while (off < bytes.size()) {
      const ssize_t n = ::send(fd_, bytes.data() + off, bytes.size() - off, MSG_NOSIGNAL);
      if (n <= 0) return false;
      off += static_cast<size_t>(n);
    }
    return true;
  }
  /// Says this side sends nothing more (the server reads the end of the request).
  void shutdown_write() { ::shutdown(fd_, SHUT_WR); }
  /// Reads until the server closes the connection or `ms` pass without a byte.
  std::string read_all(int ms) {
    std::string out;
    char buf[65536];
    for (;;) {
      if (!readable(ms)) break;
      const ssize_t n = ::recv(fd_, buf, sizeof(buf), 0);
      if (n <= 0) break;
      out.append(buf, static_cast<size_t>(n));
    }
    return out;
  }
  /// Reads one whole answer (headers, then Content-Length bytes of body), waiting at most
  /// `ms` for each piece: for connections the server keeps open.
  std::string read_response(int ms) {
    std::string out;
    char buf[65536];
    for (;;) {
      const size_t end = out.find("\r\n\r\n");
      if (end != std::string::npos) {
        size_t length = 0;
        const size_t at = out.find("Content-Length: ");
        if (at != std::string::npos && at < end) length = std::stoul(out.substr(at + 16));
        if (out.size() >= end + 4 + length) return out;
      }
      if (!readable(ms)) return out;
      const ssize_t n = ::recv(fd_, buf, sizeof(buf), 0);
      if (n <= 0) return out;
      out.append(buf, static_cast<size_t>(n));
    }
  }
  /// Whether the server has closed the connection (waits up to `ms`).
  bool closed_by_server(int ms) {
    if (!readable(ms)) return false;
    char c;
    return ::recv(fd_, &c, 1, MSG_PEEK) <= 0;
  }
  int fd() const { return fd_; }

 private:
  // whether a byte (or the server's close) arrives within `ms` (-1: no limit)
  bool readable(int ms) const { return poll_until(fd_, POLLIN, ms, std::chrono::steady_clock::now()) > 0; }
  [[noreturn]] void fail(const char* step) {
    const int err = errno;
    const std::string why = std::string("a connection to the server (") + step + ": " + std::strerror(err) + ")";
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    throw std::runtime_error(why);
  }
  int fd_ = -1;
};

}  // namespace tbtest
