/* SPDX-License-Identifier: Apache-2.0 */
/* test_history.c - the history model (results/history.h): loading a
 * directory of results documents in commit order, the -k / -p / --suite /
 * --last filters, the errors for a directory without results and for a file
 * that is not one; and that the fixture files (tests/reporters/history_fixture.h)
 * are current: BR_UPDATE_GOLDEN=1 rewrites them. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reporters/history_fixture.h"

TestSuite(history, .init = history_init, .fini = history_fini, .timeout = 120);

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
            cr_log_info("updated %s", want_path);
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

/* --- change points (history_changes.c) ------------------------------------------------ */

/* The view of every run of h (one suite) with its change points. */
static void changes_view(br_history_view *v, const br_history *h) {
    cr_assert_eq(br_history_view_build(v, h, 0, h->n_runs, 0), 0, "%s", br_error_get());
    cr_assert_eq(br_history_view_changes(v, NULL), 0, "%s", br_error_get());
}

/* The view row of (kernel, n). */
static size_t row_index(const br_history_view *v, const char *kernel, int64_t n) {
    for (size_t row = 0; row < v->n_rows; row++) {
        const br_run *r = br_history_view_run(v, v->rows[row].run);
        const br_case_result *c = &r->cases[v->rows[row].ci];
        if (strcmp(br_history_kernel_of(r, c), kernel) == 0 && c->params[0] == n)
            return row;
    }
    cr_assert_fail("no row %s %lld", kernel, (long long)n);
    return 0;
}

Test(history, change_points_of_the_step_history) {
    char *dir = step_history_dir();
    br_history h;
    br_history_view v;
    load_ok(&h, dir, NULL);
    changes_view(&v, &h);
    cr_assert_eq(v.n_series, 5);
    cr_assert_eq(v.n_short, 0);
    cr_assert_eq(v.n_changes, 3);
    cr_assert_eq(v.cp_cfg.alpha, BR_CHANGEPOINT_ALPHA);
    size_t warp = row_index(&v, "reduce_warp", 1 << 24), cub = row_index(&v, "reduce_cub", 1 << 24);
    /* In row order (the newest run's case order: warp before cub), then run order. */
    const br_history_change *c = v.changes;
    cr_assert_eq(c[0].row, warp);
    cr_assert_eq(c[0].run, 16); /* run 17 */
    cr_assert_eq(c[0].prev, 15);
    cr_assert_eq(c[0].dev, 0);
    cr_assert(br_history_change_slower(&v, &c[0]));
    cr_assert(c[0].step < -0.02 && c[0].step > -0.045, "%g", c[0].step);
    cr_assert(c[0].p <= 0.01, "%g", c[0].p);
    cr_assert_eq(c[1].row, cub);
    cr_assert_eq(c[1].run, 10); /* run 11 */
    cr_assert_not(br_history_change_slower(&v, &c[1]));
    cr_assert_eq(c[2].row, cub);
    cr_assert_eq(c[2].run, 23); /* run 24: run 23's draw sits at the old level */
    cr_assert(br_history_change_slower(&v, &c[2]));
    /* The cells of those runs point at them; no other cell does. */
    size_t marked = 0;
    for (size_t row = 0; row < v.n_rows; row++)
        for (size_t j = 0; j < v.n; j++) {
            size_t k = br_history_view_cell(&v, row, j)->cp;
            if (k == BR_HISTORY_NONE)
                continue;
            marked++;
            cr_assert(v.changes[k].row == row && v.changes[k].run == j);
        }
    cr_assert_eq(marked, 3);
    /* The levels are the medians of the values shown (GB/s) between change
     * points: run 1..16 of warp's. */
    double vals[16];
    for (size_t j = 0; j < 16; j++) {
        const br_run *r = br_history_view_run(&v, j);
        vals[j] =
            br_history_case_value(r, &r->cases[br_history_view_cell(&v, warp, j)->ci], v.metric);
    }
    cr_assert_float_eq(c[0].before, br_stats_finite_median(vals, 16), 1e-9);
    br_history_view_dispose(&v);
    br_history_dispose(&h);
    free(dir);
}

Test(history, change_points_stay_within_one_device) {
    /* The step history with runs 16..30 on another GPU that is twice as
     * slow and no planted step: the device's level is not a change point. */
    char *dir = br_path_join(tmp, "devices");
    cr_assert_eq(mkdir(dir, 0755), 0);
    for (size_t i = 1; i <= STEP_RUNS; i++) {
        br_run r;
        step_run(&r, i);
        if (i >= 16) {
            snprintf(r.device.name, sizeof r.device.name, "NVIDIA A100-SXM4-80GB");
            for (size_t k = 0; k < r.n_cases; k++) {
                br_timing *t = &r.cases[k].cold;
                for (size_t s = 0; s < t->n_samples; s++)
                    t->samples[s] *= 2.0;
                cr_assert_eq(br_stats_compute(&t->stats, t->samples, t->n_samples), 0);
            }
            br_run_derive(&r);
        }
        char name[32];
        snprintf(name, sizeof name, "run-%02zu.json", i);
        write_doc(dir, name, &r, 1);
        br_run_dispose(&r);
    }
    br_history h;
    br_history_view v;
    br_history_filter f = {.kernels = (const char *const[]){"reduce_warp"}, .n_kernels = 1};
    load_ok(&h, dir, &f);
    changes_view(&v, &h);
    cr_assert_eq(v.n_devices, 2);
    /* Two cases on two devices: four series; reduce_warp's planted step at
     * 17 has one run before it on the A100: too little to find it. */
    cr_assert_eq(v.n_series, 4);
    cr_assert_eq(v.n_changes, 0, "a change point at run %zu", v.changes[0].run + 1);
    br_history_view_dispose(&v);
    br_history_dispose(&h);
    free(dir);
}
