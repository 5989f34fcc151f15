/* SPDX-License-Identifier: Apache-2.0 */
/* Inside results/: a scan of JSON text that builds nothing, shared by the
 * readers that find where parts of a results document lie before jansson
 * parses them (the cases of a document, the per-sample columns of a case):
 * JSON's brackets and strings, whitespace, an object's members. It checks
 * only what finds its way; jansson checks what it then parses. */
#ifndef BR_RESULTS_JSON_SCAN_H
#define BR_RESULTS_JSON_SCAN_H

#include <stddef.h>
#include <string.h>

/* The scan: the text and where it is; ok 0 once something did not fit. */
typedef struct scan {
    const char *t;
    size_t len, i;
    int ok;
} scan;

/* JSON's whitespace (a test per character: strchr cost 6% of a cold index). */
static inline int is_ws(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static inline void ws(scan *s) {
    while (s->i < s->len && is_ws(s->t[s->i]))
        s->i++;
}

static inline int at(scan *s, char c) {
    ws(s);
    return s->ok && s->i < s->len && s->t[s->i] == c;
}

/* Past the string at s->i (its opening quote). */
static inline void skip_string(scan *s) {
    for (s->i++; s->i < s->len; s->i++) {
        if (s->t[s->i] == '\\')
            s->i++;
        else if (s->t[s->i] == '"') {
            s->i++;
            return;
        }
    }
    s->ok = 0;
}

/* Past the value at s->i: a string, a container (brackets counted), or a
 * scalar (up to the next delimiter). */
static inline void skip_value(scan *s) {
    ws(s);
    if (s->i >= s->len) {
        s->ok = 0;
        return;
    }
    char c = s->t[s->i];
    if (c == '"')
        return skip_string(s);
    if (c != '{' && c != '[') {
        size_t from = s->i;
        while (s->i < s->len && !is_ws(c = s->t[s->i]) && c != ',' && c != ']' && c != '}' &&
               c != ':' && c != '\0')
            s->i++;
        s->ok &= s->i > from;
        return;
    }
    size_t depth = 0;
    while (s->i < s->len) {
        c = s->t[s->i];
        if (c == '"') {
            skip_string(s);
            continue;
        }
        depth += c == '{' || c == '[';
        depth -= c == '}' || c == ']';
        s->i++;
        if (depth == 0)
            return;
    }
    s->ok = 0;
}

/* The next member of the object being read: 1 with its key's raw text in
 * [*k, *k + *kn) and s->i at its value, 0 at the closing '}' (passed). */
static inline int next_member(scan *s, int first, const char **k, size_t *kn) {
    if (at(s, '}')) {
        s->i++;
        return 0;
    }
    if (!first) {
        if (!at(s, ','))
            return s->ok = 0;
        s->i++;
    }
    if (!at(s, '"'))
        return s->ok = 0;
    size_t from = s->i + 1;
    skip_string(s);
    *k = s->t + from;
    *kn = s->ok ? s->i - 1 - from : 0;
    if (!at(s, ':'))
        return s->ok = 0;
    s->i++;
    ws(s);
    return s->ok;
}

static inline int is_key(const char *k, size_t kn, const char *name) {
    return kn == strlen(name) && memcmp(k, name, kn) == 0;
}

#endif
