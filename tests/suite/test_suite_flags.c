/* SPDX-License-Identifier: Apache-2.0 */
/* test_suite_flags.c - the compiler keys of a suite (cflags, nvcc_flags,
 * include_dirs) and C++ host sources: read into the model with their
 * positions, include directories resolved against the suite's folder,
 * wrong values refused at their line:column (more malformed cases, through
 * the benchrun executable, in tests/fixtures/bad/{cflags,nvcc_flags,
 * include_dirs}_*.yaml). */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "e2e_util.h"
#include "suite/suite.h"

#define CXX BR_FIXTURES_DIR "/cxx"

TestSuite(suite_flags, .init = e2e_tmp_make, .fini = e2e_tmp_drop);

/* Load suite text written to tmp/s.yaml (beside tmp/k.c and tmp/inc/);
 * returns br_suite_load's status, the suite in *s (dispose it). */
static int load_text(br_suite *s, const char *yaml) {
    free(e2e_put("k.c", "/* k */\n"));
    char *inc = br_strfmt("%s/inc", tmp);
    cr_assert_eq(br_mkdir_p(inc), 0);
    free(inc);
    char *path = e2e_put("s.yaml", yaml);
    br_error_clear();
    int rc = br_suite_load(s, path);
    free(path);
    return rc;
}

/* The error of a suite that fails to load, after "tmp/s.yaml:". */
static void fails_with(const char *yaml, const char *want) {
    br_suite s;
    cr_assert_eq(load_text(&s, yaml), -1, "loaded:\n%s", yaml);
    char *prefix = br_strfmt("%s/s.yaml:", tmp);
    const char *got = br_error_get();
    cr_assert(strncmp(got, prefix, strlen(prefix)) == 0, "no path: %s", got);
    cr_assert_str_eq(got + strlen(prefix), want);
    free(prefix);
    br_suite_dispose(&s);
}

#define HEAD "name: t\nsource: k.c\nkernels: [k]\n"

Test(suite_flags, the_fixture_loads_with_positions) {
    br_suite s;
    cr_assert_eq(br_suite_load(&s, CXX "/wave.yaml"), 0, "%s", br_error_get());
    cr_assert_eq(s.n_sources, 2);
    cr_assert_str_eq(s.sources[0].text, CXX "/wave_cxx.cpp");
    cr_assert_eq(s.n_cflags, 2);
    cr_assert_str_eq(s.cflags[0].text, "-DFIXTURE_PERIODS=3");
    cr_assert_str_eq(s.cflags[1].text, "-Wall");
    cr_assert_eq(s.cflags[1].pos.line, 8);
    cr_assert_eq(s.cflags[1].pos.column, 31);
    cr_assert_eq(s.n_nvcc_flags, 1, "one string is one flag");
    cr_assert_str_eq(s.nvcc_flags[0].text, "--expt-relaxed-constexpr");
    cr_assert_eq(s.n_include_dirs, 1);
    cr_assert_str_eq(s.include_dirs[0].text, CXX "/include", "resolved against the suite's folder");
    cr_assert_eq(s.include_dirs[0].pos.line, 7);
    cr_assert_eq(s.include_dirs[0].pos.column, 15);
    br_suite_dispose(&s);
}

Test(suite_flags, absent_keys_leave_nothing) {
    br_suite s;
    cr_assert_eq(load_text(&s, HEAD), 0, "%s", br_error_get());
    cr_assert_eq(s.n_cflags + s.n_nvcc_flags + s.n_include_dirs, 0);
    cr_assert_null(s.cflags);
    cr_assert_null(s.include_dirs);
    br_suite_dispose(&s);
}

Test(suite_flags, one_item_is_one_argument) {
    br_suite s;
    /* no shell splitting: a flag with a space stays one argument */
    cr_assert_eq(load_text(&s,
                           HEAD "cflags: ['-DMSG=\"a b\"', -include, stdio.h]\n"
                                "nvcc_flags: [-Xcompiler, -fopenmp]\n"
                                "include_dirs: [inc, ./inc/../inc/.., '" BR_FIXTURES_DIR "']\n"),
                 0, "%s", br_error_get());
    cr_assert_eq(s.n_cflags, 3);
    cr_assert_str_eq(s.cflags[0].text, "-DMSG=\"a b\"");
    cr_assert_str_eq(s.cflags[2].text, "stdio.h", "a flag's value is an item of its own");
    cr_assert_eq(s.n_nvcc_flags, 2);
    cr_assert_eq(s.n_include_dirs, 3);
    char *inc = br_strfmt("%s/inc", tmp);
    cr_assert_str_eq(s.include_dirs[0].text, inc);
    cr_assert_str_eq(s.include_dirs[1].text, tmp, "normalized");
    cr_assert_str_eq(s.include_dirs[2].text, BR_FIXTURES_DIR, "an absolute path as given");
    free(inc);
    br_suite_dispose(&s);
}

Test(suite_flags, wrong_types) {
    fails_with(HEAD "cflags: {O: 2}\n", "4:9: expected a compiler flag or a list of flags "
                                        "(cflags: [-O2, -DNDEBUG]), found a mapping");
    fails_with(HEAD "nvcc_flags: ~\n", "4:13: expected a compiler flag or a list of flags "
                                       "(nvcc_flags: [-O2, -DNDEBUG]), found null");
    fails_with(HEAD "cflags: [-O2, [-g]]\n",
               "4:15: expected a compiler flag (a string), found a list");
    fails_with(HEAD "cflags: |\n  -O2\n  -g\n",
               "4:9: expected a compiler flag (a string) on one line, found a multi-line string");
    fails_with(HEAD "include_dirs: [inc, 3: x]\n",
               "4:21: expected an include directory (a string), found a mapping");
}

Test(suite_flags, refused_flags_say_why) {
    fails_with(HEAD "cflags: [-O2, '']\n",
               "4:15: expected a compiler flag in cflags, found an empty string");
    fails_with(HEAD "cflags: -E\n", "4:9: cflags: flag '-E' is not accepted: benchrun needs a "
                                    "shared object, and this flag stops the compiler before one");
    fails_with(HEAD "cflags: [-MFdeps.d]\n",
               "4:10: cflags: flag '-MFdeps.d' is not accepted: benchrun reads the compiler's "
               "dependency list from a file of its own");
    fails_with(HEAD "nvcc_flags: [-o, x]\n",
               "4:14: nvcc_flags: flag '-o' is not accepted: benchrun names the output itself (an "
               "object in its compile cache)");
    /* nvcc's -o<x> options are other options; the host compiler's are -o */
    br_suite s;
    cr_assert_eq(load_text(&s, HEAD "nvcc_flags: [-optf, opts.txt, -c=x]\ncflags: [--compile]\n"),
                 0, "%s", br_error_get());
    br_suite_dispose(&s);
}

Test(suite_flags, include_dirs_must_be_directories) {
    fails_with(HEAD "include_dirs: [inc, missing]\n",
               "4:21: include directory 'missing' does not exist");
    fails_with(HEAD "include_dirs: k.c\n", "4:15: include directory 'k.c' is not a directory");
    fails_with(HEAD "include_dirs: k.c/x\n", "4:15: include directory 'k.c/x' does not exist");
    fails_with(HEAD "include_dirs: [inc, inc/.]\n",
               "4:21: duplicate include directory 'inc/.' (first at 4:16)");
    fails_with(HEAD "include_dirs: ''\n", "4:15: expected an include directory, found an empty "
                                          "string");
}

Test(suite_flags, misspelt_keys_get_a_suggestion) {
    fails_with(HEAD "cflag: -O2\n", "4:1: unknown key 'cflag' (did you mean 'cflags'?)");
    fails_with(HEAD "nvcc_flag: -g\n", "4:1: unknown key 'nvcc_flag' (did you mean 'nvcc_flags'?)");
    fails_with(HEAD "includedirs: inc\n",
               "4:1: unknown key 'includedirs' (did you mean 'include_dirs'?)");
}

Test(suite_flags, too_many_flags_are_refused) {
    char yaml[4096];
    int n = snprintf(yaml, sizeof yaml, HEAD "include_dirs: [inc]\ncflags: [");
    for (int i = 0; i < BR_SUITE_MAX_USER_FLAGS; i++)
        n += snprintf(yaml + n, sizeof yaml - (size_t)n, "%s-DF%d", i ? ", " : "", i);
    snprintf(yaml + n, sizeof yaml - (size_t)n, "]\n");
    char want[160];
    snprintf(want, sizeof want,
             "5:9: cflags and include_dirs give %d compiler flags (at most %d "
             "together)",
             BR_SUITE_MAX_USER_FLAGS + 1, BR_SUITE_MAX_USER_FLAGS);
    fails_with(yaml, want);
}

Test(suite_flags, cpp_sources_are_host_sources) {
    free(e2e_put("m.cpp", "// m\n"));
    free(e2e_put("m.cc", "// m\n"));
    free(e2e_put("m.cxx", "// m\n"));
    free(e2e_put("m.hpp", "// m\n"));
    br_suite s;
    cr_assert_eq(load_text(&s, "name: t\nsource: [m.cpp, m.cc, m.cxx, k.c]\nkernels: [k]\n"), 0,
                 "%s", br_error_get());
    cr_assert_eq(s.n_sources, 4);
    br_suite_dispose(&s);
    fails_with("name: t\nsource: m.hpp\nkernels: [k]\n",
               "2:9: source 'm.hpp' is not a kernel source (expected a .cu file, or a .c, .cpp, "
               ".cc or .cxx file for host kernels)");
}
