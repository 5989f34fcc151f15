/* SPDX-License-Identifier: Apache-2.0 */
/* The first-parent line of commits between two revisions,
 * through libgit2: what `benchrun bisect GOOD BAD` searches, and how many
 * commits a change point of `benchrun history --changes` spans.
 *
 * The line is BAD, its first parent, that commit's first parent, ... down
 * to GOOD (`git log --first-parent GOOD..BAD`, plus GOOD): on a history
 * with merges it holds the merge commits of the main line, not the commits
 * of the merged branches, as `git bisect --first-parent` searches. */
#ifndef BR_GITLOG_H
#define BR_GITLOG_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One commit of the line. */
typedef struct br_gitlog_commit {
    char sha[41];       /* full SHA, hex */
    char short_sha[16]; /* the shortest unique prefix (at least 7 digits, as git) */
    char *subject;      /* owned: the first line of the message ("" when none) */
} br_gitlog_commit;

/* The line from GOOD to BAD, oldest first. */
typedef struct br_gitlog {
    char *workdir;             /* owned: the repository's work tree (no trailing '/') */
    br_gitlog_commit *commits; /* owned: commits[0] GOOD, commits[n - 1] BAD, each the first
                                  parent of the next */
    size_t n;                  /* >= 2 */
} br_gitlog;

/* Read into *out (dispose with br_gitlog_dispose, also after a failure)
 * the first-parent line from `good` to `bad` (any revisions git
 * understands, peeled to commits) in the repository that holds `path` (a
 * file or directory; found walking up, as git does). Starts
 * libgit2 (base/gitlib.h). Returns 0, or -1 with the error set, of kind
 * BR_E_INPUT for bad input:
 *   "PATH: not in a git repository" / "PATH: in a bare repository"
 *   "REV: no such commit in DIR (git: ...)"
 *   "GOOD and BAD are the same commit (SHA)"
 *   "GOOD REV (SHA) is not an ancestor of BAD REV (SHA)"
 *   "GOOD REV (SHA) is an ancestor of BAD REV but not on its first-parent
 *    line (it came in through a merge) ..."
 * and of no kind for a repository libgit2 cannot read or out of memory. */
int br_gitlog_first_parents(br_gitlog *out, const char *path, const char *good, const char *bad);

/* Release what *l owns and zero it; accepts NULL and a zeroed log. */
void br_gitlog_dispose(br_gitlog *l);

#ifdef __cplusplus
}
#endif
#endif
