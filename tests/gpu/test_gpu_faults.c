/* SPDX-License-Identifier: Apache-2.0 */
/* GPU: a kernel that writes out of bounds and one that traps, in one suite
 * with healthy GPU and host kernels and host kernels that crash and hang
 * (tests/fixtures/faults/faults.yaml): each faulty case is failed with its
 * CUDA error or signal, every healthy case is measured (a sticky CUDA error
 * costs only its own worker process), and benchrun exits 1 (label `gpu`;
 * skipped without a GPU). */
#include <criterion/criterion.h>
#include <jansson.h>

#include "../e2e_util.h"
#include "gpu_main.h"

TestSuite(gpu_faults, .init = e2e_tmp_make, .fini = e2e_tmp_drop, .timeout = 600);

static const char *field(json_t *c, const char *key) {
    const char *s = json_string_value(json_object_get(c, key));
    return s ? s : "";
}

Test(gpu_faults, healthy_cases_are_measured_beside_gpu_kernels_that_fault) {
    char *json = br_strfmt("%s/out.json", tmp);
    char *cache = gpu_cache_arg(tmp);
    const char *args[] = {
        cache, "--json", json, "--no-compare", BR_FIXTURES_DIR "/faults/faults.yaml", NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 1, "exit %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);

    json_error_t err;
    json_t *doc = json_load_file(json, 0, &err);
    cr_assert_not_null(doc, "%s", err.text);
    json_t *cases = json_object_get(json_array_get(json_object_get(doc, "runs"), 0), "cases");
    cr_assert_eq(json_array_size(cases), 14);
    size_t i, n_ok = 0;
    json_t *c;
    json_array_foreach(cases, i, c) {
        const char *k = field(c, "kernel"), *status = field(c, "status"),
                   *msg = field(c, "message");
        if (strcmp(k, "host_ok") == 0 || strcmp(k, "gpu_ok") == 0) {
            cr_assert_str_eq(status, "ok", "%s: %s", k, msg);
            n_ok++;
            continue;
        }
        cr_assert_str_eq(status, "failed", "%s", k);
        if (strcmp(k, "gpu_oob") == 0)
            cr_assert(strstr(msg, "cudaErrorIllegalAddress"), "%s: %s", k, msg);
        else if (strcmp(k, "gpu_trap") == 0)
            cr_assert(strstr(msg, "cudaErrorLaunchFailure"), "%s: %s", k, msg);
        else if (strcmp(k, "host_segfault") == 0)
            cr_assert(strstr(msg, "SIGSEGV"), "%s: %s", k, msg);
        else if (strcmp(k, "host_abort") == 0)
            cr_assert(strstr(msg, "SIGABRT"), "%s: %s", k, msg);
        else
            cr_assert(strncmp(msg, "timed out after", 15) == 0, "%s: %s", k, msg);
    }
    cr_assert_eq(n_ok, 4, "host_ok and gpu_ok at both sizes");
    json_decref(doc);
    e2e_free(&r);
    free(json);
    free(cache);
}
