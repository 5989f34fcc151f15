/* SPDX-License-Identifier: Apache-2.0 */
/* The results, and the comparison with a baseline, as GitHub
 * Flavored Markdown: fit for a pull-request comment or a CI job summary
 * ($GITHUB_STEP_SUMMARY). Per run:
 *
 *   ### reduction · a61c560 (main) · NVIDIA H100 80GB HBM3
 *   Host times: host clock (CLOCK_MONOTONIC)              (host cases measured)
 *   GPU times: kernel clock (CUPTI activity records)      (GPU cases measured)
 *   **Regression:** 2 slower than the baseline ...        (when compared)
 *   | kernel | n | cold (µs) | batch (µs) | events (µs) | noise | GB/s | % peak | speedup | ! |
 *   |---|--:|--:|...|---|
 *   flags: N = ..., then one warning per flagged case and timing
 *   failed cases, one line each; the skipped ones, counted
 *   <details> comparison with the baseline: an HTML table, one row per case </details>
 *
 * The clock lines, the "events (µs)" and "% peak" columns, the "!" column
 * (flags N, T, O) and its warnings are the terminal table's (reporters/table.c,
 * timing_notes.h). Times in µs, as in the terminal table.
 *
 * Every string that comes from the suite, the machine or a message (names,
 * parameters, paths, messages) is escaped (md_text): the characters that
 * start Markdown or HTML inline syntax are written as character references
 * (`*` as "&#42;", `<` as "&lt;"), which CommonMark, GFM and Python-Markdown
 * all show as the character itself and never read as syntax, even `|` in a
 * table cell; control characters (a newline) are written as spaces, so a
 * message stays on its line and in its cell.
 *
 * The comparison is an HTML table inside <details>: a renderer takes
 * <details> up to </details> (Python-Markdown) or to the next blank line
 * (CommonMark) as raw HTML, so a Markdown table inside it would stay raw text
 * in Python-Markdown. */
#include "reporter.h"
#include "timing_notes.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abview.h"
#include "base/error.h"
#include "model/metric.h"

static int ascii_alnum(char ch) {
    return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

/* Write the first n bytes of s (up to its end) as Markdown text that shows
 * exactly those characters: the ASCII characters of inline syntax (emphasis,
 * code, links, HTML, entities, tables, strikethrough, GitHub's math, heading
 * closers) as character references, control characters as spaces. A '_'
 * between two ASCII letters or digits stays as it is ("reduce_cpu"): it can
 * neither open nor close emphasis there (CommonMark's flanking rules;
 * Python-Markdown's smart emphasis). */
static void md_text_n(FILE *f, const char *s, size_t n) {
    for (size_t i = 0; s && i < n && s[i]; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '_' && i > 0 && ascii_alnum(s[i - 1]) && i + 1 < n && ascii_alnum(s[i + 1]))
            fputc(ch, f);
        else if (ch == '&')
            fputs("&amp;", f);
        else if (ch == '<')
            fputs("&lt;", f);
        else if (ch == '>')
            fputs("&gt;", f);
        else if (strchr("\\`*_[]|~$#!", ch))
            fprintf(f, "&#%d;", ch);
        else if (ch < 0x20 || ch == 0x7f)
            fputc(' ', f);
        else
            fputc(ch, f);
    }
}

static void md_text(FILE *f, const char *s) {
    md_text_n(f, s, (size_t)-1);
}

/* Write s as text inside raw HTML (the comparison table): & < > " as
 * references, control characters as spaces. */
static void html_text(FILE *f, const char *s) {
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '&')
            fputs("&amp;", f);
        else if (ch == '<')
            fputs("&lt;", f);
        else if (ch == '>')
            fputs("&gt;", f);
        else if (ch == '"')
            fputs("&quot;", f);
        else if (ch < 0x20 || ch == 0x7f)
            fputc(' ', f);
        else
            fputc(ch, f);
    }
}

/* Write s as a code span (outside tables): fenced with one backtick more
 * than its longest run of backticks, padded with a space when it starts or
 * ends with one (CommonMark's rules, which Python-Markdown shares); inside,
 * every character is literal, control characters written as spaces. */
static void md_code(FILE *f, const char *s) {
    size_t run = 0, longest = 0, len = strlen(s);
    for (size_t i = 0; i < len; i++) {
        run = s[i] == '`' ? run + 1 : 0;
        if (run > longest)
            longest = run;
    }
    int pad = len > 0 && (s[0] == '`' || s[len - 1] == '`');
    for (size_t i = 0; i <= longest; i++)
        fputc('`', f);
    fputs(pad ? " " : "", f);
    for (size_t i = 0; i < len; i++)
        fputc((unsigned char)s[i] < 0x20 || s[i] == 0x7f ? ' ' : s[i], f);
    fputs(pad ? " " : "", f);
    for (size_t i = 0; i <= longest; i++)
        fputc('`', f);
}

/* Write s (escaped) as the text of one table cell. */
static void cell(FILE *f, const char *s) {
    fputc(' ', f);
    md_text(f, s);
    fputs(" |", f);
}

/* A time in µs as the tables show it: 1 decimal, 2 below 10 µs, 3 below 1 µs. */
static void format_us(char *buf, size_t len, double ns) {
    double us = ns / 1000.0;
    snprintf(buf, len, "%.*f", us < 1.0 ? 3 : us < 10.0 ? 2 : 1, us);
}

static void cell_us(FILE *f, double ns) {
    char buf[64] = "–";
    if (isfinite(ns))
        format_us(buf, sizeof buf, ns);
    cell(f, buf);
}

/* A number with `decimals` decimals, then `suffix` ("%", "×"); "–" when not finite.
 * sign: 1 writes a '+' before positive values. */
static void format_num(char *buf, size_t len, double v, int decimals, const char *suffix,
                       int sign) {
    if (!isfinite(v))
        snprintf(buf, len, "–");
    else
        snprintf(buf, len, sign ? "%+.*f%s" : "%.*f%s", decimals, v, suffix);
}

static void cell_num(FILE *f, double v, int decimals, const char *suffix) {
    char buf[64];
    format_num(buf, sizeof buf, v, decimals, suffix, 0);
    cell(f, buf);
}

static const char *kernel_name(const br_run *r, const br_case_result *c) {
    return c->kernel < r->n_kernels && r->kernels[c->kernel].name ? r->kernels[c->kernel].name
                                                                  : "?";
}

static void put_heading(FILE *f, const br_run *r) {
    fputs("### ", f);
    md_text(f, r->suite_name ? r->suite_name : "?");
    if (r->git.present && !r->git.unborn && r->git.short_sha[0]) {
        fputs(" · ", f);
        md_code(f, r->git.short_sha);
        if (!r->git.detached && r->git.branch[0]) {
            fputs(" (", f);
            md_text(f, r->git.branch);
            fputc(')', f);
        }
        if (r->git.dirty)
            fputs(" dirty", f);
    }
    if (r->has_device || r->host.cpu_model[0]) {
        fputs(" · ", f);
        md_text(f, r->has_device ? r->device.name : r->host.cpu_model);
    }
    fputs("\n\n", f);
}

/* What timed the run's measured cases: "Host times: ..." and "GPU times: ..."
 * (br_report_clock_lines), one paragraph each. Returns 0, or -1 with the
 * error set. */
static int put_clocks(FILE *f, const br_run *r) {
    char *lines[2];
    int n = br_report_clock_lines(lines, r);
    for (int i = 0; i < n; i++) {
        md_text(f, lines[i]);
        fputs("\n\n", f);
        free(lines[i]);
    }
    return n < 0 ? -1 : 0;
}

/* The entries not compared, summed up as one sentence (after a verdict). */
static void put_not_compared(FILE *f, const br_comparison *c) {
    char omitted[200];
    if (br_report_not_compared(omitted, sizeof omitted, c)) {
        fputc(' ', f);
        md_text(f, omitted);
        fputc('.', f);
    }
}

/* The one-line verdict of a comparison. */
static void put_verdict(FILE *f, const br_comparison *c) {
    if (c->ab) {
        br_abview_markdown_verdict(f, c);
        put_not_compared(f, c);
        fputs("\n\n", f);
        return;
    }
    size_t slower = c->count[BR_CHANGE_SLOWER], faster = c->count[BR_CHANGE_FASTER];
    if (slower)
        fprintf(f, "**Regression:** %zu case(s) slower than the baseline", slower);
    else
        fputs("**No regression** against the baseline", f);
    char once[160], level[96];
    br_report_one_save(once, sizeof once, c, "±");
    br_report_level(level, sizeof level, c);
    if (once[0])
        strncat(once, ")", sizeof once - strlen(once) - 1);
    fputs(" (", f);
    md_code(f, c->baseline_path ? c->baseline_path : "?");
    if (c->baseline_commit) {
        fputs(" at ", f);
        md_code(f, c->baseline_commit);
    }
    fprintf(f,
            "): %zu slower, %zu faster, %zu same, %zu unknown, %zu new, %zu missing. "
            "Slower or faster means a median change beyond ±%g%% that is significant at ",
            slower, faster, c->count[BR_CHANGE_SAME], c->count[BR_CHANGE_UNKNOWN],
            c->count[BR_CHANGE_NEW], c->count[BR_CHANGE_MISSING], 100.0 * c->rules.threshold);
    md_text(f, level);
    fprintf(f,
            " against the between-run spread of the baseline's run medians%s%s; MDE is "
            "the smallest slowdown the comparison could flag.%s",
            once[0] ? " (" : "", once[0] ? once : "",
            c->device_forced ? " The baseline is from another device (forced)." : "");
    char confirm[1024];
    br_report_confirm(confirm, sizeof confirm, c);
    if (confirm[0]) {
        fputs(" Confirmation: ", f);
        md_text(f, confirm);
        fputc('.', f);
    }
    put_not_compared(f, c);
    fputs("\n\n", f);
}

/* The header and alignment lines of run r's results table (mode: the shown one). */
static void put_results_head(FILE *f, const br_run *r, br_mode mode) {
    int has_metric = r->metric != BR_METRIC_NONE, has_peak = br_report_has_peak_column(r);
    int has_events = br_report_has_events_column(r);
    br_metric m2 = br_report_second_metric(r);
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
    if (m2 != BR_METRIC_NONE)
        cell(f, br_metric_name(m2));
    char head[64];
    if (has_peak)
        cell(f, br_report_peak_head(head, sizeof head, r));
    fputs(" speedup | ! |\n|---|", f);
    size_t n_right = r->n_params + (mode == BR_MODE_BOTH ? 2 : 1) + (size_t)has_events + 2 +
                     (size_t)has_metric + (size_t)(m2 != BR_METRIC_NONE) + (size_t)has_peak;
    for (size_t i = 0; i < n_right; i++)
        fputs("--:|", f);
    fputs("---|\n", f);
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
            fputs(" **FAILED** |", f);
        else
            cell_us(f, c->cold.present && c->cold.stats.n ? c->cold.stats.median : NAN);
    }
    if (mode != BR_MODE_COLD) {
        if (!ok && mode == BR_MODE_BATCH)
            fputs(" **FAILED** |", f);
        else
            cell_us(f, ok && c->batch.present && c->batch.stats.n ? c->batch.stats.median : NAN);
    }
    const br_timing *h = br_case_headline(r, c);
    if (has_events)
        cell_us(f, ok && h->present && h->event_ns ? h->event_median_ns : NAN);
    cell_num(f, ok && h->present && h->stats.n ? 100.0 * h->stats.noise : NAN, 1, "%");
    if (has_metric)
        cell_num(f, ok ? br_case_metric_value(c, r->metric) : NAN, 1, "");
    if (br_report_second_metric(r) != BR_METRIC_NONE)
        cell_num(f, ok ? br_case_metric_value(c, br_report_second_metric(r)) : NAN, 1, "");
    if (has_peak)
        cell_num(f, ok ? c->pct_peak : NAN, 1, "%");
    cell_num(f, ok ? c->speedup : NAN, 2, "×");
    char flags[8];
    br_report_flag_letters(flags, sizeof flags, br_report_case_flags(r, c));
    cell(f, flags);
    fputc('\n', f);
}

/* "`kernel` name=value ..." of case c, escaped: how the notes name a case. */
static void put_case_label(FILE *f, const br_run *r, const br_case_result *c) {
    md_code(f, kernel_name(r, c));
    for (size_t p = 0; p < r->n_params; p++) {
        char v[32];
        br_format_param(v, sizeof v, c->params[p]);
        fputc(' ', f);
        md_text(f, r->param_names[p]);
        fputc('=', f);
        md_text(f, v);
    }
}

/* The legend of the flags run r's cases raise, then one list item per flag
 * of a case's timing (as the terminal table's notes), bulleted '*' so that
 * the failures' list ('-') after it is another list. */
static void put_flag_notes(FILE *f, const br_run *r) {
    unsigned used = 0;
    for (size_t i = 0; i < r->n_cases; i++)
        used |= br_report_case_flags(r, &r->cases[i]);
    if (!used)
        return;
    char text[512];
    br_report_flags_legend(text, sizeof text, used);
    fputs("Flags (column !): ", f);
    md_text(f, text);
    fputs("\n\n", f);
    for (size_t i = 0; i < r->n_cases; i++) {
        const br_case_result *c = &r->cases[i];
        for (int k = 0; k < 2; k++) {
            const br_timing *t = k ? &c->batch : &c->cold;
            unsigned flags = br_report_timing_flags(c, t);
            for (unsigned flag = BR_FLAG_N; flag <= BR_FLAG_LAST; flag <<= 1) {
                if (!(flags & flag))
                    continue;
                br_report_flag_warning(text, sizeof text, r, t, flag);
                fputs("* ", f);
                put_case_label(f, r, c);
                fprintf(f, " (%s): ", k ? "batch" : "cold");
                md_text(f, text);
                fputc('\n', f);
            }
        }
        br_report_physics_warning(text, sizeof text, r, c);
        if (text[0]) {
            fputs("* ", f);
            put_case_label(f, r, c);
            fputs(" (P): ", f);
            md_text(f, text);
            fputc('\n', f);
        }
    }
    fputc('\n', f);
}

/* The failed cases of run r (one line each: the first line of the message,
 * as a compiler's output is long) and the count of skipped ones. */
static void put_failures(FILE *f, const br_run *r) {
    size_t skipped = 0, failed = 0;
    for (size_t i = 0; i < r->n_cases; i++) {
        const br_case_result *c = &r->cases[i];
        skipped += c->status == BR_STATUS_SKIPPED;
        if (c->status != BR_STATUS_FAILED)
            continue;
        failed++;
        fputs("- **FAILED** ", f);
        put_case_label(f, r, c);
        fputs(" (", f);
        const char *stage = br_stage_name(c->stage);
        md_text(f, stage ? stage : "?");
        fputs("): ", f);
        const char *msg = c->message && c->message[0] ? c->message : "(no message)";
        md_text_n(f, msg, strcspn(msg, "\r\n"));
        fputc('\n', f);
    }
    if (skipped) {
        fprintf(f, "- %zu case(s) skipped: ", skipped);
        md_text(f, r->gpu_skip_reason ? r->gpu_skip_reason : "not run");
        fputc('\n', f);
    }
    if (skipped || failed)
        fputc('\n', f);
}

/* Run r's results table in Markdown, then its flags, failed and skipped cases. */
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
    put_flag_notes(f, r);
    put_failures(f, r);
}

/* One row of the comparison's HTML table. */
static void put_comparison_row(FILE *f, const br_compare_entry *e, int ab) {
    char buf[200];
    fputs("<tr><td>", f);
    html_text(f, e->kernel ? e->kernel : "?");
    fputs("</td><td>", f);
    html_text(f, e->params && e->params[0] ? e->params : "–");
    for (int k = 0; k < 2; k++) {
        double ns = k ? e->cur_median : e->base_median;
        snprintf(buf, sizeof buf, "–");
        if (isfinite(ns))
            format_us(buf, sizeof buf, ns);
        fprintf(f, "%s<td align=\"right\">%s</td>", k ? "" : "</td>", buf);
    }
    if (e->pairs > 0) /* benchrun ab: the ratio and its interval */
        br_abview_ratio(buf, sizeof buf, e, "×", "–");
    else
        format_num(buf, sizeof buf, isfinite(e->change) ? 100.0 * e->change : NAN, 1, "%", 1);
    fprintf(f, "<td align=\"right\">%s</td>", buf);
    if (!ab) { /* benchrun ab's interval says what it could tell: no MDE */
        br_report_mde(buf, sizeof buf, e, "–");
        fprintf(f, "<td align=\"right\">%s</td>", buf);
    }
    double p = br_report_change_p(e);
    snprintf(buf, sizeof buf, "–");
    if (isfinite(p))
        snprintf(buf, sizeof buf, p < 1e-6 ? "&lt;1e-6" : p < 0.001 ? "%.1e" : "%.3f", p);
    fprintf(f, "<td align=\"right\">%s</td><td>", buf);
    if (e->status == BR_CHANGE_SLOWER)
        fputs("<strong>slower</strong>", f);
    else
        html_text(f, br_change_name(e->status));
    if (e->why) {
        fputs(" (", f);
        html_text(f, e->why);
        fputc(')', f);
    }
    if (e->decided_by && strcmp(e->decided_by, "time") != 0) {
        fputs(" [", f);
        html_text(f, e->decided_by);
        fputc(']', f);
    }
    fputs("</td></tr>\n", f);
}

/* The comparison: an HTML table in <details> (open when a case is slower),
 * with no blank line inside (the top of the file says why); the entries not
 * compared are summed up in the verdict, not listed. */
static void put_comparison(FILE *f, const br_comparison *c) {
    fprintf(f, "<details%s><summary>Comparison with %s (%s time)</summary>\n",
            c->count[BR_CHANGE_SLOWER] ? " open" : "", c->ab ? "OLD" : "the baseline",
            c->clock == BR_MODE_BATCH ? "batch" : "cold");
    fprintf(f,
            "<table>\n<thead><tr><th>kernel</th><th>params</th>"
            "<th align=\"right\">%s (µs)</th><th align=\"right\">%s (µs)</th>"
            "<th align=\"right\">%s</th>%s"
            "<th align=\"right\">p</th><th>status</th></tr></thead>\n"
            "<tbody>\n",
            c->ab ? "OLD geo. mean" : "baseline", c->ab ? "NEW geo. mean" : "now",
            c->ab ? "NEW/OLD [interval]" : "change", c->ab ? "" : "<th align=\"right\">MDE</th>");
    for (size_t i = 0; i < c->n_entries; i++)
        if (!c->entries[i].not_compared)
            put_comparison_row(f, &c->entries[i], c->ab != NULL);
    fputs("</tbody>\n</table>\n</details>\n\n", f);
}

/* Write every run as Markdown to f. Returns 0, or -1 with the error set
 * (out of memory, write error). */
static int markdown_write(FILE *f, const br_run *const *runs, size_t n_runs,
                          const br_report_opts *opts) {
    (void)opts;
    for (size_t i = 0; i < n_runs; i++) {
        const br_run *r = runs[i];
        put_heading(f, r);
        if (put_clocks(f, r) < 0)
            return -1;
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
