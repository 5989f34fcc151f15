/* SPDX-License-Identifier: Apache-2.0 */
/* The level each case of a comparison is judged at, so that the
 * run, not each case, keeps the false-alarm rate.
 *
 * drift.h bounds a false `slower` at alpha / 2 per case. A run compares
 * every case of its suite (42 in suites/reduction.yaml), and its exit
 * status fails when any one is slower: with m cases judged at alpha each,
 * a run of unchanged code fails with probability up to m alpha / 2 (on the
 * H200, one README run in ten did, from one host case just past its MDE).
 * So the cases' p-values (p_runs) are taken together, by the
 * Benjamini-Hochberg step-up procedure (Y. Benjamini and Y. Hochberg,
 * "Controlling the false discovery rate", J. R. Statist. Soc. B 57(1):289,
 * 1995): with p_(1) <= ... <= p_(m) the m finite p-values,
 *
 *   R = max { i : p_(i) < i alpha / m }   (0 when none; strict, as drift.h's
 *                                          p < alpha: the same but for ties)
 *
 * cases are changed, the R with the smallest p. Each case is then judged
 * by drift.h's rule at the level alpha R / m, which calls exactly those R
 * (and no other) changed when the threshold allows it. When the code did
 * not change at all, any `slower` or `faster` is a false discovery, so the
 * procedure's false discovery rate bound makes P(the comparison has any) <=
 * alpha (its Theorem 1, under independence; for one-sided tests under
 * positive regression dependence, as of host cases moving together with the
 * machine, Y. Benjamini and D. Yekutieli, Ann. Statist. 29(4):1165, 2001,
 * Theorem 1.2; for the gate's two-sided p the simulations below show it),
 * and each case's false `slower` stays under alpha / 2. One comparison is
 * one suite's: a run of S suites has up to S alpha. When many cases changed
 * together (a 3% step on every size), R is large and each is judged near
 * alpha, as before; a lone change is judged at alpha / m.
 * tests/gate/test_prior.c and test_scatter.c show both by simulation
 * (docs/baselines.md). */
#ifndef BR_FAMILY_H
#define BR_FAMILY_H

#include <stddef.h>

#include "model/run.h"
#include "model/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The level alpha max(R, 1) / m at which each of the cases with p-values
 * p[0..n) is judged (above): m counts the finite p (NAN: a case with no
 * p-value, not part of the family), R the Benjamini-Hochberg discoveries
 * at `alpha` (0 < alpha < 1) into *out_r when out_r is not NULL, m into
 * *out_m when out_m is not NULL. alpha itself when m is 0 or 1. Returns
 * NAN when out of memory (error set). */
double br_family_level(size_t *out_r, size_t *out_m, const double *p, size_t n, double alpha);

/* Judge one case: entry i of a family under `rules`, filling at least its
 * status and p_runs (drift.h). Returns 0, or -1 with the error set. */
typedef int (*br_family_judge_fn)(size_t i, const br_regression_cfg *rules, void *ctx);

/* Judge the n cases of one family as the gate does: each by judge at
 * rules->alpha, then, where the family's level (br_family_level of the
 * p_runs of the entries e[i] that judge_fn gave one) is lower, each again at
 * that level; the level into *out_level and the cases with a p-value into
 * *out_m (either may be NULL). e[i] is what judge_fn fills for case i.
 * Returns 0, or -1 with the error set (judge_fn's, or out of memory). */
int br_family_judge(double *out_level, size_t *out_m, const br_compare_entry *e, size_t n,
                    const br_regression_cfg *rules, br_family_judge_fn judge_fn, void *ctx);

#ifdef __cplusplus
}
#endif
#endif
