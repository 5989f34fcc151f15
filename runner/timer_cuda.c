/* The GPU timer: CUDA events recorded on the case's stream around one
 * execution. Events include the front end's work between the two records
 * (about 2-4 us on an H200; shared/design/MEASUREMENT.md point 3). */
#include <stdlib.h>

#if BR_HAVE_CUDA

#include "cuda_check.h"
#include "error.h"
#include "gpu_kernels.h"
#include "timer.h"

typedef struct cuda_timer {
    cudaStream_t stream;
    cudaEvent_t start, stop;
    void *flush_buf;
    size_t flush_bytes;
    unsigned *sink;
    int sm_count;
} cuda_timer;

static void cuda_close(void *state) {
    cuda_timer *t = state;
    if (!t)
        return;
    if (t->stream)
        cudaStreamSynchronize(t->stream);
    if (t->start)
        cudaEventDestroy(t->start);
    if (t->stop)
        cudaEventDestroy(t->stop);
    cudaFree(t->flush_buf);
    cudaFree(t->sink);
    if (t->stream)
        cudaStreamDestroy(t->stream);
    free(t);
}

static int cuda_open(void **out_state) {
    cuda_timer *t = calloc(1, sizeof *t);
    if (!t)
        return br_error_set("out of memory");
    int dev = 0, l2 = 0;
    if (BR_CUDA(cudaGetDevice(&dev)) ||
        BR_CUDA(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev)) ||
        BR_CUDA(cudaDeviceGetAttribute(&t->sm_count, cudaDevAttrMultiProcessorCount, dev)) ||
        BR_CUDA(cudaStreamCreateWithFlags(&t->stream, cudaStreamNonBlocking)) ||
        BR_CUDA(cudaEventCreate(&t->start)) || BR_CUDA(cudaEventCreate(&t->stop)))
        goto fail;
    /* Twice the L2 size, so that no line of the case's data survives. */
    t->flush_bytes = ((size_t)(l2 > 0 ? l2 : 64 << 20) * 2 + 15) & ~(size_t)15;
    if (BR_CUDA(cudaMalloc(&t->flush_buf, t->flush_bytes)) ||
        BR_CUDA(cudaMalloc((void **)&t->sink, sizeof *t->sink)) ||
        BR_CUDA(cudaMemset(t->flush_buf, 0, t->flush_bytes)) || BR_CUDA(cudaDeviceSynchronize()))
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

static int cuda_flush(void *state) {
    cuda_timer *t = state;
    return BR_CUDA(
        br_gpu_read_flush(t->stream, t->flush_buf, t->flush_bytes, t->sink, t->sm_count));
}

static int cuda_time(void *state, br_exec_fn run, void *ctx, double *out_ns) {
    cuda_timer *t = state;
    if (BR_CUDA(cudaEventRecord(t->start, t->stream)))
        return -1;
    int rc = run(ctx);
    /* Record and wait even when run failed, so nothing stays in flight. */
    cudaError_t rec = cudaEventRecord(t->stop, t->stream);
    cudaError_t sync = cudaEventSynchronize(t->stop);
    if (rc != 0)
        return -1;
    if (BR_CUDA(rec) || BR_CUDA(sync) || BR_CUDA(cudaGetLastError()))
        return -1;
    float ms = 0;
    if (BR_CUDA(cudaEventElapsedTime(&ms, t->start, t->stop)))
        return -1;
    *out_ns = (double)ms * 1e6;
    return 0;
}

const br_timer_ops br_timer_cuda_events = {
    .name = "cuda-events",
    .open = cuda_open,
    .close = cuda_close,
    .stream = cuda_stream,
    .flush = cuda_flush,
    .time = cuda_time,
};

#endif /* BR_HAVE_CUDA */
