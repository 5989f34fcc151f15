/* SPDX-License-Identifier: Apache-2.0 */
/* GPU: flag S. The fixture tests/fixtures/escape/escape.yaml spins 200 us on
 * the case's stream and on a stream of its own; the second must be flagged
 * S (its operations counted on another stream), its CUDA event time far
 * below its kernel time, which the test prints side by side; the first must
 * not (label `gpu`; skipped without a GPU). */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>

#include "../e2e_util.h"
#include "gpu_main.h"

TestSuite(gpu_escape, .init = e2e_tmp_make, .fini = e2e_tmp_drop, .timeout = 300);

static json_t *timing_of(json_t *cases, const char *kernel) {
    size_t i;
    json_t *c;
    json_array_foreach(cases, i, c) {
        if (strcmp(json_string_value(json_object_get(c, "kernel")), kernel) == 0) {
            cr_assert_str_eq(json_string_value(json_object_get(c, "status")), "ok", "%s: %s",
                             kernel, json_string_value(json_object_get(c, "message")));
            return json_object_get(c, "cold");
        }
    }
    cr_assert_fail("no case %s", kernel);
    return NULL;
}

Test(gpu_escape, work_on_its_own_stream_is_flagged_s) {
    char *json = br_strfmt("%s/out.json", tmp);
    char *cache = gpu_cache_arg(tmp);
    const char *args[] = {
        cache, "--json", json, "--no-compare", "--ascii", BR_FIXTURES_DIR "/escape/escape.yaml",
        NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 0, "exit %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    printf("%s", r.out);

    json_error_t err;
    json_t *doc = json_load_file(json, 0, &err);
    cr_assert_not_null(doc, "%s", err.text);
    json_t *cases = json_object_get(json_array_get(json_object_get(doc, "runs"), 0), "cases");
    json_t *honest = timing_of(cases, "on_case_stream"), *own = timing_of(cases, "own_stream");
    json_t *other = json_object_get(own, "other_stream_ops");
    cr_assert(json_is_integer(other),
              "no CUPTI records (kernel clock unavailable?): other_stream_ops is null\n%s", r.err);
    double own_event = json_number_value(json_object_get(own, "event_median_ns"));
    double own_kernel = json_number_value(json_object_get(own, "kernel_median_ns"));
    double ok_event = json_number_value(json_object_get(honest, "event_median_ns"));
    double ok_kernel = json_number_value(json_object_get(honest, "kernel_median_ns"));
    printf("escape: on_case_stream event %.1f us, kernel %.1f us; own_stream event %.1f us, "
           "kernel %.1f us, %lld operation(s) on another stream\n",
           ok_event / 1e3, ok_kernel / 1e3, own_event / 1e3, own_kernel / 1e3,
           (long long)json_integer_value(other));
    cr_assert_gt(json_integer_value(other), 0);
    cr_assert_str_eq(json_string_value(json_object_get(own, "escaped_op")),
                     "escape_spin(unsigned long, int*)");
    cr_assert_gt(own_kernel, 190e3, "the spin ran 200 us");
    cr_assert_lt(own_event, 0.5 * own_kernel, "the events did not see it");
    cr_assert_eq(json_integer_value(json_object_get(honest, "other_stream_ops")), 0);
    cr_assert_eq(json_integer_value(json_object_get(honest, "other_context_ops")), 0);
    cr_assert_gt(ok_event, 190e3, "on the case's stream the events see the spin");
    cr_assert(strstr(r.out, "S = work ran outside the case's stream"), "%s", r.out);
    cr_assert(strstr(r.out, "own_stream us=200 (cold): "), "%s", r.out);
    json_decref(doc);
    e2e_free(&r);
    free(json);
    free(cache);
}
