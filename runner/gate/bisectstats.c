/* SPDX-License-Identifier: Apache-2.0 */
/* The class of a midpoint of `benchrun bisect` (the rule
 * and its sources in bisectstats.h). */
#include "bisectstats.h"

#include <math.h>
#include <stdlib.h>

#include "base/error.h"

double br_bisect_look_alpha(double alpha, size_t blocks, size_t max_blocks) {
    if (!(alpha > 0 && alpha < 1) || blocks == 0 || max_blocks < blocks)
        return NAN;
    size_t looks = (max_blocks + blocks - 1) / blocks;
    return alpha / (double)looks;
}

/* ln(M/G) / ln(B/G) from the rounds' log means; NAN when B/G is 1. */
static double position_of(const br_bisect_verdict *v) {
    double span = log(v->span.ratio), to_good = log(v->to_good.ratio);
    return span != 0 && isfinite(span) ? to_good / span : NAN;
}

int br_bisect_classify(br_bisect_verdict *out, const double *good, const double *mid,
                       const double *bad, size_t n, int slower, double look_alpha,
                       double ci_alpha) {
    *out = (br_bisect_verdict){.cls = BR_BISECT_UNDECIDED, .position = NAN};
    double *ends = malloc((n ? n : 1) * sizeof *ends);
    if (!ends)
        return br_error_nomem();
    int rc = -1;
    for (size_t k = 0; k < n; k++) {
        if (!(good[k] > 0) || !(bad[k] > 0) || !isfinite(good[k]) || !isfinite(bad[k])) {
            br_error_set("round %zu: end medians %g and %g ns (expected positive numbers)", k + 1,
                         good[k], bad[k]);
            goto done;
        }
        ends[k] = sqrt(good[k] * bad[k]);
    }
    if (br_ab_stats_compute(&out->span, good, bad, n, 0, ci_alpha) != 0 ||
        br_ab_stats_compute(&out->to_good, good, mid, n, 0, ci_alpha) != 0 ||
        br_ab_stats_compute(&out->to_bad, bad, mid, n, 0, ci_alpha) != 0 ||
        br_ab_stats_compute(&out->middle, ends, mid, n, 0, look_alpha) != 0)
        goto done;
    out->position = position_of(out);
    /* With threshold 0: slower = the interval wholly above 1, faster = wholly below. */
    if (out->middle.status == BR_CHANGE_FASTER)
        out->cls = slower ? BR_BISECT_GOOD : BR_BISECT_BAD;
    else if (out->middle.status == BR_CHANGE_SLOWER)
        out->cls = slower ? BR_BISECT_BAD : BR_BISECT_GOOD;
    rc = 0;
done:
    free(ends);
    return rc;
}
