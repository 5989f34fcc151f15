/* SPDX-License-Identifier: Apache-2.0 */
/* Summary statistics of a sample set. */
#ifndef BR_STATS_H
#define BR_STATS_H

#include <stddef.h>

#include "types.h"

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
    double ci_level; /* the exact coverage of [ci_low, ci_high], in [0.95, 1); 0.95 for
                        BR_CI_LOG_T (exact under the log-normal model) */
    /* How the interval was computed: BR_CI_ORDER (br_stats_compute, as
     * above) or BR_CI_LOG_T (br_stats_set_log_t_ci: a timing that stopped
     * on ci_t, measure.h). */
    br_ci_method ci_method;
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

/* Student's t quantile t(0.975, df): the two-sided 95% critical value with
 * df >= 1 degrees of freedom (NAN for df == 0). df 1..30 from a table
 * (the standard values to 9 decimals, e.g. NIST/SEMATECH e-Handbook of
 * Statistical Methods, 1.3.6.7.2), larger df by the Cornish-Fisher
 * expansion about the normal quantile (Abramowitz & Stegun 26.7.5, four
 * terms: within 3e-8 of the exact value from df 31 on). */
double br_stats_t975(size_t df);

/* The first stage of rule ci_t (measure.h): the samples whose spread sets
 * how many the rule takes. */
#define BR_STATS_T_FIRST 3

/* The 95% confidence interval of the median of a log-normal sample, by
 * Stein's two-stage procedure (C. Stein, "A two-sample test for a linear
 * hypothesis whose power is independent of the variance", Ann. Math.
 * Statist. 16(3), 1945): with y = ln x, s0 the sample standard deviation
 * (n - 1) of the first n_first values of x (in the order taken), ybar the
 * mean of all n, [exp(ybar - h), exp(ybar + h)], h = t(0.975, n_first - 1)
 * s0 / sqrt(n). Under the model, ln x ~ N(mu, sigma^2), the median of x is
 * exp(mu) (Olsson, "Confidence intervals for the mean of a log-normal
 * distribution", J. Statistics Education 13(1), 2005, section 1), and
 * sqrt(n) (ybar - mu) / s0 follows Student's t with n_first - 1 degrees of
 * freedom whenever n >= n_first was chosen from s0 alone (Stein 1945), so
 * the interval covers the median with probability 95% exactly. n_first ==
 * n is Student's (1908) interval. *out_center gets exp(ybar) (the
 * geometric mean: the median's estimate under the model). Any out pointer
 * may be NULL. Units: those of x (benchrun: ns). Returns 0, or -1 with the
 * error set when n_first < 3 (benchrun asks for two degrees of freedom at
 * least), n < n_first, or a value is not a positive finite number. */
int br_stats_log_t_ci(double *out_lo, double *out_hi, double *out_center, const double *x, size_t n,
                      size_t n_first);

/* Make s's interval of the median the log-t one of samples[0..n) (in the
 * order taken; br_stats_log_t_ci with n_first BR_STATS_T_FIRST; ci_level
 * 0.95, ci_method BR_CI_LOG_T): for a timing that stopped on ci_t. Returns
 * 0, or -1 with the error set (s untouched). */
int br_stats_set_log_t_ci(br_stats *s, const double *samples, size_t n);

#ifdef __cplusplus
}
#endif
#endif
