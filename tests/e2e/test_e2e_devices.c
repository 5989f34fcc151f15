/* SPDX-License-Identifier: Apache-2.0 */
/* End-to-end --devices on host cases with fake device slots
 * (BENCHRUN_FAKE_DEVICES, test-only: measure/devices.h): every case is
 * measured exactly once and records the slot that measured it; a slot
 * whose worker crashes (the fixture kernel segfaults in the worker bound
 * to BENCHRUN_TEST_BROKEN_DEVICE) is retired after the crashed case is
 * measured on another; a kernel that crashes everywhere fails after two
 * devices; host cases (BENCHRUN_FAKE_HOST_KERNELS) run one at a time beside
 * the devices' cases, or after them on too few CPUs (BENCHRUN_FAKE_CPUS);
 * the longest-first order follows the measured times of --shard-times, the
 * baseline or the newest results of --results-dir; bad lists and devices of two models exit 2;
 * --budget is shared by the devices; without
 * --devices no case records a device; a baseline saved by a run over
 * several devices is compared with a one-worker run; a plain run on one
 * (fake) GPU measures its host cases beside its GPU cases, or one after
 * another with --host-lane after or too few CPUs; the devices are opened at
 * once (each fake device's opening made as slow as a GPU's with
 * BENCHRUN_FAKE_OPEN_MS), and the timing report gives that its own row. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/error.h"
#include "e2e_util.h"
#include "results/run_read.h"

#define SUITE   BR_FIXTURES_DIR "/devices/devices.yaml"
#define MIXED   BR_FIXTURES_DIR "/devices/devices_mixed.yaml"
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
    unsetenv("BENCHRUN_FAKE_HOST_KERNELS");
    unsetenv("BENCHRUN_FAKE_CPUS");
    unsetenv("BENCHRUN_FAKE_OPEN_MS");
}

static void drop_tmp(void) {
    e2e_tmp_drop();
    free(cache_arg);
    free(json_path);
    free(json_arg);
    free(dir_arg);
    unsetenv("BENCHRUN_FAKE_DEVICES");
    unsetenv("BENCHRUN_TEST_BROKEN_DEVICE");
    unsetenv("BENCHRUN_FAKE_HOST_KERNELS");
    unsetenv("BENCHRUN_FAKE_CPUS");
    unsetenv("BENCHRUN_FAKE_OPEN_MS");
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
    /* Cases of at least 100 ms: the six take some 300 ms on two devices, so
     * device 1's worker starts before they are all taken (under ctest -j16
     * its start once came after the 30 ms that 1 ms cases took). */
    const char *args[] = {cache_arg,   json_arg, "-k",  "sum", "--min-time=100ms",
                          "--devices", "all",    SUITE, NULL};
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

/* ---- the host lane ------------------------------------------------------------------- */

/* The spans of a mixed run's cases: the host ones (no device) and the
 * devices' last end, ns after the first case began. */
typedef struct spans {
    double host_from[16], host_to[16];
    size_t n_host, n_dev;
    double dev_end;
} spans;

/* spans_of, the GPU cases recording a device (devices 1) or none (0: a
 * plain run). */
static void spans_of_run(spans *sp, const br_run *run, int devices) {
    memset(sp, 0, sizeof *sp);
    for (size_t i = 0; i < run->n_cases; i++) {
        const br_case_result *c = &run->cases[i];
        cr_assert_eq(c->status, BR_STATUS_OK, "case %zu: %s", i, c->message ? c->message : "");
        cr_assert(c->wall.present && isfinite(c->wall.began_ns), "case %zu: no began_ns", i);
        double from = c->wall.began_ns, to = from + c->wall.total_ns;
        const char *k = run->kernels[c->kernel].name;
        if (strcmp(k, "tally") == 0) {
            cr_expect_not(c->device_present, "host case %zu records a device", i);
            cr_assert_lt(sp->n_host, 16u);
            sp->host_from[sp->n_host] = from;
            sp->host_to[sp->n_host++] = to;
        } else {
            cr_expect_eq(c->device_present, devices, "case %zu of %s: device_present %d", i, k,
                         c->device_present);
            sp->n_dev++;
            if (to > sp->dev_end)
                sp->dev_end = to;
        }
    }
}

static void spans_of(spans *sp, const br_run *run) {
    spans_of_run(sp, run, 1);
}

/* No two host cases overlap in time. */
static void expect_one_at_a_time(const spans *sp) {
    for (size_t a = 0; a < sp->n_host; a++)
        for (size_t b = a + 1; b < sp->n_host; b++)
            cr_expect(sp->host_to[a] <= sp->host_from[b] || sp->host_to[b] <= sp->host_from[a],
                      "host cases %zu [%.0f, %.0f] and %zu [%.0f, %.0f] ns overlap", a,
                      sp->host_from[a], sp->host_to[a], b, sp->host_from[b], sp->host_to[b]);
}

Test(e2e_devices, host_cases_run_beside_the_devices_one_at_a_time) {
    setenv("BENCHRUN_FAKE_DEVICES", "2", 1);
    setenv("BENCHRUN_FAKE_HOST_KERNELS", "tally", 1);
    setenv("BENCHRUN_FAKE_CPUS", "8", 1);
    const char *args[] = {cache_arg, json_arg, "--timing-report", "--devices", "all", MIXED, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 0, "exit %d\nstderr:\n%s", r.status, r.err);
    cr_expect(strstr(r.err, "; 4 host case(s) beside them, one at a time"), "stderr:\n%s", r.err);
    cr_expect(strstr(r.err, "benchrun: 4 host case(s) beside the GPU cases, one at a time:"),
              "stderr:\n%s", r.err);
    /* The timing report counts the measuring once and lists the lanes. */
    cr_expect(strstr(r.err, "cases on 3 lanes at once:"), "stderr:\n%s", r.err);
    cr_expect(strstr(r.err, "  host            4 case(s)"), "stderr:\n%s", r.err);
    cr_expect(strstr(r.err, "  measuring "), "stderr:\n%s", r.err);
    size_t n_runs;
    br_run *runs = load_run(&n_runs);
    spans sp;
    spans_of(&sp, &runs[0]);
    cr_expect_eq(sp.n_host, 4u);
    cr_expect_eq(sp.n_dev, 4u);
    expect_one_at_a_time(&sp);
    /* Interleaved: the first host case began before the devices' last case ended. */
    double first = INFINITY;
    for (size_t k = 0; k < sp.n_host; k++)
        first = fmin(first, sp.host_from[k]);
    cr_expect_lt(first, sp.dev_end, "first host case at %.0f ns, devices done at %.0f ns", first,
                 sp.dev_end);
    br_results_free(runs, n_runs);
    e2e_free(&r);
}

Test(e2e_devices, on_too_few_cpus_the_host_cases_run_after_the_devices) {
    setenv("BENCHRUN_FAKE_DEVICES", "2", 1);
    setenv("BENCHRUN_FAKE_HOST_KERNELS", "tally", 1);
    setenv("BENCHRUN_FAKE_CPUS", "2", 1);
    const char *args[] = {cache_arg, json_arg, "--devices", "all", MIXED, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 0, "exit %d\nstderr:\n%s", r.status, r.err);
    cr_expect(strstr(r.err, "; then 4 host case(s), one at a time, after the GPU cases: 1 CPU(s) "
                            "outside the host cases' core, and the 2 device lane(s) and their "
                            "drivers need 3"),
              "stderr:\n%s", r.err);
    size_t n_runs;
    br_run *runs = load_run(&n_runs);
    spans sp;
    spans_of(&sp, &runs[0]);
    expect_one_at_a_time(&sp);
    for (size_t k = 0; k < sp.n_host; k++)
        cr_expect_geq(sp.host_from[k], sp.dev_end, "host case %zu at %.0f ns, devices until %.0f",
                      k, sp.host_from[k], sp.dev_end);
    br_results_free(runs, n_runs);
    e2e_free(&r);
}

/* ---- the order by measured times --------------------------------------------------- */

/* Rewrite the results file or baseline at path: each case of kernel sum
 * costs 1e15 / n ns (the smallest n the longest), the reverse of its
 * declared bytes (4 n). */
static void invert_costs(const char *path) {
    json_error_t err;
    json_t *doc = json_load_file(path, 0, &err);
    cr_assert_not_null(doc, "%s: %s", path, err.text);
    size_t k;
    json_t *c;
    json_array_foreach(json_object_get(json_array_get(json_object_get(doc, "runs"), 0), "cases"), k,
                       c) {
        json_int_t n = json_integer_value(json_object_get(json_object_get(c, "params"), "n"));
        cr_assert_gt(n, 0);
        json_t *wall = json_object_get(c, "wall");
        cr_assert(json_is_object(wall), "case %zu has no wall", k);
        json_object_set_new(wall, "total_ns", json_real(1e15 / (double)n));
    }
    cr_assert_eq(json_dump_file(doc, path, 0), 0);
    json_decref(doc);
}

/* Run the suite's sum cases on one fake device with extra arguments
 * (NULL-ended, up to 4); expect `says` on stderr and the cases measured
 * smallest n first (inverted: the order of invert_costs) or largest first
 * (the declared work). */
static void expect_order(const char *const *extra, const char *says, int inverted) {
    const char *args[12] = {cache_arg, json_arg, "-k", "sum", "--devices", "0"};
    size_t a = 6;
    for (size_t k = 0; extra[k]; k++)
        args[a++] = extra[k];
    args[a++] = SUITE;
    args[a] = NULL;
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 0, "exit %d\nstderr:\n%s", r.status, r.err);
    cr_expect(strstr(r.err, says), "want \"%s\"; stderr:\n%s", says, r.err);
    size_t n_runs;
    br_run *runs = load_run(&n_runs);
    double began[N_SIZES];
    for (size_t i = 0; i < runs[0].n_cases; i++) {
        cr_assert_lt(runs[0].cases[i].combo, (size_t)N_SIZES);
        began[runs[0].cases[i].combo] = runs[0].cases[i].wall.began_ns;
    }
    for (size_t k = 1; k < N_SIZES; k++)
        cr_expect(inverted ? began[k - 1] < began[k] : began[k - 1] > began[k],
                  "%s: n index %zu began at %.0f ns, index %zu at %.0f ns", says, k - 1,
                  began[k - 1], k, began[k]);
    br_results_free(runs, n_runs);
    e2e_free(&r);
}

Test(e2e_devices, the_order_follows_measured_times_when_it_has_them) {
    setenv("BENCHRUN_FAKE_DEVICES", "1", 1);
    /* No measured times: the declared work, the largest n first. */
    char *base = br_strfmt("--baseline-dir=%s/none", tmp);
    const char *plain[] = {base, NULL};
    expect_order(plain, "longest first by declared work (bytes + flops)", 0);
    /* --shard-times: a results file whose times say the smallest n is the longest. */
    char *times = br_strfmt("%s/times.json", tmp);
    cr_assert_eq(rename(json_path, times), 0);
    invert_costs(times);
    const char *by_times[] = {base, "--shard-times", times, NULL};
    expect_order(by_times, "longest first by measured times (--shard-times) of 6 case(s) of 6", 1);
    /* The baseline, found as the comparison finds it. */
    const char *save[] = {cache_arg, dir_arg, "-q", "-k", "sum", "--save-baseline", SUITE, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, save), 0);
    cr_assert_eq(r.status, 0, "exit %d\nstderr:\n%s", r.status, r.err);
    e2e_free(&r);
    char *find = br_strfmt("ls %s/baselines/devices/*.json", tmp);
    FILE *p = popen(find, "r");
    char line[1024] = "";
    cr_assert(p && fgets(line, sizeof line, p), "no baseline saved");
    pclose(p);
    line[strcspn(line, "\n")] = '\0';
    invert_costs(line);
    const char *by_base[] = {dir_arg, "--fail-on", "never", NULL};
    expect_order(by_base, "longest first by measured times (the baseline) of 6 case(s) of 6", 1);
    /* The newest results of --results-dir; --shard-times wins over both. */
    char *rdir = br_strfmt("%s/results", tmp), *rarg = br_strfmt("--results-dir=%s", rdir);
    cr_assert_eq(mkdir(rdir, 0755), 0);
    char *newest = br_strfmt("%s/newest.json", rdir);
    cr_assert_eq(rename(times, newest), 0);
    const char *by_dir[] = {base, rarg, NULL};
    expect_order(by_dir, "by measured times (the newest of --results-dir) of 6 case(s)", 1);
    free(find);
    free(base);
    free(times);
    free(rdir);
    free(rarg);
    free(newest);
}

/* ---- a plain run on one GPU: the host lane beside it ---------------------------------- */

/* The results file at json_path has no multi-device field: no case names a
 * device. */
static void expect_no_device_fields(void) {
    json_error_t err;
    json_t *doc = json_load_file(json_path, 0, &err);
    cr_assert_not_null(doc, "%s", err.text);
    size_t k;
    json_t *c;
    json_array_foreach(json_object_get(json_array_get(json_object_get(doc, "runs"), 0), "cases"), k,
                       c)
        cr_expect_null(json_object_get(c, "device"), "case %zu names a device", k);
    json_decref(doc);
}

/* Whether any two cases of run overlap in time. */
static int any_overlap(const br_run *run) {
    for (size_t a = 0; a < run->n_cases; a++)
        for (size_t b = a + 1; b < run->n_cases; b++) {
            const br_case_wall *x = &run->cases[a].wall, *y = &run->cases[b].wall;
            if (x->began_ns < y->began_ns + y->total_ns && y->began_ns < x->began_ns + x->total_ns)
                return 1;
        }
    return 0;
}

/* One fake GPU, no --devices: the host cases are measured beside the GPU
 * cases (some host case overlaps a GPU case), never two at once, and the
 * results and the output say nothing of devices. */
Test(e2e_devices, a_plain_run_on_one_gpu_measures_its_host_cases_beside_the_gpu_cases) {
    setenv("BENCHRUN_FAKE_DEVICES", "1", 1);
    setenv("BENCHRUN_FAKE_HOST_KERNELS", "tally", 1);
    setenv("BENCHRUN_FAKE_CPUS", "8", 1);
    const char *args[] = {cache_arg, json_arg, MIXED, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 0, "exit %d\nstderr:\n%s", r.status, r.err);
    cr_expect(strstr(r.err, "benchrun: 4 host case(s) beside the GPU cases, one at a time\n"),
              "stderr:\n%s", r.err);
    cr_expect_null(strstr(r.err, "device(s)"), "a plain run speaks of devices; stderr:\n%s", r.err);
    cr_expect_null(strstr(r.err, "device 0"), "a plain run speaks of devices; stderr:\n%s", r.err);
    size_t n_runs;
    br_run *runs = load_run(&n_runs);
    spans sp;
    spans_of_run(&sp, &runs[0], 0);
    cr_expect_eq(sp.n_host, 4u);
    cr_expect_eq(sp.n_dev, 4u);
    expect_one_at_a_time(&sp);
    int beside = 0;
    for (size_t i = 0; i < runs[0].n_cases; i++) {
        const br_case_result *c = &runs[0].cases[i];
        if (strcmp(runs[0].kernels[c->kernel].name, "tally") == 0)
            continue;
        for (size_t k = 0; k < sp.n_host; k++)
            beside |= sp.host_from[k] < c->wall.began_ns + c->wall.total_ns &&
                      c->wall.began_ns < sp.host_to[k];
    }
    cr_expect(beside, "no host case overlaps a GPU case");
    br_results_free(runs, n_runs);
    expect_no_device_fields();
    e2e_free(&r);
}

/* --host-lane after, or too few CPUs: the plain run measures its cases one
 * after another, as it always did, and says nothing of a host lane. */
static void expect_one_after_another(const char *const *args) {
    setenv("BENCHRUN_FAKE_DEVICES", "1", 1);
    setenv("BENCHRUN_FAKE_HOST_KERNELS", "tally", 1);
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 0, "exit %d\nstderr:\n%s", r.status, r.err);
    cr_expect_null(strstr(r.err, "beside"), "stderr:\n%s", r.err);
    size_t n_runs;
    br_run *runs = load_run(&n_runs);
    spans sp;
    spans_of_run(&sp, &runs[0], 0);
    cr_expect_eq(sp.n_host, 4u);
    cr_expect_not(any_overlap(&runs[0]), "two cases overlap");
    br_results_free(runs, n_runs);
    expect_no_device_fields();
    e2e_free(&r);
}

Test(e2e_devices, with_host_lane_after_a_plain_run_measures_one_case_at_a_time) {
    setenv("BENCHRUN_FAKE_CPUS", "8", 1);
    const char *args[] = {cache_arg, json_arg, "--host-lane", "after", MIXED, NULL};
    expect_one_after_another(args);
}

Test(e2e_devices, on_too_few_cpus_a_plain_run_measures_one_case_at_a_time) {
    setenv("BENCHRUN_FAKE_CPUS", "2", 1);
    const char *args[] = {cache_arg, json_arg, MIXED, NULL};
    expect_one_after_another(args);
}

/* --host-lane after with --devices: the host cases after the devices'. */
Test(e2e_devices, host_lane_after_puts_the_host_cases_after_the_devices) {
    setenv("BENCHRUN_FAKE_DEVICES", "2", 1);
    setenv("BENCHRUN_FAKE_HOST_KERNELS", "tally", 1);
    setenv("BENCHRUN_FAKE_CPUS", "8", 1);
    const char *args[] = {cache_arg,   json_arg, "--host-lane", "after",
                          "--devices", "all",    MIXED,         NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 0, "exit %d\nstderr:\n%s", r.status, r.err);
    cr_expect(strstr(r.err, "after the GPU cases: --host-lane after"), "stderr:\n%s", r.err);
    size_t n_runs;
    br_run *runs = load_run(&n_runs);
    spans sp;
    spans_of(&sp, &runs[0]);
    for (size_t k = 0; k < sp.n_host; k++)
        cr_expect_geq(sp.host_from[k], sp.dev_end, "host case %zu at %.0f ns, devices until %.0f",
                      k, sp.host_from[k], sp.dev_end);
    br_results_free(runs, n_runs);
    e2e_free(&r);
}

/* The seconds of the timing report's row `name` in text, or -1 without it. */
static double report_row(const char *text, const char *name) {
    char key[64];
    snprintf(key, sizeof key, "\n  %-12s ", name);
    const char *p = strstr(text, key);
    return p ? atof(p + strlen(key)) : -1;
}

Test(e2e_devices, the_devices_are_opened_at_once) {
    /* Two devices, as the other tests here (four lanes forking workers at
     * once on a 2-core CI machine under ASan hung a worker 2 times in 8),
     * and an opening long enough to stand out of a loaded machine's noise. */
    setenv("BENCHRUN_FAKE_DEVICES", "2", 1);
    setenv("BENCHRUN_FAKE_OPEN_MS", "1000", 1); /* each device's opening: 1 s */
    const char *args[] = {cache_arg, json_arg, "--timing-report", "--devices", "all", "-k", "sum",
                          SUITE,     NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 0, "exit %d\nstderr:\n%s", r.status, r.err);
    /* One after another, the two would take 2 s; at once, one's 1 s. */
    double open = report_row(r.err, "devices");
    cr_expect_geq(open, 1.0, "stderr:\n%s", r.err);
    cr_expect_lt(open, 1.8, "the devices were not opened at once (%.3f s)\nstderr:\n%s", open,
                 r.err);
    /* The time is no longer unaccounted: the opening's 1 s is not in it. */
    double rest = report_row(r.err, "unaccounted");
    cr_expect(rest >= 0 && rest < 0.9, "unaccounted %.3f s\nstderr:\n%s", rest, r.err);
    e2e_free(&r);
}

Test(e2e_devices, a_run_without_devices_has_no_devices_row) {
    unsetenv("BENCHRUN_FAKE_DEVICES");
    const char *args[] = {cache_arg, "--timing-report", "-k", "sum", SUITE, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 0, "exit %d\nstderr:\n%s", r.status, r.err);
    cr_expect_geq(report_row(r.err, "prepare"), 0, "stderr:\n%s", r.err);
    cr_expect_lt(report_row(r.err, "devices"), 0, "stderr:\n%s", r.err);
    e2e_free(&r);
}
