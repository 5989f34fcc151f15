/* SPDX-License-Identifier: Apache-2.0 */
/* test_drift.c - the gate's decision for one case (drift.h) on synthetic
 * timings with a known between-run drift: no false `slower` where the drift
 * explains the change, `slower` where it does not, the spread-unknown path,
 * the decision in cycles, the minimum detectable effect, and the
 * false-alarm rate of many simulated A/A comparisons against its bound. */
#include <criterion/criterion.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "gate/drift.h"
#include "gate/tdist.h"
#include "model/stats.h"
#include "model/suspect.h"

static const br_regression_cfg rules = {0.02, 0.01, 0};

/* The backend the judge_with below lends its pool to (GPU unless a test
 * says otherwise: each test is a process of its own). */
static br_backend backend = BR_BACKEND_GPU;

/* The spread of case with own run medians of variance s2 on d degrees of
 * freedom, combined with the assumed drift D (drift.h, "Power"). */
static double with_assumed(double D, double s2, double d) {
    return sqrt((BR_DRIFT_ASSUMED_DF * D * D + d * s2) / (BR_DRIFT_ASSUMED_DF + d));
}

/* n samples around `center` ns, +-rel in a fixed pattern (their median is
 * `center`), with SM clock mhz (NAN: none) and the given stop reason. */
static void timing(br_timing *t, double center, double rel, size_t n, double mhz, br_stop stop) {
    memset(t, 0, sizeof *t);
    t->present = 1;
    t->samples = calloc(n, sizeof *t->samples);
    cr_assert_not_null(t->samples);
    for (size_t i = 0; i < n; i++)
        t->samples[i] = center * (1.0 + rel * (double)((int)((i * 7) % 13) - 6) / 6.0);
    t->n_samples = n;
    cr_assert_eq(br_stats_compute(&t->stats, t->samples, n), 0, "%s", br_error_get());
    t->sm_mhz_median = mhz;
    t->stop = stop;
    t->clock = isnan(mhz) ? BR_CLOCK_MONOTONIC : BR_CLOCK_KERNEL;
}

/* Baseline run medians (ns), the last one being the timing's own. */
static void medians(br_timing *t, const double *m, size_t k) {
    t->run_medians = calloc(k, sizeof *t->run_medians);
    cr_assert_not_null(t->run_medians);
    memcpy(t->run_medians, m, k * sizeof *m);
    t->n_run_medians = k;
}

/* Judge current median `cur` (samples +-rel over 40, stopped on `stop`)
 * against a baseline of run medians m[0..k) (its samples around m[k-1],
 * +-1%) with `prior` (NULL: none). */
static br_compare_entry judge_with(const double *m, size_t k, double cur, double rel,
                                   double base_mhz, double cur_mhz, br_stop stop,
                                   const br_prior *prior) {
    br_timing bt, ct;
    timing(&bt, m[k - 1], 0.01, 40, base_mhz, BR_STOP_CI);
    medians(&bt, m, k);
    timing(&ct, cur, rel, 40, cur_mhz, stop);
    br_compare_entry e;
    memset(&e, 0, sizeof e);
    br_drift_pool pool;
    memset(&pool, 0, sizeof pool);
    pool.backend = backend;
    if (prior)
        pool.prior = *prior;
    cr_assert_eq(br_drift_judge(&e, &bt, &ct, &rules, &pool), 0, "%s", br_error_get());
    br_timing_dispose(&bt);
    br_timing_dispose(&ct);
    return e;
}

/* judge_with at +-1% and no prior. */
static br_compare_entry judge(const double *m, size_t k, double cur, double base_mhz,
                              double cur_mhz, br_stop stop) {
    return judge_with(m, k, cur, 0.01, base_mhz, cur_mhz, stop, NULL);
}

/* The geometric mean of m[0..k). */
static double gmean(const double *m, size_t k) {
    double s = 0;
    for (size_t i = 0; i < k; i++)
        s += log(m[i]);
    return exp(s / (double)k);
}

Test(drift, a_change_the_between_run_drift_explains_is_same) {
    /* A host kernel on a shared CPU: three saves 10% apart. */
    backend = BR_BACKEND_HOST;
    const double m[] = {1000, 1100, 950};
    double ref = gmean(m, 3);
    br_compare_entry e = judge(m, 3, ref * 1.15, NAN, NAN, BR_STOP_NOISE);
    cr_assert_eq(e.status, BR_CHANGE_SAME, "%s", br_change_name(e.status));
    cr_assert_str_eq(e.why, "within the between-run spread");
    cr_assert_str_eq(e.decided_by, "time");
    cr_assert_float_eq(e.change, 0.15, 1e-9);
    cr_assert_float_eq(e.base_median, ref, 1e-9);
    cr_assert_eq(e.spread_runs, 3);
    /* sd of ln(1000), ln(1100), ln(950): 0.0743949 on 2 df, with the host's
     * assumed 5% on BR_DRIFT_ASSUMED_DF */
    cr_assert_float_eq(e.spread, with_assumed(BR_DRIFT_ASSUMED_HOST, 0.0743949 * 0.0743949, 2),
                       1e-6);
    cr_assert_str_eq(e.spread_from, "assumed+runs");
    cr_assert_float_eq(e.spread_df, BR_DRIFT_ASSUMED_DF + 2, 1e-12);
    cr_assert_gt(e.p_runs, 0.01);
    cr_assert_lt(e.p_value, 1e-6, "the samples alone call it a change");
    cr_assert_gt(e.mde, 0.15, "same says how same: %g", e.mde);

    /* Far beyond the drift: slower. */
    e = judge(m, 3, ref * 3.0, NAN, NAN, BR_STOP_NOISE);
    cr_assert_eq(e.status, BR_CHANGE_SLOWER, "%s", br_change_name(e.status));
    cr_assert_null(e.why);
    cr_assert_lt(e.p_runs, 0.01);
    e = judge(m, 3, ref / 3.0, NAN, NAN, BR_STOP_NOISE);
    cr_assert_eq(e.status, BR_CHANGE_FASTER);
}

/* A prior fitted to 20 GPU cases saved three times with spread sd. */
static br_prior tight_prior(double sd) {
    double s2[20], d[20], c[20];
    for (int i = 0; i < 20; i++) {
        s2[i] = sd * sd * (0.5 + (double)(i % 4) / 3.0);
        d[i] = 2;
        c[i] = log(1000.0);
    }
    br_prior p;
    br_prior_fit(&p, s2, d, c, 20);
    cr_assert_eq(p.n, 20);
    return p;
}

Test(drift, a_tight_spread_catches_small_changes_above_the_threshold) {
    const double m[] = {1000, 1002, 999, 1001}; /* kernel clock at a large size */
    br_prior p = tight_prior(0.001);
    double ref = gmean(m, 4);
    br_compare_entry e = judge_with(m, 4, ref * 1.05, 0.01, 1980, 1980, BR_STOP_NOISE, &p);
    cr_assert_eq(e.status, BR_CHANGE_SLOWER);
    cr_assert_str_eq(e.spread_from, "moderated", "the suite's prior is sharper than assumed");
    cr_assert_str_eq(e.decided_by, "time", "equal clocks: time alone");
    cr_assert(isnan(e.cycles_change));
    /* 1.5% is significant against a 0.1% spread but under the threshold. */
    e = judge_with(m, 4, ref * 1.015, 0.01, 1980, 1980, BR_STOP_NOISE, &p);
    cr_assert_eq(e.status, BR_CHANGE_SAME);
    cr_assert_lt(e.p_runs, 0.01);
    cr_assert_null(e.why);
    cr_assert_float_eq(e.mde, 0.02, 1e-12, "the threshold binds: %g", e.mde);
}

Test(drift, the_mde_is_the_smallest_slowdown_called_slower) {
    const double m[] = {1000, 1040, 980};
    double ref = gmean(m, 3);
    br_compare_entry e = judge(m, 3, ref, NAN, NAN, BR_STOP_NOISE);
    double mde = e.mde;
    cr_assert_gt(mde, 0.02);
    /* The current samples keep their relative spread, so se (and the MDE)
     * stays the same whatever the current median. */
    e = judge(m, 3, ref * (1 + mde) * 1.001, NAN, NAN, BR_STOP_NOISE);
    cr_assert_eq(e.status, BR_CHANGE_SLOWER, "just above the MDE %g", mde);
    cr_assert_float_eq(e.mde, mde, 1e-9);
    e = judge(m, 3, ref * (1 + mde) * 0.999, NAN, NAN, BR_STOP_NOISE);
    cr_assert_eq(e.status, BR_CHANGE_SAME, "just below the MDE %g", mde);
}

Test(drift, a_second_save_adds_a_degree_of_freedom_and_never_deafens) {
    /* Issue 38: two run medians once put a case on t(1) (the 0.995 quantile
     * 63.7), and a 2x slowdown passed. Now the case's own spread joins the
     * assumed drift's 20 degrees of freedom. */
    const double one[] = {1000}, two[] = {1000, 1010};
    br_compare_entry e1 = judge(one, 1, 1000, NAN, NAN, BR_STOP_NOISE);
    br_compare_entry e = judge(two, 2, 1100, NAN, NAN, BR_STOP_NOISE);
    cr_assert_eq(e.spread_runs, 2);
    cr_assert_str_eq(e.spread_from, "assumed+runs");
    cr_assert_float_eq(e.spread_df, BR_DRIFT_ASSUMED_DF + 1, 1e-12);
    double l = log(1010.0 / 1000.0);
    cr_assert_float_eq(e.spread, with_assumed(BR_DRIFT_ASSUMED, l * l / 2, 1), 1e-9);
    cr_assert_leq(e.mde, e1.mde, "two saves %g, one %g", e.mde, e1.mde);
    cr_assert_eq(e.status, BR_CHANGE_SLOWER, "+10%% against 1.5%%: %s", br_change_name(e.status));
    e = judge(two, 2, 2000, NAN, NAN, BR_STOP_NOISE);
    cr_assert_eq(e.status, BR_CHANGE_SLOWER);
}

Test(drift, a_baseline_saved_once_assumes_a_documented_drift) {
    /* One run median, no prior: 1.5% drift per run plus each run's own
     * uncertainty, on t(BR_DRIFT_ASSUMED_DF) (drift.h, "assumed"). */
    const double one[] = {1000};
    br_compare_entry e = judge(one, 1, 2000, NAN, NAN, BR_STOP_CI);
    cr_assert_eq(e.status, BR_CHANGE_SLOWER, "a 2x slowdown of a converged case");
    cr_assert_str_eq(e.spread_from, "assumed");
    cr_assert_float_eq(e.spread, BR_DRIFT_ASSUMED, 1e-15);
    cr_assert_float_eq(e.spread_df, BR_DRIFT_ASSUMED_DF, 1e-12);
    cr_assert_eq(e.spread_runs, 1);
    /* The MDE is what the rule says: exp(z se) - 1 with se from both CIs. */
    br_timing t;
    timing(&t, 1000, 0.01, 40, NAN, BR_STOP_CI);
    double w = br_drift_median_se(&t);
    br_timing_dispose(&t);
    double se = sqrt(2 * BR_DRIFT_ASSUMED * BR_DRIFT_ASSUMED + 2 * w * w);
    cr_assert_float_eq(e.mde, expm1(br_tdist_quantile(0.995, BR_DRIFT_ASSUMED_DF) * se), 1e-9, "%g",
                       e.mde);
    cr_assert_lt(e.mde, 0.10, "a 10%% step is seen: %g", e.mde);
    /* Unchanged or within the assumed drift: same. */
    e = judge(one, 1, 1030, NAN, NAN, BR_STOP_CI);
    cr_assert_eq(e.status, BR_CHANGE_SAME, "%s", br_change_name(e.status));
    cr_assert_str_eq(e.why, "within the between-run spread");
    e = judge(one, 1, 1000, NAN, NAN, BR_STOP_CI);
    cr_assert_eq(e.status, BR_CHANGE_SAME);
    /* A timing without run medians reads as one. */
    br_timing bt, ct;
    timing(&bt, 1000, 0.01, 40, NAN, BR_STOP_CI);
    timing(&ct, 1500, 0.01, 40, NAN, BR_STOP_CI);
    br_compare_entry f;
    memset(&f, 0, sizeof f);
    cr_assert_eq(br_drift_judge(&f, &bt, &ct, &rules, NULL), 0);
    cr_assert_eq(f.status, BR_CHANGE_SLOWER);
    cr_assert_eq(f.spread_runs, 1);
    br_timing_dispose(&bt);
    br_timing_dispose(&ct);
}

Test(drift, a_2x_slowdown_of_a_converged_case_is_always_slower_with_one_save) {
    /* Whatever its noise, a converged case's CI is narrow (measure.h): a
     * 2x slowdown is beyond the MDE for CIs up to +-25%. The samples here
     * scatter by up to +-30% (stddev/mean under max_noise 10%... and more). */
    const double one[] = {1000};
    const br_stop converged[] = {BR_STOP_CI, BR_STOP_NOISE, BR_STOP_NONE};
    for (size_t i = 0; i < 3; i++)
        for (double rel = 0.001; rel <= 0.3; rel *= 2) {
            br_compare_entry e = judge_with(one, 1, 2000, rel, NAN, NAN, converged[i], NULL);
            cr_assert_eq(e.status, BR_CHANGE_SLOWER, "stop %s, +-%g: %s %s",
                         br_stop_name(converged[i]) ? br_stop_name(converged[i]) : "none", rel,
                         br_change_name(e.status), e.why ? e.why : "");
            cr_assert_lt(e.mde, 1.0);
        }
}

Test(drift, every_stop_reason_is_judged_and_only_a_flagged_one_says_n) {
    /* Every stop the stopping rule emits (measure.c, br_stopper_check). A
     * converged case is never "too noisy (N)"; a case that did not converge
     * says (N), the flag its row of the table shows (br_timing_converged). */
    const br_stop stops[] = {BR_STOP_NONE,    BR_STOP_CI,      BR_STOP_NOISE,
                             BR_STOP_PLATEAU, BR_STOP_TIMEOUT, BR_STOP_MAX_SAMPLES};
    const double one[] = {1000};
    for (size_t i = 0; i < sizeof stops / sizeof *stops; i++) {
        br_timing t = {.present = 1, .stop = stops[i]};
        int conv = br_timing_converged(&t);
        const char *name = br_stop_name(stops[i]) ? br_stop_name(stops[i]) : "none";
        /* Far beyond everything: slower, converged or not. */
        br_compare_entry e = judge_with(one, 1, 3000, 0.01, NAN, NAN, stops[i], NULL);
        cr_assert_eq(e.status, BR_CHANGE_SLOWER, "%s", name);
        /* +8% with this run's own samples scattered +-60%: its CI hides it. */
        e = judge_with(one, 1, 1080, 0.6, NAN, NAN, stops[i], NULL);
        cr_assert_eq(e.status, BR_CHANGE_UNKNOWN, "%s: %s", name, br_change_name(e.status));
        cr_assert_str_eq(e.why, conv ? "within the runs' own uncertainty" : "too noisy to tell (N)",
                         "%s", name);
        cr_assert_eq(!!strstr(e.why, "noisy"), !conv, "a converged case is never too noisy");
        cr_assert_eq(!!strstr(e.why, "(N)"), !conv, "%s", name);
    }
}

Test(drift, one_save_borrows_the_spread_of_the_suites_other_cases) {
    /* 20 cases saved three times with 0.4% between-run spread give the
     * prior; a case saved once gets s0 on d0' degrees of freedom. */
    double s2[20], d[20], c[20];
    for (int i = 0; i < 20; i++) {
        s2[i] = 0.004 * 0.004 * (0.5 + (double)(i % 4) / 3.0);
        d[i] = 2;
        c[i] = log(1000.0);
    }
    br_prior p;
    br_prior_fit(&p, s2, d, c, 20);
    cr_assert_eq(p.n, 20);
    const double one[] = {1000};
    br_compare_entry e = judge_with(one, 1, 1030, 0.001, NAN, NAN, BR_STOP_CI, &p);
    cr_assert_str_eq(e.spread_from, "pooled");
    cr_assert_float_eq(e.spread, sqrt(br_prior_s0sq(&p, log(1000.0))), 1e-12);
    cr_assert_float_eq(e.spread_df, br_prior_df(&p, log(1000.0)), 1e-9);
    cr_assert_eq(e.status, BR_CHANGE_SLOWER, "3%% against 0.4%%: %s", br_change_name(e.status));
    cr_assert_lt(e.mde, 0.025, "the threshold nearly binds: %g", e.mde);
    /* A case with three saves of its own is moderated toward the prior. */
    const double m[] = {1000, 1004, 997};
    e = judge_with(m, 3, 1030, 0.001, NAN, NAN, BR_STOP_CI, &p);
    cr_assert_str_eq(e.spread_from, "moderated");
    cr_assert_gt(e.spread_df, 2.0);
    cr_assert_eq(e.status, BR_CHANGE_SLOWER);
    br_compare_entry alone = judge_with(m, 3, 1030, 0.001, NAN, NAN, BR_STOP_CI, NULL);
    cr_assert_str_eq(alone.spread_from, "assumed+runs");
    cr_assert_float_eq(alone.spread_df, BR_DRIFT_ASSUMED_DF + 2, 1e-12);
    cr_assert_gt(alone.mde, e.mde, "alone %g, moderated %g", alone.mde, e.mde);
}

Test(drift, a_different_sm_clock_is_decided_in_cycles_too) {
    const double m[] = {1000, 1003, 999};
    double ref = gmean(m, 3);
    /* The clock fell 1980 -> 1755 MHz (-11.4%) and a compute-bound kernel
     * took 12% longer: the same number of cycles. */
    br_compare_entry e = judge(m, 3, ref * 1.12, 1980, 1755, BR_STOP_NOISE);
    cr_assert_float_eq(e.cycles_change, 1.12 * 1755.0 / 1980.0 - 1, 1e-9);
    cr_assert_eq(e.status, BR_CHANGE_SAME, "%s", br_change_name(e.status));
    cr_assert_str_eq(e.decided_by, "cycles");
    cr_assert_str_eq(e.why, "the SM clock explains the change (same in cycles)");
    cr_assert_float_eq(e.base_mhz, 1980, 1e-9);
    cr_assert_float_eq(e.cur_mhz, 1755, 1e-9);
    /* A memory-bound kernel: time unchanged, so fewer cycles: same, by time. */
    e = judge(m, 3, ref, 1980, 1755, BR_STOP_NOISE);
    cr_assert_eq(e.status, BR_CHANGE_SAME);
    cr_assert_str_eq(e.decided_by, "time");
    /* 40% longer at the lower clock: slower in both. */
    e = judge(m, 3, ref * 1.40, 1980, 1755, BR_STOP_NOISE);
    cr_assert_eq(e.status, BR_CHANGE_SLOWER);
    cr_assert_str_eq(e.decided_by, "time+cycles");
    /* The MDE in time grows by the clock ratio when cycles must agree. */
    double mde = judge(m, 3, ref * 1.40, 1980, 1980, BR_STOP_NOISE).mde;
    cr_assert_float_eq(e.mde, (1 + mde) * 1980.0 / 1755.0 - 1, 1e-9, "%g", e.mde);
    /* Slower in time, faster in cycles (the clock halved): unknown. */
    e = judge(m, 3, ref * 1.40, 1980, 990, BR_STOP_NOISE);
    cr_assert_eq(e.status, BR_CHANGE_UNKNOWN);
    cr_assert_str_eq(e.why, "time and cycles disagree");
    /* One save (an assumed spread): the same rules in cycles. */
    const double one[] = {1000};
    e = judge(one, 1, 1120, 1980, 1755, BR_STOP_NOISE);
    cr_assert_eq(e.status, BR_CHANGE_SAME);
    cr_assert_str_eq(e.decided_by, "cycles");
}

/* --- the false-alarm rate ---------------------------------------------------------- */

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static double uniform(void) { /* xorshift64*, (0, 1) */
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return ((double)((rng * 2685821657736338717ull) >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(void) { /* Box-Muller */
    return sqrt(-2.0 * log(uniform())) * cos(2.0 * M_PI * uniform());
}

/* One run of unchanged code: its level drifts by a lognormal factor of sd
 * `drift`, its n samples scatter by `noise` around that level. */
static void run_of(br_timing *t, double drift, double noise, size_t n) {
    memset(t, 0, sizeof *t);
    t->present = 1;
    t->samples = calloc(n, sizeof *t->samples);
    double level = 1000.0 * exp(drift * normal());
    for (size_t i = 0; i < n; i++)
        t->samples[i] = level * exp(noise * normal());
    t->n_samples = n;
    cr_assert_eq(br_stats_compute(&t->stats, t->samples, n), 0);
    t->sm_mhz_median = NAN;
    t->stop = BR_STOP_CI;
}

/* Simulate `trials` A/A comparisons of unchanged code with between-run
 * drift `drift` (k saves in the baseline) under rules r: the number of
 * false `slower` by the gate (*gate) and by the old rule, the U test and the
 * threshold alone (*old). */
static void simulate(size_t trials, size_t k, double drift, const br_regression_cfg *r,
                     size_t *gate, size_t *old) {
    *gate = *old = 0;
    for (size_t i = 0; i < trials; i++) {
        br_timing bt, ct;
        double m[8];
        for (size_t j = 0; j + 1 < k; j++) {
            run_of(&bt, drift, 0.01, 31);
            m[j] = bt.stats.median;
            br_timing_dispose(&bt);
        }
        run_of(&bt, drift, 0.01, 31);
        m[k - 1] = bt.stats.median;
        medians(&bt, m, k);
        run_of(&ct, drift, 0.01, 31);
        br_compare_entry e;
        memset(&e, 0, sizeof e);
        cr_assert_eq(br_drift_judge(&e, &bt, &ct, r, NULL), 0);
        *gate += e.status == BR_CHANGE_SLOWER;
        *old += e.p_value < r->alpha && ct.stats.median / bt.stats.median - 1 > r->threshold;
        br_timing_dispose(&bt);
        br_timing_dispose(&ct);
    }
}

Test(drift, the_false_alarm_rate_of_a_a_comparisons_is_at_most_alpha_over_2, .timeout = 120) {
    /* drift.h: P(false slower) <= alpha / 2 per case when unchanged code's
     * log run medians are independent and normal with the variance the
     * prior gives: here the GPU's assumed drift, 1.5% between runs, 0.3%
     * noise within one, three saves, alpha 0.05 (to count enough events):
     * the bound is 2.5% of 20000 = 500; the test fails above 500 + 3 sd.
     * The threshold is 0 so that it does not hide the rule's own rate. */
    const br_regression_cfg r = {0.0, 0.05, 0};
    size_t gate, old, trials = 20000;
    simulate(trials, 3, BR_DRIFT_ASSUMED, &r, &gate, &old);
    double bound = trials * r.alpha / 2;
    cr_log_info("A/A, drift 1.5%%, k = 3, alpha 0.05: gate %zu, U test %zu of %zu", gate, old,
                trials);
    cr_assert_leq(gate, bound + 3 * sqrt(bound), "%zu false slower, bound %g", gate, bound);
    /* Not a vacuous rule: threshold and w barely bind here, so the rate is
     * near its bound; and the samples alone cry wolf most of the time. */
    cr_assert_geq(gate, bound / 2, "%zu", gate);
    cr_assert_gt(old, 10 * gate, "old rule %zu vs gate %zu", old, gate);

    /* The default alpha 0.01 with eight saves. */
    const br_regression_cfg d = {0.0, 0.01, 0};
    simulate(trials, 8, BR_DRIFT_ASSUMED, &d, &gate, &old);
    bound = trials * d.alpha / 2;
    cr_log_info("A/A, drift 1.5%%, k = 8, alpha 0.01: gate %zu, U test %zu of %zu", gate, old,
                trials);
    cr_assert_leq(gate, bound + 3 * sqrt(bound), "%zu false slower, bound %g", gate, bound);
}

Test(drift, a_real_step_beyond_the_drift_is_caught) {
    /* Power: a 50% slowdown against 5% drift with three saves (MDE about
     * t(0.995, 2) * 5.8% = 58% on the log scale... so use eight saves). */
    const br_regression_cfg d = {0.02, 0.01, 0};
    size_t caught = 0, trials = 2000;
    for (size_t i = 0; i < trials; i++) {
        br_timing bt, ct;
        double m[8];
        for (size_t j = 0; j < 7; j++) {
            run_of(&bt, 0.05, 0.01, 31);
            m[j] = bt.stats.median;
            br_timing_dispose(&bt);
        }
        run_of(&bt, 0.05, 0.01, 31);
        m[7] = bt.stats.median;
        medians(&bt, m, 8);
        run_of(&ct, 0.05, 0.01, 31);
        for (size_t s = 0; s < ct.n_samples; s++)
            ct.samples[s] *= 1.5;
        cr_assert_eq(br_stats_compute(&ct.stats, ct.samples, ct.n_samples), 0);
        br_compare_entry e;
        memset(&e, 0, sizeof e);
        cr_assert_eq(br_drift_judge(&e, &bt, &ct, &d, NULL), 0);
        caught += e.status == BR_CHANGE_SLOWER;
        br_timing_dispose(&bt);
        br_timing_dispose(&ct);
    }
    cr_log_info("+50%% step, drift 5%%, k = 8: caught %zu of %zu", caught, trials);
    cr_assert_geq(caught, trials * 9 / 10, "%zu of %zu", caught, trials);
}

Test(drift, a_zero_median_cannot_be_judged) {
    const double m[] = {1000, 1010, 990};
    br_compare_entry e = judge(m, 3, 0.0, NAN, NAN, BR_STOP_NOISE);
    cr_assert_eq(e.status, BR_CHANGE_UNKNOWN);
    cr_assert_str_eq(e.why, "median is zero");
}

Test(drift, run_medians_equal_on_the_clock_s_tick_spread_by_the_tick_s_rounding) {
    /* Three saves of a 5.5 us copy on the H100's 32 ns kernel clock read
     * 5504 ns each time: the spread is under the tick, not 0. */
    br_timing bt;
    timing(&bt, 5504, 0.001, 40, NAN, BR_STOP_CI);
    const double m[] = {5504, 5504, 5504};
    medians(&bt, m, 3);
    double s2, d, c;
    br_drift_spread_of(&s2, &d, &c, &bt);
    cr_assert(s2 == 0 && d == 2, "without a tick: %g on %g", s2, d);
    bt.tick_ns = 32;
    br_drift_spread_of(&s2, &d, &c, &bt);
    cr_assert_float_eq(s2, (32.0 / 5504) * (32.0 / 5504) / 12, 1e-15, "(tick / median)^2 / 12");
    cr_assert_eq(d, 2);
    /* A measured spread above the tick's rounding is kept as it is. */
    const double wide[] = {5504, 5600, 5440};
    br_timing_dispose(&bt);
    timing(&bt, 5504, 0.001, 40, NAN, BR_STOP_CI);
    bt.tick_ns = 32;
    medians(&bt, wide, 3);
    br_drift_spread_of(&s2, &d, &c, &bt);
    double l[3], mean = 0, ss = 0;
    for (int i = 0; i < 3; i++)
        mean += (l[i] = log(wide[i])) / 3;
    for (int i = 0; i < 3; i++)
        ss += (l[i] - mean) * (l[i] - mean);
    cr_assert_float_eq(s2, ss / 2, 1e-15);
    br_timing_dispose(&bt);
}
