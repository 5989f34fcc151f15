/* SPDX-License-Identifier: Apache-2.0 */
/* The parts of a sharded plan merged into one run per suite
 * (merge.h). */
#include "merge.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "run_read.h"
#include "shardinfo.h"

/* A bad set of parts: the error, of kind BR_E_INPUT. Returns -1. */
__attribute__((format(printf, 1, 2))) static int refuse(const char *fmt, ...) {
    char msg[BR_ERROR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    br_error_set("%s", msg);
    br_error_set_kind(BR_E_INPUT);
    return -1;
}

/* One suite of the plan: its run in each shard's part (NULL: none). */
typedef struct suite_slot {
    const char *name;
    br_run **run;      /* count entries, by shard - 1 */
    const char **path; /* the part each came from */
    br_run *first;     /* the first run found, the reference of the others */
    const char *first_path;
} suite_slot;

typedef struct merger {
    br_merge_part *parts;
    size_t n_parts;
    unsigned count;
    const br_run *ref; /* the first run of all: what every run must agree with */
    const char *ref_path;
    unsigned *part_index; /* per part: its shard, 0 for a part with no runs */
    suite_slot *suites;
    size_t n_suites;
    int allow_mixed_hosts; /* BR_MERGE_ALLOW_MIXED_HOSTS */
    const char *cpu_path;  /* the first part with host cases */
    char cpus[16][256];    /* the CPU models of the host shards, in the order met */
    size_t n_cpus;
} merger;

/* --- checks ------------------------------------------------------------------------ */

static const char *device_model(const br_run *r) {
    return r->has_device ? r->device.name : "no GPU";
}

/* 1 when run r measured host kernels. */
static int has_host_kernels(const br_run *r) {
    for (size_t i = 0; i < r->n_kernels; i++)
        if (r->kernels[i].backend == BR_BACKEND_HOST)
            return 1;
    return 0;
}

/* Host shards run on one CPU model: their times are of that CPU. Another
 * model is refused, or with allow_mixed_hosts recorded (the merge's shard
 * record names the models). Returns 0, or -1 with the error set. */
static int check_host_cpu(merger *m, const br_run *r, const char *path) {
    if (!has_host_kernels(r))
        return 0;
    const char *cpu = r->host.cpu_model[0] ? r->host.cpu_model : "an unknown CPU";
    size_t k = 0;
    while (k < m->n_cpus && strcmp(m->cpus[k], cpu) != 0)
        k++;
    if (k < m->n_cpus)
        return 0;
    if (m->n_cpus > 0 && !m->allow_mixed_hosts)
        return refuse("%s ran host cases on %s, %s on %s: the host shards of one plan run on one "
                      "CPU model (--allow-mixed-hosts merges them, and the merged file says so)",
                      m->cpu_path, m->cpus[0], path, cpu);
    if (m->n_cpus == sizeof m->cpus / sizeof *m->cpus)
        return refuse("%s: more than %zu CPU models", path, m->n_cpus);
    if (m->n_cpus == 0)
        m->cpu_path = path;
    snprintf(m->cpus[m->n_cpus++], sizeof m->cpus[0], "%s", cpu);
    return 0;
}

/* What the plan's parts must share, r against the reference. */
static int check_run_plan(const merger *m, const br_run *r, const char *path) {
    const br_run *a = m->ref;
    const char *what = NULL;
    if (r->shard->count != m->count)
        return refuse("%s is a part of %u shards, %s of %u: not one plan", path, r->shard->count,
                      m->ref_path, m->count);
    if (!br_shard_plan_same(&r->shard->plan, &a->shard->plan, &what))
        return refuse("%s and %s are parts of different plans (%s differ%s)", m->ref_path, path,
                      what, strcmp(what, "-k") && strcmp(what, "-p") ? "" : "s");
    if (strcmp(r->benchrun_version ? r->benchrun_version : "",
               a->benchrun_version ? a->benchrun_version : "") != 0)
        return refuse("%s was written by benchrun %s, %s by %s: not one plan", m->ref_path,
                      a->benchrun_version ? a->benchrun_version : "?", path,
                      r->benchrun_version ? r->benchrun_version : "?");
    if (r->git.present != a->git.present || strcmp(r->git.sha, a->git.sha) != 0 ||
        r->git.dirty != a->git.dirty)
        return refuse("%s ran at commit %.12s%s, %s at %.12s%s: not one plan", m->ref_path,
                      a->git.present ? a->git.sha : "(no git)", a->git.dirty ? " (dirty)" : "",
                      path, r->git.present ? r->git.sha : "(no git)",
                      r->git.dirty ? " (dirty)" : "");
    if (r->has_device != a->has_device || strcmp(device_model(r), device_model(a)) != 0)
        return refuse("%s ran on %s, %s on %s: parts of one plan run on one device model",
                      m->ref_path, device_model(a), path, device_model(r));
    return 0;
}

static int same_double(double a, double b) {
    return a == b || (isnan(a) && isnan(b));
}

static int same_measure(const br_run *a, const br_run *b) {
    const br_measure_cfg *x = &a->measure, *y = &b->measure;
    return a->metric == b->metric && a->cache == b->cache &&
           same_double(a->warmup_ns, b->warmup_ns) && x->min_samples == y->min_samples &&
           same_double(x->min_time_ns, y->min_time_ns) && same_double(x->max_noise, y->max_noise) &&
           same_double(x->timeout_ns, y->timeout_ns) && x->max_samples == y->max_samples &&
           same_double(x->throttle, y->throttle) && x->hold == y->hold && x->mode == y->mode &&
           x->headline == y->headline;
}

/* The suite's kernels, params and whole plan as the part records them. */
static int same_suite_plan(const br_run *a, const br_run *b) {
    const br_run_shard *x = a->shard, *y = b->shard;
    if (a->n_kernels != b->n_kernels || a->n_params != b->n_params || x->n_plan != y->n_plan)
        return 0;
    for (size_t k = 0; k < a->n_kernels; k++)
        if (strcmp(a->kernels[k].name, b->kernels[k].name) != 0)
            return 0;
    for (size_t p = 0; p < a->n_params; p++)
        if (strcmp(a->param_names[p], b->param_names[p]) != 0)
            return 0;
    size_t np = a->n_params;
    return memcmp(x->plan_kernel, y->plan_kernel, x->n_plan * sizeof *x->plan_kernel) == 0 &&
           memcmp(x->plan_shard, y->plan_shard, x->n_plan * sizeof *x->plan_shard) == 0 &&
           (np == 0 ||
            memcmp(x->plan_params, y->plan_params, x->n_plan * np * sizeof *x->plan_params) == 0);
}

/* Whether "NAME@HASH" of run r is one of the plan's suites. */
static int in_plan(const br_run *r) {
    const br_shard_plan *p = &r->shard->plan;
    size_t nl = strlen(r->suite_name);
    for (size_t i = 0; i < p->n_suites; i++)
        if (strncmp(p->suites[i], r->suite_name, nl) == 0 && p->suites[i][nl] == '@' &&
            strcmp(p->suites[i] + nl + 1, r->suite_hash) == 0)
            return 1;
    return 0;
}

/* Every run of part k: a part of the plan, all of one shard. */
static int check_part(merger *m, size_t k) {
    const br_merge_part *pt = &m->parts[k];
    for (size_t i = 0; i < pt->n_runs; i++) {
        const br_run *r = &pt->runs[i];
        const char *name = r->suite_name ? r->suite_name : "?";
        if (!r->shard)
            return refuse("%s: run of suite '%s' is not a part of a sharded plan (it was not "
                          "run with --shard I/N)",
                          pt->path, name);
        if (!r->shard->index)
            return refuse("%s: run of suite '%s' is already a merge of %u shards", pt->path, name,
                          r->shard->count);
        if (!m->ref) {
            m->ref = r;
            m->ref_path = pt->path;
            m->count = r->shard->count;
        }
        if (check_run_plan(m, r, pt->path) != 0 || check_host_cpu(m, r, pt->path) != 0)
            return -1;
        if (i > 0 && r->shard->index != pt->runs[0].shard->index)
            return refuse("%s holds runs of shards %u and %u: one part is one shard", pt->path,
                          pt->runs[0].shard->index, r->shard->index);
        if (!in_plan(r))
            return refuse("%s: suite '%s' (blob %.12s) is not one of the plan's suites", pt->path,
                          name, r->suite_hash);
    }
    m->part_index[k] = pt->n_runs ? pt->runs[0].shard->index : 0;
    for (size_t j = 0; j < k; j++)
        if (m->part_index[k] && m->part_index[j] == m->part_index[k])
            return refuse("%s and %s are both shard %u/%u: a case would appear twice",
                          m->parts[j].path, pt->path, m->part_index[k], m->count);
    return 0;
}

/* --- the suites ------------------------------------------------------------------- */

static suite_slot *find_slot(merger *m, const char *name) {
    for (size_t s = 0; s < m->n_suites; s++)
        if (strcmp(m->suites[s].name, name) == 0)
            return &m->suites[s];
    return NULL;
}

/* Run r (of part `path`, shard `index`) into its suite's slot, checked
 * against the suite's first run. */
static int slot_add(merger *m, br_run *r, const char *path, unsigned index) {
    suite_slot *s = find_slot(m, r->suite_name);
    if (!s) {
        s = &m->suites[m->n_suites++];
        s->name = r->suite_name;
        s->run = calloc(m->count, sizeof *s->run);
        s->path = calloc(m->count, sizeof *s->path);
        if (!s->run || !s->path)
            return br_error_nomem();
        s->first = r;
        s->first_path = path;
    }
    if (s->run[index - 1])
        return refuse("%s holds suite '%s' twice", path, r->suite_name);
    if (!same_measure(s->first, r))
        return refuse("%s and %s measured suite '%s' with different settings: not one plan",
                      s->first_path, path, r->suite_name);
    if (!same_suite_plan(s->first, r))
        return refuse("%s and %s give suite '%s' different kernels, params or plans: not one "
                      "plan",
                      s->first_path, path, r->suite_name);
    s->run[index - 1] = r;
    s->path[index - 1] = path;
    return 0;
}

static int gather(merger *m) {
    size_t cap = 0;
    for (size_t k = 0; k < m->n_parts; k++)
        cap += m->parts[k].n_runs;
    if (!(m->suites = calloc(cap ? cap : 1, sizeof *m->suites)))
        return br_error_nomem();
    for (size_t k = 0; k < m->n_parts; k++)
        for (size_t i = 0; i < m->parts[k].n_runs; i++)
            if (slot_add(m, &m->parts[k].runs[i], m->parts[k].path, m->part_index[k]) != 0)
                return -1;
    return 0;
}

/* --- matching the plan's cases with the parts' ------------------------------------ */

/* A case of a part, by its kernel and params. */
typedef struct case_ref {
    uint64_t key;
    size_t i;
} case_ref;

/* FNV-1a 64 of the kernel index and param values. */
static uint64_t case_key(size_t kernel, const int64_t *v, size_t np) {
    uint64_t h = 0xcbf29ce484222325ULL;
    unsigned char buf[sizeof(uint64_t)];
    for (size_t p = 0; p <= np; p++) {
        uint64_t x = p == 0 ? (uint64_t)kernel : (uint64_t)v[p - 1];
        memcpy(buf, &x, sizeof buf);
        for (size_t b = 0; b < sizeof buf; b++) {
            h ^= buf[b];
            h *= 0x100000001b3ULL;
        }
    }
    return h;
}

static int ref_cmp(const void *a, const void *b) {
    const case_ref *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->i > y->i) - (x->i < y->i);
}

static int same_case(const br_run *r, const br_case_result *c, size_t kernel, const int64_t *v) {
    return c->kernel == kernel &&
           (r->n_params == 0 || memcmp(c->params, v, r->n_params * sizeof *v) == 0);
}

/* "kernel n=1024 m=2" of a case into buf (br_case_label). */
static void describe(char *buf, size_t len, const br_run *r, size_t kernel, const int64_t *v) {
    br_case_label(buf, len,
                  kernel < r->n_kernels && r->kernels[kernel].name ? r->kernels[kernel].name : "?",
                  (const char *const *)r->param_names, v, r->n_params);
}

/* The cases of run r (of part `path`) sorted by key; a case twice is refused. */
static int index_run(case_ref **out, const br_run *r, const char *path) {
    *out = calloc(r->n_cases ? r->n_cases : 1, sizeof **out);
    if (!*out)
        return br_error_nomem();
    for (size_t i = 0; i < r->n_cases; i++)
        (*out)[i] = (case_ref){case_key(r->cases[i].kernel, r->cases[i].params, r->n_params), i};
    qsort(*out, r->n_cases, sizeof **out, ref_cmp);
    for (size_t i = 1; i < r->n_cases; i++) {
        const br_case_result *a = &r->cases[(*out)[i - 1].i], *b = &r->cases[(*out)[i].i];
        if ((*out)[i - 1].key == (*out)[i].key && same_case(r, a, b->kernel, b->params)) {
            char what[512];
            describe(what, sizeof what, r, b->kernel, b->params);
            return refuse("%s: case %s of suite '%s' appears twice", path, what, r->suite_name);
        }
    }
    return 0;
}

/* The index in r of the case (kernel, v), or SIZE_MAX. */
static size_t find_case(const br_run *r, const case_ref *idx, size_t kernel, const int64_t *v) {
    uint64_t key = case_key(kernel, v, r->n_params);
    size_t lo = 0, hi = r->n_cases;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (idx[mid].key < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < r->n_cases && idx[lo].key == key; lo++)
        if (same_case(r, &r->cases[idx[lo].i], kernel, v))
            return idx[lo].i;
    return SIZE_MAX;
}

/* Per plan case of slot s: where it is (run index into s->run, case index),
 * SIZE_MAX for a missing one. A part's case the plan does not give its shard
 * is refused. */
static int map_cases(size_t *at, const merger *m, const suite_slot *s) {
    const br_run_shard *sh = s->first->shard;
    size_t np = s->first->n_params;
    int rc = 0;
    case_ref **idx = calloc(m->count, sizeof *idx);
    unsigned char **used = calloc(m->count, sizeof *used);
    if (!idx || !used)
        rc = br_error_nomem();
    for (unsigned k = 0; k < m->count && rc == 0; k++) {
        const br_run *r = s->run[k];
        if (!r)
            continue;
        if (index_run(&idx[k], r, s->path[k]) != 0)
            rc = -1;
        else if (!(used[k] = calloc(r->n_cases ? r->n_cases : 1, 1)))
            rc = br_error_nomem();
    }
    for (size_t i = 0; i < sh->n_plan && rc == 0; i++) {
        unsigned k = sh->plan_shard[i] - 1;
        const br_run *r = s->run[k];
        at[i] = r ? find_case(r, idx[k], sh->plan_kernel[i], sh->plan_params + i * np) : SIZE_MAX;
        if (at[i] != SIZE_MAX)
            used[k][at[i]] = 1;
    }
    for (unsigned k = 0; k < m->count && rc == 0; k++)
        for (size_t i = 0; s->run[k] && i < s->run[k]->n_cases && rc == 0; i++) {
            if (used[k][i])
                continue;
            const br_case_result *c = &s->run[k]->cases[i];
            char what[512];
            describe(what, sizeof what, s->run[k], c->kernel, c->params);
            rc = refuse("%s: case %s of suite '%s' is not one of shard %u/%u's cases in the plan",
                        s->path[k], what, s->name, k + 1, m->count);
        }
    for (unsigned k = 0; idx && used && k < m->count; k++) {
        free(idx[k]);
        free(used[k]);
    }
    free(idx);
    free(used);
    return rc;
}

/* --- the merged run ---------------------------------------------------------------- */

/* Whether some part is shard k (1-based). */
static const char *part_of(const merger *m, unsigned k) {
    for (size_t p = 0; p < m->n_parts; p++)
        if (m->part_index[p] == k)
            return m->parts[p].path;
    return NULL;
}

/* Plan case i of slot s, which no part gave, as a skipped case into *c. */
static int missing_case(br_case_result *c, const merger *m, const suite_slot *s, size_t i) {
    const br_run_shard *sh = s->first->shard;
    size_t np = s->first->n_params;
    unsigned k = sh->plan_shard[i];
    const char *part = part_of(m, k);
    memset(c, 0, sizeof *c);
    c->kernel = sh->plan_kernel[i];
    c->status = BR_STATUS_SKIPPED;
    c->bytes = c->flops = c->gbps = c->gflops = c->pct_peak = c->speedup = NAN;
    c->params = calloc(np ? np : 1, sizeof *c->params);
    c->stage = BR_STAGE_MISSING;
    c->message =
        !part ? br_strfmt("shard %u/%u gave no results", k, m->count)
        : !s->run[k - 1]
            ? br_strfmt("shard %u/%u (%s) has no results for this suite", k, m->count, part)
            : br_strfmt("shard %u/%u (%s) does not have this case", k, m->count, part);
    if (!c->params || !c->message)
        return br_error_nomem();
    if (np)
        memcpy(c->params, sh->plan_params + i * np, np * sizeof *c->params);
    return 0;
}

/* The merged run's header, moved out of the slot's first run; what the
 * others add (the earliest date, a signal, a skip reason, a clock note, the
 * compute peaks of precisions the first did not record). */
static int take_header(br_run *out, const merger *m, const suite_slot *s) {
    *out = *s->first;
    memset(s->first, 0, sizeof *s->first);
    for (size_t i = 0; i < out->n_cases; i++)
        br_case_dispose(&out->cases[i]);
    free(out->cases);
    out->cases = NULL;
    out->n_cases = 0;
    br_comparison_dispose(out->comparison);
    free(out->comparison);
    out->comparison = NULL;
    for (unsigned k = 0; k < m->count; k++) {
        const br_run *r = s->run[k];
        if (!r || r == s->first)
            continue;
        if (r->date[0] && (!out->date[0] || strcmp(r->date, out->date) < 0))
            memcpy(out->date, r->date, sizeof out->date);
        for (int p = 0; p < BR_PRECISION_COUNT; p++) /* the peaks any part recorded */
            if (!out->compute_peaks[p].present && r->compute_peaks[p].present)
                out->compute_peaks[p] = r->compute_peaks[p];
        char **own[] = {&out->interrupted, &out->gpu_skip_reason, &out->clock_note};
        const char *theirs[] = {r->interrupted, r->gpu_skip_reason, r->clock_note};
        for (size_t f = 0; f < 3; f++)
            if (!*own[f] && theirs[f] && !(*own[f] = br_strdup(theirs[f])))
                return br_error_nomem();
    }
    return 0;
}

/* The run's shard record as a merge's: index 0, the parts merged and missing. */
static int merge_record(br_run_shard *sh, const merger *m) {
    free(sh->plan_kernel);
    free(sh->plan_shard);
    free(sh->plan_params);
    sh->plan_kernel = NULL;
    sh->plan_shard = NULL;
    sh->plan_params = NULL;
    sh->n_plan = 0;
    sh->index = 0;
    sh->merged = calloc(m->count, sizeof *sh->merged);
    sh->missing = calloc(m->count, sizeof *sh->missing);
    if (!sh->merged || !sh->missing)
        return br_error_nomem();
    for (unsigned k = 1; k <= m->count; k++) {
        if (part_of(m, k))
            sh->merged[sh->n_merged++] = k;
        else
            sh->missing[sh->n_missing++] = k;
    }
    if (m->n_cpus > 1) {
        if (!(sh->mixed_hosts = calloc(m->n_cpus, sizeof *sh->mixed_hosts)))
            return br_error_nomem();
        for (size_t k = 0; k < m->n_cpus; k++) {
            if (!(sh->mixed_hosts[k] = br_strdup(m->cpus[k])))
                return -1;
            sh->n_mixed_hosts++;
        }
    }
    return 0;
}

/* Combos numbered in plan order: the plan is combo-major, so a new combo
 * starts where the params change. */
static void number_combos(br_run *r) {
    size_t combo = 0;
    for (size_t i = 0; i < r->n_cases; i++) {
        if (i > 0 && r->n_params &&
            memcmp(r->cases[i].params, r->cases[i - 1].params,
                   r->n_params * sizeof *r->cases[i].params) != 0)
            combo++;
        r->cases[i].combo = combo;
    }
}

/* Slot s merged into *out (zeroed first; disposed by the caller on failure). */
static int merge_suite(br_run *out, br_merge_report *rep, const merger *m, suite_slot *s) {
    size_t n = s->first->shard->n_plan;
    size_t *at = calloc(n ? n : 1, sizeof *at);
    br_case_result *cases = calloc(n ? n : 1, sizeof *cases);
    int rc = -1;
    if (!at || !cases) {
        br_error_nomem();
        goto done;
    }
    if (map_cases(at, m, s) != 0)
        goto done;
    for (size_t i = 0; i < n; i++) {
        const br_run_shard *sh = s->first->shard;
        br_run *r = s->run[sh->plan_shard[i] - 1];
        if (at[i] == SIZE_MAX) {
            if (missing_case(&cases[i], m, s, i) != 0)
                goto done;
            rep->n_missing++;
            continue;
        }
        cases[i] = r->cases[at[i]];
        memset(&r->cases[at[i]], 0, sizeof r->cases[at[i]]);
        if (!cases[i].date[0])
            memcpy(cases[i].date, r->date, sizeof cases[i].date);
    }
    if (take_header(out, m, s) != 0)
        goto done;
    out->cases = cases;
    out->n_cases = n;
    cases = NULL;
    for (size_t i = 0; i < n; i++)
        if (strcmp(out->cases[i].date, out->date) == 0)
            out->cases[i].date[0] = '\0'; /* the run's own date */
    if (merge_record(out->shard, m) != 0)
        goto done;
    number_combos(out);
    br_run_derive(out);
    rep->n_cases += n;
    rc = 0;
done:
    for (size_t i = 0; cases && i < n; i++)
        br_case_dispose(&cases[i]);
    free(cases);
    free(at);
    return rc;
}

/* --- the merge ---------------------------------------------------------------------- */

/* What the parts left out: missing shards, interrupted parts, lost suites. */
static int report_fill(br_merge_report *rep, const merger *m) {
    rep->count = m->count;
    if (!(rep->missing = calloc(m->count ? m->count : 1, sizeof *rep->missing)))
        return br_error_nomem();
    for (unsigned k = 1; k <= m->count; k++)
        if (!part_of(m, k))
            rep->missing[rep->n_missing_shards++] = k;
    for (size_t p = 0; p < m->n_parts; p++) {
        int stopped = 0;
        for (size_t i = 0; i < m->parts[p].n_runs; i++)
            stopped |= m->parts[p].runs[i].interrupted != NULL;
        rep->n_parts += m->part_index[p] != 0;
        rep->n_interrupted += stopped;
    }
    const br_shard_plan *plan = &m->ref->shard->plan;
    for (size_t i = 0; i < plan->n_suites; i++) {
        const char *at = strrchr(plan->suites[i], '@');
        size_t len = at ? (size_t)(at - plan->suites[i]) : strlen(plan->suites[i]);
        int found = 0;
        for (size_t s = 0; s < m->n_suites && !found; s++)
            found = strlen(m->suites[s].name) == len &&
                    strncmp(m->suites[s].name, plan->suites[i], len) == 0;
        if (found)
            continue;
        if (rep->n_lost_suites++ == 0 &&
            !(rep->lost_suite = br_strfmt("%.*s", (int)len, plan->suites[i])))
            return br_error_nomem();
    }
    return 0;
}

static void merger_dispose(merger *m) {
    for (size_t s = 0; m->suites && s < m->n_suites; s++) {
        free(m->suites[s].run);
        free(m->suites[s].path);
    }
    free(m->suites);
    free(m->part_index);
}

int br_merge_parts(br_run **out_runs, size_t *out_n, br_merge_report *rep, br_merge_part *parts,
                   size_t n_parts, unsigned flags) {
    merger m = {.parts = parts,
                .n_parts = n_parts,
                .allow_mixed_hosts = (flags & BR_MERGE_ALLOW_MIXED_HOSTS) != 0};
    br_run *runs = NULL;
    size_t n = 0;
    int rc = -1;
    *out_runs = NULL;
    *out_n = 0;
    memset(rep, 0, sizeof *rep);
    if (!(m.part_index = calloc(n_parts ? n_parts : 1, sizeof *m.part_index))) {
        br_error_nomem();
        goto done;
    }
    for (size_t k = 0; k < n_parts; k++)
        if (check_part(&m, k) != 0)
            goto done;
    if (!m.ref) {
        refuse("no part holds a run: nothing to merge");
        goto done;
    }
    if (gather(&m) != 0 || report_fill(rep, &m) != 0)
        goto done;
    if (!(runs = calloc(m.n_suites ? m.n_suites : 1, sizeof *runs))) {
        br_error_nomem();
        goto done;
    }
    for (; n < m.n_suites; n++)
        if (merge_suite(&runs[n], rep, &m, &m.suites[n]) != 0) {
            n++;
            goto done;
        }
    *out_runs = runs;
    *out_n = n;
    runs = NULL;
    rc = 0;
done:
    br_results_free(runs, n);
    merger_dispose(&m);
    if (rc != 0)
        br_merge_report_dispose(rep);
    return rc;
}

void br_merge_report_dispose(br_merge_report *rep) {
    if (!rep)
        return;
    free(rep->missing);
    free(rep->lost_suite);
    memset(rep, 0, sizeof *rep);
}

int br_merge_case_missing(const br_case_result *c) {
    return c && c->status == BR_STATUS_SKIPPED && c->stage == BR_STAGE_MISSING;
}
