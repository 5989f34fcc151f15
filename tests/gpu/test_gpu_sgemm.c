/* SPDX-License-Identifier: Apache-2.0 */
/* GPU: sgemm's verification (kernels/sgemm.cu). Every shipped kernel passes
 * at a small size, where the host reference checks every entry beside the
 * device's FP64 reference, and at a larger non-multiple-of-the-tile size,
 * where only the device checks; and one entry planted wrong by 0.05
 * (BR_SGEMM_FAULT, about 0.5% of a typical entry and a few times the bound)
 * fails every case at its stage verify, caught by the host reference at the
 * small size and by the device reference at the large one (label `gpu`;
 * skipped without a GPU). */
#include <criterion/criterion.h>
#include <jansson.h>

#include "../e2e_util.h"
#include "gpu_main.h"

TestSuite(gpu_sgemm, .init = e2e_tmp_make, .fini = e2e_tmp_drop, .timeout = 600);

static const char *field(json_t *c, const char *key) {
    const char *s = json_string_value(json_object_get(c, key));
    return s ? s : "";
}

/* Run the four sgemm kernels at 96 x 80 x 130 (host and device checks) and
 * 1024 x 1000 x 768 (device only) with BR_SGEMM_FAULT set to `fault` (NULL:
 * unset); the exit status into *status and the cases (owned by *doc). */
static json_t *run_sgemm(json_t **doc, int *status, const char *fault) {
    char *text = br_strfmt("name: sgemm_verify\n"
                           "source: %s/kernels/sgemm.cu\n"
                           "link: [cublas]\n"
                           "kernels: [sgemm_cublas, sgemm_naive, sgemm_smem, sgemm_reg]\n"
                           "params:\n  shape:\n    zip:\n"
                           "      m: [96, 1024]\n      n: [80, 1000]\n      k: [130, 768]\n"
                           "metric: GFLOP/s\nflops: 2 * m * n * k\nwarmup: 1ms\n"
                           "measure: {min_samples: 5, min_time: 1ms, timeout: 5s}\n",
                           BR_SOURCE_DIR);
    char *suite = e2e_put("sgemm.yaml", text);
    free(text);
    char *json = br_strfmt("%s/out.json", tmp);
    char *cache = gpu_cache_arg(tmp);
    if (fault)
        setenv("BR_SGEMM_FAULT", fault, 1);
    else
        unsetenv("BR_SGEMM_FAULT");
    const char *args[] = {cache, "--json", json, "--no-compare", suite, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    *status = r.status;
    json_error_t err;
    *doc = json_load_file(json, 0, &err);
    cr_assert_not_null(*doc, "%s\nstdout:\n%s\nstderr:\n%s", err.text, r.out, r.err);
    json_t *cases = json_object_get(json_array_get(json_object_get(*doc, "runs"), 0), "cases");
    cr_assert_eq(json_array_size(cases), 8, "stdout:\n%s\nstderr:\n%s", r.out, r.err);
    e2e_free(&r);
    free(suite);
    free(json);
    free(cache);
    return cases;
}

Test(gpu_sgemm, every_kernel_verifies_on_host_and_device) {
    json_t *doc;
    int status;
    json_t *cases = run_sgemm(&doc, &status, NULL);
    size_t i;
    json_t *c;
    json_array_foreach(cases, i, c) {
        cr_assert_str_eq(field(c, "status"), "ok", "%s: %s", field(c, "kernel"),
                         field(c, "message"));
    }
    cr_assert_eq(status, 0);
    json_decref(doc);
}

Test(gpu_sgemm, a_planted_wrong_entry_fails_verify_on_host_and_device) {
    json_t *doc;
    int status;
    json_t *cases = run_sgemm(&doc, &status, "-1,-1,0.05");
    cr_assert_eq(status, 1, "a failed case makes benchrun exit 1");
    size_t i;
    json_t *c;
    json_array_foreach(cases, i, c) {
        const char *k = field(c, "kernel"), *msg = field(c, "message");
        json_int_t m = json_integer_value(json_object_get(json_object_get(c, "params"), "m"));
        cr_assert_str_eq(field(c, "status"), "failed", "%s m=%d: %s", k, (int)m, msg);
        cr_assert_str_eq(field(c, "stage"), "verify", "%s m=%d: %s", k, (int)m, msg);
        if (m == 96) {
            cr_assert(strstr(msg, "C[95][79]") && strstr(msg, "host reference") &&
                          strstr(msg, "1 of 7680 entries are off") &&
                          strstr(msg, "the device check finds 1"),
                      "%s m=96: %s", k, msg);
        } else {
            cr_assert(strstr(msg, "C[1023][999]") && strstr(msg, "device FP64 reference") &&
                          strstr(msg, "1 of 1024000 entries are off"),
                      "%s m=1024: %s", k, msg);
        }
    }
    json_decref(doc);
}

Test(gpu_sgemm, a_malformed_fault_is_a_setup_error) {
    json_t *doc;
    int status;
    json_t *cases = run_sgemm(&doc, &status, "7");
    cr_assert_eq(status, 1);
    size_t i;
    json_t *c;
    json_array_foreach(cases, i, c) {
        cr_assert_str_eq(field(c, "stage"), "setup", "%s", field(c, "message"));
        cr_assert(strstr(field(c, "message"), "BR_SGEMM_FAULT must be I,J"), "%s",
                  field(c, "message"));
    }
    json_decref(doc);
}
