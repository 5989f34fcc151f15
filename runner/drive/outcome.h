/* SPDX-License-Identifier: Apache-2.0 */
/* What one invocation of a driver came to (the pipeline, ab,
 * report, compare): the command line maps it to the exit status
 * (br_exit_status, pipeline.h). */
#ifndef BR_OUTCOME_H
#define BR_OUTCOME_H

#include <stddef.h>

/* What an invocation came to. */
typedef struct br_outcome {
    int error;   /* 1: bad input or a failure before the outputs (said on stderr) */
    int listed;  /* 1: --list printed the plan */
    int checked; /* 1: o->check built every suite; ok, failed, skipped count the cases a run
                    would measure, fail (their module did not compile) and skip (no GPU) */
    size_t ok, failed, skipped;
    size_t modules, modules_failed, modules_skipped; /* check: kernel modules built, failed
                                                        to compile or load, not built (no nvcc) */
    int stopped;      /* the signal that stopped the run (br_stop_signal), or 0 */
    int write_failed; /* an output or the baseline could not be written */
    int bad_baseline; /* a baseline could not be read or compared, or was refused */
    int slower;       /* a comparison fails the run under --fail-on */
} br_outcome;

#endif
