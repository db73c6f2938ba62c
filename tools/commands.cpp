#include "tools/commands.hpp"

#include <iostream>

#include "tools/cli.hpp"
#include "tools/open.hpp"
#include "tools/registry.hpp"

namespace toadbase::tools {

int run(int argc, char** argv) {
  CLI::App app{"toadbase: exhaustive solver and position databases for the toad and frog games"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "help for every subcommand");
  std::vector<Command> commands = add_solve(app);
  for (auto add : {add_query, add_info, add_analyze, add_verify, add_validate, add_export, add_bench, add_serve})
    commands.push_back(add(app));
  // the games' own subcommands
  static const DatabaseHost host;
  for (const auto& g : games())
    for (auto& [sub, action] : g->add_commands(app, host)) commands.push_back({sub, std::move(action)});

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  try {
    for (auto& [sub, action] : commands)
      if (sub->parsed()) return action();
  } catch (const std::exception& e) {
    std::cerr << "toadbase: error: " << e.what() << "\n";
    return 1;
  }
  return 2;
}

}  // namespace toadbase::tools
