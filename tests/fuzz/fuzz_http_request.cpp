// Raw bytes sent to `toadbase serve` (a server in this process, on a loopback port, serving a
// small Toads and Frogs database): request lines, headers, query strings and bodies. Each
// input is sent on a connection of its own, half-closed after it; every 64th input the
// server must still answer a known request rightly.
#include "http_world.hpp"

using namespace toadbase;
using fuzz::http::round_trip;
using fuzz::http::World;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static World w;
  static uint64_t n = 0;
  (void)round_trip(w.port, fuzz::text(data, size));
  if (++n % 64 == 0) {
    const std::string again = round_trip(w.port, World::kKnown);
    // the same status and body (the Date header may differ)
    const size_t head = again.find("\r\n\r\n");
    fuzz::require(head != std::string::npos, "the server still answers a known request (a whole answer in 2 s)");
    fuzz::require(again.rfind("HTTP/1.1 200", 0) == 0 && again.substr(head) == w.known.substr(w.known.find("\r\n\r\n")),
                  "the server still answers a known request rightly");
  }
  return 0;
}
