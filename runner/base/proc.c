/* SPDX-License-Identifier: Apache-2.0 */
/* Finding, starting and waiting for programs (proc.h). */
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "util.h"

extern char **environ;

/* Most processes one br_proc_wait_any waits for by their pidfds (more:
 * waitpid(WNOHANG) every 10 ms). */
#define MAX_PIDFDS 64

static int executable(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* $PATH, or the system's default search path when it is unset. Caller
 * frees; NULL when out of memory. */
static char *search_path(void) {
    const char *env = getenv("PATH");
    if (env)
        return br_strdup(env);
    size_t n = confstr(_CS_PATH, NULL, 0);
    char *p = n ? malloc(n) : NULL;
    if (p)
        confstr(_CS_PATH, p, n);
    return n ? p : br_strdup("/bin:/usr/bin");
}

char *br_proc_find(const char *name) {
    if (strchr(name, '/')) {
        struct stat st;
        if (executable(name))
            return br_strdup(name);
        if (stat(name, &st) != 0)
            br_error_set("%s: %s", name, strerror(errno));
        else
            br_error_set("%s: not an executable file", name);
        return NULL;
    }
    char *path = search_path();
    if (!path) {
        br_error_nomem();
        return NULL;
    }
    for (char *dir = path, *next; dir; dir = next) {
        char *colon = strchr(dir, ':');
        next = colon ? colon + 1 : NULL;
        if (colon)
            *colon = '\0';
        char *full = br_path_join(dir[0] ? dir : ".", name);
        if (!full) {
            free(path);
            br_error_nomem();
            return NULL;
        }
        if (executable(full)) {
            free(path);
            return full;
        }
        free(full);
    }
    free(path);
    if (name[0])
        br_error_set("%s: not found on PATH", name);
    else
        br_error_set("no program named (an empty name)");
    return NULL;
}

int br_proc_spawn(pid_t *out, const char *const *argv, const br_proc_opts *o) {
    static const br_proc_opts none = {0};
    if (!o)
        o = &none;
    char *exe = br_proc_find(argv[0]);
    if (!exe) {
        char why[BR_ERROR_MAX];
        snprintf(why, sizeof why, "%s", br_error_get());
        return br_error_set("cannot run %s", why);
    }
    int fd = -1, rc = -1;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    if (o->output) {
        fd = open(o->output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (fd < 0) {
            br_error_set("cannot create %s: %s", o->output, strerror(errno));
            goto done;
        }
        posix_spawn_file_actions_adddup2(&fa, fd, 1);
        posix_spawn_file_actions_adddup2(&fa, fd, 2);
    }
    if (o->null_stdin)
        posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    int e = posix_spawn(out, exe, &fa, NULL, (char *const *)argv, environ);
    if (e != 0) {
        br_error_set("cannot run %s: %s", argv[0], strerror(e));
        goto done;
    }
    rc = 0;
done:
    posix_spawn_file_actions_destroy(&fa);
    if (fd >= 0)
        close(fd);
    free(exe);
    return rc;
}

/* Reap whichever of pids[0..n) has ended, without blocking. Returns 1
 * (*which, *status set), 0 when none has, -1 with the error set. */
static int reap_any(size_t *which, int *status, const pid_t *pids, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (pids[i] <= 0)
            continue;
        pid_t r;
        while ((r = waitpid(pids[i], status, WNOHANG)) < 0 && errno == EINTR)
            ;
        if (r < 0)
            return br_error_set("cannot wait for process %ld: %s", (long)pids[i], strerror(errno));
        if (r == pids[i]) {
            *which = i;
            return 1;
        }
    }
    return 0;
}

/* A pidfd for each process waited for (pids[i] > 0) into fds. Returns how
 * many were opened, or -1 (none left open) when pidfd_open(2) is not there
 * or more than MAX_PIDFDS processes are waited for. */
static int open_pidfds(struct pollfd *fds, const pid_t *pids, size_t n) {
#ifdef SYS_pidfd_open
    int k = 0;
    for (size_t i = 0; i < n; i++) {
        if (pids[i] <= 0)
            continue;
        int fd = k < MAX_PIDFDS ? (int)syscall(SYS_pidfd_open, pids[i], 0) : -1;
        if (fd < 0) {
            while (k > 0)
                close(fds[--k].fd);
            return -1;
        }
        fds[k++] = (struct pollfd){.fd = fd, .events = POLLIN};
    }
    return k;
#else
    (void)fds;
    (void)pids;
    (void)n;
    return -1;
#endif
}

int br_proc_wait_any(size_t *which, int *status, const pid_t *pids, size_t n, double timeout_ns) {
    size_t waited = 0;
    for (size_t i = 0; i < n; i++)
        waited += pids[i] > 0;
    if (waited == 0)
        return 0;
    int r = reap_any(which, status, pids, n);
    if (r != 0 || timeout_ns == 0)
        return r;
    double deadline = timeout_ns < 0 ? INFINITY : br_now_ns() + timeout_ns;
    struct pollfd fds[MAX_PIDFDS];
    int polled = open_pidfds(fds, pids, n);
    for (;;) {
        double left = deadline - br_now_ns();
        if (left <= 0) {
            r = 0;
            break;
        }
        /* Poll a whole second at most, so a deadline far off stays exact. */
        int ms = isinf(left) ? 1000 : (int)fmin(ceil(left / 1e6), 1000.0);
        if (polled > 0) {
            if (poll(fds, (nfds_t)polled, ms) < 0 && errno != EINTR) {
                r = br_error_set("cannot wait for a process: %s", strerror(errno));
                break;
            }
        } else {
            struct timespec ts = {0, (long)fmin(ms, 10) * 1000000L};
            nanosleep(&ts, NULL);
        }
        if ((r = reap_any(which, status, pids, n)) != 0)
            break;
    }
    for (int i = 0; i < polled; i++)
        close(fds[i].fd);
    return r;
}

int br_proc_wait(int *status, pid_t pid) {
    while (waitpid(pid, status, 0) < 0)
        if (errno != EINTR)
            return br_error_set("cannot wait for process %ld: %s", (long)pid, strerror(errno));
    return 0;
}

int br_proc_exit_code(int status) {
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

int br_proc_run(int *status, const char *const *argv, const br_proc_opts *o) {
    pid_t pid;
    if (br_proc_spawn(&pid, argv, o) != 0)
        return -1;
    return br_proc_wait(status, pid);
}

/* Read fd to its end into a NUL-terminated buffer (at most max bytes kept;
 * the rest is read and dropped so the writer never blocks). */
static char *read_pipe(int fd, size_t max) {
    size_t len = 0, cap = 4096;
    char *buf = malloc(cap);
    char sink[4096];
    while (buf) {
        if (len + 1 >= cap && len < max) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                return NULL;
            }
            buf = nb;
            cap *= 2;
        }
        size_t room = len < max ? cap - len - 1 : 0;
        if (room > max - len)
            room = max - len;
        ssize_t n = room ? read(fd, buf + len, room) : read(fd, sink, sizeof sink);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        if (room)
            len += (size_t)n;
    }
    if (buf)
        buf[len] = '\0';
    return buf;
}

int br_proc_capture(char **out, int *status, const char *const *argv, size_t max_bytes) {
    *out = NULL;
    int p[2];
    if (pipe(p) != 0)
        return br_error_set("cannot run %s: %s", argv[0], strerror(errno));
    fcntl(p[0], F_SETFD, FD_CLOEXEC);
    fcntl(p[1], F_SETFD, FD_CLOEXEC);
    char *exe = br_proc_find(argv[0]);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, p[1], 1);
    posix_spawn_file_actions_adddup2(&fa, p[1], 2);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    pid_t pid = 0;
    int e = exe ? posix_spawn(&pid, exe, &fa, NULL, (char *const *)argv, environ) : -1;
    posix_spawn_file_actions_destroy(&fa);
    close(p[1]);
    int rc = -1;
    if (!exe)
        br_error_prefix("cannot run ");
    else if (e != 0)
        br_error_set("cannot run %s: %s", argv[0], strerror(e));
    else {
        *out = read_pipe(p[0], max_bytes);
        rc = br_proc_wait(status, pid);
        if (rc == 0 && !*out)
            rc = br_error_nomem();
    }
    close(p[0]);
    free(exe);
    return rc;
}
