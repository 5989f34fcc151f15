/* SPDX-License-Identifier: Apache-2.0 */
/* The results table printed row by row as the cases finish (table_live.h),
 * with the parts of the whole box (table_impl.h). */
#include "table_live.h"

#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "reporter.h"
#include "table_impl.h"
#include "timing_notes.h"

struct br_table_live {
    FILE *f;
    const glyphs *g;
    int ascii;
    int open;          /* a box is open: t and k are the current run's */
    int failed;        /* a write or an allocation failed: nothing more is printed */
    table t;           /* the heads (row 0) and the row being printed (row 1) */
    tcols k;           /* the columns */
    size_t inner;      /* the box's inner width, display columns */
    size_t rows;       /* rows printed in the open box */
    size_t last_combo; /* the combination of the last row printed */
    int grouped;       /* a combination has several rows: rules between combinations */
    char *clock[2];    /* the title's clock lines (owned; NULL: none) */
    size_t runs;       /* boxes printed to their end */
};

br_table_live *br_table_live_new(FILE *f, int ascii) {
    br_table_live *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    l->f = f;
    l->ascii = ascii;
    l->g = ascii ? &br_tbl_ascii : &br_tbl_utf8;
    return l;
}

/* Free the title's clock lines l keeps. */
static void drop_clock(br_table_live *l) {
    for (int i = 0; i < 2; i++) {
        free(l->clock[i]);
        l->clock[i] = NULL;
    }
}

/* Free the cells of row `row` of t (to be set again). */
static void clear_row(table *t, size_t row) {
    for (size_t c = 0; c < t->n_cols; c++) {
        free(t->cells[row * t->n_cols + c]);
        t->cells[row * t->n_cols + c] = NULL;
    }
}

/* The least width of column c for the figures to come: a time such as
 * "123456.7", a noise or % peak "100.0%", a metric "12345.6", a speedup
 * "123.45x" (their formats: table.c). */
static size_t room(const tcols *k, size_t c) {
    if (c >= k->time && c < k->time + k->n_times)
        return 8;
    if (c == k->noise || (k->has_peak && c == k->peak))
        return 6;
    if ((k->has_metric && c == k->metric) || (k->metric2 != BR_METRIC_NONE && c == k->metric2_col))
        return 7;
    if (c == k->speedup)
        return 7;
    size_t letters = 0; /* one per flag a case can raise (timing_notes.h) */
    for (unsigned f = 1; f <= BR_FLAG_LAST; f <<= 1)
        letters++;
    return c == k->flags ? letters : 0;
}

/* The widths of l's columns: the heads, every kernel name and parameter
 * value of run's plan, the room of the figures. Returns 0, or -1. */
static int fix_widths(br_table_live *l, const br_run *run) {
    table *t = &l->t;
    br_tbl_table_fit(t); /* the heads */
    char buf[64];
    for (size_t i = 0; i < run->n_cases; i++) {
        const br_case_result *c = &run->cases[i];
        clear_row(t, 1);
        const char *kname = c->kernel < run->n_kernels ? run->kernels[c->kernel].name : "?";
        if (br_tbl_set_cell(t, 1, 0, kname ? kname : "?") < 0)
            return -1;
        for (size_t p = 0; c->params && p < run->n_params; p++) {
            br_format_param(buf, sizeof buf, c->params[p]);
            if (br_tbl_set_cell(t, 1, 1 + p, buf) < 0)
                return -1;
        }
        br_tbl_table_fit(t);
    }
    clear_row(t, 1);
    for (size_t c = 0; c < t->n_cols; c++)
        if (t->width[c] < room(&l->k, c))
            t->width[c] = room(&l->k, c);
    return 0;
}

/* The box's top: its title lines (a title wider than the columns widens
 * the kernel column) and the heads. Returns 0, or -1. */
static int put_top(br_table_live *l, const br_run *run) {
    char *title[5] = {NULL, NULL, NULL, NULL, NULL};
    int n = br_tbl_make_title(title, run, l->g, l->ascii);
    if (n < 0 || br_report_clock_lines(l->clock, run) < 0)
        return -1;
    table *t = &l->t;
    size_t inner = t->n_cols - 1;
    for (size_t c = 0; c < t->n_cols; c++)
        inner += t->width[c] + 2;
    for (int i = 0; i < n; i++) {
        size_t w = br_report_display_width(title[i]) + 2;
        if (w > inner) {
            t->width[0] += w - inner;
            inner = w;
        }
    }
    const glyphs *g = l->g;
    fputs(g->tl, l->f);
    for (size_t i = 0; i < inner; i++)
        fputs(g->hh, l->f);
    fprintf(l->f, "%s\n", g->tr);
    for (int i = 0; i < n; i++) {
        fprintf(l->f, "%s %s", g->vv, title[i]);
        for (size_t s = br_report_display_width(title[i]) + 1; s < inner; s++)
            fputc(' ', l->f);
        fprintf(l->f, "%s\n", g->vv);
        free(title[i]);
    }
    br_tbl_put_rule(l->f, t, 0, g->hh_l, g->hh, g->hh, g->hh_r);
    br_tbl_put_row(l->f, t, 0, 0, g);
    l->inner = inner;
    return 0;
}

void br_table_live_begun(void *ctx, br_run *run) {
    br_table_live *l = ctx;
    if (l->failed || l->open)
        return;
    memset(&l->t, 0, sizeof l->t);
    l->k = br_tbl_table_cols(run, 0);
    l->k.has_events = 0; /* what was measured decides these: the whole table has them */
    l->t.n_cols = l->k.flags + 1;
    l->t.n_rows = 2;
    l->rows = 0;
    l->grouped = 0;
    for (size_t i = 1; i < run->n_cases; i++)
        l->grouped |= run->cases[i].combo == run->cases[i - 1].combo;
    if (br_tbl_table_alloc(&l->t, 0) < 0 || br_tbl_table_header(&l->t, run, l->g, &l->k) < 0 ||
        fix_widths(l, run) < 0) {
        br_tbl_table_dispose(&l->t);
        l->failed = 1;
        return;
    }
    for (size_t c = 1; c < l->k.flags; c++)
        l->t.right[c] = c != l->k.roof + 1 || !l->k.has_roof; /* the bound is a word */
    if (l->runs)
        fputc('\n', l->f);
    if (put_top(l, run) < 0 || fflush(l->f) != 0) {
        br_tbl_table_dispose(&l->t);
        drop_clock(l);
        l->failed = 1;
        return;
    }
    l->open = 1;
}

void br_table_live_case(void *ctx, br_run *run, size_t i) {
    br_table_live *l = ctx;
    if (!l->open || i >= run->n_cases)
        return;
    const br_case_result *c = &run->cases[i];
    if (c->status == BR_STATUS_SKIPPED)
        return; /* the notes under the box sum them up, as the whole table does */
    br_run_derive_case(run, i);
    clear_row(&l->t, 1);
    if (br_tbl_table_row(&l->t, 1, run, c, l->g, &l->k) < 0) {
        l->failed = 1;
        return;
    }
    br_log(BR_LOG_PROGRESS, "\r\033[K"); /* the progress line, drawn again before the next case */
    const glyphs *g = l->g;
    if (l->rows == 0 || (l->grouped && c->combo != l->last_combo))
        br_tbl_put_rule(l->f, &l->t, 0, g->h_l, g->h, g->cross, g->h_r);
    br_tbl_put_row(l->f, &l->t, 1, 0, g);
    l->rows++;
    l->last_combo = c->combo;
    if (fflush(l->f) != 0)
        l->failed = 1;
}

void br_table_live_ended(void *ctx, br_run *run) {
    br_table_live *l = ctx;
    if (!l->open)
        return;
    const glyphs *g = l->g;
    fputs(g->bl, l->f);
    for (size_t i = 0; i < l->inner; i++)
        fputs(g->hh, l->f);
    fprintf(l->f, "%s\n", g->br);
    /* The clock lines the title could not know (the kinds of cases that
     * ran, the GPU clock resolved by the first GPU case), under the box. */
    char *clock[2] = {NULL, NULL};
    int n = br_report_clock_lines(clock, run);
    for (int i = 0; i < n; i++) {
        int said = 0;
        for (int j = 0; j < 2; j++)
            said |= l->clock[j] && strcmp(l->clock[j], clock[i]) == 0;
        if (!said)
            fprintf(l->f, "%s\n", clock[i]);
        free(clock[i]);
    }
    drop_clock(l);
    br_tbl_put_notes(l->f, run);
    br_tbl_table_dispose(&l->t);
    memset(&l->t, 0, sizeof l->t);
    l->open = 0;
    if (fflush(l->f) != 0 || n < 0)
        l->failed = 1;
    else
        l->runs++;
}

size_t br_table_live_runs(const br_table_live *l) {
    return l && !l->failed ? l->runs : 0;
}

void br_table_live_free(br_table_live *l) {
    if (!l)
        return;
    if (l->open)
        br_tbl_table_dispose(&l->t);
    drop_clock(l);
    free(l);
}
