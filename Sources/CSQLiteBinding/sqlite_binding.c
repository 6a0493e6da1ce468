#include "CSQLiteBinding.h"

#include <sqlite3.h>
#include <string.h>

int scrollwork_bind_null(void *statement, int index) {
    return sqlite3_bind_null(statement, index);
}

int scrollwork_bind_int64(void *statement, int index, int64_t value) {
    return sqlite3_bind_int64(statement, index, value);
}

int scrollwork_bind_double(void *statement, int index, double value) {
    return sqlite3_bind_double(statement, index, value);
}

int scrollwork_bind_text(void *statement, int index, const char *bytes, int count) {
    // SQLite binds NULL for a NULL pointer; empty text has a pointer to nothing.
    if (!bytes) return sqlite3_bind_text(statement, index, "", 0, SQLITE_TRANSIENT);
    // Up to the first NUL, as GRDB binds text (as a C string): a value binds the same
    // whichever binds it, so that it is found and compared the same.
    return sqlite3_bind_text(statement, index, bytes, (int)strnlen(bytes, (size_t)count), SQLITE_TRANSIENT);
}

int scrollwork_bind_blob(void *statement, int index, const void *bytes, int count) {
    // sqlite3_bind_zeroblob(…, 0) is an empty blob, where a NULL pointer would bind NULL.
    return bytes ? sqlite3_bind_blob(statement, index, bytes, count, SQLITE_TRANSIENT)
                 : sqlite3_bind_zeroblob(statement, index, 0);
}

int scrollwork_parameter_count(void *statement) {
    return sqlite3_bind_parameter_count(statement);
}
