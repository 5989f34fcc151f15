/* SPDX-License-Identifier: Apache-2.0 */
/* test_name.c - enum name tables read both ways (base/name.c), over one of
 * the project's real tables (results/names.c). */
#include <criterion/criterion.h>

#include "base/name.h"
#include "model/types.h"

Test(name, value_to_name_and_back) {
    cr_expect_str_eq(br_name_of(br_cache_names, BR_CACHE_FLUSH_MEMSET, "?"), "flush-memset");
    int v = -1;
    cr_expect_eq(br_name_find(&v, br_cache_names, "warm"), 0);
    cr_expect_eq(v, BR_CACHE_WARM);
    for (const br_name *n = br_mode_names; n->name; n++) {
        cr_expect_eq(br_name_find(&v, br_mode_names, n->name), 0);
        cr_expect_str_eq(br_name_of(br_mode_names, v, "?"), n->name);
    }
}

Test(name, unknown_values_and_names) {
    int v = 42;
    cr_expect_str_eq(br_name_of(br_cache_names, 99, "unknown"), "unknown");
    cr_expect_null(br_name_of(br_cache_names, 99, NULL));
    cr_expect_eq(br_name_find(&v, br_cache_names, "Warm"), -1, "names are case-sensitive");
    cr_expect_eq(br_name_find(&v, br_cache_names, NULL), -1);
    cr_expect_eq(v, 42, "a failed look-up leaves *out alone");
}

Test(name, wrappers_keep_their_fallbacks) {
    cr_expect_str_eq(br_change_name((br_change)77), "?");
    cr_expect_str_eq(br_metric_name((br_metric)77), "none");
    cr_expect_null(br_stop_name(BR_STOP_NONE));
    cr_expect_str_eq(br_stop_name(BR_STOP_MAX_SAMPLES), "max_samples");
}
