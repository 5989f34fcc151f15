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
#include <sys/wait.h>

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
    cr_assert(exists(site, "reduction/NVIDIA_H100_80GB_HBM3/index.html"));
    cr_assert(exists(site, "reduction/NVIDIA_H100_80GB_HBM3/k-0.html"));
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
