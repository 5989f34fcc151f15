/* SPDX-License-Identifier: Apache-2.0 */
/* End-to-end `benchrun profile`, with stand-in executables for ncu (small
 * shell scripts that print what ncu prints and exit as it would; no real
 * ncu or GPU needed): the missing-ncu and no-permission (ERR_NVGPUCTRPERM)
 * paths, the refusals of no case, several cases and a suite without GPU
 * source, the box and --json over the recorded report
 * (tests/fixtures/profile/ncu_raw.csv) with and without a wrong `bytes`,
 * and the command line ncu is given. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "e2e_util.h"

#define E2E     BR_FIXTURES_DIR "/e2e"
#define FIXTURE BR_FIXTURES_DIR "/profile/ncu_raw.csv"
/* Constructed in ncu's raw format (an sm_90 Tensor Core kernel's pipes), not recorded. */
#define TENSOR_FIXTURE BR_FIXTURES_DIR "/profile/ncu_tensor.csv"

static char *cache_arg;

static void make_tmp(void) {
    e2e_tmp_make();
    cache_arg = br_strfmt("--cache-dir=%s/cache", tmp);
    unsetenv("BENCHRUN_NCU");
}

static void drop_tmp(void) {
    e2e_tmp_drop();
    free(cache_arg);
}

TestSuite(e2e_profile, .init = make_tmp, .fini = drop_tmp, .timeout = 240);

/* A suite of spin (the smallest GPU fixture) at us = 10 and 20, whose
 * `bytes` is `bytes`; returns its path. */
static char *spin_suite(const char *bytes) {
    char *text = br_strfmt("name: profile-spin\nsource: [%s/spin.cu]\nkernels: [spin]\n"
                           "params:\n  us: [10, 20]\nbytes: %s\n",
                           E2E, bytes);
    char *path = e2e_put("spin.yaml", text);
    free(text);
    return path;
}

/* An executable stand-in `name` in tmp/bin with the shell body `body`;
 * returns its path. */
static char *stand_in(const char *name, const char *body) {
    char *dir = br_strfmt("%s/bin", tmp);
    mkdir(dir, 0755);
    char *rel = br_strfmt("bin/%s", name), *text = br_strfmt("#!/bin/sh\n%s\n", body);
    char *path = e2e_put(rel, text);
    cr_assert_eq(chmod(path, 0755), 0);
    free(dir);
    free(rel);
    free(text);
    return path;
}

static json_t *load_json(const char *path) {
    json_error_t err;
    json_t *j = json_load_file(path, 0, &err);
    cr_assert_not_null(j, "%s: %s", path, err.text);
    return j;
}

Test(e2e_profile, without_ncu_it_says_where_it_looked) {
    struct stat st;
    if (stat("/usr/local/cuda/bin/ncu", &st) == 0)
        cr_skip_test("this machine has /usr/local/cuda/bin/ncu");
    char *suite = spin_suite("4"), *path = br_strfmt("%s/empty", tmp);
    mkdir(path, 0755);
    char *old = br_strdup(getenv("PATH"));
    setenv("PATH", path, 1);
    const char *args[] = {"profile", suite, "-k", "spin", "-p", "us=10", cache_arg, NULL};
    e2e_result r;
    int rc = e2e_run(&r, NULL, args);
    setenv("PATH", old, 1); /* the fixture's clean-up runs rm */
    free(old);
    cr_assert_eq(rc, 0);
    cr_expect_eq(r.status, 2, "exit %d\n%s", r.status, r.err);
    cr_expect(strstr(r.err, "ncu was not found: not on PATH, not in /usr/local/cuda/bin/ncu") &&
                  strstr(r.err, "BENCHRUN_NCU=/path/to/ncu"),
              "%s", r.err);
    cr_expect_eq(strlen(r.out), 0, "nothing measured: %s", r.out);
    e2e_free(&r);
    free(suite);
    free(path);
}

Test(e2e_profile, a_benchrun_ncu_that_is_no_executable_is_named) {
    char *suite = spin_suite("4"), *path = br_strfmt("%s/nothing-here", tmp);
    setenv("BENCHRUN_NCU", path, 1);
    const char *args[] = {"profile", suite, "-k", "spin", "-p", "us=10", cache_arg, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "BENCHRUN_NCU is '") && strstr(r.err, "not an executable file"), "%s",
              r.err);
    e2e_free(&r);
    free(suite);
    free(path);
}

Test(e2e_profile, without_permission_it_says_how_to_get_it) {
    char *suite = spin_suite("4");
    char *ncu = stand_in(
        "ncu", "echo '==PROF== Connected to process 4242'\n"
               "echo '==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access "
               "NVIDIA GPU Performance Counters on the target device 0. For instructions on "
               "enabling permissions and to get more information see "
               "https://developer.nvidia.com/ERR_NVGPUCTRPERM'\nexit 1");
    char *path = br_strfmt("%s/bin:%s", tmp, getenv("PATH"));
    setenv("PATH", path, 1); /* found on PATH */
    const char *args[] = {"profile", suite, "-k", "spin", "-p", "us=10", cache_arg, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_expect_eq(r.status, 2, "exit %d\n%s", r.status, r.err);
    cr_expect(strstr(r.err, "cannot read the GPU's performance counters (ERR_NVGPUCTRPERM)") &&
                  strstr(r.err, "as root") &&
                  strstr(r.err, "NVreg_RestrictProfilingToAdminUsers=0"),
              "%s", r.err);
    cr_expect(!strstr(r.out, "Nsight Compute:"), "no box: %s", r.out);
    e2e_free(&r);
    free(suite);
    free(ncu);
    free(path);
}

/* benchrun profile over a suite whose bytes is `bytes`, ncu a stand-in that
 * records its arguments and prints the report `report`. */
static void profile_report(e2e_result *r, const char *bytes, const char *report, char **json,
                           char **raw, char **args_file) {
    char *suite = spin_suite(bytes);
    *args_file = br_strfmt("%s/ncu-args.txt", tmp);
    /* It records its arguments, runs the benchrun command at their end (so
     * the settings profile gives that run are ones benchrun takes; on a
     * machine without a GPU the case is skipped) and prints the report. */
    char *body = br_strfmt("printf '%%s\\n' \"$@\" > '%s'\n"
                           "while [ $# -gt 0 ]; do case \"$1\" in */benchrun) break;; esac; "
                           "shift; done\n"
                           "\"$@\" > '%s/inner.txt' 2>&1 || exit $?\ncat '%s'",
                           *args_file, tmp, report);
    char *ncu = stand_in("fake-ncu", body);
    setenv("BENCHRUN_NCU", ncu, 1);
    *json = br_strfmt("%s/profile.json", tmp);
    *raw = br_strfmt("%s/raw.csv", tmp);
    const char *args[] = {"profile",        suite, "-k",    "spin", "-p",    "us=10", cache_arg,
                          "--json",         *json, "--raw", *raw,   "--set", "full",  "--",
                          "--launch-count", "9",   NULL};
    cr_assert_eq(e2e_run(r, NULL, args), 0);
    free(suite);
    free(body);
    free(ncu);
}

/* profile_report with the recorded report. */
static void profile_fixture(e2e_result *r, const char *bytes, char **json, char **raw,
                            char **args_file) {
    profile_report(r, bytes, FIXTURE, json, raw, args_file);
}

Test(e2e_profile, the_box_and_json_of_a_recorded_report) {
    e2e_result r;
    char *json, *raw, *args_file;
    profile_fixture(&r, "1073741824", &json, &raw, &args_file);
    cr_assert_eq(r.status, 0, "exit %d\n%s\n%s", r.status, r.out, r.err);
    cr_expect(strstr(r.out, "Nsight Compute: spin us=10"), "%s", r.out);
    cr_expect(strstr(r.out, "reduce_vec_kernel(const float *, long, red_ctl *)"), "%s", r.out);
    cr_expect(strstr(r.out, "occupancy 98.9%") && strstr(r.out, "L2 hit 1.1%"), "%s", r.out);
    cr_expect(strstr(r.out, "1.07 GB declared (bytes)"), "%s", r.out);
    cr_expect(!strstr(r.out, "warning"), "the bytes are right: %s", r.out);
    json_t *j = load_json(json);
    json_t *ncu = json_object_get(j, "ncu");
    cr_expect_eq(json_integer_value(json_object_get(ncu, "launches")), 3);
    cr_expect_float_eq(json_number_value(json_object_get(ncu, "duration_ns")),
                       (245664.0 + 245728.0 + 246720.0) / 3, 1e-6);
    cr_expect(json_is_null(json_object_get(ncu, "bytes_warning")));
    json_decref(j);
    char *a = NULL, *b = NULL;
    cr_assert_eq(br_read_file(&a, NULL, raw, 1 << 20), 0);
    cr_assert_eq(br_read_file(&b, NULL, FIXTURE, 1 << 20), 0);
    cr_expect_str_eq(a, b, "--raw keeps ncu's output as it was");
    free(a);
    free(b);
    e2e_free(&r);
    free(json);
    free(raw);
    free(args_file);
}

Test(e2e_profile, ncu_gets_the_nvtx_range_and_the_run_its_profiling_settings) {
    e2e_result r;
    char *json, *raw, *args_file, *args = NULL;
    profile_fixture(&r, "1073741824", &json, &raw, &args_file);
    cr_assert_eq(r.status, 0, "exit %d\n%s", r.status, r.err);
    cr_assert_eq(br_read_file(&args, NULL, args_file, 1 << 20), 0);
    const char *want[] = {
        "--target-processes\nall\n--nvtx\n--nvtx-include\nbenchrun@sample/\n--metrics\n",
        "lts__t_sector_hit_rate.pct,regex:sm__(pipe_(tensor|tensor_op_hmma|",
        "\\.avg\\.pct_of_peak_sustained_active$\n--csv\n--page\nraw\n--print-units\nbase\n--set\n"
        "full\n"
        "--launch-count\n9\n--clock-control\nnone\n",
        "\n-k\nspin\n-p\nus=10\n--mode\ncold\n--no-compare\n",
        "\n--no-hold\n--no-cupti\n--warmup\n0s\n--min-samples\n3\n--max-samples\n3\n"
        "--min-time\n0s\n"};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        cr_expect(strstr(args, want[i]), "ncu's arguments lack\n%s\nin\n%s", want[i], args);
    free(args);
    e2e_free(&r);
    free(json);
    free(raw);
    free(args_file);
}

/* A report with the pipe metrics: the Tensor pipe's utilisation in the box
 * (beside benchrun's % of peak: none without a GPU) and in the JSON. */
Test(e2e_profile, the_tensor_pipe_is_shown) {
    e2e_result r;
    char *json, *raw, *args_file;
    profile_report(&r, "469762048", TENSOR_FIXTURE, &json, &raw, &args_file);
    cr_assert_eq(r.status, 0, "exit %d\n%s\n%s", r.status, r.out, r.err);
    /* Beside it benchrun's own % of peak: none without a GPU; on a GPU the
     * stand-in's run is measured, and its % of peak (of GB/s) is shown. */
    const char *pipe = strstr(r.out, "  Tensor pipe          71.5%          ");
    cr_assert(pipe, "%s", r.out);
    pipe += strlen("  Tensor pipe          71.5%          ");
    const char *end = strchr(pipe, '\n'), *gbps = strstr(pipe, "% of peak (GB/s)");
    cr_expect(strncmp(pipe, "no % of peak", 12) == 0 || (gbps && end && gbps < end), "%s", r.out);
    cr_expect(strstr(r.out, "  CUDA-core pipes      3.1%"), "%s", r.out);
    cr_expect(strstr(r.out, "pipes: Tensor 71.5% (hmma) \u00b7 FMA 3.1% \u00b7 FP16 0.2% \u00b7 "
                            "FP64 0.0%"),
              "%s", r.out);
    cr_expect(!strstr(r.out, "warning"), "%s", r.out);
    json_t *j = load_json(json);
    json_t *ncu = json_object_get(j, "ncu");
    cr_expect_float_eq(json_number_value(json_object_get(ncu, "tensor_pct")),
                       (71.52 * 1652384 + 71.60 * 1649920 + 71.48 * 1655008) /
                           (1652384.0 + 1649920 + 1655008),
                       1e-9);
    json_t *k = json_array_get(json_object_get(ncu, "kernels"), 0);
    cr_expect_str_eq(json_string_value(json_object_get(k, "tensor_pipe")), "hmma");
    cr_expect_float_eq(json_number_value(json_object_get(k, "tensor_pct")), 71.52, 1e-9);
    cr_expect(json_is_null(json_object_get(ncu, "precision_warning")));
    json_decref(j);
    e2e_free(&r);
    free(json);
    free(raw);
    free(args_file);
}

Test(e2e_profile, a_wrong_bytes_gets_the_warning) {
    e2e_result r;
    char *json, *raw, *args_file;
    profile_fixture(&r, "2147483648", &json, &raw, &args_file);
    cr_assert_eq(r.status, 0, "exit %d\n%s", r.status, r.err);
    cr_expect(strstr(r.out, "warning: the suite's bytes (2.15 GB) is 2.00\u00d7 what the DRAM "
                            "moved (1.08 GB)"),
              "%s", r.out);
    json_t *j = load_json(json);
    const char *w = json_string_value(json_object_get(json_object_get(j, "ncu"), "bytes_warning"));
    cr_expect(w && strstr(w, "is 2.00x what the DRAM moved"), "%s", w ? w : "(null)");
    json_decref(j);
    e2e_free(&r);
    free(json);
    free(raw);
    free(args_file);
}

/* benchrun profile with args; expects exit 2 and `words` on stderr. */
static void expect_refused(const char *const *args, const char *words) {
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_expect_eq(r.status, 2, "exit %d", r.status);
    cr_expect(strstr(r.err, words), "stderr lacks '%s':\n%s", words, r.err);
    e2e_free(&r);
}

Test(e2e_profile, exactly_one_gpu_case) {
    char *suite = spin_suite("4");
    const char *none[] = {"profile", suite, "-k", "nosuch", cache_arg, NULL};
    expect_refused(none, "no kernel of the suite matches the -k pattern(s) given");
    const char *two[] = {"profile", suite, "-k", "spin", cache_arg, NULL};
    expect_refused(two, "2 cases match; profile runs exactly one: narrow -k and -p:\n"
                        "  spin us=10\n  spin us=20");
    const char *param[] = {"profile", suite, "-k", "spin", "-p", "n=4", cache_arg, NULL};
    expect_refused(param, "has no parameter 'n'");
    const char *host[] = {"profile", E2E "/ok.yaml", "-k", "sum_ok", "-p", "n=1000", NULL};
    expect_refused(host, "has no GPU source (.cu): Nsight Compute profiles GPU kernels");
    const char *nok[] = {"profile", suite, cache_arg, NULL};
    expect_refused(nok, "give the kernel to profile with -k KERNEL");
    const char *tool[] = {"profile", suite, "-k", "spin", "--tool", "nsys", NULL};
    expect_refused(tool, "--tool: expected ncu");
    free(suite);
}

Test(e2e_profile, an_ncu_that_fails_is_quoted) {
    char *suite = spin_suite("4");
    char *ncu = stand_in("fake-ncu", "echo 'line one'\necho '==ERROR== Unknown option: --bogus'\n"
                                     "exit 7");
    setenv("BENCHRUN_NCU", ncu, 1);
    const char *args[] = {"profile", suite,     "-k", "spin",    "-p",
                          "us=10",   cache_arg, "--", "--bogus", NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_expect_eq(r.status, 2, "exit %d", r.status);
    cr_expect(strstr(r.err, "ncu (or the run under it) exited with status 7; its last lines:\n"
                            "line one\n==ERROR== Unknown option: --bogus\n"),
              "%s", r.err);
    e2e_free(&r);
    free(suite);
    free(ncu);
}
