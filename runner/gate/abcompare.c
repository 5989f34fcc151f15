/* SPDX-License-Identifier: Apache-2.0 */
/* NEW's run against OLD's from the interleaved blocks
 * (abcompare.h). */
#include "abcompare.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abstats.h"
#include "compare.h"
#include "base/error.h"
#include "base/util.h"

/* The next entry for case c of run r, with its name and no figures yet. */
static br_compare_entry *new_entry(br_comparison *out, const br_run *r, const br_case_result *c,
                                   size_t case_index) {
    br_compare_entry *e = &out->entries[out->n_entries++];
    e->case_index = case_index;
    e->base_median = e->cur_median = e->change = e->p_value = e->spread = NAN;
    e->p_runs = e->mde = e->cycles_change = e->base_mhz = e->cur_mhz = NAN; /* the gate's alone */
    e->ratio = e->ratio_low = e->ratio_high = NAN;
    e->kernel = br_strdup(c->kernel < r->n_kernels ? r->kernels[c->kernel].name : "?");
    e->params = br_compare_params_label(r, c);
    return e->kernel && e->params ? e : NULL;
}

/* Why a paired case has no figures: the first side that was not measured. */
static const char *unmeasured_why(const br_case_result *o, const br_case_result *n) {
    if (o->status == BR_STATUS_FAILED)
        return "failed on the OLD side";
    if (n->status == BR_STATUS_FAILED)
        return "failed on the NEW side";
    if (o->status == BR_STATUS_SKIPPED || n->status == BR_STATUS_SKIPPED) {
        br_stage stage = o->status == BR_STATUS_SKIPPED ? o->stage : n->stage;
        if (stage == BR_STAGE_INTERRUPTED)
            return "not run: interrupted";
        return "not compared: failed on the other side";
    }
    return "no timing of the compared mode on both sides";
}

/* The geometric mean, ns, of side's block medians (0: old, 1: new) over
 * the pairs br_ab_stats_compute uses (both medians finite and > 0); NAN
 * when none is. */
static double geo_mean(const double *old_med, const double *new_med, size_t n, int side) {
    double sum = 0;
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(old_med[i] > 0) || !(new_med[i] > 0) || !isfinite(old_med[i]) ||
            !isfinite(new_med[i]))
            continue;
        sum += log(side ? new_med[i] : old_med[i]);
        used++;
    }
    return used ? exp(sum / (double)used) : NAN;
}

/* Entry e of paired case c. Returns 0, or -1 with the error set. */
static int judge_pair(br_compare_entry *e, const br_run *old, const br_run *cur,
                      const br_ab_case *c, br_mode clock, double threshold, double alpha) {
    const br_case_result *o = &old->cases[c->old_case], *n = &cur->cases[c->new_case];
    const br_timing *ot = clock == BR_MODE_BATCH ? &o->batch : &o->cold;
    const br_timing *nt = clock == BR_MODE_BATCH ? &n->batch : &n->cold;
    int measured = o->status == BR_STATUS_OK && n->status == BR_STATUS_OK && ot->present &&
                   nt->present && c->n_pairs > 0;
    if (!measured) {
        /* Skipped for want of a GPU: not compared, as the gate does. */
        if (br_compare_skipped_no_gpu(e, n, 1) || br_compare_skipped_no_gpu(e, o, 1))
            return 0;
        e->status = BR_CHANGE_UNKNOWN;
        e->why = unmeasured_why(o, n);
        return 0;
    }
    /* OLD and NEW as the geometric means of the blocks' medians, whose
     * quotient is the paired ratio the verdict judges (exp of the mean
     * log-ratio): the columns cannot point the other way. */
    e->base_median = geo_mean(c->old_med, c->new_med, c->n_pairs, 0);
    e->cur_median = geo_mean(c->old_med, c->new_med, c->n_pairs, 1);
    e->base_n = ot->n_samples;
    e->cur_n = nt->n_samples;
    br_ab_stats st;
    if (br_ab_stats_compute(&st, c->old_med, c->new_med, c->n_pairs, threshold, alpha) != 0)
        return -1;
    e->status = st.status;
    e->why = st.why;
    if (c->partial_of) { /* an interrupt cut the blocks short: say so beside the verdict */
        e->why_owned = br_strfmt("partial, %zu of %zu block pairs (interrupted)%s%s", c->n_pairs,
                                 c->partial_of, st.why ? "; " : "", st.why ? st.why : "");
        if (!e->why_owned)
            return br_error_nomem();
        e->why = e->why_owned;
    }
    e->ratio = st.ratio;
    e->ratio_low = st.low;
    e->ratio_high = st.high;
    e->change = st.ratio - 1.0;
    e->p_value = st.p;
    e->p_exact = 1; /* Student's t, exact under normal log-ratios */
    e->pairs = c->n_pairs;
    e->old_blocks = malloc(c->n_pairs * sizeof *e->old_blocks);
    e->new_blocks = malloc(c->n_pairs * sizeof *e->new_blocks);
    if (!e->old_blocks || !e->new_blocks)
        return br_error_nomem();
    memcpy(e->old_blocks, c->old_med, c->n_pairs * sizeof *e->old_blocks);
    memcpy(e->new_blocks, c->new_med, c->n_pairs * sizeof *e->new_blocks);
    return 0;
}

/* The paired case of cur's case i, or NULL. */
static const br_ab_case *pair_of_new(const br_ab_case *cases, size_t n, size_t i) {
    for (size_t k = 0; k < n; k++)
        if (cases[k].new_case == i)
            return &cases[k];
    return NULL;
}

/* Whether old's case j is paired. */
static int old_is_paired(const br_ab_case *cases, size_t n, size_t j) {
    for (size_t k = 0; k < n; k++)
        if (cases[k].old_case == j)
            return 1;
    return 0;
}

int br_ab_compare(br_comparison *out, const br_run *old, const br_run *cur, const br_ab_case *cases,
                  size_t n, double threshold, double alpha, const char *old_label,
                  br_ab_info *info) {
    memset(out, 0, sizeof *out);
    out->ab = info;
    out->baseline_path = br_strdup(old_label);
    out->baseline_device = br_strdup(cur->has_device ? cur->device.name : "host");
    if (old->git.present && old->git.short_sha[0])
        out->baseline_commit = br_strdup(old->git.short_sha);
    snprintf(out->baseline_date, sizeof out->baseline_date, "%s", old->date);
    out->rules.threshold = threshold;
    out->rules.alpha = alpha;
    out->clock = cur->measure.headline == BR_MODE_BATCH ? BR_MODE_BATCH : BR_MODE_COLD;
    out->entries = calloc(cur->n_cases + old->n_cases + 1, sizeof *out->entries);
    if (!out->baseline_path || !out->baseline_device || !out->entries)
        return br_error_nomem();
    for (size_t i = 0; i < cur->n_cases; i++) {
        br_compare_entry *e = new_entry(out, cur, &cur->cases[i], i);
        if (!e)
            return -1;
        const br_ab_case *c = pair_of_new(cases, n, i);
        if (!c) {
            if (!br_compare_skipped_no_gpu(e, &cur->cases[i], 0))
                e->status = BR_CHANGE_NEW;
        } else if (judge_pair(e, old, cur, c, out->clock, threshold, alpha) != 0)
            return -1;
    }
    for (size_t j = 0; j < old->n_cases; j++) {
        if (old_is_paired(cases, n, j))
            continue;
        br_compare_entry *e = new_entry(out, old, &old->cases[j], SIZE_MAX);
        if (!e)
            return -1;
        e->status = BR_CHANGE_MISSING;
    }
    br_comparison_recount(out);
    return 0;
}
