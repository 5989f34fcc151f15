/* SPDX-License-Identifier: Apache-2.0 */
/* Student's t, the standard normal distribution, digamma and
 * trigamma (tdist.h). */
#include "tdist.h"

#include <float.h>
#include <math.h>

/* The continued fraction of the incomplete beta function I_x(a, b) (DLMF
 * 8.17.22), by the modified Lentz method (Numerical Recipes, 3rd ed.,
 * section 6.4, betacf); converges fast for x < (a + 1) / (a + b + 2). */
static double beta_cf(double a, double b, double x) {
    const double tiny = 1e-300;
    double qab = a + b, qap = a + 1.0, qam = a - 1.0;
    double c = 1.0, d = 1.0 - qab * x / qap;
    if (fabs(d) < tiny)
        d = tiny;
    d = 1.0 / d;
    double h = d;
    for (int m = 1; m <= 10000; m++) {
        double m2 = 2.0 * m;
        double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 + aa * d;
        c = 1.0 + aa / c;
        d = 1.0 / (fabs(d) < tiny ? tiny : d);
        c = fabs(c) < tiny ? tiny : c;
        h *= d * c;
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 + aa * d;
        c = 1.0 + aa / c;
        d = 1.0 / (fabs(d) < tiny ? tiny : d);
        c = fabs(c) < tiny ? tiny : c;
        double del = d * c;
        h *= del;
        if (fabs(del - 1.0) < 1e-15)
            break;
    }
    return h;
}

/* The regularized incomplete beta function I_x(a, b), a, b > 0, 0 <= x <= 1. */
static double beta_inc(double a, double b, double x) {
    if (x <= 0.0)
        return 0.0;
    if (x >= 1.0)
        return 1.0;
    double front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
    if (x < (a + 1.0) / (a + b + 2.0))
        return front * beta_cf(a, b, x) / a;
    return 1.0 - front * beta_cf(b, a, 1.0 - x) / b; /* I_x(a,b) = 1 - I_{1-x}(b,a) */
}

double br_tdist_cdf(double t, double df) {
    if (isnan(t) || !(df > 0))
        return NAN;
    if (isinf(t))
        return t > 0 ? 1.0 : 0.0;
    double tail = 0.5 * beta_inc(0.5 * df, 0.5, df / (df + t * t)); /* P(T > |t|) */
    return t >= 0 ? 1.0 - tail : tail;
}

/* The density of Student's t with df degrees of freedom at t. */
static double tdist_pdf(double t, double df) {
    return exp(lgamma(0.5 * (df + 1.0)) - lgamma(0.5 * df) - 0.5 * log(df * M_PI) -
               0.5 * (df + 1.0) * log1p(t * t / df));
}

static double normal_cdf(double x, double unused) {
    (void)unused;
    return 0.5 * erfc(-x / sqrt(2.0));
}

static double normal_pdf(double x, double unused) {
    (void)unused;
    return exp(-0.5 * x * x) / sqrt(2.0 * M_PI);
}

/* The x >= 0 with cdf(x, param) = p, p >= 0.5, for a distribution symmetric
 * about 0 with density pdf: Newton's steps on the CDF, each kept inside a
 * bracket [lo, hi] that the CDF's sign narrows, bisecting when a step leaves
 * it; to a relative 1e-12, as bisection but in some 5-10 CDF evaluations
 * instead of some 60. */
static double upper(double (*cdf)(double, double), double (*pdf)(double, double), double param,
                    double p) {
    double lo = 0.0, hi = 1.0;
    while (cdf(hi, param) < p && hi < 1e300)
        lo = hi, hi *= 2.0;
    double x = 0.5 * (lo + hi);
    for (int i = 0; i < 200; i++) {
        double f = cdf(x, param) - p;
        if (f < 0)
            lo = x;
        else
            hi = x;
        double step = f / pdf(x, param), next = x - step;
        if (!(next > lo && next < hi))
            next = 0.5 * (lo + hi);
        if (fabs(next - x) <= 1e-13 * fabs(next) || hi - lo <= 1e-12 * hi)
            return next;
        x = next;
    }
    return x;
}

/* Quantiles asked for lately, per thread: a comparison asks for the same
 * (p, df) for many cases of a backend (df INFINITY: the normal's). */
#define QUANTILE_MEMO 8

/* The quantile p (0 < p < 1) of Student's t with df degrees of freedom, or
 * of the standard normal when df is infinite. */
static double quantile(double p, double df) {
    static _Thread_local struct { double p, df, q; } memo[QUANTILE_MEMO];
    static _Thread_local unsigned next;
    for (unsigned i = 0; i < QUANTILE_MEMO; i++)
        if (memo[i].p == p && memo[i].df == df)
            return memo[i].q;
    double (*cdf)(double, double) = isinf(df) ? normal_cdf : br_tdist_cdf;
    double (*pdf)(double, double) = isinf(df) ? normal_pdf : tdist_pdf;
    double q = p >= 0.5 ? upper(cdf, pdf, df, p) : -upper(cdf, pdf, df, 1.0 - p);
    memo[next % QUANTILE_MEMO].p = p;
    memo[next % QUANTILE_MEMO].df = df;
    memo[next++ % QUANTILE_MEMO].q = q;
    return q;
}

double br_tdist_quantile(double p, double df) {
    if (!(p > 0 && p < 1) || !(df > 0))
        return NAN;
    return quantile(p, df);
}

double br_normal_quantile(double p) {
    if (!(p > 0 && p < 1))
        return NAN;
    return quantile(p, INFINITY);
}

/* Below this, psi and its derivatives are moved up by their recurrences
 * before the asymptotic series (whose first omitted term at x >= 10 is under
 * 3e-14). */
#define SERIES_FROM 10.0

double br_digamma(double x) {
    if (!(x > 0) || isinf(x))
        return isinf(x) && x > 0 ? INFINITY : NAN;
    double shift = 0;
    for (; x < SERIES_FROM; x += 1.0)
        shift -= 1.0 / x;
    double r = 1.0 / (x * x);
    /* ln x - 1/(2x) - sum B_2n / (2n x^2n), A&S 6.3.18 */
    return shift + log(x) - 0.5 / x -
           r * (1.0 / 12 - r * (1.0 / 120 - r * (1.0 / 252 - r * (1.0 / 240 - r / 132))));
}

double br_trigamma(double x) {
    if (!(x > 0) || isinf(x))
        return isinf(x) && x > 0 ? 0.0 : NAN;
    double shift = 0;
    for (; x < SERIES_FROM; x += 1.0)
        shift += 1.0 / (x * x);
    double r = 1.0 / (x * x);
    /* 1/x + 1/(2x^2) + sum B_2n / x^(2n+1), A&S 6.4.12 */
    return shift + 1.0 / x + 0.5 * r +
           r / x * (1.0 / 6 - r * (1.0 / 30 - r * (1.0 / 42 - r * (1.0 / 30 - r * 5.0 / 66))));
}

/* psi''(x), x > 0 (A&S 6.4.12 with n = 2): Newton's step of
 * br_trigamma_inverse. */
static double tetragamma(double x) {
    double shift = 0;
    for (; x < SERIES_FROM; x += 1.0)
        shift -= 2.0 / (x * x * x);
    double r = 1.0 / (x * x);
    /* -1/x^2 - 1/x^3 - sum (2n+1) B_2n / x^(2n+2) */
    return shift - r - r / x -
           r * r * (0.5 - r * (1.0 / 6 - r * (1.0 / 6 - r * (3.0 / 10 - r * 5.0 / 6))));
}

double br_trigamma_inverse(double y) {
    if (!(y > 0) || isinf(y))
        return isinf(y) ? 0.0 : NAN;
    if (y > 1e7)
        return 1.0 / sqrt(y);
    if (y < 1e-6)
        return 1.0 / y;
    double x = 0.5 + 1.0 / y;
    for (int i = 0; i < 100; i++) {
        double tri = br_trigamma(x);
        double dif = tri * (1.0 - tri / y) / tetragamma(x);
        x += dif;
        if (-dif / x < 1e-10)
            break;
    }
    return x;
}
