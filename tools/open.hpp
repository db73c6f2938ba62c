// Opening a solved database for reading, with the game instance it holds: the one way in
// that the command, the server and the Python module share.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "db/database.hpp"
#include "solver/module/module.hpp"

namespace toadbase::tools {

struct Opened {
  std::unique_ptr<db::Database> db;
  std::unique_ptr<Instance> instance;
};

/// The instance of the game `d` (opened from `path`) holds. Throws db::DbError naming the
/// path when this toadbase does not know the game, its parameters or its record type.
std::unique_ptr<Instance> instance_of(const db::Database& d, const std::string& path);

/// Opens `path` read-only with the instance of the game it holds. Throws db::DbError naming
/// the path when the database is missing, damaged, of a game or record type this toadbase
/// does not know, or (with `need_complete`) incomplete (saying so when another process is
/// solving it now).
Opened open_database(const std::string& path, bool need_complete = true, size_t cache_bytes = size_t{256} << 20);

/// What the games' own subcommands get from the command line: databases, files ("-" is
/// standard input or output), help examples.
class DatabaseHost : public Host {
 public:
  OpenedDatabase open(const std::string& path, const std::string& game) const override;
  std::string read_input(const std::string& path) const override;
  void write_output(const std::string& path, const std::string& text) const override;
  void examples(CLI::App* app, const std::vector<std::string>& lines) const override;
  void positionals(CLI::App* app, std::vector<std::string>* into) const override;
};

}  // namespace toadbase::tools
