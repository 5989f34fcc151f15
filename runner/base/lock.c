/* SPDX-License-Identifier: Apache-2.0 */
/* Advisory file locks (lock.h). */
#define _GNU_SOURCE /* F_OFD_SETLK */
#include "lock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "log.h"
#include "util.h"

/* Nanoseconds of CLOCK_MONOTONIC. */
static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* Lock fd whole for writing without waiting: an open file description
 * lock (F_OFD_SETLK, Linux 3.15), else a process's lock (F_SETLK). Returns
 * 0, or -1 with errno (EAGAIN or EACCES: another holds it). */
static int lock_fd(int fd) {
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
    if (fcntl(fd, F_OFD_SETLK, &fl) == 0)
        return 0;
    if (errno != EINVAL)
        return -1;
    fl.l_pid = 0;
    return fcntl(fd, F_SETLK, &fl);
}

/* Open (creating) the lock file `lock`, refusing a link or anything but a
 * regular file. Returns the descriptor, or -1 with the error set. */
static int open_lock(const char *lock) {
    int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
    if (fd < 0)
        return errno == ELOOP
                   ? br_error_set("%s: is a symbolic link: not used as a lock file", lock)
                   : br_error_set("%s: cannot open the lock file: %s", lock, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return br_error_set("%s: is not a regular file: not used as a lock file", lock);
    }
    return fd;
}

int br_lock_take(br_lock *out, const char *path, double timeout_ns, int quiet) {
    out->fd = -1;
    const char *slash = strrchr(path, '/');
    char *lock = slash ? br_strfmt("%.*s/.%s.lock", (int)(slash - path), path, slash + 1)
                       : br_strfmt(".%s.lock", path);
    if (!lock)
        return -1;
    int rc = -1, fd = open_lock(lock);
    if (fd < 0)
        goto done;
    double start = now_ns();
    int said = 0;
    for (;;) {
        if (lock_fd(fd) == 0) {
            out->fd = fd;
            fd = -1;
            rc = 0;
            break;
        }
        if (errno != EAGAIN && errno != EACCES && errno != EINTR) {
            br_error_set("%s: cannot lock: %s", lock, strerror(errno));
            break;
        }
        double waited = now_ns() - start;
        if (waited >= timeout_ns) {
            br_error_set("%s: still locked after %.0f s (another benchrun is writing %s; remove "
                         "the lock file only if no benchrun runs)",
                         lock, waited / 1e9, path);
            br_error_set_kind(BR_E_IO);
            rc = -2;
            break;
        }
        if (!said && !quiet && waited >= BR_LOCK_SAY_AFTER_NS) {
            br_log(BR_LOG_NOTE, "benchrun: waiting for %s (another benchrun is writing %s)\n", lock,
                   path);
            said = 1;
        }
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    if (fd >= 0)
        close(fd);
done:
    free(lock);
    return rc;
}

void br_lock_release(br_lock *l) {
    if (l->fd >= 0) {
        /* Unlocked first: a child forked while it was held shares the open
         * file description, and closing one copy would not release it. */
        struct flock fl = {.l_type = F_UNLCK, .l_whence = SEEK_SET};
        if (fcntl(l->fd, F_OFD_SETLK, &fl) != 0) {
            fl.l_pid = 0;
            fcntl(l->fd, F_SETLK, &fl);
        }
        close(l->fd);
    }
    l->fd = -1;
}
