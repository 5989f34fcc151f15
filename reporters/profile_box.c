/* SPDX-License-Identifier: Apache-2.0 */
/* The box of `benchrun profile` (profile_box.h). */
#include "profile_box.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/text.h"
#include "base/util.h"
#include "reporter.h"

#define MAX_LINES 64
#define LINE_MAX  512

typedef struct box {
    char line[MAX_LINES][LINE_MAX];
    size_t n;
} box;

static void add(box *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A line of the box; a kernel name from ncu's output is shown with its
 * controls escaped (base/text.h), so it cannot drive the terminal. */
static void add(box *b, const char *fmt, ...) {
    if (b->n == MAX_LINES)
        return;
    char text[LINE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    br_text_escape(b->line[b->n++], LINE_MAX, text, strlen(text), 0);
}

static void pct(char *buf, size_t len, double v, int ascii) {
    if (isfinite(v))
        snprintf(buf, len, "%.1f%%", v);
    else
        snprintf(buf, len, "%s", ascii ? "-" : "\u2013");
}

static void dur(char *buf, size_t len, double ns, int ascii) {
    if (isfinite(ns))
        br_format_duration(buf, len, ns);
    else
        snprintf(buf, len, "%s", ascii ? "-" : "\u2013");
}

/* The pipes ncu saw busy beside benchrun's own % of peak: what the case's
 * FLOPs ran on, against the ceiling its % of peak is relative to. */
static void add_pipes(box *b, const br_profile *p, int ascii) {
    char t[16], c[16], own[64];
    pct(t, sizeof t, p->tensor_pct, ascii);
    pct(c, sizeof c, p->cuda_pct, ascii);
    if (isfinite(p->pct_peak))
        snprintf(own, sizeof own, "%.1f%% of peak (%s)", p->pct_peak, p->metric ? p->metric : "?");
    else
        snprintf(own, sizeof own, "no %% of peak");
    add(b, "%-22s %-14s %s%s%s", "  Tensor pipe", t, own,
        p->precision != BR_PRECISION_NONE ? ", declared " : "",
        p->precision != BR_PRECISION_NONE ? br_precision_name(p->precision) : "");
    add(b, "%-22s %s", "  CUDA-core pipes", c);
}

/* The comparison lines: time and bytes per execution. */
static void add_totals(box *b, const br_profile *p, int ascii) {
    char a[32], c[32], d[32], e[32];
    dur(a, sizeof a, p->duration_ns, ascii);
    add(b, "%-22s %-14s %s", "per execution", "ncu", "benchrun");
    if (isfinite(p->median_ns)) {
        dur(c, sizeof c, p->median_ns, ascii);
        add(b, "%-22s %-14s %s median (%s clock, cold)", "  time", a, c, p->clock ? p->clock : "?");
    } else {
        add(b, "%-22s %-14s not measured (see above)", "  time", a);
    }
    double dram = p->dram_read_bytes + p->dram_write_bytes;
    br_format_bytes(c, sizeof c, dram);
    if (isfinite(p->declared_bytes)) {
        br_format_bytes(d, sizeof d, p->declared_bytes);
        add(b, "%-22s %-14s %s declared (bytes), %.2f%s DRAM", "  DRAM bytes", c, d,
            p->declared_bytes / dram, ascii ? "x" : "\u00d7");
    } else {
        add(b, "%-22s %-14s the suite declares no bytes", "  DRAM bytes", c);
    }
    br_format_bytes(d, sizeof d, p->dram_read_bytes);
    br_format_bytes(e, sizeof e, p->dram_write_bytes);
    add(b, "%-22s %s / %s", "    read / written", d, e);
    add_pipes(b, p, ascii);
}

static void add_kernels(box *b, const br_profile *p, int ascii) {
    const char *dot = ascii ? "," : " \u00b7";
    for (size_t i = 0; i < p->n_kernels; i++) {
        const br_profile_kernel *k = &p->kernels[i];
        char t[32], o[16], s[16], m[16], l[16];
        dur(t, sizeof t, k->duration_ns, ascii);
        pct(o, sizeof o, k->occupancy_pct, ascii);
        pct(s, sizeof s, k->sm_pct, ascii);
        pct(m, sizeof m, k->mem_pct, ascii);
        pct(l, sizeof l, k->l2_hit_pct, ascii);
        add(b, "kernel %.200s", k->name);
        add(b,
            "  %.3g per execution%s %s median%s occupancy %s%s SM %s%s memory %s of peak%s "
            "L2 hit %s",
            (double)k->launches / (double)p->executions, dot, t, dot, o, dot, s, dot, m, dot, l);
        char tp[16], f[16], h[16], d[16];
        pct(tp, sizeof tp, k->tensor_pct, ascii);
        pct(f, sizeof f, k->fma_pct, ascii);
        pct(h, sizeof h, k->fp16_pct, ascii);
        pct(d, sizeof d, k->fp64_pct, ascii);
        add(b, "  pipes: Tensor %s%s%s%s%s FMA %s%s FP16 %s%s FP64 %s", tp,
            k->tensor_pipe ? " (" : "", k->tensor_pipe ? k->tensor_pipe : "",
            k->tensor_pipe ? ")" : "", dot, f, dot, h, dot, d);
    }
}

static int draw(FILE *f, const box *b, int ascii) {
    size_t w = 0;
    for (size_t i = 0; i < b->n; i++) {
        size_t lw = br_report_display_width(b->line[i]);
        w = lw > w ? lw : w;
    }
    const char *h = ascii ? "-" : "\u2500", *v = ascii ? "|" : "\u2502";
    fputs(ascii ? "+" : "\u250c", f);
    for (size_t i = 0; i < w + 2; i++)
        fputs(h, f);
    fputs(ascii ? "+\n" : "\u2510\n", f);
    for (size_t i = 0; i < b->n; i++)
        fprintf(f, "%s %s%*s %s\n", v, b->line[i], (int)(w - br_report_display_width(b->line[i])),
                "", v);
    fputs(ascii ? "+" : "\u2514", f);
    for (size_t i = 0; i < w + 2; i++)
        fputs(h, f);
    fputs(ascii ? "+\n" : "\u2518\n", f);
    return ferror(f) ? br_error_set("cannot write the profile box") : 0;
}

int br_profile_box_write(FILE *f, const br_profile *p, int ascii) {
    box *b = calloc(1, sizeof *b);
    if (!b)
        return br_error_nomem();
    add(b, "Nsight Compute: %s%s%s%s%s", p->kernel ? p->kernel : "?",
        p->params && p->params[0] ? " " : "", p->params ? p->params : "", p->device ? " on " : "",
        p->device ? p->device : "");
    add(b, "%zu execution(s), %zu kernel launch(es) in the NVTX range %s", p->executions,
        p->n_launches, p->range ? p->range : "?");
    add(b, "%s", "");
    add_totals(b, p, ascii);
    add(b, "%s", "");
    add_kernels(b, p, ascii);
    char warn[256], pwarn[256];
    int bytes = br_profile_bytes_check(warn, sizeof warn, p->declared_bytes,
                                       p->dram_read_bytes + p->dram_write_bytes, ascii);
    int precision =
        br_profile_precision_check(pwarn, sizeof pwarn, p->precision, p->tensor_pct, p->cuda_pct);
    if (bytes || precision)
        add(b, "%s", "");
    if (bytes)
        add(b, "warning: %s", warn);
    if (precision)
        add(b, "warning: %s", pwarn);
    int rc = draw(f, b, ascii);
    free(b);
    return rc;
}
