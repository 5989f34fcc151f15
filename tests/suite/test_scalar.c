/* SPDX-License-Identifier: Apache-2.0 */
/* test_scalar.c - typed scalars: integers, durations, fractions, booleans,
 * modes, the messages, and the command-line readers built on them. */
#include <criterion/criterion.h>

#include <stdint.h>
#include <string.h>

#include "suite/scalar.h"
#include "tree_util.h"

/* The value of key "v" in `yaml`; the tree is freed by the caller. */
static const br_node *value_of(br_node **root, const char *yaml) {
    *root = tree_of(yaml);
    const br_node *v = br_map_find(*root, "v");
    cr_assert_not_null(v);
    return v;
}

Test(scalar, command_line_values_parse_like_suite_values) {
    double ns = 0, f = 0;
    br_mode m = 0;
    cr_assert_eq(br_parse_duration(&ns, "--min-time", "1.5ms"), 0);
    cr_assert_float_eq(ns, 1.5e6, 1e-9);
    cr_assert_eq(br_parse_duration(&ns, "--timeout", "5"), -1);
    cr_assert_str_eq(br_error_get(), "--timeout: expected a duration such as 25ms or 1.5s, "
                                     "found 5 (a unit is missing: ns, us, ms, s, m or "
                                     "h)");
    cr_assert_eq(br_parse_fraction(&f, "--max-noise", "0.5%"), 0);
    cr_assert_float_eq(f, 0.005, 1e-15);
    cr_assert_eq(br_parse_fraction(&f, "--max-noise", "150%"), -1);
    cr_assert_str_eq(br_error_get(),
                     "--max-noise: --max-noise must be between 0% and 100%, found 150%");
    cr_assert_eq(br_parse_mode(&m, "--mode", "both", 1), 0);
    cr_assert_eq(m, BR_MODE_BOTH);
    cr_assert_eq(br_parse_mode(&m, "--headline", "both", 0), -1);
    cr_assert_eq(br_parse_mode(&m, "--mode", "bach", 1), -1);
    cr_assert_str_eq(br_error_get(), "--mode: unknown mode 'bach' (expected cold, batch or both) "
                                     "(did you mean 'batch'?)");
}

Test(scalar, integers_literal_and_constant) {
    br_node *root = NULL;
    int64_t n = 0;
    cr_assert_eq(br_get_int(&n, value_of(&root, "v: -42")), 0);
    cr_assert_eq(n, -42);
    br_node_free(root);
    cr_assert_eq(br_get_int(&n, value_of(&root, "v: 2^20")), 0, "%s", br_error_get());
    cr_assert_eq(n, 1 << 20);
    br_node_free(root);
    cr_assert_eq(br_get_int(&n, value_of(&root, "v: 1.5")), -1);
    cr_assert_str_eq(br_error_get(), "t.yaml:1:4: expected an integer, found the number 1.5");
    br_node_free(root);
    cr_assert_eq(br_get_int(&n, value_of(&root, "v: 9223372036854775808")), -1);
    cr_assert_str_eq(br_error_get(), "t.yaml:1:4: integer 9223372036854775808 is out of range "
                                     "(expected -2^63 to 2^63-1)");
    br_node_free(root);
}

Test(scalar, booleans_and_text) {
    br_node *root = NULL;
    int b = -1;
    cr_assert_eq(br_get_bool(&b, value_of(&root, "v: yes")), 0);
    cr_assert_eq(b, 1);
    br_node_free(root);
    cr_assert_eq(br_get_bool(&b, value_of(&root, "v: 'true'")), -1);
    cr_assert_str_eq(br_error_get(), "t.yaml:1:4: expected true or false, found the string 'true'");
    br_node_free(root);
    br_located l = {0};
    cr_assert_eq(br_get_located(&l, value_of(&root, "v: \"quoted\""), "a string"), 0);
    cr_assert_str_eq(l.text, "quoted");
    cr_assert_eq(l.pos.column, 5, "one past the opening quote");
    free(l.text);
    br_node_free(root);
}

Test(scalar, suggestions) {
    static const char *const valid[] = {"flush", "warm", "flush-memset"};
    char hint[128];
    br_suggest(hint, sizeof hint, "wram", 4, valid, 3);
    cr_assert_str_eq(hint, " (did you mean 'warm'?)");
    br_suggest(hint, sizeof hint, "cold", 4, valid, 3);
    cr_assert_str_eq(hint, " (expected one of: flush, warm, flush-memset)");
    const char *names[4];
    cr_assert_eq(br_names_of(names, 4, br_mode_names), 3);
    cr_assert_str_eq(names[2], "both");
    cr_assert_eq(br_names_of(names, 2, br_mode_names), 2);
}

Test(scalar, show_quotes_and_cuts) {
    char q[BR_SHOW_MAX + 16];
    br_show(q, sizeof q, "a\tb", 3);
    cr_assert_str_eq(q, "'a\\x09b'");
    char long_text[100];
    memset(long_text, 'x', sizeof long_text);
    br_show(q, sizeof q, long_text, sizeof long_text);
    cr_assert_eq(strlen(q), BR_SHOW_MAX + 5);
    cr_assert(strstr(q, "...'"));
}

Test(scalar, identifiers) {
    br_node *root = NULL;
    const br_node *v = value_of(&root, "v: 9lives");
    cr_assert(br_is_identifier("_k9"));
    cr_assert_eq(br_check_identifier("_k9", v, "kernel name"), 0);
    cr_assert_eq(br_check_identifier(v->text, v, "kernel name"), -1);
    cr_assert_str_eq(br_error_get(), "t.yaml:1:4: kernel name '9lives' is not a C identifier "
                                     "(letters, digits and '_', not starting with a digit)");
    br_node_free(root);
}
