/* SPDX-License-Identifier: Apache-2.0 */
/* stats.h - summary statistics of a sample set. */
#ifndef BR_STATS_H
#define BR_STATS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Summary of n samples. Every field except n, ci_level and n_outliers is in
 * the samples' own unit (benchrun: ns per execution). */
typedef struct br_stats {
    size_t n;
    double min, max;
    double mean;
    double median; /* the headline figure */
    double stddev; /* sample standard deviation (n - 1 in the denominator); 0 when n == 1 */
    double noise;  /* relative standard deviation: stddev / mean (0 when mean == 0) */
    double q1, q3; /* first and third quartiles (Hyndman & Fan definition 7) */
    double iqr;    /* q3 - q1 */
    /* Distribution-free confidence interval of the median from order
     * statistics (Conover, Practical Nonparametric Statistics, 3rd ed., Wiley
     * 1999, section 3.2; also Hollander & Wolfe, Nonparametric Statistical
     * Methods): [x_(j), x_(n-j+1)] with j the largest rank whose coverage
     * 1 - 2 P(Bin(n, 1/2) <= j - 1) is still >= 95% (see br_stats_median_ci).
     * All three are NAN when n < 6: no such interval reaches 95% then. */
    double ci_low, ci_high;
    double ci_level; /* the exact coverage of [ci_low, ci_high], in [0.95, 1) */
    /* Samples outside Tukey's fences (J. W. Tukey, Exploratory Data Analysis,
     * 1977): x < q1 - 1.5 iqr or x > q3 + 1.5 iqr. When iqr == 0 every sample
     * different from q1 (== q3 == the median) is outside. */
    size_t n_outliers;
} br_stats;

/* Compute *out from `samples` (n >= 1 values, any order; not modified; same
 * unit in *out, benchrun: ns). Quantiles use linear interpolation between
 * order statistics (Hyndman & Fan 1996, definition 7, the default of R and
 * NumPy). Mean and variance use Welford's one-pass update (Welford 1962) for
 * numerical stability. The median's confidence interval and the outlier count
 * are described at br_stats. Returns 0, or -1 with the error set when n == 0,
 * a sample is not finite, or memory runs out; *out is untouched on failure. */
int br_stats_compute(br_stats *out, const double *samples, size_t n);

/* Median of the finite values among v[0..n) (any order; not modified), in
 * their unit; the mean of the two middle values when their count is even.
 * NAN when none is finite or memory runs out. */
double br_stats_finite_median(const double *v, size_t n);

/* The q-quantile (0 <= q <= 1) of `sorted` (n >= 1 values in ascending order),
 * Hyndman & Fan definition 7, in the samples' unit. NAN when n == 0 or q is
 * NaN; q outside [0, 1] is clamped. */
double br_stats_quantile(const double *sorted, size_t n, double q);

/* Ranks of the 95% distribution-free confidence interval of the median of n
 * samples (Conover 1999, section 3.2): *out_lo = j - 1 and *out_hi = n - j,
 * 0-based indices into the ascending sorted samples, where j is the largest
 * integer with P(Bin(n, 1/2) <= j - 1) <= 0.025; *out_level = the exact
 * coverage 1 - 2 P(Bin(n, 1/2) <= j - 1) (>= 0.95, a fraction, not percent).
 * The binomial CDF is summed from ratios of consecutive probabilities,
 * normalised by the total, so no factorial or 2^n is formed and nothing
 * overflows or underflows; O(sqrt(n)) time. The ranks match exact rational
 * arithmetic and the coverage is within 1e-12 relative of it (checked for
 * every n in 6 .. 3000 and sampled n up to 10^6). Any out pointer may be NULL. Returns 0, or
 * -1 with the error set when n < 6 (outputs untouched). */
int br_stats_median_ci(size_t n, size_t *out_lo, size_t *out_hi, double *out_level);

#ifdef __cplusplus
}
#endif
#endif
