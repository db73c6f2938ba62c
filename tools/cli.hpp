// What the command's files share: the options most commands take, errors, output helpers,
// and how a subcommand is added (one file per command: solve.cpp, query.cpp, ...).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "solver/core/progress.hpp"

namespace toadbase::tools {

/// JSON text of a value that may hold the user's bytes: invalid UTF-8 is replaced (U+FFFD)
/// instead of throwing, so one bad input line is one error line.
template <class J>
std::string dump(const J& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

/// An error the user caused or must fix; printed as one line, exit 1.
struct UserError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The options most commands take.
struct Common {
  std::string db;
  int threads = 0;
  bool json_out = false;
  bool quiet = false;
};
void add_db_option(CLI::App* s, Common& c);
void add_threads_option(CLI::App* s, Common& c);
void add_json_flag(CLI::App* s, Common& c);

/// A bar on a terminal, plain lines otherwise, nothing with --quiet.
std::unique_ptr<Progress> make_progress(const std::string& task, uint64_t positions, uint64_t tiers, bool quiet);
/// "21.0 KiB".
std::string human_bytes(double b);

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

}  // namespace toadbase::tools
