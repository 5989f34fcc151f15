/* SPDX-License-Identifier: Apache-2.0 */
/* test_cmd_history.c - the `benchrun history` command (cli/cmd_history.c,
 * br_cmd_history): the table it prints, its exit statuses, --plot with and
 * without gnuplot. The fixture runs are in reporters/history_fixture.h. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "cli/commands.h"

#include "reporters/history_fixture.h"

TestSuite(history, .init = history_init, .fini = history_fini, .timeout = 120);

/* Run br_cmd_history on args (argv[0] "history" added) with stdout and
 * stderr captured into *out and *err (caller frees). Returns its status. */
static int run_main(char **out, char **err, const char *const *args) {
    char *argv[32] = {"history"};
    int argc = 1;
    for (; args[argc - 1]; argc++)
        argv[argc] = (char *)args[argc - 1];
    argv[argc] = NULL;
    char *opath = br_path_join(tmp, "stdout.txt"), *epath = br_path_join(tmp, "stderr.txt");
    fflush(stdout);
    fflush(stderr);
    int save_out = dup(1), save_err = dup(2);
    int ofd = open(opath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int efd = open(epath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    cr_assert(ofd >= 0 && efd >= 0 && save_out >= 0 && save_err >= 0);
    dup2(ofd, 1);
    dup2(efd, 2);
    int status = br_cmd_history(argc, argv);
    fflush(stdout);
    fflush(stderr);
    dup2(save_out, 1);
    dup2(save_err, 2);
    close(ofd);
    close(efd);
    close(save_out);
    close(save_err);
    *out = slurp(opath);
    *err = slurp(epath);
    free(opath);
    free(epath);
    return status;
}

/* --- the command --------------------------------------------------------------------------- */

Test(history, main_prints_the_table) {
    char *out, *err;
    const char *args[] = {RUNS_DIR, "--ascii", "-k", "reduce_warp", "-p", "n=2^24", NULL};
    cr_assert_eq(run_main(&out, &err, args), 0, "%s", err);
    cr_assert(strstr(out, "reduction . GB/s (higher is better) . 4 runs"), "%s", out);
    /* The values only (change points when asked), and the legend says how to get marks. */
    cr_assert_null(strstr(out, "v-16.7%"), "%s", out);
    cr_assert(strstr(out, "--changes lists the change points of each case; --neighbours marks "
                          "each run against the previous one\n"),
              "%s", out);
    cr_assert_null(strstr(out, "latency"), "%s", out);
    cr_assert_str_eq(err, "");
    free(out);
    free(err);

    /* --neighbours: the mark against the previous run. */
    const char *nb[] = {RUNS_DIR, "--ascii", "-k",           "reduce_warp",
                        "-p",     "n=2^24",  "--neighbours", NULL};
    cr_assert_eq(run_main(&out, &err, nb), 0, "%s", err);
    cr_assert(strstr(out, "v-16.7%"), "%s", out);
    cr_assert(strstr(out, "v slower, ^ faster than the previous run that measured the case"), "%s",
              out);
    free(out);
    free(err);
}

Test(history, main_exit_statuses) {
    char *out, *err;
    const char *usage[] = {NULL};
    cr_assert_eq(run_main(&out, &err, usage), 2);
    cr_assert(strstr(err, "expected one directory of results files"), "%s", err);
    free(out);
    free(err);

    const char *bad_p[] = {RUNS_DIR, "-p", "n", NULL};
    cr_assert_eq(run_main(&out, &err, bad_p), 2);
    cr_assert(strstr(err, "benchrun history: -p n: expected NAME=VALUE"), "%s", err);
    free(out);
    free(err);

    const char *bad_last[] = {RUNS_DIR, "--last", "0", NULL};
    cr_assert_eq(run_main(&out, &err, bad_last), 2);
    cr_assert(strstr(err, "--last expects a number of runs >= 1, got '0'"), "%s", err);
    free(out);
    free(err);

    const char *not_results[] = {HIST_DIR "/not_results", NULL};
    cr_assert_eq(run_main(&out, &err, not_results), 2);
    cr_assert(strstr(err, "benchrun history: " HIST_DIR "/not_results/notes.json: "), "%s", err);
    cr_assert_str_eq(out, "");
    free(out);
    free(err);

    const char *several[] = {RUNS_DIR, "--plot", "x.svg", NULL};
    cr_assert_eq(run_main(&out, &err, several), 2);
    cr_assert(strstr(err, "--plot draws one suite and " RUNS_DIR
                          " holds several (latency, reduction): choose one with --suite NAME"),
              "%s", err);
    free(out);
    free(err);

    const char *help[] = {"--help", NULL};
    cr_assert_eq(run_main(&out, &err, help), 0);
    cr_assert(strstr(out, "usage: benchrun history DIR"), "%s", out);
    free(out);
    free(err);
}

Test(history, main_plot_without_gnuplot_exits_1_after_the_table) {
    path_without_gnuplot();
    char *svg = br_path_join(tmp, "p.svg");
    char *out, *err;
    const char *args[] = {RUNS_DIR, "--suite", "reduction", "--plot", svg, NULL};
    cr_assert_eq(run_main(&out, &err, args), 1, "%s", err);
    cr_assert(strstr(out, "reduce_warp"), "%s", out);
    cr_assert_str_eq(err, "benchrun history --plot needs gnuplot (apt-get install gnuplot-nox); "
                          "the table above is complete without it\n");
    free(out);
    free(err);
    free(svg);
}

Test(history, main_draws_the_plot) {
    if (!br_history_have_gnuplot())
        cr_skip_test("gnuplot is not on PATH (apt-get install gnuplot-nox): the SVG is not drawn");
    char *svg = br_path_join(tmp, "p.svg");
    char *out, *err;
    const char *args[] = {RUNS_DIR, "--suite", "reduction", "--plot", svg, NULL};
    cr_assert_eq(run_main(&out, &err, args), 0, "%s", err);
    struct stat st;
    cr_assert_eq(stat(svg, &st), 0);
    cr_assert_gt(st.st_size, 1000);
    free(out);
    free(err);
    free(svg);
}

/* --- change points ----------------------------------------------------------------------- */

/* The short SHA of run i (1-based) of the step history. */
static void step_label(char buf[8], size_t i) {
    char sha[41];
    step_sha(sha, i);
    snprintf(buf, 8, "%.7s", sha);
}

/* How many times `needle` occurs in `text`. */
static size_t count_of(const char *text, const char *needle) {
    size_t n = 0;
    for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

Test(history, main_lists_the_change_points) {
    char *dir = step_history_dir();
    char *out, *err, run11[8], run17[8], run24[8], run16[8], run23[8];
    step_label(run11, 11);
    step_label(run16, 16);
    step_label(run17, 17);
    step_label(run23, 23);
    step_label(run24, 24);
    const char *args[] = {dir, "--changes", "--ascii", NULL};
    cr_assert_eq(run_main(&out, &err, args), 0, "%s", err);
    cr_assert_str_eq(err, "");
    cr_assert(strstr(out, "reduction . GB/s (higher is better) . 30 runs . NVIDIA H100 80GB HBM3\n"
                          "change points: E-divisive split, Student's t test (Hunter"),
              "%s", out);
    /* reduce_warp n=2^24: 3% slower from run 17 on (GB/s 1/1.03 - 1 = -2.9%
     * planted; the medians of the two segments measure -3.4%). */
    char *row = row_of(out, "reduce_warp", "2^24");
    cr_assert(strstr(row, run17) && strstr(row, run16), "%s (run 17 %s)", row, run17);
    cr_assert(strstr(row, "2026-11-04 13:06"), "%s", row);
    cr_assert(strstr(row, "1615.1 -> 1560.4 | v-3.4% | 1.12e-09"), "%s", row);
    free(row);
    /* reduce_cub n=2^24: 4% faster from run 11, 3% slower from run 23: run
     * 23 drew a time 2.0 standard deviations short, at the old level, so the
     * second change point is found at run 24. */
    cr_assert_eq(count_of(out, " reduce_cub  | 2^24 |"), 2, "%s", out);
    cr_assert(strstr(out, run11) && strstr(out, run24) && strstr(out, run23), "%s", out);
    cr_assert(strstr(out, "2571.2 -> 2663.4 | ^+3.6%"), "%s", out);
    cr_assert(strstr(out, "2663.4 -> 2612.3 | v-1.9%"), "%s", out);
    /* The steady cases and the new kernel have none. */
    cr_assert_null(strstr(out, "2^20"), "%s", out);
    cr_assert_null(strstr(out, "reduce_vec"), "%s", out);
    cr_assert(strstr(out, "3 change points in 5 cases over 30 runs\n"), "%s", out);
    check_golden("steps_changes_ascii.txt", out);
    free(out);
    free(err);
    free(dir);
}

Test(history, main_marks_nothing_unless_asked) {
    char *dir = step_history_dir();
    char *out, *err;
    const char *args[] = {dir, "--ascii", NULL};
    cr_assert_eq(run_main(&out, &err, args), 0, "%s", err);
    /* No change point is computed for the table: no mark. */
    cr_assert_eq(count_of(out, " v-") + count_of(out, " ^+"), 0, "%s", out);
    char *row = row_of(out, "reduce_warp", "2^24");
    cr_assert(strstr(row, "1542.9 "), "%s", row);
    free(row);
    check_golden("steps_table_ascii.txt", out);
    free(out);
    free(err);

    /* The neighbour marks judge each run against the one before by a
     * baseline's rule for one run median a side (gate/drift.h): the
     * 1% run-to-run noise is not marked (the U test of the two runs' samples
     * marked 24 cells of it), and neither are steps of 3-4%, under that
     * rule's MDE: the change points above see them over all the runs. */
    const char *nb[] = {dir, "--ascii", "--neighbours", NULL};
    cr_assert_eq(run_main(&out, &err, nb), 0, "%s", err);
    size_t marks = count_of(out, " v-") + count_of(out, " ^+");
    cr_assert_leq(marks, 3, "%zu marks:\n%s", marks, out);
    cr_assert(strstr(out, "than the previous run that measured the case (p < 0.01 over each "
                          "run's cases (Benjamini-Hochberg) against the between-run spread and "
                          "|change| > 2%)"),
              "%s", out);
    free(out);
    free(err);
    free(dir);
}

Test(history, main_change_point_options) {
    char *dir = step_history_dir();
    char *out, *err;
    const char *both[] = {dir, "--changes", "--neighbours", NULL};
    cr_assert_eq(run_main(&out, &err, both), 2);
    cr_assert_str_eq(err, "benchrun history: --changes lists change points and --neighbours "
                          "marks the table: choose one\n");
    cr_assert_str_eq(out, "");
    free(out);
    free(err);

    /* -k: only that kernel's. */
    const char *warp[] = {dir, "--changes", "--ascii", "-k", "reduce_warp", NULL};
    cr_assert_eq(run_main(&out, &err, warp), 0, "%s", err);
    cr_assert(strstr(out, "1 change point in 2 cases over 30 runs\n"), "%s", out);
    free(out);
    free(err);

    /* --last 12: runs 19 to 30; reduce_warp's step at 17 is outside. */
    const char *last[] = {dir, "--changes", "--ascii", "--last", "12", NULL};
    cr_assert_eq(run_main(&out, &err, last), 0, "%s", err);
    cr_assert(strstr(out, "over 12 runs"), "%s", out);
    cr_assert_null(strstr(out, " reduce_warp "), "%s", out);
    free(out);
    free(err);

    /* A history too short for change points says so. */
    const char *few[] = {RUNS_DIR, "--changes", "--ascii", "--suite", "reduction", NULL};
    cr_assert_eq(run_main(&out, &err, few), 0, "%s", err);
    cr_assert(strstr(out, "no change point in 8 cases over 4 runs; 8 cases with fewer than 6 "
                          "measured runs not analysed\n"),
              "%s", out);
    free(out);
    free(err);
    free(dir);
}
