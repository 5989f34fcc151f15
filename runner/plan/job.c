/* SPDX-License-Identifier: Apache-2.0 */
/* A suite ready to run (job.h): loaded, overridden, planned, with
 * the per-case expressions evaluated and the compile-time variants found. */
#include "job.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "model/run.h"
#include "results/shardinfo.h"
#include "suite/expr.h"

/* Evaluate the `bytes` or `flops` expression(s) w for every case of the
 * job into out[case]: NAN when absent; an error names the case's kernel
 * and parameters. */
static int eval_per_case(double *out, const br_job *j, const br_work *w, const char *what) {
    const br_suite *s = &j->suite;
    br_binding vars[BR_SUITE_MAX_PARAMS];
    for (size_t i = 0; i < j->plan.n_cases; i++) {
        const br_plan_case *pc = &j->plan.cases[i];
        const br_located *e = br_work_expr(w, pc->kernel);
        if (!e) {
            out[i] = NAN;
            continue;
        }
        const int64_t *v = br_plan_params(&j->plan, pc->combo);
        for (size_t p = 0; p < s->n_params; p++)
            vars[p] = (br_binding){s->params[p].name, v[p]};
        int64_t value;
        int rc;
        if (br_expr_eval(&value, e->text, e->pos, vars, s->n_params) != 0) {
            rc = -1;
        } else if (value < 0) {
            rc = br_error_at(e->pos, "'%s' is negative: %lld", what, (long long)value);
        } else {
            out[i] = (double)value;
            continue;
        }
        /* Say at which parameters the expression failed. */
        char where[512];
        br_plan_describe(where, sizeof where, s, v);
        char *msg = br_strdup(br_error_get());
        if (msg) {
            br_error_set("%s (in '%s', for %s%s%s)", msg, what, s->kernels[pc->kernel].text,
                         s->n_params ? ", " : "", where);
            free(msg);
        }
        return rc;
    }
    return 0;
}

/* Find the compile-time variants: combinations with the same values of
 * every `defines` param share one. */
static int find_variants(br_job *j) {
    const br_suite *s = &j->suite;
    size_t n = j->plan.n_combos;
    j->variant_of = calloc(n ? n : 1, sizeof *j->variant_of);
    j->variant_combo = calloc(n ? n : 1, sizeof *j->variant_combo);
    if (!j->variant_of || !j->variant_combo)
        return br_error_nomem();
    j->n_variants = n ? 0 : 1;
    for (size_t c = 0; c < n; c++) {
        const int64_t *v = br_plan_params(&j->plan, c);
        size_t found = j->n_variants;
        /* Plans are small (at most BR_PLAN_MAX_CASES) and variants few:
         * a linear search over the variants so far. */
        for (size_t x = 0; x < j->n_variants && found == j->n_variants; x++) {
            const int64_t *w = br_plan_params(&j->plan, j->variant_combo[x]);
            size_t same = 1;
            for (size_t p = 0; p < s->n_params && same; p++)
                same = !s->params[p].define || v[p] == w[p];
            if (same)
                found = x;
        }
        if (found == j->n_variants) {
            if (j->n_variants == BR_MAX_VARIANTS)
                return br_error_at(s->defines_pos,
                                   "the defines give more than %d compile-time variants (each is "
                                   "a compile): sweep fewer values, or make some plain params",
                                   BR_MAX_VARIANTS);
            j->variant_combo[j->n_variants++] = c;
        }
        j->variant_of[c] = found;
    }
    return 0;
}

int br_job_prepare(br_job *out, const char *path, const br_run_opts *opts) {
    memset(out, 0, sizeof *out);
    if (br_suite_load_over(&out->suite, path, &opts->measure) != 0)
        return -1;
    if (br_plan_apply_overrides(&out->suite, opts->params, opts->n_params, NULL) != 0)
        return -1;
    if (br_plan_build(&out->plan, &out->suite, opts->patterns, opts->n_patterns) != 0)
        return -1;
    if (out->plan.n_cases == 0) {
        if (out->plan.n_combos == 0)
            br_error_at(out->suite.where.pos,
                        out->plan.n_swept == 1
                            ? "the plan is empty: 'where' rejects the only parameter combination"
                            : "the plan is empty: 'where' rejects all %zu parameter combinations",
                        out->plan.n_swept);
        else
            br_error_at((br_pos){out->suite.path, 0, 0},
                        "no kernel of the suite matches the -k pattern(s) given");
        return -1;
    }
    size_t n = out->plan.n_cases;
    out->bytes = calloc(n, sizeof *out->bytes);
    out->flops = calloc(n, sizeof *out->flops);
    out->memory = calloc(n, sizeof *out->memory);
    if (!out->bytes || !out->flops || !out->memory)
        return br_error_nomem();
    if (eval_per_case(out->bytes, out, &out->suite.bytes, "bytes") != 0 ||
        eval_per_case(out->flops, out, &out->suite.flops, "flops") != 0 ||
        eval_per_case(out->memory, out, &out->suite.memory, "memory") != 0)
        return -1;
    return find_variants(out);
}

void br_job_dispose(br_job *j) {
    if (!j)
        return;
    br_suite_dispose(&j->suite);
    br_plan_dispose(&j->plan);
    free(j->bytes);
    free(j->flops);
    free(j->memory);
    free(j->variant_of);
    free(j->variant_combo);
    if (j->built_free)
        j->built_free(j->built);
    br_run_shard_free(j->shard);
    memset(j, 0, sizeof *j);
}

size_t br_job_case_label(char *buf, size_t len, const br_job *job, size_t i, int with_kernel) {
    const br_suite *s = &job->suite;
    const br_plan_case *c = &job->plan.cases[i];
    const char *names[BR_SUITE_MAX_PARAMS];
    size_t n = s->n_params < BR_SUITE_MAX_PARAMS ? s->n_params : BR_SUITE_MAX_PARAMS;
    for (size_t q = 0; q < n; q++)
        names[q] = s->params[q].name;
    return br_case_label(buf, len, with_kernel ? s->kernels[c->kernel].text : NULL, names,
                         br_plan_params(&job->plan, c->combo), n);
}
