/* SPDX-License-Identifier: Apache-2.0 */
/* test_check.c - `benchrun check` (runner/cli/cmd_check.c over the
 * pipeline's prepare and build) through the executable: what --list cannot
 * find (a kernel no source defines, a compile error) is bad input with the
 * run's messages; good suites pass; nothing is measured. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <glob.h>

#include "e2e_util.h"
#include "platform/device.h"
#include "drive/pipeline.h"

#define E2E BR_FIXTURES_DIR "/e2e"

static char *cache_arg;

static void make_tmp(void) {
    e2e_tmp_make();
    cache_arg = br_strfmt("--cache-dir=%s/cache", tmp);
}

static void drop_tmp(void) {
    e2e_tmp_drop();
    free(cache_arg);
}

TestSuite(check, .init = make_tmp, .fini = drop_tmp, .timeout = 280);

/* A suite over the e2e host kernels, written to tmp/name. */
static char *host_suite(const char *name, const char *source, const char *kernels) {
    char *text = br_strfmt("name: %s\nsource: %s/%s\nkernels: [%s]\nparams:\n  n: [64, 128]\n",
                           name, E2E, source, kernels);
    char *file = br_strfmt("%s.yaml", name);
    char *path = e2e_put(file, text);
    free(text);
    free(file);
    return path;
}

Test(check, a_good_host_suite_passes_without_measuring) {
    char *json = br_strfmt("%s/never.json", tmp);
    const char *args[] = {"check", cache_arg, E2E "/ok.yaml", NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 0, "exit %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    cr_assert(strstr(r.out, E2E "/ok.yaml: ok: 2 case(s), 2 to measure, 0 skipped"), "stdout:\n%s",
              r.out);
    cr_assert(strstr(r.err, "1 compiled, 0 from cache"), "it built the module:\n%s", r.err);
    cr_assert_null(strstr(r.out, "sum_ok"), "a table was printed:\n%s", r.out);
    cr_assert_null(strstr(r.out, "median"), "a table was printed:\n%s", r.out);
    e2e_free(&r);
    free(json);
}

Test(check, an_unknown_kernel_is_bad_input_with_its_position) {
    char *suite = host_suite("unknown", "host_kernels.c", "sum_ok, sum_nope");
    const char *args[] = {"check", cache_arg, suite, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 2, "exit %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    /* kernels: [sum_ok, sum_nope] is line 3; sum_nope starts at column 19. */
    char *want = br_strfmt("%s:3:19: kernel 'sum_nope' is not defined in any source", suite);
    cr_assert(strstr(r.err, want), "stderr lacks '%s':\n%s", want, r.err);
    cr_assert(strstr(r.err, "sum_ok"), "the kernels found are listed:\n%s", r.err);
    char *line = br_strfmt("%s: FAILED", suite);
    cr_assert(strstr(r.out, line), "stdout:\n%s", r.out);
    e2e_free(&r);
    free(line);
    free(want);
    free(suite);
}

Test(check, a_compile_error_is_bad_input_with_the_compilers_diagnostics) {
    char *suite = host_suite("broken", "broken.c", "nope");
    const char *args[] = {"check", cache_arg, suite, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 2, "exit %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    /* The compiler's own file:line:col diagnostic, as a run prints it. */
    cr_assert(strstr(r.err, "broken.c:5:12: error:"), "stderr:\n%s", r.err);
    cr_assert(strstr(r.err, "this_is_not_declared"), "stderr:\n%s", r.err);
    char *line = br_strfmt("%s: FAILED: 1 of 1 kernel module(s) did not compile or load; 2 of 2 "
                           "case(s) would fail",
                           suite);
    cr_assert(strstr(r.out, line), "stdout lacks '%s':\n%s", line, r.out);
    e2e_free(&r);
    free(line);
    free(suite);
}

Test(check, every_suite_is_checked_and_each_gets_a_line) {
    char *bad = e2e_put("bad.yaml", "name: bad\nsource: x.c\nkernelz: [a]\n");
    const char *args[] = {"check", cache_arg, bad, E2E "/ok.yaml", NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 2, "exit %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    char *where = br_strfmt("%s:3:1: unknown key 'kernelz'", bad);
    cr_assert(strstr(r.err, where), "stderr lacks '%s':\n%s", where, r.err);
    char *first = strstr(r.out, "bad.yaml: FAILED: bad input");
    char *second = strstr(r.out, "ok.yaml: ok: 2 case(s)");
    cr_assert(first && second && first < second, "stdout:\n%s", r.out);
    e2e_free(&r);
    free(where);
    free(bad);
}

Test(check, usage_errors_exit_2) {
    const char *none[] = {"check", NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, none), 0);
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "no suite file given"), "stderr:\n%s", r.err);
    e2e_free(&r);
    const char *help[] = {"check", "--help", NULL};
    cr_assert_eq(e2e_run(&r, NULL, help), 0);
    cr_assert_eq(r.status, 0);
    cr_assert(strstr(r.out, "usage: benchrun check"), "stdout:\n%s", r.out);
    e2e_free(&r);
}

/* The repository's own suites: every one loads, plans, compiles its host
 * sources and resolves. Their GPU sources (about twenty nvcc compiles, with
 * the compile-time variants: minutes on a small machine) are left out here
 * by naming an nvcc that does not exist, which check reports as sources not
 * compiled; the_scaffold_passes_check_and_runs (test_init.c) compiles a GPU
 * source through check. With a GPU, nvcc is needed and used. */
Test(check, the_repositorys_suites_pass) {
    char why[512];
    int gpu = br_device_available(why, sizeof why);
    if (!gpu)
        cr_assert_eq(setenv("BENCHRUN_NVCC", "/nonexistent/nvcc", 1), 0);
    glob_t g;
    cr_assert_eq(glob(BR_SOURCE_DIR "/suites/*.yaml", 0, NULL, &g), 0);
    cr_assert_geq(g.gl_pathc, 1);
    const char *args[64] = {"check", "-q", cache_arg};
    size_t n = 3;
    for (size_t i = 0; i < g.gl_pathc && n < 63; i++)
        args[n++] = g.gl_pathv[i];
    args[n] = NULL;
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 0, "exit %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    for (size_t i = 0; i < g.gl_pathc; i++) {
        char *line = br_strfmt("%s: ok: ", g.gl_pathv[i]);
        cr_assert(strstr(r.out, line), "no ok line for %s:\n%s", g.gl_pathv[i], r.out);
        free(line);
    }
    if (!gpu)
        cr_assert(strstr(r.out, "GPU source(s) not compiled (no nvcc)"), "stdout:\n%s", r.out);
    e2e_free(&r);
    globfree(&g);
}

/* The man page and the bash completion know both new subcommands. */
Test(check, the_man_page_and_the_completion_list_check_and_init) {
    const char *man[] = {"--man", NULL}, *comp[] = {"--completion", "bash", NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, man), 0);
    cr_assert_eq(r.status, 0);
    cr_assert(strstr(r.out, ".SS benchrun check\n"), "%s", r.out);
    cr_assert(strstr(r.out, ".SS benchrun init\n"), "%s", r.out);
    cr_assert(strstr(r.out, "\\-\\-cache\\-dir"), "%s", r.out);
    e2e_free(&r);
    cr_assert_eq(e2e_run(&r, NULL, comp), 0);
    cr_assert_eq(r.status, 0);
    cr_assert(strstr(r.out, "    check)\n"), "%s", r.out);
    cr_assert(strstr(r.out, "    init)\n"), "%s", r.out);
    e2e_free(&r);
}

/* The pipeline's hook in-process: with check set it builds and counts,
 * and runs no case (a kernel whose verify or setup fails still counts as
 * one a run would measure; the cases of broken.c's module would fail). */
static br_pipeline_opts check_opts_for(const char *const *suites) {
    br_pipeline_opts o;
    br_pipeline_opts_init(&o);
    o.suites = suites;
    o.n_suites = 1;
    o.run.quiet = 1;
    o.run.cache_dir = cache_arg + strlen("--cache-dir=");
    o.check = 1;
    return o;
}

Test(check, the_pipeline_stops_after_the_build) {
    cr_redirect_stderr(); /* broken.c's diagnostics */
    const char *suites[] = {E2E "/failures.yaml"};
    br_pipeline_opts o = check_opts_for(suites);
    br_outcome out;
    cr_assert_eq(br_pipeline_run(&out, &o), 0);
    cr_assert(out.checked);
    cr_assert_eq(out.modules, 2);
    cr_assert_eq(out.modules_failed, 1);
    cr_assert_eq(out.ok, 5, "sum_wrong, sum_setup_fails, ... are not run: %zu ok", out.ok);
    cr_assert_eq(out.failed, 1); /* from_broken */
    cr_assert_eq(br_exit_status(&out), 2);

    o.run.patterns = (const char *const[]){"sum_*"};
    o.run.n_patterns = 1;
    cr_assert_eq(br_pipeline_run(&out, &o), 0);
    cr_assert_eq(out.ok, 5);
    cr_assert_eq(out.failed, 0);
    cr_assert_eq(out.modules_failed, 1, "broken.c is still built");
    cr_assert_eq(br_exit_status(&out), 2, "a source that does not compile fails check");
}
