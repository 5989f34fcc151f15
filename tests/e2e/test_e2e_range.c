/* SPDX-License-Identifier: Apache-2.0 */
/* End-to-end `benchrun run-range`: a temporary repository made with
 * libgit2 holds 12 commits of a host module, an hour apart, each with an
 * unrelated edit, commit 4 not compiling and a 4x slowdown (the kernel sums
 * its input four times, one chain of adds) from commit 8 on (2x until the
 * H200 machine's host CPU moved by 1.7x between runs, issue 44). run-range over commits 2..12
 * (1..12) writes one results file per commit that builds, each with its commit's SHA, none for
 * commit 4 (said skipped), leaves the work tree and HEAD as they were and removes its checkouts;
 * then `history --changes` finds the step at commit 8 (commit 7 the last at the old level). --step
 * 3 measures commits 12, 9, 6 and 3. A range interrupted (SIGINT) after some results files exits
 * 130 and, run again, measures only the commits left. Not a range, A...B and an unknown revision
 * are bad usage (exit 2). */
#include <criterion/criterion.h>
#include <jansson.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

#include "e2e_util.h"
#include "git_repo.h"

#define N_COMMITS 12
#define SLOW_AT   8
#define BROKEN    4

static char *repo_dir, *cache_arg, *results_dir;
static git_repository *repo;
static char sha[N_COMMITS + 1][41]; /* sha[i]: commit i */

static void make(void) {
    e2e_tmp_make();
    cr_assert_geq(git_libgit2_init(), 1);
    repo_dir = br_strfmt("%s/repo", tmp);
    cache_arg = br_strfmt("--cache-dir=%s/cache", tmp);
    results_dir = br_strfmt("%s/results", tmp);
    cr_assert_eq(mkdir(repo_dir, 0755), 0);
    repo = gr_init(repo_dir);
}

static void drop(void) {
    git_repository_free(repo);
    git_libgit2_shutdown();
    free(repo_dir);
    free(cache_arg);
    free(results_dir);
    e2e_tmp_drop();
}

TestSuite(e2e_range, .init = make, .fini = drop, .timeout = 300);

/* The module at commit `edit` (gr_sum_kernel): kernel sum reads its input
 * `passes` times; `broken` adds a line that does not compile. */
static void write_kernel(int edit, int passes, int broken) {
    char head[32];
    snprintf(head, sizeof head, "edit %d", edit);
    char *text = gr_sum_kernel(head, passes, "", "", "", broken ? "this does not compile\n" : "");
    gr_write(repo_dir, "k.c", text);
    free(text);
}

/* Commits 1..N_COMMITS ("commit i"), an hour apart. */
static void commits(void) {
    gr_write(repo_dir, "suite.yaml",
             "name: rangetest\n"
             "source: k.c\n"
             "kernels: [sum]\n"
             "params:\n  n: [65536]\n"
             "metric: GB/s\n"
             "bytes: 4 * n\n"
             "cache: warm\n"
             "warmup: 1ms\n"
             "measure:\n  min_samples: 5\n  min_time: 5ms\n  max_noise: 50%\n"
             "  timeout: 200ms\n");
    for (int i = 1; i <= N_COMMITS; i++) {
        write_kernel(i, i >= SLOW_AT ? 4 : 1, i == BROKEN);
        char msg[32];
        snprintf(msg, sizeof msg, "commit %d", i);
        gr_commit_all_at(repo, msg, 1700000000 + 3600 * i);
        gr_sha_of(repo, sha[i], "HEAD");
    }
}

/* benchrun run-range [extra] RANGE suite.yaml into results_dir, in the repository. */
static void range(e2e_result *r, const char *spec, const char *extra) {
    char *dir = br_strfmt("--results-dir=%s", results_dir);
    const char *args[] = {"run-range", cache_arg, dir, spec, "suite.yaml", extra, NULL};
    if (extra) { /* options before the positionals */
        args[3] = extra;
        args[4] = spec;
        args[5] = "suite.yaml";
    }
    cr_assert_eq(e2e_run(r, repo_dir, args), 0);
    free(dir);
}

/* The commit (1..N_COMMITS) of each results file: count[i] files of commit
 * i, each checked: one run of suite.yaml, its git record the commit's
 * (clean, detached, its commit time), its case measured. */
static void files_per_commit(int count[N_COMMITS + 1]) {
    memset(count, 0, (N_COMMITS + 1) * sizeof *count);
    DIR *d = opendir(results_dir);
    cr_assert_not_null(d, "no %s", results_dir);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char *path = br_strfmt("%s/%s", results_dir, e->d_name);
        json_error_t err;
        json_t *j = json_load_file(path, 0, &err);
        cr_assert_not_null(j, "%s: %s", path, err.text);
        json_t *runs = json_object_get(j, "runs");
        cr_assert_eq(json_array_size(runs), 1, "%s", path);
        json_t *run = json_array_get(runs, 0), *git = json_object_get(run, "git");
        cr_assert_str_eq(json_string_value(json_object_get(json_object_get(run, "suite"), "path")),
                         "suite.yaml");
        cr_assert(json_is_false(json_object_get(git, "dirty")));
        const char *s = json_string_value(json_object_get(git, "sha"));
        cr_assert_not_null(s, "%s: no git sha", path);
        int which = 0;
        for (int i = 1; i <= N_COMMITS; i++)
            if (strcmp(s, sha[i]) == 0)
                which = i;
        cr_assert(which > 0, "%s: sha %s is no commit of the repository", path, s);
        cr_assert(strstr(e->d_name, json_string_value(json_object_get(git, "short_sha"))),
                  "%s is not named after its commit", e->d_name);
        char when[32];
        time_t t = 1700000000 + 3600 * which;
        strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
        cr_assert_str_eq(json_string_value(json_object_get(git, "commit_time")), when);
        json_t *c = json_array_get(json_object_get(run, "cases"), 0);
        cr_assert_str_eq(json_string_value(json_object_get(c, "status")), "ok", "%s", path);
        count[which]++;
        json_decref(j);
        free(path);
    }
    closedir(d);
}

Test(e2e_range, backfills_each_commit_and_history_finds_the_step) {
    commits();
    size_t status_before = gr_status_count(repo);
    e2e_result r;
    range(&r, "HEAD~11..HEAD", NULL);
    cr_assert_eq(r.status, 0, "exit %d\n%s%s", r.status, r.out, r.err);
    int count[N_COMMITS + 1];
    files_per_commit(count);
    cr_assert_eq(count[1], 0, "A itself is not measured");
    for (int i = 2; i <= N_COMMITS; i++)
        cr_assert_eq(count[i], i == BROKEN ? 0 : 1, "commit %d: %d files\n%s", i, count[i], r.out);
    char broken_line[64];
    snprintf(broken_line, sizeof broken_line, "%.7s  commit %d", sha[BROKEN], BROKEN);
    const char *at = strstr(r.out, broken_line);
    cr_assert(at && strstr(at, "skipped: ") && strstr(at, "k.c does not build"), "%s", r.out);
    cr_assert(strstr(r.out, "11 commits: 10 measured (10 cases), 0 measured before, 1 skipped"),
              "%s", r.out);
    /* The work tree, its index and HEAD as they were; no checkout left. */
    cr_assert_eq(gr_status_count(repo), status_before);
    char head[41];
    gr_sha_of(repo, head, "HEAD");
    cr_assert_str_eq(head, sha[N_COMMITS]);
    char *scratch = br_strfmt("%s/cache/run-range", tmp);
    e2e_assert_empty_dir(scratch);
    free(scratch);
    e2e_free(&r);

    /* history --changes: the step at commit SLOW_AT, the old level last at SLOW_AT - 1. */
    const char *hargs[] = {"history", results_dir, "--changes", "--ascii", NULL};
    cr_assert_eq(e2e_run(&r, tmp, hargs), 0);
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    char cur[8], prev[8];
    snprintf(cur, sizeof cur, "%.7s", sha[SLOW_AT]);
    snprintf(prev, sizeof prev, "%.7s", sha[SLOW_AT - 1]);
    const char *row = strstr(r.out, cur);
    cr_assert(row && strstr(row, prev) && strstr(r.out, "1 change point in 1 case over 10 runs"),
              "%s", r.out);
    e2e_free(&r);
}

Test(e2e_range, step_takes_every_nth_commit_back_from_b) {
    commits();
    e2e_result r;
    range(&r, "HEAD~11..", "--step=3");
    cr_assert_eq(r.status, 0, "exit %d\n%s%s", r.status, r.out, r.err);
    int count[N_COMMITS + 1];
    files_per_commit(count);
    for (int i = 1; i <= N_COMMITS; i++)
        cr_assert_eq(count[i], (N_COMMITS - i) % 3 == 0 && i > 1 ? 1 : 0, "commit %d\n%s", i,
                     r.out);
    cr_assert(strstr(r.out, "4 commits: 4 measured"), "%s", r.out);
    e2e_free(&r);
}

static void sleep_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

Test(e2e_range, an_interrupted_range_resumes_with_the_commits_left) {
    commits();
    char *dir = br_strfmt("--results-dir=%s", results_dir);
    const char *args[] = {"run-range", cache_arg, dir, "HEAD~11..HEAD", "suite.yaml", NULL};
    e2e_proc p = {0};
    cr_assert_eq(e2e_start(&p, repo_dir, args), 0);
    for (int waited = 0; e2e_count_entries(results_dir, ".json") < 3; waited += 5) {
        cr_assert_lt(waited, 120000, "3 results files did not come in 2 min");
        sleep_ms(5);
    }
    cr_assert_eq(kill(p.pid, SIGINT), 0);
    e2e_result r;
    e2e_finish(&p, &r);
    cr_assert_eq(r.status, 130, "exit %d\n%s%s", r.status, r.out, r.err);
    cr_assert(strstr(r.out, "; interrupted"), "%s", r.out);
    int kept = e2e_count_entries(results_dir, ".json");
    cr_assert(kept >= 3 && kept < 10, "%d files after the interrupt\n%s", kept, r.out);
    e2e_free(&r);

    range(&r, "HEAD~11..HEAD", NULL);
    cr_assert_eq(r.status, 0, "exit %d\n%s%s", r.status, r.out, r.err);
    char *want = br_strfmt("11 commits: %d measured (%d cases), %d measured before, 1 skipped",
                           10 - kept, 10 - kept, kept);
    cr_assert(strstr(r.out, want), "want '%s' in\n%s", want, r.out);
    int count[N_COMMITS + 1];
    files_per_commit(count);
    for (int i = 2; i <= N_COMMITS; i++)
        cr_assert_eq(count[i], i == BROKEN ? 0 : 1, "commit %d: %d files", i, count[i]);
    free(want);
    free(dir);
    e2e_free(&r);
}

Test(e2e_range, bad_ranges_are_usage_errors) {
    commits();
    const char *specs[] = {"HEAD~3", "HEAD~3...HEAD", "nosuchrev..HEAD", "HEAD..HEAD~3"};
    const char *says[] = {"expected a range A..B", "A...B names no line of commits", "nosuchrev",
                          "not an ancestor"};
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        e2e_result r;
        range(&r, specs[i], NULL);
        cr_assert_eq(r.status, 2, "%s: exit %d\n%s%s", specs[i], r.status, r.out, r.err);
        cr_assert(strstr(r.err, says[i]), "%s:\n%s", specs[i], r.err);
        cr_assert_eq(e2e_count_entries(results_dir, ".json"), 0);
        e2e_free(&r);
    }
}
