/* SPDX-License-Identifier: Apache-2.0 */
/* The change points of a history view: one series per
 * case and device (changepoint.h), the result kept in the view for the
 * table, the list and the plot (history.h), and in the index's cache
 * (index.h) when the history was read through it. */
#include "history.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/log.h"
#include "gate/case_key.h"
#include "model/metric.h"

int br_history_change_slower(const br_history_view *v, const br_history_change *c) {
    return br_metric_higher_is_better(v->metric) ? c->after < c->before : c->after > c->before;
}

/* Append to v->changes the change points cps[0..n) of row `row` on device
 * `dev` (indices into the view's runs). Returns 0, or -1 with the error set. */
static int add_changes(br_history_view *v, size_t *cap, size_t row, size_t dev,
                       const br_changepoint *cps, size_t n) {
    if (v->n_changes + n > *cap) {
        size_t want = *cap ? *cap : 8;
        while (want < v->n_changes + n)
            want *= 2;
        br_history_change *grown = realloc(v->changes, want * sizeof *grown);
        if (!grown)
            return br_error_nomem();
        v->changes = grown;
        *cap = want;
    }
    for (size_t k = 0; k < n; k++) {
        br_history_change *c = &v->changes[v->n_changes];
        *c = (br_history_change){row,           cps[k].index, cps[k].last, dev,
                                 cps[k].before, cps[k].after, cps[k].step, cps[k].p};
        br_history_view_cell(v, row, cps[k].index)->cp = v->n_changes++;
    }
    return 0;
}

/* The series of row `row` on device `dev` into x[0..v->n) (NAN where that
 * run is of another device or has no measured value); returns how many
 * values it has. */
static size_t row_series(double *x, const br_history_view *v, size_t row, size_t dev) {
    size_t n = 0;
    for (size_t j = 0; j < v->n; j++) {
        const br_history_cell *c = br_history_view_cell(v, row, j);
        const br_run *r = br_history_view_run(v, j);
        x[j] = v->dev[j] == dev && c->ci != BR_HISTORY_NONE
                   ? br_history_case_value(r, &r->cases[c->ci], v->metric)
                   : NAN;
        n += isfinite(x[j]) != 0;
    }
    return n;
}

/* The change points of x[0..v->n), the series of row `row` on device `dev`:
 * from the index's cache (*ix, may be NULL) when it holds this series, else
 * computed (and cached). The cache is never fatal: when it cannot be read
 * or written, a note says so and *ix becomes NULL (computed from then on).
 * Returns 0, or -1 with the error set. */
static int series_changes(br_changepoint **cps, size_t *n, br_history_view *v, br_index **ix,
                          size_t row, size_t dev, const double *x) {
    if (!*ix)
        return br_changepoint_find(cps, n, x, v->n, &v->cp_cfg);
    const br_run *r = br_history_view_run(v, v->rows[row].run);
    char *key = br_baseline_case_key(r, &r->cases[v->rows[row].ci]);
    if (!key)
        return -1;
    const char *suite = v->newest->suite_name ? v->newest->suite_name : "";
    uint64_t hash = br_index_series_hash(x, v->n, &v->cp_cfg);
    int got = br_index_cp_get(cps, n, *ix, suite, v->devices[dev], key, hash, v->n);
    int cache_failed = got < 0 && br_error_kind_get() != BR_E_NOMEM;
    if (got < 0 && !cache_failed) {
        free(key);
        return -1;
    }
    if (got <= 0) {
        got = br_changepoint_find(cps, n, x, v->n, &v->cp_cfg);
        if (got == 0 && !cache_failed &&
            br_index_cp_put(*ix, suite, v->devices[dev], key, hash, *cps, *n) != 0)
            cache_failed = br_error_kind_get() != BR_E_NOMEM;
    }
    if (cache_failed) {
        br_log(BR_LOG_NOTE, "benchrun: %s: the change point cache is not used: %s\n",
               br_index_path(*ix), br_error_get());
        br_error_clear();
        *ix = NULL;
    }
    free(key);
    return got < 0 ? -1 : 0;
}

int br_history_view_changes(br_history_view *v, const br_changepoint_cfg *cfg) {
    if (cfg)
        v->cp_cfg = *cfg;
    else
        br_changepoint_defaults(&v->cp_cfg);
    free(v->changes);
    v->changes = NULL;
    v->n_changes = v->n_series = v->n_short = 0;
    for (size_t row = 0; row < v->n_rows; row++)
        for (size_t j = 0; j < v->n; j++)
            br_history_view_cell(v, row, j)->cp = BR_HISTORY_NONE;
    double *x = malloc((v->n + 1) * sizeof *x);
    if (!x)
        return br_error_nomem();
    int rc = -1;
    size_t cap = 0;
    br_index *ix = v->h->index;
    if (ix && br_index_cp_begin(ix) != 0) {
        br_log(BR_LOG_NOTE, "benchrun: %s: the change point cache is not used: %s\n",
               br_index_path(ix), br_error_get());
        br_error_clear();
        ix = NULL;
    }
    br_index *began = ix;
    for (size_t row = 0; row < v->n_rows; row++) {
        for (size_t dev = 0; dev < v->n_devices; dev++) {
            size_t measured = row_series(x, v, row, dev);
            if (measured == 0)
                continue;
            v->n_series++;
            v->n_short += measured < 2 * v->cp_cfg.min_size;
            br_changepoint *cps = NULL;
            size_t n = 0;
            if (series_changes(&cps, &n, v, &ix, row, dev, x) != 0)
                goto done;
            int added = add_changes(v, &cap, row, dev, cps, n);
            free(cps);
            if (added != 0)
                goto done;
        }
    }
    rc = 0;
done:
    if (began && br_index_cp_end(began) != 0)
        br_error_clear(); /* the cache only: the change points stand */
    free(x);
    return rc;
}
