/* SPDX-License-Identifier: Apache-2.0 */
/* The announced stage of a case (stage.h). */
#include "stage.h"

static volatile int *slot_at;

void br_stage_bind(volatile int *slot) {
    slot_at = slot;
}

void br_stage_set(br_stage stage) {
    if (slot_at)
        *slot_at = (int)stage;
}
