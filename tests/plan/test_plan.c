/* SPDX-License-Identifier: Apache-2.0 */
/* test_plan.c - expanding a suite into cases: order, patterns, no params, the limit. */
#include <criterion/criterion.h>

#include <stdint.h>
#include <string.h>

#include "plan/plan.h"

/* A suite built in memory: kernels and params point at the given arrays. */
typedef struct fake_suite {
    br_suite s;
    br_located kernels[8];
    br_param params[8];
} fake_suite;

static void fake_init(fake_suite *f, const char *const *kernels, size_t n_kernels) {
    memset(f, 0, sizeof *f);
    f->s.path = (char *)"fake.yaml";
    for (size_t i = 0; i < n_kernels; i++)
        f->kernels[i].text = (char *)kernels[i];
    f->s.kernels = f->kernels;
    f->s.n_kernels = n_kernels;
    f->s.params = f->params;
}

static void fake_param(fake_suite *f, const char *name, int64_t *values, size_t n) {
    br_param *p = &f->params[f->s.n_params++];
    p->name = (char *)name;
    p->values = values;
    p->n_values = n;
}

Test(plan, order_first_param_outermost_kernels_innermost) {
    static const char *const kernels[] = {"a", "b"};
    int64_t n[] = {1, 2};
    int64_t m[] = {10, 20, 30};
    fake_suite f;
    fake_init(&f, kernels, 2);
    fake_param(&f, "n", n, 2);
    fake_param(&f, "m", m, 3);

    br_plan p;
    cr_assert_eq(br_plan_build(&p, &f.s, NULL, 0), 0, "%s", br_error_get());
    cr_assert_eq(p.n_params, 2);
    cr_assert_eq(p.n_combos, 6);
    cr_assert_eq(p.n_cases, 12);
    int64_t want[6][2] = {{1, 10}, {1, 20}, {1, 30}, {2, 10}, {2, 20}, {2, 30}};
    for (size_t c = 0; c < 6; c++) {
        const int64_t *v = br_plan_params(&p, c);
        cr_assert_not_null(v);
        cr_assert_eq(v[0], want[c][0], "combo %zu", c);
        cr_assert_eq(v[1], want[c][1], "combo %zu", c);
    }
    for (size_t i = 0; i < 12; i++) {
        cr_assert_eq(p.cases[i].combo, i / 2);
        cr_assert_eq(p.cases[i].kernel, i % 2);
    }
    cr_assert_null(br_plan_params(&p, 6));
    cr_assert_null(br_plan_params(NULL, 0));
    br_plan_dispose(&p);
    cr_assert_null(p.cases);
    br_plan_dispose(&p);
}

Test(plan, no_params_one_case_per_kernel) {
    static const char *const kernels[] = {"x", "y", "z"};
    fake_suite f;
    fake_init(&f, kernels, 3);
    br_plan p;
    cr_assert_eq(br_plan_build(&p, &f.s, NULL, 0), 0);
    cr_assert_eq(p.n_params, 0);
    cr_assert_eq(p.n_combos, 1);
    cr_assert_eq(p.n_cases, 3);
    cr_assert_not_null(br_plan_params(&p, 0)); /* zero values, but a valid pointer */
    for (size_t i = 0; i < 3; i++) {
        cr_assert_eq(p.cases[i].kernel, i);
        cr_assert_eq(p.cases[i].combo, 0);
    }
    br_plan_dispose(&p);
}

Test(plan, patterns_select_kernels_in_suite_order) {
    static const char *const kernels[] = {"reduce_cpu", "reduce_naive", "reduce_warp", "copy"};
    int64_t n[] = {4, 8};
    fake_suite f;
    fake_init(&f, kernels, 4);
    fake_param(&f, "n", n, 2);
    br_plan p;

    /* Order of the patterns does not matter; a kernel matched twice is planned once. */
    const char *const pats[] = {"*warp", "reduce_c*", "reduce_*p*"};
    cr_assert_eq(br_plan_build(&p, &f.s, pats, 3), 0);
    cr_assert_eq(p.n_cases, 4);
    size_t want[] = {0, 2, 0, 2};
    for (size_t i = 0; i < 4; i++) {
        cr_assert_eq(p.cases[i].kernel, want[i], "case %zu", i);
        cr_assert_eq(p.cases[i].combo, i / 2);
    }
    br_plan_dispose(&p);

    const char *const exact[] = {"copy"};
    cr_assert_eq(br_plan_build(&p, &f.s, exact, 1), 0);
    cr_assert_eq(p.n_cases, 2);
    cr_assert_eq(p.cases[0].kernel, 3);
    cr_assert_eq(p.cases[1].kernel, 3);
    cr_assert_eq(p.cases[1].combo, 1);
    br_plan_dispose(&p);

    const char *const brackets[] = {"reduce_[nw]*"};
    cr_assert_eq(br_plan_build(&p, &f.s, brackets, 1), 0);
    cr_assert_eq(p.n_cases, 4);
    cr_assert_eq(p.cases[0].kernel, 1);
    cr_assert_eq(p.cases[1].kernel, 2);
    br_plan_dispose(&p);

    /* Nothing matches: a valid, empty plan. */
    const char *const none[] = {"gemm*", NULL};
    cr_assert_eq(br_plan_build(&p, &f.s, none, 2), 0);
    cr_assert_eq(p.n_cases, 0);
    cr_assert_eq(p.n_combos, 2);
    br_plan_dispose(&p);

    /* A pattern count without patterns is an error, not a crash. */
    cr_assert_eq(br_plan_build(&p, &f.s, NULL, 1), -1);
    br_plan_dispose(&p);
}

Test(plan, limit_on_cases) {
    static const char *const kernels[] = {"a", "b"};
    static int64_t thousand[1000];
    for (int i = 0; i < 1000; i++)
        thousand[i] = i;
    fake_suite f;
    fake_init(&f, kernels, 2);
    fake_param(&f, "x", thousand, 1000);
    fake_param(&f, "y", thousand, 500);
    br_plan p;
    /* 500000 combos x 2 kernels = exactly the limit: accepted. */
    cr_assert_eq(br_plan_build(&p, &f.s, NULL, 0), 0, "%s", br_error_get());
    cr_assert_eq(p.n_cases, BR_PLAN_MAX_CASES);
    const int64_t *last = br_plan_params(&p, p.n_combos - 1);
    cr_assert_eq(last[0], 999);
    cr_assert_eq(last[1], 499);
    br_plan_dispose(&p);

    /* One more combination: refused. */
    f.params[1].n_values = 501;
    cr_assert_eq(br_plan_build(&p, &f.s, NULL, 0), -1);
    cr_assert_str_eq(br_error_get(), "fake.yaml: plan has more than 1000000 cases (501000 "
                                     "parameter combinations x 2 kernels)");
    br_plan_dispose(&p);

    /* Only one kernel selected: fits again. */
    const char *const only_a[] = {"a"};
    cr_assert_eq(br_plan_build(&p, &f.s, only_a, 1), 0);
    cr_assert_eq(p.n_cases, 501000);
    br_plan_dispose(&p);
}

Test(plan, limit_is_overflow_safe) {
    static const char *const kernels[] = {"a"};
    static int64_t one[1] = {1};
    fake_suite f;
    fake_init(&f, kernels, 1);
    /* Value counts whose product wraps around size_t. */
    for (int i = 0; i < 8; i++)
        fake_param(&f, "p", one, 1);
    f.params[0].n_values = (size_t)1 << 32;
    f.params[1].n_values = (size_t)1 << 32;
    br_plan p;
    cr_assert_eq(br_plan_build(&p, &f.s, NULL, 0), -1);
    cr_assert(strstr(br_error_get(), "takes the plan past 1000000 cases") != NULL, "%s",
              br_error_get());
    br_plan_dispose(&p);
}

Test(plan, from_a_loaded_suite) {
    br_suite s;
    cr_assert_eq(br_suite_load(&s, BR_FIXTURES_DIR "/suites/full.yaml"), 0, "%s", br_error_get());
    br_plan p;
    cr_assert_eq(br_plan_build(&p, &s, NULL, 0), 0);
    /* n: 7 values, m: 4, k: 1; 3 kernels */
    cr_assert_eq(p.n_combos, 28);
    cr_assert_eq(p.n_cases, 84);
    const int64_t *v = br_plan_params(&p, 5); /* n index 1, m index 1 */
    cr_assert_eq(v[0], 1 << 18);
    cr_assert_eq(v[1], 2);
    cr_assert_eq(v[2], 64);
    br_plan_dispose(&p);
    br_suite_dispose(&s);
}

Test(plan, bad_arguments) {
    br_plan p;
    cr_assert_eq(br_plan_build(&p, NULL, NULL, 0), -1);
    br_plan_dispose(&p);
    br_plan_dispose(NULL);
    cr_assert_eq(br_plan_build(NULL, NULL, NULL, 0), -1);
}
