/* SPDX-License-Identifier: Apache-2.0 */
/* test_history_bisect.c - from a change point to the `benchrun bisect`
 * command that finds it (history/history_bisect.c), on a repository of 16
 * commits made with libgit2 and a history of runs at its commits: a 5%
 * slowdown planted at commit 11. Runs at commits 1-6 and 11-16 leave the
 * change spanning commits 7 to 11 (a command, 5 commits); runs at every
 * commit pin it to commit 11 (no command); runs whose commits this
 * repository does not hold give no command either. The repository is
 * found as the command finds it: the current directory's. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/error.h"
#include "base/util.h"
#include "e2e_util.h"
#include "history/history.h"
#include "reporters/history_table.h"
#include "reporters/reporter.h"
/* results_fixture.h's git_commit() would clash with libgit2's type. */
#define git_commit fixture_git_commit
#include "results_fixture.h"
#undef git_commit
#include "git_repo.h"

extern const br_reporter br_reporter_json;

#define N_COMMITS 16

static char *repo_dir, *runs_dir;
static git_repository *repo;
static char shas[N_COMMITS + 1][41]; /* 1-based */

static void make(void) {
    e2e_tmp_make();
    cr_assert_geq(git_libgit2_init(), 1);
    repo_dir = br_strfmt("%s/repo", tmp);
    runs_dir = br_strfmt("%s/runs", tmp);
    cr_assert_eq(mkdir(repo_dir, 0755), 0);
    cr_assert_eq(mkdir(runs_dir, 0755), 0);
    repo = gr_init(repo_dir);
    for (int i = 1; i <= N_COMMITS; i++) {
        char msg[32];
        snprintf(msg, sizeof msg, "commit %d\n", i);
        gr_write(repo_dir, "k.c", msg);
        gr_commit_all(repo, msg);
        git_object *o = NULL;
        GR(git_revparse_single(&o, repo, "HEAD"));
        git_oid_tostr(shas[i], 41, git_object_id(o));
        git_object_free(o);
    }
}

static void drop(void) {
    git_repository_free(repo);
    git_libgit2_shutdown();
    free(repo_dir);
    free(runs_dir);
    e2e_tmp_drop();
}

TestSuite(history_bisect, .init = make, .fini = drop, .timeout = 120);

/* The run at commit i: kernel "copy" at n = 2^20, 5% slower from commit 11
 * on, a small deterministic wobble per run. */
static void write_run(int i, const char *sha) {
    br_run r;
    const char *params[] = {"n"};
    run_init(&r, "steps", "a copy", BR_METRIC_GBPS, BR_MODE_COLD, params, 1, 1);
    add_kernel(&r, "copy", "kernels/copy.c", BR_BACKEND_HOST);
    fixture_git_commit(&r.git, sha, "main", 0);
    r.git.commit_time = 1795000000 + 3600 * (int64_t)i;
    snprintf(r.date, sizeof r.date, "2026-11-%02dT10:00:00Z", i);
    int64_t n = 1 << 20;
    double level = (i >= 11 ? 1.05 : 1.0) * 1e5 * (1.0 + 0.002 * ((i * 5) % 7 - 3) / 3.0), s[20];
    for (int k = 0; k < 20; k++)
        s[k] = level * (1.0 + 0.001 * (k % 5 - 2));
    br_case_result *c = add_case(&r, 0, 0, &n, BR_STATUS_OK, NULL, NULL, 8.0 * (double)n, NAN);
    set_timing(&c->cold, s, 20, 1.0, 1, BR_STOP_CI, NAN);
    br_run_derive(&r);
    char name[32];
    snprintf(name, sizeof name, "run-%02d.json", i);
    char *path = br_path_join(runs_dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    const br_run *ptr = &r;
    br_report_opts opts = {0};
    cr_assert_eq(br_reporter_json.write(f, &ptr, 1, &opts), 0, "%s", br_error_get());
    cr_assert_eq(fclose(f), 0);
    free(path);
    br_run_dispose(&r);
}

/* `benchrun history runs --changes --ascii` run in `cwd`, as text. */
static char *changes(const char *cwd) {
    char *back = getcwd(NULL, 0);
    cr_assert_not_null(back);
    cr_assert_eq(chdir(cwd), 0);
    br_history h;
    cr_assert_eq(br_history_load(&h, runs_dir, NULL), 0, "%s", br_error_get());
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cr_assert_not_null(f);
    cr_assert_eq(br_history_print_changes(f, &h, 1), 0, "%s", br_error_get());
    cr_assert_eq(fclose(f), 0);
    br_history_dispose(&h);
    cr_assert_eq(chdir(back), 0);
    free(back);
    return text;
}

Test(history_bisect, a_change_across_five_commits_gets_its_command) {
    for (int i = 1; i <= N_COMMITS; i++)
        if (i <= 6 || i >= 11)
            write_run(i, shas[i]);
    char *out = changes(repo_dir);
    cr_assert(strstr(out, "1 change point in 1 case over 12 runs"), "%s", out);
    char *want = br_strfmt("to find the commit of a change that spans several commits:\n"
                           "  benchrun bisect %.7s %.7s suites/steps.yaml -k copy -p n=2^20   "
                           "# 5 commits\n",
                           shas[6], shas[11]);
    cr_assert(strstr(out, want), "lacks:\n%s\nin:\n%s", want, out);
    free(want);
    free(out);
}

Test(history_bisect, a_change_at_one_commit_needs_no_search) {
    for (int i = 1; i <= N_COMMITS; i++)
        write_run(i, shas[i]);
    char *out = changes(repo_dir);
    cr_assert(strstr(out, "1 change point in 1 case over 16 runs"), "%s", out);
    cr_assert_null(strstr(out, "benchrun bisect"), "%s", out);
    free(out);
}

Test(history_bisect, commits_no_repository_holds_give_no_command) {
    for (int i = 1; i <= N_COMMITS; i++)
        if (i <= 6 || i >= 11) {
            char fake[41];
            snprintf(fake, sizeof fake, "%040d", i); /* no such commit anywhere */
            write_run(i, fake);
        }
    char *out = changes(repo_dir);
    cr_assert(strstr(out, "1 change point in 1 case over 12 runs"), "%s", out);
    cr_assert_null(strstr(out, "benchrun bisect"), "%s", out);
    free(out);
}
