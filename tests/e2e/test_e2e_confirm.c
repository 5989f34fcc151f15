/* SPDX-License-Identifier: Apache-2.0 */
/* End-to-end regression gate in two stages (gate/confirm.h, issue 38): a
 * repository made with libgit2 holds a host module that sums n floats, at
 * m = 1 or 2 sizes. Its baseline is saved at the commit; then
 *   - saved twice, a kernel made to do twice the work (in the work tree)
 *     exits 3 at m = 1 and at m = 2, each case `slower` and confirmed by
 *     A/B against the baseline's commit (with --confirm never too, the
 *     screen alone: the second save no longer makes the gate deaf);
 *   - saves of the same code never restart a record, also when one read
 *     differently (a synthetic load: the kernel repeats its work as
 *     BR_TEST_LOAD says, the same for both builds); a changed source does;
 *   - an A/A run under that synthetic load is flagged by the screen, not
 *     confirmed by the A/B (both builds run under the same load), exits 0,
 *     and names the shift of the machine;
 *   - outside git, the run says it cannot confirm and the screen decides;
 *     --confirm always refuses it (exit 2). */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "e2e_util.h"
#include "git_repo.h"

static char *repo_dir, *cache_arg, *json_path;
static git_repository *repo;

static void make(void) {
    e2e_tmp_make();
    cr_assert_geq(git_libgit2_init(), 1);
    repo_dir = br_strfmt("%s/repo", tmp);
    cache_arg = br_strfmt("--cache-dir=%s/cache", tmp);
    json_path = br_strfmt("%s/out.json", tmp);
    cr_assert_eq(mkdir(repo_dir, 0755), 0);
    repo = gr_init(repo_dir);
    unsetenv("BR_TEST_LOAD");
    unsetenv("NO_COLOR");
}

static void drop(void) {
    git_repository_free(repo);
    git_libgit2_shutdown();
    unsetenv("BR_TEST_LOAD");
    free(repo_dir);
    free(cache_arg);
    free(json_path);
    e2e_tmp_drop();
}

TestSuite(e2e_confirm, .init = make, .fini = drop, .timeout = 300);

/* The suite at m sizes (2^16, then 2^17). */
static void write_suite(int m) {
    char *text = br_strfmt("name: confirmtest\n"
                           "source: k.c\n"
                           "kernels: [sum]\n"
                           "params:\n  n: [%s]\n"
                           "bytes: 4 * n\n"
                           "cache: warm\n"
                           "warmup: 1ms\n"
                           "measure:\n  min_samples: 10\n  min_time: 5ms\n  timeout: 300ms\n",
                           m == 1 ? "65536" : "65536, 131072");
    gr_write(repo_dir, "suite.yaml", text);
    free(text);
}

/* The module: sum reads its input `passes` times, times BR_TEST_LOAD (the
 * synthetic load: an environment both builds of an A/B see alike). */
static void write_kernel(int passes) {
    char *text =
        br_strfmt("#include <stdlib.h>\n"
                  "#include \"benchrun_kernel.h\"\n"
                  "typedef struct st { float *x; int64_t n; int reps; volatile double got; } st;\n"
                  "static int setup(br_case *c) {\n"
                  "    int64_t n;\n"
                  "    if (c->api->param(c, \"n\", &n) != 0) return -1;\n"
                  "    st *s = calloc(1, sizeof *s);\n"
                  "    if (!s) return c->api->fail(c, \"out of memory\");\n"
                  "    c->state = s; s->n = n;\n"
                  "    const char *load = getenv(\"BR_TEST_LOAD\");\n"
                  "    s->reps = %d * (load ? atoi(load) : 1);\n"
                  "    s->x = c->api->alloc(c, (size_t)n * sizeof *s->x, BR_MEM_HOST);\n"
                  "    if (!s->x) return -1;\n"
                  "    for (int64_t i = 0; i < n; i++) s->x[i] = 1.0f;\n"
                  "    return 0;\n"
                  "}\n"
                  "static int run(br_case *c) {\n"
                  "    st *s = c->state; double acc = 0;\n"
                  "    for (int p = 0; p < s->reps; p++) {\n"
                  "        acc = 0;\n"
                  "        for (int64_t i = 0; i < s->n; i++) acc += ((volatile float *)s->x)[i];\n"
                  "    }\n"
                  "    s->got = acc; return 0;\n"
                  "}\n"
                  "static int verify(br_case *c) {\n"
                  "    st *s = c->state;\n"
                  "    return s->got == (double)s->n ? 0 : c->api->fail(c, \"wrong sum\");\n"
                  "}\n"
                  "static void teardown(br_case *c) { free(c->state); c->state = NULL; }\n"
                  "static const br_kernel kernels[] = {{\"sum\", setup, run, verify, teardown}};\n"
                  "BR_MODULE(kernels);\n",
                  passes);
    gr_write(repo_dir, "k.c", text);
    free(text);
}

/* benchrun suite.yaml in the repository with `extra` options (NULL-ended,
 * at most 6); its JSON in json_path. */
static e2e_result bench(const char *const *extra) {
    const char *args[16] = {"suite.yaml", "-q", cache_arg, "--json", json_path};
    size_t n = 5;
    for (size_t i = 0; extra && extra[i] && n < 15; i++)
        args[n++] = extra[i];
    args[n] = NULL;
    e2e_result r;
    cr_assert_eq(e2e_run(&r, repo_dir, args), 0);
    return r;
}

/* Save the baseline `k` times. */
static void save(int k) {
    const char *extra[] = {"--save-baseline", NULL};
    for (int i = 0; i < k; i++) {
        e2e_result r = bench(extra);
        cr_assert_eq(r.status, 0, "save %d: %s", i + 1, r.err);
        e2e_free(&r);
    }
}

/* The comparison of the last run's JSON (a new reference). */
static json_t *comparison(json_t **doc) {
    json_error_t err;
    *doc = json_load_file(json_path, 0, &err);
    cr_assert_not_null(*doc, "%s", err.text);
    json_t *c = json_object_get(json_array_get(json_object_get(*doc, "runs"), 0), "comparison");
    cr_assert(json_is_object(c));
    return c;
}

/* The run medians each case of the saved baseline holds. */
static void assert_record(size_t want) {
    char *path = br_strfmt("%s/baselines/confirmtest/host.json", repo_dir);
    json_error_t err;
    json_t *doc = json_load_file(path, 0, &err);
    if (!doc) { /* the device part of the name is the host's CPU: take the one file */
        char *cmd = br_strfmt("ls %s/baselines/confirmtest/*.json", repo_dir);
        FILE *p = popen(cmd, "r");
        char line[4096] = "";
        cr_assert(p && fgets(line, sizeof line, p), "no baseline file");
        pclose(p);
        line[strcspn(line, "\n")] = '\0';
        doc = json_load_file(line, 0, &err);
        free(cmd);
    }
    cr_assert_not_null(doc, "%s", err.text);
    json_t *cases = json_object_get(json_array_get(json_object_get(doc, "runs"), 0), "cases");
    cr_assert_gt(json_array_size(cases), 0);
    for (size_t i = 0; i < json_array_size(cases); i++) {
        json_t *cold = json_object_get(json_array_get(cases, i), "cold");
        size_t k = json_array_size(json_object_get(cold, "run_medians"));
        cr_assert_eq(k, want, "case %zu holds %zu run medians, expected %zu", i, k, want);
    }
    json_decref(doc);
    free(path);
}

/* Two saves at m sizes, then the kernel twice as slow (not committed). */
static void two_saves_then_2x(int m, const char *confirm, int confirmed) {
    write_suite(m);
    write_kernel(1);
    gr_commit_all(repo, "sum");
    save(2);
    write_kernel(2);
    const char *extra[] = {"--confirm", confirm, NULL};
    e2e_result r = bench(extra);
    cr_assert_eq(r.status, 3, "m = %d, --confirm %s: %s", m, confirm, r.err);
    json_t *doc, *c = comparison(&doc);
    json_t *cases = json_object_get(c, "cases");
    cr_assert_eq(json_array_size(cases), (size_t)m);
    for (int i = 0; i < m; i++) {
        json_t *e = json_array_get(cases, (size_t)i);
        cr_assert_str_eq(json_string_value(json_object_get(e, "status")), "slower");
        cr_assert_eq(json_real_value(json_object_get(e, "spread_df")) >= 21, 1,
                     "two saves are worth the assumed drift's df and one more");
        if (confirmed) {
            cr_assert_str_eq(json_string_value(json_object_get(e, "stage")), "confirmed");
            double ratio = json_real_value(json_object_get(e, "ratio"));
            cr_assert(ratio > 1.5 && ratio < 2.6, "A/B ratio %g", ratio);
        }
    }
    json_t *ci = json_object_get(c, "confirm");
    if (confirmed) {
        cr_assert(json_is_true(json_object_get(ci, "ran")));
        cr_assert_eq(json_integer_value(json_object_get(ci, "confirmed")), m);
    } else {
        cr_assert_null(ci, "--confirm never: no confirmation");
    }
    json_decref(doc);
    e2e_free(&r);
}

Test(e2e_confirm, two_saves_then_2x_exits_3_at_one_case) {
    two_saves_then_2x(1, "auto", 1);
}

Test(e2e_confirm, two_saves_then_2x_exits_3_at_two_cases) {
    two_saves_then_2x(2, "auto", 1);
}

Test(e2e_confirm, two_saves_then_2x_exits_3_on_the_screen_alone) {
    two_saves_then_2x(2, "never", 0);
}

Test(e2e_confirm, a_save_of_the_same_code_never_restarts_a_record) {
    write_suite(2);
    write_kernel(1);
    gr_commit_all(repo, "sum");
    save(2);
    assert_record(2);
    /* A third save on a loaded machine reads 3x: still the same code. */
    setenv("BR_TEST_LOAD", "3", 1);
    save(1);
    unsetenv("BR_TEST_LOAD");
    assert_record(3);
    save(1);
    assert_record(4);
    /* New code: the record starts over. */
    write_kernel(2);
    gr_commit_all(repo, "twice the work");
    save(1);
    assert_record(1);
}

Test(e2e_confirm, an_a_a_run_under_load_is_not_confirmed_and_names_the_shift) {
    write_suite(2);
    write_kernel(1);
    gr_commit_all(repo, "sum");
    save(3);
    setenv("BR_TEST_LOAD", "2", 1); /* the machine, not the code: both A/B sides see it */
    const char *extra[] = {NULL};
    e2e_result r = bench(extra);
    unsetenv("BR_TEST_LOAD");
    cr_assert_eq(r.status, 0, "%s", r.err);
    json_t *doc, *c = comparison(&doc);
    json_t *cases = json_object_get(c, "cases");
    for (size_t i = 0; i < json_array_size(cases); i++) {
        json_t *e = json_array_get(cases, i);
        cr_assert_str_eq(json_string_value(json_object_get(e, "stage")), "not-confirmed");
        cr_assert_str_eq(json_string_value(json_object_get(e, "status")), "same");
        cr_assert(json_real_value(json_object_get(e, "change")) > 0.5, "the screen read +100%%");
        cr_assert(strstr(json_string_value(json_object_get(e, "why")), "not confirmed by A/B"));
    }
    json_t *ci = json_object_get(c, "confirm");
    cr_assert_eq(json_integer_value(json_object_get(ci, "flagged")), 2);
    cr_assert_eq(json_integer_value(json_object_get(ci, "confirmed")), 0);
    const char *note = json_string_value(json_object_get(ci, "note"));
    cr_assert(note && strstr(note, "this machine reads") &&
                  strstr(note, "slower than when the baseline was saved"),
              "%s", note ? note : "(no note)");
    json_decref(doc);
    e2e_free(&r);
}

Test(e2e_confirm, without_a_commit_the_screen_decides_and_always_refuses) {
    /* The repository's files copied outside git. */
    write_suite(1);
    write_kernel(1);
    char *plain = br_strfmt("%s/plain", tmp);
    char *cmd =
        br_strfmt("mkdir -p %s && cp %s/suite.yaml %s/k.c %s/", plain, repo_dir, repo_dir, plain);
    cr_assert_eq(system(cmd), 0);
    free(cmd);
    free(repo_dir);
    repo_dir = plain;
    save(1);
    write_kernel(2);
    e2e_result r = bench(NULL);
    cr_assert_eq(r.status, 3, "%s", r.err);
    json_t *doc, *c = comparison(&doc);
    json_t *e = json_array_get(json_object_get(c, "cases"), 0);
    cr_assert_str_eq(json_string_value(json_object_get(e, "stage")), "screen");
    json_t *ci = json_object_get(c, "confirm");
    cr_assert(json_is_false(json_object_get(ci, "ran")));
    cr_assert(strstr(json_string_value(json_object_get(ci, "note")), "cannot confirm by A/B"));
    json_decref(doc);
    e2e_free(&r);
    const char *always[] = {"--confirm", "always", NULL};
    r = bench(always);
    cr_assert_eq(r.status, 2, "%s", r.err);
    cr_assert(strstr(r.err, "--confirm always: cannot confirm by A/B"), "%s", r.err);
    e2e_free(&r);
}
