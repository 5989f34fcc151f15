/* SPDX-License-Identifier: Apache-2.0 */
/* `benchrun publish RESULTS_DIR -o SITE`: the history of a
 * results directory (read through its index, history/index.h) written as a
 * static site (reporters/site.h), atomically: into a temporary directory
 * beside SITE, then renamed over it. */
#ifndef BR_PUBLISH_H
#define BR_PUBLISH_H

#include <stdio.h>

#include "reporters/site.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct br_publish_opts {
    const char *results_dir; /* the results files (any *.json directly in it) */
    const char *site;        /* the site's directory: new, or one benchrun publish wrote */
    const char *suite;       /* only this suite (the files of others skipped, said); NULL: all */
    br_site_opts site_opts;  /* charts: set by br_publish from whether gnuplot is there */
} br_publish_opts;

/* The marker a site holds: a directory with it is one publish may replace. */
#define BR_PUBLISH_MARKER ".benchrun-site"

/* Publish o->results_dir into o->site (trailing slashes ignored). Each
 * skipped file (truncated, not a results document, unreadable, over the
 * results limit, another suite's) is said on `notes` ("PATH: why"), the
 * rest published; a missing gnuplot is said once and the pages have
 * tables only. --against that no run's commit matches is an error. The
 * site appears whole or not at all: written into a temporary folder
 * (base/tmp.h; those of killed publishes beside it are removed by its
 * rules, and "SITE.tmp-XXXXXX" of older versions when a day old), then
 * exchanged with an existing SITE (renameat2
 * RENAME_EXCHANGE; two renames where the file system cannot) and the old
 * one removed. An existing SITE that is not a directory publish wrote
 * (no BR_PUBLISH_MARKER) and not empty is never replaced. *st gets the
 * counts. Returns 0, or -1 with the error set (nothing left behind). */
int br_publish(const br_publish_opts *o, FILE *notes, br_site_stats *st);

#ifdef __cplusplus
}
#endif
#endif
