/* SPDX-License-Identifier: Apache-2.0 */
/* reduction.cu - five ways to sum n float32 values on the GPU.
 *
 *   reduce_naive  every thread atomicAdds its element into one accumulator
 *   reduce_smem   shared-memory tree per block, one atomic per block
 *   reduce_warp   __shfl_down_sync within warps, shared memory across warps,
 *                 one atomic per block
 *   reduce_vec    float4 loads, grid-stride loop unrolled 4x over a grid that
 *                 just fills the GPU, warp-shuffle block reduction, one atomic
 *                 per block
 *   reduce_cub    cub::DeviceReduce::Sum
 *
 * Parameter: n (int64, >= 1). Inputs, reference and tolerance come from
 * reduction_common.h (shared with reduction_cpu.c); the inputs are
 * generated on the GPU (red_fill_kernel: the same values as the host's
 * br_red_fill, checked value by value for n <= 2^16) with their exact sum,
 * computed once per input (n, seed) in a worker and kept for the other
 * kernels at the same n.
 *
 * One run is one launch and leaves no state behind. The atomic kernels use the
 * "last block" pattern (CUDA sample threadFenceReduction): each block adds its
 * partial sum into a device accumulator, fences, and takes a ticket from a
 * block counter; the block that draws the last ticket takes the total out of
 * the accumulator with atomicExch(acc, 0), which also resets it, and writes
 * the result. The counter resets itself: atomicInc(count, gridDim.x - 1) wraps
 * to 0 on the last ticket. setup zeroes both once, so run needs no memset. */
#include <cuda_runtime.h>
#include <cub/cub.cuh>

#include <limits.h>
#include <stdlib.h>

#include "benchrun_cuda.h"
#include "benchrun_kernel.h"
#include "reduction_common.h"

/* Threads per block for the hand-written kernels (a power of two, 64..1024). */
#ifndef RED_BLOCK
#define RED_BLOCK 256
#endif
/* Elements per thread in reduce_smem and reduce_warp (one tile of
 * RED_BLOCK * RED_ITEMS elements per block, loaded coalesced, all loads
 * issued before the first add). Fewer blocks mean fewer same-address atomics:
 * on an H200 at n = 2^28 these kernels reach 62% of peak bandwidth with 8,
 * 76% with 16 and 82% with 32 (and the same time as with 8 at n = 2^20). */
#ifndef RED_ITEMS
#define RED_ITEMS 32
#endif
/* float4 loads in flight per thread per iteration of reduce_vec's loop. */
#ifndef RED_UNROLL
#define RED_UNROLL 4
#endif

#define RED_WARPS (RED_BLOCK / 32)
static_assert(RED_BLOCK >= 64 && RED_BLOCK <= 1024 && (RED_BLOCK & (RED_BLOCK - 1)) == 0,
              "RED_BLOCK must be a power of two in [64, 1024]");

enum red_kind { RED_NAIVE, RED_SMEM, RED_WARP, RED_VEC, RED_CUB };

/* Device-side control block. The accumulator and the block counter sit 4 KiB
 * apart: on an H200, 128 bytes apart made reduce_smem/warp ~20% slower at
 * n = 2^28 (their atomics seem to queue at one L2 slice). */
#ifndef RED_CTL_PAD
#define RED_CTL_PAD (4096 - 4)
#endif
struct red_ctl {
    float acc;
    char pad0[RED_CTL_PAD];
    unsigned int count;
    char pad1[RED_CTL_PAD];
    float out; /* the result of the last run */
    char pad2[RED_CTL_PAD];
};

struct red_state {
    enum red_kind kind;
    int64_t n;
    double ref;          /* exact sum of x (host) */
    const float *x;      /* device, n floats (runner allocation) */
    red_ctl *ctl;        /* device (runner allocation) */
    unsigned int blocks; /* grid of the hand-written kernels */
    void *cub_temp;      /* device (runner allocation) */
    size_t cub_temp_bytes;
};

/* ---- device helpers ---------------------------------------------------- */

__device__ __forceinline__ float red_warp_sum(float v) {
#pragma unroll
    for (int off = 16; off > 0; off /= 2)
        v += __shfl_down_sync(0xffffffffu, v, off);
    return v; /* lane 0 holds the warp's sum */
}

/* Sum of v over the block, valid in thread 0. */
__device__ __forceinline__ float red_block_sum_shfl(float v) {
    __shared__ float warp_sums[RED_WARPS];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    v = red_warp_sum(v);
    if (lane == 0)
        warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < RED_WARPS ? warp_sums[lane] : 0.0f;
        v = red_warp_sum(v);
    }
    return v;
}

/* Called by thread 0 of every block, after the block's own atomics: take a
 * ticket; the last block moves the total to ctl->out and leaves acc and count
 * at 0 for the next run. */
__device__ __forceinline__ void red_finish(red_ctl *ctl) {
    __threadfence(); /* this block's adds to acc happen before its ticket */
    unsigned int ticket = atomicInc(&ctl->count, gridDim.x - 1); /* wraps to 0 on the last */
    if (ticket == gridDim.x - 1) {
        __threadfence(); /* ... and before the last block reads acc */
        ctl->out = atomicExch(&ctl->acc, 0.0f);
    }
}

/* ---- kernels ----------------------------------------------------------- */

__global__ void __launch_bounds__(RED_BLOCK)
    reduce_naive_kernel(const float *__restrict__ x, int64_t n, red_ctl *ctl) {
    const int64_t i = (int64_t)blockIdx.x * RED_BLOCK + threadIdx.x;
    if (i < n)
        atomicAdd(&ctl->acc, x[i]);
    __threadfence(); /* each thread's add is performed before thread 0's ticket */
    __syncthreads();
    if (threadIdx.x == 0)
        red_finish(ctl);
}

/* The block's tile: RED_ITEMS loads per thread, RED_BLOCK apart (coalesced),
 * summed into one value per thread. */
__device__ __forceinline__ float red_tile_sum(const float *__restrict__ x, int64_t n) {
    const int64_t base = (int64_t)blockIdx.x * (RED_BLOCK * RED_ITEMS) + threadIdx.x;
    float v[RED_ITEMS];
#pragma unroll
    for (int k = 0; k < RED_ITEMS; k++) {
        const int64_t i = base + (int64_t)k * RED_BLOCK;
        v[k] = i < n ? x[i] : 0.0f;
    }
    float sum = 0.0f; /* after all loads are issued; a plain chain unrolls for any RED_ITEMS */
#pragma unroll
    for (int k = 0; k < RED_ITEMS; k++)
        sum += v[k];
    return sum;
}

__global__ void __launch_bounds__(RED_BLOCK)
    reduce_smem_kernel(const float *__restrict__ x, int64_t n, red_ctl *ctl) {
    __shared__ float s[RED_BLOCK];
    const unsigned int t = threadIdx.x;
    s[t] = red_tile_sum(x, n);
    __syncthreads();
    /* Sequential addressing: no bank conflicts, active threads contiguous. */
#pragma unroll
    for (unsigned int w = RED_BLOCK / 2; w > 0; w /= 2) {
        if (t < w)
            s[t] += s[t + w];
        __syncthreads();
    }
    if (t == 0) {
        atomicAdd(&ctl->acc, s[0]);
        red_finish(ctl);
    }
}

__global__ void __launch_bounds__(RED_BLOCK)
    reduce_warp_kernel(const float *__restrict__ x, int64_t n, red_ctl *ctl) {
    const float v = red_block_sum_shfl(red_tile_sum(x, n));
    if (threadIdx.x == 0) {
        atomicAdd(&ctl->acc, v);
        red_finish(ctl);
    }
}

__global__ void __launch_bounds__(RED_BLOCK)
    reduce_vec_kernel(const float *__restrict__ x, int64_t n, red_ctl *ctl) {
    /* Scalar head up to the first 16-byte boundary, float4 body, scalar tail. */
    int64_t head = (int64_t)((16u - ((uintptr_t)x & 15u)) & 15u) / 4;
    if (head > n)
        head = n;
    const int64_t n4 = (n - head) / 4;
    const int64_t tail = head + 4 * n4;
    const float4 *__restrict__ x4 = reinterpret_cast<const float4 *>(x + head);
    const int64_t stride = (int64_t)gridDim.x * RED_BLOCK;
    const int64_t gid = (int64_t)blockIdx.x * RED_BLOCK + threadIdx.x;

    float acc[RED_UNROLL];
#pragma unroll
    for (int u = 0; u < RED_UNROLL; u++)
        acc[u] = 0.0f;
    int64_t i = gid;
#ifdef RED_PLANT_SLOWDOWN
    /* A planted regression for checking the baseline gate (README,
     * "Baselines"): the body is read twice and the sum halved. Never set in
     * a shipped build. */
    for (int pass = 0; pass < 2; pass++) {
        i = gid;
#endif
        /* RED_UNROLL independent 16-byte loads in flight per thread. */
        for (; i + (RED_UNROLL - 1) * stride < n4; i += RED_UNROLL * stride) {
            float4 v[RED_UNROLL];
#pragma unroll
            for (int u = 0; u < RED_UNROLL; u++)
                v[u] = __ldcs(x4 + i + u * stride); /* streamed: read once */
#pragma unroll
            for (int u = 0; u < RED_UNROLL; u++)
                acc[u] += (v[u].x + v[u].y) + (v[u].z + v[u].w);
        }
#ifdef RED_PLANT_SLOWDOWN
    }
#pragma unroll
    for (int u = 0; u < RED_UNROLL; u++)
        acc[u] *= 0.5f;
#endif
    for (; i < n4; i += stride) {
        const float4 v = __ldcs(x4 + i);
        acc[0] += (v.x + v.y) + (v.z + v.w);
    }
    if (gid < head)
        acc[0] += x[gid];
    if (gid < n - tail)
        acc[0] += x[tail + gid];
    float sum = 0.0f;
#pragma unroll
    for (int u = 0; u < RED_UNROLL; u++)
        sum += acc[u];

    const float v = red_block_sum_shfl(sum);
    if (threadIdx.x == 0) {
        atomicAdd(&ctl->acc, v);
        red_finish(ctl);
    }
}

/* ---- host side --------------------------------------------------------- */

/* Temporary storage for cub::DeviceReduce::Sum; 32-bit offsets when n fits,
 * as most callers use. */
static cudaError_t red_cub_sum(void *temp, size_t *temp_bytes, const float *x, float *out,
                               int64_t n, cudaStream_t stream) {
    if (n <= INT_MAX)
        return cub::DeviceReduce::Sum(temp, *temp_bytes, x, out, (int)n, stream);
    return cub::DeviceReduce::Sum(temp, *temp_bytes, x, out, n, stream);
}

/* ---- inputs, generated on the GPU ------------------------------------- */

/* br_splitmix64 (benchrun_kernel.h) is a counter: its j-th draw (from 0)
 * from state s is the mix of s + (j + 1) * golden, so every thread can make
 * its own draws and the values are those br_red_fill (reduction_common.h)
 * makes on the host, draw j giving x[8j .. 8j + 8). */
__device__ __forceinline__ uint64_t red_draw(uint64_t seed, uint64_t j) {
    uint64_t z = seed + (j + 1) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* x[0..n) as br_red_fill makes it from seed; with sum not NULL, the exact
 * sum of the values in units of 1/64 added into *sum (as two's complement:
 * unsigned adds of signed partial sums). */
__global__ void __launch_bounds__(RED_BLOCK)
    red_fill_kernel(float *__restrict__ x, int64_t n, uint64_t seed, unsigned long long *sum) {
    const int64_t draws = (n + 7) / 8;
    long long part = 0;
    for (int64_t j = (int64_t)blockIdx.x * RED_BLOCK + threadIdx.x; j < draws;
         j += (int64_t)gridDim.x * RED_BLOCK) {
        const uint64_t bits = red_draw(seed, (uint64_t)j);
        const int64_t i0 = 8 * j;
#pragma unroll
        for (int b = 0; b < 8; b++) {
            if (i0 + b < n) {
                const int32_t k = br_red_k(bits >> (8 * b));
                x[i0 + b] = (float)k * (1.0f / 64.0f);
                part += k;
            }
        }
    }
    if (!sum)
        return;
    __shared__ long long s[RED_BLOCK];
    s[threadIdx.x] = part;
    __syncthreads();
#pragma unroll
    for (unsigned int w = RED_BLOCK / 2; w > 0; w /= 2) {
        if (threadIdx.x < w)
            s[threadIdx.x] += s[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(sum, (unsigned long long)s[0]);
}

/* The reference of each input made in this process, so that the kernels
 * sharing an input (same n, same seed: the same parameters) compute it once:
 * the module stays loaded in the worker from case to case. */
#define RED_REF_CACHE 32
static struct {
    int64_t n;
    uint64_t seed;
    int64_t sum; /* exact sum, units of 1/64 */
} red_refs[RED_REF_CACHE];
static size_t red_n_refs;

static int red_ref_find(int64_t n, uint64_t seed, int64_t *sum) {
    for (size_t i = 0; i < red_n_refs && i < RED_REF_CACHE; i++) {
        if (red_refs[i].n == n && red_refs[i].seed == seed) {
            *sum = red_refs[i].sum;
            return 1;
        }
    }
    return 0;
}

static void red_ref_keep(int64_t n, uint64_t seed, int64_t sum) {
    size_t i = red_n_refs++ % RED_REF_CACHE; /* the oldest goes first */
    red_refs[i].n = n;
    red_refs[i].seed = seed;
    red_refs[i].sum = sum;
}

/* Up to this many values the first generation of an input is checked
 * against the host's br_red_fill, value by value: the GPU generator must
 * give the CPU module's inputs. */
#define RED_HOST_CHECK_MAX ((int64_t)1 << 16)

static int red_host_check(br_case *c, const float *x, int64_t n, int64_t sum, uint64_t seed,
                          cudaStream_t stream) {
    float *h = (float *)malloc((size_t)n * sizeof(float) * 2);
    if (!h)
        return c->api->fail(c, "out of host memory for the input check");
    uint64_t rng = seed;
    const int64_t want = br_red_fill(h, n, &rng);
    cudaError_t err =
        cudaMemcpyAsync(h + n, x, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost, stream);
    if (err == cudaSuccess)
        err = cudaStreamSynchronize(stream);
    int64_t bad = -1;
    for (int64_t i = 0; err == cudaSuccess && i < n && bad < 0; i++)
        if (h[i] != h[n + i])
            bad = i;
    free(h);
    if (err != cudaSuccess)
        return c->api->fail(c, "reading the inputs back: %s", cudaGetErrorString(err));
    if (bad >= 0 || want != sum)
        return c->api->fail(c,
                            "the GPU input generator differs from the host's (n = %lld: first "
                            "difference at %lld, sums %lld and %lld)",
                            (long long)n, (long long)bad, (long long)sum, (long long)want);
    return 0;
}

/* Generate the inputs into x on the GPU and set s->ref: from the cache, or
 * summed while generating (then checked against the host for small n).
 * Returns 0, or fails. */
static int red_generate(br_case *c, red_state *s, float *x, cudaStream_t stream) {
    const uint64_t seed = c->api->seed(c);
    int64_t sum = 0;
    const int cached = red_ref_find(s->n, seed, &sum);
    unsigned long long *dsum = NULL;
    if (!cached) {
        dsum = (unsigned long long *)c->api->alloc(c, sizeof *dsum, BR_MEM_DEVICE);
        if (!dsum)
            return -1;
        BR_CUDA_TRY(c, cudaMemsetAsync(dsum, 0, sizeof *dsum, stream));
    }
    const int64_t draws = (s->n + 7) / 8;
    int64_t grid = (draws + RED_BLOCK - 1) / RED_BLOCK;
    if (grid > 4096)
        grid = 4096; /* grid-stride beyond: enough blocks to fill any GPU */
    red_fill_kernel<<<(unsigned int)grid, RED_BLOCK, 0, stream>>>(x, s->n, seed, dsum);
    if (br_cuda_launched(c, "red_fill_kernel") != 0)
        return -1;
    if (!cached) {
        unsigned long long u = 0;
        BR_CUDA_TRY(c, cudaMemcpyAsync(&u, dsum, sizeof u, cudaMemcpyDeviceToHost, stream));
        BR_CUDA_TRY(c, cudaStreamSynchronize(stream));
        sum = (int64_t)u;
        if (s->n <= RED_HOST_CHECK_MAX && red_host_check(c, x, s->n, sum, seed, stream) != 0)
            return -1;
        red_ref_keep(s->n, seed, sum);
    }
    s->ref = (double)sum / 64.0;
    return 0;
}

static int red_setup(br_case *c, red_kind kind) {
    red_state *s = (red_state *)calloc(1, sizeof *s);
    if (!s)
        return c->api->fail(c, "out of host memory for the case state");
    c->state = s;
    s->kind = kind;
    if (br_red_param_n(c, &s->n) != 0)
        return -1;
    const cudaStream_t stream = br_cuda_stream(c);

    float *x = (float *)c->api->alloc(c, (size_t)s->n * sizeof(float), BR_MEM_DEVICE);
    s->ctl = (red_ctl *)c->api->alloc(c, sizeof(red_ctl), BR_MEM_DEVICE);
    if (!x || !s->ctl)
        return -1; /* the runner recorded the error */
    s->x = x;
    if (red_generate(c, s, x, stream) != 0)
        return -1;
    /* acc = 0 and count = 0 once, here; out = NaN (all ones) until a run. */
    BR_CUDA_TRY(c, cudaMemsetAsync(s->ctl, 0, sizeof(red_ctl), stream));
    BR_CUDA_TRY(c, cudaMemsetAsync(&s->ctl->out, 0xff, sizeof(float), stream));

    int64_t blocks = 0;
    switch (kind) {
    case RED_NAIVE:
        blocks = (s->n + RED_BLOCK - 1) / RED_BLOCK;
        break;
    case RED_SMEM:
    case RED_WARP:
        blocks = (s->n + RED_BLOCK * RED_ITEMS - 1) / (RED_BLOCK * RED_ITEMS);
        break;
    case RED_VEC: {
        /* Exactly the blocks that can be resident at once, and no more than
         * there are float4s to give them. */
        int dev = 0, sms = 0, per_sm = 0;
        BR_CUDA_TRY(c, cudaGetDevice(&dev));
        BR_CUDA_TRY(c, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
        BR_CUDA_TRY(c, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, reduce_vec_kernel,
                                                                     RED_BLOCK, 0));
        if (per_sm < 1)
            return c->api->fail(c, "reduce_vec_kernel cannot run %d threads per block", RED_BLOCK);
        const int64_t needed = (s->n / 4 + RED_BLOCK - 1) / RED_BLOCK;
        blocks = (int64_t)sms * per_sm;
        if (blocks > needed)
            blocks = needed > 0 ? needed : 1;
        break;
    }
    case RED_CUB:
        BR_CUDA_TRY(c, red_cub_sum(NULL, &s->cub_temp_bytes, x, &s->ctl->out, s->n, stream));
        s->cub_temp =
            c->api->alloc(c, s->cub_temp_bytes > 0 ? s->cub_temp_bytes : 1, BR_MEM_DEVICE);
        if (!s->cub_temp)
            return -1;
        break;
    }
    if (blocks > INT_MAX) /* gridDim.x is at most 2^31 - 1 */
        return c->api->fail(c, "n = %lld needs %lld blocks, more than a grid holds",
                            (long long)s->n, (long long)blocks);
    s->blocks = (unsigned int)blocks;
    BR_CUDA_TRY(c, cudaStreamSynchronize(stream));
    return 0;
}

/* One setup for every kernel: the kernel's arg is its red_kind. */
static const red_kind red_kinds[] = {RED_NAIVE, RED_SMEM, RED_WARP, RED_VEC, RED_CUB};

static int setup(br_case *c) {
    return red_setup(c, *(const red_kind *)c->api->arg(c));
}

static int run_naive(br_case *c) {
    red_state *s = (red_state *)c->state;
    reduce_naive_kernel<<<s->blocks, RED_BLOCK, 0, br_cuda_stream(c)>>>(s->x, s->n, s->ctl);
    return br_cuda_launched(c, "reduce_naive_kernel");
}

static int run_smem(br_case *c) {
    red_state *s = (red_state *)c->state;
    reduce_smem_kernel<<<s->blocks, RED_BLOCK, 0, br_cuda_stream(c)>>>(s->x, s->n, s->ctl);
    return br_cuda_launched(c, "reduce_smem_kernel");
}

static int run_warp(br_case *c) {
    red_state *s = (red_state *)c->state;
    reduce_warp_kernel<<<s->blocks, RED_BLOCK, 0, br_cuda_stream(c)>>>(s->x, s->n, s->ctl);
    return br_cuda_launched(c, "reduce_warp_kernel");
}

static int run_vec(br_case *c) {
    red_state *s = (red_state *)c->state;
    reduce_vec_kernel<<<s->blocks, RED_BLOCK, 0, br_cuda_stream(c)>>>(s->x, s->n, s->ctl);
    return br_cuda_launched(c, "reduce_vec_kernel");
}

static int run_cub(br_case *c) {
    red_state *s = (red_state *)c->state;
    size_t bytes = s->cub_temp_bytes;
    BR_CUDA_TRY(c, red_cub_sum(s->cub_temp, &bytes, s->x, &s->ctl->out, s->n, br_cuda_stream(c)));
    return br_cuda_launched(c, "cub::DeviceReduce::Sum");
}

static int verify(br_case *c) {
    red_state *s = (red_state *)c->state;
    float got = 0.0f;
    /* The run was on the case's stream, which may not synchronise with the
     * legacy default stream that cudaMemcpy uses. */
    BR_CUDA_TRY(c, cudaStreamSynchronize(br_cuda_stream(c)));
    BR_CUDA_TRY(c, cudaMemcpy(&got, &s->ctl->out, sizeof got, cudaMemcpyDeviceToHost));
    return br_red_check(c, s->n, got, s->ref);
}

static void teardown(br_case *c) {
    free(c->state); /* device memory is the runner's; state may be NULL */
    c->state = NULL;
}

static const br_kernel kernels[] = {
    {"reduce_naive", setup, run_naive, verify, teardown, &red_kinds[RED_NAIVE]},
    {"reduce_smem", setup, run_smem, verify, teardown, &red_kinds[RED_SMEM]},
    {"reduce_warp", setup, run_warp, verify, teardown, &red_kinds[RED_WARP]},
    {"reduce_vec", setup, run_vec, verify, teardown, &red_kinds[RED_VEC]},
    {"reduce_cub", setup, run_cub, verify, teardown, &red_kinds[RED_CUB]},
};
BR_MODULE(kernels);
