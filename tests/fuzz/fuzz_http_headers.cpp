// Header lines sent to `toadbase serve` (a server in this process, as fuzz_http_request):
// the input is cut into lines, the first picks the route and method, each other line is a
// header whose name is picked from the ones the server reads or guards against (Range among
// them) or, past those, the line as it came. Properties: every answer is one whole HTTP answer
// with a status the server documents, never 206 or a multipart body (a Range is ignored), and
// a 200 for a GET carries exactly the body the request without those headers gets.
#include <array>
#include <map>
#include <string_view>

#include "http_world.hpp"

using namespace toadbase;
using fuzz::http::round_trip;
using fuzz::http::World;

namespace {

constexpr std::array<const char*, 4> kTargets = {"/api/tf5/?tiers=1", "/api/tf5/query?p=1_T-F--", "/uwapi/",
                                                 "/api/tf5/query"};
constexpr std::array<const char*, 11> kNames = {"Range", "If-Range", "Content-Length", "Expect", "Transfer-Encoding",
                                                "Connection", "Host", "Content-Type", "Accept", "X-Any", "Origin"};

std::string body_of(const std::string& raw) {
  const size_t at = raw.find("\r\n\r\n");
  return at == std::string::npos ? std::string() : raw.substr(at + 4);
}

bool has_header(const std::string& raw, std::string_view name) {
  const std::string head = raw.substr(0, raw.find("\r\n\r\n"));
  std::string lower;
  for (char c : head) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower.find("\r\n" + std::string(name)) != std::string::npos;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static World w;
  static std::map<std::string, std::string> whole;  // each GET target's answer without extra headers
  if (whole.empty())
    for (size_t t = 0; t < 3; ++t)
      whole[kTargets[t]] = body_of(round_trip(w.port, std::string("GET ") + kTargets[t] +
                                                          " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
  const std::string in = fuzz::text(data, size);
  std::vector<std::string> lines;
  for (size_t at = 0; at <= in.size();) {
    const size_t nl = std::min(in.find('\n', at), in.size());
    lines.push_back(in.substr(at, nl - at));
    at = nl + 1;
  }
  const unsigned pick = lines[0].empty() ? 0 : static_cast<unsigned char>(lines[0][0]);
  const size_t target = pick % kTargets.size();
  const bool post = target == 3;
  std::string request = std::string(post ? "POST " : "GET ") + kTargets[target] + " HTTP/1.1\r\n";
  bool has_length = false;
  for (size_t i = 1; i < lines.size(); ++i) {
    const std::string& l = lines[i];
    const unsigned k = l.empty() ? 0 : static_cast<unsigned char>(l[0]);
    if (k < kNames.size() * 16) {
      const char* name = kNames[k % kNames.size()];
      has_length |= std::string_view(name) == "Content-Length";
      request += std::string(name) + ": " + (l.empty() ? std::string() : l.substr(1)) + "\r\n";
    } else {
      request += l.substr(1) + "\r\n";
    }
  }
  const std::string body = "1_T-F--\n";
  if (post && !has_length) request += "Content-Length: " + std::to_string(body.size()) + "\r\n";
  request += "\r\n";
  if (post) request += body;
  const std::string raw = round_trip(w.port, request);
  if (raw.empty()) return 0;  // the server may close a connection it cannot read
  fuzz::require(raw.rfind("HTTP/1.1 ", 0) == 0, "an answer starts with a status line");
  const int status = std::atoi(raw.substr(9, 3).c_str());
  static const std::array<int, 12> documented = {100, 200, 204, 400, 404, 405, 408, 411, 413, 414, 431, 503};
  fuzz::require(std::find(documented.begin(), documented.end(), status) != documented.end(),
                "a status the server documents (no 206, no 416: a Range is ignored)");
  // the answer's own headers, not its body: a 400 may quote the header value it refuses
  fuzz::require(!has_header(raw, "content-type: multipart/"), "never a multipart answer");
  if (status == 200 && !post && !has_header(raw, "content-encoding:"))
    fuzz::require(body_of(raw).substr(0, whole[kTargets[target]].size()) == whole[kTargets[target]],
                  "a 200 carries the whole body");
  return 0;
}
