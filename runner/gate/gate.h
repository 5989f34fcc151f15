/* SPDX-License-Identifier: Apache-2.0 */
/* The regression gate of a run: the rules (the suite's, with the
 * command line's over them), the comparison with the baseline file and
 * --save-baseline. Used by the pipeline and by `benchrun compare`. */
#ifndef BR_GATE_H
#define BR_GATE_H

#include "model/run.h"

/* What the baseline options ask for. */
typedef struct br_gate_opts {
    const char *baseline;      /* --baseline FILE, or NULL */
    const char *dir;           /* --baseline-dir DIR, or NULL */
    const char *history;       /* --history DIR: compare with the last runs in DIR, or NULL */
    int save;                  /* --save-baseline */
    int no_compare;            /* --no-compare */
    int force_device;          /* --force-device */
    int fail_on;               /* br_fail_on: when a comparison fails the run */
    double threshold;          /* --threshold as a fraction; NAN: the suite's */
    double alpha;              /* --alpha; NAN: the suite's */
    int confirm;               /* br_confirm_mode: --confirm (gate/confirm.h) */
    double confirm_timeout_ns; /* --confirm-timeout: the confirmation's bound, ns (> 0) */
    /* What the run left out on purpose (-k globs, -p values; borrowed, may
     * be NULL): baseline cases outside them are "not compared", not missing
     * (br_comparison_scope). */
    const char *const *patterns;
    size_t n_patterns;
    const struct br_param_override *params;
    size_t n_params;
} br_gate_opts;

/* *g with no option given (thresholds NAN, fail on slower, confirm auto within
 * BR_CONFIRM_TIMEOUT_NS). */
void br_gate_opts_init(br_gate_opts *g);

/* The rules for run r: the suite's (defaults where unset), with g's over
 * them. */
br_regression_cfg br_gate_rules(const br_run *r, const br_gate_opts *g);

/* Compare run r with its baseline (g->baseline, else br_baseline_path
 * under g->dir) and attach the comparison to r (r->comparison, owned by
 * r). Returns 0 (also when there is no baseline yet: said on stderr unless
 * quiet), or -1 with the error set. */
int br_gate_attach(br_run *r, const br_gate_opts *g, int quiet);

/* Compare run r with the baseline run `base` (read from `label`, as
 * reports name it) and attach the comparison to r, replacing any (owned by
 * r); the cases g's -k and -p left out are "not compared". Returns 0, or -1
 * with the error set (another suite, another device unless forced, out of
 * memory). */
int br_gate_attach_base(br_run *r, const br_gate_opts *g, const br_run *base, const char *label);

/* --save-baseline for run r (nothing when no case was measured, said on
 * stderr). Returns 0, or (after saying why on stderr) -2 when an existing
 * file was refused, -1 for any other failure. */
int br_gate_save(const br_run *r, const br_gate_opts *g, int quiet);

#endif
