/* SPDX-License-Identifier: Apache-2.0 */
/* family_sim.h - the simulations' way to judge a simulated suite as
 * compare.c judges a real one (gate/family.h, br_family_judge): each case
 * bt[i] against ct[i] with what the suite's cases lend (pool), entries in
 * e. Shared by test_prior.c and test_scatter.c. */
#ifndef BR_TESTS_FAMILY_SIM_H
#define BR_TESTS_FAMILY_SIM_H

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

#endif
