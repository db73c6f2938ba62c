// The C library (include/toadbase.h): the database opened as every way in opens it
// (tools/open.hpp), positions answered through the game's own lookups (Instance,
// WinLoseValues), the query's JSON through tools/uwapi.hpp. No exception leaves a function:
// each becomes a status and this thread's message.
#include "toadbase.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>

#include "tools/build_info.hpp"
#include "tools/open.hpp"
#include "tools/uwapi.hpp"

struct toadbase_db {
  toadbase::tools::Opened opened;
  std::string game;
};

namespace {

thread_local std::string last_error;

/// The longest message kept: a message quotes the position it is about, escaped (4 bytes a
/// byte at worst), and a caller's megabyte of garbage is not a log line.
constexpr size_t kLongestMessage = 4096;

int fail(int status, std::string message) {
  try {
    if (message.size() > kLongestMessage)
      message = message.substr(0, kLongestMessage - 64) + "... (" + std::to_string(message.size()) + " bytes in all)";
    last_error = std::move(message);
  } catch (...) {
    return TOADBASE_ERR_MEMORY;
  }
  return status;
}

/// Runs `body` (which returns a status); every exception becomes a status and the message.
template <class Body>
int guarded(Body&& body) {
  try {
    return body();
  } catch (const toadbase::BadTurn& e) {
    return fail(TOADBASE_ERR_ARGUMENT, std::string("turn: ") + e.what());
  } catch (const toadbase::BadPosition& e) {
    return fail(TOADBASE_ERR_POSITION, e.what());
  } catch (const std::bad_alloc&) {
    return fail(TOADBASE_ERR_MEMORY, "out of memory");
  } catch (const std::exception& e) {
    // a database's own failures (a damaged block read, a file gone): the data, not the call
    return fail(TOADBASE_ERR_DATABASE, std::string("the database cannot answer it: ") + e.what());
  } catch (...) {
    return fail(TOADBASE_ERR_DATABASE, "the database cannot answer it");
  }
}

std::string turn_of(const char* turn) { return turn ? std::string(turn) : std::string(); }

}  // namespace

extern "C" {

const char* toadbase_version(void) { return TOADBASE_VERSION; }

const char* toadbase_last_error(void) { return last_error.c_str(); }

const char* toadbase_value_name(int value) {
  switch (value) {
    case TOADBASE_UNDECIDED: return "undecided";
    case TOADBASE_WIN: return "win";
    case TOADBASE_LOSE: return "lose";
    case TOADBASE_TIE: return "tie";
    case TOADBASE_DRAW: return "draw";
    default: return nullptr;
  }
}

int toadbase_open(const char* path, toadbase_db** db) {
  if (!db) return fail(TOADBASE_ERR_ARGUMENT, "toadbase_open: db is NULL");
  *db = nullptr;
  if (!path) return fail(TOADBASE_ERR_ARGUMENT, "toadbase_open: path is NULL");
  return guarded([&] {
    try {
      auto d = std::make_unique<toadbase_db>();
      d->opened = toadbase::tools::open_database(path, true);
      d->game = d->opened.instance->identity().game;
      *db = d.release();
      return TOADBASE_OK;
    } catch (const std::bad_alloc&) {
      throw;
    } catch (const std::exception& e) {  // missing, foreign, damaged, incomplete: named by path
      return fail(TOADBASE_ERR_DATABASE, e.what());
    }
  });
}

void toadbase_close(toadbase_db* db) { delete db; }

const char* toadbase_game(const toadbase_db* db) { return db ? db->game.c_str() : nullptr; }

int toadbase_win_lose(const toadbase_db* db) {
  if (!db) return fail(TOADBASE_ERR_ARGUMENT, "toadbase_win_lose: db is NULL");
  return db->opened.instance->win_lose_values() ? 1 : 0;
}

int toadbase_probe(toadbase_db* db, const char* position, const char* turn, int* value, unsigned* remoteness) {
  if (!db || !position || !value || !remoteness)
    return fail(TOADBASE_ERR_ARGUMENT, "toadbase_probe: db, position, value and remoteness must not be NULL");
  const toadbase::WinLoseValues* values = db->opened.instance->win_lose_values();
  if (!values)
    return fail(TOADBASE_ERR_UNSUPPORTED, db->game + " has values of its own: ask toadbase_query");
  return guarded([&] {
    const toadbase::Outcome o = values->lookup(*db->opened.db, position, turn_of(turn));
    *value = static_cast<int>(o.value);
    *remoteness = o.remoteness;
    return TOADBASE_OK;
  });
}

int64_t toadbase_probe_batch(toadbase_db* db, const char* const* positions, size_t count, const char* turn,
                             uint8_t* values, uint16_t* remoteness) {
  if (!db || (count && (!positions || !values || !remoteness)))
    return fail(TOADBASE_ERR_ARGUMENT, "toadbase_probe_batch: db, positions, values and remoteness must not be NULL");
  const toadbase::WinLoseValues* lookups = db->opened.instance->win_lose_values();
  if (!lookups)
    return fail(TOADBASE_ERR_UNSUPPORTED, db->game + " has values of its own: ask toadbase_query");
  int64_t failed = 0;
  const int status = guarded([&] {
    // a reader of its own: the blocks this batch reads are held here, not looked up under the
    // shared cache's lock at every position
    const std::unique_ptr<toadbase::TierSource> reader = db->opened.db->reader();
    const std::string t = turn_of(turn);
    std::string text, first;
    for (size_t i = 0; i < count; ++i) {
      values[i] = 0;
      remoteness[i] = 0;
      const int one = guarded([&] {
        if (!positions[i]) return fail(TOADBASE_ERR_ARGUMENT, "the position is NULL");
        text.assign(positions[i]);
        const toadbase::Outcome o = lookups->lookup(*reader, text, t);
        values[i] = static_cast<uint8_t>(o.value);
        remoteness[i] = static_cast<uint16_t>(o.remoteness);
        return TOADBASE_OK;
      });
      if (one == TOADBASE_ERR_MEMORY) return one;
      // a turn the game does not take is the call's mistake, not a position's: the whole call fails
      if (one == TOADBASE_ERR_ARGUMENT && positions[i]) return one;
      if (one != TOADBASE_OK && failed++ == 0) first = "positions[" + std::to_string(i) + "]: " + last_error;
    }
    if (failed) last_error = first;  // the first failure's reason, not the last's
    return TOADBASE_OK;
  });
  return status == TOADBASE_OK ? failed : status;
}

int toadbase_query(toadbase_db* db, const char* position, const char* turn, char** json) {
  if (!json) return fail(TOADBASE_ERR_ARGUMENT, "toadbase_query: json is NULL");
  *json = nullptr;
  if (!db || !position) return fail(TOADBASE_ERR_ARGUMENT, "toadbase_query: db and position must not be NULL");
  return guarded([&] {
    const std::string text =
        toadbase::tools::query_json(*db->opened.instance, *db->opened.db, position, turn_of(turn))
            .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    char* out = static_cast<char*>(std::malloc(text.size() + 1));
    if (!out) return fail(TOADBASE_ERR_MEMORY, "out of memory");
    std::memcpy(out, text.c_str(), text.size() + 1);
    *json = out;
    return TOADBASE_OK;
  });
}

void toadbase_free(char* text) { std::free(text); }

}  // extern "C"
