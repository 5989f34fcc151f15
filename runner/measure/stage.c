/* SPDX-License-Identifier: Apache-2.0 */
/* stage.c - the announced stage of a case (stage.h). */
#include "stage.h"

static char *slot_at;
static size_t slot_len;

void br_stage_bind(char *slot, size_t len) {
    slot_at = len ? slot : NULL;
    slot_len = slot ? len : 0;
}

void br_stage_set(const char *stage) {
    if (!slot_at)
        return;
    size_t i = 0;
    for (; stage && stage[i] && i + 1 < slot_len; i++)
        slot_at[i] = stage[i];
    slot_at[i] = '\0';
}
