/* SPDX-License-Identifier: Apache-2.0 */
/* The files of a git commit in a scratch directory, through
 * libgit2: `benchrun ab` builds a suite's kernels as they are at a commit.
 *
 * The commit's whole tree is checked out (git_checkout_tree with a target
 * directory: the repository's index, HEAD and work tree are not touched)
 * into <scratch_root>/<full sha>, so that the suite file, its sources, its
 * include_dirs and every project header they include are there as they were
 * committed, at the same places relative to each other. The directory's name
 * is the same for every checkout of one commit, so the compile cache (whose
 * keys include the source's and include directories' paths) finds the
 * modules built from it last time. The directory is locked (flock) while in
 * use; a second benchrun using the same commit at once checks out into
 * <full sha>-<pid> instead. br_gittree_remove deletes it. */
#ifndef BR_GITTREE_H
#define BR_GITTREE_H

#include "gitinfo.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct br_gittree {
    char *rev;      /* owned; the revision as given ("HEAD~1", a SHA, a branch) */
    char *workdir;  /* owned; the repository's work tree (real path, no trailing '/') */
    char *dir;      /* owned; the scratch directory holding the commit's files (real path) */
    br_gitinfo git; /* the commit: present, sha, short_sha, commit time and zone;
                       detached 1, dirty 0, branch "", workdir as above */
    int lock_fd;    /* the locked directory's descriptor; -1 when none */
} br_gittree;

/* Resolve `rev` (any revision git understands: HEAD~1, a SHA or a prefix of
 * one, a branch or tag; peeled to a commit) in the repository that holds
 * `path` (a file or directory; found as git does, walking up), and check
 * out the commit's tree into a directory under `scratch_root` (created when
 * missing). Starts libgit2 (base/gitlib.h). Returns 0 with *out filled
 * (release with br_gittree_remove), or -1 with the error set and *out
 * zeroed (lock_fd -1): not in a repository, a bare repository, an unknown
 * revision or one that is not a commit (these set kind BR_E_INPUT), or a
 * checkout that failed (nothing is left in scratch_root). */
int br_gittree_checkout(br_gittree *out, const char *path, const char *rev,
                        const char *scratch_root);

/* The path in t's scratch directory of `path`, a file of the work tree
 * (any path that resolves into it; the file itself need not exist in the
 * work tree, its directory must). Caller frees. NULL with the error set
 * (kind BR_E_INPUT) when path is not inside the work tree. */
char *br_gittree_map(const br_gittree *t, const char *path);

/* `text` with every occurrence of t's scratch directory and the '/' after
 * it replaced by `prefix` followed by ':' (git's REV:PATH notation:
 * "HEAD~1:suites/x.yaml:3:5: ..."), for messages and labels. Caller frees;
 * NULL when out of memory. */
char *br_gittree_relabel(const br_gittree *t, const char *text, const char *prefix);

/* `text` with every path in t's scratch directory written as the same
 * file's path in the work tree (the inverse of br_gittree_map): what a run
 * of the commit in the work tree would have recorded. Caller frees; NULL
 * when out of memory. */
char *br_gittree_unmap(const br_gittree *t, const char *text);

/* Delete t's scratch directory and everything in it, release its lock and
 * what *t owns, and zero it (lock_fd -1). Accepts a zeroed tree. */
void br_gittree_remove(br_gittree *t);

struct git_repository; /* libgit2 (git2.h) */

/* Open the git repository that holds `path` (a file or directory; searched
 * upward as git does) into *repo (the caller frees it with
 * git_repository_free), and its work tree's real path, without a trailing
 * '/', into *workdir (caller frees). Returns 0, or -1 with the error set:
 * kind BR_E_INPUT when path is in no repository ("PATH: not in a git
 * repository" followed by `hint`, which may be NULL) or in a bare one. */
int br_git_open_worktree(struct git_repository **repo, char **workdir, const char *path,
                         const char *hint);

/* Whether the repository holding `path` has the commit whose full SHA is
 * `sha` (40 hex digits). Returns 0 when it has; -1 with the error set
 * otherwise: kind BR_E_INPUT when path is in no repository or the commit
 * is not there ("commit 1a2b3c4d5e6f is not in the repository of DIR", with
 * " (a shallow clone)" when the clone is shallow). */
int br_git_has_commit(const char *path, const char *sha);

#ifdef __cplusplus
}
#endif
#endif
