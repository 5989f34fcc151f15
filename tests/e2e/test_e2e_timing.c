/* SPDX-License-Identifier: Apache-2.0 */
/* End-to-end wall-time breakdown: the benchrun executable runs trivial host
 * cases (tests/fixtures/speed) with --timing-report and --json; every case's
 * "wall" phases add up to its total, the totals fit in the run's wall time,
 * the report on stderr lists every phase and the slowest cases, and each
 * case stops on the confidence interval of its median, quickly. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "e2e_util.h"

static char *cache_arg;

static void make_tmp(void) {
    e2e_tmp_make();
    cache_arg = br_strfmt("--cache-dir=%s/cache", tmp);
}

static void drop_tmp(void) {
    e2e_tmp_drop();
    free(cache_arg);
}

TestSuite(e2e_timing, .init = make_tmp, .fini = drop_tmp, .timeout = 180);

static double num(json_t *o, const char *key) {
    json_t *v = json_object_get(o, key);
    cr_assert(json_is_number(v), "%s is not a number", key);
    return json_number_value(v);
}

Test(e2e_timing, phases_sum_to_each_case_and_the_report_shows_them) {
    char *json = br_strfmt("%s/results.json", tmp);
    const char *args[] = {cache_arg,
                          "--no-compare",
                          "--json",
                          json,
                          "--cache",
                          "warm",
                          "--timing-report",
                          "-p",
                          "i=[1,2,3,4,5]",
                          BR_FIXTURES_DIR "/speed/trivial100.yaml",
                          NULL};
    e2e_result r;
    double t0 = br_now_ns();
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    double wall = br_now_ns() - t0;
    cr_assert_eq(r.status, 0, "exit %d\n%s", r.status, r.err);
    json_error_t err;
    json_t *doc = json_load_file(json, 0, &err);
    cr_assert_not_null(doc, "%s", err.text);
    json_t *run = json_array_get(json_object_get(doc, "runs"), 0);
    cr_expect_gt(num(run, "compile_ns"), 0);
    json_t *cases = json_object_get(run, "cases");
    cr_assert_eq(json_array_size(cases), 5);
    const char *phases[] = {"start_ns", "setup_ns", "first_run_ns", "verify_ns", "warmup_ns",
                            "cold_ns",  "batch_ns", "teardown_ns",  "other_ns"};
    double cases_total = 0, prev_end = 0;
    for (size_t i = 0; i < 5; i++) {
        json_t *c = json_array_get(cases, i);
        json_t *w = json_object_get(c, "wall");
        cr_assert(json_is_object(w), "case %zu has no wall", i);
        double sum = 0;
        for (size_t p = 0; p < sizeof phases / sizeof *phases; p++) {
            double v = num(w, phases[p]);
            cr_expect_geq(v, 0, "%s", phases[p]);
            sum += v;
        }
        double total = num(w, "total_ns");
        cr_expect_gt(total, 0);
        cr_expect_leq(fabs(sum - total), 1e-6 * total + 1, "phases %.0f ns, total %.0f ns", sum,
                      total);
        cr_expect_gt(num(w, "cold_ns"), 0);
        cases_total += total;
        /* One worker: each case begins after the one before it ended. */
        double began = num(w, "began_ns");
        cr_expect_geq(began, prev_end - 1,
                      "case %zu began at %.0f ns, the one before ended at "
                      "%.0f ns",
                      i, began, prev_end);
        prev_end = began + total;
        json_t *cold = json_object_get(c, "cold");
        /* A trivial case reaches a stopping rule long before its 3 s timeout:
         * the median's CI on a quiet machine, the noise or plateau rule on a
         * loaded one (which rule is timing, not asserted). */
        const char *stop = json_string_value(json_object_get(cold, "stop_reason"));
        cr_expect(stop &&
                      (!strcmp(stop, "ci") || !strcmp(stop, "noise") || !strcmp(stop, "plateau")),
                  "stopped on %s", stop ? stop : "?");
    }
    cr_expect_lt(cases_total, wall, "the cases fit in the run");
    cr_expect(json_is_null(json_object_get(json_array_get(cases, 0), "batch")));
    const char *want[] = {"timing report: ", "  prepare ", "  compile ",
                          "  start ",        "  setup ",   "  cold ",
                          "  teardown ",     "  outputs ", "slowest cases:\n  trivial i="};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        cr_expect(strstr(r.err, want[i]), "no '%s' in:\n%s", want[i], r.err);
    json_decref(doc);
    e2e_free(&r);
    free(json);
}

Test(e2e_timing, no_report_without_the_option) {
    const char *args[] = {cache_arg,
                          "--no-compare",
                          "--cache",
                          "warm",
                          "-p",
                          "i=1",
                          BR_FIXTURES_DIR "/speed/trivial100.yaml",
                          NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 0, "exit %d\n%s", r.status, r.err);
    cr_expect_null(strstr(r.err, "timing report"));
    e2e_free(&r);
}

Test(e2e_timing, a_slow_steady_case_stops_on_ci_t_before_six_samples) {
    /* tests/fixtures/e2e/slow.yaml: 250 ms sleeps, six would take 1.5 s,
     * over ci_t's 1 s cap: Stein's interval of the log times stops it at 3
     * samples on a quiet machine (a few more where wake-ups jitter), with a
     * converged timing (no N flag) and the interval in the JSON. */
    char *json = br_strfmt("%s/slow.json", tmp);
    const char *args[] = {
        cache_arg, "--no-compare", "--json", json, BR_FIXTURES_DIR "/e2e/slow.yaml", NULL};
    e2e_result r;
    double t0 = br_now_ns();
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    double wall = br_now_ns() - t0;
    cr_assert_eq(r.status, 0, "exit %d\n%s", r.status, r.err);
    json_error_t err;
    json_t *doc = json_load_file(json, 0, &err);
    cr_assert_not_null(doc, "%s", err.text);
    json_t *c = json_array_get(
        json_object_get(json_array_get(json_object_get(doc, "runs"), 0), "cases"), 0);
    json_t *cold = json_object_get(c, "cold");
    const char *stop = json_string_value(json_object_get(cold, "stop_reason"));
    double n = num(cold, "n");
    cr_assert(stop && !strcmp(stop, "ci_t"), "stopped on %s after %.0f samples", stop ? stop : "?",
              n);
    cr_expect_geq(n, 3);
    cr_expect_lt(n, 6, "fewer than the distribution-free interval needs");
    cr_expect_str_eq(json_string_value(json_object_get(cold, "ci_method")), "log-t");
    cr_expect_float_eq(num(cold, "ci_level"), 0.95, 1e-12);
    double med = num(cold, "median"), lo = num(cold, "ci_low"), hi = num(cold, "ci_high");
    cr_expect(lo <= med && med <= hi, "median %.0f outside [%.0f, %.0f]", med, lo, hi);
    cr_expect_leq(fmax(med - lo, hi - med) / med, 0.0251, "within +-2.5%% (max_noise 50%%)");
    cr_expect_gt(med, 250e6);
    cr_expect_null(strstr(r.out, "N = noise"), "a converged timing has no N flag:\n%s", r.out);
    cr_expect_lt(wall, 5e9, "%.2f s", wall / 1e9);
    json_decref(doc);
    e2e_free(&r);
    free(json);
}
