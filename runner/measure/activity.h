/* SPDX-License-Identifier: Apache-2.0 */
/* The kernel clock's arithmetic: which GPU operations a sample
 * enqueued, and what they add up to. Pure C, no CUPTI: the collector
 * (cupti_collect.c) turns CUPTI activity records into the plain records below, and
 * the unit tests feed synthetic record streams.
 *
 * Attribution. While a sample's executions are enqueued, the timer pushes an
 * external correlation id (the sample's tag) with
 * cuptiActivityPushExternalCorrelationId. CUPTI then emits, for every CUDA API
 * call made inside that region, a link {correlation id of the call -> tag}.
 * Every GPU operation record (kernel, memcpy, memset) carries the correlation
 * id of the API call that enqueued it (for a CUDA graph, of cudaGraphLaunch).
 * An operation belongs to the sample whose tag its correlation id links to.
 * Operations with no link were enqueued outside every sample (the L2 flush,
 * the launch hold, the clock probes, setup and verify): they are excluded.
 * This is the method of PyTorch's profiler (Kineto's CuptiActivityProfiler)
 * and of Nsight Systems' NVTX ranges.
 */
#ifndef BR_ACTIVITY_H
#define BR_ACTIVITY_H

#include <stddef.h>
#include <stdint.h>

#include "model/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One GPU operation as CUPTI recorded it. */
typedef struct br_op_record {
    br_op_kind kind;
    uint32_t name;        /* index into the collector's name table */
    uint32_t correlation; /* correlation id of the API call that enqueued it */
    uint64_t start_ns;    /* GPU start timestamp, ns (CUPTI's time base) */
    uint64_t end_ns;      /* GPU end timestamp, ns; a record with end < start is malformed */
    uint32_t stream;      /* CUPTI's stream id (streamId: unique within a context) */
    uint32_t context;     /* CUPTI's context id (contextId: unique within the process) */
    uint32_t graph;       /* CUPTI's graphId: the CUDA graph that ran it; 0 outside graphs */
} br_op_record;

/* Where a sample's work belongs: the case's stream as CUPTI names it
 * (cuptiGetStreamIdEx, cuptiGetContextId). An attributed operation that ran
 * elsewhere escaped the CUDA events, which are recorded on that stream. */
typedef struct br_op_home {
    int has_context;  /* 1: check the context */
    uint32_t context; /* the case stream's context id */
    int has_stream;   /* 1: check the stream */
    uint32_t stream;  /* the case stream's id */
} br_op_home;

/* CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION: the API call with this
 * correlation id was made while `external` was pushed. */
typedef struct br_corr_link {
    uint32_t correlation;
    uint64_t external;
} br_corr_link;

/* Operations of one name and kind within one sample. */
typedef struct br_op_tally {
    uint32_t name;
    br_op_kind kind;
    size_t count;  /* operations */
    double sum_ns; /* summed durations, ns */
} br_op_tally;

/* What one sample enqueued on the GPU. */
typedef struct br_sample_ops {
    double kernel_ns; /* sum of the durations (end - start) of its operations, ns; operations that
                         overlap count in full, each */
    double span_ns;   /* latest end - earliest start over its operations, ns; 0 with none */
    size_t n_ops;     /* operations attributed */
    int complete;     /* 1: nothing was lost (no dropped or malformed record) */
    size_t n_other_context; /* attributed operations in another context than home's */
    size_t n_other_stream;  /* attributed operations in home's context (or any, when the
                               context is not checked) on another stream than home's */
    uint32_t escaped_name;  /* name index of the first (in record order) of those; UINT32_MAX
                               when there is none */
    br_op_tally *tally;     /* owned: per distinct (name, kind), in order of first start */
    size_t n_tally;
    size_t cap_tally;
} br_sample_ops;

/* Release what *s owns and zero it; accepts NULL. */
void br_sample_ops_dispose(br_sample_ops *s);

/* What an attribution set aside. */
typedef struct br_attr_counts {
    size_t excluded;  /* operations with no link: enqueued outside every sample (helpers) */
    size_t other;     /* operations linked to another tag than the one attributed */
    size_t malformed; /* operations linked to the tag whose end < start; they make the sample
                         incomplete and are not summed */
} br_attr_counts;

/* Attribute to the sample tagged `tag` the operations among ops[0..n_ops)
 * (any order) whose correlation id is linked to `tag` by links[0..n_links)
 * (any order; a correlation id linked twice uses its first link). Fills *out
 * (reusing its tally storage; zero it before the first use) with the kernel
 * time, span, operation count and per-name tallies; out->complete is 0 when
 * `dropped` (records CUPTI reported dropped while the sample ran) is
 * non-zero or a linked record is malformed. `counts` may be NULL. Neither
 * array is modified. Returns 0, or -1 with the error set (out of memory;
 * *out is then disposed). O((n_ops + n_links) log n_links). */
int br_activity_attribute(br_sample_ops *out, br_attr_counts *counts, const br_op_record *ops,
                          size_t n_ops, const br_corr_link *links, size_t n_links, uint64_t tag,
                          size_t dropped);

/* br_activity_attribute, also counting the attributed operations that ran
 * outside `home` (NULL: no check; the counts are then 0) into
 * out->n_other_context and n_other_stream, and naming the first in
 * out->escaped_name. Malformed operations are checked too (their work ran
 * all the same). Operations of a CUDA graph (graph != 0) are not: a graph
 * launched on the case's stream may run its nodes on streams of its own,
 * and stream capture joins every stream it forks before the graph ends, so
 * the events around the launch see all of it. Same contract otherwise. */
int br_activity_attribute_home(br_sample_ops *out, br_attr_counts *counts, const br_op_record *ops,
                               size_t n_ops, const br_corr_link *links, size_t n_links,
                               uint64_t tag, size_t dropped, const br_op_home *home);

/* Per-name accumulation over the kept samples of one measurement. */
typedef struct br_breakdown {
    struct br_breakdown_entry *entries; /* owned; opaque to callers */
    size_t n, cap;
    size_t n_samples; /* samples added */
    double total_ns;  /* kernel time summed over the samples added, ns */
} br_breakdown;

/* Zero *b. */
void br_breakdown_init(br_breakdown *b);

/* Release what *b owns and zero it; accepts NULL. */
void br_breakdown_dispose(br_breakdown *b);

/* Add one kept sample's tallies. Returns 0, or -1 with the error set (out of
 * memory). */
int br_breakdown_add(br_breakdown *b, const br_sample_ops *s);

/* The per-name statistics of the samples added: *out (caller frees each name
 * and the array; NULL with *out_n 0 when there is nothing) in descending
 * order of share, ties by name. `names` maps a tally's name index to its
 * string (indexes at or past n_names become "?"); `reps` is the number of
 * executions per sample (>= 1). Returns 0, or -1 with the error set (out of
 * memory; *out untouched). */
int br_breakdown_finish(br_op_stat **out, size_t *out_n, const br_breakdown *b,
                        const char *const *names, size_t n_names, size_t reps);

#ifdef __cplusplus
}
#endif
#endif
