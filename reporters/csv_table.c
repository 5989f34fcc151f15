/* SPDX-License-Identifier: Apache-2.0 */
/* Records, numbers and columns of the CSV reporters
 * (csv_table.h). */
#include "csv_table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"

const char *br_csv_number(char *buf, double v) {
    if (!buf || !isfinite(v))
        return NULL;
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, BR_CSV_CELL_MAX, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    if (!strpbrk(buf, ".e"))
        strcat(buf, ".0");
    return buf;
}

int br_csv_param_union(const char ***out, size_t *n_out, const br_run *const *runs, size_t n_runs) {
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

static const br_run_kernel *row_kernel(const br_csv_row *row) {
    return row->c->kernel < row->run->n_kernels ? &row->run->kernels[row->c->kernel] : NULL;
}

const char *br_csv_cell_suite(char *buf, const br_csv_row *row, int arg) {
    (void)buf, (void)arg;
    return row->run->suite_name;
}

const char *br_csv_cell_kernel(char *buf, const br_csv_row *row, int arg) {
    (void)buf, (void)arg;
    const br_run_kernel *k = row_kernel(row);
    return k ? k->name : NULL;
}

const char *br_csv_cell_param(char *buf, const br_csv_row *row, int arg) {
    const char *name = row->param_names[arg];
    for (size_t p = 0; p < row->run->n_params; p++) {
        if (strcmp(row->run->param_names[p], name) == 0) {
            snprintf(buf, BR_CSV_CELL_MAX, "%lld", (long long)row->c->params[p]);
            return buf;
        }
    }
    return NULL;
}

const char *br_csv_cell_backend(char *buf, const br_csv_row *row, int arg) {
    (void)buf, (void)arg;
    const br_run_kernel *k = row_kernel(row);
    return k ? br_backend_name(k->backend) : NULL;
}

unsigned char *br_csv_used_new(const br_csv_col *cols, size_t n) {
    unsigned char *used = calloc(n ? n : 1, 1);
    if (!used) {
        br_error_set("out of memory writing CSV");
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        used[i] = !cols[i].optional;
    return used;
}

void br_csv_mark_used(unsigned char *used, const br_csv_col *cols, size_t n,
                      const br_csv_row *row) {
    char buf[BR_CSV_CELL_MAX];
    for (size_t i = 0; i < n; i++) {
        if (used[i])
            continue;
        const char *s = cols[i].cell(buf, row, cols[i].arg);
        used[i] = s && s[0];
    }
}

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

void br_csv_put_header(FILE *f, const br_csv_col *cols, size_t n, const unsigned char *used) {
    int first = 1;
    for (size_t i = 0; i < n; i++) {
        if (!used[i])
            continue;
        if (!first)
            fputc(',', f);
        put_text(f, cols[i].name);
        first = 0;
    }
    fputs("\r\n", f);
}

void br_csv_put_row(FILE *f, const br_csv_col *cols, size_t n, const unsigned char *used,
                    const br_csv_row *row) {
    char buf[BR_CSV_CELL_MAX];
    int first = 1;
    for (size_t i = 0; i < n; i++) {
        if (!used[i])
            continue;
        if (!first)
            fputc(',', f);
        put_text(f, cols[i].cell(buf, row, cols[i].arg));
        first = 0;
    }
    fputs("\r\n", f);
}
