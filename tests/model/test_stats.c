/* SPDX-License-Identifier: Apache-2.0 */
/* test_stats.c - br_stats_compute and br_stats_quantile against reference
 * values computed independently with Python 3's `statistics` module (which
 * works in exact rational arithmetic, so the references are correctly
 * rounded):
 *
 *   import statistics as st
 *   st.mean(d), st.median(d), st.stdev(d), st.stdev(d) / st.mean(d)
 *   st.quantiles(d, n=4, method='inclusive')   # = Hyndman & Fan type 7
 *   st.quantiles(sorted(d), n=10, method='inclusive')
 *
 * (method='inclusive' is the R-7 / NumPy 'linear' definition.) The ranks and
 * coverage of the median's confidence interval come from exact binomial
 * sums (math.comb, or its exact integer recurrence); each reference test
 * below carries the script that produced its values. */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "model/stats.h"

/* Relative tolerance: a few ulps of double. */
#define REL 1e-14

static void expect_close(double got, double want, const char *what) {
    double tol = REL * fmax(fabs(want), 1.0);
    cr_expect(fabs(got - want) <= tol, "%s: got %.17g, want %.17g", what, got, want);
}

typedef struct reference {
    double mean, median, stddev, noise, q1, q3, iqr, min, max;
} reference;

static void check(const double *d, size_t n, reference want) {
    br_stats s;
    memset(&s, 0xAB, sizeof s);
    cr_assert_eq(br_stats_compute(&s, d, n), 0, "%s", br_error_get());
    cr_expect_eq(s.n, n);
    expect_close(s.min, want.min, "min");
    expect_close(s.max, want.max, "max");
    expect_close(s.mean, want.mean, "mean");
    expect_close(s.median, want.median, "median");
    expect_close(s.stddev, want.stddev, "stddev");
    expect_close(s.noise, want.noise, "noise");
    expect_close(s.q1, want.q1, "q1");
    expect_close(s.q3, want.q3, "q3");
    expect_close(s.iqr, want.iqr, "iqr");
}

Test(stats, odd_n) {
    const double d[] = {5, 1, 4, 2, 3};
    check(d, 5, (reference){3.0, 3.0, 1.5811388300841898, 0.5270462766947299, 2.0, 4.0, 2.0, 1, 5});
}

Test(stats, even_n) {
    const double d[] = {10.5, 3.25, 7, 1, 8, 2};
    check(d, 6,
          (reference){5.291666666666667, 5.125, 3.763032907996775, 0.7111243290702567, 2.3125, 7.75,
                      5.4375, 1, 10.5});
}

Test(stats, single_sample) {
    const double d[] = {42.0};
    check(d, 1, (reference){42, 42, 0, 0, 42, 42, 0, 42, 42});
}

Test(stats, ties) {
    const double d[] = {9, 2, 5, 9, 2, 9, 5, 2, 9};
    check(d, 9,
          (reference){5.777777777777778, 5.0, 3.2702361450580972, 0.5660024097215938, 2.0, 9.0, 7.0,
                      2, 9});
}

Test(stats, all_equal) {
    const double d[] = {7.25, 7.25, 7.25, 7.25};
    check(d, 4, (reference){7.25, 7.25, 0, 0, 7.25, 7.25, 0, 7.25, 7.25});
}

Test(stats, timing_samples) {
    const double d[] = {41712.5, 41690.0, 41755.25, 41702.75, 41698.5, 41731.0, 41688.25};
    check(d, 7,
          (reference){41711.17857142857, 41702.75, 24.30008328419982, 0.0005825796373168164,
                      41694.25, 41721.75, 27.5, 41688.25, 41755.25});
}

/* Large offset, small spread: a naive sum of squares loses the variance
 * entirely; Welford keeps it (variance of {4, 7, 13, 16} is 30). */
Test(stats, large_offset_is_stable) {
    const double d[] = {1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16};
    br_stats s;
    cr_assert_eq(br_stats_compute(&s, d, 4), 0);
    expect_close(s.mean, 1000000010.0, "mean");
    cr_expect(fabs(s.stddev - 5.477225575051661) < 1e-6, "stddev %.17g", s.stddev);
    expect_close(s.q1, 1000000006.25, "q1");
    expect_close(s.q3, 1000000013.75, "q3");
}

Test(stats, input_not_modified) {
    double d[] = {3, 1, 2};
    br_stats s;
    cr_assert_eq(br_stats_compute(&s, d, 3), 0);
    cr_expect(d[0] == 3 && d[1] == 1 && d[2] == 2);
}

Test(stats, quantile_type7) {
    const double sorted[] = {1, 2, 3.25, 7, 8, 10.5};
    const double want[] = {1.5, 2.0, 2.625, 3.25, 5.125, 7.0, 7.5, 8.0, 9.25};
    for (int i = 1; i <= 9; i++) {
        char what[32];
        snprintf(what, sizeof what, "q=0.%d", i);
        expect_close(br_stats_quantile(sorted, 6, i / 10.0), want[i - 1], what);
    }
    cr_expect_eq(br_stats_quantile(sorted, 6, 0.0), 1.0);
    cr_expect_eq(br_stats_quantile(sorted, 6, 1.0), 10.5);
    cr_expect_eq(br_stats_quantile(sorted, 6, -0.5), 1.0);
    cr_expect_eq(br_stats_quantile(sorted, 6, 1.5), 10.5);
    cr_expect_eq(br_stats_quantile(sorted, 1, 0.3), 1.0);
    cr_expect(isnan(br_stats_quantile(sorted, 0, 0.5)));
    cr_expect(isnan(br_stats_quantile(sorted, 6, NAN)));
}

Test(stats, empty_is_an_error) {
    const double d[] = {1};
    br_stats s;
    br_error_clear();
    cr_expect_eq(br_stats_compute(&s, d, 0), -1);
    cr_expect_str_neq(br_error_get(), "");
}

Test(stats, nan_is_an_error) {
    const double d[] = {1, NAN, 3};
    br_stats s;
    br_error_clear();
    cr_expect_eq(br_stats_compute(&s, d, 3), -1);
    cr_expect(strstr(br_error_get(), "sample 1") != NULL, "message: %s", br_error_get());
}

Test(stats, infinity_is_an_error) {
    const double pos[] = {1, 2, INFINITY};
    const double neg[] = {-INFINITY};
    br_stats s;
    cr_expect_eq(br_stats_compute(&s, pos, 3), -1);
    cr_expect_eq(br_stats_compute(&s, neg, 1), -1);
}

/* ---- Median confidence interval (Conover 1999, section 3.2) ------------ */

/* Relative tolerance of ci_level: the coverage is summed in floating point
 * (see br_stats_median_ci), the references are exact rationals rounded once. */
#define LEVEL_REL 1e-12

static void expect_level(double got, double want, const char *what) {
    cr_expect(fabs(got - want) <= LEVEL_REL * want, "%s: got %.17g, want %.17g", what, got, want);
}

/* Reference ranks and coverage computed independently with Python 3's
 * standard library in exact integer arithmetic (c is math.comb(n, j),
 * advanced by the exact recurrence so that n = 100000 takes seconds):
 *
 *   import math
 *   from fractions import Fraction
 *   for n in (6, 7, 10, 20, 50, 100, 1000, 100000):
 *       t, s, j, c = 2**n, 0, 0, 1     # c == math.comb(n, j), s == sum of comb(n, i), i < j
 *       while 40 * (s + c) <= t:       # P(Bin(n, 1/2) <= j) <= 0.025
 *           s += c; c = c * (n - j) // (j + 1); j += 1
 *       print(n, j, n - j + 1, repr(float(Fraction(t - 2 * s, t))))
 *
 * For n <= 1000 the same j comes from math.comb directly:
 *   python3 -c "import math; n=100; print(max(j for j in range(1, n + 1)
 *       if 40 * sum(math.comb(n, i) for i in range(j)) <= 2**n))"
 *
 * j is 1-based: the interval is [x_(j), x_(k)], k = n - j + 1; the 0-based
 * indices are j - 1 and n - j. */
Test(stats, median_ci_ranks) {
    static const struct {
        size_t n, j, k;
        double level;
    } ref[] = {
        {6, 1, 6, 0.96875},
        {7, 1, 7, 0.984375},
        {10, 2, 9, 0.978515625},
        {20, 6, 15, 0.9586105346679688},
        {50, 18, 33, 0.9671608624357315},
        {100, 40, 61, 0.9647997997822951},
        {1000, 469, 532, 0.9537088026395019},
        {100000, 49690, 50311, 0.9504442853304751},
    };
    for (size_t r = 0; r < sizeof ref / sizeof ref[0]; r++) {
        size_t lo = 12345, hi = 12345;
        double level = 0;
        char what[48];
        snprintf(what, sizeof what, "ci_level n=%zu", ref[r].n);
        cr_assert_eq(br_stats_median_ci(ref[r].n, &lo, &hi, &level), 0, "%s", br_error_get());
        cr_expect_eq(lo, ref[r].j - 1, "n=%zu: lo %zu, want %zu", ref[r].n, lo, ref[r].j - 1);
        cr_expect_eq(hi, ref[r].k - 1, "n=%zu: hi %zu, want %zu", ref[r].n, hi, ref[r].k - 1);
        expect_level(level, ref[r].level, what);
        cr_expect(level >= 0.95, "%s below 0.95", what);
    }
}

/* Any output pointer may be NULL. */
Test(stats, median_ci_null_outputs) {
    size_t lo = 0, hi = 0;
    double level = 0;
    cr_expect_eq(br_stats_median_ci(20, NULL, NULL, NULL), 0);
    cr_expect_eq(br_stats_median_ci(20, &lo, NULL, NULL), 0);
    cr_expect_eq(br_stats_median_ci(20, NULL, &hi, &level), 0);
    cr_expect_eq(lo, 5);
    cr_expect_eq(hi, 14);
    expect_level(level, 0.9586105346679688, "ci_level n=20");
}

/* n < 6: even [min, max] covers the median with probability 1 - 2^(1-n) < 95%
 * (n = 5: 0.9375), so there is no interval: -1 with an error from the helper,
 * NAN in br_stats (which still succeeds, without recording an error). */
Test(stats, median_ci_needs_six_samples) {
    const double d[] = {5, 1, 4, 2, 3};
    for (size_t n = 0; n < 6; n++) {
        size_t lo = 777, hi = 777;
        double level = 0.5;
        br_error_clear();
        cr_expect_eq(br_stats_median_ci(n, &lo, &hi, &level), -1, "n=%zu", n);
        cr_expect(strstr(br_error_get(), "6 samples") != NULL, "message: %s", br_error_get());
        cr_expect(lo == 777 && hi == 777 && level == 0.5, "n=%zu: outputs touched", n);
    }
    for (size_t n = 1; n <= 5; n++) {
        br_stats s;
        br_error_clear();
        cr_assert_eq(br_stats_compute(&s, d, n), 0, "%s", br_error_get());
        cr_expect_str_eq(br_error_get(), "");
        cr_expect(isnan(s.ci_low) && isnan(s.ci_high) && isnan(s.ci_level), "n=%zu", n);
    }
}

/* n = 6 is the smallest with an interval: [min, max] at 1 - 2/64. */
Test(stats, median_ci_six_samples_is_min_max) {
    const double d[] = {10.5, 3.25, 7, 1, 8, 2};
    br_stats s;
    cr_assert_eq(br_stats_compute(&s, d, 6), 0, "%s", br_error_get());
    cr_expect_eq(s.ci_low, 1.0);
    cr_expect_eq(s.ci_high, 10.5);
    cr_expect_eq(s.ci_level, 0.96875);
}

/* A concrete unsorted timing set (ns). Reference values computed
 * independently with Python 3's standard library:
 *
 *   python3 -c "import math, statistics as st
 *   d = [41712.5, 41690.0, 41755.25, 41702.75, 41698.5, 41731.0, 41688.25,
 *        41720.5, 41695.0, 41709.75]; n = len(d); s = sorted(d)
 *   j = max(j for j in range(1, n + 1) if 40 * sum(math.comb(n, i) for i in range(j)) <= 2**n)
 *   print(j, s[j - 1], s[n - j], 1 - 2 * sum(math.comb(n, i) for i in range(j)) / 2**n)
 *   q1, _, q3 = st.quantiles(d, n=4, method='inclusive'); iqr = q3 - q1
 *   print(st.mean(d), st.median(d), st.stdev(d), st.stdev(d) / st.mean(d), q1, q3, iqr,
 *         sum(x < q1 - 1.5 * iqr or x > q3 + 1.5 * iqr for x in d))"
 *
 * gives j = 2, ci = [41690.0, 41731.0], level 0.978515625; mean 41710.35,
 * median 41706.25, stdev 20.781335108430568, noise 0.0004982296985863357,
 * q1 41695.875, q3 41718.5,
 * iqr 22.625, 1 outlier (41755.25 > 41752.4375). */
Test(stats, median_ci_values) {
    const double d[] = {41712.5, 41690.0,  41755.25, 41702.75, 41698.5,
                        41731.0, 41688.25, 41720.5,  41695.0,  41709.75};
    check(d, 10,
          (reference){41710.35, 41706.25, 20.781335108430568, 0.0004982296985863357, 41695.875,
                      41718.5, 22.625, 41688.25, 41755.25});
    br_stats s;
    cr_assert_eq(br_stats_compute(&s, d, 10), 0, "%s", br_error_get());
    cr_expect_eq(s.ci_low, 41690.0);
    cr_expect_eq(s.ci_high, 41731.0);
    cr_expect_eq(s.ci_level, 0.978515625);
    cr_expect(s.ci_low <= s.median && s.median <= s.ci_high);
    cr_expect_eq(s.n_outliers, 1);
}

/* n = 1,000,000: 2^n and comb(n, n/2) are far outside double range, and the
 * ranks sit near n/2 - 0.98 sqrt(n) = 499020. Reference computed
 * independently with the Python 3 script above median_ci_ranks, run with
 * n = 1000000 (exact integers; about four minutes):
 *   1000000 499020 500981 0.9501210313476319
 * The samples are a permutation of 0 .. n-1 (7919 is prime, coprime to n),
 * so x_(j) = j - 1. */
Test(stats, median_ci_million) {
    const size_t n = 1000000;
    size_t lo, hi;
    double level;
    cr_assert_eq(br_stats_median_ci(n, &lo, &hi, &level), 0, "%s", br_error_get());
    cr_expect_eq(lo, 499020 - 1, "lo %zu", lo);
    cr_expect_eq(hi, 500981 - 1, "hi %zu", hi);
    expect_level(level, 0.9501210313476319, "ci_level n=1e6");
    cr_expect(fabs((double)lo - (n / 2.0 - 0.98 * sqrt((double)n))) < 5.0, "lo %zu", lo);

    double *d = malloc(n * sizeof *d);
    cr_assert_not_null(d);
    for (size_t i = 0; i < n; i++)
        d[i] = (double)((i * 7919) % n);
    br_stats s;
    cr_assert_eq(br_stats_compute(&s, d, n), 0, "%s", br_error_get());
    free(d);
    cr_expect_eq(s.ci_low, 499019.0);
    cr_expect_eq(s.ci_high, 500980.0);
    expect_level(s.ci_level, 0.9501210313476319, "br_stats ci_level n=1e6");
    cr_expect_eq(s.median, 499999.5);
    cr_expect_eq(s.n_outliers, 0);
}

/* ---- Outliers (Tukey 1977) ------------------------------------------- */

/* Reference counts computed independently with Python 3's standard library:
 *
 *   python3 -c "import statistics as st
 *   for d in ([12.5, 11.0, 13.25, 12.0, 2.0, 11.75, 12.75, 30.0, 12.25, 11.5, 13.0, 45.5],
 *             [100.0, 103.5, 98.25, 101.0, 99.5, 102.25, 100.75, 97.0]):
 *       q1, _, q3 = st.quantiles(d, n=4, method='inclusive'); iqr = q3 - q1
 *       print(q1, q3, q1 - 1.5 * iqr, q3 + 1.5 * iqr,
 *             sum(x < q1 - 1.5 * iqr or x > q3 + 1.5 * iqr for x in d))"
 *
 *   11.6875 13.0625 9.625 15.125 3     (2.0 below; 30.0 and 45.5 above)
 *   99.1875 101.3125 96.0 104.5 0 */
Test(stats, outliers_both_sides) {
    const double d[] = {12.5, 11.0, 13.25, 12.0, 2.0, 11.75, 12.75, 30.0, 12.25, 11.5, 13.0, 45.5};
    br_stats s;
    cr_assert_eq(br_stats_compute(&s, d, 12), 0, "%s", br_error_get());
    expect_close(s.q1, 11.6875, "q1");
    expect_close(s.q3, 13.0625, "q3");
    cr_expect_eq(s.n_outliers, 3);
}

Test(stats, outliers_none) {
    const double d[] = {100.0, 103.5, 98.25, 101.0, 99.5, 102.25, 100.75, 97.0};
    br_stats s;
    cr_assert_eq(br_stats_compute(&s, d, 8), 0, "%s", br_error_get());
    expect_close(s.q1, 99.1875, "q1");
    expect_close(s.q3, 101.3125, "q3");
    cr_expect_eq(s.n_outliers, 0);
}

/* The fences themselves are inside (strict comparison). For n = 5 type 7
 * puts q1 and q3 on sorted[1] and sorted[3]: q1 = 10, q3 = 14, fences 4 and
 * 20 (python3: st.quantiles([4, 10, 12, 14, 20], n=4, method='inclusive')
 * gives [10.0, 12.0, 14.0]). */
Test(stats, outliers_fence_is_inside) {
    const double on[] = {20.0, 12.0, 4.0, 14.0, 10.0};
    const double past[] = {20.5, 12.0, 3.5, 14.0, 10.0};
    br_stats s;
    cr_assert_eq(br_stats_compute(&s, on, 5), 0);
    cr_expect_eq(s.n_outliers, 0);
    cr_assert_eq(br_stats_compute(&s, past, 5), 0);
    cr_expect_eq(s.n_outliers, 2);
}

/* IQR 0: both fences equal q1 == q3 == the median, so Tukey's rule marks
 * every sample different from the median; all-equal samples have none.
 * python3 -c "import statistics as st; d = [5.0]*7 + [4.5, 9.0];
 *   print(st.quantiles(d, n=4, method='inclusive'))"   -> [5.0, 5.0, 5.0] */
Test(stats, outliers_iqr_zero) {
    const double d[] = {5.0, 5.0, 9.0, 5.0, 5.0, 5.0, 4.5, 5.0, 5.0};
    const double eq[] = {7.25, 7.25, 7.25, 7.25, 7.25, 7.25, 7.25, 7.25};
    br_stats s;
    cr_assert_eq(br_stats_compute(&s, d, 9), 0);
    cr_expect_eq(s.iqr, 0.0);
    cr_expect_eq(s.n_outliers, 2);
    cr_assert_eq(br_stats_compute(&s, eq, 8), 0);
    cr_expect_eq(s.iqr, 0.0);
    cr_expect_eq(s.n_outliers, 0);
    cr_expect_eq(s.ci_low, 7.25);
    cr_expect_eq(s.ci_high, 7.25);
}

/* ---- the log-t interval of rule ci_t ---------------------------------------------- */

Test(stats, t975_matches_the_t_distribution) {
    /* References: the 0.975 quantile of Student's t, by bisection on its CDF
     * integrated numerically (Simpson, 20000 steps) in Python:
     *   pdf = exp(lgamma((v+1)/2) - lgamma(v/2) - log(v pi)/2 - (v+1)/2 log1p(x^2/v)) */
    static const struct {
        size_t df;
        double t;
    } ref[] = {{2, 4.302652730},  {3, 3.182446305},   {10, 2.228138852},
               {30, 2.042272456}, {31, 2.039513446},  {40, 2.021075390},
               {60, 2.000297822}, {120, 1.979930405}, {1000, 1.962339081}};
    for (size_t i = 0; i < sizeof ref / sizeof *ref; i++)
        cr_expect(fabs(br_stats_t975(ref[i].df) - ref[i].t) <= 5e-8, "df %zu: %.9f, want %.9f",
                  ref[i].df, br_stats_t975(ref[i].df), ref[i].t);
    cr_expect(isnan(br_stats_t975(0)));
}

Test(stats, log_t_interval_is_steins_on_the_logs) {
    /* ln x = 0, 0.01, 0.02 (stage 1: s0 = 0.01) and 0.005: the mean of all
     * four logs is 0.00875, h = t(0.975, 2) x 0.01 / sqrt(4). */
    const double y[] = {0, 0.01, 0.02, 0.005};
    double x[4];
    for (size_t i = 0; i < 4; i++)
        x[i] = 1000 * exp(y[i]);
    double lo, hi, c;
    cr_assert_eq(br_stats_log_t_ci(&lo, &hi, &c, x, 4, 3), 0, "%s", br_error_get());
    double h = 4.302652730 * 0.01 / 2;
    cr_expect(fabs(lo / (1000 * exp(0.00875 - h)) - 1) < 1e-9, "lo %.12g", lo);
    cr_expect(fabs(hi / (1000 * exp(0.00875 + h)) - 1) < 1e-9, "hi %.12g", hi);
    cr_expect(fabs(c / (1000 * exp(0.00875)) - 1) < 1e-12, "centre %.12g", c);
    /* n_first == n: Student's interval of the three. */
    cr_assert_eq(br_stats_log_t_ci(&lo, &hi, NULL, x, 3, 3), 0);
    cr_expect(fabs(hi / (1000 * exp(0.01 + 4.302652730 * 0.01 / sqrt(3))) - 1) < 1e-9);
    /* Refused: too few, a stage larger than the sample, a value <= 0. */
    cr_expect_eq(br_stats_log_t_ci(&lo, &hi, NULL, x, 2, 2), -1);
    cr_expect_eq(br_stats_log_t_ci(&lo, &hi, NULL, x, 3, 4), -1);
    const double bad[] = {1, 2, 0};
    cr_expect_eq(br_stats_log_t_ci(&lo, &hi, NULL, bad, 3, 3), -1);
    /* br_stats_set_log_t_ci replaces the interval and says so. */
    br_stats s;
    cr_assert_eq(br_stats_compute(&s, x, 4), 0);
    cr_expect(isnan(s.ci_low), "no distribution-free interval of 4");
    cr_expect_eq(s.ci_method, BR_CI_ORDER);
    cr_assert_eq(br_stats_set_log_t_ci(&s, x, 4), 0);
    cr_expect_eq(s.ci_method, BR_CI_LOG_T);
    cr_expect(fabs(s.ci_low / (1000 * exp(0.00875 - h)) - 1) < 1e-9);
    cr_expect_float_eq(s.ci_level, 0.95, 1e-15);
    cr_expect_str_eq(br_ci_method_name(BR_CI_LOG_T), "log-t");
    cr_expect_str_eq(br_ci_method_name(BR_CI_ORDER), "order-statistics");
}
