/* SPDX-License-Identifier: Apache-2.0 */
/* drift.h - the regression gate's decision for one case: is the change of
 * its median beyond what a whole rerun moves it (the between-run drift),
 * given how well this run pins its own median (the within-run uncertainty)?
 *
 * Spread known (the baseline holds k >= 2 run medians m_1..m_k, saved at one
 * commit; baseline.h). On the log scale a run median is x = ln(median); the
 * k baseline values have mean xbar and standard deviation s (k - 1 degrees of
 * freedom), which estimates how far a whole rerun moves the case, its
 * within-run error included. If the code did not change, a new run's x
 * differs from xbar by a t-distributed amount: (x - xbar) / (s sqrt(1 + 1/k))
 * ~ t(k - 1), the prediction interval for one future observation of a
 * normal sample (G. J. Hahn and W. Q. Meeker, Statistical Intervals, Wiley
 * 1991, section 4.6; NIST/SEMATECH e-Handbook of Statistical Methods,
 * section 7.2.2). benchrun adds this run's own uncertainty of its median,
 * w = the half-width of ln of its 95% distribution-free CI (stats.h) / z:
 *
 *   se = sqrt(s^2 (1 + 1/k) + w^2),  p_runs = 2 P(t(k-1) > |x - xbar| / se)
 *
 *   slower / faster   |change| > threshold AND p_runs < alpha
 *   same              otherwise: a change inside the prediction interval is
 *                     what a rerun of unchanged code does ("within the
 *                     between-run spread")
 *
 * change = exp(x - xbar) - 1: the reference is the geometric mean of the run
 * medians. False-alarm rate: when unchanged code's log run medians are
 * independent and normal with one variance, |x - xbar| / (s sqrt(1 + 1/k))
 * is exactly t(k-1); se only adds w^2 >= 0, so P(p_runs < alpha) <= alpha and
 * P(a false `slower`) <= alpha / 2 per case and comparison (0.5% at the
 * default alpha 0.01), less where the threshold binds. The spread is not
 * pooled across cases: on the H100 a rerun moves 5 us kernels by 3-5% and
 * large ones by 0.1-0.5%, so one pooled figure would understate the small
 * sizes' drift and break the bound.
 *
 * Spread unknown (k < 2: one save, or `benchrun compare` of two results
 * files): no between-run figure exists, so none is assumed; the decision is
 * conservative and says "spread unknown". A change beyond the threshold is
 * slower or faster only when the Mann-Whitney U test (mannwhitney.h) finds it
 * at alpha, neither side is flagged too noisy (stopped before reaching
 * max_noise: the N flag of reports), and the change stays beyond the
 * threshold even at the far ends of both medians' 95% CIs (current CI low
 * over baseline CI high). Its false-alarm rate is bounded only when there is
 * no between-run drift; reports say "spread unknown".
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
 * could have called slower in this comparison: max(threshold, exp(t se) - 1)
 * with t the 1 - alpha/2 quantile of t(k-1) (spread known); (1 + threshold)
 * times the two CI half-widths (spread unknown); in time terms, so with
 * differing clocks the larger of time's and cycles' requirement. */
#ifndef BR_DRIFT_H
#define BR_DRIFT_H

#include "model/run.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Decide entry e from baseline timing bt and current timing ct (both
 * present, with samples, on the same clock) under `rules` (threshold >= 0,
 * 0 < alpha < 1) as above: fills base_median, cur_median, base_n, cur_n,
 * change, p_value, p_exact, p_runs, spread, spread_runs, mde, decided_by,
 * base_mhz, cur_mhz, cycles_change, status and why. Returns 0, or -1 with the
 * error set (out of memory, a sample not finite). */
int br_drift_judge(br_compare_entry *e, const br_timing *bt, const br_timing *ct,
                   const br_regression_cfg *rules);

/* The standard error of ln(median) of timing t from its 95% CI (stats.h):
 * (ln ci_high - ln ci_low) / (2 z), z the normal quantile of (1 + ci_level)
 * / 2; NAN when the CI is not known (fewer than 6 samples) or not positive. */
double br_drift_median_se(const br_timing *t);

/* Whether timing t is flagged too noisy: it stopped before its noise
 * reached max_noise (stop_reason set and not "noise"; the N flag of
 * reports). */
int br_drift_noisy(const br_timing *t);

#ifdef __cplusplus
}
#endif
#endif
