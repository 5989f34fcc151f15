/* SPDX-License-Identifier: Apache-2.0 */
/* test_bad_suites.c - every malformed suite, through the real benchrun.
 *
 * What it proves: for each tests/fixtures/bad/NAME.yaml, the benchrun
 * executable, run with every output asked for
 *   benchrun PATH --save-baseline --baseline-dir T/baselines --json T/out.json
 *            --csv T/out.csv --results-dir T/results --cache-dir C -q
 * goes through every stage before measuring (load, plan, build and kernel
 * resolution) and then
 *   - exits with status 2 (bad input): not a crash, a signal or a sanitizer
 *     report (the sanitizer build runs this same test; ASan, LSan and UBSan
 *     all make the status differ),
 *   - prints as the first line of standard error "PATH:" followed by the text
 *     of NAME.expect (its trailing newlines cut), the message with its
 *     line:column,
 *   - prints nothing on standard output,
 *   - and creates nothing under T: no baseline, no results file, no JSON or
 *     CSV, not even a temporary file.
 * So errors found after loading (a kernel no source defines, a `where` that
 * empties the plan, an overflow or a division by zero in `bytes`) are
 * fixtures as much as YAML syntax errors are.
 *
 * Adding a case: put NAME.yaml and NAME.expect in tests/fixtures/bad/. Write
 * the .expect as "LINE:COLUMN: message", exactly what benchrun prints after
 * "PATH:". Sources are named relative to the fixture (../suites/dummy.c is an
 * empty source that fails the build, so use it only for errors found before
 * the build; ../e2e/host_kernels.c is a real module). In the .expect,
 * {FIXTURES} stands for the absolute path of tests/fixtures (for messages that
 * name a resolved source), and a trailing "..." makes it a prefix (for
 * messages that end with a figure of the machine, such as its memory). A message without a position
 * reads "PATH: message", so its .expect starts with a space.
 *
 * The compile cache C is one directory for the whole run (made before the
 * first case, removed after the last), so a source is compiled once, not
 * once per fixture.
 */
#include <criterion/criterion.h>
#include <criterion/hooks.h>
#include <criterion/parameterized.h>

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e_util.h"
#include "base/error.h"

#define BAD             BR_FIXTURES_DIR "/bad"
#define CACHE_ENV       "BR_TEST_BAD_SUITES_CACHE"
#define FIXTURES_MARKER "{FIXTURES}"

/* ---------------------------------------------------------------------------
 * the shared compile cache: made and removed by the runner process; test
 * cases run in their own processes and find it in the environment.
 */

ReportHook(PRE_ALL)(struct criterion_test_set *set) {
    (void)set;
    char *dir = e2e_tmpdir();
    if (dir) {
        char *cache = br_strfmt("%s/cache", dir);
        if (cache)
            setenv(CACHE_ENV, cache, 1);
        free(cache);
        free(dir);
    }
}

ReportHook(POST_ALL)(struct criterion_global_stats *stats) {
    (void)stats;
    const char *cache = getenv(CACHE_ENV);
    char *dir = cache ? br_path_dir(cache) : NULL;
    if (dir && strncmp(dir, "/tmp/br-test-", strlen("/tmp/br-test-")) == 0)
        e2e_rmtree(dir);
    free(dir);
}

/* ---------------------------------------------------------------------------
 * the fixtures
 */

struct bad_case {
    char name[200]; /* file name of the .yaml, relative to BAD */
};

static bool has_suffix(const char *s, const char *suffix) {
    size_t ls = strlen(s), lx = strlen(suffix);
    return ls >= lx && strcmp(s + ls - lx, suffix) == 0;
}

static int cmp_case(const void *a, const void *b) {
    return strcmp(((const struct bad_case *)a)->name, ((const struct bad_case *)b)->name);
}

static void free_cases(struct criterion_test_params *crp) {
    cr_free(crp->params);
}

/* The .yaml files in BAD, sorted; *out_n of them, in memory from `alloc`. */
static struct bad_case *list_bad(size_t *out_n, void *(*alloc)(size_t)) {
    size_t n = 0, cap = 1024;
    struct bad_case *cases = alloc(cap * sizeof *cases);
    DIR *d = opendir(BAD);
    if (!d || !cases) {
        *out_n = 0;
        if (d)
            closedir(d);
        return cases;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < cap) {
        if (has_suffix(e->d_name, ".yaml") && strlen(e->d_name) < sizeof cases[0].name) {
            memset(cases[n].name, 0, sizeof cases[n].name);
            memcpy(cases[n].name, e->d_name, strlen(e->d_name));
            n++;
        }
    }
    closedir(d);
    qsort(cases, n, sizeof *cases, cmp_case);
    *out_n = n;
    return cases;
}

/* The expected first line of stderr: "PATH:" + the .expect text, trailing
 * newlines cut and {FIXTURES} replaced. Caller frees. */
static char *expected_line(const char *name, const char *path) {
    char *expect_path =
        br_strfmt("%s/%.*s.expect", BAD, (int)(strlen(name) - strlen(".yaml")), name);
    cr_assert_not_null(expect_path);
    char *expect = NULL;
    cr_assert_eq(br_read_file(&expect, NULL, expect_path, 1 << 16), 0, "%s: cannot read %s: %s",
                 name, expect_path, br_error_get());
    free(expect_path);
    size_t el = strlen(expect);
    while (el > 0 && (expect[el - 1] == '\n' || expect[el - 1] == '\r'))
        expect[--el] = '\0';
    cr_assert_null(strchr(expect, '\n'), "%s: the .expect holds more than one line", name);

    char *want = br_strfmt("%s:", path);
    cr_assert_not_null(want);
    for (const char *p = expect; *p;) {
        const char *m = strstr(p, FIXTURES_MARKER);
        size_t len = m ? (size_t)(m - p) : strlen(p);
        char *next = br_strfmt("%s%.*s%s", want, (int)len, p, m ? BR_FIXTURES_DIR : "");
        cr_assert_not_null(next);
        free(want);
        want = next;
        p += len + (m ? strlen(FIXTURES_MARKER) : 0);
    }
    free(expect);
    return want;
}

/* The names in dir, comma-separated ("" when it is empty). Caller frees. */
static char *dir_entries(const char *dir) {
    char *list = br_strdup("");
    DIR *d = opendir(dir);
    cr_assert(d && list, "cannot list %s", dir);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char *next = br_strfmt("%s%s%s", list, list[0] ? ", " : "", e->d_name);
        cr_assert_not_null(next);
        free(list);
        list = next;
    }
    closedir(d);
    return list;
}

TestSuite(bad_suites, .init = e2e_tmp_make, .fini = e2e_tmp_drop, .timeout = 120);

ParameterizedTestParameters(bad_suites, rejected) {
    size_t n = 0;
    struct bad_case *cases = list_bad(&n, cr_malloc);
    return cr_make_param_array(struct bad_case, cases, n, free_cases);
}

ParameterizedTest(struct bad_case *c, bad_suites, rejected) {
    char *path = br_strfmt("%s/%s", BAD, c->name);
    char *want = expected_line(c->name, path);

    /* The cache: the run's shared one, else one of this case's own, outside
     * tmp so that tmp must stay empty. */
    char *own_cache = NULL;
    const char *shared = getenv(CACHE_ENV);
    if (!shared || !shared[0]) {
        own_cache = e2e_tmpdir();
        cr_assert_not_null(own_cache);
    }
    char *cache = br_strfmt("%s", shared && shared[0] ? shared : own_cache);
    char *baselines = br_strfmt("%s/baselines", tmp);
    char *json = br_strfmt("%s/out.json", tmp);
    char *csv = br_strfmt("%s/out.csv", tmp);
    char *results = br_strfmt("%s/results", tmp);
    cr_assert(path && cache && baselines && json && csv && results);

    const char *args[] = {
        path, "--save-baseline", "--baseline-dir", baselines,     "--json", json, "--csv",
        csv,  "--results-dir",   results,          "--cache-dir", cache,    "-q", NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0, "%s: cannot run %s", c->name, BR_BENCHRUN_EXE);
    const char *err = r.err ? r.err : "";
    const char *out = r.out ? r.out : "";

    cr_expect_eq(r.status, 2, "%s: exit status %d, expected 2 (bad input)\nstderr:\n%s", c->name,
                 r.status, err);
    cr_expect_null(strstr(err, "Sanitizer"), "%s: a sanitizer report:\n%s", c->name, err);
    cr_expect_null(strstr(err, "runtime error:"), "%s: a sanitizer report:\n%s", c->name, err);

    size_t first = strcspn(err, "\n");
    char *line = br_strfmt("%.*s", (int)first, err);
    cr_assert_not_null(line);
    /* An expectation ending in "..." (a message that ends with a figure of
     * this machine, such as its memory) is a prefix. */
    size_t wl = strlen(want);
    if (wl >= 3 && strcmp(want + wl - 3, "...") == 0 && strncmp(line, want, wl - 3) == 0)
        line[wl - 3] = '\0', want[wl - 3] = '\0';
    cr_expect_str_eq(line, want, "%s: first line of stderr\n  got:      %s\n  expected: %s",
                     c->name, line, want);
    cr_expect_str_empty(out, "%s: wrote to stdout:\n%s", c->name, out);

    /* Nothing created: no baselines/, results/, out.json, out.csv, nor any
     * temporary file beside them. */
    char *left = dir_entries(tmp);
    cr_expect_str_empty(left, "%s: created in the output directory: %s", c->name, left);

    free(left);
    free(line);
    e2e_free(&r);
    if (own_cache)
        e2e_rmtree(own_cache);
    free(own_cache);
    free(cache);
    free(baselines);
    free(json);
    free(csv);
    free(results);
    free(want);
    free(path);
}

/* Every .yaml has its .expect and every .expect its .yaml. */
Test(bad_suites, every_fixture_has_an_expectation) {
    size_t n = 0;
    struct bad_case *cases = list_bad(&n, malloc);
    cr_assert_not_null(cases);
    cr_assert_geq(n, 100, "only %zu bad fixtures", n);
    for (size_t i = 0; i < n; i++) {
        char p[512];
        snprintf(p, sizeof p, "%s/%.*s.expect", BAD, (int)(strlen(cases[i].name) - 5),
                 cases[i].name);
        cr_expect_eq(access(p, R_OK), 0, "%s has no .expect", cases[i].name);
    }
    DIR *d = opendir(BAD);
    cr_assert_not_null(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!has_suffix(e->d_name, ".expect"))
            continue;
        char p[512];
        snprintf(p, sizeof p, "%s/%.*s.yaml", BAD, (int)(strlen(e->d_name) - 7), e->d_name);
        cr_expect_eq(access(p, R_OK), 0, "%s has no .yaml", e->d_name);
    }
    closedir(d);
    free(cases);
}
