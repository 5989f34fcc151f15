/* SPDX-License-Identifier: Apache-2.0 */
/* test_machine.c - the one-line device and host summaries of table titles
 * (reporters/machine.c). */
#include "reporters/machine.h"
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
