/* measure.h - the measurement loop of the timing core, the same for every
 * timer backend: warmup by a time budget, then samples until the stopping
 * criterion holds, with the cache policy applied before every execution. */
#ifndef BR_MEASURE_H
#define BR_MEASURE_H

#include <stddef.h>

#include "suite.h"
#include "timer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Never take more samples than this for one case. */
#define BR_MAX_SAMPLES 1000000u

typedef struct br_measurement {
    double *samples; /* owned: ns per execution, in the order taken */
    size_t n_samples;
    size_t warmup_runs;      /* executions during warmup */
    double warmup_ns;        /* wall time of the warmup, ns */
    double measure_ns;       /* wall time of the sampling phase (flushes included), ns */
    const char *stop_reason; /* "min_time": min_samples and min_time reached;
                                "timeout": cfg->timeout_ns ran out first;
                                "max_samples": BR_MAX_SAMPLES reached */
} br_measurement;

/* Measure `run(ctx)` with the timer (ops, state).
 *  1. Warmup: execute (timed, discarded) until `warmup_ns` of wall time has
 *     passed, so module load, JIT and clock ramp-up stay out of the samples.
 *  2. Samples: one timed execution each, until at least cfg->min_samples
 *     samples and cfg->min_time_ns of summed sample time, or until
 *     cfg->timeout_ns of wall time has passed since sampling began.
 * With `flush` set, ops->flush runs before every execution (outside the timed
 * region). Returns 0 and fills *out (dispose with br_measurement_dispose), or
 * -1 with the error set when an execution failed. */
int br_measure(br_measurement *out, const br_timer_ops *ops, void *state, const br_measure_cfg *cfg,
               double warmup_ns, int flush, br_exec_fn run, void *ctx);

/* Release what *m owns; accepts NULL. */
void br_measurement_dispose(br_measurement *m);

#ifdef __cplusplus
}
#endif
#endif
