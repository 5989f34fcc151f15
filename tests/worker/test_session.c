/* SPDX-License-Identifier: Apache-2.0 */
/* A device query taken over (worker/session_impl.h br_session_adopt_query):
 * --devices asks each device once, and the session of the same device
 * takes that answer instead of starting a worker (a fork and a CUDA
 * initialisation) to ask again. The session that took it answers
 * br_session_gpu with it and asks nothing (here, on a host whose own query
 * would find no GPU, it still answers that the GPU is usable); a session
 * bound to one device counts one; its clock choice is its own; a real
 * query's answer (no GPU on a machine without one) is taken whole. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "base/error.h"
#include "base/log.h"
#include "base/util.h"
#include "e2e_util.h"
#include "worker/proto.h"
#include "worker/session_impl.h"

TestSuite(session, .init = e2e_tmp_make, .fini = e2e_tmp_drop, .timeout = 60);

static void quiet_sink(void *ctx, br_log_level level, const char *msg) {
    (void)ctx;
    (void)level;
    (void)msg;
}

static br_session *open_session(br_run_opts *opts, char **cache) {
    br_session *s = NULL;
    *cache = br_strfmt("%s/cache", tmp);
    *opts = (br_run_opts){.cache_dir = *cache, .quiet = 1, .jobs = 1, .cpu = -1};
    cr_assert_eq(br_session_open(&s, opts), 0, "%s", br_error_get());
    return s;
}

Test(session, an_adopted_answer_is_given_without_asking_again) {
    br_log_set_sink(quiet_sink, NULL);
    br_run_opts opts;
    char *cache;
    br_session *src = open_session(&opts, &cache), *bound, *unbound;
    cr_assert_eq(br_session_open(&bound, &opts), 0, "%s", br_error_get());
    cr_assert_eq(br_session_open(&unbound, &opts), 0, "%s", br_error_get());
    /* What a worker found out about the first of two GPUs. */
    src->gpu_checked = 1;
    src->gpu_ok = 1;
    src->device_count = 2;
    snprintf(src->device.name, sizeof src->device.name, "NVIDIA H200");
    snprintf(src->device.uuid, sizeof src->device.uuid, "GPU-0000");
    src->device.cc_major = 9;
    src->device.sm_clock_khz = 1980000;
    snprintf(src->gpu_arch, sizeof src->gpu_arch, "sm_90");
    br_session_bind(bound, "0");
    snprintf(bound->clock_note, sizeof bound->clock_note, "its own note");
    bound->gpu_clock = BR_CLOCK_EVENTS;

    br_session_adopt_query(bound, src);
    br_session_adopt_query(unbound, src);
    cr_expect_eq(br_session_gpu(bound), 1, "asked again: %s", bound->gpu_why);
    cr_expect_null(bound->worker);
    cr_expect_str_eq(bound->device.name, "NVIDIA H200");
    cr_expect_str_eq(bound->device.uuid, "GPU-0000");
    cr_expect_eq(bound->device.sm_clock_khz, 1980000);
    cr_expect_str_eq(bound->gpu_arch, "sm_90");
    cr_expect_eq(bound->device_count, 1, "bound to one device, it sees one");
    cr_expect_str_eq(bound->clock_note, "its own note");
    cr_expect_eq(bound->gpu_clock, BR_CLOCK_EVENTS);
    cr_expect_eq(br_session_gpu(unbound), 1);
    cr_expect_eq(unbound->device_count, 2, "unbound as the one that asked, it sees what it saw");
    br_session_close(src);
    br_session_close(bound);
    br_session_close(unbound);
    free(cache);
}

Test(session, a_real_answer_is_taken_whole) {
    br_log_set_sink(quiet_sink, NULL);
    br_run_opts opts;
    char *cache;
    br_session *src = open_session(&opts, &cache), *dst;
    cr_assert_eq(br_session_open(&dst, &opts), 0, "%s", br_error_get());
    int ok = br_session_gpu(src); /* a worker's query of this machine */
    br_session_adopt_query(dst, src);
    cr_expect_eq(br_session_gpu(dst), ok);
    cr_expect_eq(dst->gpu_checked, 1);
    cr_expect_str_eq(dst->gpu_why, src->gpu_why);
    cr_expect_str_eq(dst->gpu_arch, src->gpu_arch);
    cr_expect_str_eq(dst->device.uuid, src->device.uuid);
    cr_expect_eq(dst->device_count, src->device_count);
    cr_expect_eq(memcmp(&dst->device, &src->device, sizeof dst->device), 0);
    br_session_close(src);
    br_session_close(dst);
    free(cache);
}

/* A compute peak asked through the worker (BR_REQ_COMPUTE and its peak
 * message): on a machine without a GPU it fails with the reason, and once
 * per session (the second ask is answered from the session); with one, it
 * is measured, cached or unavailable. */
Test(session, a_compute_peak_comes_back_from_the_worker_once) {
    br_run_opts opts;
    char *cache;
    br_session *s = open_session(&opts, &cache);
    br_log_set_sink(quiet_sink, NULL);
    int gpu = br_session_gpu(s);
    br_compute_measure a, b;
    br_session_measured_compute(s, BR_PRECISION_FP16_TENSOR, &a);
    cr_expect_eq(a.precision, BR_PRECISION_FP16_TENSOR);
    if (!gpu) {
        cr_expect_eq(a.status, BR_COMPUTE_PEAK_FAILED);
        cr_expect(isnan(a.gops));
        cr_expect_neq(a.why[0], '\0', "a failure says why");
    } else {
        cr_expect(a.status != BR_COMPUTE_PEAK_FAILED, "%s", a.why);
    }
    cr_expect_eq(s->compute_tried[BR_PRECISION_FP16_TENSOR], 1);
    br_session_drop_worker(s);
    br_session_measured_compute(s, BR_PRECISION_FP16_TENSOR, &b);
    cr_expect_null(s->worker, "the second ask started no worker");
    cr_expect_eq(b.status, a.status);
    cr_expect_str_eq(b.why, a.why);
    /* No kernel for a 2:4 sparse precision (said by the worker, GPU or
     * not), and none outside the enum (said at once). */
    br_session_measured_compute(s, BR_PRECISION_FP16_TENSOR_SPARSE, &b);
    cr_expect_eq(b.status, BR_COMPUTE_PEAK_UNAVAILABLE);
    cr_expect_str_eq(b.why, "benchrun has no kernel that measures fp16-tensor-sparse");
    br_session_measured_compute(s, (br_precision)BR_PRECISION_COUNT, &b);
    cr_expect_eq(b.status, BR_COMPUTE_PEAK_UNAVAILABLE);
    br_log_set_sink(NULL, NULL);
    br_session_close(s);
    free(cache);
}
