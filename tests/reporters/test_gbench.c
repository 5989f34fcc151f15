/* SPDX-License-Identifier: Apache-2.0 */
/* test_gbench.c - the "gbench" reporter (reporters/gbench.c): Google
 * Benchmark's JSON output format, checked field by field on the runs of
 * results_fixture.h and on runs built here (name collisions, empty runs,
 * non-finite figures). The output is parsed back with jansson. */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/error.h"
#include "reporters/reporter.h"
#include "model/run.h"
#include "results_fixture.h"

extern const br_reporter br_reporter_gbench;

/* --- rendering and parsing ---------------------------------------------------- */

/* Render the runs with the gbench reporter; the caller frees the text. */
static char *render(const br_run *const *runs, size_t n_runs) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert_not_null(f);
    br_report_opts opts = {0};
    int rc = br_reporter_gbench.write(f, runs, n_runs, &opts);
    fclose(f);
    cr_assert_eq(rc, 0, "gbench: %s", br_error_get());
    cr_assert_gt(len, 0);
    cr_assert_eq(buf[len - 1], '\n', "the output ends in a newline");
    return buf;
}

/* Render and parse (strictly: the whole text must be one JSON value, with no
 * duplicate keys); the caller json_decref's the result. */
static json_t *render_json(const br_run *const *runs, size_t n_runs) {
    char *text = render(runs, n_runs);
    cr_expect(strstr(text, "NaN") == NULL && strstr(text, "Infinity") == NULL, "%s", text);
    json_error_t err;
    json_t *doc = json_loads(text, JSON_REJECT_DUPLICATES, &err);
    cr_assert_not_null(doc, "not valid JSON: %s at %d:%d\n%s", err.text, err.line, err.column,
                       text);
    free(text);
    cr_assert(json_is_object(doc));
    cr_assert_eq(json_object_size(doc), 2, "only context and benchmarks at the top");
    cr_assert(json_is_object(json_object_get(doc, "context")));
    cr_assert(json_is_array(json_object_get(doc, "benchmarks")));
    return doc;
}

static json_t *benchmarks(json_t *doc) {
    return json_object_get(doc, "benchmarks");
}

/* The entry called `name`, or NULL. */
static json_t *entry(json_t *doc, const char *name) {
    size_t i;
    json_t *e;
    json_array_foreach(benchmarks(doc), i, e) {
        if (strcmp(json_string_value(json_object_get(e, "name")), name) == 0)
            return e;
    }
    return NULL;
}

static json_t *must_entry(json_t *doc, const char *name) {
    json_t *e = entry(doc, name);
    cr_assert_not_null(e, "no entry %s", name);
    return e;
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

/* A real within a relative 1e-12 of want (a unit error is off by 1e3 or more). */
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

/* The keys Google Benchmark's json_reporter.cc writes for an iteration
 * entry, in its order, then the counters in key order. */
static const char *const iteration_keys[] = {"name",
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
                                             "time_unit",
                                             "bytes_per_second",
                                             "items_per_second"};
#define N_TIME_KEYS 12

/* The fields every entry has, checked against the case's headline timing t:
 * name, indices, iteration-run fields, real_time = cpu_time = t's median in
 * ns, iterations = samples * executions per sample. */
static void expect_case_entry(json_t *e, const char *name, long long family, long long instance,
                              const br_timing *t) {
    expect_string(e, "name", name);
    expect_integer(e, "family_index", family);
    expect_integer(e, "per_family_instance_index", instance);
    expect_string(e, "run_name", name);
    expect_string(e, "run_type", "iteration");
    expect_integer(e, "repetitions", 1);
    expect_integer(e, "repetition_index", 0);
    expect_integer(e, "threads", 1);
    expect_integer(e, "iterations", (long long)(t->n_samples * t->reps));
    expect_real(e, "real_time", t->stats.median);
    expect_real(e, "cpu_time", t->stats.median);
    expect_string(e, "time_unit", "ns");
    cr_expect(json_object_get(e, "aggregate_name") == NULL, "no aggregates");
    cr_expect(json_object_get(e, "error_occurred") == NULL);
}

TestSuite(gbench, .init = fixtures_setup, .fini = fixtures_teardown);

/* --- the fixture's four runs ----------------------------------------------------- */

Test(gbench, entries_are_the_ok_cases_family_major) {
    json_t *doc = render_json(fixture_ptrs, N_RUNS);
    /* Reduction: 7 OK cases of 8; bandwidth 2; sgemm 2 of 4; latency 2 of 3.
     * Family-major (each kernel's cases together), as Google Benchmark runs. */
    const char *want[] = {"reduce_cpu/n:1048576",
                          "reduce_cpu/n:16777216",
                          "reduce_naive/n:1048576",
                          "reduce_warp/n:1048576",
                          "reduce_warp/n:16777216",
                          "reduce_cub/n:1048576",
                          "reduce_cub/n:16777216",
                          "copy/n:268435456",
                          "copy_vec4/n:268435456",
                          "sgemm_host/n:1000/tile:16",
                          "sgemm_host/n:2048/tile:16",
                          "noop_host",
                          "spin_host"};
    const long long family[] = {0, 0, 1, 2, 2, 3, 3, 4, 5, 6, 6, 7, 8};
    const long long instance[] = {0, 1, 0, 0, 1, 0, 1, 0, 0, 0, 1, 0, 0};
    size_t n = sizeof want / sizeof want[0];
    json_t *arr = benchmarks(doc);
    cr_assert_eq(json_array_size(arr), n, "%zu entries", json_array_size(arr));
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_array_get(arr, i);
        expect_string(e, "name", want[i]);
        expect_string(e, "run_name", want[i]);
        expect_integer(e, "family_index", family[i]);
        expect_integer(e, "per_family_instance_index", instance[i]);
    }
    /* Failed and skipped cases are absent, under any name. */
    cr_expect_null(entry(doc, "reduce_naive/n:16777216"), "failed verify");
    cr_expect_null(entry(doc, "sleep_host"), "failed compile");
    cr_expect_null(entry(doc, "sgemm_tiled/n:1000/tile:16"), "skipped");
    cr_expect_null(entry(doc, "sgemm_tiled/n:2048/tile:16"), "skipped");
    char *text = json_dumps(doc, 0);
    cr_assert_not_null(text);
    cr_expect(strstr(text, "sgemm_tiled") == NULL && strstr(text, "sleep_host") == NULL);
    free(text);
    json_decref(doc);
}

Test(gbench, gpu_case_with_bytes) {
    json_t *doc = render_json(fixture_ptrs, N_RUNS);
    /* reduce_warp n=2^20, headline cold: 8 samples of one execution, median
     * (4098 + 4100) / 2 ns, 4 * 2^20 bytes. */
    const br_case_result *c = &fixture[0].cases[2];
    cr_assert_eq(c->cold.n_samples, 8);
    json_t *e = must_entry(doc, "reduce_warp/n:1048576");
    const char *keys[N_TIME_KEYS + 3];
    memcpy(keys, iteration_keys, N_TIME_KEYS * sizeof *keys);
    keys[N_TIME_KEYS] = "bytes_per_second";
    keys[N_TIME_KEYS + 1] = "event_time_ns";
    keys[N_TIME_KEYS + 2] = "kernel_time_ns";
    expect_keys(e, keys, N_TIME_KEYS + 3);
    expect_case_entry(e, "reduce_warp/n:1048576", 2, 0, &c->cold);
    expect_real(e, "real_time", 4099.0);
    /* The kernel clock: real_time is the kernel time; the CUDA event time
     * (1510 ns above it in the fixture) is a counter. */
    expect_real(e, "kernel_time_ns", 4099.0);
    expect_real(e, "event_time_ns", 4099.0 + 1510.0);
    expect_integer(e, "iterations", 8);
    expect_real(e, "bytes_per_second", 4194304.0 / 4099.0 * 1e9);
    /* GB/s of the results (1e9 B/s) times 1e9: B/s, not GB/s. */
    expect_real(e, "bytes_per_second", c->gbps * 1e9);
    cr_expect_null(json_object_get(e, "items_per_second"), "no flops in this suite");
    json_decref(doc);
}

Test(gbench, headline_timing_is_used) {
    json_t *doc = render_json(fixture_ptrs, N_RUNS);
    /* reduce_cub n=2^24 has cold (5 x 1) and batch (6 x 256) timings; the
     * run's headline is cold. */
    const br_case_result *c = &fixture[0].cases[7];
    json_t *e = must_entry(doc, "reduce_cub/n:16777216");
    expect_case_entry(e, "reduce_cub/n:16777216", 3, 1, &c->cold);
    expect_real(e, "real_time", 26100.0);
    expect_integer(e, "iterations", 5);
    expect_real(e, "bytes_per_second", 4.0 * (1 << 24) / 26100.0 * 1e9);

    expect_real(e, "kernel_time_ns", 26100.0);
    expect_real(e, "event_time_ns", 26100.0 + 1650.5);

    /* reduce_cpu n=2^24 (host, cold headline): 8 samples of one execution,
     * no GPU clocks. */
    c = &fixture[0].cases[4];
    e = must_entry(doc, "reduce_cpu/n:16777216");
    expect_case_entry(e, "reduce_cpu/n:16777216", 0, 1, &c->cold);
    expect_integer(e, "iterations", 8);
    expect_keys(e, iteration_keys, N_TIME_KEYS + 1);

    /* latency's headline is batch: noop_host 4 samples of 1000 executions,
     * median (850 + 850.75) / 2 ns; no bytes or flops, so no counters. */
    c = &fixture[3].cases[0];
    e = must_entry(doc, "noop_host");
    expect_keys(e, iteration_keys, N_TIME_KEYS);
    expect_case_entry(e, "noop_host", 7, 0, &c->batch);
    expect_real(e, "real_time", 850.375);
    expect_integer(e, "iterations", 4000);
    e = must_entry(doc, "spin_host");
    expect_case_entry(e, "spin_host", 8, 0, &fixture[3].cases[1].batch);
    expect_real(e, "real_time", 9252.5);
    expect_integer(e, "iterations", 400);
    json_decref(doc);
}

Test(gbench, bandwidth_case) {
    json_t *doc = render_json(&fixture_ptrs[1], 1);
    cr_assert_eq(json_array_size(benchmarks(doc)), 2);
    const br_case_result *c = &fixture[1].cases[0];
    json_t *e = must_entry(doc, "copy/n:268435456");
    expect_case_entry(e, "copy/n:268435456", 0, 0, &c->cold);
    expect_integer(e, "iterations", 20);
    double bytes = 2.0 * 4.0 * (1 << 28);
    expect_real(e, "bytes_per_second", bytes / c->cold.stats.median * 1e9);
    /* The events clock with CUPTI's data: real_time is the event time; the
     * kernel time's median is over the 19 samples that kept their records. */
    expect_real(e, "real_time", 1000040.0);
    expect_real(e, "event_time_ns", 1000040.0);
    expect_real(e, "kernel_time_ns", 1000030.0 - 1480.0);
    /* Alone in its document, copy_vec4 is family 1 (indices restart). */
    e = must_entry(doc, "copy_vec4/n:268435456");
    expect_case_entry(e, "copy_vec4/n:268435456", 1, 0, &fixture[1].cases[1].cold);
    expect_real(e, "real_time", 760025.0);
    json_decref(doc);
}

Test(gbench, sgemm_items_per_second_are_flop_per_second) {
    json_t *doc = render_json(&fixture_ptrs[2], 1);
    cr_assert_eq(json_array_size(benchmarks(doc)), 2, "two host cases OK, two skipped");
    /* n=1000: 2e9 FLOP in a median of 152 ms: 13.16 GFLOP/s = 1.316e10 FLOP/s. */
    const br_case_result *c = &fixture[2].cases[0];
    json_t *e = must_entry(doc, "sgemm_host/n:1000/tile:16");
    const char *keys[] = {"name",
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
                          "time_unit",
                          "items_per_second"};
    expect_keys(e, keys, 13);
    expect_case_entry(e, "sgemm_host/n:1000/tile:16", 0, 0, &c->cold);
    expect_real(e, "real_time", 152000000.0);
    expect_integer(e, "iterations", 3);
    expect_real(e, "items_per_second", 2e9 / 0.152);
    expect_real(e, "items_per_second", c->gflops * 1e9);
    cr_expect_null(json_object_get(e, "bytes_per_second"), "bytes absent: no counter");

    e = must_entry(doc, "sgemm_host/n:2048/tile:16");
    expect_case_entry(e, "sgemm_host/n:2048/tile:16", 0, 1, &fixture[2].cases[2].cold);
    expect_real(e, "real_time", 1340000000.0);
    expect_real(e, "items_per_second", 2.0 * 2048 * 2048 * 2048 / 1.34);
    json_decref(doc);
}

/* --- context --------------------------------------------------------------------- */

#ifdef NDEBUG
#define BUILD_TYPE "release"
#else
#define BUILD_TYPE "debug"
#endif

Test(gbench, context_of_all_runs) {
    json_t *doc = render_json(fixture_ptrs, N_RUNS);
    json_t *ctx = json_object_get(doc, "context");
    const char *keys[] = {"date",
                          "host_name",
                          "executable",
                          "num_cpus",
                          "mhz_per_cpu",
                          "cpu_scaling_enabled",
                          "caches",
                          "load_avg",
                          "library_version",
                          "library_build_type",
                          "json_schema_version",
                          "git_commit",
                          "git_dirty",
                          "gpu_name"};
    expect_keys(ctx, keys, sizeof keys / sizeof keys[0]);
    expect_string(ctx, "date", "2026-11-22T10:00:00+00:00");
    expect_string(ctx, "host_name", "gpu-node-07");
    expect_string(ctx, "executable", "benchrun");
    expect_integer(ctx, "num_cpus", 224);
    expect_integer(ctx, "mhz_per_cpu", 0);
    cr_expect(json_is_false(json_object_get(ctx, "cpu_scaling_enabled")), "governor performance");
    json_t *caches = json_object_get(ctx, "caches");
    cr_expect(json_is_array(caches) && json_array_size(caches) == 0);
    json_t *load = json_object_get(ctx, "load_avg");
    cr_expect(json_is_array(load) && json_array_size(load) == 0);
    expect_string(ctx, "library_version", "0.1.0");
    expect_string(ctx, "library_build_type", BUILD_TYPE);
    expect_integer(ctx, "json_schema_version", 1);
    expect_string(ctx, "git_commit", "1a2b3c4d5e6f708192a3b4c5d6e7f80912a3b4c5");
    expect_string(ctx, "git_dirty", "false");
    expect_string(ctx, "gpu_name", "NVIDIA H100 80GB HBM3");
    json_decref(doc);
}

Test(gbench, context_without_gpu_or_git) {
    /* sgemm: no device, git detached and dirty, no host name. */
    json_t *doc = render_json(&fixture_ptrs[2], 1);
    json_t *ctx = json_object_get(doc, "context");
    expect_string(ctx, "host_name", "");
    expect_integer(ctx, "num_cpus", 192);
    expect_string(ctx, "git_commit", "9f8e7d6c5b4a39281706f5e4d3c2b1a098765432");
    expect_string(ctx, "git_dirty", "true");
    cr_expect_null(json_object_get(ctx, "gpu_name"), "no device");
    json_decref(doc);

    /* latency: no git, no device, unknown CPU: those keys are left out. */
    doc = render_json(&fixture_ptrs[3], 1);
    ctx = json_object_get(doc, "context");
    const char *keys[] = {
        "date",   "host_name", "executable",      "num_cpus",           "mhz_per_cpu",
        "caches", "load_avg",  "library_version", "library_build_type", "json_schema_version"};
    expect_keys(ctx, keys, sizeof keys / sizeof keys[0]);
    expect_integer(ctx, "num_cpus", 0);
    json_decref(doc);
}

Test(gbench, cpu_scaling_from_governor) {
    snprintf(fixture[2].host.governor, sizeof fixture[2].host.governor, "powersave");
    json_t *doc = render_json(&fixture_ptrs[2], 1);
    cr_expect(
        json_is_true(json_object_get(json_object_get(doc, "context"), "cpu_scaling_enabled")));
    json_decref(doc);
}

/* --- names ------------------------------------------------------------------------- */

/* Every name in doc is different. */
static void expect_unique_names(json_t *doc) {
    json_t *seen = json_object();
    size_t i;
    json_t *e;
    json_array_foreach(benchmarks(doc), i, e) {
        const char *name = json_string_value(json_object_get(e, "name"));
        cr_expect_null(json_object_get(seen, name), "%s twice", name);
        json_object_set_new(seen, name, json_true());
    }
    json_decref(seen);
}

Test(gbench, names_unique_without_prefix) {
    json_t *doc = render_json(fixture_ptrs, N_RUNS);
    expect_unique_names(doc);
    /* No two runs share a name: nothing is prefixed. */
    cr_expect_null(entry(doc, "reduction/reduce_cub/n:1048576"));
    json_decref(doc);
}

Test(gbench, colliding_names_get_the_suite_prefix) {
    /* A second suite that measures reduce_cub at n=2^20 again, and a kernel
     * of its own. */
    br_run other;
    const char *params[] = {"n"};
    run_init(&other, "reduction_v2", NULL, BR_METRIC_GBPS, BR_MODE_COLD, params, 1, 2);
    add_kernel(&other, "reduce_cub", "kernels/reduce_cub.cu", BR_BACKEND_GPU);
    add_kernel(&other, "reduce_new", "kernels/reduce_new.cu", BR_BACKEND_GPU);
    const int64_t n20[] = {1 << 20};
    const double s[] = {3000, 3010, 2990};
    br_case_result *c = add_case(&other, 0, 0, n20, BR_STATUS_OK, NULL, NULL, 4.0 * (1 << 20), NAN);
    set_timing(&c->cold, s, 3, 1.0, 1, BR_STOP_NOISE, 1980);
    c = add_case(&other, 1, 0, n20, BR_STATUS_OK, NULL, NULL, 4.0 * (1 << 20), NAN);
    set_timing(&c->cold, s, 3, 2.0, 1, BR_STOP_NOISE, 1980);
    br_run_derive(&other);

    const br_run *runs[] = {&fixture[0], &other};
    json_t *doc = render_json(runs, 2);
    expect_unique_names(doc);
    cr_expect_eq(json_array_size(benchmarks(doc)), 9);
    /* Only the colliding name is prefixed, in both runs. */
    cr_expect_null(entry(doc, "reduce_cub/n:1048576"));
    json_t *e = must_entry(doc, "reduction/reduce_cub/n:1048576");
    expect_case_entry(e, "reduction/reduce_cub/n:1048576", 3, 0, &fixture[0].cases[3].cold);
    e = must_entry(doc, "reduction_v2/reduce_cub/n:1048576");
    expect_case_entry(e, "reduction_v2/reduce_cub/n:1048576", 4, 0, &other.cases[0].cold);
    expect_real(e, "real_time", 3000.0);
    must_entry(doc, "reduce_cub/n:16777216");
    e = must_entry(doc, "reduce_new/n:1048576");
    expect_case_entry(e, "reduce_new/n:1048576", 5, 0, &other.cases[1].cold);
    expect_real(e, "real_time", 6000.0);
    json_decref(doc);
    br_run_dispose(&other);
}

Test(gbench, same_suite_twice_gets_the_run_number) {
    const br_run *runs[] = {&fixture[3], &fixture[3]};
    json_t *doc = render_json(runs, 2);
    expect_unique_names(doc);
    cr_assert_eq(json_array_size(benchmarks(doc)), 4);
    const char *want[] = {"latency#1/noop_host", "latency#1/spin_host", "latency#2/noop_host",
                          "latency#2/spin_host"};
    for (size_t i = 0; i < 4; i++) {
        json_t *e = json_array_get(benchmarks(doc), i);
        expect_string(e, "name", want[i]);
        expect_integer(e, "family_index", (long long)i);
    }
    json_decref(doc);
}

/* --- empty documents, missing and non-finite figures ----------------------------- */

Test(gbench, no_runs) {
    json_t *doc = render_json(NULL, 0);
    cr_expect_eq(json_array_size(benchmarks(doc)), 0);
    json_t *ctx = json_object_get(doc, "context");
    const char *date = json_string_value(json_object_get(ctx, "date"));
    cr_assert_not_null(date);
    /* The time of writing, "YYYY-MM-DDTHH:MM:SS+00:00". */
    cr_expect_eq(strlen(date), 25, "%s", date);
    cr_expect(date[4] == '-' && date[10] == 'T' && strcmp(date + 19, "+00:00") == 0, "%s", date);
    expect_string(ctx, "executable", "benchrun");
    expect_string(ctx, "library_version", BR_VERSION);
    expect_integer(ctx, "json_schema_version", 1);
    json_decref(doc);
}

Test(gbench, run_without_ok_cases) {
    br_run r;
    run_init(&r, "broken", NULL, BR_METRIC_GBPS, BR_MODE_COLD, NULL, 0, 2);
    add_kernel(&r, "a", "kernels/a.cu", BR_BACKEND_GPU);
    add_kernel(&r, "b", "kernels/b.cu", BR_BACKEND_GPU);
    const int64_t none[1] = {0};
    /* Even with a timing left in them, failed and skipped cases have no
     * entry. */
    const double s[] = {100, 101, 99};
    br_case_result *c = add_case(&r, 0, 0, none, BR_STATUS_FAILED, "run", "error", 1e6, NAN);
    set_timing(&c->cold, s, 3, 1.0, 1, BR_STOP_NOISE, 1980);
    c = add_case(&r, 1, 0, none, BR_STATUS_SKIPPED, "no-gpu", "no CUDA device", 1e6, NAN);
    set_timing(&c->cold, s, 3, 1.0, 1, BR_STOP_NOISE, 1980);
    br_run_derive(&r);
    const br_run *runs[] = {&r};
    json_t *doc = render_json(runs, 1);
    cr_expect_eq(json_array_size(benchmarks(doc)), 0);
    expect_string(json_object_get(doc, "context"), "date", "2026-11-22T10:00:00+00:00");
    json_decref(doc);
    br_run_dispose(&r);
}

Test(gbench, non_finite_counters_are_left_out) {
    br_run r;
    run_init(&r, "odd", NULL, BR_METRIC_GBPS, BR_MODE_COLD, NULL, 0, 4);
    add_kernel(&r, "zero", "kernels/zero.c", BR_BACKEND_HOST);
    add_kernel(&r, "huge", "kernels/huge.c", BR_BACKEND_HOST);
    add_kernel(&r, "untimed", "kernels/untimed.c", BR_BACKEND_HOST);
    const int64_t none[1] = {0};
    /* A median of 0 ns: bytes / 0 and 0 FLOP / 0 are not finite. */
    const double zeros[] = {0, 0, 0};
    br_case_result *c = add_case(&r, 0, 0, none, BR_STATUS_OK, NULL, NULL, 1e6, 0.0);
    set_timing(&c->cold, zeros, 3, 1.0, 1, BR_STOP_NOISE, NAN);
    /* Infinite bytes, finite flops. */
    const double s[] = {10, 10, 10};
    c = add_case(&r, 1, 0, none, BR_STATUS_OK, NULL, NULL, INFINITY, 30.0);
    set_timing(&c->cold, s, 3, 1.0, 1, BR_STOP_NOISE, NAN);
    /* OK, but the headline (cold) timing was not taken: no time to report. */
    c = add_case(&r, 2, 0, none, BR_STATUS_OK, NULL, NULL, 1e6, NAN);
    set_timing(&c->batch, s, 3, 1.0, 8, BR_STOP_NOISE, NAN);
    br_run_derive(&r);

    const br_run *runs[] = {&r};
    json_t *doc = render_json(runs, 1);
    cr_assert_eq(json_array_size(benchmarks(doc)), 2);
    json_t *e = must_entry(doc, "zero");
    expect_keys(e, iteration_keys, N_TIME_KEYS);
    cr_expect(json_is_real(json_object_get(e, "real_time")));
    cr_expect_eq(json_real_value(json_object_get(e, "real_time")), 0.0);
    e = must_entry(doc, "huge");
    cr_expect_null(json_object_get(e, "bytes_per_second"));
    expect_real(e, "items_per_second", 3e9);
    cr_expect_null(entry(doc, "untimed"));
    json_decref(doc);
    br_run_dispose(&r);
}

Test(gbench, gpu_clock_counters_need_their_data) {
    /* No CUPTI data (event times only): no kernel_time_ns; a kernel median
     * that is not finite (every sample lost its records): none either. */
    br_timing *t = &fixture[1].cases[1].cold;
    free(t->kernel_ns);
    t->kernel_ns = NULL;
    br_timing *copy = &fixture[1].cases[0].cold;
    copy->event_median_ns = NAN;
    json_t *doc = render_json(&fixture_ptrs[1], 1);
    json_t *e = must_entry(doc, "copy_vec4/n:268435456");
    expect_real(e, "event_time_ns", 760025.0);
    cr_expect_null(json_object_get(e, "kernel_time_ns"));
    e = must_entry(doc, "copy/n:268435456");
    cr_expect_null(json_object_get(e, "event_time_ns"));
    expect_real(e, "kernel_time_ns", 1000030.0 - 1480.0);
    json_decref(doc);
}
