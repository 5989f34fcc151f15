/* SPDX-License-Identifier: Apache-2.0 */
/* The driver of `benchrun run-range A..B SUITE.yaml...`: measure the
 * suites at each commit of B's first-parent line after A (git's A..B, as
 * `asv run A..B` does), one results file per commit in a results directory,
 * so that `benchrun history DIR` and `benchrun publish DIR` show the trend
 * over commits that were never run.
 *
 * Flow: the line A..B (results/gitlog.h); with a step N every Nth commit
 * counted back from B (B always); the commits DIR already holds a results
 * file of (range_done.h) are not measured again, so a range that was
 * interrupted resumes where it stopped. Each commit left, oldest first, is
 * checked out as bisect does (results/gittree.h: into
 * <cache>/run-range/<sha>; the work tree, index and HEAD are not touched),
 * its suites loaded, built into the compile cache and measured as a run
 * would measure them there, in a worker session of its own
 * (range_commit.h); its results file carries the commit's git record, as if
 * the run had been made at that commit. A commit whose suites do not load
 * or whose kernels do not build is skipped, said, as git bisect skip does.
 */
#ifndef BR_RANGE_H
#define BR_RANGE_H

#include <stddef.h>

#include "outcome.h"
#include "plan/run_opts.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What `benchrun run-range` asks for. */
typedef struct br_range_opts {
    const char *from, *to;     /* A and B: revisions git understands; A is not measured */
    const char *const *suites; /* suite files, paths in the work tree */
    size_t n_suites;
    const char *results_dir;      /* where the results files go (created when missing) */
    size_t step;                  /* >= 1: every step-th commit counted back from B */
    br_run_opts run;              /* -k, -p, jobs, cache dir, quiet, progress */
    void (*before_measure)(void); /* called once before measuring (signal handlers); or NULL */
} br_range_opts;

/* Split "A..B" into *from and *to (pointers into buf, a copy of spec of
 * len bytes): an empty side is HEAD, as git reads "A.." and "..B". Returns
 * 0, or -1 with the error set (kind BR_E_INPUT) when spec has no "..", has
 * "..." (git's symmetric difference, no line of commits), or is ".." alone. */
int br_range_split(char *buf, size_t len, const char *spec, const char **from, const char **to);

/* Run `benchrun run-range` as o says: one line per commit on standard
 * output as it ends ("measured", "measured before", "skipped: why",
 * "interrupted"), then the totals and the next command. Bad input before
 * anything is measured (an unknown revision, A not an ancestor of B on its
 * first-parent line, a results directory that cannot be made) says why on
 * stderr and sets out->error. A commit where a case failed still writes its
 * results file and sets out->failed; a file that could not be written sets
 * out->write_failed; an interrupt leaves the commit being measured without
 * a file (a resumed range measures it) and sets out->stopped. The
 * checkouts are removed in every case. Returns 0, or -1 when out->error
 * was set. */
int br_range_run(br_outcome *out, const br_range_opts *o);

#ifdef __cplusplus
}
#endif
#endif
