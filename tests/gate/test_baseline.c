/* SPDX-License-Identifier: Apache-2.0 */
/* test_baseline.c - baselines (baseline.h): file names and paths, loading,
 * and saving: merge of a partial run, failed cases never written, refusals,
 * run medians appended and trimmed to regression.keep, concurrent saves
 * under the lock, and the atomic write under SIGKILL. */
#include <criterion/criterion.h>

#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/lock.h"
#include "gate/baseline.h"
#include "e2e_util.h"
#include "base/error.h"
#include "reporters/reporter.h"
#include "model/run.h"
#include "results_fixture.h"
#include "results/baseline_runs.h"
#include "results/run_read.h"
#include "base/util.h"

TestSuite(baseline, .init = e2e_tmp_make, .fini = e2e_tmp_drop, .timeout = 120);

/* --- names and paths ------------------------------------------------------------ */

Test(baseline, file_names_are_safe) {
    char b[64];
    br_baseline_file_name(b, sizeof b, "NVIDIA H100 80GB HBM3");
    cr_assert_str_eq(b, "NVIDIA-H100-80GB-HBM3");
    br_baseline_file_name(b, sizeof b, "Intel(R) Xeon(R) Platinum 8480+");
    cr_assert_str_eq(b, "Intel-R-Xeon-R-Platinum-8480");
    br_baseline_file_name(b, sizeof b, "../../etc/passwd");
    cr_assert_str_eq(b, "..-..-etc-passwd");
    br_baseline_file_name(b, sizeof b, "..");
    cr_assert_str_eq(b, "unknown");
    br_baseline_file_name(b, sizeof b, "  /\\  ");
    cr_assert_str_eq(b, "unknown");
    br_baseline_file_name(b, sizeof b, "Tesla V100-SXM2-16GB");
    cr_assert_str_eq(b, "Tesla-V100-SXM2-16GB");
    br_baseline_file_name(b, 8, "ABCDEFGHIJ");
    cr_assert_str_eq(b, "ABCDEFG");
    br_baseline_file_name(b, sizeof b, "\xc3\xa9t\xc3\xa9 GPU");
    cr_assert_str_eq(b, "t-GPU");
}

Test(baseline, paths_follow_suite_and_device) {
    br_run r;
    small_run(&r, "reduction", "aaaaaaa000000000000000000000000000000000");
    char *p = br_baseline_path("base", &r);
    cr_assert_str_eq(p, "base/reduction/NVIDIA-H100-80GB-HBM3.json");
    free(p);
    p = br_baseline_path(NULL, &r); /* the work tree of the suite's repository */
    cr_assert_str_eq(p, "/home/ci/benchrun/baselines/reduction/NVIDIA-H100-80GB-HBM3.json");
    free(p);
    r.git.present = 0;
    r.has_device = 0;
    snprintf(r.host.cpu_model, sizeof r.host.cpu_model, "AMD EPYC 9654");
    p = br_baseline_path(NULL, &r);
    cr_assert_str_eq(p, "baselines/reduction/AMD-EPYC-9654.json");
    free(p);
    br_run_dispose(&r);
}

/* --- saving ------------------------------------------------------------------------ */

/* Write `text` to path as it is. */
static void put_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    cr_assert_eq(fputs(text, f) >= 0, 1);
    cr_assert_eq(fclose(f), 0);
}

static char *slurp_file(const char *path) {
    char *text = NULL;
    cr_assert_eq(br_read_file(&text, NULL, path, 1 << 28), 0, "%s", br_error_get());
    return text;
}

static const br_case_result *find_case(const br_run *r, const char *kernel, int64_t n) {
    for (size_t i = 0; i < r->n_cases; i++)
        if (strcmp(r->kernels[r->cases[i].kernel].name, kernel) == 0 && r->cases[i].params[0] == n)
            return &r->cases[i];
    return NULL;
}

/* qsort comparison of two C strings, byte by byte. */
static int cmp_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in directory dir, sorted byte by byte (not by the locale's
 * collation, which ls follows), each followed by one space (caller frees). */
static char *dir_names(const char *dir) {
    char *names[64];
    size_t n = 0;
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "%s", dir);
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 && n < 64)
            names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, n, sizeof *names, cmp_names);
    char *all = strdup("");
    for (size_t i = 0; i < n; i++) {
        char *more = br_strfmt("%s%s ", all, names[i]);
        free(all);
        free(names[i]);
        all = more;
    }
    return all;
}

/* The baseline file of run r under tmp/baselines, named as benchrun names it
 * (the suite, the run's device). */
static char *baseline_in_tmp(const br_run *r) {
    char *base = br_strfmt("%s/baselines", tmp);
    char *path = br_baseline_path(base, r);
    cr_assert_not_null(path, "%s", br_error_get());
    free(base);
    return path;
}

Test(baseline, save_writes_ok_cases_and_a_partial_run_updates_only_its_own) {
    br_run a, b;
    small_run(&a, "s", "aaaaaaaaaa000000000000000000000000000000");
    char *path = baseline_in_tmp(&a);
    timed(&a, 0, 1, 1000, 900);
    timed(&a, 1, 1, 2000, 1900);
    timed(&a, 0, 2, 3000, 2900);
    const int64_t n3 = 3;
    add_case(&a, 1, 3, &n3, BR_STATUS_FAILED, "verify", "wrong", NAN, NAN);
    br_save_stats st;
    cr_assert_eq(br_baseline_save(path, &a, &st, 1), 0, "%s", br_error_get());
    cr_assert_eq(st.written, 3);
    cr_assert_eq(st.refused, 1);
    cr_assert_eq(st.kept, 0);

    br_run *got = NULL;
    size_t n = 0;
    cr_assert_eq(br_results_load(&got, &n, path), 0, "%s", br_error_get());
    cr_assert_eq(n, 1);
    cr_assert_eq(got[0].n_cases, 3, "the failed case is not in the baseline");
    cr_assert_null(find_case(&got[0], "k2", 3));
    br_results_free(got, n);

    /* A later partial run (only kernel k) at commit b: k's cases are
     * replaced, k2's kept with the commit they were measured at; k n=2
     * failed now, so its old entry stays. */
    small_run(&b, "s", "bbbbbbbbbb000000000000000000000000000000");
    snprintf(b.date, sizeof b.date, "2026-11-23T09:00:00Z");
    timed(&b, 0, 1, 1100, 990);
    const int64_t n2 = 2;
    add_case(&b, 0, 2, &n2, BR_STATUS_FAILED, "run", "boom", NAN, NAN);
    timed(&b, 0, 5, 5000, 4900); /* new */
    cr_assert_eq(br_baseline_save(path, &b, &st, 1), 0, "%s", br_error_get());
    cr_assert_eq(st.written, 2);
    cr_assert_eq(st.kept, 2);
    cr_assert_eq(st.refused, 1);

    cr_assert_eq(br_results_load(&got, &n, path), 0, "%s", br_error_get());
    const br_run *r = &got[0];
    cr_assert_str_eq(r->git.sha, b.git.sha);
    cr_assert_eq(r->n_cases, 4);
    const br_case_result *c = find_case(r, "k", 1);
    cr_assert_not_null(c);
    cr_assert_float_eq(c->cold.stats.median, 1100.0, 1e-9);
    cr_assert_null(c->commit, "measured at the run's commit");
    c = find_case(r, "k2", 1);
    cr_assert_not_null(c);
    cr_assert_float_eq(c->cold.stats.median, 2000.0, 1e-9);
    cr_assert_str_eq(c->commit, a.git.sha);
    cr_assert_str_eq(c->date, "2026-11-22T10:00:00Z");
    c = find_case(r, "k", 2);
    cr_assert_not_null(c, "an entry whose case failed now is kept");
    cr_assert_float_eq(c->cold.stats.median, 3000.0, 1e-9);
    cr_assert_str_eq(c->commit, a.git.sha);
    cr_assert_not_null(find_case(r, "k", 5));
    /* Plan order: by n, then kernel. */
    cr_assert_eq(r->cases[0].params[0], 1);
    cr_assert_eq(r->cases[1].params[0], 1);
    cr_assert_eq(r->cases[2].params[0], 2);
    cr_assert_eq(r->cases[3].params[0], 5);
    cr_assert_eq(r->cases[0].combo, r->cases[1].combo);
    cr_assert_neq(r->cases[1].combo, r->cases[2].combo);
    br_results_free(got, n);

    /* No temporary file is left behind: the baseline and its lock file. */
    char *dir = br_path_dir(path), *names = dir_names(dir);
    const char *file = strrchr(path, '/') + 1;
    char *want = br_strfmt(".%s.lock %s ", file, file);
    cr_assert_str_eq(names, want, "stray files in %s", dir);
    free(want);
    free(names);
    free(dir);
    br_run_dispose(&a);
    br_run_dispose(&b);
    free(path);
}

/* A case keeps its precision in the baseline, and a later partial run
 * that did not use that precision keeps its compute peak for the case. */
Test(baseline, a_partial_save_keeps_the_precisions_and_their_peaks) {
    br_run a, b;
    small_run(&a, "s", "aaaaaaaaaa000000000000000000000000000000");
    char *path = baseline_in_tmp(&a);
    a.compute_peaks[BR_PRECISION_FP16_TENSOR] =
        (br_compute_peak){1, 4096, 4096 * 132 * 1.98, 1980, "table"};
    timed(&a, 1, 1, 2000, 1900)->precision = BR_PRECISION_FP16_TENSOR;
    timed(&a, 0, 1, 1000, 900);
    br_save_stats st;
    cr_assert_eq(br_baseline_save(path, &a, &st, 1), 0, "%s", br_error_get());
    small_run(&b, "s", "bbbbbbbbbb000000000000000000000000000000");
    b.compute_peaks[BR_PRECISION_FP32] = (br_compute_peak){1, 256, 66908.16, 1980, "table"};
    timed(&b, 0, 1, 1100, 990);
    cr_assert_eq(br_baseline_save(path, &b, &st, 1), 0, "%s", br_error_get());
    br_run *got = NULL;
    size_t n = 0;
    cr_assert_eq(br_results_load(&got, &n, path), 0, "%s", br_error_get());
    const br_case_result *c = find_case(&got[0], "k2", 1);
    cr_assert_not_null(c);
    cr_assert_eq(c->precision, BR_PRECISION_FP16_TENSOR);
    cr_assert_eq(got[0].compute_peaks[BR_PRECISION_FP16_TENSOR].present, 1, "kept from a");
    cr_assert_eq(got[0].compute_peaks[BR_PRECISION_FP16_TENSOR].ops_per_sm_clock, 4096);
    cr_assert_eq(got[0].compute_peaks[BR_PRECISION_FP32].present, 1, "b's");
    cr_assert_eq(find_case(&got[0], "k", 1)->precision, BR_PRECISION_NONE);
    br_results_free(got, n);
    br_run_dispose(&a);
    br_run_dispose(&b);
    free(path);
}

Test(baseline, save_refuses_to_overwrite_what_it_cannot_read_or_another_device) {
    char *path = br_strfmt("%s/b.json", tmp);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("{\"schema_version\": 3, \"runs\": [", f); /* truncated */
    fclose(f);
    br_run r;
    small_run(&r, "s", "aaaaaaaaaa000000000000000000000000000000");
    timed(&r, 0, 1, 1000, 900);
    cr_assert_eq(br_baseline_save(path, &r, NULL, 1), -2);
    cr_assert(strstr(br_error_get(), "not overwritten"), "%s", br_error_get());
    char *text = slurp_file(path);
    cr_assert_str_eq(text, "{\"schema_version\": 3, \"runs\": [");
    free(text);

    unlink(path);
    cr_assert_eq(br_baseline_save(path, &r, NULL, 1), 0, "%s", br_error_get());
    snprintf(r.device.name, sizeof r.device.name, "NVIDIA H200");
    cr_assert_eq(br_baseline_save(path, &r, NULL, 1), -2);
    cr_assert(strstr(br_error_get(), "measured on 'NVIDIA H100 80GB HBM3', not on 'NVIDIA H200'"),
              "%s", br_error_get());
    br_run_dispose(&r);
    free(path);
}

Test(baseline, load_finds_the_suite_and_says_when_there_is_none) {
    char *path = br_strfmt("%s/b.json", tmp);
    br_run r, got;
    small_run(&r, "s", "aaaaaaaaaa000000000000000000000000000000");
    timed(&r, 0, 1, 1000, 900);
    cr_assert_eq(br_baseline_load(&got, path, &r), 1, "no file: 1");
    cr_assert_eq(br_baseline_save(path, &r, NULL, 1), 0, "%s", br_error_get());
    cr_assert_eq(br_baseline_load(&got, path, &r), 0, "%s", br_error_get());
    cr_assert_eq(got.n_cases, 1);
    br_run_dispose(&got);
    free(r.suite_name);
    r.suite_name = strdup("t");
    cr_assert_eq(br_baseline_load(&got, path, &r), -1);
    cr_assert(strstr(br_error_get(), "holds no run of suite 't'"), "%s", br_error_get());
    br_run_dispose(&got);
    br_run_dispose(&r);
    free(path);
}

/* The run medians of the cold timing of kernel k, n=1 in the baseline at path. */
static size_t saved_medians(const char *path, double *out, size_t max) {
    br_run *got = NULL;
    size_t n = 0;
    cr_assert_eq(br_results_load(&got, &n, path), 0, "%s", br_error_get());
    const br_timing *t = &find_case(&got[0], "k", 1)->cold;
    size_t m = t->n_run_medians;
    for (size_t i = 0; i < m && i < max; i++)
        out[i] = t->run_medians[i];
    br_results_free(got, n);
    return m;
}

/* Save a run at commit sha with case (k, n=1) around `center` ns. */
static void save_one(const char *path, const char *sha, double center, size_t keep) {
    br_run r;
    small_run(&r, "s", sha);
    r.regression.keep = keep;
    timed(&r, 0, 1, center, 900);
    cr_assert_eq(br_baseline_save(path, &r, NULL, 1), 0, "%s", br_error_get());
    br_run_dispose(&r);
}

Test(baseline, every_save_appends_run_medians_and_keeps_the_last_k) {
    char *path = br_strfmt("%s/b.json", tmp);
    double med[BR_RUN_MEDIANS_MAX + 1];
    /* Three saves at three commits, a dirty one among them: all count. */
    const double centers[] = {1000, 1030, 990};
    const char *shas[] = {"aaaaaaaaaa000000000000000000000000000000",
                          "bbbbbbbbbb000000000000000000000000000000",
                          "cccccccccc000000000000000000000000000000"};
    for (int i = 0; i < 3; i++) {
        save_one(path, shas[i], centers[i], 0);
        cr_assert_eq(saved_medians(path, med, 8), (size_t)i + 1);
        for (int k = 0; k <= i; k++)
            cr_assert_float_eq(med[k], centers[k], 1e-9);
    }
    /* Twelve more: only the last keep (default 10) stay, oldest first. */
    for (int i = 0; i < 12; i++)
        save_one(path, shas[i % 3], 2000 + i, 0);
    cr_assert_eq(saved_medians(path, med, BR_RUN_MEDIANS_MAX), BR_DEFAULT_REGRESSION_KEEP);
    cr_assert_float_eq(med[0], 2002, 1e-9);
    cr_assert_float_eq(med[BR_DEFAULT_REGRESSION_KEEP - 1], 2011, 1e-9);
    /* regression.keep: 3 trims at the next save; 1 keeps only the last. */
    save_one(path, shas[0], 3000, 3);
    cr_assert_eq(saved_medians(path, med, 8), 3);
    cr_assert_float_eq(med[0], 2010, 1e-9);
    cr_assert_float_eq(med[2], 3000, 1e-9);
    save_one(path, shas[0], 3100, 1);
    cr_assert_eq(saved_medians(path, med, 8), 1);
    cr_assert_float_eq(med[0], 3100, 1e-9);
    free(path);
}

/* A save of kernel k at median `center` whose source has git blob id
 * `source_sha` ("" unknown), its run compared as `status` beforehand. */
static void save_source(const char *path, const char *source_sha, double center, br_change status) {
    br_run r;
    small_run(&r, "s", "bbbbbbbbbb000000000000000000000000000000");
    timed(&r, 0, 1, center, 900);
    snprintf(r.kernels[0].source_sha, sizeof r.kernels[0].source_sha, "%s", source_sha);
    br_comparison *cmp = calloc(1, sizeof *cmp);
    cr_assert_not_null(cmp);
    cmp->entries = calloc(1, sizeof *cmp->entries);
    cr_assert_not_null(cmp->entries);
    cmp->n_entries = 1;
    cmp->entries[0] = (br_compare_entry){.case_index = 0, .status = status, .spread_runs = 3};
    r.comparison = cmp;
    cr_assert_eq(br_baseline_save(path, &r, NULL, 1), 0, "%s", br_error_get());
    br_run_dispose(&r);
}

Test(baseline, only_a_change_of_code_starts_a_record_over) {
    /* Issue 38: a save of the same code whose comparison read it faster or
     * slower (a loaded machine) once restarted the record, leaving two
     * medians and t(1). Now the record restarts only when the kernel's
     * source changed (git blob ids, both known). */
    char *path = br_strfmt("%s/b.json", tmp);
    double med[8];
    const char *src_a = "1111111111000000000000000000000000000000";
    const char *src_b = "2222222222000000000000000000000000000000";
    save_source(path, src_a, 1000, BR_CHANGE_SAME);
    save_source(path, src_a, 1010, BR_CHANGE_SAME);
    save_source(path, src_a, 1005, BR_CHANGE_SAME);
    save_source(path, src_a, 1700, BR_CHANGE_SLOWER); /* the same code, read slower */
    cr_assert_eq(saved_medians(path, med, 8), 4, "a rerun that read differently is evidence");
    cr_assert_float_eq(med[3], 1700, 1e-9);
    save_source(path, "", 700, BR_CHANGE_FASTER); /* source unknown: kept */
    cr_assert_eq(saved_medians(path, med, 8), 5);
    save_source(path, src_b, 700, BR_CHANGE_SAME); /* new code: over, whatever was read */
    cr_assert_eq(saved_medians(path, med, 8), 1, "the old medians describe other code");
    cr_assert_float_eq(med[0], 700, 1e-9);
    save_source(path, src_b, 705, BR_CHANGE_SAME);
    cr_assert_eq(saved_medians(path, med, 8), 2);
    free(path);
}

/* --- concurrent saves ---------------------------------------------------------------- */

/* A child that waits on the pipe `go` (until its write end closes), then
 * saves r to path and exits 0 when the save succeeded. */
static pid_t save_when_told(const char *path, const br_run *r, int go[2], int quiet) {
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        char c;
        close(go[1]);
        (void)!read(go[0], &c, 1);
        _exit(br_baseline_save(path, r, NULL, quiet) == 0 ? 0 : 1);
    }
    return pid;
}

static int exited_ok(pid_t pid) {
    int st;
    return waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

Test(baseline, concurrent_saves_of_disjoint_kernels_keep_every_case) {
    /* Two runs started together on one suite, -k k and -k k2 (issue 33:
     * without the lock, 5 of 20 such pairs kept only one run's cases). */
    br_run a, b;
    small_run(&a, "s", "aaaaaaaaaa000000000000000000000000000000");
    small_run(&b, "s", "aaaaaaaaaa000000000000000000000000000000");
    char *path = baseline_in_tmp(&a);
    for (int64_t n = 1; n <= 64; n *= 2) { /* a document big enough to take a while */
        timed(&a, 0, n, 1000.0 * (double)n, 900.0 * (double)n);
        timed(&b, 1, n, 2000.0 * (double)n, 1900.0 * (double)n);
    }
    size_t lost = 0;
    for (int pair = 0; pair < 20; pair++) {
        unlink(path);
        int go[2];
        cr_assert_eq(pipe(go), 0);
        pid_t pa = save_when_told(path, &a, go, 1), pb = save_when_told(path, &b, go, 1);
        close(go[0]);
        close(go[1]); /* both start now */
        cr_assert(exited_ok(pa) && exited_ok(pb), "pair %d: a save failed", pair);
        br_run *got = NULL;
        size_t n = 0;
        cr_assert_eq(br_results_load(&got, &n, path), 0, "%s", br_error_get());
        lost += got[0].n_cases != a.n_cases + b.n_cases;
        br_results_free(got, n);
    }
    cr_assert_eq(lost, 0, "%zu of 20 pairs lost a run's cases", lost);
    br_run_dispose(&a);
    br_run_dispose(&b);
    free(path);
}

Test(baseline, a_save_waits_for_the_lock_and_says_so) {
    char *path = br_strfmt("%s/b.json", tmp), *err = br_strfmt("%s/err.txt", tmp);
    br_run r;
    small_run(&r, "s", "aaaaaaaaaa000000000000000000000000000000");
    timed(&r, 0, 1, 1000, 900);
    br_lock held;
    cr_assert_eq(br_lock_take(&held, path, 1e9, 1), 0, "%s", br_error_get());
    int go[2];
    cr_assert_eq(pipe(go), 0);
    fflush(stderr);
    int saved = dup(2), fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    cr_assert(saved >= 0 && fd >= 0);
    dup2(fd, 2); /* the child's stderr */
    pid_t pid = save_when_told(path, &r, go, 0);
    dup2(saved, 2);
    close(saved);
    close(fd);
    close(go[0]);
    close(go[1]);
    struct timespec wait = {1, 500 * 1000 * 1000};
    nanosleep(&wait, NULL);
    struct stat st;
    cr_assert_neq(stat(path, &st), 0, "nothing written while the lock is held");
    br_lock_release(&held);
    cr_assert(exited_ok(pid));
    char *text = slurp_file(err);
    cr_assert(strstr(text, "benchrun: waiting for ") && strstr(text, "/.b.json.lock"), "%s", text);
    cr_assert_eq(stat(path, &st), 0, "saved once the lock was free");
    free(text);
    br_run_dispose(&r);
    free(path);
    free(err);
}

/* --- atomic write under SIGKILL ----------------------------------------------------- */

/* Writes half of `text`, then the process kills itself: a crash in the
 * middle of writing a baseline. */
static int write_half_then_die(FILE *f, void *p) {
    const char *text = p;
    fwrite(text, 1, strlen(text) / 2, f);
    fflush(f);
    fsync(fileno(f));
    raise(SIGKILL);
    return 0;
}

Test(baseline, sigkill_in_the_middle_of_a_write_leaves_the_old_baseline_whole) {
    char *path = br_strfmt("%s/b.json", tmp);
    br_run r;
    small_run(&r, "s", "aaaaaaaaaa000000000000000000000000000000");
    timed(&r, 0, 1, 1000, 900);
    cr_assert_eq(br_baseline_save(path, &r, NULL, 1), 0, "%s", br_error_get());
    char *before = slurp_file(path);

    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        br_write_atomic(path, write_half_then_die, before);
        _exit(0); /* not reached */
    }
    int st;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    cr_assert(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    char *after = slurp_file(path);
    cr_assert_str_eq(after, before, "the baseline changed after a SIGKILL mid-write");
    free(after);
    free(before);
    br_run_dispose(&r);
    free(path);
}

Test(baseline, sigkill_at_any_moment_of_a_real_save_leaves_old_or_new_never_a_part) {
    char *path = br_strfmt("%s/b.json", tmp);
    br_run old_run, new_run;
    /* Big enough that writing takes a while: 40 cases x 4000 samples. */
    small_run(&old_run, "s", "aaaaaaaaaa000000000000000000000000000000");
    small_run(&new_run, "s", "bbbbbbbbbb000000000000000000000000000000");
    free(old_run.cases);
    free(new_run.cases);
    old_run.cases = xcalloc(40, sizeof *old_run.cases);
    new_run.cases = xcalloc(40, sizeof *new_run.cases);
    static double s[4000];
    for (int64_t n = 0; n < 40; n++) {
        spread(s, 4000, 1000.0 + (double)n);
        set_timing(&add_case(&old_run, 0, (size_t)n, &n, BR_STATUS_OK, NULL, NULL, NAN, NAN)->cold,
                   s, 4000, 1.0, 1, BR_STOP_NOISE, 1980);
        set_timing(&add_case(&new_run, 0, (size_t)n, &n, BR_STATUS_OK, NULL, NULL, NAN, NAN)->cold,
                   s, 4000, 1.1, 1, BR_STOP_NOISE, 1980);
    }
    /* The old baseline, and what saving the new run over it writes (each
     * case's run medians: the old one's, then the new one's). */
    char *other = br_strfmt("%s/new.json", tmp);
    cr_assert_eq(br_baseline_save(path, &old_run, NULL, 1), 0, "%s", br_error_get());
    char *old_text = slurp_file(path);
    put_file(other, old_text);
    double t0 = br_now_ns(); /* how long one save takes, to spread the kills over it */
    cr_assert_eq(br_baseline_save(other, &new_run, NULL, 1), 0, "%s", br_error_get());
    double save_ns = br_now_ns() - t0;
    char *new_text = slurp_file(other);
    cr_assert_str_neq(old_text, new_text);

    int saw_old = 0, saw_new = 0;
    for (int i = 0; i < 24; i++) {
        pid_t pid = fork();
        cr_assert_geq(pid, 0);
        if (pid == 0)
            _exit(br_baseline_save(path, &new_run, NULL, 1) == 0 ? 0 : 1);
        struct timespec d = {0, (long)(save_ns * (double)(i % 12) / 10.0)};
        nanosleep(&d, NULL);
        kill(pid, SIGKILL);
        int st;
        cr_assert_eq(waitpid(pid, &st, 0), pid);
        char *now = slurp_file(path);
        int is_old = strcmp(now, old_text) == 0, is_new = strcmp(now, new_text) == 0;
        cr_assert(is_old || is_new, "kill %d (%s) left a baseline that is neither old nor new", i,
                  WIFSIGNALED(st) ? "killed" : "finished");
        saw_old |= is_old;
        saw_new |= is_new;
        br_run *got = NULL;
        size_t n = 0;
        cr_assert_eq(br_results_load(&got, &n, path), 0, "%s", br_error_get());
        br_results_free(got, n);
        free(now);
        /* Put the old one back, so that every round has a baseline to lose. */
        if (is_new)
            put_file(path, old_text);
    }
    cr_log_info("SIGKILL rounds: old kept %s, new complete %s", saw_old ? "yes" : "no",
                saw_new ? "yes" : "no");
    cr_assert(saw_old, "no kill landed before the rename");
    free(old_text);
    free(new_text);
    free(other);
    br_run_dispose(&old_run);
    br_run_dispose(&new_run);
    free(path);
}

/* --devices: a run over several GPUs of one model (its cases record the
 * device that measured each) and another run on a third GPU of that model
 * share one baseline file; saving one over the other is accepted (not
 * "another device's"), and each case keeps its device through the file. */
Test(baseline, devices_of_one_model_share_a_baseline_and_cases_keep_their_device) {
    br_run a, b;
    small_run(&a, "s", "aaaaaaaaaa000000000000000000000000000000");
    snprintf(a.device.uuid, sizeof a.device.uuid, "GPU-aaaaaaaa");
    br_case_result *c0 = timed(&a, 0, 1, 1000, 900), *c1 = timed(&a, 0, 2, 2000, 1900);
    c0->device_present = c1->device_present = 1;
    c0->device_index = 0;
    c1->device_index = 1;
    snprintf(c0->device_uuid, sizeof c0->device_uuid, "GPU-aaaaaaaa");
    snprintf(c1->device_uuid, sizeof c1->device_uuid, "GPU-bbbbbbbb");
    small_run(&b, "s", "aaaaaaaaaa000000000000000000000000000000");
    b.device.index = 2;
    snprintf(b.device.uuid, sizeof b.device.uuid, "GPU-cccccccc");
    timed(&b, 1, 1, 1500, 1400);

    char *pa = br_baseline_path(tmp, &a), *pb = br_baseline_path(tmp, &b);
    cr_assert_str_eq(pa, pb, "one file per model, whatever the device");
    br_save_stats st;
    cr_assert_eq(br_baseline_save(pa, &a, &st, 1), 0, "%s", br_error_get());
    cr_assert_eq(br_baseline_save(pb, &b, &st, 1), 0, "%s", br_error_get());
    cr_expect_eq(st.written, 1);
    cr_expect_eq(st.kept, 2);

    br_run *got = NULL;
    size_t n = 0;
    cr_assert_eq(br_results_load(&got, &n, pa), 0, "%s", br_error_get());
    cr_assert_eq(n, 1);
    const br_case_result *g1 = find_case(&got[0], "k", 2), *g2 = find_case(&got[0], "k2", 1);
    cr_assert(g1 && g2);
    cr_expect(g1->device_present && g1->device_index == 1);
    cr_expect_str_eq(g1->device_uuid, "GPU-bbbbbbbb");
    cr_expect_not(g2->device_present, "a one-device run's case records no device");
    br_results_free(got, n);
    free(pa);
    free(pb);
    br_run_dispose(&a);
    br_run_dispose(&b);
}
