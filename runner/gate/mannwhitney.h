/* SPDX-License-Identifier: Apache-2.0 */
/* Two-sided Mann-Whitney U test (Wilcoxon rank-sum test). */
#ifndef BR_MANNWHITNEY_H
#define BR_MANNWHITNEY_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Result of br_mwu_test. u is a count of pairs; z and the p-values are
 * dimensionless. */
typedef struct br_mwu {
    double u;  /* U statistic of sample a: number of pairs (a_i, b_j) with a_i > b_j, plus half the
                  ties; in [0, n_a n_b], n_a n_b / 2 under the null */
    double z;  /* standardised statistic of the normal approximation (NAN when exact):
                  sign(u - mu) max(|u - mu| - 1/2, 0) / sigma, positive when a tends to be larger;
                  0 when every value is tied */
    double p;  /* two-sided p-value in [0, 1] */
    int exact; /* 1 when p comes from the exact null distribution */
    /* The smallest two-sided p-value these sample sizes can produce, by the
     * method that produced p: exact: 2 / C(n_a + n_b, n_a) capped at 1;
     * normal approximation: the p of the most extreme U over all labellings
     * of the same pooled values (same tie structure, same sigma; U = 0 when
     * there are no ties). Used by the caller to say "too few samples to ever
     * be significant". */
    double min_p;
} br_mwu;

/* Two-sided Mann-Whitney U test of a (n_a values) against b (n_b values):
 * H0 is that both samples come from one distribution, against a shift either
 * way (Mann & Whitney, "On a test of whether one of two random variables is
 * stochastically larger than the other", Ann. Math. Statist. 18(1):50-60,
 * 1947; Wilcoxon 1945). The definitions match SciPy's
 * scipy.stats.mannwhitneyu(a, b, alternative='two-sided'): u is its
 * statistic (U1 = R1 - n_a (n_a + 1) / 2 with midranks), and p equals its p
 * with method='exact' or with method='asymptotic', use_continuity=True.
 *
 * Ties get midranks. p comes from:
 * - the exact null distribution when there are no ties and n_a + n_b <= 50:
 *   p = min(1, 2 min(P(U <= u), P(U >= u))), from the counts of the
 *   C(n_a + n_b, n_a) rank arrangements by U (dynamic programming over the
 *   Gaussian binomial coefficient's recurrence, in 64-bit integers). The
 *   limit 50 keeps every count exact: the total C(50, 25) = 126410606437752
 *   is below 2^53, so each count is also exact in a double and p is the
 *   correctly rounded quotient of two exact integers; the table has at most
 *   26 x 626 entries, filled with fewer than 10^5 additions;
 * - otherwise the normal approximation, mu = n_a n_b / 2 and the
 *   tie-corrected variance sigma^2 = n_a n_b / 12 ((N + 1) - sum(t^3 - t) /
 *   (N (N - 1))), N = n_a + n_b, t the size of each group of tied values
 *   (Lehmann, Nonparametrics: Statistical Methods Based on Ranks,
 *   Holden-Day 1975, ch. 1; Hollander & Wolfe, Nonparametric Statistical
 *   Methods, Wiley, ch. 4), with a continuity correction of 1/2:
 *   p = min(1, erfc(|z| / sqrt 2)). When every value is tied, sigma = 0 and
 *   p = 1.
 * O(N log N) time (two sorts), O(N) memory; u is exact while n_a n_b < 2^52.
 * The inputs are not modified. Returns 0, or -1 with the error set when
 * n_a == 0 or n_b == 0, a sample is not finite, or memory runs out; *out is
 * untouched on failure. */
int br_mwu_test(br_mwu *out, const double *a, size_t n_a, const double *b, size_t n_b);

#ifdef __cplusplus
}
#endif
#endif
