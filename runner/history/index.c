/* SPDX-License-Identifier: Apache-2.0 */
/* The results directory's index in SQLite: open it (or replace
 * one that cannot be trusted) and bring it up to date with the files
 * (index.h has the choices; index_rows.c writes and reads the rows,
 * index_cp.c the change point cache). */
#include "index.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/util.h"
#include "index_impl.h"
#include "results/run_read.h"

/* 'brIX': PRAGMA application_id of a benchrun index. */
#define APP_ID 0x62724958

static const char *const schema =
    "CREATE TABLE IF NOT EXISTS file(name TEXT PRIMARY KEY, size INTEGER, mtime_ns INTEGER,"
    " ino INTEGER, hash TEXT, error TEXT);"
    "CREATE TABLE IF NOT EXISTS run(id INTEGER PRIMARY KEY, file TEXT NOT NULL, idx INTEGER,"
    " suite TEXT, date TEXT, git INTEGER, unborn INTEGER, sha TEXT, short_sha TEXT,"
    " branch TEXT, dirty INTEGER, commit_time INTEGER, has_device INTEGER, device TEXT,"
    " cpu TEXT, metric TEXT, headline TEXT, peak_gbps REAL, peak_gflops REAL, params TEXT,"
    " kernels TEXT);"
    "CREATE INDEX IF NOT EXISTS run_file ON run(file);"
    "CREATE TABLE IF NOT EXISTS kase(run INTEGER NOT NULL, ci INTEGER NOT NULL, kernel INTEGER,"
    " params TEXT, status TEXT, stage TEXT, message TEXT, bytes REAL, flops REAL, gbps REAL,"
    " gflops REAL, pct_peak REAL, timed INTEGER, n_samples INTEGER, n INTEGER, median REAL,"
    " q1 REAL, q3 REAL, ci_low REAL, ci_high REAL, noise REAL, min REAL, max REAL, mean REAL,"
    " stddev REAL, stop TEXT, PRIMARY KEY(run, ci)) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS cp(suite TEXT, device TEXT, key TEXT, hash INTEGER, cps BLOB,"
    " PRIMARY KEY(suite, device, key)) WITHOUT ROWID;";

/* Set the error from ix's connection: "PATH: what: SQLite's message". */
int br_index_fail(br_index *ix, const char *what) {
    return br_error_set("%s: %s: %s", ix->path, what, ix->db ? sqlite3_errmsg(ix->db) : "?");
}

int br_index_exec(br_index *ix, const char *sql) {
    char *msg = NULL;
    if (sqlite3_exec(ix->db, sql, NULL, NULL, &msg) == SQLITE_OK)
        return 0;
    br_error_set("%s: %s", ix->path, msg ? msg : sqlite3_errmsg(ix->db));
    sqlite3_free(msg);
    return -1;
}

/* One integer from `sql` into *out; -1 with the error set, or SQLite's
 * code in *code (SQLITE_NOTADB, SQLITE_CORRUPT, ...). */
static int pragma_int(br_index *ix, const char *sql, int64_t *out, int *code) {
    sqlite3_stmt *st = NULL;
    *code = sqlite3_prepare_v2(ix->db, sql, -1, &st, NULL);
    if (*code == SQLITE_OK) {
        *code = sqlite3_step(st);
        if (*code == SQLITE_ROW) {
            *out = sqlite3_column_int64(st, 0);
            *code = SQLITE_OK;
        }
    }
    sqlite3_finalize(st);
    return *code == SQLITE_OK ? 0 : br_index_fail(ix, "reading the index");
}

/* 1 when the open database is a benchrun index of this layout, 0 when it
 * is new (no table), -2 when it must be replaced (not a database, corrupt,
 * another program's or another layout), -1 on another error. */
static int check_db(br_index *ix) {
    int64_t app = 0, ver = 0, tables = 0;
    int code;
    if (pragma_int(ix, "PRAGMA application_id", &app, &code) != 0 ||
        pragma_int(ix, "PRAGMA user_version", &ver, &code) != 0 ||
        pragma_int(ix, "SELECT count(*) FROM sqlite_master", &tables, &code) != 0)
        return code == SQLITE_NOTADB || code == SQLITE_CORRUPT ? -2 : -1;
    if (tables == 0 && app == 0)
        return 0;
    return app == APP_ID && ver == BR_INDEX_VERSION ? 1 : -2;
}

/* Make the tables of a new index (in one transaction, so that a process
 * that loses the race finds them made). */
static int create_tables(br_index *ix) {
    char sql[4096];
    snprintf(sql, sizeof sql,
             "BEGIN IMMEDIATE; %s PRAGMA application_id = %d; PRAGMA user_version = %d; COMMIT;",
             schema, APP_ID, BR_INDEX_VERSION);
    if (br_index_exec(ix, sql) != 0) {
        sqlite3_exec(ix->db, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    return 0;
}

static int open_db(br_index *ix, const char *name) {
    if (ix->db)
        sqlite3_close(ix->db);
    ix->db = NULL;
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    if (sqlite3_open_v2(name, &ix->db, flags, NULL) != SQLITE_OK)
        return br_index_fail(ix, "cannot open the index");
    sqlite3_busy_timeout(ix->db, 60000);
    sqlite3_extended_result_codes(ix->db, 0);
    return 0;
}

/* Remove the index file that cannot be trusted (and its journal), at its
 * own name in the results directory: an index is ours to rebuild. */
static void remove_index(br_index *ix) {
    sqlite3_close(ix->db);
    ix->db = NULL;
    char *journal = br_strfmt("%s-journal", ix->path);
    unlink(ix->path);
    if (journal)
        unlink(journal);
    free(journal);
}

/* Open the file index, replacing it once when it cannot be trusted.
 * Returns 0, -1 with the error set. */
static int open_file_index(br_index *ix) {
    for (int attempt = 0; attempt < 2; attempt++) {
        if (open_db(ix, ix->path) != 0)
            return -1;
        int ok = check_db(ix);
        if (ok == 1)
            return 0;
        if (ok == 0)
            return create_tables(ix);
        if (ok == -1)
            return -1;
        remove_index(ix);
        ix->rebuilt = 1;
    }
    return br_error_set("%s: the index is still unreadable after it was replaced", ix->path);
}

int br_index_open(br_index **out, const char *dir) {
    *out = NULL;
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return br_error_set("%s: cannot open directory: %s", dir,
                            errno && !S_ISDIR(st.st_mode) ? strerror(errno) : "not a directory");
    br_index *ix = calloc(1, sizeof *ix);
    if (!ix)
        return br_error_nomem();
    if (!(ix->dir = br_strdup(dir)) || !(ix->path = br_path_join(dir, BR_INDEX_NAME))) {
        br_index_close(ix);
        return -1;
    }
    if (access(dir, W_OK) != 0 || open_file_index(ix) != 0) {
        /* Read-only, or SQLite refused: an index in memory for this process. */
        if (open_db(ix, ":memory:") != 0 || create_tables(ix) != 0) {
            br_index_close(ix);
            return -1;
        }
        ix->in_memory = 1;
        br_error_clear();
    }
    *out = ix;
    return 0;
}

void br_index_close(br_index *ix) {
    if (!ix)
        return;
    if (ix->db)
        sqlite3_close(ix->db);
    for (size_t i = 0; i < ix->n_bad; i++)
        free(ix->bad[i]);
    free(ix->bad);
    free(ix->dir);
    free(ix->path);
    free(ix);
}

const char *br_index_dir(const br_index *ix) {
    return ix->dir;
}

const char *br_index_path(const br_index *ix) {
    return ix->in_memory ? ":memory:" : ix->path;
}

const char *const *br_index_bad(const br_index *ix, size_t *n_out) {
    *n_out = ix->n_bad;
    return (const char *const *)ix->bad;
}
