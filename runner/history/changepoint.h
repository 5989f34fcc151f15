/* SPDX-License-Identifier: Apache-2.0 */
/* changepoint.h - change points of one series (a case's value across the
 * runs of a history) by E-divisive means: pure computation on an array of
 * doubles, no I/O.
 *
 * The method (Matteson & James, "A Nonparametric Approach for Multiple
 * Change Point Analysis of Multivariate Data", JASA 109(505):334-345, 2014,
 * doi:10.1080/01621459.2013.849605, arXiv:1306.4933), as MongoDB's
 * performance CI (Daly et al., "The Use of Change Point Detection to
 * Identify Software Performance Regressions in a Continuous Integration
 * System", ICPE 2020, doi:10.1145/3358960.3375791; the library
 * mongodb/signal-processing-algorithms, energy_statistics.py e_divisive)
 * and Apache Otava/Hunter (otava/change_point_divisive/calculator.py and
 * significance_test.py, the "--orig-edivisive" path) use it:
 *
 *   1. For a segment Z[s..e) the divergence of X = Z[s..tau) and
 *      Y = Z[tau..kappa) (s < tau < kappa <= e) is the q-statistic with
 *      alpha = 1:
 *        E = 2/(n m) sum|X_i - Y_j| - C(n,2)^-1 sum_{i<k}|X_i - X_k|
 *                                   - C(m,2)^-1 sum_{j<k}|Y_j - Y_k|
 *        Q = n m / (n + m) * E            (n = |X|, m = |Y|)
 *      The candidate of the segment is the tau of the (tau, kappa) that
 *      maximises Q (kappa free, as in the paper and Otava; MongoDB fixes
 *      kappa = e). Both X and Y hold at least min_size values.
 *   2. Of every current segment's candidate, the one with the largest Q is
 *      tested: R times, the values are shuffled within each segment (a
 *      seeded PRNG, so that a history gives the same answer every time) and
 *      the largest Q over all segments recomputed; its p-value is
 *      (1 + #{permuted Q >= observed Q}) / (R + 1) (never 0: Phipson &
 *      Smyth, Stat. Appl. Genet. Mol. Biol. 9(1), 2010). p <= alpha splits
 *      that segment at tau and the search goes on (recursive bisection);
 *      otherwise it stops.
 *   3. Each change point gets the level (median) of the segment before and
 *      the segment after it, between its neighbouring change points, and
 *      the step after / before - 1; the change point with the smallest
 *      |step| below min_step is dropped and its neighbours' levels
 *      recomputed, until every step reaches min_step (Otava's merge step
 *      with min_magnitude, analysis.py merge()).
 *
 * Defaults and why (br_changepoint_defaults): alpha 0.01 (ecp's e.divisive
 * uses 0.05, MongoDB 0.05, Otava 0.001 with its t-test over windows of 50;
 * measured on generated 30-run series with 1% noise: a false change point
 * in 0.9% of stationary ones, one 3% step found in 99%, and in 63% of
 * 12-run, 97% of 20-run series; docs/sweeps.md); R = 999 permutations (the smallest p is 0.001;
 * Otava and MongoDB use 100, ecp 199, too few to resolve 0.01 well); min_size 3 (a level is at
 * least three runs: one or two odd runs are outliers, not a shift; ecp's default of 30 would need
 * months of nightly runs); min_step 1% (half the gate's default threshold of 2%: the point of
 * change points is a small step that persists, which the gate cannot see in one run). */
#ifndef BR_CHANGEPOINT_H
#define BR_CHANGEPOINT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The parameters of br_changepoint_find. */
typedef struct br_changepoint_cfg {
    double alpha;        /* a split is kept when its permutation p-value <= alpha (0, 1) */
    size_t permutations; /* R >= 1 */
    size_t min_size;     /* fewest values on each side of a change point, >= 1 */
    double min_step;     /* smallest |after / before - 1| reported (a fraction, >= 0) */
    uint64_t seed;       /* the PRNG's seed (splitmix64) */
} br_changepoint_cfg;

#define BR_CHANGEPOINT_ALPHA        0.01
#define BR_CHANGEPOINT_PERMUTATIONS 999
#define BR_CHANGEPOINT_MIN_SIZE     3
#define BR_CHANGEPOINT_MIN_STEP     0.01
#define BR_CHANGEPOINT_SEED         UINT64_C(0x62656e636872756e) /* "benchrun" */

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
    double p;      /* the permutation p-value of the split, in [1/(R+1), alpha] */
    double q;      /* the q-statistic of the split, in the input's unit */
} br_changepoint;

/* The change points of x[0..n) (in order: x[i] is run i's value; NaN or
 * infinite values are missing runs, skipped: the series is the finite
 * values in order) by the method above under *cfg (NULL: the defaults).
 * *out (caller frees; NULL when none) gets *n_out change points in index
 * order. Fewer than 2 * min_size finite values, or a constant series,
 * give none. The result depends only on x and cfg (the seed included).
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
