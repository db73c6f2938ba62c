#include "support.hpp"

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

extern char** environ;

namespace tbtest {

namespace fs = std::filesystem;

// ---- the oracle ------------------------------------------------------------------------

std::vector<std::string> oracle_children(const std::string& pos) {
  if (pos.size() < 2 || (pos[0] != '1' && pos[0] != '2') || pos[1] != '_')
    throw std::invalid_argument("oracle: bad position " + pos);
  const bool toads = pos[0] == '1';
  const std::string board = pos.substr(2);
  const int n = static_cast<int>(board.size());
  const std::string next = toads ? "2_" : "1_";
  // Toads move right (+1), Frogs left (-1); a piece slides one cell into an empty cell, or
  // jumps over exactly one adjacent opposing piece into the empty cell beyond.
  const char mine = toads ? 'T' : 'F', theirs = toads ? 'F' : 'T';
  const int dir = toads ? 1 : -1;
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) {
    if (board[i] != mine) continue;
    const int one = i + dir, two = i + 2 * dir;
    if (one >= 0 && one < n && board[one] == '-') {
      std::string b = board;
      b[i] = '-';
      b[one] = mine;
      out.push_back(next + b);
    }
    if (two >= 0 && two < n && board[one] == theirs && board[two] == '-') {
      std::string b = board;
      b[i] = '-';
      b[two] = mine;
      out.push_back(next + b);
    }
  }
  return out;
}

Truth oracle(const std::string& pos) {
  static std::unordered_map<std::string, Truth> memo;
  if (auto it = memo.find(pos); it != memo.end()) return it->second;
  Truth t;  // no move: a primitive loss, remoteness 0
  const std::vector<std::string> kids = oracle_children(pos);
  if (!kids.empty()) {
    bool some_child_loses = false;
    unsigned min_losing = UINT_MAX, max_winning = 0;
    for (const auto& k : kids) {
      const Truth c = oracle(k);
      if (!c.win) {
        some_child_loses = true;
        min_losing = std::min(min_losing, c.remoteness);
      } else {
        max_winning = std::max(max_winning, c.remoteness);
      }
    }
    t = some_child_loses ? Truth{true, min_losing + 1} : Truth{false, max_winning + 1};
  }
  memo.emplace(pos, t);
  return t;
}

std::vector<std::string> all_boards(int n) {
  std::vector<std::string> out{""};
  for (int i = 0; i < n; ++i) {
    std::vector<std::string> next;
    next.reserve(out.size() * 3);
    for (const auto& b : out)
      for (char c : {'T', 'F', '-'}) next.push_back(b + c);
    out = std::move(next);
  }
  return out;
}

std::string oracle_mirror_board(const std::string& board) {
  std::string m(board.rbegin(), board.rend());
  for (char& c : m) c = c == 'T' ? 'F' : c == 'F' ? 'T' : c;
  return m;
}

std::pair<int, int> piece_counts(const std::string& board) {
  return {static_cast<int>(std::count(board.begin(), board.end(), 'T')),
          static_cast<int>(std::count(board.begin(), board.end(), 'F'))};
}

// ---- conversions ---------------------------------------------------------------------------

tf::Position to_position(const std::string& pos) {
  tf::Position p;
  p.turn = pos.at(0) == '1' ? tf::Player::Toads : tf::Player::Frogs;
  const std::string board = pos.substr(2);
  p.length = static_cast<uint8_t>(board.size());
  for (size_t i = 0; i < board.size(); ++i) {
    if (board[i] == 'T') p.toads |= 1u << i;
    if (board[i] == 'F') p.frogs |= 1u << i;
  }
  return p;
}

std::string to_string(const tf::Position& p) {
  std::string s = p.turn == tf::Player::Toads ? "1_" : "2_";
  for (int i = 0; i < p.length; ++i) {
    const bool t = (p.toads >> i) & 1, f = (p.frogs >> i) & 1;
    s += t && f ? '?' : t ? 'T' : f ? 'F' : '-';
  }
  return s;
}

// ---- SolvedSpace -----------------------------------------------------------------------------

SolvedSpace::SolvedSpace(tf::SpaceParams params, int threads)
    : space(params), store(space.tier_count()) {
  stats = toadbase::with_threads(
      threads, [&] { return toadbase::solve_tiers(space, store, nullptr); });
}

toadbase::Outcome SolvedSpace::outcome(const tf::Position& p) const {
  if (!space.contains(p)) throw std::invalid_argument("not in the space: " + to_string(p));
  const toadbase::TierIndex ti = space.rank(p);
  return toadbase::ParityRecord::decode(store.records.at(ti.tier).at(ti.index));
}

toadbase::Outcome SolvedSpace::outcome(const std::string& pos) const {
  return outcome(to_position(pos));
}

Truth SolvedSpace::truth(const std::string& pos) const {
  const toadbase::Outcome o = outcome(pos);
  return {o.value == toadbase::Value::Win, o.remoteness};
}

// ---- files and processes ------------------------------------------------------------------

const std::string& test_path(const std::string& key) {
  static const std::unordered_map<std::string, std::string> paths = [] {
    const fs::path file = fs::read_symlink("/proc/self/exe").parent_path() / "test-paths.txt";
    std::ifstream in(file);
    if (!in) throw std::runtime_error("cannot read " + file.string() + ": build the tests with CMake");
    std::unordered_map<std::string, std::string> m;
    std::string line;
    while (std::getline(in, line)) {
      const size_t eq = line.find('=');
      if (eq != std::string::npos) m[line.substr(0, eq)] = line.substr(eq + 1);
    }
    return m;
  }();
  const auto it = paths.find(key);
  if (it == paths.end()) throw std::runtime_error("test-paths.txt names no " + key);
  return it->second;
}

TempDir::TempDir(const std::string& tag) {
  static std::atomic<int> counter{0};
  const fs::path root = test_path("scratch");
  fs::create_directories(root);
  path_ = (root / (tag + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++)))
              .string();
  fs::remove_all(path_);
  fs::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

std::string shared_database(const std::string& name, const std::vector<std::string>& solve_args) {
  const fs::path root = fs::path(test_path("scratch")) / "shared";
  const auto stamp = static_cast<uint64_t>(fs::last_write_time(toadbase_bin()).time_since_epoch().count());
  const fs::path done = root / (name + "-" + std::to_string(stamp));
  if (fs::exists(done / "CURRENT")) return done.string();
  fs::create_directories(root);
  // one process solves it while the others that ask wait (the lock goes with the process)
  const int lock = ::open((root / (name + ".lock")).c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  REQUIRE(lock >= 0);
  struct Unlock {
    int fd;
    ~Unlock() { ::close(fd); }
  } unlock{lock};
  while (::flock(lock, LOCK_EX) != 0) REQUIRE(errno == EINTR);
  if (fs::exists(done / "CURRENT")) return done.string();
  const fs::path mine = root / (name + "-solving-" + std::to_string(::getpid()));
  fs::remove_all(mine);
  std::vector<std::string> args{"solve"};
  args.insert(args.end(), solve_args.begin(), solve_args.end());
  args.insert(args.end(), {"--db", mine.string(), "--quiet"});
  ok(args);
  std::error_code ec;
  fs::rename(mine, done, ec);
  REQUIRE_FALSE(ec);
  return done.string();
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int thread_count(pid_t pid) {
  for (const auto& line : lines_of(read_file("/proc/" + std::to_string(pid) + "/status")))
    if (line.rfind("Threads:", 0) == 0) return std::stoi(line.substr(8));
  return -1;
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path);
}

pid_t spawn_toadbase_impl(const std::string& binary, const std::vector<std::string>& args,
                          const std::string& stdin_path, const std::string& stdout_path,
                          const std::string& stderr_path, const std::vector<std::string>& env,
                          const std::string& cwd);

pid_t spawn_program(const std::string& binary, const std::vector<std::string>& args, const std::string& stdin_path,
                    const std::string& stdout_path, const std::string& stderr_path,
                    const std::vector<std::string>& env) {
  return spawn_toadbase_impl(binary, args, stdin_path, stdout_path, stderr_path, env, "");
}

pid_t spawn_toadbase(const std::vector<std::string>& args, const std::string& stdin_path,
                     const std::string& stdout_path, const std::string& stderr_path,
                     const std::vector<std::string>& env, const std::string& cwd) {
  return spawn_toadbase_impl(toadbase_bin(), args, stdin_path, stdout_path, stderr_path, env, cwd);
}

pid_t spawn_toadbase_impl(const std::string& binary, const std::vector<std::string>& args,
                          const std::string& stdin_path, const std::string& stdout_path,
                          const std::string& stderr_path, const std::vector<std::string>& env,
                          const std::string& cwd) {
  std::vector<std::string> argv_s{binary};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);

  // `env` replaces what the environment already holds under the same names
  auto name_of = [](const std::string& e) { return e.substr(0, e.find('=')); };
  std::vector<std::string> env_s;
  for (char** e = environ; *e; ++e) {
    const std::string entry = *e;
    if (std::none_of(env.begin(), env.end(), [&](const std::string& x) { return name_of(x) == name_of(entry); }))
      env_s.push_back(entry);
  }
  env_s.insert(env_s.end(), env.begin(), env.end());
  std::vector<char*> envp;
  for (auto& e : env_s) envp.push_back(e.data());
  envp.push_back(nullptr);

  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  auto or_null = [](const std::string& p) { return p.empty() ? std::string("/dev/null") : p; };
  const std::string in = or_null(stdin_path), out = or_null(stdout_path),
                    err = or_null(stderr_path);
  posix_spawn_file_actions_addopen(&fa, 0, in.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&fa, cwd.c_str());
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, argv_s[0].c_str(), &fa, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) throw std::runtime_error("posix_spawn " + argv_s[0] + ": " + std::strerror(rc));
  return pid;
}

namespace {
RunResult wait_for(pid_t pid, const TempDir& io) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("waitpid failed");
  }
  RunResult r;
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = read_file(io / "out");
  r.err = read_file(io / "err");
  return r;
}
}  // namespace

RunResult run_program(const std::string& binary, const std::vector<std::string>& args,
                      const std::vector<std::string>& env) {
  TempDir io("io");
  return wait_for(spawn_toadbase_impl(binary, args, "", io / "out", io / "err", env, ""), io);
}

RunResult run_toadbase(const std::vector<std::string>& args, const std::string& input,
                       const std::vector<std::string>& env, const std::string& cwd) {
  TempDir io("io");
  write_file(io / "in", input);
  const pid_t pid = spawn_toadbase(args, io / "in", io / "out", io / "err", env, cwd);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("waitpid failed");
  }
  RunResult r;
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = read_file(io / "out");
  r.err = read_file(io / "err");
  return r;
}

std::string describe(const std::vector<std::string>& args, const RunResult& r) {
  std::string s = "toadbase";
  for (const auto& a : args) s += " '" + a + "'";
  s += "\n  exit " + std::to_string(r.rc) + "\n  stdout: " + r.out.substr(0, 2000) +
       "\n  stderr: " + r.err.substr(0, 2000);
  return s;
}

RunResult run_expecting(const std::vector<std::string>& args, int rc, const std::string& input) {
  RunResult r = run_toadbase(args, input);
  INFO(describe(args, r));
  REQUIRE(r.rc == rc);
  return r;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::vector<std::string> words_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

void check_no_library_text(const std::string& text) {
  for (const char* bad :
       {"Could not convert", "not in range", "e+308", "1.797693", "179769313486231570",
        "Failed parsing", "Value ", "json.exception", "operator[]"})
    CHECK_THAT(text, !Catch::Matchers::Contains(bad));
}

namespace {
std::string be32(uint32_t v) {
  std::string s;
  for (int i = 3; i >= 0; --i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  return s;
}
}  // namespace

std::string tier_key(uint32_t tier) { return "T" + be32(tier); }
std::string block_key(uint32_t tier, uint32_t block) { return "B" + be32(tier) + be32(block); }

}  // namespace tbtest
