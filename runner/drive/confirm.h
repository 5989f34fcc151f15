/* SPDX-License-Identifier: Apache-2.0 */
/* The regression gate's second stage as a driver: the cases a
 * run's comparison flagged, measured again interleaved against the
 * baseline's own commit by `benchrun ab`'s driver (ab.h), and decided by
 * that A/B (the rule and its false-alarm bound: gate/confirm.h). */
#ifndef BR_DRIVE_CONFIRM_H
#define BR_DRIVE_CONFIRM_H

#include "gate/gate.h"
#include "plan/run_opts.h"

/* Compare run r with its baseline (attach: the pipeline's
 * br_gate_attach or its --history equivalent; the comparison it leaves in
 * r->comparison) and, as g->confirm says, confirm what it flags:
 *   - first at the suite's alpha: the verdict wherever no A/B decides;
 *   - then, when the baseline's commit is in the suite's repository (a
 *     baseline measured in a modified work tree, outside git, or at a commit
 *     gone or beyond a shallow clone's history cannot be, and r->comparison
 *     ->confirm says why, on stderr too when something was flagged), again
 *     at BR_SCREEN_ALPHA, and the cases it flags are measured against that
 *     commit (checked out under the compile cache, the user's work tree,
 *     index and HEAD untouched) in BR_CONFIRM_BLOCKS block pairs each,
 *     within g->confirm_timeout_ns; each is then `slower` or `faster` only
 *     when confirmed, else `same` with the A/B's figures; a case the A/B did
 *     not measure keeps the first verdict. When the flagged cases moved
 *     together and none was confirmed, the shift of the machine is said once.
 * `run` is the invocation's (cache, jobs, measurement settings, -p);
 * quiet: no notes. Returns 0 (r->comparison set, or none when there is no
 * baseline), or -1 with the error set: attach's error, or no commit to
 * confirm against under BR_CONFIRM_ALWAYS. */
int br_confirm_attach(br_run *r, const br_gate_opts *g, const br_run_opts *run, int quiet,
                      int (*attach)(br_run *r, const br_gate_opts *g, int quiet));

#endif
