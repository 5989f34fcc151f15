/* SPDX-License-Identifier: Apache-2.0 */
/* family_sim.h - the simulations' way to judge a simulated suite as
 * compare.c judges a real one (gate/family.h, br_family_judge): each case
 * bt[i] against ct[i] with what the suite's cases lend (pool), entries in
 * e; and a simulated run's timing. Shared by test_prior.c, test_scatter.c
 * and test_power.c. */
#ifndef BR_TESTS_FAMILY_SIM_H
#define BR_TESTS_FAMILY_SIM_H

#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gate/drift.h"
#include "gate/family.h"

typedef struct suite_cases {
    const br_timing *bt, *ct;
    const br_drift_pool *pool;
    br_compare_entry *e;
} suite_cases;

/* br_family_judge_fn: case i of the suite_cases ctx judged under rules. */
static inline int judge_case(size_t i, const br_regression_cfg *rules, void *ctx) {
    suite_cases *sc = ctx;
    memset(&sc->e[i], 0, sizeof sc->e[i]);
    return br_drift_judge(&sc->e[i], &sc->bt[i], &sc->ct[i], rules, sc->pool);
}

/* *tm as a run that measured the n samples s[0..n) (copied, ns): stopped on
 * ci, no SM clock, its statistics computed. */
static inline void sim_timing(br_timing *tm, const double *s, size_t n) {
    memset(tm, 0, sizeof *tm);
    tm->present = 1;
    tm->stop = BR_STOP_CI;
    tm->sm_mhz_median = NAN;
    tm->samples = malloc(n * sizeof *tm->samples);
    cr_assert_not_null(tm->samples);
    memcpy(tm->samples, s, n * sizeof *s);
    tm->n_samples = n;
    cr_assert_eq(br_stats_compute(&tm->stats, tm->samples, n), 0);
}

#endif
