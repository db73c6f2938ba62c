// What the HTTP fuzz targets share: a server in this process on a loopback port, serving a
// small Toads and Frogs database (length 5), and one request sent on a connection of its own.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "fuzz.hpp"
#include "tools/commands.hpp"
#include "tools/server.hpp"

namespace toadbase::fuzz::http {

namespace fs = std::filesystem;

/// Sends `request` on a new connection to 127.0.0.1:`port`, half-closes it, and returns what
/// comes back before the server closes (or two seconds pass).
inline std::string round_trip(int port, const std::string& request) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  require(fd >= 0, "a socket");
  timeval tv{2, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string got;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) {
    size_t sent = 0;
    while (sent < request.size()) {
      const ssize_t n = ::send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) break;
      sent += static_cast<size_t>(n);
    }
    ::shutdown(fd, SHUT_WR);
    char buf[4096];
    for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;) got.append(buf, static_cast<size_t>(n));
  }
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
    require(known.rfind("HTTP/1.1 200", 0) == 0, "the known request is answered");
  }
  ~World() {
    server.reset();
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

}  // namespace toadbase::fuzz::http
