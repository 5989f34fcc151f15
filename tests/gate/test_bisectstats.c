/* SPDX-License-Identifier: Apache-2.0 */
/* test_bisectstats.c - the rule of `benchrun bisect` (gate/bisectstats.h)
 * by simulation with known truth: rounds of three block medians with
 * log-normal noise, the commit tested truly at the good end, at the bad
 * end, or exactly between them; the sequential looks as the driver makes
 * them (blocks 6, then 6 more, up to 24, each look at alpha / 4). */
#include <criterion/criterion.h>
#include <math.h>

#include "base/error.h"
#include "changepoint_series.h"
#include "gate/bisectstats.h"

#define ALPHA  0.05
#define BLOCKS 6
#define MAX    24

/* One round: medians base * exp(level + sigma N(0,1)) for G, M, B. */
static void round_of(double *g, double *m, double *b, series_rng *rng, double lg, double lm,
                     double lb, double sigma) {
    *g = 1e5 * exp(lg + sigma * series_normal(rng));
    *m = 1e5 * exp(lm + sigma * series_normal(rng));
    *b = 1e5 * exp(lb + sigma * series_normal(rng));
}

/* The driver's looks on one simulated step: the class, and the rounds in *used. */
static br_bisect_class sequential(series_rng *rng, double lg, double lm, double lb, double sigma,
                                  int slower, size_t *used) {
    double g[MAX], m[MAX], b[MAX];
    double look = br_bisect_look_alpha(ALPHA, BLOCKS, MAX);
    br_bisect_verdict v = {0};
    size_t n = 0;
    while (n < MAX) {
        for (size_t k = 0; k < BLOCKS; k++, n++)
            round_of(&g[n], &m[n], &b[n], rng, lg, lm, lb, sigma);
        cr_assert_eq(br_bisect_classify(&v, g, m, b, n, slower, look, ALPHA), 0, "%s",
                     br_error_get());
        if (v.cls != BR_BISECT_UNDECIDED)
            break;
    }
    *used = n;
    return v.cls;
}

Test(bisectstats, the_looks_share_alpha) {
    cr_assert_float_eq(br_bisect_look_alpha(0.05, 6, 24), 0.0125, 1e-15);
    cr_assert_float_eq(br_bisect_look_alpha(0.05, 6, 25), 0.01, 1e-15); /* 5 looks */
    cr_assert_float_eq(br_bisect_look_alpha(0.05, 6, 6), 0.05, 1e-15);
    cr_assert(isnan(br_bisect_look_alpha(0.05, 6, 4)));
    cr_assert(isnan(br_bisect_look_alpha(0.05, 0, 4)));
    cr_assert(isnan(br_bisect_look_alpha(1.5, 6, 24)));
}

/* A 3% slowdown under 1% noise per block: a commit truly at the good end
 * is classed good, one at the bad end bad; a wrong class is rarer than
 * alpha / 2 (here it never happens), and the right one comes in nearly
 * every step within the bound. */
Test(bisectstats, a_commit_at_either_end_is_classed_with_it) {
    series_rng rng = {42};
    const double d = log(1.03), sigma = 0.01;
    const int trials = 4000;
    int right[2] = {0, 0}, wrong[2] = {0, 0};
    size_t rounds = 0;
    for (int t = 0; t < trials; t++)
        for (int side = 0; side < 2; side++) {
            size_t used;
            br_bisect_class c = sequential(&rng, 0, side ? d : 0, d, sigma, 1, &used);
            br_bisect_class want = side ? BR_BISECT_BAD : BR_BISECT_GOOD;
            right[side] += c == want;
            wrong[side] += c != want && c != BR_BISECT_UNDECIDED;
            rounds += used;
        }
    for (int side = 0; side < 2; side++) {
        cr_assert_leq((double)wrong[side] / trials, ALPHA / 2, "wrong %d of %d", wrong[side],
                      trials);
        cr_assert_geq((double)right[side] / trials, 0.99, "right %d of %d", right[side], trials);
    }
    double mean = (double)rounds / (2.0 * trials);
    cr_log_info("3%% step, 1%% noise: good end right %d, wrong %d; bad end right %d, wrong %d "
                "of %d; mean rounds %.2f",
                right[0], wrong[0], right[1], wrong[1], trials, mean);
    cr_assert(mean > BLOCKS && mean < 2 * BLOCKS, "mean rounds %g", mean);
}

/* The same rule for a speedup (the bad end faster). */
Test(bisectstats, a_speedup_is_searched_alike) {
    series_rng rng = {7};
    const double d = -log(1.05);
    size_t used;
    int good = 0, bad = 0;
    for (int t = 0; t < 500; t++) {
        good += sequential(&rng, 0, 0, d, 0.01, 0, &used) == BR_BISECT_GOOD;
        bad += sequential(&rng, 0, d, d, 0.01, 0, &used) == BR_BISECT_BAD;
    }
    cr_assert_geq(good, 495);
    cr_assert_geq(bad, 495);
}

/* No step at all (G = M = B): each look decides at its level (the test's
 * size), and the whole sequence at most at alpha (Bonferroni), each wrong
 * side at most alpha / 2. */
Test(bisectstats, without_a_step_the_false_decisions_stay_under_alpha) {
    series_rng rng = {2024};
    const int trials = 20000;
    double look = br_bisect_look_alpha(ALPHA, BLOCKS, MAX);
    int first = 0, good = 0, bad = 0;
    for (int t = 0; t < trials; t++) {
        double g[BLOCKS], m[BLOCKS], b[BLOCKS];
        for (size_t k = 0; k < BLOCKS; k++)
            round_of(&g[k], &m[k], &b[k], &rng, 0, 0, 0, 0.01);
        br_bisect_verdict v;
        cr_assert_eq(br_bisect_classify(&v, g, m, b, BLOCKS, 1, look, ALPHA), 0);
        first += v.cls != BR_BISECT_UNDECIDED;
        size_t used;
        br_bisect_class c = sequential(&rng, 0, 0, 0, 0.01, 1, &used);
        good += c == BR_BISECT_GOOD;
        bad += c == BR_BISECT_BAD;
    }
    cr_log_info("no step: one look decided %d of %d; the sequence: %d good, %d bad", first, trials,
                good, bad);
    /* One look: 0.0125 expected; 4 standard errors of 20000 trials either side. */
    double rate = (double)first / trials, se = sqrt(look * (1 - look) / trials);
    cr_assert(fabs(rate - look) < 4 * se, "one look decided %g of the time (level %g)", rate, look);
    cr_assert_leq((double)(good + bad) / trials, ALPHA, "%d + %d of %d", good, bad, trials);
    cr_assert_leq((double)bad / trials, ALPHA / 2 + 4 * sqrt(ALPHA / 2 / trials));
    cr_assert_leq((double)good / trials, ALPHA / 2 + 4 * sqrt(ALPHA / 2 / trials));
}

/* Drift that is linear in log time over the blocks (each block 5% slower
 * than the one before, more than the 3% step) cancels: without noise, a
 * commit at the good end is classed good and one exactly between the ends
 * sits at the middle, ratio 1 to rounding. */
Test(bisectstats, linear_drift_cancels_in_every_round) {
    const double d = log(1.03), drift = log(1.05);
    for (int where = 0; where < 2; where++) {
        double g[8], m[8], b[8], lm = where == 0 ? 0 : d / 2;
        for (size_t k = 0; k < 8; k++) {
            double t0 = 3.0 * (double)k; /* block positions: G M B, then B M G */
            double tg = k % 2 == 0 ? t0 : t0 + 2, tb = k % 2 == 0 ? t0 + 2 : t0;
            g[k] = 1e5 * exp(drift * tg);
            m[k] = 1e5 * exp(lm + drift * (t0 + 1));
            b[k] = 1e5 * exp(d + drift * tb);
        }
        br_bisect_verdict v;
        cr_assert_eq(br_bisect_classify(&v, g, m, b, 8, 1, 0.0125, ALPHA), 0);
        if (where == 0) {
            cr_assert_eq(v.cls, BR_BISECT_GOOD);
            cr_assert_float_eq(v.position, 0.0, 1e-9);
        } else {
            cr_assert_float_eq(v.middle.ratio, 1.0, 1e-12);
            cr_assert_float_eq(v.position, 0.5, 1e-9);
        }
        cr_assert_float_eq(v.span.ratio, 1.03, 1e-9); /* over an even count of rounds */
    }
}

Test(bisectstats, bad_medians_are_refused) {
    double g[2] = {1, 1}, m[2] = {1, 1}, b[2] = {1, -1};
    br_bisect_verdict v;
    cr_assert_eq(br_bisect_classify(&v, g, m, b, 2, 1, 0.01, 0.05), -1);
    cr_assert(strstr(br_error_get(), "round 2"), "%s", br_error_get());
    b[1] = 1;
    m[0] = NAN;
    cr_assert_eq(br_bisect_classify(&v, g, m, b, 2, 1, 0.01, 0.05), -1);
}
