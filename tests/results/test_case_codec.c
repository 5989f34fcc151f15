/* SPDX-License-Identifier: Apache-2.0 */
/* test_case_codec.c - one case's result as the worker's message
 * (case_codec.h): every case of the hand-built runs of results_fixture.h
 * through br_case_encode and br_case_decode, field by field (cold and batch
 * timings with their samples, SM clocks, event/kernel/span/ops arrays and
 * breakdown; NaN and NULL values; failed and skipped cases), the message
 * re-encoded byte for byte, and malformed messages. */
#include "results_doc.h"

#include "results/case_codec.h"

TestSuite(case_codec, .init = fixtures_setup, .fini = fixtures_teardown);

static void expect_str_same(const char *got, const char *want, const char *what) {
    if (!want)
        cr_expect_null(got, "%s: '%s', want NULL", what, got ? got : "");
    else
        cr_expect(got && strcmp(got, want) == 0, "%s: '%s', want '%s'", what, got ? got : "(null)",
                  want);
}

/* A decoded timing equals the one encoded, field by field. */
static void expect_timing_eq(const br_timing *got, const br_timing *want, br_backend backend,
                             const char *what) {
    cr_assert_eq(got->present, want->present, "%s", what);
    if (!want->present)
        return;
    expect_stats_eq(&got->stats, &want->stats);
    cr_assert_eq(got->n_samples, want->n_samples, "%s", what);
    expect_array_eq(got->samples, want->samples, want->n_samples, what);
    expect_array_eq(got->sm_mhz, want->sm_mhz, want->n_samples, what);
    cr_expect(same(got->sm_mhz_median, want->sm_mhz_median), "%s", what);
    expect_clocks_eq(got, want, what);
    cr_expect_eq(got->n_throttled, want->n_throttled, "%s", what);
    cr_expect(same(got->throttled_min_mhz, want->throttled_min_mhz), "%s", what);
    cr_expect_eq(got->reps, want->reps, "%s", what);
    if (backend == BR_BACKEND_GPU)
        cr_expect_eq(got->graph, want->graph, "%s", what);
    cr_expect_eq(got->warmup_runs, want->warmup_runs, "%s", what);
    cr_expect(same(got->warmup_ns, want->warmup_ns), "%s", what);
    cr_expect(same(got->measure_ns, want->measure_ns), "%s", what);
    cr_expect_eq(got->stop, want->stop, "%s", what);
    cr_expect_null(got->run_medians, "%s", what);
}

/* Encode *c, decode it, check every field, re-encode byte for byte (the
 * derived figures are not read back: encoded NaN, they re-encode alike). */
static void round_trip(const br_case_result *c, br_backend backend, const char *what) {
    char *text = NULL;
    size_t len = 0;
    br_case_result in = *c;
    in.gbps = in.gflops = in.pct_peak = in.speedup = NAN;
    cr_assert_eq(br_case_encode(&text, &len, &in, backend), 0, "%s: %s", what, br_error_get());
    cr_assert_eq(strlen(text), len, "%s", what);
    br_case_result got;
    br_backend got_backend = (br_backend)-1;
    cr_assert_eq(br_case_decode(&got, &got_backend, text, len, "the worker's result"), 0, "%s: %s",
                 what, br_error_get());
    cr_expect_eq(got_backend, backend, "%s", what);
    cr_expect_eq(got.status, c->status, "%s", what);
    cr_expect_eq(got.stage, c->stage, "%s: stage", what);
    expect_str_same(got.message, c->message, what);
    cr_expect(same(got.bytes, c->bytes), "%s: bytes", what);
    cr_expect(same(got.flops, c->flops), "%s: flops", what);
    cr_expect(isnan(got.gbps) && isnan(got.gflops) && isnan(got.pct_peak) && isnan(got.speedup),
              "%s", what);
    expect_str_same(got.commit, c->commit, what);
    cr_expect_str_eq(got.date, c->date, "%s", what);
    br_timing none = {0};
    int ok = c->status == BR_STATUS_OK;
    expect_timing_eq(&got.cold, ok ? &c->cold : &none, backend, what);
    expect_timing_eq(&got.batch, ok ? &c->batch : &none, backend, what);

    char *again = NULL;
    size_t again_len = 0;
    cr_assert_eq(br_case_encode(&again, &again_len, &got, backend), 0, "%s", what);
    cr_expect_str_eq(again, text, "%s: re-encoded", what);
    free(again);
    br_case_dispose(&got);
    free(text);
}

Test(case_codec, every_fixture_case_round_trips) {
    size_t n_ok = 0, n_failed = 0, n_skipped = 0, n_cupti = 0, n_host = 0;
    for (size_t i = 0; i < N_RUNS; i++) {
        const br_run *r = &fixture[i];
        for (size_t j = 0; j < r->n_cases; j++) {
            const br_case_result *c = &r->cases[j];
            br_backend backend = r->kernels[c->kernel].backend;
            char what[128];
            snprintf(what, sizeof what, "%s case %zu (%s)", r->suite_name, j,
                     r->kernels[c->kernel].name);
            round_trip(c, backend, what);
            n_ok += c->status == BR_STATUS_OK;
            n_failed += c->status == BR_STATUS_FAILED;
            n_skipped += c->status == BR_STATUS_SKIPPED;
            n_cupti += c->status == BR_STATUS_OK && c->cold.kernel_ns != NULL;
            n_host += c->status == BR_STATUS_OK && backend == BR_BACKEND_HOST;
        }
    }
    /* The fixture holds every kind the message must carry. */
    cr_expect_gt(n_ok, 0);
    cr_expect_gt(n_failed, 0);
    cr_expect_gt(n_skipped, 0);
    cr_expect_gt(n_cupti, 0);
    cr_expect_gt(n_host, 0);
    no_leaks();
}

/* NaN figures, NULL strings and arrays, a lost CUPTI record (NaN in the
 * arrays), and a case-level commit and date. */
Test(case_codec, nan_and_null_values) {
    br_case_result c = {0};
    c.status = BR_STATUS_OK;
    c.bytes = NAN;
    c.flops = NAN;
    c.commit = strdup("0123456789abcdef0123456789abcdef01234567-dirty");
    snprintf(c.date, sizeof c.date, "2026-11-20T08:00:00Z");
    const double s[] = {1000, 1100, 1050, 990, 1010};
    set_timing(&c.cold, s, 5, 1.0, 1, BR_STOP_NOISE, 1755);
    c.cold.throttled_min_mhz = NAN;
    c.cold.warmup_ns = NAN;
    c.cold.kernel_ns = calloc(5, sizeof(double));
    c.cold.span_ns = calloc(5, sizeof(double));
    c.cold.ops = calloc(5, sizeof(double));
    c.cold.event_ns = calloc(5, sizeof(double));
    cr_assert(c.cold.kernel_ns && c.cold.span_ns && c.cold.ops && c.cold.event_ns);
    for (size_t i = 0; i < 5; i++) {
        c.cold.event_ns[i] = s[i];
        c.cold.kernel_ns[i] = i == 2 ? NAN : s[i] - 100;
        c.cold.span_ns[i] = i == 2 ? NAN : s[i] - 50;
        c.cold.ops[i] = i == 2 ? NAN : 1;
    }
    c.cold.clock = BR_CLOCK_EVENTS;
    c.cold.event_median_ns = br_stats_finite_median(c.cold.event_ns, 5);
    c.cold.kernel_median_ns = br_stats_finite_median(c.cold.kernel_ns, 5);
    c.cold.span_median_ns = br_stats_finite_median(c.cold.span_ns, 5);
    c.cold.ops_median = br_stats_finite_median(c.cold.ops, 5);
    round_trip(&c, BR_BACKEND_GPU, "nan and null");

    /* The same timing on the host: no SM clocks at all. */
    br_case_result h = {0};
    h.status = BR_STATUS_OK;
    h.bytes = 4096;
    h.flops = NAN;
    set_timing(&h.batch, s, 5, 2.0, 64, BR_STOP_PLATEAU, NAN);
    round_trip(&h, BR_BACKEND_HOST, "host batch");
    br_case_dispose(&c);
    br_case_dispose(&h);
    no_leaks();
}

/* A failed or skipped case carries its stage and message, never a timing,
 * even one that was taken before it failed. */
Test(case_codec, failed_and_skipped_cases) {
    const double s[] = {5, 6, 7};
    br_case_result f = {0};
    f.status = BR_STATUS_FAILED;
    f.stage = BR_STAGE_VERIFY;
    f.message = strdup("element 3: got 1.5, want \"2\",\nthen more");
    f.bytes = 1024;
    f.flops = NAN;
    set_timing(&f.cold, s, 3, 1.0, 1, BR_STOP_NOISE, 1400);
    round_trip(&f, BR_BACKEND_GPU, "failed");

    br_case_result k = {0};
    k.status = BR_STATUS_SKIPPED;
    k.stage = BR_STAGE_INTERRUPTED;
    k.message = strdup("the run was interrupted (SIGINT)");
    k.bytes = NAN;
    k.flops = NAN;
    round_trip(&k, BR_BACKEND_HOST, "skipped");
    br_case_dispose(&f);
    br_case_dispose(&k);
    no_leaks();
}

static void expect_decode_error(const char *text, const char *want) {
    br_case_result c;
    br_error_clear();
    cr_assert_eq(br_case_decode(&c, NULL, text, strlen(text), "msg"), -1, "decoded: %s", text);
    cr_expect_str_eq(br_error_get(), want);
    br_case_dispose(&c);
}

Test(case_codec, malformed_messages) {
    expect_decode_error("{", "msg:1:1: string or '}' expected near end of file");
    expect_decode_error("[]", "msg: expected an object (a case message), found an array");
    expect_decode_error("{\"case\": {}}", "msg: missing key 'schema_version'");
    expect_decode_error("{\"schema_version\": 3, \"case\": {}}",
                        "msg: schema_version: expected 4, found an integer");
    expect_decode_error("{\"schema_version\": 4}", "msg: missing key 'case'");
    expect_decode_error(
        "{\"schema_version\": 4, \"case\": {\"kernel\": \"\", \"backend\": \"tpu\"}}",
        "msg: case.backend: expected \"host\" or \"gpu\", found \"tpu\"");
    expect_decode_error(
        "{\"schema_version\": 4, \"case\": {\"kernel\": \"\", \"backend\": \"gpu\", "
        "\"params\": {}, \"status\": \"ok\", \"cold\": {\"clock\": \"events\", "
        "\"samples_ns\": [1, -2]}}}",
        "msg: case.cold.samples_ns[1]: expected a number > 0 (ns), found -2");
    no_leaks();
}

Test(case_codec, the_wall_breakdown_round_trips_and_older_messages_have_none) {
    br_case_result c = {0};
    c.status = BR_STATUS_FAILED;
    c.stage = BR_STAGE_VERIFY;
    c.message = "sum is off";
    c.bytes = c.flops = NAN;
    c.wall.present = 1;
    for (size_t i = 0; i < BR_WALL_PHASES; i++)
        *br_wall_phase_ptr(&c.wall, i) = 1000.5 * (double)(i + 1);
    c.wall.total_ns = 123456.25;
    char *text = NULL;
    size_t len = 0;
    cr_assert_eq(br_case_encode(&text, &len, &c, BR_BACKEND_HOST), 0, "%s", br_error_get());
    cr_assert_not_null(strstr(text, "\"wall\":{\"start_ns\":1000.5,"), "%s", text);
    br_case_result got;
    cr_assert_eq(br_case_decode(&got, NULL, text, len, "msg"), 0, "%s", br_error_get());
    cr_assert(got.wall.present);
    for (size_t i = 0; i < BR_WALL_PHASES; i++)
        cr_expect_eq(br_wall_phase(&got.wall, i), 1000.5 * (double)(i + 1), "%s",
                     br_wall_phase_names[i]);
    cr_expect_eq(got.wall.total_ns, 123456.25);
    br_case_dispose(&got);
    free(text);

    c.wall.present = 0;
    cr_assert_eq(br_case_encode(&text, &len, &c, BR_BACKEND_HOST), 0, "%s", br_error_get());
    cr_assert_null(strstr(text, "\"wall\""), "%s", text);
    cr_assert_eq(br_case_decode(&got, NULL, text, len, "msg"), 0, "%s", br_error_get());
    cr_expect_eq(got.wall.present, 0);
    br_case_dispose(&got);
    free(text);

    /* A message from before the breakdown: no "wall" at all. */
    const char *old = "{\"schema_version\":4,\"case\":{\"kernel\":\"\",\"params\":{},"
                      "\"backend\":\"host\",\"status\":\"failed\",\"stage\":\"run\","
                      "\"message\":\"x\"}}";
    cr_assert_eq(br_case_decode(&got, NULL, old, strlen(old), "old"), 0, "%s", br_error_get());
    cr_expect_eq(got.wall.present, 0);
    br_case_dispose(&got);
}

Test(case_codec, the_device_of_a_case_round_trips_and_a_one_device_case_has_none) {
    br_case_result c = {0};
    c.status = BR_STATUS_FAILED;
    c.stage = BR_STAGE_RUN;
    c.message = "crashed";
    c.bytes = c.flops = NAN;
    c.device_present = 1;
    c.device_index = 5;
    snprintf(c.device_uuid, sizeof c.device_uuid, "GPU-12345678-aaaa-bbbb-cccc-0123456789ab");
    char *text = NULL;
    size_t len = 0;
    cr_assert_eq(br_case_encode(&text, &len, &c, BR_BACKEND_HOST), 0, "%s", br_error_get());
    cr_assert_not_null(
        strstr(text,
               "\"device\":{\"index\":5,\"uuid\":\"GPU-12345678-aaaa-bbbb-cccc-0123456789ab\"}"),
        "%s", text);
    br_case_result got;
    cr_assert_eq(br_case_decode(&got, NULL, text, len, "msg"), 0, "%s", br_error_get());
    cr_expect_eq(got.device_present, 1);
    cr_expect_eq(got.device_index, 5);
    cr_expect_str_eq(got.device_uuid, c.device_uuid);
    br_case_dispose(&got);
    free(text);

    c.device_present = 0;
    cr_assert_eq(br_case_encode(&text, &len, &c, BR_BACKEND_HOST), 0, "%s", br_error_get());
    cr_assert_null(strstr(text, "\"device\""), "%s", text);
    cr_assert_eq(br_case_decode(&got, NULL, text, len, "msg"), 0, "%s", br_error_get());
    cr_expect_eq(got.device_present, 0);
    br_case_dispose(&got);
    free(text);

    /* A negative index is refused, naming the key. */
    const char *bad = "{\"schema_version\":4,\"case\":{\"kernel\":\"\",\"params\":{},"
                      "\"backend\":\"host\",\"status\":\"failed\",\"device\":{\"index\":-1}}}";
    cr_assert_eq(br_case_decode(&got, NULL, bad, strlen(bad), "bad"), -1);
    cr_expect_not_null(strstr(br_error_get(), "index"), "%s", br_error_get());
    br_case_dispose(&got);
}
