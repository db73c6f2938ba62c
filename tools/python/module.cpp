// toadbase from Python: the bindings (pybind11) of the `toadbase` module.
//
//     import toadbase
//     db = toadbase.open("data/tf16")      # tools/open.hpp open_database(): read-only
//     db.query("1_TT--FF")                 # tools/uwapi.hpp query_json(): the command's JSON
//     db.value("1_TT--FF")                 # Instance::value()
//     db.values(positions)                 # Instance::lookup() on the engine's threads
//     toadbase.solve("toads-frogs", db="data/tf12", length=12)   # tools/solve.hpp
//
// Every call goes through the engine face the command uses: no second lookup path. Batch
// calls copy the positions out of Python first and release the GIL; the parallel part
// touches no Python object. A database object is a handle on shared state, so close() while
// another thread is inside a call leaves that call its own reference.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <signal.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "db/database.hpp"
#include "solver/core/engine.hpp"
#include "tools/info.hpp"
#include "tools/open.hpp"
#include "tools/registry.hpp"
#include "tools/solve.hpp"
#include "tools/uwapi.hpp"

namespace py = pybind11;

namespace toadbase::python {

namespace {

// ---- JSON <-> Python ----------------------------------------------------------------------

/// A JSON value as Python objects (objects keep their key order: dict preserves it).
template <class J>
py::object to_python(const J& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::null:
      return py::none();
    case nlohmann::json::value_t::boolean:
      return py::bool_(j.template get<bool>());
    case nlohmann::json::value_t::number_integer:
      return py::int_(j.template get<int64_t>());
    case nlohmann::json::value_t::number_unsigned:
      return py::int_(j.template get<uint64_t>());
    case nlohmann::json::value_t::number_float:
      return py::float_(j.template get<double>());
    case nlohmann::json::value_t::string:
      return py::str(j.template get_ref<const std::string&>());
    case nlohmann::json::value_t::array: {
      py::list l;
      for (const auto& x : j) l.append(to_python(x));
      return l;
    }
    case nlohmann::json::value_t::object: {
      py::dict d;
      for (const auto& [k, v] : j.items()) d[py::str(k)] = to_python(v);
      return d;
    }
    default:
      throw std::logic_error("a JSON value of a kind Python is not given");
  }
}

/// A path argument: str or os.PathLike.
std::string path_arg(const py::handle& p) {
  return py::str(py::module_::import("os").attr("fspath")(p)).cast<std::string>();
}

/// A position argument: a string; a dict or list (a forest belief) is written as JSON.
std::string position_arg(const py::handle& p) {
  if (py::isinstance<py::str>(p)) return p.cast<std::string>();
  if (py::isinstance<py::dict>(p) || py::isinstance<py::list>(p))
    return py::module_::import("json")
        .attr("dumps")(p, py::arg("separators") = py::make_tuple(",", ":"))
        .cast<std::string>();
  throw py::type_error("a position is a string (or, for the forest, a belief as a dict), not " +
                       std::string(py::str(p.get_type().attr("__name__"))));
}

/// The player to move for a bare board: None/"" (the position says), 1 or 2.
std::string turn_arg(const py::handle& t) {
  if (t.is_none()) return "";
  if (py::isinstance<py::bool_>(t))
    throw py::type_error("turn is 1 (Toads) or 2 (Frogs), not a bool");
  if (py::isinstance<py::int_>(t)) return std::to_string(t.cast<long long>());
  if (py::isinstance<py::str>(t)) return t.cast<std::string>();
  throw py::type_error("turn is 1 (Toads), 2 (Frogs) or None");
}

// ---- an open database -----------------------------------------------------------------------

/// What a Database and its Tier objects share; close() drops `opened`, calls in flight keep
/// their own reference.
struct State {
  std::string path;
  std::shared_ptr<tools::Opened> opened;
  std::shared_ptr<std::function<std::vector<uint8_t>(TierId)>> tier_reader;  // made on first use

  std::shared_ptr<tools::Opened> get() const {
    if (!opened) throw py::value_error("database " + path + " is closed");
    return opened;
  }
};

/// Opens a database the way the command does; a missing directory is FileNotFoundError.
std::shared_ptr<State> open_state(const std::string& path, size_t cache_bytes) {
  auto s = std::make_shared<State>();
  s->path = path;
  try {
    py::gil_scoped_release release;
    s->opened = std::make_shared<tools::Opened>(tools::open_database(path, true, cache_bytes));
  } catch (const db::DbError& e) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
      PyErr_SetString(PyExc_FileNotFoundError, e.what());
      throw py::error_already_set();
    }
    throw;
  }
  return s;
}

// ---- positions for a batch, copied out of Python -----------------------------------------

/// The positions of a values() call, readable without the GIL: a list's strings packed into
/// one buffer, or a numpy array of fixed-width strings read in place (the array is kept).
class Positions {
 public:
  explicit Positions(const py::handle& obj) {
    if (py::isinstance<py::str>(obj) || py::isinstance<py::bytes>(obj))
      throw py::type_error(
          "values() takes a list or numpy array of positions; for one position use value()");
    if (py::isinstance<py::array>(obj)) {
      py::array a = py::reinterpret_borrow<py::array>(obj);
      shape_.assign(a.shape(), a.shape() + a.ndim());
      const char kind = a.dtype().kind();
      if (kind == 'U' || kind == 'S') {
        if (kind == 'U' && py::str(a.dtype().attr("byteorder")).cast<std::string>() == ">")
          a = a.attr("astype")(
              a.dtype().attr("newbyteorder")("="));  // UCS-4 in this machine's order
        array_ = py::array::ensure(a, py::array::c_style);
        kind_ = kind == 'U' ? Kind::Ucs4 : Kind::Bytes;
        base_ = static_cast<const char*>(array_.data());
        width_ = static_cast<size_t>(array_.itemsize());
        n_ = static_cast<size_t>(array_.size());
        return;
      }
      if (kind != 'O')
        throw py::type_error(std::string("values() takes an array of strings, not of dtype ") +
                             std::string(py::str(a.dtype())));
      pack(a.attr("ravel")());
      return;
    }
    pack(obj);
    shape_ = {static_cast<py::ssize_t>(n_)};
  }

  size_t size() const { return n_; }
  const std::vector<py::ssize_t>& shape() const { return shape_; }

  /// Position i into `out` (whose capacity is reused: no allocation once it is large enough).
  void get(size_t i, std::string& out) const {
    out.clear();
    switch (kind_) {
      case Kind::Packed:
        out.append(chars_.data() + offsets_[i], offsets_[i + 1] - offsets_[i]);
        break;
      case Kind::Bytes: {
        const char* p = base_ + i * width_;
        out.append(p, strnlen(p, width_));
        break;
      }
      case Kind::Ucs4: {
        const char* p = base_ + i * width_;
        for (size_t k = 0; k < width_ / 4; ++k) {
          uint32_t c;
          std::memcpy(&c, p + 4 * k, 4);
          if (c == 0) break;
          utf8(c, out);
        }
        break;
      }
    }
  }

 private:
  enum class Kind { Packed, Ucs4, Bytes };

  void pack(const py::handle& seq) {
    kind_ = Kind::Packed;
    offsets_.push_back(0);
    for (const py::handle item : seq) {
      Py_ssize_t len = 0;
      const char* s = nullptr;
      if (PyUnicode_Check(item.ptr())) {
        s = PyUnicode_AsUTF8AndSize(item.ptr(), &len);
        if (!s) throw py::error_already_set();
      } else {
        throw py::type_error("values(): position " + std::to_string(offsets_.size() - 1) +
                             " is a " + std::string(py::str(item.get_type().attr("__name__"))) +
                             ", not a string");
      }
      chars_.append(s, static_cast<size_t>(len));
      offsets_.push_back(chars_.size());
    }
    n_ = offsets_.size() - 1;
  }

  static void utf8(uint32_t c, std::string& out) {
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else if (c < 0x800) {
      out += static_cast<char>(0xC0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
      out += static_cast<char>(0xE0 | (c >> 12));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (c >> 18));
      out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    }
  }

  Kind kind_ = Kind::Packed;
  size_t n_ = 0;
  std::vector<py::ssize_t> shape_;
  std::string chars_;
  std::vector<size_t> offsets_;
  py::array array_;
  const char* base_ = nullptr;
  size_t width_ = 0;
};

/// The first bad position of a batch (the lowest index), whatever order the threads meet them.
class FirstBad {
 public:
  void offer(size_t i, const char* message) {
    std::lock_guard lock(mu_);
    if (i < index_) index_ = i, message_ = message;
  }
  bool any() const { return index_ != SIZE_MAX; }
  size_t index() const { return index_; }
  const std::string& message() const { return message_; }

 private:
  std::mutex mu_;
  size_t index_ = SIZE_MAX;
  std::string message_;
};

constexpr size_t kBatchGrain = 4096;  // positions a task of the batch looks up

// ---- the Python classes ----------------------------------------------------------------------

class Database;

/// One tier of an open database.
class Tier {
 public:
  Tier(std::shared_ptr<State> s, TierId id, std::string name, uint64_t size, uint64_t stored)
      : state_(std::move(s)), id_(id), name_(std::move(name)), size_(size), stored_(stored) {}

  TierId id() const { return id_; }
  const std::string& name() const { return name_; }
  uint64_t size() const { return size_; }
  uint64_t stored() const { return stored_; }

  py::array records() const {
    auto o = state_->get();
    if (!state_->tier_reader)
      state_->tier_reader = std::make_shared<std::function<std::vector<uint8_t>(TierId)>>(
          o->instance->tier_reader(*o->db));
    auto reader = state_->tier_reader;
    const unsigned width = o->db->record_bytes();
    auto* recs = new std::vector<uint8_t>();
    try {
      py::gil_scoped_release release;
      *recs = (*reader)(id_);
    } catch (...) {
      delete recs;
      throw;
    }
    py::capsule owner(recs, [](void* p) { delete static_cast<std::vector<uint8_t>*>(p); });
    const auto n = static_cast<py::ssize_t>(recs->size() / width);
    if (width == 1) return py::array_t<uint8_t>({n}, {py::ssize_t{1}}, recs->data(), owner);
    return py::array_t<uint8_t>({n, static_cast<py::ssize_t>(width)},
                                {static_cast<py::ssize_t>(width), py::ssize_t{1}}, recs->data(),
                                owner);
  }

  py::tuple values() const {
    auto o = state_->get();
    if (!o->instance->win_lose())
      throw py::type_error(o->instance->identity().game +
                           " values are not win/lose: read records()");
    py::array_t<uint8_t> raw = records();
    const auto bytes = static_cast<size_t>(raw.size());  // record_bytes() a record
    const size_t n = bytes / o->db->record_bytes();
    py::array_t<uint8_t> codes(static_cast<py::ssize_t>(n));
    py::array_t<uint16_t> remoteness(static_cast<py::ssize_t>(n));
    const uint8_t* in = raw.data();
    uint8_t* c = codes.mutable_data();
    uint16_t* r = remoteness.mutable_data();
    {
      py::gil_scoped_release release;
      const std::vector<uint16_t> gc =
          o->instance->gamescrafters16(std::vector<uint8_t>(in, in + bytes));
      for (size_t i = 0; i < n && i < gc.size(); ++i) {
        const unsigned code = gc[i] >> 12;
        c[i] = static_cast<uint8_t>(code == kGamesmanWin    ? Value::Win
                                    : code == kGamesmanLose ? Value::Lose
                                    : code == kGamesmanTie  ? Value::Tie
                                                            : Value::Undecided);
        r[i] = static_cast<uint16_t>(gc[i] & 0x0FFF);
      }
    }
    return py::make_tuple(codes, remoteness);
  }

  std::string position(uint64_t index) const {
    if (index >= size_)
      throw py::index_error("tier " + name_ + " holds " + std::to_string(size_) +
                            " positions, not " + std::to_string(index + 1));
    return state_->get()->instance->position_at(id_, index);
  }

  std::string repr() const {
    return "<toadbase.Tier " + std::to_string(id_) + " " + name_ + ": " + std::to_string(size_) +
           " positions>";
  }

 private:
  std::shared_ptr<State> state_;
  TierId id_;
  std::string name_;
  uint64_t size_, stored_;
};

class Database {
 public:
  Database(const py::object& path, size_t cache_mb)
      : state_(open_state(path_arg(path), cache_mb << 20)) {}

  const std::string& path() const { return state_->path; }
  bool closed() const { return !state_->opened; }
  void close() {
    state_->tier_reader.reset();
    state_->opened.reset();
  }

  std::string game() const { return state_->get()->instance->identity().game; }
  py::object parameters() const {
    return to_python(state_->get()->instance->identity().parameters);
  }
  py::object info() const { return to_python(tools::info_json(*state_->get()->db, false)); }
  py::object start() const {
    const std::string s = state_->get()->instance->start_position();
    return s.empty() ? py::object(py::none()) : py::object(py::str(s));
  }
  bool win_lose() const { return state_->get()->instance->win_lose(); }

  py::object query(const py::handle& position, const py::handle& turn) const {
    auto o = state_->get();
    const std::string text = position_arg(position), t = turn_arg(turn);
    nlohmann::ordered_json j;
    {
      py::gil_scoped_release release;
      j = tools::query_json(*o->instance, *o->db, text, t);
    }
    return to_python(j);
  }

  py::object value(const py::handle& position, const py::handle& turn) const {
    auto o = state_->get();
    const std::string text = position_arg(position), t = turn_arg(turn);
    if (!o->instance->win_lose()) {
      // a game with its own values: its query without the moves
      py::dict d = query(position, turn);
      if (d.contains("moves")) PyDict_DelItemString(d.ptr(), "moves");
      return d;
    }
    Outcome out;
    {
      py::gil_scoped_release release;
      out = o->instance->lookup(*o->db, text, t);
    }
    return py::make_tuple(std::string(value_name(out.value)), out.remoteness);
  }

  /// A toads-frogs-cgt database's answer for a board: query() by another name, refused on any
  /// other game (whose query answers win/lose or survival, not a combinatorial value).
  py::dict cgt(const py::handle& board) const {
    {
      auto o = state_->get();
      const std::string game = o->instance->identity().game;
      if (game != "toads-frogs-cgt")
        throw py::type_error("cgt() answers a toads-frogs-cgt database (toadbase solve toads-frogs-cgt); this one "
                             "holds " + game + ": query() and value() answer it");
    }
    return query(board, py::none());
  }

  py::object get_query(const py::handle& position, const py::handle& turn) const {
    try {
      return query(position, turn);
    } catch (const BadPosition&) {
      return py::none();
    }
  }

  py::object get_value(const py::handle& position, const py::handle& turn) const {
    try {
      return value(position, turn);
    } catch (const BadPosition&) {
      return py::none();
    }
  }

  py::tuple values(const py::handle& positions, const py::handle& turn, int threads,
                   const std::string& errors) const {
    auto o = state_->get();
    if (!o->instance->win_lose())
      throw py::type_error("values() answers win/lose games; " + o->instance->identity().game +
                           " answers value() and query()");
    if (errors != "raise" && errors != "mark")
      throw py::value_error("errors is 'raise' or 'mark', not '" + errors + "'");
    if (threads < 0)
      throw py::value_error("threads is 0 (all cores) or more, not " + std::to_string(threads));
    const std::string t = turn_arg(turn);
    const Positions in(positions);
    const size_t n = in.size();
    py::array_t<uint8_t> codes(in.shape());
    py::array_t<uint16_t> remoteness(in.shape());
    uint8_t* c = codes.mutable_data();
    uint16_t* r = remoteness.mutable_data();
    FirstBad bad;
    {
      py::gil_scoped_release release;
      const Instance& inst = *o->instance;
      with_threads(threads, [&] {
        tbb::parallel_for(tbb::blocked_range<size_t>(0, n, kBatchGrain),
                          [&](const tbb::blocked_range<size_t>& range) {
                            // this task's own reader: the blocks it reads are held here, not looked
                            // up under the shared cache's lock every time
                            const std::unique_ptr<TierSource> reader = o->db->reader();
                            const TierSource& src = *reader;
                            std::string text;
                            text.reserve(64);
                            for (size_t i = range.begin(); i != range.end(); ++i) {
                              in.get(i, text);
                              try {
                                const Outcome out = inst.lookup(src, text, t);
                                c[i] = static_cast<uint8_t>(out.value);
                                r[i] = static_cast<uint16_t>(out.remoteness);
                              } catch (const BadPosition& e) {
                                c[i] = 0;
                                r[i] = 0;
                                bad.offer(i, e.what());
                              }
                            }
                          });
      });
    }
    if (bad.any() && errors == "raise")
      throw py::value_error("positions[" + std::to_string(bad.index()) + "]: " + bad.message());
    return py::make_tuple(codes, remoteness);
  }

  py::list tiers() const {
    auto o = state_->get();
    py::list out;
    const std::vector<TierInfo> infos = o->instance->tiers();
    for (TierId t = 0; t < infos.size(); ++t)
      out.append(py::cast(Tier(state_, t, infos[t].name, infos[t].positions, o->db->tier_kept(t))));
    return out;
  }

  py::object analyze() const {
    auto o = state_->get();
    nlohmann::json j;
    {
      py::gil_scoped_release release;
      j = o->instance->analyze(*o->db);
    }
    return to_python(j);
  }

  std::string repr() const {
    if (!state_->opened) return "<toadbase.Database " + state_->path + " (closed)>";
    const Identity id = state_->opened->instance->identity();
    return "<toadbase.Database " + state_->path + ": " + id.game + " " + id.parameters.dump() + ">";
  }

 private:
  std::shared_ptr<State> state_;
};

// ---- solve and games --------------------------------------------------------------------------

/// The options of a solve, from Python keywords (`fly_hp` for `--fly-hp`), checked against
/// the game's parameters.
nlohmann::json given_parameters(const tools::Game& game, const py::kwargs& kwargs) {
  const std::vector<ParamSpec> specs = game.parameters();
  nlohmann::json given = nlohmann::json::object();
  for (const auto& [k, v] : kwargs) {
    const std::string key = py::str(k);
    const ParamSpec* spec = nullptr;
    for (const auto& p : specs) {
      std::string py_name = p.name;
      std::replace(py_name.begin(), py_name.end(), '-', '_');
      if (py_name == key || p.name == key) spec = &p;
    }
    if (!spec) {
      std::string known;
      for (const auto& p : specs) {
        std::string py_name = p.name;
        std::replace(py_name.begin(), py_name.end(), '-', '_');
        known += (known.empty() ? "" : ", ") + py_name;
      }
      throw py::type_error("solve() got an unexpected keyword argument '" + key + "' (" +
                           game.name() + " takes " + (known.empty() ? std::string("none") : known) +
                           ")");
    }
    if (spec->kind == ParamSpec::Kind::Int) {
      if (!py::isinstance<py::int_>(v) || py::isinstance<py::bool_>(v))
        throw py::type_error("solve(): " + key + " is an int");
      given[spec->name] = v.cast<long long>();
    } else {
      if (!py::isinstance<py::str>(v)) throw py::type_error("solve(): " + key + " is a str");
      given[spec->name] = v.cast<std::string>();
    }
  }
  return given;
}

/// SIGINT ends the process during a solve, as it ends the command (the database resumes
/// from its last committed tier); Python's handler is back afterwards. Only in the main
/// thread (where Python handles signals), and not when SIGINT is ignored.
class DefaultInterrupt {
 public:
  DefaultInterrupt() {
    py::module_ threading = py::module_::import("threading");
    if (!threading.attr("current_thread")().is(threading.attr("main_thread")())) return;
    if (sigaction(SIGINT, nullptr, &saved_) != 0 || saved_.sa_handler == SIG_IGN) return;
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    active_ = sigaction(SIGINT, &dfl, nullptr) == 0;
  }
  ~DefaultInterrupt() {
    if (active_) sigaction(SIGINT, &saved_, nullptr);
  }
  DefaultInterrupt(const DefaultInterrupt&) = delete;
  DefaultInterrupt& operator=(const DefaultInterrupt&) = delete;

 private:
  bool active_ = false;
  struct sigaction saved_ {};
};

const tools::Game& game_named(const std::string& name, bool need_database) {
  const tools::Game* g = tools::find_game(name);
  std::string known;
  for (const auto& x : tools::games())
    if (!need_database || x->has_database()) known += (known.empty() ? "" : ", ") + x->name();
  if (!g) throw py::value_error("no game '" + name + "' (games: " + known + ")");
  if (need_database && !g->has_database())
    throw py::value_error(name + " has no position database (games with one: " + known + ")");
  return *g;
}

py::object solve(const std::string& game_name, const py::object& db, int threads, int zstd_level,
                 bool quiet, bool repair, const py::kwargs& kwargs) {
  const tools::Game& game = game_named(game_name, true);
  if (threads < 0)
    throw py::value_error("threads is 0 (all cores) or more, not " + std::to_string(threads));
  if (zstd_level < 1 || zstd_level > 19)
    throw py::value_error("zstd_level is 1..19, not " + std::to_string(zstd_level));
  const nlohmann::json given = given_parameters(game, kwargs);
  const tools::SolveRequest request{path_arg(db), threads, zstd_level, quiet, repair, std::string()};
  tools::Solved solved;
  {
    DefaultInterrupt interrupt;
    py::gil_scoped_release release;
    try {
      solved = tools::solve_database(game, given, request);
    } catch (const tools::BadParameters& e) {
      throw tools::BadParameters(std::string("solve ") + game.name() + ": " + e.what());
    }
  }
  return to_python(solved.report);
}

py::list games() {
  py::list out;
  for (const auto& g : tools::games()) {
    py::dict d;
    d["name"] = g->name();
    d["title"] = g->title();
    d["database"] = g->has_database();
    py::list params;
    for (const auto& p : g->parameters()) {
      std::string py_name = p.name;
      std::replace(py_name.begin(), py_name.end(), '-', '_');
      py::dict x;
      x["name"] = py_name;
      x["option"] = "--" + p.name;
      x["type"] = p.kind == ParamSpec::Kind::Int ? "int" : "str";
      x["help"] = p.help;
      params.append(x);
    }
    d["parameters"] = params;
    if (g->has_database()) {
      try {
        d["defaults"] = to_python(g->normalize(nlohmann::json::object()));
      } catch (const std::exception&) {
        d["defaults"] = py::none();  // a game whose every option must be given
      }
    }
    out.append(d);
  }
  return out;
}

}  // namespace

}  // namespace toadbase::python

// ---- the module ---------------------------------------------------------------------------------

PYBIND11_MODULE(toadbase, m) {
  using namespace toadbase;
  using namespace toadbase::python;
  m.doc() = R"(toadbase: exhaustive game databases of the toad and frog family, from Python.

Open a database made by ``toadbase solve`` (or by :func:`solve`) and ask it what a
position is worth, one position at a time or a million at once::

    import toadbase
    with toadbase.open("data/tf16") as db:      # read-only; many threads and processes may open it
        db.info                                 # the manifest, as `toadbase info --json`
        db.query("1_TT--FF")                    # the dict `toadbase query` prints
        db.value("1_TT--FF")                    # ('win', 11)
        codes, remoteness = db.values(["1_TT--FF", "2_T-F"])   # numpy arrays
        for tier in db.tiers():
            tier.name, tier.size, tier.records()
    toadbase.solve("toads-frogs", db="data/tf12", length=12, threads=2)
    toadbase.games()

Value codes (the arrays of Database.values() and Tier.values()): 0 = no value (a bad
position, with errors="mark"), 1 = win, 2 = lose, 3 = tie, 4 = draw; VALUE_NAMES[code]
names them. Errors: ValueError for a bad position, FileNotFoundError for a missing
database, DatabaseError for a damaged, foreign or incomplete one; the messages are the
command's.)";

  static py::exception<db::DbError> database_error(m, "DatabaseError");
  database_error.doc() =
      "A database that is damaged, of a game or record type this toadbase does not know, or "
      "incomplete.";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const db::DbError& e) {
      PyErr_SetString(database_error.ptr(), e.what());
    }
  });

  m.attr("VALUE_NAMES") = py::make_tuple("none", "win", "lose", "tie", "draw");
  m.attr("NONE") = 0;
  m.attr("WIN") = static_cast<int>(Value::Win);
  m.attr("LOSE") = static_cast<int>(Value::Lose);
  m.attr("TIE") = static_cast<int>(Value::Tie);
  m.attr("DRAW") = static_cast<int>(Value::Draw);

  // help() shows the signatures written at the top of each docstring, with Python's types
  // (pybind11's own would read `position: handle -> object`)
  py::options options;
  options.disable_function_signatures();

  py::class_<Tier>(
      m, "Tier",
      "One tier of a database: positions solved together (Toads and Frogs: one count of "
      "toads and frogs, one sum of toad cells, one player to move).")
      .def_property_readonly("id", &Tier::id, "The tier's number (its place in solve order).")
      .def_property_readonly("name", &Tier::name,
                             "The tier's name, as progress lines show it (t3f3_s12_toads).")
      .def_property_readonly("size", &Tier::size, "Positions in the tier.")
      .def_property_readonly(
          "stored", &Tier::stored,
          "Records the database keeps for the tier (the rest is rebuilt on reading).")
      .def("__len__", &Tier::size, "__len__() -> int\n\nPositions in the tier.")
      .def("records", &Tier::records,
           R"(records() -> numpy.ndarray

Every record of the tier, in index order (record i is position(i)'s). One-byte records
(Toads and Frogs: the remoteness, odd = win; the frog puzzle: 0 = lose, else 1 + the
fewest moves) come as a uint8 array; wider ones (River Toad: 8 bytes, the forest: 17) as
a uint8 array of shape (size, bytes). Tiers the database keeps in part or not at all are
rebuilt, as `toadbase export` does.)")
      .def("values", &Tier::values,
           R"(values() -> tuple[numpy.ndarray, numpy.ndarray]

The tier's values as (codes, remoteness), numpy arrays in index order; codes as
Database.values() gives them (win/lose games).)")
      .def("position", &Tier::position, py::arg("index"),
           "position(index: int) -> str\n\nThe canonical string of the tier's position `index`.")
      .def("__repr__", &Tier::repr);

  py::class_<Database>(m, "Database",
                       R"(An open position database (read-only). Made by toadbase.open(path).

Thread-safe: several threads may look up at once (lookups release the GIL), and several
processes may open the same database. A context manager: `with toadbase.open(p) as db:`
closes it at the end; or call close().)")
      .def(py::init<const py::object&, size_t>(), py::arg("path"), py::arg("cache_mb") = 256,
           "Database(path: str | os.PathLike, cache_mb: int = 256)\n\nOpen the database at `path` "
           "(as toadbase.open).")
      .def_property_readonly("path", &Database::path, "The database directory.")
      .def_property_readonly("closed", &Database::closed, "True after close().")
      .def_property_readonly("game", &Database::game,
                             "The game the database holds (toads-frogs, ...).")
      .def_property_readonly("parameters", &Database::parameters,
                             "The space's parameters, as the manifest holds them ({'length': 16}).")
      .def_property_readonly("info", &Database::info,
                             "The manifest as `toadbase info --json` prints it: game, parameters, "
                             "counts, sizes, digest.")
      .def_property_readonly("start", &Database::start,
                             "The space's start position, or None when the game names none.")
      .def_property_readonly(
          "win_lose", &Database::win_lose,
          "True for a win/lose game (values() answers it); False for River Toad and the forest.")
      .def("query", &Database::query, py::arg("position"), py::arg("turn") = py::none(),
           R"(query(position: str | dict, turn: int | str | None = None) -> dict

The position's value and every move's: the dict `toadbase query` prints, with the same
keys in the same order. `turn` (1 or 2) gives the player to move of a bare board. Raises
ValueError, with the command's message, for a position the database does not hold.)")
      .def("value", &Database::value, py::arg("position"), py::arg("turn") = py::none(),
           R"(value(position: str | dict, turn: int | str | None = None) -> tuple[str, int] | dict

The position's value without its moves. Win/lose games: (value, remoteness), e.g.
('win', 11). River Toad and the forest: the query's dict without 'moves' (survival odds
and best action; a belief's value and decision). Raises ValueError for a bad position.)")
      .def("cgt", &Database::cgt, py::arg("board"),
           R"(cgt(board: str) -> dict

A toads-frogs-cgt database's answer for one Toads and Frogs board (cells T, F, -; '_'
and '.' read as empty): its combinatorial game value in CGSuite's notation ('value'),
outcomeClass, leftStop, rightStop, mean, temperature, kind, birthday, atomicWeight (when
it exists) and each player's moves with the child's value: the dict `toadbase query`
prints. Raises ValueError for a board the database does not hold and TypeError on a
database of another game.)")
      .def("get_value", &Database::get_value, py::arg("position"), py::arg("turn") = py::none(),
           "get_value(position: str | dict, turn: int | str | None = None) -> tuple[str, int] | "
           "dict | None\n\n"
           "value(), or None for a position the database does not hold.")
      .def("get_query", &Database::get_query, py::arg("position"), py::arg("turn") = py::none(),
           "get_query(position: str | dict, turn: int | str | None = None) -> dict | None\n\n"
           "query(), or None for a position the database does not hold.")
      .def(
          "values", &Database::values, py::arg("positions"), py::arg("turn") = py::none(),
          py::kw_only(), py::arg("threads") = 0, py::arg("errors") = "raise",
          R"(values(positions: list[str] | numpy.ndarray, turn: int | str | None = None, *, threads: int = 0, errors: str = 'raise') -> tuple[numpy.ndarray, numpy.ndarray]

The values of many positions: (codes, remoteness), two numpy arrays in the shape of
`positions` (a list of strings, or a numpy array of strings of any shape).
codes (uint8): 1 = win, 2 = lose (3 = tie, 4 = draw; 0 = no value); VALUE_NAMES[code]
names them. remoteness (uint16): moves to the end under perfect play.
Runs on `threads` threads (0: all cores) without the GIL. errors='raise' raises
ValueError naming the first bad position (positions[i]: ...); errors='mark' gives it
code 0 instead.)")
      .def("tiers", &Database::tiers, "tiers() -> list[Tier]\n\nEvery tier, in solve order.")
      .def("analyze", &Database::analyze,
           "analyze() -> dict\n\nCounts by remoteness and the game's own findings: the dict "
           "`toadbase analyze "
           "--json` prints.")
      .def("close", &Database::close,
           "close() -> None\n\nClose the database (calls in flight finish first).")
      .def(
          "__enter__", [](py::object self) { return self; }, "__enter__() -> Database")
      .def(
          "__exit__", [](Database& d, const py::args&) { d.close(); },
          "__exit__(*exc) -> None\n\nclose()")
      .def("__repr__", &Database::repr);

  m.def(
      "open", [](const py::object& path, size_t cache_mb) { return Database(path, cache_mb); },
      py::arg("path"), py::kw_only(), py::arg("cache_mb") = 256,
      R"(open(path: str | os.PathLike, *, cache_mb: int = 256) -> Database

Open a solved database read-only; a context manager (with toadbase.open(p) as db: ...).
`cache_mb` bounds the decompressed blocks kept for lookups. Raises FileNotFoundError for a
missing directory and DatabaseError for one that is damaged, of a game this toadbase does
not know, or incomplete (run the same solve again to resume it).)");

  m.def(
      "solve", &solve, py::arg("game"), py::kw_only(), py::arg("db"), py::arg("threads") = 0,
      py::arg("zstd_level") = 3, py::arg("quiet") = false, py::arg("repair") = false,
      R"(solve(game: str, *, db: str | os.PathLike, threads: int = 0, zstd_level: int = 3, quiet: bool = False, repair: bool = False, **parameters) -> dict

Solve every position of a game's space into the database directory `db`, as `toadbase
solve` does. The game's parameters are keywords (length=12, fly_hp=5, ...; games() lists
them). Resumes a database an earlier solve left incomplete; leaves a complete one as it
is; repair=True solves again the tiers that no longer read back whole (`solve
--repair`). Progress goes to standard error (quiet=True: none); Ctrl-C ends the process as it
ends the command, and the same call resumes. Returns what `toadbase solve --json` prints.
Raises ValueError for parameters the game refuses, TypeError for an unknown keyword, and
DatabaseError for a database of other parameters.)");

  m.def("games", &games,
        R"(games() -> list[dict]

The registered games: name, title, whether it has a database, its parameters (name as a
keyword of solve(), option, type, help) and their defaults.)");
}
