/* SPDX-License-Identifier: Apache-2.0 */
/* The roofline chart (roofline_plot.h). */
#include "roofline_plot.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "base/error.h"
#include "gnuplot.h"
#include "model/roofline.h"
#include "model/run.h"

/* A case drawn: intensity > 0 and achieved GFLOP/s > 0. */
static int drawn(const br_run *r, const br_case_result *c, br_roofline_point *p) {
    *p = br_roofline_case(r, c);
    return isfinite(p->intensity) && p->intensity > 0.0 && isfinite(c->gflops) && c->gflops > 0.0;
}

/* The compute ceilings drawn: each precision of a drawn case of a run on
 * device run d, its peak at the maximum SM clock (d's recorded compute
 * peak; for FP32 without one, d's FP32 peak). peaks[p] is NAN for a
 * precision not drawn. Returns the highest peak (NAN when none). */
static double ceilings(const br_run *const *runs, size_t n, const br_run *d,
                       double peaks[BR_PRECISION_COUNT]) {
    for (int p = 0; p < BR_PRECISION_COUNT; p++)
        peaks[p] = NAN;
    double top = NAN;
    for (size_t i = 0; i < n; i++) {
        const br_run *r = runs[i];
        if (!r->has_device || strcmp(r->device.uuid, d->device.uuid) != 0)
            continue;
        for (size_t k = 0; k < r->n_cases; k++) {
            br_roofline_point pt;
            const br_case_result *c = &r->cases[k];
            br_precision p = br_precision_effective(c->precision);
            if ((int)p >= BR_PRECISION_COUNT || !isnan(peaks[p]) || !drawn(r, c, &pt))
                continue;
            double v = br_run_case_peak_max(r, c);
            if (!(v > 0.0) && p == BR_PRECISION_FP32)
                v = d->peak_gflops > 0.0 ? d->peak_gflops : d->device.peak_gflops;
            if (v > 0.0 && isfinite(v)) {
                peaks[p] = v;
                top = isnan(top) ? v : fmax(top, v);
            }
        }
    }
    return top;
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

/* The axes' ranges: a decade around every point and the ridge points
 * (ridge: the lowest ceiling's and the highest's; peak: the highest
 * ceiling). */
static void ranges(const br_run *const *runs, size_t n, const double ridge[2], double peak,
                   double *xlo, double *xhi, double *ylo) {
    double lo = ridge[0], hi = ridge[1], ymin = peak;
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

/* "fp32 66.9 TFLOP/s, fp16-tensor 1070 TFLOP/s" of the ceilings drawn. */
static void ceiling_names(char *buf, size_t len, const double peaks[BR_PRECISION_COUNT]) {
    size_t used = 0;
    buf[0] = '\0';
    for (int p = 0; p < BR_PRECISION_COUNT && used < len; p++) {
        if (isnan(peaks[p]))
            continue;
        int w = snprintf(buf + used, len - used, "%s%s %.4g TFLOP/s", used ? ", " : "",
                         br_precision_name((br_precision)p), peaks[p] / 1e3);
        used += w > 0 ? (size_t)w : 0;
    }
}

/* The title, axes and ceilings of device run d. */
static void put_setup(FILE *f, const br_run *d, double measured, const char *svg_path,
                      const double range[3], const double peaks[BR_PRECISION_COUNT], double top) {
    const br_device *dev = &d->device;
    char title[1024], dram[256], names[512]; /* title: 39 + 255 + 511 bytes at most */
    ceiling_names(names, sizeof names, peaks);
    snprintf(title, sizeof title, "Roofline of %s: %s at the maximum SM clock", dev->name, names);
    if (isfinite(measured))
        snprintf(dram, sizeof dram, "DRAM %.0f GB/s theoretical, %.0f GB/s measured",
                 dev->peak_gbps, measured);
    else
        snprintf(dram, sizeof dram,
                 "DRAM %.0f GB/s theoretical (no measured bandwidth: a suite with `peak: "
                 "measured` adds it)",
                 dev->peak_gbps);
    fputs("set terminal svg size 1100,800 dynamic enhanced font \"sans,12\" background "
          "\"white\"\nset output ",
          f);
    br_gnuplot_string(f, svg_path);
    fputs("\nset title ", f); /* two lines: the ceilings, then DRAM's */
    br_gnuplot_string(f, title);
    fputs(".\"\\n\".", f);
    br_gnuplot_string(f, dram);
    fputs(" noenhanced\n", f);
    fprintf(f,
            "set logscale xy 10\nset format x \"%%g\"\nset format y \"%%g\"\n"
            "set xlabel \"arithmetic intensity (FLOP/byte)\"\nset ylabel \"GFLOP/s\"\n"
            "set grid xtics ytics mxtics mytics lc rgb \"#dddddd\"\nset key inside right bottom "
            "box opaque noenhanced\nset samples 2000\n"
            "set xrange [%.17g:%.17g]\nset yrange [%.17g:%.17g]\n"
            "Bt = %.17g\nroof(x, b, p) = x * b < p ? x * b : p\n",
            range[0], range[1], range[2], top * 3.0, dev->peak_gbps);
    if (isfinite(measured))
        fprintf(f, "Bm = %.17g\n", measured);
}

/* The plot command: the ceilings, then one points clause and one labels
 * clause per data block. */
static void put_plot(FILE *f, const br_run *const *runs, size_t n, const br_run *d, double measured,
                     const double peaks[BR_PRECISION_COUNT], double top) {
    static const char *const colour[] = {"#333333", "#0077bb", "#009988", "#ee7733",
                                         "#aa3377", "#bbbb00", "#666666"};
    const char *sep = "plot ";
    int ci = 0;
    for (int p = 0; p < BR_PRECISION_COUNT; p++) {
        if (isnan(peaks[p]))
            continue;
        fprintf(f,
                "%sroof(x, Bt, %.17g) with lines lw 2.5 lc rgb \"%s\" title \"%s: min(%.0f "
                "GFLOP/s, %.0f GB/s x intensity), ridge %.3g FLOP/B\"",
                sep, peaks[p], colour[ci], br_precision_name((br_precision)p), peaks[p],
                d->device.peak_gbps, br_roofline_ridge(peaks[p], d->device.peak_gbps));
        ci = ci + 1 < (int)(sizeof colour / sizeof *colour) ? ci + 1 : ci;
        sep = ", \\\n  ";
    }
    if (isfinite(measured))
        fprintf(f,
                ", \\\n  roof(x, Bm, %.17g) with lines lw 2 dt 2 lc rgb \"#cc3311\" title "
                "\"measured DRAM: min(%.0f GFLOP/s, %.0f GB/s x intensity), ridge %.3g FLOP/B\"",
                top, top, measured, br_roofline_ridge(top, measured));
    int pt = 5;
    for (size_t i = 0; i < n; i++) {
        const br_run *r = runs[i];
        for (size_t k = 0; k < r->n_kernels; k++) {
            const br_case_result *first = NULL; /* the kernel's first point */
            for (size_t j = 0; j < r->n_cases && !first; j++) {
                br_roofline_point p;
                if (r->cases[j].kernel == k && drawn(r, &r->cases[j], &p))
                    first = &r->cases[j];
            }
            if (!first)
                continue;
            char name[512];
            snprintf(name, sizeof name, "%s/%s (%s)", r->suite_name ? r->suite_name : "?",
                     r->kernels[k].name ? r->kernels[k].name : "?",
                     br_precision_name(br_precision_effective(first->precision)));
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
    double peaks[BR_PRECISION_COUNT], top = ceilings(runs, n, d, peaks), low = top;
    for (int p = 0; p < BR_PRECISION_COUNT; p++)
        low = isnan(peaks[p]) ? low : fmin(low, peaks[p]);
    if (isnan(top)) /* no point: still an error below, after the device's figures */
        top = low = d->peak_gflops > 0.0 ? d->peak_gflops : d->device.peak_gflops;
    double ridge[2] = {br_roofline_ridge(low, d->device.peak_gbps),
                       br_roofline_ridge(top, d->device.peak_gbps)};
    if (!isfinite(ridge[0]) || !isfinite(ridge[1]))
        return br_error_set("--roofline: the device's compute peak or DRAM bandwidth is unknown");
    double range[3];
    ranges(runs, n, ridge, top, &range[0], &range[1], &range[2]);
    put_setup(f, d, measured, svg_path, range, peaks, top);
    if (put_data(f, runs, n) == 0)
        return br_error_set("--roofline: no case has a roofline point (a verified GPU case of a "
                            "suite that gives both `bytes` and `flops`, with FLOP > 0)");
    put_plot(f, runs, n, d, measured, peaks, top);
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
