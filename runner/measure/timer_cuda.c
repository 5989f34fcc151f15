/* SPDX-License-Identifier: Apache-2.0 */
/* The GPU timer: CUDA events recorded on the case's stream around one
 * execution (cold) or a batch of back-to-back executions. Events include the
 * front end's work between the two records (about 2-4 us on an H200;
 * shared/design/MEASUREMENT.md point 3).
 *
 * One sample enqueues, in this order:
 *   [flush]  [hold]  probe0  start-event  run x reps  stop-event  probe1
 * then releases the hold and waits for probe1. The hold (a one-thread kernel
 * spinning on a host-mapped flag, as NVBench's blocking kernel) keeps the GPU
 * busy while the host enqueues, so the start event is recorded just before the
 * first execution rather than on an idle GPU long before the launch arrives
 * (MEASUREMENT.md point 1). probe0/probe1 read %globaltimer and clock64(); the
 * SM clock over the sample is their cycle difference over their time
 * difference.
 *
 * With the kernel clock (br_timer_cfg.kernel_clock), the executions are
 * enqueued inside a CUPTI external-correlation region tagged with the
 * sample's number, and after the synchronisation the collector attributes
 * the GPU operations linked to that tag (cupti_collect.h, activity.h): the flush,
 * the hold and the probes lie outside the region and are excluded. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if BR_HAVE_CUDA

#include "platform/cuda_check.h"
#include "cupti_collect.h"
#include "base/error.h"
#include "base/log.h"
#include "gpu_kernels.h"
#include "nvtx.h"
#include "timer.h"

/* Most launches enqueued behind the hold without a graph: CUDA's launch queue
 * is about 1000 entries deep; past it a launch blocks until the GPU drains the
 * queue, which the hold would not let happen until it timed out. */
#define BR_HOLD_MAX_LAUNCHES 256

typedef struct cuda_timer {
    cudaStream_t stream;
    cudaEvent_t start, stop;
    void *flush_buf;
    size_t flush_bytes;
    unsigned *sink;
    int sm_count;
    double tick_ns;        /* %globaltimer's resolution (br_gpu_timer_tick); 0: unknown */
    br_gpu_hold *hold;     /* host-mapped */
    br_gpu_hold *hold_dev; /* its device pointer */
    br_gpu_clock *clock;   /* host-mapped, [2] */
    br_gpu_clock *clock_dev;
    /* The graph of the current case's batch, and what it was captured from. */
    cudaGraphExec_t graph;
    br_exec_fn graph_run;
    void *graph_ctx;
    size_t graph_reps;
    int graph_failed; /* capture failed for this case: run batches as plain launches */
    /* The kernel clock. */
    int cupti;           /* 1: collecting (br_cupti_start succeeded) */
    char cupti_why[512]; /* why not, when it was asked for */
    int cupti_asked;
    uint64_t tag;       /* the last sample's tag */
    br_sample_ops *ops; /* operations of the last sample or resolved group */
    size_t cap_ops;
} cuda_timer;

/* At least n slots in t->ops. */
static int ops_reserve(cuda_timer *t, size_t n) {
    if (n <= t->cap_ops)
        return 0;
    br_sample_ops *p = realloc(t->ops, n * sizeof *p);
    if (!p)
        return br_error_nomem();
    memset(p + t->cap_ops, 0, (n - t->cap_ops) * sizeof *p);
    t->ops = p;
    t->cap_ops = n;
    return 0;
}

static void drop_graph(cuda_timer *t) {
    if (t->graph)
        cudaGraphExecDestroy(t->graph);
    t->graph = NULL;
    t->graph_run = NULL;
    t->graph_ctx = NULL;
    t->graph_reps = 0;
    t->graph_failed = 0;
}

static void cuda_close(void *state) {
    cuda_timer *t = state;
    if (!t)
        return;
    if (t->stream)
        cudaStreamSynchronize(t->stream);
    drop_graph(t);
    if (t->start)
        cudaEventDestroy(t->start);
    if (t->stop)
        cudaEventDestroy(t->stop);
    cudaFree(t->flush_buf);
    cudaFree(t->sink);
    cudaFreeHost(t->hold);
    cudaFreeHost(t->clock);
    if (t->stream)
        cudaStreamDestroy(t->stream);
    if (t->cupti)
        br_cupti_stop();
    for (size_t i = 0; i < t->cap_ops; i++)
        br_sample_ops_dispose(&t->ops[i]);
    free(t->ops);
    free(t);
}

/* t->tick_ns, read by a kernel into the host-mapped clock block (free until
 * the first sample). Returns 0, or -1 with the error set. */
static int measure_tick(cuda_timer *t) {
    uint64_t *word = (uint64_t *)(void *)&t->clock[0];
    uint64_t *word_dev = (uint64_t *)(void *)&t->clock_dev[0];
    *word = 0;
    if (BR_CUDA(br_gpu_timer_tick(t->stream, word_dev)) ||
        BR_CUDA(cudaStreamSynchronize(t->stream)))
        return -1;
    t->tick_ns = (double)*(volatile uint64_t *)word;
    return 0;
}

static double cuda_tick(void *state) {
    return ((cuda_timer *)state)->tick_ns;
}

static int cuda_open(void **out_state, const br_timer_cfg *cfg) {
    cuda_timer *t = calloc(1, sizeof *t);
    if (!t)
        return br_error_nomem();
    if (cfg && cfg->kernel_clock) {
        t->cupti_asked = 1;
        if (br_cupti_start() == 0)
            t->cupti = 1;
        else
            snprintf(t->cupti_why, sizeof t->cupti_why, "%s", br_error_get());
        br_error_clear();
    }
    int dev = 0, l2 = 0;
    if (BR_CUDA(cudaGetDevice(&dev)) ||
        BR_CUDA(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev)) ||
        BR_CUDA(cudaDeviceGetAttribute(&t->sm_count, cudaDevAttrMultiProcessorCount, dev)) ||
        BR_CUDA(cudaStreamCreateWithFlags(&t->stream, cudaStreamNonBlocking)) ||
        BR_CUDA(cudaEventCreate(&t->start)) || BR_CUDA(cudaEventCreate(&t->stop)))
        goto fail;
    if (t->cupti && br_cupti_set_home(t->stream) != 0) {
        /* Not fatal: the kernel clock stands; work off the stream goes unseen. */
        br_log(BR_LOG_WARN, "benchrun: %s: work outside the case's stream cannot be detected\n",
               br_error_get());
        br_error_clear();
    }
    /* Twice the L2 size, so that no line of the case's data survives. */
    t->flush_bytes = ((size_t)(l2 > 0 ? l2 : 64 << 20) * 2 + 15) & ~(size_t)15;
    if (BR_CUDA(cudaMalloc(&t->flush_buf, t->flush_bytes)) ||
        BR_CUDA(cudaMalloc((void **)&t->sink, sizeof *t->sink)) ||
        BR_CUDA(cudaMemset(t->flush_buf, 0, t->flush_bytes)) ||
        BR_CUDA(cudaHostAlloc((void **)&t->hold, sizeof *t->hold, cudaHostAllocMapped)) ||
        BR_CUDA(cudaHostGetDevicePointer((void **)&t->hold_dev, t->hold, 0)) ||
        BR_CUDA(cudaHostAlloc((void **)&t->clock, 2 * sizeof *t->clock, cudaHostAllocMapped)) ||
        BR_CUDA(cudaHostGetDevicePointer((void **)&t->clock_dev, t->clock, 0)) ||
        BR_CUDA(cudaDeviceSynchronize()) || measure_tick(t) != 0)
        goto fail;
    *out_state = t;
    return 0;
fail:
    cuda_close(t);
    return -1;
}

static void *cuda_stream(void *state) {
    return ((cuda_timer *)state)->stream;
}

static void cuda_end_case(void *state) {
    drop_graph(state);
}

static int cuda_resolve(void *state, const uint64_t *tags, size_t n, const br_sample_ops **out,
                        const char *const **names, size_t *n_names) {
    cuda_timer *t = state;
    if (!t->cupti)
        return br_error_set("the GPU timer does not collect the kernel clock");
    if (ops_reserve(t, n ? n : 1) != 0 || br_cupti_collect(t->ops, tags, n) != 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        out[i] = &t->ops[i];
    *names = br_cupti_names(n_names);
    return 0;
}

static int cuda_kernel_clock(void *state, const char **why) {
    cuda_timer *t = state;
    *why = t->cupti_asked && !t->cupti ? t->cupti_why : NULL;
    return t->cupti;
}

/* Capture `reps` executions of run(ctx) into t->graph. Returns 0 when the
 * graph exists, 1 when the kernel cannot be captured (the batch then runs as
 * plain launches; the capture's error is cleared), -1 when run itself failed. */
static int build_graph(cuda_timer *t, br_exec_fn run, void *ctx, size_t reps) {
    drop_graph(t);
    if (cudaStreamBeginCapture(t->stream, cudaStreamCaptureModeThreadLocal) != cudaSuccess) {
        cudaGetLastError();
        t->graph_failed = 1;
        return 1;
    }
    int rc = 0;
    for (size_t i = 0; i < reps && rc == 0; i++)
        rc = run(ctx);
    cudaGraph_t g = NULL;
    cudaError_t e = cudaStreamEndCapture(t->stream, &g);
    if (rc != 0) {
        if (g)
            cudaGraphDestroy(g);
        cudaGetLastError();
        return -1;
    }
    if (e == cudaSuccess && g)
        e = cudaGraphInstantiate(&t->graph, g, 0);
    if (g)
        cudaGraphDestroy(g);
    if (e != cudaSuccess || !t->graph) {
        cudaGetLastError();
        t->graph = NULL;
        t->graph_failed = 1;
        return 1;
    }
    t->graph_run = run;
    t->graph_ctx = ctx;
    t->graph_reps = reps;
    return 0;
}

/* One sample's course, from before its launch to after its wait. */
typedef struct sample_run {
    uint64_t tag;
    size_t reps;
    int use_graph, hold, defer;
    int rc;                     /* the launch's outcome: 0, or -1 with the error set */
    cudaError_t rec, prb, sync; /* stop event, second probe, the wait */
} sample_run;

/* Before the sample: the graph of a batch (built or reused), the flush and
 * the launch hold, all enqueued ahead of the timed span. Returns 0, or -1
 * with the error set. */
static int sample_prepare(cuda_timer *t, const br_sample_opts *o, br_exec_fn run, void *ctx,
                          sample_run *r) {
    if (r->reps > 1 && o->graph && !t->graph_failed) {
        if (!t->graph || t->graph_run != run || t->graph_ctx != ctx || t->graph_reps != r->reps) {
            int g = build_graph(t, run, ctx, r->reps);
            if (g < 0)
                return -1;
        }
        r->use_graph = t->graph != NULL;
    }
    r->hold = o->hold && (r->use_graph || r->reps <= BR_HOLD_MAX_LAUNCHES);
    if (o->flush == BR_FLUSH_READ) {
        if (BR_CUDA(
                br_gpu_read_flush(t->stream, t->flush_buf, t->flush_bytes, t->sink, t->sm_count)))
            return -1;
    } else if (o->flush == BR_FLUSH_MEMSET) {
        if (BR_CUDA(cudaMemsetAsync(t->flush_buf, 0, t->flush_bytes, t->stream)))
            return -1;
    }
    if (r->hold) {
        t->hold->release = 0;
        t->hold->timed_out = 0;
        if (BR_CUDA(br_gpu_hold_launch(t->stream, t->hold_dev, (uint64_t)BR_HOLD_TIMEOUT_NS)))
            return -1;
    }
    return 0;
}

/* After the wait: CUPTI's records collected (or left to cuda_resolve), the
 * errors checked, the event time and the SM clock into *out. Returns 0, or
 * -1 with the error set. */
static int sample_finish(cuda_timer *t, const br_sample_opts *o, sample_run *r, br_sample *out) {
    /* Collect even after a failure, so no record of this sample is left for
     * the next one to count as late. */
    int collected = t->cupti && !r->defer && r->sync == cudaSuccess && r->rc == 0
                        ? (ops_reserve(t, 1) || br_cupti_collect(t->ops, &r->tag, 1))
                        : 0;
    if (r->rc != 0) {
        if (t->cupti && r->sync == cudaSuccess && ops_reserve(t, 1) == 0) {
            char keep[BR_ERROR_MAX];
            snprintf(keep, sizeof keep, "%s", br_error_get());
            br_cupti_collect(t->ops, &r->tag, 1);
            br_error_set("%s", keep);
        }
        return -1;
    }
    if (BR_CUDA(r->rec) || BR_CUDA(r->prb) || BR_CUDA(r->sync) || BR_CUDA(cudaGetLastError()))
        return -1;
    if (r->hold && t->hold->timed_out)
        return br_error_set("the launch hold timed out after %.0f s: the kernel's run waited for "
                            "the GPU (run must only enqueue work); set 'hold: false' under "
                            "'measure' to time such a kernel",
                            BR_HOLD_TIMEOUT_NS / 1e9);
    float ms = 0;
    if (BR_CUDA(cudaEventElapsedTime(&ms, t->start, t->stop)))
        return -1;
    out->ns = (double)ms * 1e6;
    out->graph = r->use_graph;
    if (r->defer) {
        out->tag = r->tag;
    } else if (t->cupti) {
        if (collected != 0)
            return -1;
        out->ops = &t->ops[0];
        out->op_names = br_cupti_names(&out->n_op_names);
    }
    if (o->probe) {
        const br_gpu_clock *a = &t->clock[0], *b = &t->clock[1];
        uint64_t dt = b->globaltimer - a->globaltimer;
        uint64_t dc = b->clock - a->clock;
        /* clock64() counts per SM; two readings on different SMs are only
         * comparable if the counters run in step, so such a pair is dropped. */
        if (a->smid == b->smid && dt > 0 && b->clock > a->clock)
            out->sm_mhz = (double)dc / (double)dt * 1e3;
    }
    return 0;
}

/* One sample. The timed span (start event to stop event, and the CUPTI
 * region around it) stays here whole, with nothing but the launches in it. */
static int cuda_sample(void *state, const br_sample_opts *o, br_exec_fn run, void *ctx,
                       br_sample *out) {
    cuda_timer *t = state;
    out->ns = NAN;
    out->sm_mhz = NAN;
    out->graph = 0;
    out->ops = NULL;
    out->op_names = NULL;
    out->n_op_names = 0;
    out->tag = 0;
    sample_run r = {.tag = ++t->tag, .reps = o->reps ? o->reps : 1};
    if (sample_prepare(t, o, run, ctx, &r) != 0)
        return -1;
    if (o->probe)
        r.rc = BR_CUDA(br_gpu_clock_probe(t->stream, &t->clock_dev[0], NULL, 0));
    /* The CUPTI region opens before the start event and closes after the
     * stop event, so its host calls stay out of the event-timed span (the
     * event records enqueue no GPU operation; the probes stay outside). */
    int pushed = 0;
    if (r.rc == 0 && t->cupti) {
        r.rc = br_cupti_push(r.tag);
        pushed = r.rc == 0;
    }
    /* The NVTX range holds the launches only (nvtx.h), so a profiler that
     * selects by it sees the timed kernels and nothing else. */
    int ranged = r.rc == 0 && o->range;
    if (ranged)
        br_nvtx_push(o->range);
    if (r.rc == 0)
        r.rc = BR_CUDA(cudaEventRecord(t->start, t->stream));
    if (r.rc == 0) {
        if (r.use_graph) {
            r.rc = BR_CUDA(cudaGraphLaunch(t->graph, t->stream));
        } else {
            for (size_t i = 0; i < r.reps && r.rc == 0; i++)
                r.rc = run(ctx) != 0 ? -1 : 0;
        }
    }
    /* Record, release and wait even when something failed, so nothing stays
     * in flight and the hold never waits for its timeout. */
    r.rec = cudaEventRecord(t->stop, t->stream);
    if (ranged)
        br_nvtx_pop();
    if (pushed && br_cupti_pop() != 0 && r.rc == 0)
        r.rc = -1;
    r.prb = cudaSuccess;
    if (o->probe)
        r.prb = br_gpu_clock_probe(t->stream, &t->clock_dev[1], &t->clock_dev[0],
                                   (uint64_t)BR_PROBE_MIN_WINDOW_NS);
    if (r.hold)
        __atomic_store_n(&t->hold->release, 1, __ATOMIC_SEQ_CST);
    r.sync = cudaStreamSynchronize(t->stream);
    r.defer = t->cupti && o->defer;
    return sample_finish(t, o, &r, out);
}

static int cuda_alloc(void *state, void **out, size_t bytes, int pinned, const char **why) {
    (void)state;
    cudaError_t e = pinned ? cudaMallocHost(out, bytes) : cudaMalloc(out, bytes);
    if (e == cudaSuccess)
        return 0;
    *out = NULL;
    *why = cudaGetErrorString(e);
    return -1;
}

static void cuda_free(void *state, void *p, int pinned) {
    (void)state;
    if (pinned)
        cudaFreeHost(p);
    else
        cudaFree(p);
}

static void cuda_clear_error(void *state) {
    (void)state;
    cudaGetLastError();
}

const br_timer_ops br_timer_cuda_events = {
    .name = "cuda-events",
    .open = cuda_open,
    .close = cuda_close,
    .stream = cuda_stream,
    .sample = cuda_sample,
    .tick = cuda_tick,
    .end_case = cuda_end_case,
    .kernel_clock = cuda_kernel_clock,
    .resolve = cuda_resolve,
    .alloc = cuda_alloc,
    .free = cuda_free,
    .clear_error = cuda_clear_error,
};

#endif /* BR_HAVE_CUDA */
