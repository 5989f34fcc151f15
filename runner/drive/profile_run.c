/* SPDX-License-Identifier: Apache-2.0 */
/* profile_run.c - finding ncu and running the processes of benchrun
 * profile (profile_run.h). */
#include "profile_run.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/error.h"
#include "base/util.h"

extern char **environ;

#define DEFAULT_NCU "/usr/local/cuda/bin/ncu"

static int executable(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* "ncu" in a directory of $PATH, malloc'd, or NULL. */
static char *on_path(const char *name) {
    const char *path = getenv("PATH");
    while (path && *path) {
        const char *colon = strchr(path, ':');
        size_t n = colon ? (size_t)(colon - path) : strlen(path);
        char *dir = n ? br_strfmt("%.*s", (int)n, path) : br_strdup(".");
        char *full = dir ? br_path_join(dir, name) : NULL;
        free(dir);
        if (full && executable(full))
            return full;
        free(full);
        path = colon ? colon + 1 : NULL;
    }
    return NULL;
}

char *br_profile_find_ncu(void) {
    const char *env = getenv("BENCHRUN_NCU");
    if (env && env[0]) {
        if (executable(env))
            return br_strdup(env);
        br_error_set("BENCHRUN_NCU is '%s', which is not an executable file", env);
        return NULL;
    }
    char *p = on_path("ncu");
    if (p)
        return p;
    if (executable(DEFAULT_NCU))
        return br_strdup(DEFAULT_NCU);
    br_error_set("Nsight Compute's ncu was not found: not on PATH, not in " DEFAULT_NCU
                 ", and BENCHRUN_NCU is not set. Install Nsight Compute (it comes with the CUDA "
                 "Toolkit, or as the package nsight-compute from NVIDIA's repository), then put "
                 "its directory on PATH or set BENCHRUN_NCU=/path/to/ncu");
    return NULL;
}

int br_profile_spawn(const char *const *argv, const char *capture) {
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    int fd = -1;
    if (capture) {
        fd = open(capture, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (fd < 0) {
            posix_spawn_file_actions_destroy(&fa);
            return br_error_set("cannot create %s: %s", capture, strerror(errno));
        }
        posix_spawn_file_actions_adddup2(&fa, fd, 1);
        posix_spawn_file_actions_adddup2(&fa, fd, 2);
    }
    pid_t pid;
    int e = posix_spawn(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (fd >= 0)
        close(fd);
    if (e != 0)
        return br_error_set("cannot run %s: %s", argv[0], strerror(e));
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return br_error_set("cannot wait for %s: %s", argv[0], strerror(errno));
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int br_profile_no_permission(const char *text, size_t len) {
    static const char key[] = "ERR_NVGPUCTRPERM";
    for (size_t i = 0; i + sizeof key - 1 <= len; i++)
        if (memcmp(text + i, key, sizeof key - 1) == 0)
            return 1;
    return 0;
}

const char *br_profile_permission_advice(void) {
    return "Nsight Compute cannot read the GPU's performance counters (ERR_NVGPUCTRPERM): "
           "this user may not profile. Either run benchrun profile as root (sudo), or let every "
           "user profile: load the nvidia kernel module with the option "
           "NVreg_RestrictProfilingToAdminUsers=0 (a line 'options nvidia "
           "NVreg_RestrictProfilingToAdminUsers=0' in a file under /etc/modprobe.d/, then reboot "
           "or reload the module). See https://developer.nvidia.com/ERR_NVGPUCTRPERM";
}
