#ifndef SCROLLWORK_SQLITE_BINDING_H
#define SCROLLWORK_SQLITE_BINDING_H

#include <stdint.h>

/// Binds a value to parameter `index` (1-based) of a prepared statement (`statement` is a
/// `sqlite3_stmt *`, such as GRDB's `Statement.sqliteStatement`), as `sqlite3_bind_*` does;
/// each returns SQLite's result code (SQLITE_OK is 0). Text and blobs are copied
/// (`SQLITE_TRANSIENT`), so the bytes need to live only through the call; a NULL `bytes` with a
/// `count` of 0 binds empty text or an empty blob, never NULL. Text stops at its first NUL, as
/// GRDB binds it.
int scrollwork_bind_null(void *statement, int index);
int scrollwork_bind_int64(void *statement, int index, int64_t value);
int scrollwork_bind_double(void *statement, int index, double value);
int scrollwork_bind_text(void *statement, int index, const char *bytes, int count);
int scrollwork_bind_blob(void *statement, int index, const void *bytes, int count);

/// The number of parameters of a prepared statement (`sqlite3_bind_parameter_count`).
int scrollwork_parameter_count(void *statement);

#endif
