/* SPDX-License-Identifier: Apache-2.0 */
/* Disturbed host samples (disturb.c) on synthetic readings, and through the
 * measurement loop with a scripted host timer: a sample with an involuntary
 * context switch, or with the CPU far below the median frequency, is
 * discarded and counted, and never reaches the statistics. */
#include <criterion/criterion.h>
#include <math.h>

#include "base/error.h"
#include "platform/disturb.h"
#include "measure/measure.h"
#include "model/settings.h"

Test(disturb, a_context_switch_discards_the_sample) {
    br_disturb d;
    br_disturb_init(&d, 0.75);
    cr_expect_eq(br_disturb_check(&d, 1, NAN, 3000), BR_SAMPLE_SWITCHED);
    cr_expect_eq(br_disturb_check(&d, 5, NAN, NAN), BR_SAMPLE_SWITCHED);
    cr_expect_eq(d.n, 0, "a switched sample's frequency does not join the window");
    cr_expect_eq(br_disturb_check(&d, 1, 0.5, 3000), BR_SAMPLE_SWITCHED, "half the time off");
    cr_expect_eq(br_disturb_check(&d, 3, 0.002, 3000), BR_SAMPLE_CLEAN,
                 "a switch that cost 0.2% of the sample is not a disturbance");
    cr_expect_eq(br_disturb_check(&d, 0, NAN, 3000), BR_SAMPLE_CLEAN);
    cr_expect_eq(br_disturb_check(&d, -1, NAN, NAN), BR_SAMPLE_CLEAN, "unknown is not judged");
}

Test(disturb, a_frequency_far_below_the_median_is_slow) {
    br_disturb d;
    br_disturb_init(&d, 0.75);
    /* The first readings are never judged: no median yet. */
    for (int i = 0; i < BR_DISTURB_MIN_READINGS - 1; i++)
        cr_assert_eq(br_disturb_check(&d, 0, NAN, i == 3 ? 1000.0 : 3000.0), BR_SAMPLE_CLEAN, "%d",
                     i);
    cr_expect_eq(br_disturb_check(&d, 0, NAN, 3000), BR_SAMPLE_CLEAN);
    cr_expect_eq(br_disturb_check(&d, 0, NAN, 2000), BR_SAMPLE_SLOW, "2000 < 0.75 x 3000");
    cr_expect_float_eq(d.last_median, 3000.0, 1e-9);
    cr_expect_eq(br_disturb_check(&d, 0, NAN, 2300), BR_SAMPLE_CLEAN, "2300 >= 2250");
    cr_expect_eq(br_disturb_check(&d, 0, NAN, NAN), BR_SAMPLE_CLEAN, "no reading, nothing judged");
    /* The median follows the recent samples: after a window at 2000 MHz,
     * 2000 MHz is the norm. */
    for (int i = 0; i < BR_DISTURB_WINDOW; i++)
        br_disturb_check(&d, 0, NAN, 2000);
    cr_expect_eq(br_disturb_check(&d, 0, NAN, 2000), BR_SAMPLE_CLEAN);
    cr_expect_eq(br_disturb_check(&d, 0, NAN, 1400), BR_SAMPLE_SLOW);
}

Test(disturb, ratio_0_judges_no_frequency) {
    br_disturb d;
    br_disturb_init(&d, 0);
    for (int i = 0; i < 20; i++)
        cr_assert_eq(br_disturb_check(&d, 0, NAN, i % 2 ? 100.0 : 3000.0), BR_SAMPLE_CLEAN);
    cr_expect_eq(br_disturb_check(&d, 2, NAN, 3000), BR_SAMPLE_SWITCHED, "switches still count");
}

/* ---- through the measurement loop ------------------------------------------------- */

typedef struct script {
    size_t calls;
    double clock;
} script;

static script *cur;

static double script_now(void) {
    return cur->clock;
}

/* Sample i lasts 1000 ns, except that every 5th (i % 5 == 4) was switched
 * out and lasted 50000 ns, and from the 20th on (once the median is known)
 * every 7th (i % 7 == 6) ran at 1500 MHz and lasted 2000 ns; the others ran
 * at 3000 MHz. */
static int script_sample(void *st, const br_sample_opts *o, br_exec_fn run, void *ctx,
                         br_sample *out) {
    script *s = st;
    size_t i = s->calls++;
    (void)o;
    if (run(ctx) != 0)
        return -1;
    out->ns = 1000;
    out->cpu_mhz = 3000;
    out->ctx_switches = 0;
    out->offcpu = 0;
    if (i % 5 == 4) {
        out->ns = 50000;
        out->ctx_switches = 1;
        out->offcpu = 0.98;
    } else if (i >= 20 && i % 7 == 6) {
        out->ns = 2000;
        out->cpu_mhz = 1500;
    }
    s->clock += out->ns + 100;
    return 0;
}

static int exec_nothing(void *ctx) {
    (void)ctx;
    return 0;
}

static const br_timer_ops script_ops = {.name = "script", .sample = script_sample};

Test(disturb, the_loop_discards_and_counts_disturbed_host_samples) {
    script s = {0};
    cur = &s;
    br_measure_params p = {0};
    br_measure_cfg_defaults(&p.cfg);
    p.cfg.min_samples = 200;
    p.cfg.max_samples = 200;
    p.cfg.min_time_ns = 0;
    p.cfg.timeout_ns = 1e12;
    p.warmup_ns = 0;
    p.now = script_now;
    p.clock = BR_CLOCK_MONOTONIC;
    br_timing t;
    cr_assert_eq(br_measure(&t, &script_ops, &s, &p, exec_nothing, NULL), 0, "%s", br_error_get());
    cr_assert_eq(t.n_samples, 200);
    cr_expect_gt(t.n_switched, 0);
    cr_expect_gt(t.n_slow, 0);
    cr_expect_eq(t.n_samples + t.n_switched + t.n_slow, s.calls, "every sample is accounted for");
    for (size_t i = 0; i < t.n_samples; i++) {
        cr_assert_eq(t.samples[i], 1000.0, "sample %zu: a disturbed sample was kept", i);
        cr_assert_eq(t.cpu_mhz[i], 3000.0);
        cr_assert_eq(t.switches[i], 0.0);
    }
    cr_expect_float_eq(t.cpu_mhz_median, 3000.0, 1e-9);
    cr_expect_float_eq(t.slow_min_mhz, 1500.0, 1e-9);
    br_timing_dispose(&t);

    /* throttle 0: the frequency is not judged; switches still are. */
    script s2 = {0};
    cur = &s2;
    p.cfg.throttle = 0;
    cr_assert_eq(br_measure(&t, &script_ops, &s2, &p, exec_nothing, NULL), 0);
    cr_expect_eq(t.n_slow, 0);
    cr_expect_gt(t.n_switched, 0);
    br_timing_dispose(&t);
}

/* Every sample switched out for half its time: the samples are what there
 * is, kept all the same and said so. */
static int busy_sample(void *st, const br_sample_opts *o, br_exec_fn run, void *ctx,
                       br_sample *out) {
    script *s = st;
    (void)o;
    s->calls++;
    if (run(ctx) != 0)
        return -1;
    out->ns = 2000;
    out->ctx_switches = 2;
    out->offcpu = 0.5;
    out->cpu_mhz = 3000;
    s->clock += out->ns;
    return 0;
}

static const br_timer_ops busy_ops = {.name = "busy", .sample = busy_sample};

Test(disturb, every_sample_disturbed_keeps_them_and_says_so) {
    script s = {0};
    cur = &s;
    br_measure_params p = {0};
    br_measure_cfg_defaults(&p.cfg);
    p.cfg.timeout_ns = 1e6; /* 500 samples of 2 us */
    p.warmup_ns = 0;
    p.now = script_now;
    p.clock = BR_CLOCK_MONOTONIC;
    br_timing t;
    cr_assert_eq(br_measure(&t, &busy_ops, &s, &p, exec_nothing, NULL), 0, "%s", br_error_get());
    cr_expect_eq(t.disturbed_kept, 1);
    cr_expect_eq(t.n_samples, s.calls);
    cr_expect_eq(t.n_switched, s.calls);
    cr_expect_eq(t.stop, BR_STOP_TIMEOUT);
    cr_expect_eq(t.samples[0], 2000.0);
    br_timing_dispose(&t);
}
