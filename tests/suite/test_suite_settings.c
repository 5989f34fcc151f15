/* SPDX-License-Identifier: Apache-2.0 */
/* The measurement settings of a suite with the command line's layer over
 * them (br_suite_load_over): the layers are applied in order and checked
 * once, at load, with the messages naming the suite's keys or the options. */
#include <criterion/criterion.h>

#include <string.h>

#include "base/error.h"
#include "model/settings.h"
#include "suite/suite.h"

#define SUITES BR_FIXTURES_DIR "/suites"
#define BAD    BR_FIXTURES_DIR "/bad"

/* Load path with `over` laid over it; expect failure with `want` in the
 * message. */
static void expect_load_error(const char *path, const br_measure_layer *over, const char *want) {
    br_suite s;
    cr_assert_neq(br_suite_load_over(&s, path, over), 0, "%s loaded", path);
    cr_expect(strstr(br_error_get(), want), "got: %s\nwant: %s", br_error_get(), want);
    br_suite_dispose(&s);
}

Test(suite_settings, an_option_may_mend_what_the_suite_alone_breaks) {
    /* min_time 20s over timeout 10s: refused alone (5:13), but the layers
     * are checked once, together, and --timeout 30s makes them agree. */
    br_suite s;
    cr_assert_neq(br_suite_load(&s, BAD "/min_time_over_timeout.yaml"), 0);
    cr_expect(strstr(br_error_get(), "5:13: min_time 20s is longer than timeout 10s"), "%s",
              br_error_get());
    br_suite_dispose(&s);

    br_measure_layer over;
    br_measure_layer_init(&over);
    br_setting_origin opt = br_setting_from_option("--timeout");
    cr_assert_eq(br_measure_layer_set_time(&over, BR_SETTING_TIMEOUT, 30e9, &opt), 0);
    cr_assert_eq(br_suite_load_over(&s, BAD "/min_time_over_timeout.yaml", &over), 0, "%s",
                 br_error_get());
    cr_expect_float_eq(s.measure.min_time_ns, 20e9, 1, "the suite's min_time stays");
    cr_expect_float_eq(s.measure.timeout_ns, 30e9, 1, "the option's timeout wins");
    br_suite_dispose(&s);
}

Test(suite_settings, a_rule_the_options_break_names_the_options) {
    br_measure_layer over;
    br_measure_layer_init(&over);
    br_setting_origin lo = br_setting_from_option("--min-samples");
    br_setting_origin hi = br_setting_from_option("--max-samples");
    cr_assert_eq(br_measure_layer_set_count(&over, BR_SETTING_MIN_SAMPLES, 6, &lo), 0);
    cr_assert_eq(br_measure_layer_set_count(&over, BR_SETTING_MAX_SAMPLES, 3, &hi), 0);
    expect_load_error(SUITES "/minimal.yaml", &over,
                      "minimal.yaml: min_samples (6) is larger than max_samples (3) "
                      "(--min-samples, --max-samples)");
}

Test(suite_settings, the_suites_own_break_is_said_first) {
    /* timeout 1ms under the default min_time, and --headline batch, which
     * mode cold does not measure: the suite's rule comes first, at its key. */
    br_measure_layer over;
    br_measure_layer_init(&over);
    br_setting_origin opt = br_setting_from_option("--headline");
    cr_assert_eq(br_measure_layer_set_mode(&over, BR_SETTING_HEADLINE, BR_MODE_BATCH, &opt), 0);
    expect_load_error(BAD "/timeout_under_default_min_time.yaml", &over,
                      "5:12: timeout 1ms is shorter than the default min_time (2ms)");
}

Test(suite_settings, no_layer_and_an_empty_layer_load_alike) {
    br_suite a, b;
    br_measure_layer empty;
    br_measure_layer_init(&empty);
    cr_assert_eq(br_suite_load_over(&a, SUITES "/measure_all.yaml", NULL), 0, "%s", br_error_get());
    cr_assert_eq(br_suite_load_over(&b, SUITES "/measure_all.yaml", &empty), 0, "%s",
                 br_error_get());
    const br_measure_cfg *x = &a.measure, *y = &b.measure;
    cr_expect_eq(x->min_samples, y->min_samples);
    cr_expect_eq(x->max_samples, y->max_samples);
    cr_expect_float_eq(x->min_time_ns, y->min_time_ns, 0);
    cr_expect_float_eq(x->timeout_ns, y->timeout_ns, 0);
    cr_expect_float_eq(x->max_noise, y->max_noise, 0);
    cr_expect_float_eq(x->throttle, y->throttle, 0);
    cr_expect_eq(x->hold, y->hold);
    cr_expect_eq(x->mode, y->mode);
    cr_expect_eq(x->headline, y->headline);
    cr_expect_float_eq(a.warmup_ns, b.warmup_ns, 0);
    cr_expect_float_eq(a.watchdog_ns, b.watchdog_ns, 0);
    cr_expect_eq(a.cache, b.cache);
    br_suite_dispose(&a);
    br_suite_dispose(&b);
}
