/* SPDX-License-Identifier: Apache-2.0 */
/* Flags N, S and P decided from the results alone (model/suspect.h), on
 * synthetic timings and an H100's record. */
#include <criterion/criterion.h>

#include <math.h>

#include "model/suspect.h"

/* An H100 SXM: 132 SMs at 1980 MHz, 50 MiB L2, 3352.32 GB/s, 66908.16 GFLOP/s. */
static br_device h100(void) {
    br_device d = {0};
    d.sm_count = 132;
    d.sm_clock_khz = 1980000;
    d.l2_bytes = 50u << 20;
    d.peak_gbps = 3352.32;
    d.peak_gflops = 66908.16;
    d.measured_peak_gbps = NAN;
    return d;
}

Test(suspect, converged_is_decided_by_the_stop_reason_alone) {
    /* Every stop the stopping rule emits (measure.c, br_stopper_check). */
    static const struct {
        br_stop stop;
        int converged;
    } rows[] = {{BR_STOP_CI, 1},         {BR_STOP_CI_T, 1},    {BR_STOP_NOISE, 1},
                {BR_STOP_NONE, 1},       {BR_STOP_PLATEAU, 0}, {BR_STOP_TIMEOUT, 0},
                {BR_STOP_MAX_SAMPLES, 0}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        br_timing t = {0};
        t.present = 1;
        t.stop = rows[i].stop;
        cr_expect_eq(br_timing_converged(&t), rows[i].converged, "%s",
                     br_stop_name(rows[i].stop) ? br_stop_name(rows[i].stop) : "none");
        t.present = 0;
        cr_expect_eq(br_timing_converged(&t), 1, "a timing not taken is not flagged");
    }
    br_timing odd = {0};
    odd.present = 1;
    odd.stop = (br_stop)99;
    cr_expect_eq(br_timing_converged(&odd), 0, "a value outside the enum is never trusted");
    cr_expect_eq(br_timing_converged(NULL), 1);
}

Test(suspect, work_on_another_stream_or_context_escapes_the_clock) {
    double k[] = {100.0};
    br_timing t = {.present = 1, .kernel_ns = k, .n_samples = 1};
    cr_assert_not(br_suspect_escaped(&t), "everything on the case's stream");
    t.n_other_stream = 3;
    cr_assert(br_suspect_escaped(&t));
    t.n_other_stream = 0;
    t.n_other_context = 1;
    cr_assert(br_suspect_escaped(&t));
    t.kernel_ns = NULL;
    cr_assert_not(br_suspect_escaped(&t), "without CUPTI nothing was checked");
    t.kernel_ns = k;
    t.present = 0;
    cr_assert_not(br_suspect_escaped(&t), "a timing not taken");
    cr_assert_not(br_suspect_escaped(NULL));
}

Test(suspect, the_l2_bound_of_an_h100) {
    br_device d = h100();
    cr_assert_float_eq(br_suspect_l2_gbps(&d), 132 * 64.0 * 1.98e9 / 1e9, 1e-6);
    d.sm_count = 0;
    cr_assert(isnan(br_suspect_l2_gbps(&d)));
}

Test(suspect, below_every_peak_is_physics) {
    br_device d = h100();
    br_physics p = br_suspect_physics(1e9, 3000.0, 250.0, &d);
    cr_assert_eq(p.kind, BR_PHYSICS_OK);
    p = br_suspect_physics(NAN, NAN, NAN, &d);
    cr_assert_eq(p.kind, BR_PHYSICS_OK, "nothing known, nothing flagged");
}

Test(suspect, above_dram_from_data_that_fits_in_l2_is_explained) {
    br_device d = h100();
    /* 4 MiB per execution at 6000 GB/s: L2-resident, under 16727 GB/s. */
    br_physics p = br_suspect_physics(4.0 * (1 << 20), 6000.0, NAN, &d);
    cr_assert_eq(p.kind, BR_PHYSICS_OK);
}

Test(suspect, above_dram_from_data_larger_than_l2_is_p) {
    br_device d = h100();
    br_physics p = br_suspect_physics(3.0 * (1u << 30), 4000.0, NAN, &d);
    cr_assert_eq(p.kind, BR_PHYSICS_BANDWIDTH);
    cr_assert_eq(p.fits_l2, 0);
    cr_assert_float_eq(p.achieved, 4000.0, 0.0);
    cr_assert_float_eq(p.peak, 3352.32, 0.0);
}

Test(suspect, above_the_l2_bound_is_p_even_when_it_fits) {
    br_device d = h100();
    br_physics p = br_suspect_physics(1 << 20, 20000.0, NAN, &d);
    cr_assert_eq(p.kind, BR_PHYSICS_BANDWIDTH);
    cr_assert_eq(p.fits_l2, 1);
    cr_assert_float_eq(p.l2_gbps, br_suspect_l2_gbps(&d), 1e-9);
}

Test(suspect, an_unknown_l2_explains_nothing) {
    br_device d = h100();
    d.l2_bytes = 0;
    cr_assert_eq(br_suspect_physics(1 << 20, 4000.0, NAN, &d).kind, BR_PHYSICS_BANDWIDTH);
}

Test(suspect, above_the_fp32_peak_is_p) {
    br_device d = h100();
    br_physics p = br_suspect_physics(NAN, NAN, 70000.0, &d);
    cr_assert_eq(p.kind, BR_PHYSICS_COMPUTE);
    cr_assert_float_eq(p.peak, 66908.16, 0.0);
    d.peak_gflops = NAN;
    cr_assert_eq(br_suspect_physics(NAN, NAN, 70000.0, &d).kind, BR_PHYSICS_OK,
                 "an unknown peak checks nothing");
}

Test(suspect, only_verified_gpu_cases_of_a_run_with_a_device_are_checked) {
    br_run_kernel k[] = {{"host", "", BR_BACKEND_HOST, ""}, {"gpu", "", BR_BACKEND_GPU, ""}};
    br_run r = {.kernels = k, .n_kernels = 2, .has_device = 1, .device = h100()};
    br_case_result c = {.kernel = 1, .status = BR_STATUS_OK, .bytes = 3e9, .gbps = 5000.0};
    cr_assert_eq(br_suspect_case_physics(&r, &c).kind, BR_PHYSICS_BANDWIDTH);
    c.kernel = 0;
    cr_assert_eq(br_suspect_case_physics(&r, &c).kind, BR_PHYSICS_OK, "a host case");
    c.kernel = 1;
    c.status = BR_STATUS_FAILED;
    cr_assert_eq(br_suspect_case_physics(&r, &c).kind, BR_PHYSICS_OK);
    c.status = BR_STATUS_OK;
    r.has_device = 0;
    cr_assert_eq(br_suspect_case_physics(&r, &c).kind, BR_PHYSICS_OK);
}
