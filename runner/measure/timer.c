/* SPDX-License-Identifier: Apache-2.0 */
#include "timer.h"

#include <string.h>

const br_timer_ops *br_timer_find(const char *name) {
    static const br_timer_ops *const all[] = {
        &br_timer_monotonic,
#if BR_HAVE_CUDA
        &br_timer_cuda_events,
#endif
    };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (strcmp(all[i]->name, name) == 0)
            return all[i];
    return NULL;
}
