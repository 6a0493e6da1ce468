#include "CSearchRank.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

/// What one query's rows share: the average length of each column, read once.
typedef struct {
    int columns;
    double *averageLength;
} RankData;

static void rank_data_free(void *pointer) {
    RankData *data = pointer;
    if (data) {
        free(data->averageLength);
        free(data);
    }
}

static RankData *rank_data(const Fts5ExtensionApi *api, Fts5Context *fts, int *rc) {
    RankData *data = api->xGetAuxdata(fts, 0);
    if (data) return data;
    int columns = api->xColumnCount(fts);
    data = calloc(1, sizeof(RankData));
    if (!data) { *rc = SQLITE_NOMEM; return NULL; }
    data->columns = columns;
    data->averageLength = calloc((size_t)(columns > 0 ? columns : 1), sizeof(double));
    if (!data->averageLength) { free(data); *rc = SQLITE_NOMEM; return NULL; }
    sqlite3_int64 rows = 0;
    *rc = api->xRowCount(fts, &rows);
    for (int column = 0; *rc == SQLITE_OK && column < columns; column++) {
        sqlite3_int64 tokens = 0;
        *rc = api->xColumnTotalSize(fts, column, &tokens);
        data->averageLength[column] = rows > 0 ? (double)tokens / (double)rows : 1.0;
        if (data->averageLength[column] <= 0) data->averageLength[column] = 1.0;
    }
    if (*rc == SQLITE_OK) *rc = api->xSetAuxdata(fts, data, rank_data_free);
    if (*rc != SQLITE_OK) { rank_data_free(data); return NULL; }
    return data;
}

static void scrollwork_rank(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *context,
                            int argc, sqlite3_value **argv) {
    int rc = SQLITE_OK;
    RankData *data = rank_data(api, fts, &rc);
    if (!data) { sqlite3_result_error_code(context, rc); return; }
    int phrases = api->xPhraseCount(fts);
    int columns = data->columns;
    int cells = phrases * columns;
    int stackFrequencies[64];
    int *frequencies = cells <= 64 ? stackFrequencies : calloc((size_t)cells, sizeof(int));
    if (!frequencies) { sqlite3_result_error_nomem(context); return; }
    memset(frequencies, 0, sizeof(int) * (size_t)(cells > 0 ? cells : 0));

    int instances = 0;
    rc = api->xInstCount(fts, &instances);
    for (int index = 0; rc == SQLITE_OK && index < instances; index++) {
        int phrase = 0, column = 0, offset = 0;
        rc = api->xInst(fts, index, &phrase, &column, &offset);
        if (rc == SQLITE_OK && phrase >= 0 && phrase < phrases && column >= 0 && column < columns) {
            frequencies[phrase * columns + column]++;
        }
    }
    const double k1 = 1.2, b = 0.75;
    double score = 0;
    for (int column = 0; rc == SQLITE_OK && column < columns; column++) {
        double weight = column < argc ? sqlite3_value_double(argv[column]) : 1.0;
        if (weight == 0) continue;
        int length = 0;
        int any = 0;
        for (int phrase = 0; phrase < phrases; phrase++) any |= frequencies[phrase * columns + column];
        if (!any) continue;
        rc = api->xColumnSize(fts, column, &length);
        double norm = k1 * (1 - b + b * (double)length / data->averageLength[column]);
        for (int phrase = 0; phrase < phrases; phrase++) {
            int tf = frequencies[phrase * columns + column];
            if (tf) score += weight * ((double)tf * (k1 + 1)) / ((double)tf + norm);
        }
    }
    if (frequencies != stackFrequencies) free(frequencies);
    if (rc != SQLITE_OK) { sqlite3_result_error_code(context, rc); return; }
    sqlite3_result_double(context, -score);
}

int scrollwork_register_search_rank(void *connection) {
    sqlite3 *db = connection;
    fts5_api *api = NULL;
    sqlite3_stmt *statement = NULL;
    int rc = sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &statement, NULL);
    if (rc != SQLITE_OK) return rc;
    sqlite3_bind_pointer(statement, 1, (void *)&api, "fts5_api_ptr", NULL);
    sqlite3_step(statement);
    rc = sqlite3_finalize(statement);
    if (rc != SQLITE_OK) return rc;
    if (!api || api->iVersion < 2) return SQLITE_ERROR;
    return api->xCreateFunction(api, "scrollwork_rank", NULL, scrollwork_rank, NULL);
}
