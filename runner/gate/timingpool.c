/* SPDX-License-Identifier: Apache-2.0 */
/* One timing from several blocks of the same case (timingpool.h). */
#include "timingpool.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"

/* The offsets of br_timing's per-sample arrays. */
static double **array_at(br_timing *t, int which) {
    switch (which) {
    case 0:
        return &t->samples;
    case 1:
        return &t->sm_mhz;
    case 2:
        return &t->event_ns;
    case 3:
        return &t->kernel_ns;
    case 4:
        return &t->span_ns;
    default:
        return &t->ops;
    }
}
#define N_ARRAYS 6

/* Concatenate array `which` of every block into *dst (total values), or
 * leave *dst NULL when a block lacks it. Returns 0, or -1 (out of memory). */
static int concat(double **dst, const br_timing *blocks, size_t n, int which, size_t total) {
    *dst = NULL;
    for (size_t b = 0; b < n; b++)
        if (!*array_at((br_timing *)&blocks[b], which))
            return 0;
    double *v = malloc((total ? total : 1) * sizeof *v);
    if (!v)
        return -1;
    size_t at = 0;
    for (size_t b = 0; b < n; b++) {
        memcpy(v + at, *array_at((br_timing *)&blocks[b], which), blocks[b].n_samples * sizeof *v);
        at += blocks[b].n_samples;
    }
    *dst = v;
    return 0;
}

/* The medians of the pooled per-sample arrays. */
static void pooled_medians(br_timing *out) {
    size_t n = out->n_samples;
    out->sm_mhz_median = out->sm_mhz ? br_stats_finite_median(out->sm_mhz, n) : NAN;
    out->event_median_ns = out->event_ns ? br_stats_finite_median(out->event_ns, n) : NAN;
    out->kernel_median_ns = out->kernel_ns ? br_stats_finite_median(out->kernel_ns, n) : NAN;
    out->span_median_ns = out->span_ns ? br_stats_finite_median(out->span_ns, n) : NAN;
    out->ops_median = out->ops ? br_stats_finite_median(out->ops, n) : NAN;
}

int br_timing_pool(br_timing *out, const br_timing *blocks, size_t n) {
    memset(out, 0, sizeof *out);
    if (n == 0)
        return br_error_set("no block to pool");
    size_t total = 0;
    for (size_t b = 0; b < n; b++) {
        if (!blocks[b].present || !blocks[b].samples || blocks[b].n_samples == 0)
            return br_error_set("block %zu of %zu has no samples", b + 1, n);
        total += blocks[b].n_samples;
    }
    const br_timing *first = &blocks[0];
    out->present = 1;
    out->clock = first->clock;
    out->reps = first->reps;
    out->graph = first->graph;
    out->stop = first->stop;
    out->n_samples = total;
    out->throttled_min_mhz = NAN;
    for (size_t b = 0; b < n; b++) {
        if (blocks[b].tick_ns > out->tick_ns) /* the coarsest; NaN and 0 (unknown) pass */
            out->tick_ns = blocks[b].tick_ns;
        out->n_throttled += blocks[b].n_throttled;
        out->n_incomplete += blocks[b].n_incomplete;
        out->warmup_runs += blocks[b].warmup_runs;
        out->warmup_ns += blocks[b].warmup_ns;
        out->measure_ns += blocks[b].measure_ns;
        if (blocks[b].throttled_min_mhz < out->throttled_min_mhz ||
            (isnan(out->throttled_min_mhz) && !isnan(blocks[b].throttled_min_mhz)))
            out->throttled_min_mhz = blocks[b].throttled_min_mhz;
    }
    for (int a = 0; a < N_ARRAYS; a++)
        if (concat(array_at(out, a), blocks, n, a, total) != 0)
            goto nomem;
    if (first->breakdown && first->n_breakdown) {
        /* The breakdown of block 0, through a copy of that block's timing. */
        br_timing copy;
        br_timing one = *first;
        one.samples = one.sm_mhz = one.event_ns = one.kernel_ns = one.span_ns = one.ops = NULL;
        one.n_samples = 0;
        one.run_medians = NULL;
        one.n_run_medians = 0;
        if (br_timing_copy(&copy, &one) != 0)
            goto fail;
        out->breakdown = copy.breakdown;
        out->n_breakdown = copy.n_breakdown;
    }
    pooled_medians(out);
    if (br_stats_compute(&out->stats, out->samples, out->n_samples) != 0)
        goto fail;
    return 0;
nomem:
    br_error_nomem();
fail:
    br_timing_dispose(out);
    memset(out, 0, sizeof *out);
    return -1;
}
