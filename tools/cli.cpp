#include "tools/cli.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <sys/stat.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <sstream>
#include <utility>

#include "tools/progress_report.hpp"

namespace toadbase::tools {

namespace fs = std::filesystem;

int report_error(const std::string& message, int code, bool json) {
  if (json) {
    std::cout << dump(nlohmann::ordered_json{{"error", message}}) << "\n" << std::flush;
  } else {
    std::cerr << "toadbase: error: " << message << "\n";
  }
  return code;
}

// ---- options -----------------------------------------------------------------------------

void add_db_option(CLI::App* s, Common& c) { s->add_option("--db", c.db, "the database directory")->required(); }

CLI::Validator turn_given() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        return text.empty() ? "is empty (give the player to move, or leave --turn out)" : std::string();
      },
      std::string(), "toadbase-turn");
}

void add_threads_option(CLI::App* s, int& threads, const std::string& description) {
  s->add_option("--threads", threads, description)->check(whole_number_in(0, kMaxThreads))->default_str("all cores");
}

void add_threads_option(CLI::App* s, Common& c) { add_threads_option(s, c.threads, "worker threads"); }

void add_json_flag(CLI::App* s, Common& c) { s->add_flag("--json", c.json_out, "print JSON"); }

void add_quiet_flag(CLI::App* s, Common& c) { s->add_flag("--quiet", c.quiet, "no progress output"); }

namespace {

/// CLI11's range checks on `opt` (Range, NonNegativeNumber, PositiveNumber) switched off, and
/// the bounds they held: [lo, hi] (`above`: lo itself is refused). False when it has none.
bool take_cli11_bounds(CLI::Option* opt, long double& lo, long double& hi, bool& above) {
  bool found = false;
  for (int i = 0;; ++i) {
    CLI::Validator* v = nullptr;
    try {
      v = opt->get_validator(i);
    } catch (const CLI::OptionNotFound&) {
      break;
    }
    const std::string name = v->get_name(), desc = v->get_description();
    if (name == kNumberCheck) return false;  // checked in the project's words already
    // NonNegativeNumber and PositiveNumber carry their word as the description, not the name
    if (name.empty() && desc == "NONNEGATIVE") {
      lo = 0;
    } else if (name.empty() && desc == "POSITIVE") {
      lo = 0;
      above = true;
    } else if (const size_t in = desc.find(" in ["); name.empty() && in != std::string::npos && desc.back() == ']') {
      // Range(a, b) describes itself as "TYPE in [a - b]"
      const std::string body = desc.substr(in + 5, desc.size() - in - 6);
      const size_t dash = body.find(" - ");
      if (dash == std::string::npos) continue;
      char* end = nullptr;
      lo = std::strtold(body.substr(0, dash).c_str(), &end);
      hi = std::strtold(body.substr(dash + 3).c_str(), &end);
    } else {
      continue;
    }
    v->active(false);
    v->description("");
    found = true;
  }
  return found;
}

template <class T>
T bound_as(long double x) {
  if (x <= static_cast<long double>(std::numeric_limits<T>::lowest())) return std::numeric_limits<T>::lowest();
  if (x >= static_cast<long double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
  return static_cast<T>(std::ceil(x));
}

}  // namespace

void plain_number_checks(CLI::App& app) {
  for (CLI::Option* opt : app.get_options()) {
    if (opt->get_expected_max() == 0) continue;  // a flag
    const std::string type = opt->get_type_name().substr(0, opt->get_type_name().find(':'));
    if (type != "INT" && type != "UINT" && type != "FLOAT") continue;
    long double lo = -std::numeric_limits<long double>::infinity(), hi = std::numeric_limits<long double>::infinity();
    bool above = false;
    const bool had = take_cli11_bounds(opt, lo, hi, above);
    if (!had) {
      bool checked = false;  // one of the project's checks already
      for (int i = 0; !checked; ++i) {
        try {
          checked = opt->get_validator(i)->get_name() == kNumberCheck;
        } catch (const CLI::OptionNotFound&) {
          break;
        }
      }
      if (checked) continue;
    }
    if (type == "FLOAT") {
      opt->check(real_number_above(std::isfinite(lo) ? static_cast<double>(lo) : -std::numeric_limits<double>::max(), !above));
    } else if (type == "UINT") {
      opt->check(whole_number_in(bound_as<uint64_t>(above ? std::floor(lo) + 1 : lo), bound_as<uint64_t>(hi)));
    } else {
      // CLI11 names every signed integer INT: the options here hold an int
      opt->check(whole_number_in(bound_as<int>(above ? std::floor(lo) + 1 : lo), bound_as<int>(hi)));
    }
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) plain_number_checks(*sub);
}

// ---- help --------------------------------------------------------------------------------

namespace {

class HelpFormatter : public CLI::Formatter {
 public:
  // the default goes after the description ("[default: 10]"), not after the type ("INT=10")
  std::string make_option_opts(const CLI::Option* opt) const override {
    std::string s = CLI::Formatter::make_option_opts(opt);
    const std::string d = opt->get_default_str();
    if (!d.empty()) {
      const size_t at = s.find("=" + d);
      if (at != std::string::npos) s.erase(at, d.size() + 1);
    }
    return s;
  }
  // a hidden positional (group "") stays out of the usage line as it stays out of the list
  std::string make_usage(const CLI::App* app, std::string name) const override {
    std::string s = CLI::Formatter::make_usage(app, std::move(name));
    for (const CLI::Option* opt : app->get_options([](const CLI::Option* o) { return o->get_positional() && o->get_group().empty(); })) {
      const std::string shown = " " + make_option_usage(opt);
      if (const size_t at = s.find(shown); at != std::string::npos) s.erase(at, shown.size());
    }
    return s;
  }
  std::string make_option_desc(const CLI::Option* opt) const override {
    std::string s = opt->get_description();
    const std::string d = opt->get_default_str();
    if (opt->get_expected_max() != 0 && !opt->get_positional() && !opt->get_required() && !d.empty() && d != "[]")
      s += " [default: " + d + "]";
    return s;
  }
};

std::string full_name(const CLI::App& app) {
  const CLI::App* parent = app.get_parent();
  return parent ? full_name(*parent) + " " + app.get_name() : app.get_name();
}

}  // namespace

std::shared_ptr<CLI::Formatter> help_formatter() {
  auto f = std::make_shared<HelpFormatter>();
  f->column_width(32);
  return f;
}

void examples(CLI::App* app, const std::vector<std::string>& lines) {
  std::string text = "Examples:";
  for (const auto& l : lines) text += "\n  " + l;
  app->footer(text);
}

std::string help_all(const CLI::App& app) {
  const CLI::App* parent = app.get_parent();
  std::string out = app.help(parent ? full_name(*parent) : "");
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->get_name().empty()) continue;
    out += "\n" + std::string(78, '-') + "\n" + help_all(*sub);
  }
  return out;
}

namespace {
struct Whole {
  std::vector<std::string>* into;
  bool dash_positionals;
};
std::map<const CLI::App*, Whole>& whole() {
  static std::map<const CLI::App*, Whole> m;
  return m;
}
/// The option `name` ("--db", "-h") of `app` or of a command above it, or nullptr.
const CLI::Option* known_option(const CLI::App& app, const std::string& name) {
  for (const CLI::App* a = &app; a; a = a->get_parent())
    if (const CLI::Option* o = a->get_option_no_throw(name)) return o;
  return nullptr;
}
}  // namespace

void whole_positionals(CLI::App* app, std::vector<std::string>* into, bool dash_positionals) {
  whole()[app] = {into, dash_positionals};
}

namespace {
bool g_stdin_taken = false;
}  // namespace

void new_command_line() {
  whole().clear();
  g_stdin_taken = false;
}

std::vector<std::string> take_whole_positionals(const CLI::App& app, const std::vector<std::string>& args,
                                                size_t from) {
  const auto it = whole().find(&app);
  if (it == whole().end()) return args;
  std::vector<std::string> rest(args.begin(), args.begin() + static_cast<std::ptrdiff_t>(from));
  std::vector<std::string>& into = *it->second.into;
  for (size_t i = from; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") {  // everything after it is a position, even what starts with '-'
      into.insert(into.end(), args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
      break;
    }
    if (a.size() > 1 && a[0] == '-') {
      const CLI::Option* opt = known_option(app, a.substr(0, a.find('=')));
      if (opt || !it->second.dash_positionals) {  // an option (CLI11 names it if unknown), with its value
        rest.push_back(a);
        if (opt && opt->get_expected_max() != 0 && a.find('=') == std::string::npos && i + 1 < args.size())
          rest.push_back(args[++i]);
        continue;
      }
    }
    into.push_back(a);
  }
  return rest;
}

std::string closest(const std::string& given, const std::vector<std::string>& names) {
  // optimal string alignment distance: insertions, deletions, substitutions and swaps of
  // neighbours ("slove" is one swap from "solve")
  auto distance = [](const std::string& a, const std::string& b) {
    const size_t n = a.size(), m = b.size();
    std::vector<std::vector<size_t>> d(n + 1, std::vector<size_t>(m + 1));
    for (size_t i = 0; i <= n; ++i) d[i][0] = i;
    for (size_t j = 0; j <= m; ++j) d[0][j] = j;
    for (size_t i = 1; i <= n; ++i)
      for (size_t j = 1; j <= m; ++j) {
        const size_t cost = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                                    std::tolower(static_cast<unsigned char>(b[j - 1]))
                                ? 0
                                : 1;
        d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
        if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
          d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    return d[n][m];
  };
  std::string best;
  size_t best_d = SIZE_MAX;
  for (const auto& name : names) {
    const size_t d = distance(given, name);
    if (d < best_d) best_d = d, best = name;
  }
  // a typo: at most two edits, or a third of the word; a prefix of a name is one too
  if (best_d <= std::max<size_t>(2, given.size() / 3) && best_d < given.size()) return best;
  for (const auto& name : names)
    if (given.size() >= 2 && name.rfind(given, 0) == 0) return name;
  return "";
}

// ---- files ---------------------------------------------------------------------------------

namespace {

void take_stdin(const std::string& why) {
  if (g_stdin_taken) throw UsageError("standard input (-) can be read only once; give a file for " + why);
  g_stdin_taken = true;
  // a directory (toadbase query --db D - < dir) reads as nothing at all: said, not taken as empty
  struct stat st {};
  if (::fstat(0, &st) != 0) throw UserError(std::string("cannot read standard input: ") + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw UserError("cannot read standard input: it is a directory");
}

/// After standard input was read to its end: a read that failed (EIO, ...) is said, not
/// taken for the end of the input. std::cin reads through C's stdin (synced with stdio).
void check_stdin_read() {
  const int err = errno;
  if (std::ferror(stdin)) throw UserError(std::string("reading standard input failed: ") + std::strerror(err));
}

std::ifstream open_input(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw UserError("cannot read " + path + ": it is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UserError("cannot read " + path + ": " + std::strerror(errno));
  return in;
}
}  // namespace

std::string input_name(const std::string& path) { return path == "-" ? "standard input" : path; }
std::string output_name(const std::string& path) { return path == "-" ? "standard output" : path; }

std::string read_input(const std::string& path) {
  std::stringstream ss;
  if (path == "-") {
    take_stdin(path);
    errno = 0;
    ss << std::cin.rdbuf();
    check_stdin_read();
  } else {
    std::ifstream in = open_input(path);
    ss << in.rdbuf();
    if (in.bad()) throw UserError("reading " + path + " failed");
  }
  return ss.str();
}

void each_input_line(const std::string& path, const std::function<void(uint64_t, const std::string&)>& each) {
  std::ifstream file;
  if (path == "-") {
    take_stdin(path);
    errno = 0;
  } else {
    file = open_input(path);
  }
  std::istream& in = path == "-" ? std::cin : file;
  std::string line;
  uint64_t lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (skipped_line(line)) continue;
    each(lineno, line);
  }
  if (path == "-") check_stdin_read();
  if (in.bad()) throw UserError("reading " + input_name(path) + " failed");
}

namespace {
// The temporary files being written, removed by SIGINT or SIGTERM before the process ends
// as the signal says (a handler may only unlink, so the paths wait in fixed slots).
constexpr int kTmpSlots = 16;
char g_tmp_path[kTmpSlots][4096];
volatile sig_atomic_t g_tmp_used[kTmpSlots];
int g_tmp_open = 0;
struct sigaction g_tmp_previous_int, g_tmp_previous_term;

extern "C" void on_stop_signal(int sig) {
  for (int i = 0; i < kTmpSlots; ++i)
    if (g_tmp_used[i]) ::unlink(g_tmp_path[i]);
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

int hold_tmp(const std::string& path) {
  if (path.size() >= sizeof g_tmp_path[0]) return -1;
  for (int i = 0; i < kTmpSlots; ++i) {
    if (g_tmp_used[i]) continue;
    std::memcpy(g_tmp_path[i], path.c_str(), path.size() + 1);
    g_tmp_used[i] = 1;
    if (g_tmp_open++ == 0) {
      struct sigaction sa {};
      sa.sa_handler = on_stop_signal;
      sigemptyset(&sa.sa_mask);
      sigaction(SIGINT, &sa, &g_tmp_previous_int);
      sigaction(SIGTERM, &sa, &g_tmp_previous_term);
    }
    return i;
  }
  return -1;
}

void release_tmp(int slot) {
  if (slot < 0) return;
  g_tmp_used[slot] = 0;
  if (--g_tmp_open == 0) {
    sigaction(SIGINT, &g_tmp_previous_int, nullptr);
    sigaction(SIGTERM, &g_tmp_previous_term, nullptr);
  }
}
}  // namespace

OutputFile::OutputFile(const std::string& path) : path_(path) {
  if (path == "-") return;
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw UserError("cannot write " + path + ": it is a directory");
  tmp_ = path + ".partial";
  slot_ = hold_tmp(tmp_);
  auto f = std::make_unique<std::ofstream>(tmp_, std::ios::binary | std::ios::trunc);
  if (!*f) {
    const int err = errno;
    release_tmp(std::exchange(slot_, -1));
    throw UserError("cannot write " + path + ": " + std::strerror(err));
  }
  file_ = std::move(f);
}

OutputFile::~OutputFile() {
  if (file_ && !committed_) {
    file_.reset();
    std::error_code ec;
    fs::remove(tmp_, ec);
  }
  release_tmp(slot_);
}

std::ostream& OutputFile::stream() { return file_ ? *file_ : std::cout; }

void OutputFile::commit() {
  if (!file_) {
    std::cout.flush();
    if (!std::cout) throw UserError("writing standard output failed");
    committed_ = true;
    return;
  }
  errno = 0;
  file_->flush();
  static_cast<std::ofstream&>(*file_).close();
  if (!*file_) {
    // the failing write() left its reason in errno; a full disk is said plainly
    const int err = errno;
    std::error_code sec;
    const auto space = fs::space(fs::absolute(path_, sec).parent_path(), sec);
    const bool full = err == ENOSPC || (!sec && space.available == 0);
    throw UserError("writing " + path_ + " failed: " +
                    (full ? std::string("no space left on the device")
                          : err ? std::string(std::strerror(err)) : std::string("the write did not go through")));
  }
  std::error_code ec;
  fs::rename(tmp_, path_, ec);
  if (ec) throw UserError("cannot write " + path_ + ": " + ec.message());
  committed_ = true;
}

void write_output(const std::string& path, const std::string& text) {
  OutputFile out(path);
  out.stream() << text;
  out.commit();
}

// ---- JSON ------------------------------------------------------------------------------------

nlohmann::json camel_keys(const nlohmann::json& j) {
  if (j.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& v : j) out.push_back(camel_keys(v));
    return out;
  }
  if (!j.is_object()) return j;
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [k, v] : j.items()) {
    std::string key;
    for (size_t i = 0; i < k.size(); ++i) {
      if (k[i] == '_' && i + 1 < k.size() && i > 0) {
        key += static_cast<char>(std::toupper(static_cast<unsigned char>(k[++i])));
      } else {
        key += k[i];
      }
    }
    out[key] = camel_keys(v);
  }
  return out;
}

// ---- output for people -----------------------------------------------------------------------

std::unique_ptr<Progress> make_progress(const std::string& task, uint64_t positions, uint64_t tiers, bool quiet,
                                        bool timed) {
  if (quiet) return std::make_unique<ProgressReport>(nullptr, false, task, positions, tiers);
  return std::make_unique<ProgressReport>(&std::cerr, isatty(2) != 0, task, positions, tiers, 1.0, timed);
}

std::string human_bytes(double b) {
  char buf[32];
  if (b >= 1 << 30) {
    std::snprintf(buf, sizeof buf, "%.2f GiB", b / (1 << 30));
  } else if (b >= 1 << 20) {
    std::snprintf(buf, sizeof buf, "%.2f MiB", b / (1 << 20));
  } else if (b >= 1 << 10) {
    std::snprintf(buf, sizeof buf, "%.1f KiB", b / (1 << 10));
  } else {
    std::snprintf(buf, sizeof buf, "%.0f B", b);
  }
  return buf;
}

namespace {
struct sigaction g_previous_sigint;

extern "C" void on_interrupt(int) {
  request_stop();
  static const char msg[] =
      "\ntoadbase: stopping once the tiers in progress are committed (Ctrl-C again quits at once)\n";
  const ssize_t n = ::write(2, msg, sizeof msg - 1);
  (void)n;
}
}  // namespace

StopOnInterrupt::StopOnInterrupt() {
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND;  // the second Ctrl-C finds the default action: the process ends
  sigaction(SIGINT, &sa, &g_previous_sigint);
}

StopOnInterrupt::~StopOnInterrupt() { sigaction(SIGINT, &g_previous_sigint, nullptr); }

}  // namespace toadbase::tools
