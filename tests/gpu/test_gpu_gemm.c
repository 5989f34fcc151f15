/* SPDX-License-Identifier: Apache-2.0 */
/* GPU: the gemm suite's kernels (the Tensor Core module) verify at a size
 * smaller than one tile and not a multiple of it (96 x 144 x 160) and at an
 * LLM inference shape (1 x 2048 x 4096); an entry planted wrong by 64
 * (BR_GEMM_FAULT; the bound at k = 4096 is below 25 for every kind) fails
 * every case at its stage verify; the FP8 kernel on a GPU below compute
 * capability 8.9 fails setup with a message that says so (label `gpu`;
 * skipped without a GPU). */
#include <criterion/criterion.h>
#include <jansson.h>

#include "../e2e_util.h"
#include "gpu_main.h"

TestSuite(gpu_gemm, .init = e2e_tmp_make, .fini = e2e_tmp_drop, .timeout = 600);

static const char *field(json_t *c, const char *key) {
    const char *s = json_string_value(json_object_get(c, key));
    return s ? s : "";
}

/* Run the six gemm kernels at the two shapes with BR_GEMM_FAULT set to
 * `fault` (NULL: unset); the exit status into *status and the cases (owned
 * by *doc). */
static json_t *run_gemm(json_t **doc, int *status, const char *fault) {
    char *text = br_strfmt("name: gemm_verify\n"
                           "source: %s/kernels/gemm.cu\n"
                           "link: [cublas, cublasLt]\n"
                           "kernels: [gemm_cublas_fp16, hgemm_wmma, hgemm_mma, gemm_cublas_bf16, "
                           "gemm_cublas_tf32, gemm_cublas_fp8]\n"
                           "params:\n  shape:\n    zip:\n"
                           "      m: [96, 1]\n      n: [144, 2048]\n      k: [160, 4096]\n"
                           "metric: GFLOP/s\nflops: 2 * m * n * k\nwarmup: 1ms\n"
                           "measure: {min_samples: 3, min_time: 1ms, timeout: 2s}\n",
                           BR_SOURCE_DIR);
    char *suite = e2e_put("gemm.yaml", text);
    free(text);
    char *json = br_strfmt("%s/out.json", tmp);
    char *cache = gpu_cache_arg(tmp);
    if (fault)
        setenv("BR_GEMM_FAULT", fault, 1);
    else
        unsetenv("BR_GEMM_FAULT");
    const char *args[] = {cache, "--json", json, "--no-compare", suite, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    *status = r.status;
    json_error_t err;
    *doc = json_load_file(json, 0, &err);
    cr_assert_not_null(*doc, "%s\nstdout:\n%s\nstderr:\n%s", err.text, r.out, r.err);
    json_t *cases = json_object_get(json_array_get(json_object_get(*doc, "runs"), 0), "cases");
    cr_assert_eq(json_array_size(cases), 12, "stdout:\n%s\nstderr:\n%s", r.out, r.err);
    e2e_free(&r);
    free(suite);
    free(json);
    free(cache);
    return cases;
}

/* The FP8 kernel on a GPU without FP8: the message setup gives. */
static int fp8_refused(json_t *c) {
    return strcmp(field(c, "kernel"), "gemm_cublas_fp8") == 0 &&
           strcmp(field(c, "stage"), "setup") == 0 &&
           strstr(field(c, "message"), "needs FP8 Tensor Cores") != NULL;
}

Test(gpu_gemm, every_kernel_verifies) {
    json_t *doc;
    int status;
    json_t *cases = run_gemm(&doc, &status, NULL);
    size_t i;
    json_t *c;
    int refused = 0;
    json_array_foreach(cases, i, c) {
        if (fp8_refused(c)) {
            refused++;
            continue;
        }
        cr_assert_str_eq(field(c, "status"), "ok", "%s: %s", field(c, "kernel"),
                         field(c, "message"));
    }
    cr_assert_eq(status, refused ? 1 : 0);
    json_decref(doc);
}

Test(gpu_gemm, a_planted_wrong_entry_fails_verify) {
    json_t *doc;
    int status;
    json_t *cases = run_gemm(&doc, &status, "-1,-1,64");
    cr_assert_eq(status, 1, "a failed case makes benchrun exit 1");
    size_t i;
    json_t *c;
    json_array_foreach(cases, i, c) {
        if (fp8_refused(c))
            continue;
        const char *k = field(c, "kernel"), *msg = field(c, "message");
        json_int_t m = json_integer_value(json_object_get(json_object_get(c, "params"), "m"));
        cr_assert_str_eq(field(c, "status"), "failed", "%s m=%d: %s", k, (int)m, msg);
        cr_assert_str_eq(field(c, "stage"), "verify", "%s m=%d: %s", k, (int)m, msg);
        const char *where = m == 96 ? "C[95][143]" : "C[0][2047]";
        const char *count = m == 96 ? "1 of 13824 entries are off" : "1 of 2048 entries are off";
        cr_assert(strstr(msg, where) && strstr(msg, count) && strstr(msg, "FP64 reference"),
                  "%s m=%d: %s", k, (int)m, msg);
    }
    json_decref(doc);
}

Test(gpu_gemm, a_malformed_fault_is_a_setup_error) {
    json_t *doc;
    int status;
    json_t *cases = run_gemm(&doc, &status, "7");
    cr_assert_eq(status, 1);
    size_t i;
    json_t *c;
    json_array_foreach(cases, i, c) {
        cr_assert_str_eq(field(c, "stage"), "setup", "%s", field(c, "message"));
        cr_assert(strstr(field(c, "message"), "BR_GEMM_FAULT must be I,J"), "%s",
                  field(c, "message"));
    }
    json_decref(doc);
}
