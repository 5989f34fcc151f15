/* SPDX-License-Identifier: Apache-2.0 */
/* test_gittree.c - a commit's files in a scratch directory (results/gittree.h),
 * against repositories made with libgit2. */
#include <criterion/criterion.h>
#include <git2.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/util.h"
#include "e2e_util.h"
#include "git_repo.h"
#include "results/gittree.h"

static char *repo_dir, *scratch;
static git_repository *repo;

/* tmp/repo: commit 1 with a.txt "one" and sub/h.h; commit 2 changes a.txt
 * and adds b.txt. */
static void make(void) {
    e2e_tmp_make();
    cr_assert_geq(git_libgit2_init(), 1);
    repo_dir = br_strfmt("%s/repo", tmp);
    scratch = br_strfmt("%s/cache/ab", tmp);
    cr_assert_eq(mkdir(repo_dir, 0755), 0);
    repo = gr_init(repo_dir);
    cr_assert_eq(mkdir(br_strfmt("%s/sub", repo_dir), 0755), 0);
    gr_write(repo_dir, "a.txt", "one\n");
    gr_write(repo_dir, "sub/h.h", "#define H 1\n");
    gr_commit_all(repo, "one");
    gr_write(repo_dir, "a.txt", "two\n");
    gr_write(repo_dir, "b.txt", "new\n");
    gr_commit_all(repo, "two");
}

static void drop(void) {
    git_repository_free(repo);
    git_libgit2_shutdown();
    free(repo_dir);
    free(scratch);
    e2e_tmp_drop();
}

TestSuite(gittree, .init = make, .fini = drop);

static char *slurp(const char *dir, const char *rel) {
    char *path = br_strfmt("%s/%s", dir, rel), *text = NULL;
    if (br_read_file(&text, NULL, path, 1 << 20) != 0)
        text = NULL;
    free(path);
    return text;
}

Test(gittree, checks_out_the_commit_and_leaves_the_repository_alone) {
    br_gittree t;
    char *suite = br_strfmt("%s/a.txt", repo_dir);
    cr_assert_eq(br_gittree_checkout(&t, suite, "HEAD~1", scratch), 0, "%s", br_error_get());
    cr_assert_str_eq(t.rev, "HEAD~1");
    cr_assert(strncmp(t.dir, tmp, strlen(tmp)) == 0 || strstr(t.dir, "/cache/ab/"), "%s", t.dir);
    git_object *one = NULL;
    GR(git_revparse_single(&one, repo, "HEAD~1"));
    char sha[41];
    git_oid_tostr(sha, sizeof sha, git_object_id(one));
    git_object_free(one);
    cr_assert_str_eq(t.git.sha, sha);
    cr_assert(t.git.present && !t.git.dirty && t.git.detached);
    cr_assert(strncmp(t.git.short_sha, sha, strlen(t.git.short_sha)) == 0);
    cr_assert(br_has_suffix(t.dir, sha), "the directory is named by the commit: %s", t.dir);
    char *a = slurp(t.dir, "a.txt"), *h = slurp(t.dir, "sub/h.h"), *b = slurp(t.dir, "b.txt");
    cr_assert_str_eq(a, "one\n");
    cr_assert_str_eq(h, "#define H 1\n");
    cr_assert_null(b, "b.txt came later");
    free(a);
    free(h);
    /* The work tree still has commit 2's files and nothing to commit. */
    char *wa = slurp(repo_dir, "a.txt");
    cr_assert_str_eq(wa, "two\n");
    free(wa);
    cr_assert_eq(gr_status_count(repo), 0);

    char *mapped = br_gittree_map(&t, suite);
    char *want = br_strfmt("%s/a.txt", t.dir);
    cr_assert_str_eq(mapped, want);
    char *text = br_strfmt("%s/sub/h.h:3:1: error; %s/a.txt", t.dir, t.dir);
    char *label = br_gittree_relabel(&t, text, "HEAD~1");
    cr_assert_str_eq(label, "HEAD~1:sub/h.h:3:1: error; HEAD~1:a.txt");
    /* unmap: the same paths in the work tree (the repository's real path). */
    char *unmapped = br_gittree_unmap(&t, text);
    char *real = realpath(repo_dir, NULL);
    char *in_tree = br_strfmt("%s/sub/h.h:3:1: error; %s/a.txt", real, real);
    cr_assert_str_eq(unmapped, in_tree);
    free(unmapped);
    free(real);
    free(in_tree);
    char *dir = br_strdup(t.dir);
    br_gittree_remove(&t);
    struct stat st;
    cr_assert_neq(stat(dir, &st), 0, "the scratch directory is removed");
    cr_assert_eq(t.lock_fd, -1);
    free(dir);
    free(label);
    free(text);
    free(want);
    free(mapped);
    free(suite);
}

Test(gittree, a_second_checkout_of_the_same_commit_gets_its_own_directory) {
    br_gittree t1, t2;
    cr_assert_eq(br_gittree_checkout(&t1, repo_dir, "HEAD", scratch), 0, "%s", br_error_get());
    cr_assert_eq(br_gittree_checkout(&t2, repo_dir, "HEAD", scratch), 0, "%s", br_error_get());
    cr_assert_str_neq(t1.dir, t2.dir);
    char *suffix = br_strfmt("-%ld", (long)getpid());
    cr_assert(br_has_suffix(t2.dir, suffix), "%s", t2.dir);
    char *b = slurp(t2.dir, "b.txt");
    cr_assert_str_eq(b, "new\n");
    free(b);
    free(suffix);
    br_gittree_remove(&t2);
    br_gittree_remove(&t1);
}

Test(gittree, bad_revisions_and_places_are_input_errors) {
    br_gittree t;
    cr_assert_eq(br_gittree_checkout(&t, repo_dir, "no-such-branch", scratch), -1);
    cr_assert_eq(br_error_kind_get(), BR_E_INPUT);
    cr_assert(strstr(br_error_get(), "no-such-branch: no such commit in "), "%s", br_error_get());
    cr_assert_null(t.dir);
    cr_assert_eq(br_gittree_checkout(&t, repo_dir, "HEAD^{tree}", scratch), -1);
    cr_assert_eq(br_error_kind_get(), BR_E_INPUT);
    cr_assert(strstr(br_error_get(), "not a commit"), "%s", br_error_get());
    cr_assert_eq(br_gittree_checkout(&t, tmp, "HEAD", scratch), -1); /* tmp holds no .git */
    cr_assert_eq(br_error_kind_get(), BR_E_INPUT);
    cr_assert(strstr(br_error_get(), "not in a git repository"), "%s", br_error_get());
    cr_assert_eq(br_gittree_checkout(&t, repo_dir, "HEAD", scratch), 0);
    cr_assert_null(br_gittree_map(&t, "/etc/hostname"));
    cr_assert_eq(br_error_kind_get(), BR_E_INPUT);
    cr_assert(strstr(br_error_get(), "not in the work tree"), "%s", br_error_get());
    br_gittree_remove(&t);
}
