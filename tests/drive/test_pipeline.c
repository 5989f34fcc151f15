/* SPDX-License-Identifier: Apache-2.0 */
/* test_pipeline.c - the pipeline (runner/pipeline.c) in-process on the host
 * kernels of tests/fixtures/e2e: the outcome and the exit status. */
#include <criterion/criterion.h>

#include <criterion/redirect.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "drive/pipeline.h"

#define E2E BR_FIXTURES_DIR "/e2e"

static char tmp[] = "/tmp/br-pipeline-XXXXXX";
static char *cache;

static void setup(void) {
    cr_assert_not_null(mkdtemp(tmp));
    cache = br_strfmt("%s/cache", tmp);
}

static void teardown(void) {
    char *cmd = br_strfmt("rm -rf %s", tmp);
    cr_assert_eq(system(cmd), 0);
    free(cmd);
    free(cache);
}

/* Options for the suites given, quiet, no comparison, the table to a file. */
static br_pipeline_opts opts_for(const char *const *suites, size_t n) {
    br_pipeline_opts o;
    br_pipeline_opts_init(&o);
    o.suites = suites;
    o.n_suites = n;
    o.gate.no_compare = 1;
    o.run.quiet = 1;
    o.run.cache_dir = cache;
    o.outputs.ascii = 1;
    return o;
}

Test(pipeline, opts_init_asks_for_nothing_with_the_gates_defaults) {
    br_pipeline_opts o;
    memset(&o, 0xA5, sizeof o);
    br_pipeline_opts_init(&o);
    cr_expect_null(o.suites);
    cr_expect_eq(o.n_suites, 0);
    cr_expect_eq(o.run.measure.set, 0u, "the measurement layer sets nothing");
    cr_expect_null(o.outputs.json);
    cr_expect_null(o.outputs.csv);
    cr_expect_eq(o.list, 0);
    cr_expect_eq(o.shard.index, 0);
    cr_expect_eq(o.gate.fail_on, BR_FAIL_ON_SLOWER);
    cr_expect_eq(o.gate.confirm, BR_CONFIRM_AUTO);
    cr_expect(isnan(o.gate.threshold) && isnan(o.gate.alpha), "the suite's rules unless given");
    cr_expect_gt(o.gate.confirm_timeout_ns, 0);
}

Test(pipeline, a_host_suite_runs_through_and_exits_0, .init = cr_redirect_stdout,
     .fini = teardown) {
    setup();
    const char *suites[] = {E2E "/ok.yaml"};
    br_pipeline_opts o = opts_for(suites, 1);
    char *json = br_strfmt("%s/out.json", tmp);
    o.outputs.json = json;
    br_outcome out;
    cr_assert_eq(br_pipeline_run(&out, &o), 0);
    cr_assert_eq(out.error, 0);
    cr_assert_eq(out.ok, 2);
    cr_assert_eq(out.failed + out.skipped, 0);
    cr_assert_eq(br_exit_status(&out), 0);
    cr_assert_eq(access(json, F_OK), 0, "no %s", json);
    free(json);
}

Test(pipeline, failing_cases_exit_1, .init = cr_redirect_stdout, .fini = teardown) {
    setup();
    const char *suites[] = {E2E "/failures.yaml"};
    br_pipeline_opts o = opts_for(suites, 1);
    o.run.patterns = (const char *const[]){"sum_ok", "sum_wrong"};
    o.run.n_patterns = 2;
    br_outcome out;
    cr_assert_eq(br_pipeline_run(&out, &o), 0);
    cr_assert_eq(out.ok, 1);
    cr_assert_eq(out.failed, 1);
    cr_assert_eq(br_exit_status(&out), 1);
}

Test(pipeline, list_prints_the_plan_and_runs_nothing, .init = cr_redirect_stdout,
     .fini = teardown) {
    setup();
    const char *suites[] = {E2E "/ok.yaml", E2E "/ok.yaml"};
    br_pipeline_opts o = opts_for(suites, 2);
    o.list = 1;
    br_outcome out;
    cr_assert_eq(br_pipeline_run(&out, &o), 0);
    cr_assert_eq(out.listed, 1);
    cr_assert_eq(out.ok + out.failed + out.skipped, 0);
    cr_assert_eq(br_exit_status(&out), 0);
    fflush(stdout);
    cr_assert_stdout_eq_str("e2e (" E2E "/ok.yaml): 2 case(s)\n"
                            "  sum_ok               n=1000\n"
                            "  sum_ok               n=2^12\n"
                            "e2e (" E2E "/ok.yaml): 2 case(s)\n"
                            "  sum_ok               n=1000\n"
                            "  sum_ok               n=2^12\n"
                            "4 case(s) in 2 suites, 2 kernel module(s) to build\n");
}

Test(pipeline, a_missing_suite_is_bad_input, .init = cr_redirect_stderr, .fini = teardown) {
    setup();
    const char *suites[] = {"/nonexistent/suite.yaml"};
    br_pipeline_opts o = opts_for(suites, 1);
    br_outcome out;
    cr_assert_eq(br_pipeline_run(&out, &o), -1);
    cr_assert_eq(out.error, 1);
    cr_assert_eq(br_exit_status(&out), 2);
}

Test(pipeline, a_param_no_suite_has_is_bad_input, .init = cr_redirect_stderr, .fini = teardown) {
    setup();
    const char *suites[] = {E2E "/ok.yaml"};
    br_pipeline_opts o = opts_for(suites, 1);
    br_param_override p;
    cr_assert_eq(br_param_override_parse(&p, "m=3"), 0);
    o.run.params = &p;
    o.run.n_params = 1;
    br_outcome out;
    cr_assert_eq(br_pipeline_run(&out, &o), -1);
    cr_assert_eq(br_exit_status(&out), 2);
    fflush(stderr);
    cr_assert_stderr_eq_str("benchrun: -p m: no suite given has a parameter 'm'\n");
    br_param_override_dispose(&p);
}

Test(exit_status, follows_the_documented_order) {
    br_outcome o = {0};
    cr_assert_eq(br_exit_status(&o), 0);
    o.slower = 1;
    cr_assert_eq(br_exit_status(&o), 3);
    o.bad_baseline = 1;
    cr_assert_eq(br_exit_status(&o), 2);
    o.write_failed = 1;
    cr_assert_eq(br_exit_status(&o), 1);
    o.stopped = 2;
    cr_assert_eq(br_exit_status(&o), 130);
    o.error = 1;
    cr_assert_eq(br_exit_status(&o), 2);
    br_outcome listed = {.listed = 1, .failed = 3};
    cr_assert_eq(br_exit_status(&listed), 0);
}
