// What the server's tests share: a server started in this process on a free port, an HTTP
// client for it, and a raw socket for requests no well-behaved client would send.
#pragma once

#include <arpa/inet.h>
#include <httplib.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "support.hpp"
#include "tools/server.hpp"

namespace tbtest {

/// A server on 127.0.0.1, any free port, serving the databases at `paths`.
struct TestServer {
  explicit TestServer(const std::vector<std::string>& paths, toadbase::tools::ServeOptions o = {}) {
    std::vector<std::string> warnings;
    auto dbs = toadbase::tools::open_served({}, paths, size_t{16} << 20, warnings);
    if (!warnings.empty()) throw std::runtime_error("opening the test databases: " + warnings.front());
    o.host = "127.0.0.1";
    o.port = 0;
    if (o.limits.threads == 0) o.limits.threads = 2;
    server = std::make_unique<toadbase::tools::Server>(std::move(dbs), o);
    port = server->start();
  }
  httplib::Client client() const {
    httplib::Client c("127.0.0.1", port);
    c.set_read_timeout(10, 0);
    c.set_connection_timeout(5, 0);
    return c;
  }
  /// GET `path`; fails the test when there is no answer at all.
  httplib::Response get(const std::string& path) const {
    auto c = client();
    auto r = c.Get(path.c_str());
    if (!r) throw std::runtime_error("no answer to GET " + path + ": " + httplib::to_string(r.error()));
    return r.value();
  }

  std::unique_ptr<toadbase::tools::Server> server;
  int port = 0;
};

/// A connected TCP socket to 127.0.0.1:`port` (closed on destruction).
class RawSocket {
 public:
  explicit RawSocket(int port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof(a)) != 0) throw std::runtime_error("connect failed");
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
  /// Reads until the server closes the connection or `ms` pass without a byte.
  std::string read_all(int ms) {
    std::string out;
    char buf[65536];
    for (;;) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, ms) <= 0) break;
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
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, ms) <= 0) return out;
      const ssize_t n = ::recv(fd_, buf, sizeof(buf), 0);
      if (n <= 0) return out;
      out.append(buf, static_cast<size_t>(n));
    }
  }
  /// Whether the server has closed the connection (waits up to `ms`).
  bool closed_by_server(int ms) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, ms) <= 0) return false;
    char c;
    return ::recv(fd_, &c, 1, MSG_PEEK) <= 0;
  }
  int fd() const { return fd_; }

 private:
  int fd_ = -1;
};

/// Every byte but the unreserved ones percent-encoded (a query string's value).
inline std::string encode(const std::string& s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

/// The status code of a raw HTTP answer ("HTTP/1.1 404 ..." -> 404; 0 when there is none).
/// A Toads and Frogs database of `length` cells solved by the command into dir/name.
inline std::string solve_tf(const TempDir& dir, const std::string& name, int length) {
  const std::string db = dir / name;
  ok({"solve", "toads-frogs", "--length", std::to_string(length), "--db", db, "--quiet"});
  return db;
}

inline int status_of(const std::string& raw) {
  if (raw.rfind("HTTP/1.", 0) != 0 || raw.size() < 12) return 0;
  return std::atoi(raw.substr(9, 3).c_str());
}

}  // namespace tbtest
