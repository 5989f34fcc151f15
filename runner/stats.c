/* stats.c - summary statistics of a sample set (see stats.h). */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a;
    double y = *(const double *)b;
    return (x > y) - (x < y);
}

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

/* Summary statistics of n samples (unit preserved; benchrun: ns). Does not
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
    qsort(sorted, n, sizeof *sorted, cmp_double);

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
    *out = s;
    rc = 0;
done:
    free(sorted);
    return rc;
}
