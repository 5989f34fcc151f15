/* SPDX-License-Identifier: Apache-2.0 */
/* Baselines per suite and device, and the regression gate.
 *
 * A baseline is a results document (results/run_write.h, read back by
 * results/run_read.h) holding one run of one suite, kept in the repository at
 * baselines/<suite>/<device>.json. Comparing a run with its baseline, and
 * the rules of the regression gate, are in compare.h. Each save appends to
 * each case's run medians, which tell how far a rerun moves the case
 * (br_timing.run_medians). */
#ifndef BR_BASELINE_H
#define BR_BASELINE_H

#include <stddef.h>

#include "case_key.h"
#include "model/run.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The baseline file of run r under `dir`: dir/<suite>/<device>.json with the
 * suite name and br_baseline_device made file-safe. When dir is NULL:
 * <work tree>/baselines of the git repository that holds the suite
 * (r->git); outside a repository, baselines/ beside the suite's folder when
 * that folder is named suites (DIR/suites/x.yaml: DIR/baselines, the layout
 * of a repository and of `benchrun init`), else baselines/ in the suite's
 * folder (DIR/x.yaml: DIR/baselines), so a run from any directory finds it
 * (relative to the current directory when r->suite_path is). Caller frees;
 * NULL (error set) when out of memory. */
char *br_baseline_path(const char *dir, const br_run *r);

/* Read the baseline of run r from `path`: the run of the same suite name in
 * that results document, moved into *out (disposed by the caller with
 * br_run_dispose, also after a failure). Returns 0; 1 when `path` does not
 * exist (*out zeroed); -1 with the error set when the file cannot be read,
 * is not a results document, or holds no run of r's suite. */
int br_baseline_load(br_run *out, const char *path, const br_run *r);

/* Counts of what br_baseline_save wrote. */
typedef struct br_save_stats {
    size_t written; /* OK cases of the run written (new or replacing the old entry) */
    size_t kept;    /* cases of the old baseline kept: not in the run, or not OK in it */
    size_t dropped; /* old cases dropped: their parameters no longer match the suite's */
    size_t refused; /* cases of the run not written: failed or skipped */
} br_save_stats;

/* Merge run r into the baseline `old` (NULL: none; borrowed), as a save does
 * (br_baseline_save below, without the file): into *out (disposed by the
 * caller with br_run_dispose, also after a failure) r's OK cases, each with
 * its old entry's run medians and its own median appended (the last
 * r->regression.keep kept), and old's other cases whose parameters still
 * match r's. With `restart`, a case whose kernel's source changed (the git
 * blob ids of br_run_kernel.source_sha differ, both known) starts its
 * medians over. *out_stats may be NULL. Returns
 * 0, or -1 with the error set (out of memory). */
int br_baseline_merge(br_run *out, const br_run *old, const br_run *r, int restart,
                      br_save_stats *out_stats);

/* Write run r as the baseline at `path` (its directory is created),
 * atomically: the document is written to a temporary file in the same
 * directory, fsync'ed and renamed over `path` (br_write_atomic), so a crash
 * or SIGKILL at any point leaves the previous baseline whole. When `path`
 * holds a baseline of the same suite, cases of r replace the entries with
 * the same kernel and parameter values and every other entry is kept, with
 * the commit and date it was measured at (a partial run, -k, updates only
 * its cases). Failed and skipped cases are never written. Each case saved
 * appends its median to its old entry's run medians and keeps the last
 * r->regression.keep (every save makes the between-run spread better known,
 * whatever the commit: the lookback of Conbench's history, which takes a
 * case's last runs on the default branch as its distribution); the record
 * starts over with this run's median when the old one was timed on another
 * clock, or when the case's code changed (its kernel's source, by git blob
 * id: br_run_kernel.source_sha), never because a rerun read differently: the
 * old medians describe other code. The whole read, merge and rename happen
 * under an advisory lock on the hidden file .NAME.lock beside it
 * (base/lock.h): a second save waits
 * (saying so after a second unless quiet), for at most
 * BR_BASELINE_LOCK_TIMEOUT_NS. *out_stats may be NULL. Returns 0; -2 with
 * the error set, of kind BR_E_INPUT, when an existing file is refused
 * rather than overwritten (not a readable baseline of this suite, or
 * another device's) or the lock was not had in time; -1 with the error set
 * for any other failure (a write error). */
int br_baseline_save(const char *path, const br_run *r, br_save_stats *out_stats, int quiet);

/* How long a save waits for another save of the same baseline, ns. A save
 * holds the lock for the milliseconds of one read, merge and write. */
#define BR_BASELINE_LOCK_TIMEOUT_NS 60e9

#ifdef __cplusplus
}
#endif
#endif
