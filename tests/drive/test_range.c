/* SPDX-License-Identifier: Apache-2.0 */
/* The range argument of `benchrun run-range` (br_range_split): A..B, A..
 * and ..B as git reads them; what is no line of commits refused with a
 * message. The command itself is tested end to end, with a repository. */
#include <criterion/criterion.h>
#include <string.h>

#include "base/error.h"
#include "drive/range.h"

static void split_ok(const char *spec, const char *from, const char *to) {
    char buf[64];
    const char *a = NULL, *b = NULL;
    cr_assert_eq(br_range_split(buf, sizeof buf, spec, &a, &b), 0, "%s: %s", spec, br_error_get());
    cr_assert_str_eq(a, from, "%s", spec);
    cr_assert_str_eq(b, to, "%s", spec);
}

Test(range, a_dotdot_b_as_git_reads_it) {
    split_ok("HEAD~20..HEAD", "HEAD~20", "HEAD");
    split_ok("v1.0..main", "v1.0", "main");
    split_ok("1a2b3c4..", "1a2b3c4", "HEAD");
    split_ok("..topic", "HEAD", "topic");
}

static void split_bad(const char *spec, const char *says) {
    char buf[64];
    const char *a = NULL, *b = NULL;
    cr_assert_eq(br_range_split(buf, sizeof buf, spec, &a, &b), -1, "%s", spec);
    cr_assert_eq(br_error_kind_get(), BR_E_INPUT);
    cr_assert(strstr(br_error_get(), says), "%s: %s", spec, br_error_get());
}

Test(range, what_is_no_line_of_commits_is_refused) {
    split_bad("HEAD~20", "expected a range A..B");
    split_bad("..", "expected a range A..B");
    split_bad("main...topic", "A...B names no line of commits");
    split_bad("", "expected a range A..B");
}
