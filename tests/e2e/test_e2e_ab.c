/* SPDX-License-Identifier: Apache-2.0 */
/* End-to-end `benchrun ab`: a host module whose planted slowdown is switched
 * by a commit in a temporary repository made with libgit2. `benchrun ab
 * HEAD~1 suite.yaml` run in the repository finds NEW slower and exits 3; the
 * two builds are told apart (their cache keys, OLD's commit and REV:PATH
 * names in the JSON) and measured alternately (A B B A ...) by one worker
 * (the kernel's setup logs its side and process); A against itself does not
 * exit 3; bad input (an unknown commit, a suite, source or kernel missing
 * at OLD) exits 2 with a message and writes nothing. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdlib.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "e2e_util.h"
#include "git_repo.h"
#include "platform/device.h"

static char *repo_dir, *cache_arg, *json_path, *log_path;
static git_repository *repo;

static void make(void) {
    e2e_tmp_make();
    cr_assert_geq(git_libgit2_init(), 1);
    repo_dir = br_strfmt("%s/repo", tmp);
    cache_arg = br_strfmt("--cache-dir=%s/cache", tmp);
    json_path = br_strfmt("%s/out.json", tmp);
    log_path = br_strfmt("%s/setup.log", tmp);
    cr_assert_eq(mkdir(repo_dir, 0755), 0);
    repo = gr_init(repo_dir);
    setenv("BR_TEST_AB_LOG", log_path, 1);
    unsetenv("NO_COLOR");
}

static void drop(void) {
    git_repository_free(repo);
    git_libgit2_shutdown();
    free(repo_dir);
    free(cache_arg);
    free(json_path);
    free(log_path);
    e2e_tmp_drop();
}

TestSuite(e2e_ab, .init = make, .fini = drop, .timeout = 240);

/* The suite: `kernels` as given, two small sizes, short measurements. */
static void write_suite(const char *kernels) {
    char *text = br_strfmt("name: abtest\n"
                           "source: k.c\n"
                           "kernels: [%s]\n"
                           "params:\n  n: [1024, 4096]\n"
                           "metric: GB/s\n"
                           "bytes: 4 * n\n"
                           "cache: warm\n"
                           "warmup: 1ms\n"
                           "measure:\n  min_samples: 5\n  min_time: 2ms\n  max_noise: 50%%\n"
                           "  timeout: 200ms\n",
                           kernels);
    gr_write(repo_dir, "suite.yaml", text);
    free(text);
}

/* The module (gr_sum_kernel): kernel `sum` reads its input `passes` times
 * per execution; `extra` adds a second kernel "sum2". Setup appends
 * "<side> <pid>" to $BR_TEST_AB_LOG. */
static void write_kernel(int passes, char side, int extra) {
    char head[16], *setup = br_strfmt("    const char *log = getenv(\"BR_TEST_AB_LOG\");\n"
                                      "    FILE *f = log ? fopen(log, \"a\") : NULL;\n"
                                      "    if (f) { fprintf(f, \"%c %%ld\\n\", (long)getpid()); "
                                      "fclose(f); }\n",
                                      side);
    snprintf(head, sizeof head, "side %c", side);
    char *text = gr_sum_kernel(head, passes, setup, "",
                               extra ? ", {\"sum2\", setup, run, verify, teardown}" : "", "");
    gr_write(repo_dir, "k.c", text);
    free(text);
    free(setup);
}

/* The scratch directories are gone: tmp/cache/ab holds nothing. */
static void assert_no_scratch(void) {
    char *dir = br_strfmt("%s/cache/ab", tmp);
    e2e_assert_empty_dir(dir);
    free(dir);
}

static json_t *load_json(const char *path) {
    json_error_t err;
    json_t *j = json_load_file(path, 0, &err);
    cr_assert_not_null(j, "%s is not valid JSON: %s (line %d)", path, err.text, err.line);
    return j;
}

static const char *jstr(json_t *o, const char *key) {
    const char *s = json_string_value(json_object_get(o, key));
    cr_assert_not_null(s, "no string '%s'", key);
    return s;
}

/* Commit 1: sum reads its input once; commit 2: three times. */
static void two_commits(void) {
    write_suite("sum");
    write_kernel(1, 'A', 0);
    gr_commit_all(repo, "fast");
    write_kernel(3, 'B', 0);
    gr_commit_all(repo, "slow");
}

/* One case's setup log: the sides of its blocks in order, and whether one
 * process ran them all. */
static void check_log(size_t blocks) {
    char *text = NULL;
    cr_assert_eq(br_read_file(&text, NULL, log_path, 1 << 20), 0);
    char sides[64] = "";
    long pid0 = 0;
    size_t n = 0;
    for (char *line = strtok(text, "\n"); line && n < 2 * blocks; line = strtok(NULL, "\n")) {
        char side;
        long pid;
        cr_assert_eq(sscanf(line, "%c %ld", &side, &pid), 2, "log line '%s'", line);
        if (n == 0)
            pid0 = pid;
        cr_assert_eq(pid, pid0, "block %zu of the first case ran in another process", n + 1);
        sides[n++] = side;
    }
    cr_assert_str_eq(sides, "ABBAABBA", "the first case's blocks ran in the order %s", sides);
    free(text);
}

Test(e2e_ab, a_slower_commit_is_caught_and_the_builds_told_apart) {
    two_commits();
    const char *args[] = {"ab",      cache_arg, "--blocks",   "4", "--json",
                          json_path, "HEAD~1",  "suite.yaml", NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, repo_dir, args), 0);
    cr_assert_eq(r.status, 3, "exit %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    cr_assert(strstr(r.out, "NEW/OLD [interval]"), "stdout:\n%s", r.out);
    cr_assert(strstr(r.out, "NEW vs OLD: 2 slower"), "stdout:\n%s", r.out);
    cr_assert(strstr(r.err, "OLD = HEAD~1 ("), "stderr:\n%s", r.err);
    check_log(4);

    char old_sha[41], new_sha[41];
    gr_sha_of(repo, old_sha, "HEAD~1");
    gr_sha_of(repo, new_sha, "HEAD");
    json_t *doc = load_json(json_path);
    json_t *runs = json_object_get(doc, "runs");
    cr_assert_eq(json_array_size(runs), 2);
    json_t *old = json_array_get(runs, 0), *cur = json_array_get(runs, 1);
    cr_assert_str_eq(jstr(json_object_get(old, "git"), "sha"), old_sha);
    cr_assert_str_eq(jstr(json_object_get(cur, "git"), "sha"), new_sha);
    const char *old_suite = jstr(json_object_get(old, "suite"), "path");
    cr_assert(br_has_suffix(old_suite, ":suite.yaml") && strncmp(old_suite, old_sha, 7) == 0,
              "OLD's suite is named %s", old_suite);
    const char *old_src = jstr(json_array_get(json_object_get(old, "kernels"), 0), "source");
    cr_assert(br_has_suffix(old_src, ":k.c"), "OLD's source is named %s", old_src);

    json_t *cmp = json_object_get(cur, "comparison");
    cr_assert(json_is_object(cmp));
    cr_assert_str_eq(jstr(cmp, "baseline"), "HEAD~1");
    json_t *ab = json_object_get(cmp, "ab");
    json_t *om = json_array_get(json_object_get(json_object_get(ab, "old"), "modules"), 0);
    json_t *nm = json_array_get(json_object_get(json_object_get(ab, "new"), "modules"), 0);
    cr_assert_eq(strlen(jstr(om, "key")), 40);
    cr_assert_str_neq(jstr(om, "key"), jstr(nm, "key"), "OLD and NEW built the same object");
    cr_assert_str_eq(jstr(json_object_get(ab, "old"), "commit"), old_sha);
    cr_assert_eq(json_integer_value(json_object_get(ab, "blocks")), 4);
    json_t *cases = json_object_get(cmp, "cases");
    cr_assert_eq(json_array_size(cases), 2);
    for (size_t i = 0; i < 2; i++) {
        json_t *e = json_array_get(cases, i);
        cr_assert_str_eq(jstr(e, "status"), "slower");
        double ratio = json_real_value(json_object_get(e, "ratio"));
        double low = json_real_value(json_object_get(e, "ratio_low"));
        double high = json_real_value(json_object_get(e, "ratio_high"));
        /* 3x the work: the interval excludes 1 and the ratio reads well above
         * it. (Its low end was asserted above 1.5 until the H200 machine's
         * drifting host CPU gave 2.39 [1.33, 4.30] from four blocks.) */
        cr_assert(low > 1.0 && ratio > 1.5 && low <= ratio && ratio <= high, "ratio %g [%g, %g]",
                  ratio, low, high);
        cr_assert_eq(json_array_size(json_object_get(e, "new_block_medians")), 4);
        cr_assert_eq(json_integer_value(json_object_get(e, "pairs")), 4);
    }
    json_decref(doc);
    assert_no_scratch();
    cr_assert_eq(gr_status_count(repo), 0, "the repository was left as it was");
    e2e_free(&r);
}

/* A against itself: HEAD against the work tree (which is HEAD), and HEAD
 * against HEAD. The threshold is wide: this CPU is shared by other jobs,
 * and what is tested is that nothing regresses, not the noise. */
Test(e2e_ab, a_against_itself_is_no_regression) {
    two_commits();
    const char *work[] = {"ab",  cache_arg, "--blocks",   "4", "--threshold",
                          "10%", "HEAD",    "suite.yaml", NULL};
    const char *same[] = {"ab",  cache_arg, "--blocks", "4",          "--threshold",
                          "10%", "HEAD",    "HEAD",     "suite.yaml", NULL};
    const char *const *runs[] = {work, same};
    for (int k = 0; k < 2; k++) {
        e2e_result r;
        cr_assert_eq(e2e_run(&r, repo_dir, runs[k]), 0);
        cr_assert(r.status == 0, "run %d: exit %d\nstdout:\n%s\nstderr:\n%s", k, r.status, r.out,
                  r.err);
        cr_assert(strstr(r.out, "NEW vs OLD: 0 slower"), "stdout:\n%s", r.out);
        e2e_free(&r);
    }
    assert_no_scratch();
}

/* ab's outputs given FIFOs (read by a `cat` started first) and, as root, a
 * null device node made here: written in place, the nodes left as they were
 * (before: a temporary file was renamed over each). */
Test(e2e_ab, outputs_into_fifos_and_devices_are_written_in_place) {
    two_commits();
    const char *flags[] = {"--json", "--markdown", "--gbench"};
    const char *starts[] = {"{", "#", "{"};
    char *node[3], *got[3];
    pid_t reader[3] = {-1, -1, -1};
    int root = geteuid() == 0;
    for (int i = 0; i < 3; i++) {
        node[i] = br_strfmt("%s/out%d", tmp, i);
        got[i] = br_strfmt("%s/out%d.got", tmp, i);
        if (root && i == 1) { /* --markdown into the null device */
            cr_assert_eq(mknod(node[i], S_IFCHR | 0666, makedev(1, 3)), 0, "%s", strerror(errno));
            continue;
        }
        cr_assert_eq(mkfifo(node[i], 0666), 0);
        char *cmd = br_strfmt("exec cat '%s' > '%s'", node[i], got[i]);
        char *argv[] = {"sh", "-c", cmd, NULL};
        cr_assert_eq(posix_spawn(&reader[i], "/bin/sh", NULL, NULL, argv, environ), 0);
        free(cmd);
    }
    const char *args[] = {"ab",     cache_arg, "--blocks",   "2",     "--threshold", "50%",
                          flags[0], node[0],   flags[1],     node[1], flags[2],      node[2],
                          "HEAD",   "HEAD",    "suite.yaml", NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, repo_dir, args), 0);
    cr_expect_eq(r.status, 0, "exit %d\nstderr:\n%s", r.status, r.err);
    for (int i = 0; i < 3; i++) {
        struct stat st;
        cr_assert_eq(lstat(node[i], &st), 0);
        if (reader[i] < 0) {
            cr_expect(S_ISCHR(st.st_mode) && major(st.st_rdev) == 1 && minor(st.st_rdev) == 3,
                      "%s: the device node was replaced", flags[i]);
        } else {
            cr_expect(S_ISFIFO(st.st_mode), "%s: the FIFO was replaced", flags[i]);
            int fd = S_ISFIFO(st.st_mode) ? open(node[i], O_WRONLY | O_NONBLOCK) : -1;
            if (fd >= 0)
                close(fd); /* the reader's end, had benchrun not opened it */
            if (!S_ISFIFO(st.st_mode))
                kill(reader[i], SIGKILL); /* it waits on a FIFO no longer there */
            int status;
            waitpid(reader[i], &status, 0);
            char *text = NULL;
            br_read_file(&text, NULL, got[i], 1 << 26);
            cr_expect(text && strncmp(text, starts[i], 1) == 0, "%s: the reader got '%.40s'",
                      flags[i], text ? text : "(nothing)");
            free(text);
        }
        free(node[i]);
        free(got[i]);
    }
    if (!root)
        cr_log_info("not root: --markdown went to a FIFO, not a device node (mknod needs root)");
    assert_no_scratch();
    e2e_free(&r);
}

/* benchrun ab ARGS... in the repository must exit 2 saying `says`, write no
 * JSON and leave no scratch directory. */
static void expect_bad(const char *rev, const char *says) {
    const char *args[] = {"ab", cache_arg, "--json", json_path, rev, "suite.yaml", NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, repo_dir, args), 0);
    cr_assert_eq(r.status, 2, "exit %d\nstderr:\n%s", r.status, r.err);
    cr_assert(strstr(r.err, says), "stderr lacks '%s':\n%s", says, r.err);
    cr_assert_str_eq(r.out, "", "stdout:\n%s", r.out);
    struct stat st;
    cr_assert_neq(stat(json_path, &st), 0, "%s was written", json_path);
    assert_no_scratch();
    e2e_free(&r);
}

Test(e2e_ab, an_unknown_commit_is_bad_input) {
    two_commits();
    expect_bad("no-such-branch", "benchrun ab: no-such-branch: no such commit in ");
}

Test(e2e_ab, a_suite_missing_at_old_is_bad_input) {
    gr_write(repo_dir, "README", "nothing yet\n");
    gr_commit_all(repo, "empty");
    two_commits();
    expect_bad("HEAD~2", "benchrun ab: HEAD~2:suite.yaml: no such file at HEAD~2 (commit ");
}

Test(e2e_ab, a_source_missing_at_old_is_bad_input) {
    write_suite("sum");
    gr_commit_all(repo, "the suite, not yet its source");
    write_kernel(1, 'A', 0);
    gr_commit_all(repo, "its source");
    expect_bad("HEAD~1", "benchrun ab: HEAD~1:suite.yaml:2:9: source 'k.c' does not exist");
}

Test(e2e_ab, a_kernel_missing_at_old_is_bad_input) {
    two_commits();
    write_suite("sum, sum2");
    write_kernel(3, 'B', 1);
    gr_commit_all(repo, "a second kernel");
    expect_bad("HEAD~1", "kernel 'sum2' is in the suite of the work tree but not in that of "
                         "HEAD~1 (");
}

/* On a machine without a GPU, a suite of a host kernel and a GPU source:
 * the GPU cases are skipped on both sides and, as the baseline gate does,
 * summed up on one "not compared" line and not counted as unknown; the
 * host cases are compared (their verdict, same or unknown, is the noise's:
 * a 1 us host kernel under ASan on the 2-core CI machine read 199%). */
Test(e2e_ab, gpu_cases_skipped_without_a_gpu_are_one_line_not_unknown) {
    char why[512];
    if (br_device_available(why, sizeof why))
        cr_skip_test("this machine has a GPU: its GPU cases are measured");
    char *text = br_strfmt("name: abmixed\n"
                           "source: [k.c, g.cu]\n"
                           "kernels: [sum, gpu_sum]\n"
                           "params:\n  n: [1024, 4096]\n"
                           "metric: GB/s\n"
                           "bytes: 4 * n\n"
                           "cache: warm\n"
                           "warmup: 1ms\n"
                           "measure:\n  min_samples: 5\n  min_time: 2ms\n  max_noise: 50%%\n"
                           "  timeout: 200ms\n");
    gr_write(repo_dir, "suite.yaml", text);
    free(text);
    /* Never compiled here (no GPU): benchrun check would compile it. */
    gr_write(repo_dir, "g.cu", "#include \"benchrun_kernel.h\"\n/* gpu_sum */\n");
    write_kernel(1, 'A', 0);
    gr_commit_all(repo, "mixed");
    const char *args[] = {"ab",     cache_arg, "--blocks", "2",          "--threshold", "50%",
                          "--json", json_path, "HEAD",     "suite.yaml", NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, repo_dir, args), 0);
    cr_assert_eq(r.status, 0, "exit %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    /* One line for the two skipped cases, in the table and the summary. */
    const char *want = "2 cases skipped (no GPU): not compared\n";
    const char *line = strstr(r.out, want);
    cr_assert(line, "stdout:\n%s", r.out);
    cr_assert_null(strstr(line + strlen(want), "skipped (no GPU)"), "said twice:\n%s", r.out);
    cr_assert_null(strstr(r.out, "gpu_sum"), "a skipped GPU case has a row:\nstdout:\n%s", r.out);
    cr_assert(strstr(r.err, "; 2 cases skipped (no GPU): not compared"), "stderr:\n%s", r.err);
    json_t *doc = load_json(json_path);
    json_t *cmp = json_object_get(json_array_get(json_object_get(doc, "runs"), 1), "comparison");
    json_t *counts = json_object_get(cmp, "counts");
    cr_assert_eq(json_integer_value(json_object_get(counts, "unknown")) +
                     json_integer_value(json_object_get(counts, "same")) +
                     json_integer_value(json_object_get(counts, "faster")) +
                     json_integer_value(json_object_get(counts, "slower")),
                 2, "the two host cases are compared, the GPU cases not counted");
    cr_assert_eq(
        json_integer_value(json_object_get(json_object_get(cmp, "not_compared"), "no_gpu")), 2);
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(cmp, "cases"), i, e) {
        int gpu = strcmp(jstr(e, "kernel"), "gpu_sum") == 0;
        json_t *nc = json_object_get(e, "not_compared");
        if (gpu)
            cr_assert_str_eq(json_string_value(nc), "no GPU");
        else
            cr_assert(json_is_null(nc) || !nc, "%s is compared", jstr(e, "kernel"));
    }
    json_decref(doc);
    e2e_free(&r);
}
