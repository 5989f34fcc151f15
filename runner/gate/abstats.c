/* SPDX-License-Identifier: Apache-2.0 */
/* The ratio, its interval, the paired test and the decision of
 * `benchrun ab` (method and sources in abstats.h). */
#include "abstats.h"

#include <math.h>

#include "base/error.h"
#include "tdist.h"

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
    double df = (double)(n - 1);
    double tc = br_tdist_quantile(1.0 - alpha / 2.0, df);
    out->low = exp(m - tc * se);
    out->high = exp(m + tc * se);
    if (se > 0) {
        out->t = m / se;
        out->p = fmin(1.0, 2.0 * br_tdist_cdf(-fabs(out->t), df));
    } else { /* every pair gave the same ratio */
        out->t = m == 0 ? 0 : m > 0 ? INFINITY : -INFINITY;
        out->p = m == 0 ? 1 : 0;
    }
    decide(out, threshold);
    return 0;
}
