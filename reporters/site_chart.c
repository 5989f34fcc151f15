/* SPDX-License-Identifier: Apache-2.0 */
/* One chart of the site (site.h): its gnuplot commands,
 * appended to the site's one script, and the SVG of links laid over it in
 * the page, both placing a point by the same margins and ranges. */
#include "site_chart.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gnuplot.h"

/* The plot area in screen fractions (gnuplot's `at screen`). */
#define L 0.10
#define R 0.97
#define B 0.25 /* under the plot: the tics, the x label, then the key */
#define T 0.88

static const char *const colours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd"};

/* The ranges of c, padded by 5% (a constant series by 1% of its value). */
static void ranges(const br_site_chart *c, double *x0, double *x1, double *y0, double *y1) {
    *x0 = *y0 = INFINITY;
    *x1 = *y1 = -INFINITY;
    for (size_t s = 0; s < c->n_series; s++) {
        for (size_t k = 0; k < c->series[s].n; k++) {
            const br_site_point *p = &c->series[s].pts[k];
            *x0 = fmin(*x0, p->x);
            *x1 = fmax(*x1, p->x);
            *y0 = fmin(*y0, p->y);
            *y1 = fmax(*y1, p->y);
        }
    }
    if (!(*x0 <= *x1)) {
        *x0 = 0;
        *x1 = 1;
        *y0 = 0;
        *y1 = 1;
    }
    double dx = *x1 - *x0, dy = *y1 - *y0;
    if (dx <= 0)
        dx = fabs(*x0) > 0 ? fabs(*x0) * 0.1 : 1;
    if (dy <= 0)
        dy = fabs(*y0) > 0 ? fabs(*y0) * 0.02 : 1;
    *x0 -= 0.04 * dx;
    *x1 += 0.04 * dx;
    *y0 -= 0.08 * dy;
    *y1 += 0.08 * dy;
}

/* A tic label as gnuplot's enhanced text: an exponent in braces ("2^15"
 * as "2^{15}", or gnuplot raises the 1 alone), the characters enhanced
 * text would read (_ @ & ~ { } \\) escaped. */
static void put_tic(FILE *f, const char *label) {
    char buf[256];
    size_t n = 0;
    for (const char *s = label; *s && n + 8 < sizeof buf; s++) {
        if (*s == '^' && (isdigit((unsigned char)s[1]) || s[1] == '-')) {
            buf[n++] = '^';
            buf[n++] = '{';
            for (s++; (isdigit((unsigned char)*s) || *s == '-') && n + 2 < sizeof buf; s++)
                buf[n++] = *s;
            buf[n++] = '}';
            s--;
        } else if (strchr("_@&~{}\\", *s)) {
            buf[n++] = '\\';
            buf[n++] = *s;
        } else {
            buf[n++] = *s;
        }
    }
    buf[n] = '\0';
    br_gnuplot_string(f, buf);
}

int br_site_chart_script(FILE *f, const br_site_chart *c, const char *svg_path) {
    double x0, x1, y0, y1;
    ranges(c, &x0, &x1, &y0, &y1);
    fprintf(f, "reset\nset terminal svg size %d,%d font \"sans,11\" background \"white\"\n",
            BR_SITE_CHART_W, BR_SITE_CHART_H);
    fputs("set output ", f);
    br_gnuplot_string(f, svg_path);
    fprintf(f,
            "\nset lmargin at screen %g\nset rmargin at screen %g\nset bmargin at screen %g\n"
            "set tmargin at screen %g\nset xrange [%.17g:%.17g]\nset yrange [%.17g:%.17g]\n"
            "set grid lc rgb \"#dddddd\"\n"
            "set key at screen 0.5,0.01 center bottom horizontal noenhanced\n"
            "set border 3\nset tics nomirror\n",
            L, R, B, T, x0, x1, y0, y1);
    fputs("set title noenhanced ", f);
    br_gnuplot_string(f, c->title);
    fputs("\nset ylabel noenhanced ", f);
    br_gnuplot_string(f, c->ylabel);
    fputs("\nset xlabel noenhanced ", f);
    br_gnuplot_string(f, c->xlabel);
    fputs("\nset xtics (", f);
    for (size_t k = 0; k < c->n_tics; k++) {
        fputs(k ? ", " : "", f);
        put_tic(f, c->tics[k].label);
        fprintf(f, " %.17g", c->tics[k].x);
    }
    fputs(")\n", f);
    for (size_t s = 0; s < c->n_series; s++) {
        fprintf(f, "$s%zu << EOD\n", s);
        for (size_t k = 0; k < c->series[s].n; k++)
            fprintf(f, "%.17g %.17g\n", c->series[s].pts[k].x, c->series[s].pts[k].y);
        fputs("EOD\n", f);
    }
    if (c->n_marks) {
        fputs("$cp << EOD\n", f);
        for (size_t k = 0; k < c->n_marks; k++)
            fprintf(f, "%.17g %.17g\n", c->marks[k].x, c->marks[k].y);
        fputs("EOD\n", f);
    }
    fputs("plot ", f);
    for (size_t s = 0; s < c->n_series; s++) {
        fprintf(f, "%s$s%zu using 1:2 with %s pt 7 ps 0.5 lw 1.5 lc rgb \"%s\" title ",
                s ? ", " : "", s, c->lines ? "linespoints" : "points",
                colours[s % (sizeof colours / sizeof *colours)]);
        br_gnuplot_string(f, c->series[s].name);
    }
    if (c->n_marks)
        fputs(", $cp using 1:2 with points pt 6 ps 2.2 lw 2 lc rgb \"#d62728\" title "
              "\"change point\"",
              f);
    fputs("\n", f);
    return ferror(f) ? -1 : 0;
}

static void put_attr(FILE *f, const char *s) {
    for (; s && *s; s++) {
        switch (*s) {
        case '&':
            fputs("&amp;", f);
            break;
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        default:
            fputc(*s, f);
        }
    }
}

void br_site_chart_html(FILE *f, const br_site_chart *c, const char *svg_name) {
    double x0, x1, y0, y1;
    ranges(c, &x0, &x1, &y0, &y1);
    const double w = BR_SITE_CHART_W, h = BR_SITE_CHART_H;
#define PX(x) ((L + ((x)-x0) / (x1 - x0) * (R - L)) * w)
#define PY(y) (h - (B + ((y)-y0) / (y1 - y0) * (T - B)) * h)
    fprintf(f, "<figure class=\"chart\" data-points=\"%zu\">\n<div class=\"frame\">",
            c->series ? c->series[0].n : 0);
    if (svg_name) {
        fputs("<img src=\"", f);
        put_attr(f, svg_name);
        fputs("\" alt=\"", f);
        put_attr(f, c->title);
        fprintf(f, "\" width=\"%d\" height=\"%d\">", BR_SITE_CHART_W, BR_SITE_CHART_H);
    }
    fprintf(f, "<svg class=\"links\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\">\n",
            BR_SITE_CHART_W, BR_SITE_CHART_H, BR_SITE_CHART_W, BR_SITE_CHART_H);
    for (size_t s = 0; s < c->n_series; s++) {
        for (size_t k = 0; k < c->series[s].n; k++) {
            const br_site_point *p = &c->series[s].pts[k];
            fputs("<a href=\"", f);
            put_attr(f, p->href);
            fprintf(f,
                    "\"><circle class=\"pt\" data-series=\"%zu\" data-run=\"%zu\" cx=\"%.1f\" "
                    "cy=\"%.1f\" r=\"5\"><title>",
                    s, p->run, PX(p->x), PY(p->y));
            put_attr(f, p->tip);
            fputs("</title></circle></a>\n", f);
        }
    }
    for (size_t k = 0; k < c->n_marks; k++) {
        const br_site_point *p = &c->marks[k];
        fputs("<a href=\"", f);
        put_attr(f, p->href);
        fprintf(f,
                "\"><circle class=\"cp\" data-run=\"%zu\" cx=\"%.1f\" cy=\"%.1f\" r=\"9\">"
                "<title>",
                p->run, PX(p->x), PY(p->y));
        put_attr(f, p->tip);
        fputs("</title></circle></a>\n", f);
    }
#undef PX
#undef PY
    fputs("</svg></div>\n<figcaption>", f);
    put_attr(f, c->caption ? c->caption : c->title);
    fputs("</figcaption></figure>\n", f);
}
