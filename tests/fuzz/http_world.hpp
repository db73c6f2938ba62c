// What the HTTP fuzz targets share: a server in this process on a loopback port, serving a
// small Toads and Frogs database (length 5), and one request sent on a connection of its own.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "../raw_socket.hpp"
#include "fuzz.hpp"
#include "tools/commands.hpp"
#include "tools/server.hpp"

namespace toadbase::fuzz::http {

namespace fs = std::filesystem;

/// Sends `request` on a new connection to 127.0.0.1:`port`, half-closes it, and returns what
/// comes back before the server closes (or two seconds pass without a byte). Each
/// connection comes from the next loopback source address (next_loopback_source: thousands
/// of inputs a second from one address would run out of local ports); a connection that
/// fails all the same fails the run, naming why, instead of passing empty answers on.
inline std::string round_trip(int port, const std::string& request) {
  try {
    tbtest::RawSocket sock(port, {tbtest::next_loopback_source(), 2000});
    sock.send(request);
    sock.shutdown_write();
    return sock.read_all(2000);
  } catch (const std::runtime_error& e) {
    require(false, e.what());
  }
  return {};
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
