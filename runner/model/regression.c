/* SPDX-License-Identifier: Apache-2.0 */
/* The regression settings' defaults and check (regression.h). */
#include "regression.h"

#include <math.h>

#include "base/error.h"

#define STR_(x) #x
#define STR(x)  STR_(x)

void br_regression_defaults(br_regression_cfg *out) {
    out->threshold = BR_DEFAULT_REGRESSION_THRESHOLD;
    out->alpha = BR_DEFAULT_REGRESSION_ALPHA;
    out->keep = BR_DEFAULT_REGRESSION_KEEP;
}

const char *br_regression_threshold_expects(double v) {
    return v >= 0 && isfinite(v) ? NULL : "a number >= 0";
}

const char *br_regression_alpha_expects(double v) {
    return v > 0 && v < 1 ? NULL : "a number between 0 and 1 (exclusive)";
}

const char *br_regression_keep_expects(double v) {
    return v >= 1 && v <= BR_REGRESSION_KEEP_MAX && v == floor(v)
               ? NULL
               : "an integer from 1 to " STR(BR_REGRESSION_KEEP_MAX);
}

int br_regression_check(const br_regression_cfg *c) {
    const char *e;
    if ((e = br_regression_threshold_expects(c->threshold)))
        return br_error_set("regression rules out of range: threshold %g, expected %s",
                            c->threshold, e);
    if ((e = br_regression_alpha_expects(c->alpha)))
        return br_error_set("regression rules out of range: alpha %g, expected %s", c->alpha, e);
    if ((e = br_regression_keep_expects((double)c->keep)))
        return br_error_set("regression rules out of range: keep %zu, expected %s", c->keep, e);
    return 0;
}

void br_regression_fill(br_regression_cfg *c) {
    br_regression_cfg d;
    br_regression_defaults(&d);
    if (br_regression_threshold_expects(c->threshold))
        c->threshold = d.threshold;
    if (br_regression_alpha_expects(c->alpha))
        c->alpha = d.alpha;
    if (br_regression_keep_expects((double)c->keep))
        c->keep = d.keep;
}
