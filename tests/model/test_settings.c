/* SPDX-License-Identifier: Apache-2.0 */
/* test_settings.c - the measurement settings (results/settings.h): the
 * range of every field and its message per source, layering, the headline
 * derived from a mode, the rules between fields with the suite's and the
 * command line's messages (the texts the .expect files of tests/fixtures/bad/ assert),
 * and the command line's option values. Positions mirror the fixtures:
 * "s.yaml:5:13" is a value on line 5 of a suite's measure mapping. */
#include "base/error.h"
#include "model/settings.h"
#include "suite/suite.h"

#include <criterion/criterion.h>

#include <stdio.h>
#include <string.h>

static const br_setting_parsers parsers = {br_parse_duration, br_parse_fraction, br_parse_mode};

/* An origin at line:column of s.yaml, its value shown as `shown`. */
static br_setting_origin key(int line, int column, const char *shown) {
    return br_setting_from_key((br_pos){"s.yaml", line, column}, shown);
}

#define EXPECT_ERROR(call, message)                                                                \
    do {                                                                                           \
        cr_assert_eq((call), -1, "%s", #call);                                                     \
        cr_expect_str_eq(br_error_get(), message);                                                 \
    } while (0)

/* The layers' settings over the defaults, origins naming s.yaml. */
static void stack(br_measure_settings *s, br_measure_origins *o, const br_measure_layer *suite,
                  const br_measure_layer *cli) {
    br_measure_settings_defaults(s);
    br_measure_origins_init(o, "s.yaml");
    if (suite)
        br_measure_settings_apply(s, o, suite);
    if (cli)
        br_measure_settings_apply(s, o, cli);
}

/* --- defaults and names -------------------------------------------------- */

Test(settings, defaults_are_those_of_types_h) {
    br_measure_settings s;
    br_measure_settings_defaults(&s);
    cr_expect_eq(s.cfg.min_samples, BR_DEFAULT_MIN_SAMPLES);
    cr_expect_float_eq(s.cfg.min_time_ns, BR_DEFAULT_MIN_TIME_NS, 0);
    cr_expect_float_eq(s.cfg.max_noise, BR_DEFAULT_MAX_NOISE, 0);
    cr_expect_float_eq(s.cfg.timeout_ns, BR_DEFAULT_TIMEOUT_NS, 0);
    cr_expect_eq(s.cfg.max_samples, BR_DEFAULT_MAX_SAMPLES);
    cr_expect_float_eq(s.cfg.throttle, BR_DEFAULT_THROTTLE, 0);
    cr_expect_eq(s.cfg.hold, 1);
    cr_expect_eq(s.cfg.mode, BR_MODE_COLD);
    cr_expect_eq(s.cfg.headline, BR_MODE_COLD);
    cr_expect_float_eq(s.warmup_ns, BR_DEFAULT_WARMUP_NS, 0);
    cr_expect_eq(s.cache, BR_CACHE_FLUSH);
    cr_expect_float_eq(s.watchdog_ns, BR_DEFAULT_WATCHDOG_NS, 0);
    cr_expect_eq(br_measure_settings_check(&s, NULL), 0, "%s", br_error_get());
    br_measure_origins o;
    br_measure_origins_init(&o, "s.yaml");
    cr_expect_eq(br_measure_settings_check(&s, &o), 0, "%s", br_error_get());
}

Test(settings, every_setting_has_a_key_an_option_and_a_kind) {
    static const struct {
        br_setting f;
        const char *key, *option;
        br_setting_kind kind;
    } want[] = {
        {BR_SETTING_MIN_SAMPLES, "min_samples", "--min-samples", BR_KIND_COUNT},
        {BR_SETTING_MIN_TIME, "min_time", "--min-time", BR_KIND_DURATION},
        {BR_SETTING_MAX_NOISE, "max_noise", "--max-noise", BR_KIND_FRACTION},
        {BR_SETTING_TIMEOUT, "timeout", "--timeout", BR_KIND_DURATION},
        {BR_SETTING_MAX_SAMPLES, "max_samples", "--max-samples", BR_KIND_COUNT},
        {BR_SETTING_THROTTLE, "throttle", "--throttle", BR_KIND_FRACTION},
        {BR_SETTING_HOLD, "hold", "--no-hold", BR_KIND_FLAG},
        {BR_SETTING_MODE, "mode", "--mode", BR_KIND_MODE},
        {BR_SETTING_HEADLINE, "headline", "--headline", BR_KIND_MODE},
        {BR_SETTING_WARMUP, "warmup", "--warmup", BR_KIND_DURATION},
        {BR_SETTING_CACHE, "cache", "--cache", BR_KIND_CACHE},
        {BR_SETTING_WATCHDOG, "watchdog", "--watchdog", BR_KIND_DURATION},
    };
    cr_assert_eq(sizeof want / sizeof want[0], BR_SETTING_COUNT);
    for (size_t i = 0; i < BR_SETTING_COUNT; i++) {
        cr_expect_str_eq(br_setting_key(want[i].f), want[i].key);
        cr_expect_str_eq(br_setting_option(want[i].f), want[i].option);
        cr_expect_eq(br_setting_kind_of(want[i].f), want[i].kind);
        br_setting f = BR_SETTING_COUNT;
        cr_expect_eq(br_setting_find_key(&f, want[i].key), 0);
        cr_expect_eq(f, want[i].f);
    }
    br_setting f = BR_SETTING_COUNT;
    cr_expect_eq(br_setting_find_key(&f, "min_sample"), -1);
    cr_expect_eq(br_setting_find_key(&f, NULL), -1);
    cr_expect_eq(f, BR_SETTING_COUNT, "untouched");
}

Test(settings, an_origin_keeps_the_shown_text_cut_to_fit) {
    char long_text[200];
    memset(long_text, 'x', sizeof long_text - 1);
    long_text[sizeof long_text - 1] = '\0';
    br_setting_origin o = key(5, 13, long_text);
    cr_expect_eq(o.source, BR_FROM_SUITE);
    cr_expect_eq(strlen(o.shown), BR_SETTING_SHOWN_MAX - 1);
    o = key(5, 13, NULL);
    cr_expect_str_eq(o.shown, "");
    o = br_setting_from_option("--min-time");
    cr_expect_eq(o.source, BR_FROM_OPTION);
    cr_expect_str_eq(o.option, "--min-time");
}

/* --- one field's range, worded by source --------------------------------- */

Test(settings, counts_from_the_suite) {
    br_measure_layer l;
    br_measure_layer_init(&l);
    br_setting_origin at = key(5, 16, NULL);
    EXPECT_ERROR(br_measure_layer_set_count(&l, BR_SETTING_MIN_SAMPLES, 0, &at),
                 "s.yaml:5:16: min_samples must be at least 1, found 0");
    EXPECT_ERROR(br_measure_layer_set_count(&l, BR_SETTING_MIN_SAMPLES, -3, &at),
                 "s.yaml:5:16: min_samples must be at least 1, found -3");
    EXPECT_ERROR(br_measure_layer_set_count(&l, BR_SETTING_MAX_SAMPLES, 0, &at),
                 "s.yaml:5:16: max_samples must be between 1 and 10000000, found 0");
    EXPECT_ERROR(br_measure_layer_set_count(&l, BR_SETTING_MAX_SAMPLES, 10000001, &at),
                 "s.yaml:5:16: max_samples must be between 1 and 10000000, found 10000001");
    cr_expect_eq(l.set, 0u, "a refused value leaves the layer as it was");
    cr_expect_eq(br_measure_layer_set_count(&l, BR_SETTING_MAX_SAMPLES, 10000000, &at), 0);
    /* The suite has no upper bound on min_samples (only max_samples'). */
    cr_expect_eq(br_measure_layer_set_count(&l, BR_SETTING_MIN_SAMPLES, 20000000, &at), 0);
    cr_expect_eq(l.value.cfg.min_samples, 20000000u);
    cr_expect_eq(l.value.cfg.max_samples, 10000000u);
}

Test(settings, counts_from_an_option_or_no_origin) {
    br_measure_layer l = {0};
    br_setting_origin opt = br_setting_from_option("--max-samples");
    EXPECT_ERROR(br_measure_layer_set_count(&l, BR_SETTING_MAX_SAMPLES, 0, &opt),
                 "--max-samples: expected a number from 1 to 10000000, found '0'");
    EXPECT_ERROR(br_measure_layer_set_count(&l, BR_SETTING_MIN_SAMPLES, -1, NULL),
                 "min_samples must be at least 1, found -1");
}

Test(settings, durations_per_source) {
    br_measure_layer l = {0};
    br_setting_origin t = key(5, 12, "0s"), w = key(6, 11, "0s");
    EXPECT_ERROR(br_measure_layer_set_time(&l, BR_SETTING_TIMEOUT, 0, &t),
                 "s.yaml:5:12: timeout must be longer than 0");
    EXPECT_ERROR(br_measure_layer_set_time(&l, BR_SETTING_WATCHDOG, 0, &w),
                 "s.yaml:6:11: watchdog must be longer than 0");
    br_setting_origin ot = br_setting_from_option("--timeout");
    br_setting_origin ow = br_setting_from_option("--watchdog");
    EXPECT_ERROR(br_measure_layer_set_time(&l, BR_SETTING_TIMEOUT, 0, &ot),
                 "--timeout: must be longer than 0");
    EXPECT_ERROR(br_measure_layer_set_time(&l, BR_SETTING_WATCHDOG, -1, &ow),
                 "--watchdog: must be longer than 0");
    /* min_time and warmup may be 0, not negative. */
    cr_expect_eq(br_measure_layer_set_time(&l, BR_SETTING_MIN_TIME, 0, &t), 0);
    cr_expect_eq(br_measure_layer_set_time(&l, BR_SETTING_WARMUP, 0, NULL), 0);
    EXPECT_ERROR(br_measure_layer_set_time(&l, BR_SETTING_WARMUP, -2e6, NULL),
                 "warmup cannot be negative, found -2ms");
    br_setting_origin om = br_setting_from_option("--min-time");
    EXPECT_ERROR(br_measure_layer_set_time(&l, BR_SETTING_MIN_TIME, -1e6, &om),
                 "--min-time: cannot be negative, found -1ms");
    cr_expect_eq(l.set, (1u << BR_SETTING_MIN_TIME) | (1u << BR_SETTING_WARMUP));
}

Test(settings, fractions_per_source) {
    br_measure_layer l = {0};
    br_setting_origin at = key(4, 22, "5");
    EXPECT_ERROR(br_measure_layer_set_fraction(&l, BR_SETTING_MAX_NOISE, 5, &at),
                 "s.yaml:4:22: max_noise must be a fraction between 0 and 1 or a percentage "
                 "such as 0.5%, found 5");
    br_setting_origin zero = key(4, 22, "0");
    EXPECT_ERROR(br_measure_layer_set_fraction(&l, BR_SETTING_MAX_NOISE, 0, &zero),
                 "s.yaml:4:22: max_noise must be a fraction between 0 and 1 or a percentage "
                 "such as 0.5%, found 0");
    br_setting_origin opt = br_setting_from_option("--throttle");
    EXPECT_ERROR(br_measure_layer_set_fraction(&l, BR_SETTING_THROTTLE, 1, &opt),
                 "--throttle: --throttle must be a fraction between 0 and 1 or a percentage "
                 "such as 0.5%, found 1");
    /* Throttle 0 is off; max_noise has no off. */
    cr_expect_eq(br_measure_layer_set_fraction(&l, BR_SETTING_THROTTLE, 0, &opt), 0);
    cr_expect_eq(br_measure_layer_set_fraction(&l, BR_SETTING_MAX_NOISE, 0.005, &at), 0);
    cr_expect_float_eq(l.value.cfg.max_noise, 0.005, 0);
    cr_expect_float_eq(l.value.cfg.throttle, 0, 0);
}

Test(settings, choices_and_kinds) {
    br_measure_layer l = {0};
    br_setting_origin at = key(5, 13, "both");
    EXPECT_ERROR(br_measure_layer_set_mode(&l, BR_SETTING_HEADLINE, BR_MODE_BOTH, &at),
                 "s.yaml:5:13: headline must be cold or batch");
    EXPECT_ERROR(br_measure_layer_set_mode(&l, BR_SETTING_MODE, (br_mode)7, NULL),
                 "mode must be cold, batch or both");
    br_setting_origin opt = br_setting_from_option("--cache");
    EXPECT_ERROR(br_measure_layer_set_cache(&l, (br_cache_policy)9, &opt),
                 "--cache: must be flush, warm or flush-memset");
    EXPECT_ERROR(br_measure_layer_set_flag(&l, BR_SETTING_HOLD, 2, NULL),
                 "hold must be true or false");
    /* A setter refuses a field of another kind. */
    cr_expect_eq(br_measure_layer_set_count(&l, BR_SETTING_TIMEOUT, 5, NULL), -1);
    cr_expect_eq(br_measure_layer_set_time(&l, BR_SETTING_MAX_SAMPLES, 5, NULL), -1);
    cr_expect_eq(br_measure_layer_set_fraction(&l, BR_SETTING_MIN_TIME, .5, NULL), -1);
    cr_expect_eq(br_measure_layer_set_flag(&l, BR_SETTING_MODE, 0, NULL), -1);
    cr_expect_eq(br_measure_layer_set_mode(&l, BR_SETTING_HOLD, BR_MODE_COLD, NULL), -1);
    cr_expect_eq(br_measure_layer_set_mode(&l, BR_SETTING_COUNT, BR_MODE_COLD, NULL), -1);
    cr_expect_eq(l.set, 0u);
    cr_expect_eq(br_measure_layer_set_cache(&l, BR_CACHE_FLUSH_MEMSET, &opt), 0);
    cr_expect_eq(br_measure_layer_set_flag(&l, BR_SETTING_HOLD, 0, NULL), 0);
    cr_expect_eq(l.value.cache, BR_CACHE_FLUSH_MEMSET);
    cr_expect_eq(l.value.cfg.hold, 0);
    cr_expect(br_measure_layer_has(&l, BR_SETTING_CACHE));
    cr_expect(!br_measure_layer_has(&l, BR_SETTING_MODE));
}

Test(settings, the_check_reads_every_range_too) {
    /* Settings filled directly (not through a setter) are checked as well,
     * worded by their origins. */
    br_measure_settings s;
    br_measure_origins o;
    stack(&s, &o, NULL, NULL);
    s.cfg.min_samples = 0;
    EXPECT_ERROR(br_measure_settings_check(&s, NULL), "min_samples must be at least 1, found 0");
    o.of[BR_SETTING_MIN_SAMPLES] = key(5, 16, NULL);
    EXPECT_ERROR(br_measure_settings_check(&s, &o),
                 "s.yaml:5:16: min_samples must be at least 1, found 0");
    stack(&s, &o, NULL, NULL);
    s.watchdog_ns = 0;
    o.of[BR_SETTING_WATCHDOG] = br_setting_from_option("--watchdog");
    EXPECT_ERROR(br_measure_settings_check(&s, &o), "--watchdog: must be longer than 0");
    stack(&s, &o, NULL, NULL);
    s.cfg.max_samples = BR_MAX_SAMPLES_LIMIT + 1;
    EXPECT_ERROR(br_measure_settings_check(&s, &o),
                 "max_samples must be between 1 and 10000000, found 10000001");
    stack(&s, &o, NULL, NULL);
    s.cfg.max_noise = 1;
    EXPECT_ERROR(br_measure_settings_check(&s, &o),
                 "max_noise must be a fraction between 0 and 1 or a percentage such as 0.5%, "
                 "found 1");
    stack(&s, &o, NULL, NULL);
    s.cfg.headline = BR_MODE_BOTH;
    s.cfg.mode = BR_MODE_BOTH;
    EXPECT_ERROR(br_measure_settings_check(&s, &o), "headline must be cold or batch");
    /* A field's range comes before the rules between fields. */
    stack(&s, &o, NULL, NULL);
    s.cfg.timeout_ns = 0;
    EXPECT_ERROR(br_measure_settings_check(&s, &o), "timeout must be longer than 0");
}

/* --- layering ------------------------------------------------------------- */

Test(settings, later_layers_win_and_unset_fields_stay) {
    br_measure_layer suite = {0}, cli = {0};
    br_setting_origin at = key(5, 13, "20ms"), opt = br_setting_from_option("--min-time");
    cr_assert_eq(br_measure_layer_set_time(&suite, BR_SETTING_MIN_TIME, 20e6, &at), 0);
    cr_assert_eq(br_measure_layer_set_count(&suite, BR_SETTING_MIN_SAMPLES, 9, &at), 0);
    cr_assert_eq(br_measure_layer_set_cache(&suite, BR_CACHE_WARM, &at), 0);
    cr_assert_eq(br_measure_layer_set_time(&cli, BR_SETTING_MIN_TIME, 1e6, &opt), 0);
    cr_assert_eq(br_measure_layer_set_time(&cli, BR_SETTING_MIN_TIME, 2e6, &opt), 0,
                 "an option given twice: the last one counts");
    br_measure_settings s;
    br_measure_origins o;
    stack(&s, &o, &suite, &cli);
    cr_expect_float_eq(s.cfg.min_time_ns, 2e6, 0);
    cr_expect_eq(o.of[BR_SETTING_MIN_TIME].source, BR_FROM_OPTION);
    cr_expect_str_eq(o.of[BR_SETTING_MIN_TIME].option, "--min-time");
    cr_expect_eq(s.cfg.min_samples, 9u);
    cr_expect_eq(o.of[BR_SETTING_MIN_SAMPLES].source, BR_FROM_SUITE);
    cr_expect_eq(o.of[BR_SETTING_MIN_SAMPLES].pos.line, 5);
    cr_expect_eq(s.cache, BR_CACHE_WARM);
    cr_expect_float_eq(s.cfg.timeout_ns, BR_DEFAULT_TIMEOUT_NS, 0);
    cr_expect_eq(o.of[BR_SETTING_TIMEOUT].source, BR_FROM_DEFAULT);
    cr_expect_float_eq(s.watchdog_ns, BR_DEFAULT_WATCHDOG_NS, 0);
    cr_expect_str_eq(o.path, "s.yaml");
    cr_expect_eq(br_measure_settings_check(&s, &o), 0, "%s", br_error_get());

    /* Applying without origins changes only the settings. */
    br_measure_settings t;
    br_measure_settings_defaults(&t);
    br_measure_settings_apply(&t, NULL, &cli);
    cr_expect_float_eq(t.cfg.min_time_ns, 2e6, 0);
}

/* The headline after a layer that sets `mode` (0: not) and `headline` (0:
 * not) over base settings of mode bm and headline bh. */
static br_mode headline_after(br_mode bm, br_mode bh, br_mode mode, br_mode headline) {
    br_measure_settings s;
    br_measure_settings_defaults(&s);
    s.cfg.mode = bm;
    s.cfg.headline = bh;
    br_measure_layer l = {0};
    if (mode)
        cr_assert_eq(br_measure_layer_set_mode(&l, BR_SETTING_MODE, mode, NULL), 0);
    if (headline)
        cr_assert_eq(br_measure_layer_set_mode(&l, BR_SETTING_HEADLINE, headline, NULL), 0);
    br_measure_settings_apply(&s, NULL, &l);
    cr_assert_eq(s.cfg.mode, mode ? mode : bm);
    return s.cfg.headline;
}

Test(settings, a_mode_without_a_headline_derives_the_headline) {
    const br_mode C = BR_MODE_COLD, B = BR_MODE_BATCH, X = BR_MODE_BOTH;
    /* Over the defaults: the suite's rule for a missing headline. */
    cr_expect_eq(headline_after(C, C, C, 0), C);
    cr_expect_eq(headline_after(C, C, B, 0), B);
    cr_expect_eq(headline_after(C, C, X, 0), C);
    /* A headline the new mode measures stays (the command line's rule). */
    cr_expect_eq(headline_after(X, B, X, 0), B);
    cr_expect_eq(headline_after(X, B, B, 0), B);
    cr_expect_eq(headline_after(B, B, X, 0), B);
    /* One it does not measure becomes the mode's own. */
    cr_expect_eq(headline_after(X, B, C, 0), C);
    cr_expect_eq(headline_after(B, B, C, 0), C);
    cr_expect_eq(headline_after(C, C, B, 0), B);
    /* A headline in the same layer wins, measured or not (the check says). */
    cr_expect_eq(headline_after(C, C, X, B), B);
    cr_expect_eq(headline_after(X, B, C, B), B);
    /* A headline alone changes only the headline. */
    cr_expect_eq(headline_after(X, C, 0, B), B);
    cr_expect_eq(headline_after(C, C, 0, B), B);
    /* No mode: the headline is not derived again. */
    cr_expect_eq(headline_after(X, B, 0, 0), B);
}

Test(settings, a_derived_headline_takes_the_modes_origin) {
    br_measure_layer suite = {0}, cli = {0};
    br_setting_origin m = key(5, 9, "both"), h = key(6, 13, "batch");
    cr_assert_eq(br_measure_layer_set_mode(&suite, BR_SETTING_MODE, BR_MODE_BOTH, &m), 0);
    cr_assert_eq(br_measure_layer_set_mode(&suite, BR_SETTING_HEADLINE, BR_MODE_BATCH, &h), 0);
    br_setting_origin opt = br_setting_from_option("--mode");
    cr_assert_eq(br_measure_layer_set_mode(&cli, BR_SETTING_MODE, BR_MODE_COLD, &opt), 0);
    br_measure_settings s;
    br_measure_origins o;
    stack(&s, &o, &suite, NULL);
    cr_expect_eq(s.cfg.headline, BR_MODE_BATCH);
    cr_expect_eq(o.of[BR_SETTING_HEADLINE].pos.line, 6);
    br_measure_settings_apply(&s, &o, &cli);
    cr_expect_eq(s.cfg.headline, BR_MODE_COLD);
    cr_expect_eq(o.of[BR_SETTING_HEADLINE].source, BR_FROM_OPTION);
    cr_expect_eq(br_measure_settings_check(&s, &o), 0, "%s", br_error_get());
}

/* --- the rules between fields: the suite's messages ---------------------- */

/* Check the suite layer l over the defaults. */
static int check_suite(const br_measure_layer *l) {
    br_measure_settings s;
    br_measure_origins o;
    stack(&s, &o, l, NULL);
    return br_measure_settings_check(&s, &o);
}

Test(settings, suite_headline_not_measured) {
    /* measure_headline_unmeasured.yaml: mode: cold (5:9), headline: batch (6:13). */
    br_measure_layer l = {0};
    br_setting_origin m = key(5, 9, "cold"), h = key(6, 13, "batch");
    cr_assert_eq(br_measure_layer_set_mode(&l, BR_SETTING_MODE, BR_MODE_COLD, &m), 0);
    cr_assert_eq(br_measure_layer_set_mode(&l, BR_SETTING_HEADLINE, BR_MODE_BATCH, &h), 0);
    EXPECT_ERROR(check_suite(&l), "s.yaml:6:13: headline 'batch' is not measured: mode is 'cold'");
    /* The default mode (cold) does not measure a headline batch either. */
    br_measure_layer_init(&l);
    cr_assert_eq(br_measure_layer_set_mode(&l, BR_SETTING_HEADLINE, BR_MODE_BATCH, &h), 0);
    EXPECT_ERROR(check_suite(&l), "s.yaml:6:13: headline 'batch' is not measured: mode is 'cold'");
}

Test(settings, suite_min_samples_above_max_samples) {
    /* measure_min_above_max.yaml: min_samples: 50 (5:16), max_samples: 20 (6:16). */
    br_measure_layer l = {0};
    br_setting_origin mn = key(5, 16, "50"), mx = key(6, 16, "20");
    cr_assert_eq(br_measure_layer_set_count(&l, BR_SETTING_MIN_SAMPLES, 50, &mn), 0);
    cr_assert_eq(br_measure_layer_set_count(&l, BR_SETTING_MAX_SAMPLES, 20, &mx), 0);
    EXPECT_ERROR(check_suite(&l), "s.yaml:5:16: min_samples (50) is larger than max_samples (20)");
    /* Only max_samples in the suite: the message stands at it. */
    br_measure_layer_init(&l);
    cr_assert_eq(br_measure_layer_set_count(&l, BR_SETTING_MAX_SAMPLES, 3, &mx), 0);
    EXPECT_ERROR(check_suite(&l), "s.yaml:6:16: min_samples (6) is larger than max_samples (3)");
}

Test(settings, suite_min_time_above_timeout_in_three_wordings) {
    /* min_time_over_timeout.yaml: min_time: 20s (5:13), timeout: 10s (6:12). */
    br_measure_layer l = {0};
    br_setting_origin mt = key(5, 13, "20s"), to = key(6, 12, "10s");
    cr_assert_eq(br_measure_layer_set_time(&l, BR_SETTING_MIN_TIME, 20e9, &mt), 0);
    cr_assert_eq(br_measure_layer_set_time(&l, BR_SETTING_TIMEOUT, 10e9, &to), 0);
    EXPECT_ERROR(check_suite(&l), "s.yaml:5:13: min_time 20s is longer than timeout 10s");
    /* min_time alone, over the default timeout. */
    br_measure_layer_init(&l);
    cr_assert_eq(br_measure_layer_set_time(&l, BR_SETTING_MIN_TIME, 20e9, &mt), 0);
    EXPECT_ERROR(check_suite(&l),
                 "s.yaml:5:13: min_time 20s is longer than the default timeout (3s)");
    /* timeout_under_default_min_time.yaml: timeout: 1ms (5:12) alone. */
    br_measure_layer_init(&l);
    br_setting_origin t5 = key(5, 12, "1ms");
    cr_assert_eq(br_measure_layer_set_time(&l, BR_SETTING_TIMEOUT, 1e6, &t5), 0);
    EXPECT_ERROR(check_suite(&l),
                 "s.yaml:5:12: timeout 1ms is shorter than the default min_time (2ms)");
    /* A suite origin without its text: the value is written. */
    br_measure_layer_init(&l);
    br_setting_origin bare = key(5, 12, NULL);
    cr_assert_eq(br_measure_layer_set_time(&l, BR_SETTING_TIMEOUT, 1e6, &bare), 0);
    EXPECT_ERROR(check_suite(&l),
                 "s.yaml:5:12: timeout 1ms is shorter than the default min_time (2ms)");
    /* Equal is fine. */
    br_measure_layer_init(&l);
    cr_assert_eq(br_measure_layer_set_time(&l, BR_SETTING_TIMEOUT, 2e6, &t5), 0);
    cr_expect_eq(check_suite(&l), 0, "%s", br_error_get());
}

Test(settings, suite_rules_in_the_loaders_order) {
    /* All three broken: headline first, then samples, then time. */
    br_measure_layer l = {0};
    br_setting_origin at = key(5, 3, NULL);
    cr_assert_eq(br_measure_layer_set_mode(&l, BR_SETTING_HEADLINE, BR_MODE_BATCH, &at), 0);
    cr_assert_eq(br_measure_layer_set_count(&l, BR_SETTING_MAX_SAMPLES, 3, &at), 0);
    cr_assert_eq(br_measure_layer_set_time(&l, BR_SETTING_TIMEOUT, 1e6, &at), 0);
    EXPECT_ERROR(check_suite(&l), "s.yaml:5:3: headline 'batch' is not measured: mode is 'cold'");
    cr_assert_eq(br_measure_layer_set_mode(&l, BR_SETTING_HEADLINE, BR_MODE_COLD, &at), 0);
    EXPECT_ERROR(check_suite(&l), "s.yaml:5:3: min_samples (6) is larger than max_samples (3)");
    cr_assert_eq(br_measure_layer_set_count(&l, BR_SETTING_MAX_SAMPLES, 30, &at), 0);
    EXPECT_ERROR(check_suite(&l),
                 "s.yaml:5:3: timeout 1ms is shorter than the default min_time (2ms)");
}

/* --- the rules between fields: the command line's messages --------------- */

Test(settings, option_rules_name_the_file_and_the_options) {
    br_measure_layer cli = {0};
    br_setting_origin h = br_setting_from_option("--headline");
    cr_assert_eq(br_measure_layer_set_mode(&cli, BR_SETTING_HEADLINE, BR_MODE_BATCH, &h), 0);
    br_measure_settings s;
    br_measure_origins o;
    stack(&s, &o, NULL, &cli);
    EXPECT_ERROR(br_measure_settings_check(&s, &o),
                 "s.yaml: headline 'batch' is not measured: mode is 'cold' (--headline, --mode)");

    br_measure_layer_init(&cli);
    br_setting_origin mt = br_setting_from_option("--min-time"),
                      to = br_setting_from_option("--timeout");
    cr_assert_eq(br_measure_layer_set_time(&cli, BR_SETTING_MIN_TIME, 20e6, &mt), 0);
    cr_assert_eq(br_measure_layer_set_time(&cli, BR_SETTING_TIMEOUT, 10e6, &to), 0);
    stack(&s, &o, NULL, &cli);
    EXPECT_ERROR(br_measure_settings_check(&s, &o),
                 "s.yaml: min_time (20 ms) is longer than timeout (10 ms) (--min-time, --timeout)");

    br_measure_layer_init(&cli);
    br_setting_origin mn = br_setting_from_option("--min-samples");
    cr_assert_eq(br_measure_layer_set_count(&cli, BR_SETTING_MIN_SAMPLES, 200000, &mn), 0);
    stack(&s, &o, NULL, &cli);
    EXPECT_ERROR(br_measure_settings_check(&s, &o),
                 "s.yaml: min_samples (200000) is larger than max_samples (100000) "
                 "(--min-samples, --max-samples)");
}

Test(settings, one_option_against_a_suite_value_takes_the_options_wording) {
    /* suite: min_time: 20ms, timeout: 30ms; command line: --timeout 10ms. */
    br_measure_layer suite = {0}, cli = {0};
    br_setting_origin mt = key(5, 13, "20ms"), to = key(6, 12, "30ms");
    cr_assert_eq(br_measure_layer_set_time(&suite, BR_SETTING_MIN_TIME, 20e6, &mt), 0);
    cr_assert_eq(br_measure_layer_set_time(&suite, BR_SETTING_TIMEOUT, 30e6, &to), 0);
    br_setting_origin opt = br_setting_from_option("--timeout");
    cr_assert_eq(br_measure_layer_set_time(&cli, BR_SETTING_TIMEOUT, 10e6, &opt), 0);
    br_measure_settings s;
    br_measure_origins o;
    stack(&s, &o, &suite, NULL);
    cr_assert_eq(br_measure_settings_check(&s, &o), 0, "the suite alone is fine");
    br_measure_settings_apply(&s, &o, &cli);
    EXPECT_ERROR(br_measure_settings_check(&s, &o),
                 "s.yaml: min_time (20 ms) is longer than timeout (10 ms) (--min-time, --timeout)");

    /* suite: mode: batch; command line: --headline cold. */
    br_measure_layer_init(&suite);
    br_measure_layer_init(&cli);
    br_setting_origin m = key(5, 9, "batch"), h = br_setting_from_option("--headline");
    cr_assert_eq(br_measure_layer_set_mode(&suite, BR_SETTING_MODE, BR_MODE_BATCH, &m), 0);
    cr_assert_eq(br_measure_layer_set_mode(&cli, BR_SETTING_HEADLINE, BR_MODE_COLD, &h), 0);
    stack(&s, &o, &suite, &cli);
    EXPECT_ERROR(br_measure_settings_check(&s, &o),
                 "s.yaml: headline 'cold' is not measured: mode is 'batch' (--headline, --mode)");

    /* suite: min_samples: 50; command line: --max-samples 20. */
    br_measure_layer_init(&suite);
    br_measure_layer_init(&cli);
    br_setting_origin mn = key(5, 16, "50"), mx = br_setting_from_option("--max-samples");
    cr_assert_eq(br_measure_layer_set_count(&suite, BR_SETTING_MIN_SAMPLES, 50, &mn), 0);
    cr_assert_eq(br_measure_layer_set_count(&cli, BR_SETTING_MAX_SAMPLES, 20, &mx), 0);
    stack(&s, &o, &suite, &cli);
    EXPECT_ERROR(br_measure_settings_check(&s, &o),
                 "s.yaml: min_samples (50) is larger than max_samples (20) "
                 "(--min-samples, --max-samples)");

    /* A command line that repairs the suite's headline through --mode. */
    br_measure_layer_init(&suite);
    br_measure_layer_init(&cli);
    br_setting_origin mb = key(5, 9, "both"), hb = key(6, 13, "batch");
    br_setting_origin om = br_setting_from_option("--mode");
    cr_assert_eq(br_measure_layer_set_mode(&suite, BR_SETTING_MODE, BR_MODE_BOTH, &mb), 0);
    cr_assert_eq(br_measure_layer_set_mode(&suite, BR_SETTING_HEADLINE, BR_MODE_BATCH, &hb), 0);
    cr_assert_eq(br_measure_layer_set_mode(&cli, BR_SETTING_MODE, BR_MODE_COLD, &om), 0);
    stack(&s, &o, &suite, &cli);
    cr_expect_eq(br_measure_settings_check(&s, &o), 0, "%s", br_error_get());
}

Test(settings, option_rules_in_the_overlays_order) {
    /* Headline first, then time, then samples (the suite's order has samples
     * before time). */
    br_measure_layer cli = {0};
    br_setting_origin opt = br_setting_from_option("--x");
    cr_assert_eq(br_measure_layer_set_mode(&cli, BR_SETTING_HEADLINE, BR_MODE_BATCH, &opt), 0);
    cr_assert_eq(br_measure_layer_set_count(&cli, BR_SETTING_MAX_SAMPLES, 3, &opt), 0);
    cr_assert_eq(br_measure_layer_set_time(&cli, BR_SETTING_TIMEOUT, 1e6, &opt), 0);
    br_measure_settings s;
    br_measure_origins o;
    stack(&s, &o, NULL, &cli);
    EXPECT_ERROR(br_measure_settings_check(&s, &o),
                 "s.yaml: headline 'batch' is not measured: mode is 'cold' (--headline, --mode)");
    cr_assert_eq(br_measure_layer_set_mode(&cli, BR_SETTING_HEADLINE, BR_MODE_COLD, &opt), 0);
    stack(&s, &o, NULL, &cli);
    EXPECT_ERROR(br_measure_settings_check(&s, &o),
                 "s.yaml: min_time (2 ms) is longer than timeout (1 ms) (--min-time, --timeout)");
    cr_assert_eq(br_measure_layer_set_time(&cli, BR_SETTING_TIMEOUT, 1e9, &opt), 0);
    stack(&s, &o, NULL, &cli);
    EXPECT_ERROR(br_measure_settings_check(&s, &o),
                 "s.yaml: min_samples (6) is larger than max_samples (3) "
                 "(--min-samples, --max-samples)");
}

Test(settings, a_rule_the_suite_breaks_alone_comes_before_an_options) {
    /* Before the settings were one module the suite failed to load before
     * any option was applied; checked once over both layers, the suite's
     * message still comes first. */
    br_measure_layer suite = {0}, cli = {0};
    br_setting_origin to = key(5, 12, "1ms"), opt = br_setting_from_option("--headline");
    cr_assert_eq(br_measure_layer_set_time(&suite, BR_SETTING_TIMEOUT, 1e6, &to), 0);
    cr_assert_eq(br_measure_layer_set_mode(&cli, BR_SETTING_HEADLINE, BR_MODE_BATCH, &opt), 0);
    br_measure_settings s;
    br_measure_origins o;
    stack(&s, &o, &suite, &cli);
    EXPECT_ERROR(br_measure_settings_check(&s, &o),
                 "s.yaml:5:12: timeout 1ms is shorter than the default min_time (2ms)");
}

Test(settings, rules_without_origins) {
    br_measure_settings s;
    br_measure_settings_defaults(&s);
    s.cfg.min_time_ns = 5e9;
    EXPECT_ERROR(br_measure_settings_check(&s, NULL),
                 "min_time (5000 ms) is longer than timeout (3000 ms)");
    br_measure_origins o;
    br_measure_origins_init(&o, "s.yaml");
    EXPECT_ERROR(br_measure_settings_check(&s, &o),
                 "s.yaml: min_time (5000 ms) is longer than timeout (3000 ms)");
    br_measure_settings_defaults(&s);
    s.cfg.headline = BR_MODE_BATCH;
    EXPECT_ERROR(br_measure_settings_check(&s, &o),
                 "s.yaml: headline 'batch' is not measured: mode is 'cold'");
}

/* --- the command line's option values ------------------------------------ */

/* Parse `text` for f into l; expect success. */
static void parse_ok(br_measure_layer *l, br_setting f, const char *text) {
    cr_assert_eq(br_measure_layer_parse(l, f, text, &parsers), 0, "%s %s: %s", br_setting_option(f),
                 text ? text : "(none)", br_error_get());
    cr_expect(br_measure_layer_has(l, f));
    cr_expect_eq(l->from[f].source, BR_FROM_OPTION);
    cr_expect_str_eq(l->from[f].option, br_setting_option(f));
}

Test(settings, option_values_parse_into_the_layer) {
    br_measure_layer l = {0};
    parse_ok(&l, BR_SETTING_MODE, "both");
    parse_ok(&l, BR_SETTING_HEADLINE, "batch");
    parse_ok(&l, BR_SETTING_CACHE, "flush-memset");
    parse_ok(&l, BR_SETTING_WARMUP, "0s");
    parse_ok(&l, BR_SETTING_MIN_TIME, "1.5ms");
    parse_ok(&l, BR_SETTING_TIMEOUT, "2s");
    parse_ok(&l, BR_SETTING_WATCHDOG, "90s");
    parse_ok(&l, BR_SETTING_MAX_NOISE, "0.5%");
    parse_ok(&l, BR_SETTING_THROTTLE, "80%");
    parse_ok(&l, BR_SETTING_MIN_SAMPLES, "12");
    parse_ok(&l, BR_SETTING_MAX_SAMPLES, "10000000");
    parse_ok(&l, BR_SETTING_HOLD, NULL);
    cr_expect_eq(l.set, (1u << BR_SETTING_COUNT) - 1);
    const br_measure_settings *v = &l.value;
    cr_expect_eq(v->cfg.mode, BR_MODE_BOTH);
    cr_expect_eq(v->cfg.headline, BR_MODE_BATCH);
    cr_expect_eq(v->cache, BR_CACHE_FLUSH_MEMSET);
    cr_expect_float_eq(v->warmup_ns, 0, 0);
    cr_expect_float_eq(v->cfg.min_time_ns, 1.5e6, 1e-9);
    cr_expect_float_eq(v->cfg.timeout_ns, 2e9, 0);
    cr_expect_float_eq(v->watchdog_ns, 90e9, 0);
    cr_expect_float_eq(v->cfg.max_noise, 0.005, 1e-15);
    cr_expect_float_eq(v->cfg.throttle, 0.8, 1e-15);
    cr_expect_eq(v->cfg.min_samples, 12u);
    cr_expect_eq(v->cfg.max_samples, 10000000u);
    cr_expect_eq(v->cfg.hold, 0);
    /* Throttle off: "0" and "0%". */
    parse_ok(&l, BR_SETTING_THROTTLE, "0");
    cr_expect_float_eq(l.value.cfg.throttle, 0, 0);
    l.value.cfg.throttle = 1;
    parse_ok(&l, BR_SETTING_THROTTLE, "0%");
    cr_expect_float_eq(l.value.cfg.throttle, 0, 0);
}

/* Parsing `text` for f fails with `message` and leaves the layer empty. */
static void parse_bad(br_setting f, const char *text, const char *message) {
    br_measure_layer l = {0};
    cr_expect_eq(br_measure_layer_parse(&l, f, text, &parsers), -1, "%s %s", br_setting_option(f),
                 text);
    cr_expect_str_eq(br_error_get(), message);
    cr_expect_eq(l.set, 0u);
}

Test(settings, option_values_give_the_command_lines_messages) {
    parse_bad(BR_SETTING_MODE, "bach",
              "--mode: unknown mode 'bach' (expected cold, batch or both) (did you mean "
              "'batch'?)");
    parse_bad(BR_SETTING_HEADLINE, "both",
              "--headline: unknown headline 'both' (expected cold or batch)");
    parse_bad(BR_SETTING_CACHE, "cold",
              "--cache: unknown cache policy 'cold' (expected flush, warm or flush-memset)");
    parse_bad(BR_SETTING_TIMEOUT, "5",
              "--timeout: expected a duration such as 25ms or 1.5s, found 5 (a unit is missing: "
              "ns, us, ms, s, m or h)");
    parse_bad(BR_SETTING_TIMEOUT, "0s", "--timeout: must be longer than 0");
    parse_bad(BR_SETTING_WATCHDOG, "0ms", "--watchdog: must be longer than 0");
    parse_bad(BR_SETTING_MAX_NOISE, "150%",
              "--max-noise: --max-noise must be between 0% and 100%, found 150%");
    parse_bad(BR_SETTING_MAX_NOISE, "0",
              "--max-noise: --max-noise must be a fraction between 0 and 1 or a percentage "
              "such as 0.5%, found 0");
    parse_bad(BR_SETTING_THROTTLE, "120%",
              "--throttle: --throttle must be between 0% and 100%, found 120%");
    static const char *const counts[] = {
        "0", "-3", "", "abc", "5x", "10000001", "99999999999999999999999"};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        char want[128];
        snprintf(want, sizeof want,
                 "--min-samples: expected a number from 1 to 10000000, found '%s'", counts[i]);
        parse_bad(BR_SETTING_MIN_SAMPLES, counts[i], want);
        snprintf(want, sizeof want,
                 "--max-samples: expected a number from 1 to 10000000, found '%s'", counts[i]);
        parse_bad(BR_SETTING_MAX_SAMPLES, counts[i], want);
    }
    br_measure_layer l = {0};
    cr_expect_eq(br_measure_layer_parse(&l, BR_SETTING_COUNT, "1", &parsers), -1);
}

Test(settings, off_is_zero_or_zero_percent) {
    cr_expect(br_setting_text_is_off("0"));
    cr_expect(br_setting_text_is_off("0%"));
    cr_expect(!br_setting_text_is_off("0.0"));
    cr_expect(!br_setting_text_is_off("00"));
    cr_expect(!br_setting_text_is_off(""));
    cr_expect(!br_setting_text_is_off(NULL));
}

Test(settings, a_command_line_over_a_suite_end_to_end) {
    /* suite: measure: {mode: both, headline: batch, min_time: 20ms};
     * command line: --mode batch --timeout 15ms. */
    br_measure_layer suite = {0}, cli = {0};
    br_setting_origin m = key(5, 9, "both"), h = key(6, 13, "batch"), mt = key(7, 13, "20ms");
    cr_assert_eq(br_measure_layer_set_mode(&suite, BR_SETTING_MODE, BR_MODE_BOTH, &m), 0);
    cr_assert_eq(br_measure_layer_set_mode(&suite, BR_SETTING_HEADLINE, BR_MODE_BATCH, &h), 0);
    cr_assert_eq(br_measure_layer_set_time(&suite, BR_SETTING_MIN_TIME, 20e6, &mt), 0);
    parse_ok(&cli, BR_SETTING_MODE, "batch");
    parse_ok(&cli, BR_SETTING_TIMEOUT, "15ms");
    br_measure_settings s;
    br_measure_origins o;
    stack(&s, &o, &suite, NULL);
    cr_assert_eq(br_measure_settings_check(&s, &o), 0, "%s", br_error_get());
    br_measure_settings_apply(&s, &o, &cli);
    cr_expect_eq(s.cfg.mode, BR_MODE_BATCH);
    cr_expect_eq(s.cfg.headline, BR_MODE_BATCH);
    EXPECT_ERROR(br_measure_settings_check(&s, &o),
                 "s.yaml: min_time (20 ms) is longer than timeout (15 ms) (--min-time, --timeout)");
}
