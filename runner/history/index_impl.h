/* SPDX-License-Identifier: Apache-2.0 */
/* What the files of the index (index.c, index_sync.c,
 * index_rows.c, index_cp.c) share: the handle and SQLite helpers. Not for
 * use outside runner/history/index*.c. */
#ifndef BR_HISTORY_INDEX_IMPL_H
#define BR_HISTORY_INDEX_IMPL_H

#include <sqlite3.h>

#include "index.h"

struct br_index {
    sqlite3 *db;
    char *dir;     /* as given */
    char *path;    /* dir/BR_INDEX_NAME */
    int in_memory; /* 1: the file could not be written; the index lives in memory */
    int rebuilt;   /* 1: an untrusted index was replaced on open */
    int trouble;   /* what the last failure was (index_trouble), for br_index_recover */
    char **bad;    /* "PATH: why" of each file that is not a results document */
    size_t n_bad;
};

/* What a failure of the index was. */
typedef enum index_trouble {
    IX_FINE = 0,    /* none, or not the index's (a results file, memory) */
    IX_DAMAGED = 1, /* the file is damaged: a rebuild */
    IX_UNUSABLE = 2 /* busy past the wait, an I/O error, read-only: memory for this run */
} index_trouble;

/* Set the error "PATH: an unexpected value in the index (what)" and mark
 * ix damaged; returns -1. */
int br_index_bad_value(br_index *ix, const char *what);

/* Run `sql` (several statements); 0, or -1 with the error set ("PATH: msg"). */
int br_index_exec(br_index *ix, const char *sql);

/* Set the error "PATH: what: SQLite's message"; returns -1. */
int br_index_fail(br_index *ix, const char *what);

/* Replace the rows of file `name` (stat fields and content hash as given)
 * with the runs runs[0..n), or with the message `error` when it is not a
 * results document (runs NULL), in the current transaction. Returns 0, or
 * -1 with the error set. */
int br_index_put_file(br_index *ix, const char *name, long long size, long long mtime_ns,
                      long long ino, const char *hash, const br_run *runs, size_t n,
                      const char *error);

#endif
