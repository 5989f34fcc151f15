/* SPDX-License-Identifier: Apache-2.0 */
/* End-to-end baselines: the benchrun executable saves a baseline of a host
 * suite, compares later runs with it (a planted slowdown exits 3, --fail-on
 * and --no-compare change that), refuses another device's baseline, and
 * `benchrun compare` does the same offline; the Markdown and Google
 * Benchmark outputs are written; a baseline saved once still calls a 4x
 * slowdown slower (issue 27), and --history DIR compares with the runs a
 * results directory holds. The planted slowdown: the fixture kernel sum_ok
 * reads its input BR_TEST_SUM_PASSES times per execution. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "base/error.h"
#include "e2e_util.h"
#include "results/run_read.h"

#define E2E BR_FIXTURES_DIR "/e2e"

static char *cache_arg, *dir_arg, *base_path;

static void make_tmp(void) {
    e2e_tmp_make();
    cache_arg = br_strfmt("--cache-dir=%s/cache", tmp);
    dir_arg = br_strfmt("--baseline-dir=%s/baselines", tmp);
    base_path = NULL;
    unsetenv("BR_TEST_SUM_PASSES");
    unsetenv("NO_COLOR");
}

static void drop_tmp(void) {
    e2e_tmp_drop();
    free(cache_arg);
    free(dir_arg);
    free(base_path);
}

TestSuite(e2e_baseline, .init = make_tmp, .fini = drop_tmp, .timeout = 180);

static json_t *load_json(const char *path) {
    json_error_t err;
    json_t *j = json_load_file(path, 0, &err);
    cr_assert_not_null(j, "%s is not valid JSON: %s (line %d)", path, err.text, err.line);
    return j;
}

/* The comparison object of the first run of results file `path`. */
static json_t *comparison_of(json_t *doc) {
    json_t *run = json_array_get(json_object_get(doc, "runs"), 0);
    cr_assert_not_null(run);
    json_t *c = json_object_get(run, "comparison");
    cr_assert(json_is_object(c), "the run has no comparison");
    return c;
}

/* Make results file `path` a baseline saved three times at one commit: each
 * case's cold timing gets run medians 2% apart around its median, as three
 * saves on a quiet machine would leave them. Then the gate decides from the
 * between-run spread (drift.h), not from the samples of two noisy host runs
 * (which a case flagged too noisy never is slower on). */
static void plant_run_medians(const char *path) {
    json_t *doc = load_json(path);
    json_t *cases = json_object_get(json_array_get(json_object_get(doc, "runs"), 0), "cases");
    cr_assert(json_array_size(cases) > 0);
    for (size_t i = 0; i < json_array_size(cases); i++) {
        json_t *cold = json_object_get(json_array_get(cases, i), "cold");
        double m = json_number_value(json_object_get(cold, "median"));
        cr_assert_gt(m, 0);
        json_object_set_new(cold, "run_medians", json_pack("[fff]", m * 0.98, m * 1.02, m));
    }
    cr_assert_eq(json_dump_file(doc, path, JSON_INDENT(1)), 0);
    json_decref(doc);
}

static const char *status_of(json_t *cmp, size_t i) {
    json_t *e = json_array_get(json_object_get(cmp, "cases"), i);
    cr_assert_not_null(e);
    return json_string_value(json_object_get(e, "status"));
}

/* Save a baseline of ok.yaml under tmp/baselines; sets base_path. */
static void save_baseline(void) {
    const char *args[] = {cache_arg, dir_arg, "--save-baseline", E2E "/ok.yaml", NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 0, "exit %d\nstderr:\n%s", r.status, r.err);
    cr_assert(strstr(r.err, "no baseline for this suite and device yet"), "stderr:\n%s", r.err);
    const char *saved = strstr(r.err, "saved baseline ");
    cr_assert_not_null(saved, "stderr:\n%s", r.err);
    saved += strlen("saved baseline ");
    const char *end = strstr(saved, ": 2 case(s) written, 0 kept");
    cr_assert_not_null(end, "stderr:\n%s", r.err);
    base_path = strndup(saved, (size_t)(end - saved));
    cr_assert(strncmp(base_path, tmp, strlen(tmp)) == 0, "saved outside tmp: %s", base_path);
    cr_assert(strstr(base_path, "/baselines/e2e/"), "%s", base_path);
    cr_assert(br_has_suffix(base_path, ".json"));
    e2e_free(&r);

    br_run *runs = NULL;
    size_t n = 0;
    cr_assert_eq(br_results_load(&runs, &n, base_path), 0, "%s", br_error_get());
    cr_assert_eq(n, 1);
    cr_assert_eq(runs[0].n_cases, 2);
    br_results_free(runs, n);
}

/* `benchrun report` of a results file finds the baseline the run was
 * compared with (the file records its path), from any directory: the
 * newcomer's report from another directory said "no baseline for this
 * suite and device yet" and exited 0 where the repository's exited 3. A
 * recorded baseline that is gone is said and fails the report (exit 2),
 * and --fail-on never only says it. */
Test(e2e_baseline, report_finds_the_recorded_baseline_from_any_directory) {
    save_baseline();
    plant_run_medians(base_path);
    char *json = br_strfmt("%s/slow.json", tmp), *moved = br_strfmt("%s.moved", base_path);
    setenv("BR_TEST_SUM_PASSES", "8", 1);
    const char *args[] = {cache_arg, dir_arg, "--confirm",    "never",
                          "--json",  json,    E2E "/ok.yaml", NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 3, "exit %d\nstderr:\n%s", r.status, r.err);
    e2e_free(&r);
    const char *report[] = {"report", "-q", json, NULL};
    cr_assert_eq(e2e_run(&r, "/", report), 0);
    cr_expect_eq(r.status, 3, "from /: exit %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    cr_expect(strstr(r.out, "vs baseline: 2 slower"), "stdout:\n%s", r.out);
    e2e_free(&r);
    cr_assert_eq(rename(base_path, moved), 0);
    cr_assert_eq(e2e_run(&r, "/", report), 0);
    cr_expect_eq(r.status, 2, "a gone baseline: exit %d\nstderr:\n%s", r.status, r.err);
    cr_expect(strstr(r.err, "which is not there now"), "stderr:\n%s", r.err);
    e2e_free(&r);
    const char *never[] = {"report", "-q", "--fail-on", "never", json, NULL};
    cr_assert_eq(e2e_run(&r, "/", never), 0);
    cr_expect_eq(r.status, 0, "exit %d\nstderr:\n%s", r.status, r.err);
    cr_expect(strstr(r.err, "which is not there now"), "stderr:\n%s", r.err);
    e2e_free(&r);
    cr_assert_eq(rename(moved, base_path), 0);
    free(moved);
    free(json);
}

Test(e2e_baseline, a_planted_slowdown_is_slower_and_exits_3) {
    save_baseline();
    plant_run_medians(base_path);

    char *json = br_strfmt("%s/slow.json", tmp);
    setenv("BR_TEST_SUM_PASSES", "8", 1);
    /* The slowdown is planted through the environment, which both builds of
     * a confirming A/B would see alike: the screen alone is what is tested
     * (the A/B: test_e2e_confirm.c). */
    const char *args[] = {cache_arg, dir_arg, "--confirm",    "never",
                          "--json",  json,    E2E "/ok.yaml", NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 3, "exit %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    cr_assert(strstr(r.out, "vs baseline "), "stdout:\n%s", r.out);
    cr_assert(strstr(r.out, "vs baseline: 2 slower"), "stdout:\n%s", r.out);
    cr_assert_null(strstr(r.out, "\033["), "colour on a pipe");
    cr_assert(strstr(r.err, "a case is slower than the baseline (exit status 3"), "stderr:\n%s",
              r.err);
    json_t *doc = load_json(json);
    json_t *cmp = comparison_of(doc);
    cr_assert_str_eq(status_of(cmp, 0), "slower");
    cr_assert_str_eq(status_of(cmp, 1), "slower");
    json_t *e = json_array_get(json_object_get(cmp, "cases"), 1);
    cr_assert_gt(json_number_value(json_object_get(e, "change")), 1.0, "8 passes: over +100%");
    cr_assert_lt(json_number_value(json_object_get(e, "p_value")), 0.01);
    cr_assert_eq(json_integer_value(json_object_get(json_object_get(cmp, "counts"), "slower")), 2);
    cr_assert_str_eq(json_string_value(json_object_get(cmp, "baseline")), base_path);
    json_decref(doc);
    e2e_free(&r);

    /* --fail-on never reports the same and exits 0; --no-compare skips. */
    const char *never[] = {cache_arg,   dir_arg, "--fail-on",    "never",
                           "--confirm", "never", E2E "/ok.yaml", NULL};
    cr_assert_eq(e2e_run(&r, NULL, never), 0);
    cr_assert_eq(r.status, 0, "exit %d\nstdout:\n%s", r.status, r.out);
    cr_assert(strstr(r.out, "vs baseline: 2 slower"), "stdout:\n%s", r.out);
    e2e_free(&r);
    const char *skip[] = {cache_arg, dir_arg, "--no-compare", E2E "/ok.yaml", NULL};
    cr_assert_eq(e2e_run(&r, NULL, skip), 0);
    cr_assert_eq(r.status, 0);
    cr_assert_null(strstr(r.out, "vs baseline"), "stdout:\n%s", r.out);
    e2e_free(&r);
    /* A threshold above the slowdown makes it "same". */
    const char *wide[] = {cache_arg, dir_arg, "--threshold", "99%", E2E "/ok.yaml", NULL};
    setenv("BR_TEST_SUM_PASSES", "1", 1);
    cr_assert_eq(e2e_run(&r, NULL, wide), 0);
    cr_assert_eq(r.status, 0, "exit %d\nstdout:\n%s", r.status, r.out);
    cr_assert(strstr(r.out, "vs baseline: 0 slower, 2 same"), "stdout:\n%s", r.out);
    e2e_free(&r);
    free(json);
}

Test(e2e_baseline, an_unchanged_rerun_exits_by_its_comparison) {
    save_baseline();
    char *json = br_strfmt("%s/again.json", tmp);
    char *md = br_strfmt("%s/out.md", tmp);
    char *gb = br_strfmt("%s/gbench.json", tmp);
    const char *args[] = {cache_arg, dir_arg,    "--json", json,           "--markdown",
                          md,        "--gbench", gb,       E2E "/ok.yaml", NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    json_t *doc = load_json(json);
    json_t *cmp = comparison_of(doc);
    json_int_t slower =
        json_integer_value(json_object_get(json_object_get(cmp, "counts"), "slower"));
    /* Host timings on a shared CI machine may move: the exit status must
     * agree with what the comparison found, whatever that is. */
    cr_assert_eq(r.status, slower ? 3 : 0, "exit %d with %lld slower", r.status, (long long)slower);
    cr_assert_eq(json_array_size(json_object_get(cmp, "cases")), 2);
    json_decref(doc);

    char *text = NULL;
    cr_assert_eq(br_read_file(&text, NULL, md, 1 << 20), 0);
    cr_assert(strstr(text, "### e2e"), "%s", text);
    cr_assert(strstr(text, "<tr><td>sum_ok</td><td>n=1000</td>"), "%s", text);
    cr_assert(strstr(text, slower ? "**Regression:**" : "**No regression**"), "%s", text);
    free(text);

    json_t *g = load_json(gb);
    json_t *benchmarks = json_object_get(g, "benchmarks");
    cr_assert_eq(json_array_size(benchmarks), 2);
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(benchmarks, 0), "name")),
                     "sum_ok/n:1000");
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(benchmarks, 1), "time_unit")),
                     "ns");
    json_decref(g);
    e2e_free(&r);
    free(json);
    free(md);
    free(gb);
}

Test(e2e_baseline, another_devices_baseline_is_refused_unless_forced) {
    save_baseline();
    json_t *doc = load_json(base_path);
    json_t *host = json_object_get(json_array_get(json_object_get(doc, "runs"), 0), "host");
    json_object_set_new(host, "cpu_model", json_string("Some Other CPU 9000"));
    cr_assert_eq(json_dump_file(doc, base_path, JSON_INDENT(1)), 0);
    json_decref(doc);

    const char *args[] = {cache_arg, dir_arg, E2E "/ok.yaml", NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 2, "exit %d\nstderr:\n%s", r.status, r.err);
    cr_assert(strstr(r.err, "the baseline was measured on 'Some Other CPU 9000'"), "stderr:\n%s",
              r.err);
    cr_assert(strstr(r.err, "--force-device compares anyway"), "stderr:\n%s", r.err);
    /* The results are still printed. */
    cr_assert(strstr(r.out, "sum_ok"), "stdout:\n%s", r.out);
    e2e_free(&r);

    const char *forced[] = {cache_arg,      dir_arg, "--force-device", "--fail-on", "never",
                            E2E "/ok.yaml", NULL};
    cr_assert_eq(e2e_run(&r, NULL, forced), 0);
    cr_assert_eq(r.status, 0, "exit %d\nstderr:\n%s", r.status, r.err);
    cr_assert(strstr(r.out, "another device: forced"), "stdout:\n%s", r.out);
    e2e_free(&r);

    /* --save-baseline over another device's file refuses and keeps it. */
    char *before = NULL;
    cr_assert_eq(br_read_file(&before, NULL, base_path, 1 << 24), 0);
    const char *save[] = {cache_arg,         dir_arg,        "--no-compare",
                          "--save-baseline", E2E "/ok.yaml", NULL};
    cr_assert_eq(e2e_run(&r, NULL, save), 0);
    cr_assert_eq(r.status, 2, "exit %d\nstderr:\n%s", r.status, r.err);
    cr_assert(strstr(r.err, "cannot save the baseline"), "stderr:\n%s", r.err);
    char *after = NULL;
    cr_assert_eq(br_read_file(&after, NULL, base_path, 1 << 24), 0);
    cr_assert_str_eq(after, before);
    free(before);
    free(after);
    e2e_free(&r);
}

Test(e2e_baseline, compare_two_results_files_offline) {
    char *fast = br_strfmt("%s/fast.json", tmp), *slow = br_strfmt("%s/slow.json", tmp);
    const char *a1[] = {cache_arg, "--no-compare", "--json", fast, E2E "/ok.yaml", NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, a1), 0);
    cr_assert_eq(r.status, 0, "stderr:\n%s", r.err);
    e2e_free(&r);
    setenv("BR_TEST_SUM_PASSES", "8", 1);
    const char *a2[] = {cache_arg, "--no-compare", "--json", slow, E2E "/ok.yaml", NULL};
    cr_assert_eq(e2e_run(&r, NULL, a2), 0);
    cr_assert_eq(r.status, 0);
    e2e_free(&r);

    plant_run_medians(fast);
    char *md = br_strfmt("%s/cmp.md", tmp);
    const char *c1[] = {"compare", "--markdown", md, fast, slow, NULL};
    cr_assert_eq(e2e_run(&r, NULL, c1), 0);
    cr_assert_eq(r.status, 3, "exit %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    cr_assert(strstr(r.out, "vs baseline: 2 slower"), "stdout:\n%s", r.out);
    char *text = NULL;
    cr_assert_eq(br_read_file(&text, NULL, md, 1 << 20), 0);
    cr_assert(strstr(text, "**Regression:** 2 case(s) slower than the baseline"), "%s", text);
    cr_assert(strstr(text, "<strong>slower</strong>"), "%s", text);
    free(text);
    e2e_free(&r);

    /* The other way round the cases are faster: that never fails... */
    plant_run_medians(slow);
    const char *c2[] = {"compare", slow, fast, NULL};
    cr_assert_eq(e2e_run(&r, NULL, c2), 0);
    cr_assert_eq(r.status, 0, "exit %d\nstdout:\n%s", r.status, r.out);
    cr_assert(strstr(r.out, "vs baseline: 0 slower, 2 faster"), "stdout:\n%s", r.out);
    e2e_free(&r);
    /* ...unless --fail-on any-change. */
    const char *c3[] = {"compare", "--fail-on", "any-change", slow, fast, NULL};
    cr_assert_eq(e2e_run(&r, NULL, c3), 0);
    cr_assert_eq(r.status, 3);
    e2e_free(&r);

    /* Bad input: exit 2 with the position. */
    char *bad = e2e_put("bad.json", "{\"schema_version\": 3,\n  \"runs\": [}\n");
    const char *c4[] = {"compare", bad, fast, NULL};
    cr_assert_eq(e2e_run(&r, NULL, c4), 0);
    cr_assert_eq(r.status, 2);
    char *want = br_strfmt("%s:2:", bad);
    cr_assert(strstr(r.err, want), "stderr:\n%s", r.err);
    free(want);
    e2e_free(&r);
    const char *c5[] = {"compare", fast, NULL};
    cr_assert_eq(e2e_run(&r, NULL, c5), 0);
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "expected two results files"), "stderr:\n%s", r.err);
    e2e_free(&r);
    free(bad);
    free(md);
    free(fast);
    free(slow);
}

Test(e2e_baseline, a_partial_run_updates_only_its_cases) {
    save_baseline();
    br_run *runs = NULL;
    size_t n = 0;
    cr_assert_eq(br_results_load(&runs, &n, base_path), 0);
    double old1000 = runs[0].cases[0].cold.stats.median;
    double old4096 = runs[0].cases[1].cold.stats.median;
    br_results_free(runs, n);

    /* Only n=4096 (-p is not there yet: a suite with that one size). */
    char *suite = e2e_put("ok4096.yaml", "name: e2e\n"
                                         "source: " E2E "/host_kernels.c\n"
                                         "kernels: [sum_ok]\n"
                                         "params:\n  n: [4096]\n"
                                         "bytes: 4 * n\ncache: warm\nwarmup: 1ms\n"
                                         "measure: {min_samples: 5, min_time: 1ms, timeout: 2s}\n");
    setenv("BR_TEST_SUM_PASSES", "8", 1);
    const char *args[] = {cache_arg, dir_arg, "--fail-on", "never", "--save-baseline", suite, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 0, "exit %d\nstderr:\n%s", r.status, r.err);
    cr_assert(strstr(r.err, ": 1 case(s) written, 1 kept"), "stderr:\n%s", r.err);
    e2e_free(&r);
    cr_assert_eq(br_results_load(&runs, &n, base_path), 0);
    cr_assert_eq(runs[0].n_cases, 2);
    cr_assert_eq(runs[0].cases[0].params[0], 1000);
    cr_assert_float_eq(runs[0].cases[0].cold.stats.median, old1000, 1e-9 * old1000);
    cr_assert_gt(runs[0].cases[1].cold.stats.median, 2 * old4096);
    br_results_free(runs, n);

    /* Saving again with a bigger slowdown: the comparison says slower, but a
     * save accepts the run and never exits 3. (On a loaded CI machine the
     * small size may read "too noisy to tell": at least one is slower.) */
    setenv("BR_TEST_SUM_PASSES", "20", 1);
    plant_run_medians(base_path);
    const char *again[] = {cache_arg, dir_arg, "--save-baseline", E2E "/ok.yaml", NULL};
    cr_assert_eq(e2e_run(&r, NULL, again), 0);
    cr_assert_eq(r.status, 0, "exit %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    cr_assert(strstr(r.out, "vs baseline: 2 slower") || strstr(r.out, "vs baseline: 1 slower"),
              "stdout:\n%s", r.out);
    e2e_free(&r);
    free(suite);
}

/* The once-saved repro of issue 27 (the lead's before-stop hook runs the
 * same): save a baseline once, make the kernel 4x slower, and every size is
 * slower, exit 3. Before, 2^16 and 2^18 read "unknown: flagged too noisy
 * (N), spread unknown" (a stop on "ci" counted as not converged) and the run
 * exited 0, whatever the step. The step was 2x until the H200 machine's
 * host CPU (16 virtual cores) read 1.7x slower in the save than in the run
 * seconds later (issue 44): a 2x step then read +18% at 2^20. 4x stands out
 * of such a drift; what the screen can find is simulated in test_power. */
Test(e2e_baseline, a_baseline_saved_once_calls_a_4x_slowdown_slower_at_every_size) {
    const char *save[] = {cache_arg, dir_arg, "--save-baseline", E2E "/once.yaml", NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, save), 0);
    cr_assert_eq(r.status, 0, "exit %d\nstderr:\n%s", r.status, r.err);
    e2e_free(&r);
    char *json = br_strfmt("%s/twice.json", tmp);
    setenv("BR_TEST_SUM_PASSES", "4", 1); /* the environment: the screen alone (above) */
    const char *args[] = {cache_arg, dir_arg, "--confirm",      "never",
                          "--json",  json,    E2E "/once.yaml", NULL};
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 3, "exit %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    cr_assert(strstr(r.out, "vs baseline: 3 slower"), "stdout:\n%s", r.out);
    cr_assert(strstr(r.out, "one save: ±5% drift between runs assumed"), "stdout:\n%s", r.out);
    cr_assert_null(strstr(r.out, "flagged too noisy"), "stdout:\n%s", r.out);
    json_t *doc = load_json(json);
    json_t *cmp = comparison_of(doc);
    for (size_t i = 0; i < 3; i++) {
        json_t *e = json_array_get(json_object_get(cmp, "cases"), i);
        cr_assert_str_eq(status_of(cmp, i), "slower", "case %zu", i);
        cr_assert_str_eq(json_string_value(json_object_get(e, "spread_from")), "assumed");
        cr_assert_gt(json_number_value(json_object_get(e, "change")), 0.5, "case %zu", i);
        cr_assert_lt(json_number_value(json_object_get(e, "mde")), 0.5, "case %zu", i);
    }
    json_decref(doc);
    e2e_free(&r);
    free(json);
}

/* Every save appends: three saves leave three run medians per case, and the
 * gate says the spread is the case's own, moderated by what the suite lends. The
 * suite's 50% threshold keeps a noisy rerun from being called changed,
 * which would restart that case's record (and leave two cases, too few
 * for a prior). */
Test(e2e_baseline, three_saves_leave_three_run_medians) {
    const char *save[] = {cache_arg, dir_arg, "--save-baseline", E2E "/thrice.yaml", NULL};
    e2e_result r;
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(e2e_run(&r, NULL, save), 0);
        cr_assert_eq(r.status, 0, "save %d: exit %d\nstderr:\n%s", i, r.status, r.err);
        e2e_free(&r);
    }
    char *json = br_strfmt("%s/next.json", tmp);
    const char *args[] = {cache_arg, dir_arg, "--json", json, E2E "/thrice.yaml", NULL};
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    json_t *doc = load_json(json);
    json_t *cmp = comparison_of(doc);
    for (size_t i = 0; i < 3; i++) {
        json_t *e = json_array_get(json_object_get(cmp, "cases"), i);
        cr_assert_eq(json_integer_value(json_object_get(e, "spread_runs")), 3, "case %zu", i);
        /* Three cases are a prior fitted to fewer than BR_DRIFT_FEW_CASES: it
         * lends, or yields to the assumed drift where that is sharper, no
         * smaller and worth more df (gate/drift.h, "Power"); either way the
         * case's own two degrees of freedom join the lender's. */
        const char *from = json_string_value(json_object_get(e, "spread_from"));
        cr_assert(from && (strcmp(from, "moderated") == 0 || strcmp(from, "assumed+runs") == 0),
                  "case %zu: %s", i, from ? from : "(null)");
        if (strcmp(from, "assumed+runs") == 0)
            cr_assert_float_eq(json_real_value(json_object_get(e, "spread_df")), 22.0, 1e-9);
    }
    json_decref(doc);
    e2e_free(&r);
    free(json);
}

/* --history DIR: the runs --results-dir wrote are the baseline. The suite
 * is copied out of the git work tree: outside git every earlier run counts
 * as another commit (in the tree all would be this commit, and left out). */
Test(e2e_baseline, history_compares_with_the_runs_of_a_results_directory) {
    char *dir = br_strfmt("%s/results", tmp), *rd = br_strfmt("--results-dir=%s", dir);
    char *hist = br_strfmt("--history=%s", dir);
    cr_assert_eq(mkdir(dir, 0755), 0);
    char *cp =
        br_strfmt("cp '%s/once.yaml' '%s/host_kernels.c' '%s/kernels/benchrun_kernel.h' '%s'", E2E,
                  E2E, BR_SOURCE_DIR, tmp);
    cr_assert_eq(system(cp), 0, "%s", cp);
    free(cp);
    char *suite = br_strfmt("%s/once.yaml", tmp);
    e2e_result r;
    const char *none[] = {cache_arg, hist, suite, NULL};
    cr_assert_eq(e2e_run(&r, NULL, none), 0);
    cr_assert_eq(r.status, 0, "exit %d\nstderr:\n%s", r.status, r.err);
    cr_assert(strstr(r.err, "nothing to compare with"), "stderr:\n%s", r.err);
    e2e_free(&r);
    const char *nightly[] = {cache_arg, rd, "--no-compare", suite, NULL};
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(e2e_run(&r, NULL, nightly), 0);
        cr_assert_eq(r.status, 0, "run %d: exit %d\nstderr:\n%s", i, r.status, r.err);
        e2e_free(&r);
    }
    setenv("BR_TEST_SUM_PASSES", "4", 1);
    cr_assert_eq(e2e_run(&r, NULL, none), 0);
    cr_assert_eq(r.status, 3, "exit %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    cr_assert(strstr(r.out, "(last 3 runs at other commits)"), "stdout:\n%s", r.out);
    /* Three runs of a host kernel on a shared CI machine may spread widely
     * at one size (its MDE then says so); a 4x step stands out somewhere.
     * (2x did not on the H200 machine, whose host CPU moved by 1.7x from
     * run to run: its three runs gave MDEs of 124-186%, issue 44.) */
    cr_assert(strstr(r.out, "vs baseline: ") && !strstr(r.out, "vs baseline: 0 slower"),
              "stdout:\n%s", r.out);
    e2e_free(&r);
    const char *both[] = {cache_arg, hist, "--baseline", "x.json", suite, NULL};
    cr_assert_eq(e2e_run(&r, NULL, both), 0);
    cr_assert_eq(r.status, 2, "exit %d\nstderr:\n%s", r.status, r.err);
    cr_assert(strstr(r.err, "--history and --baseline"), "stderr:\n%s", r.err);
    e2e_free(&r);
    free(suite);
    free(dir);
    free(rd);
    free(hist);
}
