/* SPDX-License-Identifier: Apache-2.0 */
/* test_flags.c - the suite's compiler flags and include directories as the
 * build uses them: on the command line after benchrun's own (so they
 * override them), part of the cache key (a change compiles again, going
 * back finds the first object), -l options after the source; C++ sources
 * built with $CXX and -std=c++17; C sources see M_PI. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "compile/build.h"
#include "e2e_util.h"

#define CXX_FIXTURE BR_FIXTURES_DIR "/cxx"

TestSuite(flags, .init = e2e_tmp_make, .fini = e2e_tmp_drop, .timeout = 120);

/* Skip the test, visibly, without a C++ compiler ($CXX, else c++). */
static void need_cxx(void) {
    if (system("command -v \"${CXX:-c++}\" >/dev/null 2>&1") != 0)
        cr_skip_test("no C++ compiler (c++, or $CXX) on PATH: install g++");
}

/* Build src into tmp/cache; expect `compiled` compiles and, when value is
 * not -1, run() returning it. h is the caller's to dispose. */
static void build_one(br_module_handle *h, const br_build_src *src, int compiled, int value) {
    char *cache = br_strfmt("%s/cache", tmp);
    br_build_opts o = {.cache_dir = cache, .jobs = 1};
    cr_assert_eq(br_build_modules(h, src, 1, &o), compiled, "%d compile(s) expected: %s", compiled,
                 br_error_get());
    cr_assert_eq(h->state, BR_MODULE_LOADED, "%s\n%s\n%s", h->message ? h->message : "",
                 h->log ? h->log : "", h->command ? h->command : "");
    cr_assert_eq(h->from_cache, !compiled);
    if (value != -1)
        cr_assert_eq(h->module->kernels[0].run(NULL), value);
    free(cache);
}

static void build_expect(const br_build_src *src, int compiled, int value) {
    br_module_handle h;
    build_one(&h, src, compiled, value);
    br_module_handle_dispose(&h);
}

/* A host module whose run() returns VALUE (from val.h) + EXTRA (a -D). */
static char *put_module(const char *name) {
    return e2e_put(name, "#include \"benchrun_kernel.h\"\n#include \"val.h\"\n"
                         "static int run(br_case *c) { (void)c; return VALUE + EXTRA; }\n"
                         "static const br_kernel k[] = {{\"k1\", 0, run, 0, 0, 0}};\n"
                         "BR_MODULE(k);\n");
}

/* tmp/<dir>/val.h defining VALUE as v; returns the directory (caller frees). */
static char *put_inc(const char *dir, int v) {
    char *d = br_strfmt("%s/%s", tmp, dir), *name = br_strfmt("%s/val.h", dir);
    char *text = br_strfmt("#define VALUE %d\n", v);
    cr_assert_eq(br_mkdir_p(d), 0);
    free(e2e_put(name, text));
    free(name);
    free(text);
    return d;
}

Test(flags, user_flags_and_include_dirs_are_part_of_the_key) {
    char *src = put_module("m.c");
    char *inc1 = put_inc("inc1", 1), *inc2 = put_inc("inc2", 2);
    const char *ten[] = {"-DEXTRA=10"}, *twenty[] = {"-DEXTRA=20"};
    const char *d1[] = {inc1}, *d2[] = {inc2};
    br_build_src s = {
        .path = src, .user_flags = ten, .n_user_flags = 1, .include_dirs = d1, .n_include_dirs = 1};
    build_expect(&s, 1, 11);
    build_expect(&s, 0, 11); /* unchanged: from the cache */
    s.user_flags = twenty;
    build_expect(&s, 1, 21); /* another flag: compiled again */
    s.include_dirs = d2;
    build_expect(&s, 1, 22); /* another include directory: compiled again */
    s.user_flags = ten;
    s.include_dirs = d1;
    build_expect(&s, 0, 11); /* back: the first object, still in the cache */
    free(src);
    free(inc1);
    free(inc2);
}

/* The position of `word` as a whole argument of the command line, or -1. */
static long arg_at(const char *command, const char *word) {
    size_t n = strlen(word);
    for (const char *p = command; (p = strstr(p, word)) != NULL; p++)
        if ((p == command || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return p - command;
    return -1;
}

Test(flags, the_command_line_puts_user_flags_after_benchruns) {
    char *src =
        e2e_put("m.c", "#include \"benchrun_kernel.h\"\n#include <math.h>\n"
                       "#ifdef __STRICT_ANSI__\n#error \"-std=gnu11 was not last\"\n#endif\n"
                       "static int run(br_case *c) { (void)c; return (int)(M_PI * 100); }\n"
                       "static const br_kernel k[] = {{\"k1\", 0, run, 0, 0, 0}};\n"
                       "BR_MODULE(k);\n");
    char *inc = put_inc("inc", 0);
    const char *flags[] = {"-std=gnu11", "-lm", "-O1"}, *dirs[] = {inc};
    br_build_src s = {.path = src,
                      .user_flags = flags,
                      .n_user_flags = 3,
                      .include_dirs = dirs,
                      .n_include_dirs = 1};
    br_module_handle h;
    build_one(&h, &s, 1, 314);
    const char *cmd = h.command;
    char *inc_flag = br_strfmt("-I%s", inc);
    long std = arg_at(cmd, "-std=c11"), gnu = arg_at(cmd, "-std=gnu11"), o1 = arg_at(cmd, "-O1"),
         lm = arg_at(cmd, "-lm"), source = arg_at(cmd, src), idir = arg_at(cmd, inc_flag),
         kernels = arg_at(cmd, "-I" BR_KERNEL_INCLUDE_DIR);
    cr_assert(arg_at(cmd, "-D_DEFAULT_SOURCE") > 0 && std > 0, "%s", cmd);
    cr_assert(gnu > std && o1 > gnu && o1 > arg_at(cmd, "-O3"), "user flags in order: %s", cmd);
    cr_assert(idir > kernels && gnu > idir, "include dirs after benchrun's: %s", cmd);
    cr_assert(source > 0 && lm > source, "a library after the source: %s", cmd);
    free(inc_flag);
    br_module_handle_dispose(&h);
    free(src);
    free(inc);
}

Test(flags, a_c_source_sees_m_pi) {
    char *src =
        e2e_put("pi.c", "#include \"benchrun_kernel.h\"\n#include <math.h>\n"
                        "static int run(br_case *c) { (void)c; return (int)(M_PI * 1000); }\n"
                        "static const br_kernel k[] = {{\"k1\", 0, run, 0, 0, 0}};\n"
                        "BR_MODULE(k);\n");
    br_build_src s = {.path = src};
    build_expect(&s, 1, 3141);
    free(src);
}

Test(flags, a_cpp_source_builds_with_cxx) {
    need_cxx();
    const char *flags[] = {"-DFIXTURE_PERIODS=3"}, *dirs[] = {CXX_FIXTURE "/include"};
    br_build_src s = {.path = CXX_FIXTURE "/wave_cxx.cpp",
                      .user_flags = flags,
                      .n_user_flags = 1,
                      .include_dirs = dirs,
                      .n_include_dirs = 1};
    br_module_handle h;
    build_one(&h, &s, 1, -1);
    cr_assert_eq(h.is_gpu, 0);
    cr_assert_str_eq(h.module->kernels[0].name, "wave_cxx");
    const char *cxx = getenv("CXX");
    char *first = br_strfmt("%s -O3 -march=native -std=c++17 -shared -fPIC ",
                            cxx && cxx[0] && !strchr(cxx, ' ') ? cxx : "c++");
    cr_assert(strncmp(h.command, first, strlen(first)) == 0, "%s", h.command);
    free(first);
    br_module_handle_dispose(&h);

    /* $CXX names the compiler: one that cannot run fails the module */
    setenv("CXX", "/nonexistent/c++", 1);
    char *cache = br_strfmt("%s/cache", tmp);
    br_build_opts o = {.cache_dir = cache, .jobs = 1};
    cr_assert_eq(br_build_modules(&h, &s, 1, &o), 0);
    cr_assert_eq(h.state, BR_MODULE_FAILED);
    cr_assert(strstr(h.message, "cannot run the compiler"), "%s", h.message);
    cr_assert(strstr(h.message, "/nonexistent/c++"), "the message names it: %s", h.message);
    br_module_handle_dispose(&h);
    unsetenv("CXX");
    free(cache);
}

Test(flags, cc_and_cxx_sources_in_one_build) {
    need_cxx();
    char *c = e2e_put("a.c", "#include \"benchrun_kernel.h\"\n"
                             "static int run(br_case *c) { (void)c; return FLAG; }\n"
                             "static const br_kernel k[] = {{\"ka\", 0, run, 0, 0, 0}};\n"
                             "BR_MODULE(k);\n");
    char *cc =
        e2e_put("b.cc", "#include \"benchrun_kernel.h\"\n#include <array>\n"
                        "static int run(br_case *c) { (void)c; std::array<int, 2> a{FLAG, 1};"
                        " return a[0] + a[1]; }\n"
                        "static const br_kernel k[] = {{\"kb\", nullptr, run}};\n"
                        "BR_MODULE(k);\n");
    const char *flags[] = {"-DFLAG=7"};
    br_build_src s[] = {{.path = c, .user_flags = flags, .n_user_flags = 1},
                        {.path = cc, .user_flags = flags, .n_user_flags = 1}};
    char *cache = br_strfmt("%s/cache", tmp);
    br_build_opts o = {.cache_dir = cache, .jobs = 2};
    br_module_handle h[2];
    cr_assert_eq(br_build_modules(h, s, 2, &o), 2, "%s", br_error_get());
    for (int i = 0; i < 2; i++)
        cr_assert_eq(h[i].state, BR_MODULE_LOADED, "%s\n%s", h[i].message ? h[i].message : "",
                     h[i].log ? h[i].log : "");
    cr_assert_eq(h[0].module->kernels[0].run(NULL), 7);
    cr_assert_eq(h[1].module->kernels[0].run(NULL), 8);
    for (int i = 0; i < 2; i++)
        br_module_handle_dispose(&h[i]);
    free(cache);
    free(c);
    free(cc);
}
