/* SPDX-License-Identifier: Apache-2.0 */
/* test_yamltree.c - the YAML reader: the node tree with its positions, and
 * what it refuses (anchors, aliases, tags, deep nesting, a second document). */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tree_util.h"

static int read_fails(const char *yaml) {
    br_node *root = NULL;
    br_error_clear();
    int rc = br_yaml_read(&root, "t.yaml", (const unsigned char *)yaml, strlen(yaml));
    cr_assert_null(root);
    return rc;
}

Test(yamltree, mapping_with_positions) {
    br_node *root = tree_of("name: x\nlist: [1, 'two']\n");
    cr_assert_eq(root->kind, BR_NODE_MAP);
    cr_assert_eq(br_map_size(root), 2);
    cr_assert(br_key_is(br_map_key(root, 1), "list"));
    const br_node *list = br_map_find(root, "list");
    cr_assert_not_null(list);
    cr_assert_eq(list->kind, BR_NODE_SEQ);
    cr_assert_eq(list->n_items, 2);
    cr_assert_eq(list->pos.line, 2);
    cr_assert_eq(list->pos.column, 7);
    cr_assert_str_eq(list->items[1]->text, "two");
    cr_assert_eq(list->items[1]->style, YAML_SINGLE_QUOTED_SCALAR_STYLE);
    cr_assert_null(br_map_find(root, "missing"));
    br_node_free(root);
}

Test(yamltree, empty_stream_has_no_root) {
    br_node *root = (br_node *)1;
    cr_assert_eq(br_yaml_read(&root, "t.yaml", (const unsigned char *)"", 0), 0);
    cr_assert_null(root);
    br_node_free(NULL);
}

Test(yamltree, refusals) {
    cr_assert_eq(read_fails("a: &x 1\nb: *x\n"), -1);
    cr_assert_str_eq(br_error_get(), "t.yaml:1:4: anchors and aliases are not supported in suites");
    cr_assert_eq(read_fails("a: !!int 1\n"), -1);
    cr_assert_str_eq(br_error_get(), "t.yaml:1:4: tags are not supported in suites");
    cr_assert_eq(read_fails("a: 1\n---\nb: 2\n"), -1);
    cr_assert_str_eq(br_error_get(),
                     "t.yaml:2:1: a suite file holds one YAML document, found a second one");
}

Test(yamltree, nesting_limit) {
    char deep[2 * BR_YAML_MAX_DEPTH + 8];
    size_t o = 0;
    for (int i = 0; i <= BR_YAML_MAX_DEPTH; i++)
        deep[o++] = '[';
    for (int i = 0; i <= BR_YAML_MAX_DEPTH; i++)
        deep[o++] = ']';
    deep[o] = '\0';
    cr_assert_eq(read_fails(deep), -1);
    char want[64];
    snprintf(want, sizeof want, "t.yaml:1:%d: nesting deeper than %d levels", BR_YAML_MAX_DEPTH + 1,
             BR_YAML_MAX_DEPTH);
    cr_assert_str_eq(br_error_get(), want);
    deep[BR_YAML_MAX_DEPTH] = '\0'; /* exactly the limit: accepted */
    memset(deep + BR_YAML_MAX_DEPTH, ']', BR_YAML_MAX_DEPTH);
    deep[2 * BR_YAML_MAX_DEPTH] = '\0';
    br_node_free(tree_of(deep));
}
