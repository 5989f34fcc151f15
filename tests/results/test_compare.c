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

#include "results/baseline.h"
#include "e2e_util.h"
#include "base/error.h"
#include "reporters/reporter.h"
#include "results/results.h"
#include "results_fixture.h"
#include "baseline_runs.h"
#include "results/resultsfile.h"
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

static const br_regression_cfg rules = {0.02, 0.01};

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
    set_timing(&c->cold, few_b, 3, 1.0, 1, "noise", 1980);
    c = add_case(cur, 0, 5, &n5, BR_STATUS_OK, NULL, NULL, NAN, NAN);
    set_timing(&c->cold, few_c, 3, 1.0, 1, "noise", 1980);

    /* n=6: the median moves by a third but the two sets overlap almost
     * wholly (10 x 1000 and 10 x 2000 against 9 x 1000 and 11 x 2000). */
    const int64_t n6 = 6;
    double noisy_b[20], noisy_c[20];
    for (size_t i = 0; i < 20; i++) {
        noisy_b[i] = i < 10 ? 1000 : 2000;
        noisy_c[i] = i < 9 ? 1000 : 2000;
    }
    c = add_case(base, 0, 6, &n6, BR_STATUS_OK, NULL, NULL, NAN, NAN);
    set_timing(&c->cold, noisy_b, 20, 1.0, 1, "noise", 1980);
    c = add_case(cur, 0, 6, &n6, BR_STATUS_OK, NULL, NULL, NAN, NAN);
    set_timing(&c->cold, noisy_c, 20, 1.0, 1, "noise", 1980);
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
    cr_assert_str_eq(e->why, "too noisy to tell");
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
    br_regression_cfg wide = {0.15, 0.01};
    cr_assert_eq(br_baseline_compare(&c, &base, "b.json", &cur, &wide, 0), 0);
    cr_assert_eq(entry(&c, "k", "n=2")->status, BR_CHANGE_SAME);
    cr_assert_eq(c.count[BR_CHANGE_SLOWER], 0);
    br_comparison_dispose(&c);

    br_regression_cfg zero = {0.0, 0.01}; /* every significant change counts */
    cr_assert_eq(br_baseline_compare(&c, &base, "b.json", &cur, &zero, 0), 0);
    cr_assert_eq(entry(&c, "k", "n=4")->status, BR_CHANGE_SLOWER);
    br_comparison_dispose(&c);

    br_regression_cfg bad = {0.02, 1.5};
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
               1, "noise", NAN);
    set_timing(&add_case(&cur, 0, 0, v_mn, BR_STATUS_OK, NULL, NULL, NAN, NAN)->cold, s, NS, 1.3, 1,
               "noise", NAN);
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

Test(compare, a_change_within_the_rerun_spread_is_unknown) {
    br_run base, cur;
    small_run(&base, "s", "aaaaaaa000000000000000000000000000000000");
    small_run(&cur, "s", "bbbbbbb000000000000000000000000000000000");
    timed(&base, 0, 1, 1000, 900);
    timed(&cur, 0, 1, 1050, 900); /* +5%, significant */
    timed(&base, 0, 2, 1000, 900);
    timed(&cur, 0, 2, 1100, 900); /* +10% */
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
    cr_assert_float_eq(c.entries[0].spread, 0.04, 1e-12);
    cr_assert_lt(c.entries[0].p_value, 1e-6);
    cr_assert_eq(c.entries[0].status, BR_CHANGE_UNKNOWN, "+5%% is within 2 x 4%%");
    cr_assert_str_eq(c.entries[0].why, "within the baseline's rerun spread");
    cr_assert_eq(c.entries[1].status, BR_CHANGE_SLOWER, "+10%% is beyond 2 x 4%%");
    br_comparison_dispose(&c);
    /* One run median: no spread known, the rules alone decide. */
    base.cases[0].cold.n_run_medians = 1;
    cr_assert_eq(br_baseline_compare(&c, &base, "b.json", &cur, &rules, 0), 0);
    cr_assert(isnan(c.entries[0].spread));
    cr_assert_eq(c.entries[0].status, BR_CHANGE_SLOWER);
    br_comparison_dispose(&c);
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
    cr_assert(strstr(plain,
                     "║ k      │ n=2    │               1.00 │     1.10 │ +10.0% │   <1e-6 │ "
                     "slower"),
              "%s", plain);
    cr_assert(strstr(plain, "unknown: too few samples"), "%s", plain);
    cr_assert(strstr(plain, "vs baseline: 1 slower, 1 faster, 2 same, 3 unknown, 1 new, 1 missing"),
              "%s", plain);
    cr_assert_null(strstr(plain, "\033["), "colour without being asked");
    char *color = render_with("table", &cur, 1);
    cr_assert(strstr(color, "\033[1;31mslower\033[0m"), "%s", color);
    cr_assert(strstr(color, "\033[32mfaster\033[0m"), "%s", color);
    char *md = render_with("markdown", &cur, 1);
    cr_assert_null(strstr(md, "\033["), "Markdown never carries colour");
    cr_assert(strstr(md, "**Regression:** 1 case(s) slower than the baseline"), "%s", md);
    cr_assert(strstr(md, "<tr><td>k</td><td>n=2</td><td align=\"right\">1.00</td><td "
                         "align=\"right\">1.10</td><td align=\"right\">+10.0%</td><td "
                         "align=\"right\">&lt;1e-6</td><td><strong>slower</strong></td></tr>"),
              "%s", md);
    cr_assert(strstr(md, "<tr><td>k</td><td>n=8</td><td align=\"right\">1.00</td><td "
                         "align=\"right\">–</td><td align=\"right\">–</td><td "
                         "align=\"right\">–</td><td>missing</td></tr>"),
              "%s", md);
    cr_assert(strstr(md, "<details open>"), "%s", md);
    free(plain);
    free(color);
    free(md);
    br_run_dispose(&base);
    br_run_dispose(&cur);
}
