// What the server's tests share: a server started in this process on a free port, an HTTP
// client for it, and a raw socket for requests no well-behaved client would send
// (raw_socket.hpp).
#pragma once

#include <httplib.h>

#include <cctype>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "raw_socket.hpp"
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
