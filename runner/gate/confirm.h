/* SPDX-License-Identifier: Apache-2.0 */
/* The second stage of the regression gate: the cases the
 * screen against the saved baseline (or --history) found slower or faster,
 * measured again interleaved against the baseline's own commit (`benchrun
 * ab`'s blocks, abstats.h), and decided by that A/B.
 *
 * A stored baseline compares today's machine with the machine of another
 * day: a loaded machine moves every case of a run together, and a screen
 * that reads it calls them all slower. Interleaving the two builds in the
 * same minutes cancels what drifts (abstats.h), so the A/B decides:
 *
 *   1. the screen judges each case against the baseline (drift.h) at the
 *      suite's alpha, or at BR_SCREEN_ALPHA when a confirmation will follow
 *      (the screen then only chooses what to measure again: it is set for
 *      power);
 *   2. the flagged cases are measured in blocks A B B A ... (A: the
 *      baseline's commit, B: the code under test);
 *   3. their A/B p-values (the paired t test's) are taken together by the
 *      Benjamini-Hochberg procedure at the suite's alpha (family.h); a case
 *      is confirmed when its A/B interval at that level (abstats.h) lies on
 *      the screen's side of 1 and its ratio is beyond the suite's threshold
 *      that way (> 1 + h for slower): the change is real, as the interval
 *      says, and as large as the screen needs; else not confirmed (`same`).
 *      (Asking the whole interval to clear 1 + h, as `benchrun ab` does,
 *      missed a 3% step at 2^26 on an H200: 1.029x [1.014, 1.045].)
 *
 * False alarms: a case of unchanged code is `slower` only when both stages
 * say so. The A/B's blocks are new measurements, independent of the screen
 * given the code, so P(false slower in the run) <= P(screen flags) x
 * P(A/B false | flagged) <= alpha (the BH bound over the flagged cases,
 * whatever the screen's level and whatever shifted the whole run).
 * tests/gate/test_power.c simulates both stages. */
#ifndef BR_CONFIRM_H
#define BR_CONFIRM_H

#include <stddef.h>

#include "model/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The screen's level when a confirmation follows (above): liberal, since
 * the A/B bounds the false alarms; at m cases of which R changed, each is
 * screened at BR_SCREEN_ALPHA R / m (family.h). */
#define BR_SCREEN_ALPHA 0.2

/* Block pairs per flagged case in a confirmation (abstats.h needs two). */
#define BR_CONFIRM_BLOCKS 6

/* The default bound on a confirmation's wall time, ns: the checkout, the
 * build and the blocks; cases not reached by then keep the screen's
 * verdict, said so. */
#define BR_CONFIRM_TIMEOUT_NS 300e9

/* What the A/B said of one flagged case. */
typedef struct br_confirm_case {
    const double *old_med, *new_med; /* per block pair, the median of each side, ns (borrowed) */
    size_t pairs;                    /* block pairs measured; < 2: no verdict (not confirmed) */
    br_change screen;                /* what the screen said: slower or faster */
    /* out: */
    br_change ab;     /* the A/B's verdict at the family's level (the rule above): slower,
                         faster, same, or unknown (fewer than 2 pairs) */
    int confirmed;    /* 1: ab is screen */
    double ratio;     /* NEW/OLD, the geometric mean of the pairs' ratios; NAN without pairs */
    double low, high; /* its interval at the family's level; NAN with fewer than 2 pairs */
    double p;         /* the paired t test's p; NAN with fewer than 2 pairs */
} br_confirm_case;

/* Decide the n flagged cases c[0..n) (above): each case's A/B at level
 * alpha (0 < alpha < 1) for its p, the Benjamini-Hochberg level alpha R / m
 * over the cases with a p (family.h) into *out_level (may be NULL), then
 * each judged at that level with `threshold` (a fraction >= 0). Fills the
 * out fields. Returns 0, or -1 with the error set (a median not a positive
 * finite number, out of memory). */
int br_confirm_judge(br_confirm_case *c, size_t n, double threshold, double alpha,
                     double *out_level);

#ifdef __cplusplus
}
#endif
#endif
