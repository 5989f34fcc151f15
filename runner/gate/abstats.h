/* SPDX-License-Identifier: Apache-2.0 */
/* The statistics of `benchrun ab`: the ratio NEW/OLD of one
 * case from interleaved blocks, its confidence interval, the paired test and
 * the decision.
 *
 * `benchrun ab` measures the two builds of a case in blocks, alternating
 * A B B A A B B A ... (A = OLD, B = NEW); each block is one whole normal
 * measurement of the case (warmup, samples, stopping rule) and gives one
 * median. Blocks 2k and 2k+1 form pair k, which gives one log-ratio
 *   d_k = ln(new median / old median).
 * Drift that is linear over a pair adds +e to the AB pairs and -e to the BA
 * pairs, so it cancels from the mean over an even number of pairs and only
 * widens the interval (the crossover design of clinical trials).
 *
 * Method: the paired t interval on the log-ratios (Student, "The probable
 * error of a mean", Biometrika 6(1), 1908): with n pairs, mean m, sample
 * standard deviation s (n - 1 in the denominator),
 *   ratio = exp(m),  CI = exp(m -/+ t(1 - alpha/2, n - 1) s / sqrt(n)),
 *   t = m / (s / sqrt(n)), p = 2 P(T(n - 1) > |t|),
 * the geometric-mean ratio and its (1 - alpha) interval as bioequivalence
 * testing computes them on log-transformed crossover data (Schuirmann, J.
 * Pharmacokinet. Biopharm. 15(6), 1987). The interval excludes 1 exactly
 * when p < alpha. Student's t distribution is tdist.h's, the one the
 * baseline gate uses too.
 *
 * Decision, with threshold h >= 0 (a fraction) and alpha in (0, 1):
 *   slower   the whole interval lies above 1 + h (so p < alpha too)
 *   faster   the whole interval lies below 1 / (1 + h)
 *   same     the whole interval lies within [1 / (1 + h), 1 + h]: any change is
 *            smaller than the threshold, with confidence 1 - alpha
 *   unknown  otherwise: "too noisy to tell" when the interval holds 1,
 *            "the interval straddles the threshold" when it does not; or
 *            "too few blocks" with fewer than two pairs.
 * A case is slower only when it is slower by more than h with confidence
 * 1 - alpha/2: a false `slower` at a true ratio of 1 + h has probability
 * alpha/2, and falls quickly below that as the true ratio nears 1. */
#ifndef BR_ABSTATS_H
#define BR_ABSTATS_H

#include <stddef.h>

#include "model/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The default threshold and alpha of `benchrun ab` (when --threshold and
 * --alpha are not given): a 0.5% change, at 95% confidence. Smaller than the
 * baseline gate's 2% (types.h), which must also cover how far a rerun at
 * another time moves a case; interleaving cancels that drift, so what is
 * left of it is in the interval. */
#define BR_AB_DEFAULT_THRESHOLD 0.005
#define BR_AB_DEFAULT_ALPHA     0.05

/* The outcome of one case. */
typedef struct br_ab_stats {
    size_t n;         /* pairs used */
    double ratio;     /* NEW/OLD: exp of the mean log-ratio; NAN when n == 0 */
    double low, high; /* its (1 - alpha) confidence interval; NAN when n < 2 */
    double t;         /* the t statistic (+/-INFINITY when s == 0 and m != 0); NAN: n < 2 */
    double p;         /* two-sided p-value of the paired t test; NAN when n < 2 */
    br_change status; /* slower, faster, same or unknown (rules above) */
    const char *why;  /* static; for unknown, the reason; else NULL */
} br_ab_stats;

/* Decide one case from its pairs: old_med[k] and new_med[k] are the medians
 * (ns, > 0) of the OLD and NEW block of pair k, k < n. threshold a fraction
 * >= 0, alpha in (0, 1). Returns 0, or -1 with the error set (a median that
 * is not a positive finite number, rules out of range). */
int br_ab_stats_compute(br_ab_stats *out, const double *old_med, const double *new_med, size_t n,
                        double threshold, double alpha);

#ifdef __cplusplus
}
#endif
#endif
