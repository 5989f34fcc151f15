/* SPDX-License-Identifier: Apache-2.0 */
/* The metric table: per metric (the suite key `metric`) its unit label, its
 * scale, which direction is better, what its value is computed from and
 * which peak its % of peak is relative to. One row per metric; everything
 * that prints, compares or computes a metric reads it through the
 * br_metric_* accessors below (a case's figures: br_case_metric_value and
 * its peers in run.h), so adding a metric is its value in br_metric
 * (types.h), one row here and its name in the name table (names.c). The
 * model is curl's tool_writeout.c `variables[]`: one table of what each
 * output variable is. */
#ifndef BR_METRIC_H
#define BR_METRIC_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a metric's value is computed from: the suite's `bytes` or `flops`
 * (FLOP or, for TOP/s, integer operations per execution). */
typedef enum br_metric_amount {
    BR_AMOUNT_NONE = 0,  /* only times: no amount */
    BR_AMOUNT_BYTES = 1, /* `bytes`, the case's bytes */
    BR_AMOUNT_OPS = 2    /* `flops`, the case's flops */
} br_metric_amount;

/* Which peak a metric's % of peak is relative to. The compute peak is the
 * case's precision's (run.h, br_run_case_peak); the bandwidth peak is the
 * run's peak_gbps (theoretical or measured as `peak` says). */
typedef enum br_metric_peak {
    BR_METRIC_PEAK_NONE = 0,      /* no % of peak */
    BR_METRIC_PEAK_BANDWIDTH = 1, /* the DRAM bandwidth, GB/s */
    BR_METRIC_PEAK_COMPUTE = 2    /* the compute peak, GFLOP/s (GOP/s) */
} br_metric_peak;

/* The unit label reports print for m's values ("GB/s", "TFLOP/s"; "median
 * time (µs)" for none, whose value is the headline median), static. */
const char *br_metric_unit(br_metric m);

/* The amount (bytes or operations) in one unit of m: 1e9 for the G
 * metrics, 1e12 for the T ones (1 GB = 1e9 B, 1 TFLOP = 1e12 FLOP); NAN
 * for none and values outside the enum. */
double br_metric_scale(br_metric m);

/* 1 when a higher value of m is better (the throughput metrics), 0 when a
 * lower one is (none: the time). */
int br_metric_higher_is_better(br_metric m);

/* What m's value is computed from; BR_AMOUNT_NONE for none. */
br_metric_amount br_metric_amount_of(br_metric m);

/* What m's amount counts, as messages say it ("bytes moved", "FLOP",
 * "operations"; "" for none), static. */
const char *br_metric_work(br_metric m);

/* What m's % of peak is relative to; BR_METRIC_PEAK_NONE for none. */
br_metric_peak br_metric_peak_of(br_metric m);

/* The metric shown beside m in a second column when the cases have the
 * other amount (GB/s beside a compute metric, GFLOP/s beside GB/s);
 * BR_METRIC_NONE for none. */
br_metric br_metric_companion(br_metric m);

/* The unit label of m's work per joule ("GB/J", "GFLOP/J", "TFLOP/J"; "GB/J"
 * for none), static; the energy columns use it with br_case_per_joule. */
const char *br_metric_energy_unit(br_metric m);

/* The figure of m's amount among two: of_bytes when m is computed from
 * bytes, of_ops when from operations, NAN for none. Pure. */
double br_metric_pick(br_metric m, double of_bytes, double of_ops);

/* A rate in m's amount per ns (GB/s for bytes, GFLOP/s for operations) in
 * m's unit: per_ns / (scale / 1e9), exact for the G metrics (/ 1) and the T
 * ones (/ 1000); NAN for none. Pure. */
double br_metric_in_unit(br_metric m, double per_ns);

#ifdef __cplusplus
}
#endif
#endif
