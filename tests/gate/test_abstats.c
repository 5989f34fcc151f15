/* SPDX-License-Identifier: Apache-2.0 */
/* test_abstats.c - the ratio, interval, paired test and decision of
 * `benchrun ab` (results/abstats.h), and its comparison (abcompare.h). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "gate/abcompare.h"
#include "gate/abstats.h"

/* n pairs with OLD 1000 ns and NEW 1000 ratio (1 + noise[k]). */
static br_ab_stats decide(double ratio, const double *noise, size_t n, double threshold) {
    double o[16], w[16];
    for (size_t k = 0; k < n; k++) {
        o[k] = 1000;
        w[k] = 1000 * ratio * (1 + noise[k]);
    }
    br_ab_stats st;
    cr_assert_eq(br_ab_stats_compute(&st, o, w, n, threshold, 0.05), 0, "%s", br_error_get());
    return st;
}

static const double jitter[6] = {0.002, -0.001, 0.0005, -0.002, 0.001, -0.0005};

Test(abstats, decides_slower_faster_same_and_unknown) {
    br_ab_stats st = decide(1.03, jitter, 6, 0.005);
    cr_assert_eq(st.status, BR_CHANGE_SLOWER);
    cr_assert(st.low > 1.005 && st.low < st.ratio && st.ratio < st.high, "%g [%g, %g]", st.ratio,
              st.low, st.high);
    cr_assert(fabs(st.ratio - 1.03) < 0.001);
    cr_assert(st.p < 0.05);
    st = decide(1 / 1.03, jitter, 6, 0.005);
    cr_assert_eq(st.status, BR_CHANGE_FASTER);
    st = decide(1.0, jitter, 6, 0.005);
    cr_assert_eq(st.status, BR_CHANGE_SAME, "%g [%g, %g]", st.ratio, st.low, st.high);
    cr_assert(st.p > 0.05);
    /* A real change smaller than the threshold's reach: significant, but the
     * interval straddles 1.005. */
    st = decide(1.005, jitter, 6, 0.005);
    cr_assert_eq(st.status, BR_CHANGE_UNKNOWN);
    cr_assert_str_eq(st.why, "the interval straddles the threshold");
    /* Noise of 5% per pair: a 1% change cannot be told. */
    const double loud[6] = {0.05, -0.04, 0.03, -0.05, 0.04, -0.03};
    st = decide(1.01, loud, 6, 0.005);
    cr_assert_eq(st.status, BR_CHANGE_UNKNOWN);
    cr_assert_str_eq(st.why, "too noisy to tell");
    /* Threshold 0: any significant change counts. */
    st = decide(1.003, jitter, 6, 0);
    cr_assert_eq(st.status, BR_CHANGE_SLOWER, "%g [%g, %g]", st.ratio, st.low, st.high);
}

Test(abstats, identical_pairs_and_too_few) {
    const double zero[6] = {0};
    br_ab_stats st = decide(1.0, zero, 6, 0.005);
    cr_assert_eq(st.status, BR_CHANGE_SAME);
    cr_assert_eq(st.p, 1);
    cr_assert_eq(st.low, 1);
    st = decide(1.02, zero, 6, 0.005);
    cr_assert_eq(st.status, BR_CHANGE_SLOWER);
    cr_assert_lt(st.p, 1e-12, "%g", st.p);
    st = decide(1.5, zero, 1, 0.005);
    cr_assert_eq(st.status, BR_CHANGE_UNKNOWN);
    cr_assert_str_eq(st.why, "too few blocks");
    cr_assert(fabs(st.ratio - 1.5) < 1e-12);
    cr_assert(isnan(st.low) && isnan(st.p));
}

Test(abstats, refuses_bad_input) {
    double o[2] = {1000, 0}, w[2] = {1000, 1000};
    br_ab_stats st;
    cr_assert_eq(br_ab_stats_compute(&st, o, w, 2, 0.005, 0.05), -1);
    cr_assert(strstr(br_error_get(), "block pair 2"), "%s", br_error_get());
    o[1] = 1000;
    cr_assert_eq(br_ab_stats_compute(&st, o, w, 2, -1, 0.05), -1);
    cr_assert_eq(br_ab_stats_compute(&st, o, w, 2, 0.005, 1), -1);
}

/* Two runs of one kernel at n = 1, 2, 3 (OLD has no n = 3, NEW no n = 1). */
static void make_run(br_run *r, const int64_t *ns, size_t n, double median) {
    memset(r, 0, sizeof *r);
    static char *names[] = {"n"};
    static br_run_kernel kernels[] = {{"k", "k.c", BR_BACKEND_HOST, ""}};
    r->param_names = names;
    r->n_params = 1;
    r->kernels = kernels;
    r->n_kernels = 1;
    r->cases = calloc(n, sizeof *r->cases);
    r->n_cases = n;
    r->measure.headline = BR_MODE_COLD;
    for (size_t i = 0; i < n; i++) {
        br_case_result *c = &r->cases[i];
        c->params = malloc(sizeof *c->params);
        c->params[0] = ns[i];
        c->cold.present = 1;
        c->cold.n_samples = 10;
        c->cold.stats.median = median;
    }
}

static void free_run(br_run *r) {
    for (size_t i = 0; i < r->n_cases; i++)
        free(r->cases[i].params);
    free(r->cases);
}

Test(abstats, the_comparison_pairs_cases_and_marks_the_rest) {
    br_run old, cur;
    const int64_t on[] = {1, 2}, cn[] = {2, 3};
    make_run(&old, on, 2, 1000);
    make_run(&cur, cn, 2, 1100);
    double om[4] = {1000, 1001, 999, 1000}, nm[4] = {1100, 1101, 1099, 1100};
    br_ab_case pair = {.old_case = 1, .new_case = 0, .old_med = om, .new_med = nm, .n_pairs = 4};
    br_ab_info *info = calloc(1, sizeof *info);
    info->blocks = 4;
    info->ci_level = 0.95;
    br_comparison c;
    cr_assert_eq(br_ab_compare(&c, &old, &cur, &pair, 1, 0.005, 0.05, "HEAD~1", info), 0, "%s",
                 br_error_get());
    cr_assert_str_eq(c.baseline_path, "HEAD~1");
    cr_assert_eq(c.n_entries, 3);
    cr_assert_str_eq(c.entries[0].params, "n=2");
    cr_assert_eq(c.entries[0].status, BR_CHANGE_SLOWER);
    cr_assert(fabs(c.entries[0].ratio - 1.1) < 0.001);
    cr_assert_eq(c.entries[0].pairs, 4);
    cr_assert_eq(c.entries[0].new_blocks[1], 1101);
    cr_assert_eq(c.entries[1].status, BR_CHANGE_NEW);     /* n = 3: NEW only */
    cr_assert_eq(c.entries[2].status, BR_CHANGE_MISSING); /* n = 1: OLD only */
    cr_assert_eq(c.count[BR_CHANGE_SLOWER], 1);
    cr_assert_eq(c.ab, info);
    br_comparison_dispose(&c);
    free_run(&old);
    free_run(&cur);
}

/* The newcomer's table: OLD's and NEW's pooled medians (2134.0 vs 2105.8)
 * pointed the other way from the paired ratio (1.051x). The columns are
 * now the geometric means of the blocks' medians, whose quotient is the
 * ratio the verdict judges, whatever the pooled samples say. */
Test(abstats, the_old_and_new_columns_cannot_contradict_the_ratio) {
    br_run old, cur;
    const int64_t n[] = {1};
    make_run(&old, n, 1, 2134.0); /* pooled medians: NEW reads faster */
    make_run(&cur, n, 1, 2105.8);
    /* Blocks: NEW slower in every pair but one, where OLD had a slow block. */
    double om[6] = {2000, 2010, 1990, 2005, 2400, 2000},
           nm[6] = {2110, 2115, 2095, 2110, 2105, 2100};
    br_ab_case pair = {.old_case = 0, .new_case = 0, .old_med = om, .new_med = nm, .n_pairs = 6};
    br_comparison c;
    cr_assert_eq(br_ab_compare(&c, &old, &cur, &pair, 1, 0.005, 0.05, "HEAD~1", NULL), 0, "%s",
                 br_error_get());
    const br_compare_entry *e = &c.entries[0];
    cr_assert_gt(e->ratio, 1.0, "the paired ratio says NEW is slower: %g", e->ratio);
    cr_expect_gt(e->cur_median, e->base_median, "NEW %g, OLD %g", e->cur_median, e->base_median);
    cr_expect_float_eq(e->cur_median / e->base_median, e->ratio, 1e-12 * e->ratio);
    br_comparison_dispose(&c);
    free_run(&old);
    free_run(&cur);
}

/* Cases skipped for want of a GPU are not compared, as the gate does
 * (br_compare_skipped_no_gpu): not counted as unknown, summed up in
 * n_no_gpu; a case skipped for another reason stays unknown. */
Test(abstats, gpu_cases_skipped_without_a_gpu_are_not_compared) {
    br_run old, cur;
    const int64_t on[] = {1, 2}, cn[] = {1, 2, 3};
    make_run(&old, on, 2, 1000);
    make_run(&cur, cn, 3, 1000);
    for (size_t i = 0; i < 2; i++) {
        old.cases[i].status = cur.cases[i].status = BR_STATUS_SKIPPED;
        old.cases[i].cold.present = cur.cases[i].cold.present = 0;
    }
    old.cases[0].stage = cur.cases[0].stage = BR_STAGE_NO_GPU;
    old.cases[1].stage = cur.cases[1].stage = BR_STAGE_INTERRUPTED;
    cur.cases[2].status = BR_STATUS_SKIPPED; /* n = 3: NEW only */
    cur.cases[2].stage = BR_STAGE_NO_GPU;
    cur.cases[2].cold.present = 0;
    br_ab_case pairs[] = {{.old_case = 0, .new_case = 0}, {.old_case = 1, .new_case = 1}};
    br_comparison c;
    cr_assert_eq(br_ab_compare(&c, &old, &cur, pairs, 2, 0.005, 0.05, "HEAD~1", NULL), 0, "%s",
                 br_error_get());
    cr_assert_eq(c.n_entries, 3);
    cr_assert_str_eq(c.entries[0].not_compared, "no GPU");
    cr_assert_str_eq(c.entries[0].why, "skipped: no GPU");
    cr_assert_null(c.entries[1].not_compared);
    cr_assert_eq(c.entries[1].status, BR_CHANGE_UNKNOWN);
    cr_assert_str_eq(c.entries[1].why, "not run: interrupted");
    cr_assert_eq(c.entries[2].status, BR_CHANGE_NEW);
    cr_assert_str_eq(c.entries[2].not_compared, "no GPU");
    cr_assert_eq(c.n_no_gpu, 2);
    cr_assert_eq(c.count[BR_CHANGE_UNKNOWN], 1, "the interrupted case alone");
    cr_assert_eq(c.count[BR_CHANGE_NEW], 0);
    br_comparison_dispose(&c);
    free_run(&old);
    free_run(&cur);
}
