#ifndef AGRO_CSQLITESESSION_H
#define AGRO_CSQLITESESSION_H

// SQLite's session extension (changesets) for catalog deltas, and a canonical row stream for
// the catalog content hash. sqlite3.h declares the session API only when SQLITE_ENABLE_SESSION
// is defined before it is included, and Swift cannot define it for the system header: this
// shim includes it so in its .c file and exposes only plain C types, so that no other module's
// view of sqlite3.h is affected.

/// Result codes of the functions below (0 is success).
enum {
    AGRO_DELTA_OK = 0,
    /// A file cannot be opened or read as an SQLite database.
    AGRO_DELTA_OPEN = 1,
    /// The two catalogs' schemas differ: a changeset cannot carry the change.
    AGRO_DELTA_SCHEMA = 2,
    /// A change does not apply to the database as it is (SQLite's conflict callback was called).
    AGRO_DELTA_CONFLICT = 3,
    /// Any other SQLite failure.
    AGRO_DELTA_FAILED = 4,
    /// A changeset is not in the format SQLite writes (truncated, an unknown operation or type,
    /// a length past its end): refused before SQLite reads it.
    AGRO_DELTA_MALFORMED = 5,
};

/// Computes the changeset that turns the catalog at `from_path` into the one at `to_path`
/// (every ordinary table; virtual tables and their shadow tables are left out). Both are opened
/// read-only. On success `*changeset` holds `*size` bytes to release with agro_delta_free.
/// On failure `*error` may hold a message to release with agro_delta_free.
int agro_delta_diff(const char *from_path, const char *to_path, void **changeset, int *size, char **error);

/// Returns AGRO_DELTA_OK when the `size` bytes at `changeset` are a complete, well-formed
/// changeset (every table header, operation and value within bounds; patchsets are refused),
/// else AGRO_DELTA_MALFORMED. SQLite's reader can loop for ever on a truncated table header,
/// so the functions below check every changeset with this before handing it to SQLite.
int agro_changeset_check(const void *changeset, int size);

/// Applies `count` changesets in order to the database at `path`, inside one transaction: any
/// conflict (a row changed, missing or already there) rolls the whole transaction back; a
/// malformed changeset (AGRO_DELTA_MALFORMED) is refused before anything is written. The file is written without syncing: apply to a copy not yet in use and
/// fsync it afterwards. `*error` as for agro_delta_diff.
int agro_delta_apply(const char *path, const void *const *changesets, const int *sizes, int count, char **error);

/// Receives the name of each table a changeset changes, once per table.
typedef void (*agro_table_sink)(void *context, const char *table);

/// Calls `sink` with the name of every table the changeset of `size` bytes changes, in the
/// changeset's order (once per run of changes to one table: a session's changeset has one).
/// Returns AGRO_DELTA_MALFORMED (with `*error` as for agro_delta_diff) when the changeset is
/// malformed.
int agro_changeset_tables(const void *changeset, int size, agro_table_sink sink, void *context, char **error);

/// Receives the canonical content stream in pieces.
typedef void (*agro_content_sink)(void *context, const void *bytes, int size);

/// Called before the bytes of each section: "sqlite_schema" for the schema, else a table's name.
typedef void (*agro_section_sink)(void *context, const char *section);

/// Streams the canonical content of the database at `path` (read-only), section by section:
/// `begin` with the section's name, then its bytes to `sink`. The schema comes first, then
/// every table (ordinary and virtual) in name order, its rows in primary-key order, encoded
/// independently of page layout, VACUUM and SQLite version (see ContentHash.swift for the
/// encoding). With `count` >= 0 only the sections named in `sections` are streamed, or, when
/// `except` is 1, all but those.
int agro_content_stream(const char *path, const char *const *sections, int count, int except, agro_section_sink begin,
                        agro_content_sink sink, void *context, char **error);

/// Releases memory returned by the functions above.
void agro_delta_free(void *pointer);

#endif
