/* SPDX-License-Identifier: Apache-2.0 */
/* Change points of one series (a case's value across the
 * runs of a history): E-divisive's split, tested by Student's t as Hunter
 * does; pure computation on an array of doubles, no I/O.
 *
 * The method: Hunter (Fleming et al., "Hunter: Using Change Point Detection
 * to Hunt for Performance Regressions", ICPE 2023, doi:10.1145/3578244.3583719,
 * arXiv:2301.03034; now Apache Otava, analysis.py and
 * change_point_divisive/significance_test.py), which keeps the split of
 * E-divisive means (Matteson & James, JASA 109(505):334-345, 2014,
 * doi:10.1080/01621459.2013.849605; MongoDB's performance CI, Daly et al.,
 * ICPE 2020) and replaces its permutation test with a Student's t test of
 * the two sides of the split: as good on MongoDB's data, deterministic,
 * and one test per split instead of hundreds of reshuffled searches.
 *
 *   1. For a segment Z[s..e) the divergence of X = Z[s..tau) and
 *      Y = Z[tau..kappa) (s < tau < kappa <= e) is the q-statistic with
 *      alpha = 1:
 *        E = 2/(n m) sum|X_i - Y_j| - C(n,2)^-1 sum_{i<k}|X_i - X_k|
 *                                   - C(m,2)^-1 sum_{j<k}|Y_j - Y_k|
 *        Q = n m / (n + m) * E            (n = |X|, m = |Y|)
 *      The candidate of the segment is the (tau, kappa) that maximises Q
 *      (kappa free, as in the paper and Otava). X and Y hold at least
 *      min_size values. O(len^2) per segment.
 *   2. Each segment's candidate is tested by Student's two-sample t test
 *      of X against Y (pooled variance, n + m - 2 degrees of freedom,
 *      two-sided), its p-value multiplied by the number of cuts tau the
 *      segment offers (len - 2 min_size + 1; Bonferroni): the cut was
 *      chosen as the most divergent of them, and an unadjusted p of the
 *      chosen one would call a change in most long stationary series (Otava
 *      instead tests at p <= 0.001 within windows of 50 runs). Of the
 *      candidates with p <= alpha, the one with the largest Q splits its
 *      segment, and the search goes on in both halves (recursive
 *      bisection) until no candidate is significant.
 *   3. Each change point gets the level (median) of the segment before and
 *      the segment after it, between its neighbouring change points, and
 *      the step after / before - 1; the change point with the smallest
 *      |step| below min_step is dropped and its neighbours' levels
 *      recomputed, until every step reaches min_step (Otava's merge step
 *      with min_magnitude, analysis.py merge()).
 *
 * Defaults and why (br_changepoint_defaults): alpha 0.002 after the
 * adjustment, chosen on the generated histories of tests/changepoint_series.h
 * (2000 series each, 30 runs, 1% noise) to keep the permutation test's
 * false-alarm rate: a change point in 15 of 2000 stationary series (0.75%;
 * the permutation test at 0.01 with 999 permutations: 0.9%) and in 1 of
 * 200 of 400 runs; one 3% step found exactly once in 98%, two in 86%, a 5%
 * dip and back in 99% (docs/sweeps.md); min_size 3 (a level is at least
 * three runs: one or two odd runs are outliers, not a shift; ecp's default
 * of 30 would need months of nightly runs); min_step 1% (half the gate's
 * default threshold of 2%: the point of change points is a small step that
 * persists, which the gate cannot see in one run). */
#ifndef BR_CHANGEPOINT_H
#define BR_CHANGEPOINT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The parameters of br_changepoint_find. */
typedef struct br_changepoint_cfg {
    double alpha;    /* a split is kept when its adjusted t-test p-value <= alpha (0, 1) */
    size_t min_size; /* fewest values on each side of a change point, >= 1 */
    double min_step; /* smallest |after / before - 1| reported (a fraction, >= 0) */
} br_changepoint_cfg;

#define BR_CHANGEPOINT_ALPHA    0.002
#define BR_CHANGEPOINT_MIN_SIZE 3
#define BR_CHANGEPOINT_MIN_STEP 0.01

/* The defaults above into *cfg. */
void br_changepoint_defaults(br_changepoint_cfg *cfg);

/* One change point of a series. */
typedef struct br_changepoint {
    size_t index;  /* index into the input of the first (finite) value after the shift */
    size_t last;   /* index of the last finite value before it */
    double before; /* median of the segment before it (the input's unit) */
    double after;  /* median of the segment after it */
    double step;   /* (after - before) / |before| (a fraction, after / before - 1 for a
                      positive level); NAN when before is 0 */
    double p;      /* the split's t-test p-value (Bonferroni-adjusted), in [0, alpha] */
    double q;      /* the q-statistic of the split, in the input's unit */
} br_changepoint;

/* The change points of x[0..n) (in order: x[i] is run i's value; NaN or
 * infinite values are missing runs, skipped: the series is the finite
 * values in order) by the method above under *cfg (NULL: the defaults).
 * *out (caller frees; NULL when none) gets *n_out change points in index
 * order. Fewer than 2 * min_size finite values, or a constant series,
 * give none. The result depends only on x and cfg.
 * Returns 0, or -1 with the error set: out of memory, or a cfg outside the
 * ranges above ("change points: ..."). */
int br_changepoint_find(br_changepoint **out, size_t *n_out, const double *x, size_t n,
                        const br_changepoint_cfg *cfg);

/* The largest q-statistic over the splits of y[0..m) with both sides of
 * at least min_size values (kappa free, as above) and its tau (the index
 * of the first value of Y) into *tau; scratch holds 3 * m + 2 doubles.
 * Returns -INFINITY (and *tau = 0) when m < 2 * min_size. Exposed for the
 * tests, which check it against the definition. */
double br_changepoint_best_split(size_t *tau, const double *y, size_t m, size_t min_size,
                                 double *scratch);

#ifdef __cplusplus
}
#endif
#endif
