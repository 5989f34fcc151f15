/* SPDX-License-Identifier: Apache-2.0 */
/* The terminal report: one box per run, drawn with UTF-8 box
 * characters (or plain ASCII), followed by notes: which time the metric uses
 * (mode both), a legend of the flags used, one warning per flagged case and
 * timing, failed and skipped cases.
 *
 *   ╔═══════════════════════════════════════════════════════════════════════╗
 *   ║ suite · description · sha (branch)                                    ║
 *   ║ device summary (br_device_summary, or br_host_summary without a GPU)  ║
 *   ║ Host times: host clock (CLOCK_MONOTONIC)             (host cases)     ║
 *   ║ GPU times: kernel clock (CUPTI activity records)     (GPU cases)      ║
 *   ║ % peak of 3352 GB/s theoretical peak                 (GB/s metric)    ║
 *   ║ % peak of 66.9 TFLOP/s FP32 theoretical peak         (GFLOP/s metric) ║
 *   ╠═══════════════════════════════════════════════════════════════════════╣
 *   ║ kernel │  n │ cold (µs) │ batch (µs) │ noise │ GB/s │ % peak │ ... │ ! ║
 *   ╟────────┼────┼───────────┼────────────┼───────┼──────┼────────┼─────┼───╢
 *   ║ ...                                                                   ║
 *   ╚═══════════════════════════════════════════════════════════════════════╝
 *
 * The metric column is the suite's `metric` (GB/s, GFLOP/s, TFLOP/s, TOP/s:
 * model/metric.h); a suite that gives both `bytes` and `flops` gets the
 * other figure in a second column after it (br_report_second_metric). The
 * "% peak" column is br_case_result.pct_peak: against the run's DRAM
 * bandwidth peak (theoretical or measured, as the suite asks) for a
 * bandwidth metric, against the FP32 theoretical peak for a compute one (a
 * measured peak is a bandwidth: `peak: measured` leaves the compute metrics
 * on the theoretical one, and the title line says so). With two metric
 * columns its header says which it is of: "% peak (GB/s)" or "% peak
 * (GFLOP/s)" (br_report_peak_head).
 *
 * Time columns: "time (µs)" (mode cold: the cold median), "batch (µs)" (mode
 * batch), or both "cold (µs)" and "batch (µs)" (mode both). The "Host times"
 * line (a run that measured a host case) says host cases are timed by the
 * host clock; the "GPU times" line (a run that measured a GPU case) says what
 * the GPU cases' times measure: "kernel clock (CUPTI activity records)" (the
 * summed durations of the GPU operations a sample enqueued) or "CUDA events"
 * (with why the kernel clock was not used, when it was asked for)
 * (br_report_clock_lines, timing_notes.h). When the run's
 * GPU clock is the kernel clock and a case's headline timing has CUDA event
 * times, an "events (µs)" column after the time columns shows their median
 * for the headline timing (what the stream saw: the kernels plus the front
 * end's work between them). "noise" is the headline timing's relative
 * standard deviation. The "!" column flags (N, T, O: timing_notes.h) a timing
 * that deserves a second look.
 *
 * Widths are counted in display columns (br_report_display_width: wcwidth(3)
 * under the user's locale), so CJK names, emoji and combining marks keep the
 * right border straight; control characters in a cell or title line are
 * shown as spaces. */
#include "reporter.h"
#include "table_impl.h"
#include "machine.h"
#include "timing_notes.h"
#include "base/text.h"
#include "base/util.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "abview.h"
#include "base/error.h"
#include "model/metric.h"
#include "model/roofline.h"

const glyphs br_tbl_utf8 = {
    "╔", "╗", "╚", "╝", "═", "║", "╠", "╣", "─", "│", "┼", "╟", "╢", "·", "–", "×", "µ",
};

const glyphs br_tbl_ascii = {
    "+", "+", "+", "+", "=", "|", "+", "+", "-", "|", "+", "+", "+", ".", "-", "x", "u",
};

static void put_n(FILE *f, const char *s, size_t n) {
    for (size_t i = 0; i < n; i++)
        fputs(s, f);
}

/* A time in µs: 1 decimal, 2 below 10 µs, 3 below 1 µs. */
static void format_us(char *buf, size_t len, double us) {
    int decimals = us < 1.0 ? 3 : us < 10.0 ? 2 : 1;
    snprintf(buf, len, "%.*f", decimals, us);
}

void br_tbl_table_dispose(table *t) {
    for (size_t i = 0; t->cells && i < t->n_rows * t->n_cols; i++)
        free(t->cells[i]);
    free(t->cells);
    free(t->combo);
    free(t->width);
    free(t->right);
    free(t->color);
}

/* Allocate t's cells, combos, widths, alignments (and row colours when
 * `color`) for t->n_rows x t->n_cols. Returns 0, or -1 with the error set. */
int br_tbl_table_alloc(table *t, int color) {
    t->cells = calloc(t->n_rows * t->n_cols, sizeof *t->cells);
    t->combo = calloc(t->n_rows, sizeof *t->combo);
    t->width = calloc(t->n_cols, sizeof *t->width);
    t->right = calloc(t->n_cols, sizeof *t->right);
    t->color = color ? calloc(t->n_rows, sizeof *t->color) : NULL;
    if (!t->cells || !t->combo || !t->width || !t->right || (color && !t->color))
        return br_error_set("out of memory formatting the table");
    return 0;
}

/* Set each column's width to its widest cell. */
void br_tbl_table_fit(table *t) {
    for (size_t i = 0; i < t->n_rows * t->n_cols; i++) {
        size_t w = br_report_display_width(t->cells[i]);
        if (w > t->width[i % t->n_cols])
            t->width[i % t->n_cols] = w;
    }
}

/* `text` as one line of known width for a cell or a title line (owned by
 * the caller; NULL when out of memory): a tab, a newline or a carriage
 * return as a space, and every other control, bidirectional control or byte
 * that is not UTF-8 escaped (base/text.h), so a name from a results file
 * cannot drive the terminal. */
static char *one_line(const char *text) {
    char *flat = strdup(text);
    if (!flat)
        return NULL;
    for (char *p = flat; *p; p++)
        if (*p == '\t' || *p == '\n' || *p == '\r')
            *p = ' ';
    size_t len = strlen(flat), size = br_text_escaped_size(flat, len, 0);
    char *s = malloc(size);
    if (s)
        br_text_escape(s, size, flat, len, 0);
    free(flat);
    return s;
}

int br_tbl_set_cell(table *t, size_t row, size_t col, const char *text) {
    char *s = one_line(text);
    if (!s)
        return br_error_set("out of memory formatting the table");
    t->cells[row * t->n_cols + col] = s;
    return 0;
}

/* A FLOP/s peak given in GFLOP/s (1e9 FLOP/s) as the title shows it:
 * "66.9 TFLOP/s" (1e12 FLOP/s, one decimal) from 1000 GFLOP/s up, else
 * "236 GFLOP/s". */
static void format_flops_peak(char *buf, size_t len, double gflops) {
    if (gflops >= 999.95)
        snprintf(buf, len, "%.1f TFLOP/s", gflops / 1000.0);
    else
        snprintf(buf, len, "%.0f GFLOP/s", gflops);
}

/* The suite description with each run of white space as one space and
 * none leading (owned by the caller); NULL when out of memory. */
static char *collapse_space(const char *text) {
    char *desc = malloc(strlen(text) + 1);
    if (!desc)
        return NULL;
    size_t n = 0;
    int space = 0;
    for (const char *p = text; *p; p++) {
        if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
            space = n > 0;
            continue;
        }
        if (space)
            desc[n++] = ' ';
        space = 0;
        desc[n++] = *p;
    }
    desc[n] = '\0';
    return desc;
}

/* "1a2b3c4-dirty (main)", "... (detached)", "no commit", "no git" for run r. */
static void git_text(char *git, size_t len, const br_run *r) {
    if (!r->git.present) {
        snprintf(git, len, "no git");
        return;
    }
    const char *sha = r->git.unborn ? "no commit" : r->git.short_sha;
    const char *dirty = r->git.dirty ? "-dirty" : "";
    if (r->git.detached)
        snprintf(git, len, "%s%s (detached)", sha, dirty);
    else if (r->git.branch[0])
        snprintf(git, len, "%s%s (%s)", sha, dirty, r->git.branch);
    else
        snprintf(git, len, "%s%s", sha, dirty);
}

/* The "% peak of ..." title line of r, or NULL (*none set) when it has
 * none; NULL with *none 0 when out of memory. */
/* The precisions other than FP32 whose peaks r recorded, with each peak at
 * the maximum SM clock, into buf ("fp16-tensor 1070.4 TFLOP/s, ..."); 0
 * when there is none (the title then names the FP32 peak alone). */
static int other_precisions(char *buf, size_t len, const br_run *r) {
    size_t used = 0;
    int n = 0;
    buf[0] = '\0';
    for (int p = 0; p < BR_PRECISION_COUNT; p++) {
        if (p == BR_PRECISION_FP32 || !r->compute_peaks[p].present || used >= len)
            continue;
        char peak[64];
        format_flops_peak(peak, sizeof peak, r->compute_peaks[p].gflops);
        int w = snprintf(buf + used, len - used, "%s%s %s", n ? ", " : "",
                         br_precision_name((br_precision)p), peak);
        used += w > 0 ? (size_t)w : 0;
        n++;
    }
    return n;
}

/* The precisions whose compute peaks benchrun measured for r (`peak:
 * measured`, br_run_measured_compute), each with its peak, into buf
 * ("fp32 52.1 TFLOP/s, fp16-tensor 660.2 TFLOP/s"); 0 when none was. */
static int measured_precisions(char *buf, size_t len, const br_run *r) {
    size_t used = 0;
    int n = 0;
    buf[0] = '\0';
    for (int p = BR_PRECISION_NONE + 1; p < BR_PRECISION_COUNT && used < len; p++) {
        double gops = NAN;
        if (!br_run_measured_compute(r, (br_precision)p, &gops))
            continue;
        char peak[64];
        format_flops_peak(peak, sizeof peak, gops);
        int w = snprintf(buf + used, len - used, "%s%s %s", n ? ", " : "",
                         br_precision_name((br_precision)p), peak);
        used += w > 0 ? (size_t)w : 0;
        n++;
    }
    return n;
}

static char *peak_line(const br_run *r, int *none) {
    *none = 0;
    char others[512];
    br_metric_peak kind = br_metric_peak_of(r->metric);
    if (kind == BR_METRIC_PEAK_BANDWIDTH && r->has_device && isfinite(r->peak_gbps) &&
        r->peak_gbps > 0.0)
        return br_strfmt("%% peak of %.0f GB/s %s peak", r->peak_gbps,
                         br_peak_kind_name(r->peak_kind));
    if (kind == BR_METRIC_PEAK_COMPUTE && r->has_device && isfinite(r->peak_gflops) &&
        r->peak_gflops > 0.0) {
        char peak[64];
        format_flops_peak(peak, sizeof peak, r->peak_gflops);
        if (measured_precisions(others, sizeof others, r))
            return br_strfmt("%% peak of each case's precision's measured peak (`peak: "
                             "measured`): %s",
                             others);
        if (other_precisions(others, sizeof others, r))
            return br_strfmt("%% peak of each case's precision at the SM clock it held; at the "
                             "maximum clock: fp32 %s, %s",
                             peak, others);
        return br_strfmt("%% peak of %s FP32 theoretical peak%s%s", peak,
                         r->compute_peaks[BR_PRECISION_FP32].present
                             ? " at the maximum clock, each case's at the SM clock it held"
                             : "",
                         r->peak_kind == BR_PEAK_MEASURED
                             ? " (no compute peak was measured: the datasheet's)"
                             : "");
    }
    *none = 1;
    return NULL;
}

/* The title of a run's box, up to five lines (each owned by the caller):
 *   suite · description · git   (runs of whitespace in the description
 *                                collapsed to one space)
 *   the device's summary, or the host's for a run without a GPU
 *   "Host times: ...", "GPU times: ..." (br_report_clock_lines: the kinds of
 *                                case the run measured)
 *   "% peak of N GB/s <kind> peak" (GB/s metric with a device and a peak), or
 *   "% peak of N TFLOP/s FP32 theoretical peak" (GFLOP/s metric with a device
 *   and br_run.peak_gflops; format_flops_peak), followed by " (no compute
 *   peak was measured: the datasheet's)" when the suite asked for a measured
 *   peak and none was measured; "% peak of each case's precision's measured
 *   peak (`peak: measured`): fp32 N TFLOP/s, ..." when some were
 *   (" at the maximum clock, each case's at the SM clock it held" before it
 *   when the run recorded its compute peaks: br_run_case_peak); when the run recorded peaks of
 * other precisions (the suite's `precision`): "% peak of each case's precision at the SM clock it
 * held; at the maximum clock: fp32 N TFLOP/s, fp16-tensor M TFLOP/s" Returns the number of lines,
 * or -1 with the error set. */
int br_tbl_make_title(char *lines[5], const br_run *r, const glyphs *g, int ascii) {
    int n_lines = -1, n_clock;
    char *desc = NULL;
    lines[0] = lines[1] = lines[2] = lines[3] = lines[4] = NULL;
    if (r->suite_description && !(desc = collapse_space(r->suite_description)))
        goto done;
    char git[512];
    git_text(git, sizeof git, r);
    const char *name = r->suite_name ? r->suite_name : "?";
    if (desc && desc[0])
        lines[0] = br_strfmt("%s %s %s %s %s", name, g->dot, desc, g->dot, git);
    else
        lines[0] = br_strfmt("%s %s %s", name, g->dot, git);

    char machine[1024];
    if (r->has_device)
        br_device_summary(machine, sizeof machine, &r->device, ascii);
    else
        br_host_summary(machine, sizeof machine, &r->host, ascii);
    lines[1] = br_strfmt("%s", machine[0] ? machine : r->has_device ? "GPU" : "host");
    if (!lines[0] || !lines[1])
        goto done;
    n_lines = 2;
    if ((n_clock = br_report_clock_lines(&lines[2], r)) < 0) {
        n_lines = -1;
        goto done;
    }
    n_lines += n_clock;
    int none;
    lines[n_lines] = peak_line(r, &none);
    if (lines[n_lines])
        n_lines++;
    else if (!none)
        n_lines = -1;
done:
    free(desc);
    if (n_lines < 0) {
        for (int i = 0; i < 5; i++) {
            free(lines[i]);
            lines[i] = NULL;
        }
        br_error_set("out of memory formatting the table");
    }
    return n_lines;
}

/* The measurement mode the table shows: the run's, with an unset (zeroed)
 * mode read as cold. */
static br_mode shown_mode(const br_run *r) {
    return r->measure.mode == BR_MODE_BATCH || r->measure.mode == BR_MODE_BOTH ? r->measure.mode
                                                                               : BR_MODE_COLD;
}

/* The timing t of case c has figures to show: the case is OK and t was taken. */
static int shown(const br_case_result *c, const br_timing *t) {
    return c->status == BR_STATUS_OK && t->present;
}

/* The columns of run r's table; `energy`: the energy columns were asked for. */
tcols br_tbl_table_cols(const br_run *r, int energy) {
    br_mode mode = shown_mode(r);
    tcols k = {mode == BR_MODE_BOTH ? 2 : 1,
               {mode == BR_MODE_BATCH, 1},
               {mode == BR_MODE_COLD    ? "time"
                : mode == BR_MODE_BATCH ? "batch"
                                        : "cold",
                "batch"},
               br_report_has_events_column(r),
               r->metric != BR_METRIC_NONE,
               br_report_has_peak_column(r),
               br_report_second_metric(r),
               br_roofline_run_has(r),
               energy && br_report_has_energy(r),
               0,
               0,
               0,
               0,
               0,
               0,
               0,
               0,
               0,
               0};
    k.time = 1 + r->n_params;
    k.events = k.time + k.n_times;
    k.noise = k.events + (size_t)k.has_events;
    k.metric = k.noise + 1;
    k.metric2_col = k.metric + (size_t)k.has_metric;
    k.peak = k.metric2_col + (size_t)(k.metric2 != BR_METRIC_NONE);
    k.roof = k.peak + (size_t)k.has_peak;
    k.energy = k.roof + 3 * (size_t)k.has_roof;
    k.speedup = k.energy + 3 * (size_t)k.has_energy;
    k.flags = k.speedup + 1;
    return k;
}

/* The header row of run r's table. Returns 0, or -1 with the error set. */
int br_tbl_table_header(table *t, const br_run *r, const glyphs *g, const tcols *k) {
    char buf[128];
    if (br_tbl_set_cell(t, 0, 0, "kernel") < 0)
        return -1;
    for (size_t p = 0; p < r->n_params; p++) {
        if (br_tbl_set_cell(t, 0, 1 + p, r->param_names[p] ? r->param_names[p] : "?") < 0)
            return -1;
    }
    for (size_t i = 0; i < k->n_times; i++) {
        snprintf(buf, sizeof buf, "%s (%ss)", k->time_head[i], g->micro);
        if (br_tbl_set_cell(t, 0, k->time + i, buf) < 0)
            return -1;
    }
    if (k->has_events) {
        snprintf(buf, sizeof buf, "events (%ss)", g->micro);
        if (br_tbl_set_cell(t, 0, k->events, buf) < 0)
            return -1;
    }
    if (br_tbl_set_cell(t, 0, k->noise, "noise") < 0)
        return -1;
    if (k->has_metric && br_tbl_set_cell(t, 0, k->metric, br_metric_name(r->metric)) < 0)
        return -1;
    if (k->metric2 != BR_METRIC_NONE &&
        br_tbl_set_cell(t, 0, k->metric2_col, br_metric_name(k->metric2)) < 0)
        return -1;
    char head[64];
    if (k->has_peak &&
        br_tbl_set_cell(t, 0, k->peak, br_report_peak_head(head, sizeof head, r)) < 0)
        return -1;
    if (k->has_roof && (br_tbl_set_cell(t, 0, k->roof, "FLOP/B") < 0 ||
                        br_tbl_set_cell(t, 0, k->roof + 1, "bound") < 0 ||
                        br_tbl_set_cell(t, 0, k->roof + 2, "% roof") < 0))
        return -1;
    if (k->has_energy &&
        (br_tbl_set_cell(t, 0, k->energy, "J/exec") < 0 ||
         br_tbl_set_cell(t, 0, k->energy + 1, "W") < 0 ||
         br_tbl_set_cell(t, 0, k->energy + 2, br_metric_energy_unit(r->metric)) < 0))
        return -1;
    if (br_tbl_set_cell(t, 0, k->speedup, "speedup") < 0)
        return -1;
    return br_tbl_set_cell(t, 0, k->flags, "!") < 0 ? -1 : 0;
}

/* The time and events cells of case c (row `row`). Returns 0, or -1 with
 * the error set. */
static int table_times(table *t, size_t row, const br_run *r, const br_case_result *c,
                       const glyphs *g, const tcols *k) {
    char buf[128];
    int ok = c->status == BR_STATUS_OK;
    for (size_t i = 0; i < k->n_times; i++) {
        const br_timing *tm = k->time_batch[i] ? &c->batch : &c->cold;
        if (!ok && i == 0)
            snprintf(buf, sizeof buf, "FAILED");
        else if (shown(c, tm) && tm->stats.n > 0 && isfinite(tm->stats.median))
            format_us(buf, sizeof buf, tm->stats.median / 1000.0);
        else
            snprintf(buf, sizeof buf, "%s", g->dash);
        if (br_tbl_set_cell(t, row, k->time + i, buf) < 0)
            return -1;
    }
    const br_timing *head = br_case_headline(r, c);
    if (k->has_events) {
        if (shown(c, head) && head->event_ns && isfinite(head->event_median_ns))
            format_us(buf, sizeof buf, head->event_median_ns / 1000.0);
        else
            snprintf(buf, sizeof buf, "%s", g->dash);
        if (br_tbl_set_cell(t, row, k->events, buf) < 0)
            return -1;
    }
    return 0;
}

/* A figure with `decimals` decimals, or the dash when it is not finite. */
static int set_number(table *t, size_t row, size_t col, double v, int decimals, const char *suffix,
                      const glyphs *g) {
    char buf[64];
    if (isfinite(v))
        snprintf(buf, sizeof buf, "%.*f%s", decimals, v, suffix);
    else
        snprintf(buf, sizeof buf, "%s", g->dash);
    return br_tbl_set_cell(t, row, col, buf);
}

/* Significant digits for a figure that spans decades (intensity, joules). */
static int set_sig(table *t, size_t row, size_t col, double v, const glyphs *g) {
    char buf[64];
    if (isfinite(v))
        snprintf(buf, sizeof buf, "%.3g", v);
    else
        snprintf(buf, sizeof buf, "%s", g->dash);
    return br_tbl_set_cell(t, row, col, buf);
}

/* The roofline and energy cells of case c (row `row`). Returns 0, or -1
 * with the error set. */
static int table_roof_energy(table *t, size_t row, const br_run *r, const br_case_result *c,
                             const glyphs *g, const tcols *k) {
    if (k->has_roof) {
        br_roofline_point p = br_roofline_case(r, c);
        const char *bound = br_bound_name(p.bound);
        if (set_sig(t, row, k->roof, p.intensity, g) < 0 ||
            br_tbl_set_cell(t, row, k->roof + 1, bound ? bound : g->dash) < 0 ||
            set_number(t, row, k->roof + 2, p.pct, 1, "%", g) < 0)
            return -1;
    }
    if (k->has_energy) {
        const br_energy *e = &c->energy;
        int ok = c->status == BR_STATUS_OK && e->present;
        double per_j = ok ? br_case_per_joule(c, r->metric) : NAN;
        if (set_sig(t, row, k->energy, ok ? e->j_per_exec : NAN, g) < 0 ||
            set_number(t, row, k->energy + 1, ok ? e->watts : NAN, 0, "", g) < 0 ||
            set_sig(t, row, k->energy + 2, per_j, g) < 0)
            return -1;
    }
    return 0;
}

/* The row of case c (row `row`). Returns 0, or -1 with the error set. */
int br_tbl_table_row(table *t, size_t row, const br_run *r, const br_case_result *c,
                     const glyphs *g, const tcols *k) {
    char buf[128];
    int ok = c->status == BR_STATUS_OK;
    t->combo[row] = c->combo;
    const char *kname = c->kernel < r->n_kernels ? r->kernels[c->kernel].name : NULL;
    if (br_tbl_set_cell(t, row, 0, kname ? kname : "?") < 0)
        return -1;
    for (size_t p = 0; p < r->n_params; p++) {
        br_format_param(buf, sizeof buf, c->params[p]);
        if (br_tbl_set_cell(t, row, 1 + p, buf) < 0)
            return -1;
    }
    if (table_times(t, row, r, c, g, k) < 0)
        return -1;
    const br_timing *head = br_case_headline(r, c);
    if (shown(c, head) && head->stats.n > 0 && isfinite(head->stats.noise))
        snprintf(buf, sizeof buf, "%.1f%%", 100.0 * head->stats.noise);
    else
        snprintf(buf, sizeof buf, "%s", g->dash);
    if (br_tbl_set_cell(t, row, k->noise, buf) < 0)
        return -1;
    if (k->has_metric &&
        set_number(t, row, k->metric, ok ? br_case_metric_value(c, r->metric) : NAN, 1, "", g) < 0)
        return -1;
    if (k->metric2 != BR_METRIC_NONE &&
        set_number(t, row, k->metric2_col, ok ? br_case_metric_value(c, k->metric2) : NAN, 1, "",
                   g) < 0)
        return -1;
    if (k->has_peak) {
        if (ok && isfinite(c->pct_peak))
            snprintf(buf, sizeof buf, "%.1f%%", c->pct_peak);
        else
            snprintf(buf, sizeof buf, "%s", g->dash);
        if (br_tbl_set_cell(t, row, k->peak, buf) < 0)
            return -1;
    }
    if (table_roof_energy(t, row, r, c, g, k) < 0)
        return -1;
    if (ok && isfinite(c->speedup))
        snprintf(buf, sizeof buf, "%.2f%s", c->speedup, g->times);
    else
        snprintf(buf, sizeof buf, "%s", g->dash);
    if (br_tbl_set_cell(t, row, k->speedup, buf) < 0)
        return -1;
    br_report_flag_letters(buf, sizeof buf, br_report_case_flags(r, c));
    return br_tbl_set_cell(t, row, k->flags, buf) < 0 ? -1 : 0;
}

/* Fill *t with the header and one row per case that is not skipped;
 * `energy`: show the energy columns (--energy). */
static int table_build(table *t, const br_run *r, const glyphs *g, int energy) {
    tcols k = br_tbl_table_cols(r, energy);
    t->n_cols = k.flags + 1;
    t->n_rows = 1;
    for (size_t i = 0; i < r->n_cases; i++)
        t->n_rows += r->cases[i].status != BR_STATUS_SKIPPED;
    if (br_tbl_table_alloc(t, 0) < 0)
        return -1;
    for (size_t c = 1; c < k.flags; c++)
        t->right[c] = c != k.roof + 1 || !k.has_roof; /* the bound is a word */
    if (br_tbl_table_header(t, r, g, &k) < 0)
        return -1;
    size_t row = 1;
    for (size_t i = 0; i < r->n_cases; i++) {
        const br_case_result *c = &r->cases[i];
        if (c->status == BR_STATUS_SKIPPED)
            continue;
        if (br_tbl_table_row(t, row, r, c, g, &k) < 0)
            return -1;
        row++;
    }
    br_tbl_table_fit(t);
    return 0;
}

/* A rule across the columns: left, then per column fill (width + 2) joined
 * by `cross`, the slack, then right. */
void br_tbl_put_rule(FILE *f, const table *t, size_t slack, const char *left, const char *fill,
                     const char *cross, const char *right) {
    fputs(left, f);
    for (size_t c = 0; c < t->n_cols; c++) {
        if (c > 0)
            fputs(cross, f);
        put_n(f, fill, t->width[c] + 2);
    }
    put_n(f, fill, slack);
    fputs(right, f);
    fputc('\n', f);
}

void br_tbl_put_row(FILE *f, const table *t, size_t row, size_t slack, const glyphs *g) {
    fputs(g->vv, f);
    for (size_t c = 0; c < t->n_cols; c++) {
        const char *s = t->cells[row * t->n_cols + c];
        size_t w = br_report_display_width(s);
        size_t pad = w < t->width[c] ? t->width[c] - w : 0; /* a wider cell: the row is longer */
        if (c > 0)
            fputs(g->v, f);
        fputc(' ', f);
        if (t->right[c])
            put_n(f, " ", pad);
        const char *color = t->color && c == t->color_col ? t->color[row] : NULL;
        if (color)
            fputs(color, f);
        fputs(s, f);
        if (color)
            fputs("\033[0m", f);
        if (!t->right[c])
            put_n(f, " ", pad);
        fputc(' ', f);
    }
    put_n(f, " ", slack);
    fputs(g->vv, f);
    fputc('\n', f);
}

/* The warnings of one timing of case c (label "kernel params"), one line per
 * flag it raises. */
static void put_timing_warnings(FILE *f, const br_run *r, const br_case_result *c,
                                const br_timing *t, const char *label, const char *which) {
    unsigned flags = br_report_timing_flags(c, t);
    char text[512];
    for (unsigned flag = BR_FLAG_N; flag <= BR_FLAG_LAST; flag <<= 1) {
        if (!(flags & flag))
            continue;
        br_report_flag_warning(text, sizeof text, r, t, flag);
        br_text_fprintf(f, "%s (%s): %s\n", label, which, text);
    }
}

/* Under the table: which time the metric uses (mode both), the legend of the
 * flags used and one warning per flagged case, timing and flag; then one line
 * per failed case and one note on the skipped ones. */
void br_tbl_put_notes(FILE *f, const br_run *r) {
    char label[512];
    if (shown_mode(r) == BR_MODE_BOTH) {
        const char *which = r->measure.headline == BR_MODE_BATCH ? "batch" : "cold";
        br_metric m2 = br_report_second_metric(r);
        if (m2 != BR_METRIC_NONE)
            fprintf(f, "note: %s, %s, %% peak, speedup and noise use the %s time\n",
                    br_metric_name(r->metric), br_metric_name(m2), which);
        else if (r->metric != BR_METRIC_NONE)
            fprintf(f, "note: %s, %% peak, speedup and noise use the %s time\n",
                    br_metric_name(r->metric), which);
        else
            fprintf(f, "note: speedup and noise use the %s time\n", which);
    }

    unsigned used = 0;
    for (size_t i = 0; i < r->n_cases; i++)
        used |= br_report_case_flags(r, &r->cases[i]);
    if (used) {
        char legend[512];
        br_report_flags_legend(legend, sizeof legend, used);
        fprintf(f, "flags: %s\n", legend);
        for (size_t i = 0; i < r->n_cases; i++) {
            const br_case_result *c = &r->cases[i];
            if (!br_report_case_flags(r, c))
                continue;
            br_run_case_label(label, sizeof label, r, c);
            put_timing_warnings(f, r, c, &c->cold, label, "cold");
            put_timing_warnings(f, r, c, &c->batch, label, "batch");
            char text[512];
            br_report_physics_warning(text, sizeof text, r, c);
            if (text[0])
                br_text_fprintf(f, "%s (P): %s\n", label, text);
        }
    }

    size_t n_skipped = 0, n_skipped_gpu = 0;
    const char *skip_message = NULL;
    for (size_t i = 0; i < r->n_cases; i++) {
        const br_case_result *c = &r->cases[i];
        const br_run_kernel *k = c->kernel < r->n_kernels ? &r->kernels[c->kernel] : NULL;
        if (c->status == BR_STATUS_SKIPPED) {
            n_skipped++;
            n_skipped_gpu += k && k->backend == BR_BACKEND_GPU;
            if (!skip_message)
                skip_message = c->message;
            continue;
        }
        if (c->status != BR_STATUS_FAILED)
            continue;
        br_run_case_label(label, sizeof label, r, c);
        br_text_fprintf(f, "FAILED %s", label);
        if (c->stage != BR_STAGE_NONE)
            fprintf(f, " (%s)", br_stage_name(c->stage));
        const char *msg = c->message && c->message[0] ? c->message : "(no message)";
        size_t len = strlen(msg);
        while (len > 0 && (msg[len - 1] == '\n' || msg[len - 1] == '\r'))
            len--;
        br_text_fprintf(f, ": %.*s\n", (int)len, msg);
    }
    if (n_skipped > 0) {
        const char *why = r->gpu_skip_reason ? r->gpu_skip_reason
                          : skip_message     ? skip_message
                                             : "no reason given";
        br_text_fprintf(f, "note: %zu %scase(s) skipped: %s\n", n_skipped,
                        n_skipped_gpu == n_skipped ? "GPU " : "", why);
    }
}

/* Draw table t in a box under the title lines (a title wider than the
 * columns widens column `widen`). */
static void put_box(FILE *f, table *t, char **title, int n_title, const glyphs *g, size_t widen) {
    size_t inner = t->n_cols - 1;
    for (size_t c = 0; c < t->n_cols; c++)
        inner += t->width[c] + 2;
    size_t title_w = 0;
    for (int i = 0; i < n_title; i++) {
        char *line = one_line(title[i]);
        if (line) { /* else (out of memory) the line as it is */
            free(title[i]);
            title[i] = line;
        }
        size_t w = br_report_display_width(title[i]) + 2;
        if (w > title_w)
            title_w = w;
    }
    if (title_w > inner) {
        t->width[widen] += title_w - inner;
        inner = title_w;
    }
    size_t slack = 0;

    fputs(g->tl, f);
    put_n(f, g->hh, inner);
    fputs(g->tr, f);
    fputc('\n', f);
    for (int i = 0; i < n_title; i++) {
        fprintf(f, "%s %s", g->vv, title[i]);
        put_n(f, " ", inner - br_report_display_width(title[i]) - 1);
        fprintf(f, "%s\n", g->vv);
    }
    br_tbl_put_rule(f, t, slack, g->hh_l, g->hh, g->hh, g->hh_r);
    br_tbl_put_row(f, t, 0, slack, g);
    /* Rules separate parameter combinations, unless every combination has a
     * single row (then a rule after each row would only be noise). */
    int grouped = 0;
    for (size_t row = 2; row < t->n_rows; row++)
        grouped |= t->combo[row] == t->combo[row - 1];
    for (size_t row = 1; row < t->n_rows; row++) {
        if (row == 1 || (grouped && t->combo[row] != t->combo[row - 1]))
            br_tbl_put_rule(f, t, slack, g->h_l, g->h, g->cross, g->h_r);
        br_tbl_put_row(f, t, row, slack, g);
    }
    fputs(g->bl, f);
    put_n(f, g->hh, inner);
    fputs(g->br, f);
    fputc('\n', f);
}

/* ANSI colours of the comparison's status column. */
static const char *change_color(br_change c) {
    switch (c) {
    case BR_CHANGE_SLOWER:
        return "\033[1;31m"; /* bold red */
    case BR_CHANGE_FASTER:
        return "\033[32m"; /* green */
    case BR_CHANGE_UNKNOWN:
    case BR_CHANGE_MISSING:
        return "\033[33m"; /* yellow */
    default:
        return NULL;
    }
}

/* A p-value as the comparison shows it: "<1e-6", 3 significant digits. */
static void format_p(char *buf, size_t len, double p) {
    if (!isfinite(p))
        snprintf(buf, len, "-");
    else if (p < 1e-6)
        snprintf(buf, len, "<1e-6");
    else if (p < 0.001)
        snprintf(buf, len, "%.1e", p);
    else
        snprintf(buf, len, "%.3f", p);
}

/* The comparison box of run r: one row per compared entry (kernel, params,
 * baseline and current median, change, minimum detectable effect, p-value,
 * status); entries not compared are summed up under the box instead. */
static int comparison_build(table *t, const br_run *r, const glyphs *g, int color) {
    const br_comparison *cmp = r->comparison;
    enum { C_KERNEL, C_PARAMS, C_BASE, C_NOW, C_CHANGE, C_MDE, C_P, C_STATUS, N_COLS };
    /* benchrun ab's interval says what it could tell: no MDE column there. */
    const size_t drop = cmp->ab ? 1 : 0, c_p = C_P - drop, c_status = C_STATUS - drop;
    int rc = -1;
    char buf[200];
    size_t shown = 0;
    for (size_t i = 0; i < cmp->n_entries; i++)
        shown += !cmp->entries[i].not_compared;
    t->n_cols = N_COLS - drop;
    t->n_rows = 1 + shown;
    t->color_col = c_status;
    if (br_tbl_table_alloc(t, color) < 0)
        goto done;
    t->right[C_BASE] = t->right[C_NOW] = t->right[C_CHANGE] = t->right[C_MDE] = t->right[c_p] = 1;
    const char *clock = cmp->clock == BR_MODE_BATCH ? "batch" : "cold";
    if (br_tbl_set_cell(t, 0, C_KERNEL, "kernel") < 0 ||
        br_tbl_set_cell(t, 0, C_PARAMS, "params") < 0 ||
        br_tbl_set_cell(t, 0, C_CHANGE, cmp->ab ? "NEW/OLD [interval]" : "change") < 0 ||
        (!drop && br_tbl_set_cell(t, 0, C_MDE, "MDE") < 0) || br_tbl_set_cell(t, 0, c_p, "p") < 0 ||
        br_tbl_set_cell(t, 0, c_status, "status") < 0)
        goto done;
    /* ab: the geometric means of the blocks' medians, whose quotient is NEW/OLD. */
    snprintf(buf, sizeof buf, "%s %s%s (%ss)", cmp->ab ? "OLD" : "baseline", clock,
             cmp->ab ? ", geo. mean" : "", g->micro);
    if (br_tbl_set_cell(t, 0, C_BASE, buf) < 0)
        goto done;
    snprintf(buf, sizeof buf, "%s (%ss)", cmp->ab ? "NEW geo. mean" : "now", g->micro);
    if (br_tbl_set_cell(t, 0, C_NOW, buf) < 0)
        goto done;
    size_t row = 0;
    for (size_t i = 0; i < cmp->n_entries; i++) {
        const br_compare_entry *e = &cmp->entries[i];
        if (e->not_compared)
            continue;
        row++;
        t->combo[row] = row; /* no grouping rules */
        if (br_tbl_set_cell(t, row, C_KERNEL, e->kernel ? e->kernel : "?") < 0 ||
            br_tbl_set_cell(t, row, C_PARAMS, e->params && e->params[0] ? e->params : g->dash) < 0)
            goto done;
        if (isfinite(e->base_median))
            format_us(buf, sizeof buf, e->base_median / 1000.0);
        else
            snprintf(buf, sizeof buf, "%s", g->dash);
        if (br_tbl_set_cell(t, row, C_BASE, buf) < 0)
            goto done;
        if (isfinite(e->cur_median))
            format_us(buf, sizeof buf, e->cur_median / 1000.0);
        else
            snprintf(buf, sizeof buf, "%s", g->dash);
        if (br_tbl_set_cell(t, row, C_NOW, buf) < 0)
            goto done;
        if (cmp->ab)
            br_abview_ratio(buf, sizeof buf, e, g->times, g->dash);
        else if (isfinite(e->change))
            snprintf(buf, sizeof buf, "%+.1f%%", 100.0 * e->change);
        else
            snprintf(buf, sizeof buf, "%s", g->dash);
        if (br_tbl_set_cell(t, row, C_CHANGE, buf) < 0)
            goto done;
        br_report_mde(buf, sizeof buf, e, g->dash);
        if (!drop && br_tbl_set_cell(t, row, C_MDE, buf) < 0)
            goto done;
        format_p(buf, sizeof buf, br_report_change_p(e));
        if (br_tbl_set_cell(t, row, c_p, strcmp(buf, "-") == 0 ? g->dash : buf) < 0)
            goto done;
        br_report_change_status(buf, sizeof buf, e);
        if (br_tbl_set_cell(t, row, c_status, buf) < 0)
            goto done;
        if (t->color)
            t->color[row] = change_color(e->status);
    }
    br_tbl_table_fit(t);
    rc = 0;
done:
    return rc;
}

/* The comparison of r with its baseline: a box and a summary line. */
static int put_comparison(FILE *f, const br_run *r, const glyphs *g, int color) {
    const br_comparison *cmp = r->comparison;
    table t = {0};
    char *title[3] = {NULL, NULL, NULL};
    int rc = -1;
    if (comparison_build(&t, r, g, color) < 0)
        goto done;
    char when[96] = "";
    if (cmp->baseline_commit || cmp->baseline_date[0])
        snprintf(when, sizeof when, " %s %s%s%s", g->dot,
                 cmp->baseline_commit ? cmp->baseline_commit : "",
                 cmp->baseline_commit && cmp->baseline_date[0] ? " " : "", cmp->baseline_date);
    if (cmp->ab) {
        char old[160], cur[160], rule[256];
        br_abview_side(old, sizeof old, cmp, 0);
        br_abview_side(cur, sizeof cur, cmp, 1);
        br_abview_rule(rule, sizeof rule, cmp, g->dot[0] == '.' ? "+-" : "±");
        title[0] = br_strfmt("NEW %s vs OLD %s", cur, old);
        title[1] = br_strfmt("%s: %s", cmp->baseline_device ? cmp->baseline_device : "?", rule);
    } else {
        title[0] =
            br_strfmt("vs baseline %s%s", cmp->baseline_path ? cmp->baseline_path : "?", when);
        char level[96];
        br_report_level(level, sizeof level, cmp);
        title[1] = br_strfmt("%s: slower or faster = |change| > %.3g%% and %s against the "
                             "between-run spread%s",
                             cmp->baseline_device ? cmp->baseline_device : "?",
                             100.0 * cmp->rules.threshold, level,
                             cmp->device_forced ? " (another device: forced)" : "");
        char once[160];
        br_report_one_save(once, sizeof once, cmp, g->dot[0] == '.' ? "+-" : "±");
        title[2] = br_strfmt("MDE = smallest slowdown this comparison could flag%s%s",
                             once[0] ? "; " : "", once);
    }
    if (!title[0] || !title[1] || (!cmp->ab && !title[2]))
        goto done;
    if (t.n_rows > 1)
        put_box(f, &t, title, cmp->ab ? 2 : 3, g, t.n_cols - 1);
    else
        br_text_fprintf(f, "%s\n", title[0]);
    char omitted[200];
    if (br_report_not_compared(omitted, sizeof omitted, cmp))
        fprintf(f, "%s\n", omitted);
    const char *sep = "";
    fputs(cmp->ab ? "NEW vs OLD: " : "vs baseline: ", f);
    for (int s = 0; s < BR_CHANGE_COUNT; s++) {
        static const br_change order[] = {BR_CHANGE_SLOWER,  BR_CHANGE_FASTER, BR_CHANGE_SAME,
                                          BR_CHANGE_UNKNOWN, BR_CHANGE_NEW,    BR_CHANGE_MISSING};
        br_change c = order[s];
        if (cmp->count[c] == 0 && c != BR_CHANGE_SLOWER)
            continue;
        const char *col = color ? change_color(c) : NULL;
        fprintf(f, "%s%s%zu %s%s", sep, col && cmp->count[c] ? col : "", cmp->count[c],
                br_change_name(c), col && cmp->count[c] ? "\033[0m" : "");
        sep = ", ";
    }
    fputc('\n', f);
    char confirm[1024];
    br_report_confirm(confirm, sizeof confirm, cmp);
    if (confirm[0])
        br_text_fprintf(f, "%s\n", confirm);
    rc = 0;
done:
    br_tbl_table_dispose(&t);
    free(title[0]);
    free(title[1]);
    free(title[2]);
    return rc;
}

static int write_run(FILE *f, const br_run *r, const glyphs *g, int ascii, int color, int energy,
                     int rows_shown) {
    if (rows_shown) /* the box and the notes are on the terminal already */
        return r->comparison ? put_comparison(f, r, g, color) : 0;
    int rc = -1;
    table t = {0};
    char *title[5] = {NULL, NULL, NULL, NULL, NULL};
    int n_title = br_tbl_make_title(title, r, g, ascii);
    if (n_title < 0)
        goto done;
    if (table_build(&t, r, g, energy) < 0)
        goto done;
    put_box(f, &t, title, n_title, g, 0);
    br_tbl_put_notes(f, r);
    if (r->comparison && put_comparison(f, r, g, color) < 0)
        goto done;
    rc = 0;
done:
    br_tbl_table_dispose(&t);
    for (int i = 0; i < 5; i++)
        free(title[i]);
    return rc;
}

/* Write one box per run (blank line between runs) and its notes to f.
 * Returns 0, or -1 with the error set (out of memory, write error). */
static int table_write(FILE *f, const br_run *const *runs, size_t n_runs,
                       const br_report_opts *opts) {
    const glyphs *g = opts && opts->ascii ? &br_tbl_ascii : &br_tbl_utf8;
    for (size_t i = 0; i < n_runs; i++) {
        if (i > 0 && !(opts && opts->rows_shown))
            fputc('\n', f);
        if (write_run(f, runs[i], g, opts && opts->ascii, opts && opts->color, opts && opts->energy,
                      opts && opts->rows_shown) < 0)
            return -1;
    }
    if (fflush(f) != 0 || ferror(f))
        return br_error_set("cannot write the table: %s", strerror(errno));
    return 0;
}

/* The "table" reporter: human-readable boxes for a terminal. */
const br_reporter br_reporter_table = {"table", table_write};
