/* SPDX-License-Identifier: Apache-2.0 */
/* Bring the index up to date with the *.json files of its
 * directory (index.h): unchanged files by their stat, touched ones by
 * their content hash (their runs kept), new and changed ones parsed on a
 * thread per CPU, and all stored in one transaction, in which each file's
 * stat and row are checked again (another process may have changed either
 * since they were read). */
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/util.h"
#include "index_impl.h"
#include "results/run_read.h"

/* A file row of the index. */
typedef struct known {
    char *name, *hash, *error;
    long long size, mtime_ns, ino;
    int seen;
} known;

static void known_free(known *k, size_t n) {
    for (size_t i = 0; k && i < n; i++) {
        free(k[i].name);
        free(k[i].hash);
        free(k[i].error);
    }
    free(k);
}

static char *col_text(sqlite3_stmt *st, int i) {
    const unsigned char *t = sqlite3_column_text(st, i);
    return t ? br_strdup((const char *)t) : NULL;
}

/* Every file row, in name order, into *out. */
static int read_known(known **out, size_t *n_out, br_index *ix) {
    sqlite3_stmt *st = NULL;
    known *k = NULL;
    size_t n = 0, cap = 0;
    int rc;
    *out = NULL;
    *n_out = 0;
    if (sqlite3_prepare_v2(ix->db,
                           "SELECT name, size, mtime_ns, ino, hash, error FROM file ORDER BY name",
                           -1, &st, NULL) != SQLITE_OK)
        return br_index_fail(ix, "reading the index");
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            known *g = realloc(k, cap * sizeof *g);
            if (!g) {
                sqlite3_finalize(st);
                known_free(k, n);
                return br_error_nomem();
            }
            k = g;
        }
        known *e = &k[n++];
        memset(e, 0, sizeof *e);
        e->name = col_text(st, 0);
        e->size = sqlite3_column_int64(st, 1);
        e->mtime_ns = sqlite3_column_int64(st, 2);
        e->ino = sqlite3_column_int64(st, 3);
        e->hash = col_text(st, 4);
        e->error = col_text(st, 5);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        known_free(k, n);
        return br_index_fail(ix, "reading the index");
    }
    *out = k;
    *n_out = n;
    return 0;
}

static known *find_known(known *k, size_t n, const char *name) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(k[mid].name ? k[mid].name : "", name);
        if (c == 0)
            return &k[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

static int is_json_name(const struct dirent *d) {
    return d->d_name[0] != '.' && br_has_suffix(d->d_name, ".json");
}

/* What stat says of a file: enough to tell that it changed. */
typedef struct stamp {
    long long size, mtime_ns, ino;
} stamp;

static stamp stamp_of(const struct stat *sb) {
    stamp t = {(long long)sb->st_size,
               (long long)sb->st_mtim.tv_sec * 1000000000LL + sb->st_mtim.tv_nsec,
               (long long)sb->st_ino};
    return t;
}

static int same_stamp(stamp a, stamp b) {
    return a.size == b.size && a.mtime_ns == b.mtime_ns && a.ino == b.ino;
}

/* The file row of `name` as stored now (another process may have written
 * it since read_known): *has 1 and its hash and stamp, or *has 0. */
static int stored_row(int *has, char hash[41], stamp *t, br_index *ix, const char *name) {
    sqlite3_stmt *st = NULL;
    *has = 0;
    hash[0] = '\0';
    if (sqlite3_prepare_v2(ix->db, "SELECT hash, size, mtime_ns, ino FROM file WHERE name = ?", -1,
                           &st, NULL) != SQLITE_OK)
        return br_index_fail(ix, "reading the index");
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *has = 1;
        if (sqlite3_column_text(st, 0))
            snprintf(hash, 41, "%s", (const char *)sqlite3_column_text(st, 0));
        t->size = sqlite3_column_int64(st, 1);
        t->mtime_ns = sqlite3_column_int64(st, 2);
        t->ino = sqlite3_column_int64(st, 3);
    }
    sqlite3_finalize(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : br_index_fail(ix, "reading the index");
}

/* A touched file of the same content: its new stamp, its runs kept. */
static int put_stamp(br_index *ix, const char *name, stamp t) {
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(ix->db, "UPDATE file SET size = ?, mtime_ns = ?, ino = ? WHERE name = ?",
                           -1, &st, NULL) != SQLITE_OK)
        return br_index_fail(ix, "writing the index");
    sqlite3_bind_int64(st, 1, t.size);
    sqlite3_bind_int64(st, 2, t.mtime_ns);
    sqlite3_bind_int64(st, 3, t.ino);
    sqlite3_bind_text(st, 4, name, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : br_index_fail(ix, "writing the index");
}

/* One reading of a file: the hash of its bytes and, when parsed, its runs
 * or the message saying why it is not a results document. */
typedef struct reading {
    char hash[41];
    int parsed;
    br_run *runs;
    size_t n;
    char *error;
} reading;

static void reading_free(reading *r) {
    br_results_free(r->runs, r->n);
    free(r->error);
    memset(r, 0, sizeof *r);
}

/* What commit_one did. */
typedef enum { PUT_DONE, PUT_AGAIN, PUT_PARSE, PUT_GONE } put_outcome;

/* Read and hash the file at `path`; parse it too unless its hash is
 * `known_hash` (may be NULL). Returns 0, PUT_GONE when the file is gone,
 * -1 with the error set. */
static int read_one(reading *r, const char *path, const char *known_hash) {
    char *text = NULL;
    size_t len = 0;
    memset(r, 0, sizeof *r);
    if (br_read_file(&text, &len, path, BR_RESULTS_MAX_BYTES) != 0) {
        struct stat sb;
        return stat(path, &sb) != 0 && errno == ENOENT ? PUT_GONE : -1;
    }
    int rc = br_hash_blob(r->hash, text, len) == 0 ? 0 : -1;
    r->parsed = rc == 0 && !(known_hash && strcmp(known_hash, r->hash) == 0);
    if (r->parsed && br_results_parse(&r->runs, &r->n, text, len, path) != 0) {
        const char *e = br_error_get();
        size_t pl = strlen(path);
        r->error = br_strdup(strncmp(e, path, pl) == 0 && e[pl] == ':' ? e + pl + 2 : e);
        rc = r->error ? 0 : -1;
    }
    free(text);
    return rc;
}

/* Under the sync's transaction: store reading r of file `name` taken at
 * stamp `at`, unless the file changed since `at` (PUT_AGAIN, *at its new
 * stamp) or is gone (PUT_GONE), or the index holds other content for it
 * and r was not parsed (PUT_PARSE). Returns the outcome, or -1 with the
 * error set. */
static int store_one(br_index *ix, br_index_stats *s, const char *name, const char *path, stamp *at,
                     const reading *r) {
    /* Under the lock: the file as it is now, and its row as stored now. */
    struct stat sb;
    char hash[41];
    stamp row = {0};
    int has = 0, out = -1;
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
        out = PUT_GONE;
    else if (!same_stamp(stamp_of(&sb), *at)) {
        *at = stamp_of(&sb); /* it changed while it was read */
        out = PUT_AGAIN;
    } else if (stored_row(&has, hash, &row, ix, name) != 0)
        out = -1;
    else if (has && strcmp(hash, r->hash) == 0) {
        out = same_stamp(row, *at) || put_stamp(ix, name, *at) == 0 ? PUT_DONE : -1;
        s->rehashed += out == PUT_DONE && !r->parsed;
        s->parsed += out == PUT_DONE && r->parsed;
    } else if (!r->parsed)
        out = PUT_PARSE;
    else if (br_index_put_file(ix, name, at->size, at->mtime_ns, at->ino, r->hash, r->runs, r->n,
                               r->error) == 0) {
        out = PUT_DONE;
        s->parsed++;
    }
    return out;
}

/* How often a file that changes while it is read is read again before the
 * sync leaves it to the next one (whoever is writing it). */
#define READ_TRIES 8

/* A file to index: its stamp (`at`, taken before reading) differs from
 * its row k (NULL: none). */
typedef struct pending {
    const char *name;
    char *path;
    stamp at;
    known *k;
    reading r;   /* the first reading, made by a parse thread */
    int read_rc; /* read_one's return */
    char *error; /* its error when -1 */
} pending;

/* Store a file's first reading p->r, and read it again while it changes
 * under the reader (or its row changed and it must be parsed after all):
 * a slow reader never writes over what another process read later.
 * Returns 0 (indexed, or left to the next sync), 1 when the file is gone,
 * -1 with the error set. */
static int index_file(br_index *ix, br_index_stats *s, pending *p) {
    const char *known_hash = p->k ? p->k->hash : NULL;
    int rc = p->read_rc;
    for (int t = 0; t < READ_TRIES; t++) {
        if (t > 0)
            rc = read_one(&p->r, p->path, known_hash);
        if (rc == 0)
            rc = store_one(ix, s, p->name, p->path, &p->at, &p->r);
        reading_free(&p->r);
        if (rc < 0)
            return -1;
        if (rc == PUT_DONE || rc == PUT_GONE)
            return rc == PUT_GONE;
        if (rc == PUT_PARSE)
            known_hash = NULL;
    }
    return 0;
}

/* Forget the files of k that left the directory: each checked again
 * under the sync's transaction, since the listing may be older than a file
 * that another process wrote and indexed meanwhile. */
static int forget_gone(br_index *ix, br_index_stats *s, known *k, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (k[i].seen || !k[i].name)
            continue;
        char *path = br_path_join(ix->dir, k[i].name);
        if (!path)
            return -1;
        struct stat sb;
        int gone = stat(path, &sb) != 0 || !S_ISREG(sb.st_mode);
        free(path);
        if (gone && br_index_put_file(ix, k[i].name, 0, 0, 0, NULL, NULL, 0, NULL) != 0)
            return -1;
        s->removed += gone;
    }
    return 0;
}

/* The messages of the files that are not results documents into ix->bad. */
static int collect_bad(br_index *ix) {
    for (size_t i = 0; i < ix->n_bad; i++)
        free(ix->bad[i]);
    free(ix->bad);
    ix->bad = NULL;
    ix->n_bad = 0;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(ix->db,
                           "SELECT name, error FROM file WHERE error IS NOT NULL ORDER BY name", -1,
                           &st, NULL) != SQLITE_OK)
        return br_index_fail(ix, "reading the index");
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        char **g = realloc(ix->bad, (ix->n_bad + 1) * sizeof *g);
        char *path = g ? br_path_join(ix->dir, (const char *)sqlite3_column_text(st, 0)) : NULL;
        char *msg = path ? br_strfmt("%s: %s", path, sqlite3_column_text(st, 1)) : NULL;
        free(path);
        if (g)
            ix->bad = g;
        if (!msg) {
            sqlite3_finalize(st);
            return br_error_nomem();
        }
        ix->bad[ix->n_bad++] = msg;
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : br_index_fail(ix, "reading the index");
}

/* The parse threads: each reads (hashes, parses) the next file of p[0..n). */
typedef struct readers {
    pending *p;
    size_t n, next;
    pthread_mutex_t lock;
} readers;

static void *reader_main(void *arg) {
    readers *rd = arg;
    for (;;) {
        pthread_mutex_lock(&rd->lock);
        size_t i = rd->next++;
        pthread_mutex_unlock(&rd->lock);
        if (i >= rd->n)
            return NULL;
        pending *p = &rd->p[i];
        p->read_rc = read_one(&p->r, p->path, p->k ? p->k->hash : NULL);
        if (p->read_rc < 0 && !(p->error = br_strdup(br_error_get()))) /* errors are per thread */
            p->error = NULL;
    }
}

/* Threads that parse files at once: one per CPU, at most this many. */
#define MAX_READERS 16
/* Files read ahead of the transaction at a time (their runs are held). */
#define BATCH_PER_READER 8

/* Read p[0..n) on one thread per CPU (this one among them). */
static void read_all(pending *p, size_t n) {
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    size_t t = cpus < 1 ? 1 : cpus > MAX_READERS ? MAX_READERS : (size_t)cpus;
    t = t < n ? t : n;
    readers rd = {p, n, 0, PTHREAD_MUTEX_INITIALIZER};
    pthread_t th[MAX_READERS];
    int started[MAX_READERS] = {0};
    json_object_seed(0); /* before any thread makes a JSON object (jansson's advice) */
    for (size_t k = 1; k < t; k++)
        started[k] = pthread_create(&th[k], NULL, reader_main, &rd) == 0;
    reader_main(&rd);
    for (size_t k = 1; k < t; k++)
        if (started[k])
            pthread_join(th[k], NULL);
}

/* After index_file failed: when the failure is the file's own (it cannot
 * be read: no permission, larger than the results limit, an I/O error),
 * not the index's nor memory, keep its message for this sync's list of
 * bad files and return 0; else -1 (the error stays). */
static int skip_unreadable(br_index *ix, char ***skipped, size_t *n) {
    if (ix->trouble != IX_FINE || br_error_kind_get() == BR_E_NOMEM)
        return -1;
    char **g = realloc(*skipped, (*n + 1) * sizeof *g);
    if (!g)
        return -1;
    *skipped = g;
    if (!(g[*n] = br_strdup(br_error_get())))
        return -1;
    (*n)++;
    br_error_clear();
    return 0;
}

/* Add the messages skipped[0..n) to ix->bad, which collect_bad filled. */
static int add_skipped(br_index *ix, char **skipped, size_t n) {
    if (n == 0)
        return 0;
    char **g = realloc(ix->bad, (ix->n_bad + n) * sizeof *g);
    if (!g)
        return br_error_nomem();
    ix->bad = g;
    for (size_t i = 0; i < n; i++) {
        ix->bad[ix->n_bad++] = skipped[i];
        skipped[i] = NULL;
    }
    return 0;
}

/* Index the pending files p[0..n) and forget the rows of files that left,
 * all in one transaction: the files read in batches on parallel threads,
 * each stored (or read again) under the lock in name order. */
static int index_pending(br_index *ix, br_index_stats *s, pending *p, size_t n, known *k,
                         size_t n_k, char ***skipped, size_t *n_skipped) {
    if (br_index_exec(ix, "BEGIN IMMEDIATE") != 0)
        return -1;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    size_t batch = BATCH_PER_READER * (cpus < 1 ? 1 : cpus > MAX_READERS ? MAX_READERS : cpus);
    int rc = 0;
    for (size_t b = 0; b < n && rc == 0; b += batch) {
        size_t m = n - b < batch ? n - b : batch;
        read_all(p + b, m);
        for (size_t i = b; i < b + m && rc == 0; i++) {
            if (p[i].read_rc < 0 && p[i].error)
                br_error_set("%s", p[i].error);
            int gone = index_file(ix, s, &p[i]);
            if (gone < 0 && skip_unreadable(ix, skipped, n_skipped) == 0)
                gone = 0; /* listed with the bad files, its row (if any) kept */
            if (gone < 0)
                rc = -1;
            s->files += gone == 0;
            if (p[i].k && gone == 0)
                p[i].k->seen = 1;
        }
    }
    if (rc != 0 || forget_gone(ix, s, k, n_k) != 0 || br_index_exec(ix, "COMMIT") != 0) {
        char keep[BR_ERROR_MAX];
        snprintf(keep, sizeof keep, "%s", br_error_get());
        sqlite3_exec(ix->db, "ROLLBACK", NULL, NULL, NULL);
        return br_error_set("%s", keep);
    }
    return 0;
}

static void pending_free(pending *p, size_t n) {
    for (size_t i = 0; p && i < n; i++) {
        reading_free(&p[i].r);
        free(p[i].path);
        free(p[i].error);
    }
    free(p);
}

int br_index_sync(br_index *ix, br_index_stats *st) {
    br_index_stats local = {0};
    br_index_stats *s = st ? st : &local;
    memset(s, 0, sizeof *s);
    ix->trouble = IX_FINE;
    s->rebuilt = ix->rebuilt;
    s->in_memory = ix->in_memory;
    struct dirent **names = NULL;
    known *k = NULL;
    pending *p = NULL;
    size_t n_k = 0, n_p = 0, unseen = 0, n_skipped = 0;
    char *path = NULL, **skipped = NULL;
    int n_names = scandir(ix->dir, &names, is_json_name, alphasort), rc = -1;
    if (n_names < 0)
        return br_error_set("%s: cannot open directory: %s", ix->dir, strerror(errno));
    if (read_known(&k, &n_k, ix) != 0 || !(p = calloc(n_names + 1, sizeof *p))) {
        if (!p && k)
            br_error_nomem();
        goto done;
    }
    for (int i = 0; i < n_names; i++) {
        const char *name = names[i]->d_name;
        struct stat sb;
        if (!(path = br_path_join(ix->dir, name)))
            goto done;
        int there = stat(path, &sb) == 0; /* not there: gone since the listing */
        if (!there && errno != ENOENT) {
            br_error_set("%s: cannot read: %s", path, strerror(errno));
            goto done;
        }
        known *e = find_known(k, n_k, name);
        if (there && S_ISREG(sb.st_mode)) {
            stamp at = stamp_of(&sb);
            stamp row = {e ? e->size : 0, e ? e->mtime_ns : 0, e ? e->ino : 0};
            if (e && e->hash && same_stamp(row, at)) {
                s->files++;
                e->seen = 1;
            } else {
                p[n_p++] = (pending){.name = name, .path = path, .at = at, .k = e};
                path = NULL;
            }
        }
        free(path);
        path = NULL;
    }
    for (size_t i = 0; i < n_k; i++)
        unseen += !k[i].seen && k[i].name;
    if ((n_p || unseen) && index_pending(ix, s, p, n_p, k, n_k, &skipped, &n_skipped) != 0)
        goto done;
    if (collect_bad(ix) != 0 || add_skipped(ix, skipped, n_skipped) != 0)
        goto done;
    s->bad = ix->n_bad;
    rc = 0;
done:
    free(path);
    for (size_t i = 0; i < n_skipped; i++)
        free(skipped[i]);
    free(skipped);
    pending_free(p, n_p);
    known_free(k, n_k);
    for (int i = 0; i < n_names; i++)
        free(names[i]);
    free(names);
    return rc;
}
