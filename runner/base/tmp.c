/* SPDX-License-Identifier: Apache-2.0 */
/* Temporary names unique across hosts and containers, and the sweep
 * that removes only the provably dead (tmp.h). */
#define _GNU_SOURCE /* F_OFD_SETLK, F_OFD_GETLK */
#include "tmp.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "log.h"

/* Most bytes of the output's name kept in its temporary name. */
#define TMP_NAME_MAX 64
/* The lock file inside a temporary folder. */
#define DIR_LOCK ".lock"

/* ---- who we are --------------------------------------------------------------------- */

static uint64_t fnv1a(const char *s) {
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

/* The host field: 'b' and the first 16 hex digits of the boot id, else 'h'
 * and the host name's hash. */
static void host_id(char out[18]) {
    char line[64] = "", hex[17];
    size_t k = 0;
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    if (f) {
        if (!fgets(line, sizeof line, f))
            line[0] = '\0';
        fclose(f);
    }
    for (const char *p = line; *p && k < 16; p++)
        if ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'))
            hex[k++] = *p;
    hex[k] = '\0';
    if (k == 16) {
        snprintf(out, 18, "b%s", hex);
        return;
    }
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    snprintf(out, 18, "h%016llx", (unsigned long long)fnv1a(host));
}

const br_tmp_owner *br_tmp_self(void) {
    static br_tmp_owner self;
    static long for_pid;
    if (for_pid != (long)getpid()) { /* again after a fork */
        host_id(self.host);
        struct stat st;
        self.ns = stat("/proc/self/ns/pid", &st) == 0 ? (unsigned long long)st.st_ino : 0;
        self.pid = for_pid = (long)getpid();
    }
    return &self;
}

/* 64 random bits (getrandom(2); the clock and a counter where it fails). */
static uint64_t random64(void) {
    static uint64_t counter;
    uint64_t r;
    if (getrandom(&r, sizeof r, GRND_NONBLOCK) == (ssize_t)sizeof r)
        return r;
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return ((uint64_t)t.tv_nsec << 20) ^ (uint64_t)t.tv_sec ^
           (++counter * UINT64_C(0x9e3779b97f4a7c15)) ^ (uint64_t)getpid();
}

/* ---- names ---------------------------------------------------------------------------- */

int br_tmp_name(char *buf, size_t len, const char *path, const char *suffix) {
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0;
    size_t keep = strlen(base);
    if (keep > TMP_NAME_MAX) {
        keep = TMP_NAME_MAX;
        while (keep > 0 && ((unsigned char)base[keep] & 0xC0) == 0x80)
            keep--; /* cut at a character boundary */
    }
    const br_tmp_owner *me = br_tmp_self();
    int n = snprintf(buf, len, "%.*s.%.*s" BR_TMP_TAG "%s.%llu.%ld.%016llx%s", (int)dir_len, path,
                     (int)keep, base, me->host, me->ns, me->pid, (unsigned long long)random64(),
                     suffix ? suffix : "");
    return n < 0 || (size_t)n >= len ? br_error_set("cannot write %s: the name is too long", path)
                                     : 0;
}

/* Lock fd's first byte for writing (an open file description lock: it
 * stays with this descriptor, whatever else the process opens and closes). */
static void lock_fd(int fd) {
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 1};
    if (fcntl(fd, F_OFD_SETLK, &fl) != 0) {
        fl.l_pid = 0;
        fcntl(fd, F_SETLK, &fl); /* a kernel without OFD locks: the process's lock */
    }
}

int br_tmp_create(char *buf, size_t len, const char *path, const char *suffix) {
    for (int attempt = 0; attempt < 16; attempt++) {
        if (br_tmp_name(buf, len, path, suffix) != 0)
            return -1;
        int fd = open(buf, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd >= 0) {
            lock_fd(fd);
            return fd;
        }
        if (errno != EEXIST)
            return br_error_set("cannot create %s: %s", buf, strerror(errno));
    }
    return br_error_set("cannot create %s: a new name was taken 16 times", buf);
}

int br_tmp_mkdir(char *buf, size_t len, const char *path) {
    for (int attempt = 0; attempt < 16; attempt++) {
        if (br_tmp_name(buf, len, path, NULL) != 0)
            return -1;
        if (mkdir(buf, 0755) != 0) {
            if (errno == EEXIST)
                continue;
            return br_error_set("cannot create %s: %s", buf, strerror(errno));
        }
        int dfd = open(buf, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        int fd = dfd < 0 ? -1
                         : openat(dfd, DIR_LOCK, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                                  0600);
        if (dfd >= 0)
            close(dfd);
        if (fd < 0) {
            br_error_set("cannot create %s/" DIR_LOCK ": %s", buf, strerror(errno));
            rmdir(buf);
            return -1;
        }
        lock_fd(fd);
        return fd;
    }
    return br_error_set("cannot create %s: a new name was taken 16 times", buf);
}

/* Parse an unsigned decimal field ending at `stop` (or the string's end
 * when stop is 0); *p moves past it. Returns 0, -1 when there is none. */
static int field_num(unsigned long long *out, const char **p, char stop) {
    char *end;
    if (**p < '0' || **p > '9')
        return -1;
    errno = 0;
    *out = strtoull(*p, &end, 10);
    if (errno || *end != stop)
        return -1;
    *p = stop ? end + 1 : end;
    return 0;
}

/* The older form's tail "PID.XXXXXX" (6 letters or digits). */
static int parse_old(br_tmp_owner *out, const char *p) {
    unsigned long long pid;
    if (field_num(&pid, &p, '.') != 0 || pid == 0)
        return 0;
    size_t k = 0;
    for (; p[k]; k++)
        if (!((p[k] >= 'a' && p[k] <= 'z') || (p[k] >= 'A' && p[k] <= 'Z') ||
              (p[k] >= '0' && p[k] <= '9')))
            return 0;
    memset(out, 0, sizeof *out);
    return k == 6;
}

int br_tmp_parse(br_tmp_owner *out, const char *name) {
    if (name[0] != '.')
        return 0;
    const char *tag = NULL;
    for (const char *p = strstr(name, BR_TMP_TAG); p; p = strstr(p + 1, BR_TMP_TAG))
        tag = p;
    if (!tag || tag == name)
        return 0;
    const char *p = tag + strlen(BR_TMP_TAG);
    if (*p != 'b' && *p != 'h')
        return parse_old(out, p);
    br_tmp_owner o = {0};
    size_t k = 1;
    for (; k < 17 && ((p[k] >= '0' && p[k] <= '9') || (p[k] >= 'a' && p[k] <= 'f')); k++)
        ;
    if (k != 17 || p[17] != '.')
        return 0;
    memcpy(o.host, p, 17);
    p += 18;
    unsigned long long ns, pid;
    if (field_num(&ns, &p, '.') != 0 || field_num(&pid, &p, '.') != 0 || pid == 0 || pid > LONG_MAX)
        return 0;
    for (k = 0; k < 16; k++)
        if (!((p[k] >= '0' && p[k] <= '9') || (p[k] >= 'a' && p[k] <= 'f')))
            return 0;
    if (p[16] && p[16] != '.')
        return 0; /* a suffix starts with '.' */
    o.ns = ns;
    o.pid = (long)pid;
    *out = o;
    return 1;
}

/* ---- the sweep -------------------------------------------------------------------------- */

/* Whether the entry `name` of dfd (its lock file, for a folder) is locked:
 * 1 locked, 0 not, -1 cannot tell. */
static int is_locked(int dfd, const char *name, int is_dir) {
    int fd;
    if (is_dir) {
        int sub = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub < 0)
            return -1;
        fd = openat(sub, DIR_LOCK, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        close(sub);
        if (fd < 0)
            return errno == ENOENT ? 0 : -1; /* a folder of the older form has none */
    } else if ((fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)) < 0)
        return -1;
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 1};
    int rc = fcntl(fd, F_OFD_GETLK, &fl);
    if (rc != 0 && errno == EINVAL) {
        fl = (struct flock){.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 1};
        rc = fcntl(fd, F_GETLK, &fl);
    }
    close(fd);
    return rc != 0 ? -1 : fl.l_type != F_UNLCK;
}

/* Which rule proves the entry dead: its name, or NULL when none does. */
static const char *dead_rule(int dfd, const char *name, const struct stat *st) {
    br_tmp_owner o;
    if (!br_tmp_parse(&o, name) || st->st_uid != geteuid())
        return NULL;
    const br_tmp_owner *me = br_tmp_self();
    int ours = o.host[0] == 'b' && strcmp(o.host, me->host) == 0 && o.ns != 0 && o.ns == me->ns;
    int gone = ours && o.pid != me->pid && kill((pid_t)o.pid, 0) != 0 && errno == ESRCH;
    int old = time(NULL) - st->st_mtime > BR_TMP_STALE_S;
    if (!gone && !old)
        return NULL;
    if (is_locked(dfd, name, S_ISDIR(st->st_mode)) != 0)
        return NULL;
    return gone ? "ours, process gone" : "stale: older than a day and not locked";
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st;
    (void)ftw;
    return flag == FTW_DP ? rmdir(path) : unlink(path);
}

int br_tmp_sweep(const char *dir) {
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int removed = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        struct stat st;
        if (e->d_name[0] != '.' || !strstr(e->d_name, BR_TMP_TAG) ||
            fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
            !(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)))
            continue;
        const char *rule = dead_rule(dirfd(d), e->d_name, &st);
        if (!rule)
            continue;
        int gone;
        if (S_ISDIR(st.st_mode)) {
            char path[PATH_MAX];
            int n = snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            gone = n > 0 && (size_t)n < sizeof path &&
                   nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS) == 0;
        } else
            gone = unlinkat(dirfd(d), e->d_name, 0) == 0;
        if (!gone)
            continue;
        removed++;
        if (br_log_verbose())
            br_log(BR_LOG_NOTE, "benchrun: removed %s/%s (%s)\n", dir, e->d_name, rule);
    }
    closedir(d);
    return removed;
}
