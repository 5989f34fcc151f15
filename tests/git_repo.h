/* SPDX-License-Identifier: Apache-2.0 */
/* Temporary git repositories made with libgit2, for tests: write files,
 * commit every file of the work tree on HEAD; and the host module those
 * tests commit (gr_sum_kernel). */
#ifndef BR_TEST_GIT_REPO_H
#define BR_TEST_GIT_REPO_H

#include <criterion/criterion.h>
#include <git2.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "base/util.h"

/* Fail the test with libgit2's message when a libgit2 call fails. */
#define GR(call)                                                                                   \
    do {                                                                                           \
        int gr_rc_ = (call);                                                                       \
        if (gr_rc_ < 0) {                                                                          \
            const git_error *gr_e_ = git_error_last();                                             \
            cr_assert_fail("%s: %d: %s", #call, gr_rc_, gr_e_ ? gr_e_->message : "?");             \
        }                                                                                          \
    } while (0)

/* The full SHA of revision rev of repo into out. */
static inline void gr_sha_of(git_repository *repo, char out[41], const char *rev) {
    git_object *o = NULL;
    GR(git_revparse_single(&o, repo, rev));
    git_oid_tostr(out, 41, git_object_id(o));
    git_object_free(o);
}

/* Write `text` to dir/rel (its directory must exist). */
static inline void gr_write(const char *dir, const char *rel, const char *text) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "fopen %s", path);
    fputs(text, f);
    cr_assert_eq(fclose(f), 0);
}

/* A fresh repository with a work tree at dir (libgit2 initialised by the caller). */
static inline git_repository *gr_init(const char *dir) {
    git_repository *repo = NULL;
    GR(git_repository_init(&repo, dir, 0));
    return repo;
}

/* Stage every file of the work tree (additions, changes and removals) and
 * commit it on HEAD, with HEAD's commit as parent when there is one, at
 * `when` (seconds since the epoch, UTC) as author and committer time. */
static inline void gr_commit_all_at(git_repository *repo, const char *msg, git_time_t when) {
    git_index *index = NULL;
    git_oid tree_id, commit_id;
    git_tree *tree = NULL;
    git_signature *sig = NULL;
    git_object *parent = NULL;
    char *all = "*";
    git_strarray paths = {&all, 1};
    GR(git_repository_index(&index, repo));
    GR(git_index_add_all(index, &paths, GIT_INDEX_ADD_DEFAULT, NULL, NULL));
    GR(git_index_update_all(index, &paths, NULL, NULL));
    GR(git_index_write(index));
    GR(git_index_write_tree(&tree_id, index));
    GR(git_tree_lookup(&tree, repo, &tree_id));
    GR(git_signature_new(&sig, "Bench Runner", "br@example.com", when, 0));
    int unborn = git_repository_head_unborn(repo);
    cr_assert_geq(unborn, 0);
    if (!unborn)
        GR(git_revparse_single(&parent, repo, "HEAD^{commit}"));
    const git_commit *parents[1] = {(const git_commit *)parent};
    GR(git_commit_create(&commit_id, repo, "HEAD", sig, sig, NULL, msg, tree, parent ? 1 : 0,
                         parents));
    git_object_free(parent);
    git_signature_free(sig);
    git_tree_free(tree);
    git_index_free(index);
}

/* gr_commit_all_at at one fixed time (1700000000): every commit's. */
static inline void gr_commit_all(git_repository *repo, const char *msg) {
    gr_commit_all_at(repo, msg, 1700000000);
}

/* The number of entries `git status` would list (untracked included). */
static inline size_t gr_status_count(git_repository *repo) {
    git_status_list *list = NULL;
    git_status_options opts;
    GR(git_status_options_init(&opts, GIT_STATUS_OPTIONS_VERSION));
    opts.flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED;
    GR(git_status_list_new(&list, repo, &opts));
    size_t n = git_status_list_entrycount(list);
    git_status_list_free(list);
    return n;
}

/* The host module the repository tests commit, as malloc'd text: kernel
 * `sum` sums its n floats `passes` times per execution (its time scales
 * with passes) and verify checks the sum. `head`: its first line (a
 * comment that makes each commit's text differ, e.g. "edit 3"); `setup`:
 * C statements run first in setup ("" for none); `got`: added to the sum
 * ("" or " + 1", which verify refuses); `kernels`: more rows of its table
 * after sum's (""); `tail`: text after the module ("" or a line that does
 * not compile). */
static inline char *gr_sum_kernel(const char *head, int passes, const char *setup, const char *got,
                                  const char *kernels, const char *tail) {
    char *text = br_strfmt(
        "/* %s */\n"
        "#include <stdio.h>\n#include <stdlib.h>\n#include <unistd.h>\n"
        "#include \"benchrun_kernel.h\"\n"
        "typedef struct st { float *x; int64_t n; volatile double got; } st;\n"
        "static int setup(br_case *c) {\n"
        "%s"
        "    int64_t n;\n"
        "    if (c->api->param(c, \"n\", &n) != 0) return -1;\n"
        "    st *s = calloc(1, sizeof *s);\n"
        "    if (!s) return c->api->fail(c, \"out of memory\");\n"
        "    c->state = s; s->n = n;\n"
        "    s->x = c->api->alloc(c, (size_t)n * sizeof *s->x, BR_MEM_HOST);\n"
        "    if (!s->x) return -1;\n"
        "    for (int64_t i = 0; i < n; i++) s->x[i] = 1.0f;\n"
        "    return 0;\n"
        "}\n"
        "static int run(br_case *c) {\n"
        "    st *s = c->state; double acc = 0;\n"
        "    for (int p = 0; p < %d; p++) {\n"
        "        acc = 0;\n"
        "        for (int64_t i = 0; i < s->n; i++) acc += ((volatile float *)s->x)[i];\n"
        "    }\n"
        "    s->got = acc%s; return 0;\n"
        "}\n"
        "static int verify(br_case *c) {\n"
        "    st *s = c->state;\n"
        "    return s->got == (double)s->n ? 0 : c->api->fail(c, \"wrong sum\");\n"
        "}\n"
        "static void teardown(br_case *c) { free(c->state); c->state = NULL; }\n"
        "static const br_kernel kernels[] = {{\"sum\", setup, run, verify, teardown}%s};\n"
        "BR_MODULE(kernels);\n"
        "%s",
        head, setup, passes, got, kernels, tail);
    cr_assert_not_null(text);
    return text;
}

#endif
