/* SPDX-License-Identifier: Apache-2.0 */
/* The metric table and its accessors (metric.h). A metric's name, as
 * suites and results files write it, is in the name table (names.c). */
#include "metric.h"

#include <math.h>

typedef struct metric_row {
    br_metric metric;
    const char *unit;        /* the label of its values */
    double scale;            /* amount per unit: 1e9 (G), 1e12 (T) */
    int higher_is_better;    /* the direction of better */
    br_metric_amount amount; /* what its value is computed from */
    const char *work;        /* what the amount counts, for messages */
    br_metric_peak peak;     /* what its % of peak is relative to */
    br_metric companion;     /* the second column beside it */
    const char *energy_unit; /* the label of its work per joule */
} metric_row;

/* One row per metric. TOP/s is the INT8 Tensor Core figure (NVIDIA quotes
 * it in TOPS beside the TFLOPS of the floating-point precisions). */
static const metric_row rows[] = {
    {BR_METRIC_NONE, "median time (µs)", NAN, 0, BR_AMOUNT_NONE, "", BR_METRIC_PEAK_NONE,
     BR_METRIC_NONE, "GB/J"},
    {BR_METRIC_GBPS, "GB/s", 1e9, 1, BR_AMOUNT_BYTES, "bytes moved", BR_METRIC_PEAK_BANDWIDTH,
     BR_METRIC_GFLOPS, "GB/J"},
    {BR_METRIC_GFLOPS, "GFLOP/s", 1e9, 1, BR_AMOUNT_OPS, "FLOP", BR_METRIC_PEAK_COMPUTE,
     BR_METRIC_GBPS, "GFLOP/J"},
    {BR_METRIC_TFLOPS, "TFLOP/s", 1e12, 1, BR_AMOUNT_OPS, "FLOP", BR_METRIC_PEAK_COMPUTE,
     BR_METRIC_GBPS, "TFLOP/J"},
    {BR_METRIC_TOPS, "TOP/s", 1e12, 1, BR_AMOUNT_OPS, "operations", BR_METRIC_PEAK_COMPUTE,
     BR_METRIC_GBPS, "TOP/J"},
};

/* m's row; none's for a value outside the enum. */
static const metric_row *row_of(br_metric m) {
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (rows[i].metric == m)
            return &rows[i];
    return &rows[0];
}

const char *br_metric_unit(br_metric m) {
    return row_of(m)->unit;
}

double br_metric_scale(br_metric m) {
    return row_of(m)->scale;
}

int br_metric_higher_is_better(br_metric m) {
    return row_of(m)->higher_is_better;
}

br_metric_amount br_metric_amount_of(br_metric m) {
    return row_of(m)->amount;
}

const char *br_metric_work(br_metric m) {
    return row_of(m)->work;
}

br_metric_peak br_metric_peak_of(br_metric m) {
    return row_of(m)->peak;
}

br_metric br_metric_companion(br_metric m) {
    return row_of(m)->companion;
}

const char *br_metric_energy_unit(br_metric m) {
    return row_of(m)->energy_unit;
}

double br_metric_pick(br_metric m, double of_bytes, double of_ops) {
    switch (br_metric_amount_of(m)) {
    case BR_AMOUNT_BYTES:
        return of_bytes;
    case BR_AMOUNT_OPS:
        return of_ops;
    default:
        return NAN;
    }
}

double br_metric_in_unit(br_metric m, double per_ns) {
    return per_ns / (row_of(m)->scale / 1e9);
}
