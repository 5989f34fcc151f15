/* SPDX-License-Identifier: Apache-2.0 */
/* The memory of a run's shard record (shard.h). */
#include "shard_record.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"

static void strings_free(char **v, size_t n) {
    for (size_t i = 0; v && i < n; i++)
        free(v[i]);
    free(v);
}

void br_shard_plan_dispose(br_shard_plan *p) {
    if (!p)
        return;
    strings_free(p->suites, p->n_suites);
    strings_free(p->kernels, p->n_kernels);
    strings_free(p->params, p->n_params);
    strings_free(p->times, p->n_times);
    memset(p, 0, sizeof *p);
}

void br_run_shard_free(br_run_shard *s) {
    if (!s)
        return;
    br_shard_plan_dispose(&s->plan);
    free(s->plan_kernel);
    free(s->plan_shard);
    free(s->plan_params);
    free(s->merged);
    free(s->missing);
    for (size_t i = 0; i < s->n_mixed_hosts; i++)
        free(s->mixed_hosts[i]);
    free(s->mixed_hosts);
    free(s);
}

/* A copy of the n strings v into *out (NULL when n is 0). */
static int strings_copy(char ***out, const char *const *v, size_t n) {
    *out = NULL;
    if (n == 0)
        return 0;
    if (!(*out = calloc(n, sizeof **out)))
        return -1;
    for (size_t i = 0; i < n; i++)
        if (!((*out)[i] = br_strdup(v[i])))
            return -1;
    return 0;
}

int br_shard_plan_copy(br_shard_plan *out, const br_shard_plan *p) {
    memset(out, 0, sizeof *out);
    memcpy(out->id, p->id, sizeof out->id);
    out->by_cost = p->by_cost;
    out->n_suites = p->n_suites;
    out->n_kernels = p->n_kernels;
    out->n_params = p->n_params;
    out->n_times = p->n_times;
    if (strings_copy(&out->suites, (const char *const *)p->suites, p->n_suites) ||
        strings_copy(&out->kernels, (const char *const *)p->kernels, p->n_kernels) ||
        strings_copy(&out->params, (const char *const *)p->params, p->n_params) ||
        strings_copy(&out->times, (const char *const *)p->times, p->n_times)) {
        br_shard_plan_dispose(out);
        return br_error_nomem();
    }
    return 0;
}
