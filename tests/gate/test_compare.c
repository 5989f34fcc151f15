/* SPDX-License-Identifier: Apache-2.0 */
/* test_compare.c - the comparison with a baseline (compare.h): the rules
 * (every status, new and missing cases, the device and suite checks, the
 * clock compared, the rerun spread) and the comparison in reports. */
#include <criterion/criterion.h>

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gate/drift.h"

#include "gate/baseline.h"
#include "gate/compare.h"
#include "e2e_util.h"
#include "base/error.h"
#include "reporters/reporter.h"
#include "model/run.h"
#include "results_fixture.h"
#include "results/baseline_runs.h"
#include "results/run_read.h"
#include "results/run_write.h"
#include "reporters/timing_notes.h"
#include "base/util.h"

TestSuite(compare, .init = e2e_tmp_make, .fini = e2e_tmp_drop, .timeout = 120);

/* --- comparisons ------------------------------------------------------------------ */

static const br_compare_entry *entry(const br_comparison *c, const char *kernel,
                                     const char *params) {
    for (size_t i = 0; i < c->n_entries; i++)
        if (strcmp(c->entries[i].kernel, kernel) == 0 && strcmp(c->entries[i].params, params) == 0)
            return &c->entries[i];
    cr_assert_fail("no entry %s %s", kernel, params);
    return NULL;
}

static const br_regression_cfg rules = {0.02, 0.01, 0};

/* Baseline and run with one case per status. */
static void status_pair(br_run *base, br_run *cur) {
    small_run(base, "s", "aaaaaaa000000000000000000000000000000000");
    small_run(cur, "s", "bbbbbbb000000000000000000000000000000000");
    /* n=1 unchanged; n=2 10% slower; n=3 10% faster; n=4 1% slower (below
     * the threshold); n=9 failed now; n=8 only in the baseline; n=7 only now. */
    timed(base, 0, 1, 1000, 900);
    timed(cur, 0, 1, 1000, 900);
    timed(base, 0, 2, 1000, 900);
    timed(cur, 0, 2, 1100, 900);
    timed(base, 0, 3, 1000, 900);
    timed(cur, 0, 3, 900, 900);
    timed(base, 0, 4, 1000, 900);
    timed(cur, 0, 4, 1010, 900);
    timed(base, 0, 9, 1000, 900);
    const int64_t n9 = 9;
    add_case(cur, 0, 9, &n9, BR_STATUS_FAILED, "verify", "wrong sum", NAN, NAN);
    timed(base, 0, 8, 1000, 900);
    timed(cur, 0, 7, 1000, 900);

    /* n=5: 50% slower on 3 samples each: no test on 3 + 3 samples reaches
     * p < 0.01 (the smallest two-sided p is 2 / C(6,3) = 0.1). */
    const int64_t n5 = 5;
    const double few_b[] = {1000, 1010, 990}, few_c[] = {1500, 1510, 1490};
    br_case_result *c = add_case(base, 0, 5, &n5, BR_STATUS_OK, NULL, NULL, NAN, NAN);
    set_timing(&c->cold, few_b, 3, 1.0, 1, BR_STOP_NOISE, 1980);
    c = add_case(cur, 0, 5, &n5, BR_STATUS_OK, NULL, NULL, NAN, NAN);
    set_timing(&c->cold, few_c, 3, 1.0, 1, BR_STOP_NOISE, 1980);

    /* n=6: the median moves by a third but the two sets overlap almost
     * wholly (10 x 1000 and 10 x 2000 against 9 x 1000 and 11 x 2000). */
    const int64_t n6 = 6;
    double noisy_b[20], noisy_c[20];
    for (size_t i = 0; i < 20; i++) {
        noisy_b[i] = i < 10 ? 1000 : 2000;
        noisy_c[i] = i < 9 ? 1000 : 2000;
    }
    c = add_case(base, 0, 6, &n6, BR_STATUS_OK, NULL, NULL, NAN, NAN);
    set_timing(&c->cold, noisy_b, 20, 1.0, 1, BR_STOP_NOISE, 1980);
    c = add_case(cur, 0, 6, &n6, BR_STATUS_OK, NULL, NULL, NAN, NAN);
    set_timing(&c->cold, noisy_c, 20, 1.0, 1, BR_STOP_NOISE, 1980);
}

Test(compare, every_status_by_the_rules) {
    br_run base, cur;
    status_pair(&base, &cur);
    br_comparison c;
    cr_assert_eq(br_baseline_compare(&c, &base, "b.json", &cur, &rules, 0), 0, "%s",
                 br_error_get());
    cr_assert_eq(c.clock, BR_MODE_COLD);
    cr_assert_str_eq(c.baseline_commit, "aaaaaaa");
    cr_assert_str_eq(c.baseline_device, "NVIDIA H100 80GB HBM3");
    cr_assert_eq(c.device_forced, 0);

    const br_compare_entry *e = entry(&c, "k", "n=1");
    cr_assert_eq(e->status, BR_CHANGE_SAME);
    cr_assert_float_eq(e->change, 0.0, 1e-12);
    cr_assert_float_eq(e->p_value, 1.0, 1e-12);

    e = entry(&c, "k", "n=2");
    cr_assert_eq(e->status, BR_CHANGE_SLOWER, "%s", br_change_name(e->status));
    cr_assert_float_eq(e->change, 0.10, 1e-9);
    cr_assert_lt(e->p_value, 1e-6);
    cr_assert_eq(e->base_n, NS);
    cr_assert_eq(e->cur_n, NS);
    cr_assert_float_eq(e->base_median, 1000.0, 1e-9);
    cr_assert_float_eq(e->cur_median, 1100.0, 1e-9);
    cr_assert_eq(e->case_index, 1);

    e = entry(&c, "k", "n=3");
    cr_assert_eq(e->status, BR_CHANGE_FASTER);
    cr_assert_float_eq(e->change, -0.10, 1e-9);

    /* 1% is significant with 40 + 40 samples, but below the 2% threshold. */
    e = entry(&c, "k", "n=4");
    cr_assert_lt(e->p_value, 0.01);
    cr_assert_eq(e->status, BR_CHANGE_SAME);

    e = entry(&c, "k", "n=5");
    cr_assert_eq(e->status, BR_CHANGE_UNKNOWN);
    cr_assert_str_eq(e->why, "too few samples");
    cr_assert_float_eq(e->p_value, 0.1, 1e-12);

    e = entry(&c, "k", "n=6");
    cr_assert_eq(e->status, BR_CHANGE_UNKNOWN);
    cr_assert_str_eq(e->why, "within the runs' own uncertainty");
    cr_assert_float_eq(e->change, 1.0 / 3.0, 1e-9);
    cr_assert_gt(e->p_value, 0.5);

    e = entry(&c, "k", "n=9");
    cr_assert_eq(e->status, BR_CHANGE_UNKNOWN);
    cr_assert_str_eq(e->why, "failed in this run");
    cr_assert(isnan(e->cur_median));
    cr_assert_float_eq(e->base_median, 1000.0, 1e-9);

    e = entry(&c, "k", "n=7");
    cr_assert_eq(e->status, BR_CHANGE_NEW);
    cr_assert(isnan(e->p_value));

    e = entry(&c, "k", "n=8");
    cr_assert_eq(e->status, BR_CHANGE_MISSING);
    cr_assert_eq(e->case_index, SIZE_MAX);
    /* Missing cases come after the run's cases. */
    cr_assert_eq(e, &c.entries[c.n_entries - 1]);

    cr_assert_eq(c.n_entries, 9);
    cr_assert_eq(c.count[BR_CHANGE_SAME], 2);
    cr_assert_eq(c.count[BR_CHANGE_SLOWER], 1);
    cr_assert_eq(c.count[BR_CHANGE_FASTER], 1);
    cr_assert_eq(c.count[BR_CHANGE_UNKNOWN], 3);
    cr_assert_eq(c.count[BR_CHANGE_NEW], 1);
    cr_assert_eq(c.count[BR_CHANGE_MISSING], 1);

    /* The gate: slower fails by default, faster only with any-change. */
    cr_assert_eq(br_baseline_fails(&c, BR_FAIL_ON_SLOWER), 1);
    cr_assert_eq(br_baseline_fails(&c, BR_FAIL_ON_ANY), 1);
    cr_assert_eq(br_baseline_fails(&c, BR_FAIL_ON_NEVER), 0);
    cr_assert_eq(br_baseline_fails(NULL, BR_FAIL_ON_SLOWER), 0);
    c.count[BR_CHANGE_SLOWER] = 0;
    cr_assert_eq(br_baseline_fails(&c, BR_FAIL_ON_SLOWER), 0, "faster never fails a run");
    cr_assert_eq(br_baseline_fails(&c, BR_FAIL_ON_ANY), 1);
    c.count[BR_CHANGE_FASTER] = 0;
    cr_assert_eq(br_baseline_fails(&c, BR_FAIL_ON_ANY), 0, "unknown, new, missing never fail");

    br_comparison_dispose(&c);
    br_comparison_dispose(&c); /* twice is harmless */
    br_run_dispose(&base);
    br_run_dispose(&cur);
}

Test(compare, a_larger_threshold_or_smaller_alpha_turns_slower_into_same_or_unknown) {
    br_run base, cur;
    status_pair(&base, &cur);
    br_comparison c;
    br_regression_cfg wide = {0.15, 0.01, 0};
    cr_assert_eq(br_baseline_compare(&c, &base, "b.json", &cur, &wide, 0), 0);
    cr_assert_eq(entry(&c, "k", "n=2")->status, BR_CHANGE_SAME);
    cr_assert_eq(c.count[BR_CHANGE_SLOWER], 0);
    br_comparison_dispose(&c);

    /* No threshold: 1% is significant in the samples, but a baseline saved
     * once assumes a 1.5% drift between runs, and 1% is within it. */
    br_regression_cfg zero = {0.0, 0.01, 0};
    cr_assert_eq(br_baseline_compare(&c, &base, "b.json", &cur, &zero, 0), 0);
    cr_assert_lt(entry(&c, "k", "n=4")->p_value, 0.01);
    cr_assert_eq(entry(&c, "k", "n=4")->status, BR_CHANGE_SAME);
    cr_assert_str_eq(entry(&c, "k", "n=4")->why, "within the between-run spread");
    cr_assert_eq(entry(&c, "k", "n=2")->status, BR_CHANGE_SLOWER);
    br_comparison_dispose(&c);

    br_regression_cfg bad = {0.02, 1.5, 0};
    cr_assert_eq(br_baseline_compare(&c, &base, "b.json", &cur, &bad, 0), -1);
    cr_assert(strstr(br_error_get(), "alpha 1.5"), "%s", br_error_get());
    br_comparison_dispose(&c);
    br_run_dispose(&base);
    br_run_dispose(&cur);
}

Test(compare, duplicate_cases_pair_up_in_order) {
    br_run base, cur;
    small_run(&base, "s", "aaaaaaa000000000000000000000000000000000");
    small_run(&cur, "s", "bbbbbbb000000000000000000000000000000000");
    timed(&base, 0, 1, 1000, 900);
    timed(&base, 0, 1, 2000, 900);
    timed(&cur, 0, 1, 1000, 900);
    timed(&cur, 0, 1, 2000, 900);
    br_comparison c;
    cr_assert_eq(br_baseline_compare(&c, &base, "b.json", &cur, &rules, 0), 0);
    cr_assert_eq(c.n_entries, 2, "no case is missing");
    cr_assert_eq(c.count[BR_CHANGE_SAME], 2);
    br_comparison_dispose(&c);
    br_run_dispose(&base);
    br_run_dispose(&cur);
}

Test(compare, the_headline_clock_is_compared) {
    br_run base, cur;
    small_run(&base, "s", "aaaaaaa000000000000000000000000000000000");
    small_run(&cur, "s", "bbbbbbb000000000000000000000000000000000");
    timed(&base, 0, 1, 1000, 500);
    timed(&cur, 0, 1, 1000, 600); /* batch 20% slower, cold unchanged */
    br_comparison c;
    cr_assert_eq(br_baseline_compare(&c, &base, "b.json", &cur, &rules, 0), 0);
    cr_assert_eq(c.entries[0].status, BR_CHANGE_SAME);
    br_comparison_dispose(&c);

    cur.measure.headline = BR_MODE_BATCH;
    cr_assert_eq(br_baseline_compare(&c, &base, "b.json", &cur, &rules, 0), 0);
    cr_assert_eq(c.clock, BR_MODE_BATCH);
    cr_assert_eq(c.entries[0].status, BR_CHANGE_SLOWER);
    cr_assert_float_eq(c.entries[0].change, 0.2, 1e-9);
    br_comparison_dispose(&c);

    /* A baseline without that timing cannot tell. */
    br_timing_dispose(&base.cases[0].batch);
    cr_assert_eq(br_baseline_compare(&c, &base, "b.json", &cur, &rules, 0), 0);
    cr_assert_eq(c.entries[0].status, BR_CHANGE_UNKNOWN);
    cr_assert_str_eq(c.entries[0].why, "no batch timing in the baseline");
    br_comparison_dispose(&c);
    br_run_dispose(&base);
    br_run_dispose(&cur);
}

Test(compare, cases_match_by_kernel_and_param_names_not_positions) {
    const char *nm[] = {"n", "m"}, *mn[] = {"m", "n"};
    br_run base, cur;
    run_init(&base, "s", NULL, BR_METRIC_NONE, BR_MODE_COLD, nm, 2, 4);
    run_init(&cur, "s", NULL, BR_METRIC_NONE, BR_MODE_COLD, mn, 2, 4);
    add_kernel(&base, "b", "x.c", BR_BACKEND_HOST);
    add_kernel(&base, "a", "x.c", BR_BACKEND_HOST);
    add_kernel(&cur, "a", "x.c", BR_BACKEND_HOST); /* another kernel order too */
    double s[NS];
    spread(s, NS, 1000);
    const int64_t v_nm[] = {4, 2}, v_mn[] = {2, 4};
    set_timing(&add_case(&base, 1, 0, v_nm, BR_STATUS_OK, NULL, NULL, NAN, NAN)->cold, s, NS, 1.0,
               1, BR_STOP_NOISE, NAN);
    set_timing(&add_case(&cur, 0, 0, v_mn, BR_STATUS_OK, NULL, NULL, NAN, NAN)->cold, s, NS, 1.3, 1,
               BR_STOP_NOISE, NAN);
    br_comparison c;
    cr_assert_eq(br_baseline_compare(&c, &base, "b.json", &cur, &rules, 0), 0);
    cr_assert_eq(c.n_entries, 1);
    cr_assert_str_eq(c.entries[0].kernel, "a");
    cr_assert_str_eq(c.entries[0].params, "m=2 n=4");
    cr_assert_eq(c.entries[0].status, BR_CHANGE_SLOWER);
    /* The host CPU names the device of a run without a GPU. */
    cr_assert_str_eq(c.baseline_device, "host");
    br_comparison_dispose(&c);
    br_run_dispose(&base);
    br_run_dispose(&cur);
}

Test(compare, another_device_or_suite_is_refused_unless_forced) {
    br_run base, cur;
    status_pair(&base, &cur);
    snprintf(base.device.name, sizeof base.device.name, "NVIDIA H200");
    br_comparison c;
    cr_assert_eq(br_baseline_compare(&c, &base, "baselines/s/NVIDIA-H200.json", &cur, &rules, 0),
                 -1);
    cr_assert_str_eq(br_error_get(),
                     "baselines/s/NVIDIA-H200.json: the baseline was measured on 'NVIDIA H200', "
                     "this run on 'NVIDIA H100 80GB HBM3'; a baseline from another device is not "
                     "comparable (--force-device compares anyway)");
    br_comparison_dispose(&c);
    cr_assert_eq(br_baseline_compare(&c, &base, "b.json", &cur, &rules, 1), 0);
    cr_assert_eq(c.device_forced, 1);
    cr_assert_str_eq(c.baseline_device, "NVIDIA H200");
    cr_assert_eq(c.count[BR_CHANGE_SLOWER], 1);
    br_comparison_dispose(&c);

    free(base.suite_name);
    base.suite_name = strdup("other");
    cr_assert_eq(br_baseline_compare(&c, &base, "b.json", &cur, &rules, 1), -1);
    cr_assert_str_eq(br_error_get(), "b.json: a baseline of suite 'other', not of 's'");
    br_comparison_dispose(&c);
    br_run_dispose(&base);
    br_run_dispose(&cur);
}

Test(compare, a_change_within_the_between_run_spread_is_same) {
    br_run base, cur;
    small_run(&base, "s", "aaaaaaa000000000000000000000000000000000");
    small_run(&cur, "s", "bbbbbbb000000000000000000000000000000000");
    timed(&base, 0, 1, 1000, 900);
    timed(&cur, 0, 1, 1050, 900); /* +5%, significant in the samples */
    timed(&base, 0, 2, 1000, 900);
    timed(&cur, 0, 2, 1600, 900); /* +60% */
    for (size_t i = 0; i < 2; i++) {
        br_timing *t = &base.cases[i].cold;
        t->run_medians = xcalloc(3, sizeof *t->run_medians);
        t->run_medians[0] = 1040; /* three saves: a spread of 4% */
        t->run_medians[1] = 1000;
        t->run_medians[2] = 1000;
        t->n_run_medians = 3;
    }
    br_comparison c;
    cr_assert_eq(br_baseline_compare(&c, &base, "b.json", &cur, &rules, 0), 0);
    const br_compare_entry *e = &c.entries[0];
    /* sd of ln 1040, ln 1000, ln 1000 (0.022644 on 2 df) with the GPU's
     * assumed 1.5% on BR_DRIFT_ASSUMED_DF (drift.h, "Power") */
    double own = 0.022644 * 0.022644;
    cr_assert_float_eq(
        e->spread,
        sqrt((BR_DRIFT_ASSUMED_DF * 0.015 * 0.015 + 2 * own) / (BR_DRIFT_ASSUMED_DF + 2)), 1e-6);
    cr_assert_eq(e->spread_runs, 3);
    cr_assert_float_eq(e->base_median, cbrt(1040.0 * 1000 * 1000), 1e-9, "geometric mean");
    cr_assert_lt(e->p_value, 1e-6);
    cr_assert_gt(e->p_runs, 0.01);
    cr_assert_eq(e->status, BR_CHANGE_SAME, "+5%% is within the drift");
    cr_assert_str_eq(e->why, "within the between-run spread");
    cr_assert_gt(e->mde, 0.05);
    /* Two cases with a p: each judged at 0.01 / 2 (family.h). */
    cr_assert_eq(c.entries[1].status, BR_CHANGE_SLOWER, "+60%% is beyond it");
    cr_assert_str_eq(c.entries[1].decided_by, "time");
    cr_assert_str_eq(e->spread_from, "assumed+runs", "two cases: too few for a prior");
    br_comparison_dispose(&c);
    /* One run median, no prior, and one other case with a spread of its
     * own: that spread (2.26% on 2 df, t(2)) could be pooled, but t(2)
     * makes it deafer than the assumed 1.5% on 20 df, which lends instead;
     * +5% is within it. */
    base.cases[0].cold.run_medians[0] = 1000;
    base.cases[0].cold.n_run_medians = 1;
    cr_assert_eq(br_baseline_compare(&c, &base, "b.json", &cur, &rules, 0), 0);
    cr_assert_str_eq(c.entries[0].spread_from, "assumed");
    cr_assert_float_eq(c.entries[0].spread, 0.015, 1e-12);
    cr_assert_float_eq(c.entries[0].spread_df, BR_DRIFT_ASSUMED_DF, 1e-12);
    cr_assert_eq(c.entries[0].status, BR_CHANGE_SAME);
    br_comparison_dispose(&c);
    /* Both saved once, no prior: a 1.5% GPU drift assumed; +5% is within
     * it, +40% is not. */
    base.cases[1].cold.n_run_medians = 1;
    cr_assert_eq(br_baseline_compare(&c, &base, "b.json", &cur, &rules, 0), 0);
    cr_assert_str_eq(c.entries[0].spread_from, "assumed");
    cr_assert_float_eq(c.entries[0].spread, 0.015, 1e-12);
    cr_assert_eq(c.entries[0].status, BR_CHANGE_SAME);
    cr_assert_str_eq(c.entries[0].why, "within the between-run spread");
    cr_assert_eq(c.entries[1].status, BR_CHANGE_SLOWER);
    br_comparison_dispose(&c);
    br_run_dispose(&base);
    br_run_dispose(&cur);
}

static char *render_with(const char *name, const br_run *r, int color);

/* A baseline saved three times at one commit with a known between-run drift,
 * written as a results file and read back, against runs of unchanged code
 * that the drift moved, and against a real slowdown. */
Test(compare, synthetic_results_files_with_known_drift) {
    br_run base;
    small_run(&base, "s", "aaaaaaa000000000000000000000000000000000");
    /* n=1: a host-like kernel, 8% drift; n=2: a GPU kernel at 0.3%. */
    const double drift[2][3] = {{1000, 1080, 930}, {2000, 2006, 1995}};
    for (int64_t n = 1; n <= 2; n++) {
        br_case_result *c = timed(&base, 0, n, drift[n - 1][2], 900);
        c->cold.run_medians = xcalloc(3, sizeof(double));
        memcpy(c->cold.run_medians, drift[n - 1], sizeof drift[n - 1]);
        c->cold.n_run_medians = 3;
    }
    char *path = br_strfmt("%s/base.json", tmp);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    const br_run *one = &base;
    cr_assert_eq(br_results_write(f, &one, 1), 0, "%s", br_error_get());
    fclose(f);
    br_run_dispose(&base);
    br_run *read = NULL;
    size_t n_read = 0;
    cr_assert_eq(br_results_load(&read, &n_read, path), 0, "%s", br_error_get());
    cr_assert_eq(read[0].cases[0].cold.n_run_medians, 3);

    /* Ten reruns of unchanged code, each moved by the drift seen in the
     * saves (up to +-8% and +-0.3%): never slower, though the samples alone
     * (the old rule) call most of them changed. */
    const double moved[10] = {1.08, 0.93, 1.05, 1.10, 0.97, 1.07, 1.0, 0.95, 1.09, 1.04};
    size_t old_rule = 0;
    for (size_t r = 0; r < 10; r++) {
        br_run cur;
        small_run(&cur, "s", "bbbbbbb000000000000000000000000000000000");
        timed(&cur, 0, 1, 1000 * moved[r], 900);
        timed(&cur, 0, 2, 2000 * (1 + (moved[r] - 1) / 25), 900);
        br_comparison c;
        cr_assert_eq(br_baseline_compare(&c, &read[0], path, &cur, &rules, 0), 0);
        cr_assert_eq(c.count[BR_CHANGE_SLOWER], 0, "rerun %zu: %s %+.3f", r,
                     br_change_name(c.entries[0].status), c.entries[0].change);
        cr_assert_eq(br_baseline_fails(&c, BR_FAIL_ON_SLOWER), 0);
        old_rule += c.entries[0].p_value < 0.01 && c.entries[0].change > 0.02;
        br_comparison_dispose(&c);
        br_run_dispose(&cur);
    }
    cr_assert_geq(old_rule, 4, "the U test alone would have failed %zu runs", old_rule);

    /* A real slowdown: 3x the host kernel, +8% of the GPU kernel (three saves
     * give t(2): the host kernel's MDE is over 100%, the GPU kernel's 5%). */
    br_run cur;
    small_run(&cur, "s", "bbbbbbb000000000000000000000000000000000");
    timed(&cur, 0, 1, 3000, 900);
    timed(&cur, 0, 2, 2160, 900);
    br_comparison c;
    cr_assert_eq(br_baseline_compare(&c, &read[0], path, &cur, &rules, 0), 0);
    cr_assert_eq(c.entries[0].status, BR_CHANGE_SLOWER, "%s", br_change_name(c.entries[0].status));
    cr_assert_eq(c.entries[1].status, BR_CHANGE_SLOWER, "%s", br_change_name(c.entries[1].status));
    cr_assert_lt(c.entries[1].mde, 0.08, "the GPU kernel's MDE: %g", c.entries[1].mde);
    cr_assert_gt(c.entries[0].mde, c.entries[1].mde);
    /* The new fields go through the codec. */
    cur.comparison = &c;
    char *out = br_strfmt("%s/cur.json", tmp);
    f = fopen(out, "w");
    cr_assert_not_null(f);
    one = &cur;
    cr_assert_eq(br_results_write(f, &one, 1), 0, "%s", br_error_get());
    fclose(f);
    cur.comparison = NULL;
    char *text = NULL;
    cr_assert_eq(br_read_file(&text, NULL, out, 1 << 22), 0);
    cr_assert(strstr(text, "\"mde\": "), "%s", text);
    cr_assert(strstr(text, "\"decided_by\": \"time\""), "%s", text);
    cr_assert(strstr(text, "\"spread_runs\": 3"), "%s", text);
    cr_assert(strstr(text, "\"not_compared\": {\n"), "%s", text);
    cr_assert(strstr(text, "\"not_compared\": null"), "%s", text);
    free(text);
    br_run *back = NULL;
    size_t n_back = 0;
    cr_assert_eq(br_results_load(&back, &n_back, out), 0, "a file with a comparison reads: %s",
                 br_error_get());
    br_results_free(back, n_back);
    br_comparison_dispose(&c);
    br_run_dispose(&cur);
    br_results_free(read, n_read);
    free(out);
    free(path);
}

/* Cases skipped for want of a GPU, and baseline cases left out by -k or -p,
 * are not compared: one line in the reports, not a row each. */
Test(compare, skipped_and_left_out_cases_are_one_line) {
    br_run base, cur;
    small_run(&base, "s", "aaaaaaa000000000000000000000000000000000");
    small_run(&cur, "s", "bbbbbbb000000000000000000000000000000000");
    for (int64_t n = 1; n <= 4; n++) {
        timed(&base, 0, n, 1000, 900);
        timed(&base, 1, n, 1000, 900);
    }
    /* The run: -p n=[1,2,9], k at 1 and 2 measured, k2 skipped (no GPU),
     * k at 9 new, k2 at 9 skipped and new. */
    timed(&cur, 0, 1, 1000, 900);
    timed(&cur, 0, 2, 1000, 900);
    for (int64_t n = 1; n <= 2; n++)
        add_case(&cur, 1, (size_t)n, &n, BR_STATUS_SKIPPED, "no-gpu", "no CUDA device", NAN, NAN);
    timed(&cur, 0, 9, 1000, 900);
    const int64_t n9 = 9;
    add_case(&cur, 1, 9, &n9, BR_STATUS_SKIPPED, "no-gpu", "no CUDA device", NAN, NAN);
    cur.comparison = xcalloc(1, sizeof *cur.comparison);
    br_comparison *c = cur.comparison;
    cr_assert_eq(br_baseline_compare(c, &base, "b.json", &cur, &rules, 0), 0);
    cr_assert_eq(c->n_no_gpu, 3);
    cr_assert_eq(c->count[BR_CHANGE_MISSING], 4, "n=3, 4 of both kernels, before the scope");
    int64_t vals[] = {1, 2, 9};
    br_param_override p = {.name = "n", .values = vals, .n_values = 3};
    br_comparison_scope(c, &base, NULL, 0, &p, 1);
    cr_assert_eq(c->n_left_out_p, 4);
    cr_assert_eq(c->count[BR_CHANGE_MISSING], 0);
    cr_assert_eq(c->count[BR_CHANGE_SAME], 2);
    cr_assert_eq(c->count[BR_CHANGE_NEW], 1);
    char *plain = render_with("table", &cur, 0);
    cr_assert(strstr(plain, "3 cases skipped (no GPU) and 4 left out by -p: not compared\n"), "%s",
              plain);
    cr_assert_null(strstr(plain, "║ k2 "), "no row for a case not compared: %s", plain);
    cr_assert(strstr(plain, "vs baseline: 0 slower, 2 same, 1 new\n"), "%s", plain);
    char *md = render_with("markdown", &cur, 0);
    cr_assert(strstr(md, "3 cases skipped (no GPU) and 4 left out by -p: not compared."), "%s", md);
    cr_assert_null(strstr(md, "<td>k2</td>"), "%s", md);
    free(plain);
    free(md);

    /* -k k: the other kernel's baseline cases are left out by -k. */
    br_comparison_dispose(c);
    cr_assert_eq(br_baseline_compare(c, &base, "b.json", &cur, &rules, 0), 0);
    const char *pat[] = {"k"};
    br_comparison_scope(c, &base, pat, 1, NULL, 0);
    cr_assert_eq(c->n_left_out_k, 2, "k2 at n=3, 4");
    cr_assert_eq(c->count[BR_CHANGE_MISSING], 2, "k at n=3, 4: really missing");
    char line[200];
    c->n_no_gpu = 1;
    c->n_left_out_p = 1;
    br_report_not_compared(line, sizeof line, c);
    cr_assert_str_eq(line, "1 case skipped (no GPU), 2 left out by -k and 1 left out by -p: "
                           "not compared");
    c->n_no_gpu = c->n_left_out_k = c->n_left_out_p = 0;
    cr_assert_eq(br_report_not_compared(line, sizeof line, c), 0);
    cr_assert_str_eq(line, "");
    br_run_dispose(&base);
    br_run_dispose(&cur);
}

/* Render runs with reporter `name` (colour on or off); caller frees. */
static char *render_with(const char *name, const br_run *r, int color) {
    const br_reporter *rep = br_reporter_find(name);
    cr_assert_not_null(rep);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert_not_null(f);
    br_report_opts opts = {.ascii = 0, .color = color};
    const br_run *runs[] = {r};
    cr_assert_eq(rep->write(f, runs, 1, &opts), 0, "%s", br_error_get());
    fclose(f);
    return buf;
}

Test(compare, reports_show_the_comparison_coloured_only_when_asked) {
    br_run base, cur;
    status_pair(&base, &cur);
    cur.comparison = xcalloc(1, sizeof *cur.comparison);
    cr_assert_eq(br_baseline_compare(cur.comparison, &base, "baselines/s/x.json", &cur, &rules, 0),
                 0);
    char *plain = render_with("table", &cur, 0);
    cr_assert(strstr(plain, "vs baseline baselines/s/x.json · aaaaaaa 2026-11-22T10:00:00Z"), "%s",
              plain);
    cr_assert(
        strstr(plain,
               "║ k      │ n=2    │              1.000 │     1.10 │ +10.0% │ 7.2% │ 2.5e-04 │ "
               "slower "),
        "%s", plain);
    /* 5 cases have a p-value, 2 are changed: each judged at 0.01 x 2 / 5 (family.h). */
    cr_assert(strstr(plain, "slower or faster = |change| > 2% and p < 0.004 (0.01 over 5 cases) "
                            "against the between-run spread"),
              "%s", plain);
    cr_assert_float_eq(cur.comparison->case_alpha, 0.004, 1e-12);
    cr_assert_eq(cur.comparison->cases_tested, 5);
    cr_assert(strstr(plain, "unknown: too few samples"), "%s", plain);
    cr_assert(strstr(plain, "one save: ±1.5% drift between runs assumed"), "%s", plain);
    cr_assert(strstr(plain, "vs baseline: 1 slower, 1 faster, 2 same, 3 unknown, 1 new, 1 missing"),
              "%s", plain);
    cr_assert_null(strstr(plain, "\033["), "colour without being asked");
    char *color = render_with("table", &cur, 1);
    cr_assert(strstr(color, "\033[1;31mslower\033[0m"), "%s", color);
    cr_assert(strstr(color, "\033[32mfaster\033[0m"), "%s", color);
    char *md = render_with("markdown", &cur, 1);
    cr_assert_null(strstr(md, "\033["), "Markdown never carries colour");
    cr_assert(strstr(md, "**Regression:** 1 case(s) slower than the baseline"), "%s", md);
    cr_assert(strstr(md, "<tr><td>k</td><td>n=2</td><td align=\"right\">1.000</td><td "
                         "align=\"right\">1.10</td><td align=\"right\">+10.0%</td><td "
                         "align=\"right\">7.2%</td><td align=\"right\">2.5e-04</td><td>"
                         "<strong>slower</strong></td></tr>"),
              "%s", md);
    cr_assert(strstr(md, "significant at p &lt; 0.004 (0.01 over 5 cases) against"), "%s", md);
    cr_assert(strstr(md, "of the baseline's run medians (one save: ±1.5% drift between runs "
                         "assumed); MDE"),
              "%s", md);
    cr_assert(strstr(md, "<tr><td>k</td><td>n=8</td><td align=\"right\">1.00</td><td "
                         "align=\"right\">–</td><td align=\"right\">–</td><td "
                         "align=\"right\">–</td><td align=\"right\">–</td><td>missing</td></tr>"),
              "%s", md);
    cr_assert(strstr(md, "<details open>"), "%s", md);
    free(plain);
    free(color);
    free(md);
    br_run_dispose(&base);
    br_run_dispose(&cur);
}
