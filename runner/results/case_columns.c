/* SPDX-License-Identifier: Apache-2.0 */
/* The per-sample columns of a case lifted out of its text, and the members
 * its reader does not read left out: a scan of the case object, its "cold"
 * and "batch" objects, and the arrays of plain numbers under their column
 * keys, each number read by JSON's grammar (RFC 8259, section 6) to the
 * double that jansson's lexer gives it. */
#include "case_columns.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "json_scan.h"

const char *const br_case_column_keys[BR_COLUMN_COUNT] = {
    "samples_ns", "sm_mhz_samples", "cpu_mhz_samples", "switches",
    "event_ns",   "kernel_ns",      "span_ns",         "ops",
    "run_medians"};

/* Longest number token lifted (a double needs at most 17 significant
 * digits; longer ones stay with jansson). */
#define NUMBER_MAX 40

/* The real t[0..n) (a token of JSON's grammar) by Clinger's fast path
 * (W. D. Clinger, "How to read floating point numbers accurately", PLDI
 * 1990): with at most 15 significant digits m and a power of ten 10^e,
 * |e| <= 22, both are doubles exactly and m * 10^e (or m / 10^-e) is one
 * correctly rounded operation, the double strtod gives. 1 with *x, 0 when
 * the token is outside it. */
static int fast_real(const char *t, size_t n, double *x) {
    static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const char *p = t, *end = t + n;
    int neg = *p == '-', digits = 0, frac = 0, exp = 0, exp_neg = 0;
    int64_t m = 0;
    p += neg;
    for (int in_frac = 0; p < end && *p != 'e' && *p != 'E'; p++) {
        if (*p == '.') {
            in_frac = 1;
            continue;
        }
        digits += m > 0 || *p != '0';
        if (digits > 15)
            return 0;
        m = 10 * m + (*p - '0');
        frac += in_frac;
    }
    if (p < end) {
        p++;
        exp_neg = *p == '-';
        p += *p == '-' || *p == '+';
        for (; p < end; p++)
            if ((exp = 10 * exp + (*p - '0')) > 400)
                return 0;
    }
    int e = (exp_neg ? -exp : exp) - frac;
    if (e < -22 || e > 22)
        return 0;
    double v = e >= 0 ? (double)m * pow10[e] : (double)m / pow10[-e];
    *x = neg ? -v : v;
    return 1;
}

/* The length of the number token at t (JSON's grammar, as jansson's lexer
 * reads it; end: the end of the text), *real whether it has a fraction or
 * an exponent; 0 when there is no such token at t. An integer (no fraction,
 * no exponent) of more than 18 digits, or one too long, is not taken
 * either: jansson may find it too big. */
static size_t number_token(const char *t, const char *end, int *real) {
    const char *p = t;
    *real = 0;
    if (p < end && *p == '-')
        p++;
    const char *digits = p;
    while (p < end && *p >= '0' && *p <= '9')
        p++;
    if (p == digits || (*digits == '0' && p - digits > 1))
        return 0;
    size_t n_int = (size_t)(p - digits);
    if (p < end && *p == '.') {
        const char *f = ++p;
        while (p < end && *p >= '0' && *p <= '9')
            p++;
        if (p == f)
            return 0;
        *real = 1;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < end && (*p == '+' || *p == '-'))
            p++;
        const char *e = p;
        while (p < end && *p >= '0' && *p <= '9')
            p++;
        if (p == e)
            return 0;
        *real = 1;
    }
    size_t n = (size_t)(p - t);
    return n > NUMBER_MAX || (!*real && n_int > 18) ? 0 : n;
}

/* The real t[0..n) (a number_token) by strtod, which jansson calls (in
 * the "C" numeric locale; in another one strtod stops at the '.' and 0 is
 * returned); 0 too when it is not finite (jansson rejects an overflow). */
static int strtod_real(const char *t, size_t n, double *x) {
    char buf[NUMBER_MAX + 1], *stop;
    memcpy(buf, t, n);
    buf[n] = '\0';
    *x = strtod(buf, &stop);
    return stop == buf + n && isfinite(*x);
}

/* The number at s->i into *x, s->i past it: 1, or 0 when it is not one that
 * is read here as jansson reads it (number_token). An integer is jansson's
 * long long, converted; a real fast_real's, else strtod's. */
static int read_number(scan *s, double *x) {
    const char *t = s->t + s->i;
    int real;
    size_t n = number_token(t, s->t + s->len, &real);
    if (n == 0)
        return 0;
    if (!real) {
        long long v = 0;
        for (const char *d = t + (*t == '-'); d < t + n; d++)
            v = 10 * v + (*d - '0');
        *x = (double)(*t == '-' ? -v : v);
    } else if (!fast_real(t, n, x) && !strtod_real(t, n, x))
        return 0;
    s->i += n;
    return 1;
}

/* Past the number or literal (null, true, false) at s->i that jansson
 * reads without an error: 1, else 0 (s->i unchanged). A real's value is
 * found only when it has an exponent (one without cannot overflow within
 * NUMBER_MAX characters). */
static int skip_scalar(scan *s) {
    static const char *const literal[] = {"null", "true", "false"};
    const char *t = s->t + s->i;
    size_t left = s->len - s->i;
    int real;
    size_t n = number_token(t, t + left, &real);
    double x;
    if (n > 0) {
        if (real && (memchr(t, 'e', n) || memchr(t, 'E', n)) && !strtod_real(t, n, &x))
            return 0;
        s->i += n;
        return 1;
    }
    for (size_t j = 0; j < 3; j++) {
        size_t m = strlen(literal[j]);
        if (left >= m && memcmp(t, literal[j], m) == 0) {
            s->i += m;
            return 1;
        }
    }
    return 0;
}

/* Room for one more number in c->v. */
static int grow_values(br_case_columns *c) {
    if (c->n_v < c->v_cap)
        return 0;
    size_t cap = c->v_cap ? 2 * c->v_cap : 256;
    double *v = realloc(c->v, cap * sizeof *v);
    if (!v)
        return br_error_nomem();
    c->v = v;
    c->v_cap = cap;
    return 0;
}

/* The array at s->i (its '[') as plain numbers appended to c->v: 1 with
 * s->i past its ']', 0 when it is empty or holds anything else (c->v as it
 * was), -1 out of memory. */
static int read_numbers(scan *s, br_case_columns *c) {
    size_t first = c->n_v;
    s->i++;
    if (at(s, ']'))
        return 0;
    for (;;) {
        ws(s);
        if (grow_values(c) != 0)
            return -1;
        if (!read_number(s, &c->v[c->n_v]))
            break;
        c->n_v++;
        if (at(s, ']')) {
            s->i++;
            return 1;
        }
        if (!at(s, ','))
            break;
        s->i++;
    }
    c->n_v = first;
    return 0;
}

/* The members of a case and of its timings that the reader does not read
 * (its statistics are recomputed from the samples, its rates from the
 * run): left out of the text when their value is a number or a literal. */
static const char *const case_unread[] = {"gbps",    "gflops",   "pct_peak",
                                          "speedup", "roofline", "verified"};
static const char *const timing_unread[] = {"n",
                                            "min",
                                            "max",
                                            "mean",
                                            "median",
                                            "stddev",
                                            "noise",
                                            "q1",
                                            "q3",
                                            "iqr",
                                            "ci_low",
                                            "ci_high",
                                            "ci_level",
                                            "outliers",
                                            "event_median_ns",
                                            "kernel_median_ns",
                                            "span_median_ns",
                                            "ops_median"};

/* The edits of a case's text: text[from, to) replaced by "[]" (a lifted
 * column) or by nothing (a member left out), in the order of the text. */
typedef struct edit {
    size_t from, to;
    int brackets;
} edit;
#define MAX_EDITS 64
typedef struct edits {
    edit e[MAX_EDITS];
    size_t n;
} edits;

/* The index of the key [k, k + kn) in names[n], or -1. */
static int key_index(const char *k, size_t kn, const char *const *names, size_t n) {
    for (size_t j = 0; j < n; j++)
        if (is_key(k, kn, names[j]))
            return (int)j;
    return -1;
}

/* The member of timing t (object) at s->i, its key column `col` (-1: not a
 * column): its array lifted (1, an edit added), or 0. -1 out of memory. */
static int lift_member(scan *s, br_case_columns *c, int t, int col, edits *ed) {
    size_t from = s->i, at_v = c->n_v;
    int got = 0;
    if (col >= 0 && c->n[t][col] == 0 && at(s, '[') && (got = read_numbers(s, c)) < 0)
        return -1;
    if (got == 0) {
        s->i = from;
        return 0;
    }
    c->at[t][col] = at_v;
    c->n[t][col] = c->n_v - at_v;
    ed->e[ed->n++] = (edit){from, s->i, 1};
    return 1;
}

/* The object at s->i (its '{'): the case (t < 0; its "cold" and "batch"
 * objects scanned as timings 0 and 1) or timing t. Members it does not read
 * are left out (an edit from a member's key to the next member's; never the
 * last member, so that the commas stay right); a key with an escape, or one
 * of those twice (jansson rejects a duplicate), and nothing of the case is
 * changed (s->ok 0). 0, or -1 out of memory. */
static int scan_object(scan *s, br_case_columns *c, int t, edits *ed) {
    const char *const *unread = t < 0 ? case_unread : timing_unread;
    size_t n_unread = t < 0 ? sizeof case_unread / sizeof *case_unread
                            : sizeof timing_unread / sizeof *timing_unread;
    const char *k;
    size_t kn, pending = 0;
    uint32_t seen = 0;
    s->i++;
    for (int first = 1; next_member(s, first, &k, &kn); first = 0) {
        size_t key_at = (size_t)(k - s->t) - 1;
        if (ed->n + 3 > MAX_EDITS) /* this member's edits, and the one before's */
            return s->ok = 0;
        if (pending) /* the member before is left out, up to this key */
            ed->e[ed->n++] = (edit){pending, key_at, 0};
        pending = 0;
        int u = key_index(k, kn, unread, n_unread);
        if (memchr(k, '\\', kn) || (u >= 0 && (seen & 1u << u)))
            return s->ok = 0;
        seen |= u >= 0 ? 1u << u : 0;
        int timing = t >= 0                   ? -1
                     : is_key(k, kn, "cold")  ? BR_COLUMN_COLD
                     : is_key(k, kn, "batch") ? BR_COLUMN_BATCH
                                              : -1;
        int got = 0;
        if (timing >= 0 && at(s, '{'))
            got = scan_object(s, c, timing, ed) == 0 ? 1 : -1;
        else if (t >= 0)
            got = lift_member(s, c, t, key_index(k, kn, br_case_column_keys, BR_COLUMN_COUNT), ed);
        if (got < 0)
            return -1;
        if (got == 0 && u >= 0 && skip_scalar(s))
            pending = key_at;
        else if (got == 0)
            skip_value(s);
    }
    return 0;
}

/* The case's text with its edits into c->buf. */
static int write_text(br_case_columns *c, const char *text, size_t len, const edits *ed) {
    size_t need = len + 1;
    for (size_t i = 0; i < ed->n; i++)
        need -= ed->e[i].to - ed->e[i].from - (ed->e[i].brackets ? 2 : 0);
    if (need > c->buf_cap) {
        char *b = realloc(c->buf, need);
        if (!b)
            return br_error_nomem();
        c->buf = b;
        c->buf_cap = need;
    }
    size_t from = 0, k = 0;
    for (size_t i = 0; i < ed->n; i++) {
        memcpy(c->buf + k, text + from, ed->e[i].from - from);
        k += ed->e[i].from - from;
        if (ed->e[i].brackets) {
            memcpy(c->buf + k, "[]", 2);
            k += 2;
        }
        from = ed->e[i].to;
    }
    memcpy(c->buf + k, text + from, len - from);
    k += len - from;
    c->buf[k] = '\0';
    c->text = c->buf;
    c->len = k;
    return 0;
}

int br_case_columns_lift(br_case_columns *c, const char *text, size_t len) {
    scan s = {text, len, 0, 1};
    edits ed;
    ed.n = 0;
    memset(c->n, 0, sizeof c->n);
    c->n_v = 0;
    c->text = text;
    c->len = len;
    if (!at(&s, '{'))
        return 0;
    if (scan_object(&s, c, -1, &ed) != 0)
        return -1;
    ws(&s);
    if (!s.ok || s.i != len || ed.n == 0) { /* not an object, or nothing to change */
        memset(c->n, 0, sizeof c->n);
        c->n_v = 0;
        return 0;
    }
    return write_text(c, text, len, &ed);
}

const double *br_case_columns_get(const br_case_columns *c, int t, br_case_column k, size_t *n) {
    *n = c && t >= 0 && t < BR_COLUMN_TIMINGS ? c->n[t][k] : 0;
    return *n ? c->v + c->at[t][k] : NULL;
}

void br_case_columns_free(br_case_columns *c) {
    if (!c)
        return;
    free(c->v);
    free(c->buf);
    c->v = NULL;
    c->buf = NULL;
    c->n_v = c->v_cap = c->buf_cap = 0;
}
