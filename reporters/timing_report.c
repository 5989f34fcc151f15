/* SPDX-License-Identifier: Apache-2.0 */
/* Where a run's wall time went (timing_report.h). */
#include "timing_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"

/* A case and its wall time, for the slowest list. */
typedef struct slow_case {
    const br_run *r;
    const br_case_result *c;
} slow_case;

static int by_total_desc(const void *a, const void *b) {
    double x = ((const slow_case *)a)->c->wall.total_ns;
    double y = ((const slow_case *)b)->c->wall.total_ns;
    return (x < y) - (x > y);
}

static double finite_or_0(double v) {
    return isfinite(v) && v > 0 ? v : 0;
}

static void row(FILE *f, const char *name, double ns, double total) {
    fprintf(f, "  %-12s %9.3f %6.1f%%\n", name, ns / 1e9, total > 0 ? 100.0 * ns / total : 0.0);
}

/* The slowest cases, with their three largest phases. */
static int write_slowest(FILE *f, const br_run *const *runs, size_t n, size_t n_cases) {
    slow_case *v = malloc((n_cases ? n_cases : 1) * sizeof *v);
    if (!v)
        return br_error_nomem();
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < runs[i]->n_cases; j++)
            if (runs[i]->cases[j].wall.present)
                v[k++] = (slow_case){runs[i], &runs[i]->cases[j]};
    qsort(v, k, sizeof *v, by_total_desc);
    if (k)
        fprintf(f, "slowest cases:\n");
    for (size_t i = 0; i < k && i < BR_TIMING_REPORT_SLOWEST; i++) {
        const br_case_wall *w = &v[i].c->wall;
        char name[160];
        br_run_case_label(name, sizeof name, v[i].r, v[i].c);
        fprintf(f, "  %-36s %8.3f s ", name, w->total_ns / 1e9);
        int used[BR_WALL_PHASES] = {0};
        for (int top = 0; top < 3; top++) {
            size_t best = BR_WALL_PHASES;
            for (size_t p = 0; p < BR_WALL_PHASES; p++)
                if (!used[p] &&
                    (best == BR_WALL_PHASES || br_wall_phase(w, p) > br_wall_phase(w, best)))
                    best = p;
            used[best] = 1;
            fprintf(f, "%s%s %.3f", top ? ", " : " (", br_wall_phase_names[best],
                    finite_or_0(br_wall_phase(w, best)) / 1e9);
        }
        fprintf(f, ")\n");
    }
    free(v);
    return 0;
}

/* One lane of a run over several devices: a device, or the host cases. */
typedef struct lane {
    int device; /* its index; -1: the host cases; -2: a plain run's GPU cases */
    size_t n;
    double busy, from, to; /* ns: summed case time, first start, last end (from > to: unknown) */
} lane;

#define MAX_LANES 65

/* The lanes of runs[0..n) into v (at most MAX_LANES); their count. A case
 * that records no device is on the host lane (-1) or, a GPU case, on the
 * GPU lane of a plain run (-2). *from, *to: the first start and last end of
 * any case (from > to: unknown). */
static size_t lanes_of(lane *v, double *from, double *to, const br_run *const *runs, size_t n) {
    size_t m = 0;
    *from = INFINITY;
    *to = -INFINITY;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < runs[i]->n_cases; j++) {
            const br_case_result *c = &runs[i]->cases[j];
            if (!c->wall.present)
                continue;
            int gpu = c->kernel < runs[i]->n_kernels &&
                      runs[i]->kernels[c->kernel].backend == BR_BACKEND_GPU;
            int dev = c->device_present ? c->device_index : gpu ? -2 : -1;
            size_t k = 0;
            while (k < m && v[k].device != dev)
                k++;
            if (k == m) {
                if (m == MAX_LANES)
                    continue;
                v[m++] = (lane){dev, 0, 0, INFINITY, -INFINITY};
            }
            v[k].n++;
            v[k].busy += finite_or_0(c->wall.total_ns);
            if (isfinite(c->wall.began_ns)) {
                double end = c->wall.began_ns + finite_or_0(c->wall.total_ns);
                v[k].from = fmin(v[k].from, c->wall.began_ns);
                v[k].to = fmax(v[k].to, end);
                *from = fmin(*from, c->wall.began_ns);
                *to = fmax(*to, end);
            }
        }
    return m;
}

/* The devices in order, the host cases last. */
static int lane_cmp(const void *a, const void *b) {
    int x = ((const lane *)a)->device, y = ((const lane *)b)->device;
    if ((x < 0) != (y < 0))
        return x < 0 ? 1 : -1; /* the devices, then the GPU lane of a plain run, then the host */
    return (x > y) - (x < y);
}

/* Cases measured on several lanes at once (--devices): the measuring as one
 * row of the invocation, then the case phases as shares of the case time
 * (summed over the lanes), then each lane. */
static void write_lanes(FILE *f, const lane *v, size_t m, double span, double cases,
                        const double *phase) {
    fprintf(f, "cases on %zu lanes at once: %.3f s of case time in %.3f s of measuring (%.2fx)\n",
            m, cases / 1e9, span / 1e9, span > 0 ? cases / span : 0.0);
    fprintf(f, "  %-12s %9s %7s\n", "case phase", "seconds", "share");
    for (size_t p = 0; p < BR_WALL_PHASES; p++)
        row(f, br_wall_phase_names[p], phase[p], cases);
    fprintf(f, "lanes:\n");
    for (size_t k = 0; k < m; k++) {
        char name[32];
        if (v[k].device >= 0)
            snprintf(name, sizeof name, "device %d", v[k].device);
        else if (v[k].device == -2)
            snprintf(name, sizeof name, "GPU");
        else
            snprintf(name, sizeof name, "host");
        fprintf(f, "  %-12s %4zu case(s) %9.3f s busy", name, v[k].n, v[k].busy / 1e9);
        if (v[k].from <= v[k].to)
            fprintf(f, ", from %.3f to %.3f s", v[k].from / 1e9, v[k].to / 1e9);
        fputc('\n', f);
    }
}

int br_timing_report_write(FILE *f, const br_run *const *runs, size_t n,
                           const br_timing_invocation *inv) {
    double phase[BR_WALL_PHASES] = {0}, compile = 0, cases = 0;
    size_t n_cases = 0, n_timed = 0;
    for (size_t i = 0; i < n; i++) {
        compile += finite_or_0(runs[i]->compile_ns);
        n_cases += runs[i]->n_cases;
        for (size_t j = 0; j < runs[i]->n_cases; j++) {
            const br_case_wall *w = &runs[i]->cases[j].wall;
            if (!w->present)
                continue;
            n_timed++;
            cases += finite_or_0(w->total_ns);
            for (size_t p = 0; p < BR_WALL_PHASES; p++)
                phase[p] += finite_or_0(br_wall_phase(w, p));
        }
    }
    lane v[MAX_LANES];
    double from, to;
    size_t m = lanes_of(v, &from, &to, runs, n);
    qsort(v, m, sizeof *v, lane_cmp);
    /* Lanes at once (--devices, or a plain run's host cases beside its GPU
     * cases: more case time than from the first start to the last end): the
     * measuring counts once, from the first start to the last end (the
     * busiest lane's time when the starts are unknown). */
    double measuring = cases;
    int devices = 0;
    for (size_t k = 0; k < m; k++)
        devices |= v[k].device >= 0;
    if (m > 1 && !devices && !(from <= to && cases > (to - from) * 1.001))
        m = 1; /* one after another */
    if (m > 1) {
        measuring = 0;
        for (size_t k = 0; k < m; k++)
            measuring = fmax(measuring, v[k].busy);
        if (from <= to)
            measuring = to - from;
    }
    double prepare = finite_or_0(inv->prepare_ns), outputs = finite_or_0(inv->outputs_ns);
    double opening = finite_or_0(inv->devices_ns), total = finite_or_0(inv->total_ns);
    double confirm = 0; /* the gate's A/B, within outputs (gate/confirm.h) */
    for (size_t i = 0; i < n; i++)
        if (runs[i]->comparison && runs[i]->comparison->confirm)
            confirm += finite_or_0(runs[i]->comparison->confirm->ns);
    confirm = fmin(confirm, outputs);
    double known = prepare + opening + compile + measuring + outputs;
    if (total < known)
        total = known;
    fprintf(f, "timing report: %.3f s wall, %zu case(s) run of %zu\n", total / 1e9, n_timed,
            n_cases);
    fprintf(f, "  %-12s %9s %7s\n", "phase", "seconds", "share");
    row(f, "prepare", prepare, total);
    if (opening > 0)
        row(f, "devices", opening, total);
    row(f, "compile", compile, total);
    if (m > 1)
        row(f, "measuring", measuring, total);
    else
        for (size_t p = 0; p < BR_WALL_PHASES; p++)
            row(f, br_wall_phase_names[p], phase[p], total);
    if (confirm > 0)
        row(f, "confirm", confirm, total);
    row(f, "outputs", outputs - confirm, total);
    row(f, "unaccounted", total - known, total);
    if (m > 1)
        write_lanes(f, v, m, measuring, cases, phase);
    return write_slowest(f, runs, n, n_cases);
}
