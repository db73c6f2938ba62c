/*
 * toadbase.h: a solved toadbase database read from C, or from any language that calls C
 * (Rust through bindgen, Java through the foreign-function API, Python through ctypes).
 *
 *     toadbase_db* db = NULL;
 *     if (toadbase_open("data/tf16", &db) != TOADBASE_OK) puts(toadbase_last_error());
 *     int value; unsigned remoteness;
 *     toadbase_probe(db, "1_TT--FF", NULL, &value, &remoteness);   // TOADBASE_WIN, 11
 *     toadbase_close(db);
 *
 * Link with `pkg-config --cflags --libs toadbase` (libtoadbase.so). Every function returns
 * a status (TOADBASE_OK, or a negative TOADBASE_ERR_*) and never aborts the caller: the
 * reason of a failure is toadbase_last_error(), this thread's (at most 4 KiB: a long
 * position is quoted in part). A database is opened
 * read-only and may be read from many threads at once. The position strings are those of
 * `toadbase query` (the README's "Positions"); turn is NULL when the position names the
 * player to move, else "1" or "2" for a bare board.
 */
#ifndef TOADBASE_H
#define TOADBASE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this interface: functions are added, never changed, within one. */
#define TOADBASE_C_API 1

/* Statuses. */
#define TOADBASE_OK 0
#define TOADBASE_ERR_ARGUMENT (-1)    /* a null pointer, or a turn the game does not take */
#define TOADBASE_ERR_DATABASE (-2)    /* missing, foreign, damaged or incomplete database; a damaged block */
#define TOADBASE_ERR_POSITION (-3)    /* a position the game or this database does not hold */
#define TOADBASE_ERR_UNSUPPORTED (-4) /* a game with values of its own: ask toadbase_query */
#define TOADBASE_ERR_MEMORY (-5)      /* out of memory */

/* Values of win/lose games (the numbers of Python's toadbase.WIN ...). */
#define TOADBASE_UNDECIDED 0
#define TOADBASE_WIN 1
#define TOADBASE_LOSE 2
#define TOADBASE_TIE 3
#define TOADBASE_DRAW 4

typedef struct toadbase_db toadbase_db;

/* The library's version ("0.1.0"), as `toadbase --version` says it. */
const char* toadbase_version(void);
/* The message of this thread's last failure ("" when none yet): valid until its next call. */
const char* toadbase_last_error(void);
/* "win", "lose", "tie", "draw", "undecided"; NULL for another number. */
const char* toadbase_value_name(int value);

/* Opens the database at `path` read-only into *db (NULL on failure). */
int toadbase_open(const char* path, toadbase_db** db);
/* Closes it (NULL is fine). No call may use it during or after. */
void toadbase_close(toadbase_db* db);
/* Its game's name ("toads-frogs", ...): valid while it is open. NULL for a NULL db. */
const char* toadbase_game(const toadbase_db* db);
/* 1 when toadbase_probe answers its positions (a win/lose game), 0 when only
 * toadbase_query does, TOADBASE_ERR_ARGUMENT for a NULL db. */
int toadbase_win_lose(const toadbase_db* db);

/* A position's value (TOADBASE_WIN ...) and remoteness. */
int toadbase_probe(toadbase_db* db, const char* position, const char* turn, int* value, unsigned* remoteness);

/* `count` positions at once, on the calling thread: values[i] and remoteness[i] for each
 * (0 and 0 for a position that cannot be answered, a NULL one among them). Returns how many
 * could not be answered (toadbase_last_error() says why the first could not), or a negative
 * status (a turn the game does not take: TOADBASE_ERR_ARGUMENT), the arrays then unspecified. */
int64_t toadbase_probe_batch(toadbase_db* db, const char* const* positions, size_t count, const char* turn,
                             uint8_t* values, uint16_t* remoteness);

/* The position's answer as `toadbase query` prints it (one JSON object), for every game, in a
 * string of its own in *json (NULL on failure) that toadbase_free() frees. */
int toadbase_query(toadbase_db* db, const char* position, const char* turn, char** json);
/* Frees a string the library made (NULL is fine). */
void toadbase_free(char* text);

#ifdef __cplusplus
}
#endif

#endif /* TOADBASE_H */
