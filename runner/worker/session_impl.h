/* SPDX-License-Identifier: Apache-2.0 */
/* session_impl.h - the session's fields and the functions that the other
 * parts of the timing core (case_proto.c, execute.c) and the build's
 * kernel resolution share; not for use outside the runner's core.
 */
#ifndef BR_SESSION_IMPL_H
#define BR_SESSION_IMPL_H

#include "base/error.h"
#include "platform/cpupin.h"
#include "model/run.h"
#include "session.h"
#include "measure/timer.h"
#include "process.h"

/* ---- session ------------------------------------------------------------------- */

struct br_session {
    br_run_opts opts;
    char *cache_dir;
    int gpu_checked;
    int gpu_ok;
    char gpu_why[512];
    br_device device;
    char gpu_arch[16];
    br_host host;
    int peak_tried;       /* the measured peak was looked up or measured */
    double peak_gbps;     /* measured peak, GB/s; NAN when it could not be had */
    void *timer_state[2]; /* indexed by br_backend */
    int timer_failed[2];
    char timer_error[2][BR_ERROR_MAX];
    br_clock gpu_clock; /* GPU headline clock, resolved when the GPU timer opens */
    /* The invocation's progress and time budget, kept by the drivers
     * (drive/driver.h br_driver_plan, br_driver_count). */
    size_t cases_done;    /* cases of the invocation started (or settled) so far */
    double start_ns;      /* when the invocation's first case started; 0 before */
    double overhead_ns;   /* summed time of cases outside warmup and sampling */
    size_t n_overhead;    /* cases in overhead_ns */
    char clock_note[600]; /* why the kernel clock is not used although wanted; "" otherwise */
    br_cpu_choice cpu;    /* where host cases are measured, and the parent meanwhile */
    int scaling_warned;   /* the host notes (CPU, frequency scaling) were given */
    int gpu_build_noted;  /* the note that GPU sources are not compiled was given */
    /* The worker process that makes every CUDA call and runs the cases
     * (worker.h); NULL when none runs. The session's fields above that the
     * worker sets (device, gpu_clock, clock_note, peak_gbps) come back in
     * its replies; its timers live in its own copy of the session. */
    br_worker *worker;
    /* --devices: CUDA_VISIBLE_DEVICES of this session's workers, set in each
     * before CUDA starts (br_session_bind); "" leaves the environment alone. */
    char visible[128];
    int device_count; /* CUDA devices the worker saw (BR_REQ_DEVICE); 0 without CUDA */
};

/* The timer of a backend: CUDA events for the GPU, the monotonic clock for the host. */
const br_timer_ops *br_session_timer_ops(br_backend b);

/* The open timer of a backend, opened on first use (and resolving the GPU
 * clock, with a note on standard error when the kernel clock is wanted but
 * unavailable), or NULL with the error set. */
void *br_session_timer(br_session *s, br_backend b);

/* Find out whether a GPU is usable, in this process (a worker: this
 * initialises CUDA); sets gpu_ok, gpu_why, device, gpu_arch. */
void br_session_query_gpu_here(br_session *s);

/* End the session's worker (one that ended, or that must not serve on). */
void br_session_drop_worker(br_session *s);

/* Take src's device query (br_session_gpu: gpu_ok, gpu_why, device,
 * gpu_arch, device_count) into dst and mark dst's done (gpu_checked), so
 * that dst starts no worker to ask again (a fork and a CUDA
 * initialisation, ~0.2-0.4 s on an H100). src must have been queried.
 * Only where dst's workers would see as their device 0 the device src's
 * saw as its device 0 (the caller's check): dst bound as src is
 * (`visible` alike), or src unbound and dst bound to the first device that
 * the environment's CUDA_VISIBLE_DEVICES lists (or to "0" without it). A
 * bound dst sees one device: its device_count is then 1 where src found a
 * usable GPU, as dst's own query would say. dst's GPU clock choice
 * (gpu_clock, clock_note), which a query gives back as it was, is kept. */
void br_session_adopt_query(br_session *dst, const br_session *src);

/* The device-to-device copy bandwidth of the session's GPU, GB/s, measured
 * in this process (a worker) or taken from the cache; NAN with a warning
 * when it cannot be had. */
double br_session_measure_peak_here(br_session *s);

#endif
