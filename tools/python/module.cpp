// toadbase from Python: the bindings (pybind11) of the `toadbase` module.
//
//     import toadbase
//     db = toadbase.open("data/tf16")      # tools/open.hpp open_database(): read-only
//     db.query("1_TT--FF")                 # tools/uwapi.hpp query_json(): the command's JSON
//     db.value("1_TT--FF")                 # Instance::value()
//     db.values(positions)                 # Instance::lookup() on the engine's threads
//     toadbase.solve(game, db="data/x", **parameters)   # tools/solve.hpp
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
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "db/database.hpp"
#include "solver/core/threads.hpp"
#include "solver/core/printable.hpp"
#include "tools/cli.hpp"
#include "tools/info.hpp"
#include "tools/open.hpp"
#include "tools/python/array_text.hpp"
#include "tools/registry.hpp"
#include "tools/solve.hpp"
#include "tools/uwapi.hpp"

namespace py = pybind11;

namespace toadbase::python {

namespace {

// ---- JSON <-> Python ----------------------------------------------------------------------

/// Text from the engine as a str: UTF-8, and any byte that is not (a file name's, in a
/// report's "db") as os.fsdecode shows it (a surrogate), rather than a UnicodeDecodeError.
py::str decoded(const std::string& s) {
  PyObject* o = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "surrogateescape");
  if (!o) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(o);
}

/// Raises `type` with `message`; bytes of it that are not UTF-8 (a file name's) as \xNN.
void set_error(PyObject* type, const std::string& message) {
  PyObject* m = PyUnicode_DecodeUTF8(message.data(), static_cast<Py_ssize_t>(message.size()), "backslashreplace");
  if (!m) return;  // the decoder's error stands
  PyErr_SetObject(type, m);
  Py_DECREF(m);
}

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
      return decoded(j.template get_ref<const std::string&>());
    case nlohmann::json::value_t::array: {
      py::list l;
      for (const auto& x : j) l.append(to_python(x));
      return l;
    }
    case nlohmann::json::value_t::object: {
      py::dict d;
      for (const auto& [k, v] : j.items()) d[decoded(k)] = to_python(v);
      return d;
    }
    default:
      throw std::logic_error("a JSON value of a kind Python is not given");
  }
}

// ---- arguments from Python ------------------------------------------------------------------
//
// Every argument is converted here, so that what a function does not take is said by name
// (TypeError for the wrong type, ValueError for a value outside what it takes) and never in
// pybind11's words ("Unable to cast Python instance to C++ type").

std::string type_name(const py::handle& v) { return py::str(v.get_type().attr("__name__")); }

/// A str's UTF-8 into `out`; false when it holds a code point that is not text (a lone
/// surrogate): `why` then quotes it and says which ("'a\ud800': character 1 is U+D800, a lone
/// surrogate, not text").
bool utf8_of(const py::handle& s, std::string& out, std::string& why) {
  Py_ssize_t len = 0;
  if (const char* p = PyUnicode_AsUTF8AndSize(s.ptr(), &len)) {
    out.assign(p, static_cast<size_t>(len));
    return true;
  }
  if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) throw py::error_already_set();  // no memory
  PyErr_Clear();
  Py_UCS4* ucs4 = PyUnicode_AsUCS4Copy(s.ptr());
  if (!ucs4) throw py::error_already_set();
  const auto n = static_cast<size_t>(PyUnicode_GET_LENGTH(s.ptr()));
  size_t at = 0;
  while (at < n && unicode_scalar(ucs4[at])) ++at;
  if (at < n) why = not_text(reinterpret_cast<const char*>(ucs4), n, at);
  PyMem_Free(ucs4);
  if (at == n) throw std::logic_error("a str UTF-8 does not encode holds only Unicode text");
  return false;
}

/// A str argument: TypeError naming `name` and what it `takes` for anything else, ValueError
/// for one that is not text.
std::string text_arg(const py::handle& v, const std::string& name, const std::string& takes) {
  if (!py::isinstance<py::str>(v)) throw py::type_error(name + " is " + takes + ", not " + type_name(v));
  std::string out, why;
  if (!utf8_of(v, out, why)) throw py::value_error(name + " " + why);
  return out;
}

/// A number's decimal text as a message quotes it: the first 40 characters of a longer one.
std::string quoted_number(const py::handle& n) {
  const std::string text = py::str(n);
  if (text.size() <= 40) return text;
  return text.substr(0, 40) + "... (" + std::to_string(text.size()) + " bytes)";
}

/// An int argument (or anything with __index__, such as numpy's; not a bool) within
/// [lo, hi]; outside it, ValueError in the command's words for its numbers
/// ("threads: 65537 is out of range (0..1024)"), whatever the int's size.
long long int_arg(const py::handle& v, const std::string& name, long long lo, long long hi) {
  if (PyBool_Check(v.ptr()) || !PyIndex_Check(v.ptr()))
    throw py::type_error(name + " is an int, not " + type_name(v));
  const py::object n = py::reinterpret_steal<py::object>(PyNumber_Index(v.ptr()));
  if (!n) throw py::error_already_set();
  int overflow = 0;
  const long long x = PyLong_AsLongLongAndOverflow(n.ptr(), &overflow);
  if (x == -1 && PyErr_Occurred()) throw py::error_already_set();
  if (overflow != 0 || x < lo || x > hi)
    throw py::value_error(name + ": " + quoted_number(n) + " is out of range (" + std::to_string(lo) + ".." +
                          std::to_string(hi) + ")");
  return x;
}

/// threads: 0 (all cores) to the command's bound (a typo such as 100000 would start that many).
int threads_arg(const py::handle& v) { return static_cast<int>(int_arg(v, "threads", 0, tools::kMaxThreads)); }

/// The most cache_mb takes: serve --cache's bound (1 TiB).
constexpr long long kMaxCacheMb = 1 << 20;

/// A path argument: str, bytes or os.PathLike, as the bytes of the file name (a str through
/// os.fsencode, as Python's own open() takes it). ValueError for a NUL byte, which no file name
/// holds (the name would end there), and for a str that is not text.
std::string path_arg(const py::handle& p, const std::string& name) {
  py::object fs;
  try {
    fs = py::module_::import("os").attr("fspath")(p);
  } catch (const py::error_already_set& e) {
    if (!e.matches(PyExc_TypeError)) throw;
    throw py::type_error(name + " is a path (str, bytes or os.PathLike), not " + type_name(p));
  }
  std::string bytes;
  if (py::isinstance<py::str>(fs)) {
    std::string utf8, why;
    if (!utf8_of(fs, utf8, why)) {
      // surrogates U+DC80..U+DCFF stand for the bytes of a name that is not UTF-8 (os.fsdecode)
      PyObject* b = PyUnicode_EncodeFSDefault(fs.ptr());
      if (!b) {
        PyErr_Clear();
        throw py::value_error(name + " " + why);
      }
      bytes = py::reinterpret_steal<py::bytes>(b);
    } else {
      bytes = std::move(utf8);
    }
  } else {
    bytes = py::reinterpret_borrow<py::bytes>(fs);  // os.fspath gives str or bytes
  }
  if (bytes.find('\0') != std::string::npos)
    throw py::value_error(name + " '" + printable(bytes) + "' holds a NUL byte, which no file name can");
  return bytes;
}

/// A file name's bytes as Python shows them (os.fsdecode: bytes that are not UTF-8 as surrogates).
py::str path_str(const std::string& bytes) {
  PyObject* s = PyUnicode_DecodeFSDefaultAndSize(bytes.data(), static_cast<Py_ssize_t>(bytes.size()));
  if (!s) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(s);
}

/// A position argument: a string; a dict or list (a forest belief) is written as JSON. A
/// string that is not text is a position no database holds (BadPosition, as the parser's).
std::string position_arg(const py::handle& p) {
  if (py::isinstance<py::str>(p)) {
    std::string out, why;
    if (!utf8_of(p, out, why)) throw BadPosition("position " + why);
    return out;
  }
  if (py::isinstance<py::dict>(p) || py::isinstance<py::list>(p))
    return py::module_::import("json")
        .attr("dumps")(p, py::arg("separators") = py::make_tuple(",", ":"))
        .cast<std::string>();
  throw py::type_error("a position is a string (or, for the forest, a belief as a dict), not " + type_name(p));
}

/// The player to move for a bare board: None/"" (the position says), 1 or 2. An int goes to
/// the parser as its decimal text, whatever its size, and is refused there as the command
/// refuses --turn.
std::string turn_arg(const py::handle& t) {
  if (t.is_none()) return "";
  if (py::isinstance<py::bool_>(t))
    throw py::type_error("turn is 1 (Toads) or 2 (Frogs), not a bool");
  if (py::isinstance<py::int_>(t)) {
    const py::object n = py::reinterpret_steal<py::object>(PyNumber_Long(t.ptr()));  // an int subclass's value
    if (!n) throw py::error_already_set();
    return py::str(n);
  }
  if (py::isinstance<py::str>(t)) {
    std::string out, why;
    if (!utf8_of(t, out, why)) throw BadPosition("turn " + why);
    return out;
  }
  throw py::type_error("turn is 1 (Toads), 2 (Frogs) or None");
}

// ---- an open database -----------------------------------------------------------------------

/// What a Database and its Tier objects share; close() drops `opened`, calls in flight keep
/// their own reference.
struct State {
  std::string path;  // the file name's bytes (path_str() shows them to Python)
  std::shared_ptr<tools::Opened> opened;
  std::shared_ptr<std::function<std::vector<uint8_t>(TierId)>> tier_reader;  // made on first use

  std::shared_ptr<tools::Opened> get() const {
    if (!opened) throw py::value_error("database " + printable(path) + " is closed");
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
      set_error(PyExc_FileNotFoundError, e.what());
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
        if (!array_) throw py::error_already_set();
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

  /// Position i into `out` (whose capacity is reused: no allocation once it is large enough):
  /// true, or false for one that is not text (a lone surrogate; for 'U' arrays also a code
  /// point past U+10FFFF), `why` then saying so as the position parser says of a bad one.
  /// An array's item loses its trailing NULs (numpy's padding) and nothing else: a NUL inside
  /// reaches the parser, which refuses it.
  bool get(size_t i, std::string& out, std::string& why) const {
    switch (kind_) {
      case Kind::Packed: {
        if (!not_text_.empty()) {
          const auto bad = not_text_.find(i);
          if (bad != not_text_.end()) {
            why = bad->second;
            return false;
          }
        }
        out.assign(chars_.data() + offsets_[i], offsets_[i + 1] - offsets_[i]);
        return true;
      }
      case Kind::Bytes:
        item_text(ItemKind::Bytes, base_ + i * width_, width_, out);
        return true;
      case Kind::Ucs4: {
        const char* item = base_ + i * width_;
        const size_t at = item_text(ItemKind::Ucs4, item, width_, out);
        if (at == kAllText) return true;
        why = "position " + not_text(item, item_units(ItemKind::Ucs4, item, width_), at);
        return false;
      }
    }
    return false;
  }

 private:
  enum class Kind { Packed, Ucs4, Bytes };

  void pack(const py::handle& seq) {
    kind_ = Kind::Packed;
    offsets_.push_back(0);
    std::string text, why;
    for (const py::handle item : seq) {
      const size_t i = offsets_.size() - 1;
      if (!PyUnicode_Check(item.ptr()))
        throw py::type_error("values(): position " + std::to_string(i) + " is a " + type_name(item) +
                             ", not a string");
      if (utf8_of(item, text, why))
        chars_.append(text);
      else
        not_text_.emplace(i, "position " + why);
      offsets_.push_back(chars_.size());
    }
    n_ = offsets_.size() - 1;
  }

  Kind kind_ = Kind::Packed;
  size_t n_ = 0;
  std::vector<py::ssize_t> shape_;
  std::string chars_;
  std::vector<size_t> offsets_;
  std::unordered_map<size_t, std::string> not_text_;  // the list's positions that are not text
  py::array array_;
  const char* base_ = nullptr;
  size_t width_ = 0;
};

/// The first bad position of a batch (the lowest index), whatever order the threads meet them.
class FirstBad {
 public:
  void offer(size_t i, const std::string& message) {
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
    const WinLoseValues* values = o->instance->win_lose_values();
    if (!values)
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
          values->gamescrafters16(std::vector<uint8_t>(in, in + bytes));
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

  std::string position(const py::handle& index_given) const {
    if (PyBool_Check(index_given.ptr()) || !PyIndex_Check(index_given.ptr()))
      throw py::type_error("index is an int, not " + type_name(index_given));
    const py::object n = py::reinterpret_steal<py::object>(PyNumber_Index(index_given.ptr()));
    if (!n) throw py::error_already_set();
    int overflow = 0;
    const long long index = PyLong_AsLongLongAndOverflow(n.ptr(), &overflow);
    if (index == -1 && PyErr_Occurred()) throw py::error_already_set();
    if (overflow != 0 || index < 0 || static_cast<uint64_t>(index) >= size_)
      throw py::index_error("tier " + name_ + " has no position " + quoted_number(n) +
                            (size_ == 0   ? std::string(" (it holds none)")
                             : size_ == 1 ? std::string(" (it holds one: 0)")
                                          : " (it holds " + std::to_string(size_) + ": 0 to " +
                                                std::to_string(size_ - 1) + ")"));
    return state_->get()->instance->position_at(id_, static_cast<uint64_t>(index));
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
  Database(const py::handle& path, const py::handle& cache_mb)
      : state_(open_state(path_arg(path, "path"),
                          static_cast<size_t>(int_arg(cache_mb, "cache_mb", 0, kMaxCacheMb)) << 20)) {}

  py::str path() const { return path_str(state_->path); }
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
  bool win_lose() const { return state_->get()->instance->win_lose_values() != nullptr; }

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
    const WinLoseValues* values = o->instance->win_lose_values();
    if (!values) {
      // a game with its own values: its query without the moves
      py::dict d = query(position, turn);
      if (d.contains("moves")) PyDict_DelItemString(d.ptr(), "moves");
      return d;
    }
    Outcome out;
    {
      py::gil_scoped_release release;
      out = values->lookup(*o->db, text, t);
    }
    return py::make_tuple(std::string(value_name(out.value)), out.remoteness);
  }

  /// The answer for a board of a database whose game answers combinatorial game values (its
  /// module's kCgtValues): query() by another name, refused on any other game (whose query
  /// answers win/lose or survival, not a combinatorial value).
  py::dict cgt(const py::handle& board) const {
    {
      auto o = state_->get();
      const std::string game = o->instance->identity().game;
      const tools::Game* g = tools::find_game(game);
      if (!g || !g->cgt_values()) {
        const std::string names = tools::game_names(&tools::Game::cgt_values);
        throw py::type_error("cgt() answers the databases of the games with combinatorial values (" + names +
                             "); this one holds " + game + ": query() and value() answer it");
      }
    }
    return query(board, py::none());
  }

  py::object get_query(const py::handle& position, const py::handle& turn) const {
    try {
      return query(position, turn);
    } catch (const BadTurn&) {
      throw;  // the caller's mistake, not a position the database lacks
    } catch (const BadPosition&) {
      return py::none();
    }
  }

  py::object get_value(const py::handle& position, const py::handle& turn) const {
    try {
      return value(position, turn);
    } catch (const BadTurn&) {
      throw;
    } catch (const BadPosition&) {
      return py::none();
    }
  }

  py::tuple values(const py::handle& positions, const py::handle& turn, const py::handle& threads_given,
                   const py::handle& errors_given) const {
    auto o = state_->get();
    const WinLoseValues* lookups = o->instance->win_lose_values();
    if (!lookups)
      throw py::type_error("values() answers win/lose games; " + o->instance->identity().game +
                           " answers value() and query()");
    const std::string errors = text_arg(errors_given, "errors", "'raise' or 'mark'");
    if (errors != "raise" && errors != "mark")
      throw py::value_error("errors is 'raise' or 'mark', not '" + printable(errors) + "'");
    const int threads = threads_arg(threads_given);
    const std::string t = turn_arg(turn);
    const Positions in(positions);
    const size_t n = in.size();
    py::array_t<uint8_t> codes(in.shape());
    py::array_t<uint16_t> remoteness(in.shape());
    uint8_t* c = codes.mutable_data();
    uint16_t* r = remoteness.mutable_data();
    FirstBad bad, bad_turn;
    {
      py::gil_scoped_release release;
      const WinLoseValues& inst = *lookups;
      with_threads(threads, [&] {
        tbb::parallel_for(tbb::blocked_range<size_t>(0, n, kBatchGrain),
                          [&](const tbb::blocked_range<size_t>& range) {
                            // this task's own reader: the blocks it reads are held here, not looked
                            // up under the shared cache's lock every time
                            const std::unique_ptr<TierSource> reader = o->db->reader();
                            const TierSource& src = *reader;
                            std::string text, why;
                            text.reserve(64);
                            for (size_t i = range.begin(); i != range.end(); ++i) {
                              if (!in.get(i, text, why)) {
                                c[i] = 0;
                                r[i] = 0;
                                bad.offer(i, why);
                                continue;
                              }
                              try {
                                const Outcome out = inst.lookup(src, text, t);
                                c[i] = static_cast<uint8_t>(out.value);
                                r[i] = static_cast<uint16_t>(out.remoteness);
                              } catch (const BadTurn& e) {
                                c[i] = 0;
                                r[i] = 0;
                                bad_turn.offer(i, e.what());
                              } catch (const BadPosition& e) {
                                c[i] = 0;
                                r[i] = 0;
                                bad.offer(i, e.what());
                              }
                            }
                          });
      });
    }
    if (bad_turn.any()) throw py::value_error("turn: " + bad_turn.message());  // whatever errors says
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
    const std::string path = printable(state_->path);
    if (!state_->opened) return "<toadbase.Database " + path + " (closed)>";
    const Identity id = state_->opened->instance->identity();
    return "<toadbase.Database " + path + ": " + id.game + " " + id.parameters.dump() + ">";
  }

 private:
  std::shared_ptr<State> state_;
};

// ---- solve and games --------------------------------------------------------------------------

/// The range an Int parameter takes on its own, refused by name as the command refuses its
/// option ("length: 30 is out of range (1..26)"): the spec's bounds where it has them, else
/// int's (the games read their parameters as int: a larger value is refused, never cut).
template <class Spec>
std::pair<long long, long long> int_range(const Spec& spec) {
  if constexpr (requires { spec.min; spec.max; })
    return {std::max<long long>(spec.min, std::numeric_limits<int>::min()),
            std::min<long long>(spec.max, std::numeric_limits<int>::max())};
  else
    return {std::numeric_limits<int>::min(), std::numeric_limits<int>::max()};
}

/// The options of a solve, from Python keywords (`fly_hp` for `--fly-hp`), checked against
/// the game's parameters.
nlohmann::json given_parameters(const tools::Game& game, const py::kwargs& kwargs) {
  const std::vector<ParamSpec> specs = game.parameters();
  nlohmann::json given = nlohmann::json::object();
  for (const auto& [k, v] : kwargs) {
    const std::string key = text_arg(k, "solve(): keyword", "a str");
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
      throw py::type_error("solve() got an unexpected keyword argument '" + printable(key) + "' (" +
                           game.name() + " takes " + (known.empty() ? std::string("none") : known) +
                           ")");
    }
    if (spec->kind == ParamSpec::Kind::Int) {
      const auto [lo, hi] = int_range(*spec);
      given[spec->name] = int_arg(v, key, lo, hi);
    } else {
      given[spec->name] = text_arg(v, key, "a str");
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
  if (!g) throw py::value_error("no game '" + printable(name) + "' (games: " + known + ")");
  if (need_database && !g->has_database())
    throw py::value_error(printable(name) + " has no position database (games with one: " + known + ")");
  return *g;
}

py::object solve(const py::handle& game_given, const py::handle& db, const py::handle& threads_given,
                 const py::handle& zstd_level_given, bool quiet, bool repair, const py::kwargs& kwargs) {
  const tools::Game& game = game_named(text_arg(game_given, "game", "a game's name (games() lists them)"), true);
  const int threads = threads_arg(threads_given);
  const int zstd_level = static_cast<int>(int_arg(zstd_level_given, "zstd_level", 1, 19));
  const nlohmann::json given = given_parameters(game, kwargs);
  const tools::SolveRequest request{path_arg(db, "db"), threads, zstd_level, quiet, repair, std::string()};
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
    toadbase.games()                            # every game: its name, title and parameters
    toadbase.solve(game, db="data/x", threads=2, **parameters)   # as `toadbase solve`

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
      set_error(database_error.ptr(), e.what());
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
      "One tier of a database: positions solved together, as the game groups them (`toadbase "
      "info --tiers` lists them).")
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
(a two-player game's: the remoteness, odd = win; a puzzle's: 0 = lose, else 1 + the
fewest moves) come as a uint8 array; wider ones (a game with values of its own: 8 or 17
bytes, info['recordBytes']) as a uint8 array of shape (size, bytes). Tiers the database
keeps in part or not at all are rebuilt, as `toadbase export` does.)")
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
      .def(py::init<const py::handle&, const py::handle&>(), py::arg("path"), py::arg("cache_mb") = 256,
           "Database(path: str | bytes | os.PathLike, cache_mb: int = 256)\n\nOpen the database at `path` "
           "(as toadbase.open).")
      .def_property_readonly("path", &Database::path, "The database directory.")
      .def_property_readonly("closed", &Database::closed, "True after close().")
      .def_property_readonly("game", &Database::game,
                             "The game the database holds (its name, as games() lists it).")
      .def_property_readonly("parameters", &Database::parameters,
                             "The space's parameters, as the manifest holds them ({'length': 16}).")
      .def_property_readonly("info", &Database::info,
                             "The manifest as `toadbase info --json` prints it: game, parameters, "
                             "counts, sizes, digest.")
      .def_property_readonly("start", &Database::start,
                             "The space's start position, or None when the game names none.")
      .def_property_readonly(
          "win_lose", &Database::win_lose,
          "True for a win/lose game (values() answers it); False for a game with values of its "
          "own (survival odds, a policy, combinatorial game values).")
      .def("query", &Database::query, py::arg("position"), py::arg("turn") = py::none(),
           R"(query(position: str | dict, turn: int | str | None = None) -> dict

The position's value and every move's: the dict `toadbase query` prints, with the same
keys in the same order. `turn` (1 or 2) gives the player to move of a bare board. Raises
ValueError, with the command's message, for a position the database does not hold.)")
      .def("value", &Database::value, py::arg("position"), py::arg("turn") = py::none(),
           R"(value(position: str | dict, turn: int | str | None = None) -> tuple[str, int] | dict

The position's value without its moves. Win/lose games: (value, remoteness), e.g.
('win', 11). Games with values of their own: the query's dict without 'moves' (survival
odds and best action, a belief's value and decision, ...). Raises ValueError for a bad
position.)")
      .def("cgt", &Database::cgt, py::arg("board"),
           R"(cgt(board: str) -> dict

The answer of a database of combinatorial game values (a game whose query answers them)
for one board (cells T, F, -; '_' and '.' read as empty): its value in CGSuite's
notation ('value'), outcomeClass, leftStop, rightStop, mean, temperature, kind, birthday,
atomicWeight (when it exists) and each player's moves with the child's value: the dict
`toadbase query` prints. Raises ValueError for a board the database does not hold and
TypeError on a database of another game.)")
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
Runs on `threads` threads (0: all cores, at most 1024) without the GIL. errors='raise'
raises ValueError naming the first bad position (positions[i]: ...); errors='mark' gives it
code 0 instead. An array's strings lose their trailing NULs (numpy's padding) and nothing
else: a NUL inside one, or a lone surrogate, makes a bad position.)")
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
      "open", [](const py::handle& path, const py::handle& cache_mb) { return Database(path, cache_mb); },
      py::arg("path"), py::kw_only(), py::arg("cache_mb") = 256,
      R"(open(path: str | bytes | os.PathLike, *, cache_mb: int = 256) -> Database

Open a solved database read-only; a context manager (with toadbase.open(p) as db: ...).
`cache_mb` (0..1048576) bounds the decompressed blocks kept for lookups. Raises
FileNotFoundError for a missing directory and DatabaseError for one that is damaged, of a
game this toadbase does not know, or incomplete (run the same solve again to resume it);
ValueError for a path with a NUL byte.)");

  m.def(
      "solve", &solve, py::arg("game"), py::kw_only(), py::arg("db"), py::arg("threads") = 0,
      py::arg("zstd_level") = 3, py::arg("quiet") = false, py::arg("repair") = false,
      R"(solve(game: str, *, db: str | bytes | os.PathLike, threads: int = 0, zstd_level: int = 3, quiet: bool = False, repair: bool = False, **parameters) -> dict

Solve every position of a game's space into the database directory `db`, as `toadbase
solve` does. The game's parameters are keywords (length=12, fly_hp=5, ...; games() lists
them). Resumes a database an earlier solve left incomplete; leaves a complete one as it
is; repair=True solves again the tiers that no longer read back whole (`solve
--repair`). Progress goes to standard error (quiet=True: none); Ctrl-C ends the process as it
ends the command, and the same call resumes. Returns what `toadbase solve --json` prints.
Raises ValueError for parameters the game refuses (and for threads outside 0..1024 or a
path with a NUL byte), TypeError for an unknown keyword, and DatabaseError for a database
of other parameters.)");

  m.def("games", &games,
        R"(games() -> list[dict]

The registered games: name, title, whether it has a database, its parameters (name as a
keyword of solve(), option, type, help) and their defaults.)");
}
