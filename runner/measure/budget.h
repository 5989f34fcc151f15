/* SPDX-License-Identifier: Apache-2.0 */
/* Fitting a run into a time budget (`budget: 10m`, --budget).
 *
 * A case's measuring time is bounded by its settings: warmup, then per
 * measurement (cold, batch) samples until the stopping rule holds or the
 * timeout passes (measure.h). Before each case the planner takes the time
 * left and divides it evenly among the cases left; when the case's worst
 * time (its overhead estimate + warmup + timeout per measurement) does not
 * fit that allowance, the warmup, the timeout and min_time are shortened to
 * fit, and once the budget is spent the remaining cases are skipped. Cases
 * that stop early on noise leave their unused time to the cases after them.
 */
#ifndef BR_BUDGET_H
#define BR_BUDGET_H

#include <stddef.h>

#include "model/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The least time a shortened measurement is given, ns: below it no timing
 * core can take the minimum samples of even a fast kernel. */
#define BR_BUDGET_MIN_TIMEOUT_NS 20e6 /* 20 ms */

/* What the planner gives one case. */
typedef struct br_budget_case {
    double warmup_ns;   /* warmup time budget, ns */
    double min_time_ns; /* measure.min_time, ns */
    double timeout_ns;  /* measure.timeout per measurement, ns */
    int shortened;      /* 1 when any of the three is below the suite's setting */
    int skip;           /* 1: the budget is spent; do not run the case */
} br_budget_case;

/* Plan the next case. cfg and warmup_ns are the suite's settings; `modes`
 * the measurements the case takes (1 or 2: cold and batch); left_ns the
 * budget left (<= 0: spent); cases_left the cases still to run, this one
 * included (>= 1); overhead_ns the expected time of a case outside warmup
 * and sampling (setup, first run, verify; the mean of the cases so far, 0
 * before the first). Shortening keeps the suite's proportions: the warmup
 * gets at most a fifth of the allowance, min_time at most half the timeout,
 * and no timeout falls below BR_BUDGET_MIN_TIMEOUT_NS (so a budget far too
 * small still measures each case briefly until the budget is spent). */
void br_budget_plan(br_budget_case *out, const br_measure_cfg *cfg, double warmup_ns, int modes,
                    double left_ns, size_t cases_left, double overhead_ns);

#ifdef __cplusplus
}
#endif
#endif
