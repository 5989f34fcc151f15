/* SPDX-License-Identifier: Apache-2.0 */
/* test_gbench_shape.c - the "gbench" reporter's repetitions shape
 * (--gbench-repetitions: each kept sample a repetition, then the
 * mean/median/stddev/cv aggregates), the context facts read from this host,
 * and what a run with nothing measured writes. The output is parsed back
 * with jansson and checked against the samples and benchrun's own br_stats. */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "base/error.h"
#include "reporters/reporter.h"
#include "model/run.h"
#include "results_fixture.h"

extern const br_reporter br_reporter_gbench;

/* Render the runs (repetitions shape when `reps`) and parse the text
 * strictly; the caller json_decref's the result. */
static json_t *render_json(const br_run *const *runs, size_t n_runs, int reps) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert_not_null(f);
    br_report_opts opts = {.gbench_repetitions = reps};
    int rc = br_reporter_gbench.write(f, runs, n_runs, &opts);
    fclose(f);
    cr_assert_eq(rc, 0, "gbench: %s", br_error_get());
    cr_expect(strstr(buf, "NaN") == NULL && strstr(buf, "Infinity") == NULL);
    json_error_t err;
    json_t *doc = json_loads(buf, JSON_REJECT_DUPLICATES, &err);
    cr_assert_not_null(doc, "not valid JSON: %s at %d:%d", err.text, err.line, err.column);
    free(buf);
    cr_assert(json_is_array(json_object_get(doc, "benchmarks")));
    cr_assert(json_is_object(json_object_get(doc, "context")));
    return doc;
}

/* The entries of doc whose "run_name" is `run_name`, in document order, into
 * out (at most max); their count. */
static size_t entries_of(json_t *doc, const char *run_name, json_t **out, size_t max) {
    size_t n = 0, i;
    json_t *e;
    json_array_foreach(json_object_get(doc, "benchmarks"), i, e) {
        if (strcmp(json_string_value(json_object_get(e, "run_name")), run_name) == 0 && n < max)
            out[n++] = e;
    }
    return n;
}

static void expect_string(json_t *obj, const char *key, const char *want) {
    json_t *v = json_object_get(obj, key);
    cr_assert(json_is_string(v), "%s is not a string", key);
    cr_expect_str_eq(json_string_value(v), want, "%s", key);
}

static void expect_integer(json_t *obj, const char *key, long long want) {
    json_t *v = json_object_get(obj, key);
    cr_assert(json_is_integer(v), "%s is not an integer", key);
    cr_expect_eq((long long)json_integer_value(v), want, "%s: %lld, want %lld", key,
                 (long long)json_integer_value(v), want);
}

/* A real within a relative 1e-12 of want (exact for want == 0). */
static void expect_real(json_t *obj, const char *key, double want) {
    json_t *v = json_object_get(obj, key);
    cr_assert(json_is_real(v), "%s is not a real", key);
    double got = json_real_value(v);
    cr_expect(fabs(got - want) <= 1e-12 * fabs(want), "%s: %.17g, want %.17g", key, got, want);
}

/* The keys of obj, in order, are exactly want[0..n). */
static void expect_keys(json_t *obj, const char *const *want, size_t n) {
    cr_expect_eq(json_object_size(obj), n, "%zu keys, want %zu", json_object_size(obj), n);
    size_t i = 0;
    for (void *it = json_object_iter(obj); it && i < n; it = json_object_iter_next(obj, it), i++)
        cr_expect_str_eq(json_object_iter_key(it), want[i], "key %zu", i);
}

static const char *const aggregates[] = {"mean", "median", "stddev", "cv"};

static double stat_of(const br_stats *s, size_t agg) {
    return agg == 0 ? s->mean : agg == 1 ? s->median : agg == 2 ? s->stddev : s->noise;
}

/* The repetitions shape of a case called `name` with headline timing t and
 * `bytes` per execution (NAN: none): one entry per kept sample, then four
 * aggregates equal to t's br_stats, family and instance as given. */
static void expect_repetitions(json_t *doc, const char *name, const br_timing *t, double bytes,
                               long long family, long long instance) {
    json_t *e[64];
    size_t n = entries_of(doc, name, e, 64);
    cr_assert_eq(n, t->n_samples + 4, "%s: %zu entries, want %zu samples + 4", name, n,
                 t->n_samples);
    for (size_t i = 0; i < t->n_samples; i++) {
        expect_string(e[i], "name", name);
        expect_string(e[i], "run_type", "iteration");
        expect_integer(e[i], "family_index", family);
        expect_integer(e[i], "per_family_instance_index", instance);
        expect_integer(e[i], "repetitions", (long long)t->n_samples);
        expect_integer(e[i], "repetition_index", (long long)i);
        expect_integer(e[i], "threads", 1);
        expect_integer(e[i], "iterations", (long long)t->reps);
        expect_real(e[i], "real_time", t->samples[i]);
        expect_real(e[i], "cpu_time", t->samples[i]);
        expect_string(e[i], "time_unit", "ns");
        if (!isnan(bytes))
            expect_real(e[i], "bytes_per_second", bytes / (t->samples[i] * 1e-9));
        else
            cr_expect_null(json_object_get(e[i], "bytes_per_second"));
        cr_expect_null(json_object_get(e[i], "aggregate_name"));
    }
    for (size_t a = 0; a < 4; a++) {
        json_t *x = e[t->n_samples + a];
        char want_name[512];
        snprintf(want_name, sizeof want_name, "%s_%s", name, aggregates[a]);
        expect_string(x, "name", want_name);
        expect_string(x, "run_name", name);
        expect_string(x, "run_type", "aggregate");
        expect_string(x, "aggregate_name", aggregates[a]);
        expect_string(x, "aggregate_unit", a == 3 ? "percentage" : "time");
        cr_expect_null(json_object_get(x, "repetition_index"), "aggregates have none");
        expect_integer(x, "family_index", family);
        expect_integer(x, "per_family_instance_index", instance);
        expect_integer(x, "repetitions", (long long)t->n_samples);
        expect_integer(x, "iterations", (long long)t->n_samples);
        expect_real(x, "real_time", stat_of(&t->stats, a));
        expect_real(x, "cpu_time", stat_of(&t->stats, a));
        expect_string(x, "time_unit", "ns");
    }
}

TestSuite(gbench_shape, .init = fixtures_setup, .fini = fixtures_teardown);

/* --- repetitions ------------------------------------------------------------------ */

Test(gbench_shape, default_is_one_entry_per_case) {
    json_t *doc = render_json(fixture_ptrs, N_RUNS, 0);
    cr_expect_eq(json_array_size(json_object_get(doc, "benchmarks")), 13);
    json_t *e[64];
    cr_expect_eq(entries_of(doc, "reduce_warp/n:1048576", e, 64), 1);
    json_decref(doc);
}

Test(gbench_shape, samples_become_repetitions_with_aggregates) {
    json_t *doc = render_json(fixture_ptrs, N_RUNS, 1);
    /* reduction, headline cold: reduce_cpu (host, 2 cases), then the GPU
     * kernels; reduce_naive's second case failed verification. */
    const br_run *r = &fixture[0];
    expect_repetitions(doc, "reduce_cpu/n:1048576", &r->cases[0].cold, r->cases[0].bytes, 0, 0);
    expect_repetitions(doc, "reduce_warp/n:1048576", &r->cases[2].cold, r->cases[2].bytes, 2, 0);
    /* sgemm (host, no bytes): items_per_second is FLOP over each sample. */
    const br_case_result *c = &fixture[2].cases[2];
    expect_repetitions(doc, "sgemm_host/n:2048/tile:16", &c->cold, NAN, 6, 1);
    json_t *e[64];
    size_t n = entries_of(doc, "sgemm_host/n:2048/tile:16", e, 64);
    for (size_t i = 0; i + 4 < n; i++)
        expect_real(e[i], "items_per_second", c->flops / (c->cold.samples[i] * 1e-9));
    /* Every entry is a repetition or an aggregate of an OK case: as many as
     * the kept samples of the 13 OK cases, plus 4 aggregates each. */
    size_t want = 0;
    for (size_t k = 0; k < N_RUNS; k++)
        for (size_t i = 0; i < fixture[k].n_cases; i++) {
            const br_case_result *x = &fixture[k].cases[i];
            if (x->status == BR_STATUS_OK) {
                const br_timing *t = br_case_headline(&fixture[k], x);
                want += t->n_samples + (t->n_samples >= 2 ? 4 : 0);
            }
        }
    cr_expect_eq(json_array_size(json_object_get(doc, "benchmarks")), want);
    json_decref(doc);
}

Test(gbench_shape, iteration_and_aggregate_keys_in_google_benchmark_order) {
    json_t *doc = render_json(&fixture_ptrs[3], 1, 1);
    json_t *e[64];
    size_t n = entries_of(doc, "spin_host", e, 64);
    cr_assert_gt(n, 4);
    const char *iter[] = {"name",
                          "family_index",
                          "per_family_instance_index",
                          "run_name",
                          "run_type",
                          "repetitions",
                          "repetition_index",
                          "threads",
                          "iterations",
                          "real_time",
                          "cpu_time",
                          "time_unit"};
    const char *agg[] = {"name",       "family_index",   "per_family_instance_index",
                         "run_name",   "run_type",       "repetitions",
                         "threads",    "aggregate_name", "aggregate_unit",
                         "iterations", "real_time",      "cpu_time",
                         "time_unit"};
    size_t n_iter = sizeof iter / sizeof iter[0], n_agg = sizeof agg / sizeof agg[0];
    /* spin_host has neither bytes nor flops: no counters. Batch: 100
     * executions per sample. */
    expect_integer(e[0], "iterations", 100);
    expect_keys(e[0], iter, n_iter);
    expect_keys(e[n - 1], agg, n_agg);
    json_decref(doc);
}

Test(gbench_shape, counter_aggregates_are_statistics_of_the_per_sample_counters) {
    /* bandwidth copy: 20 samples on the events clock, sample 17 without
     * kernel time (CUPTI lost its records). */
    const br_case_result *c = &fixture[1].cases[0];
    const br_timing *t = &c->cold;
    cr_assert_eq(t->n_samples, 20);
    cr_assert(isnan(t->kernel_ns[17]));
    json_t *doc = render_json(&fixture_ptrs[1], 1, 1);
    expect_repetitions(doc, "copy/n:268435456", t, c->bytes, 0, 0);
    json_t *e[64];
    size_t n = entries_of(doc, "copy/n:268435456", e, 64);
    cr_assert_eq(n, 24);
    for (size_t i = 0; i < 20; i++) {
        expect_real(e[i], "event_time_ns", t->event_ns[i]);
        if (i == 17)
            cr_expect_null(json_object_get(e[i], "kernel_time_ns"), "no kernel time");
        else
            expect_real(e[i], "kernel_time_ns", t->kernel_ns[i]);
    }
    double bps[20], kernel[19];
    size_t nk = 0;
    for (size_t i = 0; i < 20; i++) {
        bps[i] = c->bytes / (t->samples[i] * 1e-9);
        if (i != 17)
            kernel[nk++] = t->kernel_ns[i];
    }
    br_stats sb, sk, se;
    cr_assert_eq(br_stats_compute(&sb, bps, 20), 0);
    cr_assert_eq(br_stats_compute(&sk, kernel, nk), 0);
    cr_assert_eq(br_stats_compute(&se, t->event_ns, 20), 0);
    for (size_t a = 0; a < 4; a++) {
        expect_real(e[20 + a], "bytes_per_second", stat_of(&sb, a));
        expect_real(e[20 + a], "kernel_time_ns", stat_of(&sk, a));
        expect_real(e[20 + a], "event_time_ns", stat_of(&se, a));
    }
    json_decref(doc);
}

Test(gbench_shape, one_sample_has_no_aggregates) {
    br_run r;
    run_init(&r, "single", NULL, BR_METRIC_GBPS, BR_MODE_COLD, NULL, 0, 1);
    add_kernel(&r, "once", "kernels/once.c", BR_BACKEND_HOST);
    const int64_t none[1] = {0};
    const double s[] = {1234.5};
    br_case_result *c = add_case(&r, 0, 0, none, BR_STATUS_OK, NULL, NULL, 1e6, NAN);
    set_timing(&c->cold, s, 1, 1.0, 1, BR_STOP_MAX_SAMPLES, NAN);
    br_run_derive(&r);
    const br_run *runs[] = {&r};
    json_t *doc = render_json(runs, 1, 1);
    json_t *arr = json_object_get(doc, "benchmarks");
    cr_assert_eq(json_array_size(arr), 1, "Google Benchmark writes no aggregate for one run");
    expect_integer(json_array_get(arr, 0), "repetitions", 1);
    expect_real(json_array_get(arr, 0), "real_time", 1234.5);
    json_decref(doc);
    br_run_dispose(&r);
}

/* --- nothing measured ------------------------------------------------------------ */

Test(gbench_shape, all_skipped_writes_an_empty_list_with_the_reason) {
    br_run r;
    run_init(&r, "gpu_only", NULL, BR_METRIC_GBPS, BR_MODE_COLD, NULL, 0, 2);
    add_kernel(&r, "a", "kernels/a.cu", BR_BACKEND_GPU);
    add_kernel(&r, "b", "kernels/b.cu", BR_BACKEND_GPU);
    const int64_t none[1] = {0};
    add_case(&r, 0, 0, none, BR_STATUS_SKIPPED, "no-gpu", "no CUDA device", 1e6, NAN);
    add_case(&r, 1, 0, none, BR_STATUS_SKIPPED, "no-gpu", "no CUDA device", 1e6, NAN);
    br_run_derive(&r);
    const br_run *runs[] = {&r};
    for (int reps = 0; reps <= 1; reps++) {
        json_t *doc = render_json(runs, 1, reps);
        cr_expect_eq(json_array_size(json_object_get(doc, "benchmarks")), 0);
        json_t *ctx = json_object_get(doc, "context");
        expect_string(ctx, "benchrun_note",
                      "nothing measured: 2 of 2 cases skipped, 0 failed (no-gpu: no CUDA device)");
        expect_integer(ctx, "json_schema_version", 1);
        json_decref(doc);
    }
    br_run_dispose(&r);
}

Test(gbench_shape, a_measured_run_has_no_note) {
    json_t *doc = render_json(fixture_ptrs, N_RUNS, 0);
    cr_expect_null(json_object_get(json_object_get(doc, "context"), "benchrun_note"));
    json_decref(doc);
}

/* --- context read from this host ------------------------------------------------- */

Test(gbench_shape, context_of_a_run_measured_here) {
    char here[256];
    cr_assert_eq(gethostname(here, sizeof here), 0);
    here[sizeof here - 1] = '\0';
    snprintf(fixture[3].host.hostname, sizeof fixture[3].host.hostname, "%s", here);
    json_t *doc = render_json(&fixture_ptrs[3], 1, 0);
    json_t *ctx = json_object_get(doc, "context");
    expect_string(ctx, "host_name", here);
    json_t *mhz = json_object_get(ctx, "mhz_per_cpu");
    cr_assert(json_is_integer(mhz), "mhz_per_cpu is an integer, as Google Benchmark writes it");
    cr_expect_geq(json_integer_value(mhz), 0);
    /* The load average of a Linux host is known: 3 non-negative reals. */
    json_t *load = json_object_get(ctx, "load_avg");
    cr_assert(json_is_array(load));
    cr_expect_eq(json_array_size(load), 3);
    for (size_t i = 0; i < json_array_size(load); i++) {
        cr_expect(json_is_real(json_array_get(load, i)));
        cr_expect_geq(json_real_value(json_array_get(load, i)), 0.0);
    }
    json_t *caches = json_object_get(ctx, "caches");
    cr_assert(json_is_array(caches));
    size_t i;
    json_t *c;
    json_array_foreach(caches, i, c) {
        const char *keys[] = {"type", "level", "size", "num_sharing"};
        expect_keys(c, keys, 4);
        cr_expect(json_is_string(json_object_get(c, "type")));
        cr_expect_gt(json_integer_value(json_object_get(c, "level")), 0);
        cr_expect_gt(json_integer_value(json_object_get(c, "size")), 0);
        cr_expect(json_is_integer(json_object_get(c, "num_sharing")));
    }
    json_t *scaling = json_object_get(ctx, "cpu_scaling_enabled");
    cr_expect(scaling == NULL || json_is_boolean(scaling));
    json_decref(doc);
}

Test(gbench_shape, context_of_a_run_measured_elsewhere_stays_unknown) {
    /* fixture[0] was measured on "gpu-node-07": nothing is read here. */
    char here[256];
    cr_assert_eq(gethostname(here, sizeof here), 0);
    here[sizeof here - 1] = '\0';
    if (strcmp(here, fixture[0].host.hostname) == 0)
        cr_skip_test("this machine is called %s", here);
    json_t *doc = render_json(fixture_ptrs, N_RUNS, 0);
    json_t *ctx = json_object_get(doc, "context");
    expect_integer(ctx, "mhz_per_cpu", 0);
    cr_expect_eq(json_array_size(json_object_get(ctx, "caches")), 0);
    cr_expect_eq(json_array_size(json_object_get(ctx, "load_avg")), 0);
    json_decref(doc);
}
