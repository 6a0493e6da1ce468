#ifndef SCROLLWORK_SEARCH_RANK_H
#define SCROLLWORK_SEARCH_RANK_H

/// Registers `scrollwork_rank`, an FTS5 ranking function, on the SQLite connection `db` (a
/// `sqlite3 *`). Returns SQLITE_OK (0), or an SQLite error code when the connection has no FTS5.
///
/// `scrollwork_rank(table, sizes, w1, w2, ...)` scores a row as BM25 does, term frequency
/// saturated (k1 = 1.2) and normalised by the column's length against its average (b = 0.75),
/// each column weighted by its `w` (1 when not given), but with every phrase of the query
/// weighted alike: without BM25's inverse document frequency, whose count reads every row that
/// holds each phrase, the score of a row costs only that row's positions and lengths. Lower is
/// better (scores are negative), as with `bm25()`, so that `ORDER BY` takes the best first.
///
/// `sizes` is the row's record in the table's `_docsize` shadow table (`sz`, joined on the
/// rowid), from which the lengths are read; when it is NULL, or not such a record, the lengths
/// are asked of FTS5, which looks the record up with a statement run for the row (about four
/// times the cost of the join). Either way the score is the same. Any other value is an error.
int scrollwork_register_search_rank(void *db);

#endif
