/* SPDX-License-Identifier: Apache-2.0 */
/* The spans of a results document's cases in its text
 * (case_spans.h): a scan of JSON's brackets and strings, structured for the
 * top three levels (document, runs, run) and counting brackets below. */
#include "case_spans.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "json_scan.h"

/* Append [from, to) to the spans of run r. */
static int push_span(br_case_spans *r, size_t *cap, size_t from, size_t to) {
    if (r->n == *cap) {
        *cap = *cap ? 2 * *cap : 64;
        size_t *a = realloc(r->start, *cap * sizeof *a),
               *b = a ? realloc(r->end, *cap * sizeof *b) : NULL;
        if (a)
            r->start = a;
        if (!b)
            return br_error_nomem();
        r->end = b;
    }
    r->start[r->n] = from;
    r->end[r->n++] = to;
    return 0;
}

/* The "cases" array at s->i into r. */
static int read_cases(scan *s, br_case_spans *r) {
    size_t cap = 0;
    r->open = s->i;
    s->i++;
    for (int first = 1; s->ok; first = 0) {
        if (at(s, ']')) {
            r->close = s->i++;
            return 0;
        }
        if (!first && !(at(s, ',') && (s->i++, 1)))
            break;
        ws(s);
        size_t from = s->i;
        skip_value(s);
        if (s->ok && push_span(r, &cap, from, s->i) != 0)
            return -1;
    }
    s->ok = 0;
    return 0;
}

/* One run object at s->i: its one "cases" array into r. */
static int read_run(scan *s, br_case_spans *r) {
    const char *k;
    size_t kn;
    int found = 0;
    if (!at(s, '{'))
        return s->ok = 0;
    s->i++;
    for (int first = 1; next_member(s, first, &k, &kn); first = 0) {
        if (is_key(k, kn, "cases") && at(s, '[') && !found++) {
            if (read_cases(s, r) != 0)
                return -1;
        } else
            skip_value(s);
    }
    s->ok &= found == 1;
    return 0;
}

/* The "runs" array at s->i into *out. */
static int read_runs(scan *s, br_case_spans **out, size_t *n) {
    size_t cap = 0;
    if (!at(s, '['))
        return s->ok = 0;
    s->i++;
    for (int first = 1; s->ok; first = 0) {
        if (at(s, ']')) {
            s->i++;
            return 0;
        }
        if (!first && !(at(s, ',') && (s->i++, 1)))
            break;
        if (*n == cap) {
            cap = cap ? 2 * cap : 4;
            br_case_spans *g = realloc(*out, cap * sizeof *g);
            if (!g)
                return br_error_nomem();
            *out = g;
        }
        memset(&(*out)[*n], 0, sizeof **out);
        if (read_run(s, &(*out)[(*n)++]) != 0)
            return -1;
    }
    s->ok = 0;
    return 0;
}

int br_case_spans_find(br_case_spans **out, size_t *n_out, const char *text, size_t len) {
    scan s = {text, len, 0, 1};
    const char *k;
    size_t kn, n = 0;
    br_case_spans *spans = NULL;
    int runs = 0, rc = 0;
    *out = NULL;
    *n_out = 0;
    if (!at(&s, '{'))
        return 1;
    s.i++;
    for (int first = 1; rc == 0 && next_member(&s, first, &k, &kn); first = 0) {
        if (is_key(k, kn, "runs") && !runs++)
            rc = read_runs(&s, &spans, &n);
        else
            skip_value(&s);
    }
    ws(&s);
    if (rc == 0 && s.ok && runs == 1 && s.i == len) {
        *out = spans;
        *n_out = n;
        return 0;
    }
    br_case_spans_free(spans, n);
    return rc < 0 ? -1 : 1;
}

char *br_case_spans_strip(const char *text, size_t len, const br_case_spans *s, size_t n,
                          size_t *len_out) {
    size_t keep = len;
    for (size_t r = 0; r < n; r++)
        keep -= s[r].close - s[r].open - 1;
    char *out = malloc(keep + 1);
    if (!out) {
        br_error_nomem();
        return NULL;
    }
    size_t from = 0, k = 0;
    for (size_t r = 0; r < n; r++) {
        memcpy(out + k, text + from, s[r].open + 1 - from);
        k += s[r].open + 1 - from;
        from = s[r].close;
    }
    memcpy(out + k, text + from, len - from);
    k += len - from;
    out[k] = '\0';
    *len_out = k;
    return out;
}

void br_case_spans_free(br_case_spans *s, size_t n) {
    for (size_t i = 0; s && i < n; i++) {
        free(s[i].start);
        free(s[i].end);
    }
    free(s);
}
