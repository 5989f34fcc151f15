/* SPDX-License-Identifier: Apache-2.0 */
/* changepoint_series.h - generated histories for the tests of change
 * points (tests/results/test_changepoint.c, the history model and the
 * `benchrun history --changes` command): a level with Gaussian noise and
 * steps, from a seeded generator of the test's own (splitmix64 and the
 * Box-Muller transform), so that every run of the tests sees the same
 * series. */
#ifndef BR_TEST_CHANGEPOINT_SERIES_H
#define BR_TEST_CHANGEPOINT_SERIES_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

typedef struct series_rng {
    uint64_t s;
} series_rng;

__attribute__((unused)) static uint64_t series_next(series_rng *r) {
    uint64_t z = (r->s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* A standard normal deviate (Box-Muller). */
__attribute__((unused)) static double series_normal(series_rng *r) {
    double u1 = ((double)(series_next(r) >> 11) + 1.0) / 9007199254740993.0; /* (0, 1] */
    double u2 = (double)(series_next(r) >> 11) / 9007199254740992.0;
    return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

/* One step of a generated series: from run `at` on (1-based, as a person
 * counts runs) the level is multiplied by `factor`. */
typedef struct series_step {
    size_t at;
    double factor;
} series_step;

/* x[0..n): level `base` with the steps applied, times (1 + noise * N(0,1))
 * drawn with `seed`: run i (1-based) is x[i - 1]. */
__attribute__((unused)) static void series_make(double *x, size_t n, double base, double noise,
                                                const series_step *steps, size_t n_steps,
                                                uint64_t seed) {
    series_rng r = {seed};
    for (size_t i = 0; i < n; i++) {
        double level = base;
        for (size_t k = 0; k < n_steps; k++)
            level *= i + 1 >= steps[k].at ? steps[k].factor : 1.0;
        x[i] = level * (1.0 + noise * series_normal(&r));
    }
}

#endif
