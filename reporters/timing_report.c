/* SPDX-License-Identifier: Apache-2.0 */
/* timing_report.c - where a run's wall time went (timing_report.h). */
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
    double prepare = finite_or_0(inv->prepare_ns), outputs = finite_or_0(inv->outputs_ns);
    double total = finite_or_0(inv->total_ns);
    double known = prepare + compile + cases + outputs;
    if (total < known)
        total = known;
    fprintf(f, "timing report: %.3f s wall, %zu case(s) run of %zu\n", total / 1e9, n_timed,
            n_cases);
    fprintf(f, "  %-12s %9s %7s\n", "phase", "seconds", "share");
    row(f, "prepare", prepare, total);
    row(f, "compile", compile, total);
    for (size_t p = 0; p < BR_WALL_PHASES; p++)
        row(f, br_wall_phase_names[p], phase[p], total);
    row(f, "outputs", outputs, total);
    row(f, "unaccounted", total - known, total);
    return write_slowest(f, runs, n, n_cases);
}
