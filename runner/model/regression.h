/* SPDX-License-Identifier: Apache-2.0 */
/* The regression settings (br_regression_cfg, types.h):
 * their one set of defaults and their one check, which the suite loader,
 * the results reader, the gate and the baseline all use. The confirmation's
 * mode and time bound are options of the command line alone (gate/gate.h,
 * br_gate_opts_init). */
#ifndef BR_REGRESSION_H
#define BR_REGRESSION_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* *out with the defaults of types.h: threshold BR_DEFAULT_REGRESSION_THRESHOLD,
 * alpha BR_DEFAULT_REGRESSION_ALPHA, keep BR_DEFAULT_REGRESSION_KEEP. */
void br_regression_defaults(br_regression_cfg *out);

/* What each field must be, as the end of a message ("a number >= 0"), or
 * NULL when v is such a value: threshold a finite fraction >= 0, alpha in
 * (0, 1), keep an integer from 1 to BR_REGRESSION_KEEP_MAX. Pure. */
const char *br_regression_threshold_expects(double v);
const char *br_regression_alpha_expects(double v);
const char *br_regression_keep_expects(double v);

/* Check every field of *c. Returns 0, or -1 with the error set ("regression
 * rules out of range: alpha 1.5, expected a number between 0 and 1
 * (exclusive)"). */
int br_regression_check(const br_regression_cfg *c);

/* Each field of *c outside its range replaced by its default (a run read
 * from a file before a field existed, a zeroed cfg). Pure but for *c. */
void br_regression_fill(br_regression_cfg *c);

#ifdef __cplusplus
}
#endif
#endif
