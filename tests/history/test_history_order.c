/* SPDX-License-Identifier: Apache-2.0 */
/* test_history_order.c - runs at commits of one committer time (a rebase,
 * a scripted series: git keeps whole seconds) come out in the commit
 * graph's order, an ancestor first, in `history` (read from the files and
 * through the index), whatever their dates and file names say (before:
 * by the run's date, so out of commit order). */
#include <criterion/criterion.h>

#include "reporters/history_fixture.h"

TestSuite(history_order, .init = history_init, .fini = history_fini, .timeout = 120);

Test(history_order, commits_of_one_committer_time_are_in_topological_order) {
    char *repo_dir = br_path_join(tmp, "repo"), *results = br_path_join(tmp, "repo/results");
    /* Three commits with one committer (and author) time, by git itself. */
    char *cmd = br_strfmt("set -e; cd '%s' 2>/dev/null || { mkdir '%s'; cd '%s'; }; git init -q .; "
                          "export GIT_AUTHOR_DATE=@1700000000 GIT_COMMITTER_DATE=@1700000000; "
                          "for c in A B C; do echo $c > k.c; git add k.c; "
                          "git -c user.name=br -c user.email=br@example.com commit -qm $c; done; "
                          "git rev-parse HEAD~2 HEAD~1 HEAD > shas.txt",
                          repo_dir, repo_dir, repo_dir);
    if (system("git --version >/dev/null 2>&1") != 0)
        cr_skip_test("git is not installed: the commits cannot be made");
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    free(cmd);
    const char *names[] = {"A", "B", "C"};
    char sha[3][41];
    char *shas = br_path_join(repo_dir, "shas.txt");
    FILE *fp = fopen(shas, "r");
    cr_assert_not_null(fp);
    for (int i = 0; i < 3; i++) {
        char line[64];
        cr_assert_not_null(fgets(line, sizeof line, fp));
        snprintf(sha[i], sizeof sha[i], "%.40s", line);
    }
    fclose(fp);
    free(shas);
    cr_assert_eq(mkdir(results, 0755), 0);
    /* C ran first, in the file named first; A last. */
    for (int i = 0; i < 3; i++) {
        br_run r;
        step_run(&r, (size_t)i + 1);
        snprintf(r.git.sha, sizeof r.git.sha, "%s", sha[2 - i]);
        snprintf(r.git.short_sha, sizeof r.git.short_sha, "%.7s", sha[2 - i]);
        r.git.commit_time = 1700000000;
        snprintf(r.date, sizeof r.date, "2026-11-2%dT10:00:00Z", i + 1);
        char file[32];
        snprintf(file, sizeof file, "%d.json", i + 1);
        write_doc(results, file, &r, 1);
        br_run_dispose(&r);
    }
    for (int use_index = 0; use_index < 2; use_index++) {
        br_history h;
        br_history_filter f = {0};
        f.use_index = use_index;
        cr_assert_eq(br_history_load(&h, results, &f), 0, "%s", br_error_get());
        cr_assert_eq(h.n_runs, 3);
        for (int i = 0; i < 3; i++)
            cr_expect_str_eq(h.runs[i].run.git.sha, sha[i], "run %d is not commit %s (index %d)", i,
                             names[i], use_index);
        br_history_dispose(&h);
    }
    free(repo_dir);
    free(results);
}
