/* SPDX-License-Identifier: Apache-2.0 */
/* The measured compute peak: which short kernel measures each precision,
 * how many operations one launch of it does, and whether a GPU has it.
 *
 * `peak: measured` times, once per device and precision, a kernel that does
 * nothing but arithmetic in registers (no memory traffic in its loop):
 *   - on the CUDA cores, BR_COMPUTE_CHAINS independent fused multiply-add
 *     chains per thread (fp64 fma.rn.f64, fp32 fma.rn.f32, fp16 half2
 *     fma.rn.f16x2, bf16 bfloat162 fma.rn.bf16x2);
 *   - on the Tensor Cores, BR_COMPUTE_CHAINS independent accumulators per
 *     warp, each updated by one warp-wide `mma.sync` per iteration (tf32
 *     m16n8k8, fp16 and bf16 m16n8k16 with f32 accumulate, int8 m16n8k32
 *     with s32 accumulate, fp8 e4m3 m16n8k32 with f32 accumulate, fp64
 *     m8n8k4), the shapes and the architectures that have them as in the
 *     PTX ISA, "Warp-level matrix multiply-accumulate instructions"
 *     (mma.sync, "Target ISA notes").
 *   - on a compute capability 9.0 GPU (H100, H200) running benchrun's
 *     sm_90a code, the Tensor Cores' tf32, fp16, bf16, fp8 and int8 through
 *     `wgmma.mma_async` instead: there the datasheet rate is reached only by
 *     the warpgroup MMA (A and B in shared memory): `mma.sync` reached
 *     64% of it in fp16 and tf32, 76% in fp8, on an H200. One warpgroup
 *     (128 threads) issues BR_COMPUTE_WGMMA_PER_GROUP wgmma of the largest N (m64n256k8 tf32,
 *     m64n256k16 fp16/bf16, m64n256k32 e4m3/s8) into one accumulator per
 *     commit group and waits for all but BR_COMPUTE_WGMMA_IN_FLIGHT - 1
 *     groups (PTX ISA, "Asynchronous Warpgroup Level Matrix Multiply-
 *     Accumulate Instructions": wgmma.mma_async, wgmma.fence,
 *     wgmma.commit_group, wgmma.wait_group; the "a" targets in "Target ISA
 *     notes").
 * Operations are counted as in the datasheets: 2 per fused multiply-add
 * lane, 2 M N K per mma or wgmma of shape MxNxK (M N K multiply-adds).
 */
#ifndef BR_COMPUTE_PEAK_H
#define BR_COMPUTE_PEAK_H

#include <stddef.h>

#include "model/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Independent accumulator chains: per thread (CUDA cores) or per warp
 * (Tensor Cores). Eight hide the FMA pipe's latency (4 cycles on Volta to
 * Hopper) and an mma's (about 16-33 cycles) at the occupancy below. */
#define BR_COMPUTE_CHAINS 8
/* Threads per block and blocks per SM of a launch: 32 warps per SM, 8 per
 * scheduler; at most 64 registers per thread keeps them all resident. */
#define BR_COMPUTE_THREADS       256
#define BR_COMPUTE_BLOCKS_PER_SM 4
/* wgmma: one warpgroup per block, 3 blocks per SM (each thread holds 128
 * accumulators, so 3 x 128 threads x at most 170 registers fit the SM's
 * 64 Ki); 4 wgmma per commit group, 2 groups in flight. */
#define BR_COMPUTE_WG_THREADS       128
#define BR_COMPUTE_WG_BLOCKS_PER_SM 3
#define BR_COMPUTE_WGMMA_PER_GROUP  4
#define BR_COMPUTE_WGMMA_IN_FLIGHT  2

/* Where a precision's kernel runs. */
typedef enum br_compute_unit {
    BR_COMPUTE_FMA = 1,  /* CUDA cores: fused multiply-add per thread */
    BR_COMPUTE_MMA = 2,  /* Tensor Cores: warp-wide mma.sync */
    BR_COMPUTE_WGMMA = 3 /* Tensor Cores: warpgroup-wide wgmma.mma_async (sm_90a) */
} br_compute_unit;

/* The kernel that measures one precision. */
typedef struct br_compute_kernel {
    br_precision precision;
    br_compute_unit unit;
    int m, n, k;       /* MMA, WGMMA: the instruction's shape; 0 for FMA */
    int lanes;         /* BR_COMPUTE_FMA: multiply-adds per thread instruction (2 for half2) */
    int min_arch;      /* lowest compute capability (10 major + minor) that has the instruction */
    const char *instr; /* the PTX instruction, for messages and the cache's method */
    int threads;       /* threads per block of its launch */
    int blocks_per_sm; /* blocks per SM of its launch */
    int per_iter;      /* instructions per loop iteration, per thread (FMA), warp (MMA) or
                          warpgroup (WGMMA) */
} br_compute_kernel;

/* The kernel of precision p, or NULL when benchrun has none (BR_PRECISION_NONE,
 * the 2:4 sparse precisions, a value outside the enum): the FMA chains or
 * mma.sync loop that every GPU from sm_80 has. Static. Pure. */
const br_compute_kernel *br_compute_kernel_of(br_precision p);

/* The kernel that measures precision p on a device of compute capability
 * cc_major.cc_minor: the wgmma kernel (unit BR_COMPUTE_WGMMA) when the device
 * is 9.0, has_wgmma is non-zero (the driver loaded benchrun's sm_90a code:
 * wgmma is an arch-specific sm_90a instruction, PTX ISA "Target ISA notes")
 * and p is tf32, fp16, bf16, fp8 or int8 on the Tensor Cores; otherwise
 * br_compute_kernel_of(p). NULL as br_compute_kernel_of. Static. Pure. */
const br_compute_kernel *br_compute_kernel_pick(br_precision p, int cc_major, int cc_minor,
                                                int has_wgmma);

/* The cache's method of kernel k timed with the clock named clock (the
 * instruction, how it is issued, "cold median", the clock), into buf of len
 * bytes: a peak measured with mma.sync never reads as one measured with
 * wgmma (platform/peak.h compares the method on load). Returns buf. */
char *br_compute_method(const br_compute_kernel *k, const char *clock, char *buf, size_t len);

/* Operations of one mma of shape m x n x k: 2 m n k (each of the m n k
 * multiply-adds counted as 2, as NVIDIA's datasheets count Tensor FLOPs).
 * Pure. */
double br_compute_mma_ops(int m, int n, int k);

/* Operations one launch of kernel k does: blocks x threads x iters x
 * per_iter x 2 x lanes on the CUDA cores; blocks x (threads / 32) x iters x
 * per_iter x br_compute_mma_ops with mma.sync; blocks x (threads / 128) x
 * iters x per_iter x br_compute_mma_ops with wgmma. threads a multiple of
 * 32 (128 for wgmma). Returns NAN for a NULL kernel. Pure. */
double br_compute_launch_ops(const br_compute_kernel *k, long blocks, int threads, long iters);

/* Whether a device of compute capability cc_major.cc_minor, running
 * benchrun's code compiled for code_arch (10 major + minor: the virtual
 * architecture of the code the driver picked, cudaFuncAttributes.ptxVersion;
 * 0 when not known), has precision p's kernel. Returns 1, or 0 with why
 * written ("fp8-tensor needs compute capability 8.9 or newer
 * (mma.sync...e4m3); this GPU is 8.0"). fp64-tensor needs a GPU with FP64
 * Tensor Cores (8.0, 9.0, 10.x): the others run the instruction at the FP64
 * rate, which is no Tensor peak. Pure. */
int br_compute_available(br_precision p, int cc_major, int cc_minor, int code_arch, char *why,
                         size_t len);

/* The unit of precision p's figures: "GOP/s" for int8-tensor, "GFLOP/s"
 * otherwise. Static. Pure. */
const char *br_compute_unit_label(br_precision p);

/* The outcome of asking for a measured compute peak. Names only in the
 * worker's codec. */
typedef enum br_compute_peak_status {
    BR_COMPUTE_PEAK_MEASURED = 0,    /* measured now (and cached) */
    BR_COMPUTE_PEAK_CACHED = 1,      /* read from the cache */
    BR_COMPUTE_PEAK_UNAVAILABLE = 2, /* the GPU, or benchrun's build, lacks the instruction */
    BR_COMPUTE_PEAK_FAILED = 3       /* could not be measured: no GPU, a CUDA error */
} br_compute_peak_status;

/* A measured compute peak of one precision: the outcome of asking for it. */
typedef struct br_compute_measure {
    br_precision precision;
    br_compute_peak_status status;
    double gops;   /* GFLOP/s (GOP/s for int8-tensor), 1e9 operations/s; NAN unless
                      MEASURED or CACHED */
    char why[256]; /* UNAVAILABLE or FAILED: why; "" otherwise */
} br_compute_measure;

#ifdef __cplusplus
}
#endif
#endif
