/* SPDX-License-Identifier: Apache-2.0 */
/* Where benchrun finds benchrun_kernel.h: $BENCHRUN_INCLUDE_DIR, else
 * EXEDIR/../include/benchrun (an installed, possibly moved, prefix), else the
 * source tree it was built from. The end-to-end cases lay out a prefix the
 * way `cmake --install` does (bin/benchrun, include/benchrun/) with a header
 * that defines a marker, and a host kernel that refuses to compile without
 * it, so a run passes only when that prefix's header was used. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/error.h"
#include "base/util.h"
#include "compile/build.h"
#include "e2e_util.h"

TestSuite(include_dir, .init = e2e_tmp_make, .fini = e2e_tmp_drop, .timeout = 120);

static const char *kernel_src =
    "#include \"benchrun_kernel.h\"\n"
    "#ifndef BR_TEST_INSTALLED_HEADER\n"
    "#error \"not the installed prefix's benchrun_kernel.h\"\n"
    "#endif\n"
    "static volatile int64_t got;\n"
    "static int run(br_case *c) { int64_t n; c->api->param(c, \"n\", &n); got = n; return 0; }\n"
    "static int verify(br_case *c) { (void)c; return got == 64 ? 0 : -1; }\n"
    "static const br_kernel k[] = {{\"marked\", 0, run, verify, 0}};\n"
    "BR_MODULE(k);\n";

static const char *suite_src = "name: include-dir\n"
                               "source: k.c\n"
                               "kernels: [marked]\n"
                               "params:\n"
                               "  n: [64]\n"
                               "bytes: n\n"
                               "warmup: 0ms\n"
                               "measure: {min_samples: 3, min_time: 0ms, timeout: 1s}\n";

static int sh(const char *cmd) {
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* tmp/PREFIX/bin/benchrun (a copy of the build's) and
 * tmp/PREFIX/include/benchrun/benchrun_kernel.h with the marker; the suite
 * in tmp/w. */
static void make_prefix(const char *prefix) {
    char *cmd = br_strfmt("set -e; cd '%s'; mkdir -p %s/bin %s/include/benchrun w; "
                          "cp '%s' %s/bin/benchrun; "
                          "{ cat '%s/kernels/benchrun_kernel.h'; "
                          "echo '#define BR_TEST_INSTALLED_HEADER 1'; } "
                          "> %s/include/benchrun/benchrun_kernel.h",
                          tmp, prefix, prefix, BR_BENCHRUN_EXE, prefix, BR_SOURCE_DIR, prefix);
    cr_assert_eq(sh(cmd), 0, "%s", cmd);
    free(cmd);
    free(e2e_put("w/k.c", kernel_src));
    free(e2e_put("w/suite.yaml", suite_src));
}

/* Run EXE on the suite in tmp/w with `env` ("" or "NAME=VALUE") and its own
 * cache; returns the exit status, *log what it said (caller frees). */
static int run_suite(char **log, const char *env, const char *exe) {
    char *cmd = br_strfmt("cd '%s/w' && env %s '%s' --cache-dir '%s/cache' suite.yaml "
                          "> '%s/log' 2>&1",
                          tmp, env, exe, tmp, tmp);
    int st = sh(cmd);
    free(cmd);
    char *path = br_strfmt("%s/log", tmp);
    if (br_read_file(log, NULL, path, 1 << 20) != 0)
        *log = strdup("");
    free(path);
    return st;
}

Test(include_dir, exe_dir_is_the_directory_of_the_running_program) {
    char *dir = br_exe_dir();
    cr_assert_not_null(dir, "%s", br_error_get());
    cr_assert_eq(dir[0], '/', "absolute: %s", dir);
    char *me = br_path_join(dir, "test_include_dir");
    cr_assert_eq(access(me, X_OK), 0, "%s is this test program", me);
    free(me);
    free(dir);
}

Test(include_dir, the_build_tree_uses_its_source_tree_and_the_variable_overrides) {
    unsetenv("BENCHRUN_INCLUDE_DIR");
    cr_assert_str_eq(br_build_include_dir(), BR_SOURCE_DIR "/kernels");
    setenv("BENCHRUN_INCLUDE_DIR", "/opt/elsewhere", 1);
    cr_assert_str_eq(br_build_include_dir(), "/opt/elsewhere");
    setenv("BENCHRUN_INCLUDE_DIR", "", 1);
    cr_assert_str_eq(br_build_include_dir(), BR_SOURCE_DIR "/kernels", "empty means unset");
}

Test(include_dir, an_installed_benchrun_uses_its_prefix_and_a_moved_prefix_too) {
    make_prefix("p");
    char *exe = br_strfmt("%s/p/bin/benchrun", tmp), *log;
    cr_assert_eq(run_suite(&log, "-u BENCHRUN_INCLUDE_DIR", exe), 0, "%s", log);
    cr_assert(strstr(log, "marked"), "the kernel ran:\n%s", log);
    free(log);
    free(exe);

    char *mv = br_strfmt("mv '%s/p' '%s/q' && rm -rf '%s/cache'", tmp, tmp, tmp);
    cr_assert_eq(sh(mv), 0);
    free(mv);
    exe = br_strfmt("%s/q/bin/benchrun", tmp);
    cr_assert_eq(run_suite(&log, "-u BENCHRUN_INCLUDE_DIR", exe), 0, "moved prefix:\n%s", log);
    free(log);
    free(exe);
}

Test(include_dir, the_variable_overrides_the_prefix) {
    make_prefix("p");
    char *exe = br_strfmt("%s/p/bin/benchrun", tmp), *log;
    int st = run_suite(&log, "BENCHRUN_INCLUDE_DIR='" BR_SOURCE_DIR "/kernels'", exe);
    cr_assert_neq(st, 0, "the source tree's header has no marker:\n%s", log);
    cr_assert(strstr(log, "not the installed prefix's benchrun_kernel.h"),
              "the compile error is shown:\n%s", log);
    free(log);
    free(exe);
}

Test(include_dir, the_build_tree_benchrun_ignores_a_prefix_it_is_not_in) {
    make_prefix("p");
    char *log;
    int st = run_suite(&log, "-u BENCHRUN_INCLUDE_DIR", BR_BENCHRUN_EXE);
    cr_assert_neq(st, 0, "the build tree's benchrun uses the source tree's header:\n%s", log);
    cr_assert(strstr(log, "not the installed prefix's benchrun_kernel.h"), "%s", log);
    free(log);
}
