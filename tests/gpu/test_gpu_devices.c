/* SPDX-License-Identifier: Apache-2.0 */
/* GPU: --devices on the real path (drive/devices.c): the devices are asked
 * beside the probe that counts them, from a guess (CUDA_VISIBLE_DEVICES's
 * entries); a guess past the count is dropped, a named device the guess
 * does not cover is refused by the count alone, and the first device's
 * answer builds the kernels. Needs one GPU, the first one visible (label
 * `gpu`; skipped without a GPU). */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "../e2e_util.h"
#include "gpu_main.h"

TestSuite(gpu_devices, .init = e2e_tmp_make, .fini = e2e_tmp_drop, .timeout = 300);

/* benchrun --devices DEVS on the escape fixture with CUDA_VISIBLE_DEVICES
 * set to `visible`, its JSON into tmp/out.json. */
static void run_devices(e2e_result *r, const char *visible, const char *devs) {
    char *json = br_strfmt("%s/out.json", tmp);
    char *cache = gpu_cache_arg(tmp);
    const char *args[] = {cache,
                          "--json",
                          json,
                          "--no-compare",
                          "--devices",
                          devs,
                          BR_FIXTURES_DIR "/escape/escape.yaml",
                          NULL};
    setenv("CUDA_VISIBLE_DEVICES", visible, 1);
    cr_assert_eq(e2e_run(r, NULL, args), 0);
    unsetenv("CUDA_VISIBLE_DEVICES");
    free(json);
    free(cache);
}

Test(gpu_devices, a_guessed_device_past_the_count_is_dropped) {
    /* "0,99": CUDA shows device 0 only (an invalid entry hides the rest);
     * the guess of two is asked beside the probe, the probe counts one. */
    e2e_result r;
    run_devices(&r, "0,99", "all");
    cr_assert_eq(r.status, 0, "exit %d\nstderr:\n%s", r.status, r.err);
    char *json = br_strfmt("%s/out.json", tmp);
    json_error_t err;
    json_t *doc = json_load_file(json, 0, &err);
    cr_assert_not_null(doc, "%s", err.text);
    json_t *cases = json_object_get(json_array_get(json_object_get(doc, "runs"), 0), "cases");
    size_t i;
    json_t *c;
    cr_assert_gt(json_array_size(cases), 0);
    json_array_foreach(cases, i, c) {
        cr_assert_str_eq(json_string_value(json_object_get(c, "status")), "ok", "%s",
                         json_string_value(json_object_get(c, "message")));
        json_t *dev = json_object_get(c, "device");
        cr_assert(json_is_null(dev) || json_integer_value(json_object_get(dev, "index")) == 0,
                  "a case measured on a device the probe did not count");
    }
    json_decref(doc);
    free(json);
    e2e_free(&r);
}

Test(gpu_devices, a_named_device_past_the_count_is_refused_by_the_count) {
    e2e_result r;
    run_devices(&r, "0", "1");
    cr_assert_eq(r.status, 2, "exit %d\nstderr:\n%s", r.status, r.err);
    cr_assert(strstr(r.err, "--devices 1: this host has 1 GPU(s), numbered 0 to 0"), "%s", r.err);
    cr_assert_null(strstr(r.err, "device 1:"), "device 1 was asked before the count:\n%s", r.err);
    e2e_free(&r);
}

Test(gpu_devices, the_first_device_named_builds_the_kernels) {
    e2e_result r;
    run_devices(&r, "0", "0");
    cr_assert_eq(r.status, 0, "exit %d\nstderr:\n%s", r.status, r.err);
    e2e_free(&r);
}
