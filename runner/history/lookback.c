/* SPDX-License-Identifier: Apache-2.0 */
/* A baseline from the last runs in a results directory
 * (lookback.h). */
#include "lookback.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "changepoint.h"
#include "gate/baseline.h"
#include "gate/case_key.h"
#include "history.h"

/* Most runs a case's level is looked for in (its last change point). */
#define LEVEL_RUNS BR_REGRESSION_KEEP_MAX

/* The runs picked from the history, oldest first, with their case keys. */
typedef struct picked {
    const br_run **run;
    br_case_keys *keys;
    size_t n;
} picked;

/* Timing t of case key `key` in every picked run into x[0..p->n) (its
 * median, NAN where a run did not measure it OK on that clock). */
static void series(double *x, const picked *p, const char *key, int batch, br_clock clock) {
    for (size_t i = 0; i < p->n; i++) {
        size_t j = br_case_keys_find(&p->keys[i], key, NULL);
        const br_case_result *c = j == SIZE_MAX ? NULL : &p->run[i]->cases[j];
        const br_timing *t = c ? (batch ? &c->batch : &c->cold) : NULL;
        x[i] =
            t && c->status == BR_STATUS_OK && t->present && t->clock == clock && t->stats.median > 0
                ? t->stats.median
                : NAN;
    }
}

/* t's run medians: the last `keep` finite values of x[0..n) after its last
 * change point (changepoint.h). Returns 0, or -1 with the error set. */
static int at_level(br_timing *t, double *x, size_t n, size_t keep) {
    br_changepoint *cp = NULL;
    size_t n_cp = 0;
    if (br_changepoint_find(&cp, &n_cp, x, n, NULL) != 0)
        return -1;
    size_t from = n_cp ? cp[n_cp - 1].index : 0, m = 0;
    free(cp);
    for (size_t i = from; i < n; i++)
        if (isfinite(x[i]))
            x[m++] = x[i];
    if (m == 0)
        return 0;
    size_t first = m > keep ? m - keep : 0;
    free(t->run_medians);
    t->n_run_medians = m - first;
    if (!(t->run_medians = malloc(t->n_run_medians * sizeof *t->run_medians)))
        return br_error_nomem();
    memcpy(t->run_medians, x + first, t->n_run_medians * sizeof *t->run_medians);
    return 0;
}

/* Each case of the merged baseline m keeps only the run medians of the
 * runs at its current level: after the last change point of its medians
 * over the picked runs, the last `keep` of them (issue 38: the last K runs
 * across a step made the gate deaf after a real change). Returns 0 or -1. */
static int keep_current_level(br_run *m, const picked *p, size_t keep) {
    double *x = malloc((p->n ? p->n : 1) * sizeof *x);
    if (!x)
        return br_error_nomem();
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < m->n_cases; i++) {
        br_case_result *c = &m->cases[i];
        char *key = br_baseline_case_key(m, c);
        if (!key) {
            rc = -1;
            break;
        }
        for (int b = 0; rc == 0 && b < 2; b++) {
            br_timing *t = b ? &c->batch : &c->cold;
            if (!t->present || t->n_run_medians == 0)
                continue;
            series(x, p, key, b, t->clock);
            rc = at_level(t, x, p->n, keep);
        }
        free(key);
    }
    free(x);
    return rc;
}

/* Whether history run h is at another commit than cur (see lookback.h). */
static int other_commit(const br_run *h, const br_run *cur) {
    if (!cur->git.present || cur->git.unborn || !cur->git.sha[0])
        return 1;
    if (!h->git.present || h->git.unborn || !h->git.sha[0])
        return 1;
    return strcmp(h->git.sha, cur->git.sha) != 0;
}

int br_history_baseline(br_run *out, size_t *out_runs, const char *dir, const br_run *cur,
                        size_t keep) {
    memset(out, 0, sizeof *out);
    *out_runs = 0;
    br_history h;
    br_history_filter f = {.suite = cur->suite_name};
    if (br_history_load(&h, dir, &f) != 0) {
        int none = br_error_kind_get() == BR_E_NOTFOUND;
        br_history_dispose(&h);
        return none ? 1 : -1;
    }
    /* The newest LEVEL_RUNS that qualify, newest first (h is in commit order). */
    size_t *pick = malloc((h.n_runs ? h.n_runs : 1) * sizeof *pick), n = 0;
    picked p = {0};
    int rc = -1;
    br_run acc;
    memset(&acc, 0, sizeof acc);
    if (!pick) {
        br_error_nomem();
        goto done;
    }
    const char *dev = br_baseline_device(cur);
    for (size_t i = h.n_runs; i-- > 0 && n < LEVEL_RUNS;) {
        const br_run *r = &h.runs[i].run;
        if (strcmp(br_baseline_device(r), dev) == 0 && other_commit(r, cur))
            pick[n++] = i;
    }
    if (n == 0) {
        rc = 1;
        goto done;
    }
    size_t merged = n < keep ? n : keep;
    for (size_t q = merged; q-- > 0;) { /* the newest `keep`, oldest first */
        br_run *r = &h.runs[pick[q]].run, next;
        r->regression.keep = keep;
        int mr = br_baseline_merge(&next, q + 1 < merged ? &acc : NULL, r, 0, NULL);
        br_run_dispose(&acc);
        acc = next;
        if (mr != 0)
            goto done;
    }
    p.run = calloc(n, sizeof *p.run);
    p.keys = calloc(n, sizeof *p.keys);
    if (!p.run || !p.keys) {
        br_error_nomem();
        goto done;
    }
    for (; p.n < n; p.n++) { /* every picked run, oldest first, for the levels */
        p.run[p.n] = &h.runs[pick[n - 1 - p.n]].run;
        if (br_case_keys_build(&p.keys[p.n], p.run[p.n]) != 0)
            goto done;
    }
    if (keep_current_level(&acc, &p, keep) != 0)
        goto done;
    *out = acc;
    memset(&acc, 0, sizeof acc);
    *out_runs = merged;
    rc = 0;
done:
    for (size_t i = 0; p.keys && i < p.n; i++)
        br_case_keys_dispose(&p.keys[i]);
    free(p.keys);
    free(p.run);
    br_run_dispose(&acc);
    free(pick);
    br_history_dispose(&h);
    return rc;
}
