/* baseline.h - baselines per suite and device, and the regression gate.
 *
 * A baseline is a results document (reporters/json.c, read back by
 * resultsfile.h) holding one run of one suite, kept in the repository at
 * baselines/<suite>/<device>.json. Comparing a run with its baseline matches
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
#ifndef BR_BASELINE_H
#define BR_BASELINE_H

#include <stddef.h>

#include "results.h"

#ifdef __cplusplus
extern "C" {
#endif


/* The name a baseline is filed under for run r: the GPU's name when the run
 * had a device, else the host CPU's model, else "host". Borrowed from r. */
const char *br_baseline_device(const br_run *r);

/* `device` made file-safe into buf: every run of characters other than ASCII
 * letters, digits, '.', '_' and '-' becomes one '-', without a leading or
 * trailing '-' ("NVIDIA H100 80GB HBM3" -> "NVIDIA-H100-80GB-HBM3"; "" or
 * nothing left -> "unknown"). Truncated to len - 1 bytes. */
void br_baseline_file_name(char *buf, size_t len, const char *device);

/* The baseline file of run r under `dir`: dir/<suite>/<device>.json with the
 * suite name and br_baseline_device made file-safe. When dir is NULL:
 * <work tree>/baselines of the git repository that holds the suite
 * (r->git), or ./baselines outside a repository. Caller frees; NULL (error
 * set) when out of memory. */
char *br_baseline_path(const char *dir, const br_run *r);

/* Read the baseline of run r from `path`: the run of the same suite name in
 * that results document, moved into *out (disposed by the caller with
 * br_run_dispose, also after a failure). Returns 0; 1 when `path` does not
 * exist (*out zeroed); -1 with the error set when the file cannot be read,
 * is not a results document, or holds no run of r's suite. */
int br_baseline_load(br_run *out, const char *path, const br_run *r);

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

/* Counts of what br_baseline_save wrote. */
typedef struct br_save_stats {
    size_t written; /* OK cases of the run written (new or replacing the old entry) */
    size_t kept;    /* cases of the old baseline kept: not in the run, or not OK in it */
    size_t dropped; /* old cases dropped: their parameters no longer match the suite's */
    size_t refused; /* cases of the run not written: failed or skipped */
} br_save_stats;

/* Write run r as the baseline at `path` (its directory is created),
 * atomically: the document is written to a temporary file in the same
 * directory, fsync'ed and renamed over `path` (br_write_atomic), so a crash
 * or SIGKILL at any point leaves the previous baseline whole. When `path`
 * holds a baseline of the same suite, cases of r replace the entries with
 * the same kernel and parameter values and every other entry is kept, with
 * the commit and date it was measured at (a partial run, -k, updates only
 * its cases). Failed and skipped cases are never written. A case saved again
 * at the same commit, with neither work tree dirty, keeps its earlier run
 * medians and adds its own (at most BR_RUN_MEDIANS_MAX); otherwise its run
 * medians restart with its own. *out_stats may be
 * NULL. Returns 0; -2 with the error set when an existing file is refused
 * rather than overwritten (not a readable baseline of this suite, or
 * another device's); -1 with the error set for any other failure (a write
 * error). */
int br_baseline_save(const char *path, const br_run *r, br_save_stats *out_stats);

#ifdef __cplusplus
}
#endif
#endif
