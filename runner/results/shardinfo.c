/* SPDX-License-Identifier: Apache-2.0 */
/* A run's shard record: memory, identity, JSON (shardinfo.h). */
#include "shardinfo.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "json_string.h"

/* Append "tag value\n" for each of the n strings to the text at *t. */
static int text_lines(char **t, const char *tag, char *const *v, size_t n) {
    for (size_t i = 0; i < n; i++) {
        char *next = br_strfmt("%s%s %s\n", *t, tag, v[i]);
        if (!next)
            return -1;
        free(*t);
        *t = next;
    }
    return 0;
}

int br_shard_plan_digest(br_shard_plan *p, unsigned count) {
    char *t = br_strfmt("benchrun shard plan\nshards %u\nrule %s\n", count,
                        p->by_cost ? "cost" : "count");
    if (!t || text_lines(&t, "suite", p->suites, p->n_suites) ||
        text_lines(&t, "-k", p->kernels, p->n_kernels) ||
        text_lines(&t, "-p", p->params, p->n_params) ||
        text_lines(&t, "times", p->times, p->n_times)) {
        free(t);
        return br_error_nomem();
    }
    int rc = br_hash_blob(p->id, t, strlen(t));
    free(t);
    return rc;
}

static int strings_same(char *const *a, size_t na, char *const *b, size_t nb) {
    if (na != nb)
        return 0;
    for (size_t i = 0; i < na; i++)
        if (strcmp(a[i], b[i]) != 0)
            return 0;
    return 1;
}

int br_shard_plan_same(const br_shard_plan *a, const br_shard_plan *b, const char **what) {
    const char *w = NULL;
    if (!strings_same(a->suites, a->n_suites, b->suites, b->n_suites))
        w = "suites";
    else if (!strings_same(a->kernels, a->n_kernels, b->kernels, b->n_kernels))
        w = "-k";
    else if (!strings_same(a->params, a->n_params, b->params, b->n_params))
        w = "-p";
    else if (a->by_cost != b->by_cost)
        w = "rule";
    else if (!strings_same(a->times, a->n_times, b->times, b->n_times))
        w = "times";
    else if (strcmp(a->id, b->id) != 0)
        w = "id";
    if (what)
        *what = w;
    return w == NULL;
}

/* --- writing ------------------------------------------------------------------- */

static void put(br_json_builder *b, json_t *obj, const char *key, json_t *value) {
    if (!value || json_object_set_new(obj, key, value) != 0)
        b->failed = 1;
}

static void append(br_json_builder *b, json_t *arr, json_t *value) {
    if (!value || json_array_append_new(arr, value) != 0)
        b->failed = 1;
}

static json_t *strings_json(br_json_builder *b, char *const *v, size_t n) {
    json_t *a = json_array();
    for (size_t i = 0; a && i < n; i++)
        append(b, a, br_json_text(v[i]));
    return a;
}

static json_t *uints_json(br_json_builder *b, const unsigned *v, size_t n) {
    json_t *a = json_array();
    for (size_t i = 0; a && i < n; i++)
        append(b, a, json_integer((json_int_t)v[i]));
    return a;
}

static json_t *plan_json(br_json_builder *b, const br_shard_plan *p) {
    json_t *o = json_object();
    if (!o)
        return NULL;
    put(b, o, "id", json_string(p->id));
    put(b, o, "suites", strings_json(b, p->suites, p->n_suites));
    put(b, o, "kernels", strings_json(b, p->kernels, p->n_kernels));
    put(b, o, "params", strings_json(b, p->params, p->n_params));
    put(b, o, "rule", json_string(p->by_cost ? "cost" : "count"));
    put(b, o, "times", strings_json(b, p->times, p->n_times));
    return o;
}

/* A part's plan cases: [kernel, shard, values...] each. */
static json_t *cases_json(br_json_builder *b, const br_run_shard *s, size_t n_params) {
    json_t *a = json_array();
    for (size_t i = 0; a && i < s->n_plan; i++) {
        json_t *row = json_array();
        if (row) {
            append(b, row, json_integer((json_int_t)s->plan_kernel[i]));
            append(b, row, json_integer((json_int_t)s->plan_shard[i]));
            for (size_t p = 0; p < n_params; p++)
                append(b, row, json_integer((json_int_t)s->plan_params[i * n_params + p]));
        }
        append(b, a, row);
    }
    return a;
}

json_t *br_shard_json_write(br_json_builder *b, const br_run *r) {
    const br_run_shard *s = r->shard;
    json_t *o = json_object();
    if (!o || !s) {
        b->failed = 1;
        json_decref(o);
        return NULL;
    }
    put(b, o, "index", s->index ? json_integer((json_int_t)s->index) : json_null());
    put(b, o, "count", json_integer((json_int_t)s->count));
    put(b, o, "plan", plan_json(b, &s->plan));
    if (s->index)
        put(b, o, "cases", cases_json(b, s, r->n_params));
    else {
        put(b, o, "merged", uints_json(b, s->merged, s->n_merged));
        put(b, o, "missing", uints_json(b, s->missing, s->n_missing));
        if (s->n_mixed_hosts)
            put(b, o, "mixed_hosts", strings_json(b, s->mixed_hosts, s->n_mixed_hosts));
    }
    return o;
}

/* --- reading ------------------------------------------------------------------- */

/* obj[key]: an array of strings into a new array (*out NULL when empty). */
static int read_strings(br_json_ctx *c, const json_t *obj, const char *key, char ***out,
                        size_t *n) {
    json_t *a;
    *out = NULL;
    *n = 0;
    if (br_json_get_container(c, obj, key, BR_JSON_OPT, JSON_ARRAY, &a) != 0)
        return -1;
    size_t m = a ? json_array_size(a) : 0;
    if (m == 0)
        return 0;
    if (!(*out = calloc(m, sizeof **out)))
        return br_json_fail(c, "out of memory");
    size_t old = br_json_push_key(c, key);
    for (size_t i = 0; i < m; i++) {
        const json_t *v = json_array_get(a, i);
        size_t at = br_json_push_index(c, i);
        if (!json_is_string(v))
            return br_json_fail(c, "expected a string, found %s", br_json_kind(v));
        if (!((*out)[i] = br_strdup(json_string_value(v))))
            return br_json_fail(c, "out of memory");
        *n = i + 1;
        br_json_pop(c, at);
    }
    br_json_pop(c, old);
    return 0;
}

/* obj[key]: an array of shard numbers in 1..count into a new array. */
static int read_uints(br_json_ctx *c, const json_t *obj, const char *key, unsigned count,
                      unsigned **out, size_t *n) {
    json_t *a;
    *out = NULL;
    *n = 0;
    if (br_json_get_container(c, obj, key, BR_JSON_OPT, JSON_ARRAY, &a) != 0)
        return -1;
    size_t m = a ? json_array_size(a) : 0;
    if (m == 0)
        return 0;
    if (!(*out = calloc(m, sizeof **out)))
        return br_json_fail(c, "out of memory");
    size_t old = br_json_push_key(c, key);
    for (size_t i = 0; i < m; i++) {
        long long v;
        size_t at = br_json_push_index(c, i);
        if (br_json_int_value(c, json_array_get(a, i), 1, count, &v) != 0)
            return -1;
        (*out)[i] = (unsigned)v;
        br_json_pop(c, at);
    }
    *n = m;
    br_json_pop(c, old);
    return 0;
}

static int read_plan(br_json_ctx *c, const json_t *o, br_shard_plan *p) {
    const char *rule;
    if (br_json_get_text(c, o, "id", p->id, sizeof p->id) ||
        read_strings(c, o, "suites", &p->suites, &p->n_suites) ||
        read_strings(c, o, "kernels", &p->kernels, &p->n_kernels) ||
        read_strings(c, o, "params", &p->params, &p->n_params) ||
        br_json_get_string(c, o, "rule", BR_JSON_REQ, &rule) ||
        read_strings(c, o, "times", &p->times, &p->n_times))
        return -1;
    if (strcmp(rule, "cost") != 0 && strcmp(rule, "count") != 0) {
        char q[80];
        br_json_quoted(q, sizeof q, rule);
        return br_json_fail_key(c, "rule", "expected \"cost\" or \"count\", found %s", q);
    }
    p->by_cost = strcmp(rule, "cost") == 0;
    return 0;
}

/* One plan case row [kernel, shard, values...] into entry i of s. */
static int read_case(br_json_ctx *c, const json_t *row, br_run_shard *s, size_t i,
                     const br_run *r) {
    if (!json_is_array(row))
        return br_json_fail(c, "expected an array [kernel, shard, values...], found %s",
                            br_json_kind(row));
    if (json_array_size(row) != 2 + r->n_params)
        return br_json_fail(c, "expected %zu values (kernel, shard and %zu params), found %zu",
                            2 + r->n_params, r->n_params, json_array_size(row));
    long long k, sh;
    if (br_json_int_value(c, json_array_get(row, 0), 0,
                          r->n_kernels ? (long long)r->n_kernels - 1 : -1, &k) != 0 ||
        br_json_int_value(c, json_array_get(row, 1), 1, s->count, &sh) != 0)
        return -1;
    s->plan_kernel[i] = (size_t)k;
    s->plan_shard[i] = (unsigned)sh;
    for (size_t p = 0; p < r->n_params; p++) {
        long long v;
        if (br_json_int_value(c, json_array_get(row, 2 + p), INT64_MIN, INT64_MAX, &v) != 0)
            return -1;
        s->plan_params[i * r->n_params + p] = (int64_t)v;
    }
    return 0;
}

static int read_cases(br_json_ctx *c, const json_t *o, br_run_shard *s, const br_run *r) {
    json_t *a;
    if (br_json_get_container(c, o, "cases", BR_JSON_REQ, JSON_ARRAY, &a) != 0)
        return -1;
    size_t n = json_array_size(a), np = r->n_params;
    s->plan_kernel = calloc(n ? n : 1, sizeof *s->plan_kernel);
    s->plan_shard = calloc(n ? n : 1, sizeof *s->plan_shard);
    s->plan_params = calloc(n && np ? n * np : 1, sizeof *s->plan_params);
    if (!s->plan_kernel || !s->plan_shard || !s->plan_params)
        return br_json_fail(c, "out of memory");
    size_t old = br_json_push_key(c, "cases");
    for (size_t i = 0; i < n; i++) {
        size_t at = br_json_push_index(c, i);
        if (read_case(c, json_array_get(a, i), s, i, r) != 0)
            return -1;
        br_json_pop(c, at);
    }
    s->n_plan = n;
    br_json_pop(c, old);
    return 0;
}

static int read_shard(br_json_ctx *c, const json_t *o, br_run_shard *s, const br_run *r) {
    json_t *index, *plan;
    long long count, idx = 0;
    if (br_json_get_int(c, o, "count", BR_JSON_REQ, 1, BR_SHARD_MAX, 0, &count) ||
        br_json_member(c, o, "index", BR_JSON_OPT, &index))
        return -1;
    s->count = (unsigned)count;
    if (index) {
        size_t at = br_json_push_key(c, "index");
        if (br_json_int_value(c, index, 1, count, &idx) != 0)
            return -1;
        br_json_pop(c, at);
    }
    s->index = (unsigned)idx;
    if (br_json_get_container(c, o, "plan", BR_JSON_REQ, JSON_OBJECT, &plan) != 0)
        return -1;
    size_t at = br_json_push_key(c, "plan");
    if (read_plan(c, plan, &s->plan) != 0)
        return -1;
    br_json_pop(c, at);
    if (s->index)
        return read_cases(c, o, s, r);
    return read_uints(c, o, "merged", s->count, &s->merged, &s->n_merged) ||
                   read_uints(c, o, "missing", s->count, &s->missing, &s->n_missing) ||
                   read_strings(c, o, "mixed_hosts", &s->mixed_hosts, &s->n_mixed_hosts)
               ? -1
               : 0;
}

int br_shard_json_read(br_json_ctx *c, const json_t *run, br_run *r) {
    json_t *o;
    if (br_json_get_container(c, run, "shard", BR_JSON_OPT, JSON_OBJECT, &o) != 0)
        return -1;
    if (!o)
        return 0;
    if (!(r->shard = calloc(1, sizeof *r->shard)))
        return br_json_fail(c, "out of memory");
    size_t at = br_json_push_key(c, "shard");
    if (read_shard(c, o, r->shard, r) != 0)
        return -1;
    br_json_pop(c, at);
    return 0;
}
