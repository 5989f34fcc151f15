/* SPDX-License-Identifier: Apache-2.0 */
/* test_lookback.c - `--history DIR`'s baseline (history/lookback.h): the
 * last K runs at other commits, each case keeping only the run medians of
 * the runs at its current level (after its last change point). Results
 * files written by the real writer into a temporary folder: 6 runs of a
 * host case at 1000 ns, then 5 at 2000 ns (a 2x step), each at a commit of
 * its own and one minute later than the last; a second case that never
 * moves keeps all its runs. */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/error.h"
#include "e2e_util.h"
#include "history/lookback.h"
#include "results/run_write.h"
#include "results_fixture.h"

TestSuite(lookback, .init = e2e_tmp_make, .fini = e2e_tmp_drop);

/* Run i of the history: case n=1 at `level` ns, case n=2 at 500 ns,
 * within-run spread +-0.5%, at commit i (committed a minute after i - 1). */
static void history_run(br_run *r, int i, double level) {
    static const char *const params[] = {"n"};
    run_init(r, "lb", NULL, BR_METRIC_NONE, BR_MODE_COLD, params, 1, 2);
    add_kernel(r, "k", "k.c", BR_BACKEND_HOST);
    char sha[41];
    snprintf(sha, sizeof sha, "%02d%038d", i + 1, 0);
    git_commit(&r->git, sha, "main", 0);
    r->git.commit_time += 60 * i;
    double s[20];
    for (int t = 0; t < 2; t++) {
        int64_t n = t + 1;
        br_case_result *c = add_case(r, 0, (size_t)t, &n, BR_STATUS_OK, NULL, NULL, NAN, NAN);
        for (int j = 0; j < 20; j++)
            s[j] = (t == 0 ? level : 500.0) * (1.0 + 0.005 * (double)((j * 7) % 11 - 5) / 5.0) *
                   (1.0 + 0.002 * (double)((i * 3) % 5 - 2));
        set_timing(&c->cold, s, 20, 1.0, 1, BR_STOP_CI, NAN);
    }
}

static void write_run(const br_run *r, int i) {
    char *path = br_strfmt("%s/run-%02d.json", tmp, i);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    const br_run *runs[] = {r};
    cr_assert_eq(br_results_write(f, runs, 1), 0, "%s", br_error_get());
    cr_assert_eq(fclose(f), 0);
    free(path);
}

Test(lookback, each_case_keeps_only_the_runs_after_its_last_change_point) {
    for (int i = 0; i < 11; i++) {
        br_run r;
        history_run(&r, i, i < 6 ? 1000.0 : 2000.0);
        write_run(&r, i);
        br_run_dispose(&r);
    }
    br_run cur, base;
    history_run(&cur, 11, 2000.0);
    size_t n = 0;
    cr_assert_eq(br_history_baseline(&base, &n, tmp, &cur, 10), 0, "%s", br_error_get());
    cr_assert_eq(n, 10, "the last 10 runs are merged");
    cr_assert_eq(base.n_cases, 2);
    for (size_t i = 0; i < base.n_cases; i++) {
        const br_timing *t = &base.cases[i].cold;
        if (base.cases[i].params[0] == 1) {
            cr_assert_eq(t->n_run_medians, 5, "the 5 runs after the step, not %zu",
                         t->n_run_medians);
            for (size_t k = 0; k < t->n_run_medians; k++)
                cr_assert_float_eq(t->run_medians[k], 2000.0, 2000.0 * 0.01);
        } else {
            cr_assert_eq(t->n_run_medians, 10, "no step: the last 10 runs");
        }
    }
    br_run_dispose(&base);
    /* keep 3: the last three of the level. */
    cr_assert_eq(br_history_baseline(&base, &n, tmp, &cur, 3), 0, "%s", br_error_get());
    for (size_t i = 0; i < base.n_cases; i++)
        cr_assert_eq(base.cases[i].cold.n_run_medians, 3);
    br_run_dispose(&base);
    br_run_dispose(&cur);
}
