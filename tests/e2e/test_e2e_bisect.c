/* SPDX-License-Identifier: Apache-2.0 */
/* End-to-end `benchrun bisect`: a temporary repository made with libgit2
 * holds 16 commits of a host module, each with an unrelated edit (so each
 * commit builds a module of its own), and a 4x slowdown (the kernel reads
 * its input four times; 2x until the H200 machine's host CPU read a 2x
 * commit as good, issue 44) planted at commit 11. Run in the repository, bisect
 * names commit 11 in at most 5 measured steps (step 0 included); with
 * commit 7 not compiling it still does, skipping commit 7 where the search
 * lands on it; with commit 10 not compiling the answer is the range of
 * commits 10 and 11; two cases are searched on their geometric mean; with
 * no change between the ends it exits 0 saying "no change"; a case that
 * fails at an end exits 1; bad input (an unknown
 * commit, GOOD not an ancestor of BAD, the same commit twice, the suite or
 * the source missing at GOOD, no case selected, a -p the suite lacks, bad
 * usage) exits 2 with a message and writes nothing. No scratch checkout is left behind. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "e2e_util.h"
#include "git_repo.h"

static char *repo_dir, *cache_arg, *json_path;
static git_repository *repo;

static void make(void) {
    e2e_tmp_make();
    cr_assert_geq(git_libgit2_init(), 1);
    repo_dir = br_strfmt("%s/repo", tmp);
    cache_arg = br_strfmt("--cache-dir=%s/cache", tmp);
    json_path = br_strfmt("%s/out.json", tmp);
    cr_assert_eq(mkdir(repo_dir, 0755), 0);
    repo = gr_init(repo_dir);
    unsetenv("NO_COLOR");
}

static void drop(void) {
    git_repository_free(repo);
    git_libgit2_shutdown();
    free(repo_dir);
    free(cache_arg);
    free(json_path);
    e2e_tmp_drop();
}

TestSuite(e2e_bisect, .init = make, .fini = drop, .timeout = 300);

/* The suite: kernel sum at n = 2^16, short measurements. */
static void write_suite(void) {
    gr_write(repo_dir, "suite.yaml",
             "name: bisecttest\n"
             "source: k.c\n"
             "kernels: [sum]\n"
             "params:\n  n: [65536]\n"
             "metric: GB/s\n"
             "bytes: 4 * n\n"
             "cache: warm\n"
             "warmup: 1ms\n"
             "measure:\n  min_samples: 5\n  min_time: 2ms\n  max_noise: 50%\n"
             "  timeout: 200ms\n");
}

/* The module at commit `edit` (gr_sum_kernel): kernel sum reads its input
 * `passes` times; `broken` adds a line that does not compile; `wrong` makes
 * verify fail. */
static void write_kernel(int edit, int passes, int broken, int wrong) {
    char head[32];
    snprintf(head, sizeof head, "edit %d", edit);
    char *text = gr_sum_kernel(head, passes, "", wrong ? " + 1" : "", "",
                               broken ? "this does not compile\n" : "");
    gr_write(repo_dir, "k.c", text);
    free(text);
}

/* Commits 1..n ("commit i"): the kernel four times as slow from `slow_at` on
 * (0: never), commit `broken` not compiling (0: none). */
static void commits(int n, int slow_at, int broken) {
    write_suite();
    for (int i = 1; i <= n; i++) {
        write_kernel(i, slow_at && i >= slow_at ? 4 : 1, i == broken, 0);
        char msg[32];
        snprintf(msg, sizeof msg, "commit %d", i);
        gr_commit_all(repo, msg);
    }
}

/* The scratch directories are gone: tmp/cache/bisect holds nothing. */
static void assert_no_scratch(void) {
    char *dir = br_strfmt("%s/cache/bisect", tmp);
    e2e_assert_empty_dir(dir);
    free(dir);
}

static json_t *load_json(void) {
    json_error_t err;
    json_t *j = json_load_file(json_path, 0, &err);
    cr_assert_not_null(j, "%s is not valid JSON: %s (line %d)", json_path, err.text, err.line);
    return j;
}

static const char *jstr(json_t *o, const char *key) {
    const char *s = json_string_value(json_object_get(o, key));
    cr_assert_not_null(s, "no string '%s'", key);
    return s;
}

/* benchrun bisect --json OUT [extra] GOOD BAD suite.yaml in the repository. */
static void bisect(e2e_result *r, const char *good, const char *bad, const char *extra) {
    const char *args[] = {"bisect", cache_arg,    "--json", json_path, good,
                          bad,      "suite.yaml", extra,    NULL};
    cr_assert_eq(e2e_run(r, repo_dir, args), 0);
}

/* How many steps of the JSON measured blocks. */
static size_t measured_steps(json_t *doc) {
    json_t *steps = json_object_get(doc, "steps");
    size_t n = 0;
    for (size_t k = 0; k < json_array_size(steps); k++)
        n += json_integer_value(json_object_get(json_array_get(steps, k), "blocks")) > 0;
    return n;
}

/* The search from GOOD to BAD named commit 11 (`rev11`) with its step's
 * ratio; returns the document (caller frees). */
static json_t *expect_found(const e2e_result *r, const char *rev11) {
    cr_assert_eq(r->status, 0, "exit %d\nstdout:\n%s\nstderr:\n%s", r->status, r->out, r->err);
    char sha[41];
    gr_sha_of(repo, sha, rev11);
    json_t *doc = load_json();
    cr_assert_str_eq(jstr(doc, "result"), "found", "%s", r->out);
    cr_assert_str_eq(jstr(doc, "change"), "slower");
    json_t *first = json_object_get(doc, "first_bad");
    cr_assert_str_eq(jstr(first, "sha"), sha, "stdout:\n%s", r->out);
    cr_assert_str_eq(jstr(first, "subject"), "commit 11");
    cr_assert_str_eq(jstr(json_object_get(doc, "last_good"), "subject"), "commit 10");
    json_t *step = json_object_get(doc, "step");
    double ratio = json_real_value(json_object_get(step, "ratio"));
    double low = json_real_value(json_object_get(step, "low"));
    double high = json_real_value(json_object_get(step, "high"));
    /* A slowdown, the interval excluding 1 (its width is this shared CPU's noise). */
    cr_assert(ratio > 1.2 && low > 1 && low <= ratio && ratio <= high, "step %g [%g, %g]", ratio,
              low, high);
    char *line = br_strfmt("first slower commit: %.7s", sha);
    cr_assert(strstr(r->out, line), "stdout lacks '%s':\n%s", line, r->out);
    cr_assert(strstr(r->out, "\"commit 11\""), "%s", r->out);
    free(line);
    return doc;
}

Test(e2e_bisect, a_slowdown_at_commit_11_is_found_in_at_most_5_measured_steps) {
    commits(16, 11, 0);
    e2e_result r;
    bisect(&r, "HEAD~15", "HEAD", NULL);
    json_t *doc = expect_found(&r, "HEAD~5");
    size_t steps = measured_steps(doc);
    cr_assert(steps >= 2 && steps <= 5, "%zu measured steps\n%s", steps, r.out);
    /* The table has a row per step; the progress says step k of about 4 and the commits left. */
    cr_assert(strstr(r.out, "BAD/GOOD: slower"), "%s", r.out);
    cr_assert(strstr(r.err, "step 1 of about 4: "), "%s", r.err);
    cr_assert(strstr(r.err, ", 15 commits left"), "%s", r.err);
    /* Every commit of the line is in the document, GOOD first. */
    json_t *list = json_object_get(doc, "commits");
    cr_assert_eq(json_array_size(list), 16);
    cr_assert_str_eq(jstr(json_array_get(list, 0), "state"), "good");
    cr_assert_str_eq(jstr(json_array_get(list, 15), "state"), "bad");
    json_decref(doc);
    assert_no_scratch();
    cr_assert_eq(gr_status_count(repo), 0, "the repository was left as it was");
    e2e_free(&r);
}

Test(e2e_bisect, a_commit_that_does_not_compile_is_skipped) {
    commits(16, 11, 7);
    e2e_result r;
    bisect(&r, "HEAD~15", "HEAD", NULL);
    json_t *doc = expect_found(&r, "HEAD~5");
    cr_assert_leq(measured_steps(doc), 5);
    json_decref(doc);
    e2e_free(&r);
    /* From commit 1 to commit 14 the first midpoint is commit 7. */
    bisect(&r, "HEAD~15", "HEAD~2", NULL);
    doc = expect_found(&r, "HEAD~5");
    json_t *s1 = json_array_get(json_object_get(doc, "steps"), 1);
    cr_assert_str_eq(jstr(json_object_get(s1, "mid"), "subject"), "commit 7");
    cr_assert_str_eq(jstr(s1, "class"), "skipped");
    cr_assert(strstr(jstr(s1, "why"), "compile: "), "%s", jstr(s1, "why"));
    cr_assert_eq(json_integer_value(json_object_get(s1, "blocks")), 0);
    cr_assert(strstr(r.out, "skipped: compile: "), "%s", r.out);
    json_decref(doc);
    assert_no_scratch();
    e2e_free(&r);
}

Test(e2e_bisect, a_skipped_commit_before_the_change_leaves_a_range) {
    commits(16, 11, 10);
    e2e_result r;
    bisect(&r, "HEAD~15", "HEAD", NULL);
    cr_assert_eq(r.status, 0, "exit %d\n%s\n%s", r.status, r.out, r.err);
    json_t *doc = load_json();
    cr_assert_str_eq(jstr(doc, "result"), "range", "%s", r.out);
    cr_assert_str_eq(jstr(json_object_get(doc, "last_good"), "subject"), "commit 9");
    cr_assert_str_eq(jstr(json_object_get(doc, "first_bad"), "subject"), "commit 11");
    cr_assert(strstr(r.out, "the first slower commit is one of these 2"), "%s", r.out);
    cr_assert(strstr(r.out, "\"commit 10\" (skipped)"), "%s", r.out);
    json_decref(doc);
    assert_no_scratch();
    e2e_free(&r);
}

/* Two cases (-p n=[2^15,2^16]): the search follows their geometric mean. */
Test(e2e_bisect, several_cases_are_searched_on_their_geometric_mean) {
    commits(4, 3, 0);
    e2e_result r;
    bisect(&r, "HEAD~3", "HEAD", "--param=n=[32768,65536]");
    cr_assert_eq(r.status, 0, "exit %d\n%s\n%s", r.status, r.out, r.err);
    cr_assert(strstr(r.err, "2 cases: the search follows the geometric mean of their times"), "%s",
              r.err);
    json_t *doc = load_json();
    cr_assert_str_eq(jstr(doc, "result"), "found", "%s", r.out);
    cr_assert_str_eq(jstr(json_object_get(doc, "first_bad"), "subject"), "commit 3");
    json_t *cases = json_object_get(doc, "cases");
    cr_assert_eq(json_array_size(cases), 2);
    cr_assert_str_eq(json_string_value(json_array_get(cases, 0)), "sum n=2^15");
    cr_assert_str_eq(json_string_value(json_array_get(cases, 1)), "sum n=2^16");
    json_decref(doc);
    assert_no_scratch();
    e2e_free(&r);
}

/* No change: the threshold is wide, as in ab's tests (this CPU is shared
 * by other jobs; what is tested is the answer, not the noise). */
Test(e2e_bisect, no_change_between_the_ends_exits_0) {
    commits(5, 0, 0);
    e2e_result r;
    bisect(&r, "HEAD~4", "HEAD", "--threshold=10%");
    cr_assert_eq(r.status, 0, "exit %d\n%s\n%s", r.status, r.out, r.err);
    cr_assert(strstr(r.out, "no change between GOOD "), "%s", r.out);
    json_t *doc = load_json();
    cr_assert_str_eq(jstr(doc, "result"), "no change");
    cr_assert(json_is_null(json_object_get(doc, "first_bad")));
    cr_assert_eq(json_array_size(json_object_get(doc, "steps")), 1);
    json_decref(doc);
    assert_no_scratch();
    e2e_free(&r);
}

Test(e2e_bisect, a_case_that_fails_at_an_end_exits_1) {
    write_suite();
    write_kernel(1, 1, 0, 1);
    gr_commit_all(repo, "wrong");
    write_kernel(2, 1, 0, 0);
    gr_commit_all(repo, "right");
    e2e_result r;
    bisect(&r, "HEAD~1", "HEAD", NULL);
    cr_assert_eq(r.status, 1, "exit %d\n%s\n%s", r.status, r.out, r.err);
    cr_assert(strstr(r.err, "benchrun bisect: the case fails at GOOD ("), "%s", r.err);
    cr_assert(strstr(r.err, "wrong sum"), "%s", r.err);
    struct stat st;
    cr_assert_neq(stat(json_path, &st), 0, "%s was written", json_path);
    assert_no_scratch();
    e2e_free(&r);
}

/* benchrun bisect [extra] GOOD BAD must exit 2 saying `says`, print
 * nothing on stdout, write no JSON and leave no checkout. */
static void expect_bad(const char *good, const char *bad, const char *extra, const char *says) {
    e2e_result r;
    bisect(&r, good, bad, extra);
    cr_assert_eq(r.status, 2, "exit %d\nstderr:\n%s", r.status, r.err);
    cr_assert(strstr(r.err, says), "stderr lacks '%s':\n%s", says, r.err);
    cr_assert_str_eq(r.out, "", "stdout:\n%s", r.out);
    struct stat st;
    cr_assert_neq(stat(json_path, &st), 0, "%s was written", json_path);
    assert_no_scratch();
    e2e_free(&r);
}

Test(e2e_bisect, bad_input_exits_2_and_writes_nothing) {
    gr_write(repo_dir, "README", "nothing yet\n");
    gr_commit_all(repo, "no suite");
    write_suite();
    gr_commit_all(repo, "the suite, not yet its source");
    commits(3, 0, 0);
    expect_bad("no-such-branch", "HEAD", NULL,
               "benchrun bisect: no-such-branch: no such commit in ");
    expect_bad("HEAD~2", "nope", NULL, "benchrun bisect: nope: no such commit in ");
    expect_bad("HEAD", "HEAD~2", NULL, "benchrun bisect: GOOD HEAD (");
    expect_bad("HEAD", "HEAD~2", NULL, ") is not an ancestor of BAD HEAD~2 (");
    expect_bad("HEAD", "HEAD", NULL, "GOOD and BAD are the same commit");
    expect_bad("HEAD~4", "HEAD", NULL, "GOOD HEAD~4 (");
    expect_bad("HEAD~4", "HEAD", NULL, "HEAD~4:suite.yaml: no such file at this commit");
    expect_bad("HEAD~3", "HEAD", NULL, "HEAD~3:suite.yaml:2:9: source 'k.c' does not exist");
    expect_bad("HEAD~2", "HEAD", "--kernel=nosuch",
               "suite.yaml: no kernel of the suite matches the -k pattern(s) given");
    expect_bad("HEAD~2", "HEAD", "--param=m=4", "-p m: the suite at GOOD has no parameter 'm'");
    /* Usage. */
    expect_bad("HEAD~2", "HEAD", "--blocks=3", "--blocks expects an even number from 2 to");
    expect_bad("HEAD~2", "HEAD", "--max-blocks=2",
               "benchrun bisect: --max-blocks 2 is below --blocks 6");
    const char *two[] = {"bisect", "HEAD", "suite.yaml", NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, repo_dir, two), 0);
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "'suite.yaml' is a suite file: give GOOD and BAD first"), "%s", r.err);
    e2e_free(&r);
}
