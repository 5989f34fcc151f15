/* SPDX-License-Identifier: Apache-2.0 */
/* Suites prepared and built, nothing measured
 * (check_suites.h). */
#include "check_suites.h"

#include <stdio.h>

#include "base/util.h"

/* The summary line of one suite from its outcome. Returns 1 when the
 * suite passes. */
static int summarize(const char *path, const br_outcome *out) {
    if (out->stopped) {
        char sig[32];
        br_signal_name(sig, sizeof sig, out->stopped);
        printf("%s: interrupted (%s): not checked\n", path, sig);
        return 0;
    }
    if (out->error) {
        printf("%s: FAILED: bad input (see above)\n", path);
        return 0;
    }
    size_t cases = out->ok + out->failed + out->skipped;
    if (out->failed || out->modules_failed) {
        printf("%s: FAILED: %zu of %zu kernel module(s) did not compile or load; %zu of %zu "
               "case(s) would fail\n",
               path, out->modules_failed, out->modules, out->failed, cases);
        return 0;
    }
    printf("%s: ok: %zu case(s), %zu to measure, %zu skipped for want of a GPU; %zu kernel "
           "module(s) built",
           path, cases, out->ok, out->skipped, out->modules - out->modules_skipped);
    if (out->modules_skipped)
        printf(", %zu GPU source(s) not compiled (no nvcc)", out->modules_skipped);
    putchar('\n');
    return 1;
}

int br_check_suites(const br_pipeline_opts *p) {
    br_pipeline_opts one = *p;
    int status = 0;
    one.check = 1;
    one.n_suites = 1;
    for (size_t i = 0; i < p->n_suites; i++) {
        one.suites = &p->suites[i];
        br_outcome out;
        br_pipeline_run(&out, &one);
        if (!summarize(p->suites[i], &out) || br_exit_status(&out) != 0)
            status = out.stopped ? br_exit_status(&out) : 2;
        fflush(stdout); /* each line before the next suite's messages on stderr */
        if (out.stopped)
            break; /* the suites after it are not checked */
    }
    return status;
}
