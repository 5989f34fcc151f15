/* SPDX-License-Identifier: Apache-2.0 */
/* session.h - what the suites of one invocation share: the device (found out in a worker process),
 * the timers, the GPU clock choice and the measured peak.
 */
#ifndef BR_SESSION_H
#define BR_SESSION_H

#include <stddef.h>

#include "compile/resolve.h"
#include "plan/run_opts.h"
#include "model/types.h"

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
 * NULL or "" unbinds. For --devices (measure/devices.h). */
void br_session_bind(br_session *s, const char *visible);

#ifdef __cplusplus
}
#endif
#endif
