// The session API is declared only with this macro defined before sqlite3.h (Debian's
// libsqlite3 is built with it).
#define SQLITE_ENABLE_SESSION 1
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#include <sqlite3.h>
#include <string.h>
#include "CSQLiteSession.h"

static int fail(sqlite3 *db, char **error, int code) {
    if (error) *error = sqlite3_mprintf("%s", db ? sqlite3_errmsg(db) : "out of memory");
    return code;
}

static int open_database(const char *path, int flags, sqlite3 **db, char **error) {
    if (sqlite3_open_v2(path, db, flags, NULL) != SQLITE_OK) {
        int code = fail(*db, error, AGRO_DELTA_OPEN);
        sqlite3_close(*db);
        *db = NULL;
        return code;
    }
    sqlite3_busy_timeout(*db, 5000);
    return AGRO_DELTA_OK;
}

// Rows of one side's schema the other lacks (both directions): any means a changeset cannot
// carry the change.
static const char *schema_difference =
    "SELECT count(*) FROM ("
    " SELECT type, name, tbl_name, sql FROM main.sqlite_schema"
    " EXCEPT SELECT type, name, tbl_name, sql FROM old.sqlite_schema"
    " UNION ALL"
    " SELECT type, name, tbl_name, sql FROM old.sqlite_schema"
    " EXCEPT SELECT type, name, tbl_name, sql FROM main.sqlite_schema)";

// Ordinary tables of the main database: not SQLite's own, not virtual, not the shadow tables
// in which a virtual table (FTS5) keeps its data.
static const char *ordinary_tables =
    "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table'"
    " AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name";

int agro_delta_diff(const char *from_path, const char *to_path, void **changeset, int *size, char **error) {
    sqlite3 *db = NULL;
    sqlite3_session *session = NULL;
    sqlite3_stmt *statement = NULL;
    int code = open_database(to_path, SQLITE_OPEN_READONLY, &db, error);
    if (code) return code;
    *changeset = NULL;
    *size = 0;
    // ATTACH inherits the read-only flag of the connection.
    if (sqlite3_prepare_v2(db, "ATTACH ? AS old", -1, &statement, NULL) != SQLITE_OK) goto failed;
    sqlite3_bind_text(statement, 1, from_path, -1, SQLITE_TRANSIENT);
    if (sqlite3_step(statement) != SQLITE_DONE) {
        code = fail(db, error, AGRO_DELTA_OPEN);
        goto done;
    }
    sqlite3_finalize(statement);
    statement = NULL;
    if (sqlite3_prepare_v2(db, schema_difference, -1, &statement, NULL) != SQLITE_OK) {
        code = fail(db, error, AGRO_DELTA_OPEN);
        goto done;
    }
    if (sqlite3_step(statement) != SQLITE_ROW) goto failed;
    if (sqlite3_column_int64(statement, 0) != 0) {
        if (error) *error = sqlite3_mprintf("the schemas differ");
        code = AGRO_DELTA_SCHEMA;
        goto done;
    }
    sqlite3_finalize(statement);
    statement = NULL;
    if (sqlite3session_create(db, "main", &session) != SQLITE_OK) goto failed;
    if (sqlite3_prepare_v2(db, ordinary_tables, -1, &statement, NULL) != SQLITE_OK) goto failed;
    int step;
    while ((step = sqlite3_step(statement)) == SQLITE_ROW) {
        const char *table = (const char *)sqlite3_column_text(statement, 0);
        char *message = NULL;
        if (sqlite3session_attach(session, table) != SQLITE_OK) goto failed;
        if (sqlite3session_diff(session, "old", table, &message) != SQLITE_OK) {
            if (error) *error = sqlite3_mprintf("%s: %s", table, message ? message : sqlite3_errmsg(db));
            sqlite3_free(message);
            code = AGRO_DELTA_FAILED;
            goto done;
        }
    }
    if (step != SQLITE_DONE) goto failed;
    if (sqlite3session_changeset(session, size, changeset) != SQLITE_OK) goto failed;
    code = AGRO_DELTA_OK;
    goto done;
failed:
    code = fail(db, error, AGRO_DELTA_FAILED);
done:
    sqlite3_finalize(statement);
    if (session) sqlite3session_delete(session);
    sqlite3_close(db);
    return code;
}

// MARK: - Changeset framing

// SQLite's varint: 1 to 9 bytes, 7 bits each, big-endian, the ninth byte whole. Returns the
// bytes read, 0 when the varint runs past `left`.
static int read_varint(const unsigned char *bytes, sqlite3_int64 left, sqlite3_uint64 *value) {
    sqlite3_uint64 result = 0;
    for (int index = 0; index < 9; index++) {
        if (index >= left) return 0;
        if (index == 8) {
            *value = (result << 8) | bytes[index];
            return 9;
        }
        result = (result << 7) | (bytes[index] & 0x7f);
        if (!(bytes[index] & 0x80)) {
            *value = result;
            return index + 1;
        }
    }
    return 0;
}

// Skips one record of `columns` values at `*at`; 0 when a value is of no known type or runs
// past the end. Undefined values (type 0) belong only to the records of an UPDATE.
static int skip_record(const unsigned char *data, sqlite3_int64 size, sqlite3_int64 *at, sqlite3_uint64 columns,
                       int undefined_allowed) {
    for (sqlite3_uint64 column = 0; column < columns; column++) {
        if (*at >= size) return 0;
        switch (data[(*at)++]) {
        case 0:
            if (!undefined_allowed) return 0;
            break;
        case SQLITE_NULL:
            break;
        case SQLITE_INTEGER:
        case SQLITE_FLOAT:
            if (size - *at < 8) return 0;
            *at += 8;
            break;
        case SQLITE_TEXT:
        case SQLITE_BLOB: {
            sqlite3_uint64 length = 0;
            int read = read_varint(data + *at, size - *at, &length);
            if (!read) return 0;
            *at += read;
            if (length > (sqlite3_uint64)(size - *at)) return 0;
            *at += (sqlite3_int64)length;
            break;
        }
        default:
            return 0;
        }
    }
    return 1;
}

// Whether `size` bytes are a complete changeset in the format sqlite3session_changeset writes:
// table headers ('T', column count, primary-key flags, NUL-terminated name) each followed by
// changes (operation, indirect flag, the old and/or new record). SQLite's own reader (3.40)
// loops for ever on a table header that ends before its name's NUL, and trusts lengths it
// cannot check without reading further; nothing reaches it unless every part is in bounds.
static int changeset_is_well_formed(const unsigned char *data, sqlite3_int64 size) {
    sqlite3_int64 at = 0;
    sqlite3_uint64 columns = 0;
    while (at < size) {
        int operation = data[at++];
        if (operation == 'T') {
            sqlite3_uint64 count = 0;
            int read = read_varint(data + at, size - at, &count);
            // SQLite allows at most 32,767 columns.
            if (!read || count == 0 || count > 32767) return 0;
            at += read;
            if (count > (sqlite3_uint64)(size - at)) return 0;
            at += (sqlite3_int64)count;
            const unsigned char *end = at < size ? memchr(data + at, 0, (size_t)(size - at)) : NULL;
            if (!end || end == data + at) return 0;
            at = (end - data) + 1;
            columns = count;
        } else if (operation == SQLITE_INSERT || operation == SQLITE_DELETE || operation == SQLITE_UPDATE) {
            if (columns == 0 || at >= size) return 0;
            at++;
            if (!skip_record(data, size, &at, columns, operation == SQLITE_UPDATE)) return 0;
            if (operation == SQLITE_UPDATE && !skip_record(data, size, &at, columns, 1)) return 0;
        } else {
            return 0;
        }
    }
    return 1;
}

int agro_changeset_check(const void *changeset, int size) {
    if (size < 0 || (size > 0 && !changeset)) return AGRO_DELTA_MALFORMED;
    return changeset_is_well_formed(changeset, size) ? AGRO_DELTA_OK : AGRO_DELTA_MALFORMED;
}

// MARK: - Applying

struct conflict_context {
    int conflicted;
    char *description;
};

static int abort_on_conflict(void *context, int kind, sqlite3_changeset_iter *iterator) {
    struct conflict_context *conflict = context;
    if (!conflict->conflicted) {
        const char *table = "?";
        int columns = 0, operation = 0, indirect = 0;
        sqlite3changeset_op(iterator, &table, &columns, &operation, &indirect);
        const char *what = kind == SQLITE_CHANGESET_DATA       ? "a row to change differs"
                           : kind == SQLITE_CHANGESET_NOTFOUND ? "a row to change is missing"
                           : kind == SQLITE_CHANGESET_CONFLICT ? "a row to insert is already there"
                                                               : "a constraint fails";
        conflict->description = sqlite3_mprintf("%s in table %s", what, table);
    }
    conflict->conflicted = 1;
    return SQLITE_CHANGESET_ABORT;
}

int agro_delta_apply(const char *path, const void *const *changesets, const int *sizes, int count, char **error) {
    for (int index = 0; index < count; index++) {
        if (agro_changeset_check(changesets[index], sizes[index]) != AGRO_DELTA_OK) {
            if (error) *error = sqlite3_mprintf("changeset %d of %d is malformed", index + 1, count);
            return AGRO_DELTA_MALFORMED;
        }
    }
    sqlite3 *db = NULL;
    int code = open_database(path, SQLITE_OPEN_READWRITE, &db, error);
    if (code) return code;
    // A copy not yet in use, fsynced by the caller once checked: no syncs of its own, and the
    // rollback journal in memory (a conflict still rolls back; a crash leaves a scratch file).
    sqlite3_exec(db, "PRAGMA synchronous = OFF; PRAGMA journal_mode = MEMORY", NULL, NULL, NULL);
    if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
        code = fail(db, error, AGRO_DELTA_FAILED);
        sqlite3_close(db);
        return code;
    }
    for (int index = 0; index < count; index++) {
        struct conflict_context conflict = {0, NULL};
        int rc = sqlite3changeset_apply(db, sizes[index], (void *)changesets[index], NULL, abort_on_conflict, &conflict);
        if (rc != SQLITE_OK || conflict.conflicted) {
            if (conflict.conflicted) {
                if (error) *error = conflict.description;
                else sqlite3_free(conflict.description);
                code = AGRO_DELTA_CONFLICT;
            } else {
                code = fail(db, error, AGRO_DELTA_FAILED);
            }
            sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
            sqlite3_close(db);
            return code;
        }
    }
    if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        code = fail(db, error, AGRO_DELTA_FAILED);
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        sqlite3_close(db);
        return code;
    }
    sqlite3_close(db);
    return AGRO_DELTA_OK;
}

int agro_changeset_tables(const void *changeset, int size, agro_table_sink sink, void *context, char **error) {
    if (agro_changeset_check(changeset, size) != AGRO_DELTA_OK) {
        if (error) *error = sqlite3_mprintf("a changeset is malformed");
        return AGRO_DELTA_MALFORMED;
    }
    sqlite3_changeset_iter *iterator = NULL;
    if (sqlite3changeset_start(&iterator, size, (void *)changeset) != SQLITE_OK) {
        if (error) *error = sqlite3_mprintf("a changeset cannot be read");
        return AGRO_DELTA_FAILED;
    }
    // A changeset groups the changes of one table together: a name differing from the previous
    // change's starts the next table.
    char *previous = NULL;
    int step;
    while ((step = sqlite3changeset_next(iterator)) == SQLITE_ROW) {
        const char *table = NULL;
        int columns = 0, operation = 0, indirect = 0;
        if (sqlite3changeset_op(iterator, &table, &columns, &operation, &indirect) != SQLITE_OK || !table) break;
        if (!previous || strcmp(previous, table) != 0) {
            sqlite3_free(previous);
            previous = sqlite3_mprintf("%s", table);
            sink(context, table);
        }
    }
    sqlite3_free(previous);
    int rc = sqlite3changeset_finalize(iterator);
    if (step != SQLITE_DONE || rc != SQLITE_OK) {
        if (error) *error = sqlite3_mprintf("a changeset is malformed");
        return AGRO_DELTA_FAILED;
    }
    return AGRO_DELTA_OK;
}

// MARK: - Canonical content

struct writer {
    agro_content_sink sink;
    void *context;
    unsigned char buffer[1 << 16];
    int used;
};

static void flush(struct writer *w) {
    if (w->used > 0) w->sink(w->context, w->buffer, w->used);
    w->used = 0;
}

static void put(struct writer *w, const void *bytes, sqlite3_int64 size) {
    const unsigned char *p = bytes;
    while (size > 0) {
        sqlite3_int64 room = (sqlite3_int64)sizeof(w->buffer) - w->used;
        sqlite3_int64 n = size < room ? size : room;
        memcpy(w->buffer + w->used, p, (size_t)n);
        w->used += (int)n;
        p += n;
        size -= n;
        if (w->used == (int)sizeof(w->buffer)) flush(w);
    }
}

static void put_tag(struct writer *w, char tag) { put(w, &tag, 1); }

static void put_u64(struct writer *w, sqlite3_uint64 value) {
    unsigned char bytes[8];
    for (int i = 7; i >= 0; i--) {
        bytes[i] = (unsigned char)(value & 0xff);
        value >>= 8;
    }
    put(w, bytes, 8);
}

// One value: a type tag, then the value in a fixed big-endian form (text and blobs with their
// length first, so that no two sequences of values encode alike).
static void put_value(struct writer *w, sqlite3_stmt *statement, int column) {
    switch (sqlite3_column_type(statement, column)) {
    case SQLITE_INTEGER:
        put_tag(w, 'i');
        put_u64(w, (sqlite3_uint64)sqlite3_column_int64(statement, column));
        break;
    case SQLITE_FLOAT: {
        double value = sqlite3_column_double(statement, column);
        sqlite3_uint64 bits;
        memcpy(&bits, &value, 8);
        put_tag(w, 'f');
        put_u64(w, bits);
        break;
    }
    case SQLITE_TEXT: {
        const unsigned char *text = sqlite3_column_text(statement, column);
        int size = sqlite3_column_bytes(statement, column);
        put_tag(w, 't');
        put_u64(w, (sqlite3_uint64)size);
        put(w, text, size);
        break;
    }
    case SQLITE_BLOB: {
        const void *blob = sqlite3_column_blob(statement, column);
        int size = sqlite3_column_bytes(statement, column);
        put_tag(w, 'b');
        put_u64(w, (sqlite3_uint64)size);
        put(w, blob, size);
        break;
    }
    default:
        put_tag(w, 'n');
    }
}

static void put_text(struct writer *w, const char *text) {
    size_t size = text ? strlen(text) : 0;
    put_tag(w, 't');
    put_u64(w, (sqlite3_uint64)size);
    put(w, text, (sqlite3_int64)size);
}

// Every row of one query, each prefixed by 'R'.
static int put_rows(struct writer *w, sqlite3 *db, const char *sql) {
    sqlite3_stmt *statement = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &statement, NULL) != SQLITE_OK) return SQLITE_ERROR;
    int columns = sqlite3_column_count(statement);
    put_u64(w, (sqlite3_uint64)columns);
    int step;
    while ((step = sqlite3_step(statement)) == SQLITE_ROW) {
        put_tag(w, 'R');
        for (int column = 0; column < columns; column++) put_value(w, statement, column);
    }
    sqlite3_finalize(statement);
    return step == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
}

// The ORDER BY of a table's rows: its primary key columns in key order, else (a table
// without a declared key, whose rowids VACUUM may renumber) every column.
static char *order_by(sqlite3 *db, const char *table) {
    sqlite3_stmt *statement = NULL;
    char *clause = NULL;
    const char *sql = "SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk";
    for (int pass = 0; pass < 2 && !clause; pass++) {
        if (pass == 1) sql = "SELECT name FROM pragma_table_info(?) ORDER BY cid";
        if (sqlite3_prepare_v2(db, sql, -1, &statement, NULL) != SQLITE_OK) return NULL;
        sqlite3_bind_text(statement, 1, table, -1, SQLITE_TRANSIENT);
        while (sqlite3_step(statement) == SQLITE_ROW) {
            const char *column = (const char *)sqlite3_column_text(statement, 0);
            char *next = clause ? sqlite3_mprintf("%s, \"%w\"", clause, column) : sqlite3_mprintf("\"%w\"", column);
            sqlite3_free(clause);
            clause = next;
        }
        sqlite3_finalize(statement);
    }
    return clause;
}

struct selection {
    const char *const *sections;
    int count;
    int except;
};

static int selected(const struct selection *selection, const char *name) {
    if (selection->count < 0) return 1;
    for (int index = 0; index < selection->count; index++) {
        if (selection->sections[index] && strcmp(selection->sections[index], name) == 0) return !selection->except;
    }
    return selection->except;
}

// The bytes buffered so far belong to the previous section.
static void begin_section(struct writer *w, agro_section_sink begin, const char *name) {
    flush(w);
    begin(w->context, name);
}

int agro_content_stream(const char *path, const char *const *sections, int count, int except, agro_section_sink begin,
                        agro_content_sink sink, void *context, char **error) {
    struct selection selection = {sections, count, except};
    sqlite3 *db = NULL;
    int code = open_database(path, SQLITE_OPEN_READONLY, &db, error);
    if (code) return code;
    struct writer *w = sqlite3_malloc(sizeof(struct writer));
    if (!w) {
        sqlite3_close(db);
        return fail(NULL, error, AGRO_DELTA_FAILED);
    }
    w->sink = sink;
    w->context = context;
    w->used = 0;
    sqlite3_stmt *tables = NULL;
    // One read transaction: the schema and the rows are of the same instant.
    if (sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) goto failed;
    // The schema, without SQLite's internal entries and shadow tables (whose layout belongs
    // to the virtual table module and its version).
    if (selected(&selection, "sqlite_schema")) {
        begin_section(w, begin, "sqlite_schema");
        put_tag(w, 'S');
        if (put_rows(w, db,
                     "SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
                     " AND name NOT IN (SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'shadow')"
                     " ORDER BY type, name") != SQLITE_OK)
            goto failed;
    }
    // Ordinary tables in primary-key order; virtual tables (the search index) by rowid, through
    // their module, so that what is hashed is their content, not their storage.
    if (sqlite3_prepare_v2(db,
                           "SELECT name, type FROM pragma_table_list WHERE schema = 'main'"
                           " AND type IN ('table', 'virtual') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
                           -1, &tables, NULL) != SQLITE_OK)
        goto failed;
    int step;
    while ((step = sqlite3_step(tables)) == SQLITE_ROW) {
        const char *table = (const char *)sqlite3_column_text(tables, 0);
        if (!selected(&selection, table)) continue;
        int virtual = strcmp((const char *)sqlite3_column_text(tables, 1), "virtual") == 0;
        char *sql;
        if (virtual) {
            sql = sqlite3_mprintf("SELECT rowid, * FROM \"%w\" ORDER BY rowid", table);
        } else {
            char *order = order_by(db, table);
            if (!order) goto failed;
            sql = sqlite3_mprintf("SELECT * FROM \"%w\" ORDER BY %s", table, order);
            sqlite3_free(order);
        }
        begin_section(w, begin, table);
        put_tag(w, 'T');
        put_text(w, table);
        int rc = put_rows(w, db, sql);
        sqlite3_free(sql);
        if (rc != SQLITE_OK) goto failed;
    }
    if (step != SQLITE_DONE) goto failed;
    flush(w);
    code = AGRO_DELTA_OK;
    goto done;
failed:
    code = fail(db, error, AGRO_DELTA_FAILED);
done:
    sqlite3_finalize(tables);
    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    sqlite3_free(w);
    sqlite3_close(db);
    return code;
}

void agro_delta_free(void *pointer) { sqlite3_free(pointer); }
