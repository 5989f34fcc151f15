/* SPDX-License-Identifier: Apache-2.0 */
/* The I-th of N parts of an invocation's plan (shard.h). */
#include "shard.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "base/sort.h"
#include "cost.h"
#include "results/run_read.h"

int br_shard_parse(unsigned *index, unsigned *count, const char *text) {
    const char *slash = text ? strchr(text, '/') : NULL;
    char *end;
    if (!slash)
        return br_error_set("--shard %s: expected I/N, e.g. 2/4 (the 2nd of 4 shards)",
                            text ? text : "");
    errno = 0;
    unsigned long long i = strtoull(text, &end, 10), n;
    int bad = errno || end != slash || slash == text || text[0] == '-' || text[0] == '+';
    errno = 0;
    n = strtoull(slash + 1, &end, 10);
    bad = bad || errno || *end || !slash[1] || slash[1] == '-' || slash[1] == '+';
    if (bad)
        return br_error_set("--shard %s: expected I/N with whole numbers, e.g. 2/4", text);
    if (n < 1 || n > BR_SHARD_MAX)
        return br_error_set("--shard %s: the number of shards must be 1 to %u", text, BR_SHARD_MAX);
    if (i < 1 || i > n)
        return br_error_set("--shard %s: shards are numbered 1 to %llu", text, n);
    *index = (unsigned)i;
    *count = (unsigned)n;
    return 0;
}

/* FNV-1a 64: offset basis and prime (Fowler, Noll, Vo; IETF draft-eastlake-fnv). */
#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME  0x100000001b3ULL

static uint64_t fnv(uint64_t h, const char *s, size_t len) {
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= FNV_PRIME;
    }
    return h;
}

uint64_t br_shard_key(const char *suite, const char *kernel, const char *const *param_names,
                      const int64_t *values, size_t n_params) {
    uint64_t h = fnv(FNV_OFFSET, suite, strlen(suite) + 1);
    h = fnv(h, kernel, strlen(kernel) + 1);
    for (size_t p = 0; p < n_params; p++) {
        char buf[256];
        int len = snprintf(buf, sizeof buf, "%s=%lld", param_names[p], (long long)values[p]);
        h = fnv(h, buf, len < 0 ? 0 : (size_t)len + 1);
    }
    return h;
}

/* --- the rule ------------------------------------------------------------------ */

typedef struct item {
    uint64_t key, tie;
    double cost;
    size_t i;
} item;

static int by_key(const void *a, const void *b) {
    const item *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->tie > y->tie) - (x->tie < y->tie);
}

static int by_cost(const void *a, const void *b) {
    const item *x = a, *y = b;
    if (x->cost != y->cost)
        return x->cost > y->cost ? -1 : 1;
    return by_key(a, b);
}

/* The median of the finite costs, or NAN when none is. */
static double median_cost(const double *costs, size_t n) {
    double *v = malloc((n ? n : 1) * sizeof *v);
    size_t m = 0;
    if (!v)
        return NAN;
    for (size_t i = 0; i < n; i++)
        if (isfinite(costs[i]))
            v[m++] = costs[i];
    qsort(v, m, sizeof *v, br_cmp_double);
    double med = m == 0 ? NAN : m % 2 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2;
    free(v);
    return med;
}

/* A shard and its load; the heap's root is the least loaded (then lowest). */
typedef struct slot {
    double load;
    unsigned shard;
} slot;

static int slot_less(const slot *a, const slot *b) {
    return a->load < b->load || (a->load == b->load && a->shard < b->shard);
}

static void sift_down(slot *h, size_t n, size_t i) {
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && slot_less(&h[l], &h[m]))
            m = l;
        if (r < n && slot_less(&h[r], &h[m]))
            m = r;
        if (m == i)
            return;
        slot t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

/* LPT over the items sorted by cost: each to the least loaded shard. */
static int assign_lpt(unsigned *shard, const item *v, size_t n, unsigned count) {
    slot *heap = malloc(count * sizeof *heap);
    if (!heap)
        return br_error_nomem();
    for (unsigned s = 0; s < count; s++)
        heap[s] = (slot){0.0, s + 1}; /* ascending shards, equal loads: already a heap */
    for (size_t j = 0; j < n; j++) {
        shard[v[j].i] = heap[0].shard;
        heap[0].load += v[j].cost;
        sift_down(heap, count, 0);
    }
    free(heap);
    return 0;
}

int br_shard_assign(unsigned *shard, const uint64_t *keys, const double *costs, const uint64_t *tie,
                    size_t n, unsigned count) {
    if (n == 0)
        return 0;
    if (count == 0)
        return br_error_set("br_shard_assign: no shards");
    item *v = malloc(n * sizeof *v);
    if (!v)
        return br_error_nomem();
    double fill = costs ? median_cost(costs, n) : NAN;
    if (!isfinite(fill))
        fill = 1.0;
    for (size_t i = 0; i < n; i++) {
        double c = costs && isfinite(costs[i]) && costs[i] >= 0 ? costs[i] : fill;
        v[i] = (item){keys[i], tie[i], c, i};
    }
    int rc = 0;
    if (costs) {
        qsort(v, n, sizeof *v, by_cost);
        rc = assign_lpt(shard, v, n, count);
    } else {
        qsort(v, n, sizeof *v, by_key);
        for (size_t j = 0; j < n; j++)
            shard[v[j].i] = (unsigned)(j % count) + 1;
    }
    free(v);
    return rc;
}

/* --- the costs of --shard-times -------------------------------------------------- */

typedef struct cost_entry {
    uint64_t key;
    size_t seq; /* later files (and cases) win */
    double cost;
} cost_entry;

typedef struct cost_table {
    cost_entry *v;
    size_t n, cap;
} cost_table;

static int cost_cmp(const void *a, const void *b) {
    const cost_entry *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

static int cost_add(cost_table *t, uint64_t key, double cost) {
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 256;
        cost_entry *v = realloc(t->v, cap * sizeof *v);
        if (!v)
            return br_error_nomem();
        t->v = v;
        t->cap = cap;
    }
    t->v[t->n] = (cost_entry){key, t->n, cost};
    t->n++;
    return 0;
}

/* The cost of key, or NAN; t sorted, the last entry of a key wins. */
static double cost_find(const cost_table *t, uint64_t key) {
    size_t lo = 0, hi = t->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->v[mid].key <= key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo > 0 && t->v[lo - 1].key == key ? t->v[lo - 1].cost : NAN;
}

/* The measured cases of run r (a file's run of job j's suite) into t, keyed
 * as j's cases are: params in the suite's order, found by name. */
static int costs_of_run(cost_table *t, const br_run *r, const br_job *j) {
    const br_suite *s = &j->suite;
    size_t at[BR_SUITE_MAX_PARAMS];
    const char *names[BR_SUITE_MAX_PARAMS];
    for (size_t p = 0; p < s->n_params; p++) {
        names[p] = s->params[p].name;
        at[p] = SIZE_MAX;
        for (size_t q = 0; q < r->n_params; q++)
            if (strcmp(r->param_names[q], names[p]) == 0)
                at[p] = q;
        if (at[p] == SIZE_MAX)
            return 0; /* another shape of the suite: nothing to learn */
    }
    for (size_t i = 0; i < r->n_cases; i++) {
        const br_case_result *c = &r->cases[i];
        double cost = br_cost_measured(c);
        if (!isfinite(cost) || c->kernel >= r->n_kernels)
            continue;
        int64_t v[BR_SUITE_MAX_PARAMS];
        for (size_t p = 0; p < s->n_params; p++)
            v[p] = c->params[at[p]];
        uint64_t key =
            br_shard_key(s->name.text, r->kernels[c->kernel].name, names, v, s->n_params);
        if (cost_add(t, key, cost) != 0)
            return -1;
    }
    return 0;
}

/* Read each --shard-times file into t (its blob id into ids[f]). */
static int costs_read(cost_table *t, char **ids, const br_shard_opts *o, const br_job *jobs,
                      size_t n_jobs) {
    for (size_t f = 0; f < o->n_times; f++) {
        char *text = NULL;
        size_t len = 0;
        br_run *runs = NULL;
        size_t n_runs = 0;
        int rc = -1;
        if (br_read_file(&text, &len, o->times[f], BR_RESULTS_MAX_BYTES) != 0 ||
            br_results_parse(&runs, &n_runs, text, len, o->times[f]) != 0) {
            char msg[BR_ERROR_MAX];
            snprintf(msg, sizeof msg, "%s", br_error_get());
            br_error_set("--shard-times: %s", msg);
        } else if ((ids[f] = malloc(41)) && br_hash_blob(ids[f], text, len) == 0) {
            rc = 0;
            for (size_t r = 0; r < n_runs && rc == 0; r++)
                for (size_t j = 0; j < n_jobs && rc == 0; j++)
                    if (runs[r].suite_name &&
                        strcmp(runs[r].suite_name, jobs[j].suite.name.text) == 0)
                        rc = costs_of_run(t, &runs[r], &jobs[j]);
        } else
            br_error_nomem();
        free(text);
        br_results_free(runs, n_runs);
        if (rc != 0)
            return -1;
    }
    if (t->n > 1)
        qsort(t->v, t->n, sizeof *t->v, cost_cmp);
    return 0;
}

int br_shard_jobs_costs(double *const *costs, const char *const *files, size_t n_files,
                        const br_job *jobs, size_t n_jobs) {
    cost_table t = {0};
    char **ids = calloc(n_files ? n_files : 1, sizeof *ids);
    br_shard_opts o = {.times = (const char **)files, .n_times = n_files};
    int rc = ids ? costs_read(&t, ids, &o, jobs, n_jobs) : br_error_nomem();
    for (size_t j = 0; rc == 0 && j < n_jobs; j++) {
        const br_job *job = &jobs[j];
        const br_suite *s = &job->suite;
        const char *names[BR_SUITE_MAX_PARAMS];
        for (size_t p = 0; p < s->n_params; p++)
            names[p] = s->params[p].name;
        for (size_t i = 0; i < job->plan.n_cases; i++) {
            const br_plan_case *pc = &job->plan.cases[i];
            costs[j][i] =
                cost_find(&t, br_shard_key(s->name.text, s->kernels[pc->kernel].text, names,
                                           br_plan_params(&job->plan, pc->combo), s->n_params));
        }
    }
    for (size_t f = 0; ids && f < n_files; f++)
        free(ids[f]);
    free(ids);
    free(t.v);
    return rc;
}

/* --- the plan's identity ----------------------------------------------------------- */

static int str_cmp(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "NAME=[V,V,...]" of a -p setting. */
static char *param_text(const br_param_override *p) {
    char *t = br_strfmt("%s=[", p->name);
    for (size_t v = 0; t && v < p->n_values; v++) {
        char *next = br_strfmt("%s%s%lld", t, v ? "," : "", (long long)p->values[v]);
        free(t);
        t = next;
    }
    char *done = t ? br_strfmt("%s]", t) : NULL;
    free(t);
    return done;
}

/* The identity of the invocation: its suites, -k, -p, rule and cost files. */
static int identity(br_shard_plan *id, const br_job *jobs, size_t n_jobs, const br_run_opts *ro,
                    const br_shard_opts *o, char **times, int cost_rule) {
    memset(id, 0, sizeof *id);
    id->suites = calloc(n_jobs ? n_jobs : 1, sizeof *id->suites);
    id->kernels = calloc(ro->n_patterns ? ro->n_patterns : 1, sizeof *id->kernels);
    id->params = calloc(ro->n_params ? ro->n_params : 1, sizeof *id->params);
    id->times = calloc(o->n_times ? o->n_times : 1, sizeof *id->times);
    if (!id->suites || !id->kernels || !id->params || !id->times)
        return br_error_nomem();
    for (; id->n_suites < n_jobs; id->n_suites++) {
        const br_suite *s = &jobs[id->n_suites].suite;
        if (!(id->suites[id->n_suites] = br_strfmt("%s@%s", s->name.text, s->hash)))
            return br_error_nomem();
    }
    qsort(id->suites, id->n_suites, sizeof *id->suites, str_cmp);
    for (; id->n_kernels < ro->n_patterns; id->n_kernels++)
        if (!(id->kernels[id->n_kernels] = br_strdup(ro->patterns[id->n_kernels])))
            return br_error_nomem();
    for (; id->n_params < ro->n_params; id->n_params++)
        if (!(id->params[id->n_params] = param_text(&ro->params[id->n_params])))
            return br_error_nomem();
    for (; id->n_times < o->n_times; id->n_times++) {
        id->times[id->n_times] = times[id->n_times];
        times[id->n_times] = NULL;
    }
    id->by_cost = cost_rule;
    return br_shard_plan_digest(id, o->count);
}

/* --- applying the cut ---------------------------------------------------------------- */

/* Every case of every job: its key, cost (NAN unknown) and tie-breaker. */
typedef struct all_cases {
    uint64_t *keys, *tie;
    double *costs;
    unsigned *shard;
    size_t n;
    int any_cost;
} all_cases;

static int name_rank_cmp(const void *a, const void *b) {
    const br_job *x = *(const br_job *const *)a, *y = *(const br_job *const *)b;
    return strcmp(x->suite.name.text, y->suite.name.text);
}

/* Suite names must be unique; rank[j] is job j's place among them sorted. */
static int rank_suites(size_t *rank, const br_job *jobs, size_t n_jobs) {
    const br_job **v = malloc((n_jobs ? n_jobs : 1) * sizeof *v);
    if (!v)
        return br_error_nomem();
    for (size_t j = 0; j < n_jobs; j++)
        v[j] = &jobs[j];
    qsort(v, n_jobs, sizeof *v, name_rank_cmp);
    int rc = 0;
    for (size_t k = 0; k < n_jobs && rc == 0; k++) {
        if (k > 0 && strcmp(v[k]->suite.name.text, v[k - 1]->suite.name.text) == 0)
            rc = br_error_set("--shard: %s and %s are both suite '%s': a merge finds a suite's "
                              "parts by its name, so give each suite once",
                              v[k - 1]->suite.path, v[k]->suite.path, v[k]->suite.name.text);
        rank[v[k] - jobs] = k;
    }
    free(v);
    return rc;
}

static int cases_fill(all_cases *a, const br_job *jobs, size_t n_jobs, const cost_table *t) {
    size_t *rank = malloc((n_jobs ? n_jobs : 1) * sizeof *rank);
    if (!rank)
        return br_error_nomem();
    if (rank_suites(rank, jobs, n_jobs) != 0) {
        free(rank);
        return -1;
    }
    for (size_t j = 0; j < n_jobs; j++)
        a->n += jobs[j].plan.n_cases;
    size_t m = a->n ? a->n : 1;
    a->keys = calloc(m, sizeof *a->keys);
    a->tie = calloc(m, sizeof *a->tie);
    a->costs = calloc(m, sizeof *a->costs);
    a->shard = calloc(m, sizeof *a->shard);
    if (!a->keys || !a->tie || !a->costs || !a->shard) {
        free(rank);
        return br_error_nomem();
    }
    size_t k = 0;
    for (size_t j = 0; j < n_jobs; j++) {
        const br_suite *s = &jobs[j].suite;
        const char *names[BR_SUITE_MAX_PARAMS];
        for (size_t p = 0; p < s->n_params; p++)
            names[p] = s->params[p].name;
        for (size_t i = 0; i < jobs[j].plan.n_cases; i++, k++) {
            const br_plan_case *pc = &jobs[j].plan.cases[i];
            a->keys[k] = br_shard_key(s->name.text, s->kernels[pc->kernel].text, names,
                                      br_plan_params(&jobs[j].plan, pc->combo), s->n_params);
            a->tie[k] = ((uint64_t)rank[j] << 32) | (uint64_t)i;
            a->costs[k] = cost_find(t, a->keys[k]);
            a->any_cost |= isfinite(a->costs[k]);
        }
    }
    free(rank);
    return 0;
}

/* Job j's shard record: the identity and its whole plan with each shard. */
static int job_record(br_job *j, const br_shard_plan *id, const unsigned *shard,
                      const br_shard_opts *o) {
    br_run_shard *r = calloc(1, sizeof *r);
    size_t n = j->plan.n_cases, np = j->suite.n_params;
    if (!r)
        return br_error_nomem();
    j->shard = r;
    r->index = o->index;
    r->count = o->count;
    r->plan_kernel = calloc(n ? n : 1, sizeof *r->plan_kernel);
    r->plan_shard = calloc(n ? n : 1, sizeof *r->plan_shard);
    r->plan_params = calloc(n && np ? n * np : 1, sizeof *r->plan_params);
    if (!r->plan_kernel || !r->plan_shard || !r->plan_params ||
        br_shard_plan_copy(&r->plan, id) != 0)
        return br_error_nomem();
    r->n_plan = n;
    for (size_t i = 0; i < n; i++) {
        const br_plan_case *pc = &j->plan.cases[i];
        r->plan_kernel[i] = pc->kernel;
        r->plan_shard[i] = shard[i];
        if (np)
            memcpy(r->plan_params + i * np, br_plan_params(&j->plan, pc->combo),
                   np * sizeof *r->plan_params);
    }
    return 0;
}

/* Keep in j's plan only the cases of shard `index`. */
static void job_keep(br_job *j, const unsigned *shard, unsigned index) {
    size_t kept = 0;
    for (size_t i = 0; i < j->plan.n_cases; i++) {
        if (shard[i] != index)
            continue;
        j->plan.cases[kept] = j->plan.cases[i];
        j->bytes[kept] = j->bytes[i];
        j->flops[kept] = j->flops[i];
        j->memory[kept] = j->memory[i];
        kept++;
    }
    j->plan.n_cases = kept;
}

int br_shard_select(br_job *jobs, size_t n_jobs, const br_shard_opts *o, const br_run_opts *ro) {
    if (!o || o->index == 0)
        return 0;
    cost_table t = {0};
    all_cases a = {0};
    br_shard_plan id = {0};
    char **times = calloc(o->n_times ? o->n_times : 1, sizeof *times);
    int rc = -1;
    if (!times) {
        br_error_nomem();
        goto done;
    }
    if (costs_read(&t, times, o, jobs, n_jobs) != 0 || cases_fill(&a, jobs, n_jobs, &t) != 0 ||
        br_shard_assign(a.shard, a.keys, a.any_cost ? a.costs : NULL, a.tie, a.n, o->count) != 0 ||
        identity(&id, jobs, n_jobs, ro, o, times, a.any_cost) != 0)
        goto done;
    size_t k = 0;
    for (size_t j = 0; j < n_jobs; j++) {
        if (job_record(&jobs[j], &id, a.shard + k, o) != 0)
            goto done;
        job_keep(&jobs[j], a.shard + k, o->index);
        k += jobs[j].shard->n_plan;
    }
    rc = 0;
done:
    for (size_t f = 0; times && f < o->n_times; f++)
        free(times[f]);
    free(times);
    free(t.v);
    free(a.keys);
    free(a.tie);
    free(a.costs);
    free(a.shard);
    br_shard_plan_dispose(&id);
    return rc;
}

void br_shard_list_summary(FILE *f, const br_job *jobs, size_t n_jobs) {
    const br_run_shard *first = n_jobs ? jobs[0].shard : NULL;
    if (!first)
        return;
    size_t *per = calloc(first->count, sizeof *per), total = 0;
    if (!per)
        return;
    for (size_t j = 0; j < n_jobs; j++)
        for (size_t i = 0; jobs[j].shard && i < jobs[j].shard->n_plan; i++, total++)
            per[jobs[j].shard->plan_shard[i] - 1]++;
    fprintf(f, "shard %u/%u (by %s, plan %.12s): %zu of %zu case(s); per shard:", first->index,
            first->count, first->plan.by_cost ? "cost" : "count", first->plan.id,
            per[first->index - 1], total);
    for (unsigned s = 0; s < first->count; s++)
        fprintf(f, " %zu", per[s]);
    fputc('\n', f);
    free(per);
}
