/* SPDX-License-Identifier: Apache-2.0 */
/* GPU: the device checks of the STREAM and transpose modules
 * (kernels/stream.cu, kernels/transpose.cu). Every kernel passes at a small
 * size, where the host also checks every element, and at a size above the
 * host check's limit, where only the device does; and one element with its
 * lowest bit flipped after the run (BR_STREAM_FAULT, BR_TRANSPOSE_FAULT: one
 * unit in the last place) fails every case at its stage verify, caught by
 * the host check, with the device check agreeing, at the small size and by
 * the device check at the large one (label `gpu`; skipped without a GPU). */
#include <criterion/criterion.h>
#include <jansson.h>

#include "../e2e_util.h"
#include "gpu_main.h"

TestSuite(gpu_verify, .init = e2e_tmp_make, .fini = e2e_tmp_drop, .timeout = 600);

static const char *field(json_t *c, const char *key) {
    const char *s = json_string_value(json_object_get(c, key));
    return s ? s : "";
}

#define MEASURE "warmup: 1ms\nmeasure: {min_samples: 5, min_time: 1ms, timeout: 5s}\n"

/* STREAM at n = 1001 (host and device checks) and 2^22 + 1 (device only). */
static char *stream_suite(void) {
    return br_strfmt("name: stream_verify\nsource: %s/kernels/stream.cu\n"
                     "kernels: [stream_copy, stream_scale, stream_add, stream_triad]\n"
                     "params:\n  n: [1001, 4194305]\nbytes: 16 * n\n" MEASURE,
                     BR_SOURCE_DIR);
}

/* Transpose of 40 x 50 (host and device checks) and 1000 x 3000 (device only). */
static char *transpose_suite(void) {
    return br_strfmt("name: transpose_verify\nsource: %s/kernels/transpose.cu\n"
                     "kernels: [transpose_naive, transpose_tiled, transpose_padded]\n"
                     "params:\n  shape:\n    zip:\n      m: [40, 1000]\n      n: [50, 3000]\n"
                     "bytes: 8 * m * n\n" MEASURE,
                     BR_SOURCE_DIR);
}

/* Run the suite `text` with the environment variable `var` set to `fault`
 * (NULL: unset); the exit status into *status, the cases (owned by *doc). */
static json_t *run_suite(json_t **doc, int *status, char *text, const char *var, const char *fault,
                         size_t n_cases) {
    char *suite = e2e_put("suite.yaml", text);
    free(text);
    char *json = br_strfmt("%s/out.json", tmp);
    char *cache = gpu_cache_arg(tmp);
    if (fault)
        setenv(var, fault, 1);
    else
        unsetenv(var);
    const char *args[] = {cache, "--json", json, "--no-compare", suite, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    *status = r.status;
    json_error_t err;
    *doc = json_load_file(json, 0, &err);
    cr_assert_not_null(*doc, "%s\nstdout:\n%s\nstderr:\n%s", err.text, r.out, r.err);
    json_t *cases = json_object_get(json_array_get(json_object_get(*doc, "runs"), 0), "cases");
    cr_assert_eq(json_array_size(cases), n_cases, "stdout:\n%s\nstderr:\n%s", r.out, r.err);
    e2e_free(&r);
    free(suite);
    free(json);
    free(cache);
    return cases;
}

static void assert_all_ok(json_t *cases) {
    size_t i;
    json_t *c;
    json_array_foreach(cases, i, c) {
        cr_assert_str_eq(field(c, "status"), "ok", "%s: %s", field(c, "kernel"),
                         field(c, "message"));
    }
}

/* Every case failed at verify; those whose parameter `p` is `small` with
 * `small_msg` and " (host check; the device check finds 1)" in the message,
 * the others with `large_msg` and " (device check)". */
static void assert_caught(json_t *cases, const char *p, json_int_t small, const char *small_msg,
                          const char *large_msg) {
    size_t i;
    json_t *c;
    json_array_foreach(cases, i, c) {
        const char *k = field(c, "kernel"), *msg = field(c, "message");
        json_int_t v = json_integer_value(json_object_get(json_object_get(c, "params"), p));
        cr_assert_str_eq(field(c, "status"), "failed", "%s %s=%lld: %s", k, p, (long long)v, msg);
        cr_assert_str_eq(field(c, "stage"), "verify", "%s %s=%lld: %s", k, p, (long long)v, msg);
        if (v == small)
            cr_assert(strstr(msg, small_msg) &&
                          strstr(msg, " (host check; the device check finds 1)"),
                      "%s %s=%lld: %s", k, p, (long long)v, msg);
        else
            cr_assert(strstr(msg, large_msg) && strstr(msg, " (device check)"), "%s %s=%lld: %s", k,
                      p, (long long)v, msg);
    }
}

Test(gpu_verify, stream_kernels_verify_on_host_and_device) {
    json_t *doc;
    int status;
    assert_all_ok(run_suite(&doc, &status, stream_suite(), "BR_STREAM_FAULT", NULL, 8));
    cr_assert_eq(status, 0);
    json_decref(doc);
}

Test(gpu_verify, a_flipped_bit_fails_stream_verify_on_host_and_device) {
    json_t *doc;
    int status;
    json_t *cases = run_suite(&doc, &status, stream_suite(), "BR_STREAM_FAULT", "-1", 8);
    cr_assert_eq(status, 1);
    assert_caught(cases, "n", 1001, "1 of 1001 elements", "1 of 4194305 elements");
    size_t i;
    json_t *c;
    json_array_foreach(cases, i, c) {
        const char *msg = field(c, "message");
        cr_assert(strstr(msg, "[1000] = ") || strstr(msg, "[4194304] = "), "%s", msg);
    }
    json_decref(doc);
}

Test(gpu_verify, transpose_kernels_verify_on_host_and_device) {
    json_t *doc;
    int status;
    assert_all_ok(run_suite(&doc, &status, transpose_suite(), "BR_TRANSPOSE_FAULT", NULL, 6));
    cr_assert_eq(status, 0);
    json_decref(doc);
}

Test(gpu_verify, a_flipped_bit_fails_transpose_verify_on_host_and_device) {
    json_t *doc;
    int status;
    json_t *cases = run_suite(&doc, &status, transpose_suite(), "BR_TRANSPOSE_FAULT", "-1", 6);
    cr_assert_eq(status, 1);
    assert_caught(cases, "m", 40, "1 of 2000 elements differ; first out[49][39]",
                  "1 of 3000000 elements differ; first out[2999][999]");
    json_decref(doc);
}
