/* SPDX-License-Identifier: Apache-2.0 */
/* test_budget.c - the time-budget planner, and a budget bounding a run. */
#include <criterion/criterion.h>

#include <math.h>
#include <string.h>

#include "base/util.h"
#include "e2e_util.h"
#include "measure/budget.h"
#include "model/settings.h"

#define SWEEP BR_FIXTURES_DIR "/sweep"

static void make_tmp(void) {
    e2e_tmp_make();
}
static void drop_tmp(void) {
    e2e_tmp_drop();
}
TestSuite(budget, .init = make_tmp, .fini = drop_tmp, .timeout = 120);

Test(budget, budget_planner_leaves_a_generous_budget_alone) {
    br_measure_cfg cfg;
    br_measure_cfg_defaults(&cfg);
    br_budget_case b;
    /* 10 cases x (25 ms + 3 s) fit in 60 s. */
    br_budget_plan(&b, &cfg, 25e6, 1, 60e9, 10, 0);
    cr_assert_eq(b.shortened, 0);
    cr_assert_eq(b.skip, 0);
    cr_assert_eq(b.timeout_ns, cfg.timeout_ns);
    cr_assert_eq(b.warmup_ns, 25e6);
    cr_assert_eq(b.min_time_ns, cfg.min_time_ns);
}

Test(budget, budget_planner_shortens_to_the_allowance) {
    br_measure_cfg cfg;
    br_measure_cfg_defaults(&cfg);
    br_budget_case b;
    /* 100 cases in 60 s, 100 ms overhead each: allowance 600 ms, 500 ms to
     * measure; warmup 25 ms (under a fifth), cold + batch share the rest. */
    br_budget_plan(&b, &cfg, 25e6, 2, 60e9, 100, 100e6);
    cr_assert_eq(b.shortened, 1);
    cr_assert_eq(b.warmup_ns, 25e6);
    cr_assert_float_eq(b.timeout_ns, (500e6 - 25e6) / 2, 1);
    cr_assert_eq(b.min_time_ns, cfg.min_time_ns, "10 ms is under half the timeout");
    cr_assert_leq(b.warmup_ns + 2 * b.timeout_ns + 100e6, 600e6 + 1);
    /* Tighter: the warmup gets a fifth, min_time half the timeout. */
    br_budget_plan(&b, &cfg, 25e6, 1, 100e6, 1, 0);
    cr_assert_float_eq(b.warmup_ns, 20e6, 1);
    cr_assert_float_eq(b.timeout_ns, 80e6, 1);
    cr_assert_eq(b.min_time_ns, cfg.min_time_ns);
    cfg.min_time_ns = 100e6;
    br_budget_plan(&b, &cfg, 25e6, 1, 100e6, 1, 0);
    cr_assert_float_eq(b.min_time_ns, 40e6, 1);
}

Test(budget, budget_planner_floors_the_timeout_and_skips_when_spent) {
    br_measure_cfg cfg;
    br_measure_cfg_defaults(&cfg);
    br_budget_case b;
    br_budget_plan(&b, &cfg, 25e6, 1, 1e9, 1000, 0);
    cr_assert_eq(b.skip, 0);
    cr_assert_eq(b.timeout_ns, BR_BUDGET_MIN_TIMEOUT_NS);
    cr_assert_leq(b.min_time_ns, b.timeout_ns / 2);
    br_budget_plan(&b, &cfg, 25e6, 1, 0, 10, 0);
    cr_assert_eq(b.skip, 1);
    br_budget_plan(&b, &cfg, 25e6, 1, -5e6, 10, 0);
    cr_assert_eq(b.skip, 1);
}

Test(budget, a_budget_bounds_the_run_and_says_what_it_shortened) {
    char *cache = br_strfmt("--cache-dir=%s/cache", tmp);
    /* Warm the cache (the budget bounds the measuring, not the compiles). */
    const char *warm[] = {cache, "-q", SWEEP "/defines.yaml", NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, warm), 0);
    e2e_free(&r);
    const char *args[] = {
        cache, "--budget",    "1s",      "--timeout",           "2s", "--min-time",
        "1s",  "--max-noise", "0.0001%", SWEEP "/defines.yaml", NULL};
    double t0 = br_now_ns();
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    double wall = br_now_ns() - t0;
    cr_assert_eq(r.status, 0, "%s", r.err);
    /* All 4 shortened, or (on a loaded machine, under the sanitizers) the
     * last skipped. */
    cr_assert(strstr(r.err, "to fit the time budget of 1 s: 4 case(s) measured with a shorter "
                            "timeout") ||
                  strstr(r.err, "to fit the time budget of 1 s: 3 case(s) measured with a "
                                "shorter timeout"),
              "%s", r.err);
    /* The unbudgeted run would take 4 x 2 s; compile and start-up are outside. */
    cr_assert_lt(wall, 4e9, "took %.2f s", wall / 1e9);
    e2e_free(&r);
    free(cache);
}
