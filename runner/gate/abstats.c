/* SPDX-License-Identifier: Apache-2.0 */
/* abstats.c - the ratio, its interval, the paired test and the decision of
 * `benchrun ab` (method and sources in abstats.h). */
#include "abstats.h"

#include <math.h>

#include "base/error.h"

/* P(|T| < t) for t >= 0 and df >= 1: Abramowitz & Stegun 26.7.3 (df odd)
 * and 26.7.4 (df even), with theta = atan(t / sqrt(df)). */
static double t_central(double t, unsigned df) {
    double theta = atan(t / sqrt((double)df));
    double c = cos(theta), s = sin(theta), c2 = c * c;
    if (df % 2 == 1) {
        /* (2/pi) (theta + sin(theta) (cos + 2/3 cos^3 + 2.4/(3.5) cos^5 + ...
         *  + 2.4...(df-3)/(1.3...(df-2)) cos^(df-2))) */
        double sum = 0, term = c;
        for (unsigned k = 1; k + 2 <= df; k += 2) {
            sum += term;
            term *= c2 * (double)(k + 1) / (double)(k + 2);
        }
        return 2.0 / M_PI * (theta + s * sum);
    }
    /* sin(theta) (1 + 1/2 cos^2 + 1.3/(2.4) cos^4 + ... + 1.3...(df-3)/(2.4...(df-2)) cos^(df-2))
     */
    double sum = 0, term = 1;
    for (unsigned k = 0; k + 2 <= df; k += 2) {
        sum += term;
        term *= c2 * (double)(k + 1) / (double)(k + 2);
    }
    return s * sum;
}

double br_ab_t_pvalue(double t, unsigned df) {
    if (df == 0 || isnan(t))
        return NAN;
    if (isinf(t))
        return 0;
    double p = 1.0 - t_central(fabs(t), df);
    return p < 0 ? 0 : p > 1 ? 1 : p;
}

double br_ab_t_critical(double alpha, unsigned df) {
    if (df == 0 || !(alpha > 0 && alpha < 1))
        return NAN;
    double lo = 0, hi = 1;
    while (br_ab_t_pvalue(hi, df) > alpha && hi < 1e12)
        hi *= 2;
    for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
        double mid = 0.5 * (lo + hi);
        if (br_ab_t_pvalue(mid, df) > alpha)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

/* Decide out->status from the interval (rules in abstats.h). */
static void decide(br_ab_stats *out, double threshold) {
    double up = 1.0 + threshold, down = 1.0 / (1.0 + threshold);
    if (out->low > up) {
        out->status = BR_CHANGE_SLOWER;
    } else if (out->high < down) {
        out->status = BR_CHANGE_FASTER;
    } else if (out->low >= down && out->high <= up) {
        out->status = BR_CHANGE_SAME;
    } else {
        out->status = BR_CHANGE_UNKNOWN;
        out->why = out->low <= 1.0 && out->high >= 1.0 ? "too noisy to tell"
                                                       : "the interval straddles the threshold";
    }
}

int br_ab_stats_compute(br_ab_stats *out, const double *old_med, const double *new_med, size_t n,
                        double threshold, double alpha) {
    *out = (br_ab_stats){.n = n, .ratio = NAN, .low = NAN, .high = NAN, .t = NAN, .p = NAN};
    out->status = BR_CHANGE_UNKNOWN;
    if (!(threshold >= 0) || !isfinite(threshold) || !(alpha > 0 && alpha < 1))
        return br_error_set("ab rules out of range: threshold %g (expected >= 0), alpha %g "
                            "(expected between 0 and 1)",
                            threshold, alpha);
    double sum = 0;
    for (size_t k = 0; k < n; k++) {
        if (!(old_med[k] > 0) || !(new_med[k] > 0) || !isfinite(old_med[k]) ||
            !isfinite(new_med[k]))
            return br_error_set("block pair %zu: medians %g and %g ns (expected positive numbers)",
                                k + 1, old_med[k], new_med[k]);
        sum += log(new_med[k] / old_med[k]);
    }
    if (n == 0) {
        out->why = "too few blocks";
        return 0;
    }
    double m = sum / (double)n;
    out->ratio = exp(m);
    if (n < 2) {
        out->why = "too few blocks";
        return 0;
    }
    double ss = 0;
    for (size_t k = 0; k < n; k++) {
        double d = log(new_med[k] / old_med[k]) - m;
        ss += d * d;
    }
    double se = sqrt(ss / (double)(n - 1) / (double)n);
    unsigned df = (unsigned)(n - 1);
    double tc = br_ab_t_critical(alpha, df);
    out->low = exp(m - tc * se);
    out->high = exp(m + tc * se);
    if (se > 0) {
        out->t = m / se;
        out->p = br_ab_t_pvalue(out->t, df);
    } else { /* every pair gave the same ratio */
        out->t = m == 0 ? 0 : m > 0 ? INFINITY : -INFINITY;
        out->p = m == 0 ? 1 : 0;
    }
    decide(out, threshold);
    return 0;
}
