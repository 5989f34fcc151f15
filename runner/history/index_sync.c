/* SPDX-License-Identifier: Apache-2.0 */
/* index_sync.c - bring the index up to date with the *.json files of its
 * directory (index.h): unchanged files by their stat, touched ones by
 * their content hash, new and changed ones parsed, each in a transaction of
 * its own. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

/* The stored hash of file `name` (another process may have indexed it
 * since read_known) into hash[41]; "" when none. */
static int stored_hash(char hash[41], br_index *ix, const char *name) {
    sqlite3_stmt *st = NULL;
    hash[0] = '\0';
    if (sqlite3_prepare_v2(ix->db, "SELECT hash FROM file WHERE name = ?", -1, &st, NULL) !=
        SQLITE_OK)
        return br_index_fail(ix, "reading the index");
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW && sqlite3_column_text(st, 0))
        snprintf(hash, 41, "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : br_index_fail(ix, "reading the index");
}

/* Index one file whose stat changed: hash its bytes; parse it unless the
 * index holds that content already. */
static int index_file(br_index *ix, br_index_stats *s, const char *name, const char *path,
                      const struct stat *sb, const known *k) {
    char *text = NULL, hash[41], now[41];
    size_t len = 0;
    br_run *runs = NULL;
    size_t n = 0;
    int rc = -1;
    if (br_read_file(&text, &len, path, BR_RESULTS_MAX_BYTES) != 0)
        return -1;
    if (br_hash_blob(hash, text, len) != 0)
        goto done;
    long long mt = (long long)sb->st_mtim.tv_sec * 1000000000LL + sb->st_mtim.tv_nsec;
    int same = k && k->hash && strcmp(k->hash, hash) == 0;
    char *error = NULL;
    if (!same && br_results_parse(&runs, &n, text, len, path) != 0) {
        const char *e = br_error_get();
        size_t pl = strlen(path);
        error = br_strdup(strncmp(e, path, pl) == 0 && e[pl] == ':' ? e + pl + 2 : e);
        if (!error)
            goto done;
    }
    if (br_index_exec(ix, "BEGIN IMMEDIATE") != 0) {
        free(error);
        goto done;
    }
    if (stored_hash(now, ix, name) == 0 && (same || strcmp(now, hash) != 0)) {
        rc = br_index_put_file(ix, name, (long long)sb->st_size, mt, (long long)sb->st_ino, hash,
                               same ? NULL : runs, same ? 0 : n, same ? NULL : error);
        rc = rc == 0 && same ? 1 : rc;
    } else {
        rc = same ? 1 : 0; /* another process indexed this content meanwhile */
    }
    free(error);
    if (rc < 0 || br_index_exec(ix, "COMMIT") != 0) {
        sqlite3_exec(ix->db, "ROLLBACK", NULL, NULL, NULL);
        rc = -1;
        goto done;
    }
    if (rc == 1)
        s->rehashed++;
    else
        s->parsed++;
    rc = 0;
done:
    br_results_free(runs, n);
    free(text);
    return rc;
}

/* Forget the files of k that left the directory. */
static int forget_gone(br_index *ix, br_index_stats *s, known *k, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (k[i].seen || !k[i].name)
            continue;
        if (br_index_exec(ix, "BEGIN IMMEDIATE") != 0)
            return -1;
        int ok = br_index_put_file(ix, k[i].name, 0, 0, 0, NULL, NULL, 0, NULL) == 0;
        if (!ok || br_index_exec(ix, "COMMIT") != 0) {
            sqlite3_exec(ix->db, "ROLLBACK", NULL, NULL, NULL);
            return -1;
        }
        s->removed++;
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

int br_index_sync(br_index *ix, br_index_stats *st) {
    br_index_stats local = {0};
    br_index_stats *s = st ? st : &local;
    memset(s, 0, sizeof *s);
    s->rebuilt = ix->rebuilt;
    s->in_memory = ix->in_memory;
    struct dirent **names = NULL;
    known *k = NULL;
    size_t n_k = 0;
    char *path = NULL;
    int n_names = scandir(ix->dir, &names, is_json_name, alphasort), rc = -1;
    if (n_names < 0)
        return br_error_set("%s: cannot open directory: %s", ix->dir, strerror(errno));
    if (read_known(&k, &n_k, ix) != 0)
        goto done;
    for (int i = 0; i < n_names; i++) {
        const char *name = names[i]->d_name;
        struct stat sb;
        if (!(path = br_path_join(ix->dir, name)))
            goto done;
        if (stat(path, &sb) != 0) {
            br_error_set("%s: cannot read: %s", path, strerror(errno));
            goto done;
        }
        known *e = find_known(k, n_k, name);
        if (S_ISREG(sb.st_mode)) {
            s->files++;
            if (e)
                e->seen = 1;
            long long mt = (long long)sb.st_mtim.tv_sec * 1000000000LL + sb.st_mtim.tv_nsec;
            int fresh = e && e->hash && e->size == (long long)sb.st_size && e->mtime_ns == mt &&
                        e->ino == (long long)sb.st_ino;
            if (!fresh && index_file(ix, s, name, path, &sb, e) != 0)
                goto done;
        }
        free(path);
        path = NULL;
    }
    if (forget_gone(ix, s, k, n_k) != 0 || collect_bad(ix) != 0)
        goto done;
    s->bad = ix->n_bad;
    rc = 0;
done:
    free(path);
    known_free(k, n_k);
    for (int i = 0; i < n_names; i++)
        free(names[i]);
    free(names);
    return rc;
}
