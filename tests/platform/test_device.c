/* SPDX-License-Identifier: Apache-2.0 */
/* test_device.c - the device query's defaults and the FP32 theoretical peak
 * (lanes per SM by compute capability, the formula). */
#include "platform/device.h"
#include "base/error.h"

#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

Test(device_query, sets_unknown_defaults_even_when_it_fails) {
    br_device d;
    memset(&d, 0x5a, sizeof d);
    int rc = br_device_query(&d, 0);
    cr_assert(isnan(d.measured_peak_gbps), "not measured by a query");
    if (rc != 0) {
        cr_assert(isnan(d.peak_gflops), "no FP32 peak without a device");
        cr_assert_eq(d.ecc, -1, "ECC unknown without a device");
        cr_assert_eq(d.sm_clock_now_mhz, 0);
        cr_assert_neq(br_error_get()[0], '\0', "the error is set");
    } else {
        cr_assert(d.ecc == 0 || d.ecc == 1);
        cr_assert_geq(d.sm_clock_now_mhz, 0);
        int lanes = br_device_fp32_lanes_per_sm(d.cc_major, d.cc_minor);
        if (lanes > 0)
            cr_assert_eq(d.peak_gflops, br_device_peak_gflops_fp32(d.cc_major, d.cc_minor,
                                                                   d.sm_count, d.sm_clock_khz));
        else
            cr_assert(isnan(d.peak_gflops), "unknown sm_%d%d: no guess", d.cc_major, d.cc_minor);
    }
}

/* The CUDA C++ Programming Guide's "32-bit floating-point add, multiply,
 * multiply-add" results per clock cycle per multiprocessor. */
Test(device_fp32, lanes_per_sm_table) {
    struct {
        int major, minor, lanes;
    } want[] = {
        {5, 0, 128},  {5, 2, 128},  {5, 3, 128},  {6, 0, 64},   {6, 1, 128},
        {6, 2, 128},  {7, 0, 64},   {7, 2, 64},   {7, 5, 64},   {8, 0, 64},
        {8, 6, 128},  {8, 7, 128},  {8, 9, 128},  {9, 0, 128},  {10, 0, 128},
        {10, 3, 128}, {11, 0, 128}, {12, 0, 128}, {12, 1, 128}, {3, 5, 192},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        cr_expect_eq(br_device_fp32_lanes_per_sm(want[i].major, want[i].minor), want[i].lanes,
                     "%d.%d", want[i].major, want[i].minor);
}

Test(device_fp32, unknown_capability_is_not_guessed) {
    const int unknown[][2] = {{0, 0}, {-1, 0}, {1, 3}, {2, 0}, {2, 1},  {4, 0},  {6, 3},
                              {8, 1}, {8, 8},  {9, 1}, {9, 2}, {11, 1}, {13, 0}, {9, -1}};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        int major = unknown[i][0], minor = unknown[i][1];
        cr_expect_eq(br_device_fp32_lanes_per_sm(major, minor), 0, "%d.%d", major, minor);
        cr_expect(isnan(br_device_peak_gflops_fp32(major, minor, 132, 1980000)), "%d.%d", major,
                  minor);
    }
}

Test(device_fp32, peak_formula) {
    /* H100 SXM: 132 SMs x 128 lanes x 2 FLOP x 1.98e9 Hz = 66.9 TFLOP/s. */
    cr_expect_eq(br_device_peak_gflops_fp32(9, 0, 132, 1980000), 66908.16);
    cr_expect_eq(br_device_peak_gflops_fp32(9, 0, 132, 1980000), 132.0 * 128 * 2 * 1.98e9 / 1e9);
    /* A100 SXM (8.0, 108 SMs, 1410 MHz): 19.5 TFLOP/s, its datasheet figure. */
    cr_expect_eq(br_device_peak_gflops_fp32(8, 0, 108, 1410000), 19491.84);
    /* RTX 4090 (8.9, 128 SMs, 2520 MHz boost): 82.6 TFLOP/s. */
    cr_expect_eq(br_device_peak_gflops_fp32(8, 9, 128, 2520000), 82575.36);
    /* Unknown SM count or clock: NAN. */
    cr_expect(isnan(br_device_peak_gflops_fp32(9, 0, 0, 1980000)));
    cr_expect(isnan(br_device_peak_gflops_fp32(9, 0, 132, 0)));
    cr_expect(isnan(br_device_peak_gflops_fp32(9, 0, -1, -5)));
}
