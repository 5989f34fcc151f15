/* SPDX-License-Identifier: Apache-2.0 */
/* The session's fields and the functions that the other
 * parts of the timing core (proto.c, execute.c) and the build's
 * kernel resolution share; not for use outside the runner's core.
 */
#ifndef BR_SESSION_IMPL_H
#define BR_SESSION_IMPL_H

#include "base/error.h"
#include "platform/compute_peak.h"
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
    int peak_tried;   /* the measured peak was looked up or measured */
    double peak_gbps; /* measured peak, GB/s; NAN when it could not be had */
    /* The measured compute peaks, by precision, asked once per session. */
    int compute_tried[BR_PRECISION_COUNT];
    br_compute_measure compute[BR_PRECISION_COUNT];
    void *timer_state[2]; /* indexed by br_backend */
    int timer_failed[2];
    char timer_error[2][BR_ERROR_MAX];
    br_clock gpu_clock;   /* GPU headline clock, resolved when the GPU timer opens */
    char clock_note[600]; /* why the kernel clock is not used although wanted; "" otherwise */
    br_cpu_choice cpu;    /* where host cases are measured, and the parent meanwhile */
    int scaling_warned;   /* the host notes (CPU, frequency scaling) were given */
    int gpu_build_noted;  /* the note that GPU sources are not compiled was given */
    /* The worker process that makes every CUDA call and runs the cases
     * (process.h); NULL when none runs. The session's fields above that the
     * worker sets (device, gpu_clock, clock_note, peak_gbps) come back in
     * its replies; its timers live in its own copy of the session. */
    br_worker *worker;
    /* --devices: CUDA_VISIBLE_DEVICES of this session's workers, set in each
     * before CUDA starts (br_session_bind); "" leaves the environment alone. */
    char visible[128];
    int device_count; /* CUDA devices the worker saw (BR_REQ_DEVICE); 0 without CUDA */
};

/* What a worker is asked (br_session_ask's kind; the protocol is proto.c's). */
enum { BR_REQ_DEVICE = 1, BR_REQ_PEAK = 2, BR_REQ_CASE = 3, BR_REQ_COMPUTE = 4 };

/* Ask the session's worker (started when none runs) for the device
 * (BR_REQ_DEVICE: fills the session's gpu_ok, gpu_why, device, gpu_arch) or
 * the measured peak (BR_REQ_PEAK: fills its peak_gbps, GB/s). Returns 0, or
 * -1 with the error set. */
int br_session_ask(br_session *s, int kind);

/* Ask the session's worker for precision p's measured compute peak
 * (BR_REQ_COMPUTE: br_session_measure_compute_here in the worker) into *out.
 * Returns 0 (*out says what came of it), or -1 with the error set (no
 * worker, no answer, a malformed answer). */
int br_session_ask_compute(br_session *s, br_precision p, br_compute_measure *out);

/* The timer of a backend: CUDA events for the GPU, the monotonic clock for the host. */
const br_timer_ops *br_session_timer_ops(br_backend b);

/* The open timer of a backend, opened on first use (and resolving the GPU
 * clock, with a note on standard error when the kernel clock is wanted but
 * unavailable), or NULL with the error set. */
void *br_session_timer(br_session *s, br_backend b);

/* Find out whether a GPU is usable, in this process (a worker: this
 * initialises CUDA); sets gpu_ok, gpu_why, device, gpu_arch. */
void br_session_query_gpu_here(br_session *s);

/* The device-to-device copy bandwidth of the session's GPU, GB/s, measured
 * in this process (a worker) or taken from the cache; NAN with a warning
 * when it cannot be had. */
double br_session_measure_peak_here(br_session *s);

/* Precision p's compute peak of the session's GPU, in this process (a
 * worker): from the cache (CACHED), or measured with the timing core and
 * cached (MEASURED), or UNAVAILABLE (the GPU or benchrun's build lacks the
 * instruction), or FAILED, with why. */
void br_session_measure_compute_here(br_session *s, br_precision p, br_compute_measure *out);

#endif
