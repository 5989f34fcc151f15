/* SPDX-License-Identifier: Apache-2.0 */
/* A baseline made from a results directory (`benchrun
 * --history DIR`): the last K runs of the suite on this device at other
 * commits, as Conbench compares a run with the distribution of its
 * lookback window (the last runs on the default branch; conbench,
 * "lookback z-score"). Each run is merged in, oldest first, as
 * --save-baseline merges one (gate/baseline.h, br_baseline_merge): every
 * case gets the run medians of the runs that measured it, and the newest
 * run's samples and figures, so the gate (gate/drift.h) judges this run
 * against the spread of those K runs. */
#ifndef BR_LOOKBACK_H
#define BR_LOOKBACK_H

#include <stddef.h>

#include "model/run.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The baseline of run `cur` from the results documents in `dir`
 * (history.h reads them): of the runs of cur's suite measured on cur's
 * device (br_baseline_device) at a commit other than cur's (every run
 * when cur is outside git; a run outside git counts as another commit),
 * the newest `keep` (1..BR_REGRESSION_KEEP_MAX) in commit order, merged
 * oldest first into *out (disposed by the caller with br_run_dispose, also
 * after a failure), and their count into *out_runs. Each case then keeps
 * only the run medians of the runs at its current level: of the newest
 * BR_REGRESSION_KEEP_MAX such runs, those after the last change point of
 * its medians (changepoint.h, the defaults), the last `keep` of them; so a
 * real step in the history does not widen the spread the gate judges by
 * (issue 38: across a 2x step the MDE read 221-264%). Returns 0; 1 when
 * there is no such run (no results file, none of this suite, device or
 * another commit: *out zeroed); -1 with the error set (a file that is not
 * a results document, out of memory). */
int br_history_baseline(br_run *out, size_t *out_runs, const char *dir, const br_run *cur,
                        size_t keep);

#ifdef __cplusplus
}
#endif
#endif
