/* SPDX-License-Identifier: Apache-2.0 */
/* One chart of `benchrun publish`'s site (site.h): series
 * of points, change points marked, drawn by gnuplot into an SVG, with an
 * SVG of links laid over it in the page at the same coordinates. */
#ifndef BR_REPORTERS_SITE_CHART_H
#define BR_REPORTERS_SITE_CHART_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The chart's size in pixels (the SVG's and the overlay's). */
#define BR_SITE_CHART_W 760
#define BR_SITE_CHART_H 340

typedef struct br_site_point {
    double x, y; /* in the axes' units (finite) */
    size_t run;  /* the run's position in its series (data-run) */
    char href[96];
    char tip[160];
} br_site_point;

typedef struct br_site_series {
    const char *name;
    br_site_point *pts;
    size_t n;
} br_site_series;

typedef struct br_site_tic {
    double x;
    char label[32];
} br_site_tic;

typedef struct br_site_chart {
    const char *title, *caption, *xlabel, *ylabel; /* borrowed */
    br_site_series *series;                        /* borrowed; n_series */
    size_t n_series;
    br_site_point *marks; /* change points, borrowed; n_marks */
    size_t n_marks;
    br_site_tic *tics; /* the x axis' labels, borrowed; n_tics */
    size_t n_tics;
    int lines; /* 1: join the points of a series */
} br_site_chart;

/* Append to f the gnuplot commands that draw c into svg_path (a `reset`
 * first, the terminal, the margins at fixed screen fractions and the ranges
 * set explicitly: the overlay's coordinates). Returns 0, or -1 on a write
 * error. */
int br_site_chart_script(FILE *f, const br_site_chart *c, const char *svg_path);

/* Write to f the chart's HTML: a <figure> holding <img src=svg_name> (none
 * when svg_name is NULL: no gnuplot) under an <svg class="links"> with one
 * linked circle per point (class "pt") and per change point ("cp"). */
void br_site_chart_html(FILE *f, const br_site_chart *c, const char *svg_name);

#ifdef __cplusplus
}
#endif
#endif
