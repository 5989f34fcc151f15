/* SPDX-License-Identifier: Apache-2.0 */
/* test_gitinfo.c - br_gitinfo_read against repositories made with libgit2. */
#include "base/error.h"
#include "base/gitlib.h"
#include "results/gitinfo.h"

#include <criterion/criterion.h>
#include <git2.h>

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define T_TIME   ((git_time_t)1700000000) /* 2023-11-14T22:13:20Z */
#define T_OFFSET 120                      /* UTC+02:00, minutes */

static char tmp[PATH_MAX];      /* the mkdtemp directory of this test */
static char real_tmp[PATH_MAX]; /* realpath(tmp): libgit2 resolves symlinks */

/* Fail the test with libgit2's message when a libgit2 call fails. */
#define G(call)                                                                                    \
    do {                                                                                           \
        int g_rc_ = (call);                                                                        \
        if (g_rc_ < 0) {                                                                           \
            const git_error *g_e_ = git_error_last();                                              \
            cr_assert_fail("%s: %d: %s", #call, g_rc_, g_e_ ? g_e_->message : "?");                \
        }                                                                                          \
    } while (0)

/* Remove the tree at `path` (symlinks are removed, not followed). */
static void rm_rf(const char *path) {
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        if (d) {
            struct dirent *e;
            while ((e = readdir(d)) != NULL) {
                if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                    continue;
                char child[PATH_MAX];
                snprintf(child, sizeof child, "%s/%s", path, e->d_name);
                rm_rf(child);
            }
            closedir(d);
        }
        rmdir(path);
    } else {
        unlink(path);
    }
}

static void setup(void) {
    int count = git_libgit2_init();
    cr_assert_geq(count, 1);
    snprintf(tmp, sizeof tmp, "/tmp/br_gitinfo_XXXXXX");
    cr_assert_not_null(mkdtemp(tmp));
    cr_assert_not_null(realpath(tmp, real_tmp));
}

static void teardown(void) {
    if (tmp[0])
        rm_rf(tmp);
    git_libgit2_shutdown();
}

/* "<tmp>/<rel>" into a static buffer (valid until the next call). */
static const char *at(const char *rel) {
    static char buf[PATH_MAX];
    int n = snprintf(buf, sizeof buf, "%s/%s", tmp, rel);
    cr_assert(n > 0 && (size_t)n < sizeof buf, "path too long: %s/%s", tmp, rel);
    return buf;
}

static void write_file(const char *rel, const char *text) {
    FILE *f = fopen(at(rel), "w");
    cr_assert_not_null(f, "fopen %s", at(rel));
    fputs(text, f);
    cr_assert_eq(fclose(f), 0);
}

/* A fresh non-bare repository at tmp whose HEAD names refs/heads/main. */
static git_repository *init_repo(void) {
    git_repository *repo = NULL;
    git_repository_init_options opts;
    G(git_repository_init_options_init(&opts, GIT_REPOSITORY_INIT_OPTIONS_VERSION));
    opts.flags = GIT_REPOSITORY_INIT_MKPATH;
    opts.initial_head = "main";
    G(git_repository_init_ext(&repo, tmp, &opts));
    return repo;
}

/* Stage `paths` (relative to the work tree) and write the index. */
static void stage(git_repository *repo, const char *const *paths, size_t n) {
    git_index *index = NULL;
    G(git_repository_index(&index, repo));
    for (size_t i = 0; i < n; i++)
        G(git_index_add_bypath(index, paths[i]));
    G(git_index_write(index));
    git_index_free(index);
}

/* Commit the index on HEAD (with HEAD's commit as parent, if any), committed
 * at T_TIME with offset `offset`. Returns the new commit's id. */
static git_oid commit_index(git_repository *repo, const char *msg, int offset) {
    git_index *index = NULL;
    git_oid tree_id, commit_id;
    git_tree *tree = NULL;
    git_signature *sig = NULL;
    git_object *parent = NULL;

    G(git_repository_index(&index, repo));
    G(git_index_write_tree(&tree_id, index));
    G(git_tree_lookup(&tree, repo, &tree_id));
    G(git_signature_new(&sig, "Bench Runner", "br@example.com", T_TIME, offset));
    int unborn = git_repository_head_unborn(repo);
    cr_assert_geq(unborn, 0);
    if (!unborn)
        G(git_revparse_single(&parent, repo, "HEAD^{commit}"));
    const git_commit *parents[1] = {(const git_commit *)parent};
    G(git_commit_create(&commit_id, repo, "HEAD", sig, sig, NULL, msg, tree, parent ? 1 : 0,
                        parents));
    git_object_free(parent);
    git_signature_free(sig);
    git_tree_free(tree);
    git_index_free(index);
    return commit_id;
}

/* A repository at tmp with a.txt and sub/dir/b.txt committed once on main. */
static git_repository *committed_repo(git_oid *out_id) {
    git_repository *repo = init_repo();
    cr_assert_eq(mkdir(at("sub"), 0755), 0);
    cr_assert_eq(mkdir(at("sub/dir"), 0755), 0);
    write_file("a.txt", "alpha\n");
    write_file("sub/dir/b.txt", "beta\n");
    write_file(".gitignore", "*.log\n");
    const char *paths[] = {"a.txt", "sub/dir/b.txt", ".gitignore"};
    stage(repo, paths, 3);
    *out_id = commit_index(repo, "initial", T_OFFSET);
    return repo;
}

static br_gitinfo read_ok(const char *path) {
    br_gitinfo info;
    br_error_clear();
    int rc = br_gitinfo_read(&info, path);
    cr_assert_eq(rc, 0, "br_gitinfo_read(%s): %s", path, br_error_get());
    return info;
}

static int is_hex(const char *s) {
    return s[strspn(s, "0123456789abcdef")] == '\0';
}

static void assert_commit(const br_gitinfo *info, const git_oid *id) {
    char hex[GIT_OID_HEXSZ + 1];
    git_oid_tostr(hex, sizeof hex, id);
    cr_assert_eq(info->present, 1);
    cr_assert_eq(info->unborn, 0);
    cr_assert_str_eq(info->sha, hex);
    size_t n = strlen(info->short_sha);
    cr_assert(n >= 7 && n <= 40, "short sha '%s'", info->short_sha);
    cr_assert(is_hex(info->short_sha), "short sha '%s'", info->short_sha);
    cr_assert_eq(strncmp(info->sha, info->short_sha, n), 0, "%s not a prefix of %s",
                 info->short_sha, info->sha);
}

TestSuite(gitinfo, .init = setup, .fini = teardown);

Test(gitinfo, clean) {
    git_oid id;
    git_repository *repo = committed_repo(&id);
    br_gitinfo info = read_ok(tmp);
    assert_commit(&info, &id);
    cr_assert_str_eq(info.branch, "main");
    cr_assert_eq(info.detached, 0);
    cr_assert_eq(info.dirty, 0);
    cr_assert_str_eq(info.workdir, real_tmp);
    git_repository_free(repo);
}

Test(gitinfo, commit_time_and_offset) {
    git_oid id;
    git_repository *repo = committed_repo(&id);
    br_gitinfo info = read_ok(tmp);
    cr_assert_eq(info.commit_time, (int64_t)T_TIME);
    cr_assert_eq(info.commit_tz_minutes, T_OFFSET);

    /* A second commit with a negative offset: HEAD moves, the time follows. */
    write_file("a.txt", "alpha 2\n");
    const char *paths[] = {"a.txt"};
    stage(repo, paths, 1);
    git_oid id2 = commit_index(repo, "second", -300);
    info = read_ok(tmp);
    assert_commit(&info, &id2);
    cr_assert_eq(info.commit_time, (int64_t)T_TIME);
    cr_assert_eq(info.commit_tz_minutes, -300);
    cr_assert_eq(info.dirty, 0);
    git_repository_free(repo);
}

Test(gitinfo, modified_tracked_file_is_dirty) {
    git_oid id;
    git_repository *repo = committed_repo(&id);
    write_file("sub/dir/b.txt", "beta, changed\n");
    br_gitinfo info = read_ok(tmp);
    assert_commit(&info, &id);
    cr_assert_eq(info.dirty, 1);
    git_repository_free(repo);
}

Test(gitinfo, a_changed_baseline_file_is_not_dirt) {
    /* Saving a baseline rewrites baselines/<suite>/<device>.json; the code
     * is still the commit's. */
    git_oid id;
    git_repository *repo = committed_repo(&id);
    cr_assert_eq(mkdir(at("baselines"), 0755), 0);
    cr_assert_eq(mkdir(at("baselines/s"), 0755), 0);
    write_file("baselines/s/gpu.json", "{}\n");
    const char *paths[] = {"baselines/s/gpu.json"};
    stage(repo, paths, 1);
    commit_index(repo, "baseline", T_OFFSET);
    write_file("baselines/s/gpu.json", "{\"saved\": 2}\n");
    cr_assert_eq(read_ok(tmp).dirty, 0, "a rewritten baseline");
    stage(repo, paths, 1);
    cr_assert_eq(read_ok(tmp).dirty, 0, "a staged baseline");
    cr_assert_eq(unlink(at("baselines/s/gpu.json")), 0);
    cr_assert_eq(read_ok(tmp).dirty, 0, "a removed baseline");
    write_file("a.txt", "alpha, changed\n");
    cr_assert_eq(read_ok(tmp).dirty, 1, "code beside it still counts");
    git_repository_free(repo);
}

Test(gitinfo, deleted_tracked_file_is_dirty) {
    git_oid id;
    git_repository *repo = committed_repo(&id);
    cr_assert_eq(unlink(at("a.txt")), 0);
    cr_assert_eq(read_ok(tmp).dirty, 1);
    git_repository_free(repo);
}

Test(gitinfo, untracked_and_ignored_files_are_clean) {
    git_oid id;
    git_repository *repo = committed_repo(&id);
    write_file("new.txt", "untracked\n");
    write_file("sub/new.txt", "untracked too\n");
    write_file("run.log", "ignored\n");
    br_gitinfo info = read_ok(tmp);
    assert_commit(&info, &id);
    cr_assert_eq(info.dirty, 0);
    git_repository_free(repo);
}

Test(gitinfo, staged_change_is_dirty) {
    git_oid id;
    git_repository *repo = committed_repo(&id);
    write_file("a.txt", "alpha, staged\n");
    const char *paths[] = {"a.txt"};
    stage(repo, paths, 1); /* index differs from HEAD, work tree equals index */
    cr_assert_eq(read_ok(tmp).dirty, 1);
    git_repository_free(repo);
}

Test(gitinfo, staged_new_file_is_dirty) {
    git_oid id;
    git_repository *repo = committed_repo(&id);
    write_file("new.txt", "added\n");
    const char *paths[] = {"new.txt"};
    stage(repo, paths, 1);
    cr_assert_eq(read_ok(tmp).dirty, 1);
    git_repository_free(repo);
}

Test(gitinfo, detached_head) {
    git_oid id;
    git_repository *repo = committed_repo(&id);
    G(git_repository_set_head_detached(repo, &id));
    br_gitinfo info = read_ok(tmp);
    assert_commit(&info, &id);
    cr_assert_eq(info.detached, 1);
    cr_assert_str_eq(info.branch, "");
    cr_assert_eq(info.dirty, 0);
    git_repository_free(repo);
}

Test(gitinfo, other_branch) {
    git_oid id;
    git_repository *repo = committed_repo(&id);
    git_commit *c = NULL;
    git_reference *br = NULL;
    G(git_commit_lookup(&c, repo, &id));
    G(git_branch_create(&br, repo, "feature/x", c, 0));
    G(git_repository_set_head(repo, "refs/heads/feature/x"));
    br_gitinfo info = read_ok(tmp);
    assert_commit(&info, &id);
    cr_assert_str_eq(info.branch, "feature/x");
    cr_assert_eq(info.detached, 0);
    git_reference_free(br);
    git_commit_free(c);
    git_repository_free(repo);
}

Test(gitinfo, unborn) {
    git_repository *repo = init_repo();
    write_file("untracked.txt", "x\n");
    br_gitinfo info = read_ok(tmp);
    cr_assert_eq(info.present, 1);
    cr_assert_eq(info.unborn, 1);
    cr_assert_str_eq(info.sha, "");
    cr_assert_str_eq(info.short_sha, "");
    cr_assert_str_eq(info.branch, "main");
    cr_assert_eq(info.detached, 0);
    cr_assert_eq(info.dirty, 0);
    cr_assert_eq(info.commit_time, 0);
    cr_assert_str_eq(info.workdir, real_tmp);

    /* A file staged before the first commit is a change against HEAD. */
    const char *paths[] = {"untracked.txt"};
    stage(repo, paths, 1);
    info = read_ok(tmp);
    cr_assert_eq(info.unborn, 1);
    cr_assert_eq(info.dirty, 1);
    git_repository_free(repo);
}

Test(gitinfo, not_in_a_repository) {
    git_buf found = {0};
    int err = git_repository_discover(&found, tmp, 0, NULL);
    git_buf_dispose(&found);
    if (err != GIT_ENOTFOUND)
        cr_skip_test("%s is inside a git repository", tmp);
    write_file("suite.yaml", "kernels: []\n");

    br_gitinfo info = read_ok(tmp);
    cr_assert_eq(info.present, 0);
    cr_assert_str_eq(info.sha, "");
    cr_assert_str_eq(info.branch, "");
    cr_assert_str_eq(info.workdir, "");
    info = read_ok(at("suite.yaml"));
    cr_assert_eq(info.present, 0);
}

Test(gitinfo, file_in_subdirectory) {
    git_oid id;
    git_repository *repo = committed_repo(&id);
    br_gitinfo info = read_ok(at("sub/dir/b.txt"));
    assert_commit(&info, &id);
    cr_assert_str_eq(info.branch, "main");
    cr_assert_str_eq(info.workdir, real_tmp);
    cr_assert_eq(info.dirty, 0);

    info = read_ok(at("sub/dir")); /* the directory itself */
    assert_commit(&info, &id);
    cr_assert_str_eq(info.workdir, real_tmp);

    /* An untracked file in a subdirectory: found, still clean. */
    write_file("sub/dir/suite.yaml", "kernels: []\n");
    info = read_ok(at("sub/dir/suite.yaml"));
    assert_commit(&info, &id);
    cr_assert_eq(info.dirty, 0);
    git_repository_free(repo);
}

Test(gitinfo, bare_repository) {
    git_repository *repo = NULL;
    G(git_repository_init(&repo, tmp, 1));
    br_gitinfo info = read_ok(tmp);
    cr_assert_eq(info.present, 1);
    cr_assert_eq(info.unborn, 1);
    cr_assert_str_eq(info.workdir, "");
    cr_assert_eq(info.dirty, 0);

    /* Give it a commit without a work tree: blob -> tree -> commit. */
    git_oid blob_id, tree_id, commit_id;
    git_treebuilder *tb = NULL;
    git_tree *tree = NULL;
    git_signature *sig = NULL;
    G(git_blob_create_from_buffer(&blob_id, repo, "x\n", 2));
    G(git_treebuilder_new(&tb, repo, NULL));
    G(git_treebuilder_insert(NULL, tb, "x.txt", &blob_id, GIT_FILEMODE_BLOB));
    G(git_treebuilder_write(&tree_id, tb));
    G(git_tree_lookup(&tree, repo, &tree_id));
    G(git_signature_new(&sig, "Bench Runner", "br@example.com", T_TIME, 0));
    G(git_commit_create(&commit_id, repo, "HEAD", sig, sig, NULL, "bare", tree, 0, NULL));

    info = read_ok(tmp);
    assert_commit(&info, &commit_id);
    cr_assert_eq(info.dirty, 0);
    cr_assert_eq(info.commit_time, (int64_t)T_TIME);
    cr_assert_str_eq(info.workdir, "");
    git_signature_free(sig);
    git_tree_free(tree);
    git_treebuilder_free(tb);
    git_repository_free(repo);
}

Test(gitinfo, missing_path_is_an_error) {
    br_gitinfo info;
    br_error_clear();
    cr_assert_eq(br_gitinfo_read(&info, at("no/such/file.yaml")), -1);
    cr_assert(strstr(br_error_get(), "no/such/file.yaml") != NULL, "%s", br_error_get());
    cr_assert_eq(info.present, 0);
}

Test(gitinfo, corrupt_head_is_a_git_error) {
    git_repository *repo = init_repo();
    git_repository_free(repo);
    write_file(".git/HEAD", "this is not a reference\n");
    br_gitinfo info;
    br_error_clear();
    cr_assert_eq(br_gitinfo_read(&info, tmp), -1);
    cr_assert_eq(strncmp(br_error_get(), "git: ", 5), 0, "%s", br_error_get());
    cr_assert_eq(info.present, 0);
}

/* libgit2 is started by the first call and held for the process
 * (base/gitlib.h): later calls leave libgit2's init count as it is
 * (Criterion itself links libgit2 and may hold a reference, so compare
 * counts, not with 1). */
Test(gitinfo_init, libgit2_is_started_once_and_held) {
    br_gitinfo info;
    cr_assert_eq(br_gitinfo_read(&info, "/"), 0, "%s", br_error_get());
    int before = git_libgit2_init();
    git_libgit2_shutdown();
    for (int i = 0; i < 3; i++)
        cr_assert_eq(br_gitinfo_read(&info, "/"), 0, "%s", br_error_get());
    int after = git_libgit2_init();
    git_libgit2_shutdown();
    cr_assert_eq(after, before, "init count %d before, %d after", before, after);
    cr_assert_gt(before, 1, "libgit2 still held by the first call: %d", before);
    cr_assert_eq(br_gitlib_init_count(), 1);
}
