/* SPDX-License-Identifier: Apache-2.0 */
/* gitinfo.h - the git commit a suite was run at, read through libgit2. */
#ifndef BR_GITINFO_H
#define BR_GITINFO_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct br_gitinfo {
    int present;        /* 0: the path is in no git repository (other fields empty) */
    int unborn;         /* 1: a repository with no commit yet (sha empty) */
    char sha[41];       /* full commit SHA-1, hex */
    char short_sha[41]; /* abbreviated as `git rev-parse --short` would (>= 7 hex digits) */
    char branch[256];   /* current branch name ("main"); "" when detached */
    int detached;       /* 1 when HEAD is detached */
    int dirty; /* 1 when tracked files differ from HEAD (index or work tree); untracked files do not
                  count */
    int64_t commit_time;   /* committer time, seconds since the epoch (UTC) */
    int commit_tz_minutes; /* committer's UTC offset, minutes */
    char workdir[4096];    /* the repository's work tree */
} br_gitinfo;

/* Describe the repository that holds `path` (a file or directory; the search
 * walks up from it as git does) into *out. Not being in a repository is not
 * an error: out->present = 0. Calls git_libgit2_init itself. Returns 0, or -1
 * with the error set (a repository that libgit2 cannot read). */
int br_gitinfo_read(br_gitinfo *out, const char *path);

#ifdef __cplusplus
}
#endif
#endif
