/* SPDX-License-Identifier: Apache-2.0 */
/* Where a case sits under the roofline of its device (Williams,
 * Waterman and Patterson, "Roofline: an insightful visual performance model
 * for multicore architectures", CACM 52(4), 2009): arithmetic intensity I =
 * FLOP / byte of one execution (the suite's `flops` and `bytes`), the
 * attainable rate min(P, I x B) for the compute peak P (GFLOP/s, FP32) and a
 * memory bandwidth B (GB/s), the bound it sits under (memory when I x B < P,
 * else compute) and its achieved GFLOP/s as a percentage of that attainable
 * rate. Pure arithmetic over the results model: no I/O, no state. */
#ifndef BR_ROOFLINE_H
#define BR_ROOFLINE_H

#include "run.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum br_bound {
    BR_BOUND_NONE = 0,   /* not placed: a figure or a peak is missing */
    BR_BOUND_MEMORY = 1, /* I x B < P: under the bandwidth ceiling */
    BR_BOUND_COMPUTE = 2 /* I x B >= P: under the compute ceiling */
} br_bound;

/* One case's place under one roofline. */
typedef struct br_roofline_point {
    double intensity;  /* FLOP per byte: flops / bytes; NAN when either is missing or bytes is 0 */
    double attainable; /* min(peak_gflops, intensity x bandwidth), GFLOP/s; NAN when not placed */
    double pct;        /* 100 x achieved GFLOP/s / attainable, percent; NAN when not placed */
    br_bound bound;    /* which ceiling attainable is; BR_BOUND_NONE when not placed */
} br_roofline_point;

/* The point of a kernel doing `flops` FLOP and moving `bytes` bytes per
 * execution at `gflops` GFLOP/s (achieved), under a device of compute peak
 * `peak_gflops` (GFLOP/s) and bandwidth `bandwidth_gbps` (GB/s). intensity
 * is set whenever flops and bytes are finite, flops >= 0 and bytes > 0;
 * attainable, bound and pct need both peaks finite and positive and an
 * intensity > 0 (a kernel doing no arithmetic has no place on a log-log
 * roofline); pct also needs a finite gflops. Pure. */
br_roofline_point br_roofline_place(double flops, double bytes, double gflops, double peak_gflops,
                                    double bandwidth_gbps);

/* The ridge point, FLOP per byte: peak_gflops / bandwidth_gbps, where the
 * two ceilings meet; NAN unless both are finite and positive. Pure. */
double br_roofline_ridge(double peak_gflops, double bandwidth_gbps);

/* 1 when case c of run r has a roofline point: a verified GPU case (host
 * cases are not measured against the device) of a run with a device, and
 * both `bytes` and `flops` given. */
int br_roofline_applies(const br_run *r, const br_case_result *c);

/* The point of case c of run r against the run's peaks: compute peak
 * br_run_case_peak (c's precision's, at the clock it held; for an FP32 case
 * without one, r->peak_gflops or the device's FP32 peak) and bandwidth
 * r->peak_gbps (theoretical or measured as the suite's `peak` says), with c's
 * flops, bytes and gflops (br_run_derive). Every field NAN / BR_BOUND_NONE
 * when br_roofline_applies is 0. Pure. */
br_roofline_point br_roofline_case(const br_run *r, const br_case_result *c);

/* The compute ceiling of case c of run r under its roofline, GFLOP/s:
 * br_run_case_peak, or for an FP32 (or undeclared) case without one the
 * device's FP32 peak; NAN when unknown. Pure. */
double br_roofline_case_peak(const br_run *r, const br_case_result *c);

/* 1 when any case of r has a roofline point (the table then shows its
 * columns). */
int br_roofline_run_has(const br_run *r);

/* "memory", "compute", or NULL for BR_BOUND_NONE (the JSON and CSV name). */
const char *br_bound_name(br_bound b);

#ifdef __cplusplus
}
#endif
#endif
