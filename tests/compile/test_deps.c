/* SPDX-License-Identifier: Apache-2.0 */
/* test_deps.c - the compile cache follows every header the compiler read
 * (its own dependency list): the dependency file's syntax, and headers the
 * old "..." scan missed edited between two builds. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <stdio.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "compile/build.h"
#include "compile/deps.h"
#include "e2e_util.h"

TestSuite(deps, .init = e2e_tmp_make, .fini = e2e_tmp_drop, .timeout = 120);

/* ---- the dependency file's syntax ------------------------------------------- */

static void parses_to(const char *text, const char *const *want, size_t n_want) {
    br_dep_list l = {0};
    cr_assert_eq(br_deps_parse(&l, text), 0, "%s: %s", text, br_error_get());
    cr_assert_eq(l.n, n_want, "%zu prerequisites of:\n%s", l.n, text);
    for (size_t i = 0; i < n_want; i++)
        cr_assert_str_eq(l.v[i].path, want[i], "prerequisite %zu of:\n%s", i, text);
    br_dep_list_free(&l);
}

Test(deps, parse_gcc_rule_with_escapes) {
    const char *want[] = {"b.c", "/tmp/inc dir/h#x.h", "/tmp/a$b.h"};
    parses_to("b.so: b.c /tmp/inc\\ dir/h\\#x.h /tmp/a$$b.h\n", want, 3);
}

Test(deps, parse_nvcc_rule_with_continuations) {
    const char *want[] = {"/tmp/a.cu", "/usr/include/stdc-predef.h", "/tmp/inc dir/h#x.h"};
    parses_to("/tmp/a.so : /tmp/a.cu \\\n    /usr/include/stdc-predef.h \\\n"
              "    /tmp/inc\\ dir/h#x.h\n",
              want, 3);
}

Test(deps, parse_crlf_phony_rules_and_repeats) {
    const char *want[] = {"a.c", "h.h", "g.h"};
    parses_to("a.o: a.c \\\r\n h.h\r\n\r\nh.h:\r\ng.h: h.h\r\nx.o: g.h a.c", want, 3);
}

Test(deps, parse_backslashes) {
    /* two backslashes and a space: one backslash, then a separator; a
     * backslash elsewhere is itself. */
    const char *want[] = {"x\\", "y", "dir\\name.h"};
    parses_to("t: x\\\\ y dir\\name.h\n", want, 3);
}

Test(deps, parse_empty_and_refused) {
    parses_to("", NULL, 0);
    parses_to("\n\n", NULL, 0);
    br_dep_list l = {0};
    cr_assert_eq(br_deps_parse(&l, "a.o: a.c\nno colon here\n"), -1);
    cr_assert(strstr(br_error_get(), "no ':'"), "%s", br_error_get());
    br_dep_list_free(&l);
}

/* ---- rebuilds after a header edit --------------------------------------------- */

/* A host module whose kernel's run() returns HELPER, from what `includes` brings. */
static char *put_module(const char *name, const char *includes) {
    char *text = br_strfmt("#include \"benchrun_kernel.h\"\n%s"
                           "static int run(br_case *c) { (void)c; return HELPER; }\n"
                           "static int verify(br_case *c) { (void)c; return 0; }\n"
                           "static const br_kernel k[] = {{\"k1\", 0, run, verify, 0}};\n"
                           "BR_MODULE(k);\n",
                           includes);
    char *path = e2e_put(name, text);
    free(text);
    return path;
}

static char *put_helper(const char *name, int value) {
    char *text = br_strfmt("#define HELPER %d\n", value);
    char *path = e2e_put(name, text);
    free(text);
    return path;
}

/* Build src with flags; expect `compiled` compiles and run() returning `value`. */
static void build_expect(const br_build_src *src, int compiled, int value) {
    char *cache = br_strfmt("%s/cache", tmp);
    br_build_opts o = {.cache_dir = cache, .jobs = 1};
    br_module_handle h;
    cr_assert_eq(br_build_modules(&h, src, 1, &o), compiled, "%d compile(s) expected: %s", compiled,
                 br_error_get());
    cr_assert_eq(h.from_cache, !compiled);
    cr_assert_eq(h.state, BR_MODULE_LOADED, "%s\n%s", h.message ? h.message : "",
                 h.log ? h.log : "");
    cr_assert_eq(h.module->kernels[0].run(NULL), value, "the code that runs is the newest");
    br_module_handle_dispose(&h);
    free(cache);
}

/* Build, edit the header, build: compiled again and the new value runs;
 * then unchanged: from the cache. */
static void edit_between_builds(const br_build_src *src, const char *header) {
    free(put_helper(header, 1));
    build_expect(src, 1, 1);
    build_expect(src, 0, 1);
    free(put_helper(header, 2));
    build_expect(src, 1, 2);
    build_expect(src, 0, 2);
    free(put_helper(header, 1)); /* back: the first object, still recorded */
    build_expect(src, 0, 1);
}

Test(deps, an_angle_bracket_header_of_the_suite_dir_is_followed) {
    char *src = put_module("m.c", "#include <helper.h>\n");
    br_build_src s = {.path = src};
    edit_between_builds(&s, "helper.h");
    free(src);
}

Test(deps, a_header_under_if_is_followed) {
    char *src =
        put_module("m.c", "#define EXTRA \"cond.h\"\n"
                          "#if SOMETHING\n#include EXTRA\n#else\n#define HELPER 0\n#endif\n");
    const char *flags[] = {"-DSOMETHING=1"};
    br_build_src s = {.path = src, .flags = flags, .n_flags = 1};
    edit_between_builds(&s, "cond.h");
    free(src);
}

Test(deps, a_header_of_an_include_directory_is_followed) {
    char *src = put_module("m.c", "#include \"lib.h\"\n");
    char *dir = br_strfmt("%s/inc", tmp);
    char *flag = br_strfmt("-I%s", dir);
    cr_assert_eq(br_mkdir_p(dir), 0);
    const char *flags[] = {flag};
    br_build_src s = {.path = src, .flags = flags, .n_flags = 1};
    edit_between_builds(&s, "inc/lib.h");
    free(src);
    free(dir);
    free(flag);
}

Test(deps, a_deleted_header_compiles_again_and_fails) {
    char *src = put_module("m.c", "#include <helper.h>\n");
    char *hdr = put_helper("helper.h", 7);
    br_build_src s = {.path = src};
    build_expect(&s, 1, 7);
    cr_assert_eq(unlink(hdr), 0);
    char *cache = br_strfmt("%s/cache", tmp);
    br_build_opts o = {.cache_dir = cache, .jobs = 1};
    br_module_handle h;
    cr_assert_eq(br_build_modules(&h, &s, 1, &o), 1, "compiled again");
    cr_assert_eq(h.from_cache, 0);
    cr_assert_eq(h.state, BR_MODULE_FAILED);
    cr_assert(strstr(h.message, "compile failed"), "%s", h.message);
    cr_assert(h.log && strstr(h.log, "helper.h"), "diagnostics: %s", h.log);
    br_module_handle_dispose(&h);
    free(cache);
    free(hdr);
    free(src);
}

static int count_objects(void) {
    char *cmd = br_strfmt("ls %s/cache | grep -c '\\.so$'", tmp);
    FILE *p = popen(cmd, "r");
    int count = -1;
    cr_assert_eq(fscanf(p, "%d", &count), 1);
    pclose(p);
    free(cmd);
    return count;
}

Test(deps, a_header_changed_while_compiling_is_not_recorded) {
    char *src = put_module("m.c", "#include <helper.h>\n");
    char *hdr = put_helper("helper.h", 4);
    br_build_src s = {.path = src};
    /* Dated after the compile starts, as if edited while it ran. */
    struct timespec t[2];
    clock_gettime(CLOCK_REALTIME, &t[0]);
    t[0].tv_sec += 3600;
    t[1] = t[0];
    cr_assert_eq(utimensat(AT_FDCWD, hdr, t, 0), 0);
    build_expect(&s, 1, 4);
    build_expect(&s, 1, 4);
    cr_assert_eq(count_objects(), 0, "an object not recorded is not kept");
    free(put_helper("helper.h", 4));
    build_expect(&s, 1, 4);
    build_expect(&s, 0, 4);
    cr_assert_eq(count_objects(), 1);
    free(hdr);
    free(src);
}

Test(deps, the_record_names_project_files_and_no_system_header) {
    char *src = put_module("m.c", "#include <stdio.h>\n#include <helper.h>\n");
    free(put_helper("helper.h", 3));
    br_build_src s = {.path = src};
    build_expect(&s, 1, 3);
    char *cmd = br_strfmt("cat %s/cache/*.deps", tmp);
    FILE *p = popen(cmd, "r");
    char *text = calloc(1, 1 << 16);
    cr_assert(fread(text, 1, (1 << 16) - 1, p) > 0);
    pclose(p);
    cr_assert(strncmp(text, "benchrun-deps 1\nobject ", 23) == 0, "%s", text);
    char *want_hdr = br_strfmt("%s/helper.h\n", tmp);
    cr_assert(strstr(text, "/m.c\n") && strstr(text, want_hdr), "%s", text);
    cr_assert(strstr(text, "/benchrun_kernel.h\n"), "%s", text);
    cr_assert_null(strstr(text, "/usr/include/"), "%s", text);
    free(want_hdr);
    free(text);
    free(cmd);
    free(src);
}

/* The repro of issue 22 through the executable: a suite whose source
 * includes <helper.h> from its own directory; helper.h edited between runs. */
static void run_stale_suite(const char *expect, const char *want_modules) {
    char *cache = br_strfmt("--cache-dir=%s/cache", tmp);
    char *suite = br_strfmt("%s/stale/stale.yaml", tmp);
    const char *args[] = {cache, suite, "-p", expect, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 0, "%s: exit %d\n%s", expect, r.status, r.err);
    cr_assert(strstr(r.err, want_modules), "%s: want '%s':\n%s", expect, want_modules, r.err);
    cr_assert(strstr(r.err, "1 case(s): 1 ok"), "%s:\n%s", expect, r.err);
    e2e_free(&r);
    free(cache);
    free(suite);
}

Test(deps, an_edited_suite_header_is_what_the_next_run_measures) {
    char *cp = br_strfmt("cp -r '%s/stale' '%s/stale'", BR_FIXTURES_DIR, tmp);
    cr_assert_eq(system(cp), 0);
    run_stale_suite("expect=1", "1 compiled, 0 from cache");
    run_stale_suite("expect=1", "0 compiled, 1 from cache");
    free(put_helper("stale/helper.h", 2));
    run_stale_suite("expect=2", "1 compiled, 0 from cache");
    run_stale_suite("expect=2", "0 compiled, 1 from cache");
    free(cp);
}
