/* SPDX-License-Identifier: Apache-2.0 */
/* The "samples-csv" reporter: the kept samples in long
 * format, one row per sample, RFC 4180 (csv_table.h). The per-case CSV
 * (csv.c) holds the statistics; this file holds what they were computed
 * from, for plots and your own statistics.
 *
 * Columns (units in the names, as in csv.c):
 *   suite, kernel, <one per parameter of any run>, backend (join these with
 *   the per-case CSV), mode (cold or batch), sample (0, 1, ...: the order
 *   taken), time_ns (ns per execution, exact), clock (what time_ns measures:
 *   monotonic, events or kernel), sm_clock_mhz (SM clock over the sample),
 *   event_ns (CUDA event time, ns per execution), kernel_ns (summed
 *   durations of the GPU operations), span_ns (first operation's start to the
 *   last one's end), gpu_ops_per_exec (GPU operations per execution).
 * The GPU columns are left out when empty in every row (host-only runs), and
 * are empty for a sample whose value was not recorded.
 *
 * Only verified (OK) cases have rows; a case with both timings has its
 * cold samples, then its batch samples. */
#include "reporter.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "csv_table.h"

static const char *cell_mode(char *buf, const br_csv_row *row, int arg) {
    (void)buf, (void)arg;
    return row->mode;
}

static const char *cell_index(char *buf, const br_csv_row *row, int arg) {
    (void)arg;
    snprintf(buf, BR_CSV_CELL_MAX, "%zu", row->sample);
    return buf;
}

static const char *cell_clock(char *buf, const br_csv_row *row, int arg) {
    (void)buf, (void)arg;
    return br_clock_name(row->t->clock);
}

enum { S_TIME, S_SM_MHZ, S_EVENT, S_KERNEL, S_SPAN, S_OPS };

/* A per-sample value: empty when its array was not recorded or the value is
 * NAN (a sample whose CUPTI records were lost). */
static const char *cell_value(char *buf, const br_csv_row *row, int arg) {
    const br_timing *t = row->t;
    const double *arrays[] = {t->samples, t->sm_mhz, t->event_ns, t->kernel_ns, t->span_ns, t->ops};
    return arrays[arg] ? br_csv_number(buf, arrays[arg][row->sample]) : NULL;
}

static const br_csv_col sample_columns[] = {
    {"backend", 0, br_csv_cell_backend, 0},
    {"mode", 0, cell_mode, 0},
    {"sample", 0, cell_index, 0},
    {"time_ns", 0, cell_value, S_TIME},
    {"clock", 0, cell_clock, 0},
    {"sm_clock_mhz", 1, cell_value, S_SM_MHZ},
    {"event_ns", 1, cell_value, S_EVENT},
    {"kernel_ns", 1, cell_value, S_KERNEL},
    {"span_ns", 1, cell_value, S_SPAN},
    {"gpu_ops_per_exec", 1, cell_value, S_OPS},
};
#define N_SAMPLE_COLUMNS (sizeof sample_columns / sizeof sample_columns[0])

/* Visit every sample row of the runs: mark the columns used (pass 0) or
 * write the rows (pass 1). */
static void visit_rows(FILE *f, int pass, const br_csv_col *cols, size_t n_cols,
                       unsigned char *used, const br_run *const *runs, size_t n_runs,
                       const char *const *names) {
    br_csv_row row = {.param_names = names};
    for (size_t i = 0; i < n_runs; i++) {
        row.run = runs[i];
        for (size_t c = 0; c < runs[i]->n_cases; c++) {
            row.c = &runs[i]->cases[c];
            const br_timing *timings[] = {&row.c->cold, &row.c->batch};
            const char *modes[] = {"cold", "batch"};
            for (size_t m = 0; m < 2 && row.c->status == BR_STATUS_OK; m++) {
                row.t = timings[m];
                row.mode = modes[m];
                for (row.sample = 0;
                     row.t->present && row.t->samples && row.sample < row.t->n_samples;
                     row.sample++) {
                    if (pass == 0)
                        br_csv_mark_used(used, cols, n_cols, &row);
                    else
                        br_csv_put_row(f, cols, n_cols, used, &row);
                }
            }
        }
    }
}

/* Write a header row and one row per kept sample of every OK case to f.
 * Returns 0, or -1 with the error set (out of memory, write error). */
static int samples_write(FILE *f, const br_run *const *runs, size_t n_runs,
                         const br_report_opts *opts) {
    (void)opts;
    const char **names = NULL;
    size_t n_names = 0;
    br_csv_col *cols = NULL;
    unsigned char *used = NULL;
    int rc = -1;
    if (br_csv_param_union(&names, &n_names, runs, n_runs) < 0)
        goto done;
    size_t n_cols = 2 + n_names + N_SAMPLE_COLUMNS;
    if (!(cols = calloc(n_cols, sizeof *cols))) {
        br_error_set("out of memory writing the samples CSV");
        goto done;
    }
    cols[0] = (br_csv_col){"suite", 0, br_csv_cell_suite, 0};
    cols[1] = (br_csv_col){"kernel", 0, br_csv_cell_kernel, 0};
    for (size_t j = 0; j < n_names; j++)
        cols[2 + j] = (br_csv_col){names[j], 1, br_csv_cell_param, (int)j};
    memcpy(cols + 2 + n_names, sample_columns, sizeof sample_columns);
    if (!(used = br_csv_used_new(cols, n_cols)))
        goto done;
    visit_rows(f, 0, cols, n_cols, used, runs, n_runs, names);
    br_csv_put_header(f, cols, n_cols, used);
    visit_rows(f, 1, cols, n_cols, used, runs, n_runs, names);
    if (fflush(f) != 0 || ferror(f)) {
        br_error_set("cannot write the samples CSV: %s", strerror(errno));
        goto done;
    }
    rc = 0;
done:
    free(used);
    free(cols);
    free(names);
    return rc;
}

/* The "samples-csv" reporter: one RFC 4180 row per kept sample. */
const br_reporter br_reporter_samples_csv = {"samples-csv", samples_write};
