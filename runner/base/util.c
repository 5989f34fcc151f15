/* SPDX-License-Identifier: Apache-2.0 */
#define _GNU_SOURCE /* sigabbrev_np */
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <git2.h>

#include "error.h"
#include "gitlib.h"

double br_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

char *br_strdup(const char *s) {
    if (!s)
        return NULL;
    char *d = strdup(s);
    if (!d)
        br_error_nomem();
    return d;
}

char *br_strfmt(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        br_error_set("bad format string");
        return NULL;
    }
    char *s = malloc((size_t)n + 1);
    if (!s) {
        br_error_nomem();
        return NULL;
    }
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

char *br_path_join(const char *dir, const char *name) {
    if (name[0] == '/' || !dir || !dir[0])
        return br_strdup(name);
    size_t dl = strlen(dir);
    return br_strfmt("%s%s%s", dir, dir[dl - 1] == '/' ? "" : "/", name);
}

char *br_path_dir(const char *path) {
    const char *slash = strrchr(path, '/');
    if (!slash)
        return br_strdup(".");
    if (slash == path)
        return br_strdup("/");
    char *d = strndup(path, (size_t)(slash - path));
    if (!d)
        br_error_nomem();
    return d;
}

char *br_exe_path(void) {
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        br_error_set("/proc/self/exe: cannot read the link: %s", strerror(errno));
        return NULL;
    }
    if ((size_t)n >= sizeof exe - 1) {
        br_error_set("/proc/self/exe: path longer than %d bytes", PATH_MAX - 2);
        return NULL;
    }
    exe[n] = '\0';
    return br_strdup(exe);
}

char *br_exe_dir(void) {
    char *exe = br_exe_path();
    if (!exe)
        return NULL;
    char *dir = br_path_dir(exe);
    free(exe);
    return dir;
}

int br_has_suffix(const char *s, const char *suffix) {
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

char *br_path_normalize(const char *path) {
    size_t len = strlen(path);
    char *out = malloc(len + 2);
    char **parts = calloc(len / 2 + 2, sizeof *parts);
    char *copy = br_strdup(path);
    if (!out || !parts || !copy) {
        free(out);
        free(parts);
        free(copy);
        br_error_nomem();
        return NULL;
    }
    int absolute = path[0] == '/';
    size_t n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(copy, "/", &save); tok; tok = strtok_r(NULL, "/", &save)) {
        if (strcmp(tok, ".") == 0)
            continue;
        if (strcmp(tok, "..") == 0 && n > 0 && strcmp(parts[n - 1], "..") != 0) {
            n--;
            continue;
        }
        if (strcmp(tok, "..") == 0 && absolute)
            continue; /* "/.." is "/" */
        parts[n++] = tok;
    }
    char *w = out;
    if (absolute)
        *w++ = '/';
    for (size_t i = 0; i < n; i++) {
        size_t l = strlen(parts[i]);
        if (i)
            *w++ = '/';
        memcpy(w, parts[i], l);
        w += l;
    }
    if (w == out)
        *w++ = '.';
    *w = '\0';
    free(parts);
    free(copy);
    return out;
}

int br_mkdir_p(const char *path) {
    if (!path || !path[0])
        return br_error_set("cannot create a directory with an empty name");
    char *p = br_strdup(path);
    if (!p)
        return -1;
    int rc = 0;
    for (char *s = p + 1;; s++) {
        if (*s == '/' || *s == '\0') {
            char c = *s;
            *s = '\0';
            if (mkdir(p, 0777) != 0 && errno != EEXIST) {
                rc = br_error_set("cannot create directory %s: %s", p, strerror(errno));
                break;
            }
            *s = c;
            if (c == '\0')
                break;
        }
    }
    free(p);
    return rc;
}

int br_hash_blob(char out[41], const void *data, size_t len) {
    git_oid oid;
    if (br_gitlib_init() != 0)
        return -1;
    int rc = git_odb_hash(&oid, data, len, GIT_OBJECT_BLOB);
    if (rc == 0)
        git_oid_tostr(out, 41, &oid);
    else
        br_error_set("cannot hash %zu bytes: %s", len,
                     git_error_last() ? git_error_last()->message : "libgit2 error");
    return rc == 0 ? 0 : -1;
}

void br_signal_name(char *buf, size_t len, int sig) {
    const char *abbrev = sigabbrev_np(sig);
    if (len)
        snprintf(buf, len, "SIG%s", abbrev ? abbrev : "?");
}

void br_format_duration(char *buf, size_t len, double ns) {
    if (!len)
        return;
    static const struct {
        double ns;
        const char *unit;
    } units[] = {{60e9, "min"}, {1e9, "s"}, {1e6, "ms"}, {1e3, "us"}, {1, "ns"}};
    if (!(ns >= 0) || !isfinite(ns)) {
        snprintf(buf, len, "?");
        return;
    }
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (ns >= units[i].ns || i == sizeof units / sizeof units[0] - 1) {
            double v = ns / units[i].ns;
            snprintf(buf, len, v >= 100 || v == (double)(long long)v ? "%.0f %s" : "%.3g %s", v,
                     units[i].unit);
            return;
        }
    }
}

void br_format_clock(char *buf, size_t len, double ns) {
    if (!len)
        return;
    long long s = !(ns > 0) || !isfinite(ns) ? 0 : (long long)(ns / 1e9 + 0.5);
    if (s >= 3600)
        snprintf(buf, len, "%lldh%02lldm", s / 3600, s / 60 % 60);
    else if (s >= 60)
        snprintf(buf, len, "%lldm%02llds", s / 60, s % 60);
    else
        snprintf(buf, len, "%llds", s);
}

/* The host's physical memory, bytes; INFINITY when it cannot be read. */
double br_host_memory(void) {
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (double)pages * (double)page : INFINITY;
}

/* Bytes for a message in decimal units: "512 B", "4.29 GB", "4.5 PB". */
void br_format_bytes(char *buf, size_t len, double bytes) {
    static const char *const units[] = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
    size_t u = 0;
    while (bytes >= 1000 && u + 1 < sizeof units / sizeof *units) {
        bytes /= 1000;
        u++;
    }
    snprintf(buf, len, u ? "%.3g %s" : "%.0f %s", bytes, units[u]);
}

int br_glob_any(const char *name, const char *const *patterns, size_t n_patterns) {
    if (n_patterns == 0)
        return 1;
    for (size_t i = 0; i < n_patterns; i++)
        if (patterns[i] && name && fnmatch(patterns[i], name, 0) == 0)
            return 1;
    return 0;
}
