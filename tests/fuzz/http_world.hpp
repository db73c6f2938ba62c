// What the HTTP fuzz targets share: a server in this process on a loopback port, serving a
// small Toads and Frogs database (length 5), and one request sent on a connection of its own.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "fuzz.hpp"
#include "tools/commands.hpp"
#include "tools/server.hpp"

namespace toadbase::fuzz::http {

namespace fs = std::filesystem;

/// connect(), waited out when a signal interrupts it (libFuzzer's timer can) or the send
/// timeout ends it still in progress, until two seconds from the start: 0, or -1 with errno
/// set (ETIMEDOUT past the two seconds).
inline int connect_within_2s(int fd, const sockaddr_in& to) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&to), sizeof to) == 0) return 0;
  if (errno != EINTR && errno != EINPROGRESS) return -1;
  pollfd p{fd, POLLOUT, 0};
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    const int n = left.count() > 0 ? ::poll(&p, 1, static_cast<int>(left.count())) : 0;
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return -1;
    if (n == 0) {
      errno = ETIMEDOUT;
      return -1;
    }
    break;
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

/// Sends `request` on a new connection to 127.0.0.1:`port`, half-closes it, and returns what
/// comes back before the server closes (or two seconds pass).
///
/// Each connection comes from the next of 65,534 loopback addresses (127.1.0.1, 127.1.0.2,
/// ...): this side half-closes first, so each connection leaves its local port in TIME_WAIT
/// for a minute, and thousands of inputs a second from one address run out of local ports
/// within seconds wherever the kernel does not reuse them (net.ipv4.tcp_tw_reuse 0); every
/// connect after that would fail and nothing would reach the server. A connect that fails all
/// the same fails the run, naming why.
inline std::string round_trip(int port, const std::string& request) {
  static uint32_t next_source = 0;
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  require(fd >= 0, "a socket");
  timeval tv{2, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  const int yes = 1;  // the port is picked at connect, for this source and the server together
  ::setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &yes, sizeof yes);
  sockaddr_in from{};
  from.sin_family = AF_INET;
  from.sin_addr.s_addr = htonl(0x7f010000u | (1 + next_source++ % 0xfffeu));
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const char* failed = nullptr;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&from), sizeof from) != 0) failed = "bind to a loopback source address";
  else if (connect_within_2s(fd, a) != 0) failed = "connect";
  if (failed) {
    const std::string why = std::string("a connection to the server (") + failed + ": " + std::strerror(errno) + ")";
    ::close(fd);
    require(false, why.c_str());
  }
  std::string got;
  size_t sent = 0;
  while (sent < request.size()) {
    const ssize_t n = ::send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) break;
    sent += static_cast<size_t>(n);
  }
  ::shutdown(fd, SHUT_WR);
  char buf[4096];
  for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;) got.append(buf, static_cast<size_t>(n));
  ::close(fd);
  return got;
}

struct World {
  std::string dir;
  std::unique_ptr<tools::Server> server;
  int port = 0;
  std::string known;  // the answer to kKnown
  static constexpr const char* kKnown = "GET /api/tf5/query?p=1_T-F-- HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
  World() {
    char tmpl[] = "/tmp/toadbase-fuzz-XXXXXX";
    dir = ::mkdtemp(tmpl);
    std::freopen("/dev/null", "w", stdout);
    std::string db = dir + "/tf5";
    std::vector<std::string> args = {"toadbase", "solve", "toads-frogs", "--length", "5", "--quiet", "--db", db};
    std::vector<char*> argv;
    for (auto& s : args) argv.push_back(s.data());
    require(tools::run(static_cast<int>(args.size()), argv.data()) == 0, "the database solves");
    std::vector<std::string> warnings;
    tools::ServeOptions o;
    o.port = 0;
    o.limits.threads = 2;
    o.limits.request_timeout = std::chrono::milliseconds(1000);
    o.limits.keep_alive = std::chrono::milliseconds(1000);
    server = std::make_unique<tools::Server>(tools::open_served({}, {db}, 1 << 20, warnings), o);
    port = server->start();
    known = round_trip(port, kKnown);
    require(known.rfind("HTTP/1.1 200", 0) == 0 && known.find("\r\n\r\n") != std::string::npos,
            "the known request is answered");
  }
  ~World() {
    server.reset();
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

}  // namespace toadbase::fuzz::http
