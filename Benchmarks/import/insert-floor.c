// The floor of the import's SQLite work on this machine: the rows of an imported catalog
// inserted into an empty file of the same schema by a minimal C loop, timed in phases.
//
//   cc -O2 -o insert-floor insert-floor.c -lsqlite3
//   insert-floor CATALOG.sqlite SCRATCH.sqlite
//
// Every row of every ordinary table of CATALOG (except the derived ones the import builds when
// finishing: culture_ancestors, name_index, the search index) is read into memory first; then,
// timed: one prepared INSERT per table, each value bound by index (texts with SQLITE_STATIC),
// rows in the catalog's key order (the best case for the b-trees), in one transaction on a file
// with the import's settings (journal and sync off, exclusive lock, a 1 GB page cache); then
// the secondary indexes; then `VACUUM INTO` a second file, as the import compacts. The import
// does more than this (mapping, the search index, the reference check), so the ratio of its
// time to this floor says how much of it is SQLite's own cost.
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    int type;
    sqlite3_int64 integer;
    double real;
    char *text;
    int bytes;
} Value;

typedef struct {
    char *name;
    char *insert;
    int columns;
    size_t rows;
    Value *values;
} Table;

static double clock_seconds(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

// Wall and CPU time (the machine is shared: CPU time says what the work costs).
typedef struct {
    double wall, cpu;
} Mark;

static Mark now(void) { return (Mark){clock_seconds(CLOCK_MONOTONIC), clock_seconds(CLOCK_PROCESS_CPUTIME_ID)}; }

static void check(int code, sqlite3 *db, const char *what) {
    if (code != SQLITE_OK && code != SQLITE_DONE && code != SQLITE_ROW) {
        fprintf(stderr, "%s: %s\n", what, sqlite3_errmsg(db));
        exit(1);
    }
}

static int derived(const char *name) {
    return strcmp(name, "culture_ancestors") == 0 || strcmp(name, "name_index") == 0 ||
           strncmp(name, "search_index", 12) == 0 || strncmp(name, "sqlite_", 7) == 0;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: insert-floor CATALOG.sqlite SCRATCH.sqlite\n");
        return 64;
    }
    sqlite3 *source, *db;
    check(sqlite3_open_v2(argv[1], &source, SQLITE_OPEN_READONLY, NULL), source, "open catalog");
    remove(argv[2]);
    check(sqlite3_open(argv[2], &db), db, "open scratch");
    const char *settings =
        "PRAGMA page_size = 4096; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;"
        "PRAGMA cache_size = -1048576; PRAGMA temp_store = MEMORY; PRAGMA locking_mode = EXCLUSIVE;";
    check(sqlite3_exec(db, settings, NULL, NULL, NULL), db, "settings");

    // Tables and indexes as the catalog has them.
    Table tables[128];
    int count = 0;
    char *indexes[128];
    int indexCount = 0;
    sqlite3_stmt *schema;
    check(sqlite3_prepare_v2(source, "SELECT type, name, sql FROM sqlite_schema WHERE sql IS NOT NULL ORDER BY rowid",
                             -1, &schema, NULL),
          source, "schema");
    check(sqlite3_exec(db, "BEGIN", NULL, NULL, NULL), db, "begin");
    while (sqlite3_step(schema) == SQLITE_ROW) {
        const char *type = (const char *)sqlite3_column_text(schema, 0);
        const char *name = (const char *)sqlite3_column_text(schema, 1);
        const char *sql = (const char *)sqlite3_column_text(schema, 2);
        if (strcmp(type, "index") == 0) {
            indexes[indexCount++] = strdup(sql);
            continue;
        }
        if (strncmp(name, "search_index_", 13) == 0) continue;  // made by the virtual table
        check(sqlite3_exec(db, sql, NULL, NULL, NULL), db, sql);
        if (strcmp(type, "table") != 0 || derived(name)) continue;
        tables[count++] = (Table){.name = strdup(name)};
    }
    sqlite3_finalize(schema);
    check(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), db, "commit schema");

    size_t total = 0;
    for (int t = 0; t < count; t++) {
        Table *table = &tables[t];
        char sql[512];
        snprintf(sql, sizeof sql, "SELECT * FROM \"%s\"", table->name);
        sqlite3_stmt *select;
        check(sqlite3_prepare_v2(source, sql, -1, &select, NULL), source, sql);
        table->columns = sqlite3_column_count(select);
        size_t capacity = 1024;
        table->values = malloc(capacity * table->columns * sizeof(Value));
        while (sqlite3_step(select) == SQLITE_ROW) {
            if (table->rows == capacity) {
                capacity *= 2;
                table->values = realloc(table->values, capacity * table->columns * sizeof(Value));
            }
            for (int c = 0; c < table->columns; c++) {
                Value *v = &table->values[table->rows * table->columns + c];
                v->type = sqlite3_column_type(select, c);
                if (v->type == SQLITE_INTEGER) v->integer = sqlite3_column_int64(select, c);
                if (v->type == SQLITE_FLOAT) v->real = sqlite3_column_double(select, c);
                if (v->type == SQLITE_TEXT || v->type == SQLITE_BLOB) {
                    v->bytes = sqlite3_column_bytes(select, c);
                    v->text = malloc(v->bytes + 1);
                    memcpy(v->text, sqlite3_column_blob(select, c), v->bytes);
                }
            }
            table->rows++;
        }
        sqlite3_finalize(select);
        char *insert = malloc(256 + 4 * table->columns);
        int length = sprintf(insert, "INSERT INTO \"%s\" VALUES (?", table->name);
        for (int c = 1; c < table->columns; c++) length += sprintf(insert + length, ", ?");
        sprintf(insert + length, ")");
        table->insert = insert;
        total += table->rows;
    }

    Mark start = now();
    check(sqlite3_exec(db, "BEGIN", NULL, NULL, NULL), db, "begin");
    for (int t = 0; t < count; t++) {
        Table *table = &tables[t];
        sqlite3_stmt *insert;
        check(sqlite3_prepare_v2(db, table->insert, -1, &insert, NULL), db, table->insert);
        for (size_t r = 0; r < table->rows; r++) {
            for (int c = 0; c < table->columns; c++) {
                Value *v = &table->values[r * table->columns + c];
                switch (v->type) {
                    case SQLITE_INTEGER: sqlite3_bind_int64(insert, c + 1, v->integer); break;
                    case SQLITE_FLOAT: sqlite3_bind_double(insert, c + 1, v->real); break;
                    case SQLITE_TEXT: sqlite3_bind_text(insert, c + 1, v->text, v->bytes, SQLITE_STATIC); break;
                    case SQLITE_BLOB: sqlite3_bind_blob(insert, c + 1, v->text, v->bytes, SQLITE_STATIC); break;
                    default: sqlite3_bind_null(insert, c + 1);
                }
            }
            check(sqlite3_step(insert), db, table->insert);
            sqlite3_reset(insert);
        }
        sqlite3_finalize(insert);
    }
    Mark inserted = now();
    for (int i = 0; i < indexCount; i++) check(sqlite3_exec(db, indexes[i], NULL, NULL, NULL), db, indexes[i]);
    check(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), db, "commit");
    Mark indexed = now();
    char vacuum[4096];
    snprintf(vacuum, sizeof vacuum, "PRAGMA cache_size = -2048; VACUUM INTO '%s.vacuumed'", argv[2]);
    char target[4096];
    snprintf(target, sizeof target, "%s.vacuumed", argv[2]);
    remove(target);
    check(sqlite3_exec(db, vacuum, NULL, NULL, NULL), db, "vacuum");
    Mark vacuumed = now();
    printf("insert floor: %zu rows in %d tables (wall / CPU): inserts %.3f / %.3f s, indexes+commit %.3f / %.3f s, "
           "VACUUM INTO %.3f / %.3f s, total %.3f / %.3f s\n",
           total, count, inserted.wall - start.wall, inserted.cpu - start.cpu, indexed.wall - inserted.wall,
           indexed.cpu - inserted.cpu, vacuumed.wall - indexed.wall, vacuumed.cpu - indexed.cpu,
           vacuumed.wall - start.wall, vacuumed.cpu - start.cpu);
    sqlite3_close(db);
    sqlite3_close(source);
    remove(target);
    remove(argv[2]);
    return 0;
}
