/* table.c - the terminal report: one box per run, drawn with UTF-8 box
 * characters (or plain ASCII), followed by notes on failed and skipped cases.
 *
 *   ╔══════════════════════════════════════════════╗
 *   ║ suite · description · device · sha (branch)  ║
 *   ╠══════════════════════════════════════════════╣
 *   ║ kernel │  n │ time (µs) │ GB/s │ % peak │ ... ║
 *   ╟────────┼────┼───────────┼──────┼────────┼─────╢
 *   ║ ...                                          ║
 *   ╚══════════════════════════════════════════════╝
 *
 * Widths are counted in display columns: every glyph used is one column wide,
 * so a UTF-8 string is as wide as its number of code points. */
#include "reporter.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

typedef struct glyphs {
    const char *tl, *tr, *bl, *br; /* corners of the box */
    const char *hh, *vv;           /* double (outer) lines */
    const char *hh_l, *hh_r;       /* ╠ ╣: the rule under the title */
    const char *h, *v, *cross;     /* single (inner) lines */
    const char *h_l, *h_r;         /* ╟ ╢: rules between rows */
    const char *dot, *dash, *times, *micro;
} glyphs;

static const glyphs utf8_glyphs = {
    "╔", "╗", "╚", "╝", "═", "║", "╠", "╣", "─", "│", "┼", "╟", "╢", "·", "–", "×", "µ",
};

static const glyphs ascii_glyphs = {
    "+", "+", "+", "+", "=", "|", "+", "+", "-", "|", "+", "+", "+", ".", "-", "x", "u",
};

/* Display width of a UTF-8 string: its number of code points. */
static size_t display_width(const char *s) {
    size_t w = 0;
    for (; *s; s++) {
        if (((unsigned char)*s & 0xC0) != 0x80)
            w++;
    }
    return w;
}

static void put_n(FILE *f, const char *s, size_t n) {
    for (size_t i = 0; i < n; i++)
        fputs(s, f);
}

/* A time in µs: 1 decimal, 2 below 10 µs, 3 below 1 µs. */
static void format_us(char *buf, size_t len, double us) {
    int decimals = us < 1.0 ? 3 : us < 10.0 ? 2 : 1;
    snprintf(buf, len, "%.*f", decimals, us);
}

/* The cells of one box: row 0 is the header. */
typedef struct table {
    size_t n_cols, n_rows; /* n_rows counts the header */
    char **cells;          /* n_rows x n_cols, owned */
    size_t *combo;         /* per row: the case's combination (row 0 unused) */
    size_t *width;         /* per column, display columns */
    int *right;            /* per column: 1 right-aligned (numbers) */
} table;

static void table_dispose(table *t) {
    for (size_t i = 0; t->cells && i < t->n_rows * t->n_cols; i++)
        free(t->cells[i]);
    free(t->cells);
    free(t->combo);
    free(t->width);
    free(t->right);
}

static int set_cell(table *t, size_t row, size_t col, const char *text) {
    char *s = strdup(text);
    if (!s)
        return br_error_set("out of memory formatting the table");
    t->cells[row * t->n_cols + col] = s;
    return 0;
}

/* suite · description · device · git, with runs of whitespace in the
 * description collapsed to one space. Owned by the caller. */
static char *make_title(const br_run *r, const glyphs *g) {
    char *desc = NULL, *title = NULL;
    if (r->suite_description) {
        desc = malloc(strlen(r->suite_description) + 1);
        if (!desc)
            goto done;
        size_t n = 0;
        int space = 0;
        for (const char *p = r->suite_description; *p; p++) {
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
    }

    const char *device = r->has_device          ? r->device.name
                         : r->host.cpu_model[0] ? r->host.cpu_model
                                                : "host";
    char git[512];
    if (!r->git.present) {
        snprintf(git, sizeof git, "no git");
    } else {
        const char *sha = r->git.unborn ? "no commit" : r->git.short_sha;
        const char *dirty = r->git.dirty ? "-dirty" : "";
        if (r->git.detached)
            snprintf(git, sizeof git, "%s%s (detached)", sha, dirty);
        else if (r->git.branch[0])
            snprintf(git, sizeof git, "%s%s (%s)", sha, dirty, r->git.branch);
        else
            snprintf(git, sizeof git, "%s%s", sha, dirty);
    }

    const char *name = r->suite_name ? r->suite_name : "?";
    if (desc && desc[0])
        title = br_strfmt("%s %s %s %s %s %s %s", name, g->dot, desc, g->dot, device, g->dot, git);
    else
        title = br_strfmt("%s %s %s %s %s", name, g->dot, device, g->dot, git);
done:
    free(desc);
    if (!title)
        br_error_set("out of memory formatting the table");
    return title;
}

/* Fill *t with the header and one row per case that is not skipped. */
static int table_build(table *t, const br_run *r, const glyphs *g) {
    int rc = -1;
    int has_metric = r->metric != BR_METRIC_NONE;
    int has_peak = r->metric == BR_METRIC_GBPS;
    size_t col_time = 1 + r->n_params;
    size_t col_metric = col_time + 1;
    size_t col_peak = col_metric + (size_t)has_metric;
    size_t col_speedup = col_peak + (size_t)has_peak;

    t->n_cols = col_speedup + 1;
    t->n_rows = 1;
    for (size_t i = 0; i < r->n_cases; i++)
        t->n_rows += r->cases[i].status != BR_STATUS_SKIPPED;
    t->cells = calloc(t->n_rows * t->n_cols, sizeof *t->cells);
    t->combo = calloc(t->n_rows, sizeof *t->combo);
    t->width = calloc(t->n_cols, sizeof *t->width);
    t->right = calloc(t->n_cols, sizeof *t->right);
    if (!t->cells || !t->combo || !t->width || !t->right) {
        br_error_set("out of memory formatting the table");
        goto done;
    }
    for (size_t c = 1; c < t->n_cols; c++)
        t->right[c] = 1;

    char buf[128];
    if (set_cell(t, 0, 0, "kernel") < 0)
        goto done;
    for (size_t p = 0; p < r->n_params; p++) {
        if (set_cell(t, 0, 1 + p, r->param_names[p] ? r->param_names[p] : "?") < 0)
            goto done;
    }
    snprintf(buf, sizeof buf, "time (%ss)", g->micro);
    if (set_cell(t, 0, col_time, buf) < 0)
        goto done;
    if (has_metric && set_cell(t, 0, col_metric, br_metric_name(r->metric)) < 0)
        goto done;
    if (has_peak && set_cell(t, 0, col_peak, "% peak") < 0)
        goto done;
    if (set_cell(t, 0, col_speedup, "speedup") < 0)
        goto done;

    size_t row = 1;
    for (size_t i = 0; i < r->n_cases; i++) {
        const br_case_result *c = &r->cases[i];
        if (c->status == BR_STATUS_SKIPPED)
            continue;
        int ok = c->status == BR_STATUS_OK;
        t->combo[row] = c->combo;
        const char *kname = c->kernel < r->n_kernels ? r->kernels[c->kernel].name : NULL;
        if (set_cell(t, row, 0, kname ? kname : "?") < 0)
            goto done;
        for (size_t p = 0; p < r->n_params; p++) {
            br_format_param(buf, sizeof buf, c->params[p]);
            if (set_cell(t, row, 1 + p, buf) < 0)
                goto done;
        }
        if (ok)
            format_us(buf, sizeof buf, c->time.median / 1000.0);
        else
            snprintf(buf, sizeof buf, "FAILED");
        if (set_cell(t, row, col_time, buf) < 0)
            goto done;
        if (has_metric) {
            double v = r->metric == BR_METRIC_GBPS ? c->gbps : c->gflops;
            if (ok && isfinite(v))
                snprintf(buf, sizeof buf, "%.1f", v);
            else
                snprintf(buf, sizeof buf, "%s", g->dash);
            if (set_cell(t, row, col_metric, buf) < 0)
                goto done;
        }
        if (has_peak) {
            if (ok && isfinite(c->pct_peak))
                snprintf(buf, sizeof buf, "%.1f%%", c->pct_peak);
            else
                snprintf(buf, sizeof buf, "%s", g->dash);
            if (set_cell(t, row, col_peak, buf) < 0)
                goto done;
        }
        if (ok && isfinite(c->speedup))
            snprintf(buf, sizeof buf, "%.2f%s", c->speedup, g->times);
        else
            snprintf(buf, sizeof buf, "%s", g->dash);
        if (set_cell(t, row, col_speedup, buf) < 0)
            goto done;
        row++;
    }

    for (size_t i = 0; i < t->n_rows * t->n_cols; i++) {
        size_t w = display_width(t->cells[i]);
        if (w > t->width[i % t->n_cols])
            t->width[i % t->n_cols] = w;
    }
    rc = 0;
done:
    return rc;
}

/* A rule across the columns: left, then per column fill (width + 2) joined
 * by `cross`, the slack, then right. */
static void put_rule(FILE *f, const table *t, size_t slack, const char *left, const char *fill,
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

static void put_row(FILE *f, const table *t, size_t row, size_t slack, const glyphs *g) {
    fputs(g->vv, f);
    for (size_t c = 0; c < t->n_cols; c++) {
        const char *s = t->cells[row * t->n_cols + c];
        size_t pad = t->width[c] - display_width(s);
        if (c > 0)
            fputs(g->v, f);
        fputc(' ', f);
        if (t->right[c])
            put_n(f, " ", pad);
        fputs(s, f);
        if (!t->right[c])
            put_n(f, " ", pad);
        fputc(' ', f);
    }
    put_n(f, " ", slack);
    fputs(g->vv, f);
    fputc('\n', f);
}

/* One line per failed case, then one note on the skipped ones. */
static void put_notes(FILE *f, const br_run *r) {
    size_t n_skipped = 0, n_skipped_gpu = 0;
    const char *skip_message = NULL;
    char buf[64];
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
        fprintf(f, "FAILED %s", k && k->name ? k->name : "?");
        for (size_t p = 0; p < r->n_params; p++) {
            br_format_param(buf, sizeof buf, c->params[p]);
            fprintf(f, " %s=%s", r->param_names[p], buf);
        }
        if (c->stage)
            fprintf(f, " (%s)", c->stage);
        const char *msg = c->message && c->message[0] ? c->message : "(no message)";
        size_t len = strlen(msg);
        while (len > 0 && (msg[len - 1] == '\n' || msg[len - 1] == '\r'))
            len--;
        fprintf(f, ": %.*s\n", (int)len, msg);
    }
    if (n_skipped > 0) {
        const char *why = r->gpu_skip_reason ? r->gpu_skip_reason
                          : skip_message     ? skip_message
                                             : "no reason given";
        fprintf(f, "note: %zu %scase(s) skipped: %s\n", n_skipped,
                n_skipped_gpu == n_skipped ? "GPU " : "", why);
    }
}

static int write_run(FILE *f, const br_run *r, const glyphs *g) {
    int rc = -1;
    table t = {0};
    char *title = make_title(r, g);
    if (!title)
        goto done;
    if (table_build(&t, r, g) < 0)
        goto done;

    size_t inner = t.n_cols - 1;
    for (size_t c = 0; c < t.n_cols; c++)
        inner += t.width[c] + 2;
    size_t title_w = display_width(title) + 2;
    /* A title wider than the columns widens the first (kernel) column. */
    if (title_w > inner) {
        t.width[0] += title_w - inner;
        inner = title_w;
    }
    size_t slack = 0;

    fputs(g->tl, f);
    put_n(f, g->hh, inner);
    fputs(g->tr, f);
    fputc('\n', f);
    fprintf(f, "%s %s", g->vv, title);
    put_n(f, " ", inner - title_w + 1);
    fprintf(f, "%s\n", g->vv);
    put_rule(f, &t, slack, g->hh_l, g->hh, g->hh, g->hh_r);
    put_row(f, &t, 0, slack, g);
    /* Rules separate parameter combinations, unless every combination has a
     * single row (then a rule after each row would only be noise). */
    int grouped = 0;
    for (size_t row = 2; row < t.n_rows; row++)
        grouped |= t.combo[row] == t.combo[row - 1];
    for (size_t row = 1; row < t.n_rows; row++) {
        if (row == 1 || (grouped && t.combo[row] != t.combo[row - 1]))
            put_rule(f, &t, slack, g->h_l, g->h, g->cross, g->h_r);
        put_row(f, &t, row, slack, g);
    }
    fputs(g->bl, f);
    put_n(f, g->hh, inner);
    fputs(g->br, f);
    fputc('\n', f);
    put_notes(f, r);
    rc = 0;
done:
    table_dispose(&t);
    free(title);
    return rc;
}

/* Write one box per run (blank line between runs) and its notes to f.
 * Returns 0, or -1 with the error set (out of memory, write error). */
static int table_write(FILE *f, const br_run *const *runs, size_t n_runs,
                       const br_report_opts *opts) {
    const glyphs *g = opts && opts->ascii ? &ascii_glyphs : &utf8_glyphs;
    for (size_t i = 0; i < n_runs; i++) {
        if (i > 0)
            fputc('\n', f);
        if (write_run(f, runs[i], g) < 0)
            return -1;
    }
    if (fflush(f) != 0 || ferror(f))
        return br_error_set("cannot write the table: %s", strerror(errno));
    return 0;
}

/* The "table" reporter: human-readable boxes for a terminal. */
const br_reporter br_reporter_table = {"table", table_write};
