/* SPDX-License-Identifier: Apache-2.0 */
/* The measured compute peak's kernels, their operation counts and who has
 * them (compute_peak.h). */
#include "compute_peak.h"
#include "flops.h"

#include <math.h>
#include <stdio.h>

/* The architectures are the PTX ISA's "Target ISA notes" of fma (f16x2:
 * sm_53, bf16x2: sm_80) and mma.sync (m16n8k8 tf32, m16n8k16 f16/bf16,
 * m16n8k32 s8 and m8n8k4 f64: sm_80; m16n8k32 e4m3: sm_89). The launch:
 * threads per block, blocks per SM, instructions per iteration. */
#define FMA_LAUNCH BR_COMPUTE_THREADS, BR_COMPUTE_BLOCKS_PER_SM, BR_COMPUTE_CHAINS
#define WG_LAUNCH  BR_COMPUTE_WG_THREADS, BR_COMPUTE_WG_BLOCKS_PER_SM, BR_COMPUTE_WGMMA_PER_GROUP
static const br_compute_kernel kernels[] = {
    {BR_PRECISION_FP64, BR_COMPUTE_FMA, 0, 0, 0, 1, 0, "fma.rn.f64", FMA_LAUNCH},
    {BR_PRECISION_FP32, BR_COMPUTE_FMA, 0, 0, 0, 1, 0, "fma.rn.f32", FMA_LAUNCH},
    {BR_PRECISION_FP16, BR_COMPUTE_FMA, 0, 0, 0, 2, 53, "fma.rn.f16x2", FMA_LAUNCH},
    {BR_PRECISION_BF16, BR_COMPUTE_FMA, 0, 0, 0, 2, 80, "fma.rn.bf16x2", FMA_LAUNCH},
    {BR_PRECISION_FP64_TENSOR, BR_COMPUTE_MMA, 8, 8, 4, 0, 80,
     "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", FMA_LAUNCH},
    {BR_PRECISION_TF32_TENSOR, BR_COMPUTE_MMA, 16, 8, 8, 0, 80,
     "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", FMA_LAUNCH},
    {BR_PRECISION_FP16_TENSOR, BR_COMPUTE_MMA, 16, 8, 16, 0, 80,
     "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", FMA_LAUNCH},
    {BR_PRECISION_BF16_TENSOR, BR_COMPUTE_MMA, 16, 8, 16, 0, 80,
     "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", FMA_LAUNCH},
    {BR_PRECISION_FP8_TENSOR, BR_COMPUTE_MMA, 16, 8, 32, 0, 89,
     "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32", FMA_LAUNCH},
    {BR_PRECISION_INT8_TENSOR, BR_COMPUTE_MMA, 16, 8, 32, 0, 80,
     "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", FMA_LAUNCH},
};

/* wgmma.mma_async with A and B from shared memory, N = 256 (the largest
 * the PTX ISA allows), f32 (s32 for s8) accumulators: sm_90a only. */
static const br_compute_kernel wgmma_kernels[] = {
    {BR_PRECISION_TF32_TENSOR, BR_COMPUTE_WGMMA, 64, 256, 8, 0, 90,
     "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32", WG_LAUNCH},
    {BR_PRECISION_FP16_TENSOR, BR_COMPUTE_WGMMA, 64, 256, 16, 0, 90,
     "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16", WG_LAUNCH},
    {BR_PRECISION_BF16_TENSOR, BR_COMPUTE_WGMMA, 64, 256, 16, 0, 90,
     "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16", WG_LAUNCH},
    {BR_PRECISION_FP8_TENSOR, BR_COMPUTE_WGMMA, 64, 256, 32, 0, 90,
     "wgmma.mma_async.sync.aligned.m64n256k32.f32.e4m3.e4m3", WG_LAUNCH},
    {BR_PRECISION_INT8_TENSOR, BR_COMPUTE_WGMMA, 64, 256, 32, 0, 90,
     "wgmma.mma_async.sync.aligned.m64n256k32.s32.s8.s8", WG_LAUNCH},
};

const br_compute_kernel *br_compute_kernel_of(br_precision p) {
    for (size_t i = 0; i < sizeof kernels / sizeof *kernels; i++)
        if (kernels[i].precision == p)
            return &kernels[i];
    return NULL;
}

const br_compute_kernel *br_compute_kernel_pick(br_precision p, int cc_major, int cc_minor,
                                                int has_wgmma) {
    if (cc_major == 9 && cc_minor == 0 && has_wgmma)
        for (size_t i = 0; i < sizeof wgmma_kernels / sizeof *wgmma_kernels; i++)
            if (wgmma_kernels[i].precision == p)
                return &wgmma_kernels[i];
    return br_compute_kernel_of(p);
}

char *br_compute_method(const br_compute_kernel *k, const char *clock, char *buf, size_t len) {
    if (!k)
        snprintf(buf, len, "none");
    else if (k->unit == BR_COMPUTE_WGMMA)
        snprintf(buf, len,
                 "%s, %d per commit group, %d groups in flight, %d warpgroups per SM, cold "
                 "median, %s clock",
                 k->instr, k->per_iter, BR_COMPUTE_WGMMA_IN_FLIGHT,
                 k->blocks_per_sm * k->threads / 128, clock);
    else /* as before wgmma existed, so that older cache entries stay valid */
        snprintf(buf, len, "%s, %d chains, cold median, %s clock", k->instr, k->per_iter, clock);
    return buf;
}

double br_compute_mma_ops(int m, int n, int k) {
    return 2.0 * (double)m * (double)n * (double)k;
}

double br_compute_launch_ops(const br_compute_kernel *k, long blocks, int threads, long iters) {
    if (!k)
        return NAN;
    double per = (double)blocks * (double)iters * (double)k->per_iter;
    if (k->unit == BR_COMPUTE_FMA)
        return per * (double)threads * 2.0 * (double)k->lanes;
    if (k->unit == BR_COMPUTE_WGMMA)
        return per * (double)(threads / 128) * br_compute_mma_ops(k->m, k->n, k->k);
    return per * (double)(threads / 32) * br_compute_mma_ops(k->m, k->n, k->k);
}

int br_compute_available(br_precision p, int cc_major, int cc_minor, int code_arch, char *why,
                         size_t len) {
    const br_compute_kernel *k = br_compute_kernel_of(p);
    int cc = cc_major * 10 + cc_minor;
    if (len)
        why[0] = '\0';
    if (!k) {
        snprintf(why, len, "benchrun has no kernel that measures %s", br_precision_name(p));
        return 0;
    }
    if (cc < k->min_arch) {
        snprintf(why, len, "%s needs compute capability %d.%d or newer (%s); this GPU is %d.%d",
                 br_precision_name(p), k->min_arch / 10, k->min_arch % 10, k->instr, cc_major,
                 cc_minor);
        return 0;
    }
    if (br_flops_has(cc_major, cc_minor, p) == 0) { /* the peak table's word (flops.h) */
        snprintf(why, len, "%s: this GPU (%d.%d) lacks it", br_precision_name(p), cc_major,
                 cc_minor);
        return 0;
    }
    if (code_arch > 0 && code_arch < k->min_arch) {
        snprintf(why, len,
                 "%s needs code for compute capability %d.%d or newer (%s); benchrun's own code "
                 "for this GPU was compiled for %d.%d (CMAKE_CUDA_ARCHITECTURES)",
                 br_precision_name(p), k->min_arch / 10, k->min_arch % 10, k->instr, code_arch / 10,
                 code_arch % 10);
        return 0;
    }
    return 1;
}

const char *br_compute_unit_label(br_precision p) {
    return p == BR_PRECISION_INT8_TENSOR || p == BR_PRECISION_INT8_TENSOR_SPARSE ? "GOP/s"
                                                                                 : "GFLOP/s";
}
