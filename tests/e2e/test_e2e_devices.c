/* SPDX-License-Identifier: Apache-2.0 */
/* End-to-end --devices on host cases with fake device slots
 * (BENCHRUN_FAKE_DEVICES, test-only: measure/devices.h): every case is
 * measured exactly once and records the slot that measured it; a slot
 * whose worker crashes (the fixture kernel segfaults in the worker bound
 * to BENCHRUN_TEST_BROKEN_DEVICE) is retired after the crashed case is
 * measured on another; a kernel that crashes everywhere fails after two
 * devices; bad lists and devices of two models exit 2; --budget is
 * shared by the devices; without
 * --devices no case records a device; a baseline saved by a run over
 * several devices is compared with a one-worker run. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdlib.h>

#include "base/error.h"
#include "e2e_util.h"
#include "results/run_read.h"

#define SUITE   BR_FIXTURES_DIR "/devices/devices.yaml"
#define N_SIZES 6 /* params n of the suite */

static char *cache_arg, *json_path, *json_arg, *dir_arg;

static void make_tmp(void) {
    e2e_tmp_make();
    cache_arg = br_strfmt("--cache-dir=%s/cache", tmp);
    json_path = br_strfmt("%s/out.json", tmp);
    json_arg = br_strfmt("--json=%s", json_path);
    dir_arg = br_strfmt("--baseline-dir=%s/baselines", tmp);
    setenv("BENCHRUN_FAKE_DEVICES", "3", 1);
    unsetenv("BENCHRUN_TEST_BROKEN_DEVICE");
}

static void drop_tmp(void) {
    e2e_tmp_drop();
    free(cache_arg);
    free(json_path);
    free(json_arg);
    free(dir_arg);
    unsetenv("BENCHRUN_FAKE_DEVICES");
    unsetenv("BENCHRUN_TEST_BROKEN_DEVICE");
}

TestSuite(e2e_devices, .init = make_tmp, .fini = drop_tmp, .timeout = 180);

/* The run of the results file written: one run, cases of kernel `sum`. */
static br_run *load_run(size_t *n_runs) {
    br_run *runs = NULL;
    cr_assert_eq(br_results_load(&runs, n_runs, json_path), 0, "%s", br_error_get());
    cr_assert_eq(*n_runs, 1u);
    return runs;
}

Test(e2e_devices, every_case_is_measured_once_and_records_its_device) {
    const char *args[] = {cache_arg,   json_arg, "-q",  "-k", "sum",
                          "--devices", "0,1,2",  SUITE, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 0, "exit %d\nstderr:\n%s", r.status, r.err);
    size_t n_runs;
    br_run *runs = load_run(&n_runs);
    cr_assert_eq(runs[0].n_cases, (size_t)N_SIZES);
    int seen_combo[N_SIZES] = {0}, per_device[3] = {0};
    for (size_t i = 0; i < runs[0].n_cases; i++) {
        const br_case_result *c = &runs[0].cases[i];
        cr_expect_eq(c->status, BR_STATUS_OK, "case %zu: %s", i, c->message ? c->message : "");
        cr_assert(c->device_present, "case %zu records no device", i);
        cr_assert(c->device_index >= 0 && c->device_index < 3, "%d", c->device_index);
        char uuid[16];
        snprintf(uuid, sizeof uuid, "FAKE-%d", c->device_index);
        cr_expect_str_eq(c->device_uuid, uuid);
        cr_assert_lt(c->combo, (size_t)N_SIZES);
        seen_combo[c->combo]++;
        per_device[c->device_index]++;
    }
    for (size_t k = 0; k < N_SIZES; k++)
        cr_expect_eq(seen_combo[k], 1, "combination %zu measured %d times", k, seen_combo[k]);
    int used = (per_device[0] > 0) + (per_device[1] > 0) + (per_device[2] > 0);
    cr_expect_geq(used, 2, "cases per device: %d %d %d", per_device[0], per_device[1],
                  per_device[2]);
    br_results_free(runs, n_runs);
    e2e_free(&r);
}

Test(e2e_devices, a_device_whose_worker_crashes_is_retired_and_the_others_take_its_cases) {
    setenv("BENCHRUN_TEST_BROKEN_DEVICE", "1", 1);
    const char *args[] = {cache_arg, json_arg, "-k", "sum", "--devices", "all", SUITE, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 0, "exit %d\nstderr:\n%s", r.status, r.err);
    cr_expect(strstr(r.err, "on device 1 (FAKE-1); running it again on another device"),
              "stderr:\n%s", r.err);
    cr_expect(strstr(r.err, "device 1 (FAKE-1) is retired"), "stderr:\n%s", r.err);
    cr_expect(strstr(r.err, "benchrun: device 1 (FAKE-1): 0 case(s) in"), "stderr:\n%s", r.err);
    size_t n_runs;
    br_run *runs = load_run(&n_runs);
    cr_assert_eq(runs[0].n_cases, (size_t)N_SIZES);
    for (size_t i = 0; i < runs[0].n_cases; i++) {
        const br_case_result *c = &runs[0].cases[i];
        cr_expect_eq(c->status, BR_STATUS_OK, "case %zu: %s", i, c->message ? c->message : "");
        cr_expect(c->device_present && c->device_index != 1, "case %zu on device %d", i,
                  c->device_index);
    }
    br_results_free(runs, n_runs);
    e2e_free(&r);
}

Test(e2e_devices, a_kernel_that_crashes_everywhere_fails_after_two_devices) {
    const char *args[] = {cache_arg, json_arg,    "-q",  "-k",  "crash", "-p",
                          "n=1024",  "--devices", "0,2", SUITE, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 1, "exit %d\nstderr:\n%s", r.status, r.err);
    cr_expect(strstr(r.err, "running it again on another device"), "stderr:\n%s", r.err);
    cr_expect_null(strstr(r.err, "is retired"), "stderr:\n%s", r.err);
    size_t n_runs;
    br_run *runs = load_run(&n_runs);
    cr_assert_eq(runs[0].n_cases, 1u);
    const br_case_result *c = &runs[0].cases[0];
    cr_expect_eq(c->status, BR_STATUS_FAILED);
    cr_expect(c->message && strstr(c->message, "crashed: "), "%s", c->message);
    cr_expect(c->device_present);
    br_results_free(runs, n_runs);
    e2e_free(&r);
}

/* args: the --devices value then what else; expect exit 2 and `want` on stderr. */
static void expect_refused(const char *env, const char *devices, const char *extra,
                           const char *want) {
    setenv("BENCHRUN_FAKE_DEVICES", env, 1);
    const char *args[] = {
        cache_arg, "--devices", devices, extra ? extra : SUITE, extra ? SUITE : NULL, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_expect_eq(r.status, 2, "--devices %s: exit %d\nstderr:\n%s", devices, r.status, r.err);
    cr_expect(strstr(r.err, want), "--devices %s: stderr:\n%s", devices, r.err);
    cr_expect_eq(r.out[0], '\0', "stdout:\n%s", r.out);
    e2e_free(&r);
}

Test(e2e_devices, bad_lists_and_two_models_are_refused) {
    expect_refused("3", "0,x", NULL, "--devices 0,x: expected all or a comma-separated list");
    expect_refused("3", "1,1", NULL, "device 1 is named twice");
    expect_refused("3", "0,3", NULL, "this host has 3 GPU(s), numbered 0 to 2");
    expect_refused("H200,H200,A100", "all", NULL,
                   "devices of different models (0: H200, 2: A100): a baseline is kept per "
                   "model; name devices of one model, e.g. --devices 0,1");
}

Test(e2e_devices, devices_of_one_model_named_on_a_mixed_host_run) {
    setenv("BENCHRUN_FAKE_DEVICES", "A100,H200,H200", 1);
    const char *args[] = {cache_arg, json_arg,    "-k",  "sum", "-p",
                          "n=1024",  "--devices", "1,2", SUITE, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 0, "exit %d\nstderr:\n%s", r.status, r.err);
    cr_expect(strstr(r.err, "on 2 device(s) of model H200"), "stderr:\n%s", r.err);
    e2e_free(&r);
}

/* Without --devices: the one-worker path, no case records a device; a
 * baseline saved over several devices compares with it (same suite, same
 * host: one baseline file). */
Test(e2e_devices, a_baseline_saved_over_devices_compares_with_a_one_worker_run) {
    const char *save[] = {cache_arg, dir_arg,           "-q",  "-k", "sum", "--devices",
                          "all",     "--save-baseline", SUITE, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, save), 0);
    cr_assert_eq(r.status, 0, "exit %d\nstderr:\n%s", r.status, r.err);
    e2e_free(&r);
    const char *one[] = {cache_arg,   dir_arg, json_arg, "-k", "sum",
                         "--fail-on", "never", SUITE,    NULL};
    cr_assert_eq(e2e_run(&r, NULL, one), 0);
    cr_assert_eq(r.status, 0, "exit %d\nstderr:\n%s", r.status, r.err);
    size_t n_runs;
    br_run *runs = load_run(&n_runs);
    for (size_t i = 0; i < runs[0].n_cases; i++)
        cr_expect_not(runs[0].cases[i].device_present, "case %zu", i);
    br_results_free(runs, n_runs);
    /* Every case compared with the baseline's (measured on fake devices 0..2). */
    json_error_t err;
    json_t *doc = json_load_file(json_path, 0, &err);
    cr_assert_not_null(doc, "%s", err.text);
    json_t *cmp = json_object_get(json_array_get(json_object_get(doc, "runs"), 0), "comparison");
    cr_assert(json_is_object(cmp), "no comparison; stderr:\n%s", r.err);
    json_t *cases = json_object_get(cmp, "cases");
    cr_assert(json_is_array(cases), "comparison: %s", json_dumps(cmp, 0));
    cr_expect_eq(json_array_size(cases), (size_t)N_SIZES);
    size_t k;
    json_t *e;
    json_array_foreach(cases, k, e) {
        const char *st = json_string_value(json_object_get(e, "status"));
        cr_expect(st && strcmp(st, "missing") != 0 && strcmp(st, "new") != 0, "case %zu: %s", k,
                  st ? st : "(none)");
    }
    json_decref(doc);
    e2e_free(&r);
}

/* --budget with --devices: a budget far too small for the plan skips the
 * cases it cannot fit, and says so; every case is still listed once. */
Test(e2e_devices, a_budget_is_shared_by_the_devices) {
    const char *args[] = {cache_arg, json_arg,    "-k",  "sum", "--budget",
                          "1ms",     "--devices", "0,1", SUITE, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 0, "exit %d\nstderr:\n%s", r.status, r.err);
    cr_expect(strstr(r.err, "to fit the time budget of 1 ms:"), "stderr:\n%s", r.err);
    size_t n_runs, skipped = 0;
    br_run *runs = load_run(&n_runs);
    cr_assert_eq(runs[0].n_cases, (size_t)N_SIZES);
    for (size_t i = 0; i < runs[0].n_cases; i++)
        skipped += runs[0].cases[i].status == BR_STATUS_SKIPPED &&
                   runs[0].cases[i].stage == BR_STAGE_BUDGET;
    cr_expect_gt(skipped, 0u);
    br_results_free(runs, n_runs);
    e2e_free(&r);
}
