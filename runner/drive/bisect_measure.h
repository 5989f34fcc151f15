/* SPDX-License-Identifier: Apache-2.0 */
/* The blocks of one step of `benchrun bisect`: two
 * builds (the GOOD and the BAD end) or three (the good end, the commit
 * tested, the bad end) of the same cases, measured in one worker session
 * in rounds. A round measures every case once on each build, the builds in
 * order (G M B) in even rounds and reversed (B M G) in odd ones, so that
 * drift linear over a round cancels (gate/bisectstats.h); each block is one
 * whole normal measurement of the case (br_case_exec: setup, verify,
 * warmup, samples under the suite's stopping rule, teardown), as a block of
 * `benchrun ab` is. */
#ifndef BR_BISECT_MEASURE_H
#define BR_BISECT_MEASURE_H

#include <stddef.h>

#include "driver.h"
#include "model/types.h"
#include "worker/session.h"

#ifdef __cplusplus
extern "C" {
#endif

struct br_job; /* plan/job.h */

/* The builds of one step and what their blocks came to. */
typedef struct br_bisect_blocks {
    size_t k;                    /* builds: 2 or 3, the good end first, the bad end last */
    const struct br_job *job[3]; /* borrowed; built in the session */
    const size_t *case_of[3];    /* borrowed: per case, its index in job[i]'s plan */
    size_t n_cases;              /* >= 1 */
    const char *label[3];        /* short names for the progress line (borrowed) */
    const char *title;           /* the progress line's head ("step 2"), borrowed */
    double *med[3];              /* owned: per round, the geometric mean over the cases of the
                                    block medians of the headline timing, ns */
    size_t n_rounds;
    int failed;     /* 0, or 1 + the build whose block failed (its module did not build, no
                       usable GPU, setup, verify, run, no timing): the rounds stop there */
    br_stage stage; /* that block's stage (BR_STAGE_RUN for a missing timing) */
    char *why;      /* owned: that block's "stage: message" (the stage by its codec name);
                       NULL when none failed */
} br_bisect_blocks;

/* Measure `rounds` more rounds (appended to med) in s, each block through
 * the drivers' shared policy (drive/driver.h: br_driver_unrunnable,
 * br_driver_settle, br_driver_measure) with l the invocation's ledger. The
 * headline timing is the last build's (the bad end's suite). A case whose
 * module did not build, that has no usable GPU, or whose block fails sets
 * failed, stage and why and ends the measuring (the rounds then are what
 * was complete). Prints a progress line on a terminal (session
 * opts.progress). Returns 0 (check failed), 1 when an interrupt stopped a
 * block, -1 with the error set (out of memory). */
int br_bisect_blocks_add(br_bisect_blocks *b, br_session *s, br_driver_ledger *l, size_t rounds);

/* Release what *b owns (med, why); keeps the borrowed fields. */
void br_bisect_blocks_dispose(br_bisect_blocks *b);

#ifdef __cplusplus
}
#endif
#endif
