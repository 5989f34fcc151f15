/* csv.c - one row per case, RFC 4180: records end in CRLF, and a field that
 * holds a comma, a double quote, CR or LF is quoted (quotes doubled).
 *
 * Columns (units in the names; times are ns per execution):
 *   suite, kernel, <one per parameter of any run>, backend, status, stage,
 *   message, headline, clock (what the headline timing's samples measure:
 *   monotonic, events or kernel; empty when the case is not OK or that timing
 *   was not taken), bytes, flops, gbps, gflops, pct_peak, speedup, git_sha,
 *   device,
 *   then for each of the prefixes cold_ and batch_ (always both sets; empty
 *   cells when that timing was not taken or the case is not OK):
 *   median_ns, mean_ns, min_ns, max_ns, stddev_ns, noise (a fraction), q1_ns,
 *   q3_ns, iqr_ns, ci_low_ns, ci_high_ns (95% CI of the median), outliers,
 *   samples (kept), throttled (discarded), stop_reason, reps, graph (0/1 on a
 *   GPU, empty on the host), sm_mhz (median SM clock), event_median_ns (CUDA
 *   event time), kernel_median_ns (kernel clock: summed durations of the GPU
 *   operations), span_median_ns (first operation's start to the last one's
 *   end), ops (GPU operations per execution), samples_ns (the kept samples,
 *   space-separated, %.9g). The four GPU-clock columns are medians over the
 *   kept samples (br_timing), empty when not recorded (host cases, or CUPTI
 *   did not collect).
 *
 * Numbers are written in the shortest of %.15g, %.16g, %.17g that reads back
 * (strtod) as the same double, so every figure is exact yet 41.7 stays
 * "41.7". Not-a-number and absent values are empty fields. */
#include "reporter.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"

static void put_text(FILE *f, const char *s) {
    if (!s)
        return;
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void put_number(FILE *f, double v) {
    if (!isfinite(v))
        return;
    char buf[40];
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    fputs(buf, f);
}

static void sep(FILE *f) {
    fputc(',', f);
}

/* Union of the runs' parameter names in order of first appearance (borrowed
 * strings); *out is owned by the caller. */
static int param_union(const char ***out, size_t *n_out, const br_run *const *runs, size_t n_runs) {
    size_t cap = 0, n = 0;
    for (size_t i = 0; i < n_runs; i++)
        cap += runs[i]->n_params;
    const char **names = calloc(cap ? cap : 1, sizeof *names);
    if (!names)
        return br_error_set("out of memory writing CSV");
    for (size_t i = 0; i < n_runs; i++) {
        for (size_t p = 0; p < runs[i]->n_params; p++) {
            const char *name = runs[i]->param_names[p];
            size_t j = 0;
            while (j < n && strcmp(names[j], name) != 0)
                j++;
            if (j == n)
                names[n++] = name;
        }
    }
    *out = names;
    *n_out = n;
    return 0;
}

/* The columns of one timing, after its prefix (cold_ or batch_). */
static const char *const timing_columns[] = {
    "median_ns",      "mean_ns",  "min_ns",     "max_ns",          "stddev_ns",
    "noise",          "q1_ns",    "q3_ns",      "iqr_ns",          "ci_low_ns",
    "ci_high_ns",     "outliers", "samples",    "throttled",       "stop_reason",
    "reps",           "graph",    "sm_mhz",     "event_median_ns", "kernel_median_ns",
    "span_median_ns", "ops",      "samples_ns",
};
#define N_TIMING_COLUMNS (sizeof timing_columns / sizeof timing_columns[0])

/* The cells of timing t, each preceded by a separator; all empty when the
 * case is not OK or t was not taken. */
static void put_timing(FILE *f, const br_case_result *c, const br_timing *t, int gpu) {
    if (c->status != BR_STATUS_OK || !t->present) {
        for (size_t i = 0; i < N_TIMING_COLUMNS; i++)
            sep(f);
        return;
    }
    const br_stats *s = &t->stats;
    const double stats[] = {s->median, s->mean, s->min, s->max,    s->stddev, s->noise,
                            s->q1,     s->q3,   s->iqr, s->ci_low, s->ci_high};
    for (size_t i = 0; i < sizeof stats / sizeof stats[0]; i++) {
        sep(f);
        if (s->n > 0)
            put_number(f, stats[i]);
    }
    sep(f);
    fprintf(f, "%zu", s->n_outliers);
    sep(f);
    fprintf(f, "%zu", t->n_samples);
    sep(f);
    fprintf(f, "%zu", t->n_throttled);
    sep(f);
    put_text(f, t->stop_reason);
    sep(f);
    fprintf(f, "%zu", t->reps);
    sep(f);
    if (gpu)
        fprintf(f, "%d", t->graph ? 1 : 0);
    sep(f);
    put_number(f, t->sm_mhz_median);
    const double *arrays[] = {t->event_ns, t->kernel_ns, t->span_ns, t->ops};
    const double medians[] = {t->event_median_ns, t->kernel_median_ns, t->span_median_ns,
                              t->ops_median};
    for (size_t i = 0; i < sizeof medians / sizeof medians[0]; i++) {
        sep(f);
        if (arrays[i])
            put_number(f, medians[i]);
    }
    sep(f);
    for (size_t i = 0; t->samples && i < t->n_samples; i++)
        fprintf(f, i ? " %.9g" : "%.9g", t->samples[i]);
}

static void put_case(FILE *f, const br_run *r, const br_case_result *c, const char **names,
                     size_t n_names) {
    const br_run_kernel *k = c->kernel < r->n_kernels ? &r->kernels[c->kernel] : NULL;
    int gpu = k && k->backend == BR_BACKEND_GPU;

    put_text(f, r->suite_name);
    sep(f);
    put_text(f, k ? k->name : NULL);
    for (size_t j = 0; j < n_names; j++) {
        sep(f);
        for (size_t p = 0; p < r->n_params; p++) {
            if (strcmp(r->param_names[p], names[j]) == 0) {
                fprintf(f, "%lld", (long long)c->params[p]);
                break;
            }
        }
    }
    sep(f);
    put_text(f, k ? br_backend_name(k->backend) : NULL);
    sep(f);
    put_text(f, br_status_name(c->status));
    sep(f);
    put_text(f, c->stage);
    sep(f);
    put_text(f, c->message);
    sep(f);
    put_text(f, r->measure.headline == BR_MODE_BATCH ? "batch" : "cold");
    sep(f);
    const br_timing *head = br_case_headline(r, c);
    if (c->status == BR_STATUS_OK && head->present)
        put_text(f, br_clock_name(head->clock));
    const double figures[] = {c->bytes, c->flops, c->gbps, c->gflops, c->pct_peak, c->speedup};
    for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++) {
        sep(f);
        put_number(f, figures[i]);
    }
    sep(f);
    if (r->git.present && !r->git.unborn)
        put_text(f, r->git.sha);
    sep(f);
    put_text(f, r->has_device ? r->device.name : r->host.cpu_model);
    put_timing(f, c, &c->cold, gpu);
    put_timing(f, c, &c->batch, gpu);
    fputs("\r\n", f);
}

/* Write a header row and one row per case of every run to f (columns at the
 * top of the file). The `device` column is the GPU's name, or the host CPU's
 * model in a run without a GPU; `headline` says which timing (cold or batch)
 * gbps, gflops, pct_peak and speedup use, and `clock` what that timing's
 * samples measure.
 * Returns 0, or -1 with the error set (out of memory, write error). */
static int csv_write(FILE *f, const br_run *const *runs, size_t n_runs,
                     const br_report_opts *opts) {
    (void)opts;
    const char **names = NULL;
    size_t n_names = 0;
    int rc = -1;
    if (param_union(&names, &n_names, runs, n_runs) < 0)
        goto done;

    fputs("suite,kernel", f);
    for (size_t j = 0; j < n_names; j++) {
        sep(f);
        put_text(f, names[j]);
    }
    fputs(",backend,status,stage,message,headline,clock,bytes,flops,gbps,gflops,pct_peak,speedup,"
          "git_sha,device",
          f);
    static const char *const prefixes[] = {"cold_", "batch_"};
    for (size_t p = 0; p < 2; p++) {
        for (size_t i = 0; i < N_TIMING_COLUMNS; i++)
            fprintf(f, ",%s%s", prefixes[p], timing_columns[i]);
    }
    fputs("\r\n", f);
    for (size_t i = 0; i < n_runs; i++) {
        for (size_t c = 0; c < runs[i]->n_cases; c++)
            put_case(f, runs[i], &runs[i]->cases[c], names, n_names);
    }
    if (fflush(f) != 0 || ferror(f)) {
        br_error_set("cannot write CSV: %s", strerror(errno));
        goto done;
    }
    rc = 0;
done:
    free(names);
    return rc;
}

/* The "csv" reporter: one RFC 4180 row per case, for spreadsheets and scripts. */
const br_reporter br_reporter_csv = {"csv", csv_write};
