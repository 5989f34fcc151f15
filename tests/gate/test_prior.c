/* SPDX-License-Identifier: Apache-2.0 */
/* test_prior.c - the empirical-Bayes prior of the between-run variances
 * (prior.h): the fit recovers a known prior and a trend, and, by simulation
 * with known truth, the pooled gate (compare.c: the suite's prior, then
 * drift.h's decision per case at the level family.h spreads alpha to, on
 * timings made of samples) keeps its false-alarm bounds with three saves,
 * per case and per run, heavy-tailed cases included, and catches a 3% step
 * on cases that spread by 0.5%. The figures it logs are
 * the ones docs/baselines.md quotes. */
#include <criterion/criterion.h>
#include <criterion/logging.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "changepoint_series.h"
#include "gate/drift.h"
#include "family_sim.h"
#include "gate/family.h"
#include "gate/prior.h"
#include "gate/tdist.h"
#include "model/stats.h"

/* The tests' seeded generator (changepoint_series.h), one stream. */
static series_rng rng = {0x2545F4914F6CDD1Dull};

static double uniform(void) { /* (0, 1) */
    return ((double)(series_next(&rng) >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(void) {
    return series_normal(&rng);
}

static double chi2(int df) {
    double s = 0;
    for (int i = 0; i < df; i++) {
        double z = normal();
        s += z * z;
    }
    return s;
}

/* --- the fit ------------------------------------------------------------------------ */

Test(prior, the_fit_recovers_a_known_prior) {
    /* 4000 cases from the model: 1/sigma^2 ~ chi2(8) / (8 s0^2), s0 = 1%,
     * and s^2 ~ sigma^2 chi2(2) / 2. */
    enum { N = 4000 };
    static double s2[N], d[N], c[N];
    for (int i = 0; i < N; i++) {
        double sigma2 = 8 * 1e-4 / chi2(8);
        s2[i] = sigma2 * chi2(2) / 2;
        d[i] = 2;
        c[i] = 0;
    }
    br_prior p;
    br_prior_fit(&p, s2, d, c, N);
    cr_assert_eq(p.n, N);
    cr_assert_eq(p.degree, 0, "no trend in a constant covariate");
    cr_log_info("d0 %.2f (8), s0 %.5f (0.01)", p.d0, sqrt(br_prior_s0sq(&p, 0)));
    cr_assert(p.d0 > 6 && p.d0 < 11, "d0 %g", p.d0);
    cr_assert_float_eq(sqrt(br_prior_s0sq(&p, 0)), 0.01, 0.0008);
    /* A case alone moves toward s0^2 by d0 / (d0 + d). */
    double var, df;
    br_prior_moderate(&var, &df, &p, 4e-4, 2, 0);
    double d0 = br_prior_df(&p, 0);
    cr_assert_float_eq(var, (d0 * br_prior_s0sq(&p, 0) + 2 * 4e-4) / (d0 + 2), 1e-15);
    cr_assert_float_eq(df, d0 + 2, 1e-12);
    cr_assert_leq(d0, p.d0, "the prior's own estimate costs degrees of freedom");
}

Test(prior, equal_variances_give_an_infinite_d0_and_a_pooled_variance) {
    enum { N = 400 };
    static double s2[N], d[N], c[N];
    for (int i = 0; i < N; i++) {
        s2[i] = 0.005 * 0.005 * chi2(2) / 2;
        d[i] = 2;
        c[i] = log(1e4);
    }
    br_prior p;
    br_prior_fit(&p, s2, d, c, N);
    cr_assert(isinf(p.d0) || p.d0 > 100, "d0 %g", p.d0);
    cr_assert_float_eq(sqrt(br_prior_s0sq(&p, log(1e4))), 0.005, 0.0004);
    /* Its degrees of freedom are those of the pooled variance: sum d. */
    if (isinf(p.d0))
        cr_assert_float_eq(br_prior_df(&p, log(1e4)), 2.0 * N, 1e-6);
}

Test(prior, a_spread_that_falls_with_duration_is_a_trend) {
    /* Spread 5% at 10 us falling to 0.1% at 2.5 ms, log-linearly. */
    enum { N = 36 };
    double s2[N], d[N], c[N];
    for (int i = 0; i < N; i++) {
        double j = (double)(i % 9);
        double sigma = 0.05 * pow(0.02, j / 8.0);
        s2[i] = sigma * sigma * chi2(2) / 2;
        d[i] = 2;
        c[i] = log(1e4 * pow(2, j));
    }
    br_prior p;
    br_prior_fit(&p, s2, d, c, N);
    cr_assert_geq(p.degree, 1, "a trend is found");
    double lo = sqrt(br_prior_s0sq(&p, c[8])), hi = sqrt(br_prior_s0sq(&p, c[0]));
    cr_log_info("s0 at 10 us %.4f (0.05), at 2.5 ms %.5f (0.001)", hi, lo);
    cr_assert(hi > 0.025 && hi < 0.1, "%g", hi);
    cr_assert(lo > 0.0005 && lo < 0.002, "%g", lo);
    /* Outside the fitted range the trend is held at its ends. */
    cr_assert_float_eq(br_prior_s0sq(&p, c[8] + 5), br_prior_s0sq(&p, c[8]), 1e-18);
}

Test(prior, too_few_cases_give_no_prior) {
    double s2[] = {1e-4, 2e-4, NAN, 1e-4}, d[] = {2, 2, 2, 0}, c[] = {0, 0, 0, 0};
    br_prior p;
    br_prior_fit(&p, s2, d, c, 4);
    cr_assert_eq(p.n, 0, "two usable cases");
    cr_assert(isnan(br_prior_s0sq(&p, 0)));
    double var, df;
    br_prior_moderate(&var, &df, &p, 1e-4, 2, 0);
    cr_assert_float_eq(var, 1e-4, 1e-18, "the case alone");
    cr_assert_float_eq(df, 2, 0);
    br_prior_moderate(&var, &df, &p, NAN, 0, 0);
    cr_assert(isnan(var) && df == 0);
    /* Zero variances (a coarse clock) are floored, not -inf. */
    double z[] = {0, 0, 1e-4, 2e-4}, dz[] = {2, 2, 2, 2};
    br_prior_fit(&p, z, dz, c, 4);
    cr_assert_eq(p.n, 4);
    cr_assert(isfinite(br_prior_s0sq(&p, 0)) && br_prior_s0sq(&p, 0) > 0);
}

/* --- the pooled gate, simulated ------------------------------------------------------- */

/* A suite of 4 kernels x 9 sizes, as the H100 copy suite of issue 27. */
#define KERNELS 4
#define SIZES   9
#define CASES   (KERNELS * SIZES)
#define K       3  /* saves in the baseline */
#define NS      31 /* samples per run (31 + 31 > 50: the U test's normal approximation) */

/* One case's truth. */
typedef struct truth {
    double time;    /* median time, ns */
    double drift;   /* between-run drift of the level: sd of its log */
    double noise;   /* within-run scatter of the samples: sd of their log */
    int heavy_runs; /* the level moves by Student's t with 5 degrees of freedom */
    int heavy_samp; /* 5% of the samples are outliers 1.5-10x the level (a host kernel) */
    double tick;    /* the clock's tick, ns: every sample a multiple of |tick| (0: none); the
                       timing says it (tick_ns) when positive */
} truth;

/* A unit-variance draw of the level's move. */
static double move(const truth *t) {
    return t->heavy_runs ? normal() / sqrt(chi2(5) / 5) / sqrt(5.0 / 3.0) : normal();
}

/* One run of case t at level exp(move) x time x (1 + step): its samples into
 * s[NS] (returned through *tm with its stats when tm is not NULL), its
 * median returned. */
static double run_of(const truth *t, double step, br_timing *tm) {
    double level = t->time * (1.0 + step) * exp(t->drift * move(t)), s[NS];
    for (int i = 0; i < NS; i++) {
        s[i] = level * exp(t->noise * normal());
        if (t->tick != 0) /* read on the clock's grid, as the kernel clock's 32 ns */
            s[i] = fabs(t->tick) * fmax(1.0, round(s[i] / fabs(t->tick)));
        if (t->heavy_samp && uniform() < 0.05)
            s[i] *= 1.5 / pow(uniform(), 0.6); /* Pareto tail */
    }
    if (!tm)
        return br_stats_finite_median(s, NS);
    sim_timing(tm, s, NS);
    tm->tick_ns = t->tick > 0 ? t->tick : 0;
    return tm->stats.median;
}

/* The outcome of many simulated suites. */
typedef struct tally {
    size_t slower[CASES];
    size_t runs_slower; /* suites with at least one case slower */
    size_t per_case;    /* slower when each case is judged at alpha itself (no family.h) */
    size_t runs_per_case;
    size_t alone; /* slower when each case is judged on its own run medians (no prior) */
    size_t suites;
} tally;

/* family_sim.h's judge_case, noting each case's status at the suite's
 * alpha (br_family_judge's first pass; its second is at a lower level). */
typedef struct noting {
    suite_cases sc;
    br_change *at_alpha;
    double alpha;
} noting;

static int judge_noting(size_t i, const br_regression_cfg *rules, void *ctx) {
    noting *n = ctx;
    int rc = judge_case(i, rules, &n->sc);
    if (rules->alpha == n->alpha)
        n->at_alpha[i] = n->sc.e[i].status;
    return rc;
}

/* Judge every case i of a suite (bt[i] against ct[i], what the cases lend
 * in p) as compare.c does (br_family_judge): the statuses at rules->alpha
 * (each case alone: the rule without family.h) into at_alpha, the gate's
 * into st. */
static void judge_suite(br_change *st, br_change *at_alpha, const br_timing *bt,
                        const br_timing *ct, const br_regression_cfg *rules,
                        const br_drift_pool *p) {
    br_compare_entry e[CASES] = {{0}}; /* judge_noting fills them */
    noting n = {{bt, ct, p, e}, at_alpha, rules->alpha};
    double level;
    cr_assert_eq(br_family_judge(&level, NULL, e, CASES, rules, judge_noting, &n), 0, "%s",
                 br_error_get());
    cr_assert(level > 0 && level <= rules->alpha);
    for (int i = 0; i < CASES; i++)
        st[i] = e[i].status;
}

/* One suite: K saves of every case, the prior fitted as compare.c fits it
 * (br_drift_spread_of, br_prior_fit), then one run with every case slowed by
 * `step` judged as compare.c judges it (judge_suite); counts the slower
 * ones, and those each case alone (no prior) and at alpha (no family)
 * would call slower. */
static void one_suite(tally *out, const truth *t, double step, const br_regression_cfg *rules) {
    static br_timing bt[CASES], ct[CASES];
    double s2[CASES], d[CASES], c[CASES];
    for (int i = 0; i < CASES; i++) {
        double m[K];
        for (int j = 0; j + 1 < K; j++)
            m[j] = run_of(&t[i], 0, NULL);
        m[K - 1] = run_of(&t[i], 0, &bt[i]);
        bt[i].run_medians = malloc(sizeof m);
        cr_assert_not_null(bt[i].run_medians);
        memcpy(bt[i].run_medians, m, sizeof m);
        bt[i].n_run_medians = K;
        br_drift_spread_of(&s2[i], &d[i], &c[i], &bt[i]);
    }
    br_drift_pool p;
    memset(&p, 0, sizeof p);
    p.backend = BR_BACKEND_GPU;
    p.choice_alpha = rules->alpha; /* as compare.c chooses: one choice for every pass */
    br_prior_fit(&p.prior, s2, d, c, CASES);
    for (int i = 0; i < CASES; i++)
        run_of(&t[i], step, &ct[i]);
    br_change st[CASES], at_alpha[CASES];
    judge_suite(st, at_alpha, bt, ct, rules, &p);
    size_t any = 0, any_per_case = 0;
    for (int i = 0; i < CASES; i++) {
        out->slower[i] += st[i] == BR_CHANGE_SLOWER;
        any += st[i] == BR_CHANGE_SLOWER;
        out->per_case += at_alpha[i] == BR_CHANGE_SLOWER;
        any_per_case += at_alpha[i] == BR_CHANGE_SLOWER;
        br_compare_entry e;
        memset(&e, 0, sizeof e);
        cr_assert_eq(br_drift_judge(&e, &bt[i], &ct[i], rules, NULL), 0, "%s", br_error_get());
        out->alone += e.status == BR_CHANGE_SLOWER;
        br_timing_dispose(&ct[i]);
        br_timing_dispose(&bt[i]);
    }
    out->runs_slower += any > 0;
    out->runs_per_case += any_per_case > 0;
    out->suites++;
}

/* The suite's truth: 4 kernels (1, 1.3, 1.6 and 1.9 times as slow) x 9
 * sizes from 20 us; the between-run spread falls with the duration from 5%
 * (20 us) to 0.1% (the longest, 9.7 ms) log-linearly, times a fixed
 * per-case scatter (sd 0.25 in ln: cases of one duration differ by up to
 * 2x, as on the H100), clamped to 0.1%..5%; 1% noise within a run. Kernel
 * 2's level moves with heavy tails (t(5)), kernel 3's samples have them
 * (5% outliers). */
static void suite_truth(truth *t) {
    series_rng keep = rng;
    rng.s = 0x9E3779B97F4A7C15ull; /* the same suite in every test */
    for (int k = 0; k < KERNELS; k++)
        for (int j = 0; j < SIZES; j++) {
            truth *x = &t[k * SIZES + j];
            *x = (truth){0}; /* no tick, no heavy tails unless set below */
            x->time = 20e3 * pow(2, j) * (1.0 + 0.3 * k);
            double at = log(x->time / 20e3) / log(256 * 1.9); /* 0 .. 1 */
            double spread = 0.05 * pow(0.02, at) * exp(0.25 * normal());
            x->drift = fmin(0.05, fmax(0.001, spread));
            x->noise = 0.01;
            x->heavy_runs = k == 2;
            x->heavy_samp = k == 3;
        }
    rng = keep;
}

Test(prior, the_pooled_gate_keeps_the_false_alarm_bound, .timeout = 600) {
    /* 10,000 A/A suites of 36 cases, three saves each, alpha 0.01: a false
     * `slower` must have probability at most alpha / 2 per case (drift.h),
     * here averaged over the suite's cases. */
    const br_regression_cfg rules = {0.02, 0.01, 0};
    truth t[CASES];
    suite_truth(t);
    static tally aa;
    memset(&aa, 0, sizeof aa);
    for (int s = 0; s < 10000; s++)
        one_suite(&aa, t, 0.0, &rules);
    size_t total = 0, worst = 0, heavy_runs = 0, heavy_samp = 0;
    int worst_i = 0;
    for (int i = 0; i < CASES; i++) {
        total += aa.slower[i];
        heavy_runs += t[i].heavy_runs ? aa.slower[i] : 0;
        heavy_samp += t[i].heavy_samp ? aa.slower[i] : 0;
        if (aa.slower[i] > worst) {
            worst = aa.slower[i];
            worst_i = i;
        }
    }
    double trials = (double)aa.suites * CASES, rate = (double)total / trials;
    double bound = rules.alpha / 2, sd = sqrt(bound * (1 - bound) / trials);
    double runs = (double)aa.runs_slower / (double)aa.suites;
    double run_sd = sqrt(rules.alpha * (1 - rules.alpha) / (double)aa.suites);
    printf("pooled gate, A/A: %zu suites x %d cases, k = %d, spread 0.1-5%%: false slower %zu "
           "(%.3f%% per case; bound %.2f%%; at alpha per case %.3f%%; each case alone %.3f%%); "
           "runs with a false slower %.2f%% (bound %.0f%%; at alpha per case %.2f%%); "
           "heavy-tailed runs %.3f%%, heavy-tailed samples %.3f%%, worst case %.3f%% (spread "
           "%.2f%%)\n",
           aa.suites, CASES, K, total, 100 * rate, 100 * bound,
           100.0 * (double)aa.per_case / trials, 100.0 * (double)aa.alone / trials, 100 * runs,
           100 * rules.alpha, 100.0 * (double)aa.runs_per_case / (double)aa.suites,
           100.0 * (double)heavy_runs / ((double)aa.suites * SIZES),
           100.0 * (double)heavy_samp / ((double)aa.suites * SIZES),
           100.0 * (double)worst / (double)aa.suites, 100 * t[worst_i].drift);
    cr_assert_leq(rate, bound + 3 * sd, "%.4f%% false slower per case", 100 * rate);
    cr_assert_leq(runs, rules.alpha + 3 * run_sd, "%.3f%% of runs with a false slower", 100 * runs);
    cr_assert_gt(aa.per_case, 0, "a rule that never fires proves nothing");
}

Test(prior, a_3_percent_step_on_cases_spread_by_half_a_percent_is_caught, .timeout = 600) {
    /* Every case's run medians spread by 0.5% (drift and noise together),
     * three saves; a 3% step. The threshold alone caps the power at
     * P(N(ln 1.03, 0.5% sqrt(4/3)) > ln 1.02) = 95.45%. */
    const br_regression_cfg rules = {0.02, 0.01, 0};
    truth t[CASES];
    suite_truth(t);
    double w = sqrt(M_PI / 2) * 0.005 / sqrt((double)NS); /* sd of a median of NS */
    for (int i = 0; i < CASES; i++) {
        t[i].noise = 0.005;
        t[i].drift = sqrt(0.005 * 0.005 - w * w);
        t[i].heavy_runs = t[i].heavy_samp = 0;
    }
    static tally step;
    memset(&step, 0, sizeof step);
    for (int s = 0; s < 10000; s++)
        one_suite(&step, t, 0.03, &rules);
    size_t caught = 0;
    for (int i = 0; i < CASES; i++)
        caught += step.slower[i];
    double power = (double)caught / ((double)step.suites * CASES);
    printf("pooled gate, +3%% on 0.5%% spread: %zu suites x %d cases, k = %d: caught %.2f%% "
           "(at alpha per case: %.2f%%; each case alone: %.2f%%)\n",
           step.suites, CASES, K, 100 * power,
           100.0 * (double)step.per_case / ((double)step.suites * CASES),
           100.0 * (double)step.alone / ((double)step.suites * CASES));
    cr_assert_geq(power, 0.95, "caught %.2f%%", 100 * power);
}

Test(prior, a_spread_under_the_clock_tick_keeps_the_bounds, .timeout = 600) {
    /* The H100 copy suite's case: kernels of 5.5 us to 2.2 ms read on a
     * 32 ns tick, spread between runs by 0.05% and within a run by 0.3%, so
     * the short ones' run medians often repeat to the tick and s^2 is 0
     * without its floor (drift.c). The floor must keep the false-alarm bounds
     * (per case and per run) and the power for a 3% step. */
    const br_regression_cfg rules = {0.02, 0.01, 0};
    truth t[CASES];
    for (int k = 0; k < KERNELS; k++)
        for (int j = 0; j < SIZES; j++)
            t[k * SIZES + j] =
                (truth){5.5e3 * pow(2, j) * (1.0 + 0.3 * k), 0.0005, 0.003, 0, 0, 32.0};
    static tally aa, st, blind;
    memset(&aa, 0, sizeof aa);
    memset(&st, 0, sizeof st);
    memset(&blind, 0, sizeof blind);
    for (int s = 0; s < 4000; s++)
        one_suite(&aa, t, 0.0, &rules);
    for (int s = 0; s < 1000; s++)
        one_suite(&st, t, 0.03, &rules);
    for (int i = 0; i < CASES; i++) /* the same, the tick unknown: no floor */
        t[i].tick = -32.0;
    for (int s = 0; s < 1000; s++)
        one_suite(&blind, t, 0.03, &rules);
    size_t fa = 0, caught = 0, caught_blind = 0;
    for (int i = 0; i < CASES; i++) {
        fa += aa.slower[i];
        caught += st.slower[i];
        caught_blind += blind.slower[i];
    }
    double trials = (double)aa.suites * CASES, rate = (double)fa / trials;
    double runs = (double)aa.runs_slower / (double)aa.suites;
    double power = (double)caught / ((double)st.suites * CASES);
    printf("tick floor, 32 ns tick, 5.5 us-2.2 ms, spread 0.05%%: A/A %zu suites x %d cases: false "
           "slower %.3f%% per case, runs with one %.2f%%; +3%% caught %.2f%% (without the floor "
           "%.2f%%)\n",
           aa.suites, CASES, 100 * rate, 100 * runs, 100 * power,
           100.0 * (double)caught_blind / ((double)blind.suites * CASES));
    double bound = rules.alpha / 2;
    cr_assert_leq(rate, bound + 3 * sqrt(bound * (1 - bound) / trials));
    cr_assert_leq(runs,
                  rules.alpha + 3 * sqrt(rules.alpha * (1 - rules.alpha) / (double)aa.suites));
    cr_assert_geq(power, 0.95, "caught %.2f%%", 100 * power);
}
