/* SPDX-License-Identifier: Apache-2.0 */
/* stream.cu - McCalpin's STREAM on the GPU: four double-precision kernels over
 * arrays a, b, c of n elements with the scalar q = 3.0.
 *
 *   stream_copy   c = a
 *   stream_scale  b = q * c
 *   stream_add    c = a + b
 *   stream_triad  a = b + q * c
 *
 * Parameter: n (elements per array, 1 .. 2^31).
 *
 * Bytes: STREAM's convention (J. D. McCalpin, STREAM benchmark,
 * https://www.cs.virginia.edu/stream/ref.html): every element read or written
 * counts once, 8 bytes each, so one execution moves 16 * n bytes for copy and
 * scale and 24 * n bytes for add and triad. Write-allocate traffic is not
 * counted (STREAM does not count it, and a GPU's L2 does not read from DRAM a
 * 32-byte sector that a kernel writes in full, as these kernels do). The suite
 * declares these byte counts; this module does not report them.
 *
 * Every case has its own arrays (runner allocations), only those its kernel
 * touches. Each kernel writes one array and reads others, never the one it
 * writes, so every run computes the same output from the same inputs and
 * leaves the case as it found it.
 *
 * Kernels: one block per tile of STREAM_BLOCK * STREAM_ITEMS double2 (1024
 * doubles with the defaults). Each thread issues all of its 16-byte loads
 * before its first store; every load or store
 * instruction of a warp covers 512 contiguous bytes. A grid-stride loop over
 * the tiles lets any grid cover any n, but by default the grid has one block
 * per tile, so each block runs the loop once: on an H100 the reduction module's
 * one-tile-per-block kernels read at 95% of peak against 92% for its
 * grid-stride kernel sized to the resident blocks (README, n = 2^28).
 * STREAM_WAVES > 0 caps the grid at that many waves of resident blocks
 * instead. With n odd, thread 0 of block 0 also does the last element.
 *
 * Rounding: the device computes with __dmul_rn and __dadd_rn, which are never
 * contracted into an FMA, so triad rounds q * c and then the sum, as the host
 * reference does (its product goes through a volatile for the same reason).
 * Every output is then one or two correctly rounded IEEE binary64 operations
 * on the same inputs, and verify compares every element bit for bit.
 *
 * Inputs: element i of an array is the i-th draw of br_splitmix64 from that
 * array's key (three keys drawn from c->api->seed(c)), made into a double in
 * +-[1, 2) with a random sign and all 52 fraction bits random, so products by
 * 3 and sums need rounding (a contracted FMA would show) and no value is 0.
 * setup generates them on the device.
 *
 * Verification: a device kernel regenerates the inputs and counts the output
 * elements that differ, bit for bit, from the reference (the same IEEE
 * operations); only the count and the first index come back. Up to
 * ST_HOST_CHECK_MAX elements verify also regenerates the inputs on the host,
 * chunk by chunk, copies the output back and compares it there, so the
 * device reference is itself checked against the host's arithmetic; a case
 * fails if either check does, and the message says which. (The host check
 * alone cost about 2^27 * 8 elements of copies over PCIe and 1-3 ns of CPU
 * per element per verify at n = 2^27: seconds per suite.)
 *
 * A planted fault for tests (tests/gpu/test_gpu_verify.c): the environment
 * variable BR_STREAM_FAULT=I makes verify first flip the lowest bit of
 * element I of the output (negative: from the end), as a kernel that got one
 * element wrong by one unit in the last place would. */
#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchrun_cuda.h"
#include "benchrun_kernel.h"
#include "verify_common.h"

/* Threads per block of the STREAM kernels (a multiple of 32).
 *
 * The defaults (STREAM_BLOCK 1024, STREAM_ITEMS 2, STREAM_HINTS 0) are the
 * fastest of the 12 variants of block 256/1024, items 1/2/4 and hints 0/1
 * measured on an H100 at n = 2^27 (suites/stream_variants.yaml, which sweeps
 * them as `defines`; kernel clock, 2026-11-22): triad 92.6% of the 3352 GB/s
 * peak, copy 90.9%; plain
 * loads and stores beat the streaming hints by 2-3% in every pairing, the
 * block and item counts move it by under 1%. */
#ifndef STREAM_BLOCK
#define STREAM_BLOCK 1024
#endif
/* double2 per thread per array per tile. With 2 every kernel fits in 32
 * registers (ptxas, sm_90), so 2048 threads are resident per SM, each with 2
 * (copy, scale) or 4 (add, triad) 16-byte loads in flight: 64 or 128 KiB per
 * SM, several times the bandwidth-latency product of HBM3 (about 3.35 TB/s *
 * ~0.7 us / 132 SMs = 18 KB). With 4, add and triad need 58-64 registers and
 * half as many threads are resident. */
#ifndef STREAM_ITEMS
#define STREAM_ITEMS 2
#endif
/* STREAM_HINTS 1: streaming cache hints (__ldcs, __stcs: evict-first, the
 * data is used once); 0: plain loads and stores. */
#ifndef STREAM_HINTS
#define STREAM_HINTS 0
#endif
#if STREAM_HINTS
#define ST_LOAD(p)     __ldcs(p)
#define ST_STORE(p, v) __stcs(p, v)
#else
#define ST_LOAD(p)     (*(p))
#define ST_STORE(p, v) (*(p) = (v))
#endif

/* 0: one block per tile. k > 0: at most k waves of resident blocks, each
 * block looping over tiles. */
#ifndef STREAM_WAVES
#define STREAM_WAVES 0
#endif

static_assert(STREAM_BLOCK >= 32 && STREAM_BLOCK <= 1024 && STREAM_BLOCK % 32 == 0,
              "STREAM_BLOCK must be a multiple of 32 in [32, 1024]");
static_assert(STREAM_ITEMS >= 1 && STREAM_ITEMS <= 16, "STREAM_ITEMS must be in [1, 16]");

#define STREAM_TILE  ((int64_t)STREAM_BLOCK * STREAM_ITEMS) /* double2 per tile */
#define STREAM_N_MAX ((int64_t)1 << 31)

/* STREAM's scalar. */
static constexpr double STREAM_Q = 3.0;

enum st_op { ST_COPY, ST_SCALE, ST_ADD, ST_TRIAD };
enum { ST_A, ST_B, ST_C, ST_NONE = -1 };

/* Which arrays each kernel writes (out) and reads (x, and y for add and triad):
 * out = x, out = q * x, out = x + y, out = x + q * y. */
static const struct {
    int out, x, y;
} st_roles[] = {
    {ST_C, ST_A, ST_NONE}, /* copy:  c = a */
    {ST_B, ST_C, ST_NONE}, /* scale: b = q * c */
    {ST_C, ST_A, ST_B},    /* add:   c = a + b */
    {ST_A, ST_B, ST_C},    /* triad: a = b + q * c */
};
static const char *const st_array_names[] = {"a", "b", "c"};
static const char *const st_kernel_names[] = {"stream_copy_kernel", "stream_scale_kernel",
                                              "stream_add_kernel", "stream_triad_kernel"};

struct st_state {
    int op;
    int64_t n;
    double *arr[3];  /* a, b, c on the device (runner allocations); NULL if unused */
    uint64_t key[3]; /* generator keys of a, b, c */
    unsigned int blocks;
    unsigned long long *tally; /* device check: mismatches, first index (runner allocation) */
    int64_t fault;             /* BR_STREAM_FAULT: element to flip, or -1 */
};

/* Up to this many elements verify also checks on the host. */
#define ST_HOST_CHECK_MAX ((int64_t)1 << 21)

/* ---- inputs (host and device) ------------------------------------------ */

/* The i-th value (from 0) that br_splitmix64 returns from state key: the
 * generator adds the constant once per draw, so draw i mixes key + (i+1) * it. */
/* Element i of the array with this key: sign bit and 52 fraction bits from the
 * draw, exponent 0, so +-[1, 2). */
__host__ __device__ __forceinline__ double st_value(uint64_t key, int64_t i) {
    const uint64_t bits = (br_draw(key, i) & 0x800FFFFFFFFFFFFFull) | 0x3FF0000000000000ull;
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

__global__ void st_fill_kernel(double *__restrict__ x, int64_t n, uint64_t key) {
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        x[i] = st_value(key, i);
}

/* ---- kernels ----------------------------------------------------------- */

/* One output element; y is ignored by copy and scale. Never contracted. */
template <int OP> __device__ __forceinline__ double st_op(double x, double y) {
    if constexpr (OP == ST_COPY)
        return x;
    else if constexpr (OP == ST_SCALE)
        return __dmul_rn(STREAM_Q, x);
    else if constexpr (OP == ST_ADD)
        return __dadd_rn(x, y);
    else
        return __dadd_rn(x, __dmul_rn(STREAM_Q, y));
}

/* Count the elements of out[0..n) that differ, bit for bit, from st_op of
 * the inputs regenerated from keys kx, ky into tally[0], and the smallest
 * index of one into tally[1] (which must start at ULLONG_MAX). */
template <int OP>
__global__ void st_check_kernel(const double *__restrict__ out, int64_t n, uint64_t kx, uint64_t ky,
                                unsigned long long *__restrict__ tally) {
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    unsigned long long bad = 0, first = ~0ull;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        const double y = OP == ST_ADD || OP == ST_TRIAD ? st_value(ky, i) : 0.0;
        const double want = st_op<OP>(st_value(kx, i), y);
        if (__double_as_longlong(out[i]) != __double_as_longlong(want)) {
            if (bad == 0)
                first = (unsigned long long)i;
            bad++;
        }
    }
    if (bad) {
        atomicAdd(&tally[0], bad);
        atomicMin(&tally[1], first);
    }
}

/* One tile of pairs from t0: STREAM_ITEMS double2 per thread, STREAM_BLOCK
 * apart; all loads first. CHECK: the tile may run past n2. */
template <int OP, bool CHECK>
__device__ __forceinline__ void st_tile(double2 *__restrict__ out, const double2 *__restrict__ x,
                                        const double2 *__restrict__ y, int64_t t0, int64_t n2) {
    constexpr bool two = OP == ST_ADD || OP == ST_TRIAD;
    const int64_t i0 = t0 + threadIdx.x;
    double2 vx[STREAM_ITEMS], vy[STREAM_ITEMS];
#pragma unroll
    for (int k = 0; k < STREAM_ITEMS; k++) {
        const int64_t i = i0 + (int64_t)k * STREAM_BLOCK;
        if (!CHECK || i < n2) {
            vx[k] = ST_LOAD(x + i);
            if constexpr (two)
                vy[k] = ST_LOAD(y + i);
            else
                vy[k] = make_double2(0.0, 0.0);
        }
    }
#pragma unroll
    for (int k = 0; k < STREAM_ITEMS; k++) {
        const int64_t i = i0 + (int64_t)k * STREAM_BLOCK;
        if (!CHECK || i < n2)
            ST_STORE(out + i,
                     make_double2(st_op<OP>(vx[k].x, vy[k].x), st_op<OP>(vx[k].y, vy[k].y)));
    }
}

/* out[i] = op(x[i], y[i]) for i < n. The arrays are 16-byte aligned (setup
 * checks), so the body is n / 2 pairs; the last element of an odd n is done
 * with scalar accesses. */
template <int OP>
__device__ __forceinline__ void st_body(double *__restrict__ out, const double *__restrict__ x,
                                        const double *__restrict__ y, int64_t n) {
    const int64_t n2 = n / 2;
    double2 *__restrict__ out2 = reinterpret_cast<double2 *>(out);
    const double2 *__restrict__ x2 = reinterpret_cast<const double2 *>(x);
    const double2 *__restrict__ y2 = reinterpret_cast<const double2 *>(y);
    const int64_t stride = (int64_t)gridDim.x * STREAM_TILE;
    for (int64_t t0 = (int64_t)blockIdx.x * STREAM_TILE; t0 < n2; t0 += stride) {
        if (t0 + STREAM_TILE <= n2)
            st_tile<OP, false>(out2, x2, y2, t0, n2);
        else
            st_tile<OP, true>(out2, x2, y2, t0, n2);
    }
    if ((n & 1) && blockIdx.x == 0 && threadIdx.x == 0) {
        constexpr bool two = OP == ST_ADD || OP == ST_TRIAD;
        out[n - 1] = st_op<OP>(x[n - 1], two ? y[n - 1] : 0.0);
    }
}

/* One __global__ per kernel, so profilers and the kernel clock show its name. */
__global__ void __launch_bounds__(STREAM_BLOCK)
    stream_copy_kernel(double *__restrict__ c, const double *__restrict__ a, int64_t n) {
    st_body<ST_COPY>(c, a, nullptr, n);
}

__global__ void __launch_bounds__(STREAM_BLOCK)
    stream_scale_kernel(double *__restrict__ b, const double *__restrict__ c, int64_t n) {
    st_body<ST_SCALE>(b, c, nullptr, n);
}

__global__ void __launch_bounds__(STREAM_BLOCK)
    stream_add_kernel(double *__restrict__ c, const double *__restrict__ a,
                      const double *__restrict__ b, int64_t n) {
    st_body<ST_ADD>(c, a, b, n);
}

__global__ void __launch_bounds__(STREAM_BLOCK)
    stream_triad_kernel(double *__restrict__ a, const double *__restrict__ b,
                        const double *__restrict__ c, int64_t n) {
    st_body<ST_TRIAD>(a, b, c, n);
}

/* ---- host side --------------------------------------------------------- */

/* Grid for the STREAM kernels: one block per tile (at least one, which also
 * does the last element when n is 1), or with STREAM_WAVES > 0 no more than
 * that many waves of resident blocks. */
static int st_grid(br_case *c, st_state *s) {
    const int64_t tiles = (s->n / 2 + STREAM_TILE - 1) / STREAM_TILE;
    int64_t blocks = tiles > 0 ? tiles : 1;
#if STREAM_WAVES > 0
    int dev = 0, sms = 0, per_sm = 0;
    BR_CUDA_TRY(c, cudaGetDevice(&dev));
    BR_CUDA_TRY(c, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    BR_CUDA_TRY(c, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, stream_triad_kernel,
                                                                 STREAM_BLOCK, 0));
    if (per_sm < 1)
        per_sm = 1;
    const int64_t cap = (int64_t)STREAM_WAVES * sms * per_sm;
    if (blocks > cap)
        blocks = cap;
#endif
    if (blocks > 0x7fffffff) /* cannot happen for n <= 2^31; gridDim.x is at most 2^31 - 1 */
        return c->api->fail(c, "n = %lld needs %lld blocks, more than a grid holds",
                            (long long)s->n, (long long)blocks);
    s->blocks = (unsigned int)blocks;
    return 0;
}

/* BR_STREAM_FAULT=I into s->fault (-1 when unset); 0, or fails on a
 * malformed value. */
static int st_fault_parse(br_case *c, st_state *s) {
    s->fault = -1;
    const char *v = getenv("BR_STREAM_FAULT");
    if (!v || !*v)
        return 0;
    char *end = NULL;
    long long i = strtoll(v, &end, 10);
    if (i < 0)
        i += s->n;
    if (end == v || *end != '\0' || i < 0 || i >= s->n)
        return c->api->fail(c,
                            "BR_STREAM_FAULT must be an index I with 0 <= I < %lld "
                            "(negative: from the end), got '%s'",
                            (long long)s->n, v);
    s->fault = i;
    return 0;
}

static int st_setup(br_case *c, int op) {
    st_state *s = (st_state *)calloc(1, sizeof *s);
    if (!s)
        return c->api->fail(c, "out of host memory for the case state");
    c->state = s;
    s->op = op;
    if (c->api->param(c, "n", &s->n) != 0)
        return -1; /* the runner recorded the error */
    if (s->n < 1 || s->n > STREAM_N_MAX)
        return c->api->fail(c, "parameter n must be between 1 and %lld, got %lld",
                            (long long)STREAM_N_MAX, (long long)s->n);
    const cudaStream_t stream = br_cuda_stream(c);
    const size_t bytes = (size_t)s->n * sizeof(double);

    /* The keys do not depend on the kernel: a given seed gives a, b and c the
     * same contents in every case that has them. */
    uint64_t rng = c->api->seed(c);
    for (int k = 0; k < 3; k++)
        s->key[k] = br_splitmix64(&rng);

    const int used[3] = {st_roles[op].out, st_roles[op].x, st_roles[op].y};
    for (int k = 0; k < 3; k++) {
        const int a = used[k];
        if (a == ST_NONE)
            continue;
        s->arr[a] = (double *)c->api->alloc(c, bytes, BR_MEM_DEVICE);
        if (!s->arr[a])
            return -1;                      /* the runner recorded the error */
        if ((uintptr_t)s->arr[a] % 16 != 0) /* runner allocations are 256-byte aligned */
            return c->api->fail(c, "array %s at %p is not 16-byte aligned", st_array_names[a],
                                (void *)s->arr[a]);
        if (a == st_roles[op].out) {
            /* All ones (a NaN) until a run writes it, so verify sees any
             * element a run missed. */
            BR_CUDA_TRY(c, cudaMemsetAsync(s->arr[a], 0xff, bytes, stream));
        } else {
            const int64_t want = (s->n + 255) / 256;
            const unsigned int blocks = (unsigned int)(want < 65536 ? want : 65536);
            st_fill_kernel<<<blocks, 256, 0, stream>>>(s->arr[a], s->n, s->key[a]);
            BR_CUDA_TRY(c, cudaGetLastError());
        }
    }
    s->tally = (unsigned long long *)c->api->alloc(c, 2 * sizeof *s->tally, BR_MEM_DEVICE);
    if (!s->tally)
        return -1; /* the runner recorded the error */
    if (st_fault_parse(c, s) != 0 || st_grid(c, s) != 0)
        return -1;
    BR_CUDA_TRY(c, cudaStreamSynchronize(stream));
    return 0;
}

/* One setup for every kernel: the kernel's arg is its st_op. */
static const int st_ops[] = {ST_COPY, ST_SCALE, ST_ADD, ST_TRIAD};

static int setup(br_case *c) {
    return st_setup(c, *(const int *)c->api->arg(c));
}

static int st_launched(br_case *c) {
    return br_cuda_launched(c, st_kernel_names[((const st_state *)c->state)->op]);
}

static int run_copy(br_case *c) {
    st_state *s = (st_state *)c->state;
    stream_copy_kernel<<<s->blocks, STREAM_BLOCK, 0, br_cuda_stream(c)>>>(s->arr[ST_C],
                                                                          s->arr[ST_A], s->n);
    return st_launched(c);
}

static int run_scale(br_case *c) {
    st_state *s = (st_state *)c->state;
    stream_scale_kernel<<<s->blocks, STREAM_BLOCK, 0, br_cuda_stream(c)>>>(s->arr[ST_B],
                                                                           s->arr[ST_C], s->n);
    return st_launched(c);
}

static int run_add(br_case *c) {
    st_state *s = (st_state *)c->state;
    stream_add_kernel<<<s->blocks, STREAM_BLOCK, 0, br_cuda_stream(c)>>>(s->arr[ST_C], s->arr[ST_A],
                                                                         s->arr[ST_B], s->n);
    return st_launched(c);
}

static int run_triad(br_case *c) {
    st_state *s = (st_state *)c->state;
    stream_triad_kernel<<<s->blocks, STREAM_BLOCK, 0, br_cuda_stream(c)>>>(
        s->arr[ST_A], s->arr[ST_B], s->arr[ST_C], s->n);
    return st_launched(c);
}

/* The host reference for element i: the same IEEE binary64 operations as the
 * device. x86-64 computes doubles in SSE registers, so each operation rounds
 * once to binary64; the volatile keeps the compiler from fusing triad's
 * product and sum into an FMA. */
template <int OP> static inline double st_want(uint64_t kx, uint64_t ky, int64_t i) {
    const double x = st_value(kx, i);
    if constexpr (OP == ST_COPY) {
        return x;
    } else if constexpr (OP == ST_SCALE) {
        return STREAM_Q * x;
    } else if constexpr (OP == ST_ADD) {
        return x + st_value(ky, i);
    } else {
        volatile double p = STREAM_Q * st_value(ky, i);
        return x + p;
    }
}

/* First mismatch seen by verify, and how many there were. */
struct st_bad {
    int64_t count, index;
    double got, want;
};

/* Compare got[0..len) with the reference for elements i0.. bit for bit. */
template <int OP>
static void st_check(const double *got, int64_t i0, int64_t len, uint64_t kx, uint64_t ky,
                     st_bad *bad) {
    for (int64_t j = 0; j < len; j++) {
        const double want = st_want<OP>(kx, ky, i0 + j);
        uint64_t g, w;
        memcpy(&g, &got[j], sizeof g);
        memcpy(&w, &want, sizeof w);
        if (g != w) {
            if (bad->count == 0) {
                bad->index = i0 + j;
                bad->got = got[j];
                bad->want = want;
            }
            bad->count++;
        }
    }
}

/* The host reference of element i of the output of op. */
static double st_want_op(int op, uint64_t kx, uint64_t ky, int64_t i) {
    switch (op) {
    case ST_COPY:
        return st_want<ST_COPY>(kx, ky, i);
    case ST_SCALE:
        return st_want<ST_SCALE>(kx, ky, i);
    case ST_ADD:
        return st_want<ST_ADD>(kx, ky, i);
    default:
        return st_want<ST_TRIAD>(kx, ky, i);
    }
}

/* The host check: copy the output back chunk by chunk and compare it with
 * the host reference into *bad. */
static int st_host_check(br_case *c, st_state *s, st_bad *bad) {
    const cudaStream_t stream = br_cuda_stream(c);
    const int out = st_roles[s->op].out, x = st_roles[s->op].x, y = st_roles[s->op].y;
    const uint64_t kx = s->key[x], ky = y != ST_NONE ? s->key[y] : 0;
    const int64_t chunk = (int64_t)1 << 22; /* 32 MiB of doubles */
    const int64_t len = s->n < chunk ? s->n : chunk;
    double *h = (double *)malloc((size_t)len * sizeof(double));
    if (!h)
        return c->api->fail(c, "out of host memory for a %lld-element output chunk",
                            (long long)len);
    for (int64_t i0 = 0; i0 < s->n; i0 += chunk) {
        const int64_t m = s->n - i0 < chunk ? s->n - i0 : chunk;
        /* On the case's stream, after the run; pageable memory, so the copy
         * has completed when the synchronisation returns. */
        cudaError_t err = cudaMemcpyAsync(h, s->arr[out] + i0, (size_t)m * sizeof(double),
                                          cudaMemcpyDeviceToHost, stream);
        if (err == cudaSuccess)
            err = cudaStreamSynchronize(stream);
        if (err != cudaSuccess) {
            free(h);
            return c->api->fail(c, "copying %s back: %s", st_array_names[out],
                                cudaGetErrorString(err));
        }
        switch (s->op) {
        case ST_COPY:
            st_check<ST_COPY>(h, i0, m, kx, ky, bad);
            break;
        case ST_SCALE:
            st_check<ST_SCALE>(h, i0, m, kx, ky, bad);
            break;
        case ST_ADD:
            st_check<ST_ADD>(h, i0, m, kx, ky, bad);
            break;
        default:
            st_check<ST_TRIAD>(h, i0, m, kx, ky, bad);
            break;
        }
    }
    free(h);
    return 0;
}

/* The device check into *bad (count, and the first mismatch read back). */
static int st_device_check(br_case *c, st_state *s, st_bad *bad) {
    const cudaStream_t stream = br_cuda_stream(c);
    const int out = st_roles[s->op].out, x = st_roles[s->op].x, y = st_roles[s->op].y;
    const uint64_t kx = s->key[x], ky = y != ST_NONE ? s->key[y] : 0;
    const double *o = s->arr[out];
    const int64_t want_blocks = (s->n + 255) / 256;
    const unsigned int blocks = (unsigned int)(want_blocks < 4096 ? want_blocks : 4096);
    unsigned long long tally[2] = {0, 0};
    BR_CUDA_TRY(c, cudaMemsetAsync(&s->tally[0], 0, sizeof tally[0], stream));
    BR_CUDA_TRY(c, cudaMemsetAsync(&s->tally[1], 0xff, sizeof tally[1], stream));
    switch (s->op) {
    case ST_COPY:
        st_check_kernel<ST_COPY><<<blocks, 256, 0, stream>>>(o, s->n, kx, ky, s->tally);
        break;
    case ST_SCALE:
        st_check_kernel<ST_SCALE><<<blocks, 256, 0, stream>>>(o, s->n, kx, ky, s->tally);
        break;
    case ST_ADD:
        st_check_kernel<ST_ADD><<<blocks, 256, 0, stream>>>(o, s->n, kx, ky, s->tally);
        break;
    default:
        st_check_kernel<ST_TRIAD><<<blocks, 256, 0, stream>>>(o, s->n, kx, ky, s->tally);
        break;
    }
    BR_CUDA_TRY(c, cudaGetLastError());
    BR_CUDA_TRY(c, cudaMemcpyAsync(tally, s->tally, sizeof tally, cudaMemcpyDeviceToHost, stream));
    BR_CUDA_TRY(c, cudaStreamSynchronize(stream));
    bad->count = (int64_t)tally[0];
    if (bad->count == 0)
        return 0;
    bad->index = (int64_t)tally[1];
    bad->want = st_want_op(s->op, kx, ky, bad->index);
    BR_CUDA_TRY(c, cudaMemcpyAsync(&bad->got, o + bad->index, sizeof bad->got,
                                   cudaMemcpyDeviceToHost, stream));
    BR_CUDA_TRY(c, cudaStreamSynchronize(stream));
    return 0;
}

/* BR_STREAM_FAULT: flip the lowest bit of output element s->fault. */
static int st_plant_fault(br_case *c, st_state *s) {
    return br_verify_flip_low_bit(c, (uint64_t *)(s->arr[st_roles[s->op].out] + s->fault));
}

static int verify(br_case *c) {
    st_state *s = (st_state *)c->state;
    const char *name = st_array_names[st_roles[s->op].out];
    if (s->fault >= 0 && st_plant_fault(c, s) != 0)
        return -1;
    st_bad dev = {0, 0, 0.0, 0.0}, host = {0, 0, 0.0, 0.0};
    if (st_device_check(c, s, &dev) != 0)
        return -1;
    const bool on_host = s->n <= ST_HOST_CHECK_MAX;
    if (on_host && st_host_check(c, s, &host) != 0)
        return -1;
    if (dev.count == 0 && host.count == 0)
        return 0;
    const st_bad *b = host.count > 0 ? &host : &dev;
    char note[160] = "";
    br_verify_note(note, sizeof note, on_host, (long long)host.count, (long long)dev.count);
    return c->api->fail(c,
                        "%lld of %lld elements of %s differ; first %s[%lld] = %.17g, "
                        "expected %.17g%s",
                        (long long)b->count, (long long)s->n, name, name, (long long)b->index,
                        b->got, b->want, note);
}

static void teardown(br_case *c) {
    free(c->state); /* device memory is the runner's; state may be NULL */
    c->state = NULL;
}

static const br_kernel kernels[] = {
    {"stream_copy", setup, run_copy, verify, teardown, &st_ops[ST_COPY]},
    {"stream_scale", setup, run_scale, verify, teardown, &st_ops[ST_SCALE]},
    {"stream_add", setup, run_add, verify, teardown, &st_ops[ST_ADD]},
    {"stream_triad", setup, run_triad, verify, teardown, &st_ops[ST_TRIAD]},
};
BR_MODULE(kernels);
