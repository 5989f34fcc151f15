/* SPDX-License-Identifier: Apache-2.0 */
/* Where a case is in its lifecycle (BR_STAGE_SETUP, _RUN,
 * _VERIFY, ...), announced by the timing core so that whoever runs it (the
 * worker process, worker/process.h) can say where a fault happened. The
 * announcement goes to a slot that the runner binds; without one it goes
 * nowhere. */
#ifndef BR_MEASURE_STAGE_H
#define BR_MEASURE_STAGE_H

#include "model/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Make `slot` (borrowed for the life of the process, e.g. memory shared
 * with a parent process) receive every later br_stage_set. NULL unbinds. */
void br_stage_bind(volatile int *slot);

/* Announce the stage the case enters. A no-op when no slot is bound.
 * Async-signal-safe (one int stored). */
void br_stage_set(br_stage stage);

#ifdef __cplusplus
}
#endif
#endif
