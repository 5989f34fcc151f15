/* SPDX-License-Identifier: Apache-2.0 */
/* test_lock.c - the advisory lock (base/lock.h): held against another
 * process, given up after the timeout, released, and refused on a lock file
 * that is a link or not a regular file. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/error.h"
#include "base/lock.h"
#include "base/util.h"
#include "e2e_util.h"

TestSuite(lock, .init = e2e_tmp_make, .fini = e2e_tmp_drop, .timeout = 60);

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

Test(lock, another_process_waits_then_gives_up_after_the_timeout) {
    char *path = br_strfmt("%s/b.json", tmp);
    br_lock l;
    cr_assert_eq(br_lock_take(&l, path, 1e9, 1), 0, "%s", br_error_get());
    struct stat st;
    char *file = br_strfmt("%s/.b.json.lock", tmp);
    cr_assert_eq(stat(file, &st), 0, "the lock file sits beside the file, hidden");
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) { /* flock locks belong to the open file: another process is shut out */
        br_lock m;
        double t0 = now_s();
        int rc = br_lock_take(&m, path, 0.3e9, 1);
        double waited = now_s() - t0;
        _exit(rc == -2 && br_error_kind_get() == BR_E_IO && waited >= 0.3 && waited < 5 &&
                      strstr(br_error_get(), "still locked")
                  ? 0
                  : 1);
    }
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the second taker did not time out");
    br_lock_release(&l);
    cr_assert_eq(l.fd, -1);
    br_lock_release(&l); /* twice is harmless */
    cr_assert_eq(br_lock_take(&l, path, 0.3e9, 1), 0, "free again: %s", br_error_get());
    br_lock_release(&l);
    cr_assert_eq(stat(file, &st), 0, "the lock file stays (removing it would let two in)");
    free(file);
    free(path);
}

Test(lock, a_link_or_a_directory_is_never_used_as_the_lock_file) {
    char *path = br_strfmt("%s/b.json", tmp), *file = br_strfmt("%s/.b.json.lock", tmp);
    char *target = br_strfmt("%s/elsewhere", tmp);
    cr_assert_eq(symlink(target, file), 0);
    br_lock l;
    cr_assert_eq(br_lock_take(&l, path, 1e9, 1), -1);
    cr_assert(strstr(br_error_get(), "symbolic link"), "%s", br_error_get());
    struct stat st;
    cr_assert_neq(stat(target, &st), 0, "the link was not followed");
    unlink(file);
    cr_assert_eq(mkdir(file, 0755), 0);
    cr_assert_eq(br_lock_take(&l, path, 1e9, 1), -1);
    cr_assert_eq(l.fd, -1);
    free(target);
    free(file);
    free(path);
}
