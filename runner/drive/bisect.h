/* SPDX-License-Identifier: Apache-2.0 */
/* The driver of `benchrun bisect GOOD BAD SUITE.yaml`: find the
 * first commit on BAD's first-parent line after GOOD where the selected
 * cases got slower (or faster), by a binary search whose every step
 * measures the commit tested against the two ends of the range left, in
 * one worker session, interleaved (gate/bisectstats.h has the rule).
 *
 * Flow: the line GOOD..BAD (results/gitlog.h); both ends checked out
 * (results/gittree.h, into <cache>/bisect/<sha>), loaded, built into the
 * compile cache and their common cases chosen; step 0 measures BAD against
 * GOOD as `benchrun ab` does (abstats.h, threshold and alpha): no change,
 * and the search stops there. Then each step checks out, builds and
 * measures the commit nearest the middle of the range left against the
 * range's ends, and classes it good, bad or undecided; a commit that does
 * not build, load or verify is skipped (git bisect skip), as is one
 * still undecided after max_blocks. The answer is the first bad commit, or
 * the range of commits the skipped ones leave. Every commit's module stays
 * in the compile cache under its own key, so a second search compiles
 * nothing. */
#ifndef BR_BISECT_H
#define BR_BISECT_H

#include <stddef.h>

#include "bisect_result.h"
#include "plan/run_opts.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What `benchrun bisect` asks for. */
typedef struct br_bisect_opts {
    const char *good_rev, *bad_rev; /* any revisions git understands */
    const char *suite;              /* the suite file, a path in the work tree */
    size_t blocks;                  /* rounds per look (>= 2) */
    size_t max_blocks;              /* rounds per step at most (>= blocks) */
    double threshold;               /* step 0: smallest change searched (NAN: ab's 0.5%) */
    double alpha;                   /* 1 - confidence (NAN: 0.05) */
    br_run_opts run;                /* -k, -p, the measurement overlay, jobs, cache dir, quiet */
    const char *json, *markdown;    /* outputs (NULL, a path, or "-": stdout) */
    int ascii;                      /* plain ASCII table */
    void (*before_measure)(void);   /* called once before measuring (signal handlers); or NULL */
} br_bisect_opts;

/* What an invocation came to, for the exit status. */
typedef struct br_bisect_outcome {
    int error;        /* bad input or a failure before any answer (said on stderr): exit 2 */
    int failed;       /* an end did not build or a case failed there: exit 1 */
    int stopped;      /* the interrupting signal, or 0 */
    int write_failed; /* an output could not be written (said) */
} br_bisect_outcome;

/* Run `benchrun bisect` as o says. Bad input before anything is measured
 * (an unknown commit, GOOD not an ancestor of BAD on its first-parent line,
 * the suite or a source missing or not loading at an end, no case selected
 * at both ends, an output that cannot be written) says why on stderr,
 * writes nothing and sets out->error; an end whose case does not build or
 * fails sets out->failed, writes nothing. Otherwise prints progress on
 * stderr (unless quiet), the answer and the steps on stdout (unless an
 * output takes it) and writes --json and --markdown (atomically). The
 * scratch directories are removed in every case. Returns 0, or -1 when
 * out->error or out->failed was set. */
int br_bisect_run(br_bisect_outcome *out, const br_bisect_opts *o);

#ifdef __cplusplus
}
#endif
#endif
