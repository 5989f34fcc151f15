/* SPDX-License-Identifier: Apache-2.0 */
/* test_publish.c - `benchrun publish` from end to end: a generated history
 * (30 runs with planted steps, tests/reporters/history_fixture.h) written as
 * a site and replaced whole by a second publish; bad input (a truncated
 * file, a foreign JSON file, another suite's file) skipped with a message
 * each and the rest published; a directory publish did not write never
 * replaced; and the site opened in a real browser (Debian's chromium driven
 * by playwright-core from npm: tests/fixtures/site/browse.js), which skips,
 * saying why, where either is missing (scripts/ci/site.sh provides both). */
#include <criterion/criterion.h>

#include <dirent.h>
#include <glob.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>

#include "base/tmp.h"
#include "reporters/history_fixture.h"

TestSuite(publish, .init = history_init, .fini = history_fini, .timeout = 240);

static void text_file(const char *dir, const char *name, const char *text) {
    char *p = br_path_join(dir, name);
    FILE *f = fopen(p, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    cr_assert_eq(fclose(f), 0);
    free(p);
}

static size_t count_of(const char *text, const char *needle) {
    size_t n = 0;
    for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

static int exists(const char *dir, const char *name) {
    char *p = br_path_join(dir, name);
    int ok = access(p, F_OK) == 0;
    free(p);
    return ok;
}

/* How many paths under dir match the glob pattern. */
static size_t matches(const char *dir, const char *pattern) {
    char *p = br_path_join(dir, pattern);
    glob_t g;
    size_t n = glob(p, 0, NULL, &g) == 0 ? g.gl_pathc : 0;
    globfree(&g);
    free(p);
    return n;
}

static void publish_ok(e2e_result *r, const char *dir, const char *site) {
    const char *args[] = {"publish", dir, "-o", site, NULL};
    cr_assert_eq(e2e_run(r, NULL, args), 0);
    cr_assert_eq(r->status, 0, "%s", r->err);
}

Test(publish, writes_the_site_and_replaces_it_whole) {
    char *dir = step_history_dir(), *site = br_path_join(tmp, "site");
    e2e_result r;
    publish_ok(&r, dir, site);
    cr_assert(strstr(r.err, "benchrun publish: wrote "), "%s", r.err);
    cr_assert(strstr(r.err, "3 change points"), "%s", r.err);
    e2e_free(&r);
    cr_assert(exists(site, "index.html") && exists(site, ".benchrun-site"));
    cr_assert(matches(site, "reduction-*/NVIDIA_H100_80GB_HBM3-*/index.html") == 1);
    cr_assert(matches(site, "reduction-*/NVIDIA_H100_80GB_HBM3-*/k-0.html") == 1);
    char *front = br_path_join(site, "index.html"), *text = slurp(front);
    cr_assert(strstr(text, "reduction") && strstr(text, "NVIDIA H100 80GB HBM3"), "%s", text);
    cr_assert_null(strstr(text, "https://"), "loads from the network: %s", text);
    free(text);
    /* A second publish replaces the site whole: what was added goes. */
    text_file(site, "stale.html", "old");
    publish_ok(&r, dir, site);
    e2e_free(&r);
    cr_assert(!exists(site, "stale.html") && exists(site, "index.html"));
    /* Nothing is left beside it. */
    DIR *d = opendir(tmp);
    struct dirent *e;
    while ((e = readdir(d)))
        cr_assert_null(strstr(e->d_name, "site."), "left behind: %s", e->d_name);
    closedir(d);
    free(front);
    free(site);
    free(dir);
}

Test(publish, skips_bad_files_with_a_message_each) {
    char *dir = step_history_dir(), *site = br_path_join(tmp, "site");
    text_file(dir, "truncated.json", "{\"schema_version\": 4, \"runs\": [{\"suite\":");
    text_file(dir, "package.json", "{\"name\": \"left-pad\", \"version\": \"1.3.0\"}\n");
    br_run lat[2];
    build_latency_history(lat);
    write_doc(dir, "latency.json", lat, 2);
    br_run_dispose(&lat[0]);
    br_run_dispose(&lat[1]);
    e2e_result r;
    const char *args[] = {"publish", dir, "-o", site, "--suite", "reduction", NULL};
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 0, "%s", r.err);
    char *want[] = {br_strfmt("%s/truncated.json: ", dir), br_strfmt("%s/package.json: ", dir),
                    br_strfmt("%s/latency.json: runs of suite 'latency', not 'reduction' "
                              "(skipped)",
                              dir)};
    for (size_t i = 0; i < 3; i++) {
        cr_assert(strstr(r.err, want[i]), "no '%s' in:\n%s", want[i], r.err);
        free(want[i]);
    }
    cr_assert_eq(count_of(r.err, "(skipped)\n"), 3, "%s", r.err);
    cr_assert(strstr(r.err, "(1 suite, 1 device, 5 cases, 3 change points)"), "%s", r.err);
    char *front = br_path_join(site, "index.html"), *text = slurp(front);
    cr_assert(strstr(text, "Skipped files (3)"), "%s", text);
    free(text);
    free(front);
    e2e_free(&r);
    free(site);
    free(dir);
}

Test(publish, never_replaces_a_directory_it_did_not_write) {
    char *dir = step_history_dir(), *site = br_path_join(tmp, "mine");
    cr_assert_eq(mkdir(site, 0755), 0);
    text_file(site, "notes.txt", "keep me");
    e2e_result r;
    const char *args[] = {"publish", dir, "-o", site, NULL};
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 2, "%s", r.err);
    cr_assert(strstr(r.err, "exists and is not a site benchrun publish wrote"), "%s", r.err);
    cr_assert(exists(site, "notes.txt") && !exists(site, "index.html"));
    e2e_free(&r);
    const char *usage[] = {"publish", dir, NULL};
    cr_assert_eq(e2e_run(&r, NULL, usage), 0);
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "-o SITE is required"), "%s", r.err);
    e2e_free(&r);
    free(site);
    free(dir);
}

/* The browser: BR_CHROMIUM, else chromium on PATH. */
static const char *chromium(void) {
    const char *e = getenv("BR_CHROMIUM");
    if (e && *e)
        return e;
    static const char *const paths[] = {"/usr/bin/chromium", "/usr/bin/chromium-browser"};
    for (size_t i = 0; i < 2; i++)
        if (access(paths[i], X_OK) == 0)
            return paths[i];
    return NULL;
}

Test(publish, in_a_real_browser) {
    const char *exe = chromium();
    if (!exe)
        cr_skip_test("no chromium (apt-get install chromium; scripts/ci/site.sh): the site is not "
                     "opened in a browser");
    if (system("node -e \"require('playwright-core')\" >/dev/null 2>&1") != 0)
        cr_skip_test("node cannot load playwright-core (npm install playwright-core, on "
                     "NODE_PATH; scripts/ci/site.sh): the site is not opened in a browser");
    if (!br_history_have_gnuplot())
        cr_skip_test("gnuplot is not installed: the site has no charts to check");
    char *dir = step_history_dir(), *site = br_path_join(tmp, "site");
    e2e_result r;
    publish_ok(&r, dir, site);
    e2e_free(&r);
    /* reduce_warp n=2^24 is 3% slower from run 17 on: position 16. */
    const char *shots = getenv("BR_SITE_SHOTS");
    char *cmd = br_strfmt("node '%s/site/browse.js' '%s' '%s' reduce_warp 'n=2^24' 16 %s%s%s 2>&1",
                          BR_FIXTURES_DIR, site, exe, shots ? "'" : "", shots ? shots : "",
                          shots ? "'" : "");
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    char out[8192];
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s", out);
    cr_assert(strstr(out, "browse: ok: "), "%s", out);
    cr_log_info("%s", out);
    free(cmd);
    free(site);
    free(dir);
}

/* Suites (and devices) whose names differ only in punctuation get folders
 * of their own: the readable name and a short hash of the name beside it
 * (before: "ax py" and "ax_py" wrote one folder, the one over the other). */
Test(publish, names_that_differ_in_punctuation_get_folders_of_their_own) {
    char *dir = br_path_join(tmp, "runs"), *site = br_path_join(tmp, "site");
    cr_assert_eq(mkdir(dir, 0755), 0);
    const char *names[] = {"ax py", "ax_py"};
    for (size_t k = 0; k < 2; k++)
        for (size_t i = 1; i <= 3; i++) {
            br_run r;
            step_run(&r, i);
            free(r.suite_name);
            r.suite_name = strdup(names[k]);
            char file[64];
            snprintf(file, sizeof file, "%zu-%zu.json", k, i);
            write_doc(dir, file, &r, 1);
            br_run_dispose(&r);
        }
    e2e_result r;
    publish_ok(&r, dir, site);
    cr_assert(strstr(r.err, "2 suites, 2 devices"), "%s", r.err);
    e2e_free(&r);
    cr_assert_eq(matches(site, "ax_py-*/*/index.html"), 2, "the two suites share a folder");
    glob_t g;
    char *pattern = br_path_join(site, "ax_py-*/*/index.html");
    cr_assert_eq(glob(pattern, 0, NULL, &g), 0);
    char *a = slurp(g.gl_pathv[0]), *b = slurp(g.gl_pathv[1]);
    cr_assert(a && b);
    int a_space = strstr(a, "ax py") != NULL, b_space = strstr(b, "ax py") != NULL;
    cr_expect_neq(a_space, b_space, "each folder's page names its own suite");
    free(a);
    free(b);
    globfree(&g);
    free(pattern);
    free(site);
    free(dir);
}

/* -o SITE/ is SITE: the site is written and replaced as without the slash. */
Test(publish, a_trailing_slash_on_the_site_is_accepted) {
    char *dir = step_history_dir(), *site = br_strfmt("%s/site/", tmp);
    e2e_result r;
    for (int i = 0; i < 2; i++) {
        publish_ok(&r, dir, site);
        e2e_free(&r);
    }
    cr_assert(exists(site, "index.html") && exists(site, ".benchrun-site"));
    cr_assert_eq(matches(site, ".*benchrun-tmp*"), 0, "a temporary folder inside the site");
    cr_assert_eq(matches(tmp, ".site.benchrun-tmp*"), 0, "a temporary folder beside the site");
    free(site);
    free(dir);
}

/* --against COMMIT that matches no run is refused, and nothing is written
 * (before: silently ignored). */
Test(publish, against_a_commit_of_no_run_is_refused) {
    char *dir = step_history_dir(), *site = br_path_join(tmp, "site");
    const char *args[] = {"publish", dir, "-o", site, "--against", "deadbeef", NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_expect_eq(r.status, 2, "%s", r.err);
    cr_expect(strstr(r.err, "--against deadbeef: no run in"), "%s", r.err);
    cr_expect(!exists(site, "index.html"));
    e2e_free(&r);
    char sha[41];
    step_sha(sha, 12);
    sha[9] = '\0';
    const char *ok[] = {"publish", dir, "-o", site, "--against", sha, NULL};
    cr_assert_eq(e2e_run(&r, NULL, ok), 0);
    cr_expect_eq(r.status, 0, "--against a run's commit: %s", r.err);
    e2e_free(&r);
    free(site);
    free(dir);
}

/* A results file over the limit (1 GiB), or one that cannot be read, is
 * skipped with a message and the rest published (before: publish
 * published nothing). */
Test(publish, an_oversized_or_unreadable_file_is_skipped_and_the_rest_published) {
    char *dir = step_history_dir(), *site = br_path_join(tmp, "site");
    char *huge = br_path_join(dir, "huge.json");
    cr_assert_eq(truncate(huge, 0), -1); /* not there yet */
    FILE *f = fopen(huge, "w");
    cr_assert_not_null(f);
    fclose(f);
    cr_assert_eq(truncate(huge, ((off_t)1 << 30) + 4096), 0); /* sparse */
    e2e_result r;
    publish_ok(&r, dir, site);
    cr_expect(strstr(r.err, "huge.json: file is larger than the limit"), "%s", r.err);
    cr_expect(strstr(r.err, "(skipped)"), "%s", r.err);
    cr_expect(strstr(r.err, "3 change points"), "the rest was not published: %s", r.err);
    e2e_free(&r);
    unlink(huge);
    if (geteuid() != 0) {
        cr_log_info("the unreadable case needs root (to make a file another user cannot read)");
    } else {
        /* A file root made 0600, read by another user. */
        char *secret = br_path_join(dir, "secret.json");
        f = fopen(secret, "w");
        cr_assert_not_null(f);
        fputs("{}", f);
        fclose(f);
        cr_assert_eq(chmod(secret, 0600), 0);
        cr_assert_eq(chmod(tmp, 0777), 0);
        cr_assert_eq(chmod(dir, 0777), 0);
        char *site2 = br_path_join(tmp, "site2");
        pid_t pid = fork();
        if (pid == 0) {
            if (setgid(65534) != 0 || setuid(65534) != 0)
                _exit(3);
            const char *args[] = {"publish", dir, "-o", site2, NULL};
            e2e_result c = {0};
            if (e2e_run(&c, "/", args) != 0)
                _exit(4);
            int ok = c.status == 0 &&
                     strstr(c.err, "secret.json: cannot open: Permission denied") &&
                     strstr(c.err, "3 change points");
            if (!ok)
                fprintf(stderr, "exit %d:\n%s", c.status, c.err);
            _exit(ok ? 0 : 1);
        }
        int st;
        waitpid(pid, &st, 0);
        cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0, "unreadable file: status %d", st);
        free(secret);
        free(site2);
    }
    free(huge);
    free(site);
    free(dir);
}

static void age(const char *path, time_t seconds) {
    struct timeval tv[2];
    gettimeofday(&tv[0], NULL);
    tv[0].tv_sec -= seconds;
    tv[1] = tv[0];
    cr_assert_eq(utimes(path, tv), 0);
}

/* Publish removes the temporary folders of earlier runs that were killed,
 * by the rules of base/tmp.h (ours and the process gone; older than a day
 * and not locked; the older form "SITE.tmp-XXXXXX" by age alone), says so
 * at -v, and keeps what may be alive. */
Test(publish, removes_the_temporary_folders_of_killed_runs_and_keeps_the_live) {
    char *dir = step_history_dir(), *site = br_path_join(tmp, "site");
    /* A publish killed while it writes: its folder is ours, its process gone. */
    /* Killed as soon as its temporary folder appears. */
    char *cmd =
        br_strfmt("'%s' publish '%s' -o '%s' 2>/dev/null & p=$!; i=0; while [ $i -lt 20000 ] "
                  "&& ! ls -d '%s'/.site.benchrun-tmp.* >/dev/null 2>&1; do i=$((i+1)); "
                  "done; kill -9 $p 2>/dev/null; { wait $p; } 2>/dev/null",
                  BR_BENCHRUN_EXE, dir, site, tmp);
    int rc = system(cmd);
    (void)rc;
    free(cmd);
    int left = matches(tmp, ".site.benchrun-tmp.*") > 0;
    const br_tmp_owner *me = br_tmp_self();
    char *live = br_strfmt("%s/.site.benchrun-tmp.%s.%llu.%ld.0123456789abcdef", tmp, me->host,
                           me->ns, (long)getppid());
    char *old_form = br_strfmt("%s/site.tmp-AbC123", tmp),
         *young = br_strfmt("%s/site.tmp-Yng123", tmp);
    cr_assert_eq(mkdir(live, 0755), 0);
    cr_assert_eq(mkdir(old_form, 0755), 0);
    cr_assert_eq(mkdir(young, 0755), 0);
    age(old_form, 2 * 24 * 3600);
    e2e_result r;
    const char *args[] = {"-v", "publish", dir, "-o", site, NULL};
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 0, "%s", r.err);
    if (left)
        cr_expect(strstr(r.err, "(ours, process gone)"), "%s", r.err);
    else
        cr_log_info("the publish ended before it could be killed: only the planted folders");
    cr_expect(strstr(r.err, "site.tmp-AbC123 (stale: older than a day)"), "%s", r.err);
    cr_expect_eq(matches(tmp, ".site.benchrun-tmp.*"), 1, "only the live writer's folder stays");
    cr_expect(access(live, F_OK) == 0, "a live writer's folder was removed");
    cr_expect(access(old_form, F_OK) != 0 && access(young, F_OK) == 0);
    e2e_free(&r);
    free(live);
    free(old_form);
    free(young);
    free(site);
    free(dir);
}
