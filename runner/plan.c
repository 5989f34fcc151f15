/* plan.c - expand a suite into cases (see plan.h). */
#include "plan.h"

#include <fnmatch.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static bool kernel_selected(const char *name, const char *const *patterns, size_t n_patterns) {
    if (n_patterns == 0)
        return true;
    for (size_t i = 0; i < n_patterns; i++)
        if (patterns[i] && name && fnmatch(patterns[i], name, 0) == 0)
            return true;
    return false;
}

/* Expand s into *out; see plan.h. Returns 0, or -1 with the error set
 * ("plan has more than N cases"); *out is disposed by the caller either way. */
int br_plan_build(br_plan *out, const br_suite *s, const char *const *patterns, size_t n_patterns) {
    int rc = -1;
    bool *selected = NULL;

    if (!out)
        return br_error_set("br_plan_build: no plan to build into");
    memset(out, 0, sizeof *out);
    if (!s)
        return br_error_set("br_plan_build: no suite");
    if (n_patterns > 0 && !patterns)
        return br_error_set("br_plan_build: %zu patterns but no pattern array", n_patterns);
    br_pos at = {s->path, 0, 0};

    /* Parameter combinations, checked against the limit as the product grows. */
    size_t combos = 1;
    for (size_t i = 0; i < s->n_params; i++) {
        if (__builtin_mul_overflow(combos, s->params[i].n_values, &combos) ||
            combos > BR_PLAN_MAX_CASES)
            return br_error_at(at,
                               "plan has more than %u cases (the parameters alone give more "
                               "than %u combinations)",
                               BR_PLAN_MAX_CASES, BR_PLAN_MAX_CASES);
    }

    size_t n_kernels = 0;
    if (s->n_kernels > 0) {
        selected = calloc(s->n_kernels, sizeof *selected);
        if (!selected) {
            br_error_at(at, "out of memory");
            goto done;
        }
    }
    for (size_t k = 0; k < s->n_kernels; k++) {
        selected[k] = kernel_selected(s->kernels[k].text, patterns, n_patterns);
        n_kernels += selected[k];
    }
    size_t n_cases = 0;
    if (__builtin_mul_overflow(combos, n_kernels, &n_cases) || n_cases > BR_PLAN_MAX_CASES) {
        br_error_at(at, "plan has more than %u cases (%zu parameter combinations x %zu kernels)",
                    BR_PLAN_MAX_CASES, combos, n_kernels);
        goto done;
    }

    /* The value table: at least one cell so that br_plan_params never
     * returns NULL for a valid combination. */
    size_t cells = 0;
    if (__builtin_mul_overflow(combos, s->n_params, &cells)) {
        br_error_at(at, "plan is too large");
        goto done;
    }
    out->values = calloc(cells ? cells : 1, sizeof *out->values);
    out->cases = calloc(n_cases ? n_cases : 1, sizeof *out->cases);
    if (!out->values || !out->cases) {
        br_error_at(at, "out of memory (plan of %zu cases)", n_cases);
        goto done;
    }
    out->n_params = s->n_params;
    out->n_combos = combos;

    /* Row c: the first param outermost, the last one fastest. */
    for (size_t c = 0; c < combos; c++) {
        size_t rest = c;
        int64_t *row = out->values + c * s->n_params;
        for (size_t i = s->n_params; i-- > 0;) {
            size_t n = s->params[i].n_values;
            row[i] = s->params[i].values[rest % n];
            rest /= n;
        }
    }
    size_t n = 0;
    for (size_t c = 0; c < combos; c++)
        for (size_t k = 0; k < s->n_kernels; k++)
            if (selected[k])
                out->cases[n++] = (br_plan_case){.kernel = k, .combo = c};
    out->n_cases = n;
    rc = 0;
done:
    free(selected);
    return rc;
}

/* The values of combination `combo` (borrowed), or NULL when out of range. */
const int64_t *br_plan_params(const br_plan *p, size_t combo) {
    if (!p || !p->values || combo >= p->n_combos)
        return NULL;
    return p->values + combo * p->n_params;
}

/* Free what *p owns and zero it; accepts NULL and a zeroed plan. */
void br_plan_dispose(br_plan *p) {
    if (!p)
        return;
    free(p->values);
    free(p->cases);
    memset(p, 0, sizeof *p);
}
