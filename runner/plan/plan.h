/* SPDX-License-Identifier: Apache-2.0 */
/* Expand a suite into cases: the cartesian product of the params'
 * axes (a parameter of its own, or a zipped group whose members advance
 * together; first axis outermost), less the combinations the suite's
 * `where` condition rejects, crossed with the kernels (innermost, suite
 * order).
 */
#ifndef BR_PLAN_H
#define BR_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "suite/suite.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct br_plan_case {
    size_t kernel; /* index into suite->kernels */
    size_t combo;  /* index of the parameter combination */
} br_plan_case;

typedef struct br_plan {
    size_t n_params;     /* = suite->n_params */
    size_t n_combos;     /* parameter combinations kept (1 when there are no params) */
    size_t n_swept;      /* combinations before `where` dropped any */
    int64_t *values;     /* owned: n_combos x n_params, row-major */
    br_plan_case *cases; /* owned: combo-major, kernels in suite order */
    size_t n_cases;
} br_plan;

/* Expand suite `s` into *out (disposed with br_plan_dispose, also after a
 * failure). `patterns` (may be NULL when n_patterns is 0) are fnmatch(3)
 * globs: when any are given, only kernels whose name matches one of them are
 * planned. Returns 0 (possibly with no cases), or -1 with the error set: the
 * plan would exceed BR_PLAN_MAX_CASES (or the sweep br_plan_max_sweep() before
 * `where`), or `where` failed for a combination (overflow, division by
 * zero: the message names the combination). */
int br_plan_build(br_plan *out, const br_suite *s, const char *const *patterns, size_t n_patterns);

/* Largest plan accepted. */
#define BR_PLAN_MAX_CASES 1000000u
/* Most combinations a `where` condition is evaluated for: BR_PLAN_MAX_SWEEP,
 * and at most BR_PLAN_WHERE_WORK / (16 + its length in bytes), since each
 * evaluation parses the text anew (about 20 ns a byte on a 2024 x86 core
 * with -O2; measured by fuzzing): planning stays within about 10 s. */
#define BR_PLAN_MAX_SWEEP  100000000u
#define BR_PLAN_WHERE_WORK 500000000u

/* The most combinations `where` (of `where_len` bytes; 0: no where) is
 * evaluated for; without a where, BR_PLAN_MAX_CASES. */
size_t br_plan_max_sweep(size_t where_len);

/* The parameter values `values` (one per param of s, in suite order) for a
 * message, "n=4096, m=64", into buf (NUL-terminated when len > 0; cut when
 * too long). */
void br_plan_describe(char *buf, size_t len, const br_suite *s, const int64_t *values);

/* The n_params values of combination `combo` (borrowed from the plan). */
const int64_t *br_plan_params(const br_plan *p, size_t combo);

/* Release what *p owns; accepts NULL and a zeroed plan. */
void br_plan_dispose(br_plan *p);

/* Parse `text` ("n=4096", "n=2^20", "n=[256, 512, 2^10]": each value an
 * integer constant expression, expr.h) into *out (dispose with
 * br_param_override_dispose, also after a failure). Returns 0, or -1 with an
 * error that starts with "-p TEXT: " and says what was expected (a column
 * into the value when an expression is bad). */
int br_param_override_parse(br_param_override *out, const char *text);

/* Release what *o owns; accepts NULL and a zeroed override. */
void br_param_override_dispose(br_param_override *o);

/* Apply the n overrides to suite s before planning: a parameter of its own
 * takes the given values in place of the suite's; a zipped parameter keeps
 * only the group entries that have one of the values (every member of the
 * group alike). Overrides naming no parameter of s are ignored; used[o]
 * (when used is not NULL) is set to 1 for each one that applied. Returns 0,
 * or -1 with the error set (a value that no entry of the zip group has; out
 * of memory). */
int br_plan_apply_overrides(br_suite *s, const br_param_override *ov, size_t n, int *used);

#ifdef __cplusplus
}
#endif
#endif
