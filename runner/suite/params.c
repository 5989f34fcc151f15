/* SPDX-License-Identifier: Apache-2.0 */
/* A suite's params and defines: lists, linear and power-of-two
 * ranges, zipped groups (see params.h). */
#include "params.h"

#include "base/sort.h"
#include "keys.h"
#include "scalar.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const char *const range_keys[] = {"pow2", "from", "to", "step", "zip"};

/* {pow2: [lo, hi]} or {pow2: [lo, hi, step]} */
static int load_pow2(br_param *p, const br_node *v) {
    const br_node *r = br_map_find(v, "pow2");
    if (r->kind != BR_NODE_SEQ)
        return br_expected(r, "[lo, hi] or [lo, hi, step] after pow2");
    if (r->n_items < 2 || r->n_items > 3)
        return br_error_at(r->pos, "pow2 takes [lo, hi] or [lo, hi, step], found %zu value%s",
                           r->n_items, r->n_items == 1 ? "" : "s");
    int64_t lo = 0, hi = 0, step = 1;
    int64_t *vals[3] = {&lo, &hi, &step};
    for (size_t i = 0; i < r->n_items; i++) {
        if (br_get_int(vals[i], r->items[i]) < 0)
            return -1;
        if (i < 2 && (*vals[i] < 0 || *vals[i] > 62))
            return br_error_at(r->items[i]->pos,
                               "pow2 exponent %lld is out of range (expected 0 to 62)",
                               (long long)*vals[i]);
    }
    if (lo > hi)
        return br_error_at(r->pos, "empty range: pow2 [%lld, %lld] has lo > hi", (long long)lo,
                           (long long)hi);
    if (step < 1)
        return br_error_at(r->items[2]->pos, "pow2 step must be at least 1, found %lld",
                           (long long)step);
    /* 0 <= lo <= hi <= 62 and step >= 1: at most 63 values, 2^62 at most. */
    size_t n = (size_t)((hi - lo) / step) + 1;
    p->values = calloc(n, sizeof *p->values);
    if (!p->values)
        return br_error_at(v->pos, "out of memory");
    for (size_t i = 0; i < n; i++)
        p->values[i] = (int64_t)1 << (lo + (int64_t)i * step);
    p->n_values = n;
    return 0;
}

/* Most values one parameter may take (a range beyond it is surely a typo). */
#define PARAM_MAX_VALUES 1000000

/* {from: a, to: b, step: s}: a, a+s, ... up to b (included when reached). */
static int load_linear(br_param *p, const br_node *v) {
    const br_node *from = br_map_find(v, "from"), *to = br_map_find(v, "to"),
                  *st = br_map_find(v, "step");
    if (!from || !to)
        return br_error_at(v->pos, "a linear range needs both 'from' and 'to' "
                                   "({from: 64, to: 1024, step: 64})");
    int64_t lo = 0, hi = 0, step = 1;
    if (br_get_int(&lo, from) < 0 || br_get_int(&hi, to) < 0 || (st && br_get_int(&step, st) < 0))
        return -1;
    if (step < 1)
        return br_error_at(st->pos, "step must be at least 1, found %lld", (long long)step);
    if (lo > hi)
        return br_error_at(v->pos, "empty range: from %lld is greater than to %lld", (long long)lo,
                           (long long)hi);
    /* (hi - lo) may not fit in int64_t: count in unsigned arithmetic, and
     * the steps before the values: from INT64_MIN to INT64_MAX by 1 is 2^64
     * - 1 steps, and 2^64 values would wrap to 0. */
    uint64_t span = (uint64_t)hi - (uint64_t)lo;
    uint64_t steps = span / (uint64_t)step;
    if (steps >= PARAM_MAX_VALUES) {
        char count[32];
        if (steps == UINT64_MAX)
            snprintf(count, sizeof count, "2^64");
        else
            snprintf(count, sizeof count, "%llu", (unsigned long long)steps + 1);
        return br_error_at(p->pos,
                           "parameter '%s': the range from %lld to %lld step %lld gives %s values "
                           "(at most %d)",
                           p->name, (long long)lo, (long long)hi, (long long)step, count,
                           PARAM_MAX_VALUES);
    }
    uint64_t n = steps + 1;
    p->values = calloc((size_t)n, sizeof *p->values);
    if (!p->values)
        return br_error_at(v->pos, "out of memory");
    for (uint64_t i = 0; i < n; i++)
        p->values[i] = (int64_t)((uint64_t)lo + i * (uint64_t)step);
    p->n_values = (size_t)n;
    return 0;
}

/* A range mapping: {pow2: ...} or {from, to, step}. */
static int load_range(br_param *p, const br_node *v) {
    char where[BR_SHOW_MAX + 32];
    char q[BR_SHOW_MAX + 16];
    br_show(q, sizeof q, p->name, strlen(p->name));
    snprintf(where, sizeof where, " in parameter %s", q);
    const char *what = "a range {from: a, to: b, step: s} or {pow2: [lo, hi]}, or a list of values";
    if (br_map_size(v) == 0)
        return br_expected(v, what);
    if (br_keys_check(v, range_keys, COUNT(range_keys), where) < 0)
        return -1;
    const br_node *zip = br_map_find(v, "zip");
    if (zip)
        return br_error_at(br_map_key(v, 0)->pos,
                           "zip groups parameters: write it as GROUP: {zip: {a: [...], b: [...]}} "
                           "directly under params, not inside parameter %s",
                           q);
    const br_node *pow2 = br_map_find(v, "pow2");
    if (pow2) {
        for (size_t i = 0; i < br_map_size(v); i++)
            if (!br_key_is(br_map_key(v, i), "pow2"))
                return br_error_at(br_map_key(v, i)->pos,
                                   "a pow2 range takes no other keys (found '%.*s')",
                                   (int)br_map_key(v, i)->len, br_map_key(v, i)->text);
        return load_pow2(p, v);
    }
    return load_linear(p, v);
}

/* br_item_cmp of two values of one parameter (ctx: its values). */
static int cmp_value(size_t i, size_t j, void *ctx) {
    const int64_t *v = ctx;
    return (v[i] > v[j]) - (v[i] < v[j]);
}

/* One parameter. A zipped member (`zipped`) may repeat a value: only its
 * group's entries as a whole must be distinct. */
static int load_param(br_param *p, const br_node *k, const br_node *v, bool zipped) {
    p->pos = k->pos;
    if (br_get_text(&p->name, k, "a parameter name") < 0)
        return -1;
    if (br_check_identifier(p->name, k, "parameter name") < 0)
        return -1;
    if (v->kind == BR_NODE_MAP)
        return load_range(p, v);
    if (v->kind == BR_NODE_SEQ) {
        if (v->n_items == 0) {
            char q[BR_SHOW_MAX + 16];
            br_show(q, sizeof q, p->name, strlen(p->name));
            return br_error_at(v->pos, "parameter %s has no values: expected a non-empty list", q);
        }
        p->values = calloc(v->n_items, sizeof *p->values);
        if (!p->values)
            return br_error_at(v->pos, "out of memory");
        p->n_values = v->n_items;
        for (size_t i = 0; i < v->n_items; i++)
            if (br_get_int(&p->values[i], v->items[i]) < 0)
                return -1;
        /* A value twice would make two cases that nothing tells apart
         * (results and baselines key cases by their values). */
        size_t i, j;
        int rep = zipped ? 0 : br_find_repeat(&i, &j, p->n_values, cmp_value, p->values);
        if (rep < 0)
            return br_error_at(v->pos, "out of memory");
        if (rep) {
            char q[BR_SHOW_MAX + 16];
            br_show(q, sizeof q, p->name, strlen(p->name));
            return br_error_at(v->items[i]->pos,
                               "parameter %s lists the value %lld twice (also item %zu)", q,
                               (long long)p->values[i], j + 1);
        }
        return 0;
    }
    p->values = calloc(1, sizeof *p->values);
    if (!p->values)
        return br_error_at(v->pos, "out of memory");
    p->n_values = 1;
    return br_get_int(&p->values[0], v);
}

/* A params entry `GROUP: {zip: {...}}` (its zip mapping), or NULL. */
static const br_node *zip_of(const br_node *v) {
    if (v->kind != BR_NODE_MAP || br_map_size(v) != 1 || !br_key_is(br_map_key(v, 0), "zip"))
        return NULL;
    return br_map_value(v, 0);
}

/* The members of a zip group, for br_item_cmp over its entries. */
typedef struct zip_rows {
    const br_param *members;
    size_t n;
} zip_rows;

/* br_item_cmp of entries a and b of a zip group: by each member's value. */
static int cmp_row(size_t a, size_t b, void *ctx) {
    const zip_rows *z = ctx;
    for (size_t i = 0; i < z->n; i++) {
        int64_t x = z->members[i].values[a], y = z->members[i].values[b];
        if (x != y)
            return (x > y) - (x < y);
    }
    return 0;
}

/* The group's key k: a good name, and not one of its members' (z). */
static int check_group_name(const br_node *k, const br_node *z) {
    char *name = NULL;
    if (br_get_text(&name, k, "a zip group name") < 0)
        return -1;
    int rc = br_check_name(name, k, "zip group");
    for (size_t i = 0; rc == 0 && i < br_map_size(z); i++) {
        const br_node *m = br_map_key(z, i);
        if (m->kind == BR_NODE_SCALAR && m->len == k->len &&
            memcmp(m->text, k->text, k->len) == 0) {
            char q[BR_SHOW_MAX + 16];
            br_show(q, sizeof q, k->text, k->len);
            rc = br_error_at(k->pos,
                             "zip group %s is named like its member at %d:%d (give the group a "
                             "name of its own)",
                             q, m->pos.line, m->pos.column);
        }
    }
    free(name);
    return rc;
}

/* A zipped group: members loaded into p[0..], all with as many values (a
 * one-value member is repeated). */
static int load_zip(br_suite *s, const br_node *k, const br_node *z, size_t group) {
    char q[BR_SHOW_MAX + 16];
    br_show(q, sizeof q, k->text, k->len);
    /* load_params has checked that z is a non-empty mapping. */
    char where[BR_SHOW_MAX + 32];
    snprintf(where, sizeof where, " in zip group %s", q);
    if (br_keys_check(z, NULL, 0, where) < 0 || check_group_name(k, z) < 0)
        return -1;
    size_t first = s->n_params, len = 1;
    const br_node *longest = NULL;
    /* Most entries of one group (a sweep that large wants plain params). */
    const size_t zip_max = 10000;
    for (size_t i = 0; i < br_map_size(z); i++) {
        br_param *p = &s->params[s->n_params++];
        const br_node *mv = br_map_value(z, i);
        if (zip_of(mv))
            return br_error_at(br_map_key(z, i)->pos, "a zip group cannot hold another zip group");
        if (load_param(p, br_map_key(z, i), mv, true) < 0)
            return -1;
        p->zip = group;
        if (!(p->group = strndup(k->text, k->len)))
            return br_error_at(k->pos, "out of memory");
        if (p->n_values == 0) /* load_param gives at least one value */
            return br_error_at(p->pos, "internal error: zipped parameter '%s' has no value",
                               p->name);
        if (p->n_values > 1 && len == 1) {
            len = p->n_values;
            longest = br_map_key(z, i);
        } else if (p->n_values > 1 && p->n_values != len) {
            return br_error_at(mv->pos,
                               "zipped parameter '%s' has %zu values but '%.*s' has %zu: the "
                               "parameters of zip group %s advance together and need as many",
                               p->name, p->n_values, (int)longest->len, longest->text, len, q);
        }
    }
    if (len > zip_max)
        return br_error_at(z->pos, "zip group %s has %zu entries (at most %zu)", q, len, zip_max);
    /* A one-value member repeats for every combination of the group. */
    for (size_t i = first; i < s->n_params; i++) {
        br_param *p = &s->params[i];
        if (p->n_values == 1 && len > 1) {
            int64_t v = p->values[0];
            int64_t *vals = calloc(len, sizeof *vals);
            if (!vals)
                return br_error_at(k->pos, "out of memory");
            for (size_t j = 0; j < len; j++)
                vals[j] = v;
            free(p->values);
            p->values = vals;
            p->n_values = len;
        }
    }
    /* Zipped combinations must be distinct (results key cases by values). */
    zip_rows rows = {&s->params[first], s->n_params - first};
    size_t again, at;
    int rep = br_find_repeat(&again, &at, len, cmp_row, &rows);
    if (rep < 0)
        return br_error_at(z->pos, "out of memory");
    if (rep)
        return br_error_at(z->pos, "zip group %s gives the same values twice (entries %zu and %zu)",
                           q, at + 1, again + 1);
    return 0;
}

/* See params.h. */
int br_params_load(br_suite *s, const br_node *v) {
    if (v->kind != BR_NODE_MAP)
        return br_expected(v, "a mapping of parameter names to values");
    if (br_keys_check(v, NULL, 0, " in params") < 0)
        return -1;
    size_t n = 0;
    for (size_t i = 0; i < br_map_size(v); i++) {
        const br_node *z = zip_of(br_map_value(v, i));
        if (z && (z->kind != BR_NODE_MAP || br_map_size(z) == 0))
            return br_expected(z, "a mapping of the zipped parameters to their values "
                                  "(zip: {m: [...], n: [...]})");
        n += z ? br_map_size(z) : 1;
        if (n > BR_SUITE_MAX_PARAMS)
            return br_error_at(br_map_key(v, i)->pos, "too many parameters (at most %d)",
                               BR_SUITE_MAX_PARAMS);
    }
    if (n == 0)
        return 0;
    s->params = calloc(n, sizeof *s->params);
    if (!s->params)
        return br_error_at(v->pos, "out of memory");
    size_t groups = 0;
    for (size_t i = 0; i < br_map_size(v); i++) {
        const br_node *z = zip_of(br_map_value(v, i));
        if (z) {
            if (load_zip(s, br_map_key(v, i), z, ++groups) < 0)
                return -1;
        } else if (load_param(&s->params[s->n_params++], br_map_key(v, i), br_map_value(v, i),
                              false) < 0) {
            return -1;
        }
    }
    /* A name twice (two zip groups, or a group and a parameter). */
    for (size_t i = 0; i < s->n_params; i++)
        for (size_t j = 0; j < i; j++)
            if (strcmp(s->params[i].name, s->params[j].name) == 0)
                return br_error_at(s->params[i].pos, "duplicate parameter '%s' (first at %d:%d)",
                                   s->params[i].name, s->params[j].pos.line,
                                   s->params[j].pos.column);
    return 0;
}

/* `defines: [a, b]`: parameters that are also compile-time constants. */
int br_defines_load(br_suite *s, const br_node *v) {
    s->defines_pos = v->pos;
    if (v->kind != BR_NODE_SEQ)
        return br_expected(v, "a list of parameter names (defines: [block, tile])");
    for (size_t i = 0; i < v->n_items; i++) {
        const br_node *it = v->items[i];
        if (it->kind != BR_NODE_SCALAR || br_is_null(it))
            return br_expected(it, "a parameter name");
        br_param *p = NULL;
        for (size_t j = 0; j < s->n_params && !p; j++)
            if (strlen(s->params[j].name) == it->len &&
                memcmp(s->params[j].name, it->text, it->len) == 0)
                p = &s->params[j];
        char q[BR_SHOW_MAX + 16];
        br_show_node(q, sizeof q, it);
        if (!p)
            return br_error_at(it->pos, "defines names %s, which is not a parameter of the suite",
                               q);
        if (p->define)
            return br_error_at(it->pos, "defines lists %s twice", q);
        p->define = 1;
    }
    return 0;
}
