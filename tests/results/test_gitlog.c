/* SPDX-License-Identifier: Apache-2.0 */
/* test_gitlog.c - the first-parent line between two commits
 * (results/gitlog.h), on repositories made with libgit2: a straight line,
 * one with a merged branch, and every refusal. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/error.h"
#include "base/util.h"
#include "e2e_util.h"
#include "git_repo.h"
#include "results/gitlog.h"

static char *dir;
static git_repository *repo;

static void make(void) {
    cr_assert_geq(git_libgit2_init(), 1);
    dir = e2e_tmpdir();
    cr_assert_not_null(dir);
    repo = gr_init(dir);
}

static void drop(void) {
    git_repository_free(repo);
    git_libgit2_shutdown();
    e2e_rmtree(dir);
    free(dir);
}

TestSuite(gitlog, .init = make, .fini = drop, .timeout = 60);

/* Commit `msg` (file f.txt = msg) on HEAD. */
static void commit(const char *msg) {
    gr_write(dir, "f.txt", msg);
    gr_commit_all(repo, msg);
}

/* A commit of the index's tree with `parents` (HEAD not moved unless
 * ref is "HEAD"); its id into out. */
static void commit_with(git_oid *out, const char *ref, const char *msg, const git_commit **parents,
                        size_t n) {
    git_index *index = NULL;
    git_oid tree_id;
    git_tree *tree = NULL;
    git_signature *sig = NULL;
    gr_write(dir, "side.txt", msg);
    char *all = "*";
    git_strarray paths = {&all, 1};
    GR(git_repository_index(&index, repo));
    GR(git_index_add_all(index, &paths, GIT_INDEX_ADD_DEFAULT, NULL, NULL));
    GR(git_index_write(index));
    GR(git_index_write_tree(&tree_id, index));
    GR(git_tree_lookup(&tree, repo, &tree_id));
    GR(git_signature_new(&sig, "Bench Runner", "br@example.com", 1700000000, 0));
    GR(git_commit_create(out, repo, ref, sig, sig, NULL, msg, tree, n, parents));
    git_signature_free(sig);
    git_tree_free(tree);
    git_index_free(index);
}

Test(gitlog, a_straight_line_oldest_first) {
    const char *msgs[] = {"one", "two\n\nthe body", "three", "four", "five"};
    for (int i = 0; i < 5; i++)
        commit(msgs[i]);
    br_gitlog log;
    cr_assert_eq(br_gitlog_first_parents(&log, dir, "HEAD~3", "HEAD"), 0, "%s", br_error_get());
    cr_assert_eq(log.n, 4);
    char sha[41];
    gr_sha_of(repo, sha, "HEAD~3");
    cr_assert_str_eq(log.commits[0].sha, sha);
    gr_sha_of(repo, sha, "HEAD");
    cr_assert_str_eq(log.commits[3].sha, sha);
    cr_assert_str_eq(log.commits[0].subject, "two");
    cr_assert_str_eq(log.commits[3].subject, "five");
    cr_assert_geq(strlen(log.commits[1].short_sha), 7);
    cr_assert_eq(
        strncmp(log.commits[1].short_sha, log.commits[1].sha, strlen(log.commits[1].short_sha)), 0);
    char real[4096];
    cr_assert_not_null(realpath(dir, real));
    cr_assert_str_eq(log.workdir, real);
    br_gitlog_dispose(&log);
    br_gitlog_dispose(&log); /* twice is harmless */
}

/* Each refusal: -1, kind input, the message, nothing kept. */
static void refused(const char *good, const char *bad, const char *says) {
    br_gitlog log;
    cr_assert_eq(br_gitlog_first_parents(&log, dir, good, bad), -1, "%s..%s accepted", good, bad);
    cr_assert_eq(br_error_kind_get(), BR_E_INPUT, "%s", br_error_get());
    cr_assert(strstr(br_error_get(), says), "'%s' lacks '%s'", br_error_get(), says);
    cr_assert_eq(log.n, 0);
    cr_assert_null(log.commits);
    br_gitlog_dispose(&log);
}

Test(gitlog, bad_input_is_refused) {
    commit("one");
    commit("two");
    refused("nosuch", "HEAD", "nosuch: no such commit in ");
    refused("HEAD~1", "nosuch", "nosuch: no such commit in ");
    refused("HEAD", "HEAD", "GOOD and BAD are the same commit");
    refused("HEAD", "HEAD~1", "GOOD HEAD (");
    refused("HEAD", "HEAD~1", ") is not an ancestor of BAD HEAD~1 (");
    char *outside = e2e_tmpdir();
    br_gitlog log;
    cr_assert_eq(br_gitlog_first_parents(&log, outside, "HEAD~1", "HEAD"), -1);
    cr_assert(strstr(br_error_get(), ": not in a git repository"), "%s", br_error_get());
    e2e_rmtree(outside);
    free(outside);
}

/* A - B - M - C on the main line, M merging S1 - S2 forked at A: the line
 * from A to C is A B M C; S1 is an ancestor of C but not on its line. */
Test(gitlog, a_merged_branch_is_not_on_the_line) {
    commit("A");
    git_commit *a = NULL, *b = NULL, *s1c = NULL, *s2c = NULL;
    GR(git_revparse_single((git_object **)&a, repo, "HEAD^{commit}"));
    commit("B");
    GR(git_revparse_single((git_object **)&b, repo, "HEAD^{commit}"));
    git_oid s1, s2, m;
    const git_commit *pa[1] = {a};
    commit_with(&s1, NULL, "S1", pa, 1);
    GR(git_commit_lookup(&s1c, repo, &s1));
    const git_commit *ps1[1] = {s1c};
    commit_with(&s2, NULL, "S2", ps1, 1);
    GR(git_commit_lookup(&s2c, repo, &s2));
    const git_commit *pm[2] = {b, s2c};
    commit_with(&m, "HEAD", "M", pm, 2);
    commit("C");
    br_gitlog log;
    char a_sha[41], s1_sha[41];
    git_oid_tostr(a_sha, sizeof a_sha, git_commit_id(a));
    git_oid_tostr(s1_sha, sizeof s1_sha, &s1);
    cr_assert_eq(br_gitlog_first_parents(&log, dir, a_sha, "HEAD"), 0, "%s", br_error_get());
    cr_assert_eq(log.n, 4);
    const char *want[] = {"A", "B", "M", "C"};
    for (size_t i = 0; i < 4; i++)
        cr_assert_str_eq(log.commits[i].subject, want[i]);
    br_gitlog_dispose(&log);
    refused(s1_sha, "HEAD", "not on its first-parent line (it came in through a merge)");
    git_commit_free(a);
    git_commit_free(b);
    git_commit_free(s1c);
    git_commit_free(s2c);
}
