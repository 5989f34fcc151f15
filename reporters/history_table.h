/* history_table.h - the printed tables of `benchrun history`
 * (a view of the history model, results/history.h). */
#ifndef BR_HISTORY_TABLE_H
#define BR_HISTORY_TABLE_H

#include <stdio.h>

#include "results/history.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Print h to f, one table per suite: a title line (suite, metric, runs,
 * device), a header (kernel, the parameters, then one column per run: its
 * label, its date "YYYY-MM-DD HH:MM" (UTC), and its device letter when the
 * suite's runs used several devices), one row per case (kernel name +
 * parameter values) in the newest run's order, then cases only older runs
 * had. A cell holds the headline metric (GB/s or GFLOP/s, 1 decimal; the
 * headline median time in µs for metric none) and its change against the
 * previous run of the same device that measured the case:
 *   "▼-16.7%"  slower (baseline rules), with the change of the value shown
 *   "▲+20.1%"  faster
 *   "?"        unknown (too few samples, too noisy, another clock, ...)
 *   (nothing)  same, or nothing earlier to compare with
 * "failed" and "–" (skipped) replace the value; "·" marks a run without
 * that case. ascii 1: "v", "^", "-", "." and "u" for "▼", "▲", "–", "·"
 * and "µ". A legend under each table says all this and the rules used.
 * Returns 0, or -1 with the error set (out of memory, a comparison that
 * failed). */
int br_history_print(FILE *f, const br_history *h, int ascii);

#ifdef __cplusplus
}
#endif
#endif
