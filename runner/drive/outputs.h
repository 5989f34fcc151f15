/* SPDX-License-Identifier: Apache-2.0 */
/* Where a run's results go: the reporters' files (written
 * atomically), standard output, and the results directory
 * (<date>-<sha>[-N].json, never overwritten). */
#ifndef BR_OUTPUTS_H
#define BR_OUTPUTS_H

#include "reporters/reporter.h"
#include "model/run.h"

/* The outputs asked for; each path NULL when not asked, "-" for stdout. */
typedef struct br_outputs {
    /* A path per reporter of files: csv, samples_csv, json, markdown, gbench
     * (reporters/reporter.h's BR_REPORTER_FILES, in its order). */
#define BR_OUTPUTS_PATH(id, name, help, in_report) const char *id;
    BR_REPORTER_FILES(BR_OUTPUTS_PATH)
#undef BR_OUTPUTS_PATH
    const char *results_dir; /* --results-dir DIR */
    int ascii;               /* plain ASCII table */
    int color;               /* ANSI colours on the table (a terminal, NO_COLOR unset) */
    int gbench_repetitions;  /* --gbench-repetitions: samples as repetitions (gbench.c) */
    const char *roofline;    /* --roofline FILE.svg: the roofline chart (roofline_plot.h) */
    int energy;              /* --energy: the table shows the energy columns */
    int rows_shown;          /* the runs' boxes were printed as their cases finished (a terminal):
                                the table adds only the comparisons (reporters/table_live.h) */
} br_outputs;

/* Whether the table goes to standard output: no output file is "-". */
int br_outputs_table_on_stdout(const br_outputs *o);

/* Write runs[0..n) with reporter `name` to path ("-": stdout) atomically.
 * Returns 0; -1 with the error set for no such reporter; -1 after
 * "benchrun: cannot write PATH: why" on stderr when the write failed. */
int br_output_emit(const char *name, const char *path, const br_run *const *runs, size_t n,
                   const br_report_opts *opts);

/* Refuse an output path that cannot be written, before anything runs:
 * empty, a directory, a block device, a socket, a symbolic link to nothing
 * (base/files.h), or a new or regular file in a directory not writable.
 * NULL, "-", standard output, a FIFO and a character device pass (they are
 * written in place). Opens nothing.
 * Returns 0, or -1 with the error set ("benchrun: OPTION PATH: why"). */
int br_output_check(const char *option, const char *path);

/* Write runs[0..n)'s JSON document into dir as <date>-<short sha>.json (UTC
 * date and time of the run; "-dirty" after the sha for a dirty work tree,
 * "nogit" outside a repository), never replacing a file: a name taken gets
 * "-2", "-3", ... The file appears whole or not at all (br_write_new).
 * Returns 0, or -1 after a message on stderr. */
int br_output_save_results(const char *dir, const br_run *const *runs, size_t n,
                           const br_report_opts *opts, int quiet);

/* Write every output of o for runs[0..n): the table on stdout unless an
 * output takes it, then each reporter's file in BR_REPORTER_FILES's order
 * (CSV, the samples CSV, JSON, Markdown, Google Benchmark JSON), the results
 * directory and the roofline chart. Returns the number of outputs that
 * failed (each said on stderr). */
int br_outputs_write(const br_outputs *o, const br_run *const *runs, size_t n, int quiet);

#endif
