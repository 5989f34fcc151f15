/* SPDX-License-Identifier: Apache-2.0 */
/* `benchrun history --changes`: the change points of
 * each suite's cases as one list per suite (the view and its change points
 * are built by history/history.c and history/history_changes.c). */
#include "history_table.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "reporter.h"
#include "history/history.h"

#define CELL 128

/* The list of one suite: a grid of cells, the header first. */
typedef struct grid {
    size_t n_cols, n_rows;
    char (*cell)[CELL]; /* n_rows x n_cols */
    size_t *w;          /* per column: its width */
    int *right;         /* per column: aligned right */
} grid;

static char *at(grid *g, size_t row, size_t col) {
    return g->cell[row * g->n_cols + col];
}

/* The header row of v's list into row 0; the columns' alignment. */
static void put_header(grid *g, const br_history_view *v, int ascii) {
    size_t c = 0;
    snprintf(at(g, 0, c++), CELL, "kernel");
    for (size_t p = 0; p < v->n_pnames; p++) {
        g->right[c] = 1;
        snprintf(at(g, 0, c++), CELL, "%s", v->pnames[p]);
    }
    snprintf(at(g, 0, c++), CELL, "commit");
    snprintf(at(g, 0, c++), CELL, "date");
    snprintf(at(g, 0, c++), CELL, "previous");
    if (v->n_devices > 1)
        snprintf(at(g, 0, c++), CELL, "device");
    g->right[c] = 1;
    snprintf(at(g, 0, c++), CELL, "before %s after", ascii ? "->" : "→");
    g->right[c] = 1;
    snprintf(at(g, 0, c++), CELL, "step");
    g->right[c] = 1;
    snprintf(at(g, 0, c++), CELL, "p");
}

/* Row 1 + k of the grid: change point k of v. */
static void put_change(grid *g, const br_history_view *v, size_t k, int ascii) {
    const br_history_change *ch = &v->changes[k];
    const br_history_row *hr = &v->rows[ch->row];
    const br_run *r = br_history_view_run(v, hr->run);
    const br_case_result *c = &r->cases[hr->ci];
    size_t row = 1 + k, col = 0;
    snprintf(at(g, row, col++), CELL, "%s", br_history_kernel_of(r, c));
    for (size_t p = 0; p < v->n_pnames; p++) {
        int64_t x;
        char *s = at(g, row, col++);
        s[0] = '\0';
        if (br_history_param_of(&x, r, c, v->pnames[p]))
            br_format_param(s, CELL, x);
    }
    br_history_label(at(g, row, col++), CELL, v->h, v->first + ch->run, ascii);
    br_history_short_date(at(g, row, col++), CELL, br_history_view_run(v, ch->run)->date);
    br_history_label(at(g, row, col++), CELL, v->h, v->first + ch->prev, ascii);
    if (v->n_devices > 1)
        snprintf(at(g, row, col++), CELL, "dev %zu", ch->dev + 1);
    char before[48], after[48];
    br_history_format_value(before, sizeof before, ch->before, v->metric);
    br_history_format_value(after, sizeof after, ch->after, v->metric);
    snprintf(at(g, row, col++), CELL, "%s %s %s", before, ascii ? "->" : "→", after);
    const char *arrow = br_history_change_slower(v, ch) ? (ascii ? "v" : "▼") : (ascii ? "^" : "▲");
    if (isfinite(ch->step))
        snprintf(at(g, row, col++), CELL, "%s%+.1f%%", arrow, 100.0 * ch->step);
    else
        snprintf(at(g, row, col++), CELL, "%s", arrow);
    snprintf(at(g, row, col++), CELL, "%.3g", ch->p);
}

/* The grid, each column as wide as its widest cell. */
static void put_grid(FILE *f, grid *g, int ascii) {
    for (size_t col = 0; col < g->n_cols; col++)
        for (size_t row = 0; row < g->n_rows; row++) {
            size_t w = br_report_display_width(at(g, row, col));
            g->w[col] = w > g->w[col] ? w : g->w[col];
        }
    for (size_t row = 0; row < g->n_rows; row++) {
        for (size_t col = 0; col < g->n_cols; col++) {
            const char *s = at(g, row, col);
            size_t pad = g->w[col] - br_report_display_width(s);
            fputs(col ? (ascii ? " | " : " │ ") : " ", f);
            if (g->right[col])
                fprintf(f, "%*s", (int)pad, "");
            fputs(s, f);
            if (!g->right[col] && col + 1 < g->n_cols)
                fprintf(f, "%*s", (int)pad, "");
        }
        fputc('\n', f);
        if (row > 0)
            continue;
        for (size_t col = 0; col < g->n_cols; col++) {
            fputs(col ? (ascii ? "+" : "┼") : "", f);
            for (size_t k = 0; k < g->w[col] + 2; k++)
                fputs(ascii ? "-" : "─", f);
        }
        fputc('\n', f);
    }
}

/* The method line and the counts line of v. */
static void put_method(FILE *f, const br_history_view *v) {
    const br_changepoint_cfg *cp = &v->cp_cfg;
    fprintf(f,
            "change points: E-divisive split, Student's t test (Hunter, Fleming et al. 2023) over "
            "each case's runs%s\n  in commit order; p <= %g (Bonferroni over the cuts), |step| >= "
            "%g%%, at least %zu runs a side\n",
            v->n_devices > 1 ? " of one device" : "", cp->alpha, 100.0 * cp->min_step,
            cp->min_size);
}

static void put_counts(FILE *f, const br_history_view *v) {
    if (v->n_changes == 0)
        fprintf(f, "no change point in %zu case%s over %zu run%s", v->n_series,
                v->n_series == 1 ? "" : "s", v->n, v->n == 1 ? "" : "s");
    else
        fprintf(f, "%zu change point%s in %zu case%s over %zu run%s", v->n_changes,
                v->n_changes == 1 ? "" : "s", v->n_series, v->n_series == 1 ? "" : "s", v->n,
                v->n == 1 ? "" : "s");
    if (v->n_short > 0)
        fprintf(f, "; %zu case%s with fewer than %zu measured runs%s not analysed", v->n_short,
                v->n_short == 1 ? "" : "s", 2 * v->cp_cfg.min_size,
                v->n_devices > 1 ? " of one device" : "");
    fputc('\n', f);
}

/* For each change point of v that spans more than one commit, the
 * `benchrun bisect` command that finds its commit. Returns 0 or -1. */
static int put_bisects(FILE *f, const br_history_view *v) {
    int said = 0;
    for (size_t k = 0; k < v->n_changes; k++) {
        char *cmd;
        size_t span;
        if (br_history_bisect_command(&cmd, &span, v, &v->changes[k]) != 0)
            return -1;
        if (!cmd)
            continue;
        if (!said++)
            fputs("to find the commit of a change that spans several commits:\n", f);
        fprintf(f, "  %s   # %zu commits\n", cmd, span);
        free(cmd);
    }
    return 0;
}

/* The list of one suite's view. */
static int print_view_changes(FILE *f, const br_history_view *v, int ascii) {
    br_history_print_title(f, v, ascii);
    put_method(f, v);
    if (v->n_changes > 0) {
        grid g = {0};
        g.n_cols = 1 + v->n_pnames + 3 + (v->n_devices > 1) + 3;
        g.n_rows = 1 + v->n_changes;
        g.cell = calloc(g.n_cols * g.n_rows, sizeof *g.cell);
        g.w = calloc(g.n_cols, sizeof *g.w);
        g.right = calloc(g.n_cols, sizeof *g.right);
        if (!g.cell || !g.w || !g.right) {
            free(g.cell);
            free(g.w);
            free(g.right);
            return br_error_nomem();
        }
        put_header(&g, v, ascii);
        for (size_t k = 0; k < v->n_changes; k++)
            put_change(&g, v, k, ascii);
        put_grid(f, &g, ascii);
        fputs("commit: the first run at the new level; previous: the last run at the old one (the "
              "change came in between)\n",
              f);
        free(g.cell);
        free(g.w);
        free(g.right);
        if (put_bisects(f, v) != 0)
            return -1;
    }
    put_counts(f, v);
    return ferror(f) ? br_error_set("cannot write the change points: %s", strerror(errno)) : 0;
}

int br_history_print_changes(FILE *f, const br_history *h, int ascii) {
    for (size_t first = 0; first < h->n_runs;) {
        size_t n = br_history_suite_runs(h, first);
        br_history_view v;
        if (br_history_view_build(&v, h, first, n, 0) != 0)
            return -1;
        int rc = br_history_view_changes(&v, NULL);
        if (rc == 0) {
            if (first > 0)
                fputc('\n', f);
            rc = print_view_changes(f, &v, ascii);
        }
        br_history_view_dispose(&v);
        if (rc != 0)
            return -1;
        first += n;
    }
    return 0;
}
