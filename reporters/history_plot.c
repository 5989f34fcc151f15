/* SPDX-License-Identifier: Apache-2.0 */
/* `benchrun history --plot`: the gnuplot script that
 * draws one suite's history as an SVG, and gnuplot run on it. */
#include "history_plot.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "gnuplot.h"
#include "model/metric.h"
#include "history/history.h"

/* ---- the plot --------------------------------------------------------------------------- */

/* What panel 1's x axis shows. */
typedef enum xmode {
    X_PARAM, /* the one parameter that varies (px) */
    X_BYTES, /* bytes per execution (GB/s) */
    X_FLOPS, /* FLOP per execution (GFLOP/s) */
    X_COMBO, /* the parameter combination's position (metric none, several vary) */
    X_KERNEL /* the kernel's position (no parameter varies) */
} xmode;

/* Panel 1 of the plot: the newest run against problem size. */
typedef struct panel1 {
    const br_run *r; /* the newest run */
    xmode mode;
    size_t px;      /* X_PARAM: the parameter */
    int log2x;      /* X_PARAM: all its values are powers of two */
    size_t *combos; /* X_COMBO: the combinations drawn, ascending; owned */
    size_t n_combos;
    int *drawn; /* per kernel: 1 when it has a data block; owned */
    double ylo, yhi;
} panel1;

/* A log y axis when the values span more than 100x, else linear. */
static void put_yscale(FILE *f, double lo, double hi) {
    if (lo > 0 && isfinite(hi) && hi / lo > 100.0)
        fputs("set logscale y 10\nset format y \"% h\"\n", f);
    else
        fputs("unset logscale y\nset format y \"% h\"\n", f);
}

static int cmp_size(const void *a, const void *b) {
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* Choose panel 1's x axis for view v (history.h). Returns 0, or -1 with
 * the error set. */
static int panel1_setup(panel1 *p, const br_history_view *v) {
    memset(p, 0, sizeof *p);
    const br_run *r = p->r = v->newest;
    p->ylo = INFINITY;
    p->yhi = -INFINITY;
    size_t n_vary = 0;
    p->px = BR_HISTORY_NONE;
    for (size_t k = 0; k < r->n_params; k++) {
        int64_t first = 0;
        int seen = 0, varies = 0;
        for (size_t i = 0; i < r->n_cases; i++) {
            const br_case_result *c = &r->cases[i];
            if (!isfinite(br_history_case_value(r, c, v->metric)))
                continue;
            varies |= seen && c->params[k] != first;
            if (!seen)
                first = c->params[k];
            seen = 1;
        }
        if (varies) {
            n_vary++;
            p->px = k;
        }
    }
    br_metric_amount amount = br_metric_amount_of(v->metric);
    p->mode = n_vary == 1                 ? X_PARAM
              : n_vary == 0               ? X_KERNEL
              : amount == BR_AMOUNT_BYTES ? X_BYTES
              : amount == BR_AMOUNT_OPS   ? X_FLOPS
                                          : X_COMBO;
    if (p->mode == X_PARAM) {
        p->log2x = 1;
        for (size_t i = 0; i < r->n_cases; i++) {
            int64_t x = r->cases[i].params[p->px];
            if (isfinite(br_history_case_value(r, &r->cases[i], v->metric)) &&
                (x <= 0 || (x & (x - 1))))
                p->log2x = 0;
        }
    }
    p->combos = calloc(r->n_cases + 1, sizeof *p->combos);
    p->drawn = calloc(r->n_kernels + 1, sizeof *p->drawn);
    if (!p->combos || !p->drawn) {
        free(p->combos);
        free(p->drawn);
        return br_error_nomem();
    }
    for (size_t i = 0; i < r->n_cases; i++) {
        if (!isfinite(br_history_case_value(r, &r->cases[i], v->metric)))
            continue;
        size_t k = 0;
        while (k < p->n_combos && p->combos[k] != r->cases[i].combo)
            k++;
        if (k == p->n_combos)
            p->combos[p->n_combos++] = r->cases[i].combo;
    }
    qsort(p->combos, p->n_combos, sizeof *p->combos, cmp_size);
    return 0;
}

/* The x of case c in panel 1; NAN when it has none (or none the axis can show). */
static double panel1_x(const panel1 *p, const br_case_result *c) {
    double x = NAN;
    switch (p->mode) {
    case X_PARAM:
        x = (double)c->params[p->px];
        return p->log2x && x <= 0 ? NAN : x;
    case X_BYTES:
        return c->bytes > 0 ? c->bytes : NAN;
    case X_FLOPS:
        return c->flops > 0 ? c->flops : NAN;
    case X_COMBO:
        for (size_t m = 0; m < p->n_combos; m++)
            x = p->combos[m] == c->combo ? (double)(m + 1) : x;
        return x;
    case X_KERNEL:
        return (double)(c->kernel + 1);
    }
    return NAN;
}

/* Panel 1's data: a block $sizeK per kernel K with points, sorted by x. */
static int panel1_data(FILE *f, panel1 *p, const br_history_view *v) {
    const br_run *r = p->r;
    double(*pts)[2] = calloc(r->n_cases + 1, sizeof *pts);
    if (!pts)
        return br_error_nomem();
    for (size_t k = 0; k < r->n_kernels; k++) {
        size_t n_pts = 0;
        for (size_t i = 0; i < r->n_cases; i++) {
            const br_case_result *c = &r->cases[i];
            double y = br_history_case_value(r, c, v->metric), x = panel1_x(p, c);
            if (c->kernel != k || !isfinite(y) || !isfinite(x))
                continue;
            size_t at = n_pts++;
            for (; at > 0 && pts[at - 1][0] > x; at--) {
                pts[at][0] = pts[at - 1][0];
                pts[at][1] = pts[at - 1][1];
            }
            pts[at][0] = x;
            pts[at][1] = y;
            p->ylo = fmin(p->ylo, y);
            p->yhi = fmax(p->yhi, y);
        }
        if (n_pts == 0)
            continue;
        p->drawn[k] = 1;
        fprintf(f, "# panel 1, kernel %s: x, %s\n$size%zu << EOD\n",
                r->kernels[k].name ? r->kernels[k].name : "?", br_metric_unit(v->metric), k);
        for (size_t i = 0; i < n_pts; i++)
            fprintf(f, "%.10g %.7g\n", pts[i][0], pts[i][1]);
        fputs("EOD\n", f);
    }
    free(pts);
    return 0;
}

/* Panel 1's x axis: its scale and format, or its tics (one per parameter
 * combination or kernel). */
static void panel1_xaxis(FILE *f, const panel1 *p) {
    const br_run *r = p->r;
    if (p->mode == X_PARAM && p->log2x)
        fputs("set logscale x 2\nset format x \"2^{%L}\"\nset xtics autofreq\nset autoscale x\n",
              f);
    else if (p->mode == X_BYTES)
        fputs("set logscale x 10\nset format x \"%.0s %cB\"\nset xtics autofreq\n"
              "set autoscale x\n",
              f);
    else if (p->mode == X_FLOPS)
        fputs("set logscale x 10\nset format x \"%.0s %cFLOP\"\nset xtics autofreq\n"
              "set autoscale x\n",
              f);
    else if (p->mode == X_PARAM)
        fputs("unset logscale x\nset format x \"% h\"\nset xtics autofreq\nset autoscale x\n", f);
    if (p->mode == X_COMBO || p->mode == X_KERNEL) {
        size_t n_tics = p->mode == X_COMBO ? p->n_combos : r->n_kernels;
        fprintf(f, "unset logscale x\nset xrange [0.5:%zu.5]\nset xtics %snoenhanced (", n_tics,
                n_tics > 4 ? "rotate by -30 " : "");
        for (size_t m = 0; m < n_tics; m++) {
            char tic[512] = "";
            if (p->mode == X_KERNEL) {
                snprintf(tic, sizeof tic, "%s", r->kernels[m].name ? r->kernels[m].name : "?");
            } else {
                for (size_t i = 0; i < r->n_cases; i++) {
                    if (r->cases[i].combo == p->combos[m]) {
                        br_history_params_label(tic, sizeof tic, r, &r->cases[i]);
                        break;
                    }
                }
            }
            fputs(m ? ", " : "", f);
            br_gnuplot_string(f, tic);
            fprintf(f, " %zu", m + 1);
        }
        fputs(")\n", f);
    }
}

/* Panel 1's commands. */
static void panel1_commands(FILE *f, const panel1 *p, const br_history_view *v) {
    const br_run *r = p->r;
    char when[64], label[64], title[1024];
    br_history_short_date(when, sizeof when, r->date);
    br_history_label(label, sizeof label, v->h, v->first + v->n - 1, 0);
    const char *against = p->mode == X_PARAM   ? r->param_names[p->px]
                          : p->mode == X_BYTES ? "bytes per execution"
                          : p->mode == X_FLOPS ? "FLOP per execution"
                          : p->mode == X_COMBO ? "parameters"
                                               : "kernel";
    snprintf(title, sizeof title, "%s: %s against %s, newest run %s (%s)",
             r->suite_name ? r->suite_name : "?", br_metric_unit(v->metric), against, label, when);
    fputs("\n# panel 1: the newest run against problem size\nset title ", f);
    br_gnuplot_string(f, title);
    fputs(" noenhanced\nset xlabel ", f);
    char xl[512];
    if (p->mode == X_PARAM)
        snprintf(xl, sizeof xl, "%s%s", against, p->log2x ? " (log2 scale)" : "");
    else if (p->mode == X_BYTES || p->mode == X_FLOPS)
        snprintf(xl, sizeof xl, "%s (log scale)", against);
    else
        snprintf(xl, sizeof xl, "%s", against);
    br_gnuplot_string(f, xl);
    fputs(" noenhanced\nset ylabel ", f);
    br_gnuplot_string(f, br_metric_unit(v->metric));
    fputs(" noenhanced\n", f);
    panel1_xaxis(f, p);
    put_yscale(f, p->ylo, p->yhi);
    fputs("set key below height 1\n", f);
    size_t m = 0;
    for (size_t k = 0; k < r->n_kernels; k++) {
        if (!p->drawn[k])
            continue;
        fprintf(f, "%s$size%zu using 1:2 with linespoints lw 1.5 title ",
                m++ ? ", \\\n     " : "plot ", k);
        br_gnuplot_string(f, r->kernels[k].name);
        fputs(" noenhanced", f);
    }
    if (m == 0)
        fputs("set label 1 \"no measured case in the newest run\" at graph 0.5, 0.5 center\n"
              "unset xtics\nunset ytics\nset xrange [0:1]\nset yrange [0:1]\nunset logscale\n"
              "plot NaN notitle\nunset label 1\nset xtics\nset ytics\nset autoscale\n",
              f);
    else
        fputc('\n', f);
}

/* Panel 2's data: a block $caseR per row R with a measured value, "run
 * value" lines, a blank line (a gap in the line) where the case was not
 * measured. Sets drawn[R]; returns the number of blocks and the y range. */
static size_t panel2_data(FILE *f, const br_history_view *v, int *drawn, double *ylo, double *yhi) {
    size_t n_lines = 0;
    *ylo = INFINITY;
    *yhi = -INFINITY;
    for (size_t row = 0; row < v->n_rows; row++) {
        int any = 0, gap = 0;
        for (size_t j = 0; j < v->n; j++) {
            const br_history_cell *c = br_history_view_cell(v, row, j);
            const br_run *r = br_history_view_run(v, j);
            double y = c->ci == BR_HISTORY_NONE
                           ? NAN
                           : br_history_case_value(r, &r->cases[c->ci], v->metric);
            if (!isfinite(y)) {
                gap = any;
                continue;
            }
            if (!any) {
                const br_run *lr = br_history_view_run(v, v->rows[row].run);
                const br_case_result *lc = &lr->cases[v->rows[row].ci];
                char params[512];
                br_history_params_label(params, sizeof params, lr, lc);
                fprintf(f, "# panel 2, %s%s%s: run, %s\n$case%zu << EOD\n",
                        br_history_kernel_of(lr, lc), params[0] ? " " : "", params,
                        br_metric_unit(v->metric), row);
            }
            if (gap)
                fputc('\n', f);
            any = 1;
            gap = 0;
            fprintf(f, "%zu %.7g\n", j + 1, y);
            *ylo = fmin(*ylo, y);
            *yhi = fmax(*yhi, y);
        }
        if (any) {
            fputs("EOD\n", f);
            drawn[row] = 1;
            n_lines++;
        }
    }
    return n_lines;
}

/* Panel 2's change points: a block $changes of "run value" lines, one per
 * change point of v (the value of its first run at the new level). */
static void panel2_changes(FILE *f, const br_history_view *v) {
    if (v->n_changes == 0)
        return;
    fputs("# panel 2, change points (E-divisive means): run, value at the first run at the new "
          "level\n$changes << EOD\n",
          f);
    for (size_t k = 0; k < v->n_changes; k++) {
        const br_history_change *ch = &v->changes[k];
        const br_run *r = br_history_view_run(v, ch->run);
        const br_history_cell *c = br_history_view_cell(v, ch->row, ch->run);
        fprintf(f, "%zu %.7g\n", ch->run + 1,
                br_history_case_value(r, &r->cases[c->ci], v->metric));
    }
    fputs("EOD\n", f);
}

/* Panel 2's vertical marks: a dashed line at each run where a case's level
 * shifted (once per run). */
static void panel2_marks(FILE *f, const br_history_view *v) {
    for (size_t k = 0; k < v->n_changes; k++) {
        size_t run = v->changes[k].run, seen = 0;
        for (size_t i = 0; i < k && !seen; i++)
            seen = v->changes[i].run == run;
        if (!seen)
            fprintf(f,
                    "set arrow from %zu, graph 0 to %zu, graph 1 nohead back dt 2 lw 1 lc rgb "
                    "\"#d62728\"\n",
                    run + 1, run + 1);
    }
}

/* Panel 2's commands. */
static void panel2_commands(FILE *f, const br_history_view *v, const int *drawn, size_t n_lines,
                            double ylo, double yhi) {
    const br_run *nr = v->newest;
    int keys = n_lines <= BR_HISTORY_PLOT_MAX_KEYS;
    char title[1024], marks[128] = "";
    if (v->n_changes > 0)
        snprintf(marks, sizeof marks, "; %zu change point%s circled, dashed", v->n_changes,
                 v->n_changes == 1 ? "" : "s");
    if (keys)
        snprintf(title, sizeof title, "%s: %s across commits, oldest to newest%s",
                 nr->suite_name ? nr->suite_name : "?", br_metric_unit(v->metric),
                 marks[0] ? marks : "");
    else
        snprintf(title, sizeof title,
                 "%s: %s across commits, oldest to newest (%zu cases: no legend above %d%s)",
                 nr->suite_name ? nr->suite_name : "?", br_metric_unit(v->metric), n_lines,
                 BR_HISTORY_PLOT_MAX_KEYS, marks);
    fputs("\n# panel 2: every case across the runs\nset title ", f);
    br_gnuplot_string(f, title);
    fputs(" noenhanced\nset xlabel \"commit (run)\" noenhanced\nset ylabel ", f);
    br_gnuplot_string(f, br_metric_unit(v->metric));
    fprintf(f, " noenhanced\nunset logscale x\nset format x \"%% h\"\nset xrange [0.5:%zu.5]\n",
            v->n);
    size_t every = v->n > 40 ? (v->n + 39) / 40 : 1;
    fprintf(f, "set xtics %snoenhanced (", v->n > 8 ? "rotate by -45 " : "norotate ");
    for (size_t j = 0, m = 0; j < v->n; j++) {
        if (j % every != 0 && j + 1 != v->n)
            continue;
        char label[64];
        br_history_label(label, sizeof label, v->h, v->first + j, 0);
        fputs(m++ ? ", " : "", f);
        br_gnuplot_string(f, label);
        fprintf(f, " %zu", j + 1);
    }
    fputs(")\n", f);
    put_yscale(f, ylo, yhi);
    fputs(keys ? "set key below height 1\n" : "unset key\n", f);
    if (n_lines == 0) {
        fputs("set label 1 \"no measured case\" at graph 0.5, 0.5 center\n"
              "unset ytics\nset yrange [0:1]\nunset logscale y\nplot NaN notitle\nunset label 1\n",
              f);
        return;
    }
    panel2_marks(f, v);
    for (size_t row = 0, m = 0; row < v->n_rows; row++) {
        if (!drawn[row])
            continue;
        const br_run *r = br_history_view_run(v, v->rows[row].run);
        const br_case_result *c = &r->cases[v->rows[row].ci];
        fprintf(f, "%s$case%zu using 1:2 with linespoints lw 1.5 ", m++ ? ", \\\n     " : "plot ",
                row);
        if (keys) {
            char name[1024], params[512];
            br_history_params_label(params, sizeof params, r, c);
            snprintf(name, sizeof name, "%s%s%s", br_history_kernel_of(r, c), params[0] ? " " : "",
                     params);
            fputs("title ", f);
            br_gnuplot_string(f, name);
            fputs(" noenhanced", f);
        } else {
            fputs("notitle", f);
        }
    }
    if (v->n_changes > 0)
        fprintf(f,
                ", \\\n     $changes using 1:2 with points pt 6 ps 2.5 lw 2 lc rgb \"#d62728\" %s",
                keys ? "title \"change point\"" : "notitle");
    fputc('\n', f);
}

int br_history_plot_script(FILE *f, const br_history *h, const char *svg_path) {
    if (!h || h->n_runs == 0)
        return br_error_set("nothing to plot: the history holds no run");
    if (br_history_suite_runs(h, 0) != h->n_runs) {
        char suites[512];
        br_history_suite_list(suites, sizeof suites, h);
        return br_error_set("the history holds several suites (%s); --plot draws one: choose it "
                            "with --suite NAME",
                            suites);
    }
    br_history_view v;
    panel1 p1;
    int rc = -1, *drawn = NULL;
    if (br_history_view_build(&v, h, 0, h->n_runs, 0) != 0)
        return -1;
    if (br_history_view_changes(&v, NULL) != 0 || panel1_setup(&p1, &v) != 0) {
        br_history_view_dispose(&v);
        return -1;
    }
    if (!(drawn = calloc(v.n_rows + 1, sizeof *drawn))) {
        br_error_nomem();
        goto done;
    }
    const br_run *r = v.newest;
    const char *suite = r->suite_name ? r->suite_name : "?";
    fprintf(f,
            "# benchrun history --plot: suite '%s', %zu run(s) from %s (benchrun %s)\n"
            "# self-contained: run it with `gnuplot FILE`\n",
            suite, v.n, h->dir ? h->dir : "?", BR_VERSION);
    fputs("set encoding utf8\n"
          "set terminal svg size 1200,900 dynamic enhanced font \"Sans,11\" background rgb "
          "\"white\"\nset output ",
          f);
    br_gnuplot_string(f, svg_path);
    fputs("\n\n", f);
    if (panel1_data(f, &p1, &v) != 0)
        goto done;
    double ylo, yhi;
    size_t n_lines = panel2_data(f, &v, drawn, &ylo, &yhi);
    panel2_changes(f, &v);

    char title[1024];
    if (r->suite_description && r->suite_description[0])
        snprintf(title, sizeof title, "benchrun history: %s - %s", suite, r->suite_description);
    else
        snprintf(title, sizeof title, "benchrun history: %s", suite);
    fputs("\nset grid\nset multiplot layout 2,1 title ", f);
    br_gnuplot_string(f, title);
    fputs(" noenhanced\n", f);
    panel1_commands(f, &p1, &v);
    panel2_commands(f, &v, drawn, n_lines, ylo, yhi);
    fputs(v.n_changes ? "\nunset multiplot\nunset arrow\nunset output\n"
                      : "\nunset multiplot\nunset output\n",
          f);
    rc = ferror(f) ? br_error_set("cannot write the gnuplot script: %s", strerror(errno)) : 0;
done:
    free(drawn);
    free(p1.combos);
    free(p1.drawn);
    br_history_view_dispose(&v);
    return rc;
}

int br_history_have_gnuplot(void) {
    return br_gnuplot_have();
}

/* br_gnuplot_draw's script writer: the history plot. */
static int history_script(FILE *f, void *ctx, const char *svg_path) {
    return br_history_plot_script(f, ctx, svg_path);
}

int br_history_plot(const br_history *h, const char *svg_path) {
    if (!br_gnuplot_have())
        return br_error_set("benchrun history --plot needs gnuplot (apt-get install "
                            "gnuplot-nox); the table above is complete without it");
    return br_gnuplot_draw(svg_path, "--plot", history_script, (void *)h);
}
