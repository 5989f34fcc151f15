/* SPDX-License-Identifier: Apache-2.0 */
/* `benchrun history DIR`: the results documents of many runs
 * (the files `--results-dir DIR` writes, or any --json output) read back and
 * shown as one table per suite, each case's headline metric across commits,
 * with the change between runs judged by the baseline rules (baseline.h),
 * and optionally drawn as one SVG by gnuplot.
 *
 * Choices made here:
 *   - Every *.json file directly in DIR is read (sorted by name; other
 *     files, names starting with '.' and subdirectories are ignored), or
 *     its summaries through DIR's index (index.h). A .json file that is not a
 *     results document is an error naming the file, never skipped silently:
 *     a history with a silent hole in it looks like a complete one (a
 *     lenient load skips it with a message). A document with no runs adds
 *     nothing.
 *   - Runs of several suites are kept apart by suite name (one table per
 *     suite). Within a suite, runs are in commit order: by the committer
 *     time of their git info; commits of one committer time in the
 *     commit graph's order (topological: an ancestor first; libgit2, in
 *     the current directory's repository, else the one holding DIR);
 *     reruns at one commit by the run's date; runs without git info come
 *     last, by date.
 *   - A case is compared with the latest earlier run of the same device
 *     (br_baseline_device) that measured it (status ok), with
 *     br_baseline_compare (force_device 0) and the newer run's own
 *     regression rules. Runs of another device are shown in the same table
 *     (each column says which device when there are several) but never
 *     compared with each other: another GPU is not a regression.
 *   - Filters (-k, -p) drop the cases that do not match before anything is
 *     compared; a run left without cases is dropped.
 *
 * This is the model (loading, order, filters, one suite's view); the table
 * and the plot are views of it: reporters/history_table.h and
 * reporters/history_plot.h. */
#ifndef BR_HISTORY_H
#define BR_HISTORY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "changepoint.h"
#include "index.h"
#include "model/run.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which runs and cases br_history_load keeps. Every pointer is borrowed;
 * a zeroed filter keeps everything. */
typedef struct br_history_filter {
    const char *suite;          /* keep only runs of this suite; NULL: every suite */
    const char *const *kernels; /* fnmatch(3) globs: a case is kept when its kernel matches
                                   one (none given: every kernel) */
    size_t n_kernels;
    /* A case is kept when, for each of these, its run has that parameter
     * and the case's value is one of the values given (br_param_override_parse). */
    const struct br_param_override *params;
    size_t n_params;
    size_t last;   /* keep only the newest `last` runs of each suite (after the other
                      filters); 0: all */
    int use_index; /* 1: read the runs through DIR's index (index.h), which also caches
                      the change points; 0: parse every file */
    int lenient;   /* 1: skip a file that is not a results document, and with `suite`
                      the files of other suites, each with a message in br_history.skipped;
                      0: such a file is an error */
} br_history_filter;

/* One run of the history. */
typedef struct br_history_run {
    br_run run;   /* owned */
    char *path;   /* owned; the file it was read from */
    size_t index; /* its position among the runs of that file */
    size_t rerun; /* 1 for the first run (in commit order) at its commit, 2 for the second, ...;
                     runs without git count among themselves */
} br_history_run;

/* The runs of a directory. */
typedef struct br_history {
    char *dir;            /* owned; as given */
    br_history_run *runs; /* owned: n_runs, grouped by suite (suites by name), each suite's in
                             commit order */
    size_t n_runs;
    size_t n_files;             /* results files read */
    br_index *index;            /* owned; DIR's index when the filter asked for it, else NULL */
    br_index_stats index_stats; /* what opening and refreshing it did */
    char **skipped;             /* owned; "PATH: why" for each file skipped (filter.lenient) */
    size_t n_skipped;
} br_history;

/* Read every *.json file directly in `dir` (results documents,
 * results/run_read.h) into *out (disposed by the caller with br_history_dispose,
 * also after a failure), keeping what `f` selects (NULL: everything), in
 * the order described at the top of this file. Returns 0, or -1 with the
 * error set:
 *   "DIR: cannot open directory: ..."            the directory is not readable
 *   "DIR: holds no results files (*.json)"        nothing to read
 *   "PATH: ..."                                   a file that is not a results document
 *                                                 (br_results_load's message)
 *   "PATH: cannot read: ..."                      a *.json entry that cannot be stat'ed
 *   "DIR: holds no run of suite 'S' (suites: a, b)"              --suite
 *   "-p NAME=...: no run of the history has a parameter 'NAME' (parameters: n, b)"
 *   "DIR: no case matches the filters"           -k / -p left nothing */
int br_history_load(br_history *out, const char *dir, const br_history_filter *f);

/* Release what *h owns and zero it; accepts NULL and a zeroed history. */
void br_history_dispose(br_history *h);

/* The short label of run i of h as column headers and plot tics show it:
 * the short SHA, "*" when the work tree was dirty, and "·N" (ASCII: ".N")
 * for the Nth run at one commit ("1a2b3c4", "1a2b3c4·2", "1a2b3c4*");
 * "no git" (and "no git·N") for a run outside git. Written to buf
 * (truncated to len - 1 bytes). */
void br_history_label(char *buf, size_t len, const br_history *h, size_t i, int ascii);

/* BR_HISTORY_NONE: no such case (br_history_cell.ci) or entry. */
#define BR_HISTORY_NONE SIZE_MAX

/* ---- one suite's view: rows (cases) x columns (runs), what the table and
 * the plot (reporters/history_table.h, history_plot.h) show ---- */

typedef struct br_history_cell {
    size_t ci;        /* index of the case in its run; BR_HISTORY_NONE: the run has no such case */
    int compared;     /* 1: compared with an earlier run (change, pct) */
    br_change change; /* br_baseline_compare's label */
    double pct;       /* change of the value shown, a fraction; NAN when not computable */
    size_t cp;        /* the change point whose first run at the new level this is (index
                         into view.changes, br_history_view_changes); BR_HISTORY_NONE: none */
} br_history_cell;

typedef struct br_history_row {
    size_t run, ci; /* the newest run (view index) with this case, and the case there */
    size_t first;   /* first triple of the row's group (build only) */
    size_t rank;    /* position of its first appearance, newest run first */
} br_history_row;

typedef struct br_history_cmp {
    size_t i, j; /* view indices: base and current */
    br_comparison cmp;
    size_t *entry_of; /* per case of run j: its entry, or BR_HISTORY_NONE */
} br_history_cmp;

/* A change point of one case in a view (br_history_view_changes). */
typedef struct br_history_change {
    size_t row;           /* the case (view row) */
    size_t run;           /* view index of the first run at the new level */
    size_t prev;          /* view index of the last run at the old level */
    size_t dev;           /* the device of the series (index into view.devices) */
    double before, after; /* the levels: median value shown (GB/s, GFLOP/s or µs) of the case's
                             runs between neighbouring change points */
    double step;          /* (after - before) / before, a fraction; NAN when before is 0 */
    double p;             /* the permutation p-value (changepoint.h) */
} br_history_change;

typedef struct br_history_view {
    const br_history *h;
    size_t first, n;      /* the runs h->runs[first .. first + n) */
    const br_run *newest; /* the last of them */
    br_metric metric;     /* the newest run's */
    const char **pnames;  /* union of the runs' parameter names (borrowed), newest first */
    size_t n_pnames;
    br_history_row *rows;
    size_t n_rows;
    br_history_cell *cells; /* n_rows x n */
    const char **devices;   /* distinct devices, in order of first use (borrowed) */
    size_t n_devices;
    size_t *dev; /* per run: index into devices */
    br_history_cmp *cmps;
    size_t n_cmps;
    /* br_history_view_changes: */
    br_history_change *changes; /* in row order, then run order */
    size_t n_changes;
    size_t n_series;           /* series analysed: (case, device) pairs measured by any run */
    size_t n_short;            /* of them, too short to analyse (< 2 * min_size measured runs) */
    br_changepoint_cfg cp_cfg; /* the parameters used */
} br_history_view;

/* Build into *v the view of runs h->runs[first .. first + n) (one suite,
 * n >= 1; h is borrowed and must outlive v): the devices and parameter
 * names, one row per case key (newest run's order first), and per row and
 * run the case's index; with `judge`, each measured cell compared with the
 * latest earlier run of the same device that measured its case. Returns 0,
 * or -1 with the error set (out of memory, a comparison that failed); *v is
 * disposed on failure. */
int br_history_view_build(br_history_view *v, const br_history *h, size_t first, size_t n,
                          int judge);

/* The change points of every case of v (built by br_history_view_build)
 * under *cfg (NULL: br_changepoint_defaults): per row and per device, the
 * series is the value shown (br_history_case_value) of each run of that
 * device in commit order, runs without a measured value skipped; each
 * change point found by br_changepoint_find becomes one entry of
 * v->changes and marks the cell of its first run at the new level
 * (cell.cp). Runs of another device are never in one series: a new GPU
 * is not a change of the code. Returns 0, or -1 with the error set (out of
 * memory, a bad cfg). */
int br_history_view_changes(br_history_view *v, const br_changepoint_cfg *cfg);

/* The `benchrun bisect` command that finds the commit of change point c
 * of v: "benchrun bisect PREV CUR SUITE -k KERNEL -p NAME=VALUE...", with
 * the short SHAs of the last run at the old level and the first at the
 * new one, the suite as the run recorded it and the case's kernel and
 * parameter values. Only when the change spans more than one commit: *span
 * is the count of commits on CUR's first-parent line after PREV, read
 * through libgit2 in the current directory's repository, else in the one
 * holding the history's directory; 0 when neither holds both commits (or
 * a run has no commit, or a dirty one). *out is NULL when *span < 2;
 * otherwise the caller frees it. Returns 0, or -1 (out of memory). */
int br_history_bisect_command(char **out, size_t *span, const br_history_view *v,
                              const br_history_change *c);

/* 1 when change point c of v makes its case slower: a lower GB/s or
 * GFLOP/s, a longer time (metric none). */
int br_history_change_slower(const br_history_view *v, const br_history_change *c);

/* Release what *v owns and zero it. */
void br_history_view_dispose(br_history_view *v);

/* Run j (0 .. v->n - 1) of view v, borrowed. */
const br_run *br_history_view_run(const br_history_view *v, size_t j);

/* The cell of row `row` and run j of view v, borrowed. */
br_history_cell *br_history_view_cell(const br_history_view *v, size_t row, size_t j);

/* 1 when run r records a commit (git info with a SHA). */
int br_history_has_commit(const br_run *r);

/* The value a cell shows for case c of run r under metric m: its value in
 * m's unit (GB/s, TFLOP/s, ...: model/metric.h) or, for none, the headline
 * median in µs; NAN when the case has none. */
double br_history_case_value(const br_run *r, const br_case_result *c, br_metric m);

/* The value of parameter `name` in case c of run r: 1 and *out, or 0 when
 * the run has no such parameter. */
int br_history_param_of(int64_t *out, const br_run *r, const br_case_result *c, const char *name);

/* "n=2^20 b=256" for case c of run r in r's parameter order into buf
 * (truncated to len - 1 bytes; len > 0). */
void br_history_params_label(char *buf, size_t len, const br_run *r, const br_case_result *c);

/* The kernel name of case c of run r ("?" when unknown), borrowed. */
const char *br_history_kernel_of(const br_run *r, const br_case_result *c);

/* "2026-11-22 10:00" from an ISO 8601 date ("2026-11-22T10:00:00Z") into
 * buf; another text as it is, "" as "no date". */
void br_history_short_date(char *buf, size_t len, const char *iso);

/* The distinct suite names of h's runs, in run order ("reduction, sgemm"),
 * into buf[0..len) (truncated when it does not fit). */
void br_history_suite_list(char *buf, size_t len, const br_history *h);

/* How many runs from index `first` on (first < h->n_runs) belong to the
 * suite of run `first` (runs are ordered by suite, then time): at least 1. */
size_t br_history_suite_runs(const br_history *h, size_t first);

#ifdef __cplusplus
}
#endif
#endif
