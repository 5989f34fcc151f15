/* SPDX-License-Identifier: Apache-2.0 */
/* The between-run drift of a baseline saved once, read from the
 * current run itself.
 *
 * When a backend's cases have one run median each (a baseline saved once,
 * or `benchrun compare` of two results files) no rerun was ever measured,
 * and no prior can be fitted (prior.h). Yet the current run holds one
 * rerun of every case: under no change the log ratios x_i = ln(cur_i /
 * ref_i) of the backend's cases scatter around a common value by the
 * between-run drift (both runs' drift and within-run error together). Their
 * scale, measured around each other rather than around 0, estimates that
 * drift without being moved by a common shift of all cases, which is what
 * the gate must detect (a clock shift is handled by the cycles check,
 * drift.h).
 *
 * The scale is Rousseeuw and Croux's Qn (P. J. Rousseeuw and C. Croux,
 * "Alternatives to the median absolute deviation", J. Amer. Statist. Assoc.
 * 88(424):1273, 1993): 2.2219 times the k-th smallest of the n(n-1)/2
 * distances |x_i - x_j|, k = h(h-1)/2, h = floor(n/2) + 1, times the
 * small-sample factor d_n (C. Croux and P. J. Rousseeuw, "Time-efficient
 * algorithms for two highly robust estimators of scale", Computational
 * Statistics 1, 1992; robustbase 0.95 uses finer simulated factors), found
 * by that paper's selection in O(n log n) time and O(n) memory rather than
 * by sorting all n(n-1)/2 distances. It needs no centre,
 * breaks down only when half the cases move apart, and is 82% efficient at
 * the normal (MAD: 37%), so a step that slows some cases by 4% and others by
 * 10% (the H100 copy suite with 10% more bytes) leaves it at the drift of
 * the cases within each group. A case is then tested as one with a pooled
 * spread: se^2 = max(Qn^2, 2 F^2) + w_b^2 + w_c^2 (w the runs' own
 * uncertainty, drift.h; F the backend's floor, below) on t with
 * BR_SCATTER_DF_PER_CASE (n - 1) degrees of freedom, calibrated by
 * simulation (tests/gate/test_scatter.c, docs/baselines.md). */
#ifndef BR_SCATTER_H
#define BR_SCATTER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The fewest cases of one backend whose scatter is used: below, a case
 * saved once gets the backend's assumed drift (drift.h). With 6 cases Qn
 * rests on the 6th smallest of 15 distances. */
#define BR_SCATTER_MIN_CASES 6
/* Degrees of freedom Qn is worth per case beyond the first, for the t
 * quantile: its finite-sample efficiency at the normal is 0.6-0.8 for
 * n = 6..40 (Croux and Rousseeuw 1992); 0.8 keeps the simulated false
 * alarms under alpha/2 (test_scatter.c). */
#define BR_SCATTER_DF_PER_CASE 0.8
/* The floor F of the drift, per backend (a fraction, the standard
 * deviation of ln(run median)): the scatter of a few cases can be small by
 * chance, or zero on a coarse clock. On the H100, three saves of a copy
 * kernel spread by 0.2-1% (docs/baselines.md); the GPU floor 0.4% keeps the
 * power for a 4.4% step (test_scatter.c). A host kernel on a shared CPU
 * moves by 4% and more between runs (the H100 machine's reduce_cpu: 3.6% and
 * 3.7% over three saves); its floor is 2%. */
#define BR_SCATTER_FLOOR_GPU  0.004
#define BR_SCATTER_FLOOR_HOST 0.02

/* The scatter of one backend's cases in one comparison. */
typedef struct br_scatter {
    size_t n;   /* cases it was estimated from; 0: none (fewer than BR_SCATTER_MIN_CASES) */
    double qn;  /* Qn of their log ratios (an estimate of the sd of one case's ln ratio) */
    double var; /* the variance a case's ln ratio is tested against: max(qn^2, 2 floor^2) */
    double df;  /* its degrees of freedom: BR_SCATTER_DF_PER_CASE (n - 1) */
} br_scatter;

/* Qn of the n finite values x (NANs and infinities skipped) with its
 * small-sample factor, as above: O(n log n) time, 7 n doubles or words of
 * memory. NAN with fewer than 2 finite values or out of memory. Pure. */
double br_scatter_qn(const double *x, size_t n);

/* The scatter of the log ratios x[0..n) (NAN: a case not compared, left
 * out) with drift floor `floor` (a fraction >= 0) into *out; out->n is 0
 * with fewer than BR_SCATTER_MIN_CASES finite values. Never fails (out of
 * memory: out->n 0). */
void br_scatter_fit(br_scatter *out, const double *x, size_t n, double floor);

#ifdef __cplusplus
}
#endif
#endif
