/* suite.c - load a YAML suite file into the suite model (see suite.h).
 *
 * Two steps. First the libyaml event stream is turned into a small tree of
 * nodes that keep their file positions (rejecting anchors, aliases, tags, deep
 * nesting and extra documents on the way). Then the tree is checked against
 * the suite format key by key. Every error is set once, where it is found, at
 * the line and column of the offending key or value.
 */
#include "results/settings.h"
#include "suite.h"

#include "build/build.h"
#include "expr.h"
#include "base/util.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

/* Largest suite file accepted, bytes. */
#define SUITE_MAX_BYTES (1024u * 1024u)
/* Deepest nesting of mappings and lists accepted. */
#define SUITE_MAX_DEPTH 32
/* Longest user text quoted in a message, bytes. */
#define SHOW_MAX 48
/* Longest duration accepted, ns (about 31 years). */
#define SUITE_MAX_DURATION_NS 1e18

/* ---------------------------------------------------------------------------
 * The node tree
 */

typedef enum node_kind { NODE_SCALAR, NODE_SEQ, NODE_MAP } node_kind;

typedef struct node {
    node_kind kind;
    br_pos pos;   /* where the node starts: first character, quote, '[', '{', '-' or first key */
    int end_line; /* scalars: line where the scalar ends */
    yaml_scalar_style_t style; /* scalars */
    char *text;                /* scalars: owned, NUL-terminated, may hold NULs */
    size_t len;                /* scalars: length of text */
    struct node **items;       /* seq: elements; map: key, value, key, value, ... */
    size_t n_items;
    size_t cap_items;
} node;

static void node_free(node *n) {
    if (!n)
        return;
    for (size_t i = 0; i < n->n_items; i++)
        node_free(n->items[i]);
    free(n->items);
    free(n->text);
    free(n);
}

static size_t map_size(const node *m) {
    return m->n_items / 2;
}

static node *map_key(const node *m, size_t i) {
    return m->items[2 * i];
}

static node *map_value(const node *m, size_t i) {
    return m->items[2 * i + 1];
}

static int append(node *parent, node *child) {
    if (parent->n_items == parent->cap_items) {
        size_t cap = parent->cap_items ? 2 * parent->cap_items : 8;
        node **items = realloc(parent->items, cap * sizeof *items);
        if (!items)
            return -1;
        parent->items = items;
        parent->cap_items = cap;
    }
    parent->items[parent->n_items++] = child;
    return 0;
}

/* ---------------------------------------------------------------------------
 * Messages
 */

/* Quote user text for a message: 'text', control bytes escaped, long text
 * cut at a character boundary with "...". */
static void show(char *dst, size_t cap, const char *s, size_t len) {
    size_t o = 0;
    if (cap < 8) {
        if (cap)
            dst[0] = '\0';
        return;
    }
    dst[o++] = '\'';
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (i >= SHOW_MAX && (c & 0xC0) != 0x80) {
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

/* Like show() for a scalar, but a plain number-like value (25, 1.5e9, 25ms,
 * 150%) is left unquoted. */
static void show_node(char *dst, size_t cap, const node *n) {
    bool bare = n->style == YAML_PLAIN_SCALAR_STYLE && n->len > 0 && n->len <= SHOW_MAX &&
                strchr("+-.0123456789", n->text[0]) != NULL;
    for (size_t i = 0; bare && i < n->len; i++) {
        unsigned char c = (unsigned char)n->text[i];
        bare = c > 0x20 && c != 0x7f && c != '\'' && c != '\\';
    }
    if (bare)
        snprintf(dst, cap, "%s", n->text);
    else
        show(dst, cap, n->text, n->len);
}

static bool is_null_scalar(const node *n) {
    if (n->kind != NODE_SCALAR || n->style != YAML_PLAIN_SCALAR_STYLE)
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
static bool looks_like_float(const node *n) {
    if (n->kind != NODE_SCALAR || n->style != YAML_PLAIN_SCALAR_STYLE)
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
static void describe(char *dst, size_t cap, const node *n) {
    if (n->kind == NODE_MAP) {
        snprintf(dst, cap, "%s", n->n_items ? "a mapping" : "an empty mapping");
    } else if (n->kind == NODE_SEQ) {
        snprintf(dst, cap, "%s", n->n_items ? "a list" : "an empty list");
    } else if (is_null_scalar(n)) {
        snprintf(dst, cap, "%s", n->len == 0 ? "an empty value" : "null");
    } else if (n->style == YAML_PLAIN_SCALAR_STYLE && looks_like_int(n->text, n->len)) {
        char q[SHOW_MAX + 16];
        show_node(q, sizeof q, n);
        snprintf(dst, cap, "the integer %s", q);
    } else if (looks_like_float(n)) {
        char q[SHOW_MAX + 16];
        show_node(q, sizeof q, n);
        snprintf(dst, cap, "the number %s", q);
    } else {
        char q[SHOW_MAX + 16];
        show(q, sizeof q, n->text, n->len);
        snprintf(dst, cap, "the string %s", q);
    }
}

/* "expected WHAT, found ..." at the node. Returns -1. */
static int expected(const node *n, const char *what) {
    char found[SHOW_MAX + 64];
    describe(found, sizeof found, n);
    return br_error_at(n->pos, "expected %s, found %s", what, found);
}

/* Levenshtein distance of a and b (both at most 64 bytes, else a large value). */
static size_t edit_distance(const char *a, size_t la, const char *b, size_t lb) {
    if (la > 64 || lb > 64)
        return 1000;
    size_t row[65];
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

/* " (did you mean 'x'?)" for a close candidate, else " (expected one of: ...)". */
static void suggest(char *dst, size_t cap, const char *s, size_t len, const char *const *valid,
                    size_t n_valid) {
    size_t best = (size_t)-1, best_d = 1000;
    for (size_t i = 0; i < n_valid; i++) {
        size_t d = edit_distance(s, len, valid[i], strlen(valid[i]));
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

/* ---------------------------------------------------------------------------
 * Reading the file and building the tree
 */

static br_pos mark_pos(const br_suite *s, yaml_mark_t m) {
    br_pos p = {s->path, 0, 0};
    p.line = m.line >= 1000000000u ? 1000000000 : (int)m.line + 1;
    p.column = m.column >= 1000000000u ? 1000000000 : (int)m.column + 1;
    return p;
}

/* Line and column (in characters, like libyaml's marks) of byte `offset`. */
static br_pos offset_pos(const br_suite *s, const unsigned char *buf, size_t len, size_t offset) {
    br_pos p = {s->path, 1, 1};
    if (offset > len)
        offset = len;
    for (size_t i = 0; i < offset; i++) {
        unsigned char c = buf[i];
        if (c == '\n' || (c == '\r' && !(i + 1 < len && buf[i + 1] == '\n'))) {
            p.line++;
            p.column = 1;
        } else if ((c & 0xC0) != 0x80 && c != '\r') {
            p.column++;
        }
    }
    return p;
}

/* Report the parser's error. Returns -1. */
static int yaml_failure(const br_suite *s, const yaml_parser_t *yp, const unsigned char *buf,
                        size_t len) {
    const char *problem = yp->problem ? yp->problem : "invalid YAML";
    br_pos at = {s->path, 1, 1};
    switch (yp->error) {
    case YAML_MEMORY_ERROR:
        return br_error_at(at, "out of memory while parsing");
    case YAML_READER_ERROR:
        at = offset_pos(s, buf, len, yp->problem_offset);
        if (strstr(problem, "octet") && yp->problem_value >= 0)
            return br_error_at(at, "%s (byte 0x%02X): a suite must be UTF-8", problem,
                               (unsigned)yp->problem_value & 0xFFu);
        if (yp->problem_value >= 0)
            return br_error_at(at, "%s (U+%04X)", problem, (unsigned)yp->problem_value);
        return br_error_at(at, "%s", problem);
    case YAML_SCANNER_ERROR:
    case YAML_PARSER_ERROR:
    default:
        at = mark_pos(s, yp->problem_mark);
        if (yp->context) {
            br_pos c = mark_pos(s, yp->context_mark);
            if (c.line != at.line || c.column != at.column)
                return br_error_at(at, "%s (%s at %d:%d)", problem, yp->context, c.line, c.column);
        }
        return br_error_at(at, "%s", problem);
    }
}

/* Reject what a suite does not use: anchors, aliases and tags. */
static int check_props(const br_suite *s, const yaml_event_t *ev) {
    const yaml_char_t *anchor = NULL, *tag = NULL;
    if (ev->type == YAML_SCALAR_EVENT) {
        anchor = ev->data.scalar.anchor;
        tag = ev->data.scalar.tag;
    } else if (ev->type == YAML_SEQUENCE_START_EVENT) {
        anchor = ev->data.sequence_start.anchor;
        tag = ev->data.sequence_start.tag;
    } else if (ev->type == YAML_MAPPING_START_EVENT) {
        anchor = ev->data.mapping_start.anchor;
        tag = ev->data.mapping_start.tag;
    }
    if (anchor || ev->type == YAML_ALIAS_EVENT)
        return br_error_at(mark_pos(s, ev->start_mark),
                           "anchors and aliases are not supported in suites");
    if (tag)
        return br_error_at(mark_pos(s, ev->start_mark), "tags are not supported in suites");
    return 0;
}

/* Parse buf into a tree (*out NULL for a stream with no document). */
static int read_tree(node **out, const br_suite *s, const unsigned char *buf, size_t len) {
    int rc = -1;
    node *root = NULL;
    node *stack[SUITE_MAX_DEPTH + 1];
    int depth = 0;
    int documents = 0;
    bool done = false;
    yaml_parser_t yp;
    yaml_event_t ev;
    bool have_event = false;

    *out = NULL;
    if (!yaml_parser_initialize(&yp))
        return br_error_at((br_pos){s->path, 0, 0}, "out of memory");
    yaml_parser_set_encoding(&yp, YAML_UTF8_ENCODING);
    yaml_parser_set_input_string(&yp, buf, len);

    while (!done) {
        if (!yaml_parser_parse(&yp, &ev)) {
            yaml_failure(s, &yp, buf, len);
            goto done;
        }
        have_event = true;
        br_pos at = mark_pos(s, ev.start_mark);
        if (check_props(s, &ev) < 0)
            goto done;
        node *n = NULL;
        switch (ev.type) {
        case YAML_STREAM_END_EVENT:
            done = true;
            break;
        case YAML_DOCUMENT_START_EVENT:
            if (++documents > 1) {
                br_error_at(at, "a suite file holds one YAML document, found a second one");
                goto done;
            }
            break;
        case YAML_SCALAR_EVENT:
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT:
            if (ev.type != YAML_SCALAR_EVENT && depth >= SUITE_MAX_DEPTH) {
                br_error_at(at, "nesting deeper than %d levels", SUITE_MAX_DEPTH);
                goto done;
            }
            n = calloc(1, sizeof *n);
            if (!n) {
                br_error_at(at, "out of memory");
                goto done;
            }
            n->pos = at;
            if (ev.type == YAML_SCALAR_EVENT) {
                n->kind = NODE_SCALAR;
                n->style = ev.data.scalar.style;
                n->len = ev.data.scalar.length;
                n->end_line = mark_pos(s, ev.end_mark).line;
                n->text = malloc(n->len + 1);
                if (n->text) {
                    memcpy(n->text, ev.data.scalar.value, n->len);
                    n->text[n->len] = '\0';
                }
            } else {
                n->kind = ev.type == YAML_MAPPING_START_EVENT ? NODE_MAP : NODE_SEQ;
            }
            if ((n->kind == NODE_SCALAR && !n->text) ||
                (depth > 0 && append(stack[depth - 1], n) < 0)) {
                node_free(n);
                br_error_at(at, "out of memory");
                goto done;
            }
            if (depth == 0)
                root = n;
            if (n->kind != NODE_SCALAR)
                stack[depth++] = n;
            break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT:
            if (depth > 0)
                depth--;
            break;
        default:
            break;
        }
        yaml_event_delete(&ev);
        have_event = false;
    }
    *out = root;
    root = NULL;
    rc = 0;
done:
    if (have_event)
        yaml_event_delete(&ev);
    yaml_parser_delete(&yp);
    node_free(root);
    return rc;
}

/* ---------------------------------------------------------------------------
 * Checking values
 */

static const char *const top_keys[] = {"name",  "description", "source",   "kernels", "params",
                                       "where", "defines",     "link",     "metric",  "bytes",
                                       "flops", "cache",       "warmup",   "measure", "regression",
                                       "peak",  "budget",      "watchdog", "memory"};
static const char *const regression_keys[] = {"threshold", "alpha"};
static const char *const measure_keys[] = {"min_samples", "min_time",    "max_noise",
                                           "timeout",     "max_samples", "throttle",
                                           "hold",        "mode",        "headline"};
static const char *const mode_names[] = {"cold", "batch", "both"};
static const char *const range_keys[] = {"pow2", "from", "to", "step", "zip"};
static const char *const metric_names[] = {"GB/s", "GFLOP/s", "none"};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static bool key_is(const node *k, const char *name) {
    return strlen(name) == k->len && memcmp(k->text, name, k->len) == 0;
}

/* Position of text[0] of a scalar: one past an opening quote. */
static br_pos text_pos(const node *n) {
    br_pos p = n->pos;
    if ((n->style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
         n->style == YAML_DOUBLE_QUOTED_SCALAR_STYLE) &&
        p.column > 0)
        p.column++;
    return p;
}

/* Check a mapping's keys: scalars, known (valid != NULL), not repeated.
 * `where` names the mapping in messages ("" at the top level). */
static int check_keys(const node *m, const char *const *valid, size_t n_valid, const char *where) {
    for (size_t i = 0; i < map_size(m); i++) {
        const node *k = map_key(m, i);
        if (k->kind != NODE_SCALAR)
            return expected(k, "a key name");
        char q[SHOW_MAX + 16];
        show(q, sizeof q, k->text, k->len);
        if (valid) {
            bool known = false;
            for (size_t j = 0; j < n_valid && !known; j++)
                known = key_is(k, valid[j]);
            if (!known) {
                char hint[512];
                suggest(hint, sizeof hint, k->text, k->len, valid, n_valid);
                return br_error_at(k->pos, "unknown key %s%s%s", q, where, hint);
            }
        }
        for (size_t j = 0; j < i; j++) {
            const node *o = map_key(m, j);
            if (o->kind == NODE_SCALAR && o->len == k->len && memcmp(o->text, k->text, k->len) == 0)
                return br_error_at(k->pos, "duplicate key %s%s (first at %d:%d)", q, where,
                                   o->pos.line, o->pos.column);
        }
    }
    return 0;
}

static const node *find(const node *m, const char *key) {
    for (size_t i = 0; i < map_size(m); i++)
        if (key_is(map_key(m, i), key))
            return map_value(m, i);
    return NULL;
}

/* A string value (any non-null scalar without NUL bytes); `what` says what was
 * expected ("a string"). The copy in *out is owned by the caller. */
static int get_text(char **out, const node *n, const char *what) {
    *out = NULL;
    if (n->kind != NODE_SCALAR || is_null_scalar(n))
        return expected(n, what);
    if (memchr(n->text, '\0', n->len))
        return br_error_at(n->pos, "expected %s, found a string with a NUL character", what);
    *out = strdup(n->text);
    if (!*out)
        return br_error_at(n->pos, "out of memory");
    return 0;
}

static int get_located(br_located *out, const node *n, const char *what) {
    out->pos = text_pos(n);
    return get_text(&out->text, n, what);
}

static bool is_identifier(const char *s) {
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
        return false;
    for (s++; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '_'))
            return false;
    return true;
}

/* A one-line scalar for an expression (so columns can be counted). */
static int check_one_line(const node *n, const char *what) {
    if (n->kind != NODE_SCALAR || is_null_scalar(n))
        return expected(n, what);
    if (n->style == YAML_LITERAL_SCALAR_STYLE || n->style == YAML_FOLDED_SCALAR_STYLE ||
        n->end_line != n->pos.line)
        return br_error_at(n->pos, "expected %s on one line, found a multi-line string", what);
    if (memchr(n->text, '\0', n->len))
        return br_error_at(n->pos, "expected %s, found a string with a NUL character", what);
    return 0;
}

/* An integer: a literal, or a constant expression such as "2^20". */
static int get_int(int64_t *out, const node *n) {
    if (n->kind != NODE_SCALAR || is_null_scalar(n))
        return expected(n, "an integer");
    if (looks_like_float(n))
        return expected(n, "an integer");
    if (check_one_line(n, "an integer") < 0)
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
                char q[SHOW_MAX + 16];
                show_node(q, sizeof q, n);
                return br_error_at(n->pos, "integer %s is out of range (expected -2^63 to 2^63-1)",
                                   q);
            }
        }
        *out = v;
        return 0;
    }
    return br_expr_eval(out, n->text, text_pos(n), NULL, 0);
}

/* A duration such as 25ms or 1.5s, in ns. */
static int get_duration(double *out, const node *n) {
    static const struct {
        const char *unit;
        double ns;
    } units[] = {{"ns", 1},  {"us", 1e3},   {"\xC2\xB5s", 1e3}, {"\xCE\xBCs", 1e3}, {"ms", 1e6},
                 {"s", 1e9}, {"min", 60e9}, {"m", 60e9},        {"h", 3600e9}};
    const char *what = "a duration such as 25ms or 1.5s";
    if (n->kind != NODE_SCALAR || is_null_scalar(n) || memchr(n->text, '\0', n->len))
        return expected(n, what);
    char q[SHOW_MAX + 16];
    show_node(q, sizeof q, n);
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
        return expected(n, what);
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
    char uq[SHOW_MAX + 16];
    show(uq, sizeof uq, t + i, n->len - i);
    return br_error_at(n->pos,
                       "expected a duration such as 25ms or 1.5s, found %s "
                       "(unknown unit %s: use ns, us, ms, s, m or h)",
                       q, uq);
}

/* A fraction: "0.5%" or a plain number in (0, 1); stored as a fraction.
 * `name` is the key, for messages. */
static int get_fraction(double *out, const node *n, const char *name) {
    const char *what = "a percentage such as 0.5% or a fraction such as 0.005";
    if (n->kind != NODE_SCALAR || is_null_scalar(n) || memchr(n->text, '\0', n->len))
        return expected(n, what);
    char q[SHOW_MAX + 16];
    show_node(q, sizeof q, n);
    double v = 0;
    if (n->len > 1 && n->text[n->len - 1] == '%') {
        if (!parse_decimal(n->text, n->len - 1, true, &v))
            return expected(n, what);
        if (!(v > 0 && v < 100))
            return br_error_at(n->pos, "%s must be between 0%% and 100%%, found %s", name, q);
        *out = v / 100;
        return 0;
    }
    if (n->style != YAML_PLAIN_SCALAR_STYLE || !parse_decimal(n->text, n->len, true, &v))
        return expected(n, what);
    if (!(v > 0 && v < 1))
        return br_error_at(n->pos,
                           "%s must be a fraction between 0 and 1 or a percentage "
                           "such as 0.5%%, found %s",
                           name, q);
    *out = v;
    return 0;
}

/* true/false (also yes/no, on/off as YAML 1.1 spells them). */
static int get_bool(int *out, const node *n) {
    static const char *const yes[] = {"true", "True", "TRUE", "yes", "Yes", "on", "On"};
    static const char *const no[] = {"false", "False", "FALSE", "no", "No", "off", "Off"};
    if (n->kind == NODE_SCALAR && n->style == YAML_PLAIN_SCALAR_STYLE) {
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
    return expected(n, "true or false");
}

/* cold, batch or (with `both_ok`) both. */
static int get_mode(br_mode *out, const node *n, bool both_ok) {
    const char *what = both_ok ? "a mode (cold, batch or both)" : "cold or batch";
    if (n->kind != NODE_SCALAR || is_null_scalar(n))
        return expected(n, what);
    for (size_t i = 0; i < (both_ok ? 3u : 2u); i++) {
        if (strcmp(n->text, mode_names[i]) == 0) {
            *out = (br_mode)(i + 1);
            return 0;
        }
    }
    char q[SHOW_MAX + 16], hint[256] = "";
    show(q, sizeof q, n->text, n->len);
    if (both_ok || strcmp(n->text, "both") != 0)
        suggest(hint, sizeof hint, n->text, n->len, mode_names, both_ok ? 3 : 2);
    return br_error_at(n->pos, "unknown %s %s (expected %s)%s", both_ok ? "mode" : "headline", q,
                       both_ok ? "cold, batch or both" : "cold or batch", hint);
}

static int load_name(br_suite *s, const node *v) {
    if (get_located(&s->name, v, "a suite name (a string)") < 0)
        return -1;
    if (s->name.text[0] == '\0')
        return br_error_at(v->pos, "the suite name must not be empty");
    for (const char *c = s->name.text; *c; c++)
        if (*c == '/' || *c == '\\' || (unsigned char)*c < 0x20 || *c == 0x7f) {
            char q[SHOW_MAX + 16];
            show(q, sizeof q, v->text, v->len);
            return br_error_at(v->pos,
                               "the suite name %s must not contain '/', '\\' or control "
                               "characters (it names files)",
                               q);
        }
    if (strcmp(s->name.text, ".") == 0 || strcmp(s->name.text, "..") == 0)
        return br_error_at(v->pos, "the suite name must not be '.' or '..' (it names files)");
    return 0;
}

static int load_one_source(br_suite *s, br_located *out, const node *v) {
    char *given = NULL;
    int rc = -1;
    if (get_text(&given, v, "a source path (a string)") < 0)
        goto done;
    out->pos = text_pos(v);
    if (given[0] == '\0') {
        br_error_at(v->pos, "expected a source path, found an empty string");
        goto done;
    }
    out->text = br_path_join(s->dir, given);
    if (!out->text) {
        br_error_at(v->pos, "out of memory");
        goto done;
    }
    char q[SHOW_MAX + 16];
    show(q, sizeof q, v->text, v->len);
    struct stat st;
    if (stat(out->text, &st) != 0) {
        if (errno == ENOENT || errno == ENOTDIR)
            br_error_at(v->pos, "source %s does not exist", q);
        else
            br_error_at(v->pos, "cannot access source %s: %s", q, strerror(errno));
        goto done;
    }
    if (S_ISDIR(st.st_mode)) {
        br_error_at(v->pos, "source %s is a directory", q);
        goto done;
    }
    if (!S_ISREG(st.st_mode)) {
        br_error_at(v->pos, "source %s is not a regular file", q);
        goto done;
    }
    if (!br_has_suffix(out->text, ".c") && !br_has_suffix(out->text, ".cu")) {
        br_error_at(v->pos, "source %s is not a kernel source (expected a .c or .cu file)", q);
        goto done;
    }
    /* Show "kernels/x.cu" rather than "suites/../kernels/x.cu", when that
     * names the same file (a symbolic link in the path could make it not). */
    char *norm = br_path_normalize(out->text);
    struct stat nst;
    if (norm && stat(norm, &nst) == 0 && nst.st_dev == st.st_dev && nst.st_ino == st.st_ino) {
        free(out->text);
        out->text = norm;
    } else {
        free(norm);
    }
    rc = 0;
done:
    free(given);
    return rc;
}

static int load_sources(br_suite *s, const node *v) {
    const char *what = "a source path or a list of source paths";
    if (v->kind == NODE_MAP || is_null_scalar(v))
        return expected(v, what);
    if (v->kind == NODE_SEQ && v->n_items == 0)
        return expected(v, "at least one source path");
    size_t n = v->kind == NODE_SEQ ? v->n_items : 1;
    s->sources = calloc(n, sizeof *s->sources);
    if (!s->sources)
        return br_error_at(v->pos, "out of memory");
    s->n_sources = n;
    for (size_t i = 0; i < n; i++) {
        const node *item = v->kind == NODE_SEQ ? v->items[i] : v;
        if (load_one_source(s, &s->sources[i], item) < 0)
            return -1;
        for (size_t j = 0; j < i; j++)
            if (strcmp(s->sources[j].text, s->sources[i].text) == 0) {
                char q[SHOW_MAX + 16];
                show(q, sizeof q, item->text, item->len);
                return br_error_at(item->pos, "duplicate source %s (first at %d:%d)", q,
                                   v->items[j]->pos.line, v->items[j]->pos.column);
            }
    }
    return 0;
}

static int load_kernels(br_suite *s, const node *v) {
    if (v->kind != NODE_SEQ)
        return expected(v, "a list of kernel names");
    if (v->n_items == 0)
        return expected(v, "a list of at least one kernel name");
    s->kernels = calloc(v->n_items, sizeof *s->kernels);
    if (!s->kernels)
        return br_error_at(v->pos, "out of memory");
    s->n_kernels = v->n_items;
    for (size_t i = 0; i < v->n_items; i++) {
        const node *item = v->items[i];
        if (get_located(&s->kernels[i], item, "a kernel name") < 0)
            return -1;
        char q[SHOW_MAX + 16];
        show(q, sizeof q, item->text, item->len);
        if (!is_identifier(s->kernels[i].text))
            return br_error_at(item->pos,
                               "kernel name %s is not a C identifier (letters, digits and '_', "
                               "not starting with a digit)",
                               q);
        for (size_t j = 0; j < i; j++)
            if (strcmp(s->kernels[j].text, s->kernels[i].text) == 0)
                return br_error_at(item->pos, "duplicate kernel %s (first at %d:%d)", q,
                                   v->items[j]->pos.line, v->items[j]->pos.column);
    }
    return 0;
}

/* {pow2: [lo, hi]} or {pow2: [lo, hi, step]} */
static int load_pow2(br_param *p, const node *v) {
    const node *r = find(v, "pow2");
    if (r->kind != NODE_SEQ)
        return expected(r, "[lo, hi] or [lo, hi, step] after pow2");
    if (r->n_items < 2 || r->n_items > 3)
        return br_error_at(r->pos, "pow2 takes [lo, hi] or [lo, hi, step], found %zu value%s",
                           r->n_items, r->n_items == 1 ? "" : "s");
    int64_t lo = 0, hi = 0, step = 1;
    int64_t *vals[3] = {&lo, &hi, &step};
    for (size_t i = 0; i < r->n_items; i++) {
        if (get_int(vals[i], r->items[i]) < 0)
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
static int load_linear(br_param *p, const node *v) {
    const node *from = find(v, "from"), *to = find(v, "to"), *st = find(v, "step");
    if (!from || !to)
        return br_error_at(v->pos, "a linear range needs both 'from' and 'to' "
                                   "({from: 64, to: 1024, step: 64})");
    int64_t lo = 0, hi = 0, step = 1;
    if (get_int(&lo, from) < 0 || get_int(&hi, to) < 0 || (st && get_int(&step, st) < 0))
        return -1;
    if (step < 1)
        return br_error_at(st->pos, "step must be at least 1, found %lld", (long long)step);
    if (lo > hi)
        return br_error_at(v->pos, "empty range: from %lld is greater than to %lld", (long long)lo,
                           (long long)hi);
    /* (hi - lo) may not fit in int64_t: count in unsigned arithmetic. */
    uint64_t span = (uint64_t)hi - (uint64_t)lo;
    uint64_t n = span / (uint64_t)step + 1;
    if (n > PARAM_MAX_VALUES)
        return br_error_at(v->pos, "range gives %llu values (at most %d)", (unsigned long long)n,
                           PARAM_MAX_VALUES);
    p->values = calloc((size_t)n, sizeof *p->values);
    if (!p->values)
        return br_error_at(v->pos, "out of memory");
    for (uint64_t i = 0; i < n; i++)
        p->values[i] = (int64_t)((uint64_t)lo + i * (uint64_t)step);
    p->n_values = (size_t)n;
    return 0;
}

/* A range mapping: {pow2: ...} or {from, to, step}. */
static int load_range(br_param *p, const node *v) {
    char where[SHOW_MAX + 32];
    char q[SHOW_MAX + 16];
    show(q, sizeof q, p->name, strlen(p->name));
    snprintf(where, sizeof where, " in parameter %s", q);
    const char *what = "a range {from: a, to: b, step: s} or {pow2: [lo, hi]}, or a list of values";
    if (map_size(v) == 0)
        return expected(v, what);
    if (check_keys(v, range_keys, COUNT(range_keys), where) < 0)
        return -1;
    const node *zip = find(v, "zip");
    if (zip)
        return br_error_at(map_key(v, 0)->pos,
                           "zip groups parameters: write it as GROUP: {zip: {a: [...], b: [...]}} "
                           "directly under params, not inside parameter %s",
                           q);
    const node *pow2 = find(v, "pow2");
    if (pow2) {
        for (size_t i = 0; i < map_size(v); i++)
            if (!key_is(map_key(v, i), "pow2"))
                return br_error_at(map_key(v, i)->pos,
                                   "a pow2 range takes no other keys (found '%.*s')",
                                   (int)map_key(v, i)->len, map_key(v, i)->text);
        return load_pow2(p, v);
    }
    return load_linear(p, v);
}

/* One parameter. A zipped member (`zipped`) may repeat a value: only its
 * group's entries as a whole must be distinct. */
static int load_param(br_param *p, const node *k, const node *v, bool zipped) {
    p->pos = k->pos;
    if (get_text(&p->name, k, "a parameter name") < 0)
        return -1;
    if (!is_identifier(p->name)) {
        char q[SHOW_MAX + 16];
        show(q, sizeof q, k->text, k->len);
        return br_error_at(k->pos,
                           "parameter name %s is not a C identifier (letters, digits and '_', "
                           "not starting with a digit)",
                           q);
    }
    if (v->kind == NODE_MAP)
        return load_range(p, v);
    if (v->kind == NODE_SEQ) {
        if (v->n_items == 0) {
            char q[SHOW_MAX + 16];
            show(q, sizeof q, p->name, strlen(p->name));
            return br_error_at(v->pos, "parameter %s has no values: expected a non-empty list", q);
        }
        p->values = calloc(v->n_items, sizeof *p->values);
        if (!p->values)
            return br_error_at(v->pos, "out of memory");
        p->n_values = v->n_items;
        for (size_t i = 0; i < v->n_items; i++) {
            if (get_int(&p->values[i], v->items[i]) < 0)
                return -1;
            /* A value twice would make two cases that nothing tells apart
             * (results and baselines key cases by their values). */
            for (size_t j = 0; j < i && !zipped; j++) {
                if (p->values[j] == p->values[i]) {
                    char q[SHOW_MAX + 16];
                    show(q, sizeof q, p->name, strlen(p->name));
                    return br_error_at(v->items[i]->pos,
                                       "parameter %s lists the value %lld twice (also item %zu)", q,
                                       (long long)p->values[i], j + 1);
                }
            }
        }
        return 0;
    }
    p->values = calloc(1, sizeof *p->values);
    if (!p->values)
        return br_error_at(v->pos, "out of memory");
    p->n_values = 1;
    return get_int(&p->values[0], v);
}

/* A params entry `GROUP: {zip: {...}}` (its zip mapping), or NULL. */
static const node *zip_of(const node *v) {
    if (v->kind != NODE_MAP || map_size(v) != 1 || !key_is(map_key(v, 0), "zip"))
        return NULL;
    return map_value(v, 0);
}

/* A zipped group: members loaded into p[0..], all with as many values (a
 * one-value member is repeated). */
static int load_zip(br_suite *s, const node *k, const node *z, size_t group) {
    char q[SHOW_MAX + 16];
    show(q, sizeof q, k->text, k->len);
    /* load_params has checked that z is a non-empty mapping. */
    char where[SHOW_MAX + 32];
    snprintf(where, sizeof where, " in zip group %s", q);
    if (check_keys(z, NULL, 0, where) < 0)
        return -1;
    size_t first = s->n_params, len = 1;
    const node *longest = NULL;
    /* Entries are checked pairwise for repeats: keep groups to a size
     * where that stays instant (a sweep that large wants plain params). */
    const size_t zip_max = 10000;
    for (size_t i = 0; i < map_size(z); i++) {
        br_param *p = &s->params[s->n_params++];
        const node *mv = map_value(z, i);
        if (zip_of(mv))
            return br_error_at(map_key(z, i)->pos, "a zip group cannot hold another zip group");
        if (load_param(p, map_key(z, i), mv, true) < 0)
            return -1;
        p->zip = group;
        if (!(p->group = strndup(k->text, k->len)))
            return br_error_at(k->pos, "out of memory");
        if (p->n_values > 1 && len == 1) {
            len = p->n_values;
            longest = map_key(z, i);
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
    for (size_t a = 0; a < len; a++) {
        for (size_t b = 0; b < a; b++) {
            size_t same = 0;
            for (size_t i = first; i < s->n_params; i++)
                same += s->params[i].values[a] == s->params[i].values[b];
            if (same == s->n_params - first)
                return br_error_at(z->pos,
                                   "zip group %s gives the same values twice (entries %zu "
                                   "and %zu)",
                                   q, b + 1, a + 1);
        }
    }
    return 0;
}

static int load_params(br_suite *s, const node *v) {
    if (v->kind != NODE_MAP)
        return expected(v, "a mapping of parameter names to values");
    if (check_keys(v, NULL, 0, " in params") < 0)
        return -1;
    size_t n = 0;
    for (size_t i = 0; i < map_size(v); i++) {
        const node *z = zip_of(map_value(v, i));
        if (z && (z->kind != NODE_MAP || map_size(z) == 0))
            return expected(z, "a mapping of the zipped parameters to their values "
                               "(zip: {m: [...], n: [...]})");
        n += z ? map_size(z) : 1;
        if (n > BR_SUITE_MAX_PARAMS)
            return br_error_at(map_key(v, i)->pos, "too many parameters (at most %d)",
                               BR_SUITE_MAX_PARAMS);
    }
    if (n == 0)
        return 0;
    s->params = calloc(n, sizeof *s->params);
    if (!s->params)
        return br_error_at(v->pos, "out of memory");
    size_t groups = 0;
    for (size_t i = 0; i < map_size(v); i++) {
        const node *z = zip_of(map_value(v, i));
        if (z) {
            if (load_zip(s, map_key(v, i), z, ++groups) < 0)
                return -1;
        } else if (load_param(&s->params[s->n_params++], map_key(v, i), map_value(v, i), false) <
                   0) {
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
static int load_defines(br_suite *s, const node *v) {
    s->defines_pos = v->pos;
    if (v->kind != NODE_SEQ)
        return expected(v, "a list of parameter names (defines: [block, tile])");
    for (size_t i = 0; i < v->n_items; i++) {
        const node *it = v->items[i];
        if (it->kind != NODE_SCALAR || is_null_scalar(it))
            return expected(it, "a parameter name");
        br_param *p = NULL;
        for (size_t j = 0; j < s->n_params && !p; j++)
            if (strlen(s->params[j].name) == it->len &&
                memcmp(s->params[j].name, it->text, it->len) == 0)
                p = &s->params[j];
        char q[SHOW_MAX + 16];
        show_node(q, sizeof q, it);
        if (!p)
            return br_error_at(it->pos, "defines names %s, which is not a parameter of the suite",
                               q);
        if (p->define)
            return br_error_at(it->pos, "defines lists %s twice", q);
        p->define = 1;
    }
    return 0;
}

/* `link: [cublas]`: libraries the kernel sources are linked with. */
static int load_libs(br_suite *s, const node *v) {
    if (v->kind == NODE_SCALAR && !is_null_scalar(v)) {
        s->libs = calloc(1, sizeof *s->libs);
        if (!s->libs)
            return br_error_at(v->pos, "out of memory");
        s->n_libs = 1;
        if (get_located(&s->libs[0], v, "a library name") < 0)
            return -1;
    } else if (v->kind == NODE_SEQ && v->n_items > 0) {
        s->libs = calloc(v->n_items, sizeof *s->libs);
        if (!s->libs)
            return br_error_at(v->pos, "out of memory");
        s->n_libs = v->n_items;
        for (size_t i = 0; i < v->n_items; i++)
            if (get_located(&s->libs[i], v->items[i], "a library name") < 0)
                return -1;
    } else {
        return expected(v, "a library name or a list of them (link: [cublas])");
    }
    for (size_t i = 0; i < s->n_libs; i++) {
        const char *t = s->libs[i].text;
        bool ok = t[0] != '\0' && t[0] != '-';
        for (const char *c = t; *c && ok; c++)
            ok = isalnum((unsigned char)*c) || strchr("_.+-", *c);
        if (!ok)
            return br_error_at(s->libs[i].pos,
                               "expected a library name such as cublas (letters, digits, '_', "
                               "'.', '+', '-'; passed to the linker as -lNAME), found '%s'",
                               t);
    }
    return 0;
}

static int load_expr_text(br_located *out, const node *v) {
    const char *what = "an integer expression such as 4 * n";
    if (v->kind != NODE_SCALAR || is_null_scalar(v) || looks_like_float(v))
        return expected(v, what);
    if (check_one_line(v, "an integer expression") < 0)
        return -1;
    return get_located(out, v, what);
}

/* `bytes`/`flops`: one expression, or a mapping kernel -> expression naming
 * every kernel of the suite (checked once the kernels are known). */
static int load_work(br_suite *s, br_work *w, const node *v, const char *key) {
    if (v->kind != NODE_MAP)
        return load_expr_text(&w->all, v);
    char where[64];
    snprintf(where, sizeof where, " in %s", key);
    if (check_keys(v, NULL, 0, where) < 0)
        return -1;
    if (s->n_kernels == 0)
        return br_error_at(v->pos, "%s per kernel needs the suite's 'kernels' list", key);
    w->by_kernel = calloc(s->n_kernels, sizeof *w->by_kernel);
    if (!w->by_kernel)
        return br_error_at(v->pos, "out of memory");
    for (size_t i = 0; i < map_size(v); i++) {
        const node *k = map_key(v, i);
        size_t idx = s->n_kernels;
        for (size_t j = 0; j < s->n_kernels; j++)
            if (strlen(s->kernels[j].text) == k->len &&
                memcmp(s->kernels[j].text, k->text, k->len) == 0)
                idx = j;
        char q[SHOW_MAX + 16];
        show_node(q, sizeof q, k);
        if (idx == s->n_kernels)
            return br_error_at(k->pos, "%s names kernel %s, which is not in the suite's kernels",
                               key, q);
        if (load_expr_text(&w->by_kernel[idx], map_value(v, i)) < 0)
            return -1;
    }
    for (size_t j = 0; j < s->n_kernels; j++)
        if (!w->by_kernel[j].text)
            return br_error_at(v->pos,
                               "%s gives no expression for kernel '%s' (give one for every "
                               "kernel, or one expression for all)",
                               key, s->kernels[j].text);
    return 0;
}

/* Check the expression(s) of w against the parameter names. */
static int check_work(const br_work *w, const br_suite *s, const char *const *names) {
    if (w->all.text && br_expr_check(w->all.text, w->all.pos, names, s->n_params) < 0)
        return -1;
    for (size_t i = 0; w->by_kernel && i < s->n_kernels; i++)
        if (br_expr_check(w->by_kernel[i].text, w->by_kernel[i].pos, names, s->n_params) < 0)
            return -1;
    return 0;
}

const br_located *br_work_expr(const br_work *w, size_t kernel) {
    if (w->by_kernel)
        return w->by_kernel[kernel].text ? &w->by_kernel[kernel] : NULL;
    return w->all.text ? &w->all : NULL;
}

int br_work_present(const br_work *w) {
    return w->all.text != NULL || w->by_kernel != NULL;
}

static void work_dispose(br_work *w, size_t n_kernels) {
    free(w->all.text);
    for (size_t i = 0; w->by_kernel && i < n_kernels; i++)
        free(w->by_kernel[i].text);
    free(w->by_kernel);
}

static int load_measure(br_suite *s, const node *v) {
    if (v->kind != NODE_MAP)
        return expected(v, "a mapping with min_samples, min_time, max_noise, timeout, "
                           "max_samples, throttle, hold, mode or headline");
    if (check_keys(v, measure_keys, COUNT(measure_keys), " in measure") < 0)
        return -1;
    for (size_t i = 0; i < map_size(v); i++) {
        const node *k = map_key(v, i), *x = map_value(v, i);
        if (key_is(k, "min_samples")) {
            int64_t n = 0;
            if (get_int(&n, x) < 0)
                return -1;
            if (n < 1)
                return br_error_at(x->pos, "min_samples must be at least 1, found %lld",
                                   (long long)n);
            s->measure.min_samples = (size_t)n;
        } else if (key_is(k, "min_time")) {
            if (get_duration(&s->measure.min_time_ns, x) < 0)
                return -1;
        } else if (key_is(k, "max_noise")) {
            if (get_fraction(&s->measure.max_noise, x, "max_noise") < 0)
                return -1;
        } else if (key_is(k, "throttle")) {
            if (x->kind == NODE_SCALAR && x->style == YAML_PLAIN_SCALAR_STYLE &&
                (strcmp(x->text, "0") == 0 || strcmp(x->text, "0%") == 0))
                s->measure.throttle = 0; /* off */
            else if (get_fraction(&s->measure.throttle, x, "throttle") < 0)
                return -1;
        } else if (key_is(k, "max_samples")) {
            int64_t n = 0;
            if (get_int(&n, x) < 0)
                return -1;
            if (n < 1 || n > (int64_t)BR_MAX_SAMPLES_LIMIT)
                return br_error_at(x->pos, "max_samples must be between 1 and %llu, found %lld",
                                   (unsigned long long)BR_MAX_SAMPLES_LIMIT, (long long)n);
            s->measure.max_samples = (size_t)n;
        } else if (key_is(k, "hold")) {
            if (get_bool(&s->measure.hold, x) < 0)
                return -1;
        } else if (key_is(k, "mode")) {
            if (get_mode(&s->measure.mode, x, true) < 0)
                return -1;
        } else if (key_is(k, "headline")) {
            if (get_mode(&s->measure.headline, x, false) < 0)
                return -1;
        } else if (key_is(k, "timeout")) {
            if (get_duration(&s->measure.timeout_ns, x) < 0)
                return -1;
            if (s->measure.timeout_ns <= 0)
                return br_error_at(x->pos, "timeout must be longer than 0");
        }
    }
    const node *headline = find(v, "headline");
    if (!headline)
        s->measure.headline = s->measure.mode == BR_MODE_BATCH ? BR_MODE_BATCH : BR_MODE_COLD;
    else if (!(s->measure.mode & s->measure.headline))
        return br_error_at(headline->pos, "headline '%s' is not measured: mode is '%s'",
                           mode_names[s->measure.headline - 1], mode_names[s->measure.mode - 1]);
    if (s->measure.min_samples > s->measure.max_samples)
        return br_error_at(find(v, "min_samples") ? find(v, "min_samples")->pos
                                                  : find(v, "max_samples")->pos,
                           "min_samples (%zu) is larger than max_samples (%zu)",
                           s->measure.min_samples, s->measure.max_samples);
    const node *min_time = find(v, "min_time"), *timeout = find(v, "timeout");
    if (s->measure.min_time_ns > s->measure.timeout_ns) {
        char mq[SHOW_MAX + 16], tq[SHOW_MAX + 16];
        if (min_time)
            show_node(mq, sizeof mq, min_time);
        if (timeout)
            show_node(tq, sizeof tq, timeout);
        if (min_time && timeout)
            return br_error_at(min_time->pos, "min_time %s is longer than timeout %s", mq, tq);
        if (min_time)
            return br_error_at(min_time->pos, "min_time %s is longer than the default timeout (3s)",
                               mq);
        return br_error_at(timeout->pos, "timeout %s is shorter than the default min_time (10ms)",
                           tq);
    }
    return 0;
}

static int load_metric(br_suite *s, const node *v) {
    char *text = NULL;
    if (get_text(&text, v, "a metric (GB/s or GFLOP/s)") < 0)
        return -1;
    int rc = 0;
    if (strcmp(text, "GB/s") == 0) {
        s->metric = BR_METRIC_GBPS;
    } else if (strcmp(text, "GFLOP/s") == 0) {
        s->metric = BR_METRIC_GFLOPS;
    } else if (strcmp(text, "none") == 0) {
        s->metric = BR_METRIC_NONE;
    } else {
        char q[SHOW_MAX + 16], hint[256];
        show(q, sizeof q, v->text, v->len);
        suggest(hint, sizeof hint, v->text, v->len, metric_names, COUNT(metric_names));
        rc = br_error_at(v->pos, "unknown metric %s%s", q, hint);
    }
    free(text);
    return rc;
}

static int load_cache(br_suite *s, const node *v) {
    char *text = NULL;
    if (get_text(&text, v, "a cache policy (flush, warm or flush-memset)") < 0)
        return -1;
    int rc = 0;
    if (strcmp(text, "flush") == 0) {
        s->cache = BR_CACHE_FLUSH;
    } else if (strcmp(text, "warm") == 0) {
        s->cache = BR_CACHE_WARM;
    } else if (strcmp(text, "flush-memset") == 0) {
        s->cache = BR_CACHE_FLUSH_MEMSET;
    } else {
        char q[SHOW_MAX + 16];
        show(q, sizeof q, v->text, v->len);
        rc = br_error_at(v->pos, "unknown cache policy %s (expected flush, warm or flush-memset)",
                         q);
    }
    free(text);
    return rc;
}

static int load_peak(br_suite *s, const node *v) {
    char *text = NULL;
    if (get_text(&text, v, "a peak (theoretical or measured)") < 0)
        return -1;
    int rc = 0;
    if (strcmp(text, "theoretical") == 0) {
        s->peak = BR_PEAK_THEORETICAL;
    } else if (strcmp(text, "measured") == 0) {
        s->peak = BR_PEAK_MEASURED;
    } else {
        char q[SHOW_MAX + 16];
        show(q, sizeof q, v->text, v->len);
        rc = br_error_at(v->pos, "unknown peak %s (expected theoretical or measured)", q);
    }
    free(text);
    return rc;
}

/* regression: {threshold: 2%, alpha: 0.01}; threshold may be 0 (every
 * significant change counts). */
static int load_regression(br_suite *s, const node *v) {
    if (v->kind != NODE_MAP)
        return expected(v, "a mapping with threshold and alpha");
    if (check_keys(v, regression_keys, COUNT(regression_keys), " in regression") < 0)
        return -1;
    for (size_t i = 0; i < map_size(v); i++) {
        const node *k = map_key(v, i), *x = map_value(v, i);
        if (key_is(k, "threshold")) {
            if (x->kind == NODE_SCALAR && x->style == YAML_PLAIN_SCALAR_STYLE &&
                (strcmp(x->text, "0") == 0 || strcmp(x->text, "0%") == 0))
                s->regression.threshold = 0;
            else if (get_fraction(&s->regression.threshold, x, "threshold") < 0)
                return -1;
        } else if (key_is(k, "alpha")) {
            if (get_fraction(&s->regression.alpha, x, "alpha") < 0)
                return -1;
        }
    }
    return 0;
}

/* Check the top-level mapping and fill the model. */
static int load_root(br_suite *s, const node *root) {
    static const char *const required[] = {"name", "source", "kernels"};
    br_pos start = {s->path, 1, 1};
    if (!root)
        return br_error_at(start, "empty suite: expected a mapping with the keys name, source "
                                  "and kernels");
    if (root->kind != NODE_MAP)
        return expected(root, "a mapping of suite keys (name, source, kernels, ...)");
    if (check_keys(root, top_keys, COUNT(top_keys), "") < 0)
        return -1;
    for (size_t i = 0; i < COUNT(required); i++)
        if (!find(root, required[i]))
            return br_error_at(root->pos, "missing required key '%s'", required[i]);

    const node *metric = NULL, *defines = NULL, *bytes = NULL, *flops = NULL, *memory = NULL;
    for (size_t i = 0; i < map_size(root); i++) {
        const node *k = map_key(root, i), *v = map_value(root, i);
        int rc = 0;
        if (key_is(k, "name"))
            rc = load_name(s, v);
        else if (key_is(k, "description"))
            rc = get_located(&s->description, v, "a description (a string)");
        else if (key_is(k, "source"))
            rc = load_sources(s, v);
        else if (key_is(k, "kernels"))
            rc = load_kernels(s, v);
        else if (key_is(k, "params"))
            rc = load_params(s, v);
        else if (key_is(k, "metric"))
            rc = load_metric(s, metric = v);
        else if (key_is(k, "bytes"))
            bytes = v; /* after the kernels: it may name them */
        else if (key_is(k, "flops"))
            flops = v;
        else if (key_is(k, "memory"))
            memory = v;
        else if (key_is(k, "where"))
            rc = load_expr_text(&s->where, v);
        else if (key_is(k, "defines"))
            defines = v; /* after the params */
        else if (key_is(k, "link"))
            rc = load_libs(s, v);
        else if (key_is(k, "budget")) {
            rc = get_duration(&s->budget_ns, v);
            if (rc == 0 && s->budget_ns <= 0)
                rc = br_error_at(v->pos, "budget must be longer than 0");
        } else if (key_is(k, "watchdog")) {
            rc = get_duration(&s->watchdog_ns, v);
            if (rc == 0 && s->watchdog_ns <= 0)
                rc = br_error_at(v->pos, "watchdog must be longer than 0");
        } else if (key_is(k, "cache"))
            rc = load_cache(s, v);
        else if (key_is(k, "warmup"))
            rc = get_duration(&s->warmup_ns, v);
        else if (key_is(k, "measure"))
            rc = load_measure(s, v);
        else if (key_is(k, "peak"))
            rc = load_peak(s, v);
        else if (key_is(k, "regression"))
            rc = load_regression(s, v);
        if (rc < 0)
            return -1;
    }

    if ((bytes && load_work(s, &s->bytes, bytes, "bytes") < 0) ||
        (flops && load_work(s, &s->flops, flops, "flops") < 0) ||
        (memory && load_work(s, &s->memory, memory, "memory") < 0) ||
        (defines && load_defines(s, defines) < 0))
        return -1;
    size_t n_flags = s->n_libs;
    for (size_t i = 0; i < s->n_params; i++)
        n_flags += s->params[i].define != 0;
    if (n_flags > BR_BUILD_MAX_EXTRA_FLAGS)
        return br_error_at(defines ? defines->pos : s->libs[0].pos,
                           "defines and link give %zu compiler flags (at most %d together)",
                           n_flags, BR_BUILD_MAX_EXTRA_FLAGS);

    /* Expressions, now that the params are known. */
    const char *names[BR_SUITE_MAX_PARAMS];
    for (size_t i = 0; i < s->n_params; i++)
        names[i] = s->params[i].name;
    if (check_work(&s->bytes, s, names) < 0 || check_work(&s->flops, s, names) < 0 ||
        check_work(&s->memory, s, names) < 0)
        return -1;
    if (s->where.text && br_expr_check(s->where.text, s->where.pos, names, s->n_params) < 0)
        return -1;

    int has_bytes = br_work_present(&s->bytes), has_flops = br_work_present(&s->flops);
    if (!metric)
        s->metric = has_bytes ? BR_METRIC_GBPS : has_flops ? BR_METRIC_GFLOPS : BR_METRIC_NONE;
    else if (s->metric == BR_METRIC_GBPS && !has_bytes)
        return br_error_at(metric->pos,
                           "metric 'GB/s' needs 'bytes' (the bytes moved per execution)");
    else if (s->metric == BR_METRIC_GFLOPS && !has_flops)
        return br_error_at(metric->pos, "metric 'GFLOP/s' needs 'flops' (the FLOP per execution)");
    return 0;
}

/* Load and check the suite at `path`; see suite.h. Returns 0 or -1 with the
 * error set; *out is disposed by the caller either way. */
int br_suite_load(br_suite *out, const char *path) {
    int rc = -1;
    char *buf = NULL;
    size_t len = 0;
    node *root = NULL;

    if (!out)
        return br_error_set("br_suite_load: no suite to load into");
    memset(out, 0, sizeof *out);
    out->cache = BR_CACHE_FLUSH;
    out->peak = BR_PEAK_THEORETICAL;
    out->warmup_ns = BR_DEFAULT_WARMUP_NS;
    out->watchdog_ns = BR_DEFAULT_WATCHDOG_NS;
    br_measure_cfg_defaults(&out->measure);
    out->regression.threshold = BR_DEFAULT_REGRESSION_THRESHOLD;
    out->regression.alpha = BR_DEFAULT_REGRESSION_ALPHA;
    if (!path || !*path)
        return br_error_set("br_suite_load: no suite path given");

    out->path = br_strdup(path);
    out->dir = br_path_dir(path);
    if (!out->path || !out->dir) {
        br_error_set("%s: out of memory", path);
        goto done;
    }
    if (br_read_file(&buf, &len, out->path, SUITE_MAX_BYTES) < 0)
        goto done;
    if (br_hash_blob(out->hash, buf, len) < 0)
        goto done;
    /* Skip a UTF-8 byte order mark, so that columns on line 1 are right. */
    size_t skip = len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    if (read_tree(&root, out, (const unsigned char *)buf + skip, len - skip) < 0)
        goto done;
    if (load_root(out, root) < 0)
        goto done;
    rc = 0;
done:
    node_free(root);
    free(buf);
    return rc;
}

/* Free what *s owns and zero it; accepts NULL and partly loaded suites. */
void br_suite_dispose(br_suite *s) {
    if (!s)
        return;
    free(s->name.text);
    free(s->description.text);
    for (size_t i = 0; s->sources && i < s->n_sources; i++)
        free(s->sources[i].text);
    free(s->sources);
    for (size_t i = 0; s->kernels && i < s->n_kernels; i++)
        free(s->kernels[i].text);
    free(s->kernels);
    for (size_t i = 0; s->params && i < s->n_params; i++) {
        free(s->params[i].name);
        free(s->params[i].values);
        free(s->params[i].group);
    }
    free(s->params);
    work_dispose(&s->bytes, s->n_kernels);
    work_dispose(&s->flops, s->n_kernels);
    work_dispose(&s->memory, s->n_kernels);
    free(s->where.text);
    for (size_t i = 0; s->libs && i < s->n_libs; i++)
        free(s->libs[i].text);
    free(s->libs);
    free(s->path);
    free(s->dir);
    memset(s, 0, sizeof *s);
}


/* A command-line value as a scalar node, so the suite's own checks and
 * messages apply; errors name the option. */
static node cli_node(const char *option, const char *text) {
    node n = {0};
    n.kind = NODE_SCALAR;
    n.pos = (br_pos){option, 0, 0};
    n.style = YAML_PLAIN_SCALAR_STYLE;
    n.text = (char *)text;
    n.len = strlen(text);
    return n;
}

int br_parse_duration(double *out_ns, const char *option, const char *text) {
    node n = cli_node(option, text ? text : "");
    return get_duration(out_ns, &n);
}

int br_parse_fraction(double *out, const char *option, const char *text) {
    node n = cli_node(option, text ? text : "");
    return get_fraction(out, &n, option);
}

int br_parse_mode(br_mode *out, const char *option, const char *text, int both_ok) {
    node n = cli_node(option, text ? text : "");
    return get_mode(out, &n, both_ok != 0);
}
