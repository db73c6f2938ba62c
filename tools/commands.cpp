#include "tools/commands.hpp"

#include <algorithm>
#include <cstring>
#include <iostream>

#include "db/errors.hpp"
#include "tools/cli.hpp"
#include "tools/open.hpp"
#include "tools/registry.hpp"
#include "tools/version.hpp"

namespace toadbase::tools {

namespace {

std::vector<std::string> names_of(const CLI::App& app) {
  std::vector<std::string> out;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    if (!sub->get_name().empty()) out.push_back(sub->get_name());
  return out;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

std::string path_of(const CLI::App& app) {
  return app.get_parent() ? path_of(*app.get_parent()) + " " + app.get_name() : "toadbase";
}

std::string games_lines() {
  size_t width = 0;
  for (const auto& g : games()) width = std::max(width, g->name().size());
  std::string s = "\ngames:";
  for (const auto& g : games()) s += "\n  " + g->name() + std::string(width + 2 - g->name().size(), ' ') + g->title();
  return s;
}

/// A name that is not a command of `app` (the root, `solve`, a game's commands): named, with
/// the closest match, the commands there and the games.
std::string unknown(const CLI::App& app, const std::string& given) {
  const std::vector<std::string> names = names_of(app);
  const std::string near = closest(given, names);
  const std::string did_you_mean = near.empty() ? "" : "; did you mean '" + near + "'?";
  if (app.get_name() == "solve") return "unknown game '" + given + "' for solve" + did_you_mean + games_lines();
  std::string s = "unknown command '" + given + "'" + (app.get_parent() ? " for " + path_of(app) : "") + did_you_mean;
  if (const Game* g = find_game(given); g && !app.get_parent() && g->has_database() && near != given)
    s += "\n" + given + " is a game: toadbase solve " + given + " --db DIR";
  return s + "\ncommands of " + path_of(app) + ": " + join(names) + games_lines();
}

/// A command that needs one of its own (solve needs a game) given none.
std::string missing(const CLI::App& app) {
  if (app.get_name() == "solve") return "solve needs a game: toadbase solve GAME --db DIR ..." + games_lines();
  return (app.get_parent() ? path_of(app).substr(std::string("toadbase ").size()) + " needs" : std::string("name")) +
         " a command: " + join(names_of(app)) + " (" + path_of(app) + " --help for more)" +
         (app.get_parent() ? "" : games_lines());
}

struct Followed {
  const CLI::App* app;  // the deepest command named
  size_t next = 0;      // the argument after its name
  std::string unknown;  // a name that is not a command there
  bool missing = false;  // it needs a command after it and none was given
  bool help = false;     // a help or version flag was given on the way
};

/// Before CLI11 parses: follows the command names given (toadbase river-toad solve ...), to
/// name the one that is unknown or missing, with the closest match and the games.
Followed follow_names(const CLI::App& root, const std::vector<std::string>& args) {
  Followed f{&root, 0, "", false, false};
  size_t i = 0;
  while (!names_of(*f.app).empty()) {
    // above the commands every option is a flag (--help, --version, --json ...)
    while (i < args.size() && args[i].size() > 1 && args[i][0] == '-' && args[i] != "--") {
      if (args[i] == "-h" || args[i] == "--help" || args[i] == "--help-all" || args[i] == "--version") f.help = true;
      ++i;
    }
    if (i >= args.size() || args[i] == "--") {
      f.missing = f.app->get_require_subcommand_min() > 0;
      break;
    }
    const CLI::App* next = nullptr;
    for (const CLI::App* sub : f.app->get_subcommands([](const CLI::App*) { return true; }))
      if (sub->check_name(args[i])) next = sub;
    if (!next) {
      f.unknown = unknown(*f.app, args[i]);
      break;
    }
    f.app = next;
    f.next = ++i;
  }
  return f;
}

/// An option the command named does not have ("--lenght"), with the closest of its options (and
/// its parents'), when one is near: "" when every option is known or none is near (CLI11's own
/// message then says what it could not place).
std::string unknown_option(const CLI::App& app, const std::vector<std::string>& args, size_t from) {
  std::vector<std::string> names;  // without their "--"
  for (const CLI::App* a = &app; a; a = a->get_parent())
    for (const CLI::Option* o : a->get_options())
      for (const std::string& l : o->get_lnames()) names.push_back(l);
  const bool takes_positions = !app.get_options([](const CLI::Option* o) { return o->get_positional(); }).empty();
  for (size_t i = from; i < args.size() && args[i] != "--"; ++i) {
    const std::string& a = args[i];
    if (a.size() < 3 || a.compare(0, 2, "--") != 0) continue;
    const std::string name = a.substr(2, a.find('=') == std::string::npos ? std::string::npos : a.find('=') - 2);
    // options are lower case words; anything else ("--TF") is left to CLI11's message
    if (name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") != std::string::npos) continue;
    if (std::find(names.begin(), names.end(), name) != names.end()) continue;
    const std::string near = closest(name, names);
    if (near.empty()) continue;  // a strip or value such as "--" + "t-": CLI11 or the command says
    return "unknown option --" + name + " for " + path_of(app) + "; did you mean '--" + near + "'?" +
           (takes_positions ? " (a position that starts with '-' goes after --)" : "") + "\nsee: " +
           path_of(app) + " --help";
  }
  return "";
}

bool json_requested(const std::vector<std::string>& args) {
  for (const auto& a : args) {
    if (a == "--") return false;
    if (a == "--json") return true;
  }
  return false;
}

}  // namespace

int run(int argc, char** argv) {
  new_command_line();
  CLI::App app{"toadbase: exhaustive solver and position databases for the toad and frog games", "toadbase"};
  // every option shows its default, and every command's help ends with examples
  app.option_defaults()->always_capture_default();
  app.formatter(help_formatter());
  app.require_subcommand(0, 1);
  app.set_help_all_flag("--help-all", "help for every command and every game's options");
  bool version = false, version_json_out = false;
  app.add_flag("--version", version, "the version, commit, compiler and libraries of this build");
  app.add_flag("--json", version_json_out, "with --version: as JSON");
  examples(&app, {"toadbase solve toads-frogs --length 10 --db data/tf10",
                  "toadbase query --db data/tf10 1_TTT----FFF", "toadbase help query"});
  std::vector<Command> commands = add_solve(app);
  for (auto add : {add_query, add_info, add_analyze, add_verify, add_validate, add_export, add_bench, add_serve, add_play})
    commands.push_back(add(app));
  // the games' own subcommands
  static const DatabaseHost host;
  for (const auto& g : games())
    for (auto& [sub, action] : g->add_commands(app, host)) commands.push_back({sub, std::move(action)});
  // toadbase help [COMMAND...]
  std::vector<std::string> help_names;
  auto* help = app.add_subcommand("help", "the help of a command: toadbase help river-toad solve");
  help->add_option("command", help_names, "a command (and its subcommand)");
  examples(help, {"toadbase help solve toads-frogs", "toadbase help river-toad check"});

  plain_number_checks(app);

  const std::vector<std::string> args(argv + 1, argv + argc);
  const bool json = json_requested(args);
  const Followed named = follow_names(app, args);
  if (!named.unknown.empty()) return report_error(named.unknown, kExitUsage, json);
  if (named.missing && !named.help) return report_error(missing(*named.app), kExitUsage, json);
  for (const auto& a : args) {
    if (a == "--") break;
    if (a == "--help-all") {  // every command below the one named, with every game's options
      std::cout << help_all(*named.app);
      return kExitOk;
    }
  }
  if (const std::string u = unknown_option(*named.app, args, named.next); !u.empty())
    return report_error(u, kExitUsage, json);
  try {
    // CLI11 reads its arguments last first
    std::vector<std::string> rest = take_whole_positionals(*named.app, args, named.next);
    std::reverse(rest.begin(), rest.end());
    app.parse(rest);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string what = e.what();
    // a number that passed its check but not CLI11's conversion (an option whose type is not
    // the one plain_number_checks() took it for): "Could not convert: --x = 5000000000"
    if (const std::string cc = "Could not convert: "; what.rfind(cc, 0) == 0 && what.find(" = ") != std::string::npos) {
      const size_t eq = what.find(" = ");
      what = what.substr(cc.size(), eq - cc.size()) + ": " + printable_excerpt(what.substr(eq + 3), 40) + " is out of range";
    }
    // an option given no value: "--limit: 1 required UINT missing" -> "--limit: needs a whole number"
    if (const size_t req = what.find(": 1 required "); dynamic_cast<const CLI::ArgumentMismatch*>(&e) &&
                                                         req != std::string::npos && what.ends_with(" missing")) {
      const std::string type = what.substr(req + 13, what.size() - req - 13 - 8);
      what = what.substr(0, req) + ": needs " +
             (type == "INT" || type == "UINT" ? "a whole number"
              : type == "FLOAT"               ? "a number"
                                              : "a value");
    }
    // name the argument CLI11 could not place, and (where positions are given) how a board
    // that starts with '-' is
    if (dynamic_cast<const CLI::ExtrasError*>(&e)) {
      const size_t colon = what.find(": ");
      const std::string extras = colon == std::string::npos ? what : what.substr(colon + 2);
      const bool takes_positions =
          !named.app->get_options([](const CLI::Option* o) { return o->get_positional(); }).empty();
      what = (extras.size() > 1 && extras[0] == '-' ? "unknown option " : "unexpected argument ") + extras +
             (takes_positions ? " (a position that starts with '-' goes after --)" : "");
    }
    return report_error(what + "\nsee: " + path_of(*named.app) + " --help", kExitUsage, json);
  }
  if (version) {
    if (version_json_out) {
      std::cout << dump(version_json()) << "\n";
    } else {
      std::cout << version_text();
    }
    return kExitOk;
  }
  if (help->parsed()) {
    const Followed target = follow_names(app, help_names);
    if (!target.unknown.empty()) return report_error(target.unknown, kExitUsage, json);
    // the formatter itself: App::help() would show the page of the command parsed (help)
    std::cout << target.app->get_formatter()->make_help(target.app, path_of(*target.app), CLI::AppFormatMode::Normal);
    return kExitOk;
  }
  try {
    for (auto& [sub, action] : commands)
      if (sub->parsed()) return action();
  } catch (const UsageError& e) {
    return report_error(e.what(), kExitUsage, json);
  } catch (const BadTurn& e) {
    // a --turn the game does not take (query, validate, play): the command line's mistake
    return report_error(std::string("--turn: ") + e.what(), kExitUsage, json);
  } catch (const nlohmann::json::exception& e) {
    // a JSON value of the wrong kind in the user's input or a doctored file: the library's
    // own tag ("[json.exception.type_error.302] ") is not for users
    std::string what = e.what();
    if (const size_t tag = what.find("] "); what.rfind("[json.exception.", 0) == 0 && tag != std::string::npos)
      what.erase(0, tag + 2);
    return report_error("a JSON value is not of the kind expected: " + what, kExitNo, json);
  } catch (const std::exception& e) {
    return report_error(e.what(), kExitNo, json);
  }
  return report_error(missing(app), kExitUsage, json);
}

}  // namespace toadbase::tools
