/* SPDX-License-Identifier: Apache-2.0 */
/* test_cost.c - what a case costs (plan/cost.h): the measured wall time
 * first, then the older files' warmup and sampling, then the samples; the
 * declared work; unknown costs filled from the known ones' time per unit
 * of work, so that the longest-first order puts an unmeasured heavy case
 * where its work says. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "base/error.h"
#include "plan/cost.h"

Test(cost, the_measured_wall_time_comes_first_then_warmup_and_sampling_then_samples) {
    br_case_result c;
    memset(&c, 0, sizeof c);
    c.status = BR_STATUS_OK;
    double samples[] = {10, 30};
    c.cold = (br_timing){.present = 1, .samples = samples, .n_samples = 2, .reps = 1};
    cr_expect_eq(br_cost_measured(&c), 40.0, "samples only: their total");
    c.cold.warmup_ns = 100;
    c.cold.measure_ns = 900;
    cr_expect_eq(br_cost_measured(&c), 1000.0, "warmup + sampling");
    c.wall.present = 1;
    c.wall.total_ns = 2500;
    cr_expect_eq(br_cost_measured(&c), 2500.0, "the case's wall time");
    c.status = BR_STATUS_FAILED;
    cr_expect(isnan(br_cost_measured(&c)), "a case that did not end ok has no cost");
    memset(&c, 0, sizeof c);
    c.status = BR_STATUS_OK;
    cr_expect(isnan(br_cost_measured(&c)), "no time at all");
}

Test(cost, declared_work_is_bytes_plus_flops_or_one) {
    double bytes[] = {4096, NAN, NAN}, flops[] = {1000, 50, NAN};
    br_job job;
    memset(&job, 0, sizeof job);
    job.bytes = bytes;
    job.flops = flops;
    cr_expect_eq(br_cost_declared(&job, 0), 5096.0);
    cr_expect_eq(br_cost_declared(&job, 1), 50.0);
    cr_expect_eq(br_cost_declared(&job, 2), 1.0);
}

Test(cost, unknown_costs_follow_the_known_time_per_unit_of_work) {
    /* Known: 2 ns and 4 ns per unit (median 3 of {2, 3, 4}); unknown: 10 and 1000 units. */
    double work[] = {100, 100, 100, 10, 1000};
    double cost[] = {200, 300, 400, NAN, NAN};
    cr_assert_eq(br_cost_fill(cost, work, 5), 3, "%s", br_error_get());
    cr_expect_eq(cost[3], 30.0);
    cr_expect_eq(cost[4], 3000.0, "the heavy unmeasured case ranks first, as its work says");
    cr_expect_eq(cost[0], 200.0, "known costs are kept");
}

Test(cost, without_declared_work_unknown_costs_take_the_median) {
    double work[] = {1, 1, 1, 1};
    double cost[] = {5, 7, 100, NAN};
    cr_assert_eq(br_cost_fill(cost, work, 4), 3);
    cr_expect_eq(cost[3], 7.0);
}

Test(cost, with_no_known_cost_the_work_is_the_cost) {
    double work[] = {8, 2, 1};
    double cost[] = {NAN, NAN, NAN};
    cr_assert_eq(br_cost_fill(cost, work, 3), 0);
    cr_expect_eq(cost[0], 8.0);
    cr_expect_eq(cost[1], 2.0);
    cr_expect_eq(cost[2], 1.0);
    cr_expect_eq(br_cost_fill(cost, work, 0), 0, "no cases");
}
