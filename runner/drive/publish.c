/* SPDX-License-Identifier: Apache-2.0 */
/* `benchrun publish` (publish.h): load, write the site into a
 * temporary directory, swap it in. */
#define _GNU_SOURCE /* renameat2 */
#include "publish.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/error.h"
#include "base/log.h"
#include "base/tmp.h"
#include "base/util.h"
#include "history/history.h"
#include "reporters/gnuplot.h"

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb;
    (void)ftw;
    return flag == FTW_DP ? rmdir(path) : unlink(path);
}

/* Remove the tree at path (one that publish made). */
static void remove_tree(const char *path) {
    nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* 0 when `site` may be (re)placed: missing, an empty directory, or a site
 * publish wrote; 1 when it exists; -1 with the error set when it may not. */
static int check_site(const char *site) {
    struct stat sb;
    if (lstat(site, &sb) != 0)
        return errno == ENOENT ? 0 : br_error_set("%s: %s", site, strerror(errno));
    if (!S_ISDIR(sb.st_mode))
        return br_error_set("%s: exists and is not a directory: not replaced", site);
    char *marker = br_path_join(site, BR_PUBLISH_MARKER);
    int ours = marker && access(marker, F_OK) == 0;
    free(marker);
    if (ours)
        return 1;
    DIR *d = opendir(site);
    if (!d)
        return br_error_set("%s: %s", site, strerror(errno));
    struct dirent *e;
    int empty = 1;
    while (empty && (e = readdir(d)))
        empty = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
    closedir(d);
    if (!empty)
        return br_error_set("%s: exists and is not a site benchrun publish wrote (no %s in it): "
                            "not replaced; choose another directory or remove it",
                            site, BR_PUBLISH_MARKER);
    return 1;
}

static int write_marker(const char *dir) {
    char *p = br_path_join(dir, BR_PUBLISH_MARKER);
    FILE *f = p ? fopen(p, "w") : NULL;
    int rc =
        f && fputs("a site written by benchrun publish; publish replaces this directory\n", f) >= 0
            ? 0
            : -1;
    if (f && fclose(f) != 0)
        rc = -1;
    if (rc != 0)
        br_error_set("%s: cannot write: %s", p ? p : dir, strerror(errno));
    free(p);
    return rc;
}

/* Put tmp in place of site (which exists when `exists`). */
static int swap_in(const char *tmp, const char *site, int exists) {
    if (!exists)
        return rename(tmp, site) == 0
                   ? 0
                   : br_error_set("%s: cannot rename %s to it: %s", site, tmp, strerror(errno));
    if (renameat2(AT_FDCWD, tmp, AT_FDCWD, site, RENAME_EXCHANGE) == 0) {
        remove_tree(tmp); /* now the old site */
        return 0;
    }
    /* A file system without the exchange: the old site aside, then the new in place. */
    char old[PATH_MAX];
    if (br_tmp_name(old, sizeof old, site, ".old") != 0)
        return -1;
    if (rename(site, old) != 0)
        return br_error_set("%s: cannot move the old site aside: %s", site, strerror(errno));
    int rc = rename(tmp, site) == 0 ? 0 : -1;
    if (rc != 0) {
        br_error_set("%s: cannot rename %s to it: %s", site, tmp, strerror(errno));
        rename(old, site);
    } else {
        remove_tree(old);
    }
    return rc;
}

/* Remove the folders "SITE.tmp-XXXXXX" that publish made before its
 * temporary folders had base/tmp names (no owner in the name, no lock):
 * only by the age rule, those of this user older than BR_TMP_STALE_S. */
static void sweep_old_form(const char *site) {
    char *parent = br_path_dir(site);
    const char *slash = strrchr(site, '/'), *base = slash ? slash + 1 : site;
    size_t bl = strlen(base);
    DIR *d = parent ? opendir(parent) : NULL;
    struct dirent *e;
    while (d && (e = readdir(d))) {
        const char *x = e->d_name + bl + 5;
        struct stat sb;
        if (strncmp(e->d_name, base, bl) != 0 || strncmp(e->d_name + bl, ".tmp-", 5) != 0 ||
            strlen(x) != 6 ||
            strspn(x, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") != 6 ||
            fstatat(dirfd(d), e->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(sb.st_mode) ||
            sb.st_uid != geteuid() || time(NULL) - sb.st_mtime <= BR_TMP_STALE_S)
            continue;
        char *path = br_path_join(parent, e->d_name);
        if (path) {
            remove_tree(path);
            if (br_log_verbose())
                br_log(BR_LOG_NOTE, "benchrun: removed %s (stale: older than a day)\n", path);
        }
        free(path);
    }
    if (d)
        closedir(d);
    free(parent);
}

/* The temporary folder the site is written into, beside it (base/tmp.h:
 * its name into tmp[0..len), locked while this process lives), after the
 * dead ones of earlier runs there are removed (base/tmp.h's rules, and the
 * age rule for those of the older form). Returns the lock's descriptor, or
 * -1 with the error set. */
static int make_tmp_site(char *tmp, size_t len, const char *site) {
    char *parent = br_path_dir(site);
    if (parent)
        br_tmp_sweep(parent);
    free(parent);
    sweep_old_form(site);
    int fd = br_tmp_mkdir(tmp, len, site);
    return fd >= 0 ? fd
                   : br_error_prefix("%s: cannot make a temporary directory beside it: ", site);
}

/* --against COMMIT must name a run of the history: a prefix of some run's
 * SHA. Returns 0, or -1 with the error set. */
static int check_against(const br_history *h, const char *against, const char *dir) {
    if (!against)
        return 0;
    size_t n = strlen(against);
    for (size_t i = 0; n > 0 && i < h->n_runs; i++)
        if (strncmp(h->runs[i].run.git.sha, against, n) == 0)
            return 0;
    br_error_set("--against %s: no run in %s is of a commit whose SHA starts with it", against,
                 dir);
    br_error_set_kind(BR_E_INPUT);
    return -1;
}

/* Remove the temporary folder's lock file, so the site does not carry it
 * (its descriptor keeps the lock until the folder is in place). */
static int drop_lock_file(const char *tmp) {
    char *lock = br_path_join(tmp, ".lock");
    int rc = lock && unlink(lock) == 0 ? 0 : br_error_set("%s/.lock: %s", tmp, strerror(errno));
    free(lock);
    return rc;
}

int br_publish(const br_publish_opts *o, FILE *notes, br_site_stats *st) {
    br_history h = {0};
    br_history_filter f = {0};
    f.suite = o->suite;
    f.use_index = 1;
    f.lenient = 1;
    /* SITE/ is SITE: trailing slashes go (the folder is replaced by name). */
    char site[PATH_MAX];
    size_t sl = strlen(o->site);
    while (sl > 1 && o->site[sl - 1] == '/')
        sl--;
    if (sl >= sizeof site)
        return br_error_set("%s: the name is too long", o->site);
    memcpy(site, o->site, sl);
    site[sl] = '\0';
    int exists = check_site(site);
    if (exists < 0)
        return -1;
    if (br_history_load(&h, o->results_dir, &f) != 0 ||
        check_against(&h, o->site_opts.against, o->results_dir) != 0) {
        br_history_dispose(&h);
        return -1;
    }
    for (size_t i = 0; i < h.n_skipped; i++)
        fprintf(notes, "%s (skipped)\n", h.skipped[i]);
    br_site_opts so = o->site_opts;
    so.charts = br_gnuplot_have();
    if (!so.charts)
        fputs("gnuplot is not installed (apt-get install gnuplot-nox): the pages have tables "
              "only\n",
              notes);
    char tmp[PATH_MAX];
    int rc = -1, lock = make_tmp_site(tmp, sizeof tmp, site);
    if (lock < 0) {
        br_history_dispose(&h);
        return -1;
    }
    if (chmod(tmp, 0755) == 0 && br_site_write(tmp, &h, &so, st) == 0 && write_marker(tmp) == 0 &&
        drop_lock_file(tmp) == 0 && swap_in(tmp, site, exists) == 0)
        rc = 0;
    else
        remove_tree(tmp);
    close(lock);
    br_history_dispose(&h);
    return rc;
}
