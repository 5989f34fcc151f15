/* SPDX-License-Identifier: Apache-2.0 */
/* The "csv" reporter: one row per case, RFC 4180 (csv_table.h).
 *
 * Every column has its unit in its name: _ns (nanoseconds per execution),
 * _per_exec (per execution of the kernel), _per_s (per second; GB = 1e9
 * bytes, GFLOP = 1e9 floating-point operations), _pct (percent, 0 to 100),
 * _ratio (a plain ratio), _mhz (megahertz), _w (watts), _per_j (per joule), n_ (a count); the rest
 * are text or true/false.
 *
 *   suite, kernel, <one per parameter of any run>, backend, status, stage,
 *   message, headline (which timing, cold or batch, gb_per_s ... speedup_ratio
 *   use), clock (what the headline timing's samples measure: monotonic,
 *   events or kernel; empty when the case is not OK or that timing was not
 *   taken), bytes_per_exec, flop_per_exec, gb_per_s, gflop_per_s, peak_pct,
 *   speedup_ratio, intensity_flop_per_byte (flops / bytes), attainable_gflop_per_s
 *   (min(the compute peak of the case's precision, intensity x the run's peak
 *   bandwidth)), roofline_pct (100
 *   gflop_per_s / attainable), bound ("memory" or "compute"): the roofline
 *   columns (model/roofline.h), for verified GPU cases with both bytes and
 *   flops; energy_j_per_exec (joules per execution), power_w (mean power, W),
 *   gflop_per_j, gb_per_j (work per joule), energy_spread_pct (max - min of the
 *   energy windows over their median): measured with --energy
 *   (platform/energy.h); git_sha, device,
 *   then for each of the prefixes cold_ and batch_ (empty cells when that
 *   timing was not taken or the case is not OK): median_ns, mean_ns, min_ns,
 *   max_ns, stddev_ns, noise_pct (100 stddev / mean), q1_ns, q3_ns, iqr_ns,
 *   ci_low_ns, ci_high_ns (95% CI of the median), n_outliers, n_samples
 *   (kept), n_throttled (discarded), stop_reason, reps_per_sample,
 *   cuda_graph (true/false on a GPU, empty on the host), sm_clock_mhz (median
 *   SM clock), event_median_ns (CUDA event time), kernel_median_ns (kernel
 *   clock: summed durations of the GPU operations), span_median_ns (first
 *   operation's start to the last one's end), gpu_ops_per_exec (median GPU
 *   operations per execution). The four GPU-clock columns are medians over
 *   the kept samples (br_timing), empty when not recorded (host cases, or
 *   CUPTI did not collect).
 *
 * The samples themselves are not here (a cell of 10,000 samples outgrows a
 * spreadsheet cell and Python's csv field limit): they are in the JSON
 * document and in the "samples-csv" reporter's file (csv_samples.c).
 *
 * Columns other than the text ones of a case (suite ... device) are left
 * out when empty in every row (csv_table.h), so a reader that sniffs types
 * (DuckDB's read_csv) types every column: e.g. a host-only run has no
 * sm_clock_mhz columns, a cold-only run no batch_ columns. */
#include "reporter.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "csv_table.h"
#include "model/roofline.h"

static int case_ok(const br_csv_row *row) {
    return row->c->status == BR_STATUS_OK;
}

static const char *cell_status(char *buf, const br_csv_row *row, int arg) {
    (void)buf, (void)arg;
    return br_status_name(row->c->status);
}

static const char *cell_stage(char *buf, const br_csv_row *row, int arg) {
    (void)buf, (void)arg;
    return br_stage_name(row->c->stage);
}

static const char *cell_message(char *buf, const br_csv_row *row, int arg) {
    (void)buf, (void)arg;
    return row->c->message;
}

static const char *cell_headline(char *buf, const br_csv_row *row, int arg) {
    (void)buf, (void)arg;
    return row->run->measure.headline == BR_MODE_BATCH ? "batch" : "cold";
}

static const char *cell_clock(char *buf, const br_csv_row *row, int arg) {
    (void)buf, (void)arg;
    const br_timing *head = br_case_headline(row->run, row->c);
    return case_ok(row) && head->present ? br_clock_name(head->clock) : NULL;
}

enum { FIG_BYTES, FIG_FLOPS, FIG_GBPS, FIG_GFLOPS, FIG_PEAK, FIG_SPEEDUP };

static const char *cell_figure(char *buf, const br_csv_row *row, int arg) {
    const br_case_result *c = row->c;
    const double figures[] = {c->bytes, c->flops, c->gbps, c->gflops, c->pct_peak, c->speedup};
    return br_csv_number(buf, figures[arg]);
}

enum { RF_INTENSITY, RF_ATTAINABLE, RF_PCT };

/* The roofline figures of the case (model/roofline.h); empty without a point. */
static const char *cell_roofline(char *buf, const br_csv_row *row, int arg) {
    br_roofline_point p = br_roofline_case(row->run, row->c);
    const double figures[] = {p.intensity, p.attainable, p.pct};
    return br_csv_number(buf, figures[arg]);
}

static const char *cell_bound(char *buf, const br_csv_row *row, int arg) {
    (void)buf, (void)arg;
    return br_bound_name(br_roofline_case(row->run, row->c).bound);
}

enum { EN_J, EN_W, EN_GFLOP_J, EN_GB_J, EN_SPREAD };

/* The energy figures of the case (br_energy); empty when not measured. */
static const char *cell_energy(char *buf, const br_csv_row *row, int arg) {
    const br_case_result *c = row->c;
    const br_energy *e = &c->energy;
    if (!case_ok(row) || !e->present)
        return NULL;
    const double figures[] = {e->j_per_exec, e->watts, br_energy_per_joule(c->flops, e),
                              br_energy_per_joule(c->bytes, e), 100.0 * e->spread};
    return br_csv_number(buf, figures[arg]);
}

static const char *cell_git_sha(char *buf, const br_csv_row *row, int arg) {
    (void)buf, (void)arg;
    const br_run *r = row->run;
    return r->git.present && !r->git.unborn ? r->git.sha : NULL;
}

static const char *cell_device(char *buf, const br_csv_row *row, int arg) {
    (void)buf, (void)arg;
    return row->run->has_device ? row->run->device.name : row->run->host.cpu_model;
}

/* The fields of a timing; a timing column's arg is T_COLD or T_BATCH plus
 * one of these. */
enum {
    TF_MEDIAN,
    TF_MEAN,
    TF_MIN,
    TF_MAX,
    TF_STDDEV,
    TF_NOISE,
    TF_Q1,
    TF_Q3,
    TF_IQR,
    TF_CI_LOW,
    TF_CI_HIGH,
    TF_OUTLIERS,
    TF_SAMPLES,
    TF_THROTTLED,
    TF_STOP,
    TF_REPS,
    TF_GRAPH,
    TF_SM_MHZ,
    TF_EVENT,
    TF_KERNEL,
    TF_SPAN,
    TF_OPS,
};
enum { T_COLD = 0, T_BATCH = 64 };

static const char *stat_cell(char *buf, const br_stats *s, int field) {
    const double stats[] = {s->median, s->mean, s->min, s->max,    s->stddev, 100 * s->noise,
                            s->q1,     s->q3,   s->iqr, s->ci_low, s->ci_high};
    return s->n > 0 ? br_csv_number(buf, stats[field]) : NULL;
}

static const char *count_cell(char *buf, size_t n) {
    snprintf(buf, BR_CSV_CELL_MAX, "%zu", n);
    return buf;
}

/* The GPU-clock medians: empty when their per-sample array was not recorded. */
static const char *gpu_median_cell(char *buf, const br_timing *t, int field) {
    const double *arrays[] = {t->event_ns, t->kernel_ns, t->span_ns, t->ops};
    const double medians[] = {t->event_median_ns, t->kernel_median_ns, t->span_median_ns,
                              t->ops_median};
    int i = field - TF_EVENT;
    return arrays[i] ? br_csv_number(buf, medians[i]) : NULL;
}

static const char *cell_timing(char *buf, const br_csv_row *row, int arg) {
    const br_timing *t = arg >= T_BATCH ? &row->c->batch : &row->c->cold;
    int field = arg % T_BATCH;
    if (!case_ok(row) || !t->present)
        return NULL;
    const br_run_kernel *k =
        row->c->kernel < row->run->n_kernels ? &row->run->kernels[row->c->kernel] : NULL;
    switch (field) {
    case TF_OUTLIERS:
        return count_cell(buf, t->stats.n_outliers);
    case TF_SAMPLES:
        return count_cell(buf, t->n_samples);
    case TF_THROTTLED:
        return count_cell(buf, t->n_throttled);
    case TF_STOP:
        return br_stop_name(t->stop);
    case TF_REPS:
        return count_cell(buf, t->reps);
    case TF_GRAPH:
        return k && k->backend == BR_BACKEND_GPU ? (t->graph ? "true" : "false") : NULL;
    case TF_SM_MHZ:
        return br_csv_number(buf, t->sm_mhz_median);
    case TF_EVENT:
    case TF_KERNEL:
    case TF_SPAN:
    case TF_OPS:
        return gpu_median_cell(buf, t, field);
    default:
        return stat_cell(buf, &t->stats, field);
    }
}

/* The columns after the parameters: 1 marks those left out when empty in
 * every row. */
#define TIMING_COLUMNS(P, T)                                                                       \
    {P "median_ns", 1, cell_timing, T + TF_MEDIAN}, {P "mean_ns", 1, cell_timing, T + TF_MEAN},    \
        {P "min_ns", 1, cell_timing, T + TF_MIN}, {P "max_ns", 1, cell_timing, T + TF_MAX},        \
        {P "stddev_ns", 1, cell_timing, T + TF_STDDEV},                                            \
        {P "noise_pct", 1, cell_timing, T + TF_NOISE}, {P "q1_ns", 1, cell_timing, T + TF_Q1},     \
        {P "q3_ns", 1, cell_timing, T + TF_Q3}, {P "iqr_ns", 1, cell_timing, T + TF_IQR},          \
        {P "ci_low_ns", 1, cell_timing, T + TF_CI_LOW},                                            \
        {P "ci_high_ns", 1, cell_timing, T + TF_CI_HIGH},                                          \
        {P "n_outliers", 1, cell_timing, T + TF_OUTLIERS},                                         \
        {P "n_samples", 1, cell_timing, T + TF_SAMPLES},                                           \
        {P "n_throttled", 1, cell_timing, T + TF_THROTTLED},                                       \
        {P "stop_reason", 1, cell_timing, T + TF_STOP},                                            \
        {P "reps_per_sample", 1, cell_timing, T + TF_REPS},                                        \
        {P "cuda_graph", 1, cell_timing, T + TF_GRAPH},                                            \
        {P "sm_clock_mhz", 1, cell_timing, T + TF_SM_MHZ},                                         \
        {P "event_median_ns", 1, cell_timing, T + TF_EVENT},                                       \
        {P "kernel_median_ns", 1, cell_timing, T + TF_KERNEL},                                     \
        {P "span_median_ns", 1, cell_timing, T + TF_SPAN}, {                                       \
        P "gpu_ops_per_exec", 1, cell_timing, T + TF_OPS                                           \
    }

static const br_csv_col case_columns[] = {
    {"backend", 0, br_csv_cell_backend, 0},
    {"status", 0, cell_status, 0},
    {"stage", 0, cell_stage, 0},
    {"message", 0, cell_message, 0},
    {"headline", 0, cell_headline, 0},
    {"clock", 0, cell_clock, 0},
    {"bytes_per_exec", 1, cell_figure, FIG_BYTES},
    {"flop_per_exec", 1, cell_figure, FIG_FLOPS},
    {"gb_per_s", 1, cell_figure, FIG_GBPS},
    {"gflop_per_s", 1, cell_figure, FIG_GFLOPS},
    {"peak_pct", 1, cell_figure, FIG_PEAK},
    {"speedup_ratio", 1, cell_figure, FIG_SPEEDUP},
    {"intensity_flop_per_byte", 1, cell_roofline, RF_INTENSITY},
    {"attainable_gflop_per_s", 1, cell_roofline, RF_ATTAINABLE},
    {"roofline_pct", 1, cell_roofline, RF_PCT},
    {"bound", 1, cell_bound, 0},
    {"energy_j_per_exec", 1, cell_energy, EN_J},
    {"power_w", 1, cell_energy, EN_W},
    {"gflop_per_j", 1, cell_energy, EN_GFLOP_J},
    {"gb_per_j", 1, cell_energy, EN_GB_J},
    {"energy_spread_pct", 1, cell_energy, EN_SPREAD},
    {"git_sha", 0, cell_git_sha, 0},
    {"device", 0, cell_device, 0},
    TIMING_COLUMNS("cold_", T_COLD),
    TIMING_COLUMNS("batch_", T_BATCH),
};
#define N_CASE_COLUMNS (sizeof case_columns / sizeof case_columns[0])

/* The columns of a document whose runs have the parameters names[0..n):
 * suite, kernel, the parameters, case_columns. Owned by the caller. */
static br_csv_col *columns_new(size_t *n_out, size_t n_names) {
    size_t n = 2 + n_names + N_CASE_COLUMNS;
    br_csv_col *cols = calloc(n, sizeof *cols);
    if (!cols) {
        br_error_set("out of memory writing CSV");
        return NULL;
    }
    cols[0] = (br_csv_col){"suite", 0, br_csv_cell_suite, 0};
    cols[1] = (br_csv_col){"kernel", 0, br_csv_cell_kernel, 0};
    memcpy(cols + 2 + n_names, case_columns, sizeof case_columns);
    *n_out = n;
    return cols;
}

/* Write a header row and one row per case of every run to f (columns at the
 * top of the file). The `device` column is the GPU's name, or the host CPU's
 * model in a run without a GPU.
 * Returns 0, or -1 with the error set (out of memory, write error). */
static int csv_write(FILE *f, const br_run *const *runs, size_t n_runs,
                     const br_report_opts *opts) {
    (void)opts;
    const char **names = NULL;
    size_t n_names = 0, n_cols = 0;
    br_csv_col *cols = NULL;
    unsigned char *used = NULL;
    int rc = -1;
    if (br_csv_param_union(&names, &n_names, runs, n_runs) < 0 ||
        !(cols = columns_new(&n_cols, n_names)))
        goto done;
    for (size_t j = 0; j < n_names; j++)
        cols[2 + j] = (br_csv_col){names[j], 1, br_csv_cell_param, (int)j};
    if (!(used = br_csv_used_new(cols, n_cols)))
        goto done;
    br_csv_row row = {.param_names = names};
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1)
            br_csv_put_header(f, cols, n_cols, used);
        for (size_t i = 0; i < n_runs; i++) {
            row.run = runs[i];
            for (size_t c = 0; c < runs[i]->n_cases; c++) {
                row.c = &runs[i]->cases[c];
                if (pass == 0)
                    br_csv_mark_used(used, cols, n_cols, &row);
                else
                    br_csv_put_row(f, cols, n_cols, used, &row);
            }
        }
    }
    if (fflush(f) != 0 || ferror(f)) {
        br_error_set("cannot write CSV: %s", strerror(errno));
        goto done;
    }
    rc = 0;
done:
    free(used);
    free(cols);
    free(names);
    return rc;
}

/* The "csv" reporter: one RFC 4180 row per case, for spreadsheets and scripts. */
const br_reporter br_reporter_csv = {"csv", csv_write};
