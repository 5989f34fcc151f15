/* SPDX-License-Identifier: Apache-2.0 */
/* One commit of `benchrun bisect` made ready to measure
 * (bisect_commit.h). */
#include "bisect_commit.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/error.h"
#include "base/util.h"
#include "model/run.h"

void br_bisect_commit_init(br_bisect_commit *c) {
    memset(c, 0, sizeof *c);
    c->tree.lock_fd = -1;
}

/* Rewrite the last error with c's checkout written as "label:". Returns -1. */
static int relabel_error(const br_bisect_commit *c, const char *label) {
    if (!c->tree.dir)
        return -1;
    char *msg = br_gittree_relabel(&c->tree, br_error_get(), label);
    if (msg) {
        br_error_kind kind = br_error_kind_get();
        br_error_set("%s", msg);
        if (kind != BR_E_NONE)
            br_error_set_kind(kind);
    }
    free(msg);
    return -1;
}

int br_bisect_commit_prepare(br_bisect_commit *c, const char *suite, const char *sha,
                             const char *label, const char *scratch_root, const br_run_opts *run) {
    br_bisect_commit_init(c);
    if (br_gittree_checkout(&c->tree, suite, sha, scratch_root) != 0)
        return -1;
    if (!(c->file = br_gittree_map(&c->tree, suite)))
        return -1;
    struct stat st;
    if (stat(c->file, &st) != 0 || !S_ISREG(st.st_mode)) {
        br_error_set("%s: no such file at this commit", c->file);
        br_error_set_kind(BR_E_INPUT);
        return relabel_error(c, label);
    }
    c->prepared = 1;
    if (br_job_prepare(&c->job, c->file, run) != 0)
        return relabel_error(c, label);
    return 0;
}

/* Case i's identity: its kernel's name, then "name=value" of its params
 * in `order`, each after sep. */
static char *params_text(const br_job *job, size_t i, const size_t *order, const char *sep) {
    const int64_t *v = br_plan_params(&job->plan, job->plan.cases[i].combo);
    char *out = br_strdup(job->suite.kernels[job->plan.cases[i].kernel].text);
    for (size_t k = 0; out && k < job->suite.n_params; k++) {
        size_t p = order ? order[k] : k;
        char val[32];
        br_format_param(val, sizeof val, v[p]);
        char *next = br_strfmt("%s%s%s=%s", out, sep, job->suite.params[p].name, val);
        free(out);
        out = next;
    }
    return out;
}

char *br_bisect_case_key(const br_job *job, size_t i) {
    size_t n = job->suite.n_params;
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    if (!order) {
        br_error_nomem();
        return NULL;
    }
    for (size_t k = 0; k < n; k++) { /* insertion sort by name: a handful of params */
        size_t j = k;
        for (; j > 0 && strcmp(job->suite.params[order[j - 1]].name, job->suite.params[k].name) > 0;
             j--)
            order[j] = order[j - 1];
        order[j] = k;
    }
    char *key = params_text(job, i, order, "\x1f");
    free(order);
    return key;
}

char *br_bisect_case_label(const br_job *job, size_t i) {
    size_t n = br_job_case_label(NULL, 0, job, i, 1);
    char *label = malloc(n + 1);
    if (!label) {
        br_error_nomem();
        return NULL;
    }
    br_job_case_label(label, n + 1, job, i, 1);
    return label;
}

int br_bisect_commit_match(br_bisect_commit *c, char *const *keys, size_t n) {
    free(c->case_of);
    c->case_of = calloc(n ? n : 1, sizeof *c->case_of);
    if (!c->case_of)
        return br_error_nomem();
    for (size_t k = 0; k < n; k++) {
        c->case_of[k] = SIZE_MAX;
        for (size_t i = 0; i < c->job.plan.n_cases && c->case_of[k] == SIZE_MAX; i++) {
            char *key = br_bisect_case_key(&c->job, i);
            if (!key)
                return -1;
            if (strcmp(key, keys[k]) == 0)
                c->case_of[k] = i;
            free(key);
        }
        if (c->case_of[k] == SIZE_MAX) {
            char *label = br_strdup(keys[k]);
            for (char *p = label; p && *p; p++)
                if (*p == '\x1f')
                    *p = ' ';
            br_error_set("case '%s' is not planned at this commit", label ? label : "?");
            free(label);
            return -1;
        }
    }
    return 0;
}

void br_bisect_commit_dispose(br_bisect_commit *c) {
    if (!c)
        return;
    if (c->prepared)
        br_job_dispose(&c->job);
    free(c->file);
    free(c->case_of);
    br_gittree_remove(&c->tree);
    br_bisect_commit_init(c);
}
