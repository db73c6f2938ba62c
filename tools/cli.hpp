// What the command's files share: the options most commands take, errors and exit codes,
// files and standard input/output, help pages, JSON output, and how a subcommand is added
// (one file per command: solve.cpp, query.cpp, ...).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "solver/module/cli_numbers.hpp"
#include "solver/module/module.hpp"
#include "solver/core/progress.hpp"

namespace toadbase::tools {

/// JSON text of a value that may hold the user's bytes: invalid UTF-8 is replaced (U+FFFD)
/// instead of throwing, so one bad input line is one error line.
template <class J>
std::string dump(const J& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// ---- errors and exit codes (the README's table; ExitCode in solver/module/module.hpp) ------

/// An error the user caused or must fix in the data (a file, a database): exit 1.
struct UserError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
/// A command-line mistake: exit 2 (toadbase::UsageError, shared with the games' commands).
using toadbase::UsageError;

/// Prints an error the way every command does: `{"error": message}` on standard output
/// under --json, else "toadbase: error: message" on standard error. Returns `code`.
int report_error(const std::string& message, int code, bool json);

// ---- the options most commands take -------------------------------------------------------

struct Common {
  std::string db;
  int threads = 0;
  bool json_out = false;
  bool quiet = false;
};
void add_db_option(CLI::App* s, Common& c);
/// The most threads --threads takes (0 is all cores): a fixed bound, so that a typo such as
/// 100000 is a usage error rather than a failed or thrashing run.
inline constexpr int kMaxThreads = 1024;
/// --threads on `s` into `threads`: 0 (all cores) to kMaxThreads, else a usage error.
void add_threads_option(CLI::App* s, int& threads, const std::string& description);
void add_threads_option(CLI::App* s, Common& c);
void add_json_flag(CLI::App* s, Common& c);
/// Every numeric option of `app` and the commands below it checked in the project's words
/// (solver/module/cli_numbers.hpp): an option that has no such check gets one, with the bounds
/// of CLI11's Range, NonNegativeNumber or PositiveNumber on it (switched off), so that no
/// value prints CLI11's text ("not in range 0 to 1.797693e+308", "Could not convert"). CLI11
/// names every signed integer INT: an INT option is taken to hold an int.
void plain_number_checks(CLI::App& app);
void add_quiet_flag(CLI::App* s, Common& c);
/// The check of a --turn option: given, it names a player; `--turn ''` is refused instead of
/// read as no turn at all (the game's parse says which players it has).
CLI::Validator turn_given();

// ---- help ---------------------------------------------------------------------------------

/// The help page every command shows: each option's default as "[default: X]" after its
/// description (CLI11 captures it, or the command names it with default_str()).
std::shared_ptr<CLI::Formatter> help_formatter();
/// Ends a command's help with "Examples:" and one to three command lines.
void examples(CLI::App* app, const std::vector<std::string>& lines);
/// The help of `app` and of every command below it, one after the other (--help-all).
std::string help_all(const CLI::App& app);
/// Positional arguments given to `app` whole, in order, into `into`: CLI11 never sees them,
/// so a list such as [1, 1, 0, -1, -1] stays one argument (CLI11 would split it at its
/// commas). Before `--` an argument that starts with '-' is still an option; after it, never.
/// With `dash_positionals`, before `--` only the options `app` (or a command above it) knows
/// are options: any other argument that starts with '-' is a positional in its place (a strip
/// "-TF", a value "-1"), so the positionals keep the order they were given in.
void whole_positionals(CLI::App* app, std::vector<std::string>* into, bool dash_positionals = false);
/// Forgets what a command line before left behind (the commands whose positionals are taken
/// whole, standard input already read): run() calls it first, so it may run again in one process.
void new_command_line();
/// The arguments after a command's name with its whole positionals taken out (see above);
/// the rest is for CLI11. `args` are the command line's, `from` the first after the name.
std::vector<std::string> take_whole_positionals(const CLI::App& app, const std::vector<std::string>& args,
                                                size_t from);
/// The closest of `names` to `given` by edit distance (a swap of neighbours counts one), or
/// "" when none is near enough to be a typo.
std::string closest(const std::string& given, const std::vector<std::string>& names);

// ---- files: "-" is standard input or standard output ----------------------------------------

/// The whole text of a file; "-" reads standard input (once per run). Throws UserError.
std::string read_input(const std::string& path);
/// Calls `each(line number, text)` for every line of a file ("-": standard input) that is
/// not blank and not a `#` comment; a trailing CR is dropped. Throws UserError.
void each_input_line(const std::string& path, const std::function<void(uint64_t, const std::string&)>& each);
/// A line that holds no input: blank (spaces and tabs), or a comment (its first other
/// character '#'). `query -`, the other commands that read lines and the POST query route skip
/// them alike.
inline bool skipped_line(std::string_view line) {
  const size_t first = line.find_first_not_of(" \t");
  return first == std::string_view::npos || line[first] == '#';
}
/// The name of a file in messages ("standard input" for "-").
std::string input_name(const std::string& path);
/// The file a command writes, as a message names it ("-": "standard output").
std::string output_name(const std::string& path);

/// A file written whole or not at all: into PATH.partial, renamed over PATH by commit();
/// removed when the writer is dropped without commit(), and by SIGINT or SIGTERM while it is
/// written. "-" writes standard output.
class OutputFile {
 public:
  explicit OutputFile(const std::string& path);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  std::ostream& stream();
  void commit();

 private:
  std::string path_, tmp_;
  std::unique_ptr<std::ostream> file_;
  bool committed_ = false;
  int slot_ = -1;  // the temporary file's place among those SIGINT and SIGTERM remove
};
/// Writes `text` whole or not at all ("-": standard output).
void write_output(const std::string& path, const std::string& text);

// ---- JSON -----------------------------------------------------------------------------------

/// Object keys in camelCase, at every depth ("tiers_solved" -> "tiersSolved"); values are
/// left alone. What every --json prints is in this style (the manifest on disk is not).
nlohmann::json camel_keys(const nlohmann::json& j);

// ---- output for people ----------------------------------------------------------------------

/// A bar on a terminal, plain lines otherwise, nothing with --quiet. `timed` false: the last
/// line says no time (the task's summary does).
std::unique_ptr<Progress> make_progress(const std::string& task, uint64_t positions, uint64_t tiers, bool quiet,
                                        bool timed = true);
/// "21.0 KiB".
std::string human_bytes(double b);

/// While alive, Ctrl-C (SIGINT) asks the solve to stop at its next tier boundary
/// (request_stop()) instead of killing the process; a second Ctrl-C kills it at once.
class StopOnInterrupt {
 public:
  StopOnInterrupt();
  ~StopOnInterrupt();
  StopOnInterrupt(const StopOnInterrupt&) = delete;
  StopOnInterrupt& operator=(const StopOnInterrupt&) = delete;
};

// ---- the commands ---------------------------------------------------------------------------

/// A subcommand: its CLI11 app and what runs when it was given (returns the exit code).
struct Command {
  CLI::App* app;
  std::function<int()> run;
};

// One function per command file.
std::vector<Command> add_solve(CLI::App& root);  // solve <game> for every game with a database
Command add_query(CLI::App& root);
Command add_info(CLI::App& root);
Command add_analyze(CLI::App& root);
Command add_verify(CLI::App& root);
Command add_validate(CLI::App& root);
Command add_export(CLI::App& root);
Command add_bench(CLI::App& root);
Command add_serve(CLI::App& root);
Command add_play(CLI::App& root);

}  // namespace toadbase::tools
