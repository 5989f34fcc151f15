/* SPDX-License-Identifier: Apache-2.0 */
/* Summary statistics of a sample set (see stats.h). */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/sort.h"

/* The q-quantile of `sorted` (ascending, n >= 1), Hyndman & Fan (1996)
 * definition 7: h = (n - 1) q, linear interpolation between the order
 * statistics x[floor(h)] and x[floor(h) + 1]. q is clamped to [0, 1]; returns
 * NAN when n == 0 or q is NaN. Same unit as the samples. */
double br_stats_quantile(const double *sorted, size_t n, double q) {
    if (!sorted || n == 0 || isnan(q))
        return NAN;
    if (q <= 0.0)
        return sorted[0];
    if (q >= 1.0)
        return sorted[n - 1];
    double h = (double)(n - 1) * q;
    double lo_f = floor(h);
    size_t lo = (size_t)lo_f;
    if (lo >= n - 1)
        return sorted[n - 1];
    double frac = h - lo_f;
    double a = sorted[lo];
    double b = sorted[lo + 1];
    if (frac == 0.0 || a == b)
        return a;
    return a + frac * (b - a);
}

/* Pass 1 of br_stats_median_ci stops below this weight (relative to the
 * centre's probability): still a normal double, so pass 2 never starts from an
 * inexact subnormal, and the tail it leaves out is below 1e-270 of the total. */
#define CI_TAIL_CUTOFF 1e-280

/* Ranks of the 95% distribution-free confidence interval of the median
 * (Conover 1999, section 3.2); see stats.h. With X ~ Bin(n, 1/2) and
 * w(i) = P(X = i) / P(X = c), c = floor(n / 2):
 *   w(c) = 1,  w(i - 1) = w(i) * i / (n - i + 1),
 * and by symmetry the total sum of w is 2 * sum_{i <= c} w(i), less w(c) when
 * n is even. Pass 1 sums w downward from c until it is negligible; pass 2
 * accumulates the CDF upward from there (small terms first) and stops at the
 * first i with P(X <= i) > 0.025. Only ratios near 1 are multiplied, so
 * nothing overflows or underflows to a wrong answer, and the work is
 * O(sqrt(n)) (about 19 sqrt(n) steps before w leaves the double range). */
int br_stats_median_ci(size_t n, size_t *out_lo, size_t *out_hi, double *out_level) {
    if (n < 6)
        return br_error_set("a 95%% confidence interval of the median needs at least 6 samples "
                            "(got %zu)",
                            n);
    const double dn = (double)n;

    /* Pass 1: half = sum of w(i) for i_min <= i <= c. */
    size_t i = n / 2;
    double w = 1.0, half = 0.0;
    for (;;) {
        half += w;
        if (i == 0 || w < CI_TAIL_CUTOFF)
            break;
        w *= (double)i / (dn - (double)(i - 1));
        i--;
    }
    const double total = n % 2 == 0 ? 2.0 * half - 1.0 : 2.0 * half;
    const double limit = 0.025 * total;

    /* Pass 2: cum = P(X <= i - 1) * total. The first step is always taken:
     * w(i_min) is either negligible or w(0) = 2^-n / P(X = c) <= total / 64.
     * P(X <= c) >= 1/2 stops the loop by i == c at the latest; the bound on i
     * only guards against that failing. */
    double cum = 0.0;
    for (;;) {
        double next = cum + w;
        if (next > limit || i >= n / 2)
            break;
        cum = next;
        w *= (dn - (double)i) / (double)(i + 1);
        i++;
    }
    /* Now i = j: P(X <= j - 1) <= 0.025 < P(X <= j). x_(j) is sorted[j - 1]
     * and x_(n - j + 1) is sorted[n - j]. */
    if (out_lo)
        *out_lo = i - 1;
    if (out_hi)
        *out_hi = n - i;
    if (out_level)
        *out_level = 1.0 - 2.0 * (cum / total);
    return 0;
}

/* Summary statistics of n samples (unit preserved; benchrun: ns), including
 * the median's 95% confidence interval and Tukey's outlier count. Does not
 * modify `samples`. Returns 0, or -1 with the error set (n == 0, a sample not
 * finite, out of memory); *out is untouched on failure. */
int br_stats_compute(br_stats *out, const double *samples, size_t n) {
    int rc = -1;
    double *sorted = NULL;

    if (n == 0 || !samples) {
        br_error_set("statistics of an empty sample set");
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(samples[i])) {
            br_error_set("sample %zu of %zu is not a finite number (%g)", i, n, samples[i]);
            goto done;
        }
    }
    sorted = malloc(n * sizeof *sorted);
    if (!sorted) {
        br_error_set("out of memory sorting %zu samples", n);
        goto done;
    }
    memcpy(sorted, samples, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, br_cmp_double);

    /* Welford (1962): running mean and sum of squared deviations. */
    double mean = 0.0, m2 = 0.0;
    for (size_t i = 0; i < n; i++) {
        double x = samples[i];
        double delta = x - mean;
        mean += delta / (double)(i + 1);
        m2 += delta * (x - mean);
    }

    br_stats s = {0};
    s.n = n;
    s.min = sorted[0];
    s.max = sorted[n - 1];
    s.mean = mean;
    s.stddev = n > 1 ? sqrt(m2 / (double)(n - 1)) : 0.0;
    s.noise = mean != 0.0 ? s.stddev / mean : 0.0;
    s.median = br_stats_quantile(sorted, n, 0.5);
    s.q1 = br_stats_quantile(sorted, n, 0.25);
    s.q3 = br_stats_quantile(sorted, n, 0.75);
    s.iqr = s.q3 - s.q1;

    /* Conover (1999) section 3.2; needs n >= 6 (checked here so that no error
     * is recorded on this successful path). */
    s.ci_low = s.ci_high = s.ci_level = NAN;
    if (n >= 6) {
        size_t lo, hi;
        double level;
        if (br_stats_median_ci(n, &lo, &hi, &level) != 0)
            goto done;
        s.ci_low = sorted[lo];
        s.ci_high = sorted[hi];
        s.ci_level = level;
    }

    /* Tukey (1977): outside [q1 - 1.5 iqr, q3 + 1.5 iqr]. */
    const double fence_lo = s.q1 - 1.5 * s.iqr;
    const double fence_hi = s.q3 + 1.5 * s.iqr;
    s.n_outliers = 0;
    for (size_t i = 0; i < n; i++) {
        if (sorted[i] < fence_lo || sorted[i] > fence_hi)
            s.n_outliers++;
    }
    *out = s;
    rc = 0;
done:
    free(sorted);
    return rc;
}

double br_stats_finite_median(const double *v, size_t n) {
    double *c = malloc((n ? n : 1) * sizeof *c);
    size_t k = 0;
    if (!c)
        return NAN;
    for (size_t i = 0; i < n; i++)
        if (isfinite(v[i]))
            c[k++] = v[i];
    double m = NAN;
    if (k) {
        qsort(c, k, sizeof *c, br_cmp_double);
        m = k % 2 ? c[k / 2] : (c[k / 2 - 1] + c[k / 2]) / 2;
    }
    free(c);
    return m;
}

/* t(0.975, df) for df = 1..30 (index df - 1). */
static const double t975_table[30] = {
    12.706204736, 4.302652730, 3.182446305, 2.776445105, 2.570581836, 2.446911851,
    2.364624252,  2.306004135, 2.262157163, 2.228138852, 2.200985160, 2.178812830,
    2.160368656,  2.144786688, 2.131449546, 2.119905299, 2.109815578, 2.100922040,
    2.093024054,  2.085963447, 2.079613845, 2.073873068, 2.068657610, 2.063898562,
    2.059538553,  2.055529439, 2.051830516, 2.048407142, 2.045229642, 2.042272456};

double br_stats_t975(size_t df) {
    if (df == 0)
        return NAN;
    if (df <= 30)
        return t975_table[df - 1];
    /* Abramowitz & Stegun 26.7.5 about z = the normal 0.975 quantile. */
    const double z = 1.959963984540054, v = (double)df;
    const double z2 = z * z, z3 = z2 * z, z5 = z3 * z2, z7 = z5 * z2, z9 = z7 * z2;
    double g1 = (z3 + z) / 4.0;
    double g2 = (5 * z5 + 16 * z3 + 3 * z) / 96.0;
    double g3 = (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / 384.0;
    double g4 = (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / 92160.0;
    return z + g1 / v + g2 / (v * v) + g3 / (v * v * v) + g4 / (v * v * v * v);
}

int br_stats_log_t_ci(double *out_lo, double *out_hi, double *out_center, const double *x, size_t n,
                      size_t n_first) {
    if (n_first < 3 || n < n_first || !x)
        return br_error_set("a t-interval of the log times needs at least 3 samples in its first "
                            "stage and no fewer in all (got %zu of %zu)",
                            n_first, n);
    double mean = 0.0, m2 = 0.0, s0 = 0.0; /* Welford (1962) on ln x */
    for (size_t i = 0; i < n; i++) {
        if (!(x[i] > 0) || !isfinite(x[i]))
            return br_error_set("sample %zu of %zu is not a positive finite number (%g)", i, n,
                                x[i]);
        double y = log(x[i]), d = y - mean;
        mean += d / (double)(i + 1);
        m2 += d * (y - mean);
        if (i + 1 == n_first)
            s0 = sqrt(m2 / (double)(n_first - 1));
    }
    double h = br_stats_t975(n_first - 1) * s0 / sqrt((double)n);
    if (out_lo)
        *out_lo = exp(mean - h);
    if (out_hi)
        *out_hi = exp(mean + h);
    if (out_center)
        *out_center = exp(mean);
    return 0;
}

int br_stats_set_log_t_ci(br_stats *s, const double *samples, size_t n) {
    double lo, hi;
    if (br_stats_log_t_ci(&lo, &hi, NULL, samples, n, BR_STATS_T_FIRST) != 0)
        return -1;
    s->ci_low = lo;
    s->ci_high = hi;
    s->ci_level = 0.95;
    s->ci_method = BR_CI_LOG_T;
    return 0;
}
