/* test_baseline.c - baselines: file names and paths, the comparison rules
 * (every status, new and missing cases, the device and suite checks, the
 * clock compared), the regression gate of each --fail-on, and saving: merge
 * of a partial run, failed cases never written, refusals, and the atomic
 * write under SIGKILL. */
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
#include "results/resultsfile.h"
#include "base/util.h"

TestSuite(baseline, .init = e2e_tmp_make, .fini = e2e_tmp_drop, .timeout = 120);

/* --- runs for comparisons ----------------------------------------------------- */

#define NS 40 /* samples per timing */

/* NS samples around `center` ns: a deterministic spread of +-1.5%. */
static void spread(double *out, size_t n, double center) {
    for (size_t i = 0; i < n; i++)
        out[i] = center * (1.0 + 0.015 * (double)((int)((i * 7) % 13) - 6) / 6.0);
}

/* A one-param ("n") run of kernel "k" on an H100 named `suite`, room for 16 cases. */
static void small_run(br_run *r, const char *suite, const char *sha) {
    const char *params[] = {"n"};
    run_init(r, suite, NULL, BR_METRIC_NONE, BR_MODE_BOTH, params, 1, 16);
    add_kernel(r, "k", "kernels/k.cu", BR_BACKEND_GPU);
    add_kernel(r, "k2", "kernels/k.cu", BR_BACKEND_GPU);
    git_commit(&r->git, sha, "main", 0);
    h100(r);
}

/* Case (kernel, n) with cold samples around `cold` ns and batch samples
 * around `batch` ns (NS each). */
static br_case_result *timed(br_run *r, size_t kernel, int64_t n, double cold, double batch) {
    double s[NS];
    br_case_result *c = add_case(r, kernel, (size_t)n, &n, BR_STATUS_OK, NULL, NULL, NAN, NAN);
    spread(s, NS, cold);
    set_timing(&c->cold, s, NS, 1.0, 1, "noise", 1980);
    spread(s, NS, batch);
    set_timing(&c->batch, s, NS, 1.0, 64, "noise", 1980);
    return c;
}

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

Test(baseline, every_status_by_the_rules) {
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

Test(baseline, a_larger_threshold_or_smaller_alpha_turns_slower_into_same_or_unknown) {
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

Test(baseline, duplicate_cases_pair_up_in_order) {
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

Test(baseline, the_headline_clock_is_compared) {
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

Test(baseline, cases_match_by_kernel_and_param_names_not_positions) {
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

Test(baseline, another_device_or_suite_is_refused_unless_forced) {
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

Test(baseline, a_change_within_the_rerun_spread_is_unknown) {
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

Test(baseline, reports_show_the_comparison_coloured_only_when_asked) {
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
    cr_assert(strstr(md, "| k | n=2 | 1.00 | 1.10 | +10.0% | <1e-6 | **slower** |"), "%s", md);
    cr_assert(strstr(md, "| k | n=8 | 1.00 | – | – | – | missing |"), "%s", md);
    cr_assert(strstr(md, "<details open>"), "%s", md);
    free(plain);
    free(color);
    free(md);
    br_run_dispose(&base);
    br_run_dispose(&cur);
}

/* --- names and paths ------------------------------------------------------------ */

Test(baseline, file_names_are_safe) {
    char b[64];
    br_baseline_file_name(b, sizeof b, "NVIDIA H100 80GB HBM3");
    cr_assert_str_eq(b, "NVIDIA-H100-80GB-HBM3");
    br_baseline_file_name(b, sizeof b, "Intel(R) Xeon(R) Platinum 8480+");
    cr_assert_str_eq(b, "Intel-R-Xeon-R-Platinum-8480");
    br_baseline_file_name(b, sizeof b, "../../etc/passwd");
    cr_assert_str_eq(b, "..-..-etc-passwd");
    br_baseline_file_name(b, sizeof b, "..");
    cr_assert_str_eq(b, "unknown");
    br_baseline_file_name(b, sizeof b, "  /\\  ");
    cr_assert_str_eq(b, "unknown");
    br_baseline_file_name(b, sizeof b, "Tesla V100-SXM2-16GB");
    cr_assert_str_eq(b, "Tesla-V100-SXM2-16GB");
    br_baseline_file_name(b, 8, "ABCDEFGHIJ");
    cr_assert_str_eq(b, "ABCDEFG");
    br_baseline_file_name(b, sizeof b, "\xc3\xa9t\xc3\xa9 GPU");
    cr_assert_str_eq(b, "t-GPU");
}

Test(baseline, paths_follow_suite_and_device) {
    br_run r;
    small_run(&r, "reduction", "aaaaaaa000000000000000000000000000000000");
    char *p = br_baseline_path("base", &r);
    cr_assert_str_eq(p, "base/reduction/NVIDIA-H100-80GB-HBM3.json");
    free(p);
    p = br_baseline_path(NULL, &r); /* the work tree of the suite's repository */
    cr_assert_str_eq(p, "/home/ci/benchrun/baselines/reduction/NVIDIA-H100-80GB-HBM3.json");
    free(p);
    r.git.present = 0;
    r.has_device = 0;
    snprintf(r.host.cpu_model, sizeof r.host.cpu_model, "AMD EPYC 9654");
    p = br_baseline_path(NULL, &r);
    cr_assert_str_eq(p, "baselines/reduction/AMD-EPYC-9654.json");
    free(p);
    br_run_dispose(&r);
}

/* --- saving ------------------------------------------------------------------------ */

static char *slurp_file(const char *path) {
    char *text = NULL;
    cr_assert_eq(br_read_file(&text, NULL, path, 1 << 28), 0, "%s", br_error_get());
    return text;
}

static const br_case_result *find_case(const br_run *r, const char *kernel, int64_t n) {
    for (size_t i = 0; i < r->n_cases; i++)
        if (strcmp(r->kernels[r->cases[i].kernel].name, kernel) == 0 && r->cases[i].params[0] == n)
            return &r->cases[i];
    return NULL;
}

Test(baseline, save_writes_ok_cases_and_a_partial_run_updates_only_its_own) {
    char *path = br_strfmt("%s/baselines/s/NVIDIA-H100-80GB-HBM3.json", tmp);
    br_run a, b;
    small_run(&a, "s", "aaaaaaaaaa000000000000000000000000000000");
    timed(&a, 0, 1, 1000, 900);
    timed(&a, 1, 1, 2000, 1900);
    timed(&a, 0, 2, 3000, 2900);
    const int64_t n3 = 3;
    add_case(&a, 1, 3, &n3, BR_STATUS_FAILED, "verify", "wrong", NAN, NAN);
    br_save_stats st;
    cr_assert_eq(br_baseline_save(path, &a, &st), 0, "%s", br_error_get());
    cr_assert_eq(st.written, 3);
    cr_assert_eq(st.refused, 1);
    cr_assert_eq(st.kept, 0);

    br_run *got = NULL;
    size_t n = 0;
    cr_assert_eq(br_results_load(&got, &n, path), 0, "%s", br_error_get());
    cr_assert_eq(n, 1);
    cr_assert_eq(got[0].n_cases, 3, "the failed case is not in the baseline");
    cr_assert_null(find_case(&got[0], "k2", 3));
    br_results_free(got, n);

    /* A later partial run (only kernel k) at commit b: k's cases are
     * replaced, k2's kept with the commit they were measured at; k n=2
     * failed now, so its old entry stays. */
    small_run(&b, "s", "bbbbbbbbbb000000000000000000000000000000");
    snprintf(b.date, sizeof b.date, "2026-11-23T09:00:00Z");
    timed(&b, 0, 1, 1100, 990);
    const int64_t n2 = 2;
    add_case(&b, 0, 2, &n2, BR_STATUS_FAILED, "run", "boom", NAN, NAN);
    timed(&b, 0, 5, 5000, 4900); /* new */
    cr_assert_eq(br_baseline_save(path, &b, &st), 0, "%s", br_error_get());
    cr_assert_eq(st.written, 2);
    cr_assert_eq(st.kept, 2);
    cr_assert_eq(st.refused, 1);

    cr_assert_eq(br_results_load(&got, &n, path), 0, "%s", br_error_get());
    const br_run *r = &got[0];
    cr_assert_str_eq(r->git.sha, b.git.sha);
    cr_assert_eq(r->n_cases, 4);
    const br_case_result *c = find_case(r, "k", 1);
    cr_assert_not_null(c);
    cr_assert_float_eq(c->cold.stats.median, 1100.0, 1e-9);
    cr_assert_null(c->commit, "measured at the run's commit");
    c = find_case(r, "k2", 1);
    cr_assert_not_null(c);
    cr_assert_float_eq(c->cold.stats.median, 2000.0, 1e-9);
    cr_assert_str_eq(c->commit, a.git.sha);
    cr_assert_str_eq(c->date, "2026-11-22T10:00:00Z");
    c = find_case(r, "k", 2);
    cr_assert_not_null(c, "an entry whose case failed now is kept");
    cr_assert_float_eq(c->cold.stats.median, 3000.0, 1e-9);
    cr_assert_str_eq(c->commit, a.git.sha);
    cr_assert_not_null(find_case(r, "k", 5));
    /* Plan order: by n, then kernel. */
    cr_assert_eq(r->cases[0].params[0], 1);
    cr_assert_eq(r->cases[1].params[0], 1);
    cr_assert_eq(r->cases[2].params[0], 2);
    cr_assert_eq(r->cases[3].params[0], 5);
    cr_assert_eq(r->cases[0].combo, r->cases[1].combo);
    cr_assert_neq(r->cases[1].combo, r->cases[2].combo);
    br_results_free(got, n);

    /* No temporary file is left behind. */
    char *dir = br_path_dir(path);
    char *cmd = br_strfmt("test $(ls -A '%s' | wc -l) -eq 1", dir);
    cr_assert_eq(system(cmd), 0, "stray files in %s", dir);
    free(cmd);
    free(dir);
    br_run_dispose(&a);
    br_run_dispose(&b);
    free(path);
}

Test(baseline, save_refuses_to_overwrite_what_it_cannot_read_or_another_device) {
    char *path = br_strfmt("%s/b.json", tmp);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("{\"schema_version\": 3, \"runs\": [", f); /* truncated */
    fclose(f);
    br_run r;
    small_run(&r, "s", "aaaaaaaaaa000000000000000000000000000000");
    timed(&r, 0, 1, 1000, 900);
    cr_assert_eq(br_baseline_save(path, &r, NULL), -2);
    cr_assert(strstr(br_error_get(), "not overwritten"), "%s", br_error_get());
    char *text = slurp_file(path);
    cr_assert_str_eq(text, "{\"schema_version\": 3, \"runs\": [");
    free(text);

    unlink(path);
    cr_assert_eq(br_baseline_save(path, &r, NULL), 0, "%s", br_error_get());
    snprintf(r.device.name, sizeof r.device.name, "NVIDIA H200");
    cr_assert_eq(br_baseline_save(path, &r, NULL), -2);
    cr_assert(strstr(br_error_get(), "measured on 'NVIDIA H100 80GB HBM3', not on 'NVIDIA H200'"),
              "%s", br_error_get());
    br_run_dispose(&r);
    free(path);
}

Test(baseline, load_finds_the_suite_and_says_when_there_is_none) {
    char *path = br_strfmt("%s/b.json", tmp);
    br_run r, got;
    small_run(&r, "s", "aaaaaaaaaa000000000000000000000000000000");
    timed(&r, 0, 1, 1000, 900);
    cr_assert_eq(br_baseline_load(&got, path, &r), 1, "no file: 1");
    cr_assert_eq(br_baseline_save(path, &r, NULL), 0, "%s", br_error_get());
    cr_assert_eq(br_baseline_load(&got, path, &r), 0, "%s", br_error_get());
    cr_assert_eq(got.n_cases, 1);
    br_run_dispose(&got);
    free(r.suite_name);
    r.suite_name = strdup("t");
    cr_assert_eq(br_baseline_load(&got, path, &r), -1);
    cr_assert(strstr(br_error_get(), "holds no run of suite 't'"), "%s", br_error_get());
    br_run_dispose(&got);
    br_run_dispose(&r);
    free(path);
}

/* The run medians of the cold timing of kernel k, n=1 in the baseline at path. */
static size_t saved_medians(const char *path, double *out, size_t max) {
    br_run *got = NULL;
    size_t n = 0;
    cr_assert_eq(br_results_load(&got, &n, path), 0, "%s", br_error_get());
    const br_timing *t = &find_case(&got[0], "k", 1)->cold;
    size_t m = t->n_run_medians;
    for (size_t i = 0; i < m && i < max; i++)
        out[i] = t->run_medians[i];
    br_results_free(got, n);
    return m;
}

Test(baseline, saves_at_one_clean_commit_accumulate_run_medians) {
    char *path = br_strfmt("%s/b.json", tmp);
    double med[BR_RUN_MEDIANS_MAX + 1];
    const double centers[] = {1000, 1030, 990};
    for (int i = 0; i < 3; i++) {
        br_run r;
        small_run(&r, "s", "aaaaaaaaaa000000000000000000000000000000");
        timed(&r, 0, 1, centers[i], 900);
        cr_assert_eq(br_baseline_save(path, &r, NULL), 0, "%s", br_error_get());
        br_run_dispose(&r);
        cr_assert_eq(saved_medians(path, med, 8), (size_t)i + 1);
        for (int k = 0; k <= i; k++)
            cr_assert_float_eq(med[k], centers[k], 1e-9);
    }
    /* Ten more: only the last BR_RUN_MEDIANS_MAX stay. */
    for (int i = 0; i < 10; i++) {
        br_run r;
        small_run(&r, "s", "aaaaaaaaaa000000000000000000000000000000");
        timed(&r, 0, 1, 2000 + i, 900);
        cr_assert_eq(br_baseline_save(path, &r, NULL), 0);
        br_run_dispose(&r);
    }
    cr_assert_eq(saved_medians(path, med, 8), BR_RUN_MEDIANS_MAX);
    cr_assert_float_eq(med[BR_RUN_MEDIANS_MAX - 1], 2009, 1e-9);
    cr_assert_float_eq(med[0], 2002, 1e-9);

    /* Another commit starts over; so does a dirty work tree. */
    br_run r;
    small_run(&r, "s", "bbbbbbbbbb000000000000000000000000000000");
    timed(&r, 0, 1, 1000, 900);
    cr_assert_eq(br_baseline_save(path, &r, NULL), 0);
    cr_assert_eq(saved_medians(path, med, 8), 1);
    r.git.dirty = 1;
    cr_assert_eq(br_baseline_save(path, &r, NULL), 0);
    cr_assert_eq(saved_medians(path, med, 8), 1, "a dirty tree is not a rerun of the commit");
    r.git.dirty = 0;
    cr_assert_eq(br_baseline_save(path, &r, NULL), 0);
    cr_assert_eq(saved_medians(path, med, 8), 1, "the baseline it follows was dirty");
    cr_assert_eq(br_baseline_save(path, &r, NULL), 0);
    cr_assert_eq(saved_medians(path, med, 8), 2);
    br_run_dispose(&r);

    /* A case kept by a partial save remembers that its run was dirty, so a
     * later clean save at that commit starts its medians over. */
    unlink(path);
    br_run full, part;
    small_run(&full, "s", "cccccccccc000000000000000000000000000000");
    timed(&full, 0, 1, 1000, 900);
    timed(&full, 1, 1, 2000, 1900);
    full.git.dirty = 1;
    cr_assert_eq(br_baseline_save(path, &full, NULL), 0);
    small_run(&part, "s", "cccccccccc000000000000000000000000000000");
    timed(&part, 0, 1, 1000, 900); /* only kernel k */
    cr_assert_eq(br_baseline_save(path, &part, NULL), 0);
    br_run *got = NULL;
    size_t n = 0;
    cr_assert_eq(br_results_load(&got, &n, path), 0, "%s", br_error_get());
    cr_assert_str_eq(find_case(&got[0], "k2", 1)->commit,
                     "cccccccccc000000000000000000000000000000-dirty");
    br_results_free(got, n);
    full.git.dirty = 0;
    cr_assert_eq(br_baseline_save(path, &full, NULL), 0);
    cr_assert_eq(br_results_load(&got, &n, path), 0, "%s", br_error_get());
    cr_assert_eq(find_case(&got[0], "k2", 1)->cold.n_run_medians, 1);
    cr_assert_eq(find_case(&got[0], "k", 1)->cold.n_run_medians, 2);
    br_results_free(got, n);
    br_run_dispose(&full);
    br_run_dispose(&part);
    free(path);
}

/* --- atomic write under SIGKILL ----------------------------------------------------- */

/* Writes half of `text`, then the process kills itself: a crash in the
 * middle of writing a baseline. */
static int write_half_then_die(FILE *f, void *p) {
    const char *text = p;
    fwrite(text, 1, strlen(text) / 2, f);
    fflush(f);
    fsync(fileno(f));
    raise(SIGKILL);
    return 0;
}

Test(baseline, sigkill_in_the_middle_of_a_write_leaves_the_old_baseline_whole) {
    char *path = br_strfmt("%s/b.json", tmp);
    br_run r;
    small_run(&r, "s", "aaaaaaaaaa000000000000000000000000000000");
    timed(&r, 0, 1, 1000, 900);
    cr_assert_eq(br_baseline_save(path, &r, NULL), 0, "%s", br_error_get());
    char *before = slurp_file(path);

    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        br_write_atomic(path, write_half_then_die, before);
        _exit(0); /* not reached */
    }
    int st;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    cr_assert(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    char *after = slurp_file(path);
    cr_assert_str_eq(after, before, "the baseline changed after a SIGKILL mid-write");
    free(after);
    free(before);
    br_run_dispose(&r);
    free(path);
}

Test(baseline, sigkill_at_any_moment_of_a_real_save_leaves_old_or_new_never_a_part) {
    char *path = br_strfmt("%s/b.json", tmp);
    br_run old_run, new_run;
    /* Big enough that writing takes a while: 40 cases x 4000 samples. */
    small_run(&old_run, "s", "aaaaaaaaaa000000000000000000000000000000");
    small_run(&new_run, "s", "bbbbbbbbbb000000000000000000000000000000");
    free(old_run.cases);
    free(new_run.cases);
    old_run.cases = xcalloc(40, sizeof *old_run.cases);
    new_run.cases = xcalloc(40, sizeof *new_run.cases);
    static double s[4000];
    for (int64_t n = 0; n < 40; n++) {
        spread(s, 4000, 1000.0 + (double)n);
        set_timing(&add_case(&old_run, 0, (size_t)n, &n, BR_STATUS_OK, NULL, NULL, NAN, NAN)->cold,
                   s, 4000, 1.0, 1, "noise", 1980);
        set_timing(&add_case(&new_run, 0, (size_t)n, &n, BR_STATUS_OK, NULL, NULL, NAN, NAN)->cold,
                   s, 4000, 1.1, 1, "noise", 1980);
    }
    char *other = br_strfmt("%s/new.json", tmp);
    cr_assert_eq(br_baseline_save(other, &new_run, NULL), 0, "%s", br_error_get());
    char *new_text = slurp_file(other);
    cr_assert_eq(br_baseline_save(path, &old_run, NULL), 0, "%s", br_error_get());
    char *old_text = slurp_file(path);
    cr_assert_str_neq(old_text, new_text);

    /* How long one save takes, to spread the kills over it. */
    double t0 = br_now_ns();
    cr_assert_eq(br_baseline_save(other, &new_run, NULL), 0);
    double save_ns = br_now_ns() - t0;

    int saw_old = 0, saw_new = 0;
    for (int i = 0; i < 24; i++) {
        pid_t pid = fork();
        cr_assert_geq(pid, 0);
        if (pid == 0)
            _exit(br_baseline_save(path, &new_run, NULL) == 0 ? 0 : 1);
        struct timespec d = {0, (long)(save_ns * (double)(i % 12) / 10.0)};
        nanosleep(&d, NULL);
        kill(pid, SIGKILL);
        int st;
        cr_assert_eq(waitpid(pid, &st, 0), pid);
        char *now = slurp_file(path);
        int is_old = strcmp(now, old_text) == 0, is_new = strcmp(now, new_text) == 0;
        cr_assert(is_old || is_new, "kill %d (%s) left a baseline that is neither old nor new", i,
                  WIFSIGNALED(st) ? "killed" : "finished");
        saw_old |= is_old;
        saw_new |= is_new;
        br_run *got = NULL;
        size_t n = 0;
        cr_assert_eq(br_results_load(&got, &n, path), 0, "%s", br_error_get());
        br_results_free(got, n);
        free(now);
        /* Put the old one back, so that every round has a baseline to lose. */
        if (is_new)
            cr_assert_eq(br_baseline_save(path, &old_run, NULL), 0);
    }
    cr_log_info("SIGKILL rounds: old kept %s, new complete %s", saw_old ? "yes" : "no",
                saw_new ? "yes" : "no");
    cr_assert(saw_old, "no kill landed before the rename");
    free(old_text);
    free(new_text);
    free(other);
    br_run_dispose(&old_run);
    br_run_dispose(&new_run);
    free(path);
}
