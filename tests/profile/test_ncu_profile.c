/* SPDX-License-Identifier: Apache-2.0 */
/* One case's profile (results/profile.c): medians per kernel and sums per
 * execution over ncu's launches, the check of the suite's bytes against
 * DRAM's (10%, both ways, and its wording), and the JSON document. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/error.h"
#include "profile/ncu_profile.h"

static br_ncu_launch launch(const char *k, double ns, double rd, double wr, double occ) {
    return (br_ncu_launch){.kernel = (char *)k,
                           .duration_ns = ns,
                           .dram_read_bytes = rd,
                           .dram_write_bytes = wr,
                           .occupancy_pct = occ,
                           .sm_pct = 10,
                           .mem_pct = 90,
                           .l2_hit_pct = NAN};
}

Test(profile, kernels_and_sums_per_execution) {
    /* Two executions of a two-kernel case: a, b, a, b (a third a is slower). */
    br_ncu_launch l[] = {launch("a", 100, 1000, 10, 50), launch("b", 10, 0, 4, 20),
                         launch("a", 300, 3000, 30, 70), launch("b", 30, 0, 8, 40),
                         launch("a", 200, 2000, 20, 60)};
    br_ncu_report r = {l, 5};
    br_profile p = {.declared_bytes = NAN};
    cr_assert_eq(br_profile_summarise(&p, &r, 2), 0, "%s", br_error_get());
    cr_assert_eq(p.n_kernels, 2);
    cr_expect_str_eq(p.kernels[0].name, "a");
    cr_expect_eq(p.kernels[0].launches, 3);
    cr_expect_eq(p.kernels[0].duration_ns, 200, "the median of 100, 300, 200");
    cr_expect_eq(p.kernels[0].dram_read_bytes, 2000);
    cr_expect_eq(p.kernels[0].occupancy_pct, 60);
    cr_expect_eq(p.kernels[1].launches, 2);
    cr_expect_eq(p.kernels[1].duration_ns, 20, "the median of 10 and 30");
    cr_expect_eq(p.kernels[1].dram_write_bytes, 6);
    cr_expect(isnan(p.kernels[1].l2_hit_pct), "no finite value: NAN");
    cr_expect_eq(p.duration_ns, (100 + 10 + 300 + 30 + 200) / 2.0);
    cr_expect_eq(p.dram_read_bytes, 6000 / 2.0);
    cr_expect_eq(p.dram_write_bytes, 72 / 2.0);
    cr_expect_eq(p.n_launches, 5);
    br_profile_dispose(&p);
}

Test(profile, nothing_profiled_is_an_error) {
    br_ncu_report r = {0};
    br_profile p = {0};
    cr_expect_eq(br_profile_summarise(&p, &r, 3), -1);
    cr_expect(strstr(br_error_get(), "no kernel launch"), "%s", br_error_get());
}

Test(profile, bytes_check) {
    char buf[256];
    /* Twice the truth: 2^31 declared, 2^30 moved. */
    cr_expect_eq(br_profile_bytes_check(buf, sizeof buf, 2147483648.0, 1073741824.0, 0), 1);
    cr_expect_str_eq(buf,
                     "the suite's bytes (2.15 GB) is 2.00\u00d7 what the DRAM moved (1.07 GB)");
    cr_expect_eq(br_profile_bytes_check(buf, sizeof buf, 2147483648.0, 1073741824.0, 1), 1);
    cr_expect(strstr(buf, "is 2.00x what"), "%s", buf);
    /* Half: the suite undercounts. */
    cr_expect_eq(br_profile_bytes_check(buf, sizeof buf, 0.5e9, 1e9, 0), 1);
    cr_expect(strstr(buf, "(500 MB) is 0.50\u00d7 what the DRAM moved (1 GB)"), "%s", buf);
    /* Within 10% either way: quiet. */
    cr_expect_eq(br_profile_bytes_check(buf, sizeof buf, 1.09e9, 1e9, 0), 0);
    cr_expect_str_eq(buf, "");
    cr_expect_eq(br_profile_bytes_check(buf, sizeof buf, 0.91e9, 1e9, 0), 0);
    cr_expect_eq(br_profile_bytes_check(buf, sizeof buf, 1.11e9, 1e9, 0), 1);
    /* Unknown on either side: nothing to check. */
    cr_expect_eq(br_profile_bytes_check(buf, sizeof buf, NAN, 1e9, 0), 0);
    cr_expect_eq(br_profile_bytes_check(buf, sizeof buf, 1e9, 0, 0), 0);
}

Test(profile, json_keeps_everything) {
    br_ncu_launch l[] = {launch("k(float *)", 1000, 2e9, 1e6, 80)};
    br_ncu_report r = {l, 1};
    br_profile p = {.suite = "s",
                    .kernel = "k",
                    .params = "n=2^28",
                    .declared_bytes = 4e9,
                    .flops = NAN,
                    .median_ns = 1100,
                    .clock = "kernel",
                    .event_median_ns = 1150,
                    .kernel_median_ns = 1100,
                    .range = "benchrun@sample/"};
    cr_assert_eq(br_profile_summarise(&p, &r, 1), 0);
    char path[] = "/tmp/br-profile-json-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    cr_assert_eq(br_profile_write_json(path, &p), 0, "%s", br_error_get());
    json_error_t e;
    json_t *j = json_load_file(path, 0, &e);
    unlink(path);
    cr_assert_not_null(j, "%s", e.text);
    json_t *ncu = json_object_get(j, "ncu");
    cr_expect_str_eq(json_string_value(json_object_get(j, "params")), "n=2^28");
    cr_expect(json_is_null(json_object_get(j, "flops")));
    cr_expect_eq(json_number_value(json_object_get(json_object_get(j, "benchrun"), "median_ns")),
                 1100);
    cr_expect_eq(json_number_value(json_object_get(ncu, "dram_bytes")), 2e9 + 1e6);
    cr_expect_float_eq(json_number_value(json_object_get(ncu, "bytes_ratio")), 4e9 / (2e9 + 1e6),
                       1e-12);
    cr_expect(strstr(json_string_value(json_object_get(ncu, "bytes_warning")), "is 2.00x what"),
              "the JSON warning is ASCII");
    json_t *k = json_array_get(json_object_get(ncu, "kernels"), 0);
    cr_expect_str_eq(json_string_value(json_object_get(k, "name")), "k(float *)");
    cr_expect_eq(json_number_value(json_object_get(k, "occupancy_pct")), 80);
    cr_expect(json_is_null(json_object_get(k, "l2_hit_pct")));
    json_decref(j);
    br_profile_dispose(&p);
}

/* The pipes: per kernel, the busiest Tensor pipe's median and its name; over
 * the launches, weighted by duration. */
Test(profile, pipes_per_kernel_and_weighted_by_duration) {
    br_ncu_launch l[] = {launch("mma", 300, 0, 0, 50), launch("ew", 100, 0, 0, 50),
                         launch("mma", 300, 0, 0, 50)};
    for (size_t i = 0; i < 3; i++) {
        l[i].tensor_pct = l[i].imma_pct = l[i].imma_inst_pct = l[i].dmma_pct = NAN;
        l[i].fp16_pct = l[i].fp64_pct = NAN;
    }
    l[0].hmma_pct = 80, l[2].hmma_pct = 84, l[1].hmma_pct = 0;
    l[0].gmma_pct = 1, l[2].gmma_pct = 1, l[1].gmma_pct = 0;
    l[0].fma_pct = 2, l[2].fma_pct = 2, l[1].fma_pct = 60;
    br_ncu_report r = {l, 3};
    br_profile p = {0};
    cr_assert_eq(br_profile_summarise(&p, &r, 1), 0, "%s", br_error_get());
    cr_assert_eq(p.n_kernels, 2);
    cr_expect_eq(p.kernels[0].tensor_pct, 82.0);
    cr_expect_str_eq(p.kernels[0].tensor_pipe, "hmma");
    cr_expect_eq(p.kernels[0].fma_pct, 2.0);
    cr_expect(isnan(p.kernels[0].fp64_pct));
    cr_expect_eq(p.kernels[1].tensor_pct, 0.0);
    cr_expect_eq(p.kernels[1].fma_pct, 60.0);
    /* (80 x 300 + 0 x 100 + 84 x 300) / 700, and (2 x 600 + 60 x 100) / 700 */
    cr_expect_float_eq(p.tensor_pct, (80.0 * 300 + 84.0 * 300) / 700, 1e-12);
    cr_expect_float_eq(p.cuda_pct, (2.0 * 600 + 60.0 * 100) / 700, 1e-12);
    br_profile_dispose(&p);
}

Test(profile, precision_check) {
    char w[256];
    /* A Tensor precision on an idle Tensor pipe with busy CUDA cores. */
    cr_expect_eq(br_profile_precision_check(w, sizeof w, BR_PRECISION_FP16_TENSOR, 0.0, 63.2), 1);
    cr_expect_str_eq(w, "the suite declares fp16-tensor, but the Tensor pipe was idle (0.0%) and "
                        "the CUDA cores busy (63.2%): the % of peak is against the wrong ceiling");
    /* A CUDA-core precision on a busy Tensor pipe. */
    cr_expect_eq(br_profile_precision_check(w, sizeof w, BR_PRECISION_FP32, 72.4, 3.0), 1);
    cr_expect_str_eq(w, "the suite declares fp32 (CUDA cores), but the Tensor pipe was busy "
                        "(72.4%): the % of peak is against the wrong ceiling");
    /* Agreement, in both kinds. */
    cr_expect_eq(br_profile_precision_check(w, sizeof w, BR_PRECISION_FP16_TENSOR, 71.5, 3.1), 0);
    cr_expect_str_eq(w, "");
    cr_expect_eq(br_profile_precision_check(w, sizeof w, BR_PRECISION_FP32, 0.0, 88.0), 0);
    cr_expect_eq(br_profile_precision_check(w, sizeof w, BR_PRECISION_INT8_TENSOR, 40.0, 1.0), 0);
    /* Nothing declared, a pipe unknown, or neither idle nor busy: no word. */
    cr_expect_eq(br_profile_precision_check(w, sizeof w, BR_PRECISION_NONE, 0.0, 90.0), 0);
    cr_expect_eq(br_profile_precision_check(w, sizeof w, BR_PRECISION_FP8_TENSOR, NAN, 90.0), 0);
    cr_expect_eq(br_profile_precision_check(w, sizeof w, BR_PRECISION_FP32, NAN, 90.0), 0);
    cr_expect_eq(br_profile_precision_check(w, sizeof w, BR_PRECISION_BF16_TENSOR, 10.0, 90.0), 0);
    cr_expect_eq(br_profile_precision_check(w, sizeof w, BR_PRECISION_FP64, 15.0, 90.0), 0);
}
