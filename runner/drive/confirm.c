/* SPDX-License-Identifier: Apache-2.0 */
/* The gate's A/B confirmation as a driver (confirm.h). */
#include "confirm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ab.h"
#include "base/error.h"
#include "base/log.h"
#include "base/sort.h"
#include "base/util.h"
#include "gate/case_key.h"
#include "gate/compare.h"
#include "gate/confirm.h"
#include "results/gittree.h"

/* One case the screen flagged: its entry in the comparison, its key, and
 * the A/B's block medians (owned) once measured. */
typedef struct flag {
    size_t entry;
    char *key;
    double *old_med, *new_med;
    size_t pairs;
} flag;

/* A confirmation in progress. */
typedef struct confirming {
    const br_run *r;
    br_comparison *cmp; /* the screen's */
    flag *f;
    size_t n;
} confirming;

/* Why the baseline of `cmp` cannot be checked out for run r, into buf;
 * 0 when it can. */
static int why_not(char *buf, size_t len, const br_comparison *cmp, const br_run *r) {
    if (!cmp->baseline_sha[0])
        snprintf(buf, len, "the baseline names no commit (it was saved outside git)");
    else if (cmp->baseline_dirty)
        snprintf(buf, len,
                 "the baseline was saved from a modified work tree at %s: that code cannot be "
                 "checked out",
                 cmp->baseline_commit ? cmp->baseline_commit : cmp->baseline_sha);
    else if (!r->git.present)
        snprintf(buf, len, "%s is not in a git repository", r->suite_path);
    else if (br_git_has_commit(r->suite_path, cmp->baseline_sha) != 0)
        snprintf(buf, len, "%s", br_error_get());
    else
        return 0;
    return 1;
}

/* The entries the screen found slower or faster into c->f. Returns 0 or -1. */
static int gather(confirming *c) {
    const br_comparison *cmp = c->cmp;
    c->f = calloc(cmp->n_entries + 1, sizeof *c->f);
    if (!c->f)
        return br_error_nomem();
    for (size_t i = 0; i < cmp->n_entries; i++) {
        const br_compare_entry *e = &cmp->entries[i];
        if (e->not_compared || e->case_index >= c->r->n_cases ||
            (e->status != BR_CHANGE_SLOWER && e->status != BR_CHANGE_FASTER))
            continue;
        flag *f = &c->f[c->n++];
        f->entry = i;
        if (!(f->key = br_baseline_case_key(c->r, &c->r->cases[e->case_index])))
            return -1;
    }
    return 0;
}

/* br_ab_opts.done: the block medians of each flagged case from NEW's
 * comparison (abcompare.h). */
static int collect(void *ctx, const br_run *old_run, const br_run *new_run) {
    (void)old_run;
    confirming *c = ctx;
    const br_comparison *ab = new_run->comparison;
    for (size_t j = 0; j < ab->n_entries; j++) {
        const br_compare_entry *e = &ab->entries[j];
        if (e->case_index >= new_run->n_cases || e->pairs == 0)
            continue;
        char *key = br_baseline_case_key(new_run, &new_run->cases[e->case_index]);
        if (!key)
            return -1;
        for (size_t i = 0; i < c->n; i++) {
            flag *f = &c->f[i];
            if (strcmp(f->key, key) != 0 || f->pairs)
                continue;
            f->old_med = malloc(e->pairs * sizeof *f->old_med);
            f->new_med = malloc(e->pairs * sizeof *f->new_med);
            if (!f->old_med || !f->new_med) {
                free(key);
                return br_error_nomem();
            }
            memcpy(f->old_med, e->old_blocks, e->pairs * sizeof *f->old_med);
            memcpy(f->new_med, e->new_blocks, e->pairs * sizeof *f->new_med);
            f->pairs = e->pairs;
        }
        free(key);
    }
    return 0;
}

/* Measure the flagged cases against the baseline's commit (ab.h). Returns
 * br_ab_run's status (0, or -1 with the error said). */
static int measure(confirming *c, const br_gate_opts *g, const br_run_opts *run, int quiet) {
    const char **pats = calloc(c->n + 1, sizeof *pats);
    if (!pats)
        return br_error_nomem();
    size_t np = 0;
    for (size_t i = 0; i < c->n; i++) {
        const char *k = c->cmp->entries[c->f[i].entry].kernel;
        int seen = 0;
        for (size_t j = 0; j < np && !seen; j++)
            seen = strcmp(pats[j], k) == 0;
        if (!seen)
            pats[np++] = k;
    }
    char **keys = calloc(c->n + 1, sizeof *keys);
    if (!keys) {
        free(pats);
        return br_error_nomem();
    }
    for (size_t i = 0; i < c->n; i++)
        keys[i] = c->f[i].key;
    const char *suites[] = {c->r->suite_path};
    br_ab_opts o;
    memset(&o, 0, sizeof o);
    o.old_rev = c->cmp->baseline_sha;
    o.suites = suites;
    o.n_suites = 1;
    o.blocks = BR_CONFIRM_BLOCKS;
    o.run = *run;
    o.run.patterns = pats;
    o.run.n_patterns = np;
    o.run.quiet = quiet;
    o.run.total_cases = 0;
    o.run.budget_ns = 0;
    o.run.devices = NULL;
    br_gate_opts_init(&o.gate);
    o.keys = keys;
    o.n_keys = c->n;
    o.deadline_ns = br_now_ns() + g->confirm_timeout_ns;
    o.silent = 1;
    o.done = collect;
    o.done_ctx = c;
    br_outcome out;
    int rc = br_ab_run(&out, &o);
    free(keys);
    free(pats);
    return rc;
}

/* Entry e's verdict from the A/B of f (confirm.h): "confirmed by A/B
 * against 1a2b3c4: 1.52x [1.48, 1.56]" or, not confirmed, `same` with the
 * A/B's figures and what the screen read. Returns 0 or -1. */
static int apply(br_compare_entry *e, const br_confirm_case *v, const char *commit) {
    e->stage = v->confirmed ? BR_GATE_CONFIRMED : BR_GATE_NOT_CONFIRMED;
    e->ratio = v->ratio;
    e->ratio_low = v->low;
    e->ratio_high = v->high;
    char fig[96];
    if (isfinite(v->low))
        snprintf(fig, sizeof fig, "%.3fx [%.3f, %.3f]", v->ratio, v->low, v->high);
    else
        snprintf(fig, sizeof fig, "%.3fx", v->ratio);
    free(e->why_owned);
    if (v->confirmed)
        e->why_owned = br_strfmt("confirmed by A/B against %s: %s", commit, fig);
    else
        e->why_owned = br_strfmt("not confirmed by A/B against %s: %s; the saved baseline read "
                                 "%+.0f%%",
                                 commit, fig, 100.0 * e->change);
    if (!e->why_owned)
        return -1;
    e->why = e->why_owned;
    if (!v->confirmed)
        e->status = BR_CHANGE_SAME;
    return 0;
}

/* The A/B's verdicts into the screen's entries; the cases it did not measure
 * take `first`'s (the suite's alpha). Returns 0 or -1. */
static int decide(confirming *c, br_comparison *first) {
    br_confirm_info *info = c->cmp->confirm;
    br_confirm_case *v = calloc(c->n + 1, sizeof *v);
    if (!v)
        return br_error_nomem();
    for (size_t i = 0; i < c->n; i++)
        v[i] = (br_confirm_case){.old_med = c->f[i].old_med,
                                 .new_med = c->f[i].new_med,
                                 .pairs = c->f[i].pairs,
                                 .screen = c->cmp->entries[c->f[i].entry].status};
    int rc = br_confirm_judge(v, c->n, info->threshold, info->alpha, &info->level);
    for (size_t i = 0; rc == 0 && i < c->n; i++) {
        br_compare_entry *e = &c->cmp->entries[c->f[i].entry];
        if (v[i].pairs >= 2) {
            info->measured++;
            info->confirmed += v[i].confirmed;
            rc = apply(e, &v[i], c->cmp->baseline_commit ? c->cmp->baseline_commit : "?");
        } else if (c->f[i].entry < first->n_entries) { /* the same runs: the same entries */
            br_compare_entry tmp = *e;
            *e = first->entries[c->f[i].entry];
            first->entries[c->f[i].entry] = tmp;
            e->stage = BR_GATE_SCREEN;
        }
    }
    free(v);
    return rc;
}

/* "this machine reads 38% slower than when the baseline was saved" when the
 * flagged cases moved one way, together, and none was confirmed. */
static void shift_note(confirming *c) {
    br_confirm_info *info = c->cmp->confirm;
    size_t compared = 0, up = 0;
    double *ch = calloc(c->n + 1, sizeof *ch);
    if (!ch || info->confirmed > 0 || info->measured < 1) {
        free(ch);
        return;
    }
    for (size_t i = 0; i < c->cmp->n_entries; i++)
        compared += !c->cmp->entries[i].not_compared && isfinite(c->cmp->entries[i].change);
    for (size_t i = 0; i < c->n; i++) {
        ch[i] = c->cmp->entries[c->f[i].entry].change;
        up += ch[i] > 0;
    }
    if ((up == c->n || up == 0) && 2 * c->n >= compared) {
        qsort(ch, c->n, sizeof *ch, br_cmp_double);
        double m = c->n % 2 ? ch[c->n / 2] : 0.5 * (ch[c->n / 2 - 1] + ch[c->n / 2]);
        free(info->note);
        info->note = br_strfmt("this machine reads %.0f%% %s than when the baseline was saved "
                               "(%zu of %zu cases moved together; none confirmed by A/B "
                               "against %s)",
                               100.0 * fabs(m), m > 0 ? "slower" : "faster", c->n, compared,
                               c->cmp->baseline_commit ? c->cmp->baseline_commit : "?");
    }
    free(ch);
}

static void dispose(confirming *c) {
    for (size_t i = 0; i < c->n; i++) {
        free(c->f[i].key);
        free(c->f[i].old_med);
        free(c->f[i].new_med);
    }
    free(c->f);
}

/* A fresh br_confirm_info for comparison cmp under g. NULL out of memory. */
static br_confirm_info *new_info(const br_comparison *cmp, const br_gate_opts *g) {
    br_confirm_info *info = calloc(1, sizeof *info);
    if (!info) {
        br_error_nomem();
        return NULL;
    }
    info->mode = (br_confirm_mode)g->confirm;
    info->alpha = cmp->rules.alpha;
    info->threshold = cmp->rules.threshold;
    info->level = NAN;
    info->timeout_ns = g->confirm_timeout_ns;
    info->blocks = BR_CONFIRM_BLOCKS;
    return info;
}

/* Screen r again at BR_SCREEN_ALPHA (attach) and confirm what it flags;
 * `first` (the comparison at the suite's alpha, owned) is disposed. */
static int screen_and_confirm(br_run *r, br_comparison *first, const br_gate_opts *g,
                              const br_run_opts *run, int quiet,
                              int (*attach)(br_run *, const br_gate_opts *, int)) {
    br_regression_cfg rules = r->regression;
    r->comparison = NULL;
    r->regression.alpha = fmax(rules.alpha, BR_SCREEN_ALPHA);
    int rc = attach(r, g, 1);
    r->regression = rules;
    confirming c = {r, r->comparison, NULL, 0};
    if (rc != 0 || !c.cmp) {
        br_comparison_dispose(r->comparison);
        free(r->comparison);
        r->comparison = first;
        return rc;
    }
    c.cmp->confirm = first->confirm;
    first->confirm = NULL;
    br_confirm_info *info = c.cmp->confirm;
    snprintf(info->commit, sizeof info->commit, "%s", c.cmp->baseline_sha);
    if ((rc = gather(&c)) == 0 && c.n > 0) {
        info->flagged = c.n;
        if (!quiet)
            br_log(BR_LOG_NOTE,
                   "benchrun: %zu case(s) flagged against the baseline: confirming by A/B "
                   "against its commit %s (%d block pairs each)\n",
                   c.n, c.cmp->baseline_commit ? c.cmp->baseline_commit : "?", BR_CONFIRM_BLOCKS);
        double t0 = br_now_ns();
        int mr = measure(&c, g, run, quiet);
        info->ran = 1;
        info->ns = br_now_ns() - t0;
        if (mr != 0 && !(info->note = br_strfmt("the A/B against %s failed: %s",
                                                c.cmp->baseline_commit, br_error_get())))
            rc = -1;
        if (rc == 0)
            rc = decide(&c, first);
        shift_note(&c);
        br_comparison_recount(c.cmp);
        if (!quiet)
            br_log(BR_LOG_NOTE, "benchrun: A/B against %s in %.1f s: %zu of %zu confirmed%s%s\n",
                   c.cmp->baseline_commit ? c.cmp->baseline_commit : "?", info->ns / 1e9,
                   info->confirmed, info->flagged, info->note ? "; " : "",
                   info->note ? info->note : "");
    }
    dispose(&c);
    br_comparison_dispose(first);
    free(first);
    return rc;
}

int br_confirm_attach(br_run *r, const br_gate_opts *g, const br_run_opts *run, int quiet,
                      int (*attach)(br_run *r, const br_gate_opts *g, int quiet)) {
    if (attach(r, g, quiet) != 0)
        return -1;
    br_comparison *first = r->comparison;
    if (!first || first->ab || g->confirm == BR_CONFIRM_NEVER || g->save)
        return 0;
    if (!(first->confirm = new_info(first, g)))
        return -1;
    char why[1024];
    if (why_not(why, sizeof why, first, r)) {
        if (!(first->confirm->note = br_strfmt("cannot confirm by A/B: %s", why)))
            return -1;
        if (g->confirm == BR_CONFIRM_ALWAYS)
            return br_error_set("--confirm always: %s", first->confirm->note);
        if (!quiet && first->count[BR_CHANGE_SLOWER] + first->count[BR_CHANGE_FASTER] > 0)
            br_log(BR_LOG_NOTE, "benchrun: %s; the comparison alone decides\n",
                   first->confirm->note);
        return 0;
    }
    return screen_and_confirm(r, first, g, run, quiet, attach);
}
