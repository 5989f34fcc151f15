/* SPDX-License-Identifier: Apache-2.0 */
/* The results table on a terminal, printed as the cases finish, as Google
 * Benchmark's and NVBench's users see their rows: per run, the box's title
 * and column heads when the run begins, each case's row as soon as it is
 * final (cleared of the progress line first), and at the end the box's
 * bottom, the clock lines (which kinds of cases ran, on which clock: known
 * only then) and the notes. Column widths are fixed when the run begins:
 * from the heads, every kernel name and parameter value of the plan, and
 * room for the figures; the columns are those of the whole table but the
 * events, roofline and energy columns, which depend on what was measured
 * (the piped table and the output files have them). The comparison with a
 * baseline, which comes after every run, stays the table reporter's
 * (br_report_opts.rows_shown). The callbacks fit drive/driver.h's
 * br_driver_watch. */
#ifndef BR_TABLE_LIVE_H
#define BR_TABLE_LIVE_H

#include <stddef.h>
#include <stdio.h>

#include "model/run.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct br_table_live br_table_live;

/* A live table writing to f (a terminal; not closed here): ascii as the
 * table reporter's. Returns NULL when out of memory. */
br_table_live *br_table_live_new(FILE *f, int ascii);

/* Free l (a box left open is dropped: its run did not end); accepts NULL. */
void br_table_live_free(br_table_live *l);

/* The callbacks, ctx being a br_table_live: run began (its header and
 * every case's identity are in), case i of run is final, run ended
 * (closed: its derived figures are in). A write error or out of memory
 * stops the live table quietly: the run goes on. */
void br_table_live_begun(void *ctx, br_run *run);
void br_table_live_case(void *ctx, br_run *run, size_t i);
void br_table_live_ended(void *ctx, br_run *run);

/* The runs whose boxes l printed to their end (0 after a failure). */
size_t br_table_live_runs(const br_table_live *l);

#ifdef __cplusplus
}
#endif
#endif
