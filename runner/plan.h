/* plan.h - expand a suite into cases: the cartesian product of the params
 * (first param outermost) crossed with the kernels (innermost, suite order).
 */
#ifndef BR_PLAN_H
#define BR_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "suite.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct br_plan_case {
    size_t kernel; /* index into suite->kernels */
    size_t combo;  /* index of the parameter combination */
} br_plan_case;

typedef struct br_plan {
    size_t n_params;     /* = suite->n_params */
    size_t n_combos;     /* product of the params' value counts (1 when there are none) */
    int64_t *values;     /* owned: n_combos x n_params, row-major */
    br_plan_case *cases; /* owned: combo-major, kernels in suite order */
    size_t n_cases;
} br_plan;

/* Expand suite `s` into *out (disposed with br_plan_dispose, also after a
 * failure). `patterns` (may be NULL when n_patterns is 0) are fnmatch(3)
 * globs: when any are given, only kernels whose name matches one of them are
 * planned. Returns 0 (possibly with no cases), or -1 with the error set (the
 * plan would exceed BR_PLAN_MAX_CASES). */
int br_plan_build(br_plan *out, const br_suite *s, const char *const *patterns, size_t n_patterns);

/* Largest plan accepted. */
#define BR_PLAN_MAX_CASES 1000000u

/* The n_params values of combination `combo` (borrowed from the plan). */
const int64_t *br_plan_params(const br_plan *p, size_t combo);

/* Release what *p owns; accepts NULL and a zeroed plan. */
void br_plan_dispose(br_plan *p);

#ifdef __cplusplus
}
#endif
#endif
