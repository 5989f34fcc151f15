/* SPDX-License-Identifier: Apache-2.0 */
/* One case's life in the process that runs it: the handle a
 * module sees (br_case_api), then setup, one checked execution, the timed
 * measurements, a second verify and teardown.
 */
#ifndef BR_CASE_H
#define BR_CASE_H

#include <stddef.h>
#include <stdint.h>

#include "benchrun_kernel.h"
#include "model/run.h"
#include "timer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where a case is timed: the backend's timer and the clock settings. */
typedef struct br_case_ctx {
    const br_timer_ops *ops; /* the backend's timer */
    void *state;             /* its open state; NULL: it could not be opened (error set) */
    br_clock clock;          /* the headline clock (GPU: resolved; host: monotonic) */
    double max_mhz;          /* the SM clock's maximum, MHz, for the throttle check; 0: none */
    const char *energy_uuid; /* GPU cases: measure energy per execution through NVML on the
                                device of this UUID (--energy; energy.h); NULL: do not */
} br_case_ctx;

/* What a case is: its parameters as the module sees them and how it is measured. */
typedef struct br_case_spec {
    const char *const *param_names; /* n_params names, in the suite's order */
    const int64_t *values;          /* n_params values */
    size_t n_params;
    uint64_t seed;             /* api->seed (br_case_seed) */
    br_backend backend;        /* where the kernel runs */
    br_cache_policy cache;     /* the suite's cache policy */
    const br_measure_cfg *cfg; /* measurement settings (budget applied) */
    double warmup_ns;
    /* The case as NVTX ranges name it ("reduce_vec n=2^24"; nvtx.h): each
     * measurement is a range "<label> cold" or "<label> batch" around its
     * samples' ranges. NULL: no NVTX ranges. */
    const char *nvtx_label;
} br_case_spec;

/* FNV-1a over the suite name and the parameter values: the same inputs for
 * every kernel at the same parameters, and in every run. */
uint64_t br_case_seed(const char *suite_name, const int64_t *values, size_t n_values);

/* Run one case of kernel k and fill out->status, stage, message, cold and
 * batch (out->cold/batch are disposed unless the case is OK) and, when
 * ctx->energy_uuid is set, out->energy after the timed samples (a case
 * whose energy cannot be measured stays OK without it, said on the log).
 * Never fails
 * as a whole: every failure is the case's (status BR_STATUS_FAILED, with the
 * stage and the module's first message or the error). Fills out->wall's
 * phases from setup to teardown (start, other and total are the caller's).
 * Sets the worker's stage (worker/process.h) as it goes. */
void br_case_run(br_case_result *out, const br_case_ctx *ctx, const br_kernel *k,
                 const br_case_spec *spec);

#ifdef __cplusplus
}
#endif
#endif
