/* SPDX-License-Identifier: Apache-2.0 */
/* The regression gate of a run (gate.h). */
#include "gate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/log.h"
#include "base/util.h"
#include "baseline.h"
#include "compare.h"
#include "confirm.h"
#include "model/regression.h"
#include "model/types.h"

void br_gate_opts_init(br_gate_opts *g) {
    memset(g, 0, sizeof *g);
    g->fail_on = BR_FAIL_ON_SLOWER;
    g->threshold = NAN;
    g->alpha = NAN;
    g->confirm = BR_CONFIRM_AUTO;
    g->confirm_timeout_ns = BR_CONFIRM_TIMEOUT_NS;
}

br_regression_cfg br_gate_rules(const br_run *r, const br_gate_opts *g) {
    br_regression_cfg c = r->regression;
    br_regression_fill(&c);
    if (!isnan(g->threshold))
        c.threshold = g->threshold;
    if (!isnan(g->alpha))
        c.alpha = g->alpha;
    return c;
}

/* The baseline file of run r: --baseline FILE, else the default path under
 * --baseline-dir or the work tree. Caller frees; NULL when out of memory. */
static char *baseline_file(const br_gate_opts *g, const br_run *r) {
    return g->baseline ? br_strdup(g->baseline) : br_baseline_path(g->dir, r);
}

int br_gate_attach_base(br_run *r, const br_gate_opts *g, const br_run *base, const char *label) {
    br_comparison *cmp = calloc(1, sizeof *cmp);
    if (!cmp)
        return br_error_nomem();
    br_regression_cfg rules = r->regression;
    if (br_baseline_compare(cmp, base, label, r, &rules, g->force_device) != 0) {
        br_comparison_dispose(cmp);
        free(cmp);
        return -1;
    }
    br_comparison_scope(cmp, base, g->patterns, g->n_patterns, g->params, g->n_params);
    br_comparison_dispose(r->comparison);
    free(r->comparison);
    r->comparison = cmp;
    return 0;
}

int br_gate_attach(br_run *r, const br_gate_opts *g, int quiet) {
    int rc = -1;
    char *path = baseline_file(g, r);
    br_run base;
    memset(&base, 0, sizeof base);
    if (!path) {
        br_error_nomem();
        goto done;
    }
    int lr = br_baseline_load(&base, path, r);
    if (lr < 0)
        goto done;
    if (lr == 1) {
        if (g->baseline && !g->save) {
            br_error_set("--baseline %s: no such file", path);
            goto done;
        }
        if (!quiet)
            br_log(BR_LOG_NOTE,
                   "benchrun: %s: no baseline for this suite and device yet "
                   "(--save-baseline writes one)\n",
                   path);
        rc = 0;
        goto done;
    }
    rc = br_gate_attach_base(r, g, &base, path);
done:
    br_run_dispose(&base);
    free(path);
    return rc;
}

/* "benchrun: saved baseline ..." with what was written and kept. */
static void say_saved(const char *path, const br_save_stats *st) {
    char more[160] = "";
    size_t k = 0;
    if (st->refused)
        k += (size_t)snprintf(more + k, sizeof more - k, ", %zu failed or skipped not written",
                              st->refused);
    if (st->dropped && k < sizeof more)
        snprintf(more + k, sizeof more - k,
                 ", %zu dropped (their params no longer match the suite)", st->dropped);
    br_log(BR_LOG_NOTE, "benchrun: saved baseline %s: %zu case(s) written, %zu kept%s\n", path,
           st->written, st->kept, more);
}

int br_gate_save(const br_run *r, const br_gate_opts *g, int quiet) {
    size_t n_ok, n_failed, n_skipped;
    br_run_count(r, &n_ok, &n_failed, &n_skipped);
    if (n_ok == 0) {
        br_log(BR_LOG_ERROR, "benchrun: %s: no case was measured: the baseline is not saved\n",
               r->suite_path);
        return 0;
    }
    char *path = baseline_file(g, r);
    br_save_stats st;
    int rc = -1;
    if (!path)
        br_log(BR_LOG_ERROR, "benchrun: out of memory\n");
    else if ((rc = br_baseline_save(path, r, &st, quiet)) != 0)
        br_log(BR_LOG_ERROR, "benchrun: cannot save the baseline: %s\n", br_error_get());
    else if (!quiet)
        say_saved(path, &st);
    free(path);
    return rc;
}
