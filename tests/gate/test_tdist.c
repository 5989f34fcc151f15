/* SPDX-License-Identifier: Apache-2.0 */
/* test_tdist.c - Student's t and the normal quantile (tdist.h) against
 * closed forms (t with 1, 2 and 3 degrees of freedom) and table values. */
#include <criterion/criterion.h>

#include <math.h>

#include "gate/tdist.h"

/* Closed forms of the t CDF (Abramowitz & Stegun 26.7.3, 26.7.4). */
static double cdf1(double t) {
    return 0.5 + atan(t) / M_PI;
}
static double cdf2(double t) {
    return 0.5 + t / (2.0 * sqrt(2.0 + t * t));
}
static double cdf3(double t) {
    double th = atan(t / sqrt(3.0));
    return 0.5 + (th + sin(th) * cos(th)) / M_PI;
}

Test(tdist, the_cdf_matches_closed_forms) {
    for (double t = -50; t <= 50; t += 0.37) {
        cr_assert_float_eq(br_tdist_cdf(t, 1), cdf1(t), 1e-12, "t=%g", t);
        cr_assert_float_eq(br_tdist_cdf(t, 2), cdf2(t), 1e-12, "t=%g", t);
        cr_assert_float_eq(br_tdist_cdf(t, 3), cdf3(t), 1e-12, "t=%g", t);
    }
    cr_assert_float_eq(br_tdist_cdf(0, 7), 0.5, 1e-15);
    cr_assert_eq(br_tdist_cdf(INFINITY, 4), 1.0);
    cr_assert_eq(br_tdist_cdf(-INFINITY, 4), 0.0);
    cr_assert(isnan(br_tdist_cdf(NAN, 4)));
    cr_assert(isnan(br_tdist_cdf(1, 0)));
    /* Large df: the normal distribution. */
    cr_assert_float_eq(br_tdist_cdf(1.959963984540054, 1e7), 0.975, 1e-7);
}

Test(tdist, quantiles_match_tables_and_invert_the_cdf) {
    /* Two-sided 99% and 95% critical values (any t table; SciPy t.ppf). */
    cr_assert_float_eq(br_tdist_quantile(0.995, 1), 63.65674116287399, 1e-8);
    cr_assert_float_eq(br_tdist_quantile(0.995, 2), 9.924843200918276, 1e-9);
    cr_assert_float_eq(br_tdist_quantile(0.995, 7), 3.499483297350514, 1e-9);
    cr_assert_float_eq(br_tdist_quantile(0.975, 10), 2.228138851964938, 1e-9);
    cr_assert_float_eq(br_tdist_quantile(0.025, 10), -2.228138851964938, 1e-9);
    cr_assert_float_eq(br_tdist_quantile(0.5, 3), 0.0, 1e-12);
    for (double p = 0.001; p < 1; p += 0.0517)
        for (double df = 1; df < 40; df *= 1.7)
            cr_assert_float_eq(br_tdist_cdf(br_tdist_quantile(p, df), df), p, 1e-11, "p=%g df=%g",
                               p, df);
    cr_assert(isnan(br_tdist_quantile(0, 3)));
    cr_assert(isnan(br_tdist_quantile(1, 3)));
    cr_assert(isnan(br_tdist_quantile(0.5, -1)));
    cr_assert_float_eq(br_normal_quantile(0.975), 1.959963984540054, 1e-11);
    cr_assert_float_eq(br_normal_quantile(0.5), 0.0, 1e-12);
    cr_assert_float_eq(br_normal_quantile(0.1), -1.2815515655446004, 1e-11);
    cr_assert(isnan(br_normal_quantile(1.0)));
}

/* Two-sided critical values from standard tables (NIST/SEMATECH e-Handbook
 * 1.3.6.7.2), as `benchrun ab`'s interval uses them (abstats.h). */
Test(tdist, two_sided_critical_values_match_the_tables) {
    struct {
        double alpha, df, t;
    } rows[] = {{0.05, 1, 12.706}, {0.05, 2, 4.303},   {0.05, 3, 3.182},
                {0.05, 5, 2.571},  {0.05, 10, 2.228},  {0.05, 30, 2.042},
                {0.01, 5, 4.032},  {0.01, 100, 2.626}, {0.10, 7, 1.895}};
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        double t = br_tdist_quantile(1.0 - rows[i].alpha / 2.0, rows[i].df);
        cr_assert(fabs(t - rows[i].t) < 0.0015, "alpha %g df %g: %.4f, table %.3f", rows[i].alpha,
                  rows[i].df, t, rows[i].t);
        cr_assert(fabs(2.0 * br_tdist_cdf(-t, rows[i].df) - rows[i].alpha) < 1e-9);
    }
    /* df = 2: P(|T| > t) = 1 - t / sqrt(2 + t^2). */
    cr_assert(fabs(2.0 * br_tdist_cdf(-3.0, 2) - (1 - 3 / sqrt(11.0))) < 1e-12);
}

/* Digamma and trigamma at known values: psi(1) = -gamma, psi(1/2) = -gamma
 * - 2 ln 2, psi'(1) = pi^2 / 6, psi'(1/2) = pi^2 / 2 (Abramowitz & Stegun
 * 6.3.2, 6.3.3, 6.4.2, 6.4.4), the recurrences, and the inverse. */
Test(tdist, digamma_and_trigamma) {
    const double euler = 0.57721566490153286;
    cr_assert_float_eq(br_digamma(1), -euler, 1e-13);
    cr_assert_float_eq(br_digamma(0.5), -euler - 2 * log(2.0), 1e-13);
    cr_assert_float_eq(br_trigamma(1), M_PI * M_PI / 6, 1e-13);
    cr_assert_float_eq(br_trigamma(0.5), M_PI * M_PI / 2, 1e-12);
    for (double x = 0.05; x < 200; x *= 1.7) {
        cr_assert_float_eq(br_digamma(x + 1), br_digamma(x) + 1 / x, 1e-11 * (1 + 1 / x), "%g", x);
        cr_assert_float_eq(br_trigamma(x + 1), br_trigamma(x) - 1 / (x * x),
                           1e-11 * (1 + 1 / (x * x)), "%g", x);
        double y = br_trigamma(x);
        cr_assert_float_eq(br_trigamma_inverse(y), x, 1e-8 * x, "x %g", x);
    }
    cr_assert(isnan(br_digamma(0)) && isnan(br_trigamma(-1)) && isnan(br_trigamma_inverse(0)));
}
