/* SPDX-License-Identifier: Apache-2.0 */
/* test_params.c - a suite's params and defines read from a node tree. */
#include <criterion/criterion.h>

#include <string.h>

#include "suite/params.h"
#include "tree_util.h"

Test(params, lists_ranges_and_zip) {
    br_suite s;
    memset(&s, 0, sizeof s);
    br_node *m = tree_of("n: [1, 2]\nb: {pow2: [2, 4]}\ng: {zip: {x: [1, 2], y: 7}}\n");
    cr_assert_eq(br_params_load(&s, m), 0, "%s", br_error_get());
    cr_assert_eq(s.n_params, 4);
    cr_assert_str_eq(s.params[1].name, "b");
    cr_assert_eq(s.params[1].n_values, 3);
    cr_assert_eq(s.params[1].values[2], 16);
    cr_assert_eq(s.params[3].n_values, 2, "a one-value member repeats");
    cr_assert_eq(s.params[3].values[1], 7);
    cr_assert_str_eq(s.params[3].group, "g");
    br_node_free(m);
    m = tree_of("[b]");
    cr_assert_eq(br_defines_load(&s, m), 0, "%s", br_error_get());
    cr_assert(s.params[1].define);
    cr_assert_eq(br_defines_load(&s, m), -1);
    cr_assert_str_eq(br_error_get(), "t.yaml:1:2: defines lists 'b' twice");
    br_node_free(m);
    br_suite_dispose(&s);
}

Test(params, errors) {
    br_suite s;
    memset(&s, 0, sizeof s);
    br_node *m = tree_of("n: [1, 1]\n");
    cr_assert_eq(br_params_load(&s, m), -1);
    cr_assert_str_eq(br_error_get(),
                     "t.yaml:1:8: parameter 'n' lists the value 1 twice (also item 1)");
    br_node_free(m);
    br_suite_dispose(&s);
}
