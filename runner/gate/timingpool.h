/* SPDX-License-Identifier: Apache-2.0 */
/* One timing from several measurements of the same case:
 * `benchrun ab` measures each build of a case in several blocks, and its
 * results document holds, per case and side, the blocks pooled. */
#ifndef BR_TIMINGPOOL_H
#define BR_TIMINGPOOL_H

#include <stddef.h>

#include "model/run.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Pool blocks[0..n) (n >= 1, each present with samples) into *out: the
 * kept samples (and each per-sample array that every block has: sm_mhz,
 * event_ns, kernel_ns, span_ns, ops; else NULL) concatenated in block order;
 * the counts of discarded samples, warmup executions and the warmup and
 * sampling wall times summed; throttled_min_mhz the lowest; the statistics
 * and the medians of the per-sample arrays recomputed over the pooled
 * samples (stats.h); tick_ns the coarsest block's (ns; 0 when no block
 * knows its tick): the rounding that bounds every block's samples; clock,
 * reps, graph, stop and the operation breakdown those of blocks[0]. No
 * run_medians. Dispose *out with br_timing_dispose. Returns 0, or -1 with
 * the error set (out of memory, no block, a block without samples); *out
 * is then zeroed. */
int br_timing_pool(br_timing *out, const br_timing *blocks, size_t n);

#ifdef __cplusplus
}
#endif
#endif
