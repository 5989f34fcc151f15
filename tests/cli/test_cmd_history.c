/* test_cmd_history.c - the `benchrun history` command (cli/cmd_history.h,
 * br_history_main): the table it prints, its exit statuses, --plot with and
 * without gnuplot. The fixture runs are in reporters/history_fixture.h. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "cli/cmd_history.h"

#include "reporters/history_fixture.h"

TestSuite(history, .init = history_init, .fini = history_fini, .timeout = 120);

/* Run br_history_main on args (argv[0] "history" added) with stdout and
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
    int status = br_history_main(argc, argv);
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
    cr_assert(strstr(out, "v-16.7%"), "%s", out);
    cr_assert_null(strstr(out, "latency"), "%s", out);
    cr_assert_str_eq(err, "");
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
