#include "tools/server.hpp"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>
#include <string_view>
#include <tuple>

#include "solver/core/work_budget.hpp"
#include "tools/cli.hpp"
#include "tools/info.hpp"
#include "tools/registry.hpp"
#include "tools/uwapi.hpp"
#include "tools/validate.hpp"
#include "tools/web_assets.hpp"

namespace toadbase::tools {

namespace {

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;

/// JSON text that may hold the user's bytes: invalid UTF-8 is replaced, as the command does.
template <class J>
std::string text(const J& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void send_json(httplib::Response& res, int status, const std::string& body) {
  res.status = status;
  res.set_content(body, "application/json");
}

void send_error(httplib::Response& res, int status, const std::string& message) {
  send_json(res, status, text(nlohmann::json{{"error", message}}));
}

/// A request refused for the work its values ask for (ServeOptions::value_steps).
std::string work_refusal(const core::WorkLimit& e) {
  return "the values asked for take more work than the " + std::to_string(e.steps()) +
         " steps one request may take (a form made, compared, added or drawn is a step)";
}

// ---- GamesmanUni's games ---------------------------------------------------------------

/// The board widget's data for a 1 x n strip, naming only images GamesmanUni ships.
ojson image_data(const UwapiGame& g, int cells) {
  ojson centers = ojson::array();
  for (int i = 0; i < cells; ++i) centers.push_back({i + 0.5, 2});
  ojson theme;
  theme["space"] = {cells, 3};
  theme["centers"] = std::move(centers);
  if (cells == 5 || cells == 7 || cells == 9 || cells == 11)
    theme["background"] = "toadsandfrogs/pond" + std::to_string(cells - 1) + ".svg";
  ojson chars;
  chars[std::string(1, g.mover)] = {{"image", "toadsandfrogs/bluefrog.svg"}, {"scale", 0.9}};
  chars[std::string(1, g.other)] = {{"image", "toadsandfrogs/redfrog.svg"}, {"scale", 0.9}};
  theme["charImages"] = std::move(chars);
  theme["arrowWidth"] = 0.1;
  theme["sounds"] = {{"x", "animals/frog.mp3"}};
  theme["animationType"] = "simpleSlides";
  ojson j;
  j["defaultTheme"] = "frogs";
  j["themes"]["frogs"] = std::move(theme);
  return j;
}

// ---- paths -----------------------------------------------------------------------------

/// The path's segments, one trailing slash allowed ("/uwapi/tf10/" -> {"uwapi", "tf10"});
/// false for an empty segment inside the path.
bool segments(const std::string& path, std::vector<std::string>& out) {
  out.clear();
  std::string_view p = path;
  if (p.empty() || p.front() != '/') return false;
  p.remove_prefix(1);
  if (!p.empty() && p.back() == '/') p.remove_suffix(1);
  if (p.empty()) return true;
  for (;;) {
    const size_t slash = p.find('/');
    const std::string_view s = p.substr(0, slash);
    if (s.empty()) return false;  // "//" inside, or a second trailing slash
    out.emplace_back(s);
    if (slash == std::string_view::npos) return true;
    p.remove_prefix(slash + 1);
  }
}

const char* content_type(std::string_view path) {
  const size_t dot = path.rfind('.');
  const std::string_view ext =
      dot == std::string_view::npos ? std::string_view() : path.substr(dot + 1);
  if (ext == "html") return "text/html; charset=utf-8";
  if (ext == "css") return "text/css; charset=utf-8";
  if (ext == "js" || ext == "mjs") return "text/javascript; charset=utf-8";
  if (ext == "json" || ext == "map") return "application/json";
  if (ext == "svg") return "image/svg+xml";
  if (ext == "png") return "image/png";
  if (ext == "ico") return "image/x-icon";
  if (ext == "txt" || ext == "md") return "text/plain; charset=utf-8";
  if (ext == "woff2") return "font/woff2";
  return "application/octet-stream";
}

std::string html_escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

/// A path segment as a link's URL carries it (RFC 3986 unreserved characters kept).
std::string url_escape(std::string_view s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

/// The path of a request target, percent-decoded as httplib decodes it before routing.
std::string target_path(std::string_view target) {
  target = target.substr(0, target.find('?'));
  std::string out;
  for (size_t i = 0; i < target.size(); ++i) {
    const auto hex = [](char ch) {
      return ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
    };
    if (target[i] == '%' && i + 2 < target.size() && hex(target[i + 1]) >= 0 && hex(target[i + 2]) >= 0) {
      out += static_cast<char>(hex(target[i + 1]) * 16 + hex(target[i + 2]));
      i += 2;
    } else {
      out += target[i];
    }
  }
  return out;
}

// ---- the page's games ------------------------------------------------------------------

/// A database in a line, as its game describes it (without a describe(): the game's title and
/// the parameters).
std::string describe(const PageView& v, const nlohmann::json& parameters) {
  if (v.describe) return v.describe(parameters);
  std::string s = v.title;
  for (const auto& [k, x] : parameters.items())
    s += ", " + k + " " + (x.is_string() ? x.get<std::string>() : text(x));
  return s;
}

/// A game route as the page calls it ("" for none).
std::string route_path(const std::string& game, const std::string& route) {
  return route.empty() ? std::string() : "/api/" + url_escape(game) + "/" + url_escape(route);
}

/// How the page shows a game (its module's page()): /api/'s `games`.
ojson page_json(const Game& g) {
  const PageView v = g.page();
  ojson view;
  view["kind"] = v.kind;
  view["route"] = route_path(g.name(), v.route);
  view["positionField"] = v.position_field;
  view["turnPrefix"] = v.turn_prefix;
  view["sides"] = ojson::array();
  for (const PageSide& s : v.sides)
    view["sides"].push_back({{"name", s.name}, {"colour", s.colour}});
  view["pieces"] = ojson::array();
  for (const PagePiece& p : v.pieces)
    view["pieces"].push_back({{"letter", std::string(1, p.letter)},
                              {"name", p.name},
                              {"glyph", p.glyph},
                              {"style", p.style}});
  view["words"] = ojson::object();
  for (const auto& [k, w] : v.words) view["words"][k] = w;
  ojson tools = ojson::array();
  for (const PageTool& t : v.tools)
    tools.push_back({{"id", t.id},
                     {"kind", t.kind},
                     {"card", t.card},
                     {"picker", t.picker},
                     {"about", t.about},
                     {"route", route_path(g.name(), t.route)},
                     {"params", t.params}});
  ojson j;
  j["name"] = g.name();
  j["title"] = v.title;
  j["view"] = std::move(view);
  j["tools"] = std::move(tools);
  return j;
}

/// What is wrong with a query string as sent ("" when nothing): a ';', a bare '+' or a
/// parameter with a second '='. The HTTP library would read them as a separator, a space and
/// part of the value, and the route would answer another question (?value=+-1 as -1,
/// ?value=1=2 as 2) than the one asked.
std::string query_string_error(std::string_view target) {
  const size_t q = target.find('?');
  if (q == std::string_view::npos) return "";
  const std::string_view query = target.substr(q + 1);
  if (query.find(';') != std::string_view::npos) return "a ';' in the query string (encode it as %3B)";
  if (query.find('+') != std::string_view::npos)
    return "a '+' in the query string reads as a space (encode it as %2B)";
  for (size_t from = 0; from <= query.size();) {
    const size_t amp = std::min(query.find('&', from), query.size());
    const std::string_view part = query.substr(from, amp - from);
    const size_t eq = part.find('=');
    if (eq != std::string_view::npos && part.find('=', eq + 1) != std::string_view::npos)
      return "a parameter with two '=' (encode a value's '=' as %3D)";
    from = amp + 1;
  }
  return "";
}

/// Each line of a POST's body, numbered from 1, as the command reads a file: a CR before the
/// LF dropped, blank and # comment lines skipped. `each(lineno, line)` returns false to stop;
/// the result is false when it did.
template <class Each>
bool each_body_line(std::string_view body, Each&& each) {
  for (uint64_t lineno = 1; !body.empty(); ++lineno) {
    const size_t nl = body.find('\n');
    std::string_view line = body.substr(0, nl);
    body.remove_prefix(nl == std::string_view::npos ? body.size() : nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (skipped_line(line)) continue;
    if (!each(lineno, line)) return false;
  }
  return true;
}

/// The database routes a POST reaches, each reading lines of its body: positions to query,
/// claims to validate.
bool is_batch_route(const std::vector<std::string>& seg) {
  return seg.size() == 3 && seg[0] == "api" && (seg[2] == "query" || seg[2] == "validate");
}

/// The batch routes a GET does not reach (405): validate reads its claims from a body alone.
bool is_post_only_route(const std::vector<std::string>& seg) {
  return seg.size() == 3 && seg[0] == "api" && seg[2] == "validate";
}

/// A game's route as the server hands it the request.
class HttpApiRequest : public ApiRequest {
 public:
  HttpApiRequest(const httplib::Request& req, const std::string& game,
                 const std::unordered_map<std::string, const ServedDatabase*>& by_id,
                 const std::map<std::string, uint64_t>& limits)
      : req_(req), game_(game), by_id_(by_id), limits_(limits) {}
  bool has(const std::string& name) const override { return req_.has_param(name); }
  std::string param(const std::string& name) const override { return req_.get_param_value(name); }
  bool posted() const override { return req_.method == "POST"; }
  const std::string& body() const override { return req_.body; }
  const TierSource* database(const std::string& id, const std::string& game) const override {
    const auto it = by_id_.find(id);
    if (it == by_id_.end() || it->second->game != game) return nullptr;
    return it->second->opened.db.get();
  }
  uint64_t limit(const std::string& name, uint64_t fallback) const override {
    const auto it = limits_.find(game_ + "." + name);
    return it == limits_.end() ? fallback : it->second;
  }

 private:
  const httplib::Request& req_;
  const std::string& game_;
  const std::unordered_map<std::string, const ServedDatabase*>& by_id_;
  const std::map<std::string, uint64_t>& limits_;
};

}  // namespace

// ---- opening -----------------------------------------------------------------------------

const std::string& ServedDatabase::manifest_text(bool tiers) const {
  std::call_once(made_[tiers], [&] { manifest_[tiers] = text(info_json(*opened.db, tiers)); });
  return manifest_[tiers];
}

std::vector<std::unique_ptr<ServedDatabase>> open_served(const std::vector<std::string>& data_dirs,
                                                         const std::vector<std::string>& db_paths,
                                                         size_t cache_bytes,
                                                         std::vector<std::string>& warnings) {
  std::vector<std::string> paths;
  for (const auto& dir : data_dirs) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
      warnings.push_back(dir + ": not a directory; no databases from it");
      continue;
    }
    if (fs::exists(fs::path(dir) / "CURRENT", ec)) {  // a database itself, given as a folder of them
      paths.push_back(dir);
      continue;
    }
    std::vector<std::string> found;
    for (const auto& e : fs::directory_iterator(dir, ec))
      if (e.is_directory(ec) && fs::exists(e.path() / "CURRENT", ec))
        found.push_back(e.path().string());
    if (ec) warnings.push_back(dir + ": " + ec.message());
    std::sort(found.begin(), found.end());
    if (found.empty())
      warnings.push_back(dir + ": no database in it (a database is a directory holding CURRENT)");
    paths.insert(paths.end(), found.begin(), found.end());
  }
  paths.insert(paths.end(), db_paths.begin(), db_paths.end());

  std::vector<std::unique_ptr<ServedDatabase>> out;
  std::set<std::string> ids;
  for (const auto& path : paths) {
    std::string id = fs::path(path).lexically_normal().filename().string();
    if (id.empty() || id == "." || id == "..")
      id = fs::absolute(path).lexically_normal().parent_path().filename().string();
    if (id.empty() || id == "." || id == "..") {
      warnings.push_back(path + ": skipped: its directory has no name to serve it under");
      continue;
    }
    if (ids.count(id)) {
      warnings.push_back(path + ": skipped: another database is already served as '" + id + "'");
      continue;
    }
    auto d = std::make_unique<ServedDatabase>();
    try {
      d->opened = open_database(path, true, cache_bytes);
      // the per-tier list is parsed on first use, which is not thread-safe: done here, once,
      // before any request thread reads it (/api/<db>/?tiers=1)
      d->opened.db->manifest();
    } catch (const std::exception& e) {
      warnings.push_back(std::string("skipped ") + e.what());
      continue;
    }
    d->id = id;
    d->path = path;
    d->game = d->opened.db->identity().game;
    ids.insert(id);
    out.push_back(std::move(d));
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a->id < b->id; });
  return out;
}

// ---- the server ------------------------------------------------------------------------

std::optional<std::string> RefusalMemo::find(const std::string& key) {
  std::lock_guard lk(mu_);
  const auto it = index_.find(key);
  if (it == index_.end()) return std::nullopt;
  order_.splice(order_.begin(), order_, it->second);
  return it->second->second;
}

bool RefusalMemo::contains(std::string_view key) {
  std::lock_guard lk(mu_);
  return index_.count(std::string(key)) > 0;
}

void RefusalMemo::add(const std::string& key, std::string body) {
  std::lock_guard lk(mu_);
  if (index_.count(key)) return;
  order_.emplace_front(key, std::move(body));
  index_[key] = order_.begin();
  if (order_.size() > 256) {
    index_.erase(order_.back().first);
    order_.pop_back();
  }
}

Server::Server(std::vector<std::unique_ptr<ServedDatabase>> databases, ServeOptions options)
    : dbs_(std::move(databases)), options_(std::move(options)), http_(options_.limits) {
  if (dbs_.empty()) throw std::invalid_argument("no database to serve");
  for (const auto& g : games())
    for (ApiRoute& r : g->api_routes()) routes_[g->name() + "/" + r.name] = std::move(r);
  // what never changes while serving is written once
  ojson api = ojson::array();
  // [game]: (cells, id, its entry): listed smallest board first
  std::map<std::string, std::vector<std::tuple<int, std::string, ojson>>> variants;
  std::map<std::string, UwapiGame> uwapi_games;  // GamesmanUni's games with a database served
  for (auto& d : dbs_) {
    by_id_[d->id] = d.get();
    const nlohmann::json& m = d->opened.db->summary();
    ojson entry;
    entry["id"] = d->id;
    entry["game"] = d->game;
    entry["parameters"] = camel_keys(m.value("parameters", nlohmann::json::object()));
    entry["positions"] = m.value("positions", uint64_t{0});
    entry["tiers"] = d->opened.db->tier_count();
    entry["storedBytes"] = m.value("stored_bytes", uint64_t{0});
    entry["digest"] = m.value("digest", std::string());
    entry["manifest"] = "/api/" + url_escape(d->id) + "/";
    entry["query"] = "/api/" + url_escape(d->id) + "/query?p=";
    entry["start"] = d->opened.instance->start_position();  // "" when the game has none
    const Game* game = find_game(d->game);
    const std::optional<UwapiGame> g = game ? game->uwapi() : std::nullopt;
    const WinLoseValues* values = d->opened.instance->win_lose_values();
    if (g && values) {
      const std::string start = d->opened.instance->start_position();
      if (!start.empty()) {
        // one probe at start-up gives the start's autogui form (and checks the database answers)
        const PositionProbe p = values->probe(*d->opened.db, start, "");
        const std::string& autogui = p.autogui_position;
        d->cells = static_cast<int>(autogui.size() > 2 ? autogui.size() - 2 : 0);
        const nlohmann::json params = m.value("parameters", nlohmann::json::object());
        // GamesmanUni titles a variant "Game (name)": the name itself holds no parentheses
        const std::string name = (g->describe ? g->describe(params) : text(params)) + " \u2014 " + d->id;
        ojson v;
        v["id"] = d->id;
        v["name"] = name;
        v["startPosition"] = p.position;
        v["autoguiStartPosition"] = autogui;
        v["imageAutoGUIData"] = image_data(*g, d->cells);
        v["gui"] = "v2";
        d->uwapi_variant = text(v);
        variants[d->game].emplace_back(d->cells, d->id, ojson{{"id", d->id}, {"name", name}, {"gui", "v2"}});
        uwapi_games.emplace(d->game, *g);
        entry["uwapi"] = "/uwapi/" + d->game + "/" + url_escape(d->id) + "/";
      }
    }
    // after the fields above (add-only): the page's line and explanation of the database
    if (game) {
      const PageView page = game->page();
      const nlohmann::json params = m.value("parameters", nlohmann::json::object());
      entry["description"] = describe(page, params);
      entry["about"] = page.about ? page.about(params) : std::string();
    }
    api.push_back(std::move(entry));
  }
  ojson page_games = ojson::array();  // every game as the page shows it, served or not
  for (const auto& g : games()) page_games.push_back(page_json(*g));
  api_json_ = text(ojson{{"databases", std::move(api)}, {"games", std::move(page_games)}});
  std::vector<std::pair<std::string, const UwapiGame*>> listed;
  for (const auto& [id, g] : uwapi_games) listed.emplace_back(id, &g);
  std::sort(listed.begin(), listed.end(),
            [](const auto& a, const auto& b) { return a.second->name < b.second->name; });
  ojson games = ojson::array();
  for (const auto& [id, g] : listed) {
    games.push_back({{"id", id},
                     {"name", g->name},
                     {"type", g->one_player ? "onePlayer" : "twoPlayer"},
                     {"gui", "v2"}});
    ojson j;
    j["id"] = id;
    j["name"] = g->name;
    auto& vs = variants[id];
    std::sort(vs.begin(), vs.end(), [](const auto& a, const auto& b) {
      return std::tie(std::get<0>(a), std::get<1>(a)) < std::tie(std::get<0>(b), std::get<1>(b));
    });
    j["variants"] = ojson::array();
    for (auto& v : vs) j["variants"].push_back(std::move(std::get<2>(v)));
    j["allowCustomVariantCreation"] = false;
    j["supportsWinBy"] = false;
    game_json_[id] = text(j);
    instructions_json_[id] = text(nlohmann::json{{"instructions", g->instructions}});
  }
  games_json_ = text(games);

  http_.set_default_headers({{"Access-Control-Allow-Origin", "*"}});
  // a game's own work (seconds, for a large puzzle or roll file) and batches of positions run
  // on the heavy pool: the position requests never wait behind them
  http_.set_heavy([this](std::string_view method, std::string_view target) {
    std::vector<std::string> seg;
    if (!segments(target_path(target), seg)) return false;
    if (method == "POST") return game_route(seg) != nullptr || is_batch_route(seg);
    // a database's tier list is megabytes for a large one: a loop of them is a flood
    if (seg.size() == 2 && seg[0] == "api" && target.find("tiers=") != std::string_view::npos) return true;
    // boards by value: a property (a kind, an outcome class) reads every pair of the index
    if (seg.size() == 3 && seg[0] == "api" && seg[2] == "find") return true;
    // a GET already refused for its work is refused again at once, on any worker
    return game_route(seg) != nullptr && !refused_.contains(target);
  });
  http_.set_router([this](const httplib::Request& req, httplib::Response& res) {
    std::vector<std::string> seg;
    if (req.method == "POST" && segments(req.path, seg) && takes_post(seg))
      return httplib::Server::HandlerResponse::Unhandled;  // the POST handler reads the body
    answer(req, res);
    return httplib::Server::HandlerResponse::Handled;
  });
  http_.Post(".*", [this](const httplib::Request& req, httplib::Response& res) {
    std::vector<std::string> seg;
    segments(req.path, seg);
    if (const ApiRoute* route = game_route(seg)) return game_answer(*route, seg, req, res);
    const auto it = by_id_.find(seg.at(1));
    if (it == by_id_.end()) return send_error(res, 404, "no database '" + seg[1] + "' is served");
    if (seg[2] == "validate") return validate(*it->second, req, res);
    batch(*it->second, req, res);
  });
  // answers httplib makes itself (a request it cannot parse, 414, 413) get a JSON body too
  http_.set_error_handler(
      httplib::Server::HandlerWithResponse([](const httplib::Request&, httplib::Response& res) {
        if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
        std::string why = "HTTP " + std::to_string(res.status);
        if (res.status == 400) why = "bad request: the request line or a header cannot be read";
        if (res.status == 413) why = "the body is too long";
        if (res.status == 414) why = "the request line is too long";
        if (res.status == 416) why = "the range cannot be satisfied";
        send_error(res, res.status, why);
        return httplib::Server::HandlerResponse::Handled;
      }));
  http_.set_exception_handler(
      [](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
        std::string what = "internal error";
        try {
          if (ep) std::rethrow_exception(ep);
        } catch (const std::exception& e) {
          what += std::string(": ") + e.what();
        } catch (...) {
        }
        send_error(res, 500, what);
      });
}

Server::~Server() {
  stop();
}

int Server::start() {
  port_ = http_.start(options_.host, options_.port);
  return port_;
}

std::string Server::url() const {
  const bool v6 = options_.host.find(':') != std::string::npos;
  return "http://" + (v6 ? "[" + options_.host + "]" : options_.host) + ":" +
         std::to_string(port_) + "/";
}

void Server::stop() {
  http_.shutdown();
}

void Server::answer(const httplib::Request& req, httplib::Response& res) const {
  std::vector<std::string> seg;
  const bool routed = segments(req.path, seg);
  if (req.method == "OPTIONS") {
    res.status = 204;
    res.set_header("Access-Control-Allow-Methods", "GET, HEAD, POST, OPTIONS");
    res.set_header("Access-Control-Allow-Headers", "Content-Type");
    res.set_header("Access-Control-Max-Age", "86400");
    return;
  }
  if (req.method != "GET" && req.method != "HEAD") {
    const bool batch_route = routed && takes_post(seg);
    const bool post_only = batch_route && is_post_only_route(seg);
    res.set_header("Allow", post_only     ? "POST, OPTIONS"
                            : batch_route ? "GET, HEAD, POST, OPTIONS"
                                          : "GET, HEAD, OPTIONS");
    return send_error(res, 405,
                      req.method + " is not answered here; " +
                          (post_only ? "POST" : batch_route ? "GET, HEAD or POST" : "GET or HEAD") + " " + req.path);
  }
  if (routed && !seg.empty() && seg[0] == "uwapi") return uwapi(seg, req, res);
  if (routed && !seg.empty() && seg[0] == "api") return api(seg, req, res);
  page(req.path, res);
}

void Server::uwapi(const std::vector<std::string>& seg, const httplib::Request& req,
                   httplib::Response& res) const {
  if (seg.size() == 1) return send_json(res, 200, games_json_);
  const auto game = game_json_.find(seg[1]);
  if (game == game_json_.end()) return send_error(res, 404, "Invalid Game");
  if (seg.size() == 2) return send_json(res, 200, game->second);
  const auto it = by_id_.find(seg[2]);
  if (it == by_id_.end() || it->second->game != seg[1] || it->second->uwapi_variant.empty())
    return send_error(res, 404, "Invalid Variant");
  const ServedDatabase& d = *it->second;
  const WinLoseValues* values = d.opened.instance->win_lose_values();  // a variant has them
  if (!values) return send_error(res, 404, "Invalid Variant");
  if (seg.size() == 3) return send_json(res, 200, d.uwapi_variant);
  if (seg.size() == 4 && seg[3] == "positions") {
    if (!req.has_param("p")) return send_error(res, 400, "Invalid Position");
    try {
      const PositionProbe p = values->probe(*d.opened.db, req.get_param_value("p"), "");
      return send_json(res, 200, uwapi_position_text(p));
    } catch (const BadPosition&) {
      return send_error(res, 400, "Invalid Position");
    } catch (const std::runtime_error& e) {
      return send_error(res, 500, std::string("the database cannot answer it: ") + e.what());
    }
  }
  if (seg.size() == 4 && seg[3] == "instructions")
    return send_json(res, 200, instructions_json_.at(seg[1]));
  return send_error(res, 404, "no such route: " + req.path);
}

void Server::api(const std::vector<std::string>& seg, const httplib::Request& req,
                 httplib::Response& res) const {
  if (seg.size() == 1) return send_json(res, 200, api_json_);
  // the games' own work, as their commands do it (/api/<game>/<route>: before the databases)
  if (const ApiRoute* route = game_route(seg)) return game_answer(*route, seg, req, res);
  const auto it = by_id_.find(seg[1]);
  if (it == by_id_.end()) return send_error(res, 404, "no database '" + seg[1] + "' is served");
  const ServedDatabase& d = *it->second;
  if (seg.size() == 2) {
    const bool tiers = req.has_param("tiers") && req.get_param_value("tiers") != "0";
    return send_json(res, 200, d.manifest_text(tiers));
  }
  if (seg.size() == 3 && seg[2] == "query") {
    if (!req.has_param("p"))
      return send_error(res, 400, "give the position: /api/" + d.id + "/query?p=POSITION");
    const std::string p = req.get_param_value("p");
    const std::string turn = req.get_param_value("turn");
    if (!HttpServer::on_heavy_pool() && long_answer(d, p, turn) && HttpServer::defer_to_heavy()) return;
    try {
      return send_json(res, 200, text(query_json(*d.opened.instance, *d.opened.db, p, turn)));
    } catch (const BadPosition& e) {
      ojson j;
      j["position"] = p;
      j["error"] = e.what();
      return send_json(res, 400, text(j));
    } catch (const std::runtime_error& e) {
      // a damaged block: the command's and the batch route's error line for this position
      ojson j;
      j["position"] = p;
      j["error"] = std::string("the database cannot answer it: ") + e.what();
      return send_json(res, 500, text(j));
    }
  }
  if (is_post_only_route(seg)) {
    res.set_header("Allow", "POST, OPTIONS");
    return send_error(res, 405, "POST the claims, one position<TAB>value a line, to /api/" + d.id + "/validate");
  }
  if (seg.size() == 3 && seg[2] == "find") {
    if (const std::string why = query_string_error(req.target); !why.empty()) return send_error(res, 400, "find: " + why);
    std::map<std::string, std::string> params;
    for (const auto& [k, v] : req.params)
      if (!params.emplace(k, v).second) return send_error(res, 400, "find takes " + printable_excerpt(k) + " once");
    try {
      core::WorkBudget budget(options_.value_steps);
      return send_json(res, 200, text(d.opened.instance->find(*d.opened.db, d.path, params)));
    } catch (const core::WorkLimit& e) {
      return send_error(res, 413, "find: " + work_refusal(e));
    } catch (const std::invalid_argument& e) {
      return send_error(res, 400, e.what());
    } catch (const Unavailable& e) {
      return send_error(res, 404, e.what());
    } catch (const std::runtime_error& e) {
      return send_error(res, 500, std::string("the database cannot answer it: ") + e.what());
    }
  }
  send_error(res, 404, "no such route: " + req.path);
}

bool Server::long_answer(const ServedDatabase& d, const std::string& p, const std::string& turn) const {
  try {
    return d.opened.instance->query_bytes(*d.opened.db, p, turn) > options_.long_answer_bytes;
  } catch (const std::exception&) {
    return false;  // the query itself says what is wrong
  }
}

const ApiRoute* Server::game_route(const std::vector<std::string>& seg) const {
  if (seg.size() != 3 || seg[0] != "api") return nullptr;
  const auto it = routes_.find(seg[1] + "/" + seg[2]);
  return it == routes_.end() ? nullptr : &it->second;
}

bool Server::takes_post(const std::vector<std::string>& seg) const {
  if (is_batch_route(seg)) return true;
  const ApiRoute* route = game_route(seg);
  return route && route->takes_post;
}

void Server::game_answer(const ApiRoute& route, const std::vector<std::string>& seg,
                         const httplib::Request& req, httplib::Response& res) const {
  // a GET's answer depends on its target alone: one refused for its work is refused at once
  const std::string key = req.method == "POST" ? std::string() : req.target;
  if (const std::string why = query_string_error(req.target); !why.empty()) return send_error(res, 400, why);
  if (!key.empty())
    if (std::optional<std::string> body = refused_.find(key)) return send_json(res, 413, *body);
  ApiAnswer a;
  try {
    core::WorkBudget budget(options_.value_steps);
    a = route.answer(HttpApiRequest(req, seg[1], by_id_, options_.route_limits));
  } catch (const std::invalid_argument& e) {
    return send_error(res, 400, e.what());
  } catch (const core::WorkLimit& e) {
    a = ApiAnswer::error(413, work_refusal(e));
  }
  std::string body = text(a.body);
  if (a.status == 413 && !key.empty()) refused_.add(key, body);
  send_json(res, a.status, std::move(body));
}

void Server::batch(const ServedDatabase& d, const httplib::Request& req,
                   httplib::Response& res) const {
  std::vector<std::string_view> lines;
  const bool all = each_body_line(req.body, [&](uint64_t, std::string_view line) {  // as `query -` reads
    if (lines.size() == options_.max_batch_lines) return false;
    lines.push_back(line);
    return true;
  });
  if (!all)
    return send_error(res, 413,
                      "more than " + std::to_string(options_.max_batch_lines) +
                          " positions in one request; split them");
  const std::string turn = req.get_param_value("turn");
  std::string out;
  size_t answered = 0;
  for (std::string_view line : lines) {
    // an answer is made whole before it is sent: bounded, so that a batch of the longest
    // value forms (140 KB a line at 17 cells) cannot take gigabytes
    if (out.size() > options_.max_batch_answer)
      return send_error(res, 413,
                        "the answers pass " +
                            (options_.max_batch_answer % (size_t{1} << 20) == 0
                                 ? std::to_string(options_.max_batch_answer >> 20) + " MiB"
                                 : std::to_string(options_.max_batch_answer) + " bytes") +
                            " after " + std::to_string(answered) + " of " +
                            std::to_string(lines.size()) + " positions; ask fewer at a time");
    ++answered;
    const std::string p(line);
    try {
      out += text(query_json(*d.opened.instance, *d.opened.db, p, turn));
    } catch (const BadPosition& e) {
      ojson j;
      j["position"] = p;
      j["error"] = e.what();
      out += text(j);
    } catch (const std::runtime_error& e) {
      // a damaged block: this position's line says so, the others are answered
      ojson j;
      j["position"] = p;
      j["error"] = std::string("the database cannot answer it: ") + e.what();
      out += text(j);
    }
    out += '\n';
  }
  res.status = 200;
  res.body = std::move(out);  // set_content would copy it
  res.set_header("Content-Type", "application/x-ndjson");
}

void Server::validate(const ServedDatabase& d, const httplib::Request& req,
                      httplib::Response& res) const {
  if (const std::string why = query_string_error(req.target); !why.empty()) return send_error(res, 400, "validate: " + why);
  int show = 10;
  if (req.has_param("show")) {
    const std::string s = req.get_param_value("show");
    if (s.empty() || s.size() > 4 || s.find_first_not_of("0123456789") != std::string::npos || std::stoi(s) > 1000)
      return send_error(res, 400, "validate: show is a whole number 0..1000, not '" + printable_excerpt(s) + "'");
    show = std::stoi(s);
  }
  uint64_t at = 0;  // the line being checked
  try {
    core::WorkBudget budget(options_.value_steps);  // the whole body's
    ClaimTally t(d.opened, req.get_param_value("turn"), show);
    each_body_line(req.body, [&](uint64_t lineno, std::string_view line) {  // as `validate -` reads
      at = lineno;
      t.add(lineno, std::string(line));
      return true;
    });
    if (t.rows() == 0) return send_error(res, 400, ClaimTally::no_claims("the body"));
    send_json(res, 200, text(t.summary("-")));
  } catch (const core::WorkLimit& e) {
    send_error(res, 413, "validate: at line " + std::to_string(at) + ", " + work_refusal(e) + "; send fewer claims at a time");
  } catch (const std::invalid_argument& e) {  // a bad turn, a database whose values are not claims
    send_error(res, 400, e.what());
  } catch (const std::runtime_error& e) {  // a damaged block
    send_error(res, 500, std::string("the database cannot answer it: ") + e.what());
  }
}

void Server::page(const std::string& path, httplib::Response& res) const {
  // the table holds every file there is: a path that is not a key of it is not found, so
  // nothing ("..", encoded slashes, absolute paths) reaches a file outside it
  const WebAsset* a = find_web_asset(path == "/" ? "/index.html" : path);
  if (a) {
    res.status = 200;
    res.set_content(std::string(a->data), content_type(a->path));
    return;
  }
  // the listing without script: at /databases always, at / until the page is built in
  if (path == "/" || path == "/index.html" || path == "/databases") {
    res.status = 200;
    res.set_content(listing_html(), "text/html; charset=utf-8");
    return;
  }
  send_error(res, 404, "no such page: " + path);
}

std::string Server::listing_html() const {
  std::string h =
      "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
      "<title>toadbase</title><link rel=\"stylesheet\" href=\"/toadbase.css\"></head><body>\n"
      "<h1>toadbase</h1>\n<p class=\"lead\">Solved databases served here. Point GamesmanUni at "
      "<code>" +
      html_escape(url()) +
      "uwapi/</code>; every database also answers our own JSON under <code>/api/</code>.</p>\n"
      "<table><thead><tr><th>database</th><th>game</th><th>positions</th><th>routes</th></tr></"
      "thead><tbody>\n";
  for (const auto& d : dbs_) {
    const nlohmann::json& m = d->opened.db->summary();
    const std::string id = url_escape(d->id);
    const std::string start = d->opened.instance->start_position();
    h += "<tr><td><code>" + html_escape(d->id) + "</code></td><td>" + html_escape(d->game) +
         " <code>" + html_escape(text(camel_keys(m.value("parameters", nlohmann::json::object())))) +
         "</code></td><td>" + std::to_string(m.value("positions", uint64_t{0})) +
         "</td><td><a href=\"/api/" + id + "/\">manifest</a>";
    if (!start.empty())
      h += " &middot; <a href=\"/api/" + id + "/query?p=" + url_escape(start) +
           "\">start position</a>";
    if (!d->uwapi_variant.empty())
      h += " &middot; <a href=\"/uwapi/" + url_escape(d->game) + "/" + id +
           "/\">UWAPI variant</a>"
           " &middot; <a href=\"/uwapi/" +
           url_escape(d->game) + "/" + id + "/positions/?p=" + url_escape(start) +
           "\">UWAPI start</a>";
    h += "</td></tr>\n";
  }
  h += "</tbody></table>\n<p><a href=\"/api/\">/api/</a> lists the databases as JSON; "
       "<a href=\"/uwapi/\">/uwapi/</a> the games GamesmanUni can play.</p>\n</body></html>\n";
  return h;
}

}  // namespace toadbase::tools
