/* SPDX-License-Identifier: Apache-2.0 */
/* Timer backends of the timing core.
 *
 * A timer takes one sample of a case: it applies the cache policy, holds the
 * GPU's stream while the work is enqueued, times one execution (cold) or many
 * back-to-back executions (batch), and measures the SM clock over the sample.
 * The measurement loop (measure.h) is the same for every backend; backends
 * are found by name in a small registry.
 */
#ifndef BR_TIMER_H
#define BR_TIMER_H

#include <stddef.h>
#include <stdint.h>

#include "activity.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Enqueue (GPU) or execute (host) exactly one execution of the case. Returns
 * 0, or a negative value after recording why. */
typedef int (*br_exec_fn)(void *ctx);

/* How to clear the caches before a sample (outside the timed region). */
typedef enum br_flush_kind {
    BR_FLUSH_NONE = 0,
    /* GPU: read a buffer twice the L2 size, so the cache is left holding
     * clean lines of unrelated data and no write-back can land in the timed
     * kernel (shared/design/MEASUREMENT.md, point 2). Host: write back and
     * evict the case's own memory (br_sample_opts.ranges) from every level. */
    BR_FLUSH_READ = 1,
    /* Write (cudaMemsetAsync) the same buffer, as NVBench and Triton do; it
     * leaves dirty lines whose write-back lands in the timed kernel. Offered
     * for comparison only. The host backend evicts as for BR_FLUSH_READ. */
    BR_FLUSH_MEMSET = 2
} br_flush_kind;

/* A block of host memory a case owns. */
typedef struct br_mem_range {
    const void *p;
    size_t bytes;
} br_mem_range;

typedef struct br_sample_opts {
    br_flush_kind flush; /* applied once before the sample */
    int hold;            /* GPU: hold the stream with a blocking kernel while the sample is
                            enqueued, so the start event is not recorded on an idle GPU */
    int probe;           /* GPU: measure the SM clock over the sample */
    size_t reps;         /* executions in the sample: 1 (cold) or more (batch, back to back,
                            no flush between them) */
    int graph;           /* reps > 1 on a GPU: run the executions as one CUDA graph when the
                            kernel can be captured */
    /* Host: the case's own memory (what it allocated through api->alloc).
     * A host flush evicts exactly these lines from every cache level (see
     * timer_host.c); a case with none has nothing to flush. */
    const br_mem_range *ranges;
    size_t n_ranges;
    /* GPU timer collecting the kernel clock: leave the sample's operations
     * for a later resolve() of a group of samples (one CUPTI flush for the
     * group instead of one per sample); br_sample.tag names it. */
    int defer;
    /* GPU: the name of an NVTX range (nvtx.h) pushed around the timed span
     * (start event to stop event: the run's launches, no flush, hold or
     * probe); NULL: none. */
    const char *range;
} br_sample_opts;

typedef struct br_sample {
    double ns;     /* duration of all reps executions, ns: CUDA events (GPU) or CLOCK_MONOTONIC */
    double sm_mhz; /* SM clock over the sample, MHz; NAN when not measured */
    int graph;     /* 1 when the executions ran as a CUDA graph */
    /* GPU timer collecting the kernel clock: the operations the reps
     * executions enqueued (activity.h), and the table their tallies' name
     * indexes refer to. Borrowed from the timer until its next sample; NULL
     * when the timer does not collect. */
    const br_sample_ops *ops;
    const char *const *op_names;
    size_t n_op_names;
    uint64_t tag; /* a deferred sample (ops NULL): what to pass to resolve(); 0 otherwise */
    /* Host: the involuntary context switches of the measuring thread over
     * the sample (getrusage RUSAGE_THREAD; -1 when not measured), and the
     * CPU's effective frequency over it, MHz (cpufreq.h; NAN when not
     * measured). */
    long ctx_switches;
    double cpu_mhz;
    /* Host: the fraction of the sample's wall time the measuring thread
     * was not running (cpufreq.h); NAN when not measured. */
    double offcpu;
} br_sample;

/* How a timer is opened. */
typedef struct br_timer_cfg {
    int kernel_clock; /* GPU: collect CUPTI activity records for the kernel clock (cupti_collect.h)
                       */
} br_timer_cfg;

typedef struct br_timer_ops {
    const char *name; /* "monotonic" (host) or "cuda-events" (GPU) */

    /* Create the timer's state (stream, events, flush buffer) as cfg says
     * (NULL: defaults, no kernel clock). A kernel clock that cannot be had
     * does not fail the open: kernel_clock() tells. Returns 0, or -1 with the
     * error set. */
    int (*open)(void **out_state, const br_timer_cfg *cfg);
    /* Release the state; accepts NULL. */
    void (*close)(void *state);

    /* The stream a case must enqueue on (cudaStream_t), NULL for the host. */
    void *(*stream)(void *state);

    /* Take one sample of `run(ctx)` as `o` says, waiting until it completed.
     * Returns 0 and fills *out, or -1 with the error set (the run's own
     * failure, a CUDA error raised while it executed, or a hold that timed
     * out because the run waited for the GPU). */
    int (*sample)(void *state, const br_sample_opts *o, br_exec_fn run, void *ctx, br_sample *out);

    /* The clock's resolution, ns: the smallest step between two of its
     * readings (the GPU timer measures it when opened; the host's is
     * clock_getres). 0 when unknown. May be NULL: unknown. */
    double (*tick)(void *state);

    /* Forget what was kept for the current case (a captured CUDA graph);
     * called when a case ends. May be NULL. */
    void (*end_case)(void *state);

    /* 1 when the samples carry the kernel clock (br_sample.ops); else 0 and
     * *why says why (borrowed from the state; NULL when it was not asked
     * for). May be NULL: no kernel clock. */
    int (*kernel_clock)(void *state, const char **why);

    /* The operations of the deferred samples tags[0..n) (strictly
     * increasing), all taken since the last resolve: out[i] receives a
     * pointer valid until the next sample or resolve, *names / *n_names the
     * name table. Returns 0, or -1 with the error set. May be NULL (a timer
     * that never defers). */
    int (*resolve)(void *state, const uint64_t *tags, size_t n, const br_sample_ops **out,
                   const char *const **names, size_t *n_names);

    /* Memory of the timer's device for a case: `bytes` bytes of device
     * memory (pinned 0) or of page-locked host memory (pinned 1). Returns 0
     * and sets *out, or -1 with *why the device's reason (a static string).
     * May be NULL: the backend has no device (the host timer). */
    int (*alloc)(void *state, void **out, size_t bytes, int pinned, const char **why);
    /* Release p from alloc (pinned as it was allocated). NULL when alloc is. */
    void (*free)(void *state, void *p, int pinned);
    /* Clear a non-sticky error a case left, so the next case starts clean.
     * May be NULL. */
    void (*clear_error)(void *state);
} br_timer_ops;

/* The backend called `name`, or NULL. "cuda-events" exists only in builds
 * with CUDA. */
const br_timer_ops *br_timer_find(const char *name);

extern const br_timer_ops br_timer_monotonic;
#if BR_HAVE_CUDA
extern const br_timer_ops br_timer_cuda_events;
#endif

/* How long a GPU launch hold waits for the host before it gives up, ns. */
#define BR_HOLD_TIMEOUT_NS 1e9
/* The SM clock is measured over at least this long a window, ns: the probe
 * after a sample waits until this much time has passed since the probe
 * before it, so that %globaltimer's granularity (up to 1 us) stays a small
 * error. */
#define BR_PROBE_MIN_WINDOW_NS 20e3

#ifdef __cplusplus
}
#endif
#endif
