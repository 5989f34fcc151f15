/* SPDX-License-Identifier: Apache-2.0 */
/* An interrupted `benchrun ab` or `benchrun bisect` keeps the blocks it
 * measured and reports what they give, marked partial (the newcomer saw
 * `ab` throw them away: "not run: interrupted"). A temporary repository
 * made with libgit2 holds commits of a host module whose setup appends a
 * byte to $BR_TEST_MARKS, one per block; SIGINT goes to benchrun once
 * enough blocks have started:
 *  - ab, 20 blocks a side, after 6 blocks: the case's NEW/OLD over the
 *    pairs finished (fewer than 20), "partial, N of 20 block pairs
 *    (interrupted)", in the table and the JSON, exit 130;
 *  - bisect in step 0 after 2 rounds: BAD/GOOD over the rounds finished,
 *    "interrupted (partial)";
 *  - bisect in step 1 after a round: the commit's ratios to both ends,
 *    class "interrupted (partial)", the JSON step "partial": true. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

#include "e2e_util.h"
#include "git_repo.h"

static char *repo_dir, *cache_arg, *json_path, *marks;
static git_repository *repo;

static void make(void) {
    e2e_tmp_make();
    cr_assert_geq(git_libgit2_init(), 1);
    repo_dir = br_strfmt("%s/repo", tmp);
    cache_arg = br_strfmt("--cache-dir=%s/cache", tmp);
    json_path = br_strfmt("%s/out.json", tmp);
    marks = br_strfmt("%s/marks", tmp);
    cr_assert_eq(mkdir(repo_dir, 0755), 0);
    repo = gr_init(repo_dir);
}

static void drop(void) {
    unsetenv("BR_TEST_MARKS");
    git_repository_free(repo);
    git_libgit2_shutdown();
    free(repo_dir);
    free(cache_arg);
    free(json_path);
    free(marks);
    e2e_tmp_drop();
}

TestSuite(e2e_partial, .init = make, .fini = drop, .timeout = 300);

/* The module at commit `edit` (gr_sum_kernel): kernel sum reads its input
 * `passes` times; setup marks each block in $BR_TEST_MARKS. */
static void write_kernel(int edit, int passes) {
    char head[32];
    snprintf(head, sizeof head, "edit %d", edit);
    char *text = gr_sum_kernel(head, passes,
                               "    const char *m = getenv(\"BR_TEST_MARKS\");\n"
                               "    FILE *f = m ? fopen(m, \"a\") : NULL;\n"
                               "    if (f) { fputc('x', f); fclose(f); }\n",
                               "", "", "");
    gr_write(repo_dir, "k.c", text);
    free(text);
}

/* Commits 1..n, the kernel twice as slow from `slow_at` on. */
static void commits(int n, int slow_at) {
    gr_write(repo_dir, "suite.yaml",
             "name: partialtest\n"
             "source: k.c\n"
             "kernels: [sum]\n"
             "params:\n  n: [65536]\n"
             "metric: GB/s\n"
             "bytes: 4 * n\n"
             "cache: warm\n"
             "warmup: 1ms\n"
             "measure:\n  min_samples: 5\n  min_time: 10ms\n  max_noise: 50%\n"
             "  timeout: 200ms\n");
    for (int i = 1; i <= n; i++) {
        write_kernel(i, i >= slow_at ? 2 : 1);
        char msg[32];
        snprintf(msg, sizeof msg, "commit %d", i);
        gr_commit_all(repo, msg);
    }
}

/* Blocks started so far: the bytes of the marks file. */
static long blocks_started(void) {
    struct stat st;
    return stat(marks, &st) == 0 ? (long)st.st_size : 0;
}

static void sleep_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Wait until `n` blocks have started. */
static void wait_blocks(long n) {
    for (int waited = 0; blocks_started() < n; waited += 2) {
        cr_assert_lt(waited, 120000, "%ld blocks did not start in 2 min", n);
        sleep_ms(2);
    }
}

/* Start benchrun with args in the repository, marks on. */
static void start(e2e_proc *p, const char *const *args) {
    setenv("BR_TEST_MARKS", marks, 1);
    cr_assert_eq(e2e_start(p, repo_dir, args), 0);
    unsetenv("BR_TEST_MARKS");
}

static json_t *load_json(void) {
    json_error_t err;
    json_t *j = json_load_file(json_path, 0, &err);
    cr_assert_not_null(j, "%s: %s", json_path, err.text);
    return j;
}

Test(e2e_partial, an_interrupted_ab_reports_the_pairs_it_measured) {
    commits(2, 2);
    const char *args[] = {"ab",      cache_arg, "--blocks=20", "--json",
                          json_path, "HEAD~1",  "suite.yaml",  NULL};
    e2e_proc p = {0};
    start(&p, args);
    wait_blocks(6);
    cr_assert_eq(kill(p.pid, SIGINT), 0);
    e2e_result r;
    e2e_finish(&p, &r);
    cr_assert_eq(r.status, 130, "exit %d\n%s%s", r.status, r.out, r.err);
    cr_assert_null(strstr(r.out, "not run: interrupted"), "%s", r.out);
    const char *at = strstr(r.out, "partial, ");
    cr_assert(at && strstr(at, " of 20 block pairs (interrupted)"), "%s", r.out);

    json_t *j = load_json(), *runs = json_object_get(j, "runs");
    cr_assert_eq(json_array_size(runs), 2);
    for (size_t k = 0; k < 2; k++)
        cr_assert_str_eq(json_string_value(json_object_get(json_array_get(runs, k), "interrupted")),
                         "SIGINT");
    json_t *cmp = json_object_get(json_array_get(runs, 1), "comparison");
    json_t *e = json_array_get(json_object_get(cmp, "cases"), 0);
    json_int_t pairs = json_integer_value(json_object_get(e, "pairs"));
    cr_assert(pairs >= 2 && pairs < 20, "%lld pairs", (long long)pairs);
    char *want = br_strfmt("partial, %lld of 20 block pairs (interrupted)", (long long)pairs);
    cr_assert(strstr(json_string_value(json_object_get(e, "why")), want), "%s", want);
    cr_assert(strstr(r.out, want), "%s\n%s", want, r.out);
    double ratio = json_real_value(json_object_get(e, "ratio"));
    cr_assert(isfinite(ratio) && ratio > 1.0, "NEW (twice the work) over OLD: %g", ratio);
    cr_assert_eq(json_array_size(json_object_get(e, "new_block_medians")), (size_t)pairs);
    free(want);
    json_decref(j);
    e2e_free(&r);
}

/* benchrun bisect --json OUT HEAD~7 HEAD suite.yaml, started. */
static void start_bisect(e2e_proc *p) {
    const char *args[] = {"bisect", cache_arg, "--json",     json_path,
                          "HEAD~7", "HEAD",    "suite.yaml", NULL};
    start(p, args);
}

Test(e2e_partial, a_bisect_interrupted_in_step_0_reports_bad_over_good_so_far) {
    commits(8, 5);
    e2e_proc p = {0};
    start_bisect(&p);
    wait_blocks(5); /* rounds 0 and 1 (G B, B G) done, the fifth block begun */
    cr_assert_eq(kill(p.pid, SIGINT), 0);
    e2e_result r;
    e2e_finish(&p, &r);
    cr_assert_eq(r.status, 130, "exit %d\n%s%s", r.status, r.out, r.err);
    cr_assert(strstr(r.out, "interrupted while BAD and GOOD were compared: BAD/GOOD "), "%s",
              r.out);
    cr_assert(strstr(r.out, "BAD/GOOD: interrupted (partial)"), "%s", r.out);
    json_t *j = load_json(), *s0 = json_array_get(json_object_get(j, "steps"), 0);
    cr_assert_str_eq(json_string_value(json_object_get(j, "result")), "interrupted");
    cr_assert(json_is_true(json_object_get(s0, "partial")));
    json_int_t blocks = json_integer_value(json_object_get(s0, "blocks"));
    cr_assert(blocks >= 2 && blocks < 6, "%lld rounds", (long long)blocks);
    double ratio = json_real_value(json_object_get(json_object_get(s0, "span"), "ratio"));
    cr_assert(isfinite(ratio) && ratio > 1.0, "BAD/GOOD %g", ratio);
    json_decref(j);
    e2e_free(&r);
}

Test(e2e_partial, a_bisect_interrupted_in_a_step_reports_the_commit_against_both_ends) {
    commits(8, 5);
    e2e_proc p = {0};
    start_bisect(&p);
    /* Step 1 begins (said on stderr); then one round of G M B and a block more. */
    long at_step = -1;
    for (int waited = 0; at_step < 0; waited += 2) {
        cr_assert_lt(waited, 120000, "step 1 did not begin in 2 min");
        char *err = NULL;
        long before = blocks_started();
        if (br_read_file(&err, NULL, p.err_path, 1 << 20) == 0 && strstr(err, "step 1 of about"))
            at_step = before;
        free(err);
        sleep_ms(2);
    }
    wait_blocks(at_step + 4);
    cr_assert_eq(kill(p.pid, SIGINT), 0);
    e2e_result r;
    e2e_finish(&p, &r);
    cr_assert_eq(r.status, 130, "exit %d\n%s%s", r.status, r.out, r.err);
    cr_assert(strstr(r.out, "interrupted (partial)"), "%s", r.out);
    json_t *j = load_json(), *s1 = json_array_get(json_object_get(j, "steps"), 1);
    cr_assert_not_null(s1, "%s", r.out);
    cr_assert_str_eq(json_string_value(json_object_get(s1, "class")), "interrupted");
    cr_assert(json_is_true(json_object_get(s1, "partial")), "%s", r.out);
    cr_assert_geq(json_integer_value(json_object_get(s1, "blocks")), 1);
    for (int k = 0; k < 2; k++) {
        json_t *x = json_object_get(s1, k ? "to_bad" : "to_good");
        double v = json_real_value(json_object_get(x, "ratio"));
        cr_assert(isfinite(v) && v > 0, "%s: %g\n%s", k ? "to_bad" : "to_good", v, r.out);
    }
    json_decref(j);
    e2e_free(&r);
}
