/* compare.h - the regression gate: a run compared with its baseline.
 *
 * Comparing a run with its baseline (baseline.h) matches
 * cases by kernel name and parameter values and, per case, tests the two
 * sample sets of the headline timing (cold or batch) with a two-sided
 * Mann-Whitney U test (mannwhitney.h):
 *
 *   slower   p < alpha and median change >  +threshold
 *   faster   p < alpha and median change <  -threshold
 *   same     |median change| <= threshold
 *   unknown  the sample sizes cannot reach p < alpha at all ("too few
 *            samples"), or |change| > threshold without p < alpha ("too
 *            noisy to tell"), or a significant change within twice the
 *            baseline's rerun spread ("within the baseline's rerun
 *            spread"), or one side has no timing (failed, skipped, or the
 *            baseline lacks that mode)
 *   new      in the run, not in the baseline
 *   missing  in the baseline, not in the run
 *
 * Both conditions are needed for slower/faster: with thousands of samples
 * the test finds shifts far below anything a user cares about (a 0.2%
 * drift of the GPU's clocks between two runs), and a large change seen in
 * a handful of noisy samples is not evidence.
 *
 * The test sees the spread of samples within one run, not how far a whole
 * rerun moves a case (on the H100 machine: 3-5% for 5 us kernels timed with
 * events, up to 25-40% for the host reduction on its shared CPU). A
 * baseline therefore learns that: saving it again at the same clean commit
 * appends the new median to each timing's run_medians (br_timing), and a
 * change within twice their spread (max / min - 1) is unknown, not slower. */
#ifndef BR_COMPARE_H
#define BR_COMPARE_H

#include <stddef.h>

#include "results.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Compare run `cur` with `base` (read from `base_path`) into *out (disposed
 * by the caller with br_comparison_dispose, also after a failure) with the
 * rules `rules` (threshold a fraction >= 0, alpha in (0, 1)). The clock
 * compared is cur's headline mode. Refuses (-1, error set) a baseline of
 * another device (br_baseline_device differs) unless `force_device`, and
 * one of another suite. Returns 0, or -1 with the error set. */
int br_baseline_compare(br_comparison *out, const br_run *base, const char *base_path,
                        const br_run *cur, const br_regression_cfg *rules, int force_device);

/* The identity of case c of run r, by which comparisons match cases:
 * "kernel\x1fname=value\x1f..." with the params in the order of their
 * names, so two runs that list the same params in another order still
 * match. Caller frees; NULL (error set) when out of memory. */
char *br_baseline_case_key(const br_run *r, const br_case_result *c);

/* Whether comparison c fails the run under `fail_on`: 1 when it holds a
 * slower case (BR_FAIL_ON_SLOWER), a slower or faster one (BR_FAIL_ON_ANY);
 * never for BR_FAIL_ON_NEVER or c NULL. */
int br_baseline_fails(const br_comparison *c, br_fail_on fail_on);

/* The keys of a run's cases (br_baseline_case_key) with an index sorted by
 * key, to find cases by key in O(log n). */
typedef struct br_case_keys {
    char **keys;   /* per case, owned */
    size_t *order; /* case indices sorted by key */
    size_t n;
} br_case_keys;

/* The keys of every case of r into *out (released with br_case_keys_dispose;
 * nothing to release after a failure). Returns 0, or -1 with the error set
 * (out of memory). */
int br_case_keys_build(br_case_keys *out, const br_run *r);

/* Index of the first case with `key` not yet marked in `used` (one flag per
 * case; duplicates pair up in order; used NULL: the first), or SIZE_MAX. */
size_t br_case_keys_find(const br_case_keys *k, const char *key, const unsigned char *used);

/* Release what *k owns and zero it. */
void br_case_keys_dispose(br_case_keys *k);

#ifdef __cplusplus
}
#endif
#endif
