/* SPDX-License-Identifier: Apache-2.0 */
/* transpose.cu - out = in^T for a row-major float32 matrix in of m rows and n
 * columns; out is n rows by m columns (out[j][i] = in[i][j]).
 *
 *   transpose_naive   one thread per element, blocks of 32 x 8 threads: reads
 *                     along rows of in (coalesced), writes down columns of out
 *                     (a warp's 32 stores land in 32 different rows)
 *   transpose_tiled   a 32 x 32 tile staged in shared memory by 32 x 8 threads,
 *                     4 elements each: rows of in are read and rows of out are
 *                     written, both coalesced; the tile is read by columns,
 *                     which with a row of 32 floats puts all 32 threads of a
 *                     warp in the same bank (a 32-way conflict)
 *   transpose_padded  the same with a 32 x 33 tile: a column's 32 elements are
 *                     33 words apart, so they fall in 32 different banks
 *
 * The tiled kernels are the design of Mark Harris, "An Efficient Matrix
 * Transpose in CUDA C/C++", NVIDIA Technical Blog, 2013
 * (https://developer.nvidia.com/blog/efficient-matrix-transpose-cuda-cc/),
 * with bounds checks added so that m and n need not be multiples of 32.
 *
 * Parameters: m, n (each 1 .. 65536).
 *
 * Bytes: 2 * 4 * m * n per execution, every element read once from in and
 * written once to out. The suite declares it; this module does not report it.
 *
 * Inputs: element k = i * n + j of in is the k-th draw of br_splitmix64 from
 * a key drawn from c->api->seed(c), made into a float in +-[1, 2) (random sign
 * and 23 random fraction bits, never 0). setup generates in on the device and
 * fills out with all ones (a NaN) so verify sees any element a run missed.
 * A run reads in and writes out, so it leaves the case as it found it.
 *
 * Verification: a device kernel compares every element of out, bit for bit,
 * with the value regenerated from the key (a transpose moves bits and does no
 * arithmetic) and counts the mismatches; only the count and the first index
 * come back. Up to TR_HOST_CHECK_MAX elements verify also copies out back in
 * chunks of rows and compares it with the values regenerated on the host, so
 * the device check is itself checked; a case fails if either check does, and
 * the message gives the first mismatch with its indices and which check
 * found it. (The host check alone moved 1 GiB over PCIe and spent 1-2 ns of
 * CPU per element per verify at 16384 x 16384: seconds per suite.)
 *
 * A planted fault for tests (tests/gpu/test_gpu_verify.c): the environment
 * variable BR_TRANSPOSE_FAULT=I makes verify first flip the lowest bit of
 * element I of out in row-major order (negative: from the end). */
#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchrun_cuda.h"
#include "benchrun_kernel.h"
#include "verify_common.h"

#define TR_TILE    32 /* tile side; also the block's x extent */
#define TR_ROWS    8  /* block's y extent: each thread does TR_TILE / TR_ROWS rows */
#define TR_THREADS (TR_TILE * TR_ROWS)
#define TR_DIM_MAX 65536

static_assert(TR_TILE % TR_ROWS == 0, "TR_ROWS must divide TR_TILE");

enum tr_kind { TR_NAIVE, TR_TILED, TR_PADDED };
static const char *const tr_kernel_names[] = {"transpose_naive_kernel", "transpose_tiled_kernel",
                                              "transpose_padded_kernel"};

struct tr_state {
    int kind;
    int m, n;   /* in is m x n, out is n x m */
    float *in;  /* device, m * n floats (runner allocation) */
    float *out; /* device, n * m floats (runner allocation) */
    uint64_t key;
    dim3 grid;
    unsigned long long *tally; /* device check: mismatches, first index (runner allocation) */
    int64_t fault;             /* BR_TRANSPOSE_FAULT: element of out to flip, or -1 */
};

/* Up to this many elements verify also checks on the host. */
#define TR_HOST_CHECK_MAX ((int64_t)1 << 21)

/* ---- inputs (host and device) ------------------------------------------ */

/* Bits of element k of in: sign and 23 fraction bits from the draw's high
 * half, exponent 0, so +-[1, 2). */
__host__ __device__ __forceinline__ uint32_t tr_bits(uint64_t key, int64_t k) {
    return ((uint32_t)(br_draw(key, k) >> 32) & 0x807FFFFFu) | 0x3F800000u;
}

__global__ void tr_fill_kernel(float *__restrict__ x, int64_t count, uint64_t key) {
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k < count; k += stride)
        x[k] = __uint_as_float(tr_bits(key, k));
}

/* Count the elements of out (n rows of m) whose bits differ from in's
 * regenerated from key into tally[0], the smallest flat index of one into
 * tally[1] (which must start at ULLONG_MAX). out[r][q] = in[q][r], element
 * q * n + r of in. */
__global__ void tr_check_kernel(const float *__restrict__ out, int64_t m, int64_t n, uint64_t key,
                                unsigned long long *__restrict__ tally) {
    const int64_t count = m * n;
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    unsigned long long bad = 0, first = ~0ull;
    for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < count; t += stride) {
        const int64_t r = t / m, q = t - r * m;
        if (__float_as_uint(out[t]) != tr_bits(key, q * n + r)) {
            if (bad == 0)
                first = (unsigned long long)t;
            bad++;
        }
    }
    if (bad) {
        atomicAdd(&tally[0], bad);
        atomicMin(&tally[1], first);
    }
}

/* ---- kernels ----------------------------------------------------------- */

/* Block (TR_TILE, TR_ROWS), grid (ceil(n / TR_TILE), ceil(m / TR_ROWS)). */
__global__ void __launch_bounds__(TR_THREADS)
    transpose_naive_kernel(float *__restrict__ out, const float *__restrict__ in, int m, int n) {
    const int j = blockIdx.x * TR_TILE + threadIdx.x; /* column of in, row of out */
    const int i = blockIdx.y * TR_ROWS + threadIdx.y; /* row of in, column of out */
    if (i < m && j < n)
        out[(size_t)j * m + i] = in[(size_t)i * n + j];
}

/* Block (TR_TILE, TR_ROWS), grid (ceil(n / TR_TILE), ceil(m / TR_TILE)); PAD
 * extra floats per tile row. Block (bx, by) copies the tile of in at rows
 * by*32.., columns bx*32.. into shared memory row by row, then writes it out
 * row by row as the tile of out at rows bx*32.., columns by*32.., reading the
 * shared tile by columns. An element is written only if it is inside out,
 * and then the element of in it comes from is inside in and was loaded. */
template <int PAD>
__device__ __forceinline__ void tr_tile(float *__restrict__ out, const float *__restrict__ in,
                                        int m, int n) {
    __shared__ float tile[TR_TILE][TR_TILE + PAD];
    const int tx = threadIdx.x, ty = threadIdx.y;

    int j = blockIdx.x * TR_TILE + tx; /* column of in */
    int i = blockIdx.y * TR_TILE + ty; /* first row of in */
#pragma unroll
    for (int r = 0; r < TR_TILE; r += TR_ROWS)
        if (j < n && i + r < m)
            tile[ty + r][tx] = in[(size_t)(i + r) * n + j];
    __syncthreads();

    j = blockIdx.y * TR_TILE + tx; /* column of out (row of in) */
    i = blockIdx.x * TR_TILE + ty; /* first row of out (column of in) */
#pragma unroll
    for (int r = 0; r < TR_TILE; r += TR_ROWS)
        if (j < m && i + r < n)
            out[(size_t)(i + r) * m + j] = tile[tx][ty + r];
}

__global__ void __launch_bounds__(TR_THREADS)
    transpose_tiled_kernel(float *__restrict__ out, const float *__restrict__ in, int m, int n) {
    tr_tile<0>(out, in, m, n);
}

__global__ void __launch_bounds__(TR_THREADS)
    transpose_padded_kernel(float *__restrict__ out, const float *__restrict__ in, int m, int n) {
    tr_tile<1>(out, in, m, n);
}

/* ---- host side --------------------------------------------------------- */

/* Read parameter `name` into *out and check it is in 1..TR_DIM_MAX. */
static int tr_param(br_case *c, const char *name, int *out) {
    int64_t v = 0;
    if (c->api->param(c, name, &v) != 0)
        return -1; /* the runner recorded the error */
    if (v < 1 || v > TR_DIM_MAX)
        return c->api->fail(c, "parameter %s must be between 1 and %d, got %lld", name, TR_DIM_MAX,
                            (long long)v);
    *out = (int)v;
    return 0;
}

/* BR_TRANSPOSE_FAULT=I into s->fault (-1 when unset); 0, or fails on a
 * malformed value. */
static int tr_fault_parse(br_case *c, tr_state *s) {
    s->fault = -1;
    const char *v = getenv("BR_TRANSPOSE_FAULT");
    if (!v || !*v)
        return 0;
    const long long count = (long long)s->m * s->n;
    char *end = NULL;
    long long i = strtoll(v, &end, 10);
    if (i < 0)
        i += count;
    if (end == v || *end != '\0' || i < 0 || i >= count)
        return c->api->fail(c,
                            "BR_TRANSPOSE_FAULT must be an index I with 0 <= I < %lld "
                            "(negative: from the end), got '%s'",
                            count, v);
    s->fault = i;
    return 0;
}

static int tr_setup(br_case *c, int kind) {
    tr_state *s = (tr_state *)calloc(1, sizeof *s);
    if (!s)
        return c->api->fail(c, "out of host memory for the case state");
    c->state = s;
    s->kind = kind;
    if (tr_param(c, "m", &s->m) != 0 || tr_param(c, "n", &s->n) != 0)
        return -1;
    const cudaStream_t stream = br_cuda_stream(c);
    const int64_t count = (int64_t)s->m * s->n;
    const size_t bytes = (size_t)count * sizeof(float);

    s->in = (float *)c->api->alloc(c, bytes, BR_MEM_DEVICE);
    s->out = (float *)c->api->alloc(c, bytes, BR_MEM_DEVICE);
    if (!s->in || !s->out)
        return -1; /* the runner recorded the error */

    uint64_t rng = c->api->seed(c);
    s->key = br_splitmix64(&rng);
    const int64_t want = (count + 255) / 256;
    tr_fill_kernel<<<(unsigned int)(want < 65536 ? want : 65536), 256, 0, stream>>>(s->in, count,
                                                                                    s->key);
    BR_CUDA_TRY(c, cudaGetLastError());
    BR_CUDA_TRY(c, cudaMemsetAsync(s->out, 0xff, bytes, stream));

    s->tally = (unsigned long long *)c->api->alloc(c, 2 * sizeof *s->tally, BR_MEM_DEVICE);
    if (!s->tally)
        return -1; /* the runner recorded the error */
    if (tr_fault_parse(c, s) != 0)
        return -1;
    const int rows = kind == TR_NAIVE ? TR_ROWS : TR_TILE; /* rows of in per block */
    s->grid = dim3((unsigned int)((s->n + TR_TILE - 1) / TR_TILE),
                   (unsigned int)((s->m + rows - 1) / rows)); /* y at most 8192 */
    BR_CUDA_TRY(c, cudaStreamSynchronize(stream));
    return 0;
}

/* One setup for every kernel: the kernel's arg is its tr_kind. */
static const int tr_kinds[] = {TR_NAIVE, TR_TILED, TR_PADDED};

static int setup(br_case *c) {
    return tr_setup(c, *(const int *)c->api->arg(c));
}

static int tr_launched(br_case *c) {
    return br_cuda_launched(c, tr_kernel_names[((const tr_state *)c->state)->kind]);
}

static int run_naive(br_case *c) {
    tr_state *s = (tr_state *)c->state;
    transpose_naive_kernel<<<s->grid, dim3(TR_TILE, TR_ROWS), 0, br_cuda_stream(c)>>>(s->out, s->in,
                                                                                      s->m, s->n);
    return tr_launched(c);
}

static int run_tiled(br_case *c) {
    tr_state *s = (tr_state *)c->state;
    transpose_tiled_kernel<<<s->grid, dim3(TR_TILE, TR_ROWS), 0, br_cuda_stream(c)>>>(s->out, s->in,
                                                                                      s->m, s->n);
    return tr_launched(c);
}

static int run_padded(br_case *c) {
    tr_state *s = (tr_state *)c->state;
    transpose_padded_kernel<<<s->grid, dim3(TR_TILE, TR_ROWS), 0, br_cuda_stream(c)>>>(
        s->out, s->in, s->m, s->n);
    return tr_launched(c);
}

/* First mismatch seen by a check, and how many there were. */
struct tr_bad {
    int64_t count, r, k; /* out[r][k] */
    uint32_t got, want;
};

/* The host check: copy out back in chunks of rows and compare it with the
 * values regenerated on the host into *bad. */
static int tr_host_check(br_case *c, tr_state *s, tr_bad *bad) {
    const cudaStream_t stream = br_cuda_stream(c);
    const int64_t m = s->m, n = s->n;
    /* Whole rows of out (m floats each), about 16 MiB at a time. */
    int64_t rows = ((int64_t)1 << 22) / m;
    if (rows < 1)
        rows = 1;
    if (rows > n)
        rows = n;
    uint32_t *h = (uint32_t *)malloc((size_t)(rows * m) * sizeof(uint32_t));
    if (!h)
        return c->api->fail(c, "out of host memory for %lld rows of the output", (long long)rows);
    for (int64_t r0 = 0; r0 < n; r0 += rows) {
        const int64_t nr = n - r0 < rows ? n - r0 : rows;
        /* On the case's stream, after the run; pageable memory, so the copy
         * has completed when the synchronisation returns. */
        cudaError_t err = cudaMemcpyAsync(h, s->out + r0 * m, (size_t)(nr * m) * sizeof(float),
                                          cudaMemcpyDeviceToHost, stream);
        if (err == cudaSuccess)
            err = cudaStreamSynchronize(stream);
        if (err != cudaSuccess) {
            free(h);
            return c->api->fail(c, "copying the output back: %s", cudaGetErrorString(err));
        }
        for (int64_t r = 0; r < nr; r++) {
            const uint32_t *row = h + r * m;
            for (int64_t k = 0; k < m; k++) { /* out[r0 + r][k] = in[k][r0 + r] */
                const uint32_t want = tr_bits(s->key, k * n + r0 + r);
                if (row[k] != want) {
                    if (bad->count == 0) {
                        bad->r = r0 + r;
                        bad->k = k;
                        bad->got = row[k];
                        bad->want = want;
                    }
                    bad->count++;
                }
            }
        }
    }
    free(h);
    return 0;
}

/* The device check into *bad (count, and the first mismatch read back). */
static int tr_device_check(br_case *c, tr_state *s, tr_bad *bad) {
    const cudaStream_t stream = br_cuda_stream(c);
    const int64_t m = s->m, n = s->n, count = m * n;
    const int64_t want_blocks = (count + 255) / 256;
    const unsigned int blocks = (unsigned int)(want_blocks < 4096 ? want_blocks : 4096);
    unsigned long long tally[2] = {0, 0};
    BR_CUDA_TRY(c, cudaMemsetAsync(&s->tally[0], 0, sizeof tally[0], stream));
    BR_CUDA_TRY(c, cudaMemsetAsync(&s->tally[1], 0xff, sizeof tally[1], stream));
    tr_check_kernel<<<blocks, 256, 0, stream>>>(s->out, m, n, s->key, s->tally);
    BR_CUDA_TRY(c, cudaGetLastError());
    BR_CUDA_TRY(c, cudaMemcpyAsync(tally, s->tally, sizeof tally, cudaMemcpyDeviceToHost, stream));
    BR_CUDA_TRY(c, cudaStreamSynchronize(stream));
    bad->count = (int64_t)tally[0];
    if (bad->count == 0)
        return 0;
    const int64_t t = (int64_t)tally[1];
    bad->r = t / m;
    bad->k = t % m;
    bad->want = tr_bits(s->key, bad->k * n + bad->r);
    BR_CUDA_TRY(
        c, cudaMemcpyAsync(&bad->got, s->out + t, sizeof bad->got, cudaMemcpyDeviceToHost, stream));
    BR_CUDA_TRY(c, cudaStreamSynchronize(stream));
    return 0;
}

/* BR_TRANSPOSE_FAULT: flip the lowest bit of element s->fault of out. */
static int tr_plant_fault(br_case *c, tr_state *s) {
    return br_verify_flip_low_bit(c, (uint32_t *)(s->out + s->fault));
}

static int verify(br_case *c) {
    tr_state *s = (tr_state *)c->state;
    const int64_t m = s->m, n = s->n;
    if (s->fault >= 0 && tr_plant_fault(c, s) != 0)
        return -1;
    tr_bad dev = {0, 0, 0, 0, 0}, host = {0, 0, 0, 0, 0};
    if (tr_device_check(c, s, &dev) != 0)
        return -1;
    const bool on_host = m * n <= TR_HOST_CHECK_MAX;
    if (on_host && tr_host_check(c, s, &host) != 0)
        return -1;
    if (dev.count == 0 && host.count == 0)
        return 0;
    const tr_bad *b = host.count > 0 ? &host : &dev;
    char note[160] = "";
    br_verify_note(note, sizeof note, on_host, (long long)host.count, (long long)dev.count);
    float got, want;
    memcpy(&got, &b->got, sizeof got);
    memcpy(&want, &b->want, sizeof want);
    return c->api->fail(c,
                        "%lld of %lld elements differ; first out[%lld][%lld] = %.9g (0x%08x), "
                        "expected in[%lld][%lld] = %.9g (0x%08x)%s",
                        (long long)b->count, (long long)(m * n), (long long)b->r, (long long)b->k,
                        (double)got, (unsigned)b->got, (long long)b->k, (long long)b->r,
                        (double)want, (unsigned)b->want, note);
}

static void teardown(br_case *c) {
    free(c->state); /* device memory is the runner's; state may be NULL */
    c->state = NULL;
}

static const br_kernel kernels[] = {
    {"transpose_naive", setup, run_naive, verify, teardown, &tr_kinds[TR_NAIVE]},
    {"transpose_tiled", setup, run_tiled, verify, teardown, &tr_kinds[TR_TILED]},
    {"transpose_padded", setup, run_padded, verify, teardown, &tr_kinds[TR_PADDED]},
};
BR_MODULE(kernels);
