/* SPDX-License-Identifier: Apache-2.0 */
/* The box of benchrun profile (reporters/profile_box.c): ncu's figures
 * beside benchrun's median, the declared bytes and their ratio, each
 * kernel's line, the warning of a wrong bytes, "–" for what is unknown, and
 * a frame whose every line has the same width. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reporters/reporter.h"
#include "reporters/profile_box.h"

static char *box_of(const br_profile *p, int ascii) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert_not_null(f);
    cr_assert_eq(br_profile_box_write(f, p, ascii), 0);
    fclose(f);
    return buf;
}

static br_profile sample(double declared, br_profile_kernel *k) {
    *k = (br_profile_kernel){.name = "sgemm_kernel(int, const float *)",
                             .launches = 6,
                             .duration_ns = 2.5e6,
                             .occupancy_pct = 48.25,
                             .sm_pct = 81.5,
                             .mem_pct = 40,
                             .l2_hit_pct = NAN};
    return (br_profile){.suite = "sgemm",
                        .kernel = "sgemm_tiled",
                        .params = "n=4096",
                        .device = "NVIDIA H100",
                        .declared_bytes = declared,
                        .flops = 1.37e11,
                        .median_ns = 2.6e6,
                        .clock = "kernel",
                        .range = "benchrun@sample/",
                        .executions = 3,
                        .kernels = k,
                        .n_kernels = 1,
                        .n_launches = 6,
                        .duration_ns = 5e6,
                        .dram_read_bytes = 2e8,
                        .dram_write_bytes = 6.7e7};
}

Test(profile_box, figures_side_by_side) {
    br_profile_kernel k;
    br_profile p = sample(2.01e8, &k);
    char *b = box_of(&p, 1);
    cr_expect(strstr(b, "| Nsight Compute: sgemm_tiled n=4096 on NVIDIA H100 "), "%s", b);
    cr_expect(strstr(b, "3 execution(s), 6 kernel launch(es) in the NVTX range benchrun@sample/"),
              "%s", b);
    cr_expect(strstr(b, "  time                 5 ms           2.6 ms median (kernel clock, cold)"),
              "%s", b);
    cr_expect(strstr(b, "267 MB         201 MB declared (bytes), 0.75x DRAM"), "%s", b);
    cr_expect(strstr(b, "read / written     200 MB / 67 MB"), "%s", b);
    cr_expect(strstr(b, "kernel sgemm_kernel(int, const float *)"), "%s", b);
    cr_expect(strstr(b, "  2 per execution, 2.5 ms median, occupancy 48.2%, SM 81.5%, memory "
                        "40.0% of peak, L2 hit -"),
              "%s", b);
    cr_expect(
        strstr(b, "warning: the suite's bytes (201 MB) is 0.75x what the DRAM moved (267 MB)"),
        "%s", b);
    /* Every line of the frame is as wide as the first. */
    size_t first = strcspn(b, "\n");
    for (char *l = b; *l; l += strcspn(l, "\n") + 1)
        cr_expect_eq(strcspn(l, "\n"), first, "a ragged line: %.*s", (int)strcspn(l, "\n"), l);
    free(b);
}

Test(profile_box, unicode_and_nothing_measured) {
    br_profile_kernel k;
    br_profile p = sample(2.67e8, &k);
    p.median_ns = NAN;
    p.device = NULL;
    char *b = box_of(&p, 0);
    cr_expect(strstr(b, "\u2502 Nsight Compute: sgemm_tiled n=4096 "), "%s", b);
    cr_expect(strstr(b, "not measured (see above)"), "%s", b);
    cr_expect(strstr(b, "L2 hit \u2013"), "%s", b);
    cr_expect(!strstr(b, "warning"), "within 10%%: %s", b);
    cr_expect(!strstr(b, " on "), "no device: %s", b);
    free(b);
}

/* A Tensor Core case: the pipes beside benchrun's % of peak, per kernel
 * the Tensor pipe's name; the declared precision agrees: no warning. */
static br_profile tensor_case(br_profile_kernel *k, br_precision declared, double tensor,
                              double cuda) {
    br_profile p = sample(2.67e8, k);
    k->tensor_pct = tensor;
    k->tensor_pipe = "hmma";
    k->fma_pct = cuda;
    k->fp16_pct = NAN;
    k->fp64_pct = 0;
    p.tensor_pct = tensor;
    p.cuda_pct = cuda;
    p.pct_peak = 41.25;
    p.metric = "GFLOP/s";
    p.precision = declared;
    return p;
}

Test(profile_box, the_tensor_pipe_beside_the_pct_of_peak) {
    br_profile_kernel k;
    br_profile p = tensor_case(&k, BR_PRECISION_FP16_TENSOR, 71.5, 3.1);
    char *b = box_of(&p, 1);
    cr_expect(strstr(b, "|   Tensor pipe          71.5%          41.2% of peak (GFLOP/s), declared "
                        "fp16-tensor"),
              "%s", b);
    cr_expect(strstr(b, "|   CUDA-core pipes      3.1%"), "%s", b);
    cr_expect(strstr(b, "|   pipes: Tensor 71.5% (hmma), FMA 3.1%, FP16 -, FP64 0.0%"), "%s", b);
    cr_expect(!strstr(b, "warning"), "%s", b);
    free(b);
}

Test(profile_box, a_precision_that_disagrees_with_the_pipes_is_warned) {
    br_profile_kernel k;
    br_profile p = tensor_case(&k, BR_PRECISION_FP32, 71.5, 3.1);
    char *b = box_of(&p, 0);
    cr_expect(strstr(b, "warning: the suite declares fp32 (CUDA cores), but the Tensor pipe was "
                        "busy (71.5%)"),
              "%s", b);
    free(b);
    p = tensor_case(&k, BR_PRECISION_BF16_TENSOR, 0.0, 64.0);
    b = box_of(&p, 1);
    cr_expect(strstr(b, "warning: the suite declares bf16-tensor, but the Tensor pipe was idle "
                        "(0.0%) and the CUDA cores busy (64.0%)"),
              "%s", b);
    free(b);
    /* No precision declared: no % of peak check either way. */
    p = tensor_case(&k, BR_PRECISION_NONE, 0.0, 64.0);
    p.pct_peak = NAN;
    b = box_of(&p, 1);
    cr_expect(!strstr(b, "warning"), "%s", b);
    cr_expect(strstr(b, "Tensor pipe          0.0%           no % of peak |") ||
                  strstr(b, "Tensor pipe          0.0%           no % of peak "),
              "%s", b);
    free(b);
}
