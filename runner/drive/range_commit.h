/* SPDX-License-Identifier: Apache-2.0 */
/* One commit of `benchrun run-range` measured as a run at that commit
 * would measure it: its files checked out (results/gittree.h), its suites
 * prepared (plan/job.h), built (worker/session.h) and executed
 * (execute.h) in a session of its own, and the runs written to the results
 * directory (outputs.h) with the commit's git record and the suites' and
 * sources' paths as they are in the work tree. */
#ifndef BR_RANGE_COMMIT_H
#define BR_RANGE_COMMIT_H

#include <stddef.h>

#include "plan/run_opts.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How a commit ended. */
typedef enum br_range_end {
    BR_RANGE_MEASURED,     /* its results file written, every case measured or skipped */
    BR_RANGE_CASE_FAILED,  /* its results file written; a case failed there */
    BR_RANGE_SKIPPED,      /* a suite missing or not loading, or a kernel not building: no file */
    BR_RANGE_STOPPED,      /* interrupted: no file (a resumed range measures it) */
    BR_RANGE_WRITE_FAILED, /* the results file could not be written (said on stderr) */
} br_range_end;

/* One commit to measure. */
typedef struct br_range_commit {
    const char *sha;           /* full SHA */
    const char *label;         /* its short SHA, for messages ("1a2b3c4:suite.yaml:3:5: ...") */
    const char *const *suites; /* suite files as given (paths in the work tree) */
    size_t n_suites;
    const char *scratch_root; /* checkouts go under it */
    const char *results_dir;
    const br_run_opts *run;
} br_range_commit;

/* Measure commit c. *end says how it ended; for BR_RANGE_SKIPPED *why gets
 * the reason on one line, its paths in the checkout written as
 * "SHORT:PATH" (caller frees; NULL otherwise); *n_cases the cases of the
 * runs written. The checkout is removed before returning. Returns 0, or -1
 * with the error set for what stops the range (out of memory, a checkout
 * or a worker session that fails). */
int br_range_commit_measure(br_range_end *end, char **why, size_t *n_cases,
                            const br_range_commit *c);

#ifdef __cplusplus
}
#endif
#endif
