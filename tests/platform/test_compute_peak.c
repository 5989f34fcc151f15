/* SPDX-License-Identifier: Apache-2.0 */
/* The measured compute peak's kernels: operations per mma shape and per
 * launch, and which GPUs (and builds) have each precision. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "platform/compute_peak.h"

Test(compute_peak, an_mma_counts_two_operations_per_multiply_add) {
    cr_expect_eq(br_compute_mma_ops(16, 8, 16), 4096.0); /* fp16/bf16 */
    cr_expect_eq(br_compute_mma_ops(16, 8, 8), 2048.0);  /* tf32 */
    cr_expect_eq(br_compute_mma_ops(16, 8, 32), 8192.0); /* int8, fp8 */
    cr_expect_eq(br_compute_mma_ops(8, 8, 4), 512.0);    /* fp64 */
}

Test(compute_peak, each_tensor_precision_has_its_ptx_shape) {
    struct {
        br_precision p;
        int m, n, k;
        const char *instr;
    } want[] = {
        {BR_PRECISION_TF32_TENSOR, 16, 8, 8, "m16n8k8.row.col.f32.tf32.tf32.f32"},
        {BR_PRECISION_FP16_TENSOR, 16, 8, 16, "m16n8k16.row.col.f32.f16.f16.f32"},
        {BR_PRECISION_BF16_TENSOR, 16, 8, 16, "m16n8k16.row.col.f32.bf16.bf16.f32"},
        {BR_PRECISION_INT8_TENSOR, 16, 8, 32, "m16n8k32.row.col.s32.s8.s8.s32"},
        {BR_PRECISION_FP8_TENSOR, 16, 8, 32, "m16n8k32.row.col.f32.e4m3.e4m3.f32"},
        {BR_PRECISION_FP64_TENSOR, 8, 8, 4, "m8n8k4.row.col.f64.f64.f64.f64"},
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        const br_compute_kernel *k = br_compute_kernel_of(want[i].p);
        cr_assert_not_null(k, "%s", br_precision_name(want[i].p));
        cr_expect_eq(k->unit, BR_COMPUTE_MMA);
        cr_expect(k->m == want[i].m && k->n == want[i].n && k->k == want[i].k, "%s: m%dn%dk%d",
                  br_precision_name(want[i].p), k->m, k->n, k->k);
        cr_expect(strstr(k->instr, want[i].instr), "%s", k->instr);
    }
}

Test(compute_peak, launch_ops_multiply_the_launch_by_the_chains) {
    /* An H100's launch: 132 SMs x 4 blocks of 256 threads, 1000 iterations. */
    long blocks = 132 * BR_COMPUTE_BLOCKS_PER_SM;
    const br_compute_kernel *f32 = br_compute_kernel_of(BR_PRECISION_FP32);
    const br_compute_kernel *h2 = br_compute_kernel_of(BR_PRECISION_FP16);
    const br_compute_kernel *hm = br_compute_kernel_of(BR_PRECISION_FP16_TENSOR);
    const br_compute_kernel *dm = br_compute_kernel_of(BR_PRECISION_FP64_TENSOR);
    double per_thread = 1000.0 * BR_COMPUTE_CHAINS;
    cr_expect_eq(br_compute_launch_ops(f32, blocks, 256, 1000), blocks * 256.0 * per_thread * 2);
    cr_expect_eq(br_compute_launch_ops(h2, blocks, 256, 1000), blocks * 256.0 * per_thread * 4);
    /* 8 warps per block, one mma per chain per warp. */
    cr_expect_eq(br_compute_launch_ops(hm, blocks, 256, 1000), blocks * 8.0 * per_thread * 4096);
    cr_expect_eq(br_compute_launch_ops(dm, blocks, 256, 1000), blocks * 8.0 * per_thread * 512);
    cr_expect(isnan(br_compute_launch_ops(NULL, blocks, 256, 1000)));
}

Test(compute_peak, sparse_and_none_have_no_kernel) {
    cr_expect_null(br_compute_kernel_of(BR_PRECISION_NONE));
    cr_expect_null(br_compute_kernel_of(BR_PRECISION_FP16_TENSOR_SPARSE));
    cr_expect_null(br_compute_kernel_of(BR_PRECISION_INT8_TENSOR_SPARSE));
    char why[256];
    cr_expect_eq(br_compute_available(BR_PRECISION_FP8_TENSOR_SPARSE, 9, 0, 90, why, sizeof why),
                 0);
    cr_expect_str_eq(why, "benchrun has no kernel that measures fp8-tensor-sparse");
}

Test(compute_peak, fp8_needs_ada_or_newer) {
    char why[256];
    cr_expect_eq(br_compute_available(BR_PRECISION_FP8_TENSOR, 8, 0, 80, why, sizeof why), 0);
    cr_expect(strstr(why, "fp8-tensor needs compute capability 8.9 or newer") &&
                  strstr(why, "this GPU is 8.0"),
              "%s", why);
    cr_expect_eq(br_compute_available(BR_PRECISION_FP8_TENSOR, 9, 0, 90, why, sizeof why), 1);
    cr_expect_str_eq(why, "");
    /* An L40S (8.9) running benchrun's sm_80 code has no e4m3 mma in it. */
    cr_expect_eq(br_compute_available(BR_PRECISION_FP8_TENSOR, 8, 9, 80, why, sizeof why), 0);
    cr_expect(strstr(why, "compiled for 8.0"), "%s", why);
    /* The build not known: the device decides. */
    cr_expect_eq(br_compute_available(BR_PRECISION_FP8_TENSOR, 8, 9, 0, why, sizeof why), 1);
}

Test(compute_peak, tensor_mma_needs_ampere_and_fp64_tensor_a_data_centre_gpu) {
    char why[256];
    cr_expect_eq(br_compute_available(BR_PRECISION_FP16_TENSOR, 7, 5, 75, why, sizeof why), 0);
    cr_expect(strstr(why, "needs compute capability 8.0"), "%s", why);
    cr_expect_eq(br_compute_available(BR_PRECISION_BF16, 7, 0, 70, why, sizeof why), 0);
    cr_expect_eq(br_compute_available(BR_PRECISION_FP32, 7, 0, 70, why, sizeof why), 1);
    cr_expect_eq(br_compute_available(BR_PRECISION_FP16, 7, 0, 70, why, sizeof why), 1);
    cr_expect_eq(br_compute_available(BR_PRECISION_FP64_TENSOR, 8, 0, 80, why, sizeof why), 1);
    cr_expect_eq(br_compute_available(BR_PRECISION_FP64_TENSOR, 9, 0, 90, why, sizeof why), 1);
    cr_expect_eq(br_compute_available(BR_PRECISION_FP64_TENSOR, 8, 6, 80, why, sizeof why), 0);
    cr_expect(strstr(why, "fp64-tensor: this GPU (8.6) lacks it"), "%s", why);
    cr_expect_eq(br_compute_available(BR_PRECISION_FP64_TENSOR, 8, 9, 80, why, sizeof why), 0);
}

Test(compute_peak, int8_is_counted_in_operations) {
    cr_expect_str_eq(br_compute_unit_label(BR_PRECISION_INT8_TENSOR), "GOP/s");
    cr_expect_str_eq(br_compute_unit_label(BR_PRECISION_FP8_TENSOR), "GFLOP/s");
}

/* ---- wgmma on compute capability 9.0 (sm_90a) ---------------------------------- */

Test(compute_peak, sm_90a_measures_the_tensor_cores_with_wgmma_of_n256) {
    struct {
        br_precision p;
        int k;
        const char *instr;
    } want[] = {
        {BR_PRECISION_TF32_TENSOR, 8, "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32"},
        {BR_PRECISION_FP16_TENSOR, 16, "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16"},
        {BR_PRECISION_BF16_TENSOR, 16, "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16"},
        {BR_PRECISION_FP8_TENSOR, 32, "wgmma.mma_async.sync.aligned.m64n256k32.f32.e4m3.e4m3"},
        {BR_PRECISION_INT8_TENSOR, 32, "wgmma.mma_async.sync.aligned.m64n256k32.s32.s8.s8"},
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        const br_compute_kernel *k = br_compute_kernel_pick(want[i].p, 9, 0, 1);
        cr_assert_not_null(k, "%s", br_precision_name(want[i].p));
        cr_expect_eq(k->unit, BR_COMPUTE_WGMMA, "%s", br_precision_name(want[i].p));
        cr_expect(k->m == 64 && k->n == 256 && k->k == want[i].k, "%s: m%dn%dk%d",
                  br_precision_name(want[i].p), k->m, k->n, k->k);
        cr_expect_str_eq(k->instr, want[i].instr);
        cr_expect_eq(k->threads, 128); /* one warpgroup per block */
        cr_expect_eq(k->precision, want[i].p);
    }
}

Test(compute_peak, without_sm_90a_code_or_on_another_gpu_it_stays_mma_sync) {
    const br_precision ps[] = {BR_PRECISION_TF32_TENSOR, BR_PRECISION_FP16_TENSOR,
                               BR_PRECISION_BF16_TENSOR, BR_PRECISION_FP8_TENSOR,
                               BR_PRECISION_INT8_TENSOR};
    for (size_t i = 0; i < sizeof ps / sizeof *ps; i++) {
        const br_compute_kernel *sync = br_compute_kernel_of(ps[i]);
        cr_assert_eq(sync->unit, BR_COMPUTE_MMA);
        cr_expect_eq(br_compute_kernel_pick(ps[i], 9, 0, 0), sync);  /* build lacks sm_90a */
        cr_expect_eq(br_compute_kernel_pick(ps[i], 8, 9, 1), sync);  /* L40S */
        cr_expect_eq(br_compute_kernel_pick(ps[i], 8, 0, 1), sync);  /* A100 */
        cr_expect_eq(br_compute_kernel_pick(ps[i], 10, 0, 1), sync); /* B200: no wgmma */
        cr_expect_eq(br_compute_kernel_pick(ps[i], 12, 0, 1), sync);
    }
    /* wgmma has no fp64, and the CUDA cores' precisions stay FMA chains. */
    cr_expect_eq(br_compute_kernel_pick(BR_PRECISION_FP64_TENSOR, 9, 0, 1)->unit, BR_COMPUTE_MMA);
    cr_expect_eq(br_compute_kernel_pick(BR_PRECISION_FP32, 9, 0, 1)->unit, BR_COMPUTE_FMA);
    cr_expect_eq(br_compute_kernel_pick(BR_PRECISION_BF16, 9, 0, 1)->unit, BR_COMPUTE_FMA);
    cr_expect_null(br_compute_kernel_pick(BR_PRECISION_FP16_TENSOR_SPARSE, 9, 0, 1));
    cr_expect_null(br_compute_kernel_pick(BR_PRECISION_NONE, 9, 0, 1));
}

Test(compute_peak, a_wgmma_launch_counts_2_64_n_k_per_wgmma_per_warpgroup) {
    /* An H200's launch: 132 SMs x 3 blocks of one warpgroup, 1000 iterations
     * of 4 wgmma each. */
    long blocks = 132 * BR_COMPUTE_WG_BLOCKS_PER_SM;
    const br_compute_kernel *h = br_compute_kernel_pick(BR_PRECISION_FP16_TENSOR, 9, 0, 1);
    const br_compute_kernel *t = br_compute_kernel_pick(BR_PRECISION_TF32_TENSOR, 9, 0, 1);
    const br_compute_kernel *e = br_compute_kernel_pick(BR_PRECISION_FP8_TENSOR, 9, 0, 1);
    cr_assert_eq(h->per_iter, BR_COMPUTE_WGMMA_PER_GROUP);
    double wgmmas = (double)blocks * 1000.0 * BR_COMPUTE_WGMMA_PER_GROUP;
    cr_expect_eq(br_compute_mma_ops(64, 256, 16), 524288.0);
    cr_expect_eq(br_compute_launch_ops(h, blocks, 128, 1000), wgmmas * 524288.0);
    cr_expect_eq(br_compute_launch_ops(t, blocks, 128, 1000), wgmmas * 262144.0);
    cr_expect_eq(br_compute_launch_ops(e, blocks, 128, 1000), wgmmas * 1048576.0);
    /* Two warpgroups per block do twice the work. */
    cr_expect_eq(br_compute_launch_ops(h, blocks, 256, 1000), 2 * wgmmas * 524288.0);
    /* At the datasheet's 989.4 TFLOP/s (132 SMs x 4096 FLOP per clock at
     * 1.83 GHz) such a launch takes 0.84 ms: 3 warpgroups x 4000 wgmma x
     * 128 clocks each (64 x 256 x 16 multiply-adds at 2048 per clock) per SM. */
    double s = br_compute_launch_ops(h, blocks, 128, 1000) / (132.0 * 4096 * 1.83e9);
    cr_expect(fabs(s - 3 * 4000 * 128 / 1.83e9) < 1e-9, "%g s", s);
}

Test(compute_peak, the_method_names_the_instruction_so_caches_never_mix) {
    char sync[256], wg[256];
    const br_compute_kernel *m = br_compute_kernel_pick(BR_PRECISION_FP16_TENSOR, 9, 0, 0);
    const br_compute_kernel *w = br_compute_kernel_pick(BR_PRECISION_FP16_TENSOR, 9, 0, 1);
    cr_expect_str_eq(br_compute_method(m, "cupti", sync, sizeof sync),
                     "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32, 8 chains, cold median, "
                     "cupti clock");
    cr_expect_str_eq(br_compute_method(w, "cupti", wg, sizeof wg),
                     "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16, 4 per commit group, 2 "
                     "groups in flight, 3 warpgroups per SM, cold median, cupti clock");
    cr_expect_str_neq(sync, wg);
    cr_expect_str_eq(
        br_compute_method(br_compute_kernel_of(BR_PRECISION_FP32), "events", sync, sizeof sync),
        "fma.rn.f32, 8 chains, cold median, events clock");
}
