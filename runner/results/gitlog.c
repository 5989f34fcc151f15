/* SPDX-License-Identifier: Apache-2.0 */
/* The first-parent line between two commits, through libgit2
 * (gitlog.h). */
#include "gitlog.h"

#include <git2.h>

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/error.h"
#include "base/gitlib.h"
#include "base/util.h"
#include "gittree.h"

/* Set the error from libgit2's last error, prefixed by `what`. Returns -1. */
static int git_fail(const char *what) {
    const git_error *e = git_error_last();
    return br_error_set("%s: %s", what, e && e->message ? e->message : "unknown libgit2 error");
}

/* The commit `rev` names (peeled). Returns 0, or -1 with the error set
 * (kind BR_E_INPUT). */
static int lookup(git_commit **out, git_repository *repo, const char *rev, const char *workdir) {
    git_object *obj = NULL, *peeled = NULL;
    *out = NULL;
    if (git_revparse_single(&obj, repo, rev) < 0) {
        const git_error *e = git_error_last();
        br_error_set("%s: no such commit in %s (git: %s)", rev, workdir,
                     e && e->message ? e->message : "unknown revision");
        return br_error_set_kind(BR_E_INPUT);
    }
    int rc = git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT);
    if (rc < 0) {
        br_error_set("%s: names a %s, not a commit", rev,
                     git_object_type2string(git_object_type(obj)));
        br_error_set_kind(BR_E_INPUT);
    }
    git_object_free(obj);
    *out = (git_commit *)peeled;
    return rc < 0 ? -1 : 0;
}

/* Fill *c from commit. Returns 0, or -1 with the error set. */
static int describe(br_gitlog_commit *c, const git_commit *commit) {
    git_buf id = {0};
    if (git_object_short_id(&id, (const git_object *)commit) < 0)
        return git_fail("short id");
    git_oid_tostr(c->sha, sizeof c->sha, git_commit_id(commit));
    snprintf(c->short_sha, sizeof c->short_sha, "%s", id.ptr);
    git_buf_dispose(&id);
    const char *summary = git_commit_summary((git_commit *)commit);
    c->subject = br_strdup(summary ? summary : "");
    return c->subject ? 0 : -1;
}

/* Why `good` is not on bad's first-parent line: not an ancestor at all, or
 * reached only through a merge. Returns -1 with the error set. */
static int not_on_line(git_repository *repo, const git_oid *g, const git_oid *b, const char *good,
                       const char *bad) {
    char gs[41], bs[41];
    git_oid_tostr(gs, sizeof gs, g);
    git_oid_tostr(bs, sizeof bs, b);
    int desc = git_graph_descendant_of(repo, b, g);
    if (desc < 0)
        return git_fail("git_graph_descendant_of");
    if (desc == 0)
        br_error_set("GOOD %s (%.10s) is not an ancestor of BAD %s (%.10s): give the older "
                     "commit first (benchrun bisect GOOD BAD SUITE.yaml)",
                     good, gs, bad, bs);
    else
        br_error_set("GOOD %s (%.10s) is an ancestor of BAD %s but not on its first-parent line "
                     "(it came in through a merge): give GOOD from `git log --first-parent %s`",
                     good, gs, bad, bad);
    return br_error_set_kind(BR_E_INPUT);
}

/* Walk first parents from bad down to good into out (oldest first).
 * Returns 0, or -1 with the error set. */
static int walk(br_gitlog *out, git_repository *repo, git_commit *good_c, git_commit *bad_c,
                const char *good, const char *bad) {
    const git_oid *g = git_commit_id(good_c);
    size_t cap = 64, n = 0;
    git_commit **line = malloc(cap * sizeof *line);
    int rc = -1;
    if (!line)
        return br_error_nomem();
    git_commit *c = NULL;
    if (git_commit_dup(&c, bad_c) < 0) {
        free(line);
        return git_fail(bad);
    }
    for (;;) {
        if (n == cap) {
            git_commit **grown = realloc(line, 2 * cap * sizeof *line);
            if (!grown) {
                git_commit_free(c);
                br_error_nomem();
                goto done;
            }
            line = grown;
            cap *= 2;
        }
        line[n++] = c;
        if (git_oid_equal(git_commit_id(c), g))
            break;
        if (git_commit_parentcount(c) == 0) {
            not_on_line(repo, g, git_commit_id(bad_c), good, bad);
            goto done;
        }
        if (git_commit_parent(&c, c, 0) < 0) {
            git_fail(bad);
            goto done;
        }
    }
    out->commits = calloc(n, sizeof *out->commits);
    if (!out->commits) {
        br_error_nomem();
        goto done;
    }
    out->n = n;
    for (size_t i = 0; i < n; i++)
        if (describe(&out->commits[i], line[n - 1 - i]) != 0)
            goto done;
    rc = 0;
done:
    for (size_t i = 0; i < n; i++)
        git_commit_free(line[i]);
    free(line);
    return rc;
}

int br_gitlog_first_parents(br_gitlog *out, const char *path, const char *good, const char *bad) {
    memset(out, 0, sizeof *out);
    git_repository *repo = NULL;
    git_commit *gc = NULL, *bc = NULL;
    int rc = -1;
    if (br_gitlib_init() != 0 || br_git_open_worktree(&repo, &out->workdir, path, NULL) != 0 ||
        lookup(&gc, repo, good, out->workdir) != 0 || lookup(&bc, repo, bad, out->workdir) != 0)
        goto done;
    if (git_oid_equal(git_commit_id(gc), git_commit_id(bc))) {
        char sha[41];
        git_oid_tostr(sha, sizeof sha, git_commit_id(gc));
        br_error_set("GOOD and BAD are the same commit (%.10s): nothing to search", sha);
        br_error_set_kind(BR_E_INPUT);
        goto done;
    }
    int desc = git_graph_descendant_of(repo, git_commit_id(bc), git_commit_id(gc));
    if (desc < 0)
        git_fail("git_graph_descendant_of");
    else if (desc == 0)
        not_on_line(repo, git_commit_id(gc), git_commit_id(bc), good, bad);
    else
        rc = walk(out, repo, gc, bc, good, bad);
done:
    git_commit_free(gc);
    git_commit_free(bc);
    git_repository_free(repo);
    if (rc != 0) {
        br_error_kind kind = br_error_kind_get();
        char keep[BR_ERROR_MAX];
        snprintf(keep, sizeof keep, "%s", br_error_get());
        br_gitlog_dispose(out);
        br_error_set("%s", keep);
        if (kind != BR_E_NONE)
            br_error_set_kind(kind);
    }
    return rc;
}

void br_gitlog_dispose(br_gitlog *l) {
    if (!l)
        return;
    for (size_t i = 0; l->commits && i < l->n; i++)
        free(l->commits[i].subject);
    free(l->commits);
    free(l->workdir);
    memset(l, 0, sizeof *l);
}
