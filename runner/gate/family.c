/* SPDX-License-Identifier: Apache-2.0 */
/* The Benjamini-Hochberg level of a comparison's cases (family.h). */
#include "family.h"

#include <math.h>
#include <stdlib.h>

#include "base/error.h"
#include "base/sort.h"

double br_family_level(size_t *out_r, size_t *out_m, const double *p, size_t n, double alpha) {
    double *s = malloc((n ? n : 1) * sizeof *s);
    if (!s) {
        br_error_nomem();
        return NAN;
    }
    size_t m = 0, r = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(p[i]))
            s[m++] = p[i];
    qsort(s, m, sizeof *s, br_cmp_double);
    for (size_t i = m; i > 0 && !r; i--) /* step up: the largest i with p_(i) < i alpha / m */
        if (s[i - 1] < (double)i * alpha / (double)m)
            r = i;
    free(s);
    if (out_r)
        *out_r = r;
    if (out_m)
        *out_m = m;
    return m > 1 ? alpha * (double)(r ? r : 1) / (double)m : alpha;
}

int br_family_judge(double *out_level, size_t *out_m, const br_compare_entry *e, size_t n,
                    const br_regression_cfg *rules, br_family_judge_fn judge_fn, void *ctx) {
    for (size_t i = 0; i < n; i++)
        if (judge_fn(i, rules, ctx) != 0)
            return -1;
    double *p = calloc(n ? n : 1, sizeof *p);
    if (!p)
        return br_error_nomem();
    for (size_t i = 0; i < n; i++) /* the cases drift.h judged: a spread, no "not compared" */
        p[i] = e[i].spread_from && !e[i].not_compared ? e[i].p_runs : NAN;
    size_t m = 0;
    double level = br_family_level(NULL, &m, p, n, rules->alpha);
    free(p);
    if (isnan(level))
        return -1;
    br_regression_cfg at = *rules;
    at.alpha = level;
    for (size_t i = 0; i < n && level < rules->alpha; i++)
        if (e[i].spread_from && !e[i].not_compared && judge_fn(i, &at, ctx) != 0)
            return -1;
    if (out_level)
        *out_level = level;
    if (out_m)
        *out_m = m;
    return 0;
}
