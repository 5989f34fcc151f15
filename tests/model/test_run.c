/* SPDX-License-Identifier: Apache-2.0 */
/* test_results.c - br_run_derive / br_run_count / br_run_dispose and the
 * name functions of results.c, on the runs built by hand
 * (results_fixture.h). */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "model/run.h"
#include "results_fixture.h"

TestSuite(results, .init = fixtures_setup, .fini = fixtures_teardown);

Test(results, derive) {
    br_run *r = &fixture[0];
    const br_case_result *cpu = &r->cases[4], *naive = &r->cases[5], *warp = &r->cases[6];
    double cpu_median = cpu->cold.stats.median;
    cr_expect_eq(cpu->gbps, 67108864.0 / cpu_median);
    cr_expect(isnan(cpu->pct_peak), "host case has no % of peak");
    cr_expect_eq(cpu->speedup, 1.0);
    cr_expect(isnan(cpu->gflops), "no flops");
    cr_expect(isnan(naive->gbps) && isnan(naive->pct_peak) && isnan(naive->speedup));
    cr_expect_eq(warp->pct_peak, 100.0 * (67108864.0 / 41700.0) / 3352.32);
    cr_expect_eq(warp->speedup, cpu_median / 41700.0);

    /* % of peak is relative to the run's peak (here the measured one), not
     * the device's theoretical peak. */
    br_run *bw = &fixture[1];
    double copy_median = bw->cases[0].cold.stats.median;
    cr_expect_eq(bw->cases[0].gbps, 2147483648.0 / copy_median);
    cr_expect_eq(bw->cases[0].pct_peak, 100.0 * (2147483648.0 / copy_median) / 2910.4);

    br_run *s = &fixture[2];
    cr_expect_eq(s->cases[0].gflops, 2e9 / 152000000.0);
    cr_expect(isnan(s->cases[0].gbps) && isnan(s->cases[0].pct_peak));
    cr_expect(isnan(s->cases[1].gflops) && isnan(s->cases[1].speedup));

    /* Headline batch: the batch medians. */
    br_run *l = &fixture[3];
    cr_expect_eq(l->cases[1].speedup, 850.375 / 9252.5);
}

Test(results, derive_uses_headline) {
    br_run *r = &fixture[0];
    const br_case_result *warp = &r->cases[6];
    cr_expect_eq(br_case_headline(r, warp), &warp->cold);
    r->measure.headline = BR_MODE_BATCH;
    cr_expect_eq(br_case_headline(r, warp), &warp->batch);
    br_run_derive(r);
    double batch = warp->batch.stats.median;
    cr_expect_eq(batch, 0.95 * 41700.0);
    cr_expect_eq(warp->gbps, 67108864.0 / batch);
    cr_expect_eq(warp->speedup, r->cases[4].batch.stats.median / batch);
    cr_expect_eq(warp->pct_peak, 100.0 * (67108864.0 / batch) / 3352.32);
    cr_expect_null(br_case_headline(r, NULL));

    /* A headline timing that was not taken gives no figures. */
    br_run *bw = &fixture[1];
    bw->measure.headline = BR_MODE_BATCH;
    br_run_derive(bw);
    cr_expect(isnan(bw->cases[0].gbps) && isnan(bw->cases[0].speedup));
}

Test(results, speedup_without_reference) {
    br_run *r = &fixture[0];
    /* Make the reference (kernel 0) of combo 1 fail: no speedups there. */
    r->cases[4].status = BR_STATUS_FAILED;
    br_run_derive(r);
    cr_expect(isnan(r->cases[4].gbps));
    cr_expect(isnan(r->cases[6].speedup) && isnan(r->cases[7].speedup));
    cr_expect(!isnan(r->cases[6].gbps), "own figures remain");
    cr_expect(!isnan(r->cases[2].speedup), "other combos keep theirs");
    /* Without a device, or without a usable peak, no % of peak. */
    r->peak_gbps = NAN;
    br_run_derive(r);
    cr_expect(isnan(r->cases[6].pct_peak));
    r->peak_gbps = 3352.32;
    br_run_derive(r);
    cr_expect(!isnan(r->cases[6].pct_peak));
    r->has_device = 0;
    br_run_derive(r);
    cr_expect(isnan(r->cases[6].pct_peak));
}

/* GFLOP/s: % of the FP32 theoretical peak for GPU cases only. */
Test(results, derive_gflops) {
    br_run sg;
    build_sgemm_h100(&sg);
    const double peak = 66908.16;
    const double f1 = 2.0 * 2048 * 2048 * 2048;
    cr_expect_eq(sg.peak_gflops, peak);
    cr_expect(isnan(sg.cases[0].pct_peak), "host case");
    cr_expect_eq(sg.cases[0].gflops, 2e9 / 152000000.0);
    cr_expect_eq(sg.cases[1].gflops, 2e9 / 250000.0);
    cr_expect_eq(sg.cases[1].pct_peak, 100.0 * (2e9 / 250000.0) / peak);
    cr_expect(isnan(sg.cases[2].gflops) && isnan(sg.cases[2].pct_peak), "failed case");
    cr_expect_eq(sg.cases[3].pct_peak, 100.0 * (f1 / 640000.0) / peak);
    cr_expect(isnan(sg.cases[3].gbps), "no bytes");

    /* A measured (bandwidth) peak does not change the GFLOP/s one. */
    sg.peak_kind = BR_PEAK_MEASURED;
    sg.peak_gbps = 2910.4;
    br_run_derive(&sg);
    cr_expect_eq(sg.cases[3].pct_peak, 100.0 * (f1 / 640000.0) / peak);

    /* A run whose builder left peak_gflops unset (zeroed, NAN or negative)
     * gets the device's. */
    double unset[] = {0.0, NAN, -1.0, INFINITY};
    for (size_t i = 0; i < sizeof unset / sizeof unset[0]; i++) {
        sg.peak_gflops = unset[i];
        br_run_derive(&sg);
        cr_expect_eq(sg.peak_gflops, peak, "from %g", unset[i]);
        cr_expect_eq(sg.cases[3].pct_peak, 100.0 * (f1 / 640000.0) / peak);
    }
    /* A peak the run already has is kept. */
    sg.peak_gflops = 50000.0;
    br_run_derive(&sg);
    cr_expect_eq(sg.peak_gflops, 50000.0);
    cr_expect_eq(sg.cases[3].pct_peak, 100.0 * (f1 / 640000.0) / 50000.0);

    /* A device of unknown compute capability: no peak, no % of it. */
    sg.device.peak_gflops = NAN;
    sg.peak_gflops = NAN;
    br_run_derive(&sg);
    cr_expect(isnan(sg.peak_gflops));
    cr_expect(isnan(sg.cases[1].pct_peak) && isnan(sg.cases[3].pct_peak));
    cr_expect_eq(sg.cases[3].gflops, f1 / 640000.0, "the GFLOP/s remain");

    /* Without a device: NAN, even with the device's figure left in. */
    sg.device.peak_gflops = peak;
    sg.peak_gflops = 0.0;
    sg.has_device = 0;
    br_run_derive(&sg);
    cr_expect(isnan(sg.peak_gflops));
    cr_expect(isnan(sg.cases[3].pct_peak));

    /* The GB/s metric ignores the FP32 peak. */
    sg.has_device = 1;
    sg.metric = BR_METRIC_GBPS;
    sg.cases[3].bytes = 3.0 * 4 * 2048 * 2048;
    br_run_derive(&sg);
    cr_expect_eq(sg.peak_gflops, peak);
    cr_expect_eq(sg.cases[3].pct_peak, 100.0 * (sg.cases[3].bytes / 640000.0) / 2910.4);
    /* Metric none: none. */
    sg.metric = BR_METRIC_NONE;
    br_run_derive(&sg);
    cr_expect(isnan(sg.cases[3].pct_peak));
    br_run_dispose(&sg);

    /* The fixture's GB/s runs get the FP32 peak recorded too, untouched % of peak. */
    cr_expect_eq(fixture[0].peak_gflops, peak);
    cr_expect_eq(fixture[1].peak_gflops, peak);
    cr_expect(isnan(fixture[2].peak_gflops) && isnan(fixture[3].peak_gflops));
    cr_expect_eq(fixture[0].cases[6].pct_peak, 100.0 * (67108864.0 / 41700.0) / 3352.32);
}

Test(results, count) {
    size_t ok = 9, failed = 9, skipped = 9;
    br_run_count(&fixture[0], &ok, &failed, &skipped);
    cr_expect(ok == 7 && failed == 1 && skipped == 0);
    br_run_count(&fixture[2], &ok, &failed, &skipped);
    cr_expect(ok == 2 && failed == 0 && skipped == 2);
    br_run_count(NULL, &ok, NULL, &skipped);
    cr_expect(ok == 0 && skipped == 0);
}

Test(results, dispose_accepts_null_and_zeroed) {
    br_run zero;
    memset(&zero, 0, sizeof zero);
    br_run_dispose(&zero);
    br_run_dispose(NULL);
    br_run_dispose(&fixture[0]);
    cr_expect_null(fixture[0].cases);
    br_run_dispose(&fixture[0]); /* zeroed by the first call */
}

Test(results, timing_dispose) {
    br_timing t;
    memset(&t, 0, sizeof t);
    br_timing_dispose(&t);
    br_timing_dispose(NULL);
    br_timing *cold = &fixture[0].cases[1].cold;
    cr_assert_not_null(cold->samples);
    cr_assert_not_null(cold->sm_mhz);
    br_timing_dispose(cold);
    cr_expect_null(cold->samples);
    cr_expect_null(cold->sm_mhz);
    cr_expect_eq(cold->present, 0);
    cr_expect_eq(cold->n_samples, 0);
}

Test(results, names) {
    cr_expect_str_eq(br_status_name(BR_STATUS_OK), "ok");
    cr_expect_str_eq(br_status_name(BR_STATUS_FAILED), "failed");
    cr_expect_str_eq(br_status_name(BR_STATUS_SKIPPED), "skipped");
    cr_expect_str_eq(br_backend_name(BR_BACKEND_HOST), "host");
    cr_expect_str_eq(br_backend_name(BR_BACKEND_GPU), "gpu");
    cr_expect_str_eq(br_mode_name(BR_MODE_COLD), "cold");
    cr_expect_str_eq(br_mode_name(BR_MODE_BATCH), "batch");
    cr_expect_str_eq(br_mode_name(BR_MODE_BOTH), "both");
    cr_expect_str_eq(br_mode_name((br_mode)0), "unknown");
    cr_expect_str_eq(br_cache_name(BR_CACHE_FLUSH), "flush");
    cr_expect_str_eq(br_cache_name(BR_CACHE_WARM), "warm");
    cr_expect_str_eq(br_cache_name(BR_CACHE_FLUSH_MEMSET), "flush-memset");
    cr_expect_str_eq(br_cache_name((br_cache_policy)7), "unknown");
    cr_expect_str_eq(br_peak_kind_name(BR_PEAK_THEORETICAL), "theoretical");
    cr_expect_str_eq(br_peak_kind_name(BR_PEAK_MEASURED), "measured");
    cr_expect_str_eq(br_peak_kind_name((br_peak_kind)5), "unknown");
    cr_expect_str_eq(br_clock_name(BR_CLOCK_MONOTONIC), "monotonic");
    cr_expect_str_eq(br_clock_name(BR_CLOCK_EVENTS), "events");
    cr_expect_str_eq(br_clock_name(BR_CLOCK_KERNEL), "kernel");
    cr_expect_str_eq(br_clock_name((br_clock)9), "unknown");
}

/* What a worker measured moves into the planned case whole: every field of
 * the outcome (energy and the wall-time breakdown included, which a field-by-
 * field copy once dropped), and nothing stays owned twice. */
Test(results, take_outcome_moves_every_measured_field) {
    br_case_result planned = {.kernel = 2, .combo = 5, .bytes = 4096.0};
    br_case_result got = {.status = BR_STATUS_OK};
    got.stage = BR_STAGE_RUN;
    got.message = strdup("note");
    got.cold.present = 1;
    got.cold.n_samples = 3;
    got.cold.samples = calloc(3, sizeof *got.cold.samples);
    got.batch.present = 1;
    got.wall.present = 1;
    got.wall.total_ns = 1e6;
    got.energy.present = 1;
    got.energy.j_per_exec = 0.5;
    br_case_take_outcome(&planned, &got);
    cr_expect_eq(planned.kernel, 2);
    cr_expect_eq(planned.combo, 5);
    cr_expect_eq(planned.bytes, 4096.0);
    cr_expect_eq(planned.status, BR_STATUS_OK);
    cr_expect_eq(planned.stage, BR_STAGE_RUN);
    cr_expect_str_eq(planned.message, "note");
    cr_expect(planned.cold.present && planned.cold.n_samples == 3 && planned.cold.samples);
    cr_expect(planned.batch.present);
    cr_expect(planned.wall.present && planned.wall.total_ns == 1e6);
    cr_expect(planned.energy.present && planned.energy.j_per_exec == 0.5);
    cr_expect_eq(got.stage, BR_STAGE_NONE);
    cr_expect_null(got.message);
    cr_expect_null(got.cold.samples);
    br_case_dispose(&got); /* nothing left to free twice */
    br_case_dispose(&planned);
}
