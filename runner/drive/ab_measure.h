/* SPDX-License-Identifier: Apache-2.0 */
/* The interleaved measurement of `benchrun ab`: the OLD and the NEW
 * build of each case measured in one worker session, alternating in blocks
 * A B B A A B B A ... (A = OLD), so that whatever drifts on the machine
 * (clocks, temperature, neighbours) hits both builds alike. Each block is one
 * whole normal measurement of the case in the worker (br_case_exec: setup,
 * verify, warmup, samples under the suite's stopping rule, teardown), with
 * the settings of that side's suite. The statistics are gate/abstats.h's.
 */
#ifndef BR_AB_H
#define BR_AB_H

#include <stddef.h>

#include "gate/abcompare.h"
#include "model/run.h"
#include "driver.h"
#include "worker/session.h"

#ifdef __cplusplus
extern "C" {
#endif

struct br_job; /* plan/job.h: a suite ready to run */

/* Measure every pair of cases[0..n) (gate/abcompare.h: old_case and
 * new_case set, the medians filled here) in `blocks` blocks per side (>= 1),
 * beginning no case once br_now_ns() has passed deadline_ns (0: no bound;
 * the cases left are skipped on both sides, "not measured: the time bound
 * ran out"),
 * block order A B B A ..., both jobs built in session s (so the worker,
 * forked after the builds, has both modules loaded). old_run and new_run
 * come from br_job_run_begin for old_job and new_job; their paired cases
 * are filled (kernel, params, status; for an OK case each timing the
 * blocks pooled, gate/timingpool.h), the others are left to the caller.
 * The medians compared are those of NEW's headline timing (cold or batch)
 * on both sides. A case that fails on either side in any block is failed
 * there (stage and message of the block) and its partner skipped; a GPU
 * case without a GPU is skipped on both sides; a module that did not
 * compile fails its cases. After an interrupt (run->interrupted set) the
 * case being measured keeps the block pairs that finished, when one did
 * (its medians over those pairs, its timings pooled from the blocks that
 * finished, partial_of the pairs asked), and the cases left are skipped
 * with stage BR_STAGE_INTERRUPTED. Finally the
 * runs' derived figures (br_run_derive), GPU clock and skip reason are set.
 * Every block goes through the drivers' shared policy (driver.h) with l,
 * the invocation's ledger. Returns 0, or -1 with the error set (out of
 * memory). */
int br_ab_measure(br_run *old_run, br_run *new_run, br_ab_case *cases, size_t n,
                  const struct br_job *old_job, const struct br_job *new_job, br_session *s,
                  br_driver_ledger *l, size_t blocks, double deadline_ns);

#ifdef __cplusplus
}
#endif
#endif
