/* SPDX-License-Identifier: Apache-2.0 */
/* The choice of the GPU headline clock and its fallback (run.h), and the
 * command line that sets it. The kernel clock itself is checked against
 * known answers on a GPU (tests/gpu/test_gpu_timing.c). */
#include <criterion/criterion.h>
#include <jansson.h>

#include "e2e_util.h"
#include "worker/session.h"

TestSuite(clock, .init = e2e_tmp_make, .fini = e2e_tmp_drop);

Test(clock, the_kernel_clock_is_the_default_where_cupti_collects) {
    char note[128] = "stale";
    cr_assert_eq(br_run_resolve_clock(0, 0, 1, NULL, note, sizeof note), BR_CLOCK_KERNEL);
    cr_assert_str_eq(note, "");
    cr_assert_eq(br_run_resolve_clock(BR_CLOCK_KERNEL, 0, 1, NULL, note, sizeof note),
                 BR_CLOCK_KERNEL);
    cr_assert_str_eq(note, "");
}

Test(clock, events_when_asked_even_where_cupti_collects) {
    char note[128] = "stale";
    cr_assert_eq(br_run_resolve_clock(BR_CLOCK_EVENTS, 0, 1, NULL, note, sizeof note),
                 BR_CLOCK_EVENTS);
    cr_assert_str_eq(note, "", "events were asked for: nothing to explain");
}

Test(clock, without_cupti_it_falls_back_to_events_and_says_why) {
    char note[128];
    const char *why = "CUPTI: cuptiActivityEnable: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES";
    cr_assert_eq(br_run_resolve_clock(0, 0, 0, why, note, sizeof note), BR_CLOCK_EVENTS);
    cr_assert_str_eq(note, why);
    cr_assert_eq(br_run_resolve_clock(BR_CLOCK_KERNEL, 0, 0, why, note, sizeof note),
                 BR_CLOCK_EVENTS, "an explicit --clock kernel falls back too");
    cr_assert_str_eq(note, why);
    cr_assert_eq(br_run_resolve_clock(0, 0, 0, NULL, note, sizeof note), BR_CLOCK_EVENTS);
    cr_assert_str_eq(note, "the GPU timer does not collect it", "a reason even without one");
    char tiny[8];
    cr_assert_eq(br_run_resolve_clock(0, 0, 0, why, tiny, sizeof tiny), BR_CLOCK_EVENTS);
    cr_assert_str_eq(tiny, "CUPTI: ", "the note is cut to its buffer");
}

Test(clock, no_cupti_means_events_without_a_note) {
    char note[128] = "stale";
    cr_assert_eq(br_run_resolve_clock(0, 1, 0, NULL, note, sizeof note), BR_CLOCK_EVENTS);
    cr_assert_str_eq(note, "", "the user turned CUPTI off: nothing to explain");
}

/* Run benchrun with the extra arguments on the host fixture suite. */
static void run_host(e2e_result *r, const char *json, const char *a, const char *b) {
    char *suite = br_strfmt("%s/e2e/ok.yaml", BR_FIXTURES_DIR);
    char *cache = br_strfmt("--cache-dir=%s/cache", tmp);
    const char *args[] = {cache,
                          "-q",
                          "--no-compare",
                          "--json",
                          json,
                          a ? a : suite,
                          a ? (b ? b : suite) : NULL,
                          b ? suite : NULL,
                          NULL};
    cr_assert_eq(e2e_run(r, NULL, args), 0);
    free(suite);
    free(cache);
}

Test(clock, the_clock_options_are_checked) {
    char *json = br_strfmt("%s/out.json", tmp);
    e2e_result r;
    run_host(&r, json, "--clock=bogus", NULL);
    cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
    cr_assert(strstr(r.err, "--clock: expected kernel or events, found 'bogus'"), "%s", r.err);
    e2e_free(&r);
    run_host(&r, json, "--clock=kernel", "--no-cupti");
    cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
    cr_assert(strstr(r.err, "cannot go with --no-cupti"), "%s", r.err);
    e2e_free(&r);
    free(json);
}

Test(clock, host_cases_are_timed_on_the_monotonic_clock_whatever_the_gpu_clock) {
    char *json = br_strfmt("%s/out.json", tmp);
    const char *variants[][2] = {
        {NULL, NULL}, {"--clock=events", NULL}, {"--clock=kernel", NULL}, {"--no-cupti", NULL}};
    for (size_t v = 0; v < 4; v++) {
        e2e_result r;
        run_host(&r, json, variants[v][0], variants[v][1]);
        cr_assert_eq(r.status, 0, "%s: exit %d: %s", variants[v][0], r.status, r.err);
        cr_assert_null(strstr(r.err, "kernel clock is unavailable"), "no GPU case, no note: %s",
                       r.err);
        json_error_t err;
        json_t *doc = json_load_file(json, 0, &err);
        cr_assert_not_null(doc, "%s", err.text);
        json_t *run = json_array_get(json_object_get(doc, "runs"), 0);
        cr_assert_str_eq(json_string_value(json_object_get(run, "gpu_clock")), "events");
        cr_assert(json_is_null(json_object_get(run, "clock_note")));
        json_t *cold = json_object_get(json_array_get(json_object_get(run, "cases"), 0), "cold");
        cr_assert_str_eq(json_string_value(json_object_get(cold, "clock")), "monotonic");
        cr_assert(json_is_null(json_object_get(cold, "kernel_ns")));
        json_decref(doc);
        e2e_free(&r);
    }
    free(json);
}
