#ifndef AGRO_CSQLITECONFIG_H
#define AGRO_CSQLITECONFIG_H

#include <sqlite3.h>

/// Asks SQLite not to checkpoint a WAL database when the connection closes (the WAL stays, and
/// the next connection reads it). Swift cannot call sqlite3_db_config, which is variadic.
/// Returns an SQLite result code.
int agro_sqlite3_disable_checkpoint_on_close(sqlite3 *db);

/// Turns SQLite's memory statistics off for the process (sqlite3_config, variadic too). Only
/// before SQLite's initialization: returns SQLITE_OK, or SQLITE_MISUSE once it has started.
int agro_sqlite3_disable_memory_statistics(void);

#endif
