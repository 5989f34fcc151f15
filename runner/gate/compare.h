/* SPDX-License-Identifier: Apache-2.0 */
/* The regression gate: a run compared with its baseline.
 *
 * Comparing a run with its baseline (baseline.h) matches cases by kernel
 * name and parameter values and, per case, decides on the headline timing
 * (cold or batch) whether it is slower, faster or the same, from the
 * between-run spread of the baseline's run medians together with this run's
 * within-run uncertainty, in time and, when the SM clocks differ, in cycles
 * (drift.h: the method, its sources, its false-alarm rate and the minimum
 * detectable effect), each case's spread moderated by the prior of the
 * baseline's cases of its backend (prior.h):
 *
 *   slower   |change| > threshold and significant (drift.h) at the
 *            comparison's case level: alpha spread over its cases by the
 *            Benjamini-Hochberg procedure (family.h), so that unchanged
 *            code has a slower or faster case in this comparison (one suite)
 *            with probability at most alpha (family.h: the conditions)
 *   faster   likewise, the median shrank
 *   same     |change| <= threshold, or within the between-run spread
 *   unknown  too few samples, within the runs' own uncertainty ("too noisy
 *            to tell (N)" when this run's timing did not converge), time and
 *            cycles disagree, or one side has no timing (failed, skipped, or
 *            the baseline lacks that mode)
 *   new      in the run, not in the baseline
 *   missing  in the baseline, not in the run
 *
 * Cases skipped in the run for want of a GPU, and baseline cases the run's
 * -k patterns or -p values left out (br_comparison_scope), are marked "not
 * compared" (br_compare_entry.not_compared) and not counted. */
#ifndef BR_COMPARE_H
#define BR_COMPARE_H

#include <stddef.h>

#include "model/run.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Compare run `cur` with `base` (read from `base_path`) into *out (disposed
 * by the caller with br_comparison_dispose, also after a failure) with the
 * rules `rules` (threshold a fraction >= 0, alpha in (0, 1)). The clock
 * compared is cur's headline mode; out->case_alpha and out->cases_tested
 * say at what level the cases were judged (family.h). Refuses (-1, error set) a baseline of
 * another device (br_baseline_device differs) unless `force_device`, and
 * one of another suite. Returns 0, or -1 with the error set. */
int br_baseline_compare(br_comparison *out, const br_run *base, const char *base_path,
                        const br_run *cur, const br_regression_cfg *rules, int force_device);

/* Mark the missing entries of comparison c (made by br_baseline_compare
 * against `base`) that the run left out on purpose: a baseline case whose
 * kernel matches none of the n_patterns fnmatch(3) globs of -k (when any are
 * given) is "-k"; else one whose value of a param named by one of the
 * n_params -p overrides is not among its values is "-p". Recounts c. */
void br_comparison_scope(br_comparison *c, const br_run *base, const char *const *patterns,
                         size_t n_patterns, const br_param_override *params, size_t n_params);

/* Whether case c (may be NULL) was skipped for want of a GPU; then entry e
 * is marked not compared (not_compared "no GPU", why "skipped: no GPU"),
 * its status unknown when the other side has the case (`paired`), new when
 * not. Such entries are left out of the counts (br_comparison_recount) and
 * summed up on the reports' one not-compared line (br_report_not_compared):
 * the baseline gate's and benchrun ab's alike. Returns 1 when e was marked,
 * else 0 (e untouched). */
int br_compare_skipped_no_gpu(br_compare_entry *e, const br_case_result *c, int paired);

/* Count c's entries again into c->count (entries not compared left out) and
 * the not-compared counts (n_no_gpu, n_left_out_k, n_left_out_p). */
void br_comparison_recount(br_comparison *c);

/* Whether comparison c fails the run under `fail_on`: 1 when it holds a
 * slower case (BR_FAIL_ON_SLOWER), a slower or faster one (BR_FAIL_ON_ANY);
 * never for BR_FAIL_ON_NEVER or c NULL. */
int br_baseline_fails(const br_comparison *c, br_fail_on fail_on);

/* Case c's parameters as the reports show them, in r's param order
 * ("n=2^20 b=256"; "" for a run without params). Caller frees; NULL with the
 * error set when out of memory. */
char *br_compare_params_label(const br_run *r, const br_case_result *c);

#ifdef __cplusplus
}
#endif
#endif
