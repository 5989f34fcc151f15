/* SPDX-License-Identifier: Apache-2.0 */
/* The current run's scatter as evidence of each case's between-run
 * variance: the centred squared log ratios that the suite's prior
 * (prior.h) is fitted to together with the saves' variances.
 *
 * The current run holds one rerun of every case: under no change the log
 * ratio x_i = ln(cur_i / ref_i) of case i (ref_i the geometric mean of its
 * k_i run medians, drift.h) is a common shift mu (a loaded machine moves
 * every case together; that shift is what the gate must detect, or the
 * confirmation explain, so it is taken out here) plus a normal error of
 * variance v_i (1 + 1/k_i), v_i the variance of ln(one run median) that the
 * case's own run medians estimate by s_i^2 on k_i - 1 degrees of freedom.
 * So
 *
 *   e_i = (x_i - mu_(-i))^2 k_i / (k_i + 1),
 *
 * mu_(-i) the median of the other cases' ratios (a deleted residual, as
 * regression diagnostics take one: the median of all would sit on or
 * between the middle ratios and shrink their e_i toward 0, which the fit
 * below reads as heavy tails), is a variance estimate of v_i on one degree
 * of freedom (a little above it: the median's own variance adds), independent of
 * s_i^2 (a new observation's distance from the mean of normal ones is
 * independent of their sample variance), and
 *
 *   S_i = ((k_i - 1) s_i^2 + e_i) / k_i    on k_i degrees of freedom
 *
 * is what the k_i + 1 runs say of v_i together: the sum of squares of all
 * of them about their mean, one more run than the saves hold. The suite's
 * prior is fitted to the S_i (prior.h: each case's scale shrunk toward a
 * common, duration-trended s0^2 with estimated prior degrees of freedom
 * d0, as limma fits one to gene variances: G. K. Smyth, Stat. Appl. Genet.
 * Mol. Biol. 3(1), 2004), so that a baseline saved once, which has no
 * variance of its own, gets one from the run's scatter, and cases whose
 * spreads differ 5-15 times are told apart by d0 rather than given one
 * scale (Rousseeuw and Croux's Qn of the x_i did that before: at 36 cases
 * saved once it broke the false-alarm bound, docs/baselines.md). A case is
 * still tested against its saves and the prior only (drift.h): its own
 * e_i enters its test only through the fit, at a weight of about 1 / m.
 *
 * The median resists up to half the cases moving.
 * Cases that did change (a kernel slowed at some sizes) would inflate the
 * prior for the others, so the fit is made robust as limma's
 * eBayes(robust = TRUE) is for hypervariable genes (B. Phipson, S. Lee,
 * I. J. Majewski, W. S. Alexander and G. K. Smyth, "Robust hyperparameter
 * estimation protects against hypervariable genes and improves power to
 * detect differential expression", Ann. Appl. Stat. 10(2):946, 2016), in a
 * simpler way: a first prior is fitted to the saves alone (independent of
 * this run; with a baseline saved once, to the saves and every ratio), and
 * a case whose centred ratio is an outlier under its moderated variance
 * from it (two-sided p below BR_SCATTER_OUTLIER_P / n, Bonferroni over the
 * n ratios) has its e_i
 * left out of the prior that lends (drift.c, br_drift_pool_fit). With
 * one save and about half the cases moved by another amount than the rest,
 * the first fit is itself moved and few are left out (docs/baselines.md). */
#ifndef BR_SCATTER_H
#define BR_SCATTER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The fewest compared cases of one backend whose ratios join the prior's
 * fit: below, the prior is fitted to the saves alone (a median of fewer
 * than 6 values centres them poorly). */
#define BR_SCATTER_MIN_CASES 6
/* The family-wise level at which a case's centred ratio counts as an
 * outlier and is left out of the refit (above). */
#define BR_SCATTER_OUTLIER_P 0.05

/* What the run's scatter of one backend offers the prior. */
typedef struct br_scatter {
    size_t n;        /* cases whose ratio joined the fit; 0: none (fewer than
                        BR_SCATTER_MIN_CASES compared) */
    size_t left_out; /* of those, ratios left out of the refit as outliers */
    double centre;   /* the median of the log ratios (the run's common shift); NAN when n is 0 */
} br_scatter;

/* The centred squared log ratios of n cases into e[0..n) (above): x[i] case
 * i's log ratio (NAN: not compared in this run), k[i] >= 1 its run medians;
 * e[i] = (x[i] - mu_(-i))^2 k[i] / (k[i] + 1), NAN where x[i] is not
 * finite, and every e[i] NAN (out->n 0) with fewer than
 * BR_SCATTER_MIN_CASES finite x; out->n counts the finite e[i], out->centre
 * is the median of all of them, out->left_out 0. Never fails (out of
 * memory: out->n 0). */
void br_scatter_variances(br_scatter *out, double *e, const double *x, const double *k, size_t n);

/* Case variance s2 of the saves on d >= 0 degrees of freedom (NAN when d
 * is 0) and run variance e on one (NAN: none) combined into *out_s2 on
 * *out_d: ((d s2 + e) / (d + 1) on d + 1 when e is finite, else s2 on d.
 * Pure. */
void br_scatter_combine(double *out_s2, double *out_d, double s2, double d, double e);

#ifdef __cplusplus
}
#endif
#endif
