// The server under hostile clients, through real sockets: Range headers, malformed framing,
// clients that pipeline without reading, heavy routes, slow clients filling every slot, a
// small file-descriptor limit, and a damaged block behind the GET query route.
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>
#include <sys/wait.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <nlohmann/json.hpp>
#include <rocksdb/db.h>
#include <sstream>
#include <thread>

#include "serve_support.hpp"
#include "tools/http_server.hpp"

using namespace tbtest;
using Catch::Matchers::Contains;
using json = nlohmann::json;

namespace {

namespace fs = std::filesystem;
using std::chrono::milliseconds;

std::string body_of(const std::string& raw) {
  const size_t at = raw.find("\r\n\r\n");
  return at == std::string::npos ? std::string() : raw.substr(at + 4);
}

std::string get_request(const std::string& target, const std::string& headers = "") {
  return "GET " + target + " HTTP/1.1\r\nHost: x\r\n" + headers + "\r\n";
}

/// A POST of `body` to /api/tf8/query on a connection of its own, with `headers` (each ending
/// in CRLF) before its Content-Length; the raw answer.
std::string post_batch(int port, const std::string& body, const std::string& headers = "") {
  RawSocket sock(port);
  sock.send("POST /api/tf8/query HTTP/1.1\r\nHost: x\r\n" + headers + "Content-Length: " +
            std::to_string(body.size()) + "\r\n\r\n" + body);
  return sock.read_response(10000);
}

/// A request sent on a connection of its own; its answer read on another thread.
std::future<std::string> ask_async(int port, const std::string& request, int ms) {
  return std::async(std::launch::async, [port, request, ms] {
    RawSocket sock(port);
    sock.send(request);
    return sock.read_response(ms);
  });
}

}  // namespace

TEST_CASE("serve hardening: a Range header is ignored, every answer is whole", "[serve]") {
  TempDir dir("serve-range");
  TestServer s({solve_tf(dir, "tf8", 8)});
  const std::string whole = s.get("/api/tf8/?tiers=1").body;
  REQUIRE(whole.size() > 1000);
  std::string ranges = "Range: bytes=0-";
  for (int i = 0; i < 2700; ++i) ranges += ",0-";
  ranges += "\r\n";
  for (const std::string& range : {ranges, std::string("Range: bytes=0-9\r\n"), std::string("Range: bytes=999999-\r\n")}) {
    RawSocket sock(s.port);
    sock.send(get_request("/api/tf8/?tiers=1", range));
    const std::string raw = sock.read_response(5000);
    INFO(raw.substr(0, 300));
    CHECK(status_of(raw) == 200);
    CHECK(body_of(raw) == whole);  // one copy of the body, not one a range
    CHECK(raw.find("multipart/byteranges") == std::string::npos);
  }
}

TEST_CASE("serve hardening: a batch's body is its text whatever its Content-Type says", "[serve]") {
  // curl --data-binary (the README's example) sends application/x-www-form-urlencoded: the
  // HTTP library read such a body as form fields, so "&turn=2" in it became the batch's turn,
  // and refused any past 8 KiB (413)
  TempDir dir("serve-form");
  const std::string db = solve_tf(dir, "tf8", 8);
  TestServer s({db});
  std::string many;
  for (int i = 0; i < 2000; ++i) many += i % 2 ? "1_TT----FF\n" : "2_T-T--F-F\n";
  REQUIRE(many.size() > 8192);
  const std::string odd = "--TF\n#&turn=2\n1_TT----FF\n";
  for (const std::string& body : {many, odd}) {
    const std::string command = run_toadbase({"query", "--db", db, "--json", "-"}, body).out;
    const std::string plain = post_batch(s.port, body, "Content-Type: text/plain\r\n");
    INFO(plain.substr(0, 300));
    REQUIRE(status_of(plain) == 200);
    CHECK(body_of(plain) == command);
    for (const std::string type : {"Content-Type: application/x-www-form-urlencoded\r\n",
                                   "content-type: multipart/form-data; boundary=x\r\n", ""}) {
      const std::string raw = post_batch(s.port, body, type);
      INFO(type << raw.substr(0, 300));
      CHECK(status_of(raw) == 200);
      CHECK(body_of(raw) == body_of(plain));
    }
  }
  CHECK(lines_of(body_of(post_batch(s.port, many, "Content-Type: application/x-www-form-urlencoded\r\n"))).size() ==
        2000);
}

TEST_CASE("serve hardening: a batch whose answers pass the bound is refused, not held whole", "[serve]") {
  // 10,000 of the longest value forms made a 1 GB answer in memory before the first byte went
  TempDir dir("serve-batch-answer");
  toadbase::tools::ServeOptions o;
  o.max_batch_answer = 4096;
  TestServer s({solve_tf(dir, "tf8", 8)}, o);
  std::string few, many;
  for (int i = 0; i < 3; ++i) few += "1_TT----FF\n";
  for (int i = 0; i < 500; ++i) many += "1_TT----FF\n";
  const std::string small = post_batch(s.port, few);
  CHECK(status_of(small) == 200);
  CHECK(lines_of(body_of(small)).size() == 3);
  const std::string big = post_batch(s.port, many);
  INFO(big.substr(0, 400));
  CHECK(status_of(big) == 413);
  CHECK_THAT(body_of(big), Contains("the answers pass 4096 bytes after") && Contains("of 500 positions; ask fewer"));
  CHECK(body_of(big).size() < 1000);
  // the server goes on answering
  CHECK(status_of(post_batch(s.port, few)) == 200);
}

TEST_CASE("serve hardening: a connection whose request waits unread is not idle", "[serve]") {
  // the sweeper closed a connection after the keep-alive timeout when no request had begun
  // to be read: a whole request waiting in the socket while every worker was busy was dropped
  // unanswered (curl: "Empty reply from server")
  int fds[2];
  REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds) == 0);
  CHECK_FALSE(toadbase::tools::has_unread_input(fds[0]));
  const std::string request = get_request("/api/");
  REQUIRE(::write(fds[1], request.data(), request.size()) == static_cast<ssize_t>(request.size()));
  CHECK(toadbase::tools::has_unread_input(fds[0]));
  char buf[256];
  REQUIRE(::read(fds[0], buf, sizeof(buf)) == static_cast<ssize_t>(request.size()));
  CHECK_FALSE(toadbase::tools::has_unread_input(fds[0]));
  ::close(fds[0]);
  ::close(fds[1]);
  CHECK_FALSE(toadbase::tools::has_unread_input(fds[0]));  // a closed descriptor: nothing to wait for
}

TEST_CASE("serve hardening: bare LF line ends, long header lines and header lines without a colon", "[serve]") {
  TempDir dir("serve-framing");
  toadbase::tools::ServeOptions o;
  o.limits.request_timeout = milliseconds(4000);
  TestServer s({solve_tf(dir, "tf6", 6)}, o);
  auto exchange = [&](const std::string& bytes) {
    RawSocket sock(s.port);
    sock.send(bytes);
    return sock.read_all(2000);  // well within the request time: the answer comes at once
  };
  std::string raw = exchange("GET /api/ HTTP/1.1\nHost: x\n\n");
  CHECK(status_of(raw) == 400);
  CHECK_THAT(raw, Contains("CRLF"));
  raw = exchange("GET /api/ HTTP/1.1\r\nHost: x\n\r\n");
  CHECK(status_of(raw) == 400);
  // one header line of 9 KiB in headers under 16 KiB: 431, as the README lists
  raw = exchange(get_request("/api/", "X-Long: " + std::string(9000, 'a') + "\r\n"));
  CHECK(status_of(raw) == 431);
  CHECK_THAT(raw, Contains("header line"));
  // ... also while it is still arriving
  raw = exchange("GET /api/ HTTP/1.1\r\nX-Long: " + std::string(9000, 'a'));
  CHECK(status_of(raw) == 431);
  for (const std::string& bad : {std::string("NoColonHere\r\n"), std::string(": empty name\r\n"),
                                 std::string("Bad Name: v\r\n")}) {
    raw = exchange(get_request("/api/", bad));
    INFO(bad);
    CHECK(status_of(raw) == 400);
    CHECK_THAT(raw, Contains("Name: value"));
  }
  // the server answers rightly after all of it
  CHECK(s.get("/api/tf6/query?p=1_T-F").status == 200);
}

TEST_CASE("serve hardening: clients that pipeline without reading hold no worker", "[serve]") {
  TempDir dir("serve-pipeline");
  toadbase::tools::ServeOptions o;
  o.limits.threads = 2;
  TestServer s({solve_tf(dir, "tf8", 8)}, o);
  const std::string good = "/api/tf8/query?p=1_TT----FF";
  const std::string expected = s.get(good).body;
  std::string flood;
  for (int i = 0; i < 20000; ++i) flood += get_request(good);
  // two clients (as many as the workers) send 20,000 requests each and read nothing
  std::vector<std::unique_ptr<RawSocket>> flooders;
  std::vector<std::thread> senders;
  for (int i = 0; i < 2; ++i) {
    flooders.push_back(std::make_unique<RawSocket>(s.port));
    RawSocket* f = flooders.back().get();
    senders.emplace_back([f, &flood] { f->send(flood); });  // blocks once the server stops reading
  }
  std::this_thread::sleep_for(milliseconds(500));
  // a good client is answered meanwhile, well within the 5 s a blocked writer would wait
  for (int i = 0; i < 5; ++i) {
    RawSocket sock(s.port);
    sock.send(get_request(good));
    const std::string raw = sock.read_response(2500);
    REQUIRE(status_of(raw) == 200);
    CHECK(body_of(raw) == expected);
  }
  // a flooder that reads at last gets its answers in order
  const std::string first = flooders[0]->read_response(5000);
  CHECK(status_of(first) == 200);
  CHECK(body_of(first).substr(0, expected.size()) == expected);  // more answers may follow it
  for (auto& f : flooders) ::shutdown(f->fd(), SHUT_RDWR);
  for (auto& t : senders) t.join();
}

TEST_CASE("serve hardening: heavy routes run on a pool of their own, a refused one is refused at once", "[serve]") {
  TempDir dir("serve-heavy");
  toadbase::tools::ServeOptions o;
  o.limits.threads = 2;
  o.limits.heavy_threads = 1;
  o.limits.heavy_per_address = 2;
  TestServer s({solve_tf(dir, "tf8", 8)}, o);
  const std::string good = "/api/tf8/query?p=1_TT----FF";
  const std::string expected = s.get(good).body;
  // each of these explores the route's 2^22 positions and is refused (413): long work (their
  // reach bound, 10,501,920, is within 8 times the limit, so they are searched to the limit)
  const std::string heavy_a = "/api/frog-puzzle/solve?p=LLLLLLL____RRRRRRR";
  const std::string heavy_b = "/api/frog-puzzle/solve?p=RLLLLLLL____RRRRRRR";
  auto a = ask_async(s.port, get_request(heavy_a), 120000);
  std::this_thread::sleep_for(milliseconds(100));
  auto b = ask_async(s.port, get_request(heavy_b), 120000);
  std::this_thread::sleep_for(milliseconds(100));
  // a third heavy request from the same address is refused at once
  {
    RawSocket sock(s.port);
    sock.send(get_request("/api/frog-puzzle/solve?p=LLLLLL______RRRRRRRR"));
    const std::string raw = sock.read_response(60000);
    CHECK(status_of(raw) == 503);
    CHECK(b.wait_for(milliseconds(0)) != std::future_status::ready);  // before the heavy ones end
  }
  // position requests are answered while the heavy pool works
  for (int i = 0; i < 5; ++i) {
    RawSocket sock(s.port);
    sock.send(get_request(good));
    const std::string raw = sock.read_response(60000);
    CHECK(status_of(raw) == 200);
    CHECK(body_of(raw) == expected);
  }
  CHECK(b.wait_for(milliseconds(0)) != std::future_status::ready);
  const std::string answer_a = a.get();
  REQUIRE(status_of(answer_a) == 413);
  // heavy_b runs now; heavy_a again is refused from memory, before heavy_b ends
  const std::string again = ask_async(s.port, get_request(heavy_a), 60000).get();
  CHECK(status_of(again) == 413);
  CHECK(body_of(again) == body_of(answer_a));
  CHECK(b.wait_for(milliseconds(0)) != std::future_status::ready);
  CHECK(status_of(b.get()) == 413);
}

TEST_CASE("serve hardening: slow clients in every slot: the oldest unfinished request makes room", "[serve]") {
  TempDir dir("serve-slots");
  toadbase::tools::ServeOptions o;
  o.limits.threads = 2;
  o.limits.max_connections = 16;
  o.limits.request_timeout = milliseconds(20000);  // the slow clients would hold their slots long
  TestServer s({solve_tf(dir, "tf8", 8)}, o);
  const std::string good = "/api/tf8/query?p=1_TT----FF";
  const std::string expected = s.get(good).body;
  std::vector<std::unique_ptr<RawSocket>> slow;
  for (int i = 0; i < 16; ++i) {
    slow.push_back(std::make_unique<RawSocket>(s.port));
    slow.back()->send("GET / HTTP/1.1\r\nHo");
    std::this_thread::sleep_for(milliseconds(20));
  }
  for (int i = 0; i < 200 && s.server->open_connections() < 16; ++i) std::this_thread::sleep_for(milliseconds(20));
  REQUIRE(s.server->open_connections() == 16);
  for (size_t round = 0; round < 3; ++round) {
    {
      RawSocket sock(s.port);
      sock.send(get_request(good));
      const std::string raw = sock.read_response(5000);
      CHECK(status_of(raw) == 200);
      CHECK(body_of(raw) == expected);
      CHECK(slow[round]->closed_by_server(5000));  // the oldest went first
    }
    // every slot taken again by a newer slow client
    for (int i = 0; i < 200 && s.server->open_connections() > 15; ++i) std::this_thread::sleep_for(milliseconds(20));
    slow.push_back(std::make_unique<RawSocket>(s.port));
    slow.back()->send("GET / HTTP/1.1\r\nHo");
    for (int i = 0; i < 200 && s.server->open_connections() < 16; ++i) std::this_thread::sleep_for(milliseconds(20));
  }
  CHECK_FALSE(slow.back()->closed_by_server(100));
}

TEST_CASE("serve hardening: connections from one address are capped", "[serve]") {
  TempDir dir("serve-per-address");
  toadbase::tools::ServeOptions o;
  o.limits.max_per_address = 4;
  TestServer s({solve_tf(dir, "tf6", 6)}, o);
  std::vector<std::unique_ptr<RawSocket>> mine;
  for (int i = 0; i < 4; ++i) mine.push_back(std::make_unique<RawSocket>(s.port));
  for (int i = 0; i < 200 && s.server->open_connections() < 4; ++i) std::this_thread::sleep_for(milliseconds(20));
  RawSocket fifth(s.port);
  const std::string raw = fifth.read_all(5000);
  CHECK(status_of(raw) == 503);
  CHECK_THAT(raw, Contains("too many connections from 127.0.0.1"));
  mine.front()->send(get_request("/api/tf6/query?p=1_T-F"));
  CHECK(status_of(mine.front()->read_response(5000)) == 200);  // the four keep their answers
  mine.clear();
  for (int i = 0; i < 200 && s.server->open_connections() > 0; ++i) std::this_thread::sleep_for(milliseconds(20));
  CHECK(s.get("/api/tf6/query?p=1_T-F").status == 200);
}

TEST_CASE("serve hardening: --max-connections is fitted to the file-descriptor limit", "[serve][cli]") {
  TempDir dir("serve-fdlimit");
  const std::string db = solve_tf(dir, "tf6", 6);
  const pid_t pid = spawn_program("/usr/bin/prlimit", {"--nofile=64", toadbase_bin(), "serve", "--db", db, "--port", "0"},
                                  "", dir / "out", dir / "err");
  std::string url;
  for (int i = 0; i < 200 && url.empty(); ++i) {
    std::this_thread::sleep_for(milliseconds(50));
    std::istringstream in(read_file(dir / "out"));
    for (std::string line; std::getline(in, line);)
      if (line.rfind("listening on ", 0) == 0) url = line.substr(13, line.find(' ', 13) - 13);
  }
  INFO(read_file(dir / "out") << read_file(dir / "err"));
  REQUIRE(url.rfind("http://127.0.0.1:", 0) == 0);
  CHECK_THAT(read_file(dir / "err"), Contains("connections at once, not 512") && Contains("ulimit -n"));
  const int port = std::stoi(url.substr(17));
  // more idle clients than the limit has descriptors: a good client is still answered
  std::vector<std::unique_ptr<RawSocket>> idle;
  for (int i = 0; i < 100; ++i) idle.push_back(std::make_unique<RawSocket>(port));
  std::this_thread::sleep_for(milliseconds(300));  // the ones dropped for newer ones closed
  RawSocket sock(port);
  sock.send(get_request("/api/tf6/query?p=1_T-F"));
  const std::string raw = sock.read_response(5000);
  CHECK(status_of(raw) == 200);
  CHECK(body_of(raw) + "\n" == ok({"query", "--db", db, "1_T-F"}).out);
  idle.clear();
  ::kill(pid, SIGTERM);
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status));
}

TEST_CASE("serve hardening: a damaged block gives the GET query route the command's error line", "[serve]") {
  TempDir dir("serve-damaged");
  const std::string db = solve_tf(dir, "tf8", 8);
  {
    // the stored tier with the most positions loses its first block
    const json tiers = json::parse(ok({"info", "--db", db, "--json", "--tiers"}).out).at("tiers");
    uint32_t largest = 0;
    uint64_t most = 0;
    for (uint32_t t = 0; t < tiers.size(); ++t)
      if (tiers[t].value("storedBytes", uint64_t{0}) > 0 && tiers[t].at("positions").get<uint64_t>() > most)
        largest = t, most = tiers[t].at("positions").get<uint64_t>();
    REQUIRE(most > 0);
    std::string key = "B";
    for (uint32_t v : {largest, 0u})
      for (int i = 3; i >= 0; --i) key.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
    rocksdb::DB* raw = nullptr;
    REQUIRE(rocksdb::DB::Open(rocksdb::Options(), db, &raw).ok());
    std::unique_ptr<rocksdb::DB> rdb(raw);
    REQUIRE(rdb->Put(rocksdb::WriteOptions(), key, "12345678garbage-garbage").ok());
  }
  // a position the command cannot answer now
  std::string p, line;
  std::istringstream lines(run_toadbase({"query", "--db", db, "--random", "400", "--seed", "7"}).out);
  while (p.empty() && std::getline(lines, line))
    if (line.find("cannot answer") != std::string::npos) p = json::parse(line).at("position");
  REQUIRE_FALSE(p.empty());
  const RunResult cmd = run_toadbase({"query", "--db", db, p});
  REQUIRE(cmd.rc == 1);
  TestServer s({db});
  const httplib::Response r = s.get("/api/tf8/query?p=" + encode(p));
  CHECK(r.status == 500);
  CHECK(r.body + "\n" == cmd.out);
  const httplib::Response u = s.get("/uwapi/toads-frogs/tf8/positions/?p=" + encode(p));
  CHECK(u.status == 500);
  CHECK_THAT(u.body, Contains("cannot answer"));
}

namespace {

/// The answers of a connection read whole, one after another by their Content-Length.
std::vector<std::string> split_answers(const std::string& raw) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at < raw.size()) {
    const size_t end = raw.find("\r\n\r\n", at);
    if (end == std::string::npos) break;
    const size_t cl = raw.find("Content-Length: ", at);
    const size_t length = cl != std::string::npos && cl < end ? std::stoul(raw.substr(cl + 16)) : 0;
    out.push_back(raw.substr(at, end + 4 + length - at));
    at = end + 4 + length;
  }
  return out;
}

}  // namespace

TEST_CASE("serve hardening: a position whose answer is long runs on the heavy pool", "[serve]") {
  // a GET of a long value form (142 KB at 17 cells, 5-7 ms) ran on the workers: 32 clients of
  // them took a good client's p99 to 235 ms. Its game now says, from the stored rows, how
  // long the answer is: a long one is deferred to the heavy pool.
  TempDir dir("serve-long-answer");
  const std::string cgt = dir / "cgt8";
  ok({"solve", "toads-frogs-cgt", "--length", "8", "--db", cgt, "--quiet"});
  TestServer reference({cgt});
  const auto answer = [&](const std::string& board) {
    const auto r = reference.get("/api/cgt8/query?p=" + encode(board));
    REQUIRE(r.status == 200);
    return r.body;
  };
  // the oracle: the characters of the value and atomic weight of the board and of each child,
  // each read from its own answer
  const auto texts = [&](const std::string& board) {
    const json j = json::parse(answer(board));
    return j["value"].get<std::string>().size() + j.value("atomicWeight", std::string()).size();
  };
  std::vector<std::pair<std::string, size_t>> boards;
  const std::string cells = "TF-";
  for (int code = 0; code < 6561; code += 97) {  // a spread of the boards of 8 cells
    std::string b;
    for (int i = 0, c = code; i < 8; ++i, c /= 3) b += cells[static_cast<size_t>(c % 3)];
    const json j = json::parse(answer(b));
    size_t bytes = texts(b);
    for (const char* side : {"leftMoves", "rightMoves"})
      for (const auto& m : j[side]) bytes += texts(m["board"].get<std::string>());
    boards.emplace_back(b, bytes);
  }
  std::vector<size_t> sizes;
  for (const auto& [b, n] : boards) sizes.push_back(n);
  std::sort(sizes.begin(), sizes.end());
  const size_t bound = sizes[sizes.size() / 2];
  INFO("bound " << bound << " characters; largest " << sizes.back());
  REQUIRE(sizes.front() <= bound);
  REQUIRE(sizes.back() > bound);

  SECTION("past the bound, the heavy pool answers it; when the pool is full, 503") {
    toadbase::tools::ServeOptions o;
    o.long_answer_bytes = bound;
    o.limits.heavy_queue = 0;  // the heavy pool takes nothing: a deferred request is refused
    TestServer s({cgt}, o);
    size_t longs = 0;
    for (const auto& [b, n] : boards) {
      INFO(b << ": " << n << " characters");
      RawSocket sock(s.port);
      sock.send(get_request("/api/cgt8/query?p=" + encode(b)));
      const std::string raw = sock.read_response(10000);
      if (n > bound) {
        ++longs;
        CHECK(status_of(raw) == 503);
        CHECK_THAT(body_of(raw), Contains("long answers"));
      } else {
        CHECK(status_of(raw) == 200);
        CHECK(body_of(raw) == answer(b));
      }
    }
    CHECK(longs > 0);
  }
  SECTION("a deferred request is answered in its turn among pipelined ones") {
    toadbase::tools::ServeOptions o;
    o.long_answer_bytes = bound;
    TestServer s({cgt}, o);
    std::string pipelined;
    std::vector<std::string> expected;
    for (const auto& [b, n] : boards) {
      pipelined += get_request("/api/cgt8/query?p=" + encode(b));
      expected.push_back(answer(b));
    }
    pipelined += get_request("/api/cgt8/query?p=" + encode(boards.front().first), "Connection: close\r\n");
    expected.push_back(answer(boards.front().first));
    RawSocket sock(s.port);
    sock.send(pipelined);
    const std::vector<std::string> got = split_answers(sock.read_all(10000));
    REQUIRE(got.size() == expected.size());
    for (size_t i = 0; i < got.size(); ++i) {
      CHECK(status_of(got[i]) == 200);
      CHECK(body_of(got[i]) == expected[i]);
    }
  }
}

TEST_CASE("serve hardening: a typed value's work is bounded: find, thermograph and validate refuse past the budget", "[serve]") {
  // {^256|*256} is a short value whose canonical form takes more than 20 s of work to print
  // (find, thermograph); a sum of a few such values, to make canonical (validate). A request
  // asking for one held the heavy pool as long. Each request now has a budget of steps of value work (a form made,
  // compared, added, drawn); past it, 413 naming the budget.
  TempDir dir("serve-value-work");
  const std::string cgt = dir / "cgt8";
  ok({"solve", "toads-frogs-cgt", "--length", "8", "--db", cgt, "--quiet"});
  ok({"cgt", "index", "--db", cgt});
  const fs::path claims = dir / "claims.tsv";
  ok({"export", "--db", cgt, "--format", "tsv", claims.string()});
  std::string good_body;
  {
    std::ifstream in(claims);
    std::string line;
    for (int n = 0; n < 200 && std::getline(in, line);)
      if (!line.empty() && line[0] != '#') good_body += line + "\n", ++n;
  }
  toadbase::tools::ServeOptions o;
  o.value_steps = 50'000;  // a value of these boards takes well under a thousand
  TestServer s({cgt}, o);
  const std::string hostile = "%7B%5E256%7C*256%7D";  // {^256|*256}
  auto c = s.client();

  // what the boards' own values ask is answered
  CHECK(s.get("/api/toads-frogs-cgt/thermograph?value=%7B2%7C-1%7D").status == 200);
  CHECK(s.get("/api/cgt8/find?value=*").status == 200);
  {
    const auto r = c.Post("/api/cgt8/validate", good_body, "text/plain");
    REQUIRE(r);
    CHECK(r->status == 200);
    CHECK(json::parse(r->body)["agreeing"] == 200);
  }
  // the costly value is refused by each, naming the budget; a GET again from memory
  const auto t1 = s.get("/api/toads-frogs-cgt/thermograph?value=" + hostile);
  CHECK(t1.status == 413);
  CHECK_THAT(t1.body, Contains("50000 steps"));
  const auto t2 = s.get("/api/toads-frogs-cgt/thermograph?value=" + hostile);
  CHECK(t2.status == 413);
  CHECK(t2.body == t1.body);
  const auto f = s.get("/api/cgt8/find?value=" + hostile);
  CHECK(f.status == 413);
  CHECK_THAT(f.body, Contains("find: ") && Contains("50000 steps"));
  {
    // validate compares a claim as a game, without printing it: the costly part here is the
    // sum's canonical form (25,809 forms made)
    const std::string costly = "{^64|*64}+{^63|*63}+{^62|*62}+{^61|*61}";
    const auto r = c.Post("/api/cgt8/validate", good_body + "TF-\t" + costly + "\n" + good_body, "text/plain");
    REQUIRE(r);
    CHECK(r->status == 413);
    CHECK_THAT(r->body, Contains("at line 201") && Contains("50000 steps"));
  }
  // a number of find (mean, temperatureAtLeast) past the budget is the same 413, not a 400
  for (const char* param : {"mean", "temperatureAtLeast"}) {
    const auto r = s.get(std::string("/api/cgt8/find?") + param + "=" + hostile + "%2B" + hostile + "%2B1");
    CHECK(r.status == 413);
    CHECK_THAT(r.body, Contains("find: ") && Contains("50000 steps"));
  }
  // a sum of ten hot switches (277 characters typed) prints 10,975,439 characters: the value
  // is not printed past the text cap (it answered 10 MB; thirteen of them, 766 MB and 2.3 GB)
  {
    std::string sum;
    for (int k = 0; k < 10; ++k) {
      const std::string x = "1/" + std::to_string(1 << (12 - k)), h = "1/" + std::to_string(1 << (13 - k));
      sum += (k ? "+" : "") + ("{" + x + ",+-" + x + "|-" + x + ",+-" + h + "}");
    }
    const auto r = s.get("/api/toads-frogs-cgt/thermograph?value=" + encode(sum));
    REQUIRE(r.status == 200);
    CHECK(r.body.size() < 4096);
    const json j = json::parse(r.body);
    CHECK(j["value"].is_null());
    CHECK(j["characters"] == 10975439);
    CHECK(j["temperature"] == "1/8");
  }
  // a claim of 20,000 switches: a side's options are compared pairwise (4e8 pairs, 4 s),
  // refused before that work
  {
    std::string wide = "T-F\t{";
    for (int i = 1; i <= 20000; ++i) wide += (i > 1 ? ",+-" : "+-") + std::to_string(i) + "/1024";
    wide += "|-64}\n";
    const auto started = std::chrono::steady_clock::now();
    const auto r = c.Post("/api/cgt8/validate", wide, "text/plain");
    REQUIRE(r);
    CHECK(r->status == 413);
    CHECK_THAT(r->body, Contains("at line 1"));
    INFO("refused after " << std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() << " s");
  }
  // and the server goes on answering the values it can
  CHECK(s.get("/api/toads-frogs-cgt/thermograph?value=%7B%5E32%7C*32%7D").status == 200);
  CHECK(s.get("/api/cgt8/find?value=%7B1%7C0%7D").status == 200);
}
