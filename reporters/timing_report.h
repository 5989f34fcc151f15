/* SPDX-License-Identifier: Apache-2.0 */
/* Where a run's wall time went (--timing-report): per
 * phase the total seconds and the share of the whole, then the slowest
 * cases with their largest phases. Reads only the results (br_case_wall,
 * br_run.compile_ns) and the invocation's own phases, which the results do
 * not hold (the outputs are written after them). */
#ifndef BR_TIMING_REPORT_H
#define BR_TIMING_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "model/run.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The invocation's phases outside the runs, ns (NAN or 0: not measured). */
typedef struct br_timing_invocation {
    double prepare_ns; /* suites read and planned */
    double devices_ns; /* --devices: the devices found and their sessions opened (a worker
                          and a CUDA initialisation each); 0: not a --devices run */
    double outputs_ns; /* comparisons (the gate's A/B confirmation included: the report
                          shows it as its own row, "confirm", from each comparison's
                          br_confirm_info), outputs and baselines written (the report's own
                          printing excluded) */
    double total_ns;   /* the whole invocation up to this report */
} br_timing_invocation;

/* Most cases listed as the slowest. */
#define BR_TIMING_REPORT_SLOWEST 5

/* Write the report of runs[0..n) and inv to f: a header line, one row per
 * phase ("prepare", "devices" when inv->devices_ns is not 0, "compile", the
 * case phases of br_case_wall in order, "outputs", and "unaccounted": the
 * invocation's total less all of them)
 * with seconds and % of the total, then up to BR_TIMING_REPORT_SLOWEST
 * slowest cases (kernel and params, seconds, their three largest phases).
 * Cases without a wall record (skipped, from older files) count nowhere.
 * When the cases ran on several lanes at once (--devices: each device, and
 * the host cases), the case phases overlap: the invocation's rows have one
 * "measuring" row instead (the first case's start to the last one's end,
 * br_case_wall.began_ns), followed by the case phases as shares of the case
 * time summed over the lanes, and per lane its cases, busy time and span.
 * Returns 0, or -1 with the error set (out of memory). */
int br_timing_report_write(FILE *f, const br_run *const *runs, size_t n,
                           const br_timing_invocation *inv);

#ifdef __cplusplus
}
#endif
#endif
