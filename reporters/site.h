/* SPDX-License-Identifier: Apache-2.0 */
/* The pages of `benchrun publish`: a static site (HTML, CSS and
 * SVG charts drawn by gnuplot) of a history (history/history.h), opened
 * from the file system or any web server, with nothing loaded from the
 * network. A view of the history model, as the table and the plot are.
 *
 * The site, under the directory given (publish writes it into a temporary
 * directory, then renames it: drive/publish.h):
 *   index.html                   every suite and device: runs, latest run
 *   style.css
 * (SUITE and DEVICE: the readable name, '-' and a short hash of the name,
 * so that no two names share a folder)
 *   SUITE/DEVICE/index.html      the latest run's table (each case against
 *                                the earlier run chosen), its roofline
 *   SUITE/DEVICE/k-N.html        per kernel: the metric against problem
 *                                size (bytes per execution, log2), latest
 *                                run and the earlier one
 *   SUITE/DEVICE/c-N.html        per case: the metric across commits, change
 *                                points marked, each point linking to its
 *                                run's row (commit, date, spread, samples,
 *                                stop reason)
 * Charts are SVG files drawn by one gnuplot process; over each, the page
 * lays an SVG of links at the same coordinates (the chart's margins and
 * ranges are set explicitly, so both place a point alike): class "pt" for
 * a data point (data-run: its run's position), "cp" for a change point. */
#ifndef BR_SITE_H
#define BR_SITE_H

#include <stddef.h>

#include "history/history.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct br_site_opts {
    const char *against;    /* the earlier run the latest is compared with: a commit (a prefix of
                               its SHA); NULL: the oldest run of the device */
    const char *commit_url; /* a printf pattern with one %s for a full SHA (a web page of the
                               commit); NULL: commits are shown, not linked */
    int charts;             /* 1: draw the charts with gnuplot; 0: tables only */
} br_site_opts;

/* What br_site_write made. */
typedef struct br_site_stats {
    size_t pages, charts, suites, devices, cases, changes;
} br_site_stats;

/* Write the site of h (loaded with its index for the change point cache)
 * into the existing, empty directory `dir`; h->skipped is listed on the
 * front page. Returns 0, or -1 with the error set (a file that cannot be
 * written, gnuplot failing, out of memory). */
int br_site_write(const char *dir, const br_history *h, const br_site_opts *o, br_site_stats *st);

#ifdef __cplusplus
}
#endif
#endif
