/* SPDX-License-Identifier: Apache-2.0 */
/* test_e2e_namespaces.c - many writers, one folder: benchrun runs in
 * separate PID namespaces (`unshare --pid --fork --mount-proc`, standing in
 * for containers, whose processes share PIDs) share one results folder and
 * one compile cache, and lose nothing: every run writes its --json file and
 * its --results-dir file whole, and no build fails (before: a writer swept
 * another container's temporary file as dead, and shards overwrote each
 * other's compile temporaries named by PID alone).
 *
 * Three phases of 20 trials, each trial 4 runs at once, each in a namespace
 * of its own, on host kernels; each phase is a test in a folder of its own
 * (Criterion runs them at once):
 *   - cold: the compile cache is emptied before every trial, so the 4 build
 *     the same key at once;
 *   - warm: the cache is kept;
 *   - planted: warm (its first trial compiles), with the temporary files of live writers planted in
 *     the results folder and the cache (one made in a namespace of its own
 *     by a process that lives through the phase, one of the older form
 *     named by that process's PID), which must all still be there.
 * Needs unshare(1) and the right to make PID namespaces (root; CI runs as
 * root): without them the test skips, saying why. */
#include <criterion/criterion.h>

#include <errno.h>
#include <glob.h>
#include <signal.h>
#include <sys/stat.h>

#include "base/error.h"
#include "base/tmp.h"
#include "e2e_util.h"
#include "model/run.h"
#include "results/run_read.h"

#define OK_SUITE BR_FIXTURES_DIR "/e2e/ok.yaml"
#define TRIALS   20
#define WRITERS  4

TestSuite(e2e_namespaces, .init = e2e_tmp_make, .fini = e2e_tmp_drop, .timeout = 900);

/* Start `sh -c cmd`; returns its pid. */
static pid_t start_sh(const char *cmd) {
    pid_t pid;
    char *argv[] = {"sh", "-c", (char *)cmd, NULL};
    cr_assert_eq(posix_spawn(&pid, "/bin/sh", NULL, NULL, argv, environ), 0);
    return pid;
}

static int wait_status(pid_t pid) {
    int st;
    if (waitpid(pid, &st, 0) != pid)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Whether this process may make PID namespaces with unshare(1). */
static int unshare_works(void) {
    return wait_status(start_sh("unshare --pid --fork --mount-proc true >/dev/null 2>&1")) == 0;
}

/* How many files match pattern. */
static size_t count(const char *pattern) {
    glob_t g;
    size_t n = glob(pattern, 0, NULL, &g) == 0 ? g.gl_pathc : 0;
    globfree(&g);
    return n;
}

/* Every file matching pattern is a results document with one run of the
 * suite's 2 cases; returns how many are not. */
static size_t bad_results(const char *pattern) {
    glob_t g;
    size_t bad = 0;
    if (glob(pattern, 0, NULL, &g) != 0)
        return 0;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        br_run *runs = NULL;
        size_t n = 0;
        if (br_results_load(&runs, &n, g.gl_pathv[i]) != 0 || n != 1 || runs[0].n_cases != 2) {
            bad++;
            cr_log_error("%s: %s", g.gl_pathv[i], n ? "not one run of 2 cases" : br_error_get());
        }
        br_results_free(runs, n);
    }
    globfree(&g);
    return bad;
}

/* One phase: TRIALS trials of WRITERS runs at once into results/ and
 * cache/, each in its own PID namespace. Returns the failed runs. */
static int phase(const char *name, int cold) {
    int failed = 0;
    for (int t = 0; t < TRIALS; t++) {
        if (cold) {
            char *rm = br_strfmt("rm -rf '%s/cache'", tmp);
            cr_assert_eq(wait_status(start_sh(rm)), 0);
            free(rm);
        }
        pid_t pids[WRITERS];
        for (int w = 0; w < WRITERS; w++) {
            char *cmd =
                br_strfmt("unshare --pid --fork --mount-proc '%s' '%s' -q --results-dir "
                          "'%s/results' --json '%s/results/%s-%d-%d.json' --cache-dir "
                          "'%s/cache' > '%s/log-%s-%d-%d' 2>&1",
                          BR_BENCHRUN_EXE, OK_SUITE, tmp, tmp, name, t, w, tmp, tmp, name, t, w);
            pids[w] = start_sh(cmd);
            free(cmd);
        }
        for (int w = 0; w < WRITERS; w++) {
            int st = wait_status(pids[w]);
            if (st != 0) {
                failed++;
                char *log = br_strfmt("%s/log-%s-%d-%d", tmp, name, t, w), *text = NULL;
                br_read_file(&text, NULL, log, 1 << 16);
                cr_log_error("%s trial %d run %d: exit %d:\n%s", name, t, w, st, text ? text : "");
                free(text);
                free(log);
            }
        }
    }
    return failed;
}

/* A live writer's temporary files: a process in a namespace of its own
 * that makes one (the new form, with its own namespace and PID) in each
 * of results/ and cache/ and then sleeps; and one of the older form named
 * by the PID of a live process here. Their paths into planted[0..3). */
static pid_t plant(char *planted[3]) {
    const br_tmp_owner *me = br_tmp_self();
    char *mark = br_strfmt("%s/planted.ready", tmp);
    char *cmd = br_strfmt(
        "exec unshare --pid --fork --kill-child --mount-proc sh -c 'ns=$(stat -L -c %%i "
        "/proc/self/ns/pid); "
        "for d in results cache; do : > %s/$d/.x.json.benchrun-tmp.%s.$ns.$$.0123456789abcdef; "
        "done; : > %s; exec sleep 600' >/dev/null 2>&1",
        tmp, me->host, mark);
    pid_t pid = start_sh(cmd);
    free(cmd);
    for (int i = 0; i < 500 && access(mark, F_OK) != 0; i++)
        usleep(10000);
    cr_assert_eq(access(mark, F_OK), 0, "the live writer did not start");
    free(mark);
    char *pattern = br_strfmt("%s/results/.x.json.benchrun-tmp.*", tmp);
    glob_t g;
    cr_assert_eq(glob(pattern, 0, NULL, &g), 0);
    planted[0] = br_strdup(g.gl_pathv[0]);
    globfree(&g);
    free(pattern);
    pattern = br_strfmt("%s/cache/.x.json.benchrun-tmp.*", tmp);
    cr_assert_eq(glob(pattern, 0, NULL, &g), 0);
    planted[1] = br_strdup(g.gl_pathv[0]);
    globfree(&g);
    free(pattern);
    planted[2] = br_strfmt("%s/results/.other.json.benchrun-tmp.%ld.AbC123", tmp, (long)pid);
    FILE *f = fopen(planted[2], "w");
    cr_assert_not_null(f);
    fclose(f);
    return pid;
}

/* One phase in a folder of its own (cold: the cache emptied before every
 * trial; planted: beside a live writer's temporary files, which must all
 * still be there): no run fails, and results/ holds every run's --json and
 * --results-dir file, whole. */
static void phase_alone(const char *name, int cold, int planted_too) {
    if (!unshare_works())
        cr_skip_test("unshare --pid --fork --mount-proc is not permitted here (it needs root, "
                     "or user namespaces); CI runs it as root");
    char *results = br_strfmt("%s/results", tmp);
    cr_assert_eq(mkdir(results, 0755), 0);
    char *planted[3] = {NULL, NULL, NULL};
    pid_t writer = -1;
    if (planted_too) {
        char *cache = br_strfmt("%s/cache", tmp);
        cr_assert_eq(mkdir(cache, 0755), 0);
        free(cache);
        writer = plant(planted);
    }
    int failed = phase(name, cold);
    for (int i = 0; planted_too && i < 3; i++) {
        cr_expect_eq(access(planted[i], F_OK), 0, "a live writer's temporary file was removed: %s",
                     planted[i]);
        free(planted[i]);
    }
    if (writer > 0) {
        kill(writer, SIGKILL);
        wait_status(writer);
    }
    cr_expect_eq(failed, 0, "%s: %d of %d runs failed", name, failed, TRIALS * WRITERS);
    char *p = br_strfmt("%s/%s-*.json", results, name), *all = br_strfmt("%s/*.json", results);
    cr_expect_eq(count(p), (size_t)TRIALS * WRITERS, "%s: --json files", name);
    size_t files = count(all);
    cr_expect_eq(files, (size_t)2 * TRIALS * WRITERS, "%s: --json and --results-dir files: %zu",
                 name, files);
    cr_expect_eq(bad_results(all), 0);
    cr_log_info("%s: %d runs in separate PID namespaces (%d failed), %zu results files whole", name,
                TRIALS * WRITERS, failed, files);
    free(p);
    free(all);
    free(results);
}

Test(e2e_namespaces, cold_cache_writers_lose_nothing_and_fail_no_build) {
    phase_alone("cold", 1, 0);
}

Test(e2e_namespaces, warm_cache_writers_lose_nothing) {
    phase_alone("warm", 0, 0);
}

Test(e2e_namespaces, writers_beside_a_live_writers_files_leave_them_and_lose_nothing) {
    phase_alone("planted", 0, 1);
}
