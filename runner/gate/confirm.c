/* SPDX-License-Identifier: Apache-2.0 */
/* The A/B stage of the regression gate (confirm.h). */
#include "confirm.h"

#include <math.h>
#include <stdlib.h>

#include "abstats.h"
#include "base/error.h"
#include "family.h"

/* Case c judged at level a: its out fields. Confirmed: the A/B's interval
 * excludes 1 on the screen's side and its ratio is beyond the threshold
 * that way (confirm.h). */
static int judge_at(br_confirm_case *c, double threshold, double a) {
    br_ab_stats st;
    c->ab = BR_CHANGE_UNKNOWN;
    c->ratio = c->low = c->high = c->p = NAN;
    c->confirmed = 0;
    if (c->pairs == 0)
        return 0;
    if (br_ab_stats_compute(&st, c->old_med, c->new_med, c->pairs, 0.0, a) != 0)
        return -1;
    c->ratio = st.ratio;
    c->low = st.low;
    c->high = st.high;
    c->p = st.p;
    if (st.low > 1.0 && st.ratio > 1.0 + threshold)
        c->ab = BR_CHANGE_SLOWER;
    else if (st.high < 1.0 && st.ratio < 1.0 / (1.0 + threshold))
        c->ab = BR_CHANGE_FASTER;
    else if (isfinite(st.low))
        c->ab = BR_CHANGE_SAME;
    c->confirmed =
        c->ab == c->screen && (c->screen == BR_CHANGE_SLOWER || c->screen == BR_CHANGE_FASTER);
    return 0;
}

int br_confirm_judge(br_confirm_case *c, size_t n, double threshold, double alpha,
                     double *out_level) {
    if (!(alpha > 0 && alpha < 1) || !(threshold >= 0))
        return br_error_set("confirmation rules out of range: threshold %g, alpha %g", threshold,
                            alpha);
    double *p = calloc(n ? n : 1, sizeof *p);
    if (!p)
        return br_error_nomem();
    int rc = -1;
    for (size_t i = 0; i < n; i++) {
        if (judge_at(&c[i], threshold, alpha) != 0)
            goto done;
        p[i] = c[i].p; /* NAN: not in the family */
    }
    double level = br_family_level(NULL, NULL, p, n, alpha);
    if (isnan(level))
        goto done;
    for (size_t i = 0; i < n && level < alpha; i++)
        if (judge_at(&c[i], threshold, level) != 0)
            goto done;
    if (out_level)
        *out_level = level;
    rc = 0;
done:
    free(p);
    return rc;
}
