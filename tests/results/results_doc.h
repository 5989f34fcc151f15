/* SPDX-License-Identifier: Apache-2.0 */
/* results_doc.h - helpers of the tests that read results documents back
 * (test_json_read.c, test_jsonread.c): the fixture's document written and
 * parsed, a jansson tree to change before parsing, comparisons of loaded
 * timings with the fixture's. Include it once per test program. */
#ifndef BR_TEST_RESULTS_DOC_H
#define BR_TEST_RESULTS_DOC_H

#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "base/error.h"
#include "results/run_write.h"
#include "model/run.h"
#include "results/run_read.h"
#include "results_fixture.h"

#if defined(__SANITIZE_ADDRESS__)
#define BR_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BR_LSAN 1
#endif
#endif
#ifdef BR_LSAN
#include <sanitizer/lsan_interface.h>
#endif

#define NAME "baselines/reduction/x.json"

/* --- helpers --------------------------------------------------------------------- */

/* The results document of n runs (the json reporter's); the caller frees it. */
static inline char *write_json(const br_run *const *runs, size_t n) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert_not_null(f);
    int rc = br_results_write(f, runs, n);
    fclose(f);
    cr_assert_eq(rc, 0, "%s", br_error_get());
    cr_assert_eq(strlen(buf), len);
    return buf;
}

/* The loaded runs as the json reporter writes them; the caller frees it. */
static inline char *rewrite(const br_run *runs, size_t n) {
    const br_run **ptrs = calloc(n ? n : 1, sizeof *ptrs);
    cr_assert_not_null(ptrs);
    for (size_t i = 0; i < n; i++)
        ptrs[i] = &runs[i];
    char *text = write_json(ptrs, n);
    free(ptrs);
    return text;
}

/* Parse text, which must succeed. */
static inline br_run *parse_ok(const char *text, size_t *out_n) {
    br_run *runs = NULL;
    int rc = br_results_parse(&runs, out_n, text, strlen(text), NAME);
    cr_assert_eq(rc, 0, "%s", br_error_get());
    return runs;
}

/* Parse text, which must fail with exactly message `want` and return nothing. */
static inline void expect_error(const char *text, size_t len, const char *want) {
    br_run *runs = (br_run *)&runs;
    size_t n = 99;
    br_error_clear();
    int rc = br_results_parse(&runs, &n, text, len, NAME);
    cr_assert_eq(rc, -1, "parsed, expected: %s", want);
    cr_assert_null(runs);
    cr_assert_eq(n, 0);
    cr_assert_str_eq(br_error_get(), want);
}

static inline char *dump(const json_t *doc) {
    char *text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
    cr_assert_not_null(text);
    return text;
}

/* The fixture's document as a jansson tree, to change before parsing. */
static inline json_t *fixture_doc(void) {
    char *text = write_json(fixture_ptrs, N_RUNS);
    json_error_t err;
    json_t *doc = json_loads(text, 0, &err);
    cr_assert_not_null(doc, "%s", err.text);
    free(text);
    return doc;
}

/* The value at `path` ("runs[0].cases[3].cold") under root, or NULL. */
static inline json_t *at(json_t *root, const char *path) {
    json_t *v = root;
    const char *p = path;
    while (v && *p) {
        if (*p == '.')
            p++;
        if (*p == '[') {
            char *end;
            size_t i = strtoul(p + 1, &end, 10);
            v = json_array_get(v, i);
            p = end + 1;
        } else {
            size_t n = strcspn(p, ".[");
            char key[128];
            snprintf(key, sizeof key, "%.*s", (int)n, p);
            v = json_object_get(v, key);
            p += n;
        }
    }
    return v;
}

/* Replace the value at `path` with `value` (stolen), add it when the key is
 * absent, or with value NULL delete the key. */
static inline void set(json_t *root, const char *path, json_t *value) {
    const char *dot = strrchr(path, '.'), *bracket = strrchr(path, '[');
    const char *last = dot > bracket ? dot : bracket;
    char parent_path[256] = "";
    if (last)
        snprintf(parent_path, sizeof parent_path, "%.*s", (int)(last - path), path);
    json_t *parent = last ? at(root, parent_path) : root;
    cr_assert_not_null(parent, "no %s", parent_path);
    if (last && *last == '[') {
        size_t i = strtoul(last + 1, NULL, 10);
        cr_assert_eq(json_array_set_new(parent, i, value), 0, "cannot set %s", path);
        return;
    }
    const char *key = last ? last + 1 : path;
    if (value)
        cr_assert_eq(json_object_set_new(parent, key, value), 0, "cannot set %s", path);
    else
        cr_assert_eq(json_object_del(parent, key), 0, "no %s", path);
}

/* Dump doc (then release it) and expect the parse to fail with `want`. */
static inline void expect_doc_error(json_t *doc, const char *want) {
    char *text = dump(doc);
    json_decref(doc);
    expect_error(text, strlen(text), want);
    free(text);
}

/* Dump doc (then release it) and parse it, which must succeed. */
static inline br_run *parse_doc(json_t *doc, size_t *out_n) {
    char *text = dump(doc);
    json_decref(doc);
    br_run *runs = parse_ok(text, out_n);
    free(text);
    return runs;
}

/* Equal, or both NaN. */
static inline int same(double a, double b) {
    return a == b || (isnan(a) && isnan(b));
}

/* got[0..n) equals want[0..n) (NAN for NAN), or both are NULL. */
static inline void expect_array_eq(const double *got, const double *want, size_t n,
                                   const char *what) {
    if (!want) {
        cr_expect_null(got, "%s", what);
        return;
    }
    cr_assert_not_null(got, "%s", what);
    for (size_t i = 0; i < n; i++)
        cr_expect(same(got[i], want[i]), "%s[%zu]: %.17g, want %.17g", what, i, got[i], want[i]);
}

/* The clock and CUPTI data of a loaded timing are the fixture's. */
static inline void expect_clocks_eq(const br_timing *got, const br_timing *want, const char *what) {
    cr_expect_eq(got->clock, want->clock, "%s", what);
    size_t n = want->n_samples;
    expect_array_eq(got->event_ns, want->event_ns, n, what);
    expect_array_eq(got->kernel_ns, want->kernel_ns, n, what);
    expect_array_eq(got->span_ns, want->span_ns, n, what);
    expect_array_eq(got->ops, want->ops, n, what);
    cr_expect(same(got->event_median_ns, want->event_median_ns), "%s", what);
    cr_expect(same(got->kernel_median_ns, want->kernel_median_ns), "%s", what);
    cr_expect(same(got->span_median_ns, want->span_median_ns), "%s", what);
    cr_expect(same(got->ops_median, want->ops_median), "%s", what);
    cr_expect_eq(got->n_incomplete, want->n_incomplete, "%s", what);
    cr_assert_eq(got->n_breakdown, want->n_breakdown, "%s", what);
    cr_expect_eq(got->breakdown == NULL, want->breakdown == NULL, "%s", what);
    for (size_t i = 0; i < want->n_breakdown; i++) {
        const br_op_stat *g = &got->breakdown[i], *w = &want->breakdown[i];
        cr_expect_str_eq(g->name, w->name, "%s", what);
        cr_expect_eq(g->kind, w->kind, "%s", what);
        cr_expect_eq(g->count, w->count, "%s", what);
        cr_expect_eq(g->per_exec, w->per_exec, "%s", what);
        cr_expect_eq(g->median_ns, w->median_ns, "%s", what);
        cr_expect_eq(g->share, w->share, "%s", what);
    }
}

static inline void expect_stats_eq(const br_stats *got, const br_stats *want) {
    cr_expect_eq(got->n, want->n);
    cr_expect_eq(got->min, want->min);
    cr_expect_eq(got->max, want->max);
    cr_expect_eq(got->mean, want->mean);
    cr_expect_eq(got->median, want->median);
    cr_expect_eq(got->stddev, want->stddev);
    cr_expect_eq(got->q1, want->q1);
    cr_expect_eq(got->q3, want->q3);
    cr_expect_eq(got->n_outliers, want->n_outliers);
    if (isnan(want->ci_low))
        cr_expect(isnan(got->ci_low));
    else
        cr_expect_eq(got->ci_low, want->ci_low);
}

/* Under the sanitizer build, fail the test when memory it allocated is no
 * longer reachable: Criterion ignores LeakSanitizer's report at the exit of a
 * test's process (and failures in .fini). Each test calls this last. */
static inline void no_leaks(void) {
#ifdef BR_LSAN
    cr_assert_eq(__lsan_do_recoverable_leak_check(), 0, "memory leaked (report above)");
#endif
}

#endif
