/* SPDX-License-Identifier: Apache-2.0 */
/* The compute peak a case is measured against (model/run.h,
 * br_run_case_peak): its declared precision's, at the clock the GPU held;
 * % of peak, the roofline ceiling and the physics check ("faster than the
 * hardware can go") through it. On an H100 record whose peaks are filled as
 * br_flops_record fills them (the table's rates x 132 SMs x 1980 MHz). */
#include <criterion/criterion.h>

#include <math.h>
#include <string.h>

#include "model/roofline.h"
#include "model/run.h"
#include "model/suspect.h"

#define SMS 132

static br_run_kernel kernels[] = {{"hgemm", "", BR_BACKEND_GPU, ""}};

static void record(br_run *r, br_precision p, double ops) {
    br_compute_peak *k = &r->compute_peaks[p];
    k->present = 1;
    k->ops_per_sm_clock = ops;
    k->clock_mhz = 1980.0;
    k->gflops = ops * SMS * 1980.0 / 1000.0;
    strcpy(k->source, "table");
}

/* An H100 run of one GPU kernel with the FP32 and FP16 Tensor peaks. */
static void h100_run(br_run *r) {
    memset(r, 0, sizeof *r);
    r->kernels = kernels;
    r->n_kernels = 1;
    r->metric = BR_METRIC_GFLOPS;
    r->measure.headline = BR_MODE_COLD;
    r->has_device = 1;
    r->device.sm_count = SMS;
    r->device.sm_clock_khz = 1980000;
    r->device.peak_gbps = 3352.32;
    r->device.peak_gflops = 66908.16;
    r->peak_gbps = 3352.32;
    r->peak_gflops = 66908.16;
    record(r, BR_PRECISION_FP32, 256);
    record(r, BR_PRECISION_FP16_TENSOR, 4096);
}

/* An OK case doing 2 x 8192^3 FLOP in `ns`, its SM clock held at `mhz`
 * (NAN: not sampled). */
static br_case_result gemm_case(br_precision p, double ns, double mhz, double *sample) {
    br_case_result c;
    memset(&c, 0, sizeof c);
    c.status = BR_STATUS_OK;
    c.precision = p;
    c.flops = 2.0 * 8192 * 8192 * 8192;
    c.bytes = 3.0 * 2 * 8192 * 8192;
    *sample = ns;
    c.cold.present = 1;
    c.cold.samples = sample;
    c.cold.n_samples = 1;
    c.cold.stats.n = 1;
    c.cold.stats.median = ns;
    c.cold.sm_mhz_median = mhz;
    c.gflops = c.flops / ns;
    return c;
}

Test(peaks, a_tensor_case_is_measured_against_its_precision_at_the_clock_it_held) {
    br_run r;
    h100_run(&r);
    double s;
    br_case_result c = gemm_case(BR_PRECISION_FP16_TENSOR, 1.48e6, 1830.0, &s);
    double mhz = 0;
    double peak = br_run_case_peak(&r, &c, &mhz);
    cr_assert_float_eq(peak, 4096.0 * SMS * 1.83, 1e-6, "%f", peak); /* 989,429.76 */
    cr_assert_eq(mhz, 1830.0);
    r.cases = &c;
    r.n_cases = 1;
    br_run_derive(&r);
    cr_assert_float_eq(c.pct_peak, 100.0 * c.gflops / (4096.0 * SMS * 1.83), 1e-9);
    cr_assert(c.pct_peak > 70 && c.pct_peak < 80, "%f", c.pct_peak);
    /* Without a sampled clock: the peak at the maximum clock. */
    c.cold.sm_mhz_median = NAN;
    cr_assert_float_eq(br_run_case_peak(&r, &c, &mhz), 4096.0 * SMS * 1.98, 1e-6);
    cr_assert_eq(mhz, 1980.0);
    cr_assert_float_eq(br_run_case_peak_max(&r, &c), 4096.0 * SMS * 1.98, 1e-6);
}

Test(peaks, undeclared_is_fp32_and_an_old_file_keeps_its_one_peak) {
    br_run r;
    h100_run(&r);
    double s;
    br_case_result c = gemm_case(BR_PRECISION_NONE, 40e6, NAN, &s);
    cr_assert_float_eq(br_run_case_peak(&r, &c, NULL), 66908.16, 1e-6);
    memset(r.compute_peaks, 0, sizeof r.compute_peaks); /* a file without them */
    r.peak_gflops = 60000.0;
    cr_assert_eq(br_run_case_peak(&r, &c, NULL), 60000.0);
    c.precision = BR_PRECISION_FP16_TENSOR; /* no peak recorded: no guess */
    cr_assert(isnan(br_run_case_peak(&r, &c, NULL)));
    r.cases = &c;
    r.n_cases = 1;
    br_run_derive(&r);
    cr_assert(isnan(c.pct_peak));
    r.has_device = 0;
    c.precision = BR_PRECISION_NONE;
    cr_assert(isnan(br_run_case_peak(&r, &c, NULL)));
}

/* cuBLAS FP16 at 8192^3 on an H200: 743 TFLOP/s. Declared fp32 it is
 * faster than the FP32 peak can go (P, impossible); declared fp16-tensor it
 * is a plausible 69% of the FP16 Tensor peak at the maximum clock. */
Test(peaks, an_fp16_kernel_declared_fp32_is_impossible) {
    br_run r;
    h100_run(&r);
    double s;
    double ns = 2.0 * 8192 * 8192 * 8192 / 743000.0;
    br_case_result c = gemm_case(BR_PRECISION_FP32, ns, 1980.0, &s);
    br_physics p = br_suspect_case_physics(&r, &c);
    cr_assert_eq(p.kind, BR_PHYSICS_COMPUTE);
    cr_assert_float_eq(p.peak, 66908.16, 1e-6);
    c.precision = BR_PRECISION_NONE;
    cr_assert_eq(br_suspect_case_physics(&r, &c).kind, BR_PHYSICS_COMPUTE);
    c.precision = BR_PRECISION_FP16_TENSOR;
    cr_assert_eq(br_suspect_case_physics(&r, &c).kind, BR_PHYSICS_OK);
    /* Beyond the FP16 Tensor peak at the maximum clock: impossible again. */
    c.gflops = 1.2e6;
    p = br_suspect_case_physics(&r, &c);
    cr_assert_eq(p.kind, BR_PHYSICS_COMPUTE);
    cr_assert_float_eq(p.peak, 4096.0 * SMS * 1.98, 1e-6);
}

Test(peaks, the_roofline_ceiling_is_the_cases_precisions) {
    br_run r;
    h100_run(&r);
    double s;
    br_case_result c = gemm_case(BR_PRECISION_FP16_TENSOR, 1.48e6, 1830.0, &s);
    br_roofline_point p = br_roofline_case(&r, &c);
    cr_assert_eq(p.bound, BR_BOUND_COMPUTE);
    cr_assert_float_eq(p.attainable, 4096.0 * SMS * 1.83, 1e-6);
    c.precision = BR_PRECISION_FP32;
    cr_assert_float_eq(br_roofline_case(&r, &c).attainable, 256.0 * SMS * 1.83, 1e-6);
}
