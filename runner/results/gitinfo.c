/* SPDX-License-Identifier: Apache-2.0 */
/* The git commit a suite was run at, read through libgit2. */
#include "gitinfo.h"

#include "base/error.h"
#include "base/gitlib.h"

#include <git2.h>

#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Status bits that make a work tree dirty: a tracked file changed in the index
 * or the work tree, or left in conflict. GIT_STATUS_WT_NEW (untracked) and
 * GIT_STATUS_IGNORED are deliberately absent. */
#define GITINFO_DIRTY_MASK                                                                         \
    (GIT_STATUS_INDEX_NEW | GIT_STATUS_INDEX_MODIFIED | GIT_STATUS_INDEX_DELETED |                 \
     GIT_STATUS_INDEX_RENAMED | GIT_STATUS_INDEX_TYPECHANGE | GIT_STATUS_WT_MODIFIED |             \
     GIT_STATUS_WT_DELETED | GIT_STATUS_WT_RENAMED | GIT_STATUS_WT_TYPECHANGE |                    \
     GIT_STATUS_CONFLICTED)

/* Set the last error from libgit2's last error. Returns -1. */
static int git_fail(void) {
    const git_error *e = git_error_last();
    return br_error_set("git: %s", e && e->message ? e->message : "unknown libgit2 error");
}

/* Copy src into dst[cap]; -1 with the error set when it does not fit. */
static int copy_str(char *dst, size_t cap, const char *src, const char *what) {
    size_t n = strlen(src);
    if (n >= cap)
        return br_error_set("git: %s too long (%zu bytes): %.64s...", what, n, src);
    memcpy(dst, src, n + 1);
    return 0;
}

/* The branch HEAD names in an unborn repository ("main" from refs/heads/main). */
static int read_unborn_branch(br_gitinfo *out, git_repository *repo) {
    int rc = -1;
    git_reference *head = NULL;

    if (git_reference_lookup(&head, repo, "HEAD") < 0) {
        git_fail();
        goto done;
    }
    if (git_reference_type(head) == GIT_REFERENCE_SYMBOLIC) {
        const char *target = git_reference_symbolic_target(head);
        const char *prefix = "refs/heads/";
        if (strncmp(target, prefix, strlen(prefix)) == 0)
            target += strlen(prefix);
        if (copy_str(out->branch, sizeof out->branch, target, "branch name") < 0)
            goto done;
    }
    rc = 0;
done:
    git_reference_free(head);
    return rc;
}

/* Commit SHA, short SHA, committer time and branch of a repository whose HEAD
 * points at a commit. */
static int read_head(br_gitinfo *out, git_repository *repo) {
    int rc = -1;
    git_reference *head = NULL;
    git_object *obj = NULL;
    git_buf short_id = {0};

    if (git_repository_head(&head, repo) < 0 ||
        git_reference_peel(&obj, head, GIT_OBJECT_COMMIT) < 0 ||
        git_object_short_id(&short_id, obj) < 0) {
        git_fail();
        goto done;
    }
    git_oid_tostr(out->sha, sizeof out->sha, git_object_id(obj));
    if (copy_str(out->short_sha, sizeof out->short_sha, short_id.ptr, "short SHA") < 0)
        goto done;

    const git_commit *commit = (const git_commit *)obj;
    out->commit_time = (int64_t)git_commit_time(commit);
    out->commit_tz_minutes = git_commit_time_offset(commit);

    int detached = git_repository_head_detached(repo);
    if (detached < 0) {
        git_fail();
        goto done;
    }
    out->detached = detached;
    if (!detached &&
        copy_str(out->branch, sizeof out->branch, git_reference_shorthand(head), "branch name") < 0)
        goto done;
    rc = 0;
done:
    git_buf_dispose(&short_id);
    git_object_free(obj);
    git_reference_free(head);
    return rc;
}

/* 1 when `path` (relative to the work tree) lies under baselines/: the
 * committed baselines are benchrun's own results, not code. Saving one must
 * not make the next run at the same commit count as dirty: a save is
 * benchrun's output, and the run after it measures the same code. */
static int is_baseline_path(const char *path) {
    return path && strncmp(path, "baselines/", 10) == 0;
}

/* out->dirty: 1 when a tracked file outside baselines/ differs from HEAD in
 * the index or the work tree. Untracked and ignored files are not looked
 * at. */
static int read_dirty(br_gitinfo *out, git_repository *repo) {
    int rc = -1;
    git_status_list *list = NULL;
    git_status_options opts;

    if (git_status_options_init(&opts, GIT_STATUS_OPTIONS_VERSION) < 0) {
        git_fail();
        goto done;
    }
    opts.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
    opts.flags = 0; /* no untracked, no ignored; submodules count as tracked */
    if (git_status_list_new(&list, repo, &opts) < 0) {
        git_fail();
        goto done;
    }
    size_t n = git_status_list_entrycount(list);
    for (size_t i = 0; i < n; i++) {
        const git_status_entry *e = git_status_byindex(list, i);
        const git_diff_delta *d =
            e ? (e->index_to_workdir ? e->index_to_workdir : e->head_to_index) : NULL;
        if (d && is_baseline_path(d->old_file.path) &&
            is_baseline_path(d->new_file.path ? d->new_file.path : d->old_file.path))
            continue;
        if (e && (e->status & GITINFO_DIRTY_MASK)) {
            out->dirty = 1;
            break;
        }
    }
    rc = 0;
done:
    git_status_list_free(list);
    return rc;
}

/* Describe the repository that holds `path` (a file or a directory) into *out.
 * Not being in a repository gives out->present = 0 and returns 0. Returns -1
 * with the error set when `path` cannot be stat'ed or libgit2 fails; *out is
 * then zeroed. Initializes and shuts down libgit2 (balanced) itself. */
int br_gitinfo_read(br_gitinfo *out, const char *path) {
    int rc = -1;
    char *copy = NULL;
    git_repository *repo = NULL;

    memset(out, 0, sizeof *out);

    struct stat st;
    if (stat(path, &st) != 0) {
        br_error_set("%s: %s", path, strerror(errno));
        goto done;
    }
    const char *dir = path;
    if (!S_ISDIR(st.st_mode)) {
        copy = strdup(path);
        if (!copy) {
            br_error_set("%s: out of memory", path);
            goto done;
        }
        dir = dirname(copy);
    }

    if (br_gitlib_init() != 0)
        goto done;

    int err = git_repository_open_ext(&repo, dir, 0, NULL);
    if (err == GIT_ENOTFOUND) {
        git_error_clear();
        rc = 0; /* in no repository: present = 0 */
        goto done;
    }
    if (err < 0) {
        git_fail();
        goto done;
    }
    out->present = 1;

    const char *workdir = git_repository_workdir(repo); /* NULL when bare */
    if (workdir) {
        if (copy_str(out->workdir, sizeof out->workdir, workdir, "work tree path") < 0)
            goto done;
        size_t len = strlen(out->workdir);
        if (len > 1 && out->workdir[len - 1] == '/')
            out->workdir[len - 1] = '\0';
    }

    int unborn = git_repository_head_unborn(repo);
    if (unborn < 0) {
        git_fail();
        goto done;
    }
    out->unborn = unborn;
    if (unborn ? read_unborn_branch(out, repo) < 0 : read_head(out, repo) < 0)
        goto done;

    if (!git_repository_is_bare(repo) && read_dirty(out, repo) < 0)
        goto done;
    rc = 0;
done:
    if (rc != 0)
        memset(out, 0, sizeof *out);
    git_repository_free(repo);
    free(copy);
    return rc;
}
