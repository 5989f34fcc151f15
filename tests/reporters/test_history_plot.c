/* SPDX-License-Identifier: Apache-2.0 */
/* test_history_plot.c - the gnuplot plot of `benchrun history`
 * (reporters/history_plot.h): the script (data blocks, titles, axes,
 * escaping) and drawing the SVG with gnuplot (skipped, visibly, without it).
 * The fixture runs are in history_fixture.h. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "reporters/history_fixture.h"

TestSuite(history, .init = history_init, .fini = history_fini, .timeout = 120);

/* --- the plot ---------------------------------------------------------------------------- */

Test(history, plot_script) {
    br_history h;
    br_history_filter f = {.suite = "reduction"};
    load_ok(&h, RUNS_DIR, &f);
    char *s = script_text(&h, "out/plot.svg");
    cr_assert(strstr(s, "set terminal svg size 1200,900 dynamic enhanced"), "%s", s);
    cr_assert(strstr(s, "set output \"out/plot.svg\"\n"), "%s", s);
    cr_assert(strstr(s, "set multiplot layout 2,1 title \"benchrun history: reduction - sum of n "
                        "float32\" noenhanced\n"),
              "%s", s);
    cr_assert(strstr(s, "unset multiplot\nunset output\n"), "%s", s);
    /* Panel 1: x = n on a log2 axis, one block per kernel of the newest run. */
    cr_assert(strstr(s, "set title \"reduction: GB/s against n, newest run ccccccc·2 (2026-11-22 "
                        "10:00)\" noenhanced\n"),
              "%s", s);
    cr_assert(strstr(s, "set logscale x 2\nset format x \"2^{%L}\"\n"), "%s", s);
    cr_assert(strstr(s, "set xlabel \"n (log2 scale)\" noenhanced\n"), "%s", s);
    cr_assert(strstr(s, "# panel 1, kernel reduce_warp: x, GB/s\n$size1 << EOD\n1048576 1023.001\n"
                        "16777216 1341.104\nEOD\n"),
              "%s", s);
    cr_assert(strstr(s, "$size3 << EOD\n"), "%s", s); /* reduce_vec */
    cr_assert(strstr(s, "plot $size0 using 1:2 with linespoints lw 1.5 title \"reduce_naive\" "
                        "noenhanced"),
              "%s", s);
    /* Panel 2: one block per case, x = run, a gap where reduce_naive n=2^24 failed. */
    cr_assert(strstr(s, "set title \"reduction: GB/s across commits, oldest to newest\" "
                        "noenhanced\n"),
              "%s", s);
    cr_assert(strstr(s, "set xtics norotate noenhanced (\"aaaaaaa\" 1, \"bbbbbbb\" 2, \"ccccccc\" "
                        "3, \"ccccccc·2\" 4)\n"),
              "%s", s);
    cr_assert(strstr(s, "# panel 2, reduce_naive n=2^24: run, GB/s\n$case"), "%s", s);
    const char *naive24 = strstr(s, "# panel 2, reduce_naive n=2^24");
    cr_assert(strstr(naive24, "EOD\n1 197.379\n\n3 197.379\n4 197.379\nEOD\n"), "%s", naive24);
    cr_assert(strstr(s, "title \"reduce_warp n=2^24\" noenhanced"), "%s", s);
    cr_assert(strstr(s, "set key below height 1\n"), "%s", s);
    free(s);
    br_history_dispose(&h);

    /* Several suites: refused. */
    load_ok(&h, RUNS_DIR, NULL);
    FILE *null = fopen("/dev/null", "w");
    cr_assert_eq(br_history_plot_script(null, &h, "x.svg"), -1);
    fclose(null);
    cr_assert_str_eq(br_error_get(), "the history holds several suites (latency, reduction); "
                                     "--plot draws one: choose it with --suite NAME");
    br_history_dispose(&h);
}

Test(history, plot_script_bytes_axis_many_cases_and_escaping) {
    /* Two parameters vary: x = bytes; 20 cases: no legend; a description
     * and a path with quotes and backslashes. */
    br_run r;
    const char *params[] = {"n", "block"};
    run_init(&r, "bw", "say \"hi\" \\ there\nnext line", BR_METRIC_GBPS, BR_MODE_COLD, params, 2,
             32);
    add_kernel(&r, "copy", "kernels/copy.cu", BR_BACKEND_GPU);
    git_commit(&r.git, SHA_A, "main", 0);
    h100(&r);
    double s[NS];
    size_t combo = 0;
    for (int64_t e = 20; e < 25; e++) {
        for (int64_t b = 64; b <= 512; b *= 2, combo++) {
            spread(s, NS, (double)(1 << e) / 1000.0 * (double)b / 64.0);
            int64_t pv[] = {(int64_t)1 << e, b};
            br_case_result *c =
                add_case(&r, 0, combo, pv, BR_STATUS_OK, NULL, NULL, 8.0 * (double)pv[0], NAN);
            set_timing(&c->cold, s, NS, 1.0, 1, BR_STOP_NOISE, 1980);
        }
    }
    br_run_derive(&r);
    write_doc(tmp, "bw.json", &r, 1);
    br_history h;
    load_ok(&h, tmp, NULL);
    char *sc = script_text(&h, "a\"b\\c.svg");
    cr_assert(strstr(sc, "set output \"a\\\"b\\\\c.svg\"\n"), "%s", sc);
    cr_assert(strstr(sc, "title \"benchrun history: bw - say \\\"hi\\\" \\\\ there next line\" "
                         "noenhanced\n"),
              "%s", sc);
    cr_assert(strstr(sc, "set xlabel \"bytes per execution (log scale)\" noenhanced\n"), "%s", sc);
    cr_assert(strstr(sc, "set logscale x 10\nset format x \"%.0s %cB\"\n"), "%s", sc);
    cr_assert(strstr(sc, "set title \"bw: GB/s across commits, oldest to newest (20 cases: no "
                         "legend above 16)\" noenhanced\n"),
              "%s", sc);
    cr_assert(strstr(sc, "unset key\n"), "%s", sc);
    cr_assert(strstr(sc, "notitle"), "%s", sc);
    free(sc);
    br_history_dispose(&h);
    br_run_dispose(&r);
}

Test(history, plot_script_metric_none) {
    br_history h;
    br_history_filter f = {.suite = "latency"};
    load_ok(&h, RUNS_DIR, &f);
    char *s = script_text(&h, "l.svg");
    /* No parameter: one tic per kernel. */
    cr_assert(strstr(s, "set title \"latency: median time (µs) against kernel, newest run no git·2 "
                        "(2026-11-23 12:00)\" noenhanced\n"),
              "%s", s);
    cr_assert(strstr(s, "set xtics noenhanced (\"noop_host\" 1, \"sleep_host\" 2)\n"), "%s", s);
    cr_assert(strstr(s, "$size0 << EOD\n1 0.85\nEOD\n"), "%s", s);
    cr_assert(strstr(s, "# panel 2, noop_host: run, median time (µs)\n$case0 << EOD\n1 0.85\n2 "
                        "0.85\nEOD\n"),
              "%s", s);
    cr_assert(strstr(s, "set ylabel \"median time (µs)\" noenhanced\n"), "%s", s);
    free(s);
    br_history_dispose(&h);
}

Test(history, draws_an_svg_with_gnuplot) {
    if (!br_history_have_gnuplot())
        cr_skip_test("gnuplot is not on PATH (apt-get install gnuplot-nox): the SVG is not drawn");
    br_history h;
    br_history_filter f = {.suite = "reduction"};
    load_ok(&h, RUNS_DIR, &f);
    char *svg = br_path_join(tmp, "plot.svg");
    cr_assert_eq(br_history_plot(&h, svg), 0, "%s", br_error_get());
    char *text = slurp(svg);
    cr_assert_not_null(text);
    cr_assert(strncmp(text, "<?xml", 5) == 0 || strncmp(text, "<svg", 4) == 0, "%.200s", text);
    cr_assert(strstr(text, "reduce_warp n=2^24"), "no legend entry in the SVG");
    free(text);
    /* Nothing else is left in tmp: the temporary SVG was renamed. */
    struct stat st;
    char *leftover = br_strfmt("%s.XXXXXX", svg);
    cr_assert_neq(stat(leftover, &st), 0);
    free(leftover);
    free(svg);
    br_history_dispose(&h);
}

Test(history, plot_without_gnuplot_says_so) {
    br_history h;
    br_history_filter f = {.suite = "reduction"};
    load_ok(&h, RUNS_DIR, &f);
    path_without_gnuplot();
    cr_assert_eq(br_history_have_gnuplot(), 0);
    char *svg = br_path_join(tmp, "plot.svg");
    cr_assert_eq(br_history_plot(&h, svg), -1);
    cr_assert_str_eq(br_error_get(), "benchrun history --plot needs gnuplot (apt-get install "
                                     "gnuplot-nox); the table above is complete without it");
    struct stat st;
    cr_assert_neq(stat(svg, &st), 0);
    free(svg);
    br_history_dispose(&h);
}

Test(history, plot_draws_the_change_points) {
    char *dir = step_history_dir();
    br_history h;
    load_ok(&h, dir, NULL);
    char *s = script_text(&h, "steps.svg");
    /* One point per change point at its first run at the new level (runs
     * 17, 11 and 24: history_fixture.h), drawn circled. */
    const char *block = strstr(s, "$changes << EOD\n");
    cr_assert_not_null(block, "%s", s);
    cr_assert(strncmp(block, "$changes << EOD\n17 1542.887\n11 2701.014\n", 40) == 0, "%.80s",
              block);
    cr_assert(strstr(block, "\n24 2561.52\nEOD\n"), "%.120s", block);
    cr_assert(strstr(s, "$changes using 1:2 with points pt 6 ps 2.5 lw 2 lc rgb \"#d62728\" title "
                        "\"change point\"\n"),
              "%s", s);
    /* A dashed line at each of those runs, once each. */
    cr_assert(strstr(s, "set arrow from 17, graph 0 to 17, graph 1 nohead back dt 2"), "%s", s);
    cr_assert(strstr(s, "set arrow from 11, graph 0 to 11, graph 1 nohead back dt 2"), "%s", s);
    cr_assert(strstr(s, "set arrow from 24, graph 0 to 24, graph 1 nohead back dt 2"), "%s", s);
    size_t arrows = 0;
    for (const char *p = strstr(s, "\nset arrow"); p; p = strstr(p + 1, "\nset arrow"))
        arrows++;
    cr_assert_eq(arrows, 3);
    cr_assert(strstr(s, "oldest to newest; 3 change points circled, dashed\" noenhanced"), "%s", s);
    cr_assert(strstr(s, "unset multiplot\nunset arrow\nunset output\n"), "%s", s);
    free(s);
    br_history_dispose(&h);

    /* The four-run fixture: too short, nothing drawn. */
    br_history_filter f = {.suite = "reduction"};
    load_ok(&h, RUNS_DIR, &f);
    s = script_text(&h, "x.svg");
    cr_assert_null(strstr(s, "$changes"), "%s", s);
    cr_assert_null(strstr(s, "set arrow"), "%s", s);
    free(s);
    br_history_dispose(&h);
    free(dir);
}
