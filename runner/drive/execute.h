/* SPDX-License-Identifier: Apache-2.0 */
/* Measuring one built suite. */
#ifndef BR_EXECUTE_H
#define BR_EXECUTE_H

#include "driver.h"
#include "model/run.h"
#include "worker/session.h"

#ifdef __cplusplus
extern "C" {
#endif

struct br_job; /* plan/job.h: a suite ready to run */

/* Measure a built job: for every case setup, one execution and verify,
 * warmup, samples, verify again, teardown. Cases that fail are recorded as
 * failed and the run goes on; GPU cases without a usable GPU are recorded as
 * skipped. Fills *out (dispose with br_run_dispose, also after a failure).
 * l: the invocation's ledger (its start, progress and budget), kept over
 * the jobs of one invocation. Returns 0, or -1 with the error set (out of
 * memory, or a job not built). */
int br_job_execute(br_run *out, const struct br_job *job, br_session *s, br_driver_ledger *l);

/* The start of a built job's run, as br_job_execute makes it: the header
 * (date, suite, settings, kernels, device, host), n_cases zeroed case slots,
 * the git information of the suite's work tree (a warning when it cannot
 * be read) and the measured peak when the suite asks for it. For drivers
 * that measure the cases themselves (benchrun ab). Dispose *out with
 * br_run_dispose, also after a failure. Returns 0, or -1 with the error
 * set (out of memory). */
int br_job_run_begin(br_run *out, const struct br_job *job, br_session *s);

/* The progress line: on a terminal (o->progress), one line on stderr
 * rewritten before each case (r of run, from br_case_init): case
 * l->cases_done + 1 of `total`, kernel and params, elapsed time since
 * l->start_ns and the time left at the mean pace so far (within
 * o->budget_ns when set). Nothing otherwise. */
void br_job_progress(const br_driver_ledger *l, const br_run_opts *o, const br_run *run,
                     const br_case_result *r, size_t total);

#ifdef __cplusplus
}
#endif
#endif
