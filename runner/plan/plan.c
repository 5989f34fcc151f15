/* SPDX-License-Identifier: Apache-2.0 */
/* Expand a suite into cases (see plan.h). */
#include "plan.h"

#include "suite/expr.h"
#include "base/util.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void br_plan_describe(char *buf, size_t len, const br_suite *s, const int64_t *values) {
    size_t off = 0;
    if (len)
        buf[0] = '\0';
    for (size_t i = 0; i < s->n_params && off < len; i++)
        off += (size_t)snprintf(buf + off, len - off, "%s%s=%lld", i ? ", " : "", s->params[i].name,
                                (long long)values[i]);
}

/* One axis of the sweep: a parameter of its own, or a zipped group (its
 * members advance together). */
typedef struct axis {
    size_t first; /* index of the first param of the axis */
    size_t len;   /* values along the axis */
} axis;

size_t br_plan_max_sweep(size_t where_len) {
    if (!where_len)
        return BR_PLAN_MAX_CASES;
    size_t n = BR_PLAN_WHERE_WORK / (16 + where_len);
    return n < BR_PLAN_MAX_SWEEP ? n : BR_PLAN_MAX_SWEEP;
}

/* A plan under construction. */
typedef struct builder {
    const br_suite *s;
    br_plan *out;
    br_pos at; /* the suite file, for messages without a line */
    axis axes[BR_SUITE_MAX_PARAMS];
    size_t n_axes;
    size_t raw;       /* combinations the axes span, before `where` */
    bool *selected;   /* owned: per kernel of the suite */
    size_t n_kernels; /* kernels selected */
    int64_t *row;     /* owned: the combination at hand, n_params values */
    br_binding vars[BR_SUITE_MAX_PARAMS];
    size_t cap; /* rows out->values has room for */
} builder;

/* The axes, and the combinations they span, checked against the limit as the
 * product grows (before `where` drops any). */
static int plan_axes(builder *b) {
    const br_suite *s = b->s;
    size_t where_len = s->where.text ? strlen(s->where.text) : 0;
    size_t limit = br_plan_max_sweep(where_len);
    b->raw = 1;
    for (size_t i = 0; i < s->n_params; i++) {
        const br_param *p = &s->params[i];
        if (p->zip && i > 0 && s->params[i - 1].zip == p->zip)
            continue; /* a later member of the group: same axis */
        b->axes[b->n_axes++] = (axis){i, p->n_values};
        if (__builtin_mul_overflow(b->raw, p->n_values, &b->raw) || b->raw > limit)
            return br_error_at(p->pos,
                               s->where.text
                                   ? "parameter '%s' takes the sweep past %zu combinations, "
                                     "the most a 'where' of %zu bytes is checked for"
                                   : "parameter '%s' takes the plan past %zu cases, the most a "
                                     "plan may have",
                               p->name, limit, where_len);
    }
    return 0;
}

/* Which kernels the patterns select. */
static int plan_kernels(builder *b, const char *const *patterns, size_t n_patterns) {
    const br_suite *s = b->s;
    if (s->n_kernels > 0) {
        b->selected = calloc(s->n_kernels, sizeof *b->selected);
        if (!b->selected)
            return br_error_at(b->at, "out of memory");
    }
    for (size_t k = 0; k < s->n_kernels; k++) {
        b->selected[k] = br_glob_any(s->kernels[k].text, patterns, n_patterns) != 0;
        b->n_kernels += b->selected[k];
    }
    return 0;
}

/* Combination c into b->row: first axis outermost, the last one fastest. */
static void fill_row(builder *b, size_t c) {
    const br_suite *s = b->s;
    size_t np = s->n_params, rest = c;
    for (size_t a = b->n_axes; a-- > 0;) {
        size_t idx = rest % b->axes[a].len;
        rest /= b->axes[a].len;
        size_t i = b->axes[a].first;
        do {
            b->row[i] = s->params[i].values[idx];
            i++;
        } while (i < np && s->params[i].zip && s->params[i].zip == s->params[b->axes[a].first].zip);
    }
}

/* Whether `where` keeps b->row (*keep), and that the plan stays within
 * BR_PLAN_MAX_CASES with `combos` rows kept so far. */
static int where_keeps(int64_t *keep, builder *b, size_t combos) {
    const br_suite *s = b->s;
    size_t np = s->n_params;
    for (size_t i = 0; i < np; i++)
        b->vars[i].value = b->row[i];
    if (br_expr_eval(keep, s->where.text, s->where.pos, b->vars, np) != 0) {
        /* Say which combination: the expression alone does not. */
        char msg[BR_ERROR_MAX], vals[512];
        snprintf(msg, sizeof msg, "%s", br_error_get());
        br_plan_describe(vals, sizeof vals, s, b->row);
        return br_error_set("%s (in 'where', for %s)", msg, vals);
    }
    /* With `where` the sweep may be far larger than the plan: stop at the
     * limit rather than keep up to br_plan_max_sweep() rows first. */
    if (*keep && (combos >= BR_PLAN_MAX_CASES ||
                  (b->n_kernels && combos * b->n_kernels >= BR_PLAN_MAX_CASES)))
        return br_error_at(s->where.pos,
                           "plan has more than %u cases ('where' keeps more than %zu "
                           "parameter combinations x %zu kernels)",
                           BR_PLAN_MAX_CASES, combos, b->n_kernels);
    return 0;
}

/* b->row as row `combos` of the table, which grows as rows are kept. */
static int keep_row(builder *b, size_t combos) {
    size_t np = b->s->n_params;
    if (combos == b->cap) {
        size_t ncap = b->cap ? b->cap * 2 : 64;
        if (ncap > b->raw)
            ncap = b->raw;
        int64_t *nv = realloc(b->out->values, (np ? ncap * np : 1) * sizeof *nv);
        if (!nv)
            return br_error_at(b->at, "out of memory");
        b->out->values = nv;
        b->cap = ncap;
    }
    if (np)
        memcpy(b->out->values + combos * np, b->row, np * sizeof *b->row);
    return 0;
}

/* The rows: every combination of the axes that `where` keeps. */
static int plan_rows(builder *b) {
    const br_suite *s = b->s;
    size_t np = s->n_params, combos = 0;
    b->row = calloc(np ? np : 1, sizeof *b->row);
    if (!b->row)
        return br_error_at(b->at, "out of memory");
    for (size_t i = 0; i < np; i++)
        b->vars[i].name = s->params[i].name;
    for (size_t c = 0; c < b->raw; c++) {
        fill_row(b, c);
        int64_t keep = 1;
        if (s->where.text && where_keeps(&keep, b, combos) < 0)
            return -1;
        if (!keep)
            continue;
        if (keep_row(b, combos) < 0)
            return -1;
        combos++;
    }
    if (!b->out->values && !(b->out->values = calloc(1, sizeof *b->out->values)))
        return br_error_at(b->at, "out of memory");
    b->out->n_params = np;
    b->out->n_combos = combos;
    b->out->n_swept = b->raw;
    return 0;
}

/* The cases: every kept combination with every selected kernel. */
static int plan_cases(builder *b) {
    br_plan *out = b->out;
    size_t combos = out->n_combos, n_cases = 0;
    if (__builtin_mul_overflow(combos, b->n_kernels, &n_cases) || n_cases > BR_PLAN_MAX_CASES)
        return br_error_at(b->at,
                           "plan has more than %u cases (%zu parameter combinations x %zu kernels)",
                           BR_PLAN_MAX_CASES, combos, b->n_kernels);
    out->cases = calloc(n_cases ? n_cases : 1, sizeof *out->cases);
    if (!out->cases)
        return br_error_at(b->at, "out of memory (plan of %zu cases)", n_cases);
    size_t n = 0;
    for (size_t c = 0; c < combos; c++)
        for (size_t k = 0; k < b->s->n_kernels; k++)
            if (b->selected[k])
                out->cases[n++] = (br_plan_case){.kernel = k, .combo = c};
    out->n_cases = n;
    return 0;
}

/* Expand s into *out; see plan.h. Returns 0, or -1 with the error set
 * ("plan has more than N cases"); *out is disposed by the caller either way. */
int br_plan_build(br_plan *out, const br_suite *s, const char *const *patterns, size_t n_patterns) {
    if (!out)
        return br_error_set("br_plan_build: no plan to build into");
    memset(out, 0, sizeof *out);
    if (!s)
        return br_error_set("br_plan_build: no suite");
    if (n_patterns > 0 && !patterns)
        return br_error_set("br_plan_build: %zu patterns but no pattern array", n_patterns);
    if (s->n_params > BR_SUITE_MAX_PARAMS)
        return br_error_set("br_plan_build: more than %d params", BR_SUITE_MAX_PARAMS);
    builder b = {.s = s, .out = out, .at = {s->path, 0, 0}};
    int rc = plan_axes(&b) < 0 || plan_kernels(&b, patterns, n_patterns) < 0 || plan_rows(&b) < 0 ||
                     plan_cases(&b) < 0
                 ? -1
                 : 0;
    free(b.row);
    free(b.selected);
    return rc;
}

int br_plan_apply_overrides(br_suite *s, const br_param_override *ov, size_t n, int *used) {
    for (size_t o = 0; o < n; o++) {
        br_param *p = NULL;
        for (size_t i = 0; i < s->n_params && !p; i++)
            if (strcmp(s->params[i].name, ov[o].name) == 0)
                p = &s->params[i];
        if (!p)
            continue;
        if (used)
            used[o] = 1;
        if (!p->zip) {
            int64_t *vals = malloc(ov[o].n_values * sizeof *vals);
            if (!vals)
                return br_error_nomem();
            memcpy(vals, ov[o].values, ov[o].n_values * sizeof *vals);
            free(p->values);
            p->values = vals;
            p->n_values = ov[o].n_values;
            continue;
        }
        /* A zipped parameter: keep the group's entries with one of the
         * values, for every member alike; a value no entry has is an error
         * (it cannot be added to a group the way a plain value can). */
        size_t len = p->n_values, kept = 0;
        for (size_t v = 0; v < ov[o].n_values; v++) {
            bool hit = false;
            for (size_t j = 0; j < len && !hit; j++)
                hit = p->values[j] == ov[o].values[v];
            if (!hit)
                return br_error_at(p->pos, "-p %s: no entry of zip group '%s' has %s = %lld",
                                   ov[o].name, p->group ? p->group : "", p->name,
                                   (long long)ov[o].values[v]);
        }
        for (size_t j = 0; j < len; j++) {
            bool hit = false;
            for (size_t v = 0; v < ov[o].n_values; v++)
                hit |= p->values[j] == ov[o].values[v];
            if (!hit)
                continue;
            for (size_t i = 0; i < s->n_params; i++)
                if (s->params[i].zip == p->zip)
                    s->params[i].values[kept] = s->params[i].values[j];
            kept++;
        }
        for (size_t i = 0; i < s->n_params; i++)
            if (s->params[i].zip == p->zip)
                s->params[i].n_values = kept;
    }
    return 0;
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

/* Set "-p TEXT: <the current error>" (the current error copied first). */
static int override_error(const char *text, const char *detail) {
    char copy[BR_ERROR_MAX];
    snprintf(copy, sizeof copy, "%s", detail ? detail : br_error_get());
    return br_error_set("-p %.200s: %s", text, copy);
}

/* Evaluate the constant expression text[0..len) into *out. */
static int override_value(int64_t *out, const char *text, const char *v, size_t len) {
    char buf[256];
    while (len > 0 && isspace((unsigned char)*v))
        v++, len--;
    while (len > 0 && isspace((unsigned char)v[len - 1]))
        len--;
    if (len == 0)
        return override_error(text, "expected a value (an integer or a constant "
                                    "expression such as 2^20), found nothing");
    if (len >= sizeof buf)
        return override_error(text, "value is too long");
    memcpy(buf, v, len);
    buf[len] = '\0';
    if (br_expr_eval(out, buf, (br_pos){NULL, 0, 0}, NULL, 0) != 0)
        return override_error(text, NULL);
    return 0;
}

int br_param_override_parse(br_param_override *out, const char *text) {
    memset(out, 0, sizeof *out);
    const char *eq = text ? strchr(text, '=') : NULL;
    if (!eq)
        return br_error_set("-p %.200s: expected NAME=VALUE or NAME=[A,B,...]", text ? text : "");
    size_t nlen = (size_t)(eq - text);
    int ident = nlen > 0 && (isalpha((unsigned char)text[0]) || text[0] == '_');
    for (size_t i = 0; i < nlen && ident; i++)
        ident = isalnum((unsigned char)text[i]) || text[i] == '_';
    if (!ident)
        return override_error(text, "the parameter name before '=' is not a C identifier");
    out->name = malloc(nlen + 1);
    if (!out->name)
        return br_error_nomem();
    memcpy(out->name, text, nlen);
    out->name[nlen] = '\0';

    const char *v = eq + 1;
    size_t vlen = strlen(v);
    while (vlen > 0 && isspace((unsigned char)*v))
        v++, vlen--;
    while (vlen > 0 && isspace((unsigned char)v[vlen - 1]))
        vlen--;
    int list = vlen > 0 && v[0] == '[';
    if (list) {
        if (v[vlen - 1] != ']')
            return override_error(text, "a list must end with ']'");
        v++;
        vlen -= 2;
    }
    size_t cap = 1;
    for (size_t i = 0; i < vlen; i++)
        cap += v[i] == ',';
    if (!list && cap > 1)
        return override_error(text, "several values must be given as a list: NAME=[A,B]");
    out->values = calloc(cap, sizeof *out->values);
    if (!out->values)
        return br_error_nomem();
    const char *p = v, *end = v + vlen;
    while (1) {
        const char *comma = memchr(p, ',', (size_t)(end - p));
        const char *stop = comma ? comma : end;
        int64_t x;
        if (override_value(&x, text, p, (size_t)(stop - p)) != 0)
            return -1;
        for (size_t j = 0; j < out->n_values; j++)
            if (out->values[j] == x) {
                char m[96];
                snprintf(m, sizeof m, "the value %lld is given twice", (long long)x);
                return override_error(text, m);
            }
        out->values[out->n_values++] = x;
        if (!comma)
            break;
        p = comma + 1;
    }
    return 0;
}

void br_param_override_dispose(br_param_override *o) {
    if (!o)
        return;
    free(o->name);
    free(o->values);
    memset(o, 0, sizeof *o);
}
