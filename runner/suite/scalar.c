/* SPDX-License-Identifier: Apache-2.0 */
/* Typed scalars of a suite (see scalar.h): integers, durations,
 * fractions, booleans, modes, with the messages that say what was expected
 * and what was found ("did you mean ..." for a near miss). The command line
 * reads its values through the same functions (br_parse_duration, ...). */
#include "scalar.h"

#include "expr.h"
#include "base/name.h"
#include "base/strdist.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Longest duration accepted, ns (about 31 years). */
#define SUITE_MAX_DURATION_NS 1e18

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Quote user text for a message: 'text', control bytes escaped, long text
 * cut at a character boundary with "...". */
void br_show(char *dst, size_t cap, const char *s, size_t len) {
    size_t o = 0;
    if (cap < 8) {
        if (cap)
            dst[0] = '\0';
        return;
    }
    dst[o++] = '\'';
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (i >= BR_SHOW_MAX && (c & 0xC0) != 0x80) {
            if (o + 5 < cap)
                o += (size_t)snprintf(dst + o, cap - o, "...");
            break;
        }
        if (c < 0x20 || c == 0x7f) {
            if (o + 6 >= cap)
                break;
            o += (size_t)snprintf(dst + o, cap - o, "\\x%02X", (unsigned)c);
        } else {
            if (o + 3 >= cap)
                break;
            dst[o++] = (char)c;
        }
    }
    dst[o++] = '\'';
    dst[o] = '\0';
}

/* Like br_show() for a scalar, but a plain number-like value (25, 1.5e9, 25ms,
 * 150%) is left unquoted. */
void br_show_node(char *dst, size_t cap, const br_node *n) {
    bool bare = n->style == YAML_PLAIN_SCALAR_STYLE && n->len > 0 && n->len <= BR_SHOW_MAX &&
                strchr("+-.0123456789", n->text[0]) != NULL;
    for (size_t i = 0; bare && i < n->len; i++) {
        unsigned char c = (unsigned char)n->text[i];
        bare = c > 0x20 && c != 0x7f && c != '\'' && c != '\\';
    }
    if (bare)
        snprintf(dst, cap, "%s", n->text);
    else
        br_show(dst, cap, n->text, n->len);
}

bool br_is_null(const br_node *n) {
    if (n->kind != BR_NODE_SCALAR || n->style != YAML_PLAIN_SCALAR_STYLE)
        return false;
    return n->len == 0 || strcmp(n->text, "~") == 0 || strcmp(n->text, "null") == 0 ||
           strcmp(n->text, "Null") == 0 || strcmp(n->text, "NULL") == 0;
}

static bool all_digits(const char *s, size_t len) {
    if (len == 0)
        return false;
    for (size_t i = 0; i < len; i++)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return true;
}

/* An integer literal: [+-]?[0-9]+ */
static bool looks_like_int(const char *s, size_t len) {
    if (len > 0 && (s[0] == '+' || s[0] == '-'))
        return all_digits(s + 1, len - 1);
    return all_digits(s, len);
}

/* 10^e for 0 <= e <= 400 (exact up to 10^22). */
static double pow10i(long e) {
    double r = 1;
    while (e-- > 0)
        r *= 10;
    return r;
}

/* Parse [+-]? digits ('.' digits)? ([eE] [+-]? digits)? exactly; no sign when
 * allow_sign is false. Returns false when text is not such a number. */
static bool parse_decimal(const char *s, size_t len, bool allow_sign, double *out) {
    size_t i = 0;
    bool neg = false;
    if (allow_sign && i < len && (s[i] == '+' || s[i] == '-'))
        neg = s[i++] == '-';
    double m = 0;
    int digits = 0, frac = 0;
    while (i < len && s[i] >= '0' && s[i] <= '9') {
        m = m * 10 + (s[i++] - '0');
        digits++;
    }
    if (i < len && s[i] == '.') {
        i++;
        while (i < len && s[i] >= '0' && s[i] <= '9') {
            m = m * 10 + (s[i++] - '0');
            frac++;
        }
        if (frac == 0)
            return false;
    }
    if (digits == 0)
        return false;
    long e = 0;
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        bool eneg = false;
        if (i < len && (s[i] == '+' || s[i] == '-'))
            eneg = s[i++] == '-';
        int edigits = 0;
        while (i < len && s[i] >= '0' && s[i] <= '9') {
            if (e < 100000)
                e = e * 10 + (s[i] - '0');
            i++;
            edigits++;
        }
        if (edigits == 0)
            return false;
        if (eneg)
            e = -e;
    }
    if (i != len)
        return false;
    e -= frac;
    if (e > 400)
        m = m == 0 ? 0 : INFINITY;
    else if (e < -400)
        m = 0;
    else if (e >= 0)
        m *= pow10i(e);
    else
        m /= pow10i(-e);
    *out = neg ? -m : m;
    return true;
}

/* A plain scalar that YAML reads as a float: 1.5, 1e6, .inf, .nan */
bool br_looks_like_float(const br_node *n) {
    if (n->kind != BR_NODE_SCALAR || n->style != YAML_PLAIN_SCALAR_STYLE)
        return false;
    double v;
    const char *t = n->text;
    if (strcmp(t, ".inf") == 0 || strcmp(t, "-.inf") == 0 || strcmp(t, "+.inf") == 0 ||
        strcmp(t, ".nan") == 0 || strcmp(t, ".Inf") == 0 || strcmp(t, ".NaN") == 0 ||
        strcmp(t, ".INF") == 0 || strcmp(t, ".NAN") == 0)
        return true;
    return !looks_like_int(t, n->len) && parse_decimal(t, n->len, true, &v);
}

/* "a mapping", "a list", "an empty value", "the number 1.5", "'text'" */
static void describe(char *dst, size_t cap, const br_node *n) {
    if (n->kind == BR_NODE_MAP) {
        snprintf(dst, cap, "%s", n->n_items ? "a mapping" : "an empty mapping");
    } else if (n->kind == BR_NODE_SEQ) {
        snprintf(dst, cap, "%s", n->n_items ? "a list" : "an empty list");
    } else if (br_is_null(n)) {
        snprintf(dst, cap, "%s", n->len == 0 ? "an empty value" : "null");
    } else if (n->style == YAML_PLAIN_SCALAR_STYLE && looks_like_int(n->text, n->len)) {
        char q[BR_SHOW_MAX + 16];
        br_show_node(q, sizeof q, n);
        snprintf(dst, cap, "the integer %s", q);
    } else if (br_looks_like_float(n)) {
        char q[BR_SHOW_MAX + 16];
        br_show_node(q, sizeof q, n);
        snprintf(dst, cap, "the number %s", q);
    } else {
        char q[BR_SHOW_MAX + 16];
        br_show(q, sizeof q, n->text, n->len);
        snprintf(dst, cap, "the string %s", q);
    }
}

/* "expected WHAT, found ..." at the node. Returns -1. */
int br_expected(const br_node *n, const char *what) {
    char found[BR_SHOW_MAX + 64];
    describe(found, sizeof found, n);
    return br_error_at(n->pos, "expected %s, found %s", what, found);
}

/* " (did you mean 'x'?)" for a close candidate, else " (expected one of: ...)". */
void br_suggest(char *dst, size_t cap, const char *s, size_t len, const char *const *valid,
                size_t n_valid) {
    size_t best = (size_t)-1, best_d = 1000;
    for (size_t i = 0; i < n_valid; i++) {
        size_t d = br_strdist(s, len, valid[i], strlen(valid[i]));
        if (d < best_d) {
            best_d = d;
            best = i;
        }
    }
    if (best != (size_t)-1 && (best_d <= 2 || 3 * best_d <= strlen(valid[best]))) {
        snprintf(dst, cap, " (did you mean '%s'?)", valid[best]);
        return;
    }
    size_t o = 0;
    int w = snprintf(dst, cap, " (expected one of: ");
    if (w < 0 || (size_t)w >= cap)
        return;
    o = (size_t)w;
    for (size_t i = 0; i < n_valid; i++) {
        w = snprintf(dst + o, cap - o, "%s%s", i ? ", " : "", valid[i]);
        if (w < 0 || (size_t)w >= cap - o)
            return;
        o += (size_t)w;
    }
    snprintf(dst + o, cap - o, ")");
}

/* Position of text[0] of a scalar: one past an opening quote. */
br_pos br_text_pos(const br_node *n) {
    br_pos p = n->pos;
    if ((n->style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
         n->style == YAML_DOUBLE_QUOTED_SCALAR_STYLE) &&
        p.column > 0)
        p.column++;
    return p;
}

/* A string value (any non-null scalar without NUL bytes); `what` says what was
 * expected ("a string"). The copy in *out is owned by the caller. */
int br_get_text(char **out, const br_node *n, const char *what) {
    *out = NULL;
    if (n->kind != BR_NODE_SCALAR || br_is_null(n))
        return br_expected(n, what);
    if (memchr(n->text, '\0', n->len))
        return br_error_at(n->pos, "expected %s, found a string with a NUL character", what);
    *out = strdup(n->text);
    if (!*out)
        return br_error_at(n->pos, "out of memory");
    return 0;
}

int br_get_name(int *out, const br_node *n, const br_name *t, int refused, const char *what,
                const char *expected) {
    char *text = NULL;
    if (br_get_text(&text, n, expected) < 0)
        return -1;
    int v = 0, rc = 0;
    if (br_name_find(&v, t, text) == 0 && v != refused) {
        *out = v;
    } else {
        const char *names[64]; /* the table's, in its order, but the refused one */
        size_t m = 0;
        for (const br_name *e = t; e->name && m < sizeof names / sizeof *names; e++)
            if (e->value != refused)
                names[m++] = e->name;
        char q[BR_SHOW_MAX + 16], hint[512];
        br_show(q, sizeof q, n->text, n->len);
        br_suggest(hint, sizeof hint, n->text, n->len, names, m);
        rc = br_error_at(n->pos, "unknown %s %s%s", what, q, hint);
    }
    free(text);
    return rc;
}

int br_get_located(br_located *out, const br_node *n, const char *what) {
    out->pos = br_text_pos(n);
    return br_get_text(&out->text, n, what);
}

bool br_is_identifier(const char *s) {
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
        return false;
    for (s++; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '_'))
            return false;
    return true;
}

int br_check_name(const char *text, const br_node *n, const char *what) {
    char why[128];
    size_t at;
    if (br_name_check(why, sizeof why, &at, text, strlen(text)) == 0)
        return 0;
    char q[BR_SHOW_MAX + 16];
    br_show(q, sizeof q, n->text, n->len);
    return br_error_at(n->pos, "%s %s %s", what, q, why);
}

int br_check_identifier(const char *text, const br_node *n, const char *what) {
    if (br_is_identifier(text))
        return br_check_name(text, n, what); /* its length */
    char q[BR_SHOW_MAX + 16];
    br_show(q, sizeof q, n->text, n->len);
    return br_error_at(n->pos,
                       "%s %s is not a C identifier (letters, digits and '_', not starting "
                       "with a digit)",
                       what, q);
}

/* A one-line scalar for an expression (so columns can be counted). */
int br_check_one_line(const br_node *n, const char *what) {
    if (n->kind != BR_NODE_SCALAR || br_is_null(n))
        return br_expected(n, what);
    if (n->style == YAML_LITERAL_SCALAR_STYLE || n->style == YAML_FOLDED_SCALAR_STYLE ||
        n->end_line != n->pos.line)
        return br_error_at(n->pos, "expected %s on one line, found a multi-line string", what);
    if (memchr(n->text, '\0', n->len))
        return br_error_at(n->pos, "expected %s, found a string with a NUL character", what);
    return 0;
}

/* An integer: a literal, or a constant expression such as "2^20". */
int br_get_int(int64_t *out, const br_node *n) {
    if (n->kind != BR_NODE_SCALAR || br_is_null(n))
        return br_expected(n, "an integer");
    if (br_looks_like_float(n))
        return br_expected(n, "an integer");
    if (br_check_one_line(n, "an integer") < 0)
        return -1;
    if (looks_like_int(n->text, n->len)) {
        const char *t = n->text;
        bool neg = t[0] == '-';
        size_t i = (t[0] == '-' || t[0] == '+') ? 1 : 0;
        int64_t v = 0;
        for (; i < n->len; i++) {
            int d = t[i] - '0';
            if (__builtin_mul_overflow(v, 10, &v) ||
                (neg ? __builtin_sub_overflow(v, d, &v) : __builtin_add_overflow(v, d, &v))) {
                char q[BR_SHOW_MAX + 16];
                br_show_node(q, sizeof q, n);
                return br_error_at(n->pos, "integer %s is out of range (expected -2^63 to 2^63-1)",
                                   q);
            }
        }
        *out = v;
        return 0;
    }
    return br_expr_eval(out, n->text, br_text_pos(n), NULL, 0);
}

/* A duration such as 25ms or 1.5s, in ns. */
int br_get_duration(double *out, const br_node *n) {
    static const struct {
        const char *unit;
        double ns;
    } units[] = {{"ns", 1},  {"us", 1e3},   {"\xC2\xB5s", 1e3}, {"\xCE\xBCs", 1e3}, {"ms", 1e6},
                 {"s", 1e9}, {"min", 60e9}, {"m", 60e9},        {"h", 3600e9}};
    const char *what = "a duration such as 25ms or 1.5s";
    if (n->kind != BR_NODE_SCALAR || br_is_null(n) || memchr(n->text, '\0', n->len))
        return br_expected(n, what);
    char q[BR_SHOW_MAX + 16];
    br_show_node(q, sizeof q, n);
    const char *t = n->text;
    size_t i = 0;
    if (t[0] == '-' || t[0] == '+') {
        if (t[0] == '-')
            return br_error_at(n->pos, "a duration cannot be negative, found %s", q);
        i++;
    }
    size_t start = i;
    while (i < n->len && ((t[i] >= '0' && t[i] <= '9') || t[i] == '.'))
        i++;
    double v = 0;
    if (i == start || !parse_decimal(t + start, i - start, false, &v))
        return br_expected(n, what);
    size_t num_end = i;
    while (i < n->len && t[i] == ' ')
        i++;
    if (i == n->len)
        return br_error_at(n->pos,
                           "expected a duration such as 25ms or 1.5s, found %s "
                           "(a unit is missing: ns, us, ms, s, m or h)",
                           q);
    for (size_t u = 0; u < COUNT(units); u++) {
        if (strcmp(t + i, units[u].unit) == 0) {
            /* Exact for decimal fractions of a unit: mantissa * unit / 10^frac. */
            const char *dot = memchr(t + start, '.', num_end - start);
            double ns = 0;
            if (dot) {
                size_t frac = num_end - (size_t)(dot - t) - 1;
                double m = 0;
                for (size_t j = start; j < num_end; j++)
                    if (t[j] != '.')
                        m = m * 10 + (t[j] - '0');
                ns = m * units[u].ns / pow10i((long)frac);
            } else {
                ns = v * units[u].ns;
            }
            if (!(ns <= SUITE_MAX_DURATION_NS))
                return br_error_at(n->pos, "duration %s is too long (at most 1e9 s)", q);
            *out = ns;
            return 0;
        }
    }
    char uq[BR_SHOW_MAX + 16];
    br_show(uq, sizeof uq, t + i, n->len - i);
    return br_error_at(n->pos,
                       "expected a duration such as 25ms or 1.5s, found %s "
                       "(unknown unit %s: use ns, us, ms, s, m or h)",
                       q, uq);
}

/* A fraction: "0.5%" or a plain number in (0, 1); stored as a fraction.
 * `name` is the key, for messages. */
int br_get_fraction(double *out, const br_node *n, const char *name) {
    const char *what = "a percentage such as 0.5% or a fraction such as 0.005";
    if (n->kind != BR_NODE_SCALAR || br_is_null(n) || memchr(n->text, '\0', n->len))
        return br_expected(n, what);
    char q[BR_SHOW_MAX + 16];
    br_show_node(q, sizeof q, n);
    double v = 0;
    if (n->len > 1 && n->text[n->len - 1] == '%') {
        if (!parse_decimal(n->text, n->len - 1, true, &v))
            return br_expected(n, what);
        if (!(v > 0 && v < 100))
            return br_error_at(n->pos, "%s must be between 0%% and 100%%, found %s", name, q);
        *out = v / 100;
        return 0;
    }
    if (n->style != YAML_PLAIN_SCALAR_STYLE || !parse_decimal(n->text, n->len, true, &v))
        return br_expected(n, what);
    if (!(v > 0 && v < 1))
        return br_error_at(n->pos,
                           "%s must be a fraction between 0 and 1 or a percentage "
                           "such as 0.5%%, found %s",
                           name, q);
    *out = v;
    return 0;
}

/* true/false (also yes/no, on/off as YAML 1.1 spells them). */
int br_get_bool(int *out, const br_node *n) {
    static const char *const yes[] = {"true", "True", "TRUE", "yes", "Yes", "on", "On"};
    static const char *const no[] = {"false", "False", "FALSE", "no", "No", "off", "Off"};
    if (n->kind == BR_NODE_SCALAR && n->style == YAML_PLAIN_SCALAR_STYLE) {
        for (size_t i = 0; i < COUNT(yes); i++) {
            if (strcmp(n->text, yes[i]) == 0) {
                *out = 1;
                return 0;
            }
            if (strcmp(n->text, no[i]) == 0) {
                *out = 0;
                return 0;
            }
        }
    }
    return br_expected(n, "true or false");
}

/* cold, batch or (with `both_ok`) both. */
int br_get_mode(br_mode *out, const br_node *n, bool both_ok) {
    const char *what = both_ok ? "a mode (cold, batch or both)" : "cold or batch";
    if (n->kind != BR_NODE_SCALAR || br_is_null(n))
        return br_expected(n, what);
    int m = 0;
    if (br_name_find(&m, br_mode_names, n->text) == 0 && (both_ok || m != BR_MODE_BOTH)) {
        *out = (br_mode)m;
        return 0;
    }
    const char *modes[4];
    size_t n_modes = br_names_of(modes, COUNT(modes), br_mode_names);
    char q[BR_SHOW_MAX + 16], hint[256] = "";
    br_show(q, sizeof q, n->text, n->len);
    if (both_ok || strcmp(n->text, "both") != 0)
        br_suggest(hint, sizeof hint, n->text, n->len, modes, both_ok ? n_modes : n_modes - 1);
    return br_error_at(n->pos, "unknown %s %s (expected %s)%s", both_ok ? "mode" : "headline", q,
                       both_ok ? "cold, batch or both" : "cold or batch", hint);
}

size_t br_names_of(const char **out, size_t cap, const br_name *t) {
    size_t n = 0;
    for (; t->name && n < cap; t++)
        out[n++] = t->name;
    return n;
}

/* A command-line value as a scalar node, so the suite's own checks and
 * messages apply; errors name the option. */
static br_node cli_node(const char *option, const char *text) {
    br_node n = {0};
    n.kind = BR_NODE_SCALAR;
    n.pos = (br_pos){option, 0, 0};
    n.style = YAML_PLAIN_SCALAR_STYLE;
    n.text = (char *)text;
    n.len = strlen(text);
    return n;
}

int br_parse_duration(double *out_ns, const char *option, const char *text) {
    br_node n = cli_node(option, text ? text : "");
    return br_get_duration(out_ns, &n);
}

int br_parse_fraction(double *out, const char *option, const char *text) {
    br_node n = cli_node(option, text ? text : "");
    return br_get_fraction(out, &n, option);
}

int br_parse_mode(br_mode *out, const char *option, const char *text, int both_ok) {
    br_node n = cli_node(option, text ? text : "");
    return br_get_mode(out, &n, both_ok != 0);
}
