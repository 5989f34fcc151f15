/* SPDX-License-Identifier: Apache-2.0 */
/* tree_util.h - a YAML text as a node tree (suite/yamltree.h), for the tests
 * of the suite's internal modules. */
#ifndef BR_TEST_TREE_UTIL_H
#define BR_TEST_TREE_UTIL_H

#include <criterion/criterion.h>

#include <string.h>

#include "suite/yamltree.h"

/* The tree of `yaml` (positions name "t.yaml"); fails the test if it does
 * not parse. Freed with br_node_free. */
static inline br_node *tree_of(const char *yaml) {
    br_node *root = NULL;
    br_error_clear();
    int rc = br_yaml_read(&root, "t.yaml", (const unsigned char *)yaml, strlen(yaml));
    cr_assert_eq(rc, 0, "%s", br_error_get());
    cr_assert_not_null(root);
    return root;
}

#endif
