/* SPDX-License-Identifier: Apache-2.0 */
/* test_json.c - the json reporter (reporters/json.c) against a reviewed
 * golden file, and its run-level fields, cases, clocks and NaN. The runs are
 * built by hand (results_fixture.h). */
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
#include "report_util.h"

TestSuite(reporters, .init = fixtures_setup, .fini = fixtures_teardown);

Test(reporters, golden_json) {
    golden_test("json", 0, "results.json");
}

/* --- json -------------------------------------------------------------------------- */

static json_t *parse_json(const char *text) {
    json_error_t err;
    json_t *doc = json_loads(text, 0, &err);
    cr_assert_not_null(doc, "line %d: %s", err.line, err.text);
    return doc;
}

static json_t *at(json_t *o, const char *key) {
    json_t *v = json_object_get(o, key);
    cr_assert_not_null(v, "no key %s", key);
    return v;
}

static double num(json_t *o, const char *key) {
    json_t *v = at(o, key);
    cr_assert(json_is_number(v), "%s is not a number", key);
    return json_number_value(v);
}

static const char *text(json_t *o, const char *key) {
    json_t *v = at(o, key);
    cr_assert(json_is_string(v), "%s is not a string", key);
    return json_string_value(v);
}

static json_t *case_at(json_t *run, size_t i) {
    json_t *c = json_array_get(at(run, "cases"), i);
    cr_assert_not_null(c, "no case %zu", i);
    return c;
}

/* t[key] is null when want is NULL, else n numbers equal to want's (null
 * for a NAN). */
static void expect_array(json_t *t, const char *key, const double *want, size_t n) {
    json_t *a = at(t, key);
    if (!want) {
        cr_expect(json_is_null(a), "%s", key);
        return;
    }
    cr_assert(json_is_array(a), "%s", key);
    cr_assert_eq(json_array_size(a), n, "%s", key);
    for (size_t i = 0; i < n; i++) {
        json_t *v = json_array_get(a, i);
        if (isnan(want[i]))
            cr_expect(json_is_null(v), "%s[%zu]", key, i);
        else
            cr_expect_eq(json_number_value(v), want[i], "%s[%zu]", key, i);
    }
}

/* t[key] is the median of the array `array`, null without it. */
static void expect_median(json_t *t, const char *key, const double *array, double median) {
    if (!array || isnan(median))
        cr_expect(json_is_null(at(t, key)), "%s", key);
    else
        cr_expect_eq(num(t, key), median, "%s", key);
}

/* The JSON timing t carries every statistic and sample of the in-memory one. */
static void expect_timing(json_t *t, const br_timing *want, int gpu) {
    cr_assert(json_is_object(t));
    cr_expect_eq(num(t, "n"), (double)want->stats.n);
    cr_expect_eq(num(t, "median"), want->stats.median);
    cr_expect_eq(num(t, "mean"), want->stats.mean);
    cr_expect_eq(num(t, "min"), want->stats.min);
    cr_expect_eq(num(t, "max"), want->stats.max);
    cr_expect_eq(num(t, "stddev"), want->stats.stddev);
    cr_expect_eq(num(t, "noise"), want->stats.noise);
    cr_expect_eq(num(t, "q1"), want->stats.q1);
    cr_expect_eq(num(t, "q3"), want->stats.q3);
    cr_expect_eq(num(t, "iqr"), want->stats.iqr);
    cr_expect_eq(num(t, "outliers"), (double)want->stats.n_outliers);
    if (want->stats.n >= 6) {
        cr_expect_eq(num(t, "ci_low"), want->stats.ci_low);
        cr_expect_eq(num(t, "ci_high"), want->stats.ci_high);
        cr_expect_eq(num(t, "ci_level"), want->stats.ci_level);
    } else {
        cr_expect(json_is_null(at(t, "ci_low")) && json_is_null(at(t, "ci_high")) &&
                  json_is_null(at(t, "ci_level")));
    }
    cr_expect_eq(num(t, "n_throttled"), (double)want->n_throttled);
    cr_expect_eq(num(t, "reps"), (double)want->reps);
    cr_expect_eq(num(t, "warmup_runs"), (double)want->warmup_runs);
    cr_expect_eq(num(t, "warmup_ns"), want->warmup_ns);
    cr_expect_eq(num(t, "measure_ns"), want->measure_ns);
    cr_expect_str_eq(text(t, "stop_reason"), br_stop_name(want->stop));
    json_t *samples = at(t, "samples_ns");
    cr_assert_eq(json_array_size(samples), want->n_samples);
    for (size_t i = 0; i < want->n_samples; i++)
        cr_expect_eq(json_number_value(json_array_get(samples, i)), want->samples[i], "sample %zu",
                     i);
    cr_expect_str_eq(text(t, "clock"), br_clock_name(want->clock));
    cr_expect_eq(num(t, "incomplete"), (double)want->n_incomplete);
    expect_array(t, "event_ns", want->event_ns, want->n_samples);
    expect_array(t, "kernel_ns", want->kernel_ns, want->n_samples);
    expect_array(t, "span_ns", want->span_ns, want->n_samples);
    expect_array(t, "ops", want->ops, want->n_samples);
    expect_median(t, "event_median_ns", want->event_ns, want->event_median_ns);
    expect_median(t, "kernel_median_ns", want->kernel_ns, want->kernel_median_ns);
    expect_median(t, "span_median_ns", want->span_ns, want->span_median_ns);
    expect_median(t, "ops_median", want->ops, want->ops_median);
    json_t *ops = at(t, "breakdown");
    if (!want->breakdown) {
        cr_expect(json_is_null(ops));
    } else {
        cr_assert_eq(json_array_size(ops), want->n_breakdown);
        for (size_t i = 0; i < want->n_breakdown; i++) {
            json_t *op = json_array_get(ops, i);
            const br_op_stat *w = &want->breakdown[i];
            cr_expect_eq(json_object_size(op), 6);
            cr_expect_str_eq(text(op, "name"), w->name);
            cr_expect_str_eq(text(op, "kind"), br_op_kind_name(w->kind));
            cr_expect(json_is_integer(at(op, "count")));
            cr_expect_eq(num(op, "count"), (double)w->count);
            cr_expect_eq(num(op, "per_execution"), w->per_exec);
            cr_expect_eq(num(op, "median_ns"), w->median_ns);
            cr_expect_eq(num(op, "share"), w->share);
        }
    }
    json_t *mhz = at(t, "sm_mhz_samples");
    if (gpu) {
        cr_expect(json_is_boolean(at(t, "graph")));
        cr_expect_eq(json_is_true(at(t, "graph")), want->graph != 0);
        cr_expect_eq(num(t, "sm_mhz"), want->sm_mhz_median);
        cr_assert_eq(json_array_size(mhz), want->n_samples);
        cr_expect_eq(json_number_value(json_array_get(mhz, 0)), want->sm_mhz[0]);
    } else {
        cr_expect(json_is_null(at(t, "graph")));
        cr_expect(json_is_null(at(t, "sm_mhz")));
        cr_expect(json_is_null(mhz));
    }
}

Test(reporters, json_run_level) {
    char *out = render("json", fixture_ptrs, N_RUNS, 0, NULL);
    json_t *doc = parse_json(out);
    cr_expect_eq(json_integer_value(at(doc, "schema_version")), 4);
    cr_expect_eq(BR_SCHEMA_VERSION, 4);
    cr_expect_str_eq(text(doc, "benchrun_version"), "0.1.0");
    json_t *runs = at(doc, "runs");
    cr_assert_eq(json_array_size(runs), N_RUNS);

    json_t *red = json_array_get(runs, 0);
    cr_expect_str_eq(text(red, "benchrun_version"), "0.1.0");
    cr_expect_str_eq(text(red, "gpu_clock"), "kernel");
    cr_expect(json_is_null(at(red, "clock_note")));
    cr_expect_str_eq(text(red, "date"), "2026-11-22T10:00:00Z");
    json_t *suite = at(red, "suite");
    cr_expect_str_eq(text(suite, "name"), "reduction");
    cr_expect_str_eq(text(suite, "description"), "sum of n float32");
    cr_expect_str_eq(text(suite, "path"), "suites/reduction.yaml");
    cr_expect_str_eq(text(suite, "hash"), "3b18e512dba79e4c8300dd08aeb37f8e728b8dad");
    cr_expect_str_eq(text(at(red, "git"), "commit_time"), "2026-11-18T11:06:40Z");

    json_t *m = at(red, "measure");
    cr_expect_str_eq(text(m, "cache"), "flush");
    cr_expect_eq(num(m, "warmup_ns"), BR_DEFAULT_WARMUP_NS);
    cr_expect_str_eq(text(m, "mode"), "both");
    cr_expect_str_eq(text(m, "headline"), "cold");
    cr_expect(json_is_true(at(m, "hold")));
    cr_expect_eq(num(m, "throttle"), 0.75);
    cr_expect_eq(num(m, "min_samples"), 10);
    cr_expect_eq(num(m, "min_time_ns"), 50e6);
    cr_expect_eq(num(m, "max_noise"), 0.005);
    cr_expect_eq(num(m, "timeout_ns"), 10e9);
    cr_expect_eq(num(m, "max_samples"), BR_DEFAULT_MAX_SAMPLES);
    json_t *peak = at(red, "peak");
    cr_expect_str_eq(text(peak, "kind"), "theoretical");
    cr_expect_eq(num(peak, "gbps"), 3352.32);

    json_t *d = at(red, "device");
    cr_expect_str_eq(text(d, "name"), "NVIDIA H100 80GB HBM3");
    cr_expect_str_eq(text(d, "uuid"), "GPU-5c1a2b3d-4e5f-6071-8293-a4b5c6d7e8f9");
    cr_expect_str_eq(text(d, "cc"), "9.0");
    cr_expect_eq(num(d, "sm_count"), 132);
    cr_expect_eq(num(d, "sm_clock_max_mhz"), 1980);
    cr_expect_eq(num(d, "sm_clock_now_mhz"), 1755);
    cr_expect_eq(num(d, "mem_clock_mhz"), 2619);
    cr_expect_eq(num(d, "bus_width_bits"), 5120);
    cr_expect_eq(num(d, "peak_gbps"), 3352.32);
    cr_expect(json_is_null(at(d, "measured_peak_gbps")));
    cr_expect_eq(num(d, "peak_gflops_fp32"), 66908.16);
    cr_expect_eq(num(peak, "gflops"), 66908.16, "filled in from the device by br_run_derive");
    cr_expect_eq(num(d, "l2_bytes"), 52428800);
    cr_expect_eq(num(d, "global_mem_bytes"), 85022736384.0);
    cr_expect(json_is_true(at(d, "ecc")));
    cr_expect_eq(num(d, "driver_version"), 13000);
    cr_expect_eq(num(d, "runtime_version"), 12080);
    json_t *host = at(red, "host");
    cr_expect_str_eq(text(host, "cpu_model"), "Intel(R) Xeon(R) Platinum 8480+");
    cr_expect_eq(num(host, "logical_cores"), 224);
    cr_expect_str_eq(text(host, "governor"), "performance");
    cr_expect_str_eq(text(host, "hostname"), "gpu-node-07");

    json_t *bw = json_array_get(runs, 1);
    cr_expect_str_eq(text(bw, "gpu_clock"), "events");
    cr_expect(json_is_null(at(bw, "clock_note")));
    cr_expect_str_eq(text(at(bw, "measure"), "cache"), "flush-memset");
    cr_expect_str_eq(text(at(bw, "measure"), "mode"), "cold");
    cr_expect_str_eq(text(at(bw, "peak"), "kind"), "measured");
    cr_expect_eq(num(at(bw, "peak"), "gbps"), 2910.4);
    cr_expect_eq(num(at(bw, "device"), "measured_peak_gbps"), 2910.4);
    cr_expect_eq(num(at(bw, "peak"), "gflops"), 66908.16, "FP32: theoretical, whatever the kind");
    cr_expect(json_is_null(at(at(bw, "device"), "sm_clock_now_mhz")));
    cr_expect(json_is_null(at(at(bw, "device"), "ecc")));

    json_t *sg = json_array_get(runs, 2);
    cr_expect_str_eq(text(sg, "gpu_clock"), "events");
    cr_expect_str_eq(text(sg, "clock_note"), "libcupti.so: cannot open shared object file");
    cr_expect(json_is_null(at(sg, "device")));
    cr_expect(json_is_null(at(at(sg, "peak"), "gbps")));
    cr_expect(json_is_null(at(at(sg, "peak"), "gflops")));
    cr_expect(json_is_string(at(sg, "gpu_skip_reason")));
    cr_expect(json_is_null(at(at(sg, "git"), "branch")));

    json_t *lat = json_array_get(runs, 3);
    cr_expect_str_eq(text(lat, "gpu_clock"), "events");
    cr_expect(json_is_false(at(at(lat, "git"), "present")));
    cr_expect_str_eq(text(at(lat, "measure"), "mode"), "batch");
    cr_expect_str_eq(text(at(lat, "measure"), "headline"), "batch");
    cr_expect_str_eq(text(at(lat, "measure"), "cache"), "warm");
    cr_expect(json_is_null(at(at(lat, "host"), "cpu_model")));
    cr_expect_eq(json_object_size(at(case_at(lat, 0), "params")), 0);
    json_decref(doc);
    free(out);
}

/* A GFLOP/s run on a GPU: the FP32 peak and each case's % of it. */
Test(reporters, json_gflops_peak) {
    br_run sg;
    build_sgemm_h100(&sg);
    const br_run *one[] = {&sg};
    char *out = render("json", one, 1, 0, NULL);
    json_t *doc = parse_json(out);
    json_t *run = json_array_get(at(doc, "runs"), 0);
    cr_assert_not_null(run);
    json_t *peak = at(run, "peak");
    cr_expect_str_eq(text(peak, "kind"), "theoretical");
    cr_expect_eq(num(peak, "gbps"), 3352.32);
    cr_expect_eq(num(peak, "gflops"), 66908.16);
    cr_expect_eq(num(at(run, "device"), "peak_gflops_fp32"), 66908.16);
    cr_expect(json_is_null(at(case_at(run, 0), "pct_peak")), "host case");
    cr_expect_eq(num(case_at(run, 1), "pct_peak"), 100.0 * (2e9 / 250000.0) / 66908.16);
    cr_expect(json_is_null(at(case_at(run, 2), "pct_peak")), "failed case");
    cr_expect_eq(num(case_at(run, 3), "pct_peak"),
                 100.0 * (2.0 * 2048 * 2048 * 2048 / 640000.0) / 66908.16);
    json_decref(doc);
    free(out);
    br_run_dispose(&sg);
}

Test(reporters, json_cases) {
    char *out = render("json", fixture_ptrs, N_RUNS, 0, NULL);
    json_t *doc = parse_json(out);
    json_t *runs = at(doc, "runs");
    json_t *red = json_array_get(runs, 0);

    /* Every OK case of every run: its timings as in memory, null when absent. */
    for (size_t ri = 0; ri < N_RUNS; ri++) {
        const br_run *r = &fixture[ri];
        json_t *run = json_array_get(runs, ri);
        cr_assert_eq(json_array_size(at(run, "cases")), r->n_cases);
        for (size_t i = 0; i < r->n_cases; i++) {
            const br_case_result *c = &r->cases[i];
            json_t *jc = case_at(run, i);
            int gpu = r->kernels[c->kernel].backend == BR_BACKEND_GPU;
            cr_expect_str_eq(text(jc, "kernel"), r->kernels[c->kernel].name);
            cr_expect_str_eq(text(jc, "status"), br_status_name(c->status));
            if (c->status == BR_STATUS_OK && c->cold.present)
                expect_timing(at(jc, "cold"), &c->cold, gpu);
            else
                cr_expect(json_is_null(at(jc, "cold")), "run %zu case %zu", ri, i);
            if (c->status == BR_STATUS_OK && c->batch.present)
                expect_timing(at(jc, "batch"), &c->batch, gpu);
            else
                cr_expect(json_is_null(at(jc, "batch")), "run %zu case %zu", ri, i);
        }
    }

    json_t *warp = case_at(red, 2);
    cr_expect_eq(num(at(warp, "cold"), "n_throttled"), 12);
    cr_expect_eq(num(at(warp, "cold"), "throttled_min_mhz"), 1020);
    cr_expect(json_is_null(at(at(warp, "batch"), "throttled_min_mhz")));
    cr_expect_eq(json_array_size(at(at(warp, "cold"), "samples_ns")), 8);
    cr_expect_eq(num(at(warp, "params"), "n"), 1 << 20);
    cr_expect_eq(num(warp, "gbps"), 4194304.0 / 4099.0);
    cr_expect_eq(num(warp, "bytes"), 4194304.0);
    cr_expect(json_is_null(at(warp, "flops")));
    cr_expect(json_is_null(at(warp, "gflops")));
    cr_expect_eq(num(warp, "pct_peak"), 100.0 * (4194304.0 / 4099.0) / 3352.32);
    cr_expect_eq(num(warp, "speedup"), 262000.0 / 4099.0);
    cr_expect_str_eq(text(at(case_at(red, 4), "cold"), "stop_reason"), "plateau");

    json_t *failed = case_at(red, 5);
    cr_expect_str_eq(text(failed, "stage"), "verify");
    cr_expect(json_is_string(at(failed, "message")));
    cr_expect(json_is_null(at(failed, "cold")) && json_is_null(at(failed, "batch")));
    cr_expect(json_is_null(at(failed, "gbps")));
    cr_expect(json_is_null(at(case_at(red, 0), "stage")));

    json_t *copy = case_at(json_array_get(runs, 1), 0);
    cr_expect_eq(num(at(copy, "cold"), "outliers"), 5);
    cr_expect(json_is_null(at(copy, "batch")));

    json_t *skipped = case_at(json_array_get(runs, 2), 1);
    cr_expect_str_eq(text(skipped, "status"), "skipped");
    cr_expect_str_eq(text(skipped, "stage"), "no-gpu");
    cr_expect(json_is_null(at(skipped, "cold")));

    json_t *noop = case_at(json_array_get(runs, 3), 0);
    cr_expect(json_is_null(at(noop, "cold")));
    cr_expect_eq(num(at(noop, "batch"), "reps"), 1000);
    json_decref(doc);
    free(out);
}

/* The GPU clocks of a timing: values written for the fixture's CUPTI data. */
Test(reporters, json_gpu_clocks) {
    char *out = render("json", fixture_ptrs, N_RUNS, 0, NULL);
    json_t *doc = parse_json(out);
    json_t *runs = at(doc, "runs");
    json_t *red = json_array_get(runs, 0);

    /* reduce_cub n=2^20, cold, the kernel clock: kernel times are the
     * samples, CUDA events 1650.5 ns above, the span 36 ns above, two
     * operations per execution, 2 samples discarded as incomplete. */
    json_t *cold = at(case_at(red, 3), "cold");
    cr_expect_str_eq(text(cold, "clock"), "kernel");
    cr_expect_eq(num(cold, "incomplete"), 2);
    cr_expect_eq(num(cold, "median"), 3200.0);
    cr_expect_eq(num(cold, "kernel_median_ns"), 3200.0);
    cr_expect_eq(num(cold, "event_median_ns"), 4850.5);
    cr_expect_eq(num(cold, "span_median_ns"), 3236.0);
    cr_expect_eq(num(cold, "ops_median"), 2.0);
    cr_expect_eq(json_number_value(json_array_get(at(cold, "event_ns"), 4)), 3190.0 + 1650.5);
    cr_expect_eq(json_number_value(json_array_get(at(cold, "kernel_ns"), 2)), 3208.0);
    cr_expect_eq(json_number_value(json_array_get(at(cold, "span_ns"), 1)), 3196.0 + 36.0);
    cr_expect_eq(json_number_value(json_array_get(at(cold, "ops"), 0)), 2.0);
    json_t *ops = at(cold, "breakdown");
    cr_assert_eq(json_array_size(ops), 2);
    json_t *k = json_array_get(ops, 0), *m = json_array_get(ops, 1);
    cr_expect(strncmp(text(k, "name"),
                      "void cub::CUB_200700_900_NS::DeviceReduceSingleTileKernel<cub::", 63) == 0,
              "%s", text(k, "name"));
    cr_expect(strstr(text(k, "name"), "<float, int, cub::CUB_200700_900_NS::Sum>::Policy600, ") !=
              NULL);
    cr_expect_str_eq(text(k, "kind"), "kernel");
    cr_expect_eq(json_integer_value(at(k, "count")), 5);
    cr_expect_eq(num(k, "per_execution"), 1.0);
    cr_expect_eq(num(k, "median_ns"), 2890.0);
    cr_expect_eq(num(k, "share"), 1.0 - 310.0 / 3200.0);
    cr_expect_str_eq(text(m, "name"), "memset");
    cr_expect_str_eq(text(m, "kind"), "memset");
    cr_expect_eq(json_integer_value(at(m, "count")), 5);
    cr_expect_eq(num(m, "median_ns"), 310.0);
    cr_expect_eq(num(m, "share"), 310.0 / 3200.0);
    /* its batch timing: 64 executions per sample, counted per execution */
    json_t *batch = at(case_at(red, 3), "batch");
    cr_expect_str_eq(text(batch, "clock"), "kernel");
    cr_expect_eq(num(batch, "incomplete"), 0);
    cr_expect_eq(json_integer_value(at(json_array_get(at(batch, "breakdown"), 1), "count")),
                 5 * 64);

    /* A host timing: the monotonic clock, no GPU data. */
    json_t *cpu = at(case_at(red, 0), "cold");
    cr_expect_str_eq(text(cpu, "clock"), "monotonic");
    const char *nulls[] = {"event_ns",        "kernel_ns",        "span_ns",        "ops",
                           "event_median_ns", "kernel_median_ns", "span_median_ns", "ops_median",
                           "breakdown"};
    for (size_t i = 0; i < sizeof nulls / sizeof nulls[0]; i++)
        cr_expect(json_is_null(at(cpu, nulls[i])), "%s", nulls[i]);
    cr_expect_eq(num(cpu, "incomplete"), 0);

    /* bandwidth: the events clock with CUPTI's data; copy's sample 17 lost
     * its records (null), the kernel median over the other 19. */
    json_t *copy = at(case_at(json_array_get(runs, 1), 0), "cold");
    cr_expect_str_eq(text(copy, "clock"), "events");
    cr_expect_eq(json_array_size(at(copy, "kernel_ns")), 20);
    cr_expect(json_is_null(json_array_get(at(copy, "kernel_ns"), 17)));
    cr_expect(json_is_null(json_array_get(at(copy, "span_ns"), 17)));
    cr_expect(json_is_null(json_array_get(at(copy, "ops"), 17)));
    cr_expect_eq(json_number_value(json_array_get(at(copy, "event_ns"), 17)), 1001500.0);
    cr_expect_eq(json_number_value(json_array_get(at(copy, "kernel_ns"), 16)), 1001400.0 - 1480.0);
    cr_expect_eq(num(copy, "event_median_ns"), 1000040.0);
    cr_expect_eq(num(copy, "kernel_median_ns"), 1000030.0 - 1480.0);
    cr_expect_eq(num(copy, "ops_median"), 1.0);
    cr_expect_eq(num(copy, "incomplete"), 0);
    cr_expect_str_eq(text(json_array_get(at(copy, "breakdown"), 0), "name"),
                     "void copy_kernel<float>(const float *, float *, unsigned long)");
    json_decref(doc);
    free(out);

    /* An array whose values are all NAN has a null median; an unset run
     * clock is written as the events clock. */
    br_timing *t = &fixture[1].cases[1].cold;
    for (size_t i = 0; i < t->n_samples; i++)
        t->span_ns[i] = NAN;
    t->span_median_ns = NAN;
    fixture[1].gpu_clock = BR_CLOCK_MONOTONIC;
    out = render_one("json", 1, 0);
    doc = parse_json(out);
    json_t *run = json_array_get(at(doc, "runs"), 0);
    cr_expect_str_eq(text(run, "gpu_clock"), "events");
    json_t *vec = at(case_at(run, 1), "cold");
    cr_expect(json_is_null(at(vec, "span_median_ns")));
    cr_expect(json_is_null(json_array_get(at(vec, "span_ns"), 0)));
    cr_expect_eq(num(vec, "kernel_median_ns"), 760025.0 - 1480.0);
    json_decref(doc);
    free(out);
}

Test(reporters, json_nan_is_null) {
    /* A statistic that is NAN (an empty CI of a sample set this small) is null. */
    br_run *r = &fixture[2];
    r->cases[0].cold.sm_mhz_median = NAN;
    r->cases[0].cold.stats.mean = NAN;
    char *out = render_one("json", 2, 0);
    json_t *doc = parse_json(out);
    json_t *cold = at(case_at(json_array_get(at(doc, "runs"), 0), 0), "cold");
    cr_expect(json_is_null(at(cold, "mean")));
    cr_expect(json_is_null(at(cold, "ci_low")));
    cr_expect(json_is_number(at(cold, "median")));
    json_decref(doc);
    free(out);
}
