/* SPDX-License-Identifier: Apache-2.0 */
/* The compile cache: miss, hit, invalidation, compile errors, skipped GPU sources. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compile/build.h"
#include "e2e_util.h"
#include "base/error.h"
#include "base/lock.h"
#include "base/util.h"

static const char *module_src = "#include \"benchrun_kernel.h\"\n"
                                "#include \"helper.h\"\n"
                                "static int run(br_case *c) { (void)c; return HELPER; }\n"
                                "static int verify(br_case *c) { (void)c; return 0; }\n"
                                "static const br_kernel k[] = {{\"k1\", 0, run, verify, 0}};\n"
                                "BR_MODULE(k);\n";

TestSuite(build, .init = e2e_tmp_make, .fini = e2e_tmp_drop, .timeout = 120);

static void key_of(char out[41], const char *src) {
    const char *flags[] = {"-O3", "-shared"};
    const char *inc[] = {br_build_include_dir()};
    cr_assert_eq(br_build_key(out, src, "cc", "cc 12.2", flags, 2, inc, 1), 0, "%s",
                 br_error_get());
}

Test(build, key_follows_source_project_headers_flags_and_compiler) {
    char *src = e2e_put("m.c", module_src);
    char *hdr = e2e_put("helper.h", "#define HELPER 0\n");
    char a[41], b[41], c[41];
    key_of(a, src);
    key_of(b, src);
    cr_assert_str_eq(a, b, "same inputs, same key");

    free(e2e_put("helper.h", "#define HELPER 0 /* changed */\n"));
    key_of(c, src);
    cr_assert_str_neq(a, c, "a changed project header changes the key");

    const char *flags[] = {"-O2", "-shared"};
    const char *inc[] = {br_build_include_dir()};
    char d[41], e[41];
    cr_assert_eq(br_build_key(d, src, "cc", "cc 12.2", flags, 2, inc, 1), 0);
    cr_assert_str_neq(c, d, "flags are part of the key");
    const char *flags3[] = {"-O3", "-shared"};
    cr_assert_eq(br_build_key(e, src, "cc", "cc 13.1", flags3, 2, inc, 1), 0);
    cr_assert_str_neq(c, e, "the compiler version is part of the key");
    free(src);
    free(hdr);
}

Test(build, miss_then_hit_then_rebuild_after_a_header_change) {
    char *src = e2e_put("m.c", module_src);
    char *hdr = e2e_put("helper.h", "#define HELPER 0\n");
    char *cache = br_strfmt("%s/cache", tmp);
    br_build_opts o = {.cache_dir = cache, .jobs = 2};
    br_build_src srcs[] = {{.path = src}};
    br_module_handle h;

    cr_assert_eq(br_build_modules(&h, srcs, 1, &o), 1, "first build compiles: %s", br_error_get());
    cr_assert_eq(h.state, BR_MODULE_LOADED, "%s", h.message ? h.message : "");
    cr_assert_eq(h.from_cache, 0);
    cr_assert_eq(h.module->n_kernels, 1);
    cr_assert_str_eq(h.module->kernels[0].name, "k1");
    char key1[41];
    memcpy(key1, h.key, sizeof key1);
    br_module_handle_dispose(&h);

    cr_assert_eq(br_build_modules(&h, srcs, 1, &o), 0, "second build compiles nothing");
    cr_assert_eq(h.from_cache, 1);
    cr_assert_eq(h.state, BR_MODULE_LOADED);
    cr_assert_str_eq(h.key, key1);
    br_module_handle_dispose(&h);

    free(e2e_put("helper.h", "#define HELPER 0\n#define OTHER 1\n"));
    cr_assert_eq(br_build_modules(&h, srcs, 1, &o), 1, "a header change compiles again");
    cr_assert_str_neq(h.key, key1);
    cr_assert_eq(h.state, BR_MODULE_LOADED);
    br_module_handle_dispose(&h);
    free(src);
    free(hdr);
    free(cache);
}

Test(build, compile_errors_keep_diagnostics_and_other_modules_load) {
    char *good = e2e_put("good.c", module_src);
    free(e2e_put("helper.h", "#define HELPER 0\n"));
    char *bad = e2e_put("bad.c", "#include \"benchrun_kernel.h\"\nint f(void) { return nope; }\n");
    char *odd = e2e_put("odd.f90", "program x\nend program\n");
    char *gpu = e2e_put("g.cu", "// never compiled here\n");
    char *cache = br_strfmt("%s/cache", tmp);
    br_build_opts o = {.cache_dir = cache,
                       .jobs = 2,
                       .gpu_arch = NULL,
                       .compile_without_gpu = 1,
                       .gpu_skip_reason = "no GPU in this test"};
    br_build_src srcs[] = {{.path = good}, {.path = bad}, {.path = odd}, {.path = gpu}};
    br_module_handle h[4];
    /* No GPU and no nvcc: the GPU source is skipped (a check's build too). */
    setenv("BENCHRUN_NVCC", "/nonexistent/nvcc", 1);
    int compiled = br_build_modules(h, srcs, 4, &o);
    unsetenv("BENCHRUN_NVCC");
    cr_assert_eq(compiled, 2, "two compiles ran");
    cr_assert_eq(h[0].state, BR_MODULE_LOADED);
    cr_assert_eq(h[1].state, BR_MODULE_FAILED);
    cr_assert(h[1].log && strstr(h[1].log, "nope"), "diagnostics: %s", h[1].log);
    cr_assert(strstr(h[1].message, "compile failed"));
    cr_assert_eq(h[2].state, BR_MODULE_FAILED);
    cr_assert(strstr(h[2].message, "expected .cu, .c, .cpp, .cc or .cxx"));
    cr_assert_eq(h[3].state, BR_MODULE_SKIPPED);
    cr_assert_str_eq(h[3].message, "no GPU in this test");
    /* The failed compile left nothing in the cache but the good object. */
    char *cmd = br_strfmt("ls %s | grep -c '\\.so$'", cache);
    FILE *p = popen(cmd, "r");
    int count = -1;
    cr_assert_eq(fscanf(p, "%d", &count), 1);
    pclose(p);
    cr_assert_eq(count, 1);
    for (int i = 0; i < 4; i++)
        br_module_handle_dispose(&h[i]);
    free(cmd);
    free(good);
    free(bad);
    free(odd);
    free(gpu);
    free(cache);
}

Test(build, a_module_without_a_table_fails_to_load) {
    char *src = e2e_put("notable.c", "int benchrun_something_else = 1;\n");
    char *cache = br_strfmt("%s/cache", tmp);
    br_build_opts o = {.cache_dir = cache, .jobs = 1};
    br_build_src srcs[] = {{.path = src}};
    br_module_handle h;
    cr_assert_eq(br_build_modules(&h, srcs, 1, &o), 1);
    cr_assert_eq(h.state, BR_MODULE_FAILED);
    cr_assert(strstr(h.message, "exports no 'benchrun_module' table"), "%s", h.message);
    br_module_handle_dispose(&h);
    free(src);
    free(cache);
}

Test(util, path_normalize) {
    struct {
        const char *in, *out;
    } cases[] = {
        {"suites/../kernels/x.cu", "kernels/x.cu"},
        {"./a", "a"},
        {"a//b/./c", "a/b/c"},
        {"../x", "../x"},
        {"../../x/../y", "../../y"},
        {"/a/../../b", "/b"},
        {"/", "/"},
        {".", "."},
        {"a/..", "."},
        {"/work/main/suites/../kernels/reduction.cu", "/work/main/kernels/reduction.cu"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *got = br_path_normalize(cases[i].in);
        cr_assert_str_eq(got, cases[i].out, "normalize(%s)", cases[i].in);
        free(got);
    }
}

/* Without a GPU a run's build (compile_without_gpu 0) starts no nvcc: the
 * GPU source is SKIPPED with the reason, although nvcc (here a stand-in
 * that leaves a mark) could run; the host source beside it is built. */
Test(build, without_a_gpu_a_run_does_not_compile_cuda_sources) {
    char *good = e2e_put("good.c", module_src);
    free(e2e_put("helper.h", "#define HELPER 0\n"));
    char *gpu = e2e_put("g.cu", "this is not CUDA\n");
    char *mark = br_strfmt("%s/nvcc-ran", tmp);
    char *text = br_strfmt("#!/bin/sh\necho ran >> '%s'\nexit 1\n", mark);
    char *nvcc = e2e_put("nvcc", text);
    cr_assert_eq(chmod(nvcc, 0755), 0);
    char *cache = br_strfmt("%s/cache", tmp);
    br_build_opts o = {.cache_dir = cache, .jobs = 2, .gpu_skip_reason = "no GPU in this test"};
    br_build_src srcs[] = {{.path = good}, {.path = gpu}};
    br_module_handle h[2];
    setenv("BENCHRUN_NVCC", nvcc, 1);
    int compiled = br_build_modules(h, srcs, 2, &o);
    unsetenv("BENCHRUN_NVCC");
    cr_assert_eq(compiled, 1, "the host source alone compiled: %s", br_error_get());
    cr_assert_eq(h[0].state, BR_MODULE_LOADED);
    cr_assert_eq(h[1].state, BR_MODULE_SKIPPED);
    cr_assert_str_eq(h[1].message, "no GPU in this test");
    cr_assert_null(h[1].command, "no compile command: %s", h[1].command);
    cr_assert_eq(access(mark, F_OK), -1, "nvcc ran");
    for (int i = 0; i < 2; i++)
        br_module_handle_dispose(&h[i]);
    free(good);
    free(gpu);
    free(mark);
    free(text);
    free(nvcc);
    free(cache);
}

/* benchrun check's build (compile_without_gpu): GPU sources are compiled
 * without a GPU too, for nvcc's default target. */
Test(build, without_a_gpu_check_still_compiles_cuda_sources_for_their_names) {
    const char *nvcc = getenv("BENCHRUN_NVCC");
    if (!(nvcc && nvcc[0]) && access("/usr/local/cuda/bin/nvcc", X_OK) != 0 &&
        system("command -v nvcc >/dev/null 2>&1") != 0)
        cr_skip_test("no nvcc on this machine");
    char *src =
        e2e_put("k.cu", "#include \"benchrun_kernel.h\"\n"
                        "__global__ void noop() {}\n"
                        "static int run(br_case *c) { noop<<<1, 1>>>(); (void)c; return 0; }\n"
                        "static int verify(br_case *c) { (void)c; return 0; }\n"
                        "static const br_kernel k[] = {{\"gpu_k\", 0, run, verify, 0}};\n"
                        "BR_MODULE(k);\n");
    char *cache = br_strfmt("%s/cache", tmp);
    br_build_opts o = {.cache_dir = cache,
                       .jobs = 1,
                       .gpu_arch = NULL,
                       .compile_without_gpu = 1,
                       .gpu_skip_reason = "no GPU in this test"};
    br_build_src srcs[] = {{.path = src}};
    br_module_handle h;
    cr_assert_eq(br_build_modules(&h, srcs, 1, &o), 1, "%s", br_error_get());
    cr_assert_eq(h.state, BR_MODULE_LOADED, "%s\n%s", h.message ? h.message : "",
                 h.log ? h.log : "");
    cr_assert_str_eq(h.module->kernels[0].name, "gpu_k");
    cr_assert_null(strstr(h.command, "-arch="), "no GPU, no -arch: %s", h.command);
    br_module_handle_dispose(&h);
    free(src);
    free(cache);
}

Test(build, one_file_is_one_cache_entry_however_it_is_named) {
    char *src = e2e_put("m.c", module_src);
    free(e2e_put("helper.h", "#define HELPER 0\n"));
    char *cache = br_strfmt("%s/cache", tmp);
    char *rel = br_strfmt("%s/./sub/../m.c", tmp);
    char *sub = br_strfmt("%s/sub", tmp);
    cr_assert_eq(br_mkdir_p(sub), 0);
    br_build_opts o = {.cache_dir = cache, .jobs = 1};
    br_build_src srcs[] = {{.path = src}, {.path = rel}};
    br_module_handle h[2];
    cr_assert_eq(br_build_modules(h, srcs, 1, &o), 1);
    cr_assert_eq(br_build_modules(&h[1], &srcs[1], 1, &o), 0, "the same file, named otherwise");
    cr_assert_str_eq(h[0].key, h[1].key);
    br_module_handle_dispose(&h[0]);
    br_module_handle_dispose(&h[1]);
    free(src);
    free(cache);
    free(rel);
    free(sub);
}

/* The name of the one KEY.deps record in cache into key (the input key). */
static void input_key_in(char key[41], const char *cache) {
    char *cmd = br_strfmt("ls '%s' | sed -n 's/\\.deps$//p'", cache);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    cr_assert_not_null(fgets(key, 41, p));
    pclose(p);
    free(cmd);
    cr_assert_eq(strlen(key), 40, "%s", key);
}

/* A second builder of a key that another process is building waits on the
 * key's lock and then loads what the first stored: it compiles nothing and
 * fails nothing (the first here: a child holding the lock for a second
 * while it puts the object and its record back). */
Test(build, a_second_builder_waits_on_the_key_lock_and_uses_the_finished_object) {
    char *src = e2e_put("m.c", module_src);
    free(e2e_put("helper.h", "#define HELPER 0\n"));
    char *cache = br_strfmt("%s/cache", tmp);
    br_build_opts o = {.cache_dir = cache, .jobs = 1};
    br_build_src srcs[] = {{.path = src}};
    br_module_handle h;
    cr_assert_eq(br_build_modules(&h, srcs, 1, &o), 1, "%s", br_error_get());
    char key[41], cmd[1024];
    input_key_in(key, cache);
    snprintf(cmd, sizeof cmd, "mkdir '%s/away' && mv '%s'/*.so '%s'/*.deps '%s/away'", tmp, cache,
             cache, tmp);
    cr_assert_eq(system(cmd), 0);
    br_module_handle_dispose(&h);
    int ready[2];
    cr_assert_eq(pipe(ready), 0);
    pid_t pid = fork();
    if (pid == 0) {
        br_lock l;
        char *base = br_strfmt("%s/%s", cache, key);
        if (br_lock_take(&l, base, 1e9, 1) != 0)
            _exit(1);
        if (write(ready[1], "x", 1) != 1)
            _exit(1);
        sleep(1);
        snprintf(cmd, sizeof cmd, "mv '%s/away'/* '%s'", tmp, cache);
        _exit(system(cmd) == 0 ? 0 : 1);
    }
    char c;
    cr_assert_eq(read(ready[0], &c, 1), 1);
    double t0 = br_now_ns();
    int compiled = br_build_modules(&h, srcs, 1, &o);
    double waited = br_now_ns() - t0;
    int st;
    waitpid(pid, &st, 0);
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    cr_expect_eq(compiled, 0, "the second builder compiled (%d)", compiled);
    cr_expect_eq(h.state, BR_MODULE_LOADED, "%s", h.message ? h.message : "");
    cr_expect_eq(h.from_cache, 1);
    cr_expect_geq(waited, 0.5e9, "it did not wait for the lock (%.3f s)", waited / 1e9);
    br_module_handle_dispose(&h);
    close(ready[0]);
    close(ready[1]);
    free(src);
    free(cache);
}
