/* SPDX-License-Identifier: Apache-2.0 */
/* test_csv.c - the csv reporter (reporters/csv.c) against a reviewed golden
 * file, and its header and records. The runs are built by hand
 * (results_fixture.h). */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "reporters/reporter.h"
#include "model/run.h"
#include "results_fixture.h"
#include "report_util.h"

TestSuite(reporters, .init = fixtures_setup, .fini = fixtures_teardown);

Test(reporters, golden_csv) {
    golden_test("csv", 0, "results.csv");
}

/* --- csv --------------------------------------------------------------------------- */

/* A parsed CSV document: records of fields (owned strings). */
typedef struct csv_doc {
    char ***rows;
    size_t *n_fields;
    size_t n_rows;
} csv_doc;

/* Parse RFC 4180 text (CRLF records, quoted fields); asserts it is well formed. */
static void csv_parse(csv_doc *d, const char *text) {
    memset(d, 0, sizeof *d);
    size_t cap_rows = 0;
    char **fields = NULL;
    size_t n_fields = 0, cap_fields = 0;
    char *field = NULL;
    size_t len = 0, cap = 0;
    int quoted = 0;
    for (const char *p = text;; p++) {
        int end_field = 0, end_record = 0;
        if (*p == '\0') {
            cr_assert_eq(quoted, 0, "unterminated quote");
            cr_assert(len == 0 && n_fields == 0, "last record does not end in CRLF");
            break;
        }
        if (quoted) {
            if (p[0] == '"' && p[1] == '"') {
                p++;
            } else if (p[0] == '"') {
                quoted = 0;
                continue;
            }
        } else if (*p == '"') {
            cr_assert_eq(len, 0, "quote inside an unquoted field");
            quoted = 1;
            continue;
        } else if (*p == ',') {
            end_field = 1;
        } else if (*p == '\r') {
            cr_assert_eq(p[1], '\n', "bare CR outside quotes");
            p++;
            end_field = end_record = 1;
        } else {
            cr_assert_neq(*p, '\n', "bare LF outside quotes");
        }
        if (!end_field) {
            if (len + 2 > cap) {
                cap = 2 * cap + 64;
                field = realloc(field, cap);
                cr_assert_not_null(field);
            }
            field[len++] = *p;
            continue;
        }
        if (n_fields == cap_fields) {
            cap_fields = 2 * cap_fields + 16;
            fields = realloc(fields, cap_fields * sizeof *fields);
            cr_assert_not_null(fields);
        }
        char *f = malloc(len + 1);
        cr_assert_not_null(f);
        memcpy(f, field ? field : "", len);
        f[len] = '\0';
        fields[n_fields++] = f;
        len = 0;
        if (end_record) {
            if (d->n_rows == cap_rows) {
                cap_rows = 2 * cap_rows + 8;
                d->rows = realloc(d->rows, cap_rows * sizeof *d->rows);
                d->n_fields = realloc(d->n_fields, cap_rows * sizeof *d->n_fields);
                cr_assert(d->rows && d->n_fields);
            }
            d->rows[d->n_rows] = fields;
            d->n_fields[d->n_rows++] = n_fields;
            fields = NULL;
            n_fields = cap_fields = 0;
        }
    }
    free(field);
    free(fields);
}

static void csv_free(csv_doc *d) {
    for (size_t r = 0; r < d->n_rows; r++) {
        for (size_t i = 0; i < d->n_fields[r]; i++)
            free(d->rows[r][i]);
        free(d->rows[r]);
    }
    free(d->rows);
    free(d->n_fields);
}

/* The field of record `row` (1 = the first after the header) in column `name`. */
static const char *csv_get(const csv_doc *d, size_t row, const char *name) {
    cr_assert_gt(d->n_rows, row);
    for (size_t i = 0; i < d->n_fields[0]; i++) {
        if (strcmp(d->rows[0][i], name) == 0)
            return d->rows[row][i];
    }
    cr_assert_fail("no column %s", name);
    return NULL;
}

/* The record of kernel `kernel` with parameter column `param` = `value`. */
static size_t csv_find(const csv_doc *d, const char *kernel, const char *param, const char *value) {
    for (size_t r = 1; r < d->n_rows; r++) {
        if (strcmp(csv_get(d, r, "kernel"), kernel) == 0 &&
            (!param || strcmp(csv_get(d, r, param), value) == 0))
            return r;
    }
    cr_assert_fail("no record %s %s=%s", kernel, param ? param : "", value ? value : "");
    return 0;
}

static const char *const csv_timing_columns[] = {
    "median_ns",       "mean_ns",         "min_ns",       "max_ns",          "stddev_ns",
    "noise_pct",       "q1_ns",           "q3_ns",        "iqr_ns",          "ci_low_ns",
    "ci_high_ns",      "n_outliers",      "n_samples",    "n_throttled",     "stop_reason",
    "reps_per_sample", "cuda_graph",      "sm_clock_mhz", "event_median_ns", "kernel_median_ns",
    "span_median_ns",  "gpu_ops_per_exec"};
#define N_CSV_TIMING_COLUMNS (sizeof csv_timing_columns / sizeof csv_timing_columns[0])

/* The fixture has every kind of case, so every column is there. */
Test(reporters, csv_header) {
    char *out = render("csv", fixture_ptrs, N_RUNS, 0, NULL);
    char want[4096];
    int n = snprintf(want, sizeof want,
                     "suite,kernel,n,tile,backend,status,stage,message,headline,clock,"
                     "bytes_per_exec,flop_per_exec,gb_per_s,gflop_per_s,peak_pct,speedup_ratio,"
                     "git_sha,device");
    const char *prefixes[] = {"cold_", "batch_"};
    for (size_t p = 0; p < 2; p++) {
        for (size_t i = 0; i < N_CSV_TIMING_COLUMNS; i++)
            n += snprintf(want + n, sizeof want - (size_t)n, ",%s%s", prefixes[p],
                          csv_timing_columns[i]);
    }
    snprintf(want + n, sizeof want - (size_t)n, "\r\n");
    cr_expect(strncmp(out, want, strlen(want)) == 0, "header:\n%.*s\nwant:\n%s",
              (int)(strchr(out, '\n') - out), out, want);
    free(out);
}

/* 1 when the header of d has a column called name. */
static int csv_has(const csv_doc *d, const char *name) {
    for (size_t i = 0; i < d->n_fields[0]; i++) {
        if (strcmp(d->rows[0][i], name) == 0)
            return 1;
    }
    return 0;
}

/* Columns that are not text have a value in some row: a type sniffer
 * (DuckDB's read_csv) types an all-empty column as text. */
static void expect_no_empty_numeric_column(const csv_doc *d) {
    static const char *const text[] = {"suite",   "kernel",   "backend", "status",  "stage",
                                       "message", "headline", "clock",   "git_sha", "device"};
    for (size_t i = 0; i < d->n_fields[0]; i++) {
        int is_text = 0;
        for (size_t t = 0; t < sizeof text / sizeof text[0]; t++)
            is_text |= strcmp(d->rows[0][i], text[t]) == 0;
        size_t r = 1;
        while (r < d->n_rows && d->rows[r][i][0] == '\0')
            r++;
        cr_expect(is_text || r < d->n_rows, "column %s is empty in every row", d->rows[0][i]);
    }
}

/* A host-only, cold-only run: no batch_ and no GPU columns; a batch-only run
 * without parameters, bytes or device: no cold_ columns, no figures. */
Test(reporters, csv_leaves_out_columns_empty_in_every_row) {
    csv_doc d;
    char *out = render("csv", fixture_ptrs, N_RUNS, 0, NULL);
    csv_parse(&d, out);
    expect_no_empty_numeric_column(&d);
    csv_free(&d);
    free(out);

    const br_run *sgemm = &fixture[2];
    out = render("csv", &sgemm, 1, 0, NULL);
    csv_parse(&d, out);
    expect_no_empty_numeric_column(&d);
    cr_expect(csv_has(&d, "cold_median_ns") && csv_has(&d, "flop_per_exec") &&
              csv_has(&d, "gflop_per_s") && csv_has(&d, "tile"));
    cr_expect(!csv_has(&d, "batch_median_ns") && !csv_has(&d, "batch_stop_reason"));
    cr_expect(!csv_has(&d, "cold_sm_clock_mhz") && !csv_has(&d, "cold_cuda_graph") &&
              !csv_has(&d, "cold_kernel_median_ns") && !csv_has(&d, "peak_pct"));
    cr_expect(csv_has(&d, "stage") && csv_has(&d, "git_sha"), "text columns stay");
    csv_free(&d);
    free(out);

    const br_run *latency = &fixture[3];
    out = render("csv", &latency, 1, 0, NULL);
    csv_parse(&d, out);
    expect_no_empty_numeric_column(&d);
    cr_expect(csv_has(&d, "batch_median_ns") && !csv_has(&d, "cold_median_ns"));
    cr_expect(!csv_has(&d, "bytes_per_exec") && !csv_has(&d, "gb_per_s"));
    cr_expect(csv_has(&d, "git_sha"), "an empty text column stays: %s", out);
    csv_free(&d);
    free(out);
}

Test(reporters, csv_records) {
    char *out = render("csv", fixture_ptrs, N_RUNS, 0, NULL);
    csv_doc d;
    csv_parse(&d, out);
    cr_expect_eq(d.n_rows, 1 + 8 + 2 + 4 + 3);
    cr_expect_eq(N_CSV_TIMING_COLUMNS, 22);
    cr_expect_eq(d.n_fields[0], 2 + 2 + 14 + 2 * 22); /* suite, kernel; n, tile; ...; timings */
    for (size_t r = 1; r < d.n_rows; r++)
        cr_expect_eq(d.n_fields[r], d.n_fields[0], "record %zu", r);

    /* reduce_warp n=2^20 (GPU, mode both): cold throttled, both timings full. */
    size_t w = csv_find(&d, "reduce_warp", "n", "1048576");
    cr_expect_str_eq(csv_get(&d, w, "suite"), "reduction");
    cr_expect_str_eq(csv_get(&d, w, "status"), "ok");
    cr_expect_str_eq(csv_get(&d, w, "headline"), "cold");
    cr_expect_str_eq(csv_get(&d, w, "cold_median_ns"), "4099.0");
    cr_expect_str_eq(csv_get(&d, w, "cold_n_samples"), "8");
    cr_expect_str_eq(csv_get(&d, w, "cold_n_throttled"), "12");
    cr_expect_str_eq(csv_get(&d, w, "cold_stop_reason"), "noise");
    cr_expect_str_eq(csv_get(&d, w, "cold_reps_per_sample"), "1");
    cr_expect_str_eq(csv_get(&d, w, "cold_cuda_graph"), "false");
    cr_expect_str_eq(csv_get(&d, w, "cold_sm_clock_mhz"), "1965.0");
    cr_expect_str_neq(csv_get(&d, w, "cold_ci_low_ns"), "", "8 samples have a CI");
    cr_expect_str_eq(csv_get(&d, w, "batch_reps_per_sample"), "64");
    cr_expect_str_eq(csv_get(&d, w, "batch_cuda_graph"), "true");
    cr_expect_str_eq(csv_get(&d, w, "batch_n_throttled"), "0");
    /* The kernel clock: CUDA events 1510 ns above the kernel times, no gap
     * in the span, one operation per execution. */
    cr_expect_str_eq(csv_get(&d, w, "clock"), "kernel");
    cr_expect_str_eq(csv_get(&d, w, "cold_event_median_ns"), "5609.0");
    cr_expect_str_eq(csv_get(&d, w, "cold_kernel_median_ns"), "4099.0");
    cr_expect_str_eq(csv_get(&d, w, "cold_span_median_ns"), "4099.0");
    cr_expect_str_eq(csv_get(&d, w, "cold_gpu_ops_per_exec"), "1.0");
    cr_expect_str_eq(csv_get(&d, w, "batch_event_median_ns"), "3989.55");
    /* reduce_cub: a CUB kernel and a memset per execution, the span 36 ns
     * above the kernel time. */
    size_t cub = csv_find(&d, "reduce_cub", "n", "1048576");
    cr_expect_str_eq(csv_get(&d, cub, "cold_event_median_ns"), "4850.5");
    cr_expect_str_eq(csv_get(&d, cub, "cold_kernel_median_ns"), "3200.0");
    cr_expect_str_eq(csv_get(&d, cub, "cold_span_median_ns"), "3236.0");
    cr_expect_str_eq(csv_get(&d, cub, "cold_gpu_ops_per_exec"), "2.0");
    cr_expect_str_eq(csv_get(&d, cub, "batch_kernel_median_ns"), "3040.0");
    cr_expect_str_eq(csv_get(&d, cub, "batch_gpu_ops_per_exec"), "2.0");

    /* A host case: graph, sm_mhz and the GPU clocks empty; 5 samples have no CI. */
    size_t h = csv_find(&d, "reduce_cpu", "n", "1048576");
    cr_expect_str_eq(csv_get(&d, h, "clock"), "monotonic");
    cr_expect_str_eq(csv_get(&d, h, "cold_cuda_graph"), "");
    cr_expect_str_eq(csv_get(&d, h, "cold_sm_clock_mhz"), "");
    cr_expect_str_eq(csv_get(&d, h, "cold_event_median_ns"), "");
    cr_expect_str_eq(csv_get(&d, h, "cold_kernel_median_ns"), "");
    cr_expect_str_eq(csv_get(&d, h, "cold_span_median_ns"), "");
    cr_expect_str_eq(csv_get(&d, h, "cold_gpu_ops_per_exec"), "");
    cr_expect_str_eq(csv_get(&d, h, "cold_ci_low_ns"), "");
    cr_expect_str_eq(csv_get(&d, h, "cold_n_outliers"), "0");

    /* The plateau case and the outlier case. */
    size_t pl = csv_find(&d, "reduce_cpu", "n", "16777216");
    cr_expect_str_eq(csv_get(&d, pl, "cold_stop_reason"), "plateau");
    size_t o = csv_find(&d, "copy", NULL, NULL);
    cr_expect_str_eq(csv_get(&d, o, "cold_n_outliers"), "5");
    cr_expect_str_eq(csv_get(&d, o, "cold_n_samples"), "20");
    /* The events clock with CUPTI's data: the kernel times 1480 ns below the
     * event times, their median over the 19 samples that kept their records
     * (the 10th smallest of copy28 minus 1480). */
    cr_expect_str_eq(csv_get(&d, o, "clock"), "events");
    cr_expect_str_eq(csv_get(&d, o, "cold_event_median_ns"), "1000040.0");
    cr_expect_str_eq(csv_get(&d, o, "cold_kernel_median_ns"), "998550.0");
    cr_expect_str_eq(csv_get(&d, o, "cold_gpu_ops_per_exec"), "1.0");

    /* A failed case: message quoted and read back, no times. */
    size_t f = csv_find(&d, "reduce_naive", "n", "16777216");
    cr_expect_str_eq(csv_get(&d, f, "status"), "failed");
    cr_expect_str_eq(csv_get(&d, f, "stage"), "verify");
    cr_expect_str_eq(csv_get(&d, f, "message"),
                     "element 1017, block 3: got \"nan\", expected 16777216 (tolerance 1e-3)");
    cr_expect_str_eq(csv_get(&d, f, "cold_median_ns"), "");
    cr_expect_str_eq(csv_get(&d, f, "gb_per_s"), "");
    cr_expect_str_eq(csv_get(&d, f, "clock"), "");
    cr_expect_str_eq(csv_get(&d, f, "cold_event_median_ns"), "");

    /* Mode cold: the batch set is empty; a skipped case has no times. */
    size_t s = csv_find(&d, "sgemm_host", "n", "1000");
    cr_expect_str_eq(csv_get(&d, s, "cold_n_samples"), "3");
    cr_expect_str_eq(csv_get(&d, s, "tile"), "16");
    cr_expect_str_eq(csv_get(&d, s, "clock"), "monotonic");
    for (size_t i = 0; i < N_CSV_TIMING_COLUMNS; i++) {
        char col[64];
        snprintf(col, sizeof col, "batch_%s", csv_timing_columns[i]);
        cr_expect_str_eq(csv_get(&d, s, col), "", "%s", col);
    }
    size_t sk = csv_find(&d, "sgemm_tiled", "n", "1000");
    cr_expect_str_eq(csv_get(&d, sk, "status"), "skipped");
    cr_expect_str_eq(csv_get(&d, sk, "cold_median_ns"), "");
    cr_expect_str_eq(csv_get(&d, sk, "clock"), "");

    /* Mode batch: the cold set is empty, the headline is batch. */
    size_t l = csv_find(&d, "noop_host", NULL, NULL);
    cr_expect_str_eq(csv_get(&d, l, "headline"), "batch");
    cr_expect_str_eq(csv_get(&d, l, "clock"), "monotonic");
    cr_expect_str_eq(csv_get(&d, l, "cold_median_ns"), "");
    cr_expect_str_eq(csv_get(&d, l, "batch_reps_per_sample"), "1000");
    csv_free(&d);
    free(out);
}

/* --- samples-csv --------------------------------------------------------------------- */

/* The rows of kernel `kernel` (parameter n = `n`, or any when NULL) in mode
 * `mode`, in file order, into rows[] (at most max); returns how many. */
static size_t samples_rows(size_t *rows, size_t max, const csv_doc *d, const char *kernel,
                           const char *n, const char *mode) {
    size_t k = 0;
    for (size_t r = 1; r < d->n_rows; r++) {
        if (strcmp(csv_get(d, r, "kernel"), kernel) == 0 &&
            (!n || strcmp(csv_get(d, r, "n"), n) == 0) &&
            strcmp(csv_get(d, r, "mode"), mode) == 0 && k < max)
            rows[k++] = r;
    }
    return k;
}

/* The rows of timing t are its samples, exact, indexed from 0 in order. */
static void expect_samples(const csv_doc *d, const size_t *rows, size_t n_rows,
                           const br_timing *t) {
    cr_assert_eq(n_rows, t->n_samples);
    for (size_t i = 0; i < n_rows; i++) {
        char idx[32];
        snprintf(idx, sizeof idx, "%zu", i);
        cr_expect_str_eq(csv_get(d, rows[i], "sample"), idx);
        cr_expect_eq(strtod(csv_get(d, rows[i], "time_ns"), NULL), t->samples[i], "sample %zu", i);
    }
}

Test(reporters, samples_csv_has_one_row_per_kept_sample) {
    char *out = render("samples-csv", fixture_ptrs, N_RUNS, 0, NULL);
    csv_doc d;
    csv_parse(&d, out);
    const char *head = "suite,kernel,n,tile,backend,mode,sample,time_ns,clock,sm_clock_mhz,"
                       "event_ns,kernel_ns,span_ns,gpu_ops_per_exec\r\n";
    cr_expect(strncmp(out, head, strlen(head)) == 0, "header: %.*s", (int)strcspn(out, "\n"), out);
    size_t want = 0;
    for (size_t i = 0; i < N_RUNS; i++) {
        for (size_t c = 0; c < fixture[i].n_cases; c++) {
            const br_case_result *cr = &fixture[i].cases[c];
            if (cr->status == BR_STATUS_OK)
                want += (cr->cold.present ? cr->cold.n_samples : 0) +
                        (cr->batch.present ? cr->batch.n_samples : 0);
        }
    }
    cr_expect_eq(d.n_rows, 1 + want, "a row per kept sample of an OK case");
    for (size_t r = 1; r < d.n_rows; r++)
        cr_expect_eq(d.n_fields[r], d.n_fields[0], "record %zu", r);

    /* reduce_warp n=2^20: cold then batch, exact times, the GPU columns. */
    size_t rows[64];
    size_t k = samples_rows(rows, 64, &d, "reduce_warp", "1048576", "cold");
    const br_case_result *w = &fixture[0].cases[2];
    expect_samples(&d, rows, k, &w->cold);
    cr_expect_str_eq(csv_get(&d, rows[0], "suite"), "reduction");
    cr_expect_str_eq(csv_get(&d, rows[0], "backend"), "gpu");
    cr_expect_str_eq(csv_get(&d, rows[0], "clock"), "kernel");
    cr_expect_eq(strtod(csv_get(&d, rows[0], "sm_clock_mhz"), NULL), w->cold.sm_mhz[0]);
    cr_expect_eq(strtod(csv_get(&d, rows[0], "event_ns"), NULL), w->cold.event_ns[0]);
    cr_expect_eq(strtod(csv_get(&d, rows[0], "kernel_ns"), NULL), w->cold.kernel_ns[0]);
    cr_expect_str_eq(csv_get(&d, rows[0], "gpu_ops_per_exec"), "1.0");
    k = samples_rows(rows, 64, &d, "reduce_warp", "1048576", "batch");
    expect_samples(&d, rows, k, &w->batch);

    /* A host case: the GPU cells empty. A failed case: no rows. */
    k = samples_rows(rows, 64, &d, "noop_host", NULL, "batch");
    expect_samples(&d, rows, k, &fixture[3].cases[0].batch);
    cr_expect_str_eq(csv_get(&d, rows[0], "clock"), "monotonic");
    cr_expect_str_eq(csv_get(&d, rows[0], "sm_clock_mhz"), "");
    cr_expect_str_eq(csv_get(&d, rows[0], "n"), "", "latency has no parameter n");
    cr_expect_eq(samples_rows(rows, 64, &d, "sleep_host", NULL, "batch"), 0);
    cr_expect_eq(samples_rows(rows, 64, &d, "reduce_naive", "16777216", "cold"), 0);
    csv_free(&d);
    free(out);
}

/* Host-only runs: no GPU columns at all (they would be empty in every row). */
Test(reporters, samples_csv_leaves_out_the_gpu_columns_of_a_host_run) {
    const br_run *sgemm = &fixture[2];
    char *out = render("samples-csv", &sgemm, 1, 0, NULL);
    const char *head = "suite,kernel,n,tile,backend,mode,sample,time_ns,clock\r\n";
    cr_expect(strncmp(out, head, strlen(head)) == 0, "header: %.*s", (int)strcspn(out, "\n"), out);
    csv_doc d;
    csv_parse(&d, out);
    cr_expect_eq(d.n_rows, 1 + 3 + 3);
    csv_free(&d);
    free(out);
}
