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
 * Operations are counted as in the datasheets: 2 per fused multiply-add
 * lane, 2 M N K per mma of shape MxNxK (M N K multiply-adds).
 *
 * Note: on sm_90 the Tensor Cores' datasheet rate is reached only through
 * wgmma (warpgroup MMA, operands in shared memory); `mma.sync`'s rate is what
 * a warp-level kernel (WMMA, mma.sync/ldmatrix GEMMs) can reach, and that is
 * what this measures.
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

/* Where a precision's kernel runs. */
typedef enum br_compute_unit {
    BR_COMPUTE_FMA = 1, /* CUDA cores: fused multiply-add per thread */
    BR_COMPUTE_MMA = 2  /* Tensor Cores: warp-wide mma.sync */
} br_compute_unit;

/* The kernel that measures one precision. */
typedef struct br_compute_kernel {
    br_precision precision;
    br_compute_unit unit;
    int m, n, k;       /* BR_COMPUTE_MMA: the mma shape; 0 for FMA */
    int lanes;         /* BR_COMPUTE_FMA: multiply-adds per thread instruction (2 for half2) */
    int min_arch;      /* lowest compute capability (10 major + minor) that has the instruction */
    const char *instr; /* the PTX instruction, for messages and the cache's method */
} br_compute_kernel;

/* The kernel of precision p, or NULL when benchrun has none (BR_PRECISION_NONE,
 * the 2:4 sparse precisions, a value outside the enum). Static. Pure. */
const br_compute_kernel *br_compute_kernel_of(br_precision p);

/* Operations of one mma of shape m x n x k: 2 m n k (each of the m n k
 * multiply-adds counted as 2, as NVIDIA's datasheets count Tensor FLOPs).
 * Pure. */
double br_compute_mma_ops(int m, int n, int k);

/* Operations one launch of kernel k does: blocks x threads x iters x
 * BR_COMPUTE_CHAINS x 2 x lanes on the CUDA cores; blocks x (threads / 32)
 * x iters x BR_COMPUTE_CHAINS x br_compute_mma_ops on the Tensor Cores.
 * threads a multiple of 32. Returns NAN for a NULL kernel. Pure. */
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
