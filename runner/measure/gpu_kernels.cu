/* SPDX-License-Identifier: Apache-2.0 */
#include "gpu_kernels.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <type_traits>

#include "platform/compute_peak.h"

namespace {

__global__ void read_flush(const int4 *__restrict__ p, size_t n, unsigned *sink) {
    unsigned acc = 0;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        int4 v = p[i];
        acc ^= (unsigned)(v.x ^ v.y ^ v.z ^ v.w);
    }
    /* The buffer is zeroed, so acc is 0; the compiler cannot know that, so the
     * loads stay. */
    if (acc == 0x9e3779b9u)
        *sink = acc;
}

__device__ __forceinline__ uint64_t globaltimer() {
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__device__ __forceinline__ uint32_t smid() {
    uint32_t id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    return id;
}

__global__ void hold_kernel(br_gpu_hold *h, uint64_t timeout_ns) {
    uint64_t t0 = globaltimer();
    while (h->release == 0) {
        if (globaltimer() - t0 > timeout_ns) {
            h->timed_out = 1;
            break;
        }
    }
}

__global__ void clock_probe(br_gpu_clock *out, const br_gpu_clock *since, uint64_t min_window_ns) {
    if (since) {
        uint64_t t0 = since->globaltimer;
        while (globaltimer() - t0 < min_window_ns) {
        }
    }
    uint64_t t = globaltimer();
    uint64_t c = clock64();
    out->globaltimer = t;
    out->clock = c;
    out->smid = smid();
    __threadfence_system();
}

} // namespace

static __global__ void timer_tick(uint64_t *out) {
    uint64_t prev = globaltimer(), best = 0;
    int steps = 0;
    for (int i = 0; i < BR_GPU_TICK_READS && steps < BR_GPU_TICK_STEPS; i++) {
        const uint64_t t = globaltimer();
        if (t != prev) {
            if (best == 0 || t - prev < best)
                best = t - prev;
            prev = t;
            steps++;
        }
    }
    *out = best;
}

extern "C" cudaError_t br_gpu_timer_tick(cudaStream_t stream, uint64_t *out) {
    timer_tick<<<1, 1, 0, stream>>>(out);
    return cudaGetLastError();
}

extern "C" cudaError_t br_gpu_read_flush(cudaStream_t stream, const void *buf, size_t bytes,
                                         unsigned *sink, int sm_count) {
    int blocks = (sm_count > 0 ? sm_count : 80) * 8;
    read_flush<<<blocks, 256, 0, stream>>>(static_cast<const int4 *>(buf), bytes / sizeof(int4),
                                           sink);
    return cudaGetLastError();
}

extern "C" cudaError_t br_gpu_hold_launch(cudaStream_t stream, br_gpu_hold *h_dev,
                                          uint64_t timeout_ns) {
    hold_kernel<<<1, 1, 0, stream>>>(h_dev, timeout_ns);
    return cudaGetLastError();
}

extern "C" cudaError_t br_gpu_clock_probe(cudaStream_t stream, br_gpu_clock *out,
                                          const br_gpu_clock *since, uint64_t min_window_ns) {
    clock_probe<<<1, 1, 0, stream>>>(out, since, min_window_ns);
    return cudaGetLastError();
}

/* ---- the measured compute peak (platform/compute_peak.h) ------------------------- */

namespace {

constexpr int CH = BR_COMPUTE_CHAINS;

/* Each kernel runs `iters` iterations of CH independent chains, in
 * registers only; the outer loop is unrolled so that its counter and branch
 * take a small share of the issue slots (the CUDA cores' FMA rate needs one
 * FMA issued per scheduler per clock). The result is written only when
 * `write` is non-zero (it never is), which the compiler cannot know, so the
 * chains stay. Operands come from `bits`, a run-time value, so nothing is
 * folded. */

__global__ void __launch_bounds__(BR_COMPUTE_THREADS)
    peak_fma_f64(long iters, uint32_t bits, int write, double *sink) {
    double a[CH];
    const double b = 0.999 + (double)(bits & 1u), c = 1e-3;
#pragma unroll
    for (int j = 0; j < CH; j++)
        a[j] = (double)(threadIdx.x + j);
#pragma unroll 16
    for (long i = 0; i < iters; i++)
#pragma unroll
        for (int j = 0; j < CH; j++)
            a[j] = fma(a[j], b, c);
    double sum = 0;
#pragma unroll
    for (int j = 0; j < CH; j++)
        sum += a[j];
    if (write)
        sink[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

__global__ void __launch_bounds__(BR_COMPUTE_THREADS)
    peak_fma_f32(long iters, uint32_t bits, int write, float *sink) {
    float a[CH];
    const float b = 0.999f + (float)(bits & 1u), c = 1e-3f;
#pragma unroll
    for (int j = 0; j < CH; j++)
        a[j] = (float)(threadIdx.x + j);
#pragma unroll 16
    for (long i = 0; i < iters; i++)
#pragma unroll
        for (int j = 0; j < CH; j++)
            a[j] = fmaf(a[j], b, c);
    float sum = 0;
#pragma unroll
    for (int j = 0; j < CH; j++)
        sum += a[j];
    if (write)
        sink[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

/* half2 or bfloat162 (T2): two multiply-adds per instruction. */
template <typename T2>
__global__ void __launch_bounds__(BR_COMPUTE_THREADS)
    peak_fma_x2(long iters, uint32_t bits, int write, T2 *sink) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    T2 a[CH];
    T2 b, c;
    uint32_t bb = 0x3c003c00u ^ (bits & 1u), cc = 0x1c001c00u;
    memcpy(&b, &bb, sizeof b);
    memcpy(&c, &cc, sizeof c);
#pragma unroll
    for (int j = 0; j < CH; j++) {
        uint32_t v = 0x3c003c00u + threadIdx.x + j;
        memcpy(&a[j], &v, sizeof v);
    }
#pragma unroll 16
    for (long i = 0; i < iters; i++)
#pragma unroll
        for (int j = 0; j < CH; j++)
            a[j] = __hfma2(a[j], b, c);
#pragma unroll
    for (int j = 1; j < CH; j++)
        a[0] = __hadd2(a[0], a[j]);
    if (write)
        sink[blockIdx.x * blockDim.x + threadIdx.x] = a[0];
#endif
}

/* One mma per chain per iteration: d[j] = A B + d[j]. Acc is float or
 * int32_t (4 per chain), A four and B two 32-bit registers per thread. */
#define MMA_16x8(INSTR, CONS)                                                                      \
    asm volatile(INSTR " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"                    \
                 : CONS(d[j][0]), CONS(d[j][1]), CONS(d[j][2]), CONS(d[j][3])                      \
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1))

template <int P, typename Acc>
__global__ void __launch_bounds__(BR_COMPUTE_THREADS)
    peak_mma(long iters, uint32_t bits, int write, Acc *sink) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    Acc d[CH][4];
#pragma unroll
    for (int j = 0; j < CH; j++)
#pragma unroll
        for (int r = 0; r < 4; r++)
            d[j][r] = (Acc)0;
    const uint32_t a0 = bits, a1 = bits ^ threadIdx.x, a2 = bits + 1u, a3 = bits ^ 0x00400040u;
    const uint32_t b0 = bits ^ 0x01000100u, b1 = bits + threadIdx.x;
#pragma unroll 4
    for (long i = 0; i < iters; i++) {
#pragma unroll
        for (int j = 0; j < CH; j++) {
            if constexpr (P == BR_PRECISION_TF32_TENSOR)
                MMA_16x8("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", "+f");
            else if constexpr (P == BR_PRECISION_FP16_TENSOR)
                MMA_16x8("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", "+f");
            else if constexpr (P == BR_PRECISION_BF16_TENSOR)
                MMA_16x8("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", "+f");
            else if constexpr (P == BR_PRECISION_INT8_TENSOR)
                MMA_16x8("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", "+r");
#if __CUDA_ARCH__ >= 890
            else if constexpr (P == BR_PRECISION_FP8_TENSOR)
                MMA_16x8("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32", "+f");
#endif
        }
    }
    Acc sum = 0;
#pragma unroll
    for (int j = 0; j < CH; j++)
        sum += d[j][0] + d[j][1] + d[j][2] + d[j][3];
    if (write)
        sink[blockIdx.x * blockDim.x + threadIdx.x] = sum;
#endif
}

/* fp64 m8n8k4: A and B one double each, C/D two per thread. */
__global__ void __launch_bounds__(BR_COMPUTE_THREADS)
    peak_mma_f64(long iters, uint32_t bits, int write, double *sink) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    double d[CH][2];
#pragma unroll
    for (int j = 0; j < CH; j++)
        d[j][0] = d[j][1] = 0.0;
    const double a = 1.0 + (double)(bits & 1u) * 1e-3, b = 1e-6 * (double)(threadIdx.x + 1);
#pragma unroll 4
    for (long i = 0; i < iters; i++)
#pragma unroll
        for (int j = 0; j < CH; j++)
            asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, "
                         "{%0,%1};"
                         : "+d"(d[j][0]), "+d"(d[j][1])
                         : "d"(a), "d"(b));
    double sum = 0;
#pragma unroll
    for (int j = 0; j < CH; j++)
        sum += d[j][0] + d[j][1];
    if (write)
        sink[blockIdx.x * blockDim.x + threadIdx.x] = sum;
#endif
}

/* The kernel of precision p, as a function pointer; NULL when none. */
const void *peak_kernel(int p) {
    switch (p) {
    case BR_PRECISION_FP64:
        return (const void *)peak_fma_f64;
    case BR_PRECISION_FP32:
        return (const void *)peak_fma_f32;
    case BR_PRECISION_FP16:
        return (const void *)peak_fma_x2<__half2>;
    case BR_PRECISION_BF16:
        return (const void *)peak_fma_x2<__nv_bfloat162>;
    case BR_PRECISION_FP64_TENSOR:
        return (const void *)peak_mma_f64;
    case BR_PRECISION_TF32_TENSOR:
        return (const void *)peak_mma<BR_PRECISION_TF32_TENSOR, float>;
    case BR_PRECISION_FP16_TENSOR:
        return (const void *)peak_mma<BR_PRECISION_FP16_TENSOR, float>;
    case BR_PRECISION_BF16_TENSOR:
        return (const void *)peak_mma<BR_PRECISION_BF16_TENSOR, float>;
    case BR_PRECISION_FP8_TENSOR:
        return (const void *)peak_mma<BR_PRECISION_FP8_TENSOR, float>;
    case BR_PRECISION_INT8_TENSOR:
        return (const void *)peak_mma<BR_PRECISION_INT8_TENSOR, int32_t>;
    default:
        return NULL;
    }
}

/* ---- wgmma (sm_90a): the Tensor Cores' datasheet rate on compute capability 9.0 ---- */

/* 1 in the code the driver loaded for this device when it is benchrun's
 * sm_90a code (nvcc defines __CUDA_ARCH_FEAT_SM90_ALL only there), else 0. */
__global__ void wgmma_probe(int *out) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    *out = 1;
#else
    *out = 0;
#endif
}

#if defined(__CUDA_ARCH_FEAT_SM90_ALL) /* what only the sm_90a code uses */
/* The operands in shared memory, K-major without swizzle (PTX ISA, "Matrix
 * Descriptor Format" and "Shared Memory Matrix Layout" of wgmma): each wgmma
 * reads 32 bytes of K per row (k8 tf32, k16 f16/bf16, k32 e4m3/s8), that is
 * two "core matrices" of 8 rows x 16 bytes (128 contiguous bytes) side by
 * side in K. A core matrix (row group g, K half h) lies at g x 256 + h x 128:
 * leading-dimension byte offset (K) 128, stride byte offset (M or N) 256.
 * A: 64 rows = 2 KiB; B: 256 rows = 8 KiB after it. Were the two offsets read
 * the other way round, every address would still fall inside the buffer. */
constexpr uint32_t WG_A_BYTES = 64 * 32, WG_B_BYTES = 256 * 32;
constexpr uint32_t WG_LBO = 128, WG_SBO = 256;

/* The 64-bit matrix descriptor of the operand at shared-memory address addr:
 * start address >> 4 in bits 0-13, leading-dimension byte offset >> 4 in
 * bits 16-29, stride byte offset >> 4 in bits 32-45, base offset 0 (bits
 * 49-51), swizzle mode 0 (none) in bits 62-63. */
__device__ __forceinline__ uint64_t wg_desc(uint32_t addr) {
    return (uint64_t)((addr & 0x3FFFFu) >> 4) | (uint64_t)(WG_LBO >> 4) << 16 |
           (uint64_t)(WG_SBO >> 4) << 32;
}

#endif

/* d (128 accumulators per thread: 64 x 256 over 128 threads) += A B, with
 * scale-d = 1 (accumulate), the scales of A and B 1 and no transpose (both
 * K-major); TAIL is what follows scale-d for the instruction's type. */
#define WG_ACC                                                                                     \
    "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"                                       \
    "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,"                             \
    "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,"                             \
    "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63,"                             \
    "%64,%65,%66,%67,%68,%69,%70,%71,%72,%73,%74,%75,%76,%77,%78,%79,"                             \
    "%80,%81,%82,%83,%84,%85,%86,%87,%88,%89,%90,%91,%92,%93,%94,%95,"                             \
    "%96,%97,%98,%99,%100,%101,%102,%103,%104,%105,%106,%107,%108,%109,%110,%111,"                 \
    "%112,%113,%114,%115,%116,%117,%118,%119,%120,%121,%122,%123,%124,%125,%126,%127"
#define WG_ACC8(C, i)                                                                              \
    C(d[i]), C(d[i + 1]), C(d[i + 2]), C(d[i + 3]), C(d[i + 4]), C(d[i + 5]), C(d[i + 6]),         \
        C(d[i + 7])
#define WG_ACC128(C)                                                                               \
    WG_ACC8(C, 0), WG_ACC8(C, 8), WG_ACC8(C, 16), WG_ACC8(C, 24), WG_ACC8(C, 32), WG_ACC8(C, 40),  \
        WG_ACC8(C, 48), WG_ACC8(C, 56), WG_ACC8(C, 64), WG_ACC8(C, 72), WG_ACC8(C, 80),            \
        WG_ACC8(C, 88), WG_ACC8(C, 96), WG_ACC8(C, 104), WG_ACC8(C, 112), WG_ACC8(C, 120)
#define WGMMA(INSTR, TAIL, CONS)                                                                   \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n" INSTR " {" WG_ACC                   \
                 "}, %128, %129, p" TAIL ";\n}\n"                                                  \
                 : WG_ACC128(CONS)                                                                 \
                 : "l"(da), "l"(db), "r"(one))

/* One wgmma of precision P into d. */
template <int P, typename Acc>
__device__ __forceinline__ void wgmma(Acc (&d)[128], uint64_t da, uint64_t db, uint32_t one) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    if constexpr (P == BR_PRECISION_TF32_TENSOR)
        WGMMA("wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32", ", 1, 1", "+f");
    else if constexpr (P == BR_PRECISION_FP16_TENSOR)
        WGMMA("wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16", ", 1, 1, 0, 0", "+f");
    else if constexpr (P == BR_PRECISION_BF16_TENSOR)
        WGMMA("wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16", ", 1, 1, 0, 0", "+f");
    else if constexpr (P == BR_PRECISION_FP8_TENSOR)
        WGMMA("wgmma.mma_async.sync.aligned.m64n256k32.f32.e4m3.e4m3", ", 1, 1", "+f");
    else if constexpr (P == BR_PRECISION_INT8_TENSOR)
        WGMMA("wgmma.mma_async.sync.aligned.m64n256k32.s32.s8.s8", "", "+r");
#endif
}

/* wgmma.fence (before the first wgmma) and wgmma.wait_group 0 (after the
 * last), with the accumulators as operands. */
template <typename Acc> __device__ __forceinline__ void wg_fence(Acc (&d)[128]) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    if constexpr (std::is_integral<Acc>::value)
        asm volatile("wgmma.fence.sync.aligned;" : WG_ACC128("+r")::"memory");
    else
        asm volatile("wgmma.fence.sync.aligned;" : WG_ACC128("+f")::"memory");
#endif
}
template <typename Acc> __device__ __forceinline__ void wg_wait_all(Acc (&d)[128]) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    if constexpr (std::is_integral<Acc>::value)
        asm volatile("wgmma.wait_group.sync.aligned 0;" : WG_ACC128("+r")::"memory");
    else
        asm volatile("wgmma.wait_group.sync.aligned 0;" : WG_ACC128("+f")::"memory");
#endif
}

/* Fill the operands with bits that vary (so the Tensor Cores switch as in a
 * real GEMM: all-zero operands draw less power, and the clock holds higher)
 * but stay finite and small: every byte below 0x40. Then make the writes
 * visible to wgmma, which reads shared memory through the async proxy. */
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
__device__ __forceinline__ void wg_fill(uint32_t *smem, uint32_t words, uint32_t bits) {
    for (uint32_t i = threadIdx.x; i < words; i += blockDim.x)
        smem[i] = ((i + 1u) * 0x9E3779B9u ^ bits) & 0x3F3F3F3Fu;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
}
#endif

/* Each block is one warpgroup: per iteration BR_COMPUTE_WGMMA_PER_GROUP
 * wgmma into the same accumulators (the PTX ISA orders accumulator accesses
 * of same-shape wgmma without a fence), committed as one group; it waits
 * until at most BR_COMPUTE_WGMMA_IN_FLIGHT - 1 groups are pending, so the
 * next group is issued while the last runs. Compiled into a no-op for every
 * target but sm_90a. */
template <int P, typename Acc>
__global__ void __launch_bounds__(BR_COMPUTE_WG_THREADS, BR_COMPUTE_WG_BLOCKS_PER_SM)
    peak_wgmma(long iters, uint32_t bits, int write, Acc *sink) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    __shared__ __align__(1024) uint32_t smem[(WG_A_BYTES + WG_B_BYTES) / 4];
    wg_fill(smem, (WG_A_BYTES + WG_B_BYTES) / 4, bits);
    const uint32_t base = (uint32_t)__cvta_generic_to_shared(smem);
    const uint64_t da = wg_desc(base), db = wg_desc(base + WG_A_BYTES);
    const uint32_t one = 1u | (bits & 2u);
    Acc d[128];
#pragma unroll
    for (int r = 0; r < 128; r++)
        d[r] = (Acc)0;
    /* The fence and the last wait name the accumulators, so the compiler keeps
     * their initialization before the first wgmma and the sum after the last. */
    wg_fence(d);
#pragma unroll 1
    for (long i = 0; i < iters; i++) {
        /* As a GEMM's main loop: a fence per group (it orders earlier
         * register writes, the descriptors' included, before the wgmma that
         * follow; it does not wait for the group still in flight). */
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
        for (int j = 0; j < BR_COMPUTE_WGMMA_PER_GROUP; j++)
            wgmma<P>(d, da, db, one);
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(BR_COMPUTE_WGMMA_IN_FLIGHT - 1)
                     : "memory");
    }
    wg_wait_all(d);
    Acc sum = 0;
#pragma unroll
    for (int r = 0; r < 128; r++)
        sum += d[r];
    if (write)
        sink[blockIdx.x * blockDim.x + threadIdx.x] = sum;
#endif
}

/* The wgmma kernel of precision p; NULL when none. */
const void *wgmma_kernel(int p) {
    switch (p) {
    case BR_PRECISION_TF32_TENSOR:
        return (const void *)peak_wgmma<BR_PRECISION_TF32_TENSOR, float>;
    case BR_PRECISION_FP16_TENSOR:
        return (const void *)peak_wgmma<BR_PRECISION_FP16_TENSOR, float>;
    case BR_PRECISION_BF16_TENSOR:
        return (const void *)peak_wgmma<BR_PRECISION_BF16_TENSOR, float>;
    case BR_PRECISION_FP8_TENSOR:
        return (const void *)peak_wgmma<BR_PRECISION_FP8_TENSOR, float>;
    case BR_PRECISION_INT8_TENSOR:
        return (const void *)peak_wgmma<BR_PRECISION_INT8_TENSOR, int32_t>;
    default:
        return NULL;
    }
}
} // namespace

extern "C" cudaError_t br_gpu_compute_peak_arch(int precision, int *code_arch) {
    const void *f = peak_kernel(precision);
    *code_arch = 0;
    if (!f)
        return cudaErrorInvalidValue;
    cudaFuncAttributes attr;
    cudaError_t e = cudaFuncGetAttributes(&attr, f);
    if (e == cudaSuccess)
        *code_arch = attr.ptxVersion;
    return e;
}

extern "C" cudaError_t br_gpu_compute_peak_wgmma(cudaStream_t stream, int *has_wgmma) {
    int *flag = NULL;
    *has_wgmma = 0;
    cudaError_t e = cudaMalloc(&flag, sizeof *flag);
    if (e != cudaSuccess)
        return e;
    wgmma_probe<<<1, 1, 0, stream>>>(flag);
    e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(has_wgmma, flag, sizeof *flag, cudaMemcpyDeviceToHost, stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(stream);
    cudaFree(flag);
    return e;
}

extern "C" cudaError_t br_gpu_compute_peak_launch(cudaStream_t stream, int precision, int wgmma,
                                                  int blocks, long iters, void *sink) {
    const void *f = wgmma ? wgmma_kernel(precision) : peak_kernel(precision);
    if (!f || blocks <= 0 || iters <= 0)
        return cudaErrorInvalidValue;
    uint32_t bits = 0x3c003c00u;
    int write = 0;
    void *args[] = {&iters, &bits, &write, &sink};
    return cudaLaunchKernel(f, dim3((unsigned)blocks),
                            dim3(wgmma ? BR_COMPUTE_WG_THREADS : BR_COMPUTE_THREADS), args, 0,
                            stream);
}
