/* SPDX-License-Identifier: Apache-2.0 */
/* The regression gate's decision for one case: is the change of
 * its median beyond what a whole rerun moves it (the between-run drift),
 * given how well this run pins its own median (the within-run uncertainty)?
 *
 * On the log scale a run median is x = ln(median). The baseline holds the
 * case's k run medians m_1..m_k (its last k saves, baseline.h); their logs
 * have mean xbar and, for k >= 2, sample variance s^2 on d = k - 1 degrees
 * of freedom (at least (tick / median)^2 / 12, what rounding to the clock's
 * tick alone gives, Sheppard's correction: drift.c): how far a whole rerun
 * moves the case, its within-run error included. If the code did not change,
 * a new run's x differs from xbar by a t-distributed amount, (x - xbar) /
 * (sigma~ sqrt(1 + 1/k)) ~ t(df): the prediction interval for one future
 * observation of a normal sample (G. J. Hahn and W. Q. Meeker, Statistical
 * Intervals, Wiley 1991, section 4.6; NIST/SEMATECH e-Handbook of
 * Statistical Methods, section 7.2.2), with the variance sigma~^2 and its
 * degrees of freedom df as follows.
 *
 * Power never falls as saves accumulate. A case's variance always combines
 * what is known without its own medians (a lender: a variance v_L on df_L
 * degrees of freedom) with what its own medians say, as a normal variance's
 * scaled inverse chi-square prior is updated by data (A. Gelman et al.,
 * Bayesian Data Analysis, 3rd ed., CRC 2013, section 2.6; the same
 * combination as Smyth's moderated variance, prior.h):
 *
 *   sigma~^2 = (df_L v_L + d s^2) / (df_L + d)   on df_L + d degrees of freedom,
 *
 * so the degrees of freedom only grow with the saves, and no case is judged
 * on t(1). The lender is one of these, compared at the level the gate chooses at
 * (br_drift_pool.choice_alpha), by the half-width q(df_L) sqrt(v_L) it alone
 * gives, of:
 *
 *   assumed    always there: the documented drift D = BR_DRIFT_ASSUMED (GPU,
 *              1.5%) or BR_DRIFT_ASSUMED_HOST (host, 5%) as an informative
 *              prior worth BR_DRIFT_ASSUMED_DF degrees of freedom;
 *   suite      a prior fitted to the suite's cases (prior.h, Smyth 2004):
 *              their saves' variances and, with BR_SCATTER_MIN_CASES or
 *              more cases compared, this run's centred squared log ratios,
 *              one degree of freedom a case (scatter.h): s0^2(c) on d0'(c);
 *   pooled     for a case with one run median, the pooled variance of the 1
 *              or 2 cases that have a spread of their own (fewer than
 *              BR_PRIOR_MIN_CASES) on their summed df.
 *
 * For a case with one run median the sharpest of them lends, so that one
 * save is never judged deafer than the assumed drift allows (a prior
 * fitted to the run's ratios alone, one degree of freedom a case, put
 * some cases of 36 on t(1.6) and an MDE of 10^4 %). For a case with a
 * spread of its own the suite's prior lends; but one fitted to fewer than
 * BR_DRIFT_FEW_CASES cases (4 cases saved twice once fitted d0' = 1.6, and
 * 2 saves went deaf) yields to the assumed drift where that is sharper, no
 * smaller and worth more degrees of freedom: a case the suite knows to be
 * noisier keeps its larger spread, and a prior that is merely unsure gives
 * way to the assumed drift's 20 degrees of freedom. Over 12 cases a prior
 * always lends to a case with saves of its
 * own (its false-alarm bound is simulated in tests/gate/test_prior.c).
 * tests/gate/test_power.c simulates the false alarms and the expected MDE
 * at every suite size from 1 to 36 cases and 1 to 10 saves. spread_from
 * names it: "assumed" or "pooled" (the suite's prior or the few cases'
 * pool) for a case with one run median; "moderated" (the suite's prior)
 * or "assumed+runs" for one with its own. When the lender is the assumed
 * drift and the case has one run median, the baseline's own uncertainty
 * w_b^2 is added (below); a measured spread has it in.
 *
 * benchrun adds this run's own uncertainty of its median, w_c = the
 * half-width of ln of its 95% distribution-free CI (stats.h) / z:
 *
 *   se = sqrt(sigma~^2 (1 + 1/k) + w_c^2),  p_runs = 2 P(t(df) > |x - xbar| / se)
 *
 *   slower / faster   |change| > threshold AND p_runs < alpha (the level
 *                     compare.c judges the case at: the suite's alpha spread
 *                     over the run's cases, family.h)
 *   same              |change| <= threshold, or inside the interval ("within
 *                     the between-run spread")
 *   unknown           inside the interval because the runs' own uncertainty
 *                     dominates se (w_c^2, and w_b^2 when assumed, above the
 *                     between-run term): "too noisy to tell (N)" when this
 *                     run's timing did not converge (br_timing_converged: the
 *                     N of its flags), else "within the runs' own
 *                     uncertainty" (a converged case is never "too noisy");
 *                     no CI (fewer than 6 samples: "too few samples")
 *
 * change = exp(x - xbar) - 1: the reference is the geometric mean of the run
 * medians. False alarms: when unchanged code's log run medians are
 * independent and normal with the variance the prior gives the case,
 * (x - xbar) / (sigma~ sqrt(1 + 1/k)) is t(df) (Smyth 2004, section 3), se
 * only adds w_c^2 >= 0, so P(p_runs < alpha) <= alpha and a false `slower`
 * has probability at most alpha / 2, less where the threshold binds. Under
 * the prior this holds on average over the suite's cases; a case whose true
 * spread is far above what its duration and its own runs suggest gets more
 * (docs/baselines.md gives the simulated figures, tests/gate/test_prior.c
 * checks them). With one save and no prior (assumed, on t(20)), a 2x
 * slowdown of a converged case is always slower: a converged CI is within +-max_noise/20
 * (measure.h) or a few ticks, and the MDE stays under 100% for any pair of
 * CIs narrower than +-25%.
 *
 * Cycles. On the GPU every sample's SM clock is recorded; when the median
 * clocks of the two sides differ, the change is also judged in cycles (time x
 * clock: x + ln(cur_mhz / base_mhz), with the same se), and slower or faster
 * needs both to agree, as NVBench's nvbench_compare_robust confirms a timing
 * gap in cycle space (NVIDIA/nvbench, docs/nvbench_compare_robust.md, "Confirm
 * Clear Gap In Cycle Space"). When one of the two says same, the case is
 * same, decided by that one ("cycles": the clock explains the change in time;
 * "time": a memory-bound kernel's time did not follow the clock); opposite
 * verdicts are unknown. decided_by says which decided.
 *
 * Minimum detectable effect (mde): the smallest slowdown the rules above
 * could have called slower in this comparison: max(threshold, exp(q se) - 1)
 * with q the 1 - alpha/2 quantile of t(df) (the normal's for infinite df); with differing clocks
 * the larger of time's and cycles' requirement, in time terms. NAN when this run's CI is unknown.
 */
#ifndef BR_DRIFT_H
#define BR_DRIFT_H

#include "model/run.h"
#include "model/types.h"
#include "prior.h"
#include "scatter.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The between-run drift assumed for a case whose backend lends nothing
 * sharper (above), per backend (a fraction: the standard deviation of
 * ln(run median)). GPU: three saves of a bandwidth-bound copy kernel on an
 * H100 spread by 0.2-1% at n = 2^21..2^28 (docs/baselines.md): 1.5% covers
 * them with room. Host: the H100 machine's host reduction spread by 3.6% and
 * 3.7% over three saves, and a shared CPU moves a host kernel by 4% and
 * more: 5%, which keeps a 2x slowdown far above the MDE (2.576 x sqrt(2) x
 * 5% = 18%). */
#define BR_DRIFT_ASSUMED      0.015
#define BR_DRIFT_ASSUMED_HOST 0.05
/* The degrees of freedom the assumed drift is worth as a prior (drift.h,
 * "Power"): the log of a variance on nu degrees of freedom has a standard
 * deviation of about sqrt(2 / nu), so 20 holds D to within about +-16%, as
 * 21 saves of the case itself would. On t(20) a case saved once needs 2.85
 * standard errors at alpha 0.01 (2.58 on the normal); a case's own medians
 * weigh in with each save (9 of 29 parts at 10 saves). */
#define BR_DRIFT_ASSUMED_DF 20.0
/* A suite prior fitted to fewer cases than this yields to a sharper lender
 * for a case with saves of its own (drift.h, "Power"): twice
 * BR_PRIOR_CASES_PER_TERM, the cases a trend's line is fitted from. */
#define BR_DRIFT_FEW_CASES 12

/* What the cases of one backend of a baseline lend each other (compare.c
 * fills one per backend, br_drift_pool_fit). */
typedef struct br_drift_pool {
    br_prior prior;      /* fitted to the cases with two or more run medians (prior.h); n 0: none */
    br_prior few;        /* without a prior: the pooled variance of the 1 or 2 cases that have a
                            spread of their own, on their summed df (br_prior_pooled); n 0: none */
    br_scatter scatter;  /* this run's scatter: the cases whose centred log ratio joined the
                            prior's fit (scatter.h); n 0: none */
    br_backend backend;  /* which assumed drift applies */
    double choice_alpha; /* the level at which the lenders are compared
                            (the suite's alpha, for every pass of family.h: one choice per
                            pool); 0: the level the case is judged at */
} br_drift_pool;

/* Fill *out for the n cases of one backend: s2[i], d[i], c[i] as
 * br_drift_spread_of gives them for baseline case i, x[i] its log ratio
 * (br_drift_log_ratio; NAN when not compared in this run). Returns 0, or -1
 * (error set) when out of memory. */
int br_drift_pool_fit(br_drift_pool *out, br_backend backend, const double *s2, const double *d,
                      const double *c, const double *x, size_t n);

/* ln(ct's median / bt's reference), the reference being the geometric mean
 * of bt's run medians (drift.h above); NAN when either is not positive.
 * Pure. */
double br_drift_log_ratio(const br_timing *bt, const br_timing *ct);

/* What a baseline timing offers the prior (prior.h): the sample variance
 * *out_s2 of the logs of its run medians on *out_d = k - 1 degrees of
 * freedom, at least (tick / median)^2 / 12, the rounding of a median read on
 * bt's tick (drift.c; NAN and 0 with fewer than two usable medians), and the
 * covariate *out_c = ln of its reference median (NAN when not positive).
 * Pure. */
void br_drift_spread_of(double *out_s2, double *out_d, double *out_c, const br_timing *bt);

/* Decide entry e from baseline timing bt and current timing ct (both
 * present, with samples, on the same clock) under `rules` (threshold >= 0,
 * 0 < alpha < 1) and what bt's suite, device and backend lend it (NULL:
 * nothing, a GPU case's assumed drift) as above: fills base_median, cur_median, base_n, cur_n,
 * change, p_value (the Mann-Whitney U test of the samples: within-run
 * evidence, shown, not decisive), p_exact, p_runs, spread (sigma~),
 * spread_runs (k), spread_df, spread_from, mde, decided_by, base_mhz,
 * cur_mhz, cycles_change, status and why. Returns 0, or -1 with the error
 * set (out of memory, a sample not finite). */
int br_drift_judge(br_compare_entry *e, const br_timing *bt, const br_timing *ct,
                   const br_regression_cfg *rules, const br_drift_pool *pool);

/* The standard error of ln(median) of timing t from its 95% CI (stats.h):
 * (ln ci_high - ln ci_low) / (2 z), z the normal quantile of (1 + ci_level)
 * / 2; NAN when the CI is not known (fewer than 6 samples) or not positive. */
double br_drift_median_se(const br_timing *t);

#ifdef __cplusplus
}
#endif
#endif
