/* stats.h - summary statistics of a sample set. */
#ifndef BR_STATS_H
#define BR_STATS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Summary of n samples, in the samples' own unit (benchrun: ns per execution). */
typedef struct br_stats {
    size_t n;
    double min, max;
    double mean;
    double median; /* the headline figure */
    double stddev; /* sample standard deviation (n - 1 in the denominator); 0 when n == 1 */
    double noise;  /* relative standard deviation: stddev / mean (0 when mean == 0) */
    double q1, q3; /* first and third quartiles */
    double iqr;    /* q3 - q1 */
} br_stats;

/* Compute *out from `samples` (n >= 1 values, any order; not modified).
 * Quantiles use linear interpolation between order statistics (Hyndman & Fan
 * 1996, definition 7, the default of R and NumPy). Mean and variance use
 * Welford's one-pass update (Welford 1962) for numerical stability.
 * Returns 0, or -1 with the error set when n == 0, a sample is not finite, or
 * memory runs out. */
int br_stats_compute(br_stats *out, const double *samples, size_t n);

/* The q-quantile (0 <= q <= 1) of `sorted` (n >= 1 values in ascending order),
 * Hyndman & Fan definition 7. */
double br_stats_quantile(const double *sorted, size_t n, double q);

#ifdef __cplusplus
}
#endif
#endif
