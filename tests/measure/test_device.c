/* test_device.c - the one-line device and host summaries, query defaults, and the
 * FP32 theoretical peak (lanes per SM by compute capability, the formula). */
#include "measure/device.h"
#include "reporters/machine.h"
#include "base/error.h"

#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

static br_device h100(void) {
    br_device d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "NVIDIA H100 80GB HBM3");
    d.cc_major = 9;
    d.cc_minor = 0;
    d.sm_count = 132;
    d.sm_clock_khz = 1980000;
    d.sm_clock_now_mhz = 1755;
    d.ecc = 1;
    d.peak_gbps = 3352.32;
    d.measured_peak_gbps = NAN;
    return d;
}

static br_device unknown_device(void) {
    br_device d;
    memset(&d, 0, sizeof d);
    d.ecc = -1;
    d.measured_peak_gbps = NAN;
    return d;
}

Test(device_summary, full_utf8) {
    br_device d = h100();
    char buf[256];
    br_device_summary(buf, sizeof buf, &d, 0);
    cr_assert_str_eq(buf, "NVIDIA H100 80GB HBM3 \xc2\xb7 sm_90 \xc2\xb7 132 SMs \xc2\xb7 1980 MHz "
                          "(now 1755) \xc2\xb7 3352 GB/s \xc2\xb7 ECC on");
}

Test(device_summary, full_ascii) {
    br_device d = h100();
    d.ecc = 0;
    char buf[256];
    br_device_summary(buf, sizeof buf, &d, 1);
    cr_assert_str_eq(buf,
                     "NVIDIA H100 80GB HBM3 - sm_90 - 132 SMs - 1980 MHz (now 1755) - 3352 GB/s - "
                     "ECC off");
    for (const char *p = buf; *p; p++)
        cr_assert_lt((unsigned char)*p, 0x80, "ASCII only: %s", buf);
}

Test(device_summary, measured_peak_is_shown_when_known) {
    br_device d = h100();
    d.measured_peak_gbps = 3012.6;
    char buf[256];
    br_device_summary(buf, sizeof buf, &d, 1);
    cr_assert_str_eq(buf, "NVIDIA H100 80GB HBM3 - sm_90 - 132 SMs - 1980 MHz (now 1755) - 3352 "
                          "GB/s (measured 3013) - ECC on");
}

Test(device_summary, unknown_parts_are_left_out) {
    br_device d = unknown_device();
    char buf[256];
    br_device_summary(buf, sizeof buf, &d, 0);
    cr_assert_str_eq(buf, "", "nothing known, nothing written");

    snprintf(d.name, sizeof d.name, "Tesla V100-SXM2-16GB");
    br_device_summary(buf, sizeof buf, &d, 1);
    cr_assert_str_eq(buf, "Tesla V100-SXM2-16GB");

    d.sm_clock_now_mhz = 1312; /* NVML read, maximum unknown */
    d.peak_gbps = NAN;
    d.measured_peak_gbps = 790.4;
    br_device_summary(buf, sizeof buf, &d, 1);
    cr_assert_str_eq(buf, "Tesla V100-SXM2-16GB - now 1312 MHz - measured 790 GB/s");

    d = h100();
    d.sm_clock_now_mhz = 0; /* NVML not readable */
    d.ecc = -1;
    d.peak_gbps = 0.0;
    br_device_summary(buf, sizeof buf, &d, 1);
    cr_assert_str_eq(buf, "NVIDIA H100 80GB HBM3 - sm_90 - 132 SMs - 1980 MHz");

    d = unknown_device();
    d.sm_count = 80; /* the first part known need not be the name */
    d.ecc = 1;
    br_device_summary(buf, sizeof buf, &d, 0);
    cr_assert_str_eq(buf, "80 SMs \xc2\xb7 ECC on");
}

Test(device_summary, clock_rounds_to_nearest_mhz) {
    br_device d = unknown_device();
    d.sm_clock_khz = 1410500;
    char buf[64];
    br_device_summary(buf, sizeof buf, &d, 1);
    cr_assert_str_eq(buf, "1411 MHz");
}

Test(device_summary, short_buffer_is_cut_at_a_character_boundary) {
    br_device d = h100();
    char full[256];
    br_device_summary(full, sizeof full, &d, 0);
    for (size_t len = 1; len <= strlen(full) + 1; len++) {
        char buf[256];
        memset(buf, 'x', sizeof buf);
        br_device_summary(buf, len, &d, 0);
        size_t n = strlen(buf);
        cr_assert_lt(n, len, "len %zu", len);
        cr_assert_eq(strncmp(buf, full, n), 0, "a prefix (len %zu): %s", len, buf);
        /* No lone lead byte or missing continuation at the end. */
        if (n > 0)
            cr_assert_neq((unsigned char)buf[n - 1], 0xc2, "len %zu", len);
        cr_assert_eq(buf[len], 'x', "nothing written past len %zu", len);
    }
    br_device_summary(NULL, 0, &d, 0); /* len 0: nothing written */
    char one[1] = {'x'};
    br_device_summary(one, 1, &d, 0);
    cr_assert_eq(one[0], '\0');
}

Test(device_summary, null_device_writes_empty) {
    char buf[16] = "junk";
    br_device_summary(buf, sizeof buf, NULL, 0);
    cr_assert_str_eq(buf, "");
}

Test(host_summary, full_utf8_and_ascii) {
    br_host h;
    memset(&h, 0, sizeof h);
    snprintf(h.cpu_model, sizeof h.cpu_model, "AMD EPYC 9654 96-Core Processor");
    h.logical_cores = 16;
    snprintf(h.governor, sizeof h.governor, "performance");
    snprintf(h.hostname, sizeof h.hostname, "gpu-node-7");
    char buf[256];
    br_host_summary(buf, sizeof buf, &h, 0);
    cr_assert_str_eq(buf, "AMD EPYC 9654 96-Core Processor \xc2\xb7 16 cores \xc2\xb7 governor "
                          "performance");
    br_host_summary(buf, sizeof buf, &h, 1);
    cr_assert_str_eq(buf, "AMD EPYC 9654 96-Core Processor - 16 cores - governor performance");
}

Test(host_summary, unknown_parts_are_left_out) {
    br_host h;
    memset(&h, 0, sizeof h);
    char buf[256];
    br_host_summary(buf, sizeof buf, &h, 0);
    cr_assert_str_eq(buf, "");
    h.logical_cores = 1;
    br_host_summary(buf, sizeof buf, &h, 0);
    cr_assert_str_eq(buf, "1 core");
    snprintf(h.cpu_model, sizeof h.cpu_model, "  Intel(R) Xeon(R) Platinum 8480+   ");
    br_host_summary(buf, sizeof buf, &h, 1);
    cr_assert_str_eq(buf, "Intel(R) Xeon(R) Platinum 8480+ - 1 core", "blanks around it trimmed");
    h.logical_cores = 0;
    snprintf(h.governor, sizeof h.governor, "powersave");
    br_host_summary(buf, sizeof buf, &h, 1);
    cr_assert_str_eq(buf, "Intel(R) Xeon(R) Platinum 8480+ - governor powersave");
    br_host_summary(buf, sizeof buf, NULL, 1);
    cr_assert_str_eq(buf, "");
}

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
