/* SPDX-License-Identifier: Apache-2.0 */
/* test_expr.c - integer expressions: values, precedence, every error with its column. */
#include <criterion/criterion.h>

#include <stdint.h>
#include <string.h>

#include "suite/expr.h"

static const br_pos AT = {"x.yaml", 3, 10};

static int64_t eval_ok(const char *text) {
    int64_t v = -12345;
    static const br_binding vars[] = {{"n", 1024}, {"m", 3}, {"big", INT64_MAX}, {"neg", -7}};
    int rc = br_expr_eval(&v, text, AT, vars, sizeof vars / sizeof vars[0]);
    cr_assert_eq(rc, 0, "'%s' failed: %s", text, br_error_get());
    return v;
}

/* Evaluate, expect failure, and check the whole message (column included). */
static void eval_fails(const char *text, const char *message) {
    static const br_binding vars[] = {{"n", 1024}, {"m", 3}};
    int64_t v = 0;
    br_error_clear();
    int rc = br_expr_eval(&v, text, AT, vars, 2);
    cr_assert_eq(rc, -1, "'%s' should fail", text);
    cr_assert_str_eq(br_error_get(), message, "'%s'", text);
}

Test(expr, literals_and_names) {
    cr_assert_eq(eval_ok("0"), 0);
    cr_assert_eq(eval_ok("42"), 42);
    cr_assert_eq(eval_ok("007"), 7);
    cr_assert_eq(eval_ok("n"), 1024);
    cr_assert_eq(eval_ok("9223372036854775807"), INT64_MAX);
    cr_assert_eq(eval_ok("big"), INT64_MAX);
    cr_assert_eq(eval_ok("neg"), -7);
}

Test(expr, precedence) {
    cr_assert_eq(eval_ok("1 + 2 * 3"), 7);
    cr_assert_eq(eval_ok("(1 + 2) * 3"), 9);
    cr_assert_eq(eval_ok("2 * 3 ^ 2"), 18);
    cr_assert_eq(eval_ok("10 - 4 / 2"), 8);
    cr_assert_eq(eval_ok("10 % 4 * 3"), 6);
    cr_assert_eq(eval_ok("4 * n + m"), 4099);
    cr_assert_eq(eval_ok("4 * (n + m)"), 4108);
    cr_assert_eq(eval_ok("2 ^ 3 * 2"), 16);
}

Test(expr, associativity) {
    cr_assert_eq(eval_ok("10 - 3 - 2"), 5);
    cr_assert_eq(eval_ok("100 / 10 / 5"), 2);
    cr_assert_eq(eval_ok("2 ^ 3 ^ 2"), 512); /* right-associative: 2^(3^2) */
    cr_assert_eq(eval_ok("17 % 7 % 2"), 1);
}

Test(expr, unary_minus) {
    cr_assert_eq(eval_ok("-5"), -5);
    cr_assert_eq(eval_ok("--5"), 5);
    cr_assert_eq(eval_ok("- - -5"), -5);
    cr_assert_eq(eval_ok("-2 ^ 2"), -4); /* '^' binds tighter than unary minus */
    cr_assert_eq(eval_ok("(-2) ^ 2"), 4);
    cr_assert_eq(eval_ok("2 ^ -0"), 1);
    cr_assert_eq(eval_ok("3 - -2"), 5);
    cr_assert_eq(eval_ok("-n"), -1024);
    cr_assert_eq(eval_ok("-9223372036854775807 - 1"), INT64_MIN);
}

Test(expr, division_truncates_toward_zero) {
    cr_assert_eq(eval_ok("7 / 2"), 3);
    cr_assert_eq(eval_ok("-7 / 2"), -3);
    cr_assert_eq(eval_ok("7 / -2"), -3);
    cr_assert_eq(eval_ok("-7 % 3"), -1);
    cr_assert_eq(eval_ok("(-9223372036854775807 - 1) % -1"), 0);
}

Test(expr, powers_and_big_values) {
    cr_assert_eq(eval_ok("2^62"), (int64_t)1 << 62);
    cr_assert_eq(eval_ok("2^62 - 1 + 2^62"), INT64_MAX);
    cr_assert_eq(eval_ok("(-2)^63"), INT64_MIN);
    cr_assert_eq(eval_ok("0^0"), 1);
    cr_assert_eq(eval_ok("1^9223372036854775807"), 1);
    cr_assert_eq(eval_ok("(-1)^9223372036854775807"), -1);
    cr_assert_eq(eval_ok("0^100"), 0);
    cr_assert_eq(eval_ok("10^18"), 1000000000000000000LL);
    cr_assert_eq(eval_ok("3^39"), 4052555153018976267LL);
}

Test(expr, spaces) {
    cr_assert_eq(eval_ok("  1+2*3  "), 7);
    cr_assert_eq(eval_ok("\t4\t*\tn"), 4096);
    cr_assert_eq(eval_ok("2^  10"), 1024);
}

Test(expr, syntax_errors_name_the_column) {
    eval_fails("", "x.yaml:3:10: empty expression: expected a number, a name or '('");
    eval_fails("   ", "x.yaml:3:13: empty expression: expected a number, a name or '('");
    eval_fails("1 +", "x.yaml:3:13: expected a number, a name or '(', found end of expression");
    eval_fails("1 + * 2", "x.yaml:3:14: expected a number, a name or '(', found '*'");
    eval_fails("* 2", "x.yaml:3:10: expected a number, a name or '(', found '*'");
    eval_fails("()", "x.yaml:3:11: expected a number, a name or '(', found ')'");
    eval_fails("(1 + 2", "x.yaml:3:16: expected ')' to close the '(' at column 10, found end "
                         "of expression");
    eval_fails("(1 2)", "x.yaml:3:13: expected ')' to close the '(' at column 10, found '2'");
    eval_fails("1 + 2)", "x.yaml:3:15: unexpected ')'");
    eval_fails("4 n", "x.yaml:3:12: trailing input 'n': expected an operator or the end of the "
                      "expression");
    eval_fails("1.5", "x.yaml:3:11: unexpected character '.' in expression");
    eval_fails("2 ** 3", "x.yaml:3:13: expected a number, a name or '(', found '*'");
    eval_fails("n $ 2", "x.yaml:3:12: unexpected character '$' in expression");
    eval_fails("1 +\x01", "x.yaml:3:13: unexpected control character 0x01 in expression");
    eval_fails("n \xc2\xb5", "x.yaml:3:12: unexpected non-ASCII character in expression");
}

Test(expr, unknown_names) {
    eval_fails("4 * k", "x.yaml:3:14: unknown name 'k' in expression (parameters: n, m)");
    int64_t v = 0;
    cr_assert_eq(br_expr_eval(&v, "k", AT, NULL, 0), -1);
    cr_assert_str_eq(br_error_get(),
                     "x.yaml:3:10: unknown name 'k' in expression (only constants are allowed "
                     "here)");
    /* Names are whole tokens: 'nn' is not 'n'. */
    eval_fails("nn", "x.yaml:3:10: unknown name 'nn' in expression (parameters: n, m)");
}

Test(expr, arithmetic_errors) {
    eval_fails("1 / 0", "x.yaml:3:12: division by zero");
    eval_fails("1 % (n - n)", "x.yaml:3:12: division by zero");
    eval_fails("2 ^ -1", "x.yaml:3:12: negative exponent in '^'");
    eval_fails("2^63", "x.yaml:3:11: integer overflow in '^'");
    eval_fails("3^40", "x.yaml:3:11: integer overflow in '^'");
    eval_fails("2^62 * 2", "x.yaml:3:15: integer overflow in '*'");
    eval_fails("9223372036854775807 + 1", "x.yaml:3:30: integer overflow in '+'");
    eval_fails("-9223372036854775807 - 2", "x.yaml:3:31: integer overflow in '-'");
    eval_fails("-(-9223372036854775807 - 1)", "x.yaml:3:10: integer overflow in '-'");
    eval_fails("(-9223372036854775807 - 1) / -1", "x.yaml:3:37: integer overflow in '/'");
    eval_fails("9223372036854775808",
               "x.yaml:3:10: integer '9223372036854775808' is too large (the largest is 2^63-1)");
}

Test(expr, deep_nesting_is_an_error_not_a_crash) {
    char text[2100];
    memset(text, '(', 1000);
    text[1000] = '1';
    memset(text + 1001, ')', 1000);
    text[2001] = '\0';
    int64_t v = 0;
    cr_assert_eq(br_expr_eval(&v, text, AT, NULL, 0), -1);
    cr_assert(strstr(br_error_get(), "nested too deeply") != NULL, "%s", br_error_get());
    memset(text, '-', 2000);
    text[2000] = '1';
    text[2001] = '\0';
    cr_assert_eq(br_expr_eval(&v, text, AT, NULL, 0), -1);
    /* 100 levels are fine. */
    memset(text, '(', 100);
    text[100] = '7';
    memset(text + 101, ')', 100);
    text[201] = '\0';
    cr_assert_eq(br_expr_eval(&v, text, AT, NULL, 0), 0);
    cr_assert_eq(v, 7);
}

Test(expr, check_binds_names_without_evaluating) {
    const char *names[] = {"n", "m"};
    cr_assert_eq(br_expr_check("4 * n + m", AT, names, 2), 0);
    cr_assert_eq(br_expr_check("1 / 0", AT, names, 2), 0);       /* not evaluated */
    cr_assert_eq(br_expr_check("2 ^ 100 * n", AT, names, 2), 0); /* not evaluated */
    cr_assert_eq(br_expr_check("2 ^ -1", AT, names, 2), 0);      /* not evaluated */
    cr_assert_eq(br_expr_check("4 * k", AT, names, 2), -1);
    cr_assert_str_eq(br_error_get(),
                     "x.yaml:3:14: unknown name 'k' in expression (parameters: n, m)");
    cr_assert_eq(br_expr_check("4 *", AT, names, 2), -1);
    cr_assert_str_eq(br_error_get(),
                     "x.yaml:3:13: expected a number, a name or '(', found end of expression");
    cr_assert_eq(br_expr_check("99999999999999999999", AT, NULL, 0), -1);
    cr_assert_eq(br_expr_check("7", AT, NULL, 0), 0);
}

Test(expr, null_text_and_unknown_position) {
    int64_t v = 0;
    cr_assert_eq(br_expr_eval(&v, NULL, AT, NULL, 0), -1);
    cr_assert_eq(br_expr_check(NULL, AT, NULL, 0), -1);
    br_pos nowhere = {NULL, 0, 0};
    cr_assert_eq(br_expr_eval(&v, "1 / 0", nowhere, NULL, 0), -1);
    cr_assert_str_eq(br_error_get(), "division by zero");
    /* A binding with a NULL name is skipped, not dereferenced. */
    br_binding odd[] = {{NULL, 1}, {"x", 2}};
    cr_assert_eq(br_expr_eval(&v, "x", AT, odd, 2), 0);
    cr_assert_eq(v, 2);
}
