/* SPDX-License-Identifier: Apache-2.0 */
/* test_keys.c - reading a mapping through a key table: dispatch in the
 * file's order, required keys, unknown keys with their suggestion, repeats. */
#include <criterion/criterion.h>

#include <string.h>

#include "suite/keys.h"
#include "tree_util.h"

typedef struct seen {
    char order[8][16];
    int n;
} seen;

static int note(void *ctx, const br_node *v) {
    seen *s = ctx;
    snprintf(s->order[s->n++], sizeof s->order[0], "%s", v->text);
    return 0;
}

static int refuse(void *ctx, const br_node *v) {
    (void)ctx;
    return br_error_at(v->pos, "refused %s", v->text);
}

static const br_key_spec keys[] = {
    {"alpha", note, 1}, {"beta", note, 0}, {"gamma", NULL, 0}, {"delta", refuse, 0}};
#define N_KEYS (sizeof keys / sizeof keys[0])

Test(keys, dispatch_in_file_order) {
    br_node *m = tree_of("beta: b\ngamma: g\nalpha: a\n");
    seen s = {0};
    cr_assert_eq(br_keys_load(&s, m, keys, N_KEYS, ""), 0, "%s", br_error_get());
    cr_assert_eq(s.n, 2);
    cr_assert_str_eq(s.order[0], "b");
    cr_assert_str_eq(s.order[1], "a");
    br_node_free(m);
}

Test(keys, unknown_key_suggests_the_nearest) {
    br_node *m = tree_of("alpha: a\nbeat: b\n");
    seen s = {0};
    cr_assert_eq(br_keys_load(&s, m, keys, N_KEYS, " in test"), -1);
    cr_assert_str_eq(br_error_get(),
                     "t.yaml:2:1: unknown key 'beat' in test (did you mean 'beta'?)");
    cr_assert_eq(s.n, 0, "nothing is read before every key is checked");
    br_node_free(m);
}

Test(keys, unknown_key_lists_the_table) {
    br_node *m = tree_of("alpha: a\nzzzzzzzz: b\n");
    seen s = {0};
    cr_assert_eq(br_keys_load(&s, m, keys, N_KEYS, ""), -1);
    cr_assert_str_eq(br_error_get(), "t.yaml:2:1: unknown key 'zzzzzzzz' (expected one of: alpha, "
                                     "beta, gamma, delta)");
    br_node_free(m);
}

Test(keys, required_repeated_and_failing_keys) {
    seen s = {0};
    br_node *m = tree_of("beta: b\n");
    cr_assert_eq(br_keys_load(&s, m, keys, N_KEYS, ""), -1);
    cr_assert_str_eq(br_error_get(), "t.yaml:1:1: missing required key 'alpha'");
    br_node_free(m);
    m = tree_of("alpha: a\nalpha: b\n");
    cr_assert_eq(br_keys_load(&s, m, keys, N_KEYS, ""), -1);
    cr_assert_str_eq(br_error_get(), "t.yaml:2:1: duplicate key 'alpha' (first at 1:1)");
    br_node_free(m);
    m = tree_of("alpha: a\ndelta: d\n");
    cr_assert_eq(br_keys_load(&s, m, keys, N_KEYS, ""), -1);
    cr_assert_str_eq(br_error_get(), "t.yaml:2:8: refused d");
    br_node_free(m);
}

Test(keys, check_without_a_table_accepts_any_key_once) {
    br_node *m = tree_of("{x: 1, y: 2}");
    cr_assert_eq(br_keys_check(m, NULL, 0, " in params"), 0);
    br_node_free(m);
    m = tree_of("{x: 1, x: 2}");
    cr_assert_eq(br_keys_check(m, NULL, 0, " in params"), -1);
    cr_assert_str_eq(br_error_get(), "t.yaml:1:8: duplicate key 'x' in params (first at 1:2)");
    br_node_free(m);
}
