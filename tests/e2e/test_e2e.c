/* SPDX-License-Identifier: Apache-2.0 */
/* End-to-end: the benchrun executable over fixture suites with a host module,
 * through the real pipeline (suite -> plan -> compile -> measure -> report). */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <sys/stat.h>

#include "platform/device.h"
#include "e2e_util.h"
#include "model/run.h"

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

static json_t *load_json(const char *path) {
    json_error_t err;
    json_t *j = json_load_file(path, 0, &err);
    cr_assert_not_null(j, "%s is not valid JSON: %s (line %d)", path, err.text, err.line);
    return j;
}

static json_t *case_named(json_t *cases, const char *kernel) {
    size_t i;
    json_t *c;
    json_array_foreach(cases, i, c) {
        if (strcmp(json_string_value(json_object_get(c, "kernel")), kernel) == 0)
            return c;
    }
    cr_assert_fail("no case for kernel %s", kernel);
    return NULL;
}

TestSuite(e2e, .init = make_tmp, .fini = drop_tmp, .timeout = 120);

Test(e2e, host_suite_measures_verifies_and_writes_json) {
    char *json = br_strfmt("%s/out.json", tmp);
    char *csv = br_strfmt("%s/out.csv", tmp);
    const char *args[] = {cache_arg, "--json", json, "--csv", csv, E2E "/ok.yaml", NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 0, "exit %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    cr_assert(strstr(r.out, "sum_ok"), "table lacks the kernel:\n%s", r.out);
    cr_assert(strstr(r.out, "e2e"), "table lacks the suite name:\n%s", r.out);
    cr_assert(strstr(r.err, "1 compiled, 0 from cache"), "stderr:\n%s", r.err);

    json_t *doc = load_json(json);
    cr_assert_eq(json_integer_value(json_object_get(doc, "schema_version")), BR_SCHEMA_VERSION);
    json_t *run = json_array_get(json_object_get(doc, "runs"), 0);
    cr_assert_not_null(run);
    cr_assert_str_eq(json_string_value(json_object_get(json_object_get(run, "suite"), "name")),
                     "e2e");
    /* git: the fixture lives in benchrun's own repository when it has one. */
    struct stat st;
    int in_repo = stat(BR_SOURCE_DIR "/.git", &st) == 0;
    json_t *git = json_object_get(run, "git");
    cr_assert_eq(json_is_true(json_object_get(git, "present")), in_repo);
    if (in_repo && !json_is_true(json_object_get(git, "unborn")))
        cr_assert_eq(strlen(json_string_value(json_object_get(git, "sha"))), 40);

    json_t *cases = json_object_get(run, "cases");
    cr_assert_eq(json_array_size(cases), 2);
    const int64_t ns[] = {1000, 4096};
    for (size_t i = 0; i < 2; i++) {
        json_t *c = json_array_get(cases, i);
        cr_assert_str_eq(json_string_value(json_object_get(c, "status")), "ok");
        cr_assert_eq(json_integer_value(json_object_get(json_object_get(c, "params"), "n")), ns[i]);
        json_t *t = json_object_get(c, "cold");
        size_t n = (size_t)json_integer_value(json_object_get(t, "n"));
        cr_assert_geq(n, 5, "min_samples is 5, got %zu samples", n);
        cr_assert_eq(json_array_size(json_object_get(t, "samples_ns")), n);
        double median = json_real_value(json_object_get(t, "median"));
        cr_assert_gt(median, 0);
        double bytes = json_number_value(json_object_get(c, "bytes"));
        cr_assert_eq(bytes, 4.0 * (double)ns[i]);
        double gbps = json_number_value(json_object_get(c, "gbps"));
        cr_assert_float_eq(gbps, bytes / median, 1e-9 * gbps);
        /* min_time 1 ms: the samples add up to at least that. */
        double sum = 0;
        size_t k;
        json_t *s;
        json_array_foreach(json_object_get(t, "samples_ns"), k, s) sum += json_number_value(s);
        cr_assert(n >= 5 &&
                  (sum >= 1e6 ||
                   strcmp(json_string_value(json_object_get(t, "stop_reason")), "timeout") == 0));
    }
    json_decref(doc);

    char *text = NULL;
    cr_assert_eq(br_read_file(&text, NULL, csv, 1 << 20), 0);
    cr_assert_eq(strncmp(text, "suite,kernel,n,", 15), 0, "CSV header: %.80s", text);
    free(text);
    e2e_free(&r);

    /* A second run compiles nothing. */
    const char *again[] = {cache_arg, E2E "/ok.yaml", NULL};
    cr_assert_eq(e2e_run(&r, NULL, again), 0);
    cr_assert_eq(r.status, 0);
    cr_assert(strstr(r.err, "0 compiled, 1 from cache"), "stderr:\n%s", r.err);
    e2e_free(&r);
    free(json);
    free(csv);
}

Test(e2e, failures_are_reported_per_case_and_the_rest_runs) {
    char *json = br_strfmt("%s/f.json", tmp);
    const char *args[] = {cache_arg, "--json", json, E2E "/failures.yaml", NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 1, "exit %d\nstderr:\n%s", r.status, r.err);
    /* The compiler's own diagnostics are shown. */
    cr_assert(strstr(r.err, "this_is_not_declared"), "stderr:\n%s", r.err);
    json_t *doc = load_json(json);
    json_t *cases = json_object_get(json_array_get(json_object_get(doc, "runs"), 0), "cases");
    struct {
        const char *kernel, *status, *stage, *message;
    } want[] = {
        {"sum_ok", "ok", NULL, NULL},
        {"sum_wrong", "failed", "verify", "expected"},
        {"sum_setup_fails", "failed", "setup", "no memory for this test"},
        {"sum_run_fails", "failed", "run", "the kernel refused to run"},
        {"sum_degrades", "failed", "verify", "timed executions: sum is"},
        {"from_broken", "failed", "compile", "broken.c"},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        json_t *c = case_named(cases, want[i].kernel);
        cr_assert_str_eq(json_string_value(json_object_get(c, "status")), want[i].status, "%s",
                         want[i].kernel);
        if (want[i].stage) {
            cr_assert_str_eq(json_string_value(json_object_get(c, "stage")), want[i].stage);
            const char *msg = json_string_value(json_object_get(c, "message"));
            cr_assert(msg && strstr(msg, want[i].message), "%s: message '%s'", want[i].kernel, msg);
            /* A failed case never gets a figure. */
            cr_assert(json_is_null(json_object_get(c, "gbps")));
        } else {
            cr_assert_gt(json_number_value(json_object_get(c, "gbps")), 0);
        }
    }
    cr_assert(strstr(r.out, "FAILED"), "table:\n%s", r.out);
    json_decref(doc);
    e2e_free(&r);
    free(json);
}

Test(e2e, gpu_cases_are_skipped_once_without_a_gpu) {
    char why[512];
    int gpu = br_device_available(why, sizeof why);
    char *json = br_strfmt("%s/g.json", tmp);
    const char *args[] = {cache_arg, "--json", json, E2E "/gpu_mixed.yaml", NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 0, "exit %d\nstderr:\n%s", r.status, r.err);
    json_t *doc = load_json(json);
    json_t *run = json_array_get(json_object_get(doc, "runs"), 0);
    json_t *c = case_named(json_object_get(run, "cases"), "reduce_warp");
    if (gpu) {
        cr_assert_str_eq(json_string_value(json_object_get(c, "status")), "ok");
    } else {
        cr_assert_str_eq(json_string_value(json_object_get(c, "status")), "skipped");
        /* Said once, with the reason. */
        const char *note = strstr(r.out, "skipped");
        cr_assert(note, "no skip note in:\n%s", r.out);
        cr_assert_null(strstr(note + 1, "skipped"), "said more than once:\n%s", r.out);
        cr_assert(strstr(r.out, why) || strstr(r.out, "CUDA"), "reason missing:\n%s", r.out);
    }
    cr_assert_str_eq(json_string_value(json_object_get(
                         case_named(json_object_get(run, "cases"), "sum_ok"), "status")),
                     "ok");
    json_decref(doc);
    e2e_free(&r);
    free(json);
}

Test(e2e, bad_input_exits_2_with_a_position_and_runs_nothing) {
    char *src = br_strfmt("source: %s/host_kernels.c\n", E2E);
    char *text = br_strfmt("name: bad\n%skernels: [sum_ok]\nwarmpu: 1ms\n", src);
    char *path = e2e_put("bad.yaml", text);
    char *json = br_strfmt("%s/bad.json", tmp);
    const char *args[] = {cache_arg, "--json", json, E2E "/ok.yaml", path, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 2, "exit %d\nstderr:\n%s", r.status, r.err);
    char *want = br_strfmt("%s:4:1: unknown key 'warmpu' (did you mean 'warmup'?)", path);
    cr_assert(strstr(r.err, want), "stderr:\n%s\nwanted:\n%s", r.err, want);
    /* Nothing ran, nothing was written, not even for the good suite before it. */
    struct stat st;
    cr_assert_neq(stat(json, &st), 0);
    cr_assert_null(strstr(r.err, "compiled"));
    e2e_free(&r);
    free(want);
    free(src);
    free(text);
    free(path);
    free(json);
}

Test(e2e, a_kernel_no_source_defines_is_bad_input) {
    char *text = br_strfmt("name: nokernel\nsource: %s/host_kernels.c\nkernels: [sum_ok, "
                           "no_such_kernel]\n",
                           E2E);
    char *path = e2e_put("nokernel.yaml", text);
    const char *args[] = {cache_arg, path, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 2, "exit %d\nstderr:\n%s", r.status, r.err);
    char *want = br_strfmt("%s:3:19: kernel 'no_such_kernel' is not defined in any source", path);
    cr_assert(strstr(r.err, want), "stderr:\n%s\nwanted:\n%s", r.err, want);
    e2e_free(&r);
    free(want);
    free(text);
    free(path);
}

Test(e2e, list_prints_the_plan_without_running) {
    const char *args[] = {cache_arg, "--list", "-k", "sum_*", E2E "/failures.yaml", NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 0, "stderr:\n%s", r.err);
    cr_assert(strstr(r.out, "5 case(s)"), "stdout:\n%s", r.out);
    cr_assert(strstr(r.out, "sum_setup_fails"));
    cr_assert_null(strstr(r.out, "from_broken"));
    cr_assert_null(strstr(r.err, "compiled"));
    e2e_free(&r);
}

Test(e2e, kernel_filter_selects_cases) {
    const char *args[] = {cache_arg, "-k", "sum_ok", E2E "/failures.yaml", NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    /* broken.c still fails to compile, but no selected kernel needs it. */
    cr_assert_eq(r.status, 0, "exit %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    cr_assert(strstr(r.out, "sum_ok"));
    cr_assert_null(strstr(r.out, "sum_wrong"));
    e2e_free(&r);
}

Test(e2e, usage_errors_exit_2_and_help_exits_0) {
    e2e_result r;
    const char *none[] = {NULL};
    cr_assert_eq(e2e_run(&r, NULL, none), 0);
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "usage:"));
    e2e_free(&r);
    const char *help[] = {"--help", NULL};
    cr_assert_eq(e2e_run(&r, NULL, help), 0);
    cr_assert_eq(r.status, 0);
    cr_assert(strstr(r.out, "exit status"));
    e2e_free(&r);
    const char *missing[] = {"/nonexistent/suite.yaml", NULL};
    cr_assert_eq(e2e_run(&r, NULL, missing), 0);
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "/nonexistent/suite.yaml"), "stderr:\n%s", r.err);
    e2e_free(&r);
}

Test(e2e, outside_a_repository_records_no_git_and_normalizes_sources) {
    char *dir = br_strfmt("%s/proj/suites", tmp);
    char *src = br_strfmt("%s/proj/src", tmp);
    cr_assert_eq(br_mkdir_p(dir), 0);
    cr_assert_eq(br_mkdir_p(src), 0);
    char *cmd = br_strfmt("cp %s/host_kernels.c %s/", E2E, src);
    cr_assert_eq(system(cmd), 0);
    char *suite = br_strfmt("%s/x.yaml", dir);
    FILE *f = fopen(suite, "w");
    cr_assert_not_null(f);
    fputs("name: outside\nsource: ../src/host_kernels.c\nkernels: [sum_ok]\nparams: {n: 64}\n"
          "bytes: 4 * n\nwarmup: 0ms\nmeasure: {min_samples: 3, min_time: 0ms}\n",
          f);
    fclose(f);
    char *json = br_strfmt("%s/o.json", tmp);
    const char *args[] = {cache_arg, "--json", json, suite, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 0, "exit %d\nstderr:\n%s", r.status, r.err);
    cr_assert(strstr(r.out, "no git"), "table:\n%s", r.out);
    json_t *doc = load_json(json);
    json_t *run = json_array_get(json_object_get(doc, "runs"), 0);
    cr_assert(json_is_false(json_object_get(json_object_get(run, "git"), "present")));
    const char *source = json_string_value(
        json_object_get(json_array_get(json_object_get(run, "kernels"), 0), "source"));
    char *want = br_strfmt("%s/proj/src/host_kernels.c", tmp);
    cr_assert_str_eq(source, want);
    json_decref(doc);
    e2e_free(&r);
    free(want);
    free(json);
    free(suite);
    free(cmd);
    free(src);
    free(dir);
}

Test(e2e, a_bad_kernel_name_in_a_later_suite_runs_nothing) {
    char *text = br_strfmt("name: nokernel\nsource: %s/host_kernels.c\nkernels: [sum_okk]\n", E2E);
    char *path = e2e_put("late.yaml", text);
    char *json = br_strfmt("%s/late.json", tmp);
    const char *args[] = {cache_arg, "--json", json, E2E "/ok.yaml", path, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 2, "exit %d\nstderr:\n%s", r.status, r.err);
    cr_assert(strstr(r.err, ":3:11: kernel 'sum_okk' is not defined"), "stderr:\n%s", r.err);
    /* The good suite before it was built but not measured: no table, no JSON. */
    cr_assert_eq(r.out[0], '\0', "stdout:\n%s", r.out);
    cr_assert_null(strstr(r.err, "case(s):"));
    struct stat st;
    cr_assert_neq(stat(json, &st), 0);
    e2e_free(&r);
    free(text);
    free(path);
    free(json);
}

Test(e2e, unwritable_outputs_and_an_empty_cache_dir_are_usage_errors) {
    e2e_result r;
    const char *json_dir[] = {cache_arg, "--json", tmp, E2E "/ok.yaml", NULL};
    cr_assert_eq(e2e_run(&r, NULL, json_dir), 0);
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "is a directory"), "stderr:\n%s", r.err);
    cr_assert_null(strstr(r.err, "compiled"), "nothing was built:\n%s", r.err);
    e2e_free(&r);
    const char *csv_nodir[] = {cache_arg, "--csv", "/nonexistent/dir/x.csv", E2E "/ok.yaml", NULL};
    cr_assert_eq(e2e_run(&r, NULL, csv_nodir), 0);
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "cannot write in /nonexistent/dir"), "stderr:\n%s", r.err);
    e2e_free(&r);
    const char *empty_cache[] = {"--cache-dir=", E2E "/ok.yaml", NULL};
    cr_assert_eq(e2e_run(&r, NULL, empty_cache), 0);
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "--cache-dir expects a directory name"), "stderr:\n%s", r.err);
    e2e_free(&r);
}

static int have_nvcc(void) {
    const char *env = getenv("BENCHRUN_NVCC");
    return (env && env[0] && access(env, X_OK) == 0) ||
           access("/usr/local/cuda/bin/nvcc", X_OK) == 0 ||
           system("command -v nvcc >/dev/null 2>&1") == 0;
}

/* Without a GPU a run does not compile GPU sources (so `benchrun check`,
 * which does, is what finds a misspelt GPU kernel there); with one, the run
 * finds it too. */
Test(e2e, a_misspelt_gpu_kernel_is_bad_input_to_check_even_without_a_gpu) {
    if (!have_nvcc())
        cr_skip_test("no nvcc: GPU sources cannot be checked on this machine");
    char *text = br_strfmt("name: misspelt\nsource: [%s/host_kernels.c, "
                           "%s/../../../kernels/reduction.cu]\nkernels: [sum_ok, reduce_wrap]\n",
                           E2E, E2E);
    char *path = e2e_put("misspelt.yaml", text);
    char why[512];
    const char *check[] = {"check", cache_arg, path, NULL};
    const char *run[] = {cache_arg, path, NULL};
    const char *const *args = br_device_available(why, sizeof why) ? run : check;
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 2, "exit %d\nstderr:\n%s", r.status, r.err);
    cr_assert(strstr(r.err, ":3:19: kernel 'reduce_wrap' is not defined in any source"),
              "stderr:\n%s", r.err);
    cr_assert(strstr(r.err, "reduce_warp"), "the message lists the kernels found:\n%s", r.err);
    e2e_free(&r);
    free(text);
    free(path);
}

/* On a machine without a usable GPU, a run of a suite that mixes a host
 * kernel and a GPU source measures the host case and never starts nvcc
 * (BENCHRUN_NVCC names a stand-in that leaves a mark): a .cu that would not
 * compile leaves its cases skipped (exit 0, no compile error), said once
 * under the table, and one note says it was not compiled and names
 * benchrun check; check on the same suite does compile
 * it, with the real nvcc, and reports the compile error. */
Test(e2e, without_a_gpu_a_run_compiles_no_gpu_source_and_check_does) {
    char why[512];
    if (br_device_available(why, sizeof why))
        cr_skip_test("this machine has a GPU: its runs compile GPU sources");
    free(e2e_put("broken.cu", "#include \"benchrun_kernel.h\"\n"
                              "this is not CUDA; /* a compile error on line 2 */\n"));
    char *text = br_strfmt("name: mixed-broken\nsource: [%s/host_kernels.c, broken.cu]\n"
                           "kernels: [sum_ok, gpu_sum]\nparams:\n  n: [4096]\nbytes: 4 * n\n"
                           "warmup: 1ms\nmeasure:\n  min_samples: 3\n  min_time: 1ms\n"
                           "  timeout: 2s\n",
                           E2E);
    char *suite = e2e_put("mixed.yaml", text);
    char *mark = br_strfmt("%s/nvcc-ran", tmp);
    char *script_text = br_strfmt("#!/bin/sh\necho \"$@\" >> '%s'\nexit 1\n", mark);
    char *stand_in = e2e_put("nvcc-stand-in", script_text);
    cr_assert_eq(chmod(stand_in, 0755), 0);
    char *json = br_strfmt("%s/out.json", tmp);
    const char *nvcc = getenv("BENCHRUN_NVCC");
    char *saved = nvcc ? br_strdup(nvcc) : NULL;
    cr_assert_eq(setenv("BENCHRUN_NVCC", stand_in, 1), 0);
    const char *run[] = {cache_arg, "--no-compare", "--json", json, suite, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, run), 0);
    if (saved)
        setenv("BENCHRUN_NVCC", saved, 1);
    else
        unsetenv("BENCHRUN_NVCC");
    cr_assert_eq(r.status, 0, "exit %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    struct stat st;
    cr_assert_neq(stat(mark, &st), 0, "the run started nvcc:\n%s", r.err);
    cr_assert_null(strstr(r.err, "compile failed"), "stderr:\n%s", r.err);
    cr_assert_null(strstr(r.err, "not CUDA"), "stderr:\n%s", r.err);
    const char *note = strstr(r.err, "broken.cu not compiled (benchrun check compiles it)");
    cr_assert(note, "no note in:\n%s", r.err);
    cr_assert_null(strstr(note + strlen("broken.cu not compiled"), "not compiled"),
                   "said more than once:\n%s", r.err);
    /* The skip itself is said once, under the table, not again on stderr
     * (the newcomer read it twice, in two wordings). */
    cr_assert_null(strstr(r.err, "cases skipped"), "stderr says the skip too:\n%s", r.err);
    cr_assert_null(strstr(r.err, "case(s) skipped:"), "stderr says the skip too:\n%s", r.err);
    const char *skip = strstr(r.out, "GPU case(s) skipped: ");
    cr_assert(skip, "stdout:\n%s", r.out);
    cr_assert_null(strstr(skip + strlen("GPU case(s) skipped: "), "skipped: "), "said twice:\n%s",
                   r.out);
    cr_assert(strstr(r.err, "building 1 kernel module(s)"), "stderr:\n%s", r.err);
    json_t *doc = load_json(json);
    json_t *cases = json_object_get(json_array_get(json_object_get(doc, "runs"), 0), "cases");
    json_t *host = case_named(cases, "sum_ok"), *gpu = case_named(cases, "gpu_sum");
    cr_assert_str_eq(json_string_value(json_object_get(host, "status")), "ok");
    cr_assert_gt(json_number_value(json_object_get(json_object_get(host, "cold"), "median")), 0);
    cr_assert_str_eq(json_string_value(json_object_get(gpu, "status")), "skipped");
    cr_assert_str_eq(json_string_value(json_object_get(gpu, "stage")), "no-gpu");
    json_decref(doc);
    e2e_free(&r);

    if (!have_nvcc()) {
        free(saved);
        free(mark);
        free(script_text);
        free(stand_in);
        free(json);
        free(text);
        free(suite);
        cr_skip_test("no nvcc: the run is checked, not check's compile of broken.cu");
    }
    const char *check[] = {"check", cache_arg, suite, NULL};
    cr_assert_eq(e2e_run(&r, NULL, check), 0);
    cr_assert_eq(r.status, 2, "exit %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    cr_assert(strstr(r.err, "broken.cu: compile failed"), "stderr:\n%s", r.err);
    cr_assert(strstr(r.err, "broken.cu(2)") || strstr(r.err, "broken.cu:2"),
              "nvcc's diagnostics name the line:\n%s", r.err);
    cr_assert(strstr(r.out, "mixed.yaml: FAILED: 1 of 2 kernel module(s) did not compile"),
              "stdout:\n%s", r.out);
    cr_assert_null(strstr(r.err, "not compiled (benchrun check"), "stderr:\n%s", r.err);
    e2e_free(&r);
    free(saved);
    free(mark);
    free(script_text);
    free(stand_in);
    free(json);
    free(text);
    free(suite);
}

/* metric: TFLOP/s on a host suite: the table's metric column is TFLOP/s (GB/s
 * beside it), and each case's value in the results file is its GFLOP/s of the
 * same run / 1000, its GFLOP/s being flops / median. */
Test(e2e, a_tflops_suite_reports_gflops_over_1000) {
    char *suite = br_strfmt("name: tera\nsource: %s/host_kernels.c\nkernels: [sum_ok]\n"
                            "params:\n  n: [1000, 4096]\nmetric: TFLOP/s\nflops: n\n"
                            "bytes: 4 * n\ncache: warm\nwarmup: 1ms\n"
                            "measure: {min_samples: 5, min_time: 1ms, timeout: 2s}\n",
                            E2E);
    char *path = e2e_put("tera.yaml", suite);
    char *json = br_strfmt("%s/tera.json", tmp);
    const char *args[] = {cache_arg, "--ascii", "--json", json, path, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 0, "exit %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    cr_assert(strstr(r.out, "| TFLOP/s | GB/s | % peak (TFLOP/s) |"), "table:\n%s", r.out);

    json_t *doc = load_json(json);
    json_t *run = json_array_get(json_object_get(doc, "runs"), 0);
    cr_assert_str_eq(json_string_value(json_object_get(json_object_get(run, "suite"), "metric")),
                     "TFLOP/s");
    json_t *cases = json_object_get(run, "cases");
    cr_assert_eq(json_array_size(cases), 2);
    for (size_t i = 0; i < 2; i++) {
        json_t *c = json_array_get(cases, i);
        double median = json_real_value(json_object_get(json_object_get(c, "cold"), "median"));
        double flops = json_number_value(json_object_get(c, "flops"));
        double gflops = json_number_value(json_object_get(c, "gflops"));
        double tflops = json_number_value(json_object_get(c, "tflops"));
        cr_assert_gt(median, 0);
        cr_assert_float_eq(gflops, flops / median, 1e-9 * gflops);
        cr_assert_gt(tflops, 0, "case %zu", i);
        cr_expect_eq(tflops, gflops / 1000.0, "case %zu: %.17g TFLOP/s, %.17g GFLOP/s", i, tflops,
                     gflops);
    }
    json_decref(doc);
    e2e_free(&r);

    /* read back: report shows the same metric */
    const char *again[] = {"report", "--ascii", "--no-compare", json, NULL};
    cr_assert_eq(e2e_run(&r, NULL, again), 0);
    cr_assert_eq(r.status, 0, "exit %d\nstderr:\n%s", r.status, r.err);
    cr_assert(strstr(r.out, "| TFLOP/s | GB/s | % peak (TFLOP/s) |"), "report:\n%s", r.out);
    e2e_free(&r);
    free(json);
    free(path);
    free(suite);
}
