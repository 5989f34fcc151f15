/* SPDX-License-Identifier: Apache-2.0 */
/* The worker's request and reply: every CUDA call and every
 * case runs in a worker process (process.h), forked after the builds; the
 * parent asks it for the device, the measured peak or one case.
 */
#ifndef BR_CASE_PROTO_H
#define BR_CASE_PROTO_H

#include <stddef.h>

#include "model/run.h"
#include "process.h"
#include "session.h"

#ifdef __cplusplus
extern "C" {
#endif

struct br_job; /* plan/job.h: a suite ready to run */

/* What case i of job is, before it runs: kernel, combination, a copy of its
 * parameter values (r->params, owned by *r), bytes and flops. Returns 0, or
 * -1 (out of memory). */
int br_case_init(br_case_result *r, const struct br_job *job, size_t i);

/* Run case i of a built job in the worker with settings cfg and warmup_ns
 * (ns) and fill *r (prepared by br_case_init) with its outcome. Returns how
 * the worker answered, the typed outcome the drivers act on:
 *   BR_WORKER_OK         it answered: *r measured, or failed in the worker
 *                        (setup, verify, a CUDA error: its stage and message)
 *   BR_WORKER_DIED       the worker died (crashed): *r failed in the stage the
 *                        worker had announced, "crashed: <signal or exit status>"
 *   BR_WORKER_TIMED_OUT  it ran past the watchdog's limit (warmup + timeout per
 *                        measurement + the suite's watchdog) and was killed:
 *                        *r failed, "timed out after ..."
 *   BR_WORKER_ERROR      no worker could be started or reached: *r failed in
 *                        BR_STAGE_SETUP, "could not run the case in a worker process: ..."
 *   BR_WORKER_STOPPED    an interrupt stopped the case: *r untouched
 * After any outcome but a measured case the worker is replaced. */
br_worker_result br_case_exec(br_case_result *r, const struct br_job *job, br_session *s, size_t i,
                              const br_measure_cfg *cfg, double warmup_ns);

#ifdef __cplusplus
}
#endif
#endif
