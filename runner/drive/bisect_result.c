/* SPDX-License-Identifier: Apache-2.0 */
/* Releasing what a search found (bisect_result.h). */
#include "bisect_result.h"

#include <stdlib.h>
#include <string.h>

void br_bisect_result_dispose(br_bisect_result *r) {
    if (!r)
        return;
    for (size_t i = 0; r->steps && i < r->n_steps; i++) {
        for (int k = 0; k < 3; k++)
            free(r->steps[i].med[k]);
        free(r->steps[i].why);
    }
    free(r->steps);
    for (size_t i = 0; r->cases && i < r->n_cases; i++)
        free(r->cases[i]);
    free(r->cases);
    free(r->state);
    br_gitlog_dispose(&r->log);
    memset(r, 0, sizeof *r);
}
