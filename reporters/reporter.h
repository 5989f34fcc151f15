/* SPDX-License-Identifier: Apache-2.0 */
/* The one small interface every output format implements.
 * A reporter only reads results; it never measures or changes them. */
#ifndef BR_REPORTER_H
#define BR_REPORTER_H

#include <stddef.h>
#include <stdio.h>

#include "model/run.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct br_report_opts {
    int ascii; /* 1: plain ASCII instead of UTF-8 box drawing and symbols (table) */
    int color; /* 1: ANSI colours (table; the caller decides: a TTY and NO_COLOR unset) */
    int gbench_repetitions; /* 1: gbench writes each kept sample as a repetition, plus the
                               mean/median/stddev/cv aggregates (--gbench-repetitions) */
    int energy; /* 1: the table shows the energy columns: J/exec, W, GB/J or GFLOP/J (--energy) */
    int rows_shown; /* 1: each run's box and notes were printed as its cases finished
                       (table_live.h): the table shows only what follows them, the
                       comparison with the baseline */
} br_report_opts;

typedef struct br_reporter {
    const char *name; /* "table", "csv", "json" */
    /* Write the runs (one per suite) to f. Returns 0, or -1 with the error set
     * (the caller discards a partly written file). */
    int (*write)(FILE *f, const br_run *const *runs, size_t n_runs, const br_report_opts *opts);
} br_reporter;

/* Display width of string s in a terminal, in columns (reporters/width.c):
 * each character's wcwidth(3) under the current LC_CTYPE locale (2 for CJK
 * and most emoji, 0 for combining marks); a byte that is not valid in the
 * locale, or a non-printable character, counts 1. In a single-byte locale
 * (the C locale) a UTF-8 string counts one column per code point. NULL: 0. */
size_t br_report_display_width(const char *s);

/* 1 when a results table of run r gets an "events" column: the run's GPU
 * clock is the kernel clock and the headline timing of a verified case has
 * CUDA event times (br_timing.event_ns). */
int br_report_has_events_column(const br_run *r);

/* 1 when a results table of run r gets a "% peak" column: the metric has a
 * peak (model/metric.h; br_case_result.pct_peak; its cells are "–" where pct_peak
 * is NAN, e.g. host cases or a run without a device). */
int br_report_has_peak_column(const br_run *r);

/* The second throughput column of run r's results tables: the metric's
 * companion (model/metric.h: GFLOP/s beside GB/s, GB/s beside the compute
 * metrics) when a case has its amount (the suite gives both `bytes` and
 * `flops`); else BR_METRIC_NONE (one metric column, or none). A case's
 * figure in a metric column is br_case_metric_value. */
br_metric br_report_second_metric(const br_run *r);

/* The "% peak" column's header for run r, written into buf[0..len) and
 * returned: "% peak" when the table shows one metric, else what pct_peak is
 * of: "% peak (GB/s)", "% peak (TFLOP/s)" (the run's metric). */
const char *br_report_peak_head(char *buf, size_t len, const br_run *r);

/* 1 when a verified case of run r has energy figures (br_case_result.energy:
 * measured with --energy); the table shows them only with --energy. */
int br_report_has_energy(const br_run *r);

/* The help of the reporters' options that several commands offer. */
#define BR_REPORTER_HELP_JSON     "also write the results as JSON ('-': standard output)"
#define BR_REPORTER_HELP_MARKDOWN "also write the results and the comparison as Markdown"

/* The reporters that write a run's results to a file, one row each:
 * X(id, name, help, in_report) is br_reporter_<id> (defined in the
 * reporter's own file, its name `name`), the option --<name> FILE of
 * `benchrun` with `help` (and of `benchrun report` when in_report is 1),
 * and the path br_outputs.<id> (drive/) that the option fills, checked
 * before the command runs and written after it. A new reporter of files
 * is its own file here and one row of this list. The rows' order is the
 * order of the options in --help and of the outputs' checks and writes. */
#define BR_REPORTER_FILES(X)                                                                       \
    X(csv, "csv", "also write the results as CSV ('-': standard output)", 1)                       \
    X(samples_csv, "samples-csv", "also write every kept sample as CSV, one row per sample", 0)    \
    X(json, "json", BR_REPORTER_HELP_JSON, 1)                                                      \
    X(markdown, "markdown", BR_REPORTER_HELP_MARKDOWN, 1)                                          \
    X(gbench, "gbench", "also write the results in Google Benchmark's JSON format", 1)

/* The reporter called `name`, or NULL when there is none. */
const br_reporter *br_reporter_find(const char *name);

#ifdef __cplusplus
}
#endif
#endif
