/* SPDX-License-Identifier: Apache-2.0 */
/* test_e2e_history.c - the benchrun executable on a generated history of 30
 * results files (tests/reporters/history_fixture.h, write_step_history:
 * three planted steps under 1% noise): `benchrun history DIR --changes`
 * lists exactly the planted change points, the table marks only those, and
 * --plot draws them (a test of its own, skipped without gnuplot). */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reporters/history_fixture.h"

TestSuite(e2e_history, .init = history_init, .fini = history_fini, .timeout = 120);

Test(e2e_history, changes_of_a_generated_history) {
    char *dir = step_history_dir();
    e2e_result r;
    const char *list[] = {"history", dir, "--changes", "--ascii", NULL};
    cr_assert_eq(e2e_run(&r, NULL, list), 0);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_str_eq(r.err, "");
    check_golden("steps_changes_ascii.txt", r.out);
    e2e_free(&r);

    const char *table[] = {"history", dir, "--ascii", "-p", "n=2^24", NULL};
    cr_assert_eq(e2e_run(&r, NULL, table), 0);
    cr_assert_eq(r.status, 0, "%s", r.err);
    /* Change points only when asked: the table shows the values. */
    char *row = row_of(r.out, "reduce_cub", "2^24");
    cr_assert(strstr(row, "2701.0 ") && strstr(row, "2561.5 "), "%s", row);
    cr_assert_null(strstr(row, "^+"), "%s", row);
    free(row);
    e2e_free(&r);
    free(dir);
}

/* --plot circles the change points --changes finds (skipped without gnuplot). */
Test(e2e_history, plot_of_the_changes_of_a_generated_history) {
    if (!br_history_have_gnuplot())
        cr_skip_test("gnuplot is not on PATH (apt-get install gnuplot-nox): the SVG is not drawn");
    char *dir = step_history_dir();
    e2e_result r;
    char *svg = br_path_join(tmp, "steps.svg");
    const char *plot[] = {"history", dir, "--changes", "--plot", svg, NULL};
    cr_assert_eq(e2e_run(&r, NULL, plot), 0);
    cr_assert_eq(r.status, 0, "%s", r.err);
    char *text = slurp(svg);
    cr_assert_not_null(text);
    cr_assert(strstr(text, "change point"), "no change point key in the SVG");
    cr_assert(strstr(text, "3 change points circled, dashed"), "no change point title in the SVG");
    free(text);
    free(svg);
    e2e_free(&r);
    free(dir);
}
