/* SPDX-License-Identifier: Apache-2.0 */
/* What the two CSV reporters share (csv.c: one row per case;
 * One row per sample): RFC 4180 records (CRLF, a field with a
 * comma, a double quote, CR or LF quoted, quotes doubled), exact numbers, and
 * columns described by a table of cell functions.
 *
 * Typed for type-sniffing readers: a numeric column that would be empty in
 * every row is left out of the file, because DuckDB's read_csv (and other
 * sniffers) type an all-empty column as text. Empty cells elsewhere are
 * missing values (NULL). */
#ifndef BR_CSV_TABLE_H
#define BR_CSV_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "model/run.h"

/* Room for one formatted number (br_csv_number) or integer. */
#define BR_CSV_CELL_MAX 48

/* The row a cell is taken from. Fields a table does not use stay zero. */
typedef struct br_csv_row {
    const br_run *run;
    const br_case_result *c;
    const char *const *param_names; /* the union of the runs' parameter names */
    const br_timing *t;             /* csv_samples.c: the timing the sample belongs to */
    const char *mode;               /* csv_samples.c: "cold" or "batch" */
    size_t sample;                  /* csv_samples.c: index of the sample in t */
} br_csv_row;

/* One column: its header, whether it is optional (1: left out when empty in
 * every row; numeric columns are), and its cell: the text of row's cell, written into
 * buf (BR_CSV_CELL_MAX bytes) or borrowed from the row; NULL or "" for an
 * empty cell. arg is the column's own argument (a parameter's index, a
 * timing's selector, ...). */
typedef struct br_csv_col {
    const char *name;
    int optional;
    const char *(*cell)(char *buf, const br_csv_row *row, int arg);
    int arg;
} br_csv_col;

/* v in the shortest of %.15g, %.16g, %.17g that reads back (strtod) as the
 * same double, so every figure is exact yet 41.7 stays "41.7", with ".0"
 * after a whole number ("4099.0"): a real-valued column then reads as
 * DOUBLE in a type sniffer even when the rows it samples (DuckDB: the first
 * 20,480) hold whole numbers only. NULL when v is not finite (an empty
 * cell). Writes into buf (BR_CSV_CELL_MAX bytes). */
const char *br_csv_number(char *buf, double v);

/* The union of the runs' parameter names in order of first appearance
 * (borrowed strings) into *out (owned by the caller, free()) and *n_out.
 * Returns 0, or -1 with the error set (out of memory). */
int br_csv_param_union(const char ***out, size_t *n_out, const br_run *const *runs, size_t n_runs);

/* Cells every table starts with: the suite's name, the kernel's name, the
 * value of parameter param_names[arg] (empty when the case's run has no such
 * parameter), the kernel's backend ("host" or "gpu"). */
const char *br_csv_cell_suite(char *buf, const br_csv_row *row, int arg);
const char *br_csv_cell_kernel(char *buf, const br_csv_row *row, int arg);
const char *br_csv_cell_param(char *buf, const br_csv_row *row, int arg);
const char *br_csv_cell_backend(char *buf, const br_csv_row *row, int arg);

/* A new array of n flags, 1 for the columns that are not optional (they
 * are always written); NULL with the error set when out of memory. The
 * caller frees it. */
unsigned char *br_csv_used_new(const br_csv_col *cols, size_t n);

/* Set used[i] to 1 for every optional column whose cell in row is not
 * empty (used from br_csv_used_new). */
void br_csv_mark_used(unsigned char *used, const br_csv_col *cols, size_t n, const br_csv_row *row);

/* Write the header record (the names of the used columns) or the record of
 * row (its used cells) to f, each ending in CRLF. */
void br_csv_put_header(FILE *f, const br_csv_col *cols, size_t n, const unsigned char *used);
void br_csv_put_row(FILE *f, const br_csv_col *cols, size_t n, const unsigned char *used,
                    const br_csv_row *row);

#endif
