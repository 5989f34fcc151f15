/* SPDX-License-Identifier: Apache-2.0 */
/* The worker protocol (worker/proto.h) across threads. A worker process
 * dies with the thread that started it (PR_SET_PDEATHSIG: its parent is
 * that thread); --devices measures each device's cases in a thread of its
 * own and then its host cases on the first device's session from the main
 * thread. A case sent there to the worker of a thread that has ended was
 * lost: "crashed: the worker process was killed by signal 9 (SIGKILL)" in
 * the stage the worker last announced (teardown). The session must start a
 * worker of its own thread instead. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <unistd.h>

#include "base/error.h"
#include "base/log.h"
#include "base/util.h"
#include "e2e_util.h"
#include "model/settings.h"
#include "plan/job.h"
#include "worker/proto.h"
#include "worker/session_impl.h"

#define SUITE BR_FIXTURES_DIR "/devices/devices.yaml" /* case 0: kernel sum, n=1024 */

TestSuite(proto, .init = e2e_tmp_make, .fini = e2e_tmp_drop, .timeout = 120);

static void quiet_sink(void *ctx, br_log_level level, const char *msg) {
    (void)ctx;
    (void)level;
    (void)msg;
}

/* One case measured through the session, as a driver's thread does. */
typedef struct case_call {
    const br_job *job;
    br_session *s;
    br_case_result r;
    br_worker_result how;
    int worker_left; /* a healthy worker stayed with the session after the case */
} case_call;

static void *measure_case_0(void *arg) {
    case_call *c = arg;
    c->how = BR_WORKER_ERROR;
    if (br_case_init(&c->r, c->job, 0) != 0)
        return NULL;
    c->how = br_case_exec(&c->r, c->job, c->s, 0, &c->job->suite.measure, c->job->suite.warmup_ns);
    c->worker_left = br_worker_alive(c->s->worker);
    return NULL;
}

Test(proto, a_case_after_the_thread_that_started_the_worker_ended_gets_a_fresh_worker) {
    br_log_set_sink(quiet_sink, NULL);
    char *cache = br_strfmt("%s/cache", tmp);
    br_run_opts opts = {.cache_dir = cache, .quiet = 1, .jobs = 1, .cpu = -1};
    br_measure_layer_init(&opts.measure);
    br_job job;
    br_session *s = NULL;
    cr_assert_eq(br_job_prepare(&job, SUITE, &opts), 0, "%s", br_error_get());
    cr_assert_eq(br_session_open(&s, &opts), 0, "%s", br_error_get());
    cr_assert_eq(br_session_build_job(s, &job, BR_BUILD_RUN), 0, "%s", br_error_get());

    /* A device's thread measures a case; its worker stays for the next. */
    case_call first = {.job = &job, .s = s};
    pthread_t th;
    cr_assert_eq(pthread_create(&th, NULL, measure_case_0, &first), 0);
    pthread_join(th, NULL);
    cr_assert_eq(first.how, BR_WORKER_OK);
    cr_assert_eq(first.r.status, BR_STATUS_OK, "%s", first.r.message ? first.r.message : "");
    cr_assert(first.worker_left, "the case's worker did not stay with the session");
    usleep(100000); /* the thread's end has killed that worker by now */

    /* This thread measures the next case on the same session. */
    case_call next = {.job = &job, .s = s};
    measure_case_0(&next);
    cr_expect_eq(next.how, BR_WORKER_OK, "the worker was lost: %s",
                 next.r.message ? next.r.message : "");
    cr_expect_eq(next.r.status, BR_STATUS_OK, "%s (%s)", next.r.message ? next.r.message : "",
                 br_stage_name(next.r.stage) ? br_stage_name(next.r.stage) : "no stage");
    cr_expect(next.r.cold.present && next.r.cold.n_samples > 0);

    br_case_dispose(&first.r);
    br_case_dispose(&next.r);
    br_session_close(s);
    br_job_dispose(&job);
    free(cache);
}
