/* SPDX-License-Identifier: Apache-2.0 */
/* The kernel clock's collector: CUPTI activity records of the GPU
 * operations (kernels, memcpys, memsets) each sample enqueued.
 *
 * CUPTI's activity API is process-wide, so this is a single collector. The
 * GPU timer (timer_cuda.c) starts it when it opens and, per sample:
 *   br_cupti_push(tag)      before it enqueues the sample's executions,
 *   br_cupti_pop()          after them (outside: flush, hold, clock probes),
 *   br_cupti_collect(...)   after the stream synchronized, for one sample or
 *                           a group of them.
 * br_cupti_collect flushes CUPTI's buffers (cuptiActivityFlushAll: after a
 * synchronisation every record of the samples is complete and delivered) and
 * attributes the records by external correlation id (activity.h).
 *
 * Activity kinds enabled: CONCURRENT_KERNEL, MEMCPY, MEMSET (the operations),
 * RUNTIME, DRIVER and EXTERNAL_CORRELATION (the links from API calls to the
 * pushed tag). Host buffers are requested from CUPTI's own callback as it
 * needs them (8 MiB each), so records are dropped only when memory runs out;
 * drops are counted (cuptiActivityGetNumDroppedRecords) and make the sample
 * incomplete. CUPTI's device-side buffer holds 100,000 operations by default,
 * far more than one sample launches (BR_BATCH_MAX_REPS).
 *
 * Only in builds with CUPTI (BR_HAVE_CUPTI); elsewhere br_cupti_start fails
 * with a message saying so. */
#ifndef BR_CUPTI_H
#define BR_CUPTI_H

#include <stddef.h>
#include <stdint.h>

#include "activity.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Start collecting. Returns 0, or -1 with the error set: benchrun built
 * without CUPTI, or CUPTI refused (no driver support, another profiler such
 * as Nsight Compute attached, insufficient permissions); the message names
 * CUPTI's own error string. Calling it again after success does nothing. */
int br_cupti_start(void);

/* Stop collecting and release the collector's memory (records not collected
 * are discarded). Accepts being called when not started. */
void br_cupti_stop(void);

/* Enter / leave the region whose CUDA calls belong to the sample `tag`
 * (cuptiActivityPushExternalCorrelationId with
 * CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0). Returns 0, or -1 with the error
 * set. */
int br_cupti_push(uint64_t tag);
int br_cupti_pop(void);

/* After the stream that ran the samples tags[0..n) synchronized: deliver
 * every record with one flush (it costs about 0.5 ms on an H100, so the
 * measurement loop collects samples in groups), attribute the operations
 * linked to tags[i] into outs[i] (activity.h; reuses their storage) and
 * discard the rest. `tags` must be strictly increasing. When CUPTI dropped
 * records since the last collection, every outs[i] is marked incomplete (a
 * dropped record cannot be placed). Operations linked to a tag not asked for
 * are counted as late. Returns 0, or -1 with the error set (CUPTI failed,
 * out of memory). */
int br_cupti_collect(br_sample_ops *outs, const uint64_t *tags, size_t n);

/* The case's stream (a cudaStream_t): from now on br_cupti_collect counts
 * the attributed operations that ran on another stream or in another
 * context (br_sample_ops.n_other_stream, n_other_context; activity.h). The
 * stream's id comes from cuptiGetStreamIdEx, its context's from
 * cuptiGetContextId of the driver's cuStreamGetCtx (reached through
 * cudaGetDriverEntryPointByVersion; when that fails only the stream is
 * checked). Returns 0, or -1 with the error set (CUPTI could not name the
 * stream: nothing is checked then). */
int br_cupti_set_home(void *stream);

/* The name table that br_op_record.name and br_op_tally.name index: kernel
 * names demangled (with __cxa_demangle), "memcpy HtoD", "memcpy DtoD", ...,
 * "memset". Borrowed; valid until br_cupti_stop; *out_n receives the count. */
const char *const *br_cupti_names(size_t *out_n);

/* Counters since br_cupti_start: records CUPTI dropped; operations linked to
 * a sample other than the one being collected (delivered late: none are
 * expected, see above). */
size_t br_cupti_dropped(void);
size_t br_cupti_late(void);

#ifdef __cplusplus
}
#endif
#endif
