/* SPDX-License-Identifier: Apache-2.0 */
/* What the readers of a results document share (run_read.c reads a run,
 * run_read_case.c one case): the presence flags and the enum reader. Not for
 * use outside results/run_read*.c. */
#ifndef BR_RUN_READ_IMPL_H
#define BR_RUN_READ_IMPL_H

#include "json_checked.h"
#include "model/types.h"

/* Whether a key must be present (and not null). */
enum { OPT = BR_JSON_OPT, REQ = BR_JSON_REQ };

/* The enum reader. */

/* obj[key] as a name of table t (br_json_get_name) into the enum at `out`:
 * every enum of types.h is int-sized with values >= 0, so it is read and
 * written as the int it is compatible with. */
#define GET_NAME(c, obj, key, req, t, dflt, out)                                                   \
    br_json_get_name(c, obj, key, req, t, NULL, 0, dflt, (int *)(out))
/* GET_NAME of the values of the array `only`, listed in its order. */
#define GET_ONLY(c, obj, key, req, t, only, dflt, out)                                             \
    br_json_get_name(c, obj, key, req, t, only, sizeof(only) / sizeof(only)[0], dflt, (int *)(out))
_Static_assert(sizeof(br_metric) == sizeof(int) && sizeof(br_cache_policy) == sizeof(int) &&
                   sizeof(br_mode) == sizeof(int) && sizeof(br_peak_kind) == sizeof(int) &&
                   sizeof(br_backend) == sizeof(int) && sizeof(br_case_status) == sizeof(int) &&
                   sizeof(br_clock) == sizeof(int) && sizeof(br_op_kind) == sizeof(int) &&
                   sizeof(br_stage) == sizeof(int) && sizeof(br_precision) == sizeof(int),
               "the enums GET_NAME reads are int-sized");

#endif
