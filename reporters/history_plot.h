/* SPDX-License-Identifier: Apache-2.0 */
/* The gnuplot SVG of `benchrun history --plot`
 * (a view of the history model, history/history.h). */
#ifndef BR_HISTORY_PLOT_H
#define BR_HISTORY_PLOT_H

#include <stdio.h>

#include "history/history.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Write the gnuplot script that draws h (which must hold runs of exactly
 * one suite) into `svg_path` to f: `set terminal svg size 1200,900 dynamic
 * enhanced`, a two-panel multiplot, the data inline in `$name << EOD`
 * blocks so that the script stands alone:
 *   1. the metric against problem size per kernel for the newest run: x is
 *      the one parameter that varies among its cases when exactly one does
 *      (a log2 axis when all its values are powers of two), else bytes
 *      (GB/s) or FLOP (GFLOP/s) per execution on a log axis, else (metric
 *      none) the parameter combination; one line with points per kernel;
 *   2. the metric across the runs per case: x is the run's position in
 *      commit order, tics labelled with br_history_label; one line per case
 *      (broken where the case was not measured), the legend below, left out
 *      (and the title says so) above BR_HISTORY_PLOT_MAX_KEYS cases; each
 *      change point (br_history_view_changes, the defaults of
 *      changepoint.h) circled at its first run at the new level (block
 *      $changes) and a dashed vertical line at each run where one starts.
 * Both panels are titled with the suite name and the metric. Every string
 * from the results is escaped for a double-quoted gnuplot string and
 * printed noenhanced. The script writes `svg_path` itself (escaped).
 * Returns 0, or -1 with the error set (h empty or of several suites, a
 * write error). */
int br_history_plot_script(FILE *f, const br_history *h, const char *svg_path);

/* Most cases given a legend entry in panel 2 of the plot. */
#define BR_HISTORY_PLOT_MAX_KEYS 16

/* Draw h into `svg_path` with gnuplot: the script of
 * br_history_plot_script is piped to `gnuplot`, which writes a temporary
 * file beside svg_path that is renamed over it when gnuplot succeeds (so a
 * failure leaves an earlier plot whole). Returns 0; -1 with the error set
 * when gnuplot is not on PATH ("benchrun history --plot needs gnuplot
 * (apt-get install gnuplot-nox); the table above is complete without it"),
 * fails (its own messages are on stderr), or the script cannot be
 * written. */
int br_history_plot(const br_history *h, const char *svg_path);

/* 1 when an executable `gnuplot` is on PATH, else 0. */
int br_history_have_gnuplot(void);

#ifdef __cplusplus
}
#endif
#endif
