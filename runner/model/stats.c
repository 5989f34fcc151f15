/* SPDX-License-Identifier: Apache-2.0 */
/* stats.c - summary statistics of a sample set (see stats.h). */
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
