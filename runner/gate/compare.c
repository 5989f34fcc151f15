/* SPDX-License-Identifier: Apache-2.0 */
/* The comparison of a run with its baseline: cases matched by
 * key, the suite's priors of the between-run variance fitted, each case
 * judged (rules in compare.h and drift.h). */
#include "compare.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "case_key.h"
#include "drift.h"
#include "family.h"
#include "prior.h"
#include "model/regression.h"

/* ---- case identity ---------------------------------------------------------------------- */

char *br_compare_params_label(const br_run *r, const br_case_result *c) {
    const char *const *names = (const char *const *)r->param_names;
    size_t len = br_case_label(NULL, 0, NULL, names, c->params, r->n_params) + 1;
    char *s = malloc(len);
    if (!s) {
        br_error_nomem();
        return NULL;
    }
    br_case_label(s, len, NULL, names, c->params, r->n_params);
    return s;
}

/* ---- comparing -------------------------------------------------------------------------- */

/* The timing of case c compared under `clock`, or NULL (with *why) when it
 * has none. */
static const br_timing *compared_timing(const br_case_result *c, br_mode clock, int baseline,
                                        const char **why) {
    if (c->status == BR_STATUS_FAILED) {
        *why = baseline ? "failed in the baseline" : "failed in this run";
        return NULL;
    }
    if (c->status == BR_STATUS_SKIPPED) {
        *why = baseline ? "skipped in the baseline" : "skipped in this run";
        return NULL;
    }
    const br_timing *t = clock == BR_MODE_BATCH ? &c->batch : &c->cold;
    if (!t->present || t->n_samples == 0 || !t->samples) {
        *why = clock == BR_MODE_BATCH
                   ? (baseline ? "no batch timing in the baseline" : "no batch timing in this run")
                   : (baseline ? "no cold timing in the baseline" : "no cold timing in this run");
        return NULL;
    }
    return t;
}

/* Refuse rules out of range, and a baseline of another suite or (unless
 * force_device) device. *out_same_device: whether the devices match.
 * Returns 0, or -1 with the error set. */
static int check_pair(int *out_same_device, const br_run *base, const char *base_path,
                      const br_run *cur, const br_regression_cfg *rules, int force_device) {
    br_regression_cfg checked = *rules;
    if (checked.keep == 0) /* a comparison keeps nothing: keep is the save's */
        checked.keep = BR_DEFAULT_REGRESSION_KEEP;
    if (br_regression_check(&checked) != 0)
        return -1;
    if (!base->suite_name || !cur->suite_name || strcmp(base->suite_name, cur->suite_name) != 0)
        return br_error_set("%s: a baseline of suite '%s', not of '%s'", base_path,
                            base->suite_name ? base->suite_name : "?",
                            cur->suite_name ? cur->suite_name : "?");
    const char *bdev = br_baseline_device(base), *cdev = br_baseline_device(cur);
    *out_same_device = strcmp(bdev, cdev) == 0;
    if (!*out_same_device && !force_device)
        return br_error_set("%s: the baseline was measured on '%s', this run on '%s'; a "
                            "baseline from another device is not comparable (--force-device "
                            "compares anyway)",
                            base_path, bdev, cdev);
    return 0;
}

/* The next entry of out for case c of run r (case_index: its index in the
 * compared run, SIZE_MAX for a missing case), with its kernel and params and
 * no figures yet. NULL (error set) when out of memory. */
static br_compare_entry *new_entry(br_comparison *out, const br_run *r, const br_case_result *c,
                                   size_t case_index) {
    br_compare_entry *e = &out->entries[out->n_entries++];
    e->case_index = case_index;
    e->base_index = SIZE_MAX;
    e->base_median = e->cur_median = e->change = e->p_value = e->spread = NAN;
    e->p_runs = e->mde = e->base_mhz = e->cur_mhz = e->cycles_change = NAN;
    e->kernel = br_strdup(c->kernel < r->n_kernels ? r->kernels[c->kernel].name : "?");
    e->params = br_compare_params_label(r, c);
    return e->kernel && e->params ? e : NULL;
}

/* What the cases of each backend of base lend each other on `clock`
 * (drift.h, br_drift_pool), indexed by br_backend: a host kernel on a
 * shared CPU and a GPU kernel are different devices. The prior takes every
 * OK case with a timing, whether this run measured it or not, and the
 * run's scatter (scatter.h), the log ratio of each case this run measured
 * (cur_of[j]: the run's case matched to base case j, NULL for none); the
 * lenders chosen at `alpha`. Returns 0, or -1 (error set) when out of memory. */
static int fit_pools(br_drift_pool pools[2], const br_run *base,
                     const br_case_result *const *cur_of, br_mode clock, double alpha) {
    size_t n = base->n_cases ? base->n_cases : 1;
    double *s2 = malloc(n * sizeof *s2), *d = malloc(n * sizeof *d), *c = malloc(n * sizeof *c);
    double *x = malloc(n * sizeof *x);
    int rc = -1;
    if (!s2 || !d || !c || !x) {
        br_error_nomem();
        goto done;
    }
    for (int be = 0; be < 2; be++) {
        size_t m = 0;
        for (size_t j = 0; j < base->n_cases; j++) {
            const br_case_result *b = &base->cases[j];
            const char *why;
            const br_timing *t = compared_timing(b, clock, 1, &why);
            if (!t || b->kernel >= base->n_kernels || (int)base->kernels[b->kernel].backend != be)
                continue;
            br_drift_spread_of(&s2[m], &d[m], &c[m], t);
            const br_timing *ct = cur_of[j] ? compared_timing(cur_of[j], clock, 0, &why) : NULL;
            x[m] = ct && ct->clock == t->clock ? br_drift_log_ratio(t, ct) : NAN;
            m++;
        }
        if (br_drift_pool_fit(&pools[be], (br_backend)be, s2, d, c, x, m) != 0)
            goto done;
        pools[be].choice_alpha = alpha; /* one choice of spread for every pass (family.h) */
    }
    rc = 0;
done:
    free(s2);
    free(d);
    free(c);
    free(x);
    return rc;
}

/* Entry e of run case c against baseline case b (NULL: a new case; c NULL:
 * a missing one) on `clock`, with what base's cases lend (fit_pools). Returns
 * 0, or -1 with the error set. */
static int compare_case(br_compare_entry *e, const br_case_result *c, const br_case_result *b,
                        const br_run *base, br_mode clock, const br_regression_cfg *rules,
                        const br_drift_pool pools[2]) {
    const char *why = NULL;
    const br_timing *ct = c ? compared_timing(c, clock, 0, &why) : NULL;
    const br_timing *bt = b ? compared_timing(b, clock, 1, &why) : NULL;
    if (ct) {
        e->cur_median = ct->stats.median;
        e->cur_n = ct->n_samples;
    }
    if (bt) {
        e->base_median = bt->stats.median;
        e->base_n = bt->n_samples;
    }
    if (br_compare_skipped_no_gpu(e, c, b != NULL))
        return 0;
    if (!b || !c) {
        e->status = b ? BR_CHANGE_MISSING : BR_CHANGE_NEW;
        return 0;
    }
    if (ct && bt && ct->clock != bt->clock) {
        why = bt->clock == BR_CLOCK_KERNEL
                  ? "the baseline was timed on the kernel clock, this run on CUDA events"
              : ct->clock == BR_CLOCK_KERNEL
                  ? "the baseline was timed with CUDA events, this run on the kernel clock"
                  : "the baseline was timed on another clock";
        ct = NULL;
    }
    if (!ct || !bt) {
        e->status = BR_CHANGE_UNKNOWN;
        e->why = why;
        return 0;
    }
    int be = b->kernel < base->n_kernels && base->kernels[b->kernel].backend == BR_BACKEND_GPU;
    return br_drift_judge(e, bt, ct, rules, &pools[be]);
}

/* What judge_entry needs: the comparison being made and its two runs. */
typedef struct judging {
    br_comparison *out;
    const br_run *cur, *base;
    const br_drift_pool *pools;
} judging;

/* Entry i of the comparison judged under `rules` (br_family_judge_fn): its
 * run case and baseline case (case_index, base_index; either may be absent). */
static int judge_entry(size_t i, const br_regression_cfg *rules, void *ctx) {
    judging *j = ctx;
    br_compare_entry *e = &j->out->entries[i];
    const br_case_result *c =
        e->case_index < j->cur->n_cases ? &j->cur->cases[e->case_index] : NULL;
    const br_case_result *b =
        e->base_index < j->base->n_cases ? &j->base->cases[e->base_index] : NULL;
    if (compare_case(e, c, b, j->base, j->out->clock, rules, j->pools) != 0)
        return -1;
    /* Significant alone, not among the run's cases (family.h). */
    if (e->status == BR_CHANGE_SAME && rules->alpha < j->out->rules.alpha &&
        e->p_runs < j->out->rules.alpha && fabs(e->change) > rules->threshold)
        e->why = "not significant among the run's cases";
    return 0;
}

int br_baseline_compare(br_comparison *out, const br_run *base, const char *base_path,
                        const br_run *cur, const br_regression_cfg *rules, int force_device) {
    memset(out, 0, sizeof *out);
    int rc = -1, same_device;
    br_case_keys bk = {0};
    char *key = NULL;
    unsigned char *matched = NULL;
    size_t *match = NULL;
    const br_case_result **cur_of = NULL;
    br_drift_pool pools[2];
    if (check_pair(&same_device, base, base_path, cur, rules, force_device) != 0)
        return -1;

    out->baseline_path = br_strdup(base_path);
    out->baseline_device = br_strdup(br_baseline_device(base));
    if (base->git.present && !base->git.unborn && base->git.short_sha[0]) {
        out->baseline_commit = br_strdup(base->git.short_sha);
        snprintf(out->baseline_sha, sizeof out->baseline_sha, "%s", base->git.sha);
        out->baseline_dirty = base->git.dirty;
    }
    snprintf(out->baseline_date, sizeof out->baseline_date, "%s", base->date);
    out->device_forced = !same_device;
    out->rules = *rules;
    out->clock = cur->measure.headline == BR_MODE_BATCH ? BR_MODE_BATCH : BR_MODE_COLD;
    out->entries = calloc(cur->n_cases + base->n_cases + 1, sizeof *out->entries);
    matched = calloc(base->n_cases + 1, 1);
    match = calloc(cur->n_cases + 1, sizeof *match);
    cur_of = calloc(base->n_cases + 1, sizeof *cur_of);
    if (!out->baseline_path || !out->baseline_device || !out->entries || !matched || !match ||
        !cur_of) {
        br_error_set("out of memory comparing with %s", base_path);
        goto done;
    }
    if (br_case_keys_build(&bk, base) != 0)
        goto done;
    for (size_t i = 0; i < cur->n_cases; i++) { /* match first: the scatter needs every pair */
        if (!(key = br_baseline_case_key(cur, &cur->cases[i])))
            goto done;
        size_t j = br_case_keys_find(&bk, key, matched);
        free(key);
        key = NULL;
        match[i] = j;
        if (j != SIZE_MAX) {
            matched[j] = 1;
            cur_of[j] = &cur->cases[i];
        }
    }
    if (fit_pools(pools, base, cur_of, out->clock, rules->alpha) != 0)
        goto done;
    for (size_t i = 0; i < cur->n_cases; i++) { /* the run's cases, then the missing ones */
        br_compare_entry *e = new_entry(out, cur, &cur->cases[i], i);
        if (!e)
            goto done;
        e->base_index = match[i];
    }
    for (size_t j = 0; j < base->n_cases; j++) {
        br_compare_entry *e = matched[j] ? NULL : new_entry(out, base, &base->cases[j], SIZE_MAX);
        if (!matched[j] && !e)
            goto done;
        if (e)
            e->base_index = j;
    }
    judging ctx = {out, cur, base, pools};
    if (br_family_judge(&out->case_alpha, &out->cases_tested, out->entries, out->n_entries, rules,
                        judge_entry, &ctx) != 0)
        goto done;
    br_comparison_recount(out);
    rc = 0;
done:
    free(key);
    free(matched);
    free(match);
    free(cur_of);
    br_case_keys_dispose(&bk);
    return rc;
}

int br_compare_skipped_no_gpu(br_compare_entry *e, const br_case_result *c, int paired) {
    if (!c || c->status != BR_STATUS_SKIPPED || c->stage != BR_STAGE_NO_GPU)
        return 0;
    e->status = paired ? BR_CHANGE_UNKNOWN : BR_CHANGE_NEW;
    e->why = "skipped: no GPU";
    e->not_compared = "no GPU";
    return 1;
}

void br_comparison_recount(br_comparison *c) {
    memset(c->count, 0, sizeof c->count);
    c->n_no_gpu = c->n_left_out_k = c->n_left_out_p = 0;
    for (size_t i = 0; i < c->n_entries; i++) {
        const br_compare_entry *e = &c->entries[i];
        if (!e->not_compared)
            c->count[e->status]++;
        else if (strcmp(e->not_compared, "-k") == 0)
            c->n_left_out_k++;
        else if (strcmp(e->not_compared, "-p") == 0)
            c->n_left_out_p++;
        else
            c->n_no_gpu++;
    }
}

/* Whether case b of run base is outside the run's -p values: some override
 * names a param of base and b's value is not among its values. */
static int left_out_by_p(const br_run *base, const br_case_result *b,
                         const br_param_override *params, size_t n_params) {
    for (size_t o = 0; o < n_params; o++) {
        for (size_t p = 0; p < base->n_params; p++) {
            if (strcmp(base->param_names[p], params[o].name) != 0)
                continue;
            int found = 0;
            for (size_t v = 0; v < params[o].n_values && !found; v++)
                found = params[o].values[v] == b->params[p];
            if (!found)
                return 1;
        }
    }
    return 0;
}

void br_comparison_scope(br_comparison *c, const br_run *base, const char *const *patterns,
                         size_t n_patterns, const br_param_override *params, size_t n_params) {
    for (size_t i = 0; i < c->n_entries; i++) {
        br_compare_entry *e = &c->entries[i];
        if (e->status != BR_CHANGE_MISSING || e->base_index >= base->n_cases)
            continue;
        const br_case_result *b = &base->cases[e->base_index];
        if (n_patterns > 0 && br_glob_any(e->kernel ? e->kernel : "", patterns, n_patterns) == 0) {
            e->not_compared = "-k";
            e->why = "left out by -k";
        } else if (left_out_by_p(base, b, params, n_params)) {
            e->not_compared = "-p";
            e->why = "left out by -p";
        }
    }
    br_comparison_recount(c);
}

int br_baseline_fails(const br_comparison *c, br_fail_on fail_on) {
    if (!c)
        return 0;
    switch (fail_on) {
    case BR_FAIL_ON_SLOWER:
        return c->count[BR_CHANGE_SLOWER] > 0;
    case BR_FAIL_ON_ANY:
        return c->count[BR_CHANGE_SLOWER] > 0 || c->count[BR_CHANGE_FASTER] > 0;
    case BR_FAIL_ON_NEVER:
        return 0;
    }
    return 0;
}
