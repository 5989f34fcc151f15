/* SPDX-License-Identifier: Apache-2.0 */
/* What the suites of one invocation share: the device (found out in a worker process),
 * the timers, the GPU clock choice and the measured peak.
 */
#ifndef BR_SESSION_H
#define BR_SESSION_H

#include <stddef.h>

#include "compile/resolve.h"
#include "model/types.h"
#include "plan/run_opts.h"
#include "platform/compute_peak.h"
#include "platform/cpupin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The clock of GPU headline times (br_run_opts.gpu_clock), given whether
 * the GPU timer collects the kernel clock (`kernel`) and, when not, why
 * (`why`, may be NULL): BR_CLOCK_KERNEL when it collects and events were not
 * asked for; else BR_CLOCK_EVENTS, and when the kernel clock was wanted
 * (asked, or the default) but cannot be had, a note for the user in
 * note[0..len) ("" otherwise). no_cupti: the user turned CUPTI off, which
 * needs no note. */
br_clock br_run_resolve_clock(int asked, int no_cupti, int kernel, const char *why, char *note,
                              size_t len);

/* What is shared by the suites of one invocation: the device, the timers. */
typedef struct br_session br_session;

/* Open a session: finds out whether a GPU is usable (and why not). Returns 0,
 * or -1 with the error set (out of memory). */
int br_session_open(br_session **out, const br_run_opts *opts);

/* Close; accepts NULL. */
void br_session_close(br_session *s);

/* Bind the session's workers to one device: CUDA_VISIBLE_DEVICES=visible
 * (an index or UUID, at most 127 bytes) is set in each worker before it
 * starts CUDA. Call before the session's first worker (its GPU query);
 * NULL or "" unbinds. For --devices (drive/devices.h). */
void br_session_bind(br_session *s, const char *visible);

/* ---- what the drivers read (read-only; the session owns every pointer) -------------- */

/* The invocation's options the session was opened with. */
const br_run_opts *br_session_opts(const br_session *s);

/* Whether the session's device query (br_session_gpu) found a usable GPU;
 * 0 before it ran. */
int br_session_gpu_ok(const br_session *s);

/* Why no GPU is usable ("" when one is, or before the query). */
const char *br_session_gpu_why(const br_session *s);

/* The device the session's workers see (meaningful when br_session_gpu_ok). */
const br_device *br_session_device(const br_session *s);

/* The host the session measures on: CPU model, governor, the CPU chosen
 * for host cases. */
const br_host *br_session_host(const br_session *s);

/* Where host cases are measured (cpu, -1: not pinned) and where the parent
 * and the drivers stay meanwhile (parent). */
const br_cpu_choice *br_session_cpu(const br_session *s);

/* The clock of GPU headline times, resolved when the GPU timer opened
 * (BR_CLOCK_EVENTS before), and why the kernel clock is not used although
 * wanted ("" otherwise). */
br_clock br_session_gpu_clock(const br_session *s);
const char *br_session_clock_note(const br_session *s);

/* CUDA_VISIBLE_DEVICES of the session's workers (br_session_bind; "" unbound). */
const char *br_session_visible(const br_session *s);

/* The CUDA devices the session's worker saw (0 without CUDA, or before
 * the query). */
int br_session_device_count(const br_session *s);

/* End the session's worker, if one runs (the next question starts one). */
void br_session_drop_worker(br_session *s);

/* Take src's device query (br_session_gpu: gpu_ok, gpu_why, device,
 * gpu_arch, device_count) into dst and mark dst's done, so that dst starts
 * no worker to ask again (a fork and a CUDA initialisation, ~0.2-0.4 s on
 * an H100). src must have been queried. Only where dst's workers would see
 * as their device 0 the device src's saw as its device 0 (the caller's
 * check): dst bound as src is (`visible` alike), or src unbound and dst
 * bound to the first device that the environment's CUDA_VISIBLE_DEVICES
 * lists (or to "0" without it). A bound dst sees one device: its
 * device_count is then 1 where src found a usable GPU, as dst's own query
 * would say. dst's GPU clock choice, which a query gives back as it was,
 * is kept. */
void br_session_adopt_query(br_session *dst, const br_session *src);

/* ---- what the drivers ask (each answered once per session, in a worker) ------------- */

/* Whether a GPU is usable, found out once (in a worker when benchrun has CUDA). */
int br_session_gpu(br_session *s);

/* The measured peak, GB/s, once per session, from the worker; NAN with a
 * warning when it cannot be had. */
double br_session_measured_peak(br_session *s);

/* The measured compute peak of the session's GPU in precision p (`peak:
 * measured`), once per session and precision, from the worker (which reads
 * it from the cache, or measures and caches it; platform/peak.h), into *out:
 *   MEASURED or CACHED  out->gops, 1e9 operations/s (GFLOP/s; GOP/s for int8-tensor)
 *   UNAVAILABLE         the GPU, or benchrun's build of its kernels, lacks the
 *                       precision's instruction (out->why says which); e.g.
 *                       fp8-tensor on an A100
 *   FAILED              it could not be measured (no GPU, a CUDA error; a
 *                       warning on standard error once)
 * out->gops is NAN unless MEASURED or CACHED. */
void br_session_measured_compute(br_session *s, br_precision p, br_compute_measure *out);

struct br_job; /* plan/job.h: a suite ready to run */

/* What a build is for: a run measures its cases; a check (benchrun check)
 * only builds and resolves. */
typedef enum br_build_purpose { BR_BUILD_RUN, BR_BUILD_CHECK } br_build_purpose;

/* Skip the GPU kernels of a built job whose declared precision (the suite's
 * `precision`) device d lacks (br_flops_lacks: FP8 before sm_89, ...): in
 * every variant, their cases are settled without a worker as skipped with
 * stage BR_STAGE_PRECISION (br_driver_unrunnable), and the run goes on.
 * br_session_build_job calls it for a run on a usable GPU. */
void br_session_skip_lacking(struct br_job *job, const br_device *d);

/* Build (br_job_build) one job for this session: when the job has GPU
 * sources, first finds out about the GPU (in a worker, once per session);
 * hands the build the target (cache, architecture, compile jobs, memory);
 * then retires the worker, since one forked before the modules were loaded
 * does not have them. Without a usable GPU, a run compiles no GPU source
 * (its cases are skipped, so its host cases wait on no nvcc) and says so
 * once per session, naming benchrun check; a check compiles them (nvcc's
 * default target), so their compile errors and kernel names show on any
 * machine. Every driver builds through here: this is that policy's one
 * place. Returns br_job_build's result (0, or -1 with the error set). */
int br_session_build_job(br_session *s, struct br_job *job, br_build_purpose purpose);

#ifdef __cplusplus
}
#endif
#endif
