/* markdown.c - the results, and the comparison with a baseline, as GitHub
 * Flavored Markdown: fit for a pull-request comment or a CI job summary
 * ($GITHUB_STEP_SUMMARY). Per run:
 *
 *   ### reduction · a61c560 (main) · NVIDIA H100 80GB HBM3
 *   GPU times: kernel clock (CUPTI activity records)      (GPU cases)
 *   **Regression:** 2 slower than the baseline ...        (when compared)
 *   | kernel | n | cold (µs) | batch (µs) | events (µs) | noise | GB/s | % peak | speedup |
 *   |---|--:|--:|...
 *   failed cases, one line each
 *   <details> comparison with the baseline: one row per case </details>
 *
 * The "GPU times" line (a run with a device or a GPU kernel) and the "events
 * (µs)" column (the run's GPU clock is the kernel clock and a case's headline
 * timing has CUDA event times: their median) are the terminal table's
 * (reporters/table.c), and so is the "% peak" column (GB/s and GFLOP/s metrics:
 * br_report_has_peak_column). A cell's '|' is written '\|', and a newline a space, so
 * a message cannot break the table. Times in µs, as in the terminal table. */
#include "reporter.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/error.h"

/* Write s as the text of one table cell. */
static void cell(FILE *f, const char *s) {
    fputc(' ', f);
    for (; s && *s; s++) {
        if (*s == '|')
            fputs("\\|", f);
        else if (*s == '\n' || *s == '\r' || *s == '\t')
            fputc(' ', f);
        else
            fputc(*s, f);
    }
    fputs(" |", f);
}

static void cell_us(FILE *f, double ns) {
    char buf[64];
    if (!isfinite(ns)) {
        cell(f, "–");
        return;
    }
    double us = ns / 1000.0;
    snprintf(buf, sizeof buf, "%.*f", us < 1.0 ? 3 : us < 10.0 ? 2 : 1, us);
    cell(f, buf);
}

/* A number with `decimals` decimals, then `suffix` ("%", "×"); "–" when not finite.
 * sign: 1 writes a '+' before positive values. */
static void cell_num(FILE *f, double v, int decimals, const char *suffix, int sign) {
    char buf[64];
    if (!isfinite(v)) {
        cell(f, "–");
        return;
    }
    snprintf(buf, sizeof buf, sign ? "%+.*f%s" : "%.*f%s", decimals, v, suffix);
    cell(f, buf);
}

static const char *kernel_name(const br_run *r, const br_case_result *c) {
    return c->kernel < r->n_kernels && r->kernels[c->kernel].name ? r->kernels[c->kernel].name
                                                                  : "?";
}

static void put_heading(FILE *f, const br_run *r) {
    fprintf(f, "### %s", r->suite_name ? r->suite_name : "?");
    if (r->git.present && !r->git.unborn && r->git.short_sha[0]) {
        fprintf(f, " · `%s`", r->git.short_sha);
        if (!r->git.detached && r->git.branch[0])
            fprintf(f, " (%s)", r->git.branch);
        if (r->git.dirty)
            fputs(" dirty", f);
    }
    if (r->has_device)
        fprintf(f, " · %s", r->device.name);
    else if (r->host.cpu_model[0])
        fprintf(f, " · %s", r->host.cpu_model);
    fputs("\n\n", f);
}

/* "GPU times: ..." when the run has GPU cases (a device or a GPU kernel). */
static void put_clock(FILE *f, const br_run *r) {
    int gpu = r->has_device;
    for (size_t i = 0; !gpu && i < r->n_kernels; i++)
        gpu = r->kernels[i].backend == BR_BACKEND_GPU;
    if (!gpu)
        return;
    if (r->gpu_clock == BR_CLOCK_KERNEL) {
        fputs("GPU times: kernel clock (CUPTI activity records)\n\n", f);
    } else if (r->clock_note) {
        fputs("GPU times: CUDA events (kernel clock unavailable: ", f);
        for (const char *p = r->clock_note; *p; p++)
            fputc((unsigned char)*p < 0x20 ? ' ' : *p, f);
        fputs(")\n\n", f);
    } else {
        fputs("GPU times: CUDA events\n\n", f);
    }
}

/* The one-line verdict of a comparison. */
static void put_verdict(FILE *f, const br_comparison *c) {
    size_t slower = c->count[BR_CHANGE_SLOWER], faster = c->count[BR_CHANGE_FASTER];
    if (slower)
        fprintf(f, "**Regression:** %zu case(s) slower than the baseline", slower);
    else
        fputs("**No regression** against the baseline", f);
    fprintf(f, " (`%s`", c->baseline_path ? c->baseline_path : "?");
    if (c->baseline_commit)
        fprintf(f, " at `%s`", c->baseline_commit);
    fprintf(f,
            "): %zu slower, %zu faster, %zu same, %zu unknown, %zu new, %zu missing. "
            "Slower or faster means p < %g (two-sided Mann-Whitney U) and a median change "
            "beyond ±%g%%.%s\n\n",
            slower, faster, c->count[BR_CHANGE_SAME], c->count[BR_CHANGE_UNKNOWN],
            c->count[BR_CHANGE_NEW], c->count[BR_CHANGE_MISSING], c->rules.alpha,
            100.0 * c->rules.threshold,
            c->device_forced ? " The baseline is from another device (forced)." : "");
}

/* The header and alignment lines of run r's results table (mode: the shown one). */
static void put_results_head(FILE *f, const br_run *r, br_mode mode) {
    int has_metric = r->metric != BR_METRIC_NONE, has_peak = br_report_has_peak_column(r);
    int has_events = br_report_has_events_column(r);
    fputs("| kernel |", f);
    for (size_t p = 0; p < r->n_params; p++)
        cell(f, r->param_names[p]);
    if (mode != BR_MODE_BATCH)
        fputs(mode == BR_MODE_BOTH ? " cold (µs) |" : " time (µs) |", f);
    if (mode != BR_MODE_COLD)
        fputs(" batch (µs) |", f);
    if (has_events)
        fputs(" events (µs) |", f);
    fputs(" noise |", f);
    if (has_metric)
        cell(f, br_metric_name(r->metric));
    if (has_peak)
        fputs(" % peak |", f);
    fputs(" speedup |\n|---|", f);
    size_t n_right = r->n_params + (mode == BR_MODE_BOTH ? 2 : 1) + (size_t)has_events + 2 +
                     (size_t)has_metric + (size_t)has_peak;
    for (size_t i = 0; i < n_right; i++)
        fputs("--:|", f);
    fputc('\n', f);
}

/* The row of case c (not skipped) of run r's results table. */
static void put_results_row(FILE *f, const br_run *r, const br_case_result *c, br_mode mode) {
    int has_metric = r->metric != BR_METRIC_NONE, has_peak = br_report_has_peak_column(r);
    int has_events = br_report_has_events_column(r);
    int ok = c->status == BR_STATUS_OK;
    fputc('|', f);
    cell(f, kernel_name(r, c));
    for (size_t p = 0; p < r->n_params; p++) {
        char v[32];
        br_format_param(v, sizeof v, c->params[p]);
        cell(f, v);
    }
    if (mode != BR_MODE_BATCH) {
        if (!ok)
            cell(f, "**FAILED**");
        else
            cell_us(f, c->cold.present && c->cold.stats.n ? c->cold.stats.median : NAN);
    }
    if (mode != BR_MODE_COLD) {
        if (!ok && mode == BR_MODE_BATCH)
            cell(f, "**FAILED**");
        else
            cell_us(f, ok && c->batch.present && c->batch.stats.n ? c->batch.stats.median : NAN);
    }
    const br_timing *h = br_case_headline(r, c);
    if (has_events)
        cell_us(f, ok && h->present && h->event_ns ? h->event_median_ns : NAN);
    cell_num(f, ok && h->present && h->stats.n ? 100.0 * h->stats.noise : NAN, 1, "%", 0);
    if (has_metric)
        cell_num(f, ok ? (r->metric == BR_METRIC_GBPS ? c->gbps : c->gflops) : NAN, 1, "", 0);
    if (has_peak)
        cell_num(f, ok ? c->pct_peak : NAN, 1, "%", 0);
    cell_num(f, ok ? c->speedup : NAN, 2, "×", 0);
    fputc('\n', f);
}

/* The failed cases of run r (one line each) and the count of skipped ones. */
static void put_failures(FILE *f, const br_run *r) {
    size_t skipped = 0;
    for (size_t i = 0; i < r->n_cases; i++) {
        const br_case_result *c = &r->cases[i];
        skipped += c->status == BR_STATUS_SKIPPED;
        if (c->status != BR_STATUS_FAILED)
            continue;
        fprintf(f, "- **FAILED** `%s`", kernel_name(r, c));
        for (size_t p = 0; p < r->n_params; p++) {
            char v[32];
            br_format_param(v, sizeof v, c->params[p]);
            fprintf(f, " %s=%s", r->param_names[p], v);
        }
        /* The first line of the message only: a compiler's output is long. */
        const char *msg = c->message ? c->message : "";
        size_t len = strcspn(msg, "\r\n");
        fprintf(f, " (%s): ", c->stage ? c->stage : "?");
        for (size_t k = 0; k < len; k++)
            fputc(msg[k] == '`' ? '\'' : msg[k], f);
        fputc('\n', f);
    }
    if (skipped)
        fprintf(f, "- %zu case(s) skipped: %s\n", skipped,
                r->gpu_skip_reason ? r->gpu_skip_reason : "not run");
    if (skipped || r->n_cases == 0)
        fputc('\n', f);
}

/* Run r's results table in Markdown, then its failed and skipped cases. */
static void put_results(FILE *f, const br_run *r) {
    br_mode mode = r->measure.mode == BR_MODE_BATCH || r->measure.mode == BR_MODE_BOTH
                       ? r->measure.mode
                       : BR_MODE_COLD;
    put_results_head(f, r, mode);
    for (size_t i = 0; i < r->n_cases; i++) {
        if (r->cases[i].status != BR_STATUS_SKIPPED)
            put_results_row(f, r, &r->cases[i], mode);
    }
    fputc('\n', f);
    put_failures(f, r);
}

static void put_comparison(FILE *f, const br_comparison *c) {
    fprintf(f, "<details%s><summary>Comparison with the baseline (%s time)</summary>\n\n",
            c->count[BR_CHANGE_SLOWER] ? " open" : "",
            c->clock == BR_MODE_BATCH ? "batch" : "cold");
    fputs("| kernel | params | baseline (µs) | now (µs) | change | p | status |\n"
          "|---|---|--:|--:|--:|--:|---|\n",
          f);
    for (size_t i = 0; i < c->n_entries; i++) {
        const br_compare_entry *e = &c->entries[i];
        fputc('|', f);
        cell(f, e->kernel);
        cell(f, e->params && e->params[0] ? e->params : "–");
        cell_us(f, e->base_median);
        cell_us(f, e->cur_median);
        cell_num(f, isfinite(e->change) ? 100.0 * e->change : NAN, 1, "%", 1);
        char p[32] = "–";
        if (isfinite(e->p_value))
            snprintf(p, sizeof p,
                     e->p_value < 1e-6    ? "<1e-6"
                     : e->p_value < 0.001 ? "%.1e"
                                          : "%.3f",
                     e->p_value);
        cell(f, p);
        char status[128];
        if (e->status == BR_CHANGE_SLOWER)
            snprintf(status, sizeof status, "**slower**");
        else if (e->why)
            snprintf(status, sizeof status, "%s (%s)", br_change_name(e->status), e->why);
        else
            snprintf(status, sizeof status, "%s", br_change_name(e->status));
        cell(f, status);
        fputc('\n', f);
    }
    fputs("\n</details>\n\n", f);
}

/* Write every run as Markdown to f. Returns 0, or -1 with the error set
 * (write error). */
static int markdown_write(FILE *f, const br_run *const *runs, size_t n_runs,
                          const br_report_opts *opts) {
    (void)opts;
    for (size_t i = 0; i < n_runs; i++) {
        const br_run *r = runs[i];
        put_heading(f, r);
        put_clock(f, r);
        if (r->comparison)
            put_verdict(f, r->comparison);
        put_results(f, r);
        if (r->comparison)
            put_comparison(f, r->comparison);
    }
    if (fflush(f) != 0 || ferror(f))
        return br_error_set("cannot write Markdown: %s", strerror(errno));
    return 0;
}

/* The "markdown" reporter (--markdown FILE). */
const br_reporter br_reporter_markdown = {"markdown", markdown_write};
