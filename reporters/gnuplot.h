/* SPDX-License-Identifier: Apache-2.0 */
/* Drawing an SVG with gnuplot, shared by the plots of
 * `benchrun history --plot` (history_plot.c) and `--roofline`
 * (roofline_plot.c). */
#ifndef BR_GNUPLOT_H
#define BR_GNUPLOT_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Writes a gnuplot script to f that draws into svg_path (the script sets its
 * own terminal and output). Returns 0, or -1 with the error set. */
typedef int (*br_gnuplot_script_fn)(FILE *f, void *ctx, const char *svg_path);

/* `s` as a double-quoted gnuplot string: backslash, double quote and
 * backquote escaped (gnuplot substitutes a command's output for `...` in a
 * double-quoted string: "Substitution" in its manual), control characters (a newline would end the
 * command) and runs of white space as one space; NULL reads as "". */
void br_gnuplot_string(FILE *f, const char *s);

/* 1 when an executable `gnuplot` is on PATH (br_proc_find, base/proc.h),
 * else 0. */
int br_gnuplot_have(void);

/* Draw svg_path: the script fn(ctx) writes is saved to a temporary file and
 * run by `gnuplot`, which draws into a temporary file beside svg_path that is
 * renamed over it when gnuplot succeeds (so a failure leaves an earlier plot
 * whole; no temporary file is left behind). `option` ("--plot",
 * "--roofline") names the file in messages. Returns 0, or -1 with the error
 * set: a control character in the name, gnuplot missing or failing (with
 * its first message), a file that cannot be written. gnuplot's messages on
 * a success are summed up in one warning (how many, and the first, naming
 * no temporary file). */
int br_gnuplot_draw(const char *svg_path, const char *option, br_gnuplot_script_fn fn, void *ctx);

#ifdef __cplusplus
}
#endif
#endif
