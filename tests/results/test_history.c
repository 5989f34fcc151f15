/* test_history.c - `benchrun history` (history.h): loading a directory of
 * results documents in commit order, the -k / -p / --suite / --last filters,
 * the table (its key cells and marks, and golden copies in UTF-8 and ASCII),
 * the errors for a directory without results and for a file that is not
 * one, the gnuplot script (data blocks, titles, axes, escaping), drawing the
 * SVG with gnuplot (skipped, visibly, without it) and the command's exit
 * statuses.
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
#include <criterion/criterion.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "e2e_util.h"
#include "base/error.h"
#include "results/history.h"
#include "cli/cmd_history.h"
#include "plan/plan.h"
#include "reporters/reporter.h"
#include "results/results.h"
#include "results_fixture.h"
#include "base/util.h"

extern const br_reporter br_reporter_json;

/* PATH as the test started: tests that hide gnuplot change it, and the
 * cleanup needs rm again. */
static char *saved_path;

static void history_init(void) {
    e2e_tmp_make();
    const char *p = getenv("PATH");
    saved_path = p ? strdup(p) : NULL;
}

static void history_fini(void) {
    if (saved_path)
        setenv("PATH", saved_path, 1);
    free(saved_path);
    saved_path = NULL;
    e2e_tmp_drop();
}

TestSuite(history, .init = history_init, .fini = history_fini, .timeout = 120);

#define RUNS_DIR  BR_FIXTURES_DIR "/history/runs"
#define HIST_DIR  BR_FIXTURES_DIR "/history"
#define NS        40 /* samples per timing */
#define SHA_A     "aaaaaaa111111111111111111111111111111111"
#define SHA_B     "bbbbbbb222222222222222222222222222222222"
#define SHA_C     "ccccccc333333333333333333333333333333333"
#define T_COMMIT0 1795000000 /* 2026-11-18T11:06:40Z */

/* --- the fixture runs ---------------------------------------------------------------- */

/* NS samples around `center` ns: a deterministic spread of +-1.5%. */
static void spread(double *out, size_t n, double center) {
    for (size_t i = 0; i < n; i++)
        out[i] = center * (1.0 + 0.015 * (double)((int)((i * 7) % 13) - 6) / 6.0);
}

/* A "reduction" run at commit `sha` (its commit time T_COMMIT0 + `commit`
 * hours) measured at `date`. */
static void reduction_run(br_run *r, const char *sha, int commit, const char *date) {
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
static void timed(br_run *r, size_t kernel, size_t combo, int64_t n, double ns) {
    double s[NS];
    spread(s, NS, ns);
    br_case_result *c =
        add_case(r, kernel, combo, &n, BR_STATUS_OK, NULL, NULL, 4.0 * (double)n, NAN);
    set_timing(&c->cold, s, NS, 1.0, 1, "noise", 1980);
}

/* The four reduction runs: 0 = aaaaaaa, 1 = bbbbbbb, 2 = ccccccc, 3 = ccccccc again. */
static void build_reduction_history(br_run runs[4]) {
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
            set_timing(&c->cold, few, 3, 1.0, 1, "timeout", 1980);
        } else if (k == 0 || k == 1) {
            const double few[] = {34000, 33900, 34100};
            br_case_result *c =
                add_case(r, 0, 0, &n20, BR_STATUS_OK, NULL, NULL, 4.0 * (double)n20, NAN);
            set_timing(&c->cold, few, 3, 1.0, 1, "timeout", 1980);
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
static void build_latency_history(br_run runs[2]) {
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
        set_timing(&c->cold, s, NS, 1.0, 1, "noise", NAN);
        if (k == 0) {
            add_case(r, 1, 0, none, BR_STATUS_SKIPPED, "no-gpu", "not today", NAN, NAN);
        } else {
            spread(s, NS, 9250);
            c = add_case(r, 1, 0, none, BR_STATUS_OK, NULL, NULL, NAN, NAN);
            set_timing(&c->cold, s, NS, 1.0, 1, "noise", NAN);
        }
        br_run_derive(r);
    }
}

/* The json reporter's document of the n runs at `runs` into dir/name. */
static void write_doc(const char *dir, const char *name, br_run *runs, size_t n) {
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
static void write_history(const char *dir) {
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

/* --- helpers --------------------------------------------------------------------------- */

static char *slurp(const char *path) {
    char *text = NULL;
    if (br_read_file(&text, NULL, path, 1 << 26) != 0)
        return NULL;
    return text;
}

/* Compare `got` with HIST_DIR/name; BR_UPDATE_GOLDEN=1 writes it instead. */
static void check_golden(const char *name, const char *got) {
    char *path = br_path_join(HIST_DIR, name);
    const char *update = getenv("BR_UPDATE_GOLDEN");
    if (update && strcmp(update, "1") == 0) {
        FILE *f = fopen(path, "w");
        cr_assert_not_null(f);
        fputs(got, f);
        cr_assert_eq(fclose(f), 0);
        cr_log_warn("updated %s", path);
        free(path);
        return;
    }
    char *want = slurp(path);
    cr_assert_not_null(want, "missing %s (BR_UPDATE_GOLDEN=1 writes it)", path);
    cr_assert_str_eq(got, want, "%s differs; got:\n%s", path, got);
    free(want);
    free(path);
}

/* What br_history_print writes for h. */
static char *print_text(const br_history *h, int ascii) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert_not_null(f);
    int rc = br_history_print(f, h, ascii);
    fclose(f);
    cr_assert_eq(rc, 0, "%s", br_error_get());
    return buf;
}

/* What br_history_plot_script writes for h. */
static char *script_text(const br_history *h, const char *svg) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert_not_null(f);
    int rc = br_history_plot_script(f, h, svg);
    fclose(f);
    cr_assert_eq(rc, 0, "%s", br_error_get());
    return buf;
}

static void load_ok(br_history *h, const char *dir, const br_history_filter *f) {
    int rc = br_history_load(h, dir, f);
    cr_assert_eq(rc, 0, "%s", br_error_get());
}

/* Load must fail with exactly `want`. */
static void load_fails(const char *dir, const br_history_filter *f, const char *want) {
    br_history h;
    br_error_clear();
    cr_assert_eq(br_history_load(&h, dir, f), -1, "loaded; expected: %s", want);
    cr_assert_str_eq(br_error_get(), want);
    br_history_dispose(&h);
}

/* The line of `text` that starts with " kernel-and-params" (after the
 * leading space), for assertions on one row; caller frees. */
static char *row_of(const char *text, const char *kernel, const char *n) {
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

/* Run br_history_main on args (argv[0] "history" added) with stdout and
 * stderr captured into *out and *err (caller frees). Returns its status. */
static int run_main(char **out, char **err, const char *const *args) {
    char *argv[32] = {"history"};
    int argc = 1;
    for (; args[argc - 1]; argc++)
        argv[argc] = (char *)args[argc - 1];
    argv[argc] = NULL;
    char *opath = br_path_join(tmp, "stdout.txt"), *epath = br_path_join(tmp, "stderr.txt");
    fflush(stdout);
    fflush(stderr);
    int save_out = dup(1), save_err = dup(2);
    int ofd = open(opath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int efd = open(epath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    cr_assert(ofd >= 0 && efd >= 0 && save_out >= 0 && save_err >= 0);
    dup2(ofd, 1);
    dup2(efd, 2);
    int status = br_history_main(argc, argv);
    fflush(stdout);
    fflush(stderr);
    dup2(save_out, 1);
    dup2(save_err, 2);
    close(ofd);
    close(efd);
    close(save_out);
    close(save_err);
    *out = slurp(opath);
    *err = slurp(epath);
    free(opath);
    free(epath);
    return status;
}

/* A directory under tmp with PATH pointing at it alone: no gnuplot. */
static void path_without_gnuplot(void) {
    char *bin = br_path_join(tmp, "bin");
    cr_assert_eq(mkdir(bin, 0700), 0);
    cr_assert_eq(setenv("PATH", bin, 1), 0);
    free(bin);
}

/* --- the fixture files ----------------------------------------------------------------- */

Test(history, fixtures_are_current) {
    write_history(tmp);
    const char *names[] = {"2026-11-24T090000Z-aaaaaaa.json", "2026-11-20T100000Z-bbbbbbb.json",
                           "2026-11-21T100000Z-ccccccc.json", "2026-11-22T100000Z-ccccccc.json",
                           "latency.json"};
    const char *update = getenv("BR_UPDATE_GOLDEN");
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char *got_path = br_path_join(tmp, names[i]), *want_path = br_path_join(RUNS_DIR, names[i]);
        char *got = slurp(got_path);
        cr_assert_not_null(got);
        if (update && strcmp(update, "1") == 0) {
            mkdir(RUNS_DIR, 0755);
            FILE *f = fopen(want_path, "w");
            cr_assert_not_null(f);
            fputs(got, f);
            cr_assert_eq(fclose(f), 0);
            cr_log_warn("updated %s", want_path);
        } else {
            char *want = slurp(want_path);
            cr_assert_not_null(want, "missing %s (BR_UPDATE_GOLDEN=1 writes it)", want_path);
            cr_assert_str_eq(got, want, "%s is not what write_history() writes now", want_path);
            free(want);
        }
        free(got);
        free(got_path);
        free(want_path);
    }
}

/* --- loading ----------------------------------------------------------------------------- */

Test(history, loads_suites_apart_in_commit_order) {
    br_history h;
    load_ok(&h, RUNS_DIR, NULL);
    cr_assert_eq(h.n_files, 5);
    cr_assert_eq(h.n_runs, 6);
    /* Suites by name: latency, then reduction. */
    cr_assert_str_eq(h.runs[0].run.suite_name, "latency");
    cr_assert_str_eq(h.runs[1].run.suite_name, "latency");
    /* Without git: by date, counted as reruns among themselves. */
    cr_assert_str_eq(h.runs[0].run.date, "2026-11-22T12:00:00Z");
    cr_assert_str_eq(h.runs[1].run.date, "2026-11-23T12:00:00Z");
    cr_assert_eq(h.runs[0].index, 0);
    cr_assert_eq(h.runs[1].index, 1);
    /* aaaaaaa first although measured last and named last. */
    const char *order[] = {"aaaaaaa", "bbbbbbb", "ccccccc", "ccccccc"};
    for (size_t i = 0; i < 4; i++) {
        cr_assert_str_eq(h.runs[2 + i].run.suite_name, "reduction");
        cr_assert_str_eq(h.runs[2 + i].run.git.short_sha, order[i]);
    }
    cr_assert(br_has_suffix(h.runs[2].path, "2026-11-24T090000Z-aaaaaaa.json"));
    cr_assert_str_eq(h.runs[4].run.date, "2026-11-21T10:00:00Z");
    cr_assert_str_eq(h.runs[5].run.date, "2026-11-22T10:00:00Z");
    cr_assert_eq(h.runs[4].rerun, 1);
    cr_assert_eq(h.runs[5].rerun, 2);

    char label[64];
    br_history_label(label, sizeof label, &h, 5, 0);
    cr_assert_str_eq(label, "ccccccc·2");
    br_history_label(label, sizeof label, &h, 5, 1);
    cr_assert_str_eq(label, "ccccccc.2");
    br_history_label(label, sizeof label, &h, 2, 0);
    cr_assert_str_eq(label, "aaaaaaa");
    br_history_label(label, sizeof label, &h, 1, 0);
    cr_assert_str_eq(label, "no git·2");
    br_history_dispose(&h);
    br_history_dispose(&h); /* twice is harmless */
}

Test(history, ties_and_runs_without_git) {
    /* Same commit time, two commits: by date; a run without git after all. */
    br_run r[3];
    reduction_run(&r[0], SHA_B, 0, "2026-11-21T00:00:00Z");
    reduction_run(&r[1], SHA_A, 0, "2026-11-20T00:00:00Z");
    reduction_run(&r[2], SHA_C, 5, "2026-11-01T00:00:00Z");
    r[2].git.present = 0;
    r[1].git.dirty = 1;
    for (int k = 0; k < 3; k++) {
        timed(&r[k], 1, 0, 1 << 20, 4100);
        br_run_derive(&r[k]);
    }
    write_doc(tmp, "x.json", r, 3);
    br_history h;
    load_ok(&h, tmp, NULL);
    cr_assert_eq(h.n_runs, 3);
    char label[64];
    br_history_label(label, sizeof label, &h, 0, 0);
    cr_assert_str_eq(label, "aaaaaaa*");
    br_history_label(label, sizeof label, &h, 1, 0);
    cr_assert_str_eq(label, "bbbbbbb");
    br_history_label(label, sizeof label, &h, 2, 0);
    cr_assert_str_eq(label, "no git");
    char *text = print_text(&h, 0);
    cr_assert(strstr(text, "* after a commit = uncommitted changes (dirty work tree)"), "%s", text);
    free(text);
    br_history_dispose(&h);
    for (int k = 0; k < 3; k++)
        br_run_dispose(&r[k]);
}

Test(history, filter_kernels) {
    const char *globs[] = {"reduce_w*", "reduce_v?c"};
    br_history_filter f = {.kernels = globs, .n_kernels = 2};
    br_history h;
    load_ok(&h, RUNS_DIR, &f);
    /* latency has no such kernel: its runs are gone. */
    cr_assert_eq(h.n_runs, 4);
    for (size_t i = 0; i < h.n_runs; i++) {
        const br_run *r = &h.runs[i].run;
        for (size_t c = 0; c < r->n_cases; c++) {
            const char *k = r->kernels[r->cases[c].kernel].name;
            cr_assert(strcmp(k, "reduce_warp") == 0 || strcmp(k, "reduce_vec") == 0, "%s", k);
        }
    }
    cr_assert_eq(h.runs[0].run.n_cases, 2);
    cr_assert_eq(h.runs[3].run.n_cases, 4);
    char *text = print_text(&h, 0);
    cr_assert_null(strstr(text, "reduce_cub"));
    cr_assert_not_null(strstr(text, "reduce_vec"));
    free(text);
    br_history_dispose(&h);
}

Test(history, filter_params_and_suite) {
    br_param_override p;
    cr_assert_eq(br_param_override_parse(&p, "n=2^24"), 0, "%s", br_error_get());
    br_history_filter f = {.params = &p, .n_params = 1};
    br_history h;
    load_ok(&h, RUNS_DIR, &f);
    cr_assert_eq(h.n_runs, 4); /* latency has no parameter n */
    for (size_t i = 0; i < h.n_runs; i++) {
        const br_run *r = &h.runs[i].run;
        for (size_t c = 0; c < r->n_cases; c++)
            cr_assert_eq(r->cases[c].params[0], 1 << 24);
    }
    br_history_dispose(&h);
    br_param_override_dispose(&p);

    cr_assert_eq(br_param_override_parse(&p, "n=[2^20, 2^24]"), 0, "%s", br_error_get());
    const char *globs[] = {"reduce_cub"};
    f = (br_history_filter){.params = &p, .n_params = 1, .kernels = globs, .n_kernels = 1};
    load_ok(&h, RUNS_DIR, &f);
    cr_assert_eq(h.n_runs, 4);
    cr_assert_eq(h.runs[0].run.n_cases, 2);
    br_history_dispose(&h);
    br_param_override_dispose(&p);

    f = (br_history_filter){.suite = "latency"};
    load_ok(&h, RUNS_DIR, &f);
    cr_assert_eq(h.n_runs, 2);
    br_history_dispose(&h);

    f = (br_history_filter){.suite = "reduction", .last = 2};
    load_ok(&h, RUNS_DIR, &f);
    cr_assert_eq(h.n_runs, 2);
    cr_assert_str_eq(h.runs[0].run.git.short_sha, "ccccccc");
    cr_assert_eq(h.runs[1].rerun, 2);
    br_history_dispose(&h);
}

Test(history, filter_errors) {
    br_param_override p;
    cr_assert_eq(br_param_override_parse(&p, "m=4"), 0, "%s", br_error_get());
    br_history_filter f = {.params = &p, .n_params = 1};
    load_fails(RUNS_DIR, &f, "-p m=...: no run of the history has a parameter 'm' (parameters: n)");
    br_param_override_dispose(&p);

    const char *globs[] = {"nothing*"};
    f = (br_history_filter){.kernels = globs, .n_kernels = 1};
    load_fails(RUNS_DIR, &f, RUNS_DIR ": no case matches the filters (-k, -p)");

    f = (br_history_filter){.suite = "sgemm"};
    load_fails(RUNS_DIR, &f,
               RUNS_DIR ": holds no run of suite 'sgemm' (suites: latency, reduction)");
}

Test(history, no_results_files) {
    /* An empty directory, then one with a file that is not *.json. */
    char *want = br_strfmt("%s: holds no results files (*.json)", tmp);
    br_history h;
    cr_assert_eq(br_history_load(&h, tmp, NULL), -1);
    cr_assert_str_eq(br_error_get(), want);
    br_history_dispose(&h);
    free(e2e_put("notes.txt", "not json\n"));
    cr_assert_eq(br_history_load(&h, tmp, NULL), -1);
    cr_assert_str_eq(br_error_get(), want);
    br_history_dispose(&h);
    free(want);

    /* The checked-in directory with a README and no results. */
    load_fails(HIST_DIR "/empty", NULL, HIST_DIR "/empty: holds no results files (*.json)");
    load_fails(HIST_DIR "/nonexistent", NULL,
               HIST_DIR "/nonexistent: cannot open directory: No such file or directory");
}

Test(history, a_file_that_is_not_results_is_an_error) {
    br_history h;
    cr_assert_eq(br_history_load(&h, HIST_DIR "/not_results", NULL), -1);
    const char *e = br_error_get();
    cr_assert(strncmp(e, HIST_DIR "/not_results/notes.json: ", strlen(HIST_DIR) + 25) == 0, "%s",
              e);
    br_history_dispose(&h);

    /* Also one with a JSON syntax error, named with its line and column. */
    write_history(tmp);
    free(e2e_put("zz-broken.json", "{\"schema_version\": 4, \"runs\": [\n"));
    cr_assert_eq(br_history_load(&h, tmp, NULL), -1);
    char *want = br_strfmt("%s/zz-broken.json:", tmp);
    cr_assert(strncmp(br_error_get(), want, strlen(want)) == 0, "%s", br_error_get());
    free(want);
    br_history_dispose(&h);
}

/* --- the table --------------------------------------------------------------------------- */

Test(history, table_cells_and_marks) {
    br_param_override p;
    br_history h;
    br_history_filter f = {.suite = "reduction"};
    load_ok(&h, RUNS_DIR, &f);
    char *text = print_text(&h, 0);

    cr_assert(strncmp(text,
                      "reduction · GB/s (higher is better) · 4 runs · NVIDIA H100 80GB HBM3\n",
                      70) == 0,
              "%s", text);
    char *head = row_of(text, "kernel", "n");
    cr_assert(strstr(head, "aaaaaaa") && strstr(head, "bbbbbbb") && strstr(head, "ccccccc·2"), "%s",
              head);
    cr_assert(strstr(text, "2026-11-24 09:00"), "%s", text);
    free(head);

    /* Slower by 20% in time: GB/s down by 1/1.2 - 1 = -16.7%. */
    char *row = row_of(text, "reduce_warp", "2^24");
    cr_assert(strstr(row, "▼-16.7%"), "%s", row);
    cr_assert_null(strstr(row, "▲"), "%s", row);
    cr_assert(strstr(row, "1609.3"), "%s", row); /* 4 * 2^24 B / 41.7 us */
    cr_assert(strstr(row, "1341.1 ▼-16.7%"), "%s", row);
    free(row);
    /* Stayed the same: no mark at all. */
    row = row_of(text, "reduce_warp", "2^20");
    cr_assert_null(strstr(row, "▼"), "%s", row);
    cr_assert_null(strstr(row, "▲"), "%s", row);
    cr_assert_null(strstr(row, "?"), "%s", row);
    cr_assert(strstr(row, "1023.0"), "%s", row);
    free(row);
    /* 10% faster at bbbbbbb, then the same. */
    row = row_of(text, "reduce_cub", "2^24");
    cr_assert(strstr(row, "▲+10.0%"), "%s", row);
    free(row);
    /* Failed at bbbbbbb; ccccccc compared with aaaaaaa, the last that measured it. */
    row = row_of(text, "reduce_naive", "2^24");
    cr_assert(strstr(row, "failed"), "%s", row);
    cr_assert_null(strstr(row, "▼"), "%s", row);
    free(row);
    /* 10% slower on 3 samples: cannot tell. */
    row = row_of(text, "reduce_naive", "2^20");
    cr_assert(strstr(row, "?"), "%s", row);
    free(row);
    /* New kernel: not in the first two runs. */
    row = row_of(text, "reduce_vec", "2^20");
    cr_assert(strstr(row, "·"), "%s", row);
    free(row);
    /* Rows in the newest run's order. */
    cr_assert_lt(strstr(text, " reduce_naive │ 2^20"), strstr(text, " reduce_vec   │ 2^20"));
    cr_assert_lt(strstr(text, " reduce_vec   │ 2^20"), strstr(text, " reduce_naive │ 2^24"));
    /* The legend. */
    cr_assert(strstr(text, "▼ slower, ▲ faster than the previous run that measured the case ("
                           "Mann-Whitney U p < 0.01 and |change| > 2%"),
              "%s", text);
    cr_assert(strstr(text, "? = cannot tell"), "%s", text);
    cr_assert(strstr(text, "· = not in that run"), "%s", text);
    check_golden("table_utf8.txt", text);
    free(text);

    text = print_text(&h, 1);
    row = row_of(text, "reduce_warp", "2^24");
    cr_assert(strstr(row, "1341.1 v-16.7%"), "%s", row);
    free(row);
    for (const char *c = text; *c; c++)
        cr_assert_lt((unsigned char)*c, 0x80, "not ASCII at %.20s", c);
    check_golden("table_ascii.txt", text);
    free(text);
    br_history_dispose(&h);

    /* -p n=2^24 leaves one row per kernel. */
    cr_assert_eq(br_param_override_parse(&p, "n=2^24"), 0);
    f = (br_history_filter){.params = &p, .n_params = 1};
    load_ok(&h, RUNS_DIR, &f);
    text = print_text(&h, 0);
    cr_assert_null(strstr(text, "2^20"), "%s", text);
    cr_assert(strstr(text, "▼-16.7%"), "%s", text);
    free(text);
    br_history_dispose(&h);
    br_param_override_dispose(&p);
}

Test(history, table_metric_none_and_several_suites) {
    br_history h;
    load_ok(&h, RUNS_DIR, NULL);
    char *text = print_text(&h, 0);
    cr_assert(
        strncmp(text, "latency · median time (µs, lower is better) · 2 runs · AMD EPYC", 60) == 0,
        "%s", text);
    char *row = row_of(text, "noop_host", "0.850");
    cr_assert(strstr(row, "│ 0.850            │ 0.850"), "%s", row);
    free(row);
    cr_assert(strstr(text, " sleep_host │     –            │  9.25\n"), "%s", text);
    cr_assert(strstr(text, "– = skipped"), "%s", text);
    cr_assert(strstr(text, "\n\nreduction · GB/s"), "%s", text);
    free(text);
    br_history_dispose(&h);
}

Test(history, devices_are_compared_apart) {
    br_run r[3];
    reduction_run(&r[0], SHA_A, 0, "2026-11-20T00:00:00Z");
    reduction_run(&r[1], SHA_B, 1, "2026-11-21T00:00:00Z");
    reduction_run(&r[2], SHA_C, 2, "2026-11-22T00:00:00Z");
    snprintf(r[1].device.name, sizeof r[1].device.name, "NVIDIA A100-SXM4-80GB");
    timed(&r[0], 1, 0, 1 << 20, 4100);
    timed(&r[1], 1, 0, 1 << 20, 8200); /* the A100: twice the time, not a regression */
    timed(&r[2], 1, 0, 1 << 20, 4100 * 1.2);
    for (int k = 0; k < 3; k++)
        br_run_derive(&r[k]);
    write_doc(tmp, "x.json", r, 3);
    br_history h;
    load_ok(&h, tmp, NULL);
    char *text = print_text(&h, 0);
    cr_assert(strstr(text, "· 3 runs · 2 devices\n"), "%s", text);
    cr_assert(strstr(text, "dev 1 = NVIDIA H100 80GB HBM3, dev 2 = NVIDIA A100-SXM4-80GB"), "%s",
              text);
    char *row = row_of(text, "reduce_warp", "2^20");
    /* bbbbbbb (dev 2) has no mark; ccccccc is compared with aaaaaaa. */
    const char *b = strstr(row, "511.5");
    cr_assert_not_null(b, "%s", row);
    b += strspn(b + 5, " ") + 5;
    cr_assert(strncmp(b, "│", strlen("│")) == 0, "a mark after 511.5: %s", row);
    cr_assert(strstr(row, "▼-16.7%"), "%s", row);
    free(row);
    cr_assert(strstr(text, "dev 2"), "%s", text);
    free(text);
    br_history_dispose(&h);
    for (int k = 0; k < 3; k++)
        br_run_dispose(&r[k]);
}

/* --- the plot ---------------------------------------------------------------------------- */

Test(history, plot_script) {
    br_history h;
    br_history_filter f = {.suite = "reduction"};
    load_ok(&h, RUNS_DIR, &f);
    char *s = script_text(&h, "out/plot.svg");
    cr_assert(strstr(s, "set terminal svg size 1200,900 dynamic enhanced"), "%s", s);
    cr_assert(strstr(s, "set output \"out/plot.svg\"\n"), "%s", s);
    cr_assert(strstr(s, "set multiplot layout 2,1 title \"benchrun history: reduction - sum of n "
                        "float32\" noenhanced\n"),
              "%s", s);
    cr_assert(strstr(s, "unset multiplot\nunset output\n"), "%s", s);
    /* Panel 1: x = n on a log2 axis, one block per kernel of the newest run. */
    cr_assert(strstr(s, "set title \"reduction: GB/s against n, newest run ccccccc·2 (2026-11-22 "
                        "10:00)\" noenhanced\n"),
              "%s", s);
    cr_assert(strstr(s, "set logscale x 2\nset format x \"2^{%L}\"\n"), "%s", s);
    cr_assert(strstr(s, "set xlabel \"n (log2 scale)\" noenhanced\n"), "%s", s);
    cr_assert(strstr(s, "# panel 1, kernel reduce_warp: x, GB/s\n$size1 << EOD\n1048576 1023.001\n"
                        "16777216 1341.104\nEOD\n"),
              "%s", s);
    cr_assert(strstr(s, "$size3 << EOD\n"), "%s", s); /* reduce_vec */
    cr_assert(strstr(s, "plot $size0 using 1:2 with linespoints lw 1.5 title \"reduce_naive\" "
                        "noenhanced"),
              "%s", s);
    /* Panel 2: one block per case, x = run, a gap where reduce_naive n=2^24 failed. */
    cr_assert(strstr(s, "set title \"reduction: GB/s across commits, oldest to newest\" "
                        "noenhanced\n"),
              "%s", s);
    cr_assert(strstr(s, "set xtics norotate noenhanced (\"aaaaaaa\" 1, \"bbbbbbb\" 2, \"ccccccc\" "
                        "3, \"ccccccc·2\" 4)\n"),
              "%s", s);
    cr_assert(strstr(s, "# panel 2, reduce_naive n=2^24: run, GB/s\n$case"), "%s", s);
    const char *naive24 = strstr(s, "# panel 2, reduce_naive n=2^24");
    cr_assert(strstr(naive24, "EOD\n1 197.379\n\n3 197.379\n4 197.379\nEOD\n"), "%s", naive24);
    cr_assert(strstr(s, "title \"reduce_warp n=2^24\" noenhanced"), "%s", s);
    cr_assert(strstr(s, "set key below height 1\n"), "%s", s);
    free(s);
    br_history_dispose(&h);

    /* Several suites: refused. */
    load_ok(&h, RUNS_DIR, NULL);
    FILE *null = fopen("/dev/null", "w");
    cr_assert_eq(br_history_plot_script(null, &h, "x.svg"), -1);
    fclose(null);
    cr_assert_str_eq(br_error_get(), "the history holds several suites (latency, reduction); "
                                     "--plot draws one: choose it with --suite NAME");
    br_history_dispose(&h);
}

Test(history, plot_script_bytes_axis_many_cases_and_escaping) {
    /* Two parameters vary: x = bytes; 20 cases: no legend; a description
     * and a path with quotes and backslashes. */
    br_run r;
    const char *params[] = {"n", "block"};
    run_init(&r, "bw", "say \"hi\" \\ there\nnext line", BR_METRIC_GBPS, BR_MODE_COLD, params, 2,
             32);
    add_kernel(&r, "copy", "kernels/copy.cu", BR_BACKEND_GPU);
    git_commit(&r.git, SHA_A, "main", 0);
    h100(&r);
    double s[NS];
    size_t combo = 0;
    for (int64_t e = 20; e < 25; e++) {
        for (int64_t b = 64; b <= 512; b *= 2, combo++) {
            spread(s, NS, (double)(1 << e) / 1000.0 * (double)b / 64.0);
            int64_t pv[] = {(int64_t)1 << e, b};
            br_case_result *c =
                add_case(&r, 0, combo, pv, BR_STATUS_OK, NULL, NULL, 8.0 * (double)pv[0], NAN);
            set_timing(&c->cold, s, NS, 1.0, 1, "noise", 1980);
        }
    }
    br_run_derive(&r);
    write_doc(tmp, "bw.json", &r, 1);
    br_history h;
    load_ok(&h, tmp, NULL);
    char *sc = script_text(&h, "a\"b\\c.svg");
    cr_assert(strstr(sc, "set output \"a\\\"b\\\\c.svg\"\n"), "%s", sc);
    cr_assert(strstr(sc, "title \"benchrun history: bw - say \\\"hi\\\" \\\\ there next line\" "
                         "noenhanced\n"),
              "%s", sc);
    cr_assert(strstr(sc, "set xlabel \"bytes per execution (log scale)\" noenhanced\n"), "%s", sc);
    cr_assert(strstr(sc, "set logscale x 10\nset format x \"%.0s %cB\"\n"), "%s", sc);
    cr_assert(strstr(sc, "set title \"bw: GB/s across commits, oldest to newest (20 cases: no "
                         "legend above 16)\" noenhanced\n"),
              "%s", sc);
    cr_assert(strstr(sc, "unset key\n"), "%s", sc);
    cr_assert(strstr(sc, "notitle"), "%s", sc);
    free(sc);
    br_history_dispose(&h);
    br_run_dispose(&r);
}

Test(history, plot_script_metric_none) {
    br_history h;
    br_history_filter f = {.suite = "latency"};
    load_ok(&h, RUNS_DIR, &f);
    char *s = script_text(&h, "l.svg");
    /* No parameter: one tic per kernel. */
    cr_assert(strstr(s, "set title \"latency: median time (µs) against kernel, newest run no git·2 "
                        "(2026-11-23 12:00)\" noenhanced\n"),
              "%s", s);
    cr_assert(strstr(s, "set xtics noenhanced (\"noop_host\" 1, \"sleep_host\" 2)\n"), "%s", s);
    cr_assert(strstr(s, "$size0 << EOD\n1 0.85\nEOD\n"), "%s", s);
    cr_assert(strstr(s, "# panel 2, noop_host: run, median time (µs)\n$case0 << EOD\n1 0.85\n2 "
                        "0.85\nEOD\n"),
              "%s", s);
    cr_assert(strstr(s, "set ylabel \"median time (µs)\" noenhanced\n"), "%s", s);
    free(s);
    br_history_dispose(&h);
}

Test(history, draws_an_svg_with_gnuplot) {
    if (!br_history_have_gnuplot())
        cr_skip_test("gnuplot is not on PATH (apt-get install gnuplot-nox): the SVG is not drawn");
    br_history h;
    br_history_filter f = {.suite = "reduction"};
    load_ok(&h, RUNS_DIR, &f);
    char *svg = br_path_join(tmp, "plot.svg");
    cr_assert_eq(br_history_plot(&h, svg), 0, "%s", br_error_get());
    char *text = slurp(svg);
    cr_assert_not_null(text);
    cr_assert(strncmp(text, "<?xml", 5) == 0 || strncmp(text, "<svg", 4) == 0, "%.200s", text);
    cr_assert(strstr(text, "reduce_warp n=2^24"), "no legend entry in the SVG");
    free(text);
    /* Nothing else is left in tmp: the temporary SVG was renamed. */
    struct stat st;
    char *leftover = br_strfmt("%s.XXXXXX", svg);
    cr_assert_neq(stat(leftover, &st), 0);
    free(leftover);
    free(svg);
    br_history_dispose(&h);
}

Test(history, plot_without_gnuplot_says_so) {
    br_history h;
    br_history_filter f = {.suite = "reduction"};
    load_ok(&h, RUNS_DIR, &f);
    path_without_gnuplot();
    cr_assert_eq(br_history_have_gnuplot(), 0);
    char *svg = br_path_join(tmp, "plot.svg");
    cr_assert_eq(br_history_plot(&h, svg), -1);
    cr_assert_str_eq(br_error_get(), "benchrun history --plot needs gnuplot (apt-get install "
                                     "gnuplot-nox); the table above is complete without it");
    struct stat st;
    cr_assert_neq(stat(svg, &st), 0);
    free(svg);
    br_history_dispose(&h);
}

/* --- the command --------------------------------------------------------------------------- */

Test(history, main_prints_the_table) {
    char *out, *err;
    const char *args[] = {RUNS_DIR, "--ascii", "-k", "reduce_warp", "-p", "n=2^24", NULL};
    cr_assert_eq(run_main(&out, &err, args), 0, "%s", err);
    cr_assert(strstr(out, "reduction . GB/s (higher is better) . 4 runs"), "%s", out);
    cr_assert(strstr(out, "v-16.7%"), "%s", out);
    cr_assert_null(strstr(out, "latency"), "%s", out);
    cr_assert_str_eq(err, "");
    free(out);
    free(err);
}

Test(history, main_exit_statuses) {
    char *out, *err;
    const char *usage[] = {NULL};
    cr_assert_eq(run_main(&out, &err, usage), 2);
    cr_assert(strstr(err, "expected one directory of results files"), "%s", err);
    free(out);
    free(err);

    const char *bad_p[] = {RUNS_DIR, "-p", "n", NULL};
    cr_assert_eq(run_main(&out, &err, bad_p), 2);
    cr_assert(strstr(err, "benchrun history: -p n: expected NAME=VALUE"), "%s", err);
    free(out);
    free(err);

    const char *bad_last[] = {RUNS_DIR, "--last", "0", NULL};
    cr_assert_eq(run_main(&out, &err, bad_last), 2);
    cr_assert(strstr(err, "--last expects a number of runs >= 1, got '0'"), "%s", err);
    free(out);
    free(err);

    const char *not_results[] = {HIST_DIR "/not_results", NULL};
    cr_assert_eq(run_main(&out, &err, not_results), 2);
    cr_assert(strstr(err, "benchrun history: " HIST_DIR "/not_results/notes.json: "), "%s", err);
    cr_assert_str_eq(out, "");
    free(out);
    free(err);

    const char *several[] = {RUNS_DIR, "--plot", "x.svg", NULL};
    cr_assert_eq(run_main(&out, &err, several), 2);
    cr_assert(strstr(err, "--plot draws one suite and " RUNS_DIR
                          " holds several (latency, reduction): choose one with --suite NAME"),
              "%s", err);
    free(out);
    free(err);

    const char *help[] = {"--help", NULL};
    cr_assert_eq(run_main(&out, &err, help), 0);
    cr_assert(strstr(out, "usage: benchrun history DIR"), "%s", out);
    free(out);
    free(err);
}

Test(history, main_plot_without_gnuplot_exits_1_after_the_table) {
    path_without_gnuplot();
    char *svg = br_path_join(tmp, "p.svg");
    char *out, *err;
    const char *args[] = {RUNS_DIR, "--suite", "reduction", "--plot", svg, NULL};
    cr_assert_eq(run_main(&out, &err, args), 1, "%s", err);
    cr_assert(strstr(out, "reduce_warp"), "%s", out);
    cr_assert_str_eq(err, "benchrun history --plot needs gnuplot (apt-get install gnuplot-nox); "
                          "the table above is complete without it\n");
    free(out);
    free(err);
    free(svg);
}

Test(history, main_draws_the_plot) {
    if (!br_history_have_gnuplot())
        cr_skip_test("gnuplot is not on PATH (apt-get install gnuplot-nox): the SVG is not drawn");
    char *svg = br_path_join(tmp, "p.svg");
    char *out, *err;
    const char *args[] = {RUNS_DIR, "--suite", "reduction", "--plot", svg, NULL};
    cr_assert_eq(run_main(&out, &err, args), 0, "%s", err);
    struct stat st;
    cr_assert_eq(stat(svg, &st), 0);
    cr_assert_gt(st.st_size, 1000);
    free(out);
    free(err);
    free(svg);
}
