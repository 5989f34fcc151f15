/* SPDX-License-Identifier: Apache-2.0 */
/* The compute peak table against NVIDIA's published datasheets, which
 * precisions a GPU has, and the reason a case of a missing one is skipped. */
#include "platform/flops.h"
#include "platform/device.h"

#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

/* One datasheet figure: the GPU, its compute capability and SMs, the SM
 * clock the figure is computed at (MHz), the precision and the figure
 * (TFLOP/s, or TOP/s for INT8).
 *
 * The clocks: NVIDIA prints the boost clock for V100 (1530), A100 (1410),
 * L40S (2520) and H100 SXM (1980; its Tensor figures are computed at 1830
 * MHz, glennklockwood.com/garden/processors/h100, "1.83 GHz (low
 * precision), 1.98 GHz (high precision)"). H100 PCIe's FP32 figure is at its
 * 1755 MHz boost; its Tensor figures are at 1620 MHz, the clock that gives
 * them (NVIDIA does not print it). B200's Tensor figures are at about 1860
 * MHz (hmc-tech.com's B200 page, "Tensor Clock 1.86GHz"; NVIDIA does not
 * print it).
 *
 * Sources (dense unless the precision says -sparse):
 *  - V100 SXM2: NVIDIA Tesla V100 datasheet: FP64 7.8, FP32 15.7, Tensor 125.
 *  - A100 SXM: NVIDIA A100 datasheet: FP64 9.7, FP64 Tensor 19.5, FP32 19.5,
 *    TF32 156, BF16 / FP16 312 (624 sparse), INT8 624 TOPS; GA100 whitepaper
 *    table 1: FP16 78, BF16 39 on the CUDA cores.
 *  - H100 SXM: NVIDIA H100 datasheet (as tabulated dense by
 *    glennklockwood.com/garden/processors/h100): FP64 33.5, FP64 Tensor 66.9,
 *    FP32 66.9, FP16 / BF16 133.8, TF32 494.7, FP16 / BF16 989.4, FP8 1978.9,
 *    INT8 1978.9, FP8 3957.8 sparse.
 *  - H100 PCIe: NVIDIA H100 datasheet, PCIe column (sparse Tensor figures):
 *    FP64 Tensor 51, FP32 51, TF32 756, BF16 / FP16 1513, FP8 3026, INT8
 *    3026. (Its FP64 26 is 1.5% above 114 x 128 x 1.755 GHz = 25.6: the
 *    datasheet rounds up; left out of the 1% check.)
 *  - H200 SXM: NVIDIA H200 datasheet (sparse Tensor figures): FP64 Tensor
 *    67, FP32 67, TF32 989, BF16 / FP16 1979, FP8 3958, INT8 3958. (Its FP64
 *    34 is 1.6% above 33.45, rounded as H100 PCIe's; left out.)
 *  - L40S: NVIDIA L40S datasheet: FP32 91.6, TF32 183 (366 sparse), BF16 /
 *    FP16 733 sparse, FP8 733 (1466 sparse), INT8 733 TOPS. (Its dense FP16
 *    362.05 is 1.2% below half its own sparse 733; left out.)
 *  - B200: NVIDIA HGX B200 datasheet, per GPU: FP16 / BF16 2.25 PFLOPS
 *    (4.5 sparse), FP8 4.5 (9 sparse), INT8 4.5 POPS. */
typedef struct sheet {
    const char *gpu;
    int major, minor, sms;
    int mhz;
    br_precision p;
    double tflops;
} sheet;

static const sheet sheets[] = {
    {"V100 SXM2", 7, 0, 80, 1530, BR_PRECISION_FP64, 7.8},
    {"V100 SXM2", 7, 0, 80, 1530, BR_PRECISION_FP32, 15.7},
    {"V100 SXM2", 7, 0, 80, 1530, BR_PRECISION_FP16_TENSOR, 125},
    {"A100 SXM", 8, 0, 108, 1410, BR_PRECISION_FP64, 9.7},
    {"A100 SXM", 8, 0, 108, 1410, BR_PRECISION_FP64_TENSOR, 19.5},
    {"A100 SXM", 8, 0, 108, 1410, BR_PRECISION_FP32, 19.5},
    {"A100 SXM", 8, 0, 108, 1410, BR_PRECISION_FP16, 78},
    {"A100 SXM", 8, 0, 108, 1410, BR_PRECISION_BF16, 39},
    {"A100 SXM", 8, 0, 108, 1410, BR_PRECISION_TF32_TENSOR, 156},
    {"A100 SXM", 8, 0, 108, 1410, BR_PRECISION_FP16_TENSOR, 312},
    {"A100 SXM", 8, 0, 108, 1410, BR_PRECISION_BF16_TENSOR, 312},
    {"A100 SXM", 8, 0, 108, 1410, BR_PRECISION_FP16_TENSOR_SPARSE, 624},
    {"A100 SXM", 8, 0, 108, 1410, BR_PRECISION_INT8_TENSOR, 624},
    {"H100 SXM", 9, 0, 132, 1980, BR_PRECISION_FP64, 33.5},
    {"H100 SXM", 9, 0, 132, 1980, BR_PRECISION_FP64_TENSOR, 66.9},
    {"H100 SXM", 9, 0, 132, 1980, BR_PRECISION_FP32, 66.9},
    {"H100 SXM", 9, 0, 132, 1980, BR_PRECISION_FP16, 133.8},
    {"H100 SXM", 9, 0, 132, 1980, BR_PRECISION_BF16, 133.8},
    {"H100 SXM", 9, 0, 132, 1830, BR_PRECISION_TF32_TENSOR, 494.7},
    {"H100 SXM", 9, 0, 132, 1830, BR_PRECISION_FP16_TENSOR, 989.4},
    {"H100 SXM", 9, 0, 132, 1830, BR_PRECISION_BF16_TENSOR, 989.4},
    {"H100 SXM", 9, 0, 132, 1830, BR_PRECISION_FP8_TENSOR, 1978.9},
    {"H100 SXM", 9, 0, 132, 1830, BR_PRECISION_INT8_TENSOR, 1978.9},
    {"H100 SXM", 9, 0, 132, 1830, BR_PRECISION_FP8_TENSOR_SPARSE, 3957.8},
    {"H100 PCIe", 9, 0, 114, 1755, BR_PRECISION_FP64_TENSOR, 51},
    {"H100 PCIe", 9, 0, 114, 1755, BR_PRECISION_FP32, 51},
    {"H100 PCIe", 9, 0, 114, 1620, BR_PRECISION_TF32_TENSOR_SPARSE, 756},
    {"H100 PCIe", 9, 0, 114, 1620, BR_PRECISION_FP16_TENSOR_SPARSE, 1513},
    {"H100 PCIe", 9, 0, 114, 1620, BR_PRECISION_BF16_TENSOR_SPARSE, 1513},
    {"H100 PCIe", 9, 0, 114, 1620, BR_PRECISION_FP8_TENSOR_SPARSE, 3026},
    {"H100 PCIe", 9, 0, 114, 1620, BR_PRECISION_INT8_TENSOR_SPARSE, 3026},
    {"H200 SXM", 9, 0, 132, 1980, BR_PRECISION_FP64_TENSOR, 67},
    {"H200 SXM", 9, 0, 132, 1980, BR_PRECISION_FP32, 67},
    {"H200 SXM", 9, 0, 132, 1830, BR_PRECISION_TF32_TENSOR_SPARSE, 989},
    {"H200 SXM", 9, 0, 132, 1830, BR_PRECISION_FP16_TENSOR_SPARSE, 1979},
    {"H200 SXM", 9, 0, 132, 1830, BR_PRECISION_BF16_TENSOR_SPARSE, 1979},
    {"H200 SXM", 9, 0, 132, 1830, BR_PRECISION_FP8_TENSOR_SPARSE, 3958},
    {"H200 SXM", 9, 0, 132, 1830, BR_PRECISION_INT8_TENSOR_SPARSE, 3958},
    {"L40S", 8, 9, 142, 2520, BR_PRECISION_FP32, 91.6},
    {"L40S", 8, 9, 142, 2520, BR_PRECISION_TF32_TENSOR, 183},
    {"L40S", 8, 9, 142, 2520, BR_PRECISION_TF32_TENSOR_SPARSE, 366},
    {"L40S", 8, 9, 142, 2520, BR_PRECISION_FP16_TENSOR_SPARSE, 733},
    {"L40S", 8, 9, 142, 2520, BR_PRECISION_BF16_TENSOR_SPARSE, 733},
    {"L40S", 8, 9, 142, 2520, BR_PRECISION_FP8_TENSOR, 733},
    {"L40S", 8, 9, 142, 2520, BR_PRECISION_FP8_TENSOR_SPARSE, 1466},
    {"L40S", 8, 9, 142, 2520, BR_PRECISION_INT8_TENSOR, 733},
    {"B200", 10, 0, 148, 1860, BR_PRECISION_FP16_TENSOR, 2250},
    {"B200", 10, 0, 148, 1860, BR_PRECISION_BF16_TENSOR, 2250},
    {"B200", 10, 0, 148, 1860, BR_PRECISION_FP16_TENSOR_SPARSE, 4500},
    {"B200", 10, 0, 148, 1860, BR_PRECISION_FP8_TENSOR, 4500},
    {"B200", 10, 0, 148, 1860, BR_PRECISION_FP8_TENSOR_SPARSE, 9000},
    {"B200", 10, 0, 148, 1860, BR_PRECISION_INT8_TENSOR, 4500},
};

Test(flops, datasheets_within_one_percent) {
    for (size_t i = 0; i < sizeof sheets / sizeof sheets[0]; i++) {
        const sheet *s = &sheets[i];
        double gflops = br_flops_peak_gflops(s->major, s->minor, s->sms, s->mhz * 1000.0, s->p);
        double rel = gflops / (s->tflops * 1e3) - 1.0;
        cr_expect(isfinite(gflops) && fabs(rel) <= 0.01, "%s %s: %.1f TFLOP/s, datasheet %.1f",
                  s->gpu, br_precision_name(s->p), gflops / 1e3, s->tflops);
    }
}

Test(flops, fp32_is_the_device_table_and_none_reads_as_fp32) {
    cr_assert_eq(br_flops_peak_gflops(9, 0, 132, 1980000, BR_PRECISION_FP32),
                 br_device_peak_gflops_fp32(9, 0, 132, 1980000));
    cr_assert_eq(br_flops_per_sm_clock(8, 6, BR_PRECISION_NONE),
                 br_flops_per_sm_clock(8, 6, BR_PRECISION_FP32));
    cr_assert_eq(br_flops_per_sm_clock(8, 6, BR_PRECISION_FP32), 256.0);
}

/* GA102 and AD102 run FP64 at 1/64 of FP32 (their whitepapers). */
Test(flops, consumer_ampere_and_ada_fp64_is_a_sixty_fourth) {
    for (int minor = 6; minor <= 9; minor += 3)
        cr_expect_eq(br_flops_per_sm_clock(8, minor, BR_PRECISION_FP64) * 64,
                     br_flops_per_sm_clock(8, minor, BR_PRECISION_FP32), "8.%d", minor);
}

Test(flops, which_gpus_have_which_precisions) {
    struct {
        int major, minor;
        br_precision p;
        int has;
    } want[] = {
        {8, 0, BR_PRECISION_FP8_TENSOR, 0},
        {8, 6, BR_PRECISION_FP8_TENSOR, 0},
        {8, 9, BR_PRECISION_FP8_TENSOR, 1},
        {9, 0, BR_PRECISION_FP8_TENSOR, 1},
        {12, 0, BR_PRECISION_FP8_TENSOR, 1},
        {7, 5, BR_PRECISION_BF16_TENSOR, 0},
        {8, 0, BR_PRECISION_BF16_TENSOR, 1},
        {7, 0, BR_PRECISION_TF32_TENSOR, 0},
        {8, 6, BR_PRECISION_TF32_TENSOR, 1},
        {7, 0, BR_PRECISION_INT8_TENSOR, 0},
        {7, 5, BR_PRECISION_INT8_TENSOR, 1},
        {8, 0, BR_PRECISION_FP64_TENSOR, 1},
        {9, 0, BR_PRECISION_FP64_TENSOR, 1},
        {10, 0, BR_PRECISION_FP64_TENSOR, 1},
        {8, 6, BR_PRECISION_FP64_TENSOR, 0},
        {8, 9, BR_PRECISION_FP64_TENSOR, 0},
        {12, 0, BR_PRECISION_FP64_TENSOR, 0},
        {7, 5, BR_PRECISION_FP16_TENSOR_SPARSE, 0},
        {8, 0, BR_PRECISION_FP16_TENSOR_SPARSE, 1},
        {7, 0, BR_PRECISION_BF16, 0},
        {8, 0, BR_PRECISION_BF16, 1},
        {7, 0, BR_PRECISION_FP32, 1},
        {13, 0, BR_PRECISION_FP32, -1},
        {8, 8, BR_PRECISION_FP16_TENSOR, -1},
        {9, 0, (br_precision)99, -1},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        cr_expect_eq(br_flops_has(want[i].major, want[i].minor, want[i].p), want[i].has, "%d.%d %s",
                     want[i].major, want[i].minor, br_precision_name(want[i].p));
}

/* A lacking precision is 0; one the GPU has but the table has no rate for
 * (sm_120's Tensor Cores), or an unknown GPU, is NAN: never a guess. */
Test(flops, lacking_is_zero_and_unknown_is_not_guessed) {
    cr_expect_eq(br_flops_per_sm_clock(8, 0, BR_PRECISION_FP8_TENSOR), 0.0);
    cr_expect_eq(br_flops_peak_gflops(8, 0, 108, 1410000, BR_PRECISION_FP8_TENSOR), 0.0);
    cr_expect(isnan(br_flops_per_sm_clock(12, 0, BR_PRECISION_FP16_TENSOR)));
    cr_expect(isnan(br_flops_per_sm_clock(13, 0, BR_PRECISION_FP32)));
    cr_expect(isnan(br_flops_peak_gflops(9, 0, 0, 1980000, BR_PRECISION_FP32)));
    cr_expect(isnan(br_flops_peak_gflops(9, 0, 132, 0, BR_PRECISION_FP32)));
    cr_expect(isnan(br_flops_device_peak(NULL, BR_PRECISION_FP32)));
    cr_expect_eq(br_flops_per_sm_clock(9, 0, BR_PRECISION_INT8_TENSOR_SPARSE),
                 2 * br_flops_per_sm_clock(9, 0, BR_PRECISION_INT8_TENSOR));
    cr_expect_not_null(br_flops_source(9, 0));
    cr_expect_null(br_flops_source(13, 0));
}

/* A faked A100 device record: FP8 is skipped with a reason that names the
 * GPU, its capability and where FP8 is found; FP16 Tensor is not. */
Test(flops, an_a100_lacks_fp8_and_says_why) {
    br_device d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "NVIDIA A100-SXM4-80GB");
    d.cc_major = 8;
    d.cc_minor = 0;
    d.sm_count = 108;
    d.sm_clock_khz = 1410000;
    char why[256] = "untouched";
    cr_assert_eq(br_flops_lacks(&d, BR_PRECISION_FP16_TENSOR, why, sizeof why), 0);
    cr_assert_str_eq(why, "untouched");
    cr_assert_eq(br_flops_lacks(&d, BR_PRECISION_FP8_TENSOR, why, sizeof why), 1);
    cr_assert_str_eq(why, "fp8-tensor: NVIDIA A100-SXM4-80GB (compute capability 8.0) lacks it (it "
                          "is on compute capability 8.9 and later)");
    cr_assert_eq(br_flops_lacks(&d, BR_PRECISION_FP8_TENSOR_SPARSE, NULL, 0), 1);
    cr_assert_eq(br_flops_lacks(NULL, BR_PRECISION_FP8_TENSOR, why, sizeof why), 0);
    double peak = br_flops_device_peak(&d, BR_PRECISION_FP16_TENSOR);
    cr_assert(fabs(peak - 2048.0 * 108 * 1.41e9 / 1e9) < 1e-6, "%f", peak);
    d.cc_major = 13; /* a GPU the table does not know is not refused */
    cr_assert_eq(br_flops_lacks(&d, BR_PRECISION_FP8_TENSOR, why, sizeof why), 0);
}

/* The run records each precision it used from the table at the maximum
 * clock; a precision the GPU lacks, or a run without a device, records
 * nothing; NONE records FP32. */
Test(flops, a_run_records_the_peaks_it_used) {
    br_run r;
    memset(&r, 0, sizeof r);
    br_flops_record(&r, BR_PRECISION_FP32);
    cr_assert_eq(r.compute_peaks[BR_PRECISION_FP32].present, 0, "no device");
    r.has_device = 1;
    r.device.cc_major = 9;
    r.device.cc_minor = 0;
    r.device.sm_count = 132;
    r.device.sm_clock_khz = 1980000;
    br_flops_record(&r, BR_PRECISION_NONE);
    br_flops_record(&r, BR_PRECISION_FP16_TENSOR);
    const br_compute_peak *fp32 = &r.compute_peaks[BR_PRECISION_FP32];
    const br_compute_peak *fp16 = &r.compute_peaks[BR_PRECISION_FP16_TENSOR];
    cr_assert_eq(fp32->present, 1);
    cr_assert_eq(fp32->ops_per_sm_clock, 256.0);
    cr_assert(fabs(fp32->gflops - 66908.16) < 1e-6, "%f", fp32->gflops);
    cr_assert_eq(fp16->present, 1);
    cr_assert_eq(fp16->ops_per_sm_clock, 4096.0);
    cr_assert(fabs(fp16->gflops - 4096.0 * 132 * 1980.0 / 1000.0) < 1e-6, "%f", fp16->gflops);
    cr_assert_eq(fp16->clock_mhz, 1980.0);
    cr_assert_str_eq(fp16->source, "table");
    r.device.cc_minor = 0;
    r.device.cc_major = 8; /* an A100 lacks FP8: nothing recorded */
    br_flops_record(&r, BR_PRECISION_FP8_TENSOR);
    cr_assert_eq(r.compute_peaks[BR_PRECISION_FP8_TENSOR].present, 0);
}
