/* SPDX-License-Identifier: Apache-2.0 */
/* Bounded reads and outputs that replace only what they may
 * (files.h). */
#include "files.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "log.h"
#include "tmp.h"
#include "stop.h"

/* What a file that is not regular is, for a message. */
static const char *type_name(mode_t m) {
    if (S_ISDIR(m))
        return "a directory";
    if (S_ISFIFO(m))
        return "a FIFO";
    if (S_ISCHR(m))
        return "a character device";
    if (S_ISBLK(m))
        return "a block device";
    if (S_ISSOCK(m))
        return "a socket";
    return "not a regular file";
}

/* ---- reading ---------------------------------------------------------------------------- */

/* Read fd (a regular file of st_size bytes) to its end, at most max_bytes:
 * the buffer starts at the file's size and grows only for a file that grows
 * (or one, like those of /proc, that gives no size), to max_bytes + 1 at most:
 * a byte past the limit tells "larger". */
static int read_all(char **out, size_t *out_len, int fd, off_t st_size, const char *path,
                    size_t max_bytes) {
    size_t most = max_bytes < SIZE_MAX - 2 ? max_bytes + 2 : SIZE_MAX;
    size_t cap = (size_t)st_size + 2 > 4096 ? (size_t)st_size + 2 : 4096;
    if (cap > most)
        cap = most;
    size_t len = 0;
    char *buf = malloc(cap);
    if (!buf)
        return br_error_set("%s: out of memory reading it", path);
    for (;;) {
        if (len + 1 >= cap) {
            size_t want = cap > most / 2 ? most : cap * 2;
            char *nb = realloc(buf, want);
            if (!nb) {
                free(buf);
                return br_error_set("%s: out of memory reading it", path);
            }
            buf = nb;
            cap = want;
        }
        ssize_t n = read(fd, buf + len, cap - len - 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            free(buf);
            return br_error_set("%s: cannot read: %s", path, strerror(errno));
        }
        if (n == 0)
            break;
        len += (size_t)n;
        if (len > max_bytes) {
            free(buf);
            return br_error_set("%s: file is larger than the limit of %zu bytes", path, max_bytes);
        }
    }
    buf[len] = '\0';
    *out = buf;
    if (out_len)
        *out_len = len;
    return 0;
}

int br_read_file(char **out, size_t *out_len, const char *path, size_t max_bytes) {
    *out = NULL;
    if (out_len)
        *out_len = 0;
    /* O_NONBLOCK: opening a FIFO that has no writer returns at once. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return br_error_set("%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    int rc = -1;
    if (fstat(fd, &st) != 0)
        br_error_set("%s: cannot read: %s", path, strerror(errno));
    else if (S_ISDIR(st.st_mode))
        br_error_set("%s: cannot read: is a directory", path);
    else if (!S_ISREG(st.st_mode))
        br_error_set("%s: cannot read: %s, not a regular file", path, type_name(st.st_mode));
    else if (st.st_size < 0 || (unsigned long long)st.st_size > max_bytes)
        br_error_set("%s: file is larger than the limit of %zu bytes", path, max_bytes);
    else if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0)
        br_error_set("%s: cannot read: %s", path, strerror(errno));
    else
        rc = read_all(out, out_len, fd, st.st_size, path, max_bytes);
    close(fd);
    return rc;
}

/* ---- where an output goes ----------------------------------------------------------- */

/* 1 when st is the file descriptor fd's file. */
static int same_as_fd(const struct stat *st, int fd) {
    struct stat fs;
    return fstat(fd, &fs) == 0 && fs.st_dev == st->st_dev && fs.st_ino == st->st_ino;
}

int br_output_kind(br_target_kind *out_kind, const char *path) {
    *out_kind = BR_TARGET_FILE;
    if (strcmp(path, "-") == 0) {
        *out_kind = BR_TARGET_STDOUT;
        return 0;
    }
    if (!path[0])
        return br_error_set("an empty file name");
    struct stat lst, st;
    if (lstat(path, &lst) != 0) {
        if (errno == ENOENT)
            return 0; /* a new file */
        return br_error_set("%s: %s", path, strerror(errno));
    }
    if (stat(path, &st) != 0) {
        if (S_ISLNK(lst.st_mode) && errno == ENOENT) {
            char to[PATH_MAX];
            ssize_t n = readlink(path, to, sizeof to - 1);
            to[n > 0 ? n : 0] = '\0';
            return br_error_set("%s: is a symbolic link to %s, which does not exist; give the "
                                "path of the file to write",
                                path, to);
        }
        return br_error_set("%s: %s", path, strerror(errno));
    }
    if (same_as_fd(&st, STDOUT_FILENO))
        *out_kind = BR_TARGET_STDOUT;
    else if (same_as_fd(&st, STDERR_FILENO))
        *out_kind = BR_TARGET_STDERR;
    else if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode))
        *out_kind = BR_TARGET_STREAM;
    else if (S_ISDIR(st.st_mode))
        return br_error_set("%s: is a directory", path);
    else if (!S_ISREG(st.st_mode))
        return br_error_set("%s: is %s; benchrun writes only to regular files, FIFOs and "
                            "character devices",
                            path, type_name(st.st_mode));
    return 0;
}

int br_path_is_stdout(const char *path) {
    br_target_kind k;
    if (!path)
        return 0;
    int rc = br_output_kind(&k, path) == 0 && k == BR_TARGET_STDOUT;
    br_error_clear();
    return rc;
}

/* The directory part of `path` into buf ("." when none). */
static int dir_of(char *buf, size_t len, const char *path) {
    const char *slash = strrchr(path, '/');
    int n = !slash          ? snprintf(buf, len, ".")
            : slash == path ? snprintf(buf, len, "/")
                            : snprintf(buf, len, "%.*s", (int)(slash - path), path);
    return n < 0 || (size_t)n >= len ? br_error_set("%s: the name is too long", path) : 0;
}

/* ---- writing ---------------------------------------------------------------------------- */

/* The temporary file of the write in progress, for br_write_atomic_abandon;
 * tmp_active is 1 while it may exist. */
static char tmp_path[PATH_MAX];
static volatile sig_atomic_t tmp_active;

void br_write_atomic_abandon(void) {
    if (tmp_active)
        unlink(tmp_path);
}

static void fsync_dir(const char *dir) {
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd); /* best effort: some file systems refuse fsync on directories */
        close(fd);
    }
}

/* Write to the stream f (standard output or error) and flush it. */
static int write_stdio(FILE *f, const char *path, int (*write)(FILE *f, void *ctx), void *ctx) {
    if (write(f, ctx) != 0)
        return -1;
    if (fflush(f) != 0 || ferror(f))
        return br_error_set("cannot write %s: %s", strcmp(path, "-") ? path : "standard output",
                            strerror(errno));
    return 0;
}

/* How long an output that is a FIFO waits for its reader, s. */
#define FIFO_WAIT_S 10

/* Open the FIFO or character device at path for writing without blocking:
 * a FIFO with no reader (ENXIO) is tried again every 20 ms, saying so after
 * a second, until FIFO_WAIT_S or a stop signal. Returns the descriptor
 * (non-blocking), or -1 with the error set. */
static int open_stream(const char *path) {
    struct timespec t0, now, ts = {0, 20 * 1000 * 1000};
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int said = 0;
    for (;;) {
        int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
        if (fd >= 0)
            return fd;
        if (errno != ENXIO)
            return br_error_set("cannot open %s: %s", path, strerror(errno));
        clock_gettime(CLOCK_MONOTONIC, &now);
        double waited = (double)(now.tv_sec - t0.tv_sec) + (now.tv_nsec - t0.tv_nsec) / 1e9;
        if (br_stop_signal()) {
            br_error_set("%s: a FIFO with no reader; stopped while waiting for one", path);
            br_error_set_kind(BR_E_INTERRUPTED);
            return -1;
        }
        if (waited >= FIFO_WAIT_S)
            return br_error_set("%s: a FIFO with no reader: none came in %d s (start the reader, "
                                "such as 'cat %s', before benchrun writes, or give a file)",
                                path, FIFO_WAIT_S, path);
        if (!said && waited >= 1) {
            br_log(BR_LOG_NOTE, "benchrun: waiting for a reader of %s (a FIFO)\n", path);
            said = 1;
        }
        nanosleep(&ts, NULL);
    }
}

/* Write buf[0..len) to the non-blocking fd: waiting in poll(2) while the
 * reader is slow; a stop signal while it does not read (no progress in a
 * second) ends the write. Returns 0, or -1 with the error set. */
static int push_all(int fd, const char *buf, size_t len, const char *path) {
    size_t done = 0;
    int idle_ms = 0;
    while (done < len) {
        ssize_t n = write(fd, buf + done, len - done);
        if (n > 0) {
            done += (size_t)n;
            idle_ms = 0;
            continue;
        }
        if (n < 0 && errno != EAGAIN && errno != EINTR)
            return br_error_set("cannot write %s: %s", path, strerror(errno));
        if (br_stop_signal() && idle_ms >= 1000) {
            br_error_set("%s: its reader stopped reading; stopped", path);
            br_error_set_kind(BR_E_INTERRUPTED);
            return -1;
        }
        struct pollfd p = {fd, POLLOUT, 0};
        poll(&p, 1, 100);
        idle_ms += 100;
    }
    return 0;
}

/* Write in place to the FIFO or character device at path: the output is
 * made in memory, then written to the device or FIFO opened without
 * blocking (open_stream), so a FIFO without a reader is an error, not a
 * hang, and SIGTERM ends the wait. */
static int write_stream(const char *path, int (*write)(FILE *f, void *ctx), void *ctx) {
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem)
        return br_error_nomem();
    int rc = write(mem, ctx);
    if (fclose(mem) != 0 && rc == 0)
        rc = br_error_nomem();
    int fd = rc == 0 ? open_stream(path) : -1;
    if (fd < 0)
        rc = -1;
    else {
        rc = push_all(fd, buf, len, path);
        if (close(fd) != 0 && rc == 0)
            rc = br_error_set("cannot write %s: %s", path, strerror(errno));
    }
    free(buf);
    return rc;
}

int br_output_resolve(char *real, size_t len, const char *path) {
    struct stat lst;
    const char *to = path;
    char *resolved = NULL;
    if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
        if (!(resolved = realpath(path, NULL)))
            return br_error_set("cannot resolve %s: %s", path, strerror(errno));
        to = resolved;
    }
    int n = snprintf(real, len, "%s", to);
    free(resolved);
    return n < 0 || (size_t)n >= len ? br_error_set("cannot write %s: the name is too long", path)
                                     : 0;
}

/* Flush, fsync and close f (the temporary file); 0 or -1 (error set). */
static int finish_tmp(FILE *f, const char *path) {
    int rc = 0;
    if (fflush(f) != 0 || ferror(f) || fsync(fileno(f)) != 0)
        rc = br_error_set("cannot write %s: %s", path, strerror(errno));
    if (fclose(f) != 0 && rc == 0)
        rc = br_error_set("cannot write %s: %s", path, strerror(errno));
    return rc;
}

/* The temporary file, then rename (replace 1) or link (replace 0: 1 when
 * the target exists) over `target`. */
static int write_via_tmp(const char *target, const char *path, int (*write)(FILE *f, void *ctx),
                         void *ctx, int replace) {
    char dir[PATH_MAX], tmp[PATH_MAX];
    if (dir_of(dir, sizeof dir, target) != 0)
        return -1;
    br_tmp_sweep(dir);
    /* The name is made where br_write_atomic_abandon reads it, so a signal
     * at any point finds the file it may have created. */
    tmp_active = 1;
    int fd = br_tmp_create(tmp_path, sizeof tmp_path, target, NULL);
    if (fd < 0) {
        tmp_active = 0;
        return -1;
    }
    memcpy(tmp, tmp_path, strlen(tmp_path) + 1);
    int rc = -1;
    fchmod(fd, 0644);
    FILE *f = fdopen(fd, "w");
    if (!f) {
        br_error_set("cannot open %s: %s", tmp, strerror(errno));
        close(fd);
        goto done;
    }
    int wrc = write(f, ctx);
    if (finish_tmp(f, path) != 0 || wrc != 0)
        goto done; /* the writer's own error stays when it failed first */
    if (replace ? rename(tmp, target) != 0 : link(tmp, target) != 0) {
        if (!replace && errno == EEXIST) {
            br_error_set("%s exists", path);
            br_error_set_kind(BR_E_EXISTS);
            rc = 1;
        } else
            br_error_set("cannot %s %s to %s: %s", replace ? "rename" : "link", tmp, target,
                         strerror(errno));
        goto done;
    }
    fsync_dir(dir);
    rc = 0;
done:
    if (rc != 0 || !replace)
        unlink(tmp);
    tmp_active = 0;
    return rc;
}

int br_write_atomic(const char *path, int (*write)(FILE *f, void *ctx), void *ctx) {
    br_target_kind kind;
    if (br_output_kind(&kind, path) != 0)
        return -1;
    switch (kind) {
    case BR_TARGET_STDOUT:
        return write_stdio(stdout, path, write, ctx);
    case BR_TARGET_STDERR:
        return write_stdio(stderr, path, write, ctx);
    case BR_TARGET_STREAM:
        return write_stream(path, write, ctx);
    case BR_TARGET_FILE:
        break;
    }
    char real[PATH_MAX];
    if (br_output_resolve(real, sizeof real, path) != 0)
        return -1;
    return write_via_tmp(real, path, write, ctx, 1);
}

int br_write_new(const char *path, int (*write)(FILE *f, void *ctx), void *ctx) {
    if (strcmp(path, "-") == 0)
        return write_stdio(stdout, path, write, ctx);
    return write_via_tmp(path, path, write, ctx, 0);
}
