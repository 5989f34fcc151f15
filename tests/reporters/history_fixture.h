/* SPDX-License-Identifier: Apache-2.0 */
/* history_fixture.h - what the tests of `benchrun history` share (the
 * model, tests/results/test_history.c; the table and the plot,
 * tests/reporters/test_history_table.c and test_history_plot.c; the
 * command, tests/cli/test_cmd_history.c): the fixture runs and their
 * results files, the golden files, and helpers. Include it once per test
 * program; each declares
 *   TestSuite(history, .init = history_init, .fini = history_fini, .timeout = 120);
 *
 * The results files under tests/fixtures/history/runs/ are written by
 * write_history() below through the json reporter; fixtures_are_current
 * checks that they still are, and BR_UPDATE_GOLDEN=1 rewrites them (and the
 * golden tables). Their story, suite "reduction" (GB/s, n = 2^20 and 2^24)
 * on an H100:
 *   aaaaaaa  commit 1, measured last (file name order is not commit order)
 *   bbbbbbb  commit 2: reduce_cub n=2^24 10% faster; reduce_naive n=2^24 failed
 *   ccccccc  commit 3: reduce_warp n=2^24 20% slower (samples x1.2);
 *            reduce_naive n=2^20 10% slower on 3 samples (cannot tell);
 *            a new kernel reduce_vec
 *   ccccccc·2  a rerun at commit 3: the same again
 * reduce_warp n=2^20 stays the same throughout. One more file holds two runs
 * of suite "latency" (metric none, no git). */
#ifndef BR_TEST_HISTORY_FIXTURE_H
#define BR_TEST_HISTORY_FIXTURE_H

#include <criterion/criterion.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "e2e_util.h"
#include "base/error.h"
#include "reporters/history_plot.h"
#include "reporters/history_table.h"
#include "history/history.h"
#include "plan/plan.h"
#include "reporters/reporter.h"
#include "model/run.h"
#include "results_fixture.h"
#include "base/util.h"
#include "changepoint_series.h"

extern const br_reporter br_reporter_json;

/* PATH as the test started: tests that hide gnuplot change it, and the
 * cleanup needs rm again. */
static char *saved_path;

__attribute__((unused)) static void history_init(void) {
    e2e_tmp_make();
    const char *p = getenv("PATH");
    saved_path = p ? strdup(p) : NULL;
}

__attribute__((unused)) static void history_fini(void) {
    if (saved_path)
        setenv("PATH", saved_path, 1);
    free(saved_path);
    saved_path = NULL;
    e2e_tmp_drop();
}

#define RUNS_DIR  BR_FIXTURES_DIR "/history/runs"
#define HIST_DIR  BR_FIXTURES_DIR "/history"
#define NS        40 /* samples per timing */
#define SHA_A     "aaaaaaa111111111111111111111111111111111"
#define SHA_B     "bbbbbbb222222222222222222222222222222222"
#define SHA_C     "ccccccc333333333333333333333333333333333"
#define T_COMMIT0 1795000000 /* 2026-11-18T11:06:40Z */

/* --- the fixture runs ---------------------------------------------------------------- */

/* NS samples around `center` ns: a deterministic spread of +-1.5%. */
__attribute__((unused)) static void spread(double *out, size_t n, double center) {
    for (size_t i = 0; i < n; i++)
        out[i] = center * (1.0 + 0.015 * (double)((int)((i * 7) % 13) - 6) / 6.0);
}

/* A "reduction" run at commit `sha` (its commit time T_COMMIT0 + `commit`
 * hours) measured at `date`. */
__attribute__((unused)) static void reduction_run(br_run *r, const char *sha, int commit,
                                                  const char *date) {
    const char *params[] = {"n"};
    run_init(r, "reduction", "sum of n float32", BR_METRIC_GBPS, BR_MODE_COLD, params, 1, 16);
    add_kernel(r, "reduce_naive", "kernels/reduce_naive.cu", BR_BACKEND_GPU);
    add_kernel(r, "reduce_warp", "kernels/reduce_warp.cu", BR_BACKEND_GPU);
    add_kernel(r, "reduce_cub", "kernels/reduce_cub.cu", BR_BACKEND_GPU);
    git_commit(&r->git, sha, "main", 0);
    r->git.commit_time = T_COMMIT0 + 3600 * (int64_t)commit;
    snprintf(r->date, sizeof r->date, "%s", date);
    h100(r);
    r->peak_gbps = r->device.peak_gbps;
}

/* Case (kernel, n) with NS cold samples around `ns`. */
__attribute__((unused)) static void timed(br_run *r, size_t kernel, size_t combo, int64_t n,
                                          double ns) {
    double s[NS];
    spread(s, NS, ns);
    br_case_result *c =
        add_case(r, kernel, combo, &n, BR_STATUS_OK, NULL, NULL, 4.0 * (double)n, NAN);
    set_timing(&c->cold, s, NS, 1.0, 1, BR_STOP_NOISE, 1980);
}

/* The four reduction runs: 0 = aaaaaaa, 1 = bbbbbbb, 2 = ccccccc, 3 = ccccccc again. */
__attribute__((unused)) static void build_reduction_history(br_run runs[4]) {
    static const char *const dates[] = {"2026-11-24T09:00:00Z", "2026-11-20T10:00:00Z",
                                        "2026-11-21T10:00:00Z", "2026-11-22T10:00:00Z"};
    static const char *const shas[] = {SHA_A, SHA_B, SHA_C, SHA_C};
    const int64_t n20 = 1 << 20, n24 = 1 << 24;
    for (int k = 0; k < 4; k++) {
        br_run *r = &runs[k];
        int commit = k < 3 ? k : 2;
        reduction_run(r, shas[k], commit, dates[k]);
        if (commit == 2)
            add_kernel(r, "reduce_vec", "kernels/reduce_vec.cu", BR_BACKEND_GPU);
        /* combo 0: n = 2^20 */
        if (commit == 2) {
            /* 10% slower on 3 samples: no test on 3 + 40 samples... the
             * smallest p of 3 against 3 samples is 0.1: "cannot tell". */
            const double few[] = {37400, 37300, 37500};
            br_case_result *c =
                add_case(r, 0, 0, &n20, BR_STATUS_OK, NULL, NULL, 4.0 * (double)n20, NAN);
            set_timing(&c->cold, few, 3, 1.0, 1, BR_STOP_TIMEOUT, 1980);
        } else if (k == 0 || k == 1) {
            const double few[] = {34000, 33900, 34100};
            br_case_result *c =
                add_case(r, 0, 0, &n20, BR_STATUS_OK, NULL, NULL, 4.0 * (double)n20, NAN);
            set_timing(&c->cold, few, 3, 1.0, 1, BR_STOP_TIMEOUT, 1980);
        }
        timed(r, 1, 0, n20, 4100);
        timed(r, 2, 0, n20, 3200);
        if (commit == 2)
            timed(r, 3, 0, n20, 3000);
        /* combo 1: n = 2^24 */
        if (commit == 1)
            add_case(r, 0, 1, &n24, BR_STATUS_FAILED, "verify",
                     "element 1017: got \"nan\", expected 16777216", 4.0 * (double)n24, NAN);
        else
            timed(r, 0, 1, n24, 340000);
        timed(r, 1, 1, n24, commit == 2 ? 41700 * 1.2 : 41700);
        timed(r, 2, 1, n24, commit >= 1 ? 26100 / 1.1 : 26100);
        if (commit == 2)
            timed(r, 3, 1, n24, 25000);
        br_run_derive(r);
    }
}

/* Two runs of "latency" (metric none, no git, no device). */
__attribute__((unused)) static void build_latency_history(br_run runs[2]) {
    for (int k = 0; k < 2; k++) {
        br_run *r = &runs[k];
        run_init(r, "latency", "empty kernels", BR_METRIC_NONE, BR_MODE_COLD, NULL, 0, 2);
        add_kernel(r, "noop_host", "kernels/noop.c", BR_BACKEND_HOST);
        add_kernel(r, "sleep_host", "kernels/sleep.c", BR_BACKEND_HOST);
        snprintf(r->host.cpu_model, sizeof r->host.cpu_model, "AMD EPYC 9654 96-Core Processor");
        snprintf(r->date, sizeof r->date, "2026-11-2%dT12:00:00Z", 2 + k);
        const int64_t none[1] = {0};
        double s[NS];
        spread(s, NS, 850);
        br_case_result *c = add_case(r, 0, 0, none, BR_STATUS_OK, NULL, NULL, NAN, NAN);
        set_timing(&c->cold, s, NS, 1.0, 1, BR_STOP_NOISE, NAN);
        if (k == 0) {
            add_case(r, 1, 0, none, BR_STATUS_SKIPPED, "no-gpu", "not today", NAN, NAN);
        } else {
            spread(s, NS, 9250);
            c = add_case(r, 1, 0, none, BR_STATUS_OK, NULL, NULL, NAN, NAN);
            set_timing(&c->cold, s, NS, 1.0, 1, BR_STOP_NOISE, NAN);
        }
        br_run_derive(r);
    }
}

/* The json reporter's document of the n runs at `runs` into dir/name. */
__attribute__((unused)) static void write_doc(const char *dir, const char *name, br_run *runs,
                                              size_t n) {
    const br_run *ptrs[8];
    for (size_t i = 0; i < n; i++)
        ptrs[i] = &runs[i];
    char *path = br_path_join(dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "cannot write %s", path);
    br_report_opts opts = {0};
    cr_assert_eq(br_reporter_json.write(f, ptrs, n, &opts), 0, "%s", br_error_get());
    cr_assert_eq(fclose(f), 0);
    free(path);
}

/* The fixture files (see the top of the file) into dir. */
__attribute__((unused)) static void write_history(const char *dir) {
    static const char *const names[] = {
        "2026-11-24T090000Z-aaaaaaa.json", "2026-11-20T100000Z-bbbbbbb.json",
        "2026-11-21T100000Z-ccccccc.json", "2026-11-22T100000Z-ccccccc.json"};
    br_run red[4], lat[2];
    build_reduction_history(red);
    for (size_t k = 0; k < 4; k++)
        write_doc(dir, names[k], &red[k], 1);
    build_latency_history(lat);
    write_doc(dir, "latency.json", lat, 2);
    for (size_t k = 0; k < 4; k++)
        br_run_dispose(&red[k]);
    br_run_dispose(&lat[0]);
    br_run_dispose(&lat[1]);
}

/* --- a generated history with steps (change points) --------------------------------- */

#define STEP_RUNS     30
#define STEP_DIR_NAME "steps"

/* The story of write_step_history: suite "reduction" on the H100, 30 runs
 * at 30 commits, one a day; every case's level carries 1% noise from run
 * to run (its median times 1 + 0.01 N(0,1), a seed per case):
 *   reduce_warp n=2^24  3% slower (time x1.03) from run 17 on
 *   reduce_cub  n=2^24  4% faster (time x0.96) from run 11, then 3% slower
 *                       (x1.03) from run 23
 *   reduce_warp n=2^20, reduce_cub n=2^20  no step
 *   reduce_vec  n=2^24  a new kernel from run 20, no step (11 runs)
 * Run i (1-based) is at commit step_sha(i), committed at
 * T_COMMIT0 + (i - 31) days + 1 h and run an hour later. */
typedef struct step_case {
    size_t kernel, combo;
    int64_t n;
    double ns; /* the level before any step */
    series_step steps[2];
    size_t n_steps;
    size_t from; /* the first run that has it */
    uint64_t seed;
} step_case;

static const step_case step_cases[] __attribute__((unused)) = {
    {0, 0, 1 << 20, 4100, {{0, 1}}, 0, 1, 11},
    {1, 0, 1 << 20, 3200, {{0, 1}}, 0, 1, 12},
    {0, 1, 1 << 24, 41700, {{17, 1.03}}, 1, 1, 13},
    {1, 1, 1 << 24, 26100, {{11, 0.96}, {23, 1.03}}, 2, 1, 14},
    {2, 1, 1 << 24, 25000, {{0, 1}}, 0, 20, 15},
};

/* The 40-hex-digit SHA of run i (1-based) of the step history. */
__attribute__((unused)) static void step_sha(char sha[41], size_t i) {
    series_rng r = {0x5eed0000u + i};
    for (size_t k = 0; k < 40; k += 8)
        snprintf(sha + k, 9, "%08x", (unsigned)(series_next(&r) >> 32));
}

/* Run i (1-based) of the step history into *r. */
__attribute__((unused)) static void step_run(br_run *r, size_t i) {
    const char *params[] = {"n"};
    char sha[41];
    run_init(r, "reduction", "sum of n float32", BR_METRIC_GBPS, BR_MODE_COLD, params, 1, 8);
    add_kernel(r, "reduce_warp", "kernels/reduce_warp.cu", BR_BACKEND_GPU);
    add_kernel(r, "reduce_cub", "kernels/reduce_cub.cu", BR_BACKEND_GPU);
    step_sha(sha, i);
    git_commit(&r->git, sha, "main", 0);
    r->git.commit_time = T_COMMIT0 + 86400 * ((int64_t)i - 31) + 3600;
    time_t ran = (time_t)(r->git.commit_time + 3600);
    struct tm tm;
    gmtime_r(&ran, &tm);
    strftime(r->date, sizeof r->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    h100(r);
    r->peak_gbps = r->device.peak_gbps;
    if (i >= 20)
        add_kernel(r, "reduce_vec", "kernels/reduce_vec.cu", BR_BACKEND_GPU);
    for (size_t k = 0; k < sizeof step_cases / sizeof *step_cases; k++) {
        const step_case *sc = &step_cases[k];
        double level[STEP_RUNS];
        series_make(level, STEP_RUNS, sc->ns, 0.01, sc->steps, sc->n_steps, sc->seed);
        if (i < sc->from)
            continue;
        double s[NS];
        spread(s, NS, level[i - 1]);
        br_case_result *c = add_case(r, sc->kernel, sc->combo, &sc->n, BR_STATUS_OK, NULL, NULL,
                                     4.0 * (double)sc->n, NAN);
        set_timing(&c->cold, s, NS, 1.0, 1, BR_STOP_NOISE, 1980);
    }
    br_run_derive(r);
}

/* The step history (above) into dir/run-01.json .. run-30.json. */
__attribute__((unused)) static void write_step_history(const char *dir) {
    for (size_t i = 1; i <= STEP_RUNS; i++) {
        br_run r;
        char name[32];
        step_run(&r, i);
        snprintf(name, sizeof name, "run-%02zu.json", i);
        write_doc(dir, name, &r, 1);
        br_run_dispose(&r);
    }
}

/* A new directory tmp/steps holding the step history; caller frees. */
__attribute__((unused)) static char *step_history_dir(void) {
    char *dir = br_path_join(tmp, STEP_DIR_NAME);
    cr_assert_eq(mkdir(dir, 0755), 0, "%s: %s", dir, strerror(errno));
    write_step_history(dir);
    return dir;
}

/* --- helpers --------------------------------------------------------------------------- */

__attribute__((unused)) static char *slurp(const char *path) {
    char *text = NULL;
    if (br_read_file(&text, NULL, path, 1 << 26) != 0)
        return NULL;
    return text;
}

/* Compare `got` with HIST_DIR/name; BR_UPDATE_GOLDEN=1 writes it instead. */
__attribute__((unused)) static void check_golden(const char *name, const char *got) {
    char *path = br_path_join(HIST_DIR, name);
    const char *update = getenv("BR_UPDATE_GOLDEN");
    if (update && strcmp(update, "1") == 0) {
        FILE *f = fopen(path, "w");
        cr_assert_not_null(f);
        fputs(got, f);
        cr_assert_eq(fclose(f), 0);
        cr_log_info("updated %s", path);
        free(path);
        return;
    }
    char *want = slurp(path);
    cr_assert_not_null(want, "missing %s (BR_UPDATE_GOLDEN=1 writes it)", path);
    cr_assert_str_eq(got, want, "%s differs; got:\n%s", path, got);
    free(want);
    free(path);
}

/* What br_history_print writes for h with the neighbour marks. */
__attribute__((unused)) static char *print_text(const br_history *h, int ascii) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert_not_null(f);
    int rc = br_history_print(f, h, ascii, BR_HISTORY_MARK_NEIGHBOURS);
    fclose(f);
    cr_assert_eq(rc, 0, "%s", br_error_get());
    return buf;
}

/* What br_history_plot_script writes for h. */
__attribute__((unused)) static char *script_text(const br_history *h, const char *svg) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert_not_null(f);
    int rc = br_history_plot_script(f, h, svg);
    fclose(f);
    cr_assert_eq(rc, 0, "%s", br_error_get());
    return buf;
}

__attribute__((unused)) static void load_ok(br_history *h, const char *dir,
                                            const br_history_filter *f) {
    int rc = br_history_load(h, dir, f);
    cr_assert_eq(rc, 0, "%s", br_error_get());
}

/* Load must fail with exactly `want`. */
__attribute__((unused)) static void load_fails(const char *dir, const br_history_filter *f,
                                               const char *want) {
    br_history h;
    br_error_clear();
    cr_assert_eq(br_history_load(&h, dir, f), -1, "loaded; expected: %s", want);
    cr_assert_str_eq(br_error_get(), want);
    br_history_dispose(&h);
}

/* The line of `text` that starts with " kernel-and-params" (after the
 * leading space), for assertions on one row; caller frees. */
__attribute__((unused)) static char *row_of(const char *text, const char *kernel, const char *n) {
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char *copy = strndup(line, len);
        char k[64], p[64];
        if (sscanf(copy, " %63s %*s %63s", k, p) == 2 && strcmp(k, kernel) == 0 &&
            strcmp(p, n) == 0)
            return copy;
        free(copy);
        line = end ? end + 1 : NULL;
    }
    cr_assert_fail("no row %s %s in:\n%s", kernel, n, text);
    return NULL;
}

/* A directory under tmp with PATH pointing at it alone: no gnuplot. */
__attribute__((unused)) static void path_without_gnuplot(void) {
    char *bin = br_path_join(tmp, "bin");
    cr_assert_eq(mkdir(bin, 0700), 0);
    cr_assert_eq(setenv("PATH", bin, 1), 0);
    free(bin);
}

#endif
