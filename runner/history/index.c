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
#include <sys/statfs.h>
#include <unistd.h>

#include "base/error.h"
#include "base/log.h"
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

/* What SQLite's code says of the index: damaged (a rebuild), or unusable
 * for this run. */
static index_trouble trouble_of(int code) {
    switch (code & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
    case SQLITE_IOERR:
    case SQLITE_READONLY:
    case SQLITE_FULL:
    case SQLITE_CANTOPEN:
    case SQLITE_PERM:
    case SQLITE_NOLFS:
    case SQLITE_NOMEM:
        return IX_UNUSABLE;
    default: /* CORRUPT, NOTADB, FORMAT, SCHEMA, MISMATCH, RANGE, ERROR (no such table) */
        return IX_DAMAGED;
    }
}

/* Set the error from ix's connection: "PATH: what: SQLite's message". */
int br_index_fail(br_index *ix, const char *what) {
    ix->trouble = ix->db ? trouble_of(sqlite3_errcode(ix->db)) : IX_UNUSABLE;
    return br_error_set("%s: %s: %s", ix->path, what, ix->db ? sqlite3_errmsg(ix->db) : "?");
}

int br_index_bad_value(br_index *ix, const char *what) {
    ix->trouble = IX_DAMAGED;
    return br_error_set("%s: an unexpected value in the index (%s)", ix->path, what);
}

int br_index_exec(br_index *ix, const char *sql) {
    char *msg = NULL;
    int code = sqlite3_exec(ix->db, sql, NULL, NULL, &msg);
    if (code == SQLITE_OK)
        return 0;
    ix->trouble = trouble_of(code);
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

/* What an index file at the index's name is. */
typedef enum db_state {
    DB_OURS = 0, /* a benchrun index of this layout, whole */
    DB_NEW,      /* empty: no table yet */
    DB_FOREIGN,  /* another program's database: left alone */
    DB_DAMAGED,  /* ours (or no database at all) but not to be trusted: rebuilt */
    DB_ERROR     /* SQLite failed otherwise (busy, I/O): error set */
} db_state;

/* Each table with every column the index reads: a statement that SQLite
 * prepares only when all are there. */
static const char *const shape[] = {
    "SELECT name, size, mtime_ns, ino, hash, error FROM file LIMIT 0",
    "SELECT id, file, idx, suite, date, git, unborn, sha, short_sha, branch, dirty, commit_time,"
    " has_device, device, cpu, metric, headline, peak_gbps, peak_gflops, params, kernels FROM run"
    " LIMIT 0",
    "SELECT run, ci, kernel, params, status, stage, message, bytes, flops, gbps, gflops, pct_peak,"
    " timed, n_samples, n, median, q1, q3, ci_low, ci_high, noise, min, max, mean, stddev, stop"
    " FROM kase LIMIT 0",
    "SELECT suite, device, key, hash, cps FROM cp LIMIT 0"};

/* Whether every table has its columns, and SQLite's quick_check (every
 * page, every record's format; https://sqlite.org/pragma.html#pragma_quick_check)
 * finds nothing: 0, or -1 with *why set. */
static int check_whole(br_index *ix, const char **why) {
    for (size_t i = 0; i < sizeof shape / sizeof *shape; i++) {
        sqlite3_stmt *st = NULL;
        int rc = sqlite3_prepare_v2(ix->db, shape[i], -1, &st, NULL);
        sqlite3_finalize(st);
        if (rc != SQLITE_OK) {
            *why = "a table or column is missing";
            return -1;
        }
    }
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(ix->db, "PRAGMA quick_check(1)", -1, &st, NULL);
    int ok = rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0) &&
             strcmp((const char *)sqlite3_column_text(st, 0), "ok") == 0;
    sqlite3_finalize(st);
    if (!ok)
        *why = "SQLite's quick_check finds it damaged";
    return ok ? 0 : -1;
}

/* What the open database is (see db_state); *why says why it is damaged. */
static db_state check_db(br_index *ix, const char **why) {
    int64_t app = 0, ver = 0, tables = 0;
    int code;
    *why = "";
    if (pragma_int(ix, "PRAGMA application_id", &app, &code) != 0 ||
        pragma_int(ix, "PRAGMA user_version", &ver, &code) != 0 ||
        pragma_int(ix, "SELECT count(*) FROM sqlite_master", &tables, &code) != 0) {
        if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT) {
            *why = code == SQLITE_NOTADB ? "not a database" : "SQLite finds it damaged";
            return DB_DAMAGED;
        }
        return DB_ERROR;
    }
    br_error_clear();
    if (tables == 0 && app == 0)
        return DB_NEW;
    if (app != APP_ID)
        return DB_FOREIGN;
    if (ver != BR_INDEX_VERSION) {
        *why = "another layout (user_version)";
        return DB_DAMAGED;
    }
    return check_whole(ix, why) == 0 ? DB_OURS : DB_DAMAGED;
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

/* SQLite's busy handler: wait while another process writes, saying so once
 * after a second; give up after BUSY_GIVE_UP_MS (then the index is built in
 * memory instead). */
#define BUSY_GIVE_UP_MS 60000
static int on_busy(void *ctx, int count) {
    br_index *ix = ctx;
    if (count * 10 >= BUSY_GIVE_UP_MS)
        return 0;
    if (count == 100)
        br_log(BR_LOG_NOTE, "benchrun: %s: waiting for another benchrun writing the index\n",
               ix->path);
    sqlite3_sleep(10);
    return 1;
}

static int open_db(br_index *ix, const char *name) {
    if (ix->db)
        sqlite3_close(ix->db);
    ix->db = NULL;
    /* One thread uses the connection (the sync's readers parse files and
     * never touch it): SQLite's multi-thread mode, without a mutex taken on
     * every call (https://sqlite.org/threadsafe.html), which cost a tenth of
     * a warm history's CPU. */
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
    if (sqlite3_open_v2(name, &ix->db, flags, NULL) != SQLITE_OK)
        return br_index_fail(ix, "cannot open the index");
    sqlite3_busy_handler(ix->db, on_busy, ix);
    sqlite3_extended_result_codes(ix->db, 0);
    return 0;
}

/* Remove the index file that cannot be trusted (and its journal), at its
 * own name: an index is ours to rebuild. */
static void remove_index(br_index *ix) {
    sqlite3_close(ix->db);
    ix->db = NULL;
    char *journal = br_strfmt("%s-journal", ix->path);
    unlink(ix->path);
    if (journal)
        unlink(journal);
    free(journal);
}

/* A new index file gets the group's write permission when the folder has
 * it, so that the others of a group-shared results folder can update it. */
static void share_with_group(const br_index *ix) {
    struct stat d;
    if (stat(ix->dir, &d) == 0 && (d.st_mode & S_IWGRP))
        chmod(ix->path, 0664);
}

/* Open the file index, replacing it once when it is damaged. Returns 0, 1
 * when it must not be used (a note said why: foreign, read-only), -1 with
 * the error set. */
static int open_file_index(br_index *ix) {
    for (int attempt = 0; attempt < 2; attempt++) {
        if (open_db(ix, ix->path) != 0)
            return -1;
        if (sqlite3_db_readonly(ix->db, "main") == 1) {
            br_log(BR_LOG_NOTE,
                   "benchrun: %s: not writable by this user: the index is built in "
                   "memory for this run\n",
                   ix->path);
            return 1;
        }
        const char *why;
        switch (check_db(ix, &why)) {
        case DB_OURS:
            return 0;
        case DB_NEW:
            share_with_group(ix);
            return create_tables(ix);
        case DB_FOREIGN:
            br_log(BR_LOG_NOTE,
                   "benchrun: %s: another program's database: left alone; the index "
                   "is built in memory for this run\n",
                   ix->path);
            return 1;
        case DB_ERROR:
            return -1;
        case DB_DAMAGED:
            break;
        }
        br_log(BR_LOG_NOTE,
               "benchrun: %s: the index is damaged (%s): rebuilt from the results "
               "files\n",
               ix->path, why);
        remove_index(ix);
        ix->rebuilt = 1;
    }
    return br_error_set("%s: the index is still unreadable after it was replaced", ix->path);
}

/* Where the index of dir lives (ix->path): DIR/BR_INDEX_NAME, or on a
 * network file system the user's cache (see index.h). Returns 0, or -1 with
 * the error set. */
static int index_location(br_index *ix) {
    if (!br_index_on_network_fs(ix->dir))
        return (ix->path = br_path_join(ix->dir, BR_INDEX_NAME)) ? 0 : -1;
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    char *real = realpath(ix->dir, NULL);
    char *cache = xdg && xdg[0] == '/'     ? br_strfmt("%s/benchrun/index", xdg)
                  : home && home[0] == '/' ? br_strfmt("%s/.cache/benchrun/index", home)
                                           : br_strfmt("/tmp/benchrun-index-%ld", (long)geteuid());
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (const char *p = real ? real : ix->dir; *p; p++)
        h = (h ^ (unsigned char)*p) * UINT64_C(0x100000001b3);
    if (cache && br_mkdir_p(cache) == 0)
        ix->path = br_strfmt("%s/%016llx.sqlite", cache, (unsigned long long)h);
    free(real);
    free(cache);
    return ix->path ? 0 : -1;
}

/* Whether the file at the index's name may be opened: nothing there, or a
 * regular file. A symbolic link or anything else is left alone, with a
 * note. */
static int index_name_usable(const br_index *ix) {
    struct stat st;
    if (lstat(ix->path, &st) != 0 || S_ISREG(st.st_mode))
        return 1;
    br_log(BR_LOG_NOTE, "benchrun: %s: %s: left alone; the index is built in memory for this run\n",
           ix->path, S_ISLNK(st.st_mode) ? "a symbolic link" : "not a regular file");
    return 0;
}

/* Move ix to an index in memory for this process. Returns 0, or -1. */
static int to_memory(br_index *ix) {
    if (open_db(ix, ":memory:") != 0 || create_tables(ix) != 0)
        return -1;
    ix->in_memory = 1;
    br_error_clear();
    return 0;
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
    if (!(ix->dir = br_strdup(dir)) || index_location(ix) != 0) {
        br_index_close(ix);
        return -1;
    }
    int rc = 1;
    if (!index_name_usable(ix))
        rc = 1;
    else if (strncmp(ix->path, dir, strlen(dir)) == 0 && access(dir, W_OK) != 0)
        br_log(BR_LOG_NOTE,
               "benchrun: %s: cannot write there: the index is built in memory for "
               "this run\n",
               dir);
    else if ((rc = open_file_index(ix)) < 0)
        br_log(BR_LOG_NOTE, "benchrun: %s: the index is built in memory for this run\n",
               br_error_get());
    if (rc != 0 && to_memory(ix) != 0) {
        br_index_close(ix);
        return -1;
    }
    *out = ix;
    return 0;
}

int br_index_recover(br_index *ix) {
    index_trouble t = (index_trouble)ix->trouble;
    if (t == IX_FINE)
        return -1;
    ix->trouble = IX_FINE;
    br_log(BR_LOG_NOTE, "benchrun: %s; the index is %s\n", br_error_get(),
           t == IX_DAMAGED && !ix->in_memory ? "rebuilt from the results files"
                                             : "built in memory for this run");
    br_error_clear();
    for (size_t i = 0; i < ix->n_bad; i++)
        free(ix->bad[i]);
    free(ix->bad);
    ix->bad = NULL;
    ix->n_bad = 0;
    if (t == IX_DAMAGED && !ix->in_memory) {
        remove_index(ix);
        ix->rebuilt = 1;
        int rc = index_name_usable(ix) ? open_file_index(ix) : 1;
        if (rc == 0)
            return 0;
    }
    return to_memory(ix);
}

int br_index_on_network_fs(const char *dir) {
    struct statfs fs;
    if (statfs(dir, &fs) != 0)
        return 0;
    switch ((unsigned long)fs.f_type) {
    case 0x6969UL:     /* NFS_SUPER_MAGIC */
    case 0xFF534D42UL: /* CIFS_MAGIC_NUMBER */
    case 0xFE534D42UL: /* SMB2_MAGIC_NUMBER */
    case 0x517BUL:     /* SMB_SUPER_MAGIC */
        return 1;
    default:
        return getenv("BENCHRUN_INDEX_NETWORK_FS") != NULL; /* Lustre, GPFS, ...: asked */
    }
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
