/* SPDX-License-Identifier: Apache-2.0 */
/* The request to stop that SIGINT and SIGTERM make: the signal
 * handler records it, the work (a run, an output waiting for its reader)
 * asks it. */
#ifndef BR_STOP_H
#define BR_STOP_H

#ifdef __cplusplus
extern "C" {
#endif

/* Record that an interrupt (SIGINT, SIGTERM) asked the run to stop: the
 * first signal number given is kept. Async-signal-safe. */
void br_stop_request(int signo);

/* The signal that asked the run to stop, or 0 when none did. */
int br_stop_signal(void);

#ifdef __cplusplus
}
#endif
#endif
