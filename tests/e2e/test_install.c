/* SPDX-License-Identifier: Apache-2.0 */
/* `cmake --install` of this build into a temporary prefix: the files a user
 * gets (benchrun, its headers, the man pages, the completion, benchrun.pc,
 * the example suites), then the prefix moved elsewhere, where the installed
 * benchrun runs a host suite and pkg-config's flags build a module by hand. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "e2e_util.h"

TestSuite(install, .init = e2e_tmp_make, .fini = e2e_tmp_drop, .timeout = 240);

/* Run a shell command; its output (stdout and stderr) into *out (caller
 * frees). Returns the exit status. */
static int sh_out(char **out, const char *cmd) {
    char *full = br_strfmt("( %s ) > '%s/sh.log' 2>&1", cmd, tmp);
    int st = system(full);
    free(full);
    char *log = br_strfmt("%s/sh.log", tmp);
    if (br_read_file(out, NULL, log, 1 << 22) != 0)
        *out = strdup("");
    free(log);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static int have(const char *tool) {
    char *cmd = br_strfmt("command -v %s >/dev/null 2>&1", tool);
    int ok = system(cmd) == 0;
    free(cmd);
    return ok;
}

static void assert_file(const char *prefix, const char *rel) {
    char *p = br_strfmt("%s/%s", prefix, rel);
    struct stat st;
    cr_assert(stat(p, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0,
              "%s is installed, a non-empty file", p);
    free(p);
}

Test(install, a_prefix_has_the_files_and_still_works_once_moved) {
    if (!have("cmake"))
        cr_skip_test("cmake is not on PATH");
    char *build = br_path_dir(BR_BENCHRUN_EXE), *out;
    char *cmd = br_strfmt("cmake --install '%s' --prefix '%s/p'", build, tmp);
    cr_assert_eq(sh_out(&out, cmd), 0, "%s\n%s", cmd, out);
    free(out);
    free(cmd);
    free(build);

    char *p = br_strfmt("%s/p", tmp);
    const char *files[] = {"bin/benchrun",
                           "include/benchrun/benchrun_kernel.h",
                           "include/benchrun/benchrun_cuda.h",
                           "share/man/man1/benchrun.1",
                           "share/man/man5/benchrun-suite.5",
                           "share/bash-completion/completions/benchrun",
                           "share/pkgconfig/benchrun.pc",
                           "share/benchrun/suites/reduction.yaml",
                           "share/benchrun/kernels/reduction_cpu.c"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        assert_file(p, files[i]);
    if (access(BR_SOURCE_DIR "/schema/suite.schema.json", R_OK) == 0)
        assert_file(p, "share/benchrun/suite.schema.json");
    char *pc = br_strfmt("%s/share/pkgconfig/benchrun.pc", p), *text;
    cr_assert_eq(br_read_file(&text, NULL, pc, 1 << 16), 0);
    char *want = br_strfmt("prefix=%s\n", p);
    cr_assert(strstr(text, want), "benchrun.pc names the prefix installed to:\n%s", text);
    cr_assert(strstr(text, "Cflags: -I${includedir}/benchrun\n"), "%s", text);
    free(want);
    free(text);
    free(pc);
    free(p);

    /* Moved: the header is found beside the executable. */
    cmd = br_strfmt("mv '%s/p' '%s/q' && mkdir '%s/w' && cd '%s/w' && env -u BENCHRUN_INCLUDE_DIR "
                    "'%s/q/bin/benchrun' --cache-dir '%s/cache' '%s/e2e/ok.yaml'",
                    tmp, tmp, tmp, tmp, tmp, tmp, BR_FIXTURES_DIR);
    cr_assert_eq(sh_out(&out, cmd), 0, "%s\n%s", cmd, out);
    char *inc = br_strfmt("-I%s/q/include/benchrun ", tmp);
    cr_assert(strstr(out, "0 failed"), "%s", out);
    free(out);
    free(cmd);

    if (!have("pkg-config")) {
        free(inc);
        cr_skip_test("pkg-config is not on PATH: the module built by hand is not checked");
    }
    /* Without a sysroot: one (as the GPU machine's staged libraries set)
     * would be prefixed to the moved prefix, which is no sysroot's. */
    cmd = br_strfmt("env -u PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_PATH='%s/q/share/pkgconfig' "
                    "pkg-config --define-prefix --cflags benchrun",
                    tmp);
    cr_assert_eq(sh_out(&out, cmd), 0, "%s\n%s", cmd, out);
    cr_assert(strstr(out, inc), "pkg-config --define-prefix names the moved prefix: %s", out);
    free(out);
    free(cmd);
    cmd = br_strfmt("cc -O2 -shared -fPIC %s '%s/e2e/host_kernels.c' -o '%s/k.so'", inc,
                    BR_FIXTURES_DIR, tmp);
    cr_assert_eq(sh_out(&out, cmd), 0, "a module builds by hand: %s\n%s", cmd, out);
    free(out);
    free(cmd);
    free(inc);
}
