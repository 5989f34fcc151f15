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
