/* SPDX-License-Identifier: Apache-2.0 */
/* lookback.c - a baseline from the last runs in a results directory
 * (lookback.h). */
#include "lookback.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "gate/baseline.h"
#include "gate/case_key.h"
#include "history.h"

/* Whether history run h is at another commit than cur (see lookback.h). */
static int other_commit(const br_run *h, const br_run *cur) {
    if (!cur->git.present || cur->git.unborn || !cur->git.sha[0])
        return 1;
    if (!h->git.present || h->git.unborn || !h->git.sha[0])
        return 1;
    return strcmp(h->git.sha, cur->git.sha) != 0;
}

int br_history_baseline(br_run *out, size_t *out_runs, const char *dir, const br_run *cur,
                        size_t keep) {
    memset(out, 0, sizeof *out);
    *out_runs = 0;
    br_history h;
    br_history_filter f = {.suite = cur->suite_name};
    if (br_history_load(&h, dir, &f) != 0) {
        int none = br_error_kind_get() == BR_E_NOTFOUND;
        br_history_dispose(&h);
        return none ? 1 : -1;
    }
    /* The newest `keep` that qualify, newest first (h is in commit order). */
    size_t *pick = malloc((h.n_runs ? h.n_runs : 1) * sizeof *pick), n = 0;
    int rc = -1;
    br_run acc;
    memset(&acc, 0, sizeof acc);
    if (!pick) {
        br_error_nomem();
        goto done;
    }
    const char *dev = br_baseline_device(cur);
    for (size_t i = h.n_runs; i-- > 0 && n < keep;) {
        const br_run *r = &h.runs[i].run;
        if (strcmp(br_baseline_device(r), dev) == 0 && other_commit(r, cur))
            pick[n++] = i;
    }
    if (n == 0) {
        rc = 1;
        goto done;
    }
    for (size_t p = n; p-- > 0;) { /* oldest first */
        br_run *r = &h.runs[pick[p]].run, next;
        r->regression.keep = keep;
        int mr = br_baseline_merge(&next, p + 1 < n ? &acc : NULL, r, 0, NULL);
        br_run_dispose(&acc);
        acc = next;
        if (mr != 0)
            goto done;
    }
    *out = acc;
    memset(&acc, 0, sizeof acc);
    *out_runs = n;
    rc = 0;
done:
    br_run_dispose(&acc);
    free(pick);
    br_history_dispose(&h);
    return rc;
}
