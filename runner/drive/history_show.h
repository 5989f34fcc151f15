/* SPDX-License-Identifier: Apache-2.0 */
/* What `benchrun history DIR` does: the results documents
 * of a directory read (history/history.h) and shown as one table per suite
 * across commits, or as the list of change points, and drawn with gnuplot
 * (reporters/history_table.h, history_plot.h). */
#ifndef BR_HISTORY_SHOW_H
#define BR_HISTORY_SHOW_H

#include "history/history.h"

/* How the history is shown. */
typedef struct br_history_show_opts {
    br_history_filter filter; /* --suite, -k, -p, --last (borrowed) */
    const char *plot;         /* --plot FILE.svg, or NULL */
    int changes;              /* --changes: the list of change points instead of the table */
    int neighbours;           /* --neighbours: each run marked against the previous one */
    int ascii;                /* plain ASCII */
} br_history_show_opts;

/* Load dir under o->filter and print its tables (or the change points) on
 * stdout; then, for o->plot, draw it (one suite only: with several, that is
 * said before anything is printed). Messages on stderr as "benchrun
 * history: ...". Returns the exit status: 0 shown (and drawn), 1 the plot
 * could not be drawn (the table is printed), 2 bad input (a directory that
 * cannot be read, nothing left by the filters, --plot over several suites,
 * a table that cannot be written). */
int br_history_show(const char *dir, const br_history_show_opts *o);

#endif
