/* SPDX-License-Identifier: Apache-2.0 */
/* test_timingpool.c - several blocks of one case as one timing (results/timingpool.h). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gate/timingpool.h"

/* A block of n samples from `first` by 1, each with an SM clock (when mhz)
 * and a kernel time. */
static br_timing block(double first, size_t n, int mhz) {
    br_timing t = {0};
    t.present = 1;
    t.clock = BR_CLOCK_EVENTS;
    t.reps = 1;
    t.stop = BR_STOP_NOISE;
    t.n_samples = n;
    t.samples = malloc(n * sizeof *t.samples);
    t.kernel_ns = malloc(n * sizeof *t.kernel_ns);
    t.sm_mhz = mhz ? malloc(n * sizeof *t.sm_mhz) : NULL;
    for (size_t i = 0; i < n; i++) {
        t.samples[i] = first + (double)i;
        t.kernel_ns[i] = first + (double)i - 1;
        if (t.sm_mhz)
            t.sm_mhz[i] = 1500;
    }
    t.n_throttled = 1;
    t.throttled_min_mhz = first;
    t.warmup_ns = 10;
    t.measure_ns = 100;
    br_stats_compute(&t.stats, t.samples, n);
    return t;
}

Test(timingpool, concatenates_the_samples_and_recomputes) {
    br_timing b[3] = {block(100, 5, 1), block(200, 5, 1), block(300, 6, 0)};
    br_timing out;
    cr_assert_eq(br_timing_pool(&out, b, 3), 0);
    cr_assert_eq(out.n_samples, 16);
    cr_assert_eq(out.samples[5], 200);
    cr_assert_eq(out.samples[15], 305);
    cr_assert_eq(out.stats.n, 16);
    cr_assert_eq(out.stats.median, 202.5, "%g", out.stats.median);
    cr_assert_null(out.sm_mhz, "block 3 has no SM clocks");
    cr_assert(isnan(out.sm_mhz_median));
    cr_assert_not_null(out.kernel_ns);
    cr_assert_eq(out.kernel_median_ns, 201.5);
    cr_assert_eq(out.n_throttled, 3);
    cr_assert_eq(out.throttled_min_mhz, 100);
    cr_assert_eq(out.warmup_ns, 30);
    cr_assert_eq(out.measure_ns, 300);
    cr_assert_eq(out.stop, BR_STOP_NOISE);
    cr_assert(out.present);
    br_timing_dispose(&out);
    for (int i = 0; i < 3; i++)
        br_timing_dispose(&b[i]);
}

Test(timingpool, the_tick_is_the_coarsest_block_s) {
    br_timing b[3] = {block(100, 5, 0), block(200, 5, 0), block(300, 5, 0)};
    b[0].tick_ns = 1;
    b[1].tick_ns = 32;
    b[2].tick_ns = NAN; /* a block whose tick is unknown */
    br_timing out;
    cr_assert_eq(br_timing_pool(&out, b, 3), 0);
    cr_assert_eq(out.tick_ns, 32, "%g", out.tick_ns);
    br_timing_dispose(&out);
    b[1].tick_ns = 0;
    cr_assert_eq(br_timing_pool(&out, b, 3), 0);
    cr_assert_eq(out.tick_ns, 1, "%g", out.tick_ns);
    br_timing_dispose(&out);
    for (int i = 0; i < 3; i++)
        br_timing_dispose(&b[i]);
}

Test(timingpool, refuses_no_block_and_empty_blocks) {
    br_timing out, empty = {0};
    cr_assert_eq(br_timing_pool(&out, NULL, 0), -1);
    cr_assert_eq(br_timing_pool(&out, &empty, 1), -1);
    cr_assert_eq(out.n_samples, 0);
}
