/* timer.h - timer backends of the timing core.
 *
 * A timer times one execution of a case and knows how to clear the caches
 * between executions. The measurement loop (measure.h) is the same for every
 * backend; backends are found by name in a small registry.
 */
#ifndef BR_TIMER_H
#define BR_TIMER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Enqueue (GPU) or execute (host) exactly one execution of the case. Returns
 * 0, or a negative value after recording why. */
typedef int (*br_exec_fn)(void *ctx);

typedef struct br_timer_ops {
    const char *name; /* "monotonic" (host) or "cuda-events" (GPU) */

    /* Create the timer's state (stream, events, flush buffer). Returns 0, or
     * -1 with the error set. */
    int (*open)(void **out_state);
    /* Release the state; accepts NULL. */
    void (*close)(void *state);

    /* The stream a case must enqueue on (cudaStream_t), NULL for the host. */
    void *(*stream)(void *state);

    /* Clear the caches a case's data could sit in, outside any timed region.
     * GPU: read (not write) a buffer twice the L2 size on the stream, so L2 is
     * left holding clean lines of unrelated data and no write-back can land in
     * the next timed kernel (shared/design/MEASUREMENT.md, point 2). Host: read
     * a buffer twice the last-level cache size. Returns 0 or -1 (error set). */
    int (*flush)(void *state);

    /* Time one execution of `run(ctx)`, waiting until it completed, and store
     * its duration in *out_ns (ns). Returns 0, or -1 with the error set (the
     * run's own failure, or a CUDA error raised while it executed). */
    int (*time)(void *state, br_exec_fn run, void *ctx, double *out_ns);
} br_timer_ops;

/* The backend called `name`, or NULL. "cuda-events" exists only in builds
 * with CUDA. */
const br_timer_ops *br_timer_find(const char *name);

extern const br_timer_ops br_timer_monotonic;
#if BR_HAVE_CUDA
extern const br_timer_ops br_timer_cuda_events;
#endif

#ifdef __cplusplus
}
#endif
#endif
