/* SPDX-License-Identifier: Apache-2.0 */
/* What the drivers share (drive/driver.h), on the
 * host suite of tests/fixtures/devices (12 cases: warmup 1 ms, timeout 1 s,
 * cold only): the budgets' allowance per case (the invocation's, times the
 * devices spending it, or the suite's when tighter), what a case costs the
 * budget, a case measured or settled, an interrupted run, a run closed. The
 * expected plans are measure/budget.h's for the allowance the rules give. */
#include <criterion/criterion.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/log.h"
#include "base/util.h"
#include "compile/resolve.h"
#include "drive/driver.h"
#include "drive/execute.h"
#include "e2e_util.h"
#include "model/settings.h"
#include "plan/job.h"
#include "worker/proto.h"
#include "worker/session_impl.h"

#define SUITE   BR_FIXTURES_DIR "/devices/devices.yaml"
#define N_CASES 12

static char *cache;
static br_run_opts opts;
static br_job job;
static br_session *s;
static br_driver_ledger l; /* the invocation's, beside s */

static void quiet_sink(void *ctx, br_log_level level, const char *msg) {
    (void)ctx;
    (void)level;
    (void)msg;
}

/* The fixture's job, prepared; its session open (built with `build`). */
static void open_job(double budget_ns, int build) {
    br_log_set_sink(quiet_sink, NULL);
    cache = br_strfmt("%s/cache", tmp);
    memset(&opts, 0, sizeof opts);
    opts.cache_dir = cache;
    opts.quiet = 1;
    opts.jobs = 1;
    opts.cpu = -1;
    opts.budget_ns = budget_ns;
    opts.total_cases = N_CASES;
    br_measure_layer_init(&opts.measure);
    cr_assert_eq(br_job_prepare(&job, SUITE, &opts), 0, "%s", br_error_get());
    cr_assert_eq(job.plan.n_cases, (size_t)N_CASES);
    cr_assert_eq(br_session_open(&s, &opts), 0, "%s", br_error_get());
    l = (br_driver_ledger)BR_DRIVER_LEDGER_INIT;
    if (build)
        cr_assert_eq(br_session_build_job(s, &job, BR_BUILD_RUN), 0, "%s", br_error_get());
}

static void close_job(void) {
    br_session_close(s);
    br_job_dispose(&job);
    free(cache);
}

static void setup(void) {
    e2e_tmp_make();
}

static void teardown(void) {
    close_job();
    e2e_tmp_drop();
}

TestSuite(driver, .init = setup, .fini = teardown, .timeout = 120);

/* The plan br_budget_plan makes of one case of the fixture given
 * `allowance` x `cases` ns. */
static br_budget_case plan_for(double allowance, size_t cases) {
    br_budget_case want;
    br_budget_plan(&want, &job.suite.measure, job.suite.warmup_ns, 1, allowance * (double)cases,
                   cases, 0);
    return want;
}

Test(driver, no_budget_plans_nothing_and_counts_the_case) {
    open_job(0, 0);
    br_budget_case bc;
    cr_expect_eq(br_driver_plan(&bc, &l, &opts, &job, 1, 0, 0), 0);
    cr_expect_eq(br_driver_plan(&bc, &l, &opts, &job, 1, 0, 0), 0);
    cr_expect_eq(l.cases_done, 2u);
}

Test(driver, the_invocation_budget_is_shared_by_the_cases_left_and_the_devices) {
    open_job(1.2e9, 0); /* 100 ms a case: far less than warmup + timeout (1.001 s) */
    l.start_ns = br_now_ns();
    br_budget_case bc;
    cr_assert_eq(br_driver_plan(&bc, &l, &opts, &job, 1, 0, 0), 1);
    br_budget_case want = plan_for(1.2e9 / N_CASES, N_CASES);
    cr_expect(bc.shortened && !bc.skip);
    cr_expect(fabs(bc.timeout_ns / want.timeout_ns - 1) < 0.01, "%g vs %g", bc.timeout_ns,
              want.timeout_ns);
    /* Two devices spend it at once: twice the time for each of the 11 left. */
    cr_assert_eq(br_driver_plan(&bc, &l, &opts, &job, 2, 0, 0), 1);
    want = plan_for(2 * 1.2e9 / (N_CASES - 1), N_CASES - 1);
    cr_expect(fabs(bc.timeout_ns / want.timeout_ns - 1) < 0.01, "%g vs %g", bc.timeout_ns,
              want.timeout_ns);
    cr_expect_gt(bc.timeout_ns, 1.9 * plan_for(1.2e9 / (N_CASES - 1), N_CASES - 1).timeout_ns);
    /* Spent: the next case is skipped. */
    l.start_ns = br_now_ns() - 2e9;
    cr_assert_eq(br_driver_plan(&bc, &l, &opts, &job, 1, 0, 0), 1);
    cr_expect(bc.skip);
}

Test(driver, the_tighter_of_the_suite_budget_and_the_invocation_budget_wins) {
    open_job(12e9, 0); /* 1 s a case: warmup + timeout nearly fit */
    job.suite.budget_ns = 1e9;
    l.start_ns = br_now_ns();
    br_budget_case bc;
    /* The suite's: 500 ms left for 5 cases, 100 ms each. */
    cr_assert_eq(br_driver_plan(&bc, &l, &opts, &job, 1, 0.5e9, 5), 1);
    br_budget_case want = plan_for(0.1e9, 5);
    cr_expect(fabs(bc.timeout_ns / want.timeout_ns - 1) < 0.01, "%g vs %g", bc.timeout_ns,
              want.timeout_ns);
    /* The suite's 10 s for 5 cases is looser: the invocation's applies. */
    cr_assert_eq(br_driver_plan(&bc, &l, &opts, &job, 1, 10e9, 5), 1);
    want = plan_for(12e9 / (N_CASES - 1), N_CASES - 1);
    cr_expect(fabs(bc.timeout_ns / want.timeout_ns - 1) < 0.01, "%g vs %g", bc.timeout_ns,
              want.timeout_ns);
    /* With --devices (suite_cases_left 0) the suite's budget is not applied. */
    opts.budget_ns = 0;
    cr_expect_eq(br_driver_plan(&bc, &l, &opts, &job, 2, 0, 0), 0);
}

Test(driver, a_case_costs_the_budget_its_time_outside_warmup_and_sampling) {
    open_job(0, 0);
    br_driver_tally t = BR_DRIVER_TALLY_INIT;
    br_case_result skipped = {.stage = BR_STAGE_BUDGET, .status = BR_STATUS_SKIPPED};
    br_case_result settled = {.stage = BR_STAGE_NO_GPU, .status = BR_STATUS_SKIPPED};
    br_case_result measured = {.status = BR_STATUS_OK};
    measured.wall.present = 1;
    measured.wall.total_ns = 10e6;
    measured.cold.present = 1;
    measured.cold.warmup_ns = 1e6;
    measured.cold.measure_ns = 4e6;
    br_budget_case shorter = {.timeout_ns = 30e6, .shortened = 1};
    br_driver_count(&t, &l, &skipped, NULL);
    br_driver_count(&t, &l, &settled, NULL);
    br_driver_count(&t, &l, &measured, &shorter);
    shorter.timeout_ns = 20e6;
    br_driver_count(&t, &l, &measured, &shorter);
    cr_expect_eq(t.n_skipped, 1u);
    cr_expect_eq(t.n_shortened, 2u);
    cr_expect_eq(t.min_timeout_ns, 20e6);
    cr_expect_eq(l.n_overhead, 2u);
    cr_expect_eq(l.overhead_ns, 2 * 5e6);
}

Test(driver, a_case_is_measured_in_the_worker_or_skipped_by_the_budget_without_one) {
    open_job(0, 1);
    br_run run;
    cr_assert_eq(br_job_run_begin(&run, &job, s), 0, "%s", br_error_get());
    br_worker_result how;
    br_case_result *r = &run.cases[0];
    cr_assert_eq(br_case_init(r, &job, 0), 0);
    cr_assert_eq(br_driver_measure(r, &how, s, &l, &job, 0, NULL), 0, "%s", br_error_get());
    cr_expect_eq(how, BR_WORKER_OK);
    cr_expect_eq(r->status, BR_STATUS_OK, "%s", r->message ? r->message : "");
    cr_expect(r->wall.present && r->wall.total_ns > 0);
    double phases = 0;
    for (size_t p = 0; p < BR_WALL_PHASES; p++)
        phases += br_wall_phase(&r->wall, p);
    cr_expect(fabs(phases - r->wall.total_ns) <= 1e-6 * r->wall.total_ns, "%g vs %g", phases,
              r->wall.total_ns);
    br_budget_case spent = {.skip = 1};
    r = &run.cases[1];
    cr_assert_eq(br_case_init(r, &job, 1), 0);
    cr_assert_eq(br_driver_measure(r, &how, s, &l, &job, 1, &spent), 0);
    cr_expect_eq(how, BR_WORKER_OK);
    cr_expect_eq(r->status, BR_STATUS_SKIPPED);
    cr_expect_eq(r->stage, BR_STAGE_BUDGET);
    cr_expect_str_eq(r->message, "the time budget was spent before this case");
    cr_expect_not(r->wall.present);
    cr_expect_eq(r->kernel, job.plan.cases[1].kernel, "the case keeps its identity");
    br_run_dispose(&run);
}

Test(driver, an_interrupted_run_lists_its_unfinished_cases_and_names_the_signal) {
    open_job(0, 1);
    br_run run;
    cr_assert_eq(br_job_run_begin(&run, &job, s), 0, "%s", br_error_get());
    br_stop_request(SIGTERM);
    for (size_t i = 3; i < run.n_cases; i++)
        cr_assert_eq(br_driver_interrupted(&run, &job, i), 0, "%s", br_error_get());
    cr_expect_str_eq(run.interrupted, "SIGTERM");
    for (size_t i = 3; i < run.n_cases; i++) {
        cr_expect_eq(run.cases[i].status, BR_STATUS_SKIPPED);
        cr_expect_eq(run.cases[i].stage, BR_STAGE_INTERRUPTED);
        cr_expect_str_eq(run.cases[i].message, "not run: benchrun was interrupted (SIGTERM)");
        cr_expect_eq(run.cases[i].combo, job.plan.cases[i].combo);
    }
    br_run_dispose(&run);
}

Test(driver, a_closed_run_says_why_gpu_cases_were_skipped_and_takes_the_clock) {
    open_job(0, 1);
    br_run run;
    cr_assert_eq(br_job_run_begin(&run, &job, s), 0, "%s", br_error_get());
    br_session *measured;
    cr_assert_eq(br_session_open(&measured, &opts), 0);
    measured->gpu_clock = BR_CLOCK_KERNEL;
    snprintf(s->gpu_why, sizeof s->gpu_why, "no CUDA device");
    cr_assert_eq(br_driver_close(&run, s, measured), 0);
    cr_expect_null(run.gpu_skip_reason, "no case was skipped for want of a GPU");
    cr_expect_eq(run.gpu_clock, BR_CLOCK_KERNEL);
    cr_assert_eq(br_driver_set(&run.cases[2], BR_STATUS_SKIPPED, BR_STAGE_NO_GPU,
                               br_strdup("no CUDA device")),
                 0);
    cr_assert_eq(br_driver_close(&run, s, measured), 0);
    cr_expect_str_eq(run.gpu_skip_reason, "no CUDA device");
    br_session_close(measured);
    br_run_dispose(&run);
}

/* A suite that declares FP8 for kernel 0 on a (faked) A100: its cases are
 * skipped with stage "precision" and the reason, without a worker; the
 * other kernel's cases still get one; nothing fails. A host kernel is
 * never skipped for its precision. */
Test(driver, a_precision_the_gpu_lacks_skips_its_cases_with_a_reason) {
    open_job(0, 1);
    job.suite.precision = calloc(job.suite.n_kernels, sizeof *job.suite.precision);
    cr_assert_not_null(job.suite.precision);
    job.suite.precision[0] = BR_PRECISION_FP8_TENSOR;
    br_device a100;
    memset(&a100, 0, sizeof a100);
    snprintf(a100.name, sizeof a100.name, "NVIDIA A100-SXM4-80GB");
    a100.cc_major = 8;
    a100.sm_count = 108;
    a100.sm_clock_khz = 1410000;
    br_device h100 = a100;
    h100.cc_major = 9;
    br_session_skip_lacking(&job, &a100);
    for (size_t i = 0; i < job.plan.n_cases; i++)
        cr_assert_eq(br_driver_unrunnable(&job, i), BR_STAGE_NONE, "host kernels are not skipped");
    /* The fixture's module taken for a GPU module (its kernels never run
     * here: the skipped case is settled without a worker). */
    br_job_case_ref(&job, 0)->mh->is_gpu = 1;
    br_session_skip_lacking(&job, &h100);
    for (size_t i = 0; i < job.plan.n_cases; i++)
        cr_assert_eq(br_driver_unrunnable(&job, i), BR_STAGE_NONE, "an H100 has FP8");
    br_session_skip_lacking(&job, &a100);
    s->gpu_ok = 1;
    s->device = a100;
    br_run run;
    cr_assert_eq(br_job_run_begin(&run, &job, s), 0, "%s", br_error_get());
    size_t skipped = 0;
    for (size_t i = 0; i < job.plan.n_cases; i++) {
        br_case_result *r = &run.cases[i];
        cr_assert_eq(br_case_init(r, &job, i), 0);
        int fp8 = job.plan.cases[i].kernel == 0;
        cr_expect_eq(br_driver_unrunnable(&job, i), fp8 ? BR_STAGE_PRECISION : BR_STAGE_NONE);
        if (!fp8 || skipped > 0)
            continue; /* one settled case is enough */
        br_worker_result how;
        cr_assert_eq(br_driver_measure(r, &how, s, &l, &job, i, NULL), 0, "%s", br_error_get());
        cr_expect_eq(r->status, BR_STATUS_SKIPPED);
        cr_expect_eq(r->stage, BR_STAGE_PRECISION);
        cr_expect_eq(r->precision, BR_PRECISION_FP8_TENSOR);
        cr_expect_str_eq(r->message, "fp8-tensor: NVIDIA A100-SXM4-80GB (compute capability "
                                     "8.0) lacks it (it is on compute capability 8.9 and later)");
        cr_expect_not(r->wall.present, "settled without a worker");
        skipped++;
    }
    cr_expect_eq(skipped, 1u);
    cr_expect_eq(br_driver_count_runnable(&job, 1), job.plan.n_cases / 2,
                 "only the other kernel's cases get a worker");
    br_run_dispose(&run);
}
