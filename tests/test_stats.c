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
 * (method='inclusive' is the R-7 / NumPy 'linear' definition.) */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "stats.h"

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
