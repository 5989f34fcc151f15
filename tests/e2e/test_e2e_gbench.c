/* SPDX-License-Identifier: Apache-2.0 */
/* End-to-end Google Benchmark JSON: the benchrun executable runs a host
 * suite with --gbench FILE --gbench-repetitions, and every repetition and
 * aggregate of FILE is checked against the samples and statistics of the
 * --json results of the same run; --gbench-repetitions alone is refused; a
 * run with nothing measured (its GPU case skipped) writes an empty list with
 * the reason and keeps exit status 0. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>

#include "e2e_util.h"

#define E2E BR_FIXTURES_DIR "/e2e"

static char *cache_arg;

static void make_tmp(void) {
    e2e_tmp_make();
    cache_arg = br_strfmt("--cache-dir=%s/cache", tmp);
    unsetenv("BR_TEST_SUM_PASSES");
}

static void drop_tmp(void) {
    e2e_tmp_drop();
    free(cache_arg);
}

TestSuite(e2e_gbench, .init = make_tmp, .fini = drop_tmp, .timeout = 180);

static json_t *load_json(const char *path) {
    json_error_t err;
    json_t *j = json_load_file(path, JSON_REJECT_DUPLICATES, &err);
    cr_assert_not_null(j, "%s is not valid JSON: %s (line %d)", path, err.text, err.line);
    return j;
}

static double real_of(json_t *o, const char *key) {
    json_t *v = json_object_get(o, key);
    cr_assert(json_is_number(v), "%s is not a number", key);
    return json_number_value(v);
}

/* a equals b within a relative 1e-12 (both written with 17 digits). */
static void expect_close(double a, double b, const char *what) {
    cr_expect(fabs(a - b) <= 1e-12 * fabs(b), "%s: %.17g, want %.17g", what, a, b);
}

Test(e2e_gbench, repetitions_are_the_samples_of_the_results_file) {
    char *json = br_strfmt("%s/results.json", tmp), *gb = br_strfmt("%s/gbench.json", tmp);
    const char *args[] = {cache_arg, "--no-compare",         "--json", json,           "--gbench",
                          gb,        "--gbench-repetitions", "-q",     E2E "/ok.yaml", NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 0, "exit %d\n%s", r.status, r.err);
    json_t *res = load_json(json), *g = load_json(gb);
    json_t *cases = json_object_get(json_array_get(json_object_get(res, "runs"), 0), "cases");
    json_t *arr = json_object_get(g, "benchmarks");
    cr_assert_eq(json_array_size(cases), 2);
    const char *names[] = {"sum_ok/n:1000", "sum_ok/n:4096"};
    size_t at = 0;
    for (size_t ci = 0; ci < 2; ci++) {
        json_t *cold = json_object_get(json_array_get(cases, ci), "cold");
        json_t *samples = json_object_get(cold, "samples_ns");
        size_t n = json_array_size(samples);
        cr_assert_geq(n, 5, "min_samples 5");
        double bytes = real_of(json_array_get(cases, ci), "bytes");
        for (size_t i = 0; i < n; i++, at++) {
            json_t *e = json_array_get(arr, at);
            cr_assert_not_null(e);
            cr_expect_str_eq(json_string_value(json_object_get(e, "name")), names[ci]);
            cr_expect_str_eq(json_string_value(json_object_get(e, "run_type")), "iteration");
            cr_expect_eq(json_integer_value(json_object_get(e, "repetition_index")), (long long)i);
            cr_expect_eq(json_integer_value(json_object_get(e, "repetitions")), (long long)n);
            json_t *sv = json_array_get(samples, i);
            cr_assert(json_is_number(sv));
            double s = json_number_value(sv);
            expect_close(real_of(e, "real_time"), s, "real_time");
            expect_close(real_of(e, "bytes_per_second"), bytes / (s * 1e-9), "bytes_per_second");
        }
        const char *agg[] = {"mean", "median", "stddev", "cv"};
        const char *stat[] = {"mean", "median", "stddev", "noise"};
        for (size_t a = 0; a < 4; a++, at++) {
            json_t *e = json_array_get(arr, at);
            cr_assert_not_null(e);
            cr_expect_str_eq(json_string_value(json_object_get(e, "aggregate_name")), agg[a]);
            expect_close(real_of(e, "real_time"), real_of(cold, stat[a]), agg[a]);
        }
    }
    cr_expect_eq(json_array_size(arr), at, "nothing else");
    json_decref(res);
    json_decref(g);
    e2e_free(&r);
    free(json);
    free(gb);
}

Test(e2e_gbench, repetitions_need_a_gbench_file) {
    const char *args[] = {cache_arg, "--gbench-repetitions", E2E "/ok.yaml", NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_expect_eq(r.status, 2, "exit %d", r.status);
    cr_expect(strstr(r.err, "--gbench-repetitions") && strstr(r.err, "--gbench FILE"), "%s", r.err);
    e2e_free(&r);
}

Test(e2e_gbench, nothing_measured_writes_the_reason) {
    /* A suite of one GPU kernel (the smallest GPU fixture, to keep nvcc
     * short). */
    char *suite = br_strfmt("name: gpu_only\nsource: [%s/spin.cu]\nkernels: [spin]\n"
                            "params:\n  us: [10]\n",
                            E2E);
    char *suite_path = e2e_put("gpu_only.yaml", suite);
    char *json = br_strfmt("%s/results.json", tmp), *gb = br_strfmt("%s/gbench.json", tmp);
    const char *args[] = {cache_arg, "--no-compare", "--json",   json, "--gbench",
                          gb,        "-q",           suite_path, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    json_t *res = load_json(json);
    json_t *c = json_array_get(
        json_object_get(json_array_get(json_object_get(res, "runs"), 0), "cases"), 0);
    const char *status = json_string_value(json_object_get(c, "status"));
    if (status && strcmp(status, "skipped") != 0) {
        json_decref(res);
        e2e_free(&r);
        free(json);
        free(gb);
        free(suite);
        free(suite_path);
        cr_skip_test("spin was %s here: this machine has a GPU", status);
    }
    cr_expect_eq(r.status, 0, "skipped cases are no failure: exit %d\n%s", r.status, r.err);
    json_t *g = load_json(gb);
    cr_expect_eq(json_array_size(json_object_get(g, "benchmarks")), 0);
    const char *note =
        json_string_value(json_object_get(json_object_get(g, "context"), "benchrun_note"));
    cr_assert_not_null(note, "the context says why nothing was measured");
    cr_expect(strstr(note, "nothing measured: 1 of 1 cases skipped, 0 failed (no-gpu: "), "%s",
              note);
    json_decref(res);
    json_decref(g);
    e2e_free(&r);
    free(json);
    free(gb);
    free(suite);
    free(suite_path);
}
