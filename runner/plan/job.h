/* SPDX-License-Identifier: Apache-2.0 */
/* A suite ready to run: loaded, overridden by the command line,
 * expanded into its plan, with bytes, flops and memory evaluated for every
 * case and the compile-time variants found.
 *
 * Preparing is separate from executing, so every suite given on the
 * command line is checked before anything runs.
 */
#ifndef BR_JOB_H
#define BR_JOB_H

#include <stddef.h>

#include "run_opts.h"
#include "plan.h"
#include "suite/suite.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Most compile-time variants one suite may have. */
#define BR_MAX_VARIANTS 1024

/* A suite ready to run. */
typedef struct br_job {
    br_suite suite;
    br_plan plan;
    double *bytes;  /* owned: per case, bytes per execution; NAN when the suite has none */
    double *flops;  /* owned: per case, FLOP per execution; NAN when the suite has none */
    double *memory; /* owned: per case, its footprint in bytes (`memory`); NAN when none */
    /* Compile-time variants: the distinct value sets of the `defines`
     * params (one variant, with no -D flags, when there are none). */
    size_t n_variants;
    size_t *variant_of;         /* owned: per combination, its variant */
    size_t *variant_combo;      /* owned: per variant, the first combination that has it */
    struct br_job_build *built; /* owned: loaded modules and resolved kernels (compile/resolve.h's
                                   br_job_build sets it, and built_free, which br_job_dispose
                                   calls: the plan knows nothing of builds) */
    void (*built_free)(struct br_job_build *b);
    /* --shard: the job's place in the sharded plan (plan/shard.h sets it; the
     * pipeline moves it into the run); NULL for a whole plan. Owned. */
    struct br_run_shard *shard;
} br_job;

/* Load the suite at `path`, apply the command-line measurement and
 * parameter overrides, expand its plan, evaluate `bytes` and `flops` for
 * every case and find the compile-time variants.
 * Returns 0, or -1 with a file:line:column error (bad input, or overrides
 * that contradict each other or the suite). Dispose *out with br_job_dispose in either case. */
int br_job_prepare(br_job *out, const char *path, const br_run_opts *opts);

/* Release what *j owns; accepts NULL. */
void br_job_dispose(br_job *j);

/* br_case_label (model/run.h) of case i of job's plan: its kernel's name
 * when with_kernel, then each of the suite's parameters ("reduce n=2^20
 * b=256"), into buf[0..len) (cut to fit). Returns the length of the whole
 * label, as snprintf does. */
size_t br_job_case_label(char *buf, size_t len, const br_job *job, size_t i, int with_kernel);

#ifdef __cplusplus
}
#endif
#endif
