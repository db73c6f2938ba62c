#include "tools/open.hpp"

#include "tools/cli.hpp"
#include "tools/registry.hpp"

namespace toadbase::tools {

std::unique_ptr<Instance> instance_of(const db::Database& d, const std::string& path) {
  const Identity id = d.identity();
  const Game* g = find_game(id.game);
  if (!g || !g->has_database())
    throw db::DbError(path + " holds the game '" + id.game + "', which this toadbase does not know");
  std::unique_ptr<Instance> instance;
  try {
    instance = g->instance(id.parameters, id.record);
  } catch (const std::invalid_argument& e) {
    throw db::DbError(path + " holds " + id.game + " with parameters " + id.parameters.dump() +
                      " this toadbase cannot use: " + e.what());
  }
  const Identity mine = instance->identity();
  if (mine.record != id.record || mine.record_bytes != id.record_bytes)
    throw db::DbError(path + " stores records '" + id.record + "', this toadbase writes '" + mine.record + "'");
  return instance;
}

Opened open_database(const std::string& path, bool need_complete, size_t cache_bytes) {
  Opened o;
  o.db = db::Database::open_read_only(path, cache_bytes);
  o.instance = instance_of(*o.db, path);
  if (need_complete && !o.db->complete()) {
    const std::string so_far = std::to_string(o.db->committed_tiers()) + " of " +
                               std::to_string(o.db->tier_count()) + " tiers committed";
    if (o.db->writer_pid()) throw db::DbError(db::being_solved(path, o.db->writer_pid()) + " (" + so_far + " so far)");
    throw db::DbError(path + " is incomplete: " + so_far + "; run the same solve command again to resume");
  }
  return o;
}

OpenedDatabase DatabaseHost::open(const std::string& path, const std::string& game) const {
  Opened o = open_database(path);
  if (o.db->identity().game != game)
    throw db::DbError(path + " holds " + o.db->identity().game + ", not " + game);
  OpenedDatabase out;
  out.manifest = o.db->summary();
  out.source = std::move(o.db);
  out.instance = std::move(o.instance);
  return out;
}

std::string DatabaseHost::read_input(const std::string& path) const { return tools::read_input(path); }

void DatabaseHost::write_output(const std::string& path, const std::string& text) const {
  tools::write_output(path, text);
}

void DatabaseHost::examples(CLI::App* app, const std::vector<std::string>& lines) const {
  tools::examples(app, lines);
}

void DatabaseHost::positionals(CLI::App* app, std::vector<std::string>* into) const {
  whole_positionals(app, into, true);
}

}  // namespace toadbase::tools
