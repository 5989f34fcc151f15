/* SPDX-License-Identifier: Apache-2.0 */
/* Checked access to a jansson document with the JSON path in
 * every message (json_checked.h). */
#include "json_checked.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/error.h"
#include "base/text.h"
#include "base/util.h"

/* --- the JSON path and error messages ---------------------------------------- */

static size_t grow(br_json_ctx *c, int n) {
    if (n > 0)
        c->len += (size_t)n;
    if (c->len >= sizeof c->path)
        c->len = sizeof c->path - 1;
    return c->len;
}

/* Append ".key" ("key" at the root); returns the length to restore with pop. */
size_t br_json_push_key(br_json_ctx *c, const char *key) {
    size_t old = c->len;
    grow(c, snprintf(c->path + c->len, sizeof c->path - c->len, "%s%s", c->len ? "." : "", key));
    return old;
}

/* Append "[i]"; returns the length to restore with pop. */
size_t br_json_push_index(br_json_ctx *c, size_t i) {
    size_t old = c->len;
    grow(c, snprintf(c->path + c->len, sizeof c->path - c->len, "[%zu]", i));
    return old;
}

void br_json_pop(br_json_ctx *c, size_t old) {
    c->len = old;
    c->path[old] = '\0';
}

/* Set the error "NAME: PATH: message" ("NAME: message" at the root). Returns -1. */
int br_json_fail(const br_json_ctx *c, const char *fmt, ...) {
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (c->len)
        return br_error_set("%s: %s: %s", c->name, c->path, msg);
    return br_error_set("%s: %s", c->name, msg);
}

/* br_json_fail() with `key` appended to the path. */
int br_json_fail_key(br_json_ctx *c, const char *key, const char *fmt, ...) {
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    size_t old = br_json_push_key(c, key);
    br_json_fail(c, "%s", msg);
    br_json_pop(c, old);
    return -1;
}

/* What kind of JSON value v is, for "found ..." (an article included). */
const char *br_json_kind(const json_t *v) {
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return "an object";
    case JSON_ARRAY:
        return "an array";
    case JSON_STRING:
        return "a string";
    case JSON_INTEGER:
        return "an integer";
    case JSON_REAL:
        return "a real number";
    case JSON_TRUE:
    case JSON_FALSE:
        return "a boolean";
    case JSON_NULL:
        return "null";
    }
    return "an unknown value";
}

/* `s` quoted for a message: at most 60 bytes (cut at a character boundary,
 * "..." added), control characters and quotes shown as '?'. */
void br_json_quoted(char *buf, size_t size, const char *s) {
    const size_t max = 60;
    size_t n = strlen(s), cut = n;
    if (cut > max) {
        cut = max;
        while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80)
            cut--;
    }
    size_t o = 0;
    if (o + 1 < size)
        buf[o++] = '"';
    for (size_t i = 0; i < cut && o + 1 < size; i++) {
        unsigned char ch = (unsigned char)s[i];
        buf[o++] = ch < 0x20 || ch == 0x7f || ch == '"' ? '?' : (char)ch;
    }
    if (cut < n) {
        for (int i = 0; i < 3 && o + 1 < size; i++)
            buf[o++] = '.';
    }
    if (o + 1 < size)
        buf[o++] = '"';
    buf[o < size ? o : size - 1] = '\0';
}

/* --- typed access to object members ------------------------------------------ */

/* obj[key] in *out; NULL when absent, or null and the key is optional. A
 * required key that is absent is an error naming obj's path. */
int br_json_member(br_json_ctx *c, const json_t *obj, const char *key, int req, json_t **out) {
    json_t *v = json_object_get(obj, key);
    *out = NULL;
    if (!v) {
        if (req)
            return br_json_fail(c, "missing key '%s'", key);
        return 0;
    }
    if (json_is_null(v) && !req)
        return 0;
    *out = v;
    return 0;
}

/* obj[key] as an object or array (`type`); *out NULL when optional and
 * absent or null. */
int br_json_get_container(br_json_ctx *c, const json_t *obj, const char *key, int req,
                          json_type type, json_t **out) {
    json_t *v;
    if (br_json_member(c, obj, key, req, &v) != 0)
        return -1;
    if (v && json_typeof(v) != type) {
        *out = NULL;
        return br_json_fail_key(c, key, "expected %s%s, found %s",
                                type == JSON_OBJECT ? "an object" : "an array",
                                req ? "" : " or null", br_json_kind(v));
    }
    *out = v;
    return 0;
}

/* obj[key] as a string borrowed from the document; NULL when optional and
 * absent or null. */
int br_json_get_string(br_json_ctx *c, const json_t *obj, const char *key, int req,
                       const char **out) {
    json_t *v;
    *out = NULL;
    if (br_json_member(c, obj, key, req, &v) != 0)
        return -1;
    if (!v)
        return 0;
    if (!json_is_string(v))
        return br_json_fail_key(c, key, "expected a string%s, found %s", req ? "" : " or null",
                                br_json_kind(v));
    *out = json_string_value(v);
    return 0;
}

/* obj[key] as a newly allocated string (NULL when optional and absent or null). */
int br_json_get_dup(br_json_ctx *c, const json_t *obj, const char *key, int req, char **out) {
    const char *s;
    *out = NULL;
    if (br_json_get_string(c, obj, key, req, &s) != 0)
        return -1;
    if (s && !(*out = br_strdup(s)))
        return br_json_fail(c, "out of memory");
    return 0;
}

int br_json_name_value(br_json_ctx *c, const json_t *v, char **out) {
    *out = NULL;
    if (!json_is_string(v))
        return br_json_fail(c, "expected a string, found %s", br_json_kind(v));
    const char *s = json_string_value(v);
    size_t len = json_string_length(v), at, n;
    uint32_t cp;
    if (len == 0)
        return br_json_fail(c, "expected a name, found an empty string");
    const char *what = br_text_unsafe(s, len, &at, &n, &cp);
    if (what)
        return br_json_fail(c, "a name that holds %s (U+%04X) at byte %zu", what, (unsigned)cp,
                            at + 1);
    if (!(*out = br_strdup(s)))
        return br_json_fail(c, "out of memory");
    return 0;
}

int br_json_get_label(br_json_ctx *c, const json_t *obj, const char *key, char **out) {
    json_t *v;
    *out = NULL;
    if (br_json_member(c, obj, key, BR_JSON_REQ, &v) != 0)
        return -1;
    size_t old = br_json_push_key(c, key);
    int rc = br_json_name_value(c, v, out);
    br_json_pop(c, old);
    return rc;
}

/* obj[key] copied into buf[size] ("" when absent or null). */
int br_json_get_text(br_json_ctx *c, const json_t *obj, const char *key, char *buf, size_t size) {
    const char *s;
    buf[0] = '\0';
    if (br_json_get_string(c, obj, key, BR_JSON_OPT, &s) != 0)
        return -1;
    if (!s)
        return 0;
    size_t n = strlen(s);
    if (n >= size)
        return br_json_fail_key(c, key, "expected a string of at most %zu bytes, found %zu bytes",
                                size - 1, n);
    memcpy(buf, s, n + 1);
    return 0;
}

/* A number (integer or real) in *out, with what was found for a message. */
int br_json_number_value(br_json_ctx *c, const json_t *v, double *out) {
    if (!json_is_number(v))
        return br_json_fail(c, "expected a number, found %s", br_json_kind(v));
    *out = json_number_value(v);
    return 0;
}

/* obj[key] as a number; NAN when optional and absent or null. */
int br_json_get_number(br_json_ctx *c, const json_t *obj, const char *key, int req, double *out) {
    json_t *v;
    *out = NAN;
    if (br_json_member(c, obj, key, req, &v) != 0)
        return -1;
    if (!v)
        return 0;
    if (!json_is_number(v))
        return br_json_fail_key(c, key, "expected a number%s, found %s", req ? "" : " or null",
                                br_json_kind(v));
    *out = json_number_value(v);
    return 0;
}

/* The integer v in [lo, hi] into *out; the error names c's current path. */
int br_json_int_value(br_json_ctx *c, const json_t *v, long long lo, long long hi, long long *out) {
    if (!json_is_integer(v)) {
        if (lo == 0 && hi == LLONG_MAX)
            return br_json_fail(c, "expected a non-negative integer, found %s", br_json_kind(v));
        return br_json_fail(c, "expected an integer, found %s", br_json_kind(v));
    }
    long long x = (long long)json_integer_value(v);
    if (x < lo || x > hi) {
        if (lo == 0 && hi == LLONG_MAX)
            return br_json_fail(c, "expected a non-negative integer, found %lld", x);
        return br_json_fail(c, "expected an integer in %lld to %lld, found %lld", lo, hi, x);
    }
    *out = x;
    return 0;
}

/* obj[key] as an integer in [lo, hi]; `dflt` when optional and absent or null. */
int br_json_get_int(br_json_ctx *c, const json_t *obj, const char *key, int req, long long lo,
                    long long hi, long long dflt, long long *out) {
    json_t *v;
    *out = dflt;
    if (br_json_member(c, obj, key, req, &v) != 0)
        return -1;
    if (!v)
        return 0;
    size_t old = br_json_push_key(c, key);
    int rc = br_json_int_value(c, v, lo, hi, out);
    br_json_pop(c, old);
    return rc;
}

/* obj[key] as an int in [lo, hi] (0 when absent or null). */
int br_json_get_cint(br_json_ctx *c, const json_t *obj, const char *key, int lo, int hi, int *out) {
    long long x;
    if (br_json_get_int(c, obj, key, BR_JSON_OPT, lo, hi, 0, &x) != 0)
        return -1;
    *out = (int)x;
    return 0;
}

/* obj[key] as a count (a non-negative integer that fits size_t; 0 when
 * optional and absent or null). */
int br_json_get_size(br_json_ctx *c, const json_t *obj, const char *key, int req, size_t *out) {
    long long hi = LLONG_MAX, x;
#if LLONG_MAX > SIZE_MAX
    hi = (long long)SIZE_MAX;
#endif
    *out = 0;
    if (br_json_get_int(c, obj, key, req, 0, hi, 0, &x) != 0)
        return -1;
    *out = (size_t)x;
    return 0;
}

/* obj[key] as a count; 0 when absent or null. */
int br_json_get_count(br_json_ctx *c, const json_t *obj, const char *key, size_t *out) {
    return br_json_get_size(c, obj, key, BR_JSON_OPT, out);
}

/* obj[key] as a boolean: 1 / 0, or `if_null` when absent or null. */
int br_json_get_bool(br_json_ctx *c, const json_t *obj, const char *key, int if_null, int *out) {
    json_t *v;
    *out = if_null;
    if (br_json_member(c, obj, key, BR_JSON_OPT, &v) != 0)
        return -1;
    if (!v)
        return 0;
    if (!json_is_boolean(v))
        return br_json_fail_key(c, key, "expected true, false or null, found %s", br_json_kind(v));
    *out = json_is_true(v);
    return 0;
}

/* obj[key] as one of n names (names[i] stands for values[i]); `dflt` when
 * optional and absent or null. */
int br_json_get_enum(br_json_ctx *c, const json_t *obj, const char *key, int req,
                     const char *const *names, const int *values, size_t n, int dflt, int *out) {
    const char *s = NULL;
    json_t *v;
    *out = dflt;
    if (br_json_member(c, obj, key, req, &v) != 0)
        return -1;
    if (!v)
        return 0;
    if (json_is_string(v)) {
        s = json_string_value(v);
        for (size_t i = 0; i < n; i++) {
            if (strcmp(s, names[i]) == 0) {
                *out = values[i];
                return 0;
            }
        }
    }
    char list[256] = "";
    size_t len = 0;
    for (size_t i = 0; i < n && len < sizeof list; i++) {
        const char *sep = i == 0 ? "" : i + 1 == n ? " or " : ", ";
        int w = snprintf(list + len, sizeof list - len, "%s\"%s\"", sep, names[i]);
        len += w > 0 ? (size_t)w : 0;
    }
    char found[80];
    if (s)
        br_json_quoted(found, sizeof found, s);
    else
        snprintf(found, sizeof found, "%s", br_json_kind(v));
    return br_json_fail_key(c, key, "expected %s%s, found %s", list, req ? "" : " or null", found);
}

int br_json_get_name(br_json_ctx *c, const json_t *obj, const char *key, int req, const br_name *t,
                     const int *only, size_t n_only, int dflt, int *out) {
    const char *names[BR_JSON_MAX_NAMES];
    int values[BR_JSON_MAX_NAMES];
    size_t n = 0;
    for (; (only ? n < n_only : t[n].name != NULL) && n < BR_JSON_MAX_NAMES; n++) {
        values[n] = only ? only[n] : t[n].value;
        names[n] = br_name_of(t, values[n], "?");
    }
    return br_json_get_enum(c, obj, key, req, names, values, n, dflt, out);
}
