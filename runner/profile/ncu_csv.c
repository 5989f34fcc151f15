/* SPDX-License-Identifier: Apache-2.0 */
/* The launches of `ncu --csv --page raw` output (ncu_csv.h). */
#include "ncu_csv.h"

#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"

/* What a metric measures, for its unit. */
typedef enum unit_kind { UNIT_TIME, UNIT_BYTES, UNIT_PCT } unit_kind;

static const struct {
    const char *name;
    size_t offset; /* of the double in br_ncu_launch */
    unit_kind kind;
} metrics[] = {
    {"gpu__time_duration.sum", offsetof(br_ncu_launch, duration_ns), UNIT_TIME},
    {"dram__bytes_read.sum", offsetof(br_ncu_launch, dram_read_bytes), UNIT_BYTES},
    {"dram__bytes_write.sum", offsetof(br_ncu_launch, dram_write_bytes), UNIT_BYTES},
    {"sm__warps_active.avg.pct_of_peak_sustained_active", offsetof(br_ncu_launch, occupancy_pct),
     UNIT_PCT},
    {"sm__throughput.avg.pct_of_peak_sustained_elapsed", offsetof(br_ncu_launch, sm_pct), UNIT_PCT},
    {"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
     offsetof(br_ncu_launch, mem_pct), UNIT_PCT},
    {"lts__t_sector_hit_rate.pct", offsetof(br_ncu_launch, l2_hit_pct), UNIT_PCT},
#define PIPE(name, field)                                                                          \
    { "sm__" name ".avg.pct_of_peak_sustained_active", offsetof(br_ncu_launch, field), UNIT_PCT }
    PIPE("pipe_tensor_cycles_active", tensor_pct),
    PIPE("pipe_tensor_op_hmma_cycles_active", hmma_pct),
    PIPE("pipe_tensor_op_imma_cycles_active", imma_pct),
    PIPE("inst_executed_pipe_tensor_op_imma", imma_inst_pct),
    PIPE("pipe_tensor_op_dmma_cycles_active", dmma_pct),
    PIPE("pipe_tensor_op_gmma_cycles_active", gmma_pct),
    PIPE("pipe_fma_cycles_active", fma_pct),
    PIPE("pipe_fp16_cycles_active", fp16_pct),
    PIPE("pipe_fp64_cycles_active", fp64_pct),
#undef PIPE
};
#define N_METRICS (sizeof metrics / sizeof *metrics)

/* Units as ncu prints them, and their factor to the base unit. */
static const struct {
    const char *name;
    unit_kind kind;
    double factor;
} units[] = {
    {"nsecond", UNIT_TIME, 1},  {"usecond", UNIT_TIME, 1e3}, {"msecond", UNIT_TIME, 1e6},
    {"second", UNIT_TIME, 1e9}, {"byte", UNIT_BYTES, 1},     {"Kbyte", UNIT_BYTES, 1e3},
    {"Mbyte", UNIT_BYTES, 1e6}, {"Gbyte", UNIT_BYTES, 1e9},  {"Tbyte", UNIT_BYTES, 1e12},
    {"ns", UNIT_TIME, 1},       {"us", UNIT_TIME, 1e3},      {"ms", UNIT_TIME, 1e6},
    {"s", UNIT_TIME, 1e9},      {"B", UNIT_BYTES, 1},        {"KB", UNIT_BYTES, 1e3},
    {"MB", UNIT_BYTES, 1e6},    {"GB", UNIT_BYTES, 1e9},     {"TB", UNIT_BYTES, 1e12},
    {"%", UNIT_PCT, 1},
};

/* One CSV line split into fields (each owned), with the column (1-based,
 * bytes) each field starts at, and where the line is for messages. */
typedef struct row {
    char **f;
    int *col;
    size_t n, cap;
    br_pos pos; /* the file and line; column 0 */
} row;

static void row_free(row *r) {
    for (size_t i = 0; i < r->n; i++)
        free(r->f[i]);
    free(r->f);
    free(r->col);
    br_pos pos = r->pos;
    memset(r, 0, sizeof *r);
    r->pos = pos;
}

/* Where field i of r starts, for a message. */
static br_pos field_pos(const row *r, size_t i) {
    br_pos p = r->pos;
    p.column = i < r->n ? r->col[i] : 0;
    return p;
}

/* The position of byte `at` (0-based) of r's line. */
static br_pos byte_pos(const row *r, size_t at) {
    br_pos p = r->pos;
    p.column = at < (size_t)INT_MAX ? (int)at + 1 : 0;
    return p;
}

static int row_add(row *r, const char *s, size_t len, size_t at) {
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 32;
        char **f = realloc(r->f, cap * sizeof *f);
        if (!f)
            return br_error_nomem();
        r->f = f;
        int *col = realloc(r->col, cap * sizeof *col);
        if (!col)
            return br_error_nomem();
        r->col = col;
        r->cap = cap;
    }
    r->col[r->n] = byte_pos(r, at).column;
    char *v = malloc(len + 1);
    if (!v)
        return br_error_nomem();
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        v[o++] = s[i];
        if (s[i] == '"' && i + 1 < len && s[i + 1] == '"')
            i++; /* "" inside a quoted field is one quote */
    }
    v[o] = '\0';
    r->f[r->n++] = v;
    return 0;
}

/* Split line[0..len) (RFC 4180 fields, quoted or not) into *r. Returns 0,
 * or -1 with the error set at the line and column. */
static int split(row *r, const char *line, size_t len) {
    size_t i = 0;
    for (;;) {
        if (i < len && line[i] == '"') {
            size_t open = i, start = ++i;
            while (i < len && !(line[i] == '"' && (i + 1 >= len || line[i + 1] != '"')))
                i += line[i] == '"' ? 2 : 1;
            if (i >= len)
                return br_error_at(byte_pos(r, open), "a quoted field is not closed");
            if (row_add(r, line + start, i - start, open) != 0)
                return -1;
            i++;
        } else {
            size_t start = i;
            while (i < len && line[i] != ',')
                i++;
            if (row_add(r, line + start, i - start, start) != 0)
                return -1;
        }
        if (i >= len)
            return 0;
        if (line[i] != ',')
            return br_error_at(byte_pos(r, i), "expected ',' after a quoted field");
        i++;
    }
}

/* A value as ncu prints it: "1,073,741,824", "98.5", "" or "n/a" (NAN).
 * Returns 0, or -1 when it is not a number. */
static int parse_number(double *out, const char *s) {
    if (!s[0] || strcmp(s, "n/a") == 0) {
        *out = NAN;
        return 0;
    }
    char buf[128];
    size_t o = 0;
    for (const char *p = s; *p; p++) {
        if (*p == ',')
            continue;
        if (o + 1 >= sizeof buf)
            return -1;
        buf[o++] = *p;
    }
    buf[o] = '\0';
    char *end;
    *out = strtod(buf, &end);
    return end == buf || *end ? -1 : 0;
}

/* Where each wanted column is: the kernel name's and each metric's (or
 * (size_t)-1), and each metric's factor to base units. */
typedef struct layout {
    size_t kernel;
    size_t col[N_METRICS];
    double factor[N_METRICS];
    size_t n_fields;
} layout;

static int find_columns(layout *l, const row *h) {
    l->kernel = (size_t)-1;
    l->n_fields = h->n;
    for (size_t m = 0; m < N_METRICS; m++) {
        l->col[m] = (size_t)-1;
        l->factor[m] = 1;
    }
    for (size_t i = 0; i < h->n; i++) {
        if (strcmp(h->f[i], "Kernel Name") == 0)
            l->kernel = i;
        for (size_t m = 0; m < N_METRICS; m++)
            if (strcmp(h->f[i], metrics[m].name) == 0)
                l->col[m] = i;
    }
    if (l->kernel == (size_t)-1)
        return br_error_at(field_pos(h, 0), "the table has no \"Kernel Name\" column");
    return 0;
}

/* The units row: each metric's factor. Returns 0, or -1 with the error set. */
static int read_units(layout *l, const row *u) {
    for (size_t m = 0; m < N_METRICS; m++) {
        if (l->col[m] == (size_t)-1)
            continue;
        const char *name = u->f[l->col[m]];
        if (!name[0] && metrics[m].kind == UNIT_PCT)
            continue;
        size_t k = 0;
        while (k < sizeof units / sizeof *units &&
               !(units[k].kind == metrics[m].kind && strcmp(units[k].name, name) == 0))
            k++;
        if (k == sizeof units / sizeof *units)
            return br_error_at(field_pos(u, l->col[m]), "unknown unit '%s' of %s", name,
                               metrics[m].name);
        l->factor[m] = units[k].factor;
    }
    return 0;
}

static int add_launch(br_ncu_report *out, const layout *l, const row *r) {
    br_ncu_launch *v = realloc(out->launches, (out->n + 1) * sizeof *v);
    if (!v)
        return br_error_nomem();
    out->launches = v;
    br_ncu_launch *x = &v[out->n];
    memset(x, 0, sizeof *x);
    for (size_t m = 0; m < N_METRICS; m++) {
        double *dst = (double *)((char *)x + metrics[m].offset);
        *dst = NAN;
        if (l->col[m] == (size_t)-1)
            continue;
        if (parse_number(dst, r->f[l->col[m]]) != 0)
            return br_error_at(field_pos(r, l->col[m]), "%s is '%s', expected a number",
                               metrics[m].name, r->f[l->col[m]]);
        *dst *= l->factor[m];
    }
    if (!(x->kernel = br_strdup(r->f[l->kernel])))
        return -1;
    out->n++;
    return 0;
}

/* The next line of text[*pos..len): its start and length (without the end
 * of line); advances *pos. Returns 0 at the end. */
static int next_line(const char *text, size_t len, size_t *pos, const char **line, size_t *n) {
    if (*pos >= len)
        return 0;
    const char *s = text + *pos;
    const char *nl = memchr(s, '\n', len - *pos);
    size_t l = nl ? (size_t)(nl - s) : len - *pos;
    *pos += l + (nl != NULL);
    if (l && s[l - 1] == '\r')
        l--;
    *line = s;
    *n = l;
    return 1;
}

/* The table from its header line on. Returns 0, or -1 with the error set. */
static int read_table(br_ncu_report *out, const char *text, size_t len, size_t pos, br_pos at) {
    layout l;
    row r = {.pos = at};
    const char *line = text;
    size_t n = 0;
    int rc = -1;
    next_line(text, len, &pos, &line, &n);
    if (split(&r, line, n) != 0 || find_columns(&l, &r) != 0)
        goto done;
    int first = 1;
    while (next_line(text, len, &pos, &line, &n) && n && line[0] == '"') {
        row_free(&r);
        r.pos.line++;
        if (split(&r, line, n) != 0)
            goto done;
        if (r.n != l.n_fields) {
            br_error_at(field_pos(&r, r.n > l.n_fields ? l.n_fields : 0),
                        "%zu fields, the header has %zu", r.n, l.n_fields);
            goto done;
        }
        int units_row = first && !r.f[0][0];
        first = 0;
        if (units_row ? read_units(&l, &r) : add_launch(out, &l, &r))
            goto done;
    }
    rc = 0;
done:
    row_free(&r);
    return rc;
}

int br_ncu_parse(br_ncu_report *out, const char *text, size_t len, const char *name) {
    memset(out, 0, sizeof *out);
    size_t pos = 0;
    int lineno = 0;
    const char *line;
    size_t n;
    for (;;) {
        size_t at = pos;
        if (!next_line(text, len, &pos, &line, &n))
            return br_error_at((br_pos){name, 0, 0},
                               "no ncu table in its output (expected a header line starting "
                               "\"ID\",\"Process ID\": was it run with --csv --page raw?)");
        lineno++;
        if (n >= 5 && memcmp(line, "\"ID\",", 5) == 0) {
            if (read_table(out, text, len, at, (br_pos){name, lineno, 0}) == 0)
                return 0;
            br_ncu_report_dispose(out);
            return -1;
        }
    }
}

void br_ncu_report_dispose(br_ncu_report *r) {
    if (!r)
        return;
    for (size_t i = 0; i < r->n; i++)
        free(r->launches[i].kernel);
    free(r->launches);
    memset(r, 0, sizeof *r);
}
