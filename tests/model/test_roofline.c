/* SPDX-License-Identifier: Apache-2.0 */
/* The roofline arithmetic (results/roofline.h): the pure placement, and the
 * cases of a fixture results file (tests/fixtures/roofline/h100.json: an
 * H100, 66908.16 GFLOP/s FP32, 3352.32 GB/s theoretical, 2910.4 GB/s
 * measured) placed against their run's peaks. */
#include <criterion/criterion.h>

#include <math.h>
#include <string.h>

#include "base/error.h"
#include "results/run_read.h"
#include "model/roofline.h"

#define H100_GFLOPS 66908.16
#define H100_GBPS   3352.32

Test(roofline, a_low_intensity_sits_under_the_bandwidth_ceiling) {
    /* STREAM triad: 2 FLOP per 24 bytes, at 3000 GB/s = 250 GFLOP/s. */
    br_roofline_point p = br_roofline_place(2.0, 24.0, 250.0, H100_GFLOPS, H100_GBPS);
    cr_assert_float_eq(p.intensity, 1.0 / 12.0, 1e-15);
    cr_assert_eq(p.bound, BR_BOUND_MEMORY);
    cr_assert_float_eq(p.attainable, H100_GBPS / 12.0, 1e-9);
    cr_assert_float_eq(p.pct, 100.0 * 250.0 / (H100_GBPS / 12.0), 1e-9);
}

Test(roofline, a_high_intensity_sits_under_the_compute_ceiling) {
    /* SGEMM 4096^3: 2 n^3 FLOP over 3 n^2 x 4 bytes = n / 6 = 682.7 FLOP/B. */
    double n = 4096, flops = 2 * n * n * n, bytes = 12 * n * n;
    br_roofline_point p = br_roofline_place(flops, bytes, 40000.0, H100_GFLOPS, H100_GBPS);
    cr_assert_float_eq(p.intensity, n / 6.0, 1e-9);
    cr_assert_eq(p.bound, BR_BOUND_COMPUTE);
    cr_assert_float_eq(p.attainable, H100_GFLOPS, 1e-9);
    cr_assert_float_eq(p.pct, 100.0 * 40000.0 / H100_GFLOPS, 1e-9);
}

Test(roofline, the_ridge_point_belongs_to_compute) {
    double ridge = br_roofline_ridge(H100_GFLOPS, H100_GBPS);
    cr_assert_float_eq(ridge, H100_GFLOPS / H100_GBPS, 1e-12);
    br_roofline_point p = br_roofline_place(ridge * 1000.0, 1000.0, 1.0, H100_GFLOPS, H100_GBPS);
    cr_assert_eq(p.bound, BR_BOUND_COMPUTE);
    cr_assert_float_eq(p.attainable, H100_GFLOPS, 1e-6);
    cr_assert(isnan(br_roofline_ridge(H100_GFLOPS, 0.0)));
    cr_assert(isnan(br_roofline_ridge(NAN, H100_GBPS)));
}

Test(roofline, missing_figures_place_nothing) {
    br_roofline_point p = br_roofline_place(0.0, 16.0, 0.0, H100_GFLOPS, H100_GBPS);
    cr_assert_float_eq(p.intensity, 0.0, 0.0, "a copy has intensity 0 ...");
    cr_assert_eq(p.bound, BR_BOUND_NONE, "... and no place on a log-log roofline");
    cr_assert(isnan(p.attainable) && isnan(p.pct));
    p = br_roofline_place(2.0, 0.0, 1.0, H100_GFLOPS, H100_GBPS);
    cr_assert(isnan(p.intensity), "zero bytes: no intensity");
    p = br_roofline_place(NAN, 24.0, 1.0, H100_GFLOPS, H100_GBPS);
    cr_assert(isnan(p.intensity) && p.bound == BR_BOUND_NONE);
    p = br_roofline_place(2.0, 24.0, 1.0, NAN, H100_GBPS);
    cr_assert_float_eq(p.intensity, 1.0 / 12.0, 1e-15, "the intensity needs no device");
    cr_assert_eq(p.bound, BR_BOUND_NONE);
    p = br_roofline_place(2.0, 24.0, NAN, H100_GFLOPS, H100_GBPS);
    cr_assert_eq(p.bound, BR_BOUND_MEMORY, "placed without a time ...");
    cr_assert(isnan(p.pct), "... but no percentage");
    cr_assert_str_eq(br_bound_name(BR_BOUND_MEMORY), "memory");
    cr_assert_str_eq(br_bound_name(BR_BOUND_COMPUTE), "compute");
    cr_assert_null(br_bound_name(BR_BOUND_NONE));
}

/* The case of kernel `name` at n = `n` in run r. */
static const br_case_result *find(const br_run *r, const char *name, int64_t n) {
    for (size_t i = 0; i < r->n_cases; i++)
        if (strcmp(r->kernels[r->cases[i].kernel].name, name) == 0 && r->cases[i].params[0] == n)
            return &r->cases[i];
    cr_assert_fail("no case %s n=%lld", name, (long long)n);
    return NULL;
}

Test(roofline, the_cases_of_a_results_file_against_their_run_peaks) {
    br_run *runs = NULL;
    size_t n = 0;
    cr_assert_eq(br_results_load(&runs, &n, BR_FIXTURES_DIR "/roofline/h100.json"), 0, "%s",
                 br_error_get());
    cr_assert_eq(n, 2);
    const br_run *red = &runs[0], *bw = &runs[1];
    cr_assert(br_roofline_run_has(red) && br_roofline_run_has(bw));

    /* reduce_warp n=2^20: 1 FLOP per 4 bytes at 1023.25 GB/s, theoretical peak. */
    const br_case_result *c = find(red, "reduce_warp", 1 << 20);
    br_roofline_point p = br_roofline_case(red, c);
    cr_assert_float_eq(p.intensity, 0.25, 1e-15);
    cr_assert_eq(p.bound, BR_BOUND_MEMORY);
    cr_assert_float_eq(p.attainable, 0.25 * H100_GBPS, 1e-9);
    cr_assert_float_eq(p.pct, 100.0 * c->gflops / (0.25 * H100_GBPS), 1e-9);
    cr_assert_float_eq(p.pct, 100.0 * c->gbps / H100_GBPS, 1e-9,
                       "memory-bound: % of roofline is % of the bandwidth peak");

    /* reduce_naive n=2^20: 100 FLOP per byte, beyond the ridge (19.96). */
    c = find(red, "reduce_naive", 1 << 20);
    p = br_roofline_case(red, c);
    cr_assert_eq(p.bound, BR_BOUND_COMPUTE);
    cr_assert_float_eq(p.pct, 100.0 * c->gflops / H100_GFLOPS, 1e-9);

    /* The host reference and the failed case have no point. */
    cr_assert_not(br_roofline_applies(red, find(red, "reduce_cpu", 1 << 20)));
    cr_assert_not(br_roofline_applies(red, find(red, "reduce_naive", 1 << 24)));
    cr_assert(isnan(br_roofline_case(red, find(red, "reduce_cpu", 1 << 20)).intensity));

    /* The bandwidth run measured its peak: the roofline uses it. */
    c = find(bw, "copy_vec4", 1 << 28);
    p = br_roofline_case(bw, c);
    cr_assert_float_eq(bw->peak_gbps, 2910.4, 1e-9);
    cr_assert_float_eq(p.attainable, 0.25 * 2910.4, 1e-9);
    cr_assert_float_eq(p.pct, 100.0 * c->gbps / 2910.4, 1e-9);
    p = br_roofline_case(bw, find(bw, "copy", 1 << 28));
    cr_assert_float_eq(p.intensity, 0.0, 0.0);
    cr_assert_eq(p.bound, BR_BOUND_NONE);
    br_results_free(runs, n);
}
