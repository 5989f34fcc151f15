/* SPDX-License-Identifier: Apache-2.0 */
/* test_case_spans.c - the spans of a results document's cases (case
 * spans.h), and the reader that parses a document one case at a time
 * through them: the same runs as the whole document parsed at once (forced
 * here by spelling the key "runs" with an escape, which the scan does not
 * recognise and jansson does), on the fixtures; and every other shape left
 * to the whole parse. */
#include <criterion/criterion.h>

#include <dirent.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/files.h"
#include "base/util.h"
#include "results/case_json.h"
#include "results/case_spans.h"
#include "results/run_read.h"

static const char doc[] =
    "{\"schema_version\": 4, \"runs\": [\n"
    " {\"x\": \"a]}\\\"[\", \"cases\": [ {\"k\": [1, {\"s\": \"}\"}]} ,{} ], \"y\": 1},\n"
    " {\"cases\": []}]}\n";

Test(case_spans, finds_each_case_through_strings_and_nesting) {
    br_case_spans *s = NULL;
    size_t n = 0;
    cr_assert_eq(br_case_spans_find(&s, &n, doc, strlen(doc)), 0);
    cr_assert_eq(n, 2);
    cr_assert_eq(s[0].n, 2);
    cr_assert_eq(s[1].n, 0);
    char one[64];
    snprintf(one, sizeof one, "%.*s", (int)(s[0].end[0] - s[0].start[0]), doc + s[0].start[0]);
    cr_assert_str_eq(one, "{\"k\": [1, {\"s\": \"}\"}]}");
    cr_assert_eq(s[0].end[1] - s[0].start[1], 2);
    size_t len = 0;
    char *without = br_case_spans_strip(doc, strlen(doc), s, n, &len);
    cr_assert_not_null(without);
    cr_assert_eq(len, strlen(without));
    cr_assert(strstr(without, "\"cases\": [], \"y\": 1}"), "%s", without);
    json_t *j = json_loads(without, 0, NULL);
    cr_assert_not_null(j, "what is left is JSON: %s", without);
    json_decref(j);
    free(without);
    br_case_spans_free(s, n);
}

Test(case_spans, other_shapes_are_left_to_the_whole_parse) {
    const char *other[] = {
        "[]",
        "{\"runs\": {}}",
        "{\"schema_version\": 4}",
        "{\"runs\": [{\"cases\": [], \"cases\": []}]}",
        "{\"runs\": [{\"case\\u0073\": []}]}",
        "{\"runs\": [], \"runs\": []}",
        "{\"runs\": [{\"cases\": [{},,{}]}]}",
        "{\"runs\": [{\"cases\": [{}]}]} trailing",
        "{\"runs\": [{\"cases\": [\"unterminated]}]}",
        "{\"runs\": [{\"cases\": [{}]}]",
        "",
    };
    for (size_t i = 0; i < sizeof other / sizeof *other; i++) {
        br_case_spans *s = (br_case_spans *)1;
        size_t n = 9;
        cr_assert_eq(br_case_spans_find(&s, &n, other[i], strlen(other[i])), 1, "%s", other[i]);
        cr_assert_null(s);
        cr_assert_eq(n, 0);
    }
}

/* Each case of runs a and b written back (json_write's layout): the same text. */
static void assert_same_runs(const br_run *a, size_t na, const br_run *b, size_t nb,
                             const char *what) {
    cr_assert_eq(na, nb, "%s", what);
    for (size_t r = 0; r < na; r++) {
        cr_assert_str_eq(a[r].date, b[r].date, "%s", what);
        cr_assert_str_eq(a[r].suite_name, b[r].suite_name, "%s", what);
        cr_assert_eq(a[r].n_kernels, b[r].n_kernels, "%s", what);
        cr_assert_eq(a[r].n_cases, b[r].n_cases, "%s", what);
        for (size_t i = 0; i < a[r].n_cases; i++) {
            br_json_builder ba = {0}, bb = {0};
            json_t *ja = br_json_case_write(&ba, &a[r], &a[r].cases[i]);
            json_t *jb = br_json_case_write(&bb, &b[r], &b[r].cases[i]);
            char *ta = json_dumps(ja, BR_JSON_DUMP_FLAGS), *tb = json_dumps(jb, BR_JSON_DUMP_FLAGS);
            cr_assert(ta && tb && strcmp(ta, tb) == 0, "%s run %zu case %zu", what, r, i);
            free(ta), free(tb);
            json_decref(ja), json_decref(jb);
        }
    }
}

/* The text with its first "runs" key spelled "run\u0073". */
static char *escaped_runs(const char *text) {
    const char *at = strstr(text, "\"runs\"");
    cr_assert_not_null(at);
    return br_strfmt("%.*s\"run\\u0073\"%s", (int)(at - text), text, at + 6);
}

static void check_file(const char *path) {
    char *text = NULL;
    size_t len = 0;
    cr_assert_eq(br_read_file(&text, &len, path, BR_RESULTS_MAX_BYTES), 0, "%s", br_error_get());
    br_case_spans *s = NULL;
    size_t ns = 0;
    cr_assert_eq(br_case_spans_find(&s, &ns, text, len), 0, "%s: the scan finds its cases", path);
    br_case_spans_free(s, ns);
    char *whole = escaped_runs(text);
    cr_assert_eq(br_case_spans_find(&s, &ns, whole, strlen(whole)), 1);
    br_run *a = NULL, *b = NULL;
    size_t na = 0, nb = 0;
    cr_assert_eq(br_results_parse(&a, &na, text, len, path), 0, "%s", br_error_get());
    cr_assert_eq(br_results_parse(&b, &nb, whole, strlen(whole), path), 0, "%s", br_error_get());
    cr_assert_gt(a[0].n_cases, 0, "%s", path);
    assert_same_runs(a, na, b, nb, path);
    br_results_free(a, na);
    br_results_free(b, nb);
    free(whole);
    free(text);
}

Test(case_spans, a_document_read_by_case_is_the_one_read_whole) {
    const char *dir = BR_FIXTURES_DIR "/history/runs";
    DIR *d = opendir(dir);
    cr_assert_not_null(d);
    struct dirent *e;
    size_t files = 0;
    while ((e = readdir(d)))
        if (br_has_suffix(e->d_name, ".json")) {
            char *path = br_path_join(dir, e->d_name);
            check_file(path);
            free(path);
            files++;
        }
    closedir(d);
    cr_assert_geq(files, 4);
}

Test(case_spans, a_bad_case_gives_the_whole_parse_message) {
    /* A syntax error inside a case: the whole parse's line and column. */
    const char *bad = "{\"schema_version\": 4, \"runs\": [{\"cases\": [\n  {\"kernel\": tru}]}]}";
    br_run *r = NULL;
    size_t n = 0;
    cr_assert_eq(br_results_parse(&r, &n, bad, strlen(bad), "x.json"), -1);
    cr_assert(strncmp(br_error_get(), "x.json:2:", 9) == 0, "%s", br_error_get());
    cr_assert_null(r);
}
