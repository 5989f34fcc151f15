/* SPDX-License-Identifier: Apache-2.0 */
/* The change point cache of the index: per suite, device and
 * case, the change points of the last series analysed and its hash
 * (index.h). A row is seven doubles per change point (index, last, before,
 * after, step, p, q). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "index_impl.h"

#define FIELDS 7

uint64_t br_index_series_hash(const double *x, size_t n, const br_changepoint_cfg *cfg) {
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    const double head[] = {(double)n, cfg->alpha, (double)cfg->min_size, cfg->min_step};
    for (size_t k = 0; k < 4 + n; k++) {
        double v = k < 4 ? head[k] : x[k - 4];
        unsigned char b[sizeof v];
        if (isnan(v))
            v = NAN; /* one NaN for every missing run */
        memcpy(b, &v, sizeof v);
        for (size_t i = 0; i < sizeof b; i++) {
            h ^= b[i];
            h *= UINT64_C(0x100000001b3);
        }
    }
    return h;
}

/* Whether the change points v[0..n) (FIELDS doubles each) of a series of
 * n_series values are ones the analysis could have found (changepoint.h):
 * each last < index < n_series, whole numbers, indexes increasing; the
 * levels finite, the step finite or NaN (a level of 0 before), p in
 * [0, 1], q finite. */
static int cps_valid(const double *v, size_t n, size_t n_series) {
    double prev = -1;
    for (size_t k = 0; k < n; k++) {
        const double *f = v + FIELDS * k;
        for (size_t j = 0; j < FIELDS; j++)
            if (j != 4 && !isfinite(f[j]))
                return 0;
        if (f[1] < 0 || f[0] != floor(f[0]) || f[1] != floor(f[1]) || f[1] >= f[0] ||
            f[0] >= (double)n_series || f[0] <= prev)
            return 0;
        if (isinf(f[4]) || f[5] < 0 || f[5] > 1)
            return 0;
        prev = f[0];
    }
    return 1;
}

int br_index_cp_get(br_changepoint **out, size_t *n_out, br_index *ix, const char *suite,
                    const char *device, const char *key, uint64_t hash, size_t n_series) {
    *out = NULL;
    *n_out = 0;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(ix->db,
                           "SELECT hash, cps FROM cp WHERE suite = ? AND device = ? AND key = ?",
                           -1, &st, NULL) != SQLITE_OK)
        return br_index_fail(ix, "reading the index");
    sqlite3_bind_text(st, 1, suite, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, device, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, key, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st), found = 0;
    if (rc == SQLITE_ROW && (uint64_t)sqlite3_column_int64(st, 0) == hash) {
        const void *blob = sqlite3_column_blob(st, 1);
        size_t bytes = (size_t)sqlite3_column_bytes(st, 1), n = bytes / (FIELDS * sizeof(double));
        double *v = n ? malloc(bytes) : NULL;
        if (n && !v) {
            sqlite3_finalize(st);
            return br_error_nomem();
        }
        if (n && blob)
            memcpy(v, blob, bytes); /* a blob need not be aligned for doubles */
        /* A row that is not n whole, valid change points is not used (and
         * is replaced by the caller's br_index_cp_put). */
        br_changepoint *cps = n ? calloc(n, sizeof *cps) : NULL;
        if (n && !cps) {
            free(v);
            sqlite3_finalize(st);
            return br_error_nomem();
        }
        if (bytes % (FIELDS * sizeof(double)) == 0 && (n == 0 || blob) &&
            cps_valid(v, n, n_series)) {
            for (size_t k = 0; k < n; k++) {
                const double *f = v + FIELDS * k;
                cps[k] = (br_changepoint){(size_t)f[0], (size_t)f[1], f[2], f[3], f[4], f[5], f[6]};
            }
            *out = cps;
            *n_out = n;
            found = 1;
        } else
            free(cps);
        free(v);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return br_index_fail(ix, "reading the index");
    return found;
}

int br_index_cp_put(br_index *ix, const char *suite, const char *device, const char *key,
                    uint64_t hash, const br_changepoint *cps, size_t n) {
    double *v = malloc((FIELDS * n + 1) * sizeof *v);
    if (!v)
        return br_error_nomem();
    for (size_t k = 0; k < n; k++) {
        double *f = v + FIELDS * k;
        f[0] = (double)cps[k].index;
        f[1] = (double)cps[k].last;
        f[2] = cps[k].before;
        f[3] = cps[k].after;
        f[4] = cps[k].step;
        f[5] = cps[k].p;
        f[6] = cps[k].q;
    }
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(ix->db,
                                "INSERT OR REPLACE INTO cp(suite, device, key, hash, cps) "
                                "VALUES(?,?,?,?,?)",
                                -1, &st, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_text(st, 1, suite, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, device, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 3, key, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 4, (int64_t)hash);
        sqlite3_bind_blob(st, 5, v, (int)(FIELDS * n * sizeof *v), SQLITE_STATIC);
        rc = sqlite3_step(st);
    }
    sqlite3_finalize(st);
    free(v);
    return rc == SQLITE_DONE ? 0 : br_index_fail(ix, "writing the change point cache");
}

int br_index_cp_begin(br_index *ix) {
    return br_index_exec(ix, "BEGIN IMMEDIATE");
}

int br_index_cp_end(br_index *ix) {
    if (br_index_exec(ix, "COMMIT") == 0)
        return 0;
    sqlite3_exec(ix->db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}
