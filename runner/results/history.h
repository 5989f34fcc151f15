/* history.h - `benchrun history DIR`: the results documents of many runs
 * (the files `--results-dir DIR` writes, or any --json output) read back and
 * shown as one table per suite, each case's headline metric across commits,
 * with the change between runs judged by the baseline rules (baseline.h),
 * and optionally drawn as one SVG by gnuplot.
 *
 * Choices made here:
 *   - Every *.json file directly in DIR is read (sorted by name; other
 *     files, names starting with '.' and subdirectories are ignored). A .json file that is not a
 *     results document is an error naming the file, never skipped: a
 *     history with a silent hole in it looks like a complete one. A
 *     document with no runs adds nothing.
 *   - Runs of several suites are kept apart by suite name (one table per
 *     suite). Within a suite, runs are in commit order: by the committer
 *     time of their git info, ties (reruns at one commit) by the run's
 *     date; runs without git info come last, by date.
 *   - A case is compared with the latest earlier run of the same device
 *     (br_baseline_device) that measured it (status ok), with
 *     br_baseline_compare (force_device 0) and the newer run's own
 *     regression rules. Runs of another device are shown in the same table
 *     (each column says which device when there are several) but never
 *     compared with each other: another GPU is not a regression.
 *   - Filters (-k, -p) drop the cases that do not match before anything is
 *     compared; a run left without cases is dropped. */
#ifndef BR_HISTORY_H
#define BR_HISTORY_H

#include <stddef.h>
#include <stdio.h>

#include "plan/plan.h"
#include "results.h"

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
    const br_param_override *params; /* a case is kept when, for each of these, its run has
                                        that parameter and the case's value is one of the
                                        values given (br_param_override_parse) */
    size_t n_params;
    size_t last; /* keep only the newest `last` runs of each suite (after the other
                    filters); 0: all */
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
    size_t n_files; /* results files read */
} br_history;

/* Read every *.json file directly in `dir` (results documents,
 * resultsfile.h) into *out (disposed by the caller with br_history_dispose,
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
 *      (and the title says so) above BR_HISTORY_PLOT_MAX_KEYS cases.
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
