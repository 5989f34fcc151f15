/* SPDX-License-Identifier: Apache-2.0 */
/* Baseline files: their names and paths, reading one, and
 * saving (merging) one (file layout in baseline.h; comparing in compare.c). */
#include "baseline.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/error.h"
#include "base/lock.h"
#include "results/run_write.h"
#include "results/run_read.h"
#include "base/util.h"
#include "model/regression.h"

/* ---- names and paths ------------------------------------------------------------------ */

/* The folder a suite outside git keeps its baselines in: the parent of the
 * suite's folder when that folder is named "suites" (DIR/suites/x.yaml:
 * DIR, the layout of a repository and of `benchrun init`), else the suite's
 * folder (DIR/x.yaml: DIR); "." without a suite path. The name is the real
 * one ("x.yaml" run inside DIR/suites is DIR/suites/x.yaml); the result is
 * relative when suite_path is. Caller frees; NULL (error set) when out of
 * memory. */
static char *project_dir(const char *suite_path) {
    char *given = br_path_dir(suite_path && suite_path[0] ? suite_path : "./x");
    char *dir = given ? br_path_normalize(given) : NULL; /* "a/suites/" -> "a/suites" */
    free(given);
    if (!dir) {
        br_error_nomem();
        return NULL;
    }
    char real[PATH_MAX];
    const char *named = realpath(dir, real) ? real : dir;
    const char *slash = strrchr(named, '/');
    if (strcmp(slash ? slash + 1 : named, "suites") != 0)
        return dir;
    char *up = br_path_join(dir, "..");
    char *parent = up ? br_path_normalize(up) : NULL;
    free(up);
    free(dir);
    if (!parent)
        br_error_nomem();
    return parent;
}

char *br_baseline_path(const char *dir, const br_run *r) {
    char suite[256], device[256];
    br_baseline_file_name(suite, sizeof suite, r->suite_name);
    br_baseline_file_name(device, sizeof device, br_baseline_device(r));
    if (dir)
        return br_strfmt("%s/%s/%s.json", dir, suite, device);
    if (r->git.present && r->git.workdir[0]) {
        size_t wl = strlen(r->git.workdir);
        const char *sep = wl > 0 && r->git.workdir[wl - 1] == '/' ? "" : "/";
        return br_strfmt("%s%sbaselines/%s/%s.json", r->git.workdir, sep, suite, device);
    }
    char *root = project_dir(r->suite_path);
    if (!root)
        return NULL;
    char *p = strcmp(root, ".") == 0
                  ? br_strfmt("baselines/%s/%s.json", suite, device)
                  : br_strfmt("%s%sbaselines/%s/%s.json", root, br_has_suffix(root, "/") ? "" : "/",
                              suite, device);
    free(root);
    return p;
}

/* ---- reading ---------------------------------------------------------------------------- */

int br_baseline_load(br_run *out, const char *path, const br_run *r) {
    memset(out, 0, sizeof *out);
    struct stat st;
    if (stat(path, &st) != 0 && errno == ENOENT)
        return 1;
    br_run *runs = NULL;
    size_t n = 0;
    if (br_results_load(&runs, &n, path) != 0)
        return -1;
    int rc = -1;
    for (size_t i = 0; i < n; i++) {
        if (runs[i].suite_name && r->suite_name && strcmp(runs[i].suite_name, r->suite_name) == 0) {
            *out = runs[i];
            memset(&runs[i], 0, sizeof runs[i]);
            rc = 0;
            break;
        }
    }
    if (rc != 0)
        br_error_set("%s: holds no run of suite '%s'", path, r->suite_name ? r->suite_name : "?");
    br_results_free(runs, n);
    return rc;
}

/* ---- saving ----------------------------------------------------------------------------- */

/* A deep copy of case c of a run with n_params params into *out. */
static int copy_case(br_case_result *out, const br_case_result *c, size_t n_params) {
    *out = *c;
    out->params = NULL;
    out->message = out->commit = NULL;
    memset(&out->cold, 0, sizeof out->cold);
    memset(&out->batch, 0, sizeof out->batch);
    if (!(out->params = malloc((n_params ? n_params : 1) * sizeof *out->params)))
        return br_error_nomem();
    if (n_params)
        memcpy(out->params, c->params, n_params * sizeof *out->params);
    if ((c->message && !(out->message = br_strdup(c->message))) ||
        (c->commit && !(out->commit = br_strdup(c->commit))))
        return -1;
    if (br_timing_copy(&out->cold, &c->cold) != 0 || br_timing_copy(&out->batch, &c->batch) != 0)
        return -1;
    return 0;
}

/* The header of r (everything but kernels and cases) copied into *m. */
static int copy_header(br_run *m, const br_run *r) {
    memcpy(m->date, r->date, sizeof m->date);
    memcpy(m->suite_hash, r->suite_hash, sizeof m->suite_hash);
    m->metric = r->metric;
    m->cache = r->cache;
    m->warmup_ns = r->warmup_ns;
    m->measure = r->measure;
    m->peak_kind = r->peak_kind;
    m->peak_gbps = r->peak_gbps;
    memcpy(m->compute_peaks, r->compute_peaks, sizeof m->compute_peaks);
    m->git = r->git;
    m->has_device = r->has_device;
    m->device = r->device;
    m->host = r->host;
    m->regression = r->regression;
    m->gpu_clock = r->gpu_clock;
    if (r->clock_note && !(m->clock_note = br_strdup(r->clock_note)))
        return -1;
    m->benchrun_version = br_strdup(r->benchrun_version ? r->benchrun_version : BR_VERSION);
    m->suite_name = br_strdup(r->suite_name);
    m->suite_path = br_strdup(r->suite_path ? r->suite_path : "");
    if (r->suite_description && !(m->suite_description = br_strdup(r->suite_description)))
        return -1;
    if (!m->benchrun_version || !m->suite_name || !m->suite_path)
        return -1;
    m->n_params = r->n_params;
    m->param_names = calloc(r->n_params ? r->n_params : 1, sizeof *m->param_names);
    if (!m->param_names)
        return br_error_nomem();
    for (size_t p = 0; p < r->n_params; p++)
        if (!(m->param_names[p] = br_strdup(r->param_names[p])))
            return -1;
    return 0;
}

/* Index of kernel `name` in m, appending it (from `from`) when absent;
 * SIZE_MAX (error set) when out of memory. */
static size_t merged_kernel(br_run *m, size_t *cap, const br_run_kernel *from) {
    for (size_t i = 0; i < m->n_kernels; i++)
        if (strcmp(m->kernels[i].name, from->name) == 0)
            return i;
    if (m->n_kernels == *cap) {
        size_t nc = *cap ? 2 * *cap : 8;
        br_run_kernel *k = realloc(m->kernels, nc * sizeof *k);
        if (!k) {
            br_error_nomem();
            return SIZE_MAX;
        }
        m->kernels = k;
        *cap = nc;
    }
    br_run_kernel *k = &m->kernels[m->n_kernels];
    memset(k, 0, sizeof *k);
    k->backend = from->backend;
    k->name = br_strdup(from->name);
    k->source = br_strdup(from->source ? from->source : "");
    memcpy(k->source_sha, from->source_sha, sizeof k->source_sha);
    m->n_kernels++;
    if (!k->name || !k->source)
        return SIZE_MAX;
    return m->n_kernels - 1;
}

/* Where param p of run a stands in run b (by name), or SIZE_MAX. */
static size_t param_in(const br_run *b, const char *name) {
    for (size_t q = 0; q < b->n_params; q++)
        if (strcmp(b->param_names[q], name) == 0)
            return q;
    return SIZE_MAX;
}

static const br_run *sort_run; /* qsort has no context argument */

/* Plan-like order: by parameter values (the run's param order), then kernel. */
static int cmp_cases(const void *pa, const void *pb) {
    const br_case_result *a = pa, *b = pb;
    for (size_t p = 0; p < sort_run->n_params; p++) {
        if (a->params[p] != b->params[p])
            return a->params[p] < b->params[p] ? -1 : 1;
    }
    return a->kernel < b->kernel ? -1 : a->kernel > b->kernel;
}

/* Set t's run medians (a timing of a case being saved) to prev's, or [prev's
 * median] when prev has none, then t's own median, keeping the last `keep`;
 * just t's own without prev, or when prev was timed on another clock (its
 * medians are another quantity). Nothing for an absent timing. Returns 0 or
 * -1 (error set). */
static int add_run_median(br_timing *t, const br_timing *prev, size_t keep) {
    free(t->run_medians);
    t->run_medians = NULL;
    t->n_run_medians = 0;
    if (!t->present || t->n_samples == 0 || !isfinite(t->stats.median))
        return 0;
    double v[BR_RUN_MEDIANS_MAX + 1];
    size_t n = 0;
    if (prev && prev->present && prev->n_samples > 0 && prev->clock == t->clock) {
        if (prev->run_medians && prev->n_run_medians) {
            size_t from = prev->n_run_medians > BR_RUN_MEDIANS_MAX
                              ? prev->n_run_medians - BR_RUN_MEDIANS_MAX
                              : 0;
            for (size_t i = from; i < prev->n_run_medians; i++)
                v[n++] = prev->run_medians[i];
        } else if (isfinite(prev->stats.median)) {
            v[n++] = prev->stats.median;
        }
    }
    v[n++] = t->stats.median;
    size_t first = n > keep ? n - keep : 0;
    t->n_run_medians = n - first;
    if (!(t->run_medians = malloc(t->n_run_medians * sizeof *t->run_medians)))
        return br_error_nomem();
    memcpy(t->run_medians, v + first, t->n_run_medians * sizeof *t->run_medians);
    return 0;
}

/* Whether the code of case c of run r changed since its old entry oc of
 * the baseline `old` was measured: the git blob id of its kernel's source
 * differs (both known). Only a change of code starts a record over, never
 * a rerun that read differently: a save of the same code is more evidence
 * of its spread (gate/drift.h, "Power"). */
static int code_changed(const br_run *r, const br_case_result *c, const br_run *old,
                        const br_case_result *oc) {
    if (c->kernel >= r->n_kernels || oc->kernel >= old->n_kernels)
        return 0;
    const char *now = r->kernels[c->kernel].source_sha, *then = old->kernels[oc->kernel].source_sha;
    return now[0] && then[0] && strcmp(now, then) != 0;
}

typedef struct save_ctx {
    const br_run *run;
} save_ctx;

static int write_baseline(FILE *f, void *p) {
    const save_ctx *s = p;
    return br_results_write(f, &s->run, 1);
}

/* A merge in progress: the merged baseline m (kernel_cap: room in
 * m.kernels), the old baseline (NULL: none; borrowed) with its case keys,
 * the keys of the cases this run wrote, whether a change found by the run's
 * comparison restarts a record, and the counts. */
typedef struct saving {
    br_run m;
    const br_run *old;
    size_t kernel_cap;
    int restart;
    br_case_keys oldk, written;
    br_save_stats st;
} saving;

/* Read the old baseline at path into *old (*have: whether there is one),
 * refusing (-2, error set) a file that is not a readable baseline of r's
 * suite, or another device's. */
static int read_old(br_run *old, int *have, const char *path, const br_run *r) {
    int lr = br_baseline_load(old, path, r);
    if (lr < 0) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", br_error_get());
        br_error_set("%s (not overwritten: fix or remove it to save a new baseline)", msg);
        br_error_set_kind(BR_E_INPUT);
        return -2;
    }
    *have = lr == 0;
    if (*have && strcmp(br_baseline_device(old), br_baseline_device(r)) != 0) {
        br_error_set("%s: holds a baseline measured on '%s', not on '%s' (not overwritten)", path,
                     br_baseline_device(old), br_baseline_device(r));
        br_error_set_kind(BR_E_INPUT);
        return -2;
    }
    return 0;
}

/* The OK cases of r into v->m, measured at r's commit and date; each adds
 * its median to the run medians of its old entry (keeping the last
 * r->regression.keep), unless this run's comparison found it changed. */
static int add_run_cases(saving *v, const br_run *r) {
    for (size_t i = 0; i < r->n_cases; i++) {
        const br_case_result *c = &r->cases[i];
        if (c->status != BR_STATUS_OK) {
            v->st.refused++;
            continue;
        }
        br_case_result *d = &v->m.cases[v->m.n_cases++];
        if (copy_case(d, c, r->n_params) != 0)
            return -1;
        free(d->commit);
        d->commit = NULL; /* measured at the run's commit and date */
        d->date[0] = '\0';
        const br_case_result *prev = NULL;
        if (v->old) {
            char *key = br_baseline_case_key(r, c);
            if (!key)
                return -1;
            size_t j = br_case_keys_find(&v->oldk, key, NULL);
            free(key);
            if (j != SIZE_MAX && v->old->cases[j].status == BR_STATUS_OK &&
                !(v->restart && code_changed(r, c, v->old, &v->old->cases[j])))
                prev = &v->old->cases[j];
        }
        br_regression_cfg rules = r->regression;
        br_regression_fill(&rules);
        size_t keep = rules.keep;
        if (add_run_median(&d->cold, prev ? &prev->cold : NULL, keep) != 0 ||
            add_run_median(&d->batch, prev ? &prev->batch : NULL, keep) != 0)
            return -1;
        v->st.written++;
    }
    return 0;
}

/* Old case c, not replaced by this run, into v->m (params reordered by map),
 * keeping the commit and date it was measured at. */
static int keep_old_case(saving *v, const br_case_result *c, const size_t *map, size_t n_params) {
    const br_run *old = v->old;
    size_t k = merged_kernel(&v->m, &v->kernel_cap, &old->kernels[c->kernel]);
    if (k == SIZE_MAX)
        return -1;
    br_case_result *d = &v->m.cases[v->m.n_cases++];
    if (copy_case(d, c, old->n_params) != 0)
        return -1;
    d->kernel = k;
    for (size_t p = 0; p < n_params; p++)
        d->params[p] = c->params[map[p]];
    /* Keep when it was measured, as `git describe --dirty` would say
     * it: "<sha>-dirty" for a dirty work tree, "unknown" outside git
     * (never equal to a run's SHA, so it survives a reload). */
    if (!d->commit) {
        if (old->git.present && !old->git.unborn && old->git.sha[0])
            d->commit = br_strfmt("%s%s", old->git.sha, old->git.dirty ? "-dirty" : "");
        else
            d->commit = br_strdup("unknown");
        if (!d->commit)
            return -1;
    }
    if (!d->date[0])
        memcpy(d->date, old->date, sizeof d->date);
    v->st.kept++;
    return 0;
}

/* The old cases this run did not replace, kept when their params still
 * match the suite's (else dropped). */
static int add_old_cases(saving *v, const br_run *r) {
    const br_run *old = v->old;
    size_t map[BR_SUITE_MAX_PARAMS + 1];
    int params_match = old && old->n_params == r->n_params && r->n_params <= BR_SUITE_MAX_PARAMS;
    for (size_t p = 0; params_match && p < r->n_params; p++)
        params_match = (map[p] = param_in(old, r->param_names[p])) != SIZE_MAX;
    for (size_t j = 0; old && j < old->n_cases; j++) {
        const br_case_result *c = &old->cases[j];
        if (!params_match || c->status != BR_STATUS_OK || c->kernel >= old->n_kernels) {
            v->st.dropped++;
            continue;
        }
        char *key = br_baseline_case_key(old, c);
        if (!key)
            return -1;
        size_t hit = br_case_keys_find(&v->written, key, NULL);
        free(key);
        if (hit == SIZE_MAX && keep_old_case(v, c, map, r->n_params) != 0)
            return -1; /* (a hit is replaced by this run) */
    }
    return 0;
}

int br_baseline_merge(br_run *out, const br_run *old, const br_run *r, int restart,
                      br_save_stats *out_stats) {
    int rc = -1;
    saving v;
    memset(&v, 0, sizeof v);
    memset(out, 0, sizeof *out);
    v.old = old;
    v.restart = restart;
    br_run *m = &v.m;
    if (old && br_case_keys_build(&v.oldk, old) != 0)
        goto done;
    if (copy_header(m, r) != 0)
        goto done;
    for (int p = 0; old && p < BR_PRECISION_COUNT; p++) /* the kept cases' peaks */
        if (!m->compute_peaks[p].present && old->compute_peaks[p].present)
            m->compute_peaks[p] = old->compute_peaks[p];
    for (size_t i = 0; i < r->n_kernels; i++)
        if (merged_kernel(m, &v.kernel_cap, &r->kernels[i]) == SIZE_MAX)
            goto done;
    for (size_t i = 0; old && i < m->n_kernels; i++) /* a source not read keeps the one known */
        for (size_t j = 0; !m->kernels[i].source_sha[0] && j < old->n_kernels; j++)
            if (strcmp(old->kernels[j].name, m->kernels[i].name) == 0)
                memcpy(m->kernels[i].source_sha, old->kernels[j].source_sha,
                       sizeof m->kernels[i].source_sha);
    m->cases = calloc(r->n_cases + (old ? old->n_cases : 0) + 1, sizeof *m->cases);
    if (!m->cases) {
        br_error_nomem();
        goto done;
    }
    /* Keys of what this run wrote: old entries with these keys are replaced. */
    if (add_run_cases(&v, r) != 0 || br_case_keys_build(&v.written, m) != 0 ||
        add_old_cases(&v, r) != 0)
        goto done;

    /* Plan-like order and combination indices, then the derived figures. */
    sort_run = m;
    qsort(m->cases, m->n_cases, sizeof *m->cases, cmp_cases);
    sort_run = NULL;
    for (size_t i = 0; i < m->n_cases; i++) {
        int same =
            i > 0 && (m->n_params == 0 || memcmp(m->cases[i].params, m->cases[i - 1].params,
                                                 m->n_params * sizeof *m->cases[i].params) == 0);
        m->cases[i].combo = i == 0 ? 0 : m->cases[i - 1].combo + (same ? 0 : 1);
    }
    br_run_derive(m);
    if (out_stats)
        *out_stats = v.st;
    *out = v.m;
    memset(&v.m, 0, sizeof v.m);
    rc = 0;
done:
    br_case_keys_dispose(&v.written);
    br_case_keys_dispose(&v.oldk);
    br_run_dispose(&v.m);
    return rc;
}

int br_baseline_save(const char *path, const br_run *r, br_save_stats *out_stats, int quiet) {
    int rc = -1, have_old = 0;
    br_lock lock = {-1};
    br_run old, merged;
    memset(&old, 0, sizeof old);
    memset(&merged, 0, sizeof merged);
    char *dir = NULL;
    /* Read, merge and rename under the lock: a save running at the same
     * time waits, and neither drops the other's cases. */
    if (!(dir = br_path_dir(path)) || br_mkdir_p(dir) != 0)
        goto done;
    if ((rc = br_lock_take(&lock, path, BR_BASELINE_LOCK_TIMEOUT_NS, quiet)) != 0) {
        if (rc == -2) /* another save in the way: refused like a bad file, exit status 2 */
            br_error_set_kind(BR_E_INPUT);
        goto done;
    }
    if ((rc = read_old(&old, &have_old, path, r)) != 0)
        goto done;
    rc = -1;
    if (br_baseline_merge(&merged, have_old ? &old : NULL, r, 1, out_stats) != 0)
        goto done;
    save_ctx ctx = {&merged};
    if (br_write_atomic(path, write_baseline, &ctx) != 0)
        goto done;
    rc = 0;
done:
    br_lock_release(&lock);
    free(dir);
    br_run_dispose(&merged);
    br_run_dispose(&old);
    return rc;
}
