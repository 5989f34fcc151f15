/* SPDX-License-Identifier: Apache-2.0 */
/* The terminal table's parts, shared by the whole box (table.c) and the
 * box printed row by row as the cases finish (table_live.c). Not for use
 * outside reporters/table*.c. */
#ifndef BR_TABLE_IMPL_H
#define BR_TABLE_IMPL_H

#include <stdio.h>

#include "model/run.h"

/* The box's characters: UTF-8 box drawing, or plain ASCII. */
typedef struct glyphs {
    const char *tl, *tr, *bl, *br; /* corners of the box */
    const char *hh, *vv;           /* double (outer) lines */
    const char *hh_l, *hh_r;       /* ╠ ╣: the rule under the title */
    const char *h, *v, *cross;     /* single (inner) lines */
    const char *h_l, *h_r;         /* ╟ ╢: rules between rows */
    const char *dot, *dash, *times, *micro;
} glyphs;

/* The cells of one box: row 0 is the header. */
typedef struct table {
    size_t n_cols, n_rows; /* n_rows counts the header */
    char **cells;          /* n_rows x n_cols, owned */
    size_t *combo;         /* per row: the case's combination (row 0 unused) */
    size_t *width;         /* per column, display columns */
    int *right;            /* per column: 1 right-aligned (numbers) */
    const char **color;    /* per row: ANSI colour of column color_col, or NULL; may be NULL */
    size_t color_col;
} table;

/* The columns of a run's table: which there are and where. */
typedef struct tcols {
    size_t n_times;    /* time columns: 1, or 2 in mode both */
    int time_batch[2]; /* per time column: 1 when it shows the batch timing */
    const char *time_head[2];
    int has_events, has_metric, has_peak;
    br_metric metric2; /* a second metric column (both bytes and flops), or BR_METRIC_NONE */
    int has_roof;      /* intensity, bound, % roofline (a GPU case with both bytes and flops) */
    int has_energy;    /* J/exec, W, GB/J or GFLOP/J (--energy) */
    size_t time, events, noise, metric, metric2_col, peak, roof, energy, speedup,
        flags; /* column indices */
} tcols;

extern const glyphs br_tbl_utf8, br_tbl_ascii;

/* Allocate t's cells, combos, widths, alignments (and row colours when
 * `color`) for t->n_rows x t->n_cols. Returns 0, or -1 with the error set. */
int br_tbl_table_alloc(table *t, int color);

/* Free what t holds (not t). */
void br_tbl_table_dispose(table *t);

/* Widen each column to its widest cell (display columns). */
void br_tbl_table_fit(table *t);

/* Set cell (row, col) to `text` as one line (control characters escaped).
 * Returns 0, or -1 with the error set. */
int br_tbl_set_cell(table *t, size_t row, size_t col, const char *text);

/* The title lines of run r's box (at most 5, malloc'd into lines): suite
 * and commit, device or host, the clock lines of the kinds of cases r
 * measured, the peak line. Returns their count, or -1 with the error set. */
int br_tbl_make_title(char *lines[5], const br_run *r, const glyphs *g, int ascii);

/* The columns of run r's table; `energy`: the energy columns were asked for. */
tcols br_tbl_table_cols(const br_run *r, int energy);

/* Row 0 of t: the column heads for k. Returns 0, or -1 with the error set. */
int br_tbl_table_header(table *t, const br_run *r, const glyphs *g, const tcols *k);

/* Row `row` of t: case c of run r in the columns k. Returns 0, or -1 with
 * the error set. */
int br_tbl_table_row(table *t, size_t row, const br_run *r, const br_case_result *c,
                     const glyphs *g, const tcols *k);

/* A rule across t's columns: left, per column fill (width + 2) joined by
 * cross, `slack` more fill, then right; a newline. */
void br_tbl_put_rule(FILE *f, const table *t, size_t slack, const char *left, const char *fill,
                     const char *cross, const char *right);

/* Row `row` of t between the box's sides, padded to the columns' widths. */
void br_tbl_put_row(FILE *f, const table *t, size_t row, size_t slack, const glyphs *g);

/* The notes under run r's box: the time the figures use (mode both), the
 * flags' legend and warnings, failed cases, the skipped ones. */
void br_tbl_put_notes(FILE *f, const br_run *r);

#endif
