/* SPDX-License-Identifier: Apache-2.0 */
/* sgemm.cu - four ways to compute the FP32 matrix product C = A * B on the GPU.
 *
 * Row-major throughout: A is m x k, B is k x n, C is m x n; alpha = 1,
 * beta = 0 (C is overwritten). One execution performs 2 * m * n * k
 * floating-point operations (one multiply and one add per term), the
 * convention behind the suite's GFLOP/s.
 *
 *   sgemm_naive   one thread per element of C, 32 x 8 threads per block,
 *                 threadIdx.x along n (B and C accesses coalesced, A
 *                 broadcast), a plain k-long dot product from global memory.
 *   sgemm_smem    the classic shared-memory tiling of the CUDA C++
 *                 Programming Guide ("Shared Memory" matrix multiplication):
 *                 32 x 32 threads per block, one element each, 32 x 32 tiles
 *                 of A and B staged through shared memory.
 *   sgemm_reg     2-D register blocking: a 128 x 128 tile of C per block of
 *                 256 threads, 8 x 8 elements per thread, k in steps of 8. The
 *                 design of Simon Boehm's "How to optimize a CUDA matmul kernel
 *                 for cuBLAS-like performance" (2022, kernels 6 to 10), with
 *                 the techniques of Volkov & Demmel ("Benchmarking GPUs to tune
 *                 dense linear algebra", SC08: few threads, many outputs per
 *                 thread in registers) and CUTLASS ("Efficient GEMM in CUDA":
 *                 warp tiles, double buffering); details below at the kernel.
 *   sgemm_cublas  cublasSgemm, row-major through the usual transposition
 *                 (C^T = B^T * A^T in column-major), math mode set by
 *                 SG_CUBLAS_MATH: CUBLAS_PEDANTIC_MATH, plain FP32 (no TF32,
 *                 no tensor cores), see below.
 *
 * Parameters: m, n, k (int64, each 1..65536). Every kernel is correct for any
 * size. sgemm_reg takes its fast path (float4 loads and stores, no bounds
 * checks) when m and n are multiples of 128 and k a multiple of 8, and the
 * same kernel compiled with bounds checks (scalar, zero-filled loads, guarded
 * stores) otherwise; the other hand-written kernels always check bounds.
 *
 * Inputs: A[i][p] and B[p][j] are uniform in [-1, 1), multiples of 2^-23 (so
 * exact in float), a stateless function of the case seed and the element's
 * index (sg_value: draw number index + 1 of br_splitmix64 started at a
 * per-matrix seed). The device fills the matrices in setup; the host computes
 * the reference from the same function, so it never copies the inputs back.
 * If the device fill went wrong, the GPU result disagrees with the reference
 * and verify fails, as it should.
 *
 * Verification: setup computes, in double precision, the reference and an
 * error bound for a set of positions of C: all of C when m*n <= 65536 and the
 * reference costs at most 2^26 multiply-adds, otherwise 1024 fixed positions
 * (the four corners, 30 of the last row, 30 of the last column and 960 spread
 * over C). verify gathers those entries on the device, copies them back and
 * compares. The bound is rigorous for any order of summation (see
 * sg_reference). */
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "benchrun_cuda.h"
#include "benchrun_kernel.h"

/* cuBLAS math mode: CUBLAS_PEDANTIC_MATH, so that cublasSgemm runs with
 * compute type CUBLAS_COMPUTE_32F_PEDANTIC, "standard arithmetic and exact
 * specified internal storage format" (cublas_api.h): plain FP32 FMA, never
 * TF32 and never a tensor-core emulation of FP32 (BF16x9), on any GPU. That is
 * the arithmetic of the hand-written kernels, so the comparison is like for
 * like and does not change with the cuBLAS version or GPU generation.
 * CUBLAS_DEFAULT_MATH (CUBLAS_COMPUTE_32F) also excludes TF32 (an opt-in
 * through CUBLAS_TF32_TENSOR_OP_MATH) but only promises "at least" FP32
 * precision, leaving cuBLAS free to use a tensor-core emulation of FP32 where
 * it has one. Build with
 * -DSG_CUBLAS_MATH=CUBLAS_DEFAULT_MATH (or 0) to compare. */
#ifndef SG_CUBLAS_MATH
#define SG_CUBLAS_MATH CUBLAS_PEDANTIC_MATH
#endif
/* sgemm_reg: rows of block tiles per group in the rasterisation of the grid
 * (consecutive blocks sweep SG_GROUP_M block rows before the next block
 * column, so the blocks resident at once share tiles of A and B in L2). */
#ifndef SG_GROUP_M
#define SG_GROUP_M 8
#endif

/* The largest m, n or k accepted: products of two stay below 2^32, int holds
 * each, and the host reference stays cheap. */
#define SG_MAX_DIM 65536
/* Positions of C checked when not all of C is. */
#define SG_SAMPLES 1024
/* Multiply-adds the host reference may cost before verify switches to the
 * sample (1024 positions at k = 65536 cost 2^26 too). */
#define SG_REF_BUDGET ((int64_t)1 << 26)

/* sgemm_naive: 32 x 8 threads, one C element each. */
#define SG_NAIVE_BX      32
#define SG_NAIVE_BY      8
#define SG_NAIVE_THREADS (SG_NAIVE_BX * SG_NAIVE_BY)
/* sgemm_smem: 32 x 32 threads, 32 x 32 tiles. */
#define SG_TILE         32
#define SG_TILE_THREADS (SG_TILE * SG_TILE)
/* sgemm_reg: block tile BM x BN, k step BK, 256 threads of 8 x 8 outputs. */
#define SG_BM      128
#define SG_BN      128
#define SG_BK      8
#define SG_THREADS 256
/* Padding of a row of the transposed A tile in shared memory: with 132 floats
 * a row (528 bytes: float4-aligned, 16 banks apart) the transposing stores of
 * one warp hit 32 different banks. */
#define SG_APAD 4

/* sgemm_reg_kernel's thread mappings (one float4 of each tile per thread,
 * 16 x 16 threads of 8 x 8 outputs, quadrants 64 apart) are written for these. */
static_assert(SG_BM == 128 && SG_BN == 128 && SG_BK == 8 && SG_THREADS == 256,
              "sgemm_reg_kernel is written for 128 x 128 x 8 tiles and 256 threads");

enum sg_kind { SG_NAIVE, SG_SMEM, SG_REG, SG_CUBLAS };

/* One checked position of C with its reference and error bound. */
struct sg_probe {
    int64_t i, j;
    double want;  /* sum_p A[i][p] * B[p][j], in double */
    double bound; /* largest |got - want| a correct FP32 kernel can produce */
};

struct sg_state {
    enum sg_kind kind;
    int m, n, k;
    uint64_t seed_a, seed_b;
    float *a, *b, *c; /* device (runner allocations) */
    bool reg_checked; /* sgemm_reg takes its bounds-checked path */
    int64_t n_probes;
    sg_probe *probes;    /* host (malloc) */
    float *got;          /* host (malloc), the gathered entries of C */
    int64_t *probe_at_d; /* device (runner allocation), i * n + j per probe */
    float *got_d;        /* device (runner allocation) */
    cublasHandle_t handle;
    bool have_handle;
};

#define SG_CUBLAS(c, call)                                                                         \
    do {                                                                                           \
        cublasStatus_t sg_st_ = (call);                                                            \
        if (sg_st_ != CUBLAS_STATUS_SUCCESS)                                                       \
            return (c)->api->fail((c), "%s: %s (%s)", #call, cublasGetStatusName(sg_st_),          \
                                  cublasGetStatusString(sg_st_));                                  \
    } while (0)

/* ---- inputs ------------------------------------------------------------ */

/* Element `index` of the matrix with seed `seed`: the (index + 1)-th output of
 * br_splitmix64 started at seed, its top 24 bits r mapped to r * 2^-23 - 1, a
 * multiple of 2^-23 in [-1, 1) computed exactly on host and device alike. */
__host__ __device__ __forceinline__ float sg_value(uint64_t seed, uint64_t index) {
    return (float)(uint32_t)(br_draw(seed, (int64_t)index) >> 40) * (1.0f / 8388608.0f) - 1.0f;
}

__global__ void sg_fill_kernel(float *__restrict__ x, uint64_t count, uint64_t seed) {
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride)
        x[i] = sg_value(seed, i);
}

/* got[t] = c[at[t]]: the entries verify checks. */
__global__ void sg_gather_kernel(const float *__restrict__ c, const int64_t *__restrict__ at,
                                 float *__restrict__ got, int64_t count) {
    const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t < count)
        got[t] = c[at[t]];
}

/* ---- sgemm_naive -------------------------------------------------------- */

__global__ void __launch_bounds__(SG_NAIVE_THREADS)
    sgemm_naive_kernel(const float *__restrict__ A, const float *__restrict__ B,
                       float *__restrict__ C, int M, int N, int K) {
    const int j = blockIdx.x * SG_NAIVE_BX + threadIdx.x; /* along n: coalesced */
    const int i = blockIdx.y * SG_NAIVE_BY + threadIdx.y;
    if (i >= M || j >= N)
        return;
    const float *a = A + (size_t)i * K;
    const float *b = B + j;
    float acc = 0.0f;
    for (int p = 0; p < K; p++)
        acc += a[p] * b[(size_t)p * N];
    C[(size_t)i * N + j] = acc;
}

/* ---- sgemm_smem --------------------------------------------------------- */

/* Each block computes a 32 x 32 tile of C, one element per thread. Per step
 * of 32 along k, the threads load a 32 x 32 tile of A and one of B (each
 * thread one element of each, coalesced along the row), then every thread
 * runs 32 multiply-adds out of shared memory: As[ty][p] is one address per
 * warp (broadcast), Bs[p][tx] 32 consecutive words (no bank conflicts). */
__global__ void __launch_bounds__(SG_TILE_THREADS)
    sgemm_smem_kernel(const float *__restrict__ A, const float *__restrict__ B,
                      float *__restrict__ C, int M, int N, int K) {
    __shared__ float As[SG_TILE][SG_TILE];
    __shared__ float Bs[SG_TILE][SG_TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int i = blockIdx.y * SG_TILE + ty;
    const int j = blockIdx.x * SG_TILE + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += SG_TILE) {
        As[ty][tx] = (i < M && k0 + tx < K) ? A[(size_t)i * K + k0 + tx] : 0.0f;
        Bs[ty][tx] = (k0 + ty < K && j < N) ? B[(size_t)(k0 + ty) * N + j] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int p = 0; p < SG_TILE; p++)
            acc += As[ty][p] * Bs[p][tx];
        __syncthreads();
    }
    if (i < M && j < N)
        C[(size_t)i * N + j] = acc;
}

/* ---- sgemm_reg ---------------------------------------------------------- */

/* Block tile 128 x 128 of C, k step BK = 8, 256 threads in 8 warps.
 *
 * Per thread: an 8 x 8 tile of C in 64 registers, as four 4 x 4 quadrants 64
 * rows and 64 columns apart: rows ty*4 + {0..3} and 64 + ty*4 + {0..3},
 * columns tx*4 + {0..3} and 64 + tx*4 + {0..3} of the block tile (ty, tx in
 * 0..15). Splitting the 8 x 8 tile keeps every shared-memory read a float4
 * and makes neighbouring threads read neighbouring float4s.
 *
 * Warp tile: warp w holds ty = (w / 2) * 4 + lane / 8 and
 * tx = (w % 2) * 8 + lane % 8, i.e. 4 x 8 threads. Per k each thread reads two
 * float4 of A and two of B from shared memory; across the warp one float4 read
 * of A touches 4 distinct float4s (64 bytes), one of B 8 distinct (128 bytes),
 * each within one 128-byte shared-memory wavefront (the rest broadcast): 4
 * wavefronts per 64 FFMA instructions per warp, far below what shared memory
 * sustains, so the kernel is bound by FFMA issue (Boehm's kernel 10 / CUTLASS
 * warp tiling, Volkov & Demmel's register blocking).
 *
 * Tiles in shared memory: A transposed, As[k][m] (rows of 128 + 4 floats), so
 * the 8 A values a thread needs for one k are two float4 reads; B as it is,
 * Bs[k][n]. Each is double-buffered: while the threads compute out of one
 * buffer, the next k tile travels from global memory into registers (one
 * float4 of A and one of B per thread, issued before the compute so its
 * latency hides behind 512 FFMAs) and is then stored to the other buffer; one
 * __syncthreads per k tile. The global loads: thread t reads A row t / 2,
 * columns (t % 2) * 4 .. +3 (each 32-byte sector fully used), and B row t / 32,
 * columns (t % 32) * 4 .. +3 (a warp reads 512 contiguous bytes). The
 * transposing stores of A hit 32 distinct banks thanks to the padding.
 * Within the tile, the fragments of the next k are read from shared memory
 * before the FFMAs of the current k (register double buffering).
 *
 * 2 blocks of 256 threads per SM (__launch_bounds__(256, 2): at most 128
 * registers a thread), 16.5 KiB of shared memory per block.
 *
 * kChecked = false needs M % 128 == 0, N % 128 == 0, K % 8 == 0 (and 16-byte
 * aligned matrices); kChecked = true handles any size with zero-filled scalar
 * loads and guarded scalar stores. */
template <bool kChecked>
__global__ void __launch_bounds__(SG_THREADS, 2)
    sgemm_reg_kernel(const float *__restrict__ A, const float *__restrict__ B,
                     float *__restrict__ C, int M, int N, int K, int grid_m, int grid_n) {
    __shared__ __align__(16) float As[2][SG_BK][SG_BM + SG_APAD];
    __shared__ __align__(16) float Bs[2][SG_BK][SG_BN];

    /* Grouped rasterisation of the 1-D grid (as in CUTLASS's threadblock
     * swizzle and Triton's matmul tutorial): SG_GROUP_M block rows at a time. */
    int bm, bn;
    {
        const int pid = blockIdx.x;
        const int per_group = SG_GROUP_M * grid_n;
        const int group = pid / per_group;
        const int first_m = group * SG_GROUP_M;
        const int rows = min(grid_m - first_m, SG_GROUP_M);
        const int r = pid - group * per_group;
        bm = first_m + r % rows;
        bn = r / rows;
    }
    const int row0 = bm * SG_BM, col0 = bn * SG_BN;

    const int tid = threadIdx.x;
    const int warp = tid / 32, lane = tid % 32;
    const int ty = (warp / 2) * 4 + lane / 8; /* 0..15 */
    const int tx = (warp % 2) * 8 + lane % 8; /* 0..15 */

    /* What this thread loads per k tile. */
    const int a_row = tid / 2, a_col = (tid % 2) * 4;   /* A: 128 rows x 8 */
    const int b_row = tid / 32, b_col = (tid % 32) * 4; /* B: 8 rows x 128 */
    const bool a_ok = !kChecked || row0 + a_row < M;
    /* The row of A this thread reads (clamped in range: never dereferenced
     * when !a_ok), and the row of B it reads in k tile 0. */
    const float *a_src = A + (size_t)(kChecked ? min(row0 + a_row, M - 1) : row0 + a_row) * K;
    const float *b_src = B + (size_t)b_row * N;

    float4 a_ld, b_ld; /* the next k tile, on its way to shared memory */
    auto load_tile = [&](int k0) {
        if (!kChecked) {
            a_ld = *reinterpret_cast<const float4 *>(a_src + k0 + a_col);
            b_ld = *reinterpret_cast<const float4 *>(b_src + (size_t)k0 * N + col0 + b_col);
        } else {
            const int ka = k0 + a_col;
            a_ld.x = (a_ok && ka + 0 < K) ? a_src[ka + 0] : 0.0f;
            a_ld.y = (a_ok && ka + 1 < K) ? a_src[ka + 1] : 0.0f;
            a_ld.z = (a_ok && ka + 2 < K) ? a_src[ka + 2] : 0.0f;
            a_ld.w = (a_ok && ka + 3 < K) ? a_src[ka + 3] : 0.0f;
            const bool kb = k0 + b_row < K;
            const float *b_at = b_src + (size_t)(kb ? k0 : 0) * N;
            const int jb = col0 + b_col;
            b_ld.x = (kb && jb + 0 < N) ? b_at[jb + 0] : 0.0f;
            b_ld.y = (kb && jb + 1 < N) ? b_at[jb + 1] : 0.0f;
            b_ld.z = (kb && jb + 2 < N) ? b_at[jb + 2] : 0.0f;
            b_ld.w = (kb && jb + 3 < N) ? b_at[jb + 3] : 0.0f;
        }
    };
    auto store_tile = [&](int buf) {
        As[buf][a_col + 0][a_row] = a_ld.x;
        As[buf][a_col + 1][a_row] = a_ld.y;
        As[buf][a_col + 2][a_row] = a_ld.z;
        As[buf][a_col + 3][a_row] = a_ld.w;
        *reinterpret_cast<float4 *>(&Bs[buf][b_row][b_col]) = b_ld;
    };

    float acc[8][8];
#pragma unroll
    for (int i = 0; i < 8; i++)
#pragma unroll
        for (int j = 0; j < 8; j++)
            acc[i][j] = 0.0f;

    const int n_tiles = (K + SG_BK - 1) / SG_BK;
    load_tile(0);
    store_tile(0);
    __syncthreads();

    for (int t = 0; t < n_tiles; t++) {
        const int cur = t & 1;
        const bool more = t + 1 < n_tiles;
        if (more)
            load_tile((t + 1) * SG_BK);

        /* Fragments: [k parity][quadrant half]. */
        float4 fa[2][2], fb[2][2];
        fa[0][0] = *reinterpret_cast<const float4 *>(&As[cur][0][ty * 4]);
        fa[0][1] = *reinterpret_cast<const float4 *>(&As[cur][0][64 + ty * 4]);
        fb[0][0] = *reinterpret_cast<const float4 *>(&Bs[cur][0][tx * 4]);
        fb[0][1] = *reinterpret_cast<const float4 *>(&Bs[cur][0][64 + tx * 4]);
#pragma unroll
        for (int kk = 0; kk < SG_BK; kk++) {
            const int p = kk & 1;
            if (kk + 1 < SG_BK) {
                fa[p ^ 1][0] = *reinterpret_cast<const float4 *>(&As[cur][kk + 1][ty * 4]);
                fa[p ^ 1][1] = *reinterpret_cast<const float4 *>(&As[cur][kk + 1][64 + ty * 4]);
                fb[p ^ 1][0] = *reinterpret_cast<const float4 *>(&Bs[cur][kk + 1][tx * 4]);
                fb[p ^ 1][1] = *reinterpret_cast<const float4 *>(&Bs[cur][kk + 1][64 + tx * 4]);
            }
            const float a[8] = {fa[p][0].x, fa[p][0].y, fa[p][0].z, fa[p][0].w,
                                fa[p][1].x, fa[p][1].y, fa[p][1].z, fa[p][1].w};
            const float b[8] = {fb[p][0].x, fb[p][0].y, fb[p][0].z, fb[p][0].w,
                                fb[p][1].x, fb[p][1].y, fb[p][1].z, fb[p][1].w};
#pragma unroll
            for (int i = 0; i < 8; i++)
#pragma unroll
                for (int j = 0; j < 8; j++)
                    acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }

        if (more) {
            /* The other buffer was last read in tile t - 1, before the
             * __syncthreads that ended it. */
            store_tile(cur ^ 1);
            __syncthreads();
        }
    }

    /* Epilogue: row i of the thread tile is block row (i / 4) * 64 + ty * 4 +
     * i % 4; columns j / 4 = 0, 1 are the float4s at tx * 4 and 64 + tx * 4.
     * Per store instruction a warp writes 4 rows x 128 contiguous bytes. */
#pragma unroll
    for (int i = 0; i < 8; i++) {
        const int row = row0 + (i / 4) * 64 + ty * 4 + i % 4;
        if (kChecked && row >= M)
            continue;
        float *c_row = C + (size_t)row * N;
#pragma unroll
        for (int h = 0; h < 2; h++) {
            const int col = col0 + h * 64 + tx * 4;
            const float4 v = make_float4(acc[i][h * 4 + 0], acc[i][h * 4 + 1], acc[i][h * 4 + 2],
                                         acc[i][h * 4 + 3]);
            if (!kChecked) {
                *reinterpret_cast<float4 *>(c_row + col) = v;
            } else {
                if (col + 0 < N)
                    c_row[col + 0] = v.x;
                if (col + 1 < N)
                    c_row[col + 1] = v.y;
                if (col + 2 < N)
                    c_row[col + 2] = v.z;
                if (col + 3 < N)
                    c_row[col + 3] = v.w;
            }
        }
    }
}

/* ---- host side --------------------------------------------------------- */

/* Read the dimension `name` and check it is in 1..SG_MAX_DIM. */
static int sg_param_dim(br_case *c, const char *name, int *out) {
    int64_t v = 0;
    if (c->api->param(c, name, &v) != 0)
        return -1; /* the runner recorded the error */
    if (v < 1 || v > SG_MAX_DIM)
        return c->api->fail(c, "parameter %s must be between 1 and %d, got %lld", name, SG_MAX_DIM,
                            (long long)v);
    *out = (int)v;
    return 0;
}

/* Reference and error bound for C[i][j]. The inputs are floats, so each
 * product a * b is exact in double and the double sum is off by at most
 * (k - 1) * 2^-53 * sum |a b|. A float32 kernel that sums the k products in
 * any order (any blocking, split or tree, with or without FMA) has every term
 * pass through at most k roundings of unit roundoff u = 2^-24, so
 * |got - exact| <= gamma_k * sum |a b|, gamma_k = k u / (1 - k u) (Higham,
 * "Accuracy and Stability of Numerical Algorithms", 2nd ed., section 3.1).
 * The bound adds k * DBL_EPSILON * sum |a b| for the reference's own error
 * and FLT_MIN so that it is never 0. No product can underflow: the smallest
 * nonzero input is 2^-23. */
static sg_probe sg_reference(const sg_state *s, int64_t i, int64_t j) {
    double sum = 0.0, sum_abs = 0.0;
    const uint64_t a_at = (uint64_t)i * (uint64_t)s->k, n = (uint64_t)s->n;
    for (int64_t p = 0; p < s->k; p++) {
        const double prod = (double)sg_value(s->seed_a, a_at + (uint64_t)p) *
                            (double)sg_value(s->seed_b, (uint64_t)p * n + (uint64_t)j);
        sum += prod;
        sum_abs += fabs(prod);
    }
    const double ku = (double)s->k * ((double)FLT_EPSILON / 2.0);
    const double gamma = ku / (1.0 - ku);
    sg_probe pr;
    pr.i = i;
    pr.j = j;
    pr.want = sum;
    pr.bound = (gamma + (double)s->k * DBL_EPSILON) * sum_abs + (double)FLT_MIN;
    return pr;
}

/* Choose the positions verify checks and compute their references. */
static int sg_make_probes(br_case *c, sg_state *s) {
    const int64_t m = s->m, n = s->n, k = s->k;
    const bool all = m * n <= 65536 && m * n * k <= SG_REF_BUDGET;
    const int64_t count = all ? m * n : SG_SAMPLES;
    s->probes = (sg_probe *)malloc((size_t)count * sizeof *s->probes);
    s->got = (float *)malloc((size_t)count * sizeof *s->got);
    int64_t *at = (int64_t *)malloc((size_t)count * sizeof *at);
    if (!s->probes || !s->got || !at) {
        free(at);
        return c->api->fail(c, "out of host memory for %lld reference entries", (long long)count);
    }
    if (all) {
        for (int64_t t = 0; t < count; t++)
            s->probes[t] = sg_reference(s, t / n, t % n);
    } else {
        /* Fixed positions (the same for every kernel and seed): the corners,
         * 30 of the last row, 30 of the last column, the rest anywhere. Edge
         * entries catch the bounds and tiling bugs of partial tiles. */
        uint64_t rng = 0x5347454D4D2D5052ull; /* any constant */
        int64_t t = 0;
        s->probes[t++] = sg_reference(s, 0, 0);
        s->probes[t++] = sg_reference(s, 0, n - 1);
        s->probes[t++] = sg_reference(s, m - 1, 0);
        s->probes[t++] = sg_reference(s, m - 1, n - 1);
        for (int r = 0; r < 30; r++)
            s->probes[t++] = sg_reference(s, m - 1, (int64_t)(br_splitmix64(&rng) % (uint64_t)n));
        for (int r = 0; r < 30; r++)
            s->probes[t++] = sg_reference(s, (int64_t)(br_splitmix64(&rng) % (uint64_t)m), n - 1);
        while (t < count) {
            const int64_t i = (int64_t)(br_splitmix64(&rng) % (uint64_t)m);
            const int64_t j = (int64_t)(br_splitmix64(&rng) % (uint64_t)n);
            s->probes[t++] = sg_reference(s, i, j);
        }
    }
    for (int64_t t = 0; t < count; t++)
        at[t] = s->probes[t].i * n + s->probes[t].j;
    s->n_probes = count;

    s->probe_at_d = (int64_t *)c->api->alloc(c, (size_t)count * sizeof(int64_t), BR_MEM_DEVICE);
    s->got_d = (float *)c->api->alloc(c, (size_t)count * sizeof(float), BR_MEM_DEVICE);
    cudaError_t err = cudaSuccess;
    if (s->probe_at_d && s->got_d)
        err =
            cudaMemcpy(s->probe_at_d, at, (size_t)count * sizeof(int64_t), cudaMemcpyHostToDevice);
    free(at);
    if (!s->probe_at_d || !s->got_d)
        return -1; /* the runner recorded the error */
    if (err != cudaSuccess)
        return c->api->fail(c, "cudaMemcpy of the probe positions: %s", cudaGetErrorString(err));
    return 0;
}

static int sg_setup(br_case *c, sg_kind kind) {
    sg_state *s = (sg_state *)calloc(1, sizeof *s);
    if (!s)
        return c->api->fail(c, "out of host memory for the case state");
    c->state = s;
    s->kind = kind;
    if (sg_param_dim(c, "m", &s->m) != 0 || sg_param_dim(c, "n", &s->n) != 0 ||
        sg_param_dim(c, "k", &s->k) != 0)
        return -1;
    const cudaStream_t stream = br_cuda_stream(c);
    uint64_t rng = c->api->seed(c);
    s->seed_a = br_splitmix64(&rng);
    s->seed_b = br_splitmix64(&rng);

    const size_t m = (size_t)s->m, n = (size_t)s->n, k = (size_t)s->k;
    s->a = (float *)c->api->alloc(c, m * k * sizeof(float), BR_MEM_DEVICE);
    s->b = (float *)c->api->alloc(c, k * n * sizeof(float), BR_MEM_DEVICE);
    s->c = (float *)c->api->alloc(c, m * n * sizeof(float), BR_MEM_DEVICE);
    if (!s->a || !s->b || !s->c)
        return -1; /* the runner recorded the error */

    /* Fill on the device; C starts as NaN (all ones) so an entry no run
     * writes fails verify. */
    sg_fill_kernel<<<1024, 256, 0, stream>>>(s->a, (uint64_t)(m * k), s->seed_a);
    sg_fill_kernel<<<1024, 256, 0, stream>>>(s->b, (uint64_t)(k * n), s->seed_b);
    BR_CUDA_TRY(c, cudaGetLastError());
    BR_CUDA_TRY(c, cudaMemsetAsync(s->c, 0xff, m * n * sizeof(float), stream));

    /* The host reference, while the device fills. */
    if (sg_make_probes(c, s) != 0)
        return -1;

    s->reg_checked = s->m % SG_BM != 0 || s->n % SG_BN != 0 || s->k % SG_BK != 0;
    if (kind == SG_CUBLAS) {
        SG_CUBLAS(c, cublasCreate(&s->handle));
        s->have_handle = true;
        SG_CUBLAS(c, cublasSetStream(s->handle, stream));
        SG_CUBLAS(c, cublasSetMathMode(s->handle, (cublasMath_t)(SG_CUBLAS_MATH)));
    }
    BR_CUDA_TRY(c, cudaStreamSynchronize(stream));
    return 0;
}

/* One setup for every kernel: the kernel's arg is its sg_kind. */
static const sg_kind sg_kinds[] = {SG_NAIVE, SG_SMEM, SG_REG, SG_CUBLAS};

static int setup(br_case *c) {
    return sg_setup(c, *(const sg_kind *)c->api->arg(c));
}

static int run_naive(br_case *c) {
    sg_state *s = (sg_state *)c->state;
    const dim3 block(SG_NAIVE_BX, SG_NAIVE_BY);
    const dim3 grid((s->n + SG_NAIVE_BX - 1) / SG_NAIVE_BX, (s->m + SG_NAIVE_BY - 1) / SG_NAIVE_BY);
    sgemm_naive_kernel<<<grid, block, 0, br_cuda_stream(c)>>>(s->a, s->b, s->c, s->m, s->n, s->k);
    return br_cuda_launched(c, "sgemm_naive_kernel");
}

static int run_smem(br_case *c) {
    sg_state *s = (sg_state *)c->state;
    const dim3 block(SG_TILE, SG_TILE);
    const dim3 grid((s->n + SG_TILE - 1) / SG_TILE, (s->m + SG_TILE - 1) / SG_TILE);
    sgemm_smem_kernel<<<grid, block, 0, br_cuda_stream(c)>>>(s->a, s->b, s->c, s->m, s->n, s->k);
    return br_cuda_launched(c, "sgemm_smem_kernel");
}

static int run_reg(br_case *c) {
    sg_state *s = (sg_state *)c->state;
    const int grid_m = (s->m + SG_BM - 1) / SG_BM, grid_n = (s->n + SG_BN - 1) / SG_BN;
    const unsigned int blocks = (unsigned int)(grid_m * grid_n); /* at most 2^18 */
    if (s->reg_checked)
        sgemm_reg_kernel<true><<<blocks, SG_THREADS, 0, br_cuda_stream(c)>>>(
            s->a, s->b, s->c, s->m, s->n, s->k, grid_m, grid_n);
    else
        sgemm_reg_kernel<false><<<blocks, SG_THREADS, 0, br_cuda_stream(c)>>>(
            s->a, s->b, s->c, s->m, s->n, s->k, grid_m, grid_n);
    return br_cuda_launched(c, s->reg_checked ? "sgemm_reg_kernel<checked>" : "sgemm_reg_kernel");
}

static int run_cublas(br_case *c) {
    sg_state *s = (sg_state *)c->state;
    const float one = 1.0f, zero = 0.0f;
    /* Row-major C = A B is column-major C^T = B^T A^T: cuBLAS sees B as an
     * n x k column-major matrix (ld n), A as k x m (ld k), C as n x m (ld n). */
    SG_CUBLAS(c, cublasSgemm(s->handle, CUBLAS_OP_N, CUBLAS_OP_N, s->n, s->m, s->k, &one, s->b,
                             s->n, s->a, s->k, &zero, s->c, s->n));
    return br_cuda_launched(c, "cublasSgemm");
}

static int verify(br_case *c) {
    sg_state *s = (sg_state *)c->state;
    const cudaStream_t stream = br_cuda_stream(c);
    const unsigned int blocks = (unsigned int)((s->n_probes + 255) / 256);
    sg_gather_kernel<<<blocks, 256, 0, stream>>>(s->c, s->probe_at_d, s->got_d, s->n_probes);
    BR_CUDA_TRY(c, cudaGetLastError());
    BR_CUDA_TRY(c, cudaMemcpyAsync(s->got, s->got_d, (size_t)s->n_probes * sizeof(float),
                                   cudaMemcpyDeviceToHost, stream));
    BR_CUDA_TRY(c, cudaStreamSynchronize(stream));

    int64_t bad = 0, first = -1;
    for (int64_t t = 0; t < s->n_probes; t++) {
        const double err = fabs((double)s->got[t] - s->probes[t].want);
        if (!(err <= s->probes[t].bound)) { /* also NaN and infinity */
            if (first < 0)
                first = t;
            bad++;
        }
    }
    if (bad == 0)
        return 0;
    const sg_probe *pr = &s->probes[first];
    return c->api->fail(c,
                        "C[%lld][%lld] is %.9g, expected %.9g (|error| %.3g > bound %.3g); "
                        "%lld of %lld checked entries are off (m=%d n=%d k=%d)",
                        (long long)pr->i, (long long)pr->j, (double)s->got[first], pr->want,
                        fabs((double)s->got[first] - pr->want), pr->bound, (long long)bad,
                        (long long)s->n_probes, s->m, s->n, s->k);
}

static void teardown(br_case *c) {
    sg_state *s = (sg_state *)c->state;
    if (!s)
        return;
    if (s->have_handle)
        cublasDestroy(s->handle);
    free(s->probes);
    free(s->got);
    free(s); /* device memory is the runner's */
    c->state = NULL;
}

static const br_kernel kernels[] = {
    {"sgemm_naive", setup, run_naive, verify, teardown, &sg_kinds[SG_NAIVE]},
    {"sgemm_smem", setup, run_smem, verify, teardown, &sg_kinds[SG_SMEM]},
    {"sgemm_reg", setup, run_reg, verify, teardown, &sg_kinds[SG_REG]},
    {"sgemm_cublas", setup, run_cublas, verify, teardown, &sg_kinds[SG_CUBLAS]},
};
BR_MODULE(kernels);
