/* SPDX-License-Identifier: Apache-2.0 */
/* test_json_read.c - reading results documents back (json_read.c,
 * resultsfile.h): a round trip of the hand-built runs of results_fixture.h
 * through the results writer and the loader, and the fields of the loaded
 * model. */
#include "results_doc.h"

TestSuite(json_read, .init = fixtures_setup, .fini = fixtures_teardown);

/* --- round trip and the loaded model -------------------------------------------------- */

Test(json_read, round_trip_is_byte_identical) {
    char *first = write_json(fixture_ptrs, N_RUNS);
    size_t n = 0;
    br_run *runs = parse_ok(first, &n);
    cr_assert_eq(n, N_RUNS);
    char *second = rewrite(runs, n);
    cr_assert_str_eq(second, first);
    br_results_free(runs, n);
    free(first);
    free(second);
    no_leaks();
}

/* The FP32 peak (device "peak_gflops_fp32", run "peak"."gflops") and a
 * GFLOP/s run's % of it survive a round trip byte for byte. */
Test(json_read, fp32_peak_round_trip) {
    br_run sg;
    build_sgemm_h100(&sg);
    const br_run *runs_in[N_RUNS + 1];
    for (size_t i = 0; i < N_RUNS; i++)
        runs_in[i] = fixture_ptrs[i];
    runs_in[N_RUNS] = &sg;
    char *first = write_json(runs_in, N_RUNS + 1);
    size_t n = 0;
    br_run *runs = parse_ok(first, &n);
    cr_assert_eq(n, N_RUNS + 1);
    char *second = rewrite(runs, n);
    cr_assert_str_eq(second, first);
    const br_run *r = &runs[N_RUNS];
    cr_expect_eq(r->metric, BR_METRIC_GFLOPS);
    cr_expect_eq(r->peak_gflops, 66908.16);
    cr_expect_eq(r->device.peak_gflops, 66908.16);
    for (size_t i = 0; i < r->n_cases; i++) {
        cr_expect(same(r->cases[i].gflops, sg.cases[i].gflops), "case %zu", i);
        cr_expect(same(r->cases[i].pct_peak, sg.cases[i].pct_peak), "case %zu", i);
    }
    cr_expect(!isnan(r->cases[3].pct_peak));
    br_results_free(runs, n);
    free(first);
    free(second);
    br_run_dispose(&sg);
    no_leaks();
}

/* A case's precision and the run's compute peaks survive a round trip
 * byte for byte, and the % of peak read back is against the case's
 * precision's peak; an unknown precision name is an error. */
Test(json_read, precision_and_compute_peaks_round_trip) {
    br_run sg;
    build_sgemm_h100(&sg);
    const double ops[] = {[BR_PRECISION_FP32] = 256, [BR_PRECISION_FP16_TENSOR] = 4096};
    for (int p = 0; p < 8; p++) {
        if (!ops[p])
            continue;
        br_compute_peak *k = &sg.compute_peaks[p];
        k->present = 1;
        k->ops_per_sm_clock = ops[p];
        k->clock_mhz = 1980;
        k->gflops = ops[p] * 132 * 1.98;
        strcpy(k->source, "table");
    }
    sg.cases[3].precision = BR_PRECISION_FP16_TENSOR;
    br_run_derive(&sg);
    const br_run *one[] = {&sg};
    char *first = write_json(one, 1);
    size_t n = 0;
    br_run *runs = parse_ok(first, &n);
    char *second = rewrite(runs, n);
    cr_assert_str_eq(second, first);
    const br_run *r = &runs[0];
    cr_expect_eq(r->cases[3].precision, BR_PRECISION_FP16_TENSOR);
    cr_expect_eq(r->cases[1].precision, BR_PRECISION_NONE, "not declared: absent, none");
    cr_expect_eq(r->compute_peaks[BR_PRECISION_FP16_TENSOR].present, 1);
    cr_expect_eq(r->compute_peaks[BR_PRECISION_FP16_TENSOR].ops_per_sm_clock, 4096);
    cr_expect_str_eq(r->compute_peaks[BR_PRECISION_FP16_TENSOR].source, "table");
    cr_expect_eq(r->compute_peaks[BR_PRECISION_BF16_TENSOR].present, 0);
    double peak = br_run_case_peak(r, &r->cases[3], NULL);
    cr_expect(isfinite(peak) && peak > 1e6, "%f", peak);
    cr_expect(same(r->cases[3].pct_peak, 100.0 * r->cases[3].gflops / peak));
    br_results_free(runs, n);
    json_t *doc = json_loads(first, 0, NULL);
    cr_assert_not_null(doc);
    free(first);
    free(second);
    json_t *peaks = json_object_get(
        json_object_get(json_array_get(json_object_get(doc, "runs"), 0), "peak"), "compute");
    cr_assert_not_null(peaks);
    json_object_set_new(peaks, "fp7", json_object());
    expect_doc_error(json_deep_copy(doc), NAME ": runs[0].peak.compute: unknown precision "
                                               "\"fp7\" (expected a name of a case's "
                                               "\"precision\": \"fp32\", \"fp16-tensor\", "
                                               "...)");
    json_object_del(peaks, "fp7");
    json_object_set_new(json_object_get(peaks, "fp32"), "gflops", json_string("67"));
    expect_doc_error(json_deep_copy(doc), NAME ": runs[0].peak.compute.fp32.gflops: expected a "
                                               "number or null, found a string");
    json_object_set_new(json_object_get(peaks, "fp32"), "gflops", json_real(66908.16));
    set(doc, "runs[0].cases[3].precision", json_string("fp7"));
    expect_doc_error(doc, NAME ": runs[0].cases[3].precision: expected \"none\", \"fp64\", "
                               "\"fp32\", \"fp16\", \"bf16\", \"fp64-tensor\", \"tf32-tensor\", "
                               "\"fp16-tensor\", \"bf16-tensor\", \"fp8-tensor\", \"int8-tensor\", "
                               "\"tf32-tensor-sparse\", \"fp16-tensor-sparse\", "
                               "\"bf16-tensor-sparse\", \"fp8-tensor-sparse\" or "
                               "\"int8-tensor-sparse\" or null, found \"fp7\"");
    br_run_dispose(&sg);
    no_leaks();
}

/* Files written before the FP32 peak lack it: both keys are optional. */
Test(json_read, fp32_peak_optional) {
    br_run sg;
    build_sgemm_h100(&sg);
    const br_run *one[] = {&sg};
    char *text = write_json(one, 1);
    json_t *doc = json_loads(text, 0, NULL);
    cr_assert_not_null(doc);
    free(text);

    /* Without the run's: the device's, by br_run_derive. */
    set(doc, "runs[0].peak.gflops", NULL);
    size_t n = 0;
    br_run *runs = parse_doc(json_incref(doc), &n);
    cr_assert_eq(n, 1);
    cr_expect_eq(runs[0].peak_gflops, 66908.16);
    cr_expect(same(runs[0].cases[3].pct_peak, sg.cases[3].pct_peak));
    br_results_free(runs, n);

    /* null reads as absent. */
    set(doc, "runs[0].peak.gflops", json_null());
    runs = parse_doc(json_incref(doc), &n);
    cr_expect_eq(runs[0].peak_gflops, 66908.16);
    br_results_free(runs, n);

    /* Neither: no FP32 peak, no % of it (the GFLOP/s remain). */
    set(doc, "runs[0].device.peak_gflops_fp32", NULL);
    set(doc, "runs[0].peak.gflops", NULL);
    runs = parse_doc(json_incref(doc), &n);
    cr_expect_eq(runs[0].has_device, 1);
    cr_expect(isnan(runs[0].device.peak_gflops));
    cr_expect(isnan(runs[0].peak_gflops));
    cr_expect(isnan(runs[0].cases[3].pct_peak));
    cr_expect(same(runs[0].cases[3].gflops, sg.cases[3].gflops));
    br_results_free(runs, n);

    /* Only the run's: kept. */
    set(doc, "runs[0].peak.gflops", json_real(60000.0));
    runs = parse_doc(json_incref(doc), &n);
    cr_expect_eq(runs[0].peak_gflops, 60000.0);
    cr_expect(isnan(runs[0].device.peak_gflops));
    cr_expect_eq(runs[0].cases[3].pct_peak, 100.0 * sg.cases[3].gflops / 60000.0);
    br_results_free(runs, n);

    /* A wrong type is an error like any other. */
    set(doc, "runs[0].device.peak_gflops_fp32", json_string("67 TFLOP/s"));
    expect_doc_error(doc, NAME ": runs[0].device.peak_gflops_fp32: expected a number or null, "
                               "found a string");
    br_run_dispose(&sg);
    no_leaks();
}

/* `peak: measured`'s compute peaks by precision ("peak"."measured_gops")
 * round trip; files without them read as none measured; a key that is no
 * precision, or a value that is not a positive number, is refused. */
Test(json_read, measured_compute_peaks_round_trip_and_are_optional) {
    br_run sg;
    build_sgemm_h100(&sg);
    sg.peak_kind = BR_PEAK_MEASURED;
    for (int p = 0; p < BR_PRECISION_COUNT; p++)
        sg.measured_gops[p] = NAN;
    sg.measured_gops[BR_PRECISION_FP32] = 61234.5;
    sg.measured_gops[BR_PRECISION_FP16_TENSOR] = 600000.25;
    br_run_derive(&sg); /* % of peak is now of the measured FP32 peak */
    const br_run *one[] = {&sg};
    char *first = write_json(one, 1);
    cr_expect(strstr(first, "\"measured_gops\": {\n          \"fp32\": 61234.5,\n          "
                            "\"fp16-tensor\": 600000.25\n        }"),
              "%s", first);
    size_t n = 0;
    br_run *runs = parse_ok(first, &n);
    char *second = rewrite(runs, n);
    cr_assert_str_eq(second, first);
    double g;
    cr_expect_eq(br_run_measured_compute(&runs[0], BR_PRECISION_FP32, &g), 1);
    cr_expect_eq(g, 61234.5);
    /* The GPU case (FP32: none declared) is a % of the measured peak. */
    cr_expect_float_eq(runs[0].cases[1].pct_peak, 100.0 * 8000.0 / 61234.5, 1e-9);
    cr_expect_eq(br_run_measured_compute(&runs[0], BR_PRECISION_FP16_TENSOR, &g), 1);
    cr_expect_eq(g, 600000.25);
    cr_expect_eq(br_run_measured_compute(&runs[0], BR_PRECISION_BF16_TENSOR, &g), 0);
    cr_expect(isnan(g));
    cr_expect(isnan(runs[0].measured_gops[BR_PRECISION_FP8_TENSOR]));
    /* A theoretical run's figures are not used as its peak. */
    runs[0].peak_kind = BR_PEAK_THEORETICAL;
    cr_expect_eq(br_run_measured_compute(&runs[0], BR_PRECISION_FP32, &g), 0);
    br_results_free(runs, n);
    free(second);

    json_t *doc = json_loads(first, 0, NULL);
    cr_assert_not_null(doc);
    set(doc, "runs[0].peak.measured_gops", NULL); /* a file written before them */
    runs = parse_doc(json_incref(doc), &n);
    for (int p = 0; p < BR_PRECISION_COUNT; p++)
        cr_expect(isnan(runs[0].measured_gops[p]), "%s", br_precision_name((br_precision)p));
    cr_expect_eq(br_run_measured_compute(&runs[0], BR_PRECISION_FP32, &g), 0);
    br_results_free(runs, n);

    json_t *m = json_object();
    json_object_set_new(m, "fp12", json_real(1.0));
    set(doc, "runs[0].peak.measured_gops", m);
    expect_doc_error(json_incref(doc),
                     NAME ": runs[0].peak.measured_gops.fp12: not a precision (fp64, fp32, "
                          "..., int8-tensor)");
    m = json_object();
    json_object_set_new(m, "fp32", json_real(-3.0));
    set(doc, "runs[0].peak.measured_gops", m);
    expect_doc_error(doc, NAME ": runs[0].peak.measured_gops.fp32: expected a positive number, "
                               "found -3");
    free(first);
    br_run_dispose(&sg);
    no_leaks();
}

Test(json_read, load_from_file_round_trip) {
    char path[] = "/tmp/br_resultsfile_XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    char *text = write_json(fixture_ptrs, N_RUNS);
    size_t len = strlen(text);
    cr_assert_eq(write(fd, text, len), (ssize_t)len);
    close(fd);
    br_run *runs = NULL;
    size_t n = 0;
    int rc = br_results_load(&runs, &n, path);
    unlink(path);
    cr_assert_eq(rc, 0, "%s", br_error_get());
    char *again = rewrite(runs, n);
    cr_assert_str_eq(again, text);
    br_results_free(runs, n);
    free(text);
    free(again);
    no_leaks();
}

Test(json_read, loaded_fields) {
    char *text = write_json(fixture_ptrs, N_RUNS);
    size_t n = 0;
    br_run *runs = parse_ok(text, &n);
    free(text);
    cr_assert_eq(n, N_RUNS);

    /* run 0: reduction on an H100 */
    const br_run *r = &runs[0], *f = &fixture[0];
    cr_expect_str_eq(r->benchrun_version, "0.1.0");
    cr_expect_str_eq(r->date, "2026-11-22T10:00:00Z");
    cr_expect_str_eq(r->suite_name, "reduction");
    cr_expect_str_eq(r->suite_description, "sum of n float32");
    cr_expect_str_eq(r->suite_path, "suites/reduction.yaml");
    cr_expect_str_eq(r->suite_hash, "3b18e512dba79e4c8300dd08aeb37f8e728b8dad");
    cr_expect_eq(r->metric, BR_METRIC_GBPS);
    cr_expect_eq(r->cache, BR_CACHE_FLUSH);
    cr_expect_eq(r->warmup_ns, BR_DEFAULT_WARMUP_NS);
    cr_expect_eq(r->measure.mode, BR_MODE_BOTH);
    cr_expect_eq(r->measure.headline, BR_MODE_COLD);
    cr_expect_eq(r->measure.hold, 1);
    cr_expect_eq(r->measure.min_samples, 10);
    cr_expect_eq(r->measure.max_samples, BR_DEFAULT_MAX_SAMPLES);
    cr_expect_eq(r->measure.max_noise, 0.005);
    cr_expect_eq(r->measure.timeout_ns, 10e9);
    cr_expect_eq(r->measure.throttle, BR_DEFAULT_THROTTLE);
    cr_expect_eq(r->peak_kind, BR_PEAK_THEORETICAL);
    cr_expect_eq(r->peak_gbps, 3352.32);
    cr_expect_eq(r->peak_gflops, 66908.16);
    cr_expect_eq(r->device.peak_gflops, 66908.16);
    cr_expect_eq(r->regression.threshold, 0.02);
    cr_expect_eq(r->regression.alpha, 0.01);
    cr_expect_eq(r->git.present, 1);
    cr_expect_str_eq(r->git.sha, "1a2b3c4d5e6f708192a3b4c5d6e7f80912a3b4c5");
    cr_expect_str_eq(r->git.short_sha, "1a2b3c4");
    cr_expect_str_eq(r->git.branch, "main");
    cr_expect_eq(r->git.commit_time, 1795000000);
    cr_expect_eq(r->has_device, 1);
    cr_expect_str_eq(r->device.name, "NVIDIA H100 80GB HBM3");
    cr_expect_eq(r->device.cc_major, 9);
    cr_expect_eq(r->device.cc_minor, 0);
    cr_expect_eq(r->device.sm_clock_khz, 1980000); /* written as 1980 MHz */
    cr_expect_eq(r->device.mem_clock_khz, 2619000);
    cr_expect_eq(r->device.sm_clock_now_mhz, 1755);
    cr_expect_eq(r->device.global_mem_bytes, 85022736384u);
    cr_expect_eq(r->device.ecc, 1);
    cr_expect(isnan(r->device.measured_peak_gbps));
    cr_expect_null(r->gpu_skip_reason);
    cr_expect_eq(r->host.logical_cores, 224);
    cr_expect_str_eq(r->host.hostname, "gpu-node-07");
    cr_assert_eq(r->n_params, 1);
    cr_expect_str_eq(r->param_names[0], "n");
    cr_assert_eq(r->n_kernels, 4);
    cr_expect_str_eq(r->kernels[3].name, "reduce_cub");
    cr_expect_str_eq(r->kernels[3].source, "kernels/reduce_cub.cu");
    cr_expect_eq(r->kernels[0].backend, BR_BACKEND_HOST);
    cr_expect_eq(r->kernels[3].backend, BR_BACKEND_GPU);
    cr_expect_null(r->comparison);
    cr_assert_eq(r->n_cases, 8);
    for (size_t i = 0; i < r->n_cases; i++) {
        const br_case_result *c = &r->cases[i], *fc = &f->cases[i];
        cr_expect_eq(c->kernel, i % 4, "case %zu", i);
        cr_expect_eq(c->combo, i / 4, "case %zu", i);
        cr_expect_eq(c->params[0], i < 4 ? 1 << 20 : 1 << 24);
        cr_expect_eq(c->status, fc->status);
        cr_expect_null(c->commit, "case %zu: the run's commit is not repeated", i);
        cr_expect_str_eq(c->date, "", "case %zu: the run's date is not repeated", i);
        cr_expect_eq(c->cold.present, fc->cold.present);
        cr_expect_eq(c->batch.present, fc->batch.present);
        if (fc->status == BR_STATUS_OK) {
            cr_expect(same(c->gbps, fc->gbps), "case %zu", i);
            cr_expect(same(c->pct_peak, fc->pct_peak), "case %zu", i);
            cr_expect(same(c->speedup, fc->speedup), "case %zu", i);
            expect_stats_eq(&c->cold.stats, &fc->cold.stats);
            expect_stats_eq(&c->batch.stats, &fc->batch.stats);
            expect_clocks_eq(&c->cold, &fc->cold, "cold");
            expect_clocks_eq(&c->batch, &fc->batch, "batch");
        }
    }
    /* The clocks, by value: the run's GPU clock is the kernel clock. */
    cr_expect_eq(r->gpu_clock, BR_CLOCK_KERNEL);
    cr_expect_null(r->clock_note);
    cr_expect_eq(r->cases[0].cold.clock, BR_CLOCK_MONOTONIC);
    cr_expect_null(r->cases[0].cold.event_ns);
    cr_expect_null(r->cases[0].cold.breakdown);
    cr_expect(isnan(r->cases[0].cold.event_median_ns));
    const br_case_result *cub = &r->cases[3];
    cr_expect_eq(cub->cold.clock, BR_CLOCK_KERNEL);
    cr_expect_eq(cub->batch.clock, BR_CLOCK_KERNEL);
    cr_expect_eq(cub->cold.n_incomplete, 2);
    cr_assert_not_null(cub->cold.event_ns);
    cr_expect_eq(cub->cold.event_ns[4], 3190.0 + 1650.5);
    cr_expect_eq(cub->cold.kernel_ns[4], 3190.0);
    cr_expect_eq(cub->cold.span_ns[4], 3190.0 + 36.0);
    cr_expect_eq(cub->cold.ops[4], 2.0);
    cr_expect_eq(cub->cold.event_median_ns, 4850.5);
    cr_expect_eq(cub->cold.kernel_median_ns, 3200.0);
    cr_expect_eq(cub->cold.span_median_ns, 3236.0);
    cr_expect_eq(cub->cold.ops_median, 2.0);
    cr_assert_eq(cub->cold.n_breakdown, 2);
    cr_expect(strstr(cub->cold.breakdown[0].name, "DeviceReduceSingleTileKernel<cub::") != NULL);
    cr_expect_eq(cub->cold.breakdown[0].kind, BR_OP_KERNEL);
    cr_expect_eq(cub->cold.breakdown[0].count, 5);
    cr_expect_eq(cub->cold.breakdown[0].median_ns, 2890.0);
    cr_expect_str_eq(cub->cold.breakdown[1].name, "memset");
    cr_expect_eq(cub->cold.breakdown[1].kind, BR_OP_MEMSET);
    cr_expect_eq(cub->cold.breakdown[1].per_exec, 1.0);
    cr_expect_eq(cub->cold.breakdown[1].share, 310.0 / 3200.0);
    cr_expect_eq(cub->batch.breakdown[1].count, 5 * 64);
    const br_case_result *warp = &r->cases[2];
    cr_assert_eq(warp->cold.n_samples, 8);
    cr_expect_eq(warp->cold.samples[4], 4090.1234);
    cr_expect_eq(warp->cold.stats.n, 8);
    cr_expect_eq(warp->cold.n_throttled, 12);
    cr_expect_eq(warp->cold.throttled_min_mhz, 1020);
    cr_expect_eq(warp->cold.sm_mhz_median, 1965);
    cr_assert_not_null(warp->cold.sm_mhz);
    cr_expect_eq(warp->cold.sm_mhz[7], 1965);
    cr_expect_eq(warp->batch.reps, 64);
    cr_expect_eq(warp->batch.graph, 1);
    cr_expect_eq(warp->batch.warmup_runs, 40 * 64);
    cr_expect_eq(warp->cold.warmup_ns, 25.5e6);
    cr_expect_eq(warp->cold.measure_ns, 50.25e6);
    cr_expect_eq(warp->cold.stop, BR_STOP_NOISE);
    const br_case_result *cpu = &r->cases[4];
    cr_expect_null(cpu->cold.sm_mhz, "host case: no clocks");
    cr_expect(isnan(cpu->cold.sm_mhz_median));
    cr_expect(isnan(cpu->cold.throttled_min_mhz));
    cr_expect_eq(cpu->cold.graph, 0);
    cr_expect_eq(cpu->cold.stop, BR_STOP_PLATEAU);
    cr_expect_eq(r->cases[7].batch.stop, BR_STOP_TIMEOUT);
    const br_case_result *failed = &r->cases[5];
    cr_expect_eq(failed->status, BR_STATUS_FAILED);
    cr_expect_eq(failed->stage, BR_STAGE_VERIFY);
    cr_expect_str_eq(failed->message, fixture[0].cases[5].message);
    cr_expect_eq(failed->cold.present, 0);
    cr_expect(isnan(failed->gbps));

    /* run 1: measured peak, unknown ECC and current clock */
    r = &runs[1];
    cr_expect_eq(r->gpu_clock, BR_CLOCK_EVENTS);
    cr_expect_null(r->clock_note);
    for (size_t i = 0; i < r->n_cases; i++)
        expect_clocks_eq(&r->cases[i].cold, &fixture[1].cases[i].cold, "bandwidth");
    /* copy: the events clock; sample 17 lost its CUPTI records */
    const br_timing *copy = &r->cases[0].cold;
    cr_expect_eq(copy->clock, BR_CLOCK_EVENTS);
    cr_expect_eq(copy->event_ns[17], 1001500.0);
    cr_expect(isnan(copy->kernel_ns[17]) && isnan(copy->span_ns[17]) && isnan(copy->ops[17]));
    cr_expect_eq(copy->kernel_ns[16], 1001400.0 - 1480.0);
    cr_expect_eq(copy->kernel_median_ns, 1000030.0 - 1480.0);
    cr_expect_eq(copy->event_median_ns, 1000040.0);
    cr_expect_eq(r->peak_kind, BR_PEAK_MEASURED);
    cr_expect_eq(r->peak_gbps, 2910.4);
    cr_expect_eq(r->cache, BR_CACHE_FLUSH_MEMSET);
    cr_expect_eq(r->device.ecc, -1);
    cr_expect_eq(r->device.sm_clock_now_mhz, 0);
    cr_expect_eq(r->device.measured_peak_gbps, 2910.4);
    cr_expect_eq(r->cases[0].cold.stats.n_outliers, fixture[1].cases[0].cold.stats.n_outliers);

    /* run 2: no device, detached and dirty, skipped GPU cases, two params */
    r = &runs[2];
    cr_expect_eq(r->gpu_clock, BR_CLOCK_EVENTS);
    cr_expect_str_eq(r->clock_note, "libcupti.so: cannot open shared object file");
    cr_expect_eq(r->cases[0].cold.clock, BR_CLOCK_MONOTONIC);
    cr_expect_eq(r->has_device, 0);
    cr_expect(isnan(r->peak_gbps));
    cr_expect(isnan(r->peak_gflops));
    cr_expect_str_eq(r->gpu_skip_reason,
                     "no CUDA device: cudaGetDeviceCount: no CUDA-capable device is detected");
    cr_expect_null(r->suite_description);
    cr_expect_eq(r->git.detached, 1);
    cr_expect_eq(r->git.dirty, 1);
    cr_expect_str_eq(r->git.branch, "");
    cr_expect_eq(r->metric, BR_METRIC_GFLOPS);
    cr_assert_eq(r->n_params, 2);
    cr_expect_str_eq(r->param_names[1], "tile");
    cr_expect_eq(r->cases[2].params[0], 2048);
    cr_expect_eq(r->cases[2].params[1], 16);
    cr_expect_eq(r->cases[3].combo, 1);
    cr_expect_eq(r->cases[1].status, BR_STATUS_SKIPPED);
    cr_expect_eq(r->cases[1].stage, BR_STAGE_NO_GPU);
    cr_expect_eq(r->cases[0].gflops, fixture[2].cases[0].gflops);

    /* run 3: no params, no git, no device, unknown CPU, headline batch */
    r = &runs[3];
    cr_expect_eq(r->n_params, 0);
    cr_expect_eq(r->git.present, 0);
    cr_expect_eq(r->has_device, 0);
    cr_expect_eq(r->host.logical_cores, 0);
    cr_expect_str_eq(r->host.cpu_model, "");
    cr_expect_eq(r->metric, BR_METRIC_NONE);
    cr_expect_eq(r->measure.headline, BR_MODE_BATCH);
    cr_expect_str_eq(r->suite_description, "empty kernels:\n  launch overhead in µs");
    for (size_t i = 0; i < r->n_cases; i++)
        cr_expect_eq(r->cases[i].combo, 0);
    cr_expect_eq(r->cases[0].batch.reps, 1000);
    cr_expect_eq(r->cases[0].batch.clock, BR_CLOCK_MONOTONIC);
    cr_expect_null(r->clock_note);
    cr_expect_eq(r->cases[0].cold.present, 0);
    cr_expect_eq(r->cases[2].stage, BR_STAGE_COMPILE);
    br_results_free(runs, n);
    no_leaks();
}

/* The written statistics and derived figures are not read: they are
 * recomputed from the samples. */
Test(json_read, stats_recomputed_from_samples) {
    json_t *doc = fixture_doc();
    const char *t = "runs[0].cases[2].cold";
    char path[128];
    const char *lies[] = {"n", "min", "max", "mean", "median", "stddev", "q1", "q3", "outliers"};
    for (size_t i = 0; i < sizeof lies / sizeof lies[0]; i++) {
        snprintf(path, sizeof path, "%s.%s", t, lies[i]);
        set(doc, path, json_integer(7));
    }
    set(doc, "runs[0].cases[2].gbps", json_real(1.0));
    set(doc, "runs[0].cases[2].speedup", json_real(1.0));
    set(doc, "runs[0].cases[2].verified", json_false());
    size_t n = 0;
    br_run *runs = parse_doc(doc, &n);
    const br_case_result *c = &runs[0].cases[2], *fc = &fixture[0].cases[2];
    expect_stats_eq(&c->cold.stats, &fc->cold.stats);
    cr_expect_eq(c->cold.stats.n, 8);
    cr_expect_eq(c->gbps, fc->gbps);
    cr_expect_eq(c->speedup, fc->speedup);
    br_results_free(runs, n);
    no_leaks();
}

/* The medians of the GPU-clock arrays are recomputed too, from the finite
 * values. */
Test(json_read, gpu_clock_medians_recomputed) {
    json_t *doc = fixture_doc();
    const char *keys[] = {"event_median_ns", "kernel_median_ns", "span_median_ns", "ops_median"};
    char path[128];
    for (size_t i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "runs[0].cases[3].cold.%s", keys[i]);
        set(doc, path, json_integer(7));
        snprintf(path, sizeof path, "runs[1].cases[0].cold.%s", keys[i]);
        set(doc, path, json_null());
    }
    /* a kernel time of 1 ns in one sample and none in another */
    set(doc, "runs[0].cases[3].cold.kernel_ns[0]", json_real(1.0));
    set(doc, "runs[0].cases[3].cold.kernel_ns[1]", json_null());
    size_t n = 0;
    br_run *runs = parse_doc(doc, &n);
    const br_timing *t = &runs[0].cases[3].cold;
    cr_expect_eq(t->event_median_ns, 4850.5);
    cr_expect_eq(t->span_median_ns, 3236.0);
    cr_expect_eq(t->ops_median, 2.0);
    /* 1, 3208, 3204, 3190: (3190 + 3204) / 2 */
    cr_expect_eq(t->kernel_ns[0], 1.0);
    cr_expect(isnan(t->kernel_ns[1]));
    cr_expect_eq(t->kernel_median_ns, (3190.0 + 3204.0) / 2);
    /* the samples (and so the statistics) are not the kernel times */
    cr_expect_eq(t->stats.median, 3200.0);
    const br_timing *copy = &runs[1].cases[0].cold, *fc = &fixture[1].cases[0].cold;
    cr_expect_eq(copy->event_median_ns, fc->event_median_ns);
    cr_expect_eq(copy->kernel_median_ns, fc->kernel_median_ns);
    cr_expect_eq(copy->span_median_ns, fc->span_median_ns);
    cr_expect_eq(copy->ops_median, 1.0);
    br_results_free(runs, n);
    no_leaks();
}

/* The GPU-clock arrays, "incomplete" and "breakdown" are optional: null and
 * absent read as not recorded. */
Test(json_read, gpu_clock_data_optional) {
    json_t *doc = fixture_doc();
    const char *t = "runs[0].cases[3].cold";
    const char *keys[] = {"event_ns", "kernel_ns", "span_ns", "ops", "breakdown"};
    char path[128];
    for (size_t i = 0; i < 5; i++) {
        snprintf(path, sizeof path, "%s.%s", t, keys[i]);
        set(doc, path, i % 2 ? json_null() : NULL);
    }
    set(doc, "runs[0].cases[3].cold.incomplete", NULL);
    set(doc, "runs[0].gpu_clock", NULL);
    set(doc, "runs[2].clock_note", json_null());
    size_t n = 0;
    br_run *runs = parse_doc(doc, &n);
    const br_timing *cold = &runs[0].cases[3].cold;
    cr_expect_eq(cold->clock, BR_CLOCK_KERNEL);
    cr_expect_null(cold->event_ns);
    cr_expect_null(cold->kernel_ns);
    cr_expect_null(cold->span_ns);
    cr_expect_null(cold->ops);
    cr_expect_null(cold->breakdown);
    cr_expect_eq(cold->n_breakdown, 0);
    cr_expect_eq(cold->n_incomplete, 0);
    cr_expect(isnan(cold->event_median_ns) && isnan(cold->kernel_median_ns) &&
              isnan(cold->span_median_ns) && isnan(cold->ops_median));
    cr_expect_eq(runs[0].gpu_clock, BR_CLOCK_EVENTS, "absent: the events clock");
    cr_expect_null(runs[2].clock_note);
    cr_expect_not_null(runs[0].cases[3].batch.event_ns, "the batch timing keeps its own");
    /* an empty breakdown stays an empty list */
    char *again = rewrite(runs, n);
    cr_expect(strstr(again, "\"breakdown\": null") != NULL);
    br_results_free(runs, n);
    free(again);
    doc = fixture_doc();
    set(doc, "runs[0].cases[3].cold.breakdown", json_array());
    runs = parse_doc(doc, &n);
    cr_expect_not_null(runs[0].cases[3].cold.breakdown);
    cr_expect_eq(runs[0].cases[3].cold.n_breakdown, 0);
    again = rewrite(runs, n);
    cr_expect(strstr(again, "\"breakdown\": []") != NULL, "an empty list round-trips");
    br_results_free(runs, n);
    free(again);
    no_leaks();
}

/* A schema-3 document (no clocks, no CUPTI data): GPU timings get the events
 * clock, host ones the monotonic clock, runs the events clock. The keys of
 * schema 4 are not read in it. */
Test(json_read, schema_3_clocks) {
    json_t *doc = fixture_doc();
    set(doc, "schema_version", json_integer(3));
    /* strip the schema-4 keys from runs 1 and 2; run 0 keeps them (unread) */
    const char *keys[] = {"clock",      "event_ns",        "kernel_ns",        "span_ns",
                          "ops",        "event_median_ns", "kernel_median_ns", "span_median_ns",
                          "ops_median", "incomplete",      "breakdown"};
    char path[128];
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        snprintf(path, sizeof path, "runs[1].cases[0].cold.%s", keys[k]);
        set(doc, path, NULL);
        snprintf(path, sizeof path, "runs[2].cases[0].cold.%s", keys[k]);
        set(doc, path, NULL);
    }
    set(doc, "runs[1].gpu_clock", NULL);
    set(doc, "runs[1].clock_note", NULL);
    set(doc, "runs[0].cases[3].cold.clock", json_string("sundial")); /* not read */
    set(doc, "runs[2].clock_note", json_integer(3));                 /* not read */
    size_t n = 0;
    br_run *runs = parse_doc(doc, &n);
    cr_assert_eq(n, N_RUNS);
    for (size_t ri = 0; ri < n; ri++) {
        const br_run *r = &runs[ri];
        cr_expect_eq(r->gpu_clock, BR_CLOCK_EVENTS, "run %zu", ri);
        cr_expect_null(r->clock_note, "run %zu", ri);
        for (size_t i = 0; i < r->n_cases; i++) {
            const br_case_result *c = &r->cases[i];
            br_clock want = r->kernels[c->kernel].backend == BR_BACKEND_GPU ? BR_CLOCK_EVENTS
                                                                            : BR_CLOCK_MONOTONIC;
            const br_timing *both[] = {&c->cold, &c->batch};
            for (size_t k = 0; k < 2; k++) {
                const br_timing *t = both[k];
                if (!t->present)
                    continue;
                cr_expect_eq(t->clock, want, "run %zu case %zu", ri, i);
                cr_expect(!t->event_ns && !t->kernel_ns && !t->span_ns && !t->ops && !t->breakdown,
                          "run %zu case %zu", ri, i);
                cr_expect(isnan(t->event_median_ns) && isnan(t->kernel_median_ns) &&
                          isnan(t->span_median_ns) && isnan(t->ops_median));
                cr_expect_eq(t->n_incomplete, 0);
            }
        }
    }
    cr_expect_eq(runs[0].cases[1].cold.clock, BR_CLOCK_EVENTS);
    cr_expect_eq(runs[0].cases[0].cold.clock, BR_CLOCK_MONOTONIC);
    cr_expect_eq(runs[1].cases[0].cold.clock, BR_CLOCK_EVENTS);
    cr_expect_eq(runs[2].cases[0].cold.clock, BR_CLOCK_MONOTONIC);
    /* written back: schema 4, with the clocks it was given */
    char *again = rewrite(runs, n);
    size_t n2 = 0;
    br_run *runs2 = parse_ok(again, &n2);
    cr_expect_eq(runs2[0].cases[3].cold.clock, BR_CLOCK_EVENTS);
    cr_expect_eq(runs2[0].gpu_clock, BR_CLOCK_EVENTS);
    cr_expect(strstr(again, "\"schema_version\": 4") != NULL);
    br_results_free(runs2, n2);
    br_results_free(runs, n);
    free(again);
    no_leaks();
}

/* A case measured at another commit and date (a baseline updated by a
 * partial run) keeps them; a case at the run's own keeps neither. */
Test(json_read, case_commit_and_date) {
    json_t *doc = fixture_doc();
    const char *sha = "ffeeddccbbaa99887766554433221100ffeeddcc";
    set(doc, "runs[0].cases[1].commit", json_string(sha));
    set(doc, "runs[0].cases[1].date", json_string("2026-10-01T09:30:00Z"));
    set(doc, "runs[0].cases[3].commit", json_null());      /* null reads as the run's */
    set(doc, "runs[3].cases[0].commit", json_string(sha)); /* a run without git */
    char *text = dump(doc);
    json_decref(doc);
    size_t n = 0;
    br_run *runs = parse_ok(text, &n);
    cr_assert_str_eq(runs[0].cases[1].commit, sha);
    cr_expect_str_eq(runs[0].cases[1].date, "2026-10-01T09:30:00Z");
    cr_expect_null(runs[0].cases[0].commit);
    cr_expect_str_eq(runs[0].cases[0].date, "");
    cr_expect_null(runs[0].cases[3].commit);
    cr_assert_not_null(runs[3].cases[0].commit);
    cr_expect_str_eq(runs[3].cases[0].commit, sha);
    cr_expect_null(runs[3].cases[1].commit);

    /* written back, the per-case values survive */
    char *again = rewrite(runs, n);
    size_t n2 = 0;
    br_run *runs2 = parse_ok(again, &n2);
    cr_expect_str_eq(runs2[0].cases[1].commit, sha);
    cr_expect_str_eq(runs2[0].cases[1].date, "2026-10-01T09:30:00Z");
    cr_expect_str_eq(runs2[3].cases[0].commit, sha);
    br_results_free(runs2, n2);
    br_results_free(runs, n);
    free(again);
    free(text);
    no_leaks();
}

/* Combos are numbered by first appearance of each param vector, whatever the
 * order of the cases. */
Test(json_read, combos_by_first_appearance) {
    json_t *doc = fixture_doc();
    /* sgemm cases: (1000,16) (1000,16) (2048,16) (2048,16) -> (2048,16) (1000,16) (2048,16)
     * (1000,8) */
    set(doc, "runs[2].cases[0].params.n", json_integer(2048));
    set(doc, "runs[2].cases[3].params.n", json_integer(1000));
    set(doc, "runs[2].cases[3].params.tile", json_integer(8));
    size_t n = 0;
    br_run *runs = parse_doc(doc, &n);
    const br_run *r = &runs[2];
    cr_expect_eq(r->cases[0].combo, 0);
    cr_expect_eq(r->cases[1].combo, 1);
    cr_expect_eq(r->cases[2].combo, 0);
    cr_expect_eq(r->cases[3].combo, 2);
    br_results_free(runs, n);
    no_leaks();
}

/* Keys benchrun does not read (a comparison, a future field) are ignored,
 * however deep. */
Test(json_read, unknown_keys_ignored) {
    json_t *doc = fixture_doc();
    json_t *deep = json_object();
    for (int i = 0; i < 1000; i++) {
        json_t *outer = json_object();
        json_object_set_new(outer, "a", deep);
        deep = outer;
    }
    set(doc, "runs[0].comparison", deep);
    set(doc, "runs[0].future", json_string("x"));
    set(doc, "runs[0].cases[0].cold.future", json_array());
    set(doc, "future", json_true());
    size_t n = 0;
    br_run *runs = parse_doc(doc, &n);
    cr_expect_eq(n, N_RUNS);
    cr_expect_null(runs[0].comparison);
    br_results_free(runs, n);
    no_leaks();
}

Test(json_read, no_runs) {
    br_run *runs = (br_run *)&runs;
    size_t n = 5;
    const char *text = "{\"schema_version\": 3, \"runs\": []}";
    cr_assert_eq(br_results_parse(&runs, &n, text, strlen(text), NAME), 0, "%s", br_error_get());
    cr_expect_null(runs);
    cr_expect_eq(n, 0);
    br_results_free(runs, n);
    br_results_free(NULL, 3);
    no_leaks();
}

/* A schema-2 document, written by hand: no "regression", no per-case commit
 * or date, absent optional values. */
Test(json_read, schema_2_default_regression) {
    const char *text =
        "{\"schema_version\": 2, \"benchrun_version\": \"0.0.9\", \"runs\": [{\n"
        "  \"date\": \"2025-06-01T08:00:00Z\",\n"
        "  \"suite\": {\"name\": \"tiny\", \"path\": \"suites/tiny.yaml\", \"metric\": "
        "\"GB/s\"},\n"
        "  \"measure\": {\"cache\": \"warm\", \"mode\": \"cold\", \"headline\": \"cold\"},\n"
        "  \"device\": null,\n"
        "  \"params\": [\"n\"],\n"
        "  \"kernels\": [{\"name\": \"k\", \"source\": \"kernels/k.c\", \"backend\": "
        "\"host\"}],\n"
        "  \"cases\": [{\"kernel\": \"k\", \"params\": {\"n\": 1024}, \"status\": \"ok\",\n"
        "              \"bytes\": 4096,\n"
        "              \"cold\": {\"samples_ns\": [100, 300, 200], \"stop_reason\": "
        "\"noise\", \"reps\": 1}}]\n"
        "}]}\n";
    size_t n = 0;
    br_run *runs = parse_ok(text, &n);
    cr_assert_eq(n, 1);
    const br_run *r = &runs[0];
    cr_expect_eq(r->regression.threshold, BR_DEFAULT_REGRESSION_THRESHOLD);
    cr_expect_eq(r->regression.alpha, BR_DEFAULT_REGRESSION_ALPHA);
    cr_expect_null(r->benchrun_version);
    cr_expect_str_eq(r->suite_name, "tiny");
    cr_expect_null(r->suite_description);
    cr_expect_str_eq(r->suite_hash, "");
    cr_expect_eq(r->cache, BR_CACHE_WARM);
    cr_expect(isnan(r->warmup_ns));
    cr_expect(isnan(r->measure.max_noise));
    cr_expect_eq(r->measure.hold, 0);
    cr_expect_eq(r->measure.min_samples, 0);
    cr_expect(isnan(r->peak_gbps));
    cr_expect_eq(r->git.present, 0);
    cr_expect_eq(r->has_device, 0);
    cr_assert_eq(r->n_cases, 1);
    const br_case_result *c = &r->cases[0];
    cr_expect_eq(c->kernel, 0);
    cr_expect_eq(c->combo, 0);
    cr_expect_eq(c->params[0], 1024);
    cr_expect_null(c->commit);
    cr_expect_str_eq(c->date, "");
    cr_expect(isnan(c->flops));
    cr_assert_eq(c->cold.present, 1);
    cr_expect_eq(c->cold.n_samples, 3);
    cr_expect_eq(c->cold.samples[1], 300);
    cr_expect_eq(c->cold.stats.median, 200);
    cr_expect_eq(c->cold.stats.mean, 200);
    cr_expect_eq(c->cold.reps, 1);
    cr_expect_null(c->cold.sm_mhz);
    cr_expect(isnan(c->cold.sm_mhz_median));
    cr_expect_eq(c->batch.present, 0);
    cr_expect_eq(c->gbps, 4096.0 / 200.0);
    cr_expect(isnan(c->pct_peak));
    cr_expect_eq(c->speedup, 1.0);
    br_results_free(runs, n);
    no_leaks();
}

/* The host timing fields (pinned CPU, governor and turbo state; a host
 * timing's CPU frequencies and disturbed samples) survive a round trip, and
 * files written before them read as "unknown" and zero. */
Test(json_read, host_timing_fields_round_trip_and_are_optional) {
    br_run red;
    build_reduction(&red);
    red.host.pinned = 1;
    red.host.cpu = 3;
    red.host.freq_scaling = 1;
    red.host.turbo = 0;
    snprintf(red.host.governor, sizeof red.host.governor, "powersave");
    br_timing *t = &red.cases[0].cold; /* reduce_cpu n=2^20: a host case */
    t->cpu_mhz = calloc(t->n_samples, sizeof *t->cpu_mhz);
    cr_assert_not_null(t->cpu_mhz);
    for (size_t i = 0; i < t->n_samples; i++)
        t->cpu_mhz[i] = i == 1 ? NAN : 2900.0 + (double)i;
    t->cpu_mhz_median = 2902.5;
    t->switches = calloc(t->n_samples, sizeof *t->switches);
    cr_assert_not_null(t->switches);
    t->switches[2] = 1;
    t->n_switched = 4;
    t->n_slow = 2;
    t->slow_min_mhz = 1400;
    red.cases[0].batch.disturbed_kept = 1;
    const br_run *one[] = {&red};
    char *first = write_json(one, 1);
    size_t n = 0;
    br_run *runs = parse_ok(first, &n);
    char *second = rewrite(runs, n);
    cr_assert_str_eq(second, first);
    const br_run *r = &runs[0];
    cr_expect_eq(r->host.pinned, 1);
    cr_expect_eq(r->host.cpu, 3);
    cr_expect_eq(r->host.freq_scaling, 1);
    cr_expect_eq(r->host.turbo, 0);
    cr_expect_str_eq(r->host.governor, "powersave");
    const br_timing *g = &r->cases[0].cold;
    cr_assert_not_null(g->cpu_mhz);
    for (size_t i = 0; i < g->n_samples; i++)
        cr_expect(same(g->cpu_mhz[i], t->cpu_mhz[i]), "sample %zu", i);
    cr_expect_eq(g->cpu_mhz_median, 2902.5);
    cr_assert_not_null(g->switches);
    cr_expect_eq(g->switches[2], 1.0);
    cr_expect_eq(g->switches[0], 0.0);
    cr_expect_eq(g->n_switched, 4);
    cr_expect_eq(g->n_slow, 2);
    cr_expect_eq(g->slow_min_mhz, 1400);
    cr_expect_eq(g->disturbed_kept, 0);
    cr_expect_eq(r->cases[0].batch.disturbed_kept, 1);
    cr_expect_null(r->cases[1].cold.cpu_mhz, "a GPU case has none");
    br_results_free(runs, n);
    free(second);

    /* An older file: none of the keys. */
    json_t *doc = json_loads(first, 0, NULL);
    cr_assert_not_null(doc);
    free(first);
    const char *keys[] = {"cpu_mhz",      "cpu_mhz_samples", "n_switched", "n_slow",
                          "slow_min_mhz", "disturbed_kept",  "switches"};
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
        char path[96];
        snprintf(path, sizeof path, "runs[0].cases[0].cold.%s", keys[k]);
        set(doc, path, NULL);
    }
    set(doc, "runs[0].host.cpu", NULL);
    set(doc, "runs[0].host.freq_scaling", NULL);
    set(doc, "runs[0].host.turbo", NULL);
    runs = parse_doc(json_incref(doc), &n);
    cr_expect_eq(runs[0].host.pinned, 0);
    cr_expect_eq(runs[0].host.freq_scaling, -1);
    cr_expect_eq(runs[0].host.turbo, -1);
    g = &runs[0].cases[0].cold;
    cr_expect_null(g->cpu_mhz);
    cr_expect_null(g->switches);
    cr_expect(isnan(g->cpu_mhz_median));
    cr_expect_eq(g->n_switched + g->n_slow + (size_t)g->disturbed_kept, 0);
    br_results_free(runs, n);

    /* A column of the wrong length is an error naming it. */
    set(doc, "runs[0].cases[0].cold.cpu_mhz_samples", json_pack("[f]", 1.0));
    expect_doc_error(doc, NAME ": runs[0].cases[0].cold.cpu_mhz_samples: expected 5 values (one "
                               "per sample in samples_ns) or null, found 1");
    br_run_dispose(&red);
    no_leaks();
}

/* Names a results file gives (the suite's, a kernel's, a param's) cannot
 * carry a control character or a Unicode bidi control (a NUL jansson refuses): the reader
 * refuses them with the JSON path, and the message shows them escaped
 * (before: a C1 CSI in a kernel name reached the table raw). */
Test(json_read, names_with_controls_are_refused) {
    static const struct {
        const char *path;
        const char *value; /* JSON-escaped */
        const char *want;
    } bad[] = {
        {"runs[0].suite.name", "\"a\\u009bb\"",
         NAME ": runs[0].suite.name: a name that holds a control character (U+009B) at byte 2"},
        {"runs[0].kernels[0].name", "\"evil\\u202egnp\"",
         NAME ": runs[0].kernels[0].name: a name that holds a Unicode bidirectional control "
              "(U+202E) at byte 5"},
        {"runs[0].params[0]", "\"n\\tx\"",
         NAME ": runs[0].params[0]: a name that holds a control character (U+0009) at byte 2"},
        {"runs[0].kernels[0].name", "\"\"",
         NAME ": runs[0].kernels[0].name: expected a name, found an empty string"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        json_t *doc = fixture_doc();
        json_error_t err;
        json_t *v = json_loads(bad[i].value, JSON_DECODE_ANY, &err);
        cr_assert_not_null(v, "%s", err.text);
        set(doc, bad[i].path, v);
        char *text = dump(doc);
        expect_error(text, strlen(text), bad[i].want);
        free(text);
        json_decref(doc);
    }
    no_leaks();
}
