/* SPDX-License-Identifier: Apache-2.0 */
/* A commit's files in a scratch directory, through libgit2
 * (gittree.h). */
#define _XOPEN_SOURCE 700 /* nftw(3) */
#include "gittree.h"

#include <git2.h>

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/gitlib.h"
#include "base/util.h"

/* Set the error from libgit2's last error, prefixed by `what`. Returns -1. */
static int git_fail(const char *what) {
    const git_error *e = git_error_last();
    return br_error_set("%s: %s", what, e && e->message ? e->message : "unknown libgit2 error");
}

/* ---- removing a tree ---------------------------------------------------------------- */

static const char *rm_root; /* nftw has no context argument: the directory kept */

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st;
    (void)flag;
    (void)ftw;
    if (rm_root && strcmp(path, rm_root) == 0)
        return 0;
    return remove(path) == 0 || errno == ENOENT ? 0 : -1;
}

/* Delete everything under dir, and dir itself unless keep_root. Returns 0,
 * or -1 with the error set. */
static int rm_tree(const char *dir, int keep_root) {
    struct stat st;
    if (lstat(dir, &st) != 0)
        return errno == ENOENT ? 0 : br_error_set("%s: %s", dir, strerror(errno));
    rm_root = keep_root ? dir : NULL;
    int rc = nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    rm_root = NULL;
    return rc == 0 ? 0 : br_error_set("cannot remove %s: %s", dir, strerror(errno));
}

/* ---- the scratch directory ------------------------------------------------------------ */

/* Lock root/name (created when missing) for this process: *fd its locked
 * descriptor. Returns 0, 1 when another process holds it, -1 with the error
 * set. */
static int lock_dir(int *fd, const char *path) {
    for (int attempt = 0; attempt < 3; attempt++) {
        if (mkdir(path, 0777) != 0 && errno != EEXIST)
            return br_error_set("cannot create %s: %s", path, strerror(errno));
        int d = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (d < 0)
            return br_error_set("cannot open %s: %s", path, strerror(errno));
        if (flock(d, LOCK_EX | LOCK_NB) != 0) {
            close(d);
            return 1;
        }
        /* The holder before us may have removed the directory after we
         * opened it: lock the one that is at the path now. */
        struct stat a, b;
        if (fstat(d, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev &&
            a.st_ino == b.st_ino) {
            *fd = d;
            return 0;
        }
        close(d);
    }
    return 1;
}

/* Make out->dir: root/<sha>, locked, or root/<sha>-<pid> when another
 * process holds that; emptied of what a crashed run left. Returns 0, or -1
 * with the error set. */
static int make_scratch(br_gittree *out, const char *root) {
    if (br_mkdir_p(root) != 0)
        return -1;
    char *path = br_strfmt("%s/%s", root, out->git.sha);
    if (!path)
        return -1;
    int rc = lock_dir(&out->lock_fd, path);
    if (rc == 1) {
        free(path);
        if (!(path = br_strfmt("%s/%s-%ld", root, out->git.sha, (long)getpid())))
            return -1;
        if (rm_tree(path, 0) != 0 || mkdir(path, 0777) != 0) {
            rc = br_error_set("cannot create %s: %s", path, strerror(errno));
            free(path);
            return rc;
        }
        rc = 0;
    }
    if (rc == 0 && rm_tree(path, 1) != 0)
        rc = -1;
    char real[PATH_MAX];
    if (rc == 0 && !realpath(path, real))
        rc = br_error_set("%s: %s", path, strerror(errno));
    if (rc == 0 && !(out->dir = br_strdup(real)))
        rc = -1;
    free(path);
    return rc;
}

/* ---- the commit ------------------------------------------------------------------------- */

/* Resolve rev to a commit of repo: out->git. *tree: the commit's tree.
 * Returns 0, or -1 with the error set (kind BR_E_INPUT for a revision that
 * names no commit). */
static int resolve_commit(br_gittree *out, git_tree **tree, git_repository *repo, const char *rev) {
    git_object *obj = NULL, *commit = NULL;
    git_buf short_id = {0};
    int rc = -1;
    if (git_revparse_single(&obj, repo, rev) < 0) {
        const git_error *e = git_error_last();
        br_error_set("%s: no such commit in %s (git: %s)", rev, out->workdir,
                     e && e->message ? e->message : "unknown revision");
        br_error_set_kind(BR_E_INPUT);
        goto done;
    }
    if (git_object_peel(&commit, obj, GIT_OBJECT_COMMIT) < 0) {
        br_error_set("%s: names a %s, not a commit", rev,
                     git_object_type2string(git_object_type(obj)));
        br_error_set_kind(BR_E_INPUT);
        goto done;
    }
    if (git_commit_tree(tree, (git_commit *)commit) < 0 ||
        git_object_short_id(&short_id, commit) < 0) {
        git_fail(rev);
        goto done;
    }
    br_gitinfo *g = &out->git;
    g->present = 1;
    g->detached = 1;
    git_oid_tostr(g->sha, sizeof g->sha, git_object_id(commit));
    snprintf(g->short_sha, sizeof g->short_sha, "%s", short_id.ptr);
    g->commit_time = (int64_t)git_commit_time((git_commit *)commit);
    g->commit_tz_minutes = git_commit_time_offset((git_commit *)commit);
    snprintf(g->workdir, sizeof g->workdir, "%s", out->workdir);
    rc = 0;
done:
    git_buf_dispose(&short_id);
    git_object_free(commit);
    git_object_free(obj);
    return rc;
}

/* Write tree's files into out->dir. Returns 0, or -1 with the error set. */
static int write_tree(const br_gittree *out, git_repository *repo, git_tree *tree) {
    git_checkout_options opts;
    if (git_checkout_options_init(&opts, GIT_CHECKOUT_OPTIONS_VERSION) < 0)
        return git_fail("checkout");
    /* Every file of the tree, into the target directory only: the
     * repository's index is neither updated nor written. */
    opts.checkout_strategy =
        GIT_CHECKOUT_FORCE | GIT_CHECKOUT_RECREATE_MISSING | GIT_CHECKOUT_DONT_UPDATE_INDEX;
    opts.target_directory = out->dir;
    if (git_checkout_tree(repo, (const git_object *)tree, &opts) < 0) {
        const git_error *e = git_error_last();
        return br_error_set("cannot check out %s (%s) into %s: git: %s", out->rev,
                            out->git.short_sha, out->dir,
                            e && e->message ? e->message : "unknown libgit2 error");
    }
    return 0;
}

/* The repository holding path, with *workdir. Returns 0, or -1 with
 * the error set (kind BR_E_INPUT: in no repository, or a bare one). */
int br_git_open_worktree(git_repository **repo, char **workdir, const char *path,
                         const char *hint) {
    char *copy = br_strdup(path);
    if (!copy)
        return -1;
    struct stat st;
    const char *dir = stat(path, &st) == 0 && S_ISDIR(st.st_mode) ? copy : dirname(copy);
    int err = git_repository_open_ext(repo, dir, 0, NULL);
    int rc = -1;
    if (err == GIT_ENOTFOUND) {
        br_error_set("%s: not in a git repository%s", path, hint ? hint : "");
        br_error_set_kind(BR_E_INPUT);
    } else if (err < 0) {
        git_fail(path);
    } else if (!git_repository_workdir(*repo)) {
        br_error_set("%s: in a bare repository", path);
        br_error_set_kind(BR_E_INPUT);
    } else {
        char real[PATH_MAX];
        const char *w = git_repository_workdir(*repo);
        *workdir = br_strdup(realpath(w, real) ? real : w);
        size_t n = *workdir ? strlen(*workdir) : 0;
        if (n > 1 && (*workdir)[n - 1] == '/')
            (*workdir)[n - 1] = '\0';
        rc = *workdir ? 0 : -1;
    }
    free(copy);
    return rc;
}

int br_gittree_checkout(br_gittree *out, const char *path, const char *rev,
                        const char *scratch_root) {
    memset(out, 0, sizeof *out);
    out->lock_fd = -1;
    git_repository *repo = NULL;
    git_tree *tree = NULL;
    int rc = -1;
    if (br_gitlib_init() != 0 || !(out->rev = br_strdup(rev)) ||
        br_git_open_worktree(&repo, &out->workdir, path,
                             " (benchrun ab reads the commits of the repository that "
                             "holds the suite)") != 0 ||
        resolve_commit(out, &tree, repo, rev) != 0 || make_scratch(out, scratch_root) != 0)
        goto done;
    if (write_tree(out, repo, tree) != 0)
        goto done;
    rc = 0;
done:
    git_tree_free(tree);
    git_repository_free(repo);
    if (rc != 0) {
        char keep[BR_ERROR_MAX];
        snprintf(keep, sizeof keep, "%s", br_error_get());
        br_error_kind kind = br_error_kind_get();
        br_gittree_remove(out);
        br_error_set("%s", keep);
        if (kind != BR_E_NONE)
            br_error_set_kind(kind);
    }
    return rc;
}

char *br_gittree_map(const br_gittree *t, const char *path) {
    char *copy = br_strdup(path), *copy2 = br_strdup(path);
    char *out = NULL;
    if (!copy || !copy2)
        goto done;
    char real[PATH_MAX];
    const char *dir = dirname(copy), *base = basename(copy2);
    if (!realpath(dir, real)) {
        br_error_set("%s: %s", path, strerror(errno));
        br_error_set_kind(BR_E_INPUT);
        goto done;
    }
    size_t n = strlen(t->workdir);
    if (strncmp(real, t->workdir, n) != 0 || (real[n] != '/' && real[n] != '\0')) {
        br_error_set("%s: not in the work tree %s", path, t->workdir);
        br_error_set_kind(BR_E_INPUT);
        goto done;
    }
    out = real[n] ? br_strfmt("%s%s/%s", t->dir, real + n, base) : br_strfmt("%s/%s", t->dir, base);
done:
    free(copy);
    free(copy2);
    return out;
}

/* text with every "DIR/" (DIR: t's scratch directory) written as prefix
 * followed by sep. Caller frees; NULL out of memory. */
static char *replace_dir(const br_gittree *t, const char *text, const char *prefix, char sep) {
    size_t nd = strlen(t->dir), np = strlen(prefix), cap = strlen(text) + 1;
    for (const char *p = strstr(text, t->dir); p; p = strstr(p + nd, t->dir))
        cap += np + 1;
    char *out = malloc(cap);
    if (!out) {
        br_error_nomem();
        return NULL;
    }
    size_t k = 0;
    for (const char *p = text; *p;) {
        if (strncmp(p, t->dir, nd) == 0 && p[nd] == '/') {
            memcpy(out + k, prefix, np);
            k += np;
            out[k++] = sep;
            p += nd + 1;
        } else {
            out[k++] = *p++;
        }
    }
    out[k] = '\0';
    return out;
}

char *br_gittree_relabel(const br_gittree *t, const char *text, const char *prefix) {
    return replace_dir(t, text, prefix, ':');
}

char *br_gittree_unmap(const br_gittree *t, const char *text) {
    return replace_dir(t, text, t->workdir, '/');
}

void br_gittree_remove(br_gittree *t) {
    if (t->dir && rm_tree(t->dir, 0) != 0)
        br_error_clear(); /* best effort: a later checkout empties it */
    if (t->lock_fd >= 0)
        close(t->lock_fd);
    free(t->rev);
    free(t->workdir);
    free(t->dir);
    memset(t, 0, sizeof *t);
    t->lock_fd = -1;
}

int br_git_has_commit(const char *path, const char *sha) {
    if (br_gitlib_init() != 0)
        return -1;
    git_repository *repo = NULL;
    char *workdir = NULL;
    int rc = br_git_open_worktree(&repo, &workdir, path, NULL);
    if (rc == 0) {
        git_oid oid;
        git_commit *commit = NULL;
        if (git_oid_fromstr(&oid, sha) < 0 || git_commit_lookup(&commit, repo, &oid) < 0) {
            rc = br_error_set("commit %.12s is not in the repository of %s%s", sha, workdir,
                              git_repository_is_shallow(repo) ? " (a shallow clone)" : "");
            br_error_set_kind(BR_E_INPUT);
        }
        git_commit_free(commit);
    }
    git_repository_free(repo);
    free(workdir);
    return rc;
}
