/* SPDX-License-Identifier: Apache-2.0 */
/* test_error.c - the last error's message and kind (base/error.c). */
#include <criterion/criterion.h>

#include "base/error.h"

Test(error, a_kind_rides_with_its_message_until_the_next_error) {
    br_error_clear();
    cr_expect_eq(br_error_kind_get(), BR_E_NONE);
    cr_expect_eq(br_error_set("%s: not found", "x.json"), -1);
    cr_expect_eq(br_error_set_kind(BR_E_NOTFOUND), -1);
    cr_expect_str_eq(br_error_get(), "x.json: not found");
    cr_expect_eq(br_error_kind_get(), BR_E_NOTFOUND);
    br_error_at((br_pos){"s.yaml", 3, 7}, "bad");
    cr_expect_str_eq(br_error_get(), "s.yaml:3:7: bad");
    cr_expect_eq(br_error_kind_get(), BR_E_NONE, "a new error starts without a kind");
    br_error_set_kind(BR_E_INPUT);
    br_error_clear();
    cr_expect_eq(br_error_kind_get(), BR_E_NONE);
    cr_expect_str_eq(br_error_get(), "");
}

Test(error, out_of_memory_has_its_kind) {
    cr_expect_eq(br_error_nomem(), -1);
    cr_expect_str_eq(br_error_get(), "out of memory");
    cr_expect_eq(br_error_kind_get(), BR_E_NOMEM);
}
