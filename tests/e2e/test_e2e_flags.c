/* SPDX-License-Identifier: Apache-2.0 */
/* test_e2e_flags.c - through the benchrun executable: a suite of a C++ and a
 * C host module with cflags and include_dirs runs every case (verified), and
 * outside a git work tree a saved baseline is found from any current
 * directory: DIR/suites/x.yaml keeps it in DIR/baselines, DIR/x.yaml in
 * DIR/baselines, and --baseline-dir still overrides. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "base/error.h"
#include "e2e_util.h"

#define CXX_FIXTURE BR_FIXTURES_DIR "/cxx"
#define E2E         BR_FIXTURES_DIR "/e2e"

static char *cache_arg;

static void make_tmp(void) {
    e2e_tmp_make();
    cache_arg = br_strfmt("--cache-dir=%s/cache", tmp);
}

static void drop_tmp(void) {
    e2e_tmp_drop();
    free(cache_arg);
}

TestSuite(e2e_flags, .init = make_tmp, .fini = drop_tmp, .timeout = 240);

/* Skip the test, visibly, without a C++ compiler ($CXX, else c++). */
static void need_cxx(void) {
    if (system("command -v \"${CXX:-c++}\" >/dev/null 2>&1") != 0)
        cr_skip_test("no C++ compiler (c++, or $CXX) on PATH: install g++");
}

static json_t *first_run(const char *path) {
    json_error_t err;
    json_t *doc = json_load_file(path, 0, &err);
    cr_assert_not_null(doc, "%s: %s", path, err.text);
    return doc;
}

Test(e2e_flags, a_cpp_module_with_cflags_and_include_dirs_runs) {
    need_cxx();
    char *json = br_strfmt("%s/out.json", tmp);
    const char *args[] = {cache_arg, "-q", "--json", json, CXX_FIXTURE "/wave.yaml", NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, tmp, args), 0);
    cr_assert_eq(r.status, 0, "exit %d\nstderr:\n%s", r.status, r.err);
    json_t *doc = first_run(json);
    json_t *run = json_array_get(json_object_get(doc, "runs"), 0);
    json_t *cases = json_object_get(run, "cases");
    cr_assert_eq(json_array_size(cases), 4, "2 kernels x 2 sizes");
    for (size_t i = 0; i < 4; i++) {
        json_t *c = json_array_get(cases, i);
        cr_assert_str_eq(json_string_value(json_object_get(c, "status")), "ok");
        cr_assert(json_is_true(json_object_get(c, "verified")));
    }
    json_t *k = json_array_get(json_object_get(run, "kernels"), 0);
    cr_assert_str_eq(json_string_value(json_object_get(k, "name")), "wave_cxx");
    cr_assert_str_eq(json_string_value(json_object_get(k, "source")), CXX_FIXTURE "/wave_cxx.cpp");
    cr_assert_str_eq(json_string_value(json_object_get(k, "backend")), "host");
    json_decref(doc);
    e2e_free(&r);
    free(json);
}

/* Write tmp/<rel> as a copy of the e2e fixture ok.yaml whose source is the
 * fixture's host module (by absolute path); returns the path. */
static char *put_suite(const char *rel) {
    char *dir = br_strfmt("%s/%s", tmp, rel), *parent = br_path_dir(dir);
    cr_assert_eq(br_mkdir_p(parent), 0);
    free(dir);
    free(parent);
    char *text = NULL;
    cr_assert_eq(br_read_file(&text, NULL, E2E "/ok.yaml", 1 << 20), 0);
    char *at = strstr(text, "source: host_kernels.c");
    cr_assert_not_null(at);
    *at = '\0';
    char *suite = br_strfmt("%ssource: %s/host_kernels.c%s", text, E2E,
                            at + strlen("source: host_kernels.c"));
    char *path = e2e_put(rel, suite);
    free(text);
    free(suite);
    return path;
}

/* Run `suite` in `cwd` with --save-baseline; returns the path saved to. */
static char *save_in(const char *cwd, const char *suite) {
    const char *args[] = {cache_arg, "--save-baseline", suite, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, cwd, args), 0);
    cr_assert_eq(r.status, 0, "exit %d\nstderr:\n%s", r.status, r.err);
    const char *saved = strstr(r.err, "saved baseline ");
    cr_assert_not_null(saved, "stderr:\n%s", r.err);
    saved += strlen("saved baseline ");
    char *path = strndup(saved, strcspn(saved, ":"));
    e2e_free(&r);
    return path;
}

/* Run `suite` in `cwd`; returns the baseline its comparison names (NULL when
 * the run found none). */
static char *compared_with(const char *cwd, const char *suite) {
    char *json = br_strfmt("%s/cmp.json", tmp);
    const char *args[] = {cache_arg, "-q", "--fail-on", "never", "--json", json, suite, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, cwd, args), 0);
    cr_assert_eq(r.status, 0, "exit %d\nstderr:\n%s", r.status, r.err);
    json_t *doc = first_run(json);
    json_t *cmp = json_object_get(json_array_get(json_object_get(doc, "runs"), 0), "comparison");
    const char *b = json_string_value(json_object_get(cmp, "baseline"));
    char *found = b ? strdup(b) : NULL;
    json_decref(doc);
    e2e_free(&r);
    free(json);
    return found;
}

static int exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0;
}

Test(e2e_flags, outside_git_a_baseline_is_found_from_any_directory) {
    char *suite = put_suite("proj/suites/s.yaml");
    char *proj = br_strfmt("%s/proj", tmp), *suites = br_strfmt("%s/proj/suites", tmp);
    /* saved from the project's folder, with a relative path */
    char *saved = save_in(proj, "suites/s.yaml");
    cr_assert(strncmp(saved, "baselines/e2e/", 14) == 0, "%s", saved);
    char *abs = br_strfmt("%s/%s", proj, saved);
    cr_assert(exists(abs), "%s", abs);
    /* found from /, from the suites folder, from tmp (each outside git) */
    char *found = compared_with("/", suite);
    cr_assert_not_null(found, "a run from / found no baseline");
    cr_assert_str_eq(found, abs);
    free(found);
    found = compared_with(suites, "s.yaml");
    cr_assert_not_null(found, "a run from the suites folder found no baseline");
    char *rel = br_strfmt("../%s", saved);
    cr_assert_str_eq(found, rel);
    free(found);
    found = compared_with(tmp, "proj/suites/s.yaml");
    cr_assert_not_null(found);
    free(found);
    char *stray = br_strfmt("%s/baselines", tmp);
    cr_assert(!exists(stray), "nothing written under the current directory");
    free(stray);
    free(rel);
    free(abs);
    free(saved);
    free(proj);
    free(suites);
    free(suite);
}

Test(e2e_flags, outside_git_a_flat_folder_keeps_its_baselines_inside) {
    char *suite = put_suite("flat/s.yaml");
    char *saved = save_in("/", suite);
    char *want = br_strfmt("%s/flat/baselines/e2e/", tmp);
    cr_assert(strncmp(saved, want, strlen(want)) == 0, "%s", saved);
    char *found = compared_with(tmp, "flat/s.yaml");
    cr_assert_not_null(found);
    free(found);
    /* --baseline-dir overrides: there is none there */
    char *dir_arg = br_strfmt("--baseline-dir=%s/elsewhere", tmp);
    const char *args[] = {cache_arg, dir_arg, "--save-baseline", suite, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, "/", args), 0);
    cr_assert_eq(r.status, 0, "stderr:\n%s", r.err);
    cr_assert(strstr(r.err, "/elsewhere/e2e/"), "stderr:\n%s", r.err);
    e2e_free(&r);
    free(dir_arg);
    free(want);
    free(saved);
    free(suite);
}
