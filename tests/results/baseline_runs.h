/* SPDX-License-Identifier: Apache-2.0 */
/* baseline_runs.h - small hand-built runs for the tests of baselines and
 * comparisons (test_baseline.c, test_compare.c): one-param runs on an H100
 * with cold and batch samples spread around a given time. Include it after
 * results_fixture.h, once per test program. */
#ifndef BR_TEST_BASELINE_RUNS_H
#define BR_TEST_BASELINE_RUNS_H

#include "results_fixture.h"

#define NS 40 /* samples per timing */

/* NS samples around `center` ns: a deterministic spread of +-1.5%. */
static inline void spread(double *out, size_t n, double center) {
    for (size_t i = 0; i < n; i++)
        out[i] = center * (1.0 + 0.015 * (double)((int)((i * 7) % 13) - 6) / 6.0);
}

/* A one-param ("n") run of kernel "k" on an H100 named `suite`, room for 16 cases. */
static inline void small_run(br_run *r, const char *suite, const char *sha) {
    const char *params[] = {"n"};
    run_init(r, suite, NULL, BR_METRIC_NONE, BR_MODE_BOTH, params, 1, 16);
    add_kernel(r, "k", "kernels/k.cu", BR_BACKEND_GPU);
    add_kernel(r, "k2", "kernels/k.cu", BR_BACKEND_GPU);
    git_commit(&r->git, sha, "main", 0);
    h100(r);
}

/* Case (kernel, n) with cold samples around `cold` ns and batch samples
 * around `batch` ns (NS each). */
static inline br_case_result *timed(br_run *r, size_t kernel, int64_t n, double cold,
                                    double batch) {
    double s[NS];
    br_case_result *c = add_case(r, kernel, (size_t)n, &n, BR_STATUS_OK, NULL, NULL, NAN, NAN);
    spread(s, NS, cold);
    set_timing(&c->cold, s, NS, 1.0, 1, BR_STOP_NOISE, 1980);
    spread(s, NS, batch);
    set_timing(&c->batch, s, NS, 1.0, 64, BR_STOP_NOISE, 1980);
    return c;
}

#endif
