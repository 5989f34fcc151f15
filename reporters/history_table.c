/* SPDX-License-Identifier: Apache-2.0 */
/* `benchrun history`'s printed tables: one per suite,
 * cases x runs, each cell the headline metric and its change against an
 * earlier run (the view is built by history/history.c). */
#include "history_table.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/text.h"
#include "reporter.h"
#include "history/history.h"
#include "model/metric.h"

/* ---- the table ---------------------------------------------------------------------------- */

typedef struct tglyphs {
    const char *v, *h, *cross, *slower, *faster, *dash, *dot, *micro, *sep;
} tglyphs;

static const tglyphs utf8_tg = {"│", "─", "┼", "▼", "▲", "–", "·", "µ", " · "};
static const tglyphs ascii_tg = {"|", "-", "+", "v", "^", "-", ".", "u", " . "};

static void pad(FILE *f, size_t n) {
    for (size_t i = 0; i < n; i++)
        fputc(' ', f);
}

void br_history_format_value(char *buf, size_t len, double v, br_metric m) {
    if (!isfinite(v))
        snprintf(buf, len, "n/a");
    else if (m != BR_METRIC_NONE)
        snprintf(buf, len, "%.1f", v);
    else
        snprintf(buf, len, "%.*f", v < 1.0 ? 3 : v < 10.0 ? 2 : 1, v);
}

/* The value part and the mark part of a cell. */
static void cell_text(char *val, size_t vlen, char *mark, size_t mlen, const br_history_view *v,
                      size_t row, size_t j, const tglyphs *g, br_history_marks marks) {
    const br_history_cell *c = br_history_view_cell(v, row, j);
    mark[0] = '\0';
    if (c->ci == BR_HISTORY_NONE) {
        snprintf(val, vlen, "%s", g->dot);
        return;
    }
    const br_run *r = br_history_view_run(v, j);
    const br_case_result *cr = &r->cases[c->ci];
    if (cr->status == BR_STATUS_FAILED) {
        snprintf(val, vlen, "failed");
        return;
    }
    if (cr->status == BR_STATUS_SKIPPED) {
        snprintf(val, vlen, "%s", g->dash);
        return;
    }
    br_history_format_value(val, vlen, br_history_case_value(r, cr, v->metric), v->metric);
    if (marks == BR_HISTORY_MARK_NONE)
        return;
    if (marks == BR_HISTORY_MARK_CHANGES) {
        if (c->cp == BR_HISTORY_NONE)
            return;
        const br_history_change *ch = &v->changes[c->cp];
        const char *arrow = br_history_change_slower(v, ch) ? g->slower : g->faster;
        if (isfinite(ch->step))
            snprintf(mark, mlen, "%s%+.1f%%", arrow, 100.0 * ch->step);
        else
            snprintf(mark, mlen, "%s", arrow);
        return;
    }
    if (!c->compared)
        return;
    switch (c->change) {
    case BR_CHANGE_SLOWER:
    case BR_CHANGE_FASTER:
        if (isfinite(c->pct))
            snprintf(mark, mlen, "%s%+.1f%%", c->change == BR_CHANGE_SLOWER ? g->slower : g->faster,
                     100.0 * c->pct);
        else
            snprintf(mark, mlen, "%s", c->change == BR_CHANGE_SLOWER ? g->slower : g->faster);
        break;
    case BR_CHANGE_UNKNOWN:
        snprintf(mark, mlen, "?");
        break;
    default:
        break;
    }
}

void br_history_print_title(FILE *f, const br_history_view *v, int ascii) {
    const tglyphs *g = ascii ? &ascii_tg : &utf8_tg;
    const br_run *r = v->newest;
    br_text_fprintf(f, "%s%s", r->suite_name ? r->suite_name : "?", g->sep);
    if (v->metric == BR_METRIC_NONE)
        fprintf(f, "median time (%ss, lower is better)", g->micro);
    else
        fprintf(f, "%s (%s is better)", br_metric_unit(v->metric),
                br_metric_higher_is_better(v->metric) ? "higher" : "lower");
    fprintf(f, "%s%zu run%s", g->sep, v->n, v->n == 1 ? "" : "s");
    if (v->n_devices == 1)
        br_text_fprintf(f, "%s%s", g->sep, v->devices[0]);
    else
        fprintf(f, "%s%zu devices", g->sep, v->n_devices);
    fputc('\n', f);
}

/* The legend's line on neighbour marks (BR_HISTORY_MARK_NEIGHBOURS). */
static void legend_neighbours(FILE *f, const br_history_view *v, const tglyphs *g, int compared) {
    /* The rules of the newer side of the comparisons: one line when all agree. */
    int same_rules = 1;
    br_regression_cfg rules = v->newest->regression;
    for (size_t k = 0; k < v->n_cmps; k++) {
        const br_regression_cfg *o = &v->cmps[k].cmp.rules;
        same_rules &= o->threshold == v->cmps[0].cmp.rules.threshold &&
                      o->alpha == v->cmps[0].cmp.rules.alpha;
    }
    if (v->n_cmps > 0)
        rules = v->cmps[0].cmp.rules;
    if (compared) {
        fprintf(f, "%s slower, %s faster than the previous run%s that measured the case (",
                g->slower, g->faster, v->n_devices > 1 ? " of the same device" : "");
        if (same_rules)
            fprintf(f,
                    "p < %g over each run's cases (Benjamini-Hochberg) against the between-run "
                    "spread and |change| > %g%%",
                    rules.alpha, 100.0 * rules.threshold);
        else
            fputs(
                "each newer run's regression rules: p < alpha over its cases (Benjamini-Hochberg) "
                "against the between-run spread and |change| > threshold",
                f);
        fputs("),\n  with the change of the value shown; no mark: no change beyond the threshold, "
              "or nothing earlier to compare with\n",
              f);
    } else {
        fprintf(f, "no case was measured by two runs%s: nothing compared\n",
                v->n_devices > 1 ? " of one device" : "");
    }
}

/* The legend's lines on change points (BR_HISTORY_MARK_CHANGES). */
static void legend_changes(FILE *f, const br_history_view *v, const tglyphs *g) {
    const br_changepoint_cfg *cp = &v->cp_cfg;
    if (v->n_changes > 0)
        fprintf(f,
                "%s slower, %s faster from that run on: a change point of the case's level, with "
                "its step\n  (E-divisive split, t test, over the case's runs%s, p <= %g, "
                "|step| >= %g%%; --changes lists them)\n",
                g->slower, g->faster, v->n_devices > 1 ? " of one device" : "", cp->alpha,
                100.0 * cp->min_step);
    else
        fprintf(f,
                "no change point in any case (E-divisive split, t test, over each case's runs%s, "
                "p <= %g, |step| >= %g%%)\n",
                v->n_devices > 1 ? " of one device" : "", cp->alpha, 100.0 * cp->min_step);
    if (v->n_short == v->n_series && v->n_series > 0)
        fprintf(f,
                "every case has fewer than %zu measured runs%s: too few to find a change point "
                "(--neighbours compares each run with the previous one)\n",
                2 * cp->min_size, v->n_devices > 1 ? " of one device" : "");
    else if (v->n_short > 0)
        fprintf(f, "%zu of %zu cases have fewer than %zu measured runs%s: too few to analyse\n",
                v->n_short, v->n_series, 2 * cp->min_size,
                v->n_devices > 1 ? " of one device" : "");
}

/* The legend under a suite's table: only what the table uses. */
static void put_legend(FILE *f, const br_history_view *v, const tglyphs *g,
                       br_history_marks marks) {
    int used_unknown = 0, used_dot = 0, used_skip = 0;
    int dirty = 0, compared = 0;
    for (size_t row = 0; row < v->n_rows; row++) {
        for (size_t j = 0; j < v->n; j++) {
            const br_history_cell *c = br_history_view_cell(v, row, j);
            if (c->ci == BR_HISTORY_NONE) {
                used_dot = 1;
                continue;
            }
            used_skip |= br_history_view_run(v, j)->cases[c->ci].status == BR_STATUS_SKIPPED;
            compared |= c->compared;
            if (!c->compared)
                continue;
            used_unknown |= c->change == BR_CHANGE_UNKNOWN;
        }
    }
    for (size_t j = 0; j < v->n; j++)
        dirty |= br_history_has_commit(br_history_view_run(v, j)) &&
                 br_history_view_run(v, j)->git.dirty;

    fputs("columns: runs in commit order (committer time; reruns by date), each with the date it "
          "ran (UTC)\n",
          f);
    if (marks == BR_HISTORY_MARK_NEIGHBOURS)
        legend_neighbours(f, v, g, compared);
    else if (marks == BR_HISTORY_MARK_CHANGES)
        legend_changes(f, v, g);
    else
        fputs("--changes lists the change points of each case; --neighbours marks each run "
              "against the previous one\n",
              f);
    const char *sep = "";
    if (used_unknown) {
        fprintf(f, "%s? = cannot tell (too few samples, too noisy, another clock)", sep);
        sep = "; ";
    }
    if (used_dot) {
        fprintf(f, "%s%s = not in that run", sep, g->dot);
        sep = "; ";
    }
    if (used_skip) {
        fprintf(f, "%s%s = skipped", sep, g->dash);
        sep = "; ";
    }
    if (dirty) {
        fprintf(f, "%s* after a commit = uncommitted changes (dirty work tree)", sep);
        sep = "; ";
    }
    if (sep[0])
        fputc('\n', f);
    if (v->n_devices > 1) {
        fputs("devices:", f);
        for (size_t d = 0; d < v->n_devices; d++)
            br_text_fprintf(f, "%s dev %zu = %s", d ? "," : "", d + 1, v->devices[d]);
        fputs("; runs are compared only with runs of the same device\n", f);
    }
}

/* The layout of one suite's table: the header cells and the column widths. */
typedef struct tlayout {
    const br_history_view *v;
    const tglyphs *g;
    size_t np, n_cols, n_head; /* parameters, columns, header lines */
    size_t *w;                 /* per column: its width */
    size_t *vw, *mw;           /* per run: the widths of its values and its marks */
    char (*head)[3][64];       /* per column: its header lines */
    br_history_marks marks;
} tlayout;

/* The header cells of t and the column widths they need. */
static void layout_head(tlayout *t, int ascii) {
    const br_history_view *v = t->v;
    size_t np = t->np;
    snprintf(t->head[0][0], 64, "kernel");
    for (size_t p = 0; p < np; p++)
        snprintf(t->head[1 + p][0], 64, "%s", v->pnames[p]);
    for (size_t j = 0; j < v->n; j++) {
        char *h3 = t->head[1 + np + j][0];
        br_history_label(h3, 64, v->h, v->first + j, ascii);
        br_history_short_date(t->head[1 + np + j][1], 64, br_history_view_run(v, j)->date);
        if (t->n_head == 3)
            snprintf(t->head[1 + np + j][2], 64, "dev %zu", v->dev[j] + 1);
    }
    for (size_t c = 0; c < t->n_cols; c++) {
        for (size_t k = 0; k < t->n_head; k++) {
            /* A commit's label from a results file, escaped (base/text.h). */
            char raw[64];
            memcpy(raw, t->head[c][k], sizeof raw);
            br_text_escape(t->head[c][k], 64, raw, strnlen(raw, sizeof raw), 0);
            size_t hw = br_report_display_width(t->head[c][k]);
            t->w[c] = hw > t->w[c] ? hw : t->w[c];
        }
    }
}

/* Widen the columns of t to the rows' cells. */
static void layout_rows(tlayout *t) {
    const br_history_view *v = t->v;
    size_t np = t->np, *w = t->w;
    char val[64], mark[64], buf[64];
    for (size_t row = 0; row < v->n_rows; row++) {
        const br_run *r = br_history_view_run(v, v->rows[row].run);
        const br_case_result *c = &r->cases[v->rows[row].ci];
        size_t kw = br_report_display_width(br_history_kernel_of(r, c));
        w[0] = kw > w[0] ? kw : w[0];
        for (size_t p = 0; p < np; p++) {
            int64_t x;
            if (br_history_param_of(&x, r, c, v->pnames[p])) {
                br_format_param(buf, sizeof buf, x);
                size_t pw = br_report_display_width(buf);
                w[1 + p] = pw > w[1 + p] ? pw : w[1 + p];
            }
        }
        for (size_t j = 0; j < v->n; j++) {
            cell_text(val, sizeof val, mark, sizeof mark, v, row, j, t->g, t->marks);
            size_t a = br_report_display_width(val), b = br_report_display_width(mark);
            t->vw[j] = a > t->vw[j] ? a : t->vw[j];
            t->mw[j] = b > t->mw[j] ? b : t->mw[j];
        }
    }
    for (size_t j = 0; j < v->n; j++) {
        size_t cw = t->vw[j] + (t->mw[j] ? 1 + t->mw[j] : 0);
        w[1 + np + j] = cw > w[1 + np + j] ? cw : w[1 + np + j];
    }
}

/* The header lines of t and the rule under them. */
static void put_head(FILE *f, const tlayout *t) {
    const tglyphs *g = t->g;
    for (size_t k = 0; k < t->n_head; k++) {
        for (size_t c = 0; c < t->n_cols; c++) {
            const char *s = t->head[c][k];
            int right = c >= 1 && c < 1 + t->np;
            if (c)
                fprintf(f, " %s ", g->v);
            else
                fputc(' ', f);
            if (right)
                pad(f, t->w[c] - br_report_display_width(s));
            fputs(s, f);
            if (!right && c + 1 < t->n_cols)
                pad(f, t->w[c] - br_report_display_width(s));
        }
        fputc('\n', f);
    }
    for (size_t c = 0; c < t->n_cols; c++) {
        if (c)
            fputs(g->cross, f);
        for (size_t k = 0; k < t->w[c] + 2; k++)
            fputs(g->h, f);
    }
    fputc('\n', f);
}

/* One row of t. */
static void put_row(FILE *f, const tlayout *t, size_t row) {
    const br_history_view *v = t->v;
    const tglyphs *g = t->g;
    size_t np = t->np;
    char val[64], mark[64], buf[64];
    const br_run *r = br_history_view_run(v, v->rows[row].run);
    const br_case_result *c = &r->cases[v->rows[row].ci];
    const char *k = br_history_kernel_of(r, c);
    fprintf(f, " %s", k);
    pad(f, t->w[0] - br_report_display_width(k));
    for (size_t p = 0; p < np; p++) {
        int64_t x;
        buf[0] = '\0';
        if (br_history_param_of(&x, r, c, v->pnames[p]))
            br_format_param(buf, sizeof buf, x);
        fprintf(f, " %s ", g->v);
        pad(f, t->w[1 + p] - br_report_display_width(buf));
        fputs(buf, f);
    }
    for (size_t j = 0; j < v->n; j++) {
        cell_text(val, sizeof val, mark, sizeof mark, v, row, j, g, t->marks);
        fprintf(f, " %s ", g->v);
        pad(f, t->vw[j] - br_report_display_width(val));
        fputs(val, f);
        size_t used = t->vw[j];
        if (mark[0]) {
            fprintf(f, " %s", mark);
            used += 1 + br_report_display_width(mark);
        }
        if (j + 1 < v->n)
            pad(f, t->w[1 + np + j] - used);
    }
    fputc('\n', f);
}

/* Print the table of one suite's view. */
static int print_view(FILE *f, const br_history_view *v, int ascii, br_history_marks marks) {
    tlayout t = {v,
                 ascii ? &ascii_tg : &utf8_tg,
                 v->n_pnames,
                 1 + v->n_pnames + v->n,
                 v->n_devices > 1 ? 3 : 2,
                 NULL,
                 NULL,
                 NULL,
                 NULL,
                 marks};
    t.w = calloc(t.n_cols, sizeof *t.w);
    t.vw = calloc(v->n + 1, sizeof *t.vw);
    t.mw = calloc(v->n + 1, sizeof *t.mw);
    t.head = calloc(t.n_cols, sizeof *t.head);
    int rc = -1;
    if (!t.w || !t.vw || !t.mw || !t.head) {
        br_error_nomem();
        goto done;
    }
    layout_head(&t, ascii);
    layout_rows(&t);
    br_history_print_title(f, v, ascii);
    put_head(f, &t);
    for (size_t row = 0; row < v->n_rows; row++)
        put_row(f, &t, row);
    put_legend(f, v, t.g, marks);
    rc = ferror(f) ? br_error_set("cannot write the history table: %s", strerror(errno)) : 0;
done:
    free(t.w);
    free(t.vw);
    free(t.mw);
    free(t.head);
    return rc;
}

int br_history_print(FILE *f, const br_history *h, int ascii, br_history_marks marks) {
    for (size_t first = 0; first < h->n_runs;) {
        size_t n = br_history_suite_runs(h, first);
        br_history_view v;
        int neighbours = marks == BR_HISTORY_MARK_NEIGHBOURS;
        if (br_history_view_build(&v, h, first, n, neighbours) != 0)
            return -1;
        if (marks == BR_HISTORY_MARK_CHANGES && br_history_view_changes(&v, NULL) != 0) {
            br_history_view_dispose(&v);
            return -1;
        }
        if (first > 0)
            fputc('\n', f);
        int rc = print_view(f, &v, ascii, marks);
        br_history_view_dispose(&v);
        if (rc != 0)
            return -1;
        first += n;
    }
    return 0;
}
