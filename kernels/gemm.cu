/* SPDX-License-Identifier: Apache-2.0 */
/* Tensor Core GEMMs C = A * B with FP32 accumulation, in FP16, BF16, TF32
 * and FP8: two hand-written FP16 kernels and cuBLAS.
 *
 * Layout (the same for every kernel): A is m x k row-major; B is k x n but
 * stored as its transpose Bt, n x k row-major (B column-major), so both
 * operands are contiguous along k; C is m x n row-major; alpha = 1, beta = 0.
 * C[i][j] = sum_p A[i][p] * Bt[j][p]. This is the layout of a linear layer
 * in LLM inference (activations m x k times a weight stored n x k: y = x W^T)
 * and the "TN" layout that cuBLASLt's FP8 GEMMs require. One execution does
 * 2 m n k floating-point operations.
 *
 *   gemm_cublas_fp16  cublasGemmEx, FP16 A, B and C, FP32 compute
 *                     (CUBLAS_COMPUTE_32F): the suite's speedup reference.
 *   hgemm_wmma        nvcuda::wmma 16x16x16 FP16 fragments with FP32
 *                     accumulators, the shape of the CUDA C++ Programming
 *                     Guide's "Warp Matrix Functions" example, tiled: a
 *                     128 x 128 tile of C per block of 8 warps (each 64 x 32,
 *                     4 x 2 fragments), k in steps of 32 through shared
 *                     memory (one buffer, loads and compute in turn).
 *   hgemm_mma         PTX mma.sync.aligned.m16n8k16 (FP16 in, FP32
 *                     accumulate) with ldmatrix: a 128 x 128 tile per block
 *                     of 8 warps (each 64 x 32: 4 x 4 mma tiles), k in steps
 *                     of 32 through a 3-stage cp.async pipeline (the next
 *                     two k tiles on their way while one is computed), the
 *                     design of CUTLASS's Ampere GEMMs ("Efficient GEMM in
 *                     CUDA", CUTLASS documentation; NVIDIA, "PTX ISA",
 *                     sections on mma.m16n8k16, ldmatrix and cp.async).
 *   gemm_cublas_bf16  cublasGemmEx, BF16 A, B and C, FP32 compute.
 *   gemm_cublas_tf32  cublasGemmEx, FP32 A, B and C, compute
 *                     CUBLAS_COMPUTE_32F_FAST_TF32 (inputs cut to TF32 on
 *                     the Tensor Cores).
 *   gemm_cublas_fp8   cublasLtMatmul, FP8 E4M3 A and B (scales 1), FP16 C,
 *                     FP32 compute, fast accumulation off; needs compute
 *                     capability 8.9 or later: on an older GPU setup fails
 *                     with a message that says so (the suite declares the
 *                     kernel's precision, so a benchrun that knows
 *                     `precision:` skips it there before setup).
 *
 * Parameters: m, n, k (int64, 1..65536). The hand-written kernels check m and
 * n bounds (any m, n) and need k a multiple of 8 (16-byte rows for their
 * vector and cp.async loads); setup says so otherwise. hgemm_mma needs
 * compute capability 8.0, hgemm_wmma 7.0, gemm_cublas_bf16 8.0.
 *
 * Inputs: uniform in [-1, 1) (multiples of 2^-23, as the sgemm suite draws
 * them, from br_draw at a per-matrix seed and the element's index), rounded
 * to nearest into the kernel's input type (FP16, BF16, E4M3; FP32 for TF32),
 * filled on the device in setup. C starts as NaN, so an entry no run writes
 * fails verify.
 *
 * Verification, every entry at every size: setup converts the stored inputs
 * to FP64 and takes their product with cublasDgemm (pedantic math: IEEE FP64)
 * into an FP64 reference, and the 2-norms of the rows of A and of Bt; verify
 * counts on the device the entries off by more than the bound of
 * br_gemm_bound (the rule and its sources are in the tolerance header), with
 * the kernel's rule (gm_kinds below), and reads back the count and the first
 * one.
 *
 * A planted fault for tests: the environment variable BR_GEMM_FAULT=I,J[,D]
 * makes verify first add D (default 1) to C[I][J] (negative I, J count from
 * the end), as a kernel that got one entry wrong would. */
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>
#include <mma.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "benchrun_cuda.h"
#include "benchrun_kernel.h"
#include "verify_common.h"
#include "gemm_tolerance.h"

/* The largest m, n or k accepted. */
#define GM_MAX_DIM 65536
/* Threads per block of the fill, reference and check kernels. */
#define GM_THREADS 256
/* cuBLASLt's workspace for the FP8 GEMM (32 MiB, what NVIDIA's samples and
 * PyTorch give it on Hopper). */
#define GM_LT_WORKSPACE ((size_t)32 << 20)

/* hgemm_wmma and hgemm_mma: block tile BM x BN, k step BK, 8 warps as 2
 * (along m) x 4 (along n), each a 64 x 32 warp tile. Shared-memory rows hold
 * BK halves plus 8 of padding: 80 bytes, so the 8 rows an ldmatrix (or a
 * wmma load) reads at one column start in 8 different 16-byte bank groups
 * (5 r mod 8 is distinct for r = 0..7), and every row stays 16-byte aligned
 * for cp.async. */
#define GM_BM     128
#define GM_BN     128
#define GM_BK     32
#define GM_LDS    (GM_BK + 8)
#define GM_WARPS  8
#define GM_TILE_T (GM_WARPS * 32)
#define GM_STAGES 3
/* Block rows per group of the grid's rasterisation (see gm_block_tile). */
#define GM_GROUP_M  8
#define GM_MMA_SMEM ((size_t)GM_STAGES * (GM_BM + GM_BN) * GM_LDS * sizeof(__half))

/* The thread mappings below (two 16-byte chunks of A and of Bt per thread per
 * k tile; 2 x 4 warps of 64 x 32) are written for these. */
static_assert(GM_BM == 128 && GM_BN == 128 && GM_BK == 32 && GM_TILE_T == 256,
              "the hand-written kernels are written for 128 x 128 x 32 tiles and 256 threads");
static_assert(GM_STAGES >= 2, "the cp.async pipeline needs at least two stages");

/* ---- kinds: what each kernel stores and the rule of its bound ----------- */

enum gm_kind {
    GM_CUBLAS_FP16,
    GM_WMMA,
    GM_MMA,
    GM_CUBLAS_BF16,
    GM_CUBLAS_TF32,
    GM_CUBLAS_FP8,
};

enum gm_type { GM_F16, GM_BF16, GM_F32, GM_E4M3 };

struct gm_kind_info {
    const char *name;
    gm_type in, out; /* storage of A and Bt, of C */
    int min_cc;      /* compute capability, major * 10 + minor */
    br_gemm_rule rule;
    const char *rule_name; /* for messages */
};

/* The rules are the tolerance header's, which the tests check on the host. */
static const gm_kind_info gm_kinds[] = {
    {"gemm_cublas_fp16", GM_F16, GM_F16, 0, BR_GEMM_RULE_FP16,
     "FP16 in, FP32 accumulate, FP16 out"},
    {"hgemm_wmma", GM_F16, GM_F16, 70, BR_GEMM_RULE_FP16, "FP16 in, FP32 accumulate, FP16 out"},
    {"hgemm_mma", GM_F16, GM_F16, 80, BR_GEMM_RULE_FP16, "FP16 in, FP32 accumulate, FP16 out"},
    {"gemm_cublas_bf16", GM_BF16, GM_BF16, 80, BR_GEMM_RULE_BF16,
     "BF16 in, FP32 accumulate, BF16 out"},
    {"gemm_cublas_tf32", GM_F32, GM_F32, 0, BR_GEMM_RULE_TF32,
     "FP32 in cut to TF32, FP32 accumulate, FP32 out"},
    {"gemm_cublas_fp8", GM_E4M3, GM_F16, 89, BR_GEMM_RULE_FP8,
     "E4M3 in, 14-bit chunks of 128 into FP32, FP16 out"},
};

static size_t gm_size(gm_type t) {
    return t == GM_F32 ? 4 : t == GM_E4M3 ? 1 : 2;
}

struct gm_state {
    gm_kind kind;
    const gm_kind_info *info;
    int m, n, k;
    uint64_t seed_a, seed_b;
    void *a, *b, *c; /* device (runner allocations): A m x k, Bt n x k, C m x n */
    /* The reference (runner allocations): C in FP64, the 2-norms of the rows
     * of A and of Bt, the check's counters (mismatches, first flat index)
     * and four doubles a report reads back. */
    double *ref, *row_norm, *col_norm, *probe;
    unsigned long long *tally;
    double g; /* br_gemm_scale of the kind's rule at k */
    /* BR_GEMM_FAULT: add fault.delta to C[fault.i][fault.j] before verify
     * (fault.on; verify_common.h). */
    br_verify_fault fault;
    /* cuBLAS kinds: the worker's handle (gm_handles), borrowed */
    cublasHandle_t handle;
    /* the FP8 kind: cuBLASLt's handle (gm_lt_handle, borrowed), descriptors,
     * algorithm and workspace */
    cublasLtHandle_t lt;
    cublasLtMatmulDesc_t desc;
    cublasLtMatrixLayout_t lay_a, lay_b, lay_c;
    cublasLtMatmulPreference_t pref;
    cublasLtMatmulHeuristicResult_t algo;
    void *workspace;
    float *scales; /* device: the scale factors of A ([0]) and B ([4]), both 1 */
};

#define GM_CUBLAS(c, call)                                                                         \
    do {                                                                                           \
        cublasStatus_t gm_st_ = (call);                                                            \
        if (gm_st_ != CUBLAS_STATUS_SUCCESS)                                                       \
            return (c)->api->fail((c), "%s: %s (%s)", #call, cublasGetStatusName(gm_st_),          \
                                  cublasGetStatusString(gm_st_));                                  \
    } while (0)

/* cuBLAS's handles, one of each per worker process, made on a case's first
 * use and kept until the process ends: cublasCreate and a handle's first
 * GEMM cost about 0.1 s (cuBLAS loads its kernels and heuristics), which,
 * paid by every case, was a fifth of the suite's wall time on an H200. A
 * worker serves one device, so one handle serves all its cases; each use
 * sets the case's stream. GM_HANDLE_KERNEL does the kernels' GEMMs
 * (default math), GM_HANDLE_REFERENCE the FP64 reference (pedantic math). */
enum { GM_HANDLE_KERNEL = 0, GM_HANDLE_REFERENCE = 1 };
static cublasHandle_t gm_handles[2];
static cublasLtHandle_t gm_lt_handle;

/* *out = handle `which` on the case's stream, made on first use. */
static int gm_handle(br_case *c, int which, cublasHandle_t *out) {
    if (!gm_handles[which]) {
        cublasHandle_t h = NULL;
        GM_CUBLAS(c, cublasCreate(&h));
        if (which == GM_HANDLE_REFERENCE &&
            cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH) != CUBLAS_STATUS_SUCCESS) {
            cublasDestroy(h);
            return c->api->fail(c, "cublasSetMathMode(CUBLAS_PEDANTIC_MATH) failed");
        }
        gm_handles[which] = h;
    }
    GM_CUBLAS(c, cublasSetStream(gm_handles[which], br_cuda_stream(c)));
    *out = gm_handles[which];
    return 0;
}

/* ---- element access per storage type ------------------------------------ */

__device__ __forceinline__ void gm_put(__half *p, float x) {
    *p = __float2half_rn(x);
}
__device__ __forceinline__ void gm_put(__nv_bfloat16 *p, float x) {
    *p = __float2bfloat16_rn(x);
}
__device__ __forceinline__ void gm_put(float *p, float x) {
    *p = x;
}
__device__ __forceinline__ void gm_put(__nv_fp8_e4m3 *p, float x) {
    *p = __nv_fp8_e4m3(x); /* round to nearest, saturating to +-448 */
}
__device__ __forceinline__ float gm_get(const __half *p) {
    return __half2float(*p);
}
__device__ __forceinline__ float gm_get(const __nv_bfloat16 *p) {
    return __bfloat162float(*p);
}
__device__ __forceinline__ float gm_get(const float *p) {
    return *p;
}
__device__ __forceinline__ float gm_get(const __nv_fp8_e4m3 *p) {
    return static_cast<float>(*p);
}

/* ---- inputs and the reference ------------------------------------------- */

/* Element `index` of the matrix with seed `seed`, before rounding to the
 * input type: r * 2^-23 - 1 for the top 24 bits r of draw index + 1. */
__device__ __forceinline__ float gm_value(uint64_t seed, uint64_t index) {
    return (float)(uint32_t)(br_draw(seed, (int64_t)index) >> 40) * (1.0f / 8388608.0f) - 1.0f;
}

template <typename T>
__global__ void gm_fill_kernel(T *__restrict__ x, uint64_t count, uint64_t seed) {
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride)
        gm_put(&x[i], gm_value(seed, i));
}

/* out[i] = x[i] in FP64 (exact: every input type is a subset of FP64). */
template <typename T>
__global__ void gm_widen_kernel(double *__restrict__ out, const T *__restrict__ x, uint64_t count) {
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride)
        out[i] = (double)gm_get(&x[i]);
}

/* out[r] = 2-norm of row r of the rows x k matrix x (row-major), in FP64: one
 * block of GM_THREADS threads per row. */
template <typename T>
__global__ void __launch_bounds__(GM_THREADS)
    gm_row_norm_kernel(double *__restrict__ out, const T *__restrict__ x, int64_t k) {
    __shared__ double part[GM_THREADS];
    const T *row = x + (int64_t)blockIdx.x * k;
    double sum = 0.0;
    for (int64_t p = threadIdx.x; p < k; p += GM_THREADS) {
        const double v = (double)gm_get(&row[p]);
        sum += v * v;
    }
    part[threadIdx.x] = sum;
    __syncthreads();
    for (int w = GM_THREADS / 2; w > 0; w /= 2) {
        if ((int)threadIdx.x < w)
            part[threadIdx.x] += part[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = sqrt(part[0]);
}

/* Count the entries of the m x n matrix c off by more than br_gemm_bound
 * (NaN and infinity included) into tally[0], and the smallest flat index of
 * one into tally[1] (which must start at ULLONG_MAX). */
template <typename T>
__global__ void __launch_bounds__(GM_THREADS)
    gm_check_kernel(const T *__restrict__ c, const double *__restrict__ ref,
                    const double *__restrict__ row_norm, const double *__restrict__ col_norm,
                    int64_t m, int64_t n, double g, double u_out, double tiny,
                    unsigned long long *__restrict__ tally) {
    const int64_t count = m * n;
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    unsigned long long bad = 0, first = ~0ull;
    for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < count; t += stride) {
        const int64_t i = t / n, j = t - i * n;
        const double want = ref[t];
        const double err = fabs((double)gm_get(&c[t]) - want);
        if (!(err <= br_gemm_bound(g, u_out, tiny, row_norm[i] * col_norm[j], want))) {
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

/* out = {C[t], ref[t], row_norm[t / n], col_norm[t % n]}: what a report
 * prints about entry t. */
template <typename T>
__global__ void gm_probe_kernel(double *out, const T *c, const double *ref, const double *row_norm,
                                const double *col_norm, int64_t n, int64_t t) {
    out[0] = (double)gm_get(&c[t]);
    out[1] = ref[t];
    out[2] = row_norm[t / n];
    out[3] = col_norm[t % n];
}

/* c[t] += delta, rounded to the output type (the planted fault). */
template <typename T> __global__ void gm_add_kernel(T *c, int64_t t, float delta) {
    gm_put(&c[t], gm_get(&c[t]) + delta);
}

/* ---- hgemm_wmma ---------------------------------------------------------- */

/* The tile of C (block row *bm, block column *bn) of this block of a 1-D grid
 * of grid_m x grid_n blocks, rasterised in groups of GM_GROUP_M block rows
 * (as CUTLASS's threadblock swizzle and Triton's matmul tutorial do, and the
 * sgemm suite's register-blocked kernel): consecutive blocks sweep the rows of
 * a group before the next column, so the blocks resident at once share k
 * slices of A and Bt in L2 instead of streaming all of Bt per block row. */
__device__ __forceinline__ void gm_block_tile(int grid_m, int grid_n, int *bm, int *bn) {
    const int pid = blockIdx.x;
    const int per_group = GM_GROUP_M * grid_n;
    const int group = pid / per_group;
    const int first_m = group * GM_GROUP_M;
    const int rows = min(grid_m - first_m, GM_GROUP_M);
    const int r = pid - group * per_group;
    *bm = first_m + r % rows;
    *bn = r / rows;
}

/* Copy this thread's two 16-byte chunks of the BM x BK tile of A (rows row0..)
 * and of the BN x BK tile of Bt (rows col0..) at k0 into As and Bs, zeros
 * outside the matrices (rows past M or N, k past K; K % 8 == 0, so a chunk is
 * wholly in or out). Chunk q = tid + i * 256: row q / 4, k offset (q % 4) * 8.
 * A warp reads 8 rows x 64 contiguous bytes of each. */
__device__ __forceinline__ void gm_wmma_load(__half (*As)[GM_LDS], __half (*Bs)[GM_LDS],
                                             const __half *__restrict__ A,
                                             const __half *__restrict__ Bt, int M, int N, int K,
                                             int row0, int col0, int k0) {
    const uint4 zero = make_uint4(0u, 0u, 0u, 0u);
#pragma unroll
    for (int i = 0; i < 2; i++) {
        const int q = threadIdx.x + i * GM_TILE_T;
        const int r = q / 4, kc = (q % 4) * 8;
        const int kg = k0 + kc;
        const bool a_ok = row0 + r < M && kg < K, b_ok = col0 + r < N && kg < K;
        *reinterpret_cast<uint4 *>(&As[r][kc]) =
            a_ok ? *reinterpret_cast<const uint4 *>(A + (size_t)(row0 + r) * K + kg) : zero;
        *reinterpret_cast<uint4 *>(&Bs[r][kc]) =
            b_ok ? *reinterpret_cast<const uint4 *>(Bt + (size_t)(col0 + r) * K + kg) : zero;
    }
}

/* One 128 x 128 tile of C per block (gm_block_tile), 8 warps: warp w covers rows (w / 4) * 64 ..
 * +63 and columns (w % 4) * 32 .. +31 of the tile as 4 x 2 wmma 16 x 16 FP32 accumulators. Per k
 * tile of 32: all threads copy A and Bt into shared memory, then each warp runs 2 k steps of 16,
 * loading 4 A fragments (row-major, ldm GM_LDS) and 2 B fragments (B's column j is row j of Bt:
 * col-major with ldm GM_LDS) and issuing 8 mma_sync. The epilogue stores each accumulator through a
 * per-warp 16 x 16 FP32 staging area and writes it to C as FP16 (rounded to nearest), with bounds
 * checks. Static shared memory: 2 x 10 KiB tiles + 8 KiB staging. */
__global__ void __launch_bounds__(GM_TILE_T)
    hgemm_wmma_kernel(const __half *__restrict__ A, const __half *__restrict__ Bt,
                      __half *__restrict__ C, int M, int N, int K, int grid_m, int grid_n) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
    using namespace nvcuda;
    /* wmma loads and stores need 32-byte aligned pointers: every fragment
     * starts at a row multiple of 16 (16 x 80 bytes) and k 0 or 16 (32 bytes). */
    __shared__ __align__(32) __half As[GM_BM][GM_LDS];
    __shared__ __align__(32) __half Bs[GM_BN][GM_LDS];
    __shared__ __align__(32) float stage[GM_WARPS][16 * 16];

    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int wm = warp / 4, wn = warp % 4;
    int bm, bn;
    gm_block_tile(grid_m, grid_n, &bm, &bn);
    const int row0 = bm * GM_BM, col0 = bn * GM_BN;

    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[4][2];
#pragma unroll
    for (int mi = 0; mi < 4; mi++)
#pragma unroll
        for (int ni = 0; ni < 2; ni++)
            wmma::fill_fragment(acc[mi][ni], 0.0f);

    for (int k0 = 0; k0 < K; k0 += GM_BK) {
        gm_wmma_load(As, Bs, A, Bt, M, N, K, row0, col0, k0);
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < GM_BK; kk += 16) {
            wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa[4];
            wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb[2];
#pragma unroll
            for (int mi = 0; mi < 4; mi++)
                wmma::load_matrix_sync(fa[mi], &As[wm * 64 + mi * 16][kk], GM_LDS);
#pragma unroll
            for (int ni = 0; ni < 2; ni++)
                wmma::load_matrix_sync(fb[ni], &Bs[wn * 32 + ni * 16][kk], GM_LDS);
#pragma unroll
            for (int mi = 0; mi < 4; mi++)
#pragma unroll
                for (int ni = 0; ni < 2; ni++)
                    wmma::mma_sync(acc[mi][ni], fa[mi], fb[ni], acc[mi][ni]);
        }
        __syncthreads(); /* before the next tile overwrites As and Bs */
    }

    float *st = stage[warp];
#pragma unroll
    for (int mi = 0; mi < 4; mi++)
#pragma unroll
        for (int ni = 0; ni < 2; ni++) {
            wmma::store_matrix_sync(st, acc[mi][ni], 16, wmma::mem_row_major);
            __syncwarp();
            for (int e = lane; e < 256; e += 32) {
                const int row = row0 + wm * 64 + mi * 16 + e / 16;
                const int col = col0 + wn * 32 + ni * 16 + e % 16;
                if (row < M && col < N)
                    C[(size_t)row * N + col] = __float2half_rn(st[e]);
            }
            __syncwarp(); /* before the next store_matrix_sync overwrites st */
        }
#endif
}

/* ---- hgemm_mma ----------------------------------------------------------- */

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
/* Copy 16 bytes from global src to shared dst without registers, or 16 zero
 * bytes when !ok (src-size 0: nothing is read; src must still be a valid
 * address). */
__device__ __forceinline__ void gm_cp_async16(void *dst, const void *src, bool ok) {
    const unsigned s = (unsigned)__cvta_generic_to_shared(dst);
    const int bytes = ok ? 16 : 0;
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(src), "r"(bytes));
}

__device__ __forceinline__ void gm_cp_async_commit() {
    asm volatile("cp.async.commit_group;\n" ::);
}

/* Wait until at most N of this thread's cp.async groups are in flight. */
template <int N> __device__ __forceinline__ void gm_cp_async_wait() {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

/* Four 8 x 8 b16 matrices from shared memory: lanes 8q .. 8q + 7 give the row
 * addresses of matrix q; lane l receives row l / 4, columns 2 (l % 4) and
 * 2 (l % 4) + 1 of each, in r[q]. */
__device__ __forceinline__ void gm_ldmatrix_x4(unsigned (&r)[4], const __half *p) {
    const unsigned s = (unsigned)__cvta_generic_to_shared(p);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(s));
}

/* d += a * b for one m16n8k16 tile: a the 16 x 16 FP16 A fragment (row), b
 * the 16 x 8 FP16 B fragment (col), d the 16 x 8 FP32 accumulator. */
__device__ __forceinline__ void gm_mma16816(float (&d)[4], const unsigned (&a)[4],
                                            const unsigned (&b)[2]) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
                 "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

/* Start copying k tile kt of A and Bt into pipeline stage `stage` (the same
 * chunks per thread as gm_wmma_load; zeros outside the matrices). */
__device__ __forceinline__ void gm_mma_load(__half *sa, __half *sb, const __half *__restrict__ A,
                                            const __half *__restrict__ Bt, int M, int N, int K,
                                            int row0, int col0, int stage, int kt) {
    __half *ta = sa + (size_t)stage * GM_BM * GM_LDS;
    __half *tb = sb + (size_t)stage * GM_BN * GM_LDS;
#pragma unroll
    for (int i = 0; i < 2; i++) {
        const int q = threadIdx.x + i * GM_TILE_T;
        const int r = q / 4, kc = (q % 4) * 8;
        const int kg = kt * GM_BK + kc;
        const bool a_ok = row0 + r < M && kg < K, b_ok = col0 + r < N && kg < K;
        gm_cp_async16(ta + r * GM_LDS + kc, a_ok ? A + (size_t)(row0 + r) * K + kg : A, a_ok);
        gm_cp_async16(tb + r * GM_LDS + kc, b_ok ? Bt + (size_t)(col0 + r) * K + kg : Bt, b_ok);
    }
}
#endif

/* One 128 x 128 tile of C per block (gm_block_tile), 8 warps, warp w at rows (w / 4) * 64 and
 * columns (w % 4) * 32 of the tile: 4 (m16) x 4 (n8) mma tiles, 64 FP32 accumulators a thread.
 *
 * Pipeline: GM_STAGES stages of shared memory, each a 128 x 32 tile of A and
 * one of Bt (rows of GM_LDS halves). The first GM_STAGES - 1 k tiles are
 * started before the loop; at step kt a thread waits until its copies of
 * tile kt have landed (at most GM_STAGES - 2 newer groups in flight), the
 * block synchronises (every thread's copies visible; every warp done with
 * step kt - 1, whose stage the next copy overwrites), starts tile
 * kt + GM_STAGES - 1 (an empty group past the end, so the count stays
 * right), and computes tile kt.
 *
 * Per k step of 16 a warp loads its A fragments with one ldmatrix.x4 per m16
 * tile (lanes 0-15 rows 0-15 at k 0, lanes 16-31 rows 0-15 at k 8: matrices
 * a0..a3 of the m16n8k16 A layout) and its B fragments with one ldmatrix.x4
 * per pair of n8 tiles (Bt rows are B's columns: lane l addresses Bt row
 * (l % 8) + 8 (l / 16) at k 8 ((l / 8) % 2), giving b0, b1 of the first n8
 * tile and b0, b1 of the second), then issues 16 mma.sync.
 *
 * Epilogue: accumulator c0, c1 of tile (mi, ni) is row g = lane / 4, columns
 * 2 (lane % 4) + {0, 1}; c2, c3 the same columns at row g + 8; written as
 * half2 (rounded to nearest) where both columns are inside and N is even,
 * else one by one, rows past M skipped. Dynamic shared memory GM_MMA_SMEM
 * (60 KiB), which setup allows with cudaFuncSetAttribute. */
__global__ void __launch_bounds__(GM_TILE_T)
    hgemm_mma_kernel(const __half *__restrict__ A, const __half *__restrict__ Bt,
                     __half *__restrict__ C, int M, int N, int K, int grid_m, int grid_n) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    extern __shared__ __align__(16) unsigned char gm_smem[];
    __half *sa = reinterpret_cast<__half *>(gm_smem);
    __half *sb = sa + (size_t)GM_STAGES * GM_BM * GM_LDS;

    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int wm = warp / 4, wn = warp % 4;
    int bm, bn;
    gm_block_tile(grid_m, grid_n, &bm, &bn);
    const int row0 = bm * GM_BM, col0 = bn * GM_BN;
    const int ktiles = (K + GM_BK - 1) / GM_BK;

    float acc[4][4][4];
#pragma unroll
    for (int mi = 0; mi < 4; mi++)
#pragma unroll
        for (int ni = 0; ni < 4; ni++)
#pragma unroll
            for (int e = 0; e < 4; e++)
                acc[mi][ni][e] = 0.0f;

#pragma unroll
    for (int s = 0; s < GM_STAGES - 1; s++) {
        if (s < ktiles)
            gm_mma_load(sa, sb, A, Bt, M, N, K, row0, col0, s, s);
        gm_cp_async_commit();
    }

    for (int kt = 0; kt < ktiles; kt++) {
        gm_cp_async_wait<GM_STAGES - 2>();
        __syncthreads();
        const int next = kt + GM_STAGES - 1;
        if (next < ktiles)
            gm_mma_load(sa, sb, A, Bt, M, N, K, row0, col0, next % GM_STAGES, next);
        gm_cp_async_commit();

        const __half *ta = sa + (size_t)(kt % GM_STAGES) * GM_BM * GM_LDS;
        const __half *tb = sb + (size_t)(kt % GM_STAGES) * GM_BN * GM_LDS;
#pragma unroll
        for (int kk = 0; kk < GM_BK; kk += 16) {
            unsigned af[4][4], bf[4][2];
#pragma unroll
            for (int mi = 0; mi < 4; mi++)
                gm_ldmatrix_x4(af[mi], ta + (wm * 64 + mi * 16 + lane % 16) * GM_LDS + kk +
                                           (lane / 16) * 8);
#pragma unroll
            for (int p = 0; p < 2; p++) {
                unsigned r[4];
                gm_ldmatrix_x4(r, tb + (wn * 32 + p * 16 + lane % 8 + (lane / 16) * 8) * GM_LDS +
                                      kk + ((lane / 8) % 2) * 8);
                bf[2 * p][0] = r[0];
                bf[2 * p][1] = r[1];
                bf[2 * p + 1][0] = r[2];
                bf[2 * p + 1][1] = r[3];
            }
#pragma unroll
            for (int mi = 0; mi < 4; mi++)
#pragma unroll
                for (int ni = 0; ni < 4; ni++)
                    gm_mma16816(acc[mi][ni], af[mi], bf[ni]);
        }
    }
    gm_cp_async_wait<0>(); /* only empty groups remain; leave none behind */

    const int g = lane / 4, t2 = (lane % 4) * 2;
    const bool pairs = (N % 2) == 0;
#pragma unroll
    for (int mi = 0; mi < 4; mi++)
#pragma unroll
        for (int ni = 0; ni < 4; ni++)
#pragma unroll
            for (int h = 0; h < 2; h++) {
                const int row = row0 + wm * 64 + mi * 16 + g + h * 8;
                const int col = col0 + wn * 32 + ni * 8 + t2;
                if (row >= M)
                    continue;
                const float v0 = acc[mi][ni][2 * h], v1 = acc[mi][ni][2 * h + 1];
                __half *dst = C + (size_t)row * N + col;
                if (pairs && col + 1 < N) {
                    *reinterpret_cast<__half2 *>(dst) = __floats2half2_rn(v0, v1);
                } else {
                    if (col < N)
                        dst[0] = __float2half_rn(v0);
                    if (col + 1 < N)
                        dst[1] = __float2half_rn(v1);
                }
            }
#endif
}

/* ---- host side: parameters, the reference ------------------------------- */

/* Read the dimension `name` and check it is in 1..GM_MAX_DIM. */
static int gm_param_dim(br_case *c, const char *name, int *out) {
    int64_t v = 0;
    if (c->api->param(c, name, &v) != 0)
        return -1; /* the runner recorded the error */
    if (v < 1 || v > GM_MAX_DIM)
        return c->api->fail(c, "parameter %s must be between 1 and %d, got %lld", name, GM_MAX_DIM,
                            (long long)v);
    *out = (int)v;
    return 0;
}

/* Grid of a grid-stride loop over `count` elements. */
static unsigned int gm_blocks(int64_t count) {
    const int64_t b = (count + GM_THREADS - 1) / GM_THREADS;
    return (unsigned int)(b < 1 ? 1 : b < 4096 ? b : 4096);
}

/* Fill x (count elements of type t) with the inputs of seed `seed`. */
static int gm_fill(br_case *c, gm_type t, void *x, uint64_t count, uint64_t seed) {
    const cudaStream_t st = br_cuda_stream(c);
    const unsigned int grid = gm_blocks((int64_t)count);
    switch (t) {
    case GM_F16:
        gm_fill_kernel<<<grid, GM_THREADS, 0, st>>>((__half *)x, count, seed);
        break;
    case GM_BF16:
        gm_fill_kernel<<<grid, GM_THREADS, 0, st>>>((__nv_bfloat16 *)x, count, seed);
        break;
    case GM_F32:
        gm_fill_kernel<<<grid, GM_THREADS, 0, st>>>((float *)x, count, seed);
        break;
    case GM_E4M3:
        gm_fill_kernel<<<grid, GM_THREADS, 0, st>>>((__nv_fp8_e4m3 *)x, count, seed);
        break;
    }
    return br_cuda_launched(c, "gm_fill_kernel");
}

/* out (FP64, rows x k) = x (type t), and norms[r] = the 2-norm of row r. */
static int gm_widen(br_case *c, gm_type t, const void *x, int64_t rows, int64_t k, double *out,
                    double *norms) {
    const cudaStream_t st = br_cuda_stream(c);
    const uint64_t count = (uint64_t)(rows * k);
    const unsigned int grid = gm_blocks(rows * k), nr = (unsigned int)rows;
    switch (t) {
    case GM_F16:
        gm_widen_kernel<<<grid, GM_THREADS, 0, st>>>(out, (const __half *)x, count);
        gm_row_norm_kernel<<<nr, GM_THREADS, 0, st>>>(norms, (const __half *)x, k);
        break;
    case GM_BF16:
        gm_widen_kernel<<<grid, GM_THREADS, 0, st>>>(out, (const __nv_bfloat16 *)x, count);
        gm_row_norm_kernel<<<nr, GM_THREADS, 0, st>>>(norms, (const __nv_bfloat16 *)x, k);
        break;
    case GM_F32:
        gm_widen_kernel<<<grid, GM_THREADS, 0, st>>>(out, (const float *)x, count);
        gm_row_norm_kernel<<<nr, GM_THREADS, 0, st>>>(norms, (const float *)x, k);
        break;
    case GM_E4M3:
        gm_widen_kernel<<<grid, GM_THREADS, 0, st>>>(out, (const __nv_fp8_e4m3 *)x, count);
        gm_row_norm_kernel<<<nr, GM_THREADS, 0, st>>>(norms, (const __nv_fp8_e4m3 *)x, k);
        break;
    }
    return br_cuda_launched(c, "gm_widen_kernel or gm_row_norm_kernel");
}

/* What gm_reference allocates for itself, freed when it returns. */
struct gm_ref_tmp {
    double *a, *b; /* FP64 copies of A (m x k) and Bt (n x k) */
};

static int gm_reference_into(br_case *c, gm_state *s, gm_ref_tmp *t) {
    const cudaStream_t st = br_cuda_stream(c);
    const int64_t m = s->m, n = s->n, k = s->k;
    BR_CUDA_TRY(c, cudaMalloc((void **)&t->a, (size_t)(m * k) * sizeof(double)));
    BR_CUDA_TRY(c, cudaMalloc((void **)&t->b, (size_t)(n * k) * sizeof(double)));
    if (gm_widen(c, s->info->in, s->a, m, k, t->a, s->row_norm) != 0 ||
        gm_widen(c, s->info->in, s->b, n, k, t->b, s->col_norm) != 0)
        return -1;
    cublasHandle_t h = NULL;
    if (gm_handle(c, GM_HANDLE_REFERENCE, &h) != 0)
        return -1;
    const double one = 1.0, zero = 0.0;
    /* Row-major ref (m x n) = A Bt^T is column-major ref^T (n x m) =
     * op_T(Bt as column-major k x n) * (A as column-major k x m). */
    GM_CUBLAS(c, cublasDgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, (int)n, (int)m, (int)k, &one, t->b,
                             (int)k, t->a, (int)k, &zero, s->ref, (int)n));
    BR_CUDA_TRY(c, cudaStreamSynchronize(st));
    return 0;
}

/* s->ref, s->row_norm, s->col_norm (allocated here) from the stored inputs. */
static int gm_reference(br_case *c, gm_state *s) {
    const int64_t m = s->m, n = s->n;
    s->ref = (double *)c->api->alloc(c, (size_t)(m * n) * sizeof(double), BR_MEM_DEVICE);
    s->row_norm = (double *)c->api->alloc(c, (size_t)m * sizeof(double), BR_MEM_DEVICE);
    s->col_norm = (double *)c->api->alloc(c, (size_t)n * sizeof(double), BR_MEM_DEVICE);
    s->probe = (double *)c->api->alloc(c, 4 * sizeof(double), BR_MEM_DEVICE);
    s->tally =
        (unsigned long long *)c->api->alloc(c, 2 * sizeof(unsigned long long), BR_MEM_DEVICE);
    if (!s->ref || !s->row_norm || !s->col_norm || !s->probe || !s->tally)
        return -1; /* the runner recorded the error */
    s->g = br_gemm_scale(&s->info->rule, s->k);
    gm_ref_tmp t = {NULL, NULL};
    const int rc = gm_reference_into(c, s, &t);
    cudaFree(t.a); /* after the synchronisation, or after an error that fails the case */
    cudaFree(t.b);
    return rc;
}

/* ---- host side: per-kind setup ------------------------------------------ */

/* Fail unless the GPU has compute capability info->min_cc or later. */
static int gm_check_device(br_case *c, const gm_kind_info *info) {
    int dev = 0, major = 0, minor = 0;
    BR_CUDA_TRY(c, cudaGetDevice(&dev));
    BR_CUDA_TRY(c, cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    BR_CUDA_TRY(c, cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
    if (major * 10 + minor >= info->min_cc)
        return 0;
    const char *what = info->min_cc >= 89   ? "FP8 Tensor Cores"
                       : info->min_cc >= 80 ? "Ampere's Tensor Core instructions and types"
                                            : "Tensor Cores";
    return c->api->fail(c,
                        "%s needs %s: compute capability %d.%d or later; this GPU is %d.%d "
                        "(sm_%d%d)",
                        info->name, what, info->min_cc / 10, info->min_cc % 10, major, minor, major,
                        minor);
}

/* cuBLASLt for the FP8 kind: descriptors, scales, workspace, an algorithm. */
static int gm_setup_fp8(br_case *c, gm_state *s) {
    /* Each scale 16-byte aligned: cuBLASLt refuses an FP8 matmul at run time
     * (CUBLAS_STATUS_NOT_SUPPORTED, after its heuristic accepted it) when a
     * scale pointer is only 4-byte aligned, as an H200 showed. */
    const float ones[8] = {1.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f};
    s->scales = (float *)c->api->alloc(c, sizeof ones, BR_MEM_DEVICE);
    s->workspace = c->api->alloc(c, GM_LT_WORKSPACE, BR_MEM_DEVICE);
    if (!s->scales || !s->workspace)
        return -1;
    /* setup synchronises the stream before it returns */
    BR_CUDA_TRY(c, cudaMemcpyAsync(s->scales, ones, sizeof ones, cudaMemcpyHostToDevice,
                                   br_cuda_stream(c)));
    if (!gm_lt_handle)
        GM_CUBLAS(c, cublasLtCreate(&gm_lt_handle)); /* kept, as gm_handles */
    s->lt = gm_lt_handle;
    GM_CUBLAS(c, cublasLtMatmulDescCreate(&s->desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    const cublasOperation_t op_t = CUBLAS_OP_T, op_n = CUBLAS_OP_N;
    const int8_t fast = 0; /* promote partial sums to FP32 periodically */
    const float *scale_a = s->scales, *scale_b = s->scales + 4;
    GM_CUBLAS(c, cublasLtMatmulDescSetAttribute(s->desc, CUBLASLT_MATMUL_DESC_TRANSA, &op_t,
                                                sizeof op_t));
    GM_CUBLAS(c, cublasLtMatmulDescSetAttribute(s->desc, CUBLASLT_MATMUL_DESC_TRANSB, &op_n,
                                                sizeof op_n));
    GM_CUBLAS(c, cublasLtMatmulDescSetAttribute(s->desc, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast,
                                                sizeof fast));
    /* cuBLAS's A is our Bt and its B our A (see run_cublas_fp8). */
    GM_CUBLAS(c, cublasLtMatmulDescSetAttribute(s->desc, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER,
                                                &scale_b, sizeof scale_b));
    GM_CUBLAS(c, cublasLtMatmulDescSetAttribute(s->desc, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER,
                                                &scale_a, sizeof scale_a));
    /* Column-major: Bt is k x n (ld k), A is k x m (ld k), C is n x m (ld n). */
    GM_CUBLAS(c, cublasLtMatrixLayoutCreate(&s->lay_a, CUDA_R_8F_E4M3, (uint64_t)s->k,
                                            (uint64_t)s->n, (int64_t)s->k));
    GM_CUBLAS(c, cublasLtMatrixLayoutCreate(&s->lay_b, CUDA_R_8F_E4M3, (uint64_t)s->k,
                                            (uint64_t)s->m, (int64_t)s->k));
    GM_CUBLAS(c, cublasLtMatrixLayoutCreate(&s->lay_c, CUDA_R_16F, (uint64_t)s->n, (uint64_t)s->m,
                                            (int64_t)s->n));
    GM_CUBLAS(c, cublasLtMatmulPreferenceCreate(&s->pref));
    const size_t ws = GM_LT_WORKSPACE;
    GM_CUBLAS(c, cublasLtMatmulPreferenceSetAttribute(
                     s->pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws));
    int found = 0;
    const cublasStatus_t st = cublasLtMatmulAlgoGetHeuristic(
        s->lt, s->desc, s->lay_a, s->lay_b, s->lay_c, s->lay_c, s->pref, 1, &s->algo, &found);
    if (st != CUBLAS_STATUS_SUCCESS && st != CUBLAS_STATUS_NOT_SUPPORTED)
        return c->api->fail(c, "cublasLtMatmulAlgoGetHeuristic: %s (%s)", cublasGetStatusName(st),
                            cublasGetStatusString(st));
    if (st == CUBLAS_STATUS_NOT_SUPPORTED || found < 1)
        return c->api->fail(c,
                            "cuBLASLt has no FP8 E4M3 algorithm for m=%d n=%d k=%d (it needs k "
                            "a multiple of 16 and 16-byte aligned rows)",
                            s->m, s->n, s->k);
    return 0;
}

/* What the kind needs beyond the inputs: a cuBLAS handle, cuBLASLt, or the
 * shared memory of hgemm_mma; k a multiple of 8 for the hand-written ones. */
static int gm_setup_kind(br_case *c, gm_state *s) {
    if ((s->kind == GM_WMMA || s->kind == GM_MMA) && s->k % 8 != 0)
        return c->api->fail(c, "%s needs k a multiple of 8 (16-byte rows of A and Bt), got k=%d",
                            s->info->name, s->k);
    switch (s->kind) {
    case GM_MMA:
        BR_CUDA_TRY(c, cudaFuncSetAttribute(hgemm_mma_kernel,
                                            cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            (int)GM_MMA_SMEM));
        return 0;
    case GM_WMMA:
        return 0;
    case GM_CUBLAS_FP8:
        return gm_setup_fp8(c, s);
    default:
        return gm_handle(c, GM_HANDLE_KERNEL, &s->handle);
    }
}

static int setup(br_case *c) {
    gm_state *s = (gm_state *)calloc(1, sizeof *s);
    if (!s)
        return c->api->fail(c, "out of host memory for the case state");
    c->state = s;
    s->kind = *(const gm_kind *)c->api->arg(c);
    s->info = &gm_kinds[s->kind];
    if (gm_param_dim(c, "m", &s->m) != 0 || gm_param_dim(c, "n", &s->n) != 0 ||
        gm_param_dim(c, "k", &s->k) != 0 ||
        br_verify_fault_parse(c, "BR_GEMM_FAULT", s->m, s->n, &s->fault) != 0 ||
        gm_check_device(c, s->info) != 0)
        return -1;
    const cudaStream_t st = br_cuda_stream(c);
    uint64_t rng = c->api->seed(c);
    s->seed_a = br_splitmix64(&rng);
    s->seed_b = br_splitmix64(&rng);

    const size_t m = (size_t)s->m, n = (size_t)s->n, k = (size_t)s->k;
    const size_t in = gm_size(s->info->in), out = gm_size(s->info->out);
    s->a = c->api->alloc(c, m * k * in, BR_MEM_DEVICE);
    s->b = c->api->alloc(c, n * k * in, BR_MEM_DEVICE);
    s->c = c->api->alloc(c, m * n * out, BR_MEM_DEVICE);
    if (!s->a || !s->b || !s->c)
        return -1; /* the runner recorded the error */
    if (gm_fill(c, s->info->in, s->a, m * k, s->seed_a) != 0 ||
        gm_fill(c, s->info->in, s->b, n * k, s->seed_b) != 0)
        return -1;
    BR_CUDA_TRY(c, cudaMemsetAsync(s->c, 0xff, m * n * out, st)); /* NaN in every type */
    if (gm_reference(c, s) != 0 || gm_setup_kind(c, s) != 0)
        return -1;
    BR_CUDA_TRY(c, cudaStreamSynchronize(st));
    return 0;
}

/* ---- runs ---------------------------------------------------------------- */

/* The 1-D grid of the hand-written kernels: *grid_m x *grid_n tiles (at most
 * 512 x 512). */
static unsigned int gm_tiles(const gm_state *s, int *grid_m, int *grid_n) {
    *grid_m = (s->m + GM_BM - 1) / GM_BM;
    *grid_n = (s->n + GM_BN - 1) / GM_BN;
    return (unsigned int)(*grid_m * *grid_n);
}

static int run_wmma(br_case *c) {
    gm_state *s = (gm_state *)c->state;
    int grid_m, grid_n;
    const unsigned int blocks = gm_tiles(s, &grid_m, &grid_n);
    hgemm_wmma_kernel<<<blocks, GM_TILE_T, 0, br_cuda_stream(c)>>>(
        (const __half *)s->a, (const __half *)s->b, (__half *)s->c, s->m, s->n, s->k, grid_m,
        grid_n);
    return br_cuda_launched(c, "hgemm_wmma_kernel");
}

static int run_mma(br_case *c) {
    gm_state *s = (gm_state *)c->state;
    int grid_m, grid_n;
    const unsigned int blocks = gm_tiles(s, &grid_m, &grid_n);
    hgemm_mma_kernel<<<blocks, GM_TILE_T, GM_MMA_SMEM, br_cuda_stream(c)>>>(
        (const __half *)s->a, (const __half *)s->b, (__half *)s->c, s->m, s->n, s->k, grid_m,
        grid_n);
    return br_cuda_launched(c, "hgemm_mma_kernel");
}

/* cublasGemmEx for the FP16, BF16 and TF32 kinds. Row-major C (m x n) =
 * A Bt^T is column-major C^T (n x m) = op_T(Bt as column-major k x n, ld k) *
 * (A as column-major k x m, ld k), ldc n: the "TN" GEMM. */
static int run_cublas(br_case *c) {
    gm_state *s = (gm_state *)c->state;
    const float one = 1.0f, zero = 0.0f;
    cudaDataType_t t = CUDA_R_16F;
    cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
    if (s->kind == GM_CUBLAS_BF16) {
        t = CUDA_R_16BF;
    } else if (s->kind == GM_CUBLAS_TF32) {
        t = CUDA_R_32F;
        compute = CUBLAS_COMPUTE_32F_FAST_TF32;
    }
    GM_CUBLAS(c, cublasGemmEx(s->handle, CUBLAS_OP_T, CUBLAS_OP_N, s->n, s->m, s->k, &one, s->b, t,
                              s->k, s->a, t, s->k, &zero, s->c, t, s->n, compute,
                              CUBLAS_GEMM_DEFAULT));
    return br_cuda_launched(c, "cublasGemmEx");
}

/* cublasLtMatmul, the same TN product as run_cublas, E4M3 in, FP16 out. */
static int run_cublas_fp8(br_case *c) {
    gm_state *s = (gm_state *)c->state;
    const float one = 1.0f, zero = 0.0f;
    GM_CUBLAS(c, cublasLtMatmul(s->lt, s->desc, &one, s->b, s->lay_a, s->a, s->lay_b, &zero, s->c,
                                s->lay_c, s->c, s->lay_c, &s->algo.algo, s->workspace,
                                GM_LT_WORKSPACE, br_cuda_stream(c)));
    return br_cuda_launched(c, "cublasLtMatmul");
}

/* ---- verify -------------------------------------------------------------- */

/* BR_GEMM_FAULT: C[fault.i][fault.j] += fault.delta, after the run. */
static int gm_plant_fault(br_case *c, gm_state *s) {
    const cudaStream_t st = br_cuda_stream(c);
    const int64_t t = s->fault.i * s->n + s->fault.j;
    switch (s->info->out) {
    case GM_F16:
        gm_add_kernel<<<1, 1, 0, st>>>((__half *)s->c, t, s->fault.delta);
        break;
    case GM_BF16:
        gm_add_kernel<<<1, 1, 0, st>>>((__nv_bfloat16 *)s->c, t, s->fault.delta);
        break;
    default:
        gm_add_kernel<<<1, 1, 0, st>>>((float *)s->c, t, s->fault.delta);
        break;
    }
    return br_cuda_launched(c, "gm_add_kernel");
}

/* The device check of every entry: *bad entries off, the first at *first. */
static int gm_device_check(br_case *c, gm_state *s, int64_t *bad, int64_t *first) {
    const cudaStream_t st = br_cuda_stream(c);
    const int64_t m = s->m, n = s->n;
    const unsigned int grid = gm_blocks(m * n);
    const br_gemm_rule *r = &s->info->rule;
    unsigned long long tally[2] = {0, 0};
    BR_CUDA_TRY(c, cudaMemsetAsync(&s->tally[0], 0, sizeof(unsigned long long), st));
    BR_CUDA_TRY(c, cudaMemsetAsync(&s->tally[1], 0xff, sizeof(unsigned long long), st));
    switch (s->info->out) {
    case GM_F16:
        gm_check_kernel<<<grid, GM_THREADS, 0, st>>>((const __half *)s->c, s->ref, s->row_norm,
                                                     s->col_norm, m, n, s->g, r->u_out, r->tiny,
                                                     s->tally);
        break;
    case GM_BF16:
        gm_check_kernel<<<grid, GM_THREADS, 0, st>>>((const __nv_bfloat16 *)s->c, s->ref,
                                                     s->row_norm, s->col_norm, m, n, s->g, r->u_out,
                                                     r->tiny, s->tally);
        break;
    default:
        gm_check_kernel<<<grid, GM_THREADS, 0, st>>>((const float *)s->c, s->ref, s->row_norm,
                                                     s->col_norm, m, n, s->g, r->u_out, r->tiny,
                                                     s->tally);
        break;
    }
    BR_CUDA_TRY(c, cudaGetLastError());
    BR_CUDA_TRY(c, cudaMemcpyAsync(tally, s->tally, sizeof tally, cudaMemcpyDeviceToHost, st));
    BR_CUDA_TRY(c, cudaStreamSynchronize(st));
    *bad = (int64_t)tally[0];
    *first = tally[0] ? (int64_t)tally[1] : -1;
    return 0;
}

/* Fail with the first bad entry: its value, the reference, the bound. */
static int gm_report(br_case *c, gm_state *s, int64_t bad, int64_t first) {
    const cudaStream_t st = br_cuda_stream(c);
    const int64_t n = s->n;
    double p[4] = {0, 0, 0, 0};
    switch (s->info->out) {
    case GM_F16:
        gm_probe_kernel<<<1, 1, 0, st>>>(s->probe, (const __half *)s->c, s->ref, s->row_norm,
                                         s->col_norm, n, first);
        break;
    case GM_BF16:
        gm_probe_kernel<<<1, 1, 0, st>>>(s->probe, (const __nv_bfloat16 *)s->c, s->ref, s->row_norm,
                                         s->col_norm, n, first);
        break;
    default:
        gm_probe_kernel<<<1, 1, 0, st>>>(s->probe, (const float *)s->c, s->ref, s->row_norm,
                                         s->col_norm, n, first);
        break;
    }
    BR_CUDA_TRY(c, cudaGetLastError());
    BR_CUDA_TRY(c, cudaMemcpyAsync(p, s->probe, sizeof p, cudaMemcpyDeviceToHost, st));
    BR_CUDA_TRY(c, cudaStreamSynchronize(st));
    const br_gemm_rule *r = &s->info->rule;
    return c->api->fail(c,
                        "C[%lld][%lld] is %.9g, expected %.17g (|error| %.3g > bound %.3g; %s, "
                        "device FP64 reference); %lld of %lld entries are off (m=%d n=%d k=%d)",
                        (long long)(first / n), (long long)(first % n), p[0], p[1],
                        fabs(p[0] - p[1]),
                        br_gemm_bound(s->g, r->u_out, r->tiny, p[2] * p[3], p[1]),
                        s->info->rule_name, (long long)bad, (long long)s->m * n, s->m, s->n, s->k);
}

static int verify(br_case *c) {
    gm_state *s = (gm_state *)c->state;
    if (s->fault.on && gm_plant_fault(c, s) != 0)
        return -1;
    int64_t bad = 0, first = -1;
    if (gm_device_check(c, s, &bad, &first) != 0)
        return -1;
    return bad == 0 ? 0 : gm_report(c, s, bad, first);
}

static void teardown(br_case *c) {
    gm_state *s = (gm_state *)c->state;
    if (!s)
        return;
    if (s->pref)
        cublasLtMatmulPreferenceDestroy(s->pref);
    if (s->lay_c)
        cublasLtMatrixLayoutDestroy(s->lay_c);
    if (s->lay_b)
        cublasLtMatrixLayoutDestroy(s->lay_b);
    if (s->lay_a)
        cublasLtMatrixLayoutDestroy(s->lay_a);
    if (s->desc)
        cublasLtMatmulDescDestroy(s->desc);
    free(s); /* device memory is the runner's */
    c->state = NULL;
}

/* One setup for every kernel: the kernel's arg is its gm_kind. */
static const gm_kind gm_kind_of[] = {GM_CUBLAS_FP16, GM_WMMA,        GM_MMA,
                                     GM_CUBLAS_BF16, GM_CUBLAS_TF32, GM_CUBLAS_FP8};

static const br_kernel kernels[] = {
    {"gemm_cublas_fp16", setup, run_cublas, verify, teardown, &gm_kind_of[GM_CUBLAS_FP16]},
    {"hgemm_wmma", setup, run_wmma, verify, teardown, &gm_kind_of[GM_WMMA]},
    {"hgemm_mma", setup, run_mma, verify, teardown, &gm_kind_of[GM_MMA]},
    {"gemm_cublas_bf16", setup, run_cublas, verify, teardown, &gm_kind_of[GM_CUBLAS_BF16]},
    {"gemm_cublas_tf32", setup, run_cublas, verify, teardown, &gm_kind_of[GM_CUBLAS_TF32]},
    {"gemm_cublas_fp8", setup, run_cublas_fp8, verify, teardown, &gm_kind_of[GM_CUBLAS_FP8]},
};
BR_MODULE(kernels);
