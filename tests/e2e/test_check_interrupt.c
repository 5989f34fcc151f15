/* SPDX-License-Identifier: Apache-2.0 */
/* Ctrl-C during `benchrun check`, as a run handles it: exit 128 + the
 * signal with "interrupted", never a compile failure of the user's kernel.
 * The compiler is a script ($CC) that marks its start, so the signal lands
 * while a module compiles:
 *  - to the process group, as a terminal sends it: the compiler dies of it
 *    too (the newcomer saw "nvcc error: 'cudafe++' died due to signal 2"
 *    and exit 2);
 *  - to benchrun alone: the compile finishes, and the check still says it
 *    was interrupted (the newcomer saw "ok", exit 0). */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "e2e_util.h"

TestSuite(check_interrupt, .init = e2e_tmp_make, .fini = e2e_tmp_drop, .timeout = 120);

/* A compiler that marks its start, then waits `wait` (sleep's argument)
 * before it compiles with cc (or, wait "30", is killed long before). */
static char *fake_cc(const char *wait) {
    char *path = br_strfmt("%s/fake-cc", tmp), *mark = br_strfmt("%s/cc-started", tmp);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fprintf(f, "#!/bin/sh\ntouch '%s'\nsleep %s\nexec cc \"$@\"\n", mark, wait);
    fclose(f);
    cr_assert_eq(chmod(path, 0755), 0);
    free(mark);
    return path;
}

/* benchrun check of the axpy example with CC=cc_path and a cold cache, in a
 * process group of its own; sig goes to the group (group 1) or to benchrun
 * alone once the compiler started. Returns the exit status (128 + signal
 * when killed), its standard output in *out and error in *err (malloc'd). */
static int check_signalled(const char *cc_path, int sig, int group, char **out, char **err) {
    char *cache = br_strfmt("--cache-dir=%s/cache", tmp), *mark = br_strfmt("%s/cc-started", tmp);
    const char *args[] = {"check", cache, BR_SOURCE_DIR "/docs/examples/axpy/axpy.yaml", NULL};
    e2e_proc p = {.own_group = 1};
    setenv("CC", cc_path, 1);
    cr_assert_eq(e2e_start(&p, NULL, args), 0);
    unsetenv("CC");
    struct stat st;
    for (int waited = 0; stat(mark, &st) != 0; waited += 10) {
        cr_assert_lt(waited, 60000, "the compiler did not start in 1 min");
        usleep(10000);
    }
    cr_assert_eq(kill(group ? -p.pid : p.pid, sig), 0);
    e2e_result r;
    e2e_finish(&p, &r);
    *out = r.out;
    *err = r.err;
    free(cache);
    free(mark);
    return r.status;
}

Test(check_interrupt, to_the_process_group_exits_130_as_interrupted_not_as_a_compile_failure) {
    char *cc = fake_cc("30"), *out = NULL, *err = NULL;
    int status = check_signalled(cc, SIGINT, 1, &out, &err);
    cr_expect_eq(status, 130, "exit %d\nstdout:\n%s\nstderr:\n%s", status, out, err);
    cr_expect(strstr(out, "axpy.yaml: interrupted (SIGINT): not checked"), "stdout:\n%s", out);
    cr_expect_null(strstr(out, "FAILED"), "stdout:\n%s", out);
    free(cc);
    free(out);
    free(err);
}

Test(check_interrupt, to_benchrun_alone_is_not_ignored) {
    char *cc = fake_cc("1"), *out = NULL, *err = NULL;
    int status = check_signalled(cc, SIGINT, 0, &out, &err);
    cr_expect_eq(status, 130, "exit %d\nstdout:\n%s\nstderr:\n%s", status, out, err);
    cr_expect(strstr(out, "interrupted (SIGINT)"), "stdout:\n%s", out);
    cr_expect_null(strstr(out, ": ok:"), "stdout:\n%s", out);
    free(cc);
    free(out);
    free(err);
}
