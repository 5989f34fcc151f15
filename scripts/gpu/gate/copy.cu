/* SPDX-License-Identifier: Apache-2.0 */
/* copy.cu - a bandwidth-bound float copy for the regression gate's GPU
 * check (scripts/gpu/gate.sh): out[i] = in[i] for n elements, 8 bytes per
 * element (copy.yaml declares 8 * n).
 *
 * A planted slowdown: the environment variable BR_COPY_EXTRA=P (a
 * percentage, 0 to 100) makes the buffers P% longer and the same launch copy
 * all of them, so each execution moves P% more bytes through DRAM than the
 * suite declares, as a regression that touches more memory would. (Copying
 * the first P% a second time, as this did first, cost an H100 only a fifth
 * of the bytes it added: +0.5% for 3%, +1.5% for 10%.) The first n
 * elements are the same, so verify passes either way.
 *
 * Inputs are made on the device (in[i] = (i mod 1021) + 0.5) and verify
 * counts wrong elements on the device: no host copy of 2 GiB at n = 2^28. */
#include <cuda_runtime.h>

#include <stdint.h>
#include <stdlib.h>

#include "benchrun_cuda.h"
#include "benchrun_kernel.h"

#define BLOCK 256

__device__ __forceinline__ float want(int64_t i) {
    return (float)(i % 1021) + 0.5f;
}

__global__ void copy_init(float *in, float *out, int64_t n) {
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        in[i] = want(i);
        out[i] = -1.0f;
    }
}

/* Elements [0, n + extra), each once. */
__global__ void copy_kernel(float *__restrict__ out, const float *__restrict__ in, int64_t n,
                            int64_t extra) {
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n + extra; i += stride)
        out[i] = in[i];
}

__global__ void copy_check(const float *out, int64_t n, unsigned long long *bad) {
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    unsigned long long mine = 0;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        mine += out[i] != want(i);
    if (mine)
        atomicAdd(bad, mine);
}

struct copy_state {
    int64_t n, extra;
    float *in, *out;
    unsigned long long *bad;
    unsigned int blocks;
};

static int setup(br_case *c) {
    copy_state *s = (copy_state *)calloc(1, sizeof *s);
    if (!s)
        return c->api->fail(c, "out of host memory");
    c->state = s;
    if (c->api->param(c, "n", &s->n) != 0)
        return -1;
    if (s->n < 1 || s->n > ((int64_t)1 << 31))
        return c->api->fail(c, "n must be between 1 and 2^31, got %lld", (long long)s->n);
    const char *pct = getenv("BR_COPY_EXTRA");
    double p = pct ? atof(pct) : 0.0;
    if (!(p >= 0 && p <= 100))
        return c->api->fail(c, "BR_COPY_EXTRA must be a percentage from 0 to 100, got '%s'", pct);
    s->extra = (int64_t)((double)s->n * p / 100.0);
    s->in = (float *)c->api->alloc(c, (size_t)(s->n + s->extra) * sizeof(float), BR_MEM_DEVICE);
    s->out = (float *)c->api->alloc(c, (size_t)(s->n + s->extra) * sizeof(float), BR_MEM_DEVICE);
    s->bad = (unsigned long long *)c->api->alloc(c, sizeof *s->bad, BR_MEM_DEVICE);
    if (!s->in || !s->out || !s->bad)
        return -1;
    const int64_t blocks = (s->n + BLOCK - 1) / BLOCK;
    s->blocks = (unsigned int)(blocks < 65536 ? blocks : 65536);
    copy_init<<<s->blocks, BLOCK, 0, br_cuda_stream(c)>>>(s->in, s->out, s->n + s->extra);
    BR_CUDA_TRY(c, cudaGetLastError());
    BR_CUDA_TRY(c, cudaStreamSynchronize(br_cuda_stream(c)));
    return 0;
}

static int run(br_case *c) {
    copy_state *s = (copy_state *)c->state;
    copy_kernel<<<s->blocks, BLOCK, 0, br_cuda_stream(c)>>>(s->out, s->in, s->n, s->extra);
    return br_cuda_launched(c, "copy_kernel");
}

static int verify(br_case *c) {
    copy_state *s = (copy_state *)c->state;
    const cudaStream_t stream = br_cuda_stream(c);
    unsigned long long bad = 0;
    BR_CUDA_TRY(c, cudaMemsetAsync(s->bad, 0, sizeof *s->bad, stream));
    copy_check<<<s->blocks, BLOCK, 0, stream>>>(s->out, s->n, s->bad);
    BR_CUDA_TRY(c, cudaGetLastError());
    BR_CUDA_TRY(c, cudaMemcpyAsync(&bad, s->bad, sizeof bad, cudaMemcpyDeviceToHost, stream));
    BR_CUDA_TRY(c, cudaStreamSynchronize(stream));
    if (bad)
        return c->api->fail(c, "%llu of %lld elements were not copied", bad, (long long)s->n);
    return 0;
}

static void teardown(br_case *c) {
    free(c->state);
}

static const br_kernel kernels[] = {{"copy", setup, run, verify, teardown}};
BR_MODULE(kernels);
