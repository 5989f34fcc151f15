/* SPDX-License-Identifier: Apache-2.0 */
/* test_strdist.c - the edit distance behind "did you mean" (base/strdist.c). */
#include <criterion/criterion.h>

#include <string.h>

#include "base/strdist.h"

static size_t d(const char *a, const char *b) {
    return br_strdist(a, strlen(a), b, strlen(b));
}

Test(strdist, counts_insertions_deletions_and_substitutions) {
    cr_expect_eq(d("", ""), 0);
    cr_expect_eq(d("json", "json"), 0);
    cr_expect_eq(d("jsn", "json"), 1);      /* one insertion */
    cr_expect_eq(d("warmpu", "warmup"), 2); /* a swap is two substitutions */
    cr_expect_eq(d("kitten", "sitting"), 3);
    cr_expect_eq(d("", "abc"), 3);
    cr_expect_eq(d("abc", ""), 3);
}

Test(strdist, is_symmetric) {
    cr_expect_eq(d("min_time", "max_time"), d("max_time", "min_time"));
    cr_expect_eq(d("flush-memset", "flush"), d("flush", "flush-memset"));
}

Test(strdist, names_past_the_limit_are_far) {
    char long_name[BR_STRDIST_MAX + 2];
    memset(long_name, 'a', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    cr_expect_eq(d(long_name, "a"), BR_STRDIST_FAR);
    cr_expect_eq(br_strdist(long_name, BR_STRDIST_MAX, long_name, BR_STRDIST_MAX), 0);
}
