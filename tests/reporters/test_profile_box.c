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
