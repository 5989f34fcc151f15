/* SPDX-License-Identifier: Apache-2.0 */
/* GPU: every shipped reduction kernel verifies at awkward sizes, the run
 * records the device, and no figure exceeds the DRAM's theoretical peak (label
 * `gpu`; skipped without a GPU). */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>

#include "../e2e_util.h"
#include "gpu_main.h"

TestSuite(gpu, .init = e2e_tmp_make, .fini = e2e_tmp_drop, .timeout = 600);

Test(gpu, every_reduction_kernel_verifies_at_awkward_sizes) {
    char *text =
        br_strfmt("name: awkward\n"
                  "source: [%s/kernels/reduction_cpu.c, %s/kernels/reduction.cu]\n"
                  "kernels: [reduce_cpu, reduce_naive, reduce_smem, reduce_warp, reduce_vec, "
                  "reduce_cub]\n"
                  "params:\n  n: [1, 3, 1000, 65537, 1048573, \"2^22\"]\n"
                  "bytes: 4 * n\nwarmup: 1ms\n"
                  "measure: {min_samples: 5, min_time: 1ms, timeout: 5s}\n",
                  BR_SOURCE_DIR, BR_SOURCE_DIR);
    char *suite = e2e_put("awkward.yaml", text);
    free(text);
    char *json = br_strfmt("%s/out.json", tmp);
    char *cache = gpu_cache_arg(tmp);
    const char *args[] = {cache, "--json", json, suite, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 0, "exit %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);

    json_error_t err;
    json_t *doc = json_load_file(json, 0, &err);
    cr_assert_not_null(doc, "%s", err.text);
    json_t *run = json_array_get(json_object_get(doc, "runs"), 0);
    cr_assert(json_is_object(json_object_get(run, "device")), "a GPU run records its device");
    double peak = json_number_value(json_object_get(json_object_get(run, "device"), "peak_gbps"));
    cr_assert_gt(peak, 100, "peak bandwidth %g GB/s", peak);
    json_t *cases = json_object_get(run, "cases");
    cr_assert_eq(json_array_size(cases), 36);
    size_t i;
    json_t *c;
    json_array_foreach(cases, i, c) {
        const char *kernel = json_string_value(json_object_get(c, "kernel"));
        cr_assert_str_eq(json_string_value(json_object_get(c, "status")), "ok", "%s: %s", kernel,
                         json_string_value(json_object_get(c, "message")));
        double median = json_number_value(json_object_get(json_object_get(c, "cold"), "median"));
        /* With L2 flushed before every sample, no kernel reads a large input
         * faster than the DRAM's theoretical peak (5% allowed for the clock). */
        double gbps = json_number_value(json_object_get(c, "gbps"));
        cr_assert_gt(median, 0);
        if (strcmp(kernel, "reduce_cpu") != 0 &&
            json_integer_value(json_object_get(json_object_get(c, "params"), "n")) >= 1048573)
            cr_assert_lt(gbps, 1.05 * peak, "%s: %g GB/s beats the peak %g GB/s", kernel, gbps,
                         peak);
    }
    json_decref(doc);
    e2e_free(&r);
    free(suite);
    free(json);
    free(cache);
}
