/* The C library's contract, compiled against an installed tree (tests/python/test_capi.py):
 *   check_api DB FOREIGN_DIR VALUE_DB POSITIONS_FILE
 * prints one line a position of POSITIONS_FILE ("POSITION VALUE REMOTENESS", or
 * "POSITION error: MESSAGE"), through toadbase_probe, then the same through one
 * toadbase_probe_batch call ("batch ..."), then "query " and the JSON of the first position,
 * then the bad-input cases, each a line naming the status and the message, then the answers
 * of 4 threads probing every position at once compared with the single-thread ones. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <toadbase.h>

static char* lines[100000];
static size_t count;
static toadbase_db* db;
static int want_value[100000];
static unsigned want_remoteness[100000];

static void* probe_all(void* arg) {
  size_t* mismatches = arg;
  for (int round = 0; round < 5; ++round)
    for (size_t i = 0; i < count; ++i) {
      int v = 0;
      unsigned r = 0;
      if (toadbase_probe(db, lines[i], NULL, &v, &r) != TOADBASE_OK) v = -1, r = 0;
      if (v != want_value[i] || r != want_remoteness[i]) ++*mismatches;
    }
  return NULL;
}

static void said(const char* what, long long status) {
  printf("%s: status %lld: %s\n", what, status, toadbase_last_error());
}

int main(int argc, char** argv) {
  if (argc != 5) return 2;
  printf("version %s\n", toadbase_version());
  int s = toadbase_open(argv[1], &db);
  if (s != TOADBASE_OK) {
    said("open", s);
    return 1;
  }
  printf("game %s win_lose %d\n", toadbase_game(db), toadbase_win_lose(db));
  FILE* f = fopen(argv[4], "r");
  char buf[4096];
  while (f && count < 100000 && fgets(buf, sizeof buf, f)) {
    buf[strcspn(buf, "\n")] = 0;
    lines[count++] = strdup(buf);
  }
  if (f) fclose(f);
  for (size_t i = 0; i < count; ++i) {
    int v = 0;
    unsigned r = 0;
    s = toadbase_probe(db, lines[i], NULL, &v, &r);
    want_value[i] = s == TOADBASE_OK ? v : -1;
    want_remoteness[i] = s == TOADBASE_OK ? r : 0;
    if (s == TOADBASE_OK)
      printf("%s %s %u\n", lines[i], toadbase_value_name(v), r);
    else
      printf("%s error %d: %s\n", lines[i], s, toadbase_last_error());
  }
  uint8_t* values = malloc(count + 1);
  uint16_t* remoteness = malloc(2 * (count + 1));
  long long failed = toadbase_probe_batch(db, (const char* const*)lines, count, NULL, values, remoteness);
  printf("batch failed %lld%s%s\n", failed, failed ? ": " : "", failed ? toadbase_last_error() : "");
  for (size_t i = 0; i < count; ++i) printf("batch %s %d %u\n", lines[i], values[i], remoteness[i]);
  char* json = NULL;
  s = count ? toadbase_query(db, lines[0], NULL, &json) : -99;
  printf("query %d %s\n", s, json ? json : toadbase_last_error());
  toadbase_free(json);
  /* bad input: never an abort */
  int v;
  unsigned r;
  said("probe NULL db", toadbase_probe(NULL, "1_TT--FF", NULL, &v, &r));
  said("probe NULL position", toadbase_probe(db, NULL, NULL, &v, &r));
  said("probe NULL value", toadbase_probe(db, "1_TT--FF", NULL, NULL, &r));
  said("probe bad turn", toadbase_probe(db, "TT--FF", "3", &v, &r));
  said("probe garbage", toadbase_probe(db, "\x01\xff garbage", NULL, &v, &r));
  said("query NULL out", toadbase_query(db, "1_TT--FF", NULL, NULL));
  said("batch NULL positions", toadbase_probe_batch(db, NULL, 3, NULL, values, remoteness));
  said("batch zero", toadbase_probe_batch(db, NULL, 0, NULL, NULL, NULL));
  const char* with_null[] = {"1_TT--FF", NULL};
  said("batch a NULL entry", toadbase_probe_batch(db, with_null, 2, NULL, values, remoteness));
  said("batch bad turn", toadbase_probe_batch(db, (const char* const*)lines, count, "7", values, remoteness));
  {
    /* a megabyte of garbage: the message quotes it in part */
    size_t n = (size_t)1 << 20;
    char* garbage = malloc(n + 1);
    memset(garbage, 0xff, n);
    garbage[n] = 0;
    int s2 = toadbase_probe(db, garbage, NULL, &v, &r);
    size_t length = strlen(toadbase_last_error());
    printf("long garbage: status %d, message of %zu bytes, ends %s\n", s2, length,
           length > 20 ? toadbase_last_error() + length - 14 : toadbase_last_error());
    free(garbage);
  }
  toadbase_db* other = (toadbase_db*)1;
  said("open missing", toadbase_open("/nonexistent/toadbase-db", &other));
  printf("open missing leaves %s\n", other ? "a pointer" : "NULL");
  said("open foreign", toadbase_open(argv[2], &other));
  said("open NULL path", toadbase_open(NULL, &other));
  said("open NULL out", toadbase_open(argv[1], NULL));
  printf("game of NULL %s\n", toadbase_game(NULL) ? "not NULL" : "NULL");
  said("win_lose NULL", toadbase_win_lose(NULL));
  toadbase_close(NULL);
  /* a game with values of its own: probe refused, query answers */
  toadbase_db* values_db = NULL;
  s = toadbase_open(argv[3], &values_db);
  if (s == TOADBASE_OK) {
    printf("values game %s win_lose %d\n", toadbase_game(values_db), toadbase_win_lose(values_db));
    said("probe a values game", toadbase_probe(values_db, "TT--F", NULL, &v, &r));
    s = toadbase_query(values_db, "TT--F", NULL, &json);
    printf("values query %d %s\n", s, json ? json : toadbase_last_error());
    toadbase_free(json);
    toadbase_close(values_db);
  } else {
    said("open values db", s);
  }
  /* 4 threads at once, the same answers */
  pthread_t threads[4];
  size_t mismatches[4] = {0, 0, 0, 0};
  for (int t = 0; t < 4; ++t) pthread_create(&threads[t], NULL, probe_all, &mismatches[t]);
  for (int t = 0; t < 4; ++t) pthread_join(threads[t], NULL);
  printf("threads mismatches %zu\n", mismatches[0] + mismatches[1] + mismatches[2] + mismatches[3]);
  toadbase_close(db);
  for (size_t i = 0; i < count; ++i) free(lines[i]);
  free(values);
  free(remoteness);
  return 0;
}
