/* SPDX-License-Identifier: Apache-2.0 */
/* test_devsched.c - the scheduler of a run over several devices
 * (plan/devsched.h): longest-first order, the finish within Graham's LPT
 * bound, the static assignment matching the dynamic hand-out, and the
 * fault rules (a crash retried on another device, a device at fault
 * retired, the cases left when every device is gone). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "plan/devsched.h"

Test(devsched, hands_out_the_longest_case_first_ties_by_index) {
    double costs[] = {1, 5, 3, 5, 0, 2};
    br_devsched s;
    cr_assert_eq(br_devsched_init(&s, costs, 6, 1), 0, "%s", br_error_get());
    size_t want[] = {1, 3, 2, 5, 0, 4};
    for (size_t k = 0; k < 6; k++)
        cr_expect_eq(br_devsched_next(&s, 0), want[k], "pick %zu", k);
    cr_expect_eq(br_devsched_next(&s, 0), (size_t)-1);
    br_devsched_dispose(&s);
}

/* Graham's worst case for two machines: 3 3 2 2 2 splits into 6 + 6, LPT
 * makes 7 + 5, exactly (4/3 - 1/6) x 6. */
Test(devsched, lpt_meets_grahams_bound_on_its_worst_case) {
    double costs[] = {3, 3, 2, 2, 2}, finish[2];
    unsigned slot[5];
    cr_assert_eq(br_devsched_lpt(slot, finish, costs, 5, 2), 0);
    double last = fmax(finish[0], finish[1]);
    cr_expect_eq(last, 7.0);
    cr_expect_eq(finish[0] + finish[1], 12.0);
    cr_expect_leq(last, (4.0 / 3 - 1.0 / 6) * 6.0 + 1e-12);
    cr_expect_eq(slot[0], 0u);
    cr_expect_eq(slot[1], 1u);
}

/* Random costs on 2..8 devices: the last finish is within the list bound
 * sum/N + max (1 - 1/N), and within 4/3 - 1/(3N) of the lower bound
 * max(sum/N, largest) when that bound is the optimum (many small cases). */
Test(devsched, many_cases_finish_together) {
    srand(7);
    for (unsigned n_slots = 2; n_slots <= 8; n_slots++) {
        double costs[400], finish[8], sum = 0, big = 0;
        unsigned slot[400];
        for (size_t i = 0; i < 400; i++) {
            costs[i] = 1 + rand() % 1000;
            sum += costs[i];
            big = fmax(big, costs[i]);
        }
        cr_assert_eq(br_devsched_lpt(slot, finish, costs, 400, n_slots), 0);
        double last = 0, first = INFINITY, total = 0;
        for (unsigned d = 0; d < n_slots; d++) {
            last = fmax(last, finish[d]);
            first = fmin(first, finish[d]);
            total += finish[d];
        }
        cr_expect_eq(total, sum);
        cr_expect_leq(last, sum / n_slots + big * (1 - 1.0 / n_slots), "%u devices", n_slots);
        cr_expect_leq(last, (4.0 / 3 - 1.0 / (3 * n_slots)) * fmax(sum / n_slots, big));
        /* Balanced: no device ends more than one (smallest) case before another. */
        cr_expect_leq(last - first, 1000.0, "%u devices: %g .. %g", n_slots, first, last);
    }
}

/* Devices asking in turn, each case taking its cost: the hand-out is the
 * static assignment. */
Test(devsched, the_dynamic_hand_out_is_the_static_assignment) {
    double costs[] = {9, 1, 7, 4, 4, 6, 2, 8, 3};
    unsigned slot[9];
    cr_assert_eq(br_devsched_lpt(slot, NULL, costs, 9, 3), 0);
    br_devsched s;
    cr_assert_eq(br_devsched_init(&s, costs, 9, 3), 0);
    double free_at[3] = {0};
    for (;;) {
        unsigned d = 0;
        for (unsigned k = 1; k < 3; k++)
            if (free_at[k] < free_at[d])
                d = k;
        size_t i = br_devsched_next(&s, d);
        if (i == (size_t)-1)
            break;
        cr_expect_eq(slot[i], d, "case %zu", i);
        free_at[d] += costs[i];
        cr_expect_eq(br_devsched_report(&s, i, d, BR_DEVSCHED_DONE), BR_DEVSCHED_RECORD);
    }
    size_t left[9];
    cr_expect_eq(br_devsched_left(&s, left), 0u);
    br_devsched_dispose(&s);
}

Test(devsched, a_crash_is_retried_once_on_another_device_then_failed) {
    double costs[] = {5, 1};
    br_devsched s;
    cr_assert_eq(br_devsched_init(&s, costs, 2, 2), 0);
    cr_assert_eq(br_devsched_next(&s, 1), 0u);
    cr_expect_eq(br_devsched_report(&s, 0, 1, BR_DEVSCHED_CRASHED), BR_DEVSCHED_RETRY);
    /* Not to the device it crashed in while another is alive. */
    cr_expect_eq(br_devsched_next(&s, 1), 1u);
    cr_expect_eq(br_devsched_next(&s, 1), (size_t)-1);
    cr_expect_eq(br_devsched_next(&s, 0), 0u);
    /* It crashes there too: the kernel's fault, recorded as failed; no device retired. */
    cr_expect_eq(br_devsched_report(&s, 0, 0, BR_DEVSCHED_CRASHED), BR_DEVSCHED_RECORD);
    cr_expect_eq(br_devsched_report(&s, 1, 1, BR_DEVSCHED_DONE), BR_DEVSCHED_RECORD);
    cr_expect_not(br_devsched_retired(&s, 0));
    cr_expect_not(br_devsched_retired(&s, 1));
    br_devsched_dispose(&s);
}

Test(devsched, a_device_whose_crash_another_measures_is_retired_and_its_cases_move) {
    double costs[] = {4, 3, 2, 1};
    br_devsched s;
    cr_assert_eq(br_devsched_init(&s, costs, 4, 3), 0);
    cr_assert_eq(br_devsched_next(&s, 0), 0u);
    cr_assert_eq(br_devsched_next(&s, 1), 1u);
    cr_expect_eq(br_devsched_report(&s, 1, 1, BR_DEVSCHED_CRASHED), BR_DEVSCHED_RETRY);
    cr_assert_eq(br_devsched_next(&s, 2), 1u);
    cr_expect_eq(br_devsched_report(&s, 1, 2, BR_DEVSCHED_DONE), BR_DEVSCHED_RECORD);
    cr_expect(br_devsched_retired(&s, 1));
    cr_expect_eq(br_devsched_next(&s, 1), (size_t)-1);
    cr_expect_eq(br_devsched_next(&s, 2), 2u);
    cr_expect_eq(br_devsched_next(&s, 0), 3u);
    br_devsched_dispose(&s);
}

Test(devsched, with_every_device_retired_the_rest_is_left_to_fail) {
    double costs[] = {3, 2, 1};
    br_devsched s;
    cr_assert_eq(br_devsched_init(&s, costs, 3, 2), 0);
    cr_assert_eq(br_devsched_next(&s, 0), 0u);
    br_devsched_retire(&s, 1);
    /* The last live device crashes: no other to retry on, recorded as failed. */
    cr_expect_eq(br_devsched_report(&s, 0, 0, BR_DEVSCHED_CRASHED), BR_DEVSCHED_RECORD);
    br_devsched_retire(&s, 0);
    cr_expect_eq(br_devsched_next(&s, 0), (size_t)-1);
    size_t left[3];
    cr_assert_eq(br_devsched_left(&s, left), 2u);
    cr_expect_eq(left[0], 1u);
    cr_expect_eq(left[1], 2u);
    br_devsched_dispose(&s);
}

Test(devsched, refuses_bad_counts_and_costs) {
    double costs[] = {1, NAN};
    unsigned slot[2];
    cr_expect_eq(br_devsched_lpt(slot, NULL, costs, 1, 0), -1);
    cr_expect_eq(br_devsched_lpt(slot, NULL, costs, 1, BR_DEVSCHED_MAX_SLOTS + 1), -1);
    cr_expect_eq(br_devsched_lpt(slot, NULL, costs, 2, 2), -1);
    cr_expect_not_null(strstr(br_error_get(), "case 1"), "%s", br_error_get());
}
