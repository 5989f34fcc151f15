/* SPDX-License-Identifier: Apache-2.0 */
/* stage.h - where a case is in its lifecycle ("setup", "run", "verify", ...),
 * announced by the timing core so that whoever runs it (the worker process,
 * worker/process.h) can say where a fault happened. The announcement goes to
 * a slot that the runner binds; without one it goes nowhere. */
#ifndef BR_MEASURE_STAGE_H
#define BR_MEASURE_STAGE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Make `slot` (len bytes, len >= 1; borrowed for the life of the process,
 * e.g. memory shared with a parent process) receive every later
 * br_stage_set. NULL unbinds. */
void br_stage_bind(char *slot, size_t len);

/* Announce the stage the case enters ("setup", "run", ...; cut to fit the
 * slot). A no-op when no slot is bound. Async-signal-safe. */
void br_stage_set(const char *stage);

#ifdef __cplusplus
}
#endif
#endif
