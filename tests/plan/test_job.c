/* SPDX-License-Identifier: Apache-2.0 */
/* test_job.c - preparing a job: the compile-time variants of its defines,
 * the limits on variants and plan size, and bytes per kernel per case. */
#include <criterion/criterion.h>

#include <stdint.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "e2e_util.h"
#include "worker/session.h"
#include "plan/job.h"

#define SWEEP BR_FIXTURES_DIR "/sweep"

static void make_tmp(void) {
    e2e_tmp_make();
}
static void drop_tmp(void) {
    e2e_tmp_drop();
}
TestSuite(job, .init = make_tmp, .fini = drop_tmp, .timeout = 120);

Test(job, variants_are_the_distinct_values_of_the_defines) {
    br_run_opts ro = {0};
    br_measure_layer_init(&ro.measure);
    br_job j;
    cr_assert_eq(br_job_prepare(&j, SWEEP "/defines.yaml", &ro), 0, "%s", br_error_get());
    /* n: 2 values, tile: 2 (defines), unroll: 1 (defines): 4 cases, 2 variants. */
    cr_assert_eq(j.plan.n_cases, 4);
    cr_assert_eq(j.n_variants, 2);
    for (size_t c = 0; c < j.plan.n_combos; c++) {
        const int64_t *v = br_plan_params(&j.plan, c);
        const int64_t *first = br_plan_params(&j.plan, j.variant_combo[j.variant_of[c]]);
        cr_assert_eq(v[1], first[1], "a variant holds one tile value");
    }
    cr_assert_neq(j.variant_of[0], j.variant_of[1], "tile 16 and 64 differ");
    cr_assert_eq(j.variant_of[0], j.variant_of[2], "n is not a define");
    br_job_dispose(&j);

    cr_assert_eq(br_job_prepare(&j, SWEEP "/zip.yaml", &ro), 0, "%s", br_error_get());
    cr_assert_eq(j.plan.n_swept, 9);
    cr_assert_eq(j.plan.n_combos, 4, "where keeps 4 of 9");
    cr_assert_eq(j.n_variants, 1, "tile is 16 in every zipped entry");
    br_job_dispose(&j);
}

Test(job, bytes_per_kernel_reach_each_case) {
    char *cache = br_strfmt("--cache-dir=%s/cache", tmp);
    char *json = br_strfmt("%s/out.json", tmp);
    const char *args[] = {cache, "-q", "--json", json, SWEEP "/perkernel.yaml", NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 0, "%s", r.err);
    e2e_free(&r);
    char *text = NULL;
    cr_assert_eq(br_read_file(&text, NULL, json, 1 << 24), 0);
    /* Cases in plan order: (1000, sum), (1000, sum2), (2000, sum), (2000, sum2). */
    const char *want[] = {"\"bytes\": 4000", "\"bytes\": 8001", "\"bytes\": 8000",
                          "\"bytes\": 16001"};
    const char *at = text;
    for (size_t i = 0; i < 4; i++) {
        at = strstr(at, want[i]);
        cr_assert_not_null(at, "case %zu: no %s in order in\n%s", i, want[i], text);
        at++;
    }
    free(text);
    free(json);
    free(cache);
}

Test(job, too_many_variants_and_an_overlong_where_sweep_are_refused) {
    char *src = e2e_put("defines.c", "int unused;\n");
    free(src);
    char *path = e2e_put("v.yaml", "name: v\nsource: defines.c\nkernels: [k]\n"
                                   "params:\n  tile: {from: 1, to: 2000}\ndefines: [tile]\n");
    br_run_opts ro = {0};
    br_measure_layer_init(&ro.measure);
    br_job j;
    cr_assert_neq(br_job_prepare(&j, path, &ro), 0);
    cr_assert(strstr(br_error_get(),
                     "v.yaml:6:10: the defines give more than 1024 compile-time variants"),
              "%s", br_error_get());
    br_job_dispose(&j);
    free(path);
    /* 2000 x 2000 kept by where: stopped at the plan limit, not after the sweep. */
    path = e2e_put("w.yaml", "name: w\nsource: defines.c\nkernels: [k]\n"
                             "params:\n  a: {from: 1, to: 2000}\n  b: {from: 1, to: 2000}\n"
                             "where: a > 0\n");
    cr_assert_neq(br_job_prepare(&j, path, &ro), 0);
    cr_assert(strstr(br_error_get(), "w.yaml:7:8: plan has more than 1000000 cases ('where' keeps "
                                     "more than 1000000 parameter combinations x 1 kernels)"),
              "%s", br_error_get());
    br_job_dispose(&j);
    free(path);
}
