/* SPDX-License-Identifier: Apache-2.0 */
/* The roofline chart (roofline_plot.h). */
#include "roofline_plot.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "base/error.h"
#include "gnuplot.h"
#include "model/roofline.h"

/* A case drawn: intensity > 0 and achieved GFLOP/s > 0. */
static int drawn(const br_run *r, const br_case_result *c, br_roofline_point *p) {
    *p = br_roofline_case(r, c);
    return isfinite(p->intensity) && p->intensity > 0.0 && isfinite(c->gflops) && c->gflops > 0.0;
}

/* The device the ceilings are drawn for, and the measured bandwidth of any
 * run on it (NAN when none measured it). */
static const br_run *ceiling_run(const br_run *const *runs, size_t n, double *measured) {
    const br_run *dev = NULL;
    *measured = NAN;
    for (size_t i = 0; i < n; i++) {
        if (!runs[i]->has_device)
            continue;
        if (!dev)
            dev = runs[i];
        double m = runs[i]->device.measured_peak_gbps;
        if (strcmp(runs[i]->device.uuid, dev->device.uuid) == 0 && isfinite(m) && m > 0.0)
            *measured = m;
    }
    return dev;
}

/* The axes' ranges: a decade around every point and the ridge points. */
static void ranges(const br_run *const *runs, size_t n, double ridge, double peak, double *xlo,
                   double *xhi, double *ylo) {
    double lo = ridge, hi = ridge, ymin = peak;
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; k < runs[i]->n_cases; k++) {
            br_roofline_point p;
            const br_case_result *c = &runs[i]->cases[k];
            if (!drawn(runs[i], c, &p))
                continue;
            lo = fmin(lo, p.intensity);
            hi = fmax(hi, p.intensity);
            ymin = fmin(ymin, c->gflops);
        }
    }
    *xlo = pow(10.0, floor(log10(lo)) - 1.0);
    *xhi = pow(10.0, ceil(log10(hi)) + 1.0);
    *ylo = pow(10.0, floor(log10(ymin)) - 1.0);
}

/* One data block per kernel of each run that has a point: "$k<run>_<kernel>"
 * rows "intensity gflops "params"". Returns the number of blocks. */
static size_t put_data(FILE *f, const br_run *const *runs, size_t n) {
    size_t blocks = 0;
    for (size_t i = 0; i < n; i++) {
        const br_run *r = runs[i];
        for (size_t k = 0; k < r->n_kernels; k++) {
            int open = 0;
            for (size_t j = 0; j < r->n_cases; j++) {
                const br_case_result *c = &r->cases[j];
                br_roofline_point p;
                if (c->kernel != k || !drawn(r, c, &p))
                    continue;
                if (!open)
                    fprintf(f, "$k%zu_%zu << EOD\n", i, k);
                open = 1;
                char label[256];
                br_case_label(label, sizeof label, NULL, (const char *const *)r->param_names,
                              c->params, r->n_params);
                fprintf(f, "%.17g %.17g ", p.intensity, c->gflops);
                br_gnuplot_string(f, label);
                fputc('\n', f);
            }
            if (open) {
                fputs("EOD\n", f);
                blocks++;
            }
        }
    }
    return blocks;
}

/* The title, axes and ceilings of device run d. */
static void put_setup(FILE *f, const br_run *d, double measured, const char *svg_path,
                      const double range[3]) {
    const br_device *dev = &d->device;
    double peak = d->peak_gflops > 0.0 ? d->peak_gflops : dev->peak_gflops;
    char title[512];
    if (isfinite(measured))
        snprintf(title, sizeof title,
                 "Roofline of %s: FP32 peak %.0f GFLOP/s, DRAM %.0f GB/s theoretical, %.0f GB/s "
                 "measured",
                 dev->name, peak, dev->peak_gbps, measured);
    else
        snprintf(title, sizeof title,
                 "Roofline of %s: FP32 peak %.0f GFLOP/s, DRAM %.0f GB/s theoretical (no measured "
                 "bandwidth: a suite with `peak: measured` adds it)",
                 dev->name, peak, dev->peak_gbps);
    fputs("set terminal svg size 1100,800 dynamic enhanced font \"sans,12\" background "
          "\"white\"\nset output ",
          f);
    br_gnuplot_string(f, svg_path);
    fputs("\nset title ", f);
    br_gnuplot_string(f, title);
    fputs(" noenhanced\n", f);
    fprintf(f,
            "set logscale xy 10\nset format x \"%%g\"\nset format y \"%%g\"\n"
            "set xlabel \"arithmetic intensity (FLOP/byte)\"\nset ylabel \"GFLOP/s\"\n"
            "set grid xtics ytics mxtics mytics lc rgb \"#dddddd\"\nset key inside right bottom "
            "box opaque noenhanced\nset samples 2000\n"
            "set xrange [%.17g:%.17g]\nset yrange [%.17g:%.17g]\n"
            "P = %.17g\nBt = %.17g\nroof(x, b) = x * b < P ? x * b : P\n",
            range[0], range[1], range[2], peak * 3.0, peak, dev->peak_gbps);
    if (isfinite(measured))
        fprintf(f, "Bm = %.17g\n", measured);
}

/* The plot command: the ceilings, then one points clause and one labels
 * clause per data block. */
static void put_plot(FILE *f, const br_run *const *runs, size_t n, const br_run *d,
                     double measured) {
    double peak = d->peak_gflops > 0.0 ? d->peak_gflops : d->device.peak_gflops;
    fprintf(f,
            "plot roof(x, Bt) with lines lw 2.5 lc rgb \"#333333\" title \"theoretical: "
            "min(%.0f GFLOP/s, %.0f GB/s x intensity), ridge %.3g FLOP/B\"",
            peak, d->device.peak_gbps, br_roofline_ridge(peak, d->device.peak_gbps));
    if (isfinite(measured))
        fprintf(f,
                ", \\\n  roof(x, Bm) with lines lw 2 dt 2 lc rgb \"#cc3311\" title "
                "\"measured: min(%.0f GFLOP/s, %.0f GB/s x intensity), ridge %.3g FLOP/B\"",
                peak, measured, br_roofline_ridge(peak, measured));
    int pt = 5;
    for (size_t i = 0; i < n; i++) {
        const br_run *r = runs[i];
        for (size_t k = 0; k < r->n_kernels; k++) {
            int any = 0;
            for (size_t j = 0; j < r->n_cases && !any; j++) {
                br_roofline_point p;
                any = r->cases[j].kernel == k && drawn(r, &r->cases[j], &p);
            }
            if (!any)
                continue;
            char name[512];
            snprintf(name, sizeof name, "%s/%s", r->suite_name ? r->suite_name : "?",
                     r->kernels[k].name ? r->kernels[k].name : "?");
            fprintf(f, ", \\\n  $k%zu_%zu using 1:2 with points pt %d ps 1.3 title ", i, k, pt);
            br_gnuplot_string(f, name);
            fprintf(f,
                    ", \\\n  $k%zu_%zu using 1:2:3 with labels left offset 0.8,0.4 font \",8\" "
                    "noenhanced notitle",
                    i, k);
            pt = pt >= 13 ? 5 : pt + 2;
        }
    }
    fputc('\n', f);
}

int br_roofline_plot_script(FILE *f, const br_run *const *runs, size_t n, const char *svg_path) {
    double measured;
    const br_run *d = ceiling_run(runs, n, &measured);
    if (!d)
        return br_error_set("--roofline: no run was measured on a GPU: nothing to draw");
    double peak = d->peak_gflops > 0.0 ? d->peak_gflops : d->device.peak_gflops;
    double ridge = br_roofline_ridge(peak, d->device.peak_gbps);
    if (!isfinite(ridge))
        return br_error_set("--roofline: the device's FP32 peak or DRAM bandwidth is unknown");
    double range[3];
    ranges(runs, n, ridge, peak, &range[0], &range[1], &range[2]);
    put_setup(f, d, measured, svg_path, range);
    if (put_data(f, runs, n) == 0)
        return br_error_set("--roofline: no case has a roofline point (a verified GPU case of a "
                            "suite that gives both `bytes` and `flops`, with FLOP > 0)");
    put_plot(f, runs, n, d, measured);
    if (fflush(f) != 0 || ferror(f))
        return br_error_set("cannot write the gnuplot script: %s", strerror(errno));
    return 0;
}

typedef struct plot_ctx {
    const br_run *const *runs;
    size_t n;
} plot_ctx;

static int roofline_script(FILE *f, void *ctx, const char *svg_path) {
    const plot_ctx *p = ctx;
    return br_roofline_plot_script(f, p->runs, p->n, svg_path);
}

int br_roofline_plot(const br_run *const *runs, size_t n, const char *svg_path) {
    if (!br_gnuplot_have())
        return br_error_set("--roofline needs gnuplot (apt-get install gnuplot-nox); the table is "
                            "complete without it");
    plot_ctx ctx = {runs, n};
    return br_gnuplot_draw(svg_path, "--roofline", roofline_script, &ctx);
}
