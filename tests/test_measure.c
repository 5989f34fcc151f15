/* The measurement loop on a scripted timer: warmup, stopping rules, flushes. */
#include <criterion/criterion.h>

#include "error.h"
#include "measure.h"
#include "util.h"

typedef struct fake {
    double sample_ns; /* what each timed execution reports */
    double spin_ns;   /* wall time each execution really takes */
    int flushes, runs, fail_at;
    int last_was_flush; /* 1 when the last event was a flush */
    int unflushed_runs; /* executions not preceded by a flush */
} fake;

static int fake_flush(void *st) {
    fake *f = st;
    f->flushes++;
    f->last_was_flush = 1;
    return 0;
}

static int fake_time(void *st, br_exec_fn run, void *ctx, double *out_ns) {
    fake *f = st;
    if (!f->last_was_flush)
        f->unflushed_runs++;
    f->last_was_flush = 0;
    if (run(ctx) != 0)
        return -1;
    double t0 = br_now_ns();
    while (br_now_ns() - t0 < f->spin_ns) {
    }
    *out_ns = f->sample_ns;
    return 0;
}

static int exec_count(void *ctx) {
    fake *f = ctx;
    f->runs++;
    if (f->fail_at && f->runs == f->fail_at)
        return br_error_set("execution %d failed", f->runs);
    return 0;
}

static const br_timer_ops fake_ops = {.name = "fake", .flush = fake_flush, .time = fake_time};

Test(measure, stops_when_min_samples_and_min_time_hold) {
    fake f = {.sample_ns = 1000};
    br_measure_cfg cfg = {.min_samples = 10, .min_time_ns = 50000, .timeout_ns = 10e9};
    br_measurement m;
    cr_assert_eq(br_measure(&m, &fake_ops, &f, &cfg, 0, 0, exec_count, &f), 0);
    /* 1000 ns samples: 50 are needed for 50 us, more than min_samples. */
    cr_assert_eq(m.n_samples, 50);
    cr_assert_str_eq(m.stop_reason, "min_time");
    cr_assert_eq(m.warmup_runs, 0);
    cr_assert_eq(f.runs, 50);
    br_measurement_dispose(&m);

    fake g = {.sample_ns = 1e6};
    cr_assert_eq(br_measure(&m, &fake_ops, &g, &cfg, 0, 0, exec_count, &g), 0);
    cr_assert_eq(m.n_samples, 10, "min_samples binds when samples are long");
    for (size_t i = 0; i < m.n_samples; i++)
        cr_assert_eq(m.samples[i], 1e6);
    br_measurement_dispose(&m);
}

Test(measure, stops_on_timeout) {
    fake f = {.sample_ns = 1000, .spin_ns = 100e3};
    br_measure_cfg cfg = {.min_samples = 1000000, .min_time_ns = 1e12, .timeout_ns = 5e6};
    br_measurement m;
    cr_assert_eq(br_measure(&m, &fake_ops, &f, &cfg, 0, 0, exec_count, &f), 0);
    cr_assert_str_eq(m.stop_reason, "timeout");
    cr_assert_geq(m.measure_ns, 5e6);
    cr_assert_lt(m.n_samples, 1000, "stopped early: %zu samples", m.n_samples);
    br_measurement_dispose(&m);
}

Test(measure, warmup_runs_for_its_budget_and_is_not_sampled) {
    fake f = {.sample_ns = 7, .spin_ns = 50e3};
    br_measure_cfg cfg = {.min_samples = 3, .min_time_ns = 0, .timeout_ns = 1e9};
    br_measurement m;
    cr_assert_eq(br_measure(&m, &fake_ops, &f, &cfg, 2e6, 0, exec_count, &f), 0);
    cr_assert_geq(m.warmup_ns, 2e6);
    cr_assert_gt(m.warmup_runs, 1);
    cr_assert_eq(m.n_samples, 3);
    cr_assert_eq((size_t)f.runs, m.warmup_runs + m.n_samples);
    br_measurement_dispose(&m);
}

Test(measure, flush_precedes_every_execution_only_when_asked) {
    fake f = {.sample_ns = 1000};
    br_measure_cfg cfg = {.min_samples = 20, .min_time_ns = 0, .timeout_ns = 1e9};
    br_measurement m;
    cr_assert_eq(br_measure(&m, &fake_ops, &f, &cfg, 1e5, 1, exec_count, &f), 0);
    cr_assert_eq(f.unflushed_runs, 0);
    cr_assert_eq(f.flushes, f.runs);
    br_measurement_dispose(&m);

    fake g = {.sample_ns = 1000};
    cr_assert_eq(br_measure(&m, &fake_ops, &g, &cfg, 0, 0, exec_count, &g), 0);
    cr_assert_eq(g.flushes, 0);
    br_measurement_dispose(&m);
}

Test(measure, a_failing_execution_fails_the_measurement) {
    fake f = {.sample_ns = 1000, .fail_at = 4};
    br_measure_cfg cfg = {.min_samples = 10, .min_time_ns = 0, .timeout_ns = 1e9};
    br_measurement m;
    cr_assert_eq(br_measure(&m, &fake_ops, &f, &cfg, 0, 0, exec_count, &f), -1);
    cr_assert_str_eq(br_error_get(), "execution 4 failed");
    cr_assert_null(m.samples);
}
