/* SPDX-License-Identifier: Apache-2.0 */
/* docs_util.h - run the Python checks of tests/docs/ from Criterion tests. */
#ifndef BR_DOCS_UTIL_H
#define BR_DOCS_UTIL_H

#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"

extern char **environ;

/* Exit status a check script gives when a tool it needs is missing. */
#define DOCS_SKIP 77

/* Run `python3 tests/docs/SCRIPT args...` (args NULL-terminated, at most 500)
 * in the source tree (the test process moves there); standard output and error together into *out
 * (owned). Returns the exit status, or -1 when python3 could not be started
 * (then *out says why). */
static inline int docs_python(char **out, const char *script, const char *const *args) {
    *out = NULL;
    char path[] = "/tmp/br-docs-out-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    const char *argv[512] = {"python3", NULL};
    size_t n = 1;
    char *script_path = br_strfmt("%s/tests/docs/%s", BR_SOURCE_DIR, script);
    argv[n++] = script_path;
    for (size_t i = 0; args && args[i] && n < 510; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd, 1);
    posix_spawn_file_actions_adddup2(&fa, fd, 2);
    pid_t pid;
    int e = chdir(BR_SOURCE_DIR) == 0
                ? posix_spawnp(&pid, "python3", &fa, NULL, (char *const *)argv, environ)
                : errno;
    posix_spawn_file_actions_destroy(&fa);
    close(fd);
    free(script_path);
    int status = -1;
    if (e == 0) {
        int st;
        waitpid(pid, &st, 0);
        status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        br_read_file(out, NULL, path, 1 << 24);
    } else {
        *out = br_strfmt("python3 could not be started: %s", strerror(e));
    }
    unlink(path);
    return status;
}

/* Skip the test, visibly, unless python3 can import `modules` (comma
 * separated, e.g. "jsonschema,yaml"); call it before allocating. */
#define DOCS_REQUIRE(modules)                                                                      \
    do {                                                                                           \
        char *docs_out_ = NULL;                                                                    \
        int docs_st_ = docs_python(&docs_out_, "require.py", (const char *[]){modules, NULL});     \
        char docs_why_[512];                                                                       \
        snprintf(docs_why_, sizeof docs_why_, "%s", docs_out_ ? docs_out_ : "python3 is missing"); \
        free(docs_out_);                                                                           \
        if (docs_st_ != 0)                                                                         \
            cr_skip_test("%s", docs_why_);                                                         \
    } while (0)

#endif
