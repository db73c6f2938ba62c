// `toadbase serve`'s routes: databases opened once, read-only, answered over HTTP by every
// worker thread through the same engine probe as `toadbase query`.
//
//   /uwapi/                                   GamesmanUni's API (spec/uwapi.md): the games
//   /uwapi/<game>/                            a game and its variants (one per database)
//   /uwapi/<game>/<variant>/                  start position, board widget data
//   /uwapi/<game>/<variant>/positions/?p=P    a position's value and every move's
//   /uwapi/<game>/<variant>/instructions/     the rules, as markdown
//   /api/                                     our own JSON: every database
//   /api/<db>/                                its manifest, as `toadbase info --json`
//   /api/<db>/query?p=P[&turn=1|2]            the line `toadbase query` prints
//   POST /api/<db>/query                      one position a line -> JSON lines
//   /api/<game>/<route>                       a game's own work (its module's api_routes():
//                                             /api/forest/play, /api/river-toad/solve,
//                                             /api/frog-puzzle/solve), as its commands answer
//   /  and any other path                     the web page's files, built into the binary
//
// Every answer carries Access-Control-Allow-Origin: *; OPTIONS answers 204; methods other
// than GET/HEAD (and POST on the batch route) answer 405. The HTTP side (connections,
// limits, timeouts) is tools/http_server.hpp.
#pragma once

#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "solver/module/module.hpp"
#include "tools/http_server.hpp"
#include "tools/open.hpp"

namespace toadbase::tools {

/// A database the server answers for.
struct ServedDatabase {
 public:
  std::string id;    // the directory's name: its path segment in every route
  std::string path;  // as given
  Opened opened;
  std::string game;           // the manifest's game
  std::string uwapi_variant;  // the variant's JSON on /uwapi/ ("" when GamesmanUni cannot play it)
  int cells = 0;              // board cells (UWAPI games)
  /// The manifest as /api/<db>/ answers it, without and with the tiers: made once, on first
  /// use (a database served does not change; a large one's tier list is megabytes of JSON).
  const std::string& manifest_text(bool tiers) const;

 private:
  mutable std::once_flag made_[2];
  mutable std::string manifest_[2];
};

/// Opens every database one level under each of `data_dirs` (a directory holding a RocksDB
/// `CURRENT` file) and each of `db_paths`, read-only, sorted by id. A database that cannot
/// be opened, or whose id is taken, is named in `warnings` and skipped.
std::vector<std::unique_ptr<ServedDatabase>> open_served(const std::vector<std::string>& data_dirs,
                                                         const std::vector<std::string>& db_paths,
                                                         size_t cache_bytes,
                                                         std::vector<std::string>& warnings);

/// The work-budget refusals (413) of the games' own routes, by method and target: the same
/// request that could not fit is refused again at once, not tried again (the latest 256).
class RefusalMemo {
 public:
  std::optional<std::string> find(const std::string& key);
  bool contains(std::string_view key);
  void add(const std::string& key, std::string body);

 private:
  std::mutex mu_;
  std::list<std::pair<std::string, std::string>> order_;  // most recent first
  std::unordered_map<std::string, std::list<std::pair<std::string, std::string>>::iterator> index_;
};

struct ServeOptions {
  std::string host = "127.0.0.1";
  int port = 8080;  // 0: any free port
  HttpLimits limits;
  size_t max_batch_lines = 10000;  // positions in one POST
  size_t max_batch_answer = size_t{64} << 20;  // bytes of a POST's answers (413 past them)
  // a position whose answer is longer (a long value form, as its game says from the stored
  // records: Instance::query_bytes) is answered on the heavy pool, not by the workers
  uint64_t long_answer_bytes = 32768;
  // bounds of the games' own routes, "<game>.<name>" (the route's default where absent):
  // forest.side (8), river-toad.rolls (100,000), frog-puzzle.positions (4,194,304)
  std::map<std::string, uint64_t> route_limits;
  // steps of work (a form made, compared, added, its walls drawn) one request may take on
  // typed game values: a game route's answer, a find's value, a validate body's claims. A
  // short value can ask for hours ({^256|*256}); past these the request is refused (413)
  uint64_t value_steps = 1'000'000;
};

class Server {
 public:
  /// Throws std::invalid_argument when `databases` is empty.
  Server(std::vector<std::unique_ptr<ServedDatabase>> databases, ServeOptions options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  /// Binds and starts answering in background threads; returns the port. Throws
  /// std::runtime_error when the address cannot be bound.
  int start();
  /// "http://127.0.0.1:8080/" (after start()).
  std::string url() const;
  /// Stops accepting, closes the connections, joins the threads.
  void stop();

  const std::vector<std::unique_ptr<ServedDatabase>>& databases() const { return dbs_; }
  size_t open_connections() const { return http_.open_connections(); }
  /// What start() had to change (the connection limit lowered to the fd limit).
  const std::vector<std::string>& notices() const { return http_.notices(); }

 private:
  struct Answer;
  void answer(const httplib::Request& req, httplib::Response& res) const;
  void uwapi(const std::vector<std::string>& seg, const httplib::Request& req,
             httplib::Response& res) const;
  void api(const std::vector<std::string>& seg, const httplib::Request& req,
           httplib::Response& res) const;
  /// Whether the position's answer is past options_.long_answer_bytes (false for a bad one).
  bool long_answer(const ServedDatabase& d, const std::string& p, const std::string& turn) const;
  void batch(const ServedDatabase& d, const httplib::Request& req, httplib::Response& res) const;
  /// POST /api/<db>/validate: the body's claims, validate --json's object for them.
  void validate(const ServedDatabase& d, const httplib::Request& req, httplib::Response& res) const;
  void page(const std::string& path, httplib::Response& res) const;
  /// The game route /api/<game>/<route> names, or nullptr.
  const ApiRoute* game_route(const std::vector<std::string>& seg) const;
  bool takes_post(const std::vector<std::string>& seg) const;
  void game_answer(const ApiRoute& route, const std::vector<std::string>& seg,
                   const httplib::Request& req, httplib::Response& res) const;
  std::string listing_html() const;

  std::vector<std::unique_ptr<ServedDatabase>> dbs_;
  std::unordered_map<std::string, const ServedDatabase*> by_id_;
  std::unordered_map<std::string, ApiRoute> routes_;  // "<game>/<route>"
  ServeOptions options_;
  std::string games_json_;                                  // /uwapi/
  std::unordered_map<std::string, std::string> game_json_;  // /uwapi/<game>/
  std::unordered_map<std::string, std::string>
      instructions_json_;  // /uwapi/<game>/<variant>/instructions
  std::string api_json_;   // /api/
  mutable RefusalMemo refused_;
  HttpServer http_;
  int port_ = -1;
};

}  // namespace toadbase::tools
