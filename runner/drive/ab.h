/* SPDX-License-Identifier: Apache-2.0 */
/* The driver of `benchrun ab OLD [NEW] SUITE...`: each suite's
 * kernels built as they are at commit OLD (results/gittree.h: the commit's
 * files in a scratch directory under the compile cache) and at NEW (the work
 * tree as it is, or another commit), both into the same compile cache; the
 * two builds of every case measured in one worker session, alternating in
 * blocks (ab.h); the ratio NEW/OLD of every case with its confidence
 * interval and the paired test's decision (gate/abstats.h,
 * abcompare.h); the outputs; the exit status as the gate's. */
#ifndef BR_ABRUN_H
#define BR_ABRUN_H

#include <stddef.h>

#include "gate/gate.h"
#include "outcome.h"
#include "outputs.h"
#include "plan/run_opts.h"

/* What `benchrun ab` asks for. */
typedef struct br_ab_opts {
    const char *old_rev;       /* OLD: any revision git understands */
    const char *new_rev;       /* NEW: a revision, or NULL for the work tree as it is */
    const char *const *suites; /* suite files, as paths in the work tree */
    size_t n_suites;
    size_t blocks;     /* blocks per side and case (>= 2) */
    br_run_opts run;   /* -k, -p, the measurement overlay, jobs, cache dir, quiet, progress */
    br_gate_opts gate; /* threshold and alpha (NAN: abstats.h's defaults), fail_on */
    br_outputs
        outputs; /* json, markdown, gbench (each NULL or a path, "-": stdout), ascii, color */
    void (*before_measure)(void); /* called once before measuring (signal handlers); or NULL */
    /* The gate's confirmation (confirm.h) asks for less: only the NEW cases whose
     * br_baseline_case_key is among keys[0..n_keys) are paired (NULL: every case);
     * no case is begun after br_now_ns() passes deadline_ns (0: no bound), the
     * others skipped, said so; silent: no note, table, output or summary; done
     * (when not NULL) is handed each suite's runs, NEW's with its comparison,
     * before they are disposed: a nonzero return fails the run. */
    char *const *keys;
    size_t n_keys;
    double deadline_ns;
    int silent;
    int (*done)(void *ctx, const br_run *old_run, const br_run *new_run);
    void *done_ctx;
} br_ab_opts;

/* Run `benchrun ab` as o says. Bad input before anything is measured (an
 * unknown revision, a suite or source missing at a commit, a suite that does
 * not load there, a kernel in one side's plan but not the other's, no case
 * in common, a kernel that no module defines) says why on stderr, writes
 * nothing and sets out->error; the scratch directories are removed in every
 * case. Prints the NEW run's table with the comparison box on stdout (unless
 * an output takes stdout), writes --json and --gbench with both runs (OLD
 * first: its suite and sources named REV:PATH with OLD's short SHA, its git
 * record OLD's commit) and --markdown with NEW's run and the comparison,
 * then a summary on stderr (unless quiet). Fills *out (zeroed first):
 * ok/failed/skipped count NEW's cases, slower when a comparison fails the
 * run under o->gate.fail_on, stopped, write_failed. Returns 0, or -1 when
 * out->error was set. */
int br_ab_run(br_outcome *out, const br_ab_opts *o);

#endif
