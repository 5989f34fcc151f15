/* SPDX-License-Identifier: Apache-2.0 */
/* test_faults.c - faults and interrupts cost nothing already measured.
 *
 * - tests/fixtures/faults/faults.yaml puts host kernels that segfault,
 *   abort and hang beside a healthy one: every healthy case is measured,
 *   each faulty one is reported failed with its reason (the signal, or the
 *   watchdog's timeout), and benchrun exits 1. (Its GPU kernels are skipped
 *   without a GPU; tests/gpu/test_gpu_faults.c covers them.)
 * - SIGINT or SIGTERM in the middle of a sweep: the finished cases are in
 *   complete, valid JSON, CSV and results-directory files, the rest are
 *   marked interrupted, no temporary file is left, the exit status is
 *   128 + the signal; a second signal exits at once.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <jansson.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>

#include "e2e_util.h"

#define FAULTS BR_FIXTURES_DIR "/faults"

/* In the sanitizer build (benchrun and this test alike), AddressSanitizer's
 * handler turns the worker's SIGSEGV into a report and exit status 1. */
#if defined(__SANITIZE_ADDRESS__)
#define SEGV_MESSAGE "crashed: the worker process exited with status 1"
#else
#define SEGV_MESSAGE                                                                               \
    "crashed: the worker process was killed by signal 11 (SIGSEGV: Segmentation fault)"
#endif

TestSuite(faults, .init = e2e_tmp_make, .fini = e2e_tmp_drop, .timeout = 300);

/* The case of kernel `kernel` at n in the run's JSON. */
static json_t *find_case(json_t *run, const char *kernel, long long n) {
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(run, "cases"), i, c) {
        if (strcmp(json_string_value(json_object_get(c, "kernel")), kernel) == 0 &&
            json_integer_value(json_object_get(json_object_get(c, "params"), "n")) == n)
            return c;
    }
    return NULL;
}

static const char *field(json_t *c, const char *key) {
    const char *s = json_string_value(json_object_get(c, key));
    return s ? s : "";
}

Test(faults, healthy_cases_are_measured_beside_kernels_that_crash_and_hang) {
    char *json = br_strfmt("%s/out.json", tmp);
    char *cache = br_strfmt("--cache-dir=%s/cache", tmp);
    const char *args[] = {cache, "--json", json, "--no-compare", FAULTS "/faults.yaml", NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 1, "exit %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);

    json_error_t err;
    json_t *doc = json_load_file(json, 0, &err);
    cr_assert_not_null(doc, "%s", err.text);
    json_t *run = json_array_get(json_object_get(doc, "runs"), 0);
    cr_assert_eq(json_array_size(json_object_get(run, "cases")), 14);
    const long long sizes[] = {1024, 4096};
    for (size_t s = 0; s < 2; s++) {
        long long n = sizes[s];
        /* The healthy kernel, after the faulty ones at the first size too. */
        json_t *ok = find_case(run, "host_ok", n);
        cr_assert_not_null(ok);
        cr_assert_str_eq(field(ok, "status"), "ok", "host_ok n=%lld: %s", n, field(ok, "message"));
        cr_assert_gt(json_number_value(json_object_get(json_object_get(ok, "cold"), "median")), 0);
        cr_assert_gt(json_number_value(json_object_get(ok, "gbps")), 0);

        json_t *seg = find_case(run, "host_segfault", n);
        cr_assert_str_eq(field(seg, "status"), "failed");
        cr_assert_str_eq(field(seg, "stage"), "run");
        cr_assert_str_eq(field(seg, "message"), SEGV_MESSAGE);
        json_t *ab = find_case(run, "host_abort", n);
        cr_assert_str_eq(field(ab, "status"), "failed");
        cr_assert(strstr(field(ab, "message"), "signal 6 (SIGABRT"), "%s", field(ab, "message"));

        json_t *hang = find_case(run, "host_hang", n);
        cr_assert_str_eq(field(hang, "status"), "failed");
        cr_assert_str_eq(field(hang, "stage"), "run");
        cr_assert_str_eq(field(hang, "message"),
                         "timed out after 2.5 s (warmup 1 ms + timeout 500 ms + watchdog 2 s): "
                         "its worker process was killed");
        /* No GPU here, or a GPU: either way gpu_ok is not failed. */
        json_t *gpu_ok = find_case(run, "gpu_ok", n);
        cr_assert_str_neq(field(gpu_ok, "status"), "failed", "gpu_ok n=%lld: %s", n,
                          field(gpu_ok, "message"));
    }
    cr_assert(strstr(r.out, "FAILED host_segfault n=2^10 (run): " SEGV_MESSAGE), "%s", r.out);
    json_decref(doc);
    e2e_free(&r);
    free(json);
    free(cache);
}

/* ---- interrupts ------------------------------------------------------------------- */

static int count_entries(const char *dir, const char *part) {
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        n += e->d_name[0] != '.' && (!part || strstr(e->d_name, part));
    if (d)
        closedir(d);
    return n;
}

static void sleep_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Start benchrun on the sweep; once `started` cases have begun (their
 * marks appear), send sig (and, when `twice`, a second one right after). */
static void run_interrupted(e2e_result *r, int sig, int started, int twice) {
    char *marks = br_strfmt("%s/marks", tmp), *out = br_strfmt("%s/out", tmp);
    cr_assert_eq(mkdir(marks, 0755), 0);
    cr_assert_eq(mkdir(out, 0755), 0);
    setenv("BR_TEST_MARKS", marks, 1);
    char *cache = br_strfmt("--cache-dir=%s/cache", tmp);
    char *json = br_strfmt("%s/out.json", out), *csv = br_strfmt("%s/out.csv", out);
    char *results = br_strfmt("%s/results", out);
    const char *argv[] = {BR_BENCHRUN_EXE,
                          cache,
                          "--json",
                          json,
                          "--csv",
                          csv,
                          "--results-dir",
                          results,
                          "--save-baseline",
                          "--baseline-dir",
                          out,
                          FAULTS "/sweep.yaml",
                          NULL};
    char out_path[] = "/tmp/br-int-out-XXXXXX", err_path[] = "/tmp/br-int-err-XXXXXX";
    int ofd = mkstemp(out_path), efd = mkstemp(err_path);
    cr_assert(ofd >= 0 && efd >= 0);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, ofd, 1);
    posix_spawn_file_actions_adddup2(&fa, efd, 2);
    pid_t pid;
    cr_assert_eq(posix_spawn(&pid, BR_BENCHRUN_EXE, &fa, NULL, (char *const *)argv, environ), 0);
    posix_spawn_file_actions_destroy(&fa);
    close(ofd);
    close(efd);
    unsetenv("BR_TEST_MARKS");
    for (int waited = 0; count_entries(marks, NULL) < started; waited += 10) {
        cr_assert_lt(waited, 120000, "the sweep did not start %d cases in 2 min", started);
        sleep_ms(10);
    }
    cr_assert_eq(kill(pid, sig), 0);
    if (twice) {
        sleep_ms(1);
        kill(pid, sig);
    }
    int st;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    br_read_file(&r->out, NULL, out_path, 1 << 24);
    br_read_file(&r->err, NULL, err_path, 1 << 24);
    unlink(out_path);
    unlink(err_path);
    free(marks);
    free(out);
    free(cache);
    free(json);
    free(csv);
    free(results);
}

/* The outputs of an interrupted sweep: every case is listed; the finished
 * ones measured, the others skipped with stage "interrupted"; CSV and JSON
 * agree. Returns the number measured. */
static size_t check_outputs(const char *signame) {
    char *json = br_strfmt("%s/out/out.json", tmp), *csv = br_strfmt("%s/out/out.csv", tmp);
    json_error_t err;
    json_t *doc = json_load_file(json, JSON_REJECT_DUPLICATES, &err);
    cr_assert_not_null(doc, "%s is not valid JSON: %s", json, err.text);
    json_t *run = json_array_get(json_object_get(doc, "runs"), 0);
    cr_assert_str_eq(field(run, "interrupted"), signame);
    json_t *cases = json_object_get(run, "cases");
    cr_assert_eq(json_array_size(cases), 30, "every planned case is listed");
    size_t ok = 0, interrupted = 0, i;
    json_t *c;
    json_array_foreach(cases, i, c) {
        if (strcmp(field(c, "status"), "ok") == 0) {
            cr_assert_eq(interrupted, 0, "case %zu measured after an unfinished one", i);
            cr_assert_gt(json_number_value(json_object_get(json_object_get(c, "cold"), "median")),
                         0);
            ok++;
        } else {
            cr_assert_str_eq(field(c, "status"), "skipped", "case %zu: %s", i, field(c, "message"));
            cr_assert_str_eq(field(c, "stage"), "interrupted");
            interrupted++;
        }
    }
    cr_assert_geq(ok, 2, "the cases finished before the signal are kept");
    cr_assert_geq(interrupted, 1);

    /* The CSV: a header and one complete row per case, the same statuses. */
    char *text = NULL;
    cr_assert_eq(br_read_file(&text, NULL, csv, 1 << 24), 0);
    size_t rows = 0, ok_rows = 0, int_rows = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"), rows++) {
        if (rows == 0) {
            cr_assert(strncmp(line, "suite,kernel,n,backend,status,stage", 35) == 0, "%s", line);
            continue;
        }
        ok_rows += strstr(line, ",ok,") != NULL;
        int_rows += strstr(line, ",skipped,interrupted,") != NULL;
    }
    cr_assert_eq(rows, 31, "a header and 30 rows");
    cr_assert_eq(ok_rows, ok);
    cr_assert_eq(int_rows, interrupted);
    free(text);

    /* The results directory holds the same document; no temporary file
     * anywhere; no baseline from an interrupted run. */
    char *results = br_strfmt("%s/out/results", tmp), *out = br_strfmt("%s/out", tmp);
    cr_assert_eq(count_entries(results, ".json"), 1);
    cr_assert_eq(count_entries(results, ".tmp"), 0);
    cr_assert_eq(count_entries(out, ".tmp"), 0);
    cr_assert_eq(count_entries(out, NULL), 3, "out.json, out.csv and results/ only");
    json_decref(doc);
    free(json);
    free(csv);
    free(results);
    free(out);
    return ok;
}

Test(faults, sigint_midway_leaves_valid_json_and_csv_with_the_finished_cases) {
    e2e_result r;
    run_interrupted(&r, SIGINT, 4, 0);
    cr_assert_eq(r.status, 130, "exit %d\nstderr:\n%s", r.status, r.err);
    cr_assert(strstr(r.err, "benchrun: interrupted"), "%s", r.err);
    cr_assert(strstr(r.err, "the baseline is not saved"), "%s", r.err);
    size_t ok = check_outputs("SIGINT");
    char *note =
        br_strfmt("%zu case(s) skipped: not run: benchrun was interrupted (SIGINT)", 30 - ok);
    cr_assert(strstr(r.out, note), "the table says so:\n%s", r.out);
    free(note);
    e2e_free(&r);
}

Test(faults, sigterm_midway_exits_143_with_the_outputs) {
    e2e_result r;
    run_interrupted(&r, SIGTERM, 3, 0);
    cr_assert_eq(r.status, 143, "exit %d\nstderr:\n%s", r.status, r.err);
    check_outputs("SIGTERM");
    e2e_free(&r);
}

Test(faults, a_second_signal_exits_at_once_leaving_no_temporary_file) {
    e2e_result r;
    run_interrupted(&r, SIGINT, 3, 1);
    cr_assert_eq(r.status, 130, "exit %d\nstderr:\n%s", r.status, r.err);
    char *out = br_strfmt("%s/out", tmp), *results = br_strfmt("%s/out/results", tmp);
    cr_assert_eq(count_entries(out, ".tmp"), 0);
    cr_assert_eq(count_entries(results, ".tmp"), 0);
    /* Whatever was written is whole. */
    char *json = br_strfmt("%s/out.json", out);
    if (access(json, F_OK) == 0) {
        json_error_t err;
        json_t *doc = json_load_file(json, 0, &err);
        cr_assert_not_null(doc, "%s", err.text);
        json_decref(doc);
    }
    free(json);
    free(out);
    free(results);
    e2e_free(&r);
}
