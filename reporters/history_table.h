/* SPDX-License-Identifier: Apache-2.0 */
/* The printed tables of `benchrun history`
 * (a view of the history model, history/history.h). */
#ifndef BR_HISTORY_TABLE_H
#define BR_HISTORY_TABLE_H

#include <stdio.h>

#include "history/history.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the cells of br_history_print mark. */
typedef enum br_history_marks {
    BR_HISTORY_MARK_CHANGES = 0, /* the change points of each case (br_history_view_changes) */
    BR_HISTORY_MARK_NEIGHBOURS,  /* each run against the previous run (the baseline rules) */
    BR_HISTORY_MARK_NONE         /* the values only: nothing computed beyond them */
} br_history_marks;

/* Print h to f, one table per suite: a title line (suite, metric, runs,
 * device), a header (kernel, the parameters, then one column per run: its
 * label, its date "YYYY-MM-DD HH:MM" (UTC), and its device letter when the
 * suite's runs used several devices), one row per case (kernel name +
 * parameter values) in the newest run's order, then cases only older runs
 * had. A cell holds the headline metric (GB/s or GFLOP/s, 1 decimal; the
 * headline median time in µs for metric none) and, with `marks`
 * BR_HISTORY_MARK_CHANGES, the change points of its case (defaults of
 * changepoint.h) on the first run at the new level:
 *   "▼-3.1%"   slower from this run on, with the step of the level
 *   "▲+3.1%"   faster
 *   (nothing)  no change point here
 * or, with BR_HISTORY_MARK_NEIGHBOURS, its change against the previous run
 * of the same device that measured the case:
 *   "▼-16.7%"  slower (baseline rules), with the change of the value shown
 *   "▲+20.1%"  faster
 *   "?"        unknown (too few samples, too noisy, another clock, ...)
 *   (nothing)  same, or nothing earlier to compare with
 * or, with BR_HISTORY_MARK_NONE, nothing (the legend says how to get marks).
 * "failed" and "–" (skipped) replace the value; "·" marks a run without
 * that case. ascii 1: "v", "^", "-", "." and "u" for "▼", "▲", "–", "·"
 * and "µ". A legend under each table says all this and the rules used.
 * Returns 0, or -1 with the error set (out of memory, a comparison that
 * failed). */
int br_history_print(FILE *f, const br_history *h, int ascii, br_history_marks marks);

/* Print to f the change points of h, one list per suite: a title line (as
 * the table's), one line saying the method and its parameters, then one
 * row per change point (kernel, parameters, the commit label and date of
 * the first run at the new level, its device when the suite's runs used
 * several, the levels "before → after" in the unit of the table, the step
 * "▼-3.1%" and the p-value), in case order; for each change point that
 * spans more than one commit, the `benchrun bisect` command that finds it
 * (br_history_bisect_command); then a line of counts (cases analysed, too
 * short to analyse). ascii 1: "->", "v", "^" for "→", "▼",
 * "▲". Returns 0, or -1 with the error set. */
int br_history_print_changes(FILE *f, const br_history *h, int ascii);

/* The title line of one suite's view: "suite · GB/s (higher is better) ·
 * 3 runs · device" (ascii: " . " between the parts). */
void br_history_print_title(FILE *f, const br_history_view *v, int ascii);

/* A value as the history's cells show it into buf: 1 decimal for a metric
 * (GB/s, GFLOP/s); for a time (µs, metric none) 1 decimal, 2 below 10 µs, 3
 * below 1 µs; "n/a" when not finite. */
void br_history_format_value(char *buf, size_t len, double v, br_metric m);

#ifdef __cplusplus
}
#endif
#endif
